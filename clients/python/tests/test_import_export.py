"""ImportGame / ExportGame through the helpers: a game recorded on 18xx.games
(``data/18xx_1841_132002.json``, a copy of ``tests/fixtures/1841/132002.json``) imports to
its recorded result; exported again, it imports to the same state."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from referee_client import AsyncReferee, g1841
from referee_client.pb import referee_pb2

EXPORT = Path(__file__).resolve().parent / "data" / "18xx_1841_132002.json"


@pytest.fixture(scope="module")
def export_text() -> str:
    return EXPORT.read_text()


def test_import_game_replays_the_recorded_game_to_its_result(ref, export_text):
    resp = ref.import_game(export_text, check=True, timeout=120)
    assert not resp.HasField("failure"), resp.failure
    assert resp.finished and resp.check.ok
    assert resp.game == "1841" and resp.source_game_id == 132002
    assert resp.game_end_reason == "stock_market"
    assert resp.actions_applied == len(resp.actions) == resp.actions_total == 702
    # 18xx player ids -> seats in the export's order, with the final values (1841 §13).
    assert [(p.seat, p.id, p.result) for p in resp.players] == [
        (0, "512", 5697), (1, "5518", 3921), (2, "605", 5899), (3, "2843", 5703)]
    assert all(p.result == p.recorded_result for p in resp.players)
    assert resp.state.action_count == 702


def test_export_game_and_import_it_again(ref, export_text):
    # The concession round and a little more (stop at action 110, the first par) keep it quick.
    first = ref.import_game(json.loads(export_text), stop_at_action_id=110)
    assert first.stopped_at_limit and not first.HasField("failure")
    players = [(p.id, p.name) for p in first.players]
    out = ref.export_game("1841", 4, first.actions, dict(first.options), players=players, source_game_id=132002)
    assert not out.HasField("failure") and out.actions_exported == len(first.actions)
    written = json.loads(out.export_json)
    assert written["title"] == "1841" and written["id"] == 132002
    assert written["players"][0] == {"id": 512, "name": "Player 1"}
    again = ref.import_game(out.export_json.encode())
    assert not again.HasField("failure")
    assert list(again.actions) == list(first.actions)
    assert again.state == first.state


def test_import_failures_name_the_action(ref, export_text):
    game = json.loads(export_text)
    bid = next(a for a in game["actions"] if a["type"] == "bid")
    bid["type"] = "frobnicate"
    resp = ref.import_game(game)
    assert resp.failure.kind == referee_pb2.IMPORT_FAILURE_KIND_UNKNOWN_ACTION_TYPE
    assert resp.failure.action_id == bid["id"] and resp.failure.field == "type"
    cut = ref.import_game(export_text[:4000])
    assert cut.failure.kind == referee_pb2.IMPORT_FAILURE_KIND_TRUNCATED_JSON
    assert cut.failure.line >= 1 and not cut.HasField("state")
    refused = ref.export_game("1841", 4, [(0, g1841.bid("Bayard", 20)), (1, g1841.bid("Bayard", 22))])
    assert refused.failure.index == 1 and refused.actions_exported == 1
    assert refused.failure.rejection.code == referee_pb2.REJECTION_CODE_ILLEGAL_MOVE


def test_async_import_game(server, export_text):
    async def main():
        async with AsyncReferee(server.target, timeout=60) as ref:
            resp = await ref.import_game(export_text, stop_at_action_id=110)
            assert resp.stopped_at_limit and resp.state.g1841.HasField("stock_round")
            out = await ref.export_game("1841", 4, resp.actions, dict(resp.options))
            assert not out.HasField("failure")
            again = await ref.import_game(out.export_json)
            assert again.state == resp.state

    asyncio.run(main())
