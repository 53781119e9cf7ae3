//! Issue #22: the corporate share step (and a minor's transformation step) 18xx.games keeps
//! open for a corporation frozen in its own turn (1841 §7.4, §9.7; reviewed divergence `frozen-mid-turn-train-step`): the export
//! writes its `pass`, the importer drops it again.

use referee_engine::g1841::import18xx::{self, ReplaySettings};
use referee_engine::g1841::state::Round;
use serde_json::json;

mod common;
use common::g1841::{
    data, index_of, oracle_accepts, record, record_fields, records_between, reexport_text,
    reexported,
};

/// 1841 §7.4, §9.7, §12.4: SLDV (L.57) buys the first 4-train (id 318); after the split its
/// owner SB has its president's certificate in the pool, so no player controls SLDV and this
/// engine ends its turn when the events are over (the Tuscan merge's token removal, id 326).
/// 18xx.games goes on with a turn the pool controls: its `BuyTrain` step waits (another
/// corporation's train for L.1), then its `CorporateBuySellParShares` step lists purchases
/// (SFTN's pool share at L.48, SFTC's at L.8; the pool holds 50% of SFTN, 60% allowed). The
/// export writes SLDV's two passes (ids 327 and 328); before, it wrote only the first and the
/// oracle stopped at SFTG's lay, id 328 ("Blocking step Corporate Sell then Buy Shares").
/// Replayed, both passes are dropped again (and, since 2026-12-07, the third, for 18xx's
/// transformation step: the test below).
#[test]
fn s9_7_a_corporation_frozen_mid_turn_passes_its_share_step() {
    let (replayed, written) = reexported("v2-4p-random-s4102-to326");
    let Round::OperatingRound(r) = &written.state.round else {
        panic!("in an operating round");
    };
    assert_eq!(r.current.as_deref(), Some("SFTG"));
    assert!(r.done.iter().any(|c| c == "SLDV"));
    let records = written.json["actions"].as_array().unwrap();
    // Since 2026-12-07 also the pass of 18xx's transformation step (id 329,
    // the test below).
    assert_eq!(records.len(), 329);
    assert_eq!(record(&written, 326)["type"], "remove_token");
    for id in [327, 328, 329] {
        let pass = record(&written, id);
        assert_eq!(pass["type"], "pass", "id {id}");
        assert_eq!(pass["entity"], "SLDV", "id {id}");
        assert_eq!(pass["entity_type"], "corporation", "id {id}");
    }
    // The written export replays to the same actions, its three passes dropped (the cut ends
    // before them).
    let text = serde_json::to_string(&written.json).unwrap();
    let again = import18xx::replay(&text, &import18xx::ReplaySettings::default());
    assert_eq!(again.failure, None);
    assert_eq!(again.actions, replayed.actions);
    assert_eq!(
        again.records_dropped + again.passes_dropped,
        replayed.records_dropped + replayed.passes_dropped + 3
    );
}

/// 1841 §7.4 (a frozen corporation does nothing in its turn; it cannot merge), §12.2 (a
/// transformation is its president's decision), §12.4: v2, 4 players, random, seed 4102
/// (the harness stop of 2026-12-07, cut after id 334). SLDV buys the first 4-train (id 318);
/// after the split its owner SB has its president's certificate in the pool, so no player
/// controls SLDV and this engine ends its turn when the events are over (the Tuscan merge's
/// token removal, id 326). 18xx.games goes on with a turn the pool controls: its train step
/// (pass, id 327), its share step (pass, id 328), its merge step skipped (`mergeable?` asks
/// `frozen?`), and its transformation step, which offers SLDV a transformation
/// (`Transform#actions` never asks `frozen?`): the export writes SLDV's third pass (id 329)
/// and SFTG's turn follows (id 330). Before, SFTG's lay was id 329 and the oracle stopped
/// there ("Blocking step Transform minor into major cannot process action lay_tile"). The
/// written export replays to the same actions, the three passes dropped, and loads strictly
/// in the unmodified oracle to its last record.
#[test]
fn s7_4_a_minor_frozen_mid_turn_passes_18xxs_transformation_step() {
    let (replayed, written) = reexported("v2-4p-random-s4102-to334");
    assert_eq!(
        records_between(&written, 326, 330),
        [
            "remove_token SFLi",
            "pass SLDV",
            "pass SLDV",
            "pass SLDV",
            "lay_tile SFTG",
        ]
    );
    assert_eq!(record(&written, 329)["user"], 3);
    let Round::OperatingRound(r) = &written.state.round else {
        panic!("in an operating round");
    };
    assert_eq!(r.current.as_deref(), Some("SFTG"));
    assert_eq!(written.json["actions"].as_array().unwrap().len(), 334);

    let text = serde_json::to_string(&written.json).unwrap();
    let again = import18xx::replay(&text, &ReplaySettings::default());
    assert_eq!(again.failure, None);
    assert_eq!(again.actions, replayed.actions);
    assert_eq!(
        again.records_dropped + again.passes_dropped,
        replayed.records_dropped + replayed.passes_dropped
    );

    oracle_accepts("v2-4p-random-s4102-to334", &written.json, 334, false);
}

/// 1841 §7.4, §9.7, §12.4: a corporation frozen mid-turn by the events of its own 4-train,
/// with its train step already over. v2, 5 players, random, seed 5112: RSFS buys the first
/// 4-train (id 529, L.19 left); IRSFF splits and RSFS's president's certificate goes to SB,
/// whose own is in the pool (RSFS frozen); the Tuscan merge follows. After SFLi's last token
/// decision (id 533) this engine ends RSFS's turn, while 18xx.games waits in its corporate
/// share step (SFTN's pool share at L.9): the export writes RSFS's `pass` (534) before CGTF's
/// tile (535; before, 534 was CGTF's tile: "Blocking step Corporate Sell then Buy Shares").
#[test]
fn s7_4_a_corporation_frozen_in_its_share_step_passes_it() {
    let name = "v2-5p-random-s5112-to536.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(
        record_fields(&written, 533),
        json!({"type": "pass", "entity": "SFLi"})
    );
    assert_eq!(
        record_fields(&written, 534),
        json!({"type": "pass", "entity": "RSFS"})
    );
    assert_eq!(
        record_fields(&written, 535),
        json!({"type": "lay_tile", "entity": "CGTF"})
    );
    assert_eq!(index_of(&written, 535), 517);
    oracle_accepts(name, &written.json, 537, false);
}

/// 1841 §7.4, §9.7, §12.3: a corporation frozen mid-turn that could only sell. Version 1, 5
/// players, random, seed 5144 (the harness stop of 2026-12-07, cut after id 281): IFAI (L.4
/// after two emergency sales, ids 263-264) buys the first 4-train (id 265); the split and the
/// Tuscan merge follow (ids 266-276), and SFLi, IFAI's owner, has its president's certificate
/// in the pool: no player controls IFAI. 18xx.games goes on with its turn: its train step
/// (pass, id 277), then its corporate share step, which lists `sell_shares` (IFAI has
/// operated before and may issue its IPO shares, `can_sell_any?`) but no purchase. The
/// export now writes IFAI's second pass (id 278) before SFTG's lay (279); before, the lay was
/// 278 and the oracle stopped there ("Blocking step Corporate Sell then Buy Shares"). A
/// corporation frozen in its first turn, whose own shares may not be sold yet, gets no such
/// pass (p2p_purchases heuristic 4 players seed 4001: CFCC,
/// g1841_export_steps::s21_a_corporation_frozen_mid_turn_passes_its_train_step).
#[test]
fn s9_7_a_corporation_frozen_mid_turn_that_could_sell_passes_its_share_step() {
    let name = "version_1-5p-random-s5144-to281.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(
        record_fields(&written, 276),
        json!({"type": "choose", "entity": "RSFS"})
    );
    for id in [277, 278] {
        assert_eq!(
            record_fields(&written, id),
            json!({"type": "pass", "entity": "IFAI"}),
            "id {id}"
        );
    }
    assert_eq!(
        record_fields(&written, 279),
        json!({"type": "lay_tile", "entity": "SFTG"})
    );
    oracle_accepts(name, &written.json, 282, true);
}
