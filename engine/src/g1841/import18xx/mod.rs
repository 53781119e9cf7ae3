//! Reader for 18xx.games game exports (the JSON the site serves for a game), used to replay
//! recorded games against this engine. Pure: takes the JSON text, returns typed data; no I/O.
//!
//! Replay semantics (18xx `filtered_actions`, `1841-fixtures/README.md`):
//! * `undo` without `action_id` removes the last non-message action; with `action_id: N` it
//!   removes every non-message action after the one whose id is N (`0` = all of them);
//! * `redo` restores what the most recent `undo` removed, only if no other action happened
//!   since (several `redo`s restore several `undo`s, newest first);
//! * `message` actions are never undone and have no game effect (they are dropped);
//! * after an effective action, the elements of its `auto_actions` follow it, in order.
//!
//! Player ids are mapped to seats by the order of the top-level `players` array.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use smallvec::SmallVec;

use super::G1841;
use super::action::{Action, OddShareChoice, Route, Stop};
use super::corporation::controller;
use super::data;
use super::map;
use super::market;
use super::operating_round;
use super::options::Options;
use super::share_ledger::{Ledger, TokenSlots, reserved_slots, waiting_homes};
use super::state::{
    CorporateEvent, MergerStage, OperatingStep, PurchaseItem, Round, ShareOwner, SplitStage, State,
};
use super::token_slots::retiled_hexes;
use crate::{Game, Outcome, Rejection, Seat};

mod choose;

/// Why an export could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The text is not JSON: cut short (`truncated`) or malformed at `line`:`column`
    /// (1-based, as serde_json counts them).
    #[error(
        "not valid JSON{}: {message}",
        if *truncated { " (truncated: the text ends early)" } else { "" }
    )]
    Json {
        /// What the JSON parser says, with the position.
        message: String,
        /// Line of the error, from 1.
        line: u64,
        /// Column of the error, from 1.
        column: u64,
        /// The text ends in the middle of a value (a cut file).
        truncated: bool,
    },
    /// A required field is missing or has the wrong type.
    #[error("missing or ill-typed field `{0}`")]
    Field(String),
    /// An option symbol 1841 does not have.
    #[error("unknown optional rule `{0}`")]
    UnknownOption(String),
    /// An `undo` names an action id that is not among the effective actions.
    #[error("undo to action id {0}, which is not an effective action")]
    UndoTargetMissing(i64),
    /// An action's fields do not fit its type.
    #[error("action {id:?}: {reason}")]
    BadAction {
        /// The action id, if it has one.
        id: Option<i64>,
        /// The field at fault (`shares`, `city`, `routes[].nodes`, `entity`).
        field: String,
        /// What is wrong.
        reason: String,
    },
}

impl ImportError {
    fn json(e: &serde_json::Error) -> Self {
        Self::Json {
            message: e.to_string(),
            line: e.line() as u64,
            column: e.column() as u64,
            truncated: e.is_eof(),
        }
    }
}

/// The 18xx.games identifier notation, shared by the reader ([`parse_export`]) and the writer
/// ([`super::export18xx`]): share `SFTG_3` (certificate index 3, `_0` = president's
/// certificate), tile copy `202-0`, city `R14-0-0` (printed tile `<hex>-0`, city 0) or
/// `208-0-1` (laid tile copy `208-0`, city 1), route node `F16-1` (hex, node index), share price
/// `100,3,5` (price, row, column). Train ids (`2-0` … `8-6`) are this engine's ids already.
pub mod notation {
    use std::collections::BTreeMap;
    use std::sync::OnceLock;

    use serde_json::Value;

    use crate::g1841::options::Options;

    /// `SFTG_3`: certificate `index` of `corporation`.
    pub fn share_id(corporation: &str, index: usize) -> String {
        format!("{corporation}_{index}")
    }

    /// `SFTG_3` → (`SFTG`, 3); `None` when not `<CORP>_<n>`.
    pub fn parse_share_id(id: &str) -> Option<(&str, usize)> {
        let (sym, index) = split_last(id, b'_')?;
        Some((sym, index.parse().ok()?))
    }

    /// `202-0`: copy `copy` of tile `tile`.
    pub fn tile_id(tile: &str, copy: u32) -> String {
        format!("{tile}-{copy}")
    }

    /// The tile number of a tile copy id: `202-0` → `202`.
    pub fn tile_number(id: &str) -> &str {
        before_first(id, b'-')
    }

    /// City `index` of the printed tile of `hex`: `R14-0-0`, `K11-6-0` (see
    /// [`printed_tile_id`]).
    pub fn printed_city_id(options: &Options, hex: &str, index: u32) -> String {
        format!("{}-{index}", printed_tile_id(options, hex))
    }

    /// The 18xx id of the tile printed on `hex`: `<hex>-<n>`, where 18xx numbers the printed
    /// tiles of one definition (colour, label, revenue centres, track, terrain, impassable
    /// sides) in map order: Parma `K11-6` is the 7th plain white one-city hex (`D16`, `E7`,
    /// `H8`, `H10`, `H12`, `J6`, `K11`, …), Firenze `R14-0`. This reproduces every printed
    /// city id of the two recorded games; `<hex>-0` for a hex not on the map.
    pub fn printed_tile_id(options: &Options, hex: &str) -> String {
        let n = printed_indices(options).get(hex).copied().unwrap_or(0);
        format!("{hex}-{n}")
    }

    fn printed_indices(options: &Options) -> &'static BTreeMap<String, u32> {
        static V2: OnceLock<BTreeMap<String, u32>> = OnceLock::new();
        static V1: OnceLock<BTreeMap<String, u32>> = OnceLock::new();
        static LITE: OnceLock<BTreeMap<String, u32>> = OnceLock::new();
        if options.lite {
            LITE.get_or_init(|| indices(include_str!("../../../data/1841/map_lite.json")))
        } else if options.version_1 {
            V1.get_or_init(|| indices(include_str!("../../../data/1841/map_v1.json")))
        } else {
            V2.get_or_init(|| indices(include_str!("../../../data/1841/map_v2.json")))
        }
    }

    fn indices(map: &str) -> BTreeMap<String, u32> {
        let root: Value = serde_json::from_str(map).unwrap_or(Value::Null);
        let mut seen: BTreeMap<String, u32> = BTreeMap::new();
        let mut out = BTreeMap::new();
        for hex in root["hexes"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            let definition: Vec<&Value> = [
                "color",
                "label",
                "nodes",
                "paths",
                "terrain_cost",
                "impassable_edges",
                "icons",
            ]
            .iter()
            .map(|k| &hex[*k])
            .collect();
            let key = serde_json::to_string(&definition).unwrap_or_default();
            let n = seen.entry(key).or_insert(0);
            if let Some(id) = hex["id"].as_str() {
                out.insert(id.to_string(), *n);
            }
            *n += 1;
        }
        out
    }

    /// City `index` of a laid tile copy: `208-0-1`.
    pub fn laid_city_id(tile_copy: &str, index: u32) -> String {
        format!("{tile_copy}-{index}")
    }

    /// A city id as (first part: a hex or a tile number, the tile id `R14-0` / `208-0`, city
    /// index); `None` when not `<a>-<b>-<n>`.
    pub fn parse_city_id(id: &str) -> Option<(&str, &str, u32)> {
        let (tile, index) = split_last(id, b'-')?;
        let first = before_first(tile, b'-');
        Some((first, tile, index.parse().ok()?))
    }

    /// `F16-1`: node `node` of `hex`.
    pub fn node_id(hex: &str, node: u32) -> String {
        format!("{hex}-{node}")
    }

    /// `F16-1` → (`F16`, 1).
    pub fn parse_node_id(id: &str) -> Option<(&str, u32)> {
        let (hex, node) = split_last(id, b'-')?;
        Some((hex, node.parse().ok()?))
    }

    /// `100,3,5`: a market cell with its price.
    pub fn share_price(price: i64, row: u32, col: u32) -> String {
        format!("{price},{row},{col}")
    }

    /// The price of a share price text (`100,3,5` → 100).
    pub fn parse_share_price(text: &str) -> Option<i64> {
        before_first(text, b',').trim().parse().ok()
    }

    /// `text` split around its last `separator`, an ASCII character, as `str::rsplit_once`
    /// splits it. Found by a byte search, which finds the same place (no byte of another
    /// character's UTF-8 encoding is ASCII) without the set-up of the general character
    /// search, most of the cost on ids this short.
    fn split_last(text: &str, separator: u8) -> Option<(&str, &str)> {
        let i = text.bytes().rposition(|b| b == separator)?;
        Some((text.get(..i)?, text.get(i + 1..)?))
    }

    /// The part of `text` before its first `separator`, an ASCII character (all of it without
    /// one), as `text.split(separator).next()` gives it (see [`split_last`]).
    fn before_first(text: &str, separator: u8) -> &str {
        match text.bytes().position(|b| b == separator) {
            Some(i) => text.get(..i).unwrap_or(text),
            None => text,
        }
    }

    #[cfg(test)]
    mod tests {
        /// The byte searches split as the `str` methods do, non-ASCII texts included.
        #[test]
        fn s18_byte_searches_split_as_the_str_methods() {
            for text in [
                "",
                "-",
                "--",
                "a-",
                "-a",
                "R14-0-0",
                "208-0-1",
                "F16-1",
                "SFTG_3",
                "SF_T_3",
                "é-ü_€",
                "€-",
                "-€",
                "100,3,5",
                ",",
                "a,b",
                "ü",
            ] {
                for (sep, c) in [(b'-', '-'), (b'_', '_'), (b',', ',')] {
                    assert_eq!(super::split_last(text, sep), text.rsplit_once(c), "{text}");
                    assert_eq!(
                        super::before_first(text, sep),
                        text.split(c).next().unwrap_or_default(),
                        "{text}"
                    );
                }
            }
        }
    }
}

/// One player of the export, in seat order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportPlayer {
    /// The 18xx.games player id, as text (`"512"`).
    pub id: String,
    /// Display name.
    pub name: String,
}

/// Who performed an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entity {
    /// A player, by seat.
    Player(Seat),
    /// A corporation, by symbol (`SFTG`).
    Corporation(String),
    /// Anything else (missing entity, unknown player id), as text.
    Other(String),
}

/// One effective action of the export.
///
/// The action as recorded is [`ImportedAction::raw`]; the mapping reads its fields from a
/// typed copy made when the export is read (tamper with them through
/// [`ImportedAction::set_raw`]).
#[derive(Clone)]
pub struct ImportedAction {
    /// The action id (`None` for generated `auto_actions` without one).
    pub id: Option<i64>,
    /// The 18xx action type (`bid`, `pass`, `par`, …).
    pub kind: String,
    /// Who acted.
    pub entity: Entity,
    /// Whether it came from the `auto_actions` of the previous action.
    pub auto: bool,
    /// The recorded fields the mapping reads.
    fields: Fields,
    /// Where the action as recorded is kept.
    recorded: Recorded,
    /// For `buy_shares`: whether the first certificate bought (`shares[0]`) lay in the bank
    /// pool, by following every recorded share id into and out of the pool from the start
    /// (`sell_shares` puts the ids listed in the pool, `buy_shares` takes them out). `None`
    /// for other actions.
    pub from_pool: Option<bool>,
    /// For `place_token`, `remove_token` and `buy_token` on a laid tile (`city`
    /// `<tile>-<copy>-<i>`): the hex where the record last laid that tile copy (copies move
    /// when a tile is replaced). `None` otherwise.
    pub tile_hex: Option<String>,
    /// For a player's `buy_shares` in a game with `p2p_purchases` (1841 §15.3): the seat of
    /// the player who held its first share (`shares[0]`) according to the record, when it
    /// was another player — a purchase from that player. `None` otherwise.
    pub from_player: Option<Seat>,
    /// For a corporation's `sell_shares`: the corporation that held its first share
    /// (`shares[0]`) according to the record (18xx.games records an emergency sale in the
    /// train step with the operating corporation as entity and the bundle's owner as seller,
    /// 1841 §14). `None` otherwise, or when the record does not tell.
    pub sold_by: Option<String>,
}

impl std::fmt::Debug for ImportedAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImportedAction")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("entity", &self.entity)
            .field("auto", &self.auto)
            .field("raw", self.raw())
            .field("from_pool", &self.from_pool)
            .field("tile_hex", &self.tile_hex)
            .field("from_player", &self.from_player)
            .field("sold_by", &self.sold_by)
            .finish()
    }
}

/// Equal when every public field and the recorded action are (the fields the mapping reads
/// come from the recorded action).
impl PartialEq for ImportedAction {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.kind == other.kind
            && self.entity == other.entity
            && self.auto == other.auto
            && self.from_pool == other.from_pool
            && self.tile_hex == other.tile_hex
            && self.from_player == other.from_player
            && self.sold_by == other.sold_by
            && self.recorded == other.recorded
    }
}

/// A parsed export.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    /// 18xx.games game id.
    pub id: Option<i64>,
    /// Title, `1841` for this game.
    pub title: String,
    /// Players in seat order.
    pub players: Vec<ExportPlayer>,
    /// `settings.optional_rules` as recorded.
    pub optional_rules: Vec<String>,
    /// Referee's FAQ options set explicitly (`settings.referee_faq_options`, written by
    /// [`super::export18xx`]; 18xx.games exports have none): name → on.
    pub faq_options: Vec<(String, bool)>,
    /// Effective actions after undo/redo filtering, with `auto_actions` flattened in.
    pub actions: Vec<ImportedAction>,
    /// The recorded final values, 18xx player id → value in L. (`result`; empty while the
    /// recorded game is running).
    pub result: BTreeMap<String, i64>,
    /// The recorded `game_end_reason` (`bank`, `stock_market`, `bankrupt`, `offboards`).
    pub game_end_reason: Option<String>,
    /// Written by Referee's own exporter ([`super::export18xx`], top-level `exported_by`
    /// starting with `referee`): its share ids are this engine's certificate indices, so a
    /// purchase is from the pool exactly when the named certificate lies there
    /// ([`ImportedAction::from_pool`] is left `None`).
    pub referee_export: bool,
}

impl Export {
    /// The 1841 options of the game (`settings.optional_rules`, 1841 §0.2), with the FAQ
    /// options set explicitly (`settings.referee_faq_options`). A game 18xx.games played (no
    /// `exported_by` of Referee) followed none of the FAQ rulings (18xx.games implements
    /// none, `1841-faq.md` §7): its FAQ options are off, whatever the version's default, so a
    /// Version 1 game replays under the rules it was played by (`version_1+sfli-7p-s80003`:
    /// with `price_drops_lowest_first` on by the Version 1 default, Player 4's second sale of
    /// SFTN at id 80 was paid L.90 a share where 18xx paid L.78, after the first sale's drop,
    /// and his start of RATF at id 81 kept L.12 too many).
    ///
    /// Errors: [`ImportError::UnknownOption`] for a symbol 1841 does not have.
    pub fn options(&self) -> Result<Options, ImportError> {
        let unknown = |e| match e {
            crate::SetupError::UnknownOption(s) => ImportError::UnknownOption(s),
            other => ImportError::UnknownOption(other.to_string()),
        };
        let mut options = Options::from_optional_rules(&self.optional_rules).map_err(unknown)?;
        if !self.referee_export {
            // Only where the version's default is on (Version 1): elsewhere the option is off
            // already, and leaving it unset keeps the state NewGame makes from the same
            // optional rules.
            for o in &super::options::FAQ_OPTIONS {
                if options.faq_option(o.name) == Some(true) {
                    options.set(o.name, "false").map_err(unknown)?;
                }
            }
        }
        for (name, on) in &self.faq_options {
            if !super::options::FAQ_OPTIONS.iter().any(|o| o.name == name) {
                return Err(ImportError::UnknownOption(name.clone()));
            }
            options
                .set(name, if *on { "true" } else { "false" })
                .map_err(unknown)?;
        }
        Ok(options)
    }

    /// The seat of an 18xx player id, `None` if the id is not a player of this game.
    pub fn seat_of(&self, player_id: &str) -> Option<Seat> {
        seat_of(&self.players, player_id)
    }
}

fn seat_of(players: &[ExportPlayer], player_id: &str) -> Option<Seat> {
    players
        .iter()
        .position(|p| p.id == player_id)
        .and_then(|i| Seat::try_from(i).ok())
}

impl ImportedAction {
    /// The action as recorded in the export (with its `auto_actions`; for an action of
    /// `auto_actions`, that element), or as last given to [`ImportedAction::set_raw`].
    pub fn raw(&self) -> &Value {
        self.recorded.value()
    }

    /// Replaces the recorded action by `raw`: the mapping reads its fields (`price`,
    /// `shares`, `routes`, …) from `raw` from now on. [`ImportedAction::id`], `kind`,
    /// `entity`, `auto` and the record-derived marks (`from_pool`, `tile_hex`,
    /// `from_player`) are left as they are.
    pub fn set_raw(&mut self, raw: Value) {
        self.fields = Record::from_value(&raw).fields;
        self.fields.take_auto_actions();
        self.recorded = Recorded::Value(Arc::new(raw));
    }

    /// The recorded field `name`, as [`Value::get`] on the recorded action would give it,
    /// for the fields the mapping reads (`None` for the others).
    fn field(&self, name: &str) -> Option<&Value> {
        self.fields.get(name)
    }

    /// A whole amount of lire in field `field` (`price`), told apart: missing, or present but
    /// not a whole number within ±10^15 (a tampered or corrupt export).
    fn amount(&self, field: &str) -> Result<i64, ImportError> {
        let bad = |reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        match self.field(field) {
            None | Some(Value::Null) => Err(bad(format!("{} without `{field}`", self.kind))),
            Some(v) => as_whole_number(v).ok_or_else(|| {
                let mut text = v.to_string();
                if text.len() > 40 {
                    text.truncate(40);
                    text.push('…');
                }
                bad(format!(
                    "{}'s `{field}` is {text}, not a whole number of lire (at most 10^15)",
                    self.kind
                ))
            }),
        }
    }
}

impl ImportedAction {
    /// The action as a concession-round action of this engine, with the acting seat:
    /// `bid` → [`Action::Bid`] (`company`, `price`), `pass` → [`Action::Pass`],
    /// `blind_bid` → [`Action::BlindBid`] (`bids`). `Ok(None)` for other types or
    /// non-player entities.
    ///
    /// Errors: [`ImportError::BadAction`] when a `bid`/`blind_bid` lacks its fields.
    pub fn concession_round_action(&self) -> Result<Option<(Seat, Action)>, ImportError> {
        let Entity::Player(seat) = self.entity else {
            return Ok(None);
        };
        let bad = |field: &str, reason: &str| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason: reason.to_string(),
        };
        let action = match self.kind.as_str() {
            "pass" => Action::Pass,
            "bid" => Action::Bid {
                concession: self
                    .field("company")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("company", "bid without `company`"))?
                    .to_string(),
                price: self.amount("price")?,
            },
            "blind_bid" => Action::BlindBid {
                amounts: self
                    .field("bids")
                    .and_then(Value::as_array)
                    .ok_or_else(|| bad("bids", "blind_bid without `bids`"))?
                    .iter()
                    .map(|v| {
                        as_whole_number(v)
                            .ok_or_else(|| bad("bids", "non-integer amount in `bids`"))
                    })
                    .collect::<Result<_, _>>()?,
            },
            _ => return Ok(None),
        };
        Ok(Some((seat, action)))
    }
}

impl ImportedAction {
    /// The action as an action of this engine with the acting seat, in the context of
    /// `state` (the state before the action). Mapping (one place for all of it):
    /// * `bid`, `blind_bid`, player `pass` — as [`ImportedAction::concession_round_action`];
    /// * `par` (`corporation`, `share_price` `"price,row,col"`) → [`Action::Par`];
    /// * `buy_shares` (`shares` `["SFTG_3"]`, `percent`) → [`Action::BuyShares`], from the
    ///   pool when the record put share `SFTG_3` there ([`ImportedAction::from_pool`]; for a
    ///   hand-made action without it, when certificate 3 of SFTG lies in the pool in `state`);
    /// * `sell_shares` (`shares`, `percent`) → [`Action::SellShares`];
    /// * `choose` by a corporation (`choice` = total token count) → [`Action::BuyTokens`];
    /// * `place_token` by a corporation (`city` `"R14-0-0"` = hex R14, city 0) →
    ///   [`Action::PlaceToken`];
    /// * `buy_company` (`company`) → [`Action::BuyConcession`];
    /// * with `p2p_purchases`, a purchase from another player → the buyer's
    ///   [`Action::OfferPurchase`] only; [`ImportedAction::to_actions`] adds the seller's
    ///   acceptance;
    /// * a corporation's `pass` → [`Action::Pass`].
    ///
    /// A corporation acts through the player at the end of its chain of control (1841 §7.2).
    /// * `lay_tile` (`hex`, `tile` `<number>-<copy>`, `rotation`) → [`Action::LayTile`];
    /// * `buy_train` (`train` id, `price`) → [`Action::BuyTrain`], the seller found from the
    ///   state (a corporation owning that id, the pool, else the depot);
    /// * a corporation's `buy_shares` → [`Action::BuyShares`] (corporate purchase, 1841 §9.7).
    ///
    /// `Ok(None)` for action types not mapped yet (`run_routes`, `dividend`, …).
    ///
    /// Errors: [`ImportError::BadAction`] for missing or ill-formed fields, or a corporation
    /// entity without a controlling player.
    pub fn to_action(&self, state: &State) -> Result<Option<(Seat, Action)>, ImportError> {
        if self.player_purchase(state)?.is_some() {
            return Ok(self.to_actions(state)?.into_iter().next());
        }
        let bad = |field: &str, reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        let str_field = |name: &str| {
            self.field(name)
                .and_then(Value::as_str)
                .ok_or_else(|| bad(name, format!("{} without `{name}`", self.kind)))
        };
        let seat = match &self.entity {
            Entity::Player(s) => *s,
            // A discard is decided by `discard_seat`: the controller, or for a merger's new
            // corporation without a president yet the initiator's controller (1841 §12.1).
            Entity::Corporation(sym) if self.kind == "discard_train" => {
                operating_round::discard_seat(state, sym).ok_or_else(|| {
                    bad(
                        "entity",
                        format!("corporation {sym} has no controlling player"),
                    )
                })?
            }
            Entity::Corporation(sym) => controller(state, sym).ok_or_else(|| {
                bad(
                    "entity",
                    format!("corporation {sym} has no controlling player"),
                )
            })?,
            Entity::Other(e) => return Err(bad("entity", format!("unknown entity `{e}`"))),
        };
        let first_share = || -> Result<(String, usize), ImportError> {
            let id = self
                .fields
                .first_share()
                .ok_or_else(|| bad("shares", format!("{} without `shares`", self.kind)))?;
            let (sym, index) = notation::parse_share_id(id)
                .ok_or_else(|| bad("shares", format!("share id `{id}` is not `<CORP>_<n>`")))?;
            Ok((sym.to_string(), index))
        };
        let percent = || {
            self.field("percent")
                .and_then(Value::as_u64)
                .and_then(|p| u32::try_from(p).ok())
                .ok_or_else(|| bad("percent", format!("{} without `percent`", self.kind)))
        };
        let action = match self.kind.as_str() {
            "bid" | "blind_bid" => return self.concession_round_action(),
            "pass" => Action::Pass,
            "par" => {
                let price_text = str_field("share_price")?;
                let price = notation::parse_share_price(price_text).ok_or_else(|| {
                    bad(
                        "share_price",
                        format!("share_price `{price_text}` is not `price,row,col`"),
                    )
                })?;
                Action::Par {
                    corporation: str_field("corporation")?.to_string(),
                    price,
                }
            }
            "buy_shares" => {
                let (sym, index) = first_share()?;
                let from_pool = self.from_pool.unwrap_or_else(|| {
                    state
                        .corporation(&sym)
                        .and_then(|c| c.certificates.get(index))
                        .is_some_and(|c| c.owner == ShareOwner::Pool)
                }) || only_the_pool_has(state, &sym, index);
                Action::BuyShares {
                    corporation: sym,
                    from_pool,
                    percent: percent()?,
                }
            }
            // 1841 §14: sales during emergency money raising, by a corporation of the chain or
            // by the controlling player.
            // 18xx.games' train step records every corporate sale with the operating
            // corporation as entity, the seller being the owner of the bundle
            // (`G1841::Step::BuyTrain#process_sell_shares`: `action.bundle.owner`); a sale
            // recorded by the seller itself reads the same.
            //
            // The seller: the corporation that held the first share by the record
            // ([`ImportedAction::sold_by`]), else the holder of this engine's certificate
            // with that index (a corporation's own treasury shares: the corporation itself;
            // this engine's indices are 18xx's ids in its own exports), else the only
            // corporation that may sell that much of it now — whichever the rules list as a
            // sale of the seat now.
            "sell_shares"
                if operating_round::in_emergency(state)
                    || operating_round::events::transform::in_token_emergency(state) =>
            {
                let (sym, index) = first_share()?;
                let percent = percent()?;
                let seller = match &self.entity {
                    Entity::Corporation(entity) => {
                        let by_index = match state
                            .corporation(&sym)
                            .and_then(|c| c.certificates.get(index))
                            .map(|c| &c.owner)
                        {
                            Some(ShareOwner::Corporation(owner)) => owner.clone(),
                            // A corporation's own treasury (IPO) shares, sold by it.
                            Some(ShareOwner::Ipo) => sym.clone(),
                            _ => entity.clone(),
                        };
                        let sellers: Vec<String> = G1841::legal_actions(state, seat)
                            .into_iter()
                            .filter_map(|a| match a {
                                Action::EmergencySell {
                                    seller: Some(s),
                                    corporation,
                                    percent: p,
                                } if corporation == sym && p == percent => Some(s),
                                _ => None,
                            })
                            .collect();
                        let listed = |s: &String| sellers.contains(s);
                        Some(match &self.sold_by {
                            Some(owner) if listed(owner) => owner.clone(),
                            _ if listed(&by_index) => by_index,
                            _ if sellers.len() == 1 => sellers[0].clone(),
                            _ => by_index,
                        })
                    }
                    _ => None,
                };
                Action::EmergencySell {
                    seller,
                    corporation: sym,
                    percent,
                }
            }
            "sell_shares" => Action::SellShares {
                corporation: first_share()?.0,
                percent: percent()?,
            },
            "bankrupt" => Action::DeclareBankruptcy {
                loan: self.field("option").and_then(as_whole_number) == Some(1),
            },
            "choose" => self.choose_action(state)?,
            "merge" => {
                let corporation = str_field("corporation")?.to_string();
                match state.round {
                    Round::OperatingRound(ref r) => match (r.event.as_deref(), r.step) {
                        (Some(CorporateEvent::Merger(_)), _) => {
                            Action::FormCorporation { corporation }
                        }
                        (None, OperatingStep::Transform) => Action::Transform { corporation },
                        _ => Action::ProposeMerger {
                            partner: corporation,
                        },
                    },
                    _ => return Err(bad("type", "merge outside an operating round".into())),
                }
            }
            "remove_token" => {
                let city = str_field("city")?;
                let (hex, index) = self.city_of(state, city)?;
                Action::RemoveToken { hex, city: index }
            }
            "place_token" => {
                let city = str_field("city")?;
                let (first, _, index) = notation::parse_city_id(city).ok_or_else(|| {
                    bad(
                        "city",
                        format!("city `{city}` is not `<tile>-<copy>-<city>`"),
                    )
                })?;
                // 18xx names cities `<hex>-0-<i>` on printed tiles and `<tile>-<copy>-<i>` on
                // laid tiles: find the hex carrying that tile among the legal placements.
                let hex = if map::map(&state.options).hexes.contains_key(first) {
                    first.to_string()
                } else if let Some(h) = &self.tile_hex {
                    h.clone()
                } else {
                    operating_round::legal_tokens(state)
                        .into_iter()
                        .find(|t| {
                            state
                                .operations
                                .tiles
                                .get(&t.hex)
                                .is_some_and(|p| p.tile == first)
                        })
                        .map(|t| t.hex)
                        .ok_or_else(|| {
                            bad("city", format!("no placement on tile of city `{city}`"))
                        })?
                };
                Action::PlaceToken { hex, city: index }
            }
            "discard_train" => Action::DiscardTrain {
                corporation: match &self.entity {
                    Entity::Corporation(sym) => sym.clone(),
                    _ => return Err(bad("entity", "discard_train by a non-corporation".into())),
                },
                train: str_field("train")?.to_string(),
            },
            "buy_company" => Action::BuyConcession {
                concession: str_field("company")?.to_string(),
            },
            "lay_tile" => {
                let tile = str_field("tile")?;
                Action::LayTile {
                    hex: str_field("hex")?.to_string(),
                    tile: notation::tile_number(tile).to_string(),
                    rotation: self
                        .field("rotation")
                        .and_then(as_whole_number)
                        .and_then(|r| u32::try_from(r).ok())
                        .ok_or_else(|| bad("rotation", "lay_tile without `rotation`".into()))?,
                }
            }
            "buy_train" => {
                let train = str_field("train")?.to_string();
                let ops = &state.operations;
                let from = if ops.pool_trains.contains(&train) {
                    "pool".to_string()
                } else if let Some((owner, _)) =
                    ops.trains.iter().find(|(_, list)| list.contains(&train))
                {
                    owner.clone()
                } else {
                    "depot".to_string()
                };
                Action::BuyTrain {
                    train,
                    from,
                    price: self.amount("price")?,
                }
            }
            "run_routes" => {
                let routes = self
                    .fields
                    .routes()
                    .ok_or_else(|| bad("routes", "run_routes without `routes`".into()))?;
                let mut out = Vec::new();
                for r in routes {
                    let train = r
                        .train
                        .0
                        .as_ref()
                        .ok_or_else(|| bad("routes[].train", "route without `train`".into()))?
                        .as_str()
                        .to_owned();
                    let stops: Vec<Stop> = r
                        .nodes
                        .0
                        .as_ref()
                        .ok_or_else(|| bad("routes[].nodes", "route without `nodes`".into()))?
                        .iter()
                        .map(|n| {
                            let t = n.0.as_deref().unwrap_or_default();
                            let (hex, node) = notation::parse_node_id(t).ok_or_else(|| {
                                bad("routes[].nodes", format!("node `{t}` is not `<hex>-<n>`"))
                            })?;
                            Ok(Stop {
                                hex: hex.to_string(),
                                node,
                            })
                        })
                        .collect::<Result<Vec<_>, ImportError>>()?;
                    let mut connections: Vec<Vec<String>> = r
                        .connections
                        .0
                        .as_ref()
                        .ok_or_else(|| {
                            bad("routes[].connections", "route without `connections`".into())
                        })?
                        .iter()
                        .map(|c| {
                            c.iter()
                                // `as_str` first: `CompactString::to_string` goes through
                                // `Display` (a formatter per hex).
                                .map(|h| h.as_str().to_owned())
                                .collect()
                        })
                        .collect();
                    let stops = in_route_order(stops, &connections);
                    // Orient every chain from its stop to the next one.
                    for (i, chain) in connections.iter_mut().enumerate() {
                        if let (Some(a), Some(b)) = (stops.get(i), stops.get(i + 1))
                            && chain.first() != Some(&a.hex)
                            && chain.first() == Some(&b.hex)
                        {
                            chain.reverse();
                        }
                    }
                    out.push(Route {
                        train,
                        stops,
                        connections,
                    });
                }
                Action::RunRoutes { routes: out }
            }
            "dividend" => Action::Dividend {
                payout: str_field("kind")? == "payout",
            },
            // 1841 §9.5 token acquisition: the token in `city` of another corporation; with
            // several, `slot` counts them in the ruleset's corporation order
            // ([`token_holders`]; 18xx's own slot numbers are not modelled).
            "buy_token" => {
                let city = str_field("city")?;
                let (hex, index) = self.city_of(state, city)?;
                let buyer = operating_round::current(state);
                let holders: Vec<String> = token_holders(state, &hex, index)
                    .into_iter()
                    .filter(|c| Some(c) != buyer.as_ref())
                    .collect();
                let slot = self
                    .field("slot")
                    .and_then(as_whole_number)
                    .and_then(|s| usize::try_from(s).ok())
                    .unwrap_or(0);
                // A Referee export names the seller beside 18xx's slot
                // ([`super::export18xx::REFEREE_SELLER`]).
                let named = self
                    .field(super::export18xx::REFEREE_SELLER)
                    .and_then(Value::as_str)
                    .filter(|s| holders.iter().any(|h| h == s));
                let seller = match (named, holders.as_slice()) {
                    (Some(n), _) => n.to_string(),
                    (None, [only]) => only.clone(),
                    (None, _) => holders.get(slot).cloned().ok_or_else(|| {
                        bad(
                            "slot",
                            format!("no other corporation's token {slot} in city `{city}`"),
                        )
                    })?,
                };
                Action::BuyToken {
                    hex,
                    city: index,
                    seller,
                    price: self.amount("price")?,
                }
            }
            _ => return Ok(None),
        };
        Ok(Some((seat, action)))
    }
}

impl ImportedAction {
    /// The action as the engine actions that replay it, each with its seat, in the context of
    /// `state` (the state before them): one action as [`ImportedAction::to_action`], except a
    /// purchase from another player (`p2p_purchases`, 1841 §15.3), which 18xx records as one
    /// direct purchase and this engine plays as the buyer's offer immediately accepted by the
    /// seller: a player's `buy_shares` whose first share another player held
    /// ([`ImportedAction::from_player`]; price `total_price`, else `price`) and a player's
    /// `buy_company` of a concession another player holds (`company`, `price`) become
    /// [`Action::OfferPurchase`] then [`Action::AnswerOffer`] `{accept: true}`. Empty for
    /// types not mapped yet.
    ///
    /// Errors: as [`ImportedAction::to_action`]; a purchase from a player without a
    /// whole-number price.
    pub fn to_actions(&self, state: &State) -> Result<Vec<(Seat, Action)>, ImportError> {
        if let Some((buyer, seller, item)) = self.player_purchase(state)? {
            let price = ["total_price", "price"]
                .iter()
                .find_map(|k| self.field(k).and_then(as_whole_number))
                .ok_or_else(|| ImportError::BadAction {
                    id: self.id,
                    field: "total_price".into(),
                    reason: format!("{} from a player without a price", self.kind),
                })?;
            return Ok(vec![
                (
                    buyer,
                    Action::OfferPurchase {
                        seller,
                        item,
                        price,
                    },
                ),
                (seller, Action::AnswerOffer { accept: true }),
            ]);
        }
        Ok(self.to_action(state)?.into_iter().collect())
    }

    /// Buyer, seller and item of a purchase from another player (1841 §15.3), if this is one.
    /// The seller of a `buy_shares` is [`ImportedAction::from_player`]; without the record's
    /// id tracking (an export written by this engine, or an action made by hand:
    /// [`ImportedAction::from_pool`] unset) the holder of the named certificate in `state`,
    /// whose indices are this engine's.
    fn player_purchase(
        &self,
        state: &State,
    ) -> Result<Option<(Seat, Seat, PurchaseItem)>, ImportError> {
        let Entity::Player(buyer) = self.entity else {
            return Ok(None);
        };
        if !state.options.p2p_purchases {
            return Ok(None);
        }
        let bad = |field: &str, reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        match self.kind.as_str() {
            "buy_shares" => {
                let id = self
                    .fields
                    .first_share()
                    .ok_or_else(|| bad("shares", "buy_shares without `shares`".into()))?;
                let (sym, index) = notation::parse_share_id(id)
                    .map(|(sym, i)| (sym.to_string(), i))
                    .ok_or_else(|| bad("shares", format!("share id `{id}` is not `<CORP>_<n>`")))?;
                let seller = self.from_player.or_else(|| {
                    if self.from_pool.is_some() {
                        return None;
                    }
                    match state
                        .corporation(&sym)
                        .and_then(|c| c.certificates.get(index))
                        .map(|c| &c.owner)
                    {
                        Some(ShareOwner::Player(s)) if *s != buyer => Some(*s),
                        _ => None,
                    }
                });
                let Some(seller) = seller else {
                    return Ok(None);
                };
                let percent = self
                    .field("percent")
                    .and_then(Value::as_u64)
                    .and_then(|p| u32::try_from(p).ok())
                    .ok_or_else(|| bad("percent", "buy_shares without `percent`".into()))?;
                Ok(Some((
                    buyer,
                    seller,
                    PurchaseItem::Shares {
                        corporation: sym,
                        percent,
                    },
                )))
            }
            "buy_company" => {
                let company = self
                    .field("company")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("company", "buy_company without `company`".into()))?;
                let Ok(c) = company.parse::<super::concession::Concession>() else {
                    return Ok(None);
                };
                Ok(state
                    .players
                    .iter()
                    .find(|p| p.seat != buyer && p.concessions.contains(&c))
                    .map(|p| {
                        (
                            buyer,
                            p.seat,
                            PurchaseItem::Concession {
                                concession: company.to_string(),
                            },
                        )
                    }))
            }
            _ => Ok(None),
        }
    }

    /// `choose` by context (18xx `choice`): the token count of a start (total) or of the split
    /// and a transformation (additional tokens, added to the total owned); `a`/`b` = the first
    /// or second split successor (its presidency, or an odd share); `yes`/`no` = an offered
    /// share bought or declined; `y`/`n` = another purchase round or not; `first`/`last` = the
    /// lower or higher merger price; `pres` = claim the presidency (`no` declines); `full` /
    /// `cash` = an odd merger share completed or sold.
    fn choose_action(&self, state: &State) -> Result<Action, ImportError> {
        let bad = |field: &str, reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        let raw = self
            .field("choice")
            .ok_or_else(|| bad("choice", "choose without `choice`".into()))?;
        let number = as_whole_number(raw)
            .or_else(|| raw.as_str().and_then(|t| t.parse().ok()))
            .and_then(|n| u32::try_from(n).ok());
        let text = raw.as_str().unwrap_or_default();
        let successors = &data::ruleset(&state.options).ferdinandea_split.successors;
        let successor = |i: usize| successors.get(i).cloned().unwrap_or_default();
        let event = match &state.round {
            Round::OperatingRound(r) => r.event.as_deref(),
            _ => None,
        };
        let total = |sym: &str| state.corporation(sym).map_or(0, |c| c.tokens_total);
        Ok(match event {
            Some(CorporateEvent::Split(s)) => match (s.stage, text, number) {
                (SplitStage::Presidency, "a" | "b", _) => Action::ChooseSplitPresidency {
                    corporation: successor(usize::from(text == "b")),
                },
                (SplitStage::SingleShares, "a" | "b", _) => Action::ExchangeSplitShare {
                    corporation: successor(usize::from(text == "b")),
                },
                (SplitStage::Purchases, "yes", _) => Action::BuyShares {
                    corporation: s.corporation.clone(),
                    from_pool: false,
                    percent: state
                        .corporation(&s.corporation)
                        .map_or(10, |c| c.unit_percent()),
                },
                (SplitStage::Purchases, "no", _) => Action::Pass,
                (SplitStage::RepeatRound, "y" | "n", _) => Action::RepeatPurchaseRound {
                    repeat: text == "y",
                },
                (SplitStage::Tokens, _, Some(n)) => Action::BuyTokens {
                    count: total(&s.corporation) + n,
                },
                _ => {
                    return Err(bad(
                        "choice",
                        format!("choice {raw} does not fit the split"),
                    ));
                }
            },
            Some(CorporateEvent::Merger(m)) => match (m.stage, text) {
                (MergerStage::Price, "first" | "last") => {
                    let mut prices: Vec<i64> = m
                        .price_choices
                        .iter()
                        .filter_map(|c| market::price_at(c.row, c.col))
                        .collect();
                    prices.sort_unstable();
                    let price = if text == "first" {
                        prices.first()
                    } else {
                        prices.last()
                    };
                    Action::ChooseMergerPrice {
                        price: price.copied().unwrap_or(0),
                    }
                }
                (MergerStage::Presidency, "pres" | "no") => Action::ClaimPresidency {
                    claim: text == "pres",
                },
                // A holder of 30% paying for a full share in the sweep over odd shares: he
                // reaches 20% and presides (1841 §12.1, R4).
                (MergerStage::Presidency, "full") => Action::ExchangeOddShare {
                    choice: OddShareChoice::FullShare,
                },
                (MergerStage::OddShares, "full" | "cash") => Action::ExchangeOddShare {
                    choice: if text == "full" {
                        OddShareChoice::FullShare
                    } else {
                        OddShareChoice::Cash
                    },
                },
                _ => {
                    return Err(bad(
                        "choice",
                        format!("choice {raw} does not fit the merger"),
                    ));
                }
            },
            Some(CorporateEvent::Transformation(t)) => match (t.stage, text, number) {
                (1 | 2, "yes", _) => Action::BuyShares {
                    corporation: t.major.clone(),
                    from_pool: false,
                    percent: 10,
                },
                (1 | 2, "no", _) => Action::Pass,
                (_, _, Some(n)) => Action::BuyTokens {
                    count: total(&t.major) + n,
                },
                _ => {
                    return Err(bad(
                        "choice",
                        format!("choice {raw} does not fit the transformation"),
                    ));
                }
            },
            None => Action::BuyTokens {
                count: number
                    .ok_or_else(|| bad("choice", "choose without an integer `choice`".into()))?,
            },
        })
    }

    /// A token city as hex and city index: `R14-0-0` (printed hex R14, city 0) or
    /// `<tile>-<copy>-<i>` (the hex carrying that tile).
    fn city_of(&self, state: &State, city: &str) -> Result<(String, u32), ImportError> {
        let bad = |field: &str, reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        let (first, _, index) = notation::parse_city_id(city).ok_or_else(|| {
            bad(
                "city",
                format!("city `{city}` is not `<tile>-<copy>-<city>`"),
            )
        })?;
        if map::map(&state.options).hexes.contains_key(first) {
            return Ok((first.to_string(), index));
        }
        if let Some(h) = &self.tile_hex {
            return Ok((h.clone(), index));
        }
        state
            .operations
            .tiles
            .iter()
            .filter(|(_, p)| p.tile == first)
            .map(|(h, _)| h.clone())
            .find(|h| {
                state
                    .corporations
                    .iter()
                    .any(|c| c.tokens.iter().any(|t| t.hex == *h && t.city == index))
            })
            .map(|h| (h, index))
            .ok_or_else(|| bad("city", format!("no token on tile of city `{city}`")))
    }
}

fn as_whole_number(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
            .map(|f| f as i64)
    })
}

/// Player ids are integers in current exports and strings in some older ones.
fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Applies the undo/redo/message filter to raw actions and returns the effective ones, in
/// order (see the module documentation).
///
/// Errors: [`ImportError::UndoTargetMissing`] for an `undo` to an id that is not effective.
pub fn filter_actions(actions: &[Value]) -> Result<Vec<Value>, ImportError> {
    fn head(a: &Value) -> Head<'_> {
        Head {
            kind: skipped_undo(
                a.get("type").and_then(Value::as_str).unwrap_or_default(),
                a.get(super::export18xx::MERGER_BACKED_OUT),
            ),
            action_id: a.get("action_id").and_then(Value::as_i64),
            id: a.get("id").and_then(Value::as_i64),
        }
    }
    Ok(effective_indices(actions, head)?
        .into_iter()
        .filter_map(|i| actions.get(i).cloned())
        .collect())
}

/// The record type the undo/redo filter sees: an `undo` a Referee export wrote after a
/// merger this engine backed out ([`super::export18xx::MERGER_BACKED_OUT`] `true`) counts as a
/// `message` (no effect): the proposal and the declines stay, and replaying them backs the
/// merger out again (1841 §12.1).
fn skipped_undo<'a>(kind: &'a str, mark: Option<&Value>) -> &'a str {
    if kind == "undo" && mark.and_then(Value::as_bool) == Some(true) {
        "message"
    } else {
        kind
    }
}

/// What the undo/redo filter reads of a recorded action: `type` (empty when it is not a
/// text), `action_id` and `id` (when integers).
struct Head<'a> {
    kind: &'a str,
    action_id: Option<i64>,
    id: Option<i64>,
}

/// [`filter_actions`] as indices into `actions` (no action is copied), reading each action
/// through `head`.
///
/// Linear in the number of records whatever they are (issue #24: a 4 MiB export of
/// alternating `undo` to the first action and `redo` cost minutes of CPU when each undo
/// split the active list off and each redo copied it back). The active actions are a prefix
/// `buf[..len]` of one buffer: an `undo` only shortens the prefix (and remembers the old
/// length), a `redo` restores the remembered length (the buffer beyond the prefix is
/// untouched until an ordinary action, which cuts it off and forgets every undo). An `undo`
/// to an action id finds the id's last position in the prefix through an index of positions
/// per id (kept in step with the buffer: amortized constant work per record, a binary search
/// per undo).
fn effective_indices<T>(
    actions: &[T],
    head: impl Fn(&T) -> Head<'_>,
) -> Result<Vec<usize>, ImportError> {
    // Record indices of the effective actions so far (and, past `len`, of undone ones).
    let mut buf: Vec<usize> = Vec::new();
    let mut len = 0usize;
    // The lengths before each undo still redoable, newest last.
    let mut undone: Vec<usize> = Vec::new();
    // Per action id, the positions in `buf` holding it, ascending.
    let mut positions: FxHashMap<i64, Vec<usize>> = FxHashMap::default();
    for (index, action) in actions.iter().enumerate() {
        let action = head(action);
        match action.kind {
            "message" => {}
            "undo" => {
                let keep = match action.action_id {
                    Some(0) => 0,
                    Some(target) => {
                        let at = positions
                            .get(&target)
                            .and_then(|list| {
                                let below = list.partition_point(|&p| p < len);
                                below.checked_sub(1).map(|i| list[i])
                            })
                            .ok_or(ImportError::UndoTargetMissing(target))?;
                        at + 1
                    }
                    None => len.saturating_sub(1),
                };
                undone.push(len);
                len = keep.min(len);
            }
            "redo" => {
                if let Some(restored) = undone.pop() {
                    len = restored;
                }
            }
            _ => {
                // Everything undone is forgotten: cut it off the buffer and the index.
                for &dropped in buf.get(len..).unwrap_or_default() {
                    if let Some(id) = actions.get(dropped).and_then(|a| head(a).id)
                        && let Some(list) = positions.get_mut(&id)
                    {
                        while list.last().is_some_and(|&p| p >= len) {
                            list.pop();
                        }
                    }
                }
                buf.truncate(len);
                undone.clear();
                if let Some(id) = action.id {
                    positions.entry(id).or_default().push(buf.len());
                }
                buf.push(index);
                len = buf.len();
            }
        }
    }
    buf.truncate(len);
    Ok(buf)
}

/// Parses an 18xx.games export.
///
/// Errors: [`ImportError::Json`] for text that is not JSON, [`ImportError::Field`] when
/// `players` or `actions` is missing, [`ImportError::UndoTargetMissing`] (see
/// [`filter_actions`]).
pub fn parse_export(json: &str) -> Result<Export, ImportError> {
    let root: reader::Root = serde_json::from_str(json).map_err(|e| ImportError::json(&e))?;
    let players = root
        .players
        .as_ref()
        .and_then(Value::as_array)
        .ok_or_else(|| ImportError::Field("players".into()))?
        .iter()
        .map(|p| {
            Ok(ExportPlayer {
                id: p
                    .get("id")
                    .and_then(id_text)
                    .ok_or_else(|| ImportError::Field("players[].id".into()))?,
                name: p
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            })
        })
        .collect::<Result<Vec<_>, ImportError>>()?;
    let optional_rules = root
        .settings
        .as_ref()
        .and_then(|s| s.get("optional_rules"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let faq_options = root
        .settings
        .as_ref()
        .and_then(|s| s.get(FAQ_OPTIONS_SETTING))
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_bool()?)))
                .collect()
        })
        .unwrap_or_default();
    let Some(mut records) = root.actions.0 else {
        return Err(ImportError::Field("actions".into()));
    };
    let mut export = Export {
        id: root.id.as_ref().and_then(Value::as_i64),
        title: root
            .title
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        players,
        optional_rules,
        faq_options,
        actions: Vec::new(),
        result: root
            .result
            .as_ref()
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| Some((k.clone(), as_whole_number(v)?)))
                    .collect()
            })
            .unwrap_or_default(),
        game_end_reason: root
            .game_end_reason
            .as_ref()
            .and_then(Value::as_str)
            .map(str::to_string),
        referee_export: root
            .exported_by
            .as_ref()
            .and_then(Value::as_str)
            .is_some_and(|s| s.starts_with("referee")),
    };
    fn head(r: &Record) -> Head<'_> {
        Head {
            kind: skipped_undo(&r.kind, r.fields.get(super::export18xx::MERGER_BACKED_OUT)),
            action_id: r.fields.action_id(),
            id: r.id,
        }
    }
    let effective = effective_indices(&records, head)?;
    // The text is kept once for `ImportedAction::raw`, which reads it only when asked.
    let source = Arc::new(Source {
        text: json.into(),
        root: OnceLock::new(),
    });
    let count: usize = effective
        .iter()
        .filter_map(|&i| records.get(i))
        .map(|r| 1 + r.fields.auto_actions())
        .sum();
    export.actions.reserve_exact(count);
    let seats = Seats::new(&export.players);
    for index in effective {
        // Each index is effective at most once: move the record out.
        let Some(mut record) = records.get_mut(index).map(std::mem::take) else {
            continue;
        };
        let autos = record.fields.take_auto_actions();
        let recorded = |auto| Recorded::Export {
            source: Arc::clone(&source),
            index,
            auto,
        };
        let first = from_record(&seats, record, false, recorded(None));
        export.actions.push(first);
        for (j, auto) in autos.into_iter().enumerate() {
            let a = from_record(&seats, auto, true, recorded(Some(j)));
            export.actions.push(a);
        }
    }
    mark_tile_hexes(&mut export.actions);
    merger_price_before_form(&mut export.actions);
    if export.optional_rules.iter().any(|r| r == "p2p_purchases") && !export.referee_export {
        mark_player_purchases(&mut export.actions);
    }
    if export.referee_export {
        return Ok(export);
    }
    mark_pool_purchases(&mut export.actions);
    mark_corporate_sellers(&mut export.actions);
    if let Some(game) = export.id {
        // The few ids of this game (none for most games: no pass over the actions then).
        let ids: SmallVec<[i64; 8]> = POOL_PURCHASES_AFTER_EXCHANGES
            .iter()
            .filter(|(g, _)| *g == game)
            .map(|(_, id)| *id)
            .collect();
        if !ids.is_empty() {
            for a in &mut export.actions {
                if a.id.is_some_and(|id| ids.contains(&id)) {
                    a.from_pool = Some(true);
                }
            }
        }
    }
    Ok(export)
}

/// Purchases of certificates that 18xx put into the pool in an exchange (merger, split): the
/// export names a share id never seen going into the pool, so the id tracking of
/// [`mark_pool_purchases`] cannot tell pool from IPO (18xx's share ids after exchanges are not
/// modelled; docs/games/1841.md I25). (18xx.games game id, action id) of every such purchase
/// in the two recorded games, where the game log reads "from the market" (found by comparing
/// the logs in `1841-fixtures/logs` with the id tracking): 132002 — CTDA `SFLi_7` (333), IFAI
/// `ICSF_1` (703), P4 `ICSF_2` (785), P3 `ICSF_3` (786), P4 `ICSF_4` (789), P3 `ICSF_5` (790); the lite game
/// 182953 — `CFCC_4` (514), `RSFS_5` (675), `RSFS_6` (676), `CFCC_5` … `CFCC_8` (684–687).
pub const POOL_PURCHASES_AFTER_EXCHANGES: &[(i64, i64)] = &[
    (132002, 333),
    (132002, 703),
    (132002, 785),
    (132002, 786),
    (132002, 789),
    (132002, 790),
    (182953, 514),
    (182953, 675),
    (182953, 676),
    (182953, 684),
    (182953, 685),
    (182953, 686),
    (182953, 687),
];

/// One recorded action as read: type, id and entity (a player id mapped to its seat by
/// `players`); the record-derived marks (`from_pool`, `tile_hex`) are left `None`.
pub(super) fn imported(players: &[ExportPlayer], raw: Value, auto: bool) -> ImportedAction {
    let mut record = Record::from_value(&raw);
    record.fields.take_auto_actions();
    from_record(
        &Seats::new(players),
        record,
        auto,
        Recorded::Value(Arc::new(raw)),
    )
}

/// The seats of an export's players, for mapping the entities of its actions: as
/// [`seat_of`] with the entity as text ([`id_text`]), but a whole-number entity (current
/// exports) is matched by value against the player ids that are whole numbers written in
/// their usual form (`512`; not `0512`, `+512`), without writing it out.
struct Seats<'a> {
    players: &'a [ExportPlayer],
    /// For each player, its id as a number when the id is the usual text of that number.
    numbers: SmallVec<[Option<u64>; 8]>,
    /// With more players than any game seats (an export the setup refuses later), the first
    /// seat of each id: mapping the actions stays linear in the export (100,000 players and
    /// as many actions would compare each with each; issue #24). The ids are the caller's:
    /// std's hasher, not Fx.
    index: Option<std::collections::HashMap<&'a str, Seat>>,
}

/// Up to this many players an entity is looked up by scanning them.
const SEATS_SCANNED: usize = 8;

impl<'a> Seats<'a> {
    fn new(players: &'a [ExportPlayer]) -> Self {
        if players.len() > SEATS_SCANNED {
            let mut index = std::collections::HashMap::with_capacity(players.len());
            for (i, p) in players.iter().enumerate() {
                if let Ok(seat) = Seat::try_from(i) {
                    index.entry(p.id.as_str()).or_insert(seat);
                }
            }
            return Seats {
                players,
                numbers: SmallVec::new(),
                index: Some(index),
            };
        }
        let numbers = players
            .iter()
            .map(|p| p.id.parse::<u64>().ok().filter(|n| n.to_string() == p.id))
            .collect();
        Seats {
            players,
            numbers,
            index: None,
        }
    }

    /// The seat of the player an entity names.
    fn of(&self, entity: &reader::Id) -> Option<Seat> {
        if let Some(index) = &self.index {
            // A whole number names the player whose id is its usual text.
            let text = match entity {
                reader::Id::Whole(n) => std::borrow::Cow::Owned(n.to_string()),
                reader::Id::Text(text) => std::borrow::Cow::Borrowed(text.as_str()),
                reader::Id::None => std::borrow::Cow::Borrowed(""),
            };
            return index.get(text.as_ref()).copied();
        }
        match entity {
            reader::Id::Whole(n) => self
                .numbers
                .iter()
                .position(|m| *m == Some(*n))
                .and_then(|i| Seat::try_from(i).ok()),
            reader::Id::Text(text) => seat_of(self.players, text),
            reader::Id::None => seat_of(self.players, ""),
        }
    }
}

/// [`imported`] from a record read from the export text.
fn from_record(seats: &Seats, record: Record, auto: bool, recorded: Recorded) -> ImportedAction {
    let entity = match record.entity_type {
        EntityType::Player => match seats.of(&record.entity) {
            Some(seat) => Entity::Player(seat),
            None => Entity::Other(record.entity.into_text()),
        },
        EntityType::Corporation => Entity::Corporation(record.entity.into_text()),
        EntityType::Other => Entity::Other(record.entity.into_text()),
    };
    ImportedAction {
        id: record.id,
        kind: record.kind,
        entity,
        auto,
        fields: record.fields,
        recorded,
        from_pool: None,
        tile_hex: None,
        from_player: None,
        sold_by: None,
    }
}

/// Where an [`ImportedAction`]'s recorded JSON is: in the text of its export (parsed into a
/// [`Value`] the first time [`ImportedAction::raw`] is called), or given as a value.
#[derive(Clone)]
enum Recorded {
    /// Element `index` of the export's `actions`; for an automatic action, element `auto` of
    /// that action's `auto_actions`.
    Export {
        source: Arc<Source>,
        index: usize,
        auto: Option<usize>,
    },
    /// Given as a value ([`imported`], [`ImportedAction::set_raw`]).
    Value(Arc<Value>),
}

/// The text of an export, shared by its actions, and that text as a [`Value`] once asked for.
struct Source {
    text: Box<str>,
    root: OnceLock<Value>,
}

impl Recorded {
    fn value(&self) -> &Value {
        match self {
            Recorded::Value(v) => v,
            Recorded::Export {
                source,
                index,
                auto,
            } => {
                // The text was read as JSON already (`parse_export`), exactly as a `Value` is
                // read: this parse cannot fail (it would give `null`).
                let root = source
                    .root
                    .get_or_init(|| serde_json::from_str(&source.text).unwrap_or(Value::Null));
                let action = &root["actions"][*index];
                match auto {
                    Some(j) => &action["auto_actions"][*j],
                    None => action,
                }
            }
        }
    }
}

impl PartialEq for Recorded {
    fn eq(&self, other: &Self) -> bool {
        if let (
            Recorded::Export {
                source: a,
                index: i,
                auto: x,
            },
            Recorded::Export {
                source: b,
                index: j,
                auto: y,
            },
        ) = (self, other)
            && Arc::ptr_eq(a, b)
            && (i, x) == (j, y)
        {
            return true;
        }
        self.value() == other.value()
    }
}

/// Declares [`Field`], the scalar fields the mapping reads, with their JSON keys (`shares`,
/// `routes`, `action_id` and `auto_actions` are typed in [`FieldData`]).
macro_rules! fields {
    ($($name:ident: $key:literal),* $(,)?) => {
        /// A field the mapping reads.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Field {
            $($name,)*
        }

        impl Field {
            /// The field named `key`, if the mapping reads it.
            fn named(key: &str) -> Option<Field> {
                match key {
                    $($key => Some(Field::$name),)*
                    _ => None,
                }
            }
        }

        /// Every field with its key (for the tests of the key readers).
        #[cfg(test)]
        const FIELDS: &[(&str, Field)] = &[$(($key, Field::$name),)*];
    };
}

/// What a record holds besides its type, id and entity: the fields the mapping reads (most
/// actions, a `pass`, have none: kept out of line so that records stay small).
#[derive(Clone, Default)]
struct Fields(Option<Box<FieldData>>);

#[derive(Clone, Default)]
struct FieldData {
    /// Each field present once (the last one recorded, as in a [`Value`]); most actions
    /// have at most three.
    values: SmallVec<[(Field, Value); 3]>,
    /// `shares` when a list: its texts (another value reads as `None`).
    shares: reader::Few<[reader::Text; 2]>,
    /// `referee_shares` when a list: the same certificates as this engine's indices, which a
    /// Referee export writes beside 18xx.games' own share ids where the two differ
    /// ([`super::export18xx::REFEREE_SHARES`]); read in place of `shares`.
    referee_shares: reader::Few<[reader::Text; 2]>,
    /// `routes` when a list.
    routes: reader::List<reader::RouteRecord>,
    /// `action_id` (of an `undo`) when an integer.
    action_id: Option<i64>,
    /// `auto_actions` when a list (taken out when the export is read).
    auto_actions: reader::Records,
}

impl Fields {
    fn data(&mut self) -> &mut FieldData {
        self.0.get_or_insert_with(Box::default)
    }

    /// Field `key`, as recorded.
    fn get(&self, key: &str) -> Option<&Value> {
        let field = Field::named(key)?;
        self.0
            .as_ref()?
            .values
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v)
    }

    /// Sets `field` (a field recorded twice counts once, the last one).
    fn set(&mut self, field: Field, value: Value) {
        let values = &mut self.data().values;
        match values.iter_mut().find(|(f, _)| *f == field) {
            Some(slot) => slot.1 = value,
            None => values.push((field, value)),
        }
    }

    /// `shares[0]` when a text (`referee_shares[0]` when present).
    fn first_share(&self) -> Option<&str> {
        let d = self.0.as_ref()?;
        let list = d.referee_shares.0.as_ref().or(d.shares.0.as_ref())?;
        list.first()?.0.as_deref()
    }

    /// The texts among `shares` (`referee_shares` when present), in order.
    fn share_ids(&self) -> impl Iterator<Item = &str> {
        self.0
            .iter()
            .flat_map(|d| d.referee_shares.0.as_ref().or(d.shares.0.as_ref()))
            .flatten()
            .filter_map(|id| id.0.as_deref())
    }

    /// `routes` when a list.
    fn routes(&self) -> Option<&[reader::RouteRecord]> {
        self.0.as_ref()?.routes.0.as_deref()
    }

    fn action_id(&self) -> Option<i64> {
        self.0.as_ref()?.action_id
    }

    /// Takes `auto_actions` out (empty when not a list).
    fn take_auto_actions(&mut self) -> Vec<Record> {
        self.0
            .as_mut()
            .and_then(|d| d.auto_actions.0.take())
            .unwrap_or_default()
    }

    fn auto_actions(&self) -> usize {
        self.0
            .as_ref()
            .and_then(|d| d.auto_actions.0.as_ref())
            .map_or(0, Vec::len)
    }
}

fields! {
    Bids: "bids",
    Choice: "choice",
    City: "city",
    Company: "company",
    Corporation: "corporation",
    DividendKind: "kind",
    Hex: "hex",
    Option: "option",
    Percent: "percent",
    Price: "price",
    RefereeMergerBackedOut: "referee_merger_backed_out",
    RefereeSeller: "referee_seller",
    Rotation: "rotation",
    SharePrice: "share_price",
    Slot: "slot",
    Tile: "tile",
    TotalPrice: "total_price",
    Train: "train",
}

/// The kind of an action's entity (`entity_type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum EntityType {
    Player,
    Corporation,
    /// Another text, another type, or none.
    #[default]
    Other,
}

/// Bytes of one element of an export's record list (`actions`, an action's `auto_actions`)
/// in the list as read, whatever the element is (one that is not an object still takes a
/// default record); the list grows one push at a time. The service's decoded-size estimate
/// of an export charges this per element (`service/src/decoded_size/json.rs`).
pub const RECORD_BYTES: usize = std::mem::size_of::<Record>();

/// Bytes of the [`ImportedAction`] each effective element of a record list becomes (in a
/// list reserved at its exact length, beside the records as read).
pub const IMPORTED_ACTION_BYTES: usize = std::mem::size_of::<ImportedAction>();

/// One recorded action, as the importer reads it.
#[derive(Clone, Default)]
struct Record {
    /// `type` when a text, else empty.
    kind: String,
    /// `id` when an integer.
    id: Option<i64>,
    /// `entity` when a text or a number.
    entity: reader::Id,
    entity_type: EntityType,
    fields: Fields,
}

impl Record {
    /// The record of an action given as a value.
    fn from_value(raw: &Value) -> Self {
        Record::deserialize(raw).unwrap_or_default()
    }
}

/// Typed reading of an export: the fields the importer reads, straight from the JSON text
/// without building a [`Value`] of the whole document. Every reader is lenient as the
/// [`Value`] accessors the importer used are (`as_str`, `as_array`, `get`): a value of
/// another type reads as absent, never as an error, so a document reads without error exactly
/// when it reads as a [`Value`] — every value, the ones skipped too, is checked as serde_json
/// checks a [`Value`] (numbers in range, escapes, nesting depth), with the same error and
/// position. A key given twice counts once, the last one, as in a [`Value`].
mod reader {
    use std::fmt;
    use std::marker::PhantomData;

    use compact_str::CompactString;
    use serde::de::{
        self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
    };
    use serde_json::{Number, Value};
    use smallvec::SmallVec;

    use super::{EXPORTED_BY, EntityType, Field, Record};

    /// How a reader takes a JSON value: the shapes it expects it reads; any other value it
    /// consumes (checked as in a [`Value`], nothing kept) and reads as `Default`.
    trait Lenient<'de>: Default {
        fn text(text: &str) -> Self {
            let _ = text;
            Self::default()
        }

        /// A number, as a [`Value`] holds it.
        fn number(number: Number) -> Self {
            let _ = number;
            Self::default()
        }

        fn list<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
            while seq.next_element::<Skip>()?.is_some() {}
            Ok(Self::default())
        }

        fn object<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
            while map.next_key::<Skip>()?.is_some() {
                map.next_value::<Skip>()?;
            }
            Ok(Self::default())
        }
    }

    struct LenientVisitor<T>(PhantomData<T>);

    impl<'de, T: Lenient<'de>> Visitor<'de> for LenientVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<T, E> {
            Ok(T::default())
        }

        fn visit_i64<E: de::Error>(self, n: i64) -> Result<T, E> {
            Ok(T::number(n.into()))
        }

        fn visit_u64<E: de::Error>(self, n: u64) -> Result<T, E> {
            Ok(T::number(n.into()))
        }

        fn visit_f64<E: de::Error>(self, n: f64) -> Result<T, E> {
            // As serde_json reads a number into a `Value` (JSON has no other floats).
            Ok(Number::from_f64(n).map_or_else(T::default, T::number))
        }

        fn visit_unit<E: de::Error>(self) -> Result<T, E> {
            Ok(T::default())
        }

        fn visit_none<E: de::Error>(self) -> Result<T, E> {
            Ok(T::default())
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
            d.deserialize_any(self)
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
            Ok(T::text(text))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
            T::list(seq)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::object(map)
        }
    }

    macro_rules! deserialize_leniently {
        ($($t:ty),*) => {$(
            impl<'de> Deserialize<'de> for $t {
                #[inline]
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    d.deserialize_any(LenientVisitor(PhantomData))
                }
            }
        )*};
    }

    deserialize_leniently!(
        Skip,
        Text,
        Owned,
        Int,
        Id,
        EntityType,
        Record,
        RouteRecord,
        Connections,
        Root
    );

    /// Any value, checked and dropped.
    #[derive(Default)]
    struct Skip;

    impl Lenient<'_> for Skip {}

    /// A text (`None` for any other value).
    #[derive(Clone, Default)]
    pub(super) struct Text(pub(super) Option<CompactString>);

    impl Lenient<'_> for Text {
        fn text(text: &str) -> Self {
            Text(Some(text.into()))
        }
    }

    /// A text, as a `String` (`None` for any other value).
    #[derive(Default)]
    struct Owned(Option<String>);

    impl Lenient<'_> for Owned {
        fn text(text: &str) -> Self {
            Owned(Some(text.to_string()))
        }
    }

    /// An integer, as [`Value::as_i64`] reads it (`None` for any other value).
    #[derive(Default)]
    struct Int(Option<i64>);

    impl Lenient<'_> for Int {
        fn number(number: Number) -> Self {
            Int(number.as_i64())
        }
    }

    /// An action's entity: a text, or a number (`None` for any other value). Player ids are
    /// integers in current exports and texts in some older ones. A whole number is kept as a
    /// number: it is matched against the players' ids by value ([`super::Seats`]) and written
    /// out only when it is not a player's ([`Id::into_text`]). A text is kept as the `String`
    /// that [`super::Entity`] holds.
    #[derive(Clone, Default)]
    pub(super) enum Id {
        #[default]
        None,
        Text(String),
        Whole(u64),
    }

    impl Id {
        /// The entity as text, as [`super::id_text`] writes it (empty for none).
        pub(super) fn into_text(self) -> String {
            match self {
                Id::None => String::new(),
                Id::Text(text) => text,
                Id::Whole(n) => n.to_string(),
            }
        }
    }

    impl Lenient<'_> for Id {
        fn text(text: &str) -> Self {
            Id::Text(text.to_owned())
        }

        fn number(number: Number) -> Self {
            // `Number`'s text: the integer's digits, or the float as serde_json writes it.
            match (number.as_u64(), number.as_i64()) {
                (Some(n), _) => Id::Whole(n),
                (None, Some(n)) => Id::Text(n.to_string()),
                (None, None) => Id::Text(number.to_string()),
            }
        }
    }

    /// A list (`None` for any other value), made with room for `CAPACITY` items.
    #[derive(Clone)]
    pub(super) struct List<T, const CAPACITY: usize = 0>(pub(super) Option<Vec<T>>);

    /// The actions of an export: room for a whole recorded game (800–850 actions) from the
    /// start, not grown by copying.
    pub(super) type Actions = Records<1024>;

    /// How a reader takes a JSON value into state it borrows: the list or object it expects it
    /// reads in place; any other value it consumes (checked as in a [`Value`]) and leaves the
    /// state as it is — the lenient reading of [`Lenient`], without moving what is read.
    trait InPlace<'de>: Sized {
        fn list<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element::<Skip>()?.is_some() {}
            Ok(())
        }

        fn object<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while map.next_key::<Skip>()?.is_some() {
                map.next_value::<Skip>()?;
            }
            Ok(())
        }
    }

    /// An [`InPlace`] reader as a seed of [`SeqAccess::next_element_seed`].
    struct Seed<T>(T);

    impl<'de, T: InPlace<'de>> DeserializeSeed<'de> for Seed<T> {
        type Value = ();

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de, T: InPlace<'de>> Visitor<'de> for Seed<T> {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
            Ok(())
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
            Ok(())
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
            Ok(())
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
            Ok(())
        }

        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            Ok(())
        }

        fn visit_none<E: de::Error>(self) -> Result<(), E> {
            Ok(())
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }

        fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
            Ok(())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
            self.0.list(seq)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
            self.0.object(map)
        }
    }

    /// A list of records (`None` for any other value), made with room for `CAPACITY`; each
    /// record is read in its place in the list (an element that is not an object reads as
    /// `Record::default()`).
    pub(super) struct Records<const CAPACITY: usize = 0>(pub(super) Option<Vec<Record>>);

    impl<const CAPACITY: usize> Default for Records<CAPACITY> {
        fn default() -> Self {
            Records(None)
        }
    }

    impl<const CAPACITY: usize> Clone for Records<CAPACITY> {
        fn clone(&self) -> Self {
            Records(self.0.clone())
        }
    }

    /// Reads a record into the slot it is given (a default record).
    struct Fill<'a>(&'a mut Record);

    impl<'de> InPlace<'de> for Fill<'_> {
        fn object<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
            self.0.fill(map)
        }
    }

    impl<'de, const CAPACITY: usize> Lenient<'de> for Records<CAPACITY> {
        fn list<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
            let mut list: Vec<Record> = Vec::with_capacity(CAPACITY);
            loop {
                list.push(Record::default());
                let read = match list.last_mut() {
                    Some(slot) => seq.next_element_seed(Seed(Fill(slot)))?,
                    None => None,
                };
                if read.is_none() {
                    list.pop();
                    return Ok(Records(Some(list)));
                }
            }
        }
    }

    impl<'de, const CAPACITY: usize> Deserialize<'de> for Records<CAPACITY> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(LenientVisitor(PhantomData))
        }
    }

    /// A route's `connections` when a list (`None` for any other value): its chains of hex
    /// texts kept flat, without a list per chain.
    #[derive(Clone, Default)]
    pub(super) struct Connections(pub(super) Option<Chains>);

    /// The chains of a route: the hex texts of every chain in order (other values left out),
    /// and where each chain ends in them (a chain that is not a list reads as empty).
    #[derive(Clone, Default)]
    pub(super) struct Chains {
        hexes: Vec<CompactString>,
        ends: SmallVec<[usize; ROUTE_CAPACITY]>,
    }

    impl Chains {
        /// The chains in order, each as its hex texts.
        pub(super) fn iter(&self) -> impl Iterator<Item = &[CompactString]> {
            let mut start = 0;
            self.ends.iter().map(move |&end| {
                let chain = self.hexes.get(start..end).unwrap_or_default();
                start = end;
                chain
            })
        }
    }

    /// Reads one chain's hex texts onto the end of `hexes`.
    struct Chain<'a>(&'a mut Vec<CompactString>);

    impl<'de> InPlace<'de> for Chain<'_> {
        fn list<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while let Some(hex) = seq.next_element::<Text>()? {
                self.0.extend(hex.0);
            }
            Ok(())
        }
    }

    impl<'de> Lenient<'de> for Connections {
        fn list<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
            let mut chains = Chains {
                hexes: Vec::with_capacity(2 * ROUTE_CAPACITY),
                ends: SmallVec::new(),
            };
            while seq
                .next_element_seed(Seed(Chain(&mut chains.hexes)))?
                .is_some()
            {
                chains.ends.push(chains.hexes.len());
            }
            Ok(Connections(Some(chains)))
        }
    }

    impl<T, const CAPACITY: usize> Default for List<T, CAPACITY> {
        fn default() -> Self {
            List(None)
        }
    }

    impl<'de, T: Deserialize<'de>, const CAPACITY: usize> Lenient<'de> for List<T, CAPACITY> {
        fn list<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
            let mut list = Vec::with_capacity(CAPACITY);
            while let Some(item) = seq.next_element()? {
                list.push(item);
            }
            Ok(List(Some(list)))
        }
    }

    impl<'de, T: Deserialize<'de>, const CAPACITY: usize> Deserialize<'de> for List<T, CAPACITY> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(LenientVisitor(PhantomData))
        }
    }

    /// A short list (`None` for any other value), kept inline up to the array's length.
    pub(super) struct Few<A: smallvec::Array>(pub(super) Option<SmallVec<A>>);

    impl<A: smallvec::Array> Clone for Few<A>
    where
        A::Item: Clone,
    {
        fn clone(&self) -> Self {
            Few(self.0.clone())
        }
    }

    impl<A: smallvec::Array> Default for Few<A> {
        fn default() -> Self {
            Few(None)
        }
    }

    impl<'de, A: smallvec::Array> Lenient<'de> for Few<A>
    where
        A::Item: Deserialize<'de>,
    {
        fn list<S: SeqAccess<'de>>(mut seq: S) -> Result<Self, S::Error> {
            let mut list = SmallVec::new();
            while let Some(item) = seq.next_element()? {
                list.push(item);
            }
            Ok(Few(Some(list)))
        }
    }

    impl<'de, A: smallvec::Array> Deserialize<'de> for Few<A>
    where
        A::Item: Deserialize<'de>,
    {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(LenientVisitor(PhantomData))
        }
    }

    /// Declares an enum of the keys an object reader reads, plus `Other`, told apart as each
    /// key is read (no text kept; a key with escapes is compared unescaped).
    macro_rules! keys {
        ($(#[$doc:meta])* $name:ident { $($variant:ident: $key:pat),* $(,)? }) => {
            $(#[$doc])*
            enum $name {
                $($variant,)*
                Other,
            }

            impl<'de> Deserialize<'de> for $name {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    struct KeyVisitor;
                    impl Visitor<'_> for KeyVisitor {
                        type Value = $name;

                        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                            f.write_str("an object key")
                        }

                        fn visit_str<E: de::Error>(self, key: &str) -> Result<$name, E> {
                            Ok(match key {
                                $($key => $name::$variant,)*
                                _ => $name::Other,
                            })
                        }
                    }
                    d.deserialize_str(KeyVisitor)
                }
            }
        };
    }

    impl Lenient<'_> for EntityType {
        fn text(text: &str) -> Self {
            match text {
                "player" => EntityType::Player,
                "corporation" => EntityType::Corporation,
                _ => EntityType::Other,
            }
        }
    }

    /// A key of a recorded action, told apart as it is read (no text kept): the keys the
    /// importer reads, and the others.
    enum RecordKey {
        Type,
        Id,
        ActionId,
        Entity,
        EntityType,
        AutoActions,
        Routes,
        Shares,
        RefereeShares,
        Field(Field),
        Other,
    }

    impl RecordKey {
        /// The key `key`: told apart by its length first, then by comparing it with the few
        /// keys of that length ([`Field::named`] for the mapping's fields).
        fn of(key: &str) -> RecordKey {
            let field = |key| Field::named(key).map_or(RecordKey::Other, RecordKey::Field);
            match key.len() {
                2 if key == "id" => RecordKey::Id,
                4 if key == "type" => RecordKey::Type,
                6 => match key {
                    "entity" => RecordKey::Entity,
                    "routes" => RecordKey::Routes,
                    "shares" => RecordKey::Shares,
                    other => field(other),
                },
                9 if key == "action_id" => RecordKey::ActionId,
                14 if key == "referee_shares" => RecordKey::RefereeShares,
                11 if key == "entity_type" => RecordKey::EntityType,
                12 if key == "auto_actions" => RecordKey::AutoActions,
                // No key the importer reads has this length (`created_at`, the commonest).
                10 => RecordKey::Other,
                _ => field(key),
            }
        }
    }

    impl<'de> Deserialize<'de> for RecordKey {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct KeyVisitor;
            impl Visitor<'_> for KeyVisitor {
                type Value = RecordKey;

                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an object key")
                }

                fn visit_str<E: de::Error>(self, key: &str) -> Result<RecordKey, E> {
                    Ok(RecordKey::of(key))
                }
            }
            d.deserialize_str(KeyVisitor)
        }
    }

    impl<'de> Lenient<'de> for Record {
        fn object<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
            let mut r = Record::default();
            r.fill(map)?;
            Ok(r)
        }
    }

    impl Record {
        /// Reads the fields of a recorded action into `self` (a default record).
        fn fill<'de, A: MapAccess<'de>>(&mut self, mut map: A) -> Result<(), A::Error> {
            let r = self;
            while let Some(key) = map.next_key()? {
                match key {
                    RecordKey::Type => r.kind = map.next_value::<Owned>()?.0.unwrap_or_default(),
                    RecordKey::Id => r.id = map.next_value::<Int>()?.0,
                    RecordKey::ActionId => {
                        r.fields.data().action_id = map.next_value::<Int>()?.0;
                    }
                    RecordKey::Entity => r.entity = map.next_value()?,
                    RecordKey::EntityType => r.entity_type = map.next_value()?,
                    RecordKey::AutoActions => r.fields.data().auto_actions = map.next_value()?,
                    RecordKey::Routes => r.fields.data().routes = map.next_value()?,
                    RecordKey::Shares => r.fields.data().shares = map.next_value()?,
                    RecordKey::RefereeShares => {
                        r.fields.data().referee_shares = map.next_value()?;
                    }
                    RecordKey::Field(field) => r.fields.set(field, map.next_value()?),
                    RecordKey::Other => map.next_value::<Skip>().map(drop)?,
                }
            }
            Ok(())
        }
    }

    /// One route of a `run_routes`: `train` (a text), `nodes` (texts; another value reads
    /// as an empty text), `connections` (lists of hex texts; other values left out, a chain
    /// that is not a list reads as empty).
    #[derive(Clone, Default)]
    pub(super) struct RouteRecord {
        pub(super) train: Text,
        pub(super) nodes: List<Text, ROUTE_CAPACITY>,
        pub(super) connections: Connections,
    }

    /// Room for a route's nodes and chains from the start: the routes of the recorded games
    /// have 6 of each on average (not grown by copying for up to 8).
    const ROUTE_CAPACITY: usize = 8;

    keys! {
        /// The keys of a route the importer reads.
        RouteKey { Train: "train", Nodes: "nodes", Connections: "connections" }
    }

    impl<'de> Lenient<'de> for RouteRecord {
        fn object<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
            let mut r = RouteRecord::default();
            while let Some(key) = map.next_key()? {
                match key {
                    RouteKey::Train => r.train = map.next_value()?,
                    RouteKey::Nodes => r.nodes = map.next_value()?,
                    RouteKey::Connections => r.connections = map.next_value()?,
                    RouteKey::Other => map.next_value::<Skip>().map(drop)?,
                }
            }
            Ok(r)
        }
    }

    /// The top level of an export: the small fields as recorded, the actions as records.
    #[derive(Default)]
    pub(super) struct Root {
        pub(super) id: Option<Value>,
        pub(super) title: Option<Value>,
        pub(super) players: Option<Value>,
        pub(super) settings: Option<Value>,
        pub(super) result: Option<Value>,
        pub(super) game_end_reason: Option<Value>,
        pub(super) exported_by: Option<Value>,
        pub(super) actions: Actions,
    }

    keys! {
        /// The top-level keys the importer reads.
        RootKey {
            Actions: "actions",
            Id: "id",
            Title: "title",
            Players: "players",
            Settings: "settings",
            Result: "result",
            GameEndReason: "game_end_reason",
            ExportedBy: EXPORTED_BY,
        }
    }

    impl<'de> Lenient<'de> for Root {
        fn object<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
            let mut r = Root::default();
            while let Some(key) = map.next_key()? {
                let slot = match key {
                    RootKey::Actions => {
                        r.actions = map.next_value()?;
                        continue;
                    }
                    RootKey::Id => &mut r.id,
                    RootKey::Title => &mut r.title,
                    RootKey::Players => &mut r.players,
                    RootKey::Settings => &mut r.settings,
                    RootKey::Result => &mut r.result,
                    RootKey::GameEndReason => &mut r.game_end_reason,
                    RootKey::ExportedBy => &mut r.exported_by,
                    RootKey::Other => {
                        map.next_value::<Skip>()?;
                        continue;
                    }
                };
                *slot = Some(map.next_value()?);
            }
            Ok(r)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::FIELDS;
        use super::*;

        /// Every key the importer reads is told apart as such, whatever its length; others
        /// (of every length, `created_at` among them) are `Other`.
        #[test]
        fn s18_record_keys_are_told_apart() {
            let record = [
                ("type", "Type"),
                ("id", "Id"),
                ("action_id", "ActionId"),
                ("entity", "Entity"),
                ("entity_type", "EntityType"),
                ("auto_actions", "AutoActions"),
                ("routes", "Routes"),
                ("shares", "Shares"),
                ("referee_shares", "RefereeShares"),
            ];
            let name = |k: &RecordKey| match k {
                RecordKey::Type => "Type".to_string(),
                RecordKey::Id => "Id".to_string(),
                RecordKey::ActionId => "ActionId".to_string(),
                RecordKey::Entity => "Entity".to_string(),
                RecordKey::EntityType => "EntityType".to_string(),
                RecordKey::AutoActions => "AutoActions".to_string(),
                RecordKey::Routes => "Routes".to_string(),
                RecordKey::Shares => "Shares".to_string(),
                RecordKey::RefereeShares => "RefereeShares".to_string(),
                RecordKey::Field(f) => format!("{f:?}"),
                RecordKey::Other => "Other".to_string(),
            };
            for (key, kind) in record {
                assert_eq!(name(&RecordKey::of(key)), kind, "{key}");
            }
            for (key, field) in FIELDS {
                assert_eq!(name(&RecordKey::of(key)), format!("{field:?}"), "{key}");
            }
            for key in [
                "",
                "i",
                "ids",
                "Type",
                "types",
                "user",
                "created_at",
                "entity_typ",
                "x".repeat(10).as_str(),
                "auto_actionS",
                "hexes",
                "variant",
                "tokener",
                "revenue",
            ] {
                assert_eq!(name(&RecordKey::of(key)), "Other", "{key}");
            }
        }
    }
}

/// The stops of an 18xx route in route order. 18xx lists a route's `nodes` in no guaranteed
/// order (132002 action 440: `H4, I5, M3, O5, Q5` for the chains `H4–I5`, `M3…H4`, `O5…M3`,
/// `Q5…O5`), while its `connections` follow the route: walk the chains and take, for each hex
/// reached, the next unused node of that hex. The recorded order is kept when it already fits.
/// The hexes are compared in place (borrowed from `connections` and `stops`), never copied.
fn in_route_order(stops: Vec<Stop>, connections: &[Vec<String>]) -> Vec<Stop> {
    fn ends(c: &[String]) -> (Option<&str>, Option<&str>) {
        (c.first().map(String::as_str), c.last().map(String::as_str))
    }
    let fits = stops.len() == connections.len() + 1
        && connections.iter().enumerate().all(|(i, c)| {
            let (a, b) = ends(c);
            let (x, y) = (Some(stops[i].hex.as_str()), Some(stops[i + 1].hex.as_str()));
            (a == x && b == y) || (a == y && b == x)
        });
    if fits || connections.is_empty() || stops.len() != connections.len() + 1 {
        return stops;
    }
    // The first hex: the end of the first chain not shared with the second.
    let (a0, b0) = ends(&connections[0]);
    let mut hex = match connections.get(1).map(|c| ends(c)) {
        Some((a1, b1)) if a0 == a1 || a0 == b1 => b0,
        _ => a0,
    };
    let mut hexes: Vec<&str> = Vec::with_capacity(connections.len() + 1);
    hexes.extend(hex);
    for c in connections {
        let (a, b) = ends(c);
        hex = if hex == a { b } else { a };
        hexes.extend(hex);
    }
    let mut left = stops.clone();
    let mut out = Vec::with_capacity(hexes.len());
    for h in hexes {
        match left.iter().position(|s| s.hex == h) {
            Some(i) => out.push(left.remove(i)),
            None => return stops,
        }
    }
    out
}

/// A merger of two majors both above L.250 (1841 §12.1) in this engine's order: 18xx.games
/// names the corporation to form (`merge`) before the price is chosen (`choose
/// "first"|"last"`; `Step::Merge#process_merge` → `merger_start` → the `:price` option), where
/// this engine asks the price first ([`MergerStage::Price`] before
/// [`MergerStage::Corporation`]). Each second `merge` (the one naming the new corporation,
/// directly after the proposal's) directly followed by a price `choose` is swapped with it
/// (the two records keep their ids). Files in this engine's order (earlier Referee exports:
/// proposal, `choose`, then the `merge` naming the new corporation) are left as they are.
fn merger_price_before_form(actions: &mut [ImportedAction]) {
    let is_price = |a: &ImportedAction| {
        !a.auto
            && a.kind == "choose"
            && matches!(
                a.field("choice").and_then(Value::as_str),
                Some("first" | "last")
            )
    };
    let merge = |a: &ImportedAction| !a.auto && a.kind == "merge";
    let mut i = 1;
    while i + 1 < actions.len() {
        if merge(&actions[i - 1]) && merge(&actions[i]) && is_price(&actions[i + 1]) {
            actions.swap(i, i + 1);
            i += 2;
        } else {
            i += 1;
        }
    }
}

/// Follows the 18xx tile copies (`63-1`) over the effective actions: each `lay_tile` puts its
/// copy on its hex; a token action naming a city `<tile>-<copy>-<i>` gets that hex.
/// The texts are borrowed from the actions while they are followed (the marks are set after).
fn mark_tile_hexes(actions: &mut [ImportedAction]) {
    let mut at: FxHashMap<&str, &str> = FxHashMap::default();
    let mut marks: Vec<(usize, Option<String>)> = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        match a.kind.as_str() {
            "lay_tile" => {
                if let (Some(tile), Some(hex)) = (
                    a.field("tile").and_then(Value::as_str),
                    a.field("hex").and_then(Value::as_str),
                ) {
                    at.insert(tile, hex);
                }
            }
            "place_token" | "remove_token" | "buy_token" => {
                if let Some(city) = a.field("city").and_then(Value::as_str)
                    && let Some((_, copy, _)) = notation::parse_city_id(city)
                {
                    marks.push((i, at.get(copy).map(|h| h.to_string())));
                }
            }
            _ => {}
        }
    }
    for (i, hex) in marks {
        if let Some(a) = actions.get_mut(i) {
            a.tile_hex = hex;
        }
    }
}

/// Follows the 18xx share ids held by players over the effective actions (`p2p_purchases`,
/// 1841 §15.3) and records, on every player's `buy_shares` whose first share another player
/// held, that player's seat ([`ImportedAction::from_player`]). A player's `par` gives him
/// `<CORP>_0` (and forgets the corporation's other ids: a new company); a player's
/// `buy_shares` gives him the ids listed; a `sell_shares` or a corporation's purchase takes
/// them away; a `merge` forgets the ids of the corporations it names (exchanges reassign
/// them unseen). Certificates of one size are interchangeable in this engine, so only the
/// seller matters.
fn mark_player_purchases(actions: &mut [ImportedAction]) {
    let mut held: std::collections::BTreeMap<String, Seat> = std::collections::BTreeMap::new();
    let forget = |held: &mut std::collections::BTreeMap<String, Seat>, sym: &str| {
        let prefix = format!("{sym}_");
        held.retain(|id, _| !id.starts_with(&prefix));
    };
    for a in actions.iter_mut() {
        let corporation = a.field("corporation").and_then(Value::as_str);
        match (a.kind.as_str(), &a.entity) {
            ("par", Entity::Player(seat)) => {
                if let Some(sym) = corporation {
                    forget(&mut held, sym);
                    held.insert(format!("{sym}_0"), *seat);
                }
            }
            ("buy_shares", Entity::Player(seat)) => {
                let seat = *seat;
                let owner = a
                    .fields
                    .share_ids()
                    .next()
                    .and_then(|id| held.get(id))
                    .copied()
                    .filter(|owner| *owner != seat);
                for id in a.fields.share_ids() {
                    held.insert(id.to_string(), seat);
                }
                if owner.is_some() {
                    a.from_player = owner;
                }
            }
            ("buy_shares" | "sell_shares", _) => {
                for id in a.fields.share_ids() {
                    held.remove(id);
                }
            }
            ("merge", entity) => {
                if let Some(sym) = corporation {
                    forget(&mut held, sym);
                }
                if let Entity::Corporation(sym) = entity {
                    forget(&mut held, sym);
                }
            }
            _ => {}
        }
    }
}

/// Follows the 18xx share ids through the bank pool over the effective actions and records,
/// on every `buy_shares`, whether its first share came from the pool. 18xx share ids are
/// stable certificates; this engine's certificates are interchangeable by size, so which one
/// lies in the pool is known only from the record.
///
/// The share ids are borrowed from the actions while they are followed (the marks are set
/// after).
fn mark_pool_purchases(actions: &mut [ImportedAction]) {
    let mut pool: BTreeSet<&str> = BTreeSet::new();
    let mut marks: Vec<(usize, bool)> = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        match a.kind.as_str() {
            "sell_shares" => pool.extend(a.fields.share_ids()),
            "buy_shares" => {
                let from_pool = a
                    .fields
                    .share_ids()
                    .next()
                    .is_some_and(|id| pool.contains(id));
                for id in a.fields.share_ids() {
                    pool.remove(id);
                }
                marks.push((i, from_pool));
            }
            _ => {}
        }
    }
    for (i, from_pool) in marks {
        if let Some(a) = actions.get_mut(i) {
            a.from_pool = Some(from_pool);
        }
    }
}

/// Follows the 18xx share ids held by corporations over the effective actions and records,
/// on every corporation's `sell_shares` whose first share a corporation held, that
/// corporation ([`ImportedAction::sold_by`]): 18xx.games records a chain corporation's
/// emergency sale in the train step with the operating corporation as entity (1841 §14;
/// `G1841::Step::BuyTrain#process_sell_shares` sells `action.bundle.owner`'s shares), and
/// this engine's certificate indices need not be 18xx's ids. A `par` or `buy_shares` gives
/// the ids to the entity, a `sell_shares` to the pool; a `merge` forgets the ids of the
/// corporations it names (exchanges reassign them unseen).
fn mark_corporate_sellers(actions: &mut [ImportedAction]) {
    let mut held: BTreeMap<String, Entity> = BTreeMap::new();
    let forget = |held: &mut BTreeMap<String, Entity>, sym: &str| {
        let prefix = format!("{sym}_");
        held.retain(|id, _| !id.starts_with(&prefix));
    };
    for a in actions.iter_mut() {
        let corporation = a.field("corporation").and_then(Value::as_str);
        match a.kind.as_str() {
            "par" => {
                if let Some(sym) = corporation {
                    let sym = sym.to_string();
                    forget(&mut held, &sym);
                    held.insert(format!("{sym}_0"), a.entity.clone());
                }
            }
            "buy_shares" => {
                for id in a.fields.share_ids() {
                    held.insert(id.to_string(), a.entity.clone());
                }
            }
            "sell_shares" => {
                if matches!(a.entity, Entity::Corporation(_))
                    && let Some(Entity::Corporation(owner)) =
                        a.fields.first_share().and_then(|id| held.get(id))
                {
                    a.sold_by = Some(owner.clone());
                }
                for id in a.fields.share_ids() {
                    held.remove(id);
                }
            }
            "merge" => {
                if let Some(sym) = corporation {
                    let sym = sym.to_string();
                    forget(&mut held, &sym);
                }
                if let Entity::Corporation(sym) = &a.entity {
                    let sym = sym.clone();
                    forget(&mut held, &sym);
                }
            }
            _ => {}
        }
    }
}

/// The 18xx share ids the automatic sale of a corporation's start put into the pool (1841
/// §5.4 step 4: a start whose treasury cannot pay its minimum tokens sells IPO shares to the
/// pool at half price at once), followed over the replay. 18xx.games records no `sell_shares`
/// for that sale (`G1841::Game#auto_emr` inside the token `choose`), so the ids never show
/// going into the pool in the record ([`mark_pool_purchases`] cannot see them); a later
/// purchase of one of them comes from the pool. Which ids: 18xx takes the first of the
/// corporation's IPO shares (`corp.shares_of(corp).take(num_shares)`), i.e. the lowest ids
/// that have not left its IPO since its `par` by the record; how many: this engine's own
/// sale ([`super::start::buy_tokens`], the same count, 18xx's `ceil(2 × shortfall ÷ price)`).
///
/// Likewise a bankrupt player's certificates (1841 §14; 18xx `G1841::Step::Bankrupt` sells
/// them all to the pool without a record of their ids): the ids the record shows him holding
/// (`par`, `buy_shares`, not sold since; ids reassigned by exchanges are not known) go to the
/// pool.
#[derive(Default)]
struct UnrecordedPool {
    /// Per corporation, the 18xx indices that left its IPO since its last `par`.
    left_ipo: FxHashMap<String, BTreeSet<usize>>,
    /// Ids such a sale put in the pool that no record has bought since.
    pooled: BTreeSet<String>,
    /// The ids each player holds by the record.
    held: BTreeMap<String, Seat>,
}

impl UnrecordedPool {
    /// Follows an applied record: a `par` renews the corporation (its president's
    /// certificate `<CORP>_0` leaves the IPO), a `buy_shares` takes its ids, a `sell_shares`
    /// puts them in the pool, a `merge` forgets the holders of the corporations it names.
    fn applied(&mut self, a: &ImportedAction) {
        let player = match a.entity {
            Entity::Player(seat) => Some(seat),
            _ => None,
        };
        let corporation = a.field("corporation").and_then(Value::as_str);
        match a.kind.as_str() {
            "par" => {
                if let Some(sym) = corporation {
                    let prefix = format!("{sym}_");
                    self.pooled.retain(|id| !id.starts_with(&prefix));
                    self.held.retain(|id, _| !id.starts_with(&prefix));
                    self.left_ipo
                        .insert(sym.to_string(), BTreeSet::from([0usize]));
                    if let Some(seat) = player {
                        self.held.insert(format!("{sym}_0"), seat);
                    }
                }
            }
            "buy_shares" => {
                for id in a.fields.share_ids() {
                    self.pooled.remove(id);
                    match player {
                        Some(seat) => self.held.insert(id.to_string(), seat),
                        None => self.held.remove(id),
                    };
                    if let Some((sym, i)) = notation::parse_share_id(id) {
                        self.left_ipo.entry(sym.to_string()).or_default().insert(i);
                    }
                }
            }
            "sell_shares" => {
                for id in a.fields.share_ids() {
                    self.held.remove(id);
                }
            }
            "merge" => {
                let mut names: Vec<String> = corporation.map(str::to_string).into_iter().collect();
                if let Entity::Corporation(sym) = &a.entity {
                    names.push(sym.clone());
                }
                for sym in names {
                    let prefix = format!("{sym}_");
                    self.held.retain(|id, _| !id.starts_with(&prefix));
                }
            }
            _ => {}
        }
    }

    /// A bankrupt player's certificates go to the pool (1841 §14): those the record shows
    /// him holding, and `ledger_ids`, those 18xx's ids as followed over the replay
    /// ([`Ledger`]) gave him before the bankruptcy, exchanges included (`lite-5p-s40003` as
    /// regenerated: Player 1 received CTS_3 in the merger at id 301 and went bankrupt at id
    /// 416; IFAI's purchase of CTS_3 at id 485 came from the pool in 18xx and from the IPO
    /// here, L.35 to CTS).
    fn bankrupt(&mut self, seat: Seat, ledger_ids: Vec<String>) {
        let mut ids: Vec<String> = self
            .held
            .iter()
            .filter(|(_, s)| **s == seat)
            .map(|(id, _)| id.clone())
            .collect();
        ids.extend(ledger_ids);
        for id in ids {
            self.held.remove(&id);
            self.pooled.insert(id);
        }
    }

    /// Takes the events of a start's token purchase: a sale of a corporation's own shares
    /// there is the automatic one; its lowest IPO ids go to the pool.
    fn tokens_bought(&mut self, state: &State, events: &[super::action::Event]) {
        for e in events {
            let super::action::Event::CorporationSoldShares {
                seller,
                corporation,
                percent,
                ..
            } = e
            else {
                continue;
            };
            let Some(c) = state
                .corporation(corporation)
                .filter(|_| seller == corporation)
            else {
                continue;
            };
            let units = (percent / c.unit_percent().max(1)) as usize;
            let left = self.left_ipo.entry(corporation.clone()).or_default();
            let ids: Vec<usize> = (1..c.certificates.len())
                .filter(|i| !left.contains(i))
                .take(units)
                .collect();
            for i in ids {
                left.insert(i);
                self.pooled.insert(format!("{corporation}_{i}"));
            }
        }
    }

    /// Follows an applied record in 18xx's ids (`ledger`, brought to `state`): the
    /// certificates a `buy_shares` or `sell_shares` names move as named, then the
    /// exchanges of a merger, the split or a transformation (1841 §12) and the presidency
    /// swaps (§5.3) as 18xx makes them ([`Ledger::exchanged`], [`Ledger::settle`]). The
    /// certificates that enter the pool there without a record naming them go to the pool
    /// here: the new corporation's certificates the pool receives for its old ones (e.g.
    /// SB's after the split, §12.4, 18xx `secession_exchange_pairs`/`_singles`), and the
    /// new president's first certificates that a sale of the president's certificate sends
    /// to the pool (18xx `change_president`, `swap_to` the pool).
    fn followed(
        &mut self,
        ledger: &mut Ledger,
        state: &State,
        record: &ImportedAction,
        action: &Action,
        events: &[super::action::Event],
    ) {
        let (corporation, to) = match action {
            Action::BuyShares { corporation, .. } => (
                Some(corporation.as_str()),
                match &record.entity {
                    Entity::Player(seat) => Some(ShareOwner::Player(*seat)),
                    Entity::Corporation(sym) => Some(ShareOwner::Corporation(sym.clone())),
                    Entity::Other(_) => None,
                },
            ),
            Action::SellShares { corporation, .. } | Action::EmergencySell { corporation, .. } => {
                (Some(corporation.as_str()), Some(ShareOwner::Pool))
            }
            _ => (None, None),
        };
        let mut named: Vec<&str> = Vec::new();
        if let (Some(c), Some(to)) = (corporation, &to) {
            named = record.fields.share_ids().collect();
            ledger.move_named(c, named.iter().copied(), to);
        }
        // Trusted for the pool: the new corporation's certificates the pool receives in an
        // exchange, and a sale of the president's certificate (18xx's `<CORP>_0`); other
        // differences in the pool are the ledger settling to this engine's holdings.
        let mut watched: Vec<&str> = corporation
            .filter(|c| {
                matches!(to, Some(ShareOwner::Pool))
                    && named.iter().any(|id| *id == format!("{c}_0"))
            })
            .into_iter()
            .collect();
        for e in events {
            if let super::action::Event::SharesExchanged {
                holder: ShareOwner::Pool,
                corporation,
                ..
            } = e
                && !watched.contains(&corporation.as_str())
            {
                watched.push(corporation);
            }
        }
        let before: Vec<Vec<String>> = watched
            .iter()
            .map(|c| ledger.held(c, &ShareOwner::Pool))
            .collect();
        ledger.exchanged(events, state);
        ledger.settle(state);
        for (c, before) in watched.iter().zip(before) {
            for id in ledger.held(c, &ShareOwner::Pool) {
                if !before.contains(&id) && !named.contains(&id.as_str()) {
                    self.pooled.insert(id);
                }
            }
        }
    }

    /// Whether `a` buys a certificate such a sale put in the pool.
    fn buys_from_it(&self, a: &ImportedAction) -> bool {
        a.kind == "buy_shares"
            && a.from_pool == Some(false)
            && a.fields
                .first_share()
                .is_some_and(|id| self.pooled.contains(id))
    }
}

/// The seller of a player's `buy_shares` in a game with `p2p_purchases` (1841 §15.3) whose
/// first share the record's own tracking ([`mark_player_purchases`]) cannot place: 18xx's
/// certificate as followed over the replay ([`Ledger`]), when another player holds it. The
/// record's tracking forgets the ids of a corporation a merger re-issued (its exchanges are
/// not recorded); the ledger follows them (`p2p_purchases-3p-s80005` id 218: Player 3 buys
/// ATFA_4, which the merger of FTP into ATFA at id 182 gave Player 2, for L.45 from him; read
/// as an IPO purchase it cost L.52, more than his L.48). Only a record with a `total_price`,
/// which 18xx writes on a purchase from a player alone.
fn ledger_player_seller(ledger: &Ledger, state: &State, a: &ImportedAction) -> Option<Seat> {
    let Entity::Player(buyer) = a.entity else {
        return None;
    };
    // 18xx records a price only on a purchase from a player (`total_price`).
    if a.kind != "buy_shares"
        || a.from_player.is_some()
        || a.field("total_price").is_none()
        || !state.options.p2p_purchases
    {
        return None;
    }
    let (sym, index) = notation::parse_share_id(a.fields.first_share()?)?;
    match ledger.holder(sym, index)? {
        ShareOwner::Player(seller) if *seller != buyer => Some(*seller),
        _ => None,
    }
}

/// The top-level field naming the program that wrote an export (`"exported_by":
/// "referee-engine 0.1.0"`); 18xx.games does not write it.
pub const EXPORTED_BY: &str = "exported_by";

/// The `settings` field in which Referee's exports carry the FAQ options set explicitly
/// (`{"half_price_round_down": true, …}`; 18xx.games ignores it).
pub const FAQ_OPTIONS_SETTING: &str = "referee_faq_options";

/// The seller a genuine 18xx `buy_token` names by its slot (`city.tokens[slot]`, 1841 §9.5):
/// the corporation in that slot as followed over the replay ([`TokenSlots`]), when it has a
/// token in that city; `None` for other records, for a Referee export (which names the seller
/// itself, [`super::export18xx::REFEREE_SELLER`]) and when the slots do not say.
fn slot_seller(slots: &TokenSlots, state: &State, a: &ImportedAction) -> Option<String> {
    if a.kind != "buy_token" || a.field(super::export18xx::REFEREE_SELLER).is_some() {
        return None;
    }
    let city = a.field("city").and_then(Value::as_str)?;
    let (hex, index) = a.city_of(state, city).ok()?;
    let slot = a
        .field("slot")
        .and_then(as_whole_number)
        .and_then(|s| usize::try_from(s).ok())?;
    let seller = slots.holder(&hex, index, slot)?;
    token_holders(state, &hex, index)
        .iter()
        .any(|h| h == seller)
        .then(|| seller.to_string())
}

/// The corporations with a token in city `city` of `hex`, in the ruleset's corporation order:
/// the `slot` numbering of `buy_token` in this engine's exports and imports.
pub fn token_holders(state: &State, hex: &str, city: u32) -> Vec<String> {
    state
        .corporations
        .iter()
        .filter(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
        .map(|c| c.sym.clone())
        .collect()
}

/// Action types of an export that change nothing in the game: chat (`message`), 18xx's
/// client automation (`program_*`, whose effects are recorded as `auto_actions`) and
/// `destination_connection` records (this engine derives connections itself, 1841 §13).
pub fn is_ignored(kind: &str) -> bool {
    matches!(kind, "message" | "destination_connection") || kind.starts_with("program_")
}

/// What stopped an import, as a closed set (mirrors `referee.v1.ImportFailureKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The text ends inside a JSON value (a cut file); `line`/`column` say where.
    TruncatedJson,
    /// The text is not JSON; `line`/`column` say where.
    MalformedJson,
    /// A required top-level field is missing or ill-typed (`players`, `actions`).
    MissingField,
    /// The export is of another game than 1841 (`title`).
    UnsupportedGame,
    /// `settings.optional_rules` names a rule 1841 does not have.
    UnknownOption,
    /// An `undo` names an action id that is not an effective action.
    UndoTargetMissing,
    /// No game can be set up with these players and options (player count, 1841 §1).
    Setup,
    /// An action's fields do not fit its type (`field` names the field).
    BadAction,
    /// An action type this build does not know.
    UnknownActionType,
    /// The rules refused the action (`rejection`).
    Refused,
}

/// Why an import stopped: the action (18xx id, index among the effective actions, type), the
/// field, the reason in plain words and, for a refused action, the engine's rejection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportFailure {
    /// What kind of problem.
    pub kind: FailureKind,
    /// The 18xx action id (`None` for file-level problems and generated `auto_actions`).
    pub action_id: Option<i64>,
    /// Index of the action among the effective actions (after undo/redo, auto actions
    /// flattened in), from 0.
    pub action_index: Option<usize>,
    /// The 18xx action type (`buy_shares`).
    pub action_type: Option<String>,
    /// The field at fault (`shares`, `city`, `players`), when one is.
    pub field: Option<String>,
    /// One sentence.
    pub reason: String,
    /// The engine's rejection of a refused action.
    pub rejection: Option<Rejection>,
    /// For JSON errors: line (from 1).
    pub line: Option<u64>,
    /// For JSON errors: column (from 1).
    pub column: Option<u64>,
}

impl ImportFailure {
    fn new(kind: FailureKind, reason: String) -> Self {
        Self {
            kind,
            action_id: None,
            action_index: None,
            action_type: None,
            field: None,
            reason,
            rejection: None,
            line: None,
            column: None,
        }
    }

    fn at(mut self, index: usize, action: &ImportedAction) -> Self {
        self.action_id = action.id;
        self.action_index = Some(index);
        self.action_type = Some(action.kind.clone());
        self
    }

    /// The failure for a reading error.
    pub fn from_error(e: &ImportError) -> Self {
        let reason = e.to_string();
        match e {
            ImportError::Json {
                line,
                column,
                truncated,
                ..
            } => Self {
                line: Some(*line),
                column: Some(*column),
                ..Self::new(
                    if *truncated {
                        FailureKind::TruncatedJson
                    } else {
                        FailureKind::MalformedJson
                    },
                    reason,
                )
            },
            ImportError::Field(f) => Self {
                field: Some(f.clone()),
                ..Self::new(FailureKind::MissingField, reason)
            },
            ImportError::UnknownOption(_) => Self {
                field: Some("settings.optional_rules".into()),
                ..Self::new(FailureKind::UnknownOption, reason)
            },
            ImportError::UndoTargetMissing(id) => Self {
                action_id: Some(*id),
                field: Some("action_id".into()),
                ..Self::new(FailureKind::UndoTargetMissing, reason)
            },
            ImportError::BadAction { id, field, reason } => Self {
                action_id: *id,
                field: Some(field.clone()),
                ..Self::new(FailureKind::BadAction, reason.clone())
            },
        }
    }
}

impl std::fmt::Display for ImportFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(id) = self.action_id {
            write!(f, "action {id}")?;
            if let Some(t) = &self.action_type {
                write!(f, " ({t})")?;
            }
            write!(f, ": ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "`{field}`: ")?;
        }
        write!(f, "{}", self.reason)?;
        if let Some(r) = &self.rejection {
            write!(f, " [{}", r.code.as_str())?;
            if !r.rule.is_empty() {
                write!(f, ", {}", r.rule)?;
            }
            write!(f, "]")?;
        }
        Ok(())
    }
}

/// Options of [`replay`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplaySettings {
    /// Compare the final result and game-end reason with the recorded ones.
    pub check: bool,
    /// Stop after the effective actions with an id up to this one (and the automatic actions
    /// recorded with them): the state 18xx.games shows at `?action=<id>`.
    pub stop_at_action_id: Option<i64>,
}

/// The first difference [`replay`]'s check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// `finished`, `game_end_reason` or `result.<player id>`.
    pub field: String,
    /// Our value (`None` when we have none).
    pub ours: Option<Value>,
    /// The recorded value.
    pub recorded: Option<Value>,
    /// One sentence.
    pub reason: String,
}

/// A record of an export the replay accepted and dropped (a step this engine skips or a
/// decision it takes itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DroppedRecord {
    /// The 18xx action id (for an element of `auto_actions`, the id of the carrying action).
    pub action_id: Option<i64>,
    /// Index among the effective actions, from 0.
    pub index: usize,
    /// `pass` or `choose`.
    pub action_type: String,
    /// Whether it came from `auto_actions`.
    pub auto: bool,
    /// Which step or decision it belongs to, in a few words.
    pub reason: &'static str,
}

/// The record `action`, the effective action `index` of 18xx id `record_id` (the carrying
/// action's for an element of `auto_actions`), accepted and dropped for `reason`.
fn dropped_record(
    record_id: Option<i64>,
    index: usize,
    action: &ImportedAction,
    reason: &'static str,
) -> DroppedRecord {
    DroppedRecord {
        action_id: record_id,
        index,
        action_type: action.kind.clone(),
        auto: action.auto,
        reason,
    }
}

/// A game replayed from an export.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replayed {
    /// The parsed export (`None` when the text could not be read).
    pub export: Option<Export>,
    /// The state after the last applied action (`None` when no game could be set up).
    pub state: Option<State>,
    /// Game actions of the export (effective actions without [`is_ignored`] ones).
    pub actions_total: usize,
    /// The engine actions applied, with their seats, in order.
    pub actions: Vec<(Seat, Action)>,
    /// Recorded passes for a step this engine skips, accepted and dropped: 18xx.games' track
    /// step, which opens every corporation's turn even when no tile can be laid (a `pass` as
    /// the corporation's first record while this engine has moved past its track step), and
    /// the optional second home token of a non-historical major when no city of its region
    /// has a free slot.
    pub passes_dropped: usize,
    /// Recorded records of steps this engine skips or decides itself, accepted and dropped,
    /// besides [`Replayed::passes_dropped`]: 18xx.games' automatic `pass` of a step this
    /// engine does not open (the token purchase from another corporation with nothing to buy),
    /// a major's `pass` ending a track step 18xx.games keeps open for further lays this
    /// engine has no legal lay for, and a corporation's token count (`choose`) this engine
    /// settled itself (a single possible count). Each is listed in [`Replayed::dropped`].
    pub records_dropped: usize,
    /// Passes this engine's replay added for optional steps it opens where 18xx.games offered
    /// nothing and so recorded nothing (a corporation's share step, a merger or
    /// transformation offer, a token step, a further train purchase): the next record is for a later step or the next
    /// corporation ([`step_18xx_skipped`]).
    pub passes_inserted: usize,
    /// Answers of corporate events this engine asks and 18xx.games settled by itself, added
    /// before the record that follows them ([`choose`]): a merger's presidency not claimed, an
    /// odd merger share sold for cash (18xx.games had no other option there).
    pub choices_inserted: usize,
    /// Every dropped record (passes and choices), in order: 18xx action id (of the carrying
    /// action for an automatic one), type, and why.
    pub dropped: Vec<DroppedRecord>,
    /// For each applied action, the id of the record it comes from (for an element of
    /// `auto_actions`, the id of the action that carries it; `None` before any id).
    pub action_ids: Vec<Option<i64>>,
    /// Our result once the game has ended (scores by seat, end reason).
    pub outcome: Option<Outcome>,
    /// The game ended and every action was applied.
    pub finished: bool,
    /// The replay stopped at [`ReplaySettings::stop_at_action_id`].
    pub stopped_at_limit: bool,
    /// Why the replay stopped early.
    pub failure: Option<ImportFailure>,
    /// With [`ReplaySettings::check`]: the first difference from the recorded result (`None`
    /// inside = identical). Not set without the check.
    pub check: Option<Option<Difference>>,
    /// The replay stopped because its caller went away ([`crate::interrupt::cancelled`],
    /// looked at before every action); the rest of the answer is of no use.
    pub cancelled: bool,
}

/// Replays an 18xx.games export of 1841 through the engine: parses it ([`parse_export`]),
/// sets up the game with its players (seat order = `players` order) and options, maps each
/// effective game action ([`ImportedAction::to_action`]) and applies it, stopping at the first
/// action that cannot be read, is unknown or is refused (`failure`), or after
/// `stop_at_action_id`. With `check`, compares our result and end reason with the recorded
/// ones. Pure and total: every problem is a [`ImportFailure`], never a panic. Shared by the
/// `referee replay-18xx` command and the `ImportGame` RPC.
pub fn replay(text: &str, settings: &ReplaySettings) -> Replayed {
    let mut out = Replayed::default();
    let export = match parse_export(text) {
        Ok(e) => e,
        Err(e) => {
            out.failure = Some(ImportFailure::from_error(&e));
            return out;
        }
    };
    out.actions_total = export
        .actions
        .iter()
        .filter(|a| !is_ignored(&a.kind))
        .count();
    if !export.title.is_empty() && export.title != "1841" {
        out.failure = Some(ImportFailure {
            field: Some("title".into()),
            ..ImportFailure::new(
                FailureKind::UnsupportedGame,
                format!(
                    "the export is a game of `{}`; this build imports 1841 only",
                    export.title
                ),
            )
        });
        out.export = Some(export);
        return out;
    }
    let setup = match export.options() {
        Err(e) => Err(ImportFailure::from_error(&e)),
        Ok(options) => {
            let seats = u32::try_from(export.players.len()).unwrap_or(u32::MAX);
            // Seats are found by player id: two players with one id cannot be told apart.
            // (One pass: an export of 100,000 players took minutes comparing each with
            // each before its seat count was refused; issue #24.)
            let mut seen = std::collections::HashMap::with_capacity(export.players.len());
            let duplicate = export.players.iter().enumerate().find_map(|(i, p)| {
                let first = *seen.entry(p.id.as_str()).or_insert(i);
                (first < i).then(|| (first, i, p.id.clone()))
            });
            match duplicate {
                Some((first, i, id)) => Err(ImportFailure {
                    field: Some(format!("players[{i}].id")),
                    ..ImportFailure::new(
                        FailureKind::Setup,
                        format!(
                            "players[{i}] has the id `{id}` of players[{first}]; every player needs \
                             its own id (actions name their player by id)"
                        ),
                    )
                }),
                None => G1841::setup(&options, seats, 0).map_err(|e| ImportFailure {
                    field: Some("players".into()),
                    ..ImportFailure::new(FailureKind::Setup, e.to_string())
                }),
            }
        }
    };
    let mut state = match setup {
        Ok(s) => s,
        Err(f) => {
            out.failure = Some(f);
            out.export = Some(export);
            return out;
        }
    };
    let mut record_id = None;
    let mut track = TrackStep::default();
    let mut turn_end = TurnEndPasses::default();
    let mut token_step = TokenStepPasses::default();
    let mut played_through = PlayedThroughPasses::default();
    // The major whose compulsory second token the last action bought (a transformation's
    // token step open, 1841 §12.2).
    let mut compulsory: Option<String> = None;
    // The major whose transformation the last action ended right after buying its compulsory
    // second token (18xx still asks its count, [`transformation_settled`]).
    let mut settled: Option<String> = None;
    // The last record applied (index into the export's actions).
    let mut previous: Option<usize> = None;
    // A pass of 18xx's track step dropped since (index): the record before a pass of 18xx's
    // token step, which follows the track step (1841 §9.2).
    let mut track_passed: Option<usize> = None;
    let mut unrecorded_pool = UnrecordedPool::default();
    // 18xx's token slots, which a genuine `buy_token` names its seller by (1841 §9.5).
    let mut token_slots = TokenSlots::default();
    let mut located = TokenSlots::locate(&state);
    // 18xx's share ids over the replay (the certificates exchanges put in the pool).
    let mut ledger = Ledger::new(&state);
    let mut answers = choose::Answers::default();
    if export.referee_export {
        answers.referee_export();
    }
    for (index, recorded) in export.actions.iter().enumerate() {
        // A purchase of a certificate a start's automatic sale put in the pool (1841 §5.4);
        // a token purchase from 18xx's slot.
        let marked;
        let action = if unrecorded_pool.buys_from_it(recorded) {
            let mut a = recorded.clone();
            a.from_pool = Some(true);
            marked = a;
            &marked
        } else if let Some(seller) = (!export.referee_export)
            .then(|| ledger_player_seller(&ledger, &state, recorded))
            .flatten()
        {
            let mut a = recorded.clone();
            a.from_player = Some(seller);
            marked = a;
            &marked
        } else if let Some(seller) = slot_seller(&token_slots, &state, recorded) {
            let mut a = recorded.clone();
            a.fields.set(Field::RefereeSeller, Value::from(seller));
            marked = a;
            &marked
        } else {
            recorded
        };
        if action.id.is_some() && !action.auto {
            record_id = action.id;
        }
        if is_ignored(&action.kind) {
            continue;
        }
        if crate::interrupt::cancelled() {
            out.cancelled = true;
            break;
        }
        if let Some(reason) = played_through
            .drops(action)
            .or_else(|| turn_end.drops(action))
        {
            out.records_dropped += 1;
            out.dropped
                .push(dropped_record(record_id, index, action, reason));
            continue;
        }
        let track_pass = track.drops(&state, action);
        if track_pass.is_some() {
            track_passed = Some(index);
        }
        if let Some(reason) = track_pass
            .or_else(|| second_home_pass(&state, action))
            .or_else(|| token_count_by_player(&state, action))
            .or_else(|| discard_without_controller(&state, action))
            .or_else(|| repeat_round_declined(&state, action))
            .or_else(|| merger_second_city_removal(&state, action))
        {
            out.passes_dropped += 1;
            out.dropped
                .push(dropped_record(record_id, index, action, reason));
            continue;
        }
        if let Some(reason) = token_step
            .drops(&state, action)
            .or_else(|| {
                pass_after_turn(&state, action, previous.and_then(|i| export.actions.get(i)))
            })
            .or_else(|| stock_round_last_pass(&state, action, &played_through.due))
        {
            out.records_dropped += 1;
            out.dropped
                .push(dropped_record(record_id, index, action, reason));
            continue;
        }
        if let (Some(stop), Some(id)) = (settings.stop_at_action_id, action.id)
            && id > stop
        {
            out.stopped_at_limit = true;
            break;
        }
        // Corporate-event answers in this engine's order, or dropped, or a rules divergence
        // ([`choose`]).
        let mut inserted = 0;
        let planned = match answers.plan(&state, action) {
            choose::Plan::Normal => None,
            choose::Plan::Drop(reason) => {
                out.records_dropped += 1;
                out.dropped
                    .push(dropped_record(record_id, index, action, reason));
                continue;
            }
            choose::Plan::Diverge(f) => {
                out.failure = Some(f.at(index, action));
                break;
            }
            choose::Plan::Play {
                actions,
                inserted: n,
            } => {
                inserted = n;
                Some(actions)
            }
        };
        // A purchase from another player replays as the offer and its acceptance (1841 §15.3).
        let mapped = match planned {
            Some(list) => Ok(list),
            None => action.to_actions(&state),
        };
        let failure = match mapped {
            Err(e) => ImportFailure::from_error(&e).at(index, action),
            Ok(list) if list.is_empty() => ImportFailure {
                field: Some("type".into()),
                ..ImportFailure::new(
                    FailureKind::UnknownActionType,
                    format!(
                        "action type `{}` is not supported by this build (not an 1841 action it knows)",
                        action.kind
                    ),
                )
            }
            .at(index, action),
            Ok(mut list) => {
                // 18xx's count of a transformation's tokens includes the compulsory second
                // token this engine bought when the step began (1841 §12.2).
                if let (Some(major), [(_, Action::BuyTokens { count })]) =
                    (compulsory.as_deref(), list.as_mut_slice())
                    && matches!(&state.round, Round::OperatingRound(r)
                        if matches!(r.event.as_deref(),
                            Some(CorporateEvent::Transformation(t)) if t.major == major))
                {
                    *count = count.saturating_sub(1);
                }
                let mut refused;
                let mut filled = 0;
                loop {
                    refused = None;
                    for (seat, a) in &list {
                        let pre = matches!(state.round, Round::OperatingRound(_))
                            .then(|| state.clone());
                        // 18xx's ids the bankrupt holds before his sales (1841 §14).
                        let bankrupt_ids = match a {
                            Action::DeclareBankruptcy { .. } => {
                                ledger.held_by(&ShareOwner::Player(*seat))
                            }
                            _ => Vec::new(),
                        };
                        // The home reservations holding before the action ([`reserved_slots`]).
                        let waiting = waiting_homes(&state);
                        match G1841::apply(&mut state, *seat, a) {
                            Ok(events) => {
                                turn_end.applied(pre.as_ref(), &state, a);
                                played_through.applied(&state, &events);
                                token_step.applied(pre.as_ref(), &state);
                                answers.applied(&events);
                                let now = TokenSlots::locate(&state);
                                token_slots.follow(
                                    &located,
                                    &now,
                                    &pre.as_ref()
                                        .map(|p| retiled_hexes(p, &state))
                                        .unwrap_or_default(),
                                    matches!(a, Action::BuyToken { .. }),
                                    &events,
                                    &|hex, city| reserved_slots(&state, &waiting, hex, city),
                                );
                                located = now;
                                if let Some(pre) = &pre {
                                    ledger.merger_treasury(pre, &state, &events);
                                }
                                if !export.referee_export && list.len() == 1 {
                                    unrecorded_pool.followed(
                                        &mut ledger,
                                        &state,
                                        action,
                                        a,
                                        &events,
                                    );
                                } else {
                                    ledger.settle(&state);
                                }
                                compulsory = compulsory_token(&state, &events);
                                settled = transformation_settled(pre.as_ref(), &state, a, &events);
                                match a {
                                    Action::BuyTokens { .. } => {
                                        unrecorded_pool.tokens_bought(&state, &events)
                                    }
                                    Action::DeclareBankruptcy { .. } => {
                                        unrecorded_pool.bankrupt(*seat, bankrupt_ids)
                                    }
                                    _ => {}
                                }
                                out.actions.push((*seat, a.clone()));
                                out.action_ids.push(record_id);
                            }
                            Err(r) => {
                                refused = Some(r);
                                break;
                            }
                        }
                    }
                    // An optional step this engine opens and 18xx.games did not (it offered
                    // nothing there): the record is for a later step or the next
                    // corporation; the step is passed and the record tried again.
                    let Some(r) = &refused else { break };
                    let Some(seat) = (filled < 4 && list.len() == 1)
                        .then(|| step_18xx_skipped(&state, action, r))
                        .flatten()
                    else {
                        break;
                    };
                    if G1841::apply(&mut state, seat, &Action::Pass).is_err() {
                        break;
                    }
                    filled += 1;
                    out.actions.push((seat, Action::Pass));
                    out.action_ids.push(record_id);
                    out.passes_inserted += 1;
                    match action.to_actions(&state) {
                        Ok(l) if !l.is_empty() => list = l,
                        _ => break,
                    }
                }
                let Some(r) = refused else {
                    out.choices_inserted += inserted;
                    unrecorded_pool.applied(action);
                    previous = Some(index);
                    track_passed = None;
                    continue;
                };
                let before = track_passed.or(previous).and_then(|i| export.actions.get(i));
                if let Some(reason) = skipped_record(&state, action, before, &r, &played_through.due).or_else(|| {
                    (r.code == crate::RejectionCode::GameOver
                        && is_token_count_of(action, settled.as_deref()))
                    .then_some("token count this engine settled itself, the game's end")
                }) {
                    out.records_dropped += 1;
                    out.dropped.push(dropped_record(record_id, index, action, reason));
                    continue;
                }
                ImportFailure {
                    reason: r.message.clone(),
                    rejection: Some(r),
                    ..ImportFailure::new(FailureKind::Refused, String::new())
                }
                .at(index, action)
            }
        };
        out.failure = Some(failure);
        break;
    }
    out.outcome = G1841::outcome(&state);
    out.finished = out.outcome.is_some() && out.failure.is_none();
    if settings.check {
        out.check = Some(first_difference(&export, &out));
    }
    out.state = Some(state);
    out.export = Some(export);
    out
}

/// The major of the transformation whose token count is asked now when `events` (of the
/// action just applied) bought its compulsory second token (1841 §12.2, L.50): 18xx.games'
/// count (`transform_tokens`, `min` 1) then includes that token.
fn compulsory_token(state: &State, events: &[super::action::Event]) -> Option<String> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    let Some(CorporateEvent::Transformation(t)) = r.event.as_deref() else {
        return None;
    };
    let price = data::ruleset(&state.options)
        .token_prices
        .transformation_required_second_token;
    events
        .iter()
        .any(|e| {
            matches!(e, super::action::Event::TokensBought { corporation, count: 2, price: p }
                if *corporation == t.major && *p == price)
        })
        .then(|| t.major.clone())
}

/// The major whose transformation ended with `action` (`pre → post`, `events`) as soon as its
/// compulsory second token was bought (1841 §12.2, L.50: no further token affordable, so this
/// engine asks no count), where 18xx.games still asks its count (`transform_tokens`, `min` =
/// `max` = 1) and the writer adds that `choose 1` after the action (`Writer::compulsory_token`
/// in [`super::export18xx`], whose test this is). The importer drops it again: refused "in the
/// wrong step" ([`skipped_record`]), or "the game is over" when the action also ended the game
/// (heuristic 7 players seed 7177, 18xx id 2106: ATFA's count after SLDV's transformation, the
/// bank broken and the last operating round over; [`is_token_count_of`]).
fn transformation_settled(
    pre: Option<&State>,
    post: &State,
    action: &Action,
    events: &[super::action::Event],
) -> Option<String> {
    let transformation = |s: &State| match &s.round {
        Round::OperatingRound(r) => match r.event.as_deref() {
            Some(CorporateEvent::Transformation(t)) => Some(t.major.clone()),
            _ => None,
        },
        _ => None,
    };
    if transformation(post).is_some() {
        return None;
    }
    let bought = super::export18xx::compulsory_token_bought(post, events)?;
    let ours = matches!(action, Action::Transform { .. })
        || pre.and_then(transformation).as_ref() == Some(&bought);
    ours.then_some(bought)
}

/// Whether `action` is a token count (`choose` with a number) of the corporation `major`.
fn is_token_count_of(action: &ImportedAction, major: Option<&str>) -> bool {
    action.kind == "choose"
        && matches!((&action.entity, major), (Entity::Corporation(c), Some(m)) if c == m)
        && action.field("choice").is_some_and(|c| {
            as_whole_number(c).is_some() || c.as_str().is_some_and(|t| t.parse::<u32>().is_ok())
        })
}

/// The start of a corporation in progress (1841 §5.4), in a stock round or an operating
/// round's share step.
pub fn corporation_start(state: &State) -> Option<&super::state::CorporationStart> {
    match &state.round {
        Round::StockRound(r) => r.start.as_ref(),
        Round::OperatingRound(r) => r.start.as_ref(),
        Round::ConcessionRound(_) => None,
    }
}

/// Whether `action` is 18xx.games' `pass` of the optional second home token of a
/// non-historical major (1841 §5.4 step 3) that this engine skipped because no city of the
/// region has a free slot (18xx offers the step while the region has another city at all).
fn second_home_pass(state: &State, action: &ImportedAction) -> Option<&'static str> {
    let st = corporation_start(state)?;
    (action.kind == "pass"
        && matches!(&action.entity, Entity::Corporation(c) if *c == st.corporation)
        && st.step == super::state::StartStep::BuyTokens
        && super::start::home_optional(state, &st.corporation))
    .then_some("optional second home token with no free city")
}

/// Whether `action` is 18xx.games' "no" to another round of purchases of a successor in the
/// Ferdinandea split (`secession_offer_again`, `choose "n"`) where this engine has already
/// closed that successor's purchases (1841 §12.4: it asks only the president of a successor a
/// player controls, while a holder can buy and the last round sold a share; the writer
/// records 18xx's other questions as declined, [`super::export18xx`]). The answer is the one
/// this engine took. Such a record arrives while this engine asks nothing of the split (its
/// tokens, or the split already over, another event open or none: `choose "n"` is only this
/// question in 1841), or while
/// it asks about the other successor (the record's entity is not that successor: IRSFF's
/// president for a successor no player controls, or the other successor).
fn repeat_round_declined(state: &State, action: &ImportedAction) -> Option<&'static str> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    if action.kind != "choose" || action.field("choice").and_then(Value::as_str) != Some("n") {
        return None;
    }
    let closed = match r.event.as_deref() {
        Some(CorporateEvent::Split(sp)) => {
            sp.stage != SplitStage::RepeatRound
                || !matches!(&action.entity, Entity::Corporation(c) if *c == sp.corporation)
        }
        // Another event already open (a merger voted right after the split, seed 6 of
        // `g1841_share_ids`): none of its questions is answered "n".
        _ => true,
    };
    closed.then_some("another round of split purchases this engine closed itself")
}

/// Whether `action` is 18xx.games' `discard_train` by a corporation no player controls:
/// this engine discards such a corporation's lowest trains itself when the limit drops
/// (1841 §9.6, interpretation I26), so the record has nothing left to do (another train
/// chosen by 18xx is a rules matter: the states part there).
/// Whether `action` is 18xx.games' removal of one of two merging corporations' tokens on a
/// two-city tile (yellow Torino H4, yellow Firenze; `merger_tokens_start` asks which goes,
/// 1841 §12.1) that this engine already made by itself: only in the automatic first step of
/// the Tuscan merge now (§12.3; the second minor's token goes), while a merger's choice
/// (stage `TwoCityTile`, and the removals of stage `Tokens`) reads as its `RemoveToken` —
/// so an export written before the choice was asked (the second corporation's token, at the
/// same place) still replays. Dropped when the named city holds no token of the corporation
/// removing (or, for a player, of any corporation with a token in another city of the hex)
/// while the hex holds one in another city, and no merger's own token removal is open on
/// that city.
fn merger_second_city_removal(state: &State, action: &ImportedAction) -> Option<&'static str> {
    if action.kind != "remove_token" {
        return None;
    }
    let (hex, city) = action
        .city_of(state, action.field("city")?.as_str()?)
        .ok()?;
    if let Round::OperatingRound(r) = &state.round
        && let Some(CorporateEvent::Merger(m)) = r.event.as_deref()
        && matches!(m.stage, MergerStage::TwoCityTile | MergerStage::Tokens)
        && state
            .corporation(&m.target)
            .is_some_and(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
    {
        return None;
    }
    let elsewhere = |c: &super::state::Corporation| {
        c.tokens.iter().any(|t| t.hex == hex && t.city != city)
            && !c.tokens.iter().any(|t| t.hex == hex && t.city == city)
    };
    let by_rule = match &action.entity {
        Entity::Corporation(sym) => state.corporation(sym).is_some_and(elsewhere),
        _ => state.corporations.iter().any(elsewhere),
    };
    by_rule.then_some("token on a two-city tile a merger removed by rule")
}

/// Whether `action` is 18xx.games' `discard_train` by a corporation nobody decides for
/// ([`operating_round::discard_seat`]: no controller, and not a merger's new corporation
/// before its presidency, whose discard the merger's decider makes, 1841 §12.1): this engine
/// discards such a corporation's lowest trains itself (1841 §9.6, I26). Dropped.
fn discard_without_controller(state: &State, action: &ImportedAction) -> Option<&'static str> {
    (action.kind == "discard_train"
        && matches!(&action.entity, Entity::Corporation(c)
            if operating_round::discard_seat(state, c).is_none()))
    .then_some("train discard of a corporation nobody controls (automatic here)")
}

/// Whether `action` is 18xx.games' token count (`choose` with a number) asked of a player in
/// an operating round: 18xx asks IRSFF's president for a split successor without a president
/// (`secession_tokens`, `@secession_decider`) and the Tuscan merge's decider for a
/// presidentless SFLi (`transform_tokens`), where this engine buys no token for a
/// corporation nobody controls (1841 §12.4, §12.3). A corporation's own counts name the
/// corporation. Dropped: a count other than 0 is a decision this engine took otherwise (the
/// states part there, a rules matter for the conformance issue). Also in a stock round, which
/// asks players no count: the split's end, with the operating round's last train purchase,
/// may have begun it (lite 3 players random seed 3101, 18xx id 173: IRSFF's president's
/// `choose 0` for SB after ICSF's 4-train ended the round; it met "It is seat 2's turn").
fn token_count_by_player(state: &State, action: &ImportedAction) -> Option<&'static str> {
    let number = action.field("choice").and_then(|c| {
        as_whole_number(c).or_else(|| c.as_str().and_then(|t| t.parse::<i64>().ok()))
    })?;
    (action.kind == "choose"
        && matches!(action.entity, Entity::Player(_))
        && matches!(state.round, Round::OperatingRound(_) | Round::StockRound(_)))
    .then_some(if number == 0 {
        "token count of a corporation without a president (none, as this engine decides)"
    } else {
        "token count of a corporation without a president (18xx bought some; this engine none)"
    })
}

/// Whether `action` is a corporation's `pass` after this engine ended its operating turn
/// (18xx.games' transformation step, which it offers to a minor this engine lets go on, 1841
/// §12.2; written by a Referee export, [`super::export18xx`]). Dropped before it is read, as
/// its seat may control the corporation operating now.
///
/// When that turn was the last of its operating round, the next round has begun (an operating
/// round with no turn done yet, or a stock round not starting this corporation): the pass
/// follows the corporation's own last record (`previous`).
fn pass_after_turn(
    state: &State,
    action: &ImportedAction,
    previous: Option<&ImportedAction>,
) -> Option<&'static str> {
    let Entity::Corporation(c) = &action.entity else {
        return None;
    };
    if action.kind != "pass" {
        return None;
    }
    let after_own = !action.auto && previous.is_some_and(|p| p.entity == action.entity);
    const ROUND_END: &str = "operating turn this engine ended itself, the round's last";
    let r = match &state.round {
        Round::OperatingRound(r) => r,
        Round::StockRound(sr) => {
            return (after_own && sr.start.as_ref().is_none_or(|st| st.corporation != *c))
                .then_some(ROUND_END);
        }
        _ => return None,
    };
    if r.event.is_some() || r.start.is_some() || !r.crowded.is_empty() {
        return None;
    }
    if r.current.as_ref() == Some(c) {
        return None;
    }
    if r.done.contains(c) {
        return Some("operating turn this engine ended itself (nothing legal)");
    }
    // 18xx.games' removal of SFLi's tokens after the Tuscan merge (`G1841::Step::
    // RemoveTokens`) waits for a `pass` also when only SFLi's last non-pass token is left,
    // which neither engine removes; this engine's removal ends there (1841 §12.3).
    if data::ruleset(&state.options)
        .tuscan_merge
        .as_ref()
        .is_some_and(|t| t.result == *c)
    {
        return Some("end of the optional removal of SFLi's tokens this engine does not open");
    }
    (r.done.is_empty() && after_own).then_some(ROUND_END)
}

/// Whether `action` is a player's `pass` ending a stock round this engine had already ended:
/// the last turn of the round passed by itself (nothing legal, 1841 §5.1), where 18xx.games
/// still offered the player something it could not carry out and recorded his pass
/// ([`super::export18xx::stock_turns`]). The operating round has begun with no turn done (the
/// round may have ended with the action before: a sale, after which every other player and
/// then the seller passed by themselves). Dropped before it is read: read as a pass of the
/// player, it would pass the track step of a corporation he controls (a corporation's own
/// record names the corporation; 18xx records no player's `pass` in an operating round but
/// in a corporate event's decisions).
fn stock_round_last_pass(
    state: &State,
    action: &ImportedAction,
    played_through: &std::collections::VecDeque<String>,
) -> Option<&'static str> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    (action.kind == "pass"
        && !action.auto
        && matches!(action.entity, Entity::Player(_))
        && r.event.is_none()
        && r.start.is_none()
        && no_turn_recorded_yet(state, r, played_through)
        && r.laid_hexes.is_empty())
    .then_some("stock-round turn this engine passed itself (nothing legal), the round's end")
}

/// Whether no corporation has had a turn with records in the operating round `r` yet: none
/// is done but frozen ones, whose turn is automatic (1841 §7.4: a frozen corporation only
/// moves left; 18xx records nothing for it). A frozen corporation first in the order operates
/// as soon as the stock round ends (v2 4 players seed 2002 of `g1841_export`: SFLi). Nor
/// ones whose turn this engine played through with nothing legal (`played_through`: their
/// 18xx.games passes, [`PlayedThroughPasses`], are still to be read, after the players' last
/// passes of the stock round: version_1 random 7 players seed 7116, id 895, CTS with no
/// train, no cash and no lay, first in the order).
fn no_turn_recorded_yet(
    state: &State,
    r: &super::state::OperatingRound,
    played_through: &std::collections::VecDeque<String>,
) -> bool {
    r.done
        .iter()
        .all(|c| super::corporation::frozen(state, c) || played_through.contains(c))
}

/// The `pass` records 18xx.games (and this engine's writer) has after an action for steps it
/// keeps open there and this engine does not (a transformation offer at the end of a minor's
/// turn, 1841 §12.2; the optional removal of SFLi's tokens after the Tuscan merge, §12.3; the
/// train step of a corporation frozen mid-turn, §7.4: [`super::export18xx::turn_end_passes`]).
/// Read as a pass of the corporation's controller, such a record would pass whatever that
/// player is asked next: another corporation of his beginning its turn, SFLi's first turn
/// right after the merge, or the same corporation, last of one operating round and first of
/// the next (after a bankruptcy or a merger few corporations may be left), its new turn's
/// track step. Counted in [`Replayed::records_dropped`], as the passes after a turn this
/// engine ended itself.
#[derive(Default)]
struct TurnEndPasses {
    /// The corporations whose pass is still due, in the order written.
    due: std::collections::VecDeque<(String, bool)>,
}

impl TurnEndPasses {
    /// Follows an applied action (`pre` = the state before it, when in an operating round).
    fn applied(&mut self, pre: Option<&State>, post: &State, action: &Action) {
        self.due.clear();
        if let Some(pre) = pre {
            self.due
                .extend(super::export18xx::turn_end_passes(pre, post, action));
        }
    }

    /// Whether `action` is such a pass (to be dropped); any other record ends the wait, but
    /// those the writer puts before these passes: the decisions (`choose`) 18xx asks between
    /// (the count of a transformation's tokens, the split's "another round?" and its tokens
    /// for a successor without a president) and a merger's token removals with no action of
    /// ours (on a two-city tile).
    fn drops(&mut self, action: &ImportedAction) -> Option<&'static str> {
        if action.auto || matches!(action.kind.as_str(), "choose" | "remove_token") {
            return None;
        }
        let due = self.due.pop_front();
        match (&action.entity, due) {
            (Entity::Corporation(c), Some((d, tuscan))) if action.kind == "pass" && *c == d => {
                Some(if tuscan {
                    "end of the optional removal of SFLi's tokens this engine does not open"
                } else {
                    "operating turn this engine ended itself (nothing legal)"
                })
            }
            _ => {
                self.due.clear();
                None
            }
        }
    }
}

/// The `pass` records of 18xx.games' track step that the writer adds after an action during
/// which this engine played whole operating turns by itself, one per corporation with a token
/// ([`super::export18xx::turns_played_through`]: 18xx opens the track step of every such
/// corporation and waits for its `pass` even when no tile can be laid, 1841 §9.1, where this
/// engine, with nothing legal in any step, moves on). Followed over the replay as the writer
/// decides it, not by the round read from the state: when such a turn was the operating
/// round's last, the next round has begun when the pass is read (a stock round, or the next
/// operating round with its first corporation's track step open, whose controller the pass
/// would otherwise pass: v2 7 players seed 7138, 18xx id 1478, SB after ATFA, and FTP's lay
/// then refused "in its routes step"; heuristic 5 players seed 5171, id 550: SB's pass read in
/// the stock round, "It is seat 0's turn, not seat 1's"). The writer puts them in operating
/// order after the passes of [`TurnEndPasses`] and of the ended turn's token step, and before
/// the token-step pass of the turn begun ([`TokenStepPasses`]); those are left to their own
/// followers, and the next record applied ends the wait.
#[derive(Default)]
struct PlayedThroughPasses {
    /// The corporations whose pass is still due, in operating order.
    due: std::collections::VecDeque<String>,
}

impl PlayedThroughPasses {
    /// Follows an applied action (`events`: its events, `post`: the state after it).
    fn applied(&mut self, post: &State, events: &[super::action::Event]) {
        self.due.clear();
        self.due
            .extend(super::export18xx::turns_played_through(post, events));
    }

    /// Whether `action` is such a pass (to be dropped): a recorded `pass` of the corporation
    /// due first. Another record leaves the wait as it is (the writer puts other steps'
    /// passes before these; any record applied ends it).
    fn drops(&mut self, action: &ImportedAction) -> Option<&'static str> {
        let Entity::Corporation(c) = &action.entity else {
            return None;
        };
        if action.auto || action.kind != "pass" || self.due.front() != Some(c) {
            return None;
        }
        self.due.pop_front();
        Some("operating turn this engine ended itself (nothing legal)")
    }
}

/// The `pass` records of 18xx.games' token step (`Engine::Step::Token`, 1841 §9.2) that the
/// writer adds after an action where this engine, finding no legal placement, skipped the
/// step ([`super::export18xx::token_step_opened_in_18xx`]: the corporation whose turn ended
/// with the action, then the one whose turn began). Read as a pass of whatever this engine
/// asks next, such a record would pass a step that is still to come: with `p2p_purchases`
/// (the token purchase from another corporation, §9.5, is a step of its own) a lay followed
/// by the token step's pass and a `buy_token` had the pass close the purchase step and the
/// purchase refused ("in its trains step"). Followed over the replay as the writer decides
/// it; any other record (but those the track step drops, written between) ends the wait.
#[derive(Default)]
struct TokenStepPasses {
    /// The corporations whose token-step pass is still due, in the order written.
    due: std::collections::VecDeque<String>,
}

impl TokenStepPasses {
    /// Follows an applied action (`pre` = the state before it, when in an operating round;
    /// without it, the turn that began with an operating round's start).
    fn applied(&mut self, pre: Option<&State>, post: &State) {
        self.due.clear();
        for began in [false, true] {
            if let Some(corp) = super::export18xx::token_step_opened_in_18xx(pre, post, began) {
                self.due.push_back(corp);
            }
        }
    }

    /// Whether `action` is such a pass (to be dropped): a recorded (not automatic) `pass` of
    /// the corporation due first, which this engine has moved past its token step.
    fn drops(&mut self, state: &State, action: &ImportedAction) -> Option<&'static str> {
        if action.auto {
            return None;
        }
        let due = self.due.pop_front();
        let past_token = |c: &str| match &state.round {
            Round::OperatingRound(r) if r.current.as_deref() == Some(c) => {
                r.step > OperatingStep::Token && r.event.is_none() && r.start.is_none()
            }
            Round::OperatingRound(r) => r.done.iter().any(|d| d == c),
            _ => false,
        };
        match (&action.entity, due) {
            (Entity::Corporation(c), Some(d))
                if action.kind == "pass" && *c == d && past_token(c) =>
            {
                Some("token step with no legal placement")
            }
            _ => {
                self.due.clear();
                None
            }
        }
    }
}

/// How many tiles 18xx.games' track step lets `corp` lay in one turn
/// (`G1841::Step::Track#num_possible_lays`): a minor 1; a major one per base (token in a
/// non-pass city) in phase 2, at most 2 in phases 3 and 4, then 1 (1841 §9.1). Its step stays
/// open, waiting for a lay or a `pass`, until that many tiles are laid.
fn xx_possible_lays(state: &State, corp: &str) -> usize {
    let major = state
        .corporation(corp)
        .is_some_and(|c| c.kind == super::state::CorporationKind::Major);
    if !major {
        return 1;
    }
    let bases = super::track::bases(state, corp).len();
    match state.phase.as_str() {
        "2" => bases,
        "3" | "4" => bases.min(2),
        _ => 1,
    }
}

/// 18xx.games' track step (`G1841::Step::Track`) opens every corporation's operating turn,
/// also when no tile can be laid, and stays open after a lay while its count of lays
/// ([`xx_possible_lays`]) allows another: its record then has a `pass` where this engine has
/// already moved on (1841 §9.1: the track action is optional; this engine skips a step with
/// nothing legal). Followed over the replay: the step is open from the start of a
/// corporation's turn, and again after each of its lays while 18xx's count allows more, until
/// the corporation's next record.
#[derive(Default)]
struct TrackStep {
    /// The turn followed: the operating round (stock round and number) and the corporation
    /// (a corporation can end one round's turns and begin the next round's).
    turn: Option<(u32, u32, String)>,
    open: bool,
    lays: usize,
}

impl TrackStep {
    /// Whether `action` is 18xx's pass of a track step this engine skipped (to be dropped),
    /// and which.
    fn drops(&mut self, state: &State, action: &ImportedAction) -> Option<&'static str> {
        let Round::OperatingRound(r) = &state.round else {
            self.turn = None;
            return None;
        };
        let turn = r
            .current
            .as_ref()
            .map(|c| (r.stock_round, r.number, c.clone()));
        if turn != self.turn {
            self.open = turn.is_some();
            self.turn = turn;
            self.lays = 0;
            // A turn first seen after its lays: a record that opened it applied them too
            // (the odd merger shares this engine asks at the presidency's record, played
            // with the next record, a lay of the next corporation: v2 8 players seed 8170,
            // 18xx ids 922-926, SFLi's lay after RSFS's formation; its open track step's
            // `pass` was read as the pass of SFLi's token step, and its token refused "in
            // its routes step"). The lays are the state's.
            if let Some(c) = r.current.as_deref()
                && !r.laid_hexes.is_empty()
            {
                self.lays = r.laid_hexes.len();
                self.open = self.lays < xx_possible_lays(state, c);
            }
        }
        let operating = match &action.entity {
            Entity::Corporation(c) if Some(c) == r.current.as_ref() => c,
            _ => return None,
        };
        // 18xx's track step takes no automatic actions: an automatic pass is another step's.
        if !self.open || action.auto {
            return None;
        }
        if action.kind == "lay_tile" && !action.auto {
            self.lays += 1;
            self.open = self.lays < xx_possible_lays(state, operating);
            return None;
        }
        // A decision of a step 18xx asks before the track step leaves it open: the split's
        // "another round of purchases?" of a successor whose turn the split's end began
        // (lite 3 players random seed 3163, 18xx ids 422–423: SB's `choose n`, then its
        // track step's `pass`, which was read as its token purchase's pass and ended its
        // turn before its share purchase at id 426).
        if action.kind == "choose" {
            return None;
        }
        self.open = false;
        let skipped = action.kind == "pass"
            && r.event.is_none()
            && r.crowded.is_empty()
            && r.step != OperatingStep::Track
            && r.start.is_none();
        if !skipped {
            None
        } else if self.lays == 0 && r.laid_hexes.is_empty() {
            Some("track step with no legal lay")
        } else if self.lays > 0 {
            Some("further track lays with no legal lay")
        } else {
            None
        }
    }
}

/// Whether a record this engine refused (`rejection`) belongs to a step it skips or a decision
/// it takes itself, to be accepted and dropped, and which (`previous`: the record applied
/// last, or a pass of 18xx's track step dropped after it):
/// * a player's `pass` in a stock round when this engine has already ended that turn: right
///   after the player's own sale, or a turn with nothing legal this engine passed by itself
///   (1841 §5.1; a pass changes nothing);
/// * a corporation's `pass` after this engine ended its operating turn, having nothing
///   legal left (18xx.games' track step waits for a `pass` even then);
/// * a corporation's `pass` ending the optional removal of tokens after a merger (18xx's
///   `G1841::Step::RemoveTokens` waits for it once the minimum is removed, 1841 §12.3) when
///   this engine has closed the removal;
/// * a corporation's `pass` of 18xx's token step (`Engine::Step::Token` opens whenever the
///   corporation has a token left and money for it, 1841 §9.2) right after its track step,
///   when this engine, finding no legal placement, is already past its token step;
/// * an automatic `pass` (from `auto_actions`) of a step this engine does not open: 18xx's
///   token purchase from another corporation (`G1841::Step::BuyToken`, 1841 §9.5) passes by
///   itself when nothing can be bought, and its merger step (§12.1) when no partner is
///   connected; this engine skips such steps;
/// * a corporation's token count (`choose` with a number) when this engine has no token
///   purchase open: it settled the count itself (a single possible count, 1841 §5.4,
///   §12.2).
///
/// Only refusals for the turn or the step (`NOT_YOUR_TURN`, `WRONG_STEP`, and the
/// `ILLEGAL_MOVE` of a pass where a pass is not an option) qualify: a record this engine
/// understands but finds against the rules still stops the replay.
fn skipped_record(
    state: &State,
    action: &ImportedAction,
    previous: Option<&ImportedAction>,
    rejection: &Rejection,
    played_through: &std::collections::VecDeque<String>,
) -> Option<&'static str> {
    use crate::RejectionCode as C;
    let step_or_turn = matches!(rejection.code, C::NotYourTurn | C::WrongStep);
    match action.kind.as_str() {
        "pass"
            if rejection.code == C::NotYourTurn
                && matches!(action.entity, Entity::Player(_))
                && matches!(state.round, Round::StockRound(_)) =>
        {
            Some(
                if previous.is_some_and(|p| p.kind == "sell_shares" && p.entity == action.entity) {
                    "end of a stock-round turn this engine ended after a sale"
                } else {
                    "stock-round turn this engine passed itself (nothing legal)"
                },
            )
        }
        // The last turn of a stock round this engine passed by itself (nothing legal), the
        // round's last pass: 18xx's player still passes (1841 §5.1, I10).
        "pass"
            if rejection.code == C::NotYourTurn
                && matches!(action.entity, Entity::Player(_))
                && matches!(&state.round, Round::OperatingRound(r)
                    if r.event.is_none() && no_turn_recorded_yet(state, r, played_through) && r.laid_hexes.is_empty())
                && previous
                    .is_some_and(|p| p.kind == "pass" && matches!(p.entity, Entity::Player(_))) =>
        {
            Some("stock-round turn this engine passed itself (nothing legal), the round's end")
        }
        "pass"
            if !action.auto
                && matches!(rejection.code, C::WrongStep | C::IllegalMove)
                && matches!(&state.round, Round::OperatingRound(r)
                if r.event.is_none()
                    && r.start.is_none()
                    && matches!(r.step, OperatingStep::Routes | OperatingStep::Dividend
                        | OperatingStep::BuyToken | OperatingStep::Trains)
                    && matches!(&action.entity, Entity::Corporation(c)
                        if Some(c) == r.current.as_ref()
                            && state.corporation(c).is_some_and(|k| {
                                usize::try_from(k.tokens_total).unwrap_or(0) > k.tokens.len()
                            })))
                && previous.is_some_and(|p| {
                    p.entity == action.entity && matches!(p.kind.as_str(), "lay_tile" | "pass")
                }) =>
        {
            Some("token step with no legal placement")
        }
        "pass"
            if matches!(rejection.code, C::NotYourTurn | C::WrongStep)
                && matches!(action.entity, Entity::Corporation(_))
                && previous
                    .is_some_and(|p| p.kind == "remove_token" && p.entity == action.entity) =>
        {
            Some("end of the optional token removal this engine closed")
        }
        "pass"
            if rejection.code == C::NotYourTurn
                && matches!(&state.round, Round::OperatingRound(r)
                    if matches!(&action.entity, Entity::Corporation(c) if r.done.contains(c))) =>
        {
            Some("operating turn this engine ended itself (nothing legal)")
        }
        "pass" if action.auto && (step_or_turn || rejection.code == C::IllegalMove) => {
            Some("automatic pass of a step this engine skips")
        }
        // 18xx's routes step opened from its stale route cache for a corporation with no
        // route, run with no route (the export's `Writer::stale_route_runs`; 1841 §9.4: this
        // engine withheld 0 and moved on).
        "run_routes"
            if step_or_turn
                && action.fields.routes().is_some_and(<[_]>::is_empty)
                && matches!(&state.round, Round::OperatingRound(r)
                    if r.event.is_none()
                        && r.step != OperatingStep::Routes
                        && matches!(&action.entity, Entity::Corporation(c)
                            if Some(c) == r.current.as_ref())) =>
        {
            Some("empty run of a routes step this engine skipped (no route)")
        }
        "choose"
            if step_or_turn
                && matches!(action.entity, Entity::Corporation(_))
                && action.field("choice").is_some_and(|c| {
                    as_whole_number(c).is_some()
                        || c.as_str().is_some_and(|t| t.parse::<u32>().is_ok())
                })
                && !token_count_open(state) =>
        {
            Some("token count this engine settled itself")
        }
        _ => None,
    }
}

/// The seat that passes an optional step this engine has open while 18xx.games, which
/// recorded `action` (refused with `rejection`), had nothing to offer there and went on: in an
/// operating round without a corporate event or start, the operating corporation is in its
/// token, token-purchase, train (a purchase not required: the pass is refused otherwise),
/// corporate share, merger or transformation step (1841 §9.2, §9.5, §9.6, §9.7, §12), and the
/// record, refused for the turn or the step, is not a `pass` of that
/// corporation (a refused pass is never answered with another).
fn step_18xx_skipped(
    state: &State,
    action: &ImportedAction,
    rejection: &Rejection,
) -> Option<Seat> {
    use crate::RejectionCode as C;
    if !matches!(rejection.code, C::NotYourTurn | C::WrongStep) {
        return None;
    }
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    let by_operating =
        matches!(&action.entity, Entity::Corporation(c) if Some(c) == r.current.as_ref());
    if action.kind == "pass" && by_operating {
        return None;
    }
    // An empty run of 18xx's routes step by the operating corporation comes where this
    // engine found no route and moved on ([`skipped_record`]): no step of ours is passed.
    if action.kind == "run_routes"
        && by_operating
        && action.fields.routes().is_some_and(<[_]>::is_empty)
    {
        return None;
    }
    // A corporation's token count follows the record that opened it (a start, a split, a
    // transformation); passing an optional step opens none. One this engine refused is one
    // it settled itself ([`skipped_record`]: 18xx asks for the count even when only the
    // compulsory token of a transformation is possible, 1841 §12.2), even when the next
    // corporation's turn begins with an optional step.
    if action.kind == "choose"
        && matches!(action.entity, Entity::Corporation(_))
        && action.field("choice").is_some_and(|c| {
            as_whole_number(c).is_some() || c.as_str().is_some_and(|t| t.parse::<u32>().is_ok())
        })
    {
        return None;
    }
    if r.event.is_some() || r.start.is_some() || !r.crowded.is_empty() {
        return None;
    }
    let optional = matches!(
        r.step,
        OperatingStep::Token
            | OperatingStep::BuyToken
            | OperatingStep::Trains
            | OperatingStep::Shares
            | OperatingStep::Merge
            | OperatingStep::Transform
    );
    if !optional {
        return None;
    }
    controller(state, r.current.as_deref()?)
}

/// Whether the engine waits for a token count now (a start, the split's tokens, a
/// transformation's tokens).
fn token_count_open(state: &State) -> bool {
    state.players.iter().any(|p| {
        G1841::legal(state, p.seat)
            .actions
            .iter()
            .any(|a| matches!(a, Action::BuyTokens { .. }))
    })
}

/// The first difference between our replay and the recorded `game_end_reason` and `result`.
fn first_difference(export: &Export, replayed: &Replayed) -> Option<Difference> {
    let Some(outcome) = replayed.outcome.as_ref().filter(|_| replayed.finished) else {
        return Some(Difference {
            field: "finished".into(),
            ours: Some(Value::Bool(false)),
            recorded: Some(Value::Bool(export.game_end_reason.is_some())),
            reason: match &replayed.failure {
                Some(f) => format!("the replay did not reach the end of the game: {f}"),
                None => "the replay did not reach the end of the game".into(),
            },
        });
    };
    if export.game_end_reason.as_deref() != Some(outcome.end_reason.as_str()) {
        return Some(Difference {
            field: "game_end_reason".into(),
            ours: Some(Value::from(outcome.end_reason.clone())),
            recorded: export.game_end_reason.clone().map(Value::from),
            reason: "the game ended for another reason".into(),
        });
    }
    let ours: BTreeMap<&str, i64> = export
        .players
        .iter()
        .map(|p| p.id.as_str())
        .zip(outcome.scores.iter().copied())
        .collect();
    let ids = export
        .result
        .keys()
        .map(String::as_str)
        .chain(ours.keys().copied());
    for id in ids.collect::<BTreeSet<_>>() {
        let (a, b) = (ours.get(id), export.result.get(id));
        if a != b {
            return Some(Difference {
                field: format!("result.{id}"),
                ours: a.map(|v| Value::from(*v)),
                recorded: b.map(|v| Value::from(*v)),
                reason: format!("player {id} ends with another value"),
            });
        }
    }
    None
}

/// Whether a purchase of share `index` of `sym` can only come from the pool: the IPO holds no
/// ordinary certificate and the pool holds one of that share's size. 18xx.games' record then
/// names a share it had in its pool (the purchase is refused from the IPO), which the
/// importer's share ids did not follow there (1841 §5.2; oracle-played `v2-4p-s60002` id
/// 291: CTS_4, CTS's IPO empty and 30% in the pool in both engines).
fn only_the_pool_has(state: &State, sym: &str, index: usize) -> bool {
    let Some(c) = state.corporation(sym) else {
        return false;
    };
    let Some(size) = c.certificates.get(index).map(|x| x.percent) else {
        return false;
    };
    let held_by = |owner: ShareOwner| {
        c.certificates
            .iter()
            .any(|x| !x.president && x.owner == owner && x.percent == size)
    };
    !c.certificates
        .iter()
        .any(|x| !x.president && x.owner == ShareOwner::Ipo)
        && held_by(ShareOwner::Pool)
}

#[cfg(test)]
mod tests {
    /// 1841 §5.2: a recorded purchase the IPO cannot serve comes from the pool when the pool
    /// holds a share of that size (oracle-played `v2-4p-s60002` id 291); while the IPO holds
    /// one, the share ids decide.
    #[test]
    fn s5_2_a_purchase_the_ipo_cannot_serve_comes_from_the_pool() {
        use super::{ShareOwner, only_the_pool_has};
        use crate::Game;
        use crate::g1841::{G1841, Options};
        let mut state = G1841::setup(&Options::default(), 4, 0).unwrap();
        let i = state.corporation_index("CTS").unwrap();
        let certs = &mut state.corporations[i].certificates;
        for (k, c) in certs.iter_mut().enumerate() {
            c.owner = match k {
                0 => ShareOwner::Player(1),
                1..=3 => ShareOwner::Pool,
                _ => ShareOwner::Player(2),
            };
        }
        assert!(only_the_pool_has(&state, "CTS", 4));
        state.corporations[i].certificates[8].owner = ShareOwner::Ipo;
        assert!(!only_the_pool_has(&state, "CTS", 4));
        assert!(!only_the_pool_has(&state, "CTS", 99));
        assert!(!only_the_pool_has(&state, "XYZ", 4));
    }

    #[test]
    fn s18_route_nodes_are_put_in_route_order() {
        let stop = |h: &str, n: u32| Stop {
            hex: h.into(),
            node: n,
        };
        let chains = |c: &[&[&str]]| -> Vec<Vec<String>> {
            c.iter()
                .map(|x| x.iter().map(|h| h.to_string()).collect())
                .collect()
        };
        // 132002 action 440: nodes H4, I5, M3, O5, Q5; chains H4–I5, M3…H4, O5…M3, Q5…O5.
        let got = super::in_route_order(
            vec![
                stop("H4", 0),
                stop("I5", 0),
                stop("M3", 0),
                stop("O5", 0),
                stop("Q5", 0),
            ],
            &chains(&[
                &["H4", "I5"],
                &["M3", "K3", "I3", "H4"],
                &["O5", "N4", "M3"],
                &["Q5", "O5"],
            ]),
        );
        let hexes: Vec<&str> = got.iter().map(|s| s.hex.as_str()).collect();
        assert_eq!(hexes, ["I5", "H4", "M3", "O5", "Q5"]);
        // 132002 action 523: M3, O5, H4, F6-1, F8 with chains M3…O5, H4…M3, F6…H4, F8…F6.
        let got = super::in_route_order(
            vec![
                stop("M3", 0),
                stop("O5", 0),
                stop("H4", 0),
                stop("F6", 1),
                stop("F8", 0),
            ],
            &chains(&[
                &["M3", "N4", "O5"],
                &["H4", "I3", "K3", "M3"],
                &["F6", "G5", "H4"],
                &["F8", "G7", "F6"],
            ]),
        );
        assert_eq!(
            got,
            [
                stop("O5", 0),
                stop("M3", 0),
                stop("H4", 0),
                stop("F6", 1),
                stop("F8", 0)
            ]
        );
        // A recorded order that fits is kept.
        let kept = vec![stop("F16", 0), stop("G15", 0)];
        assert_eq!(
            super::in_route_order(kept.clone(), &chains(&[&["F16", "G15"]])),
            kept
        );
    }

    use super::*;
    use serde_json::json;

    fn ids(v: &[Value]) -> Vec<i64> {
        v.iter().filter_map(|a| a["id"].as_i64()).collect()
    }

    #[test]
    fn s18_undo_without_action_id_removes_last_non_message_action() {
        let raw = vec![
            json!({"type":"bid","id":1}),
            json!({"type":"pass","id":2}),
            json!({"type":"message","id":3}),
            json!({"type":"undo","id":4}),
        ];
        assert_eq!(ids(&filter_actions(&raw).unwrap()), [1]);
    }

    #[test]
    fn s18_undo_with_action_id_keeps_that_action() {
        let raw = vec![
            json!({"type":"bid","id":1}),
            json!({"type":"pass","id":2}),
            json!({"type":"pass","id":3}),
            json!({"type":"undo","id":4,"action_id":1}),
            json!({"type":"pass","id":5}),
        ];
        assert_eq!(ids(&filter_actions(&raw).unwrap()), [1, 5]);
        let all = vec![
            json!({"type":"bid","id":1}),
            json!({"type":"undo","id":2,"action_id":0}),
        ];
        assert!(filter_actions(&all).unwrap().is_empty());
        let missing = vec![
            json!({"type":"bid","id":1}),
            json!({"type":"undo","id":2,"action_id":9}),
        ];
        assert_eq!(
            filter_actions(&missing),
            Err(ImportError::UndoTargetMissing(9))
        );
    }

    #[test]
    fn s18_redo_restores_only_if_nothing_happened_since() {
        let raw = vec![
            json!({"type":"bid","id":1}),
            json!({"type":"pass","id":2}),
            json!({"type":"undo","id":3}),
            json!({"type":"undo","id":4}),
            json!({"type":"redo","id":5}),
        ];
        assert_eq!(ids(&filter_actions(&raw).unwrap()), [1]);
        let mut twice = raw.clone();
        twice.push(json!({"type":"redo","id":6}));
        assert_eq!(ids(&filter_actions(&twice).unwrap()), [1, 2]);
        let mut stale = raw[..3].to_vec();
        stale.push(json!({"type":"pass","id":7}));
        stale.push(json!({"type":"redo","id":8}));
        assert_eq!(ids(&filter_actions(&stale).unwrap()), [1, 7]);
    }

    /// 1841 §15.3: with `p2p_purchases`, 18xx's direct purchase from a player (a
    /// `buy_shares` of a share another player held, with its total price; a `buy_company` of a
    /// concession another player holds) replays as the buyer's offer immediately accepted.
    #[test]
    fn s18_purchases_from_players_import_as_an_accepted_offer() {
        use crate::Game;
        use crate::g1841::{Concession, G1841, flow, market};
        let text = json!({
            "id": 2, "title": "1841",
            "players": [{"id": 10, "name": "A"}, {"id": 20, "name": "B"}, {"id": 30, "name": "C"}, {"id": 40, "name": "D"}],
            "settings": {"optional_rules": ["p2p_purchases"]},
            "actions": [
                {"type":"par","entity":10,"entity_type":"player","id":1,"corporation":"SFTG","share_price":"100,3,5"},
                {"type":"buy_shares","entity":10,"entity_type":"player","id":2,"shares":["SFTG_1"],"percent":10},
                {"type":"buy_shares","entity":20,"entity_type":"player","id":3,"shares":["SFTG_1"],"percent":10,"total_price":120},
                {"type":"buy_company","entity":20,"entity_type":"player","id":4,"company":"SFTN","price":70},
                {"type":"buy_company","entity":20,"entity_type":"player","id":5,"company":"IRSFF","price":50}
            ]
        })
        .to_string();
        let e = parse_export(&text).unwrap();
        let from: Vec<_> = e.actions.iter().map(|a| a.from_player).collect();
        assert_eq!(from, [None, None, Some(0), None, None]);
        // Seat 0 holds SFTG (20% + 10%) and the SFTN concession; the bank holds IRSFF; it is
        // seat 1's turn in Stock Round 2.
        let mut s = G1841::setup(&e.options().unwrap(), 4, 0).unwrap();
        s.players[0].concessions = vec![Concession::Sftg, Concession::Sftn];
        s.players[0].cash -= 100;
        s.bank_cash += 100;
        s.bank_concessions = vec![Concession::Irsff];
        market::set_cell(&mut s, "SFTG", 3, 5);
        let sftg = s.corporations.iter_mut().find(|c| c.sym == "SFTG").unwrap();
        sftg.par_price = 100;
        sftg.certificates[0].owner = ShareOwner::Player(0);
        sftg.certificates[1].owner = ShareOwner::Player(0);
        flow::begin(&mut s, flow::Next::StockRound(2), &mut Vec::new());
        G1841::apply(&mut s, 0, &Action::Pass).unwrap();
        let accept = (0, Action::AnswerOffer { accept: true });
        let shares = e.actions[2].to_actions(&s).unwrap();
        assert_eq!(
            shares,
            [
                (
                    1,
                    Action::OfferPurchase {
                        seller: 0,
                        item: PurchaseItem::Shares {
                            corporation: "SFTG".into(),
                            percent: 10
                        },
                        price: 120
                    }
                ),
                accept.clone()
            ]
        );
        assert_eq!(e.actions[2].to_action(&s).unwrap().as_ref(), shares.first());
        let company = e.actions[3].to_actions(&s).unwrap();
        assert_eq!(
            company,
            [
                (
                    1,
                    Action::OfferPurchase {
                        seller: 0,
                        item: PurchaseItem::Concession {
                            concession: "SFTN".into()
                        },
                        price: 70
                    }
                ),
                accept
            ]
        );
        // A bank concession stays a bank purchase.
        assert_eq!(
            e.actions[4].to_actions(&s).unwrap(),
            [(
                1,
                Action::BuyConcession {
                    concession: "IRSFF".into()
                }
            )]
        );
        // Replayed: seat 1 holds 10% of SFTG and paid seat 0 L.120.
        for (seat, a) in shares {
            G1841::apply(&mut s, seat, &a).unwrap();
        }
        let sftg = s.corporation("SFTG").unwrap();
        assert_eq!(sftg.percent_of(&ShareOwner::Player(1)), 10);
        assert_eq!(
            (s.players[0].cash, s.players[1].cash),
            (840 - 100 + 120, 840 - 120)
        );
        // Without a price the purchase cannot be replayed.
        let mut no_price = e.actions[2].clone();
        let mut raw = no_price.raw().clone();
        raw.as_object_mut().unwrap().remove("total_price");
        no_price.set_raw(raw);
        let mut s2 = s.clone();
        if let Round::StockRound(r) = &mut s2.round {
            r.current_seat = 1;
        }
        assert!(matches!(
            no_price.to_actions(&s2),
            Err(ImportError::BadAction { .. })
        ));
    }

    #[test]
    fn s18_players_map_to_seats_and_actions_to_concession_round_actions() {
        let text = json!({
            "id": 1, "title": "1841",
            "players": [{"id": 512, "name": "A"}, {"id": 7, "name": "B"}, {"id": 9, "name": "C"}],
            "settings": {"optional_rules": ["lite"]},
            "actions": [
                {"type":"bid","entity":7,"entity_type":"player","id":1,"company":"SFTG","price":20},
                {"type":"pass","entity":9,"entity_type":"player","id":2,
                 "auto_actions":[{"type":"pass","entity":512,"entity_type":"player"}]},
                {"type":"blind_bid","entity":512,"entity_type":"player","id":3,"bids":[0,20,0,0,30]},
                {"type":"lay_tile","entity":"SFTG","entity_type":"corporation","id":4}
            ]
        })
        .to_string();
        let e = parse_export(&text).unwrap();
        // A game 18xx.games played: every FAQ option off, 18xx.games having none; off by
        // default outside Version 1, so left unset here (as NewGame with `lite` makes it).
        let want = Options {
            lite: true,
            ..Options::default()
        };
        assert_eq!(e.options().unwrap(), want);
        assert!(!want.price_drops_lowest_first());
        let mapped: Vec<_> = e
            .actions
            .iter()
            .map(|a| a.concession_round_action().unwrap())
            .collect();
        assert_eq!(
            mapped,
            [
                Some((
                    1,
                    Action::Bid {
                        concession: "SFTG".into(),
                        price: 20
                    }
                )),
                Some((2, Action::Pass)),
                Some((0, Action::Pass)),
                Some((
                    0,
                    Action::BlindBid {
                        amounts: vec![0, 20, 0, 0, 30]
                    }
                )),
                None,
            ]
        );
        assert!(e.actions[2].auto && !e.actions[1].auto);
        assert_eq!(e.actions[3].entity, Entity::Player(0));
        assert_eq!(e.actions[4].entity, Entity::Corporation("SFTG".into()));
        assert!(matches!(
            parse_export("{"),
            Err(ImportError::Json {
                truncated: true,
                line: 1,
                ..
            })
        ));
        assert!(matches!(
            parse_export("{\n  \"players\": [,]}"),
            Err(ImportError::Json {
                truncated: false,
                line: 2,
                column: 15,
                ..
            })
        ));
        assert_eq!(
            parse_export("{}"),
            Err(ImportError::Field("players".into()))
        );
    }
}

#[cfg(test)]
mod typed_reading_tests {
    use super::*;
    use serde_json::json;

    /// The error a `Value` parse of `text` gives: what `parse_export` answered when it read
    /// the whole document as a `Value`.
    fn value_error(text: &str) -> ImportError {
        ImportError::json(&serde_json::from_str::<Value>(text).unwrap_err())
    }

    /// Every value is checked as a `Value` parse checks it, the ones the importer skips too:
    /// the same error, message and position.
    #[test]
    fn s18_json_errors_are_those_of_a_value_parse() {
        let action = |field: &str| {
            format!(
                r#"{{"players": [{{"id": 1}}], "actions": [{{"type": "pass", "id": 1, {field}}}]}}"#
            )
        };
        let deep = format!("\"x\": {}1{}", "[".repeat(200), "]".repeat(200));
        for text in [
            action("\"created_at\": 1e400"),
            action("\"created_at\": -1e400"),
            action(&format!("\"created_at\": {}", "9".repeat(400))),
            action("\"variant\": \"\\ud800\""),
            action("\"variant\": \"\\udc00x\""),
            action("\"variant\": \"\\x\""),
            action("\"variant\": \"a\u{1}\""),
            action("\"price\": 01"),
            action("\"routes\": [{\"nodes\": [1e999]}]"),
            action(&deep),
            action("\"x\": [1,]"),
            r#"{"players": [], "actions": [], "id": 1e400}"#.to_string(),
            r#"{"players": [], "actions": []} x"#.to_string(),
            r#"{"players": [], "actions": [{"type": "pass""#.to_string(),
            "[1e400]".to_string(),
        ] {
            assert_eq!(parse_export(&text), Err(value_error(&text)), "{text}");
        }
        // What a `Value` parse accepts is read: a number in range, a surrogate pair, other
        // types in any field, nesting up to the limit.
        for field in [
            "\"created_at\": 1e300",
            "\"variant\": \"\\ud83d\\ude00\"",
            "\"price\": {\"a\": [null, true]}",
            "\"routes\": 5",
            "\"auto_actions\": {}",
        ] {
            let text = action(field);
            assert!(serde_json::from_str::<Value>(&text).is_ok());
            assert!(parse_export(&text).is_ok(), "{text}");
        }
        for text in ["5", "[]", "null", "\"players\""] {
            assert_eq!(
                parse_export(text),
                Err(ImportError::Field("players".into()))
            );
        }
    }

    /// A number entity names the player whose id is that number's text, as if written out:
    /// `512` is not the player `"0512"` or `"+512"`; a number that is no player's id, and a
    /// negative or fractional one, is kept as its text.
    #[test]
    fn s18_number_entities_match_player_ids_as_text() {
        let text = r#"{"players": [{"id": "0512"}, {"id": "+512"}, {"id": 512}, {"id": "7"}],
            "actions": [
              {"type": "pass", "entity": 512, "entity_type": "player", "id": 1},
              {"type": "pass", "entity": "0512", "entity_type": "player", "id": 2},
              {"type": "pass", "entity": 7, "entity_type": "player", "id": 3},
              {"type": "pass", "entity": 513, "entity_type": "player", "id": 4},
              {"type": "pass", "entity": -5, "entity_type": "player", "id": 5},
              {"type": "pass", "entity": 5.5, "entity_type": "player", "id": 6},
              {"type": "pass", "entity": 12, "entity_type": "corporation", "id": 7},
              {"type": "pass", "entity_type": "player", "id": 8}
            ]}"#;
        let e = parse_export(text).unwrap();
        let entities: Vec<_> = e.actions.iter().map(|a| a.entity.clone()).collect();
        assert_eq!(
            entities,
            [
                Entity::Player(2),
                Entity::Player(0),
                Entity::Player(3),
                Entity::Other("513".into()),
                Entity::Other("-5".into()),
                Entity::Other("5.5".into()),
                Entity::Corporation("12".into()),
                Entity::Other(String::new()),
            ]
        );
        for a in &e.actions {
            assert_eq!(
                imported(&e.players, a.raw().clone(), false).entity,
                a.entity
            );
        }
    }

    /// A key given twice counts once, the last one, as in a `Value`; `raw` is the action as
    /// recorded (with its `auto_actions`), an automatic action that element.
    #[test]
    fn s18_raw_is_the_recorded_action_and_the_last_key_wins() {
        let text = r#"{"id": 5, "players": [{"id": 7}, {"id": "8"}], "title": "1841",
            "actions": [
              {"type": "bid", "entity": 7, "entity_type": "player", "id": 1,
               "company": "X", "company": "SFTG", "price": 5, "price": 20.0},
              {"type": "pass", "entity": "8", "entity_type": "player", "id": 2, "user": 3},
              {"type": "undo", "entity": "8", "entity_type": "player", "id": 3},
              {"type": "pass", "type": "pass", "entity": 8, "entity_type": "player", "id": 4,
               "auto_actions": [{"type": "pass", "entity": 7, "entity_type": "player"}, 3]},
              "odd"
            ]}"#;
        let e = parse_export(text).unwrap();
        let root: Value = serde_json::from_str(text).unwrap();
        let recorded = &root["actions"];
        let raws: Vec<&Value> = e.actions.iter().map(ImportedAction::raw).collect();
        assert_eq!(
            raws,
            [
                &recorded[0],
                &recorded[3],
                &recorded[3]["auto_actions"][0],
                &recorded[3]["auto_actions"][1],
                &recorded[4],
            ]
        );
        let summary: Vec<_> = e
            .actions
            .iter()
            .map(|a| (a.id, a.kind.as_str(), a.entity.clone(), a.auto))
            .collect();
        assert_eq!(
            summary,
            [
                (Some(1), "bid", Entity::Player(0), false),
                (Some(4), "pass", Entity::Player(1), false),
                (None, "pass", Entity::Player(0), true),
                (None, "", Entity::Other(String::new()), true),
                (None, "", Entity::Other(String::new()), false),
            ]
        );
        assert_eq!(
            e.actions[0].concession_round_action(),
            Ok(Some((
                0,
                Action::Bid {
                    concession: "SFTG".into(),
                    price: 20
                }
            )))
        );
        // Read from a value, the same action.
        let again = imported(&e.players, recorded[0].clone(), false);
        assert_eq!(again, e.actions[0]);
        assert_eq!(again.raw(), &recorded[0]);
        // `set_raw` replaces the fields the mapping reads, nothing else.
        let mut changed = e.actions[0].clone();
        changed.set_raw(json!({"type": "pass", "company": "IRSFF", "price": 30}));
        assert_eq!((changed.id, changed.kind.as_str()), (Some(1), "bid"));
        assert_eq!(
            changed.concession_round_action(),
            Ok(Some((
                0,
                Action::Bid {
                    concession: "IRSFF".into(),
                    price: 30
                }
            )))
        );
        assert_ne!(changed, e.actions[0]);
    }
}

#[cfg(test)]
mod undo_redo_tests {
    use super::*;
    use std::cell::Cell;

    /// (type, id, action_id) of a test record.
    type Rec = (&'static str, Option<i64>, Option<i64>);

    fn head_of(r: &Rec) -> Head<'_> {
        Head {
            kind: r.0,
            id: r.1,
            action_id: r.2,
        }
    }

    /// The filter as first written (split off the undone actions, copy them back on a
    /// redo): the reference the linear one must agree with.
    fn reference(actions: &[Rec]) -> Result<Vec<usize>, ImportError> {
        let mut active: Vec<usize> = Vec::new();
        let mut undone: Vec<Vec<usize>> = Vec::new();
        for (index, a) in actions.iter().enumerate() {
            match a.0 {
                "message" => {}
                "undo" => {
                    let keep = match a.2 {
                        Some(0) => 0,
                        Some(t) => {
                            active
                                .iter()
                                .rposition(|&i| actions[i].1 == Some(t))
                                .ok_or(ImportError::UndoTargetMissing(t))?
                                + 1
                        }
                        None => active.len().saturating_sub(1),
                    };
                    undone.push(active.split_off(keep));
                }
                "redo" => {
                    if let Some(r) = undone.pop() {
                        active.extend(r);
                    }
                }
                _ => {
                    active.push(index);
                    undone.clear();
                }
            }
        }
        Ok(active)
    }

    /// Random sequences of actions (ids reused on purpose), undos (plain, to 0, to an id,
    /// to a missing id), redos and messages: the linear filter gives the reference's answer.
    #[test]
    fn the_linear_filter_agrees_with_the_reference() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..3000 {
            let n = 1 + rnd(40) as usize;
            let recs: Vec<Rec> = (0..n)
                .map(|_| match rnd(10) {
                    0..=3 => ("pass", Some(1 + rnd(12) as i64), None),
                    4 => ("undo", None, None),
                    5 => ("undo", None, Some(rnd(13) as i64)),
                    6 | 7 => ("redo", None, None),
                    8 => ("message", Some(1 + rnd(12) as i64), None),
                    _ => ("bid", None, None),
                })
                .collect();
            assert_eq!(
                effective_indices(&recs, head_of),
                reference(&recs),
                "{recs:?}"
            );
        }
    }

    /// The undo/redo bomb of issue #24 (one action, then alternating `undo` to it and `redo`
    /// after many actions): the filter reads each record a bounded number of times (counted),
    /// where the first version read the whole active list at every undo.
    #[test]
    fn an_undo_redo_bomb_costs_linear_work() {
        let mut recs: Vec<Rec> = vec![("pass", Some(1), None)];
        recs.extend((2..20_002).map(|id| ("pass", Some(id), None)));
        for _ in 0..20_000 {
            recs.push(("undo", None, Some(1)));
            recs.push(("redo", None, None));
            recs.push(("undo", None, Some(0)));
            recs.push(("redo", None, None));
        }
        fn counting(reads: &Cell<u64>) -> impl for<'a> Fn(&'a Rec) -> Head<'a> + '_ {
            move |r| {
                reads.set(reads.get() + 1);
                head_of(r)
            }
        }
        let reads = Cell::new(0u64);
        let active = effective_indices(&recs, counting(&reads)).unwrap();
        assert_eq!(active.len(), 20_001);
        let n = recs.len() as u64;
        assert!(
            reads.get() <= 3 * n,
            "{} reads of {n} records (quadratic: the undo scans)",
            reads.get()
        );
    }
}
