"""``referee-tournament``: play M games between bots against a running Referee server.

    referee-tournament --server 127.0.0.1:50051 --game autobahn --players 3 --games 20 \\
        --bots random,random,first --seed 1 --concurrency 4 --out results/run1

writes ``results/run1.csv`` and ``results/run1.json`` and prints the standings.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

from .report import standings_table, write_csv, write_json
from .runner import Config, GameRecord, bot_entries, run_tournament
from .stats import standings

EPILOG = """\
bots: a built-in name (random, first; the server's bots by their policy names: heuristic, and
for Autobahn balanced, builder, network, trucker, finance), a class path package.module:ClassName (the current
directory is on the import path) or a file path/to/bots.py:ClassName; optionally named
label=spec. One bot per seat; a single bot fills every seat. Seats rotate each game.

Every game is reproducible from --seed: game g's setup seed and its bots' seeds are derived
from it (both in the results); rerun one game with --only g and the same arguments.
exit status: 0 when every game finished or was capped/stopped, 1 when a game had an error,
2 for bad arguments or an unreachable server.
"""


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for p in pairs:
        k, sep, v = p.partition("=")
        if not sep or not k:
            raise argparse.ArgumentTypeError(f"--option {p!r}: use NAME=VALUE")
        out[k.strip()] = v.strip()
    return out


def _only(text: str) -> list[int]:
    out = []
    try:
        for part in text.split(","):
            a, sep, b = part.partition("-")
            out.extend(range(int(a), int(b) + 1) if sep else [int(a)])
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: use game numbers like 7 or 0,3-5") from None
    if not out or min(out) < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: use game numbers like 7 or 0,3-5 (0-based)")
    return out


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="referee-tournament", description=__doc__.splitlines()[0],
                                 epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", default="127.0.0.1:50051", help="host:port of the Referee server (%(default)s)")
    ap.add_argument("--game", required=True, help="game id: autobahn or 1841")
    ap.add_argument("--players", type=_positive, default=None, help="seats per game (default: number of bots)")
    ap.add_argument("--games", type=_positive, default=10, help="number of games (%(default)s)")
    ap.add_argument("--bots", required=True, help="comma-separated bots, one per seat, e.g. random,random,first")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="NewGame option, repeatable (e.g. --option lite=true)")
    ap.add_argument("--seed", type=int, default=0, help="tournament seed (%(default)s)")
    ap.add_argument("--concurrency", type=_positive, default=4, help="games played at once (%(default)s)")
    ap.add_argument("--move-timeout", type=float, default=5.0,
                    help="seconds a bot may think per decision; then the default move (%(default)s; 0 = none)")
    ap.add_argument("--max-moves", type=int, default=2000,
                    help="actions after which an unfinished game is recorded as capped (%(default)s; 0 = none)")
    ap.add_argument("--max-retries", type=int, default=2,
                    help="new tries a bot gets after a refused action before the default move (%(default)s)")
    ap.add_argument("--out", default="tournament", help="output prefix: PREFIX.csv and PREFIX.json (%(default)s)")
    ap.add_argument("--record-actions", action="store_true", help="keep every game's actions in the JSON")
    ap.add_argument("--only", type=_only, default=None, metavar="G[,G-H]",
                    help="play only these game numbers (0-based) of the tournament")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument("--call-timeout", type=float, default=60.0, help="deadline of each RPC in seconds (%(default)s)")
    ap.add_argument("--credential", default=os.environ.get("REFEREE_CREDENTIAL") or None, metavar="CREDENTIAL",
                    help="a sealed-mode server's arbiter credential (`referee credential --seal-key-file F`): the "
                         "runner acts for every seat; default $REFEREE_CREDENTIAL; open-mode servers ignore it")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from rich.console import Console

    console = Console(stderr=False)
    if not console.is_terminal:
        console.width = max(console.width, 200)  # files and pipes: room for the whole table
    err = Console(stderr=True)
    try:
        specs = [s for s in args.bots.split(",") if s.strip()]
        entries = bot_entries(specs)
        players = args.players if args.players is not None else len(entries)
        if len(entries) == 1 and players > 1:
            entries = bot_entries([f"{entries[0].spec}#{i + 1}={entries[0].spec}" for i in range(players)])
        config = Config(game=args.game, players=players, games=args.games, bots=entries, seed=args.seed,
                        options=_options(args.option), concurrency=args.concurrency,
                        move_timeout=args.move_timeout or None, max_moves=args.max_moves or None,
                        max_retries=args.max_retries, record_actions=args.record_actions, only=args.only)
        if args.only is not None and max(args.only) >= args.games:
            raise ValueError(f"--only {max(args.only)}: the tournament has games 0–{args.games - 1}")
    except (ValueError, argparse.ArgumentTypeError) as e:
        err.print(f"[red]referee-tournament:[/red] {e}")
        return 2

    if not _server_ready(args.server, config, err):
        return 2

    records: list[GameRecord] = []
    t0 = time.monotonic()
    total = len(config.game_numbers())
    show = not args.no_progress

    async def go() -> list[GameRecord]:
        if not show:
            return await run_tournament(config, args.server, call_timeout=args.call_timeout,
                                        credential=args.credential)
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        counts = {"finished": 0, "capped": 0, "stopped": 0, "error": 0}
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TextColumn("{task.fields[counts]}"), console=err) as progress:
            task = progress.add_task(f"{config.game} ×{config.players}", total=total, counts="")

            def done(rec: GameRecord) -> None:
                counts[rec.status] += 1
                progress.update(task, advance=1,
                                counts=" ".join(f"{k} {v}" for k, v in counts.items() if v))

            return await run_tournament(config, args.server, on_game_done=done, call_timeout=args.call_timeout,
                                        credential=args.credential)

    records = asyncio.run(go())
    seconds = time.monotonic() - t0
    table = standings(records, [(b.label, b.spec) for b in config.bots])
    out = Path(args.out)
    csv_path = write_csv(records, out.with_name(out.name + ".csv"))
    json_path = write_json(config, records, table, out.with_name(out.name + ".json"), seconds)

    by_status = {s: sum(1 for r in records if r.status == s) for s in ("finished", "capped", "stopped", "error")}
    moves = sum(r.moves for r in records)
    title = (f"{config.game}, {config.players} players, {len(records)} games (seed {config.seed}): "
             + ", ".join(f"{v} {k}" for k, v in by_status.items() if v))
    console.print(standings_table(table, title=title))
    console.print(f"{moves} moves in {seconds:.1f} s; results: {csv_path}, {json_path}")
    for r in records:
        if r.status == "error":
            err.print(f"[red]game {r.game} (seed {r.seed}): {r.reason}[/red]")
    return 1 if by_status["error"] else 0


def _server_ready(target: str, config: Config, err) -> bool:
    """The server answers, knows the game and takes that many players."""
    import grpc

    from ..client import Referee

    try:
        with Referee(target, timeout=10) as ref:
            games = {g.id: g for g in ref.list_games()}
    except grpc.RpcError as e:
        err.print(f"[red]referee-tournament:[/red] server {target} unreachable: {e.code().name}: {e.details()}")
        return False
    info = games.get(config.game)
    if info is None:
        err.print(f"[red]referee-tournament:[/red] unknown game {config.game!r}; the server has: "
                  + ", ".join(sorted(games)))
        return False
    if not info.min_players <= config.players <= info.max_players:
        err.print(f"[red]referee-tournament:[/red] {config.game} takes {info.min_players}-{info.max_players} players, "
                  f"not {config.players}")
        return False
    return True


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
