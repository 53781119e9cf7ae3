//! The certificates an action moves (a purchase, a sale, 1841 §5), in this engine's indices
//! and with the holders 18xx.games moves them between.

use std::collections::BTreeMap;

use crate::g1841::action::Action;
use crate::g1841::import18xx::notation;
use crate::g1841::state::{ShareOwner, State};

/// The corporation whose certificates a purchase or a sale moves (empty for other actions).
pub(super) fn action_corporation(action: &Action) -> &str {
    match action {
        Action::BuyShares { corporation, .. }
        | Action::SellShares { corporation, .. }
        | Action::EmergencySell { corporation, .. } => corporation,
        _ => "",
    }
}

/// The seller's ordinary certificates a purchase of `percent` of `corporation` from
/// `seller` takes (I48, 1841 §5.2: the seller's ordinary certificates go first), in this
/// engine's notation, when they cover it (`None`: the purchase takes the president's
/// certificate too, read from the certificates that left him). 18xx.games records that
/// bundle, the presidency following afterwards (§7.5): a buyer who then holds more than the
/// seller swaps two of his shares for the president's certificate, so the certificates
/// that left the seller are the president's and not the share bought (p2p_purchases
/// heuristic 4 players seed 4001, id 771: a 10% ICSF share written as ICSF_0, 10%).
pub(super) fn sold_ordinary(
    before: &State,
    corporation: &str,
    seller: &ShareOwner,
    percent: u32,
) -> Option<Vec<String>> {
    let c = before.corporation(corporation)?;
    let unit = c.unit_percent();
    let units = usize::try_from(percent / unit.max(1)).ok()?;
    let ordinary: Vec<String> = c
        .certificates
        .iter()
        .enumerate()
        .filter(|(_, k)| k.owner == *seller && !k.president && k.percent == unit)
        .map(|(i, _)| notation::share_id(corporation, i))
        .take(units)
        .collect();
    (units > 0 && ordinary.len() == units).then_some(ordinary)
}

/// Ids of the certificates of `corporation` whose owner went from `a` to `b` with
/// `changed(a, b)`, in index order.
pub(super) fn moved(
    pre: &State,
    post: &State,
    corporation: &str,
    changed: impl Fn(&ShareOwner, &ShareOwner) -> bool,
) -> Vec<String> {
    let (Some(a), Some(b)) = (pre.corporation(corporation), post.corporation(corporation)) else {
        return Vec::new();
    };
    a.certificates
        .iter()
        .zip(&b.certificates)
        .enumerate()
        .filter(|(_, (x, y))| changed(&x.owner, &y.owner))
        .map(|(i, _)| notation::share_id(corporation, i))
        .collect()
}

/// The certificates `action` moves (a purchase, a sale): this engine's indices, with the
/// holder before and after as 18xx.games moves them: a purchase's certificates go to the
/// buyer and a sale's come from the seller, even where this engine's presidency swap (1841
/// §5.3) hands the very certificate bought or sold on to another holder (18xx moves the
/// bundle first, then swaps the new president's first certificates, `change_president`;
/// the ledger's [`crate::g1841::share_ledger::Ledger::settle`] follows that swap).
pub(super) fn share_moves(
    pre: &State,
    post: &State,
    action: &Action,
) -> Vec<(usize, ShareOwner, ShareOwner)> {
    let corporation = match action {
        Action::BuyShares { corporation, .. }
        | Action::SellShares { corporation, .. }
        | Action::EmergencySell { corporation, .. } => corporation,
        _ => return Vec::new(),
    };
    let ours = share_ids_moved(pre, post, action);
    let (Some(a), Some(b)) = (pre.corporation(corporation), post.corporation(corporation)) else {
        return Vec::new();
    };
    // Each holder's change in percent: the buyer is the one holder (other than the source)
    // that gained, the seller the one (other than the pool) that lost.
    let mut change: BTreeMap<ShareOwner, i64> = BTreeMap::new();
    for c in &a.certificates {
        *change.entry(c.owner.clone()).or_default() -= i64::from(c.percent);
    }
    for c in &b.certificates {
        *change.entry(c.owner.clone()).or_default() += i64::from(c.percent);
    }
    let only = |keep: &dyn Fn(&ShareOwner, i64) -> bool| {
        let mut found = change.iter().filter(|(o, n)| keep(o, **n));
        match (found.next(), found.next()) {
            (Some((o, _)), None) => Some(o.clone()),
            _ => None,
        }
    };
    let (buyer, seller) = match action {
        Action::BuyShares { from_pool, .. } => {
            let source = if *from_pool {
                ShareOwner::Pool
            } else {
                ShareOwner::Ipo
            };
            (only(&|o, n| *o != source && n > 0), None)
        }
        _ => (None, only(&|o, n| *o != ShareOwner::Pool && n < 0)),
    };
    ours.iter()
        .filter_map(|id| notation::parse_share_id(id).map(|(_, i)| i))
        .filter_map(|i| {
            let from = a.certificates.get(i)?.owner.clone();
            let to = b.certificates.get(i)?.owner.clone();
            Some((
                i,
                seller.clone().unwrap_or(from),
                buyer.clone().unwrap_or(to),
            ))
        })
        .collect()
}

/// The ids of the certificates `action` names (a purchase, a sale) as this engine's
/// certificate indices.
///
/// A purchase names the certificate bought, the one `stock_round::buy::buy` takes (an ordinary
/// certificate of that size first), not what left the source: a single share that brings the
/// buyer to the size of a president's certificate lying in the pool swaps it for two of his
/// shares (1841 §7.4), so the certificate that left the pool is the president's (version_1
/// random 3 players seed 3104, id 537: a 20% SFLP share from the pool, written as SFLP_0, the
/// 40% president's certificate, which 18xx.games refuses: 'Cannot buy a share of SFLP').
fn share_ids_moved(pre: &State, post: &State, action: &Action) -> Vec<String> {
    match action {
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } => {
            let source = if *from_pool {
                ShareOwner::Pool
            } else {
                ShareOwner::Ipo
            };
            let left = moved(pre, post, corporation, |a, b| *a == source && *b != source);
            let certificates = pre.corporation(corporation).map(|c| &c.certificates[..]);
            let bought = certificates.and_then(|cs| {
                cs.iter()
                    .position(|c| c.owner == source && c.percent == *percent && !c.president)
                    .or_else(|| {
                        cs.iter()
                            .position(|c| c.owner == source && c.percent == *percent)
                    })
            });
            match bought {
                Some(i) if left.len() == 1 => vec![notation::share_id(corporation, i)],
                _ => left,
            }
        }
        Action::SellShares { corporation, .. } | Action::EmergencySell { corporation, .. } => {
            moved(pre, post, corporation, |a, b| {
                *a != ShareOwner::Pool && *b == ShareOwner::Pool
            })
        }
        _ => Vec::new(),
    }
}
