//! `referee replay-18xx FILE.json [--check] [--stop-at ID] [--export-18xx OUT]` and
//! `referee export-18xx`.
//!
//! `replay-18xx` replays a game of 1841 exported from 18xx.games through the engine
//! ([`referee_engine::g1841::import18xx::replay`], the function `ImportGame` calls too) and
//! prints one JSON object: `game_id`, `actions_total` (game actions after undo/redo
//! filtering), `actions_applied`, `finished`, `result` (final value by 18xx player id, or
//! `null`), `game_end_reason`, `passes_dropped` and `records_dropped` (records of steps the
//! engine skips or decisions it takes itself, accepted and dropped) with `dropped` listing
//! each (`action_id`, `index`, `action_type`, `auto`, `reason`), `passes_inserted` (passes of
//! optional steps the engine opens where 18xx.games offered nothing), `choices_inserted`
//! (answers of corporate events the engine asks where 18xx.games had one option and settled
//! them itself: a merger presidency not claimed, an odd share sold), and when the replay could
//! not go on `stopped_at` (`kind`,
//! `action_id`, `index`, `type`, `field`, `reason`, and for a refused action `code` and
//! `rule`; for a file that cannot be read also `line`/`column`, and `error` with the reason).
//! With `--check` the recorded `result` and `game_end_reason` are compared too, and the first
//! difference is reported in `check`. With `--stop-at ID` the replay stops after the actions
//! with an id up to ID (`stopped_at_limit`). Exit status: 0 when the game was replayed to its
//! end (and matches, with `--check`; with `--stop-at`, when it stopped there without error),
//! 1 otherwise, 2 when the file cannot be read. With `--export-18xx OUT` the replayed actions
//! are written back as an 18xx.games export (the conformance harness loads it in 18xx.games'
//! own engine, `scripts/oracle-sample.sh`); a failed export is reported in `export_failure` /
//! `export_error` and makes the exit status 1.
//!
//! `export-18xx GAME.json` writes a game played on Referee as an 18xx.games export on stdout
//! (or `--out FILE`): GAME.json is the game as `Replay` takes it (a `ReplayRequest` in proto3
//! JSON: `{"game": "1841", "seats": 4, "options": {...}, "actions": [{"seat": 0, "action":
//! {"g1841": {...}}}, ...]}`) or a whole `ExportGameRequest` (`{"game": {…ReplayRequest…},
//! "players": [{"id": "512", "name": "Ann"}], "sourceGameId": 7}`). The same code as the
//! `ExportGame` RPC. Exit status: 0 when every action was written, 1 when an action was
//! refused (the export up to it is still printed, the reason on stderr), 2 for a file that
//! cannot be read or a request that cannot be judged.

use std::process::ExitCode;

use referee_engine::Game;
use referee_engine::g1841::export18xx;
use referee_engine::g1841::import18xx::{ReplaySettings, Replayed, replay as replay_export};
use referee_engine::g1841::state::{Round, ShareOwner, State};
use referee_engine::g1841::{G1841, import18xx::ExportPlayer};
use serde_json::{Value, json};

use crate::pb::v1 as pb;

fn stopped_at(r: &Replayed) -> Value {
    let Some(f) = &r.failure else {
        return Value::Null;
    };
    json!({
        "kind": f.kind,
        "action_id": f.action_id,
        "index": f.action_index,
        "type": f.action_type,
        "field": f.field,
        "reason": f.reason,
        "code": f.rejection.as_ref().map(|r| r.code.as_str()),
        "rule": f.rejection.as_ref().map(|r| r.rule.clone()),
        "line": f.line,
        "column": f.column,
    })
}

/// Replays the export text; returns the report and whether the replay reached the game's end
/// (and, with `check`, matched the recorded result).
pub fn replay(text: &str, check: bool) -> (Value, bool) {
    replay_with(
        text,
        &ReplaySettings {
            check,
            stop_at_action_id: None,
        },
    )
}

/// [`replay`] with every setting: the report and whether it succeeded (see the module docs).
pub fn replay_with(text: &str, settings: &ReplaySettings) -> (Value, bool) {
    let r = replay_export(text, settings);
    let Some(export) = r.export.as_ref() else {
        // The text could not be read at all.
        let reason = r.failure.as_ref().map(|f| f.reason.clone());
        return (
            json!({ "error": reason, "stopped_at": stopped_at(&r) }),
            false,
        );
    };
    let result = r.outcome.as_ref().map(|o| {
        export
            .players
            .iter()
            .zip(&o.scores)
            .map(|(p, score)| (p.id.clone(), json!(score)))
            .collect::<serde_json::Map<_, _>>()
    });
    let mut report = json!({
        "game_id": export.id,
        "actions_total": r.actions_total,
        "actions_applied": r.actions.len(),
        "finished": r.finished,
        "stopped_at_limit": r.stopped_at_limit,
        "result": result,
        "game_end_reason": r.outcome.as_ref().map(|o| o.end_reason.clone()),
        "stopped_at": stopped_at(&r),
        "passes_dropped": r.passes_dropped,
        "records_dropped": r.records_dropped,
        "passes_inserted": r.passes_inserted,
        "choices_inserted": r.choices_inserted,
        "dropped": r.dropped,
    });
    if r.state.is_none()
        && let Some(f) = &r.failure
    {
        report["error"] = Value::from(f.to_string());
    }
    let mut ok = r.finished || (r.stopped_at_limit && r.failure.is_none());
    if let Some(difference) = &r.check {
        ok = ok && difference.is_none();
        report["check"] = json!({
            "ok": difference.is_none(),
            "difference": difference.as_ref().map(|d| json!({
                "field": d.field,
                "ours": d.ours,
                "recorded": d.recorded,
                "reason": d.reason,
            })),
        });
    }
    (report, ok)
}

/// The replayed actions of `r` written back as an 18xx.games export (the same players, id and
/// options): `None` when the file could not be read at all.
pub fn reexport(r: &Replayed) -> Option<Result<export18xx::Exported, String>> {
    let export = r.export.as_ref()?;
    let options = match export.options() {
        Ok(o) => o,
        Err(e) => return Some(Err(e.to_string())),
    };
    let seats = u32::try_from(export.players.len()).unwrap_or(u32::MAX);
    Some(
        export18xx::export(
            &options,
            seats,
            &r.actions,
            &export18xx::ExportSettings {
                id: export.id,
                players: export.players.clone(),
                description: None,
            },
        )
        .map_err(|e| e.to_string()),
    )
}

/// The round as 18xx.games names it, with its number (to see a change).
fn round_key(state: &State) -> (&'static str, u32, u32) {
    match &state.round {
        Round::ConcessionRound(_) => ("Auction Round", 0, 0),
        Round::StockRound(r) => ("Stock Round", r.number, 0),
        Round::OperatingRound(r) => ("Operating Round", r.stock_round, r.number),
    }
}

fn percents(
    state: &State,
    owner: &ShareOwner,
    skip: Option<&str>,
) -> serde_json::Map<String, Value> {
    state
        .corporations
        .iter()
        .filter(|c| Some(c.sym.as_str()) != skip)
        .filter_map(|c| {
            let pct: u32 = c
                .certificates
                .iter()
                .filter(|x| &x.owner == owner)
                .map(|x| x.percent)
                .sum();
            (pct > 0).then(|| (c.sym.clone(), Value::from(pct)))
        })
        .collect()
}

/// The state in the shape of the snapshots of 18xx.games' engine driver (`oracle.rb`, in
/// `REFEREE_ORACLE_18XX`): `round`, `phase`, `bank`, `players` (`id`, `cash`, `shares`),
/// `pool`, `corps` (`sym`, `closed`, `cash`, `price`, `ipo_pct`, `shares`, `trains`,
/// `tokens`), so that the conformance harness compares the two field by field.
pub fn oracle_snapshot(
    state: &State,
    players: &[ExportPlayer],
    kind: &str,
    at: Option<i64>,
) -> Value {
    let id = |seat: usize| {
        players.get(seat).map_or(Value::Null, |p| {
            p.id.parse::<i64>()
                .map_or_else(|_| Value::from(p.id.clone()), Value::from)
        })
    };
    let corps: Vec<Value> = state
        .corporations
        .iter()
        .filter(|c| c.share_price.is_some() || c.closed)
        .map(|c| {
            let mut trains = state
                .operations
                .trains
                .get(&c.sym)
                .cloned()
                .unwrap_or_default();
            trains.sort();
            let mut tokens: Vec<&str> = c.tokens.iter().map(|t| t.hex.as_str()).collect();
            tokens.sort_unstable();
            let ipo: u32 = c
                .certificates
                .iter()
                .filter(|x| x.owner == ShareOwner::Ipo)
                .map(|x| x.percent)
                .sum();
            json!({
                "sym": c.sym, "closed": c.closed, "cash": c.cash, "price": c.price(),
                "ipo_pct": ipo,
                "shares": percents(state, &ShareOwner::Corporation(c.sym.clone()), Some(&c.sym)),
                "trains": trains, "tokens": tokens,
            })
        })
        .collect();
    let (round, _, _) = round_key(state);
    json!({
        "kind": kind,
        "at": at,
        "round": round,
        "phase": state.phase,
        "bank": state.bank_cash,
        "players": state.players.iter().enumerate().map(|(i, p)| json!({
            "id": id(i), "cash": p.cash,
            "shares": percents(state, &ShareOwner::Player(p.seat), None),
        })).collect::<Vec<_>>(),
        "pool": percents(state, &ShareOwner::Pool, None),
        "corps": corps,
    })
}

/// Our snapshots of a replay in the shape of `oracle.rb`'s: at the start, after each record
/// (action id) during which the round changed, and at the end.
pub fn oracle_snapshots(r: &Replayed) -> Vec<Value> {
    let Some(export) = r.export.as_ref() else {
        return Vec::new();
    };
    let Ok(options) = export.options() else {
        return Vec::new();
    };
    play_snapshots(&options, &export.players, &r.actions, &r.action_ids)
}

/// Top-level field of an export written by the command line tools: [`play_snapshots`] of
/// the game exported.
pub const SNAPSHOTS: &str = "referee_snapshots";

/// The snapshots of a game played as `actions` (with `players`, one per seat), in the shape
/// of `oracle.rb`'s: at the start, after each record during which the round changed (the
/// record of each action is `ids[index]`: a replay's record ids, or an export's
/// [`export18xx::Exported::action_ids`]), and at the end. Written beside an export by
/// `playout --export-18xx` and `replay-18xx --export-18xx` (`referee_snapshots`), so that the
/// conformance harness compares the game as it was played with the oracle's replay of it.
pub fn play_snapshots(
    options: &referee_engine::g1841::Options,
    players: &[ExportPlayer],
    actions: &[(referee_engine::Seat, referee_engine::g1841::Action)],
    ids: &[Option<i64>],
) -> Vec<Value> {
    let seats = u32::try_from(players.len()).unwrap_or(u32::MAX);
    let Ok(mut state) = G1841::setup(options, seats, 0) else {
        return Vec::new();
    };
    let mut out = vec![oracle_snapshot(&state, players, "start", None)];
    let mut changed = false;
    // The latest record so far: Version 1 sealed bids are written in player order, so the
    // record of a round's last action need not be the round's last record.
    let mut latest = None;
    for (i, (seat, action)) in actions.iter().enumerate() {
        let before = round_key(&state);
        if G1841::apply(&mut state, *seat, action).is_err() {
            break;
        }
        changed |= round_key(&state) != before;
        let id = ids.get(i).copied().flatten();
        latest = latest.max(id);
        let last_of_record = ids.get(i + 1).copied().flatten() > latest;
        if changed && last_of_record && i + 1 < actions.len() {
            out.push(oracle_snapshot(&state, players, "round", latest));
            changed = false;
        }
    }
    let at = latest;
    out.push(oracle_snapshot(&state, players, "end", at));
    out
}

/// Runs `referee replay-18xx`: prints the report as one JSON line; with `export_to`, writes
/// the replayed actions back as an 18xx.games export there ([`reexport`]).
pub fn main(
    path: &std::path::Path,
    check: bool,
    stop_at: Option<i64>,
    export_to: Option<&std::path::Path>,
    snapshots: bool,
) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("referee replay-18xx: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let settings = ReplaySettings {
        check,
        stop_at_action_id: stop_at,
    };
    let (mut report, mut ok) = replay_with(&text, &settings);
    if snapshots {
        report["snapshots"] = Value::Array(oracle_snapshots(&replay_export(&text, &settings)));
    }
    if let Some(out) = export_to {
        let replayed = replay_export(&text, &settings);
        let written = match reexport(&replayed) {
            None => Err("the file could not be read".to_string()),
            Some(Err(e)) => Err(e),
            Some(Ok(exported)) => {
                if let Some(f) = &exported.failure {
                    report["export_failure"] = json!({"index": f.index, "reason": f.reason});
                    ok = false;
                }
                let mut json = exported.json;
                if let Some((export, options)) = replayed
                    .export
                    .as_ref()
                    .and_then(|e| e.options().ok().map(|o| (e, o)))
                {
                    let ids: Vec<Option<i64>> =
                        exported.action_ids.iter().map(|i| Some(*i)).collect();
                    json[SNAPSHOTS] = Value::Array(play_snapshots(
                        &options,
                        &export.players,
                        &replayed.actions,
                        &ids,
                    ));
                }
                serde_json::to_string(&json)
                    .map_err(|e| e.to_string())
                    .and_then(|t| {
                        std::fs::write(out, t)
                            .map_err(|e| format!("cannot write {}: {e}", out.display()))
                    })
            }
        };
        if let Err(e) = written {
            report["export_error"] = Value::from(e);
            ok = false;
        }
    }
    crate::cli::print_result(&report);
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Reads the input of `export-18xx`: a `ReplayRequest` (its `game` is a string) or an
/// `ExportGameRequest` (its `game` is an object), both in proto3 JSON.
pub fn export_request(text: &str) -> Result<pb::ExportGameRequest, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    if value.get("game").is_some_and(Value::is_object) {
        serde_json::from_value(value).map_err(|e| {
            format!(
                "not a valid ExportGameRequest (proto3 JSON): {}",
                crate::http_json::serde_message(&e)
            )
        })
    } else {
        let game: pb::ReplayRequest = serde_json::from_value(value).map_err(|e| {
            format!(
                "not a valid ReplayRequest (proto3 JSON): {}",
                crate::http_json::serde_message(&e)
            )
        })?;
        Ok(pb::ExportGameRequest {
            game: Some(game),
            ..Default::default()
        })
    }
}

/// Runs `referee export-18xx`: the export on stdout or in `out`.
pub fn export_main(path: &std::path::Path, out: Option<&std::path::Path>) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("referee export-18xx: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let req = match export_request(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("referee export-18xx: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let resp = match crate::game_records::export_game(&req) {
        Ok(r) => r,
        Err(status) => {
            eprintln!(
                "referee export-18xx: {:?}: {}",
                status.code(),
                status.message()
            );
            return ExitCode::from(2);
        }
    };
    let written = match out {
        Some(file) => std::fs::write(file, &resp.export_json)
            .map_err(|e| format!("cannot write {}: {e}", file.display())),
        None => {
            crate::cli::print_result(&resp.export_json);
            Ok(())
        }
    };
    if let Err(e) = written {
        eprintln!("referee export-18xx: {e}");
        return ExitCode::from(2);
    }
    match resp.failure {
        None => ExitCode::SUCCESS,
        Some(f) => {
            let code = f
                .rejection
                .as_ref()
                .map(|r| r.code().as_str_name())
                .unwrap_or("NOT_REPRESENTABLE");
            eprintln!(
                "referee export-18xx: action {} ({code}): {}; the export holds the {} actions before it",
                f.index, f.message, resp.actions_exported
            );
            ExitCode::FAILURE
        }
    }
}
