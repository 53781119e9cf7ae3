//! Random full games of 1841 (1841 §13 and the whole rule set as implemented): for 3–8
//! players, `lite`, and every other game with `p2p_purchases` (lite ones too), seeded random
//! play with the policy of `referee playout` (withholding, other corporations' trains,
//! bankruptcy and offers to other players rare — an offer at the item's market value, which
//! the seller accepts or declines at random; routes from the route optimizer) until the game
//! ends, checking after every action: money conserved (bank + players + corporations), every
//! corporation's certificates sum to 100%, trains conserved (depot sales equal the trains
//! owned, in the pool and rusted), tokens on the map within those owned, the state validator
//! passes, every listed action is accepted, a seat not to act is refused and the state is
//! unchanged.
//!
//! The games are split across three rule sets (game k: k mod 3): Version 2 as the recorded
//! games play it (every FAQ option off), `version_1` with `sfli_run_variant` (the FAQ rulings
//! on by their version default), and Version 2 with every FAQ option on (1841-faq.md §7, the
//! FAQ-V3 variant included); independently, every other game (game k odd) is played with
//! `p2p_purchases`.
//!
//! `G1841_GAMES` sets the number of games (default 6: one per player count, two per rule
//! set); CI runs more in release (`scripts/test-all.sh`).

use referee_engine::g1841::{
    Action, Event, G1841, Options, ShareOwner, check_invariants, game_end,
};
use referee_engine::{Game, RejectionCode};

mod common;
use common::Rng;
use common::g1841::rare;

/// Plays one game to its end; returns the number of actions, the end reason and the
/// player-to-player offers made and accepted.
fn play(options: Options, players: u32, seed: u64) -> (usize, String, usize, usize) {
    let mut state = G1841::setup(&options, players, 0).unwrap();
    let money = state.total_money();
    let mut rng = Rng(seed.wrapping_mul(2) | 1);
    let (mut made, mut accepted) = (0, 0);
    for step in 0..20_000 {
        if let Some(o) = G1841::outcome(&state) {
            assert_eq!(o.scores, game_end::scores(&state));
            assert_eq!(o.scores.len(), players as usize);
            assert!(o.ranks.contains(&1));
            assert!(G1841::to_act(&state).is_empty());
            return (step, o.end_reason, made, accepted);
        }
        let to_act = G1841::to_act(&state);
        assert!(
            !to_act.is_empty(),
            "seed {seed}, {players} players, step {step}: nobody can act and no result ({:?})",
            state.round
        );
        let seat = to_act[rng.below(to_act.len())];
        let legal = G1841::legal_actions(&state, seat);
        assert!(!legal.is_empty(), "seat {seat} must act but has no action");
        // Every listed action is accepted (probe a few, cheaply).
        for _ in 0..2 {
            let probe_action = &legal[rng.below(legal.len())];
            let mut probe = state.clone();
            assert!(
                G1841::apply(&mut probe, seat, probe_action).is_ok(),
                "seed {seed} step {step}: listed {probe_action:?} rejected"
            );
        }
        // A seat not to act is refused; the state is unchanged.
        if let Some(other) = (0..players).find(|s| !to_act.contains(s)) {
            let mut probe = state.clone();
            let err = G1841::apply(&mut probe, other, &Action::Pass).unwrap_err();
            assert!(matches!(
                err.code,
                RejectionCode::NotYourTurn | RejectionCode::IllegalMove | RejectionCode::WrongStep
            ));
            assert_eq!(probe, state);
        }
        let common: Vec<&Action> = legal.iter().filter(|a| !rare(a)).collect();
        let pick = if !common.is_empty() && rng.below(8) != 0 {
            common[rng.below(common.len())].clone()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        let events = G1841::apply(&mut state, seat, &pick)
            .unwrap_or_else(|r| panic!("seed {seed} step {step}: {pick:?} rejected: {r}"));
        for e in &events {
            match e {
                Event::OfferMade { .. } => made += 1,
                Event::OfferAccepted { .. } => accepted += 1,
                _ => {}
            }
        }
        assert_eq!(state.total_money(), money, "seed {seed} step {step}: money");
        for c in &state.corporations {
            let sum: u32 = c.certificates.iter().map(|x| x.percent).sum();
            assert_eq!(sum, 100, "{}", c.sym);
            assert!(c.tokens.len() as u32 <= c.tokens_total, "{} tokens", c.sym);
            if c.started() {
                assert!(c.president().is_some(), "{}", c.sym);
            } else {
                assert!(c.certificates.iter().all(|x| x.owner == ShareOwner::Ipo));
            }
        }
        let ops = &state.operations;
        let sold: u32 = ops.depot_sold.values().sum();
        let held = ops.trains.values().map(Vec::len).sum::<usize>()
            + ops.pool_trains.len()
            + ops.rusted.len();
        assert_eq!(
            sold as usize, held,
            "seed {seed} step {step}: trains conserved"
        );
        assert_eq!(check_invariants(&state), Ok(()), "seed {seed} step {step}");
    }
    panic!("seed {seed}, {players} players: no result after 20,000 actions");
}

#[test]
fn s13_random_full_games_end_with_invariants_kept() {
    let games: u64 = std::env::var("G1841_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let mut reasons = std::collections::BTreeMap::new();
    let mut actions = 0;
    let mut per_rule_set = [0u64; 3];
    let mut offers = (0, 0);
    for k in 0..games {
        let players = 3 + (k % 6) as u32;
        let lite = k % 7 == 6 && players <= 6;
        // Every other game with player-to-player purchases (1841 §15.3), lite ones too.
        let p2p_purchases = k % 2 == 1;
        let base = Options {
            lite,
            p2p_purchases,
            ..Options::default()
        };
        let rule_set = (k % 3) as usize;
        let options = match rule_set {
            0 => base,
            1 => Options {
                version_1: true,
                sfli_run_variant: true,
                ..base
            },
            _ => base.with_all_faq_rulings(),
        };
        let (n, reason, made, accepted) = play(options, players, 1000 + k);
        actions += n;
        offers.0 += made;
        offers.1 += accepted;
        per_rule_set[rule_set] += 1;
        *reasons.entry(reason).or_insert(0) += 1;
    }
    println!(
        "{games} games (Version 2 / version_1 + sfli_run_variant / all FAQ options: {per_rule_set:?}; every other one with p2p_purchases), {actions} actions, end reasons {reasons:?}, p2p offers made {}, accepted {}",
        offers.0, offers.1
    );
    if games >= 2 {
        assert!(offers.1 > 0, "random play exercises p2p purchases");
    }
    assert_eq!(reasons.values().sum::<u64>(), games);
}
