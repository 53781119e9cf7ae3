// Starts the real Referee server for the tests: `$REFEREE_BIN serve --addr 127.0.0.1:0`, waits
// for its `referee listening on 127.0.0.1:PORT` line on stdout, and stops it afterwards.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve, dirname } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

const repoRoot = resolve(here, "..", "..", "..");

/**
 * The server binary: `$REFEREE_BIN`, else `$CARGO_TARGET_DIR/debug/referee` when that is set,
 * else `target/debug/referee` of the repository (`../../target/debug/referee` from the package).
 */
export function refereeBin(): string {
  if (process.env.REFEREE_BIN) return resolve(process.env.REFEREE_BIN);
  if (process.env.CARGO_TARGET_DIR) return resolve(repoRoot, process.env.CARGO_TARGET_DIR, "debug", "referee");
  return resolve(repoRoot, "target", "debug", "referee");
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT` */
  baseUrl: string;
  /** Everything the server wrote to stderr (for failure messages). */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startServer(extraArgs: string[] = [], timeoutMs = 30_000): Promise<RunningServer> {
  const bin = refereeBin();
  if (!existsSync(bin)) {
    throw new Error(`Referee binary not found at ${bin}: build it (cargo build -p referee-service) or set REFEREE_BIN`);
  }
  const child: ChildProcess = spawn(bin, ["serve", "--addr", "127.0.0.1:0", ...extraArgs], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn" },
  });
  let err = "";
  let out = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => {
    err += d;
  });
  const exited = new Promise<void>((res) => child.once("exit", () => res()));

  const baseUrl = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => {
      rej(new Error(`server printed no 'referee listening on' line within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      out += line + "\n";
      const m = /referee listening on (\S+:\d+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        res(`http://${m[1]}`);
      }
    });
    child.once("error", (e) => {
      clearTimeout(timer);
      rej(e);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      rej(new Error(`server exited early (code ${code}, signal ${signal})\nstdout: ${out}\nstderr: ${err}`));
    });
  });

  return {
    baseUrl,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const t = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(t);
      }
    },
  };
}
