//! Mapping between the engine's games and the wire API, one module per game.
//!
//! [`WireGame`] is what a game must provide to be served; the generic functions below
//! implement every RPC once for all games: decode and validate the state envelope, call the
//! engine, encode the answer.

pub mod autobahn;
pub mod g1841;

use std::collections::BTreeMap;

use referee_engine::{Game, Rejection, RejectionCode, Seat, Viewer};
use sha2::{Digest, Sha256};
use tonic::Status;

use crate::SCHEMA_VERSION;
use crate::pb::v1 as pb;
use crate::work::Cancel;

/// A game the service can serve: its engine type plus the conversions to and from protobuf.
///
/// Errors: state conversion failures are `INVALID_ARGUMENT` statuses naming the field path
/// (`state.g1841.players[2].cash`); action conversion failures are rejections (the caller's
/// action is judged, not the request).
pub trait WireGame {
    /// The engine's game.
    type G: Game;
    /// Game id on the wire.
    const ID: &'static str;
    /// Name of the game's field in the `oneof`s of `referee.v1` (`g1841`, `autobahn`).
    const FIELD: &'static str;

    /// Parses NewGame options (`name → text value`).
    fn options_from_pb(
        options: &BTreeMap<String, String>,
    ) -> Result<<Self::G as Game>::Options, Status>;
    /// Encodes the typed state into the envelope's `oneof`.
    fn state_to_pb(state: &<Self::G as Game>::State) -> pb::game_state::State;
    /// [`WireGame::state_to_pb`] of a state that is not needed afterwards (it may be moved
    /// into the answer instead of copied). Default: `state_to_pb`.
    fn state_into_pb(state: <Self::G as Game>::State) -> pb::game_state::State {
        Self::state_to_pb(&state)
    }
    /// Decodes and validates the typed state from the envelope's `oneof`.
    fn state_from_pb(state: &pb::game_state::State) -> Result<<Self::G as Game>::State, Status>;
    /// Decodes an action; a malformed or foreign action is a rejection.
    fn action_from_pb(action: &pb::Action) -> Result<<Self::G as Game>::Action, Rejection>;
    /// Encodes an action (for Replay responses and tools).
    fn action_to_pb(action: &<Self::G as Game>::Action) -> pb::Action;
    /// Short name of an action's kind for logs and spans (`bid`, `pass`, ...).
    fn action_kind(action: &<Self::G as Game>::Action) -> &'static str;
    /// Encodes events.
    fn event_to_pb(event: &<Self::G as Game>::Event) -> pb::Event;
    /// The legal actions of `seat`, typed for the wire.
    fn legal_actions_pb(
        state: &<Self::G as Game>::State,
        seat: Seat,
    ) -> pb::legal_actions_response::LegalActions;
    /// Encodes a view.
    fn view_to_pb(view: &<Self::G as Game>::View) -> pb::view_response::View;
    /// Number of seats in a state.
    fn seat_count(state: &<Self::G as Game>::State) -> u32;

    /// Whether the wire mapping can carry `state` without losing anything. An action whose
    /// result could not be encoded faithfully is rejected with `UNSUPPORTED` instead (nothing is
    /// lost: the caller keeps the previous state). Default: every state can.
    fn check_encodable(_state: &<Self::G as Game>::State) -> Result<(), Rejection> {
        Ok(())
    }

    /// One English line describing an action, and whether Apply would accept it
    /// (the engine's `assist::describe`).
    fn describe(
        state: &<Self::G as Game>::State,
        seat: Seat,
        action: &<Self::G as Game>::Action,
    ) -> (String, Result<(), Rejection>);
    /// The timeout move "pass or minimal" (the engine's `assist::default_action`).
    fn default_action(
        state: &<Self::G as Game>::State,
        seat: Seat,
    ) -> Option<<Self::G as Game>::Action>;
    /// Whether an action is a pass (the engine's `assist::is_pass`).
    fn is_pass(action: &<Self::G as Game>::Action) -> bool;
    /// Actions the random policy picks rarely ([`crate::playout`]).
    fn rare(action: &<Self::G as Game>::Action) -> bool;
    /// The playout policy names this game answers (issue #23): `random`, `first`, then
    /// `heuristic` and the game's own bots when it has them.
    fn policy_names() -> &'static [&'static str] {
        &["random", "first"]
    }
    /// The game's bot named `name` (any name of [`WireGame::policy_names`] but `random` and
    /// `first`); `None` for names it does not have.
    fn bot(_name: &str) -> Option<crate::playout::BotFn<Self::G>> {
        None
    }
    /// The state as `seat` knows it, its secrets (what a seat's view hides) replaced by
    /// values that depend only on that view and `seed`: what a bot looks ahead on when it
    /// plays for a caller that may not see the secrets ([`default_action`]). Default: the
    /// state (a game without secrets).
    fn without_secrets(
        state: &<Self::G as Game>::State,
        _seat: Seat,
        _seed: u64,
    ) -> <Self::G as Game>::State {
        state.clone()
    }
    /// Why a legal action is a trap (its reward is certain to be lost), if it is.
    fn warning(
        _state: &<Self::G as Game>::State,
        _seat: Seat,
        _action: &<Self::G as Game>::Action,
    ) -> Option<String> {
        None
    }
}

/// Longest error or rejection message sent back, in characters. Caller input echoed in a
/// message (an unknown game id, an option value) is cut here, so a huge value cannot overflow
/// response headers or flood the logs.
pub const MAX_MESSAGE_CHARS: usize = 512;

/// Most actions one request may carry in its action list (ApplyBatch `actions`, Replay
/// `actions`, StreamReplay and ExportGame `game.actions`). Counted before any action is
/// decoded or applied ([`check_action_count`]); a protobuf pass is about 10 bytes, so the
/// request size limit alone would let a 4 MiB request carry 400,000 of them.
pub const MAX_REQUEST_ACTIONS: usize = 100_000;

/// `INVALID_ARGUMENT` naming the limit when the list `field` holds more than
/// [`MAX_REQUEST_ACTIONS`] actions (`n`); `batch`: the call is ApplyBatch, which can go on
/// from a returned state (the message says so).
pub fn check_action_count(field: &str, n: usize, batch: bool) -> Result<(), Status> {
    if n > MAX_REQUEST_ACTIONS {
        return Err(Status::invalid_argument(format!(
            "{field}: at most {MAX_REQUEST_ACTIONS} actions per request, got {n}{}",
            if batch {
                " (split the list: ApplyBatch continues from the state the previous call returned)"
            } else {
                ""
            }
        )));
    }
    Ok(())
}

/// A description for logs and confirmations (Describe `text`, DefaultAction `description`):
/// control characters (newlines, escape sequences) written as escapes (`\n`, `\u{1b}`) so a
/// caller's text cannot forge log lines or terminal output, then cut to
/// [`MAX_MESSAGE_CHARS`] ([`clip`]).
pub fn log_safe(text: &str) -> String {
    let escaped: std::borrow::Cow<'_, str> = if text.chars().any(char::is_control) {
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().collect::<String>()
                } else {
                    c.to_string()
                }
            })
            .collect::<String>()
            .into()
    } else {
        text.into()
    };
    clip(&escaped).into_owned()
}

/// `message` cut to [`MAX_MESSAGE_CHARS`] (with a marker), or unchanged when short enough.
pub fn clip(message: &str) -> std::borrow::Cow<'_, str> {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => std::borrow::Cow::Borrowed(message),
        Some((cut, _)) => std::borrow::Cow::Owned(format!("{}… (truncated)", &message[..cut])),
    }
}

/// A status whose message is cut to [`MAX_MESSAGE_CHARS`].
pub fn clip_status(status: Status) -> Status {
    match clip(status.message()) {
        std::borrow::Cow::Borrowed(_) => status,
        std::borrow::Cow::Owned(m) => Status::new(status.code(), m),
    }
}

/// Converts an engine rejection to the wire.
pub fn rejection_to_pb(r: &Rejection) -> pb::Rejection {
    let code = match r.code {
        RejectionCode::NotYourTurn => pb::RejectionCode::NotYourTurn,
        RejectionCode::WrongStep => pb::RejectionCode::WrongStep,
        RejectionCode::IllegalMove => pb::RejectionCode::IllegalMove,
        RejectionCode::InsufficientFunds => pb::RejectionCode::InsufficientFunds,
        RejectionCode::InvalidArgument => pb::RejectionCode::InvalidArgument,
        RejectionCode::GameOver => pb::RejectionCode::GameOver,
        RejectionCode::StaleState => pb::RejectionCode::StaleState,
        RejectionCode::Unsupported => pb::RejectionCode::Unsupported,
    };
    pb::Rejection {
        code: code as i32,
        message: clip(&r.message).into_owned(),
        rule: r.rule.clone(),
    }
}

/// A rejection for an action that belongs to another game than the state.
pub fn wrong_game(expected: &str) -> Rejection {
    Rejection {
        code: RejectionCode::InvalidArgument,
        message: format!("The action is not an action of {expected}."),
        rule: String::new(),
    }
}

/// Decodes the envelope of a state of game `W`: checks game id and schema version, then the
/// typed state. Errors: `INVALID_ARGUMENT` (with field path), `FAILED_PRECONDITION` for a
/// state written by a newer schema.
pub fn decode_state<W: WireGame>(gs: &pb::GameState) -> Result<<W::G as Game>::State, Status> {
    if gs.game != W::ID {
        return Err(Status::invalid_argument(format!(
            "state.game: expected `{}`, got `{}`",
            W::ID,
            gs.game
        )));
    }
    if gs.schema_version == 0 {
        return Err(Status::invalid_argument(
            "state.schema_version: missing (must be ≥ 1)",
        ));
    }
    if gs.schema_version > SCHEMA_VERSION {
        return Err(Status::failed_precondition(format!(
            "state.schema_version: {} was written by a newer Referee (this server reads up to {}); upgrade the server",
            gs.schema_version, SCHEMA_VERSION
        )));
    }
    if gs.action_count > MAX_ACTION_COUNT {
        return Err(Status::invalid_argument(format!(
            "state.action_count: must be at most {MAX_ACTION_COUNT}, got {}",
            gs.action_count
        )));
    }
    let typed = gs.state.as_ref().ok_or_else(|| {
        Status::invalid_argument(format!("state.{}: missing typed state", W::FIELD))
    })?;
    W::state_from_pb(typed)
}

/// Largest `action_count` a state may carry: 2^53 − 1, the largest integer every JSON reader
/// (a JavaScript number) holds exactly, and far beyond any game; so the count after an action
/// never saturates and stays the next one (docs/CLIENTS.md).
pub const MAX_ACTION_COUNT: u64 = (1 << 53) - 1;

/// Refuses (FAILED_PRECONDITION) to apply `n` actions to a state whose `action_count` would
/// then pass [`MAX_ACTION_COUNT`]: the answer would be a state no server reads back (issue
/// #24: a state at 2^53 − 1 was accepted and its successor refused).
pub fn check_room_for_actions(gs: &pb::GameState, n: usize) -> Result<(), Status> {
    let room = MAX_ACTION_COUNT.saturating_sub(gs.action_count);
    if n as u64 > room {
        return Err(Status::failed_precondition(format!(
            "state.action_count: {} leaves room for {room} more actions (at most {MAX_ACTION_COUNT} in a game), not {n}",
            gs.action_count
        )));
    }
    Ok(())
}

/// Wraps a typed state into the envelope.
pub fn encode_state<W: WireGame>(
    state: &<W::G as Game>::State,
    action_count: u64,
) -> pb::GameState {
    pb::GameState {
        game: W::ID.to_string(),
        rules_version: referee_engine::RULES_VERSION.to_string(),
        schema_version: SCHEMA_VERSION,
        action_count,
        state: Some(W::state_to_pb(state)),
    }
}

/// [`encode_state`] of a state that is not needed afterwards ([`WireGame::state_into_pb`]).
pub fn encode_state_into<W: WireGame>(
    state: <W::G as Game>::State,
    action_count: u64,
) -> pb::GameState {
    pb::GameState {
        game: W::ID.to_string(),
        rules_version: referee_engine::RULES_VERSION.to_string(),
        schema_version: SCHEMA_VERSION,
        action_count,
        state: Some(W::state_into_pb(state)),
    }
}

/// SHA-256 of the protobuf encoding of a state envelope (deterministic: maps are ordered).
pub fn state_hash(gs: &pb::GameState) -> [u8; 32] {
    use prost::Message;
    Sha256::digest(gs.encode_to_vec()).into()
}

/// NewGame for game `W`.
pub fn new_game<W: WireGame>(req: &pb::NewGameRequest) -> Result<pb::NewGameResponse, Status> {
    let options = W::options_from_pb(&req.options)?;
    let state = W::G::setup(&options, req.seats, req.seed)
        .map_err(|e| Status::invalid_argument(format!("{e}")))?;
    Ok(pb::NewGameResponse {
        state: Some(encode_state::<W>(&state, 0)),
        sealed_state: Vec::new(),
        seat_views: Vec::new(),
        caller_view: None,
        seat_credentials: Vec::new(),
    })
}

/// Result of [`apply`]: the wire response plus what the span should record.
pub struct Applied {
    /// The response.
    pub response: pb::ApplyResponse,
    /// Action kind, for tracing.
    pub action_kind: &'static str,
}

/// Apply for game `W`. Stale-state checks come first, then the engine.
pub fn apply<W: WireGame>(gs: &pb::GameState, req: &pb::ApplyRequest) -> Result<Applied, Status> {
    let mut state = decode_state::<W>(gs)?;
    check_room_for_actions(gs, 1)?;
    // A seat that is not at the table is a malformed request, as in LegalActions and View.
    check_seat::<W>(&state, req.seat)?;
    let reject = |r: Rejection, kind| Applied {
        response: pb::ApplyResponse {
            result: Some(pb::apply_response::Result::Rejected(pb::Rejected {
                rejection: Some(rejection_to_pb(&r)),
            })),
        },
        action_kind: kind,
    };
    if let Some(expected) = req.expected_action_count
        && expected != gs.action_count
    {
        return Ok(reject(
            Rejection::new(
                RejectionCode::StaleState,
                "",
                format!(
                    "The state has {} actions but the caller expected {}; reload the game.",
                    gs.action_count, expected
                ),
            ),
            "unknown",
        ));
    }
    if !req.expected_state_hash.is_empty() {
        if req.expected_state_hash.len() != 32 {
            return Err(Status::invalid_argument(
                "expected_state_hash: must be 32 bytes (SHA-256) or empty",
            ));
        }
        if state_hash(gs)[..] != req.expected_state_hash[..] {
            return Ok(reject(
                Rejection::new(
                    RejectionCode::StaleState,
                    "",
                    "The state differs from the one the caller expected (hash mismatch); reload the game.",
                ),
                "unknown",
            ));
        }
    }
    let Some(action) = req.action.as_ref() else {
        return Ok(reject(
            Rejection::new(
                RejectionCode::InvalidArgument,
                "",
                "The request carries no action.",
            ),
            "none",
        ));
    };
    let action = match W::action_from_pb(action) {
        Ok(a) => a,
        Err(r) => return Ok(reject(r, "invalid")),
    };
    let kind = W::action_kind(&action);
    match W::G::apply(&mut state, req.seat, &action).and_then(|events| {
        W::check_encodable(&state)?;
        Ok(events)
    }) {
        Ok(events) => Ok(Applied {
            response: pb::ApplyResponse {
                result: Some(pb::apply_response::Result::Accepted(pb::Accepted {
                    events: events.iter().map(W::event_to_pb).collect(),
                    state: Some(encode_state_into::<W>(
                        state,
                        gs.action_count.saturating_add(1),
                    )),
                    sealed_state: Vec::new(),
                    seat_views: Vec::new(),
                    caller_view: None,
                    seat_credentials: Vec::new(),
                })),
            },
            action_kind: kind,
        }),
        Err(r) => Ok(reject(r, kind)),
    }
}

/// LegalActions for game `W`. Errors: `INVALID_ARGUMENT` for a seat that is not at the table.
pub fn legal_actions<W: WireGame>(
    gs: &pb::GameState,
    seat: Seat,
) -> Result<pb::LegalActionsResponse, Status> {
    let state = decode_state::<W>(gs)?;
    check_seat::<W>(&state, seat)?;
    Ok(pb::LegalActionsResponse {
        to_act: W::G::to_act(&state),
        legal_actions: Some(W::legal_actions_pb(&state, seat)),
    })
}

/// View for game `W`; `seat = None` is a spectator.
pub fn view<W: WireGame>(
    gs: &pb::GameState,
    seat: Option<Seat>,
) -> Result<pb::ViewResponse, Status> {
    view_for::<W>(
        gs,
        match seat {
            Some(s) => Viewer::Seat(s),
            None => Viewer::Spectator,
        },
    )
}

/// View for game `W` as `viewer` (the caller checked that an arbiter may look).
pub fn view_for<W: WireGame>(
    gs: &pb::GameState,
    viewer: Viewer,
) -> Result<pb::ViewResponse, Status> {
    let state = decode_state::<W>(gs)?;
    if let Viewer::Seat(s) = viewer {
        check_seat::<W>(&state, s)?;
    }
    Ok(pb::ViewResponse {
        to_act: W::G::to_act(&state),
        outcome: W::G::outcome(&state).map(|o| pb::Outcome {
            scores: o.scores,
            ranks: o.ranks,
            end_reason: o.end_reason,
        }),
        view: Some(W::view_to_pb(&W::G::view(&state, viewer))),
        action_count: gs.action_count,
    })
}

/// Number of seats of a state of game `W`.
pub fn seat_count<W: WireGame>(gs: &pb::GameState) -> Result<u32, Status> {
    Ok(W::seat_count(&decode_state::<W>(gs)?))
}

/// What every seat may see of a state (index = seat), for the clear views that accompany a
/// sealed state.
pub fn seat_views<W: WireGame>(gs: &pb::GameState) -> Result<Vec<pb::ViewResponse>, Status> {
    let state = decode_state::<W>(gs)?;
    (0..W::seat_count(&state))
        .map(|seat| view::<W>(gs, Some(seat)))
        .collect()
}

/// Replay for game `W`: setup, then every action in order until the first rejection.
/// Errors: as NewGame; CANCELLED when `cancel` is set (checked before every action).
pub fn replay<W: WireGame>(
    req: &pb::ReplayRequest,
    cancel: &Cancel,
) -> Result<pb::ReplayResponse, Status> {
    let options = W::options_from_pb(&req.options)?;
    let mut state = W::G::setup(&options, req.seats, req.seed)
        .map_err(|e| Status::invalid_argument(format!("{e}")))?;
    let mut applied: u64 = 0;
    let mut failure = None;
    let total = req.actions.len();
    for (index, sa) in req.actions.iter().enumerate() {
        cancel.check(|| format!("after {index} of {total} actions"))?;
        let result = match sa.action.as_ref() {
            None => Err(Rejection::new(
                RejectionCode::InvalidArgument,
                "",
                "The entry carries no action.",
            )),
            Some(a) => W::action_from_pb(a).and_then(|a| {
                let mut next = state.clone();
                let events = W::G::apply(&mut next, sa.seat, &a)?;
                W::check_encodable(&next)?;
                state = next;
                Ok(events)
            }),
        };
        match result {
            Ok(_) => applied += 1,
            Err(r) => {
                failure = Some(pb::ReplayFailure {
                    index: u32::try_from(index).unwrap_or(u32::MAX),
                    rejection: Some(rejection_to_pb(&r)),
                });
                break;
            }
        }
    }
    Ok(pb::ReplayResponse {
        state: Some(encode_state::<W>(&state, applied)),
        failure,
        actions_applied: applied,
        sealed_state: Vec::new(),
        seat_views: Vec::new(),
        caller_view: None,
        seat_credentials: Vec::new(),
    })
}

// ---- Beyond Apply (issue #9) -------------------------------------------------------------

/// A rejection answering a list entry that carries no action.
fn no_action() -> Rejection {
    Rejection::new(
        RejectionCode::InvalidArgument,
        "",
        "The entry carries no action.",
    )
}

/// Applies one list entry to `state` (transactionally: on a rejection `state` is unchanged).
/// A seat not at the table is a rejection here (INVALID_ARGUMENT), so that a batch keeps
/// the results before it.
fn apply_entry<W: WireGame>(
    state: &mut <W::G as Game>::State,
    sa: &pb::SeatAction,
) -> Result<Vec<<W::G as Game>::Event>, Rejection> {
    let n = W::seat_count(state);
    if sa.seat >= n {
        return Err(Rejection::new(
            RejectionCode::InvalidArgument,
            "",
            format!("Seat {} is not a seat of this {n}-player game.", sa.seat),
        ));
    }
    let action = W::action_from_pb(sa.action.as_ref().ok_or_else(no_action)?)?;
    let mut next = state.clone();
    let events = W::G::apply(&mut next, sa.seat, &action)?;
    W::check_encodable(&next)?;
    *state = next;
    Ok(events)
}

fn failure_at(index: usize, r: &Rejection) -> pb::ReplayFailure {
    pb::ReplayFailure {
        index: u32::try_from(index).unwrap_or(u32::MAX),
        rejection: Some(rejection_to_pb(r)),
    }
}

/// ApplyBatch for game `W`: the actions in order until the first rejection; the state and
/// events of everything applied before it. Stale-state checks as in [`apply`] (a mismatch
/// is a failure at index 0). Errors: as Apply (malformed state, bad hash length); CANCELLED
/// when `cancel` is set (checked before every action).
pub fn apply_batch<W: WireGame>(
    gs: &pb::GameState,
    req: &pb::ApplyBatchRequest,
    cancel: &Cancel,
) -> Result<pb::ApplyBatchResponse, Status> {
    let mut state = decode_state::<W>(gs)?;
    check_room_for_actions(gs, req.actions.len())?;
    let mut failure = None;
    if let Some(expected) = req.expected_action_count
        && expected != gs.action_count
    {
        failure = Some(failure_at(
            0,
            &Rejection::new(
                RejectionCode::StaleState,
                "",
                format!(
                    "The state has {} actions but the caller expected {}; reload the game.",
                    gs.action_count, expected
                ),
            ),
        ));
    }
    if !req.expected_state_hash.is_empty() {
        if req.expected_state_hash.len() != 32 {
            return Err(Status::invalid_argument(
                "expected_state_hash: must be 32 bytes (SHA-256) or empty",
            ));
        }
        if failure.is_none() && state_hash(gs)[..] != req.expected_state_hash[..] {
            failure = Some(failure_at(
                0,
                &Rejection::new(
                    RejectionCode::StaleState,
                    "",
                    "The state differs from the one the caller expected (hash mismatch); reload the game.",
                ),
            ));
        }
    }
    let mut applied = Vec::new();
    if failure.is_none() {
        let total = req.actions.len();
        for (index, sa) in req.actions.iter().enumerate() {
            cancel.check(|| format!("after {index} of {total} actions"))?;
            match apply_entry::<W>(&mut state, sa) {
                Ok(events) => applied.push(pb::AppliedAction {
                    events: events.iter().map(W::event_to_pb).collect(),
                }),
                Err(r) => {
                    failure = Some(failure_at(index, &r));
                    break;
                }
            }
        }
    }
    let n = applied.len() as u64;
    Ok(pb::ApplyBatchResponse {
        state: Some(encode_state::<W>(&state, gs.action_count.saturating_add(n))),
        sealed_state: Vec::new(),
        seat_views: Vec::new(),
        caller_view: None,
        seat_credentials: Vec::new(),
        actions_applied: n,
        failure,
        applied,
    })
}

/// StreamReplay for game `W`: setup, then every action in order until the first rejection,
/// handing each message to `emit` as soon as it is made (an error from `emit` — the
/// receiver is gone, the deadline passed — ends the replay with that error). The setup
/// message first; a state on every `every`-th action, on the last one and at a failure
/// (only there with `events_only`). Errors: as Replay (unknown options, seat count).
pub fn stream_replay<W: WireGame>(
    req: &pb::StreamReplayRequest,
    emit: &mut dyn FnMut(pb::StreamReplayResponse) -> Result<(), Status>,
) -> Result<(), Status> {
    let game = req
        .game
        .as_ref()
        .ok_or_else(|| Status::invalid_argument("game: missing"))?;
    let options = W::options_from_pb(&game.options)?;
    let mut state = W::G::setup(&options, game.seats, game.seed)
        .map_err(|e| Status::invalid_argument(format!("{e}")))?;
    let every = u64::from(req.every.max(1));
    let total = game.actions.len();
    let setup_last = total == 0;
    let frame = pb::StreamReplayResponse {
        action_count: 0,
        index: None,
        events: Vec::new(),
        state: (!req.events_only || setup_last).then(|| encode_state::<W>(&state, 0)),
        sealed_state: Vec::new(),
        seat_views: Vec::new(),
        caller_view: None,
        seat_credentials: Vec::new(),
        failure: None,
        last: setup_last,
    };
    emit(frame)?;
    if setup_last {
        return Ok(());
    }
    let mut applied: u64 = 0;
    for (index, sa) in game.actions.iter().enumerate() {
        let idx = Some(u32::try_from(index).unwrap_or(u32::MAX));
        match apply_entry::<W>(&mut state, sa) {
            Ok(events) => {
                applied += 1;
                let last = index + 1 == total;
                let with_state = last || (!req.events_only && applied.is_multiple_of(every));
                let frame = pb::StreamReplayResponse {
                    action_count: applied,
                    index: idx,
                    events: events.iter().map(W::event_to_pb).collect(),
                    state: with_state.then(|| encode_state::<W>(&state, applied)),
                    sealed_state: Vec::new(),
                    seat_views: Vec::new(),
                    caller_view: None,
                    seat_credentials: Vec::new(),
                    failure: None,
                    last,
                };
                emit(frame)?;
            }
            Err(r) => {
                emit(pb::StreamReplayResponse {
                    action_count: applied,
                    index: idx,
                    events: Vec::new(),
                    state: Some(encode_state::<W>(&state, applied)),
                    sealed_state: Vec::new(),
                    seat_views: Vec::new(),
                    caller_view: None,
                    seat_credentials: Vec::new(),
                    failure: Some(failure_at(index, &r)),
                    last: true,
                })?;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Most games in one Playout.
pub const PLAYOUT_MAX_GAMES: u32 = 1_000;
/// Most actions per game in one Playout.
pub const PLAYOUT_MAX_ACTIONS: u32 = 50_000;
/// Default actions per game of a Playout (less when `games × 20,000` would exceed
/// [`PLAYOUT_MAX_WORK`]).
pub const PLAYOUT_DEFAULT_ACTIONS: u32 = 20_000;
/// Most `games × max_actions` of one Playout (the server-side cap on its work).
pub const PLAYOUT_MAX_WORK: u64 = 2_000_000;
/// Most `games × max_actions` of one Playout with `include_actions` (every action is
/// returned: the cap on the answer's size).
pub const PLAYOUT_MAX_RETURNED_ACTIONS: u64 = 100_000;

/// The games and actions per game a Playout plays: `games` (0 = 1) and `max_actions`
/// (0 = [`PLAYOUT_DEFAULT_ACTIONS`], or less so that the default fits the caps), checked
/// against [`PLAYOUT_MAX_GAMES`], [`PLAYOUT_MAX_ACTIONS`], [`PLAYOUT_MAX_WORK`] and, with
/// `include_actions`, [`PLAYOUT_MAX_RETURNED_ACTIONS`]. Errors: INVALID_ARGUMENT naming the
/// limit.
pub fn playout_limits(
    games: u32,
    max_actions: u32,
    include_actions: bool,
) -> Result<(u32, u32), Status> {
    let games = games.max(1);
    if games > PLAYOUT_MAX_GAMES {
        return Err(Status::invalid_argument(format!(
            "games: at most {PLAYOUT_MAX_GAMES} per call, got {games}"
        )));
    }
    let cap = if include_actions {
        PLAYOUT_MAX_RETURNED_ACTIONS
    } else {
        PLAYOUT_MAX_WORK
    };
    // Unset: 20,000, or less so that the default always fits the cap.
    let max_actions = if max_actions == 0 {
        PLAYOUT_DEFAULT_ACTIONS.min(u32::try_from(cap / u64::from(games)).unwrap_or(u32::MAX))
    } else {
        max_actions
    };
    if max_actions > PLAYOUT_MAX_ACTIONS {
        return Err(Status::invalid_argument(format!(
            "max_actions: at most {PLAYOUT_MAX_ACTIONS}, got {max_actions}"
        )));
    }
    let work = u64::from(games) * u64::from(max_actions);
    if work > PLAYOUT_MAX_WORK {
        return Err(Status::invalid_argument(format!(
            "games × max_actions: at most {PLAYOUT_MAX_WORK} per call, got {work}"
        )));
    }
    if include_actions && work > PLAYOUT_MAX_RETURNED_ACTIONS {
        return Err(Status::invalid_argument(format!(
            "games × max_actions: at most {PLAYOUT_MAX_RETURNED_ACTIONS} with include_actions \
             (every action is returned), got {work}"
        )));
    }
    Ok((games, max_actions))
}

/// Playout for game `W` from `gs`: `games` games with the policy, each given up after
/// `max_actions`; statistics per seat over the finished ones. When `deadline` passes the
/// games done so far are reported with `partial`. Errors: INVALID_ARGUMENT for limits above
/// the caps ([`playout_limits`], checked before the state is decoded);
/// INTERNAL when a legal action is refused (an engine bug); CANCELLED when `cancel` is set
/// (checked before every action).
pub fn playout<W: WireGame>(
    gs: &pb::GameState,
    req: &pb::PlayoutRequest,
    deadline: std::time::Instant,
    cancel: &Cancel,
) -> Result<pb::PlayoutResponse, Status> {
    use crate::playout::{Ending, Policy, Stop, play_from};
    use rand_core::SeedableRng;
    let (games, max_actions) = playout_limits(req.games, req.max_actions, req.include_actions)?;
    let start = decode_state::<W>(gs)?;
    let policy = if !req.policy_name.is_empty() {
        crate::playout::policy_by_name::<W>(&req.policy_name)
            .map_err(|e| Status::invalid_argument(format!("policy_name: {e}")))?
    } else {
        match pb::PlayoutPolicy::try_from(req.policy) {
            Ok(pb::PlayoutPolicy::Unspecified | pb::PlayoutPolicy::RandomLegal) => Policy::Random,
            Ok(pb::PlayoutPolicy::FirstLegal) => Policy::First,
            Err(_) => {
                return Err(Status::invalid_argument(format!(
                    "policy: unknown value {}",
                    req.policy
                )));
            }
        }
    };
    let seats = W::seat_count(&start) as usize;
    let mut scores: Vec<Vec<i64>> = vec![Vec::new(); seats];
    let mut wins = vec![0u32; seats];
    let mut resp = pb::PlayoutResponse::default();
    for k in 0..games {
        let seed = req.seed.wrapping_add(u64::from(k));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut state = start.clone();
        let mut record = Vec::new();
        let played = play_from::<W::G>(
            &mut state,
            &mut rng,
            u64::from(max_actions),
            W::rare,
            &[policy],
            Stop {
                deadline: Some(deadline),
                cancel: Some(cancel),
            },
            req.include_actions.then_some(&mut record),
        );
        let mut game = pb::PlayedGame {
            seed,
            actions: record
                .iter()
                .map(|(seat, a)| pb::SeatAction {
                    seat: *seat,
                    action: Some(W::action_to_pb(a)),
                })
                .collect(),
            outcome: None,
            unfinished_reason: String::new(),
        };
        match played.ending {
            Ending::Deadline => {
                resp.partial = true;
                break;
            }
            Ending::Cancelled => {
                return Err(Cancel::stopped(&format!(
                    "after {} of {games} games",
                    resp.games_played
                )));
            }
            Ending::ActionLimit => {
                resp.unfinished += 1;
                game.unfinished_reason =
                    format!("no result after {max_actions} actions (max_actions)");
            }
            Ending::Finished(..) => {
                let Some(o) = W::G::outcome(&state) else {
                    return Err(Status::internal("a finished game has no outcome"));
                };
                resp.finished += 1;
                *resp.end_reasons.entry(o.end_reason.clone()).or_insert(0) += 1;
                for (i, s) in o.scores.iter().enumerate().take(seats) {
                    scores[i].push(*s);
                }
                for (i, r) in o.ranks.iter().enumerate().take(seats) {
                    if *r == 1 {
                        wins[i] += 1;
                    }
                }
                game.outcome = Some(pb::Outcome {
                    scores: o.scores,
                    ranks: o.ranks,
                    end_reason: o.end_reason,
                });
            }
            Ending::Unfinished(reason) => {
                resp.unfinished += 1;
                game.unfinished_reason = reason;
            }
            Ending::Error(message) => {
                return Err(Status::internal(format!(
                    "playout game {k} (seed {seed}): {message} (an engine bug: please report the request)"
                )));
            }
        }
        resp.games_played += 1;
        resp.actions += played.actions;
        if req.include_actions {
            resp.played.push(game);
        }
    }
    resp.seats = (0..seats)
        .map(|i| {
            let v = &scores[i];
            let n = v.len() as f64;
            let mean = if v.is_empty() {
                0.0
            } else {
                v.iter().map(|x| *x as f64).sum::<f64>() / n
            };
            let var = if v.is_empty() {
                0.0
            } else {
                v.iter().map(|x| (*x as f64 - mean).powi(2)).sum::<f64>() / n
            };
            pb::SeatPlayoutStats {
                seat: i as u32,
                wins: wins[i],
                mean_score: mean,
                score_stddev: var.sqrt(),
                min_score: v.iter().copied().min().unwrap_or(0),
                max_score: v.iter().copied().max().unwrap_or(0),
            }
        })
        .collect();
    Ok(resp)
}

/// DefaultAction for game `W`. Errors: INVALID_ARGUMENT (seat not at the table, unknown
/// policy), FAILED_PRECONDITION (the seat need not act now, or has no legal action).
///
/// `sees_secrets`: the caller may see the whole state (open mode, the arbiter). Otherwise a
/// named bot chooses on [`WireGame::without_secrets`]: bots look ahead by applying actions,
/// and in Autobahn an action that ends a turn lets the Autobot play from its hidden piles and
/// the RNG, so a bot's choice on the real state depends on the secrets and would tell them to
/// a seat that compares it with its own simulations (docs/SECURITY.md, review of #24,
/// finding G). The legal actions, and so the answer's legality, are the real state's.
pub fn default_action<W: WireGame>(
    gs: &pb::GameState,
    req: &pb::DefaultActionRequest,
    sees_secrets: bool,
) -> Result<pb::DefaultActionResponse, Status> {
    use rand_core::SeedableRng;
    let state = decode_state::<W>(gs)?;
    check_seat::<W>(&state, req.seat)?;
    if !W::G::to_act(&state).contains(&req.seat) {
        return Err(Status::failed_precondition(format!(
            "seat: seat {} need not act now (to act: {:?})",
            req.seat,
            W::G::to_act(&state)
        )));
    }
    let named = if req.policy_name.is_empty() {
        None
    } else {
        Some(
            crate::playout::policy_by_name::<W>(&req.policy_name)
                .map_err(|e| Status::invalid_argument(format!("policy_name: {e}")))?,
        )
    };
    let action = match (named, pb::DefaultActionPolicy::try_from(req.policy)) {
        (Some(policy), _) => {
            use crate::playout::Policy;
            let mut legal = W::G::legal_actions(&state, req.seat);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(req.seed);
            (!legal.is_empty()).then(|| match policy {
                Policy::Random => crate::playout::pick(legal, W::rare, &mut rng),
                Policy::First => legal.swap_remove(0),
                Policy::Bot(bot) if sees_secrets => bot(&state, req.seat, legal, &mut rng),
                Policy::Bot(bot) => {
                    let known = W::without_secrets(&state, req.seat, req.seed);
                    bot(&known, req.seat, legal, &mut rng)
                }
            })
        }
        (
            None,
            Ok(pb::DefaultActionPolicy::Unspecified | pb::DefaultActionPolicy::PassOrMinimal),
        ) => W::default_action(&state, req.seat),
        (None, Ok(pb::DefaultActionPolicy::RandomLegal)) => {
            let legal = W::G::legal_actions(&state, req.seat);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(req.seed);
            (!legal.is_empty()).then(|| crate::playout::pick(legal, W::rare, &mut rng))
        }
        (None, Err(_)) => {
            return Err(Status::invalid_argument(format!(
                "policy: unknown value {}",
                req.policy
            )));
        }
    };
    let action = action.ok_or_else(|| {
        Status::failed_precondition(format!(
            "seat: seat {} must act but has no legal action in this build",
            req.seat
        ))
    })?;
    let (description, _) = W::describe(&state, req.seat, &action);
    let description = log_safe(&description);
    Ok(pb::DefaultActionResponse {
        is_pass: W::is_pass(&action),
        action: Some(W::action_to_pb(&action)),
        description,
    })
}

/// Describe for game `W`. An action Apply would refuse is described with `legal: false` and
/// Apply's rejection — also one that is not an action of this game or cannot be read (then
/// the text says so: `Seat 0: the action is not an action of 1841`). Errors:
/// INVALID_ARGUMENT (seat not at the table, no action at all).
pub fn describe<W: WireGame>(
    gs: &pb::GameState,
    req: &pb::DescribeRequest,
) -> Result<pb::DescribeResponse, Status> {
    let state = decode_state::<W>(gs)?;
    check_seat::<W>(&state, req.seat)?;
    let action = req
        .action
        .as_ref()
        .ok_or_else(|| Status::invalid_argument("action: missing"))?;
    let action = match W::action_from_pb(action) {
        Ok(action) => action,
        Err(r) => {
            // Apply refuses it with this rejection; say what is wrong in the line too.
            let mut what = r.message.trim_end_matches('.').to_string();
            if let Some(first) = what.get(..1) {
                let lower = first.to_lowercase();
                what.replace_range(..1, &lower);
            }
            return Ok(pb::DescribeResponse {
                text: log_safe(&format!("Seat {}: {what}", req.seat)),
                legal: false,
                rejection: Some(rejection_to_pb(&r)),
                warning: String::new(),
            });
        }
    };
    let (text, result) = W::describe(&state, req.seat, &action);
    let warning = if result.is_ok() {
        W::warning(&state, req.seat, &action).unwrap_or_default()
    } else {
        String::new()
    };
    Ok(pb::DescribeResponse {
        text: log_safe(&text),
        legal: result.is_ok(),
        rejection: result.err().map(|r| rejection_to_pb(&r)),
        warning: log_safe(&warning),
    })
}

fn check_seat<W: WireGame>(state: &<W::G as Game>::State, seat: Seat) -> Result<(), Status> {
    let n = W::seat_count(state);
    if seat >= n {
        return Err(Status::invalid_argument(format!(
            "seat: {seat} is not a seat of this {n}-player game (seats are 0 to {})",
            n.saturating_sub(1)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod playout_limit_tests {
    use super::*;

    /// The defaults of `games` and `max_actions` fit the caps; with `include_actions` the
    /// returned actions (games × max_actions) are capped at 100,000.
    #[test]
    fn playout_limits_and_defaults() {
        assert_eq!(playout_limits(0, 0, false).unwrap(), (1, 20_000));
        assert_eq!(playout_limits(200, 0, false).unwrap(), (200, 10_000));
        assert_eq!(playout_limits(1_000, 0, false).unwrap(), (1_000, 2_000));
        assert_eq!(playout_limits(1, 0, true).unwrap(), (1, 20_000));
        assert_eq!(playout_limits(10, 0, true).unwrap(), (10, 10_000));
        assert_eq!(playout_limits(1_000, 0, true).unwrap(), (1_000, 100));
        assert_eq!(playout_limits(10, 10_000, true).unwrap(), (10, 10_000));
        assert_eq!(playout_limits(40, 50_000, false).unwrap(), (40, 50_000));
        let message = |g, m, i| playout_limits(g, m, i).unwrap_err().message().to_string();
        assert_eq!(
            message(10, 10_001, true),
            "games × max_actions: at most 100000 with include_actions (every action is returned), got 100010"
        );
        assert_eq!(
            message(41, 50_000, false),
            "games × max_actions: at most 2000000 per call, got 2050000"
        );
        assert_eq!(
            message(1_001, 0, false),
            "games: at most 1000 per call, got 1001"
        );
        assert_eq!(
            message(1, 50_001, true),
            "max_actions: at most 50000, got 50001"
        );
    }
}

#[cfg(test)]
mod clip_tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_short_ones_kept() {
        assert_eq!(clip("short"), "short");
        let long = "é".repeat(2000);
        let cut = clip(&long);
        assert_eq!(
            cut.chars().count(),
            MAX_MESSAGE_CHARS + "… (truncated)".chars().count()
        );
        let status = clip_status(Status::not_found("x".repeat(100_000)));
        assert_eq!(status.code(), tonic::Code::NotFound);
        assert!(status.message().len() < 1000);
    }
}
