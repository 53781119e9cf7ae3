//! States the validators accepted before issue #24 and then failed on (item 8): an Autobahn
//! department without floors (INTERNAL from a panic in LegalActions, DefaultAction, Playout and
//! Apply), a 1841 auction where the high bidder is to act, and an `action_count` whose
//! successor no server reads back. Each is now a typed answer.

use referee_service::api::Api;
use referee_service::games::MAX_ACTION_COUNT;
use referee_service::pb::v1 as pb;
use referee_service::work::Cancel;
use tonic::Code;

fn new_game(api: &Api, game: &str, seats: u32) -> pb::GameState {
    api.new_game(&pb::NewGameRequest {
        game: game.into(),
        seats,
        seed: 3,
        ..Default::default()
    })
    .unwrap()
    .state
    .unwrap()
}

#[test]
fn an_autobahn_department_without_floors_is_refused_by_every_call() {
    let api = Api::new();
    let mut gs = new_game(&api, "autobahn", 2);
    let Some(pb::game_state::State::Autobahn(s)) = gs.state.as_mut() else {
        panic!()
    };
    s.players[0].departments[1].floors.clear();
    let seat = api
        .legal_actions(&pb::LegalActionsRequest {
            state: Some(new_game(&api, "autobahn", 2)),
            seat: 0,
            sealed_state: vec![],
        })
        .unwrap()
        .to_act[0];
    // An action the untouched state takes (review of issue #24, finding C: Apply was not
    // tried).
    let action = api
        .default_action(&pb::DefaultActionRequest {
            state: Some(new_game(&api, "autobahn", 2)),
            seat,
            ..Default::default()
        })
        .unwrap()
        .action;
    assert!(action.is_some());
    let check = |what: &str, r: Result<(), tonic::Status>| {
        let e = r.expect_err(what);
        assert_eq!(e.code(), Code::InvalidArgument, "{what}: {e:?}");
        assert!(
            e.message()
                .contains("players[0].departments[1].floors: expected 3 floors, got 0"),
            "{what}: {}",
            e.message()
        );
    };
    check(
        "LegalActions",
        api.legal_actions(&pb::LegalActionsRequest {
            state: Some(gs.clone()),
            seat,
            sealed_state: vec![],
        })
        .map(drop),
    );
    check(
        "DefaultAction",
        api.default_action(&pb::DefaultActionRequest {
            state: Some(gs.clone()),
            seat,
            ..Default::default()
        })
        .map(drop),
    );
    check(
        "Playout",
        api.playout(
            &pb::PlayoutRequest {
                state: Some(gs.clone()),
                ..Default::default()
            },
            None,
            None,
            &Cancel::new(),
        )
        .map(drop),
    );
    check(
        "Apply",
        api.apply(&pb::ApplyRequest {
            state: Some(gs.clone()),
            seat,
            action: action.clone(),
            ..Default::default()
        })
        .map(drop),
    );
    check(
        "ApplyBatch",
        api.apply_batch(
            &pb::ApplyBatchRequest {
                state: Some(gs.clone()),
                actions: vec![pb::SeatAction {
                    seat,
                    action: action.clone(),
                }],
                ..Default::default()
            },
            &Cancel::new(),
        )
        .map(drop),
    );
    check(
        "Describe",
        api.describe(&pb::DescribeRequest {
            state: Some(gs.clone()),
            seat,
            action,
            ..Default::default()
        })
        .map(drop),
    );
    check(
        "View",
        api.view(&pb::ViewRequest {
            state: Some(gs),
            ..Default::default()
        })
        .map(drop),
    );
}

#[test]
fn a_state_at_the_largest_action_count_takes_no_further_action() {
    let api = Api::new();
    let base = new_game(&api, "1841", 4);
    let action = api
        .default_action(&pb::DefaultActionRequest {
            state: Some(base.clone()),
            seat: 0,
            ..Default::default()
        })
        .unwrap()
        .action;
    let apply = |count: u64| {
        let mut gs = base.clone();
        gs.action_count = count;
        let action = action.clone();
        api.apply(&pb::ApplyRequest {
            state: Some(gs),
            seat: 0,
            action,
            ..Default::default()
        })
    };
    // One below the limit: accepted, and the answer (at the limit) still reads back.
    let r = apply(MAX_ACTION_COUNT - 1).unwrap();
    let Some(pb::apply_response::Result::Accepted(acc)) = r.result else {
        panic!("{r:?}")
    };
    let next = acc.state.unwrap();
    assert_eq!(next.action_count, MAX_ACTION_COUNT);
    api.view(&pb::ViewRequest {
        state: Some(next),
        ..Default::default()
    })
    .unwrap();
    // At the limit: no action (before issue #24 it was applied and its answer refused).
    let e = apply(MAX_ACTION_COUNT).unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(
        e.message().contains("room for 0 more actions"),
        "{}",
        e.message()
    );
    // Over it: not a state.
    assert_eq!(
        apply(MAX_ACTION_COUNT + 1).unwrap_err().code(),
        Code::InvalidArgument
    );
    // ApplyBatch counts the whole list.
    let mut gs = base.clone();
    gs.action_count = MAX_ACTION_COUNT - 1;
    let e = api
        .apply_batch(
            &pb::ApplyBatchRequest {
                state: Some(gs),
                actions: vec![pb::SeatAction::default(); 2],
                ..Default::default()
            },
            &Cancel::new(),
        )
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
}

/// A custom Autobahn board is a plain string on the wire (`options["board"]` of NewGame and
/// Replay, `options.board_json` of every state), so the decoded-size estimate counts only its
/// length; parsing it took about 24 times that (review of issue #24: a 4 MiB board of `""`
/// entries, 96 MiB for one call). Over `MAX_BOARD_JSON_BYTES` it is refused unparsed, in the
/// options and in a state alike; the shipped board, given as text, still starts a game.
#[test]
fn an_autobahn_board_over_the_limit_is_refused_before_it_is_parsed() {
    use referee_engine::autobahn::board::{DEFAULT_BOARD_JSON, MAX_BOARD_JSON_BYTES};
    let api = Api::new();
    let bomb = format!(
        "{{\"clockwise_order\":[{}\"\"]}}",
        "\"\",".repeat(MAX_BOARD_JSON_BYTES / 3)
    );
    let limit = format!("more than the {MAX_BOARD_JSON_BYTES} a board may take");
    let start = |board: &str| {
        api.new_game(&pb::NewGameRequest {
            game: "autobahn".into(),
            seats: 2,
            seed: 3,
            options: [("board".to_string(), board.to_string())].into(),
            ..Default::default()
        })
    };
    let e = start(&bomb).expect_err("a board over the limit");
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains(&limit), "{}", e.message());
    assert!(start(DEFAULT_BOARD_JSON).is_ok());

    let mut gs = new_game(&api, "autobahn", 2);
    let Some(pb::game_state::State::Autobahn(s)) = gs.state.as_mut() else {
        panic!()
    };
    s.options.as_mut().unwrap().board_json = bomb;
    let e = api
        .view(&pb::ViewRequest {
            state: Some(gs),
            ..Default::default()
        })
        .expect_err("a state carrying a board over the limit");
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(
        e.message().contains("options.board_json") && e.message().contains(&limit),
        "{}",
        e.message()
    );
}
