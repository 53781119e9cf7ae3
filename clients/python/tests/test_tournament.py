"""The tournament runner against the real server: a small Autobahn tournament that plays to the
end, one 1841 game, misbehaving bots, reproducibility and the command line."""

from __future__ import annotations

import asyncio
import csv
import json
import subprocess
import sys

import pytest
from google.protobuf import json_format

from referee_client import Game, autobahn
from referee_client.pb import referee_pb2
from referee_client.tournament import Config, bot_entries, run_tournament, standings, write_csv, write_json

from conftest import CLIENT_DIR

AUTOBAHN_CAP = 400  # random 3-player games end after about 150 actions


@pytest.fixture(scope="module")
def autobahn_run(server):
    """10 games of Autobahn, 3 players, three RandomBots, actions recorded."""
    config = Config(game="autobahn", players=3, games=10, bots=bot_entries(["random"] * 3), seed=2026,
                    concurrency=3, max_moves=AUTOBAHN_CAP, record_actions=True)
    seen = []
    records = asyncio.run(run_tournament(config, server.target, on_game_done=seen.append))
    assert len(seen) == 10
    return config, records


def test_autobahn_tournament_finishes_and_scores_match_final_states(autobahn_run, ref):
    config, records = autobahn_run
    assert [r.game for r in records] == list(range(10))
    assert all(r.status in ("finished", "capped") for r in records), [(r.game, r.status, r.reason) for r in records]
    finished = [r for r in records if r.finished]
    assert len(finished) >= 8, [(r.game, r.status, r.moves) for r in records]
    for r in records:
        assert r.timeouts == r.rejections == r.default_moves == r.bot_errors == [0, 0, 0]
        assert len(r.actions) == r.moves and r.final_state.action_count == r.moves
        if r.status == "capped":
            assert r.moves == AUTOBAHN_CAP and r.scores is None
            continue
        # the scores are the game's own: the final state's result and the outcome of View
        result = autobahn.state(r.final_state).result
        assert r.scores == [line.total for line in result.scores]
        assert r.ranks == list(result.ranks) and r.reason == result.end_reason
        outcome = ref.view(r.final_state).outcome
        assert r.scores == list(outcome.scores) and r.ranks == list(outcome.ranks)
        assert sorted(r.ranks)[0] == 1
    # seats rotate: game g starts with random#(g % 3 + 1)
    assert [r.seats[0] for r in records[:4]] == ["random#1", "random#2", "random#3", "random#1"]
    # every seed is different and recorded
    assert len({r.seed for r in records}) == 10
    assert len({s for r in records for s in r.bot_seeds}) == 30


def test_the_servers_strategy_bots_play_a_tournament_by_policy_name(server):
    """The policy names of the server (docs/games/autobahn-bots.md) are built-in bot names: two
    Autobahn games with builder, trucker and heuristic play to the end with no default move."""
    config = Config(game="autobahn", players=3, games=2, bots=bot_entries(["builder", "trucker", "heuristic"]),
                    seed=5, concurrency=2, max_moves=2000)
    records = asyncio.run(run_tournament(config, server.target))
    assert [r.status for r in records] == ["finished", "finished"], [(r.status, r.reason) for r in records]
    for r in records:
        assert r.default_moves == r.bot_errors == r.rejections == [0, 0, 0]
        assert sorted(r.ranks)[0] == 1


def test_recorded_actions_replay_to_the_final_state(autobahn_run, ref):
    config, records = autobahn_run
    r = records[0]
    actions = [(seat, json_format.ParseDict(a, referee_pb2.Action())) for seat, a in r.actions]
    game = Game.from_replay(ref, "autobahn", 3, actions, seed=r.seed)
    assert game.state == r.final_state


def test_a_game_is_reproducible_from_the_tournament_seed(autobahn_run, server):
    config, records = autobahn_run
    again = Config(game="autobahn", players=3, games=10, bots=bot_entries(["random"] * 3), seed=2026,
                   max_moves=40, record_actions=True, only=[3])
    (rec,) = asyncio.run(run_tournament(again, server.target))
    assert rec.game == 3 and rec.seed == records[3].seed and rec.bot_seeds == records[3].bot_seeds
    assert rec.seats == records[3].seats
    assert rec.status == "capped" and rec.moves == 40
    assert rec.actions == records[3].actions[:40]


def test_results_files_parse(autobahn_run, tmp_path):
    config, records = autobahn_run
    table = standings(records, [(b.label, b.spec) for b in config.bots])
    assert sum(s.games for s in table) == 30
    assert sum(s.wins for s in table) >= sum(1 for r in records if r.finished)
    csv_path = write_csv(records, tmp_path / "t.csv")
    json_path = write_json(config, records, table, tmp_path / "t.json")
    rows = list(csv.DictReader(csv_path.open()))
    assert len(rows) == 10
    for row, r in zip(rows, records):
        assert int(row["seed"]) == r.seed and int(row["moves"]) == r.moves
        assert row["finished"] == ("true" if r.finished else "false")
        if r.finished:
            assert [int(x) for x in row["scores"].split(";")] == r.scores
            assert [int(x) for x in row["ranks"].split(";")] == r.ranks
    doc = json.loads(json_path.read_text())
    assert [g["scores"] for g in doc["games"]] == [r.scores for r in records]
    assert doc["summary"]["games"] == 10
    assert {s["bot"] for s in doc["standings"]} == {"random#1", "random#2", "random#3"}


def test_1841_game_runs_to_the_cap_or_until_the_engine_stops(server):
    # An 1841 game lasts hundreds of actions (about 700 with `referee playout`'s biased random
    # policy), so 120 random moves reach the cap, or a point where nobody can act. The game must
    # be recorded as unfinished, without scores.
    cap = 120
    config = Config(game="1841", players=4, games=1, bots=bot_entries(["random"] * 4), seed=7, max_moves=cap)
    (rec,) = asyncio.run(run_tournament(config, server.target))
    assert rec.status in ("capped", "stopped"), (rec.status, rec.reason)
    assert not rec.finished and rec.scores is None and rec.ranks is None
    if rec.status == "capped":
        assert rec.moves == cap
    else:
        assert rec.moves < cap and rec.reason
    assert rec.final_state.game == "1841" and rec.final_state.action_count == rec.moves
    assert rec.default_moves == [0, 0, 0, 0]  # random bots play only listed, accepted actions


def test_misbehaving_bots_get_timeouts_retries_and_default_moves(server):
    specs = ["bots_for_tests:SlowBot", "bots_for_tests:IllegalBot", "bots_for_tests:CrashBot",
             "bots_for_tests:AsyncRandomBot"]
    config = Config(game="1841", players=4, games=1, bots=bot_entries(specs), seed=1, max_moves=8,
                    move_timeout=0.3, max_retries=1)
    (rec,) = asyncio.run(run_tournament(config, server.target))
    assert rec.status in ("capped", "stopped"), (rec.status, rec.reason)
    slow, illegal, crash, good = range(4)
    assert rec.timeouts[slow] == 1 and rec.default_moves[slow] >= 1
    # every decision of IllegalBot: one refusal, one retry refused, then the default move
    assert rec.rejections[illegal] == 2 * rec.default_moves[illegal] >= 2
    assert rec.bot_errors[crash] == rec.default_moves[crash] >= 1
    assert rec.timeouts[good] == rec.rejections[good] == rec.bot_errors[good] == rec.default_moves[good] == 0


def test_command_line(server, tmp_path):
    exe = CLIENT_DIR / ".venv" / "bin" / "referee-tournament"
    cmd = [str(exe)] if exe.is_file() else [sys.executable, "-m", "referee_client.tournament"]
    out = tmp_path / "results" / "run"
    res = subprocess.run(cmd + ["--server", server.target, "--game", "autobahn", "--players", "3", "--games", "3",
                                "--bots", "random,first,bots_for_tests:NoSeedBot", "--max-moves", "30",
                                "--seed", "5", "--out", str(out)],
                         capture_output=True, text=True, timeout=300, cwd=CLIENT_DIR / "tests")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "3 capped" in res.stdout and "score ± 95% CI" in res.stdout
    for label in ("random", "first", "bots_for_tests:NoSeedBot"):
        assert label in res.stdout
    rows = list(csv.DictReader((tmp_path / "results" / "run.csv").open()))
    assert [r["status"] for r in rows] == ["capped"] * 3 and all(r["moves"] == "30" for r in rows)
    doc = json.loads((tmp_path / "results" / "run.json").read_text())
    assert doc["config"]["seed"] == 5 and doc["summary"]["capped"] == 3

    bad = subprocess.run(cmd + ["--server", server.target, "--game", "chess", "--bots", "random,random"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown game" in bad.stderr
    bad = subprocess.run(cmd + ["--server", server.target, "--game", "autobahn", "--bots", "nosuchbot"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "nosuchbot" in bad.stderr
    for args, message in ((["--games", "0"], "at least 1"), (["--concurrency", "-2"], "at least 1"),
                          (["--games", "3", "--only", "3"], "games 0–2"), (["--only", "x"], "game numbers")):
        bad = subprocess.run(cmd + ["--server", server.target, "--game", "autobahn", "--bots", "random,random",
                                    "--out", str(tmp_path / "never")] + args,
                             capture_output=True, text=True, timeout=60)
        assert bad.returncode == 2 and message in bad.stderr, (args, bad.stderr)
        assert not (tmp_path / "never.csv").exists()


def test_command_line_against_a_sealed_server_needs_the_arbiter_credential(sealed_server, tmp_path):
    exe = CLIENT_DIR / ".venv" / "bin" / "referee-tournament"
    cmd = [str(exe)] if exe.is_file() else [sys.executable, "-m", "referee_client.tournament"]
    base = cmd + ["--server", sealed_server.target, "--game", "autobahn", "--players", "2", "--games", "2",
                  "--bots", "random,first", "--max-moves", "20", "--no-progress"]
    # No credential: a spectator may not ask for a seat's legal actions, so every game fails.
    res = subprocess.run(base + ["--out", str(tmp_path / "none")], capture_output=True, text=True, timeout=300)
    assert res.returncode == 1, res.stdout + res.stderr
    rows = list(csv.DictReader((tmp_path / "none.csv").open()))
    assert [r["status"] for r in rows] == ["error"] * 2
    assert all("PERMISSION_DENIED" in r["reason"] for r in rows), rows
    # The arbiter credential lets the runner act for every seat.
    res = subprocess.run(base + ["--credential", sealed_server.arbiter, "--out", str(tmp_path / "arb")],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    rows = list(csv.DictReader((tmp_path / "arb.csv").open()))
    assert [(r["status"], r["moves"]) for r in rows] == [("capped", "20")] * 2
