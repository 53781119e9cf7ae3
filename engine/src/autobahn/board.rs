//! The Autobahn board definition (format version 1): the file format, the loader and its
//! validation, and the compiled map the rules use.
//!
//! The printed data of Autobahn is not available (autobahn §0.2), so every [U] point of the
//! rules is a value of this file (autobahn §12). The shipped default,
//! `engine/data/autobahn/default-board.json`, is a **reconstruction, not the printed board**
//! (see `engine/data/autobahn/NOTES.md`). A platform holding the publisher's data passes its
//! own file through [`super::Options::board`].
//!
//! The format is documented in `docs/games/autobahn.md` ("Board definition format"). Keys the
//! engine does not read (`conventions`, `derived`, `upgrade_costs`, notes) are allowed and
//! ignored; `derived` values are recomputed here.
//!
//! [`Board::from_json`] reports **every** problem it finds, each with its path
//! (`links[12].sections: must be ≥ 1`), making the checks of `check_autobahn_board.py`.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use serde::{Deserialize, Serialize};

/// The seven autobahn ids in board order (autobahn §1.3).
pub const AUTOBAHNS: [&str; 7] = [
    "BLACK", "RED", "CYAN", "ORANGE", "PURPLE", "WHITE", "YELLOW",
];
/// Hex colours of the autobahns, from the solo helper (autobahn §1.3).
pub const AUTOBAHN_HEX: [&str; 7] = [
    "#24303d", "#b1433c", "#189f87", "#f29b36", "#795da6", "#eee", "#f4de5d",
];
/// Delivery-board row order of the countries (autobahn §1.4).
pub const ROW_ORDER: [&str; 8] = ["DK", "NL", "FR", "CH", "IT", "AT", "CZ", "PL"];
/// Departments left to right (autobahn §1.6).
pub const DEPARTMENTS: [&str; 4] = ["NETWORK", "TRADE", "SERVICE", "FINANCE"];
/// Goods types (autobahn §1.5).
pub const GOODS: [&str; 4] = ["AUTOMOTIVE", "APPLIANCES", "CHEMICALS", "PHARMACEUTICALS"];
/// The five player-board actions (autobahn §5.3).
pub const ACTIONS: [&str; 5] = [
    "BuildRoadSection",
    "UpgradeLink",
    "LoadTruck",
    "BuildServiceStation",
    "Unlock",
];

/// A bonus effect (autobahn §5.13). Serialized with a `type` tag, e.g. `{"type":"GainDM","amount":4}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Effect {
    /// Gain DM from the bank.
    #[serde(rename = "GainDM")]
    GainDm {
        /// DM gained.
        amount: i64,
    },
    /// Advance on the development track.
    Develop {
        /// Steps (1 or 2).
        steps: u32,
    },
    /// One promotion, optionally restricted to a department.
    Promote {
        /// Department id, `None` = any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        department: Option<String>,
    },
    /// Place an employee in an office (`CHOSEN` colour or the `CURRENT` colour).
    PlaceEmployee {
        /// `CHOSEN` or `CURRENT`.
        office: String,
    },
    /// A free build-road action (cost still paid, U-33).
    BuildRoadSection,
    /// A free upgrade action (cost still paid, U-33).
    UpgradeLink,
    /// A free build-station action.
    BuildServiceStation,
    /// Unlock one cell of the player board (the key).
    Unlock,
    /// Take a card from the display.
    TakeDisplayCard,
    /// Discard a card from the display.
    DiscardDisplayCard,
    /// Put an action tile on an action space: +1 capacity.
    MaxPlus1,
    /// Open the upper floors of a department (U-11).
    FloorAccess {
        /// Department id.
        department: String,
        /// Highest floor now open.
        max_floor: u32,
    },
}

/// A section cost: the same in every era, or one value per era (autobahn U-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cost {
    /// Same cost in every era.
    Fixed(i64),
    /// Costs in eras 1, 2, 3.
    PerEra(Vec<i64>),
}

impl Cost {
    /// The cost in `era` (1–3); 0 for a malformed per-era list (rejected by validation).
    pub fn in_era(&self, era: u32) -> i64 {
        match self {
            Cost::Fixed(c) => *c,
            Cost::PerEra(v) => v.get(era.saturating_sub(1) as usize).copied().unwrap_or(0),
        }
    }
}

/// Physical component counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Components {
    /// Road tiles in the box (97).
    pub road_section_tiles: u32,
    /// City value tokens (34).
    pub city_value_tokens: u32,
    /// Goods tokens per type (4, U-26).
    pub goods_tokens_per_type: u32,
    /// Per-player pieces.
    pub per_player: PerPlayer,
}

/// Per-player piece counts (autobahn §1.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerPlayer {
    /// Employees (25).
    pub employees: u32,
    /// Service stations (8).
    pub service_stations: u32,
    /// Trucks (2).
    pub trucks: u32,
    /// Action tiles (4).
    pub action_tiles: u32,
}

/// One era.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EraDef {
    /// 1–3.
    pub era: u32,
    /// Years, e.g. `1946-1965`.
    #[serde(default)]
    pub years: String,
    /// Truck steps (AQ-4: 2/3/3).
    pub truck_steps: u32,
}

/// One goods type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoodsDef {
    /// Goods id.
    pub id: String,
    /// Tokens of this type (4).
    pub tokens: u32,
    /// First era it can be loaded.
    pub from_era: u32,
}

/// One autobahn colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutobahnDef {
    /// `BLACK` … `YELLOW`.
    pub id: String,
    /// Hex colour.
    pub hex: String,
    /// Display name.
    #[serde(default)]
    pub name: String,
}

/// A German city.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CityDef {
    /// Id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Base value (U-3).
    pub base_value: i64,
    /// `west` or `east`.
    pub region: String,
    /// Latitude (compass tie-breaks).
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
}

/// A neighbouring country and its commercial city (autobahn §1.4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountryDef {
    /// ISO code.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Commercial city id (a map node).
    pub commercial_city: String,
    /// Commercial city display name.
    pub commercial_city_name: String,
    /// First era deliveries are accepted.
    pub opens_in_era: u32,
    /// Fixed value in budgets (U-4).
    pub value: i64,
    /// The country's pharma bonus (AQ-5).
    pub pharma_bonus: Effect,
    /// Row on the delivery boards (1–8).
    pub delivery_row: u32,
    /// Index in the clockwise order (1 = Austria).
    pub clockwise_index: u32,
    /// Draw latitude.
    pub lat: f64,
    /// Draw longitude.
    pub lon: f64,
}

/// A section space of a link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionDef {
    /// `<link>-<n>`.
    pub id: String,
    /// Build cost (U-2).
    pub cost: Cost,
    /// `west` or `east`.
    pub region: String,
    /// Pre-built at setup.
    #[serde(default)]
    pub prebuilt: bool,
    /// A construction bonus tile is placed here at setup.
    #[serde(default)]
    pub bonus_tile_space: bool,
    /// Printed Develop icon.
    #[serde(default)]
    pub develop_icon: bool,
    /// Service-station space id on this section.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub station_space: Option<String>,
    /// Road-closed marker id on this section.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closure: Option<String>,
}

/// A link: one autobahn between two consecutive nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkDef {
    /// Id.
    pub id: String,
    /// Autobahn id.
    pub autobahn: String,
    /// End node a (sections run from a to b).
    pub a: String,
    /// End node b.
    pub b: String,
    /// Sections from a to b.
    pub sections: Vec<SectionDef>,
}

/// The pre-built road (autobahn §3.1 step 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrebuiltDef {
    /// Autobahn (BLACK).
    pub autobahn: String,
    /// North end (HAMBURG).
    pub from: String,
    /// South end (CRAILSHEIM).
    pub to: String,
    /// Links laid at setup.
    pub links: Vec<String>,
}

/// A depot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepotDef {
    /// Id.
    pub id: String,
    /// Autobahn id.
    pub autobahn: String,
    /// City id.
    pub at: String,
    /// `west` or `east`.
    pub region: String,
    /// Goods loaded here.
    pub goods: Vec<String>,
    /// Goods added from era 3.
    #[serde(default)]
    pub goods_from_era_3: Vec<String>,
}

/// Road-closed markers (U-13).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosuresDef {
    /// Markers.
    pub markers: Vec<ClosureDef>,
}

/// One road-closed marker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosureDef {
    /// Id.
    pub id: String,
    /// Section id it blocks.
    pub section: String,
    /// Era at whose start it is removed.
    pub removed_at_start_of_era: u32,
}

/// Era supplies (autobahn §3.1: 10/12/14).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EraSupplyDef {
    /// Sections per era.
    pub by_era: Vec<u32>,
    /// Sections per era for a number of players (`"2"`, `"3"`, `"4"`), where it differs from
    /// `by_era` (U-23: whether the supplies change with the player count is unknown; the
    /// default is that they do not). A solo game is set up as for 2 players (§3.3).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_players: BTreeMap<String, Vec<u32>>,
}

impl EraSupplyDef {
    /// The supplies of eras 1–3 for a table of `players` players (the Autobot counts: a solo
    /// game has 2, §3.3): `by_players` for that count, else `by_era`.
    pub fn for_players(&self, players: usize) -> &[u32] {
        self.by_players
            .get(&players.max(2).to_string())
            .unwrap_or(&self.by_era)
    }
}

/// One Construction Office.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfficeDef {
    /// Id.
    pub id: String,
    /// Autobahn id.
    pub autobahn: String,
    /// Seats left to right.
    pub seats: Vec<OfficeSeatDef>,
}

/// One office seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfficeSeatDef {
    /// Seat number.
    pub seat: u32,
    /// Fewest players for which the seat is used (solo counts as 2).
    pub min_players: u32,
}

/// Administration building (autobahn §1.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdministrationDef {
    /// Lobby.
    pub lobby: LobbyDef,
    /// Departments left to right.
    pub departments: Vec<DepartmentDef>,
    /// Floor access.
    pub floor_access: FloorAccessDef,
}

/// The Lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyDef {
    /// VP per Lobby employee (2).
    pub vp_per_employee: i64,
}

/// A department.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepartmentDef {
    /// Id.
    pub id: String,
    /// Floors (1, 2, 3).
    pub floors: Vec<u32>,
    /// Metric id.
    pub metric: String,
    /// Place from the left on the Administration board, 1–4 (autobahn §1.6 [L]: default
    /// Network, Trade, Service, Finance). The Autobot breaks promotion ties towards the
    /// leftmost (§8.6). Absent: the listing order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u32>,
}

/// Floor access (U-11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorAccessDef {
    /// Highest floor open to everyone at the start.
    pub initial_max_floor: u32,
}

/// Government subsidy (U-7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubsidyDef {
    /// DM per era.
    pub dm_by_era: Vec<i64>,
}

/// Starting money (U-5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartingDmDef {
    /// DM per player.
    pub per_player: i64,
}

/// Player-board service stations (autobahn §5.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StationsDef {
    /// Stations per player.
    pub per_player: u32,
    /// DM a player pays to build a station (U-30: "station from data", [U]): one price for
    /// every era (`12`) or one per era (`[10, 40, 90]`, eras 1–3), like a section cost (U-2).
    /// The Autobot pays nothing (autobahn §8).
    pub build_cost_dm: Cost,
    /// Slots left to right.
    pub slots: Vec<StationSlotDef>,
}

impl StationsDef {
    /// DM a player pays to build a station in `era` (1–3) (U-30).
    pub fn build_cost(&self, era: u32) -> i64 {
        self.build_cost_dm.in_era(era)
    }
}

/// One station slot of the player board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StationSlotDef {
    /// Revealed when the station is built.
    pub on_build: Effect,
    /// Passing income once this is the rightmost emptied slot (U-16).
    pub passing_income_dm: i64,
}

/// The player board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerBoardDef {
    /// The five action spaces.
    pub action_spaces: Vec<ActionSpaceDef>,
    /// Action tiles.
    pub action_tiles: ActionTilesDef,
    /// Unlock grid (U-9).
    pub unlock_grid: UnlockGridDef,
}

/// One action space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionSpaceDef {
    /// Id.
    pub id: String,
    /// One of [`ACTIONS`].
    pub action: String,
    /// Starting capacity (U-6).
    pub capacity: u32,
}

/// Action tiles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionTilesDef {
    /// Tiles per player.
    pub count: u32,
}

/// The unlock grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnlockGridDef {
    /// Cells.
    pub cells: Vec<UnlockCellDef>,
    /// Cells that may always be unlocked.
    pub entry_cells: Vec<String>,
    /// `[tail, head]`: head may be unlocked once tail is.
    pub arrows: Vec<Vec<String>>,
}

/// One unlock cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnlockCellDef {
    /// Id.
    pub id: String,
    /// Effect.
    pub effect: Effect,
}

/// The development track (U-10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DevelopmentTrackDef {
    /// Spaces from 0.
    pub spaces: Vec<DevSpaceDef>,
}

/// One development space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DevSpaceDef {
    /// Index.
    pub space: u32,
    /// Reward when reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reward: Option<Effect>,
}

/// A delivery board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryBoardDef {
    /// Id.
    pub id: u32,
    /// Rows in row order.
    pub rows: Vec<DeliveryRowDef>,
}

/// One delivery-board row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryRowDef {
    /// Country id.
    pub country: String,
    /// DM of the coin space.
    pub dm: i64,
    /// Preferred goods.
    pub preferred: String,
    /// Bonus of the goods space.
    pub bonus: Effect,
}

/// Bonus tiles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BonusTilesDef {
    /// Tiles.
    pub tiles: Vec<BonusTileDef>,
}

/// One bonus tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BonusTileDef {
    /// Id.
    pub id: String,
    /// `CONSTRUCTION` or `DELIVERY`.
    #[serde(rename = "use")]
    pub use_: String,
    /// Effect.
    pub effect: Effect,
}

/// A card face.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDef {
    /// Id.
    pub id: String,
    /// Colours (autobahn ids).
    pub colours: Vec<String>,
    /// Extra printed action (`BuildRoadSection`).
    #[serde(default)]
    pub extra_action: Option<String>,
    /// Basic cards: first era in hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_hand_from_era: Option<u32>,
}

/// Card rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardRulesDef {
    /// Display size (U-18).
    pub display_size: u32,
}

/// A route card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteCardDef {
    /// Id.
    pub id: String,
    /// Two German cities.
    pub ends: Vec<String>,
    /// Reward when joined by built road (U-12).
    pub r1: Vec<Effect>,
    /// Reward when joined by upgraded links.
    pub r2: Vec<Effect>,
}

/// Solo opponent data (autobahn §8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutobotDef {
    /// Bad Hersfeld.
    pub reference_city: String,
    /// EASY and HARD.
    pub solo_boards: Vec<SoloBoardDef>,
}

/// A solo board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoloBoardDef {
    /// Id.
    pub id: String,
    /// Levels using it.
    pub levels: Vec<u32>,
    /// Effects under the 8 stations.
    pub station_slots: Vec<Effect>,
    /// Two rows of bonus-tile slots.
    pub bonus_tile_slots: Vec<Vec<Effect>>,
}

/// The board definition file, format version 1 (autobahn §12).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardDef {
    /// Must be 1.
    pub format_version: u32,
    /// Id, e.g. `reconstructed-2026-1`.
    pub board_id: String,
    /// Title.
    #[serde(default)]
    pub title: String,
    /// Where the data comes from.
    pub provenance: String,
    /// Component counts.
    pub components: Components,
    /// The three eras.
    pub eras: Vec<EraDef>,
    /// Goods types.
    pub goods: Vec<GoodsDef>,
    /// Autobahns.
    pub autobahns: Vec<AutobahnDef>,
    /// German cities.
    pub cities: Vec<CityDef>,
    /// Countries.
    pub countries: Vec<CountryDef>,
    /// Clockwise order of the countries, from Austria.
    pub clockwise_order: Vec<String>,
    /// Links.
    pub links: Vec<LinkDef>,
    /// Pre-built road.
    pub prebuilt: PrebuiltDef,
    /// Depots.
    pub depots: Vec<DepotDef>,
    /// Closures.
    pub closures: ClosuresDef,
    /// Era supplies.
    pub era_supply: EraSupplyDef,
    /// Offices.
    pub offices: Vec<OfficeDef>,
    /// Administration.
    pub administration: AdministrationDef,
    /// Subsidy.
    pub subsidy: SubsidyDef,
    /// Starting DM.
    pub starting_dm: StartingDmDef,
    /// Stations.
    pub service_stations: StationsDef,
    /// Player board.
    pub player_board: PlayerBoardDef,
    /// Development track.
    pub development_track: DevelopmentTrackDef,
    /// Delivery boards.
    pub delivery_boards: Vec<DeliveryBoardDef>,
    /// Bonus tiles.
    pub bonus_tiles: BonusTilesDef,
    /// Basic cards.
    pub basic_cards: Vec<CardDef>,
    /// Improved cards.
    pub improved_cards: Vec<CardDef>,
    /// Advanced cards.
    pub advanced_cards: Vec<CardDef>,
    /// Card rules.
    pub card_rules: CardRulesDef,
    /// Route cards.
    pub route_cards: Vec<RouteCardDef>,
    /// Solo opponent.
    pub autobot: AutobotDef,
}

/// One problem found while loading a board: where and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardProblem {
    /// JSON path, e.g. `links[12].sections`.
    pub path: String,
    /// What is wrong, e.g. `must be ≥ 1`.
    pub message: String,
}

impl std::fmt::Display for BoardProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A map node: a German city or a foreign commercial city.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    /// Index into [`BoardDef::cities`].
    City(usize),
    /// Index into [`BoardDef::countries`] (its commercial city).
    Foreign(usize),
}

/// A compiled section space.
#[derive(Clone, Debug)]
pub struct Sec {
    /// Link index.
    pub link: usize,
    /// Position in the link (0-based, from `a`).
    pub idx: usize,
    /// Autobahn index.
    pub autobahn: usize,
    /// In the East region.
    pub east: bool,
    /// Closure marker on it and the era it is removed.
    pub closure_until: Option<u32>,
    /// Station space on it (index into [`Map::station_spaces`]).
    pub station: Option<usize>,
    /// German cities it touches (end sections only).
    pub touches: Vec<usize>,
    /// Country whose commercial city it touches (delivery exit, U-15).
    pub exit_to: Option<usize>,
    /// Distance to the black autobahn (0 on black).
    pub dist_black: u32,
    /// Distance from Bad Hersfeld (1 next to it).
    pub dist_ref: u32,
    /// Compass position (lat, lon).
    pub pos: (f64, f64),
}

/// A compiled service-station space.
#[derive(Clone, Debug)]
pub struct StationSpace {
    /// Id.
    pub id: String,
    /// Section index.
    pub section: usize,
}

/// The compiled map: indices, adjacency and distances (recomputed, never read from `derived`).
#[derive(Clone, Debug, Default)]
pub struct Map {
    /// Sections in file order.
    pub sections: Vec<Sec>,
    /// Section ids in file order.
    pub section_ids: Vec<String>,
    /// Section id → index.
    pub section_index: HashMap<String, usize>,
    /// Link id → index.
    pub link_index: HashMap<String, usize>,
    /// Link endpoints.
    pub link_ends: Vec<(Node, Node)>,
    /// Section indices of each link, a to b.
    pub link_sections: Vec<Vec<usize>>,
    /// Autobahn index of each link.
    pub link_autobahn: Vec<usize>,
    /// Adjacency between section spaces (autobahn board conventions).
    pub adj: Vec<Vec<usize>>,
    /// City id → index.
    pub city_index: HashMap<String, usize>,
    /// Country id → index.
    pub country_index: HashMap<String, usize>,
    /// Autobahn id → index.
    pub autobahn_index: HashMap<String, usize>,
    /// Station spaces in file order.
    pub station_spaces: Vec<StationSpace>,
    /// Depot city index per depot.
    pub depot_city: Vec<usize>,
    /// Links with an end at each German city (by city index, in link order).
    pub city_links: Vec<Vec<usize>>,
    /// Sections touching each German city (by city index, in section order).
    pub city_sections: Vec<Vec<usize>>,
    /// Unlock grid, per cell (in `unlock_grid.cells` order): whether it is an entry cell.
    pub unlock_entry: Vec<bool>,
    /// Unlock grid, per cell: the cells whose arrows point at it (tails, by cell index).
    pub unlock_tails: Vec<Vec<usize>>,
}

/// A loaded, validated board: the definition plus its compiled map.
#[derive(Clone, Debug)]
pub struct Board {
    /// The definition as loaded.
    pub def: BoardDef,
    /// The compiled map.
    pub map: Map,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.def == other.def
    }
}

impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.def.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let def = BoardDef::deserialize(d)?;
        Board::from_def(def).map_err(|p| {
            serde::de::Error::custom(
                p.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        })
    }
}

/// Serde helpers for a shared board (`#[serde(with = "arc_board")]`).
pub mod arc_board {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Board;

    /// Serializes the board definition.
    pub fn serialize<S: Serializer>(b: &Arc<Board>, s: S) -> Result<S::Ok, S::Error> {
        b.as_ref().serialize(s)
    }

    /// Deserializes and validates a board definition.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Board>, D::Error> {
        Board::deserialize(d).map(Arc::new)
    }
}

/// The longest board definition text [`Board::from_json`] parses: 256 KiB, 2.5 times the
/// shipped default board as printed (102 KB; 57 KB compact, as states carry it). Parsing
/// costs a multiple of the text (an empty string, 3 bytes, becomes a 24-byte `String` in a
/// growing `Vec`: about 24 times at the peak) that the request's decoded-size estimate does
/// not see, since the board travels as a plain string (`NewGameRequest.options["board"]`,
/// `autobahn.Options.board_json` in every state): a 4 MiB board took about 96 MiB for one
/// call and 740 MiB for twelve StreamReplay calls at once (review of issue #24). At this
/// length one parse takes at most about 6 MiB.
pub const MAX_BOARD_JSON_BYTES: usize = 256 * 1024;

/// The shipped default board (a reconstruction, not the printed board).
pub const DEFAULT_BOARD_JSON: &str = include_str!("../../data/autobahn/default-board.json");

/// Earlier default boards, still shipped so that states saved with them keep their board
/// (a state carries its board id; issue #23), newest first. `reconstructed-2026-1` was the
/// default until the first balance retune of issue #23, `reconstructed-2026-2` until the second
/// (docs/games/autobahn-balance.md).
pub const PREVIOUS_BOARDS_JSON: [&str; 2] = [
    include_str!("../../data/autobahn/boards/reconstructed-2026-2.json"),
    include_str!("../../data/autobahn/boards/reconstructed-2026-1.json"),
];

impl Board {
    /// A board shipped with the engine, by id: the default or an earlier default
    /// ([`PREVIOUS_BOARDS_JSON`]). `None` for any other id.
    pub fn shipped(id: &str) -> Option<Board> {
        std::iter::once(DEFAULT_BOARD_JSON)
            .chain(PREVIOUS_BOARDS_JSON)
            .filter_map(|text| Board::from_json(text).ok())
            .find(|b| b.def.board_id == id)
    }

    /// The ids of the shipped boards, the default first.
    pub fn shipped_ids() -> Vec<String> {
        std::iter::once(DEFAULT_BOARD_JSON)
            .chain(PREVIOUS_BOARDS_JSON)
            .filter_map(|text| Board::from_json(text).ok())
            .map(|b| b.def.board_id)
            .collect()
    }

    /// The shipped default board.
    pub fn default_board() -> Board {
        // The default file is checked by the tests; a broken build-time file is a programming
        // error, never input-derived.
        #[allow(clippy::expect_used)]
        Board::from_json(DEFAULT_BOARD_JSON).expect("the shipped default board is valid")
    }

    /// Parses and validates a board definition; every problem is reported with its path.
    /// A text longer than [`MAX_BOARD_JSON_BYTES`] is refused before it is parsed.
    pub fn from_json(text: &str) -> Result<Board, Vec<BoardProblem>> {
        if text.len() > MAX_BOARD_JSON_BYTES {
            return Err(vec![BoardProblem {
                path: "(board)".to_string(),
                message: format!(
                    "the board definition is {} bytes, more than the {MAX_BOARD_JSON_BYTES} a board may take (it is refused before it is parsed)",
                    text.len()
                ),
            }]);
        }
        let def: BoardDef = serde_json::from_str(text).map_err(|e| {
            vec![BoardProblem {
                path: format!("(line {}, column {})", e.line(), e.column()),
                message: e.to_string(),
            }]
        })?;
        Board::from_def(def)
    }

    /// Validates a parsed definition and compiles its map.
    pub fn from_def(def: BoardDef) -> Result<Board, Vec<BoardProblem>> {
        let mut v = Validator::default();
        let map = v.check(&def);
        if v.problems.is_empty() {
            Ok(Board { def, map })
        } else {
            Err(v.problems)
        }
    }

    /// Place from the left (1 = leftmost) of department `d` (`DEPARTMENTS` index) on the
    /// Administration board (autobahn §1.6 [L]).
    pub fn department_position(&self, d: usize) -> u32 {
        self.def
            .administration
            .departments
            .get(d)
            .and_then(|x| x.position)
            .unwrap_or(d as u32 + 1)
    }

    /// Index of autobahn `id`.
    pub fn autobahn(&self, id: &str) -> Option<usize> {
        // Seven short ids (validated: exactly `AUTOBAHNS`): a scan beats hashing.
        self.def.autobahns.iter().position(|a| a.id == id)
    }

    /// Id of a node.
    pub fn node_id(&self, n: Node) -> &str {
        match n {
            Node::City(i) => &self.def.cities[i].id,
            Node::Foreign(i) => &self.def.countries[i].commercial_city,
        }
    }

    /// Whether section `s` is open (buildable / enterable) in `era` (autobahn §2.1, U-13).
    pub fn section_open(&self, s: usize, era: u32) -> bool {
        let sec = &self.map.sections[s];
        if era < 3 && sec.east {
            return false;
        }
        !matches!(sec.closure_until, Some(until) if era < until)
    }

    /// Build cost of section `s` in `era`.
    pub fn section_cost(&self, s: usize, era: u32) -> i64 {
        let sec = &self.map.sections[s];
        self.def.links[sec.link].sections[sec.idx].cost.in_era(era)
    }

    /// Office capacity for `players` players (solo counts as 2) (autobahn §3.2, U-21).
    pub fn office_capacity(&self, office: usize, players: u32) -> usize {
        self.def.offices.get(office).map_or(0, |o| {
            o.seats
                .iter()
                .filter(|s| s.min_players <= players.max(2))
                .count()
        })
    }

    /// Index of the office of autobahn `a`.
    pub fn office_of(&self, a: usize) -> Option<usize> {
        let id = AUTOBAHNS.get(a)?;
        self.def.offices.iter().position(|o| o.autobahn == *id)
    }

    /// A card definition by id (basic, improved or advanced).
    pub fn card(&self, id: &str) -> Option<&CardDef> {
        self.def
            .basic_cards
            .iter()
            .chain(&self.def.improved_cards)
            .chain(&self.def.advanced_cards)
            .find(|c| c.id == id)
    }

    /// A bonus tile by id.
    pub fn tile(&self, id: &str) -> Option<&BonusTileDef> {
        self.def.bonus_tiles.tiles.iter().find(|t| t.id == id)
    }

    /// Truck steps in `era` (AQ-4).
    pub fn truck_steps(&self, era: u32) -> u32 {
        self.def
            .eras
            .iter()
            .find(|e| e.era == era)
            .map_or(2, |e| e.truck_steps)
    }

    /// Section indices reachable by a greedy build-out (used by validation).
    fn frontier(&self, built: &BTreeSet<usize>, era: u32) -> Vec<usize> {
        frontier(&self.map, built, |s| self.section_open(s, era))
    }
}

/// Unbuilt sections adjacent to a built one that satisfy `open` (board conventions: buildable).
pub fn frontier(map: &Map, built: &BTreeSet<usize>, open: impl Fn(usize) -> bool) -> Vec<usize> {
    (0..map.sections.len())
        .filter(|s| !built.contains(s) && open(*s) && map.adj[*s].iter().any(|n| built.contains(n)))
        .collect()
}

#[derive(Default)]
struct Validator {
    problems: Vec<BoardProblem>,
}

impl Validator {
    fn err(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(BoardProblem {
            path: path.into(),
            message: message.into(),
        });
    }

    fn effect(&mut self, path: &str, e: &Effect) {
        match e {
            Effect::GainDm { amount } if *amount <= 0 => {
                self.err(path, "GainDM amount must be > 0")
            }
            Effect::Develop { steps } if !(1..=2).contains(steps) => {
                self.err(path, "Develop steps must be 1 or 2")
            }
            Effect::Promote {
                department: Some(d),
            } if !DEPARTMENTS.contains(&d.as_str()) => {
                self.err(path, format!("unknown department `{d}`"))
            }
            Effect::PlaceEmployee { office } if office != "CHOSEN" && office != "CURRENT" => {
                self.err(path, "PlaceEmployee office must be CHOSEN or CURRENT")
            }
            Effect::FloorAccess {
                department,
                max_floor,
            } if !DEPARTMENTS.contains(&department.as_str()) || !(2..=3).contains(max_floor) => {
                self.err(
                    path,
                    "FloorAccess needs a known department and max_floor 2 or 3",
                )
            }
            _ => {}
        }
    }

    fn unique<'a>(&mut self, path: &str, ids: impl Iterator<Item = &'a String>) {
        let mut seen = BTreeSet::new();
        for (i, id) in ids.enumerate() {
            if !seen.insert(id.clone()) {
                self.err(format!("{path}[{i}].id"), format!("duplicate id `{id}`"));
            }
        }
    }

    #[allow(clippy::too_many_lines, clippy::cognitive_complexity)]
    fn check(&mut self, b: &BoardDef) -> Map {
        let mut m = Map::default();
        if b.format_version != 1 {
            self.err("format_version", "must be 1");
        }
        if b.provenance.trim().is_empty() {
            self.err("provenance", "must say where the data comes from");
        }
        // autobahns (autobahn §1.3)
        let ids: Vec<&str> = b.autobahns.iter().map(|a| a.id.as_str()).collect();
        if ids != AUTOBAHNS {
            self.err(
                "autobahns",
                format!("must be exactly {AUTOBAHNS:?} in this order"),
            );
        }
        for (i, a) in b.autobahns.iter().enumerate() {
            m.autobahn_index.insert(a.id.clone(), i);
            if AUTOBAHN_HEX.get(i).is_some_and(|h| *h != a.hex) {
                self.err(
                    format!("autobahns[{i}].hex"),
                    "must be the solo helper's colour",
                );
            }
        }
        // goods
        let gids: Vec<&str> = b.goods.iter().map(|g| g.id.as_str()).collect();
        if gids != GOODS {
            self.err("goods", format!("must be exactly {GOODS:?}"));
        }
        // eras
        if b.eras.len() != 3
            || b.eras
                .iter()
                .enumerate()
                .any(|(i, e)| e.era != i as u32 + 1)
        {
            self.err("eras", "must list eras 1, 2, 3");
        }
        for (i, e) in b.eras.iter().enumerate() {
            if e.truck_steps == 0 {
                self.err(format!("eras[{i}].truck_steps"), "must be ≥ 1");
            }
        }
        // cities
        self.unique("cities", b.cities.iter().map(|c| &c.id));
        for (i, c) in b.cities.iter().enumerate() {
            m.city_index.insert(c.id.clone(), i);
            if c.base_value < 0 {
                self.err(format!("cities[{i}].base_value"), "must be ≥ 0");
            }
            if c.region != "west" && c.region != "east" {
                self.err(format!("cities[{i}].region"), "must be west or east");
            }
        }
        // countries (autobahn §1.4)
        self.unique("countries", b.countries.iter().map(|c| &c.id));
        let mut foreign: HashMap<String, usize> = HashMap::new();
        for (i, c) in b.countries.iter().enumerate() {
            m.country_index.insert(c.id.clone(), i);
            if m.city_index.contains_key(&c.commercial_city)
                || foreign.insert(c.commercial_city.clone(), i).is_some()
            {
                self.err(
                    format!("countries[{i}].commercial_city"),
                    "must be a unique node id, different from every German city",
                );
            }
            if !(1..=3).contains(&c.opens_in_era) {
                self.err(format!("countries[{i}].opens_in_era"), "must be 1, 2 or 3");
            }
            if c.value <= 0 {
                self.err(format!("countries[{i}].value"), "must be > 0");
            }
            self.effect(&format!("countries[{i}].pharma_bonus"), &c.pharma_bonus);
        }
        let mut rows: Vec<&CountryDef> = b.countries.iter().collect();
        rows.sort_by_key(|c| c.delivery_row);
        if rows.iter().map(|c| c.id.as_str()).collect::<Vec<_>>() != ROW_ORDER {
            self.err("countries", format!("delivery rows must be {ROW_ORDER:?}"));
        }
        for (k, name, era) in [("AT", "Wien", 1), ("CZ", "Praha", 3), ("PL", "Warszawa", 3)] {
            if let Some(c) = b.countries.iter().find(|c| c.id == k)
                && (c.commercial_city_name != name || c.opens_in_era != era)
            {
                self.err(
                    "countries",
                    format!("{k} must have {name} and open in era {era} (autobahn §1.4)"),
                );
            }
        }
        if b.clockwise_order.first().map(String::as_str) != Some("AT")
            || b.clockwise_order.iter().collect::<BTreeSet<_>>()
                != b.countries.iter().map(|c| &c.id).collect::<BTreeSet<_>>()
        {
            self.err(
                "clockwise_order",
                "must list every country once, starting at AT",
            );
        }
        // links and sections (autobahn §2.1)
        self.unique("links", b.links.iter().map(|l| &l.id));
        let node = |id: &str| -> Option<Node> {
            m.city_index
                .get(id)
                .map(|i| Node::City(*i))
                .or_else(|| foreign.get(id).map(|i| Node::Foreign(*i)))
        };
        let closures: HashMap<&str, u32> = b
            .closures
            .markers
            .iter()
            .map(|c| (c.section.as_str(), c.removed_at_start_of_era))
            .collect();
        let mut station_ids = BTreeSet::new();
        let mut ends_at: BTreeMap<Node, Vec<usize>> = BTreeMap::new();
        for (li, l) in b.links.iter().enumerate() {
            let p = format!("links[{li}]");
            m.link_index.insert(l.id.clone(), li);
            let ab = m.autobahn_index.get(&l.autobahn).copied();
            if ab.is_none() {
                self.err(
                    format!("{p}.autobahn"),
                    format!("unknown autobahn `{}`", l.autobahn),
                );
            }
            let (na, nb) = (node(&l.a), node(&l.b));
            if na.is_none() {
                self.err(format!("{p}.a"), format!("unknown node `{}`", l.a));
            }
            if nb.is_none() {
                self.err(format!("{p}.b"), format!("unknown node `{}`", l.b));
            }
            let (na, nb) = (na.unwrap_or(Node::City(0)), nb.unwrap_or(Node::City(0)));
            if l.a == l.b || matches!((na, nb), (Node::Foreign(_), Node::Foreign(_))) {
                self.err(
                    &p,
                    "endpoints must differ and not both be commercial cities",
                );
            }
            if l.sections.is_empty() {
                self.err(format!("{p}.sections"), "must be ≥ 1");
            }
            m.link_ends.push((na, nb));
            m.link_autobahn.push(ab.unwrap_or(0));
            let mut secs = Vec::new();
            let n = l.sections.len();
            for (si, s) in l.sections.iter().enumerate() {
                let sp = format!("{p}.sections[{si}]");
                let idx = m.sections.len();
                if m.section_index.insert(s.id.clone(), idx).is_some() {
                    self.err(
                        format!("{sp}.id"),
                        format!("duplicate section id `{}`", s.id),
                    );
                }
                match &s.cost {
                    Cost::Fixed(c) if *c <= 0 => self.err(format!("{sp}.cost"), "must be > 0"),
                    Cost::PerEra(v) if v.len() != 3 || v.iter().any(|c| *c <= 0) => {
                        self.err(format!("{sp}.cost"), "must be three positive integers")
                    }
                    _ => {}
                }
                if s.region != "west" && s.region != "east" {
                    self.err(format!("{sp}.region"), "must be west or east");
                }
                if ab == Some(6) && s.region != "east" {
                    self.err(
                        format!("{sp}.region"),
                        "yellow sections are East (autobahn §1.3)",
                    );
                }
                if s.bonus_tile_space && (s.develop_icon || s.prebuilt) {
                    self.err(
                        &sp,
                        "a bonus space may not be pre-built or hold a Develop icon",
                    );
                }
                let station = s.station_space.as_ref().map(|id| {
                    if !station_ids.insert(id.clone()) {
                        self.err(format!("{sp}.station_space"), format!("duplicate `{id}`"));
                    }
                    m.station_spaces.push(StationSpace {
                        id: id.clone(),
                        section: idx,
                    });
                    m.station_spaces.len() - 1
                });
                let mut touches = Vec::new();
                let mut exit_to = None;
                for (end, at) in [(na, si == 0), (nb, si + 1 == n)] {
                    if at {
                        match end {
                            Node::City(c) => touches.push(c),
                            Node::Foreign(c) => exit_to = Some(c),
                        }
                    }
                }
                m.sections.push(Sec {
                    link: li,
                    idx: si,
                    autobahn: ab.unwrap_or(0),
                    east: s.region == "east",
                    closure_until: closures.get(s.id.as_str()).copied(),
                    station,
                    touches,
                    exit_to,
                    dist_black: 0,
                    dist_ref: 0,
                    pos: (0.0, 0.0),
                });
                m.section_ids.push(s.id.clone());
                secs.push(idx);
            }
            if let (Some(f), Some(l2)) = (secs.first(), secs.last()) {
                ends_at.entry(na).or_default().push(*f);
                ends_at.entry(nb).or_default().push(*l2);
            }
            m.link_sections.push(secs);
        }
        // adjacency: consecutive sections, and end sections meeting at a German city
        m.adj = vec![Vec::new(); m.sections.len()];
        for secs in &m.link_sections {
            for w in secs.windows(2) {
                m.adj[w[0]].push(w[1]);
                m.adj[w[1]].push(w[0]);
            }
        }
        for (n, list) in &ends_at {
            if matches!(n, Node::Foreign(_)) {
                continue;
            }
            for x in list {
                for y in list {
                    if x != y && !m.adj[*x].contains(y) {
                        m.adj[*x].push(*y);
                    }
                }
            }
        }
        // positions (board conventions: interpolation between endpoints)
        let pos_of = |n: Node| match n {
            Node::City(i) => (b.cities[i].lat, b.cities[i].lon),
            Node::Foreign(i) => (b.countries[i].lat, b.countries[i].lon),
        };
        for s in 0..m.sections.len() {
            let (li, si) = (m.sections[s].link, m.sections[s].idx);
            let (pa, pb) = (pos_of(m.link_ends[li].0), pos_of(m.link_ends[li].1));
            let f = (si as f64 + 0.5) / m.link_sections[li].len() as f64;
            m.sections[s].pos = (pa.0 + (pb.0 - pa.0) * f, pa.1 + (pb.1 - pa.1) * f);
        }
        // per-city lookups (links ending there, sections touching it)
        m.city_links = vec![Vec::new(); b.cities.len()];
        for (l, (na, nb)) in m.link_ends.iter().enumerate() {
            for n in [na, nb] {
                if let Node::City(c) = n
                    && let Some(v) = m.city_links.get_mut(*c)
                    && v.last() != Some(&l)
                {
                    v.push(l);
                }
            }
        }
        m.city_sections = vec![Vec::new(); b.cities.len()];
        for (s, sec) in m.sections.iter().enumerate() {
            for c in &sec.touches {
                if let Some(v) = m.city_sections.get_mut(*c)
                    && v.last() != Some(&s)
                {
                    v.push(s);
                }
            }
        }
        // closures
        for (i, c) in b.closures.markers.iter().enumerate() {
            if !m.section_index.contains_key(&c.section) {
                self.err(
                    format!("closures.markers[{i}].section"),
                    format!("unknown section `{}`", c.section),
                );
            }
        }
        // pre-built road (autobahn §3.1 step 2)
        let mut pre_links = BTreeSet::new();
        for (i, l) in b.prebuilt.links.iter().enumerate() {
            match m.link_index.get(l) {
                Some(li) => {
                    pre_links.insert(*li);
                    if b.links[*li].autobahn != "BLACK"
                        || !b.links[*li].sections.iter().all(|s| s.prebuilt)
                    {
                        self.err(
                            format!("prebuilt.links[{i}]"),
                            "must be a black link with every section pre-built",
                        );
                    }
                }
                None => self.err(
                    format!("prebuilt.links[{i}]"),
                    format!("unknown link `{l}`"),
                ),
            }
        }
        for (li, l) in b.links.iter().enumerate() {
            if l.sections.iter().any(|s| s.prebuilt) && !pre_links.contains(&li) {
                self.err(
                    format!("links[{li}]"),
                    "pre-built sections must be whole links listed in prebuilt.links",
                );
            }
        }
        if b.prebuilt.autobahn != "BLACK"
            || b.prebuilt.from != "HAMBURG"
            || b.prebuilt.to != "CRAILSHEIM"
        {
            self.err(
                "prebuilt",
                "must be the black autobahn from HAMBURG to CRAILSHEIM (autobahn §3.1)",
            );
        }
        if let (Some(from), Some(to)) = (
            m.city_index.get(&b.prebuilt.from),
            m.city_index.get(&b.prebuilt.to),
        ) {
            let mut seen = BTreeSet::from([Node::City(*from)]);
            let mut q = vec![Node::City(*from)];
            while let Some(u) = q.pop() {
                for li in &pre_links {
                    let (a, bb) = m.link_ends[*li];
                    for (x, y) in [(a, bb), (bb, a)] {
                        if x == u && seen.insert(y) {
                            q.push(y);
                        }
                    }
                }
            }
            if !seen.contains(&Node::City(*to)) {
                self.err("prebuilt.links", "must join HAMBURG to CRAILSHEIM");
            }
        }
        // depots (autobahn §1.3)
        for (i, d) in b.depots.iter().enumerate() {
            let p = format!("depots[{i}]");
            let Some(c) = m.city_index.get(&d.at).copied() else {
                self.err(format!("{p}.at"), format!("unknown city `{}`", d.at));
                m.depot_city.push(0);
                continue;
            };
            m.depot_city.push(c);
            let on_route = b
                .links
                .iter()
                .any(|l| l.autobahn == d.autobahn && (l.a == d.at || l.b == d.at));
            if !on_route {
                self.err(format!("{p}.at"), "must be a city on the depot's autobahn");
            }
            if d.region != b.cities[c].region {
                self.err(format!("{p}.region"), "must be the region of its city");
            }
            for (gi, g) in d.goods.iter().chain(&d.goods_from_era_3).enumerate() {
                if !GOODS.contains(&g.as_str()) {
                    self.err(format!("{p}.goods[{gi}]"), format!("unknown goods `{g}`"));
                }
            }
            if d.goods.iter().any(|g| g == "PHARMACEUTICALS") {
                self.err(
                    format!("{p}.goods"),
                    "pharmaceuticals only from era 3 (autobahn §1.5)",
                );
            }
        }
        for a in AUTOBAHNS {
            let n = b.depots.iter().filter(|d| d.autobahn == a).count();
            let ok = if a == "BLACK" { n >= 1 } else { n == 1 };
            if !ok {
                self.err(
                    "depots",
                    format!(
                        "{a} must have {} depot(s) (autobahn §1.3)",
                        if a == "BLACK" { "several" } else { "one" }
                    ),
                );
            }
            let st = m
                .station_spaces
                .iter()
                .filter(|s| AUTOBAHNS.get(m.sections[s.section].autobahn) == Some(&a))
                .count();
            if st == 0 {
                self.err(
                    "links",
                    format!("{a} has no service-station space (autobahn §2.1)"),
                );
            }
        }
        // era supply, offices, administration, economy
        if b.era_supply.by_era.len() != 3 || b.era_supply.by_era.contains(&0) {
            self.err(
                "era_supply.by_era",
                "must be three positive numbers (10/12/14)",
            );
        }
        for (k, v) in &b.era_supply.by_players {
            if !["2", "3", "4"].contains(&k.as_str()) {
                self.err(
                    format!("era_supply.by_players.{k}"),
                    "the player count must be 2, 3 or 4",
                );
            }
            if v.len() != 3 || v.contains(&0) {
                self.err(
                    format!("era_supply.by_players.{k}"),
                    "must be three positive numbers",
                );
            }
        }
        for a in AUTOBAHNS {
            match b.offices.iter().position(|o| o.autobahn == a) {
                None => self.err("offices", format!("missing the {a} office")),
                Some(i) => {
                    let o = &b.offices[i];
                    if o.seats.iter().filter(|s| s.min_players <= 2).count() < 1
                        || o.seats
                            .windows(2)
                            .any(|w| w[0].min_players > w[1].min_players)
                    {
                        self.err(
                            format!("offices[{i}].seats"),
                            "seats must open in player-count order, at least one for 2 players",
                        );
                    }
                }
            }
        }
        let dids: Vec<&str> = b
            .administration
            .departments
            .iter()
            .map(|d| d.id.as_str())
            .collect();
        if dids != DEPARTMENTS {
            self.err(
                "administration.departments",
                format!("must be {DEPARTMENTS:?}"),
            );
        }
        let mut positions: Vec<u32> = b
            .administration
            .departments
            .iter()
            .enumerate()
            .map(|(i, d)| d.position.unwrap_or(i as u32 + 1))
            .collect();
        positions.sort_unstable();
        if positions != [1, 2, 3, 4] {
            self.err(
                "administration.departments",
                "the positions must be 1, 2, 3 and 4, each once",
            );
        }
        for (i, d) in b.administration.departments.iter().enumerate() {
            if d.floors != [1, 2, 3] {
                self.err(
                    format!("administration.departments[{i}].floors"),
                    "must be [1, 2, 3]",
                );
            }
        }
        if b.subsidy.dm_by_era.len() != 3 || b.subsidy.dm_by_era.iter().any(|x| *x < 0) {
            self.err("subsidy.dm_by_era", "must be three amounts ≥ 0");
        }
        if b.starting_dm.per_player < 0 {
            self.err("starting_dm.per_player", "must be ≥ 0");
        }
        let pp = &b.components.per_player;
        if pp.employees < 4 || pp.trucks == 0 {
            self.err(
                "components.per_player",
                "needs at least 4 employees and 1 truck",
            );
        }
        if b.service_stations.slots.len() != pp.service_stations as usize
            || b.service_stations.per_player != pp.service_stations
        {
            self.err("service_stations.slots", "must have one slot per station");
        }
        match &b.service_stations.build_cost_dm {
            Cost::Fixed(c) if *c < 0 => {
                self.err("service_stations.build_cost_dm", "must be ≥ 0");
            }
            Cost::PerEra(v) if v.len() != 3 || v.iter().any(|c| *c < 0) => {
                self.err(
                    "service_stations.build_cost_dm",
                    "must be one amount ≥ 0 or three (eras 1–3)",
                );
            }
            _ => {}
        }
        for (i, s) in b.service_stations.slots.iter().enumerate() {
            self.effect(
                &format!("service_stations.slots[{i}].on_build"),
                &s.on_build,
            );
            if s.passing_income_dm < 0 {
                self.err(
                    format!("service_stations.slots[{i}].passing_income_dm"),
                    "must be ≥ 0",
                );
            }
        }
        let acts: Vec<&str> = b
            .player_board
            .action_spaces
            .iter()
            .map(|a| a.action.as_str())
            .collect();
        if acts != ACTIONS {
            self.err(
                "player_board.action_spaces",
                format!("must be the five actions {ACTIONS:?}"),
            );
        }
        for (i, a) in b.player_board.action_spaces.iter().enumerate() {
            if a.capacity == 0 {
                self.err(
                    format!("player_board.action_spaces[{i}].capacity"),
                    "must be ≥ 1",
                );
            }
        }
        let g = &b.player_board.unlock_grid;
        self.unique(
            "player_board.unlock_grid.cells",
            g.cells.iter().map(|c| &c.id),
        );
        let cells: BTreeSet<&str> = g.cells.iter().map(|c| c.id.as_str()).collect();
        for (i, c) in g.cells.iter().enumerate() {
            self.effect(
                &format!("player_board.unlock_grid.cells[{i}].effect"),
                &c.effect,
            );
        }
        for (i, e) in g.entry_cells.iter().enumerate() {
            if !cells.contains(e.as_str()) {
                self.err(
                    format!("player_board.unlock_grid.entry_cells[{i}]"),
                    format!("unknown cell `{e}`"),
                );
            }
        }
        for (i, a) in g.arrows.iter().enumerate() {
            if a.len() != 2 || a.iter().any(|c| !cells.contains(c.as_str())) {
                self.err(
                    format!("player_board.unlock_grid.arrows[{i}]"),
                    "must be [tail, head] of known cells",
                );
            }
        }
        let cell_index = |id: &str| g.cells.iter().position(|c| c.id == id);
        m.unlock_entry = g
            .cells
            .iter()
            .map(|c| g.entry_cells.contains(&c.id))
            .collect();
        m.unlock_tails = g
            .cells
            .iter()
            .map(|c| {
                g.arrows
                    .iter()
                    .filter(|a| a.get(1) == Some(&c.id))
                    .filter_map(|a| a.first().and_then(|t| cell_index(t)))
                    .collect()
            })
            .collect();
        for (i, s) in b.development_track.spaces.iter().enumerate() {
            if s.space != i as u32 {
                self.err(
                    format!("development_track.spaces[{i}].space"),
                    format!("must be {i}"),
                );
            }
            if let Some(r) = &s.reward {
                self.effect(&format!("development_track.spaces[{i}].reward"), r);
            }
        }
        if b.development_track.spaces.is_empty() {
            self.err("development_track.spaces", "must be ≥ 1");
        }
        // delivery boards (autobahn §1.4)
        if b.delivery_boards.is_empty() {
            self.err("delivery_boards", "must be ≥ 1");
        }
        for (i, d) in b.delivery_boards.iter().enumerate() {
            let cs: Vec<&str> = d.rows.iter().map(|r| r.country.as_str()).collect();
            if cs != ROW_ORDER {
                self.err(
                    format!("delivery_boards[{i}].rows"),
                    format!("must be one row per country in order {ROW_ORDER:?}"),
                );
            }
            for (ri, r) in d.rows.iter().enumerate() {
                if !GOODS[..3].contains(&r.preferred.as_str()) {
                    self.err(
                        format!("delivery_boards[{i}].rows[{ri}].preferred"),
                        "must be a goods type other than pharmaceuticals",
                    );
                }
                if r.dm < 0 {
                    self.err(format!("delivery_boards[{i}].rows[{ri}].dm"), "must be ≥ 0");
                }
                self.effect(&format!("delivery_boards[{i}].rows[{ri}].bonus"), &r.bonus);
            }
        }
        // bonus tiles
        self.unique(
            "bonus_tiles.tiles",
            b.bonus_tiles.tiles.iter().map(|t| &t.id),
        );
        let spaces = b
            .links
            .iter()
            .flat_map(|l| &l.sections)
            .filter(|s| s.bonus_tile_space)
            .count();
        let cons = b
            .bonus_tiles
            .tiles
            .iter()
            .filter(|t| t.use_ == "CONSTRUCTION")
            .count();
        let del = b
            .bonus_tiles
            .tiles
            .iter()
            .filter(|t| t.use_ == "DELIVERY")
            .count();
        if cons < spaces {
            self.err(
                "bonus_tiles.tiles",
                format!("{cons} construction tiles for {spaces} bonus spaces"),
            );
        }
        if del < b.countries.len() {
            self.err(
                "bonus_tiles.tiles",
                "needs at least one delivery tile per country",
            );
        }
        for (i, t) in b.bonus_tiles.tiles.iter().enumerate() {
            if t.use_ != "CONSTRUCTION" && t.use_ != "DELIVERY" {
                self.err(
                    format!("bonus_tiles.tiles[{i}].use"),
                    "must be CONSTRUCTION or DELIVERY",
                );
            }
            self.effect(&format!("bonus_tiles.tiles[{i}].effect"), &t.effect);
        }
        // cards (autobahn §1.2, §5.2)
        let basic: Vec<&str> = b
            .basic_cards
            .iter()
            .map(|c| c.colours.first().map_or("", |s| s.as_str()))
            .collect();
        if basic != AUTOBAHNS || b.basic_cards.iter().any(|c| c.colours.len() != 1) {
            self.err(
                "basic_cards",
                "must be one single-colour card per autobahn, in order",
            );
        }
        for (name, cards) in [
            ("basic_cards", &b.basic_cards),
            ("improved_cards", &b.improved_cards),
            ("advanced_cards", &b.advanced_cards),
        ] {
            for (i, c) in cards.iter().enumerate() {
                if c.colours.is_empty()
                    || c.colours.iter().any(|x| !AUTOBAHNS.contains(&x.as_str()))
                {
                    self.err(format!("{name}[{i}].colours"), "must be ≥ 1 known autobahn");
                }
                if c.extra_action
                    .as_deref()
                    .is_some_and(|x| x != "BuildRoadSection")
                {
                    self.err(
                        format!("{name}[{i}].extra_action"),
                        "only BuildRoadSection is supported",
                    );
                }
            }
        }
        self.unique(
            "cards",
            b.basic_cards
                .iter()
                .chain(&b.improved_cards)
                .chain(&b.advanced_cards)
                .map(|c| &c.id),
        );
        if b.card_rules.display_size == 0 {
            self.err("card_rules.display_size", "must be ≥ 1");
        }
        // route cards
        for (i, r) in b.route_cards.iter().enumerate() {
            if r.ends.len() != 2
                || r.ends.iter().any(|e| !m.city_index.contains_key(e))
                || r.ends.first() == r.ends.get(1)
            {
                self.err(
                    format!("route_cards[{i}].ends"),
                    "must be two different German cities",
                );
            }
            for (k, e) in r.r1.iter().chain(&r.r2).enumerate() {
                self.effect(&format!("route_cards[{i}].rewards[{k}]"), e);
            }
        }
        if b.route_cards.len() < 5 {
            self.err(
                "route_cards",
                "needs at least 5 cards (4 players + 1 for the draft, U-20)",
            );
        }
        // autobot (autobahn §8)
        let rc = m.city_index.get(&b.autobot.reference_city).copied();
        if rc.is_none() {
            self.err("autobot.reference_city", "must be a German city");
        }
        for (i, sb) in b.autobot.solo_boards.iter().enumerate() {
            if sb.station_slots.len() != pp.service_stations as usize
                || sb.bonus_tile_slots.len() != 2
                || sb.bonus_tile_slots.iter().any(|r| r.len() != 6)
            {
                self.err(
                    format!("autobot.solo_boards[{i}]"),
                    "needs one station slot per station and 2 × 6 bonus-tile slots",
                );
            }
            for (k, e) in sb
                .station_slots
                .iter()
                .chain(sb.bonus_tile_slots.iter().flatten())
                .enumerate()
            {
                self.effect(&format!("autobot.solo_boards[{i}].slots[{k}]"), e);
            }
        }
        let mut levels: Vec<u32> = b
            .autobot
            .solo_boards
            .iter()
            .flat_map(|s| s.levels.clone())
            .collect();
        levels.sort_unstable();
        if levels != (1..=12).collect::<Vec<_>>() {
            self.err(
                "autobot.solo_boards",
                "levels 1–12 must each use exactly one board",
            );
        }
        if !self.problems.is_empty() {
            return m;
        }
        // ---------------- acceptance rules (issue 10; check_autobahn_board.py ACCEPT lines)
        let n = m.sections.len();
        let bfs = |starts: Vec<(usize, u32)>| -> Vec<Option<u32>> {
            let mut d = vec![None; n];
            let mut q = VecDeque::new();
            for (s, v) in starts {
                d[s] = Some(v);
                q.push_back(s);
            }
            while let Some(u) = q.pop_front() {
                let du = d[u].unwrap_or(0);
                for &v in &m.adj[u] {
                    if d[v].is_none() {
                        d[v] = Some(du + 1);
                        q.push_back(v);
                    }
                }
            }
            d
        };
        let all = bfs(vec![(0, 0)]);
        if all.iter().any(Option::is_none) {
            self.err(
                "links",
                "the section-space graph must be connected (every space reachable by road)",
            );
        }
        let black: Vec<(usize, u32)> = (0..n)
            .filter(|s| m.sections[*s].autobahn == 0)
            .map(|s| (s, 0))
            .collect();
        let db = bfs(black);
        let refs: Vec<(usize, u32)> = match rc {
            Some(c) => (0..n)
                .filter(|s| m.sections[*s].touches.contains(&c))
                .map(|s| (s, 1))
                .collect(),
            None => vec![],
        };
        if refs.is_empty() {
            self.err(
                "autobot.reference_city",
                "must be a node of the road network (Bad Hersfeld, autobahn §8.4)",
            );
        }
        let dr = bfs(refs);
        for s in 0..n {
            match (db[s], dr[s]) {
                (Some(a), Some(r)) => {
                    m.sections[s].dist_black = a;
                    m.sections[s].dist_ref = r;
                }
                _ => self.err(
                    format!("sections.{}", m.section_ids[s]),
                    "distance to black / Bad Hersfeld undefined",
                ),
            }
        }
        // era build-out: cheapest-first greedy from the pre-built road
        let board = Board {
            def: b.clone(),
            map: m.clone(),
        };
        let built: BTreeSet<usize> = (0..n)
            .filter(|s| b.links[m.sections[*s].link].sections[m.sections[*s].idx].prebuilt)
            .collect();
        let pre = built.clone();
        let mut supplies = vec![("era_supply.by_era".to_string(), &b.era_supply.by_era)];
        for (k, v) in &b.era_supply.by_players {
            supplies.push((format!("era_supply.by_players.{k}"), v));
        }
        for (path, by_era) in supplies {
            let mut built = built.clone();
            'eras: for (e, supply) in by_era.iter().enumerate() {
                let era = e as u32 + 1;
                for _ in 0..*supply {
                    let f = board.frontier(&built, era);
                    match f.iter().min_by_key(|s| (board.section_cost(**s, era), **s)) {
                        Some(s) => {
                            built.insert(*s);
                        }
                        None => {
                            self.err(
                                path.as_str(),
                                format!(
                                    "era {era}'s supply cannot be built out from the pre-built road"
                                ),
                            );
                            break 'eras;
                        }
                    }
                }
            }
        }
        // every country reachable by delivery once its era opens
        for (ci, c) in b.countries.iter().enumerate() {
            let era = c.opens_in_era.max(1);
            let open = |s: usize| board.section_open(s, era.max(if era == 3 { 3 } else { 2 }));
            let mut seen: BTreeSet<usize> = pre.clone();
            let mut q: Vec<usize> = pre.iter().copied().collect();
            while let Some(u) = q.pop() {
                for &v in &m.adj[u] {
                    if open(v) && seen.insert(v) {
                        q.push(v);
                    }
                }
            }
            let exits = seen.iter().any(|s| m.sections[*s].exit_to == Some(ci));
            let depot = b.depots.iter().enumerate().any(|(di, d)| {
                (d.region == "west" || era == 3)
                    && seen
                        .iter()
                        .any(|s| m.sections[*s].touches.contains(&m.depot_city[di]))
            });
            if !exits || !depot {
                self.err(
                    format!("countries[{ci}]"),
                    format!("{} cannot be reached by delivery once it opens", c.id),
                );
            }
        }
        // Truck moves (AQ-4; review of #24, finding H): LegalActions lists every path of
        // distinct sections up to a truck's steps, so their number must stay small whatever
        // road is built. `truck_steps` had no upper bound: a board with truck_steps 18 (the
        // shipped map otherwise) took one LegalActions 10 s and 290 MB, and a larger value
        // more than any memory.
        let steps = b.eras.iter().map(|e| e.truck_steps).max().unwrap_or(0);
        let moves = truck_move_bound(&m, &b.depots, steps.saturating_add(1))
            .saturating_mul(2)
            .saturating_add(1)
            .saturating_mul(u64::from(pp.trucks));
        if moves > MAX_TRUCK_MOVES {
            self.err(
                "eras",
                format!(
                    "a player's trucks could have up to {moves} moves at once with every road built \
                     (paths of up to {} sections: the largest truck_steps, {steps}, + 1 on \
                     two-lane road); at most {MAX_TRUCK_MOVES} (LegalActions lists each)",
                    steps.saturating_add(1)
                ),
            );
        }
        m
    }
}

/// The most moves a player's trucks may have at once (the board's trucks per player × each
/// truck's paths, with and without a delivery, bounded by [`truck_move_bound`] with every
/// section built): a board over it is refused. The shipped map: 2 × (2 × 667 + 1) = 2,670
/// (truck_steps 3: paths of up to 4 sections); with truck_steps 4 it would be 10,962, with 5
/// 44,246 (refused).
pub const MAX_TRUCK_MOVES: u64 = 12_000;

/// An upper bound on the paths of distinct sections of 1 to `steps` sections one truck may
/// move along, from any section or depot, with every section built and open: walks that never
/// step straight back to the section they came from (a path of distinct sections is one),
/// counted per start and saturating. Linear in `steps` × the adjacency's size; `steps` counts
/// at most the sections (no longer path exists), and the count stops growing once it passes
/// [`MAX_TRUCK_MOVES`] (then it is only known to be over it).
pub fn truck_move_bound(m: &Map, depots: &[DepotDef], steps: u32) -> u64 {
    let n = m.adj.len();
    let steps = steps.min(u32::try_from(n).unwrap_or(u32::MAX));
    // back[s][i]: where `s` stands in the adjacency of its i-th neighbour.
    let back: Vec<Vec<Option<usize>>> = (0..n)
        .map(|s| {
            m.adj[s]
                .iter()
                .map(|&t| m.adj[t].iter().position(|&u| u == s))
                .collect()
        })
        .collect();
    // came[t][j]: the walks of at most `left` more steps from `t`, entered from its j-th
    // neighbour (never straight back), counting the walk that stops at `t`; free[t]: entered
    // from outside the road (a depot).
    let mut came: Vec<Vec<u64>> = m.adj.iter().map(|a| vec![1; a.len()]).collect();
    let mut free: Vec<u64> = vec![1; n];
    for _left in 1..steps {
        let mut next_came = came.clone();
        let mut next_free = free.clone();
        for t in 0..n {
            let via: Vec<u64> = m.adj[t]
                .iter()
                .zip(&back[t])
                .map(|(&u, b)| b.map_or(free[u], |j| came[u][j]))
                .collect();
            let total = via.iter().fold(0u64, |a, &v| a.saturating_add(v));
            next_free[t] = total.saturating_add(1);
            for (j, v) in via.iter().enumerate() {
                next_came[t][j] = total.saturating_sub(*v).saturating_add(1);
            }
        }
        came = next_came;
        free = next_free;
        // free[t] − 1 is the count from section t: already over any board's allowance.
        if free.iter().any(|&f| f > MAX_TRUCK_MOVES) {
            break;
        }
    }
    let from_sections = (0..n).map(|s| {
        m.adj[s]
            .iter()
            .zip(&back[s])
            .map(|(&t, b)| b.map_or(free[t], |j| came[t][j]))
            .fold(0u64, u64::saturating_add)
    });
    let from_depots = (0..depots.len()).map(|d| {
        m.depot_city
            .get(d)
            .and_then(|c| m.city_sections.get(*c))
            .map_or(0, |secs| {
                secs.iter()
                    .map(|&t| free[t])
                    .fold(0u64, u64::saturating_add)
            })
    });
    from_sections.chain(from_depots).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board text up to [`MAX_BOARD_JSON_BYTES`] loads; one byte more is refused before it
    /// is parsed (review of issue #24: a 4 MiB board of `""` entries took 96 MiB to parse).
    #[test]
    fn board_texts_over_the_limit_are_refused_before_parsing() {
        let mut text = DEFAULT_BOARD_JSON.to_string();
        text.push_str(&" ".repeat(MAX_BOARD_JSON_BYTES - text.len()));
        assert_eq!(text.len(), 262_144);
        assert!(Board::from_json(&text).is_ok());
        text.push(' ');
        let problems = Board::from_json(&text).unwrap_err();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].path, "(board)");
        assert!(
            problems[0]
                .message
                .contains("262145 bytes, more than the 262144"),
            "{}",
            problems[0].message
        );
        // Malformed text over the limit gets the same answer: nothing was parsed.
        let bomb = format!("{{\"clockwise_order\":[{}\"\"]}}", "\"\",".repeat(90_000));
        assert_eq!(Board::from_json(&bomb).unwrap_err()[0].path, "(board)");
    }

    /// Review of #24, finding H: `truck_steps` had no upper bound, and LegalActions lists
    /// every path of distinct sections a truck may take (on the shipped map with truck_steps
    /// 18 and 42 sections built: 146,472 moves, 10 s and 290 MB for one call). The bound
    /// counts walks that never step straight back, with every section built: exact on a tree,
    /// above the paths elsewhere.
    #[test]
    fn boards_whose_trucks_could_have_too_many_moves_are_refused() {
        let b = Board::default_board();
        let bound = |steps| truck_move_bound(&b.map, &b.def.depots, steps);
        // The shipped board: paths of up to 4 sections (3 steps in eras 2–3, + 1 on two-lane
        // road); 2 trucks a player, each move with or without a delivery.
        assert_eq!(
            bound(1),
            7,
            "the most sections next to one section or depot city"
        );
        let shipped = bound(4);
        assert_eq!(shipped, SHIPPED_BOUND);
        assert!(2 * (2 * shipped + 1) <= MAX_TRUCK_MOVES);
        // The paths of distinct sections themselves (every section built), from every section
        // and depot: never above the bound, and not far below it.
        fn paths(adj: &[Vec<usize>], s: usize, left: u32, seen: &mut Vec<usize>) -> u64 {
            let mut n = 1;
            if left > 1 {
                for &t in &adj[s] {
                    if !seen.contains(&t) {
                        seen.push(t);
                        n += paths(adj, t, left - 1, seen);
                        seen.pop();
                    }
                }
            }
            n
        }
        let m = &b.map;
        for steps in 1..=6 {
            let from = |start: Option<usize>, entries: &[usize]| -> u64 {
                entries
                    .iter()
                    .map(|&t| {
                        paths(
                            &m.adj,
                            t,
                            steps,
                            &mut start.into_iter().chain([t]).collect(),
                        )
                    })
                    .sum()
            };
            let exact = (0..m.adj.len())
                .map(|s| from(Some(s), &m.adj[s]))
                .chain(
                    m.depot_city
                        .iter()
                        .map(|&c| from(None, &m.city_sections[c])),
                )
                .max()
                .unwrap();
            assert!(exact <= bound(steps), "{steps}: {exact} > {}", bound(steps));
            assert!(
                2 * exact >= bound(steps),
                "{steps}: {exact} ≪ {}",
                bound(steps)
            );
        }
        let text: serde_json::Value = serde_json::from_str(DEFAULT_BOARD_JSON).unwrap();
        let over = |steps: u32| {
            let mut t = text.clone();
            for e in t["eras"].as_array_mut().unwrap() {
                e["truck_steps"] = steps.into();
            }
            Board::from_json(&t.to_string())
        };
        assert_eq!(bound(5), 2_740);
        assert!(over(4).is_ok(), "truck_steps 4 stays within the bound");
        assert_eq!(bound(6), 11_061);
        assert_eq!(
            over(5).unwrap_err()[0].path,
            "eras",
            "2 × (2 × 11,061 + 1) moves"
        );
        let problems = over(18).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].path, "eras");
        assert!(
            problems[0].message.contains("at most 12000"),
            "{}",
            problems[0].message
        );
        let problems = over(u32::MAX).unwrap_err();
        assert_eq!(problems[0].path, "eras", "{problems:?}");
    }

    /// [`truck_move_bound`] of the shipped board for paths of up to 4 sections.
    const SHIPPED_BOUND: u64 = 667;

    #[test]
    fn default_board_loads() {
        let b = Board::default_board();
        assert_eq!(b.map.sections.len(), 66);
        assert_eq!(b.def.links.len(), 50);
        assert_eq!(b.map.station_spaces.len(), 25);
    }
}
