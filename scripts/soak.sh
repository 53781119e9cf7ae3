#!/usr/bin/env bash
# Soak test on this machine (loopback only; not in CI: it takes MINUTES + build time).
# Usage: ./scripts/soak.sh [MINUTES]            (default 10)
#
# Builds the release binaries, starts `referee serve` on a free loopback port, and runs
# `referee-soak` against it: a mix of Apply/LegalActions/View of both games at saturation
# (64 calls in flight over 4 connections, SOAK_CONCURRENCY / SOAK_CONNECTIONS to change),
# the server's VmRSS sampled each minute, then SIGTERM mid-load with the load kept up for 5 s.
# Passes when
#   * no call was answered with anything but OK or load shedding (RESOURCE_EXHAUSTED /
#     UNAVAILABLE; after SIGTERM also CANCELLED: a call the client dropped unsent because the
#     server had closed the connection, and INTERNAL from h2's GOAWAY NO_ERROR sent by the
#     server: tonic's name for a stream past the server's last stream id, not processed),
#   * VmRSS grew less than 10 % past the highest sample of the run's first half (the
#     warm-up and a paced caller's catching up raise it early; a leak passes that peak),
#   * the server exited 0 after a graceful shutdown ("referee stopped", not the grace timeout),
#   * the OK answers the client received equal the calls the server says it answered
#     (calls_answered, logged on exit): no accepted call was lost.
# SOAK_RATE=R paces the honest calls at R per second (open loop) instead of saturating;
# SOAK_HOSTILE=1 mixes in the attack suite's hostile traffic (referee-attack's attacks at soak
# scale, one after the other for the whole soak; docs/SECURITY.md): then the honest latency
# percentiles and the attacks' peaks are in the report, memory must stay bounded rather than
# flat, and the server's answered-call count also includes the attacks' calls (not compared).
# The JSON report is written to target/soak-report.json (or $SOAK_REPORT). Method and figures:
# docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
target_dir=${CARGO_TARGET_DIR:-$(pwd)/target}
report=${SOAK_REPORT:-$target_dir/soak-report.json}
cargo build --release --locked -p referee-service -p referee-loadgen >&2
log=$(mktemp)
# Info logs of the server module only: startup, the shutdown signal and the final count.
RUST_LOG=warn,referee_service::server=info "$target_dir/release/referee" serve \
  --addr 127.0.0.1:0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
  grep -q "^referee listening on" "$log" && break
  sleep 0.1
done
addr=$(sed -n 's/^referee listening on //p' "$log" | head -n1)
[ -n "$addr" ] || { echo "soak: the server did not start" >&2; cat "$log" >&2; exit 1; }
echo "soak: server $pid on $addr, $minutes min; machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
client_rc=0
"$target_dir/release/referee-soak" --addr "$addr" --server-pid "$pid" --minutes "$minutes" \
  --concurrency "${SOAK_CONCURRENCY:-64}" --connections "${SOAK_CONNECTIONS:-4}" \
  ${SOAK_RATE:+--rate "$SOAK_RATE"} ${SOAK_HOSTILE:+--hostile} >"$report" || client_rc=$?
server_rc=0
wait "$pid" || server_rc=$?
trap 'rm -f "$log"' EXIT
fail=0
cat "$report"
echo "---- server log (last lines) ----" >&2
tail -n 5 "$log" >&2
if [ "$client_rc" -ne 0 ]; then
  echo "soak: FAILED: the client reports unexpected errors or memory growth (exit $client_rc)" >&2
  fail=1
fi
if [ "$server_rc" -ne 0 ]; then
  echo "soak: FAILED: the server exited with $server_rc" >&2
  fail=1
fi
if ! grep -q "referee stopped" "$log"; then
  echo "soak: FAILED: no graceful stop in the server log" >&2
  fail=1
fi
answered=$(grep -o 'calls_answered=[0-9]*' "$log" | tail -n1 | cut -d= -f2)
ok=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ok"])' "$report" 2>/dev/null || echo "")
if [ -n "${SOAK_HOSTILE:-}" ]; then
  echo "soak: hostile traffic mixed in: the server's ${answered:-?} answered calls include the attacks' (not compared)" >&2
elif [ -z "$answered" ] || [ "$answered" != "$ok" ]; then
  echo "soak: FAILED: the server answered ${answered:-?} calls, the client received ${ok:-?} OK answers" >&2
  fail=1
else
  echo "soak: every one of the $answered calls the server answered reached the client" >&2
fi
[ "$fail" -eq 0 ] && echo "soak: PASSED" >&2
exit "$fail"
