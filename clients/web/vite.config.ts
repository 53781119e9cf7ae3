// Vite builds the page (Preact, TypeScript) into dist/ and, in `vite preview` / `vite dev`,
// serves it with the Referee API proxied on the same origin: gRPC-Web calls
// (`/referee.v1.Referee/*`) and the HTTP/JSON routes (`/v1/*`) go to REFEREE_URL
// (default http://127.0.0.1:50051), so the browser needs no CORS setting.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const target = process.env.REFEREE_URL ?? "http://127.0.0.1:50051";
const proxy = {
  "/referee.v1.Referee": { target, changeOrigin: true },
  "/v1/": { target, changeOrigin: true },
};

export default defineConfig({
  resolve: {
    // The page is written on the generated client of clients/typescript (one source of the
    // wire types); its runtime packages come from this package's node_modules.
    alias: { "@referee/client": fileURLToPath(new URL("../typescript/src/web.ts", import.meta.url)) },
    dedupe: ["@bufbuild/protobuf", "@connectrpc/connect", "@connectrpc/connect-web"],
  },
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  server: { proxy, fs: { allow: [".."] } },
  preview: { proxy },
  build: { target: "es2022", sourcemap: true, chunkSizeWarningLimit: 2000 },
});
