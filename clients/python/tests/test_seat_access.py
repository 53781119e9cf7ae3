"""Seat credentials and caller views against a real sealed-mode server (docs/SECURITY.md,
"Seat access in sealed mode"): ``start_game``, ``with_credential``, ``caller_view``."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from referee_client import (CREDENTIAL_HEADER, AsyncReferee, Referee, RejectedError, Started, caller_view,
                            credential_metadata, g1841)
from referee_client.pb import referee_pb2

V1 = {"version_1": True}


def _bids(view: "referee_pb2.ViewResponse") -> dict[int, list[int]]:
    """Seat → sealed-bid amounts as ``view`` shows them (empty: hidden or not submitted)."""
    return {b.seat: list(b.amounts) for b in view.g1841.state.concession_round.sealed_bids}


@pytest.fixture()
def sealed(sealed_server):
    with Referee(sealed_server.target, timeout=20) as r:
        yield r


def _first_bid(ref: Referee, game: Started) -> tuple[list[int], object]:
    """Seat 0 submits a sealed bid of L.37 on the first concession; returns amounts and step."""
    seat0 = ref.with_credential(game.seat_credentials[0])
    legal = seat0.legal_actions(game.state, 0)
    amounts = [37] + [0] * (len(legal.g1841.blind_bid.concessions) - 1)
    return amounts, seat0.apply(game.state, 0, g1841.blind_bid(amounts))


def test_start_game_deals_one_credential_per_seat(sealed):
    game = sealed.start_game("1841", 3, V1)
    assert game.sealed and isinstance(game.state, bytes)
    assert len(game.seat_credentials) == 3
    assert [c.split(":")[0] for c in game.seat_credentials] == ["seat-0", "seat-1", "seat-2"]
    assert len(set(game.seat_credentials)) == 3
    # The creator holds no seat: it sees a spectator's view (every seat to act, no bids).
    assert game.caller_view is not None and sorted(game.caller_view.to_act) == [0, 1, 2]
    assert _bids(game.caller_view) == {0: [], 1: [], 2: []}
    # Each game has its own credentials.
    assert set(sealed.start_game("1841", 3, V1).seat_credentials).isdisjoint(game.seat_credentials)


def test_a_seat_sees_its_own_bid_and_no_other_seats(sealed):
    game = sealed.start_game("1841", 3, V1)
    amounts, step = _first_bid(sealed, game)
    # Seat 0's answer carries seat 0's view only: its own amounts.
    assert step.caller_view is not None and caller_view(step) == step.caller_view
    assert _bids(step.caller_view)[0] == amounts
    assert not step.response.accepted.seat_views and not step.response.accepted.seat_credentials
    # Seat 1 sees that seat 0 has bid, not how much, in its View and in its own Apply answer.
    seat1 = sealed.with_credential(game.seat_credentials[1])
    assert seat1.credential == game.seat_credentials[1]
    view1 = seat1.view(step.state, 1)
    assert _bids(view1)[0] == [] and list(view1.to_act) == [1, 2]
    assert [b.submitted for b in view1.g1841.state.concession_round.sealed_bids if b.seat == 0] == [True]
    step1 = seat1.apply(step.state, 1, g1841.blind_bid([0] * len(amounts)))
    assert _bids(step1.caller_view)[0] == [] and _bids(step1.caller_view)[1] == [0] * len(amounts)


def test_the_arbiter_sees_everything(sealed, sealed_server):
    game = sealed.start_game("1841", 3, V1)
    amounts, step = _first_bid(sealed, game)
    arbiter = sealed.with_credential(sealed_server.arbiter)
    assert _bids(arbiter.view(step.state, viewer="arbiter"))[0] == amounts
    assert _bids(arbiter.view(step.state, 0))[0] == amounts
    arb_game = arbiter.start_game("1841", 3, V1)
    assert len(arb_game.response.seat_views) == 3 and len(arb_game.seat_credentials) == 3


def test_a_seat_cannot_look_or_act_as_another(sealed):
    game = sealed.start_game("1841", 3, V1)
    amounts, step = _first_bid(sealed, game)
    seat1 = sealed.with_credential(game.seat_credentials[1])
    for call in (lambda: seat1.view(step.state, 0), lambda: seat1.legal_actions(step.state, 2),
                 lambda: seat1.apply(step.state, 2, g1841.blind_bid([0] * len(amounts))),
                 lambda: seat1.view(step.state, viewer="arbiter"),
                 lambda: sealed.view(step.state, 0)):  # no credential: a spectator
        with pytest.raises(grpc.RpcError) as exc:
            call()
        assert exc.value.code() == grpc.StatusCode.PERMISSION_DENIED, exc.value.details()
    # A spectator's view hides the bid.
    assert _bids(sealed.view(step.state))[0] == []
    # A credential of another game, or an altered one, is UNAUTHENTICATED.
    other = sealed.start_game("1841", 3, V1).seat_credentials[1]
    altered = game.seat_credentials[1][:-1] + ("0" if game.seat_credentials[1][-1] != "0" else "1")
    for bad in (other, altered, "seat-1:nokey:00"):
        with pytest.raises(grpc.RpcError) as exc:
            sealed.with_credential(bad).view(step.state, 1)
        assert exc.value.code() == grpc.StatusCode.UNAUTHENTICATED, bad


def test_a_refused_action_has_no_caller_view(sealed):
    game = sealed.start_game("1841", 3, V1)
    seat0 = sealed.with_credential(game.seat_credentials[0])
    with pytest.raises(RejectedError) as exc:
        seat0.apply(game.state, 0, g1841.blind_bid([5]))
    assert exc.value.rule.startswith("1841")
    resp = seat0.try_apply(game.state, 0, g1841.blind_bid([5]))
    assert resp.WhichOneof("result") == "rejected" and caller_view(resp) is None


def test_raw_stub_calls_take_the_metadata(sealed):
    game = sealed.start_game("1841", 3, V1)
    seat2 = sealed.with_credential(game.seat_credentials[2])
    assert seat2.metadata == ((CREDENTIAL_HEADER, game.seat_credentials[2]),)
    resp = seat2.stub.View(referee_pb2.ViewRequest(sealed_state=game.state, seat=2), metadata=seat2.metadata)
    assert sorted(resp.to_act) == [0, 1, 2]
    assert credential_metadata(None) == () and credential_metadata(" x ") == ((CREDENTIAL_HEADER, "x"),)
    with pytest.raises(ValueError):
        credential_metadata("seat-0:k\nX-Evil: 1")


def test_secret_seed_unless_given(sealed, sealed_server):
    arbiter = sealed.with_credential(sealed_server.arbiter)

    def deck(game: Started) -> list[str]:
        return list(arbiter.view(game.state, viewer="arbiter").autobahn.state.card_deck)

    # seed=None: the server draws a secret seed, so two games have two decks.
    drawn = [deck(sealed.start_game("autobahn", 2)) for _ in range(2)]
    assert drawn[0] and drawn[0] != drawn[1]
    # A given seed (0 included) is used as given: the same deck each time.
    assert deck(sealed.start_game("autobahn", 2, seed=0)) == deck(sealed.start_game("autobahn", 2, seed=0))
    # A seat's view hides the deck order.
    game = sealed.start_game("autobahn", 2)
    seat0 = sealed.with_credential(game.seat_credentials[0])
    hidden = seat0.view(game.state, 0).autobahn.state
    assert list(hidden.card_deck) == [] and hidden.card_deck_count == len(deck(game)) > 0


def test_async_client_with_credentials(sealed_server):
    async def main():
        async with AsyncReferee(sealed_server.target, timeout=20) as ref:
            game = await ref.start_game("1841", 3, V1)
            seat0 = ref.with_credential(game.seat_credentials[0])
            legal = await seat0.legal_actions(game.state, 0)
            amounts = [41] + [0] * (len(legal.g1841.blind_bid.concessions) - 1)
            step = await seat0.apply(game.state, 0, g1841.blind_bid(amounts))
            assert _bids(step.caller_view)[0] == amounts
            seat1 = ref.with_credential(game.seat_credentials[1])
            assert _bids(await seat1.view(step.state, 1))[0] == []
            with pytest.raises(grpc.RpcError) as exc:
                await seat1.view(step.state, 0)
            assert exc.value.code() == grpc.StatusCode.PERMISSION_DENIED

    asyncio.run(main())


def test_open_mode_has_no_credentials_and_no_caller_view(ref):
    game = ref.start_game("1841", 3, V1, seed=3)
    assert not game.sealed and game.state.action_count == 0
    assert game.seat_credentials == [] and game.caller_view is None
    # Open mode ignores a credential.
    step = ref.with_credential("seat-1:whatever:00").apply(game.state, 0, g1841.blind_bid(
        [20] + [0] * (len(ref.legal_actions(game.state, 0).g1841.blind_bid.concessions) - 1)))
    assert step.caller_view is None and step.state.action_count == 1


def test_game_helper_with_the_arbiter_credential(sealed, sealed_server):
    from referee_client import Game, RandomBot

    arbiter = sealed.with_credential(sealed_server.arbiter)
    game = Game.new(arbiter, "autobahn", 2, seed=4)
    assert isinstance(game.state, bytes)
    game.play([RandomBot(1), RandomBot(2)], max_moves=20)
    assert game.action_count == 20 and len(game.history) == 20
    # Without a credential the same helper may only look as a spectator.
    with pytest.raises(grpc.RpcError) as exc:
        Game(sealed, game.state).legal_actions(0)
    assert exc.value.code() == grpc.StatusCode.PERMISSION_DENIED
