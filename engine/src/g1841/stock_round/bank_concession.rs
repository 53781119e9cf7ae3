//! The purchase of a bank concession in a share turn (1841 §3.2, §5.1): from Stock Round 2
//! on, a concession the bank holds at its face value, as the turn's one buy, ending it. Where
//! the concession's corporation is started and its president's certificate lies in the pool,
//! the buyer also buys that certificate at 2× the market price ([`pool_presidency`]) and must
//! be allowed to hold it (§2, §7.3, §5.1).
//!
//! [`concession_options`] lists the purchases (also the test of one, [`lists`]);
//! [`buy_concession`] carries one out, [`explain_concession`] refuses one outside the listing.

use super::super::action::{Action, Event};
use super::super::concession::Concession;
use super::super::corporation::{self, corporation_of_concession};
use super::super::data;
use super::super::state::{ShareOwner, State};
use super::{cash, corrupt, mark_acted, reject, round, sold_this_round};
use crate::{Rejection, RejectionCode, Seat};

/// Bank concessions `seat` may buy (1841 §3.2: face value, from SR 2; one whose corporation's
/// president's certificate lies in the pool also costs that certificate, see
/// [`pool_presidency`], and is listed only when the buyer may take it).
pub(super) fn concession_options(state: &State, seat: Seat) -> Vec<Action> {
    let rules = data::ruleset(&state.options);
    let Some(sr) = round(state) else {
        return Vec::new();
    };
    if sr.number
        < rules
            .concession_round
            .bank_concessions_buyable_from_stock_round
    {
        return Vec::new();
    }
    state
        .bank_concessions
        .iter()
        .filter(|c| concession_refusal(state, seat, **c).is_none())
        .map(|c| Action::BuyConcession {
            concession: c.as_str().to_string(),
        })
        .collect()
}

/// Whether `action`, a concession purchase, is one of [`concession_options`].
pub(super) fn lists(state: &State, seat: Seat, action: &Action) -> bool {
    concession_options(state, seat).contains(action)
}

/// The corporation of bank concession `c` when it is started and its president's certificate
/// lies in the pool (1841 §3.2; it happens after a bankruptcy before phase 4, when the
/// bankrupt president's certificate goes to the pool and the concession back to the bank,
/// §14): its symbol and the certificate's price, 2 × the market price (18xx.games'
/// `company_president_share`, `process_buy_company`).
pub(crate) fn pool_presidency(state: &State, c: Concession) -> Option<(&'static str, i64)> {
    let sym = corporation_of_concession(&state.options, c)?;
    let corp = state.corporation(sym)?;
    let price = corp.price()?;
    corp.certificates
        .iter()
        .any(|x| x.president && x.owner == ShareOwner::Pool)
        .then_some((sym, price.saturating_mul(2)))
}

/// Why `seat` may not buy bank concession `c` now (its rule and the reason), or `None`: the
/// face value plus a pool president's certificate ([`pool_presidency`]) must be affordable,
/// and that certificate must fit the buyer's certificate limit and 60% control limit (§2,
/// §7.3; 18xx `can_gain?`) and may not be of a corporation he sold this round (§5.1: the
/// certificate is a share bought; 18xx.games does not check this one, see the reviewed
/// divergence `p2p-concession-after-selling`).
fn concession_refusal(state: &State, seat: Seat, c: Concession) -> Option<(&'static str, String)> {
    concession_refusal_with(state, seat, c, true)
}

/// Whether 18xx.games' `can_buy_company?` lets `seat` buy bank concession `c` now (from Stock
/// Round 2): [`concession_refusal`] without the check of a sale of the corporation this round,
/// which 18xx.games does not make (reviewed divergence `p2p-concession-after-selling`). For the
/// export, whose player's turn stays open there in 18xx.games
/// ([`super::super::export18xx`], `stock_turns`).
pub(crate) fn bank_concession_buyable_in_18xx(state: &State, seat: Seat, c: Concession) -> bool {
    let from = data::ruleset(&state.options)
        .concession_round
        .bank_concessions_buyable_from_stock_round;
    round(state).is_some_and(|r| r.number >= from)
        && state.bank_concessions.contains(&c)
        && concession_refusal_with(state, seat, c, false).is_none()
}

/// [`concession_refusal`], with or without the check of a sale this round (`sales`).
fn concession_refusal_with(
    state: &State,
    seat: Seat,
    c: Concession,
    sales: bool,
) -> Option<(&'static str, String)> {
    let face = data::ruleset(&state.options).concession_round.face_value;
    let pool = pool_presidency(state, c);
    let cost = face.saturating_add(pool.map_or(0, |(_, p)| p));
    if cash(state, seat) < cost {
        return Some((
            "1841 §3.2",
            match pool {
                Some((sym, p)) => format!(
                    "{c} costs L.{face} and, with {sym}'s president's certificate in the pool, L.{p} for that certificate: L.{cost} in all."
                ),
                None => format!("A concession costs L.{face}."),
            },
        ));
    }
    let (sym, _) = pool?;
    if sales && sold_this_round(state, seat, sym) {
        return Some((
            "1841 §5.1",
            format!(
                "Seat {seat} sold {sym} this round and may not buy its president's certificate with {c}."
            ),
        ));
    }
    let percent = state
        .corporation(sym)
        .and_then(|k| k.certificates.iter().find(|x| x.president))
        .map_or(0, |x| x.percent);
    if !corporation::may_hold_more(state, &ShareOwner::Player(seat), sym, percent) {
        return Some((
            "1841 §3.2",
            format!(
                "{c} brings {sym}'s president's certificate from the pool, which would put seat {seat} over the certificate limit or the 60% limit."
            ),
        ));
    }
    None
}

pub(super) fn buy_concession(
    state: &mut State,
    seat: Seat,
    text: &str,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    let c: Concession = text.parse().map_err(|_| corrupt("unknown concession"))?;
    let price = data::ruleset(&state.options).concession_round.face_value;
    let pool = pool_presidency(state, c);
    let player = state
        .players
        .get_mut(seat as usize)
        .ok_or_else(|| corrupt("seat"))?;
    player.cash -= price;
    player.concessions.push(c);
    player.concessions.sort();
    state.bank_concessions.retain(|b| *b != c);
    state.bank_cash += price;
    mark_acted(state, seat);
    events.push(Event::ConcessionBought {
        seat,
        concession: c,
        price,
    });
    // 1841 §3.2: the pool's president's certificate comes with the concession, at 2 × the
    // market price to the bank; the buyer becomes president (and the corporation is no
    // longer frozen, §7.4).
    if let Some((sym, cost)) = pool {
        let corp = state
            .corporation_mut(sym)
            .ok_or_else(|| corrupt("unknown corporation"))?;
        let mut percent = 0;
        for x in corp
            .certificates
            .iter_mut()
            .filter(|x| x.president && x.owner == ShareOwner::Pool)
        {
            x.owner = ShareOwner::Player(seat);
            percent = x.percent;
        }
        if let Some(p) = state.players.get_mut(seat as usize) {
            p.cash -= cost;
        }
        state.bank_cash += cost;
        events.push(Event::SharesBought {
            seat,
            corporation: sym.to_string(),
            percent,
            from_pool: true,
            price: cost,
        });
        events.push(Event::PresidentChanged {
            corporation: sym.to_string(),
            seat,
        });
    }
    Ok(())
}

/// The refusal of a concession purchase outside the listing (1841 §3.2, §5.1).
pub(super) fn explain_concession(state: &State, seat: Seat, concession: &str) -> Rejection {
    let sr = round(state);
    let rules = data::ruleset(&state.options);
    match concession.parse::<Concession>() {
        Err(_) => reject(
            RejectionCode::InvalidArgument,
            "1841 §3.2",
            format!("`{concession}` is not a concession of 1841."),
        ),
        Ok(_)
            if sr.is_some_and(|r| {
                r.number
                    < rules
                        .concession_round
                        .bank_concessions_buyable_from_stock_round
            }) =>
        {
            reject(
                RejectionCode::IllegalMove,
                "1841 §3.2",
                "Bank concessions can be bought from Stock Round 2 on.",
            )
        }
        Ok(c) if !state.bank_concessions.contains(&c) => reject(
            RejectionCode::IllegalMove,
            "1841 §3.2",
            format!("The bank does not hold {c}."),
        ),
        Ok(c) => match concession_refusal(state, seat, c) {
            Some((rule, why)) if rule == "1841 §3.2" && why.contains("L.") => {
                reject(RejectionCode::InsufficientFunds, rule, why)
            }
            Some((rule, why)) => reject(RejectionCode::IllegalMove, rule, why),
            None => reject(
                RejectionCode::IllegalMove,
                "1841 §3.2",
                format!("{c} cannot be bought now."),
            ),
        },
    }
}
