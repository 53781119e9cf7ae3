//! The card actions on the map and the player board: build road section (autobahn §5.4,
//! AQ-1), upgrade link (§5.5), city values (AQ-3), load truck (§5.6), build service station
//! (§5.7) and unlock (§5.12).

use super::action::Event;
use super::board::GOODS;
use super::state::{CityValue, Road, State, TruckAt};
use crate::{Rejection, RejectionCode};

fn reject(code: RejectionCode, rule: &str, msg: impl Into<String>) -> Rejection {
    Rejection::new(code, rule, msg)
}

/// The refusal [`super::office::place_employee`] would give for a missing office of autobahn
/// `a`, checked before a build or upgrade changes anything.
fn no_office(state: &State, a: usize) -> Result<(), Rejection> {
    if a < state.offices.len() {
        Ok(())
    } else {
        Err(reject(
            RejectionCode::InvalidArgument,
            "AQ-1",
            "No such office.",
        ))
    }
}

/// Whether section `s` is built.
pub fn built(state: &State, s: usize) -> bool {
    state
        .sections
        .get(s)
        .is_some_and(|x| x.road != Road::Unbuilt)
}

/// Whether every section of link `l` is built (autobahn §2.1).
pub fn link_complete(state: &State, l: usize) -> bool {
    state.board.map.link_sections[l]
        .iter()
        .all(|s| built(state, *s))
}

/// Whether every section of link `l` is two-lane (autobahn §2.1).
pub fn link_upgraded(state: &State, l: usize) -> bool {
    state.board.map.link_sections[l]
        .iter()
        .all(|s| state.sections[*s].road == Road::TwoLane)
}

/// Sections that may be built now on autobahn `colour` (any colour if `None`), autobahn §5.4:
/// unbuilt, adjacent to built road, not East or closed before era 3, and the era supply not
/// empty. Affordability is checked separately.
pub fn buildable_sections(state: &State, colour: Option<usize>) -> Vec<usize> {
    if era_supply_empty(state) {
        return vec![];
    }
    (0..state.board.map.sections.len())
        .filter(|s| buildable_unchecked_supply(state, *s, colour))
        .collect()
}

/// Whether any section can be built at all this era (the supply is not empty).
pub fn buildable_sections_any(state: &State) -> bool {
    !era_supply_empty(state)
}

/// Whether the current era's supply of road sections is empty.
fn era_supply_empty(state: &State) -> bool {
    state
        .era_supply
        .get(state.era as usize - 1)
        .copied()
        .unwrap_or(0)
        == 0
}

/// Whether section `s` is in [`buildable_sections`] for `colour` (without listing them).
pub fn is_buildable(state: &State, s: usize, colour: Option<usize>) -> bool {
    s < state.board.map.sections.len()
        && !era_supply_empty(state)
        && buildable_unchecked_supply(state, s, colour)
}

fn buildable_unchecked_supply(state: &State, s: usize, colour: Option<usize>) -> bool {
    let m = &state.board.map;
    !built(state, s)
        && colour.is_none_or(|c| m.sections[s].autobahn == c)
        && state.board.section_open(s, state.era)
        && m.adj[s].iter().any(|n| built(state, *n))
}

/// Builds section `s` for `player` (autobahn §5.4, AQ-1): take a section from the era supply,
/// pay, place an employee, re-value cities, take the bonus tile / Develop icon, and record the
/// last builder. `pay` is false for the Autobot (§8.1).
pub fn build_section(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    s: usize,
    colour: Option<usize>,
) -> Result<(), Rejection> {
    if !is_buildable(state, s, colour) {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.4",
            "That section cannot be built now (it must be unbuilt, of the card's colour, next to built road, open in this era, and the era supply not empty).",
        ));
    }
    let cost = state.board.section_cost(s, state.era);
    let bot = state.is_bot(player);
    if !bot && state.p(player).dm < cost {
        return Err(reject(
            RejectionCode::InsufficientFunds,
            "AQ-1",
            format!(
                "Building costs {cost} DM; you have {} DM.",
                state.p(player).dm
            ),
        ));
    }
    // The office is checked here, before anything changes (it seats the builder's employee).
    no_office(state, state.board.map.sections[s].autobahn)?;
    let era = state.era as usize - 1;
    state.era_supply[era] -= 1;
    state.sections[s].road = Road::SingleLane;
    if !bot {
        state.pm(player).dm -= cost;
    }
    ev.push(Event::SectionBuilt {
        player,
        section: state.sections[s].id.clone(),
        cost: if bot { 0 } else { cost },
    });
    let a = state.board.map.sections[s].autobahn;
    super::office::place_employee(state, ev, player, a, "AQ-1")?;
    recalc_cities(state, ev);
    if let Some(tile) = state.sections[s].bonus_tile.take() {
        ev.push(Event::BonusTileTaken {
            player,
            tile: tile.clone(),
        });
        if bot {
            super::autobot::bot_tile(state, ev);
        } else if let Some(t) = state.board.clone().tile(&tile) {
            super::effects::resolve(state, ev, player, &t.effect, &format!("bonus tile {tile}"));
        }
    }
    let sec = &state.board.def.links[state.board.map.sections[s].link].sections
        [state.board.map.sections[s].idx];
    if sec.develop_icon {
        super::effects::develop(state, ev, player, 1);
    }
    if state.era_supply[era] == 0 {
        state.last_builder = Some(player);
    }
    Ok(())
}

/// Complete, not yet upgraded links of `colour` (any if `None`), autobahn §5.5.
pub fn upgradable_links(state: &State, colour: Option<usize>) -> Vec<usize> {
    (0..state.board.map.link_sections.len())
        .filter(|l| is_upgradable(state, *l, colour))
        .collect()
}

/// Whether link `l` is in [`upgradable_links`] for `colour` (without listing them).
pub fn is_upgradable(state: &State, l: usize, colour: Option<usize>) -> bool {
    l < state.board.map.link_sections.len()
        && colour.is_none_or(|c| state.board.map.link_autobahn[l] == c)
        && link_complete(state, l)
        && !link_upgraded(state, l)
}

/// Upgrade cost: the link's build costs in the current era (board `upgrade_costs.rule`, U-2).
pub fn upgrade_cost(state: &State, l: usize) -> i64 {
    state.board.map.link_sections[l]
        .iter()
        .map(|s| state.board.section_cost(*s, state.era))
        .sum()
}

/// Upgrades link `l` (autobahn §5.5, AQ-1): flip, pay, place an employee, re-value cities.
/// It takes nothing from the era supply (U-25).
pub fn upgrade_link(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    l: usize,
    colour: Option<usize>,
) -> Result<(), Rejection> {
    if !is_upgradable(state, l, colour) {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.5",
            "Only a complete, not yet upgraded link of the card's colour can be upgraded.",
        ));
    }
    let cost = upgrade_cost(state, l);
    let bot = state.is_bot(player);
    if !bot && state.p(player).dm < cost {
        return Err(reject(
            RejectionCode::InsufficientFunds,
            "AQ-1",
            format!(
                "Upgrading costs {cost} DM; you have {} DM.",
                state.p(player).dm
            ),
        ));
    }
    no_office(state, state.board.map.link_autobahn[l])?;
    let board = state.board.clone();
    for &s in &board.map.link_sections[l] {
        state.sections[s].road = Road::TwoLane;
    }
    if !bot {
        state.pm(player).dm -= cost;
    }
    ev.push(Event::LinkUpgraded {
        player,
        link: state.board.def.links[l].id.clone(),
        cost: if bot { 0 } else { cost },
    });
    let a = state.board.map.link_autobahn[l];
    super::office::place_employee(state, ev, player, a, "AQ-1")?;
    recalc_cities(state, ev);
    Ok(())
}

/// Value of German city `c` now (AQ-3): base + 2 per distinct autobahn with a complete link
/// ending there + 2 per distinct autobahn with an upgraded link ending there.
pub fn city_value(state: &State, c: usize) -> i64 {
    city_value_with(state, c, |l| {
        let complete = link_complete(state, l);
        (complete, complete && link_upgraded(state, l))
    })
}

/// [`city_value`] with the `(complete, upgraded)` status of a link given by `status`.
fn city_value_with(state: &State, c: usize, status: impl Fn(usize) -> (bool, bool)) -> i64 {
    let m = &state.board.map;
    let mut complete = [false; 7];
    let mut upgraded = [false; 7];
    for &l in m.city_links.get(c).map_or(&[][..], Vec::as_slice) {
        let ab = m.link_autobahn[l];
        let (done, two_lane) = status(l);
        if done {
            complete[ab] = true;
            if two_lane {
                upgraded[ab] = true;
            }
        }
    }
    let n = |v: [bool; 7]| v.iter().filter(|x| **x).count() as i64;
    state.board.def.cities[c].base_value + 2 * n(complete) + 2 * n(upgraded)
}

/// Recomputes every city value (AQ-3) and reports the changes, in city order. Updates the
/// values in place when the list follows the board (always, after setup).
pub fn recalc_cities(state: &mut State, ev: &mut Vec<Event>) {
    let board = state.board.clone();
    let cities = &board.def.cities;
    let follows_board = state.city_values.len() == cities.len()
        && state
            .city_values
            .iter()
            .zip(cities)
            .all(|(v, c)| v.city == c.id);
    if !follows_board {
        let new: Vec<CityValue> = (0..cities.len())
            .map(|c| CityValue {
                city: cities[c].id.clone(),
                value: city_value(state, c),
            })
            .collect();
        for (i, v) in new.iter().enumerate() {
            if state.city_values.get(i).is_some_and(|o| o.value != v.value) {
                ev.push(Event::CityValueChanged {
                    city: v.city.clone(),
                    value: v.value,
                });
            }
        }
        state.city_values = new;
        return;
    }
    // Each link's status once (a link ends at two cities).
    let status: Vec<(bool, bool)> = (0..board.map.link_sections.len())
        .map(|l| {
            let mut complete = true;
            let mut upgraded = true;
            for &s in &board.map.link_sections[l] {
                let road = state.sections.get(s).map_or(Road::Unbuilt, |x| x.road);
                complete &= road != Road::Unbuilt;
                upgraded &= road == Road::TwoLane;
            }
            (complete, upgraded)
        })
        .collect();
    for (c, city) in cities.iter().enumerate() {
        let value = city_value_with(state, c, |l| status[l]);
        if state.city_values[c].value != value {
            state.city_values[c].value = value;
            ev.push(Event::CityValueChanged {
                city: city.id.clone(),
                value,
            });
        }
    }
}

/// Goods that depot `d` offers in the current era (autobahn §5.6, §1.5).
pub fn depot_goods(state: &State, d: usize) -> Vec<String> {
    depot_goods_iter(state, d).map(str::to_string).collect()
}

/// [`depot_goods`] without copying: the goods ids in the same order.
pub fn depot_goods_iter(state: &State, d: usize) -> impl Iterator<Item = &str> {
    let dep = &state.board.def.depots[d];
    let open = !(dep.region == "east" && state.era < 3);
    let late = open && state.era >= 3;
    let base = if open { &dep.goods[..] } else { &[][..] };
    let extra = if late {
        &dep.goods_from_era_3[..]
    } else {
        &[][..]
    };
    base.iter().chain(extra).map(String::as_str)
}

/// Whether depot `d` is on built road (a truck there can leave).
pub fn depot_connected(state: &State, d: usize) -> bool {
    let c = state.board.map.depot_city[d];
    state
        .board
        .map
        .city_sections
        .get(c)
        .is_some_and(|v| v.iter().any(|s| built(state, *s)))
}

/// Loads a truck at depot `d` with `goods` (autobahn §5.6): a truck in reserve, a depot of the
/// card's colour, the goods offered there this era and a token in the supply (U-26). Free (U-30).
pub fn load_truck(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    d: usize,
    goods: &str,
    colour: Option<usize>,
) -> Result<u32, Rejection> {
    let Some(dep) = state.board.def.depots.get(d) else {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "autobahn §5.6",
            "No such depot.",
        ));
    };
    if colour.is_some_and(|c| state.board.autobahn(&dep.autobahn) != Some(c)) {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.6",
            "The depot must be of the card's colour.",
        ));
    }
    if !depot_goods_iter(state, d).any(|g| g == goods) {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.6",
            format!(
                "{goods} cannot be loaded at that depot in era {}.",
                state.era
            ),
        ));
    }
    let gi = GOODS.iter().position(|g| *g == goods).unwrap_or(0);
    if state.goods_supply[gi] == 0 {
        return Err(reject(
            RejectionCode::IllegalMove,
            "U-26",
            format!("No {goods} token is left in the supply."),
        ));
    }
    let Some(t) = state
        .p(player)
        .trucks
        .iter()
        .position(|t| t.at == TruckAt::Reserve)
    else {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.6",
            "Both trucks are already on the map.",
        ));
    };
    state.goods_supply[gi] -= 1;
    let depot = dep.id.clone();
    let truck = &mut state.pm(player).trucks[t];
    truck.at = TruckAt::Depot(depot.clone());
    truck.goods = Some(goods.to_string());
    ev.push(Event::TruckLoaded {
        player,
        truck: t as u32,
        depot,
        goods: goods.to_string(),
    });
    Ok(t as u32)
}

/// Free station spaces on built road of `colour` (any if `None`), open this era (autobahn §5.7).
pub fn free_station_spaces(state: &State, colour: Option<usize>) -> Vec<usize> {
    (0..state.board.map.station_spaces.len())
        .filter(|i| is_free_station_space(state, *i, colour))
        .collect()
}

/// Whether space `i` is in [`free_station_spaces`] for `colour` (without listing them).
pub fn is_free_station_space(state: &State, i: usize, colour: Option<usize>) -> bool {
    let m = &state.board.map;
    let Some(space) = m.station_spaces.get(i) else {
        return false;
    };
    let s = space.section;
    state
        .station_spaces
        .get(i)
        .is_some_and(|x| x.owner.is_none())
        && built(state, s)
        && state.board.section_open(s, state.era)
        && colour.is_none_or(|c| m.sections[s].autobahn == c)
}

/// Builds a station on space `i` (autobahn §5.7): the leftmost station of the board goes on the
/// space and the effect it uncovers is gained.
pub fn build_station(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    i: usize,
    colour: Option<usize>,
) -> Result<(), Rejection> {
    if !is_free_station_space(state, i, colour) {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.7",
            "The station space must be free, on built road of the card's colour and open in this era.",
        ));
    }
    let per = state.board.def.service_stations.per_player;
    if state.p(player).stations_built >= per {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.7",
            "You have no station left on your board.",
        ));
    }
    let bot = state.is_bot(player);
    let cost = state.board.def.service_stations.build_cost(state.era);
    if !bot && state.p(player).dm < cost {
        return Err(reject(
            RejectionCode::InsufficientFunds,
            "U-30",
            format!("A station costs {cost} DM."),
        ));
    }
    if !bot {
        state.pm(player).dm -= cost;
    }
    state.station_spaces[i].owner = Some(player);
    let slot = state.p(player).stations_built as usize;
    state.pm(player).stations_built += 1;
    ev.push(Event::StationBuilt {
        player,
        space: state.station_spaces[i].id.clone(),
    });
    if bot {
        super::autobot::bot_station_slot(state, ev, slot);
    } else if let Some(s) = state.board.clone().def.service_stations.slots.get(slot) {
        super::effects::resolve(
            state,
            ev,
            player,
            &s.on_build,
            &format!("station slot {}", slot + 1),
        );
    }
    Ok(())
}

/// Cells `player` may unlock: covered cells that are entry cells or heads of an arrow whose
/// tail is unlocked (board `unlock_grid`, autobahn §5.12, U-9).
pub fn unlockable_cells(state: &State, player: u32) -> Vec<String> {
    state
        .board
        .def
        .player_board
        .unlock_grid
        .cells
        .iter()
        .filter(|c| can_unlock(state, player, &c.id))
        .map(|c| c.id.clone())
        .collect()
}

/// Whether `cell` is in [`unlockable_cells`] (without listing them): a cell of the grid, still
/// covered, and an entry cell or the head of an arrow whose tail is unlocked.
pub fn can_unlock(state: &State, player: u32, cell: &str) -> bool {
    let g = &state.board.def.player_board.unlock_grid;
    let done = &state.p(player).unlocked;
    g.cells.iter().any(|c| c.id == cell)
        && !done.iter().any(|d| d == cell)
        && (g.entry_cells.iter().any(|e| e == cell)
            || g.arrows.iter().any(|a| {
                a.get(1).is_some_and(|h| h == cell) && a.first().is_some_and(|t| done.contains(t))
            }))
}

/// Unlocks `cell` and resolves its effect (autobahn §5.12).
pub fn unlock(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    cell: &str,
) -> Result<(), Rejection> {
    if !can_unlock(state, player, cell) {
        return Err(reject(
            RejectionCode::IllegalMove,
            "autobahn §5.12",
            format!(
                "Cell `{cell}` cannot be unlocked now (it must be covered and reachable along the arrows)."
            ),
        ));
    }
    state.pm(player).unlocked.push(cell.to_string());
    ev.push(Event::CellUnlocked {
        player,
        cell: cell.to_string(),
    });
    let board = state.board.clone();
    if let Some(c) = board
        .def
        .player_board
        .unlock_grid
        .cells
        .iter()
        .find(|c| c.id == cell)
    {
        super::effects::resolve(state, ev, player, &c.effect, &format!("unlock cell {cell}"));
    }
    Ok(())
}
