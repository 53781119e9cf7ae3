//! Issue #22: stock-round records of Referee's 18xx.games export (the stock turns 18xx.games
//! keeps open, the certificates a purchase names). Each test re-exports a game `referee
//! playout … --export-18xx` wrote for `scripts/oracle_harness.py`, cut after the point
//! checked (`tests/fixtures/1841/exported/`, written by the fixed export; the oracle loads it
//! strictly to its last record), and checks the records against what 18xx.games' engine
//! holds there.

use referee_engine::Seat;
use referee_engine::g1841::Action;
use referee_engine::g1841::export18xx::Exported;
use referee_engine::g1841::import18xx;
use serde_json::json;

mod common;
use common::g1841::{record, records_between, reexported};

/// The export read back gives the same actions.
fn reimports_to(written: &Exported, history: &[(Seat, Action)]) {
    let text = written.json.to_string();
    let replayed = import18xx::replay(&text, &import18xx::ReplaySettings::default());
    assert_eq!(replayed.failure, None);
    assert!(replayed.actions == history, "the reimport differs");
}

/// FAQ-R1, 1841 §5.3, §7.4: no sale may put corporations under mutual control; 18xx.games
/// offers it (`can_sell_any?`; its circular check never fires, reviewed divergence
/// `circular-control-never-flagged`) and so keeps the stock turn open. Version 1, random, 5
/// players, seed 5102: in Stock Round 5 Player 2 (president of RATF with its 20% president's
/// certificate; RATF, through its 20% of RSFS, is RSFS's president; RSFS holds 20% of RATF)
/// sells his CTLP (id 344, L.61 after it); he can buy nothing and his only other sale, 10% of
/// RATF, would make RSFS the president of RATF. This engine ends his turn; the export writes
/// his `pass` (id 345, no action of ours). Before: Player 1's sale at id 345, refused by the
/// oracle ("Blocking step Sell then Buy Shares or Concessions cannot process action
/// sell_shares").
#[test]
fn s22_a_stock_turn_open_for_a_sale_into_mutual_control_is_passed() {
    let (replayed, written) = reexported("version_1-5p-random-s5102-to347");
    assert_eq!(written.actions_exported, 347);
    assert_eq!(
        records_between(&written, 343, 347),
        [
            "pass 3",
            "sell_shares 2",
            "pass 2",
            "sell_shares 1",
            "buy_shares 1"
        ]
    );
    assert!(written.action_ids.contains(&344) && !written.action_ids.contains(&345));
    assert_eq!(written.action_ids.len(), replayed.actions.len());
    reimports_to(&written, &replayed.actions);
}

/// 1841 §5.2, §7.4: a single pool share that brings the buyer to the size of a president's
/// certificate lying in the pool swaps it for two of his shares; the record names the share
/// bought, as 18xx.games buys it (its presidency swap follows). Version 1, random, 3 players,
/// seed 3104: in Stock Round 8 Player 1 (SFLP 20%, L.34) buys a 20% SFLP share from the pool
/// at L.8 (id 537), where SFLP's 40% president's certificate (SFLP_0) and one 20% share
/// (SFLP_3) lie; he becomes SFLP's president. Before, the record named SFLP_0 (the
/// certificate that left the pool) with 20%, refused by the oracle ("Cannot buy a share of
/// SFLP": SFLP_0 alone is 40%, beyond his 60%). The re-export writes it at id 538: the
/// merger backed out at id 341 now also asks player 3, a holder of 30%, in its sweep over odd
/// shares (1841 §12.1), one `choose` more before its `undo`.
#[test]
fn s22_a_pool_share_that_swaps_the_presidency_names_the_share_bought() {
    let (replayed, written) = reexported("version_1-3p-random-s3104-to538");
    assert_eq!(written.actions_exported, 539);
    let decline = record(&written, 346);
    assert_eq!(
        (&decline["type"], &decline["entity"], &decline["choice"]),
        (&json!("choose"), &json!(3), &json!("no"))
    );
    let r = record(&written, 538);
    assert_eq!(
        (&r["type"], &r["entity"], &r["shares"], &r["percent"]),
        (
            &json!("buy_shares"),
            &json!(1),
            &json!(["SFLP_3"]),
            &json!(20)
        )
    );
    reimports_to(&written, &replayed.actions);
}
