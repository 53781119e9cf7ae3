//! The purchase of a share turn (1841 §5.2): one certificate from the IPO (paid to the
//! treasury) or the pool (paid to the bank) at the market price, ending the turn. Within the
//! certificate limit (§2) and the 60% control limit (§7.3), not of a corporation the buyer sold
//! this round (§5.1); a president's certificate only from the pool, and only of a
//! non-historical corporation or from phase 4 (#9379). Then the presidency rule (§7.5).
//!
//! One generator, [`each_buy`], finds the purchases: the listing ([`buy_options`]), the test of
//! one purchase ([`lists`]) and whether there is any ([`has_buy`]) derive from it. [`buy`]
//! carries a purchase out ("a share is bought"), [`explain_buy`] refuses one outside the
//! listing. The starter's purchases of a start in progress are the same `buy`, listed by
//! [`super::super::start`] ([`super::par`]).

use super::super::action::{Action, Event};
use super::super::corporation::{
    certificate_count, certificate_limit, controlled_percent, phase_number,
};
use super::super::data;
use super::super::state::{Corporation, ShareOwner, State};
use super::{
    cash, corrupt, mark_acted, reject, sold_this_round, unknown_corporation, update_presidency,
};
use crate::{Rejection, RejectionCode, Seat};

/// Every share purchase `seat` may make now (1841 §5.2): one per corporation, source and
/// certificate size; of corporation `only` alone when given; the first `limit` only.
pub(super) fn buy_options(
    state: &State,
    seat: Seat,
    only: Option<&str>,
    limit: usize,
) -> Vec<Action> {
    let mut out = Vec::new();
    each_buy(state, seat, only, |corp, from_pool, percent| {
        out.push(Action::BuyShares {
            corporation: corp.sym.clone(),
            from_pool,
            percent,
        });
        out.len() < limit
    });
    out
}

/// Whether `action`, a purchase of `corporation`, is one of [`buy_options`]: the purchases
/// of that corporation alone are listed.
pub(super) fn lists(state: &State, seat: Seat, corporation: &str, action: &Action) -> bool {
    buy_options(state, seat, Some(corporation), usize::MAX).contains(action)
}

/// Whether [`buy_options`] lists any purchase (nothing built).
pub(super) fn has_buy(state: &State, seat: Seat) -> bool {
    let mut found = false;
    each_buy(state, seat, None, |_, _, _| {
        found = true;
        false
    });
    found
}

/// The purchases of [`buy_options`] in its order, each handed to `take` as (corporation,
/// from the pool, percent) until `take` returns `false`.
///
/// A purchase must keep `seat` below his certificate limit and within the 60% control limit
/// (1841 §2, §7.3): the certificate count is read once per call (at the limit, no purchase
/// at all), the control of a corporation once for all its certificates.
fn each_buy(
    state: &State,
    seat: Seat,
    only: Option<&str>,
    mut take: impl FnMut(&Corporation, bool, u32) -> bool,
) {
    if certificate_count(state, seat) >= certificate_limit(state) {
        return;
    }
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    let cash = cash(state, seat);
    for corp in &state.corporations {
        if only.is_some_and(|o| o != corp.sym) {
            continue;
        }
        let Some(price) = corp.price() else { continue };
        if sold_this_round(state, seat, &corp.sym) {
            continue;
        }
        let unit = corp.unit_percent();
        // What `seat` controls of it (1841 §7.3), once asked.
        let mut controlled: Option<u32> = None;
        for from_pool in [false, true] {
            let owner = if from_pool {
                ShareOwner::Pool
            } else {
                ShareOwner::Ipo
            };
            // The certificate sizes there, ascending, each once.
            let mut sizes: smallvec::SmallVec<[u32; 4]> = smallvec::SmallVec::new();
            for c in corp
                .certificates
                .iter()
                .filter(|c| c.owner == owner)
                .filter(|c| {
                    // A president's certificate in the pool: only non-historical corporations
                    // or from phase 4 (1841 §5.2, #9379). Never in the IPO after the start.
                    !c.president || (from_pool && (!corp.historical || phase_number(state) >= 4))
                })
            {
                if let Err(at) = sizes.binary_search(&c.percent) {
                    sizes.insert(at, c.percent);
                }
            }
            for percent in sizes {
                let cost = price.saturating_mul(i64::from(percent / unit));
                if cost <= cash
                    && controlled
                        .get_or_insert_with(|| controlled_percent(state, seat, &corp.sym))
                        .saturating_add(percent)
                        <= max
                    && !take(corp, from_pool, percent)
                {
                    return;
                }
            }
        }
    }
}

/// Buys one certificate (1841 §5.2): IPO money to the treasury, pool money to the bank; then
/// the presidency rule of §7.5.
pub(super) fn buy(
    state: &mut State,
    seat: Seat,
    sym: &str,
    from_pool: bool,
    percent: u32,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    let owner = if from_pool {
        ShareOwner::Pool
    } else {
        ShareOwner::Ipo
    };
    // Every check before the first change.
    if state.player(seat).is_none() {
        return Err(corrupt("seat"));
    }
    let corp = state
        .corporation_mut(sym)
        .ok_or_else(|| corrupt("unknown corporation"))?;
    let price = corp.price().ok_or_else(|| corrupt("no share price"))?;
    let cost = price.saturating_mul(i64::from(percent / corp.unit_percent()));
    // Prefer an ordinary certificate; the president's certificate only when it is the one of
    // that size (pool, 1841 §5.2).
    let idx = corp
        .certificates
        .iter()
        .position(|c| c.owner == owner && c.percent == percent && !c.president)
        .or_else(|| {
            corp.certificates
                .iter()
                .position(|c| c.owner == owner && c.percent == percent)
        })
        .ok_or_else(|| corrupt("certificate missing"))?;
    let was_president_cert = corp.certificates[idx].president;
    corp.certificates[idx].owner = ShareOwner::Player(seat);
    if from_pool {
        state.bank_cash += cost;
    } else {
        corp.cash += cost;
    }
    if let Some(player) = state.players.get_mut(seat as usize) {
        player.cash -= cost;
    }
    mark_acted(state, seat);
    events.push(Event::SharesBought {
        seat,
        corporation: sym.to_string(),
        percent,
        from_pool,
        price: cost,
    });
    if was_president_cert {
        events.push(Event::PresidentChanged {
            corporation: sym.to_string(),
            seat,
        });
    }
    update_presidency(state, sym, seat, events);
    Ok(())
}

pub(super) fn explain_buy(
    state: &State,
    seat: Seat,
    sym: &str,
    from_pool: bool,
    percent: u32,
) -> Rejection {
    let Some(corp) = state.corporation(sym) else {
        return unknown_corporation(sym);
    };
    let illegal = |rule: &str, m: String| reject(RejectionCode::IllegalMove, rule, m);
    let owner = if from_pool {
        ShareOwner::Pool
    } else {
        ShareOwner::Ipo
    };
    let Some(price) = corp.price() else {
        return illegal("1841 §5.4", format!("{sym} has not been started."));
    };
    let cert = corp
        .certificates
        .iter()
        .find(|c| c.owner == owner && c.percent == percent);
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    if sold_this_round(state, seat, sym) {
        illegal(
            "1841 §5.1",
            format!("Seat {seat} sold {sym} this round and may not buy it."),
        )
    } else if cert.is_none() {
        illegal(
            "1841 §5.2",
            format!(
                "No {percent}% certificate of {sym} in the {}.",
                if from_pool { "pool" } else { "IPO" }
            ),
        )
    } else if cert.is_some_and(|c| c.president) {
        illegal(
            "1841 §5.2",
            format!("The president's certificate of {sym} cannot be bought now."),
        )
    } else if certificate_count(state, seat) >= certificate_limit(state) {
        illegal("1841 §2", "The certificate limit is reached.".to_string())
    } else if controlled_percent(state, seat, sym) + percent > max {
        illegal(
            "1841 §7.3",
            format!("A player may control at most {max}% of {sym}."),
        )
    } else {
        reject(
            RejectionCode::InsufficientFunds,
            "1841 §5.2",
            format!(
                "The certificate costs L.{}.",
                price.saturating_mul(i64::from(percent / corp.unit_percent()))
            ),
        )
    }
}
