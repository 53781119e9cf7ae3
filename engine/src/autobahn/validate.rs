//! Structural validation of a state that came from outside (the wire): indices, seats, ids of
//! the board in play, counts and conservation laws. A state that passes is safe for every
//! engine function (no index out of range, no unknown id). The service runs it after decoding.

use super::board::{AUTOBAHNS, DEPARTMENTS, GOODS};
use super::state::{Phase, Road, State, TruckAt, employees_total};
use crate::invariants::InvariantViolation;

/// Largest amount of DM a state may hold: far beyond any game, small enough that no
/// arithmetic on it can overflow.
pub const MAX_DM: i64 = 1_000_000_000;

/// The first problem found: a field path relative to the state (`players[1].dm`,
/// `players[1].trucks[0].at`) and what is wrong with it. The shared [`InvariantViolation`] of
/// every game.
pub type Invalid = InvariantViolation;

fn bad<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, Invalid> {
    Err(Invalid {
        path: path.into(),
        message: message.into(),
    })
}

fn player_index(path: &str, i: u32, n: usize) -> Result<(), Invalid> {
    if (i as usize) < n {
        Ok(())
    } else {
        bad(
            path,
            format!("player index {i} is not at this table (0 to {})", n - 1),
        )
    }
}

fn ids_in_order(path: &str, got: &[&str], want: &[&str]) -> Result<(), Invalid> {
    if got.len() != want.len() {
        return bad(
            path,
            format!("{} entries; the board has {}", got.len(), want.len()),
        );
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            return bad(format!("{path}[{i}]"), format!("expected `{w}`, got `{g}`"));
        }
    }
    Ok(())
}

/// Checks `state` against its board. Errors: the first problem with its path.
pub fn validate(state: &State) -> Result<(), Invalid> {
    let board = &state.board;
    let d = &board.def;
    let np = state.players.len();
    // Players: seats 0..n in order; solo = one seat plus the Autobot last.
    let seats = state.seats() as usize;
    if !(1..=4).contains(&seats) {
        return bad(
            "players",
            format!("{seats} seated players; Autobahn has 1 to 4"),
        );
    }
    let expected_players = if seats == 1 { 2 } else { seats };
    if np != expected_players {
        return bad(
            "players",
            format!(
                "{np} players for {seats} seats; expected {expected_players} (a solo game has the Autobot as the last player)"
            ),
        );
    }
    let pp = &d.components.per_player;
    let card_ok = |c: &str| board.card(c).is_some();
    for (i, p) in state.players.iter().enumerate() {
        let path = format!("players[{i}]");
        let is_bot = seats == 1 && i == 1;
        match (p.seat, is_bot) {
            (Some(s), false) if s as usize == i => {}
            (None, true) => {}
            (_, true) => return bad(format!("{path}.seat"), "the Autobot has no seat"),
            (s, false) => {
                return bad(
                    format!("{path}.seat"),
                    format!(
                        "must be {i}, got {}",
                        s.map_or("none".into(), |s| s.to_string())
                    ),
                );
            }
        }
        if p.autobot.is_some() != is_bot {
            return bad(
                format!("{path}.autobot"),
                "present exactly for the Autobot of a solo game",
            );
        }
        if p.dm < 0 {
            return bad(format!("{path}.dm"), "must not be negative");
        }
        if p.dm > MAX_DM {
            return bad(format!("{path}.dm"), format!("must be at most {MAX_DM}"));
        }
        let last_development = d.development_track.spaces.len().saturating_sub(1);
        if p.development as usize > last_development {
            return bad(
                format!("{path}.development"),
                format!(
                    "must be at most {last_development} (the last space of the development track)"
                ),
            );
        }
        // Capacity = the printed capacity plus the action tiles placed on the space (§5.3).
        let mut extra: u64 = 0;
        for (k, a) in p.action_spaces.iter().enumerate() {
            if let Some(spec) = d.player_board.action_spaces.iter().find(|s| s.id == a.id) {
                if a.capacity < spec.capacity {
                    return bad(
                        format!("{path}.action_spaces[{k}].capacity"),
                        format!("must be at least {} (player board)", spec.capacity),
                    );
                }
                extra += u64::from(a.capacity - spec.capacity);
            }
        }
        let tiles_used = u64::from(
            d.player_board
                .action_tiles
                .count
                .saturating_sub(p.action_tiles_left),
        );
        if extra != tiles_used {
            return bad(
                format!("{path}.action_spaces"),
                format!(
                    "{extra} capacity above the printed one, but {tiles_used} action tiles placed (autobahn §5.3)"
                ),
            );
        }
        for (list, name) in [(&p.hand, "hand"), (&p.set_aside, "set_aside")] {
            for (k, c) in list.iter().enumerate() {
                if !card_ok(c) {
                    return bad(format!("{path}.{name}[{k}]"), format!("unknown card `{c}`"));
                }
            }
        }
        let want: Vec<&str> = d
            .player_board
            .action_spaces
            .iter()
            .map(|a| a.id.as_str())
            .collect();
        let got: Vec<&str> = p.action_spaces.iter().map(|a| a.id.as_str()).collect();
        for (k, a) in p.action_spaces.iter().enumerate() {
            if a.cards.len() > a.capacity as usize {
                return bad(
                    format!("{path}.action_spaces[{k}].cards"),
                    format!("{} cards over capacity {}", a.cards.len(), a.capacity),
                );
            }
            for (m, c) in a.cards.iter().enumerate() {
                if !card_ok(c) {
                    return bad(
                        format!("{path}.action_spaces[{k}].cards[{m}]"),
                        format!("unknown card `{c}`"),
                    );
                }
            }
        }
        ids_in_order(&format!("{path}.action_spaces"), &got, &want)?;
        if p.action_tiles_left > d.player_board.action_tiles.count {
            return bad(
                format!("{path}.action_tiles_left"),
                format!(
                    "more than the {} action tiles",
                    d.player_board.action_tiles.count
                ),
            );
        }
        if p.trucks.len() != pp.trucks as usize {
            return bad(
                format!("{path}.trucks"),
                format!("{} trucks; a player has {}", p.trucks.len(), pp.trucks),
            );
        }
        for (k, t) in p.trucks.iter().enumerate() {
            let tp = format!("{path}.trucks[{k}]");
            match &t.at {
                TruckAt::Reserve => {}
                TruckAt::Depot(id) => {
                    if !d.depots.iter().any(|x| &x.id == id) {
                        return bad(format!("{tp}.at"), format!("unknown depot `{id}`"));
                    }
                }
                TruckAt::Section(id) => {
                    if !board.map.section_index.contains_key(id) {
                        return bad(format!("{tp}.at"), format!("unknown section `{id}`"));
                    }
                }
            }
            if let Some(g) = &t.goods
                && !GOODS.contains(&g.as_str())
            {
                return bad(format!("{tp}.goods"), format!("unknown goods `{g}`"));
            }
            if (t.at == TruckAt::Reserve) != t.goods.is_none() {
                return bad(
                    format!("{tp}.goods"),
                    "a truck is on the map exactly when it is loaded",
                );
            }
            if let Some(c) = &t.destination
                && !board.map.country_index.contains_key(c)
            {
                return bad(
                    format!("{tp}.destination"),
                    format!("unknown country `{c}`"),
                );
            }
        }
        if p.departments.len() != DEPARTMENTS.len() {
            return bad(
                format!("{path}.departments"),
                format!("expected {} departments", DEPARTMENTS.len()),
            );
        }
        // Every department has exactly three floors (autobahn §1.6: the administration's
        // floors 1–3; setup writes `[0, 0, 0]`). An empty list passed here before issue
        // #24 and then panicked in LegalActions, DefaultAction, Playout and Apply.
        for (k, f) in p.departments.iter().enumerate() {
            if f.len() != 3 {
                return bad(
                    format!("{path}.departments[{k}].floors"),
                    format!("expected 3 floors, got {}", f.len()),
                );
            }
        }
        if p.floor_access.len() != DEPARTMENTS.len() {
            return bad(
                format!("{path}.floor_access"),
                format!("expected {} entries", DEPARTMENTS.len()),
            );
        }
        for (k, c) in p.unlocked.iter().enumerate() {
            if !d.player_board.unlock_grid.cells.iter().any(|x| &x.id == c) {
                return bad(
                    format!("{path}.unlocked[{k}]"),
                    format!("unknown cell `{c}`"),
                );
            }
        }
        if !d.delivery_boards.iter().any(|b| b.id == p.delivery_board) {
            return bad(
                format!("{path}.delivery_board"),
                format!("unknown delivery board {}", p.delivery_board),
            );
        }
        for (k, r) in p.deliveries.iter().enumerate() {
            if !board.map.country_index.contains_key(&r.country) {
                return bad(
                    format!("{path}.deliveries[{k}].country"),
                    format!("unknown country `{}`", r.country),
                );
            }
        }
        if let Some(r) = &p.route_card
            && !d.route_cards.iter().any(|x| &x.id == r)
        {
            return bad(
                format!("{path}.route_card"),
                format!("unknown route card `{r}`"),
            );
        }
    }
    // Offices: one per autobahn, seats are player indices, within capacity.
    let office_ids: Vec<&str> = state.offices.iter().map(|o| o.autobahn.as_str()).collect();
    ids_in_order("offices", &office_ids, &AUTOBAHNS)?;
    for (k, o) in state.offices.iter().enumerate() {
        let want = board
            .office_of(k)
            .map_or(0, |x| board.office_capacity(x, np as u32)) as u32;
        if o.capacity != want {
            return bad(
                format!("offices[{k}].capacity"),
                format!("must be {want} for {np} players"),
            );
        }
        if o.seats.len() > o.capacity as usize {
            return bad(
                format!("offices[{k}].seats"),
                "more seats taken than the capacity",
            );
        }
        for (m, &s) in o.seats.iter().enumerate() {
            player_index(&format!("offices[{k}].seats[{m}]"), s, np)?;
        }
    }
    // Employees: every player has all of them somewhere.
    for i in 0..np as u32 {
        let total = employees_total(state, i);
        if total != u64::from(pp.employees) {
            return bad(
                format!("players[{i}]"),
                format!(
                    "{total} employees in reserve, Lobby, departments, subsidy and offices; a player has {}",
                    pp.employees
                ),
            );
        }
    }
    if state.current as usize >= np {
        return bad(
            "current",
            format!("player index {} is not at this table", state.current),
        );
    }
    if !(1..=3).contains(&state.era) {
        return bad("era", format!("must be 1 to 3, got {}", state.era));
    }
    let by_era = d.era_supply.for_players(np);
    if state.era_supply.len() != by_era.len() {
        return bad("era_supply", format!("expected {} entries", by_era.len()));
    }
    // Sections, stations, cities, countries follow the board.
    let sec_ids: Vec<&str> = state.sections.iter().map(|s| s.id.as_str()).collect();
    let want: Vec<&str> = board.map.section_ids.iter().map(String::as_str).collect();
    ids_in_order("sections", &sec_ids, &want)?;
    for (k, s) in state.sections.iter().enumerate() {
        if let Some(t) = &s.bonus_tile
            && board.tile(t).is_none()
        {
            return bad(
                format!("sections[{k}].bonus_tile"),
                format!("unknown tile `{t}`"),
            );
        }
    }
    let prebuilt = d
        .links
        .iter()
        .flat_map(|l| &l.sections)
        .filter(|x| x.prebuilt)
        .count() as u64;
    let built = state
        .sections
        .iter()
        .filter(|x| x.road != Road::Unbuilt)
        .count() as u64;
    let supply: u64 = state.era_supply.iter().map(|&x| u64::from(x)).sum();
    let total: u64 = by_era.iter().map(|&x| u64::from(x)).sum();
    if built + supply != prebuilt + total {
        return bad(
            "era_supply",
            format!(
                "{built} sections built and {supply} in the supplies; the board has {} (pre-built {prebuilt} + supplies {total})",
                prebuilt + total
            ),
        );
    }
    let st_ids: Vec<&str> = state.station_spaces.iter().map(|s| s.id.as_str()).collect();
    let want: Vec<&str> = board
        .map
        .station_spaces
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    ids_in_order("station_spaces", &st_ids, &want)?;
    for (k, s) in state.station_spaces.iter().enumerate() {
        let want = &board.map.section_ids[board.map.station_spaces[k].section];
        if &s.section != want {
            return bad(
                format!("station_spaces[{k}].section"),
                format!("expected `{want}`"),
            );
        }
        if let Some(o) = s.owner {
            player_index(&format!("station_spaces[{k}].owner"), o, np)?;
        }
    }
    let city_ids: Vec<&str> = state.city_values.iter().map(|c| c.city.as_str()).collect();
    let want: Vec<&str> = d.cities.iter().map(|c| c.id.as_str()).collect();
    ids_in_order("city_values", &city_ids, &want)?;
    // AQ-3: a city's value follows from the roads (issue #23: a state claiming a city worth 999
    // fed the construction budget). The sections were checked above.
    for (k, v) in state.city_values.iter().enumerate() {
        let value = super::build::city_value(state, k);
        if v.value != value {
            return bad(
                format!("city_values[{k}].value"),
                format!(
                    "{} does not match the roads: base {} + 2 per autobahn with a complete link at {} + 2 per autobahn with an upgraded one = {value} (AQ-3)",
                    v.value, d.cities[k].base_value, v.city
                ),
            );
        }
    }
    if state.country_tiles.len() != d.countries.len() {
        return bad(
            "country_tiles",
            format!("expected {} entries", d.countries.len()),
        );
    }
    for (k, t) in state.country_tiles.iter().enumerate() {
        if let Some(t) = t
            && board.tile(t).is_none()
        {
            return bad(
                format!("country_tiles[{k}].tile"),
                format!("unknown tile `{t}`"),
            );
        }
    }
    for (k, c) in state.pharma_delivered.iter().enumerate() {
        if !board.map.country_index.contains_key(c) {
            return bad(
                format!("pharma_delivered[{k}]"),
                format!("unknown country `{c}`"),
            );
        }
    }
    // Goods: supply plus loaded trucks is the board's count per type.
    if state.goods_supply.len() != GOODS.len() {
        return bad("goods_supply", format!("expected {} entries", GOODS.len()));
    }
    for (gi, g) in GOODS.iter().enumerate() {
        let on_trucks = state
            .players
            .iter()
            .flat_map(|p| &p.trucks)
            .filter(|t| t.goods.as_deref() == Some(*g))
            .count() as u64;
        if u64::from(state.goods_supply[gi]) + on_trucks
            != u64::from(d.components.goods_tokens_per_type)
        {
            return bad(
                format!("goods_supply[{gi}]"),
                format!(
                    "{} in the supply and {on_trucks} on trucks; the board has {} {g}",
                    state.goods_supply[gi], d.components.goods_tokens_per_type
                ),
            );
        }
    }
    for (list, name) in [
        (&state.display, "display"),
        (&state.card_deck, "card_deck"),
        (&state.advanced_aside, "advanced_aside"),
    ] {
        for (k, c) in list.iter().enumerate() {
            if !card_ok(c) {
                return bad(format!("{name}[{k}]"), format!("unknown card `{c}`"));
            }
        }
    }
    for (list, name) in [
        (&state.delivery_tile_stack, "delivery_tile_stack"),
        (&state.tiles_in_box, "tiles_in_box"),
    ] {
        for (k, t) in list.iter().enumerate() {
            if board.tile(t).is_none() {
                return bad(format!("{name}[{k}]"), format!("unknown tile `{t}`"));
            }
        }
    }
    for (k, p) in state.pending.iter().enumerate() {
        player_index(&format!("pending[{k}].player"), p.player, np)?;
    }
    if let Some(b) = state.last_builder {
        player_index("last_builder", b, np)?;
    }
    for (k, r) in state.route_offer.iter().enumerate() {
        if !d.route_cards.iter().any(|x| &x.id == r) {
            return bad(
                format!("route_offer[{k}]"),
                format!("unknown route card `{r}`"),
            );
        }
    }
    if let Phase::Trucks { moved, .. } = &state.phase {
        for (k, &t) in moved.iter().enumerate() {
            if t >= pp.trucks {
                return bad(format!("phase.trucks.moved[{k}]"), format!("no truck {t}"));
            }
        }
    }
    match (&state.phase, &state.result) {
        (Phase::Over, None) => return bad("result", "a finished game has a result"),
        (Phase::Over, Some(r)) => {
            if r.scores.len() != np || r.ranks.len() != np {
                return bad(
                    "result",
                    format!("expected one score and rank per player ({np})"),
                );
            }
        }
        (_, Some(_)) => return bad("result", "only a finished game has a result"),
        (_, None) => {}
    }
    if state.options.autobot_level == 0 || state.options.autobot_level > 12 {
        return bad("options.autobot_level", "must be 1 to 12");
    }
    cards_conserved(state)
}

/// No card is in two places (autobahn §3.1 steps 6–7): every player has one copy of each
/// basic card (in hand, set aside or on an action space), and each improved or advanced card
/// exists once in the game (deck, display, set aside for era 3, or with one player). A card
/// may have left the game (a discarded display card), so a card missing is not an error; a
/// card found twice is. Errors: the path of the second copy, naming the first.
fn cards_conserved(state: &State) -> Result<(), Invalid> {
    let d = &state.board.def;
    let is_basic = |c: &str| d.basic_cards.iter().any(|b| b.id == c);
    // Improved and advanced cards: card -> where the first copy is.
    let mut shared: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    for (i, p) in state.players.iter().enumerate() {
        let mut own: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
        let places =
            p.hand
                .iter()
                .enumerate()
                .map(|(k, c)| (c, format!("players[{i}].hand[{k}]")))
                .chain(
                    p.set_aside
                        .iter()
                        .enumerate()
                        .map(|(k, c)| (c, format!("players[{i}].set_aside[{k}]"))),
                )
                .chain(p.action_spaces.iter().enumerate().flat_map(|(k, a)| {
                    a.cards.iter().enumerate().map(move |(m, c)| {
                        (c, format!("players[{i}].action_spaces[{k}].cards[{m}]"))
                    })
                }));
        for (card, path) in places {
            let seen = if is_basic(card) {
                &mut own
            } else {
                &mut shared
            };
            if let Some(first) = seen.get(card.as_str()) {
                let whose = if is_basic(card) {
                    "each player has one copy of each basic card"
                } else {
                    "each improved and advanced card exists once"
                };
                return bad(path, format!("card `{card}` is also at {first}; {whose}"));
            }
            seen.insert(card.as_str(), path);
        }
    }
    for (list, name) in [
        (&state.display, "display"),
        (&state.card_deck, "card_deck"),
        (&state.advanced_aside, "advanced_aside"),
    ] {
        for (k, card) in list.iter().enumerate() {
            let path = format!("{name}[{k}]");
            if is_basic(card) {
                return bad(
                    path,
                    format!("`{card}` is a basic card; basic cards stay with their player"),
                );
            }
            if let Some(first) = shared.get(card.as_str()) {
                return bad(
                    path,
                    format!(
                        "card `{card}` is also at {first}; each improved and advanced card exists once"
                    ),
                );
            }
            shared.insert(card.as_str(), path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::autobahn::{Autobahn, Options};

    /// Autobahn §1.6 (issue #24): a department has exactly three floors. An empty list passed
    /// before and then panicked in LegalActions, DefaultAction, Playout and Apply (promotion
    /// indexes the floors).
    /// Every player has the board's employees (25) somewhere, counted without overflow: a
    /// floor of 2^32 − 1 with one more in reserve summed to 25 in `u32` (accepted in a release
    /// build, a panic in a debug one; review of issue #24, fifth round, found by mutating
    /// states over the JSON API).
    #[test]
    fn employees_are_counted_without_overflow() {
        let s = Autobahn::setup(&Options::default(), 2, 1).unwrap();
        let mut bad = s.clone();
        let floor = bad.players[1].departments[2][0];
        bad.players[1].departments[2][0] = u32::MAX;
        // In u32 the total wraps to 25 again: 2^32 + 25 counted.
        bad.players[1].reserve = bad.players[1].reserve.wrapping_add(floor.wrapping_add(1));
        let e = validate(&bad).unwrap_err();
        assert_eq!(e.path, "players[1]");
        assert!(
            e.message.starts_with("4294967321 employees"),
            "{}",
            e.message
        );
    }

    #[test]
    fn s1_6_every_department_has_three_floors() {
        let s = Autobahn::setup(&Options::default(), 2, 1).unwrap();
        assert_eq!(validate(&s), Ok(()));
        for floors in [vec![], vec![0, 0], vec![0, 0, 0, 0]] {
            let mut bad = s.clone();
            bad.players[1].departments[2] = floors.clone();
            let e = validate(&bad).unwrap_err();
            assert_eq!(e.path, "players[1].departments[2].floors", "{floors:?}");
            assert!(
                e.message.contains(&format!("got {}", floors.len())),
                "{}",
                e.message
            );
        }
    }
}
