//! The stock market of 1841 (1841 §6): a 2-D grid of 13 rows (`engine/data/1841/market.json`),
//! price movements with the minor cap (column 10) and the pre-phase-8 cap (column 15), and the
//! operating order of corporations by market position.

use super::corporation::phase_number;
use super::data;
use super::state::{CorporationKind, SharePrice, State};

/// Price in L. of the cell at `row`, `col`; `None` if there is no such cell.
pub fn price_at(row: u32, col: u32) -> Option<i64> {
    data::market()
        .rows
        .get(row as usize)?
        .get(col as usize)
        .map(|c| c.price)
}

/// Whether the cell exists.
pub fn exists(row: u32, col: u32) -> bool {
    price_at(row, col).is_some()
}

/// Par prices for a corporation of `kind` (1841 §5.4: 68, 100, 144 for both; 216 and 340 for
/// majors only).
pub fn par_prices(state: &State, kind: CorporationKind) -> Vec<i64> {
    let m = &data::ruleset(&state.options).stock_market;
    match kind {
        CorporationKind::Major => m.par_prices_major.clone(),
        CorporationKind::Minor => m.par_prices_minor.clone(),
    }
}

/// The par cell with `price` (a cell typed `par`, or `par_1` for majors; 1841 §5.4, §6).
pub fn par_cell(price: i64, kind: CorporationKind) -> Option<(u32, u32)> {
    for (r, row) in data::market().rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let par = cell.types.iter().any(|t| t == "par")
                || (kind == CorporationKind::Major && cell.types.iter().any(|t| t == "par_1"));
            if par && cell.price == price {
                return Some((r as u32, c as u32));
            }
        }
    }
    None
}

/// One row down; stays if there is no cell below (1841 §5.3, §6).
pub fn down(row: u32, col: u32) -> (u32, u32) {
    if exists(row + 1, col) {
        (row + 1, col)
    } else {
        (row, col)
    }
}

/// One row up; stays on the top row (1841 §6).
pub fn up(row: u32, col: u32) -> (u32, u32) {
    if row > 0 && exists(row - 1, col) {
        (row - 1, col)
    } else {
        (row, col)
    }
}

/// One column right, or up at a row end, at the minor cap (column 10) for minors and at the
/// pre-phase-8 cap (column 15) before phase 8 (1841 §6, FAQ-C6).
pub fn right(state: &State, kind: CorporationKind, row: u32, col: u32) -> (u32, u32) {
    let m = &data::ruleset(&state.options).stock_market;
    let capped = (kind == CorporationKind::Minor && col == m.minor_cap_column)
        || (phase_number(state) < 8 && col == m.pre_phase_8_cap_column);
    if !capped && exists(row, col + 1) {
        (row, col + 1)
    } else {
        up(row, col)
    }
}

/// One column left, or down at column 0 (1841 §6).
pub fn left(row: u32, col: u32) -> (u32, u32) {
    if col > 0 {
        (row, col - 1)
    } else {
        down(row, col)
    }
}

/// Moves corporation `sym` to (`row`, `col`); a real move makes it the latest arrival there.
pub fn set_cell(state: &mut State, sym: &str, row: u32, col: u32) {
    let arrival = state.next_market_arrival;
    let Some(corp) = state.corporations.iter_mut().find(|c| c.sym == sym) else {
        return;
    };
    if let Some(p) = corp.share_price
        && p.row == row
        && p.col == col
    {
        return;
    }
    corp.share_price = Some(SharePrice { row, col, arrival });
    state.next_market_arrival = arrival.saturating_add(1);
}

/// Started corporations in operating order (1841 §6): higher price first, then further right,
/// then higher row, then earlier arrival on the cell, then name.
pub fn operating_order(state: &State) -> Vec<String> {
    let mut corps: Vec<_> = state
        .corporations
        .iter()
        .filter_map(|c| {
            let p = c.share_price?;
            Some((c.price().unwrap_or(0), p, c.sym.clone()))
        })
        .collect();
    corps.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.col.cmp(&a.1.col))
            .then(a.1.row.cmp(&b.1.row))
            .then(a.1.arrival.cmp(&b.1.arrival))
            .then(a.2.cmp(&b.2))
    });
    corps.into_iter().map(|c| c.2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::g1841::Options;
    use crate::g1841::setup::setup;

    #[test]
    fn s5_4_par_cells() {
        assert_eq!(par_cell(68, CorporationKind::Minor), Some((4, 2)));
        assert_eq!(par_cell(100, CorporationKind::Major), Some((3, 5)));
        assert_eq!(par_cell(144, CorporationKind::Major), Some((2, 8)));
        assert_eq!(par_cell(216, CorporationKind::Major), Some((1, 11)));
        assert_eq!(par_cell(340, CorporationKind::Major), Some((0, 14)));
        assert_eq!(par_cell(216, CorporationKind::Minor), None);
        assert_eq!(par_cell(95, CorporationKind::Major), None);
    }

    #[test]
    fn s6_movements() {
        // Down: 100 (3,5) → 95 (4,5); bottom of column 0 stays (12,0).
        assert_eq!(down(3, 5), (4, 5));
        assert_eq!(price_at(4, 5), Some(95));
        assert_eq!(down(12, 0), (12, 0));
        // Row 3 ends at column 15: no cell below (3,15) → stays.
        assert_eq!(down(3, 15), (3, 15));
        assert_eq!(up(0, 5), (0, 5));
        assert_eq!(up(3, 5), (2, 5));
        assert_eq!(left(3, 0), (4, 0));
        let s = setup(&Options::default(), 4).unwrap();
        // FAQ-C6: before phase 8, L.298 (2,15) moves up to L.328 (1,15); a minor at L.160
        // (4,10) moves up to L.169 (3,10); a major at (4,10) moves right to L.178.
        assert_eq!(right(&s, CorporationKind::Major, 2, 15), (1, 15));
        assert_eq!(right(&s, CorporationKind::Major, 0, 15), (0, 15));
        assert_eq!(right(&s, CorporationKind::Minor, 4, 10), (3, 10));
        assert_eq!(right(&s, CorporationKind::Major, 4, 10), (4, 11));
        // Row end: (3,15) is the last cell of row 3 → up.
        let mut p8 = s.clone();
        p8.phase = "8".into();
        assert_eq!(right(&p8, CorporationKind::Major, 2, 15), (2, 16));
        assert_eq!(right(&p8, CorporationKind::Major, 3, 15), (2, 15));
    }
}
