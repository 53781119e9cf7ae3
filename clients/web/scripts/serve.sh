#!/usr/bin/env bash
# Builds and serves the reference web client on one origin with the Referee API:
#
#   ./clients/web/scripts/serve.sh            then open http://127.0.0.1:8080
#
# 1. builds the server (`cargo build -p referee-service --bin referee`, debug unless
#    REFEREE_BIN names a binary) and starts it on 127.0.0.1:$REFEREE_PORT (default 50051);
# 2. installs the pinned npm packages from the lock files (npm ci) of clients/typescript (the
#    generated client, `buf generate`) and clients/web, and builds the page (vite build → dist/);
# 3. serves dist/ with `vite preview` on 127.0.0.1:$PORT (default 8080), proxying gRPC-Web
#    (/referee.v1.Referee/*) and HTTP/JSON (/v1/*) to the server: one origin, no CORS setting.
# Ctrl-C stops both. REFEREE_URL=http://host:port serves the page against a server already
# running there instead of starting one.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
port="${PORT:-8080}"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM

if [[ -z "${REFEREE_URL:-}" ]]; then
  bin="${REFEREE_BIN:-}"
  if [[ -z "$bin" ]]; then
    (cd "$root" && cargo build -p referee-service --bin referee)
    bin="${CARGO_TARGET_DIR:-$root/target}/debug/referee"
  fi
  addr="127.0.0.1:${REFEREE_PORT:-50051}"
  "$bin" serve --addr "$addr" &
  pids+=($!)
  export REFEREE_URL="http://$addr"
fi

(cd "$root/clients/typescript" && npm ci --no-audit --no-fund --loglevel=error && npx buf generate)
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
npx vite build --logLevel warn
echo "serve.sh: the page is on http://127.0.0.1:$port (API: $REFEREE_URL)"
npx vite preview --host 127.0.0.1 --port "$port" --strictPort &
pids+=($!)
wait "${pids[-1]}"
