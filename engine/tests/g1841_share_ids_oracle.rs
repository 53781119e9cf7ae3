//! Share ids the 18xx.games engine refused in exports of this engine's games (issue #21/#22,
//! oracle harness stops of 2026-12-07). Where both engines hold the same certificates, the
//! export must still name 18xx's ids (`g1841::share_ledger`). Each test re-exports a cut
//! export `referee playout … --export-18xx` wrote (`tests/fixtures/1841/referee-exports/`,
//! `engine/tests/data/`; the importer reads this engine's own certificate indices back from
//! `referee_shares`), checks the records 18xx.games refused before the fix and, with Ruby and
//! the oracle (`REFEREE_ORACLE_18XX`, default `../shared/oracle-18xx`), that 18xx.games'
//! engine accepts the re-export strictly up to the fixture's last record.

use referee_engine::g1841::{CorporateEvent, Round, ShareOwner, State};
use serde_json::{Value, json};

mod common;
use common::g1841::{
    data, index_of, oracle_accepts, record, record_fields, reexport_text, state_at,
};

/// The text of `tests/fixtures/1841/referee-exports/{name}`.
fn referee_export(name: &str) -> String {
    common::fixture(&format!("referee-exports/{name}"))
}

/// 1841 §12.1, FAQ-R6 (a merger nobody presides is backed out), written as 18xx.games'
/// `undo` to the record before the proposal: the undo puts every certificate back under the
/// id it had there, so the export's share ledger must be the one of that record too. Lite,
/// 3 players, random, seed 3103 (cut at id 385): ATFA buys RATF_5 from the pool (id 348)
/// while ICSF holds RATF_1 (bought at id 172); ATFA proposes ICSF to form CTS (349–350),
/// every holder declines the presidency (351–353) and the undo (354) takes 18xx back to id
/// 348. The ledger followed the exchange into CTS and was then settled back by holding
/// counts, which gave RATF_1 to ATFA and RATF_5 to ICSF: ICSF's emergency sale of its RATF
/// share (1841 §14) at id 381 named RATF_5, ATFA's in 18xx, whose `BuyTrain` sold it for
/// ATFA (`process_sell_shares`: the bundle's owner sells) and swept Player 1's L.168 into
/// ICSF (`sweep_cash`), so ICSF had L.375 after the sale of 30% of its own shares at 383 and
/// refused the next 30% at 384 ("Blocking step Buy Trains cannot process action
/// sell_shares").
#[test]
fn s12_1_a_merger_backed_out_gives_back_the_share_ids_of_its_undo() {
    let name = "lite-3p-s3103-to385.json";
    let written = reexport_text(name, &referee_export(name));
    assert_eq!(
        record(&written, 348)["shares"],
        json!(["RATF_5"]),
        "ATFA's purchase from the pool"
    );
    let undo = record(&written, 354);
    assert_eq!(undo["type"], "undo");
    assert_eq!(undo["action_id"], 348);
    let sale = record(&written, 381);
    assert_eq!(
        (&sale["entity"], &sale["shares"], &sale["percent"]),
        (&json!("ICSF"), &json!(["RATF_1"]), &json!(10))
    );
    assert_eq!(
        sale.get("referee_shares"),
        None,
        "same index in both engines"
    );
    let own: Vec<&Value> = [383, 384]
        .iter()
        .map(|&id| &record(&written, id)["shares"])
        .collect();
    assert_eq!(
        own,
        [
            &json!(["ICSF_3", "ICSF_4", "ICSF_5"]),
            &json!(["ICSF_6", "ICSF_7", "ICSF_8"])
        ]
    );
    assert_eq!(record(&written, 385)["type"], "buy_train");
    oracle_accepts(name, &written.json, 385, false);
}

/// 1841 §12.3: the Tuscan merge of all three Tuscan minors is two mergers in one action
/// (18xx `tuscan_merge_start`: SFLP and SFMA form a holding corporation, which merges with
/// SSFL into SFLi), and the share ledger follows 18xx's three moves of the minors'
/// certificates of other corporations (`Ledger::chained_mergers`). Version 2, 7 players,
/// random, seed 7103 (cut at id 1033): SFTG is frozen, its president's certificate in the
/// pool; SSFL holds SFTG_1, SFLP SFTG_4, SFMA SFTG_8. At id 942 (SFL's token count ends the
/// split and the Tuscan merge runs) the holding corporation CFCC receives SFTG_4 and SFTG_8
/// and takes SFTG's presidency: 18xx's swap puts both into the pool and gives it SFTG_0,
/// which goes on to SFLi with SSFL's SFTG_1. The ledger used to settle this by holding
/// counts: SFLi kept SFTG_4 and SFTG_1 went to the pool, so player 1's purchase from the
/// pool at id 1031 named SFTG_8 and player 5's at id 1033 named SFTG_1, SFLi's in 18xx:
/// "Cannot buy a share of SFTG". Both engines agree on the holdings.
#[test]
fn s12_3_tuscan_merge_of_three_moves_the_share_ids_as_18xx() {
    let name = "v2-7p-s7103-to1033.json";
    let written = reexport_text(name, &referee_export(name));
    let merge = record(&written, 942);
    assert_eq!(
        (&merge["type"], &merge["entity"], &merge["choice"]),
        (&json!("choose"), &json!("SFL"), &json!(1))
    );
    let purchase = |id: i64| {
        let r = record(&written, id);
        (r["entity"].clone(), r["shares"].clone())
    };
    assert_eq!(purchase(1031), (json!(1), json!(["SFTG_4"])));
    assert_eq!(purchase(1033), (json!(5), json!(["SFTG_8"])));
    // With the listed corrections of ids 460 and 914 (transform-token-president-pays-first,
    // split-exchange-stale-frozen-holder).
    oracle_accepts(name, &written.json, 1033, true);
}

/// 1841 §11 step 2 (FAQ-C14) before §12.4: the first 4-train closes the concessions and
/// runs the delayed presidency check before the split, in the same action. `lite`, 5
/// players, random, seed 5105: at id 369 IRSFF, holding SFTG_2, SFTG_7 and SFTG_8 (30%
/// against player 4's 20%), becomes SFTG's president and gives player 4 its first two,
/// SFTG_2 and SFTG_7, for SFTG_0 (18xx `deferred_president_change`); the split then hands
/// out CTS_0 to SB, SFTG_0 to SFL and SFTG_8 to SB, and player 4, tied with SFL, takes the
/// presidency back for SFTG_2 and SFTG_7. SFL's sale of its 20% at id 395 names those two
/// (the ledger handed out IRSFF's three 10% shares as they were before the action and named
/// SFTG_8 and SFTG_7: "All shares must be owned by the same owner").
#[test]
fn s12_4_the_split_hands_out_what_irsff_holds_after_the_delayed_presidency_check() {
    let name = "lite-5p-random-s5105-to400.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(
        record_fields(&written, 395),
        json!({"type": "sell_shares", "entity": "SFL", "shares": ["SFTG_2", "SFTG_7"], "percent": 20})
    );
    oracle_accepts(name, &written.json, 400, false);
}

/// 1841 §12.4, 18xx `secession_move_treasury_shares`: IRSFF's certificates go to SB and SFL
/// alternately in 18xx's order, the president's certificate first where it is worth most;
/// the presidency changes the handing out causes are settled afterwards, not a reason to
/// hand out other ids. `p2p_purchases`, 5 players, random, seed 5103: at id 433 IRSFF holds
/// AFI_0 (its president's certificate), AFI_1 and AFI_2; SB gets AFI_0 and AFI_1, SFL
/// AFI_2, and player 4 keeps AFI_4 and AFI_3. The ledger gave IRSFF's 10% ids, last
/// received first, to the holders this engine's certificates ended with after its
/// presidency swaps, player 4 among them: player 4 "held" AFI_1 (SB's in 18xx), sold AFI_3
/// at id 786 and named AFI_1 in his sale at id 905 ("All shares must be owned by the same
/// owner"). Now he sells AFI_4 at id 786 and his AFI_3 and AFI_7 at id 905.
#[test]
fn s12_4_the_split_hands_out_irsffs_certificates_in_18xx_order() {
    let name = "p2p_purchases-5p-random-s5103-to910.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(
        record_fields(&written, 786),
        json!({"type": "sell_shares", "entity": 4, "shares": ["AFI_4"], "percent": 10})
    );
    assert_eq!(
        record_fields(&written, 905),
        json!({"type": "sell_shares", "entity": 4, "shares": ["AFI_3", "AFI_7"], "percent": 20})
    );
    oracle_accepts(name, &written.json, 910, false);
}

/// 1841 §12.3: the Tuscan merge is "carried out by the president of the participant with the
/// best stock value", fixed when it begins (18xx.games' `@tuscan_merge_decider`, used for the
/// last step's holder order, `@merger_decider`). `p2p_purchases`, 8 players, heuristic, seed
/// 8102 (cut at id 721): SSFL's 4-train (id 626)
/// starts it with SFLP's president player 4 (seat 3) deciding; SFLP transforms into the
/// holding AFI, whose presidency player 2 (seat 1) takes in the second purchase round (id
/// 635); the holding's merger with SSFL into SFLi (id 636) still asks its holders from
/// player 4 on. Before 2026-12-07 the decider was found again at the end (player 2, AFI's new
/// president), the ledger handed out SFLi's ids in that order, and player 2's purchase of
/// SFLi's pool share at id 692 named SFLi_5, player 6's in 18xx: player 6 sold for L.1 in
/// 18xx and player 4's cash differed by L.1 at id 721. Now it names SFLi_1.
#[test]
fn s12_3_the_tuscan_merge_keeps_its_decider_to_the_last_step() {
    let name = "p2p_purchases-8p-heuristic-s8102-to721.json";
    let text = data(name);
    let at = |id| state_at(&text, id);
    let event = |s: &State| match &s.round {
        Round::OperatingRound(r) => r.event.as_deref().cloned(),
        _ => None,
    };
    let s = at(635);
    assert_eq!(
        s.corporation("AFI").unwrap().president(),
        Some(&ShareOwner::Player(1))
    );
    let Some(CorporateEvent::Transformation(t)) = event(&s) else {
        panic!("SFLP's transformation into AFI");
    };
    assert_eq!((t.minor.as_str(), t.major.as_str()), ("SFLP", "AFI"));
    assert_eq!(t.decider, Some(3));
    let Some(CorporateEvent::Merger(m)) = event(&at(636)) else {
        panic!("the last step");
    };
    assert_eq!((m.initiator.as_str(), m.target.as_str()), ("AFI", "SFLi"));
    assert_eq!(m.holders.first(), Some(&ShareOwner::Player(3)));
    assert_eq!(m.decider, Some(3));
    let written = reexport_text(name, &text);
    assert_eq!(
        record_fields(&written, 692),
        json!({"type": "buy_shares", "entity": 2, "shares": ["SFLi_1"], "percent": 10})
    );
    oracle_accepts(name, &written.json, 721, false);
}

/// 1841 §12.1 (a merger nobody takes the presidency of fails), 18xx.games' `undo` of the
/// whole proposal: the certificates the old corporations held go back to them as they were,
/// the very ids. v2, 5 players, random, seed 5116: ILTF (SB_8) proposes a merger with IFAI
/// (SB_7) into CTDA (our index 801), nobody claims the presidency (803) and the export writes
/// 18xx's undo; the share ledger had handed CTDA's two SB shares back in index order (IFAI
/// SB_8, ILTF SB_7). At id 831 IFAI sells its SB share in its train step's emergency (1841
/// §14): written as SB_8, which after ILTF's later merger lay in the pool, 18xx.games crashed
/// ("undefined method `spender' for Engine::SharePool"). It is SB_7.
#[test]
fn s12_1_a_merger_backed_out_leaves_the_certificates_where_they_were() {
    let name = "v2-5p-random-s5116-to831.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(index_of(&written, 831), 821);
    assert_eq!(
        record_fields(&written, 831),
        json!({"type": "sell_shares", "entity": "IFAI", "shares": ["SB_7"], "percent": 10})
    );
    oracle_accepts(name, &written.json, 831, false);
}

/// 1841 §12.1 (holders exchange in order; the first to 20% of the new corporation presides),
/// §7.5 (a holder with strictly more takes the presidency): in 18xx.games every new share of
/// a merger of majors moves with `allow_president_change` (`merger_do_exchange`), so each
/// presidency change during the exchange swaps the new president's first two shares to the
/// previous president there and then. Version 2, 3 players, heuristic, seed 3153: AFI and
/// RATF merge into RSFS (id 952); player 1 (two pairs), player 3 (three) and player 2 (four)
/// preside in turn, so player 1 ends with RSFS_3 and RSFS_4 (player 3's first two), player 3
/// with RSFS_5, RSFS_6 and RSFS_7, and player 1's full share for his odd one (id 955) is
/// RSFS_2. The share ledger made only the last change, from player 1 to player 2: player 1's
/// sale in CTDA's emergency (1841 §14, id 1039) was written as RSFS_6 and RSFS_7, player 3's
/// in 18xx, which sold them for player 3 (the bundle's owner) and swept player 1's L.266
/// into CTDA: "CTDA has L.452 and cannot afford train" at id 1040.
#[test]
fn s12_1_each_presidency_change_in_a_mergers_exchange_swaps_the_first_two_shares() {
    let name = "v2-3p-heuristic-s3153-to1040.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(
        record_fields(&written, 1039),
        json!({"type": "sell_shares", "entity": 1, "shares": ["RSFS_3", "RSFS_4"], "percent": 20})
    );
    oracle_accepts(name, &written.json, 1040, false);
}

/// 1841 §12.1, §12.3: a minor merger's presidency taken by the presidency swap. 18xx.games'
/// `merger_minor_exchange` moves each new share with `allow_president_change`, so the first
/// holder to reach 20% while the president's certificate is in the IPO swaps his first two
/// shares, which go back to the end of the IPO, for it; a later 40% certificate then gets two
/// shares. Version 2, 3 players, random, seed 3163: at the Tuscan merge (18xx id 301) SFTN
/// exchanges SFMA's and SFLP's 20% for SFLi_1 and SFLi_2 and swaps them for SFLi_0; the pool
/// (SFMA's and SFLP's 40% certificates, three 20% shares) gets SFLi_3 to SFLi_8 and SFLi_1;
/// SFLi_2 stays in the IPO. Referee hands the pool's 40% the certificate, which moves on to
/// SFTN: the same holdings. CTDA's purchase of the IPO share at id 369 names SFLi_2 (the
/// ledger gave SFTN the certificate directly and named SFLi_8, a pool share in 18xx, which
/// bought it from the pool: L.76 to the bank instead of SFLi, "bank differs" at id 387).
#[test]
fn s12_3_a_minor_mergers_presidency_by_swap_moves_the_share_ids_as_18xx() {
    let name = "v2-3p-random-s3163-to400.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(
        record_fields(&written, 369),
        json!({"type": "buy_shares", "entity": "CTDA", "shares": ["SFLi_2"], "percent": 10})
    );
    let at = index_of(&written, 369);
    let state = state_at(&data(name), 369);
    let sfli = state.corporation("SFLi").unwrap();
    assert!(
        sfli.certificates.iter().all(|c| c.owner != ShareOwner::Ipo),
        "CTDA bought SFLi's last IPO share (our index {at})"
    );
    oracle_accepts(name, &written.json, 400, true);
}
