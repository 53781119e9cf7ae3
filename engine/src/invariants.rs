//! Invariant checking shared by every game.
//!
//! Each game has one checker, `check_invariants(&State) -> Result<(), InvariantViolation>`
//! ([`crate::g1841::check_invariants`], [`crate::autobahn::check_invariants`]): conservation
//! of money, pieces and shares, and the consistency of every index (seats, offices, tokens,
//! holdings, ids of the game data). The same checker is used
//!
//! * by the service, on every state it decodes (a violation is `INVALID_ARGUMENT` with the
//!   field path, prefixed by the envelope's path such as `state.g1841.`);
//! * by the property tests and random full games, after every action;
//! * as a `debug_assert!` after every accepted `Game::apply` in debug builds (tests, fuzzing),
//!   so a rules bug that breaks an invariant stops at the action that caused it. Release
//!   builds skip it (the service validates incoming states anyway).

use std::fmt;

/// The first broken invariant found in a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantViolation {
    /// Field path relative to the game's state, e.g. `players[2].cash` or
    /// `corporations[3].certificates[1].owner`.
    pub path: String,
    /// What is wrong, in one sentence.
    pub message: String,
}

impl InvariantViolation {
    /// A violation at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for InvariantViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for InvariantViolation {}
