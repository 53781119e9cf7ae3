//! The heuristic player in the stock round (1841 §5) and in starts (§5.4), also used for the
//! share decisions of a corporation's share step (§9.7) and of events' purchase rounds.

use rand_chacha::ChaCha8Rng;

use super::{any, chance, needs_train, next_train_price, reserve, trains, unit};
use crate::Seat;
use crate::g1841::action::Action;
use crate::g1841::corporation::{controller, corporation_of_concession, phase_number};
use crate::g1841::data;
use crate::g1841::p2p;
use crate::g1841::start;
use crate::g1841::state::{Corporation, PurchaseItem, Round, ShareOwner, State};

/// Cost in L. of `percent` of `corp` at its market price (`None` when not started).
pub(super) fn cost(corp: &Corporation, percent: u32) -> Option<i64> {
    Some(corp.price()? * i64::from(percent / corp.unit_percent().max(1)))
}

/// Corporations `seat` controls.
fn controlled(state: &State, seat: Seat) -> usize {
    state
        .corporations
        .iter()
        .filter(|c| c.started() && !c.closed && controller(state, &c.sym) == Some(seat))
        .count()
}

/// Value of buying `percent` of `corp` for `seat` (≤ 0: not worth it).
fn share_score(
    state: &State,
    seat: Seat,
    corp: &Corporation,
    percent: u32,
    from_pool: bool,
) -> f64 {
    let me = ShareOwner::Player(seat);
    let mine = corp.percent_of(&me);
    let president = corp.president();
    let runs = trains(state, &corp.sym) > 0;
    let mut score = if president == Some(&me) {
        // Its own corporation: more dividends, and IPO money for the trains (1841 §3.5).
        let mut s = 2.5;
        if !from_pool && needs_train(state, corp) && corp.cash < next_train_price(state) {
            s += 2.0;
        }
        s
    } else if runs {
        1.5 + if corp.operated { 0.5 } else { 0.0 }
    } else if !corp.operated {
        0.6
    } else {
        -1.0
    };
    // Taking over the presidency (1841 §5.3: strictly more than the president).
    if president != Some(&me) {
        let top = president.map_or(0, |p| corp.percent_of(p));
        if mine + percent > top && runs {
            score += 1.5;
        }
    }
    // A falling price is a warning; a price far under par a bargain only if it runs.
    if corp.price().is_some_and(|p| p < corp.par_price / 2) && !runs {
        score -= 1.0;
    }
    score
}

/// Chooses in a stock-round turn (no start, no offer waiting); `None` passes.
pub(super) fn choose(
    state: &State,
    seat: Seat,
    legal: &[Action],
    rng: &mut ChaCha8Rng,
) -> Option<Action> {
    let player = state.player(seat)?;
    let cash = player.cash;
    let keep = reserve(state, seat);
    let must_sell = !legal.iter().any(|a| matches!(a, Action::Pass));
    // Sales first (1841 §5.1: sell, then buy).
    let sells: Vec<&Action> = legal
        .iter()
        .filter(|a| match a {
            Action::SellShares { corporation, .. } => {
                let Some(c) = state.corporation(corporation) else {
                    return false;
                };
                let mine = c.president() == Some(&ShareOwner::Player(seat));
                must_sell
                    || (!mine && trains(state, &c.sym) == 0 && c.operated)
                    || (cash < keep && !mine)
            }
            _ => false,
        })
        .collect();
    if must_sell {
        return any(&sells, rng).cloned().or_else(|| legal.first().cloned());
    }
    if !sells.is_empty() && chance(rng, 0.5) {
        return any(&sells, rng).cloned();
    }
    let phase = phase_number(state);
    // Purchases from other players (`p2p_purchases`, 1841 §15.3) are considered in 15% of the
    // turns, not per offer: money only changes hands between players there, and offers made
    // in every turn would keep a stock round going without end.
    let offers = legal
        .iter()
        .any(|a| matches!(a, Action::OfferPurchase { .. }))
        && chance(rng, 0.15);
    let mut best: Option<(f64, &Action)> = None;
    for a in legal {
        let score = match a {
            Action::Par { corporation, price } => {
                let Some(c) = state.corporation(corporation) else {
                    continue;
                };
                par_score(state, seat, c, *price, cash, keep, legal)
            }
            Action::BuyShares {
                corporation,
                from_pool,
                percent,
            } => {
                let Some(c) = state.corporation(corporation) else {
                    continue;
                };
                match cost(c, *percent) {
                    Some(k) if cash - k >= keep => {
                        share_score(state, seat, c, *percent, *from_pool)
                    }
                    _ => continue,
                }
            }
            Action::BuyConcession { concession } => {
                // A concession to start its corporation (1841 §3.2), while the player holds
                // none unused and can pay the lowest president's certificate too.
                let face = data::ruleset(&state.options).concession_round.face_value;
                let unused = player.concessions.iter().any(|c| {
                    corporation_of_concession(&state.options, *c)
                        .and_then(|sym| state.corporation(sym))
                        .is_some_and(|corp| !corp.started())
                });
                let startable = concession
                    .parse()
                    .ok()
                    .and_then(|c| corporation_of_concession(&state.options, c))
                    .and_then(|sym| state.corporation(sym))
                    .is_some_and(|corp| !corp.started());
                if phase <= 3 && startable && !unused && cash - face >= keep + 2 * 68 {
                    2.5
                } else {
                    continue;
                }
            }
            Action::OfferPurchase { price, item, .. } => {
                if !offers || cash - price < keep {
                    continue;
                }
                match item {
                    PurchaseItem::Shares { corporation, .. } => state
                        .corporation(corporation)
                        .map_or(0.0, |c| if trains(state, &c.sym) > 0 { 1.2 } else { 0.0 }),
                    PurchaseItem::Concession { .. } => 1.0,
                }
            }
            _ => continue,
        };
        let score = score + unit(rng) * 0.8;
        if score > 1.0 && best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, a));
        }
    }
    best.map(|(_, a)| a.clone())
}

/// Value of starting `corp` at `price` for `seat` (≤ 0: not now).
fn par_score(
    state: &State,
    seat: Seat,
    corp: &Corporation,
    price: i64,
    cash: i64,
    keep: i64,
    legal: &[Action],
) -> f64 {
    let pars: Vec<i64> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Par { corporation, price } if *corporation == corp.sym => Some(*price),
            _ => None,
        })
        .collect();
    // The highest par whose president's certificate costs at most ¾ of the cash, else the
    // lowest listed.
    let fitting = pars.iter().copied().filter(|p| 4 * 2 * p <= 3 * cash).max();
    let wanted = fitting.or_else(|| pars.iter().copied().min());
    if wanted != Some(price) {
        return 0.0;
    }
    if corp.historical {
        // The concession is used or lost at the end of the round (1841 §5.5 step 4).
        return 10.0;
    }
    if cash - 2 * price < keep {
        return 0.0;
    }
    match controlled(state, seat) {
        0 => 3.0,
        1 => 2.0,
        2 => 0.9,
        _ => 0.3,
    }
}

/// The start steps (1841 §5.4) for corporation `sym`: more IPO shares while affordable, the
/// home token, the token count.
pub(super) fn start_step(
    state: &State,
    seat: Seat,
    sym: &str,
    legal: &[Action],
    rng: &mut ChaCha8Rng,
) -> Option<Action> {
    let corp = state.corporation(sym)?;
    let buyer = corp.president().cloned()?;
    let buyer_cash = super::cash_of(state, &buyer);
    let homes: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::PlaceToken { .. }))
        .collect();
    if !homes.is_empty() {
        let optional = legal.iter().any(|a| matches!(a, Action::Pass));
        if optional && !chance(rng, 0.5) {
            return None;
        }
        return any(&homes, rng).cloned();
    }
    let counts: Vec<u32> = legal
        .iter()
        .filter_map(|a| match a {
            Action::BuyTokens { count } => Some(*count),
            _ => None,
        })
        .collect();
    if !counts.is_empty() {
        let each = start::token_price(state, sym);
        let train = next_train_price(state);
        let min = counts.iter().copied().min()?;
        // As many as leave the price of a train in the treasury, one more now and then.
        let mut n = counts
            .iter()
            .copied()
            .filter(|c| corp.cash - each * i64::from(*c) >= train)
            .max()
            .unwrap_or(min);
        if chance(rng, 0.25) && counts.contains(&(n + 1)) {
            n += 1;
        }
        return Some(Action::BuyTokens { count: n });
    }
    // More shares of the new corporation (up to 40%) while the money lasts.
    let keep = match buyer {
        ShareOwner::Player(s) if s == seat => reserve(state, seat),
        _ => next_train_price(state),
    };
    let buys: Vec<&Action> = legal
        .iter()
        .filter(|a| match a {
            Action::BuyShares { percent, .. } => {
                cost(corp, *percent).is_some_and(|k| buyer_cash - k >= keep + 40)
            }
            _ => false,
        })
        .collect();
    if chance(rng, 0.75) {
        return any(&buys, rng).cloned();
    }
    None
}

/// The seller's answer to a purchase offer (`p2p_purchases`, 1841 §15.3): accepts an offer
/// at or above market value half the time, a lower one a fifth of the time.
pub(super) fn answer(state: &State, legal: &[Action], rng: &mut ChaCha8Rng) -> Option<Action> {
    let Round::StockRound(sr) = &state.round else {
        return None;
    };
    let offer = sr.offer.as_ref()?;
    let value = p2p::market_value(state, offer.seller, &offer.item);
    let p = if offer.price >= value { 0.5 } else { 0.2 };
    let accept = chance(rng, p);
    legal
        .iter()
        .find(|a| matches!(a, Action::AnswerOffer { accept: x } if *x == accept))
        .or_else(|| legal.first())
        .cloned()
}
