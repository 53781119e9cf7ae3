//! The ledger through the certificates of other corporations that an event moves between
//! treasuries: a merger's to the new corporation (1841 §12.1, §12.3; 18xx `move_assets`, also
//! for mergers in a chain), and IRSFF's handed out by the Ferdinandea split (§12.4).

use super::*;

impl Ledger {
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
            crate::g1841::state::Round::OperatingRound(r) => match r.event.as_deref() {
                Some(crate::g1841::state::CorporateEvent::Merger(m)) if !m.target.is_empty() => {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::share_ledger::tests::own;
    use crate::g1841::{G1841, Options};

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
        s.corporation_mut("RATF").unwrap().share_price = Some(crate::g1841::state::SharePrice {
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
}
