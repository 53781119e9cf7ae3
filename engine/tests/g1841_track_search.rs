//! The track searches that stop early agree with the whole search: along both recorded
//! 18xx.games games, at every state and for every corporation with bases,
//! `Board::reaches_at_least` (used by the route check of 1841 §9.6, `route_available`)
//! answers as counting the nodes of the full `Board::reach`, on a fresh board and on one
//! that remembers the full search.

use referee_engine::g1841::track::Board;

mod common;
use common::recorded_states;

#[test]
fn early_stopping_searches_agree_with_whole_ones() {
    let mut compared = [0usize; 2];
    for name in ["132002", "1841_game_end_bank"] {
        for state in recorded_states(name).iter().step_by(3) {
            for corp in &state.corporations {
                let fresh = Board::new(state);
                for (hex, node, _) in fresh.bases(state, &corp.sym) {
                    let starts = [(hex, node)];
                    let counts = |i: usize, n: usize| {
                        fresh
                            .view(i)
                            .and_then(|v| v.nodes.get(n))
                            .is_some_and(|n| n.counts_toward_two_stop_minimum)
                    };
                    let whole = Board::new(state).reach(state, &corp.sym, &starts, None);
                    let total = whole
                        .node_indices()
                        .iter()
                        .filter(|&&(i, n)| counts(i, n))
                        .count();
                    for wanted in 1..=3 {
                        let early = Board::new(state)
                            .reaches_at_least(state, &corp.sym, &starts, None, wanted, counts);
                        assert_eq!(
                            early,
                            total >= wanted,
                            "{name} {} wanted {wanted}",
                            corp.sym
                        );
                        compared[usize::from(early)] += 1;
                    }
                    // A board that remembers the whole search answers from it.
                    let remembering = Board::new(state);
                    remembering.reach(state, &corp.sym, &starts, None);
                    assert_eq!(
                        remembering.reaches_at_least(state, &corp.sym, &starts, None, 2, counts),
                        total >= 2
                    );
                }
            }
        }
    }
    // Both answers occur (the test is not vacuous).
    assert!(compared[0] > 100 && compared[1] > 100, "{compared:?}");
}
