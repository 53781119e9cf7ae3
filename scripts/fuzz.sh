#!/usr/bin/env bash
# Runs every cargo-fuzz target of Referee for SECONDS each (default 60) and fails on the first
# crash. Usage: ./scripts/fuzz.sh [SECONDS] [TARGET...]      (docs/FUZZING.md)
#
# Installs what it needs: the nightly toolchain (rustup) and cargo-fuzz (crates registry).
# When no nightly toolchain can be had (offline), it falls back to the stable toolchain with
# RUSTC_BOOTSTRAP=1 and no sanitizer (-s none): coverage-guided fuzzing still runs, panics are
# still found; only AddressSanitizer (irrelevant for safe Rust) is off. Builds go to
# $FUZZ_TARGET_DIR (default: $CARGO_TARGET_DIR/fuzz or target/fuzz). The corpus grows in
# $FUZZ_CORPUS_DIR (default: that directory's corpus/), seeded from the golden corpus
# (tests/golden/*.pb), the recorded 18xx.games games (tests/fixtures/1841/*.json) and
# fuzz/seeds/. Crash inputs are written to fuzz/artifacts/TARGET/ and reported.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(decode_state apply_actions import_18xx validated_states)
export CARGO_TARGET_DIR=${FUZZ_TARGET_DIR:-${CARGO_TARGET_DIR:-$root/target}/fuzz}
corpus_root=${FUZZ_CORPUS_DIR:-$CARGO_TARGET_DIR/corpus}

toolchain=(+nightly)
sanitizer=(-s address)
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "fuzz: installing the nightly toolchain (rustup)" >&2
  if ! rustup toolchain install nightly --profile minimal >&2; then
    echo "fuzz: no nightly toolchain could be installed (offline?); using stable with" \
      "RUSTC_BOOTSTRAP=1 and no sanitizer" >&2
    toolchain=()
    sanitizer=(-s none)
    export RUSTC_BOOTSTRAP=1
  fi
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz" >&2
  cargo install cargo-fuzz --locked >&2
fi

cd fuzz
t0=$SECONDS
# Optimized, with debug assertions and overflow checks (the engine's invariant checker runs
# after every accepted action).
flags=(-O -a "${sanitizer[@]}")
cargo "${toolchain[@]}" fuzz build "${flags[@]}" >&2
echo "fuzz: build took $((SECONDS - t0)) s" >&2

status=0
for target in "${targets[@]}"; do
  corpus="$corpus_root/$target"
  seeds="$CARGO_TARGET_DIR/seeds/$target"
  mkdir -p "$corpus" "$seeds" "artifacts/$target"
  case $target in
    decode_state) cp "$root"/tests/golden/*.pb "$seeds/" 2>/dev/null || true ;;
    import_18xx) cp "$root"/tests/fixtures/1841/*.json "$seeds/" ;;
  esac
  [ -d "seeds/$target" ] && cp seeds/"$target"/* "$seeds/" 2>/dev/null
  echo "fuzz: $target for $seconds s" >&2
  if ! cargo "${toolchain[@]}" fuzz run "${flags[@]}" "$target" "$corpus" "$seeds" -- \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="artifacts/$target/" 2>"$CARGO_TARGET_DIR/$target.log"; then
    status=1
    tail -n 40 "$CARGO_TARGET_DIR/$target.log" >&2
    echo "fuzz: $target FAILED; crash inputs in fuzz/artifacts/$target/ (reproduce:" \
      "cd fuzz && cargo +nightly fuzz run $target artifacts/$target/<file>)" >&2
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$CARGO_TARGET_DIR/$target.log" \
      | sed "s/^/fuzz: $target /" >&2 || true
    echo "fuzz: $target ran $seconds s without a crash ($(find "$corpus" -type f | wc -l) corpus inputs)" >&2
  fi
done
exit "$status"
