//! `referee replay-18xx`: recorded 18xx.games exports replayed through the engine, one JSON
//! report, clear errors naming the action id, never a panic.

mod common;

use std::process::Command;

use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/1841/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(common::referee_bin())
        .arg("replay-18xx")
        .args(args)
        .output()
        .expect("run referee replay-18xx");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let report = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        report,
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn recorded_games_replay_to_the_end_and_check_their_results() {
    // Both games replay to their last action (the corporate events of 1841 §11–§12
    // included) and end with the recorded reason and values.
    for (name, game_id) in [("132002.json", 132002), ("1841_game_end_bank.json", 182953)] {
        let (code, report, _) = run(&[&fixture(name), "--check"]);
        assert_eq!(report["game_id"], game_id, "{report}");
        assert_eq!(code, 0, "{report}");
        assert_eq!(report["finished"], true, "{report}");
        assert!(report["stopped_at"].is_null(), "{report}");
        assert!(report["actions_total"].as_u64().unwrap() > 650, "{report}");
        assert_eq!(report["check"]["ok"], true, "{report}");
    }
}

#[test]
fn a_truncated_file_an_unknown_action_and_a_missing_file_give_clear_errors() {
    let text = std::fs::read_to_string(fixture("132002.json")).unwrap();
    let dir = std::env::temp_dir();

    let truncated = dir.join(format!("referee-trunc-{}.json", std::process::id()));
    std::fs::write(&truncated, &text[..5000]).unwrap();
    let (code, report, _) = run(&[truncated.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        report["error"].as_str().unwrap().contains("not valid JSON"),
        "{report}"
    );

    let mut game: Value = serde_json::from_str(&text).unwrap();
    let first = game["actions"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|a| a["type"] == "bid")
        .unwrap();
    first["type"] = Value::from("frobnicate");
    let id = first["id"].clone();
    let unknown = dir.join(format!("referee-unknown-{}.json", std::process::id()));
    std::fs::write(&unknown, game.to_string()).unwrap();
    let (code, report, _) = run(&[unknown.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(report["stopped_at"]["action_id"], id, "{report}");
    assert_eq!(report["stopped_at"]["type"], "frobnicate");
    assert!(
        report["stopped_at"]["reason"]
            .as_str()
            .unwrap()
            .contains("not supported")
    );

    let (code, _, stderr) = run(&["/nonexistent/game.json"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read"), "{stderr}");
}
