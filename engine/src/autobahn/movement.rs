//! Phase 3: moving trucks and delivering (AQ-4, AQ-5, autobahn §5.8).

use super::action::{Event, Id};
use super::board::GOODS;
use super::build::built;
use super::state::{Road, State, TruckAt};
use crate::{Rejection, RejectionCode};

fn reject(rule: &str, msg: impl Into<String>) -> Rejection {
    Rejection::new(RejectionCode::IllegalMove, rule, msg)
}

/// Whether `player`'s truck `t` may start moving after a card of `colour` (AQ-4): it starts on
/// a depot of that colour or on a section of that colour.
pub fn may_start(state: &State, player: u32, t: usize, colour: usize) -> bool {
    let Some(truck) = state.p(player).trucks.get(t) else {
        return false;
    };
    match &truck.at {
        TruckAt::Reserve => false,
        TruckAt::Depot(d) => state
            .board
            .def
            .depots
            .iter()
            .any(|x| x.id == *d && state.board.autobahn(&x.autobahn) == Some(colour)),
        TruckAt::Section(s) => state
            .board
            .map
            .section_index
            .get(s)
            .is_some_and(|i| state.board.map.sections[*i].autobahn == colour),
    }
}

/// Why truck `t` of `player` may not start moving after a card of colour `c` (AQ-4): it must
/// start on a depot *of that colour* or on a section of that colour; the message names where
/// it stands (issue #23: the old text, "on a depot or a section of the colour", read as if any
/// depot would do).
pub fn start_refusal(state: &State, player: u32, t: usize, c: usize) -> String {
    let colour = state
        .board
        .def
        .autobahns
        .get(c)
        .map_or("?", |a| a.id.as_str());
    let at = match state.p(player).trucks.get(t).map(|x| &x.at) {
        Some(TruckAt::Depot(d)) => {
            let other = state
                .board
                .def
                .depots
                .iter()
                .find(|x| x.id == *d)
                .map_or("?", |x| x.autobahn.as_str());
            format!("it stands on depot {d}, a {other} depot, not a {colour} one")
        }
        Some(TruckAt::Section(s)) => {
            let other = state
                .board
                .map
                .section_index
                .get(s)
                .and_then(|i| {
                    state
                        .board
                        .def
                        .autobahns
                        .get(state.board.map.sections[*i].autobahn)
                })
                .map_or("?", |a| a.id.as_str());
            format!("it stands on section {s} of {other}, not of {colour}")
        }
        _ => "it is in the reserve".to_string(),
    };
    format!(
        "Truck {t} cannot move with a {colour} card: a truck moves only if it starts on a {colour} depot or a {colour} road section, and {at}."
    )
}

/// Maximum steps (AQ-4): 2 in era 1, 3 in eras 2–3 (board `eras[].truck_steps`), +1 when the
/// truck starts on a two-lane section.
pub fn max_steps(state: &State, player: u32, t: usize) -> u32 {
    let base = state.board.truck_steps(state.era);
    let two_lane = match state.p(player).trucks.get(t).map(|x| &x.at) {
        Some(TruckAt::Section(s)) => state
            .board
            .map
            .section_index
            .get(s)
            .is_some_and(|i| state.sections[*i].road == Road::TwoLane),
        _ => false,
    };
    base + u32::from(two_lane)
}

/// Sections a truck at `at` can enter next: built, open sections adjacent to its section, or
/// touching its depot's city (AQ-4: any colour once moving).
pub fn next_sections(state: &State, at: &TruckAt) -> Vec<usize> {
    let m = &state.board.map;
    let ok = |s: usize| built(state, s) && state.board.section_open(s, state.era);
    match at {
        TruckAt::Reserve => vec![],
        TruckAt::Depot(d) => {
            let Some(di) = state.board.def.depots.iter().position(|x| x.id == *d) else {
                return vec![];
            };
            let c = m.depot_city[di];
            m.city_sections
                .get(c)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .copied()
                .filter(|s| ok(*s))
                .collect()
        }
        TruckAt::Section(s) => match m.section_index.get(s) {
            Some(i) => m.adj[*i].iter().copied().filter(|s| ok(*s)).collect(),
            None => vec![],
        },
    }
}

/// Country index a truck standing at `at` may deliver to with one more step (AQ-5, U-15).
pub fn exit_country(state: &State, at: &TruckAt) -> Option<usize> {
    let TruckAt::Section(s) = at else { return None };
    let i = *state.board.map.section_index.get(s)?;
    let c = state.board.map.sections[i].exit_to?;
    (state.board.def.countries[c].opens_in_era <= state.era).then_some(c)
}

/// Moves a truck along `path` and optionally delivers (AQ-4, AQ-5). Checks everything before
/// changing anything. A path may not enter the same section twice (documented default).
#[allow(clippy::too_many_arguments)]
pub fn move_truck(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    t: usize,
    path: &[Id],
    deliver: bool,
    colour: Option<usize>,
    max: u32,
) -> Result<(), Rejection> {
    if t >= state.p(player).trucks.len() {
        return Err(Rejection::new(
            RejectionCode::InvalidArgument,
            "autobahn §1.2",
            "No such truck.",
        ));
    }
    if let Some(c) = colour
        && !may_start(state, player, t, c)
    {
        return Err(reject("AQ-4", start_refusal(state, player, t, c)));
    }
    let steps = path.len() as u32 + u32::from(deliver);
    if steps == 0 {
        return Err(reject("AQ-4", "A move needs at least one step."));
    }
    if steps > max {
        return Err(reject(
            "AQ-4",
            format!("This truck may move at most {max} steps now."),
        ));
    }
    let mut at = state.p(player).trucks[t].at.clone();
    let mut entered: Vec<usize> = Vec::new();
    for id in path {
        let Some(&s) = state.board.map.section_index.get(id.as_str()) else {
            return Err(Rejection::new(
                RejectionCode::InvalidArgument,
                "AQ-4",
                format!("Unknown section `{id}`."),
            ));
        };
        if !next_sections(state, &at).contains(&s) || entered.contains(&s) {
            return Err(reject(
                "AQ-4",
                format!(
                    "The truck cannot move onto `{id}` (built, open, adjacent road only; no section twice in one move)."
                ),
            ));
        }
        entered.push(s);
        at = TruckAt::Section(id.to_string());
    }
    let country = if deliver {
        let Some(c) = exit_country(state, &at) else {
            return Err(reject(
                "AQ-5",
                "Delivering needs a loaded truck on the section next to an open neighbouring country's commercial city.",
            ));
        };
        if state.p(player).trucks[t].goods.is_none() {
            return Err(reject("AQ-5", "The truck carries no goods."));
        }
        Some(c)
    } else {
        None
    };
    // apply
    state.pm(player).trucks[t].at = at;
    if !path.is_empty() {
        ev.push(Event::TruckMoved {
            player,
            truck: t as u32,
            path: path.iter().map(ToString::to_string).collect(),
        });
    }
    for s in entered {
        pass_station(state, ev, player, s);
    }
    if let Some(c) = country {
        deliver_goods(state, ev, player, t, c);
    }
    Ok(())
}

/// A truck of `mover` enters section `s`: its station's owner gains income (autobahn §5.8, U-16:
/// the passing income of the owner's rightmost emptied slot; the Autobot per §8.4).
pub fn pass_station(state: &mut State, ev: &mut Vec<Event>, mover: u32, s: usize) {
    let Some(st) = state.board.map.sections[s].station else {
        return;
    };
    let Some(owner) = state.station_spaces[st].owner else {
        return;
    };
    if state.is_bot(owner) {
        super::autobot::bot_station_passed(state, ev, mover);
        return;
    }
    let slot = state.p(owner).stations_built as usize;
    let income = slot
        .checked_sub(1)
        .and_then(|i| state.board.def.service_stations.slots.get(i))
        .map_or(0, |x| x.passing_income_dm);
    if income > 0 {
        state.pm(owner).dm += income;
        ev.push(Event::DmGained {
            player: owner,
            amount: income,
            reason: format!("station {}", state.station_spaces[st].id),
        });
    }
}

/// Delivers truck `t` of `player` into country `c` (AQ-5): bonus tile, goods back to the
/// supply, delivery token on the board, truck back to reserve.
pub fn deliver_goods(state: &mut State, ev: &mut Vec<Event>, player: u32, t: usize, c: usize) {
    let country = state.board.def.countries[c].id.clone();
    let goods = state.p(player).trucks[t].goods.clone().unwrap_or_default();
    // 1. the country's bonus tile
    let tile = state.country_tiles.get_mut(c).and_then(Option::take);
    // 2. goods back, 4. truck back
    if let Some(gi) = GOODS.iter().position(|g| *g == goods) {
        state.goods_supply[gi] += 1;
    }
    {
        let tr = &mut state.pm(player).trucks[t];
        tr.at = TruckAt::Reserve;
        tr.goods = None;
        tr.destination = None;
    }
    let bot = state.is_bot(player);
    // 3. delivery token
    let board = state.board.clone();
    let row_def = board
        .def
        .delivery_boards
        .iter()
        .find(|b| b.id == state.p(player).delivery_board)
        .and_then(|b| b.rows.iter().find(|r| r.country == country))
        .cloned();
    let pharma = goods == "PHARMACEUTICALS";
    let first_pharma = pharma && !state.pharma_delivered.contains(&country);
    let mut placement = "none";
    let mut after: Vec<(super::board::Effect, String)> = Vec::new();
    if let Some(row_def) = row_def
        && let Some(ri) = state
            .p(player)
            .deliveries
            .iter()
            .position(|r| r.country == country)
    {
        let row = state.p(player).deliveries[ri].clone();
        if first_pharma {
            state.pharma_delivered.push(country.clone());
            if !bot {
                // §8.4: an Autobot pharma marker on this country moves on clockwise.
                super::autobot::pharma_taken(state, &country);
            }
            placement = "pharma_bonus";
            after.push((
                board.def.countries[c].pharma_bonus.clone(),
                format!("pharma bonus of {country} (AQ-5)"),
            ));
        } else if !pharma && goods == row_def.preferred && !row.goods_token && !row.bonus_used {
            state.pm(player).deliveries[ri].goods_token = true;
            placement = "goods_icon";
            if bot {
                // §8.4: a matching delivery gives the Autobot one development step instead.
                after.push((
                    super::board::Effect::Develop { steps: 1 },
                    "autobot matching delivery (§8.4)".into(),
                ));
            }
        } else if !row.dm_token {
            state.pm(player).deliveries[ri].dm_token = true;
            placement = "dm_space";
            if !bot && row_def.dm > 0 {
                state.pm(player).dm += row_def.dm;
                ev.push(Event::DmGained {
                    player,
                    amount: row_def.dm,
                    reason: format!("delivery to {country}"),
                });
            }
        }
        state.pm(player).deliveries[ri].delivered = true;
    }
    ev.push(Event::Delivered {
        player,
        truck: t as u32,
        country: country.clone(),
        goods,
        placement: placement.to_string(),
        pharma_bonus: first_pharma,
    });
    if let Some(tile) = tile {
        ev.push(Event::BonusTileTaken {
            player,
            tile: tile.clone(),
        });
        if bot {
            super::autobot::bot_tile(state, ev);
        } else if let Some(x) = board.tile(&tile) {
            super::effects::resolve(
                state,
                ev,
                player,
                &x.effect,
                &format!("delivery tile {tile}"),
            );
        }
    }
    for (e, src) in after {
        super::effects::resolve(state, ev, player, &e, &src);
    }
}

/// Whether [`all_moves`] would find at least one move (without listing them): a step left and
/// either a delivery from where the truck stands or a section to enter.
pub fn has_move(state: &State, player: u32, t: usize, max: u32) -> bool {
    let Some(truck) = state.p(player).trucks.get(t) else {
        return false;
    };
    max > 0
        && ((truck.goods.is_some() && exit_country(state, &truck.at).is_some())
            || !next_sections(state, &truck.at).is_empty())
}

/// Every legal move of truck `t` (the reference enumeration, used by the legal-action oracle):
/// paths of distinct sections up to `max` steps, each with and without a final delivery step.
pub fn all_moves(state: &State, player: u32, t: usize, max: u32) -> Vec<(Vec<Id>, bool)> {
    let mut out = Vec::new();
    let start = state.p(player).trucks[t].at.clone();
    let loaded = state.p(player).trucks[t].goods.is_some();
    fn rec(
        state: &State,
        at: &TruckAt,
        left: u32,
        path: &mut Vec<String>,
        loaded: bool,
        out: &mut Vec<(Vec<Id>, bool)>,
    ) {
        if left == 0 {
            return;
        }
        let ids = |p: &[String]| p.iter().map(|x| Id::from(x.as_str())).collect();
        if loaded && exit_country(state, at).is_some() {
            out.push((ids(path), true));
        }
        for s in next_sections(state, at) {
            let id = state.board.map.section_ids[s].clone();
            if path.contains(&id) {
                continue;
            }
            path.push(id.clone());
            out.push((ids(path), false));
            rec(state, &TruckAt::Section(id), left - 1, path, loaded, out);
            path.pop();
        }
    }
    rec(state, &start, max, &mut Vec::new(), loaded, &mut out);
    out
}

/// Calls `f(path, deliver)` for every legal move of truck `t`, in the order of [`all_moves`]:
/// `path` holds section indices. No allocation per move (the caller builds what it keeps).
pub fn for_each_move(
    state: &State,
    player: u32,
    t: usize,
    max: u32,
    mut f: impl FnMut(&[usize], bool),
) {
    let Some(truck) = state.p(player).trucks.get(t) else {
        return;
    };
    if max == 0 {
        return;
    }
    let loaded = truck.goods.is_some();
    let mut path: Vec<usize> = Vec::with_capacity(max as usize);
    if loaded && exit_country(state, &truck.at).is_some() {
        f(&path, true);
    }
    for s in next_sections(state, &truck.at) {
        path.push(s);
        f(&path, false);
        moves_from(state, s, max - 1, &mut path, loaded, &mut f);
        path.pop();
    }
}

/// The moves continuing from section `s` (the last of `path`) with `left` steps.
fn moves_from(
    state: &State,
    s: usize,
    left: u32,
    path: &mut Vec<usize>,
    loaded: bool,
    f: &mut impl FnMut(&[usize], bool),
) {
    if left == 0 {
        return;
    }
    let m = &state.board.map;
    if loaded
        && m.sections[s]
            .exit_to
            .is_some_and(|c| state.board.def.countries[c].opens_in_era <= state.era)
    {
        f(path, true);
    }
    for &n in &m.adj[s] {
        if !(built(state, n) && state.board.section_open(n, state.era)) || path.contains(&n) {
            continue;
        }
        path.push(n);
        f(path, false);
        moves_from(state, n, left - 1, path, loaded, f);
        path.pop();
    }
}
