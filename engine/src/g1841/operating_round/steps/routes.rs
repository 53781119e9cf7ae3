//! The routes step (1841 §9.3): the operating corporation runs its trains. The listing names
//! the trains; the routes sent are checked by [`check_routes`] (the optimizer,
//! [`super::super::best_routes`], finds the best ones for a caller).

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::state::{OperatingStep, State};
use super::super::super::track;
use super::super::dividends::move_left;
use super::super::round_mut;
use super::super::routes::{check_routes, route_available_with};
use super::super::trains::{train_count, trains_of};
use super::{At, Judged, Settled, Then, unlisted};
use crate::Rejection;

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §9.3";
/// The step in plain words.
pub(in super::super) const NAME: &str = "routes";

/// The trains to run (`run_routes`), no other action.
pub(super) fn legal(at: &At) -> LegalActions {
    LegalActions {
        run_routes: Some(trains_of(at.state, at.sym)),
        ..LegalActions::default()
    }
}

/// Routes are judged by [`check_routes`], not by the listing.
pub(super) fn judge(action: &Action) -> Option<LegalActions> {
    matches!(action, Action::RunRoutes { .. }).then(LegalActions::default)
}

/// A corporation without a train or without a route (two stops it may run between) does not
/// run: it withholds nothing and its price moves one step left (1841 §9.4); the turn goes on
/// at the token purchase step.
pub(super) fn settle(
    state: &mut State,
    sym: &str,
    board: &track::LazyBoard,
    events: &mut Vec<Event>,
) -> Settled {
    if train_count(state, sym) > 0 && route_available_with(state, board, sym) {
        return Settled::Waits;
    }
    events.push(Event::DidNotRun {
        corporation: sym.to_string(),
    });
    move_left(state, sym, 1, events);
    if let Some(r) = round_mut(state) {
        r.step = OperatingStep::BuyToken;
    }
    Settled::Moved
}

/// Runs the routes of a `RunRoutes` that [`check_routes`] accepts: with revenue the dividend
/// step follows; without, the corporation withholds 0 and moves one step left (1841 §9.4),
/// and the turn goes on at the token purchase step.
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    let Action::RunRoutes { routes } = action else {
        return Err(unlisted(state, j, action));
    };
    let revenues = check_routes(state, j.sym, routes)?;
    let revenue: i64 = revenues.iter().sum();
    events.push(Event::RoutesRun {
        corporation: j.sym.to_string(),
        revenues,
        revenue,
    });
    if revenue > 0 {
        if let Some(r) = round_mut(state) {
            r.revenue = revenue;
            r.step = OperatingStep::Dividend;
        }
    } else {
        move_left(state, j.sym, 1, events);
        if let Some(r) = round_mut(state) {
            r.step = OperatingStep::BuyToken;
        }
    }
    Ok(Then::Stay)
}
