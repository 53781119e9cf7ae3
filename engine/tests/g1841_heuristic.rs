//! The 1841 `heuristic` playout policy (issue #22): deterministic, ends games of every mode
//! without an engine error, and plays like a player (starts its corporations, buys trains,
//! pays out, reaches the late phases and the events of the first 4-train).

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use referee_engine::Game;
use referee_engine::g1841::heuristic::choose;
use referee_engine::g1841::heuristic::stats::{modes, play, player_counts};
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
/// any change of the policy or of the rules it reaches shows here.
#[test]
fn pinned_game_version_2_four_players_seed_5() {
    let g = play(&Options::default(), 4, 5, 20_000);
    // Ends when the bank breaks (1841 §13), in phase 6.
    assert_eq!(
        (g.end.as_deref(), g.actions, g.phase.as_str()),
        // 1,170 actions before the merges of 2026-12-06 08:30 UTC (rules fixes of #22);
        // 1,156 before a minor without the second token's L.50 could transform (§12.2).
        (Some("bank"), 1154, "6")
    );
    // 9 mergers, no transformation, the split and the Tuscan merge, no corporation frozen,
    // 2 tokens bought, 10 emergencies (10 before the merges of 2026-12-06 08:30 UTC) and no
    // bankruptcy, 7 of the 8 off-board groups (issue
    // #22's rules fixes of 2026-12-05 changed the game: 1046 actions, 10 mergers, no
    // transformation and 13 emergencies before; those of 2026-12-06 again: 1024 actions, 1
    // transformation, 1 frozen, no token bought, 14 emergencies and 1 bankruptcy before the
    // Tuscan merge's token choices, §12.3, and half a president's certificate into the
    // pool, §14 I39; 9 mergers before the merges of 2026-12-06 08:30 UTC; 10 before a
    // minor without the second token's L.50 could transform, §12.2).
    assert_eq!(
        (g.mergers, g.transformations, g.split, g.tuscan, g.frozen),
        (9, 0, true, true, 0)
    );
    assert_eq!(
        (
            g.token_purchases,
            g.emergencies,
            g.bankruptcies,
            g.offboards
        ),
        // 9 emergencies before a minor without the second token's L.50 could transform.
        (2, 10, 0, 7)
    );
}

/// The player pays out mostly and buys trains: in the pinned game every corporation that
/// ran pays out far more often than it withholds, and the depot sells trains of every type
/// up to the last phase reached.
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
    // 81 payouts against 9 withholdings (73 and 12 before the rules of 2026-12-06 above); the
    // 2- to 6-trains bought from the depot (the bank breaks in phase 6).
    // (81, 9) before the merges of 2026-12-06 08:30 UTC; (81, 7) before a minor without the
    // second token's L.50 could transform (§12.2, FAQ-Q5).
    assert_eq!((paid, withheld, types.len()), (81, 6, 5));
}
