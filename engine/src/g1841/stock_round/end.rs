//! The end of the stock round (1841 §5.5), once every player has passed in a row
//! ([`super::over`]): the price movements, Bayard's income, the return of unused concessions
//! and the new priority ([`finish`]).

use super::super::action::Event;
use super::super::concession::Concession;
use super::super::corporation::corporation_of_concession;
use super::super::data;
use super::super::market;
use super::super::state::State;
use super::{frozen, next_in_order, round};
use crate::Seat;

/// End of the stock round (1841 §5.5), once it is [`over`](super::over) ([`super::super::flow`]
/// then checks the end of the game and begins Operating Round `n`.1, §8):
/// 1. in operating order, a sold-out corporation (not frozen) moves up one row, else one with
///    pool shares moves down one row (frozen: two);
/// 2. Bayard pays L.20 to its owner;
/// 3. unused concessions return to the bank (Bayard stays);
/// 4. priority goes to the seat after the last one who bought, sold or started (the player
///    order is rotated to start there; unchanged if nobody acted).
pub(in super::super) fn finish(state: &mut State, events: &mut Vec<Event>) {
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
