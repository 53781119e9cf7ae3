//! Typed rejections: why an action was refused.

use std::fmt;

/// Closed set of reasons an action can be refused. Mirrors `referee.v1.RejectionCode`
/// on the wire (additive only: new codes may be added, none renumbered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RejectionCode {
    /// The seat is not one of the seats that must act now.
    NotYourTurn,
    /// The action type is not accepted in the current round or step.
    WrongStep,
    /// The action is of the right kind but breaks a rule (amount, target, limit).
    IllegalMove,
    /// The acting player or company cannot pay.
    InsufficientFunds,
    /// The action names something that does not exist or is malformed (unknown concession,
    /// seat out of range, empty field).
    InvalidArgument,
    /// The game has ended; no more actions are accepted.
    GameOver,
    /// The caller's view of the game is out of date (action count or state hash mismatch).
    StaleState,
    /// This part of the rules is not implemented by this build yet.
    Unsupported,
}

impl RejectionCode {
    /// Stable SCREAMING_SNAKE name, as used on the wire and in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotYourTurn => "NOT_YOUR_TURN",
            Self::WrongStep => "WRONG_STEP",
            Self::IllegalMove => "ILLEGAL_MOVE",
            Self::InsufficientFunds => "INSUFFICIENT_FUNDS",
            Self::InvalidArgument => "INVALID_ARGUMENT",
            Self::GameOver => "GAME_OVER",
            Self::StaleState => "STALE_STATE",
            Self::Unsupported => "UNSUPPORTED",
        }
    }
}

/// A refused action: a code, one plain sentence for the player, and the rule it rests on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rejection {
    /// Machine-readable reason.
    pub code: RejectionCode,
    /// One sentence a player understands, e.g. "A bid must be at least L.5 above L.40.".
    pub message: String,
    /// The rule cited, e.g. `1841 §4.1`, `FAQ-Q12`, `AQ-2`; empty when no rule applies.
    pub rule: String,
}

impl Rejection {
    /// Builds a rejection citing `rule`.
    pub fn new(code: RejectionCode, rule: &str, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            rule: rule.to_string(),
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rule.is_empty() {
            write!(f, "{}: {}", self.code.as_str(), self.message)
        } else {
            write!(
                f,
                "{}: {} ({})",
                self.code.as_str(),
                self.message,
                self.rule
            )
        }
    }
}

impl std::error::Error for Rejection {}
