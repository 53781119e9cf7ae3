//! Variant switches of 1841 (1841 §0.2, §15). Mirrors `referee.g1841.v1.Options`.

use serde::{Deserialize, Serialize};

use crate::SetupError;
use crate::catalog::{OptionInfo, OptionKind};

/// Variant switches; all off = Version 2 rules on the full map (1841 §0.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Version 1 rules: sealed-bid concession round with tie auctions (1841 §4.2, §15.1).
    pub version_1: bool,
    /// 1841lite: 5 concessions, 3–6 players, lite starting cash, bank L.10,900 (1841 §15.2).
    pub lite: bool,
    /// Player-to-player purchases (1841 §15.3). No effect in the concession round.
    pub p2p_purchases: bool,
    /// With `version_1`: SFLi may run in the OR it forms (1841 §0.2). No effect in the
    /// concession round.
    pub sfli_run_variant: bool,
}

/// The option names, in the order `ListGames` reports them.
pub const OPTION_NAMES: [&str; 4] = ["version_1", "lite", "p2p_purchases", "sfli_run_variant"];

impl Options {
    /// Whether the concession round uses sealed bids and tie auctions (1841 §4.2) instead of
    /// the nomination auction (1841 §4.1).
    pub fn sealed_bids(&self) -> bool {
        self.version_1
    }

    /// Sets option `name` from its text value (`true`/`false`).
    ///
    /// Errors: [`SetupError::UnknownOption`] for a name not in [`OPTION_NAMES`],
    /// [`SetupError::BadOption`] for a value that is not `true` or `false`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SetupError> {
        let flag = match value {
            "true" => true,
            "false" => false,
            other => {
                return Err(SetupError::BadOption {
                    name: name.to_string(),
                    reason: format!("expected true or false, got `{other}`"),
                });
            }
        };
        match name {
            "version_1" => self.version_1 = flag,
            "lite" => self.lite = flag,
            "p2p_purchases" => self.p2p_purchases = flag,
            "sfli_run_variant" => self.sfli_run_variant = flag,
            other => return Err(SetupError::UnknownOption(other.to_string())),
        }
        Ok(())
    }

    /// Options from the `optional_rules` symbols of an 18xx.games game (1841 §0.2).
    ///
    /// Errors: [`SetupError::UnknownOption`] for a symbol 1841 does not have.
    pub fn from_optional_rules<S: AsRef<str>>(rules: &[S]) -> Result<Self, SetupError> {
        let mut options = Self::default();
        for rule in rules {
            options.set(rule.as_ref(), "true")?;
        }
        Ok(options)
    }
}

/// Descriptions of the options for the catalog (1841 §0.2).
pub fn option_infos() -> Vec<OptionInfo> {
    vec![
        OptionInfo {
            name: "version_1",
            kind: OptionKind::Bool,
            default: "false",
            description: "Version 1 rules: sealed-bid concession round with tie auctions (1841 §4.2, §15.1).",
        },
        OptionInfo {
            name: "lite",
            kind: OptionKind::Bool,
            default: "false",
            description: "1841lite: no Tuscany, 5 concessions, 3–6 players, smaller bank L.10,900 and starting cash (1841 §15.2).",
        },
        OptionInfo {
            name: "p2p_purchases",
            kind: OptionKind::Bool,
            default: "false",
            description: "Players may buy shares and concessions from other players (1841 §15.3).",
        },
        OptionInfo {
            name: "sfli_run_variant",
            kind: OptionKind::Bool,
            default: "false",
            description: "With version_1: SFLi may run in the operating round it forms (1841 §0.2).",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s0_2_optional_rules_map_to_options() {
        let o = Options::from_optional_rules(&["lite", "version_1"]).unwrap();
        assert!(o.lite && o.version_1 && !o.p2p_purchases && !o.sfli_run_variant);
        assert_eq!(
            Options::from_optional_rules(&["double_dip"]),
            Err(SetupError::UnknownOption("double_dip".into()))
        );
        let mut o = Options::default();
        assert!(matches!(
            o.set("lite", "yes"),
            Err(SetupError::BadOption { .. })
        ));
        assert_eq!(o, Options::default());
    }

    #[test]
    fn s0_2_option_infos_match_option_names() {
        let names: Vec<_> = option_infos().iter().map(|o| o.name).collect();
        assert_eq!(names, OPTION_NAMES);
    }
}
