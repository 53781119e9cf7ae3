//! Property test of the timeout move and the descriptions (issue #9) over random games of
//! both titles: at every step, for every seat that must act, `assist::default_action` exists
//! and `apply` accepts it; `assist::describe` of it is non-empty and says it is legal; and
//! describing a legal action never changes the state. Random policy: uniform over the legal
//! actions of a random seat of `to_act`, the rare actions of `referee playout` with 1 chance
//! in 8. Steps per game: `ASSIST_STEPS` (default 1,500: into the operating rounds of 1841).

use proptest::prelude::*;
use referee_engine::{Game, autobahn, g1841};

mod common;
use common::Rng;

fn steps() -> usize {
    std::env::var("ASSIST_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_500)
}

/// `assist::describe` of a game: the line and whether the rules accept the action.
type Describe<G> = fn(
    &<G as Game>::State,
    u32,
    &<G as Game>::Action,
) -> (String, Result<(), referee_engine::Rejection>);

/// Plays `G` from `state` and checks the assist functions at every step.
fn walk<G: Game>(
    mut state: G::State,
    seed: u64,
    default_action: fn(&G::State, u32) -> Option<G::Action>,
    describe: Describe<G>,
    rare: fn(&G::Action) -> bool,
) {
    let mut rng = Rng(seed | 1);
    for step in 0..steps() {
        let to_act = G::to_act(&state);
        if to_act.is_empty() {
            break;
        }
        for &seat in &to_act {
            if G::legal_actions(&state, seat).is_empty() {
                continue;
            }
            let d = default_action(&state, seat)
                .unwrap_or_else(|| panic!("step {step}: seat {seat} has no default action"));
            let before = state.clone();
            let (text, legal) = describe(&state, seat, &d);
            assert_eq!(state, before, "describe changed the state");
            assert!(!text.is_empty());
            assert!(legal.is_ok(), "step {step}: {text}: {legal:?}");
            let mut copy = state.clone();
            G::apply(&mut copy, seat, &d)
                .unwrap_or_else(|r| panic!("step {step}: seat {seat}: {d:?} refused: {r}"));
        }
        let seat = to_act[rng.below(to_act.len())];
        let legal = G::legal_actions(&state, seat);
        if legal.is_empty() {
            break;
        }
        let common: Vec<&G::Action> = legal.iter().filter(|a| !rare(a)).collect();
        let pick = if !common.is_empty() && rng.below(8) != 0 {
            common[rng.below(common.len())].clone()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        G::apply(&mut state, seat, &pick).unwrap();
    }
}

fn g1841_rare(a: &g1841::Action) -> bool {
    use g1841::Action;
    match a {
        Action::DeclareBankruptcy { .. } | Action::OfferPurchase { .. } => true,
        Action::Dividend { payout } => !payout,
        Action::BuyTrain { from, .. } => from != "depot" && from != "pool",
        _ => false,
    }
}

fn autobahn_rare(a: &autobahn::Action) -> bool {
    matches!(
        a,
        autobahn::Action::TakeBackCards | autobahn::Action::Decline
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn g1841_default_action_is_accepted(players in 3u32..=6, version_1 in any::<bool>(), p2p_purchases in any::<bool>(), seed in any::<u64>()) {
        let options = g1841::Options { version_1, p2p_purchases, ..g1841::Options::default() };
        let state = g1841::G1841::setup(&options, players, seed).unwrap();
        walk::<g1841::G1841>(state, seed, g1841::assist::default_action, g1841::assist::describe, g1841_rare);
    }

    #[test]
    fn autobahn_default_action_is_accepted(players in 1u32..=4, seed in any::<u64>()) {
        let options = autobahn::Options::default();
        let state = autobahn::Autobahn::setup(&options, players, seed).unwrap();
        walk::<autobahn::Autobahn>(state, seed, autobahn::assist::default_action, autobahn::assist::describe, autobahn_rare);
    }
}

/// The timeout move passes where passing is legal (1841 §5.1: a stock-round pass; §4.1: a
/// nomination pass) and sealed bids of zero in Version 1 (§4.2 step 1).
#[test]
fn g1841_default_action_passes_or_bids_nothing() {
    let state = g1841::G1841::setup(&g1841::Options::default(), 4, 0).unwrap();
    assert_eq!(
        g1841::assist::default_action(&state, 0),
        Some(g1841::Action::Pass)
    );
    let v1 = g1841::Options {
        version_1: true,
        ..g1841::Options::default()
    };
    let state = g1841::G1841::setup(&v1, 3, 0).unwrap();
    match g1841::assist::default_action(&state, 2) {
        Some(g1841::Action::BlindBid { amounts }) => assert!(amounts.iter().all(|a| *a == 0)),
        other => panic!("{other:?}"),
    }
}
