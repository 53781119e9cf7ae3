//! The token step (1841 §9.2): the operating corporation places one token in a city its
//! track reaches ([`super::super::tokens`] finds the cities), or passes.

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::state::{MapToken, State};
use super::super::super::track;
use super::super::tokens::{has_legal_token, legal_tokens_with};
use super::{At, Judged, Settled, Then, judge_pass, then_pass, unlisted};
use crate::Rejection;

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §9.2";
/// The step in plain words.
pub(in super::super) const NAME: &str = "token";

/// A token in every city it may go to, then a pass.
pub(super) fn legal(at: &At) -> LegalActions {
    then_pass(
        legal_tokens_with(at.state, at.board)
            .into_iter()
            .map(|t| Action::PlaceToken {
                hex: t.hex,
                city: t.city,
            }),
    )
}

/// A pass is always listed; a token is judged by the listing.
pub(super) fn judge(action: &Action) -> Option<LegalActions> {
    judge_pass(action)
}

/// Skipped when no city can take a token (18xx.games auto-skip).
pub(super) fn settle(state: &State, board: &track::LazyBoard) -> Settled {
    debug_assert_eq!(
        has_legal_token(state, board),
        !legal_tokens_with(state, board).is_empty(),
        "the token step's skipping agrees with its listing"
    );
    Settled::waits_if(has_legal_token(state, board))
}

/// Places the token of a listed `PlaceToken`; the step is over, and the turn goes on from the
/// routes step on the board with the token.
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    let Action::PlaceToken { hex, city } = action else {
        return Err(unlisted(state, j, action));
    };
    if !j.listed {
        return Err(unlisted(state, j, action));
    }
    // The board of the state with the token, for the look-ups after it.
    let mut after = None;
    if let Some(c) = state.corporation_index(j.sym)
        && let Some(corp) = state.corporations.get_mut(c)
    {
        corp.tokens.push(MapToken {
            hex: hex.clone(),
            city: *city,
        });
        after = j
            .board
            .made_shared()
            .map(|before| track::Board::after_token(before, state, c));
    }
    events.push(Event::TokenPlaced {
        corporation: j.sym.to_string(),
        hex: hex.clone(),
        city: *city,
    });
    // From the token step the turn moves on to the routes step and nothing else (no tile or
    // token moves): the step skipping gets the board.
    Ok(match after {
        Some(after) => Then::NextOn(track::LazyBoard::of(after)),
        None => Then::Next,
    })
}
