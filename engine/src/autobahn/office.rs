//! Construction Offices, the Lobby and promotions (AQ-1, AQ-2, autobahn §5.10, §5.11).

use super::action::Event;
use super::board::DEPARTMENTS;
use super::state::{PendingKind, State};
use crate::{Rejection, RejectionCode};

/// Places an employee of `player` in the office of autobahn `a` (AQ-1 step 3, AQ-2,
/// autobahn §5.10).
///
/// * Free seat: the leftmost free seat (AQ-1).
/// * Full office: the leftmost employee (anyone's) goes to the Lobby, the others shift left
///   and the new one takes the rightmost seat (AQ-2).
/// * Empty reserve: first take exactly 3 of one's own employees back from the Lobby
///   (as many as there are, U-28), place one, then owe one promotion (AQ-2). With nobody in
///   reserve or Lobby the placement is skipped (documented default).
pub fn place_employee(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    a: usize,
    rule: &str,
) -> Result<(), Rejection> {
    let Some(office) = state.offices.get(a) else {
        return Err(Rejection::new(
            RejectionCode::InvalidArgument,
            rule,
            "No such office.",
        ));
    };
    let autobahn = office.autobahn.clone();
    let mut promote = false;
    if state.p(player).reserve == 0 {
        let back = state.p(player).lobby.min(3);
        let p = state.pm(player);
        p.lobby -= back;
        p.reserve += back;
        ev.push(Event::EmployeesReturned {
            player,
            count: back,
        });
        promote = true;
    }
    if state.p(player).reserve == 0 {
        ev.push(Event::EffectLost {
            player,
            effect: format!("PlaceEmployee {autobahn}: no employee in reserve or Lobby"),
        });
    } else {
        state.pm(player).reserve -= 1;
        let office = &mut state.offices[a];
        let mut evicted = None;
        if office.seats.len() as u32 >= office.capacity && !office.seats.is_empty() {
            evicted = Some(office.seats.remove(0));
        }
        if office.capacity > 0 {
            state.offices[a].seats.push(player);
        } else {
            state.pm(player).lobby += 1;
        }
        if let Some(out) = evicted {
            state.pm(out).lobby += 1;
        }
        ev.push(Event::EmployeePlaced {
            player,
            office: autobahn,
            evicted,
        });
    }
    if promote {
        super::effects::queue(
            state,
            ev,
            player,
            PendingKind::Promote { department: None },
            "AQ-2",
        );
    }
    Ok(())
}

/// Legal promotions of `player` as `(department, from_floor)` (0 = Lobby), autobahn §5.11:
/// Lobby → floor 1 of any department, floor f → f+1 of the same department when that floor is
/// open to the player (U-11 floor access; the Autobot: floor ≤ era, §8.6).
pub fn promotion_options(
    state: &State,
    player: u32,
    department: Option<&str>,
) -> Vec<(usize, u32)> {
    let p = state.p(player);
    let bot = p.autobot.is_some();
    let mut out = Vec::new();
    for (d, name) in DEPARTMENTS.iter().enumerate() {
        if department.is_some_and(|x| x != *name) {
            continue;
        }
        let max = if bot {
            state.era.min(3)
        } else {
            p.floor_access.get(d).copied().unwrap_or(1).min(3)
        };
        if p.lobby > 0 && max >= 1 {
            out.push((d, 0));
        }
        for f in 1..3u32 {
            if p.departments[d][(f - 1) as usize] > 0 && f < max {
                out.push((d, f));
            }
        }
    }
    out
}

/// Moves one employee of `player` up from `from_floor` in department `d` (autobahn §5.11).
pub fn promote(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    d: usize,
    from_floor: u32,
    restriction: Option<&str>,
) -> Result<(), Rejection> {
    if !promotion_options(state, player, restriction).contains(&(d, from_floor)) {
        return Err(Rejection::new(
            RejectionCode::IllegalMove,
            "autobahn §5.11",
            "That employee cannot be promoted there (an employee must be there and the next floor open).",
        ));
    }
    let p = state.pm(player);
    if from_floor == 0 {
        p.lobby -= 1;
    } else {
        p.departments[d][(from_floor - 1) as usize] -= 1;
    }
    p.departments[d][from_floor as usize] += 1;
    ev.push(Event::Promoted {
        player,
        department: DEPARTMENTS[d].to_string(),
        floor: from_floor + 1,
    });
    Ok(())
}
