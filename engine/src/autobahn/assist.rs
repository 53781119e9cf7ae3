//! Help for platforms and UIs (issue #9): a one-line English description of an action
//! ([`describe`]) and the move played for a seat that does not act in time
//! ([`default_action`]). Neither changes the state.

use super::Autobahn;
use super::action::Action;
use super::state::State;
use crate::{Game, Rejection, Seat};

/// One English line describing `action` by `seat` in `state`, e.g.
/// `Seat 0 plays card 12 as RED on BUILD_ROAD (target S17)`, and whether the rules accept it
/// now (the rejection otherwise; the action is tried on a copy). Covers every action type
/// (the `match` has no catch-all). Ids are the board data's ids (autobahn data files).
pub fn describe(state: &State, seat: Seat, action: &Action) -> (String, Result<(), Rejection>) {
    let mut copy = state.clone();
    let applied = Autobahn::apply(&mut copy, seat, action).map(|_| ());
    let p = format!("Seat {seat}");
    let text = match action {
        Action::ChooseRouteCard { card } => format!("{p} keeps route card {card}"),
        Action::ClaimDeliveryBonus { country } => {
            format!("{p} claims the delivery bonus of {country}")
        }
        Action::PlayCard {
            card,
            colour,
            space,
            target,
            goods,
        } => format!(
            "{p} plays card {card} as {colour} on {space} (target {target}{})",
            goods
                .as_ref()
                .map(|g| format!(", goods {g}"))
                .unwrap_or_default()
        ),
        Action::TakeBackCards => format!("{p} takes back the played cards (1 DM each)"),
        Action::Subsidy => format!("{p} takes the government subsidy"),
        Action::MoveTruck {
            truck,
            path,
            deliver,
        } => {
            let route = if path.is_empty() {
                "stays".to_string()
            } else {
                format!("moves via {}", path.join(", "))
            };
            format!(
                "{p}: truck {truck} {route}{}",
                if *deliver { " and delivers" } else { "" }
            )
        }
        Action::EndTurn => format!("{p} ends the turn"),
        Action::Promote {
            department,
            from_floor,
        } => format!("{p} promotes an employee of {department} from floor {from_floor}"),
        Action::PlaceEmployee { colour } => {
            format!("{p} places an employee in the {colour} office")
        }
        Action::BuildRoad { section } => format!("{p} builds road section {section}"),
        Action::UpgradeLink { link } => format!("{p} upgrades link {link}"),
        Action::BuildStation { space } => format!("{p} builds a station on {space}"),
        Action::Unlock { cell } => format!("{p} unlocks {cell}"),
        Action::TakeDisplayCard { slot } => format!("{p} takes display card {slot}"),
        Action::DiscardDisplayCard { slot } => format!("{p} discards display card {slot}"),
        Action::PlaceActionTile { space } => format!("{p} places an action tile on {space}"),
        Action::Decline => format!("{p} declines the free action"),
    };
    // A legal trap says so (issue #23; autobahn::legal::warning).
    let text = match (&applied, super::legal::warning(state, seat, action)) {
        (Ok(()), Some(w)) => format!("{text} — warning: {w}"),
        _ => text,
    };
    (text, applied)
}

/// Preference of the timeout move (lower first); see [`default_action`].
fn default_rank(action: &Action) -> u8 {
    match action {
        Action::Decline | Action::EndTurn => 0,
        Action::TakeBackCards => 2,
        _ => 1,
    }
}

/// The move played for `seat` when its clock runs out ("pass or minimal"), among the legal
/// actions (so Apply accepts it): declining an optional free action or ending the turn where
/// legal (the passes of Autobahn); else the first legal action in the engine's order, taking
/// back cards only when nothing else is legal. `None` when the seat has no legal action.
pub fn default_action(state: &State, seat: Seat) -> Option<Action> {
    Autobahn::legal_actions(state, seat)
        .into_iter()
        .enumerate()
        .min_by_key(|(i, a)| (default_rank(a), *i))
        .map(|(_, a)| a)
}

/// Whether `action` is a pass ([`default_action`]'s first preference).
pub fn is_pass(action: &Action) -> bool {
    default_rank(action) == 0
}
