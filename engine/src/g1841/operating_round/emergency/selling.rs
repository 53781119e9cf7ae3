//! An emergency sale carried out (1841 §14): the certificates sold at half price
//! ([`half_price_proceeds`], FAQ-Q21), the price drop (§5.3, FAQ-Q2), the presidency rule,
//! the sales recorded against rebuying with `no_corporate_rebuy_after_sale` (FAQ-R5), and the
//! raisers' cash swept into the needy treasury after the sale.

use super::sales::{dump_successor, seller_owner};
use super::*;

/// Applies an emergency sale (1841 §14): `percent` of `target` from `seller` (its own IPO
/// when it sells its own shares; the controlling player when `seller` is `None`) to the pool
/// at half price, ceil(units × price ÷ 2) from the bank; the price drops one row per unit
/// ([`sale::drop_after_sale`]; with `price_drops_lowest_first`, FAQ-Q2, when the emergency's
/// selling ends: at the purchase it raised money for, or a bankruptcy). A
/// player or a corporation selling into its president's certificate first hands the
/// presidency to the successor holding at least as much, or puts the certificate into the
/// pool when nobody does, freezing the corporation (a dump, §5.3, §7.4; FAQ-C13). Any other
/// sale of held certificates then hands the presidency to a holder with more (§7.5).
pub(in crate::g1841::operating_round) fn emergency_sell(
    state: &mut State,
    seat: Seat,
    seller: &Option<String>,
    target: &str,
    percent: u32,
    events: &mut Vec<Event>,
) {
    let owner = seller_owner(seller, seat);
    let holder = match seller {
        Some(c) if c == target => ShareOwner::Ipo,
        _ => owner.clone(),
    };
    let Some(t) = state.corporation(target) else {
        return;
    };
    let Some(price) = t.price() else { return };
    let unit = t.unit_percent();
    let units = percent / unit;
    let ordinary: u32 = t
        .certificates
        .iter()
        .filter(|k| k.owner == holder && !k.president)
        .map(|k| k.percent / unit)
        .sum();
    let pres_units = 2;
    let mut pres_to_pool = false;
    // A sale beyond the ordinary certificates is a dump of the president's certificate, by
    // the player or by a corporation (1841 §5.3, §14, FAQ-C13): to the successor with the
    // president's share, or into the pool when nobody has it.
    let dumping = units > ordinary && holder == owner && t.president() == Some(&owner);
    match dumping.then(|| dump_successor(state, target, &owner)) {
        None => {}
        Some(next) => match next.filter(|(_, p)| *p >= pres_units * unit) {
            None => pres_to_pool = true,
            Some((next, _)) => {
                swap_presidency(state, target, &owner, &next);
                events.push(match &next {
                    ShareOwner::Player(seat) => Event::PresidentChanged {
                        corporation: target.to_string(),
                        seat: *seat,
                    },
                    other => Event::PresidencyMoved {
                        corporation: target.to_string(),
                        president: other.clone(),
                    },
                });
            }
        },
    }
    let Some(t) = state.corporation_mut(target) else {
        return;
    };
    let mut left = units;
    if pres_to_pool
        && let Some(k) = t
            .certificates
            .iter_mut()
            .find(|k| k.president && k.owner == holder)
    {
        k.owner = ShareOwner::Pool;
        left = left.saturating_sub(pres_units);
    }
    // Half the president's certificate into the pool (1841 §14, FAQ-C13, interpretation
    // I39): the certificate and every ordinary one go in, and the pool gives back a share
    // for the half not sold, as a presidency swap gives shares for the certificate (§5.3;
    // 18xx `handle_partial`: the pool's first share).
    let give_back = if pres_to_pool {
        (ordinary + pres_units).saturating_sub(units)
    } else {
        0
    };
    if give_back > 0 {
        left = ordinary;
    }
    let in_pool_before: Vec<usize> = t
        .certificates
        .iter()
        .enumerate()
        .filter(|(_, k)| k.owner == ShareOwner::Pool && !k.president && k.percent == unit)
        .map(|(i, _)| i)
        .collect();
    for k in t.certificates.iter_mut() {
        if left > 0 && k.owner == holder && !k.president && k.percent == unit {
            k.owner = ShareOwner::Pool;
            left -= 1;
        }
    }
    for i in in_pool_before.into_iter().take(give_back as usize) {
        if let Some(k) = t.certificates.get_mut(i) {
            k.owner = holder.clone();
        }
    }
    if pres_to_pool {
        events.push(Event::FrozenChanged {
            corporation: target.to_string(),
            frozen: true,
        });
    }
    let sold = units - left;
    let proceeds = half_price_proceeds(&state.options, sold, price);
    state.bank_cash -= proceeds;
    match &owner {
        ShareOwner::Corporation(c) => {
            if let Some(x) = state.corporations.iter_mut().find(|x| &x.sym == c) {
                x.cash += proceeds;
            }
        }
        ShareOwner::Player(s) => {
            if let Some(p) = state.players.get_mut(*s as usize) {
                p.cash += proceeds;
            }
        }
        ShareOwner::Ipo | ShareOwner::Pool => {}
    }
    events.push(Event::EmergencySold {
        seller: seller.clone(),
        seat,
        corporation: target.to_string(),
        percent: sold * unit,
        proceeds,
    });
    sale::drop_after_sale(state, target, sold, sale::Unmoved::Reported, events);
    // The presidency follows the largest holding after any sale but one of the seller's own
    // IPO shares (1841 §5.3, §7.5; 18xx `allow_president_change: pres_change_ok?`): a
    // corporation's sale of ordinary shares may hand it over too.
    if holder == owner {
        update_presidency(state, target, seat, events);
    }
    if let Some(c) = seller {
        crate::g1841::operating_round::shares::record_corporate_sale(state, c, target);
    }
    if let Some(r) = round_mut(state) {
        r.emergency = true;
        // The sale re-reads the operating order (FAQ-Q13; 18xx `recalculate_order`).
        r.split_slot = None;
    }
}

/// After an emergency sale by `seller`, another raiser than the needy corporation `sym`
/// itself (1841 §14: "proceeds flow down to the needy corporation"): the raisers above `sym`
/// in chain order, up to and including the seller, each move their cash into `sym` until it
/// holds the cheapest depot or pool train's price — 18xx.games'
/// `G1841::Step::EmergencyAssist#sweep_cash` after every such sale (`BuyTrain#process_sell_shares`,
/// cost `depot.min_depot_price`). So the proceeds are in the needy treasury at once, also when
/// the emergency ends in a bankruptcy (lite random 3 players seed 3001, 18xx ids 503–511:
/// RATF's sales for RSFS). Before 2026-12-06 the cash moved only at the purchase
/// ([`contribute`]), and a bankruptcy left it with the chain's corporations.
pub(in crate::g1841::operating_round) fn sweep(
    state: &mut State,
    sym: &str,
    seller: &ShareOwner,
    events: &mut Vec<Event>,
) {
    let Some((_, _, cost)) = cheapest_train(state) else {
        return;
    };
    sweep_for(state, sym, cost, seller, events);
}

/// [`sweep`] for a need of `cost` (L.): the cheapest train, or the compulsory second token
/// after a transformation (18xx `TokenEmergencyMoney#process_sell_shares`: `sweep_cash` with
/// `token_emr_amount`, 1841 §12.2).
pub(in crate::g1841::operating_round) fn sweep_for(
    state: &mut State,
    sym: &str,
    cost: i64,
    seller: &ShareOwner,
    events: &mut Vec<Event>,
) {
    if *seller == ShareOwner::Corporation(sym.to_string()) {
        return;
    }
    for raiser in raisers(state, sym).into_iter().skip(1) {
        let have = state.corporation(sym).map_or(0, |c| c.cash);
        let amount = (cost - have).max(0).min(cash_of(state, &raiser));
        if amount > 0 {
            move_funds(state, &raiser, sym, amount, events);
        }
        if raiser == *seller {
            break;
        }
    }
}
