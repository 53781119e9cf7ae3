//! The boards derived from the board before a tile lay or a token placement
//! (`Board::after_lay`, `Board::after_token`, used by the operating round after 1841 §9.1
//! lays and §9.2 tokens) equal the board read from the whole state (`Board::new`), and the
//! key they are shared under matches that state (`Board::shared` hands the derived board
//! out for it): along both recorded 18xx.games games at every lay and token placement, and
//! for states changed by hand (a tile the manifest lacks, an odd rotation, a hex off the
//! map, a repeated token), whether the board before is shared or not; and the board's check
//! for tokens on a hex (`Board::has_token_from`, used by `lay_tile`) agrees with the tokens.

use std::rc::Rc;

use referee_engine::g1841::State;
use referee_engine::g1841::state::{MapToken, PlacedTile};
use referee_engine::g1841::track::Board;

mod common;
use common::recorded_states;

/// The boards before: shared (its key known) and not shared (the key read afresh).
fn befores(before: &State) -> [Rc<Board>; 2] {
    [Board::shared(before), Rc::new(Board::new(before))]
}

/// `after_lay` from `before` to `after` (which differ in the tile on `hex` alone) gives
/// `after`'s board, shared for it.
fn check_lay(before: &State, after: &State, hex: &str, what: &str) {
    for b in befores(before) {
        let derived = Board::after_lay(&b, after, hex);
        assert!(*derived == Board::new(after), "{what}: after_lay");
        assert!(
            Rc::ptr_eq(&derived, &Board::shared(after)),
            "{what}: the derived board is shared for its state"
        );
    }
}

/// `after_token` from `before` to `after` (`corp`'s last token added) gives `after`'s
/// board, shared for it.
fn check_token(before: &State, after: &State, corp: usize, what: &str) {
    for b in befores(before) {
        let derived = Board::after_token(&b, after, corp);
        assert!(*derived == Board::new(after), "{what}: after_token");
        assert!(
            Rc::ptr_eq(&derived, &Board::shared(after)),
            "{what}: the derived board is shared for its state"
        );
    }
}

/// The hex whose tile differs between `a` and `b` when it is the only difference of their
/// tiles.
fn one_tile_changed(a: &State, b: &State) -> Option<String> {
    let (ta, tb) = (&a.operations.tiles, &b.operations.tiles);
    let mut changed = tb.iter().filter(|(h, p)| ta.get(*h) != Some(*p));
    let (hex, _) = changed.next()?;
    (changed.next().is_none() && ta.keys().all(|h| tb.contains_key(h))).then(|| hex.clone())
}

#[test]
fn derived_boards_equal_fresh_ones_along_the_recorded_games() {
    let (mut lays, mut tokens) = (0, 0);
    for name in ["132002", "1841_game_end_bank"] {
        let states = recorded_states(name);
        for (n, pair) in states.windows(2).enumerate() {
            let (before, after) = (&pair[0], &pair[1]);
            let same_tokens = before
                .corporations
                .iter()
                .zip(&after.corporations)
                .all(|(a, b)| a.tokens == b.tokens);
            if same_tokens && let Some(hex) = one_tile_changed(before, after) {
                check_lay(
                    before,
                    after,
                    &hex,
                    &format!("{name} action {n}: lay on {hex}"),
                );
                lays += 1;
            }
            let added: Vec<usize> = (0..after.corporations.len())
                .filter(|&c| before.corporations.get(c) != after.corporations.get(c))
                .filter(|&c| {
                    let (a, b) = (
                        &before.corporations[c].tokens,
                        &after.corporations[c].tokens,
                    );
                    b.len() == a.len() + 1 && b.starts_with(a)
                })
                .collect();
            let others_same = before
                .corporations
                .iter()
                .zip(&after.corporations)
                .enumerate()
                .all(|(c, (a, b))| added.contains(&c) || a.tokens == b.tokens);
            if before.operations.tiles == after.operations.tiles && added.len() == 1 && others_same
            {
                check_token(
                    before,
                    after,
                    added[0],
                    &format!("{name} action {n}: token"),
                );
                tokens += 1;
            }
        }
    }
    // Both kinds occur (the test is not vacuous).
    assert!(lays > 100 && tokens > 20, "{lays} lays, {tokens} tokens");
}

#[test]
fn derived_boards_equal_fresh_ones_for_states_changed_by_hand() {
    let mut checked = 0;
    for name in ["132002", "1841_game_end_bank"] {
        for (n, before) in recorded_states(name).iter().enumerate().step_by(37) {
            let laid: Vec<(String, PlacedTile)> = before
                .operations
                .tiles
                .iter()
                .map(|(h, p)| (h.clone(), p.clone()))
                .collect();
            let mut changes: Vec<(String, PlacedTile)> = vec![
                // A hex off the map, a tile the manifest lacks, an odd rotation.
                (
                    "Z99".into(),
                    PlacedTile {
                        tile: "8".into(),
                        rotation: 1,
                    },
                ),
                (
                    "F8".into(),
                    PlacedTile {
                        tile: "no-such".into(),
                        rotation: 0,
                    },
                ),
                (
                    "G9".into(),
                    PlacedTile {
                        tile: "9".into(),
                        rotation: 13,
                    },
                ),
                (
                    "A1".into(),
                    PlacedTile {
                        tile: "8".into(),
                        rotation: 2,
                    },
                ),
            ];
            // Every laid hex given the next laid hex's tile (a replaced tile).
            for (k, (hex, _)) in laid.iter().enumerate() {
                if let Some((_, p)) = laid.get(k + 1) {
                    changes.push((hex.clone(), p.clone()));
                }
            }
            for (hex, placed) in changes {
                let mut after = before.clone();
                after.operations.tiles.insert(hex.clone(), placed);
                check_lay(
                    before,
                    &after,
                    &hex,
                    &format!("{name} state {n}: {hex} by hand"),
                );
                checked += 1;
            }
            for c in (0..before.corporations.len()).step_by(3) {
                for token in [
                    MapToken {
                        hex: "F8".into(),
                        city: 0,
                    },
                    MapToken {
                        hex: "Z99".into(),
                        city: 0,
                    },
                    MapToken {
                        hex: "G9".into(),
                        city: 3,
                    },
                ] {
                    let mut after = before.clone();
                    after.corporations[c].tokens.push(token.clone());
                    check_token(
                        before,
                        &after,
                        c,
                        &format!("{name} state {n}: token by hand"),
                    );
                    // The same token again (a repeated entry).
                    let mut again = after.clone();
                    again.corporations[c].tokens.push(token);
                    check_token(&after, &again, c, &format!("{name} state {n}: token again"));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// `Board::has_token_from` (the check of `lay_tile` for tokens to move, 1841 §9.1) answers
/// as scanning every corporation's tokens by hex name, at every state of both games, for
/// every hex of the map and cities 0–3.
#[test]
fn token_check_on_the_board_agrees_with_the_tokens() {
    let mut found = 0;
    for name in ["132002", "1841_game_end_bank"] {
        for state in recorded_states(name).iter().step_by(5) {
            let board = Board::new(state);
            for (i, hex) in board.map.hex_ids.iter().enumerate() {
                for city in 0..4 {
                    let scanned = state
                        .corporations
                        .iter()
                        .any(|c| c.tokens.iter().any(|t| &t.hex == hex && t.city >= city));
                    assert_eq!(
                        board.has_token_from(i, city),
                        scanned,
                        "{name} {hex} {city}"
                    );
                    found += usize::from(scanned);
                }
            }
        }
    }
    assert!(found > 100, "{found}");
}
