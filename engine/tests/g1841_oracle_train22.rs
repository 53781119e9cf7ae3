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

/// Loads `written` strictly in the unmodified oracle up to record `last` and checks it
/// accepts every record; skips with a notice without Ruby or the oracle.
fn oracle_accepts(name: &str, written: &Exported, last: i64) {
    let Some(dir) = oracle() else {
        println!("SKIPPED (oracle part): no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return;
    };
    let path = std::env::temp_dir().join(format!("referee-train22-{}-{name}", std::process::id()));
    std::fs::write(&path, serde_json::to_string(&written.json).unwrap()).unwrap();
    let out = std::process::Command::new("ruby")
        .arg(dir.join("oracle.rb"))
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
    oracle_accepts(name, &written, 385);
}
