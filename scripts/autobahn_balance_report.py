#!/usr/bin/env python3
"""Turns the JSON reports of `referee balance` into docs/games/autobahn-balance.md and its PNG
plots (matplotlib). Usage: autobahn_balance_report.py OUT_DIR BEFORE.json AFTER.json

Called by scripts/autobahn-balance.sh, which also runs the harness. The targets are those of
issue #23; each is checked on the figures and marked met or not met.
"""
import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STRATS = ["balanced", "builder", "network", "trucker", "finance"]
DEPTS = ["lobby", "network", "trade", "service", "finance"]


def strat(table, name):
    for s in table["strategies"]:
        if s["strategy"] == name:
            return s
    return None


def targets(r):
    """[(target, figures, met)] for one report."""
    out = []
    t3 = r["tables"].get("3p")
    if t3:
        rates = {s["strategy"]: s["win_rate"] for s in t3["strategies"]}
        top = max(rates, key=rates.get)
        # The pure strategies: every bot but the balanced one (issue #23).
        worst = max(v for k, v in rates.items() if k != "balanced")
        out.append((
            "3 players: no pure strategy wins more than 40 %, the balanced bot wins most",
            ", ".join(f"{k} {v:.0%}" for k, v in rates.items()),
            worst <= 0.40 and top == "balanced",
        ))
    for key in ["2p", "3p", "4p"]:
        t = r["tables"].get(key)
        if not t:
            continue
        w, d = t["winner_vp_mean"], t["best_deliverer_vp_mean"]
        out.append((
            f"{key}: the best deliverer within 10 % of the winners' mean VP",
            f"best deliverer {d:.1f} VP vs winners {w:.1f} VP ({(d / w if w else 0):.0%}); "
            f"{t['games_with_a_delivery']} of {t['finished']} games had a delivery",
            w > 0 and d >= 0.9 * w,
        ))
    shares = {k: t["money_blocked_share_by_era"] for k, t in r["tables"].items()}
    out.append((
        "money blocks an action in a meaningful share (≥ 10 %) of main-phase states in every era",
        "; ".join(f"{k}: " + " / ".join(f"{x:.1%}" for x in v) for k, v in shares.items()),
        all(min(v) >= 0.10 for v in shares.values()),
    ))
    solo = r.get("solo", {})
    if solo:
        levels = sorted(solo)
        rates = []
        for lv in levels:
            s = strat(solo[lv], "balanced")
            rates.append((int(lv), s["win_rate"] if s else 0.0, solo[lv]["finished"]))
        first, last = rates[0], rates[-1]
        mono = True
        for (l1, a, n1), (l2, b, n2) in zip(rates, rates[1:]):
            se = math.sqrt(max(a * (1 - a), 0.01) / max(n1, 1) + max(b * (1 - b), 0.01) / max(n2, 1))
            if b > a + 2 * se:
                mono = False
        out.append((
            "solo: balanced beats the Autobot at level 1 most of the time, loses at level 12 most of "
            "the time, win rate falling with the level within sampling error (2 s.e.)",
            ", ".join(f"L{lv} {x:.0%}" for lv, x, _ in rates),
            first[0] == 1 and first[1] > 0.5 and last[0] == 12 and last[1] < 0.5 and mono,
        ))
    turns = {k: t["turns_per_player"]["mean"] for k, t in r["tables"].items()}
    ranges = {k: (t["vp_min_mean"], t["vp_max_mean"]) for k, t in r["tables"].items()}
    if turns:
        tmin, tmax = min(turns.values()), max(turns.values())
        top = [hi for _, hi in ranges.values()]
        out.append((
            "2, 3, 4 players: comparable turns per player (within 25 %) and score ranges "
            "(winners' mean VP within 25 %)",
            "turns " + ", ".join(f"{k} {v:.1f}" for k, v in turns.items())
            + "; VP low–high " + ", ".join(f"{k} {lo:.0f}–{hi:.0f}" for k, (lo, hi) in ranges.items()),
            tmin > 0 and tmax / tmin <= 1.25 and min(top) > 0 and max(top) / min(top) <= 1.25,
        ))
    return out


def plot_wins(reports, path):
    fig, axes = plt.subplots(1, len(reports), figsize=(6 * len(reports), 4), sharey=True)
    if len(reports) == 1:
        axes = [axes]
    for ax, (label, r) in zip(axes, reports):
        keys = [k for k in ["2p", "3p", "4p"] if k in r["tables"]]
        width = 0.8 / max(len(keys), 1)
        for j, k in enumerate(keys):
            t = r["tables"][k]
            ys = [(strat(t, s) or {}).get("win_rate", 0) for s in STRATS]
            ax.bar([i + j * width for i in range(len(STRATS))], ys, width, label=k)
        ax.axhline(0.4, color="grey", linestyle="--", linewidth=1)
        ax.set_xticks([i + width * (len(keys) - 1) / 2 for i in range(len(STRATS))], STRATS)
        ax.set_title(f"win rate — {label}")
        ax.set_ylim(0, 1)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_vp(reports, path, table="3p"):
    fig, axes = plt.subplots(1, len(reports), figsize=(6 * len(reports), 4), sharey=True)
    if len(reports) == 1:
        axes = [axes]
    for ax, (label, r) in zip(axes, reports):
        t = r["tables"].get(table)
        if not t:
            continue
        bottom = [0.0] * len(STRATS)
        for d in DEPTS:
            ys = [(strat(t, s) or {"vp": {d: {"mean": 0}}})["vp"][d]["mean"] for s in STRATS]
            ax.bar(STRATS, ys, bottom=bottom, label=d)
            bottom = [b + y for b, y in zip(bottom, ys)]
        ax.set_title(f"mean VP by department, {table} — {label}")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_solo(reports, path):
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, r in reports:
        solo = r.get("solo", {})
        lv = sorted(solo)
        ys = [(strat(solo[x], "balanced") or {}).get("win_rate", 0) for x in lv]
        ax.plot([int(x) for x in lv], ys, marker="o", label=label)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("Autobot level")
    ax.set_ylabel("balanced bot win rate")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_money(reports, path):
    fig, axes = plt.subplots(1, len(reports), figsize=(6 * len(reports), 4), sharey=True)
    if len(reports) == 1:
        axes = [axes]
    for ax, (label, r) in zip(axes, reports):
        for k, t in r["tables"].items():
            ax.plot([1, 2, 3], t["money_blocked_share_by_era"], marker="o", label=k)
        ax.axhline(0.1, color="grey", linestyle="--", linewidth=1)
        ax.set_xticks([1, 2, 3])
        ax.set_xlabel("era")
        ax.set_title(f"share of main-phase states money blocked — {label}")
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def table_md(t):
    rows = ["| strategy | win rate | VP mean ± sd | lobby | network | trade | service | finance | "
            "deliveries | turns | budget DM | spent DM | DM at end |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in t["strategies"]:
        v = s["vp"]
        rows.append(
            f"| {s['strategy']} | {s['win_rate']:.1%} | {v['total']['mean']:.1f} ± {v['total']['sd']:.1f} | "
            + " | ".join(f"{v[d]['mean']:.1f} ± {v[d]['sd']:.1f}" for d in DEPTS)
            + f" | {s['deliveries']:.2f} | {s['turns']:.1f} | {s['budget_dm']:.0f} | {s['spent_dm']:.0f} | {s['dm_end']:.0f} |"
        )
    b = t["money_blocked_share_by_era"]
    rows.append("")
    rows.append(
        f"{t['finished']} of {t['games']} games finished; money blocked an action in "
        f"{b[0]:.1%} / {b[1]:.1%} / {b[2]:.1%} of main-phase states (eras 1 / 2 / 3); "
        f"{t['deliveries_per_game']:.2f} deliveries per game; {t['turns_per_player']['mean']:.1f} ± "
        f"{t['turns_per_player']['sd']:.1f} turns per player; lowest / highest score per game "
        f"{t['vp_min_mean']:.1f} / {t['vp_max_mean']:.1f} VP on average; winners {t['winner_vp_mean']:.1f} VP, "
        f"best deliverer {t['best_deliverer_vp_mean']:.1f} VP."
    )
    if "dm_held_mean_by_era" in t:
        # Where money stands in each era (reports from before these fields lack them).
        f = lambda k: " / ".join(f"{x:.0f}" for x in t[k])  # noqa: E731
        rows.append("")
        rows.append(
            f"Money by era (1 / 2 / 3): DM held in a main-phase state {f('dm_held_mean_by_era')} on "
            f"average, against a dearest action money could block of {f('dearest_action_mean_by_era')} DM; "
            f"per player, construction budget paid at the era's end {f('budget_per_seat_by_era')} DM, "
            f"DM spent on roads {f('spent_per_seat_by_era')}."
        )
    if "stations_per_game_by_era" in t:
        # Service stations built (U-30 prices them); reports from before lack the field.
        rows[-1] += (" Service stations built per game (all players, eras 1 / 2 / 3): "
                     + " / ".join(f"{x:.2f}" for x in t["stations_per_game_by_era"]) + ".")
    return "\n".join(rows)


def main():
    out = Path(sys.argv[1])
    reports = []
    for f in sys.argv[2:]:
        r = json.loads(Path(f).read_text())
        reports.append((r["board_id"], r))
    out.mkdir(parents=True, exist_ok=True)
    plot_wins(reports, out / "autobahn-balance-wins.png")
    plot_vp(reports, out / "autobahn-balance-vp-3p.png")
    plot_solo(reports, out / "autobahn-balance-solo.png")
    plot_money(reports, out / "autobahn-balance-money.png")
    md = ["# Autobahn balance report", "",
          "Generated by `scripts/autobahn-balance.sh` (issue #23): `referee balance` plays round-robin "
          "tournaments of the frozen strategy bots ([autobahn-bots.md](autobahn-bots.md)) at 2, 3 and 4 "
          "players and the balanced bot solo against the Autobot at every level, on each board below; "
          "this file and the plots are rewritten by that one command. Win rates share ties; "
          "\"money blocked an action\": a main-phase state where a section or link of a colour in hand "
          "could be built or upgraded, or a service station built on a free connected space of such a colour, "
          "but for its cost (AQ-1, U-30).", ""]
    for label, r in reports:
        md.append(f"## Board `{label}`")
        md.append("")
        md.append(f"{r['games_per_table']} games per table, seed {r['seed']}, {r['seconds']:.0f} s.")
        md.append("")
        md.append("| target (issue #23) | figures | met |")
        md.append("|---|---|---|")
        for name, fig, ok in targets(r):
            md.append(f"| {name} | {fig} | {'yes' if ok else 'no'} |")
        md.append("")
        for k in ["2p", "3p", "4p"]:
            if k in r["tables"]:
                md.append(f"### {k}")
                md.append("")
                md.append(table_md(r["tables"][k]))
                md.append("")
        if r.get("solo"):
            md.append("### Solo against the Autobot (balanced bot)")
            md.append("")
            md.append("| level | games | win rate | bot VP | Autobot VP | turns |")
            md.append("|---|---|---|---|---|---|")
            for lv in sorted(r["solo"]):
                t = r["solo"][lv]
                s = strat(t, "balanced") or {"win_rate": 0, "vp": {"total": {"mean": 0}}, "turns": 0}
                md.append(f"| {int(lv)} | {t['finished']} | {s['win_rate']:.1%} | {s['vp']['total']['mean']:.1f} | "
                          f"{t['autobot_vp_mean']:.1f} | {s['turns']:.1f} |")
            md.append("")
    md += ["## Plots", "",
           "![win rates](autobahn-balance-wins.png)", "",
           "![VP by department, 3 players](autobahn-balance-vp-3p.png)", "",
           "![solo win rate by Autobot level](autobahn-balance-solo.png)", "",
           "![money blocked by era](autobahn-balance-money.png)", ""]
    tail = out / "autobahn-balance-notes.md"
    if tail.exists():
        md += [tail.read_text()]
    (out / "autobahn-balance.md").write_text("\n".join(md))


if __name__ == "__main__":
    main()
