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
//!
//! The modules, in the order a replay meets them:
//! * `reader`: typed reading of the JSON text, as lenient as a [`Value`];
//! * `undo_redo`: the undo/redo/message filter ([`filter_actions`]);
//! * `parse`: the text as an [`Export`] ([`parse_export`]), with the marks of `marks` (tile
//!   copies, purchases from players and from the pool, corporate sellers, merger prices);
//! * [`notation`]: 18xx.games' ids of shares, tiles, cities, nodes and prices;
//! * `to_action`: one record as this engine's actions ([`ImportedAction::to_action`]), and
//!   `choose`: the `choose` records of corporate events (1841 §12), mapped and put in this
//!   engine's order;
//! * `replay`: the replay itself ([`replay()`]), with `dropped` and `passes` (records of steps
//!   this engine skips), `followed` (what the record leaves unsaid: share ids, token slots)
//!   and `failure` ([`ImportFailure`]);
//! * `tests`: tests of the importer as a whole.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use serde_json::Value;
use smallvec::SmallVec;

use super::options::Options;
use crate::Seat;

mod choose;
mod dropped;
mod failure;
mod followed;
mod marks;
pub mod notation;
mod parse;
mod passes;
mod reader;
mod replay;
#[cfg(test)]
mod tests;
mod to_action;
mod undo_redo;

pub use dropped::corporation_start;
pub use failure::{FailureKind, ImportFailure};
pub(super) use parse::imported;
pub use parse::{POOL_PURCHASES_AFTER_EXCHANGES, parse_export};
pub use replay::{Difference, DroppedRecord, ReplaySettings, Replayed, replay};
pub use to_action::token_holders;
pub use undo_redo::filter_actions;

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

/// The top-level field naming the program that wrote an export (`"exported_by":
/// "referee-engine 0.1.0"`); 18xx.games does not write it.
pub const EXPORTED_BY: &str = "exported_by";

/// The `settings` field in which Referee's exports carry the FAQ options set explicitly
/// (`{"half_price_round_down": true, …}`; 18xx.games ignores it).
pub const FAQ_OPTIONS_SETTING: &str = "referee_faq_options";

/// Action types of an export that change nothing in the game: chat (`message`), 18xx's
/// client automation (`program_*`, whose effects are recorded as `auto_actions`) and
/// `destination_connection` records (this engine derives connections itself, 1841 §13).
pub fn is_ignored(kind: &str) -> bool {
    matches!(kind, "message" | "destination_connection") || kind.starts_with("program_")
}
