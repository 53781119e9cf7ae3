//! Dividends and share-price moves of the operating turn (1841 §9.4).

use super::*;

pub(super) fn move_left(state: &mut State, sym: &str, times: u32, events: &mut Vec<Event>) {
    let Some(p) = state.corporation(sym).and_then(|c| c.share_price) else {
        return;
    };
    let (mut row, mut col) = (p.row, p.col);
    for _ in 0..times {
        (row, col) = market::left(row, col);
    }
    market::set_cell(state, sym, row, col);
    events.push(Event::SharePriceChanged {
        corporation: sym.to_string(),
        price: market::price_at(row, col).unwrap_or(0),
        row,
        col,
    });
}

/// Pays out or withholds `revenue` (1841 §9.4): payout gives each holder (players, other
/// corporations, the corporation itself for its IPO shares) ceil(units × revenue ÷ units in
/// all) from the bank, pool shares pay nothing; the price moves right if the revenue exceeds
/// the share price, left when withheld, else stays.
pub(super) fn pay_dividend(
    state: &mut State,
    sym: &str,
    revenue: i64,
    payout: bool,
    events: &mut Vec<Event>,
) {
    let Some(corp) = state.corporation(sym).cloned() else {
        return;
    };
    if !payout {
        state.bank_cash -= revenue;
        if let Some(c) = state.corporation_mut(sym) {
            c.cash += revenue;
        }
        events.push(Event::Withheld {
            corporation: sym.to_string(),
            revenue,
        });
        move_left(state, sym, 1, events);
        return;
    }
    let unit = i64::from(corp.unit_percent());
    let total_units = 100 / unit;
    let mut by_holder: Vec<(ShareOwner, i64)> = Vec::new();
    for c in &corp.certificates {
        if c.owner == ShareOwner::Pool {
            continue;
        }
        let units = i64::from(c.percent) / unit;
        match by_holder.iter_mut().find(|(o, _)| *o == c.owner) {
            Some(e) => e.1 += units,
            None => by_holder.push((c.owner.clone(), units)),
        }
    }
    let mut to_treasury = 0;
    for (owner, units) in by_holder {
        let amount = (units * revenue + total_units - 1) / total_units;
        state.bank_cash -= amount;
        match owner {
            ShareOwner::Player(s) => {
                if let Some(p) = state.players.get_mut(s as usize) {
                    p.cash += amount;
                }
            }
            ShareOwner::Corporation(holder) => {
                if let Some(c) = state.corporation_mut(&holder) {
                    c.cash += amount;
                }
            }
            ShareOwner::Ipo => {
                to_treasury += amount;
                if let Some(c) = state.corporation_mut(sym) {
                    c.cash += amount;
                }
            }
            ShareOwner::Pool => {}
        }
    }
    events.push(Event::DividendPaid {
        corporation: sym.to_string(),
        revenue,
        to_treasury,
    });
    let price = corp.price().unwrap_or(0);
    if revenue > price
        && let Some(p) = corp.share_price
    {
        let (row, col) = market::right(state, corp.kind, p.row, p.col);
        market::set_cell(state, sym, row, col);
        events.push(Event::SharePriceChanged {
            corporation: sym.to_string(),
            price: market::price_at(row, col).unwrap_or(0),
            row,
            col,
        });
    } else if revenue == 0 {
        move_left(state, sym, 1, events);
    }
}
