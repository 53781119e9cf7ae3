//! Setup (autobahn §3, §8.1).

use std::sync::Arc;

use super::board::{AUTOBAHNS, Board, DEPARTMENTS, GOODS};
use super::options::Options;
use super::state::*;
use crate::SetupError;

/// Creates a game for `seats` players (1 = solo against the Autobot, autobahn §3.3, §8.1).
///
/// Deterministic for a given options value, seat count and seed: the seed drives the ChaCha8
/// RNG stored in the state.
pub fn setup(options: &Options, seats: u32, seed: u64) -> Result<State, SetupError> {
    if !(1..=4).contains(&seats) {
        return Err(SetupError::PlayerCount {
            game: "autobahn",
            min: 1,
            max: 4,
            got: seats,
        });
    }
    if !(1..=12).contains(&options.autobot_level) {
        return Err(SetupError::BadOption {
            name: "autobot_level".into(),
            reason: "expected 1–12".into(),
        });
    }
    let board: Arc<Board> = options.board.clone();
    let d = &board.def;
    let mut rng = RngState { seed, word_pos: 0 };
    let solo = seats == 1;
    let n_players = if solo { 2 } else { seats };

    // §3.1 step 2: the pre-built black road, single-lane.
    let mut sections: Vec<SectionState> = d
        .links
        .iter()
        .flat_map(|l| &l.sections)
        .map(|s| SectionState {
            id: s.id.clone(),
            road: if s.prebuilt {
                Road::SingleLane
            } else {
                Road::Unbuilt
            },
            bonus_tile: None,
        })
        .collect();
    // §3.1 step 4 [L]: construction tiles at random on the bonus spaces; delivery tiles on the
    // countries; the rest stays face down.
    let mut cons: Vec<String> = d
        .bonus_tiles
        .tiles
        .iter()
        .filter(|t| t.use_ == "CONSTRUCTION")
        .map(|t| t.id.clone())
        .collect();
    rng.shuffle(&mut cons);
    for (i, sec) in d.links.iter().flat_map(|l| &l.sections).enumerate() {
        if sec.bonus_tile_space {
            sections[i].bonus_tile = cons.pop();
        }
    }
    let mut dels: Vec<String> = d
        .bonus_tiles
        .tiles
        .iter()
        .filter(|t| t.use_ == "DELIVERY")
        .map(|t| t.id.clone())
        .collect();
    rng.shuffle(&mut dels);
    let country_tiles = d.countries.iter().map(|_| dels.pop()).collect();

    // §3.1 step 6: the display of improved cards; advanced cards aside until era 3.
    let mut deck: Vec<String> = d.improved_cards.iter().map(|c| c.id.clone()).collect();
    rng.shuffle(&mut deck);
    let mut display = Vec::new();
    for _ in 0..d.card_rules.display_size {
        if let Some(c) = deck.pop() {
            display.push(c);
        }
    }
    let advanced_aside = d.advanced_cards.iter().map(|c| c.id.clone()).collect();

    // §3.1 step 7: players.
    let mut boards: Vec<u32> = d.delivery_boards.iter().map(|b| b.id).collect();
    rng.shuffle(&mut boards);
    let pp = &d.components.per_player;
    let mut players = Vec::new();
    for i in 0..n_players {
        let bot = solo && i == 1;
        let board_id = boards
            .get(i as usize)
            .copied()
            .unwrap_or(d.delivery_boards[0].id);
        let rows = d
            .delivery_boards
            .iter()
            .find(|b| b.id == board_id)
            .map(|b| {
                b.rows
                    .iter()
                    .map(|r| DeliveryRow {
                        country: r.country.clone(),
                        goods_token: false,
                        bonus_used: false,
                        dm_token: false,
                        delivered: false,
                    })
                    .collect()
            })
            .unwrap_or_default();
        players.push(Player {
            seat: if bot { None } else { Some(i) },
            dm: if bot { 0 } else { d.starting_dm.per_player },
            hand: d
                .basic_cards
                .iter()
                .filter(|c| c.in_hand_from_era.unwrap_or(1) <= 1)
                .map(|c| c.id.clone())
                .collect(),
            set_aside: d
                .basic_cards
                .iter()
                .filter(|c| c.in_hand_from_era.unwrap_or(1) > 1)
                .map(|c| c.id.clone())
                .collect(),
            action_spaces: d
                .player_board
                .action_spaces
                .iter()
                .map(|a| ActionSpace {
                    id: a.id.clone(),
                    capacity: a.capacity,
                    cards: vec![],
                })
                .collect(),
            action_tiles_left: d.player_board.action_tiles.count,
            trucks: (0..pp.trucks)
                .map(|_| Truck {
                    at: TruckAt::Reserve,
                    goods: None,
                    destination: None,
                })
                .collect(),
            reserve: pp.employees,
            lobby: 0,
            departments: DEPARTMENTS.iter().map(|_| vec![0, 0, 0]).collect(),
            subsidy: 0,
            subsidy_used: false,
            stations_built: 0,
            unlocked: vec![],
            floor_access: DEPARTMENTS
                .iter()
                .map(|_| d.administration.floor_access.initial_max_floor)
                .collect(),
            development: 0,
            delivery_board: board_id,
            deliveries: rows,
            route_card: None,
            autobot: None,
        });
    }
    let offices = AUTOBAHNS
        .iter()
        .enumerate()
        .map(|(a, id)| Office {
            autobahn: id.to_string(),
            seats: vec![],
            capacity: board
                .office_of(a)
                .map_or(0, |o| board.office_capacity(o, n_players)) as u32,
        })
        .collect();
    let mut routes: Vec<String> = d.route_cards.iter().map(|r| r.id.clone()).collect();
    rng.shuffle(&mut routes);
    // U-20: deal N+1 and draft in reverse turn order; solo: reveal 2, keep 1 (§8.1).
    let offer_n = if solo { 2 } else { seats as usize + 1 };
    let route_offer = routes.into_iter().take(offer_n).collect();
    let mut state = State {
        options: options.clone(),
        board: board.clone(),
        players,
        current: if solo { 1 } else { 0 },
        phase: Phase::RouteDraft,
        era: 1,
        era_supply: d.era_supply.for_players(n_players as usize).to_vec(),
        sections,
        station_spaces: board
            .map
            .station_spaces
            .iter()
            .map(|s| StationSpaceState {
                id: s.id.clone(),
                section: board.map.section_ids[s.section].clone(),
                owner: None,
            })
            .collect(),
        offices,
        city_values: vec![],
        goods_supply: GOODS
            .iter()
            .map(|g| d.goods.iter().find(|x| x.id == *g).map_or(0, |x| x.tokens))
            .collect(),
        country_tiles,
        pharma_delivered: vec![],
        delivery_tile_stack: dels,
        tiles_in_box: cons,
        display,
        card_deck: deck,
        advanced_aside,
        pending: vec![],
        last_builder: None,
        final_turns_left: None,
        route_offer,
        rng,
        action_count: 0,
        result: None,
    };
    if solo {
        let level = options.autobot_level;
        let bot = super::autobot::new_state(&mut state, level);
        state.players[1].autobot = Some(bot);
        state.players[1].hand.clear();
    }
    // §3.1 step 2 (city values of the pre-built road, AQ-3).
    let mut ev = Vec::new();
    super::build::recalc_cities(&mut state, &mut ev);
    // §3.1 step 8: in turn order each player seats one employee on the leftmost black seat
    // (solo: Autobot seat 1, you seat 2, §8.1).
    let order: Vec<u32> = turn_order(&state);
    for p in order {
        let _ = super::office::place_employee(&mut state, &mut ev, p, 0, "autobahn §3.1");
    }
    Ok(state)
}

/// Player indices in turn order starting with the start player.
pub fn turn_order(state: &State) -> Vec<u32> {
    let n = state.players.len() as u32;
    let start = if state.players.iter().any(|p| p.autobot.is_some()) {
        n - 1
    } else {
        0
    };
    (0..n).map(|k| (start + k) % n).collect()
}
