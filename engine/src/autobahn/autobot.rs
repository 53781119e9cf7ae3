//! The solo opponent "Autobot" (autobahn §8). Its turns are played inside `apply`, driven by
//! the seeded RNG in the state; events say what it did.
//!
//! Implemented: colour and task decks with the task queue (§8.2, §8.3), skip turns, build /
//! upgrade / load / station with every priority of §8.4, truck movement towards the
//! destination (§8.3 step 6), delivery and the pharma marker (§8.4), the solo boards and bonus
//! effects (§8.5, the Key's multi-colour cards included), promotions with floor ≤ era and the
//! era-end extra promotions (§8.6), and the difficulty modifiers (§8.7). The points §8 leaves
//! open are listed under "Autobot interpretations" in `docs/games/autobahn.md`.
//!
//! Colour cards: an entry of `colour_pile` / `colour_used` is either an autobahn id (the six
//! single-colour cards, and `YELLOW`, the era-3 yellow card with its printed build-road
//! action) or the id of a board card taken with the Key (its colours and build-road icon are
//! read from the board).

use serde::{Deserialize, Serialize};

use super::action::Event;
use super::board::{AUTOBAHNS, DEPARTMENTS, Effect, GOODS};
use super::build;
use super::state::{State, TruckAt};

/// The Autobot's own cards and boards (`referee.autobahn.v1.AutobotState`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutobotState {
    /// Difficulty 1–12.
    pub level: u32,
    /// Colour draw pile (top = last; hidden in views).
    pub colour_pile: Vec<String>,
    /// Colour cards used.
    pub colour_used: Vec<String>,
    /// Task draw pile (top = last; hidden in views).
    pub task_pile: Vec<String>,
    /// Task queue, highest order value first.
    pub task_queue: Vec<String>,
    /// Task cards used.
    pub task_used: Vec<String>,
    /// Level-B task cards not yet in the deck.
    pub task_reserve: Vec<String>,
    /// Solo-board bonus-tile slots filled (0–12).
    pub tile_slots_filled: u32,
    /// Colour of the current turn.
    pub current_colour: String,
}

fn order(task: &str) -> u32 {
    task.chars()
        .next()
        .and_then(|c| c.to_digit(10))
        .unwrap_or(0)
}

/// Autobot setup (§8.1, §8.2).
pub fn new_state(state: &mut State, level: u32) -> AutobotState {
    let mut colour_pile: Vec<String> = AUTOBAHNS[..6].iter().map(|s| s.to_string()).collect();
    state.rng.shuffle(&mut colour_pile);
    let mut task_pile: Vec<String> = ["1A", "2A", "3A", "5A", "7A"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    state.rng.shuffle(&mut task_pile);
    let mut task_reserve: Vec<String> = ["4B", "6B", "8B"].iter().map(|s| s.to_string()).collect();
    state.rng.shuffle(&mut task_reserve);
    AutobotState {
        level,
        colour_pile,
        colour_used: vec![],
        task_pile,
        task_queue: vec![],
        task_used: vec![],
        task_reserve,
        tile_slots_filled: 0,
        current_colour: "BLACK".into(),
    }
}

fn bot_index(state: &State) -> Option<u32> {
    state
        .players
        .iter()
        .position(|p| p.autobot.is_some())
        .map(|i| i as u32)
}

fn bot(state: &mut State) -> Option<&mut AutobotState> {
    state.players.iter_mut().find_map(|p| p.autobot.as_mut())
}

fn level(state: &State) -> u32 {
    state
        .players
        .iter()
        .find_map(|p| p.autobot.as_ref())
        .map_or(1, |b| b.level)
}

fn solo_board(state: &State) -> Option<&super::board::SoloBoardDef> {
    let l = level(state);
    state
        .board
        .def
        .autobot
        .solo_boards
        .iter()
        .find(|b| b.levels.contains(&l))
}

/// Compass key (§8.4): eras 1–2 south then west first; era 3 north then east first.
fn compass(state: &State, pos: (f64, f64)) -> (i64, i64) {
    let (lat, lon) = ((pos.0 * 1000.0) as i64, (pos.1 * 1000.0) as i64);
    if state.era < 3 {
        (lat, lon)
    } else {
        (-lat, -lon)
    }
}

/// Colours of an Autobot colour card (see the module doc) and whether it carries the
/// build-road flag (§8.2 yellow card; §8.5 Key: yellow with a build-road icon).
pub fn colour_card(state: &State, entry: &str) -> (Vec<String>, bool) {
    if AUTOBAHNS.contains(&entry) {
        return (vec![entry.to_string()], entry == "YELLOW");
    }
    match state.board.card(entry) {
        Some(c) => (
            c.colours.clone(),
            c.colours.iter().any(|x| x == "YELLOW")
                && c.extra_action.as_deref() == Some("BuildRoadSection"),
        ),
        None => (vec![], false),
    }
}

/// Steps from each section to a delivery into country `ci` over the map sections open this
/// era, built or not (the exit section = 1: one more step delivers; `u32::MAX` = no way).
/// "Towards its destination" (§8.3 step 6, §8.4 build priority 1) means "to a smaller value".
pub fn steps_to_country(state: &State, ci: usize) -> Vec<u32> {
    let m = &state.board.map;
    let mut d = vec![u32::MAX; m.sections.len()];
    let mut q = std::collections::VecDeque::new();
    for (s, ds) in d.iter_mut().enumerate() {
        if m.sections[s].exit_to == Some(ci) && state.board.section_open(s, state.era) {
            *ds = 1;
            q.push_back(s);
        }
    }
    while let Some(u) = q.pop_front() {
        for v in &m.adj[u] {
            if d[*v] == u32::MAX && state.board.section_open(*v, state.era) {
                d[*v] = d[u] + 1;
                q.push_back(*v);
            }
        }
    }
    d
}

/// Sections a truck at `at` may enter next if built (adjacent open sections; from a depot the
/// open sections touching its city).
fn next_spaces(state: &State, at: &TruckAt) -> Vec<usize> {
    let m = &state.board.map;
    let ok = |s: usize| state.board.section_open(s, state.era);
    match at {
        TruckAt::Reserve => vec![],
        TruckAt::Depot(d) => match state.board.def.depots.iter().position(|x| x.id == *d) {
            Some(di) => (0..m.sections.len())
                .filter(|s| m.sections[*s].touches.contains(&m.depot_city[di]) && ok(*s))
                .collect(),
            None => vec![],
        },
        TruckAt::Section(id) => m
            .section_index
            .get(id)
            .map(|i| m.adj[*i].iter().copied().filter(|s| ok(*s)).collect())
            .unwrap_or_default(),
    }
}

/// Distance of a truck position under `d` (a depot: one more than its best first section).
fn at_dist(state: &State, at: &TruckAt, d: &[u32]) -> u32 {
    match at {
        TruckAt::Reserve => u32::MAX,
        TruckAt::Section(id) => state
            .board
            .map
            .section_index
            .get(id)
            .map_or(u32::MAX, |s| d[*s]),
        TruckAt::Depot(_) => next_spaces(state, at)
            .iter()
            .map(|s| d[*s].saturating_add(1))
            .min()
            .unwrap_or(u32::MAX),
    }
}

/// Plays one Autobot turn (§8.3).
pub fn take_turn(state: &mut State, ev: &mut Vec<Event>) {
    // The `TurnStarted` of this turn was emitted by whoever handed the turn over
    // (`turn::end_turn`, or setup for the first turn): not repeated here (issue #23).
    let Some(me) = bot_index(state) else { return };
    // 1. colour card
    let card = {
        let mut rng = state.rng.clone();
        let Some(b) = bot(state) else { return };
        if b.colour_pile.is_empty() {
            b.colour_pile.append(&mut b.colour_used);
            rng.shuffle(&mut b.colour_pile);
        }
        let c = b.colour_pile.pop().unwrap_or_else(|| "BLACK".into());
        state.rng = rng;
        c
    };
    let (colours, build_flag) = colour_card(state, &card);
    if let Some(first) = colours.first().cloned()
        && let Some(b) = bot(state)
    {
        b.current_colour = first;
    }
    if build_flag {
        // §8.3 step 3: the yellow card's printed action builds a road section (the Autobot's
        // build action, in the first of the card's colours where it is possible) before the task.
        for c in &colours {
            if bot_build(state, ev, me, c) {
                break;
            }
        }
    }
    // 2. tasks
    let mut tried = 0;
    let mut done: Option<String> = None;
    loop {
        tried += 1;
        if tried > 40 {
            break;
        }
        let task = {
            let mut rng = state.rng.clone();
            let Some(b) = bot(state) else { return };
            let t = if tried == 1 && !b.task_queue.is_empty() {
                Some(b.task_queue.remove(0))
            } else {
                if b.task_pile.is_empty() && !b.task_used.is_empty() {
                    let keep = if b.task_queue.is_empty() {
                        None
                    } else {
                        Some(b.task_queue.remove(0))
                    };
                    b.task_pile.append(&mut b.task_used);
                    b.task_pile.append(&mut b.task_queue);
                    rng.shuffle(&mut b.task_pile);
                    b.task_queue.extend(keep);
                }
                b.task_pile.pop()
            };
            state.rng = rng;
            t
        };
        let Some(task) = task else { break };
        ev.push(Event::AutobotDrew {
            colour: card.clone(),
            task: task.clone(),
        });
        // A multi-colour card (Key, §8.5): the task is tried in the card's colours in order.
        let mut ok = false;
        for c in &colours {
            if let Some(b) = bot(state) {
                b.current_colour = c.clone();
            }
            ok = match order(&task) {
                1..=4 => bot_build(state, ev, me, c),
                5 | 6 => bot_load(state, ev, me, c),
                _ => bot_station(state, ev, me, c),
            };
            if ok {
                break;
            }
        }
        if ok {
            done = Some(task);
            break;
        }
        ev.push(Event::AutobotTaskQueued { task: task.clone() });
        if let Some(b) = bot(state) {
            b.task_queue.push(task);
            b.task_queue.sort_by_key(|t| std::cmp::Reverse(order(t)));
        }
    }
    match done {
        Some(task) => {
            // 4. task bonus
            match order(&task) {
                2 => bot_effect(state, ev, &Effect::DiscardDisplayCard, "task 2A"),
                3 | 4 | 6 | 8 => bot_effect(state, ev, &Effect::Develop { steps: 1 }, "task card"),
                _ => {}
            }
            // 5. used piles; an empty colour pile reshuffles both decks
            let mut rng = state.rng.clone();
            if let Some(b) = bot(state) {
                b.task_used.push(task);
                b.colour_used.push(card);
                if b.colour_pile.is_empty() {
                    b.colour_pile.append(&mut b.colour_used);
                    rng.shuffle(&mut b.colour_pile);
                    let keep = if b.task_queue.is_empty() {
                        None
                    } else {
                        Some(b.task_queue.remove(0))
                    };
                    b.task_pile.append(&mut b.task_used);
                    b.task_pile.append(&mut b.task_queue);
                    rng.shuffle(&mut b.task_pile);
                    b.task_queue.extend(keep);
                }
            }
            state.rng = rng;
            // 6. trucks
            move_trucks(state, ev, me);
        }
        None => {
            // Skip (§8.3 step 2): reshuffle both decks, queue included; the turn ends here
            // (no bonus, no truck movement: documented interpretation).
            ev.push(Event::AutobotSkipped);
            let mut rng = state.rng.clone();
            if let Some(b) = bot(state) {
                b.colour_used.push(card);
                b.colour_pile.append(&mut b.colour_used);
                rng.shuffle(&mut b.colour_pile);
                b.task_pile.append(&mut b.task_used);
                b.task_pile.append(&mut b.task_queue);
                rng.shuffle(&mut b.task_pile);
            }
            state.rng = rng;
            if matches!(level(state), 4..=6 | 10..=12) {
                super::effects::develop(state, ev, me, 1);
            }
        }
    }
}

/// Build road section (§8.4); upgrades instead when the colour has no buildable section.
pub fn bot_build(state: &mut State, ev: &mut Vec<Event>, me: u32, colour: &str) -> bool {
    let Some(c) = state.board.autobahn(colour) else {
        return false;
    };
    let cands = build::buildable_sections(state, Some(c));
    let m = &state.board.map;
    // Priority 1: the best delivery-board row among the trucks the section lets move towards
    // (or deliver into) their destination.
    let towards = truck_targets(state, me);
    let p1 = |s: usize| {
        towards
            .iter()
            .filter(|(next, d, here, _)| next.contains(&s) && d[s] < *here)
            .map(|(_, _, _, row)| *row)
            .min()
            .unwrap_or(usize::MAX)
    };
    let best = cands.iter().copied().min_by_key(|s| {
        (
            p1(*s),
            state.sections[*s].bonus_tile.is_none(),
            m.sections[*s].dist_black,
            compass(state, m.sections[*s].pos),
        )
    });
    match best {
        Some(s) => build::build_section(state, ev, me, s, Some(c)).is_ok(),
        None => bot_upgrade(state, ev, me, colour),
    }
}

/// For every loaded Autobot truck with a destination: the spaces it may enter next, the
/// distances to its country, its own distance and the country's row on the delivery board.
fn truck_targets(state: &State, me: u32) -> Vec<(Vec<usize>, Vec<u32>, u32, usize)> {
    let p = state.p(me);
    let mut out = Vec::new();
    for t in &p.trucks {
        let (Some(dest), Some(_)) = (&t.destination, &t.goods) else {
            continue;
        };
        let Some(&ci) = state.board.map.country_index.get(dest) else {
            continue;
        };
        let d = steps_to_country(state, ci);
        let here = at_dist(state, &t.at, &d);
        let row = p
            .deliveries
            .iter()
            .position(|r| r.country == *dest)
            .unwrap_or(usize::MAX - 1);
        out.push((next_spaces(state, &t.at), d, here, row));
    }
    out
}

/// Upgrade link (§8.4): nearest black, then nearest Bad Hersfeld, then compass.
pub fn bot_upgrade(state: &mut State, ev: &mut Vec<Event>, me: u32, colour: &str) -> bool {
    let Some(c) = state.board.autobahn(colour) else {
        return false;
    };
    let m = &state.board.map;
    let key = |l: usize| {
        let secs = &m.link_sections[l];
        let db = secs
            .iter()
            .map(|s| m.sections[*s].dist_black)
            .min()
            .unwrap_or(0);
        let dr = secs
            .iter()
            .map(|s| m.sections[*s].dist_ref)
            .min()
            .unwrap_or(0);
        (db, dr, compass(state, m.sections[secs[0]].pos))
    };
    match build::upgradable_links(state, Some(c))
        .into_iter()
        .min_by_key(|l| key(*l))
    {
        Some(l) => build::upgrade_link(state, ev, me, l, Some(c)).is_ok(),
        None => false,
    }
}

/// Build service station (§8.4).
pub fn bot_station(state: &mut State, ev: &mut Vec<Event>, me: u32, colour: &str) -> bool {
    let Some(c) = state.board.autobahn(colour) else {
        return false;
    };
    if state.p(me).stations_built >= state.board.def.service_stations.per_player {
        return false;
    }
    let m = &state.board.map;
    let best = build::free_station_spaces(state, Some(c))
        .into_iter()
        .min_by_key(|i| {
            let s = &m.sections[m.station_spaces[*i].section];
            let r = if c == 0 { s.dist_ref } else { 0 };
            (s.dist_black, r, compass(state, s.pos))
        });
    match best {
        Some(i) => build::build_station(state, ev, me, i, Some(c)).is_ok(),
        None => false,
    }
}

/// Exit section of country `ci` built? (the country is "connected").
fn country_connected(state: &State, ci: usize) -> bool {
    let m = &state.board.map;
    (0..m.sections.len()).any(|s| m.sections[s].exit_to == Some(ci) && build::built(state, s))
}

/// Load truck (§8.4).
pub fn bot_load(state: &mut State, ev: &mut Vec<Event>, me: u32, colour: &str) -> bool {
    let Some(c) = state.board.autobahn(colour) else {
        return false;
    };
    if !state.p(me).trucks.iter().any(|t| t.at == TruckAt::Reserve) {
        return false;
    }
    let board = state.board.clone();
    let p = state.p(me).clone();
    let targeted: Vec<String> = p
        .trucks
        .iter()
        .filter_map(|t| t.destination.clone())
        .collect();
    let row_of = |country: &str| {
        board
            .def
            .delivery_boards
            .iter()
            .find(|b| b.id == p.delivery_board)
            .and_then(|b| b.rows.iter().position(|r| r.country == country))
    };
    let pref = |country: &str| {
        board
            .def
            .delivery_boards
            .iter()
            .find(|b| b.id == p.delivery_board)
            .and_then(|b| b.rows.iter().find(|r| r.country == country))
            .map(|r| r.preferred.clone())
    };
    let open = |ci: usize| board.def.countries[ci].opens_in_era <= state.era;
    let free = |ci: usize| {
        let id = &board.def.countries[ci].id;
        open(ci)
            && !targeted.contains(id)
            && !p.deliveries.iter().any(|r| r.country == *id && r.delivered)
    };
    let in_supply = |g: &str| {
        GOODS
            .iter()
            .position(|x| *x == g)
            .is_some_and(|i| state.goods_supply[i] > 0)
    };
    // Country priority (§8.4): connected, bonus token, fewest sections left, board row.
    let key = |ci: usize| {
        (
            !country_connected(state, ci),
            state.country_tiles[ci].is_none(),
            sections_left(state, ci),
            row_of(&board.def.countries[ci].id).unwrap_or(99),
        )
    };
    // pharmaceuticals in era 3 on cyan or yellow (§8.4)
    let pharma = state.era >= 3 && (colour == "CYAN" || colour == "YELLOW");
    let (depot, goods, country) = if pharma {
        let Some(country) = board
            .def
            .clockwise_order
            .iter()
            .filter_map(|id| board.map.country_index.get(id))
            .copied()
            .find(|ci| {
                open(*ci)
                    && country_connected(state, *ci)
                    && !state
                        .pharma_delivered
                        .contains(&board.def.countries[*ci].id)
                    && !targeted.contains(&board.def.countries[*ci].id)
            })
        else {
            return false;
        };
        let Some(d) = board.def.depots.iter().position(|d| d.autobahn == colour) else {
            return false;
        };
        (d, "PHARMACEUTICALS".to_string(), country)
    } else if c == 0 {
        // a black depot must offer the country's goods, with a token in the supply
        let loadable = |g: &str| {
            in_supply(g)
                && board.def.depots.iter().enumerate().any(|(d, x)| {
                    x.autobahn == "BLACK" && build::depot_goods(state, d).iter().any(|y| y == g)
                })
        };
        let Some(country) = (0..board.def.countries.len())
            .filter(|ci| {
                free(*ci)
                    && pref(&board.def.countries[*ci].id)
                        .is_some_and(|g| g != "PHARMACEUTICALS" && loadable(&g))
            })
            .min_by_key(|ci| key(*ci))
        else {
            return false;
        };
        let Some(goods) = pref(&board.def.countries[country].id) else {
            return false;
        };
        let exit: Vec<usize> = (0..board.map.sections.len())
            .filter(|s| board.map.sections[*s].exit_to == Some(country))
            .collect();
        let dist = |d: usize| {
            let city = board.map.depot_city[d];
            let from: Vec<usize> = (0..board.map.sections.len())
                .filter(|s| board.map.sections[*s].touches.contains(&city))
                .collect();
            bfs_len(&board.map.adj, &from, &exit)
        };
        let Some(d) = board
            .def
            .depots
            .iter()
            .enumerate()
            .filter(|(d, x)| {
                x.autobahn == "BLACK" && build::depot_goods(state, *d).contains(&goods)
            })
            .map(|(d, _)| d)
            .min_by_key(|d| dist(*d))
        else {
            return false;
        };
        (d, goods, country)
    } else {
        let Some(d) = board.def.depots.iter().position(|d| d.autobahn == colour) else {
            return false;
        };
        let offered: Vec<String> = build::depot_goods(state, d)
            .into_iter()
            .filter(|g| g != "PHARMACEUTICALS" && in_supply(g))
            .collect();
        let Some(country) = (0..board.def.countries.len())
            .filter(|ci| {
                free(*ci)
                    && pref(&board.def.countries[*ci].id).is_some_and(|g| offered.contains(&g))
            })
            .min_by_key(|ci| key(*ci))
        else {
            return false;
        };
        let Some(goods) = pref(&board.def.countries[country].id) else {
            return false;
        };
        (d, goods, country)
    };
    match build::load_truck(state, ev, me, depot, &goods, Some(c)) {
        Ok(t) => {
            state.pm(me).trucks[t as usize].destination =
                Some(board.def.countries[country].id.clone());
            true
        }
        Err(_) => false,
    }
}

/// Fewest sections left to build to connect country `ci` (§8.4 country priority 3): the
/// unbuilt open sections on the best way from built road to a section exiting into `ci`
/// (0 when connected; `u32::MAX` when it cannot be reached this era).
pub fn sections_left(state: &State, ci: usize) -> u32 {
    let m = &state.board.map;
    let n = m.sections.len();
    let mut d = vec![u32::MAX; n];
    let mut q = std::collections::VecDeque::new();
    for (s, ds) in d.iter_mut().enumerate() {
        if build::built(state, s) && state.board.section_open(s, state.era) {
            *ds = 0;
            q.push_back(s);
        }
    }
    while let Some(u) = q.pop_front() {
        for v in &m.adj[u] {
            if !state.board.section_open(*v, state.era) {
                continue;
            }
            let w = u32::from(!build::built(state, *v));
            if d[u] + w < d[*v] {
                d[*v] = d[u] + w;
                if w == 0 {
                    q.push_front(*v);
                } else {
                    q.push_back(*v);
                }
            }
        }
    }
    (0..n)
        .filter(|s| m.sections[*s].exit_to == Some(ci))
        .map(|s| d[s])
        .min()
        .unwrap_or(u32::MAX)
}

fn bfs_len(adj: &[Vec<usize>], from: &[usize], to: &[usize]) -> u32 {
    let mut d = vec![u32::MAX; adj.len()];
    let mut q = std::collections::VecDeque::new();
    for s in from {
        d[*s] = 0;
        q.push_back(*s);
    }
    while let Some(u) = q.pop_front() {
        if to.contains(&u) {
            return d[u];
        }
        for v in &adj[u] {
            if d[*v] == u32::MAX {
                d[*v] = d[u] + 1;
                q.push_back(*v);
            }
        }
    }
    u32::MAX
}

/// Moves every loaded Autobot truck towards its destination (§8.3 step 6), ignoring card
/// colours: 2 steps in era 1, 3 in eras 2–3 (+1 at levels 2–6 and 8–12). Each step enters a
/// built section that is closer to the destination over the map (`steps_to_country`; ties:
/// the compass tie-break of §8.4); from the exit section one more step delivers. A truck
/// whose next section on the way is unbuilt stops there.
pub fn move_trucks(state: &mut State, ev: &mut Vec<Event>, me: u32) {
    let bonus = u32::from(matches!(level(state), 2..=6 | 8..=12));
    for t in 0..state.p(me).trucks.len() {
        let truck = state.p(me).trucks[t].clone();
        let (Some(dest), Some(_)) = (truck.destination.clone(), truck.goods.clone()) else {
            continue;
        };
        let Some(&ci) = state.board.map.country_index.get(&dest) else {
            continue;
        };
        let steps = state.board.truck_steps(state.era) + bonus;
        let d = steps_to_country(state, ci);
        let mut at = truck.at.clone();
        let mut here = at_dist(state, &at, &d);
        let mut path: Vec<super::action::Id> = Vec::new();
        let mut deliver = false;
        let deliverable = state.board.def.countries[ci].opens_in_era <= state.era;
        while (path.len() as u32) < steps {
            if here == 1 {
                deliver = deliverable;
                break;
            }
            let m = &state.board.map;
            let next = next_spaces(state, &at)
                .into_iter()
                .filter(|s| build::built(state, *s) && d[*s] < here)
                .min_by_key(|s| (d[*s], compass(state, m.sections[*s].pos)));
            let Some(s) = next else { break };
            here = d[s];
            at = TruckAt::Section(m.section_ids[s].clone());
            path.push(m.section_ids[s].as_str().into());
        }
        if path.is_empty() && !deliver {
            continue;
        }
        let _ = super::movement::move_truck(state, ev, me, t, &path, deliver, None, steps);
    }
}

/// A human delivered pharmaceuticals into `country` first: an Autobot pharma truck marked
/// for it moves its marker to the next connected country clockwise with no pharma delivery
/// yet (§8.4); with none left the marker stays.
pub fn pharma_taken(state: &mut State, country: &str) {
    let Some(me) = bot_index(state) else { return };
    let order = state.board.def.clockwise_order.clone();
    for t in 0..state.p(me).trucks.len() {
        let tr = state.p(me).trucks[t].clone();
        if tr.goods.as_deref() != Some("PHARMACEUTICALS")
            || tr.destination.as_deref() != Some(country)
        {
            continue;
        }
        let targeted: Vec<String> = state
            .p(me)
            .trucks
            .iter()
            .filter_map(|x| x.destination.clone())
            .collect();
        let start = order.iter().position(|c| c == country).unwrap_or(0);
        let next = (1..order.len())
            .map(|k| &order[(start + k) % order.len()])
            .filter_map(|id| state.board.map.country_index.get(id).map(|ci| (id, *ci)))
            .find(|(id, ci)| {
                state.board.def.countries[*ci].opens_in_era <= state.era
                    && country_connected(state, *ci)
                    && !state.pharma_delivered.contains(id)
                    && !targeted.contains(id)
            })
            .map(|(id, _)| id.clone());
        if let Some(n) = next {
            state.pm(me).trucks[t].destination = Some(n);
        }
    }
}

/// An effect gained by the Autobot (§8.5).
pub fn bot_effect(state: &mut State, ev: &mut Vec<Event>, effect: &Effect, _source: &str) {
    let Some(me) = bot_index(state) else { return };
    let colour = state
        .p(me)
        .autobot
        .as_ref()
        .map_or("BLACK".to_string(), |b| b.current_colour.clone());
    match effect {
        Effect::GainDm { .. } | Effect::FloorAccess { .. } => {}
        Effect::Develop { steps } => super::effects::develop(state, ev, me, *steps),
        Effect::Promote { department } => bot_promote(state, ev, me, department.as_deref()),
        Effect::PlaceEmployee { .. } => {
            let a = state.board.autobahn(&colour).unwrap_or(0);
            let _ = super::office::place_employee(state, ev, me, a, "autobot §8.5");
        }
        Effect::BuildRoadSection => {
            bot_build(state, ev, me, &colour);
        }
        Effect::UpgradeLink => {
            bot_upgrade(state, ev, me, &colour);
        }
        Effect::BuildServiceStation => {
            bot_station(state, ev, me, &colour);
        }
        Effect::Unlock | Effect::TakeDisplayCard => {
            // Key: the leftmost display card is discarded and a colour card with the same
            // colour(s) (and the build-road flag of a yellow build-road card) is shuffled into
            // the colour draw pile; it is recorded by the card's id (module doc).
            if !state.display.is_empty()
                && let Ok(card) = super::turn::take_display(state, 0)
            {
                ev.push(Event::DisplayCardTaken {
                    player: me,
                    card: card.clone(),
                });
                let mut rng = state.rng.clone();
                if let Some(b) = bot(state) {
                    b.colour_pile.push(card);
                    rng.shuffle(&mut b.colour_pile);
                }
                state.rng = rng;
            }
        }
        Effect::DiscardDisplayCard => {
            let cols: Vec<Vec<String>> = state
                .display
                .iter()
                .map(|c| {
                    state
                        .board
                        .card(c)
                        .map(|d| d.colours.clone())
                        .unwrap_or_default()
                })
                .collect();
            let slot = cols.iter().position(|c| c.contains(&colour)).or_else(|| {
                // ties between colours: the first in board order (documented)
                let most = AUTOBAHNS
                    .iter()
                    .rev()
                    .max_by_key(|a| cols.iter().filter(|c| c.iter().any(|x| x == *a)).count())?;
                cols.iter().rposition(|c| c.iter().any(|x| x == most))
            });
            if let Some(s) = slot
                && let Ok(card) = super::turn::take_display(state, s as u32)
            {
                ev.push(Event::DisplayCardDiscarded { card });
            }
        }
        Effect::MaxPlus1 => {
            let mut rng = state.rng.clone();
            if let Some(b) = bot(state)
                && let Some(t) = b.task_reserve.pop()
            {
                b.task_pile.push(t);
                rng.shuffle(&mut b.task_pile);
            }
            state.rng = rng;
        }
    }
}

/// Autobot promotion (§8.6): highest reachable floor, ties to the leftmost department; a
/// department bonus falls back to a normal promotion.
pub fn bot_promote(state: &mut State, ev: &mut Vec<Event>, me: u32, department: Option<&str>) {
    let mut opts = super::office::promotion_options(state, me, department);
    if opts.is_empty() && department.is_some() {
        opts = super::office::promotion_options(state, me, None);
    }
    // Ties to the leftmost department of the board's Administration order (§1.6 [L]).
    let board = state.board.clone();
    let best = opts
        .iter()
        .copied()
        .max_by_key(|(d, f)| (*f, std::cmp::Reverse(board.department_position(*d))));
    match best {
        Some((d, f)) => {
            let _ = super::office::promote(state, ev, me, d, f, None);
        }
        None => ev.push(Event::EffectLost {
            player: me,
            effect: "a promotion (autobahn §8.6): no employee in the Lobby or on a floor below an open floor to promote".into(),
        }),
    }
}

/// A bonus tile taken by the Autobot goes on its next solo-board slot; it gains the slot (§8.4).
pub fn bot_tile(state: &mut State, ev: &mut Vec<Event>) {
    let Some(n) = state
        .players
        .iter()
        .find_map(|p| p.autobot.as_ref())
        .map(|b| b.tile_slots_filled)
    else {
        return;
    };
    let effect = solo_board(state)
        .and_then(|b| b.bonus_tile_slots.iter().flatten().nth(n as usize).cloned());
    if let Some(b) = bot(state) {
        b.tile_slots_filled = (n + 1).min(12);
    }
    if let Some(e) = effect {
        bot_effect(state, ev, &e, "solo board tile slot");
    }
}

/// The Autobot built its station from `slot`: it gains the solo-board effect under it (§8.4).
pub fn bot_station_slot(state: &mut State, ev: &mut Vec<Event>, slot: usize) {
    if let Some(e) = solo_board(state).and_then(|b| b.station_slots.get(slot).cloned()) {
        bot_effect(state, ev, &e, "solo board station slot");
    }
}

/// A truck of `mover` passed an Autobot station (§8.4, §8.7).
pub fn bot_station_passed(state: &mut State, ev: &mut Vec<Event>, mover: u32) {
    let Some(me) = bot_index(state) else { return };
    if mover == me {
        let n = state.p(me).stations_built as usize;
        if let Some(e) = n
            .checked_sub(1)
            .and_then(|i| solo_board(state).and_then(|b| b.station_slots.get(i).cloned()))
        {
            bot_effect(state, ev, &e, "own station passed");
        }
    } else if matches!(level(state), 3..=6 | 9..=12) {
        super::effects::develop(state, ev, me, 1);
    }
}

/// Extra era-end promotions (§8.6 table).
pub fn era_end_promotions(state: &mut State, ev: &mut Vec<Event>) {
    let Some(me) = bot_index(state) else { return };
    let n = match (level(state), state.era) {
        (5 | 11, 3) | (6 | 12, 2 | 3) => 2,
        (5 | 11 | 6 | 12, _) => 1,
        (_, 1) => 0,
        _ => 1,
    };
    for _ in 0..n {
        bot_promote(state, ev, me, None);
    }
}

/// Start of era 3: the yellow colour card goes on top of the colour deck (§8.2).
pub fn start_era3(state: &mut State) {
    if let Some(b) = bot(state) {
        b.colour_pile.push("YELLOW".into());
    }
}

/// Departments in order (for docs).
pub const BOT_DEPARTMENTS: [&str; 4] = DEPARTMENTS;
