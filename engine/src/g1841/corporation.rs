//! Corporations, certificates and control (1841 §3.3–§3.5, §7.1–§7.3, §7.5).
//!
//! A corporation's president is whoever holds its president's certificate; holders are
//! players, other corporations, the IPO or the pool ([`ShareOwner`]). Control follows the
//! chain of presidents up to a player (1841 §7.2), so the 60% limit (§7.3) counts shares held
//! by every corporation a player controls.

use super::concession::Concession;
use super::data;
use super::options::Options;
use super::state::{Certificate, Corporation, CorporationKind, ShareOwner, State};
use crate::Seat;

fn kind_of(text: &str) -> CorporationKind {
    if text == "minor" {
        CorporationKind::Minor
    } else {
        CorporationKind::Major
    }
}

/// Certificates of a fresh corporation, all in its IPO: major 20 + 8×10, minor 40 + 3×20
/// (1841 §3.5).
pub fn fresh_certificates(kind: CorporationKind) -> Vec<Certificate> {
    let unit = kind.unit_percent();
    let count = 100 / unit - 2;
    std::iter::once(Certificate {
        percent: 2 * unit,
        president: true,
        owner: ShareOwner::Ipo,
    })
    .chain((0..count).map(|_| Certificate {
        percent: unit,
        president: false,
        owner: ShareOwner::Ipo,
    }))
    .collect()
}

fn fresh(sym: &str, kind: CorporationKind, historical: bool) -> Corporation {
    Corporation {
        sym: sym.to_string(),
        kind,
        historical,
        share_price: None,
        par_price: 0,
        cash: 0,
        certificates: fresh_certificates(kind),
        tokens_total: 0,
        tokens: Vec::new(),
        operated: false,
    }
}

/// Every corporation of the ruleset, unstarted: the historical corporations in data order
/// (1841 §3.3), then the non-historical majors and minors (§3.4).
pub fn initial_corporations(options: &Options) -> Vec<Corporation> {
    let rules = data::ruleset(options);
    let mut out: Vec<Corporation> = rules
        .historical_corporations
        .iter()
        .map(|h| fresh(&h.sym, kind_of(&h.kind), true))
        .collect();
    let nh = &rules.non_historical_corporations;
    out.extend(
        nh.majors
            .iter()
            .map(|s| fresh(s, CorporationKind::Major, false)),
    );
    out.extend(
        nh.minors
            .iter()
            .map(|s| fresh(s, CorporationKind::Minor, false)),
    );
    out
}

/// The data of the historical corporation `sym` for these options.
pub fn historical_data(
    options: &Options,
    sym: &str,
) -> Option<&'static data::HistoricalCorporationData> {
    data::ruleset(options)
        .historical_corporations
        .iter()
        .find(|h| h.sym == sym)
}

/// The historical corporation a concession allows to start (1841 §3.2); `None` for Bayard.
pub fn corporation_of_concession(options: &Options, c: Concession) -> Option<&'static str> {
    data::ruleset(options)
        .historical_corporations
        .iter()
        .find(|h| h.concession.as_deref() == Some(c.as_str()) && h.formed_by_event.is_none())
        .map(|h| h.sym.as_str())
}

/// The concession that allows starting historical corporation `sym`.
pub fn concession_of_corporation(options: &Options, sym: &str) -> Option<Concession> {
    historical_data(options, sym)
        .and_then(|h| h.concession.as_deref())
        .and_then(|c| c.parse().ok())
}

impl Corporation {
    /// Whether it has been started (has a market position; it floats at once, 1841 §3.5).
    pub fn started(&self) -> bool {
        self.share_price.is_some()
    }

    /// Current market price per unit certificate in L. (`None` while not started).
    pub fn price(&self) -> Option<i64> {
        self.share_price
            .and_then(|p| super::market::price_at(p.row, p.col))
    }

    /// The holder of the president's certificate.
    pub fn president(&self) -> Option<&ShareOwner> {
        self.certificates
            .iter()
            .find(|c| c.president)
            .map(|c| &c.owner)
    }

    /// The president if it is a player.
    pub fn president_seat(&self) -> Option<Seat> {
        match self.president() {
            Some(ShareOwner::Player(s)) => Some(*s),
            _ => None,
        }
    }

    /// Percent held by `owner`.
    pub fn percent_of(&self, owner: &ShareOwner) -> u32 {
        self.certificates
            .iter()
            .filter(|c| &c.owner == owner)
            .map(|c| c.percent)
            .sum()
    }

    /// Percent in its IPO.
    pub fn ipo_percent(&self) -> u32 {
        self.percent_of(&ShareOwner::Ipo)
    }

    /// Percent in the bank pool.
    pub fn pool_percent(&self) -> u32 {
        self.percent_of(&ShareOwner::Pool)
    }

    /// Sold out: every share with players or corporations, none in the IPO or pool (1841 §5.5).
    pub fn sold_out(&self) -> bool {
        self.certificates
            .iter()
            .all(|c| matches!(c.owner, ShareOwner::Player(_) | ShareOwner::Corporation(_)))
    }

    /// Percent of one unit certificate.
    pub fn unit_percent(&self) -> u32 {
        self.kind.unit_percent()
    }
}

/// The player at the end of the chain of control of `sym` (1841 §7.2): the owner of its
/// president's certificate, that owner's president, … `None` if the chain ends in the IPO or
/// pool, or loops (frozen, §7.4).
pub fn controller(state: &State, sym: &str) -> Option<Seat> {
    let mut current = sym;
    for _ in 0..=state.corporations.len() {
        match state.corporation(current)?.president()? {
            ShareOwner::Player(s) => return Some(*s),
            ShareOwner::Corporation(c) => current = c,
            ShareOwner::Ipo | ShareOwner::Pool => return None,
        }
    }
    None
}

/// Percent of `sym` that `seat` controls: his own certificates plus those held by every
/// corporation he controls (1841 §7.3, FAQ-Q11; 18xx `player_controlled_percentage`).
pub fn controlled_percent(state: &State, seat: Seat, sym: &str) -> u32 {
    let Some(corp) = state.corporation(sym) else {
        return 0;
    };
    corp.certificates
        .iter()
        .filter(|c| match &c.owner {
            ShareOwner::Player(s) => *s == seat,
            ShareOwner::Corporation(holder) => controller(state, holder) == Some(seat),
            ShareOwner::Ipo | ShareOwner::Pool => false,
        })
        .map(|c| c.percent)
        .sum()
}

/// Certificates `seat` holds, all corporations together (1841 §2: each certificate counts
/// one, whatever its size; concessions do not count, FAQ-Q7; corporations' holdings do not
/// count, FAQ-Q8).
pub fn certificate_count(state: &State, seat: Seat) -> u32 {
    let owner = ShareOwner::Player(seat);
    state
        .corporations
        .iter()
        .flat_map(|c| c.certificates.iter())
        .filter(|c| c.owner == owner)
        .count() as u32
}

/// The certificate limit of every player (1841 §2: 21/16/13/11/10/9 for 3–8 players).
pub fn certificate_limit(state: &State) -> u32 {
    data::ruleset(&state.options)
        .cert_limit(state.players.len() as u32)
        .unwrap_or(0)
}

/// Whether the presidency of `corp` may change hands now: never for a historical corporation
/// before phase 4 (the concession lock, 1841 §3.2, §7.5; 18xx `pres_change_ok?`).
pub fn presidency_may_change(state: &State, corp: &Corporation) -> bool {
    !(corp.historical && phase_number(state) < 4)
}

/// The current phase as a number (`2` … `8`).
pub fn phase_number(state: &State) -> u32 {
    state.phase.parse().unwrap_or(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s3_5_certificates_major_20_plus_8x10_minor_40_plus_3x20() {
        let major = fresh_certificates(CorporationKind::Major);
        assert_eq!(major.len(), 9);
        assert_eq!(major[0].percent, 20);
        assert!(major[0].president);
        assert_eq!(major.iter().map(|c| c.percent).sum::<u32>(), 100);
        let minor = fresh_certificates(CorporationKind::Minor);
        assert_eq!(
            minor.iter().map(|c| c.percent).collect::<Vec<_>>(),
            [40, 20, 20, 20]
        );
    }

    #[test]
    fn s3_3_roster_v2_v1_lite() {
        let v2 = initial_corporations(&Options::default());
        let syms: Vec<_> = v2.iter().map(|c| c.sym.as_str()).collect();
        assert_eq!(
            &syms[..7],
            ["SFMA", "SFLP", "SSFL", "IRSFF", "SFTG", "SFTN", "SFTC"]
        );
        assert_eq!(v2.len(), 10 + 14);
        let sftc = |o: &Options| {
            initial_corporations(o)
                .into_iter()
                .find(|c| c.sym == "SFTC")
                .unwrap()
                .kind
        };
        assert_eq!(sftc(&Options::default()), CorporationKind::Major);
        let v1 = Options {
            version_1: true,
            ..Options::default()
        };
        assert_eq!(sftc(&v1), CorporationKind::Minor);
        let lite = Options {
            lite: true,
            ..Options::default()
        };
        assert_eq!(initial_corporations(&lite).len(), 6 + 14);
        assert_eq!(
            corporation_of_concession(&lite, Concession::Sftg),
            Some("SFTG")
        );
        assert_eq!(corporation_of_concession(&lite, Concession::Bayard), None);
    }
}
