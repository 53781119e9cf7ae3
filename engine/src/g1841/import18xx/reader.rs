//! Typed reading of an export: the fields the importer reads, straight from the JSON text
//! without building a [`Value`] of the whole document. Every reader is lenient as the
//! [`Value`] accessors the importer used are (`as_str`, `as_array`, `get`): a value of
//! another type reads as absent, never as an error, so a document reads without error exactly
//! when it reads as a [`Value`] — every value, the ones skipped too, is checked as serde_json
//! checks a [`Value`] (numbers in range, escapes, nesting depth), with the same error and
//! position. A key given twice counts once, the last one, as in a [`Value`].

use std::fmt;
use std::marker::PhantomData;

use compact_str::CompactString;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
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
/// number: it is matched against the players' ids by value (`Seats`, [`super::parse`]) and written
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
