// What the browser tests share: the real Referee server (clients/typescript/test/server.ts), the
// built page served by `vite preview` with the API proxied on the same origin, and Debian's
// Chromium driven by playwright-core (no browser download).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { refereeBin, startServer, type RunningServer } from "../../typescript/test/server.js";

export const webRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

export function chromiumPath(): string | undefined {
  for (const p of [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (p && existsSync(p)) return p;
  }
  return undefined;
}

export interface Harness {
  server: RunningServer;
  origin: string;
  /** A second server in sealed mode (a fresh test key) and the page served against it. */
  sealedServer: RunningServer;
  sealedOrigin: string;
  /** The sealed server's arbiter credential (`referee credential`): for the tests' own checks only. */
  arbiter: string;
  context: BrowserContext;
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/** Serves dist/ with `vite preview`, the API proxied to `api` (vite.config.ts reads REFEREE_URL). */
async function servePage(api: string) {
  process.env.REFEREE_URL = api;
  const { preview } = await import("vite");
  const pv = await preview({ root: webRoot, configFile: join(webRoot, "vite.config.ts"), logLevel: "warn", preview: { port: 0, host: "127.0.0.1", strictPort: false } });
  const addr = pv.httpServer.address() as AddressInfo;
  return { pv, origin: `http://127.0.0.1:${addr.port}` };
}

/**
 * Starts the server (open mode) and a sealed-mode one, the page (from dist/, built by
 * scripts/test.sh) served against each, and a Chromium tab.
 */
export async function start(): Promise<Harness> {
  const server = await startServer();
  const keys = mkdtempSync(join(tmpdir(), "referee-web-keys-"));
  // A test key: never use a published key.
  writeFileSync(join(keys, "keys"), `web:${"a7".repeat(32)}\n`, { mode: 0o600 });
  const sealedServer = await startServer(["--seal-key-file", join(keys, "keys")]);
  const cred = spawnSync(refereeBin(), ["credential", "--seal-key-file", join(keys, "keys")], { encoding: "utf8" });
  if (cred.status !== 0) throw new Error(`referee credential: ${cred.stderr}`);
  const open = await servePage(server.baseUrl);
  const sealed = await servePage(sealedServer.baseUrl);
  const origin = open.origin;
  const profile = mkdtempSync(join(tmpdir(), "referee-web-chromium-"));
  const { chromium } = await import("playwright-core");
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width: 1600, height: 1000 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return {
    server,
    origin,
    sealedServer,
    sealedOrigin: sealed.origin,
    arbiter: cred.stdout.trim(),
    context,
    page,
    errors,
    async close() {
      await context.close().catch(() => {});
      for (const p of [open.pv, sealed.pv]) await new Promise<void>((ok) => p.httpServer.close(() => ok()));
      await server.stop();
      await sealedServer.stop();
      rmSync(profile, { recursive: true, force: true });
      rmSync(keys, { recursive: true, force: true });
    },
  };
}
