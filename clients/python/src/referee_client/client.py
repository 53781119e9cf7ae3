"""The synchronous helper client.

Example::

    from referee_client import Referee, RejectedError, g1841

    with Referee("127.0.0.1:50051") as ref:
        print([g.id for g in ref.list_games()])          # ['1841', 'autobahn']
        state = ref.new_game("1841", seats=4)
        legal = ref.legal_actions(state, seat=0)          # to_act + g1841 ranges
        step = ref.apply(state, 0, g1841.bid("Bayard", 20))
        state = step.state                                # step.events: what happened
        try:
            ref.apply(state, 1, g1841.bid("Bayard", 22))  # below the L.5 raise
        except RejectedError as e:
            print(e.code_name, e.message)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Union

import grpc

from .errors import RejectedError
from .pb import autobahn_pb2, g1841_pb2, referee_pb2, referee_pb2_grpc

#: A game state handle: a ``GameState`` (open mode) or the server's sealed bytes (sealed mode).
#: Every method accepts either and returns the same kind it was given.
StateLike = Union["referee_pb2.GameState", bytes]
#: An action: the ``referee_pb2.Action`` envelope or a typed per-game action.
ActionLike = Union["referee_pb2.Action", "g1841_pb2.Action", "autobahn_pb2.Action"]
#: Option values; ``True``/``False`` and ints are sent as the text NewGame accepts.
OptionValue = Union[str, bool, int]

DEFAULT_TARGET = "127.0.0.1:50051"

#: The request header (gRPC metadata) that carries the caller's credential in sealed mode
#: (docs/SECURITY.md, "Seat access in sealed mode").
CREDENTIAL_HEADER = "referee-credential"


def credential_metadata(credential: str | None) -> tuple:
    """The gRPC metadata that sends ``credential`` (``()`` for none): for calls made on
    :attr:`Referee.stub` directly, e.g. ``ref.stub.View(req, metadata=credential_metadata(c))``.

    Raises ``ValueError`` for a credential that cannot be a header value (newline, non-ASCII).
    """
    if not credential:
        return ()
    credential = credential.strip()
    if not credential.isascii() or any(ord(c) < 0x20 or ord(c) == 0x7F for c in credential):
        raise ValueError("credential: not a header value (expected `seat-S:KEY_ID:HEX` or `arbiter:KEY_ID:HEX`)")
    return ((CREDENTIAL_HEADER, credential),)


@dataclass
class Applied:
    """An accepted action: the new state and the events, in order."""

    #: The new state: a ``GameState``, or sealed bytes when the request used a sealed state.
    state: StateLike
    #: ``referee_pb2.Event`` messages.
    events: list = field(default_factory=list)
    #: The full ``ApplyResponse``.
    response: Any = None

    @property
    def caller_view(self) -> "referee_pb2.ViewResponse | None":
        """Sealed mode: what the caller may see of the new state (its seat's view with a seat
        credential, the arbiter's or a spectator's); ``None`` in open mode."""
        return caller_view(self.response)


@dataclass
class Started:
    """A new game (:meth:`Referee.start_game`): its state and, in sealed mode, the seat
    credentials its creator deals to the players."""

    #: The initial state: a ``GameState`` (open mode) or the sealed token (``bytes``).
    state: StateLike
    #: Sealed mode: every seat's credential ``seat-S:KEY_ID:HEX`` (index = seat); each lets
    #: its holder act and look as that seat only, for this game only. Empty in open mode.
    seat_credentials: list = field(default_factory=list)
    #: Sealed mode: what the creator may see (a spectator's view, or the arbiter's when the
    #: creator sent the arbiter credential); ``None`` in open mode.
    caller_view: Any = None
    #: The full ``NewGameResponse``.
    response: Any = None

    @property
    def sealed(self) -> bool:
        """Whether the server runs in sealed mode (the state is a token)."""
        return isinstance(self.state, (bytes, bytearray))


def caller_view(response: Any) -> "referee_pb2.ViewResponse | None":
    """What the caller may see of the state in a response (sealed mode): the ``caller_view`` of
    ``NewGameResponse``, ``ApplyResponse`` (accepted), ``ApplyBatchResponse``, ``ReplayResponse``,
    ``StreamReplayResponse``, ``ImportGameResponse``, or of an :class:`Applied`. With a seat
    credential it is that seat's view (its own secrets, nothing of other seats'); without one
    a spectator's; with the arbiter credential everything. ``None`` in open mode, where the
    clear state is in the response, and for a refused action.

    Example: ``caller_view(ref.with_credential(cred).apply(token, 1, action)).g1841.state``.
    """
    if isinstance(response, Applied):
        response = response.response
    if isinstance(response, referee_pb2.ApplyResponse):
        if response.WhichOneof("result") != "accepted":
            return None
        response = response.accepted
    try:
        has = response.HasField("caller_view")
    except (ValueError, AttributeError):
        return None
    return response.caller_view if has else None


def to_action(action: ActionLike) -> "referee_pb2.Action":
    """Wrap a typed action into the ``referee_pb2.Action`` envelope (envelopes pass through)."""
    if isinstance(action, referee_pb2.Action):
        return action
    if isinstance(action, g1841_pb2.Action):
        return referee_pb2.Action(g1841=action)
    if isinstance(action, autobahn_pb2.Action):
        return referee_pb2.Action(autobahn=action)
    raise TypeError(f"not an action: {type(action).__name__}")


def _applied(state: StateLike, resp: "referee_pb2.ApplyResponse") -> Applied:
    """An ``ApplyResponse`` as :class:`Applied`, or :class:`RejectedError`."""
    which = resp.WhichOneof("result")
    if which == "rejected":
        raise RejectedError.from_proto(resp.rejected.rejection)
    if which != "accepted":
        raise RuntimeError(f"ApplyResponse has neither accepted nor rejected: {resp}")
    acc = resp.accepted
    new_state: StateLike = acc.sealed_state if isinstance(state, (bytes, bytearray)) else acc.state
    return Applied(state=new_state, events=list(acc.events), response=resp)


def _seat_actions(actions: Iterable) -> list:
    """``(seat, action)`` pairs or ``SeatAction`` messages as ``SeatAction`` messages."""
    seat_actions = []
    for a in actions:
        if isinstance(a, referee_pb2.SeatAction):
            seat_actions.append(a)
        else:
            seat, act = a
            seat_actions.append(referee_pb2.SeatAction(seat=seat, action=to_action(act)))
    return seat_actions


def _replay_request(game, seats, actions, options, seed) -> "referee_pb2.ReplayRequest":
    return referee_pb2.ReplayRequest(game=game, seats=seats, options=_options(options), seed=seed,
                                     actions=_seat_actions(actions))


# -- issue #9: batch, stream, playout, routes, default moves, descriptions, viewer roles -------

_PLAYOUT_POLICIES = {
    "random": referee_pb2.PLAYOUT_POLICY_RANDOM_LEGAL,
    "first": referee_pb2.PLAYOUT_POLICY_FIRST_LEGAL,
}
_DEFAULT_POLICIES = {
    "pass_or_minimal": referee_pb2.DEFAULT_ACTION_POLICY_PASS_OR_MINIMAL,
    "random": referee_pb2.DEFAULT_ACTION_POLICY_RANDOM_LEGAL,
}
_VIEWERS = {
    None: referee_pb2.VIEWER_ROLE_UNSPECIFIED,
    "seat": referee_pb2.VIEWER_ROLE_SEAT,
    "spectator": referee_pb2.VIEWER_ROLE_SPECTATOR,
    "arbiter": referee_pb2.VIEWER_ROLE_ARBITER,
}


def _enum(table: dict, value, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return table[value]
    except KeyError:
        raise ValueError(f"{what}: {value!r} is not one of {sorted(k for k in table if k)}") from None


def _batch_request(state, actions, expected_action_count, expected_state_hash) -> "referee_pb2.ApplyBatchRequest":
    req = referee_pb2.ApplyBatchRequest(actions=_seat_actions(actions), expected_state_hash=expected_state_hash,
                                        **_state_fields(state))
    if expected_action_count is not None:
        req.expected_action_count = expected_action_count
    return req


def _stream_replay_request(game, seats, actions, options, seed, every,
                           events_only) -> "referee_pb2.StreamReplayRequest":
    return referee_pb2.StreamReplayRequest(game=_replay_request(game, seats, actions, options, seed), every=every,
                                           events_only=events_only)


def _playout_request(state, games, max_actions, policy, seed, include_actions) -> "referee_pb2.PlayoutRequest":
    # A name that is not one of the enum's (``heuristic``, Autobahn's ``builder``, ``trucker``,
    # ...) travels as ``policy_name``; the server lists the game's names when it does not know it.
    if isinstance(policy, str) and policy not in _PLAYOUT_POLICIES:
        return referee_pb2.PlayoutRequest(games=games, max_actions=max_actions, policy_name=policy, seed=seed,
                                          include_actions=include_actions, **_state_fields(state))
    return referee_pb2.PlayoutRequest(games=games, max_actions=max_actions,
                                      policy=_enum(_PLAYOUT_POLICIES, policy, "policy"), seed=seed,
                                      include_actions=include_actions, **_state_fields(state))


def _default_action_request(state, seat, policy, seed) -> "referee_pb2.DefaultActionRequest":
    if isinstance(policy, str) and policy not in _DEFAULT_POLICIES:
        # A playout policy by name (``first``, ``heuristic``, ``builder``, ...): that bot's move.
        return referee_pb2.DefaultActionRequest(seat=seat, policy_name=policy, seed=seed, **_state_fields(state))
    return referee_pb2.DefaultActionRequest(seat=seat, policy=_enum(_DEFAULT_POLICIES, policy, "policy"), seed=seed,
                                            **_state_fields(state))


def _view_request(state, seat, viewer, arbiter_key) -> "referee_pb2.ViewRequest":
    req = referee_pb2.ViewRequest(viewer=_enum(_VIEWERS, viewer, "viewer"), arbiter_key=arbiter_key,
                                  **_state_fields(state))
    if seat is not None:
        req.seat = seat
    return req


#: A recorded game for :meth:`Referee.import_game`: the export as text, bytes (UTF-8) or an
#: already parsed JSON object.
ExportLike = Union[str, bytes, Mapping[str, Any]]


def _import_request(export_json: ExportLike, check: bool,
                    stop_at_action_id: int | None) -> "referee_pb2.ImportGameRequest":
    if isinstance(export_json, (bytes, bytearray)):
        text = bytes(export_json).decode("utf-8")
    elif isinstance(export_json, str):
        text = export_json
    elif isinstance(export_json, Mapping):
        text = json.dumps(export_json, separators=(",", ":"))
    else:
        raise TypeError(f"export_json must be str, bytes or a JSON object, not {type(export_json).__name__}")
    req = referee_pb2.ImportGameRequest(export_json=text, check=check,
                                        format=referee_pb2.GAME_RECORD_FORMAT_EIGHTEEN_XX_GAMES_EXPORT)
    if stop_at_action_id is not None:
        req.stop_at_action_id = stop_at_action_id
    return req


def _export_request(game, seats, actions, options, seed, players, source_game_id,
                    description) -> "referee_pb2.ExportGameRequest":
    ext = []
    for i, p in enumerate(players or []):
        if isinstance(p, referee_pb2.ExternalPlayer):
            ext.append(p)
        elif isinstance(p, Mapping):
            ext.append(referee_pb2.ExternalPlayer(seat=i, id=str(p.get("id", "")), name=str(p.get("name", ""))))
        else:
            pid, name = p
            ext.append(referee_pb2.ExternalPlayer(seat=i, id=str(pid), name=str(name)))
    return referee_pb2.ExportGameRequest(game=_replay_request(game, seats, actions, options, seed),
                                         format=referee_pb2.GAME_RECORD_FORMAT_EIGHTEEN_XX_GAMES_EXPORT,
                                         players=ext, source_game_id=source_game_id, description=description)


def _started(resp: "referee_pb2.NewGameResponse") -> Started:
    sealed = not resp.HasField("state") and bool(resp.sealed_state)
    return Started(state=resp.sealed_state if sealed else resp.state, seat_credentials=list(resp.seat_credentials),
                   caller_view=caller_view(resp), response=resp)


def _options(options: Mapping[str, OptionValue] | None) -> dict[str, str]:
    out = {}
    for k, v in (options or {}).items():
        out[k] = ("true" if v else "false") if isinstance(v, bool) else str(v)
    return out


def _state_fields(state: StateLike) -> dict:
    if isinstance(state, (bytes, bytearray)):
        return {"sealed_state": bytes(state)}
    if isinstance(state, referee_pb2.GameState):
        return {"state": state}
    raise TypeError(f"state must be a referee_pb2.GameState or sealed bytes, not {type(state).__name__}")


@dataclass(frozen=True)
class GameData:
    """The static data a UI draws a game with (GetGameData; docs/API.md "Static game data").

    Attributes:
        game: game id (``"1841"``, ``"autobahn"``).
        variant: 1841 ``"v2"``, ``"v1"`` or ``"lite"``; Autobahn the board id.
        format_version: format of :attr:`data` (1).
        content_hash: ``"sha256:<hex>"`` of the document: a cache key.
        data: the document, parsed (1841: ``layout``, ``hexes`` with ``center``, ``tiles``,
            ``borders``, ``market``, ``ruleset`` with ``trains`` and ``phases``,
            ``concessions``, ``corporations``; Autobahn: ``board``, ``layout``, ``positions``).
    """

    game: str
    variant: str
    format_version: int
    content_hash: str
    data: dict


def _game_data_request(game, options, if_none_match) -> "referee_pb2.GetGameDataRequest":
    return referee_pb2.GetGameDataRequest(game=game, options=_options(options),
                                          if_none_match=if_none_match or "")


def _game_data(resp: "referee_pb2.GetGameDataResponse", cached: GameData | None) -> GameData:
    if resp.not_modified and cached is not None:
        return cached
    return GameData(game=resp.game, variant=resp.variant, format_version=resp.format_version,
                    content_hash=resp.content_hash, data=json.loads(resp.data_json))


class Referee:
    """A connection to a Referee server (gRPC). Use as a context manager, or call :meth:`close`.

    Args:
        target: ``host:port`` of the server.
        timeout: default deadline of each call in seconds (``None`` = no deadline).
        channel: an existing ``grpc.Channel`` to use instead of opening one (not closed by
            :meth:`close` unless ``own_channel=True``).
        credentials: ``grpc.ChannelCredentials`` for TLS; plaintext when ``None``.
        options: gRPC channel options, e.g. ``[("grpc.max_receive_message_length", 1 << 24)]``.
        credential: sealed mode: the caller's credential, sent as the ``referee-credential``
            header with every call — a seat credential ``seat-S:KEY_ID:HEX`` (from
            :attr:`Started.seat_credentials`) to act and look as seat S, or the arbiter
            credential ``arbiter:KEY_ID:HEX`` (``referee credential --seal-key-file F``).
            ``None``: a spectator. Open mode ignores it. See :meth:`with_credential`.

    gRPC errors (unknown game, malformed state, ...) propagate as :class:`grpc.RpcError`;
    refused actions raise :class:`~referee_client.RejectedError` from :meth:`apply`.
    """

    def __init__(self, target: str = DEFAULT_TARGET, *, timeout: float | None = 30.0,
                 channel: grpc.Channel | None = None, credentials: grpc.ChannelCredentials | None = None,
                 options: Iterable[tuple[str, Any]] | None = None, own_channel: bool | None = None,
                 credential: str | None = None):
        self.target = target
        self.timeout = timeout
        self._metadata = credential_metadata(credential)
        #: The credential sent with every call (``None``: none).
        self.credential = credential.strip() if credential else None
        if channel is None:
            opts = list(options or [])
            channel = (grpc.secure_channel(target, credentials, opts) if credentials is not None
                       else grpc.insecure_channel(target, opts))
            own_channel = True if own_channel is None else own_channel
        self._channel = channel
        self._own_channel = bool(own_channel)
        #: The raw generated stub, for anything the helpers do not cover. It sends no
        #: credential by itself: pass ``metadata=ref.metadata``.
        self.stub = referee_pb2_grpc.RefereeStub(channel)

    @property
    def metadata(self) -> tuple:
        """The gRPC metadata of every call (the credential header, or ``()``)."""
        return self._metadata

    def with_credential(self, credential: str | None) -> "Referee":
        """A client on the same channel that sends ``credential`` instead (``None``: none, a
        spectator). Cheap: make one per seat. Closing it leaves the channel open.

        Example (a hot-seat table in sealed mode)::

            game = ref.start_game("1841", 3, {"version_1": True})
            seats = [ref.with_credential(c) for c in game.seat_credentials]
            step = seats[0].apply(game.state, 0, g1841.blind_bid([20, 0, 0, 0, 0, 0, 0, 0]))
            step.caller_view.g1841.state   # seat 0's view: its own bid, nobody else's
        """
        return Referee(self.target, timeout=self.timeout, channel=self._channel, own_channel=False,
                       credential=credential)

    # -- lifecycle -------------------------------------------------------------------------

    @property
    def channel(self) -> grpc.Channel:
        return self._channel

    def close(self) -> None:
        """Close the channel (if this object opened it)."""
        if self._own_channel:
            self._channel.close()

    def __enter__(self) -> "Referee":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        who = self.credential.split(":", 1)[0] if self.credential else None
        return f"Referee({self.target!r})" if who is None else f"Referee({self.target!r}, credential={who}:…)"

    def _t(self, timeout: float | None) -> float | None:
        return self.timeout if timeout is None else timeout

    # -- calls -----------------------------------------------------------------------------

    def list_games(self, *, timeout: float | None = None) -> list:
        """The games this server knows (``referee_pb2.GameInfo``).

        Example: ``[g.id for g in ref.list_games()]`` → ``['1841', 'autobahn']``.
        """
        return list(self.stub.ListGames(referee_pb2.ListGamesRequest(), timeout=self._t(timeout),
                                        metadata=self._metadata).games)

    def new_game(self, game: str, seats: int, options: Mapping[str, OptionValue] | None = None,
                 seed: int = 0, *, timeout: float | None = None) -> StateLike:
        """Create a game; returns its initial ``GameState`` (or sealed bytes on a sealed server).

        Example: ``state = ref.new_game("1841", 4, {"lite": True})``;
        ``state.g1841.bank_cash``, ``state.g1841.players[0].cash``.
        """
        resp = self.stub.NewGame(referee_pb2.NewGameRequest(game=game, seats=seats, options=_options(options),
                                                            seed=seed), timeout=self._t(timeout),
                                                            metadata=self._metadata)
        if not resp.HasField("state") and resp.sealed_state:
            return resp.sealed_state
        return resp.state

    def start_game(self, game: str, seats: int, options: Mapping[str, OptionValue] | None = None,
                   seed: int | None = None, *, timeout: float | None = None) -> Started:
        """Create a game and return :class:`Started`: the state, and in sealed mode the seat
        credentials (``seat_credentials``, index = seat) and what the creator may see
        (``caller_view``). ``seed=None`` lets a sealed server draw a secret seed (open mode:
        seed 0); a given seed, 0 included, is used as given and makes the game predictable.

        Example::

            game = ref.start_game("autobahn", 3)
            if game.sealed:
                players = [ref.with_credential(c) for c in game.seat_credentials]
        """
        req = referee_pb2.NewGameRequest(game=game, seats=seats, options=_options(options), seed=seed or 0,
                                         explicit_seed=seed is not None)
        resp = self.stub.NewGame(req, timeout=self._t(timeout), metadata=self._metadata)
        return _started(resp)

    def try_apply(self, state: StateLike, seat: int, action: ActionLike, *,
                  expected_action_count: int | None = None, expected_state_hash: bytes = b"",
                  timeout: float | None = None) -> "referee_pb2.ApplyResponse":
        """Apply an action and return the raw ``ApplyResponse`` (accepted or rejected), never
        raising for a refused action.

        Example::

            resp = ref.try_apply(state, 0, g1841.pass_())
            if resp.WhichOneof("result") == "rejected":
                print(resp.rejected.rejection.message)
        """
        req = referee_pb2.ApplyRequest(seat=seat, action=to_action(action),
                                       expected_state_hash=expected_state_hash, **_state_fields(state))
        if expected_action_count is not None:
            req.expected_action_count = expected_action_count
        return self.stub.Apply(req, timeout=self._t(timeout), metadata=self._metadata)

    def apply(self, state: StateLike, seat: int, action: ActionLike, *,
              expected_action_count: int | None = None, expected_state_hash: bytes = b"",
              timeout: float | None = None) -> Applied:
        """Apply an action; returns :class:`Applied` (new state + events) or raises
        :class:`~referee_client.RejectedError`. The given state is never modified.

        Example::

            step = ref.apply(state, 0, g1841.bid("Bayard", 20))
            state, events = step.state, step.events
        """
        resp = self.try_apply(state, seat, action, expected_action_count=expected_action_count,
                              expected_state_hash=expected_state_hash, timeout=timeout)
        return _applied(state, resp)

    def legal_actions(self, state: StateLike, seat: int, *,
                      timeout: float | None = None) -> "referee_pb2.LegalActionsResponse":
        """What ``seat`` may do now: ``resp.to_act`` (seats that must act) and the typed
        ranges, e.g. ``resp.g1841.bids[0].min_price`` and ``resp.g1841.actions`` (pass).
        """
        return self.stub.LegalActions(referee_pb2.LegalActionsRequest(seat=seat, **_state_fields(state)),
                                      timeout=self._t(timeout), metadata=self._metadata)

    def view(self, state: StateLike, seat: int | None = None, *, viewer: str | None = None,
             arbiter_key: str = "", timeout: float | None = None) -> "referee_pb2.ViewResponse":
        """The state as ``seat`` sees it (``None`` = spectator, public information only).
        ``viewer="spectator"`` asks for the public view explicitly; ``viewer="arbiter"`` for
        everything, secrets included (PERMISSION_DENIED unless the server runs with
        ``--allow-arbiter-view`` or, sealed, the client's credential is the arbiter's or
        ``arbiter_key`` is one of its keys ``ID:HEX``). In sealed mode a seat's view needs that
        seat's credential (:meth:`with_credential`; else PERMISSION_DENIED). After the game
        has ended every viewer sees everything.

        Example: ``ref.view(state).g1841.state.bank_cash``; ``ref.view(state, 2).to_act``.
        """
        return self.stub.View(_view_request(state, seat, viewer, arbiter_key), timeout=self._t(timeout),
                              metadata=self._metadata)

    def replay(self, game: str, seats: int, actions: Iterable, options: Mapping[str, OptionValue] | None = None,
               seed: int = 0, *, timeout: float | None = None) -> "referee_pb2.ReplayResponse":
        """Play a game from setup through ``actions``: ``(seat, action)`` pairs or
        ``referee_pb2.SeatAction``. Returns the ``ReplayResponse``; ``resp.HasField("failure")``
        tells whether an action was refused (``resp.failure.index``, ``resp.failure.rejection``).

        Example::

            resp = ref.replay("1841", 4, [(0, g1841.bid("Bayard", 20)), (1, g1841.pass_())])
            resp.actions_applied  # 2
        """
        req = _replay_request(game, seats, actions, options, seed)
        return self.stub.Replay(req, timeout=self._t(timeout), metadata=self._metadata)

    def import_game(self, export_json: ExportLike, *, check: bool = False, stop_at_action_id: int | None = None,
                    timeout: float | None = None) -> "referee_pb2.ImportGameResponse":
        """Replay a game of 1841 exported from 18xx.games (the JSON of
        ``https://18xx.games/api/game/<id>``, as text, bytes or a parsed object). Returns the
        ``ImportGameResponse``: ``state`` (``sealed_state`` on a sealed server), ``actions`` (the
        game as ``SeatAction``s, ready for :meth:`replay` or to go on with :meth:`apply`),
        ``players`` (18xx id, name, seat, ``result``), ``finished``, ``game_end_reason``. A game
        that cannot be replayed to its end is not an exception: ``resp.HasField("failure")``,
        with ``failure.action_id``, ``failure.field``, ``failure.message`` and, for an action the
        rules refuse, ``failure.rejection``. ``check=True`` compares with the recorded result
        (``resp.check.ok``); ``stop_at_action_id`` stops after that action id.

        Example::

            resp = ref.import_game(open("132002.json").read(), check=True)
            assert resp.finished and resp.check.ok
            print({p.name: p.result for p in resp.players}, resp.game_end_reason)
        """
        req = _import_request(export_json, check, stop_at_action_id)
        return self.stub.ImportGame(req, timeout=self._t(timeout), metadata=self._metadata)

    def export_game(self, game: str, seats: int, actions: Iterable, options: Mapping[str, OptionValue] | None = None,
                    seed: int = 0, *, players: Iterable | None = None, source_game_id: int = 0,
                    description: str = "", timeout: float | None = None) -> "referee_pb2.ExportGameResponse":
        """Write a game of 1841 (setup and ``(seat, action)`` pairs, as :meth:`replay` takes
        them) as an 18xx.games export: ``resp.export_json`` (text), ``resp.actions_exported``;
        ``resp.HasField("failure")`` when an action was refused (``failure.index``).
        ``players``: one per seat, ``(id, name)`` pairs, ``{"id": …, "name": …}`` or
        ``ExternalPlayer`` (default ids 1, 2, … and names "Player 1", …). :meth:`import_game`
        reads the export back to the same game.

        Example::

            resp = ref.export_game("1841", 4, game.history, players=[(512, "Ann"), ...])
            open("game.json", "w").write(resp.export_json)
        """
        req = _export_request(game, seats, actions, options, seed, players, source_game_id, description)
        return self.stub.ExportGame(req, timeout=self._t(timeout), metadata=self._metadata)


    # -- issue #9 ---------------------------------------------------------------------------

    def apply_batch(self, state: StateLike, actions: Iterable, *, expected_action_count: int | None = None,
                    expected_state_hash: bytes = b"", timeout: float | None = None) -> "referee_pb2.ApplyBatchResponse":
        """Apply ``(seat, action)`` pairs (or ``SeatAction``s) in order. Returns the
        ``ApplyBatchResponse``: ``state`` (``sealed_state`` when sealed) after the last applied
        action, ``actions_applied``, ``applied[i].events``; ``resp.HasField("failure")`` when an
        action was refused (``failure.index``, ``failure.rejection``; nothing after it applied).

        Example::

            resp = ref.apply_batch(state, [(0, g1841.pass_()), (1, g1841.pass_())])
            state = resp.state
        """
        return self.stub.ApplyBatch(_batch_request(state, actions, expected_action_count, expected_state_hash),
                                    timeout=self._t(timeout), metadata=self._metadata)

    def stream_replay(self, game: str, seats: int, actions: Iterable, options: Mapping[str, OptionValue] | None = None,
                      seed: int = 0, *, every: int = 0, events_only: bool = False,
                      timeout: float | None = None) -> Iterator["referee_pb2.StreamReplayResponse"]:
        """Replay a game and yield the ``StreamReplayResponse`` messages as they come: the setup
        (``action_count`` 0), then one per action with its ``events`` and, every ``every``
        actions (0 = each), its ``state``; ``events_only`` sends only the final state. The last
        message has ``last`` set, and ``failure`` when an action was refused.

        Example: ``for m in ref.stream_replay("1841", 4, actions, every=10): show(m.state)``.
        """
        req = _stream_replay_request(game, seats, actions, options, seed, every, events_only)
        yield from self.stub.StreamReplay(req, timeout=self._t(timeout), metadata=self._metadata)

    def playout(self, state: StateLike, games: int = 1, *, max_actions: int = 0, policy: str | int = "random",
                seed: int = 0, include_actions: bool = False,
                timeout: float | None = None) -> "referee_pb2.PlayoutResponse":
        """Play ``games`` games on from ``state`` (``policy`` by name: ``"random"``, ``"first"``,
        ``"heuristic"``, Autobahn's ``"balanced"``, ``"builder"``, ``"network"``, ``"trucker"``,
        ``"finance"``; game k
        seeded ``seed + k``) and return the ``PlayoutResponse``: ``seats[i].wins``,
        ``mean_score``, ``score_stddev``, ``finished``, ``end_reasons``, with
        ``include_actions`` the games' actions (``played``). At most 1,000 games, 50,000
        actions each and 2,000,000 in all; when the deadline (``timeout``) passes the games done
        so far come back with ``partial`` set.

        Example: ``[s.wins for s in ref.playout(state, 20, seed=7).seats]``.
        """
        req = _playout_request(state, games, max_actions, policy, seed, include_actions)
        return self.stub.Playout(req, timeout=self._t(timeout), metadata=self._metadata)

    def suggest_routes(self, state: StateLike, corporation: str = "", *, work_budget: int = 0,
                       timeout: float | None = None) -> "referee_pb2.SuggestRoutesResponse":
        """1841: the route optimizer's best routes for ``corporation`` (default: the one
        operating): ``routes``, ``revenues``, ``revenue`` (L.), ``proven_optimal`` within
        ``work_budget`` units (0 = 5,000,000). Ready for ``g1841.run_routes(resp.routes)``.
        """
        req = referee_pb2.SuggestRoutesRequest(corporation=corporation, work_budget=work_budget,
                                               **_state_fields(state))
        return self.stub.SuggestRoutes(req, timeout=self._t(timeout), metadata=self._metadata)

    def default_action(self, state: StateLike, seat: int, *, policy: str | int = "pass_or_minimal", seed: int = 0,
                       timeout: float | None = None) -> "referee_pb2.DefaultActionResponse":
        """The move to play for ``seat`` when its clock runs out: ``resp.action`` (Apply accepts
        it), ``resp.is_pass``, ``resp.description``. ``policy``: ``"pass_or_minimal"`` (pass
        where legal, else a documented safe choice) or ``"random"`` (seeded).

        Example: ``state = ref.apply(state, seat, ref.default_action(state, seat).action).state``.
        """
        return self.stub.DefaultAction(_default_action_request(state, seat, policy, seed), timeout=self._t(timeout),
                                       metadata=self._metadata)

    def describe(self, state: StateLike, seat: int, action: ActionLike, *,
                 timeout: float | None = None) -> "referee_pb2.DescribeResponse":
        """One English line for ``action`` by ``seat`` in ``state``: ``resp.text`` (e.g.
        ``"IRSFF lays tile 202 on E9 (Bergamo), rotation 5, for L.0"``), ``resp.legal`` and,
        when Apply would refuse it, ``resp.rejection``.
        """
        req = referee_pb2.DescribeRequest(seat=seat, action=to_action(action), **_state_fields(state))
        return self.stub.Describe(req, timeout=self._t(timeout), metadata=self._metadata)

    def game_data(self, game: str, options: Mapping[str, OptionValue] | None = None, *,
                  timeout: float | None = None) -> GameData:
        """Everything needed to draw ``game`` with ``options`` that never changes while it is
        played (GetGameData): the 1841 map, tiles, market, corporations, trains and phases of
        the variant, or the Autobahn board with drawing positions. Kept per client and asked
        again with ``if_none_match``, so a repeated call moves only the hash.

        Example: ``hexes = ref.game_data("1841", {"lite": True}).data["hexes"]``.
        """
        key = (game, tuple(sorted(_options(options).items())))
        cache: dict = self.__dict__.setdefault("_game_data_cache", {})
        cached = cache.get(key)
        req = _game_data_request(game, options, cached.content_hash if cached else None)
        data = _game_data(self.stub.GetGameData(req, timeout=self._t(timeout), metadata=self._metadata), cached)
        cache[key] = data
        return data


__all__ = ["Applied", "CREDENTIAL_HEADER", "DEFAULT_TARGET", "ExportLike", "GameData", "Referee", "Started",
           "caller_view", "credential_metadata", "to_action"]
