"""Convenience constructors for Autobahn actions.

Autobahn's ``LegalActions`` lists every legal action concretely, so a bot usually picks one of
those (see :class:`referee_client.Legal`); these helpers are for the common answers written
by hand. Each returns a ``referee_pb2.Action`` envelope.

Example::

    from referee_client import Referee, autobahn

    with Referee() as ref:
        state = ref.new_game(autobahn.GAME, 3, seed=1)
        legal = ref.legal_actions(state, 2)            # setup: the route-card draft, last seat first
        state = ref.apply(state, 2, legal.autobahn.actions[0]).state
"""

from __future__ import annotations

from .pb import autobahn_pb2, referee_pb2

#: The game id of Autobahn in ListGames / NewGame.
GAME = "autobahn"


def wrap(action: "autobahn_pb2.Action") -> "referee_pb2.Action":
    """Wrap a typed ``autobahn_pb2.Action`` into the ``referee_pb2.Action`` envelope."""
    return referee_pb2.Action(autobahn=action)


def choose_route_card(card: str) -> "referee_pb2.Action":
    """Setup draft: keep the offered route card ``card``."""
    return wrap(autobahn_pb2.Action(choose_route_card=autobahn_pb2.ChooseRouteCard(card=card)))


def end_turn() -> "referee_pb2.Action":
    """Phase 3: stop moving trucks and end the turn."""
    return wrap(autobahn_pb2.Action(end_turn=autobahn_pb2.EndTurn()))


def decline() -> "referee_pb2.Action":
    """Decline an optional pending free action (build, upgrade, station)."""
    return wrap(autobahn_pb2.Action(decline=autobahn_pb2.Decline()))


def take_back_cards() -> "referee_pb2.Action":
    """Phase 2B: take all played cards back (1 DM each)."""
    return wrap(autobahn_pb2.Action(take_back_cards=autobahn_pb2.TakeBackCards()))


def subsidy() -> "referee_pb2.Action":
    """Phase 2C: the government subsidy (once per era)."""
    return wrap(autobahn_pb2.Action(subsidy=autobahn_pb2.Subsidy()))


def state(game_state: "referee_pb2.GameState") -> "autobahn_pb2.State":
    """The typed Autobahn state inside a ``GameState`` envelope (raises for another game)."""
    if game_state.WhichOneof("state") != "autobahn":
        raise ValueError(f"not an Autobahn state: {game_state.WhichOneof('state')!r}")
    return game_state.autobahn


__all__ = ["GAME", "choose_route_card", "decline", "end_turn", "state", "subsidy", "take_back_cards", "wrap"]
