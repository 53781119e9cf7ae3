//! Random full 1841 games and the 18xx.games export helpers shared by the export, round-trip
//! and share-id tests (issue #21): the random player's policy, a game played with it, the
//! oracle beside the project, and a replayed game written again.

use std::path::PathBuf;

use referee_engine::g1841::export18xx::{ExportSettings, Exported, export};
use referee_engine::g1841::import18xx::{self, ReplaySettings, Replayed};
use referee_engine::g1841::{Action, Event, G1841, Options};
use referee_engine::{Game, Seat};
use serde_json::Value;

use super::Rng;

/// The actions the random player draws only one time in eight (from every legal action; the
/// other times from the rest): a bankruptcy, a purchase offer to another player, withholding,
/// a train from another corporation.
pub fn rare(a: &Action) -> bool {
    match a {
        Action::DeclareBankruptcy { .. } | Action::OfferPurchase { .. } => true,
        Action::Dividend { payout } => !payout,
        Action::BuyTrain { from, .. } => from != "depot" && from != "pool",
        _ => false,
    }
}

/// The actions of a random game (`options`, `players`, `seed`) to its end, as the random
/// player picks them ([`rare`]). Panics when nobody can act before the end or after 20,000
/// actions.
pub fn random_game(options: Options, players: u32, seed: u64) -> Vec<(Seat, Action)> {
    random_game_seen(options, players, seed, |_, _, _| {})
}

/// [`random_game`], calling `seen` after each action with the actions before it, the action
/// (seat and action) and its events.
pub fn random_game_seen(
    options: Options,
    players: u32,
    seed: u64,
    mut seen: impl FnMut(&[(Seat, Action)], &(Seat, Action), &[Event]),
) -> Vec<(Seat, Action)> {
    let mut state = G1841::setup(&options, players, 0).unwrap();
    let mut rng = Rng(seed.wrapping_mul(2) | 1);
    let mut history = Vec::new();
    for _ in 0..20_000 {
        if G1841::outcome(&state).is_some() {
            return history;
        }
        let to_act = G1841::to_act(&state);
        assert!(!to_act.is_empty(), "seed {seed}: nobody can act");
        let seat = to_act[rng.below(to_act.len())];
        let legal = G1841::legal_actions(&state, seat);
        let common: Vec<&Action> = legal.iter().filter(|a| !rare(a)).collect();
        let pick = if !common.is_empty() && rng.below(8) != 0 {
            common[rng.below(common.len())].clone()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        let events = G1841::apply(&mut state, seat, &pick).unwrap();
        let played = (seat, pick);
        seen(&history, &played, &events);
        history.push(played);
    }
    panic!("seed {seed}: no result after 20,000 actions");
}

/// The patched oracle driver's report (`tests/oracle/patched_oracle.rb` in `dir`'s 18xx.games)
/// on the export `file`: with the patches of the entries `patches` only, or with none
/// (`None`: `--no-patches`); up to action id `at` with round-change snapshots, or to the end
/// without snapshots.
pub fn patched_oracle_report(
    dir: &std::path::Path,
    patches: Option<&[&str]>,
    file: &std::path::Path,
    at: Option<i64>,
) -> Value {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cmd = std::process::Command::new("ruby");
    cmd.arg(root.join("tests/oracle/patched_oracle.rb"))
        .env("REFEREE_ORACLE_18XX", dir);
    match patches {
        Some(ids) => {
            for id in ids {
                cmd.arg("--patch")
                    .arg(root.join(format!("tests/oracle/patches/{id}.rb")));
            }
        }
        None => {
            cmd.arg("--no-patches");
        }
    }
    match at {
        Some(id) => cmd.arg("--at").arg(id.to_string()),
        None => cmd.arg("--no-snapshots"),
    };
    let out = cmd.arg(file).output().expect("run ruby");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// The 18xx.games engine beside the project (REFEREE_ORACLE_18XX, default
/// `../shared/oracle-18xx` from the repository root) and Ruby, when both are there.
pub fn oracle() -> Option<PathBuf> {
    let dir = std::env::var_os("REFEREE_ORACLE_18XX")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            [
                env!("CARGO_MANIFEST_DIR"),
                "..",
                "..",
                "shared",
                "oracle-18xx",
            ]
            .iter()
            .collect()
        });
    let ruby = std::process::Command::new("ruby")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    (ruby && dir.join("oracle.rb").is_file()).then_some(dir)
}

/// A replayed export's actions written again, as `ExportGame` writes them: the export's
/// options, players and id.
pub fn export_again(original: &Replayed) -> Exported {
    let export_in = original.export.as_ref().unwrap();
    export(
        &export_in.options().unwrap(),
        export_in.players.len() as u32,
        &original.actions,
        &ExportSettings {
            id: export_in.id,
            players: export_in.players.clone(),
            description: None,
        },
    )
    .unwrap()
}

/// A cut export of `tests/fixtures/1841/exported/` (`name` without `.json`) replayed by the
/// importer and written again ([`export_again`]): (the replay, the new export).
pub fn reexported(name: &str) -> (Replayed, Exported) {
    let text = super::fixture(&format!("exported/{name}.json"));
    let replayed = import18xx::replay(&text, &ReplaySettings::default());
    assert_eq!(replayed.failure, None, "{name}");
    let written = export_again(&replayed);
    assert_eq!(written.failure, None, "{name}");
    (replayed, written)
}

/// The record of `written` with id `id` (records are numbered from 1 in order).
pub fn record(written: &Exported, id: i64) -> &Value {
    let r = &written.json["actions"].as_array().unwrap()[usize::try_from(id - 1).unwrap()];
    assert_eq!(r["id"], id);
    r
}

/// The records with ids `from..=to`, each as `type entity`.
pub fn records_between(written: &Exported, from: i64, to: i64) -> Vec<String> {
    (from..=to)
        .map(|id| {
            let r = record(written, id);
            let entity = r["entity"].to_string().replace('"', "");
            format!("{} {entity}", r["type"].as_str().unwrap())
        })
        .collect()
}

/// The actions with each run of consecutive sealed bids sorted by seat (a bidding's bids are
/// simultaneous, 1841 §4.2).
pub fn sealed_bids_by_seat(actions: &[(Seat, Action)]) -> Vec<(Seat, Action)> {
    let mut out = actions.to_vec();
    let mut i = 0;
    while i < out.len() {
        let mut j = i;
        let mut seen = std::collections::BTreeSet::new();
        while j < out.len() && matches!(out[j].1, Action::BlindBid { .. }) && seen.insert(out[j].0)
        {
            j += 1;
        }
        out[i..j].sort_by_key(|(seat, _)| *seat);
        i = j.max(i + 1);
    }
    out
}

/// An export's text imported and written again ([`export_again`]); `label` names it in
/// failures.
pub fn reexport_text(label: &str, text: &str) -> Exported {
    let original = import18xx::replay(text, &ReplaySettings::default());
    assert_eq!(original.failure, None, "{label}");
    let written = export_again(&original);
    assert_eq!(written.failure, None, "{label}");
    written
}

/// Loads the export `json` strictly in the oracle up to record `last` — with the project's
/// corrections when `patched` (`tests/oracle/patched_oracle.rb`, the patches of the entries
/// of `tests/oracle/divergences.json`), else unmodified (`oracle.rb`) — and asserts that it
/// accepts every record. Without Ruby or the oracle it prints a notice and returns false.
pub fn oracle_accepts(label: &str, json: &Value, last: i64, patched: bool) -> bool {
    let Some(dir) = oracle() else {
        println!("SKIPPED (oracle part): no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return false;
    };
    let file: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let path = std::env::temp_dir().join(format!("referee-{}-{file}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string(json).unwrap()).unwrap();
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
    assert_eq!(report["error"], Value::Null, "{label}: {report}");
    assert_eq!(report["last_ok_action"], last, "{label}: {report}");
    true
}

/// The text of the cut export `engine/tests/data/{name}`.
pub fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fields of the record with id `id` that name what it does: `type`, `entity`, `shares`
/// and `percent` where present.
pub fn record_fields(written: &Exported, id: i64) -> Value {
    let r = record(written, id);
    let mut out = serde_json::Map::new();
    for k in ["type", "entity", "shares", "percent"] {
        if let Some(v) = r.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    Value::Object(out)
}

/// Our action index written as record `id` (the first index mapped to it).
pub fn index_of(written: &Exported, id: i64) -> usize {
    written
        .action_ids
        .iter()
        .position(|&x| x == id)
        .unwrap_or_else(|| panic!("no action index for record {id}"))
}

/// The state of the export `text` after its records up to id `id` (the importer without the
/// final check); panics where the import stops.
pub fn state_at(text: &str, id: i64) -> referee_engine::g1841::State {
    let r = import18xx::replay(
        text,
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(id),
        },
    );
    assert_eq!(r.failure, None, "to id {id}");
    r.state.expect("a state")
}
