//! Issue #22: the cash of a Ferdinandea split successor (1841 §12.4) after the split handed
//! out IRSFF's certificates of equal price (reviewed divergence
//! `split-treasury-ties-in-hash-order`, patched in the oracle). Two harness games of
//! 2026-12-07 differed in SB's cash at a round change (lite random 6 players seed 8002, id
//! 738: ours L.64, 18xx L.69; p2p_purchases random 7 players seed 9002, id 1028: ours L.138,
//! 18xx L.150): 18xx.games breaks the tie by the insertion order of IRSFF's holdings hash, a
//! by-product of which code first looked them up, and gave SB the certificate Referee gave
//! SFL, whose later sale then paid SB there.

mod common;
use common::g1841::{oracle, patched_oracle_report, state_at};
use referee_engine::g1841::import18xx::{self, ReplaySettings};
use referee_engine::g1841::state::{ShareOwner, State};
use serde_json::Value;
use std::path::{Path, PathBuf};

const ENTRY: &str = "split-treasury-ties-in-hash-order";
const FIXTURE: &str = "split-treasury-ties-in-hash-order-lite-random-6p-s8002.json";

fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/oracle/fixtures")
        .join(FIXTURE)
}

fn fixture_text() -> String {
    let path = fixture_path();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The percent of `sym` that corporation `holder` holds.
fn percent(state: &State, holder: &str, sym: &str) -> u32 {
    let owner = ShareOwner::Corporation(holder.to_string());
    state.corporation(sym).map_or(0, |c| {
        c.certificates
            .iter()
            .filter(|x| x.owner == owner)
            .map(|x| x.percent)
            .sum()
    })
}

fn cash(state: &State, sym: &str) -> i64 {
    state.corporation(sym).map_or(-1, |c| c.cash)
}

/// 1841 §12.4: at the split IRSFF's certificates of other corporations alternate SB, SFL by
/// descending price; of equal prices Referee takes the later corporation of 18xx.games' corporation
/// list first (split/dissolution.rs). Lite, 6 players, random, seed 8002: CTS buys the first
/// 4-train (id 665); IRSFF holds 10% each of CFCC (L.62), SFTN and SFTC (L.10 each): SB gets
/// CFCC's, SFL the later of the equal ones, SFTC's, and SB SFTN's (18xx.games, unpatched: SFTC's to
/// SB, SFTN's to SFL). SFL's emergency sale of its SFTC share (id 695, half of L.10) pays SFL, not
/// SB: SB's cash stays L.22 until CGTF buys a 10% SB share from SB's treasury (id 729, L.16: L.38)
/// and the merger of CFCC into CTS (ids 734-738) brings SB L.26 for its CFCC share: L.64 at the
/// stock round.
#[test]
fn s12_4_equal_treasury_certificates_and_sbs_cash() {
    let text = fixture_text();
    let split = state_at(&text, 665);
    assert_eq!(percent(&split, "SB", "CFCC"), 10);
    assert_eq!(percent(&split, "SB", "SFTN"), 10);
    assert_eq!(percent(&split, "SB", "SFTC"), 0);
    assert_eq!(percent(&split, "SFL", "SFTC"), 10);
    assert_eq!(percent(&split, "SFL", "SFTN"), 0);
    assert_eq!(cash(&split, "SB"), 22);

    let sold = state_at(&text, 699);
    assert_eq!(cash(&sold, "SB"), 22, "SFL's sale of SFTC pays SFL");
    assert_eq!(percent(&sold, "SB", "SFTN"), 10);

    assert_eq!(cash(&state_at(&text, 729), "SB"), 38);
    assert_eq!(cash(&state_at(&text, 733), "SB"), 38);

    let stock_round = state_at(&text, 738);
    assert_eq!(cash(&stock_round, "SB"), 64);
    assert_eq!(percent(&stock_round, "SB", "CFCC"), 0);
}

/// The patched driver's report on the fixture: up to `at` (with round-change snapshots) or to
/// the end (without), with only this entry's patch or with none.
fn oracle_report(dir: &Path, patched: bool, at: Option<i64>) -> Value {
    patched_oracle_report(dir, patched.then_some(&[ENTRY][..]), &fixture_path(), at)
}

/// SB in the oracle's round-change snapshot after `id`.
fn oracle_sb(report: &Value, id: i64) -> Value {
    report["snapshots"]
        .as_array()
        .expect("snapshots")
        .iter()
        .filter(|s| s["kind"] == "round" && s["at"] == id)
        .flat_map(|s| s["corps"].as_array().cloned().unwrap_or_default())
        .find(|c| c["sym"] == "SB")
        .unwrap_or_else(|| panic!("no SB at {id}: {report}"))
}

/// The oracle patch `split-treasury-ties-in-hash-order`: unmodified, 18xx.games gives SB
/// SFTC's certificate (IRSFF's hash has SFTC's key before SFTN's) and SFL's sale of it (id
/// 695) pays SB L.5: SB L.69 at id 738. Patched, it takes the corporation order as Referee
/// does (SB L.64, SFTN's certificate), names the correction at id 665, and the game replays to
/// its end with Referee's result.
#[test]
fn s12_4_oracle_takes_equal_treasury_certificates_in_corporation_order() {
    let Some(dir) = oracle() else {
        println!("SKIPPED: no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return;
    };
    let plain = oracle_report(&dir, false, Some(738));
    assert_eq!(plain["error"], Value::Null, "{plain}");
    let sb = oracle_sb(&plain, 686);
    assert_eq!(sb["shares"]["SFTC"], 10, "{sb}");
    assert_eq!(sb["shares"].get("SFTN"), None, "{sb}");
    assert_eq!(oracle_sb(&plain, 738)["cash"], 69);

    let patched = oracle_report(&dir, true, Some(738));
    assert_eq!(patched["error"], Value::Null, "{patched}");
    let sb = oracle_sb(&patched, 686);
    assert_eq!(sb["shares"]["SFTN"], 10, "{sb}");
    assert_eq!(sb["shares"]["CFCC"], 10, "{sb}");
    assert_eq!(sb["shares"].get("SFTC"), None, "{sb}");
    assert_eq!(oracle_sb(&patched, 738)["cash"], 64);
    let corrections = patched["corrections"].as_array().expect("corrections");
    assert!(
        corrections
            .iter()
            .any(|c| c["id"] == ENTRY && c["action_id"] == 665),
        "{corrections:?}"
    );

    let full = oracle_report(&dir, true, None);
    assert_eq!(full["error"], Value::Null, "{full}");
    assert_eq!(full["finished"], true, "{full}");
    assert_eq!(full["game_end_reason"], "bankrupt");
    let ours = import18xx::replay(
        &fixture_text(),
        &ReplaySettings {
            check: true,
            stop_at_action_id: None,
        },
    );
    assert_eq!(ours.failure, None);
    for (player, value) in [
        ("1", 0),
        ("2", -1000),
        ("3", -500),
        ("4", 0),
        ("5", 0),
        ("6", -1533),
    ] {
        assert_eq!(full["result"][player], value, "player {player}: {full}");
    }
}
