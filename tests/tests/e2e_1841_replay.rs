//! End to end: a recorded 1841 game (18xx.games export, `tests/fixtures/1841/132002.json`)
//! replayed through the server's `Replay` RPC. The concession round and Stock Round 1 play
//! exactly; the action that would open Operating Round 1 is refused with `UNSUPPORTED`
//! because operating rounds have no wire form yet, so no caller ever receives a state that
//! lost data.

mod common;

use common::Server;
use referee_engine::Game;
use referee_engine::g1841::import18xx::parse_export;
use referee_engine::g1841::{G1841, Round};
use referee_service::games::WireGame;
use referee_service::games::g1841::Wire1841;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_client::RefereeClient;

#[tokio::test]
async fn recorded_game_replays_through_stock_round_1_and_stops_at_the_operating_round() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/1841/132002.json"
    ))
    .expect("fixture");
    let export = parse_export(&text).expect("export");
    let options = export.options().expect("options");
    // Map the recorded actions with the engine, up to the first one of the operating round.
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).expect("setup");
    let mut actions = Vec::new();
    for recorded in &export.actions {
        let Some((seat, action)) = recorded.to_action(&state).expect("importable") else {
            continue;
        };
        actions.push(pb::SeatAction {
            seat,
            action: Some(Wire1841::action_to_pb(&action)),
        });
        G1841::apply(&mut state, seat, &action).expect("the engine accepts the recorded action");
        if matches!(state.round, Round::OperatingRound(_)) {
            break;
        }
    }
    let to_or = actions.len();
    assert!(
        to_or > 50,
        "only {to_or} actions before the operating round"
    );

    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let resp = client
        .replay(pb::ReplayRequest {
            game: "1841".into(),
            seats: 4,
            actions,
            ..Default::default()
        })
        .await
        .expect("Replay")
        .into_inner();
    let failure = resp.failure.expect("the operating round is refused");
    assert_eq!(failure.index as usize, to_or - 1);
    let rejection = failure.rejection.expect("rejection");
    assert_eq!(rejection.code(), pb::RejectionCode::Unsupported);
    assert_eq!(rejection.rule, "1841 §8");
    assert_eq!(resp.actions_applied as usize, to_or - 1);
    // The state handed back is the end of Stock Round 1, complete on the wire.
    let final_state = resp.state.expect("state");
    let Some(pb::game_state::State::G1841(s)) = final_state.state.as_ref() else {
        panic!("not 1841")
    };
    assert!(matches!(
        s.round,
        Some(referee_service::pb::g1841::state::Round::StockRound(_))
    ));
    assert_eq!(final_state.action_count as usize, to_or - 1);
}
