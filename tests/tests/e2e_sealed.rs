//! End to end: sealed mode. With keys configured the server hands out only sealed states,
//! accepts only states it sealed, refuses tampered or foreign ones, and gives each seat its
//! view in clear (Version 1 sealed bids stay hidden from the other seats).

mod common;

use common::Server;
use referee_service::pb::g1841 as g;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_client::RefereeClient;
use tonic::Code;
use tonic::transport::Channel;

const K1: &str = "k1:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const K2: &str = "k2:1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";

fn key_file(name: &str, content: &str) -> String {
    let path = std::env::temp_dir().join(format!("referee-e2e-{}-{name}.keys", std::process::id()));
    std::fs::write(&path, content).expect("write key file");
    path.to_string_lossy().into_owned()
}

async fn client(server: &Server) -> RefereeClient<Channel> {
    RefereeClient::connect(server.url()).await.expect("connect")
}

/// `req` sent with the header `referee-credential: cred` (seat access, docs/SECURITY.md).
fn as_caller<T>(cred: &str, req: T) -> tonic::Request<T> {
    let mut r = tonic::Request::new(req);
    r.metadata_mut().insert(
        "referee-credential",
        cred.parse().expect("ASCII credential"),
    );
    r
}

fn blind_bid(amounts: Vec<i64>) -> pb::Action {
    pb::Action {
        action: Some(pb::action::Action::G1841(g::Action {
            action: Some(g::action::Action::BlindBid(g::BlindBid { amounts })),
        })),
    }
}

fn sealed_bids(view: &pb::ViewResponse) -> Vec<g::SealedBid> {
    let Some(pb::view_response::View::G1841(v)) = view.view.as_ref() else {
        panic!("no 1841 view")
    };
    match v.state.as_ref().and_then(|s| s.round.as_ref()) {
        Some(g::state::Round::ConcessionRound(r)) => r.sealed_bids.clone(),
        other => panic!("not in the concession round: {other:?}"),
    }
}

/// A sealed 1841 Version 1 game of 4 seats, created by the arbiter.
async fn new_version_1_game(c: &mut RefereeClient<Channel>, arbiter: &str) -> pb::NewGameResponse {
    let mut options = std::collections::BTreeMap::new();
    options.insert("version_1".to_string(), "true".to_string());
    c.new_game(as_caller(
        arbiter,
        pb::NewGameRequest {
            game: "1841".into(),
            seats: 4,
            options,
            ..Default::default()
        },
    ))
    .await
    .expect("NewGame")
    .into_inner()
}

#[tokio::test]
async fn sealed_mode_hides_secrets_and_refuses_forged_states() {
    let keys = key_file("k1", &format!("# test key\n{K1}\n"));
    let server = Server::start(&["--seal-key-file", &keys]);
    let mut c = client(&server).await;
    let arbiter = referee_service::seal::Sealer::parse(K1)
        .unwrap()
        .arbiter_credential();

    let created = new_version_1_game(&mut c, &arbiter).await;
    assert!(
        created.state.is_none(),
        "sealed mode must not hand out the clear state"
    );
    assert!(!created.sealed_state.is_empty());
    assert_eq!(created.seat_views.len(), 4);
    assert_eq!(created.seat_credentials.len(), 4);
    let seat = created.seat_credentials;
    let token = created.sealed_state;

    // Seat 0 submits its sealed bid: L.30 on the first concession.
    let mut amounts = vec![0; 8];
    amounts[0] = 30;
    let resp = c
        .apply(as_caller(
            &arbiter,
            pb::ApplyRequest {
                sealed_state: token.clone(),
                seat: 0,
                action: Some(blind_bid(amounts)),
                ..Default::default()
            },
        ))
        .await
        .expect("Apply")
        .into_inner();
    let Some(pb::apply_response::Result::Accepted(acc)) = resp.result else {
        panic!("refused: {resp:?}")
    };
    assert!(acc.state.is_none());
    assert_eq!(acc.seat_views.len(), 4);
    // Seat 0 sees its own amounts; seat 1 sees that seat 0 has bid, not how much (1841 §4.2).
    let own = sealed_bids(&acc.seat_views[0]);
    assert!(own[0].submitted);
    assert_eq!(own[0].amounts.first(), Some(&30));
    let other = sealed_bids(&acc.seat_views[1]);
    assert!(other[0].submitted);
    assert!(
        other[0].amounts.iter().all(|&a| a == 0),
        "seat 1 sees seat 0's amounts: {:?}",
        other[0].amounts
    );
    let after = acc.sealed_state;

    // View and LegalActions take the sealed state too.
    let view = c
        .view(as_caller(
            &seat[2],
            pb::ViewRequest {
                sealed_state: after.clone(),
                seat: Some(2),
                state: None,
                ..Default::default()
            },
        ))
        .await
        .expect("View")
        .into_inner();
    assert_eq!(view.action_count, 1);
    let legal = c
        .legal_actions(as_caller(
            &seat[1],
            pb::LegalActionsRequest {
                sealed_state: after.clone(),
                seat: 1,
                state: None,
            },
        ))
        .await
        .expect("LegalActions")
        .into_inner();
    assert_eq!(legal.to_act, vec![1, 2, 3]);

    // Describe and DefaultAction on the sealed state say that a sealed bid is made, never how
    // much (the amounts are secret until every seat has bid; 1841 §4.2 step 1).
    let mut amounts = vec![0; 8];
    amounts[1] = 45;
    amounts[5] = 170;
    let described = c
        .describe(as_caller(
            &seat[1],
            pb::DescribeRequest {
                sealed_state: after.clone(),
                seat: 1,
                action: Some(blind_bid(amounts)),
                ..Default::default()
            },
        ))
        .await
        .expect("Describe")
        .into_inner();
    assert!(described.legal, "{described:?}");
    assert_eq!(
        described.text,
        "Seat 1 submits a sealed bid (amounts secret until every seat has bid)"
    );
    let default = c
        .default_action(as_caller(
            &seat[2],
            pb::DefaultActionRequest {
                sealed_state: after.clone(),
                seat: 2,
                ..Default::default()
            },
        ))
        .await
        .expect("DefaultAction")
        .into_inner();
    assert!(default.is_pass);
    assert_eq!(
        default.description,
        "Seat 2 submits a sealed bid (amounts secret until every seat has bid)"
    );

    // Stale: the caller believes the game is still at action 0.
    let stale = c
        .apply(as_caller(
            &seat[1],
            pb::ApplyRequest {
                sealed_state: after.clone(),
                seat: 1,
                action: Some(blind_bid(vec![0; 8])),
                expected_action_count: Some(0),
                ..Default::default()
            },
        ))
        .await
        .expect("Apply")
        .into_inner();
    let Some(pb::apply_response::Result::Rejected(r)) = stale.result else {
        panic!("not rejected: {stale:?}")
    };
    assert_eq!(r.rejection.unwrap().code(), pb::RejectionCode::StaleState);

    // A flipped byte anywhere, a truncated token, a clear state: refused.
    for i in [0, 5, after.len() / 2, after.len() - 1] {
        let mut forged = after.clone();
        forged[i] ^= 0x40;
        let err = c
            .view(pb::ViewRequest {
                sealed_state: forged,
                seat: Some(0),
                state: None,
                ..Default::default()
            })
            .await
            .expect_err("tampered token accepted");
        assert_eq!(err.code(), Code::InvalidArgument, "byte {i}: {err:?}");
    }
    let err = c
        .view(pb::ViewRequest {
            sealed_state: after[..after.len() - 3].to_vec(),
            seat: Some(0),
            state: None,
            ..Default::default()
        })
        .await
        .expect_err("truncated token accepted");
    assert_eq!(err.code(), Code::InvalidArgument);
    let clear = pb::GameState {
        game: "1841".into(),
        schema_version: 1,
        ..Default::default()
    };
    let err = c
        .view(pb::ViewRequest {
            state: Some(clear),
            seat: Some(0),
            sealed_state: vec![],
            ..Default::default()
        })
        .await
        .expect_err("clear state accepted in sealed mode");
    assert_eq!(err.code(), Code::FailedPrecondition);

    // A server with another key cannot open it; after a rotation (new key first, old key kept)
    // the old token still opens and new tokens are sealed with the new key.
    let foreign = Server::start(&["--seal-key-file", &key_file("k2", K2)]);
    let err = client(&foreign)
        .await
        .view(pb::ViewRequest {
            sealed_state: after.clone(),
            seat: Some(0),
            state: None,
            ..Default::default()
        })
        .await
        .expect_err("foreign key accepted");
    assert_eq!(err.code(), Code::InvalidArgument);
    assert!(err.message().contains("`k1`"), "{}", err.message());
    let rotated = Server::start(&["--seal-key-file", &key_file("k21", &format!("{K2}\n{K1}"))]);
    let mut r = client(&rotated).await;
    let view = r
        .view(as_caller(
            &seat[0],
            pb::ViewRequest {
                sealed_state: after.clone(),
                seat: Some(0),
                state: None,
                ..Default::default()
            },
        ))
        .await
        .expect("old token opens after rotation")
        .into_inner();
    assert_eq!(view.action_count, 1);

    // Open mode refuses sealed tokens.
    let open = Server::start(&[]);
    let err = client(&open)
        .await
        .view(pb::ViewRequest {
            sealed_state: after,
            seat: Some(0),
            state: None,
            ..Default::default()
        })
        .await
        .expect_err("open mode accepted a sealed token");
    assert_eq!(err.code(), Code::FailedPrecondition);
}

#[test]
fn a_bad_key_file_stops_the_server_with_a_clear_message() {
    let bin = common::referee_bin();
    let out = std::process::Command::new(bin)
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--seal-key-file",
            &key_file("bad", "k1:abcd"),
        ])
        .output()
        .expect("run");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("32 bytes"), "{err}");
}

/// POST /v1/`method` with a JSON body and, when given, the header `referee-credential`.
async fn post_json(
    server: &Server,
    method: &str,
    credential: Option<&str>,
    body: serde_json::Value,
) -> (u16, serde_json::Value) {
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;
    let http = Client::builder(TokioExecutor::new()).build_http::<Full<bytes::Bytes>>();
    let mut req = http::Request::post(format!("{}/v1/{method}", server.url()))
        .header("content-type", "application/json");
    if let Some(c) = credential {
        req = req.header("referee-credential", c);
    }
    let req = req
        .body(Full::new(bytes::Bytes::from(body.to_string())))
        .unwrap();
    let resp = http.request(req).await.expect("http request");
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, serde_json::from_slice(&bytes).expect("JSON answer"))
}

/// `referee credential` prints the arbiter credential of the key file, and the header
/// `referee-credential` works over HTTP/JSON as over gRPC (docs/SECURITY.md, seat access).
#[tokio::test]
async fn the_arbiter_credential_and_seat_credentials_over_http_json() {
    let keys = key_file("cli", K1);
    let out = std::process::Command::new(common::referee_bin())
        .args(["credential", "--seal-key-file", &keys])
        .output()
        .expect("run referee credential");
    assert!(out.status.success(), "{out:?}");
    let printed = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let arbiter = referee_service::seal::Sealer::parse(K1)
        .unwrap()
        .arbiter_credential();
    assert_eq!(printed, arbiter);
    assert!(printed.starts_with("arbiter:k1:"), "{printed}");

    let server = Server::start(&["--seal-key-file", &keys]);
    let body = serde_json::json!({"game": "1841", "seats": 3});
    let (status, created) = post_json(&server, "NewGame", Some(&arbiter), body.clone()).await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["seatViews"].as_array().map(Vec::len), Some(3));
    let creds = created["seatCredentials"].as_array().unwrap().clone();
    let token = created["sealedState"].clone();
    // Without a credential: no seat views, and no view of seat 0.
    let (_, anon) = post_json(&server, "NewGame", None, body).await;
    assert!(anon.get("seatViews").is_none(), "{anon}");
    let view0 = serde_json::json!({"sealedState": token, "seat": 0});
    let (status, err) = post_json(&server, "View", None, view0.clone()).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (403, Some("PERMISSION_DENIED"))
    );
    let (status, _) = post_json(&server, "View", creds[0].as_str(), view0.clone()).await;
    assert_eq!(status, 200);
    let (status, err) = post_json(&server, "View", creds[1].as_str(), view0).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (403, Some("PERMISSION_DENIED"))
    );
    let (status, err) = post_json(
        &server,
        "View",
        Some("seat-0:k1:00"),
        serde_json::json!({"sealedState": token, "seat": 0}),
    )
    .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (401, Some("UNAUTHENTICATED"))
    );
}

/// Issue #24 (attacker review): in sealed mode `expected_state_hash` is a guess oracle (rebuild
/// the state for each guessed Version 1 sealed bid, compare hashes: STALE_STATE for a wrong
/// guess, another answer for the right one), so a seat or a spectator may not send it, in
/// Apply nor in ApplyBatch (not even an empty batch); the arbiter may, and
/// `expected_action_count` stays open to everyone.
#[tokio::test]
async fn sealed_mode_refuses_state_hashes_from_seats_and_spectators() {
    let keys = key_file("k1", &format!("# test key\n{K1}\n"));
    let server = Server::start(&["--seal-key-file", &keys]);
    let mut c = client(&server).await;
    let arbiter = referee_service::seal::Sealer::parse(K1)
        .unwrap()
        .arbiter_credential();
    let created = new_version_1_game(&mut c, &arbiter).await;
    let seat = created.seat_credentials;
    let mut amounts = vec![0; 8];
    amounts[3] = 45;
    let resp = c
        .apply(as_caller(
            &seat[0],
            pb::ApplyRequest {
                sealed_state: created.sealed_state.clone(),
                seat: 0,
                action: Some(blind_bid(amounts)),
                ..Default::default()
            },
        ))
        .await
        .expect("Apply")
        .into_inner();
    let Some(pb::apply_response::Result::Accepted(acc)) = resp.result else {
        panic!("refused: {resp:?}")
    };
    let token = acc.sealed_state;
    let guess = vec![7u8; 32];

    // Seat 1, with its own credential: the hash is refused before anything is compared.
    let err = c
        .apply(as_caller(
            &seat[1],
            pb::ApplyRequest {
                sealed_state: token.clone(),
                seat: 1,
                action: Some(blind_bid(vec![1, 0, 0, 0, 0, 0, 0, 0])),
                expected_state_hash: guess.clone(),
                ..Default::default()
            },
        ))
        .await
        .expect_err("a seat may not compare state hashes");
    assert_eq!(err.code(), tonic::Code::PermissionDenied);
    assert!(err.message().starts_with("expected_state_hash:"), "{err:?}");

    // A spectator's empty batch with a hash: refused too.
    let err = c
        .apply_batch(pb::ApplyBatchRequest {
            sealed_state: token.clone(),
            actions: vec![],
            expected_state_hash: guess.clone(),
            ..Default::default()
        })
        .await
        .expect_err("a spectator may not compare state hashes");
    assert_eq!(err.code(), tonic::Code::PermissionDenied);

    // The arbiter may: a wrong hash is an ordinary STALE_STATE failure.
    let batch = c
        .apply_batch(as_caller(
            &arbiter,
            pb::ApplyBatchRequest {
                sealed_state: token.clone(),
                actions: vec![],
                expected_state_hash: guess,
                ..Default::default()
            },
        ))
        .await
        .expect("the arbiter compares hashes")
        .into_inner();
    let failure = batch.failure.expect("a wrong hash fails");
    assert_eq!(
        failure.rejection.map(|r| r.code()),
        Some(pb::RejectionCode::StaleState)
    );

    // expected_action_count stays open to seats: seat 1's own bid goes through.
    let resp = c
        .apply(as_caller(
            &seat[1],
            pb::ApplyRequest {
                sealed_state: token,
                seat: 1,
                action: Some(blind_bid(vec![0, 20, 0, 0, 0, 0, 0, 0])),
                expected_action_count: Some(1),
                ..Default::default()
            },
        ))
        .await
        .expect("Apply")
        .into_inner();
    assert!(
        matches!(resp.result, Some(pb::apply_response::Result::Accepted(_))),
        "{resp:?}"
    );
}
