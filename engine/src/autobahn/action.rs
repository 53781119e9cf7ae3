//! Actions and events of Autobahn (`referee.autobahn.v1.Action` / `Event`).
//!
//! Every decision inside an action (which promotion, which bonus, which cell) is an explicit
//! parameter or a follow-up action answering a [`super::state::Pending`] entry.

use serde::{Deserialize, Serialize};

/// An id from the board data inside an action (card, colour, section, link, depot, cell, …).
/// A string that stores up to 24 bytes inline, so listing and cloning actions does not
/// allocate (`"RED".into()`, `Id::from(string)`, and it derefs to `&str`).
pub type Id = compact_str::CompactString;

/// The sections of a truck move: up to four stored inline (a move has at most four steps),
/// so listing moves does not allocate. Build one with `vec![...].into()` or `collect()`.
pub type Path = smallvec::SmallVec<[Id; 4]>;

/// One move by one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Setup: keep one of the offered route cards (U-20).
    ChooseRouteCard {
        /// Route card id.
        card: Id,
    },
    /// Phase 1: slide the delivery token of `country`'s row and resolve its bonus (autobahn §5.1).
    ClaimDeliveryBonus {
        /// Country id.
        country: Id,
    },
    /// Phase 2A: play `card` as `colour` onto action space `space`, acting on `target`
    /// (autobahn §5.1, §5.3–§5.7, §5.12).
    PlayCard {
        /// Card id from the hand.
        card: Id,
        /// One of the card's colours (U-32).
        colour: Id,
        /// Action space id (`BUILD_ROAD`, `UPGRADE_LINK`, `LOAD_TRUCK`, `BUILD_STATION`, `KEY`).
        space: Id,
        /// Section id (build), link id (upgrade), depot id (load), station-space id
        /// (station) or unlock-cell id (key).
        target: Id,
        /// Load only: the goods type (a depot may offer two in era 3).
        goods: Option<Id>,
    },
    /// Phase 2B: take all played cards back, 1 DM each (autobahn §5.1).
    TakeBackCards,
    /// Phase 2C: government subsidy, once per era (autobahn §5.1, U-7).
    Subsidy,
    /// Phase 3: move truck `truck` along `path` (section ids); `deliver` takes the final step
    /// into the neighbouring country (AQ-4, AQ-5).
    MoveTruck {
        /// Truck index (0 or 1).
        truck: u32,
        /// Sections entered, in order (may be empty when delivering from where it stands).
        path: Path,
        /// Deliver with one more step beyond the last section.
        deliver: bool,
    },
    /// Phase 3: stop moving trucks and end the turn.
    EndTurn,
    /// Answer a pending promotion: move one employee up from `from_floor` (0 = Lobby) in
    /// `department` (autobahn §5.11).
    Promote {
        /// Department id.
        department: Id,
        /// Floor the employee is on now (0 = Lobby).
        from_floor: u32,
    },
    /// Answer a pending place-employee bonus: the office colour.
    PlaceEmployee {
        /// Autobahn id.
        colour: Id,
    },
    /// Answer a pending free build (bonus or a card's extra action).
    BuildRoad {
        /// Section id.
        section: Id,
    },
    /// Answer a pending free upgrade.
    UpgradeLink {
        /// Link id.
        link: Id,
    },
    /// Answer a pending free station.
    BuildStation {
        /// Station-space id.
        space: Id,
    },
    /// Answer a pending unlock.
    Unlock {
        /// Cell id.
        cell: Id,
    },
    /// Answer a pending take-display-card.
    TakeDisplayCard {
        /// Display slot (0 = leftmost).
        slot: u32,
    },
    /// Answer a pending discard.
    DiscardDisplayCard {
        /// Display slot (0 = leftmost).
        slot: u32,
    },
    /// Answer a pending Max +1x: the action space that gains a tile.
    PlaceActionTile {
        /// Action space id.
        space: Id,
    },
    /// Decline an optional pending free action (build, upgrade, station).
    Decline,
}

/// Something that happened (for logs and UIs). Players are player indices (seat order; the
/// Autobot is the last index in a solo game).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A route card was kept.
    RouteCardChosen {
        /// Player.
        player: u32,
        /// Card.
        card: String,
    },
    /// A player's turn began.
    TurnStarted {
        /// Player.
        player: u32,
    },
    /// A delivery bonus was claimed.
    DeliveryBonusClaimed {
        /// Player.
        player: u32,
        /// Country.
        country: String,
    },
    /// A card was played.
    CardPlayed {
        /// Player.
        player: u32,
        /// Card.
        card: String,
        /// Colour used.
        colour: String,
        /// Action space.
        space: String,
    },
    /// A section was built.
    SectionBuilt {
        /// Player.
        player: u32,
        /// Section.
        section: String,
        /// DM paid.
        cost: i64,
    },
    /// A link was upgraded.
    LinkUpgraded {
        /// Player.
        player: u32,
        /// Link.
        link: String,
        /// DM paid.
        cost: i64,
    },
    /// An employee was seated (AQ-1, AQ-2).
    EmployeePlaced {
        /// Player.
        player: u32,
        /// Office autobahn.
        office: String,
        /// Owner of the employee pushed to the Lobby.
        evicted: Option<u32>,
    },
    /// Employees came back from the Lobby because the reserve was empty (AQ-2).
    EmployeesReturned {
        /// Player.
        player: u32,
        /// How many.
        count: u32,
    },
    /// A city changed value (AQ-3).
    CityValueChanged {
        /// City.
        city: String,
        /// New value.
        value: i64,
    },
    /// A bonus tile was taken.
    BonusTileTaken {
        /// Player.
        player: u32,
        /// Tile.
        tile: String,
    },
    /// Development marker moved.
    Developed {
        /// Player.
        player: u32,
        /// New position.
        position: u32,
    },
    /// DM gained.
    DmGained {
        /// Player.
        player: u32,
        /// Amount.
        amount: i64,
        /// Why.
        reason: String,
    },
    /// A truck was loaded.
    TruckLoaded {
        /// Player.
        player: u32,
        /// Truck.
        truck: u32,
        /// Depot.
        depot: String,
        /// Goods.
        goods: String,
    },
    /// A station was built.
    StationBuilt {
        /// Player.
        player: u32,
        /// Space.
        space: String,
    },
    /// A cell was unlocked.
    CellUnlocked {
        /// Player.
        player: u32,
        /// Cell.
        cell: String,
    },
    /// Cards taken back.
    CardsTakenBack {
        /// Player.
        player: u32,
        /// Count (= DM gained).
        count: u32,
    },
    /// Subsidy taken.
    SubsidyTaken {
        /// Player.
        player: u32,
        /// DM.
        amount: i64,
    },
    /// A truck moved.
    TruckMoved {
        /// Player.
        player: u32,
        /// Truck.
        truck: u32,
        /// Sections entered.
        path: Vec<String>,
    },
    /// A delivery (AQ-5).
    Delivered {
        /// Player.
        player: u32,
        /// Truck.
        truck: u32,
        /// Country.
        country: String,
        /// Goods.
        goods: String,
        /// `goods_icon`, `dm_space` or `none`.
        placement: String,
        /// First pharma delivery there.
        pharma_bonus: bool,
    },
    /// A promotion.
    Promoted {
        /// Player.
        player: u32,
        /// Department.
        department: String,
        /// New floor.
        floor: u32,
    },
    /// An effect that could not be used (autobahn §5.11: lost).
    EffectLost {
        /// Player.
        player: u32,
        /// What.
        effect: String,
    },
    /// A display card was taken.
    DisplayCardTaken {
        /// Player.
        player: u32,
        /// Card.
        card: String,
    },
    /// A display card was discarded.
    DisplayCardDiscarded {
        /// Card.
        card: String,
    },
    /// An action tile was placed.
    ActionTilePlaced {
        /// Player.
        player: u32,
        /// Space.
        space: String,
    },
    /// An era ended (autobahn §6).
    EraEnded {
        /// Era.
        era: u32,
        /// Last builder.
        last_builder: Option<u32>,
    },
    /// Construction budget paid (AQ-6).
    BudgetPaid {
        /// Office autobahn.
        office: String,
        /// Sum of connected city values.
        total: i64,
        /// Share per employee.
        share: i64,
        /// Player.
        player: u32,
        /// DM paid.
        amount: i64,
    },
    /// Route card reward (U-12).
    RouteCardScored {
        /// Player.
        player: u32,
        /// Card.
        card: String,
        /// 1 = joined, 2 = joined by upgraded links.
        tier: u32,
    },
    /// A new era began.
    EraStarted {
        /// Era.
        era: u32,
    },
    /// The final round began (autobahn §7).
    FinalRoundStarted {
        /// Trigger player.
        trigger: u32,
    },
    /// The game ended.
    GameEnded {
        /// Totals per player.
        scores: Vec<i64>,
    },
    /// The Autobot drew its cards (autobahn §8.3).
    AutobotDrew {
        /// Colour card.
        colour: String,
        /// Task card.
        task: String,
    },
    /// The Autobot could not do its task and queued it (§8.3).
    AutobotTaskQueued {
        /// Task.
        task: String,
    },
    /// The Autobot skipped its turn (§8.3).
    AutobotSkipped,
}
