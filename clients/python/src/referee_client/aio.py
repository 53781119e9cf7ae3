"""The asyncio client: :class:`AsyncReferee`, the same helpers as :class:`~referee_client.Referee`
over ``grpc.aio``. Every method is a coroutine; many calls can be in flight on one channel.

Example::

    import asyncio
    from referee_client import AsyncReferee, RejectedError, g1841

    async def main():
        async with AsyncReferee("127.0.0.1:50051") as ref:
            state = await ref.new_game("1841", seats=4)
            legal = await ref.legal_actions(state, 0)
            step = await ref.apply(state, 0, g1841.bid("Bayard", 20))
            try:
                await ref.apply(step.state, 1, g1841.bid("Bayard", 22))
            except RejectedError as e:
                print(e.code_name, e.message)
            # many games at once on one channel
            states = await asyncio.gather(*(ref.new_game("autobahn", 3, seed=s) for s in range(10)))

    asyncio.run(main())

Create it inside a running event loop (``grpc.aio`` channels belong to the loop they were
created in).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

import grpc
from grpc import aio

from .client import (DEFAULT_TARGET, ActionLike, Applied, ExportLike, GameData, OptionValue, Started, StateLike,
                     _applied, _started, credential_metadata,
                     _game_data, _game_data_request,
                     _batch_request, _default_action_request, _export_request, _import_request, _options,
                     _playout_request, _replay_request, _state_fields, _stream_replay_request, _view_request,
                     to_action)
from .pb import referee_pb2, referee_pb2_grpc


class AsyncReferee:
    """An asyncio connection to a Referee server (``grpc.aio``). Use ``async with``, or await
    :meth:`close`.

    Args:
        target: ``host:port`` of the server.
        timeout: default deadline of each call in seconds (``None`` = no deadline).
        channel: an existing ``grpc.aio.Channel`` (not closed by :meth:`close` unless
            ``own_channel=True``).
        credentials: ``grpc.ChannelCredentials`` for TLS; plaintext when ``None``.
        options: gRPC channel options.
        credential: sealed mode: the caller's credential, sent as the ``referee-credential``
            header with every call (as :class:`~referee_client.Referee`); see
            :meth:`with_credential`.

    Refused actions raise :class:`~referee_client.RejectedError` from :meth:`apply`; requests
    the server cannot judge raise ``grpc.aio.AioRpcError`` (a :class:`grpc.RpcError`).
    """

    def __init__(self, target: str = DEFAULT_TARGET, *, timeout: float | None = 30.0,
                 channel: aio.Channel | None = None, credentials: grpc.ChannelCredentials | None = None,
                 options: Iterable[tuple[str, Any]] | None = None, own_channel: bool | None = None,
                 credential: str | None = None):
        self.target = target
        self.timeout = timeout
        self._metadata = credential_metadata(credential)
        #: The credential sent with every call (``None``: none).
        self.credential = credential.strip() if credential else None
        if channel is None:
            opts = list(options or [])
            channel = (aio.secure_channel(target, credentials, opts) if credentials is not None
                       else aio.insecure_channel(target, opts))
            own_channel = True if own_channel is None else own_channel
        self._channel = channel
        self._own_channel = bool(own_channel)
        #: The raw generated stub (``grpc.aio``), for anything the helpers do not cover. It
        #: sends no credential by itself: pass ``metadata=ref.metadata``.
        self.stub = referee_pb2_grpc.RefereeStub(channel)

    @property
    def metadata(self) -> tuple:
        """The gRPC metadata of every call (the credential header, or ``()``)."""
        return self._metadata

    def with_credential(self, credential: str | None) -> "AsyncReferee":
        """A client on the same channel that sends ``credential`` instead (``None``: none);
        see :meth:`Referee.with_credential`."""
        return AsyncReferee(self.target, timeout=self.timeout, channel=self._channel, own_channel=False,
                            credential=credential)

    @property
    def channel(self) -> aio.Channel:
        return self._channel

    async def close(self) -> None:
        """Close the channel (if this object opened it)."""
        if self._own_channel:
            await self._channel.close()

    async def __aenter__(self) -> "AsyncReferee":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"AsyncReferee({self.target!r})"

    def _t(self, timeout: float | None) -> float | None:
        return self.timeout if timeout is None else timeout

    async def list_games(self, *, timeout: float | None = None) -> list:
        """The games this server knows (``referee_pb2.GameInfo``)."""
        resp = await self.stub.ListGames(referee_pb2.ListGamesRequest(), timeout=self._t(timeout),
                                         metadata=self._metadata)
        return list(resp.games)

    async def new_game(self, game: str, seats: int, options: Mapping[str, OptionValue] | None = None,
                       seed: int = 0, *, timeout: float | None = None) -> StateLike:
        """Create a game; returns its initial ``GameState`` (or sealed bytes on a sealed server).

        Example: ``state = await ref.new_game("autobahn", 3, seed=7)``.
        """
        resp = await self.stub.NewGame(referee_pb2.NewGameRequest(game=game, seats=seats, options=_options(options),
                                                                  seed=seed), timeout=self._t(timeout),
                                                                  metadata=self._metadata)
        if not resp.HasField("state") and resp.sealed_state:
            return resp.sealed_state
        return resp.state

    async def start_game(self, game: str, seats: int, options: Mapping[str, OptionValue] | None = None,
                         seed: int | None = None, *, timeout: float | None = None) -> Started:
        """Create a game: the state and, in sealed mode, the seat credentials and the creator's
        view; see :meth:`Referee.start_game`."""
        req = referee_pb2.NewGameRequest(game=game, seats=seats, options=_options(options), seed=seed or 0,
                                         explicit_seed=seed is not None)
        return _started(await self.stub.NewGame(req, timeout=self._t(timeout), metadata=self._metadata))

    async def try_apply(self, state: StateLike, seat: int, action: ActionLike, *,
                        expected_action_count: int | None = None, expected_state_hash: bytes = b"",
                        timeout: float | None = None) -> "referee_pb2.ApplyResponse":
        """Apply an action; the raw ``ApplyResponse`` (accepted or rejected), never raising for a
        refused action."""
        req = referee_pb2.ApplyRequest(seat=seat, action=to_action(action),
                                       expected_state_hash=expected_state_hash, **_state_fields(state))
        if expected_action_count is not None:
            req.expected_action_count = expected_action_count
        return await self.stub.Apply(req, timeout=self._t(timeout), metadata=self._metadata)

    async def apply(self, state: StateLike, seat: int, action: ActionLike, *,
                    expected_action_count: int | None = None, expected_state_hash: bytes = b"",
                    timeout: float | None = None) -> Applied:
        """Apply an action; :class:`~referee_client.Applied` or :class:`~referee_client.RejectedError`.

        Example: ``state = (await ref.apply(state, 0, g1841.pass_())).state``.
        """
        resp = await self.try_apply(state, seat, action, expected_action_count=expected_action_count,
                                    expected_state_hash=expected_state_hash, timeout=timeout)
        return _applied(state, resp)

    async def legal_actions(self, state: StateLike, seat: int, *,
                            timeout: float | None = None) -> "referee_pb2.LegalActionsResponse":
        """What ``seat`` may do now (``to_act`` + typed lists and ranges)."""
        return await self.stub.LegalActions(referee_pb2.LegalActionsRequest(seat=seat, **_state_fields(state)),
                                            timeout=self._t(timeout), metadata=self._metadata)

    async def view(self, state: StateLike, seat: int | None = None, *, viewer: str | None = None,
                   arbiter_key: str = "", timeout: float | None = None) -> "referee_pb2.ViewResponse":
        """The state as ``seat`` sees it (``None`` = spectator); ``viewer`` and ``arbiter_key``
        as in :meth:`Referee.view`."""
        return await self.stub.View(_view_request(state, seat, viewer, arbiter_key), timeout=self._t(timeout),
                                    metadata=self._metadata)

    async def replay(self, game: str, seats: int, actions: Iterable, options: Mapping[str, OptionValue] | None = None,
                     seed: int = 0, *, timeout: float | None = None) -> "referee_pb2.ReplayResponse":
        """Play a game from setup through ``(seat, action)`` pairs; see :meth:`Referee.replay`."""
        req = _replay_request(game, seats, actions, options, seed)
        return await self.stub.Replay(req, timeout=self._t(timeout), metadata=self._metadata)

    async def import_game(self, export_json: ExportLike, *, check: bool = False,
                          stop_at_action_id: int | None = None,
                          timeout: float | None = None) -> "referee_pb2.ImportGameResponse":
        """Replay a game exported from 18xx.games; see :meth:`Referee.import_game`."""
        req = _import_request(export_json, check, stop_at_action_id)
        return await self.stub.ImportGame(req, timeout=self._t(timeout), metadata=self._metadata)

    async def export_game(self, game: str, seats: int, actions: Iterable,
                          options: Mapping[str, OptionValue] | None = None, seed: int = 0, *,
                          players: Iterable | None = None, source_game_id: int = 0, description: str = "",
                          timeout: float | None = None) -> "referee_pb2.ExportGameResponse":
        """Write a game as an 18xx.games export; see :meth:`Referee.export_game`."""
        req = _export_request(game, seats, actions, options, seed, players, source_game_id, description)
        return await self.stub.ExportGame(req, timeout=self._t(timeout), metadata=self._metadata)


    # -- issue #9 ---------------------------------------------------------------------------

    async def apply_batch(self, state: StateLike, actions: Iterable, *, expected_action_count: int | None = None,
                          expected_state_hash: bytes = b"",
                          timeout: float | None = None) -> "referee_pb2.ApplyBatchResponse":
        """Apply ``(seat, action)`` pairs in order; see :meth:`Referee.apply_batch`."""
        return await self.stub.ApplyBatch(_batch_request(state, actions, expected_action_count,
                                                         expected_state_hash), timeout=self._t(timeout),
                                                         metadata=self._metadata)

    async def stream_replay(self, game: str, seats: int, actions: Iterable,
                            options: Mapping[str, OptionValue] | None = None, seed: int = 0, *, every: int = 0,
                            events_only: bool = False,
                            timeout: float | None = None) -> AsyncIterator["referee_pb2.StreamReplayResponse"]:
        """Replay a game, yielding its messages as they come (``async for``); see
        :meth:`Referee.stream_replay`."""
        req = _stream_replay_request(game, seats, actions, options, seed, every, events_only)
        async for message in self.stub.StreamReplay(req, timeout=self._t(timeout), metadata=self._metadata):
            yield message

    async def playout(self, state: StateLike, games: int = 1, *, max_actions: int = 0,
                      policy: str | int = "random", seed: int = 0, include_actions: bool = False,
                      timeout: float | None = None) -> "referee_pb2.PlayoutResponse":
        """Play games on from ``state`` and return the statistics; see :meth:`Referee.playout`."""
        req = _playout_request(state, games, max_actions, policy, seed, include_actions)
        return await self.stub.Playout(req, timeout=self._t(timeout), metadata=self._metadata)

    async def suggest_routes(self, state: StateLike, corporation: str = "", *, work_budget: int = 0,
                             timeout: float | None = None) -> "referee_pb2.SuggestRoutesResponse":
        """1841: the optimizer's best routes; see :meth:`Referee.suggest_routes`."""
        req = referee_pb2.SuggestRoutesRequest(corporation=corporation, work_budget=work_budget,
                                               **_state_fields(state))
        return await self.stub.SuggestRoutes(req, timeout=self._t(timeout), metadata=self._metadata)

    async def default_action(self, state: StateLike, seat: int, *, policy: str | int = "pass_or_minimal",
                             seed: int = 0, timeout: float | None = None) -> "referee_pb2.DefaultActionResponse":
        """The timeout move for ``seat``; see :meth:`Referee.default_action`."""
        return await self.stub.DefaultAction(_default_action_request(state, seat, policy, seed),
                                             timeout=self._t(timeout), metadata=self._metadata)

    async def describe(self, state: StateLike, seat: int, action: ActionLike, *,
                       timeout: float | None = None) -> "referee_pb2.DescribeResponse":
        """One English line for an action; see :meth:`Referee.describe`."""
        req = referee_pb2.DescribeRequest(seat=seat, action=to_action(action), **_state_fields(state))
        return await self.stub.Describe(req, timeout=self._t(timeout), metadata=self._metadata)

    async def game_data(self, game: str, options: Mapping[str, OptionValue] | None = None, *,
                        timeout: float | None = None) -> GameData:
        """The static data to draw a game with; see :meth:`Referee.game_data`."""
        key = (game, tuple(sorted(_options(options).items())))
        cache: dict = self.__dict__.setdefault("_game_data_cache", {})
        cached = cache.get(key)
        req = _game_data_request(game, options, cached.content_hash if cached else None)
        data = _game_data(await self.stub.GetGameData(req, timeout=self._t(timeout), metadata=self._metadata), cached)
        cache[key] = data
        return data


__all__ = ["AsyncReferee"]
