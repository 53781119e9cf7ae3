//! The optional purchases after the split's exchange (1841 §12.4): rounds of one IPO share
//! each, SB then SFL, repeated while a successor's president asks and someone can buy; in
//! Version 2 the successors' token purchases at L.50 up to 5.

use super::exchange::split_decider;
use super::*;

pub(super) fn available(state: &State) -> Vec<String> {
    successors(state)
        .into_iter()
        .filter(|s| ipo_share_left(state, s))
        .collect()
}

/// Holders of successor `sym` that may buy one of its IPO shares now, in order from its
/// president (1841 §12.4: players and the corporations they control). A successor without a
/// president (its certificate in the pool) starts from the split's decider
/// ([`split_decider`]; the rulebook names no other start; 18xx `secession_offer`:
/// `corp.player || @secession_decider`): with IRSFF's president's certificate in the pool, the
/// controller of the corporation that bought the first 4-train, not the first player (v2, 4
/// players, random, seed 4013, id 628).
fn buyers(state: &State, sym: &str, split: &Split) -> Vec<ShareOwner> {
    let Some(c) = state.corporation(sym) else {
        return Vec::new();
    };
    let first = c
        .president()
        .and_then(|p| acting_seat(state, p))
        .or_else(|| split_decider(state, split))
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0);
    holder_order(state, first, false, |h| {
        c.percent_of(h) > 0 && acting_seat(state, h).is_some()
    })
}

pub(super) fn can_buy(state: &State, sym: &str, h: &ShareOwner) -> bool {
    let Some(c) = state.corporation(sym) else {
        return false;
    };
    let Some(price) = c.price() else { return false };
    ipo_share_left(state, sym)
        && holder_cash(state, h) >= price
        && may_hold_more(state, h, sym, c.unit_percent())
}

/// Whether a holder of successor `sym` (players and the corporations they control, from its
/// president) can buy one of its IPO shares now (1841 §12.4): what decides whether another
/// round of purchases is offered (also read by the 18xx.games writer).
pub fn anyone_can_buy(state: &State, sym: &str, split: &Split) -> bool {
    buyers(state, sym, split)
        .iter()
        .any(|h| can_buy(state, sym, h))
}

/// The token purchase of successor `sym` (Version 2: L.50 each up to 5): the counts it may
/// choose in all, when it may buy at least one.
pub(super) fn token_counts(state: &State, sym: &str) -> Vec<u32> {
    let rules = data::ruleset(&state.options);
    let (Some(price), Some(c)) = (
        rules.token_prices.ferdinandea_split_extra_token,
        state.corporation(sym),
    ) else {
        return Vec::new();
    };
    if price <= 0 || controller(state, sym).is_none() {
        return Vec::new();
    }
    let max = rules.token_counts.major_max;
    let have = c.tokens_total;
    let affordable = u32::try_from(c.cash / price).unwrap_or(0);
    let top = max.min(have.saturating_add(affordable));
    if top <= have {
        return Vec::new();
    }
    (have..=top).collect()
}

pub(super) fn buy(state: &mut State, sym: &str, h: &ShareOwner, events: &mut Vec<Event>) {
    let Some(c) = state.corporation(sym) else {
        return;
    };
    let Some(price) = c.price() else { return };
    let unit = c.unit_percent();
    if !give_share(state, sym, h) {
        return;
    }
    add_cash(state, h, -price);
    add_cash(state, &ShareOwner::Corporation(sym.to_string()), price);
    match h {
        ShareOwner::Player(seat) => events.push(Event::SharesBought {
            seat: *seat,
            corporation: sym.to_string(),
            percent: unit,
            from_pool: false,
            price,
        }),
        ShareOwner::Corporation(buyer) => events.push(Event::CorporationBoughtShares {
            buyer: buyer.clone(),
            corporation: sym.to_string(),
            percent: unit,
            from_pool: false,
            price,
        }),
        _ => {}
    }
    presidency(state, sym, events);
}

pub(super) fn buy_tokens(state: &mut State, sym: &str, count: u32, events: &mut Vec<Event>) {
    let price = data::ruleset(&state.options)
        .token_prices
        .ferdinandea_split_extra_token
        .unwrap_or(0);
    let Some(c) = corp_mut(state, sym) else {
        return;
    };
    let extra = count.saturating_sub(c.tokens_total);
    let cost = price.saturating_mul(i64::from(extra));
    c.tokens_total = count.max(c.tokens_total);
    c.cash -= cost;
    state.bank_cash += cost;
    events.push(Event::TokensBought {
        corporation: sym.to_string(),
        count,
        price: cost,
    });
}

pub(super) fn start_round(state: &State, split: &mut Split, sym: &str) {
    split.stage = SplitStage::Purchases;
    split.corporation = sym.to_string();
    split.holders = buyers(state, sym, split);
    split.units.clear();
    split.next = 0;
    split.bought_this_round = false;
}

/// Asks the next successor's president (after `after`) whether another round follows; to
/// the tokens when no successor has buyers left.
pub(super) fn ask_repeat(state: &State, split: &mut Split, after: Option<&str>) {
    let succ = successors(state);
    let start = after
        .and_then(|a| succ.iter().position(|s| s == a))
        .map_or(0, |i| i + 1);
    for k in 0..succ.len() {
        let s = &succ[(start + k) % succ.len()];
        if split.purchases_closed.contains(s) || controller(state, s).is_none() {
            continue;
        }
        if anyone_can_buy(state, s, split) {
            split.stage = SplitStage::RepeatRound;
            split.corporation = s.clone();
            split.holders.clear();
            split.next = 0;
            return;
        }
    }
    split.stage = SplitStage::Tokens;
    split.corporation = succ.first().cloned().unwrap_or_default();
    split.holders.clear();
    split.next = 0;
}

pub(super) fn next_tokens(state: &State, split: &mut Split) {
    let succ = successors(state);
    let i = succ.iter().position(|s| *s == split.corporation);
    match i.and_then(|i| succ.get(i + 1)) {
        Some(s) => split.corporation = s.clone(),
        None => split.corporation = String::new(),
    }
}
