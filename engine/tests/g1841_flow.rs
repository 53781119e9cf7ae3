//! The turn structure of 1841 (`g1841::flow`): which round follows which (1841 §4.3, §5.5,
//! §8, §13; interpretations I21, I29), played through by a loop, never by rounds beginning each
//! other recursively. States are built by hand: 4 players, Version 2, phase 3 (two operating
//! rounds per stock round, 1841 §8).

use referee_engine::Game;
use referee_engine::g1841::flow::{self, Next};
use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{Concession, Event, G1841, Options, ShareOwner, State, market};

/// A game in which nobody can ever act, and that interpretation I29's test does not end:
/// seat 1 holds Bayard, whose income keeps I29 from ending the game (as in the p2p test
/// `i29_a_game_still_running_in_stock_round_100_ends_as_dnf`), but the bank is empty (its
/// money lies in CTS's treasury: money conserved), so Bayard pays L.0 and nobody ever has
/// money to buy. CTS is started at par L.100 with its president's certificate in the pool and
/// the rest in its IPO: frozen (no controlling player, 1841 §7.4), it only moves left in its
/// operating turns and down at the end of each stock round (§5.5). The players hold L.0 and no
/// certificate; the other concessions are the bank's.
fn nobody_can_act() -> State {
    let options = Options::default();
    let mut s = G1841::setup(&options, 4, 0).unwrap();
    s.phase = "3".to_string();
    for c in referee_engine::g1841::setup::concessions_of(&options) {
        if c == Concession::Bayard {
            s.players[1].concessions.push(c);
        } else {
            s.bank_concessions.push(c);
        }
    }
    let kind = s.corporation("CTS").unwrap().kind;
    let (row, col) = market::par_cell(100, kind).unwrap();
    market::set_cell(&mut s, "CTS", row, col);
    let mut money = s.bank_cash;
    s.bank_cash = 0;
    for p in s.players.iter_mut() {
        money += p.cash;
        p.cash = 0;
    }
    let cts = s.corporations.iter_mut().find(|c| c.sym == "CTS").unwrap();
    cts.par_price = 100;
    cts.certificates[0].owner = ShareOwner::Pool;
    cts.cash = money;
    s
}

/// The names of the rounds begun, in order (`RoundStarted`).
fn rounds(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::RoundStarted { name } => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

/// Rounds follow each other by flow's loop, not by recursion: in a game in which nobody can
/// act ([`nobody_can_act`]), beginning Stock Round 2 plays every round by itself up to
/// 18xx.games' turn limit — SR 2, OR 2.1, OR 2.2, SR 3, … (two operating rounds per stock
/// round in phase 3, 1841 §8), 99 stock rounds and 196 operating rounds — and the game ends
/// as `dnf` at the end of Stock Round 100 (interpretation I29, `game_end::TURN_LIMIT`):
/// scores L.0, L.50 (Bayard's face value, 1841 §13), L.0, L.0.
///
/// It runs on a thread with a 256 KiB stack. The old recursive code (each round's end began
/// the next round, whose settling ended it again: version_1 + `sfli_run_variant` random
/// 8 players seed 8166 overflowed the stack before the turn limit existed) played the same
/// rounds with the same events but needed more than 768 KiB of stack for them in a debug
/// build (1 MiB was enough; from Stock Round 99, 4 rounds, 64 KiB): it overflowed 256 KiB.
/// The loop needs the same stack for any number of rounds (measured in a debug build: 64 KiB
/// from Stock Round 2 as from Stock Round 99; 48 KiB is too little for either).
#[test]
fn rounds_nobody_can_act_in_are_played_by_a_loop_to_the_turn_limit() {
    let mut s = nobody_can_act();
    let played = std::thread::Builder::new()
        .name("small stack".into())
        .stack_size(256 * 1024)
        .spawn(move || {
            let mut events = Vec::new();
            flow::begin(&mut s, Next::StockRound(2), &mut events);
            (s, events)
        })
        .unwrap()
        .join();
    let (s, events) = played.expect("the rounds are played within a 256 KiB stack");
    assert_eq!(validate(&s), Ok(()));
    let names = rounds(&events);
    assert_eq!(
        names[..7],
        [
            "Stock Round 2",
            "Operating Round 2.1",
            "Operating Round 2.2",
            "Stock Round 3",
            "Operating Round 3.1",
            "Operating Round 3.2",
            "Stock Round 4",
        ]
    );
    assert_eq!(
        names[names.len() - 4..],
        [
            "Stock Round 99",
            "Operating Round 99.1",
            "Operating Round 99.2",
            "Stock Round 100",
        ]
    );
    assert_eq!(names.len(), 99 + 2 * 98);
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(
                e,
                Event::Passed {
                    automatic: true,
                    ..
                }
            ))
            .count(),
        4 * 99,
        "every seat passes by itself in every stock round"
    );
    assert_eq!(
        events.last(),
        Some(&Event::GameEnded {
            reason: "dnf".to_string(),
            scores: vec![0, 50, 0, 0],
        })
    );
    let outcome = G1841::outcome(&s).unwrap();
    assert_eq!(outcome.end_reason, "dnf");
    assert_eq!(outcome.scores, [0, 50, 0, 0]);
    assert_eq!(outcome.ranks, [2, 1, 2, 2]);
    assert_eq!(s.stock_round().map(|r| r.number), Some(100));
    assert!(G1841::to_act(&s).is_empty());
}
