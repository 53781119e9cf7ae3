"""Errors raised by the helper layer.

Two kinds of failure exist on the wire (see ``proto/referee/v1/referee.proto``):

* A refused action is a normal answer (``ApplyResponse.rejected``, gRPC status OK).
  :meth:`referee_client.Referee.apply` turns it into :class:`RejectedError`;
  :meth:`referee_client.Referee.try_apply` returns it untouched.
* A request that cannot be judged (malformed state, unknown game, newer schema, overload)
  is a gRPC error: it propagates as :class:`grpc.RpcError`, with ``.code()`` (e.g.
  ``grpc.StatusCode.NOT_FOUND``) and ``.details()``.
"""

from __future__ import annotations

from .pb import referee_pb2


class RefereeError(Exception):
    """Base class of the errors raised by referee_client (not of grpc.RpcError)."""


class RejectedError(RefereeError):
    """The server refused an action; the caller's state is unchanged.

    Attributes:
        code: a ``referee_pb2.RejectionCode`` value (int), e.g.
            ``referee_pb2.REJECTION_CODE_ILLEGAL_MOVE``.
        message: one sentence a player understands.
        rule: the rule cited (``1841 §4.1``), or ``""``.
        rejection: the ``referee_pb2.Rejection`` message itself.

    Example::

        try:
            ref.apply(state, 1, g1841.bid("Bayard", 22))
        except RejectedError as e:
            print(e.code_name, e.message, e.rule)
    """

    def __init__(self, code: int, message: str, rule: str = "", rejection: "referee_pb2.Rejection | None" = None):
        self.code = code
        self.message = message
        self.rule = rule
        self.rejection = rejection if rejection is not None else referee_pb2.Rejection(
            code=code, message=message, rule=rule)
        super().__init__(self._text())

    @classmethod
    def from_proto(cls, rejection: "referee_pb2.Rejection") -> "RejectedError":
        return cls(rejection.code, rejection.message, rejection.rule, rejection)

    @property
    def code_name(self) -> str:
        """The code's enum name, e.g. ``REJECTION_CODE_NOT_YOUR_TURN`` (or the number if unknown)."""
        try:
            return referee_pb2.RejectionCode.Name(self.code)
        except ValueError:
            return str(self.code)

    def _text(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.code_name}: {self.message}{rule}"

    def __reduce__(self):
        return (type(self), (self.code, self.message, self.rule))

    def __repr__(self) -> str:
        return f"RejectedError(code={self.code_name}, message={self.message!r}, rule={self.rule!r})"
