// Serves the browser example: bundles main.ts with esbuild (in memory) and serves index.html and
// app.js on a small node:http server.
//
//   npx tsx examples/browser/serve.ts [--port 8080]
//   referee serve --cors-origins http://127.0.0.1:8080      (in another terminal)
//   open http://127.0.0.1:8080/?server=http://127.0.0.1:50051
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));

export interface ExampleServer {
  /** `http://127.0.0.1:PORT` — the page's origin, for `--cors-origins`. */
  origin: string;
  close(): Promise<void>;
}

/** Bundles the page and serves it on `host:port` (port 0: any free port). */
export async function startExampleServer(port = 0, host = "127.0.0.1"): Promise<ExampleServer> {
  const bundle = await build({
    entryPoints: [join(here, "main.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    sourcemap: "inline",
    logLevel: "warning",
  });
  const files: Record<string, [string, string | Uint8Array]> = {
    "/": ["text/html; charset=utf-8", await readFile(join(here, "index.html"), "utf8")],
    "/app.js": ["text/javascript; charset=utf-8", bundle.outputFiles[0].contents],
  };
  files["/index.html"] = files["/"];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const file = files[path];
    if (!file || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-type": file[0], "cache-control": "no-store" }).end(file[1]);
  });
  await new Promise<void>((ok) => server.listen(port, host, ok));
  const { port: actual } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${actual}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: "string", default: process.env.PORT ?? "8080" } } });
  const s = await startExampleServer(Number(values.port));
  console.log(`browser example on ${s.origin}/?server=http://127.0.0.1:50051`);
  console.log(`start the server with: referee serve --cors-origins ${s.origin}`);
}
