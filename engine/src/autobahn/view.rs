//! What one viewer may see (`referee.autobahn.v1.View`).

use serde::{Deserialize, Serialize};

use super::state::{RngState, State};
use crate::Viewer;

/// The state with hidden information removed: the order of the display deck, the face-down
/// delivery-tile stack, the construction tiles left in the box, the Autobot's draw piles and
/// the RNG are replaced by `?` placeholders (counts stay visible). Hands, played cards, the
/// display, tiles on the map and everything else are open (autobahn §5.2 [L]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The redacted state.
    pub state: State,
    /// Nothing is hidden (an arbiter's view, or the game has ended): the piles and the RNG
    /// are the real ones.
    #[serde(default)]
    pub complete: bool,
}

/// Redacts `state` for `viewer` (nothing in Autobahn is secret to one seat only). An arbiter
/// sees everything, and so does everybody once the game has ended.
pub fn view(state: &State, viewer: Viewer) -> View {
    let mut s = state.clone();
    if viewer == Viewer::Arbiter || state.result.is_some() {
        return View {
            state: s,
            complete: true,
        };
    }
    let hide = |v: &mut Vec<String>| v.iter_mut().for_each(|x| *x = "?".into());
    hide(&mut s.card_deck);
    hide(&mut s.delivery_tile_stack);
    hide(&mut s.tiles_in_box);
    hide(&mut s.advanced_aside);
    for p in &mut s.players {
        if let Some(b) = &mut p.autobot {
            hide(&mut b.colour_pile);
            hide(&mut b.task_pile);
            hide(&mut b.task_reserve);
        }
    }
    s.rng.seed = 0;
    s.rng.word_pos = 0;
    View {
        state: s,
        complete: false,
    }
}

/// The state as a seat knows it, with every secret that [`view`] hides drawn again from
/// `seed`: the display deck, the delivery-tile stack, the construction tiles in the box, the
/// advanced cards set aside and each Autobot's colour pile shuffled, its task pile and task
/// reserve pooled and dealt again (which level-B cards have moved into the pile is secret
/// too), and the RNG reseeded. The piles keep their sizes and contents (public: they are the
/// complement of what is on the table), so the state stays valid and its [`view`] for every
/// seat and the spectator is unchanged; only the order of the piles, the split between the
/// task pile and the reserve, and the RNG — the secrets — now come from `seed`.
///
/// A bot asked for a seat's move (DefaultAction with a policy name) looks ahead by applying
/// actions, and an action that ends a turn lets the Autobot play from its hidden piles and
/// the RNG: on the real state its choice depends on the secrets, and a seat comparing it with
/// its own simulations learns them. Run on this state instead, the answer is a function of
/// the seat's view and `seed` only (docs/SECURITY.md, review of #24, finding G).
pub fn redraw_secrets(state: &State, seed: u64) -> State {
    let mut s = state.clone();
    // A stream of its own: `seed` is the caller's, never the game's.
    let mut rng = RngState {
        seed: seed ^ 0x7265_6472_6177_2d31, // "redraw-1"
        word_pos: 0,
    };
    // Sorted first: the new order must not depend on the old one.
    let mut redraw = |v: &mut Vec<String>| {
        v.sort_unstable();
        rng.shuffle(v);
    };
    redraw(&mut s.card_deck);
    redraw(&mut s.delivery_tile_stack);
    redraw(&mut s.tiles_in_box);
    redraw(&mut s.advanced_aside);
    for p in &mut s.players {
        if let Some(b) = &mut p.autobot {
            redraw(&mut b.colour_pile);
            let in_pile = b.task_pile.len();
            let mut tasks = std::mem::take(&mut b.task_pile);
            tasks.append(&mut b.task_reserve);
            redraw(&mut tasks);
            b.task_reserve = tasks.split_off(in_pile);
            b.task_pile = tasks;
        }
    }
    s.rng = RngState {
        seed: rng.below(usize::MAX) as u64 ^ seed.rotate_left(17),
        word_pos: 0,
    };
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::autobahn::{Autobahn, Options};

    #[test]
    fn redrawn_secrets_keep_every_view_and_the_pile_contents() {
        for seats in [1u32, 3] {
            let s = Autobahn::setup(&Options::default(), seats, 11).unwrap();
            let r = redraw_secrets(&s, 5);
            for viewer in (0..seats).map(Viewer::Seat).chain([Viewer::Spectator]) {
                assert_eq!(view(&r, viewer), view(&s, viewer), "{viewer:?}");
            }
            crate::autobahn::check_invariants(&r).unwrap();
            let sorted = |v: &[String]| {
                let mut v = v.to_vec();
                v.sort();
                v
            };
            assert_eq!(sorted(&r.card_deck), sorted(&s.card_deck));
            assert_ne!(r.card_deck, s.card_deck, "the deck order is drawn again");
            assert_ne!(r.rng, s.rng);
            assert_eq!(redraw_secrets(&s, 5), r, "a function of the seed");
            let mut reordered = s.clone();
            reordered.card_deck.reverse();
            reordered.rng.seed ^= 1;
            assert_eq!(
                redraw_secrets(&reordered, 5),
                r,
                "not of the secrets' order: the same for another deck order and RNG"
            );
            if seats == 1 {
                let (a, b) = (s.players[1].autobot.as_ref(), r.players[1].autobot.as_ref());
                let (a, b) = (a.unwrap(), b.unwrap());
                assert_eq!(a.task_pile.len(), b.task_pile.len());
                assert_eq!(a.task_reserve.len(), b.task_reserve.len());
                let all = |x: &crate::autobahn::autobot::AutobotState| {
                    sorted(&[x.task_pile.clone(), x.task_reserve.clone()].concat())
                };
                assert_eq!(all(a), all(b));
            }
        }
    }
}
