//! Static descriptions of the game titles (what `ListGames` reports).

/// How much of a title this build implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStage {
    /// Listed so clients can plan for it; `NewGame` refuses it.
    Planned,
    /// Playable in part: the parts listed in [`GameInfo::coverage`] follow the rules exactly;
    /// actions beyond them are refused with `UNSUPPORTED`.
    Partial,
    /// The whole game is implemented.
    Complete,
}

/// Type and range of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// On/off switch.
    Bool,
    /// Whole number in `min..=max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// Free text (e.g. a board definition).
    Text,
}

/// Reads the text value of an on/off option, the same way for every option of every game:
/// `true`, `1`, `yes`, `on` → `Some(true)`; `false`, `0`, `no`, `off` → `Some(false)`;
/// `default` or an empty value → `None` (the option's default, which for an 1841 FAQ option
/// depends on the version). Case and surrounding spaces are ignored.
///
/// Errors: a message naming the accepted values, for anything else.
pub fn parse_switch(value: &str) -> Result<Option<bool>, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(Some(true)),
        "false" | "0" | "no" | "off" => Ok(Some(false)),
        "" | "default" => Ok(None),
        _ => Err(format!(
            "expected true, false or default (also 1/0, yes/no, on/off), got `{value}`"
        )),
    }
}

/// One variant switch of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// snake_case name, e.g. `version_1`.
    pub name: &'static str,
    /// Type and range.
    pub kind: OptionKind,
    /// Default value as text (`false`, `3`, ...).
    pub default: &'static str,
    /// What it changes, with the rule source.
    pub description: &'static str,
}

/// Static description of one game title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// Game id used on the wire: `1841`, `autobahn`.
    pub id: &'static str,
    /// Name for people.
    pub display_name: &'static str,
    /// Fewest seats.
    pub min_players: u32,
    /// Most seats.
    pub max_players: u32,
    /// Variant switches.
    pub options: Vec<OptionInfo>,
    /// Implementation stage.
    pub stage: GameStage,
    /// What this build implements, in one or two sentences.
    pub coverage: &'static str,
}
