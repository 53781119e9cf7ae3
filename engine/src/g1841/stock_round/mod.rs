//! The stock round of 1841 (1841 §5): turns of sell-then-buy, starting (parring) historical
//! corporations with home tokens and the token purchase (§5.4), the certificate limit (§2),
//! the 60% control limit (§7.3), the concession lock on presidencies (§3.2, §7.5), the end of
//! the round (§5.5: price movements, Bayard's income, return of unused concessions, priority)
//! and the step into Operating Round 1 (§8, not playable yet).
//!
//! [`apply`] refuses before its first change (a copy only while FAQ-Q2 price drops are pending), so
//! a rejection never leaves a half-applied action behind.

use super::action::OfferRange;
use super::action::{Action, Event};
use super::concession::Concession;
use super::corporation::{
    certificate_count, certificate_limit, concession_of_corporation, controlled_percent,
    corporation_of_concession, phase_number, presidency_may_change,
};
use super::data;
use super::market;
use super::p2p;
use super::sale;
use super::start;
use super::state::{
    Corporation, CorporationStart, PurchaseItem, PurchaseOffer, Round, ShareOwner, SoldShares,
    StartStep, State, StockRound,
};
use crate::{Rejection, RejectionCode, Seat};

/// Rule cited for the stock round in general.
pub const RULE: &str = "1841 §5";

std::thread_local! {
    /// The question of [`probe_turn_ends`] and the seats it answered yes for, in order.
    static TURN_END_PROBE: std::cell::RefCell<Option<(TurnEndQuestion, Vec<Seat>)>> =
        const { std::cell::RefCell::new(None) };
}

/// A question about a seat whose stock-round turn this engine ended by itself, asked of the
/// position at that moment (see [`probe_turn_ends`]).
pub(crate) type TurnEndQuestion = fn(&State, Seat) -> bool;

/// Runs `f` (applying actions) and returns its result with the seats, in order, whose
/// stock-round turn this engine ended by itself for want of a legal action (an automatic
/// pass, or the end of the turn right after the seat's own sale) and for which `question`,
/// asked of the position at that moment, answered yes. For the 18xx.games export, which must
/// write a `pass` where 18xx.games still offers the player something (its own reading of the
/// position); the rules are not affected. Not re-entrant: an inner probe replaces the outer.
pub(crate) fn probe_turn_ends<T>(
    question: TurnEndQuestion,
    f: impl FnOnce() -> T,
) -> (T, Vec<Seat>) {
    TURN_END_PROBE.with(|p| *p.borrow_mut() = Some((question, Vec::new())));
    let out = f();
    let seats = TURN_END_PROBE
        .with(|p| p.borrow_mut().take())
        .map(|(_, seats)| seats)
        .unwrap_or_default();
    (out, seats)
}

/// Tells a running [`probe_turn_ends`] that `seat`'s turn ends by itself in `state`.
fn turn_ends_by_itself(state: &State, seat: Seat) {
    TURN_END_PROBE.with(|p| {
        if let Some((question, seats)) = p.borrow_mut().as_mut()
            && question(state, seat)
        {
            seats.push(seat);
        }
    });
}
/// Rule cited for operating rounds (1841 §8).
pub const RULE_OPERATING_ROUND: &str = "1841 §8";

fn reject(code: RejectionCode, rule: &str, message: impl Into<String>) -> Rejection {
    Rejection::new(code, rule, message)
}

fn corrupt(what: &str) -> Rejection {
    reject(
        RejectionCode::InvalidArgument,
        RULE,
        format!("Inconsistent state: {what}."),
    )
}

fn round(state: &State) -> Option<&StockRound> {
    state.stock_round()
}

fn round_mut(state: &mut State) -> Option<&mut StockRound> {
    match &mut state.round {
        Round::StockRound(r) => Some(r),
        _ => None,
    }
}

/// The seat that must act in the stock round: the seat whose turn it is.
/// While a purchase offer waits for its answer, only the seller acts (1841 §15.3).
pub fn to_act(state: &State) -> Vec<Seat> {
    round(state)
        .filter(|r| (r.consecutive_passes as usize) < state.players.len())
        .map(|r| vec![r.offer.as_ref().map_or(r.current_seat, |o| o.seller)])
        .unwrap_or_default()
}

/// The seat after `seat` in player order.
fn next_in_order(state: &State, seat: Seat) -> Seat {
    let order = &state.player_order;
    order
        .iter()
        .position(|s| *s == seat)
        .and_then(|i| order.get((i + 1) % order.len()))
        .copied()
        .unwrap_or(seat)
}

fn cash(state: &State, seat: Seat) -> i64 {
    state.player(seat).map_or(0, |p| p.cash)
}

/// Whether the seat is over the certificate limit or controls more than 60% of some
/// corporation (1841 §5.1, §7.3).
///
/// One pass over the certificates counts the seat's ([`certificate_count`]) and bounds, per
/// corporation, what he controls by his own holdings plus every corporation's: only where
/// that bound exceeds the limit is the control worked out ([`controlled_percent_of`] counts a
/// part of those holdings). Test `g1841_stock_shortcuts`: the same answer as the whole count
/// and the control of every corporation.
///
/// [`controlled_percent_of`]: super::corporation::controlled_percent_of
pub fn over_limits(state: &State, seat: Seat) -> bool {
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    let mut count = 0u32;
    for corp in &state.corporations {
        let mut bound = 0u32;
        for c in &corp.certificates {
            match &c.owner {
                ShareOwner::Player(s) if *s == seat => {
                    count += 1;
                    bound = bound.saturating_add(c.percent);
                }
                ShareOwner::Corporation(_) => bound = bound.saturating_add(c.percent),
                _ => {}
            }
        }
        if bound > max && super::corporation::controlled_percent_of(state, seat, corp) > max {
            return true;
        }
    }
    count > certificate_limit(state)
}

/// Why `seat` must sell before anything else now, if he must (1841 §5.1, FAQ-Q9): the rule
/// and a sentence naming the limit he is over — the certificate limit (§2) or more than 60%
/// of a corporation controlled, his own shares plus his corporations' (§7.3).
fn must_sell_reason(state: &State, seat: Seat) -> Option<(&'static str, String)> {
    if !forced_to_sell(state, seat) {
        return None;
    }
    let count = certificate_count(state, seat);
    let limit = certificate_limit(state);
    if count > limit {
        return Some((
            "1841 §2",
            format!(
                "Seat {seat} holds {count} certificates, over the limit of {limit}: he must sell \
                 first."
            ),
        ));
    }
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    state.corporations.iter().find_map(|corp| {
        let controlled = super::corporation::controlled_percent_of(state, seat, corp);
        (controlled > max).then(|| {
            (
                "1841 §7.3",
                format!(
                    "Seat {seat} controls {controlled}% of {} (his own shares and his \
                     corporations'), more than {max}%: he must sell first.",
                    corp.sym
                ),
            )
        })
    })
}

fn sold_this_round(state: &State, seat: Seat, sym: &str) -> bool {
    round(state).is_some_and(|r| {
        r.sold
            .iter()
            .any(|s| s.seat == seat && s.corporation == sym)
    })
}

/// Every share purchase `seat` may make now (1841 §5.2): one per corporation, source and
/// certificate size; of corporation `only` alone when given; the first `limit` only.
fn buy_options(state: &State, seat: Seat, only: Option<&str>, limit: usize) -> Vec<Action> {
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

/// Whether [`buy_options`] lists any purchase (nothing built).
fn has_buy(state: &State, seat: Seat) -> bool {
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

/// Every par `seat` may make (1841 §5.4, §3.4): historical corporations whose concession he
/// holds, phases 2–3; non-historical corporations from phase 3 with a legal home city; one
/// action per par price he can pay twice, below his certificate limit. Of corporation `only`
/// alone when given.
fn par_options(state: &State, seat: Seat, only: Option<&str>) -> Vec<Action> {
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

/// Bank concessions `seat` may buy (1841 §3.2: face value, from SR 2; one whose corporation's
/// president's certificate lies in the pool also costs that certificate, see
/// [`pool_presidency`], and is listed only when the buyer may take it).
fn concession_options(state: &State, seat: Seat) -> Vec<Action> {
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
/// ([`super::export18xx`], `stock_turns`).
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
    if !super::corporation::may_hold_more(state, &ShareOwner::Player(seat), sym, percent) {
        return Some((
            "1841 §3.2",
            format!(
                "{c} brings {sym}'s president's certificate from the pool, which would put seat {seat} over the certificate limit or the 60% limit."
            ),
        ));
    }
    None
}

/// The largest other holding of `sym` that could take the presidency from `seat` (1841 §5.3:
/// players nearest after `seat` in player order first, then corporations in operating order, as
/// 18xx ranks them; ties to the first).
pub(crate) fn successor(state: &State, sym: &str, seat: Seat) -> Option<(ShareOwner, u32)> {
    let corp = state.corporation(sym)?;
    // The largest holding, ties to the first in rank; `seat` himself is no candidate.
    let me = ShareOwner::Player(seat);
    let mut best: Option<(usize, &ShareOwner, u32)> = None;
    for (rank, holder, p) in super::corporation::ranked_holders(state, corp, seat) {
        if *holder != me && best.is_none_or(|(r, _, b)| p > b || (p == b && rank < r)) {
            best = Some((rank, holder, p));
        }
    }
    if let Some((_, holder, p)) = best {
        return Some((holder.clone(), p));
    }
    // Nobody else holds any: the first candidate, with nothing.
    let order = super::corporation::players_from(state, seat);
    order
        .into_iter()
        .find(|s| *s != seat)
        .map(ShareOwner::Player)
        .or_else(|| {
            state
                .corporations
                .iter()
                .find(|c| c.sym != sym)
                .map(|c| ShareOwner::Corporation(c.sym.clone()))
        })
        .map(|h| (h, 0))
}

/// Every sale `seat` may make (1841 §5.3): corporations that have operated, pool at most
/// 50%, no president's certificate of a locked corporation, a dump only if another player
/// can take the presidency. Of corporation `only` alone when given; the first `limit` only.
fn sell_options(state: &State, seat: Seat, only: Option<&str>, limit: usize) -> Vec<Action> {
    let mut out = Vec::new();
    each_sale(state, seat, only, true, |corp, percent| {
        out.push(Action::SellShares {
            corporation: corp.sym.clone(),
            percent,
        });
        out.len() < limit
    });
    out
}

/// Whether [`sell_options`] lists any sale (nothing built).
fn has_sale(state: &State, seat: Seat) -> bool {
    let mut found = false;
    each_sale(state, seat, None, true, |_, _| {
        found = true;
        false
    });
    found
}

/// Whether `seat` could sell something if sales that put corporations under mutual control
/// were allowed (FAQ-R1 forbids them; 18xx.games offers them, its circular check never firing:
/// divergence `circular-control-never-flagged`). For the 18xx.games export
/// ([`super::export18xx`], `stock_turns`), asked where this engine found no sale.
pub(crate) fn has_sale_ignoring_circular_control(state: &State, seat: Seat) -> bool {
    let mut found = false;
    each_sale(state, seat, None, false, |_, _| {
        found = true;
        false
    });
    found
}

/// The sales of [`sell_options`] in its order, each handed to `take` as (corporation,
/// percent) until `take` returns `false`; with `forbid_loops` false, those FAQ-R1 forbids too.
fn each_sale(
    state: &State,
    seat: Seat,
    only: Option<&str>,
    forbid_loops: bool,
    mut take: impl FnMut(&Corporation, u32) -> bool,
) {
    let pool_max = data::ruleset(&state.options).bank_pool_max_percent;
    let me = ShareOwner::Player(seat);
    // The corporations under circular control now, once for every simulated sale.
    let mut circular_now: Option<Vec<String>> = None;
    for corp in &state.corporations {
        if !corp.operated || !corp.started() || only.is_some_and(|o| o != corp.sym) {
            continue;
        }
        let unit = corp.unit_percent();
        // All he holds, and his ordinary certificates of it, in one pass.
        let (mut held, mut normal) = (0u32, 0u32);
        for c in corp.certificates.iter().filter(|c| c.owner == me) {
            held += c.percent;
            if !c.president {
                normal += c.percent;
            }
        }
        if held < unit {
            // Nothing to sell (his ordinary certificates are a part of it).
            continue;
        }
        let is_president = corp.president() == Some(&me);
        let pres_percent = 2 * unit;
        // A president sells his ordinary certificates, and beyond them only when he can dump
        // the presidency; that is worked out only once a sale goes beyond them.
        let mut can_dump: Option<bool> = None;
        let mut may_sell = |p: u32| {
            p <= normal
                || (p <= held
                    && (!is_president
                        || *can_dump.get_or_insert_with(|| {
                            presidency_may_change(state, corp)
                                && successor(state, &corp.sym, seat)
                                    .is_some_and(|(_, p)| p >= pres_percent)
                        })))
        };
        let room = pool_max.saturating_sub(corp.pool_percent());
        let mut p = unit;
        while p <= room && may_sell(p) {
            // FAQ-R1: no sale that puts corporations under mutual control (1841 §7.4).
            // Only a president's sale can hand the presidency to a corporation.
            let percent = p;
            // The sale can only create a loop when the presidency may pass to a
            // corporation: one holding at least what the seller keeps (a presidency that
            // stays, or goes to a player, leaves every controller but this one's unchanged).
            // Only then is the new presidency worked out.
            let kept = held.saturating_sub(percent);
            let corporation_may_take_over = corporate_holdings(corp).any(|(_, p)| p >= kept);
            let looping = forbid_loops
                && is_president
                && corporation_may_take_over
                && super::corporation::presidency_creates_circular_control(
                    state,
                    &corp.sym,
                    &president_after_sale(state, seat, corp, percent),
                    circular_now.get_or_insert_with(|| super::corporation::circular_set(state)),
                );
            if !looping && !take(corp, p) {
                return;
            }
            p += unit;
        }
    }
}

/// The president of `corp` after its president in `seat` sells `percent` of it ([`sell`]:
/// the dump to the successor when he sells part of his president's certificate, the
/// certificates to the pool, then the presidency rule), worked out without changing the
/// state; only `corp`'s certificates change in a sale.
fn president_after_sale(state: &State, seat: Seat, corp: &Corporation, percent: u32) -> ShareOwner {
    let me = ShareOwner::Player(seat);
    let mut after = Corporation {
        sym: corp.sym.clone(),
        kind: corp.kind,
        historical: corp.historical,
        share_price: corp.share_price,
        par_price: corp.par_price,
        cash: corp.cash,
        certificates: corp.certificates.clone(),
        tokens_total: corp.tokens_total,
        tokens: Vec::new(),
        operated: corp.operated,
        closed: corp.closed,
        ipo_first_share_ordinary: corp.ipo_first_share_ordinary,
    };
    let normal: u32 = corp
        .certificates
        .iter()
        .filter(|c| c.owner == me && !c.president)
        .map(|c| c.percent)
        .sum();
    if percent > normal {
        let Some((new, _)) = successor(state, &corp.sym, seat) else {
            // `sell` refuses before any change.
            return me;
        };
        super::corporation::swap_presidency_of(&mut after, &me, &new);
    }
    let mut moved = 0;
    for c in after.certificates.iter_mut() {
        if moved >= percent {
            break;
        }
        if c.owner == me && !c.president {
            c.owner = ShareOwner::Pool;
            moved += c.percent;
        }
    }
    let president = after.president().cloned().unwrap_or(me);
    if moved != percent {
        // `sell` refuses here, after the dump.
        return president;
    }
    super::corporation::presidency_taker(state, &after, Some(seat)).unwrap_or(president)
}

/// Percent of `corp` held by each corporation that holds some of it, in certificate order
/// (a holder may appear once per certificate; amounts are per holder).
fn corporate_holdings(corp: &Corporation) -> impl Iterator<Item = (&str, u32)> {
    corp.certificates
        .iter()
        .filter_map(move |c| match &c.owner {
            ShareOwner::Corporation(s) => Some((s.as_str(), corp.percent_of(&c.owner))),
            _ => None,
        })
}

/// What `seat` may do in its turn apart from passing.
fn turn_options(state: &State, seat: Seat) -> Vec<Action> {
    let sells = sell_options(state, seat, None, usize::MAX);
    // 1841 §5.1, FAQ-Q9: over a limit → sell first, if anything can be sold.
    if !sells.is_empty() && over_limits(state, seat) {
        return sells;
    }
    let mut out = sells;
    out.extend(par_options(state, seat, None));
    out.extend(buy_options(state, seat, None, usize::MAX));
    out.extend(concession_options(state, seat));
    out
}

/// Whether [`turn_options`] is not empty, stopping at the first kind of action found.
fn has_turn_option(state: &State, seat: Seat) -> bool {
    has_sale(state, seat)
        || has_buy(state, seat)
        || !concession_options(state, seat).is_empty()
        || !par_options(state, seat, None).is_empty()
}

/// Every action `seat` may take now in the stock round (listed completely).
///
/// While a purchase offer waits, the seller's answers (accept, if still within the rules, and
/// decline) and nothing for anybody else (1841 §15.3). The purchases the seat on turn may
/// offer to other players are ranges: [`offers`].
pub fn legal(state: &State, seat: Seat) -> Vec<Action> {
    let Some(sr) = round(state) else {
        return Vec::new();
    };
    if let Some(offer) = &sr.offer {
        return if offer.seller == seat {
            p2p::answers(state, offer)
        } else {
            Vec::new()
        };
    }
    if sr.current_seat != seat || state.player(seat).is_none() {
        return Vec::new();
    }
    if let Some(start) = &sr.start {
        return start_legal(state, start);
    }
    let mut out = turn_options(state, seat);
    let forced = !out.is_empty()
        && over_limits(state, seat)
        && out.iter().all(|a| matches!(a, Action::SellShares { .. }));
    if !forced && (!out.is_empty() || !offers(state, seat).is_empty()) {
        out.push(Action::Pass);
    }
    out
}

/// Whether `action` is one of [`legal`]`(state, seat)` (the seat on turn, no offer waiting),
/// found without listing every action: only the options of the action's kind and
/// corporation are listed.
fn allows(state: &State, seat: Seat, action: &Action) -> bool {
    let Some(sr) = round(state) else {
        return false;
    };
    if sr.offer.is_some() || sr.current_seat != seat || state.player(seat).is_none() {
        return false;
    }
    if let Some(start) = &sr.start {
        return start_legal(state, start).contains(action);
    }
    // `turn_options` lists only the sales when the seat is over a limit and can sell
    // (1841 §5.1, FAQ-Q9); `legal` adds a pass unless so forced, when the seat has an
    // option or an offer to make.
    let forced = || forced_to_sell(state, seat);
    match action {
        Action::SellShares { corporation, .. } => {
            sell_options(state, seat, Some(corporation), usize::MAX).contains(action)
        }
        Action::BuyShares { corporation, .. } => {
            !forced() && buy_options(state, seat, Some(corporation), usize::MAX).contains(action)
        }
        Action::Par { corporation, .. } => {
            !forced() && par_options(state, seat, Some(corporation)).contains(action)
        }
        Action::BuyConcession { .. } => {
            !forced() && concession_options(state, seat).contains(action)
        }
        Action::Pass => {
            !forced() && (has_turn_option(state, seat) || !offers(state, seat).is_empty())
        }
        _ => false,
    }
}

/// Whether `seat` must sell before anything else (1841 §5.1, FAQ-Q9): over a limit with
/// something to sell.
fn forced_to_sell(state: &State, seat: Seat) -> bool {
    over_limits(state, seat) && has_sale(state, seat)
}

/// The purchases the seat on turn may offer to other players now, with price ranges
/// (`p2p_purchases`, 1841 §5.1, §5.2, §15.3): in his own turn, no start in progress, no
/// offer waiting, not forced to sell first. See [`p2p::offer_ranges`].
pub fn offers(state: &State, seat: Seat) -> Vec<OfferRange> {
    if !may_offer_now(state, seat) {
        return Vec::new();
    }
    p2p::offer_ranges(state, seat)
}

/// The turn-level conditions of an offer (1841 §5.1, §15.3): the option, the seat's own turn,
/// no start in progress, no offer waiting, not forced to sell first.
fn may_offer_now(state: &State, seat: Seat) -> bool {
    round(state).is_some_and(|sr| {
        state.options.p2p_purchases
            && sr.current_seat == seat
            && sr.offer.is_none()
            && sr.start.is_none()
            && state.player(seat).is_some()
            && !forced_to_sell(state, seat)
    })
}

/// Whether the seat on turn has anything to do besides passing: an action or an offer.
fn can_act(state: &State, seat: Seat) -> bool {
    has_turn_option(state, seat) || !offers(state, seat).is_empty()
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

/// Applies `action` by `seat` in the stock round; on `Err` the state is unchanged.
///
/// Errors: `NOT_YOUR_TURN` (not the current seat), `WRONG_STEP` (an action the current step of
/// the turn does not take, e.g. a second buy, a token choice outside a start), and
/// `ILLEGAL_MOVE` / `INSUFFICIENT_FUNDS` / `INVALID_ARGUMENT` for actions outside the legal
/// set, with the rule that forbids them.
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    let sr = round(state).ok_or_else(|| corrupt("not a stock round"))?;
    if let Some(offer) = &sr.offer {
        return answer_offer(state, seat, offer.clone(), action);
    }
    if sr.current_seat != seat {
        return Err(reject(
            RejectionCode::NotYourTurn,
            "1841 §5.1",
            format!("It is seat {}'s turn, not seat {seat}'s.", sr.current_seat),
        ));
    }
    if let Action::OfferPurchase {
        seller,
        item,
        price,
    } = action
    {
        return offer_purchase(state, seat, *seller, item, *price);
    }
    if !allows(state, seat, action) {
        return Err(explain(state, seat, action));
    }
    // FAQ-Q2 (`price_drops_lowest_first`): the seller's selling ends with anything but
    // another sale; the pending price drops are made first. Every refusal of `carry_out`
    // comes before its first change, so it works in place — but for pending drops, which
    // are made before it: then on a copy.
    let drops_first = !matches!(action, Action::SellShares { .. }) && !sr.pending_drops.is_empty();
    if drops_first {
        let mut next = state.clone();
        let mut events = Vec::new();
        sale::selling_ends(&mut next, &mut events);
        carry_out(&mut next, seat, action, &mut events)?;
        *state = next;
        Ok(events)
    } else {
        let mut events = Vec::new();
        carry_out(state, seat, action, &mut events)?;
        Ok(events)
    }
}

/// Carries out a listed action of the seat on turn (the body of [`apply`]); every refusal
/// (an inconsistent state only) comes before the first change.
fn carry_out(
    state: &mut State,
    seat: Seat,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    let start = round(state)
        .ok_or_else(|| corrupt("not a stock round"))?
        .start
        .clone();
    match (action, start) {
        (Action::Pass | Action::PlaceToken { .. } | Action::BuyTokens { .. }, Some(start)) => {
            if apply_start(state, &start, action, events) {
                end_turn(state, events);
            }
        }
        (Action::Pass, None) => {
            let acted = round(state).is_some_and(|r| r.acted_this_turn);
            if !acted && let Some(r) = round_mut(state) {
                r.consecutive_passes = r.consecutive_passes.saturating_add(1);
            }
            events.push(Event::Passed {
                seat,
                automatic: false,
            });
            end_turn(state, events);
        }
        (Action::Par { corporation, price }, None) => {
            par(state, seat, corporation, *price, events)?;
            start::after_buy(state, corporation, events);
        }
        (
            Action::BuyShares {
                corporation,
                from_pool,
                percent,
            },
            start,
        ) => {
            buy(state, seat, corporation, *from_pool, *percent, events)?;
            if start.is_some() {
                start::after_buy(state, corporation, events);
            } else {
                end_turn(state, events);
            }
        }
        (
            Action::SellShares {
                corporation,
                percent,
            },
            None,
        ) => {
            sell(state, seat, corporation, *percent, events)?;
            if !can_act(state, seat) {
                turn_ends_by_itself(state, seat);
                end_turn(state, events);
            }
        }
        (Action::BuyConcession { concession }, None) => {
            buy_concession(state, seat, concession, events)?;
            end_turn(state, events);
        }
        _ => return Err(corrupt("legal action without a handler")),
    }
    Ok(())
}

/// The seat on turn offers to buy `item` from `seller` for `price` (1841 §5.2, §15.3): it
/// must lie in his [`offers`]; then only the seller acts.
fn offer_purchase(
    state: &mut State,
    seat: Seat,
    seller: Seat,
    item: &PurchaseItem,
    price: i64,
) -> Result<Vec<Event>, Rejection> {
    let sr = round(state).ok_or_else(|| corrupt("not a stock round"))?;
    // The same as lying in one of `offers(state, seat)`, for this one item only.
    let listed = may_offer_now(state, seat) && p2p::may_offer(state, seat, seller, item, price);
    if !listed {
        return Err(if !state.options.p2p_purchases {
            p2p::explain(state, seat, seller, item, price)
        } else if let Some(start) = &sr.start {
            reject(
                RejectionCode::WrongStep,
                "1841 §5.4",
                format!(
                    "Seat {seat} is starting {}: buy more of its IPO shares or pass.",
                    start.corporation
                ),
            )
        } else if forced_to_sell(state, seat) {
            reject(
                RejectionCode::IllegalMove,
                "1841 §5.1",
                "A player over the certificate limit or the 60% limit must sell first.",
            )
        } else {
            p2p::explain(state, seat, seller, item, price)
        });
    }
    let mut next = state.clone();
    let mut events = Vec::new();
    // FAQ-Q2 (`price_drops_lowest_first`): an offer ends the seller's selling like a buy.
    sale::selling_ends(&mut next, &mut events);
    p2p::make_offer(
        &mut next,
        PurchaseOffer {
            buyer: seat,
            seller,
            item: item.clone(),
            price,
        },
        &mut events,
    );
    *state = next;
    Ok(events)
}

/// The seller answers the waiting offer (1841 §15.3). Accepted: the purchase is the buyer's
/// buy of the turn (he is the last to act; the seller has not sold, FAQ-Q4) and his turn
/// ends. Declined: the buyer's turn goes on; with nothing left to do he passes automatically.
fn answer_offer(
    state: &mut State,
    seat: Seat,
    offer: PurchaseOffer,
    action: &Action,
) -> Result<Vec<Event>, Rejection> {
    if seat != offer.seller {
        return Err(reject(
            RejectionCode::NotYourTurn,
            p2p::RULE,
            format!(
                "Seat {} must answer seat {}'s purchase offer first.",
                offer.seller, offer.buyer
            ),
        ));
    }
    let Action::AnswerOffer { accept } = action else {
        return Err(reject(
            RejectionCode::WrongStep,
            p2p::RULE,
            format!(
                "Seat {seat} must accept or decline seat {}'s purchase offer.",
                offer.buyer
            ),
        ));
    };
    let mut next = state.clone();
    let mut events = Vec::new();
    let (offer, accepted) = p2p::answer(&mut next, *accept, &mut events)?;
    if accepted {
        mark_acted(&mut next, offer.buyer);
        end_turn(&mut next, &mut events);
    } else if !can_act(&next, offer.buyer) {
        let acted = round(&next).is_some_and(|r| r.acted_this_turn);
        if !acted && let Some(r) = round_mut(&mut next) {
            r.consecutive_passes = r.consecutive_passes.saturating_add(1);
        }
        events.push(Event::Passed {
            seat: offer.buyer,
            automatic: true,
        });
        end_turn(&mut next, &mut events);
    }
    *state = next;
    Ok(events)
}

/// The rejection for an action outside the legal set, naming the rule it breaks.
fn explain(state: &State, seat: Seat, action: &Action) -> Rejection {
    let sr = round(state);
    let start = sr.and_then(|r| r.start.as_ref());
    let wrong_step = |what: &str| reject(RejectionCode::WrongStep, RULE, what.to_string());
    if let Some(start) = start {
        return match (start.step, action) {
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
        };
    }
    match action {
        Action::Bid { .. } | Action::BlindBid { .. } => {
            wrong_step("Bids belong to the concession round.")
        }
        Action::LayTile { .. }
        | Action::BuyTrain { .. }
        | Action::RunRoutes { .. }
        | Action::Dividend { .. }
        | Action::ChooseSplitPresidency { .. }
        | Action::ExchangeSplitShare { .. }
        | Action::RepeatPurchaseRound { .. }
        | Action::ProposeMerger { .. }
        | Action::ChooseMergerPrice { .. }
        | Action::FormCorporation { .. }
        | Action::ClaimPresidency { .. }
        | Action::ExchangeOddShare { .. }
        | Action::RemoveToken { .. }
        | Action::Transform { .. }
        | Action::BuyToken { .. }
        | Action::DiscardTrain { .. }
        | Action::EmergencySell { .. }
        | Action::DeclareBankruptcy { .. } => {
            wrong_step("Tiles, routes and trains belong to the operating round.")
        }
        Action::PlaceToken { .. } | Action::BuyTokens { .. } => {
            wrong_step("No corporation is being started.")
        }
        Action::AnswerOffer { .. } => reject(
            RejectionCode::WrongStep,
            p2p::RULE,
            "No purchase offer is waiting for an answer.",
        ),
        // Handled by `offer_purchase`.
        Action::OfferPurchase {
            seller,
            item,
            price,
        } => p2p::explain(state, seat, *seller, item, *price),
        Action::Pass | Action::Par { .. } | Action::BuyShares { .. }
            if must_sell_reason(state, seat).is_some() =>
        {
            let (rule, reason) = must_sell_reason(state, seat).unwrap_or_default();
            let sales: Vec<String> = sell_options(state, seat, None, usize::MAX)
                .iter()
                .filter_map(|a| match a {
                    Action::SellShares {
                        corporation,
                        percent,
                    } => Some(format!("{percent}% of {corporation}")),
                    _ => None,
                })
                .collect();
            reject(
                RejectionCode::IllegalMove,
                rule,
                format!("{reason} Sales possible now: {}.", sales.join(", ")),
            )
        }
        Action::Pass => reject(
            RejectionCode::IllegalMove,
            "1841 §5.1",
            "A player over the certificate limit or the 60% limit must sell first.",
        ),
        Action::Par { corporation, price } => explain_par(state, seat, corporation, *price),
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } => explain_buy(state, seat, corporation, *from_pool, *percent),
        Action::SellShares {
            corporation,
            percent,
        } => {
            let Some(corp) = state.corporation(corporation) else {
                return unknown_corporation(corporation);
            };
            if !corp.operated {
                reject(
                    RejectionCode::IllegalMove,
                    "1841 §5.3",
                    format!("{corporation} has not operated yet: its shares cannot be sold."),
                )
            } else if over_limits(state, seat) && !turn_options(state, seat).is_empty() {
                reject(RejectionCode::IllegalMove, "1841 §5.3", "Not a legal sale.")
            } else {
                reject(
                    RejectionCode::IllegalMove,
                    "1841 §5.3",
                    format!(
                        "Cannot sell {percent}% of {corporation}: holdings, the 50% pool limit or the presidency forbid it."
                    ),
                )
            }
        }
        Action::BuyConcession { concession } => {
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
    }
}

fn unknown_corporation(sym: &str) -> Rejection {
    reject(
        RejectionCode::InvalidArgument,
        "1841 §3.3",
        format!("`{sym}` is not a corporation of these rules."),
    )
}

fn corp_has_no_concession(state: &State, sym: &str) -> bool {
    concession_of_corporation(&state.options, sym).is_none()
}

fn explain_par(state: &State, seat: Seat, sym: &str, price: i64) -> Rejection {
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

fn explain_buy(state: &State, seat: Seat, sym: &str, from_pool: bool, percent: u32) -> Rejection {
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

fn mark_acted(state: &mut State, seat: Seat) {
    if let Some(r) = round_mut(state) {
        r.consecutive_passes = 0;
        r.last_to_act = Some(seat);
        r.acted_this_turn = true;
    }
}

/// Step 1 of a start (1841 §5.4): the president's certificate for 2× par into the treasury,
/// the marker on the par cell; the corporation floats at once (§3.5).
fn par(
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

/// Buys one certificate (1841 §5.2): IPO money to the treasury, pool money to the bank; then
/// the presidency rule of §7.5.
fn buy(
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

/// The presidency rule after a purchase or sale (1841 §5.3, §7.4, §7.5): see
/// [`super::corporation::update_presidency`] (holders with strictly more take over, players
/// and corporations; a president's certificate in the pool goes to the first holder of 20%
/// or 40%; never for a historical corporation before phase 4).
pub(crate) fn update_presidency(
    state: &mut State,
    sym: &str,
    actor: Seat,
    events: &mut Vec<Event>,
) {
    super::corporation::update_presidency(state, sym, Some(actor), events);
}

/// Sells `percent` of `sym` to the pool (1841 §5.3): paid by the bank at the current price,
/// then the price drops one row per unit sold ([`sale::drop_after_sale`]) — at once (18xx:
/// each sale of a turn at the price its earlier sales left), or, with
/// `price_drops_lowest_first` (FAQ-Q2), when the seller's selling ends
/// ([`sale::selling_ends`]: at anything but another sale, I40), all of the turn's drops
/// together, lowest share value first (so every sale of the turn is made at the price before
/// the turn's drops). A president who sells below another player's holding (a dump) first
/// hands over the presidency.
fn sell(
    state: &mut State,
    seat: Seat,
    sym: &str,
    percent: u32,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    let me = ShareOwner::Player(seat);
    let corp = state
        .corporation(sym)
        .ok_or_else(|| corrupt("unknown corporation"))?;
    let unit = corp.unit_percent();
    let price = corp.price().ok_or_else(|| corrupt("no share price"))?;
    let normal: u32 = corp
        .certificates
        .iter()
        .filter(|c| c.owner == me && !c.president)
        .map(|c| c.percent)
        .sum();
    // The certificates after the sale, worked out on a copy of this corporation so that
    // every check comes before the first change: the dump first, then the sold ones.
    let mut after = corp.clone();
    let dump = if percent > normal {
        let (new, _) = successor(state, sym, seat).ok_or_else(|| corrupt("no successor"))?;
        super::corporation::swap_presidency_of(&mut after, &me, &new);
        Some(new)
    } else {
        None
    };
    let mut moved = 0;
    for c in after.certificates.iter_mut() {
        if moved >= percent {
            break;
        }
        if c.owner == me && !c.president {
            c.owner = ShareOwner::Pool;
            moved += c.percent;
        }
    }
    if moved != percent {
        return Err(corrupt("sale does not match the holdings"));
    }
    if let Some(new) = dump {
        events.push(match &new {
            ShareOwner::Player(s) => Event::PresidentChanged {
                corporation: sym.to_string(),
                seat: *s,
            },
            other => Event::PresidencyMoved {
                corporation: sym.to_string(),
                president: other.clone(),
            },
        });
    }
    if let Some(corp) = state.corporation_mut(sym) {
        corp.certificates = after.certificates;
    }
    let units = percent / unit;
    let proceeds = price.saturating_mul(i64::from(units));
    state.bank_cash -= proceeds;
    if let Some(p) = state.players.get_mut(seat as usize) {
        p.cash += proceeds;
    }
    mark_acted(state, seat);
    if let Some(r) = round_mut(state)
        && !r
            .sold
            .iter()
            .any(|s| s.seat == seat && s.corporation == sym)
    {
        r.sold.push(SoldShares {
            seat,
            corporation: sym.to_string(),
        });
    }
    events.push(Event::SharesSold {
        seat,
        corporation: sym.to_string(),
        percent,
        price: proceeds,
    });
    sale::drop_after_sale(state, sym, units, sale::Unmoved::Silent, events);
    update_presidency(state, sym, seat, events);
    Ok(())
}

fn move_to(state: &mut State, sym: &str, row: u32, col: u32, events: &mut Vec<Event>) {
    let Some(before) = state.corporation(sym).and_then(|c| c.share_price) else {
        return;
    };
    if (before.row, before.col) == (row, col) {
        return;
    }
    market::set_cell(state, sym, row, col);
    events.push(Event::SharePriceChanged {
        corporation: sym.to_string(),
        price: market::price_at(row, col).unwrap_or(0),
        row,
        col,
    });
}

fn buy_concession(
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

/// Ends the current turn and moves to the next seat that can act; seats without a legal
/// action pass automatically (18xx "has no valid actions and passes"). The round is over when
/// every player has passed in a row (1841 §5.1, [`over`]).
fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    let Some(current) = round(state).map(|r| r.current_seat) else {
        return;
    };
    sale::selling_ends(state, events);
    let next = next_in_order(state, current);
    if let Some(r) = round_mut(state) {
        r.start = None;
        r.acted_this_turn = false;
        r.current_seat = next;
        r.offer = None;
        r.declined_offers.clear();
    }
    settle(state, events);
}

/// From the current seat on: auto-pass seats with nothing to do, until a seat can act or the
/// round is [`over`] after a full circle of passes (at most one circle: every seat passes).
fn settle(state: &mut State, events: &mut Vec<Event>) {
    let n = state.players.len() as u32;
    for _ in 0..=n {
        if over(state) {
            return;
        }
        let Some(sr) = round(state) else { return };
        let seat = sr.current_seat;
        if can_act(state, seat) {
            return;
        }
        turn_ends_by_itself(state, seat);
        events.push(Event::Passed {
            seat,
            automatic: true,
        });
        let next = next_in_order(state, seat);
        if let Some(r) = round_mut(state) {
            r.consecutive_passes = r.consecutive_passes.saturating_add(1);
            r.current_seat = next;
        }
    }
}

/// Whether the stock round is over: every player has passed in a row (1841 §5.1).
pub fn over(state: &State) -> bool {
    round(state).is_some_and(|r| r.consecutive_passes >= state.players.len() as u32)
}

/// Starts stock round `number` with priority to the first seat of the player order; seats
/// that cannot act pass automatically (the round may be [`over`] at once). Called by
/// [`super::flow`], which ends the round when it is over.
pub(super) fn begin(state: &mut State, number: u32, events: &mut Vec<Event>) {
    let priority_seat = state.player_order.first().copied().unwrap_or(0);
    state.round = Round::StockRound(StockRound {
        number,
        priority_seat,
        current_seat: priority_seat,
        consecutive_passes: 0,
        last_to_act: None,
        acted_this_turn: false,
        sold: Vec::new(),
        start: None,
        pending_drops: Vec::new(),
        offer: None,
        declined_offers: Vec::new(),
    });
    events.push(Event::RoundStarted {
        name: format!("Stock Round {number}"),
    });
    settle(state, events);
}

/// Whether a started corporation has no controlling player (1841 §7.4).
pub fn frozen(state: &State, sym: &str) -> bool {
    super::corporation::frozen(state, sym)
}

/// End of the stock round (1841 §5.5), once it is [`over`] ([`super::flow`] then checks the
/// end of the game and begins Operating Round `n`.1, §8):
/// 1. in operating order, a sold-out corporation (not frozen) moves up one row, else one with
///    pool shares moves down one row (frozen: two);
/// 2. Bayard pays L.20 to its owner;
/// 3. unused concessions return to the bank (Bayard stays);
/// 4. priority goes to the seat after the last one who bought, sold or started (the player
///    order is rotated to start there; unchanged if nobody acted).
pub(super) fn finish(state: &mut State, events: &mut Vec<Event>) {
    let Some(last_to_act) = round(state).map(|r| r.last_to_act) else {
        return;
    };
    for sym in market::operating_order(state) {
        let Some(corp) = state.corporation(&sym) else {
            continue;
        };
        let Some(p) = corp.share_price else { continue };
        let is_frozen = frozen(state, &sym);
        let (row, col) = if corp.sold_out() && !is_frozen {
            market::up(p.row, p.col)
        } else if corp.pool_percent() > 0 {
            let once = market::down(p.row, p.col);
            if is_frozen {
                market::down(once.0, once.1)
            } else {
                once
            }
        } else {
            (p.row, p.col)
        };
        move_to(state, &sym, row, col, events);
    }
    let income = data::ruleset(&state.options).bayard_pays_at_end_of_each_stock_round;
    if let Some(owner) = state
        .players
        .iter()
        .position(|p| p.concessions.contains(&Concession::Bayard))
    {
        let amount = income.min(state.bank_cash).max(0);
        state.bank_cash -= amount;
        state.players[owner].cash += amount;
        events.push(Event::ConcessionIncome {
            seat: owner as Seat,
            concession: Concession::Bayard,
            amount,
        });
    }
    for i in 0..state.players.len() {
        let held = state.players[i].concessions.clone();
        for c in held {
            let unused = corporation_of_concession(&state.options, c)
                .is_some_and(|sym| state.corporation(sym).is_some_and(|corp| !corp.started()));
            if unused {
                state.players[i].concessions.retain(|x| *x != c);
                state.bank_concessions.push(c);
                events.push(Event::ConcessionReturned {
                    seat: i as Seat,
                    concession: c,
                });
            }
        }
    }
    state.bank_concessions.sort();
    if let Some(last) = last_to_act {
        let next = next_in_order(state, last);
        if let Some(i) = state.player_order.iter().position(|s| *s == next) {
            state.player_order.rotate_left(i);
        }
        events.push(Event::PlayerOrderChanged {
            player_order: state.player_order.clone(),
        });
    }
}
