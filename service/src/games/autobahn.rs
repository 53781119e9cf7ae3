//! Autobahn on the wire: `referee.autobahn.v1` ⇄ `referee_engine::autobahn`.
//!
//! **Board transport.** The engine ships a default board; a custom board is given as the
//! `board` option (JSON text) at NewGame. A state carries `options.board_id` always and
//! `options.board_json` (the board definition re-serialized) only when the board differs from
//! the default, so default-board states stay small. Decoding rebuilds the board from
//! `board_json` (or takes the default, or the earlier default its `board_id` names: old states
//! keep their board, issue #23) and refuses a state whose `board_id` does not match.
//!
//! **Solo.** The Autobot is not a seat: a solo game has one seat (0) and two players on the
//! wire, the Autobot being player index 1 with no `seat` and an `autobot` record. Its turns
//! are played inside `Apply`; `to_act` only ever lists seat 0.
//!
//! Decoding validates everything a caller could break and names the field path of the first
//! problem (`state.autobahn.players[1].trucks[0].at`); `referee_engine::autobahn::validate`
//! runs last, so the engine only ever sees well-formed states.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use referee_engine::autobahn::board::DEPARTMENTS;
use referee_engine::autobahn::board::GOODS;
use referee_engine::autobahn::state as st;
use referee_engine::autobahn::{self as eng, Autobahn, Board};
use referee_engine::{Game, Rejection, RejectionCode, Seat};
use tonic::Status;

use super::{WireGame, wrong_game};
use crate::pb::{autobahn as pb, v1};

/// The Autobahn wire mapping.
pub struct WireAutobahn;

/// The shipped default board, parsed once.
pub fn default_board() -> Arc<Board> {
    static DEFAULT: OnceLock<Arc<Board>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| Arc::new(Board::default_board()))
        .clone()
}

fn is_default(board: &Arc<Board>) -> bool {
    let d = default_board();
    Arc::ptr_eq(board, &d) || **board == *d
}

/// The earlier default boards the engine still ships (issue #23), parsed once: a state saved
/// with one keeps it and carries only its id.
fn previous_boards() -> &'static [Arc<Board>] {
    static PREVIOUS: OnceLock<Vec<Arc<Board>>> = OnceLock::new();
    PREVIOUS.get_or_init(|| {
        referee_engine::autobahn::board::PREVIOUS_BOARDS_JSON
            .iter()
            .filter_map(|t| Board::from_json(t).ok())
            .map(Arc::new)
            .collect()
    })
}

/// The shipped board (default or earlier default) `board` is, if it is one.
fn shipped(board: &Arc<Board>) -> bool {
    is_default(board)
        || previous_boards()
            .iter()
            .any(|b| Arc::ptr_eq(board, b) || **board == **b)
}

fn bad(path: impl AsRef<str>, what: impl AsRef<str>) -> Status {
    Status::invalid_argument(format!(
        "state.autobahn.{}: {}",
        path.as_ref(),
        what.as_ref()
    ))
}

fn opt_u32(path: &str, v: Option<u32>, n: usize) -> Result<Option<u32>, Status> {
    match v {
        Some(i) if i as usize >= n => {
            Err(bad(path, format!("player index {i} is not at this table")))
        }
        v => Ok(v),
    }
}

// ---------------------------------------------------------------------------------------------
// Options and board

fn options_to_pb(o: &eng::Options) -> pb::Options {
    pb::Options {
        autobot_level: o.autobot_level,
        strict_budget_connection: o.strict_budget_connection,
        board_id: o.board.def.board_id.clone(),
        board_json: if shipped(&o.board) {
            String::new()
        } else {
            serde_json::to_string(&o.board.def).unwrap_or_default()
        },
    }
}

fn options_from_pb(o: Option<&pb::Options>) -> Result<eng::Options, Status> {
    let Some(o) = o else {
        return Err(bad("options", "missing"));
    };
    let board = if o.board_json.is_empty() {
        // No board text: the default, or the earlier default a saved state names (issue #23).
        previous_boards()
            .iter()
            .find(|b| b.def.board_id == o.board_id)
            .cloned()
            .unwrap_or_else(default_board)
    } else {
        Arc::new(Board::from_json(&o.board_json).map_err(|p| {
            bad(
                "options.board_json",
                format!(
                    "invalid board: {}",
                    p.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            )
        })?)
    };
    if o.board_id != board.def.board_id {
        return Err(bad(
            "options.board_id",
            format!(
                "`{}` does not match the board in play `{}` (a custom board travels in board_json)",
                o.board_id, board.def.board_id
            ),
        ));
    }
    if !(1..=12).contains(&o.autobot_level) {
        return Err(bad(
            "options.autobot_level",
            format!("must be 1 to 12, got {}", o.autobot_level),
        ));
    }
    Ok(eng::Options {
        board,
        autobot_level: o.autobot_level,
        strict_budget_connection: o.strict_budget_connection,
    })
}

// ---------------------------------------------------------------------------------------------
// State

fn road_to_pb(r: st::Road) -> i32 {
    match r {
        st::Road::Unbuilt => pb::Road::Unbuilt as i32,
        st::Road::SingleLane => pb::Road::SingleLane as i32,
        st::Road::TwoLane => pb::Road::TwoLane as i32,
    }
}

fn pending_to_pb(p: &st::Pending) -> pb::Pending {
    use st::PendingKind as K;
    let (kind, department, colour) = match &p.kind {
        K::Promote { department } => (pb::PendingKind::Promote, department.clone(), None),
        K::PlaceEmployee => (pb::PendingKind::PlaceEmployee, None, None),
        K::BuildRoad { colour } => (pb::PendingKind::BuildRoad, None, colour.clone()),
        K::UpgradeLink => (pb::PendingKind::UpgradeLink, None, None),
        K::BuildStation => (pb::PendingKind::BuildStation, None, None),
        K::Unlock => (pb::PendingKind::Unlock, None, None),
        K::TakeDisplayCard => (pb::PendingKind::TakeDisplayCard, None, None),
        K::DiscardDisplayCard => (pb::PendingKind::DiscardDisplayCard, None, None),
        K::ActionTile => (pb::PendingKind::ActionTile, None, None),
    };
    pb::Pending {
        player: p.player,
        kind: kind as i32,
        department,
        colour,
        source: p.source.clone(),
    }
}

fn pending_from_pb(path: &str, p: &pb::Pending) -> Result<st::Pending, Status> {
    use st::PendingKind as K;
    let kind = match pb::PendingKind::try_from(p.kind) {
        Ok(pb::PendingKind::Promote) => K::Promote {
            department: p.department.clone(),
        },
        Ok(pb::PendingKind::PlaceEmployee) => K::PlaceEmployee,
        Ok(pb::PendingKind::BuildRoad) => K::BuildRoad {
            colour: p.colour.clone(),
        },
        Ok(pb::PendingKind::UpgradeLink) => K::UpgradeLink,
        Ok(pb::PendingKind::BuildStation) => K::BuildStation,
        Ok(pb::PendingKind::Unlock) => K::Unlock,
        Ok(pb::PendingKind::TakeDisplayCard) => K::TakeDisplayCard,
        Ok(pb::PendingKind::DiscardDisplayCard) => K::DiscardDisplayCard,
        Ok(pb::PendingKind::ActionTile) => K::ActionTile,
        _ => return Err(bad(format!("{path}.kind"), "missing or unknown kind")),
    };
    if let Some(d) = &p.department
        && !DEPARTMENTS.contains(&d.as_str())
    {
        return Err(bad(
            format!("{path}.department"),
            format!("unknown department `{d}`"),
        ));
    }
    Ok(st::Pending {
        player: p.player,
        kind,
        source: p.source.clone(),
    })
}

fn phase_to_pb(p: &st::Phase) -> pb::Phase {
    use pb::phase::Phase as P;
    pb::Phase {
        phase: Some(match p {
            st::Phase::RouteDraft => P::RouteDraft(pb::RouteDraftPhase {}),
            st::Phase::Main { bonus_claimed } => P::Main(pb::MainPhase {
                bonus_claimed: *bonus_claimed,
            }),
            st::Phase::Trucks { colour, moved } => P::Trucks(pb::TrucksPhase {
                colour: colour.clone(),
                moved: moved.clone(),
            }),
            st::Phase::Over => P::Over(pb::OverPhase {}),
        }),
    }
}

fn phase_from_pb(p: Option<&pb::Phase>) -> Result<st::Phase, Status> {
    use pb::phase::Phase as P;
    match p.and_then(|p| p.phase.as_ref()) {
        None => Err(bad("phase", "missing")),
        Some(P::RouteDraft(_)) => Ok(st::Phase::RouteDraft),
        Some(P::Main(m)) => Ok(st::Phase::Main {
            bonus_claimed: m.bonus_claimed,
        }),
        Some(P::Trucks(t)) => Ok(st::Phase::Trucks {
            colour: t.colour.clone(),
            moved: t.moved.clone(),
        }),
        Some(P::Over(_)) => Ok(st::Phase::Over),
    }
}

fn truck_to_pb(t: &st::Truck) -> pb::Truck {
    let (location, at) = match &t.at {
        st::TruckAt::Reserve => (pb::TruckLocation::Reserve, String::new()),
        st::TruckAt::Depot(d) => (pb::TruckLocation::Depot, d.clone()),
        st::TruckAt::Section(s) => (pb::TruckLocation::Section, s.clone()),
    };
    pb::Truck {
        location: location as i32,
        at,
        goods: t.goods.clone(),
        destination: t.destination.clone(),
    }
}

fn truck_from_pb(path: &str, t: &pb::Truck) -> Result<st::Truck, Status> {
    let at = match pb::TruckLocation::try_from(t.location) {
        Ok(pb::TruckLocation::Reserve) => st::TruckAt::Reserve,
        Ok(pb::TruckLocation::Depot) => st::TruckAt::Depot(t.at.clone()),
        Ok(pb::TruckLocation::Section) => st::TruckAt::Section(t.at.clone()),
        _ => {
            return Err(bad(
                format!("{path}.location"),
                "missing or unknown location",
            ));
        }
    };
    Ok(st::Truck {
        at,
        goods: t.goods.clone(),
        destination: t.destination.clone(),
    })
}

fn autobot_to_pb(b: &referee_engine::autobahn::autobot::AutobotState) -> pb::AutobotState {
    pb::AutobotState {
        level: b.level,
        colour_pile: b.colour_pile.clone(),
        colour_used: b.colour_used.clone(),
        task_pile: b.task_pile.clone(),
        task_queue: b.task_queue.clone(),
        task_used: b.task_used.clone(),
        task_reserve: b.task_reserve.clone(),
        tile_slots_filled: b.tile_slots_filled,
        current_colour: b.current_colour.clone(),
        colour_pile_count: len32(&b.colour_pile),
        task_pile_count: len32(&b.task_pile),
        task_reserve_count: len32(&b.task_reserve),
    }
}

fn autobot_from_pb(
    path: &str,
    b: &pb::AutobotState,
) -> Result<referee_engine::autobahn::autobot::AutobotState, Status> {
    if !(1..=12).contains(&b.level) {
        return Err(bad(format!("{path}.level"), "must be 1 to 12"));
    }
    if b.tile_slots_filled > 12 {
        return Err(bad(format!("{path}.tile_slots_filled"), "must be 0 to 12"));
    }
    Ok(referee_engine::autobahn::autobot::AutobotState {
        level: b.level,
        colour_pile: b.colour_pile.clone(),
        colour_used: b.colour_used.clone(),
        task_pile: b.task_pile.clone(),
        task_queue: b.task_queue.clone(),
        task_used: b.task_used.clone(),
        task_reserve: b.task_reserve.clone(),
        tile_slots_filled: b.tile_slots_filled,
        current_colour: b.current_colour.clone(),
    })
}

fn len32<T>(v: &[T]) -> u32 {
    u32::try_from(v.len()).unwrap_or(u32::MAX)
}

fn player_to_pb(p: &st::Player) -> pb::Player {
    pb::Player {
        seat: p.seat,
        dm: p.dm,
        hand: p.hand.clone(),
        set_aside: p.set_aside.clone(),
        action_spaces: p
            .action_spaces
            .iter()
            .map(|a| pb::ActionSpace {
                id: a.id.clone(),
                capacity: a.capacity,
                cards: a.cards.clone(),
            })
            .collect(),
        action_tiles_left: p.action_tiles_left,
        trucks: p.trucks.iter().map(truck_to_pb).collect(),
        reserve: p.reserve,
        lobby: p.lobby,
        departments: p
            .departments
            .iter()
            .enumerate()
            .map(|(i, f)| pb::Department {
                department: DEPARTMENTS.get(i).unwrap_or(&"").to_string(),
                floors: f.clone(),
            })
            .collect(),
        subsidy: p.subsidy,
        subsidy_used: p.subsidy_used,
        stations_built: p.stations_built,
        unlocked: p.unlocked.clone(),
        floor_access: p.floor_access.clone(),
        development: p.development,
        delivery_board: p.delivery_board,
        deliveries: p
            .deliveries
            .iter()
            .map(|r| pb::DeliveryRow {
                country: r.country.clone(),
                goods_token: r.goods_token,
                bonus_used: r.bonus_used,
                dm_token: r.dm_token,
                delivered: r.delivered,
            })
            .collect(),
        route_card: p.route_card.clone(),
        autobot: p.autobot.as_ref().map(autobot_to_pb),
    }
}

fn player_from_pb(path: &str, p: &pb::Player) -> Result<st::Player, Status> {
    let mut departments = Vec::with_capacity(p.departments.len());
    for (i, d) in p.departments.iter().enumerate() {
        let want = DEPARTMENTS.get(i).copied().unwrap_or("");
        if d.department != want {
            return Err(bad(
                format!("{path}.departments[{i}].department"),
                format!("expected `{want}`, got `{}`", d.department),
            ));
        }
        departments.push(d.floors.clone());
    }
    Ok(st::Player {
        seat: p.seat,
        dm: p.dm,
        hand: p.hand.clone(),
        set_aside: p.set_aside.clone(),
        action_spaces: p
            .action_spaces
            .iter()
            .map(|a| st::ActionSpace {
                id: a.id.clone(),
                capacity: a.capacity,
                cards: a.cards.clone(),
            })
            .collect(),
        action_tiles_left: p.action_tiles_left,
        trucks: p
            .trucks
            .iter()
            .enumerate()
            .map(|(k, t)| truck_from_pb(&format!("{path}.trucks[{k}]"), t))
            .collect::<Result<_, _>>()?,
        reserve: p.reserve,
        lobby: p.lobby,
        departments,
        subsidy: p.subsidy,
        subsidy_used: p.subsidy_used,
        stations_built: p.stations_built,
        unlocked: p.unlocked.clone(),
        floor_access: p.floor_access.clone(),
        development: p.development,
        delivery_board: p.delivery_board,
        deliveries: p
            .deliveries
            .iter()
            .map(|r| st::DeliveryRow {
                country: r.country.clone(),
                goods_token: r.goods_token,
                bonus_used: r.bonus_used,
                dm_token: r.dm_token,
                delivered: r.delivered,
            })
            .collect(),
        route_card: p.route_card.clone(),
        autobot: p
            .autobot
            .as_ref()
            .map(|b| autobot_from_pb(&format!("{path}.autobot"), b))
            .transpose()?,
    })
}

fn links_to_pb(s: &eng::State) -> Vec<pb::Link> {
    let b = &s.board;
    b.def
        .links
        .iter()
        .enumerate()
        .map(|(li, l)| {
            let roads: Vec<st::Road> = b
                .map
                .link_sections
                .get(li)
                .map(|v| {
                    v.iter()
                        .map(|&i| s.sections.get(i).map_or(st::Road::Unbuilt, |x| x.road))
                        .collect()
                })
                .unwrap_or_default();
            pb::Link {
                id: l.id.clone(),
                autobahn: l.autobahn.clone(),
                a: l.a.clone(),
                b: l.b.clone(),
                sections: l.sections.iter().map(|x| x.id.clone()).collect(),
                complete: roads.iter().all(|r| *r != st::Road::Unbuilt),
                upgraded: roads.iter().all(|r| *r == st::Road::TwoLane),
            }
        })
        .collect()
}

/// Encodes a state (complete: nothing hidden).
pub fn state_to_pb(s: &eng::State) -> pb::State {
    let section_link: Vec<String> = s
        .board
        .map
        .sections
        .iter()
        .map(|x| {
            s.board
                .def
                .links
                .get(x.link)
                .map(|l| l.id.clone())
                .unwrap_or_default()
        })
        .collect();
    pb::State {
        options: Some(options_to_pb(&s.options)),
        players: s.players.iter().map(player_to_pb).collect(),
        current: s.current,
        phase: Some(phase_to_pb(&s.phase)),
        era: s.era,
        era_supply: s.era_supply.clone(),
        sections: s
            .sections
            .iter()
            .enumerate()
            .map(|(i, x)| pb::Section {
                id: x.id.clone(),
                road: road_to_pb(x.road),
                bonus_tile: x.bonus_tile.clone(),
                link: section_link.get(i).cloned().unwrap_or_default(),
            })
            .collect(),
        station_spaces: s
            .station_spaces
            .iter()
            .map(|x| pb::StationSpace {
                id: x.id.clone(),
                section: x.section.clone(),
                owner: x.owner,
            })
            .collect(),
        offices: s
            .offices
            .iter()
            .map(|o| pb::Office {
                autobahn: o.autobahn.clone(),
                seats: o.seats.clone(),
                capacity: o.capacity,
            })
            .collect(),
        city_values: s
            .city_values
            .iter()
            .map(|c| pb::CityValue {
                city: c.city.clone(),
                value: c.value,
            })
            .collect(),
        goods_supply: s.goods_supply.clone(),
        country_tiles: s
            .country_tiles
            .iter()
            .enumerate()
            .map(|(i, t)| pb::CountryTile {
                country: s
                    .board
                    .def
                    .countries
                    .get(i)
                    .map(|c| c.id.clone())
                    .unwrap_or_default(),
                tile: t.clone(),
            })
            .collect(),
        pharma_delivered: s.pharma_delivered.clone(),
        delivery_tile_stack: s.delivery_tile_stack.clone(),
        tiles_in_box: s.tiles_in_box.clone(),
        display: s.display.clone(),
        card_deck: s.card_deck.clone(),
        advanced_aside: s.advanced_aside.clone(),
        pending: s.pending.iter().map(pending_to_pb).collect(),
        last_builder: s.last_builder,
        final_turns_left: s.final_turns_left,
        route_offer: s.route_offer.clone(),
        rng: Some(pb::Rng {
            seed: s.rng.seed,
            word_pos: s.rng.word_pos,
        }),
        action_count: s.action_count,
        result: s.result.as_ref().map(|r| pb::FinalResult {
            scores: r
                .scores
                .iter()
                .map(|l| pb::ScoreLine {
                    lobby: l.lobby,
                    network: l.network,
                    trade: l.trade,
                    service: l.service,
                    finance: l.finance,
                    total: l.total,
                    admin_employees: l.admin_employees,
                    admin_height: l.admin_height,
                })
                .collect(),
            ranks: r.ranks.clone(),
            end_reason: r.end_reason.clone(),
        }),
        card_deck_count: len32(&s.card_deck),
        delivery_tile_stack_count: len32(&s.delivery_tile_stack),
        tiles_in_box_count: len32(&s.tiles_in_box),
        advanced_aside_count: len32(&s.advanced_aside),
        links: links_to_pb(s),
        goods_types: GOODS.iter().map(|g| g.to_string()).collect(),
        department_ids: DEPARTMENTS.iter().map(|d| d.to_string()).collect(),
    }
}

/// Decodes and validates a state. Errors: `INVALID_ARGUMENT` naming the first bad field.
pub fn state_from_pb(s: &pb::State) -> Result<eng::State, Status> {
    let options = options_from_pb(s.options.as_ref())?;
    let players = s
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| player_from_pb(&format!("players[{i}]"), p))
        .collect::<Result<Vec<_>, _>>()?;
    let np = players.len();
    if np == 0 {
        return Err(bad("players", "a game has at least one player"));
    }
    let countries = &options.board.def.countries;
    for (i, t) in s.country_tiles.iter().enumerate() {
        if let Some(c) = countries.get(i)
            && c.id != t.country
        {
            return Err(bad(
                format!("country_tiles[{i}].country"),
                format!("expected `{}`, got `{}`", c.id, t.country),
            ));
        }
    }
    let pending = s
        .pending
        .iter()
        .enumerate()
        .map(|(i, p)| pending_from_pb(&format!("pending[{i}]"), p))
        .collect::<Result<Vec<_>, _>>()?;
    let rng = s.rng.ok_or_else(|| bad("rng", "missing"))?;
    let mut sections = Vec::with_capacity(s.sections.len());
    for (i, x) in s.sections.iter().enumerate() {
        let road = match pb::Road::try_from(x.road) {
            Ok(pb::Road::Unbuilt) => st::Road::Unbuilt,
            Ok(pb::Road::SingleLane) => st::Road::SingleLane,
            Ok(pb::Road::TwoLane) => st::Road::TwoLane,
            _ => {
                return Err(bad(
                    format!("sections[{i}].road"),
                    "missing or unknown road",
                ));
            }
        };
        sections.push(st::SectionState {
            id: x.id.clone(),
            road,
            bonus_tile: x.bonus_tile.clone(),
        });
    }
    let state = eng::State {
        board: options.board.clone(),
        options,
        players,
        current: s.current,
        phase: phase_from_pb(s.phase.as_ref())?,
        era: s.era,
        era_supply: s.era_supply.clone(),
        sections,
        station_spaces: s
            .station_spaces
            .iter()
            .enumerate()
            .map(|(i, x)| {
                Ok(st::StationSpaceState {
                    id: x.id.clone(),
                    section: x.section.clone(),
                    owner: opt_u32(&format!("station_spaces[{i}].owner"), x.owner, np)?,
                })
            })
            .collect::<Result<_, Status>>()?,
        offices: s
            .offices
            .iter()
            .map(|o| st::Office {
                autobahn: o.autobahn.clone(),
                seats: o.seats.clone(),
                capacity: o.capacity,
            })
            .collect(),
        city_values: s
            .city_values
            .iter()
            .map(|c| st::CityValue {
                city: c.city.clone(),
                value: c.value,
            })
            .collect(),
        goods_supply: s.goods_supply.clone(),
        country_tiles: s.country_tiles.iter().map(|t| t.tile.clone()).collect(),
        pharma_delivered: s.pharma_delivered.clone(),
        delivery_tile_stack: s.delivery_tile_stack.clone(),
        tiles_in_box: s.tiles_in_box.clone(),
        display: s.display.clone(),
        card_deck: s.card_deck.clone(),
        advanced_aside: s.advanced_aside.clone(),
        pending,
        last_builder: opt_u32("last_builder", s.last_builder, np)?,
        final_turns_left: s.final_turns_left,
        route_offer: s.route_offer.clone(),
        rng: st::RngState {
            seed: rng.seed,
            word_pos: rng.word_pos,
        },
        action_count: s.action_count,
        result: s.result.as_ref().map(|r| st::FinalResult {
            scores: r
                .scores
                .iter()
                .map(|l| st::ScoreLine {
                    lobby: l.lobby,
                    network: l.network,
                    trade: l.trade,
                    service: l.service,
                    finance: l.finance,
                    total: l.total,
                    admin_employees: l.admin_employees,
                    admin_height: l.admin_height,
                })
                .collect(),
            ranks: r.ranks.clone(),
            end_reason: r.end_reason.clone(),
        }),
    };
    // The engine's invariant checker (conservation, indices), with its field path.
    eng::check_invariants(&state).map_err(|e| bad(&e.path, &e.message))?;
    Ok(state)
}

// ---------------------------------------------------------------------------------------------
// Actions

fn action_to_pb_inner(a: &eng::Action) -> pb::Action {
    use eng::Action as A;
    use pb::action::Action as P;
    pb::Action {
        action: Some(match a {
            A::ChooseRouteCard { card } => P::ChooseRouteCard(pb::ChooseRouteCard {
                card: card.to_string(),
            }),
            A::ClaimDeliveryBonus { country } => P::ClaimDeliveryBonus(pb::ClaimDeliveryBonus {
                country: country.to_string(),
            }),
            A::PlayCard {
                card,
                colour,
                space,
                target,
                goods,
            } => P::PlayCard(pb::PlayCard {
                card: card.to_string(),
                colour: colour.to_string(),
                space: space.to_string(),
                target: target.to_string(),
                goods: goods.as_ref().map(ToString::to_string),
            }),
            A::TakeBackCards => P::TakeBackCards(pb::TakeBackCards {}),
            A::Subsidy => P::Subsidy(pb::Subsidy {}),
            A::MoveTruck {
                truck,
                path,
                deliver,
            } => P::MoveTruck(pb::MoveTruck {
                truck: *truck,
                path: path.iter().map(ToString::to_string).collect(),
                deliver: *deliver,
            }),
            A::EndTurn => P::EndTurn(pb::EndTurn {}),
            A::Promote {
                department,
                from_floor,
            } => P::Promote(pb::Promote {
                department: department.to_string(),
                from_floor: *from_floor,
            }),
            A::PlaceEmployee { colour } => P::PlaceEmployee(pb::PlaceEmployee {
                colour: colour.to_string(),
            }),
            A::BuildRoad { section } => P::BuildRoad(pb::BuildRoad {
                section: section.to_string(),
            }),
            A::UpgradeLink { link } => P::UpgradeLink(pb::UpgradeLink {
                link: link.to_string(),
            }),
            A::BuildStation { space } => P::BuildStation(pb::BuildStation {
                space: space.to_string(),
            }),
            A::Unlock { cell } => P::Unlock(pb::Unlock {
                cell: cell.to_string(),
            }),
            A::TakeDisplayCard { slot } => P::TakeDisplayCard(pb::TakeDisplayCard { slot: *slot }),
            A::DiscardDisplayCard { slot } => {
                P::DiscardDisplayCard(pb::DiscardDisplayCard { slot: *slot })
            }
            A::PlaceActionTile { space } => P::PlaceActionTile(pb::PlaceActionTile {
                space: space.to_string(),
            }),
            A::Decline => P::Decline(pb::Decline {}),
        }),
    }
}

fn action_from_pb_inner(a: &pb::Action) -> Result<eng::Action, Rejection> {
    use eng::Action as A;
    use pb::action::Action as P;
    Ok(match a.action.as_ref() {
        None => {
            return Err(Rejection::new(
                RejectionCode::InvalidArgument,
                "",
                "The Autobahn action is empty.",
            ));
        }
        Some(P::ChooseRouteCard(x)) => A::ChooseRouteCard {
            card: x.card.as_str().into(),
        },
        Some(P::ClaimDeliveryBonus(x)) => A::ClaimDeliveryBonus {
            country: x.country.as_str().into(),
        },
        Some(P::PlayCard(x)) => A::PlayCard {
            card: x.card.as_str().into(),
            colour: x.colour.as_str().into(),
            space: x.space.as_str().into(),
            target: x.target.as_str().into(),
            goods: x.goods.as_deref().map(Into::into),
        },
        Some(P::TakeBackCards(_)) => A::TakeBackCards,
        Some(P::Subsidy(_)) => A::Subsidy,
        Some(P::MoveTruck(x)) => A::MoveTruck {
            truck: x.truck,
            path: x.path.iter().map(|p| p.as_str().into()).collect(),
            deliver: x.deliver,
        },
        Some(P::EndTurn(_)) => A::EndTurn,
        Some(P::Promote(x)) => A::Promote {
            department: x.department.as_str().into(),
            from_floor: x.from_floor,
        },
        Some(P::PlaceEmployee(x)) => A::PlaceEmployee {
            colour: x.colour.as_str().into(),
        },
        Some(P::BuildRoad(x)) => A::BuildRoad {
            section: x.section.as_str().into(),
        },
        Some(P::UpgradeLink(x)) => A::UpgradeLink {
            link: x.link.as_str().into(),
        },
        Some(P::BuildStation(x)) => A::BuildStation {
            space: x.space.as_str().into(),
        },
        Some(P::Unlock(x)) => A::Unlock {
            cell: x.cell.as_str().into(),
        },
        Some(P::TakeDisplayCard(x)) => A::TakeDisplayCard { slot: x.slot },
        Some(P::DiscardDisplayCard(x)) => A::DiscardDisplayCard { slot: x.slot },
        Some(P::PlaceActionTile(x)) => A::PlaceActionTile {
            space: x.space.as_str().into(),
        },
        Some(P::Decline(_)) => A::Decline,
    })
}

// ---------------------------------------------------------------------------------------------
// Events

fn event_to_pb_inner(e: &eng::Event) -> pb::Event {
    use eng::Event as E;
    use pb::event::Event as P;
    let s = |x: &String| x.clone();
    let ev = match e {
        E::RouteCardChosen { player, card } => P::RouteCardChosen(pb::RouteCardChosen {
            player: *player,
            card: s(card),
        }),
        E::TurnStarted { player } => P::TurnStarted(pb::TurnStarted { player: *player }),
        E::DeliveryBonusClaimed { player, country } => {
            P::DeliveryBonusClaimed(pb::DeliveryBonusClaimed {
                player: *player,
                country: s(country),
            })
        }
        E::CardPlayed {
            player,
            card,
            colour,
            space,
        } => P::CardPlayed(pb::CardPlayed {
            player: *player,
            card: s(card),
            colour: s(colour),
            space: s(space),
        }),
        E::SectionBuilt {
            player,
            section,
            cost,
        } => P::SectionBuilt(pb::SectionBuilt {
            player: *player,
            section: s(section),
            cost: *cost,
        }),
        E::LinkUpgraded { player, link, cost } => P::LinkUpgraded(pb::LinkUpgraded {
            player: *player,
            link: s(link),
            cost: *cost,
        }),
        E::EmployeePlaced {
            player,
            office,
            evicted,
        } => P::EmployeePlaced(pb::EmployeePlaced {
            player: *player,
            office: s(office),
            evicted: *evicted,
        }),
        E::EmployeesReturned { player, count } => P::EmployeesReturned(pb::EmployeesReturned {
            player: *player,
            count: *count,
        }),
        E::CityValueChanged { city, value } => P::CityValueChanged(pb::CityValueChanged {
            city: s(city),
            value: *value,
        }),
        E::BonusTileTaken { player, tile } => P::BonusTileTaken(pb::BonusTileTaken {
            player: *player,
            tile: s(tile),
        }),
        E::Developed { player, position } => P::Developed(pb::Developed {
            player: *player,
            position: *position,
        }),
        E::DmGained {
            player,
            amount,
            reason,
        } => P::DmGained(pb::DmGained {
            player: *player,
            amount: *amount,
            reason: s(reason),
        }),
        E::TruckLoaded {
            player,
            truck,
            depot,
            goods,
        } => P::TruckLoaded(pb::TruckLoaded {
            player: *player,
            truck: *truck,
            depot: s(depot),
            goods: s(goods),
        }),
        E::StationBuilt { player, space } => P::StationBuilt(pb::StationBuilt {
            player: *player,
            space: s(space),
        }),
        E::CellUnlocked { player, cell } => P::CellUnlocked(pb::CellUnlocked {
            player: *player,
            cell: s(cell),
        }),
        E::CardsTakenBack { player, count } => P::CardsTakenBack(pb::CardsTakenBack {
            player: *player,
            count: *count,
        }),
        E::SubsidyTaken { player, amount } => P::SubsidyTaken(pb::SubsidyTaken {
            player: *player,
            amount: *amount,
        }),
        E::TruckMoved {
            player,
            truck,
            path,
        } => P::TruckMoved(pb::TruckMoved {
            player: *player,
            truck: *truck,
            path: path.clone(),
        }),
        E::Delivered {
            player,
            truck,
            country,
            goods,
            placement,
            pharma_bonus,
        } => P::Delivered(pb::Delivered {
            player: *player,
            truck: *truck,
            country: s(country),
            goods: s(goods),
            placement: s(placement),
            pharma_bonus: *pharma_bonus,
        }),
        E::Promoted {
            player,
            department,
            floor,
        } => P::Promoted(pb::Promoted {
            player: *player,
            department: s(department),
            floor: *floor,
        }),
        E::EffectLost { player, effect } => P::EffectLost(pb::EffectLost {
            player: *player,
            effect: s(effect),
        }),
        E::DisplayCardTaken { player, card } => P::DisplayCardTaken(pb::DisplayCardTaken {
            player: *player,
            card: s(card),
        }),
        E::DisplayCardDiscarded { card } => {
            P::DisplayCardDiscarded(pb::DisplayCardDiscarded { card: s(card) })
        }
        E::ActionTilePlaced { player, space } => P::ActionTilePlaced(pb::ActionTilePlaced {
            player: *player,
            space: s(space),
        }),
        E::EraEnded { era, last_builder } => P::EraEnded(pb::EraEnded {
            era: *era,
            last_builder: *last_builder,
        }),
        E::BudgetPaid {
            office,
            total,
            share,
            player,
            amount,
        } => P::BudgetPaid(pb::BudgetPaid {
            office: s(office),
            total: *total,
            share: *share,
            player: *player,
            amount: *amount,
        }),
        E::RouteCardScored { player, card, tier } => P::RouteCardScored(pb::RouteCardScored {
            player: *player,
            card: s(card),
            tier: *tier,
        }),
        E::EraStarted { era } => P::EraStarted(pb::EraStarted { era: *era }),
        E::FinalRoundStarted { trigger } => {
            P::FinalRoundStarted(pb::FinalRoundStarted { trigger: *trigger })
        }
        E::GameEnded { scores } => P::GameEnded(pb::GameEnded {
            scores: scores.clone(),
        }),
        E::AutobotDrew { colour, task } => P::AutobotDrew(pb::AutobotDrew {
            colour: s(colour),
            task: s(task),
        }),
        E::AutobotTaskQueued { task } => {
            P::AutobotTaskQueued(pb::AutobotTaskQueued { task: s(task) })
        }
        E::AutobotSkipped => P::AutobotSkipped(pb::AutobotSkipped {}),
    };
    pb::Event { event: Some(ev) }
}

/// Encodes a view: the redacted state with the hidden piles as counts only.
pub fn view_state_to_pb(s: &eng::State) -> pb::State {
    let mut out = state_to_pb(s);
    out.card_deck.clear();
    out.delivery_tile_stack.clear();
    out.tiles_in_box.clear();
    out.advanced_aside.clear();
    out.rng = Some(pb::Rng::default());
    for p in &mut out.players {
        if let Some(b) = &mut p.autobot {
            b.colour_pile.clear();
            b.task_pile.clear();
            b.task_reserve.clear();
        }
    }
    out
}

impl WireGame for WireAutobahn {
    type G = Autobahn;
    const ID: &'static str = "autobahn";
    const FIELD: &'static str = "autobahn";

    fn options_from_pb(options: &BTreeMap<String, String>) -> Result<eng::Options, Status> {
        let mut o = eng::Options {
            board: default_board(),
            ..eng::Options::default()
        };
        for (name, value) in options {
            o.set(name, value)
                .map_err(|e| Status::invalid_argument(format!("options[{name}]: {e}")))?;
        }
        Ok(o)
    }

    fn state_to_pb(state: &eng::State) -> v1::game_state::State {
        v1::game_state::State::Autobahn(state_to_pb(state))
    }

    fn state_from_pb(state: &v1::game_state::State) -> Result<eng::State, Status> {
        match state {
            v1::game_state::State::Autobahn(s) => state_from_pb(s),
            v1::game_state::State::G1841(_) => Err(Status::invalid_argument(
                "state.g1841: the state says game `autobahn` but carries an 1841 state",
            )),
        }
    }

    fn action_from_pb(action: &v1::Action) -> Result<eng::Action, Rejection> {
        let Some(v1::action::Action::Autobahn(a)) = action.action.as_ref() else {
            return Err(wrong_game("Autobahn"));
        };
        action_from_pb_inner(a)
    }

    fn action_to_pb(action: &eng::Action) -> v1::Action {
        v1::Action {
            action: Some(v1::action::Action::Autobahn(action_to_pb_inner(action))),
        }
    }

    fn describe(
        state: &eng::State,
        seat: referee_engine::Seat,
        action: &eng::Action,
    ) -> (String, Result<(), referee_engine::Rejection>) {
        referee_engine::autobahn::assist::describe(state, seat, action)
    }

    fn default_action(state: &eng::State, seat: referee_engine::Seat) -> Option<eng::Action> {
        referee_engine::autobahn::assist::default_action(state, seat)
    }

    fn is_pass(action: &eng::Action) -> bool {
        referee_engine::autobahn::assist::is_pass(action)
    }

    fn rare(action: &eng::Action) -> bool {
        crate::playout::autobahn_rare(action)
    }

    fn policy_names() -> &'static [&'static str] {
        &referee_engine::autobahn::bots::POLICY_NAMES
    }

    fn bot(name: &str) -> Option<crate::playout::BotFn<Autobahn>> {
        use referee_engine::autobahn::bots::{Strategy, choose};
        Some(match Strategy::from_name(name)? {
            Strategy::Balanced => {
                |s, seat, legal, rng| choose(Strategy::Balanced, s, seat, legal, rng)
            }
            Strategy::Builder => {
                |s, seat, legal, rng| choose(Strategy::Builder, s, seat, legal, rng)
            }
            Strategy::Network => {
                |s, seat, legal, rng| choose(Strategy::Network, s, seat, legal, rng)
            }
            Strategy::Trucker => {
                |s, seat, legal, rng| choose(Strategy::Trucker, s, seat, legal, rng)
            }
            Strategy::Finance => {
                |s, seat, legal, rng| choose(Strategy::Finance, s, seat, legal, rng)
            }
        })
    }

    fn without_secrets(state: &eng::State, _seat: Seat, seed: u64) -> eng::State {
        referee_engine::autobahn::view::redraw_secrets(state, seed)
    }

    fn warning(state: &eng::State, seat: Seat, action: &eng::Action) -> Option<String> {
        referee_engine::autobahn::legal::warning(state, seat, action)
    }

    fn action_kind(action: &eng::Action) -> &'static str {
        use eng::Action as A;
        match action {
            A::ChooseRouteCard { .. } => "choose_route_card",
            A::ClaimDeliveryBonus { .. } => "claim_delivery_bonus",
            A::PlayCard { .. } => "play_card",
            A::TakeBackCards => "take_back_cards",
            A::Subsidy => "subsidy",
            A::MoveTruck { .. } => "move_truck",
            A::EndTurn => "end_turn",
            A::Promote { .. } => "promote",
            A::PlaceEmployee { .. } => "place_employee",
            A::BuildRoad { .. } => "build_road",
            A::UpgradeLink { .. } => "upgrade_link",
            A::BuildStation { .. } => "build_station",
            A::Unlock { .. } => "unlock",
            A::TakeDisplayCard { .. } => "take_display_card",
            A::DiscardDisplayCard { .. } => "discard_display_card",
            A::PlaceActionTile { .. } => "place_action_tile",
            A::Decline => "decline",
        }
    }

    fn event_to_pb(event: &eng::Event) -> v1::Event {
        v1::Event {
            event: Some(v1::event::Event::Autobahn(event_to_pb_inner(event))),
        }
    }

    fn legal_actions_pb(
        state: &eng::State,
        seat: Seat,
    ) -> v1::legal_actions_response::LegalActions {
        let legal = Autobahn::legal_actions(state, seat);
        v1::legal_actions_response::LegalActions::Autobahn(pb::LegalActions {
            warnings: legal
                .iter()
                .map(|a| {
                    referee_engine::autobahn::legal::warning(state, seat, a).unwrap_or_default()
                })
                .collect(),
            actions: legal.iter().map(action_to_pb_inner).collect(),
        })
    }

    fn view_to_pb(view: &eng::View) -> v1::view_response::View {
        v1::view_response::View::Autobahn(pb::View {
            state: Some(if view.complete {
                state_to_pb(&view.state)
            } else {
                view_state_to_pb(&view.state)
            }),
        })
    }

    fn seat_count(state: &eng::State) -> u32 {
        state.seats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_and_check(seats: u32, seed: u64, options: &eng::Options) -> eng::State {
        let mut state = Autobahn::setup(options, seats, seed).unwrap();
        for n in 0..5_000u64 {
            assert_eq!(state_from_pb(&state_to_pb(&state)).unwrap(), state);
            let Some(&seat) = Autobahn::to_act(&state).first() else {
                break;
            };
            let legal = Autobahn::legal_actions(&state, seat);
            let others: Vec<_> = legal
                .iter()
                .filter(|a| !matches!(a, eng::Action::TakeBackCards | eng::Action::Decline))
                .collect();
            let a = if others.is_empty() {
                legal[0].clone()
            } else {
                others[(n as usize * 7 + seed as usize) % others.len()].clone()
            };
            let wire = WireAutobahn::action_to_pb(&a);
            assert_eq!(WireAutobahn::action_from_pb(&wire).unwrap(), a);
            for e in Autobahn::apply(&mut state, seat, &a).unwrap() {
                assert!(WireAutobahn::event_to_pb(&e).event.is_some());
            }
        }
        assert_eq!(state_from_pb(&state_to_pb(&state)).unwrap(), state);
        state
    }

    /// Whole games for 1–4 seats: every state survives encode → decode (and validation)
    /// unchanged, every action too.
    #[test]
    fn states_and_actions_round_trip_through_whole_games() {
        let options = eng::Options {
            board: default_board(),
            ..eng::Options::default()
        };
        for seats in 1..=4 {
            let end = play_and_check(seats, u64::from(seats), &options);
            assert!(Autobahn::outcome(&end).is_some(), "{seats} seats finished");
        }
    }

    #[test]
    fn default_board_is_not_carried_a_custom_board_is() {
        let state = Autobahn::setup(&eng::Options::default(), 2, 0).unwrap();
        let pb = state_to_pb(&state);
        let o = pb.options.as_ref().unwrap();
        assert!(o.board_json.is_empty());
        assert!(!o.board_id.is_empty());
        let mut def = default_board().def.clone();
        def.board_id = "custom-1".into();
        def.starting_dm.per_player += 5;
        let options = eng::Options {
            board: Arc::new(Board::from_def(def).unwrap()),
            ..eng::Options::default()
        };
        let state = Autobahn::setup(&options, 2, 0).unwrap();
        let pb = state_to_pb(&state);
        assert!(!pb.options.as_ref().unwrap().board_json.is_empty());
        assert_eq!(state_from_pb(&pb).unwrap(), state);
        let mut wrong = pb.clone();
        wrong.options.as_mut().unwrap().board_json.clear();
        let e = state_from_pb(&wrong).unwrap_err();
        assert!(
            e.message().contains("state.autobahn.options.board_id"),
            "{}",
            e.message()
        );
    }

    /// Issue #23: a state saved with the previous default board keeps it: it travels by id
    /// only and decodes to that board, not to today's default.
    #[test]
    fn previous_default_board_travels_by_id_and_keeps_its_numbers() {
        let mut options = eng::Options::default();
        options.set("board", "reconstructed-2026-1").unwrap();
        assert_ne!(
            options.board.def.board_id,
            default_board().def.board_id,
            "the default moved on"
        );
        let state = Autobahn::setup(&options, 2, 0).unwrap();
        assert_eq!(state.players[0].dm, 12, "the old board's starting DM");
        let pb = state_to_pb(&state);
        let o = pb.options.as_ref().unwrap();
        assert_eq!(o.board_id, "reconstructed-2026-1");
        assert!(o.board_json.is_empty(), "a shipped board travels by id");
        let back = state_from_pb(&pb).unwrap();
        assert_eq!(back, state);
        assert_eq!(back.board.def.starting_dm.per_player, 12);
        let fresh = Autobahn::setup(&eng::Options::default(), 2, 0).unwrap();
        assert_eq!(fresh.players[0].dm, 14, "the new default's starting DM");
    }

    #[test]
    fn malformed_fields_name_their_path() {
        let state = Autobahn::setup(&eng::Options::default(), 3, 1).unwrap();
        let good = state_to_pb(&state);
        type Mutation = Box<dyn Fn(&mut pb::State)>;
        let cases: Vec<(Mutation, &str)> = vec![
            (Box::new(|s| s.players[2].seat = Some(7)), "players[2].seat"),
            (Box::new(|s| s.players[1].dm = -1), "players[1].dm"),
            (Box::new(|s| s.players[0].reserve += 1), "players[0]"),
            (
                Box::new(|s| s.players[1].trucks[0].location = 9),
                "players[1].trucks[0].location",
            ),
            (
                Box::new(|s| s.offices[0].seats.push(5)),
                "offices[0].seats[3]",
            ),
            (Box::new(|s| s.goods_supply[1] += 1), "goods_supply[1]"),
            (Box::new(|s| s.sections[3].road = 0), "sections[3].road"),
            (Box::new(|s| s.current = 3), "current"),
            (Box::new(|s| s.phase = None), "phase"),
            (
                Box::new(|s| {
                    s.pending.push(pb::Pending {
                        player: 0,
                        kind: 1,
                        department: None,
                        colour: None,
                        source: String::new(),
                    })
                }),
                "",
            ),
        ];
        for (mutate, path) in cases {
            let mut s = good.clone();
            mutate(&mut s);
            match state_from_pb(&s) {
                Err(e) => assert!(
                    e.message().starts_with(&format!("state.autobahn.{path}")),
                    "{path}: {}",
                    e.message()
                ),
                Ok(_) => assert!(path.is_empty(), "{path} accepted"),
            }
        }
    }
}
