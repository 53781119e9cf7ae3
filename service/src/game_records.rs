//! Games recorded by other programs, both ways: `ImportGame` (an 18xx.games export of 1841
//! replayed through the engine) and `ExportGame` (a game's setup and actions written as an
//! 18xx.games export). The work is the engine's ([`referee_engine::g1841::import18xx::replay`],
//! shared with `referee replay-18xx`, and [`referee_engine::g1841::export18xx::export`]); this
//! module maps requests and results to the wire. Sealing is the caller's ([`crate::api`]).
//!
//! Every problem with the recorded game itself (unreadable or truncated JSON, an unknown
//! action type, a field of the wrong shape, an action the rules refuse) is an ordinary answer
//! with a typed `failure` naming the action id, the field and the reason; gRPC errors are only
//! for requests that cannot be judged (an unknown `format`, a `game` other than 1841 to
//! export, options or seats NewGame would refuse).

use std::collections::BTreeMap;

use referee_engine::g1841::Options;
use referee_engine::g1841::export18xx::{self, ExportError, ExportFailureKind, ExportSettings};
use referee_engine::g1841::import18xx::{
    self, Difference, ExportPlayer, FailureKind, ImportFailure, ReplaySettings,
};
use serde_json::Value;
use tonic::Status;

use crate::games::g1841::Wire1841;
use crate::games::{WireGame, encode_state, rejection_to_pb};
use crate::pb::v1 as pb;

/// Checks the `format` field: unset or the 18xx.games export.
fn check_format(format: i32) -> Result<(), Status> {
    match pb::GameRecordFormat::try_from(format) {
        Ok(pb::GameRecordFormat::Unspecified | pb::GameRecordFormat::EighteenXxGamesExport) => {
            Ok(())
        }
        _ => Err(Status::invalid_argument(format!(
            "format: {format} is not a format this server reads or writes (GAME_RECORD_FORMAT_EIGHTEEN_XX_GAMES_EXPORT)"
        ))),
    }
}

/// The options as NewGame takes them: each optional rule set, `true`, and each FAQ option set
/// explicitly (1841 §0.2, `1841-faq.md` §7), `true` or `false` — an 18xx.games export imports
/// with every FAQ option off (`import18xx::Export::options`), so NewGame with this map and the
/// imported actions gives the imported state.
pub fn options_map(options: &Options) -> BTreeMap<String, String> {
    let mut map: BTreeMap<String, String> = export18xx::optional_rules(options)
        .into_iter()
        .map(|name| (name, "true".to_string()))
        .collect();
    for (name, on) in options.faq_options_set() {
        map.insert(name.to_string(), on.to_string());
    }
    map
}

fn failure_kind(kind: FailureKind) -> pb::ImportFailureKind {
    match kind {
        FailureKind::TruncatedJson => pb::ImportFailureKind::TruncatedJson,
        FailureKind::MalformedJson => pb::ImportFailureKind::MalformedJson,
        FailureKind::MissingField => pb::ImportFailureKind::MissingField,
        FailureKind::UnsupportedGame => pb::ImportFailureKind::UnsupportedGame,
        FailureKind::UnknownOption => pb::ImportFailureKind::UnknownOption,
        FailureKind::UndoTargetMissing => pb::ImportFailureKind::UndoTargetMissing,
        FailureKind::Setup => pb::ImportFailureKind::Setup,
        FailureKind::BadAction => pb::ImportFailureKind::BadAction,
        FailureKind::UnknownActionType => pb::ImportFailureKind::UnknownActionType,
        FailureKind::Refused => pb::ImportFailureKind::Refused,
    }
}

/// An import failure on the wire (messages cut to [`crate::games::MAX_MESSAGE_CHARS`]).
pub fn failure_to_pb(f: &ImportFailure) -> pb::ImportFailure {
    let clip = |s: &str| crate::games::clip(s).into_owned();
    pb::ImportFailure {
        kind: failure_kind(f.kind) as i32,
        action_id: f.action_id,
        action_index: f.action_index.map(|i| u32::try_from(i).unwrap_or(u32::MAX)),
        action_type: clip(f.action_type.as_deref().unwrap_or_default()),
        field: clip(f.field.as_deref().unwrap_or_default()),
        message: clip(&f.reason),
        rejection: f.rejection.as_ref().map(rejection_to_pb),
        line: f.line.map(|l| u32::try_from(l).unwrap_or(u32::MAX)),
        column: f.column.map(|c| u32::try_from(c).unwrap_or(u32::MAX)),
    }
}

fn value_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

fn check_to_pb(d: Option<&Difference>) -> pb::ImportCheck {
    match d {
        None => pb::ImportCheck {
            ok: true,
            ..Default::default()
        },
        Some(d) => pb::ImportCheck {
            ok: false,
            field: d.field.clone(),
            ours: value_text(d.ours.as_ref()),
            recorded: value_text(d.recorded.as_ref()),
            message: crate::games::clip(&d.reason).into_owned(),
        },
    }
}

/// ImportGame in open mode (the caller seals `state`). Errors: INVALID_ARGUMENT for an
/// unknown `format` or a negative `stop_at_action_id`; everything about the recorded game is in the response.
pub fn import_game(req: &pb::ImportGameRequest) -> Result<pb::ImportGameResponse, Status> {
    check_format(req.format)?;
    if let Some(id) = req.stop_at_action_id.filter(|id| *id < 0) {
        return Err(Status::invalid_argument(format!(
            "stop_at_action_id: {id} is not an 18xx.games action id (ids start at 1; 0 stops \
             before the first action)"
        )));
    }
    let replayed = import18xx::replay(
        &req.export_json,
        &ReplaySettings {
            check: req.check,
            stop_at_action_id: req.stop_at_action_id,
        },
    );
    let applied = replayed.actions.len() as u64;
    if replayed.cancelled {
        return Err(crate::work::Cancel::stopped(&format!(
            "after {applied} of {} actions",
            replayed.actions_total
        )));
    }
    let mut failure = replayed.failure.as_ref().map(failure_to_pb);
    let state = match replayed.state.as_ref() {
        Some(s) => match Wire1841::check_encodable(s) {
            Ok(()) => Some(encode_state::<Wire1841>(s, applied)),
            Err(r) => {
                failure.get_or_insert_with(|| pb::ImportFailure {
                    kind: pb::ImportFailureKind::Refused as i32,
                    message: crate::games::clip(&r.message).into_owned(),
                    rejection: Some(rejection_to_pb(&r)),
                    ..Default::default()
                });
                None
            }
        },
        None => None,
    };
    let export = replayed.export.as_ref();
    let scores = replayed.outcome.as_ref().map(|o| o.scores.as_slice());
    let players = export
        .map(|e| {
            e.players
                .iter()
                .enumerate()
                .map(|(seat, p)| pb::ExternalPlayer {
                    seat: u32::try_from(seat).unwrap_or(u32::MAX),
                    id: p.id.clone(),
                    name: p.name.clone(),
                    result: scores.and_then(|s| s.get(seat)).copied(),
                    recorded_result: e.result.get(&p.id).copied(),
                })
                .collect()
        })
        .unwrap_or_default();
    let options = export
        .and_then(|e| e.options().ok())
        .map(|o| options_map(&o))
        .unwrap_or_default();
    Ok(pb::ImportGameResponse {
        state,
        sealed_state: Vec::new(),
        seat_views: Vec::new(),
        caller_view: None,
        seat_credentials: Vec::new(),
        actions_applied: applied,
        actions_total: replayed.actions_total as u64,
        actions: replayed
            .actions
            .iter()
            .map(|(seat, a)| pb::SeatAction {
                seat: *seat,
                action: Some(Wire1841::action_to_pb(a)),
            })
            .collect(),
        players,
        game: Wire1841::ID.to_string(),
        options,
        source_game_id: export.and_then(|e| e.id).unwrap_or(0),
        finished: replayed.finished,
        game_end_reason: replayed
            .outcome
            .as_ref()
            .map(|o| o.end_reason.clone())
            .unwrap_or_default(),
        stopped_at_limit: replayed.stopped_at_limit,
        failure,
        check: replayed.check.as_ref().map(|d| check_to_pb(d.as_ref())),
    })
}

/// Refuses two players with the same 18xx.games id (an export names players by id, so it
/// could not say who acted). Ids are compared as the export writes them: digits as a number
/// (`7` and `07` are the same player), anything else as text. INVALID_ARGUMENT names the
/// second one (`players[2].id`).
fn check_player_ids(players: &[pb::ExternalPlayer]) -> Result<(), Status> {
    let key = |id: &str| {
        id.parse::<i64>()
            .map_or_else(|_| id.to_string(), |n| n.to_string())
    };
    let mut seen = BTreeMap::new();
    for (i, p) in players.iter().enumerate() {
        if let Some(first) = seen.insert(key(&p.id), i) {
            return Err(Status::invalid_argument(format!(
                "players[{i}].id: `{}` is already the id of players[{first}]; every player needs a different id",
                crate::games::clip(&p.id)
            )));
        }
    }
    Ok(())
}

/// ExportGame. Errors: INVALID_ARGUMENT for an unknown `format`, a missing `game`, options or
/// seats NewGame would refuse, or `players` not one per seat; NOT_FOUND / UNIMPLEMENTED for a
/// game other than 1841 (Autobahn has no external format), two players with one id. A refused
/// action is `failure`.
pub fn export_game(req: &pb::ExportGameRequest) -> Result<pb::ExportGameResponse, Status> {
    check_format(req.format)?;
    let game = req
        .game
        .as_ref()
        .ok_or_else(|| Status::invalid_argument("game: missing (the game as Replay takes it)"))?;
    match game.game.as_str() {
        Wire1841::ID => {}
        "autobahn" => {
            return Err(Status::unimplemented(
                "game.game: `autobahn` has no external record format; ExportGame writes 1841",
            ));
        }
        "" => return Err(Status::invalid_argument("game.game: missing game id")),
        other => {
            return Err(Status::not_found(format!(
                "game.game: unknown game `{other}`"
            )));
        }
    }
    let options = Wire1841::options_from_pb(&game.options)
        .map_err(|s| Status::invalid_argument(format!("game.{}", s.message())))?;
    // Decode the actions; the first that cannot be decoded ends the export as Replay would.
    let mut actions = Vec::with_capacity(game.actions.len());
    let mut failure = None;
    for (index, sa) in game.actions.iter().enumerate() {
        let decoded = match sa.action.as_ref() {
            None => Err(referee_engine::Rejection::new(
                referee_engine::RejectionCode::InvalidArgument,
                "",
                "The entry carries no action.",
            )),
            Some(a) => Wire1841::action_from_pb(a),
        };
        match decoded {
            Ok(a) => actions.push((sa.seat, a)),
            Err(r) => {
                failure = Some(pb::ExportFailure {
                    index: u32::try_from(index).unwrap_or(u32::MAX),
                    message: crate::games::clip(&r.message).into_owned(),
                    rejection: Some(rejection_to_pb(&r)),
                });
                break;
            }
        }
    }
    check_player_ids(&req.players)?;
    let settings = ExportSettings {
        id: (req.source_game_id != 0).then_some(req.source_game_id),
        players: req
            .players
            .iter()
            .map(|p| ExportPlayer {
                id: p.id.clone(),
                name: p.name.clone(),
            })
            .collect(),
        description: (!req.description.is_empty()).then(|| req.description.clone()),
    };
    let written = export18xx::export(&options, game.seats, &actions, &settings).map_err(|e| {
        Status::invalid_argument(match e {
            ExportError::Setup(e) => format!("game.seats: {e}"),
            // Its message names the field already (`players: 3 listed for 4 seats`).
            ExportError::Players { .. } => e.to_string(),
        })
    })?;
    if let Some(f) = written.failure {
        failure = Some(pb::ExportFailure {
            index: u32::try_from(f.index).unwrap_or(u32::MAX),
            message: crate::games::clip(&f.reason).into_owned(),
            rejection: match f.kind {
                ExportFailureKind::Refused => f.rejection.as_ref().map(rejection_to_pb),
                ExportFailureKind::NotRepresentable => None,
            },
        });
    }
    let export_json = serde_json::to_string(&written.json)
        .map_err(|e| Status::internal(format!("could not write the export: {e}")))?;
    Ok(pb::ExportGameResponse {
        export_json,
        actions_exported: written.actions_exported as u64,
        failure,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export_with(seats: u32, ids: &[&str]) -> Result<pb::ExportGameResponse, Status> {
        export_game(&pb::ExportGameRequest {
            game: Some(pb::ReplayRequest {
                game: "1841".into(),
                seats,
                actions: vec![pb::SeatAction {
                    seat: 0,
                    action: Some(crate::games::g1841::Wire1841::action_to_pb(
                        &referee_engine::g1841::Action::Pass,
                    )),
                }],
                ..Default::default()
            }),
            players: ids
                .iter()
                .enumerate()
                .map(|(i, id)| pb::ExternalPlayer {
                    id: id.to_string(),
                    name: format!("P{i}"),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }

    /// Two players with one id are refused naming the field (`players[i].id`), also when
    /// the export would write them as the same number (`7`, `07`); distinct ids export.
    #[test]
    fn duplicate_player_ids_name_the_field() {
        let e = export_with(3, &["7", "8", "7"]).unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        assert_eq!(
            e.message(),
            "players[2].id: `7` is already the id of players[0]; every player needs a different id"
        );
        let e = export_with(3, &["5", "07", "7"]).unwrap_err();
        assert!(
            e.message()
                .starts_with("players[2].id: `7` is already the id of players[1]"),
            "{}",
            e.message()
        );
        let ok = export_with(3, &["5", "alice", "7"]).unwrap();
        assert_eq!(ok.failure, None);
        assert_eq!(ok.actions_exported, 1);
    }

    /// A player list of the wrong length says `players:` once.
    #[test]
    fn a_short_player_list_names_the_field_once() {
        let e = export_with(4, &["1", "2", "3"]).unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        assert_eq!(e.message(), "players: 3 listed for 4 seats");
    }

    /// A negative `stop_at_action_id` is refused before any work (18xx.games ids start at 1).
    #[test]
    fn negative_stop_at_is_invalid_argument() {
        let req = pb::ImportGameRequest {
            export_json: "{}".into(),
            stop_at_action_id: Some(-1),
            ..Default::default()
        };
        let e = import_game(&req).unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        assert_eq!(
            e.message(),
            "stop_at_action_id: -1 is not an 18xx.games action id (ids start at 1; 0 stops before the first action)"
        );
    }
}
