//! End to end: the server's limits — load shedding over the concurrency limit and the
//! per-request timeout — answer with the documented codes and the server keeps serving.

mod common;

use common::Server;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_client::RefereeClient;
use tonic::Code;
use tonic::transport::Channel;

async fn client(server: &Server) -> RefereeClient<Channel> {
    RefereeClient::connect(server.url()).await.expect("connect")
}

/// Plays `n` actions of a 4-player Autobahn game (first legal action of the seat to act) and
/// returns them, for replays that take a measurable time.
async fn autobahn_actions(client: &mut RefereeClient<Channel>, n: usize) -> Vec<pb::SeatAction> {
    let mut state = client
        .new_game(pb::NewGameRequest {
            game: "autobahn".into(),
            seats: 4,
            seed: 7,
            ..Default::default()
        })
        .await
        .expect("NewGame")
        .into_inner()
        .state
        .expect("state");
    let mut actions = Vec::new();
    while actions.len() < n {
        let legal = client
            .legal_actions(pb::LegalActionsRequest {
                state: Some(state.clone()),
                seat: 0,
                sealed_state: vec![],
            })
            .await
            .expect("LegalActions")
            .into_inner();
        let Some(&seat) = legal.to_act.first() else {
            break;
        };
        let legal = client
            .legal_actions(pb::LegalActionsRequest {
                state: Some(state.clone()),
                seat,
                sealed_state: vec![],
            })
            .await
            .expect("LegalActions")
            .into_inner();
        let Some(pb::legal_actions_response::LegalActions::Autobahn(l)) = legal.legal_actions
        else {
            panic!("no Autobahn legal actions")
        };
        let action = pb::Action {
            action: Some(pb::action::Action::Autobahn(
                l.actions.first().expect("a legal action").clone(),
            )),
        };
        let resp = client
            .apply(pb::ApplyRequest {
                state: Some(state.clone()),
                seat,
                action: Some(action.clone()),
                ..Default::default()
            })
            .await
            .expect("Apply")
            .into_inner();
        let Some(pb::apply_response::Result::Accepted(acc)) = resp.result else {
            panic!("first legal action refused: {resp:?}")
        };
        state = acc.state.expect("state");
        actions.push(pb::SeatAction {
            seat,
            action: Some(action),
        });
    }
    actions
}

fn replay_request(actions: &[pb::SeatAction]) -> pb::ReplayRequest {
    pb::ReplayRequest {
        game: "autobahn".into(),
        seats: 4,
        seed: 7,
        actions: actions.to_vec(),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_over_the_concurrency_limit_are_shed_with_resource_exhausted() {
    let server = Server::start(&["--max-concurrency", "1"]);
    let mut c = client(&server).await;
    let actions = autobahn_actions(&mut c, 60).await;
    let request = replay_request(&actions);
    let mut calls = Vec::new();
    for _ in 0..24 {
        let mut c = c.clone();
        let r = request.clone();
        calls.push(tokio::spawn(async move { c.replay(r).await }));
    }
    let (mut ok, mut shed) = (0, 0);
    for call in calls {
        match call.await.expect("join") {
            Ok(resp) => {
                assert_eq!(resp.into_inner().actions_applied, 60);
                ok += 1;
            }
            Err(status) => {
                assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                shed += 1;
            }
        }
    }
    assert!(ok >= 1, "no call got through");
    assert!(
        shed >= 1,
        "24 concurrent replays with --max-concurrency 1: none was shed"
    );
    // Still serving.
    c.list_games(pb::ListGamesRequest {})
        .await
        .expect("still serving");
}

#[tokio::test]
async fn a_request_over_the_timeout_gets_deadline_exceeded() {
    let server = Server::start(&["--request-timeout-ms", "1"]);
    let mut c = client(&server).await;
    // Building the action list itself needs calls that may exceed 1 ms: use a second server.
    let helper = Server::start(&[]);
    let mut h = client(&helper).await;
    let actions = autobahn_actions(&mut h, 200).await;
    let err = c
        .replay(replay_request(&actions))
        .await
        .expect_err("a 200-action replay within 1 ms");
    assert_eq!(err.code(), Code::DeadlineExceeded, "{err:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_request_bodies_do_not_hold_concurrency_slots() {
    use std::io::{Read, Write};

    let server = Server::start(&["--max-concurrency", "2", "--body-timeout-ms", "400"]);
    // Four senders announce a body of 100 bytes, send one, and stall.
    let mut stalled = Vec::new();
    for _ in 0..4 {
        let mut s = std::net::TcpStream::connect(&server.addr).expect("connect");
        write!(
            s,
            "POST /v1/ListGames HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
        )
        .unwrap();
        stalled.push(s);
    }
    // Normal calls still get through at once.
    let mut c = client(&server).await;
    for _ in 0..5 {
        c.list_games(pb::ListGamesRequest {})
            .await
            .expect("served while bodies stall");
    }
    // The stalled senders are answered 408 once the body timeout passes.
    for mut s in stalled {
        s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        let mut head = [0u8; 12];
        s.read_exact(&mut head)
            .expect("an answer to the stalled request");
        assert_eq!(&head, b"HTTP/1.1 408", "{}", String::from_utf8_lossy(&head));
    }
}

/// A request body over `--max-request-bytes` is refused quoting that limit (not the larger
/// bound the server reads gRPC bodies with), in JSON and in gRPC-Web alike; a wrong HTTP
/// method on a JSON route gets the JSON error body (405), a path no route serves the JSON
/// error with 404, a body with characters after its JSON object the JSON error with 400.
#[tokio::test]
async fn oversized_bodies_and_wrong_methods_get_the_documented_errors() {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;

    let server = Server::start(&["--max-request-bytes", "1000"]);
    let http = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let send = |method: &str, path: &str, ct: &str, body: Vec<u8>| {
        let req = http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", server.url()))
            .header("content-type", ct)
            .body(Full::new(Bytes::from(body)))
            .unwrap();
        let http = http.clone();
        async move {
            let resp = http.request(req).await.expect("http request");
            let status = resp.status().as_u16();
            let headers = resp.headers().clone();
            let body = resp.into_body().collect().await.expect("body").to_bytes();
            (status, headers, body)
        }
    };
    let expected = "the request body is larger than this server accepts: at most 1000 bytes (--max-request-bytes)";
    // 1,500 bytes: over the limit; 5,000: over the bound gRPC bodies are read with too.
    for size in [1_500, 5_000] {
        let (status, headers, body) =
            send("POST", "/v1/Apply", "application/json", vec![b' '; size]).await;
        assert_eq!(status, 413, "{size}");
        assert_eq!(headers["content-type"], "application/json");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["code"], "OUT_OF_RANGE");
        assert_eq!(v["message"], expected, "{size}");
    }
    let (status, headers, _) = send(
        "POST",
        "/referee.v1.Referee/Apply",
        "application/grpc-web+proto",
        vec![0; 5_000],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(headers["grpc-status"], "11", "OUT_OF_RANGE: {headers:?}");
    let message = headers["grpc-message"]
        .to_str()
        .unwrap()
        .replace("%20", " ");
    assert!(message.contains("at most 1000 bytes"), "{message}");
    // A wrong method: 405 with the JSON error and `Allow`.
    let (status, headers, body) = send("GET", "/v1/Apply", "application/json", Vec::new()).await;
    assert_eq!(status, 405);
    assert_eq!(headers["allow"], "POST");
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["code"], "UNIMPLEMENTED");
    assert_eq!(v["message"], "GET /v1/Apply: use POST");
    // A path no route serves: the JSON error with 404 (gRPC-Web callers: UNIMPLEMENTED).
    for (method, path) in [("GET", "/nope"), ("POST", "/v1/Apply/extra"), ("POST", "/")] {
        let (status, headers, body) = send(method, path, "application/json", b"{}".to_vec()).await;
        assert_eq!(status, 404, "{method} {path}");
        assert_eq!(headers["content-type"], "application/json");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["code"], "NOT_FOUND");
        assert_eq!(
            v["message"],
            format!(
                "no route for {method} {path}: the JSON API is POST /v1/<Method> (e.g. /v1/NewGame; GET /v1/ListGames), gRPC is /referee.v1.Referee/<Method>"
            )
        );
    }
    let (status, headers, _) = send(
        "POST",
        "/nope.v1.Nothing/Call",
        "application/grpc-web+proto",
        vec![0; 5],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(headers["grpc-status"], "12", "UNIMPLEMENTED: {headers:?}");
    // Trailing characters after the JSON object: 400 with the JSON error, not ignored.
    let (status, _, body) = send(
        "POST",
        "/v1/ListGames",
        "application/json",
        b"{} garbage".to_vec(),
    )
    .await;
    assert_eq!(status, 400);
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["code"], "INVALID_ARGUMENT");
    assert_eq!(
        v["message"],
        "request body is not valid proto3 JSON for this method: trailing characters at line 1 column 4 (after the JSON object)"
    );
}

/// `n` passes of a 4-seat 1841 game, the first by `first_seat` (9: a seat not at the table,
/// refused at once) and the others in turn.
fn passes(n: usize, first_seat: u32) -> Vec<pb::SeatAction> {
    (0..n)
        .map(|i| pb::SeatAction {
            seat: if i == 0 { first_seat } else { (i % 4) as u32 },
            action: Some(pb::Action {
                action: Some(pb::action::Action::G1841(
                    referee_service::pb::g1841::Action {
                        action: Some(referee_service::pb::g1841::action::Action::Pass(
                            Default::default(),
                        )),
                    },
                )),
            }),
        })
        .collect()
}

/// Every request carrying a list of actions (ApplyBatch, Replay, StreamReplay, ExportGame)
/// may carry at most 100,000 of them: one more is INVALID_ARGUMENT naming the limit (HTTP
/// 400 with the JSON error), counted before any action is decoded or applied; exactly
/// 100,000 are taken (here the first is refused, so the answer comes at once).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn action_lists_are_limited_to_100000_actions() {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;

    // Large enough for 100,001 actions in JSON (about 45 bytes each).
    let server = Server::start(&["--max-request-bytes", "16777216"]);
    let mut c = client(&server).await;
    let state = c
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            ..Default::default()
        })
        .await
        .expect("NewGame")
        .into_inner()
        .state;
    let replay = |actions: Vec<pb::SeatAction>| pb::ReplayRequest {
        game: "1841".into(),
        seats: 4,
        actions,
        ..Default::default()
    };
    let too_many = passes(100_001, 0);
    let limit = |field: &str| format!("{field}: at most 100000 actions per request, got 100001");
    // Only ApplyBatch can go on from a returned state, so only its message says so.
    let batch_limit = format!(
        "{} (split the list: ApplyBatch continues from the state the previous call returned)",
        limit("actions")
    );

    let batch = pb::ApplyBatchRequest {
        state: state.clone(),
        actions: too_many.clone(),
        ..Default::default()
    };
    let err = c.apply_batch(batch.clone()).await.expect_err("ApplyBatch");
    assert_eq!(
        (err.code(), err.message()),
        (Code::InvalidArgument, batch_limit.as_str())
    );
    let err = c
        .replay(replay(too_many.clone()))
        .await
        .expect_err("Replay");
    assert_eq!(
        (err.code(), err.message()),
        (Code::InvalidArgument, limit("actions").as_str())
    );
    let stream = pb::StreamReplayRequest {
        game: Some(replay(too_many.clone())),
        ..Default::default()
    };
    let err = match c.stream_replay(stream.clone()).await {
        Err(status) => status,
        Ok(resp) => resp.into_inner().message().await.expect_err("StreamReplay"),
    };
    assert_eq!(
        (err.code(), err.message()),
        (Code::InvalidArgument, limit("game.actions").as_str())
    );
    let err = c
        .export_game(pb::ExportGameRequest {
            game: Some(replay(too_many.clone())),
            ..Default::default()
        })
        .await
        .expect_err("ExportGame");
    assert_eq!(
        (err.code(), err.message()),
        (Code::InvalidArgument, limit("game.actions").as_str())
    );

    // HTTP/JSON: 400 with the JSON error.
    let http = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    for (method, body, field) in [
        ("ApplyBatch", serde_json::to_vec(&batch).unwrap(), "actions"),
        (
            "StreamReplay",
            serde_json::to_vec(&stream).unwrap(),
            "game.actions",
        ),
    ] {
        let req = http::Request::post(format!("{}/v1/{method}", server.url()))
            .header("content-type", "application/json")
            .body(Full::new(Bytes::from(body)))
            .unwrap();
        let resp = http.request(req).await.expect("http request");
        assert_eq!(resp.status(), 400, "{method}");
        let body = resp.into_body().collect().await.unwrap().to_bytes();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["code"], "INVALID_ARGUMENT", "{method}");
        let expected = if method == "ApplyBatch" {
            batch_limit.clone()
        } else {
            limit(field)
        };
        assert_eq!(v["message"], expected, "{method}");
    }

    // Exactly 100,000: taken (the first action is refused, so nothing else is applied).
    let at_limit = passes(100_000, 9);
    let r = c
        .apply_batch(pb::ApplyBatchRequest {
            state,
            actions: at_limit.clone(),
            ..Default::default()
        })
        .await
        .expect("ApplyBatch of 100,000")
        .into_inner();
    assert_eq!(r.actions_applied, 0);
    assert_eq!(r.failure.map(|f| f.index), Some(0));
    let r = c
        .replay(replay(at_limit.clone()))
        .await
        .expect("Replay of 100,000")
        .into_inner();
    assert_eq!(r.actions_applied, 0);
    assert_eq!(r.failure.map(|f| f.index), Some(0));
    let mut s = c
        .stream_replay(pb::StreamReplayRequest {
            game: Some(replay(at_limit)),
            ..Default::default()
        })
        .await
        .expect("StreamReplay of 100,000")
        .into_inner();
    let setup = s.message().await.unwrap().unwrap();
    assert_eq!(setup.action_count, 0);
    let failed = s.message().await.unwrap().unwrap();
    assert!(failed.last);
    assert_eq!(failed.failure.map(|f| f.index), Some(0));
}

/// Playout with `include_actions` returns every action, so games × max_actions is capped at
/// 100,000 (INVALID_ARGUMENT naming the limit, HTTP 400 with the JSON error); at the cap the
/// call is taken (cut short by its deadline, `partial`, or played to the end).
#[tokio::test]
async fn playout_with_actions_is_capped_at_100000_returned_actions() {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;

    let server = Server::start(&[]);
    let mut c = client(&server).await;
    let state = c
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            ..Default::default()
        })
        .await
        .expect("NewGame")
        .into_inner()
        .state;
    let playout = |games, max_actions| pb::PlayoutRequest {
        state: state.clone(),
        games,
        max_actions,
        include_actions: true,
        ..Default::default()
    };
    let expected = "games × max_actions: at most 100000 with include_actions (every action is returned), got 100010";
    let err = c
        .playout(playout(10, 10_001))
        .await
        .expect_err("over the cap");
    assert_eq!(
        (err.code(), err.message()),
        (Code::InvalidArgument, expected)
    );
    let http = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let body = serde_json::to_vec(&playout(10, 10_001)).unwrap();
    let req = http::Request::post(format!("{}/v1/Playout", server.url()))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let resp = http.request(req).await.expect("http request");
    assert_eq!(resp.status(), 400);
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["code"], "INVALID_ARGUMENT");
    assert_eq!(v["message"], expected);
    // Without include_actions the same numbers are within the work cap.
    for (games, max_actions, include_actions) in [(10, 10_000, true), (10, 10_001, false)] {
        let mut req = tonic::Request::new(pb::PlayoutRequest {
            include_actions,
            ..playout(games, max_actions)
        });
        req.set_timeout(std::time::Duration::from_secs(1));
        let p = c.playout(req).await.expect("within the caps").into_inner();
        // Taken: cut short by its deadline (`partial`), or, on a fast machine, every game
        // played (random 1841 games often end early by bankruptcy).
        assert!(p.partial || p.games_played == games, "{p:?}");
    }
}

/// Slow or idle connections (slowloris) are closed: a connection that sends nothing, half an
/// HTTP/1.1 request header, half the HTTP/2 preface, or the preface without any request is
/// closed `--header-read-timeout-ms` after it was opened; an idle HTTP/1.1 keep-alive
/// connection is closed as long after its last answer. Calls in flight are not cut by
/// these timeouts, and a gRPC client whose idle connection was closed (`--idle-timeout-ms`,
/// GOAWAY) goes on calling.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_or_idle_connections_are_closed() {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};

    let (server, logs) = Server::start_logged(
        &[
            "--header-read-timeout-ms",
            "500",
            "--idle-timeout-ms",
            "1000",
        ],
        "warn,referee_service::server=debug",
    );
    let empty_settings: &[u8] = &[0, 0, 0, 4, 0, 0, 0, 0, 0];
    let cases: [(&str, Vec<u8>); 4] = [
        ("nothing", Vec::new()),
        (
            "half an HTTP/1.1 header",
            b"POST /v1/ListGames HTTP/1.1\r\nHost: x\r\nContent-Type: appl".to_vec(),
        ),
        ("half the HTTP/2 preface", H2_PREFACE[..12].to_vec()),
        (
            "the HTTP/2 preface and no request",
            [H2_PREFACE, empty_settings].concat(),
        ),
    ];
    for (what, sent) in cases {
        let since = Instant::now();
        let mut s = std::net::TcpStream::connect(&server.addr).expect("connect");
        s.write_all(&sent).unwrap();
        let (closed, got) = closed_after(&mut s, since);
        let closed = closed.unwrap_or_else(|| panic!("{what}: still open after 5 s"));
        assert!(
            closed >= Duration::from_millis(400) && closed < Duration::from_millis(2500),
            "{what}: closed after {closed:?}"
        );
        assert!(
            !String::from_utf8_lossy(&got).contains("200 OK"),
            "{what}: {got:?}"
        );
    }
    // HTTP/1.1 keep-alive: answered, then closed once idle for the header timeout.
    let mut s = std::net::TcpStream::connect(&server.addr).expect("connect");
    s.write_all(b"GET /v1/ListGames HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut head = [0u8; 15];
    s.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200 OK");
    let since = Instant::now();
    let (closed, _) = closed_after(&mut s, since);
    let closed = closed.expect("an idle keep-alive connection still open after 5 s");
    assert!(closed < Duration::from_millis(2500), "{closed:?}");

    // A call longer than both timeouts is not cut (Playout: partial at its 2 s deadline),
    // and the client goes on calling after its idle connection was closed.
    let mut c = client(&server).await;
    let state = c
        .new_game(pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            ..Default::default()
        })
        .await
        .expect("NewGame")
        .into_inner()
        .state;
    let mut req = tonic::Request::new(pb::PlayoutRequest {
        state,
        games: 200,
        ..Default::default()
    });
    req.set_timeout(Duration::from_secs(2));
    let p = c.playout(req).await.expect("a long call").into_inner();
    assert!(p.partial);
    let idle = logs.wait_for(&["closing an idle connection"], Duration::from_secs(5));
    assert!(idle.is_some(), "the idle gRPC connection was not closed");
    c.list_games(pb::ListGamesRequest {})
        .await
        .expect("a call after the idle connection was closed");
}

/// Reads until the server closes the connection; how long after `since` that was (None:
/// still open after 5 s), and what was read.
/// An HTTP/1.1 request head is at most 16 KiB (`MAX_HTTP1_BUF_BYTES`, as HTTP/2's header
/// list): a larger one is answered 431 and its connection closed as soon as it passes the
/// bound, not buffered up to hyper's default of ~400 KB until the header-read timeout
/// (1,000 such connections took a release server from 41 to 497 MiB; issue #24). A head
/// of 12 KiB is answered.
#[test]
fn large_http1_request_heads_are_refused_at_their_bound() {
    use std::io::{Read, Write};
    // The header-read timeout is long so that only the head's size can end the connection.
    let server = Server::start(&["--header-read-timeout-ms", "60000"]);
    let head = |pad: usize| {
        format!(
            "POST /v1/ListGames HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Pad: {}",
            "a".repeat(pad)
        )
    };
    // 12 KiB of header, complete: answered.
    let mut s = std::net::TcpStream::connect(&server.addr).expect("connect");
    s.write_all(format!("{}\r\nContent-Length: 2\r\n\r\n{{}}", head(12 << 10)).as_bytes())
        .unwrap();
    let mut status = [0u8; 15];
    s.read_exact(&mut status).unwrap();
    assert_eq!(&status, b"HTTP/1.1 200 OK");
    // 24 KiB of an unfinished head: 431 and closed (before the 60 s timeout: `closed_after`
    // waits 5 s at most).
    let mut s = std::net::TcpStream::connect(&server.addr).expect("connect");
    s.write_all(head(24 << 10).as_bytes()).unwrap();
    let (closed, got) = closed_after(&mut s, std::time::Instant::now());
    assert!(
        closed.is_some(),
        "an unfinished 24 KiB head is still waited for"
    );
    let got = String::from_utf8_lossy(&got);
    assert!(got.starts_with("HTTP/1.1 431"), "{got:?}");
}

fn closed_after(
    s: &mut std::net::TcpStream,
    since: std::time::Instant,
) -> (Option<std::time::Duration>, Vec<u8>) {
    use std::io::Read;
    s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return (Some(since.elapsed()), got),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return (Some(since.elapsed()), got);
            }
            Err(_) => return (None, got),
        }
    }
}

const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// One HTTP/2 frame: length, type, flags, stream id, payload.
fn h2_frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() as u32;
    let mut f = vec![(len >> 16) as u8, (len >> 8) as u8, len as u8, kind, flags];
    f.extend_from_slice(&stream.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

/// A HEADERS frame (END_HEADERS; END_STREAM if `end_stream`) of stream 1 for `POST path`,
/// every header an HPACK literal without indexing with a literal name.
fn h2_post(path: &str, content_type: &str, end_stream: bool) -> Vec<u8> {
    let mut block = Vec::new();
    for (name, value) in [
        (":method", "POST"),
        (":scheme", "http"),
        (":path", path),
        (":authority", "x"),
        ("content-type", content_type),
    ] {
        block.push(0x00);
        block.push(name.len() as u8);
        block.extend_from_slice(name.as_bytes());
        block.push(value.len() as u8);
        block.extend_from_slice(value.as_bytes());
    }
    h2_frame(1, 0x4 | u8::from(end_stream), 1, &block)
}

/// What a raw HTTP/2 client that acknowledges the server's SETTINGS but never a PING saw.
#[derive(Default)]
struct H2Seen {
    /// When the answer on stream 1 ended (a frame with END_STREAM, or RST_STREAM).
    answered: Option<std::time::Instant>,
    /// The DATA of stream 1.
    data: Vec<u8>,
    goaway: bool,
    ping: bool,
    /// When the server closed the connection (None: still open after `within`).
    closed: Option<std::time::Instant>,
}

impl std::fmt::Debug for H2Seen {
    /// The events, and the answer's DATA cut to 200 characters.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let data = String::from_utf8_lossy(&self.data);
        f.debug_struct("H2Seen")
            .field("answered", &self.answered.is_some())
            .field("data", &data.chars().take(200).collect::<String>())
            .field("goaway", &self.goaway)
            .field("ping", &self.ping)
            .field("closed", &self.closed.is_some())
            .finish()
    }
}

/// Sends `frames` after the preface and an empty SETTINGS, then reads frames until the server
/// closes the connection or `within` has passed, acknowledging SETTINGS and never PING.
fn h2_never_acking_ping(addr: &str, frames: &[Vec<u8>], within: std::time::Duration) -> H2Seen {
    use std::io::{Read, Write};
    use std::time::Instant;
    let until = Instant::now() + within;
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.write_all(&[H2_PREFACE.to_vec(), h2_frame(4, 0, 0, &[])].concat())
        .unwrap();
    for f in frames {
        s.write_all(f).unwrap();
    }
    let mut seen = H2Seen::default();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        // Every complete frame read so far.
        while buf.len() >= 9 {
            let len =
                (usize::from(buf[0]) << 16) | (usize::from(buf[1]) << 8) | usize::from(buf[2]);
            if buf.len() < 9 + len {
                break;
            }
            let (kind, flags) = (buf[3], buf[4]);
            let stream = u32::from_be_bytes([buf[5], buf[6], buf[7], buf[8]]) & 0x7fff_ffff;
            let payload = buf[9..9 + len].to_vec();
            buf.drain(..9 + len);
            match kind {
                0 if stream == 1 => seen.data.extend_from_slice(&payload),
                4 if flags & 1 == 0 => s.write_all(&h2_frame(4, 1, 0, &[])).unwrap(),
                6 => seen.ping = true,
                7 => seen.goaway = true,
                _ => {}
            }
            let ends = (stream == 1 && matches!(kind, 0 | 1) && flags & 1 == 1)
                || (stream == 1 && kind == 3);
            if ends && seen.answered.is_none() {
                seen.answered = Some(Instant::now());
            }
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return seen;
        }
        s.set_read_timeout(Some(left)).unwrap();
        match s.read(&mut chunk) {
            Ok(0) => {
                seen.closed = Some(Instant::now());
                return seen;
            }
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                seen.closed = Some(Instant::now());
                return seen;
            }
            Err(_) => return seen,
        }
    }
}

/// An HTTP/2 connection whose client never acknowledges a PING is still closed: hyper's
/// graceful shutdown (GOAWAY, then a PING to learn which streams the peer has started) waits
/// for that acknowledgement, so the server drops the connection `--header-read-timeout-ms`
/// after the GOAWAY (once no call is in flight) whatever the peer does. Also after a request
/// whose body never came (408 at `--body-timeout-ms`).
#[test]
fn http2_connections_that_never_ack_a_ping_are_closed() {
    use std::time::Duration;
    let server = Server::start(&[
        "--header-read-timeout-ms",
        "500",
        "--idle-timeout-ms",
        "1000",
        "--body-timeout-ms",
        "500",
    ]);
    // idle 1 s + grace 0.5 s after the answer; slack for a loaded machine.
    let (at_least, at_most) = (Duration::from_millis(1000), Duration::from_millis(4000));
    let within = Duration::from_secs(8);

    // One complete request, answered.
    let seen = h2_never_acking_ping(
        &server.addr,
        &[
            h2_post("/v1/ListGames", "application/json", false),
            h2_frame(0, 1, 1, b"{}"),
        ],
        within,
    );
    let answered = seen.answered.expect("ListGames not answered");
    assert!(
        String::from_utf8_lossy(&seen.data).contains("games"),
        "{seen:?}"
    );
    assert!(seen.goaway && seen.ping, "no GOAWAY and PING: {seen:?}");
    let closed = seen
        .closed
        .unwrap_or_else(|| panic!("still open {within:?} after the request: {seen:?}"))
        - answered;
    assert!(
        closed >= at_least && closed < at_most,
        "closed {closed:?} after the answer"
    );

    // A request whose body never comes: 408, then closed as above.
    let seen = h2_never_acking_ping(
        &server.addr,
        &[h2_post("/v1/ListGames", "application/json", false)],
        within,
    );
    let answered = seen.answered.expect("the stalled request not answered");
    assert!(
        String::from_utf8_lossy(&seen.data).contains("DEADLINE_EXCEEDED"),
        "{seen:?}"
    );
    assert!(seen.goaway && seen.ping, "no GOAWAY and PING: {seen:?}");
    let closed = seen
        .closed
        .unwrap_or_else(|| panic!("still open {within:?} after the request: {seen:?}"))
        - answered;
    assert!(
        closed >= at_least && closed < at_most,
        "closed {closed:?} after the 408"
    );
}

/// A body whose `Content-Length` announces more than `--max-request-bytes` is refused at once
/// with 413 (gRPC-Web: OUT_OF_RANGE), without waiting for the body (`--body-timeout-ms`) and
/// without `100 Continue` to a client that asks for it.
#[test]
fn bodies_announced_over_the_limit_are_refused_before_they_are_read() {
    use std::io::Write;
    use std::time::{Duration, Instant};
    let server = Server::start(&["--max-request-bytes", "1000", "--body-timeout-ms", "5000"]);
    let expected = "the request body is larger than this server accepts: at most 1000 bytes (--max-request-bytes)";
    for expect in ["", "Expect: 100-continue\r\n"] {
        for (path, ct) in [
            ("/v1/Apply", "application/json"),
            ("/referee.v1.Referee/Apply", "application/grpc-web+proto"),
        ] {
            let since = Instant::now();
            let mut s = std::net::TcpStream::connect(&server.addr).expect("connect");
            write!(
                s,
                "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {ct}\r\nContent-Length: 5000000\r\n{expect}\r\n"
            )
            .unwrap();
            // The server closes the connection after the answer (the body was not read).
            let (closed, got) = closed_after(&mut s, since);
            let got = String::from_utf8_lossy(&got).to_string();
            let elapsed = closed.unwrap_or_else(|| panic!("{path} {expect:?}: no close: {got}"));
            assert!(
                elapsed < Duration::from_millis(2500),
                "{path} {expect:?}: {elapsed:?}"
            );
            assert!(!got.contains("100 Continue"), "{path} {expect:?}: {got}");
            if ct == "application/json" {
                assert!(got.starts_with("HTTP/1.1 413 "), "{expect:?}: {got}");
                let body = got.split("\r\n\r\n").nth(1).unwrap_or_default();
                let v: serde_json::Value = serde_json::from_str(body).expect(&got);
                assert_eq!(v["code"], "OUT_OF_RANGE");
                assert_eq!(v["message"], expected);
            } else {
                assert!(got.starts_with("HTTP/1.1 200 "), "{expect:?}: {got}");
                assert!(got.contains("grpc-status: 11\r\n"), "{expect:?}: {got}");
                assert!(
                    got.replace("%20", " ").contains("at most 1000 bytes"),
                    "{expect:?}: {got}"
                );
            }
        }
    }
    // A body within the limit is still read (and answered) as before.
    let mut s = std::net::TcpStream::connect(&server.addr).expect("connect");
    s.write_all(
        b"POST /v1/ListGames HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    )
    .unwrap();
    let (_, got) = closed_after(&mut s, Instant::now());
    let got = String::from_utf8_lossy(&got);
    assert!(got.starts_with("HTTP/1.1 200 OK"), "{got}");
}

/// Text a caller sends (a game id, an option name quoted in an error) cannot forge log lines:
/// in the text format it is quoted with its newlines escaped, in JSON it is a JSON string,
/// and the error's message is the field `detail`, never a second `message`.
#[tokio::test]
async fn caller_text_in_logs_is_escaped() {
    let forged = "x\n2026-01-01T00:00:00.000000Z ERROR referee_service: FORGED\r\u{1b}[31m";
    let call = |server: &Server| {
        let url = server.url();
        async move {
            let mut c = RefereeClient::connect(url).await.expect("connect");
            let err = c
                .new_game(pb::NewGameRequest {
                    game: forged.into(),
                    seats: 4,
                    ..Default::default()
                })
                .await
                .expect_err("unknown game");
            assert_eq!(err.code(), Code::NotFound);
        }
    };
    let refused = |logs: &common::Logs| {
        logs.wait_for(&["rpc refused"], std::time::Duration::from_secs(5))
            .expect("the refusal is logged")
    };

    let (server, logs) = Server::start_logged_text(&[], "warn,referee_service::api=info");
    call(&server).await;
    let line = refused(&logs);
    assert!(
        line.contains(r#"detail="game: unknown game `x\n2026-01-01T00:00:00.000000Z ERROR referee_service: FORGED\r\u{1b}[31m` (ListGames lists the games this server knows)""#),
        "{line}"
    );
    assert!(
        line.contains(
            r#"game="x\n2026-01-01T00:00:00.000000Z ERROR referee_service: FORGED\r\u{1b}[31m""#
        ),
        "{line}"
    );
    for l in logs.lines() {
        assert!(!l.contains("FORGED") || l.contains("rpc refused"), "{l}");
        assert!(!l.contains('\u{1b}') && !l.contains('\r'), "{l:?}");
    }

    let (server, logs) = Server::start_logged(&[], "warn,referee_service::api=info");
    call(&server).await;
    let line = refused(&logs);
    let v: serde_json::Value = serde_json::from_str(&line).expect("one JSON object per line");
    assert_eq!(v["fields"]["message"], "rpc refused");
    assert_eq!(
        v["fields"]["detail"],
        format!("game: unknown game `{forged}` (ListGames lists the games this server knows)")
    );
    assert_eq!(v["span"]["game"], forged);
    assert_eq!(line.matches("\"message\"").count(), 1, "{line}");
}

/// Compression bombs (earlier attack round; review of issue #24, finding F: SECURITY.md cited
/// no test): no `grpc-encoding` is enabled, so a compressed request is refused with
/// UNIMPLEMENTED before anything is inflated. A gRPC-Web Apply whose message is 256 KB of
/// gzip inflating to 256 MiB of zeros: answered `grpc-status: 12`, the server's peak resident
/// memory (`VmHWM`) grown by less than the compressed body's size twice over and a few MiB of
/// buffers, far from the 256 MiB it would inflate to; the server answers a call after it.
#[cfg(target_os = "linux")]
#[test]
fn compressed_requests_are_refused_without_being_inflated() {
    use std::io::{Read, Write};
    let server = Server::start(&[]);
    let hwm_kib = || {
        std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
            .unwrap()
    };
    let bomb = referee_loadgen::attack::transport::gzip_bomb(256);
    let mut frame = vec![1u8];
    frame.extend_from_slice(&(bomb.len() as u32).to_be_bytes());
    frame.extend_from_slice(&bomb);
    let before = hwm_kib();
    let mut s = std::net::TcpStream::connect(&server.addr).unwrap();
    write!(
        s,
        "POST /referee.v1.Referee/Apply HTTP/1.1\r\nhost: x\r\n\
         content-type: application/grpc-web+proto\r\ngrpc-encoding: gzip\r\n\
         content-length: {}\r\n\r\n",
        frame.len()
    )
    .unwrap();
    s.write_all(&frame).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && s.read(&mut byte).is_ok_and(|n| n == 1) {
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    assert!(head.contains("grpc-status: 12"), "{head}");
    let grown_kib = hwm_kib().saturating_sub(before);
    assert!(
        grown_kib < (2 * bomb.len() as u64) / 1024 + 16 * 1024,
        "the server grew by {grown_kib} KiB for a {} KB body",
        bomb.len() / 1000
    );
    let mut again = std::net::TcpStream::connect(&server.addr).unwrap();
    write!(
        again,
        "GET /v1/ListGames HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = again.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}
