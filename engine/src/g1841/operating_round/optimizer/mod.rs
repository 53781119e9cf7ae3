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
//!
//! This module holds the answer, the entry points, the work budget and the trains; one module
//! per pass: [`graph`] (1), [`candidates`] (2) and [`combination`] (3). Its tests compare the
//! optimizer with a brute-force search on random positions.

use std::collections::{BTreeMap, VecDeque};

use super::*;
use crate::g1841::action::Stop;
use crate::g1841::state::MapToken;

mod candidates;
mod combination;
mod graph;

use candidates::enumerate;
use combination::combine;
use graph::Graph;

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

#[cfg(test)]
mod tests {
    use super::candidates::{oriented, stop_of};
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
