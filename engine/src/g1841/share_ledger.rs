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

use std::collections::BTreeMap;

use super::action::Event;
use super::import18xx::notation;
use super::state::{ShareOwner, State};
pub use super::token_slots::{
    Located, ReservedSlots, TokenSlots, free_slot, reserved_slots, waiting_homes,
};

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

    /// Follows 18xx's exchanges (1841 §12) from this engine's `SharesExchanged` events, in
    /// order: each holder receives the new corporation's shares one by one from the front of
    /// its IPO. In a merger of two majors (18xx `merger_do_exchange`), a holder who takes the
    /// presidency without paying for it, a player or a corporation (18xx counts corporations
    /// as holders, `player_share_holders`; `version_1`, 4 players, random, seed 4014: SFTC
    /// takes SFLi's presidency at the Tuscan merge, id 439), receives two shares, which 18xx's
    /// presidency swap then sends back to the end of the IPO for the president's certificate,
    /// before the rest of his shares; a presidency paid for (an `ExchangePayment` to the corporation just
    /// before), and the president's certificate of a split or a transformation, are handed
    /// over directly. A transformation's exchanges are taken in 18xx's order
    /// ([`transformation_order`]); `post` is the state after the events.
    pub fn exchanged(&mut self, events: &[Event], post: &State) {
        let ordered = transformation_order(events, post);
        let events = ordered.as_deref().unwrap_or(events);
        let mut pending: Option<(String, ShareOwner, usize)> = None;
        // A Tuscan merge's SFLi left without a president (1841 §12.3, FAQ-R4) gets its pool
        // exchange as any holder's; its pool shares that go back to the IPO at the end are
        // followed by [`Ledger::settle`], from the front of the pool's list (18xx
        // `merger_tokens_start`: `shares_of(...).take(2)`; version_1+sfli random 3 players seed
        // 3011, id 265: SFLi_4 and SFLi_5 back, SFLi_6 kept).
        for (k, e) in events.iter().enumerate() {
            if let Event::CorporationFormed {
                corporation, from, ..
            } = e
            {
                self.formed.insert(corporation.clone(), from.clone());
            }
            if let Event::CorporationAvailable { corporation } = e {
                self.restarted.push(corporation.clone());
            }
            if let Some((corporation, president)) = presidency_after_exchange(events, k)
                && self.merger_of_majors(corporation)
            {
                // A holder's exchange made him president (1841 §7.5: strictly more than
                // the president); 18xx moves every new share with `allow_president_change`
                // (`merger_do_exchange`), so its `change_president` swaps his first two
                // shares to the previous president there and then, not once at the end
                // (Version 2 heuristic 3 players seed 3153, id 952: players 1, 3 and 2
                // preside over RSFS in turn; player 1 ends with RSFS_3 and RSFS_4 from
                // player 3, player 3 with RSFS_6 and RSFS_7 from player 2).
                if let Some((c, h, extra)) = pending.take() {
                    self.presidency_by_swap(&c, &h, extra);
                }
                self.change_president(corporation, &president);
                continue;
            }
            let Event::SharesExchanged {
                holder,
                corporation,
                percent,
                president,
            } = e
            else {
                continue;
            };
            let Some(unit) = self.unit(corporation) else {
                continue;
            };
            self.return_old(corporation, holder);
            let units = (*percent / unit) as usize;
            if let Some((c, h, extra)) = pending.take() {
                if c == *corporation && h == *holder && !president {
                    self.presidency_by_swap(&c, &h, extra + units);
                    continue;
                }
                self.presidency_by_swap(&c, &h, extra);
            }
            if self.merger_of_minors(corporation) {
                self.minor_exchange(corporation, holder, units, *president, &events[k + 1..]);
                continue;
            }
            if *president && units < 2 {
                // A pair exchanged for the president's certificate once the new shares ran
                // out (1841 §12.1; net 10%): 18xx `merger_do_exchange` sends the holder's
                // first share back to the end of the IPO, then hands over the certificate.
                self.president_for_first_share(corporation, holder);
                continue;
            }
            if *president {
                let paid = k > 0
                    && matches!(&events[k - 1], Event::ExchangePayment {
                        holder: h, to_corporation: true, ..
                    } if h == holder);
                let rest = units.saturating_sub(2);
                if paid || !self.merger_of_majors(corporation) {
                    self.give_president(corporation, holder);
                    self.give_front(corporation, holder, rest);
                } else {
                    pending = Some((corporation.clone(), holder.clone(), rest));
                }
            } else {
                self.give_front(corporation, holder, units);
            }
        }
        if let Some((c, h, extra)) = pending {
            self.presidency_by_swap(&c, &h, extra);
        }
    }

    /// Follows a merger's move of the old corporations' certificates of other corporations
    /// to the new one (1841 §12.1, §12.3; 18xx `move_assets`, the initiator's first, then the
    /// partner's, each holder's in the order it received them), in the action (`pre` to
    /// `post`, its `events`) where this engine moves them: when a merger's new corporation is
    /// named, or with its formation. Each old corporation that held certificates of a
    /// corporation in `pre` and holds none in `post`, where the new corporation holds more,
    /// hands its list over as it is; [`Ledger::settle`] would take the donors in symbol order
    /// (lite, 6 players, random, seed 6015: SFTC's RSFS_2 and CTDA's RSFS_3 go to CGTF at id
    /// 540 in that order, and the first of them is the one CGTF's presidency swap at id 605
    /// hands back to player 1).
    pub fn merger_treasury(&mut self, pre: &State, post: &State, events: &[Event]) {
        let formed = events.iter().find_map(|e| match e {
            Event::CorporationFormed {
                corporation, from, ..
            } if from.len() == 2 => Some((from[0].clone(), from[1].clone(), corporation.clone())),
            _ => None,
        });
        let merger = |s: &State| match &s.round {
            super::state::Round::OperatingRound(r) => match r.event.as_deref() {
                Some(super::state::CorporateEvent::Merger(m)) if !m.target.is_empty() => {
                    Some((m.initiator.clone(), m.partner.clone(), m.target.clone()))
                }
                _ => None,
            },
            _ => None,
        };
        // The second merger of a chain: still under way in `post`, or formed in this action
        // too (a Tuscan merge of all three minors that asks nobody anything runs to its end in
        // the first 4-train's purchase: version_1, 5 players, random, seed 5177, id 823).
        let formed_next = formed.as_ref().and_then(|first| {
            events.iter().find_map(|e| match e {
                Event::CorporationFormed {
                    corporation, from, ..
                } if from.len() == 2 && *corporation != first.2 && from.contains(&first.2) => {
                    Some((from[0].clone(), from[1].clone(), corporation.clone()))
                }
                _ => None,
            })
        });
        if let Some(first) = &formed
            && let Some(second) = merger(post).or(formed_next)
            && second.2 != first.2
            && (second.0 == first.2 || second.1 == first.2)
        {
            self.chained_mergers(pre, post, events, first, &second);
            return;
        }
        let Some((a, b, target)) = formed.or_else(|| merger(post)).or_else(|| merger(pre)) else {
            return;
        };
        let to = ShareOwner::Corporation(target.clone());
        let count = |s: &State, sym: &str, owner: &ShareOwner| {
            s.corporation(sym).map_or(0, |c| {
                c.certificates.iter().filter(|x| x.owner == *owner).count()
            })
        };
        for c in &post.corporations {
            if [&a, &b, &target].contains(&&c.sym) {
                continue;
            }
            if count(post, &c.sym, &to) <= count(pre, &c.sym, &to) {
                continue;
            }
            for old in [&a, &b] {
                let from = ShareOwner::Corporation(old.clone());
                if count(pre, &c.sym, &from) == 0 || count(post, &c.sym, &from) > 0 {
                    continue;
                }
                let Some(shares) = self.corps.get_mut(&c.sym) else {
                    continue;
                };
                for i in shares.held.get(&from).cloned().unwrap_or_default() {
                    shares.move_share(i, &to);
                }
            }
        }
    }

    /// [`Ledger::merger_treasury`] for a merger whose new corporation `first` (formed from
    /// `first.0` and `first.1`) merges on at once in the same action, as `second.2` with
    /// `second.0` and `second.1`: the Tuscan merge of all three Tuscan minors (1841 §12.3;
    /// 18xx `tuscan_merge_start`: SFLP and SFMA form a holding corporation, which merges
    /// with SSFL into SFLi). 18xx moves the certificates of other corporations three times,
    /// where this engine's `pre` and `post` show only the start and the end: the first
    /// merger's `move_assets` (its initiator's list, then its partner's) to `first`; when
    /// `first` then holds the president's share of a corporation whose presidency it takes
    /// (an event `PresidencyMoved` to it, e.g. of a frozen corporation whose president's
    /// certificate lay in the pool), the swap (`change_president`: the first certificates
    /// of `first` worth the president's certificate to its holder, the certificate to
    /// `first`); then the second merger's `move_assets` to `second.2`. Without this,
    /// [`Ledger::settle`] took the donors in its own order (v2, 7 players, random, seed 7103,
    /// id 942: SFLP's SFTG_4 and SFMA's SFTG_8 go to the pool in 18xx's swap and SFLi keeps
    /// SSFL's SFTG_1; the ledger kept SFTG_4 and put SFTG_1 in the pool, and player 5's
    /// purchase of "SFTG_1" from the pool at id 1033 was refused: "Cannot buy a share of
    /// SFTG").
    fn chained_mergers(
        &mut self,
        pre: &State,
        post: &State,
        events: &[Event],
        first: &(String, String, String),
        second: &(String, String, String),
    ) {
        let count = |s: &State, sym: &str, owner: &ShareOwner| {
            s.corporation(sym).map_or(0, |c| {
                c.certificates.iter().filter(|x| x.owner == *owner).count()
            })
        };
        let involved = [
            &first.0, &first.1, &first.2, &second.0, &second.1, &second.2,
        ];
        let between = ShareOwner::Corporation(first.2.clone());
        let to = ShareOwner::Corporation(second.2.clone());
        for c in &post.corporations {
            if involved.contains(&&c.sym) {
                continue;
            }
            let unit = self.unit(&c.sym);
            let Some(shares) = self.corps.get_mut(&c.sym) else {
                continue;
            };
            for old in [&first.0, &first.1] {
                let from = ShareOwner::Corporation(old.clone());
                if count(pre, &c.sym, &from) == 0 || count(post, &c.sym, &from) > 0 {
                    continue;
                }
                for i in shares.held.get(&from).cloned().unwrap_or_default() {
                    shares.move_share(i, &between);
                }
            }
            let presidency = events.iter().any(|e| {
                matches!(e, Event::PresidencyMoved { corporation, president }
                    if *corporation == c.sym && *president == between)
            });
            if presidency
                && let Some(unit) = unit
                && let Some(p) = shares.sizes.iter().position(|s| s.1)
                && let Some(holder) = shares.owner.get(p).cloned()
                && holder != between
            {
                let n = (shares.sizes[p].0 / unit) as usize;
                let swapped: Vec<usize> = shares
                    .held
                    .get(&between)
                    .map(|list| {
                        list.iter()
                            .copied()
                            .filter(|&i| shares.sizes.get(i) == Some(&(unit, false)))
                            .take(n)
                            .collect()
                    })
                    .unwrap_or_default();
                for i in swapped {
                    shares.move_share(i, &holder);
                }
                shares.move_share(p, &between);
            }
            for old in [&second.0, &second.1] {
                let from = ShareOwner::Corporation(old.clone());
                if count(post, &c.sym, &from) > 0 {
                    continue;
                }
                for i in shares.held.get(&from).cloned().unwrap_or_default() {
                    shares.move_share(i, &to);
                }
            }
        }
    }

    /// 18xx's `restart_corporation!` (1841 §3.4: a non-historical corporation that merged or
    /// transformed may be started anew) re-sorts its IPO by share id.
    fn restarted(&mut self, corporation: &str) {
        if let Some(list) = self
            .corps
            .get_mut(corporation)
            .and_then(|s| s.held.get_mut(&ShareOwner::Ipo))
        {
            list.sort_by_key(|&i| notation::share_id(corporation, i));
        }
    }

    /// Sends `holder`'s certificates of the corporations `corporation` was formed from back
    /// to their IPOs, as 18xx's exchange does before handing out the new shares: the
    /// holder's certificates of both, largest first (18xx `sort_by(&:percent).reverse`, so
    /// among equal sizes the last received first).
    fn return_old(&mut self, corporation: &str, holder: &ShareOwner) {
        let Some(from) = self.formed.get(corporation).cloned() else {
            return;
        };
        let mut list: Vec<(String, usize, u32)> = Vec::new();
        for old in &from {
            if let Some(shares) = self.corps.get(old) {
                for &i in shares.held.get(holder).into_iter().flatten() {
                    list.push((old.clone(), i, shares.sizes.get(i).map_or(0, |s| s.0)));
                }
            }
        }
        list.sort_by_key(|(_, _, size)| *size);
        for (old, i, _) in list.into_iter().rev() {
            if let Some(shares) = self.corps.get_mut(&old) {
                shares.move_share(i, &ShareOwner::Ipo);
            }
        }
    }

    /// Whether `corporation` was formed by the merger of two minors (18xx
    /// `merger_minor_exchange`).
    fn merger_of_minors(&self, corporation: &str) -> bool {
        self.formed
            .get(corporation)
            .is_some_and(|from| from.len() == 2 && !self.merger_of_majors(corporation))
    }

    /// Whether `corporation` was formed by the merger of two majors (18xx's exchange of
    /// pairs, `merger_do_exchange`; a merger of minors hands the president's certificate over
    /// for a 40% certificate, else by a swap ([`Ledger::minor_exchange`]), a split
    /// and a transformation directly).
    fn merger_of_majors(&self, corporation: &str) -> bool {
        self.formed.get(corporation).is_some_and(|from| {
            from.len() == 2
                && from.iter().all(|c| {
                    self.corps
                        .get(c)
                        .and_then(|s| s.sizes.iter().find(|(_, p)| *p))
                        .is_some_and(|(size, _)| *size == 20)
                })
        })
    }

    /// The size of an ordinary certificate of `corporation`.
    fn unit(&self, corporation: &str) -> Option<u32> {
        let shares = self.corps.get(corporation)?;
        shares
            .sizes
            .iter()
            .find(|(_, p)| !p)
            .map(|(size, _)| *size)
            .filter(|s| *s > 0)
    }

    /// Moves `n` ordinary certificates from the front of the IPO of `corporation` to `to`.
    fn give_front(&mut self, corporation: &str, to: &ShareOwner, n: usize) {
        let Some(shares) = self.corps.get_mut(corporation) else {
            return;
        };
        for _ in 0..n {
            let next = shares.held.get(&ShareOwner::Ipo).and_then(|list| {
                list.iter()
                    .copied()
                    .find(|&i| shares.sizes.get(i).is_some_and(|(_, p)| !p))
            });
            let Some(i) = next else { return };
            shares.move_share(i, to);
        }
    }

    fn give_president(&mut self, corporation: &str, to: &ShareOwner) {
        let Some(shares) = self.corps.get_mut(corporation) else {
            return;
        };
        if let Some(i) = shares.sizes.iter().position(|(_, p)| *p) {
            shares.move_share(i, to);
        }
    }

    /// 18xx: the holder's first ordinary share back to the IPO, then the president's
    /// certificate to the holder.
    fn president_for_first_share(&mut self, corporation: &str, to: &ShareOwner) {
        if let Some(shares) = self.corps.get_mut(corporation) {
            let first = shares.held.get(to).and_then(|list| {
                list.iter()
                    .copied()
                    .find(|&i| shares.sizes.get(i).is_some_and(|(_, p)| !p))
            });
            if let Some(i) = first {
                shares.move_share(i, &ShareOwner::Ipo);
            }
        }
        self.give_president(corporation, to);
    }

    /// 18xx: two shares from the IPO; the presidency swap sends the holder's first two back
    /// to the IPO for the president's certificate; then `rest` more shares.
    fn presidency_by_swap(&mut self, corporation: &str, to: &ShareOwner, rest: usize) {
        self.give_front(corporation, to, 2);
        if let Some(shares) = self.corps.get_mut(corporation) {
            let first: Vec<usize> = shares
                .held
                .get(to)
                .map(|list| {
                    list.iter()
                        .copied()
                        .filter(|&i| shares.sizes.get(i).is_some_and(|(_, p)| !p))
                        .take(2)
                        .collect()
                })
                .unwrap_or_default();
            for i in first {
                shares.move_share(i, &ShareOwner::Ipo);
            }
        }
        self.give_president(corporation, to);
        self.give_front(corporation, to, rest);
    }

    /// One holder's exchange of a minor merger (1841 §12.1, §12.3): `units` new shares,
    /// with the president's certificate when `president` (this engine's events, `after`
    /// those that follow). 18xx.games' `merger_minor_exchange` moves each new share with
    /// `allow_president_change`: a 40% certificate gets the president's certificate only
    /// while it is still in the IPO, and the first player or corporation to reach 20% while
    /// it is there takes it at once by the presidency swap (`change_president`, the
    /// certificate's holder being the corporation,
    /// `can_swap_for_presidents_share_directly_from_corporation?`): his first two shares go
    /// back to the end of the IPO ([`Ledger::presidency_by_swap`]), then he receives the
    /// rest from its front; a holder who then exceeds the president swaps his first two with
    /// him. This engine may hand the certificate to a later holder of a 40% certificate
    /// and move it on ([`Ledger::settle`] follows it). v2, 3 players, random, seed 3163,
    /// 18xx id 301: at the Tuscan merge SFTN, the first in order, exchanges SFMA's and
    /// SFLP's 20% for SFLi_1 and SFLi_2 and swaps them for SFLi_0; the pool's two 40% and
    /// three 20% certificates get SFLi_3 to SFLi_8 and SFLi_1, and SFLi_2 stays in the IPO
    /// (this engine: the pool's 40% for the certificate, which moves on to SFTN; before
    /// 2026-12-07 the ledger kept SFLi_8 in the IPO, and CTDA's purchase of the IPO share at
    /// id 369 named SFLi_8, a pool share in 18xx).
    fn minor_exchange(
        &mut self,
        corporation: &str,
        holder: &ShareOwner,
        units: usize,
        president: bool,
        after: &[Event],
    ) {
        let in_ipo = self.corps.get(corporation).is_some_and(|shares| {
            shares
                .sizes
                .iter()
                .position(|(_, p)| *p)
                .and_then(|i| shares.owner.get(i))
                == Some(&ShareOwner::Ipo)
        });
        let may_preside = matches!(holder, ShareOwner::Player(_) | ShareOwner::Corporation(_));
        if president && in_ipo {
            self.give_president(corporation, holder);
            self.give_front(corporation, holder, units.saturating_sub(2));
        } else if !president && in_ipo && may_preside && units >= 2 {
            self.presidency_by_swap(corporation, holder, units - 2);
        } else {
            self.give_front(corporation, holder, units);
            if !in_ipo && takes_presidency(after, corporation, holder) {
                self.change_president(corporation, holder);
            }
        }
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

    /// A sale of `percent` of `corporation` by `seller`, who holds its president's
    /// certificate, worth more than his other certificates together, so that the
    /// president's certificate is in 18xx.games' bundle (`all_bundles_for_corporation`: the
    /// other certificates first, the president's last; partial when it is sold only in
    /// part, 1841 §5.3) and `president` takes the presidency (the pool: receivership). Moves
    /// the certificates as 18xx's share pool does (`transfer_shares`): the bundle (the
    /// seller's other certificates in the order he received them, then the president's) to
    /// the pool; the new president's first certificates worth the president's certificate
    /// to the pool (`change_president`, `swap_to` the pool: the seller has nothing left) and
    /// the president's certificate to him (the pool being president: it stays there); then
    /// the pool's first certificates worth the part not sold back to the seller
    /// (`handle_partial`). Returns the bundle's ids, in that order; none when the ledger
    /// has no president's certificate with `seller`.
    pub fn president_sale(
        &mut self,
        corporation: &str,
        seller: &ShareOwner,
        president: &ShareOwner,
        percent: u32,
    ) -> Vec<String> {
        let Some(shares) = self.corps.get_mut(corporation) else {
            return Vec::new();
        };
        let held = shares.held.get(seller).cloned().unwrap_or_default();
        let is_president = |i: &usize| shares.sizes.get(*i).is_some_and(|s| s.1);
        let Some(&pres) = held.iter().find(|i| is_president(i)) else {
            return Vec::new();
        };
        let mut bundle: Vec<usize> = held.iter().copied().filter(|i| !is_president(i)).collect();
        bundle.push(pres);
        let unit = shares.unit();
        let total: u32 = bundle
            .iter()
            .map(|&i| shares.sizes.get(i).map_or(0, |s| s.0))
            .sum();
        let size = shares.sizes.get(pres).map_or(0, |s| s.0);
        for &i in &bundle {
            shares.move_share(i, &ShareOwner::Pool);
        }
        // Nobody can take the presidency: the certificate stays in the pool (18xx
        // `@allow_president_sale`, the corporation in receivership).
        if *president != ShareOwner::Pool {
            let swap: Vec<usize> = shares
                .held
                .get(president)
                .map(|l| l.iter().copied().take((size / unit) as usize).collect())
                .unwrap_or_default();
            for i in swap {
                shares.move_share(i, &ShareOwner::Pool);
            }
            shares.move_share(pres, president);
        }
        let back: Vec<usize> = shares
            .held
            .get(&ShareOwner::Pool)
            .map(|l| {
                l.iter()
                    .copied()
                    .take((total.saturating_sub(percent) / unit) as usize)
                    .collect()
            })
            .unwrap_or_default();
        for i in back {
            shares.move_share(i, seller);
        }
        bundle
            .iter()
            .map(|&i| notation::share_id(corporation, i))
            .collect()
    }

    /// After a purchase from another player (1841 §15.3) whose bundle, `bundle` (18xx ids,
    /// already moved to `buyer` by [`Ledger::pick`]), holds the president's certificate,
    /// sold in full or in part (`percent`, 1841 §5.3): the certificate moves as 18xx's share
    /// pool moves it (`transfer_shares` of a player-to-player purchase: `swap_to` and
    /// `transfer_to` are the buyer). If `president` (the holder of the president's
    /// certificate after the purchase in this engine) is not the seller: the new president's
    /// first certificates worth the president's certificate go to the buyer
    /// (`change_president`; the buyer's own, president's certificate included, when he is
    /// the new president — unless he bought it whole), the president's certificate to the
    /// new president; then the buyer's first certificates worth the part not sold go back to
    /// the seller (`handle_partial`). p2p purchases heuristic 4 players seed 4012, 18xx id
    /// 1194: player 4 buys 20% of FTP from player 2, who holds only its 40% president's
    /// certificate; player 1 (40%) becomes president: FTP_2 and FTP_3 go to player 4, whose
    /// FTP_1 goes back to player 2; before this the ledger's settling gave player 4 FTP_1
    /// and FTP_3, and his sale at id 1222 was written as FTP_3, a certificate of his own in
    /// 18xx.
    pub fn president_purchase(
        &mut self,
        corporation: &str,
        bundle: &[String],
        seller: &ShareOwner,
        buyer: &ShareOwner,
        president: &ShareOwner,
        percent: u32,
    ) {
        let Some(shares) = self.corps.get_mut(corporation) else {
            return;
        };
        let indices: Vec<usize> = bundle
            .iter()
            .filter_map(|id| notation::parse_share_id(id))
            .filter(|(c, i)| *c == corporation && *i < shares.sizes.len())
            .map(|(_, i)| i)
            .collect();
        let Some(&pres) = indices
            .iter()
            .find(|&&i| shares.sizes.get(i).is_some_and(|s| s.1))
        else {
            return;
        };
        if president == seller {
            return;
        }
        let unit = shares.unit();
        let total: u32 = indices
            .iter()
            .map(|&i| shares.sizes.get(i).map_or(0, |s| s.0))
            .sum();
        let partial = total > percent;
        if president != buyer || partial {
            let size = shares.sizes.get(pres).map_or(0, |s| s.0);
            let swap: Vec<usize> = shares
                .held
                .get(president)
                .map(|l| l.iter().copied().take((size / unit) as usize).collect())
                .unwrap_or_default();
            for i in swap {
                shares.move_share(i, buyer);
            }
            shares.move_share(pres, president);
        }
        if partial {
            let back: Vec<usize> = shares
                .held
                .get(buyer)
                .map(|l| {
                    l.iter()
                        .copied()
                        .take(((total - percent) / unit) as usize)
                        .collect()
                })
                .unwrap_or_default();
            for i in back {
                shares.move_share(i, seller);
            }
        }
    }

    /// Moves the certificates a record names (18xx ids `ids`, as `<CORP>_<index>`) to `to`,
    /// in that order (18xx moves a bundle's shares one by one, `move_share`); ids of another
    /// corporation or unknown are skipped.
    pub fn move_named<'a>(
        &mut self,
        corporation: &str,
        ids: impl IntoIterator<Item = &'a str>,
        to: &ShareOwner,
    ) {
        let Some(shares) = self.corps.get_mut(corporation) else {
            return;
        };
        for id in ids {
            if let Some((c, i)) = notation::parse_share_id(id)
                && c == corporation
                && i < shares.owner.len()
            {
                shares.move_share(i, to);
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

    /// Follows the split's handing out of IRSFF's certificates of other corporations (1841
    /// §12.4: by descending value, alternating SB, SFL), when `events` form two corporations
    /// from one (the split; a transformation forms one), as 18xx.games does it
    /// (`secession_move_treasury_shares`): IRSFF's certificates in the order of its
    /// `corporate_shares` (corporation by corporation in the corporation list's order, each
    /// corporation's in the order IRSFF received them), sorted by price ascending (Ruby's
    /// `sort_by`: not stable by contract, but stable in the oracle's Ruby 3.1 on glibc 2.36,
    /// which sorts with glibc's merge sort; checked on random lists with equal keys) and
    /// reversed, so that of equal values the
    /// later corporation, and within one corporation the last received, goes first; even
    /// positions to the first successor, odd ones to the second. The presidency changes
    /// these transfers cause, and what this engine's handing out does differently, are left
    /// to [`Ledger::settle`].
    ///
    /// The presidencies that changed in the same action before the split (the delayed
    /// presidency check of the first 4-train, 1841 §11 step 2, FAQ-C14, which comes before
    /// the split) are swapped first, as 18xx's `deferred_president_change` does (the new
    /// president's first certificates to the old one), so that IRSFF hands out the
    /// certificates it holds at the split: lite 5 players random seed 5105, 18xx id 369:
    /// IRSFF (SFTG_2, SFTG_7, SFTG_8: 30%) becomes SFTG's president at the concessions'
    /// close, gives player 4 SFTG_2 and SFTG_7 for SFTG_0, hands SFTG_0 to SFL and SFTG_8 to
    /// SB; player 4, tied, takes the presidency back for SFTG_2 and SFTG_7, which SFL sells
    /// at id 395. Before, the ledger handed out IRSFF's holdings before the action (three
    /// 10% shares) and gave SFL SFTG_8 and SFTG_7: 18xx.games refused the sale, "All shares
    /// must be owned by the same owner".
    pub fn split_treasury(&mut self, pre: &State, events: &[Event]) {
        let mut formed: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for e in events {
            if let Event::CorporationFormed {
                corporation, from, ..
            } = e
                && let [one] = from.as_slice()
            {
                formed
                    .entry(one.as_str())
                    .or_default()
                    .push(corporation.as_str());
            }
        }
        let Some((old, successors)) = formed.into_iter().find(|(_, s)| s.len() == 2) else {
            return;
        };
        // The presidency changes before the split's first event (its successors' tokens,
        // or their formation).
        let start = events
            .iter()
            .position(|e| match e {
                Event::TokenPlaced { corporation, .. } => {
                    successors.contains(&corporation.as_str())
                }
                Event::CorporationFormed { .. } => true,
                _ => false,
            })
            .unwrap_or(events.len());
        for e in &events[..start] {
            self.follow_presidency(e);
        }
        let owner = ShareOwner::Corporation(old.to_string());
        let mut handed: Vec<(i64, String, usize)> = Vec::new();
        for c in pre.corporations.iter().filter(|c| c.sym != old) {
            let Some(shares) = self.corps.get(&c.sym) else {
                continue;
            };
            if shares.sizes.len() != c.certificates.len() {
                continue;
            }
            let unit = c.unit_percent().max(1);
            for &i in shares.held.get(&owner).into_iter().flatten() {
                let size = shares.sizes.get(i).map_or(0, |s| s.0);
                let value = c
                    .price()
                    .unwrap_or(0)
                    .saturating_mul(i64::from(size / unit));
                handed.push((value, c.sym.clone(), i));
            }
        }
        handed.sort_by_key(|(value, _, _)| *value);
        handed.reverse();
        for (k, (_, sym, i)) in handed.into_iter().enumerate() {
            let to = ShareOwner::Corporation(successors[k % 2].to_string());
            if let Some(shares) = self.corps.get_mut(&sym) {
                shares.move_share(i, &to);
                shares.successor_presidency(i, &owner, &to, &sym);
            }
        }
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

/// The presidency change reported by `events[k]` right after a `SharesExchanged` of the same
/// corporation (the exchange made its holder president: `follow_presidency` of a merger),
/// with the new president.
fn presidency_after_exchange(events: &[Event], k: usize) -> Option<(&String, ShareOwner)> {
    let (corporation, president) = match events.get(k)? {
        Event::PresidentChanged { corporation, seat } => (corporation, ShareOwner::Player(*seat)),
        Event::PresidencyMoved {
            corporation,
            president,
        } => (corporation, president.clone()),
        _ => return None,
    };
    let previous = events.get(k.checked_sub(1)?)?;
    matches!(previous, Event::SharesExchanged { corporation: c, .. } if c == corporation)
        .then_some((corporation, president))
}

/// Whether the presidency of `corporation` goes to `holder` in `events` (those after one
/// holder's exchange) before the next holder's exchange: this engine's `update_presidency`
/// after each exchange ([`Event::PresidentChanged`] for a player, [`Event::PresidencyMoved`]
/// for a corporation).
fn takes_presidency(events: &[Event], corporation: &str, holder: &ShareOwner) -> bool {
    for e in events {
        match e {
            Event::SharesExchanged { .. } => return false,
            Event::PresidentChanged {
                corporation: c,
                seat,
            } if c == corporation => return *holder == ShareOwner::Player(*seat),
            Event::PresidencyMoved {
                corporation: c,
                president,
            } if c == corporation => return president == holder,
            _ => {}
        }
    }
    false
}

/// The events of a transformation (1841 §12.2, §12.3: one corporation formed from one other,
/// not the split, which forms two) with its `SharesExchanged` events in the order 18xx.games
/// makes the exchanges (`transform_shares`): the president's certificate first, then each
/// player's shares, the players from the president on in player order, then each
/// corporation's in the corporation list order, then the pool's; each holder receives the
/// front of the new corporation's IPO. This engine reports them in its certificate order, in
/// which the pool's old certificate may come before a player's (`version_1`, 5 players,
/// random, seed 5011: SFTC transforms into CTS, 18xx gives player 3 CTS_1 and CTS_2 and the
/// pool CTS_3). `None`: no transformation, or its events already in that order.
fn transformation_order(events: &[Event], post: &State) -> Option<Vec<Event>> {
    let mut formed = events.iter().filter_map(|e| match e {
        Event::CorporationFormed {
            corporation, from, ..
        } => Some((corporation, from.len())),
        _ => None,
    });
    let (target, 1) = formed.next()? else {
        return None;
    };
    if formed.next().is_some() {
        return None;
    }
    let exchanges: Vec<usize> = (0..events.len())
        .filter(|&k| {
            matches!(&events[k], Event::SharesExchanged { corporation, .. } if corporation == target)
        })
        .collect();
    // 18xx rotates its players from the minor's controlling player (`corp.player`): the
    // president, or the player controlling the corporation that is president (`version_1`,
    // 8 players, random, seed 8013: CTLP, SFTC president, transforms into RATF at id 297).
    let president = exchanges.iter().find_map(|&k| match &events[k] {
        Event::SharesExchanged {
            holder,
            president: true,
            ..
        } => match holder {
            ShareOwner::Player(seat) => Some(*seat),
            ShareOwner::Corporation(sym) => super::corporation::controller(post, sym),
            _ => None,
        },
        _ => None,
    });
    let players = president.map_or_else(
        || post.player_order.clone(),
        |p| super::corporation::players_from(post, p),
    );
    let rank = |e: &Event| -> (u8, usize) {
        let Event::SharesExchanged {
            holder, president, ..
        } = e
        else {
            return (4, 0);
        };
        if *president {
            return (0, 0);
        }
        match holder {
            ShareOwner::Player(s) => (1, players.iter().position(|x| x == s).unwrap_or(usize::MAX)),
            ShareOwner::Corporation(c) => (
                2,
                post.corporations
                    .iter()
                    .position(|x| x.sym == *c)
                    .unwrap_or(usize::MAX),
            ),
            ShareOwner::Pool => (3, 0),
            ShareOwner::Ipo => (4, 0),
        }
    };
    let mut sorted: Vec<&Event> = exchanges.iter().map(|&k| &events[k]).collect();
    sorted.sort_by_key(|e| rank(e));
    if exchanges
        .iter()
        .zip(&sorted)
        .all(|(&k, e)| std::ptr::eq(&events[k], *e))
    {
        return None;
    }
    let mut out = events.to_vec();
    for (&k, e) in exchanges.iter().zip(sorted) {
        out[k] = e.clone();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::{G1841, Options};

    fn own(state: &mut State, sym: &str, owners: &[(usize, ShareOwner)]) {
        let c = state.corporation_mut(sym).unwrap();
        for (i, o) in owners {
            c.certificates[*i].owner = o.clone();
        }
    }

    /// 1841 §12.4: at the split IRSFF's certificates of other corporations alternate SB, SFL
    /// by descending value; of equal values 18xx.games (`sort_by(&:price).reverse`) takes the
    /// one IRSFF received last first. IRSFF holds RATF's president's certificate (RATF_0, 2 ×
    /// L.68) and RATF_1, RATF_2 (L.68 each): SB gets RATF_0 and RATF_1, SFL RATF_2 — whichever
    /// of its interchangeable 10% certificates this engine gave SFL (lite heuristic 4
    /// players seed 4001, 18xx id 475: SFL's sale of its RATF share was written as RATF_1,
    /// SB's in 18xx).
    #[test]
    fn the_splits_equal_certificates_go_to_the_successors_in_18xx_order() {
        let mut s = G1841::setup(&Options::default(), 4, 0).unwrap();
        let irsff = ShareOwner::Corporation("IRSFF".into());
        let (sb, sfl) = (
            ShareOwner::Corporation("SB".into()),
            ShareOwner::Corporation("SFL".into()),
        );
        s.corporation_mut("RATF").unwrap().share_price = Some(super::super::state::SharePrice {
            row: 4,
            col: 2,
            arrival: 0,
        });
        s.next_market_arrival = 1;
        own(
            &mut s,
            "RATF",
            &[(0, irsff.clone()), (1, irsff.clone()), (2, irsff.clone())],
        );
        let mut ledger = Ledger::new(&s);
        let pre = s.clone();
        let formed = |c: &str| Event::CorporationFormed {
            corporation: c.into(),
            from: vec!["IRSFF".into()],
            price: 100,
            row: 3,
            col: 5,
        };
        // This engine: RATF_0 and its certificate 2 to SB, certificate 1 to SFL.
        own(
            &mut s,
            "RATF",
            &[(0, sb.clone()), (1, sfl.clone()), (2, sb.clone())],
        );
        ledger.split_treasury(&pre, &[formed("SB"), formed("SFL")]);
        ledger.settle(&s);
        // Which certificates SB holds is what 18xx's later sales name; the president's
        // certificate is placed by `settle`, after the ordinary share.
        let mut held_by_sb = ledger.held("RATF", &sb);
        held_by_sb.sort();
        assert_eq!(held_by_sb, ["RATF_0", "RATF_1"]);
        assert_eq!(ledger.held("RATF", &sfl), ["RATF_2"]);
        // SFL's sale of its 10% (this engine's certificate 1) names RATF_2.
        let pre = s.clone();
        own(&mut s, "RATF", &[(1, ShareOwner::Pool)]);
        assert_eq!(
            ledger.pick("RATF", &sfl, &ShareOwner::Pool, &pre, &[1]),
            ["RATF_2"]
        );
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

    /// A player-to-player purchase of part of the president's certificate (1841 §15.3, §5.3)
    /// moves 18xx's certificates as its share pool does (p2p purchases heuristic 4 players
    /// seed 4012, 18xx id 1194, FTP): seat 1 holds the president's certificate (id 0), seat 3
    /// id 1, seat 0 ids 2 and 3. Seat 3 buys 20% from seat 1; seat 0 (40%) becomes
    /// president: ids 2 and 3 go to seat 3, id 0 to seat 0, and seat 3's first certificate,
    /// id 1, back to seat 1 for the half not sold.
    #[test]
    fn a_p2p_purchase_of_half_the_presidents_certificate_moves_18xx_ids() {
        let mut s = G1841::setup(&Options::default(), 4, 0).unwrap();
        let sym = s
            .corporations
            .iter()
            .find(|c| c.certificates.len() == 4)
            .unwrap()
            .sym
            .clone();
        let (p0, p1, p3) = (
            ShareOwner::Player(0),
            ShareOwner::Player(1),
            ShareOwner::Player(3),
        );
        own(
            &mut s,
            &sym,
            &[
                (0, p1.clone()),
                (1, p3.clone()),
                (2, p0.clone()),
                (3, p0.clone()),
            ],
        );
        let mut ledger = Ledger::new(&s);
        let pre = s.clone();
        let ids = ledger.pick(&sym, &p1, &p3, &pre, &[0]);
        assert_eq!(ids, [format!("{sym}_0")]);
        ledger.president_purchase(&sym, &ids, &p1, &p3, &p0, 20);
        let holders: Vec<_> = (0..4).map(|i| ledger.holder(&sym, i).cloned()).collect();
        assert_eq!(holders, [&p0, &p1, &p3, &p3].map(|o| Some(o.clone())));
        assert_eq!(
            ledger.held(&sym, &p3),
            [format!("{sym}_2"), format!("{sym}_3")]
        );
    }
}
