//! The stock round's shortcuts agree with the whole computations they replace: along both
//! recorded 18xx.games games and a few seeded random games (every ruleset, 3–8 players), at
//! every state and for every seat.
//!
//! * `stock_round::over_limits` (1841 §5.1, §7.3) answers as counting every certificate of
//!   the seat and working out his control of every corporation.
//! * `market::first_in_operating_order` (1841 §6, §8) names the first corporation of the
//!   sorted `market::operating_order_of` that is not skipped: with every prefix of the order
//!   skipped, and with each corporation alone skipped.

use referee_engine::Game;
use referee_engine::g1841::corporation::{
    certificate_count, certificate_limit, controlled_percent_of,
};
use referee_engine::g1841::data;
use referee_engine::g1841::market;
use referee_engine::g1841::options::Options;
use referee_engine::g1841::stock_round;
use referee_engine::g1841::{Action, G1841, State};

mod common;
use common::{Rng, recorded_states};

/// Every state of a seeded random game (random listed actions, as the fingerprint plays).
fn random_states(k: u64) -> Vec<State> {
    let players = 3 + (k % 6) as u32;
    let base = Options {
        lite: k % 7 == 6 && players <= 6,
        p2p_purchases: k % 2 == 1,
        ..Options::default()
    };
    let options = match k % 3 {
        0 => base,
        1 => Options {
            version_1: true,
            ..base
        },
        _ => base.with_all_faq_rulings(),
    };
    let mut rng = Rng((1000 + k).wrapping_mul(2) | 1);
    let mut state = G1841::setup(&options, players, 0).expect("setup");
    let mut out = vec![state.clone()];
    for _ in 0..20_000 {
        if G1841::outcome(&state).is_some() {
            break;
        }
        let to_act = G1841::to_act(&state);
        let seat = to_act[rng.below(to_act.len())];
        let legal: Vec<Action> = G1841::legal_actions(&state, seat);
        let pick = legal[rng.below(legal.len())].clone();
        G1841::apply(&mut state, seat, &pick).expect("a listed action is accepted");
        out.push(state.clone());
    }
    out
}

/// The recorded games' states and those of eight random games (six gave no state over the
/// limits once a corporation's odd split share became its controller's decision, §12.4).
fn all_states() -> Vec<State> {
    let mut out = Vec::new();
    for name in ["132002", "1841_game_end_bank"] {
        out.extend(recorded_states(name));
    }
    for k in 0..8 {
        out.extend(random_states(k));
    }
    out
}

/// 1841 §5.1, §7.3: over the certificate limit or above 60% of some corporation, each
/// counted in full.
fn over_limits_in_full(state: &State, seat: u32) -> bool {
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    certificate_count(state, seat) > certificate_limit(state)
        || state
            .corporations
            .iter()
            .any(|c| controlled_percent_of(state, seat, c) > max)
}

#[test]
fn shortcuts_agree_with_the_whole_computations() {
    let mut over = [0usize; 2];
    let mut ordered = 0;
    for state in all_states() {
        for p in &state.players {
            let seat = p.seat;
            let short = stock_round::over_limits(&state, seat);
            assert_eq!(short, over_limits_in_full(&state, seat), "seat {seat}");
            over[usize::from(short)] += 1;
        }
        let order = market::operating_order_of(&state);
        for k in 0..=order.len() {
            let skipped = &order[..k];
            let first = market::first_in_operating_order(&state, |s| skipped.contains(&s));
            assert_eq!(
                first,
                order.get(k).copied(),
                "{order:?} without {skipped:?}"
            );
        }
        for one in &order {
            let first = market::first_in_operating_order(&state, |s| s == *one);
            assert_eq!(first, order.iter().copied().find(|s| s != one), "{order:?}");
        }
        ordered += usize::from(order.len() > 1);
    }
    // Both answers occur (the test is not vacuous); most states have an order to read.
    assert!(over[0] > 100 && over[1] > 0, "over limits: {over:?}");
    assert!(
        ordered > 1000,
        "states with two started corporations: {ordered}"
    );
}
