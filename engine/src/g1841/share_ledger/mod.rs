//! 18xx.games' share ids followed over a game played on Referee, for the export
//! ([`super::export18xx`]).
//!
//! Both engines number a corporation's certificates the same way at the start (`SFTG_0` is
//! the president's certificate, then the others in roster order), but this engine's
//! certificates of one size are interchangeable, while 18xx.games' are objects that keep
//! their id: after a presidency swap, a merger's or a split's exchange, or a transformation,
//! the certificate with this engine's index 3 need not be 18xx's `SFTG_3`. An export must
//! name the shares 18xx holds where it holds them, so the ledger follows 18xx's own objects:
//! who holds each id, and each holder's list in the order it received them (18xx's
//! `shares_of`, from which its presidency swap takes the first shares).
//!
//! After each action the ledger is brought to this engine's holdings ([`Ledger::settle`]): the
//! president's certificate goes to its holder, and every other certificate a holder has too
//! many of goes, from the front of its list, to the holders that have too few, taken in the
//! order of this engine's certificate indices (the order in which both engines hand out a new
//! corporation's shares). A purchase or a sale names its ids itself ([`Ledger::pick`]).
//!
//! This module holds the ledger, 18xx's certificates of one corporation (`Shares`), the
//! ledger brought to this engine's holdings (with a bankruptcy's sales, 1841 §14), what it
//! tells of a holder's ids, and the presidency changes outside a transfer (§7.5, §11 step 2).
//! The rest, one `impl Ledger` each: [`exchanges`] (the exchanges of §12), [`treasury`] (the
//! certificates a merger or the split moves between treasuries, §12.1, §12.4) and
//! [`transfers`] (sales and purchases naming 18xx's ids, §5.3, §15.3).

use std::collections::BTreeMap;

use super::action::Event;
use super::import18xx::notation;
use super::state::{ShareOwner, State};
pub use super::token_slots::{
    Located, ReservedSlots, TokenSlots, free_slot, reserved_slots, waiting_homes,
};

mod exchanges;
mod transfers;
mod treasury;

/// 18xx's certificates of one corporation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Shares {
    /// Size (percent) and president flag of each certificate, by 18xx index.
    sizes: Vec<(u32, bool)>,
    /// Holder of each certificate, by 18xx index.
    owner: Vec<ShareOwner>,
    /// Each holder's certificates (18xx indices) in the order it received them.
    held: BTreeMap<ShareOwner, Vec<usize>>,
}

impl Shares {
    /// The size of the corporation's smallest ordinary certificate in percent (10 for a major,
    /// 20 for a minor, 1841 §5.1; at least 1), the unit in which sales and swaps count.
    fn unit(&self) -> u32 {
        self.sizes
            .iter()
            .filter(|s| !s.1)
            .map(|s| s.0)
            .min()
            .unwrap_or(10)
            .max(1)
    }

    fn from_state(c: &super::state::Corporation) -> Shares {
        let mut s = Shares::default();
        for (i, cert) in c.certificates.iter().enumerate() {
            s.sizes.push((cert.percent, cert.president));
            s.owner.push(cert.owner.clone());
            s.held.entry(cert.owner.clone()).or_default().push(i);
        }
        s
    }

    /// After the split handed IRSFF's president's certificate `index` (of corporation `sym`)
    /// to the successor `to` (1841 §12.4): 18xx's presidency check of that transfer
    /// (`transfer_shares` with `corporate_transfer`). When IRSFF (`old`, the previous
    /// president) no longer holds the most and a single other holder, not `to`, holds the
    /// most, at least the certificate's size, he becomes president there and then:
    /// `change_president` with `swap_to` the successor, his first certificates worth the
    /// president's certificate go to `to`, the certificate to him. Left to
    /// [`Ledger::settle`], the swap came after IRSFF's other certificates of the
    /// corporation, so the successor's list had them in front (p2p_purchases, 8 players,
    /// random, seed 8125, 18xx id 1208: IRSFF hands RSFS_0 (20%) to SB, player 6 (RSFS_5,
    /// RSFS_7, RSFS_8) takes the presidency for RSFS_5 and RSFS_7, then RSFS_1 follows to
    /// SB; the ledger had SB's list RSFS_1, RSFS_5, RSFS_7, the swap after player 6's
    /// bankruptcy at id 1236 left it RSFS_7 where 18xx's SB holds RSFS_1, and SB's sale of
    /// "RSFS_7", a pool certificate in 18xx, crashed 18xx.games at id 1240: "undefined
    /// method `spender' for SharePool").
    fn successor_presidency(&mut self, index: usize, old: &ShareOwner, to: &ShareOwner, sym: &str) {
        let Some(&(size, true)) = self.sizes.get(index) else {
            return;
        };
        let own = ShareOwner::Corporation(sym.to_string());
        let held = |o: &ShareOwner| -> u32 {
            self.held
                .get(o)
                .into_iter()
                .flatten()
                .map(|&i| self.sizes.get(i).map_or(0, |s| s.0))
                .sum()
        };
        let holders: Vec<(ShareOwner, u32)> = self
            .held
            .keys()
            .filter(|o| {
                matches!(o, ShareOwner::Player(_) | ShareOwner::Corporation(_)) && **o != own
            })
            .map(|o| (o.clone(), held(o)))
            .collect();
        let Some(max) = holders.iter().map(|(_, p)| *p).max() else {
            return;
        };
        let top: Vec<&ShareOwner> = holders
            .iter()
            .filter(|(_, p)| *p == max)
            .map(|(o, _)| o)
            .collect();
        let [president] = top.as_slice() else {
            return;
        };
        let president = (*president).clone();
        if president == *old || president == *to || max < size {
            return;
        }
        let n = (size / self.unit()) as usize;
        let swap: Vec<usize> = self
            .held
            .get(&president)
            .map(|l| l.iter().copied().take(n).collect())
            .unwrap_or_default();
        for i in swap {
            self.move_share(i, to);
        }
        self.move_share(index, &president);
    }

    /// 18xx's `move_share`: off the old holder's list, onto the end of the new one's.
    fn move_share(&mut self, index: usize, to: &ShareOwner) {
        let Some(from) = self.owner.get(index).cloned() else {
            return;
        };
        if let Some(list) = self.held.get_mut(&from) {
            list.retain(|&i| i != index);
            if list.is_empty() {
                self.held.remove(&from);
            }
        }
        self.held.entry(to.clone()).or_default().push(index);
        self.owner[index] = to.clone();
    }
}

/// 18xx.games' share ids of every corporation, followed over a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    corps: BTreeMap<String, Shares>,
    /// The corporations each corporation formed by an event was last formed from.
    formed: BTreeMap<String, Vec<String>>,
    /// Corporations made available again by the last action, re-sorted once it is settled.
    restarted: Vec<String>,
}

impl Ledger {
    /// The ledger of a game set up as `state`: 18xx's ids are this engine's indices.
    pub fn new(state: &State) -> Ledger {
        Ledger {
            corps: state
                .corporations
                .iter()
                .map(|c| (c.sym.clone(), Shares::from_state(c)))
                .collect(),
            formed: BTreeMap::new(),
            restarted: Vec::new(),
        }
    }

    /// The 18xx ids of the certificates of `corporation` that left `from` from `pre` to
    /// `post` in one purchase or sale (`moved`: this engine's indices of them), taken from
    /// `from`'s list: the president's certificate if it moved, then as many others of each
    /// size as moved, from the front. Moves them to `to` in the ledger.
    pub fn pick(
        &mut self,
        corporation: &str,
        from: &ShareOwner,
        to: &ShareOwner,
        pre: &State,
        moved: &[usize],
    ) -> Vec<String> {
        let (Some(shares), Some(c)) = (
            self.corps.get_mut(corporation),
            pre.corporation(corporation),
        ) else {
            return Vec::new();
        };
        let mut picked = Vec::new();
        let mut list = shares.held.get(from).cloned().unwrap_or_default();
        for &m in moved {
            let Some(cert) = c.certificates.get(m) else {
                continue;
            };
            let want = (cert.percent, cert.president);
            if let Some(pos) = list
                .iter()
                .position(|&i| shares.sizes.get(i) == Some(&want))
            {
                picked.push(list.remove(pos));
            }
        }
        for &i in &picked {
            shares.move_share(i, to);
        }
        picked
            .iter()
            .map(|&i| notation::share_id(corporation, i))
            .collect()
    }

    /// A bankrupt player's sales (1841 §14), before [`Ledger::settle`]: every certificate
    /// `bankrupt` holds goes to the pool, of each corporation his ordinary certificates in
    /// the order he received them and then his president's certificate, as 18xx.games'
    /// `G1841::Step::Bankrupt#process_bankrupt` sells them (bundles to the pool,
    /// `all_bundles_for_corporation`: the president's certificate last); a new president's
    /// swap ([`Ledger::settle`]: the president's certificate to him, his first certificates
    /// worth it to the pool) comes after them. Before, `settle` moved the new president's
    /// certificates into the pool ahead of the bankrupt's, and the pool's first certificate,
    /// which 18xx gives back to a president who sells half his president's certificate
    /// (`handle_partial`), was another one (p2p_purchases random 4 players seed 4011: Player
    /// 2's bankruptcy at 18xx id 531 leaves CTS_6, CTS_5, CTS_7, CTS_1, CTS_2 in the pool;
    /// Player 1's emergency dump of CTS at id 542 got CTS_6 back in 18xx and CTS_1 here, and
    /// his sale of "CTS_1" at id 544 sold a pool certificate: 18xx.games crashed, "undefined
    /// method `spender' for SharePool").
    pub fn bankrupt_sales(&mut self, bankrupt: &ShareOwner) {
        for shares in self.corps.values_mut() {
            let held = shares.held.get(bankrupt).cloned().unwrap_or_default();
            let (president, ordinary): (Vec<usize>, Vec<usize>) = held
                .into_iter()
                .partition(|i| shares.sizes.get(*i).is_some_and(|s| s.1));
            for i in ordinary.into_iter().chain(president) {
                shares.move_share(i, &ShareOwner::Pool);
            }
        }
    }

    /// Brings the ledger to the holdings of `post` (see the module documentation).
    pub fn settle(&mut self, post: &State) {
        self.settle_holdings(post);
        for c in std::mem::take(&mut self.restarted) {
            self.restarted(&c);
        }
    }

    fn settle_holdings(&mut self, post: &State) {
        for c in &post.corporations {
            let Some(shares) = self.corps.get_mut(&c.sym) else {
                continue;
            };
            if shares.sizes.len() != c.certificates.len() {
                *shares = Shares::from_state(c);
                continue;
            }
            if shares
                .owner
                .iter()
                .eq(c.certificates.iter().map(|x| &x.owner))
            {
                continue;
            }
            // The president's certificate to its holder.
            for (i, cert) in c.certificates.iter().enumerate() {
                if cert.president && shares.owner[i] != cert.owner {
                    shares.move_share(i, &cert.owner);
                }
            }
            // Count, per holder and size, what each side holds of the other certificates.
            let mut need: BTreeMap<(ShareOwner, u32), i64> = BTreeMap::new();
            for cert in c.certificates.iter().filter(|x| !x.president) {
                *need.entry((cert.owner.clone(), cert.percent)).or_default() += 1;
            }
            for (i, owner) in shares.owner.iter().enumerate() {
                let (size, president) = shares.sizes[i];
                if !president {
                    *need.entry((owner.clone(), size)).or_default() -= 1;
                }
            }
            // Receivers in the order of this engine's certificate indices.
            let mut receivers = Vec::new();
            for cert in c.certificates.iter().filter(|x| !x.president) {
                let key = (cert.owner.clone(), cert.percent);
                if let Some(n) = need.get_mut(&key)
                    && *n > 0
                {
                    *n -= 1;
                    receivers.push(key);
                }
            }
            for (to, size) in receivers {
                let donor = need
                    .iter()
                    .find(|((_, s), n)| *s == size && **n < 0)
                    .map(|((o, _), _)| o.clone());
                let Some(donor) = donor else { continue };
                let index = shares.held.get(&donor).and_then(|list| {
                    list.iter()
                        .copied()
                        .find(|&i| shares.sizes.get(i) == Some(&(size, false)))
                });
                let Some(index) = index else { continue };
                shares.move_share(index, &to);
                if let Some(n) = need.get_mut(&(donor, size)) {
                    *n += 1;
                }
            }
        }
    }

    /// The 18xx ids of the certificates of `corporation` that `holder` holds, in the order he
    /// received them.
    pub fn held(&self, corporation: &str, holder: &ShareOwner) -> Vec<String> {
        self.corps
            .get(corporation)
            .and_then(|s| s.held.get(holder))
            .map(|list| {
                list.iter()
                    .map(|&i| notation::share_id(corporation, i))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The 18xx ids of every certificate `holder` holds, corporation by corporation (in
    /// symbol order), each in the order he received them.
    pub fn held_by(&self, holder: &ShareOwner) -> Vec<String> {
        self.corps
            .keys()
            .flat_map(|c| self.held(c, holder))
            .collect()
    }

    /// The holder of 18xx's certificate `index` of `corporation`.
    pub fn holder(&self, corporation: &str, index: usize) -> Option<&ShareOwner> {
        self.corps.get(corporation)?.owner.get(index)
    }

    /// The delayed presidency check when the first 4-train closes the concessions (1841 §11
    /// step 2, FAQ-C14: before the Ferdinandea split and the Tuscan merge; 18xx
    /// `close_companies`, `deferred_president_change`): each presidency change this engine
    /// reports right after the `ConcessionClosed` events is 18xx's `change_president` there
    /// and then, before a split or a merger of the same action moves any certificate. Without
    /// it, [`Ledger::settle`] made the change at the end, from the new president's list after
    /// the merger (version_1, 7 players, random, seed 7126, id 918: SFTN's president's
    /// certificate lies in the pool, SSFL (SFTN_6, SFTN_7, SFTN_1) takes it and hands SFTN_6
    /// and SFTN_7 to the pool, then the Tuscan merge moves SFTN_1 and the certificate to SFLi
    /// behind SFMA's SFTN_5; the ledger gave the pool SFTN_5 and SFTN_6 from SFLi and kept
    /// SFTN_7, and SFLi's sale of "SFTN_7" at id 1048 was refused: "All shares must be owned
    /// by the same owner").
    pub fn concessions_closed(&mut self, events: &[Event]) {
        let Some(start) = events
            .iter()
            .position(|e| matches!(e, Event::ConcessionClosed { .. }))
        else {
            return;
        };
        for e in &events[start..] {
            if matches!(
                e,
                Event::ConcessionClosed { .. } | Event::FrozenChanged { .. }
            ) {
                continue;
            }
            if !self.follow_presidency(e) {
                break;
            }
        }
    }

    /// Follows a presidency change (`PresidentChanged`, `PresidencyMoved`) in the ledger;
    /// whether `e` was one.
    fn follow_presidency(&mut self, e: &Event) -> bool {
        match e {
            Event::PresidentChanged { corporation, seat } => {
                self.change_president(corporation, &ShareOwner::Player(*seat));
                true
            }
            Event::PresidencyMoved {
                corporation,
                president,
            } => {
                self.change_president(corporation, president);
                true
            }
            _ => false,
        }
    }

    /// 18xx's `change_president` for a presidency change outside a transfer (the delayed
    /// presidency check, `deferred_president_change`): `president`'s first ordinary
    /// certificates worth the president's certificate go to its holder, the president's
    /// certificate to `president`.
    fn change_president(&mut self, corporation: &str, president: &ShareOwner) {
        let Some(shares) = self.corps.get_mut(corporation) else {
            return;
        };
        let Some(pres) = shares.sizes.iter().position(|(_, p)| *p) else {
            return;
        };
        let Some(previous) = shares.owner.get(pres).cloned() else {
            return;
        };
        if previous == *president {
            return;
        }
        let size = shares.sizes[pres].0;
        let unit = shares.unit();
        let swap: Vec<usize> = shares
            .held
            .get(president)
            .map(|l| {
                l.iter()
                    .copied()
                    .filter(|&i| shares.sizes.get(i).is_some_and(|s| !s.1))
                    .take((size / unit) as usize)
                    .collect()
            })
            .unwrap_or_default();
        for i in swap {
            shares.move_share(i, &previous);
        }
        shares.move_share(pres, president);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::{G1841, Options};

    pub(super) fn own(state: &mut State, sym: &str, owners: &[(usize, ShareOwner)]) {
        let c = state.corporation_mut(sym).unwrap();
        for (i, o) in owners {
            c.certificates[*i].owner = o.clone();
        }
    }
    /// 18xx's presidency swap hands over the new president's *first* shares (in the order he
    /// received them, `shares_for_presidency_swap`), whichever certificates this engine moved.
    #[test]
    fn a_presidency_swap_moves_the_new_presidents_first_shares() {
        let mut s = G1841::setup(&Options::default(), 3, 0).unwrap();
        let sym = s
            .corporations
            .iter()
            .find(|c| c.certificates.len() == 9)
            .unwrap()
            .sym
            .clone();
        let (p0, p1) = (ShareOwner::Player(0), ShareOwner::Player(1));
        own(
            &mut s,
            &sym,
            &[(0, p0.clone()), (1, p0.clone()), (2, p0.clone())],
        );
        let mut ledger = Ledger::new(&s);
        // Seat 1 buys three shares; this engine moves its certificates 3, 5 and 4, 18xx the
        // front of its IPO each time: 3, 4, 5 (appended to his list in that order).
        for (ours, theirs) in [(3, 3), (5, 4), (4, 5)] {
            let pre = s.clone();
            own(&mut s, &sym, &[(ours, p1.clone())]);
            let ids = ledger.pick(&sym, &ShareOwner::Ipo, &p1, &pre, &[ours]);
            assert_eq!(ids, [format!("{sym}_{theirs}")]);
            ledger.settle(&s);
        }
        // This engine swaps: seat 1 takes the president's certificate and gives 4 and 5.
        own(
            &mut s,
            &sym,
            &[(0, p1.clone()), (4, p0.clone()), (5, p0.clone())],
        );
        ledger.settle(&s);
        // 18xx gave seat 1's first two, 3 and 4; he keeps 5.
        let holders: Vec<_> = (0..6).map(|i| ledger.holder(&sym, i).cloned()).collect();
        assert_eq!(
            holders,
            [&p1, &p0, &p0, &p0, &p0, &p1].map(|o| Some(o.clone()))
        );
        // A later sale of one share by seat 1 (this engine's certificate 3) names 18xx's id of
        // his share: 5.
        let pre = s.clone();
        own(&mut s, &sym, &[(3, ShareOwner::Pool)]);
        let ids = ledger.pick(&sym, &p1, &ShareOwner::Pool, &pre, &[3]);
        assert_eq!(ids, [format!("{sym}_5")]);
    }
}
