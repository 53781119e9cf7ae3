//! Pass 2 of the optimizer, the routes (1841 §9.3): simple paths of connections with a
//! token node, enumerated once each within the trains' capacities and under the rules of
//! `check_routes` (no stop twice, one off-board per group, no passing through off-boards or
//! full foreign cities, yellow Milano only at an end, no segment twice, two counted stops),
//! stored flat.

use super::graph::{Conn, GNode, Graph};
use super::*;

/// The enumerated routes, flat.
pub(super) struct Store {
    words: usize,
    pub(super) revenue: Vec<i64>,
    /// Counted stops for 2- to 7-trains.
    pub(super) counted: Vec<u32>,
    /// Counted stops for 8-trains (passes free).
    pub(super) counted8: Vec<u32>,
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
    pub(super) fn len(&self) -> usize {
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

    pub(super) fn bits(&self, r: usize) -> &[u64] {
        &self.bits[r * self.words..(r + 1) * self.words]
    }

    pub(super) fn to_route(&self, g: &Graph, r: usize, train: &str) -> Route {
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

pub(super) fn stop_of(g: &Graph, n: usize) -> Stop {
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
pub(super) fn oriented(c: &Conn, fwd: bool) -> (usize, bool, bool) {
    if fwd {
        (c.b, c.term_a, c.term_b)
    } else {
        (c.a, c.term_b, c.term_a)
    }
}

/// Enumerates the routes within the capacities (`best_only`: one train, keep only the
/// first route of the highest revenue, which is what the combination would pick).
pub(super) fn enumerate(
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
