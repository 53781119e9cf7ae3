//! Track and token reachability (1841 §9.1, §9.2): the tiles on the map, the track graph
//! traced from a corporation's tokens, and the legality of tile lays.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::map::{self, End, Node, NodeKind, Path};
use super::state::{PlacedTile, State};

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
    let printed = m.hexes.get(hex)?;
    match state.operations.tiles.get(hex) {
        Some(PlacedTile { tile, rotation }) => {
            let t = m.tiles.get(tile)?;
            Some(HexView {
                nodes: &t.nodes,
                paths: &t.rotations[usize::from(*rotation % 6)],
                tile: Some(&t.id),
            })
        }
        None => Some(HexView {
            nodes: &printed.nodes,
            paths: &printed.paths,
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
    // The search works on hex indices (`Map::hex_ids`): each hex's view is looked up once,
    // positions and reached edges are plain numbers, and the reached sets are named at the
    // end.
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    enum Pos {
        Node(usize, usize, bool),
        Edge(usize, u8),
    }
    let hexes = m.hex_ids.len();
    let mut views: Vec<Option<Option<HexView>>> = vec![None; hexes];
    let mut view = |i: usize| -> Option<HexView> {
        *views[i].get_or_insert_with(|| hex_view(state, &m.hex_ids[i]))
    };
    // Reached edges by hex index (`None`: the hex has no entry).
    let mut edges: Vec<Option<u8>> = vec![None; hexes];
    let mut nodes: BTreeSet<(usize, usize)> = BTreeSet::new();
    let on_border = |i: usize, e: u8| border_set.is_some_and(|s| m.on_border(s, &m.hex_ids[i], e));
    let mut queue = VecDeque::new();
    let mut seen = BTreeSet::new();
    for (h, n) in starts {
        let Some(i) = m.hex_index(h) else {
            // Not a hex of the map: reached, and nothing beyond it.
            out.nodes.insert((h.clone(), *n));
            continue;
        };
        nodes.insert((i, *n));
        let mask = edges[i].get_or_insert(0);
        for e in m.hexes[h].neighbors.keys() {
            if !on_border(i, *e) {
                *mask |= 1 << e;
            }
        }
        queue.push_back((Pos::Node(i, *n, false), true));
    }
    // Crossing edge `e` of hex `i`: both sides are reached; the neighbour is entered unless a
    // border of the set lies there.
    let exit = |edges: &mut Vec<Option<u8>>, i: usize, e: u8| -> Option<Pos> {
        *edges[i].get_or_insert(0) |= 1 << e;
        if on_border(i, e) {
            return None;
        }
        let nb = m.neighbor_index[i].get(usize::from(e)).copied().flatten()?;
        let back = (e + 3) % 6;
        *edges[nb].get_or_insert(0) |= 1 << back;
        Some(Pos::Edge(nb, back))
    };
    while let Some((pos, first)) = queue.pop_front() {
        if !seen.insert(pos) {
            continue;
        }
        match pos {
            Pos::Node(i, n, via_terminal) => {
                nodes.insert((i, n));
                let Some(v) = view(i) else { continue };
                if !first && (via_terminal || blocked(state, corp, &m.hex_ids[i], &v, n)) {
                    continue;
                }
                for p in v.paths {
                    let other = if p.a == End::Node(n) {
                        p.b
                    } else if p.b == End::Node(n) {
                        p.a
                    } else {
                        continue;
                    };
                    match other {
                        End::Node(o) => queue.push_back((Pos::Node(i, o, p.terminal), false)),
                        End::Edge(e) => {
                            if let Some(next) = exit(&mut edges, i, e) {
                                queue.push_back((next, false));
                            }
                        }
                    }
                }
            }
            Pos::Edge(i, e) => {
                let Some(v) = view(i) else { continue };
                for p in v.paths {
                    let other = if p.a == End::Edge(e) {
                        p.b
                    } else if p.b == End::Edge(e) {
                        p.a
                    } else {
                        continue;
                    };
                    match other {
                        End::Node(o) => queue.push_back((Pos::Node(i, o, p.terminal), false)),
                        End::Edge(f) => {
                            if let Some(next) = exit(&mut edges, i, f) {
                                queue.push_back((next, false));
                            }
                        }
                    }
                }
            }
        }
    }
    out.nodes
        .extend(nodes.into_iter().map(|(i, n)| (m.hex_ids[i].clone(), n)));
    out.edges = edges
        .into_iter()
        .enumerate()
        .filter_map(|(i, mask)| {
            let mask = mask?;
            Some((
                m.hex_ids[i].clone(),
                (0..8u8).filter(|e| mask & (1 << e) != 0).collect(),
            ))
        })
        .collect();
    out
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
            let Some(city) = node_city(v.nodes, node) else {
                return true;
            };
            let mut here = state
                .corporations
                .iter()
                .filter(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city));
            let mut count = 0u32;
            if here.any(|c| {
                count += 1;
                c.sym == corp
            }) {
                return false;
            }
            count + here.count() as u32 >= n.slots
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
            let n = city_node(v.nodes, t.city)?;
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
    Shape::of(old_nodes, old).preserved_by(&Shape::of(new_nodes, new))
}

/// The connections of a hex's track as bit masks (edges 0–5; the sets of [`preserves`]
/// without allocating sets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Per node: its kind and the edges with a path to it (bit `e` for edge `e`).
    pub groups: Vec<(NodeKind, u32)>,
    /// Edge-to-edge paths: bit `8·min + max`.
    pub pairs: u64,
    /// Every edge with track ([`exits`]).
    pub exits: u32,
}

impl Shape {
    /// The shape of `paths` over `nodes`.
    pub fn of(nodes: &[Node], paths: &[Path]) -> Shape {
        let mut groups: Vec<(NodeKind, u32)> = nodes.iter().map(|n| (n.kind, 0)).collect();
        let mut pairs = 0u64;
        let mut exits = 0u32;
        for p in paths {
            for end in [p.a, p.b] {
                if let End::Edge(e) = end {
                    exits |= 1 << e;
                }
            }
            match (p.a, p.b) {
                (End::Node(n), End::Edge(e)) | (End::Edge(e), End::Node(n)) => {
                    if let Some(g) = groups.get_mut(n) {
                        g.1 |= 1 << e;
                    }
                }
                (End::Edge(a), End::Edge(b)) => pairs |= 1 << (8 * a.min(b) + a.max(b)),
                _ => {}
            }
        }
        Shape {
            groups,
            pairs,
            exits,
        }
    }

    /// [`preserves`]: whether `new` keeps every connection of `self`.
    pub fn preserved_by(&self, new: &Shape) -> bool {
        let old_ok = self.groups.iter().all(|(k, edges)| {
            *edges == 0
                || new
                    .groups
                    .iter()
                    .any(|(nk, ne)| nk == k && edges & !ne == 0)
        });
        old_ok && self.pairs & !new.pairs == 0
    }
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
