"""Python client for Referee, the stateless rules engine for 1841 and Autobahn.

Example::

    from referee_client import Referee, RejectedError, g1841

    with Referee("127.0.0.1:50051") as ref:
        state = ref.new_game("1841", seats=4)
        state = ref.apply(state, 0, g1841.bid("Bayard", 20)).state

    # asyncio
    async with AsyncReferee("127.0.0.1:50051") as ref:
        state = await ref.new_game("autobahn", seats=3, seed=1)

    # a game kept on the caller's side, played by bots
    with Referee() as ref:
        outcome = Game.new(ref, "autobahn", 3, seed=1).play([RandomBot(1), RandomBot(2), FirstLegalBot()])

Modules: :mod:`referee_client.pb` (generated messages and stub), :mod:`referee_client.g1841`
and :mod:`referee_client.autobahn` (action constructors), :mod:`referee_client.legal` (legal
actions flattened), :mod:`referee_client.game`, :mod:`referee_client.bots`,
:mod:`referee_client.tournament` (the ``referee-tournament`` runner), :mod:`referee_client.errors`.
"""

from . import autobahn, g1841, pb
from .aio import AsyncReferee
from .bots import Bot, FirstLegalBot, RandomBot, ServerBot, Turn, load_bot
from .client import (CREDENTIAL_HEADER, DEFAULT_TARGET, Applied, GameData, Referee, Started, caller_view,
                     credential_metadata, to_action)
from .errors import RefereeError, RejectedError
from .game import AsyncGame, Game, ReplayError
from .legal import AmountRange, BlindBidRange, Legal, action_kind
from .pb import referee_pb2

__version__ = "0.2.0"

__all__ = [
    "CREDENTIAL_HEADER",
    "DEFAULT_TARGET",
    "AmountRange",
    "Applied",
    "AsyncGame",
    "AsyncReferee",
    "BlindBidRange",
    "Bot",
    "FirstLegalBot",
    "GameData",
    "Game",
    "Legal",
    "RandomBot",
    "ServerBot",
    "Referee",
    "RefereeError",
    "RejectedError",
    "ReplayError",
    "Started",
    "Turn",
    "action_kind",
    "autobahn",
    "caller_view",
    "credential_metadata",
    "g1841",
    "load_bot",
    "pb",
    "referee_pb2",
    "to_action",
]
