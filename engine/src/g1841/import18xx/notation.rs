//! The 18xx.games identifier notation, shared by the reader ([`super::parse_export`]) and the
//! writer ([`crate::g1841::export18xx`]): share `SFTG_3` (certificate index 3, `_0` = president's
//! certificate), tile copy `202-0`, city `R14-0-0` (printed tile `<hex>-0`, city 0) or
//! `208-0-1` (laid tile copy `208-0`, city 1), route node `F16-1` (hex, node index), share price
//! `100,3,5` (price, row, column). Train ids (`2-0` … `8-6`) are this engine's ids already.

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
