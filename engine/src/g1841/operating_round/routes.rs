//! Routes and revenue (1841 §9.3): validating a submitted route set and pricing it.

use super::*;

/// Whether `sym` has a route (1841 §9.6, 18xx `route_available`): from one of its non-pass
/// tokens its track graph (borders ignored) reaches two nodes counting toward the two-stop
/// minimum, its own city included, traced as a route runs (never back along the path it
/// reached a node by: [`track::Board::route_reaches_at_least`]).
pub fn route_available(state: &State, sym: &str) -> bool {
    route_available_with(state, &track::LazyBoard::new(), sym)
}

/// [`route_available`] on a board of the state.
pub(super) fn route_available_with(state: &State, board: &track::LazyBoard, sym: &str) -> bool {
    let board = board.get(state);
    // (The search stops at the second such node: only whether there are two matters.)
    board.bases(state, sym).into_iter().any(|(h, n, _)| {
        board.route_reaches_at_least(state, sym, &[(h, n)], 2, |i, node| {
            board
                .view(i)
                .and_then(|v| v.nodes.get(node))
                .is_some_and(|n| n.counts_toward_two_stop_minimum)
        })
    })
}

/// [`route_available`] on 18xx.games' phase-2 graph (`@region_graph`, for the 18xx export):
/// the edges of the active province border set not crossed (1841 §9.2, as for tokens).
pub fn region_route_available(state: &State, sym: &str) -> bool {
    let board = track::LazyBoard::new();
    let board = board.get(state);
    let border = token_border_set(state);
    board.bases(state, sym).into_iter().any(|(h, n, _)| {
        board.traced_reaches_at_least(state, sym, &[(h, n)], border.as_deref(), 2, |i, node| {
            board
                .view(i)
                .and_then(|v| v.nodes.get(node))
                .is_some_and(|n| n.counts_toward_two_stop_minimum)
        })
    })
}

/// Revenue of a node in the current phase (1841 §9.3: off-boards by phase column).
pub fn node_revenue(state: &State, node: &map::Node) -> i64 {
    match &node.revenue {
        map::Revenue::Fixed(v) => *v,
        map::Revenue::ByPhase(cols) => phase_data(state)
            .and_then(|p| cols.get(&p.offboard_revenue_column))
            .copied()
            .unwrap_or(0),
    }
}

/// Whether a node of `kind` holding one of the corporation's tokens satisfies a route's token
/// requirement (1841 §9.3): a city, or — as 18xx accepts, §17 item 5 — a pass; with
/// `pass_token_not_a_route_base` (FAQ-C11: "a legal route must include at least one city
/// holding one of the company's station markers"; FAQ-C5: passes are not cities) a city only.
pub fn route_token_node(state: &State, kind: NodeKind) -> bool {
    match kind {
        NodeKind::City => true,
        NodeKind::Pass => !state.options.pass_token_not_a_route_base(),
        _ => false,
    }
}

/// Whether `kind` is counted against a train's capacity (1841 §9.3: cities, off-boards and
/// passes; towns and ports free).
pub fn counted(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::City | NodeKind::Offboard | NodeKind::Pass)
}

/// A set of track segments as (hex index, path index): a bit per path for the first 64 paths
/// of each hex of the map, a list for the others (no tile has that many).
struct Segments {
    bits: Vec<u64>,
    others: Vec<(usize, usize)>,
}

impl Segments {
    /// No segment, on a map of `hexes` hexes.
    fn new(hexes: usize) -> Self {
        Segments {
            bits: vec![0; hexes],
            others: Vec::new(),
        }
    }

    /// Whether path `path` of hex `hex` is in the set.
    fn contains(&self, hex: usize, path: usize) -> bool {
        match self.bits.get(hex) {
            Some(bits) if path < 64 => bits >> path & 1 == 1,
            _ => self.others.contains(&(hex, path)),
        }
    }

    /// Adds path `path` of hex `hex`.
    fn insert(&mut self, hex: usize, path: usize) {
        match self.bits.get_mut(hex) {
            Some(bits) if path < 64 => *bits |= 1 << path,
            _ => self.others.push((hex, path)),
        }
    }
}

/// Validates a submitted route set of `sym` and returns each route's revenue (1841 §9.3):
/// every train of the corporation at most once; each route has `stops.len() - 1` hex chains
/// that follow existing track between consecutive stops, using no track segment twice among
/// all routes; no stop twice and no two off-boards of one group in a route; it passes through
/// no off-board, no city full of other corporations' tokens and not through yellow Milano
/// (terminal, which at most one route may use); it includes a city or pass with one of the
/// corporation's tokens ([`route_token_node`]: a city only with `pass_token_not_a_route_base`,
/// FAQ-C11) and two stops counting toward the minimum; counted stops (cities,
/// off-boards, passes — passes free for 8-trains) within the train's capacity. Revenue = the
/// sum of the stops' values (off-boards by phase).
pub fn check_routes(state: &State, sym: &str, routes: &[Route]) -> Result<Vec<i64>, Rejection> {
    const R: &str = "1841 §9.3";
    let bad = |m: String| reject(RejectionCode::IllegalMove, R, m);
    let m = map::map(&state.options);
    let rules = data::ruleset(&state.options);
    let own = trains_of(state, sym);
    let corp = state
        .corporation(sym)
        .ok_or_else(|| bad(format!("{sym} does not exist")))?;
    // Hexes read by index from the board of the state (shared with the other searches).
    let board = track::Board::shared(state);
    let view = |hex: &str| m.hex_index(hex).and_then(|i| Some((i, board.view(i)?)));
    let mut trains_used = BTreeSet::new();
    // Track segments used by the routes so far, as (hex index, path index).
    let mut segments = Segments::new(m.hex_list.len());
    // Hex edges crossed by the routes so far, by hex index (bit `e` for edge `e`): a hexside
    // is track too (1841 §9.3: no reuse of track segments; 18xx `check_overlap` keys every
    // path end on an edge), so two branches of one junction never both cross it.
    let mut sides: Vec<u8> = vec![0; m.hex_list.len()];
    let mut milano_routes = 0;
    let mut out = Vec::new();
    for (ri, route) in routes.iter().enumerate() {
        if !own.contains(&route.train) || !trains_used.insert(route.train.clone()) {
            return Err(bad(format!(
                "route {ri}: train {} is not an unused train of {sym}",
                route.train
            )));
        }
        let train = rules
            .train(train_type(&route.train))
            .ok_or_else(|| bad(format!("route {ri}: unknown train")))?;
        let n = route.stops.len();
        if n < 2 || route.connections.len() != n - 1 {
            return Err(bad(format!(
                "route {ri}: needs at least two stops and one hex chain between each pair"
            )));
        }
        let mut nodes: Vec<(track::HexView, &map::Node)> = Vec::with_capacity(n);
        let mut stop_hexes: Vec<usize> = Vec::with_capacity(n);
        for st in &route.stops {
            let (i, v) =
                view(&st.hex).ok_or_else(|| bad(format!("route {ri}: no hex {}", st.hex)))?;
            stop_hexes.push(i);
            let node = v
                .nodes
                .get(st.node as usize)
                .ok_or_else(|| bad(format!("route {ri}: no node {}-{}", st.hex, st.node)))?;
            nodes.push((v, node));
        }
        for (i, st) in route.stops.iter().enumerate() {
            if route.stops[..i].contains(st) {
                return Err(bad(format!(
                    "route {ri}: {}-{} visited twice",
                    st.hex, st.node
                )));
            }
        }
        let mut groups: Vec<&str> = Vec::new();
        for (_, node) in &nodes {
            for g in &node.groups {
                if groups.contains(&g.as_str()) {
                    return Err(bad(format!("route {ri}: off-board group {g} twice")));
                }
                groups.push(g);
            }
        }
        let uses_yellow_milano = route
            .stops
            .iter()
            .any(|s| s.hex == "F8" && !state.operations.tiles.contains_key("F8"));
        if uses_yellow_milano {
            milano_routes += 1;
        }
        // Intermediate stops must be passable.
        let corp_index = state.corporation_index(sym);
        for ((st, (v, node)), &hi) in route
            .stops
            .iter()
            .zip(&nodes)
            .zip(&stop_hexes)
            .take(n - 1)
            .skip(1)
        {
            let passable = match node.kind {
                NodeKind::Offboard => false,
                NodeKind::City | NodeKind::Pass => {
                    // (`track::tokens_at`, read on the board.)
                    let city = track::node_city(v.nodes, st.node as usize).unwrap_or(0);
                    let mut count = 0u32;
                    let mut own = false;
                    for c in board.tokens_in(hi, city) {
                        count += 1;
                        own |= Some(c) == corp_index;
                    }
                    own || count < node.slots
                }
                _ => true,
            };
            if !passable {
                return Err(bad(format!(
                    "route {ri}: cannot pass through {}-{}",
                    st.hex, st.node
                )));
            }
        }
        // Trace each connection.
        for (ci, chain) in route.connections.iter().enumerate() {
            let a = &route.stops[ci];
            let b = &route.stops[ci + 1];
            let through_a = ci > 0;
            if chain.first() != Some(&a.hex) || chain.last() != Some(&b.hex) {
                return Err(bad(format!(
                    "route {ri}: hex chain {ci} must run from {} to {}",
                    a.hex, b.hex
                )));
            }
            // Segments of this chain as (hex index, path index, terminal).
            let mut used: Vec<(usize, usize, bool)> = Vec::new();
            // Hex edges of this chain's paths as (hex index, edge).
            let mut edges: Vec<(usize, u8)> = Vec::new();
            if chain.len() == 1 {
                let v = &nodes[ci].0;
                let ai = stop_hexes[ci];
                let idx = v.paths.iter().enumerate().position(|(pi, p)| {
                    !segments.contains(ai, pi)
                        && ((p.a == End::Node(a.node as usize)
                            && p.b == End::Node(b.node as usize))
                            || (p.b == End::Node(a.node as usize)
                                && p.a == End::Node(b.node as usize)))
                });
                let idx = idx.ok_or_else(|| {
                    bad(format!(
                        "route {ri}: no track between the stops in {}",
                        a.hex
                    ))
                })?;
                used.push((ai, idx, v.paths[idx].terminal));
            } else {
                let mut from = End::Node(a.node as usize);
                for (hi, hex) in chain.iter().enumerate() {
                    let (hi_index, v) =
                        view(hex).ok_or_else(|| bad(format!("route {ri}: no hex {hex}")))?;
                    let printed = &m.hex_list[hi_index];
                    // The edge toward the next hex: by index for a hex of the map (the
                    // neighbours by index are those by name), by name otherwise.
                    let to: Option<u8> =
                        chain.get(hi + 1).and_then(|next| match m.hex_index(next) {
                            Some(j) => (0..6u8)
                                .find(|&e| m.neighbor_index[hi_index][usize::from(e)] == Some(j)),
                            None => printed
                                .neighbors
                                .iter()
                                .find(|(_, h)| *h == next)
                                .map(|(e, _)| *e),
                        });
                    let target = match (to, hi + 1 == chain.len()) {
                        (_, true) => End::Node(b.node as usize),
                        (Some(e), false) => End::Edge(e),
                        (None, false) => {
                            return Err(bad(format!(
                                "route {ri}: {hex} and {} are not adjacent",
                                chain[hi + 1]
                            )));
                        }
                    };
                    let idx = v.paths.iter().enumerate().position(|(pi, p)| {
                        !segments.contains(hi_index, pi)
                            && !used.iter().any(|(h, i, _)| *h == hi_index && *i == pi)
                            && ((p.a == from && p.b == target) || (p.b == from && p.a == target))
                    });
                    let idx = idx.ok_or_else(|| {
                        bad(format!("route {ri}: no track in {hex} for hex chain {ci}"))
                    })?;
                    used.push((hi_index, idx, v.paths[idx].terminal));
                    for end in [from, target] {
                        if let End::Edge(e) = end {
                            edges.push((hi_index, e));
                        }
                    }
                    if let End::Edge(e) = target {
                        from = End::Edge((e + 3) % 6);
                    }
                }
            }
            // A terminal stub may only end a route (yellow Milano).
            let first_terminal = used.first().is_some_and(|u| u.2);
            let last_terminal = used.last().is_some_and(|u| u.2);
            if (first_terminal && through_a) || (last_terminal && ci + 2 < n) {
                return Err(bad(format!(
                    "route {ri}: a route may not run through yellow Milano"
                )));
            }
            for (h, i, _) in used {
                if segments.contains(h, i) {
                    return Err(bad(format!("route {ri}: track used twice")));
                }
                segments.insert(h, i);
            }
            for (h, e) in edges {
                let Some(mask) = sides.get_mut(h).filter(|_| e < 8) else {
                    continue;
                };
                if *mask & (1 << e) != 0 {
                    return Err(bad(format!(
                        "route {ri}: track used twice (the hexside at edge {e} of {})",
                        m.hex_list[h].id
                    )));
                }
                *mask |= 1 << e;
            }
        }
        // Token, two-stop minimum, capacity, revenue.
        let has_token = route.stops.iter().zip(&nodes).any(|(st, (v, node))| {
            route_token_node(state, node.kind)
                && track::node_city(v.nodes, st.node as usize).is_some_and(|city| {
                    corp.tokens
                        .iter()
                        .any(|t| t.hex == st.hex && t.city == city)
                })
        });
        if !has_token {
            return Err(bad(format!("route {ri}: no city with a {sym} token")));
        }
        let qualifying = nodes
            .iter()
            .filter(|(_, n)| n.counts_toward_two_stop_minimum)
            .count();
        if qualifying < 2 {
            return Err(bad(format!(
                "route {ri}: needs two stops that are not passes or ports"
            )));
        }
        let counted_stops = nodes
            .iter()
            .filter(|(_, n)| counted(n.kind) && !(n.kind == NodeKind::Pass && train.name == "8"))
            .count() as u32;
        if counted_stops > train.counted_stop_limit {
            return Err(bad(format!(
                "route {ri}: {counted_stops} counted stops exceed the {}-train",
                train.name
            )));
        }
        out.push(nodes.iter().map(|(_, n)| node_revenue(state, n)).sum());
    }
    if milano_routes > 1 {
        return Err(bad("only one route may use yellow Milano".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::Segments;

    #[test]
    fn segments_hold_paths_by_bit_and_beyond() {
        let mut s = Segments::new(3);
        assert!(!s.contains(1, 0));
        s.insert(1, 0);
        s.insert(1, 63);
        // A path past the 64 bits and a hex past the map go to the list.
        s.insert(1, 64);
        s.insert(7, 2);
        assert!(s.contains(1, 0) && s.contains(1, 63) && s.contains(1, 64) && s.contains(7, 2));
        assert!(!s.contains(0, 0) && !s.contains(1, 1) && !s.contains(2, 63));
        assert!(!s.contains(1, 65) && !s.contains(7, 3) && !s.contains(2, 0));
        assert_eq!(s.bits, vec![0, 1 | 1 << 63, 0]);
        assert_eq!(s.others, vec![(1, 64), (7, 2)]);
    }
}
