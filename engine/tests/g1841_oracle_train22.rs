//! Issue #21/#22: two stops of the 2026-12-07 oracle harness run (helper train22). Each test
//! re-exports a cut export `referee playout … --export-18xx` wrote for
//! `scripts/oracle_harness.py` (`tests/fixtures/1841/referee-exports/`; the importer reads
//! this engine's own certificate indices back from `referee_shares`), checks the records
//! 18xx.games refused before the fix and, with Ruby and the oracle (`REFEREE_ORACLE_18XX`,
//! default `../shared/oracle-18xx`), that 18xx.games' engine accepts the re-export strictly
//! up to the fixture's last record.

use referee_engine::g1841::export18xx::Exported;
use referee_engine::g1841::import18xx::{ReplaySettings, replay};
use serde_json::{Value, json};

mod common;
use common::g1841::{export_again, oracle, record};

fn fixture(name: &str) -> String {
    common::fixture(&format!("referee-exports/{name}"))
}

/// The fixture imported and written again.
fn reexport(name: &str) -> Exported {
    let original = replay(&fixture(name), &ReplaySettings::default());
    assert_eq!(original.failure, None, "{name}");
    let written = export_again(&original);
    assert_eq!(written.failure, None, "{name}");
    written
}

/// Loads `written` strictly in the oracle (with the project's patches when `patched`:
/// `tests/oracle/patched_oracle.rb`, the listed corrections of `tests/oracle/divergences.json`)
/// up to record `last` and checks it accepts every record; skips with a notice without Ruby
/// or the oracle.
fn oracle_accepts(name: &str, written: &Exported, last: i64, patched: bool) {
    let Some(dir) = oracle() else {
        println!("SKIPPED (oracle part): no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return;
    };
    let path = std::env::temp_dir().join(format!("referee-train22-{}-{name}", std::process::id()));
    std::fs::write(&path, serde_json::to_string(&written.json).unwrap()).unwrap();
    let driver = if patched {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/oracle/patched_oracle.rb")
    } else {
        dir.join("oracle.rb")
    };
    let out = std::process::Command::new("ruby")
        .arg(driver)
        .env("REFEREE_ORACLE_18XX", &dir)
        .arg("--no-snapshots")
        .arg("--at")
        .arg(last.to_string())
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(report["error"], Value::Null, "{name}: {report}");
    assert_eq!(report["last_ok_action"], last, "{name}: {report}");
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
    let written = reexport(name);
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
    oracle_accepts(name, &written, 385, false);
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
    let written = reexport(name);
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
    oracle_accepts(name, &written, 1033, true);
}
