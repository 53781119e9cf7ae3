//! The card actions on the map and the player board: build road section (autobahn §5.4,
//! AQ-1), upgrade link (§5.5), city values (AQ-3), load truck (§5.6), build service station
//! (§5.7) and unlock (§5.12).

use super::action::Event;
use super::board::{GOODS, Node};
use super::state::{CityValue, Road, State, TruckAt};
use crate::{Rejection, RejectionCode};

fn reject(code: RejectionCode, rule: &str, msg: impl Into<String>) -> Rejection {
    Rejection::new(code, rule, msg)
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
    if state
        .era_supply
        .get(state.era as usize - 1)
        .copied()
        .unwrap_or(0)
        == 0
    {
        return vec![];
    }
    let m = &state.board.map;
    (0..m.sections.len())
        .filter(|s| {
            !built(state, *s)
                && colour.is_none_or(|c| m.sections[*s].autobahn == c)
                && state.board.section_open(*s, state.era)
                && m.adj[*s].iter().any(|n| built(state, *n))
        })
        .collect()
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
    if !buildable_sections(state, colour).contains(&s) {
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
        .filter(|l| {
            colour.is_none_or(|c| state.board.map.link_autobahn[*l] == c)
                && link_complete(state, *l)
                && !link_upgraded(state, *l)
        })
        .collect()
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
    if !upgradable_links(state, colour).contains(&l) {
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
    for s in state.board.map.link_sections[l].clone() {
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
    let m = &state.board.map;
    let mut complete = [false; 7];
    let mut upgraded = [false; 7];
    for (l, (a, b)) in m.link_ends.iter().enumerate() {
        if *a == Node::City(c) || *b == Node::City(c) {
            let ab = m.link_autobahn[l];
            if link_complete(state, l) {
                complete[ab] = true;
                if link_upgraded(state, l) {
                    upgraded[ab] = true;
                }
            }
        }
    }
    let n = |v: [bool; 7]| v.iter().filter(|x| **x).count() as i64;
    state.board.def.cities[c].base_value + 2 * n(complete) + 2 * n(upgraded)
}

/// Recomputes every city value (AQ-3) and reports the changes.
pub fn recalc_cities(state: &mut State, ev: &mut Vec<Event>) {
    let n = state.board.def.cities.len();
    let new: Vec<CityValue> = (0..n)
        .map(|c| CityValue {
            city: state.board.def.cities[c].id.clone(),
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
}

/// Goods that depot `d` offers in the current era (autobahn §5.6, §1.5).
pub fn depot_goods(state: &State, d: usize) -> Vec<String> {
    let dep = &state.board.def.depots[d];
    if dep.region == "east" && state.era < 3 {
        return vec![];
    }
    let mut g = dep.goods.clone();
    if state.era >= 3 {
        g.extend(dep.goods_from_era_3.iter().cloned());
    }
    g
}

/// Whether depot `d` is on built road (a truck there can leave).
pub fn depot_connected(state: &State, d: usize) -> bool {
    let c = state.board.map.depot_city[d];
    state
        .board
        .map
        .sections
        .iter()
        .enumerate()
        .any(|(s, x)| x.touches.contains(&c) && built(state, s))
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
    if !depot_goods(state, d).iter().any(|g| g == goods) {
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
    let m = &state.board.map;
    (0..m.station_spaces.len())
        .filter(|i| {
            let s = m.station_spaces[*i].section;
            state.station_spaces[*i].owner.is_none()
                && built(state, s)
                && state.board.section_open(s, state.era)
                && colour.is_none_or(|c| m.sections[s].autobahn == c)
        })
        .collect()
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
    if !free_station_spaces(state, colour).contains(&i) {
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
    let cost = state.board.def.service_stations.build_cost_dm;
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
    let g = &state.board.def.player_board.unlock_grid;
    let done = &state.p(player).unlocked;
    g.cells
        .iter()
        .filter(|c| !done.contains(&c.id))
        .filter(|c| {
            g.entry_cells.contains(&c.id)
                || g.arrows
                    .iter()
                    .any(|a| a.get(1) == Some(&c.id) && a.first().is_some_and(|t| done.contains(t)))
        })
        .map(|c| c.id.clone())
        .collect()
}

/// Unlocks `cell` and resolves its effect (autobahn §5.12).
pub fn unlock(
    state: &mut State,
    ev: &mut Vec<Event>,
    player: u32,
    cell: &str,
) -> Result<(), Rejection> {
    if !unlockable_cells(state, player).iter().any(|c| c == cell) {
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
