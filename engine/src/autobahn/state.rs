//! The complete state of a game of Autobahn (autobahn §12.3). Plain structs, `Vec`s, integer
//! DM and string ids from the board data, so it maps one-to-one to `referee.autobahn.v1.State`.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

use super::board::{Board, Effect};
use super::options::Options;
use crate::Seat;

/// Employees of one player in one department: index 0 = floor 1 (autobahn §1.6).
pub type Floors = Vec<u32>;

/// The complete state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Options chosen at setup (the board included).
    pub options: Options,
    /// The board in play (shared, immutable).
    #[serde(with = "super::board::arc_board")]
    pub board: Arc<Board>,
    /// Players in seat order; in a solo game the Autobot is the extra last entry.
    pub players: Vec<Player>,
    /// Index of the player whose turn it is.
    pub current: u32,
    /// Where the game is.
    pub phase: Phase,
    /// Current era (1–3).
    pub era: u32,
    /// Road sections left in each era's supply (autobahn §3.1: 10/12/14).
    pub era_supply: Vec<u32>,
    /// Every section space in board order.
    pub sections: Vec<SectionState>,
    /// Station spaces in board order.
    pub station_spaces: Vec<StationSpaceState>,
    /// Construction Offices, one per autobahn in board order.
    pub offices: Vec<Office>,
    /// Current city values (AQ-3), German cities in board order.
    pub city_values: Vec<CityValue>,
    /// Goods tokens in the supply, in `GOODS` order (U-26).
    pub goods_supply: Vec<u32>,
    /// Delivery bonus tile on each country (`None` = empty), countries in board order.
    pub country_tiles: Vec<Option<String>>,
    /// Countries that already had a pharma delivery (AQ-5).
    pub pharma_delivered: Vec<String>,
    /// Face-down delivery tiles (hidden in views).
    pub delivery_tile_stack: Vec<String>,
    /// Face-down construction tiles left in the box (hidden in views).
    pub tiles_in_box: Vec<String>,
    /// Face-up display, leftmost first (autobahn §5.2).
    pub display: Vec<String>,
    /// Draw pile of the display (order hidden in views).
    pub card_deck: Vec<String>,
    /// Advanced cards waiting for era 3.
    pub advanced_aside: Vec<String>,
    /// Decisions owed before play goes on, first = next (promotions, bonus choices).
    pub pending: Vec<Pending>,
    /// Player who built the last section of the current era supply, if any (autobahn §5.4 step 6).
    pub last_builder: Option<u32>,
    /// Final round: turns still to play after the trigger (autobahn §7).
    pub final_turns_left: Option<u32>,
    /// Route-card draft at setup (U-20).
    pub route_offer: Vec<String>,
    /// Seeded ChaCha8 RNG: seed and word position (reproducible).
    pub rng: RngState,
    /// Actions applied so far.
    pub action_count: u64,
    /// Final result once over.
    pub result: Option<FinalResult>,
}

/// RNG position (maps to two integers).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RngState {
    /// Seed given at setup.
    pub seed: u64,
    /// ChaCha word position.
    pub word_pos: u64,
}

impl RngState {
    /// A uniform number below `n` (0 if `n` is 0), advancing the stream.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let mut r = ChaCha8Rng::seed_from_u64(self.seed);
        r.set_word_pos(u128::from(self.word_pos));
        let x = r.next_u64();
        self.word_pos = u64::try_from(r.get_word_pos()).unwrap_or(u64::MAX);
        (x % n as u64) as usize
    }

    /// Shuffles `v` (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// Where the game is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Setup: route cards are drafted in reverse turn order (U-20).
    RouteDraft,
    /// Phase 1/2 of the current player's turn: claim a delivery bonus or take the main action.
    Main {
        /// A delivery bonus was claimed this turn (autobahn §5.1 phase 1).
        bonus_claimed: bool,
    },
    /// Phase 3: moving trucks (only after playing a card).
    Trucks {
        /// Colour of the card played (AQ-4).
        colour: String,
        /// Trucks (indices) already moved this turn.
        moved: Vec<u32>,
    },
    /// The game is over.
    Over,
}

/// A decision owed by a player before play goes on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Player index that decides.
    pub player: u32,
    /// What is owed.
    pub kind: PendingKind,
    /// Why (rule and source), e.g. `AQ-2`, `bonus tile BT-C08`.
    pub source: String,
}

/// Kinds of pending decisions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PendingKind {
    /// One promotion, optionally in one department (autobahn §5.11).
    Promote {
        /// Department restriction.
        department: Option<String>,
    },
    /// Place an employee in an office of the player's choice.
    PlaceEmployee,
    /// An optional free build (bonus or the card's extra action); `colour` restricts it.
    BuildRoad {
        /// Colour restriction (the card's extra action builds on its colour).
        colour: Option<String>,
    },
    /// An optional free upgrade.
    UpgradeLink,
    /// An optional free station.
    BuildStation,
    /// Unlock a cell.
    Unlock,
    /// Take a display card.
    TakeDisplayCard,
    /// Discard a display card.
    DiscardDisplayCard,
    /// Put an action tile on a space.
    ActionTile,
}

impl PendingKind {
    /// The decision in plain English, e.g. `a promotion in FINANCE`, `a free road section`
    /// (for `EffectLost` messages; issue #23: they were Rust debug text).
    pub fn describe(&self) -> String {
        match self {
            PendingKind::Promote { department: None } => "a promotion".into(),
            PendingKind::Promote {
                department: Some(d),
            } => format!("a promotion in {d}"),
            PendingKind::PlaceEmployee => "placing an employee".into(),
            PendingKind::BuildRoad { colour: None } => "a free road section".into(),
            PendingKind::BuildRoad { colour: Some(c) } => format!("a free {c} road section"),
            PendingKind::UpgradeLink => "a free link upgrade".into(),
            PendingKind::BuildStation => "a free service station".into(),
            PendingKind::Unlock => "an unlock".into(),
            PendingKind::TakeDisplayCard => "taking a display card".into(),
            PendingKind::DiscardDisplayCard => "discarding a display card".into(),
            PendingKind::ActionTile => "an action tile".into(),
        }
    }

    /// Why nobody could take this decision when it is lost (autobahn §5.11).
    pub fn why_lost(&self) -> &'static str {
        match self {
            PendingKind::Promote { .. } => {
                "no employee in the Lobby or on a floor below an open floor to promote"
            }
            PendingKind::PlaceEmployee => "no employee in reserve or in the Lobby",
            PendingKind::BuildRoad { .. } => "no buildable section the player can pay for",
            PendingKind::UpgradeLink => "no upgradable link the player can pay for",
            PendingKind::BuildStation => {
                "no station left, no free station space on built road, or not enough DM"
            }
            PendingKind::Unlock => "no cell left to unlock",
            PendingKind::TakeDisplayCard | PendingKind::DiscardDisplayCard => {
                "the display is empty"
            }
            PendingKind::ActionTile => "no action tile left",
        }
    }
}

/// One section space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionState {
    /// Section id.
    pub id: String,
    /// Built state.
    pub road: Road,
    /// Construction bonus tile lying here, face up.
    pub bonus_tile: Option<String>,
}

/// Road on a section space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Road {
    /// Nothing built.
    Unbuilt,
    /// Single-lane side up.
    SingleLane,
    /// Two-lane side up (upgraded).
    TwoLane,
}

/// One service-station space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StationSpaceState {
    /// Space id.
    pub id: String,
    /// Section id.
    pub section: String,
    /// Owner (player index).
    pub owner: Option<u32>,
}

/// A Construction Office: seats left to right, each the owner's player index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Office {
    /// Autobahn id.
    pub autobahn: String,
    /// Occupied seats, leftmost first.
    pub seats: Vec<u32>,
    /// Capacity for this player count.
    pub capacity: u32,
}

/// A city value (AQ-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CityValue {
    /// City id.
    pub city: String,
    /// Current value.
    pub value: i64,
}

/// One player (or the Autobot).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// Seat, `None` for the Autobot.
    pub seat: Option<Seat>,
    /// DM (never negative; the Autobot's is not tracked).
    pub dm: i64,
    /// Cards in hand.
    pub hand: Vec<String>,
    /// Yellow basic card set aside until era 3.
    pub set_aside: Vec<String>,
    /// Action spaces in board order.
    pub action_spaces: Vec<ActionSpace>,
    /// Action tiles not yet placed.
    pub action_tiles_left: u32,
    /// Trucks.
    pub trucks: Vec<Truck>,
    /// Employees in reserve.
    pub reserve: u32,
    /// Employees in the Lobby.
    pub lobby: u32,
    /// Employees per department (`DEPARTMENTS` order) and floor.
    pub departments: Vec<Floors>,
    /// Employees on the subsidy space (U-7).
    pub subsidy: u32,
    /// Subsidy taken this era.
    pub subsidy_used: bool,
    /// Stations built (slots emptied from the left).
    pub stations_built: u32,
    /// Unlocked cells.
    pub unlocked: Vec<String>,
    /// Highest open floor per department (U-11).
    pub floor_access: Vec<u32>,
    /// Development track position.
    pub development: u32,
    /// Delivery board id.
    pub delivery_board: u32,
    /// Delivery-board rows in row order.
    pub deliveries: Vec<DeliveryRow>,
    /// Route card.
    pub route_card: Option<String>,
    /// Autobot data (solo only).
    pub autobot: Option<super::autobot::AutobotState>,
}

/// One player's action space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionSpace {
    /// Space id.
    pub id: String,
    /// Capacity (raised by action tiles).
    pub capacity: u32,
    /// Cards played here.
    pub cards: Vec<String>,
}

/// A truck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truck {
    /// Location.
    pub at: TruckAt,
    /// Goods loaded.
    pub goods: Option<String>,
    /// Destination country (Autobot only, §8.4).
    pub destination: Option<String>,
}

/// Truck location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TruckAt {
    /// In the player's reserve.
    Reserve,
    /// On a depot.
    Depot(String),
    /// On a section.
    Section(String),
}

/// One delivery-board row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryRow {
    /// Country id.
    pub country: String,
    /// Token on the goods icon, not yet slid (bonus claimable).
    pub goods_token: bool,
    /// Token slid right (bonus used).
    pub bonus_used: bool,
    /// Token on the DM coin space.
    pub dm_token: bool,
    /// Delivered here at all (Trade metric).
    pub delivered: bool,
}

/// Final result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalResult {
    /// Per player (Autobot included).
    pub scores: Vec<ScoreLine>,
    /// Rank per player (1 = best).
    pub ranks: Vec<u32>,
    /// Why the game ended.
    pub end_reason: String,
}

/// Score breakdown (autobahn §7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreLine {
    /// Lobby VP.
    pub lobby: i64,
    /// Network VP.
    pub network: i64,
    /// Trade VP.
    pub trade: i64,
    /// Service VP.
    pub service: i64,
    /// Finance VP.
    pub finance: i64,
    /// Total.
    pub total: i64,
    /// Tie-break 1: employees on floors 1–3 (U-22).
    pub admin_employees: u32,
    /// Tie-break 2: sum of floors (U-22).
    pub admin_height: u32,
}

impl State {
    /// Number of seats (humans).
    pub fn seats(&self) -> u32 {
        self.players.iter().filter(|p| p.seat.is_some()).count() as u32
    }

    /// Player index of `seat`.
    pub fn player_of(&self, seat: Seat) -> Option<u32> {
        self.players
            .iter()
            .position(|p| p.seat == Some(seat))
            .map(|i| i as u32)
    }

    /// Player `i`.
    pub fn p(&self, i: u32) -> &Player {
        &self.players[i as usize]
    }

    /// Player `i`, mutable.
    pub fn pm(&mut self, i: u32) -> &mut Player {
        &mut self.players[i as usize]
    }

    /// Player count used for office seats (solo counts as 2).
    pub fn table_size(&self) -> u32 {
        self.players.len() as u32
    }

    /// Pending effect queued for `player`.
    pub fn push_pending(&mut self, player: u32, kind: PendingKind, source: &str) {
        self.pending.push(Pending {
            player,
            kind,
            source: source.to_string(),
        });
    }

    /// Whether player `i` is the Autobot.
    pub fn is_bot(&self, i: u32) -> bool {
        self.players
            .get(i as usize)
            .is_some_and(|p| p.autobot.is_some())
    }
}

/// Employees of a player anywhere (invariant: always the board's 25). Counted in `u64`, so
/// that no count a decoded state carries can overflow the sum: in `u32` a floor of
/// 2^32 − 1 with one more employee in reserve summed to the right total in a release build
/// (the validator accepted four billion employees on one floor) and panicked in a debug one
/// (review of issue #24, fifth round).
pub fn employees_total(state: &State, i: u32) -> u64 {
    let p = state.p(i);
    let seated = state
        .offices
        .iter()
        .map(|o| o.seats.iter().filter(|s| **s == i).count() as u64)
        .sum::<u64>();
    let in_departments = p
        .departments
        .iter()
        .flatten()
        .map(|&n| u64::from(n))
        .sum::<u64>();
    u64::from(p.reserve) + u64::from(p.lobby) + u64::from(p.subsidy) + seated + in_departments
}

/// An effect to resolve (used by several modules).
pub type Fx = Effect;
