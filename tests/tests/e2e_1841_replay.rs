//! End to end: a recorded 1841 game (18xx.games export, `tests/fixtures/1841/132002.json`)
//! replayed through the server's `Replay` RPC to its end: the concession round, every stock
//! and operating round, the first 4-train's split and Tuscan merge, the mergers, emergency
//! money raising and the game end. The state handed back equals the engine's own state after
//! the same actions, decoded back from the wire: nothing is lost on the wire.

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
async fn recorded_game_replays_through_the_operating_rounds() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/1841/132002.json"
    ))
    .expect("fixture");
    let export = parse_export(&text).expect("export");
    let options = export.options().expect("options");
    // Map the recorded actions with the engine, as far as it plays them.
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).expect("setup");
    let mut actions = Vec::new();
    let mut operating_rounds = 0;
    for recorded in &export.actions {
        if recorded.kind == "destination_connection" {
            continue;
        }
        let (seat, action) = match recorded.to_action(&state) {
            Ok(Some(x)) => x,
            Ok(None) => continue,
            Err(_) => break,
        };
        let mut next = state.clone();
        if G1841::apply(&mut next, seat, &action).is_err() {
            break;
        }
        if matches!(next.round, Round::OperatingRound(_))
            && !matches!(state.round, Round::OperatingRound(_))
        {
            operating_rounds += 1;
        }
        state = next;
        actions.push(pb::SeatAction {
            seat,
            action: Some(Wire1841::action_to_pb(&action)),
        });
    }
    let n = actions.len();
    assert!(n > 600, "only {n} actions replayed");
    assert!(
        operating_rounds >= 7,
        "{operating_rounds} operating round sets"
    );
    assert!(!state.operations.tiles.is_empty());
    assert!(!state.operations.trains.is_empty());
    assert!(state.game_end.ended, "the game ends (ICSF at L.516)");

    let server = Server::start(&[]);
    let mut client = RefereeClient::connect(server.url()).await.expect("connect");
    let resp = client
        .replay(pb::ReplayRequest {
            game: "1841".into(),
            seats: 4,
            // The options as ImportGame names them (an 18xx.games export: the FAQ options off).
            options: referee_service::game_records::options_map(&options)
                .into_iter()
                .collect(),
            actions,
            ..Default::default()
        })
        .await
        .expect("Replay")
        .into_inner();
    assert!(resp.failure.is_none(), "{:?}", resp.failure);
    assert_eq!(resp.actions_applied as usize, n);
    let final_state = resp.state.expect("state");
    assert_eq!(final_state.action_count as usize, n);
    let wire = final_state.state.as_ref().expect("1841 state");
    let decoded = Wire1841::state_from_pb(wire).expect("the returned state decodes");
    assert_eq!(decoded, state);
    // And byte for byte what the engine's state encodes to.
    assert_eq!(*wire, Wire1841::state_to_pb(&state));
}
