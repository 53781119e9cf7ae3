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
    let Some(corp) = state.corporation_mut(sym) else {
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
    operating_order_of(state)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// [`operating_order`], the symbols borrowed from the state.
pub fn operating_order_of(state: &State) -> Vec<&str> {
    let mut corps: Vec<_> = order_keys(state).collect();
    corps.sort_by(order_cmp);
    corps.into_iter().map(|c| c.2).collect()
}

/// The first corporation of [`operating_order_of`] that `skip` does not pass over, found
/// without sorting (the least key in the order's comparison; of equal keys the first in list
/// order, as the stable sort keeps it).
pub fn first_in_operating_order(state: &State, skip: impl Fn(&str) -> bool) -> Option<&str> {
    order_keys(state)
        .filter(|k| !skip(k.2))
        .min_by(order_cmp)
        .map(|k| k.2)
}

/// Whether a corporation on market place `slot` (a cell with its arrival) would operate
/// before the started corporation `sym` (1841 §6; the split successors in IRSFF's slot,
/// FAQ-Q24). `true` when `sym` has no market place.
pub fn slot_precedes(state: &State, slot: SharePrice, sym: &str) -> bool {
    let Some(theirs) = order_keys(state).find(|k| k.2 == sym) else {
        return true;
    };
    let mine = (price_at(slot.row, slot.col).unwrap_or(0), slot, "");
    order_cmp(&mine, &theirs) == std::cmp::Ordering::Less
}

/// The position of `sym` in [`operating_order_of`] (0 first), found without sorting; `None`
/// for a corporation not started.
pub fn operating_rank(state: &State, sym: &str) -> Option<usize> {
    let mine = order_keys(state).find(|k| k.2 == sym)?;
    Some(
        order_keys(state)
            .filter(|k| k.2 != sym && order_cmp(k, &mine) == std::cmp::Ordering::Less)
            .count(),
    )
}

/// What the operating order sorts by, per started corporation (those with a market cell):
/// (price, cell, symbol).
type OrderKey<'a> = (i64, SharePrice, &'a str);

/// The [`OrderKey`]s of `state`'s corporations, in list order.
fn order_keys(state: &State) -> impl Iterator<Item = OrderKey<'_>> {
    state.corporations.iter().filter_map(|c| {
        let p = c.share_price?;
        Some((c.price().unwrap_or(0), p, c.sym.as_str()))
    })
}

/// The operating order's comparison ([`operating_order`], 1841 §6). Each tie-break is worked
/// out only on a tie (the names are compared last, and rarely).
fn order_cmp(a: &OrderKey, b: &OrderKey) -> std::cmp::Ordering {
    b.0.cmp(&a.0)
        .then_with(|| b.1.col.cmp(&a.1.col))
        .then_with(|| a.1.row.cmp(&b.1.row))
        .then_with(|| a.1.arrival.cmp(&b.1.arrival))
        .then_with(|| a.2.cmp(b.2))
}

/// The cell furthest right whose price is strictly below `twice_input` ÷ 2, the topmost
/// in that column (1841 §12.1 merger price, 18xx `merger_price`, FAQ-T); the input is given
/// doubled so that a minor average such as 64.5 stays exact. With no cell below the input
/// (minor averages of L.9 and less) the lowest cell is used: 18xx's L.72 (row 0, column 0)
/// for those inputs is a defect (1841-data.md §9; docs/games/1841.md I31).
pub fn cell_below(twice_input: i64) -> (u32, u32) {
    let mut best: Option<(u32, u32)> = None;
    let mut lowest: Option<(i64, u32, u32)> = None;
    for (r, row) in data::market().rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let (r, c) = (r as u32, c as u32);
            if lowest.is_none_or(|(p, _, _)| cell.price < p) {
                lowest = Some((cell.price, r, c));
            }
            if cell.price.saturating_mul(2) >= twice_input {
                continue;
            }
            best = match best {
                Some((br, bc)) if bc > c || (bc == c && br <= r) => Some((br, bc)),
                _ => Some((r, c)),
            };
        }
    }
    best.or(lowest.map(|(_, r, c)| (r, c))).unwrap_or((0, 0))
}

/// The new cell of a merger of two majors at prices `a` and `b` (1841 §12.1): `None` when
/// both are above L.250 (the initiator's president chooses one of the two prices); the
/// cell of the one above L.250 if only one is (`a_cell`/`b_cell`); else
/// [`cell_below`] of min(a + b, 250). With `price_cap` (option `merger_price_cap`, FAQ-T:
/// "243 and more → 242") always [`cell_below`] of min(a + b, 250), so at most L.242.
pub fn major_merger_cell(
    price_cap: bool,
    a: i64,
    a_cell: (u32, u32),
    b: i64,
    b_cell: (u32, u32),
) -> Option<(u32, u32)> {
    const CAP: i64 = 250;
    if price_cap {
        return Some(cell_below(2 * a.saturating_add(b).min(CAP)));
    }
    match (a > CAP, b > CAP) {
        (true, true) => None,
        (true, false) => Some(a_cell),
        (false, true) => Some(b_cell),
        (false, false) => Some(cell_below(2 * a.saturating_add(b).min(CAP))),
    }
}

/// The new cell of a merger of two minors at prices `a` and `b` (1841 §12.1): [`cell_below`]
/// the unrounded average.
pub fn minor_merger_cell(a: i64, b: i64) -> (u32, u32) {
    cell_below(a.saturating_add(b))
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

    /// 1841 §12.1, FAQ-T: the merger price tables (`engine/data/1841/merger_price_*.csv`,
    /// 18xx results for every input) agree with the rule, except the minor averages of L.9
    /// and less where 18xx's L.72 is a defect (interpretation I31: the lowest cell).
    #[test]
    fn s12_1_merger_price_tables() {
        let majors = include_str!("../../data/1841/merger_price_majors.csv");
        for line in majors.lines().skip(1) {
            let f: Vec<i64> = line.split(',').map(|x| x.parse().unwrap()).collect();
            let (r, c) = cell_below(2 * f[0]);
            assert_eq!(
                (price_at(r, c).unwrap(), r, c),
                (f[1], f[2] as u32, f[3] as u32),
                "{line}"
            );
        }
        let minors = include_str!("../../data/1841/merger_price_minors.csv");
        for line in minors.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let twice = (f[0].parse::<f64>().unwrap() * 2.0) as i64;
            let expected: Vec<i64> = f[1..].iter().map(|x| x.parse().unwrap()).collect();
            let (r, c) = cell_below(twice);
            if twice <= 18 {
                assert_eq!(expected, [72, 0, 0], "18xx defect row {line}");
                assert_eq!(price_at(r, c), Some(8));
                continue;
            }
            assert_eq!(
                [price_at(r, c).unwrap(), r as i64, c as i64],
                expected[..],
                "{line}"
            );
        }
        // Fixture 132002: SFLP 75 + SFMA 54 → L.53; AFI 53 + SSFL 16 → L.53.
        assert_eq!(minor_merger_cell(75, 54), (9, 8));
        assert_eq!(
            major_merger_cell(false, 53, (9, 8), 16, (10, 0)),
            Some((9, 8))
        );
        assert_eq!(
            major_merger_cell(false, 300, (1, 15), 100, (3, 5)),
            Some((1, 15))
        );
        assert_eq!(major_merger_cell(false, 300, (1, 15), 260, (2, 14)), None);
        // FAQ-T (`merger_price_cap`): 243 and more → L.242 (row 2, col 13), whatever the
        // prices; below L.250 the same cells as without the cap.
        for (a, b) in [(300, 100), (300, 260), (130, 113)] {
            let (r, c) = major_merger_cell(true, a, (1, 15), b, (2, 14)).unwrap();
            assert_eq!((price_at(r, c), r, c), (Some(242), 2, 13), "{a} + {b}");
        }
        assert_eq!(
            major_merger_cell(true, 53, (9, 8), 16, (10, 0)),
            Some((9, 8))
        );
        assert_eq!(
            major_merger_cell(true, 90, (3, 4), 60, (5, 2)),
            major_merger_cell(false, 90, (3, 4), 60, (5, 2))
        );
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
