"""The generated protobuf and gRPC modules, re-exported.

Example::

    from referee_client.pb import referee_pb2, g1841_pb2
    state = referee_pb2.GameState()

``referee_pb2`` is ``referee.v1``, ``g1841_pb2`` is ``referee.g1841.v1`` and
``autobahn_pb2`` is ``referee.autobahn.v1``; ``referee_pb2_grpc`` holds ``RefereeStub``.
"""

try:
    from ._gen.referee.autobahn.v1 import autobahn_pb2
    from ._gen.referee.g1841.v1 import g1841_pb2
    from ._gen.referee.v1 import referee_pb2, referee_pb2_grpc
except ImportError as e:  # pragma: no cover - only from an ungenerated source tree
    if "_gen" not in str(e):
        raise
    raise ImportError(
        "referee_client's generated code is missing: install the package "
        "(pip install ./clients/python) or run `python clients/python/generate.py`"
    ) from e

__all__ = ["autobahn_pb2", "g1841_pb2", "referee_pb2", "referee_pb2_grpc"]
