//! Track and token reachability (1841 §9.1, §9.2): the tiles on the map, the track graph
//! traced from a corporation's tokens, and the legality of tile lays.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::map::{self, End, Map, Node, NodeKind, Path};
use super::state::{PlacedTile, State};

/// What a hex shows now: the laid tile (rotated) or the printed hex.
#[derive(Clone, Debug)]
pub struct HexView {
    /// Nodes.
    pub nodes: Vec<Node>,
    /// Track with rotated edges.
    pub paths: Vec<Path>,
    /// Tile number laid, `None` for the printed hex.
    pub tile: Option<String>,
}

/// The current content of `hex` (`None` for a hex not on the map).
pub fn hex_view(state: &State, hex: &str) -> Option<HexView> {
    let m = map::map(&state.options);
    let printed = m.hexes.get(hex)?;
    match state.operations.tiles.get(hex) {
        Some(PlacedTile { tile, rotation }) => {
            let t = m.tiles.get(tile)?;
            Some(HexView {
                nodes: t.nodes.clone(),
                paths: rotated(&t.paths, *rotation),
                tile: Some(tile.clone()),
            })
        }
        None => Some(HexView {
            nodes: printed.nodes.clone(),
            paths: printed.paths.clone(),
            tile: None,
        }),
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
        .and_then(|v| city_node(&v.nodes, city).map(|n| v.nodes[n].slots))
        .is_some_and(|slots| (tokens_at(state, hex, city).len() as u32) < slots)
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

/// The track graph reached from some start nodes.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    /// Nodes reached, as (hex, node index).
    pub nodes: BTreeSet<(String, usize)>,
    /// Hex edges reached, by hex (18xx `connected_hexes`).
    pub edges: BTreeMap<String, BTreeSet<u8>>,
}

/// Traces `corp`'s track graph from `starts` (hex, node) (1841 §9.1, §9.2; FAQ: tracing from
/// own tokens, cities filled by other corporations block, off-boards end a trace, yellow
/// Milano's terminal stubs cannot be passed through). Every traversable edge of a start hex
/// counts as reached (a tile may be laid on a token's hex). With `border_set`, edges on that
/// province border set are not crossed.
pub fn reach(
    state: &State,
    corp: &str,
    starts: &[(String, usize)],
    border_set: Option<&str>,
) -> Reach {
    let m = map::map(&state.options);
    let mut out = Reach::default();
    let mut views: BTreeMap<String, Option<HexView>> = BTreeMap::new();
    let mut view = |h: &str| -> Option<HexView> {
        views
            .entry(h.to_string())
            .or_insert_with(|| hex_view(state, h))
            .clone()
    };
    #[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
    enum Pos {
        Node(String, usize, bool),
        Edge(String, u8),
    }
    let mut queue = VecDeque::new();
    let mut seen = BTreeSet::new();
    for (h, n) in starts {
        out.nodes.insert((h.clone(), *n));
        if let Some(hex) = m.hexes.get(h) {
            let edges = out.edges.entry(h.clone()).or_default();
            for e in hex.neighbors.keys() {
                if border_set.is_none_or(|s| !m.on_border(s, h, *e)) {
                    edges.insert(*e);
                }
            }
        }
        queue.push_back((Pos::Node(h.clone(), *n, false), true));
    }
    while let Some((pos, first)) = queue.pop_front() {
        if !seen.insert(pos.clone()) {
            continue;
        }
        match pos {
            Pos::Node(h, n, via_terminal) => {
                out.nodes.insert((h.clone(), n));
                let Some(v) = view(&h) else { continue };
                if !first && (via_terminal || blocked(state, corp, &h, &v, n)) {
                    continue;
                }
                for p in &v.paths {
                    let other = if p.a == End::Node(n) {
                        p.b
                    } else if p.b == End::Node(n) {
                        p.a
                    } else {
                        continue;
                    };
                    match other {
                        End::Node(o) => {
                            queue.push_back((Pos::Node(h.clone(), o, p.terminal), false))
                        }
                        End::Edge(e) => {
                            if let Some(next) = exit(m, &mut out, &h, e, border_set) {
                                queue.push_back((next, false));
                            }
                        }
                    }
                }
            }
            Pos::Edge(h, e) => {
                let Some(v) = view(&h) else { continue };
                for p in &v.paths {
                    let other = if p.a == End::Edge(e) {
                        p.b
                    } else if p.b == End::Edge(e) {
                        p.a
                    } else {
                        continue;
                    };
                    match other {
                        End::Node(o) => {
                            queue.push_back((Pos::Node(h.clone(), o, p.terminal), false))
                        }
                        End::Edge(f) => {
                            if let Some(next) = exit(m, &mut out, &h, f, border_set) {
                                queue.push_back((next, false));
                            }
                        }
                    }
                }
            }
        }
    }
    return out;

    fn exit(m: &Map, out: &mut Reach, h: &str, e: u8, border_set: Option<&str>) -> Option<Pos> {
        out.edges.entry(h.to_string()).or_default().insert(e);
        if border_set.is_some_and(|s| m.on_border(s, h, e)) {
            return None;
        }
        let nb = m.hexes.get(h)?.neighbors.get(&e)?;
        let back = (e + 3) % 6;
        out.edges.entry(nb.clone()).or_default().insert(back);
        Some(Pos::Edge(nb.clone(), back))
    }
}

/// A city/pass whose slots are all taken by other corporations, or an off-board, cannot be
/// traced through (1841 §9.1, §9.2).
fn blocked(state: &State, corp: &str, hex: &str, v: &HexView, node: usize) -> bool {
    let Some(n) = v.nodes.get(node) else {
        return true;
    };
    match n.kind {
        NodeKind::Offboard => true,
        NodeKind::City | NodeKind::Pass => {
            let Some(city) = node_city(&v.nodes, node) else {
                return true;
            };
            let here = tokens_at(state, hex, city);
            !here.iter().any(|s| s == corp) && here.len() as u32 >= n.slots
        }
        _ => false,
    }
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
            let n = city_node(&v.nodes, t.city)?;
            (v.nodes[n].kind == NodeKind::City).then(|| (t.hex.clone(), n, t.city))
        })
        .collect()
}

/// Exits of a path list.
pub fn exits(paths: &[Path]) -> BTreeSet<u8> {
    paths
        .iter()
        .flat_map(|p| [p.a, p.b])
        .filter_map(|e| match e {
            End::Edge(e) => Some(e),
            End::Node(_) => None,
        })
        .collect()
}

/// Whether the new track keeps every old connection (1841 §9.1: upgrades preserve track):
/// every old edge-to-edge path exists again, and the edges meeting at each old node meet at
/// one node of the same kind on the new tile.
pub fn preserves(old_nodes: &[Node], old: &[Path], new_nodes: &[Node], new: &[Path]) -> bool {
    let groups = |nodes: &[Node], paths: &[Path]| -> Vec<(NodeKind, BTreeSet<u8>)> {
        (0..nodes.len())
            .map(|i| {
                let edges = paths
                    .iter()
                    .filter_map(|p| match (p.a, p.b) {
                        (End::Node(n), End::Edge(e)) | (End::Edge(e), End::Node(n)) if n == i => {
                            Some(e)
                        }
                        _ => None,
                    })
                    .collect();
                (nodes[i].kind, edges)
            })
            .collect()
    };
    let new_groups = groups(new_nodes, new);
    let old_ok = groups(old_nodes, old).iter().all(|(k, edges)| {
        edges.is_empty()
            || new_groups
                .iter()
                .any(|(nk, ne)| nk == k && edges.is_subset(ne))
    });
    let pairs = |paths: &[Path]| -> BTreeSet<(u8, u8)> {
        paths
            .iter()
            .filter_map(|p| match (p.a, p.b) {
                (End::Edge(a), End::Edge(b)) => Some((a.min(b), a.max(b))),
                _ => None,
            })
            .collect()
    };
    old_ok && pairs(old).is_subset(&pairs(new))
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
