//! The track step (1841 §9.1): the operating corporation lays or upgrades tiles, as many as
//! its phase's tile actions allow ([`super::super::tiles`] finds the lays), or passes.

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::state::State;
use super::super::super::track;
use super::super::tiles::{Lay, has_legal_lay, lay_tile, legal_lays_with};
use super::{At, Judged, Settled, Then, judge_pass, then_pass, unlisted};
use crate::{Rejection, RejectionCode};

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §9.1";
/// The step in plain words.
pub(in super::super) const NAME: &str = "track";

/// Every legal lay, then a pass; `lays`: the lays when the caller has found them already.
pub(super) fn legal(at: &At, lays: Option<&[Lay]>) -> LegalActions {
    let listed;
    let lays = match lays {
        Some(l) => l,
        None => {
            listed = legal_lays_with(at.state, at.board);
            &listed
        }
    };
    then_pass(lays.iter().map(|l| Action::LayTile {
        hex: l.hex.clone(),
        tile: l.tile.clone(),
        rotation: u32::from(l.rotation),
    }))
}

/// A pass is always listed; a lay is judged by its own lay ([`super::super::apply`] finds
/// it with `legal_lay` and passes it as `lays`).
pub(super) fn judge(action: &Action) -> Option<LegalActions> {
    judge_pass(action)
}

/// Skipped when no tile can be laid (18xx.games auto-skip).
pub(super) fn settle(state: &State, board: &track::LazyBoard) -> Settled {
    Settled::waits_if(has_legal_lay(state, board))
}

/// Lays the tile of a listed `LayTile`; the step goes on (more tile actions may be left) on
/// the board with the tile.
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    match action {
        Action::LayTile {
            hex,
            tile,
            rotation,
        } if j.listed => {
            let lay = j
                .lays
                .iter()
                .flatten()
                .find(|l| &l.hex == hex && &l.tile == tile && u32::from(l.rotation) == *rotation)
                .cloned()
                .ok_or_else(|| Rejection::new(RejectionCode::IllegalMove, RULE, "lay"))?;
            let after = lay_tile(state, j.sym, &lay, j.board.made_shared(), events);
            // Nothing after this moves a tile or a token before the step skipping.
            Ok(Then::StayOn(track::LazyBoard::of(after)))
        }
        _ => Err(unlisted(state, j, action)),
    }
}
