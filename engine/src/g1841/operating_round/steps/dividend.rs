//! The dividend step (1841 §9.4): the operating corporation pays its revenue out to its
//! shareholders or withholds it ([`pay_dividend`] moves the money and the price).

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::state::{OperatingStep, State};
use super::super::dividends::pay_dividend;
use super::super::round_mut;
use super::{Judged, Then, only, unlisted};
use crate::Rejection;

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §9.4";
/// The step in plain words.
pub(in super::super) const NAME: &str = "dividend";

/// Paying out and withholding, always both (the step follows a run with revenue).
pub(super) fn legal() -> LegalActions {
    only(vec![
        Action::Dividend { payout: true },
        Action::Dividend { payout: false },
    ])
}

/// Both choices are always listed.
pub(super) fn judge(action: &Action) -> Option<LegalActions> {
    matches!(action, Action::Dividend { .. }).then(legal)
}

/// Pays out or withholds this turn's revenue; the token purchase step follows.
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    match action {
        Action::Dividend { payout } if j.listed => {
            pay_dividend(state, j.sym, j.revenue, *payout, events);
            if let Some(r) = round_mut(state) {
                r.revenue = 0;
                r.step = OperatingStep::BuyToken;
            }
            Ok(Then::Stay)
        }
        _ => Err(unlisted(state, j, action)),
    }
}
