//! The 18xx.games share ids of a game of 1841 followed beside this engine's certificates, for
//! the writer of exports ([`super::export18xx`]).
//!
//! This engine's certificates of one size are interchangeable; 18xx.games names each one
//! (`SFTG_3`) and checks that a sale or purchase names certificates the seller holds. Its ids
//! follow this engine's certificate indices until the first exchange: a presidency swap gives
//! the new president's *first* certificates (18xx `shares_for_presidency_swap`: `take(n)` of
//! his holding in the order he received them) to the old president, a merger or the
//! Ferdinandea split moves certificates between holders in its own order. So the ledger keeps,
//! per corporation, each holder's 18xx certificates in the order received, moves the ones an
//! action names first ([`Ledger::transfer`]), and then makes every holder's holding agree with
//! the engine's state by size, taking a holder's surplus from the front of his list as 18xx
//! does ([`Ledger::reconcile`]).

use std::collections::BTreeMap;

use super::import18xx::notation;
use super::state::{ShareOwner, State};

/// A certificate's kind: its size in percent and whether it is the president's.
type Kind = (u32, bool);

/// One corporation's certificates: the kind of each 18xx share index, and each holder's
/// indices in the order received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Holdings {
    kinds: Vec<Kind>,
    held: BTreeMap<ShareOwner, Vec<usize>>,
}

impl Holdings {
    fn of(state: &State, sym: &str) -> Option<Self> {
        let c = state.corporation(sym)?;
        let mut h = Holdings::default();
        for (i, cert) in c.certificates.iter().enumerate() {
            h.kinds.push((cert.percent, cert.president));
            h.held.entry(cert.owner.clone()).or_default().push(i);
        }
        Some(h)
    }

    fn count(&self, owner: &ShareOwner, kind: Kind) -> usize {
        self.held
            .get(owner)
            .map_or(0, |l| l.iter().filter(|i| self.kinds[**i] == kind).count())
    }

    /// Takes the first `n` certificates of `kind` from `owner`'s list.
    fn take(&mut self, owner: &ShareOwner, kind: Kind, n: usize) -> Vec<usize> {
        let Some(list) = self.held.get_mut(owner) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        list.retain(|i| {
            if out.len() < n && self.kinds[*i] == kind {
                out.push(*i);
                false
            } else {
                true
            }
        });
        if list.is_empty() {
            self.held.remove(owner);
        }
        out
    }
}

/// The 18xx share ids of every corporation (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    corps: BTreeMap<String, Holdings>,
}

impl Ledger {
    /// The 18xx ids of `n` certificates of `sym` of the size `percent` (not the
    /// president's) that `from` holds, the first received first, moved to `to`; fewer when
    /// `from` holds fewer.
    pub fn transfer(
        &mut self,
        state: &State,
        sym: &str,
        from: &ShareOwner,
        to: &ShareOwner,
        kind: (u32, bool),
        n: usize,
    ) -> Vec<String> {
        let h = self.holdings(state, sym);
        let moved = h.take(from, kind, n);
        h.held.entry(to.clone()).or_default().extend(&moved);
        moved
            .into_iter()
            .map(|i| notation::share_id(sym, i))
            .collect()
    }

    /// The holder of share `id` (`SFTG_3`) in the ledger.
    pub fn holder(&self, id: &str) -> Option<&ShareOwner> {
        let (sym, index) = notation::parse_share_id(id)?;
        self.corps
            .get(sym)?
            .held
            .iter()
            .find(|(_, l)| l.contains(&index))
            .map(|(o, _)| o)
    }

    fn holdings(&mut self, state: &State, sym: &str) -> &mut Holdings {
        let fresh = || Holdings::of(state, sym).unwrap_or_default();
        self.corps.entry(sym.to_string()).or_insert_with(fresh)
    }

    /// Makes every holding agree with `state` by size: a corporation seen for the first time
    /// (or whose certificates changed in number) starts with this engine's indices; a
    /// holder with more certificates of a kind than in `state` gives up the first ones of his
    /// list, which go, in that order, to the holders with fewer (in holder order: IPO, pool,
    /// players by seat, corporations).
    pub fn reconcile(&mut self, state: &State) {
        for c in &state.corporations {
            let want = match Holdings::of(state, &c.sym) {
                Some(h) => h,
                None => continue,
            };
            let h = self
                .corps
                .entry(c.sym.clone())
                .or_insert_with(|| want.clone());
            if h.kinds != want.kinds {
                *h = want;
                continue;
            }
            let mut kinds = want.kinds.clone();
            kinds.sort_unstable();
            kinds.dedup();
            let mut owners: Vec<ShareOwner> =
                h.held.keys().chain(want.held.keys()).cloned().collect();
            owners.sort();
            owners.dedup();
            for kind in kinds {
                let mut floating = Vec::new();
                for o in &owners {
                    let (have, need) = (h.count(o, kind), want.count(o, kind));
                    if have > need {
                        floating.extend(h.take(o, kind, have - need));
                    }
                }
                let mut floating = floating.into_iter();
                for o in &owners {
                    let (have, need) = (h.count(o, kind), want.count(o, kind));
                    for _ in have..need {
                        if let Some(i) = floating.next() {
                            h.held.entry(o.clone()).or_default().push(i);
                        }
                    }
                }
            }
        }
    }
}
