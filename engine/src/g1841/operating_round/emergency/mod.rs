//! Emergency money raising and bankruptcy (1841 §14).
//!
//! A corporation that must buy a train (§9.6: no train and a route) but cannot pay the
//! cheapest depot or pool train from its treasury raises the money through its chain of
//! control: first the corporation itself, then the corporation controlling it, and so on, then
//! the controlling player. Each contributes its cash; each corporation sells at half price,
//! first certificates of other corporations it holds, then its own IPO shares (with
//! `emergency_sales_unrestricted`, FAQ-C13: either, in any order); then the player sells his
//! own certificates at half price. A corporation, like the player, may dump a presidency it
//! holds outside the needy chain (1841 §5.3; FAQ-C13: "even its president's certificate, into
//! the pool"). A sale is offered only while it is needed (its bundle less
//! one share would not cover the shortfall). Proceeds are rounded once per sale
//! ([`half_price_proceeds`]: up as 18xx, or down with `half_price_round_down`, FAQ-Q21). With
//! `no_corporate_rebuy_after_sale` (FAQ-R5) a corporation's emergency sales are recorded for
//! the rest of the operating round: it may not buy those corporations' shares again in it.
//! The purchase is then the cheapest depot or pool
//! train, paid from the treasury first, then from the chain's cash, then the player's. Before
//! any emergency sale the corporation may still buy a train from another corporation with its
//! own treasury (§9.6). When even selling everything cannot raise the price, the player may
//! declare bankruptcy (resign or take a L.500 loan).
//!
//! This module holds whether an emergency is on, the cheapest train it must buy, the raisers
//! in chain order and their cash, the emergency purchase and the raisers' contributions. One
//! module each: [`sales`] (the sales open now), [`selling`] (a sale carried out) and
//! [`bankruptcy`].

use super::super::corporation::swap_presidency;
use super::super::corporation::{largest_other_holding, presidency_may_change};
use super::super::sale;
use super::super::start::half_price_proceeds;
use super::super::state::Corporation;
use super::super::stock_round::{successor, update_presidency};
use super::*;

mod bankruptcy;
mod sales;
mod selling;

pub(super) use bankruptcy::{
    bankrupt_for, declare_bankruptcy, may_go_bankrupt, may_go_bankrupt_for,
};
pub(super) use sales::{emergency_presidency_kept, emergency_sales, emergency_sales_for};
pub(super) use selling::{emergency_sell, sweep, sweep_for};

/// The cheapest depot or pool train as `(train id, from, price)` (1841 §14: the train an
/// emergency must buy); the depot train first on equal prices.
pub(super) fn cheapest_train(state: &State) -> Option<(String, String, i64)> {
    let mut best = depot_train(state).map(|(id, p)| (id, "depot".to_string(), p));
    for id in &state.operations.pool_trains {
        let p = train_price(state, id);
        if best.as_ref().is_none_or(|b| p < b.2) {
            best = Some((id.clone(), "pool".to_string(), p));
        }
    }
    best
}

/// Whether the operating corporation is in emergency money raising now (1841 §14): in its
/// train step it must buy a train and cannot pay the cheapest depot/pool train from its
/// treasury, or it has already made an emergency sale this turn and not yet bought.
pub fn in_emergency(state: &State) -> bool {
    in_emergency_with(state, &track::LazyBoard::new())
}

/// [`in_emergency`] on a board of the state.
pub(super) fn in_emergency_with(state: &State, board: &track::LazyBoard) -> bool {
    let Some(r) = round(state) else { return false };
    let Some(sym) = r.current.as_deref() else {
        return false;
    };
    if r.step != OperatingStep::Trains
        || r.start.is_some()
        || !must_buy_train_with(state, board, sym)
    {
        return false;
    }
    let cash = state.corporation(sym).map_or(0, |c| c.cash);
    // Once an emergency sale is made, the emergency lasts until the train is bought.
    r.emergency || cheapest_train(state).is_some_and(|(_, _, p)| cash < p)
}

/// Who raises money, in order (1841 §14): the needy corporation, the corporations above it in
/// its chain of control, then the controlling player.
fn raisers(state: &State, sym: &str) -> Vec<ShareOwner> {
    let mut out = vec![ShareOwner::Corporation(sym.to_string())];
    let mut cur = sym.to_string();
    for _ in 0..state.corporations.len() {
        match state.corporation(&cur).and_then(|c| c.president()) {
            Some(ShareOwner::Corporation(c))
                if !out.contains(&ShareOwner::Corporation(c.clone())) =>
            {
                out.push(ShareOwner::Corporation(c.clone()));
                cur = c.clone();
            }
            Some(ShareOwner::Player(s)) => {
                out.push(ShareOwner::Player(*s));
                break;
            }
            _ => break,
        }
    }
    out
}

fn cash_of(state: &State, owner: &ShareOwner) -> i64 {
    match owner {
        ShareOwner::Corporation(c) => state.corporation(c).map_or(0, |c| c.cash),
        ShareOwner::Player(s) => state.player(*s).map_or(0, |p| p.cash),
        ShareOwner::Ipo | ShareOwner::Pool => 0,
    }
}

/// Cash of everyone who raises money for `sym` (1841 §14).
pub(super) fn funds(state: &State, sym: &str) -> i64 {
    raisers(state, sym).iter().map(|o| cash_of(state, o)).sum()
}

/// The emergency purchase, once the raisers' cash covers it (1841 §14): the cheapest depot or
/// pool train(s) at their price.
pub(super) fn emergency_buys(state: &State) -> Vec<Action> {
    let Some(sym) = current(state) else {
        return Vec::new();
    };
    let Some((_, _, price)) = cheapest_train(state) else {
        return Vec::new();
    };
    if funds(state, &sym) < price || !emergency_sales(state).is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some((id, p)) = depot_train(state)
        && p == price
    {
        out.push(Action::BuyTrain {
            train: id,
            from: "depot".into(),
            price,
        });
    }
    let mut types = BTreeSet::new();
    for id in &state.operations.pool_trains {
        if train_price(state, id) == price && types.insert(train_type(id).to_string()) {
            out.push(Action::BuyTrain {
                train: id.clone(),
                from: "pool".into(),
                price,
            });
        }
    }
    out
}

/// Moves `amount` (L.) from a raiser of the needy chain (a corporation's treasury or the
/// president's cash) into `sym`'s treasury and reports it as `EmergencyFunds` (1841 §14).
fn move_funds(
    state: &mut State,
    raiser: &ShareOwner,
    sym: &str,
    amount: i64,
    events: &mut Vec<Event>,
) {
    match raiser {
        ShareOwner::Corporation(c) => {
            if let Some(x) = state.corporations.iter_mut().find(|x| &x.sym == c) {
                x.cash -= amount;
            }
        }
        ShareOwner::Player(s) => {
            if let Some(p) = state.players.get_mut(*s as usize) {
                p.cash -= amount;
            }
        }
        ShareOwner::Ipo | ShareOwner::Pool => {}
    }
    if let Some(x) = state.corporations.iter_mut().find(|x| x.sym == sym) {
        x.cash += amount;
    }
    events.push(Event::EmergencyFunds {
        corporation: sym.to_string(),
        from: match raiser {
            ShareOwner::Corporation(c) => Some(c.clone()),
            _ => None,
        },
        amount,
    });
}

/// Moves the raisers' cash into the needy treasury until it holds `price` (1841 §14), in chain
/// order after the corporation itself.
pub(super) fn contribute(state: &mut State, sym: &str, price: i64, events: &mut Vec<Event>) {
    for raiser in raisers(state, sym).into_iter().skip(1) {
        let have = state.corporation(sym).map_or(0, |c| c.cash);
        let need = price - have;
        if need <= 0 {
            break;
        }
        let amount = need.min(cash_of(state, &raiser));
        if amount <= 0 {
            continue;
        }
        move_funds(state, &raiser, sym, amount, events);
    }
}
