"""Game helpers: :class:`Game` (with :class:`~referee_client.Referee`) and :class:`AsyncGame`
(with :class:`~referee_client.AsyncReferee`) keep one game's state, history and log on the
caller's side — the server keeps nothing.

Example::

    import random
    from referee_client import Game, Referee

    with Referee("127.0.0.1:50051") as ref:
        game = Game.new(ref, "autobahn", seats=3, seed=7)
        rng = random.Random(7)
        while not game.finished():
            seat = game.to_act()[0]
            game.apply(seat, game.legal(seat).random(rng))   # RejectedError if refused
        print(game.outcome().scores)                          # final VP per seat
        assert game.replay().state == game.state             # the history reproduces it

A game also plays itself with bots: ``Game.new(ref, "autobahn", 3).play([RandomBot(1), ...])``.
Sealed mode works too: the state is then the server's opaque token.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from .client import ActionLike, Applied, OptionValue, Referee, StateLike, _applied, to_action
from .errors import RefereeError, RejectedError
from .legal import Legal
from .pb import referee_pb2

if TYPE_CHECKING:  # pragma: no cover
    from .aio import AsyncReferee
    from .bots import Bot


class ReplayError(RefereeError):
    """A replayed history was refused at action ``index`` (the :class:`RejectedError` is
    ``.rejected``)."""

    def __init__(self, index: int, rejected: RejectedError):
        self.index = index
        self.rejected = rejected
        super().__init__(f"action {index} refused: {rejected}")


class _GameBase:
    def __init__(self, state: StateLike, *, game: str = "", seats: int = 0,
                 options: Mapping[str, OptionValue] | None = None, seed: int = 0,
                 history: Iterable[tuple[int, ActionLike]] = ()):
        #: The current state (``GameState``, or sealed bytes in sealed mode).
        self.state: StateLike = state
        #: Game id (``autobahn``, ``1841``).
        self.game: str = game or (state.game if isinstance(state, referee_pb2.GameState) else "")
        #: Number of seats.
        self.seats = seats
        #: NewGame options and seed, for :meth:`replay`.
        self.options = dict(options or {})
        self.seed = seed
        #: Accepted actions since setup: ``(seat, referee_pb2.Action)``.
        self.history: list[tuple[int, referee_pb2.Action]] = [(s, to_action(a)) for s, a in history]
        #: Events of each accepted action, in order (one list per entry of :attr:`history`).
        self.log: list[list[referee_pb2.Event]] = []

    @property
    def action_count(self) -> int:
        """Accepted actions since setup."""
        if isinstance(self.state, referee_pb2.GameState):
            return self.state.action_count
        return len(self.history)

    def _accepted(self, seat: int, action: ActionLike, applied: Applied) -> Applied:
        self.state = applied.state
        self.history.append((seat, to_action(action)))
        self.log.append(list(applied.events))
        return applied

    def __repr__(self) -> str:
        return f"{type(self).__name__}(game={self.game!r}, seats={self.seats}, actions={self.action_count})"


class Game(_GameBase):
    """One game on the caller's side, played through a :class:`~referee_client.Referee`.

    Create it with :meth:`new` (or :meth:`from_replay`); every accepted :meth:`apply` replaces
    :attr:`state` and appends to :attr:`history` and :attr:`log`.
    """

    def __init__(self, referee: Referee, state: StateLike, **kw):
        super().__init__(state, **kw)
        self.referee = referee

    @classmethod
    def new(cls, referee: Referee, game: str, seats: int, options: Mapping[str, OptionValue] | None = None,
            seed: int = 0) -> "Game":
        """Start a game. Example: ``Game.new(ref, "1841", 4, {"lite": True})``."""
        state = referee.new_game(game, seats, options, seed)
        return cls(referee, state, game=game, seats=seats, options=options, seed=seed)

    @classmethod
    def from_replay(cls, referee: Referee, game: str, seats: int, actions: Iterable[tuple[int, ActionLike]],
                    options: Mapping[str, OptionValue] | None = None, seed: int = 0) -> "Game":
        """The game after replaying ``(seat, action)`` pairs from setup (one Replay call);
        :class:`ReplayError` if one is refused."""
        actions = [(s, to_action(a)) for s, a in actions]
        resp = referee.replay(game, seats, actions, options, seed)
        return _from_replay(cls, referee, resp, game, seats, actions, options, seed)

    def view(self, seat: int | None = None) -> "referee_pb2.ViewResponse":
        """The state as ``seat`` sees it (``None``: spectator, public information only)."""
        return self.referee.view(self.state, seat)

    def legal_actions(self, seat: int) -> "referee_pb2.LegalActionsResponse":
        """The raw ``LegalActionsResponse`` of ``seat``."""
        return self.referee.legal_actions(self.state, seat)

    def legal(self, seat: int) -> Legal:
        """What ``seat`` may do, flattened (:class:`~referee_client.Legal`)."""
        return Legal(self.legal_actions(seat))

    def to_act(self) -> list[int]:
        """Seats that must act now (empty once the game is over)."""
        return list(self.view().to_act)

    def outcome(self) -> "referee_pb2.Outcome | None":
        """Scores and ranks per seat once the game has ended, else ``None``."""
        v = self.view()
        return v.outcome if v.HasField("outcome") else None

    def finished(self) -> bool:
        """Whether the game has ended (it has an outcome)."""
        return self.outcome() is not None

    def apply(self, seat: int, action: ActionLike, **kw) -> Applied:
        """Apply an action of ``seat``; raises :class:`~referee_client.RejectedError` (the game is
        then unchanged)."""
        return self._accepted(seat, action, self.referee.apply(self.state, seat, action, **kw))

    def try_apply(self, seat: int, action: ActionLike, **kw) -> "referee_pb2.ApplyResponse":
        """Like :meth:`apply` but returns the ``ApplyResponse``; the game advances only if it
        was accepted."""
        resp = self.referee.try_apply(self.state, seat, action, **kw)
        if resp.WhichOneof("result") == "accepted":
            self._accepted(seat, action, _applied(self.state, resp))
        return resp

    def replay(self) -> "referee_pb2.ReplayResponse":
        """Replay :attr:`history` from setup on the server (needs :attr:`game`, :attr:`seats`,
        options and seed, as :meth:`new` records them). In open mode ``resp.state`` equals
        :attr:`state` for a faithful history."""
        return self.referee.replay(self.game, self.seats, self.history, self.options, self.seed)

    def play(self, bots: Sequence["Bot"], max_moves: int | None = None) -> "referee_pb2.Outcome | None":
        """Let ``bots`` (one per seat) play until the game ends or ``max_moves`` more actions
        were applied; returns the outcome (``None`` if unfinished). A refused action goes back to
        the bot (``on_rejected``) and it chooses again, up to 3 times; then the seat passes if it
        may, else plays a random legal action. For timeouts, concurrency and results, use
        ``referee-tournament``."""
        import random as _random

        from .bots import Turn, _fallback_action, call_hook

        fallback_rng = _random.Random(self.seed)
        for seat, bot in enumerate(bots):
            call_hook(bot, "start", self.game, seat, len(bots))
        moves = 0
        while max_moves is None or moves < max_moves:
            spectator = self.view()
            if spectator.HasField("outcome") or not spectator.to_act:
                break
            seat = spectator.to_act[0]
            legal = self.legal(seat)
            if not legal:
                break
            turn = Turn(self.game, seat, legal, None, self.action_count,
                        fetch_view=lambda st=self.state, s=seat: self.referee.view(st, s),
                        fetch_routes=lambda st=self.state: self.referee.suggest_routes(st),
                        fetch_server_move=lambda policy, seed, st=self.state, s=seat:
                        self.referee.default_action(st, s, policy=policy, seed=seed))
            for _ in range(4):
                action = to_action(bots[seat].choose(turn))
                try:
                    self.apply(seat, action)
                    break
                except RejectedError as e:
                    turn.rejections.append(e)
                    call_hook(bots[seat], "on_rejected", turn, action, e)
            else:
                self.apply(seat, _fallback_action(legal, fallback_rng))
            moves += 1
        out = self.outcome()
        final = self.view()
        for bot in bots:
            call_hook(bot, "finish", final)
        return out


class AsyncGame(_GameBase):
    """:class:`Game` for asyncio, played through an :class:`~referee_client.AsyncReferee`.

    Example::

        async with AsyncReferee() as ref:
            game = await AsyncGame.new(ref, "autobahn", 3, seed=1)
            seat = (await game.to_act())[0]
            await game.apply(seat, (await game.legal(seat)).first())
    """

    def __init__(self, referee: "AsyncReferee", state: StateLike, **kw):
        super().__init__(state, **kw)
        self.referee = referee

    @classmethod
    async def new(cls, referee: "AsyncReferee", game: str, seats: int,
                  options: Mapping[str, OptionValue] | None = None, seed: int = 0) -> "AsyncGame":
        """Start a game."""
        state = await referee.new_game(game, seats, options, seed)
        return cls(referee, state, game=game, seats=seats, options=options, seed=seed)

    @classmethod
    async def from_replay(cls, referee: "AsyncReferee", game: str, seats: int,
                          actions: Iterable[tuple[int, ActionLike]],
                          options: Mapping[str, OptionValue] | None = None, seed: int = 0) -> "AsyncGame":
        """The game after replaying ``(seat, action)`` pairs from setup."""
        actions = [(s, to_action(a)) for s, a in actions]
        resp = await referee.replay(game, seats, actions, options, seed)
        return _from_replay(cls, referee, resp, game, seats, actions, options, seed)

    async def view(self, seat: int | None = None) -> "referee_pb2.ViewResponse":
        return await self.referee.view(self.state, seat)

    async def legal_actions(self, seat: int) -> "referee_pb2.LegalActionsResponse":
        return await self.referee.legal_actions(self.state, seat)

    async def legal(self, seat: int) -> Legal:
        return Legal(await self.legal_actions(seat))

    async def to_act(self) -> list[int]:
        return list((await self.view()).to_act)

    async def outcome(self) -> "referee_pb2.Outcome | None":
        v = await self.view()
        return v.outcome if v.HasField("outcome") else None

    async def finished(self) -> bool:
        return (await self.outcome()) is not None

    async def apply(self, seat: int, action: ActionLike, **kw) -> Applied:
        return self._accepted(seat, action, await self.referee.apply(self.state, seat, action, **kw))

    async def try_apply(self, seat: int, action: ActionLike, **kw) -> "referee_pb2.ApplyResponse":
        resp = await self.referee.try_apply(self.state, seat, action, **kw)
        if resp.WhichOneof("result") == "accepted":
            self._accepted(seat, action, _applied(self.state, resp))
        return resp

    async def replay(self) -> "referee_pb2.ReplayResponse":
        return await self.referee.replay(self.game, self.seats, self.history, self.options, self.seed)


def _from_replay(cls, referee, resp, game, seats, actions, options, seed):
    if resp.HasField("failure"):
        raise ReplayError(resp.failure.index, RejectedError.from_proto(resp.failure.rejection))
    state = resp.state if resp.HasField("state") else resp.sealed_state
    return cls(referee, state, game=game, seats=seats, options=options, seed=seed, history=actions)


__all__ = ["AsyncGame", "Game", "ReplayError"]
