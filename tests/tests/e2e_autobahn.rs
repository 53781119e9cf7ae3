//! End to end for Autobahn: the real `referee` binary over gRPC (NewGame for 1–4 seats, whole
//! games played to the end through the server for 2 seats and solo, rejections, malformed
//! states, custom boards) and the `referee playout` command line.

mod common;

use std::collections::HashMap;
use std::process::Command;

use common::{Server, referee_bin};
use referee_service::pb::autobahn as ab;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_client::RefereeClient;
use serde_json::Value;
use tonic::Code;
use tonic::transport::Channel;

type Client = RefereeClient<Channel>;

fn typed(state: &pb::GameState) -> &ab::State {
    match state.state.as_ref() {
        Some(pb::game_state::State::Autobahn(s)) => s,
        other => panic!("not an Autobahn state: {other:?}"),
    }
}

fn typed_mut(state: &mut pb::GameState) -> &mut ab::State {
    match state.state.as_mut() {
        Some(pb::game_state::State::Autobahn(s)) => s,
        other => panic!("not an Autobahn state: {other:?}"),
    }
}

fn wrap(a: ab::action::Action) -> pb::Action {
    pb::Action {
        action: Some(pb::action::Action::Autobahn(ab::Action { action: Some(a) })),
    }
}

async fn new_game(
    client: &mut Client,
    seats: u32,
    options: HashMap<String, String>,
) -> Result<pb::GameState, tonic::Status> {
    client
        .new_game(pb::NewGameRequest {
            game: "autobahn".into(),
            seats,
            options: options.into_iter().collect(),
            seed: 3,
            explicit_seed: false,
        })
        .await
        .map(|r| r.into_inner().state.expect("state"))
}

async fn legal(
    client: &mut Client,
    state: &pb::GameState,
    seat: u32,
) -> (Vec<u32>, Vec<ab::Action>) {
    let r = client
        .legal_actions(pb::LegalActionsRequest {
            state: Some(state.clone()),
            seat,
            sealed_state: vec![],
        })
        .await
        .expect("LegalActions")
        .into_inner();
    let actions = match r.legal_actions {
        Some(pb::legal_actions_response::LegalActions::Autobahn(l)) => l.actions,
        other => panic!("not Autobahn legal actions: {other:?}"),
    };
    (r.to_act, actions)
}

async fn apply(
    client: &mut Client,
    state: &pb::GameState,
    seat: u32,
    action: pb::Action,
) -> pb::ApplyResponse {
    client
        .apply(pb::ApplyRequest {
            state: Some(state.clone()),
            seat,
            action: Some(action),
            ..Default::default()
        })
        .await
        .expect("Apply")
        .into_inner()
}

async fn view(client: &mut Client, state: &pb::GameState, seat: Option<u32>) -> pb::ViewResponse {
    client
        .view(pb::ViewRequest {
            state: Some(state.clone()),
            seat,
            sealed_state: vec![],
            ..Default::default()
        })
        .await
        .expect("View")
        .into_inner()
}

fn rare(a: &ab::Action) -> bool {
    matches!(
        a.action,
        Some(ab::action::Action::TakeBackCards(_)) | Some(ab::action::Action::Decline(_))
    )
}

/// Plays a whole game through the server: LegalActions for the seat to act, a seeded random
/// pick (take-backs and declines rarely, as the engine's proptests do), Apply. Returns the
/// final state and the number of actions.
async fn play_to_the_end(
    client: &mut Client,
    mut state: pb::GameState,
    seed: u64,
) -> (pb::GameState, u32) {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: usize| {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    };
    for n in 0..3_000u32 {
        let (to_act, _) = legal(client, &state, 0).await;
        if to_act.is_empty() {
            return (state, n);
        }
        assert_eq!(to_act.len(), 1, "one seat acts at a time");
        let seat = to_act[0];
        let (_, actions) = legal(client, &state, seat).await;
        assert!(
            !actions.is_empty(),
            "seat {seat} must act and has legal actions"
        );
        let common: Vec<&ab::Action> = actions.iter().filter(|a| !rare(a)).collect();
        let pick = if !common.is_empty() && next(8) != 0 {
            common[next(common.len())].clone()
        } else {
            actions[next(actions.len())].clone()
        };
        let r = apply(
            client,
            &state,
            seat,
            pb::Action {
                action: Some(pb::action::Action::Autobahn(pick.clone())),
            },
        )
        .await;
        match r.result {
            Some(pb::apply_response::Result::Accepted(a)) => {
                assert!(a.events.iter().all(|e| matches!(
                    e.event,
                    Some(pb::event::Event::Autobahn(ab::Event { event: Some(_) }))
                )));
                let next_state = a.state.expect("state");
                assert_eq!(next_state.action_count, state.action_count + 1);
                state = next_state;
            }
            other => panic!("legal action {pick:?} not accepted: {other:?}"),
        }
    }
    panic!("the game did not end within 3,000 actions");
}

#[tokio::test]
async fn list_games_shows_autobahn_with_its_options() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let games = client
        .list_games(pb::ListGamesRequest {})
        .await
        .unwrap()
        .into_inner();
    let g = games
        .games
        .iter()
        .find(|g| g.id == "autobahn")
        .expect("autobahn listed");
    assert_eq!((g.min_players, g.max_players), (1, 4));
    let names: Vec<&str> = g.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        ["board", "autobot_level", "strict_budget_connection"]
    );
    let level = g
        .options
        .iter()
        .find(|o| o.name == "autobot_level")
        .unwrap();
    assert_eq!((level.min, level.max), (1, 12));
    assert_eq!(g.stage, pb::GameStage::Complete as i32);
}

#[tokio::test]
async fn new_game_for_one_to_four_players() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    for seats in 1..=4u32 {
        let state = new_game(&mut client, seats, HashMap::new())
            .await
            .expect("NewGame");
        assert_eq!(state.game, "autobahn");
        let s = typed(&state);
        // Solo: the Autobot is the extra last player, without a seat.
        let players = if seats == 1 { 2 } else { seats as usize };
        assert_eq!(s.players.len(), players, "{seats} seats");
        for (i, p) in s.players.iter().enumerate() {
            let bot = seats == 1 && i == 1;
            assert_eq!(p.seat, if bot { None } else { Some(i as u32) });
            assert_eq!(p.autobot.is_some(), bot);
        }
        let o = s.options.as_ref().unwrap();
        assert!(o.board_json.is_empty(), "the default board is not carried");
        assert!(!o.board_id.is_empty());
        assert!(!s.links.is_empty() && !s.sections.is_empty());
        let (to_act, actions) = legal(&mut client, &state, 0).await;
        assert_eq!(to_act.len(), 1);
        let (_, actions_to_act) = legal(&mut client, &state, to_act[0]).await;
        assert!(!actions_to_act.is_empty());
        if to_act[0] != 0 {
            assert!(actions.is_empty());
        }
        // A seat that is not at the table.
        let err = client
            .legal_actions(pb::LegalActionsRequest {
                state: Some(state.clone()),
                seat: seats,
                sealed_state: vec![],
            })
            .await
            .unwrap_err();
        assert_eq!(err.code(), Code::InvalidArgument);
    }
    let err = new_game(&mut client, 5, HashMap::new()).await.unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
    let err = new_game(
        &mut client,
        1,
        HashMap::from([("autobot_level".to_string(), "13".to_string())]),
    )
    .await
    .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
    assert!(err.message().contains("autobot_level"), "{}", err.message());
}

#[tokio::test]
async fn full_two_player_game_through_the_server() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let state = new_game(&mut client, 2, HashMap::new()).await.unwrap();
    let (end, n) = play_to_the_end(&mut client, state, 11).await;
    assert!(n > 20, "a real game, {n} actions");
    let v = view(&mut client, &end, Some(1)).await;
    let outcome = v.outcome.expect("an outcome at the end");
    assert_eq!(outcome.scores.len(), 2);
    assert_eq!(outcome.ranks.len(), 2);
    assert!(v.to_act.is_empty());
    let Some(pb::view_response::View::Autobahn(view_state)) = v.view else {
        panic!("not an Autobahn view");
    };
    let vs = view_state.state.expect("view state");
    assert!(matches!(
        vs.phase.and_then(|p| p.phase),
        Some(ab::phase::Phase::Over(_))
    ));
    assert!(vs.result.is_some());
    // Once the game has ended everything is revealed to every viewer (issue #9): the view
    // carries the real piles, not only their counts.
    assert_eq!(vs.card_deck, typed(&end).card_deck);
    assert_eq!(vs.card_deck_count, typed(&end).card_deck_count);
    // After the end every action is refused.
    let r = apply(
        &mut client,
        &end,
        0,
        wrap(ab::action::Action::EndTurn(ab::EndTurn {})),
    )
    .await;
    assert!(matches!(
        r.result,
        Some(pb::apply_response::Result::Rejected(_))
    ));
}

/// The full game for three and four players too (autobahn §3.2: seats and supplies by
/// player count), each to its final scoring through the server.
#[tokio::test]
async fn full_three_and_four_player_games_through_the_server() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    for seats in [3u32, 4] {
        let state = new_game(&mut client, seats, HashMap::new()).await.unwrap();
        let (end, n) = play_to_the_end(&mut client, state, 5 + u64::from(seats)).await;
        assert!(n > 20, "{seats} players: a real game, {n} actions");
        let v = view(&mut client, &end, None).await;
        let outcome = v.outcome.expect("an outcome at the end");
        assert_eq!(outcome.scores.len(), seats as usize);
        let mut ranks = outcome.ranks.clone();
        ranks.sort_unstable();
        assert_eq!(ranks[0], 1, "someone ranks first: {:?}", outcome.ranks);
        assert!(v.to_act.is_empty());
    }
}

#[tokio::test]
async fn solo_game_through_the_server() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let state = new_game(
        &mut client,
        1,
        HashMap::from([("autobot_level".to_string(), "4".to_string())]),
    )
    .await
    .unwrap();
    assert_eq!(typed(&state).options.as_ref().unwrap().autobot_level, 4);
    let (end, _) = play_to_the_end(&mut client, state, 5).await;
    let v = view(&mut client, &end, Some(0)).await;
    let outcome = v.outcome.expect("an outcome at the end");
    // One seat on the wire; the Autobot's score is in the typed result.
    assert_eq!(outcome.scores.len(), 1);
    let r = typed(&end).result.as_ref().unwrap();
    assert_eq!(r.scores.len(), 2);
}

#[tokio::test]
async fn illegal_action_rejected_state_unchanged() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let state = new_game(&mut client, 3, HashMap::new()).await.unwrap();
    let (to_act, actions) = legal(&mut client, &state, 0).await;
    let seat = to_act[0];
    // Ending a turn during the route-card draft is illegal; so is acting out of turn.
    let r = apply(
        &mut client,
        &state,
        seat,
        wrap(ab::action::Action::EndTurn(ab::EndTurn {})),
    )
    .await;
    let Some(pb::apply_response::Result::Rejected(rej)) = r.result else {
        panic!("accepted an illegal action: {r:?}");
    };
    assert!(!rej.rejection.unwrap().message.is_empty());
    let other = (seat + 1) % 3;
    let (_, legal_seat) = legal(&mut client, &state, seat).await;
    let r = apply(
        &mut client,
        &state,
        other,
        pb::Action {
            action: Some(pb::action::Action::Autobahn(legal_seat[0].clone())),
        },
    )
    .await;
    let Some(pb::apply_response::Result::Rejected(rej)) = r.result else {
        panic!("accepted an out-of-turn action: {r:?}");
    };
    assert_eq!(
        rej.rejection.unwrap().code,
        pb::RejectionCode::NotYourTurn as i32
    );
    let empty = apply(
        &mut client,
        &state,
        seat,
        wrap(ab::action::Action::Decline(ab::Decline {})),
    )
    .await;
    assert!(matches!(
        empty.result,
        Some(pb::apply_response::Result::Rejected(_))
    ));
    // The same state still plays: its legal actions are unchanged and accepted.
    let (to_act2, actions2) = legal(&mut client, &state, 0).await;
    assert_eq!((to_act2, actions2), (to_act, actions));
    let r = apply(
        &mut client,
        &state,
        seat,
        pb::Action {
            action: Some(pb::action::Action::Autobahn(legal_seat[0].clone())),
        },
    )
    .await;
    assert!(matches!(
        r.result,
        Some(pb::apply_response::Result::Accepted(_))
    ));
}

#[tokio::test]
async fn malformed_state_is_invalid_argument_naming_the_field() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let state = new_game(&mut client, 2, HashMap::new()).await.unwrap();
    type Mutation = Box<dyn Fn(&mut ab::State)>;
    let cases: Vec<(Mutation, &str)> = vec![
        (
            Box::new(|s| s.players[1].dm = -5),
            "state.autobahn.players[1].dm",
        ),
        (
            Box::new(|s| s.players[0].seat = Some(4)),
            "state.autobahn.players[0].seat",
        ),
        (
            Box::new(|s| s.offices[2].seats.push(9)),
            "state.autobahn.offices[2].seats[0]",
        ),
        (
            Box::new(|s| s.players[1].trucks[1].location = 0),
            "state.autobahn.players[1].trucks[1].location",
        ),
        (
            Box::new(|s| s.sections.truncate(3)),
            "state.autobahn.sections",
        ),
        (
            Box::new(|s| s.options.as_mut().unwrap().board_json = "{".into()),
            "state.autobahn.options.board_json",
        ),
    ];
    for (mutate, path) in cases {
        let mut bad = state.clone();
        mutate(typed_mut(&mut bad));
        let err = client
            .legal_actions(pb::LegalActionsRequest {
                state: Some(bad.clone()),
                seat: 0,
                sealed_state: vec![],
            })
            .await
            .unwrap_err();
        assert_eq!(err.code(), Code::InvalidArgument, "{path}");
        assert!(err.message().starts_with(path), "{path}: {}", err.message());
        let err = client
            .apply(pb::ApplyRequest {
                state: Some(bad),
                seat: 0,
                action: Some(wrap(ab::action::Action::EndTurn(ab::EndTurn {}))),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(err.code(), Code::InvalidArgument, "{path}");
    }
    // An Autobahn envelope carrying an 1841 state.
    let mut wrong = state.clone();
    wrong.state = Some(pb::game_state::State::G1841(Default::default()));
    let err = client
        .view(pb::ViewRequest {
            state: Some(wrong),
            seat: None,
            sealed_state: vec![],
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
}

fn default_board() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/data/autobahn/default-board.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("default board")).unwrap()
}

#[tokio::test]
async fn custom_board_option_is_used_and_invalid_boards_list_their_problems() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let mut board = default_board();
    board["board_id"] = "house-rules-1".into();
    board["starting_dm"]["per_player"] = 19.into();
    let options = HashMap::from([("board".to_string(), board.to_string())]);
    let state = new_game(&mut client, 2, options)
        .await
        .expect("custom board accepted");
    let s = typed(&state);
    assert!(
        s.players.iter().all(|p| p.dm == 19),
        "the custom starting money is used"
    );
    let o = s.options.as_ref().unwrap();
    assert_eq!(o.board_id, "house-rules-1");
    assert!(
        !o.board_json.is_empty(),
        "a custom board travels in the state"
    );
    // Later calls rebuild the custom board from the state.
    let (to_act, _) = legal(&mut client, &state, 0).await;
    let (_, actions) = legal(&mut client, &state, to_act[0]).await;
    let r = apply(
        &mut client,
        &state,
        to_act[0],
        pb::Action {
            action: Some(pb::action::Action::Autobahn(actions[0].clone())),
        },
    )
    .await;
    let Some(pb::apply_response::Result::Accepted(a)) = r.result else {
        panic!("not accepted: {r:?}");
    };
    assert_eq!(
        typed(a.state.as_ref().unwrap())
            .options
            .as_ref()
            .unwrap()
            .board_id,
        "house-rules-1"
    );

    // An invalid board: every problem with its path.
    let mut broken = default_board();
    broken["format_version"] = 7.into();
    broken["links"][0]["sections"] = Value::Array(vec![]);
    let err = new_game(
        &mut client,
        2,
        HashMap::from([("board".to_string(), broken.to_string())]),
    )
    .await
    .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
    let m = err.message();
    assert!(m.contains("options[board]"), "{m}");
    assert!(m.contains("format_version"), "{m}");
    assert!(m.contains("links[0].sections"), "{m}");
    let err = new_game(
        &mut client,
        2,
        HashMap::from([("board".to_string(), "not json".to_string())]),
    )
    .await
    .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
}

fn playout(args: &[&str]) -> (bool, Value, String) {
    let out = Command::new(referee_bin())
        .arg("playout")
        .args(args)
        .output()
        .expect("run referee playout");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("not one JSON object ({e}): {stdout}\n{stderr}"));
    (out.status.success(), report, stderr)
}

#[test]
fn playout_autobahn_four_players_finishes_every_game() {
    let (ok, r, stderr) = playout(&[
        "--game",
        "autobahn",
        "--players",
        "4",
        "--games",
        "20",
        "--seed",
        "1",
    ]);
    assert!(ok, "{r}\n{stderr}");
    assert_eq!(r["game"], "autobahn");
    assert_eq!(r["players"], 4);
    assert_eq!(r["games"], 20);
    assert_eq!(r["finished"], 20);
    assert_eq!(r["errors"], 0);
    assert!(r["actions"].as_u64().unwrap() > 20 * 20);
    assert!(r["seconds"].as_f64().is_some());
    for stat in ["mean", "min", "max"] {
        assert_eq!(r["scores"][stat].as_array().unwrap().len(), 4, "{stat}");
    }
    // Reproducible: the same seed gives the same games.
    let (_, again, _) = playout(&[
        "--game",
        "autobahn",
        "--players",
        "4",
        "--games",
        "2",
        "--seed",
        "1",
    ]);
    let (_, again2, _) = playout(&[
        "--game",
        "autobahn",
        "--players",
        "4",
        "--games",
        "2",
        "--seed",
        "1",
    ]);
    assert_eq!(again["actions"], again2["actions"]);
    assert_eq!(again["scores"], again2["scores"]);
}

#[test]
fn playout_1841_plays_games_to_the_end() {
    let (ok, r, _) = playout(&[
        "--game",
        "1841",
        "--players",
        "4",
        "--games",
        "3",
        "--seed",
        "1",
    ]);
    assert_eq!(r["game"], "1841");
    let finished = r["finished"].as_u64().unwrap();
    let errors = r["errors"].as_u64().unwrap();
    let unfinished = r["unfinished"].as_u64().unwrap();
    assert_eq!(finished + errors + unfinished, 3);
    // Exit status 0 exactly when every game finished without error.
    assert_eq!(ok, finished == 3 && errors == 0, "{r}");
    // 1841 random games end (1841 §13, §14; through the first 4-train's events and mergers
    // too): all three finish, none crashes, one score per seat.
    assert!(ok, "{r}");
    assert_eq!(finished, 3, "{r}");
    assert_eq!(r["scores"]["mean"].as_array().map(Vec::len), Some(4), "{r}");
    for e in r["error_details"].as_array().unwrap() {
        assert!(e["game"].is_u64() && e["seed"].is_u64() && e["action_index"].is_u64());
        assert!(!e["message"].as_str().unwrap().contains("panicked"), "{e}");
    }
    for u in r["unfinished_details"].as_array().unwrap() {
        assert!(u["reason"].as_str().is_some_and(|s| !s.is_empty()), "{u}");
        assert!(u["seed"].is_u64() && u["game"].is_u64());
    }
    // Bad options are refused before any game is played.
    let out = Command::new(referee_bin())
        .args([
            "playout",
            "--game",
            "autobahn",
            "--players",
            "2",
            "--options",
            "nope=1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Numbers in a state that no game can reach are refused with their field path before the
/// engine sees them (a newcomer's attack once crashed the request with DM = i64::MAX).
#[tokio::test]
async fn out_of_range_numbers_in_a_state_are_invalid_argument_not_a_crash() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let fresh = new_game(&mut client, 2, HashMap::new()).await.unwrap();
    type Edit = (&'static str, fn(&mut ab::State));
    let edits: [Edit; 2] = [
        ("players[0].dm", |s| s.players[0].dm = i64::MAX),
        ("players[0].development", |s| {
            s.players[0].development = u32::MAX
        }),
    ];
    for (path, edit) in edits {
        let mut state = fresh.clone();
        edit(typed_mut(&mut state));
        for seat in [0, 1] {
            let err = client
                .legal_actions(pb::LegalActionsRequest {
                    state: Some(state.clone()),
                    seat,
                    sealed_state: vec![],
                })
                .await
                .expect_err("an impossible state was accepted");
            assert_eq!(err.code(), Code::InvalidArgument, "{err:?}");
            assert!(err.message().contains(path), "{path}: {}", err.message());
        }
    }
    // The server is still there.
    client
        .list_games(pb::ListGamesRequest {})
        .await
        .expect("still serving");
}
