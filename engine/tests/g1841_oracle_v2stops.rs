//! Stops of the oracle harness (seed 101, Version 2, random policy, 2026-12-07) in our
//! exports to 18xx.games' format (issue #21/#22). Each test re-exports a cut of the export
//! `referee playout … --export-18xx` wrote before the fix (under `engine/tests/data/`; the
//! importer reads our own certificate indices back from `referee_shares`), checks the records
//! 18xx.games refused, by id, and — with Ruby and the oracle (`REFEREE_ORACLE_18XX`, default
//! `../shared/oracle-18xx`) — loads the re-export strictly in it up to the cut's last record.

use referee_engine::g1841::export18xx::Exported;
use referee_engine::g1841::import18xx::{ReplaySettings, replay};
use serde_json::{Value, json};

mod common;
use common::g1841::{export_again, oracle, record};

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

/// The fields of record `id` that name what it does.
fn fields(written: &Exported, id: i64) -> Value {
    let r = record(written, id);
    let mut out = serde_json::Map::new();
    for k in ["type", "entity", "shares", "percent"] {
        if let Some(v) = r.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    Value::Object(out)
}

/// Our action index carried by record `id`.
fn index_of(written: &Exported, id: i64) -> usize {
    written.action_ids.iter().position(|&x| x == id).unwrap()
}

/// Loads `written` strictly in the oracle up to record `last` and checks it accepts every
/// record; skips with a notice without Ruby or the oracle.
fn oracle_accepts(name: &str, written: &Exported, last: i64) {
    let Some(dir) = oracle() else {
        println!("SKIPPED (oracle part): no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return;
    };
    let path = std::env::temp_dir().join(format!("referee-v2stops-{}-{name}", std::process::id()));
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
    let written = reexport_data(name);
    assert_eq!(index_of(&written, 831), 821);
    assert_eq!(
        fields(&written, 831),
        json!({"type": "sell_shares", "entity": "IFAI", "shares": ["SB_7"], "percent": 10})
    );
    oracle_accepts(name, &written, 831);
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
    let written = reexport_data(name);
    assert_eq!(
        fields(&written, 533),
        json!({"type": "pass", "entity": "SFLi"})
    );
    assert_eq!(
        fields(&written, 534),
        json!({"type": "pass", "entity": "RSFS"})
    );
    assert_eq!(
        fields(&written, 535),
        json!({"type": "lay_tile", "entity": "CGTF"})
    );
    assert_eq!(index_of(&written, 535), 517);
    oracle_accepts(name, &written, 537);
}
