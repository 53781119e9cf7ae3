//! The steps of a corporation's operating turn (1841 §8), one module per step, in the order
//! they are played ([`TURN`]):
//!
//! | step | module | rule | actions |
//! |---|---|---|---|
//! | track | [`track`] | 1841 §9.1 | `LayTile` (up to the phase's tile actions), `Pass` |
//! | token | [`token`] | 1841 §9.2 | `PlaceToken`, `Pass` |
//! | routes | [`routes`] | 1841 §9.3 | `RunRoutes` |
//! | dividend | [`dividend`] | 1841 §9.4 | `Dividend` (pay out or withhold) |
//! | token purchase | [`token_purchase`] | 1841 §9.5 | `BuyToken`, `Pass` |
//! | trains | [`trains`] | 1841 §9.6, §14 | `BuyTrain`, `Pass`; in emergency money raising `EmergencySell`, `DeclareBankruptcy` |
//! | corporate shares | [`shares`] | 1841 §9.7 | `SellShares`, `BuyShares`, `Par`, `Pass` |
//! | merge | [`merge`] | 1841 §12.1 | `ProposeMerger`, `Pass` |
//! | transform | [`transform`] | 1841 §12.2 | `Transform`, `Pass` |
//!
//! Every step module answers the same four questions, and the round ([`super`]) only routes
//! to them (besides what comes before any step: a discard, §9.6; a corporate event, §11,
//! §12; a corporation start in the share step, §9.7):
//! * `legal`: everything the operating corporation may do in the step (its listing);
//! * `judge`: the part of the listing that settles whether one action is legal, where a part
//!   is enough (`None`: the whole listing). A part lists the action exactly when the whole
//!   listing does (checked by a `debug_assert` in [`super::apply`]);
//! * `settle`: whether the step waits for the corporation, or is played without it (skipped
//!   when it offers nothing, as 18xx.games auto-skips; the routes step of a corporation that
//!   cannot run, §9.4);
//! * `apply`: the action carried out ([`Then`] says how the turn goes on), or its refusal
//!   (the step's own, or [`unlisted`]: the rule in the way and the legal alternatives).
//!
//! A pass that the listing holds is played by the round for every step (the step is over:
//! [`next`]).

use super::super::action::{Action, Event, LegalActions};
use super::super::state::{OperatingStep, State};
use super::super::track::LazyBoard;
use super::tiles::Lay;
use crate::{Rejection, Seat};

pub(super) mod dividend;
pub(super) mod merge;
pub(super) mod routes;
pub(super) mod shares;
pub(super) mod token;
pub(super) mod token_purchase;
pub(super) mod track;
pub(super) mod trains;
pub(super) mod transform;

/// The steps of an operating turn in the order they are played (1841 §8).
pub(super) const TURN: [OperatingStep; 9] = [
    OperatingStep::Track,
    OperatingStep::Token,
    OperatingStep::Routes,
    OperatingStep::Dividend,
    OperatingStep::BuyToken,
    OperatingStep::Trains,
    OperatingStep::Shares,
    OperatingStep::Merge,
    OperatingStep::Transform,
];

/// The step after `step` in [`TURN`]; `None` after the last (the turn is over).
pub(super) fn next(step: OperatingStep) -> Option<OperatingStep> {
    let at = TURN.iter().position(|s| *s == step)?;
    TURN.get(at + 1).copied()
}

/// The rule of `step` (cited by its refusals).
pub(super) fn rule(step: OperatingStep) -> &'static str {
    match step {
        OperatingStep::Track => track::RULE,
        OperatingStep::Token => token::RULE,
        OperatingStep::Routes => routes::RULE,
        OperatingStep::Dividend => dividend::RULE,
        OperatingStep::BuyToken => token_purchase::RULE,
        OperatingStep::Trains => trains::RULE,
        OperatingStep::Shares => shares::RULE,
        OperatingStep::Merge => merge::RULE,
        OperatingStep::Transform => transform::RULE,
    }
}

/// `step` in plain words, as messages name it.
pub(super) fn name(step: OperatingStep) -> &'static str {
    match step {
        OperatingStep::Track => track::NAME,
        OperatingStep::Token => token::NAME,
        OperatingStep::Routes => routes::NAME,
        OperatingStep::Dividend => dividend::NAME,
        OperatingStep::BuyToken => token_purchase::NAME,
        OperatingStep::Trains => trains::NAME,
        OperatingStep::Shares => shares::NAME,
        OperatingStep::Merge => merge::NAME,
        OperatingStep::Transform => transform::NAME,
    }
}

/// The step whose actions `action` is one of (`None`: an action of no operating step). A
/// pass belongs to every step: it is `now`'s.
pub(super) fn step_of(action: &Action, now: OperatingStep) -> Option<OperatingStep> {
    match action {
        Action::LayTile { .. } => Some(OperatingStep::Track),
        Action::PlaceToken { .. } => Some(OperatingStep::Token),
        Action::BuyTrain { .. }
        | Action::EmergencySell { .. }
        | Action::DeclareBankruptcy { .. } => Some(OperatingStep::Trains),
        Action::RunRoutes { .. } => Some(OperatingStep::Routes),
        Action::Dividend { .. } => Some(OperatingStep::Dividend),
        Action::BuyToken { .. } => Some(OperatingStep::BuyToken),
        Action::BuyShares { .. } | Action::SellShares { .. } | Action::Par { .. } => {
            Some(OperatingStep::Shares)
        }
        Action::ProposeMerger { .. } => Some(OperatingStep::Merge),
        Action::Transform { .. } => Some(OperatingStep::Transform),
        Action::Pass => Some(now),
        _ => None,
    }
}

/// The operating corporation in its step, as the questions of a step see it.
pub(super) struct At<'a> {
    /// The state (in the operating round, `sym` operating, no start, event or discard
    /// pending).
    pub state: &'a State,
    /// The operating corporation.
    pub sym: &'a str,
    /// A board of `state`, made when first needed and shared by every search.
    pub board: &'a LazyBoard,
}

/// Everything the operating corporation may do in `step` (1841 §9): the step's listing, with
/// repeats where a step finds an action twice (the round removes them). `lays`: the track
/// step's lays when the caller has listed them already.
pub(super) fn legal(step: OperatingStep, at: &At, lays: Option<&[Lay]>) -> LegalActions {
    match step {
        OperatingStep::Track => track::legal(at, lays),
        OperatingStep::Token => token::legal(at),
        OperatingStep::Routes => routes::legal(at),
        OperatingStep::Dividend => dividend::legal(),
        OperatingStep::BuyToken => token_purchase::legal(at),
        OperatingStep::Trains => trains::legal(at),
        OperatingStep::Shares => shares::legal(at),
        OperatingStep::Merge => merge::legal(at),
        OperatingStep::Transform => transform::legal(at),
    }
}

/// The part of `step`'s listing that settles whether `action` is legal (it holds the action
/// exactly when [`legal`] does); `None`: judge by the whole listing.
pub(super) fn judge(step: OperatingStep, at: &At, action: &Action) -> Option<LegalActions> {
    match step {
        OperatingStep::Track => track::judge(action),
        OperatingStep::Token => token::judge(action),
        OperatingStep::Routes => routes::judge(action),
        OperatingStep::Dividend => dividend::judge(action),
        OperatingStep::BuyToken => token_purchase::judge(action),
        OperatingStep::Trains => trains::judge(at, action),
        OperatingStep::Shares => shares::judge(at, action),
        OperatingStep::Merge => merge::judge(action),
        OperatingStep::Transform => transform::judge(action),
    }
}

/// What the round does with a step that may be played without the corporation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Settled {
    /// The step waits for the corporation's decision.
    Waits,
    /// The step offers nothing: it is over, the next step follows ([`next`]).
    Skipped,
    /// The step played itself and moved the turn on (the routes step of a corporation that
    /// does not run, 1841 §9.4): look again.
    Moved,
}

impl Settled {
    /// [`Settled::Waits`] when `waits`, else [`Settled::Skipped`].
    pub(super) fn waits_if(waits: bool) -> Settled {
        if waits {
            Settled::Waits
        } else {
            Settled::Skipped
        }
    }
}

/// Whether `step` waits for `seat`, the operating corporation `sym`'s controller, or is
/// played without it ([`Settled`]); a step that moves on by itself records its events.
pub(super) fn settle(
    step: OperatingStep,
    state: &mut State,
    sym: &str,
    seat: Seat,
    board: &LazyBoard,
    events: &mut Vec<Event>,
) -> Settled {
    match step {
        OperatingStep::Track => track::settle(state, board),
        OperatingStep::Token => token::settle(state, board),
        OperatingStep::Routes => routes::settle(state, sym, board, events),
        OperatingStep::Dividend => Settled::Waits,
        OperatingStep::BuyToken => token_purchase::settle(state, sym),
        OperatingStep::Trains => trains::settle(state, sym, seat, board),
        OperatingStep::Shares => shares::settle(state, sym, seat, board, events),
        OperatingStep::Merge => merge::settle(state, sym),
        OperatingStep::Transform => transform::settle(state, sym),
    }
}

/// An action of the current step as [`super::apply`] judged it, before any change.
pub(super) struct Judged<'a> {
    /// The seat acting: the operating corporation's controller.
    pub seat: Seat,
    /// The operating corporation.
    pub sym: &'a str,
    /// The step it is in.
    pub step: OperatingStep,
    /// A board of the state before the action.
    pub board: &'a LazyBoard,
    /// What the action was judged by: [`judge`]'s part or the listing (with repeats).
    pub legal: LegalActions,
    /// Whether `legal.actions` holds the action.
    pub listed: bool,
    /// The track step's lays found for the action (`LayTile`: its lay, if legal).
    pub lays: Option<Vec<Lay>>,
    /// The revenue of the routes run this turn (for the dividend step).
    pub revenue: i64,
}

/// How the turn goes on after a step's action.
pub(super) enum Then {
    /// In the same step; the round settles the steps from there ([`settle`]).
    Stay,
    /// The step is over: the next step ([`next`]), then settle.
    Next,
    /// The corporation's turn is over (1841 §14: after a bankruptcy), then settle.
    EndTurn,
    /// In the same step, settled on this board of the state after the action (nothing moved
    /// a tile or a token after it was made).
    StayOn(LazyBoard),
    /// The step is over, settled on this board of the state after the action.
    NextOn(LazyBoard),
}

/// Carries out `action`, of `j.step` (the round checked that it is an action of this step and
/// no pass the listing holds), or refuses it; on `Err` the state is unchanged.
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    match j.step {
        OperatingStep::Track => track::apply(state, j, action, events),
        OperatingStep::Token => token::apply(state, j, action, events),
        OperatingStep::Routes => routes::apply(state, j, action, events),
        OperatingStep::Dividend => dividend::apply(state, j, action, events),
        OperatingStep::BuyToken => token_purchase::apply(state, j, action, events),
        OperatingStep::Trains => trains::apply(state, j, action, events),
        OperatingStep::Shares => shares::apply(state, j, action, events),
        OperatingStep::Merge => merge::apply(state, j, action, events),
        OperatingStep::Transform => transform::apply(state, j, action, events),
    }
}

/// The refusal of `action`, an action of the current step that its listing does not hold:
/// the rule in the way and the legal alternatives of its kind ([`super::explain::why_not`],
/// given the whole listing as [`super::legal`] shows it, without repeats: `j.legal` may be a
/// part of it, or hold repeats; the state is unchanged). (No action judged by a part that
/// needs no search, [`judge`], is ever refused: a pass where one is always listed, a
/// dividend choice; routes are refused by `check_routes`.)
pub(super) fn unlisted(state: &State, j: &Judged, action: &Action) -> Rejection {
    let all = super::legal_with_lays(state, j.seat, None, j.board);
    super::explain::why_not(state, j.sym, j.step, action, &all)
}

/// A listing of these actions and nothing else.
pub(super) fn only(actions: Vec<Action>) -> LegalActions {
    LegalActions {
        actions,
        ..LegalActions::default()
    }
}

/// A listing of these actions, then a pass (a step the corporation may always pass).
pub(super) fn then_pass(actions: impl IntoIterator<Item = Action>) -> LegalActions {
    let mut actions: Vec<Action> = actions.into_iter().collect();
    actions.push(Action::Pass);
    only(actions)
}

/// `judge` of a step that always lists a pass: a pass is judged by that alone, any other
/// action by the whole listing.
pub(super) fn judge_pass(action: &Action) -> Option<LegalActions> {
    matches!(action, Action::Pass).then(|| only(vec![Action::Pass]))
}
