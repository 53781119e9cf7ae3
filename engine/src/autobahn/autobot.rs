//! The solo opponent "Autobot" (autobahn §8). Its turns are played inside `apply`, driven by
//! the seeded RNG in the state; events say what it did.
//!
//! Implemented: colour and task decks with the task queue (§8.2, §8.3), skip turns, build /
//! upgrade / load / station with the priorities of §8.4 (except build priority 1, "lets a truck
//! move towards its destination", see docs), truck movement towards the destination (§8.3 step
//! 6), delivery (§8.4), the solo boards and bonus effects (§8.5), promotions with floor ≤ era
//! and the era-end extra promotions (§8.6), and the difficulty modifiers (§8.7).

use serde::{Deserialize, Serialize};

use super::action::Event;
use super::board::{AUTOBAHNS, DEPARTMENTS, Effect};
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

/// Plays one Autobot turn (§8.3).
pub fn take_turn(state: &mut State, ev: &mut Vec<Event>) {
    let Some(me) = bot_index(state) else { return };
    ev.push(Event::TurnStarted { player: me });
    // 1. colour card
    let colour = {
        let mut rng = state.rng.clone();
        let Some(b) = bot(state) else { return };
        if b.colour_pile.is_empty() {
            b.colour_pile.append(&mut b.colour_used);
            rng.shuffle(&mut b.colour_pile);
        }
        let c = b.colour_pile.pop().unwrap_or_else(|| "BLACK".into());
        b.current_colour = c.clone();
        state.rng = rng;
        c
    };
    let yellow = colour == "YELLOW";
    if yellow {
        // §8.3 step 3: with the yellow card, build a road section and/or do the task.
        bot_build(state, ev, me, "YELLOW");
    }
    // 2. tasks
    let mut tried = 0;
    let mut done: Option<String> = None;
    loop {
        tried += 1;
        if tried > 20 {
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
            colour: colour.clone(),
            task: task.clone(),
        });
        let ok = match order(&task) {
            1..=4 => bot_build(state, ev, me, &colour),
            5 | 6 => bot_load(state, ev, me, &colour),
            _ => bot_station(state, ev, me, &colour),
        };
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
            let mut rng = state.rng.clone();
            if let Some(b) = bot(state) {
                b.task_used.push(task);
                b.colour_used.push(colour);
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
        }
        None => {
            // skip: reshuffle both decks (§8.3 step 2)
            ev.push(Event::AutobotSkipped);
            let mut rng = state.rng.clone();
            if let Some(b) = bot(state) {
                b.colour_used.push(colour);
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
    move_trucks(state, ev, me);
}

/// Build road section (§8.4); upgrades instead when the colour has no buildable section.
fn bot_build(state: &mut State, ev: &mut Vec<Event>, me: u32, colour: &str) -> bool {
    let Some(c) = state.board.autobahn(colour) else {
        return false;
    };
    let cands = build::buildable_sections(state, Some(c));
    let m = &state.board.map;
    let best = cands.iter().copied().min_by_key(|s| {
        (
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

/// Upgrade link (§8.4): nearest black, then nearest Bad Hersfeld, then compass.
fn bot_upgrade(state: &mut State, ev: &mut Vec<Event>, me: u32, colour: &str) -> bool {
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
fn bot_station(state: &mut State, ev: &mut Vec<Event>, me: u32, colour: &str) -> bool {
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
fn bot_load(state: &mut State, ev: &mut Vec<Event>, me: u32, colour: &str) -> bool {
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
    let key = |ci: usize| {
        (
            !country_connected(state, ci),
            state.country_tiles[ci].is_none(),
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
        let Some(country) = (0..board.def.countries.len())
            .filter(|ci| free(*ci))
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
        let Some(goods) = build::depot_goods(state, d)
            .into_iter()
            .find(|g| g != "PHARMACEUTICALS")
        else {
            return false;
        };
        let Some(country) = (0..board.def.countries.len())
            .filter(|ci| {
                free(*ci) && pref(&board.def.countries[*ci].id).as_deref() == Some(goods.as_str())
            })
            .min_by_key(|ci| key(*ci))
        else {
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

/// Moves every loaded Autobot truck towards its destination over built road (§8.3 step 6),
/// 2/3 steps (+1 at levels 2–6 and 8–12), delivering when it reaches the border.
fn move_trucks(state: &mut State, ev: &mut Vec<Event>, me: u32) {
    let bonus = u32::from(matches!(level(state), 2..=6 | 8..=12));
    for t in 0..state.p(me).trucks.len() {
        let truck = state.p(me).trucks[t].clone();
        let Some(dest) = truck.destination.clone() else {
            continue;
        };
        let Some(&ci) = state.board.map.country_index.get(&dest) else {
            continue;
        };
        let steps = state.board.truck_steps(state.era) + bonus;
        // shortest built path to a section exiting into the destination
        let starts = super::movement::next_sections(state, &truck.at);
        let m = &state.board.map;
        let mut prev: Vec<Option<usize>> = vec![None; m.sections.len()];
        let mut dist = vec![u32::MAX; m.sections.len()];
        let mut q = std::collections::VecDeque::new();
        if let TruckAt::Section(id) = &truck.at
            && let Some(&s) = m.section_index.get(id)
        {
            dist[s] = 0;
            q.push_back(s);
        }
        for s in &starts {
            if dist[*s] == u32::MAX {
                dist[*s] = 1;
                q.push_back(*s);
            }
        }
        let mut goal = None;
        while let Some(u) = q.pop_front() {
            if m.sections[u].exit_to == Some(ci) {
                goal = Some(u);
                break;
            }
            for v in
                super::movement::next_sections(state, &TruckAt::Section(m.section_ids[u].clone()))
            {
                if dist[v] == u32::MAX {
                    dist[v] = dist[u] + 1;
                    prev[v] = Some(u);
                    q.push_back(v);
                }
            }
        }
        let Some(goal) = goal else { continue };
        let mut path = vec![goal];
        while let Some(p) = prev[*path.last().unwrap_or(&goal)] {
            path.push(p);
        }
        path.reverse();
        if let TruckAt::Section(id) = &truck.at
            && path.first().is_some_and(|s| m.section_ids[*s] == *id)
        {
            path.remove(0);
        }
        let deliverable = state.board.def.countries[ci].opens_in_era <= state.era;
        let take = (path.len() as u32).min(steps) as usize;
        let deliver = deliverable && (path.len() as u32) < steps;
        let ids: Vec<String> = path[..take]
            .iter()
            .map(|s| m.section_ids[*s].clone())
            .collect();
        if ids.is_empty() && !deliver {
            continue;
        }
        let _ = super::movement::move_truck(state, ev, me, t, &ids, deliver, None, steps);
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
            // Key: the leftmost display card joins its colour deck (as its first colour).
            if !state.display.is_empty()
                && let Ok(card) = super::turn::take_display(state, 0)
            {
                let col = state
                    .board
                    .card(&card)
                    .and_then(|c| c.colours.first().cloned())
                    .unwrap_or_else(|| "BLACK".into());
                ev.push(Event::DisplayCardTaken { player: me, card });
                let mut rng = state.rng.clone();
                if let Some(b) = bot(state) {
                    b.colour_pile.push(col);
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
                let most = AUTOBAHNS
                    .iter()
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
    let best = opts
        .iter()
        .copied()
        .max_by_key(|(d, f)| (*f, std::cmp::Reverse(*d)));
    match best {
        Some((d, f)) => {
            let _ = super::office::promote(state, ev, me, d, f, None);
        }
        None => ev.push(Event::EffectLost {
            player: me,
            effect: "Promote".into(),
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
