//! End to end: `ImportGame` and `ExportGame` (issue #5) over gRPC, gRPC-Web and HTTP/JSON,
//! in open and sealed mode: a recorded 18xx.games game imports to its recorded result, the
//! imported actions replay to the same state, exporting them and importing the export gives
//! the identical state; a truncated file, an unknown action type and a refused action answer
//! with a typed failure naming the action id; a 3 MB export fits the default request limit
//! and a smaller limit refuses it with OUT_OF_RANGE.

mod common;

use bytes::Bytes;
use common::Server;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_client::RefereeClient;
use serde_json::{Value, json};
use tonic::Code;
use tonic::transport::Channel;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/fixtures/1841/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

async fn client(server: &Server) -> RefereeClient<Channel> {
    RefereeClient::connect(server.url()).await.expect("connect")
}

fn import(text: String, check: bool, stop: Option<i64>) -> pb::ImportGameRequest {
    pb::ImportGameRequest {
        export_json: text,
        format: pb::GameRecordFormat::EighteenXxGamesExport as i32,
        check,
        stop_at_action_id: stop,
    }
}

/// The fixture with one action edited by `edit`, and that action's id.
fn edited(name: &str, edit: impl FnOnce(&mut Vec<Value>) -> Value) -> (String, i64) {
    let mut game: Value = serde_json::from_str(&fixture(name)).unwrap();
    let id = edit(game["actions"].as_array_mut().unwrap());
    (game.to_string(), id.as_i64().unwrap())
}

#[tokio::test]
async fn recorded_game_imports_replays_exports_and_reimports_identically_over_grpc() {
    let server = Server::start(&[]);
    let mut c = client(&server).await;
    let imported = c
        .import_game(import(fixture("132002.json"), true, None))
        .await
        .expect("ImportGame")
        .into_inner();
    assert_eq!(imported.failure, None);
    assert!(imported.finished);
    assert_eq!(imported.check.as_ref().map(|c| c.ok), Some(true));
    assert_eq!(imported.game, "1841");
    assert_eq!(imported.source_game_id, 132002);
    assert_eq!(imported.game_end_reason, "stock_market");
    assert_eq!(imported.actions_applied, 702);
    assert_eq!(imported.actions_total, 702);
    assert_eq!(imported.actions.len(), 702);
    // 18xx player ids → seats in `players` order, with our values and the recorded ones
    // (1841 §13; README of the fixtures: 605: 5899, 2843: 5703, 512: 5697, 5518: 3921).
    let players: Vec<(u32, &str, Option<i64>, Option<i64>)> = imported
        .players
        .iter()
        .map(|p| (p.seat, p.id.as_str(), p.result, p.recorded_result))
        .collect();
    assert_eq!(
        players,
        [
            (0, "512", Some(5697), Some(5697)),
            (1, "5518", Some(3921), Some(3921)),
            (2, "605", Some(5899), Some(5899)),
            (3, "2843", Some(5703), Some(5703)),
        ]
    );
    assert_eq!(imported.players[0].name, "Player 1");
    let state = imported.state.clone().expect("state");
    assert_eq!(state.action_count, 702);

    // The imported actions replay to the same state.
    let game = pb::ReplayRequest {
        game: imported.game.clone(),
        seats: 4,
        options: imported.options.clone(),
        seed: 0,
        actions: imported.actions.clone(),
    };
    let replayed = c.replay(game.clone()).await.expect("Replay").into_inner();
    assert_eq!(replayed.failure, None);
    assert_eq!(replayed.state.as_ref(), Some(&state));

    // Export them and import the export: the identical state and actions.
    let exported = c
        .export_game(pb::ExportGameRequest {
            game: Some(game),
            format: pb::GameRecordFormat::EighteenXxGamesExport as i32,
            players: imported.players.clone(),
            source_game_id: 132002,
            description: String::new(),
        })
        .await
        .expect("ExportGame")
        .into_inner();
    assert_eq!(exported.failure, None);
    assert_eq!(exported.actions_exported, 702);
    let written: Value = serde_json::from_str(&exported.export_json).unwrap();
    assert_eq!(written["title"], "1841");
    assert_eq!(written["id"], 132002);
    assert_eq!(written["game_end_reason"], "stock_market");
    assert_eq!(written["result"]["605"], 5899);
    assert_eq!(
        written["players"][0],
        json!({"id": 512, "name": "Player 1"})
    );
    assert_eq!(written["actions"][0]["type"], "bid");
    let again = c
        .import_game(import(exported.export_json, true, None))
        .await
        .expect("ImportGame of the export")
        .into_inner();
    assert_eq!(again.failure, None);
    assert_eq!(again.check.map(|c| c.ok), Some(true));
    assert_eq!(again.actions, imported.actions);
    assert_eq!(again.state, Some(state));
}

#[tokio::test]
async fn import_failures_name_the_action_over_grpc_and_http_json() {
    let server = Server::start(&[]);
    let mut c = client(&server).await;
    let text = fixture("132002.json");

    // Truncated: where the text ends.
    let r = c
        .import_game(import(text[..5000].to_string(), false, None))
        .await
        .expect("a truncated file is an answer, not an error")
        .into_inner();
    let f = r.failure.expect("failure");
    assert_eq!(f.kind(), pb::ImportFailureKind::TruncatedJson);
    assert!(f.line.is_some() && f.column.is_some(), "{f:?}");
    assert!(f.message.contains("truncated"), "{}", f.message);
    assert!(r.state.is_none());

    // An unknown action type.
    let (unknown, id) = edited("132002.json", |actions| {
        let a = actions.iter_mut().find(|a| a["type"] == "bid").unwrap();
        a["type"] = Value::from("frobnicate");
        a["id"].clone()
    });
    let r = c
        .import_game(import(unknown, false, None))
        .await
        .expect("ImportGame")
        .into_inner();
    let f = r.failure.expect("failure");
    assert_eq!(f.kind(), pb::ImportFailureKind::UnknownActionType);
    assert_eq!(f.action_id, Some(id));
    assert_eq!(f.action_type, "frobnicate");
    assert_eq!(f.field, "type");
    assert_eq!(r.actions_applied, 0);
    assert!(r.state.is_some(), "the state before the action");

    // A refused action: the second bid of the game at L.1 (1841 §4.1).
    let (refused, id) = edited("132002.json", |actions| {
        let bids: Vec<usize> = actions
            .iter()
            .enumerate()
            .filter(|(_, a)| a["type"] == "bid")
            .map(|(i, _)| i)
            .collect();
        actions[bids[1]]["price"] = Value::from(1);
        actions[bids[1]]["id"].clone()
    });
    let r = c
        .import_game(import(refused.clone(), false, None))
        .await
        .expect("ImportGame")
        .into_inner();
    let f = r.failure.expect("failure");
    assert_eq!(f.kind(), pb::ImportFailureKind::Refused);
    assert_eq!(f.action_id, Some(id));
    assert_eq!(f.action_type, "bid");
    let rejection = f.rejection.expect("rejection");
    assert_eq!(rejection.code(), pb::RejectionCode::IllegalMove);
    assert_eq!(rejection.rule, "1841 §4.1");
    assert!(r.actions_applied >= 1 && r.state.is_some());

    // The same over HTTP/JSON, and an unknown format is INVALID_ARGUMENT.
    let (status, body) = post_json(
        &server,
        "ImportGame",
        json!({"exportJson": refused, "format": "GAME_RECORD_FORMAT_EIGHTEEN_XX_GAMES_EXPORT"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["failure"]["kind"], "IMPORT_FAILURE_KIND_REFUSED");
    assert_eq!(body["failure"]["actionId"], json!(id.to_string()));
    assert_eq!(
        body["failure"]["rejection"]["code"],
        "REJECTION_CODE_ILLEGAL_MOVE"
    );
    let (status, body) =
        post_json(&server, "ImportGame", json!({"exportJson": &text[..300]})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["failure"]["kind"],
        "IMPORT_FAILURE_KIND_TRUNCATED_JSON"
    );
    let err = c
        .import_game(pb::ImportGameRequest {
            export_json: "{}".into(),
            format: 9,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
    assert!(err.message().starts_with("format:"), "{}", err.message());
}

#[tokio::test]
async fn import_and_export_over_http_json_and_grpc_web() {
    let server = Server::start(&[]);
    // HTTP/JSON: the lite game to its end, then its export.
    let (status, imported) = post_json(
        &server,
        "ImportGame",
        json!({"exportJson": fixture("1841_game_end_bank.json"), "check": true}),
    )
    .await;
    assert_eq!(status, 200, "{imported}");
    assert_eq!(imported["finished"], true);
    assert_eq!(imported["check"]["ok"], true);
    assert_eq!(imported["gameEndReason"], "bank");
    assert_eq!(imported["options"], json!({"lite": "true"}));
    assert_eq!(imported["players"][0]["id"], "12683");
    assert_eq!(imported["players"][0]["result"], "6812");
    let (status, exported) = post_json(
        &server,
        "ExportGame",
        json!({"game": {"game": "1841", "seats": 4, "options": imported["options"],
                        "actions": imported["actions"]},
               "players": imported["players"]}),
    )
    .await;
    assert_eq!(status, 200, "{exported}");
    assert!(exported.get("failure").is_none(), "{}", exported["failure"]);
    let written: Value = serde_json::from_str(exported["exportJson"].as_str().unwrap()).unwrap();
    assert_eq!(written["settings"]["optional_rules"], json!(["lite"]));
    assert_eq!(written["result"]["12683"], 6812);

    // gRPC-Web: the first stock round of 132002 (stop at action 110, the first par).
    let http = Client::builder(TokioExecutor::new())
        .build_http::<tonic_web::GrpcWebCall<tonic::body::Body>>();
    let svc = tower::ServiceBuilder::new()
        .layer(tonic_web::GrpcWebClientLayer::new())
        .service(http);
    let mut web = RefereeClient::with_origin(svc, server.url().parse().unwrap());
    let r = web
        .import_game(import(fixture("132002.json"), true, Some(110)))
        .await
        .expect("ImportGame over gRPC-Web")
        .into_inner();
    assert!(r.stopped_at_limit && !r.finished && r.failure.is_none());
    assert_eq!(r.check.as_ref().map(|c| c.field.as_str()), Some("finished"));
    let Some(pb::game_state::State::G1841(s)) = r.state.and_then(|s| s.state) else {
        panic!("no 1841 state")
    };
    assert!(matches!(
        s.round,
        Some(referee_service::pb::g1841::state::Round::StockRound(_))
    ));
    // ExportGame over gRPC-Web: a refused action is a failure with its index.
    let bid = |price| pb::SeatAction {
        seat: 0,
        action: Some(pb::Action {
            action: Some(pb::action::Action::G1841(
                referee_service::pb::g1841::Action {
                    action: Some(referee_service::pb::g1841::action::Action::Bid(
                        referee_service::pb::g1841::Bid {
                            concession: "Bayard".into(),
                            price,
                        },
                    )),
                },
            )),
        }),
    };
    let mut second = bid(22);
    second.seat = 1;
    let e = web
        .export_game(pb::ExportGameRequest {
            game: Some(pb::ReplayRequest {
                game: "1841".into(),
                seats: 4,
                actions: vec![bid(20), second],
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .expect("ExportGame over gRPC-Web")
        .into_inner();
    assert_eq!(e.actions_exported, 1);
    let f = e.failure.expect("failure");
    assert_eq!(f.index, 1);
    assert_eq!(
        f.rejection.map(|r| r.code()),
        Some(pb::RejectionCode::IllegalMove)
    );
}

#[tokio::test]
async fn sealed_mode_seals_the_imported_state() {
    let keys = std::env::temp_dir().join(format!("referee-e2e-import-{}.keys", std::process::id()));
    std::fs::write(
        &keys,
        "k1:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n",
    )
    .unwrap();
    let server = Server::start(&["--seal-key-file", keys.to_str().unwrap()]);
    let mut c = client(&server).await;
    let r = c
        .import_game(import(fixture("132002.json"), false, Some(60)))
        .await
        .expect("ImportGame")
        .into_inner();
    assert!(r.state.is_none(), "no clear state in sealed mode");
    assert!(!r.sealed_state.is_empty());
    // The importer is the game's creator: every seat's credential, its own (spectator) view,
    // no seat's view (docs/SECURITY.md, seat access).
    assert!(r.seat_views.is_empty());
    assert_eq!(r.seat_credentials.len(), 4);
    assert!(r.caller_view.is_some());
    // The sealed state is one the server accepts.
    let view = c
        .view(pb::ViewRequest {
            sealed_state: r.sealed_state,
            seat: None,
            state: None,
            ..Default::default()
        })
        .await
        .expect("View of the sealed import")
        .into_inner();
    assert_eq!(view.action_count, r.actions_applied);
}

#[tokio::test]
async fn a_three_megabyte_export_fits_the_default_limit_and_a_smaller_limit_refuses_it() {
    // A recorded game is 0.1–3 MB; pad the fixture to 3 MB with a long description.
    let mut game: Value = serde_json::from_str(&fixture("132002.json")).unwrap();
    game["description"] = Value::from("x".repeat(3 * 1024 * 1024));
    let text = game.to_string();
    assert!(text.len() > 3 * 1024 * 1024);

    let server = Server::start(&[]);
    let mut c = client(&server).await;
    let r = c
        .import_game(import(text.clone(), false, Some(60)))
        .await
        .expect("3 MB fits 4 MiB")
        .into_inner();
    assert!(r.stopped_at_limit && r.failure.is_none());
    let (status, body) = post_json(
        &server,
        "ImportGame",
        json!({"exportJson": text, "stopAtActionId": 60}),
    )
    .await;
    assert_eq!(status, 200, "{}", body["message"]);

    let small = Server::start(&["--max-request-bytes", "1000000"]);
    let mut c = client(&small).await;
    let err = c
        .import_game(import(text.clone(), false, Some(60)))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::OutOfRange, "{}", err.message());
    // Over HTTP/JSON the announced length alone is refused (413), before any of the body is
    // sent: a client still writing a 3 MB body may instead see the connection closed under it
    // (EPIPE), so the request's head is written by hand and its answer read.
    let body = json!({"exportJson": text}).to_string();
    assert_eq!(
        status_of_announced_body(&small, "ImportGame", body.len()).await,
        413
    );
}

/// The HTTP status the server answers to a POST to `/v1/{method}` whose head announces a JSON
/// body of `len` bytes, none of which is sent.
async fn status_of_announced_body(server: &Server, method: &str, len: usize) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = server.url();
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut tcp = tokio::net::TcpStream::connect(host).await.expect("connect");
    let head = format!(
        "POST /v1/{method} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).await.expect("write head");
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(std::time::Duration::from_secs(30), tcp.read(&mut buf))
            .await
            .expect("an answer within 30 s")
            .expect("read");
        assert!(
            n > 0,
            "closed without an answer: {:?}",
            String::from_utf8_lossy(&answer)
        );
        answer.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&answer);
    text.split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {text}"))
}

async fn post_json(server: &Server, method: &str, body: Value) -> (u16, Value) {
    let http = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let req = http::Request::post(format!("{}/v1/{method}", server.url()))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let resp = http.request(req).await.expect("http request");
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{method}: not JSON ({e}): {bytes:?}"));
    (status, value)
}
