//! Reference data of 1841, loaded from `engine/data/1841/game_constants.json` (a verbatim copy
//! of the rules data `1841-data/game_constants.json`, extracted from tobymao/18xx).
//!
//! Only the parts the implemented rounds need are parsed; every number used by the rules code
//! comes from here, never from a table in the source.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::options::Options;

/// The embedded data file (1841-data.md §11).
pub(crate) const GAME_CONSTANTS: &str = include_str!("../../data/1841/game_constants.json");

/// Player range (1841 §2).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct PlayerRange {
    /// Fewest players.
    pub min: u32,
    /// Most players.
    pub max: u32,
}

/// Parameters of the concession round (1841 §4; 1841-data.md §1, §2).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct ConcessionRoundData {
    /// `nomination_auction` (Version 2) or `blind_bids_then_tie_auctions` (Version 1).
    pub procedure: String,
    /// Smallest opening / sealed bid in L. (L.20).
    pub min_bid: i64,
    /// Smallest raise in L. (L.5).
    pub min_raise: i64,
    /// Concession symbols in concession number order.
    pub concessions_in_order: Vec<String>,
    /// Face value of every concession in L. (L.50).
    pub face_value: i64,
    /// First stock round in which a bank-held concession may be bought (SR 2, 1841 §3.2).
    pub bank_concessions_buyable_from_stock_round: u32,
}

/// One ruleset (`v2`, `v1`, `lite`) of `game_constants.json`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Ruleset {
    /// `v2`, `v1` or `lite`.
    pub ruleset: String,
    /// Player range.
    pub players: PlayerRange,
    /// Total bank in L. before the starting cash is paid out (1841 §1).
    pub bank_cash_total: i64,
    /// Starting cash per player in L., keyed by player count as text (1841 §2).
    pub starting_cash_by_player_count: BTreeMap<String, i64>,
    /// Concession round parameters.
    pub concession_round: ConcessionRoundData,
    /// Phases; the first one's `name` is the phase at the start of the game.
    pub phases: Vec<PhaseData>,
    /// Train roster in depot order (1841 §9.3, §10).
    pub trains: Vec<TrainData>,
    /// Certificate limit per player, keyed by player count as text (1841 §2).
    pub cert_limit_by_player_count: BTreeMap<String, u32>,
    /// Most percent of one corporation a player may control, directly and through the
    /// corporations he controls (1841 §7.3: 60).
    pub max_percent_controlled_by_one_player: u32,
    /// Most percent of one corporation that may lie in the bank pool (1841 §3.5: 50).
    pub bank_pool_max_percent: u32,
    /// Bayard's income in L. at the end of each stock round (1841 §3.2, §5.5: L.20).
    pub bayard_pays_at_end_of_each_stock_round: i64,
    /// Most certificates of other corporations a corporation may hold (1841 §2: 5).
    pub corporation_max_certificates_of_other_corporations: u32,
    /// Historical corporations (1841 §3.3), startable ones and those formed by events.
    pub historical_corporations: Vec<HistoricalCorporationData>,
    /// Non-historical corporations (1841 §3.4).
    pub non_historical_corporations: NonHistoricalData,
    /// Token prices (1841 §5.4).
    pub token_prices: TokenPrices,
    /// Token counts bought at a start (1841 §3.3, §5.4).
    pub token_counts: TokenCounts,
    /// Stock market parameters (1841 §6).
    pub stock_market: StockMarketData,
    /// The start zones (1841 §3.1), zone 0 first.
    pub zones: Vec<ZoneData>,
    /// Named hex sets (1841 §3.1): `MAJOR_CITIES`, `VENETO`,
    /// `austrian_cities_before_phase_4`, `reserved_cities_before_phase_4`,
    /// `reserved_cities_from_phase_4`, …
    pub named_city_sets: BTreeMap<String, NamedCitySet>,
    /// Internal corporations (the Tuscan merge's `Holding`, 1841 §1, §12.3); none in lite.
    #[serde(default)]
    pub internal_corporations: Vec<InternalCorporationData>,
    /// The Tuscan merge (1841 §12.3); `None` in lite.
    #[serde(default)]
    pub tuscan_merge: Option<TuscanMergeData>,
    /// The Ferdinandea split (1841 §12.4).
    pub ferdinandea_split: FerdinandeaSplitData,
    /// Game end (1841 §13).
    pub game_end: GameEndData,
    /// The bankruptcy loan in L. (1841 §14: L.500).
    pub bankruptcy_loan: i64,
}

/// An internal corporation (1841 §1: `Holding`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct InternalCorporationData {
    /// Symbol.
    pub sym: String,
    /// `major` or `minor`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// The Tuscan merge (1841 §12.3).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct TuscanMergeData {
    /// SFLP, SFMA, SSFL.
    pub participants: Vec<String>,
    /// SFLi.
    pub result: String,
}

/// The Ferdinandea split (1841 §12.4).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct FerdinandeaSplitData {
    /// IRSFF.
    pub from: String,
    /// SB and SFL (Version 1: SFV and SFL); the first takes the Veneto tokens.
    pub successors: Vec<String>,
}

/// Game-end parameters (1841 §13).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct GameEndData {
    /// When each trigger ends the game (`immediate`, `current_turn`, `current_or`), by trigger
    /// (`bankrupt`, `bank`, `stock_market`, `offboards`).
    pub triggers: BTreeMap<String, String>,
    /// Price of the end-game cell (L.516).
    pub end_game_price: i64,
    /// Off-board groups by name (`a4`, `A7`, `Trento`, …), each with its hexes carrying track.
    pub offboard_groups: BTreeMap<String, OffboardGroup>,
}

/// One off-board group of the map (1841 §13).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct OffboardGroup {
    /// Its hexes with track.
    pub hexes_with_track: Vec<String>,
}

/// A start zone of 1841 §3.1.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct ZoneData {
    /// Zone index (0 Piedmont, 1 Tuscany, 2 Conservative zone, 3 Lombardy, 4 Veneto).
    pub index: u32,
    /// Zone name.
    pub name: String,
    /// The zone's hexes that are cities on this ruleset's map (a home may be chosen there).
    pub token_cities_on_this_map: Vec<String>,
}

/// A named set of hexes (1841 §3.1).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct NamedCitySet {
    /// Hexes.
    pub hexes: Vec<String>,
}

/// One historical corporation of `game_constants.json` (1841 §3.3).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct HistoricalCorporationData {
    /// Symbol, e.g. `SFTG`.
    pub sym: String,
    /// `major` or `minor`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Certificate sizes in percent, president's certificate first.
    pub shares: Vec<u32>,
    /// The concession that allows starting it (`None` for event-formed corporations).
    pub concession: Option<String>,
    /// The event that forms it (`tuscan_merge`, `ferd_secession`), `None` if startable.
    pub formed_by_event: Option<String>,
    /// Home hexes with their city index (`None` + `city_index_choice` for V2 SFMA).
    #[serde(default)]
    pub homes: Vec<HomeData>,
}

/// One home of a historical corporation.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct HomeData {
    /// Hex, e.g. `H4`.
    pub hex: String,
    /// City index on the printed tile; `None` when the president chooses (V2 SFMA).
    pub city_index: Option<u32>,
    /// The cities the president may choose from (V2 SFMA: 0 and 1).
    #[serde(default)]
    pub city_index_choice: Vec<u32>,
}

/// Non-historical corporations (1841 §3.4).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct NonHistoricalData {
    /// Major symbols.
    pub majors: Vec<String>,
    /// Minor symbols.
    pub minors: Vec<String>,
}

/// Token prices (1841 §5.4).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct TokenPrices {
    /// Price of each token of a historical corporation (L.50).
    pub historical_each: i64,
    /// Price of each token of a non-historical corporation by the distance from its home to
    /// the nearest connected hex: keys `0`, `1`, `2`, `none_within_2` (L.200/100/50/25).
    pub non_historical_each_by_distance_to_connected_hex: BTreeMap<String, i64>,
    /// The second token a transformed major must buy if it has one (1841 §12.2: L.50).
    pub transformation_required_second_token: i64,
    /// Each further token after a transformation (1841 §12.2: L.100).
    pub transformation_extra_token: i64,
    /// Each extra token of a split successor (1841 §12.4: L.50); `None` in Version 1.
    pub ferdinandea_split_extra_token: Option<i64>,
}

/// A min..=max range of token counts.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub struct CountRange {
    /// Fewest.
    pub min: u32,
    /// Most.
    pub max: u32,
}

/// Token counts at a start (1841 §3.3: majors 2–5, minors 1–2, placed home tokens included).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct TokenCounts {
    /// Majors.
    pub major_total_after_start: CountRange,
    /// Minors.
    pub minor_total_after_start: CountRange,
    /// Most tokens a major may own (1841 §3.3: 5).
    pub major_max: u32,
}

/// Stock market parameters (1841 §5.4, §6).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct StockMarketData {
    /// Par prices of majors (68, 100, 144, 216, 340).
    pub par_prices_major: Vec<i64>,
    /// Par prices of minors (68, 100, 144).
    pub par_prices_minor: Vec<i64>,
    /// A minor on this column moves up instead of right (10).
    pub minor_cap_column: u32,
    /// Before phase 8 any corporation on this column moves up instead of right (15).
    pub pre_phase_8_cap_column: u32,
}

/// One phase (1841 §10).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct PhaseData {
    /// Phase name, e.g. `2`.
    pub name: String,
    /// Operating rounds after each stock round in this phase (1841 §8: 1, 2 or 3).
    pub operating_rounds_per_stock_round: u32,
    /// Train type whose first purchase starts the phase (`None` for phase 2, 1841 §10).
    #[serde(default)]
    pub starts_with_first_train: Option<String>,
    /// Train limit per corporation type (1841 §9.6).
    pub train_limit: TrainLimit,
    /// Tile colours that may be laid (1841 §9.1).
    pub tile_colors: Vec<String>,
    /// Off-board revenue column (`white`/`gray`/`black`, 1841 §9.3).
    pub offboard_revenue_column: String,
    /// Province border set active in this phase (1841 §10).
    pub province_border_set_active: String,
    /// Whether track may cross province borders (phase 2: no, 1841 §9.1).
    pub track_may_cross_province_borders: bool,
    /// Tile actions of a major (1841 §9.1).
    pub tile_actions_major: TileActions,
    /// Tile actions of a minor (1841 §9.1: 1).
    pub tile_actions_minor: u32,
}

/// Train limits of a phase (1841 §9.6).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct TrainLimit {
    /// Minors.
    pub minor: u32,
    /// Majors.
    pub major: u32,
}

/// Tile actions of a major in a phase (1841 §9.1): one per base, at most `max`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct TileActions {
    /// One per base (token city).
    pub per_base: bool,
    /// Cap, if any.
    pub max: Option<u32>,
}

/// A train type (1841 §9.3, §10).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct TrainData {
    /// Name (`2` … `8`).
    pub name: String,
    /// Copies.
    pub count: u32,
    /// Price in L.
    pub price: i64,
    /// Rusted when the first train of this type is bought.
    pub rusted_by_first_purchase_of: Option<String>,
    /// Counted stops (cities, off-boards, passes; passes free for 8-trains).
    pub counted_stop_limit: u32,
    /// Phase its first purchase starts.
    pub starts_phase: Option<String>,
    /// Events of its first purchase.
    #[serde(default)]
    pub events_on_first_purchase: Vec<String>,
}

impl Ruleset {
    /// The hexes of the named set `name` (empty if the ruleset has no such set).
    pub fn city_set(&self, name: &str) -> &[String] {
        self.named_city_sets
            .get(name)
            .map_or(&[][..], |s| s.hexes.as_slice())
    }

    /// The zone (1841 §3.1) whose cities include `hex`.
    pub fn zone_of(&self, hex: &str) -> Option<u32> {
        self.zones
            .iter()
            .find(|z| z.token_cities_on_this_map.iter().any(|h| h == hex))
            .map(|z| z.index)
    }

    /// Certificate limit per player for `players` seats (1841 §2), `None` outside the range.
    pub fn cert_limit(&self, players: u32) -> Option<u32> {
        // (Keys are player counts as text: the one written as `players` in decimal is found
        // without formatting it.)
        let canonical = |k: &str| {
            k.bytes().all(|b| b.is_ascii_digit())
                && !(k.len() > 1 && k.starts_with('0'))
                && k.parse::<u32>().ok() == Some(players)
        };
        self.cert_limit_by_player_count
            .iter()
            .find(|(k, _)| canonical(k))
            .map(|(_, v)| *v)
    }

    /// The train type `name`, if the ruleset has it.
    pub fn train(&self, name: &str) -> Option<&TrainData> {
        self.trains.iter().find(|t| t.name == name)
    }

    /// The phase named `name`, if the ruleset has it.
    pub fn phase(&self, name: &str) -> Option<&PhaseData> {
        self.phases.iter().find(|p| p.name == name)
    }

    /// Starting cash per player in L. for `players` seats, `None` outside the range (1841 §2).
    pub fn starting_cash(&self, players: u32) -> Option<i64> {
        self.starting_cash_by_player_count
            .get(&players.to_string())
            .copied()
    }
}

/// The stock market grid (1841 §6), loaded from `engine/data/1841/market.json` (verbatim copy
/// of `1841-data/market.json`).
pub(crate) const MARKET: &str = include_str!("../../data/1841/market.json");

/// One cell of the stock market.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct MarketCellData {
    /// Price per unit certificate in L.
    pub price: i64,
    /// Cell types: `par`, `par_1`, `max_price`, `max_price_1`, `endgame`.
    #[serde(default)]
    pub types: Vec<String>,
}

/// The stock market grid: `rows[row][col]`, rows of different lengths (1841 §6).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct MarketData {
    /// Rows, top (row 0) first.
    pub rows: Vec<Vec<MarketCellData>>,
}

/// The stock market grid (the same for every ruleset, 1841-data.md §6).
pub fn market() -> &'static MarketData {
    static DATA: OnceLock<MarketData> = OnceLock::new();
    DATA.get_or_init(|| {
        // Compiled in and checked by `data_file_parses`; a failure is a build defect.
        serde_json::from_str::<MarketData>(MARKET)
            .unwrap_or_else(|e| panic!("engine/data/1841/market.json is invalid: {e}"))
    })
}

#[derive(Deserialize)]
struct Rulesets {
    v2: Ruleset,
    v1: Ruleset,
    lite: Ruleset,
}

#[derive(Deserialize)]
struct GameConstants {
    rulesets: Rulesets,
}

fn rulesets() -> &'static Rulesets {
    static DATA: OnceLock<Rulesets> = OnceLock::new();
    DATA.get_or_init(|| {
        // The file is compiled in and checked by the test `data_file_parses`; a failure here
        // is a build defect, not an input error.
        serde_json::from_str::<GameConstants>(GAME_CONSTANTS)
            .map(|g| g.rulesets)
            .unwrap_or_else(|e| panic!("engine/data/1841/game_constants.json is invalid: {e}"))
    })
}

/// The Version 2 full ruleset (default).
pub fn v2() -> &'static Ruleset {
    &rulesets().v2
}

/// The Version 1 full ruleset.
pub fn v1() -> &'static Ruleset {
    &rulesets().v1
}

/// The lite ruleset.
pub fn lite() -> &'static Ruleset {
    &rulesets().lite
}

/// The ruleset whose map, roster, bank, cash and concessions apply to `options`:
/// `lite` whenever `lite` is set (also with `version_1`, whose only concession-round
/// difference is the procedure, see [`Options::sealed_bids`]), else `v1` or `v2`.
pub fn ruleset(options: &Options) -> &'static Ruleset {
    if options.lite {
        lite()
    } else if options.version_1 {
        v1()
    } else {
        v2()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_file_parses() {
        assert_eq!(v2().ruleset, "v2");
        assert_eq!(v1().ruleset, "v1");
        assert_eq!(lite().ruleset, "lite");
        assert_eq!(
            v1().concession_round.procedure,
            "blind_bids_then_tie_auctions"
        );
        assert_eq!(v2().concession_round.procedure, "nomination_auction");
        assert_eq!(v2().phases[0].name, "2");
        assert_eq!(v2().phases[0].operating_rounds_per_stock_round, 1);
        assert_eq!(v2().cert_limit(4), Some(16));
        assert_eq!(lite().cert_limit(6), Some(11));
        assert_eq!(market().rows.len(), 13);
        assert_eq!(market().rows[3][5].price, 100);
    }
}
