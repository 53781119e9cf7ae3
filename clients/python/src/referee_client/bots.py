"""Bots: the :class:`Bot` interface, the built-in :class:`RandomBot` and :class:`FirstLegalBot`,
the server's bots by policy name (:class:`ServerBot`: ``heuristic``, and Autobahn's strategy
bots ``balanced``, ``builder``, ``network``, ``trucker``, ``finance``; the names of
``referee playout --policy``, ``PlayoutRequest.policy_name`` and ``DefaultActionRequest.policy_name``),
and :func:`load_bot` for user bots named ``package.module:ClassName``.

A bot gets a :class:`Turn` — its seat, its seat's view (what that seat may see, not the full
state: no deck order, no other seat's sealed bids) and the legal actions — and answers with an
action. A refused action comes back through :meth:`Bot.on_rejected` (and in
:attr:`Turn.rejections`) and the bot is asked again, a few times (``referee-tournament
--max-retries``), after which the runner plays a default move for it.

Example — a bot that always bids the minimum and otherwise passes::

    # mybots.py
    from referee_client.bots import Bot

    class CheapBot(Bot):
        def choose(self, turn):
            bids = [r for r in turn.legal.ranges if r.kind == "bid"]
            if bids:
                return bids[0].action(bids[0].min)
            return turn.legal.pass_action() or turn.legal.random(self.rng)

        def on_rejected(self, turn, action, error):
            print("refused:", error.code_name, error.message)

    # referee-tournament --game 1841 --players 4 --bots mybots:CheapBot,random,random,random

``choose`` may also be ``async def``. Bots are created once per game and seat, as
``cls(seed=...)`` (or ``cls()`` when the constructor takes no seed).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .client import ActionLike
from .errors import RejectedError
from .legal import Legal
from .pb import referee_pb2


class Turn:
    """One decision of one seat.

    Attributes:
        game: game id, ``autobahn`` or ``1841``.
        seat: the deciding seat.
        legal: what the seat may do (:class:`~referee_client.Legal`).
        action_count: actions applied since setup.
        rejections: the refusals of this decision so far (the bot is asked again after each).

    :attr:`view` is the seat's ``ViewResponse`` (``view.autobahn.state``,
    ``view.g1841.state``, ``view.to_act``); it is fetched from the server on first use, so bots
    that do not look at it cost no extra call. :meth:`suggested_routes` (1841 routes step) is
    the server's best route set (``SuggestRoutes``), fetched the same way.
    """

    def __init__(self, game: str, seat: int, legal: Legal, view: "referee_pb2.ViewResponse | None" = None,
                 action_count: int = 0, *, fetch_view: "Callable[[], referee_pb2.ViewResponse] | None" = None,
                 fetch_routes: "Callable[[], referee_pb2.SuggestRoutesResponse] | None" = None,
                 routes: "referee_pb2.SuggestRoutesResponse | None" = None,
                 fetch_server_move: "Callable[[str, int], referee_pb2.DefaultActionResponse] | None" = None):
        self.game = game
        self.seat = seat
        self.legal = legal
        self.action_count = action_count
        self.rejections: list[RejectedError] = []
        self._view = view
        self._fetch_view = fetch_view
        self._routes = routes
        self._fetch_routes = fetch_routes
        self._fetch_server_move = fetch_server_move

    def server_move(self, policy: str, seed: int = 0) -> "referee_pb2.Action":
        """The move the server's bot ``policy`` (a name of ``PlayoutRequest.policy_name``:
        ``random``, ``first``, ``heuristic``, Autobahn's ``balanced``, ``builder``, ``network``,
        ``trucker``, ``finance``) plays for this seat (DefaultAction with ``policy_name``; the server
        decides on the whole state, as its playout bots do). Raises ``RuntimeError`` when the turn
        cannot ask the server, ``grpc.RpcError`` INVALID_ARGUMENT for a name the game does not have."""
        if self._fetch_server_move is None:
            raise RuntimeError("this Turn cannot ask the server for a move")
        return self._fetch_server_move(policy, seed).action

    def suggested_routes(self) -> "referee_pb2.SuggestRoutesResponse | None":
        """1841, in the routes step (``legal.route_trains`` not empty): the route optimizer's best
        routes for the operating corporation (``resp.routes``, ``resp.revenue`` in L.), fetched
        once; ``None`` outside the routes step or when the turn cannot ask the server."""
        if not self.legal.route_trains:
            return None
        if self._routes is None and self._fetch_routes is not None:
            self._routes = self._fetch_routes()
        return self._routes

    @property
    def view(self) -> "referee_pb2.ViewResponse":
        """The seat's view of the state (fetched once, on first use)."""
        if self._view is None:
            if self._fetch_view is None:
                raise RuntimeError("this Turn has no view")
            self._view = self._fetch_view()
        return self._view

    def __repr__(self) -> str:
        return f"Turn(game={self.game!r}, seat={self.seat}, action_count={self.action_count}, legal={self.legal!r})"


class Bot:
    """Base class of bots. Override :meth:`choose`; the other hooks are optional.

    Attributes:
        seed: the seed given by the runner (``None`` when not seeded).
        rng: a ``random.Random(seed)``: use it for every random choice so games reproduce.
    """

    #: Name shown in results (default: the class name).
    name: str = ""

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def start(self, game: str, seat: int, players: int) -> None:
        """Called once before the game's first move."""

    def choose(self, turn: Turn) -> ActionLike:
        """Return the action to play (a ``referee_pb2.Action`` or a typed game action)."""
        raise NotImplementedError

    def on_rejected(self, turn: Turn, action: "referee_pb2.Action", error: RejectedError) -> None:
        """The server refused ``action`` (``error.code_name``, ``error.message``, ``error.rule``);
        :meth:`choose` is called again with ``turn.rejections`` extended."""

    def finish(self, view: "referee_pb2.ViewResponse") -> None:
        """Called once at the end with a spectator view (``view.outcome`` if finished)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class RandomBot(Bot):
    """Plays a random legal action (seeded): each concrete action and each range equally
    likely, amounts in ranges half the time at the minimum, else up to twice the minimum;
    Autobahn's take-back and decline, 1841's withholding, foreign trains, bankruptcy and offers
    rarely (see :meth:`referee_client.Legal.random`). In 1841's routes step it runs the server's
    best routes (:meth:`Turn.suggested_routes`)."""

    name = "random"

    def choose(self, turn: Turn) -> ActionLike:
        action = turn.legal.random(self.rng)
        return _with_best_routes(turn, action)


def _with_best_routes(turn: Turn, action: "referee_pb2.Action | None") -> "referee_pb2.Action | None":
    """1841: the routes step's empty ``run_routes`` replaced by the server's best routes
    (:meth:`Turn.suggested_routes`), so the built-in bots' corporations earn revenue (with no
    routes a corporation earns nothing and random games do not come to an end)."""
    if action is None or action.WhichOneof("action") != "g1841" or \
            action.g1841.WhichOneof("action") != "run_routes" or action.g1841.run_routes.routes:
        return action
    best = turn.suggested_routes()
    if best is None or not best.routes:
        return action
    from .g1841 import run_routes
    return run_routes(best.routes)


class FirstLegalBot(Bot):
    """Plays the first legal action (ranges at their minimum). After a refusal, a random one."""

    name = "first"

    def choose(self, turn: Turn) -> ActionLike:
        if turn.rejections:
            return turn.legal.random(self.rng)
        return _with_best_routes(turn, turn.legal.first())


class ServerBot(Bot):
    """Plays the move of the server's bot named :attr:`policy` (DefaultAction with
    ``policy_name``, seeded with the bot's seed and the move number, so games reproduce): the same
    bots as ``referee playout --policy NAME`` and the balance harness
    (docs/games/autobahn-bots.md). The subclasses are the built-in names ``heuristic``,
    ``balanced``, ``builder``, ``network``, ``trucker`` and ``finance``; 1841 answers to
    ``heuristic`` (its heuristic player, docs/games/1841.md), and to a name it does not have with
    INVALID_ARGUMENT listing the names it has (the runner then plays a default move and counts a
    bot error)."""

    #: The server's policy name.
    policy: str = "heuristic"

    def choose(self, turn: Turn) -> ActionLike:
        return turn.server_move(self.policy, ((self.seed or 0) * 1_000_003 + turn.action_count) % (1 << 63))


def _server_bot(policy: str, doc: str) -> type:
    cls = type(f"ServerBot_{policy}", (ServerBot,), {"policy": policy, "name": policy, "__doc__": doc})
    cls.__module__ = __name__
    return cls


#: The server's bots, by the policy names the server answers (``PlayoutRequest.policy_name``).
SERVER_BOTS: dict[str, type] = {
    "heuristic": _server_bot("heuristic", "The server's best general-purpose bot (Autobahn: = balanced; 1841: its heuristic player)."),
    "balanced": _server_bot("balanced", "Autobahn: no preferred action or department, the highest projected score."),
    "builder": _server_bot("builder", "Autobahn: builds and upgrades first."),
    "network": _server_bot("network", "Autobahn: builds and promotes into Network."),
    "trucker": _server_bot("trucker", "Autobahn: loads trucks and delivers; promotes into Trade."),
    "finance": _server_bot("finance", "Autobahn: builds for the budget, keeps its DM; promotes into Finance."),
}

#: Built-in bots by name, for :func:`load_bot` and ``referee-tournament --bots``: the client's
#: own ``random`` and ``first``, and the server's bots by their policy names (:data:`SERVER_BOTS`).
BUILTIN_BOTS: dict[str, type] = {
    "random": RandomBot,
    "first": FirstLegalBot,
    "first-legal": FirstLegalBot,
    **SERVER_BOTS,
}


class BotLoadError(ValueError):
    """A bot spec could not be resolved to a bot class."""


def load_bot(spec: str) -> type:
    """The bot class for ``spec``: a built-in name (``random``, ``first``, or a server policy
    name of :data:`SERVER_BOTS`: ``heuristic``, ``balanced``, ``builder``, ...), a module path
    ``package.module:ClassName`` (imported from ``sys.path``, the current directory included) or
    a file ``path/to/bots.py:ClassName``. The class must have a ``choose`` method.

    Example: ``load_bot("mybots:CheapBot")(seed=1)``.
    """
    spec = spec.strip()
    if spec in BUILTIN_BOTS:
        return BUILTIN_BOTS[spec]
    module_name, sep, attr = spec.rpartition(":")
    if not sep or not module_name or not attr:
        raise BotLoadError(f"bot {spec!r}: use a built-in name ({', '.join(sorted(BUILTIN_BOTS))}) "
                           "or package.module:ClassName")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name).resolve()
            if not path.is_file():
                raise BotLoadError(f"bot {spec!r}: no file {path}")
            mod_id = f"_referee_bot_{path.stem}_{abs(hash(str(path)))}"
            module = sys.modules.get(mod_id)
            if module is None:
                file_spec = importlib.util.spec_from_file_location(mod_id, path)
                module = importlib.util.module_from_spec(file_spec)
                sys.modules[mod_id] = module
                file_spec.loader.exec_module(module)
        else:
            if "" not in sys.path and str(Path.cwd()) not in sys.path:
                sys.path.insert(0, str(Path.cwd()))
            module = importlib.import_module(module_name)
    except BotLoadError:
        raise
    except Exception as e:  # ImportError, SyntaxError, errors at import time
        raise BotLoadError(f"bot {spec!r}: cannot import {module_name}: {type(e).__name__}: {e}") from e
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise BotLoadError(f"bot {spec!r}: {module_name} has no attribute {attr!r}") from None
    if not inspect.isclass(obj) or not callable(getattr(obj, "choose", None)):
        raise BotLoadError(f"bot {spec!r}: {attr} is not a class with a choose(turn) method")
    return obj


def make_bot(cls: type, seed: int | None) -> Any:
    """Instantiate a bot class with ``seed=`` if its constructor accepts it."""
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        params = {}
    if "seed" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return cls(seed=seed)
    return cls()


def call_hook(bot: Any, name: str, *args) -> None:
    """Call an optional hook of a bot that may not derive from :class:`Bot`."""
    hook = getattr(bot, name, None)
    if callable(hook):
        hook(*args)


def _fallback_action(legal: Legal, rng: random.Random) -> "referee_pb2.Action":
    """The default move: a pass-like action if legal, else a random legal action."""
    return legal.pass_action() or legal.random(rng)


__all__ = ["BUILTIN_BOTS", "SERVER_BOTS", "Bot", "BotLoadError", "FirstLegalBot", "RandomBot", "ServerBot", "Turn",
           "call_hook", "load_bot", "make_bot"]
