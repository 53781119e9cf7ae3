//! Track and token reachability (1841 §9.1, §9.2): the tiles on the map, the track graph
//! traced from a corporation's tokens, and the legality of tile lays.
//!
//! This module holds what a hex shows ([`HexView`]), cities, slots and tokens on a hex, a
//! corporation's bases and the tile supply; one module each: [`board`] (the map as the
//! searches read it), [`shared_boards`] (boards kept and reused across states), [`shape`]
//! (track as bit masks, the upgrade rule of §9.1) and [`search`] (the traced graph, §9.2).

use std::collections::BTreeSet;

use super::map::{self, End, Node, NodeKind, Path};
use super::state::{MapToken, PlacedTile, State};

mod board;
mod search;
mod shape;
mod shared_boards;

pub use board::{Board, LazyBoard};
pub(super) use search::blocked;
pub use search::{Reach, reach};
pub use shape::{Shape, Shapes, exits, preserves, shapes};

/// What a hex shows now: the laid tile (rotated) or the printed hex. Borrows the static map
/// data (no copy per look-up).
#[derive(Clone, Copy, Debug)]
pub struct HexView {
    /// Nodes.
    pub nodes: &'static [Node],
    /// Track with rotated edges.
    pub paths: &'static [Path],
    /// Tile number laid, `None` for the printed hex.
    pub tile: Option<&'static str>,
}

/// The current content of `hex` (`None` for a hex not on the map).
pub fn hex_view(state: &State, hex: &str) -> Option<HexView> {
    let m = map::map(&state.options);
    let i = m.hex_index(hex)?;
    view_of(m, i, state.operations.tiles.get(hex))
}

/// What hex `i` of `m` shows with `placed` on it (`None`: a tile the manifest lacks).
fn view_of(m: &'static map::Map, i: usize, placed: Option<&PlacedTile>) -> Option<HexView> {
    match placed {
        Some(PlacedTile { tile, rotation }) => {
            let t = m.tile(tile)?;
            Some(HexView {
                nodes: &t.nodes,
                paths: &t.rotations[usize::from(*rotation % 6)],
                tile: Some(&t.id),
            })
        }
        None => {
            let printed = m.hex_list.get(i)?;
            Some(HexView {
                nodes: &printed.nodes,
                paths: &printed.paths,
                tile: None,
            })
        }
    }
}

/// By hex index: what every hex of `m` shows with no tile laid (where a [`Board`] starts),
/// made once per map.
fn printed_views(m: &'static map::Map) -> &'static [Option<HexView>] {
    static VIEWS: [std::sync::OnceLock<Vec<Option<HexView>>>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    let slot = match m.ruleset {
        "lite" => 2,
        "v1" => 1,
        _ => 0,
    };
    VIEWS[slot].get_or_init(|| (0..m.hex_list.len()).map(|i| view_of(m, i, None)).collect())
}

/// The tile of `placed` as (tile index, what it shows in its rotation); `None` for a tile the
/// manifest lacks.
fn laid_tile(m: &'static map::Map, placed: &PlacedTile) -> Option<(usize, HexView)> {
    let t = m.tile_lookup.get(&placed.tile)?;
    let tile = m.tile_list.get(t)?;
    Some((
        t,
        HexView {
            nodes: &tile.nodes,
            paths: tile.rotations.get(usize::from(placed.rotation % 6))?,
            tile: Some(&tile.id),
        },
    ))
}

impl PartialEq for HexView {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.nodes, other.nodes)
            && std::ptr::eq(self.paths, other.paths)
            && self.tile == other.tile
    }
}

/// Paths with edges rotated by `rotation`.
pub fn rotated(paths: &[Path], rotation: u8) -> Vec<Path> {
    paths
        .iter()
        .map(|p| Path {
            a: map::rotate(p.a, rotation),
            b: map::rotate(p.b, rotation),
            terminal: p.terminal,
        })
        .collect()
}

/// Node index of city `city` (counting cities and passes in node order).
pub fn city_node(nodes: &[Node], city: u32) -> Option<usize> {
    nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.is_city())
        .nth(city as usize)
        .map(|(i, _)| i)
}

/// City index of node `node`.
pub fn node_city(nodes: &[Node], node: usize) -> Option<u32> {
    if !nodes.get(node)?.is_city() {
        return None;
    }
    Some(nodes[..node].iter().filter(|n| n.is_city()).count() as u32)
}

/// City `city` of `hex` as it exists now: a printed city index beyond the laid tile's cities
/// (yellow Firenze/Torino upgraded to a single two-slot city) becomes city 0 (1841 §9.1).
pub fn current_city(state: &State, hex: &str, city: u32) -> u32 {
    let cities = hex_view(state, hex).map_or(0, |v| v.nodes.iter().filter(|n| n.is_city()).count());
    if (city as usize) < cities { city } else { 0 }
}

/// Whether city `city` of `hex` has a free token slot.
pub fn has_free_slot(state: &State, hex: &str, city: u32) -> bool {
    hex_view(state, hex)
        .and_then(|v| city_node(v.nodes, city).map(|n| v.nodes[n].slots))
        .is_some_and(|slots| (token_count_at(state, hex, city) as u32) < slots)
}

/// How many corporations have a token in city `city` of `hex` (the length of [`tokens_at`],
/// without building the list).
pub fn token_count_at(state: &State, hex: &str, city: u32) -> usize {
    state
        .corporations
        .iter()
        .filter(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
        .count()
}

/// Symbols of the corporations with a token in city `city` of `hex`.
pub fn tokens_at(state: &State, hex: &str, city: u32) -> Vec<String> {
    state
        .corporations
        .iter()
        .filter(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
        .map(|c| c.sym.clone())
        .collect()
}

/// The corporation's bases: its tokens in non-pass cities, as (hex, node) (1841 §9.1: tokens
/// in passes are never bases).
pub fn bases(state: &State, corp: &str) -> Vec<(String, usize, u32)> {
    let Some(c) = state.corporation(corp) else {
        return Vec::new();
    };
    c.tokens
        .iter()
        .filter_map(|t| {
            let v = hex_view(state, &t.hex)?;
            let n = city_node(v.nodes, t.city)?;
            (v.nodes[n].kind == NodeKind::City).then(|| (t.hex.clone(), n, t.city))
        })
        .collect()
}

/// Tiles of `tile` still in the supply: the manifest count minus the copies on the map.
pub fn tiles_available(state: &State, tile: &str) -> u32 {
    let m = map::map(&state.options);
    let used = state
        .operations
        .tiles
        .values()
        .filter(|p| p.tile == tile)
        .count() as u32;
    m.tile_count(tile).saturating_sub(used)
}
