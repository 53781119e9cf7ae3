//! The 1841 `heuristic` playout policy (issue #22): deterministic, ends games of every mode
//! without an engine error, and plays like a player (starts its corporations, buys trains,
//! pays out, plans for its trains, reaches the late phases and the events of the first
//! 4-train); one table in ten is of novices, who still go bankrupt.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use referee_engine::Game;
use referee_engine::g1841::heuristic::stats::{modes, play, player_counts};
use referee_engine::g1841::heuristic::{choose, novices, train_shortfall};
use referee_engine::g1841::{Action, Event, G1841, Options, Round};

/// Plays a game with the heuristic for every seat, returning every (seat, action, events).
fn record(options: &Options, players: u32, seed: u64) -> Vec<(u32, Action, Vec<Event>)> {
    let mut state = G1841::setup(options, players, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while G1841::outcome(&state).is_none() && out.len() < 20_000 {
        let seat = G1841::to_act(&state)[0];
        let legal = G1841::legal_actions(&state, seat);
        let a = choose(&state, seat, legal, &mut rng);
        let events = G1841::apply(&mut state, seat, &a).unwrap();
        out.push((seat, a, events));
    }
    out
}

#[test]
fn same_seed_same_game() {
    let o = Options::default();
    let a = record(&o, 4, 11);
    let b = record(&o, 4, 11);
    assert_eq!(a.len(), b.len());
    assert!(a == b, "the two games differ");
    let c = record(&o, 4, 12);
    assert_ne!(
        a.iter().map(|x| &x.1).collect::<Vec<_>>(),
        c.iter().map(|x| &x.1).collect::<Vec<_>>()
    );
}

#[test]
fn every_mode_ends_without_an_engine_error() {
    for (i, (name, options)) in modes().into_iter().enumerate() {
        let counts = player_counts(&options);
        let players = counts[i % counts.len()];
        let g = play(&options, players, 100 + i as u64, 20_000);
        assert_eq!(g.error, None, "{name}, {players} players");
        assert!(
            g.end.is_some(),
            "{name}, {players} players: no end after {} actions",
            g.actions
        );
    }
}

#[test]
fn stock_round_one_starts_every_concession_held() {
    // Version 2, 4 players, seed 5: after the concession round and the first stock round,
    // every concession a player held at the end of the concession round is a started
    // corporation (1841 §5.4, §5.5 step 4), with its president holding at least 20%.
    let o = Options::default();
    let mut state = G1841::setup(&o, 4, 5).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut held: Vec<(u32, String)> = Vec::new();
    loop {
        let seat = G1841::to_act(&state)[0];
        let legal = G1841::legal_actions(&state, seat);
        let a = choose(&state, seat, legal, &mut rng);
        let was_concession = matches!(state.round, Round::ConcessionRound(_));
        G1841::apply(&mut state, seat, &a).unwrap();
        if was_concession && matches!(state.round, Round::StockRound(_)) {
            for p in &state.players {
                for c in &p.concessions {
                    held.push((p.seat, c.as_str().to_string()));
                }
            }
        }
        if matches!(state.round, Round::OperatingRound(_)) {
            break;
        }
    }
    assert!(held.len() >= 4, "{held:?}");
    for (seat, concession) in &held {
        // Bayard has no corporation (1841 §3.2).
        let Some(sym) = referee_engine::g1841::corporation::corporation_of_concession(
            &o,
            concession.parse().unwrap(),
        ) else {
            continue;
        };
        let corp = state.corporation(sym).unwrap();
        assert!(corp.started(), "{sym} not started");
        assert_eq!(corp.president_seat(), Some(*seat), "{sym}");
    }
}

/// A pinned game (Version 2, 4 players, seed 5; `referee playout --game 1841 --policy
/// heuristic --players 4 --seed 5 --games 1`): how it ends and what happens in it, so that
/// any change of the policy or of the rules it reaches shows here. Seed 5 is a table of
/// careful players (not [`novices`]).
#[test]
fn pinned_game_version_2_four_players_seed_5() {
    assert!(!novices(&ChaCha8Rng::seed_from_u64(5)));
    let g = play(&Options::default(), 4, 5, 20_000);
    // Ends when the bank breaks (1841 §13), in phase 7. Before the presidents planned for
    // their trains (2026-12-07): 1,154 actions, phase 6 (1,170 before the merges of
    // 2026-12-06 08:30 UTC, rules fixes of #22; 1,156 before a minor without the second
    // token's L.50 could transform, §12.2).
    assert_eq!(
        (g.end.as_deref(), g.actions, g.phase.as_str()),
        (Some("bank"), 959, "7")
    );
    // 5 mergers, no transformation, the split and the Tuscan merge, no corporation frozen,
    // 9 tokens bought, 2 emergency turns and no bankruptcy, 7 of the 8 off-board groups.
    // Before the presidents planned for their trains (2026-12-07): 9 mergers, 2 tokens
    // bought and 10 emergencies (counted then once per corporation whose certificates a
    // turn sold); earlier values in the history of this test.
    assert_eq!(
        (g.mergers, g.transformations, g.split, g.tuscan, g.frozen),
        (5, 0, true, true, 0)
    );
    assert_eq!(
        (
            g.token_purchases,
            g.emergencies,
            g.bankruptcies,
            g.offboards
        ),
        (9, 2, 0, 7)
    );
}

/// The player pays out mostly and buys trains: in the pinned game the corporations pay out
/// far more often than they withhold, and the depot sells trains of every type up to the
/// last phase reached.
#[test]
fn pays_out_mostly_and_buys_every_train_type_up_to_the_last_phase() {
    let game = record(&Options::default(), 4, 5);
    let (mut paid, mut withheld) = (0, 0);
    let mut types = std::collections::BTreeSet::new();
    for (_, _, events) in &game {
        for e in events {
            match e {
                Event::DividendPaid { .. } => paid += 1,
                Event::Withheld { .. } => withheld += 1,
                Event::TrainBought { train, from, .. } if from == "depot" => {
                    types.insert(train.split('-').next().unwrap().to_string());
                }
                _ => {}
            }
        }
    }
    // 64 payouts against 26 withholdings (24 of them by a treasury short of its planned
    // train, 1841 §9.4: see the next test); the 2- to 7-trains bought from the depot (the bank
    // breaks in phase 7). (81, 6, 5) before the presidents planned for their trains
    // (2026-12-07).
    assert_eq!((paid, withheld, types.len()), (64, 26, 6));
}

/// 1841 §9.4, §14: a careful president whose corporation lacks the price of the train it
/// plans for (`train_shortfall`: none owned, or all rusting within three depot trains)
/// withholds — the whole revenue goes to the treasury, which pays first in an emergency —
/// and pays out otherwise (withholding then only now and then, 5%). In the pinned game: 24
/// dividend decisions short of the train, all withheld; 66 not short, 64 paid out.
#[test]
fn a_treasury_short_of_its_planned_train_withholds() {
    let o = Options::default();
    let mut state = G1841::setup(&o, 4, 5).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut seen = std::collections::BTreeMap::new();
    while G1841::outcome(&state).is_none() {
        let seat = G1841::to_act(&state)[0];
        let legal = G1841::legal_actions(&state, seat);
        let a = choose(&state, seat, legal, &mut rng);
        if let (Action::Dividend { payout }, Round::OperatingRound(r)) = (&a, &state.round) {
            let corp = state.corporation(r.current.as_deref().unwrap()).unwrap();
            let short = train_shortfall(&state, corp) > 0;
            *seen.entry((short, *payout)).or_insert(0) += 1;
        }
        G1841::apply(&mut state, seat, &a).unwrap();
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        vec![
            ((false, false), 2),
            ((false, true), 64),
            ((true, false), 24)
        ]
    );
}

/// One seed in ten is a table of novices (`novices`: a hash of the generator's seed), who
/// keep no reserve for their trains: 99 of the seeds 1 to 1,000; seed 97 is one, seed 5 not.
/// Their games hold most bankruptcies and keep the bankruptcy ending (1841 §13: all players
/// but one bankrupt) in the frequency report: Version 2, 3 players, seed 97 ends so after
/// 826 actions, with 3 bankruptcies (§14) and 13 emergency turns.
#[test]
fn a_table_of_novices_reaches_the_bankruptcy_ending() {
    let tables: Vec<u64> = (1..=1000)
        .filter(|s| novices(&ChaCha8Rng::seed_from_u64(*s)))
        .collect();
    assert_eq!(tables.len(), 99);
    assert!(tables.contains(&97) && !tables.contains(&5));
    let g = play(&Options::default(), 3, 97, 20_000);
    assert_eq!(
        (g.end.as_deref(), g.actions, g.bankruptcies, g.emergencies),
        (Some("bankrupt"), 826, 3, 13)
    );
}
