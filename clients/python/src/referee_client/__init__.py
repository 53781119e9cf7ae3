"""Python client for Referee, the stateless rules engine for 1841 and Autobahn.

Example::

    from referee_client import Referee, RejectedError, g1841

    with Referee("127.0.0.1:50051") as ref:
        state = ref.new_game("1841", seats=4)
        state = ref.apply(state, 0, g1841.bid("Bayard", 20)).state

Modules: :mod:`referee_client.pb` (generated messages and stub), :mod:`referee_client.g1841`
(action constructors), :mod:`referee_client.errors`.
"""

from . import g1841, pb
from .client import DEFAULT_TARGET, Applied, Referee, to_action
from .errors import RefereeError, RejectedError
from .pb import referee_pb2

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_TARGET",
    "Applied",
    "Referee",
    "RefereeError",
    "RejectedError",
    "g1841",
    "pb",
    "referee_pb2",
    "to_action",
]
