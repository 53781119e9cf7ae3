//! The merge step (1841 §12.1): the operating corporation proposes a merger to a partner
//! ([`super::super::events::merger`] finds the partners and plays the merger), or passes.

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::state::State;
use super::super::events::{self, merger};
use super::{At, Judged, Settled, Then, judge_pass, then_pass, unlisted};
use crate::{Rejection, RejectionCode};

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §12.1";
/// The step in plain words.
pub(in super::super) const NAME: &str = "merge";

/// A proposal to every partner, then a pass.
pub(super) fn legal(at: &At) -> LegalActions {
    then_pass(
        merger::partners(at.state, at.sym)
            .into_iter()
            .map(|partner| Action::ProposeMerger { partner }),
    )
}

/// A pass is always listed; a proposal is judged by the listing.
pub(super) fn judge(action: &Action) -> Option<LegalActions> {
    judge_pass(action)
}

/// 18xx.games offers the step (a pass is recorded) whenever the corporation itself may
/// merge, partner or not (interpretation I32); skipped otherwise.
pub(super) fn settle(state: &State, sym: &str) -> Settled {
    Settled::waits_if(merger::step_active(state, sym))
}

/// Proposes a listed merger and plays it as far as it goes without a decision (the
/// partner's president answers it, 1841 §12.1); refuses another proposal with the reason.
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    match action {
        Action::ProposeMerger { partner } if j.listed => {
            merger::propose(state, j.sym, partner);
            events::run(state, events);
            Ok(Then::Stay)
        }
        Action::ProposeMerger { partner } => Err(Rejection::new(
            RejectionCode::IllegalMove,
            RULE,
            merger::why_not(state, j.sym, partner),
        )),
        _ => Err(unlisted(state, j, action)),
    }
}
