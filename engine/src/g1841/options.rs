//! Variant switches of 1841 (1841 §0.2, §15) and the FAQ rulings that differ from 18xx.games
//! (`1841-faq.md` §7). Mirrors `referee.g1841.v1.Options`.
//!
//! **FAQ options** are tri-state: unset (`None`) means the version's default, `Some(b)`
//! overrides it. Version 2 (the default) is the game as the recorded 18xx.games games show
//! it, so every FAQ option is off there unless set; `version_1` means the Version 1 rules as
//! amended by the FAQ, so the FAQ's clarifications, rulings and rule changes (FAQ-C, FAQ-Q,
//! FAQ-R, FAQ-T) are on there unless set. The unofficial variants (FAQ-V3
//! `no_cross_border_corporate_shares`, FAQ-V2 `sfli_run_variant`) stay off unless set, under
//! every version. The engine reads the FAQ options only through the accessor methods
//! ([`Options::half_price_round_down`] …), never through the fields.

use serde::{Deserialize, Serialize};

use crate::SetupError;
use crate::catalog::{OptionInfo, OptionKind};

/// Variant switches; all off / unset = Version 2 rules on the full map (1841 §0.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Version 1 rules: sealed-bid concession round with tie auctions (1841 §4.2, §15.1); the
    /// FAQ rulings default on (see the module documentation).
    pub version_1: bool,
    /// 1841lite: 5 concessions, 3–6 players, lite starting cash, bank L.10,900 (1841 §15.2).
    pub lite: bool,
    /// Player-to-player purchases (1841 §15.3). No effect in the concession round.
    pub p2p_purchases: bool,
    /// With `version_1`: SFLi may run in the OR it forms (1841 §0.2, FAQ-V2). No effect in
    /// the concession round.
    pub sfli_run_variant: bool,
    /// FAQ-C13, FAQ-M6: free choice of what to sell in emergency money raising (read through
    /// [`Options::emergency_sales_unrestricted`]).
    #[serde(default)]
    pub emergency_sales_unrestricted: Option<bool>,
    /// FAQ-R6: corporations may claim a merger's presidency (read through
    /// [`Options::merger_presidency_for_companies`]).
    #[serde(default)]
    pub merger_presidency_for_companies: Option<bool>,
    /// FAQ-T: merger price of majors capped at L.242 (read through
    /// [`Options::merger_price_cap`]).
    #[serde(default)]
    pub merger_price_cap: Option<bool>,
    /// FAQ-C11: a pass token is no route token (read through
    /// [`Options::pass_token_not_a_route_base`]).
    #[serde(default)]
    pub pass_token_not_a_route_base: Option<bool>,
    /// FAQ-R5: no corporate buy after a sale of the same corporation in the operating round
    /// (read through [`Options::no_corporate_rebuy_after_sale`]).
    #[serde(default)]
    pub no_corporate_rebuy_after_sale: Option<bool>,
    /// FAQ-Q2: a turn's price drops lowest value first (read through
    /// [`Options::price_drops_lowest_first`]).
    #[serde(default)]
    pub price_drops_lowest_first: Option<bool>,
    /// FAQ-Q27: L.516 and the off-boards end the game at once (read through
    /// [`Options::immediate_game_end`]).
    #[serde(default)]
    pub immediate_game_end: Option<bool>,
    /// FAQ-Q20: no train obligation once all 8-trains are sold (read through
    /// [`Options::no_train_obligation_after_last_8_train`]).
    #[serde(default)]
    pub no_train_obligation_after_last_8_train: Option<bool>,
    /// FAQ-C16, FAQ-Q25: a player's corporations and frozen corporations exchange in share
    /// value order (read through [`Options::exchanges_by_share_value`]).
    #[serde(default)]
    pub exchanges_by_share_value: Option<bool>,
    /// FAQ-Q21: half-price totals rounded down (read through
    /// [`Options::half_price_round_down`]).
    #[serde(default)]
    pub half_price_round_down: Option<bool>,
    /// FAQ-R3: unexchangeable IRSFF shares paid at market value (read through
    /// [`Options::ferdinandea_unexchanged_payout`]).
    #[serde(default)]
    pub ferdinandea_unexchanged_payout: Option<bool>,
    /// FAQ-V3 (variant): no corporate share buying across a border (read through
    /// [`Options::no_cross_border_corporate_shares`]).
    #[serde(default)]
    pub no_cross_border_corporate_shares: Option<bool>,
}

/// A tri-state FAQ option: its name, FAQ ids, whether `version_1` turns it on when unset,
/// and what it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaqOption {
    /// snake_case name (`1841-faq.md` §7 where it proposes one).
    pub name: &'static str,
    /// The FAQ entries it implements, e.g. `FAQ-Q21`.
    pub faq: &'static str,
    /// Whether it is on under `version_1` when unset (FAQ-C/Q/R/T rulings); the FAQ-V
    /// variants are off under every version.
    pub on_with_version_1: bool,
    /// Catalog text: FAQ ids, version default, and what it changes against 18xx.
    pub description: &'static str,
}

/// The tri-state FAQ options, in the order `ListGames` reports them (after the four
/// switches of [`OPTION_NAMES`]).
pub const FAQ_OPTIONS: [FaqOption; 12] = [
    FaqOption {
        name: "emergency_sales_unrestricted",
        faq: "FAQ-C13, FAQ-M6",
        on_with_version_1: true,
        description: "FAQ-C13, FAQ-M6. Version default: off in Version 2, on with version_1. In emergency money raising a corporation chooses freely between other corporations' certificates and its own IPO shares (off: 18xx, other corporations' certificates first).",
    },
    FaqOption {
        name: "merger_presidency_for_companies",
        faq: "FAQ-R6",
        on_with_version_1: true,
        description: "FAQ-R6. Version default: off in Version 2, on with version_1. A corporation holding old shares may claim the new president's certificate of a merger, paying from its treasury (off: 18xx, players only).",
    },
    FaqOption {
        name: "merger_price_cap",
        faq: "FAQ-T",
        on_with_version_1: true,
        description: "FAQ-T. Version default: off in Version 2, on with version_1. The new price of a merger of two majors always comes from the FAQ table on the sum of their prices, at most L.242 (off: 18xx, a price above L.250 is kept).",
    },
    FaqOption {
        name: "pass_token_not_a_route_base",
        faq: "FAQ-C11, FAQ-C5",
        on_with_version_1: true,
        description: "FAQ-C11, FAQ-C5. Version default: off in Version 2, on with version_1. A token in a pass does not count as the route's token (off: 18xx, it counts).",
    },
    FaqOption {
        name: "no_corporate_rebuy_after_sale",
        faq: "FAQ-R5",
        on_with_version_1: true,
        description: "FAQ-R5. Version default: off in Version 2, on with version_1. A corporation may not buy shares of a corporation whose shares it sold earlier in the same operating round, emergency sales included (off: 18xx, only after a sale in the same share step).",
    },
    FaqOption {
        name: "price_drops_lowest_first",
        faq: "FAQ-Q2",
        on_with_version_1: true,
        description: "FAQ-Q2. Version default: off in Version 2, on with version_1. The price drops of a turn's sales are made when the selling ends, lowest share value first, higher markers of a stack later; the sales are priced before the drops (off: 18xx, each sale drops at once).",
    },
    FaqOption {
        name: "immediate_game_end",
        faq: "FAQ-Q27",
        on_with_version_1: true,
        description: "FAQ-Q27. Version default: off in Version 2, on with version_1. L.516 or all off-boards connected end the game at once, also after the bank broke (off: 18xx, at the end of the current corporation's turn).",
    },
    FaqOption {
        name: "no_train_obligation_after_last_8_train",
        faq: "FAQ-Q20",
        on_with_version_1: true,
        description: "FAQ-Q20. Version default: off in Version 2, on with version_1. Once all seven 8-trains are sold no corporation must own a train (off: 18xx, the obligation lasts while the depot or the pool holds a train).",
    },
    FaqOption {
        name: "exchanges_by_share_value",
        faq: "FAQ-C16, FAQ-Q25",
        on_with_version_1: true,
        description: "FAQ-C16, FAQ-Q25. Version default: off in Version 2, on with version_1. In mergers, transformations and the split a player's corporations and the frozen corporations act in descending share value (off: 18xx, corporation list order).",
    },
    FaqOption {
        name: "half_price_round_down",
        faq: "FAQ-Q21",
        on_with_version_1: true,
        description: "FAQ-Q21. Version default: off in Version 2, on with version_1. Half-price sales pay the total rounded down: 3 × L.75 → L.112 (off: 18xx, rounded up, L.113).",
    },
    FaqOption {
        name: "ferdinandea_unexchanged_payout",
        faq: "FAQ-R3",
        on_with_version_1: true,
        description: "FAQ-R3. Version default: off in Version 2, on with version_1. IRSFF shares that cannot be exchanged at the split (successors sold out, Version 1 only) are paid at IRSFF's market value by the bank (off: 18xx, they are lost).",
    },
    FaqOption {
        name: "no_cross_border_corporate_shares",
        faq: "FAQ-V3",
        on_with_version_1: false,
        description: "FAQ-V3 (variant). Version default: off under every version. A corporation may not buy shares of a corporation with a token across an active border from one of its own tokens.",
    },
];

/// The plain on/off switches, in the order `ListGames` reports them (the FAQ options of
/// [`FAQ_OPTIONS`] follow).
pub const OPTION_NAMES: [&str; 4] = ["version_1", "lite", "p2p_purchases", "sfli_run_variant"];

/// Every option name, in the order `ListGames` reports them.
pub fn all_option_names() -> Vec<&'static str> {
    OPTION_NAMES
        .iter()
        .copied()
        .chain(FAQ_OPTIONS.iter().map(|o| o.name))
        .collect()
}

impl Options {
    /// Whether the concession round uses sealed bids and tie auctions (1841 §4.2) instead of
    /// the nomination auction (1841 §4.1).
    pub fn sealed_bids(&self) -> bool {
        self.version_1
    }

    /// Every FAQ option on (the rule set `version_1` implies, plus the FAQ-V3 variant):
    /// `self` with each FAQ option set to `Some(true)`.
    pub fn with_all_faq_rulings(mut self) -> Self {
        for o in FAQ_OPTIONS {
            if let Some(f) = self.faq_field_mut(o.name) {
                *f = Some(true);
            }
        }
        self
    }

    /// The FAQ options set explicitly (`name`, value), in [`FAQ_OPTIONS`] order; unset ones
    /// (the version default) are left out.
    pub fn faq_options_set(&self) -> Vec<(&'static str, bool)> {
        FAQ_OPTIONS
            .iter()
            .filter_map(|o| Some((o.name, self.faq_field(o.name)??)))
            .collect()
    }

    fn faq_field(&self, name: &str) -> Option<Option<bool>> {
        Some(match name {
            "emergency_sales_unrestricted" => self.emergency_sales_unrestricted,
            "merger_presidency_for_companies" => self.merger_presidency_for_companies,
            "merger_price_cap" => self.merger_price_cap,
            "pass_token_not_a_route_base" => self.pass_token_not_a_route_base,
            "no_corporate_rebuy_after_sale" => self.no_corporate_rebuy_after_sale,
            "price_drops_lowest_first" => self.price_drops_lowest_first,
            "immediate_game_end" => self.immediate_game_end,
            "no_train_obligation_after_last_8_train" => self.no_train_obligation_after_last_8_train,
            "exchanges_by_share_value" => self.exchanges_by_share_value,
            "half_price_round_down" => self.half_price_round_down,
            "ferdinandea_unexchanged_payout" => self.ferdinandea_unexchanged_payout,
            "no_cross_border_corporate_shares" => self.no_cross_border_corporate_shares,
            _ => return None,
        })
    }

    fn faq_field_mut(&mut self, name: &str) -> Option<&mut Option<bool>> {
        Some(match name {
            "emergency_sales_unrestricted" => &mut self.emergency_sales_unrestricted,
            "merger_presidency_for_companies" => &mut self.merger_presidency_for_companies,
            "merger_price_cap" => &mut self.merger_price_cap,
            "pass_token_not_a_route_base" => &mut self.pass_token_not_a_route_base,
            "no_corporate_rebuy_after_sale" => &mut self.no_corporate_rebuy_after_sale,
            "price_drops_lowest_first" => &mut self.price_drops_lowest_first,
            "immediate_game_end" => &mut self.immediate_game_end,
            "no_train_obligation_after_last_8_train" => {
                &mut self.no_train_obligation_after_last_8_train
            }
            "exchanges_by_share_value" => &mut self.exchanges_by_share_value,
            "half_price_round_down" => &mut self.half_price_round_down,
            "ferdinandea_unexchanged_payout" => &mut self.ferdinandea_unexchanged_payout,
            "no_cross_border_corporate_shares" => &mut self.no_cross_border_corporate_shares,
            _ => return None,
        })
    }

    /// The effective value of FAQ option `name`: its setting, else the version default (on
    /// with `version_1` for the FAQ-C/Q/R/T rulings, off otherwise). `None` for a name that
    /// is not a FAQ option.
    pub fn faq_option(&self, name: &str) -> Option<bool> {
        let spec = FAQ_OPTIONS.iter().find(|o| o.name == name)?;
        let set = self.faq_field(name)?;
        Some(set.unwrap_or(self.version_1 && spec.on_with_version_1))
    }

    fn effective(&self, set: Option<bool>, on_with_version_1: bool) -> bool {
        set.unwrap_or(self.version_1 && on_with_version_1)
    }

    /// FAQ-C13, FAQ-M6: in emergency money raising a corporation may sell its own IPO shares
    /// while it still holds other corporations' certificates.
    pub fn emergency_sales_unrestricted(&self) -> bool {
        self.effective(self.emergency_sales_unrestricted, true)
    }

    /// FAQ-R6: a corporation may claim the new president's certificate of a merger.
    pub fn merger_presidency_for_companies(&self) -> bool {
        self.effective(self.merger_presidency_for_companies, true)
    }

    /// FAQ-T: the merger price of two majors always comes from the table (at most L.242).
    pub fn merger_price_cap(&self) -> bool {
        self.effective(self.merger_price_cap, true)
    }

    /// FAQ-C11: a token in a pass does not satisfy a route's token requirement.
    pub fn pass_token_not_a_route_base(&self) -> bool {
        self.effective(self.pass_token_not_a_route_base, true)
    }

    /// FAQ-R5: no corporate purchase of a corporation sold earlier in the operating round.
    pub fn no_corporate_rebuy_after_sale(&self) -> bool {
        self.effective(self.no_corporate_rebuy_after_sale, true)
    }

    /// FAQ-Q2: a turn's price drops are made after its sales, lowest share value first.
    pub fn price_drops_lowest_first(&self) -> bool {
        self.effective(self.price_drops_lowest_first, true)
    }

    /// FAQ-Q27: L.516 and all off-boards connected end the game at once.
    pub fn immediate_game_end(&self) -> bool {
        self.effective(self.immediate_game_end, true)
    }

    /// FAQ-Q20: no train obligation once all 8-trains are sold.
    pub fn no_train_obligation_after_last_8_train(&self) -> bool {
        self.effective(self.no_train_obligation_after_last_8_train, true)
    }

    /// FAQ-C16, FAQ-Q25: corporations act in descending share value in exchanges.
    pub fn exchanges_by_share_value(&self) -> bool {
        self.effective(self.exchanges_by_share_value, true)
    }

    /// FAQ-Q21: half-price totals are rounded down.
    pub fn half_price_round_down(&self) -> bool {
        self.effective(self.half_price_round_down, true)
    }

    /// FAQ-R3: IRSFF shares that cannot be exchanged at the split are paid at market value.
    pub fn ferdinandea_unexchanged_payout(&self) -> bool {
        self.effective(self.ferdinandea_unexchanged_payout, true)
    }

    /// FAQ-V3 (variant, off under every version unless set): no corporate share buying
    /// across an active border.
    pub fn no_cross_border_corporate_shares(&self) -> bool {
        self.effective(self.no_cross_border_corporate_shares, false)
    }

    /// Sets option `name` from its text value, read by [`crate::catalog::parse_switch`]:
    /// `true`, `false` (or `1`/`0`, `yes`/`no`, `on`/`off`, any case), or `default` / empty (a
    /// FAQ option back to its version default; a plain switch off).
    ///
    /// Errors: [`SetupError::UnknownOption`] for a name not in [`all_option_names`],
    /// [`SetupError::BadOption`] for any other value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SetupError> {
        let flag = crate::catalog::parse_switch(value).map_err(|reason| SetupError::BadOption {
            name: name.to_string(),
            reason,
        })?;
        if let Some(field) = self.faq_field_mut(name) {
            *field = flag;
            return Ok(());
        }
        let flag = flag.unwrap_or(false);
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

/// Descriptions of the options for the catalog (1841 §0.2, `1841-faq.md` §7). The FAQ
/// options have the default `""` (unset: the version default) and name their FAQ ids and
/// version defaults in the description.
pub fn option_infos() -> Vec<OptionInfo> {
    let mut out = vec![
        OptionInfo {
            name: "version_1",
            kind: OptionKind::Bool,
            default: "false",
            description: "Version 1 rules: sealed-bid concession round with tie auctions (1841 §4.2, §15.1); the FAQ rulings (FAQ-C/Q/R/T options) default on.",
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
            description: "With version_1: SFLi may run in the operating round it forms (1841 §0.2, FAQ-V2).",
        },
    ];
    out.extend(FAQ_OPTIONS.iter().map(|o| OptionInfo {
        name: o.name,
        kind: OptionKind::Bool,
        default: "",
        description: o.description,
    }));
    out
}

/// One options value per ruleset (Version 2, Version 1, lite): for tests that check
/// something of every map and roster.
#[cfg(test)]
pub(crate) fn each_ruleset() -> [Options; 3] {
    [
        Options::default(),
        Options {
            version_1: true,
            ..Options::default()
        },
        Options {
            lite: true,
            ..Options::default()
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
        assert_eq!(
            o.set("lite", "maybe"),
            Err(SetupError::BadOption {
                name: "lite".into(),
                reason: "expected true, false or default (also 1/0, yes/no, on/off), got `maybe`"
                    .into()
            })
        );
        assert_eq!(o, Options::default());
    }

    /// Every switch reads its value the same way (`catalog::parse_switch`): case and spaces
    /// ignored, 1/0, yes/no, on/off; `default` or empty is the default (off for a plain switch,
    /// the version default for a FAQ option).
    #[test]
    fn switch_values_are_read_alike_for_every_option() {
        for (value, on) in [
            ("true", true),
            (" TRUE ", true),
            ("1", true),
            ("yes", true),
            ("On", true),
            ("false", false),
            ("0", false),
            ("no", false),
            ("off", false),
            ("default", false),
            ("", false),
        ] {
            let mut o = Options::default();
            o.set("p2p_purchases", value).unwrap();
            assert_eq!(o.p2p_purchases, on, "`{value}`");
            let mut f = Options::default();
            f.set("immediate_game_end", value).unwrap();
            let expected = match value.trim().to_ascii_lowercase().as_str() {
                "default" | "" => None,
                _ => Some(on),
            };
            assert_eq!(f.immediate_game_end, expected, "`{value}`");
        }
    }

    #[test]
    fn s0_2_option_infos_match_option_names() {
        let names: Vec<_> = option_infos().iter().map(|o| o.name).collect();
        assert_eq!(names, all_option_names());
        for info in option_infos().iter().skip(OPTION_NAMES.len()) {
            assert_eq!(info.default, "", "{}: unset = version default", info.name);
            assert!(info.description.starts_with("FAQ-"), "{}", info.name);
            assert!(
                info.description.contains("Version default"),
                "{}",
                info.name
            );
        }
    }

    /// The FAQ options are off in Version 2 and on with `version_1` when unset (FAQ-V3 off
    /// everywhere); a setting overrides the version default either way; `default` unsets.
    #[test]
    fn faq_options_follow_the_version_default_unless_set() {
        let v2 = Options::default();
        let v1 = Options {
            version_1: true,
            ..Options::default()
        };
        for o in FAQ_OPTIONS {
            assert_eq!(v2.faq_option(o.name), Some(false), "{}", o.name);
            assert_eq!(
                v1.faq_option(o.name),
                Some(o.name != "no_cross_border_corporate_shares"),
                "{}",
                o.name
            );
            let mut on = v2;
            on.set(o.name, "true").unwrap();
            assert_eq!(on.faq_option(o.name), Some(true));
            let mut off = v1;
            off.set(o.name, "false").unwrap();
            assert_eq!(off.faq_option(o.name), Some(false));
            off.set(o.name, "default").unwrap();
            assert_eq!(off, v1);
        }
        assert!(v1.half_price_round_down() && !v2.half_price_round_down());
        assert!(!v1.no_cross_border_corporate_shares());
        let all = v2.with_all_faq_rulings();
        assert!(
            FAQ_OPTIONS
                .iter()
                .all(|o| all.faq_option(o.name) == Some(true))
        );
        assert_eq!(v2.faq_option("lite"), None);
    }
}
