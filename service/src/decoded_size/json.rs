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

/// A JSON value read as message `msg` (an object; `null` is an absent message).
pub(super) struct JsonMessage<'w, 's> {
    pub(super) walk: &'w mut Walk<'s>,
    pub(super) msg: usize,
}

impl<'de> DeserializeSeed<'de> for JsonMessage<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
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

impl<'de> DeserializeSeed<'de> for JsonList<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
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

impl<'de> DeserializeSeed<'de> for JsonMap<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
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

/// A map key: its length (string keys; number keys are text in JSON too).
struct JsonKey<'w, 's>(&'w mut Walk<'s>);

impl<'de> DeserializeSeed<'de> for JsonKey<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(JsonText(self.0))
    }
}

/// Estimated bytes an 18xx.games export (ImportGame's `export_json`) takes once read, at most
/// `limit`: every element of a record list (the value of an `actions` or `auto_actions` key)
/// a record slot ([`import_record_list_bytes`]: the importer reads each element, whatever it
/// is, into a record of a growing `Vec`, and each effective one into an imported action) and,
/// when an object, what its fields cost; every other object or array of the document
/// [`IMPORT_BYTES_PER_CONTAINER`], every other value [`IMPORT_BYTES_PER_SCALAR`] (a
/// `serde_json::Value` the importer keeps, in a growing `Vec`), every string its length
/// besides. Text that is not JSON: what was counted before the fault (the importer refuses
/// it).
///
/// Errors: [`OverBudget`] (path `export_json`).
pub fn import_json(json: &str, limit: usize) -> Result<usize, OverBudget> {
    let mut counter = ValueCounter {
        used: 0,
        limit: limit as u64,
        over: false,
    };
    let mut de = serde_json::Deserializer::from_str(json);
    let _ = CountValues {
        counter: &mut counter,
        role: Role::Value,
    }
    .deserialize(&mut de);
    if counter.over {
        return Err(OverBudget {
            path: "export_json".into(),
            limit,
        });
    }
    Ok(counter.used.min(usize::MAX as u64) as usize)
}

/// What an object or array of an 18xx.games export costs once imported: measured with the
/// counting allocator on a document of 100,000 empty actions (`{}`, the worst case: 157 bytes
/// each at once, `service/tests/decoded_size.rs`).
pub const IMPORT_BYTES_PER_CONTAINER: u64 = 160;

/// What any other JSON value of an export costs once imported: 63 bytes each at once for
/// 100,000 numbers the importer keeps as `serde_json::Value`s (a growing `Vec` of 32-byte
/// values); a recorded action's fields cost less.
pub const IMPORT_BYTES_PER_SCALAR: u64 = 64;

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

    /// Whether `projected` more bytes would still fit (a record list's slots so far, counted
    /// when it ends), so that a long list stops at the element that passes the budget.
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
    /// Any value.
    Value,
    /// The value of an `actions` or `auto_actions` key: a list of it is a record list.
    Records,
    /// An element of a record list (its slot counted by the list): an object costs its
    /// fields only, a list its elements, another value nothing more.
    Record,
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
            Role::Value | Role::Records => self.counter.add(bytes),
        }
    }
}

impl<'de> DeserializeSeed<'de> for CountValues<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// A key of an export's object: whether it names a record list.
struct RecordKey;

impl<'de> DeserializeSeed<'de> for RecordKey {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for RecordKey {
    type Value = bool;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == "actions" || key == "auto_actions")
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
        self.scalar(IMPORT_BYTES_PER_SCALAR + v.len() as u64)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if self.role != Role::Records {
            if self.role == Role::Value {
                self.counter.add::<A::Error>(IMPORT_BYTES_PER_CONTAINER)?;
            }
            while seq
                .next_element_seed(CountValues {
                    counter: self.counter,
                    role: Role::Value,
                })?
                .is_some()
            {}
            return Ok(());
        }
        let mut n = 0u64;
        loop {
            self.counter
                .fits::<A::Error>(import_record_list_bytes(n + 1))?;
            let more = seq.next_element_seed(CountValues {
                counter: self.counter,
                role: Role::Record,
            })?;
            if more.is_none() {
                break;
            }
            n += 1;
        }
        self.counter.add(import_record_list_bytes(n))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if self.role != Role::Record {
            self.counter.add::<A::Error>(IMPORT_BYTES_PER_CONTAINER)?;
        }
        while let Some(records) = map.next_key_seed(RecordKey)? {
            map.next_value_seed(CountValues {
                counter: self.counter,
                role: if records { Role::Records } else { Role::Value },
            })?;
        }
        Ok(())
    }
}
