//! The map and tile data of 1841 (1841 §0.3, §9.1; 1841-data.md), loaded from verbatim copies
//! of the rules data in `engine/data/1841/`: `map_v2.json`, `map_v1.json`, `map_lite.json`
//! (hexes with terrain cost, printed nodes and track, traversable neighbours, legal first
//! tiles), `tiles.json` (the tile manifest with counts per ruleset and upgrades) and
//! `region_borders.json` (province borders by phase set).
//!
//! Geometry: flat-topped hexes, edge 0 = south, 1 = south-west, 2 = north-west, 3 = north,
//! 4 = north-east, 5 = south-east (1841 §0.3). A tile laid with rotation `r` has its printed
//! edge `e` on hex edge `(e + r) mod 6`; the neighbour across edge `e` sees it as
//! `(e + 3) mod 6`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use super::ids::IdIndex;
use serde::Deserialize;
use serde_json::Value;

use super::options::Options;

pub(crate) const MAP_V2: &str = include_str!("../../data/1841/map_v2.json");
pub(crate) const MAP_V1: &str = include_str!("../../data/1841/map_v1.json");
pub(crate) const MAP_LITE: &str = include_str!("../../data/1841/map_lite.json");
pub(crate) const TILES: &str = include_str!("../../data/1841/tiles.json");
pub(crate) const BORDERS: &str = include_str!("../../data/1841/region_borders.json");

/// Kind of a revenue node (1841 §9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// A city (token slots).
    City,
    /// A town (free for train capacity).
    Town,
    /// A red off-board.
    Offboard,
    /// A mountain pass (a city with slots that pays nothing, 1841 §9.1, §9.2).
    Pass,
    /// A port (blue hex), a town that does not count for the two-stop minimum.
    Port,
}

/// Revenue of a node: fixed, or by off-board column (`white`/`gray`/`black`, 1841 §9.3).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Revenue {
    /// Fixed value in L.
    Fixed(i64),
    /// Off-board value by phase column.
    ByPhase(BTreeMap<String, i64>),
}

/// A revenue node of a hex or tile.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Node {
    /// City, town, off-board, pass or port.
    #[serde(rename = "type")]
    pub kind: NodeKind,
    /// Revenue.
    pub revenue: Revenue,
    /// Token slots (cities and passes).
    #[serde(default)]
    pub slots: u32,
    /// Pass size (1 small, 2 big), 0 for other nodes (1841 §9.1).
    #[serde(default)]
    pub size: u32,
    /// Counts toward the two-stop minimum of a route (1841 §9.3).
    pub counts_toward_two_stop_minimum: bool,
    /// Off-board group (`Trento`, `East`, `Marseille`, `Roma`): counted once per route
    /// (1841 §9.3).
    #[serde(default)]
    pub groups: Vec<String>,
}

impl Node {
    /// Whether tokens can stand here (cities and passes, 1841 §9.2).
    pub fn is_city(&self) -> bool {
        matches!(self.kind, NodeKind::City | NodeKind::Pass)
    }
}

/// One end of a path: a hex edge (0–5) or a node (`n<i>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum End {
    /// Edge number (unrotated on a tile).
    Edge(u8),
    /// Node index.
    Node(usize),
}

/// A track segment of a hex or tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    /// One end.
    pub a: End,
    /// Other end.
    pub b: End,
    /// Terminal stub (yellow Milano, 1841 §9.1): a walk may not continue through its node.
    pub terminal: bool,
}

#[derive(Deserialize)]
struct RawPath {
    a: Value,
    b: Value,
    #[serde(default)]
    terminal: Option<String>,
}

fn end(v: &Value) -> Option<End> {
    if let Some(e) = v.as_u64() {
        return u8::try_from(e).ok().filter(|e| *e < 6).map(End::Edge);
    }
    let t = v.as_str()?;
    t.strip_prefix('n')?.parse().ok().map(End::Node)
}

fn paths(raw: Vec<RawPath>) -> Vec<Path> {
    raw.iter()
        .filter_map(|p| {
            Some(Path {
                a: end(&p.a)?,
                b: end(&p.b)?,
                terminal: p.terminal.is_some(),
            })
        })
        .collect()
}

/// Terrain/upgrade cost entry.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Cost {
    /// Cost in L.
    pub cost: i64,
    /// Terrain names (`mountain`, `swamp`; empty for passes).
    #[serde(default)]
    pub terrains: Vec<String>,
}

#[derive(Deserialize)]
struct RawHex {
    id: String,
    location: Option<String>,
    color: String,
    label: Option<String>,
    nodes: Vec<Node>,
    paths: Vec<RawPath>,
    terrain_cost: Vec<Cost>,
    neighbors: BTreeMap<String, String>,
    first_tiles: Option<Vec<String>>,
}

/// A map hex (1841-data map_*.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hex {
    /// Coordinate, e.g. `F8`.
    pub id: String,
    /// Location name.
    pub location: Option<String>,
    /// Printed colour (`white`, `yellow`, `green`, `red`, `blue`, `gray`).
    pub color: String,
    /// Label (`Y`, `M`, `T`, `G`, `V`).
    pub label: Option<String>,
    /// Printed nodes.
    pub nodes: Vec<Node>,
    /// Printed track.
    pub paths: Vec<Path>,
    /// Cost of the first tile laid here, in L. (1841 §9.1: mountain, swamp, pass).
    pub terrain_cost: i64,
    /// Traversable neighbours by edge.
    pub neighbors: BTreeMap<u8, String>,
    /// Tiles that may be laid here first (empty: never built on).
    pub first_tiles: Vec<String>,
}

#[derive(Deserialize)]
struct RawTile {
    id: String,
    color: String,
    label: Option<String>,
    nodes: Vec<Node>,
    paths: Vec<RawPath>,
    upgrade_cost_from_this_tile: Vec<Cost>,
    counts: BTreeMap<String, u32>,
    upgrades_to: Vec<String>,
}

/// A tile of the manifest (1841-data tiles.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Tile number, e.g. `202`.
    pub id: String,
    /// `yellow`, `green` or `brown`.
    pub color: String,
    /// Label.
    pub label: Option<String>,
    /// Nodes.
    pub nodes: Vec<Node>,
    /// Track, unrotated.
    pub paths: Vec<Path>,
    /// Cost of upgrading this tile, in L. (1841 §9.1: green pass → brown pass L.50).
    pub upgrade_cost: i64,
    /// Copies per ruleset (`v2`, `v1`, `lite`).
    pub counts: BTreeMap<String, u32>,
    /// Tiles it may be upgraded to.
    pub upgrades_to: Vec<String>,
    /// `paths` rotated by 0–5, computed once at load (hot in tile-lay and route searches).
    pub rotations: [Vec<Path>; 6],
}

/// One province border: `hex` edge `edge`, seen from the neighbour as `neighbor_edge`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Border {
    /// Hex.
    pub hex: String,
    /// Edge of `hex`.
    pub edge: u8,
    /// The hex across the border.
    pub neighbor: String,
    /// The same side as an edge of `neighbor`.
    pub neighbor_edge: u8,
}

/// The map of one ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Ruleset key (`v2`, `v1`, `lite`).
    pub ruleset: &'static str,
    /// Hexes by coordinate.
    pub hexes: BTreeMap<String, Hex>,
    /// Tiles by number.
    pub tiles: BTreeMap<String, Tile>,
    /// Province border sides by set name (`2`, `4`, `5`), as (hex, edge), both sides of
    /// every border.
    pub borders: BTreeMap<String, BTreeSet<(String, u8)>>,
    /// The same sides as `borders`, by set and hex, as an edge bit mask (bit `e` for edge
    /// `e`), for lookups without allocating.
    pub border_edges: BTreeMap<String, BTreeMap<String, u8>>,
    /// Hex coordinates in the order of `hexes`: a hex's index (track searches work on
    /// indices).
    pub hex_ids: Vec<String>,
    /// By hex index: the neighbour's index across each edge 0–5 (`neighbors` as indices).
    pub neighbor_index: Vec<[Option<usize>; 6]>,
    /// The hexes of `hexes` by index (`hex_ids` order), for look-ups without a key search.
    pub hex_list: Vec<Hex>,
    /// Hex index by coordinate (the hot look-up of track searches: a hash, not a key search).
    pub hex_lookup: IdIndex,
    /// The tiles of `tiles` by index (tile-number order).
    pub tile_list: Vec<Tile>,
    /// Tile index by number.
    pub tile_lookup: IdIndex,
    /// By tile index: copies in this ruleset's manifest ([`Map::tile_count`]).
    pub tile_manifest: Vec<u32>,
    /// By hex index: the province border sides of each set, as edge masks
    /// (`border_edges` by index; set names as in `borders`).
    pub border_masks: Vec<(String, Vec<u8>)>,
    /// By hex index: the edges with a traversable neighbour ([`Hex::neighbors`]), bit `e` for
    /// edge `e`.
    pub neighbor_mask: Vec<u8>,
    /// By hex index: [`Hex::first_tiles`] as tile indices, in their order (numbers the
    /// manifest lacks left out), for the tile-lay search.
    pub first_tile_index: Vec<Vec<usize>>,
    /// By tile index: [`Tile::upgrades_to`] as tile indices, in their order (numbers the
    /// manifest lacks left out).
    pub upgrade_index: Vec<Vec<usize>>,
    /// The tile colours of the manifest, each once, in the order first met.
    pub tile_colors: Vec<String>,
    /// By tile index: its colour as an index in [`Map::tile_colors`].
    pub tile_color_index: Vec<usize>,
}

fn load(ruleset: &'static str, map_json: &str) -> Map {
    #[derive(Deserialize)]
    struct RawMap {
        hexes: Vec<RawHex>,
    }
    #[derive(Deserialize)]
    struct RawTiles {
        tiles: Vec<RawTile>,
    }
    #[derive(Deserialize)]
    struct RawBorders {
        borders: BTreeMap<String, BTreeMap<String, Vec<Border>>>,
    }
    let raw: RawMap = serde_json::from_str(map_json).expect("embedded 1841 map data parses");
    let hexes: BTreeMap<String, Hex> = raw
        .hexes
        .into_iter()
        .map(|h| {
            let hex = Hex {
                id: h.id.clone(),
                location: h.location,
                color: h.color,
                label: h.label,
                nodes: h.nodes,
                paths: paths(h.paths),
                terrain_cost: h.terrain_cost.iter().map(|c| c.cost).sum(),
                neighbors: h
                    .neighbors
                    .into_iter()
                    .filter_map(|(e, n)| e.parse().ok().map(|e| (e, n)))
                    .collect(),
                first_tiles: h.first_tiles.unwrap_or_default(),
            };
            (h.id, hex)
        })
        .collect();
    let raw_tiles: RawTiles = serde_json::from_str(TILES).expect("embedded 1841 tiles parse");
    let tiles: BTreeMap<String, Tile> = raw_tiles
        .tiles
        .into_iter()
        .map(|t| {
            let unrotated = paths(t.paths);
            let rotations = [0u8, 1, 2, 3, 4, 5].map(|r| {
                unrotated
                    .iter()
                    .map(|p| Path {
                        a: rotate(p.a, r),
                        b: rotate(p.b, r),
                        terminal: p.terminal,
                    })
                    .collect()
            });
            let tile = Tile {
                id: t.id.clone(),
                color: t.color,
                label: t.label,
                nodes: t.nodes,
                paths: unrotated,
                rotations,
                upgrade_cost: t.upgrade_cost_from_this_tile.iter().map(|c| c.cost).sum(),
                counts: t.counts,
                upgrades_to: t.upgrades_to,
            };
            (t.id, tile)
        })
        .collect();
    let raw_borders: RawBorders =
        serde_json::from_str(BORDERS).expect("embedded 1841 borders parse");
    let borders: BTreeMap<String, BTreeSet<(String, u8)>> = raw_borders
        .borders
        .get(ruleset)
        .map(|sets| {
            sets.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.iter()
                            .flat_map(|b| {
                                [
                                    (b.hex.clone(), b.edge),
                                    (b.neighbor.clone(), b.neighbor_edge),
                                ]
                            })
                            .collect(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let border_edges: BTreeMap<String, BTreeMap<String, u8>> = borders
        .iter()
        .map(|(set, sides)| {
            let mut by_hex: BTreeMap<String, u8> = BTreeMap::new();
            for (hex, edge) in sides {
                *by_hex.entry(hex.clone()).or_default() |= 1 << edge;
            }
            (set.clone(), by_hex)
        })
        .collect();
    let hex_ids: Vec<String> = hexes.keys().cloned().collect();
    let neighbor_index = hexes
        .values()
        .map(|h: &Hex| {
            let mut out = [None; 6];
            for (e, n) in &h.neighbors {
                if let Some(slot) = out.get_mut(usize::from(*e)) {
                    *slot = hex_ids.binary_search(n).ok();
                }
            }
            out
        })
        .collect();
    let hex_list: Vec<Hex> = hexes.values().cloned().collect();
    let hex_lookup = hex_ids
        .iter()
        .enumerate()
        .map(|(i, h)| (h.as_str(), i))
        .collect();
    let tile_list: Vec<Tile> = tiles.values().cloned().collect();
    let tile_manifest = tile_list
        .iter()
        .map(|t| t.counts.get(ruleset).copied().unwrap_or(0))
        .collect();
    let tile_lookup: IdIndex = tile_list
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let border_masks = border_edges
        .iter()
        .map(|(set, by_hex)| {
            let masks = hex_ids
                .iter()
                .map(|h| by_hex.get(h).copied().unwrap_or(0))
                .collect();
            (set.clone(), masks)
        })
        .collect();
    let indices =
        |ids: &[String]| -> Vec<usize> { ids.iter().filter_map(|t| tile_lookup.get(t)).collect() };
    let neighbor_mask = hex_list
        .iter()
        .map(|h| {
            h.neighbors
                .keys()
                .fold(0u8, |m, e| m | 1u8.checked_shl(u32::from(*e)).unwrap_or(0))
        })
        .collect();
    let first_tile_index = hex_list.iter().map(|h| indices(&h.first_tiles)).collect();
    let upgrade_index = tile_list.iter().map(|t| indices(&t.upgrades_to)).collect();
    let mut tile_colors: Vec<String> = Vec::new();
    let tile_color_index = tile_list
        .iter()
        .map(|t| match tile_colors.iter().position(|c| *c == t.color) {
            Some(k) => k,
            None => {
                tile_colors.push(t.color.clone());
                tile_colors.len() - 1
            }
        })
        .collect();
    Map {
        ruleset,
        hexes,
        tiles,
        borders,
        border_edges,
        hex_ids,
        neighbor_index,
        hex_list,
        hex_lookup,
        tile_list,
        tile_lookup,
        tile_manifest,
        border_masks,
        neighbor_mask,
        first_tile_index,
        upgrade_index,
        tile_colors,
        tile_color_index,
    }
}

/// The map of the game's ruleset: `lite`, else `version_1`, else Version 2 (1841 §0.2).
pub fn map(options: &Options) -> &'static Map {
    static V2: OnceLock<Map> = OnceLock::new();
    static V1: OnceLock<Map> = OnceLock::new();
    static LITE: OnceLock<Map> = OnceLock::new();
    if options.lite {
        LITE.get_or_init(|| load("lite", MAP_LITE))
    } else if options.version_1 {
        V1.get_or_init(|| load("v1", MAP_V1))
    } else {
        V2.get_or_init(|| load("v2", MAP_V2))
    }
}

impl Map {
    /// Copies of `tile` in this ruleset's manifest.
    pub fn tile_count(&self, tile: &str) -> u32 {
        self.tile_lookup
            .get(tile)
            .and_then(|i| self.tile_manifest.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The index of `hex` in `hex_ids`.
    pub fn hex_index(&self, hex: &str) -> Option<usize> {
        self.hex_lookup.get(hex)
    }

    /// The tile numbered `tile` (`tiles[tile]` by a hash look-up).
    pub fn tile(&self, tile: &str) -> Option<&Tile> {
        self.tile_lookup
            .get(tile)
            .and_then(|i| self.tile_list.get(i))
    }

    /// The province border sides of set `set` by hex index (bit `e` for edge `e`), `None`
    /// for a set the map does not have.
    pub fn border_mask(&self, set: &str) -> Option<&[u8]> {
        self.border_masks
            .iter()
            .find(|(s, _)| s == set)
            .map(|(_, m)| m.as_slice())
    }

    /// Whether edge `edge` of `hex` lies on a border of set `set`.
    pub fn on_border(&self, set: &str, hex: &str, edge: u8) -> bool {
        edge < 8
            && self
                .border_edges
                .get(set)
                .and_then(|s| s.get(hex))
                .is_some_and(|mask| mask & (1 << edge) != 0)
    }
}

/// Rotates an end by `rotation` (edges only).
pub fn rotate(end: End, rotation: u8) -> End {
    match end {
        End::Edge(e) => End::Edge((e + rotation) % 6),
        n => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v2() -> &'static Map {
        map(&Options::default())
    }

    /// 1841 §9.1: terrain costs — mountain L.50 (N4), swamp Venezia L.50 (F16), pass L.100
    /// (D14), big pass L.200 (A5), green pass tile → brown L.50.
    #[test]
    fn s9_1_terrain_and_pass_costs() {
        let m = v2();
        assert_eq!(m.hexes["N4"].terrain_cost, 50);
        assert_eq!(m.hexes["F16"].terrain_cost, 50);
        assert_eq!(m.hexes["M7"].terrain_cost, 50);
        assert_eq!(m.hexes["D14"].terrain_cost, 100);
        assert_eq!(m.hexes["A5"].terrain_cost, 200);
        assert_eq!(m.hexes["G5"].terrain_cost, 0);
        assert_eq!(m.tiles["613"].upgrade_cost, 50);
        assert_eq!(m.tiles["202"].upgrade_cost, 0);
    }

    /// 1841 §9.1: labels and first tiles (Y 201/202/621, Milano 604, Venezia 601, Genova 612
    /// in V2 and 608 in V1), upgrades 202 → 207/208/622.
    #[test]
    fn s9_1_first_tiles_and_upgrades() {
        let m = v2();
        assert_eq!(m.hexes["E9"].first_tiles, ["201", "202", "621"]);
        assert_eq!(m.hexes["E9"].label.as_deref(), Some("Y"));
        assert_eq!(m.hexes["F8"].first_tiles, ["604"]);
        assert_eq!(m.hexes["F16"].first_tiles, ["601"]);
        assert_eq!(m.hexes["M7"].first_tiles, ["612"]);
        let v1 = map(&Options {
            version_1: true,
            ..Options::default()
        });
        assert_eq!(v1.hexes["M7"].first_tiles, ["608"]);
        assert_eq!(m.tiles["202"].upgrades_to, ["207", "208", "622"]);
        assert_eq!(m.tile_count("202"), 2);
        assert!(m.tiles["55"].upgrades_to.is_empty());
    }

    /// 1841 §9.3: off-board revenue by column (Gotthard A7 20/30/150), yellow Milano's
    /// terminal stubs to edges 3 and 4.
    #[test]
    fn s9_3_offboards_and_milano() {
        let m = v2();
        let a7 = &m.hexes["A7"].nodes[0];
        assert_eq!(a7.kind, NodeKind::Offboard);
        assert_eq!(
            a7.revenue,
            Revenue::ByPhase(
                [("white", 20), ("gray", 30), ("black", 150)]
                    .iter()
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect()
            )
        );
        let f8 = &m.hexes["F8"];
        assert_eq!(f8.paths.len(), 2);
        assert!(f8.paths.iter().all(|p| p.terminal));
        assert_eq!(f8.neighbors[&4], "E9");
    }

    /// 1841 §10: border set 2 active from setup includes C7 edge 0 (Lugano), set 5 keeps
    /// only the two Lugano edges.
    #[test]
    fn neighbours_are_hexes_of_the_map_by_index() {
        // The track search works on indices: every neighbour must be a hex of the map.
        for options in crate::g1841::options::each_ruleset() {
            let m = map(&options);
            for (i, (id, h)) in m.hexes.iter().enumerate() {
                assert_eq!(m.hex_ids[i], *id);
                assert_eq!(m.hex_index(id), Some(i));
                assert_eq!(&m.hex_list[i], h);
                for (set, sides) in &m.borders {
                    for e in 0..6u8 {
                        assert_eq!(
                            m.border_mask(set).unwrap()[i] & (1 << e) != 0,
                            sides.contains(&(id.clone(), e)),
                            "{id} edge {e} set {set}"
                        );
                    }
                }
                for (e, n) in &h.neighbors {
                    assert!(*e < 6, "{id} edge {e}");
                    let j = m.neighbor_index[i][usize::from(*e)];
                    assert_eq!(j.map(|j| m.hex_ids[j].as_str()), Some(n.as_str()));
                    // Symmetric: edge `e` here is edge `e + 3` there (the off-board check of
                    // `game_end::record_offboards` reads neighbours that way).
                    assert_eq!(
                        j.and_then(|j| m.neighbor_index[j][usize::from((e + 3) % 6)]),
                        Some(i),
                        "{id} edge {e}"
                    );
                }
            }
            assert_eq!(m.hex_index("Z99"), None);
            for (id, t) in &m.tiles {
                assert_eq!(m.tile(id), Some(t));
            }
            assert_eq!(m.tile("9999"), None);
            // The tile-lay search keeps the phase's colours as a 64-bit mask over these.
            assert!(
                (1..=64).contains(&m.tile_colors.len()),
                "{:?}",
                m.tile_colors
            );
            for (t, tile) in m.tile_list.iter().enumerate() {
                assert_eq!(m.tile_colors[m.tile_color_index[t]], tile.color);
                let ids = |v: &[usize]| {
                    v.iter()
                        .map(|&k| m.tile_list[k].id.clone())
                        .collect::<Vec<_>>()
                };
                assert_eq!(ids(&m.upgrade_index[t]), tile.upgrades_to, "{}", tile.id);
            }
            for (i, h) in m.hex_list.iter().enumerate() {
                let edges: u8 = h.neighbors.keys().map(|e| 1u8 << e).sum();
                assert_eq!(m.neighbor_mask[i], edges, "{}", h.id);
                let ids: Vec<&str> = m.first_tile_index[i]
                    .iter()
                    .map(|&k| m.tile_list[k].id.as_str())
                    .collect();
                assert_eq!(ids, h.first_tiles, "{}", h.id);
            }
        }
    }

    #[test]
    fn s10_border_sets() {
        let m = v2();
        assert!(m.on_border("2", "C7", 0));
        assert!(m.on_border("2", "E7", 3));
        assert_eq!(m.borders["5"].len(), 4);
        assert!(
            m.borders["5"]
                .iter()
                .all(|(h, _)| h == "C7" || h == "E7" || h == "D8")
        );
    }
}
