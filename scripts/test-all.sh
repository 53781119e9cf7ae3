#!/usr/bin/env bash
# Runs every test suite of Referee on a fresh machine: Rust (format, lint, unit, property and
# end-to-end tests), proto lint + breaking-change check, the Python client and the TypeScript
# client against the real server, and the fuzz targets for 60 s each. Installs what it needs
# (npm packages, a Python venv, the nightly toolchain and cargo-fuzz for fuzzing).
# Usage: ./scripts/test-all.sh        (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
target_dir=${CARGO_TARGET_DIR:-$root/target}
export REFEREE_BIN="$target_dir/debug/referee"

declare -a timings=()
suite() {
  local name=$1; shift
  echo
  echo "==== $name ===="
  local t0=$SECONDS
  "$@"
  timings+=("$(printf '%-28s %4ss' "$name" $((SECONDS - t0)))")
}

suite "rust: fmt"        cargo fmt --all -- --check
suite "rust: build"      cargo build --locked --workspace --all-targets
suite "rust: clippy"     cargo clippy --locked --workspace --all-targets -- -D warnings
suite "rust: tests"      cargo test --locked --workspace
# Hundreds of random full Autobahn games (50 per player count) with the invariants checked
# after every action; release build, so it stays fast.
suite "rust: random games (release)" env AUTOBAHN_GAMES=50 cargo test --locked --release -p referee-engine --test autobahn_proptest
suite "rust: random 1841 games (release)" env G1841_GAMES=48 cargo test --locked --release -p referee-engine --test g1841_full_games
suite "proto: lint+breaking" ./scripts/proto-check.sh
suite "python client"    ./clients/python/scripts/test.sh
suite "typescript client" ./clients/typescript/scripts/test.sh
# cargo-fuzz targets, 60 s each (docs/FUZZING.md); installs nightly + cargo-fuzz when missing.
suite "fuzz (60 s per target)" ./scripts/fuzz.sh 60

echo
echo "==== summary (seconds per suite) ===="
printf '%s\n' "${timings[@]}"
echo "all suites passed"
