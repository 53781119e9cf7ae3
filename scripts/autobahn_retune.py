#!/usr/bin/env python3
"""Derives a retuned Autobahn board from the shipped `reconstructed-2026-1` (issue #23).

Only numbers that ../shared/rules/autobahn.md tags [U] or [L] change; every [C] fact (the map,
the era supplies 10/12/14 as the board's standard supply, the offices, the departments and
their metrics, delivery board 1 as read from the image) is kept. The parameters below are the
ones of the shipped default board; `--set name=value` (JSON values) overrides one for a trial:

    python3 scripts/autobahn_retune.py > engine/data/autobahn/default-board.json
    python3 scripts/autobahn_retune.py --set city_mult=0.5 --set board_id='"trial"' > /tmp/b.json
    target/release/referee balance --options board=@/tmp/b.json ...

The derived tables the board checker compares (`upgrade_costs.by_link`,
`derived.city_values_at_setup`) are recomputed. Standard library only.
"""
import argparse
import copy
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "engine" / "data" / "autobahn" / "boards" / "reconstructed-2026-1.json"

# The parameters of the shipped default board (docs/games/autobahn-balance.md lists each
# change with the figures behind it).
PARAMS = {
    "board_id": "reconstructed-2026-3",
    "title": "Autobahn: reconstructed default board, balance retune 2 (issue #23)",
    # U-5: starting DM per player.
    "starting_dm": 14,
    # U-2: section cost = the 2026-1 cost x the era's multiplier (rounded, at least 1); a link
    # whose sections cost more in all than `link_cap` (default: the starting DM, the checker's
    # acceptance rule) has its sections scaled down to fit.
    "cost_mult": [1.5, 2.0, 2.5],
    "link_cap": None,
    # Trials of the third pass (docs/games/autobahn-balance-notes.md; None: off): sections whose
    # 2026-1 cost is at most `cheap_max` (a number or one per era) cost `cheap` DM (one per
    # era), the others their 2026-1 cost x `dear` (one per era), each link's total capped at
    # `link_cap` (default the starting DM). Replaces `cost_mult`.
    "cheap": None,
    "cheap_max": 2,
    "dear": None,
    # U-30: price of a service station: one DM amount, or one per era (eras 1-3).
    "station_cost": 0,
    # U-7: subsidy by era.
    "subsidy": [2, 10, 15],
    # U-3 / U-4: base values of German cities and fixed values of the commercial cities, as
    # multipliers of the 2026-1 values (rounded; a commercial city keeps at least 1).
    "city_mult": 1.0,
    "country_mult": 1.0,
    # Delivery boards 2-6 ([U]; board 1 is read from the image, [L], and kept): DM of a
    # non-preferred delivery x this; Unlock / Develop bonuses of preferred deliveries replaced.
    "delivery_dm_mult": 3.0,
    "delivery_bonus": {"Unlock": {"type": "Promote"}, "Develop": {"type": "Promote"}},
    # U-17: faces of the delivery bonus tiles (countries) replaced, by effect type.
    "delivery_tile_map": {"Develop": {"type": "Promote"},
                          "PlaceEmployee": {"type": "Promote", "department": "TRADE"}},
    # U-23: era supplies by player count where they differ from 10/12/14 (solo = 2 players).
    "supply_by_players": {"2": [7, 8, 9], "4": [12, 15, 17]},
    # Player-board station slots (§5.7: building reveals what is printed underneath, [L]; the
    # printed effects are not public, so ours to set): replacement on_build effects, slot 1
    # first (None: keep). Trials only.
    "station_slots": None,
    # U-16: passing income of the station slots, x this (rounded, at least 1).
    "station_income_mult": 1.0,
    # U-12: route-card rewards: extra Promote effects added to r1 / r2.
    "route_extra": [2, 2],
    # Autobot solo boards ([U]): replacement effect lists by board id (None: keep).
    "solo_easy": {"station_slots": [{"type": "Develop", "steps": 1}, {"type": "DiscardDisplayCard"}, {"type": "Develop", "steps": 1}, {"type": "DiscardDisplayCard"}, {"type": "Develop", "steps": 1}, {"type": "Develop", "steps": 2}, {"type": "Promote", "department": "SERVICE"}, {"type": "Promote"}], "bonus_tile_slots": [[{"type": "Develop", "steps": 1}, {"type": "DiscardDisplayCard"}, {"type": "Develop", "steps": 1}, {"type": "DiscardDisplayCard"}, {"type": "Develop", "steps": 2}, {"type": "Promote", "department": "TRADE"}], [{"type": "DiscardDisplayCard"}, {"type": "Develop", "steps": 1}, {"type": "DiscardDisplayCard"}, {"type": "Develop", "steps": 2}, {"type": "Develop", "steps": 1}, {"type": "Promote"}]]},
    "solo_hard": {"station_slots": [{"type": "Promote", "department": "SERVICE"}, {"type": "Develop", "steps": 2}, {"type": "Promote"}, {"type": "Unlock"}, {"type": "Promote"}, {"type": "MaxPlus1"}, {"type": "Promote"}, {"type": "Promote"}], "bonus_tile_slots": [[{"type": "Develop", "steps": 2}, {"type": "Promote", "department": "TRADE"}, {"type": "Promote"}, {"type": "Promote"}, {"type": "Develop", "steps": 2}, {"type": "Promote"}], [{"type": "MaxPlus1"}, {"type": "Promote"}, {"type": "BuildRoadSection"}, {"type": "Promote"}, {"type": "UpgradeLink"}, {"type": "Promote"}]]},
    # U-9 / U-11: which department's upper floors each FloorAccess cell of the unlock grid
    # opens, by cell id (None: keep).
    "floor_access_cells": None,
    # §1.6 [L]: department order, left to right (the Autobot breaks ties leftmost).
    "department_positions": {"SERVICE": 1, "NETWORK": 2, "TRADE": 3, "FINANCE": 4},
}


def cost_list(c):
    return list(c) if isinstance(c, list) else [c, c, c]


def retune(base, P):
    b = copy.deepcopy(base)
    b["board_id"] = P["board_id"]
    b["title"] = P["title"]
    b["provenance"] = (
        base["provenance"] + " Retuned for balance (issue #23; docs/games/autobahn-balance.md) by "
        "scripts/autobahn_retune.py: only [U]/[L] numbers changed from reconstructed-2026-1; every [C] "
        "fact and board 1 of the delivery boards are unchanged.")
    sdm = P["starting_dm"]
    b["starting_dm"]["per_player"] = sdm
    cap = P["link_cap"] or sdm

    def price(c0, e):
        if P["cheap"] is None:
            return max(1, round(c0 * P["cost_mult"][e]))
        cm = P["cheap_max"][e] if isinstance(P["cheap_max"], list) else P["cheap_max"]
        return P["cheap"][e] if c0 <= cm else max(1, round(c0 * P["dear"][e]))
    for L in b["links"]:
        per_era = []
        for e in range(3):
            raw = [price(cost_list(s["cost"])[e], e) for s in L["sections"]]
            if sum(raw) > cap:
                scale = cap / sum(raw)
                raw = [max(1, math.floor(x * scale)) for x in raw]
            per_era.append(raw)
        for i, s in enumerate(L["sections"]):
            s["cost"] = [per_era[0][i], per_era[1][i], per_era[2][i]]
    b["upgrade_costs"]["by_link"] = {
        L["id"]: [sum(s["cost"][e] for s in L["sections"]) for e in range(3)] for L in b["links"]}
    b["subsidy"]["dm_by_era"] = list(P["subsidy"])
    b["service_stations"]["build_cost_dm"] = P["station_cost"]
    for c in b["cities"]:
        c["base_value"] = max(0, round(c["base_value"] * P["city_mult"]))
    for c in b["countries"]:
        c["value"] = max(1, round(c["value"] * P["country_mult"]))
    for db in b["delivery_boards"][1:]:
        for r in db["rows"]:
            r["dm"] = max(1, round(r["dm"] * P["delivery_dm_mult"]))
            new = P["delivery_bonus"].get(r["bonus"]["type"])
            if new is not None:
                r["bonus"] = dict(new)
    for t in b["bonus_tiles"]["tiles"]:
        new = P["delivery_tile_map"].get(t["effect"]["type"]) if t["use"] == "DELIVERY" else None
        if new is not None:
            t["effect"] = dict(new)
    if P["supply_by_players"]:
        b["era_supply"]["by_players"] = {k: list(v) for k, v in P["supply_by_players"].items()}
        b["era_supply"]["by_player_count"] = (
            "10/12/14 is the standard supply; by_players lists the player counts whose supply "
            "differs (U-23, [U]; a solo game is set up as for 2 players, §3.3)")
    if P["station_slots"]:
        for s, e in zip(b["service_stations"]["slots"], P["station_slots"]):
            s["on_build"] = dict(e)
    for s in b["service_stations"]["slots"]:
        s["passing_income_dm"] = max(1, round(s["passing_income_dm"] * P["station_income_mult"]))
    for rc in b["route_cards"]:
        rc["r1"] = rc["r1"] + [{"type": "Promote"}] * P["route_extra"][0]
        rc["r2"] = rc["r2"] + [{"type": "Promote"}] * P["route_extra"][1]
    for sb in b["autobot"]["solo_boards"]:
        new = P["solo_easy"] if sb["id"] == "EASY" else P["solo_hard"]
        if new:
            sb.update(copy.deepcopy(new))
    if P["floor_access_cells"]:
        for cell in b["player_board"]["unlock_grid"]["cells"]:
            dept = P["floor_access_cells"].get(cell["id"])
            if dept:
                cell["effect"] = {"type": "FloorAccess", "department": dept, "max_floor": 3}
    for d in b["administration"]["departments"]:
        d["position"] = P["department_positions"][d["id"]]
    # derived: city values at setup (AQ-3 on the pre-built road)
    vals = {}
    for c in b["cities"]:
        cols = {L["autobahn"] for L in b["links"] if c["id"] in (L["a"], L["b"])
                and all(s.get("prebuilt") for s in L["sections"])}
        vals[c["id"]] = c["base_value"] + 2 * len(cols)
    b["derived"]["city_values_at_setup"] = vals
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=JSON")
    ap.add_argument("--base", default=str(BASE))
    ap.add_argument("--params", action="store_true", help="print the parameters and exit")
    a = ap.parse_args()
    P = copy.deepcopy(PARAMS)
    for kv in a.set:
        k, _, v = kv.partition("=")
        if k not in P:
            sys.exit(f"unknown parameter {k}; known: {', '.join(P)}")
        P[k] = json.loads(v)
    if a.params:
        print(json.dumps(P, indent=2))
        return
    base = json.load(open(a.base, encoding="utf-8"))
    out = retune(base, P)
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
