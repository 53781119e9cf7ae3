#!/usr/bin/env bash
# The npm package as users get it:
#
#   clients/typescript/scripts/package-check.sh      (after npm ci; scripts/test.sh runs it)
#
# 1. `npm pack` (its prepack runs `npm run build`: buf generate, tsc twice -> dist/esm and
#    dist/cjs with declarations) into a temporary folder; the tarball must hold both builds,
#    their declarations and the licences, and no TypeScript sources.
# 2. A fresh temporary project installs the tarball (and its dependencies from the registry).
# 3. Against a real server, from that project: an ES module (`import "@referee/client"` over
#    gRPC, `import "@referee/client/web"` over gRPC-Web) and a CommonJS script (`require`, both
#    entry points) play the first moves of 1841 (a bid accepted, one rejected); tsc type-checks
#    a .mts and a .cts consumer against the shipped declarations; esbuild bundles the web entry
#    for browsers (no Node module in the bundle) and the bundle runs.
#
# Environment: REFEREE_BIN (server; default $CARGO_TARGET_DIR/debug/referee or
# target/debug/referee at the repository root), REFEREE_TARGET (host:port of a running server
# instead).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
bin_dir="$here/node_modules/.bin"
[[ -x "$bin_dir/tsc" ]] || { echo "package-check: run npm ci in clients/typescript first" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/referee-npmcheck.XXXXXX")"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "package-check: npm pack (prepack: npm run build)"
(cd "$here" && npm pack --silent --pack-destination "$work" > "$work/pack.log" 2>&1) || { cat "$work/pack.log"; exit 1; }
tarball="$(ls "$work"/referee-client-*.tgz)"
tar tzf "$tarball" | sort > "$work/contents"
for f in package/package.json package/README.md package/LICENSE-MIT package/LICENSE-APACHE \
         package/dist/esm/index.js package/dist/esm/index.d.ts package/dist/esm/web.js package/dist/esm/web.d.ts \
         package/dist/cjs/index.js package/dist/cjs/index.d.ts package/dist/cjs/web.js package/dist/cjs/web.d.ts \
         package/dist/cjs/package.json package/dist/esm/gen/referee/v1/referee_pb.js \
         package/dist/cjs/gen/referee/g1841/v1/g1841_pb.d.ts; do
  grep -qx "$f" "$work/contents" || { echo "package-check: the tarball lacks $f" >&2; exit 1; }
done
if grep -E '\.ts$' "$work/contents" | grep -qv '\.d\.ts$'; then
  echo "package-check: the tarball ships TypeScript sources:" >&2; grep -E '\.ts$' "$work/contents" | grep -v '\.d\.ts$' >&2; exit 1
fi
echo "package-check: $(basename "$tarball"): $(wc -l < "$work/contents") files, $(wc -c < "$tarball") bytes, ESM + CJS + declarations"

# A server for the checks.
if [[ -n "${REFEREE_TARGET:-}" ]]; then
  target="$REFEREE_TARGET"
else
  bin="${REFEREE_BIN:-${CARGO_TARGET_DIR:-$root/target}/debug/referee}"
  if [[ "$bin" != /* ]]; then bin="$PWD/$bin"; fi
  [[ -x "$bin" ]] || { echo "package-check: no server binary at $bin (cargo build, or set REFEREE_BIN)" >&2; exit 1; }
  "$bin" serve --addr 127.0.0.1:0 > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    target="$(sed -n 's/.*referee listening on \([0-9.]*:[0-9]*\).*/\1/p' "$work/server.log" | head -n1)"
    [[ -n "$target" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; echo "package-check: server exited" >&2; exit 1; }
    sleep 0.1
  done
  [[ -n "$target" ]] || { cat "$work/server.log"; echo "package-check: server did not start" >&2; exit 1; }
fi
export REFEREE_URL="http://$target"
echo "package-check: server at $REFEREE_URL"

app="$work/app"
mkdir -p "$app"
cat > "$app/package.json" <<'JSON'
{ "name": "referee-package-check", "version": "0.0.0", "private": true }
JSON
echo "package-check: fresh project, npm install the tarball"
(cd "$app" && npm install --no-audit --no-fund --silent "$tarball" > "$work/install.log" 2>&1) || { cat "$work/install.log"; exit 1; }

# The same moves through every entry point: the first legal bid accepted, the next seat's raise
# to L.5 refused for its amount (ILLEGAL_MOVE).
cat > "$app/play.js" <<'JS'
// Shared by the ESM and CJS checks: `lib` is the imported/required module.
module.exports = async function play(lib, transport, label) {
  const client = transport ? lib.createRefereeClient(process.env.REFEREE_URL, { transport })
                           : lib.createRefereeClient(process.env.REFEREE_URL);
  const games = (await client.listGames()).map((g) => g.id);
  if (!games.includes("1841") || !games.includes("autobahn")) throw new Error(`${label}: games ${games}`);
  let state = await client.newGame("1841", 4);
  const seat = (await client.view(state)).toAct[0];
  const legal = await client.legalActions(state, seat);
  const first = legal.legalActions.value.bids[0];
  const ok = await client.apply(state, seat, lib.g1841.bid(first.concession, first.minPrice));
  if (!ok.accepted) throw new Error(`${label}: bid refused: ${ok.rejection.message}`);
  state = ok.state;
  // The seat whose turn it is now raises to L.5: refused for the amount, not the turn.
  const next = (await client.view(state)).toAct[0];
  const bad = await client.apply(state, next, lib.g1841.bid(first.concession, 5));
  if (!bad.rejected) throw new Error(`${label}: a bid of L.5 was accepted`);
  const code = lib.rejectionCodeName(bad.rejection.code);
  if (code !== "ILLEGAL_MOVE") throw new Error(`${label}: L.5 refused as ${code}: ${bad.rejection.message}`);
  console.log(`package-check: ${label}: games ${games.join(", ")}; seat ${seat} bids L.${first.minPrice} on ${first.concession}: accepted; seat ${next} L.5: ${code} (${bad.rejection.message} ${bad.rejection.rule})`);
};
JS
mv "$app/play.js" "$app/play.cjs"
cat > "$app/esm.mjs" <<'JS'
import { createRequire } from "node:module";
import * as node from "@referee/client";
import * as web from "@referee/client/web";
const play = createRequire(import.meta.url)("./play.cjs");
await play(node, "grpc", "import @referee/client (gRPC)");
await play(web, undefined, "import @referee/client/web (gRPC-Web)");
JS
cat > "$app/cjs.cjs" <<'JS'
const node = require("@referee/client");
const web = require("@referee/client/web");
const play = require("./play.cjs");
(async () => {
  await play(node, "grpc-web", "require @referee/client (gRPC-Web)");
  await play(node, "grpc", "require @referee/client (gRPC)");
  await play(web, undefined, "require @referee/client/web (gRPC-Web)");
})().catch((e) => { console.error(e); process.exit(1); });
JS
(cd "$app" && node esm.mjs && node cjs.cjs)

# The declarations, as TypeScript users see them from ESM and from CommonJS.
cat > "$app/consumer.mts" <<'TS'
import { createRefereeClient, g1841, type ApplyResult, type GameState } from "@referee/client";
import { createRefereeClient as createWebClient } from "@referee/client/web";
const client = createRefereeClient("http://127.0.0.1:50051", { transport: "grpc" });
const state: GameState = await client.newGame("1841", 4);
const res: ApplyResult = await client.apply(state, 0, g1841.bid("Bayard", 20));
if (res.accepted) console.log(res.state.actionCount + 1n);
createWebClient("http://127.0.0.1:50051");
TS
cat > "$app/consumer.cts" <<'TS'
import referee = require("@referee/client");
const client = referee.createRefereeClient("http://127.0.0.1:50051", { transport: "grpc-web" });
export async function first(): Promise<referee.GameState> { return client.newGame("autobahn", 2); }
TS
cat > "$app/tsconfig.json" <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM"], "types": [], "strict": true, "noEmit": true, "skipLibCheck": true },
  "files": ["consumer.mts", "consumer.cts"] }
JSON
"$bin_dir/tsc" -p "$app/tsconfig.json"
echo "package-check: tsc: the declarations type-check from .mts (import) and .cts (require)"

# A bundler: esbuild bundles the web entry for browsers; the bundle must not pull in Node
# modules, and it runs (fetch exists in Node too).
cat > "$app/browser.mjs" <<'JS'
import * as web from "@referee/client/web";
import play from "./play.cjs";
await play(web, undefined, "esbuild bundle of @referee/client/web (browser platform)");
JS
"$bin_dir/esbuild" "$app/browser.mjs" --bundle --platform=browser --format=esm --log-level=warning \
  --outfile="$app/bundle.mjs"
if grep -q 'node:http2\|require("http2")' "$app/bundle.mjs"; then
  echo "package-check: the browser bundle pulls in http2" >&2; exit 1
fi
# process.env is read by play.cjs; give the bundle a Node process.
(cd "$work" && node "$app/bundle.mjs")
echo "package-check: ok"
