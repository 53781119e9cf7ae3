//! The order of 18xx.games' share certificates at the Ferdinandea split (1841 §12.4), where
//! the export's share ledger (`g1841::share_ledger`) must name the certificates 18xx.games
//! holds. Each test re-exports a game `referee playout … --export-18xx` wrote for
//! `scripts/oracle_harness.py` on main 7c7e8a3 (the fixture: that export cut a few records
//! after the point checked; the importer reads our own indices back from `referee_shares`)
//! and checks the record 18xx.games refused before the fix against what 18xx.games' engine
//! holds there. With Ruby and the oracle (`REFEREE_ORACLE_18XX`, default
//! `../shared/oracle-18xx`) each re-export is also loaded strictly in it up to the fixture's
//! last record.

use referee_engine::g1841::export18xx::Exported;
use referee_engine::g1841::import18xx::{ReplaySettings, replay};
use serde_json::{Value, json};

mod common;
use common::g1841::{export_again, oracle};

/// The cut export `engine/tests/data/{name}` imported and written again.
fn reexport_data(name: &str) -> Exported {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let original = replay(&text, &ReplaySettings::default());
    assert_eq!(original.failure, None, "{name}");
    let written = export_again(&original);
    assert_eq!(written.failure, None, "{name}");
    written
}

/// The fields of the record with id `id` that name what it moves.
fn record(written: &Exported, id: i64) -> Value {
    let r = &written.json["actions"].as_array().unwrap()[usize::try_from(id - 1).unwrap()];
    assert_eq!(r["id"], id);
    let mut out = serde_json::Map::new();
    for k in ["type", "entity", "shares", "percent"] {
        if let Some(v) = r.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    Value::Object(out)
}

/// Loads `written` strictly in the oracle up to record `last` and checks it accepts every
/// record; skips with a notice without Ruby or the oracle.
fn oracle_accepts(name: &str, written: &Exported, last: i64) {
    let Some(dir) = oracle() else {
        println!("SKIPPED (oracle part): no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return;
    };
    let path = std::env::temp_dir().join(format!("referee-order22-{}-{name}", std::process::id()));
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
    let written = reexport_data(name);
    assert_eq!(
        record(&written, 395),
        json!({"type": "sell_shares", "entity": "SFL", "shares": ["SFTG_2", "SFTG_7"], "percent": 20})
    );
    oracle_accepts(name, &written, 400);
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
    let written = reexport_data(name);
    assert_eq!(
        record(&written, 786),
        json!({"type": "sell_shares", "entity": 4, "shares": ["AFI_4"], "percent": 10})
    );
    assert_eq!(
        record(&written, 905),
        json!({"type": "sell_shares", "entity": 4, "shares": ["AFI_3", "AFI_7"], "percent": 20})
    );
    oracle_accepts(name, &written, 910);
}
