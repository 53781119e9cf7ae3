"""Standings math: wins, mean score with a 95% confidence interval (Student's t), mean rank."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

# Two-sided 95% critical values of Student's t (0.975 quantile) by degrees of freedom.
_T975 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
    10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
    18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
    26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980,
}
_Z975 = 1.959964


def t_critical_95(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (table values; between
    table rows interpolated linearly in 1/df, which is accurate to about 0.001)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if df in _T975:
        return _T975[df]
    keys = sorted(_T975)
    if df > keys[-1]:
        lo_df, lo_t, hi_inv, hi_t = keys[-1], _T975[keys[-1]], 0.0, _Z975
    else:
        lo_df = max(k for k in keys if k < df)
        hi_df = min(k for k in keys if k > df)
        lo_t, hi_inv, hi_t = _T975[lo_df], 1 / hi_df, _T975[hi_df]
    lo_inv = 1 / lo_df
    x = 1 / df
    return hi_t + (lo_t - hi_t) * (x - hi_inv) / (lo_inv - hi_inv)


def mean_ci95(values: Sequence[float]) -> tuple[float | None, float | None]:
    """``(mean, half_width)`` of the 95% confidence interval of the mean (t distribution, sample
    standard deviation). ``(None, None)`` for no values; half width ``None`` for one value."""
    n = len(values)
    if n == 0:
        return None, None
    mean = sum(values) / n
    if n == 1:
        return mean, None
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, t_critical_95(n - 1) * math.sqrt(var / n)


@dataclass
class Standing:
    """One bot's line in the standings (a bot = one entry of ``--bots``)."""

    bot: str
    spec: str
    games: int = 0
    finished: int = 0
    #: Finished games where the bot ranked 1 (shared first places count for each).
    wins: int = 0
    mean_score: float | None = None
    #: Half width of the 95% confidence interval of ``mean_score``.
    ci95: float | None = None
    mean_rank: float | None = None
    timeouts: int = 0
    rejections: int = 0
    default_moves: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None

    def to_dict(self) -> dict:
        d = asdict(self)
        d["win_rate"] = self.win_rate
        return d


def standings(records: Sequence, bots: Sequence[tuple[str, str]]) -> list[Standing]:
    """Standings of ``bots`` (``(label, spec)`` pairs) over game records (objects with
    ``seats`` — labels by seat —, ``finished``, ``scores``, ``ranks``, ``timeouts``,
    ``rejections``, ``default_moves``). Scores and ranks count finished games only. Sorted by
    wins, then mean score, best first."""
    table = {label: Standing(label, spec) for label, spec in bots}
    scores: dict[str, list[float]] = {label: [] for label, _ in bots}
    ranks: dict[str, list[float]] = {label: [] for label, _ in bots}
    for r in records:
        for seat, label in enumerate(r.seats):
            s = table[label]
            s.games += 1
            s.timeouts += r.timeouts[seat] if r.timeouts else 0
            s.rejections += r.rejections[seat] if r.rejections else 0
            s.default_moves += r.default_moves[seat] if r.default_moves else 0
            if r.finished and r.scores is not None:
                s.finished += 1
                scores[label].append(r.scores[seat])
                ranks[label].append(r.ranks[seat])
                if r.ranks[seat] == 1:
                    s.wins += 1
    for label, s in table.items():
        s.mean_score, s.ci95 = mean_ci95(scores[label])
        s.mean_rank = sum(ranks[label]) / len(ranks[label]) if ranks[label] else None
    order = list(table.values())
    order.sort(key=lambda s: (-s.wins, -(s.mean_score if s.mean_score is not None else -math.inf), s.bot))
    return order


__all__ = ["Standing", "mean_ci95", "standings", "t_critical_95"]
