"""The tournament runner: plays games between bots against a Referee server, concurrently, with
seat rotation, seeds derived from one tournament seed, per-move timeouts, retries after
refusals, default moves and a move cap.

Example::

    import asyncio
    from referee_client.tournament import Config, bot_entries, run_tournament

    config = Config(game="autobahn", players=3, games=10,
                    bots=bot_entries(["random", "random", "first"]), seed=1)
    records = asyncio.run(run_tournament(config, "127.0.0.1:50051"))
    print([r.scores for r in records])

**Seats.** Game ``g`` seats bot ``bots[(s + g) % players]`` at seat ``s``, so every bot plays
every seat equally often over a multiple of ``players`` games.

**Seeds.** Game ``g`` is set up with ``derive_seed(seed, "game", g)``, its bot at seat ``s``
gets ``derive_seed(seed, "bot", g, s)`` and the default moves draw from
``derive_seed(seed, "default", g)``; all are below 2**53 (exact in JSON everywhere). Playing a
game again with the same tournament seed, bots and options replays it move for move — unless a
bot timed out (timing is not reproducible), which the results record.

**A move.** The first seat of ``to_act`` decides: its bot gets a :class:`~referee_client.bots.Turn`
(the seat's view + :class:`~referee_client.Legal`) and has ``move_timeout`` seconds. A refused
action is given back to the bot (``on_rejected``, ``turn.rejections``) and it may try again,
``max_retries`` times. After a timeout, an exception in the bot, or the last refusal, the runner
plays the **default move**: a pass-like action if legal (1841 pass, Autobahn end turn or decline),
else a random legal action; it is counted per seat.

**Ends.** ``finished`` (the game has an outcome: scores and ranks per seat), ``capped``
(``max_moves`` actions applied without a result), ``stopped`` (no seat can act, the seat to act
has no legal action, or the engine answered UNSUPPORTED: a part of the rules it does not
implement yet — 1841's late game today) or ``error`` (the server failed or refused a listed
legal action).
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import grpc
from google.protobuf import json_format

from ..aio import AsyncReferee
from ..bots import Turn, _fallback_action, call_hook, load_bot, make_bot
from ..client import to_action
from ..errors import RejectedError
from ..game import AsyncGame
from ..legal import Legal
from ..pb import referee_pb2

STATUSES = ("finished", "capped", "stopped", "error")


def derive_seed(base: int, *parts: object) -> int:
    """A seed in ``[0, 2**53)`` derived from the tournament seed and ``parts`` (SHA-256)."""
    text = "/".join(str(p) for p in (base, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 11


@dataclass
class BotEntry:
    """One entry of the bot list: a unique ``label`` (shown in results), its ``spec`` and class."""

    label: str
    spec: str
    cls: type = field(repr=False)


def bot_entries(specs: Sequence[str]) -> list[BotEntry]:
    """Resolve bot specs (``random``, ``pkg.mod:Class``, ``label=spec``) into entries with unique
    labels: repeated specs are numbered (``random#1``, ``random#2``)."""
    parsed = []
    for raw in specs:
        label, sep, spec = raw.partition("=")
        if not sep:
            label, spec = "", raw
        parsed.append((label.strip(), spec.strip()))
    counts: dict[str, int] = {}
    for label, spec in parsed:
        if not label:
            counts[spec] = counts.get(spec, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for label, spec in parsed:
        if not label:
            if counts[spec] > 1:
                seen[spec] = seen.get(spec, 0) + 1
                label = f"{spec}#{seen[spec]}"
            else:
                label = spec
        if any(e.label == label for e in out):
            raise ValueError(f"bot label {label!r} is used twice")
        out.append(BotEntry(label, spec, load_bot(spec)))
    return out


@dataclass
class Config:
    """What to play. ``bots`` has one entry per seat (``players`` entries)."""

    game: str
    players: int
    games: int
    bots: list[BotEntry]
    seed: int = 0
    options: dict[str, str] = field(default_factory=dict)
    concurrency: int = 4
    #: Seconds a bot may think per decision (``None``: no limit).
    move_timeout: float | None = 5.0
    #: Accepted actions after which a game is given up as ``capped`` (``None``: no cap).
    max_moves: int | None = 2000
    #: New tries after a refused action before the default move.
    max_retries: int = 2
    #: Keep every game's actions in the results (JSON).
    record_actions: bool = False
    #: Play only these game numbers (reproduce single games); ``None``: all.
    only: list[int] | None = None

    def __post_init__(self):
        if self.players < 1:
            raise ValueError("players must be at least 1")
        if len(self.bots) != self.players:
            raise ValueError(f"{len(self.bots)} bots for {self.players} players: give one bot per seat")
        if self.games < 0 or self.concurrency < 1 or self.max_retries < 0:
            raise ValueError("games >= 0, concurrency >= 1 and max_retries >= 0 are required")

    def game_numbers(self) -> list[int]:
        return sorted(set(self.only)) if self.only is not None else list(range(self.games))

    def seating(self, g: int) -> list[BotEntry]:
        """Bot entries by seat for game ``g`` (rotated by ``g``)."""
        p = self.players
        return [self.bots[(s + g) % p] for s in range(p)]

    def to_dict(self) -> dict:
        return {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "options": dict(self.options), "bots": [{"label": b.label, "spec": b.spec} for b in self.bots],
            "concurrency": self.concurrency, "move_timeout": self.move_timeout, "max_moves": self.max_moves,
            "max_retries": self.max_retries, "only": self.only,
        }


@dataclass
class GameRecord:
    """The result of one game. Lists are by seat."""

    game: int
    seed: int
    #: Bot labels by seat.
    seats: list[str]
    #: Bot specs by seat.
    bots: list[str]
    bot_seeds: list[int]
    status: str = "error"
    finished: bool = False
    #: Final scores and ranks (1 = best) from the game's outcome; ``None`` unless finished.
    scores: list[int] | None = None
    ranks: list[int] | None = None
    #: The outcome's end reason, or why the game stopped.
    reason: str = ""
    #: Accepted actions.
    moves: int = 0
    timeouts: list[int] = field(default_factory=list)
    rejections: list[int] = field(default_factory=list)
    default_moves: list[int] = field(default_factory=list)
    bot_errors: list[int] = field(default_factory=list)
    seconds: float = 0.0
    #: ``[[seat, action as proto JSON], ...]`` when ``record_actions``.
    actions: list | None = None
    #: The last state (not written to files).
    final_state: Any = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("final_state")
        if d["actions"] is None:
            d.pop("actions")
        return d


class _Timeout(Exception):
    pass


async def _ask(bot: Any, turn: Turn, timeout: float | None) -> Any:
    """``bot.choose(turn)`` with a time limit. Synchronous bots run in a daemon thread (a bot
    that never answers cannot keep the process alive; its late answer is dropped)."""
    if inspect.iscoroutinefunction(getattr(bot, "choose", None)):
        try:
            return await asyncio.wait_for(bot.choose(turn), timeout)
        except asyncio.TimeoutError:
            raise _Timeout from None
    loop = asyncio.get_running_loop()
    fut: asyncio.Future = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if not fut.done():
            (fut.set_result if ok else fut.set_exception)(value)

    def work() -> None:
        try:
            result, ok = bot.choose(turn), True
        except BaseException as e:  # noqa: BLE001 - handed to the loop
            result, ok = e, False
        try:
            loop.call_soon_threadsafe(settle, ok, result)
        except RuntimeError:  # the loop is gone
            pass

    threading.Thread(target=work, name="referee-bot", daemon=True).start()
    try:
        return await asyncio.wait_for(fut, timeout)
    except asyncio.TimeoutError:
        raise _Timeout from None


def _safe_hook(bot: Any, name: str, *args) -> None:
    try:
        call_hook(bot, name, *args)
    except Exception:  # noqa: BLE001 - a broken hook must not stop the tournament
        pass


async def play_game(ref: AsyncReferee, config: Config, g: int) -> GameRecord:
    """Play game number ``g`` of ``config``."""
    t0 = time.monotonic()
    p = config.players
    seating = config.seating(g)
    bot_seeds = [derive_seed(config.seed, "bot", g, s) for s in range(p)]
    rec = GameRecord(game=g, seed=derive_seed(config.seed, "game", g), seats=[e.label for e in seating],
                     bots=[e.spec for e in seating], bot_seeds=bot_seeds,
                     timeouts=[0] * p, rejections=[0] * p, default_moves=[0] * p, bot_errors=[0] * p,
                     actions=[] if config.record_actions else None)
    fallback_rng = random.Random(derive_seed(config.seed, "default", g))
    bots = []
    try:
        for s, e in enumerate(seating):
            bots.append(make_bot(e.cls, bot_seeds[s]))
        game = await AsyncGame.new(ref, config.game, p, config.options, rec.seed)
        for s, bot in enumerate(bots):
            _safe_hook(bot, "start", config.game, s, p)
        await _play(game, config, rec, bots, fallback_rng)
        rec.final_state = game.state
        final = await game.view()
        for bot in bots:
            _safe_hook(bot, "finish", final)
    except grpc.RpcError as e:
        rec.status, rec.reason = "error", f"gRPC {e.code().name}: {e.details()}"
    except Exception as e:  # noqa: BLE001 - one broken game must not stop the others
        rec.status, rec.reason = "error", f"{type(e).__name__}: {e}"
    rec.seconds = round(time.monotonic() - t0, 3)
    return rec


async def _play(game: AsyncGame, config: Config, rec: GameRecord, bots: list, fallback_rng: random.Random) -> None:
    loop = asyncio.get_running_loop()
    asked = 0  # the seat asked first: the one that acted last (it often acts again)
    while True:
        resp = await game.legal_actions(asked)
        if not resp.to_act:
            spectator = await game.view()
            if spectator.HasField("outcome"):
                o = spectator.outcome
                rec.status, rec.finished = "finished", True
                rec.scores, rec.ranks, rec.reason = list(o.scores), list(o.ranks), o.end_reason
            else:
                rec.status, rec.reason = "stopped", "no seat can act and the game has no result"
            return
        if config.max_moves is not None and rec.moves >= config.max_moves:
            rec.status, rec.reason = "capped", f"no result after {config.max_moves} moves (--max-moves)"
            return
        seat = resp.to_act[0]
        if seat != asked:
            resp = await game.legal_actions(seat)
        asked = seat
        legal = Legal(resp)
        if not legal:
            rec.status = "stopped"
            rec.reason = f"move {rec.moves}: seat {seat} must act but has no legal action (rules not implemented yet?)"
            return
        bot = bots[seat]
        state = game.state
        def fetch_server_move(policy, seed, st=state, s=seat):
            # The server's bot by name (DefaultAction with policy_name); called from the bot's thread.
            return asyncio.run_coroutine_threadsafe(
                game.referee.default_action(st, s, policy=policy, seed=seed), loop).result()

        if inspect.iscoroutinefunction(getattr(bot, "choose", None)):
            routes = await game.referee.suggest_routes(state) if legal.route_trains else None
            turn = Turn(config.game, seat, legal, await game.referee.view(state, seat), game.action_count,
                        routes=routes)
        else:
            def fetch(st=state, s=seat):
                return asyncio.run_coroutine_threadsafe(game.referee.view(st, s), loop).result()

            def fetch_routes(st=state):
                return asyncio.run_coroutine_threadsafe(game.referee.suggest_routes(st), loop).result()

            turn = Turn(config.game, seat, legal, None, game.action_count, fetch_view=fetch,
                        fetch_routes=fetch_routes, fetch_server_move=fetch_server_move)
        accepted = None
        for _ in range(config.max_retries + 1):
            try:
                action = to_action(await _ask(bot, turn, config.move_timeout))
            except _Timeout:
                rec.timeouts[seat] += 1
                break
            except Exception as e:  # noqa: BLE001 - the bot failed: default move
                rec.bot_errors[seat] += 1
                if rec.bot_errors[seat] == 1:
                    # Say it once per game and seat; the count is in the results.
                    print(
                        f"referee-tournament: {type(bot).__name__} (seat {seat}) raised "
                        f"{type(e).__name__}: {e}; a default move is played "
                        "(counted as bot_errors)",
                        file=sys.stderr,
                    )
                break
            resp = await game.try_apply(seat, action)
            if resp.WhichOneof("result") == "accepted":
                accepted = action
                break
            rejected = RejectedError.from_proto(resp.rejected.rejection)
            rec.rejections[seat] += 1
            turn.rejections.append(rejected)
            _safe_hook(bot, "on_rejected", turn, action, rejected)
        if accepted is None:
            rec.default_moves[seat] += 1
            action = _fallback_action(legal, fallback_rng)
            resp = await game.try_apply(seat, action)
            if resp.WhichOneof("result") != "accepted":
                r = resp.rejected.rejection
                if r.code == referee_pb2.REJECTION_CODE_UNSUPPORTED:
                    rec.status = "stopped"
                    rec.reason = f"move {rec.moves}: not supported by the engine yet: {r.message}"
                else:
                    rec.status = "error"
                    rec.reason = (f"move {rec.moves}: seat {seat}: the listed legal action "
                                  f"{json_format.MessageToJson(action, indent=None)} was refused: {r.message}")
                return
            accepted = action
        rec.moves += 1
        if rec.actions is not None:
            rec.actions.append([seat, json_format.MessageToDict(accepted)])


async def run_tournament(config: Config, server: str | AsyncReferee,
                         on_game_done: Callable[[GameRecord], None] | None = None,
                         call_timeout: float | None = 60.0, credential: str | None = None) -> list[GameRecord]:
    """Play every game of ``config`` against ``server`` (``host:port`` or an
    :class:`~referee_client.AsyncReferee`), at most ``config.concurrency`` at once. Returns the
    records in game order; ``on_game_done`` is called as each game ends.

    ``credential``: against a sealed-mode server, the arbiter credential (the runner acts for
    every seat; without it every game ends in ``error`` with PERMISSION_DENIED). Used only when
    ``server`` is a ``host:port``; an :class:`~referee_client.AsyncReferee` sends its own."""
    own = isinstance(server, str)
    ref = AsyncReferee(server, timeout=call_timeout, credential=credential) if own else server
    sem = asyncio.Semaphore(config.concurrency)

    async def one(g: int) -> GameRecord:
        async with sem:
            rec = await play_game(ref, config, g)
        if on_game_done is not None:
            on_game_done(rec)
        return rec

    try:
        records = await asyncio.gather(*(one(g) for g in config.game_numbers()))
    finally:
        if own:
            await ref.close()
    return sorted(records, key=lambda r: r.game)


__all__ = ["STATUSES", "BotEntry", "Config", "GameRecord", "bot_entries", "derive_seed", "play_game",
           "run_tournament"]
