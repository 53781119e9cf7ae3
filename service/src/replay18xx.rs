//! `referee replay-18xx FILE.json [--check]`: replays a game of 1841 exported from
//! 18xx.games through the engine and prints one JSON object.
//!
//! Output: `game_id`, `actions_total` (effective actions after undo/redo filtering),
//! `actions_applied`, `finished`, `result` (final value by 18xx player id, or `null`),
//! `game_end_reason`, and `stopped_at` (`action_id`, `type`, `reason`, and for a refused
//! action `code` and `rule`) when the replay could not go on. With `--check` the recorded
//! `result` and `game_end_reason` are compared too, and the first difference is reported in
//! `check`. Exit status: 0 when the game was replayed to its end (and matches, with
//! `--check`), 1 otherwise, 2 when the file cannot be read.

use std::process::ExitCode;

use referee_engine::Game;
use referee_engine::g1841::G1841;
use referee_engine::g1841::import18xx::{ImportedAction, parse_export};
use serde_json::{Value, json};

/// Action types of an export that change nothing in the game (chat, client automation,
/// records the engine derives itself).
const IGNORED: &[&str] = &["message", "destination_connection", "program_disable"];

fn ignored(kind: &str) -> bool {
    IGNORED.contains(&kind) || kind.starts_with("program_")
}

fn stop(action: &ImportedAction, reason: String, code: Option<&str>, rule: Option<&str>) -> Value {
    json!({
        "action_id": action.id,
        "type": action.kind,
        "reason": reason,
        "code": code,
        "rule": rule,
    })
}

/// Replays the export text; returns the report and whether the replay reached the game's end
/// (and, with `check`, matched the recorded result).
pub fn replay(text: &str, check: bool) -> (Value, bool) {
    let export = match parse_export(text) {
        Ok(e) => e,
        Err(e) => return (json!({ "error": e.to_string() }), false),
    };
    let options = match export.options() {
        Ok(o) => o,
        Err(e) => return (json!({ "error": e.to_string() }), false),
    };
    let seats = u32::try_from(export.players.len()).unwrap_or(u32::MAX);
    let mut state = match G1841::setup(&options, seats, 0) {
        Ok(s) => s,
        Err(e) => return (json!({ "error": e.to_string() }), false),
    };
    let mut applied = 0u64;
    let mut stopped_at = Value::Null;
    for action in &export.actions {
        if ignored(&action.kind) {
            continue;
        }
        match action.to_action(&state) {
            Err(e) => {
                stopped_at = stop(action, e.to_string(), None, None);
                break;
            }
            Ok(None) => {
                stopped_at = stop(
                    action,
                    format!(
                        "action type `{}` is not supported by this build yet",
                        action.kind
                    ),
                    None,
                    None,
                );
                break;
            }
            Ok(Some((seat, a))) => match G1841::apply(&mut state, seat, &a) {
                Ok(_) => applied += 1,
                Err(r) => {
                    stopped_at = stop(
                        action,
                        r.message.clone(),
                        Some(r.code.as_str()),
                        Some(&r.rule),
                    );
                    break;
                }
            },
        }
    }
    let outcome = G1841::outcome(&state);
    let result = outcome.as_ref().map(|o| {
        export
            .players
            .iter()
            .zip(&o.scores)
            .map(|(p, score)| (p.id.clone(), json!(score)))
            .collect::<serde_json::Map<_, _>>()
    });
    let end_reason = outcome.as_ref().map(|o| o.end_reason.clone());
    let finished = outcome.is_some() && stopped_at.is_null();
    let mut report = json!({
        "game_id": export.id,
        "actions_total": export.actions.iter().filter(|a| !ignored(&a.kind)).count(),
        "actions_applied": applied,
        "finished": finished,
        "result": result,
        "game_end_reason": end_reason,
        "stopped_at": stopped_at,
    });
    let mut ok = finished;
    if check {
        // The recorded result, read only when asked for (parsing the export costs as much as
        // the rest of a replay).
        let recorded: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let difference = if !finished {
            Some(
                json!({"field": "finished", "reason": "the replay did not reach the end of the game", "action_id": report["stopped_at"]["action_id"]}),
            )
        } else if report["game_end_reason"] != recorded["game_end_reason"] {
            Some(
                json!({"field": "game_end_reason", "ours": report["game_end_reason"], "recorded": recorded["game_end_reason"]}),
            )
        } else {
            let ours = report["result"].as_object().cloned().unwrap_or_default();
            let theirs = recorded["result"].as_object().cloned().unwrap_or_default();
            theirs
                .iter()
                .find(|(pid, v)| ours.get(*pid) != Some(v))
                .map(|(pid, v)| json!({"field": format!("result.{pid}"), "ours": ours.get(pid), "recorded": v}))
        };
        ok = ok && difference.is_none();
        report["check"] = json!({ "ok": difference.is_none(), "difference": difference });
    }
    (report, ok)
}

/// Runs the subcommand: prints the report as one JSON line.
pub fn main(path: &std::path::Path, check: bool) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("referee replay-18xx: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let (report, ok) = replay(&text, check);
    println!("{report}");
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
