//! The RPCs, independent of transport: gRPC (`grpc.rs`) and HTTP/JSON (`http_json.rs`) both
//! call [`Api`]. Each call opens one tracing span `rpc` carrying the RPC name, game id, action
//! kind, outcome and rejection code, and records its latency in the metrics.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tonic::Status;
use tracing::field::Empty;

use crate::games::{self, WireGame, autobahn::WireAutobahn, g1841::Wire1841};
use crate::pb::v1 as pb;
use crate::seal::{Credential, GameId as SealedGameId, Sealer};
use crate::telemetry;
use crate::work::Cancel;

/// The service logic shared by every transport. Cheap to clone.
///
/// Open mode (no sealer): states travel in clear in `state` fields. Sealed mode: states travel
/// only as `sealed_state` tokens the server sealed (see [`crate::seal`]); clear `state` fields
/// are refused, and responses carry per-seat views in clear instead.
#[derive(Clone, Debug)]
pub struct Api {
    sealer: Option<Arc<Sealer>>,
    /// `--allow-arbiter-view`: arbiter views (and Playout in sealed mode) for every caller.
    allow_arbiter: bool,
    /// The server's request timeout: the longest deadline a Playout works to.
    request_timeout: Duration,
    /// The caller's credential (header `referee-credential`, [`Api::for_caller`]); only read
    /// in sealed mode.
    credential: Option<Arc<str>>,
    /// `--max-decoded-bytes`: the estimated bytes an ImportGame's export may take once read.
    max_decoded_bytes: usize,
}

impl Default for Api {
    fn default() -> Self {
        Self {
            sealer: None,
            allow_arbiter: false,
            request_timeout: Duration::from_secs(30),
            credential: None,
            max_decoded_bytes: crate::decoded_size::DEFAULT_MAX_DECODED_BYTES,
        }
    }
}

/// Which game a state or request names.
enum GameId {
    G1841,
    Autobahn,
}

fn game_id(id: &str, field: &str) -> Result<GameId, Status> {
    match id {
        Wire1841::ID => Ok(GameId::G1841),
        WireAutobahn::ID => Ok(GameId::Autobahn),
        "" => Err(Status::invalid_argument(format!(
            "{field}: missing game id"
        ))),
        other => Err(Status::not_found(format!(
            "{field}: unknown game `{other}` (ListGames lists the games this server knows)"
        ))),
    }
}

/// Runs `$call::<W>(args)` with `W` the wire mapping of game `$g` (one arm per game).
macro_rules! dispatch {
    ($g:expr, $call:ident($($arg:expr),*)) => {
        match $g {
            GameId::G1841 => games::$call::<Wire1841>($($arg),*),
            GameId::Autobahn => games::$call::<WireAutobahn>($($arg),*),
        }
    };
}

/// The state a request carries: the clear `state` in open mode, the opened `sealed_state` in
/// sealed mode. Errors: INVALID_ARGUMENT (missing, or a token that cannot be opened),
/// FAILED_PRECONDITION (the wrong form for this server's mode).
fn request_state<'a>(
    sealer: Option<&Sealer>,
    state: Option<&'a pb::GameState>,
    sealed: &[u8],
) -> Result<Cow<'a, pb::GameState>, Status> {
    match sealer {
        None => {
            if !sealed.is_empty() {
                return Err(Status::failed_precondition(
                    "sealed_state: this server runs in open mode (no sealing key configured); send `state` instead",
                ));
            }
            state
                .map(Cow::Borrowed)
                .ok_or_else(|| Status::invalid_argument("state: missing"))
        }
        Some(sealer) => {
            if state.is_some() {
                return Err(Status::failed_precondition(
                    "state: this server runs in sealed mode and accepts only states it sealed; send `sealed_state`",
                ));
            }
            if sealed.is_empty() {
                return Err(Status::invalid_argument("sealed_state: missing"));
            }
            sealer.open(sealed).map(Cow::Owned)
        }
    }
}

/// [`request_state`] with the game id of a sealed token (`None` in open mode and for tokens of
/// the first layout, which carry none).
fn request_game<'a>(
    sealer: Option<&Sealer>,
    state: Option<&'a pb::GameState>,
    sealed: &[u8],
) -> Result<(Cow<'a, pb::GameState>, Option<SealedGameId>), Status> {
    match sealer {
        Some(s) if state.is_none() && !sealed.is_empty() => {
            let opened = s.open_game(sealed)?;
            Ok((Cow::Owned(opened.state), opened.game_id))
        }
        _ => request_state(sealer, state, sealed).map(|gs| (gs, None)),
    }
}

/// What a caller may see and do (docs/SECURITY.md, "Seat access in sealed mode").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    /// Open mode: no checks, whoever holds the state sees all of it.
    Open,
    /// Sealed mode, the arbiter credential (or `--allow-arbiter-view`): everything.
    Arbiter,
    /// Sealed mode, the credential of this seat of this game.
    Seat(u32),
    /// Sealed mode, no credential: public information only.
    Spectator,
}

impl Access {
    /// Refuses (PERMISSION_DENIED) a call acting or asking as `seat` when the caller does not
    /// hold that seat.
    fn require_seat(self, seat: u32) -> Result<(), Status> {
        match self {
            Access::Open | Access::Arbiter => Ok(()),
            Access::Seat(s) if s == seat => Ok(()),
            Access::Seat(s) => Err(Status::permission_denied(format!(
                "seat {seat}: the caller holds the credential of seat {s} only (sealed mode)"
            ))),
            Access::Spectator => Err(Status::permission_denied(format!(
                "seat {seat}: in sealed mode acting or asking as a seat needs that seat's credential (header `referee-credential`)"
            ))),
        }
    }

    /// Refuses (PERMISSION_DENIED) `expected_state_hash` from a seat or a spectator in sealed
    /// mode: the state's hash is a test of any guess of its hidden information (a Version 1
    /// sealed bid: rebuild the state for each guessed bid and compare), so only the arbiter
    /// may compare hashes; `expected_action_count` (public) guards races for everyone.
    fn allow_state_hash(self, hash: &[u8]) -> Result<(), Status> {
        match self {
            Access::Seat(_) | Access::Spectator if !hash.is_empty() => {
                Err(Status::permission_denied(
                    "expected_state_hash: in sealed mode only the arbiter may compare state hashes (a hash tests guesses of hidden information); send expected_action_count",
                ))
            }
            _ => Ok(()),
        }
    }

    /// The viewer whose view the caller gets.
    fn viewer(self) -> referee_engine::Viewer {
        use referee_engine::Viewer;
        match self {
            Access::Open | Access::Arbiter => Viewer::Arbiter,
            Access::Seat(s) => Viewer::Seat(s),
            Access::Spectator => Viewer::Spectator,
        }
    }
}

/// Runs one RPC's work; a panic inside (a bug in the rules engine) becomes `INTERNAL` for
/// this call instead of a dropped connection, and the server goes on serving.
fn guarded<T>(work: impl FnOnce() -> Result<T, Status>) -> Result<T, Status> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|_| {
        tracing::error!("the rules engine panicked while handling a request");
        Err(Status::internal(
            "the rules engine failed on this request (a bug: please report the request)",
        ))
    })
}

/// The state fields of a response (open mode: only `state`).
#[derive(Default)]
struct Outgoing {
    state: Option<pb::GameState>,
    sealed_state: Vec<u8>,
    seat_views: Vec<pb::ViewResponse>,
    caller_view: Option<pb::ViewResponse>,
    seat_credentials: Vec<String>,
}

/// Sets the state fields of a response from an [`Outgoing`].
macro_rules! set_state {
    ($resp:expr, $out:expr) => {{
        let out = $out;
        $resp.state = out.state;
        $resp.sealed_state = out.sealed_state;
        $resp.seat_views = out.seat_views;
        $resp.caller_view = out.caller_view;
        $resp.seat_credentials = out.seat_credentials;
    }};
}

/// In sealed mode, replaces an outgoing clear state by its sealed form (of game `game`) plus
/// what the caller may see: its own view (`caller_view`), every seat's view for the arbiter,
/// and the seat credentials for the arbiter and for the creator of a new game (`creator`).
fn outgoing(
    sealer: Option<&Sealer>,
    state: Option<pb::GameState>,
    game: &SealedGameId,
    access: Access,
    creator: bool,
) -> Result<Outgoing, Status> {
    match (sealer, state) {
        (Some(sealer), Some(gs)) => {
            let g = || game_id(&gs.game, "state.game");
            let seat_views = if access == Access::Arbiter {
                dispatch!(g()?, seat_views(&gs))?
            } else {
                Vec::new()
            };
            let caller_view = dispatch!(g()?, view_for(&gs, access.viewer()))?;
            let seat_credentials = if access == Access::Arbiter || creator {
                let seats = dispatch!(g()?, seat_count(&gs))?;
                (0..seats)
                    .map(|s| sealer.seat_credential(game, s))
                    .collect()
            } else {
                Vec::new()
            };
            Ok(Outgoing {
                state: None,
                sealed_state: sealer.seal_game(&gs, game)?,
                seat_views,
                caller_view: Some(caller_view),
                seat_credentials,
            })
        }
        (_, state) => Ok(Outgoing {
            state,
            ..Outgoing::default()
        }),
    }
}

/// Calls answered by the service logic since the process started (every RPC of [`Api`] that
/// ran to an answer, OK or error; calls shed by the concurrency limiter never get here, nor
/// calls whose work was stopped because the caller went away: [`CALLS_CANCELLED`]).
/// Logged when the server stops, so a soak test can check that every call the server answered
/// reached its caller (`scripts/soak.sh`).
static CALLS_ANSWERED: AtomicU64 = AtomicU64::new(0);

/// Calls whose work was stopped because nobody waited for the answer any more (the caller
/// disconnected or cancelled, or the call's deadline passed): `CANCELLED` from
/// [`crate::work::Cancel`]. Logged when the server stops.
static CALLS_CANCELLED: AtomicU64 = AtomicU64::new(0);

/// Number of calls answered by the service logic so far (see `CALLS_ANSWERED`).
pub fn calls_answered() -> u64 {
    CALLS_ANSWERED.load(Ordering::Relaxed)
}

/// Number of calls stopped because their caller went away (see `CALLS_CANCELLED`).
pub fn calls_cancelled() -> u64 {
    CALLS_CANCELLED.load(Ordering::Relaxed)
}

/// The `game` attribute of the latency metric: a game this server knows, `""` (no game),
/// or `other`. The game id comes from the caller: each distinct value would be a new
/// metric series kept in memory until the process ends.
fn metric_game(game: &str) -> &str {
    match game {
        "" | Wire1841::ID | WireAutobahn::ID => game,
        _ => "other",
    }
}

/// Measures one RPC: records outcome on the span and the latency histogram.
struct Call {
    rpc: &'static str,
    span: tracing::Span,
    start: Instant,
}

impl Call {
    fn start(rpc: &'static str) -> Self {
        let span = tracing::info_span!(
            "rpc",
            rpc,
            game = Empty,
            seat = Empty,
            action_kind = Empty,
            outcome = Empty,
            rejection_code = Empty
        );
        Self {
            rpc,
            span,
            start: Instant::now(),
        }
    }

    fn finish<T>(self, game: &str, result: &mut Result<T, Status>, outcome: Option<&str>) {
        if let Err(status) = result {
            *status = games::clip_status(std::mem::replace(status, Status::ok("")));
        }
        let game = games::clip(game);
        let game = game.as_ref();
        let result = &*result;
        let cancelled = matches!(result, Err(s) if s.code() == tonic::Code::Cancelled);
        if cancelled {
            CALLS_CANCELLED.fetch_add(1, Ordering::Relaxed);
        } else {
            CALLS_ANSWERED.fetch_add(1, Ordering::Relaxed);
        }
        let outcome = match (result, outcome) {
            (Err(_), _) if cancelled => "cancelled".to_string(),
            (Err(s), _) => format!("error:{:?}", s.code()),
            (Ok(_), Some(o)) => o.to_string(),
            (Ok(_), None) => "ok".to_string(),
        };
        self.span.record("game", game);
        self.span.record("outcome", outcome.as_str());
        let elapsed = self.start.elapsed();
        telemetry::record_rpc(self.rpc, metric_game(game), &outcome, elapsed);
        let _g = self.span.enter();
        match result {
            Err(s) if cancelled => {
                tracing::info!(
                    reason = s.message(),
                    micros = elapsed.as_micros() as u64,
                    "rpc cancelled: work stopped"
                )
            }
            // The status message quotes caller input (an unknown game id, an option value):
            // it is a field value, escaped by the log format (text: quoted with `\n` etc.;
            // JSON: a JSON string), never the event's own message, so a caller cannot forge
            // log lines. (A field named `message` would be written raw by the text format.)
            Err(s) => {
                tracing::info!(code = ?s.code(), detail = s.message(), micros = elapsed.as_micros() as u64, "rpc refused")
            }
            Ok(_) => tracing::debug!(micros = elapsed.as_micros() as u64, "rpc done"),
        }
    }
}

impl Api {
    /// Creates the service logic in open mode.
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates the service logic in sealed mode with these keys.
    pub fn sealed(sealer: Sealer) -> Self {
        Self {
            sealer: Some(Arc::new(sealer)),
            ..Self::default()
        }
    }

    /// This service logic for one caller presenting `credential` (header
    /// `referee-credential`; `None` or empty: no credential). Only sealed mode reads it.
    pub fn for_caller(&self, credential: Option<&str>) -> Self {
        let mut api = self.clone();
        api.credential = credential
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(Arc::from);
        api
    }

    /// The caller's credential, read (sealed mode, not `--allow-arbiter-view`). Errors:
    /// UNAUTHENTICATED for a credential that is not one of this server's.
    fn credential(&self) -> Result<Option<Credential>, Status> {
        match (self.sealer.as_deref(), &self.credential) {
            (Some(sealer), Some(c)) if !self.allow_arbiter => sealer.credential(c).map(Some),
            _ => Ok(None),
        }
    }

    /// What the caller may do with a state of game `game` (its sealed game id). Errors:
    /// UNAUTHENTICATED (a credential that is not this server's or not of this game).
    fn access(&self, game: Option<&SealedGameId>) -> Result<Access, Status> {
        let Some(sealer) = self.sealer.as_deref() else {
            return Ok(Access::Open);
        };
        if self.allow_arbiter {
            return Ok(Access::Arbiter);
        }
        match self.credential()? {
            None => Ok(Access::Spectator),
            Some(Credential::Arbiter) => Ok(Access::Arbiter),
            Some(c @ Credential::Seat { seat, .. }) => match game {
                Some(g) if sealer.seat_credential_valid(&c, g) => Ok(Access::Seat(seat)),
                // The one answer for every refused credential: an unknown key id and a
                // wrong MAC alike.
                _ => Err(crate::seal::unauthenticated()),
            },
        }
    }

    /// What the creator of a new game may see of it: the arbiter sees all, anyone else the
    /// spectator view (plus every seat credential of the new game).
    fn creator_access(&self) -> Result<Access, Status> {
        if self.sealer.is_none() {
            return Ok(Access::Open);
        }
        if self.allow_arbiter {
            return Ok(Access::Arbiter);
        }
        Ok(match self.credential()? {
            Some(Credential::Arbiter) => Access::Arbiter,
            _ => Access::Spectator,
        })
    }

    /// Allows (or not) arbiter views for every caller (`--allow-arbiter-view`).
    pub fn with_arbiter_view(mut self, allow: bool) -> Self {
        self.allow_arbiter = allow;
        self
    }

    /// `--max-decoded-bytes`: the estimated bytes an ImportGame's `export_json` may take once
    /// read (default [`crate::decoded_size::DEFAULT_MAX_DECODED_BYTES`]).
    pub fn with_max_decoded_bytes(mut self, bytes: usize) -> Self {
        self.max_decoded_bytes = bytes;
        self
    }

    /// The server's request timeout, the longest a Playout works (default 30 s).
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// When a call that started now must be done: after the caller's `grpc-timeout`
    /// (`client_timeout`), at most the server's request timeout. StreamReplay ends its
    /// stream there ([`crate::work::stream`]).
    pub fn deadline(&self, client_timeout: Option<Duration>) -> Instant {
        let limit = client_timeout.map_or(self.request_timeout, |t| t.min(self.request_timeout));
        Instant::now() + limit
    }

    /// Whether a View may be an arbiter's: `--allow-arbiter-view`, or in sealed mode a
    /// request carrying one of the sealing keys.
    fn arbiter_allowed(&self, key: &str) -> bool {
        self.allow_arbiter
            || (!key.is_empty() && self.sealer.as_ref().is_some_and(|s| s.is_key(key)))
    }

    /// ListGames: every game this build knows. Never fails.
    pub fn list_games(&self, _req: &pb::ListGamesRequest) -> Result<pb::ListGamesResponse, Status> {
        let call = Call::start("ListGames");
        let games = referee_engine::games()
            .into_iter()
            .map(|g| pb::GameInfo {
                id: g.id.to_string(),
                display_name: g.display_name.to_string(),
                min_players: g.min_players,
                max_players: g.max_players,
                options: g
                    .options
                    .iter()
                    .map(|o| {
                        let (ty, min, max) = match o.kind {
                            referee_engine::OptionKind::Bool => (pb::OptionType::Bool, 0, 0),
                            referee_engine::OptionKind::Int { min, max } => {
                                (pb::OptionType::Int, min, max)
                            }
                            referee_engine::OptionKind::Text => (pb::OptionType::String, 0, 0),
                        };
                        pb::GameOption {
                            name: o.name.to_string(),
                            r#type: ty as i32,
                            default_value: o.default.to_string(),
                            description: o.description.to_string(),
                            min,
                            max,
                        }
                    })
                    .collect(),
                rules_version: referee_engine::RULES_VERSION.to_string(),
                stage: match g.stage {
                    referee_engine::GameStage::Planned => pb::GameStage::Planned,
                    referee_engine::GameStage::Partial => pb::GameStage::Partial,
                    referee_engine::GameStage::Complete => pb::GameStage::Complete,
                } as i32,
                coverage: g.coverage.to_string(),
            })
            .collect();
        let mut result = Ok(pb::ListGamesResponse { games });
        call.finish("", &mut result, None);
        result
    }

    /// NewGame. Errors: NOT_FOUND (unknown game), INVALID_ARGUMENT (seats, options),
    /// UNIMPLEMENTED (a listed game this build cannot play yet; none today).
    pub fn new_game(&self, req: &pb::NewGameRequest) -> Result<pb::NewGameResponse, Status> {
        let call = Call::start("NewGame");
        let sealer = self.sealer.as_deref();
        let mut result = guarded(|| {
            let access = self.creator_access()?;
            // Sealed mode: a secret seed unless the caller asks for one (docs/SECURITY.md).
            let mut req = Cow::Borrowed(req);
            if sealer.is_some() && req.seed == 0 && !req.explicit_seed {
                req.to_mut().seed = crate::seal::random_seed();
            }
            game_id(&req.game, "game")
                .and_then(|g| dispatch!(g, new_game(&req)))
                .and_then(|mut resp| {
                    let game = crate::seal::new_game_id();
                    set_state!(resp, outgoing(sealer, resp.state, &game, access, true)?);
                    Ok(resp)
                })
        });
        call.finish(&req.game, &mut result, None);
        result
    }

    /// Apply. A refused action is `Ok` with `Rejected`; errors are for requests that cannot be
    /// judged (missing/malformed state: INVALID_ARGUMENT; newer schema: FAILED_PRECONDITION).
    pub fn apply(&self, req: &pb::ApplyRequest) -> Result<pb::ApplyResponse, Status> {
        let call = Call::start("Apply");
        call.span.record("seat", req.seat);
        let mut game = String::new();
        let sealer = self.sealer.as_deref();
        let result = guarded(|| {
            request_game(sealer, req.state.as_ref(), &req.sealed_state).and_then(|(gs, id)| {
                game = gs.game.clone();
                let access = self.access(id.as_ref())?;
                access.require_seat(req.seat)?;
                access.allow_state_hash(&req.expected_state_hash)?;
                let mut applied = dispatch!(game_id(&gs.game, "state.game")?, apply(&gs, req))?;
                if let Some(pb::apply_response::Result::Accepted(acc)) =
                    applied.response.result.as_mut()
                {
                    let id = id.unwrap_or_else(crate::seal::new_game_id);
                    set_state!(acc, outgoing(sealer, acc.state.take(), &id, access, false)?);
                }
                Ok(applied)
            })
        });
        let (mut result, outcome) = match result {
            Ok(applied) => {
                call.span.record("action_kind", applied.action_kind);
                let outcome = match &applied.response.result {
                    Some(pb::apply_response::Result::Rejected(r)) => {
                        let code = r
                            .rejection
                            .as_ref()
                            .map(|r| r.code().as_str_name())
                            .unwrap_or("REJECTION_CODE_UNSPECIFIED");
                        call.span.record("rejection_code", code);
                        "rejected"
                    }
                    _ => "accepted",
                };
                (Ok(applied.response), Some(outcome))
            }
            Err(e) => (Err(e), None),
        };
        call.finish(&game, &mut result, outcome);
        result
    }

    /// LegalActions. Errors as Apply, plus INVALID_ARGUMENT for a seat not at the table.
    pub fn legal_actions(
        &self,
        req: &pb::LegalActionsRequest,
    ) -> Result<pb::LegalActionsResponse, Status> {
        let call = Call::start("LegalActions");
        let mut game = String::new();
        let mut result = guarded(|| {
            request_game(
                self.sealer.as_deref(),
                req.state.as_ref(),
                &req.sealed_state,
            )
            .and_then(|(gs, id)| {
                game = gs.game.clone();
                self.access(id.as_ref())?.require_seat(req.seat)?;
                dispatch!(
                    game_id(&gs.game, "state.game")?,
                    legal_actions(&gs, req.seat)
                )
            })
        });
        call.finish(&game, &mut result, None);
        result
    }

    /// View. Errors as LegalActions.
    pub fn view(&self, req: &pb::ViewRequest) -> Result<pb::ViewResponse, Status> {
        let call = Call::start("View");
        let mut game = String::new();
        let mut result = guarded(|| {
            request_game(
                self.sealer.as_deref(),
                req.state.as_ref(),
                &req.sealed_state,
            )
            .and_then(|(gs, id)| {
                game = gs.game.clone();
                let access = self.access(id.as_ref())?;
                let viewer = self.viewer(req, access)?;
                if let referee_engine::Viewer::Seat(s) = viewer {
                    access.require_seat(s)?;
                }
                dispatch!(game_id(&gs.game, "state.game")?, view_for(&gs, viewer))
            })
        });
        call.finish(&game, &mut result, None);
        result
    }

    /// Who a View is for: `viewer` and `seat` (see `ViewRequest.viewer`). Errors:
    /// INVALID_ARGUMENT (inconsistent fields), PERMISSION_DENIED (arbiter not allowed).
    fn viewer(
        &self,
        req: &pb::ViewRequest,
        access: Access,
    ) -> Result<referee_engine::Viewer, Status> {
        use referee_engine::Viewer;
        match pb::ViewerRole::try_from(req.viewer) {
            Ok(pb::ViewerRole::Unspecified) => Ok(req.seat.map_or(Viewer::Spectator, Viewer::Seat)),
            Ok(pb::ViewerRole::Seat) => req
                .seat
                .map(Viewer::Seat)
                .ok_or_else(|| Status::invalid_argument("seat: required with VIEWER_ROLE_SEAT")),
            Ok(pb::ViewerRole::Spectator) => match req.seat {
                Some(_) => Err(Status::invalid_argument(
                    "seat: must be unset for VIEWER_ROLE_SPECTATOR",
                )),
                None => Ok(Viewer::Spectator),
            },
            Ok(pb::ViewerRole::Arbiter) => {
                if req.seat.is_some() {
                    return Err(Status::invalid_argument(
                        "seat: must be unset for VIEWER_ROLE_ARBITER",
                    ));
                }
                if access != Access::Arbiter && !self.arbiter_allowed(&req.arbiter_key) {
                    return Err(Status::permission_denied(
                        "viewer: arbiter views need a server started with --allow-arbiter-view, or (sealed mode) the arbiter credential (header `referee-credential`) or one of its sealing keys in `arbiter_key`",
                    ));
                }
                Ok(Viewer::Arbiter)
            }
            Err(_) => Err(Status::invalid_argument(format!(
                "viewer: unknown value {}",
                req.viewer
            ))),
        }
    }

    /// Replay. A refused action ends the replay: `failure` says which and why. CANCELLED
    /// (work stopped) once `cancel` is set.
    pub fn replay(
        &self,
        req: &pb::ReplayRequest,
        cancel: &Cancel,
    ) -> Result<pb::ReplayResponse, Status> {
        let call = Call::start("Replay");
        let sealer = self.sealer.as_deref();
        let mut result = guarded(|| {
            games::check_action_count("actions", req.actions.len(), false)?;
            let access = self.creator_access()?;
            game_id(&req.game, "game")
                .and_then(|g| dispatch!(g, replay(req, cancel)))
                .and_then(|mut resp| {
                    let game = crate::seal::new_game_id();
                    set_state!(resp, outgoing(sealer, resp.state, &game, access, true)?);
                    Ok(resp)
                })
        });
        let outcome = match &result {
            Ok(r) if r.failure.is_some() => Some("rejected"),
            _ => None,
        };
        call.finish(&req.game, &mut result, outcome);
        result
    }
}

impl Api {
    /// ImportGame: a recorded game (18xx.games export of 1841) replayed through the engine
    /// ([`crate::game_records::import_game`]); the state is sealed in sealed mode. Problems of
    /// the recorded game are `failure` in the answer; INVALID_ARGUMENT for an unknown
    /// `format`, and for an export that would take more than `--max-decoded-bytes` once read
    /// (counted before it is read: [`crate::decoded_size::import_json`]; served, the same
    /// estimate is part of the request's decoded size, taken from `--max-buffered-bytes` by
    /// the body layer for the call).
    pub fn import_game(
        &self,
        req: &pb::ImportGameRequest,
    ) -> Result<pb::ImportGameResponse, Status> {
        let call = Call::start("ImportGame");
        let sealer = self.sealer.as_deref();
        let mut result = guarded(|| {
            let access = self.creator_access()?;
            crate::decoded_size::import_json(&req.export_json, self.max_decoded_bytes)
                .map_err(|e| e.status("the recorded game"))?;
            let mut resp = crate::game_records::import_game(req)?;
            let game = crate::seal::new_game_id();
            set_state!(resp, outgoing(sealer, resp.state, &game, access, true)?);
            Ok(resp)
        });
        let outcome = match &result {
            Ok(r) => {
                if let Some(code) = r
                    .failure
                    .as_ref()
                    .and_then(|f| f.rejection.as_ref())
                    .map(|r| r.code().as_str_name())
                {
                    call.span.record("rejection_code", code);
                }
                Some(if r.failure.is_some() {
                    "failed"
                } else {
                    "imported"
                })
            }
            Err(_) => None,
        };
        call.finish("1841", &mut result, outcome);
        result
    }

    /// ExportGame: a game's setup and actions (as Replay takes them) written as an 18xx.games
    /// export ([`crate::game_records::export_game`]). The request carries the whole history,
    /// so nothing is sealed. A refused action is `failure` in the answer.
    pub fn export_game(
        &self,
        req: &pb::ExportGameRequest,
    ) -> Result<pb::ExportGameResponse, Status> {
        let call = Call::start("ExportGame");
        let game = req
            .game
            .as_ref()
            .map(|g| g.game.clone())
            .unwrap_or_default();
        let mut result = guarded(|| {
            let actions = req.game.as_ref().map_or(0, |g| g.actions.len());
            games::check_action_count("game.actions", actions, false)?;
            crate::game_records::export_game(req)
        });
        let outcome = match &result {
            Ok(r) if r.failure.is_some() => Some("rejected"),
            _ => None,
        };
        call.finish(&game, &mut result, outcome);
        result
    }
}

/// Beyond Apply (issue #9).
impl Api {
    /// ApplyBatch: the actions in order until the first refused one
    /// ([`games::apply_batch`]); the final state sealed in sealed mode. Errors as Apply;
    /// CANCELLED (work stopped) once `cancel` is set.
    pub fn apply_batch(
        &self,
        req: &pb::ApplyBatchRequest,
        cancel: &Cancel,
    ) -> Result<pb::ApplyBatchResponse, Status> {
        let call = Call::start("ApplyBatch");
        let mut game = String::new();
        let sealer = self.sealer.as_deref();
        let mut result = guarded(|| {
            games::check_action_count("actions", req.actions.len(), true)?;
            let (gs, id) = request_game(sealer, req.state.as_ref(), &req.sealed_state)?;
            game = gs.game.clone();
            // Every entry is checked before any is applied: a seat caller cannot play
            // the other seats' moves, not even on a trial copy (1841 Version 1 bids).
            let access = self.access(id.as_ref())?;
            access.allow_state_hash(&req.expected_state_hash)?;
            for (i, sa) in req.actions.iter().enumerate() {
                access.require_seat(sa.seat).map_err(|e| {
                    Status::permission_denied(format!("actions[{i}].{}", e.message()))
                })?;
            }
            let mut resp = dispatch!(
                game_id(&gs.game, "state.game")?,
                apply_batch(&gs, req, cancel)
            )?;
            let id = id.unwrap_or_else(crate::seal::new_game_id);
            set_state!(resp, outgoing(sealer, resp.state, &id, access, false)?);
            Ok(resp)
        });
        let outcome = match &result {
            Ok(r) if r.failure.is_some() => Some("rejected"),
            Ok(_) => Some("accepted"),
            Err(_) => None,
        };
        call.finish(&game, &mut result, outcome);
        result
    }

    /// StreamReplay: hands every message to `emit` as it is made (sealed per message in
    /// sealed mode); an error from `emit` (the receiver is gone: CANCELLED, the deadline
    /// passed: DEADLINE_EXCEEDED) ends the replay with it ([`crate::work::stream`]). Errors
    /// before the first message: as Replay.
    pub fn stream_replay(
        &self,
        req: &pb::StreamReplayRequest,
        emit: &mut dyn FnMut(pb::StreamReplayResponse) -> Result<(), Status>,
    ) -> Result<(), Status> {
        let call = Call::start("StreamReplay");
        let sealer = self.sealer.as_deref();
        let game = req
            .game
            .as_ref()
            .map(|g| g.game.clone())
            .unwrap_or_default();
        let mut result = guarded(|| {
            let actions = req.game.as_ref().map_or(0, |g| g.actions.len());
            games::check_action_count("game.actions", actions, false)?;
            let access = self.creator_access()?;
            let id = crate::seal::new_game_id();
            let mut first = true;
            let mut seal_and_emit = |mut frame: pb::StreamReplayResponse| {
                let carries_state = frame.state.is_some();
                set_state!(
                    frame,
                    outgoing(sealer, frame.state.take(), &id, access, first)?
                );
                // The seat credentials of the new game come once, with the first state.
                first &= !carries_state;
                emit(frame)
            };
            dispatch!(
                game_id(&game, "game.game")?,
                stream_replay(req, &mut seal_and_emit)
            )
        });
        call.finish(&game, &mut result, None);
        result
    }

    /// Playout: games played on from the request's state ([`games::playout`]) until the
    /// deadline: the smaller of `client_timeout` (gRPC `grpc-timeout`) and the server's
    /// request timeout, less 10 % for the answer to travel, counted from `arrived` (when the
    /// request arrived, [`crate::work::Arrival`]: the time its body took to arrive and the
    /// time it waited for a worker count; `None`: now). When the deadline passes, the games
    /// finished so far are the answer (`partial`). Sealed mode needs `--allow-arbiter-view`
    /// (PERMISSION_DENIED otherwise). CANCELLED (work stopped) once `cancel` is set.
    pub fn playout(
        &self,
        req: &pb::PlayoutRequest,
        client_timeout: Option<Duration>,
        arrived: Option<Instant>,
        cancel: &Cancel,
    ) -> Result<pb::PlayoutResponse, Status> {
        let call = Call::start("Playout");
        let limit = client_timeout.map_or(self.request_timeout, |t| t.min(self.request_timeout));
        let deadline = arrived.unwrap_or_else(Instant::now) + limit.mul_f64(0.9);
        let mut game = String::new();
        let sealer = self.sealer.as_deref();
        let mut result = guarded(|| {
            let (gs, id) = request_game(sealer, req.state.as_ref(), &req.sealed_state)?;
            if sealer.is_some() && self.access(id.as_ref())? != Access::Arbiter {
                return Err(Status::permission_denied(
                    "Playout in sealed mode needs the arbiter credential (header `referee-credential`) or a server started with --allow-arbiter-view (the results depend on hidden information)",
                ));
            }
            game = gs.game.clone();
            dispatch!(
                game_id(&gs.game, "state.game")?,
                playout(&gs, req, deadline, cancel)
            )
        });
        let outcome = match &result {
            Ok(r) if r.partial => Some("partial"),
            _ => None,
        };
        call.finish(&game, &mut result, outcome);
        result
    }

    /// SuggestRoutes (1841): [`games::g1841::suggest_routes`].
    pub fn suggest_routes(
        &self,
        req: &pb::SuggestRoutesRequest,
    ) -> Result<pb::SuggestRoutesResponse, Status> {
        self.on_state(
            "SuggestRoutes",
            None,
            req.state.as_ref(),
            &req.sealed_state,
            |gs, _| {
                let r = games::g1841::suggest_routes(gs, req)?;
                // A search stopped because its caller went away (work::blocking) answers
                // nobody: say so rather than pass off a cut search.
                if referee_engine::interrupt::cancelled() {
                    return Err(Cancel::stopped(&format!("after {} work units", r.work)));
                }
                Ok(r)
            },
        )
    }

    /// DefaultAction: [`games::default_action`].
    pub fn default_action(
        &self,
        req: &pb::DefaultActionRequest,
    ) -> Result<pb::DefaultActionResponse, Status> {
        let (state, sealed) = (req.state.as_ref(), &req.sealed_state);
        self.on_state(
            "DefaultAction",
            Some(req.seat),
            state,
            sealed,
            |gs, access| {
                // A bot playing for a seat or a spectator sees what they see (finding G).
                let sees_secrets = matches!(access, Access::Open | Access::Arbiter);
                dispatch!(
                    game_id(&gs.game, "state.game")?,
                    default_action(gs, req, sees_secrets)
                )
            },
        )
    }

    /// Describe: [`games::describe`].
    pub fn describe(&self, req: &pb::DescribeRequest) -> Result<pb::DescribeResponse, Status> {
        let (state, sealed) = (req.state.as_ref(), &req.sealed_state);
        self.on_state("Describe", Some(req.seat), state, sealed, |gs, _| {
            dispatch!(game_id(&gs.game, "state.game")?, describe(gs, req))
        })
    }

    /// GetGameData: [`crate::game_data::get_game_data`] (static data, no state; the same
    /// in open and sealed mode).
    pub fn get_game_data(
        &self,
        req: &pb::GetGameDataRequest,
    ) -> Result<pb::GetGameDataResponse, Status> {
        let call = Call::start("GetGameData");
        let mut result = guarded(|| crate::game_data::get_game_data(req));
        call.finish(&req.game, &mut result, None);
        result
    }

    /// A call that answers from one state, open (`state`) or sealed (`sealed`): the call's
    /// span (with `seat` and the state's game), the state read as the server's mode wants,
    /// panics in the engine turned into `INTERNAL` ([`guarded`]).
    fn on_state<T>(
        &self,
        rpc: &'static str,
        seat: Option<u32>,
        state: Option<&pb::GameState>,
        sealed: &[u8],
        answer: impl FnOnce(&pb::GameState, Access) -> Result<T, Status>,
    ) -> Result<T, Status> {
        let call = Call::start(rpc);
        if let Some(seat) = seat {
            call.span.record("seat", seat);
        }
        let mut game = String::new();
        let mut result = guarded(|| {
            let (gs, id) = request_game(self.sealer.as_deref(), state, sealed)?;
            game = gs.game.clone();
            let access = self.access(id.as_ref())?;
            if let Some(seat) = seat {
                access.require_seat(seat)?;
            }
            answer(&gs, access)
        });
        call.finish(&game, &mut result, None);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metric_names_only_known_games() {
        assert_eq!(metric_game("1841"), "1841");
        assert_eq!(metric_game("autobahn"), "autobahn");
        assert_eq!(metric_game(""), "");
        assert_eq!(metric_game("x\nanything a caller sends"), "other");
    }

    #[test]
    fn a_panic_in_the_engine_becomes_internal_for_that_call() {
        let r: Result<(), Status> = guarded(|| panic!("engine bug"));
        let status = r.unwrap_err();
        assert_eq!(status.code(), tonic::Code::Internal);
        assert!(status.message().contains("please report"));
        assert_eq!(guarded(|| Ok::<_, Status>(7)).unwrap(), 7);
    }
}
