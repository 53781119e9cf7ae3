//! The route optimizer (1841 §9.3): the route set of a corporation's trains with the highest
//! total revenue, every route legal under [`check_routes`].
//!
//! Method, in three deterministic passes:
//!
//! 1. **Graph.** From the nodes holding one of the corporation's tokens (cities and passes)
//!    the track is walked segment by segment (one segment = one path of a hex's current tile
//!    or printed hex). A *connection* is a walk from one node to another that passes through
//!    no node (edge-to-edge paths in the hexes between), never reusing a segment; between two
//!    nodes there may be several. The region grows only through nodes a route may pass
//!    (not off-boards, not cities or passes full of other corporations' tokens).
//! 2. **Routes.** Simple paths of connections containing a token node, enumerated once each
//!    (pivot = the lowest token node on the route, extended forwards then backwards) within
//!    the largest capacity of the corporation's trains: counted stops = cities, off-boards and
//!    passes, passes free for 8-trains; towns and ports free. The rules of [`check_routes`]
//!    are applied while extending: no stop twice, one off-board per group, no passing through
//!    off-boards or full foreign cities, yellow Milano only at a route's end (terminal stubs),
//!    no segment twice, two stops counting toward the minimum. With a single train only
//!    the best route is kept.
//! 3. **Combination.** Branch and bound over the trains (largest first): each train takes one
//!    of its routes (by revenue, highest first) that shares no segment with the routes already
//!    taken, or none; at most one route may stop at yellow Milano. Upper bound = current
//!    revenue + the best single route of every remaining train. Identical trains take routes
//!    in increasing list order (symmetry).
//!
//! Work units (the `budget`, never wall clock): one unit per track-walk step, per route
//! extension tried and per combination node or candidate route examined. When the budget
//! runs out the search stops and the best set found so far is returned with
//! `proven_optimal == false`; the combination's first (greedy) descent is always completed,
//! so a cut search still returns the greedy route set of the routes found (work may then
//! exceed the budget by at most trains × routes found). Ties keep the first set found in this
//! fixed order, so the same state and budget always give the same answer.
//!
//! Memory: the walks of the graph and the candidate routes stored are each capped at
//! [`MAX_STORED_ROUTES`] (a few hundred bytes each, so a search holds at most some tens of
//! MB whatever its work budget); reaching the cap stops the search the same way as the work
//! budget (the best set of what is stored, `proven_optimal == false`,
//! [`SearchStop::StoredRoutes`]). The search is cancellable: every
//! [`crate::interrupt::CHECK_EVERY`] work units it asks [`crate::interrupt::cancelled`] and,
//! when its caller has gone away, stops the same way ([`SearchStop::Cancelled`]).
//!
//! The rules are exactly those [`check_routes`] applies, including its choices: a token in a
//! pass counts as the route's token (18xx, 1841 §17 item 5; not with the option
//! `pass_token_not_a_route_base`, FAQ-C11: [`route_token_node`]), the
//! 8-train is the train named `8`, and yellow Milano is F8 without a laid tile. A change
//! there must be mirrored here (`GNode`, `TrainSpec`); the random-position test compares
//! the two.

use std::collections::{BTreeMap, VecDeque};

use super::*;
use crate::g1841::action::Stop;
use crate::g1841::state::MapToken;

/// Default work budget. The recorded games need at most about 6,000 units per operating
/// turn (under a millisecond); an artificial map with every buildable hex brown needs about
/// 3.3 million for two 8-trains (about 0.3 s and 200 MB on one core in release builds), which
/// this budget still proves optimal. Memory grows with the routes stored, at most one per
/// work unit (about 250 bytes each); a corporation with one train stores only its best.
pub const DEFAULT_BUDGET: u64 = 5_000_000;

/// Most walks (connections between two nodes) and most candidate routes one search keeps
/// (each, not together). The recorded games store at most a few thousand routes per
/// operating turn; a crafted position with every hex brown and two 8-trains stores
/// millions, which made one search hold several hundred MB before this cap. At the cap
/// the search stops and answers the best set of the routes kept ([`SearchStop::StoredRoutes`]).
pub const MAX_STORED_ROUTES: usize = 100_000;

/// Why a search stopped before it had proved its answer optimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchStop {
    /// The work budget ran out.
    Work,
    /// [`MAX_STORED_ROUTES`] walks or candidate routes were stored.
    StoredRoutes,
    /// The caller went away ([`crate::interrupt::cancelled`]); the answer is of no use.
    Cancelled,
}

/// The optimizer's answer: routes and their revenues in L. (1841 §9.3).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BestRoutes {
    /// One route per running train (trains without a useful route are left out), largest
    /// train first.
    pub routes: Vec<Route>,
    /// Revenue of each route in L., as [`check_routes`] prices it.
    pub revenues: Vec<i64>,
    /// Total revenue in L.
    pub revenue: i64,
    /// Whether the search finished (no better route set exists).
    pub proven_optimal: bool,
    /// Work units spent.
    pub work: u64,
    /// Why the search stopped early (`None` when `proven_optimal`).
    pub stopped: Option<SearchStop>,
}

/// The best route set of corporation `sym` in the current state (1841 §9.3), searching at
/// most `budget` work units (see the module documentation). A corporation without trains,
/// tokens or routes gets an empty set with revenue 0.
pub fn best_routes(state: &State, sym: &str, budget: u64) -> BestRoutes {
    best_routes_within(state, sym, budget, MAX_STORED_ROUTES)
}

/// [`best_routes`] keeping at most `max_stored` walks and `max_stored` candidate routes
/// (instead of [`MAX_STORED_ROUTES`]).
pub fn best_routes_within(state: &State, sym: &str, budget: u64, max_stored: usize) -> BestRoutes {
    let mut b = Budget {
        used: 0,
        limit: budget,
        cut: false,
        stored: 0,
        max_stored,
        stop: None,
    };
    let trains = train_specs(state, sym);
    let Some(corp) = state.corporation(sym) else {
        return BestRoutes {
            proven_optimal: true,
            ..BestRoutes::default()
        };
    };
    if trains.is_empty() {
        return BestRoutes {
            proven_optimal: true,
            ..BestRoutes::default()
        };
    }
    let g = Graph::build(state, sym, &corp.tokens, &mut b);
    let cap = trains
        .iter()
        .filter(|t| !t.passes_free)
        .map(|t| t.cap)
        .max();
    let cap8 = trains.iter().filter(|t| t.passes_free).map(|t| t.cap).max();
    let store = enumerate(&g, cap, cap8, trains.len() == 1, &mut b);
    let (chosen, total) = combine(&g, &store, &trains, &mut b);
    let mut routes = Vec::new();
    let mut revenues = Vec::new();
    for (ti, ri) in chosen {
        routes.push(store.to_route(&g, ri, &trains[ti].id));
        revenues.push(store.revenue[ri]);
    }
    debug_assert_eq!(
        check_routes(state, sym, &routes).ok().as_ref(),
        Some(&revenues),
        "optimizer produced an illegal route set for {sym}"
    );
    BestRoutes {
        routes,
        revenues,
        revenue: total,
        proven_optimal: !b.cut,
        work: b.used,
        stopped: b.stop,
    }
}

/// Work-unit counter, with the cap on stored walks and the cancellation check.
struct Budget {
    used: u64,
    limit: u64,
    cut: bool,
    /// Walks stored so far (the graph).
    stored: usize,
    max_stored: usize,
    stop: Option<SearchStop>,
}

impl Budget {
    /// Marks the search cut for `why` (the first reason is kept).
    fn halt(&mut self, why: SearchStop) {
        self.cut = true;
        self.stop.get_or_insert(why);
    }

    /// Spends one unit; `false` (and the search is marked cut) when none is left, when the
    /// search was already cut (stored routes) or when its caller has gone away.
    fn tick(&mut self) -> bool {
        if self.cut {
            return false;
        }
        if self.used >= self.limit {
            self.halt(SearchStop::Work);
            return false;
        }
        self.used += 1;
        if self.used.is_multiple_of(crate::interrupt::CHECK_EVERY) && crate::interrupt::cancelled()
        {
            self.halt(SearchStop::Cancelled);
            return false;
        }
        true
    }

    /// Room for one more stored walk; `false` (and the search is cut) at the cap.
    fn store(&mut self) -> bool {
        if self.stored >= self.max_stored {
            self.halt(SearchStop::StoredRoutes);
            return false;
        }
        self.stored += 1;
        true
    }
}

/// One train of the corporation.
struct TrainSpec {
    id: String,
    /// Counted-stop limit (1841 §9.3).
    cap: u32,
    /// 8-trains count passes free.
    passes_free: bool,
}

/// The corporation's trains with known types, largest first (then by id).
fn train_specs(state: &State, sym: &str) -> Vec<TrainSpec> {
    let rules = data::ruleset(&state.options);
    let mut out: Vec<TrainSpec> = trains_of(state, sym)
        .into_iter()
        .filter_map(|id| {
            let t = rules.train(train_type(&id))?;
            Some(TrainSpec {
                cap: t.counted_stop_limit,
                passes_free: t.name == "8",
                id,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        (b.cap, b.passes_free)
            .cmp(&(a.cap, a.passes_free))
            .then_with(|| a.id.cmp(&b.id))
    });
    out
}

/// A revenue node of the corporation's region.
struct GNode {
    hex: String,
    node: usize,
    revenue: i64,
    /// City, off-board or pass (counted for 2- to 7-trains).
    counted: bool,
    pass: bool,
    /// Counts toward the two-stop minimum.
    qualifies: bool,
    /// Off-board groups as a bit mask.
    groups: u64,
    /// Holds one of the corporation's tokens.
    token: bool,
    /// A route may pass through it.
    mid_ok: bool,
    /// A stop in unbuilt (yellow) Milano.
    yellow_milano: bool,
}

/// A walk between two nodes through no other node.
struct Conn {
    a: usize,
    b: usize,
    segs: Vec<u32>,
    /// Hexes from `a`'s hex to `b`'s hex.
    chain: Vec<String>,
    /// First segment is a terminal stub (at `a`).
    term_a: bool,
    /// Last segment is a terminal stub (at `b`).
    term_b: bool,
}

struct Graph {
    nodes: Vec<GNode>,
    conns: Vec<Conn>,
    /// Per node: (connection, walked forwards from this node).
    adj: Vec<Vec<(u32, bool)>>,
    /// Words of a segment bit set (segments + one bit for yellow Milano).
    words: usize,
    /// Bit index of "a route stops at yellow Milano".
    milano_bit: usize,
}

/// A walk found from a node: (target key, segments, chain, terminal at start, at end).
type Walk = ((String, usize), Vec<u32>, Vec<String>, bool, bool);

impl Graph {
    fn build(state: &State, sym: &str, tokens: &[MapToken], b: &mut Budget) -> Graph {
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

/// The enumerated routes, flat.
struct Store {
    words: usize,
    revenue: Vec<i64>,
    /// Counted stops for 2- to 7-trains.
    counted: Vec<u32>,
    /// Counted stops for 8-trains (passes free).
    counted8: Vec<u32>,
    /// Segment bits (`words` per route).
    bits: Vec<u64>,
    /// First node of each route.
    start: Vec<usize>,
    /// Range of `steps` of each route.
    range: Vec<(usize, usize)>,
    /// (connection, forwards) in route order.
    steps: Vec<(u32, bool)>,
}

impl Store {
    fn len(&self) -> usize {
        self.revenue.len()
    }

    fn clear(&mut self) {
        self.revenue.clear();
        self.counted.clear();
        self.counted8.clear();
        self.bits.clear();
        self.start.clear();
        self.range.clear();
        self.steps.clear();
    }

    fn bits(&self, r: usize) -> &[u64] {
        &self.bits[r * self.words..(r + 1) * self.words]
    }

    fn to_route(&self, g: &Graph, r: usize, train: &str) -> Route {
        let (lo, hi) = self.range[r];
        let mut at = self.start[r];
        let mut stops = vec![stop_of(g, at)];
        let mut connections = Vec::new();
        for &(c, fwd) in &self.steps[lo..hi] {
            let conn = &g.conns[c as usize];
            let mut chain = conn.chain.clone();
            if !fwd {
                chain.reverse();
            }
            at = if fwd { conn.b } else { conn.a };
            stops.push(stop_of(g, at));
            connections.push(chain);
        }
        Route {
            train: train.to_string(),
            stops,
            connections,
        }
    }
}

fn stop_of(g: &Graph, n: usize) -> Stop {
    Stop {
        hex: g.nodes[n].hex.clone(),
        node: g.nodes[n].node as u32,
    }
}

/// Route enumeration state.
struct Enum<'a> {
    g: &'a Graph,
    cap: Option<u32>,
    cap8: Option<u32>,
    best_only: bool,
    pivot: usize,
    visited: Vec<bool>,
    used: Vec<u64>,
    fwd: Vec<(u32, bool)>,
    bwd: Vec<(u32, bool)>,
    groups: u64,
    counted: u32,
    counted8: u32,
    qualifying: u32,
    revenue: i64,
    /// Stops at yellow Milano on the route (0 or 1).
    milano: u32,
    out: Store,
}

/// A connection seen from node `x`: (other end, terminal at `x`, terminal at the other end).
fn oriented(c: &Conn, fwd: bool) -> (usize, bool, bool) {
    if fwd {
        (c.b, c.term_a, c.term_b)
    } else {
        (c.a, c.term_b, c.term_a)
    }
}

/// Enumerates the routes within the capacities (`best_only`: one train, keep only the
/// first route of the highest revenue, which is what the combination would pick).
fn enumerate(
    g: &Graph,
    cap: Option<u32>,
    cap8: Option<u32>,
    best_only: bool,
    b: &mut Budget,
) -> Store {
    let mut e = Enum {
        g,
        cap,
        cap8,
        best_only,
        pivot: 0,
        visited: vec![false; g.nodes.len()],
        used: vec![0; g.words],
        fwd: Vec::new(),
        bwd: Vec::new(),
        groups: 0,
        counted: 0,
        counted8: 0,
        qualifying: 0,
        revenue: 0,
        milano: 0,
        out: Store {
            words: g.words,
            revenue: Vec::new(),
            counted: Vec::new(),
            counted8: Vec::new(),
            bits: Vec::new(),
            start: Vec::new(),
            range: Vec::new(),
            steps: Vec::new(),
        },
    };
    for t in 0..g.nodes.len() {
        if !g.nodes[t].token {
            continue;
        }
        e.pivot = t;
        e.enter(t);
        e.forward(t, false, b);
        e.leave(t);
        if b.cut {
            break;
        }
    }
    e.out
}

impl Enum<'_> {
    fn fits(&self, n: &GNode) -> bool {
        let c = self.counted + u32::from(n.counted);
        let c8 = self.counted8 + u32::from(n.counted && !n.pass);
        self.cap.is_some_and(|k| c <= k) || self.cap8.is_some_and(|k| c8 <= k)
    }

    fn enter(&mut self, n: usize) {
        let node = &self.g.nodes[n];
        self.visited[n] = true;
        self.groups |= node.groups;
        self.counted += u32::from(node.counted);
        self.counted8 += u32::from(node.counted && !node.pass);
        self.qualifying += u32::from(node.qualifies);
        self.revenue += node.revenue;
        self.milano += u32::from(node.yellow_milano);
    }

    fn leave(&mut self, n: usize) {
        let node = &self.g.nodes[n];
        self.visited[n] = false;
        self.groups &= !node.groups;
        self.counted -= u32::from(node.counted);
        self.counted8 -= u32::from(node.counted && !node.pass);
        self.qualifying -= u32::from(node.qualifies);
        self.revenue -= node.revenue;
        self.milano -= u32::from(node.yellow_milano);
    }

    /// Whether connection `c` may be added at the route's end to reach `y` (`term_x`: it is
    /// a terminal stub at an end that becomes a passed node).
    fn can_take(&self, c: &Conn, y: usize, term_x: bool) -> bool {
        let ny = &self.g.nodes[y];
        let lower_token = ny.token && y < self.pivot;
        !(self.visited[y] || lower_token || term_x || ny.groups & self.groups != 0)
            && self.fits(ny)
            && c.segs
                .iter()
                .all(|s| self.used[*s as usize / 64] & (1u64 << (s % 64)) == 0)
    }

    fn mark(&mut self, c: &Conn, on: bool) {
        for s in &c.segs {
            let w = &mut self.used[*s as usize / 64];
            if on {
                *w |= 1u64 << (s % 64);
            } else {
                *w &= !(1u64 << (s % 64));
            }
        }
    }

    /// Extends the forward half from `x` (`arrived_term`: the connection into `x` is a
    /// terminal stub at `x`). Every state with at least one connection also starts the
    /// backward half.
    fn forward(&mut self, x: usize, arrived_term: bool, b: &mut Budget) {
        let g = self.g;
        let x_is_pivot = self.fwd.is_empty();
        if !x_is_pivot && (!g.nodes[x].mid_ok || arrived_term) {
            return;
        }
        for &(ci, dir) in &g.adj[x] {
            if !b.tick() {
                return;
            }
            let c = &g.conns[ci as usize];
            let (y, tx, ty) = oriented(c, dir);
            // The pivot stays an end in this half: its terminal stub is allowed.
            if !self.can_take(c, y, tx && !x_is_pivot) {
                continue;
            }
            self.mark(c, true);
            self.enter(y);
            self.fwd.push((ci, dir));
            if self.qualifying >= 2 {
                self.record(b);
            }
            self.backward(self.pivot, false, b);
            self.forward(y, ty, b);
            self.fwd.pop();
            self.leave(y);
            self.mark(c, false);
            if b.cut {
                return;
            }
        }
    }

    /// Extends the backward half from `x` (the pivot first, which then becomes a passed
    /// node). Canonical: its first connection has a higher id than the forward half's.
    fn backward(&mut self, x: usize, arrived_term: bool, b: &mut Budget) {
        let g = self.g;
        let first = self.bwd.is_empty();
        if !g.nodes[x].mid_ok || arrived_term {
            return;
        }
        if first {
            // The pivot is passed: the forward half's first connection must not be a
            // terminal stub at it.
            let (c0, d0) = self.fwd[0];
            let (_, t0, _) = oriented(&g.conns[c0 as usize], d0);
            if t0 {
                return;
            }
        }
        for &(ci, dir) in &g.adj[x] {
            if first && ci <= self.fwd[0].0 {
                continue;
            }
            if !b.tick() {
                return;
            }
            let c = &g.conns[ci as usize];
            let (y, tx, ty) = oriented(c, dir);
            if !self.can_take(c, y, tx) {
                continue;
            }
            self.mark(c, true);
            self.enter(y);
            self.bwd.push((ci, dir));
            if self.qualifying >= 2 {
                self.record(b);
            }
            self.backward(y, ty, b);
            self.bwd.pop();
            self.leave(y);
            self.mark(c, false);
            if b.cut {
                return;
            }
        }
    }

    /// Stores the current route: the backward half reversed, then the forward half.
    fn record(&mut self, b: &mut Budget) {
        let g = self.g;
        let o = &mut self.out;
        if self.best_only {
            if o.revenue.first().is_some_and(|&r| self.revenue <= r) {
                return;
            }
            o.clear();
        } else if o.len() >= b.max_stored {
            b.halt(SearchStop::StoredRoutes);
            return;
        }
        let lo = o.steps.len();
        let start = match self.bwd.last() {
            Some(&(c, d)) => oriented(&g.conns[c as usize], d).0,
            None => self.pivot,
        };
        // Walked away from the pivot; in route order the backward half runs the other way.
        for &(c, d) in self.bwd.iter().rev() {
            o.steps.push((c, !d));
        }
        o.steps.extend_from_slice(&self.fwd);
        o.range.push((lo, o.steps.len()));
        o.start.push(start);
        o.revenue.push(self.revenue);
        o.counted.push(self.counted);
        o.counted8.push(self.counted8);
        let mut bits = self.used.clone();
        if self.milano > 0 {
            bits[g.milano_bit / 64] |= 1u64 << (g.milano_bit % 64);
        }
        o.bits.extend_from_slice(&bits);
    }
}

/// Branch and bound over the trains; returns (train index, route) pairs and the total.
fn combine(
    g: &Graph,
    s: &Store,
    trains: &[TrainSpec],
    b: &mut Budget,
) -> (Vec<(usize, usize)>, i64) {
    // Candidate lists per distinct (cap, passes_free), by revenue (highest first).
    let mut lists: Vec<((u32, bool), Vec<usize>)> = Vec::new();
    let mut of_train = Vec::new();
    for t in trains {
        let key = (t.cap, t.passes_free);
        let li = match lists.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                let mut l: Vec<usize> = (0..s.len())
                    .filter(|&r| {
                        let c = if t.passes_free {
                            s.counted8[r]
                        } else {
                            s.counted[r]
                        };
                        c <= t.cap && s.revenue[r] > 0
                    })
                    .collect();
                l.sort_by(|&x, &y| s.revenue[y].cmp(&s.revenue[x]).then(x.cmp(&y)));
                lists.push((key, l));
                lists.len() - 1
            }
        };
        of_train.push(li);
    }
    let best: Vec<i64> = of_train
        .iter()
        .map(|&li| lists[li].1.first().map_or(0, |&r| s.revenue[r]))
        .collect();
    let mut suffix = vec![0; trains.len() + 1];
    for k in (0..trains.len()).rev() {
        suffix[k] = suffix[k + 1] + best[k];
    }
    let mut bb = Bb {
        s,
        lists: lists.into_iter().map(|(_, l)| l).collect(),
        of_train,
        suffix,
        used: vec![0; g.words],
        pick: vec![None; trains.len()],
        best: Vec::new(),
        best_total: 0,
        greedy_done: false,
    };
    bb.search(0, 0, b);
    let chosen = bb.best.clone();
    (chosen, bb.best_total)
}

struct Bb<'a> {
    s: &'a Store,
    lists: Vec<Vec<usize>>,
    of_train: Vec<usize>,
    suffix: Vec<i64>,
    used: Vec<u64>,
    /// Position in its list of each train's route so far.
    pick: Vec<Option<usize>>,
    best: Vec<(usize, usize)>,
    best_total: i64,
    /// The first descent is completed even when the budget has run out.
    greedy_done: bool,
}

impl Bb<'_> {
    fn tick(&mut self, b: &mut Budget) -> bool {
        if self.greedy_done {
            b.tick()
        } else {
            b.used += 1;
            true
        }
    }

    fn search(&mut self, k: usize, cur: i64, b: &mut Budget) {
        if k == self.pick.len() {
            if cur > self.best_total {
                self.best_total = cur;
                self.best = self
                    .pick
                    .iter()
                    .enumerate()
                    .filter_map(|(t, p)| p.map(|p| (t, self.lists[self.of_train[t]][p])))
                    .collect();
            }
            self.greedy_done = true;
            return;
        }
        if !self.tick(b) || (self.greedy_done && cur + self.suffix[k] <= self.best_total) {
            return;
        }
        let li = self.of_train[k];
        // Identical trains take routes in increasing list order; after one runs nothing,
        // the next identical ones run nothing too.
        let start = match k.checked_sub(1) {
            Some(p) if self.of_train[p] == li => self.pick[p].map(|pos| pos + 1),
            _ => Some(0),
        };
        if let Some(start) = start {
            let s = self.s;
            for pos in start..self.lists[li].len() {
                let r = self.lists[li][pos];
                let rev = s.revenue[r];
                if self.greedy_done && cur + rev + self.suffix[k + 1] <= self.best_total {
                    break;
                }
                if !self.tick(b) {
                    return;
                }
                let bits = s.bits(r);
                if self.used.iter().zip(bits).any(|(u, x)| u & x != 0) {
                    continue;
                }
                for (u, x) in self.used.iter_mut().zip(bits) {
                    *u |= x;
                }
                self.pick[k] = Some(pos);
                self.search(k + 1, cur + rev, b);
                self.pick[k] = None;
                for (u, x) in self.used.iter_mut().zip(bits) {
                    *u &= !x;
                }
                if b.cut {
                    return;
                }
            }
        }
        if cur + self.suffix[k + 1] > self.best_total || !self.greedy_done {
            self.search(k + 1, cur, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::g1841::options::Options;
    use crate::g1841::state::PlacedTile;

    /// A random position: about `density` of the buildable hexes carry a tile with the
    /// printed hex's cities, towns, passes and label, in a random rotation; SFTG has two or
    /// three tokens, other corporations fill some slots (blocking); random phase.
    fn random_state(seed: u64, density: u64) -> State {
        let mut state = crate::g1841::setup::setup(&Options::default(), 4).unwrap();
        let m = map::map(&state.options);
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n.max(1)
        };
        let shape = |nodes: &[map::Node]| {
            [NodeKind::City, NodeKind::Town, NodeKind::Pass]
                .map(|k| nodes.iter().filter(|n| n.kind == k).count())
        };
        for (id, hex) in &m.hexes {
            if hex.first_tiles.is_empty() || rnd(100) >= density {
                continue;
            }
            let fits: Vec<&String> = m
                .tiles
                .values()
                .filter(|t| shape(&t.nodes) == shape(&hex.nodes) && t.label == hex.label)
                .map(|t| &t.id)
                .collect();
            if fits.is_empty() {
                continue;
            }
            let tile = fits[rnd(fits.len() as u64) as usize].clone();
            let rotation = rnd(6) as u8;
            state
                .operations
                .tiles
                .insert(id.clone(), PlacedTile { tile, rotation });
        }
        let cities: Vec<(String, u32, u32)> = m
            .hexes
            .keys()
            .flat_map(|h| {
                let v = track::hex_view(&state, h).unwrap();
                v.nodes
                    .iter()
                    .filter(|n| n.is_city())
                    .enumerate()
                    .map(|(i, n)| (h.clone(), i as u32, n.slots))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (k, sym) in [
            "SFTG", "SFTG", "SFTG", "SFTC", "SFTC", "IRSFF", "IRSFF", "SFMA",
        ]
        .iter()
        .enumerate()
        {
            if k == 2 && rnd(2) == 0 {
                continue;
            }
            let (hex, city, slots) = cities[rnd(cities.len() as u64) as usize].clone();
            let here = track::tokens_at(&state, &hex, city);
            if here.len() as u32 >= slots || here.iter().any(|s| s == sym) {
                continue;
            }
            let c = state
                .corporations
                .iter_mut()
                .find(|c| c.sym == *sym)
                .unwrap();
            c.tokens.push(MapToken { hex, city });
        }
        state.phase = ["2", "3", "4", "5", "6", "8"][rnd(6) as usize].into();
        let n = 1 + rnd(3) as usize;
        let trains = (0..n)
            .map(|i| format!("{}-{i}", ["2", "3", "4", "5", "8"][rnd(5) as usize]))
            .collect();
        state.operations.trains.insert("SFTG".into(), trains);
        state
    }

    /// Every route of the graph that `check_routes` accepts for `train`, found by a plain
    /// search from every node in both directions (no canonical order, no rule shortcuts
    /// other than the counted-stop limit).
    fn brute_routes(
        state: &State,
        g: &Graph,
        train: &str,
        cap: u32,
        free: bool,
    ) -> Vec<(Route, i64)> {
        #[allow(clippy::too_many_arguments)]
        fn go(
            state: &State,
            g: &Graph,
            train: &str,
            cap: u32,
            free: bool,
            stops: &mut Vec<usize>,
            chains: &mut Vec<Vec<String>>,
            segs: &mut Vec<u32>,
            out: &mut Vec<(Route, i64)>,
        ) {
            if stops.len() >= 2 {
                let route = Route {
                    train: train.into(),
                    stops: stops.iter().map(|&n| stop_of(g, n)).collect(),
                    connections: chains.clone(),
                };
                if let Ok(v) = check_routes(state, "SFTG", std::slice::from_ref(&route)) {
                    out.push((route, v[0]));
                }
            }
            let at = *stops.last().unwrap();
            for &(c, fwd) in &g.adj[at] {
                let conn = &g.conns[c as usize];
                let (y, ..) = oriented(conn, fwd);
                if stops.contains(&y) || conn.segs.iter().any(|s| segs.contains(s)) {
                    continue;
                }
                let counted = stops
                    .iter()
                    .chain([&y])
                    .filter(|&&n| g.nodes[n].counted && !(free && g.nodes[n].pass))
                    .count() as u32;
                if counted > cap {
                    continue;
                }
                let mut chain = conn.chain.clone();
                if !fwd {
                    chain.reverse();
                }
                stops.push(y);
                chains.push(chain);
                segs.extend(&conn.segs);
                go(state, g, train, cap, free, stops, chains, segs, out);
                segs.truncate(segs.len() - conn.segs.len());
                chains.pop();
                stops.pop();
            }
        }
        let mut out = Vec::new();
        for n in 0..g.nodes.len() {
            go(
                state,
                g,
                train,
                cap,
                free,
                &mut vec![n],
                &mut Vec::new(),
                &mut Vec::new(),
                &mut out,
            );
        }
        out
    }

    /// 1841 §9.3: on random positions the optimizer's routes pass `check_routes`, the search
    /// is deterministic, and its revenue equals a brute force over every legal route (one
    /// train) or every legal pair (two trains), checked by `check_routes` alone.
    #[test]
    fn matches_brute_force_on_random_positions() {
        let (mut compared, mut positive, mut pairs) = (0, 0, 0);
        for seed in 1..=200 {
            let state = random_state(seed, 90);
            let best = best_routes(&state, "SFTG", DEFAULT_BUDGET);
            assert_eq!(
                check_routes(&state, "SFTG", &best.routes).unwrap(),
                best.revenues,
                "seed {seed}"
            );
            assert!(best.proven_optimal, "seed {seed}");
            assert_eq!(best, best_routes(&state, "SFTG", DEFAULT_BUDGET));
            let specs = train_specs(&state, "SFTG");
            let corp = state.corporation("SFTG").unwrap();
            let mut b = Budget {
                used: 0,
                limit: u64::MAX,
                cut: false,
                stored: 0,
                max_stored: usize::MAX,
                stop: None,
            };
            let g = Graph::build(&state, "SFTG", &corp.tokens, &mut b);
            let per: Vec<Vec<(Route, i64)>> = specs
                .iter()
                .take(2)
                .map(|t| brute_routes(&state, &g, &t.id, t.cap, t.passes_free))
                .collect();
            let single = specs.len() == 1;
            let brute = if single {
                per[0].iter().map(|r| r.1).max().unwrap_or(0)
            } else if specs.len() == 2 && per[0].len() * per[1].len() <= 40_000 {
                let mut top = per.iter().flatten().map(|r| r.1).max().unwrap_or(0);
                for (a, va) in &per[0] {
                    for (c, vc) in &per[1] {
                        if va + vc > top
                            && check_routes(&state, "SFTG", &[a.clone(), c.clone()]).is_ok()
                        {
                            top = va + vc;
                        }
                    }
                }
                top
            } else {
                continue;
            };
            assert_eq!(best.revenue, brute, "seed {seed}: {best:?}");
            compared += 1;
            positive += usize::from(brute > 0);
            pairs += usize::from(!single);
        }
        println!("{compared} compared, {positive} with revenue, {pairs} with two trains");
        assert!(compared >= 100 && positive >= 80 && pairs >= 50);
    }
}
