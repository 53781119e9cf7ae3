//! Issue #9 through the service logic ([`Api`], no network): ApplyBatch against one-by-one
//! Apply over a recorded 1841 game, StreamReplay, Playout reproducibility and statistics
//! against direct loops, SuggestRoutes against every recorded operating turn, DefaultAction
//! accepted by Apply, Describe, and the secrets in spectator/seat/arbiter views.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use referee_engine::Game;
use referee_engine::autobahn::Autobahn;
use referee_engine::g1841::G1841;
use referee_engine::g1841::import18xx::parse_export;
use referee_service::api::Api;
use referee_service::games::autobahn::WireAutobahn;
use referee_service::games::g1841::Wire1841;
use referee_service::games::{WireGame, decode_state, encode_state};
use referee_service::pb::v1 as pb;
use referee_service::playout;
use referee_service::work::Cancel;

fn fixture(name: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "tests",
        "fixtures",
        "1841",
        name,
    ]
    .iter()
    .collect();
    std::fs::read_to_string(&path).unwrap()
}

/// A recorded 1841 game through ImportGame: its options, seats and actions.
fn recorded(name: &str) -> (pb::ReplayRequest, pb::ImportGameResponse) {
    let imported = Api::new()
        .import_game(&pb::ImportGameRequest {
            export_json: fixture(name),
            ..Default::default()
        })
        .unwrap();
    assert!(imported.failure.is_none(), "{:?}", imported.failure);
    let game = pb::ReplayRequest {
        game: "1841".into(),
        seats: imported.players.len() as u32,
        options: imported.options.clone(),
        seed: 0,
        actions: imported.actions.clone(),
    };
    (game, imported)
}

fn new_game(
    api: &Api,
    game: &str,
    seats: u32,
    options: &BTreeMap<String, String>,
    seed: u64,
) -> pb::GameState {
    api.new_game(&pb::NewGameRequest {
        game: game.into(),
        seats,
        options: options.clone().into_iter().collect(),
        seed,
        explicit_seed: false,
    })
    .unwrap()
    .state
    .unwrap()
}

fn accepted(r: pb::ApplyResponse) -> pb::Accepted {
    match r.result {
        Some(pb::apply_response::Result::Accepted(a)) => a,
        other => panic!("not accepted: {other:?}"),
    }
}

#[test]
fn apply_batch_over_a_recorded_game_equals_one_by_one() {
    let api = Api::new();
    let (game, imported) = recorded("132002.json");
    assert!(imported.finished);
    let start = new_game(
        &api,
        "1841",
        game.seats,
        &game.options.clone().into_iter().collect(),
        0,
    );
    let batch = api
        .apply_batch(
            &pb::ApplyBatchRequest {
                state: Some(start.clone()),
                actions: game.actions.clone(),
                ..Default::default()
            },
            &Cancel::new(),
        )
        .unwrap();
    assert!(batch.failure.is_none(), "{:?}", batch.failure);
    assert_eq!(batch.actions_applied as usize, game.actions.len());
    assert_eq!(batch.applied.len(), game.actions.len());
    let mut state = start.clone();
    let mut states = vec![state.clone()];
    for (i, sa) in game.actions.iter().enumerate() {
        let acc = accepted(
            api.apply(&pb::ApplyRequest {
                state: Some(state),
                seat: sa.seat,
                action: sa.action.clone(),
                ..Default::default()
            })
            .unwrap(),
        );
        assert_eq!(acc.events, batch.applied[i].events, "events of action {i}");
        state = acc.state.unwrap();
        states.push(state.clone());
    }
    assert_eq!(batch.state.as_ref(), Some(&state));
    // The same final state as ImportGame's.
    assert_eq!(batch.state, imported.state);

    // An illegal action in the middle: the batch stops there, the earlier results stand.
    let k = 40;
    let mut actions: Vec<pb::SeatAction> = game.actions[..60].to_vec();
    actions[k] = actions[k - 1].clone(); // the same action again is refused
    let cut = api
        .apply_batch(
            &pb::ApplyBatchRequest {
                state: Some(start.clone()),
                actions,
                ..Default::default()
            },
            &Cancel::new(),
        )
        .unwrap();
    let failure = cut.failure.expect("refused");
    assert_eq!(failure.index, k as u32);
    assert!(failure.rejection.is_some());
    assert_eq!(cut.actions_applied, k as u64);
    assert_eq!(cut.applied.len(), k);
    assert_eq!(cut.state.as_ref(), Some(&states[k]));
    for i in 0..k {
        assert_eq!(cut.applied[i], batch.applied[i]);
    }

    // A stale state: nothing applied, failure at index 0.
    let stale = api
        .apply_batch(
            &pb::ApplyBatchRequest {
                state: Some(start.clone()),
                actions: game.actions[..3].to_vec(),
                expected_action_count: Some(7),
                ..Default::default()
            },
            &Cancel::new(),
        )
        .unwrap();
    assert_eq!(stale.actions_applied, 0);
    assert_eq!(
        stale.failure.unwrap().rejection.unwrap().code(),
        pb::RejectionCode::StaleState
    );
    assert_eq!(stale.state, Some(start));
}

#[test]
fn stream_replay_sends_every_state_every_nth_or_only_events() {
    let api = Api::new();
    let (mut game, imported) = recorded("132002.json");
    game.actions.truncate(50);
    let collect = |every: u32, events_only: bool| {
        let mut frames = Vec::new();
        api.stream_replay(
            &pb::StreamReplayRequest {
                game: Some(game.clone()),
                every,
                events_only,
            },
            &mut |f| {
                frames.push(f);
                Ok(())
            },
        )
        .unwrap();
        frames
    };
    let all = collect(0, false);
    assert_eq!(all.len(), 51);
    assert!(all.iter().all(|f| f.state.is_some()));
    assert_eq!(all[0].index, None);
    assert_eq!(all[50].index, Some(49));
    assert!(all[50].last && !all[49].last);
    let replay = api.replay(&game, &Cancel::new()).unwrap();
    assert_eq!(all[50].state, replay.state);
    let tenth = collect(10, false);
    let with_state: Vec<u64> = tenth
        .iter()
        .filter(|f| f.state.is_some())
        .map(|f| f.action_count)
        .collect();
    assert_eq!(with_state, vec![0, 10, 20, 30, 40, 50]);
    let events = collect(0, true);
    assert_eq!(
        events.iter().filter(|f| f.state.is_some()).count(),
        1,
        "only the final state"
    );
    for (a, b) in all.iter().zip(&events) {
        assert_eq!(a.events, b.events);
    }
    // A refused action ends the stream with its failure and the state before it.
    let mut bad = game.clone();
    bad.actions[20] = bad.actions[19].clone();
    let mut frames = Vec::new();
    api.stream_replay(
        &pb::StreamReplayRequest {
            game: Some(bad),
            every: 0,
            events_only: false,
        },
        &mut |f| {
            frames.push(f);
            Ok(())
        },
    )
    .unwrap();
    let last = frames.last().unwrap();
    assert!(last.last);
    assert_eq!(last.failure.as_ref().unwrap().index, 20);
    assert_eq!(last.state, all[20].state);
    assert_eq!(frames.len(), 22);
    // The receiver leaving stops the replay with the receiver's error.
    let mut n = 0;
    let err = api
        .stream_replay(
            &pb::StreamReplayRequest {
                game: Some(game.clone()),
                every: 0,
                events_only: false,
            },
            &mut |_| {
                n += 1;
                if n < 3 {
                    Ok(())
                } else {
                    Err(Cancel::stopped("streaming"))
                }
            },
        )
        .unwrap_err();
    assert_eq!(n, 3);
    assert_eq!(err.code(), tonic::Code::Cancelled);
    drop(imported);
}

fn playout(
    api: &Api,
    state: &pb::GameState,
    policy: pb::PlayoutPolicy,
    seed: u64,
    games: u32,
) -> pb::PlayoutResponse {
    api.playout(
        &pb::PlayoutRequest {
            state: Some(state.clone()),
            policy: policy as i32,
            seed,
            games,
            max_actions: 5_000,
            include_actions: true,
            ..Default::default()
        },
        None,
        None,
        &Cancel::new(),
    )
    .unwrap()
}

#[test]
fn playout_is_reproducible_and_matches_direct_loops() {
    let api = Api::new();
    let opts = BTreeMap::new();
    let start = new_game(&api, "autobahn", 2, &opts, 11);
    let a = playout(&api, &start, pb::PlayoutPolicy::RandomLegal, 11, 4);
    let b = playout(&api, &start, pb::PlayoutPolicy::RandomLegal, 11, 4);
    assert_eq!(a, b);
    assert_eq!(a.games_played, 4);
    assert!(!a.partial);
    assert_eq!(a.finished, 4, "{a:?}");
    // Game 0 is the CLI's game for seed 11 (setup and policy seeded alike).
    let options = WireAutobahn::options_from_pb(&BTreeMap::new()).unwrap();
    let cli = playout::play_one::<Autobahn>(
        &options,
        2,
        11,
        5_000,
        playout::autobahn_rare,
        &[playout::Policy::Random],
    );
    let playout::Ending::Finished(scores, _) = cli.ending else {
        panic!("{cli:?}")
    };
    assert_eq!(a.played[0].outcome.as_ref().unwrap().scores, scores);
    assert_eq!(a.played[0].actions.len() as u64, cli.actions);
    // The statistics are those of the games' outcomes.
    let outcomes: Vec<&pb::Outcome> = a.played.iter().filter_map(|g| g.outcome.as_ref()).collect();
    for seat in 0..2 {
        let v: Vec<f64> = outcomes.iter().map(|o| o.scores[seat] as f64).collect();
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64).sqrt();
        let s = &a.seats[seat];
        assert!((s.mean_score - mean).abs() < 1e-9);
        assert!((s.score_stddev - sd).abs() < 1e-9);
        assert_eq!(
            s.wins as usize,
            outcomes.iter().filter(|o| o.ranks[seat] == 1).count()
        );
    }
    // A different seed plays other games.
    let c = playout(&api, &start, pb::PlayoutPolicy::RandomLegal, 12, 4);
    assert_ne!(a.played, c.played);

    // First legal: a direct loop in the engine gives the same game.
    let state = decode_state::<WireAutobahn>(&start).unwrap();
    let mut s = state.clone();
    let mut n = 0;
    while Autobahn::outcome(&s).is_none() && n < 5_000 {
        let seat = Autobahn::to_act(&s)[0];
        let action = Autobahn::legal_actions(&s, seat).remove(0);
        Autobahn::apply(&mut s, seat, &action).unwrap();
        n += 1;
    }
    let first = playout(&api, &start, pb::PlayoutPolicy::FirstLegal, 0, 2);
    assert_eq!(first.played[0].actions.len(), n);
    assert_eq!(first.played[0].actions, first.played[1].actions);
    // The seed does not matter for the first-legal policy: another seed plays the same games
    // with the same statistics; only `played[].seed` differs (seed + k).
    let other = playout(&api, &start, pb::PlayoutPolicy::FirstLegal, 12_345, 2);
    assert_eq!(
        other.played.iter().map(|g| g.seed).collect::<Vec<_>>(),
        [12_345, 12_346]
    );
    let unseeded = |r: &pb::PlayoutResponse| {
        let mut r = r.clone();
        for g in &mut r.played {
            g.seed = 0;
        }
        r
    };
    assert_eq!(unseeded(&other), unseeded(&first));
    match Autobahn::outcome(&s) {
        Some(o) => {
            assert_eq!(first.played[0].outcome.as_ref().unwrap().scores, o.scores);
            assert_eq!(first.seats[0].mean_score, o.scores[0] as f64);
            assert_eq!(first.seats[0].score_stddev, 0.0);
        }
        None => assert_eq!(first.unfinished, 2),
    }
}

#[test]
fn playout_caps_and_deadline() {
    let api = Api::new();
    let start = new_game(&api, "1841", 4, &BTreeMap::new(), 0);
    let err = api
        .playout(
            &pb::PlayoutRequest {
                state: Some(start.clone()),
                games: 1_000,
                max_actions: 50_000,
                ..Default::default()
            },
            None,
            None,
            &Cancel::new(),
        )
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument);
    // A 1 ms deadline: partial results, not an error. Unset max_actions fits the cap
    // (200 games: 10,000 each).
    let r = api
        .playout(
            &pb::PlayoutRequest {
                state: Some(start),
                games: 200,
                ..Default::default()
            },
            Some(std::time::Duration::from_millis(1)),
            None,
            &Cancel::new(),
        )
        .unwrap();
    assert!(r.partial);
    assert!(r.games_played < 200);
}

/// Every recorded `run_routes` of both recorded games: SuggestRoutes earns at least the
/// recorded revenue, and the same request gives the same answer.
#[test]
fn suggest_routes_beats_every_recorded_operating_turn() {
    let api = Api::new();
    let mut turns = 0;
    for name in ["132002", "1841_game_end_bank"] {
        let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
        let options = export.options().unwrap();
        let mut state = G1841::setup(&options, export.players.len() as u32, 0).unwrap();
        for action in &export.actions {
            if action.kind == "destination_connection" || action.kind.starts_with("program") {
                continue;
            }
            let Ok(Some((seat, a))) = action.to_action(&state) else {
                break;
            };
            if let referee_engine::g1841::Action::RunRoutes { routes } = &a {
                let sym = referee_engine::g1841::operating_round::current(&state).unwrap();
                let recorded: i64 =
                    referee_engine::g1841::operating_round::check_routes(&state, &sym, routes)
                        .unwrap()
                        .iter()
                        .sum();
                let req = pb::SuggestRoutesRequest {
                    state: Some(encode_state::<Wire1841>(&state, 0)),
                    ..Default::default()
                };
                let r = api.suggest_routes(&req).unwrap();
                assert_eq!(r.corporation, sym);
                assert!(
                    r.revenue >= recorded,
                    "{name} {sym}: {} < {recorded}",
                    r.revenue
                );
                assert_eq!(r.revenues.iter().sum::<i64>(), r.revenue);
                assert!(r.proven_optimal);
                assert_eq!(api.suggest_routes(&req).unwrap(), r);
                turns += 1;
            }
            if G1841::apply(&mut state, seat, &a).is_err() {
                break;
            }
        }
    }
    assert!(turns > 100, "{turns} turns");
    // Errors: an Autobahn state, an unknown corporation, a budget over the cap.
    let ab = new_game(&api, "autobahn", 2, &BTreeMap::new(), 1);
    let e = api
        .suggest_routes(&pb::SuggestRoutesRequest {
            state: Some(ab),
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    let g = new_game(&api, "1841", 4, &BTreeMap::new(), 0);
    let e = api
        .suggest_routes(&pb::SuggestRoutesRequest {
            state: Some(g.clone()),
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::FailedPrecondition);
    let e = api
        .suggest_routes(&pb::SuggestRoutesRequest {
            state: Some(g.clone()),
            corporation: "XYZ".into(),
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    let e = api
        .suggest_routes(&pb::SuggestRoutesRequest {
            state: Some(g),
            corporation: "SFTG".into(),
            work_budget: 20_000_001,
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
}

/// DefaultAction (both policies) for every seat that must act is accepted by Apply, along
/// random games of both titles (seeded; the engine's proptest covers more positions).
#[test]
fn default_action_is_always_accepted_along_random_games() {
    let api = Api::new();
    let starts = [
        ("autobahn", 2u32, 3u64, 250usize),
        ("autobahn", 3, 4, 250),
        ("1841", 3, 0, 120),
        ("1841", 4, 0, 120),
    ];
    for (game, seats, seed, steps) in starts {
        let mut opts = BTreeMap::new();
        if game == "1841" && seats == 4 {
            opts.insert("version_1".to_string(), "true".to_string());
        }
        let mut state = new_game(&api, game, seats, &opts, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for step in 0..steps {
            let to_act = api
                .legal_actions(&pb::LegalActionsRequest {
                    state: Some(state.clone()),
                    seat: 0,
                    ..Default::default()
                })
                .unwrap()
                .to_act;
            if to_act.is_empty() {
                break;
            }
            let mut next = None;
            for &seat in &to_act {
                for policy in [
                    pb::DefaultActionPolicy::PassOrMinimal,
                    pb::DefaultActionPolicy::RandomLegal,
                ] {
                    let d = api
                        .default_action(&pb::DefaultActionRequest {
                            state: Some(state.clone()),
                            seat,
                            policy: policy as i32,
                            seed: rng.next_u64(),
                            ..Default::default()
                        })
                        .unwrap();
                    assert!(!d.description.is_empty());
                    let acc = accepted(
                        api.apply(&pb::ApplyRequest {
                            state: Some(state.clone()),
                            seat,
                            action: d.action.clone(),
                            ..Default::default()
                        })
                        .unwrap_or_else(|e| panic!("{game} step {step} seat {seat}: {e}")),
                    );
                    if policy == pb::DefaultActionPolicy::RandomLegal && next.is_none() {
                        next = acc.state;
                    }
                }
            }
            state = next.unwrap();
        }
    }
    // A seat that need not act.
    let g = new_game(&api, "1841", 4, &BTreeMap::new(), 0);
    let e = api
        .default_action(&pb::DefaultActionRequest {
            state: Some(g),
            seat: 3,
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::FailedPrecondition);
}

#[test]
fn describe_names_the_issue_example_and_every_recorded_action() {
    let api = Api::new();
    let (game, _) = recorded("132002.json");
    let replay = |n: usize| {
        api.replay(
            &pb::ReplayRequest {
                actions: game.actions[..n].to_vec(),
                ..game.clone()
            },
            &Cancel::new(),
        )
        .unwrap()
        .state
        .unwrap()
    };
    // Describe each recorded action in the state before it: legal and non-empty.
    let mut state = replay(0);
    let mut found = false;
    let mut texts = Vec::new();
    for sa in &game.actions {
        let d = api
            .describe(&pb::DescribeRequest {
                state: Some(state.clone()),
                seat: sa.seat,
                action: sa.action.clone(),
                ..Default::default()
            })
            .unwrap();
        assert!(d.legal, "{d:?}");
        assert!(d.rejection.is_none());
        if d.text == "IRSFF lays tile 202 on E9 (Bergamo), rotation 5, for L.0" {
            found = true;
        }
        texts.push(d.text.clone());
        state = accepted(
            api.apply(&pb::ApplyRequest {
                state: Some(state),
                seat: sa.seat,
                action: sa.action.clone(),
                ..Default::default()
            })
            .unwrap(),
        )
        .state
        .unwrap();
    }
    assert!(found, "the issue's example");
    // Lines of game 132002, pinned (amounts as the rules price them: 1841 §4.1, §5.2, §9.1,
    // §9.3, §9.4, §9.7).
    for (i, line) in [
        (0, "Seat 0 bids L.20 for the Bayard concession"),
        (1, "Seat 1 passes"),
        (
            100,
            "SFLP lays tile 55 on Q13 (Pistoia & Prato), rotation 2, for L.0",
        ),
        (150, "SFTC runs 1 route (train 2-6) for L.80"),
        (250, "SB buys 10% of SFTG from the pool for L.56"),
        (300, "Seat 0 buys 10% of CTDA from the IPO for L.129"),
        (450, "SFL pays out L.430"),
        (500, "Seat 2 passes (SB operating)"),
    ] {
        assert_eq!(texts[i], line, "action {i}");
    }
    // A refused action: described, not legal, with the rejection.
    let start = replay(0);
    let d = api
        .describe(&pb::DescribeRequest {
            state: Some(start),
            seat: 2,
            action: game.actions[0].action.clone(),
            ..Default::default()
        })
        .unwrap();
    assert!(!d.legal);
    assert_eq!(d.rejection.unwrap().code(), pb::RejectionCode::NotYourTurn);
}

fn view(
    api: &Api,
    state: &pb::GameState,
    seat: Option<u32>,
    role: pb::ViewerRole,
) -> Result<pb::ViewResponse, tonic::Status> {
    api.view(&pb::ViewRequest {
        state: Some(state.clone()),
        seat,
        viewer: role as i32,
        ..Default::default()
    })
}

fn g1841_bids(v: &pb::ViewResponse) -> Vec<Vec<i64>> {
    let Some(pb::view_response::View::G1841(v)) = &v.view else {
        panic!()
    };
    let Some(referee_service::pb::g1841::state::Round::ConcessionRound(r)) =
        &v.state.as_ref().unwrap().round
    else {
        panic!("{:?}", v.state.as_ref().unwrap().round)
    };
    r.sealed_bids.iter().map(|b| b.amounts.clone()).collect()
}

/// 1841 Version 1 sealed bids (1841 §4.2 step 1): a seat sees only its own amounts, a
/// spectator none, an arbiter all; arbiter views only when allowed.
#[test]
fn views_hide_sealed_bids_from_the_wrong_viewer() {
    let api = Api::new();
    let mut opts = BTreeMap::new();
    opts.insert("version_1".to_string(), "true".to_string());
    let start = new_game(&api, "1841", 3, &opts, 0);
    let mut amounts = vec![0i64; 8];
    amounts[0] = 25;
    amounts[3] = 40;
    let state = accepted(
        api.apply(&pb::ApplyRequest {
            state: Some(start),
            seat: 1,
            action: Some(pb::Action {
                action: Some(pb::action::Action::G1841(
                    referee_service::pb::g1841::Action {
                        action: Some(referee_service::pb::g1841::action::Action::BlindBid(
                            referee_service::pb::g1841::BlindBid {
                                amounts: amounts.clone(),
                            },
                        )),
                    },
                )),
            }),
            ..Default::default()
        })
        .unwrap(),
    )
    .state
    .unwrap();
    let empty: Vec<i64> = vec![];
    let spectator = g1841_bids(&view(&api, &state, None, pb::ViewerRole::Spectator).unwrap());
    assert_eq!(spectator, vec![empty.clone(), empty.clone(), empty.clone()]);
    assert_eq!(
        g1841_bids(&view(&api, &state, None, pb::ViewerRole::Unspecified).unwrap()),
        spectator
    );
    let own = g1841_bids(&view(&api, &state, Some(1), pb::ViewerRole::Seat).unwrap());
    assert_eq!(own, vec![empty.clone(), amounts.clone(), empty.clone()]);
    let other = g1841_bids(&view(&api, &state, Some(0), pb::ViewerRole::Unspecified).unwrap());
    assert_eq!(other, vec![empty.clone(), empty.clone(), empty.clone()]);
    let e = view(&api, &state, None, pb::ViewerRole::Arbiter).unwrap_err();
    assert_eq!(e.code(), tonic::Code::PermissionDenied);
    let e = view(&api, &state, Some(0), pb::ViewerRole::Spectator).unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    let arbiter = Api::new().with_arbiter_view(true);
    let all = g1841_bids(&view(&arbiter, &state, None, pb::ViewerRole::Arbiter).unwrap());
    assert_eq!(all, vec![empty.clone(), amounts, empty]);
}

fn autobahn_view(v: &pb::ViewResponse) -> referee_service::pb::autobahn::State {
    let Some(pb::view_response::View::Autobahn(v)) = &v.view else {
        panic!()
    };
    v.state.clone().unwrap()
}

/// Autobahn's hidden order (autobahn §5.2): card deck, delivery-tile stack, tiles in the box,
/// aside cards and the random generator are hidden from seats and spectators, shown to an
/// arbiter, and shown to everybody once the game has ended.
#[test]
fn views_hide_autobahn_deck_orders_until_the_end() {
    let api = Api::new();
    let start = new_game(&api, "autobahn", 2, &BTreeMap::new(), 5);
    let full = autobahn_view(
        &view(
            &Api::new().with_arbiter_view(true),
            &start,
            None,
            pb::ViewerRole::Arbiter,
        )
        .unwrap(),
    );
    let typed = match &start.state {
        Some(pb::game_state::State::Autobahn(s)) => s.clone(),
        _ => panic!(),
    };
    assert_eq!(full, typed, "the arbiter sees the state itself");
    assert!(!full.card_deck.is_empty());
    assert_ne!(full.rng.unwrap().seed, 0);
    for (seat, role) in [
        (None, pb::ViewerRole::Spectator),
        (Some(0), pb::ViewerRole::Seat),
        (Some(1), pb::ViewerRole::Unspecified),
    ] {
        // The wire view carries the hidden piles as counts only.
        let v = autobahn_view(&view(&api, &start, seat, role).unwrap());
        assert!(v.card_deck.is_empty(), "{seat:?}");
        assert_eq!(v.card_deck_count as usize, full.card_deck.len());
        assert!(v.delivery_tile_stack.is_empty());
        assert_eq!(
            v.delivery_tile_stack_count as usize,
            full.delivery_tile_stack.len()
        );
        assert!(v.tiles_in_box.is_empty());
        assert!(v.advanced_aside.is_empty());
        let rng = v.rng.unwrap();
        assert_eq!((rng.seed, rng.word_pos), (0, 0));
        // Everything public is unchanged.
        assert_eq!(v.players, full.players);
        assert_eq!(v.display, full.display);
    }
    // Once the game has ended, a spectator sees everything.
    let r = playout(&api, &start, pb::PlayoutPolicy::RandomLegal, 5, 1);
    let end = api
        .apply_batch(
            &pb::ApplyBatchRequest {
                state: Some(start),
                actions: r.played[0].actions.clone(),
                ..Default::default()
            },
            &Cancel::new(),
        )
        .unwrap()
        .state
        .unwrap();
    let ended = decode_state::<WireAutobahn>(&end).unwrap();
    assert!(Autobahn::outcome(&ended).is_some());
    let typed = match &end.state {
        Some(pb::game_state::State::Autobahn(s)) => s.clone(),
        _ => panic!(),
    };
    assert_eq!(
        autobahn_view(&view(&api, &end, None, pb::ViewerRole::Spectator).unwrap()),
        typed
    );
}

/// In sealed mode an arbiter presenting a sealing key sees everything; a wrong key is refused.
#[test]
fn sealed_mode_arbiter_key() {
    let key = "k1:".to_string() + &"ab".repeat(32);
    let sealer = referee_service::seal::Sealer::parse(&key).unwrap();
    let api = Api::sealed(sealer);
    let sealed = api
        .new_game(&pb::NewGameRequest {
            game: "autobahn".into(),
            seats: 2,
            seed: 1,
            ..Default::default()
        })
        .unwrap()
        .sealed_state;
    let ask = |k: &str| {
        api.view(&pb::ViewRequest {
            sealed_state: sealed.clone(),
            viewer: pb::ViewerRole::Arbiter as i32,
            arbiter_key: k.into(),
            ..Default::default()
        })
    };
    let v = autobahn_view(&ask(&key).unwrap());
    assert!(!v.card_deck.is_empty());
    let wrong = "k1:".to_string() + &"cd".repeat(32);
    assert_eq!(
        ask(&wrong).unwrap_err().code(),
        tonic::Code::PermissionDenied
    );
    assert_eq!(ask("").unwrap_err().code(), tonic::Code::PermissionDenied);
    // Playout in sealed mode needs --allow-arbiter-view.
    let e = api
        .playout(
            &pb::PlayoutRequest {
                sealed_state: sealed,
                ..Default::default()
            },
            None,
            None,
            &Cancel::new(),
        )
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::PermissionDenied);
    let _ = WireAutobahn::ID;
}

/// An action of the other game (or one that cannot be read) is described as Apply would
/// judge it: `legal: false` with Apply's rejection, not an error (docs/API.md, Describe).
#[test]
fn describe_judges_an_unreadable_action_as_apply_does() {
    let api = Api::new();
    let state = new_game(&api, "1841", 4, &BTreeMap::new(), 0);
    let autobahn_action = referee_service::games::autobahn::WireAutobahn::action_to_pb(
        &referee_engine::autobahn::Action::EndTurn,
    );
    let empty_1841 = pb::Action {
        action: Some(pb::action::Action::G1841(
            referee_service::pb::g1841::Action::default(),
        )),
    };
    for (action, text) in [
        (
            autobahn_action,
            "Seat 0: the action is not an action of 1841",
        ),
        (empty_1841, "Seat 0: the 1841 action is empty"),
    ] {
        let d = api
            .describe(&pb::DescribeRequest {
                state: Some(state.clone()),
                seat: 0,
                action: Some(action.clone()),
                ..Default::default()
            })
            .unwrap();
        assert!(!d.legal);
        assert_eq!(d.text, text);
        let applied = api
            .apply(&pb::ApplyRequest {
                state: Some(state.clone()),
                seat: 0,
                action: Some(action),
                ..Default::default()
            })
            .unwrap();
        let Some(pb::apply_response::Result::Rejected(r)) = applied.result else {
            panic!("Apply accepted it");
        };
        assert_eq!(d.rejection, r.rejection);
        assert_eq!(
            d.rejection.unwrap().code(),
            pb::RejectionCode::InvalidArgument
        );
    }
    // No action at all stays a malformed request.
    let e = api
        .describe(&pb::DescribeRequest {
            state: Some(state),
            seat: 0,
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    assert_eq!(e.message(), "action: missing");
}

/// A Playout game given up at its action limit names the request field, `max_actions`
/// (`referee playout` keeps naming its flag, `--max-actions`).
#[test]
fn playout_names_the_request_field_of_the_action_limit() {
    let api = Api::new();
    let start = new_game(&api, "1841", 4, &BTreeMap::new(), 0);
    let r = api
        .playout(
            &pb::PlayoutRequest {
                state: Some(start),
                policy: pb::PlayoutPolicy::FirstLegal as i32,
                games: 2,
                max_actions: 10,
                include_actions: true,
                ..Default::default()
            },
            None,
            None,
            &Cancel::new(),
        )
        .unwrap();
    assert_eq!(r.unfinished, 2);
    for g in &r.played {
        assert_eq!(
            g.unfinished_reason,
            "no result after 10 actions (max_actions)"
        );
        assert_eq!(g.actions.len(), 10);
    }
    let plan = playout::Plan {
        players: 4,
        games: 1,
        seed: 0,
        max_actions: 10,
        options: BTreeMap::new(),
        policies: Vec::new(),
    };
    let (report, ok) = playout::run::<Wire1841>(&plan, playout::g1841_rare).unwrap();
    assert!(!ok);
    assert_eq!(
        report["unfinished_details"][0]["reason"],
        "no result after 10 actions (--max-actions)"
    );
}

/// SuggestRoutes' `work` is what the search spent, as documented on the field: at least the
/// budget when the search was cut (`proven_optimal: false`), the full search's work when it
/// was not (which can be over the budget: the greedy completion), and with a budget of 1
/// (no route found yet) exactly one unit per train over it.
#[test]
fn suggest_routes_work_is_the_budget_plus_the_greedy_completion() {
    let api = Api::new();
    let imported = api
        .import_game(&pb::ImportGameRequest {
            export_json: fixture("132002.json"),
            stop_at_action_id: Some(250),
            ..Default::default()
        })
        .unwrap();
    let gs = imported.state.unwrap();
    let state = decode_state::<Wire1841>(&gs).unwrap();
    let suggest = |budget: u64| {
        api.suggest_routes(&pb::SuggestRoutesRequest {
            state: Some(gs.clone()),
            work_budget: budget,
            ..Default::default()
        })
        .unwrap()
    };
    let full = suggest(0);
    assert_eq!(full.corporation, "IRSFF");
    assert!(full.proven_optimal && full.revenue == 190, "{full:?}");
    let trains = state.operations.trains["IRSFF"].len() as u64;
    assert_eq!(trains, 2);
    let one = suggest(1);
    assert!(!one.proven_optimal && one.routes.is_empty(), "{one:?}");
    assert_eq!(one.work, 1 + trains);
    for budget in 1..=full.work + 5 {
        let r = suggest(budget);
        if r.proven_optimal {
            // The greedy completion may end over the budget even when nothing else is left
            // to search (budget 30 here: work 34, proven optimal).
            assert_eq!(
                (r.work, r.revenue),
                (full.work, full.revenue),
                "budget {budget}"
            );
        } else {
            assert!(r.work >= budget, "budget {budget}: {r:?}");
            assert!(budget < full.work, "budget {budget}: {r:?}");
        }
    }
}
