#!/usr/bin/env python3
"""1841 conformance harness against 18xx.games' own engine (the oracle, issue #21).

Generates games with `referee playout --game 1841 --export-18xx DIR` per mode, adds our
re-export of the two recorded games (`referee replay-18xx --export-18xx`), replays every
export in the oracle (one `oracle.rb --serve` process per batch) and with our importer
(`referee replay-18xx --snapshots`), and compares the oracle's snapshots at every round change
(bank, each player's cash and certificates, each corporation's cash, price, trains, tokens)
and at the end (result, end reason) with ours. Prints one line per game with the first
difference (the 18xx action id and our action index, through the export's
`referee_action_ids`; field; both values) and a table per mode (games, accepted by the oracle
to the end, same result, first differences grouped by cause). The oracle is found through
REFEREE_ORACLE_18XX (default ../shared/oracle-18xx relative to the repository root).

A game the oracle agrees with is also read back by our own importer (`referee replay-18xx`): an
export it cannot read to the end counts as a difference ("our importer stops on our export").

A first difference that matches an entry of tests/oracle/divergences.json (a rule on which
the two engines disagree, with the reason and an example) is counted as that known
divergence, not as a format gap.

The patched oracle (default): an entry whose 18xx.games behaviour can be corrected names a
Ruby monkey-patch (`patch`: tests/oracle/patches/ID.rb, citing the rule and saying what it
changes); the harness replays through tests/oracle/patched_oracle.rb, which loads the
unmodified oracle.rb and those patches on top of it. A game that then agrees everywhere, where a
patch changed what 18xx.games would have done (the driver's `corrections`), counts as "same
result with listed corrections" (it differs only by listed entries; when the unmodified oracle
agrees with it too, the corrections were not needed and it counts as the same); a game that
still stops names the corrections made before its stop ("behind listed corrections").
`--no-patches` replays in the unmodified oracle; stops that still occur are matched against
the entries either way.

    scripts/oracle_harness.py --referee target/debug/referee --games 3 [--modes v2,lite,...]
        [--recorded tests/fixtures/1841] [--out DIR] [--json REPORT.json] [--strict-recorded]
        [--no-patches] [--reuse DIR] [--jobs N]

`--jobs N` runs N oracle processes (and N playouts) at once: the oracle is single-threaded Ruby
and takes most of the time, so on 2 cores `--jobs 2` halves a run (202 games in about 10 minutes
on a busy 2-core machine).

`--reuse DIR` replays the exports a run with `--out DIR` left there (no generation), e.g. the
same games with and without the patches.

Exit status: 0 when every game replayed in the oracle to the end with no difference other
than a known divergence or listed corrections, 1 otherwise (with --strict-recorded: 1 when a
recorded game differs, 3 when only generated games do), 2 when the oracle or Ruby is missing
(`--require-oracle`) or arguments are bad (also `--reuse` of a directory without exports of a
mode). A stop on an entry whose patch is loaded is a difference, not a listed stop (the patch
was meant to carry the game past it). A playout that fails or writes fewer games than asked
(e.g. a misspelt `--policies` name) fails the run with 1 in every case: the sample would
shrink unseen. `version_1+sfli` plays its own seeds (`SEED_OFFSET`: `--seed + 1000 * players
+ 500`), not `version_1`'s.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Parallel oracle processes and playouts (`--jobs`); the oracle is single-threaded Ruby.
JOBS = 1


def parallel(fn, items):
    """`fn` over `items` on up to JOBS threads (each runs a subprocess), results in order."""
    items = list(items)
    if JOBS <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
        return list(pool.map(fn, items))

# Referee's FAQ options on by default with version_1 (engine/src/g1841/options.rs): the
# `version_1` modes switch them off, as 18xx.games has none of them.
FAQ_ON_WITH_V1 = [
    "emergency_sales_unrestricted", "merger_presidency_for_companies", "merger_price_cap",
    "pass_token_not_a_route_base", "no_corporate_rebuy_after_sale", "price_drops_lowest_first",
    "immediate_game_end", "no_train_obligation_after_last_8_train", "exchanges_by_share_value",
    "half_price_round_down", "ferdinandea_unexchanged_payout",
]
V1_OFF = ["version_1=true"] + [f"{n}=false" for n in FAQ_ON_WITH_V1]

# mode -> (player counts, playout options)
MODES = {
    "v2": (range(3, 9), []),
    "lite": (range(3, 7), ["lite=true"]),
    "version_1": (range(3, 9), V1_OFF),
    "version_1+sfli": (range(3, 9), V1_OFF + ["sfli_run_variant=true"]),
    "p2p_purchases": (range(3, 9), ["p2p_purchases=true"]),
}

# mode -> what its playout seeds add to `--seed + 1000 * players`: `version_1+sfli` differs from
# `version_1` only where a corporation runs through SFLi's hex, so with the same seeds most of
# its games were `version_1`'s again, action for action (11 of 12 in a review sample); its own
# seeds make its games another sample.
SEED_OFFSET = {"version_1+sfli": 500}


DIVERGENCES = os.path.join(ROOT, "tests", "oracle", "divergences.json")


def load_divergences(path=DIVERGENCES):
    """The known rule divergences: [{id, rule, why, cause, detail?, previous_action?,
    earlier_in_round?, none_since?, expected_fell_to_ours?, only_unpatched?, example}];
    `cause` and `detail` are regular expressions matched against a first difference,
    `previous_action` against the
    type of the action before it, `earlier_in_round`/`none_since` against the types of the
    actions of its round before it, `expected_fell_to_ours` (true) checks prices
    (`known_divergence`); `only_unpatched` (true): the entry matches only in a run without
    its patch (the patch settles the point, so a stop it would match with the patch loaded
    has another cause)."""
    try:
        with open(path) as f:
            return json.load(f)["divergences"]
    except (OSError, ValueError, KeyError):
        return []


def previous_action_type(export, diff):
    """The type of the export's action just before the one the difference names (the
    nearest lower 18xx id), or "" when the difference names no action."""
    m = re.search(r"action id (\d+)", diff[1])
    if not m or not export:
        return ""
    at = int(m.group(1))
    before = [a for a in export.get("actions") or [] if isinstance(a.get("id"), int) and a["id"] < at]
    return max(before, key=lambda a: a["id"]).get("type", "") if before else ""


def earlier_in_round(export, diff, oracle, pattern, none_since=None):
    """The id of the first action of the export whose type matches `pattern` in the same round
    as the action the difference names, before it (after the oracle's last round change before
    it: its `round` snapshots) and after the last action whose type matches `none_since`, and
    the id of the action before that one (0 for none); None when there is no such action."""
    m = re.search(r"action id (\d+)", diff[1])
    if not m or not export:
        return None
    at = int(m.group(1))
    changes = [s["at"] for s in (oracle or {}).get("snapshots") or []
               if s.get("kind") == "round" and isinstance(s.get("at"), int) and s["at"] < at]
    start = max(changes, default=0)
    ids = sorted(a["id"] for a in export.get("actions") or [] if isinstance(a.get("id"), int))
    types = {a["id"]: a.get("type", "") for a in export.get("actions") or []
             if isinstance(a.get("id"), int)}
    between = [i for i in ids if start < i < at]
    if none_since is not None:
        since = [i for i in between if re.search(none_since, types[i])]
        between = [i for i in between if not since or i > since[-1]]
    hits = [i for i in between if re.search(pattern, types[i])]
    if not hits:
        return None
    before = [i for i in ids if i < hits[0]]
    return hits[0], (before[-1] if before else 0)


def expected_fell_to_ours(diff, oracle, oracle_after, before_id):
    """Whether the corporation the oracle expects (`oracle expects STEP of ['E']`, not the one
    whose action we wrote, `by O:`) had a higher price after action `before_id` than at the
    stop (the oracle's `error` snapshot), and now stands at or below O's price: what a price
    drop that 18xx.games did not re-sort at leaves behind."""
    e = re.search(r"oracle expects \w+ of \['([^']+)'\]", diff[1])
    o = re.search(r" by ([^:\s]+): ", diff[1])
    snaps = (oracle or {}).get("snapshots") or []
    if not (e and o and e.group(1) != o.group(1) and oracle_after and snaps
            and snaps[-1].get("kind") == "error"):
        return False
    before = oracle_after(before_id) if before_id else None
    if before is None:
        return False
    price = lambda snap, sym: next((c.get("price") for c in snap.get("corps") or []
                                    if c.get("sym") == sym), None)
    was, now, ours = price(before, e.group(1)), price(snaps[-1], e.group(1)), price(snaps[-1], o.group(1))
    return None not in (was, now, ours) and now < was and now <= ours


def earlier_record(export, diff, fields, same_entity=False):
    """Whether the export has a record before the action the difference names whose fields
    match `fields` ({field: regular expression}, matched against the field as text) and, with
    `same_entity`, whose entity is the one the difference names (` by X: `): e.g. a merger's
    `remove_token` on a two-city tile by the corporation that later stops."""
    m = re.search(r"action id (\d+)", diff[1])
    if not m or not export:
        return False
    at = int(m.group(1))
    who = re.search(r" by ([^:\s]+): ", diff[1])
    for a in export.get("actions") or []:
        if not isinstance(a.get("id"), int) or a["id"] >= at:
            continue
        if same_entity and (not who or str(a.get("entity")) != who.group(1)):
            continue
        if all(re.search(rx, str(a.get(f, ""))) for f, rx in fields.items()):
            return True
    return False


def known_divergence(diff, divergences, export=None, oracle=None, oracle_after=None):
    """The entry of the reviewed list the first difference matches: `cause` and `detail`
    against the difference, the optional `previous_action` against the type of the export's
    action just before the one the difference names (a rule seen only right after a kind of
    action), the optional `earlier_record` (with `earlier_record_same_entity`) against the
    export's records before it ([`earlier_record`]), and the optional `earlier_in_round` (with `none_since`) against the actions of
    the same round before it ([`earlier_in_round`]), with `expected_fell_to_ours` also the
    prices the oracle shows ([`expected_fell_to_ours`], which needs `oracle_after`): e.g. the
    operating order after a `bankrupt` in that operating round whose sales dropped the
    corporation 18xx.games still expects, with no sale since (18xx re-sorts at a sale)."""
    for d in divergences:
        if not (re.search(d["cause"], diff[0]) and re.search(d.get("detail", ""), diff[1])):
            continue
        if "previous_action" in d and not re.search(d["previous_action"],
                                                    previous_action_type(export, diff)):
            continue
        if "earlier_record" in d and not earlier_record(
                export, diff, d["earlier_record"], d.get("earlier_record_same_entity", False)):
            continue
        if "earlier_in_round" in d:
            hit = earlier_in_round(export, diff, oracle, d["earlier_in_round"],
                                   d.get("none_since"))
            if hit is None:
                continue
            if d.get("expected_fell_to_ours") and not expected_fell_to_ours(
                    diff, oracle, oracle_after, hit[1]):
                continue
        return d
    return None


def our_index(export, action_id):
    """Our action index for an 18xx action id (the export's `referee_action_ids`), as text."""
    ids = export.get("referee_action_ids")
    if action_id is None:
        return "our index ?"
    if ids is None:
        return f"our index {action_id - 1}?"
    mine = [i for i, x in enumerate(ids) if x == action_id]
    if mine:
        return "our index " + ",".join(str(i) for i in mine)
    return "no action of ours (a record only 18xx needs)"


def oracle_dir():
    d = os.environ.get("REFEREE_ORACLE_18XX") or os.path.join(ROOT, "..", "shared", "oracle-18xx")
    return os.path.abspath(d)


def oracle_available():
    d = oracle_dir()
    return shutil.which("ruby") is not None and os.path.isfile(os.path.join(d, "oracle.rb"))


PATCHED_ORACLE = os.path.join(ROOT, "tests", "oracle", "patched_oracle.rb")


def divergence_patches(divergences):
    """The patches of the reviewed list (each entry's optional `patch`: a Ruby file of
    tests/oracle/patches/, relative to the repository root), once each, in list order."""
    out = []
    for d in divergences:
        p = d.get("patch")
        if p and os.path.join(ROOT, p) not in out:
            out.append(os.path.join(ROOT, p))
    return out


_RUBY = None


def ruby():
    """Ruby's command line: `ruby --yjit` when this Ruby has the YJIT compiler (Ruby 3.1+ built
    with it, as Debian's is), else `ruby`. YJIT replays the oracle about 1.5 times faster (8
    generated games: 12.9 s against 19.3 s on one core) with byte-identical reports."""
    global _RUBY
    if _RUBY is None:
        probe = subprocess.run(
            ["ruby", "--yjit", "-e", "exit(defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? 0 : 1)"],
            capture_output=True, check=False)
        _RUBY = ["ruby", "--yjit"] if probe.returncode == 0 else ["ruby"]
    return list(_RUBY)


def oracle_command(patches=None):
    """The oracle's command line: the unmodified `oracle.rb`, or with `patches` (a list of Ruby
    files) the project's driver tests/oracle/patched_oracle.rb, which loads them on top of it."""
    if not patches:
        return ruby() + [os.path.join(oracle_dir(), "oracle.rb")]
    cmd = ruby() + [PATCHED_ORACLE]
    for p in patches:
        cmd += ["--patch", p]
    return cmd


def oracle_env():
    return dict(os.environ, REFEREE_ORACLE_18XX=oracle_dir())


def run_oracle(paths, patches=None):
    """Replays the paths in `oracle.rb --serve` processes (with `patches`, the patched
    driver's), up to JOBS at once, each taking every JOBS-th path; returns {path: report}."""
    paths = list(paths)
    if not paths:
        return {}
    chunks = [paths[k::JOBS] for k in range(min(JOBS, len(paths)))]
    out = {}
    for part in parallel(lambda c: run_oracle_once(c, patches), chunks):
        out.update(part)
    return out


def run_oracle_once(paths, patches=None):
    """Replays each path in one `oracle.rb --serve` process; returns {path: report}."""
    proc = subprocess.run(
        oracle_command(patches) + ["--serve"], env=oracle_env(),
        input="\n".join(paths) + "\n", capture_output=True, text=True, check=False)
    out = {}
    for line in proc.stdout.splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        out[r.get("file")] = r
    return out


def corrections_before(oracle, diff):
    """The ids of the patches (`corrections` of the patched oracle's report) that changed
    18xx.games' behaviour in this game before its first difference (all of them when there is
    none, or when the difference names no action), once each, in order."""
    limit = None
    if diff:
        m = re.search(r"action id (\d+)", diff[1])
        limit = int(m.group(1)) if m else None
    out = []
    for c in (oracle or {}).get("corrections") or []:
        at = c.get("action_id")
        if limit is not None and isinstance(at, int) and at > limit:
            continue
        if c.get("id") not in out:
            out.append(c.get("id"))
    return out


def our_replay(referee, path):
    proc = subprocess.run([referee, "replay-18xx", path, "--snapshots"],
                          capture_output=True, text=True, check=False)
    try:
        return json.loads(proc.stdout.splitlines()[0])
    except (IndexError, json.JSONDecodeError):
        return {"error": proc.stderr.strip()[:300]}


def reread_stop(referee, path):
    """Where our own importer stops re-reading the export at `path` (`referee replay-18xx`), as a
    (cause, detail) difference, or None when it reads it to the end: an export this engine
    wrote must also import (issue #21), whatever the oracle says of it."""
    proc = subprocess.run([referee, "replay-18xx", path], capture_output=True, text=True,
                          check=False)
    try:
        report = json.loads(proc.stdout.splitlines()[0])
    except (IndexError, json.JSONDecodeError):
        return ("our importer fails on our export", proc.stderr.strip()[:200])
    if report.get("finished"):
        return None
    stop = report.get("stopped_at") or {}
    return ("our importer stops on our export",
            f"action id {stop.get('action_id')} (our index {stop.get('index')}): "
            f"{stop.get('kind')} {stop.get('type')}: {stop.get('reason')}")


def compare_snapshot(ours, theirs):
    """The first differing field between two snapshots: (field, ours, theirs) or None."""
    if ours["bank"] != theirs["bank"]:
        return ("bank", ours["bank"], theirs["bank"])
    op = {str(p["id"]): p for p in ours["players"]}
    for p in theirs["players"]:
        q = op.get(str(p["id"]))
        if q is None:
            return (f"player {p['id']}", None, "present")
        if q["cash"] != p["cash"]:
            return (f"player {p['id']}.cash", q["cash"], p["cash"])
        if q["shares"] != p["shares"]:
            return (f"player {p['id']}.shares", q["shares"], p["shares"])
    oc = {c["sym"]: c for c in ours["corps"]}
    tc = {c["sym"]: c for c in theirs["corps"]}
    for sym in sorted(set(oc) | set(tc)):
        a, b = oc.get(sym), tc.get(sym)
        if a is None or b is None:
            # A corporation closed on one side and never started on the other is the same.
            if (a or b).get("closed") or (a or b).get("price") is None:
                continue
            return (f"{sym}", "started" if a else None, "started" if b else None)
        if a["closed"] and b["closed"]:
            continue
        for field in ("closed", "cash", "price", "trains", "tokens"):
            if a[field] != b[field]:
                return (f"{sym}.{field}", a[field], b[field])
    if ours["pool"] != theirs["pool"]:
        return ("pool", ours["pool"], theirs["pool"])
    return None


def oracle_after(path, patches=None):
    """A function giving the oracle's snapshot of the export at `path` after action id `at`
    (`oracle.rb --at`, with `patches` the patched driver's), or None."""
    def after(at):
        proc = subprocess.run(oracle_command(patches) + ["--at", str(at), path], env=oracle_env(),
                              capture_output=True, text=True, check=False)
        try:
            snaps = json.loads(proc.stdout.splitlines()[0]).get("snapshots") or []
        except (IndexError, json.JSONDecodeError):
            return None
        return snaps[-1] if snaps else None
    return after


def records_only_18xx_needs_after(export, at):
    """The last id of the run of records right after id `at` that only 18xx needs (ids that
    are no action of ours: a pass of a step this engine skips), or `at` when there is none."""
    ids = export.get("referee_action_ids")
    if not ids:
        return at
    ours = set(ids)
    recorded = {a["id"] for a in export.get("actions") or [] if isinstance(a.get("id"), int)}
    last = at
    while last + 1 in recorded and last + 1 not in ours:
        last += 1
    return last


def first_difference(export, ours, oracle, oracle_after=None):
    """(cause, detail) of the first difference, or None when the game agrees everywhere.
    `oracle_after(id)`, when given, is the oracle's snapshot after an action id (see
    `first_difference_raw`)."""
    d = first_difference_raw(export, ours, oracle, oracle_after)
    if d is None:
        return None
    detail = re.sub(r"action id (\d+) \(our index [^)]*\)",
                    lambda m: f"action id {m.group(1)} ({our_index(export, int(m.group(1)))})", d[1])
    return (d[0], detail)


def first_difference_raw(export, ours, oracle, oracle_after=None):
    """(cause, detail) of the first difference, or None when the game agrees everywhere.

    Our snapshot after an action is taken once this engine has settled, its automatic steps
    made (a corporation with no legal lay and no train already moved left, §9.4); where 18xx
    waits for records of its own right after that action (the `pass` of a track step this
    engine skips, written by the export), the oracle's round snapshot comes before them. A
    round snapshot that differs is therefore compared again with the oracle's state after
    those records (`oracle_after`), and only a difference that remains counts."""
    failure = export.get("referee_export_failure")
    if oracle.get("fatal"):
        return ("oracle could not load the file", oracle["fatal"][:200])
    ours_snaps = {s["at"]: s for s in (ours.get("snapshots") or []) if s["kind"] == "round"}
    ours_end = next((s["at"] for s in (ours.get("snapshots") or []) if s["kind"] == "end"), None)
    for snap in oracle.get("snapshots") or []:
        if snap["kind"] != "round":
            continue
        mine = ours_snaps.get(snap["at"])
        if mine is None and isinstance(snap["at"], int) and export.get("referee_action_ids"):
            # The oracle's round may change at a record only 18xx needs (a pass of a step we
            # skip) written after our action that changed the round: the same position.
            ids = set(export["referee_action_ids"])
            at = snap["at"]
            if at not in ids:
                prev = at - 1
                while prev > 0 and prev not in ids:
                    prev -= 1
                mine = ours_snaps.get(prev)
                if mine is None and prev == ours_end:
                    # Our last action ended the game after rounds in which nobody could act,
                    # played through by this engine (to 18xx's turn limit: version_1+sfli
                    # random 8 players seed 8166, a bankruptcy at id 1364 and 98 turns of
                    # passes); 18xx plays them at the records the export adds. We have no
                    # state between, so the end (reason and scores) is what is compared.
                    continue
        if mine is None and snap["at"] == ours_end:
            # The same within the action itself: 18xx plays those rounds in its
            # `process_action` loop and snapshots the last one begun ('Stock Round 100.1'),
            # where our game has ended (v2 random 8 players seed 8137, id 1702).
            continue
        if mine is None:
            return ("round change at another action",
                    f"action id {snap['at']} (our index {snap['at'] - 1}): oracle enters "
                    f"{snap['round']} {snap.get('turn')}.{snap.get('round_num')}, we do not")
        d = compare_snapshot(mine, snap)
        if d and oracle_after and isinstance(snap["at"], int):
            later = records_only_18xx_needs_after(export, snap["at"])
            if later != snap["at"]:
                theirs = oracle_after(later)
                if theirs is not None and compare_snapshot(mine, theirs) is None:
                    d = None
        if d:
            field = re.sub(r"^player [^.]+", "player", re.sub(r"^[A-Za-z]+\.", "corp.", d[0]))
            return (f"{field} differs",
                    f"after action id {snap['at']} (our index {snap['at'] - 1}), {snap['round']}: "
                    f"{d[0]}: ours {json.dumps(d[1])}, oracle {json.dumps(d[2])}")
    err = oracle.get("error")
    if err:
        msg = re.sub(r"\d+", "N", err.get("message") or "")
        blocked = re.match(r"Blocking step (.*) cannot process action", err.get("message") or "")
        if blocked:
            return (f"oracle still in {err.get('active_step')} ({blocked.group(1)}), we wrote {err.get('type')}",
                    f"action id {err.get('action_id')} (our index {(err.get('action_id') or 1) - 1}): "
                    f"{err.get('type')} by {err.get('entity')}: {err.get('message')} "
                    f"(oracle expects {err.get('active_step')} of {err.get('active_entities')})")
        return (f"oracle refuses {err.get('type')} in {err.get('active_step')}: {msg[:90]}",
                f"action id {err.get('action_id')} (our index {(err.get('action_id') or 1) - 1}): "
                f"{err.get('type')} by {err.get('entity')}: {err.get('message')} "
                f"(oracle expects {err.get('active_step')} of {err.get('active_entities')})")
    if failure:
        reason = re.sub(r"\d+", "N", failure.get("reason", ""))[:90]
        return (f"export stops: {reason}",
                f"our action index {failure.get('index')}: {failure.get('reason')}")
    if export.get("game_end_reason") is None:
        return ("our game did not end", f"{export.get('referee_actions')} actions")
    if not oracle.get("finished"):
        return ("oracle game not over at the end", f"last action {oracle.get('last_ok_action')}")
    if oracle.get("game_end_reason") != export.get("game_end_reason"):
        return ("end reason differs",
                f"ours {export.get('game_end_reason')}, oracle {oracle.get('game_end_reason')}")
    theirs = {str(k): v for k, v in (oracle.get("result") or {}).items()}
    mine = {str(k): v for k, v in (export.get("result") or {}).items()}
    if theirs != mine:
        return ("result differs",
                f"ours {mine}, oracle {theirs} (end reason {export.get('game_end_reason')})")
    return None


def generate(referee, mode, games, seed, out, policy="random"):
    counts, options = MODES[mode]
    runs = []
    for i, players in enumerate(counts):
        n = games // len(counts) + (1 if i < games % len(counts) else 0)
        if n == 0:
            continue
        d = os.path.join(out, mode, f"p{players}" if policy == "random" else f"{policy}-p{players}")
        cmd = [referee, "playout", "--game", "1841", "--players", str(players), "--games", str(n),
               "--seed", str(seed + 1000 * players + SEED_OFFSET.get(mode, 0)), "--export-18xx", d]
        if policy != "random":
            cmd += ["--policy", policy]
        if options:
            cmd += ["--options", ",".join(options)]
        runs.append((d, cmd, n))

    def play(run):
        d, cmd, n = run
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
        files = (sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".json"))
                 if os.path.isdir(d) else [])
        if p.returncode != 0 or len(files) != n:
            # A playout that fails or writes fewer games would shrink the sample unseen.
            tail = " ".join((p.stderr or p.stdout or "").strip().splitlines()[-3:])
            PLAYOUT_FAILURES.append(f"{' '.join(cmd)}: exit {p.returncode}, {len(files)} of {n} "
                                    f"games written ({tail})")
        return files
    return [f for files in parallel(play, runs) for f in files]


# Playouts that failed or wrote fewer games than asked (the run fails: see `main`).
PLAYOUT_FAILURES = []


def exports_in(d):
    """The exports under directory `d` (a mode's or the recorded games' directory of an earlier
    `--out` run), sorted by path."""
    files = []
    for base, _, names in os.walk(d):
        files += [os.path.join(base, n) for n in names if n.endswith(".json")]
    return sorted(files)


def reexport_recorded(referee, recorded, out):
    files = []
    d = os.path.join(out, "recorded")
    os.makedirs(d, exist_ok=True)
    for name in sorted(os.listdir(recorded)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(d, name)
        subprocess.run([referee, "replay-18xx", os.path.join(recorded, name), "--export-18xx", path],
                       capture_output=True, text=True, check=False)
        if os.path.exists(path):
            files.append(path)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--referee", default=os.path.join(ROOT, "target", "debug", "referee"))
    ap.add_argument("--games", type=int, default=3, help="generated games per mode")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--policies", default="random",
                    help="playout policies sharing each mode's games, e.g. random,heuristic "
                         "(issue #22: half random, half heuristic)")
    ap.add_argument("--recorded", default=os.path.join(ROOT, "tests", "fixtures", "1841"),
                    help="directory of recorded games to re-export ('' for none)")
    ap.add_argument("--out", help="keep the exports here (default: a temporary directory)")
    ap.add_argument("--json", help="write the per-game results here")
    ap.add_argument("--require-oracle", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="no line per agreeing game")
    ap.add_argument("--strict-recorded", action="store_true",
                    help="exit 1 only when a recorded game differs (generated games report)")
    ap.add_argument("--divergences", default=DIVERGENCES, help="known rule divergences (JSON)")
    ap.add_argument("--reuse", metavar="DIR",
                    help="replay the exports an earlier `--out DIR` run left in DIR (its modes "
                         "named by --modes, and its recorded games unless --recorded '') instead "
                         "of generating games")
    ap.add_argument("--jobs", type=int, default=1,
                    help="oracle processes and playouts run at once (default 1; the oracle is "
                         "single-threaded, so up to the number of cores)")
    ap.add_argument("--no-patches", action="store_true",
                    help="replay in the unmodified oracle (default: with the patches the "
                         "divergence entries name, through tests/oracle/patched_oracle.rb)")
    args = ap.parse_args()
    global JOBS
    JOBS = max(1, args.jobs)

    if not oracle_available():
        print(f"oracle harness: SKIPPED (no ruby or no oracle at {oracle_dir()}; "
              "set REFEREE_ORACLE_18XX)")
        return 2 if args.require_oracle else 0
    if args.reuse:
        # The exports of an earlier `--out DIR` run, replayed again (e.g. with and without the
        # patches): no generation; the directory is kept.
        args.out = args.reuse
    out = args.out or tempfile.mkdtemp(prefix="referee-oracle-")
    batches = []
    if args.recorded and args.reuse:
        batches.append(("recorded", exports_in(os.path.join(out, "recorded"))))
    elif args.recorded:
        batches.append(("recorded", reexport_recorded(args.referee, args.recorded, out)))
    for mode in [m for m in args.modes.split(",") if m]:
        if mode not in MODES:
            print(f"unknown mode {mode}; modes: {', '.join(MODES)}")
            return 2
        if args.reuse:
            files = exports_in(os.path.join(out, mode))
            if not files:
                print(f"--reuse {args.reuse}: no exports of mode {mode} in {os.path.join(out, mode)}")
                return 2
            batches.append((mode, files))
            continue
        policies = [p for p in args.policies.split(",") if p] or ["random"]
        files = []
        for k, policy in enumerate(policies):
            n = args.games // len(policies) + (1 if k < args.games % len(policies) else 0)
            files += generate(args.referee, mode, n, args.seed, out, policy)
        batches.append((mode, files))

    divergences = load_divergences(args.divergences)
    patches = None if args.no_patches else divergence_patches(divergences)
    print("oracle: " + (f"patched ({', '.join(os.path.relpath(p, ROOT) for p in patches)})"
                        if patches else "unpatched"))
    results = []
    table = []
    for mode, files in batches:
        oracle = run_oracle(files, patches)
        # Games that agree only with the patches: whether they needed them, asked of the
        # unmodified oracle in one batch.
        plain_needed = []
        exports = {}
        for path in files:
            with open(path) as f:
                exports[path] = json.load(f)
            o = oracle.get(path, {})
            if o.get("corrections"):
                plain_needed.append(path)
        plain_reports = run_oracle(plain_needed) if patches and plain_needed else {}
        causes = collections.Counter()
        accepted = same = corrected = known = 0
        for path in files:
            export = exports[path]
            # Our game as played (`referee_snapshots`, written with the export), else our
            # importer's replay of the export.
            ours = ({"snapshots": export["referee_snapshots"]} if "referee_snapshots" in export
                    else our_replay(args.referee, path))
            o = oracle.get(path, {"fatal": "no answer from the oracle"})
            after = oracle_after(path, patches)
            diff = first_difference(export, ours, o, after)
            if diff is None and not export.get("referee_export_failure"):
                # The oracle agrees; our importer must read the export back to the end too.
                diff = reread_stop(args.referee, path)
            fixes = corrections_before(o, diff)
            harmless = []
            if diff is None and fixes:
                # Whether the game needed them: the unmodified oracle on the same file.
                plain = plain_reports.get(path, {"fatal": "no answer from the oracle"})
                if first_difference(export, ours, plain, oracle_after(path)) is None:
                    harmless, fixes = fixes, []
            if o.get("finished") and not o.get("error"):
                accepted += 1
            name = os.path.relpath(path, out)
            # An entry marked `only_unpatched` names a cause its patch rules out: with the
            # patch loaded, a stop it would match has another cause.
            listed = [d for d in divergences if not (patches and d.get("only_unpatched"))]
            div = (known_divergence(diff, listed, export, o, after)
                   if diff else None)
            behind = f" (behind listed corrections: {', '.join(fixes)})" if fixes else ""
            if div and patches and div.get("patch"):
                # A stop on an entry whose patch was loaded: the patch did not cover this case,
                # or the entry's pattern matches another cause. Not a listed stop: a difference
                # to look at (it fails the run like any other).
                causes[f"known divergence {div['id']} [stops although its patch is loaded]"] += 1
                print(f"{name}: known divergence {div['id']} ({div['rule']}) -- {diff[1]}{behind}"
                      " [stops although its patch is loaded]")
                div = None
            elif div:
                known += 1
                causes[f"known divergence {div['id']}"] += 1
                print(f"{name}: known divergence {div['id']} ({div['rule']}) -- {diff[1]}{behind}")
            elif diff:
                causes[diff[0]] += 1
                print(f"{name}: {diff[0]} -- {diff[1]}{behind}")
            elif fixes:
                corrected += 1
                print(f"{name}: same result, with listed corrections: {', '.join(fixes)} "
                      f"({o.get('game_end_reason')})")
            else:
                same += 1
                if harmless:
                    print(f"{name}: same result ({o.get('game_end_reason')}; corrections made "
                          f"but not needed, the unmodified oracle agrees too: {', '.join(harmless)})")
                elif not args.quiet:
                    print(f"{name}: same result ({o.get('game_end_reason')})")
            results.append({"mode": mode, "file": name, "difference": diff,
                            "known_divergence": div and div["id"],
                            "corrections": o.get("corrections") or [],
                            "corrected_before_difference": fixes,
                            "corrections_not_needed": harmless,
                            "oracle_finished": o.get("finished"), "oracle_error": o.get("error")})
        table.append((mode, len(files), accepted, same, corrected, known, causes))
    print()
    print("| mode | games | accepted by the oracle to the end | same result, every snapshot equal "
          "| same result with listed corrections (patched oracle) | known rule divergence "
          "| first difference (cause: games) |")
    print("|---|---|---|---|---|---|---|")
    for mode, n, accepted, same, corrected, known, causes in table:
        cause_text = "; ".join(f"{c}: {k}" for c, k in causes.most_common()) or "-"
        print(f"| {mode} | {n} | {accepted} | {same} | {corrected} | {known} | {cause_text} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if not args.out:
        shutil.rmtree(out, ignore_errors=True)
    # A recorded game is one 18xx.games itself played: no correction may touch it.
    recorded_ok = all(n == same for mode, n, _, same, _, _, _ in table if mode == "recorded")
    all_ok = all(n == same + corrected + known for _, n, _, same, corrected, known, _ in table)
    if PLAYOUT_FAILURES:
        print(f"\n{len(PLAYOUT_FAILURES)} playouts failed or wrote fewer games than asked:")
        for line in PLAYOUT_FAILURES:
            print(f"  {line}")
        return 1
    if args.strict_recorded:
        return 0 if all_ok else (1 if not recorded_ok else 3)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
