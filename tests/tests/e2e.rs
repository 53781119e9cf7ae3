//! End to end: the real `referee` binary on a loopback port, called over gRPC, gRPC-Web and
//! HTTP/JSON. Plays the first piece of 1841 (the concession round) on each transport and
//! checks the error model.

mod common;

use bytes::Bytes;
use common::Server;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use referee_service::pb::g1841 as g;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_client::RefereeClient;
use serde_json::{Value, json};
use tonic::Code;

fn bid(concession: &str, price: i64) -> pb::Action {
    pb::Action {
        action: Some(pb::action::Action::G1841(g::Action {
            action: Some(g::action::Action::Bid(g::Bid {
                concession: concession.into(),
                price,
            })),
        })),
    }
}

fn g1841(state: &pb::GameState) -> &g::State {
    match state.state.as_ref() {
        Some(pb::game_state::State::G1841(s)) => s,
        other => panic!("not a 1841 state: {other:?}"),
    }
}

/// The scenario every transport must pass: ListGames, NewGame, LegalActions, a legal Apply,
/// an illegal Apply (rejected, state unchanged and still usable), View.
macro_rules! play_concession_round_piece {
    ($client:expr) => {{
        let client = &mut $client;
        let games = client
            .list_games(pb::ListGamesRequest {})
            .await
            .expect("ListGames")
            .into_inner();
        let ids: Vec<_> = games.games.iter().map(|g| g.id.as_str()).collect();
        assert!(
            ids.contains(&"1841") && ids.contains(&"autobahn"),
            "{ids:?}"
        );
        let g1841_info = games.games.iter().find(|g| g.id == "1841").unwrap();
        assert_eq!((g1841_info.min_players, g1841_info.max_players), (3, 8));
        assert!(g1841_info.options.iter().any(|o| o.name == "version_1"));
        // The whole game is implemented (docs/games/1841.md).
        assert_eq!(g1841_info.stage, pb::GameStage::Complete as i32);

        let state = client
            .new_game(pb::NewGameRequest {
                game: "1841".into(),
                seats: 4,
                options: Default::default(),
                seed: 1,
                explicit_seed: false,
            })
            .await
            .expect("NewGame")
            .into_inner()
            .state
            .expect("state");
        assert_eq!(state.action_count, 0);
        assert_eq!(state.schema_version, 1);
        let s = g1841(&state);
        // 1841 §2: 4 players start with L.840 each; §1: the bank holds L.14,400 in all.
        assert!(s.players.iter().all(|p| p.cash == 840), "{:?}", s.players);
        assert_eq!(s.bank_cash + 4 * 840, 14_400);
        assert_eq!(s.player_order, vec![0, 1, 2, 3]);

        let legal = client
            .legal_actions(pb::LegalActionsRequest {
                state: Some(state.clone()),
                seat: 0,
                sealed_state: vec![],
            })
            .await
            .expect("LegalActions")
            .into_inner();
        assert_eq!(legal.to_act, vec![0]);
        let Some(pb::legal_actions_response::LegalActions::G1841(l)) = legal.legal_actions else {
            panic!("no 1841 legal actions")
        };
        // 1841 §4.1: a nomination opens at L.20 or more, up to the player's cash.
        let bayard = l
            .bids
            .iter()
            .find(|b| b.concession == "Bayard")
            .expect("Bayard biddable");
        assert_eq!((bayard.min_price, bayard.max_price), (20, 840));

        let accepted = client
            .apply(pb::ApplyRequest {
                state: Some(state.clone()),
                seat: 0,
                action: Some(bid("Bayard", 20)),
                ..Default::default()
            })
            .await
            .expect("Apply")
            .into_inner();
        let Some(pb::apply_response::Result::Accepted(acc)) = accepted.result else {
            panic!("not accepted: {accepted:?}")
        };
        let after = acc.state.expect("new state");
        assert_eq!(after.action_count, 1);
        assert!(!acc.events.is_empty());

        // Seat 0 again: not its turn (seat 1 must raise or drop out).
        let refused = client
            .apply(pb::ApplyRequest {
                state: Some(after.clone()),
                seat: 0,
                action: Some(bid("Bayard", 25)),
                ..Default::default()
            })
            .await
            .expect("Apply")
            .into_inner();
        let Some(pb::apply_response::Result::Rejected(rej)) = refused.result else {
            panic!("not rejected: {refused:?}")
        };
        let rej = rej.rejection.expect("rejection");
        assert_eq!(rej.code(), pb::RejectionCode::NotYourTurn);
        assert!(!rej.message.is_empty());

        // A raise below L.5 by the right seat is refused as well.
        let refused = client
            .apply(pb::ApplyRequest {
                state: Some(after.clone()),
                seat: 1,
                action: Some(bid("Bayard", 22)),
                ..Default::default()
            })
            .await
            .expect("Apply")
            .into_inner();
        let Some(pb::apply_response::Result::Rejected(rej)) = refused.result else {
            panic!("not rejected: {refused:?}")
        };
        assert_eq!(rej.rejection.unwrap().rule, "1841 §4.1");

        // The caller's state is untouched and still plays.
        let ok = client
            .apply(pb::ApplyRequest {
                state: Some(after.clone()),
                seat: 1,
                action: Some(bid("Bayard", 25)),
                ..Default::default()
            })
            .await
            .expect("Apply")
            .into_inner();
        assert!(
            matches!(ok.result, Some(pb::apply_response::Result::Accepted(_))),
            "{ok:?}"
        );

        // Stale-state protection: the caller expected another action count.
        let stale = client
            .apply(pb::ApplyRequest {
                state: Some(after.clone()),
                seat: 1,
                action: Some(bid("Bayard", 25)),
                expected_action_count: Some(0),
                ..Default::default()
            })
            .await
            .expect("Apply")
            .into_inner();
        let Some(pb::apply_response::Result::Rejected(rej)) = stale.result else {
            panic!("not rejected: {stale:?}")
        };
        assert_eq!(rej.rejection.unwrap().code(), pb::RejectionCode::StaleState);

        let view = client
            .view(pb::ViewRequest {
                state: Some(after.clone()),
                seat: None,
                sealed_state: vec![],
                ..Default::default()
            })
            .await
            .expect("View")
            .into_inner();
        assert_eq!(view.to_act, vec![1]);
        assert_eq!(view.action_count, 1);
        assert!(view.outcome.is_none());
        after
    }};
}

#[tokio::test]
async fn grpc_plays_the_concession_round_and_reports_health() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    play_concession_round_piece!(client);

    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    for service in ["", "referee.v1.Referee"] {
        let resp = health
            .check(tonic_health::pb::HealthCheckRequest {
                service: service.into(),
            })
            .await
            .expect("health")
            .into_inner();
        assert_eq!(
            resp.status(),
            tonic_health::pb::health_check_response::ServingStatus::Serving,
            "{service}"
        );
    }
}

#[tokio::test]
async fn grpc_web_plays_the_concession_round() {
    let server = Server::start(&[]);
    let http = Client::builder(TokioExecutor::new())
        .build_http::<tonic_web::GrpcWebCall<tonic::body::Body>>();
    let svc = tower::ServiceBuilder::new()
        .layer(tonic_web::GrpcWebClientLayer::new())
        .service(http);
    let mut client = RefereeClient::with_origin(svc, server.url().parse().unwrap());
    play_concession_round_piece!(client);
}

async fn post(
    server: &Server,
    path: &str,
    content_type: &str,
    body: Vec<u8>,
) -> (u16, http::HeaderMap, Bytes) {
    let http = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let req = http::Request::post(format!("{}{}", server.url(), path))
        .header("content-type", content_type)
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let resp = http.request(req).await.expect("http request");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let body = resp.into_body().collect().await.expect("body").to_bytes();
    (status, headers, body)
}

async fn post_json(server: &Server, method: &str, body: Value) -> (u16, Value) {
    let (status, _, bytes) = post(
        server,
        &format!("/v1/{method}"),
        "application/json",
        body.to_string().into_bytes(),
    )
    .await;
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{method}: not JSON ({e}): {bytes:?}"));
    (status, value)
}

#[tokio::test]
async fn http_json_plays_the_concession_round() {
    let server = Server::start(&[]);
    let (status, games) = post_json(&server, "ListGames", json!({})).await;
    assert_eq!(status, 200);
    let ids: Vec<_> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    assert!(ids.contains(&"1841".to_string()) && ids.contains(&"autobahn".to_string()));

    let (status, created) =
        post_json(&server, "NewGame", json!({"game": "1841", "seats": 4})).await;
    assert_eq!(status, 200, "{created}");
    let state = created["state"].clone();
    assert_eq!(state["g1841"]["players"][0]["cash"], json!("840"));

    let (status, applied) = post_json(
        &server,
        "Apply",
        json!({"state": state, "seat": 0, "action": {"g1841": {"bid": {"concession": "Bayard", "price": "20"}}}}),
    )
    .await;
    assert_eq!(status, 200, "{applied}");
    let after = applied["accepted"]["state"].clone();
    assert_eq!(after["actionCount"], json!("1"));

    let (status, refused) = post_json(
        &server,
        "Apply",
        json!({"state": after, "seat": 0, "action": {"g1841": {"bid": {"concession": "Bayard", "price": 25}}}}),
    )
    .await;
    assert_eq!(status, 200, "{refused}");
    assert_eq!(
        refused["rejected"]["rejection"]["code"],
        json!("REJECTION_CODE_NOT_YOUR_TURN")
    );

    let (status, view) = post_json(&server, "View", json!({"state": after})).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["toAct"], json!([1]));

    // Errors: malformed JSON, unknown game, unknown method.
    let (status, _, body) = post(
        &server,
        "/v1/Apply",
        "application/json",
        b"{not json".to_vec(),
    )
    .await;
    assert_eq!(status, 400);
    let err: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(err["code"], json!("INVALID_ARGUMENT"));
    let (status, err) = post_json(&server, "NewGame", json!({"game": "chess", "seats": 2})).await;
    assert_eq!((status, err["code"].as_str()), (404, Some("NOT_FOUND")));
    let (status, err) = post_json(&server, "Frobnicate", json!({})).await;
    assert_eq!((status, err["code"].as_str()), (404, Some("NOT_FOUND")));
}

async fn new_state(client: &mut RefereeClient<tonic::transport::Channel>) -> pb::GameState {
    client
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            options: Default::default(),
            seed: 0,
            explicit_seed: false,
        })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap()
}

#[tokio::test]
async fn bad_input_gives_typed_errors_and_the_server_keeps_serving() {
    let server = Server::start(&["--max-request-bytes", "65536"]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");

    // Random bytes as the request body of Apply (gRPC-Web framing, so we can send raw bytes).
    let mut frame = vec![0u8];
    let garbage: Vec<u8> = (0..64u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x80)
        .collect();
    frame.extend_from_slice(&(garbage.len() as u32).to_be_bytes());
    frame.extend_from_slice(&garbage);
    let (status, headers, body) = post(
        &server,
        "/referee.v1.Referee/Apply",
        "application/grpc-web+proto",
        frame,
    )
    .await;
    assert_eq!(status, 200);
    let grpc_status = headers
        .get("grpc-status")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_else(|| String::from_utf8_lossy(&body).to_string());
    assert!(
        grpc_status.contains('3'),
        "expected INVALID_ARGUMENT (3), got {grpc_status:?}"
    );

    // A state whose fields are broken: INVALID_ARGUMENT naming the field path.
    let mut state = new_state(&mut client).await;
    if let Some(pb::game_state::State::G1841(s)) = state.state.as_mut() {
        s.players[2].seat = 7;
    }
    let err = client
        .apply(pb::ApplyRequest {
            state: Some(state),
            seat: 0,
            action: Some(bid("Bayard", 20)),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
    assert!(
        err.message().contains("state.g1841.players[2].seat"),
        "{}",
        err.message()
    );

    // A state from a newer schema: FAILED_PRECONDITION.
    let mut state = new_state(&mut client).await;
    state.schema_version = 99;
    let err = client
        .view(pb::ViewRequest {
            state: Some(state),
            seat: Some(0),
            sealed_state: vec![],
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::FailedPrecondition);

    // Unknown game: NOT_FOUND; a listed game not playable yet: UNIMPLEMENTED.
    let err = client
        .new_game(pb::NewGameRequest {
            game: "chess".into(),
            seats: 2,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::NotFound);
    let err = client
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 9,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);

    // A seat that is not at the table.
    let state = new_state(&mut client).await;
    let err = client
        .legal_actions(pb::LegalActionsRequest {
            state: Some(state.clone()),
            seat: 4,
            sealed_state: vec![],
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);

    // Oversize requests are refused cleanly on both surfaces.
    let mut big = pb::ReplayRequest {
        game: "1841".into(),
        seats: 4,
        ..Default::default()
    };
    big.options.insert("padding".into(), "x".repeat(100_000));
    let err = client.replay(big).await.unwrap_err();
    assert!(
        matches!(err.code(), Code::OutOfRange | Code::ResourceExhausted),
        "{err:?}"
    );
    let (status, _, _) = post(
        &server,
        "/v1/ListGames",
        "application/json",
        vec![b' '; 100_000],
    )
    .await;
    assert_eq!(status, 413);

    // And the server still serves.
    let games = client
        .list_games(pb::ListGamesRequest {})
        .await
        .expect("still serving")
        .into_inner();
    assert!(games.games.len() >= 2);
}

#[tokio::test]
async fn replay_stops_at_the_first_refused_action() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let action = |seat, a| pb::SeatAction {
        seat,
        action: Some(a),
    };
    let pass = pb::Action {
        action: Some(pb::action::Action::G1841(g::Action {
            action: Some(g::action::Action::Pass(g::Pass {})),
        })),
    };
    let resp = client
        .replay(pb::ReplayRequest {
            game: "1841".into(),
            seats: 4,
            actions: vec![
                action(0, bid("Bayard", 20)),
                action(1, bid("Bayard", 25)),
                action(2, pass.clone()),
                action(2, pass.clone()), // seat 2 has dropped out: not its turn
                action(3, pass),
            ],
            ..Default::default()
        })
        .await
        .expect("Replay")
        .into_inner();
    assert_eq!(resp.actions_applied, 3);
    let failure = resp.failure.expect("failure");
    assert_eq!(failure.index, 3);
    assert_eq!(
        failure.rejection.unwrap().code(),
        pb::RejectionCode::NotYourTurn
    );
    assert_eq!(resp.state.unwrap().action_count, 3);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_in_flight_calls_finish_then_exits() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let state = new_state(&mut client).await;
    // Calls running while SIGTERM arrives still get their answers.
    let mut calls = Vec::new();
    for i in 0..20u32 {
        let mut c = client.clone();
        let st = state.clone();
        calls.push(tokio::spawn(async move {
            c.view(pb::ViewRequest {
                state: Some(st),
                seat: Some(i % 4),
                sealed_state: vec![],
                ..Default::default()
            })
            .await
        }));
    }
    let pid = server.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    for call in calls {
        let answer = call.await.expect("join");
        // Either answered, or refused before the server accepted it: the server's GOAWAY, a
        // closed listener, or a request still queued in the client when the connection closed.
        // Never a server-side error, never a hang.
        if let Err(status) = &answer {
            let refused_unaccepted = matches!(status.code(), Code::Unavailable | Code::Cancelled)
                || referee_loadgen::soak::refused_by_graceful_goaway(status);
            assert!(refused_unaccepted, "{status:?}");
        }
    }
    drop(client);
    let mut server = server;
    let status = tokio::task::spawn_blocking(move || server.child.wait().expect("wait"))
        .await
        .expect("join");
    assert!(
        status.success(),
        "referee exited with {status:?} after SIGTERM"
    );
}

#[cfg(unix)]
#[tokio::test]
async fn shutdown_grace_bounds_how_long_an_idle_connection_can_hold_the_server() {
    let server = Server::start(&["--shutdown-grace-ms", "200"]);
    // A raw TCP connection that never speaks: graceful shutdown would wait for it forever.
    let _idle = std::net::TcpStream::connect(&server.addr).expect("connect");
    let pid = server.child.id().to_string();
    std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    let mut server = server;
    let status = tokio::task::spawn_blocking(move || server.child.wait().expect("wait"))
        .await
        .expect("join");
    assert!(status.success(), "{status:?}");
}

#[tokio::test]
async fn reflection_lists_the_services_without_a_schema_file() {
    use tonic_reflection::pb::v1::ServerReflectionRequest;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

    let server = Server::start(&[]);
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .unwrap()
        .connect()
        .await
        .expect("connect");
    let mut client = ServerReflectionClient::new(channel);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut answers = client
        .server_reflection_info(tonic::codegen::tokio_stream::iter(vec![request]))
        .await
        .expect("reflection")
        .into_inner();
    let answer = answers
        .message()
        .await
        .expect("answer")
        .expect("one answer");
    let Some(MessageResponse::ListServicesResponse(list)) = answer.message_response else {
        panic!("unexpected answer: {answer:?}")
    };
    let names: Vec<_> = list.service.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"referee.v1.Referee"), "{names:?}");
    assert!(names.contains(&"grpc.health.v1.Health"), "{names:?}");
}

#[tokio::test]
async fn serves_with_otlp_export_configured_even_when_no_collector_listens() {
    // Port 9 (discard) on loopback: nothing listens; export fails quietly in the background.
    let bin = common::referee_bin();
    let mut child = std::process::Command::new(&bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--log-format", "json"])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    let server = Server {
        child,
        addr: line
            .trim()
            .trim_start_matches("referee listening on ")
            .to_string(),
    };
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let state = new_state(&mut client).await;
    assert_eq!(state.game, "1841");
}

/// Describe's line is safe to log: a caller's control characters come back escaped and a
/// huge id is cut to 512 characters (docs/API.md, Describe).
#[tokio::test]
async fn describe_text_is_escaped_and_cut() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let state = client
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            ..Default::default()
        })
        .await
        .expect("NewGame")
        .into_inner()
        .state;
    let describe = |concession: &str| pb::DescribeRequest {
        state: state.clone(),
        seat: 0,
        action: Some(bid(concession, 20)),
        ..Default::default()
    };
    let forged = client
        .describe(describe("X\nINFO forged\u{1b}[2J"))
        .await
        .expect("Describe")
        .into_inner();
    assert_eq!(
        forged.text,
        "Seat 0 bids L.20 for the X\\nINFO forged\\u{1b}[2J concession"
    );
    assert!(!forged.legal);
    let long = client
        .describe(describe(&"A".repeat(10_000)))
        .await
        .expect("Describe")
        .into_inner();
    assert_eq!(
        long.text.chars().count(),
        512 + "… (truncated)".chars().count()
    );
    assert!(long.text.starts_with("Seat 0 bids L.20 for the AAAA"));
    assert!(long.text.ends_with("A… (truncated)"));
}

/// A state's action count is bounded (2^53 − 1), so the next state's count is always one
/// more (docs/API.md, optimistic concurrency).
#[tokio::test]
async fn action_count_is_bounded() {
    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let mut state = client
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            ..Default::default()
        })
        .await
        .expect("NewGame")
        .into_inner()
        .state
        .expect("state");
    let apply = |state: &pb::GameState| pb::ApplyRequest {
        state: Some(state.clone()),
        seat: 0,
        action: Some(bid("SFTG", 20)),
        ..Default::default()
    };
    state.action_count = (1 << 53) - 1;
    let err = {
        let mut over = state.clone();
        over.action_count += 1;
        client
            .apply(apply(&over))
            .await
            .expect_err("over the bound")
    };
    assert_eq!(err.code(), Code::InvalidArgument);
    assert_eq!(
        err.message(),
        "state.action_count: must be at most 9007199254740991, got 9007199254740992"
    );
    // At the bound itself the state is read, but takes no further action: its answer would
    // be a state no server reads back (issue #24).
    client
        .view(pb::ViewRequest {
            state: Some(state.clone()),
            ..Default::default()
        })
        .await
        .expect("at the bound");
    let err = client
        .apply(apply(&state))
        .await
        .expect_err("an action past the bound");
    assert_eq!(err.code(), Code::FailedPrecondition, "{err:?}");
    // One below: the action is judged by the rules, and its answer (at the bound) reads back.
    state.action_count -= 1;
    let resp = client
        .apply(apply(&state))
        .await
        .expect("below the bound")
        .into_inner();
    assert!(resp.result.is_some());
}
