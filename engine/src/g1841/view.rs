//! What one viewer may see of a game of 1841 (`referee.g1841.v1.View`).

use serde::{Deserialize, Serialize};

use super::state::{Round, State};
use crate::Viewer;

/// The state with other seats' secrets removed (`referee.g1841.v1.View`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The redacted state.
    pub state: State,
}

/// Redacts `state` for `viewer` (1841 §4.2 step 1: sealed bids are secret until every seat
/// has bid). Until then a seat sees only its own amounts and a spectator sees none; the
/// `submitted` flags stay visible to everybody. Nothing else in the implemented rounds is
/// secret. An arbiter sees everything, and so does everybody once the game has ended.
pub fn view(state: &State, viewer: Viewer) -> View {
    let mut state = state.clone();
    if viewer == Viewer::Arbiter || super::game_end::outcome(&state).is_some() {
        return View { state };
    }
    if let Round::ConcessionRound(round) = &mut state.round {
        let revealed = round.sealed_bids.iter().all(|b| b.submitted);
        if !revealed {
            for bid in &mut round.sealed_bids {
                if viewer != Viewer::Seat(bid.seat) {
                    bid.amounts.clear();
                }
            }
        }
    }
    View { state }
}

/// The state as `seat` knows it: before the Version 1 reveal, every other seat's submitted
/// sealed bid reads as all zeros (1841 §4.2 step 1; the `submitted` flags stay, as in
/// [`view`]). Nothing else in the implemented rounds is secret. What a bot computes from it for
/// `seat` (DefaultAction with a policy name) depends only on what the seat may see
/// (docs/SECURITY.md, review of #24, finding G).
pub fn without_others_secrets(state: &State, seat: crate::Seat) -> State {
    let mut state = state.clone();
    if let Round::ConcessionRound(round) = &mut state.round
        && !round.sealed_bids.iter().all(|b| b.submitted)
    {
        for bid in &mut round.sealed_bids {
            if bid.seat != seat && bid.submitted {
                bid.amounts.iter_mut().for_each(|a| *a = 0);
            }
        }
    }
    state
}
