//! Property tests over random full games of Autobahn for 1 (solo), 2, 3 and 4 players:
//! every game ends with a final score within 5,000 actions; after every action the invariants
//! hold (25 employees per player all somewhere, goods and trucks conserved, DM never negative,
//! road sections conserved); every listed legal action is accepted; random (mostly illegal)
//! actions are rejected with the state unchanged.
//!
//! Random policy: uniform over the legal actions, except that `TakeBackCards` is picked only
//! when nothing else is legal or with 1 chance in 8, and `Decline` with 1 chance in 4, so games
//! do not stall in endless take-backs. Games per player count: `AUTOBAHN_GAMES` (default 12).

use proptest::prelude::*;
use referee_engine::autobahn::action::Id;
use referee_engine::autobahn::{Action, Autobahn, Options, State};
use referee_engine::{Game, Seat};

mod common;
use common::Rng;

/// The engine's invariant checker (`autobahn::check_invariants`: employees, trucks, goods and
/// road sections conserved, DM never negative, offices within capacity, every id known).
fn check_invariants(s: &State) {
    if let Err(v) = referee_engine::autobahn::check_invariants(s) {
        panic!("invariant broken: {v}");
    }
}

fn junk_action(rng: &mut Rng, s: &State) -> Action {
    let ids = [
        "BLK02-1", "RED01-1", "CYN01", "DEP-CYAN", "U1", "ST-B1", "XX", "",
    ];
    let id: Id = ids[rng.below(ids.len())].into();
    let card: Id = s
        .players
        .first()
        .and_then(|p| p.hand.first())
        .map(|c| c.as_str().into())
        .unwrap_or_default();
    match rng.below(12) {
        0 => Action::PlayCard {
            card,
            colour: "RED".into(),
            space: "BUILD_ROAD".into(),
            target: id,
            goods: None,
        },
        1 => Action::PlayCard {
            card: "IMP-01".into(),
            colour: "BLACK".into(),
            space: "KEY".into(),
            target: id,
            goods: None,
        },
        2 => Action::MoveTruck {
            truck: rng.below(4) as u32,
            path: vec![id].into(),
            deliver: rng.below(2) == 0,
        },
        3 => Action::Promote {
            department: "TRADE".into(),
            from_floor: rng.below(4) as u32,
        },
        4 => Action::ClaimDeliveryBonus {
            country: "AT".into(),
        },
        5 => Action::TakeDisplayCard {
            slot: rng.below(9) as u32,
        },
        6 => Action::UpgradeLink { link: id },
        7 => Action::EndTurn,
        8 => Action::Decline,
        9 => Action::Subsidy,
        10 => Action::ChooseRouteCard { card: "RC9".into() },
        _ => Action::PlaceActionTile { space: id },
    }
}

/// Plays one random game; returns the number of actions.
fn play(players: u32, seed: u64, level: u32) -> usize {
    let options = Options {
        autobot_level: level,
        ..Options::default()
    };
    let mut s = Autobahn::setup(&options, players, seed).expect("setup");
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    check_invariants(&s);
    for n in 0..5_000 {
        if Autobahn::outcome(&s).is_some() {
            let o = Autobahn::outcome(&s).unwrap();
            assert_eq!(o.scores.len() as u32, players);
            assert!(Autobahn::to_act(&s).is_empty());
            return n;
        }
        let to_act = Autobahn::to_act(&s);
        assert_eq!(to_act.len(), 1, "exactly one seat acts");
        let seat: Seat = to_act[0];
        // a random junk action: accepted only if legal; rejected leaves the state unchanged
        if rng.below(4) == 0 {
            let junk = junk_action(&mut rng, &s);
            let before = s.clone();
            let mut t = s.clone();
            if Autobahn::apply(&mut t, seat, &junk).is_err() {
                assert_eq!(t, before, "rejected {junk:?} changed the state");
            }
            let other = (seat + 1) % players.max(1);
            if other != seat {
                let mut t = s.clone();
                assert!(Autobahn::apply(&mut t, other, &Action::EndTurn).is_err());
                assert_eq!(t, before);
            }
        }
        let legal = Autobahn::legal_actions(&s, seat);
        assert!(!legal.is_empty(), "a seat to act has a legal action");
        let others: Vec<&Action> = legal
            .iter()
            .filter(|a| !matches!(a, Action::TakeBackCards | Action::Decline))
            .collect();
        let pick = if !others.is_empty() && rng.below(8) != 0 {
            others[rng.below(others.len())].clone()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        Autobahn::apply(&mut s, seat, &pick)
            .unwrap_or_else(|e| panic!("legal action {pick:?} rejected: {e}"));
        check_invariants(&s);
    }
    panic!("game with {players} players, seed {seed} did not finish in 5,000 actions");
}

fn games() -> u32 {
    std::env::var("AUTOBAHN_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: games(), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn random_solo_games_finish(seed in any::<u64>(), level in 1u32..=12) {
        play(1, seed, level);
    }

    #[test]
    fn random_two_player_games_finish(seed in any::<u64>()) {
        play(2, seed, 1);
    }

    #[test]
    fn random_three_player_games_finish(seed in any::<u64>()) {
        play(3, seed, 1);
    }

    #[test]
    fn random_four_player_games_finish(seed in any::<u64>()) {
        play(4, seed, 1);
    }
}
