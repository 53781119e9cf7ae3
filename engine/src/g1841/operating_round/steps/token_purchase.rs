//! The token purchase step (1841 §9.5, FAQ-C12): the operating corporation may buy another
//! corporation's token in a city its track reaches ([`token_purchases_with`] gives the
//! tokens and price ranges), or passes.

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::state::State;
use super::super::tokens::{buy_token, has_unplaced_token, token_purchases_with};
use super::{At, Judged, Settled, Then, judge_pass, then_pass, unlisted};
use crate::Rejection;

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §9.5";
/// The step in plain words.
pub(in super::super) const NAME: &str = "token purchase";

/// The tokens for sale with their price ranges (`token_purchases`), and a pass.
pub(super) fn legal(at: &At) -> LegalActions {
    LegalActions {
        token_purchases: token_purchases_with(at.state, at.board),
        ..then_pass([])
    }
}

/// A pass is always listed; a purchase is judged by the listing's ranges.
pub(super) fn judge(action: &Action) -> Option<LegalActions> {
    judge_pass(action)
}

/// Interpretation I16: the step is offered to a corporation with an unplaced token and
/// treasury money to pay at least L.1, whether or not a token is for sale (132002 action
/// 732: SFLi, L.0, skips the step); skipped otherwise.
pub(super) fn settle(state: &State, sym: &str) -> Settled {
    let cash = state.corporation(sym).map_or(0, |c| c.cash);
    Settled::waits_if(has_unplaced_token(state, sym) && cash >= 1)
}

/// Buys a token within a listed range; the step is over (one purchase per turn).
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    match action {
        Action::BuyToken {
            hex,
            city,
            seller,
            price,
        } if j.legal.token_purchases.iter().any(|t| {
            &t.hex == hex
                && t.city == *city
                && &t.seller == seller
                && (t.min_price..=t.max_price).contains(price)
        }) =>
        {
            buy_token(state, j.sym, hex, *city, seller, *price, events);
            Ok(Then::Next)
        }
        _ => Err(unlisted(state, j, action)),
    }
}
