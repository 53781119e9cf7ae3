//! Static game data for user interfaces: everything needed to draw a game that never changes
//! while it is played, as one JSON document per game variant (the `GetGameData` call of the
//! service, docs/API.md "Static game data").
//!
//! One source: the document is built from the engine's own data files (`engine/data/...`, the
//! same compiled-in text the rules read) and the board the rules load, never from a copy.
//! Besides the data, the document carries drawing positions the files lack, derived
//! deterministically (the rules in [`LAYOUT_1841`] and [`PROJECTION_AUTOBAHN`]).
//!
//! Keys of every JSON object are sorted (serde_json's map), so the same variant always gives
//! the same bytes and its content hash is a cache key.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::autobahn::board::{Board, Node};
use crate::g1841;

/// Format version of the documents (`format_version`); raised when a key changes meaning.
pub const FORMAT_VERSION: u32 = 1;

/// How the 1841 hex centres are placed (the `layout.center_rule` of the document).
pub const LAYOUT_1841: &str = "flat-topped hexes; a coordinate is a row letter and a column \
number (F8: row F, column 8; the lower-case row a lies above A); centre = (1.5 × (column − \
min column) + 1, √3/2 × (row − min row) + √3/2) in units of the hex's circumradius (corner to \
centre), y growing downwards; edge e's midpoint lies at angle 90° + 60° × e from the centre \
(0 = S, 1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE; screen angles, clockwise from east); a tile laid \
with rotation r puts its edge e on the hex's edge (e + r) mod 6";

/// How Autobahn positions become drawing coordinates (the `layout.projection` of the
/// document).
pub const PROJECTION_AUTOBAHN: &str = "equirectangular: x = (lon − min lon) × cos(mid lat) × k + \
margin, y = (max lat − lat) × k + margin over every city and commercial city of the board, k \
chosen so the drawing is 1000 units wide including margins of 40, rounded to 0.1; a section's \
(lat, lon) is the engine's own: the point (n + 0.5) / count of the way from end a to end b of \
its link (section n from 0)";

/// Errors: a compiled-in data file that does not parse (a build defect, never input).
fn parse(name: &str, text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("engine/data/{name} is invalid: {e}"))
}

/// Every string value anywhere in `v` (to find which corporations a ruleset mentions).
fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// (row, column) of an 1841 coordinate: `F8` → (5, 8), `a4` → (−1, 4).
pub fn coordinate_1841(id: &str) -> Option<(i32, i32)> {
    let mut chars = id.chars();
    let letter = chars.next()?;
    let column: i32 = chars.as_str().parse().ok()?;
    let row = match letter {
        'A'..='Z' => letter as i32 - 'A' as i32,
        'a' => -1,
        _ => return None,
    };
    Some((row, column))
}

/// The 1841 document of the variant `options` select (`v2`, `v1` or `lite`, as the rules
/// choose it: [`g1841::map::map`]).
///
/// Keys: `format_version`, `game` (`1841`), `variant`, `description`, `layout` (orientation,
/// edges, centre rule, drawing size), `hexes` (the map file's hexes with `row`, `column` and
/// `center`), `borders` (province border sets of the variant), `tiles` (the manifest of the
/// variant: tiles with `count` > 0), `market` (market.json), `ruleset` (the variant's object of
/// game_constants.json: trains, phases, corporations' homes and kinds, concessions, bank,
/// certificate limits), `concessions` and `corporations` (names and colours from
/// entities.json, the ones the ruleset mentions).
pub fn g1841(options: &g1841::Options) -> Result<Value, String> {
    let variant = g1841::map::map(options).ruleset;
    let map_text = match variant {
        "lite" => g1841::map::MAP_LITE,
        "v1" => g1841::map::MAP_V1,
        _ => g1841::map::MAP_V2,
    };
    let map = parse(&format!("1841/map_{variant}.json"), map_text)?;
    let tiles = parse("1841/tiles.json", g1841::map::TILES)?;
    let borders = parse("1841/region_borders.json", g1841::map::BORDERS)?;
    let market = parse("1841/market.json", g1841::data::MARKET)?;
    let constants = parse("1841/game_constants.json", g1841::data::GAME_CONSTANTS)?;
    let entities = parse("1841/entities.json", ENTITIES_1841)?;

    let ruleset = constants
        .pointer(&format!("/rulesets/{variant}"))
        .cloned()
        .ok_or_else(|| format!("game_constants.json has no ruleset {variant}"))?;

    // Hexes with their grid position and drawing centre.
    let raw_hexes = map
        .get("hexes")
        .and_then(Value::as_array)
        .ok_or("map file without hexes")?;
    let mut placed = Vec::with_capacity(raw_hexes.len());
    for h in raw_hexes {
        let id = h.get("id").and_then(Value::as_str).unwrap_or_default();
        let (row, column) = coordinate_1841(id).ok_or_else(|| format!("bad hex id {id}"))?;
        placed.push((h, row, column));
    }
    let min_row = placed.iter().map(|p| p.1).min().unwrap_or(0);
    let max_row = placed.iter().map(|p| p.1).max().unwrap_or(0);
    let min_col = placed.iter().map(|p| p.2).min().unwrap_or(0);
    let max_col = placed.iter().map(|p| p.2).max().unwrap_or(0);
    let half_height = 3f64.sqrt() / 2.0;
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    let hexes: Vec<Value> = placed
        .iter()
        .map(|(h, row, column)| {
            let mut o = h.as_object().cloned().unwrap_or_default();
            let x = 1.5 * f64::from(column - min_col) + 1.0;
            let y = half_height * f64::from(row - min_row) + half_height;
            o.insert("row".into(), json!(row));
            o.insert("column".into(), json!(column));
            o.insert("center".into(), json!([round(x), round(y)]));
            Value::Object(o)
        })
        .collect();
    let width = round(1.5 * f64::from(max_col - min_col) + 2.0);
    let height = round(half_height * f64::from(max_row - min_row) + 2.0 * half_height);

    // The variant's tile manifest.
    let tiles: Vec<Value> = tiles
        .get("tiles")
        .and_then(Value::as_array)
        .ok_or("tiles.json without tiles")?
        .iter()
        .filter_map(|t| {
            let count = t.pointer(&format!("/counts/{variant}"))?.as_u64()?;
            (count > 0).then(|| {
                let mut o = t.as_object().cloned().unwrap_or_default();
                o.remove("counts");
                o.insert("count".into(), json!(count));
                Value::Object(o)
            })
        })
        .collect();

    // Province borders: v1 shares v2's table (region_borders.json `v1_identical_to_v2`).
    let border_key = if variant == "lite" { "lite" } else { "v2" };
    let border_sets = borders
        .pointer(&format!("/borders/{border_key}"))
        .cloned()
        .unwrap_or(Value::Null);

    let mut mentioned = BTreeSet::new();
    strings(&ruleset, &mut mentioned);
    let pick = |key: &str| -> Vec<Value> {
        entities
            .get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter(|e| {
                        e.get("sym")
                            .and_then(Value::as_str)
                            .is_some_and(|s| mentioned.contains(s))
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    let concession_order: Vec<String> = ruleset
        .pointer("/concession_round/concessions_in_order")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let concessions: Vec<Value> = pick("concessions")
        .into_iter()
        .filter(|c| {
            c.get("sym")
                .and_then(Value::as_str)
                .is_some_and(|s| concession_order.iter().any(|x| x == s))
        })
        .collect();

    Ok(json!({
        "format_version": FORMAT_VERSION,
        "game": "1841",
        "variant": variant,
        "description": ruleset.get("description").cloned().unwrap_or(Value::Null),
        "layout": {
            "orientation": "flat",
            "edges": ["S", "SW", "NW", "N", "NE", "SE"],
            "center_rule": LAYOUT_1841,
            "width": width,
            "height": height,
            "notes": map.get("coordinate_notes").cloned().unwrap_or(Value::Null),
        },
        "hexes": hexes,
        "borders": {
            "semantics": borders.get("semantics").cloned().unwrap_or(Value::Null),
            "sets": border_sets,
        },
        "tiles": tiles,
        "market": market,
        "ruleset": ruleset,
        "concessions": concessions,
        "corporations": pick("corporations"),
        "sources": {
            "map": map.get("source").cloned().unwrap_or(Value::Null),
            "tiles": tiles_source(),
            "entities": entities.get("source").cloned().unwrap_or(Value::Null),
        },
    }))
}

fn tiles_source() -> Value {
    serde_json::from_str::<Value>(g1841::map::TILES)
        .ok()
        .and_then(|t| t.get("source").cloned())
        .unwrap_or(Value::Null)
}

/// Names and colours of 1841's concessions and corporations (from 18xx.games' entities.rb).
pub(crate) const ENTITIES_1841: &str = include_str!("../data/1841/entities.json");

/// The Autobahn document of a board (the default board or a platform's own, as the `board`
/// option loads it).
///
/// Keys: `format_version`, `game` (`autobahn`), `variant` (the board id), `board` (the board
/// definition as the engine loaded it: cities, countries, links and sections, depots,
/// closures, offices, administration and departments, delivery boards, bonus tiles, cards,
/// route cards, player board, development track), `layout` (projection, width, height) and
/// `positions` (`cities`, `countries`, `sections`: id → `{lat, lon, x, y}`).
pub fn autobahn(board: &Board) -> Value {
    let def = &board.def;
    let points: Vec<(f64, f64)> = def
        .cities
        .iter()
        .map(|c| (c.lat, c.lon))
        .chain(def.countries.iter().map(|c| (c.lat, c.lon)))
        .collect();
    let fold = |f: fn(f64, f64) -> f64, pick: fn(&(f64, f64)) -> f64, start: f64| {
        points.iter().map(pick).fold(start, f)
    };
    let (min_lat, max_lat) = (
        fold(f64::min, |p| p.0, f64::INFINITY),
        fold(f64::max, |p| p.0, f64::NEG_INFINITY),
    );
    let (min_lon, max_lon) = (
        fold(f64::min, |p| p.1, f64::INFINITY),
        fold(f64::max, |p| p.1, f64::NEG_INFINITY),
    );
    let mid = ((min_lat + max_lat) / 2.0).to_radians().cos();
    let margin = 40.0;
    let span = ((max_lon - min_lon) * mid).max(1e-9);
    let k = (1000.0 - 2.0 * margin) / span;
    let round = |x: f64| (x * 10.0).round() / 10.0;
    let project = |lat: f64, lon: f64| {
        json!({
            "lat": lat,
            "lon": lon,
            "x": round((lon - min_lon) * mid * k + margin),
            "y": round((max_lat - lat) * k + margin),
        })
    };
    let height = round((max_lat - min_lat) * k + 2.0 * margin);
    let cities: Map<String, Value> = def
        .cities
        .iter()
        .map(|c| (c.id.clone(), project(c.lat, c.lon)))
        .collect();
    let countries: Map<String, Value> = def
        .countries
        .iter()
        .map(|c| (c.id.clone(), project(c.lat, c.lon)))
        .collect();
    let sections: Map<String, Value> = board
        .map
        .section_ids
        .iter()
        .zip(&board.map.sections)
        .map(|(id, s)| (id.clone(), project(s.pos.0, s.pos.1)))
        .collect();
    let node_of = |n: Node| board.node_id(n).to_string();
    let link_ends: Map<String, Value> = def
        .links
        .iter()
        .zip(&board.map.link_ends)
        .map(|(l, (a, b))| (l.id.clone(), json!([node_of(*a), node_of(*b)])))
        .collect();
    json!({
        "format_version": FORMAT_VERSION,
        "game": "autobahn",
        "variant": def.board_id,
        "board": def,
        "layout": {
            "projection": PROJECTION_AUTOBAHN,
            "width": 1000.0,
            "height": height,
        },
        "positions": {
            "cities": cities,
            "countries": countries,
            "sections": sections,
            "link_ends": link_ends,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_read_row_and_column() {
        assert_eq!(coordinate_1841("F8"), Some((5, 8)));
        assert_eq!(coordinate_1841("a4"), Some((-1, 4)));
        assert_eq!(coordinate_1841("A15"), Some((0, 15)));
        assert_eq!(coordinate_1841("8F"), None);
        assert_eq!(coordinate_1841("b4"), None);
    }
}
