//! 1841 §9.2, §9.3: a hexside is track. A trace from a token, a route, or two routes of one
//! corporation cross it once, whichever branches of the junction tiles on either side they
//! take (18xx.games: `Part::Path#walk` never leaves a hex by an edge already left on the
//! walk; `Game::Base#check_overlap` keys every path end on an edge).
//!
//! P2p_purchases, heuristic, 7 players, seed 7143 (`engine/tests/data/`, cut after 18xx id
//! 832). At id 831 SFTC (tokens in Torino H4, M3 and the pass O3) lays tile 45 on E5. Its
//! track from Torino runs into G5 (tile 628: branches 3–1, 0–1, 3–4, 4–0), over the E5/G5
//! hexside into E5 (tile 45), round D4 and F4 back into E5, and over the same hexside onto
//! G5's other branch to F6, E7 and green Milano (F8, a free slot). No trail reaches Milano
//! without that second crossing, so SFTC has no city for its token (18xx.games: "SFTC skips
//! place a token") and no route to Milano.

use referee_engine::g1841::action::{Route, Stop};
use referee_engine::g1841::import18xx::{ReplaySettings, replay};
use referee_engine::g1841::operating_round::{
    DEFAULT_BUDGET, best_routes, check_routes, legal_tokens, token_step_opens_in_18xx,
};
use referee_engine::g1841::state::{OperatingStep, Round};
use referee_engine::g1841::{State, track, trail};

const GAME: &str = "p2p_purchases-7p-heuristic-s7143-to832.json";

fn state_at(id: i64) -> State {
    let path = format!("{}/tests/data/{GAME}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the fixture");
    let r = replay(
        &text,
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(id),
        },
    );
    assert_eq!(r.failure, None, "{GAME} replays to id {id}");
    r.state.expect("a state")
}

/// The state after SFTC's tile lay (id 831), in SFTC's token step.
fn at_token_step() -> State {
    let mut s = state_at(831);
    let Round::OperatingRound(r) = &mut s.round else {
        panic!("an operating round");
    };
    assert_eq!(r.current.as_deref(), Some("SFTC"));
    r.step = OperatingStep::Token;
    s
}

/// The node of `hex` holding city or town `index` of its tile, as (hex index, node).
fn node(board: &track::Board, hex: &str, node: usize) -> (usize, usize) {
    let i = board.map.hex_index(hex).expect("a hex of the map");
    assert!(board.view(i).expect("track").nodes.len() > node);
    (i, node)
}

#[test]
fn no_token_in_milano_over_one_hexside_twice() {
    let s = at_token_step();
    assert_eq!(
        s.operations.tiles.get("E5").map(|t| t.tile.as_str()),
        Some("45")
    );
    assert_eq!(legal_tokens(&s), Vec::new());
    assert!(!token_step_opens_in_18xx(&s));

    // The breadth-first trace reaches Milano; the exact trail search does not, and reaches
    // Vercelli & Novara (F6) and Varese's town E3 over E5 and F4.
    let board = track::Board::new(&s);
    let bases = board.bases(&s, "SFTC");
    let starts: Vec<(&str, usize)> = bases.iter().map(|&(h, n, _)| (h, n)).collect();
    let milano = node(&board, "F8", 0);
    let traced = board.traced_reach(&s, "SFTC", &starts, None);
    assert!(traced.node_indices().contains(&milano));
    let corp = s.corporation_index("SFTC");
    let start_nodes: Vec<(usize, usize)> = starts
        .iter()
        .map(|&(h, n)| (board.map.hex_index(h).unwrap(), n))
        .collect();
    let trail = |target, budget: &mut u32| {
        trail::trail_reaches(&board, corp, &start_nodes, None, target, budget)
    };
    let mut budget = trail::STEP_BUDGET;
    assert_eq!(trail(milano, &mut budget), Some(false));
    assert_eq!(trail(node(&board, "E7", 0), &mut budget), Some(false));
    assert_eq!(trail(node(&board, "E3", 0), &mut budget), Some(true));
    assert_eq!(trail(node(&board, "J6", 0), &mut budget), Some(true));
    // The four searches take their steps (paths followed) from one budget; with too few
    // left the search gives up.
    let spent = trail::STEP_BUDGET - budget;
    assert_eq!(spent, 237);
    assert_eq!(trail(milano, &mut 0), None);
    assert_eq!(trail(milano, &mut 5), None);
}

#[test]
fn no_route_over_one_hexside_twice() {
    let s = state_at(831);
    // What SFTC's 4-train ran before the fix (18xx id 832 of that export): Torino over G5,
    // E5, D4, F4, E5 and G5 again to the town of Vercelli & Novara.
    let twice = Route {
        train: "4-0".to_string(),
        stops: vec![
            Stop {
                hex: "H4".to_string(),
                node: 0,
            },
            Stop {
                hex: "F6".to_string(),
                node: 0,
            },
        ],
        connections: vec![
            ["H4", "G5", "E5", "D4", "F4", "E5", "G5", "F6"]
                .map(String::from)
                .to_vec(),
        ],
    };
    let err = check_routes(&s, "SFTC", &[twice]).expect_err("the hexside twice");
    assert!(
        err.message
            .contains("track used twice (the hexside at edge"),
        "{}",
        err.message
    );
    // The best route now: the pass O3's off-board Q3 to Varese's town E3 for L.250, the
    // route SFTC ran at id 832.
    let best = best_routes(&s, "SFTC", DEFAULT_BUDGET);
    assert!(best.proven_optimal);
    assert_eq!(best.revenue, 250);
    let stops: Vec<&str> = best.routes[0]
        .stops
        .iter()
        .map(|s| s.hex.as_str())
        .collect();
    assert_eq!(stops, ["Q3", "O3", "M3", "I5", "H4", "E3"]);
    assert_eq!(
        best.routes[0].connections.last().unwrap(),
        &["H4", "G5", "E5", "F4", "D4", "E3"]
            .map(String::from)
            .to_vec()
    );
    assert_eq!(check_routes(&s, "SFTC", &best.routes), Ok(vec![250]));
}
