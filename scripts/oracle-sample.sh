#!/usr/bin/env bash
# 1841 conformance sample against 18xx.games' own engine (issue #21): our re-export of both
# recorded games (tests/fixtures/1841) and a few generated games per mode (Version 2 at 3–8
# players, lite 3–6, version_1 with the FAQ options off, version_1 + sfli_run_variant,
# p2p_purchases), each replayed strictly in the oracle (`oracle.rb --serve`, one process per
# batch) and compared with our own replay at every round change and at the end
# (scripts/oracle_harness.py prints one line per game and a table per mode). Then the import
# direction: games 18xx.games' engine played itself, imported by Referee
# (scripts/oracle_import.py, see below).
#
#   scripts/oracle-sample.sh            # small fixed sample (a few minutes)
#   scripts/oracle-sample.sh --long     # 60 games per mode
#   scripts/oracle-sample.sh --games N  # N games per mode
#
# The oracle is found through REFEREE_ORACLE_18XX (default ../shared/oracle-18xx relative to
# the repository root) and needs `ruby` (Debian's package; no gems). Without either, it prints
# that it skipped and exits 0. Exit status otherwise: 1 when our re-export of a recorded game
# does not load in the oracle to the recorded result with every snapshot equal (strict, also in
# CI); a generated game that differs is reported in the table (cause, 18xx action id, our
# index) and fails the run too (known rule divergences, tests/oracle/divergences.json, never
# do; REFEREE_ORACLE_STRICT=0 only reports generated games that differ). The generated games
# are half random, half heuristic (`--policies random,heuristic`: at 3 and 4 players each by
# default). The oracle runs with the project's corrections of
# those divergences (tests/oracle/patched_oracle.rb and tests/oracle/patches/, loaded on top of
# the unmodified oracle; a game agreeing thanks to them is "same result with listed
# corrections"); scripts/oracle_harness.py --no-patches replays without them.
set -uo pipefail
cd "$(dirname "$0")/.."
games=4
custom=0
case "${1:-}" in
  --long) games=60; custom=1 ;;
  --games) games="${2:?--games N}"; custom=1 ;;
  "") ;;
  *) echo "usage: $0 [--long | --games N]" >&2; exit 2 ;;
esac
oracle="${REFEREE_ORACLE_18XX:-../shared/oracle-18xx}"
if ! command -v ruby >/dev/null 2>&1 || [ ! -f "$oracle/oracle.rb" ]; then
  echo "oracle sample: SKIPPED (needs ruby and the 18xx.games oracle at $oracle; set REFEREE_ORACLE_18XX)"
  exit 0
fi
export REFEREE_ORACLE_18XX="$(cd "$oracle" && pwd)"
# The caller's build when it names one (scripts/test-all.sh exports REFEREE_BIN), else ours.
if [ -n "${REFEREE_BIN:-}" ] && [ -x "$REFEREE_BIN" ]; then
  bin="$REFEREE_BIN"
else
  cargo build -q --workspace --bin referee || exit 1
  bin="${CARGO_TARGET_DIR:-target}/debug/referee"
  [ -x "$bin" ] || bin=target/debug/referee
fi
python3 scripts/oracle_harness.py --referee "$bin" --games "$games" --policies random,heuristic \
  --quiet --strict-recorded
status=$?
if [ "$status" -eq 3 ]; then
  if [ "${REFEREE_ORACLE_STRICT:-1}" = "1" ]; then
    status=1
  else
    echo "oracle sample: generated games differ (reported above; REFEREE_ORACLE_STRICT=0 only reports them)"
    status=0
  fi
fi

# Import direction: games 18xx.games' engine played itself (scripts/oracle_random.rb), imported
# by Referee (scripts/oracle_import.py): the excerpts in tests/fixtures/1841/oracle-played and
# a few freshly played games (fixed seeds; with --long or --games N, N per mode). A record of
# a step Referee skips that the importer cannot place (a `format` stop) fails the sample; a
# rules divergence is reported (tests/oracle/divergences-import.md) and does not.
echo "oracle sample: import direction"
python3 scripts/oracle_import.py --referee "$bin" --quiet \
  --files tests/fixtures/1841/oracle-played/*.json || status=1
if [ "$custom" = 1 ]; then
  python3 scripts/oracle_import.py --referee "$bin" --quiet --games "$games" --jobs 2 || status=1
else
  python3 scripts/oracle_import.py --referee "$bin" --quiet --games 1 --modes v2,version_1 \
    --seed 103 || status=1
fi
exit "$status"
