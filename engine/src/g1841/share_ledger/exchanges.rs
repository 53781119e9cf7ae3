//! The ledger through the exchanges of corporate events (1841 §12): a merger's, a split's or
//! a transformation's `SharesExchanged` events in 18xx's order (§12.1–§12.4), the
//! presidencies they make, the non-historical corporations started anew (§3.4) and the
//! exchange of a minor merger.

use super::*;

impl Ledger {
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

    /// 18xx's `restart_corporation!` (1841 §3.4: a non-historical corporation that merged or
    /// transformed may be started anew) re-sorts its IPO by share id.
    pub(super) fn restarted(&mut self, corporation: &str) {
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
    pub(super) fn unit(&self, corporation: &str) -> Option<u32> {
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
            ShareOwner::Corporation(sym) => crate::g1841::corporation::controller(post, sym),
            _ => None,
        },
        _ => None,
    });
    let players = president.map_or_else(
        || post.player_order.clone(),
        |p| crate::g1841::corporation::players_from(post, p),
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
