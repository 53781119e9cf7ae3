//! Answers that grow with the request (issue #24, docs/SECURITY.md "Memory budget"): the
//! largest answer each whole-game call can make under the request limits, in protobuf and in
//! JSON, through the service logic ([`Api`], no network).
//!
//! * Playout with `include_actions` returns at most 100,000 actions (games × max_actions).
//! * ApplyBatch, Replay, ExportGame and ImportGame answer in proportion to the actions
//!   applied (at most 100,000, and at most a game's length): the longest games the random
//!   policy plays (up to Playout's 50,000 actions) are measured per action.
//!
//! Each test asserts the bound per action it measured (with a margin), so that an answer
//! that grows is seen; `--nocapture` prints the figures of docs/SECURITY.md.

use prost::Message;
use referee_service::api::Api;
use referee_service::pb::v1 as pb;
use referee_service::work::Cancel;

fn sizes<T: Message + serde::Serialize>(answer: &T) -> (usize, usize) {
    (
        answer.encoded_len(),
        serde_json::to_vec(answer).map_or(0, |v| v.len()),
    )
}

fn start(api: &Api, game: &str, seats: u32, seed: u64) -> pb::GameState {
    api.new_game(&pb::NewGameRequest {
        game: game.into(),
        seats,
        seed,
        explicit_seed: true,
        ..Default::default()
    })
    .unwrap()
    .state
    .unwrap()
}

/// The longest of `tries` random games of `game` (at most 50,000 actions each): its actions.
fn longest_game(api: &Api, game: &str, seats: u32, tries: u32) -> Vec<pb::SeatAction> {
    let state = start(api, game, seats, 7);
    let played = api
        .playout(
            &pb::PlayoutRequest {
                state: Some(state),
                policy_name: "random".into(),
                seed: 11,
                games: tries,
                max_actions: 50_000,
                include_actions: false,
                ..Default::default()
            },
            Some(std::time::Duration::from_secs(3600)),
            None,
            &Cancel::default(),
        )
        .unwrap();
    // Replay the longest: play the games again one by one with their actions.
    let mut best = Vec::new();
    for i in 0..played.games_played.min(tries) {
        let one = api
            .playout(
                &pb::PlayoutRequest {
                    state: Some(start(api, game, seats, 7)),
                    policy_name: "random".into(),
                    seed: 11 + u64::from(i),
                    games: 1,
                    max_actions: 50_000,
                    include_actions: true,
                    ..Default::default()
                },
                Some(std::time::Duration::from_secs(3600)),
                None,
                &Cancel::default(),
            )
            .unwrap();
        if let Some(g) = one.played.into_iter().next()
            && g.actions.len() > best.len()
        {
            best = g.actions;
        }
    }
    best
}

/// Playout's largest answer: 100,000 actions returned (1,000 games × 100 actions).
#[test]
fn playout_with_actions_answers_at_most_100000_actions() {
    let api = Api::new();
    for (game, seats) in [("1841", 4), ("autobahn", 4)] {
        let answer = api
            .playout(
                &pb::PlayoutRequest {
                    state: Some(start(&api, game, seats, 3)),
                    policy_name: "random".into(),
                    seed: 5,
                    games: 1_000,
                    max_actions: 100,
                    include_actions: true,
                    ..Default::default()
                },
                Some(std::time::Duration::from_secs(3600)),
                None,
                &Cancel::default(),
            )
            .unwrap();
        let actions: usize = answer.played.iter().map(|g| g.actions.len()).sum();
        let (proto, json) = sizes(&answer);
        println!(
            "Playout {game}: {} games, {actions} actions returned: {proto} bytes protobuf, {json} JSON",
            answer.games_played
        );
        assert!(actions <= 100_000, "{actions}");
        // Per action at most 40 bytes protobuf, 160 JSON (measured 2026-12-06 below).
        assert!(
            proto <= 100_000 * 40 && json <= 100_000 * 160,
            "{proto} {json}"
        );
    }
}

/// ApplyBatch, Replay, ExportGame and ImportGame of the longest random game: bytes per
/// action applied.
#[test]
fn whole_game_answers_grow_with_the_actions_applied() {
    let api = Api::new();
    for (game, seats, tries) in [("1841", 4, 8), ("autobahn", 4, 8)] {
        let actions = longest_game(&api, game, seats, tries);
        let n = actions.len();
        assert!(n > 100, "{game}: {n}");
        let request = pb::ReplayRequest {
            game: game.into(),
            seats,
            seed: 7,
            actions: actions.clone(),
            ..Default::default()
        };
        let request_bytes = request.encoded_len();
        let batch = api
            .apply_batch(
                &pb::ApplyBatchRequest {
                    state: Some(start(&api, game, seats, 7)),
                    actions: actions.clone(),
                    ..Default::default()
                },
                &Cancel::default(),
            )
            .unwrap();
        assert!(batch.failure.is_none(), "{:?}", batch.failure);
        let replay = api.replay(&request, &Cancel::default()).unwrap();
        assert!(replay.failure.is_none(), "{:?}", replay.failure);
        let state = sizes(&replay.state.clone().unwrap_or_default());
        let (b, r) = (sizes(&batch), sizes(&replay));
        println!(
            "{game}: longest of {tries} random games {n} actions (request {request_bytes} bytes); final state {state:?}; ApplyBatch {b:?} ({:.0} / {:.0} per action beyond the state and views); Replay {r:?}",
            (b.0 - r.0) as f64 / n as f64,
            (b.1.saturating_sub(r.1)) as f64 / n as f64,
        );
        // Per action applied at most 400 bytes protobuf beyond Replay's answer (the events).
        assert!(b.0 <= r.0 + n * 400, "{b:?} {r:?}");
        if game == "1841" {
            let export = api
                .export_game(&pb::ExportGameRequest {
                    game: Some(request.clone()),
                    ..Default::default()
                })
                .unwrap();
            assert!(export.failure.is_none(), "{:?}", export.failure);
            let e = sizes(&export);
            let import = api
                .import_game(&pb::ImportGameRequest {
                    export_json: export.export_json.clone(),
                    ..Default::default()
                })
                .unwrap();
            let i = sizes(&import);
            println!(
                "1841 ExportGame {e:?} ({:.0} / {:.0} per action; request {request_bytes}); ImportGame of it {i:?} (request {} bytes)",
                e.0 as f64 / n as f64,
                e.1 as f64 / n as f64,
                export.export_json.len() + 5,
            );
            // The export: at most 400 bytes of JSON per action; the import's answer at most
            // its request plus a state.
            assert!(e.0 <= n * 400 + 4096, "{e:?}");
            assert!(i.0 <= export.export_json.len() + r.0 * 2, "{i:?}");
        }
    }
}
