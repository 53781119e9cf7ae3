#!/usr/bin/env bash
# Regenerates docs/games/autobahn-balance.md and its PNG plots (issue #23) with one command:
#   ./scripts/autobahn-balance.sh            # 1,000 games per table (about 15 minutes on 2 cores)
#   GAMES=200 ./scripts/autobahn-balance.sh  # a quicker look
#   SOLO_GAMES=500 ...                       # games per Autobot level (default: GAMES)
#   BEFORE=keep ...                          # reuse docs/games/autobahn-balance-data/before.json
# It builds `referee` in release, runs `referee balance` (round-robin tables of the strategy bots
# at 2, 3 and 4 players, the balanced bot solo against the Autobot at levels 1-12) on the
# previous default board (reconstructed-2026-2, "before") and on the current default board
# ("after"), keeps both JSON reports in docs/games/autobahn-balance-data/, and draws the plots
# with matplotlib (installed from PyPI into a venv under ~/.cache/referee/ on first use).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${GAMES:-1000}"
SOLO_GAMES="${SOLO_GAMES:-$GAMES}"
THREADS="${THREADS:-2}"
BEFORE_BOARD="${BEFORE_BOARD:-reconstructed-2026-2}"
cargo build --release -p referee-service
BIN="${CARGO_TARGET_DIR:-target}/release/referee"
DATA=docs/games/autobahn-balance-data
mkdir -p "$DATA"
if [ "${BEFORE:-run}" != keep ] || [ ! -s "$DATA/before.json" ]; then
    "$BIN" balance --games "$GAMES" --solo-games "$SOLO_GAMES" --threads "$THREADS" \
        --options board="$BEFORE_BOARD" --out "$DATA/before.json" >/dev/null
fi
"$BIN" balance --games "$GAMES" --solo-games "$SOLO_GAMES" --threads "$THREADS" \
    --out "$DATA/after.json" >/dev/null
VENV="${REFEREE_BALANCE_VENV:-$HOME/.cache/referee/balance-venv}"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import matplotlib" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "matplotlib>=3.8,<4"
fi
"$VENV/bin/python" scripts/autobahn_balance_report.py docs/games "$DATA/before.json" "$DATA/after.json"
echo "wrote docs/games/autobahn-balance.md"
