//! The price drop after a sale (1841 §5.3: "one row down per unit sold"), the one every sale
//! of 1841 goes through once its certificates are in the pool and paid for:
//!
//! * a player's sale in the stock round (§5.3, `stock_round::sell::sell`);
//! * a corporation's sale in its share step (§9.7, `operating_round::shares::sell_share`) and
//!   a frozen corporation's sale out of its loop (§7.4, FAQ-Q23, `shares::sell_all`);
//! * emergency sales — for a train, or for a transformation's second token (§12.2) — and a
//!   bankruptcy's sales with drops (§14, `operating_round::emergency`);
//! * the automatic IPO sale of a start that cannot pay its tokens (§5.4 step 4,
//!   `start::raise_by_ipo_sale`).
//!
//! Without `price_drops_lowest_first` each sale drops the price at once, so a later sale of
//! the same selling is priced after it (18xx `SELL_MOVEMENT = :down_share`). With it (FAQ-Q2:
//! "After a sale, prices are lowered in reverse operating order, i.e. by increasing share
//! value. Markers higher in a stack move later.") [`drop_after_sale`] records the drop in the
//! round's pending drops, and [`selling_ends`] makes them when the selling ends
//! (interpretation I40 in `docs/games/1841.md`): in the stock round, the share step and a
//! train emergency at any action but another sale (a purchase, a start, a pass, the train
//! bought with the emergency's money); in a transformation's token emergency once nothing
//! more is to be sold; at a bankruptcy before its sales and again after its sales with drops
//! (before those without); after a frozen corporation has sold out of its loop; and at once
//! after a start's sale (one bundle: the option changes nothing there).

use super::action::Event;
use super::market;
use super::state::{PriceDrop, Round, State};

/// Whether [`drop_after_sale`] reports a drop that cannot move (no cell below, 1841 §5.3) as a
/// `SharePriceChanged` to the cell it stays on. The stock round never has; the other sales
/// always have. Kept apart so that no path's events change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unmoved {
    /// No event for a price that stays (the stock round).
    Silent,
    /// A `SharePriceChanged` even when the price stays (corporate, emergency and start sales).
    Reported,
}

/// The price drop of a sale of `units` units of `sym` (1841 §5.3: one row down per unit sold —
/// per 10% major share, per 20% minor share, 2 for a president's certificate — the price
/// staying where there is no cell below), made after the certificates moved and were paid.
/// Without `price_drops_lowest_first` at once, arriving at the back of the new cell (1841 §6).
/// With it (FAQ-Q2) added to the round's pending drops, made by [`selling_ends`]: every sale
/// of the selling is priced before its drops. Outside a stock or operating round (none sells
/// there) it drops at once.
pub fn drop_after_sale(
    state: &mut State,
    sym: &str,
    units: u32,
    unmoved: Unmoved,
    events: &mut Vec<Event>,
) {
    if state.options.price_drops_lowest_first()
        && let Some(pending) = pending_mut(state)
    {
        add_drop(pending, sym, units);
        return;
    }
    drop_now(state, sym, units, unmoved, events);
}

/// The drop of [`drop_after_sale`] made at once.
fn drop_now(state: &mut State, sym: &str, units: u32, unmoved: Unmoved, events: &mut Vec<Event>) {
    let Some(p) = state.corporation(sym).and_then(|c| c.share_price) else {
        return;
    };
    let mut row = p.row;
    for _ in 0..units {
        row = market::down(row, p.col).0;
    }
    if row == p.row && unmoved == Unmoved::Silent {
        return;
    }
    market::set_cell(state, sym, row, p.col);
    events.push(Event::SharePriceChanged {
        corporation: sym.to_string(),
        price: market::price_at(row, p.col).unwrap_or(0),
        row,
        col: p.col,
    });
}

/// The end of a selling: makes the round's pending drops (FAQ-Q2, `price_drops_lowest_first`;
/// nothing is pending without the option): the sold corporations in reverse operating order
/// (as it stands before the drops), each its total rows down at once (1841 §5.3), arriving at
/// the back of its new cell (1841 §6). Two corporations sold together from one cell thus
/// change places: A before B on L.100, both sold → B drops to L.95 first and operates before
/// A (FAQ-Q2's test). A drop that cannot move reports nothing.
pub fn selling_ends(state: &mut State, events: &mut Vec<Event>) {
    let Some(pending) = pending_mut(state) else {
        return;
    };
    if pending.is_empty() {
        return;
    }
    let mut drops = std::mem::take(pending);
    let order = market::operating_order_of(state);
    drops.sort_by_key(|d| {
        std::cmp::Reverse(order.iter().position(|s| *s == d.corporation).unwrap_or(0))
    });
    for d in drops {
        let Some(p) = state
            .corporation(&d.corporation)
            .and_then(|c| c.share_price)
        else {
            continue;
        };
        let mut row = p.row;
        for _ in 0..d.rows {
            row = market::down(row, p.col).0;
        }
        if row == p.row {
            continue;
        }
        market::set_cell(state, &d.corporation, row, p.col);
        events.push(Event::SharePriceChanged {
            corporation: d.corporation,
            price: market::price_at(row, p.col).unwrap_or(0),
            row,
            col: p.col,
        });
    }
}

/// The pending drops of the round in progress (`StockRound.pending_drops`,
/// `OperatingRound.pending_drops`); `None` in a concession round.
fn pending_mut(state: &mut State) -> Option<&mut Vec<PriceDrop>> {
    match &mut state.round {
        Round::StockRound(r) => Some(&mut r.pending_drops),
        Round::OperatingRound(r) => Some(&mut r.pending_drops),
        Round::ConcessionRound(_) => None,
    }
}

/// Adds `units` rows of drop for `sym` to a selling's pending drops (FAQ-Q2).
fn add_drop(drops: &mut Vec<PriceDrop>, sym: &str, units: u32) {
    match drops.iter_mut().find(|d| d.corporation == sym) {
        Some(d) => d.rows = d.rows.saturating_add(units),
        None => drops.push(PriceDrop {
            corporation: sym.to_string(),
            rows: units,
        }),
    }
}
