//! Issue #22: the Tuscan merge's minor merger at the bottom of the market (1841 §12.1,
//! §12.3; reviewed divergence `minor-merger-price-at-the-market-bottom`, patched in the
//! oracle): SFLP at L.9 and SFMA at L.8 give L.8 here, L.72 in 18xx.games (a harness stop of
//! 2026-12-07).

use referee_engine::g1841::state::{ShareOwner, State};

mod common;
use common::g1841::state_at;

/// The text of `tests/oracle/fixtures/<name>`.
fn oracle_fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/oracle/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn price(state: &State, sym: &str) -> Option<i64> {
    state.corporation(sym).and_then(|c| c.price())
}

fn cash(state: &State, seat: usize) -> i64 {
    state.players[seat].cash
}

/// 1841 §12.1 (minors: the cell furthest right strictly below the unrounded average, the
/// topmost in that column; none below → the lowest cell, interpretation I31), §12.3 (the
/// Tuscan merge uses the normal price rules), FAQ-T. `version_1`, 8 players, random, seed 8103
/// (Referee's export; the harness stop of 2026-12-07): SSFL buys the first 4-train (id 562);
/// after the split the Tuscan merge (id 566) merges SFLP (L.9) and SFMA (L.8) into the holding
/// CFCC: average 8.5, so L.8 (row 12, column 0; 18xx.games: L.72, row 0, column 0, a defect
/// of its search below L.9.5); then CFCC + SSFL (L.53 after its dividend, id 561): sum 61, so
/// L.53 (18xx: 72 + 53 = 125 → L.106). The merger's payments are at L.53: player 6 (SSFL's
/// president, 30% of the old shares) claims the presidency for (40 − 30)/20 × 53 = 26.5,
/// rounded down L.26 (id 567), player 3 turns his odd share into a full one for half of L.53
/// rounded down, L.26 (id 568), player 2 sells his for L.26 (id 569); 18xx.games charged and
/// paid L.53 each (at L.106), and the bank differed at the next round change (id 605: ours
/// 12291, 18xx 12184). With the oracle patch the game agrees to its end (g1841_oracle_patches).
#[test]
fn s12_1_minor_merger_price_below_l9_is_the_lowest_cell() {
    let text =
        oracle_fixture("minor-merger-price-at-the-market-bottom-version_1-random-8p-s8103.json");
    let before = state_at(&text, 565);
    assert_eq!(price(&before, "SFLP"), Some(9));
    assert_eq!(price(&before, "SFMA"), Some(8));
    assert_eq!(price(&before, "SSFL"), Some(53));

    // The first step of the merge ran with the split's last choice: CFCC at L.8.
    let merged = state_at(&text, 566);
    let cfcc = merged.corporation("CFCC").expect("CFCC");
    let cell = cfcc.share_price.expect("CFCC started");
    assert_eq!((cell.row, cell.col, cfcc.price()), (12, 0, Some(8)));
    assert_eq!(price(&merged, "SFLi"), Some(53));

    // The payments of the exchange at L.53 (player ids 6, 3, 2 sit at seats 5, 2, 1).
    let after = state_at(&text, 571);
    assert_eq!(price(&after, "SFLi"), Some(53));
    let sfli = after.corporation("SFLi").expect("SFLi");
    assert_eq!(
        sfli.president(),
        Some(&ShareOwner::Player(5)),
        "player 6 presides"
    );
    assert_eq!(cash(&merged, 5) - cash(&after, 5), 26, "player 6's claim");
    assert_eq!(
        cash(&merged, 2) - cash(&after, 2),
        26,
        "player 3's full share"
    );
    assert_eq!(cash(&after, 1) - cash(&merged, 1), 26, "player 2's sale");
}
