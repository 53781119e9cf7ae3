//! What one viewer may see (`referee.autobahn.v1.View`).

use serde::{Deserialize, Serialize};

use super::state::State;
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
