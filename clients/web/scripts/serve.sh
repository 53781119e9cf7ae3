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
# running there instead of starting one. SEALED=1 starts the server in sealed mode with a fresh
# key (a temporary key file, deleted on exit): the page then plays per seat, each seat seeing
# only its own view (docs/SECURITY.md, "Seat access in sealed mode").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
port="${PORT:-8080}"

pids=()
keydir=""
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [[ -n "$keydir" ]]; then rm -rf "$keydir"; fi
}
trap cleanup EXIT INT TERM

if [[ -z "${REFEREE_URL:-}" ]]; then
  bin="${REFEREE_BIN:-}"
  if [[ -z "$bin" ]]; then
    (cd "$root" && cargo build -p referee-service --bin referee)
    bin="${CARGO_TARGET_DIR:-$root/target}/debug/referee"
  fi
  addr="127.0.0.1:${REFEREE_PORT:-50051}"
  seal=()
  if [[ "${SEALED:-}" == 1 ]]; then
    keydir="$(mktemp -d)"
    (umask 077 && echo "web:$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')" >"$keydir/keys")
    seal=(--seal-key-file "$keydir/keys")
    echo "serve.sh: sealed mode (a fresh key in $keydir, deleted on exit)"
  fi
  "$bin" serve --addr "$addr" "${seal[@]}" &
  pids+=($!)
  export REFEREE_URL="http://$addr"
fi

(cd "$root/clients/typescript" && npm ci --no-audit --no-fund --loglevel=error && npx buf generate)
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
npx vite build --logLevel warn
echo "serve.sh: the page is on http://127.0.0.1:$port (API: $REFEREE_URL)"
# vite itself (not through npx, which would leave it running when this script is stopped).
./node_modules/.bin/vite preview --host 127.0.0.1 --port "$port" --strictPort &
pids+=($!)
wait "${pids[-1]}"
