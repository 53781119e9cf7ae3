//! The JSON walks: a request in proto3 JSON guided by its message descriptor (the same
//! estimate as the protobuf walk), and an 18xx.games export counted value by value.

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{Kind, Msg, OverBudget, Step, Stop, Walk, map_entry_cost, vec_capacity};

/// The error the JSON walk stops with (the reason is kept in the walk).
fn stop<E: de::Error>(s: Stop) -> E {
    E::custom(match s {
        Stop::Over => "over the decoded-size budget",
        Stop::Malformed => "malformed",
    })
}

/// Seeds read as whatever JSON value comes (their visitors tell what they accept).
macro_rules! seed_of_any_value {
    ($($t:ident<$($l:lifetime),*>),*) => {$(
        impl<'de> DeserializeSeed<'de> for $t<$($l),*> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_any(self)
            }
        }
    )*};
}

seed_of_any_value!(
    JsonMessage<'_, '_>,
    JsonList<'_, '_>,
    JsonMap<'_, '_>,
    CountValues<'_>
);

/// A JSON value read as message `msg` (an object; `null` is an absent message).
pub(super) struct JsonMessage<'w, 's> {
    pub(super) walk: &'w mut Walk<'s>,
    pub(super) msg: usize,
}

impl<'de> Visitor<'de> for JsonMessage<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let schema = self.walk.schema;
        let msg = &schema.messages[self.msg];
        while let Some(key) = map.next_key_seed(FieldKey(msg))? {
            let Some(f) = key else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let field = &msg.fields[f];
            self.walk.path.push(Step {
                msg: self.msg,
                field: f,
                index: None,
            });
            let entry_map = matches!(field.kind, Kind::Message(e) if schema.messages[e].map_entry);
            if entry_map {
                let Kind::Message(e) = field.kind else {
                    unreachable!()
                };
                map.next_value_seed(JsonMap {
                    walk: self.walk,
                    entry: e,
                })?;
            } else if field.repeated {
                map.next_value_seed(JsonList {
                    walk: self.walk,
                    msg: self.msg,
                    field: f,
                })?;
            } else {
                map.next_value_seed(JsonValue {
                    walk: self.walk,
                    kind: field.kind,
                })?;
            }
            self.walk.path.pop();
        }
        Ok(())
    }
}

/// A key of a JSON object read as message `.0`: the field it names, if any.
struct FieldKey<'m>(&'m Msg);

impl<'de> DeserializeSeed<'de> for FieldKey<'_> {
    type Value = Option<usize>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for FieldKey<'_> {
    type Value = Option<usize>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<usize>, E> {
        Ok(self.0.by_json.get(key).copied())
    }
}

/// One value of a field of kind `kind` (not a list).
struct JsonValue<'w, 's> {
    walk: &'w mut Walk<'s>,
    kind: Kind,
}

impl<'de> DeserializeSeed<'de> for JsonValue<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        match self.kind {
            Kind::Message(m) => JsonMessage {
                walk: self.walk,
                msg: m,
            }
            .deserialize(d),
            Kind::Text => d.deserialize_any(JsonText(self.walk)),
            Kind::Scalar { .. } => d.deserialize_ignored_any(IgnoredAny).map(drop),
        }
    }
}

/// A string (or bytes: base64 text, decoding to less): its length.
struct JsonText<'w, 's>(&'w mut Walk<'s>);

impl<'de> Visitor<'de> for JsonText<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.text(v.as_bytes()).map_err(stop)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// The JSON array of repeated field `field` of message `msg`.
struct JsonList<'w, 's> {
    walk: &'w mut Walk<'s>,
    msg: usize,
    field: usize,
}

impl<'de> Visitor<'de> for JsonList<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON array")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let kind = self.walk.schema.messages[self.msg].fields[self.field].kind;
        let entry = self.walk.entry_size(self.msg, self.field);
        let mut n = 0u64;
        loop {
            if let Some(step) = self.walk.path.last_mut() {
                step.index = Some(n);
            }
            self.walk.fits((n + 1) * entry).map_err(stop)?;
            let more = seq.next_element_seed(JsonValue {
                walk: self.walk,
                kind,
            })?;
            if more.is_none() {
                break;
            }
            n += 1;
        }
        if let Some(step) = self.walk.path.last_mut() {
            step.index = None;
        }
        self.walk
            .add(vec_capacity(n).saturating_mul(entry))
            .map_err(stop)
    }
}

/// The JSON object of a map field whose entry message is `entry`.
struct JsonMap<'w, 's> {
    walk: &'w mut Walk<'s>,
    entry: usize,
}

impl<'de> Visitor<'de> for JsonMap<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let schema = self.walk.schema;
        let entry = &schema.messages[self.entry];
        // Entry fields: 1 = key, 2 = value.
        let value_kind = entry
            .by_number
            .get(&2)
            .map_or(Kind::Text, |&v| entry.fields[v].kind);
        while let Some(()) = map.next_key_seed(JsonKey(self.walk))? {
            self.walk.add(map_entry_cost(entry)).map_err(stop)?;
            map.next_value_seed(JsonValue {
                walk: self.walk,
                kind: value_kind,
            })?;
        }
        Ok(())
    }
}

/// A map key: its length (string keys; number keys are text in JSON too), and whether the
/// value that follows may be a board (`Walk::map_key`).
struct JsonKey<'w, 's>(&'w mut Walk<'s>);

impl<'de> DeserializeSeed<'de> for JsonKey<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for JsonKey<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a map key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.map_key(v.as_bytes());
        self.0.add(v.len() as u64).map_err(stop)
    }
}

/// Estimated bytes an 18xx.games export (ImportGame's `export_json`) takes once read, at most
/// `limit`. The importer reads the top-level `actions` and each record's `auto_actions` as
/// record lists, and every other value it keeps (`players`, `settings`, `result`, a record's
/// fields) as a `serde_json::Value`. So the estimate charges:
/// * every element of a record list a record slot ([`import_record_list_bytes`]: each
///   element, whatever it is, is read into a record of a growing `Vec`, and each effective
///   one becomes an imported action) and, when an object, what its fields' values cost (its
///   own keys are the record's fields: nothing more);
/// * every other object or array [`IMPORT_BYTES_PER_CONTAINER`]; an array's elements their
///   `Value` slots in a `Vec` grown one push at a time (as [`vec_capacity`] counts them:
///   [`IMPORT_VALUE_BYTES`] each); an object with entries its first B-tree leaf
///   ([`IMPORT_BYTES_PER_MAP_LEAF`]), and each entry [`IMPORT_BYTES_PER_ENTRY`] (its share
///   of the other nodes) and its key's length twice;
/// * every other value [`IMPORT_BYTES_PER_SCALAR`], and a string's length twice besides;
/// * the text itself once more: the importer keeps a copy of it for its actions' raw values.
///
/// Keys and strings are counted twice because the importer copies some of them out of the
/// value it read while that value is still held (a player's id and name, the title, the
/// options, `result`'s keys). Values the importer skips (top-level keys it does not read) are
/// charged as if kept: an upper bound. Text that is not JSON: what was counted before the
/// fault (the importer refuses it).
///
/// Errors: [`OverBudget`] (path `export_json`).
pub fn import_json(json: &str, limit: usize) -> Result<usize, OverBudget> {
    let mut counter = ValueCounter {
        used: json.len() as u64,
        limit: limit as u64,
        over: false,
    };
    let mut de = serde_json::Deserializer::from_str(json);
    if counter.used > counter.limit {
        counter.over = true;
    } else {
        let _ = CountValues {
            counter: &mut counter,
            role: Role::Root,
        }
        .deserialize(&mut de);
    }
    if counter.over {
        return Err(OverBudget {
            path: "export_json".into(),
            limit,
        });
    }
    Ok(counter.used.min(usize::MAX as u64) as usize)
}

/// What an object or array of an 18xx.games export costs once imported besides its entries
/// or elements: measured with the counting allocator on a document of 100,000 empty actions
/// (`{}`, the worst case: 157 bytes each at once, `service/tests/decoded_size.rs`).
pub const IMPORT_BYTES_PER_CONTAINER: u64 = 160;

/// What any other JSON value of an export costs once imported (besides a string's text): 63
/// bytes each at once for 100,000 numbers the importer keeps as `serde_json::Value`s in a
/// growing `Vec`; a recorded action's fields cost less.
pub const IMPORT_BYTES_PER_SCALAR: u64 = 64;

/// The size of a `serde_json::Value`: an array's slot for each element.
pub const IMPORT_VALUE_BYTES: u64 = std::mem::size_of::<serde_json::Value>() as u64;

/// The first node of an object's B-tree (a `serde_json::Map`): a leaf of 11 `String` keys
/// and 11 `Value`s, 632 bytes, allocated at the object's first entry (an object nested 120
/// deep, one entry a level, took 646 bytes a level at once).
pub const IMPORT_BYTES_PER_MAP_LEAF: u64 = 640;

/// What an entry of an object the importer keeps as a `serde_json::Value` costs besides its
/// key's text and its value: its share of the B-tree's nodes (a leaf of 632 bytes holds 5 to
/// 11 entries once split, 6 when keys come in order; an internal node of 728 bytes holds 6 to
/// 12 children). 525,000 short keys in `players[0]` were charged nothing before (estimated
/// 32 MiB, +93 MiB of RSS; issue #24, third attacker round); 200,000 now take 100 bytes an
/// entry at once with their values (`service/tests/decoded_size.rs`,
/// `exports_keys_and_strings_are_charged`).
pub const IMPORT_BYTES_PER_ENTRY: u64 = 160;

/// What a record list of `n` elements costs besides the elements' own fields: the records as
/// read, in a `Vec` grown one push at a time (its capacity, and its old buffer while it last
/// grew: [`vec_capacity`]), and the imported action each element becomes (a list reserved at
/// its exact length). 700,000 scalar elements (`0,`, 1.4 MB of export) took the server from
/// 36 to 203 MiB before they were charged (review of issue #24).
pub fn import_record_list_bytes(n: u64) -> u64 {
    use referee_engine::g1841::import18xx::{IMPORTED_ACTION_BYTES, RECORD_BYTES};
    vec_capacity(n)
        .saturating_mul(RECORD_BYTES as u64)
        .saturating_add(n.saturating_mul(IMPORTED_ACTION_BYTES as u64))
}

struct ValueCounter {
    used: u64,
    limit: u64,
    over: bool,
}

impl ValueCounter {
    fn add<E: de::Error>(&mut self, bytes: u64) -> Result<(), E> {
        self.used = self.used.saturating_add(bytes);
        self.fits(0)
    }

    /// Whether `projected` more bytes would still fit (a list's slots so far, counted when
    /// it ends), so that a long list stops at the element that passes the budget.
    fn fits<E: de::Error>(&mut self, projected: u64) -> Result<(), E> {
        if self.used.saturating_add(projected) > self.limit {
            self.over = true;
            return Err(E::custom("over the decoded-size budget"));
        }
        Ok(())
    }
}

/// Where a value of an export stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The export itself: as any value, but its `actions` is a record list.
    Root,
    /// Any value the importer keeps (or skips: charged as kept).
    Value,
    /// The value of a record list's key: a list of it is a record list.
    Records,
    /// An element of a record list (its slot counted by the list): an object costs its
    /// values only, and its `auto_actions` is a record list; a list costs its elements;
    /// another value costs nothing more.
    Record,
}

impl Role {
    /// The role of the value of `key` in an object of this role.
    fn of_value(self, key: &str) -> Role {
        match (self, key) {
            (Role::Root, "actions") | (Role::Record, "auto_actions") => Role::Records,
            _ => Role::Value,
        }
    }
}

struct CountValues<'c> {
    counter: &'c mut ValueCounter,
    role: Role,
}

impl CountValues<'_> {
    /// A value that is not an object or array: `bytes`, or nothing as an element of a
    /// record list (skipped: its record stays a default one).
    fn scalar<E: de::Error>(self, bytes: u64) -> Result<(), E> {
        match self.role {
            Role::Record => Ok(()),
            Role::Root | Role::Value | Role::Records => self.counter.add(bytes),
        }
    }

    /// The elements of a list: counted as values, and their slots: [`IMPORT_VALUE_BYTES`]
    /// each in a growing `Vec` (`Role::Value`, `Role::Root`), a record each
    /// ([`import_record_list_bytes`], `Role::Records`) or none (`Role::Record`: the importer
    /// skips a record that is a list, keeping nothing).
    fn list<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let (element, slots): (Role, fn(u64) -> u64) = match self.role {
            Role::Records => (Role::Record, import_record_list_bytes),
            Role::Record => (Role::Value, |_| 0),
            Role::Root | Role::Value => {
                self.counter.add::<A::Error>(IMPORT_BYTES_PER_CONTAINER)?;
                (Role::Value, |n| {
                    vec_capacity(n).saturating_mul(IMPORT_VALUE_BYTES)
                })
            }
        };
        let mut n = 0u64;
        loop {
            self.counter.fits::<A::Error>(slots(n + 1))?;
            let more = seq.next_element_seed(CountValues {
                counter: self.counter,
                role: element,
            })?;
            if more.is_none() {
                break;
            }
            n += 1;
        }
        self.counter.add(slots(n))
    }
}

/// A key of an export's object, as the role of its value (`role` is the object's): charged
/// [`IMPORT_BYTES_PER_ENTRY`] and twice its length, unless the object is a record (whose keys
/// are its fields, part of its slot).
struct EntryKey<'c> {
    counter: &'c mut ValueCounter,
    role: Role,
}

impl<'de> DeserializeSeed<'de> for EntryKey<'_> {
    type Value = Role;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Role, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for EntryKey<'_> {
    type Value = Role;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Role, E> {
        if self.role != Role::Record {
            self.counter
                .add(IMPORT_BYTES_PER_ENTRY.saturating_add(2 * key.len() as u64))?;
        }
        Ok(self.role.of_value(key))
    }
}

impl<'de> Visitor<'de> for CountValues<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.scalar(IMPORT_BYTES_PER_SCALAR)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.scalar(IMPORT_BYTES_PER_SCALAR)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.scalar(IMPORT_BYTES_PER_SCALAR)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.scalar(IMPORT_BYTES_PER_SCALAR)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.scalar(IMPORT_BYTES_PER_SCALAR)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.scalar(IMPORT_BYTES_PER_SCALAR.saturating_add(2 * v.len() as u64))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.list(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut leaf = 0;
        if self.role != Role::Record {
            self.counter.add::<A::Error>(IMPORT_BYTES_PER_CONTAINER)?;
            leaf = IMPORT_BYTES_PER_MAP_LEAF;
        }
        while let Some(role) = map.next_key_seed(EntryKey {
            counter: self.counter,
            role: self.role,
        })? {
            self.counter.add::<A::Error>(std::mem::take(&mut leaf))?;
            map.next_value_seed(CountValues {
                counter: self.counter,
                role,
            })?;
        }
        Ok(())
    }
}
