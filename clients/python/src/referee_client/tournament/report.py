"""Results: CSV and JSON files, and the standings table on the terminal."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path

from .stats import Standing

#: CSV columns, one row per game. List values (by seat) are joined with ``;``.
CSV_COLUMNS = ["game", "seed", "status", "finished", "seats", "bots", "bot_seeds", "scores", "ranks", "moves",
               "timeouts", "rejections", "default_moves", "bot_errors", "seconds", "reason"]


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ";".join(_cell(v) for v in value)
    return str(value)


def write_csv(records: Sequence, path: str | Path) -> Path:
    """One row per game (:data:`CSV_COLUMNS`); lists by seat joined with ``;``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        for r in records:
            d = r.to_dict()
            w.writerow([_cell(d.get(c)) for c in CSV_COLUMNS])
    return path


def write_json(config, records: Sequence, table: Sequence[Standing], path: str | Path,
               seconds: float | None = None) -> Path:
    """``{"config", "summary", "standings", "games"}``; games as in the CSV, lists unjoined."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    summary = {s: sum(1 for r in records if r.status == s) for s in ("finished", "capped", "stopped", "error")}
    summary["games"] = len(records)
    if seconds is not None:
        summary["seconds"] = round(seconds, 3)
    doc = {
        "config": config.to_dict(),
        "summary": summary,
        "standings": [s.to_dict() for s in table],
        "games": [r.to_dict() for r in records],
    }
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return path


def _fmt(x: float | None, digits: int = 1) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def standings_table(table: Sequence[Standing], title: str = "Standings"):
    """A ``rich.table.Table`` of the standings."""
    from rich import box
    from rich.table import Table

    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
              caption="fin: finished games; wins: rank 1 in a finished game (shared firsts count for each); "
                      "score: mean score of finished games ± half width of its 95% confidence interval; "
                      "rank: mean rank; t/o: timeouts; rej: rejected actions; dflt: default moves",
              caption_justify="left")
    for name, justify in [("#", "right"), ("bot", "left"), ("games", "right"), ("fin", "right"),
                          ("wins", "right"), ("win%", "right"), ("score ± 95% CI", "right"),
                          ("rank", "right"), ("t/o", "right"), ("rej", "right"), ("dflt", "right")]:
        if name == "bot":  # the one column that folds when the terminal is narrow
            t.add_column(name, justify=justify, overflow="fold", ratio=1)
        else:
            t.add_column(name, justify=justify, no_wrap=True, min_width=len(name))
    for i, s in enumerate(table, 1):
        if s.mean_score is None:
            score = "—"
        elif s.ci95 is None:
            score = _fmt(s.mean_score)
        else:
            score = f"{s.mean_score:.1f} ± {s.ci95:.1f}"
        bot = s.bot if s.bot == s.spec or s.bot.startswith(s.spec + "#") else f"{s.bot} ({s.spec})"
        t.add_row(str(i), bot, str(s.games), str(s.finished), str(s.wins),
                  _fmt(100 * s.win_rate if s.win_rate is not None else None, 0), score,
                  _fmt(s.mean_rank, 2), str(s.timeouts), str(s.rejections), str(s.default_moves))
    return t


__all__ = ["CSV_COLUMNS", "standings_table", "write_csv", "write_json"]
