//! Why an import stopped ([`ImportFailure`]), with its closed set of kinds
//! ([`FailureKind`]).

use serde::Serialize;

use super::{ImportError, ImportedAction};
use crate::Rejection;

/// What stopped an import, as a closed set (mirrors `referee.v1.ImportFailureKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The text ends inside a JSON value (a cut file); `line`/`column` say where.
    TruncatedJson,
    /// The text is not JSON; `line`/`column` say where.
    MalformedJson,
    /// A required top-level field is missing or ill-typed (`players`, `actions`).
    MissingField,
    /// The export is of another game than 1841 (`title`).
    UnsupportedGame,
    /// `settings.optional_rules` names a rule 1841 does not have.
    UnknownOption,
    /// An `undo` names an action id that is not an effective action.
    UndoTargetMissing,
    /// No game can be set up with these players and options (player count, 1841 §1).
    Setup,
    /// An action's fields do not fit its type (`field` names the field).
    BadAction,
    /// An action type this build does not know.
    UnknownActionType,
    /// The rules refused the action (`rejection`).
    Refused,
}

/// Why an import stopped: the action (18xx id, index among the effective actions, type), the
/// field, the reason in plain words and, for a refused action, the engine's rejection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportFailure {
    /// What kind of problem.
    pub kind: FailureKind,
    /// The 18xx action id (`None` for file-level problems and generated `auto_actions`).
    pub action_id: Option<i64>,
    /// Index of the action among the effective actions (after undo/redo, auto actions
    /// flattened in), from 0.
    pub action_index: Option<usize>,
    /// The 18xx action type (`buy_shares`).
    pub action_type: Option<String>,
    /// The field at fault (`shares`, `city`, `players`), when one is.
    pub field: Option<String>,
    /// One sentence.
    pub reason: String,
    /// The engine's rejection of a refused action.
    pub rejection: Option<Rejection>,
    /// For JSON errors: line (from 1).
    pub line: Option<u64>,
    /// For JSON errors: column (from 1).
    pub column: Option<u64>,
}

impl ImportFailure {
    pub(super) fn new(kind: FailureKind, reason: String) -> Self {
        Self {
            kind,
            action_id: None,
            action_index: None,
            action_type: None,
            field: None,
            reason,
            rejection: None,
            line: None,
            column: None,
        }
    }

    pub(super) fn at(mut self, index: usize, action: &ImportedAction) -> Self {
        self.action_id = action.id;
        self.action_index = Some(index);
        self.action_type = Some(action.kind.clone());
        self
    }

    /// The failure for a reading error.
    pub fn from_error(e: &ImportError) -> Self {
        let reason = e.to_string();
        match e {
            ImportError::Json {
                line,
                column,
                truncated,
                ..
            } => Self {
                line: Some(*line),
                column: Some(*column),
                ..Self::new(
                    if *truncated {
                        FailureKind::TruncatedJson
                    } else {
                        FailureKind::MalformedJson
                    },
                    reason,
                )
            },
            ImportError::Field(f) => Self {
                field: Some(f.clone()),
                ..Self::new(FailureKind::MissingField, reason)
            },
            ImportError::UnknownOption(_) => Self {
                field: Some("settings.optional_rules".into()),
                ..Self::new(FailureKind::UnknownOption, reason)
            },
            ImportError::UndoTargetMissing(id) => Self {
                action_id: Some(*id),
                field: Some("action_id".into()),
                ..Self::new(FailureKind::UndoTargetMissing, reason)
            },
            ImportError::BadAction { id, field, reason } => Self {
                action_id: *id,
                field: Some(field.clone()),
                ..Self::new(FailureKind::BadAction, reason.clone())
            },
        }
    }
}

impl std::fmt::Display for ImportFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(id) = self.action_id {
            write!(f, "action {id}")?;
            if let Some(t) = &self.action_type {
                write!(f, " ({t})")?;
            }
            write!(f, ": ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "`{field}`: ")?;
        }
        write!(f, "{}", self.reason)?;
        if let Some(r) = &self.rejection {
            write!(f, " [{}", r.code.as_str())?;
            if !r.rule.is_empty() {
                write!(f, ", {}", r.rule)?;
            }
            write!(f, "]")?;
        }
        Ok(())
    }
}
