//! Issue #22: stops of the oracle harness (seed base 11, main at 8aaa2ac) in the train,
//! token and discard steps, each pinned on a cut of the game's export as `referee playout …
//! --export-18xx` now writes it (`engine/tests/data/`): the importer reads our own indices
//! back, so the excerpt replays the same game. With Ruby and the oracle each whole export
//! replayed to its end in 18xx.games' engine (see the commits).

use referee_engine::Game;
use referee_engine::g1841::export18xx::Exported;
use referee_engine::g1841::import18xx::{ReplaySettings, Replayed, replay};
use referee_engine::g1841::operating_round::{self, discard_seat, legal_tokens};
use referee_engine::g1841::state::{OperatingStep, Round};
use referee_engine::g1841::{Action, G1841, State, track};

mod common;
use common::g1841::export_again;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// The excerpt replayed up to the records with an id up to `id`.
fn replayed_to(name: &str, id: i64) -> Replayed {
    let r = replay(
        &data(name),
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(id),
        },
    );
    assert_eq!(r.failure, None, "{name} replays to id {id}");
    r
}

fn state_at(name: &str, id: i64) -> State {
    replayed_to(name, id).state.expect("a state")
}

fn trains(state: &State, sym: &str) -> Vec<String> {
    state
        .operations
        .trains
        .get(sym)
        .cloned()
        .unwrap_or_default()
}

/// 1841 §9.6, §12.3: the last step of the Tuscan merge forms SFLi with the trains of ATFA
/// (SFLP's 3-train) and of SSFL (three 3-trains), four trains over the phase-4 limit of 3,
/// before SFLi has a president. The merger's decider (seat 5, the initiator's controller when
/// the merge began) chooses the discard, as 18xx.games asks SFLi (`DiscardTrain`, id 552)
/// before the odd shares; the engine used to discard the lowest train itself.
#[test]
fn tuscan_merge_new_sfli_discards_by_the_deciders_choice() {
    let name = "v2-6p-random-s6012-to553.json";
    let s = state_at(name, 551);
    let Round::OperatingRound(r) = &s.round else {
        panic!("an operating round");
    };
    assert_eq!(r.crowded, vec!["SFLi".to_string()]);
    assert_eq!(s.phase, "4");
    assert_eq!(trains(&s, "SFLi").len(), 4);
    assert!(s.operations.pool_trains.is_empty());
    assert_eq!(discard_seat(&s, "SFLi"), Some(5));
    assert_eq!(G1841::to_act(&s), vec![5]);
    assert!(
        G1841::legal_actions(&s, 5).iter().all(
            |a| matches!(a, Action::DiscardTrain { corporation, .. } if corporation == "SFLi")
        )
    );
    // The recorded discard (id 552: 3-0), then the odd shares go on.
    let s = state_at(name, 553);
    assert_eq!(trains(&s, "SFLi").len(), 3);
    assert_eq!(s.operations.pool_trains, vec!["3-0".to_string()]);
}

/// 1841 §9.2 (reachable as 18xx's region graph traces it): lite, 5 players, random seed
/// 5011, id 668: SFTN (Torino H4, city 1) lays tile 5 on C7. Its track runs H4 → G5 (tile 26:
/// branches 1–4 and 3–4) → the town of Vercelli & Novara (F6, tile 633) between edges 1 and
/// 0 → H6 → Alessandria (J6, full of SFTG). Nothing leads on to E7 or Milano: only going back
/// from the town into G5 and over its other branch reaches E5, D6 and F6's other town. No
/// city is left for a token, and the token step is skipped (18xx.games: "SFTN skips place a
/// token"); the engine used to offer E7 and F8.
#[test]
fn token_step_reach_never_turns_back_at_a_node() {
    let s = state_at("lite-5p-random-s5011-to669.json", 668);
    let Round::OperatingRound(r) = &s.round else {
        panic!("an operating round");
    };
    assert_eq!(r.current.as_deref(), Some("SFTN"));
    assert_eq!(r.step, OperatingStep::BuyToken);
    let mut at_token = s.clone();
    if let Round::OperatingRound(r) = &mut at_token.round {
        r.step = OperatingStep::Token;
    }
    assert_eq!(legal_tokens(&at_token), Vec::new());
    assert!(!operating_round::token_step_opens_in_18xx(&at_token));
    // The trace as a route runs reaches the first town of F6 only; the track search of the
    // tile lays (turning at junctions) goes on to E7.
    let board = track::Board::new(&s);
    let starts = [("H4", board.bases(&s, "SFTN")[0].1)];
    let traced: Vec<(String, usize)> = board
        .traced_reach(&s, "SFTN", &starts, None)
        .nodes()
        .map(|(h, n)| (h.to_string(), n))
        .collect();
    assert_eq!(
        traced,
        vec![
            ("F6".to_string(), 1),
            ("H4".to_string(), 1),
            ("J6".to_string(), 0)
        ]
    );
    assert!(
        board
            .reach(&s, "SFTN", &starts, None)
            .nodes()
            .any(|(h, _)| h == "E7")
    );
    // Its token purchase from SFTG in Alessandria (id 669) is reached the same way.
    let s = state_at("lite-5p-random-s5011-to669.json", 669);
    assert!(
        s.corporation("SFTN")
            .unwrap()
            .tokens
            .iter()
            .any(|t| t.hex == "J6")
    );
}

/// The record with id `id` of `written`.
fn record(written: &Exported, id: i64) -> &serde_json::Value {
    let r = &written.json["actions"].as_array().unwrap()[usize::try_from(id - 1).unwrap()];
    assert_eq!(r["id"], id);
    r
}

/// 1841 §14, issue #21 (18xx share ids): p2p_purchases, 4 players, random seed 4011. Player 2
/// goes bankrupt in CTS's train step (id 531); 18xx.games sells his CTS certificates (CTS_6,
/// CTS_5, CTS_7 and the president's CTS_0) to the pool, then Player 1 takes the presidency
/// and puts his first two certificates (CTS_1, CTS_2) into the pool: the pool holds CTS_6,
/// CTS_5, CTS_7, CTS_1, CTS_2 in that order. At id 542 Player 1 dumps CTS in an emergency
/// (40% of CTS_3, CTS_4, CTS_8 and CTS_0) and gets the pool's first certificate back, CTS_6,
/// which he sells at id 544. The export wrote CTS_1 there, a pool certificate, and 18xx.games
/// crashed ("undefined method `spender' for SharePool").
#[test]
fn bankrupt_certificates_reach_the_pool_before_the_new_presidents() {
    let original = replayed_to("p2p_purchases-4p-random-s4011-to546.json", 546);
    let written = export_again(&original);
    assert_eq!(written.failure, None);
    assert_eq!(record(&written, 531)["type"], "bankrupt");
    assert_eq!(
        record(&written, 542)["shares"],
        serde_json::json!(["CTS_3", "CTS_4", "CTS_8", "CTS_0"])
    );
    assert_eq!(record(&written, 542)["percent"], 40);
    assert_eq!(
        record(&written, 544)["shares"],
        serde_json::json!(["CTS_6"])
    );
    assert_eq!(record(&written, 544)["entity"], 1);
}
