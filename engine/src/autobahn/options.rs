//! Options of Autobahn (`referee.autobahn.v1.Options`).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::board::Board;
use crate::SetupError;
use crate::catalog::{OptionInfo, OptionKind};

/// Options. Every [U] rule point is a value of the board definition (autobahn §11, §12);
/// the options choose the board and the few rule switches that are not data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// The board definition (default: the shipped reconstruction, not the printed board).
    #[serde(with = "super::board::arc_board")]
    pub board: Arc<Board>,
    /// Solo difficulty 1–12 (autobahn §8.7); used only with one seat.
    pub autobot_level: u32,
    /// Budget connection rule (autobahn §6 step 2): `false` (default, [L]) counts a city that
    /// ends at least one complete link; `true` requires it to be joined through complete
    /// links to the pre-built road.
    pub strict_budget_connection: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            board: Arc::new(Board::default_board()),
            autobot_level: 1,
            strict_budget_connection: false,
        }
    }
}

/// Option names in `ListGames` order.
pub const OPTION_NAMES: [&str; 3] = ["board", "autobot_level", "strict_budget_connection"];

impl Options {
    /// Sets option `name` from text.
    ///
    /// Errors: unknown name, or a bad value (a board that fails validation lists every
    /// problem with its path).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SetupError> {
        let bad = |reason: String| SetupError::BadOption {
            name: name.to_string(),
            reason,
        };
        match name {
            "board" if !value.trim_start().starts_with('{') => {
                // A shipped board by id (the default or an earlier default).
                let id = value.trim();
                let b = Board::shipped(id).ok_or_else(|| {
                    bad(format!(
                        "`{id}` is not a shipped board ({}); a custom board is given as its JSON text",
                        Board::shipped_ids().join(", ")
                    ))
                })?;
                self.board = Arc::new(b);
            }
            "board" => {
                let b = Board::from_json(value).map_err(|p| {
                    bad(p
                        .iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("; "))
                })?;
                self.board = Arc::new(b);
            }
            "autobot_level" => {
                let n: u32 = value
                    .parse()
                    .map_err(|_| bad(format!("expected 1–12, got `{value}`")))?;
                if !(1..=12).contains(&n) {
                    return Err(bad(format!("expected 1–12, got {n}")));
                }
                self.autobot_level = n;
            }
            "strict_budget_connection" => {
                // `default` / empty: the default, off (autobahn §0.2).
                self.strict_budget_connection = crate::catalog::parse_switch(value)
                    .map_err(bad)?
                    .unwrap_or(false);
            }
            other => return Err(SetupError::UnknownOption(other.to_string())),
        }
        Ok(())
    }
}

/// Catalog descriptions.
pub fn option_infos() -> Vec<OptionInfo> {
    vec![
        OptionInfo {
            name: "board",
            kind: OptionKind::Text,
            default: "(the shipped reconstruction)",
            description: "Board definition JSON, format version 1 (docs/games/autobahn.md). The default is a reconstruction, not the printed board (autobahn §0.2, §12).",
        },
        OptionInfo {
            name: "autobot_level",
            kind: OptionKind::Int { min: 1, max: 12 },
            default: "1",
            description: "Solo game: the Autobot's difficulty level 1–12 (autobahn §8.7).",
        },
        OptionInfo {
            name: "strict_budget_connection",
            kind: OptionKind::Bool,
            default: "false",
            description: "Construction budget counts only cities joined to the pre-built road through complete links (autobahn §6 step 2 alternative).",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `strict_budget_connection` reads its value like every switch (`catalog::parse_switch`);
    /// `default` / empty is off (autobahn §0.2).
    #[test]
    fn strict_budget_connection_values() {
        for (value, on) in [
            ("true", true),
            ("YES", true),
            ("0", false),
            ("default", false),
            ("", false),
        ] {
            let mut o = Options::default();
            o.set("strict_budget_connection", value).unwrap();
            assert_eq!(o.strict_budget_connection, on, "`{value}`");
        }
        let mut o = Options::default();
        assert!(matches!(
            o.set("strict_budget_connection", "perhaps"),
            Err(SetupError::BadOption { .. })
        ));
    }
}
