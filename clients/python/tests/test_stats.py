"""Unit tests (no server): standings math and the CSV/JSON files."""

from __future__ import annotations

import csv
import json
import math

import pytest

from referee_client.tournament import (CSV_COLUMNS, Config, GameRecord, bot_entries, mean_ci95, standings,
                                       t_critical_95, write_csv, write_json)


def test_t_critical_values():
    assert t_critical_95(1) == pytest.approx(12.706)
    assert t_critical_95(9) == pytest.approx(2.262)
    assert t_critical_95(30) == pytest.approx(2.042)
    # interpolated rows, against the exact quantiles
    assert t_critical_95(35) == pytest.approx(2.0301, abs=2e-3)
    assert t_critical_95(50) == pytest.approx(2.0086, abs=2e-3)
    assert t_critical_95(100) == pytest.approx(1.9840, abs=2e-3)
    assert t_critical_95(10**6) == pytest.approx(1.96, abs=1e-3)
    values = [t_critical_95(df) for df in range(1, 400)]
    assert all(a >= b for a, b in zip(values, values[1:]))  # decreasing towards z
    with pytest.raises(ValueError):
        t_critical_95(0)


def test_mean_ci95():
    assert mean_ci95([]) == (None, None)
    assert mean_ci95([7]) == (7, None)
    mean, half = mean_ci95([1, 2, 3, 4, 5])
    # sd = sqrt(2.5), se = sd / sqrt(5), t(4) = 2.776
    assert mean == 3
    assert half == pytest.approx(2.776 * math.sqrt(2.5 / 5))
    assert mean_ci95([4, 4, 4]) == (4, 0)


def rec(g, seats, scores=None, ranks=None, status="finished", timeouts=None, rejections=None, defaults=None):
    n = len(seats)
    return GameRecord(game=g, seed=100 + g, seats=seats, bots=[s.split("#")[0] for s in seats], bot_seeds=[1] * n,
                      status=status, finished=status == "finished", scores=scores, ranks=ranks, moves=10 * (g + 1),
                      timeouts=timeouts or [0] * n, rejections=rejections or [0] * n, default_moves=defaults or [0] * n,
                      bot_errors=[0] * n, reason="final_round" if status == "finished" else "cap")


BOTS = [("a", "random"), ("b", "first")]


def test_standings():
    records = [
        rec(0, ["a", "b"], [10, 20], [2, 1]),
        rec(1, ["b", "a"], [30, 30], [1, 1]),                    # shared first place: a win for both
        rec(2, ["a", "b"], [50, 5], [1, 2], timeouts=[2, 0], rejections=[1, 3], defaults=[3, 1]),
        rec(3, ["b", "a"], status="capped", timeouts=[0, 1]),   # unfinished: no score, no win
    ]
    table = standings(records, BOTS)
    by = {s.bot: s for s in table}
    a, b = by["a"], by["b"]
    assert (a.games, a.finished, a.wins) == (4, 3, 2)
    assert (b.games, b.finished, b.wins) == (4, 3, 2)
    assert a.mean_score == pytest.approx(30) and b.mean_score == pytest.approx(55 / 3)
    assert a.ci95 == pytest.approx(mean_ci95([10, 30, 50])[1])
    assert a.mean_rank == pytest.approx(4 / 3) and b.mean_rank == pytest.approx(4 / 3)
    assert (a.timeouts, a.rejections, a.default_moves) == (3, 1, 3)
    assert (b.timeouts, b.rejections, b.default_moves) == (0, 3, 1)
    assert a.win_rate == pytest.approx(2 / 3)
    assert [s.bot for s in table] == ["a", "b"]  # equal wins: higher mean score first
    # no finished game at all
    empty = standings([rec(0, ["a", "b"], status="stopped")], BOTS)
    assert all(s.mean_score is None and s.win_rate is None and s.mean_rank is None for s in empty)


def test_csv_and_json_files(tmp_path):
    records = [rec(0, ["a", "b"], [10, 20], [2, 1]), rec(1, ["b", "a"], status="capped")]
    records[0].actions = [[0, {"g1841": {"pass": {}}}]]
    config = Config(game="autobahn", players=2, games=2, bots=bot_entries(["a=random", "b=first"]), seed=3)
    table = standings(records, BOTS)
    csv_path = write_csv(records, tmp_path / "out" / "t.csv")
    json_path = write_json(config, records, table, tmp_path / "out" / "t.json", seconds=1.5)

    rows = list(csv.DictReader(csv_path.open()))
    assert list(rows[0]) == CSV_COLUMNS
    assert rows[0]["seats"] == "a;b" and rows[0]["scores"] == "10;20" and rows[0]["ranks"] == "2;1"
    assert rows[0]["finished"] == "true" and rows[0]["status"] == "finished" and rows[0]["seed"] == "100"
    assert rows[1]["scores"] == "" and rows[1]["finished"] == "false" and rows[1]["status"] == "capped"
    assert rows[1]["timeouts"] == "0;0" and rows[1]["moves"] == "20"

    doc = json.loads(json_path.read_text())
    assert doc["config"]["game"] == "autobahn" and doc["config"]["seed"] == 3
    assert doc["config"]["bots"] == [{"label": "a", "spec": "random"}, {"label": "b", "spec": "first"}]
    assert doc["summary"] == {"finished": 1, "capped": 1, "stopped": 0, "error": 0, "games": 2, "seconds": 1.5}
    g0, g1 = doc["games"]
    assert g0["scores"] == [10, 20] and g0["ranks"] == [2, 1] and g0["finished"] is True
    assert g0["actions"] == [[0, {"g1841": {"pass": {}}}]]
    assert g1["scores"] is None and "actions" not in g1 and "final_state" not in g1
    assert [s["bot"] for s in doc["standings"]] == [s.bot for s in table]
    assert doc["standings"][0]["win_rate"] == 1.0
