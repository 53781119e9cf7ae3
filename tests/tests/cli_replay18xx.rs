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

#[test]
fn a_refused_action_names_its_id_code_and_rule_and_stop_at_stops_there() {
    let text = std::fs::read_to_string(fixture("132002.json")).unwrap();
    let mut game: Value = serde_json::from_str(&text).unwrap();
    let actions = game["actions"].as_array_mut().unwrap();
    let second_bid = actions
        .iter()
        .enumerate()
        .filter(|(_, a)| a["type"] == "bid")
        .nth(1)
        .map(|(i, _)| i)
        .unwrap();
    // 1841 §4.1: a raise is at least L.5.
    actions[second_bid]["price"] = Value::from(1);
    let id = actions[second_bid]["id"].clone();
    let refused = std::env::temp_dir().join(format!("referee-refused-{}.json", std::process::id()));
    std::fs::write(&refused, game.to_string()).unwrap();
    let (code, report, _) = run(&[refused.to_str().unwrap()]);
    assert_eq!(code, 1);
    let stop = &report["stopped_at"];
    assert_eq!(stop["action_id"], id, "{report}");
    assert_eq!(stop["kind"], "refused");
    assert_eq!(stop["type"], "bid");
    assert_eq!(stop["code"], "ILLEGAL_MOVE");
    assert_eq!(stop["rule"], "1841 §4.1");
    // Every action before it was applied (no undo before it in this game).
    assert_eq!(report["actions_applied"], second_bid);

    // --stop-at: the state after the actions up to that id; success without --check.
    let (code, report, _) = run(&[&fixture("132002.json"), "--stop-at", "110"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["stopped_at_limit"], true);
    assert_eq!(report["finished"], false);
}

#[test]
fn export_18xx_writes_a_game_that_replay_18xx_replays_to_the_same_result() {
    use referee_service::games::WireGame;
    use referee_service::games::g1841::Wire1841;
    use referee_service::pb::v1 as pb;

    // The recorded game's actions as this API's actions: a ReplayRequest file.
    let text = std::fs::read_to_string(fixture("1841_game_end_bank.json")).unwrap();
    let replayed = referee_engine::g1841::import18xx::replay(&text, &Default::default());
    assert!(replayed.finished);
    let request = pb::ReplayRequest {
        game: "1841".into(),
        seats: 4,
        options: [("lite".to_string(), "true".to_string())].into(),
        seed: 0,
        actions: replayed
            .actions
            .iter()
            .map(|(seat, a)| pb::SeatAction {
                seat: *seat,
                action: Some(Wire1841::action_to_pb(a)),
            })
            .collect(),
    };
    let dir = std::env::temp_dir();
    let input = dir.join(format!("referee-export-in-{}.json", std::process::id()));
    let output = dir.join(format!("referee-export-out-{}.json", std::process::id()));
    std::fs::write(&input, serde_json::to_string(&request).unwrap()).unwrap();
    let out = Command::new(common::referee_bin())
        .args(["export-18xx", input.to_str().unwrap(), "--out"])
        .arg(&output)
        .output()
        .expect("run referee export-18xx");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    let recorded: Value = serde_json::from_str(&text).unwrap();
    // Default players: ids 1–4; the values per seat are the recorded ones.
    assert_eq!(
        written["players"][0],
        serde_json::json!({"id": 1, "name": "Player 1"})
    );
    assert_eq!(written["result"]["1"], recorded["result"]["12683"]);
    assert_eq!(written["game_end_reason"], "bank");
    let (code, report, _) = run(&[output.to_str().unwrap(), "--check"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["check"]["ok"], true);
    assert_eq!(report["actions_applied"], replayed.actions.len());

    // A refused action: exit 1, the reason on stderr, the export before it on stdout.
    let mut bad = request.clone();
    bad.actions[1] = bad.actions[0].clone();
    std::fs::write(&input, serde_json::to_string(&bad).unwrap()).unwrap();
    let out = Command::new(common::referee_bin())
        .args(["export-18xx", input.to_str().unwrap()])
        .output()
        .expect("run referee export-18xx");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("action 1"), "{stderr}");
    let partial: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(partial["actions"].as_array().unwrap().len(), 1);
    // Not a game: exit 2.
    std::fs::write(&input, "{\"game\": 7}").unwrap();
    let out = Command::new(common::referee_bin())
        .args(["export-18xx", input.to_str().unwrap()])
        .output()
        .expect("run referee export-18xx");
    assert_eq!(out.status.code(), Some(2));
}

/// A reader that stops reading (`referee replay-18xx FILE | head -c 100`) ends the output
/// quietly: the report's write meets a closed pipe, and the command still exits with the
/// replay's status, without the panic `println!` gives ("failed printing to stdout: Broken
/// pipe").
#[test]
fn a_closed_output_pipe_is_not_a_panic() {
    use std::process::Stdio;
    let mut child = Command::new(common::referee_bin())
        .arg("replay-18xx")
        .arg(fixture("132002.json"))
        .arg("--check")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run referee replay-18xx");
    drop(child.stdout.take());
    let out = child
        .wait_with_output()
        .expect("wait for referee replay-18xx");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}
