// The examples against the real server: the Node bot plays a whole game of Autobahn, and the
// browser page, loaded in headless Chromium, starts a game over gRPC-Web and shows the current
// player, the legal actions and the log.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "./server.js";
import { startExampleServer, type ExampleServer } from "../examples/browser/serve.js";

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

/** Chromium: $CHROMIUM_PATH, else the Debian package's /usr/bin/chromium (scripts/test.sh installs it). */
function chromiumPath(): string | undefined {
  for (const p of [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (p && existsSync(p)) return p;
  }
  return undefined;
}

const chromium = chromiumPath();
// Without Chromium the browser test is skipped on a developer's machine, but fails in CI (and
// under scripts/test.sh, which installs it).
const mustHaveBrowser = Boolean(process.env.CI || process.env.REFEREE_REQUIRE_BROWSER);

describe("examples/browser (headless Chromium over gRPC-Web)", { skip: !chromium && !mustHaveBrowser ? "no chromium (apt-get install chromium, or run scripts/test.sh)" : false }, () => {
  let page: ExampleServer;
  let server: RunningServer;
  let profile: string;

  before(async () => {
    assert.ok(chromium, "chromium not found: install it (apt-get install chromium) or set CHROMIUM_PATH");
    page = await startExampleServer();
    // The page is served from another origin than the Referee server: allow it (CORS).
    server = await startServer(["--cors-origins", page.origin]);
    profile = mkdtempSync(join(tmpdir(), "referee-chromium-"));
  });
  after(async () => {
    await page?.close();
    await server?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it("starts a game, shows the current player, the legal actions and the log, and plays a move", { timeout: 120_000 }, async () => {
    const { chromium: pw } = await import("playwright-core");
    const context = await pw.launchPersistentContext(profile, {
      executablePath: chromium,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
    });
    try {
      const tab = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      tab.on("pageerror", (e) => errors.push(String(e)));
      await tab.goto(`${page.origin}/?server=${encodeURIComponent(server.baseUrl)}&game=autobahn&seats=3&seed=2`);
      await tab.waitForSelector("body[data-status=playing]", { timeout: 60_000 }).catch(async (e) => {
        throw new Error(`${e}\npage: ${await tab.textContent("body")}\nerrors: ${errors.join("\n")}\nserver: ${server.stderr()}`);
      });
      const current = (await tab.textContent("#current")) ?? "";
      assert.match(current, /^Seat \d to act \(action 0\)$/);
      const legal = await tab.locator("#legal button").allTextContents();
      assert.ok(legal.length > 0, "no legal actions shown");
      assert.ok(legal.every((t) => t.startsWith("chooseRouteCard")), legal.join("\n")); // setup: the route-card draft
      assert.match((await tab.textContent("#log")) ?? "", /new game: autobahn, 3 seats, seed 2/);

      // Play the first legal action: the log grows, the action count moves on.
      await tab.locator("#legal button").first().click();
      await tab.waitForFunction(() => document.querySelectorAll("#log li").length >= 2, undefined, { timeout: 30_000 });
      assert.match((await tab.locator("#log li").last().textContent()) ?? "", /^seat \d: chooseRouteCard card=\S+ → routeCardChosen/);
      await tab.waitForFunction(() => /\(action 1\)/.test(document.getElementById("current")?.textContent ?? ""), undefined, { timeout: 30_000 });
      assert.deepEqual(errors, []);
      assert.equal((await tab.textContent("#error")) ?? "", "");
      await tab.screenshot({ path: join(tmpdir(), "referee-browser-example.png") });

      // A server that does not allow the page's origin (no --cors-origins): the browser only
      // says "Failed to fetch"; the page says what to do.
      const closed = await startServer();
      try {
        await tab.goto(`${page.origin}/?server=${encodeURIComponent(closed.baseUrl)}&game=autobahn&seats=3&seed=2`);
        await tab.waitForSelector("body[data-status=error]", { timeout: 60_000 });
        const error = (await tab.textContent("#error")) ?? "";
        assert.match(error, /Failed to fetch/, error);
        assert.ok(error.includes(`referee serve --cors-origins ${page.origin}`), error);
        await tab.screenshot({ path: join(tmpdir(), "referee-browser-example-no-cors.png") });
      } finally {
        await closed.stop();
      }
    } finally {
      await context.close();
    }
  });
});
