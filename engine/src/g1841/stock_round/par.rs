//! The par of a share turn and the corporation start it opens (1841 §5.4, §3.4): the starter
//! buys the president's certificate at 2× par ([`par`]; the corporation floats at once, §3.5),
//! then the start runs through its steps ([`StartStep`]: the starter's IPO purchases, the home
//! token, the token purchase) with [`start_legal`] listing and [`apply_start`] playing them.
//! The mechanics of a start are [`super::super::start`]'s; the same start, opened by a
//! corporation in its share step (§9.7), is played by the operating round through
//! [`start_legal`] and [`apply_start`] too.
//!
//! [`par_options`] lists the pars (of one corporation for the test of one, [`lists`]);
//! [`explain_par`] refuses a par outside them, [`explain_start`] an action outside a start's
//! listing.

use super::super::action::{Action, Event};
use super::super::corporation::{
    certificate_count, certificate_limit, concession_of_corporation, corporation_of_concession,
    phase_number,
};
use super::super::market;
use super::super::start;
use super::super::state::{CorporationStart, ShareOwner, StartStep, State};
use super::{RULE, corrupt, mark_acted, reject, round_mut, unknown_corporation};
use crate::{Rejection, RejectionCode, Seat};

/// Every par `seat` may make (1841 §5.4, §3.4): historical corporations whose concession he
/// holds, phases 2–3; non-historical corporations from phase 3 with a legal home city; one
/// action per par price he can pay twice, below his certificate limit. Of corporation `only`
/// alone when given.
pub(super) fn par_options(state: &State, seat: Seat, only: Option<&str>) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(player) = state.player(seat) else {
        return out;
    };
    if certificate_count(state, seat) >= certificate_limit(state) {
        return out;
    }
    let mut candidates: Vec<&str> = Vec::new();
    if phase_number(state) < 4 {
        for &c in &player.concessions {
            if let Some(sym) = corporation_of_concession(&state.options, c)
                && only.is_none_or(|o| o == sym)
                && state.corporation(sym).is_some_and(|corp| !corp.started())
            {
                candidates.push(sym);
            }
        }
    }
    match only {
        // (The home-city search depends only on the kind: the same answer as the list.)
        Some(o) => {
            if let Some(c) = state.corporation(o)
                && start::non_historical_startable(state, o)
            {
                candidates.push(c.sym.as_str());
            }
        }
        None => candidates.extend(start::startable_non_historical(state)),
    }
    for sym in candidates {
        let Some(corp) = state.corporation(sym) else {
            continue;
        };
        for price in market::par_prices(state, corp.kind) {
            if price.saturating_mul(2) <= player.cash {
                out.push(Action::Par {
                    corporation: sym.to_string(),
                    price,
                });
            }
        }
    }
    out
}

/// Step 1 of a start (1841 §5.4): the president's certificate for 2× par into the treasury,
/// the marker on the par cell; the corporation floats at once (§3.5).
pub(super) fn par(
    state: &mut State,
    seat: Seat,
    sym: &str,
    price: i64,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    // Every check before the first change.
    let corp = state
        .corporation(sym)
        .ok_or_else(|| corrupt("unknown corporation"))?;
    let (row, col) = market::par_cell(price, corp.kind).ok_or_else(|| corrupt("no par cell"))?;
    if !corp.certificates.iter().any(|c| c.president) {
        return Err(corrupt("no president's certificate"));
    }
    let player = state
        .players
        .get_mut(seat as usize)
        .ok_or_else(|| corrupt("seat"))?;
    let cost = price.saturating_mul(2);
    player.cash -= cost;
    market::set_cell(state, sym, row, col);
    if let Some(corp) = state.corporation_mut(sym) {
        corp.cash += cost;
        corp.par_price = price;
        for cert in corp.certificates.iter_mut().filter(|c| c.president).take(1) {
            cert.owner = ShareOwner::Player(seat);
        }
    }
    mark_acted(state, seat);
    if let Some(r) = round_mut(state) {
        r.start = Some(CorporationStart {
            corporation: sym.to_string(),
            step: StartStep::BuyShares,
        });
    }
    events.push(Event::CorporationStarted {
        seat,
        corporation: sym.to_string(),
        price,
        by_corporation: None,
    });
    Ok(())
}

/// Whether `action`, a par of `corporation`, is one of [`par_options`]: the pars of that
/// corporation alone are listed.
pub(super) fn lists(state: &State, seat: Seat, corporation: &str, action: &Action) -> bool {
    par_options(state, seat, Some(corporation)).contains(action)
}

fn corp_has_no_concession(state: &State, sym: &str) -> bool {
    concession_of_corporation(&state.options, sym).is_none()
}

pub(super) fn explain_par(state: &State, seat: Seat, sym: &str, price: i64) -> Rejection {
    let Some(corp) = state.corporation(sym) else {
        return unknown_corporation(sym);
    };
    let holds = concession_of_corporation(&state.options, sym).is_some_and(|c| {
        state
            .player(seat)
            .is_some_and(|p| p.concessions.contains(&c))
    });
    let illegal = |rule: &str, m: String| reject(RejectionCode::IllegalMove, rule, m);
    if corp.started() {
        illegal("1841 §5.4", format!("{sym} has already been started."))
    } else if !corp.historical
        && phase_number(state) >= 3
        && !start::non_historical_startable(state, sym)
    {
        illegal("1841 §5.4", format!("{sym} has no legal home city now."))
    } else if corp.historical && corp_has_no_concession(state, sym) {
        illegal(
            "1841 §3.3",
            format!("{sym} is formed only by an event of the first 4-train and cannot be started."),
        )
    } else if (!corp.historical && phase_number(state) < 3)
        || (corp.historical && phase_number(state) >= 4)
    {
        illegal(
            "1841 §3.4",
            format!("{sym} cannot be started in phase {}.", state.phase),
        )
    } else if corp.historical && !holds {
        illegal(
            "1841 §5.4",
            format!("Only the holder of the {sym} concession may start it."),
        )
    } else if !market::par_prices(state, corp.kind).contains(&price) {
        illegal(
            "1841 §5.4",
            format!(
                "L.{price} is not a par price for {sym} (par prices: {}).",
                market::par_prices(state, corp.kind)
                    .iter()
                    .map(|p| format!("L.{p}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    } else if certificate_count(state, seat) >= certificate_limit(state) {
        illegal("1841 §2", "The certificate limit is reached.".to_string())
    } else {
        reject(
            RejectionCode::InsufficientFunds,
            "1841 §5.4",
            format!(
                "The president's certificate costs L.{}.",
                price.saturating_mul(2)
            ),
        )
    }
}

/// The actions of a start in progress (1841 §5.4), whoever the starter is.
pub fn start_legal(state: &State, start: &CorporationStart) -> Vec<Action> {
    let sym = &start.corporation;
    match start.step {
        StartStep::BuyShares => {
            let mut out = start::buy_options(state, sym);
            out.push(Action::Pass);
            out
        }
        StartStep::HomeToken => {
            let mut out: Vec<Action> = start::home_options(state, sym)
                .into_iter()
                .map(|t| Action::PlaceToken {
                    hex: t.hex,
                    city: t.city,
                })
                .collect();
            if start::home_optional(state, sym) {
                out.push(Action::Pass);
            }
            out
        }
        StartStep::BuyTokens => start::token_options(state, sym),
    }
}

/// Applies a listed start action (1841 §5.4); returns whether the start is complete.
pub fn apply_start(
    state: &mut State,
    start: &CorporationStart,
    action: &Action,
    events: &mut Vec<Event>,
) -> bool {
    let sym = &start.corporation;
    match (start.step, action) {
        (StartStep::BuyShares, Action::Pass) => start::to_home_tokens(state, sym, events),
        (StartStep::HomeToken, Action::Pass) => start::set_step(state, StartStep::BuyTokens),
        (StartStep::HomeToken, Action::PlaceToken { hex, city }) => {
            start::place(state, sym, hex, *city, events);
            start::after_home(state, sym);
        }
        (StartStep::BuyTokens, Action::BuyTokens { count }) => {
            start::buy_tokens(state, sym, *count, events);
            return true;
        }
        _ => {}
    }
    false
}

/// The refusal of an action outside the listing of a start in progress (1841 §5.4, §3.3).
pub(super) fn explain_start(
    state: &State,
    seat: Seat,
    start: &CorporationStart,
    action: &Action,
) -> Rejection {
    let wrong_step = |what: &str| reject(RejectionCode::WrongStep, RULE, what.to_string());
    match (start.step, action) {
        (StartStep::BuyShares, Action::BuyShares { corporation, .. })
            if *corporation == start.corporation =>
        {
            reject(
                RejectionCode::IllegalMove,
                "1841 §5.4",
                format!(
                    "After the par the starter may buy single IPO shares of {corporation} until he holds 40%, within his cash and limits."
                ),
            )
        }
        (StartStep::BuyShares, _) => wrong_step(&format!(
            "Seat {seat} is starting {}: buy more of its IPO shares or pass.",
            start.corporation
        )),
        (StartStep::HomeToken, Action::PlaceToken { .. }) => reject(
            RejectionCode::IllegalMove,
            "1841 §3.3",
            format!("Not a free home city of {}.", start.corporation),
        ),
        (StartStep::HomeToken, _) => wrong_step(&format!(
            "{} must place its home token first.",
            start.corporation
        )),
        (StartStep::BuyTokens, Action::BuyTokens { count }) => {
            let (price, min, max) =
                start::token_terms(state, &start.corporation).unwrap_or((50, 0, 0));
            if *count >= min && *count <= max {
                reject(
                    RejectionCode::InsufficientFunds,
                    "1841 §5.4",
                    format!(
                        "{} cannot pay {count} tokens at L.{price} each.",
                        start.corporation
                    ),
                )
            } else {
                reject(
                    RejectionCode::IllegalMove,
                    "1841 §5.4",
                    format!("Choose between {min} and {max} tokens in all."),
                )
            }
        }
        (StartStep::BuyTokens, _) => {
            wrong_step(&format!("{} must buy its tokens first.", start.corporation))
        }
    }
}
