//! The memory a request takes once decoded, estimated **before** it is decoded (issue #24,
//! "decoded size"). A body within `--max-request-bytes` can decode into far more memory than
//! its own size: an empty entry of a repeated message field is two bytes on the wire (`12 00`)
//! or three in JSON (`{},`) and a whole Rust struct once decoded (a `SeatAction` is 100 bytes
//! and more). So every request body is walked once, without building anything, guided by the
//! message descriptors of the API (the file descriptor set served by reflection,
//! [`crate::pb::FILE_DESCRIPTOR_SET`]); the walk adds up what prost (protobuf) or pbjson
//! (JSON) would allocate and stops as soon as the total passes the budget of the call, naming
//! the field where it did.
//!
//! The estimate, in bytes, of a decoded message (64-bit layout):
//! * the root message's struct (fields inline: a singular message field is an `Option` of
//!   its struct inside its parent, a oneof an enum of its members);
//! * a repeated field of `n` entries: a `Vec` of the capacity Rust's growth gives
//!   (`c = max(4, n.next_power_of_two())`), and half that again for the old buffer it held
//!   while it last grew (`1.5 c` for `n > 4`), times the entry's size (a message's struct,
//!   24 for a string or bytes, the scalar's size);
//! * a map entry: twice its key and value (a B-tree leaf holds 6 to 11 entries) plus 16;
//! * a string or bytes: its length (JSON: the length of its text, an upper bound).
//!
//! Unknown fields are skipped by prost and refused by pbjson: they cost nothing. Malformed
//! input ends the walk with what it counted so far; the decoder then refuses it with its own
//! error, having allocated no more than that. The wire is read with prost's own
//! `encoding` functions (keys, varints, skipping fields), JSON with serde_json.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use prost::Message;
use prost::bytes::Buf;
use prost::encoding::{DecodeContext, WireType, decode_key, decode_varint, skip_field};
use prost_types::field_descriptor_proto::{Label, Type};
use serde::de::DeserializeSeed;
use tonic::Status;

use json::JsonMessage;
pub use json::{
    IMPORT_BYTES_PER_CONTAINER, IMPORT_BYTES_PER_ENTRY, IMPORT_BYTES_PER_MAP_LEAF,
    IMPORT_BYTES_PER_SCALAR, IMPORT_VALUE_BYTES, import_json, import_record_list_bytes,
};

mod json;
#[cfg(test)]
mod tests;

/// Default of `--max-decoded-bytes`: the estimated bytes one request may take once decoded,
/// 48 MiB. The largest legitimate request, an ApplyBatch of 100,000 recorded 1841 actions
/// (2.4 MB on the wire), is estimated at 44 MB (36.5 MB allocated at once, the batch's work
/// included); a recorded 1841 game is 1 to 2 MB (docs/SECURITY.md, "Decoded size").
pub const DEFAULT_MAX_DECODED_BYTES: usize = 48 * 1024 * 1024;

/// Nesting deeper than prost's recursion limit (100) is refused by the decoder anyway.
const MAX_DEPTH: usize = 100;

/// A request over its decoded-size budget: where the walk passed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// The field where the estimate passed the budget, e.g. `actions[65535]`.
    pub path: String,
    /// The budget, in bytes.
    pub limit: usize,
}

impl OverBudget {
    /// INVALID_ARGUMENT naming the field and the limit (retrying the same request cannot
    /// succeed).
    pub fn status(&self, what: &str) -> Status {
        Status::invalid_argument(format!(
            "{}: {what} would take more than {} bytes once decoded (--max-decoded-bytes); \
             the request is refused before it is decoded",
            self.path, self.limit
        ))
    }
}

/// What a field holds.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// A message (index into [`Schema::messages`]).
    Message(usize),
    /// A string or bytes.
    Text,
    /// A scalar of this many bytes in Rust, encoded as the given wire type.
    Scalar { size: usize, wire: ScalarWire },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScalarWire {
    Varint,
    Fixed32,
    Fixed64,
}

#[derive(Debug)]
struct Field {
    name: String,
    kind: Kind,
    repeated: bool,
}

#[derive(Debug)]
struct Msg {
    /// Size of the Rust struct, estimated from the fields.
    size: usize,
    /// A map's entry message (`map<K, V>`).
    map_entry: bool,
    fields: Vec<Field>,
    by_number: HashMap<u32, usize>,
    /// JSON names: the lowerCamelCase `json_name` and the proto name (pbjson takes both).
    by_json: HashMap<String, usize>,
}

/// The messages of the API and each RPC's request message.
#[derive(Debug)]
struct Schema {
    messages: Vec<Msg>,
    by_name: HashMap<String, usize>,
    /// Method name (`ApplyBatch`) → its request message.
    requests: HashMap<String, usize>,
    /// ImportGameRequest's `export_json` (message, field): its text is an 18xx.games export,
    /// which costs what the importer makes of it besides ([`import_json`]).
    export_json: Option<(usize, usize)>,
    /// Fields whose text may be an Autobahn board definition, parsed once decoded
    /// ([`BOARD_PARSE_FACTOR`]): the `options` maps of NewGame, Replay (also in StreamReplay
    /// and ExportGame) and GetGameData, and `referee.autobahn.v1.Options.board_json` in states.
    board_texts: Vec<(usize, usize)>,
}

/// What parsing an Autobahn board definition takes beyond its text, per byte: serde makes an
/// empty string (`""`, 3 bytes) a 24-byte `String` in a growing `Vec` (review of issue #24:
/// a 4.17 MB board took 96 MiB for one call; sixty-four StreamReplay calls with boards of
/// 262 KB, under the engine's 256 KiB cap, 427 MiB at once). Charged on every text that may
/// be parsed as a board ([`Walk::board_parse`]), so that these parses share
/// `--max-buffered-bytes` too.
pub const BOARD_PARSE_FACTOR: u64 = 24;

/// The longest board text the engine parses
/// ([`referee_engine::autobahn::board::MAX_BOARD_JSON_BYTES`], 256 KiB): a longer one is
/// refused unparsed, so it costs its length only.
const MAX_PARSED_BOARD_BYTES: usize = referee_engine::autobahn::board::MAX_BOARD_JSON_BYTES;

/// The key of the map entry being read, in a map whose values may be boards
/// ([`Walk::board_parse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EntryKey {
    /// Not read yet (protobuf may send an entry's value before its key).
    Unknown,
    /// `board`: the value may be parsed as a board.
    Board,
    /// Any other key: its value is never parsed as a board.
    Other,
}

fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        // The descriptor set is built into the binary by build.rs: it always decodes.
        let set = prost_types::FileDescriptorSet::decode(crate::pb::FILE_DESCRIPTOR_SET)
            .unwrap_or_default();
        Schema::new(&set)
    })
}

impl Schema {
    fn new(set: &prost_types::FileDescriptorSet) -> Self {
        // Every message with its full name (`referee.v1.SeatAction`, nested ones too).
        let mut protos: Vec<(String, &prost_types::DescriptorProto)> = Vec::new();
        fn collect<'a>(
            prefix: &str,
            msgs: &'a [prost_types::DescriptorProto],
            out: &mut Vec<(String, &'a prost_types::DescriptorProto)>,
        ) {
            for m in msgs {
                let name = format!("{prefix}.{}", m.name());
                collect(&name, &m.nested_type, out);
                out.push((name, m));
            }
        }
        for file in &set.file {
            collect(file.package(), &file.message_type, &mut protos);
        }
        let by_name: HashMap<String, usize> = protos
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.clone(), i))
            .collect();
        let mut messages: Vec<Msg> = protos
            .iter()
            .map(|(_, m)| {
                let fields: Vec<Field> = m
                    .field
                    .iter()
                    .map(|f| Field {
                        name: f.name().to_string(),
                        kind: kind_of(f, &by_name),
                        repeated: f.label() == Label::Repeated,
                    })
                    .collect();
                let mut by_json = HashMap::new();
                for (i, f) in m.field.iter().enumerate() {
                    by_json.insert(f.json_name().to_string(), i);
                    by_json.insert(f.name().to_string(), i);
                }
                Msg {
                    size: 0,
                    map_entry: m.options.as_ref().is_some_and(|o| o.map_entry()),
                    by_number: m
                        .field
                        .iter()
                        .enumerate()
                        .map(|(i, f)| (f.number() as u32, i))
                        .collect(),
                    fields,
                    by_json,
                }
            })
            .collect();
        let mut sizes: Vec<Option<usize>> = vec![None; protos.len()];
        for i in 0..protos.len() {
            struct_size(i, &protos, &messages, &mut sizes, 0);
        }
        for (m, s) in messages.iter_mut().zip(sizes) {
            m.size = s.unwrap_or(0);
        }
        let mut requests = HashMap::new();
        for file in &set.file {
            for service in &file.service {
                for method in &service.method {
                    let input = method.input_type().trim_start_matches('.');
                    if let Some(&i) = by_name.get(input) {
                        requests.insert(method.name().to_string(), i);
                    }
                }
            }
        }
        let export_json = by_name.get("referee.v1.ImportGameRequest").and_then(|&m| {
            let f = messages[m]
                .fields
                .iter()
                .position(|f| f.name == "export_json")?;
            Some((m, f))
        });
        let board_texts = [
            ("referee.v1.NewGameRequest", "options"),
            ("referee.v1.ReplayRequest", "options"),
            ("referee.v1.GetGameDataRequest", "options"),
            ("referee.autobahn.v1.Options", "board_json"),
        ]
        .iter()
        .filter_map(|(m, f)| {
            let &m = by_name.get(*m)?;
            Some((m, messages[m].fields.iter().position(|x| x.name == *f)?))
        })
        .collect();
        Schema {
            messages,
            by_name,
            requests,
            export_json,
            board_texts,
        }
    }
}

fn kind_of(f: &prost_types::FieldDescriptorProto, by_name: &HashMap<String, usize>) -> Kind {
    use ScalarWire::*;
    let scalar = |size, wire| Kind::Scalar { size, wire };
    match f.r#type() {
        Type::Message | Type::Group => by_name
            .get(f.type_name().trim_start_matches('.'))
            .map_or(Kind::Text, |&i| Kind::Message(i)),
        Type::String | Type::Bytes => Kind::Text,
        Type::Bool => scalar(1, Varint),
        Type::Int32 | Type::Uint32 | Type::Sint32 | Type::Enum => scalar(4, Varint),
        Type::Int64 | Type::Uint64 | Type::Sint64 => scalar(8, Varint),
        Type::Fixed32 | Type::Sfixed32 | Type::Float => scalar(4, Fixed32),
        Type::Fixed64 | Type::Sfixed64 | Type::Double => scalar(8, Fixed64),
    }
}

/// The size of message `i`'s Rust struct as prost lays it out: strings, bytes, repeated
/// fields and maps 24 bytes each; a scalar its size (an `optional` one doubled: `Option`);
/// a singular message field its struct plus 8 (`Option`); a oneof its largest member plus 8;
/// the sum rounded up to 8 bytes. (Checked against `size_of` in the tests below.)
fn struct_size(
    i: usize,
    protos: &[(String, &prost_types::DescriptorProto)],
    messages: &[Msg],
    sizes: &mut Vec<Option<usize>>,
    depth: usize,
) -> usize {
    if let Some(s) = sizes[i] {
        return s;
    }
    if depth > MAX_DEPTH {
        // A recursive message would be boxed: a pointer.
        return 8;
    }
    let proto = protos[i].1;
    let mut plain = 0usize;
    let mut oneofs: HashMap<i32, usize> = HashMap::new();
    for (f, field) in proto.field.iter().zip(&messages[i].fields) {
        let size = if field.repeated {
            24
        } else {
            match field.kind {
                Kind::Text => 24,
                Kind::Scalar { size, .. } if f.proto3_optional() => size * 2,
                Kind::Scalar { size, .. } => size,
                Kind::Message(m) => {
                    let inner = struct_size(m, protos, messages, sizes, depth + 1);
                    if f.oneof_index.is_some() && !f.proto3_optional() {
                        inner
                    } else {
                        inner + 8
                    }
                }
            }
        };
        match f.oneof_index {
            Some(o) if !f.proto3_optional() => {
                let e = oneofs.entry(o).or_default();
                *e = (*e).max(size);
            }
            _ => plain += size,
        }
    }
    let total = plain + oneofs.values().map(|m| m + 8).sum::<usize>();
    let total = total.div_ceil(8) * 8;
    sizes[i] = Some(total);
    total
}

/// The entries a `Vec` grown one push at a time to `n` entries holds room for at its peak:
/// its capacity (Rust's growth: at least 4, then doubling) and, while it last grew, its old
/// buffer of half that beside the new one.
fn vec_capacity(n: u64) -> u64 {
    match n {
        0 => 0,
        1..=4 => 4,
        _ => {
            let cap = n.next_power_of_two();
            cap + cap / 2
        }
    }
}

/// Per entry of a map field: twice its key and value (B-tree nodes are half full at worst),
/// plus the node's share of pointers and lengths.
fn map_entry_cost(entry: &Msg) -> u64 {
    entry.size as u64 * 2 + 16
}

/// One step of the path to the field being read.
#[derive(Clone, Copy)]
struct Step {
    msg: usize,
    field: usize,
    index: Option<u64>,
}

/// The walk: the bytes counted so far, the budget and the path.
struct Walk<'s> {
    schema: &'s Schema,
    used: u64,
    limit: u64,
    path: Vec<Step>,
    over: Option<String>,
    /// The key of the board map entry being read ([`EntryKey`]).
    entry_key: EntryKey,
}

/// The walk stopped: over budget (the path is in `Walk::over`) or malformed input.
#[derive(Debug)]
enum Stop {
    Over,
    Malformed,
}

impl<'s> Walk<'s> {
    fn new(schema: &'s Schema, limit: usize) -> Self {
        Walk {
            schema,
            used: 0,
            limit: limit as u64,
            path: Vec::new(),
            over: None,
            entry_key: EntryKey::Unknown,
        }
    }

    fn path_text(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&self.schema.messages[step.msg].fields[step.field].name);
            if let Some(i) = step.index {
                let _ = write!(out, "[{i}]");
            }
        }
        if out.is_empty() {
            out.push_str("request");
        }
        out
    }

    /// Counts `bytes` more; over the budget the walk stops with the current path.
    fn add(&mut self, bytes: u64) -> Result<(), Stop> {
        self.used = self.used.saturating_add(bytes);
        if self.used > self.limit {
            if self.over.is_none() {
                self.over = Some(self.path_text());
            }
            return Err(Stop::Over);
        }
        Ok(())
    }

    /// Counts a string or bytes field's `text` (the field last on the path): its length, and
    /// for ImportGameRequest's `export_json` what the export takes once imported
    /// ([`import_json`]), so that the import's memory shares `--max-buffered-bytes` with the
    /// body like any decoded request (text that is not UTF-8 is refused by the decoder).
    fn text(&mut self, text: &[u8]) -> Result<(), Stop> {
        self.add(text.len() as u64)?;
        if self.board_parse(text) {
            self.add((text.len() as u64).saturating_mul(BOARD_PARSE_FACTOR))?;
        }
        let here = self.path.last().map(|s| (s.msg, s.field));
        if here.is_some()
            && here == self.schema.export_json
            && let Ok(export) = std::str::from_utf8(text)
        {
            let room = self.limit.saturating_sub(self.used);
            let room = usize::try_from(room).unwrap_or(usize::MAX);
            let bytes = match import_json(export, room) {
                Ok(n) => n as u64,
                Err(_) => (room as u64).saturating_add(1),
            };
            self.add(bytes)?;
        }
        Ok(())
    }

    /// Whether `text`, the string being read, may be parsed as an Autobahn board definition
    /// once decoded, and so costs [`BOARD_PARSE_FACTOR`] bytes per byte besides its length.
    /// Only a text of at most [`MAX_PARSED_BOARD_BYTES`] is (a longer one is refused
    /// unparsed), and only:
    /// * `referee.autobahn.v1.Options.board_json` (a state's board), whatever it holds;
    /// * the value of the `board` entry of an `options` map of [`Schema::board_texts`] that
    ///   begins with `{` (`autobahn::Options::set` parses only those: any other `board` value
    ///   names a shipped board). A map's keys are never parsed, nor the values of other keys;
    ///   a protobuf entry whose value comes before its key is charged as a `board` entry.
    ///
    /// (Before, every key and value of those maps was charged 24 bytes per byte whatever its
    /// length: a 3 MB option value was estimated above 48 MiB and refused as too large to
    /// decode, where the engine refuses a board that long unparsed, and any other option
    /// is compared, not parsed.)
    fn board_parse(&mut self, text: &[u8]) -> bool {
        let schema = self.schema;
        let at = |i: Option<usize>| i.and_then(|i| self.path.get(i)).map(|s| (s.msg, s.field));
        let n = self.path.len();
        let Some(last) = at(n.checked_sub(1)) else {
            return false;
        };
        let is_board_field = |x: (usize, usize)| schema.board_texts.contains(&x);
        let in_entry = schema.messages[last.0].map_entry;
        let value = if in_entry {
            // Protobuf: the entry message is walked; field number 1 is the key, 2 the value.
            if !at(n.checked_sub(2)).is_some_and(is_board_field) {
                return false;
            }
            let entry = &schema.messages[last.0];
            if entry.by_number.get(&1) == Some(&last.1) {
                self.map_key(text);
                return false;
            }
            true
        } else if is_board_field(last) {
            // `board_json` (not a map), or a value of a map read in JSON (its key was read
            // through `map_key`).
            let field = &schema.messages[last.0].fields[last.1];
            matches!(field.kind, Kind::Message(e) if schema.messages[e].map_entry)
        } else {
            return false;
        };
        if text.len() > MAX_PARSED_BOARD_BYTES {
            return false;
        }
        if !value {
            return true;
        }
        self.entry_key != EntryKey::Other && text.trim_ascii_start().starts_with(b"{")
    }

    /// The key of a map entry was read: whether its value may be a board ([`EntryKey`]).
    fn map_key(&mut self, key: &[u8]) {
        self.entry_key = if key == b"board" {
            EntryKey::Board
        } else {
            EntryKey::Other
        };
    }

    /// Checks that `projected` more bytes (a repeated field's entries so far, counted when
    /// its message ends) would still fit, so that a long list stops at the entry that
    /// passes the budget instead of at its end.
    fn fits(&mut self, projected: u64) -> Result<(), Stop> {
        if self.used.saturating_add(projected) > self.limit {
            if self.over.is_none() {
                self.over = Some(self.path_text());
            }
            return Err(Stop::Over);
        }
        Ok(())
    }

    /// The entry size of repeated field `f` of message `m`.
    fn entry_size(&self, m: usize, f: usize) -> u64 {
        match self.schema.messages[m].fields[f].kind {
            Kind::Message(e) => self.schema.messages[e].size as u64,
            Kind::Text => 24,
            Kind::Scalar { size, .. } => size as u64,
        }
    }

    /// Walks one encoded message `m` (its struct already counted by the caller).
    fn wire_message(&mut self, m: usize, mut buf: &[u8]) -> Result<(), Stop> {
        if self.path.len() > MAX_DEPTH {
            return Err(Stop::Malformed);
        }
        let schema = self.schema;
        let msg = &schema.messages[m];
        // Entries of each repeated field in this message (few fields: a short list).
        let mut counts: Vec<(usize, u64)> = Vec::new();
        while buf.has_remaining() {
            let (tag, wire) = decode_key(&mut buf).map_err(|_| Stop::Malformed)?;
            let Some(&f) = msg.by_number.get(&tag) else {
                skip_field(wire, tag, &mut buf, DecodeContext::default())
                    .map_err(|_| Stop::Malformed)?;
                continue;
            };
            let field = &msg.fields[f];
            // Entries this occurrence adds to a repeated field.
            let mut entries = 0u64;
            let index = counts.iter().find(|c| c.0 == f).map_or(0, |c| c.1);
            match (field.kind, wire) {
                (Kind::Message(e), WireType::LengthDelimited) => {
                    let body = length_delimited(&mut buf)?;
                    let entry = &schema.messages[e];
                    self.path.push(Step {
                        msg: m,
                        field: f,
                        index: (field.repeated && !entry.map_entry).then_some(index),
                    });
                    if entry.map_entry {
                        self.entry_key = EntryKey::Unknown;
                        self.add(map_entry_cost(entry))?;
                    } else if field.repeated {
                        entries = 1;
                        self.fits((index + 1) * self.entry_size(m, f))?;
                    }
                    self.wire_message(e, body)?;
                    self.path.pop();
                    if entry.map_entry {
                        continue;
                    }
                }
                (Kind::Text, WireType::LengthDelimited) => {
                    let body = length_delimited(&mut buf)?;
                    self.path.push(Step {
                        msg: m,
                        field: f,
                        index: field.repeated.then_some(index),
                    });
                    if field.repeated {
                        entries = 1;
                        self.fits((index + 1) * 24)?;
                    }
                    self.text(body)?;
                    self.path.pop();
                }
                (Kind::Scalar { size, wire: sw }, WireType::LengthDelimited) if field.repeated => {
                    // Packed.
                    let body = length_delimited(&mut buf)?;
                    entries = match sw {
                        ScalarWire::Varint => body.iter().filter(|b| **b < 0x80).count() as u64,
                        ScalarWire::Fixed32 => body.len() as u64 / 4,
                        ScalarWire::Fixed64 => body.len() as u64 / 8,
                    };
                    self.path.push(Step {
                        msg: m,
                        field: f,
                        index: Some(index + entries.saturating_sub(1)),
                    });
                    self.fits((index + entries) * size as u64)?;
                    self.path.pop();
                }
                (Kind::Scalar { .. }, _) => {
                    skip_field(wire, tag, &mut buf, DecodeContext::default())
                        .map_err(|_| Stop::Malformed)?;
                    if field.repeated {
                        entries = 1;
                    }
                }
                // A wire type the field cannot have: prost refuses the message.
                _ => return Err(Stop::Malformed),
            }
            if entries > 0 {
                match counts.iter_mut().find(|c| c.0 == f) {
                    Some(c) => c.1 += entries,
                    None => counts.push((f, entries)),
                }
            }
        }
        self.close_lists(m, &counts)
    }

    /// A message ends: its repeated fields' `Vec`s are counted at their capacity.
    fn close_lists(&mut self, m: usize, counts: &[(usize, u64)]) -> Result<(), Stop> {
        for &(f, n) in counts {
            let bytes = vec_capacity(n).saturating_mul(self.entry_size(m, f));
            self.path.push(Step {
                msg: m,
                field: f,
                index: None,
            });
            self.add(bytes)?;
            self.path.pop();
        }
        Ok(())
    }
}

fn length_delimited<'b>(buf: &mut &'b [u8]) -> Result<&'b [u8], Stop> {
    let len = decode_varint(buf).map_err(|_| Stop::Malformed)?;
    let len = usize::try_from(len).map_err(|_| Stop::Malformed)?;
    if len > buf.len() {
        return Err(Stop::Malformed);
    }
    let (body, rest) = buf.split_at(len);
    *buf = rest;
    Ok(body)
}

/// The request message of RPC `method` (`ApplyBatch`), if the API has one.
fn request_of(method: &str) -> Option<usize> {
    schema().requests.get(method).copied()
}

/// Estimated bytes of the protobuf message `bytes` of type `message` (full name,
/// `referee.v1.GameState`) once decoded, at most `limit`. Malformed bytes: what was counted
/// before the fault (the decoder refuses them).
///
/// Errors: [`OverBudget`] when the estimate passes `limit`.
pub fn protobuf(message: &str, bytes: &[u8], limit: usize) -> Result<usize, OverBudget> {
    let schema = schema();
    let Some(&m) = schema.by_name.get(message) else {
        return Ok(0);
    };
    protobuf_of(schema, m, bytes, limit)
}

fn protobuf_of(schema: &Schema, m: usize, bytes: &[u8], limit: usize) -> Result<usize, OverBudget> {
    let mut walk = Walk::new(schema, limit);
    let result = walk
        .add(schema.messages[m].size as u64)
        .and_then(|()| walk.wire_message(m, bytes));
    finish(walk, result)
}

fn finish(walk: Walk<'_>, result: Result<(), Stop>) -> Result<usize, OverBudget> {
    // Malformed input ends the walk with what it counted; the decoder refuses it.
    let _ = result;
    match walk.over {
        Some(path) => Err(OverBudget {
            path,
            limit: walk.limit as usize,
        }),
        None => Ok(walk.used.min(usize::MAX as u64) as usize),
    }
}

/// Estimated bytes of the request of RPC `method` (`ApplyBatch`) given as the protobuf
/// message `bytes`, at most `limit`; 0 for a method the API does not have (health, reflection).
///
/// Errors: [`OverBudget`].
pub fn request_protobuf(method: &str, bytes: &[u8], limit: usize) -> Result<usize, OverBudget> {
    match request_of(method) {
        Some(m) => protobuf_of(schema(), m, bytes, limit),
        None => Ok(0),
    }
}

/// Estimated bytes of the request of RPC `method` given as proto3 JSON (`POST /v1/<method>`),
/// at most `limit`; 0 for a method the API does not have. JSON that does not parse: what was
/// counted before the fault (the JSON decoder refuses it).
///
/// Errors: [`OverBudget`].
pub fn request_json(method: &str, json: &[u8], limit: usize) -> Result<usize, OverBudget> {
    let schema = schema();
    let Some(m) = request_of(method) else {
        return Ok(0);
    };
    let mut walk = Walk::new(schema, limit);
    let result = walk.add(schema.messages[m].size as u64).and_then(|()| {
        let mut de = serde_json::Deserializer::from_slice(json);
        JsonMessage {
            walk: &mut walk,
            msg: m,
        }
        .deserialize(&mut de)
        .map_err(|_| Stop::Malformed)
    });
    finish(walk, result)
}
