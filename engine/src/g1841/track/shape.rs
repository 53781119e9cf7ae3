//! The connections of a hex's track as bit masks ([`Shape`]), made once per map
//! ([`shapes`]), and the upgrade rule they answer: new track keeps every old connection
//! (1841 §9.1, [`preserves`]).

use super::*;

/// The [`Shape`]s of a map's track, made once per map: by tile index and rotation, and of
/// every printed hex by hex index.
pub struct Shapes {
    /// By tile index, by rotation 0–5.
    pub tiles: Vec<[Shape; 6]>,
    /// By hex index: the printed track.
    pub hexes: Vec<Shape>,
}

/// The shapes of `m`'s tiles and printed hexes.
pub fn shapes(m: &'static map::Map) -> &'static Shapes {
    static SHAPES: [std::sync::OnceLock<Shapes>; 3] = [const { std::sync::OnceLock::new() }; 3];
    let slot = match m.ruleset {
        "lite" => 2,
        "v1" => 1,
        _ => 0,
    };
    SHAPES[slot].get_or_init(|| Shapes {
        tiles: m
            .tile_list
            .iter()
            .map(|t| [0usize, 1, 2, 3, 4, 5].map(|r| Shape::of(&t.nodes, &t.rotations[r])))
            .collect(),
        hexes: m
            .hex_list
            .iter()
            .map(|h| Shape::of(&h.nodes, &h.paths))
            .collect(),
    })
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
