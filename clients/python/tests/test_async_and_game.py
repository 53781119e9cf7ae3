"""AsyncReferee, Game/AsyncGame and bots against the real server."""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest

from referee_client import (AsyncGame, AsyncReferee, Bot, FirstLegalBot, Game, RandomBot, RejectedError, ReplayError,
                            action_kind, autobahn, g1841)
from referee_client.pb import referee_pb2


def run(coro):
    return asyncio.run(coro)


def test_async_referee_calls(server):
    async def main():
        async with AsyncReferee(server.target, timeout=20) as ref:
            games = {g.id for g in await ref.list_games()}
            assert {"1841", "autobahn"} <= games
            state = await ref.new_game("1841", 4)
            legal = await ref.legal_actions(state, 0)
            assert list(legal.to_act) == [0] and legal.g1841.bids
            step = await ref.apply(state, 0, g1841.bid("Bayard", 20))
            assert step.state.action_count == 1 and step.events
            with pytest.raises(RejectedError) as exc:
                await ref.apply(step.state, 1, g1841.bid("Bayard", 22))
            assert exc.value.code == referee_pb2.REJECTION_CODE_ILLEGAL_MOVE
            resp = await ref.try_apply(step.state, 1, g1841.bid("Bayard", 22))
            assert resp.WhichOneof("result") == "rejected"
            view = await ref.view(step.state, 2)
            assert list(view.to_act) == [1] and view.action_count == 1
            replay = await ref.replay("1841", 4, [(0, g1841.bid("Bayard", 20))])
            assert replay.state == step.state
            # many calls in flight on one channel
            states = await asyncio.gather(*(ref.new_game("autobahn", 3, seed=s) for s in range(8)))
            assert len({s.SerializeToString() for s in states}) == 8  # the seed shuffles the setup
            with pytest.raises(grpc.RpcError) as err:
                await ref.new_game("chess", 2)
            assert err.value.code() == grpc.StatusCode.NOT_FOUND

    run(main())


def test_game_helpers_history_log_and_replay(ref):
    game = Game.new(ref, "autobahn", 3, seed=42)
    assert game.action_count == 0 and not game.finished() and game.outcome() is None
    rng = random.Random(1)
    for _ in range(25):
        seat = game.to_act()[0]
        legal = game.legal(seat)
        assert legal.game == "autobahn" and legal.to_act == [seat]
        game.apply(seat, legal.random(rng))
    assert game.action_count == 25 == len(game.history) == len(game.log)
    assert all(action_kind(a)[0] == "autobahn" for _, a in game.history)
    assert game.view(seat).WhichOneof("view") == "autobahn"
    # the history reproduces the state, on the server and as a new Game
    assert game.replay().state == game.state
    again = Game.from_replay(ref, "autobahn", 3, game.history, seed=42)
    assert again.state == game.state and again.history == game.history
    # a refused action leaves the game as it was
    seat = game.to_act()[0]
    before = game.state
    with pytest.raises(RejectedError):
        game.apply((seat + 1) % 3, game.legal(seat).first())
    assert game.state == before and len(game.history) == 25
    resp = game.try_apply((seat + 1) % 3, game.legal(seat).first())
    assert resp.WhichOneof("result") == "rejected" and game.state == before
    # a broken history is a ReplayError naming the action
    bad = list(game.history[:3]) + [((game.history[3][0] + 1) % 3, game.history[3][1])]
    with pytest.raises(ReplayError) as exc:
        Game.from_replay(ref, "autobahn", 3, bad, seed=42)
    assert exc.value.index == 3


def test_1841_ranges_are_accepted_by_the_server(ref):
    game = Game.new(ref, g1841.GAME, 4)
    legal = game.legal(0)
    bayard = next(r for r in legal.ranges if r.target == "Bayard")
    game.apply(0, bayard.action(bayard.max))  # the top of the range (all the cash) is legal
    legal = game.legal(1)
    raise_ = legal.ranges[0]
    with pytest.raises(RejectedError):
        game.apply(1, g1841.bid(raise_.target, raise_.min - 1))
    game.apply(1, legal.pass_action())
    assert game.action_count == 2


class StubbornBot(Bot):
    """Sends one action out of turn-order sense first (an illegal bid), then plays legally."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.refusals = []

    def choose(self, turn):
        if not turn.rejections:
            return g1841.bid("Bayard", 1)  # below the L.20 minimum: refused
        assert turn.view.action_count == turn.action_count  # the view is there when asked for
        return turn.legal.random(self.rng)

    def on_rejected(self, turn, action, error):
        self.refusals.append(error.code_name)


def test_game_play_with_bots_and_rejections(ref):
    game = Game.new(ref, "1841", 3, {"lite": True})
    bots = [StubbornBot(1), RandomBot(2), FirstLegalBot(3)]
    assert game.play(bots, max_moves=12) is None  # 1841 does not finish (yet)
    # at most 12 moves; fewer when everybody passes the concession round, after which this
    # engine has nobody to act (an operating round without corporations)
    assert 1 <= game.action_count <= 12
    assert bots[0].refusals and set(bots[0].refusals) <= {"REJECTION_CODE_ILLEGAL_MOVE", "REJECTION_CODE_WRONG_STEP",
                                                          "REJECTION_CODE_INVALID_ARGUMENT"}


def test_random_bots_finish_a_game_of_1841(ref):
    # The built-in bots run the server's best routes (SuggestRoutes) and pick withholding,
    # foreign trains and bankruptcy rarely, so a random game of 1841 comes to an end.
    game = Game.new(ref, "1841", 3, {"lite": True}, seed=5)
    outcome = game.play([RandomBot(seed=s) for s in (1, 2, 3)], max_moves=5000)
    assert outcome is not None, f"no end after {game.action_count} actions"
    assert len(outcome.scores) == 3 and 100 < game.action_count < 5000


def test_async_game_history_and_replay(server):
    async def main():
        async with AsyncReferee(server.target, timeout=20) as ref:
            game = await AsyncGame.new(ref, autobahn.GAME, 2, seed=3)
            rng = random.Random(3)
            for _ in range(20):
                seat = (await game.to_act())[0]
                await game.apply(seat, (await game.legal(seat)).random(rng))
            assert game.action_count == 20 == len(game.history) and not await game.finished()
            assert (await game.replay()).state == game.state
            again = await AsyncGame.from_replay(ref, autobahn.GAME, 2, game.history, seed=3)
            assert again.state == game.state
            view = await game.view(0)
            st = view.autobahn.state
            assert st.card_deck_count > 0 and not st.card_deck  # the deck order is hidden, its size shown

    run(main())
