//! The corporations of a ruleset (1841 §3.3, §3.4): fresh certificates (§3.5), the roster
//! at setup with its index by symbol (built once per ruleset), the non-historical
//! corporations, and which concession starts which historical corporation (§3.2).

use super::*;

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
        closed: false,
        ipo_first_share_ordinary: false,
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
    // 1841 §1, §12.3: the internal `Holding` (historical, never startable) of the Tuscan merge.
    out.extend(
        rules
            .internal_corporations
            .iter()
            .map(|h| fresh(&h.sym, kind_of(&h.kind), true)),
    );
    out
}

/// The corporations at setup ([`initial_corporations`]), built once per ruleset: the roster
/// depends only on `data::ruleset`. A valid state lists exactly these, in this order.
pub fn roster(options: &Options) -> &'static [Corporation] {
    &roster_data(options).0
}

/// The index of `sym` in the [`roster`] (where a valid state has it).
#[inline]
pub fn roster_index(options: &Options, sym: &str) -> Option<usize> {
    roster_data(options).1.get(sym).map(|(i, _)| i)
}

/// [`roster_index`] of `sym`, with `sym` packed ([`crate::g1841::ids::pack`]; `None` when longer
/// than 7 bytes), to compare it with another symbol by [`crate::g1841::ids::is_packed`].
#[inline]
pub fn roster_slot(options: &Options, sym: &str) -> Option<(usize, Option<u64>)> {
    roster_data(options).1.get(sym)
}

type Roster = (Vec<Corporation>, RosterIndex);

/// Roster symbols to roster indices. Every corporation access looks a symbol up, so the
/// symbols (all of them up to 7 bytes) are found by their [`crate::g1841::ids::pack`] key in a small
/// open-addressing table (one multiplication, usually one probe) rather than a general hash
/// map; a longer symbol goes to an [`crate::g1841::ids::IdIndex`].
#[derive(Debug)]
struct RosterIndex {
    /// (key, index + 1) at the slot of the key's hash or after it (wrapping); 0: empty.
    slots: Vec<(u64, u32)>,
    /// `slots.len()` is `1 << bits`.
    bits: u32,
    long: crate::g1841::ids::IdIndex,
}

impl RosterIndex {
    fn new(roster: &[Corporation]) -> Self {
        // At most half full, so that a probe ends soon at an empty slot.
        let bits = (2 * roster.len())
            .next_power_of_two()
            .max(16)
            .trailing_zeros();
        let mut index = RosterIndex {
            slots: vec![(0, 0); 1 << bits],
            bits,
            long: crate::g1841::ids::IdIndex::default(),
        };
        for (i, c) in roster.iter().enumerate() {
            let (Some(key), Ok(value)) = (
                crate::g1841::ids::pack(c.sym.as_bytes()),
                u32::try_from(i + 1),
            ) else {
                index.long.insert(&c.sym, i);
                continue;
            };
            let mut at = index.slot(key);
            loop {
                match index.slots[at] {
                    (_, 0) => {
                        index.slots[at] = (key, value);
                        break;
                    }
                    // The first index stays (as in `IdIndex`).
                    (k, _) if k == key => break,
                    _ => at = (at + 1) & (index.slots.len() - 1),
                }
            }
        }
        index
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    #[inline]
    /// The index of `sym`, with `sym`'s packed key.
    fn get(&self, sym: &str) -> Option<(usize, Option<u64>)> {
        let Some(key) = crate::g1841::ids::pack(sym.as_bytes()) else {
            return self.long.get(sym).map(|i| (i, None));
        };
        let mut at = self.slot(key);
        loop {
            match self.slots.get(at)? {
                (_, 0) => return None,
                (k, v) if *k == key => return Some((*v as usize - 1, Some(key))),
                _ => at = (at + 1) & (self.slots.len() - 1),
            }
        }
    }
}

#[inline]
fn roster_data(options: &Options) -> &'static Roster {
    static ROSTERS: [std::sync::OnceLock<Roster>; 3] = [const { std::sync::OnceLock::new() }; 3];
    // One slot per ruleset, chosen as `data::ruleset` chooses (test
    // `roster_is_the_initial_corporations_of_each_ruleset`): comparing the options' two flags
    // is cheaper than fetching the ruleset, and this runs in every corporation look-up.
    let slot = if options.lite {
        2
    } else if options.version_1 {
        1
    } else {
        0
    };
    ROSTERS[slot].get_or_init(|| {
        let corporations = initial_corporations(options);
        let index = RosterIndex::new(&corporations);
        (corporations, index)
    })
}

/// Whether `sym` is one of the non-historical corporations of these options (1841 §3.4):
/// found by its [`roster_index`], as the roster lists them after the historical ones (test
/// `non_historical_by_roster_index_is_the_listed_ones`).
pub fn is_non_historical(options: &Options, sym: &str) -> bool {
    let rules = data::ruleset(options);
    let first = rules.historical_corporations.len();
    let nh = &rules.non_historical_corporations;
    let listed = first..first + nh.majors.len() + nh.minors.len();
    roster_index(options, sym).is_some_and(|i| listed.contains(&i))
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
    fn roster_is_the_initial_corporations_of_each_ruleset() {
        for (lite, version_1) in [(false, false), (false, true), (true, false), (true, true)] {
            let options = Options {
                lite,
                version_1,
                ..Options::default()
            };
            let fresh = initial_corporations(&options);
            assert_eq!(
                roster(&options),
                &fresh[..],
                "lite {lite}, version_1 {version_1}"
            );
        }
    }

    #[test]
    fn non_historical_by_roster_index_is_the_listed_ones() {
        for (lite, version_1) in [(false, false), (false, true), (true, false), (true, true)] {
            let options = Options {
                lite,
                version_1,
                ..Options::default()
            };
            let nh = &data::ruleset(&options).non_historical_corporations;
            let listed = |sym: &str| nh.majors.iter().chain(&nh.minors).any(|s| s == sym);
            let roster = roster(&options);
            for (i, c) in roster.iter().enumerate() {
                // Symbols are unique, so the index of each is its own.
                assert_eq!(roster_index(&options, &c.sym), Some(i));
                assert_eq!(
                    is_non_historical(&options, &c.sym),
                    listed(&c.sym),
                    "{}",
                    c.sym
                );
            }
            assert!(!is_non_historical(&options, "XYZ"));
        }
    }

    #[test]
    fn roster_index_finds_every_roster_symbol_and_nothing_else() {
        for options in crate::g1841::options::each_ruleset() {
            for (i, c) in roster(&options).iter().enumerate() {
                assert_eq!(roster_index(&options, &c.sym), Some(i), "{}", c.sym);
            }
            for absent in [
                "", "S", "SFT", "SFTGX", "sftg", "Holdings", "F8", "HoldingX",
            ] {
                assert_eq!(roster_index(&options, absent), None, "{absent}");
            }
        }
        let long = [
            fresh("Marseille", CorporationKind::Major, false),
            fresh("SB", CorporationKind::Minor, false),
        ];
        let index = RosterIndex::new(&long);
        assert_eq!(index.get("Marseille"), Some((0, None)));
        assert_eq!(index.get("SB"), Some((1, crate::g1841::ids::pack(b"SB"))));
        assert_eq!(index.get("Marseilles"), None);
    }

    #[test]
    fn s3_3_roster_v2_v1_lite() {
        let v2 = initial_corporations(&Options::default());
        let syms: Vec<_> = v2.iter().map(|c| c.sym.as_str()).collect();
        assert_eq!(
            &syms[..7],
            ["SFMA", "SFLP", "SSFL", "IRSFF", "SFTG", "SFTN", "SFTC"]
        );
        assert_eq!(v2.len(), 10 + 14 + 1);
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
