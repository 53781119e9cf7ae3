#!/usr/bin/env bash
# Load test on this machine (loopback only): builds the release binaries, starts
# `referee serve` on a free port with warnings-only logging, runs `referee-loadgen` against it
# (all scenarios, echo baseline included) and stops the server. Extra arguments go to
# referee-loadgen, e.g. `--json`, `--duration-secs 5`, `--scenarios echo-1841,apply-1841`.
# Method and figures: docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir=${CARGO_TARGET_DIR:-$(pwd)/target}
cargo build --release --locked -p referee-service -p referee-loadgen >&2
out=$(mktemp)
RUST_LOG=warn "$target_dir/release/referee" serve --addr 127.0.0.1:0 >"$out" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 100); do
  grep -q "listening on" "$out" && break
  sleep 0.1
done
addr=$(sed -n 's/^referee listening on //p' "$out" | head -n1)
[ -n "$addr" ] || { echo "the server did not start" >&2; exit 1; }
"$target_dir/release/referee-loadgen" --addr "$addr" --server-pid "$pid" "$@"
