//! # referee-engine
//!
//! The rules of the games Referee serves, as a pure library: no I/O, no async, no protobuf.
//! Every game implements [`Game`]; the service (crate `referee-service`) maps its types to
//! the wire API and dispatches on the game id.
//!
//! ## Contract (shared by every game)
//! * [`Game::setup`] is deterministic for a given options value, seat count and seed.
//! * [`Game::apply`] is **transactional**: on `Err(Rejection)` the state is exactly as it was
//!   before the call. It never panics on any input: a bad action is a [`Rejection`].
//! * [`Game::legal_actions`] lists actions that `apply` accepts; everything `apply` accepts is
//!   listed (or covered by a listed range, e.g. bid amounts).
//! * [`Game::to_act`] lists the seats that must act now (several for simultaneous decisions such
//!   as Version 1 sealed bids in 1841).
//! * Randomness, where a game has any, comes only from a seeded RNG stored in the state.
//!
//! Seats are numbered from 0 in the order given at setup.

pub mod autobahn;
pub mod catalog;
pub mod g1841;
pub mod game_data;
pub mod interrupt;
pub mod invariants;
pub mod rejection;

pub use catalog::{GameInfo, GameStage, OptionInfo, OptionKind};
pub use invariants::InvariantViolation;
pub use rejection::{Rejection, RejectionCode};

/// A seat at the table, numbered from 0 in setup order.
pub type Seat = u32;

/// Who looks at the game: one seat (sees its own secrets), a spectator (sees only public
/// data) or an arbiter (sees everything). Once the game has ended every viewer sees
/// everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Anybody without a seat: public information only.
    Spectator,
    /// A referee or tournament director: everything, secrets included (the service grants it
    /// only when configured to).
    Arbiter,
}

/// Final result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Final score per seat (1841: total value in Lire; Autobahn: victory points).
    pub scores: Vec<i64>,
    /// Rank per seat, 1 = best; equal ranks for ties the rules do not break.
    pub ranks: Vec<u32>,
    /// Why the game ended, in the game's own vocabulary (1841: `bank`, `stock_market`, ...).
    pub end_reason: String,
}

/// Why a game could not be set up (bad seat count, unknown or ill-typed option).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The number of seats is outside the game's player range (for the chosen options).
    #[error("{game} needs {min} to {max} players with these options, got {got}")]
    PlayerCount {
        /// Game id.
        game: &'static str,
        /// Smallest allowed seat count.
        min: u32,
        /// Largest allowed seat count.
        max: u32,
        /// Seat count asked for.
        got: u32,
    },
    /// An option name the game does not know.
    #[error("unknown option `{0}`")]
    UnknownOption(String),
    /// An option value of the wrong type or out of range.
    #[error("option `{name}`: {reason}")]
    BadOption {
        /// Option name.
        name: String,
        /// What is wrong with its value.
        reason: String,
    },
}

/// One game title. The service holds one implementation per game id.
pub trait Game {
    /// Parsed, validated options (variants) of a game.
    type Options: Clone + std::fmt::Debug;
    /// The complete state of one game in progress (everything needed to continue it).
    type State: Clone + std::fmt::Debug + PartialEq;
    /// One move by one seat.
    type Action: Clone + std::fmt::Debug + PartialEq;
    /// Something that happened while applying an action (for logs and UIs).
    type Event: Clone + std::fmt::Debug + PartialEq;
    /// What one viewer may see of the state.
    type View: Clone + std::fmt::Debug;

    /// Static description: id, name, player range, options.
    fn info() -> GameInfo;

    /// Creates a new game for `seats` players (seat 0 first in setup order).
    ///
    /// Errors: [`SetupError`] for a seat count outside the player range.
    fn setup(options: &Self::Options, seats: u32, seed: u64) -> Result<Self::State, SetupError>;

    /// Applies `action` by `seat`. On `Err` the state is unchanged. In debug builds every
    /// accepted action is followed by a `debug_assert!` of the game's invariant checker
    /// ([`invariants`]).
    fn apply(
        state: &mut Self::State,
        seat: Seat,
        action: &Self::Action,
    ) -> Result<Vec<Self::Event>, Rejection>;

    /// Every action `seat` may take now (empty when the seat need not act).
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// Seats that must act now, in the order the rules give them (empty when the game is over).
    fn to_act(state: &Self::State) -> Vec<Seat>;

    /// The result once the game has ended, `None` while it is running.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// What `viewer` may see: secrets of other seats are removed.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;
}

/// Version of the rules implementation, stamped into every state the service writes.
/// Bumped whenever a rules fix changes how an existing state continues.
pub const RULES_VERSION: &str = concat!("referee-engine ", env!("CARGO_PKG_VERSION"));

/// All game titles this build knows, in the order `ListGames` reports them.
pub fn games() -> Vec<GameInfo> {
    vec![g1841::G1841::info(), autobahn::Autobahn::info()]
}
