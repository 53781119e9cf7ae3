#!/usr/bin/env bash
# The attack suite (docs/SECURITY.md "Attack suite"): replays every attack of issue #24 and the
# earlier ones (slowloris, HTTP/2 floods, compression bombs, tampered sealed tokens) against two
# real servers on loopback (open and sealed mode, started by `referee-attack`), each attack
# bounded in time and count, and prints per attack what was sent, the answer, and the server's
# peak resident memory (VmHWM, reset before each attack) and CPU time.
#
# Usage: ./scripts/attack.sh [--release] [referee-attack options]
#   (none)        the short run (what CI runs in scripts/test-all.sh), debug build
#   --full        the counts of the issue (30,000 calls on a zero-window connection, 160
#                 incomplete 4 MiB bodies, 512 calls in flight for 10 s per call kind, ...)
#   --only A,B    only these attacks (--list shows them)
#   --json FILE   the JSON report; --markdown prints the table of docs/SECURITY.md
#   --release     build and run the release binaries (the figures of docs/SECURITY.md)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=debug
args=()
for arg in "$@"; do
  case $arg in
    --release) profile=release ;;
    *) args+=("$arg") ;;
  esac
done
target_dir=${CARGO_TARGET_DIR:-$(pwd)/target}
if [[ $profile == release ]]; then
  cargo build --locked --release -p referee-service -p referee-loadgen >&2
else
  cargo build --locked -p referee-service -p referee-loadgen >&2
fi
exec "$target_dir/$profile/referee-attack" --referee-bin "$target_dir/$profile/referee" "${args[@]+"${args[@]}"}"
