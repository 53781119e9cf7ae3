#!/usr/bin/env python3
"""Import direction of the 1841 conformance harness (issue #21): games played by 18xx.games' own
engine, imported by Referee.

Generates N games per mode with `scripts/oracle_random.rb` (random play on the oracle itself,
restricted to what 18xx.games' web UI offers, written in 18xx.games' export format), or takes
existing exports (`--files`), imports each with `referee replay-18xx FILE --check`, and prints
one line per game and a table per mode: games, imported to the end, same result (finished
games), stopped (grouped by cause: `format` = the importer cannot express what 18xx.games
recorded, e.g. a pass or choice for a step Referee skips; `rules` = Referee refuses what
18xx.games did, a rules divergence for the conformance issue).

    scripts/oracle_import.py --referee target/debug/referee --games 4 [--modes v2,lite,...]
        [--seed 1] [--out DIR] [--jobs 1] [--json REPORT.json]
    scripts/oracle_import.py --referee target/debug/referee --files tests/fixtures/1841/oracle-played/*.json

Exit status: 0 when no game stopped on a format cause (rules divergences are reported, and
listed in tests/oracle/divergences-import.md, not failures), 1 otherwise, 2 when Ruby or the
oracle is missing for generation or arguments are bad.
"""

import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = ["v2", "lite", "version_1", "version_1+sfli", "p2p_purchases"]
# Files are named MODE-<players>p-s<seed>.json by oracle_random.rb.
NAME = re.compile(r"^(?P<mode>.+?)-(?P<players>\d+)p-s(?P<seed>\d+)(-to\d+)?\.json$")


def ruby():
    """`ruby --yjit` when this Ruby has YJIT (faster, same games), else `ruby`."""
    probe = subprocess.run(
        ["ruby", "--yjit", "-e", "exit(defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? 0 : 1)"],
        capture_output=True, check=False)
    return ["ruby", "--yjit"] if probe.returncode == 0 else ["ruby"]


def oracle_dir():
    d = os.environ.get("REFEREE_ORACLE_18XX") or os.path.join(ROOT, "..", "shared", "oracle-18xx")
    return os.path.abspath(d)


def generate(mode, games, seed, out):
    """Plays `games` games of `mode` on the oracle; returns the per-game lines of oracle_random.rb."""
    proc = subprocess.run(
        ruby() + [os.path.join(ROOT, "scripts", "oracle_random.rb"), "--mode", mode, "--players", "0",
         "--seed", str(seed), "--games", str(games), "--out", out],
        capture_output=True, text=True, check=False)
    lines = []
    for line in proc.stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stderr[-2000:])
    return lines


def import_game(referee, path):
    proc = subprocess.run([referee, "replay-18xx", path, "--check"],
                          capture_output=True, text=True, check=False)
    try:
        return json.loads(proc.stdout.splitlines()[0])
    except (IndexError, json.JSONDecodeError):
        return {"error": (proc.stderr or proc.stdout).strip()[:300]}


# Refusals of these action types mean 18xx.games recorded a step or decision Referee's importer
# does not place (format); any other refusal, and a decision of a corporate event asked of
# another seat than Referee asks (the order of the decisions differs), is a rules question.
FORMAT_REFUSED_TYPES = {"pass", "choose"}


def classify(report):
    """(outcome, cause, detail): outcome is `end`, `format` or `rules`."""
    stop = report.get("stopped_at")
    if report.get("error") and not stop:
        return ("format", "unreadable", report["error"])
    if not stop:
        return ("end", None, None)
    kind = stop.get("kind")
    typ = stop.get("type")
    detail = f"action {stop.get('action_id')} ({typ}): {stop.get('reason')}"
    if stop.get("code"):
        detail += f" [{stop.get('code')}, {stop.get('rule')}]"
    if kind != "refused":
        return ("format", f"{kind} {typ}", detail)
    reason = stop.get("reason") or ""
    # The importer names a record it reads but Referee's rules cannot follow ("rules
    # divergence: ...", e.g. a share 18xx.games offers where Referee makes no offer).
    # A pass Referee refuses because the rules demand something first of the one asked (over
    # a holding limit: "must sell first", 1841 §5.2, §9.7) is a pass of a step Referee has
    # open, not of one it skips: 18xx.games has no such obligation there (rules).
    if typ == "pass" and "must sell first" in reason:
        return ("rules", f"refused pass over a holding limit ({stop.get('code')})", detail)
    if typ in FORMAT_REFUSED_TYPES and "corporate event" not in reason and not reason.startswith("rules divergence"):
        return ("format", f"refused {typ} ({stop.get('code')})", detail)
    return ("rules", f"refused {typ} ({stop.get('code')})", detail)


# Named classes of the rules stops (first stop per game), for the table in
# tests/oracle/divergences-import.md: (class, listed divergence id in tests/oracle/divergences.json
# or None for a rules difference handed to the conformance issue #22, record type regex,
# reason regex). The first class that matches names the stop; a stop no class matches is
# printed as `unclassified` (to be examined: it may be an importer gap).
STOP_CLASSES = [
    ("tile on I3 facing G3", "I3-G3-impassable-side", r"lay_tile", r"on I3 in rotation"),
    ("bankruptcy in the train step without the obligation", "bankruptcy-without-train-obligation",
     r"bankrupt", r"Bankruptcy .*not possible for \w+ in its trains step"),
    ("p2p concession bought after selling", "p2p-concession-after-selling", r"buy_company",
     r"sold \w+ this round and may not buy it"),
    ("transformation token paid by the president first", "transform-token-president-pays-first",
     r"choose", r"transform-token-president-pays-first"),
    ("merger goes on in 18xx after this engine undid it", "merger-backed-out-before-18xx-pass-2",
     r"choose", r"goes on with the merger of .* undoes it"),
    ("V1 waterfall bid on another concession", "V1-tie-auction-bid-on-another-concession", r"bid",
     r"is being auctioned now"),
    ("a frozen corporation acts", "frozen-mid-turn-train-step", r".*", r"has no controlling player \(frozen"),
    ("merger refused: no president possible (1841 §12.1)", None, r"merge", r"cannot end with a president"),
    ("historical corporation started in phase 4+ (1841 §3.4)", None, r"par", r"cannot be started in phase"),
    ("corporate start refused (1841 §9.7)", None, r"par", r"^Starting .* is not legal for"),
    ("IPO share missing (1841 §5.2)", None, r"buy_shares", r"^No \d+% certificate of \w+ in the IPO"),
    ("corporate purchase from the IPO refused (1841 §9.7)", None, r"buy_shares", r"^Buying .* is not legal for"),
    ("discard of a train the merger brought (1841 §9.6)", None, r"discard_train", r"must discard one of its own trains"),
    ("operating corporation controlled by another seat (1841 §8)", None, r".*", r"does not control \w+, which is operating"),
    ("token placement after the routes/trains step began (1841 §8)", None, r"place_token", r"`place a token` is not possible now"),
    ("tile lay elsewhere (1841 §9.1)", None, r"lay_tile", r"cannot be laid on|cannot lay on|does not fit on"),
    ("emergency sale refused (1841 §14)", None, r"sell_shares", r"not an emergency sale open now"),
    # e.g. a corporation selling in its share step, which this engine had closed (and the
    # operating round) after an emergency sale in the train step.
    ("a record for a share step this engine closed (1841 §9.7)", None, r"sell_shares|buy_shares|pass", r"^It is seat \d+'s turn"),
    ("route without a token (1841 §9.3)", None, r"run_routes", r"no city with a \w+ token"),
    ("train price above the buyer's cash (1841 §9.6)", None, r"buy_train", r"can pay at most"),
    ("60% control (1841 §7.3)", None, r".*", r"may control at most"),
    # e.g. a president's certificate in the pool (a bankruptcy or a sale left it there), which
    # 18xx sells to a player as a bundle of its own (version_1+sfli-7p-s80003 id 329).
    ("president's certificate bought from the pool (1841 §5.2)", None, r"buy_shares",
     r"president's certificate of \w+ cannot be bought now"),
    ("split purchase round this engine does not hold (1841 §12.4)", None, r"choose", r"sells a share offered in a purchase round"),
]


def stop_class(row):
    """(class, listed id or None) of a stopped row, or ("unclassified", None)."""
    m = re.match(r"action \d+ \((?P<type>[^)]*)\): (?P<reason>.*)$", row.get("detail") or "")
    if not m:
        return ("unclassified", None)
    for name, listed, typ, reason in STOP_CLASSES:
        if re.fullmatch(typ, m.group("type")) and re.search(reason, m.group("reason")):
            return (name, listed)
    return ("unclassified", None)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--referee", required=True, help="the referee binary")
    ap.add_argument("--games", type=int, default=2, help="games per mode to generate")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game of each mode")
    ap.add_argument("--out", help="keep the generated exports here (default: a temporary directory)")
    ap.add_argument("--files", nargs="*", help="import these exports instead of generating games")
    ap.add_argument("--jobs", type=int, default=1, help="modes generated in parallel (Ruby processes)")
    ap.add_argument("--json", help="write the per-game report here")
    ap.add_argument("--quiet", action="store_true", help="print only stopped games and the tables")
    args = ap.parse_args()

    tmp = None
    games = []  # (mode, path, generation info)
    if args.files is not None:
        for path in args.files:
            m = NAME.match(os.path.basename(path))
            games.append((m.group("mode") if m else "?", path, {}))
    else:
        if shutil.which("ruby") is None or not os.path.isfile(os.path.join(oracle_dir(), "oracle.rb")):
            print(f"oracle import: needs ruby and the 18xx.games oracle at {oracle_dir()}", file=sys.stderr)
            return 2
        out = args.out or (tmp := tempfile.mkdtemp(prefix="oracle-import-"))
        os.makedirs(out, exist_ok=True)
        modes = [m for m in args.modes.split(",") if m]
        for m in modes:
            if m not in MODES:
                print(f"unknown mode {m} ({', '.join(MODES)})", file=sys.stderr)
                return 2
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            runs = {m: pool.submit(generate, m, args.games, args.seed, out) for m in modes}
            for m in modes:
                for info in runs[m].result():
                    games.append((m, info["file"], info))

    rows = []
    for mode, path, info in games:
        report = import_game(args.referee, path)
        outcome, cause, detail = classify(report)
        check = (report.get("check") or {})
        same = bool(check.get("ok")) if report.get("finished") else None
        row = {
            "mode": mode, "file": path, "outcome": outcome, "cause": cause, "detail": detail,
            "oracle_finished": info.get("finished"), "oracle_end": info.get("end"),
            "oracle_stuck": info.get("stuck") or info.get("error"),
            "actions": report.get("actions_total"), "applied": report.get("actions_applied"),
            "passes_dropped": report.get("passes_dropped"), "records_dropped": report.get("records_dropped"),
            "passes_inserted": report.get("passes_inserted"),
            "finished": report.get("finished"), "same_result": same,
            "difference": (check.get("difference") if report.get("finished") else None),
        }
        rows.append(row)
        if not args.quiet or outcome != "end":
            tail = "" if outcome == "end" else f"  STOPPED [{outcome}] {detail}"
            res = {True: "same result", False: f"result differs {row['difference']}", None: "unfinished"}[same]
            print(f"{os.path.basename(path)}: {row['applied']}/{row['actions']} actions, "
                  f"{row['passes_dropped']} passes + {row['records_dropped']} records dropped, "
                  f"{row['passes_inserted']} passes inserted, {res}{tail}")

    print()
    print(f"{'mode':<16} {'games':>5} {'to end':>7} {'same':>5} {'fmt stop':>8} {'rules stop':>10}")
    for mode in sorted({r["mode"] for r in rows}, key=lambda m: MODES.index(m) if m in MODES else 99):
        rs = [r for r in rows if r["mode"] == mode]
        print(f"{mode:<16} {len(rs):>5} {sum(r['outcome'] == 'end' for r in rs):>7} "
              f"{sum(bool(r['same_result']) for r in rs):>5} "
              f"{sum(r['outcome'] == 'format' for r in rs):>8} {sum(r['outcome'] == 'rules' for r in rs):>10}")
    print(f"{'all':<16} {len(rows):>5} {sum(r['outcome'] == 'end' for r in rows):>7} "
          f"{sum(bool(r['same_result']) for r in rows):>5} "
          f"{sum(r['outcome'] == 'format' for r in rows):>8} {sum(r['outcome'] == 'rules' for r in rows):>10}")
    causes = collections.defaultdict(list)
    for r in rows:
        if r["outcome"] != "end":
            causes[(r["outcome"], r["cause"])].append(r)
    if causes:
        print("\nstopped, by cause:")
        for (outcome, cause), rs in sorted(causes.items(), key=lambda kv: -len(kv[1])):
            print(f"  [{outcome}] {cause}: {len(rs)}, e.g. {os.path.basename(rs[0]['file'])} {rs[0]['detail']}")
    named = collections.defaultdict(list)
    for r in rows:
        if r["outcome"] == "rules":
            r["class"], r["listed"] = stop_class(r)
            named[(r["class"], r["listed"])].append(r)
    if named:
        print("\nrules stops, by class (listed = tests/oracle/divergences.json):")
        for (name, listed), rs in sorted(named.items(), key=lambda kv: -len(kv[1])):
            tag = f"listed {listed}" if listed else ("to examine" if name == "unclassified" else "for #22")
            print(f"  {name} [{tag}]: {len(rs)}, e.g. {os.path.basename(rs[0]['file'])} {rs[0]['detail']}")
    differ = [r for r in rows if r["same_result"] is False]
    if differ:
        print("\nimported to the end with another result:")
        for r in differ:
            print(f"  {os.path.basename(r['file'])}: {r['difference']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if tmp and not args.out:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if any(r["outcome"] == "format" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
