//! The ledger through sales and purchases that name 18xx's ids: a sale out of a president's
//! certificate (1841 §5.3), a purchase from another player (§15.3), and the certificates a
//! record names.

use super::*;

impl Ledger {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::share_ledger::tests::own;
    use crate::g1841::{G1841, Options};

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
