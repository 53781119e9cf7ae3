//! The track graph traced from start nodes ([`reach`], [`Reach`]; 1841 §9.1, §9.2): a
//! search over positions on each hex, stopping early where enough is found, and the cities
//! that block it (slots all taken by other corporations, off-boards).

use super::board::Board;
use super::*;

/// The track graph reached from some start nodes ([`reach`]): the nodes and the hex edges
/// reached, by hex index.
#[derive(Clone, Debug)]
pub struct Reach {
    map: &'static map::Map,
    /// Nodes reached as (hex index, node index), sorted (hex index order is coordinate
    /// order), each once.
    nodes: Vec<(usize, usize)>,
    /// Start nodes on hexes that are not on the map (reached, nothing beyond them).
    outside: Vec<(String, usize)>,
    /// By hex index: the edges reached (bit `e` for edge `e`); `None` for a hex not reached
    /// at all (18xx `connected_hexes`).
    edges: Vec<Option<u8>>,
}

impl Reach {
    /// The nodes reached as (hex, node index), in (hex, node) order.
    pub fn nodes(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        let mut on_map = self
            .nodes
            .iter()
            .map(|&(i, n)| (self.map.hex_ids[i].as_str(), n))
            .peekable();
        let mut outside = self
            .outside
            .iter()
            .map(|(h, n)| (h.as_str(), *n))
            .peekable();
        std::iter::from_fn(move || match (on_map.peek(), outside.peek()) {
            (Some(a), Some(b)) if b < a => outside.next(),
            (Some(_), _) => on_map.next(),
            (None, _) => outside.next(),
        })
    }

    /// The nodes reached on the map as (hex index, node index), sorted.
    pub fn node_indices(&self) -> &[(usize, usize)] {
        &self.nodes
    }

    /// Whether node `node` of `hex` is reached.
    pub fn contains(&self, hex: &str, node: usize) -> bool {
        match self.map.hex_index(hex) {
            Some(i) => self.nodes.binary_search(&(i, node)).is_ok(),
            None => self.outside.iter().any(|(h, n)| h == hex && *n == node),
        }
    }

    /// The hexes reached with the edges reached on each (bit `e` for edge `e`), as (hex
    /// index, mask), in hex order.
    pub fn edges(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.edges
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.map(|m| (i, m)))
    }
}

/// Traces `corp`'s track graph from `starts` (hex, node) (1841 §9.1, §9.2; FAQ: tracing from
/// own tokens, cities filled by other corporations block, off-boards end a trace, yellow
/// Milano's terminal stubs cannot be passed through). Every edge of a start hex toward a
/// neighbour counts as reached, a province border's too (a tile may be laid on a token's hex
/// with any exit toward a neighbour; 18xx `Graph#compute` marks every `hex.neighbors` edge of
/// a token's hex). With `border_set`, edges on that province border set are not crossed. Several searches on one state share a [`Board`]
/// ([`Board::reach`]).
pub fn reach(
    state: &State,
    corp: &str,
    starts: &[(impl AsRef<str>, usize)],
    border_set: Option<&str>,
) -> Reach {
    reach_on(&Board::shared(state), state, corp, starts, border_set)
}

/// Positions of the search on one hex, as bits of a `u64`: edge `e` is bit `e`, node `n`
/// entered normally bit `8 + n`, node `n` entered through a terminal stub bit `32 + n`.
const NODE_BITS: usize = 24;

pub(super) fn reach_on(
    board: &Board,
    state: &State,
    corp: &str,
    starts: &[(impl AsRef<str>, usize)],
    border_set: Option<&str>,
) -> Reach {
    reach_until(board, state, corp, starts, border_set, true, |_, _| false).0
}

/// [`reach_on`] that stops as soon as `enough(hex index, node)`, called for every node
/// reached on the map (a node may be reported more than once), returns true: the nodes and
/// edges reached until then, and whether it stopped so. When it does not stop, the reach is
/// that of [`reach_on`].
pub(super) fn reach_until(
    board: &Board,
    state: &State,
    corp: &str,
    starts: &[(impl AsRef<str>, usize)],
    border_set: Option<&str>,
    turn_back: bool,
    mut enough: impl FnMut(usize, usize) -> bool,
) -> (Reach, bool) {
    /// A node (hex index, node index, entered through a terminal stub, the index of the
    /// path it was entered by) or the near side of a hex's edge (hex index, edge).
    #[derive(Clone, Copy)]
    enum Pos {
        Node(usize, usize, bool, Option<usize>),
        Edge(usize, u8),
    }
    /// The bit of a position in its hex's word of `seen`; `None` for a node or edge no
    /// tile has (nothing to trace there).
    fn bit(pos: Pos) -> Option<(usize, u64)> {
        match pos {
            Pos::Node(i, n, via_terminal, _) if n < NODE_BITS => {
                Some((i, 1 << if via_terminal { 32 + n } else { 8 + n }))
            }
            Pos::Edge(i, e) if e < 8 => Some((i, 1 << e)),
            _ => None,
        }
    }
    let m = board.map;
    let hexes = m.hex_ids.len();
    let corp_index = state.corporation_index(corp);
    let borders = border_set.and_then(|s| m.border_mask(s));
    let on_border = |i: usize, e: u8| {
        e < 8 && borders.is_some_and(|b| b.get(i).is_some_and(|mask| mask & (1 << e) != 0))
    };
    // Reached edges by hex index (`None`: the hex has no entry).
    let mut edges: Vec<Option<u8>> = vec![None; hexes];
    let mut nodes: Vec<(usize, usize)> = Vec::with_capacity(64);
    let mut outside = Vec::new();
    // Positions queued so far (a position is queued once: the search is breadth-first from
    // the starts, which are queued first).
    let mut seen: Vec<u64> = vec![0; hexes];
    let mut queue: Vec<(Pos, bool)> = Vec::with_capacity(64);
    // The path each node was first entered by (`None` once it has been traced a second time,
    // entered by another path: between them the two traces leave by every path).
    let mut first_entry: std::collections::HashMap<(usize, usize, bool), Option<usize>> =
        std::collections::HashMap::new();
    let push = |seen: &mut Vec<u64>, queue: &mut Vec<(Pos, bool)>, pos: Pos, first: bool| {
        if let Some((i, b)) = bit(pos)
            && seen[i] & b == 0
        {
            seen[i] |= b;
            queue.push((pos, first));
        }
    };
    for (h, n) in starts {
        let h = h.as_ref();
        let Some(i) = m.hex_index(h) else {
            // Not a hex of the map: reached, and nothing beyond it.
            outside.push((h.to_string(), *n));
            continue;
        };
        nodes.push((i, *n));
        let mask = edges[i].get_or_insert(0);
        *mask |= m.neighbor_mask[i] & 0x3f;
        push(&mut seen, &mut queue, Pos::Node(i, *n, false, None), true);
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
    let mut stopped = nodes.iter().any(|&(i, n)| enough(i, n));
    let mut head = 0;
    while let Some(&(pos, first)) = queue.get(head) {
        if stopped {
            break;
        }
        head += 1;
        let i = match pos {
            Pos::Node(i, n, _, _) => {
                nodes.push((i, n));
                stopped = enough(i, n);
                i
            }
            Pos::Edge(i, _) => i,
        };
        let Some(v) = board.view(i) else { continue };
        // Without `turn_back` a trace leaves a node by its other paths, never back along the
        // path it came by (see [`Board::route_reaches_at_least`]).
        let (here, entered) = match pos {
            Pos::Node(_, n, via_terminal, entered) => {
                if !first && (via_terminal || blocked(board, corp_index, i, &v, n)) {
                    continue;
                }
                (End::Node(n), entered)
            }
            Pos::Edge(_, e) => (End::Edge(e), None),
        };
        for (k, p) in v.paths.iter().enumerate() {
            if !turn_back && entered == Some(k) {
                continue;
            }
            let other = if p.a == here {
                p.b
            } else if p.b == here {
                p.a
            } else {
                continue;
            };
            match other {
                End::Node(o) => {
                    let next = Pos::Node(i, o, p.terminal, Some(k));
                    match bit(next) {
                        Some((hi, b)) if seen[hi] & b == 0 => {
                            seen[hi] |= b;
                            first_entry.insert((i, o, p.terminal), Some(k));
                            queue.push((next, false));
                        }
                        // Reached before by another path: traced once more, now leaving by the
                        // path it was first entered by (and not by this one).
                        Some(_) if !turn_back => {
                            if let Some(entry) = first_entry.get_mut(&(i, o, p.terminal))
                                && entry.is_some_and(|e| e != k)
                            {
                                *entry = None;
                                queue.push((next, false));
                            }
                        }
                        _ => {}
                    }
                }
                End::Edge(f) => {
                    if let Some(next) = exit(&mut edges, i, f) {
                        push(&mut seen, &mut queue, next, false);
                    }
                }
            }
        }
    }
    nodes.sort_unstable();
    nodes.dedup();
    outside.sort();
    outside.dedup();
    (
        Reach {
            map: m,
            nodes,
            outside,
            edges,
        },
        stopped,
    )
}

/// A city/pass whose slots are all taken by other corporations, or an off-board, cannot be
/// traced through (1841 §9.1, §9.2). `corp`: the tracing corporation's index.
pub(in crate::g1841) fn blocked(
    board: &Board,
    corp: Option<usize>,
    i: usize,
    v: &HexView,
    node: usize,
) -> bool {
    let Some(n) = v.nodes.get(node) else {
        return true;
    };
    match n.kind {
        NodeKind::Offboard => true,
        NodeKind::City | NodeKind::Pass => {
            let Some(city) = node_city(v.nodes, node) else {
                return true;
            };
            let mut count = 0u32;
            for c in board.tokens_in(i, city) {
                if Some(c) == corp {
                    return false;
                }
                count += 1;
            }
            count >= n.slots
        }
        _ => false,
    }
}
