//! The golden corpus (`tests/golden/`, docs/COMPATIBILITY.md): encoded states of both games in
//! several phases, committed as the wire bytes of the `GameState` envelope. Every build must
//! read them all: decode, validate (the invariant checker runs in decoding), list the legal
//! actions of every seat, and continue the game with seeded random legal moves, each new
//! state encoded and decoded again. Files are only ever added (`cargo run -p referee-tests
//! --example golden`); the manifest pins each file's SHA-256, so a file that is changed or
//! regenerated fails here instead of silently moving the baseline.

use std::path::{Path, PathBuf};

use prost::Message;
use referee_engine::{Game, Seat};
use referee_service::games::autobahn::WireAutobahn;
use referee_service::games::g1841::Wire1841;
use referee_service::games::{WireGame, decode_state, encode_state};
use referee_service::pb::v1 as pb;
use referee_tests::Rng;
use sha2::{Digest, Sha256};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("golden")
}

struct Entry {
    file: String,
    game: String,
    schema_version: u32,
    action_count: u64,
    phase: String,
    to_act: Vec<Seat>,
    sha256: String,
}

fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(golden_dir().join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 7, "manifest line: {l}");
            Entry {
                file: f[0].to_string(),
                game: f[1].to_string(),
                schema_version: f[2].parse().expect("schema_version"),
                action_count: f[3].parse().expect("action_count"),
                phase: f[4].to_string(),
                to_act: if f[5] == "-" {
                    Vec::new()
                } else {
                    f[5].split(',').map(|s| s.parse().expect("seat")).collect()
                },
                sha256: f[6].to_string(),
            }
        })
        .collect()
}

/// Decodes, checks and continues one golden state of game `W`; returns the moves played.
fn continue_game<W: WireGame>(e: &Entry, gs: &pb::GameState, moves: usize) -> usize {
    let state = decode_state::<W>(gs)
        .unwrap_or_else(|s| panic!("{}: no longer decodes: {}", e.file, s.message()));
    assert_eq!(W::G::to_act(&state), e.to_act, "{}: seats to act", e.file);
    assert_eq!(
        W::G::outcome(&state).is_some(),
        e.phase == "finished",
        "{}: finished or not",
        e.file
    );
    let seats = W::seat_count(&state);
    for seat in 0..seats {
        let legal = W::legal_actions_pb(&state, seat);
        let listed = W::G::legal_actions(&state, seat);
        assert_eq!(
            !listed.is_empty(),
            e.to_act.contains(&seat),
            "{}: seat {seat} has legal actions exactly when it is to act ({legal:?})",
            e.file
        );
    }
    let mut rng = Rng(Sha256::digest(e.file.as_bytes())[0] as u64 | 1);
    let mut state = state;
    let mut count = gs.action_count;
    let mut played = 0;
    for _ in 0..moves {
        let to_act = W::G::to_act(&state);
        let Some(&seat) = to_act.get(rng.below(to_act.len())) else {
            break;
        };
        let legal = W::G::legal_actions(&state, seat);
        let action = legal[rng.below(legal.len())].clone();
        // Through the wire, as a platform would: encode the action, decode it, apply.
        let action = W::action_from_pb(&W::action_to_pb(&action))
            .unwrap_or_else(|r| panic!("{}: own action refused: {r}", e.file));
        W::G::apply(&mut state, seat, &action)
            .unwrap_or_else(|r| panic!("{}: legal {action:?} rejected: {r}", e.file));
        count += 1;
        played += 1;
        let bytes = encode_state::<W>(&state, count).encode_to_vec();
        let back = pb::GameState::decode(bytes.as_slice()).expect("own encoding parses");
        state = decode_state::<W>(&back)
            .unwrap_or_else(|s| panic!("{}: own state refused: {}", e.file, s.message()));
    }
    played
}

#[test]
fn golden_states_decode_validate_and_continue() {
    let entries = manifest();
    assert!(
        entries.len() >= 20,
        "the corpus has {} states",
        entries.len()
    );
    let mut games = std::collections::BTreeSet::new();
    let mut total = 0;
    for e in &entries {
        let bytes = std::fs::read(golden_dir().join(&e.file))
            .unwrap_or_else(|err| panic!("{}: {err}", e.file));
        let sha: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            sha, e.sha256,
            "{}: the file changed; golden files are never regenerated (add a new one instead)",
            e.file
        );
        let gs = pb::GameState::decode(bytes.as_slice())
            .unwrap_or_else(|err| panic!("{}: not a GameState any more: {err}", e.file));
        assert_eq!(gs.game, e.game, "{}", e.file);
        assert_eq!(gs.schema_version, e.schema_version, "{}", e.file);
        assert_eq!(gs.action_count, e.action_count, "{}", e.file);
        total += match e.game.as_str() {
            "1841" => continue_game::<Wire1841>(e, &gs, 40),
            "autobahn" => continue_game::<WireAutobahn>(e, &gs, 60),
            other => panic!("{}: unknown game {other}", e.file),
        };
        games.insert((e.game.clone(), e.phase.clone()));
    }
    // Both games, every phase.
    for game in ["1841", "autobahn"] {
        for phase in ["setup", "in-progress", "finished"] {
            assert!(
                games.contains(&(game.to_string(), phase.to_string())),
                "no {game} state in phase {phase}"
            );
        }
    }
    assert!(total > 500, "only {total} moves continued");
}

/// The same bytes through the public API as a caller sends them (open mode): LegalActions and
/// View answer for every golden state, and a finished game has its outcome.
#[test]
fn golden_states_are_served_by_the_api() {
    let api = referee_service::api::Api::new();
    for e in manifest() {
        let bytes = std::fs::read(golden_dir().join(&e.file)).expect("golden file");
        let gs = pb::GameState::decode(bytes.as_slice()).expect("GameState");
        let seat = e.to_act.first().copied().unwrap_or(0);
        let legal = api
            .legal_actions(&pb::LegalActionsRequest {
                state: Some(gs.clone()),
                seat,
                ..Default::default()
            })
            .unwrap_or_else(|s| panic!("{}: LegalActions: {}", e.file, s.message()));
        assert_eq!(legal.to_act, e.to_act, "{}", e.file);
        let view = api
            .view(&pb::ViewRequest {
                state: Some(gs.clone()),
                ..Default::default()
            })
            .unwrap_or_else(|s| panic!("{}: View: {}", e.file, s.message()));
        assert_eq!(view.outcome.is_some(), e.phase == "finished", "{}", e.file);
        assert_eq!(view.action_count, e.action_count, "{}", e.file);
    }
}

/// Decoding refuses a state that breaks an invariant with INVALID_ARGUMENT and the wire path of
/// the field: money not conserved in 1841 (1841 §1), goods not conserved in Autobahn.
#[test]
fn decoding_refuses_broken_invariants_with_the_field_path() {
    let api = referee_service::api::Api::new();
    let load = |file: &str| {
        let bytes = std::fs::read(golden_dir().join(file)).expect("golden file");
        pb::GameState::decode(bytes.as_slice()).expect("GameState")
    };
    let legal = |gs: pb::GameState| {
        api.legal_actions(&pb::LegalActionsRequest {
            state: Some(gs),
            seat: 0,
            ..Default::default()
        })
    };
    let mut gs = load("1841-v2-132002-mid.pb");
    assert!(legal(gs.clone()).is_ok());
    match gs.state.as_mut() {
        Some(pb::game_state::State::G1841(s)) => s.players[1].cash += 10,
        other => panic!("not an 1841 state: {other:?}"),
    }
    let err = legal(gs).unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument);
    assert!(
        err.message().starts_with("state.g1841.bank_cash:"),
        "{}",
        err.message()
    );

    let mut gs = load("autobahn-4p-mid.pb");
    assert!(legal(gs.clone()).is_ok());
    match gs.state.as_mut() {
        Some(pb::game_state::State::Autobahn(s)) => s.goods_supply[0] += 1,
        other => panic!("not an Autobahn state: {other:?}"),
    }
    let err = legal(gs).unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument);
    assert!(
        err.message().starts_with("state.autobahn.goods_supply[0]:"),
        "{}",
        err.message()
    );
}
