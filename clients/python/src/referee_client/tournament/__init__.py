"""``referee-tournament``: M games between bots against a running Referee server.

Command line: ``referee-tournament --help`` (or ``python -m referee_client.tournament``).
From Python: :func:`run_tournament` with a :class:`Config`; :func:`standings`,
:func:`write_csv`, :func:`write_json` for the results.
"""

from .report import CSV_COLUMNS, standings_table, write_csv, write_json
from .runner import STATUSES, BotEntry, Config, GameRecord, bot_entries, derive_seed, play_game, run_tournament
from .stats import Standing, mean_ci95, standings, t_critical_95

__all__ = ["CSV_COLUMNS", "STATUSES", "BotEntry", "Config", "GameRecord", "Standing", "bot_entries", "derive_seed",
           "mean_ci95", "play_game", "run_tournament", "standings", "standings_table", "t_critical_95",
           "write_csv", "write_json"]
