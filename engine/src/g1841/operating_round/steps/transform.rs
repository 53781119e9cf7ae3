//! The transform step (1841 §12.2): a minor transforms into an unstarted non-historical
//! major ([`super::super::events::transform`] finds the targets and plays the
//! transformation), or passes.

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::state::State;
use super::super::events::{self, transform};
use super::{At, Judged, Settled, Then, judge_pass, then_pass, unlisted};
use crate::{Rejection, RejectionCode};

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §12.2";
/// The step in plain words.
pub(in super::super) const NAME: &str = "transform";

/// A transformation into every target, then a pass.
pub(super) fn legal(at: &At) -> LegalActions {
    then_pass(
        transform::targets(at.state, at.sym)
            .into_iter()
            .map(|corporation| Action::Transform { corporation }),
    )
}

/// A pass is always listed; a transformation is judged by the listing.
pub(super) fn judge(action: &Action) -> Option<LegalActions> {
    judge_pass(action)
}

/// Skipped when the corporation has no target.
pub(super) fn settle(state: &State, sym: &str) -> Settled {
    Settled::waits_if(!transform::targets(state, sym).is_empty())
}

/// Begins a listed transformation and plays it as far as it goes without a decision;
/// refuses another one with the conditions.
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    match action {
        Action::Transform { corporation } if j.listed => {
            transform::begin(state, j.sym, corporation, events);
            events::run(state, events);
            Ok(Then::Stay)
        }
        Action::Transform { corporation } => Err(Rejection::new(
            RejectionCode::IllegalMove,
            RULE,
            format!(
                "{} cannot become {corporation} now: only a minor (historical ones from \
                 phase 4) with its second token paid for may transform, into an unstarted \
                 non-historical major.",
                j.sym
            ),
        )),
        _ => Err(unlisted(state, j, action)),
    }
}
