// What the browser tests share: the real Referee server (clients/typescript/test/server.ts), the
// built page served by `vite preview` with the API proxied on the same origin, and Debian's
// Chromium driven by playwright-core (no browser download).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { startServer, type RunningServer } from "../../typescript/test/server.js";

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
  context: BrowserContext;
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/** Starts the server, the page (from dist/, built by scripts/test.sh) and a Chromium tab. */
export async function start(): Promise<Harness> {
  const server = await startServer();
  process.env.REFEREE_URL = server.baseUrl;
  const { preview } = await import("vite");
  const pv = await preview({ root: webRoot, configFile: join(webRoot, "vite.config.ts"), logLevel: "warn", preview: { port: 0, host: "127.0.0.1", strictPort: false } });
  const addr = pv.httpServer.address() as AddressInfo;
  const origin = `http://127.0.0.1:${addr.port}`;
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
    context,
    page,
    errors,
    async close() {
      await context.close().catch(() => {});
      await new Promise<void>((ok) => pv.httpServer.close(() => ok()));
      await server.stop();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
