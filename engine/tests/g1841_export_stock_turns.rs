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
use common::g1841::{oracle_accepts, record, records_between, reexported, state_at};

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

/// 1841 §5.2, §7.5 (interpretation I15): a historical corporation's president's certificate
/// in the pool is not for sale before phase 4; 18xx.games' `can_buy_any_from_market?` asks
/// `can_buy_shares?` of the smallest pool certificate, which never asks `pres_change_ok?`,
/// and so keeps the stock turn open. Version 2, random, 6 players, seed 6125: in Stock Round 4
/// (phase 3) Player 5 (L.65, 1 certificate) sells RSFS (id 557); SFMA's 40% president's
/// certificate lies alone in the pool at L.24 (L.48 for it). This engine ends his turn; the
/// export writes his `pass` (id 558, no action of ours). Before: Player 6's sale at id 558,
/// refused by the oracle ("Blocking step Sell then Buy Shares or Concessions cannot process
/// action sell_shares", expecting Player 5).
#[test]
fn s22_a_stock_turn_open_for_a_pool_presidency_before_phase_4_is_passed() {
    let name = "v2-6p-random-s6125-to560";
    let (replayed, written) = reexported(name);
    assert_eq!(written.actions_exported, 560);
    assert_eq!(
        records_between(&written, 556, 560),
        [
            "buy_shares 3",
            "sell_shares 5",
            "pass 5",
            "sell_shares 6",
            "buy_shares 6"
        ]
    );
    assert!(written.action_ids.contains(&557) && !written.action_ids.contains(&558));
    let text = written.json.to_string();
    let state = state_at(&text, 557);
    let sfma = state.corporation("SFMA").unwrap();
    let in_pool: Vec<(u32, bool)> = sfma
        .certificates
        .iter()
        .filter(|c| c.owner == referee_engine::g1841::state::ShareOwner::Pool)
        .map(|c| (c.percent, c.president))
        .collect();
    assert_eq!((state.phase.as_str(), in_pool), ("3", vec![(40, true)]));
    reimports_to(&written, &replayed.actions);
    oracle_accepts(name, &written.json, 560, true);
}

/// Interpretation I35 with a merger: 18xx.games keeps a closed historical corporation's IPO
/// in the order its certificates came back, and a merger's exchange gives them back holder by
/// holder from the decider (18xx `merger_share_holder_list`, `merger_do_exchange`), each
/// holder's largest first. Version 2, random, 8 players, seed 8117: the Tuscan merge's last
/// step (phase 4) closes SSFL with no unsold IPO share, and a holder before SSFL's president
/// gives back an ordinary share first (18xx: SSFL_3), so from then on 18xx prices SSFL's
/// `par` at one L.68 share (`can_ipo_any?`, `can_par?` not looking at `closed?`). In Stock
/// Round 4 Player 4 sells RSFS (id 759) and, with L.88, is offered that `par`; this
/// engine ends his turn, the export writes his `pass` (id 760). Before: the president's
/// certificate was taken as the first back (L.136), no pass, and Player 8's `pass` at id 760
/// was refused by the oracle (expecting Player 4).
#[test]
fn s22_a_closed_ssfl_gives_back_an_ordinary_share_first_in_the_tuscan_merge() {
    let name = "v2-8p-random-s8117-to762";
    let (replayed, written) = reexported(name);
    assert_eq!(written.actions_exported, 762);
    assert_eq!(
        records_between(&written, 758, 762),
        [
            "buy_shares 3",
            "sell_shares 4",
            "pass 4",
            "pass 8",
            "pass 2"
        ]
    );
    assert!(written.action_ids.contains(&759) && !written.action_ids.contains(&760));
    let text = written.json.to_string();
    let state = state_at(&text, 759);
    let ssfl = state.corporation("SSFL").unwrap();
    assert_eq!(
        (
            state.phase.as_str(),
            ssfl.closed,
            ssfl.ipo_first_share_ordinary
        ),
        ("4", true, true)
    );
    reimports_to(&written, &replayed.actions);
    oracle_accepts(name, &written.json, 762, true);
}
