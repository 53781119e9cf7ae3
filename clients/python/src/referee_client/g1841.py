"""Convenience constructors for 1841 actions.

Each returns a ``referee_pb2.Action`` (the envelope), ready for
:meth:`referee_client.Referee.apply`, :meth:`~referee_client.Referee.replay` or the raw stub.

Example::

    from referee_client import Referee, g1841

    with Referee() as ref:
        state = ref.new_game(g1841.GAME, 4)
        state = ref.apply(state, 0, g1841.bid("Bayard", 20)).state
        state = ref.apply(state, 1, g1841.pass_()).state
"""

from __future__ import annotations

from collections.abc import Iterable

from .pb import g1841_pb2, referee_pb2

#: The game id of 1841 in ListGames / NewGame.
GAME = "1841"


def wrap(action: "g1841_pb2.Action") -> "referee_pb2.Action":
    """Wrap a typed ``g1841_pb2.Action`` into the ``referee_pb2.Action`` envelope."""
    return referee_pb2.Action(g1841=action)


def bid(concession: str, price: int) -> "referee_pb2.Action":
    """Nominate ``concession`` or raise its auction to ``price`` (L.), e.g. ``bid("Bayard", 20)``."""
    return wrap(g1841_pb2.Action(bid=g1841_pb2.Bid(concession=concession, price=price)))


def pass_() -> "referee_pb2.Action":
    """Pass a nomination turn, drop out of an auction, or pass in a stock round."""
    return wrap(g1841_pb2.Action(**{"pass": g1841_pb2.Pass()}))


def blind_bid(amounts: Iterable[int]) -> "referee_pb2.Action":
    """Sealed bids (Version 1): one amount per concession, 0 or at least L.20,
    e.g. ``blind_bid([20, 0, 0, 0, 0, 0, 0, 0])``."""
    return wrap(g1841_pb2.Action(blind_bid=g1841_pb2.BlindBid(amounts=list(amounts))))


def run_routes(routes: Iterable["g1841_pb2.Route"] = ()) -> "referee_pb2.Action":
    """The routes step: at most one ``g1841_pb2.Route`` per train. With no routes the
    corporation runs nothing (revenue 0, always accepted).

    Example: ``run_routes([g1841_pb2.Route(train="2-0", stops=[...], connections=[...])])``.
    """
    return wrap(g1841_pb2.Action(run_routes=g1841_pb2.RunRoutes(routes=list(routes))))


def lay_tile(hex: str, tile: str, rotation: int) -> "referee_pb2.Action":
    """Lay or upgrade a tile (1841 §9.1): tile number on a hex with a rotation 0–5,
    e.g. ``lay_tile("E9", "202", 5)``."""
    return wrap(g1841_pb2.Action(lay_tile=g1841_pb2.LayTile(hex=hex, tile=tile, rotation=rotation)))


def dividend(payout: bool) -> "referee_pb2.Action":
    """Pay the revenue out (``True``) or withhold it (``False``)."""
    return wrap(g1841_pb2.Action(dividend=g1841_pb2.Dividend(payout=payout)))


def state(game_state: "referee_pb2.GameState") -> "g1841_pb2.State":
    """The typed 1841 state inside a ``GameState`` envelope (raises if it holds another game)."""
    if game_state.WhichOneof("state") != "g1841":
        raise ValueError(f"not a 1841 state: {game_state.WhichOneof('state')!r}")
    return game_state.g1841


__all__ = ["GAME", "bid", "blind_bid", "dividend", "lay_tile", "pass_", "run_routes", "state", "wrap"]
