//! The heuristic player in the stock round (1841 §5) and in starts (§5.4), also used for the
//! share decisions of a corporation's share step (§9.7) and of events' purchase rounds.

use rand_chacha::ChaCha8Rng;

use super::{
    any, chance, cheapest_train_price, next_train_price, reserve, train_need, train_shortfall,
    trains, unit,
};
use crate::Seat;
use crate::g1841::action::Action;
use crate::g1841::corporation::{controller, corporation_of_concession, phase_number};
use crate::g1841::data;
use crate::g1841::flow;
use crate::g1841::p2p;
use crate::g1841::start;
use crate::g1841::state::{Corporation, CorporationKind, PurchaseItem, Round, ShareOwner, State};

/// Share of its stock-round turns in which a player considers buying from another player
/// (`p2p_purchases`, 1841 §15.3).
const P2P_OFFER_TURNS: f64 = 0.3;

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

/// Value of buying `percent` of `corp` for `seat` (≤ 0: not worth it); `spare` is the cash
/// the player has left above its [`reserve`] after the purchase.
fn share_score(
    state: &State,
    seat: Seat,
    corp: &Corporation,
    percent: u32,
    from_pool: bool,
    spare: i64,
    novices: bool,
) -> f64 {
    let me = ShareOwner::Player(seat);
    let mine = corp.percent_of(&me);
    let president = corp.president();
    let runs = trains(state, &corp.sym) > 0;
    let mut score = if president == Some(&me) {
        // Its own corporation: more dividends, and IPO money for the trains (1841 §3.5).
        let mut s = 2.5;
        if !from_pool && train_shortfall(state, corp) > 0 {
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
    // Taking over the presidency (1841 §5.3: strictly more than the president) — but a
    // presidency is also the duty to pay the train the treasury lacks (1841 §14): not of a
    // corporation short of its train unless the player's spare cash covers it.
    if president != Some(&me) {
        let top = president.map_or(0, |p| corp.percent_of(p));
        if mine + percent > top {
            if !novices && train_shortfall(state, corp) > spare {
                score -= 2.0;
            } else if runs {
                score += 1.5;
            }
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
    let keep = reserve(state, seat, rng);
    let novice = super::novices(rng);
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
    // Short of its reserve it sells now, at the market price, rather than at half price in
    // the emergency (1841 §5.3, §14).
    if !sells.is_empty() && (cash < keep || chance(rng, 0.5)) {
        return any(&sells, rng).cloned();
    }
    let phase = phase_number(state);
    // Purchases from other players (`p2p_purchases`, 1841 §15.3) are considered in a share
    // of the turns ([`P2P_OFFER_TURNS`]), not per offer: money only changes hands between
    // players there, and offers made in every turn would keep a stock round going without end.
    let offers = legal
        .iter()
        .any(|a| matches!(a, Action::OfferPurchase { .. }))
        && chance(rng, P2P_OFFER_TURNS);
    let mut best: Option<(f64, &Action)> = None;
    for a in legal {
        let score = match a {
            Action::Par { corporation, price } => {
                let Some(c) = state.corporation(corporation) else {
                    continue;
                };
                par_score(state, seat, c, *price, (cash, keep), novice, legal)
            }
            Action::BuyShares {
                corporation,
                from_pool,
                percent,
            } => {
                let Some(c) = state.corporation(corporation) else {
                    continue;
                };
                let Some(k) = cost(c, *percent) else {
                    continue;
                };
                // An IPO share of its own corporation pays the treasury (1841 §3.5): money for
                // the corporation's train, as the reserve is, and better there than in an
                // emergency (§14) — so it is bought whenever the treasury is short.
                let into_own = if !*from_pool && c.president() == Some(&ShareOwner::Player(seat)) {
                    k.min(train_shortfall(state, c))
                } else {
                    0
                };
                let spare = cash - k - (keep - into_own);
                if spare < 0 && into_own < k {
                    continue;
                }
                share_score(state, seat, c, *percent, *from_pool, spare, novice)
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
///
/// A historical corporation is started at once (its concession is used now or lost, 1841
/// §5.5 step 4), at the highest par whose president's certificate costs at most ¾ of the
/// cash and whose certificate and one more share (3 × par) fit in the cash shared among the
/// corporations of the concessions it holds (novices: ¾ of the cash only). A non-historical
/// one (1841 §3.4) only when the player can keep it trained: it must
/// buy the cheapest bank train as soon as it has a route (1841 §9.6), from what the president
/// pays in ([`start_capital`]) less its tokens (§5.4 step 4), the rest from his cash in an
/// emergency (§14); so his cash above his [`reserve`] must pay the capital, and the depot's
/// train and the tokens (novices: only the certificate). Among such pars the highest whose
/// certificate costs at most ¾ of the cash, else the lowest.
fn par_score(
    state: &State,
    seat: Seat,
    corp: &Corporation,
    price: i64,
    (cash, keep): (i64, i64),
    novices: bool,
    legal: &[Action],
) -> f64 {
    let pars: Vec<i64> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Par { corporation, price } if *corporation == corp.sym => Some(*price),
            _ => None,
        })
        .collect();
    let pick = |fits: &dyn Fn(i64) -> bool| {
        let ok: Vec<i64> = pars.iter().copied().filter(|p| fits(*p)).collect();
        ok.iter()
            .copied()
            .filter(|p| 4 * 2 * p <= 3 * cash)
            .max()
            .or_else(|| ok.iter().copied().min())
    };
    if corp.historical {
        // Careful players share the cash among the corporations of the concessions they
        // hold (each must be started now, §5.5 step 4): a par whose certificate and one more
        // share fit in the share, so that each gets its tokens and a first train.
        let unstarted = state.player(seat).map_or(1, |p| {
            p.concessions
                .iter()
                .filter(|c| {
                    corporation_of_concession(&state.options, **c)
                        .and_then(|sym| state.corporation(sym))
                        .is_some_and(|x| !x.started())
                })
                .count()
                .max(1) as i64
        });
        let fits = |p: i64| novices || 3 * p * unstarted <= cash;
        return if pick(&fits).or_else(|| pick(&|_| true)) == Some(price) {
            10.0
        } else {
            0.0
        };
    }
    // The train it will run on: the depot's, not a pool train about to rust.
    let train = cheapest_train_price(state).max(next_train_price(state));
    let tokens = min_tokens(state, corp) * START_TOKEN_ESTIMATE;
    // Novices start it whenever they can pay the president's certificate.
    let fits = |p: i64| {
        novices || (start_capital(corp, p) <= cash - keep && cash - keep >= train + tokens)
    };
    if pick(&fits) != Some(price) {
        return 0.0;
    }
    match controlled(state, seat) {
        0 => 3.0,
        1 => 2.0,
        2 => 0.9,
        _ => 0.3,
    }
}

/// What a player pays into a corporation he starts at `price` (1841 §5.4): the president's
/// certificate at 2× par, and for a major the two further 10% shares he may buy up to 40%.
fn start_capital(corp: &Corporation, price: i64) -> i64 {
    match corp.kind {
        CorporationKind::Major => 4 * price,
        CorporationKind::Minor => 2 * price,
    }
}

/// Tokens a start must buy at least (1841 §5.4 step 4: majors 2, minors 1).
fn min_tokens(state: &State, corp: &Corporation) -> i64 {
    let counts = &data::ruleset(&state.options).token_counts;
    i64::from(match corp.kind {
        CorporationKind::Major => counts.major_total_after_start.min,
        CorporationKind::Minor => counts.minor_total_after_start.min,
    })
}

/// The token price a start plans with (1841 §5.4 step 4: L.25–L.200 by the home's distance to
/// track; [`start_step`] picks a home at about this price or less when the treasury is short).
const START_TOKEN_ESTIMATE: i64 = 50;

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
        return home(state, seat, corp, &homes, legal, rng);
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
        let train = cheapest_train_price(state);
        let min = counts.iter().copied().min()?;
        // As many as leave the price of a train in the treasury (1841 §9.6); novices buy one
        // more now and then.
        let mut n = counts
            .iter()
            .copied()
            .filter(|c| corp.cash - each * i64::from(*c) >= train)
            .max()
            .unwrap_or(min);
        if super::novices(rng) && chance(rng, 0.25) && counts.contains(&(n + 1)) {
            n += 1;
        }
        return Some(Action::BuyTokens { count: n });
    }
    // More shares of the new corporation (up to 40%) while the money lasts: always while its
    // treasury lacks its first train and tokens (1841 §5.4, §9.6), else now and then. The
    // money paid in still stands for the new corporation's train in the player's reserve.
    let short = (train_need(state, corp).unwrap_or(0)
        + min_tokens(state, corp) * START_TOKEN_ESTIMATE
        - corp.cash)
        .max(0);
    let keep = match buyer {
        ShareOwner::Player(s) if s == seat => reserve(state, seat, rng),
        _ => next_train_price(state),
    };
    let buys: Vec<&Action> = legal
        .iter()
        .filter(|a| match a {
            Action::BuyShares { percent, .. } => {
                cost(corp, *percent).is_some_and(|k| buyer_cash - k >= keep - k.min(short) + 40)
            }
            _ => false,
        })
        .collect();
    if short > 0 || chance(rng, 0.75) {
        return any(&buys, rng).cloned();
    }
    None
}

/// A home token of a starting corporation (1841 §5.4 step 3). The home fixes the price of
/// every token the start buys (§5.4 step 4: L.200 on track, down to L.25 with no track within
/// two hexes), so it picks at random among the homes that leave the treasury the cheapest
/// bank train after the fewest tokens, else a home of the lowest price; an optional second
/// home half the time, and only when it leaves the treasury that train.
fn home(
    state: &State,
    seat: Seat,
    corp: &Corporation,
    homes: &[&Action],
    legal: &[Action],
    rng: &mut ChaCha8Rng,
) -> Option<Action> {
    let optional = legal.iter().any(|a| matches!(a, Action::Pass));
    if optional && !chance(rng, 0.5) {
        return None;
    }
    if corp.historical {
        return any(homes, rng).cloned();
    }
    let train = cheapest_train_price(state);
    let tokens = min_tokens(state, corp).max(corp.tokens.len() as i64 + 1);
    let priced: Vec<(i64, &Action)> = homes
        .iter()
        .filter_map(|a| {
            let mut copy = state.clone();
            flow::apply(&mut copy, seat, a).ok()?;
            Some((start::token_price(&copy, &corp.sym), *a))
        })
        .collect();
    let fitting: Vec<&Action> = priced
        .iter()
        .filter(|(p, _)| corp.cash - tokens * p >= train)
        .map(|(_, a)| *a)
        .collect();
    if !fitting.is_empty() {
        return any(&fitting, rng).cloned();
    }
    if optional {
        return None;
    }
    let low = priced.iter().map(|(p, _)| *p).min()?;
    let cheapest: Vec<&Action> = priced
        .iter()
        .filter(|(p, _)| *p == low)
        .map(|(_, a)| *a)
        .collect();
    any(&cheapest, rng).cloned()
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
