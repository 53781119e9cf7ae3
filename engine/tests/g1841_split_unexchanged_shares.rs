//! Issue #22: IRSFF shares that cannot be exchanged at the Version 1 Ferdinandea split (1841
//! §12.4, FAQ-R3; reviewed divergence `v1-split-unexchanged-irsff-shares-stay`, patched in the
//! oracle). SFV and SFL, Version 1 minors, have three ordinary shares each: once both are sold
//! out, the odd IRSFF shares not yet exchanged are paid out with `ferdinandea_unexchanged_payout`
//! (FAQ-R3) and lost without it, as in 18xx.games, which however leaves them with their
//! holders. Eight version_1 games of the 1,000-game scale run of 2026-12-07 differed in the pool
//! at the next round change.

mod common;
use common::g1841::{oracle, patched_oracle_report, state_at};
use referee_engine::g1841::import18xx::{self, ReplaySettings};
use referee_engine::g1841::state::{ShareOwner, State};
use serde_json::Value;
use std::path::{Path, PathBuf};

const ENTRY: &str = "v1-split-unexchanged-irsff-shares-stay";
const FIXTURE: &str = "v1-split-unexchanged-irsff-shares-stay-version_1-random-5p-s5109.json";
/// The patches the example game needs before the split's exchanges (IRSFF's president's
/// certificate is in the pool; SSFL is frozen).
const BEFORE: &[&str] = &[
    "split-irsff-president-in-pool",
    "split-exchange-stale-frozen-holder",
];

fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/oracle/fixtures")
        .join(FIXTURE)
}

fn fixture_text() -> String {
    let path = fixture_path();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The percent of `sym` that `owner` holds.
fn percent(state: &State, owner: &ShareOwner, sym: &str) -> u32 {
    state.corporation(sym).map_or(0, |c| {
        c.certificates
            .iter()
            .filter(|x| &x.owner == owner)
            .map(|x| x.percent)
            .sum()
    })
}

fn corp(sym: &str) -> ShareOwner {
    ShareOwner::Corporation(sym.to_string())
}

/// 1841 §12.4, FAQ-R3, Version 1 without `ferdinandea_unexchanged_payout`: SFTN buys the first
/// 4-train (id 595) with IRSFF's president's certificate and 40% in the pool. Both presidencies
/// go to the pool, the pool's pair becomes one SFV and one SFL share, and the odd shares of
/// SFTC, ICSF, RSFS and SSFL (in holder order) take the last two ordinary shares of each
/// successor (ids 596-597). SFLP's and the pool's odd shares find none left and are lost:
/// after the split nobody holds IRSFF, and the pool holds 60% of SFV and of SFL (the
/// president's certificate and one share each). The Tuscan merge follows at once (the first
/// 4-train, 1841 §12.3): SFLi takes SSFL's SFV share and nothing of SFLP's IRSFF share.
#[test]
fn s12_4_v1_odd_shares_left_when_both_successors_are_sold_out_are_lost() {
    let text = fixture_text();
    let before = state_at(&text, 594);
    assert_eq!(percent(&before, &ShareOwner::Pool, "IRSFF"), 50);
    assert_eq!(percent(&before, &corp("SFLP"), "IRSFF"), 10);

    let split = state_at(&text, 597);
    assert!(
        split
            .corporation("IRSFF")
            .is_none_or(|c| c.certificates.iter().all(|x| !matches!(
                x.owner,
                ShareOwner::Pool | ShareOwner::Player(_) | ShareOwner::Corporation(_)
            )))
    );
    assert_eq!(percent(&split, &ShareOwner::Pool, "SFV"), 60);
    assert_eq!(percent(&split, &ShareOwner::Pool, "SFL"), 60);
    for (holder, sym) in [
        ("SFTC", "SFV"),
        ("SFLi", "SFV"),
        ("ICSF", "SFL"),
        ("RSFS", "SFL"),
    ] {
        assert_eq!(percent(&split, &corp(holder), sym), 20, "{holder} {sym}");
    }
    assert_eq!(percent(&split, &corp("SFLi"), "SFL"), 0);
    assert_eq!(percent(&split, &corp("SFLi"), "IRSFF"), 0);
}

/// The patched driver's report on the fixture with the patches `ids`: up to `at` with
/// round-change snapshots, or to the end without.
fn oracle_report(dir: &Path, ids: &[&str], at: Option<i64>) -> Value {
    patched_oracle_report(dir, Some(ids), &fixture_path(), at)
}

/// The oracle's round-change snapshot after `id`.
fn snapshot_at(report: &Value, id: i64) -> Value {
    report["snapshots"]
        .as_array()
        .expect("snapshots")
        .iter()
        .find(|s| s["kind"] == "round" && s["at"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no snapshot at {id}: {report}"))
}

/// The oracle patch `v1-split-unexchanged-irsff-shares-stay`: unmodified, 18xx.games leaves
/// SFLP's IRSFF_8 (in SFLi's treasury after the Tuscan merge) and the pool's IRSFF_4 where
/// they are (IRSFF 10% in the pool and in SFLi's treasury at the stock round after id 638).
/// Patched, they go back to IRSFF when the share offers start (the correction at id 597), the
/// pool at id 638 is Referee's, and the game replays to its end with Referee's result (with
/// the patch of `transform-token-president-pays-first` for ATFA's token at id 706).
#[test]
fn s12_4_oracle_drops_the_unexchanged_irsff_shares() {
    let Some(dir) = oracle() else {
        println!("SKIPPED: no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return;
    };
    let plain = oracle_report(&dir, BEFORE, Some(638));
    assert_eq!(plain["error"], Value::Null, "{plain}");
    let snap = snapshot_at(&plain, 638);
    assert_eq!(snap["pool"]["IRSFF"], 10, "{}", snap["pool"]);
    let sfli = |snap: &Value| {
        snap["corps"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["sym"] == "SFLi").cloned())
            .unwrap_or_default()
    };
    assert_eq!(sfli(&snap)["shares"]["IRSFF"], 10);

    let with: Vec<&str> = BEFORE.iter().copied().chain([ENTRY]).collect();
    let patched = oracle_report(&dir, &with, Some(638));
    assert_eq!(patched["error"], Value::Null, "{patched}");
    let snap = snapshot_at(&patched, 638);
    assert_eq!(snap["pool"].get("IRSFF"), None, "{}", snap["pool"]);
    assert_eq!(snap["pool"]["SFV"], 60);
    assert_eq!(snap["pool"]["SFL"], 80);
    assert_eq!(sfli(&snap)["shares"].get("IRSFF"), None);
    let corrections = patched["corrections"].as_array().expect("corrections");
    assert!(
        corrections
            .iter()
            .any(|c| c["id"] == ENTRY && c["action_id"] == 597),
        "{corrections:?}"
    );

    let all: Vec<&str> = with
        .iter()
        .copied()
        .chain(["transform-token-president-pays-first"])
        .collect();
    let full = oracle_report(&dir, &all, None);
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
    for (player, value) in [("1", 0), ("2", 0), ("3", 0), ("4", 184), ("5", 0)] {
        assert_eq!(full["result"][player], value, "player {player}: {full}");
    }
}
