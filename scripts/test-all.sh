#!/usr/bin/env bash
# Runs every test suite of Referee: Rust (format, lint, unit, property and end-to-end tests, the
# random full games, the fuzz target bodies), the 18xx.games oracle sample (1841), proto lint +
# breaking-change check, the OpenAPI description against a running server, the Python and
# TypeScript clients against the real server (each with its package built, installed into a
# fresh environment and exercised: wheel + sdist, npm tarball), the web client in headless
# Chromium, and every doc example. One debug build serves every suite (no release build).
# docs/ARCHITECTURE.md "Tests and what they cost" lists the suites and their measured cost.
#
# Usage: ./scripts/test-all.sh          the default run (what CI runs): every suite, short fuzzing
#                                       (the fuzz target bodies replay their seed corpus and
#                                       1500 generated inputs each on the stable toolchain)
#        ./scripts/test-all.sh --long   adds the long suites: real cargo-fuzz runs
#                                       ($FUZZ_SECONDS per target, default 300) and the large
#                                       oracle sample (60 games per mode)
#
# Installs: every install step is printed ("install: ..."). Project tools go into project-local
# folders: npm packages into the node_modules of clients/typescript, clients/web and
# proto/openapi, the Python packages into clients/python/.venv (the package checks use fresh
# venvs and an npm project in a temporary folder), cargo-fuzz (--long only) into .tools/
# (ignored by git). Debian packages (ruby for the 18xx.games oracle suites, chromium for the
# browser tests, jq for the doc examples) are installed with apt-get only when running as root
# with CI=true; elsewhere a missing one is named and the suites that need it are skipped with a
# printed notice. --long also installs the nightly toolchain through rustup (into ~/.rustup)
# when it is missing (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

long=0
for arg in "$@"; do
  case $arg in
    --long) long=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-all: unknown argument $arg (usage: $0 [--long])" >&2; exit 2 ;;
  esac
done
# Suites that have a long variant read REFEREE_TEST_LONG=1.
export REFEREE_TEST_LONG=$long

export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
target_dir=${CARGO_TARGET_DIR:-$root/target}
export REFEREE_BIN="$target_dir/debug/referee"
export REFEREE_TOOLS="$root/.tools"
export PATH="$REFEREE_TOOLS/bin:$PATH"

declare -a timings=()
declare -a skipped=()
suite() {
  local name=$1; shift
  echo
  echo "==== $name ===="
  local t0=$SECONDS
  "$@"
  timings+=("$(printf '%-34s %5ss' "$name" $((SECONDS - t0)))")
}
skip() { # skip NAME REASON
  echo
  echo "==== $1 ===="
  echo "test-all: SKIPPED $1: $2"
  skipped+=("$(printf '%-34s skipped: %s' "$1" "$2")")
}

# --- Debian prerequisites ------------------------------------------------------------------------
# ruby: the 18xx.games oracle suites; chromium: the browser tests (TypeScript client's example);
# jq: the doc examples (README's curl examples use it).
have_ruby() { command -v ruby >/dev/null 2>&1; }
have_chromium() {
  [[ -n "${CHROMIUM_PATH:-}" && -x "${CHROMIUM_PATH}" ]] || command -v chromium >/dev/null 2>&1
}
debian_packages() {
  local missing=()
  have_ruby || missing+=(ruby)
  have_chromium || missing+=(chromium)
  command -v jq >/dev/null 2>&1 || missing+=(jq)
  if ((${#missing[@]} == 0)); then
    echo "test-all: Debian prerequisites present (ruby, chromium, jq)"
  elif [[ "${CI:-}" == "true" && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "install: apt-get update"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    echo "install: apt-get install -y --no-install-recommends ${missing[*]}"
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "test-all: missing prerequisites: ${missing[*]} (install them, e.g." \
      "apt-get install ${missing[*]}; CI installs them itself as root with CI=true);" \
      "the suites that need them are skipped"
  fi
}
suite "setup: Debian packages" debian_packages

# --- Rust -----------------------------------------------------------------------------------------
suite "rust: fmt"        cargo fmt --all -- --check
suite "rust: build"      cargo build --locked --workspace --all-targets
suite "rust: clippy"     cargo clippy --locked --workspace --all-targets -- -D warnings
# The fuzz target bodies run here too (test fuzz_regressions, docs/FUZZING.md): crash
# regressions, each target's seed corpus and REFEREE_FUZZ_INPUTS generated inputs per target, on
# the stable toolchain. In this one cargo invocation on purpose: a separate
# `cargo test --test fuzz_regressions` resolves other features and rebuilds the service's
# dependency tree (4.4 min measured).
suite "rust: tests (+ fuzz replay)" env REFEREE_FUZZ_INPUTS=1500 cargo test --locked --workspace
# Hundreds of random full games with the invariants checked after every action: Autobahn 50
# per player count, 1841 48 games. Same debug build as "rust: tests" (no release build): the
# games take about 5 s and 45 s.
# `--workspace --test NAME` (not `-p`): the same feature set as "rust: tests", so the same test
# binaries, no rebuild (with `-p referee-engine` cargo resolves the engine's dependencies with
# other features and rebuilds them: 1.5 min measured).
suite "rust: random games" env AUTOBAHN_GAMES=50 cargo test --locked --workspace --test autobahn_proptest
suite "rust: random 1841 games" env G1841_GAMES=48 cargo test --locked --workspace --test g1841_full_games
# The attack suite, short run (scripts/attack.sh, docs/SECURITY.md): every attack of issue #24 and
# the earlier ones against two real servers on loopback, bounded in time and count, with the
# servers' peak memory per attack. The binaries come from "rust: build".
suite "attack suite (short)" "$target_dir/debug/referee-attack" --referee-bin "$REFEREE_BIN"

# --- 18xx.games oracle suites (1841) --------------------------------------------------------------
# Place for the oracle suites: they need ruby and the oracle (REFEREE_ORACLE_18XX, default
# ../shared/oracle-18xx). Run a small sample by default and the large one when $long is 1;
# skip with `skip NAME REASON` when ruby or the oracle is missing.
if ! have_ruby; then
  skip "oracle sample (18xx.games)" "ruby missing (apt-get install ruby)"
elif [[ ! -f "${REFEREE_ORACLE_18XX:-../shared/oracle-18xx}/oracle.rb" ]]; then
  skip "oracle sample (18xx.games)" "no oracle at ${REFEREE_ORACLE_18XX:-../shared/oracle-18xx} (REFEREE_ORACLE_18XX)"
elif ((long)); then
  suite "oracle sample (18xx.games, --long)" ./scripts/oracle-sample.sh --long
else
  suite "oracle sample (18xx.games)" ./scripts/oracle-sample.sh
fi

# --- wire API and clients --------------------------------------------------------------------------
suite "proto: lint+breaking" ./scripts/proto-check.sh
# The OpenAPI description: current with proto/, served by the server, every route answering.
suite "openapi"          ./scripts/openapi-check.sh
suite "python client"    ./clients/python/scripts/test.sh
suite "typescript client" ./clients/typescript/scripts/test.sh
# The reference web client (clients/web) played in headless Chromium.
if have_chromium; then
  suite "web client (Chromium)" ./clients/web/scripts/test.sh
else
  skip "web client (Chromium)" "chromium missing (apt-get install chromium)"
fi
# Every shell, Python and TypeScript example of README.md, docs/API.md, docs/CLIENTS.md and the
# clients' READMEs, run against a real server (scripts/doc_examples.py; uses the venv and the
# node_modules the two client suites installed).
if command -v jq >/dev/null 2>&1; then
  suite "doc examples" python3 scripts/doc_examples.py
else
  skip "doc examples" "jq missing (apt-get install jq)"
fi

# --- fuzzing ---------------------------------------------------------------------------------------
# Default: the fuzz replay of "rust: tests" above. --long adds real cargo-fuzz runs.
if ((long)); then
  # Real coverage-guided runs: nightly + cargo-fuzz (installed into .tools/ when missing).
  suite "fuzz (cargo-fuzz, ${FUZZ_SECONDS:-300} s per target)" ./scripts/fuzz.sh "${FUZZ_SECONDS:-300}"
fi

echo
echo "==== summary (seconds per suite$( ((long)) && echo ", --long")) ===="
printf '%s\n' "${timings[@]}"
if ((${#skipped[@]})); then printf '%s\n' "${skipped[@]}"; fi
echo "total: $SECONDS s"
echo "all suites passed"
