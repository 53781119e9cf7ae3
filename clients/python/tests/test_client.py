"""End-to-end tests of referee_client against the real server (gRPC)."""

from __future__ import annotations

import subprocess
import sys

import grpc
import pytest

from referee_client import Referee, RejectedError, g1841
from referee_client.pb import autobahn_pb2, g1841_pb2, referee_pb2

from conftest import CLIENT_DIR

CONCESSIONS = ["Bayard", "SFLP", "SFTC", "SFMA", "SFTN", "SSFL", "SFTG", "IRSFF"]


@pytest.fixture()
def state(ref):
    """A fresh 4-player 1841 game (Version 2)."""
    return ref.new_game("1841", 4)


def test_list_games(ref):
    games = {g.id: g for g in ref.list_games()}
    assert "1841" in games and "autobahn" in games
    g = games["1841"]
    assert g.min_players <= 4 <= g.max_players
    assert g.display_name and g.rules_version
    assert g.stage != referee_pb2.GAME_STAGE_UNSPECIFIED
    assert games["autobahn"].stage != referee_pb2.GAME_STAGE_UNSPECIFIED


def test_new_game_1841(ref, state):
    assert state.game == "1841"
    assert state.action_count == 0
    assert state.rules_version
    assert state.WhichOneof("state") == "g1841"
    s = g1841.state(state)
    assert s.WhichOneof("round") == "concession_round"
    assert [p.seat for p in s.players] == [0, 1, 2, 3]
    assert [p.cash for p in s.players] == [840] * 4
    # The players' starting cash is paid out of the L.14,400 bank.
    assert s.bank_cash > 0
    assert s.bank_cash + sum(p.cash for p in s.players) == 14400
    assert list(s.player_order) == [0, 1, 2, 3]
    assert list(s.concession_round.remaining) == CONCESSIONS
    assert not s.options.version_1 and not s.options.lite


def test_legal_actions_first_nomination(ref, state):
    legal = ref.legal_actions(state, 0)
    assert list(legal.to_act) == [0]
    assert legal.WhichOneof("legal_actions") == "g1841"
    la = legal.g1841
    assert any(a.WhichOneof("action") == "pass" for a in la.actions), la
    assert la.bids, la
    assert {b.concession for b in la.bids} <= set(CONCESSIONS)
    assert "Bayard" in {b.concession for b in la.bids}
    for b in la.bids:
        assert b.min_price == 20
        assert b.max_price == 840


def test_legal_actions_for_a_waiting_seat(ref, state):
    legal = ref.legal_actions(state, 2)
    assert list(legal.to_act) == [0]
    assert not legal.g1841.bids and not legal.g1841.actions


def test_apply_legal_bid(ref, state):
    step = ref.apply(state, 0, g1841.bid("Bayard", 20))
    assert step.state.action_count == 1
    assert step.events, "an accepted bid reports at least one event"
    kinds = [e.g1841.WhichOneof("event") for e in step.events]
    assert "auction_opened" in kinds, kinds
    opened = next(e.g1841.auction_opened for e in step.events if e.g1841.HasField("auction_opened"))
    assert (opened.seat, opened.concession, opened.price) == (0, "Bayard", 20)
    auction = g1841.state(step.state).concession_round.auction
    assert (auction.concession, auction.high_bid, auction.high_bidder) == ("Bayard", 20, 0)
    # the caller's state is a value: untouched
    assert state.action_count == 0


def test_apply_accepts_typed_action(ref, state):
    typed = g1841_pb2.Action(bid=g1841_pb2.Bid(concession="Bayard", price=20))
    assert ref.apply(state, 0, typed).state.action_count == 1


def test_illegal_raise_is_rejected_and_state_still_works(ref, state):
    after = ref.apply(state, 0, g1841.bid("Bayard", 20)).state
    legal = ref.legal_actions(after, 1)
    assert list(legal.to_act) == [1]
    assert [(b.concession, b.min_price) for b in legal.g1841.bids] == [("Bayard", 25)]
    with pytest.raises(RejectedError) as exc:
        ref.apply(after, 1, g1841.bid("Bayard", 22))  # below the L.5 minimum raise
    e = exc.value
    assert e.code != referee_pb2.REJECTION_CODE_UNSPECIFIED
    assert e.code == referee_pb2.REJECTION_CODE_ILLEGAL_MOVE, e
    assert e.message
    assert e.code_name == "REJECTION_CODE_ILLEGAL_MOVE"
    # the same state still takes a legal raise
    step = ref.apply(after, 1, g1841.bid("Bayard", 25))
    assert step.state.action_count == 2


def test_out_of_turn_is_rejected(ref, state):
    with pytest.raises(RejectedError) as exc:
        ref.apply(state, 1, g1841.bid("Bayard", 20))
    assert exc.value.code == referee_pb2.REJECTION_CODE_NOT_YOUR_TURN, exc.value
    assert ref.apply(state, 0, g1841.pass_()).state.action_count == 1


def test_try_apply_returns_rejection(ref, state):
    resp = ref.try_apply(state, 0, g1841.bid("Bayard", 19))
    assert resp.WhichOneof("result") == "rejected"
    assert resp.rejected.rejection.code != referee_pb2.REJECTION_CODE_UNSPECIFIED
    resp = ref.try_apply(state, 0, g1841.bid("Bayard", 20))
    assert resp.WhichOneof("result") == "accepted"


def test_wrong_game_action_is_rejected(ref, state):
    with pytest.raises(RejectedError) as exc:
        ref.apply(state, 0, autobahn_pb2.Action())
    assert exc.value.code != referee_pb2.REJECTION_CODE_UNSPECIFIED


def test_stale_state(ref, state):
    with pytest.raises(RejectedError) as exc:
        ref.apply(state, 0, g1841.pass_(), expected_action_count=5)
    assert exc.value.code == referee_pb2.REJECTION_CODE_STALE_STATE
    assert ref.apply(state, 0, g1841.pass_(), expected_action_count=0).state.action_count == 1


def test_view_seat_and_spectator(ref, state):
    state = ref.apply(state, 0, g1841.bid("Bayard", 20)).state
    for seat in (0, 3, None):
        v = ref.view(state, seat)
        assert v.action_count == 1
        assert list(v.to_act) == [1]
        assert v.WhichOneof("view") == "g1841"
        # Version 2 has no secrets: everyone sees the whole state.
        assert v.g1841.state == state.g1841
        assert not v.HasField("outcome")


def test_replay(ref):
    actions = [(0, g1841.bid("Bayard", 20)), (1, g1841.bid("Bayard", 25)), (2, g1841.pass_())]
    resp = ref.replay("1841", 4, actions)
    assert not resp.HasField("failure")
    assert resp.actions_applied == 3
    assert resp.state.action_count == 3
    # same path, step by step
    s = ref.new_game("1841", 4)
    for seat, a in actions:
        s = ref.apply(s, seat, a).state
    assert s == resp.state

    bad = ref.replay("1841", 4, [actions[0], (1, g1841.bid("Bayard", 22)), actions[2]])
    assert bad.HasField("failure")
    assert bad.failure.index == 1
    assert bad.failure.rejection.code == referee_pb2.REJECTION_CODE_ILLEGAL_MOVE
    assert bad.actions_applied == 1
    assert bad.state.action_count == 1


def test_version_1_sealed_bids_are_hidden(ref):
    state = ref.new_game("1841", 4, {"version_1": True})
    legal = ref.legal_actions(state, 0)
    bb = legal.g1841.blind_bid
    assert bb.concessions and bb.min_price == 20 and bb.max_total == 840
    amounts = [20] + [0] * (len(bb.concessions) - 1)
    state = ref.apply(state, 0, g1841.blind_bid(amounts)).state
    own = [b for b in ref.view(state, 0).g1841.state.concession_round.sealed_bids if b.seat == 0]
    assert own and list(own[0].amounts) == amounts
    for seat in (1, None):
        other = [b for b in ref.view(state, seat).g1841.state.concession_round.sealed_bids if b.seat == 0]
        assert other and other[0].submitted and not other[0].amounts, other


def test_unknown_game_is_not_found(ref):
    with pytest.raises(grpc.RpcError) as exc:
        ref.new_game("chess", 2)
    assert exc.value.code() == grpc.StatusCode.NOT_FOUND


def test_bad_seat_count_is_invalid_argument(ref):
    with pytest.raises(grpc.RpcError) as exc:
        ref.new_game("1841", 1)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def _garbage_states(good: referee_pb2.GameState):
    no_typed_state = referee_pb2.GameState(game="1841", rules_version=good.rules_version,
                                           schema_version=good.schema_version)
    wrong_typed_state = referee_pb2.GameState()
    wrong_typed_state.CopyFrom(good)
    wrong_typed_state.autobahn.SetInParent()
    bad_order = referee_pb2.GameState()
    bad_order.CopyFrom(good)
    del bad_order.g1841.player_order[:]
    bad_order.g1841.player_order.extend([0, 0, 7, 9])
    return {"no typed state": no_typed_state, "typed state of another game": wrong_typed_state,
            "player order of unknown seats": bad_order}


@pytest.mark.parametrize("case", ["no typed state", "typed state of another game", "player order of unknown seats"])
@pytest.mark.parametrize("call", ["apply", "legal_actions", "view"])
def test_garbage_state_is_invalid_argument(ref, state, case, call):
    bad = _garbage_states(state)[case]
    with pytest.raises(grpc.RpcError) as exc:
        if call == "apply":
            ref.apply(bad, 0, g1841.pass_())
        elif call == "legal_actions":
            ref.legal_actions(bad, 0)
        else:
            ref.view(bad, 0)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT, exc.value.details()
    assert exc.value.details()


def test_newer_schema_is_failed_precondition(ref, state):
    newer = referee_pb2.GameState()
    newer.CopyFrom(state)
    newer.schema_version = state.schema_version + 1000
    with pytest.raises(grpc.RpcError) as exc:
        ref.legal_actions(newer, 0)
    assert exc.value.code() == grpc.StatusCode.FAILED_PRECONDITION, exc.value.details()


def test_context_manager_closes_channel(server):
    with Referee(server.target) as r:
        assert r.list_games()
    with pytest.raises(ValueError):
        r.list_games()  # grpc raises ValueError on a closed channel


def test_quickstart_example_runs(server):
    script = CLIENT_DIR / "examples" / "quickstart.py"
    res = subprocess.run([sys.executable, str(script), "--target", server.target],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, f"stdout:\n{res.stdout}\nstderr:\n{res.stderr}"
    out = res.stdout
    assert "1841" in out and "autobahn" in out
    assert "rejected" in out.lower()
