//! The eight concessions (opening-auction cards) of 1841 (1841 §3.2).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A concession, identified on the wire by its symbol ([`Concession::as_str`]).
///
/// Variants are declared in concession number order (1841 §3.2: 1 Bayard … 8 IRSFF), so the
/// derived `Ord` is the concession number order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Concession {
    /// 1 — pays its owner L.20 at the end of every stock round.
    Bayard,
    /// 2 — right to start SFLP (absent in lite).
    #[serde(rename = "SFLP")]
    Sflp,
    /// 3 — right to start SFTC.
    #[serde(rename = "SFTC")]
    Sftc,
    /// 4 — right to start SFMA (absent in lite).
    #[serde(rename = "SFMA")]
    Sfma,
    /// 5 — right to start SFTN.
    #[serde(rename = "SFTN")]
    Sftn,
    /// 6 — right to start SSFL (absent in lite).
    #[serde(rename = "SSFL")]
    Ssfl,
    /// 7 — right to start SFTG.
    #[serde(rename = "SFTG")]
    Sftg,
    /// 8 — right to start IRSFF.
    #[serde(rename = "IRSFF")]
    Irsff,
}

impl Concession {
    /// All concessions in concession number order.
    pub const ALL: [Concession; 8] = [
        Self::Bayard,
        Self::Sflp,
        Self::Sftc,
        Self::Sfma,
        Self::Sftn,
        Self::Ssfl,
        Self::Sftg,
        Self::Irsff,
    ];

    /// The symbol used on the wire and by 18xx.games: `Bayard`, `SFLP`, `SFTC`, `SFMA`,
    /// `SFTN`, `SSFL`, `SFTG`, `IRSFF`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Bayard => "Bayard",
            Self::Sflp => "SFLP",
            Self::Sftc => "SFTC",
            Self::Sfma => "SFMA",
            Self::Sftn => "SFTN",
            Self::Ssfl => "SSFL",
            Self::Sftg => "SFTG",
            Self::Irsff => "IRSFF",
        }
    }

    /// The printed concession number, 1–8 (1841 §3.2).
    pub fn number(self) -> u32 {
        match self {
            Self::Bayard => 1,
            Self::Sflp => 2,
            Self::Sftc => 3,
            Self::Sfma => 4,
            Self::Sftn => 5,
            Self::Ssfl => 6,
            Self::Sftg => 7,
            Self::Irsff => 8,
        }
    }
}

impl fmt::Display for Concession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error of [`Concession::from_str`]: the text is not a concession symbol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a concession (Bayard, SFLP, SFTC, SFMA, SFTN, SSFL, SFTG, IRSFF)")]
pub struct UnknownConcession(pub String);

impl FromStr for Concession {
    type Err = UnknownConcession;

    /// Parses the exact symbol (case-sensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownConcession(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::g1841::data;

    #[test]
    fn s3_2_concession_numbers_and_symbols_follow_the_data_file() {
        let order: Vec<&str> = Concession::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(order, data::v2().concession_round.concessions_in_order);
        assert_eq!(order, data::v1().concession_round.concessions_in_order);
        for (i, c) in Concession::ALL.iter().enumerate() {
            assert_eq!(c.number() as usize, i + 1);
            assert_eq!(c.as_str().parse::<Concession>(), Ok(*c));
        }
        assert_eq!(
            data::lite().concession_round.concessions_in_order,
            ["Bayard", "SFTC", "SFTN", "SFTG", "IRSFF"]
        );
        assert!("sftg".parse::<Concession>().is_err());
        assert!("".parse::<Concession>().is_err());
    }

    #[test]
    fn s3_2_concessions_serialize_as_symbols() {
        assert_eq!(
            serde_json::to_string(&Concession::Irsff).unwrap(),
            "\"IRSFF\""
        );
        assert_eq!(
            serde_json::to_string(&Concession::Bayard).unwrap(),
            "\"Bayard\""
        );
    }
}
