// The examples against the real server: the Node bot plays a whole game of Autobahn. (The
// browser example is the reference web client, clients/web, with its own Chromium tests.)
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "./server.js";

describe("examples/bot.ts", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  it("plays a whole game of Autobahn to its final scores", { timeout: 240_000 }, async () => {
    const bot = fileURLToPath(new URL("../examples/bot.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", bot, "--seats", "3", "--seed", "7"], {
      env: { ...process.env, REFEREE_URL: server.baseUrl },
      timeout: 230_000,
    });
    assert.match(stdout, /finished after \d+ moves/, stdout);
    const lines = stdout.split("\n").filter((l) => /^ {2}seat \d: -?\d+ VP, rank \d$/.test(l));
    assert.equal(lines.length, 3, stdout);
    assert.ok(lines.some((l) => l.endsWith("rank 1")), stdout);
  });
});
