//! The direct legal-action generator of Autobahn agrees with `apply`, on random states.
//!
//! `legal::legal_actions` computes the legal actions without applying anything. Its definition
//! is `legal::legal_actions_by_trial`: every candidate of `legal::candidates` that a trial
//! `apply` on a copy accepts. On states from random games of 1–4 players (and on copies of
//! them with the money changed, to exercise every affordability check) this test checks:
//!
//! * both lists are equal, in the same order (so random playouts are unchanged);
//! * every listed action is accepted by `apply`;
//! * every candidate that is not listed is rejected, and the state is unchanged after it.
//!
//! States per player count: `AUTOBAHN_ORACLE_GAMES` games (default 3), every state checked.

use referee_engine::autobahn::legal::{candidates, legal_actions, legal_actions_by_trial};
use referee_engine::autobahn::{Action, Autobahn, Options, State};
use referee_engine::{Game, Seat};

mod common;
use common::Rng;

/// Checks the generator against the oracle on `s` for `seat`.
fn check(s: &State, seat: Seat, what: &str) {
    let direct = legal_actions(s, seat);
    let oracle = legal_actions_by_trial(s, seat);
    assert_eq!(
        direct, oracle,
        "{what}: generator and apply-based oracle differ for seat {seat}"
    );
    for a in &direct {
        let mut t = s.clone();
        assert!(
            Autobahn::apply(&mut t, seat, a).is_ok(),
            "{what}: listed action {a:?} rejected"
        );
    }
    for a in candidates(s, seat) {
        if direct.contains(&a) {
            continue;
        }
        let mut t = s.clone();
        assert!(
            Autobahn::apply(&mut t, seat, &a).is_err(),
            "{what}: unlisted candidate {a:?} accepted"
        );
        assert_eq!(&t, s, "{what}: rejected {a:?} changed the state");
    }
}

fn games() -> u64 {
    std::env::var("AUTOBAHN_ORACLE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

fn run(players: u32) {
    for seed in 0..games() {
        let options = Options {
            autobot_level: 1 + (seed % 12) as u32,
            ..Options::default()
        };
        let mut s = Autobahn::setup(&options, players, 1000 + seed).expect("setup");
        let mut rng = Rng((seed + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for n in 0..5_000 {
            if Autobahn::outcome(&s).is_some() {
                break;
            }
            let seat = Autobahn::to_act(&s)[0];
            let what = format!("{players} players, seed {seed}, action {n}");
            check(&s, seat, &what);
            // Other seats have nothing to do.
            for other in (0..players).filter(|o| *o != seat) {
                assert!(legal_actions(&s, other).is_empty(), "{what}: seat {other}");
            }
            // The same state with little or no money: the affordability checks decide.
            if rng.below(3) == 0 {
                let mut poor = s.clone();
                if let Some(p) = poor.players.iter_mut().find(|p| p.seat == Some(seat)) {
                    p.dm = rng.below(12) as i64;
                }
                check(&poor, seat, &format!("{what} (dm changed)"));
            }
            let legal = legal_actions(&s, seat);
            let common: Vec<&Action> = legal
                .iter()
                .filter(|a| !matches!(a, Action::TakeBackCards | Action::Decline))
                .collect();
            let pick = if !common.is_empty() && rng.below(8) != 0 {
                common[rng.below(common.len())].clone()
            } else {
                legal[rng.below(legal.len())].clone()
            };
            Autobahn::apply(&mut s, seat, &pick).expect("a listed action is accepted");
        }
        assert!(Autobahn::outcome(&s).is_some(), "game did not finish");
    }
}

#[test]
fn generator_agrees_with_apply_solo() {
    run(1);
}

#[test]
fn generator_agrees_with_apply_two_players() {
    run(2);
}

#[test]
fn generator_agrees_with_apply_three_players() {
    run(3);
}

#[test]
fn generator_agrees_with_apply_four_players() {
    run(4);
}
