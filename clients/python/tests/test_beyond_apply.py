"""Issue #9 through the helpers (sync and asyncio): ApplyBatch equals Replay, StreamReplay
yields every state, Playout is reproducible, SuggestRoutes on an operating turn, DefaultAction
is accepted by Apply, Describe names the action, and the viewer roles."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest

from referee_client import AsyncReferee, g1841
from referee_client.pb import referee_pb2

EXPORT = Path(__file__).resolve().parent / "data" / "18xx_1841_132002.json"


@pytest.fixture(scope="module")
def recorded(ref):
    """The recorded game 132002 up to its first operating turn with routes (action id 190 is
    IRSFF's tile on E9), as options and actions."""
    resp = ref.import_game(EXPORT.read_text(), stop_at_action_id=189)
    assert not resp.HasField("failure")
    return dict(resp.options), list(resp.actions), resp.state


def test_apply_batch_equals_replay(ref, recorded):
    options, actions, final = recorded
    start = ref.new_game("1841", 4, options)
    batch = ref.apply_batch(start, actions)
    assert not batch.HasField("failure")
    assert batch.actions_applied == len(actions) == len(batch.applied)
    assert batch.state == final == ref.replay("1841", 4, actions, options).state
    # An action refused in the middle: stops there, the earlier ones stand.
    bad = actions[:10] + [actions[9]] + actions[11:20]
    cut = ref.apply_batch(start, bad)
    assert cut.failure.index == 10 and cut.actions_applied == 10
    assert cut.state == ref.replay("1841", 4, actions[:10], options).state


def test_stream_replay_yields_every_state(ref, recorded):
    options, actions, final = recorded
    messages = list(ref.stream_replay("1841", 4, actions[:30], options))
    assert len(messages) == 31 and messages[-1].last
    assert [m.action_count for m in messages] == list(range(31))
    tenth = [m.action_count for m in ref.stream_replay("1841", 4, actions[:30], options, every=10)
             if m.HasField("state")]
    assert tenth == [0, 10, 20, 30]


def test_playout_is_reproducible(ref):
    state = ref.new_game("autobahn", 2, seed=4)
    a = ref.playout(state, 3, seed=4, include_actions=True)
    b = ref.playout(state, 3, seed=4, include_actions=True)
    assert a == b and a.games_played == 3 and not a.partial
    assert sum(s.wins for s in a.seats) >= a.finished
    first = ref.playout(state, 2, policy="first", max_actions=100)
    assert first.played == [] and first.games_played == 2
    with pytest.raises(grpc.RpcError) as e:
        ref.playout(state, 1000, max_actions=50000)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_suggest_routes_default_action_describe(ref, recorded):
    options, actions, state = recorded
    # IRSFF is operating: the optimizer's routes are legal for RunRoutes.
    routes = ref.suggest_routes(state, "IRSFF")
    assert routes.corporation == "IRSFF" and routes.proven_optimal
    assert routes.revenue == sum(routes.revenues)
    to_act = ref.legal_actions(state, 0).to_act
    seat = to_act[0]
    d = ref.default_action(state, seat)
    assert ref.apply(state, seat, d.action).state.action_count == state.action_count + 1
    r = ref.default_action(state, seat, policy="random", seed=3)
    ref.apply(state, seat, r.action)
    text = ref.describe(state, seat, g1841.lay_tile("E9", "202", 5))
    assert text.legal and text.text == "IRSFF lays tile 202 on E9 (Bergamo), rotation 5, for L.0"
    other = ref.describe(state, (seat + 1) % 4, g1841.pass_())
    assert not other.legal and other.rejection.code == referee_pb2.REJECTION_CODE_NOT_YOUR_TURN


def test_viewer_roles(ref):
    state = ref.new_game("autobahn", 2, seed=1)
    spectator = ref.view(state, viewer="spectator")
    assert spectator.autobahn.state.card_deck_count > 0 and len(spectator.autobahn.state.card_deck) == 0
    with pytest.raises(grpc.RpcError) as e:
        ref.view(state, viewer="arbiter")
    assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(ValueError):
        ref.view(state, viewer="king")


def test_async_helpers(server, recorded):
    options, actions, state = recorded

    async def main():
        async with AsyncReferee(server.target) as ref:
            start = await ref.new_game("1841", 4, options)
            batch = await ref.apply_batch(start, actions[:20])
            assert batch.actions_applied == 20
            frames = [m async for m in ref.stream_replay("1841", 4, actions[:20], options, events_only=True)]
            assert len(frames) == 21 and frames[-1].state == batch.state
            p = await ref.playout(await ref.new_game("autobahn", 2, seed=2), 2, seed=2)
            assert p.games_played == 2
            routes = await ref.suggest_routes(state)
            assert routes.corporation == "IRSFF"
            seat = (await ref.legal_actions(state, 0)).to_act[0]
            d = await ref.default_action(state, seat)
            assert (await ref.describe(state, seat, d.action)).text == d.description
            v = await ref.view(state, viewer="spectator")
            assert v.HasField("g1841")

    asyncio.run(main())
