#!/usr/bin/env python3
"""Quickstart: list the games, start a 4-player 1841 game, make a bid, get one refused.

    python examples/quickstart.py --target 127.0.0.1:50051
"""

from __future__ import annotations

import argparse
import sys

import grpc
from google.protobuf import text_format

from referee_client import Referee, RejectedError, g1841


def describe_legal(legal) -> list[str]:
    """One line per legal 1841 action of a LegalActionsResponse."""
    la = legal.g1841
    lines = [f"  {a.WhichOneof('action')}" for a in la.actions]
    lines += [f"  bid on {b.concession}: L.{b.min_price}..L.{b.max_price}" for b in la.bids]
    if la.HasField("blind_bid"):
        bb = la.blind_bid
        lines.append(f"  blind bid on {', '.join(bb.concessions)}: 0 or at least L.{bb.min_price} each, "
                     f"total at most L.{bb.max_total}")
    return lines or ["  (nothing)"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="127.0.0.1:50051", help="server host:port (default %(default)s)")
    args = ap.parse_args(argv)

    with Referee(args.target, timeout=10) as ref:
        print("Games:")
        for g in ref.list_games():
            print(f"  {g.id}: {g.display_name} ({g.min_players}-{g.max_players} players), rules {g.rules_version}")

        state = ref.new_game(g1841.GAME, seats=4)
        s = g1841.state(state)
        print(f"\nNew 1841 game: bank L.{s.bank_cash}, players "
              + ", ".join(f"seat {p.seat} L.{p.cash}" for p in s.players))

        # Whose turn is it, and what may they do?
        seat = ref.legal_actions(state, 0).to_act[0]
        legal = ref.legal_actions(state, seat)
        print(f"Seat {seat} to act; legal actions:")
        print("\n".join(describe_legal(legal)))

        # The first legal bid: the lowest bid on the first concession offered.
        first = legal.g1841.bids[0]
        step = ref.apply(state, seat, g1841.bid(first.concession, first.min_price))
        state = step.state
        print(f"\nSeat {seat} bids L.{first.min_price} on {first.concession}: accepted "
              f"(action {state.action_count}); events:")
        for e in step.events:
            print(f"  {text_format.MessageToString(e.g1841, as_one_line=True)}")

        # An illegal one: the next seat raises by less than the minimum.
        nxt = ref.legal_actions(state, seat).to_act[0]
        raise_range = ref.legal_actions(state, nxt).g1841.bids[0]
        too_low = raise_range.min_price - 1
        print(f"\nSeat {nxt} bids L.{too_low} on {raise_range.concession} (minimum L.{raise_range.min_price}):")
        try:
            ref.apply(state, nxt, g1841.bid(raise_range.concession, too_low))
        except RejectedError as e:
            rule = f" (rule {e.rule})" if e.rule else ""
            print(f"  rejected: {e.code_name}: {e.message}{rule}")
        else:
            print("  unexpectedly accepted", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except grpc.RpcError as e:
        print(f"gRPC error {e.code().name}: {e.details()}", file=sys.stderr)
        sys.exit(2)
