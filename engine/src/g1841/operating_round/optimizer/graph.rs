//! Pass 1 of the optimizer, the graph (1841 §9.3): the revenue nodes of the corporation's
//! region, grown from its token nodes through nodes a route may pass (not off-boards, not
//! cities or passes full of other corporations' tokens, [`crate::g1841::track::blocked`]),
//! and the connections between them, walked segment by segment through edge-to-edge paths.

use super::*;

/// A revenue node of the corporation's region.
pub(super) struct GNode {
    pub(super) hex: String,
    pub(super) node: usize,
    pub(super) revenue: i64,
    /// City, off-board or pass (counted for 2- to 7-trains).
    pub(super) counted: bool,
    pub(super) pass: bool,
    /// Counts toward the two-stop minimum.
    pub(super) qualifies: bool,
    /// Off-board groups as a bit mask.
    pub(super) groups: u64,
    /// Holds one of the corporation's tokens.
    pub(super) token: bool,
    /// A route may pass through it.
    pub(super) mid_ok: bool,
    /// A stop in unbuilt (yellow) Milano.
    pub(super) yellow_milano: bool,
}

/// A walk between two nodes through no other node.
pub(super) struct Conn {
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) segs: Vec<u32>,
    /// Hexes from `a`'s hex to `b`'s hex.
    pub(super) chain: Vec<String>,
    /// First segment is a terminal stub (at `a`).
    pub(super) term_a: bool,
    /// Last segment is a terminal stub (at `b`).
    pub(super) term_b: bool,
}

pub(super) struct Graph {
    pub(super) nodes: Vec<GNode>,
    pub(super) conns: Vec<Conn>,
    /// Per node: (connection, walked forwards from this node).
    pub(super) adj: Vec<Vec<(u32, bool)>>,
    /// Words of a segment bit set (segments + one bit for yellow Milano).
    pub(super) words: usize,
    /// Bit index of "a route stops at yellow Milano".
    pub(super) milano_bit: usize,
}

/// A walk found from a node: (target key, segments, chain, terminal at start, at end).
type Walk = ((String, usize), Vec<u32>, Vec<String>, bool, bool);

impl Graph {
    pub(super) fn build(state: &State, sym: &str, tokens: &[MapToken], b: &mut Budget) -> Graph {
        let m = map::map(&state.options);
        let mut view = |h: &str| -> Option<track::HexView> { track::hex_view(state, h) };
        let mut groups: BTreeMap<String, u64> = BTreeMap::new();
        let mut ids: BTreeMap<(String, usize), usize> = BTreeMap::new();
        let mut nodes: Vec<GNode> = Vec::new();
        let mut segs: BTreeMap<(String, usize), u32> = BTreeMap::new();
        let mut add = |hex: &str, node: usize, nodes: &mut Vec<GNode>| -> Option<usize> {
            if let Some(i) = ids.get(&(hex.to_string(), node)) {
                return Some(*i);
            }
            let v = track::hex_view(state, hex)?;
            let n = v.nodes.get(node)?;
            let city = track::node_city(v.nodes, node);
            let here = city.map(|c| track::tokens_at(state, hex, c));
            let own = here.as_ref().is_some_and(|h| h.iter().any(|s| s == sym));
            let mid_ok = match n.kind {
                NodeKind::Offboard => false,
                NodeKind::City | NodeKind::Pass => {
                    own || here.as_ref().is_some_and(|h| (h.len() as u32) < n.slots)
                }
                _ => true,
            };
            let mut mask = 0u64;
            for g in &n.groups {
                let next = 1u64 << groups.len().min(63);
                mask |= *groups.entry(g.clone()).or_insert(next);
            }
            let i = nodes.len();
            nodes.push(GNode {
                hex: hex.to_string(),
                node,
                revenue: node_revenue(state, n),
                counted: counted(n.kind),
                pass: n.kind == NodeKind::Pass,
                qualifies: n.counts_toward_two_stop_minimum,
                groups: mask,
                token: route_token_node(state, n.kind)
                    && tokens
                        .iter()
                        .any(|t| t.hex == hex && Some(t.city) == track::node_city(v.nodes, node)),
                mid_ok,
                yellow_milano: hex == "F8" && !state.operations.tiles.contains_key("F8"),
            });
            ids.insert((hex.to_string(), node), i);
            Some(i)
        };
        // Token nodes first, in token order.
        let mut queue = VecDeque::new();
        for t in tokens {
            if let Some(v) = view(&t.hex)
                && let Some(n) = track::city_node(v.nodes, t.city)
                && let Some(i) = add(&t.hex, n, &mut nodes)
                && !queue.contains(&i)
            {
                queue.push_back(i);
            }
        }
        let mut walks: BTreeMap<usize, Vec<Walk>> = BTreeMap::new();
        while let Some(u) = queue.pop_front() {
            if walks.contains_key(&u) {
                continue;
            }
            let (hex, node) = (nodes[u].hex.clone(), nodes[u].node);
            let found = walks_from(m, &mut view, &mut segs, &hex, node, b);
            for (key, ..) in &found {
                if let Some(v) = add(&key.0, key.1, &mut nodes)
                    && (nodes[v].mid_ok || nodes[v].token)
                    && !walks.contains_key(&v)
                {
                    queue.push_back(v);
                }
            }
            walks.insert(u, found);
        }
        // Keep each walk once: from the lower-numbered end when both ends are expanded.
        let mut conns = Vec::new();
        let mut adj = vec![Vec::new(); nodes.len()];
        for (u, list) in walks.iter() {
            for (key, s, chain, ta, tb) in list {
                let Some(&v) = ids.get(key) else { continue };
                if v == *u || (walks.contains_key(&v) && v < *u) {
                    continue;
                }
                let c = conns.len() as u32;
                adj[*u].push((c, true));
                adj[v].push((c, false));
                conns.push(Conn {
                    a: *u,
                    b: v,
                    segs: s.clone(),
                    chain: chain.clone(),
                    term_a: *ta,
                    term_b: *tb,
                });
            }
        }
        let milano_bit = segs.len();
        Graph {
            nodes,
            conns,
            adj,
            words: milano_bit / 64 + 1,
            milano_bit,
        }
    }
}

/// Every walk from node `node` of `hex` to another node, through edge-to-edge paths only,
/// never reusing a segment (1841 §9.3: a route visits every node it passes).
fn walks_from(
    m: &map::Map,
    view: &mut impl FnMut(&str) -> Option<track::HexView>,
    segs: &mut BTreeMap<(String, usize), u32>,
    hex: &str,
    node: usize,
    b: &mut Budget,
) -> Vec<Walk> {
    let mut out = Vec::new();
    let Some(v) = view(hex) else { return out };
    for (pi, p) in v.paths.iter().enumerate() {
        let other = if p.a == End::Node(node) {
            p.b
        } else if p.b == End::Node(node) {
            p.a
        } else {
            continue;
        };
        if !b.tick() {
            return out;
        }
        let seg = seg_id(segs, hex, pi);
        match other {
            End::Node(_) if !b.store() => return out,
            End::Node(w) => out.push((
                (hex.to_string(), w),
                vec![seg],
                vec![hex.to_string()],
                p.terminal,
                p.terminal,
            )),
            End::Edge(e) => {
                let mut used = vec![seg];
                let mut chain = vec![hex.to_string()];
                cross(
                    m, view, segs, hex, e, p.terminal, &mut used, &mut chain, &mut out, b,
                );
            }
        }
    }
    out
}

fn seg_id(segs: &mut BTreeMap<(String, usize), u32>, hex: &str, path: usize) -> u32 {
    let next = segs.len() as u32;
    *segs.entry((hex.to_string(), path)).or_insert(next)
}

/// The segment id of the hexside between edge `e` of `hex` and edge `back` of `next`, in the
/// ids of [`seg_id`] (a key no path has: the side with the smaller hex name, after `~`).
fn side_id(
    segs: &mut BTreeMap<(String, usize), u32>,
    hex: &str,
    e: u8,
    next: &str,
    back: u8,
) -> u32 {
    let (h, edge) = if (hex, e) <= (next, back) {
        (hex, e)
    } else {
        (next, back)
    };
    seg_id(segs, &format!("~{h}"), usize::from(edge))
}

/// Continues a walk that leaves `hex` by edge `e`.
#[allow(clippy::too_many_arguments)]
fn cross(
    m: &map::Map,
    view: &mut impl FnMut(&str) -> Option<track::HexView>,
    segs: &mut BTreeMap<(String, usize), u32>,
    hex: &str,
    e: u8,
    term_a: bool,
    used: &mut Vec<u32>,
    chain: &mut Vec<String>,
    out: &mut Vec<Walk>,
    b: &mut Budget,
) {
    let Some(next) = m.hexes.get(hex).and_then(|h| h.neighbors.get(&e)) else {
        return;
    };
    let Some(v) = view(next) else { return };
    let back = (e + 3) % 6;
    // The hexside crossed is track too (1841 §9.3: no reuse of track segments; 18xx
    // `check_overlap` keys each path end on an edge): a walk, a route or two routes cross it
    // once, whichever branches of the tiles on either side they take.
    let side = side_id(segs, hex, e, next, back);
    if used.contains(&side) {
        return;
    }
    used.push(side);
    let entry = End::Edge(back);
    chain.push(next.clone());
    for (qi, q) in v.paths.iter().enumerate() {
        let other = if q.a == entry {
            q.b
        } else if q.b == entry {
            q.a
        } else {
            continue;
        };
        if !b.tick() {
            break;
        }
        let seg = seg_id(segs, next, qi);
        if used.contains(&seg) {
            continue;
        }
        used.push(seg);
        match other {
            End::Node(_) if !b.store() => {
                used.pop();
                break;
            }
            End::Node(w) => out.push((
                (next.clone(), w),
                used.clone(),
                chain.clone(),
                term_a,
                q.terminal,
            )),
            End::Edge(f) => cross(m, view, segs, next, f, term_a, used, chain, out, b),
        }
        used.pop();
    }
    chain.pop();
    used.pop();
}
