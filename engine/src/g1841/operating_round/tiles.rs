//! Tile lays and upgrades (1841 §9.1): lays per phase and base, costs, province borders.

use super::*;

/// Tile actions allowed this turn (1841 §9.1): a major one per base (phase 3–4 at most 2,
/// phase 5+ 1), a minor 1.
pub fn tile_actions(state: &State, sym: &str) -> u32 {
    tile_actions_with(state, sym, |s| track::bases(state, s).len())
}

/// [`tile_actions`] with the corporation's bases counted by `bases` (on a board of the
/// state, [`track::Board::bases`]).
fn tile_actions_with(state: &State, sym: &str, bases: impl FnOnce(&str) -> usize) -> u32 {
    let Some(corp) = state.corporation(sym) else {
        return 0;
    };
    let Some(p) = phase_data(state) else { return 0 };
    match corp.kind {
        CorporationKind::Minor => p.tile_actions_minor,
        CorporationKind::Major => {
            let n = if p.tile_actions_major.per_base {
                bases(sym) as u32
            } else {
                1
            };
            p.tile_actions_major.max.map_or(n, |m| n.min(m))
        }
    }
}

/// Border set that blocks track in this phase (1841 §9.1: phase 2 only).
pub(super) fn track_border_set(state: &State) -> Option<String> {
    let p = phase_data(state)?;
    (!p.track_may_cross_province_borders).then(|| p.province_border_set_active.clone())
}

/// A tile lay with its cost and the base it is traced to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lay {
    /// Hex.
    pub hex: String,
    /// Tile number.
    pub tile: String,
    /// Rotation.
    pub rotation: u8,
    /// Cost in L. (1841 §9.1).
    pub cost: i64,
    /// The base used (token hex and city).
    pub base: MapToken,
}

/// Every legal tile lay of the operating corporation now (1841 §9.1).
pub fn legal_lays(state: &State) -> Vec<Lay> {
    lays_up_to(state, &track::LazyBoard::new(), usize::MAX, None, None)
}

/// [`legal_lays`] on a board of the state.
pub(super) fn legal_lays_with(state: &State, board: &track::LazyBoard) -> Vec<Lay> {
    lays_up_to(state, board, usize::MAX, None, None)
}

/// Whether the operating corporation has a legal tile lay now (`legal_lays` is not empty).
pub(super) fn has_legal_lay(state: &State, board: &track::LazyBoard) -> bool {
    !lays_up_to(state, board, 1, None, None).is_empty()
}

/// The lay of tile `tile` in rotation `rotation` on `hex` if it is legal now: the first such
/// lay of [`legal_lays`] (traced to the first base that allows it). Only the bases up to that
/// one are traced.
pub(super) fn legal_lay(
    state: &State,
    board: &track::LazyBoard,
    hex: &str,
    tile: &str,
    rotation: u32,
) -> Option<Lay> {
    lays_up_to(state, board, 1, Some(hex), Some((tile, rotation))).pop()
}

/// The first `limit` lays of [`legal_lays`], in its order; on `only` alone when given, of
/// the tile and rotation `want` alone when given.
fn lays_up_to(
    state: &State,
    board: &track::LazyBoard,
    limit: usize,
    only: Option<&str>,
    want: Option<(&str, u32)>,
) -> Vec<Lay> {
    let Some(r) = round(state) else {
        return Vec::new();
    };
    let Some(sym) = r.current.as_deref() else {
        return Vec::new();
    };
    if r.step != OperatingStep::Track {
        return Vec::new();
    }
    let board = board.get(state);
    let bases = board.bases(state, sym);
    if r.used_bases.len() as u32 >= tile_actions_with(state, sym, |_| bases.len()) {
        return Vec::new();
    }
    let Some(corp) = state.corporation(sym) else {
        return Vec::new();
    };
    let m = map::map(&state.options);
    let colors: &[String] = phase_data(state).map_or(&[], |p| p.tile_colors.as_slice());
    // The phase's colours as a mask over the manifest's colours (`Map::tile_colors`).
    let color_mask = m
        .tile_colors
        .iter()
        .enumerate()
        .filter(|(_, c)| colors.contains(c))
        .fold(0u64, |mask, (k, _)| mask | 1 << (k % 64));
    let border = track_border_set(state);
    let shapes = track::shapes(m);
    // The one hex asked about, by index (none: a hex off the map has no lay).
    let only_index = match only {
        Some(h) => match m.hex_index(h) {
            Some(i) => Some(i),
            None => return Vec::new(),
        },
        None => None,
    };
    let mut out: Vec<Lay> = Vec::new();
    // Lays already listed, as (hex index, tile index, rotation) (several bases may reach one
    // lay).
    let mut seen: BTreeSet<(usize, usize, u8)> = BTreeSet::new();
    // The bases not used yet this turn first, then those an earlier lay may hand on
    // ([`reassigned_bases`]), each in token order: a lay is traced to the first that allows it.
    let is_used =
        |&(h, _, c): &(&str, usize, u32)| r.used_bases.iter().any(|u| u.hex == h && u.city == c);
    let order = (0..bases.len())
        .filter(|&b| !is_used(&bases[b]))
        .chain((0..bases.len()).filter(|&b| {
            is_used(&bases[b])
                && reassigned_bases(state, board, sym, &bases, b, border.as_deref()).is_some()
        }));
    for b in order {
        let (bhex, bnode, bcity) = bases[b];
        let reach = board.reach(state, sym, &[(bhex, bnode)], border.as_deref());
        for (i, reached) in reach.edges() {
            if only_index.is_some_and(|o| o != i) {
                continue;
            }
            let hex = &m.hex_ids[i];
            if r.laid_hexes.contains(hex) {
                continue;
            }
            let printed = &m.hex_list[i];
            if board.view(i).is_none() {
                continue;
            }
            let (candidates, cost) = match board.laid(i) {
                Some((t, _)) => (&m.upgrade_index[t], m.tile_list[t].upgrade_cost),
                None => (&m.first_tile_index[i], printed.terrain_cost),
            };
            if cost > corp.cash {
                continue;
            }
            let Some(old) = board.shape(i) else {
                continue;
            };
            let reached = u32::from(reached);
            let neighbors = u32::from(m.neighbor_mask[i]);
            for &t in candidates {
                let tile = &m.tile_list[t];
                if want.is_some_and(|(w, _)| w != tile.id) {
                    continue;
                }
                if color_mask & 1 << (m.tile_color_index[t] % 64) == 0 || board.available(t) == 0 {
                    continue;
                }
                for rotation in 0..6u8 {
                    // 1841 §9.1: tile 601 (yellow Venezia) only in rotation 0.
                    if (rotation != 0 && tile.id == "601")
                        || want.is_some_and(|(_, r)| r != u32::from(rotation))
                    {
                        continue;
                    }
                    let new = &shapes.tiles[t][usize::from(rotation)];
                    // Every exit leads to a neighbour, one exit touches the track reached,
                    // and the old track is kept. 1841 §9.1 (phase 2, "track graph with
                    // region check"): the province border limits what is *reached* (the
                    // search does not cross it, FAQ-Q14), not where a new exit may point:
                    // an exit may face an active border and end there, as in 18xx.games
                    // (`legal_tile_rotation?` only asks for a neighbour across each exit;
                    // FAQ-Q14's own example has such a J6 tile facing I7 in phase 2).
                    if new.exits & !neighbors != 0
                        || new.exits & reached == 0
                        || !old.preserved_by(new)
                    {
                        continue;
                    }
                    if seen.insert((i, t, rotation)) {
                        out.push(Lay {
                            hex: hex.clone(),
                            tile: tile.id.clone(),
                            rotation,
                            cost,
                            base: MapToken {
                                hex: bhex.to_string(),
                                city: bcity,
                            },
                        });
                        if out.len() >= limit {
                            return out;
                        }
                    }
                }
            }
        }
    }
    out
}

/// The bases of this turn's earlier lays traced anew so that none of them is base `new`
/// (an index in `bases`), which then serves the next lay; `None` when no such tracing
/// exists. 1841 §9.1: each tile action must be traceable to a different base — whether a
/// lay was traced to one base or another does not matter as long as every lay has a base of
/// its own (18xx.games re-attributes the earlier lays when it checks a further one,
/// `G1841::Step::Track#calc_unused_railheads`: in `v2-8p-s108` id 509 SFTG lays I3 from
/// Torino after a lay on G5 that both Torino and Alessandria reach). An earlier lay on hex
/// `h` is traceable to a base whose track search reaches an exit of the tile on `h` now.
/// Bases of earlier lays that are no longer bases stay as they are.
fn reassigned_bases(
    state: &State,
    board: &track::Board,
    sym: &str,
    bases: &[(&str, usize, u32)],
    new: usize,
    border: Option<&str>,
) -> Option<Vec<MapToken>> {
    let r = round(state)?;
    let m = board.map;
    let index_of = |t: &MapToken| {
        bases
            .iter()
            .position(|&(h, _, c)| h == t.hex && c == t.city)
    };
    // Bases taken: the new lay's, and those of earlier lays that are no longer bases.
    let mut taken: u64 = 1 << (new % 64);
    if bases.len() > 64 {
        return None;
    }
    // The earlier lays to trace anew, as (position in `used_bases`, hex index).
    let mut open: Vec<(usize, usize)> = Vec::new();
    for (j, u) in r.used_bases.iter().enumerate() {
        match (
            index_of(u),
            r.laid_hexes.get(j).and_then(|h| m.hex_index(h)),
        ) {
            (Some(_), Some(i)) => open.push((j, i)),
            (Some(b), None) => taken |= 1 << b,
            (None, _) => {}
        }
    }
    // serves[k]: the bases (a mask) that reach an exit of the k-th open lay's tile.
    let serves: Vec<u64> = open
        .iter()
        .map(|&(_, i)| {
            let exits = board.shape(i).map_or(0, |s| s.exits);
            bases
                .iter()
                .enumerate()
                .filter(|&(_, &(h, n, _))| {
                    let reach = board.reach(state, sym, &[(h, n)], border);
                    let reached = reach.edges().find(|&(x, _)| x == i).map_or(0, |(_, e)| e);
                    u32::from(reached) & exits != 0
                })
                .fold(0u64, |mask, (b, _)| mask | 1 << b)
        })
        .collect();
    // A distinct base for every open lay (a handful of lays and bases: plain search).
    fn assign(serves: &[u64], k: usize, taken: u64, out: &mut Vec<usize>) -> bool {
        let Some(&mask) = serves.get(k) else {
            return true;
        };
        for b in 0..64 {
            if mask & !taken & 1 << b != 0 {
                out.push(b);
                if assign(serves, k + 1, taken | 1 << b, out) {
                    return true;
                }
                out.pop();
            }
        }
        false
    }
    let mut chosen = Vec::with_capacity(open.len());
    if !assign(&serves, 0, taken, &mut chosen) {
        return None;
    }
    let mut used = r.used_bases.clone();
    for (&(j, _), &b) in open.iter().zip(&chosen) {
        let (hex, _, city) = bases[b];
        used[j] = MapToken {
            hex: hex.to_string(),
            city,
        };
    }
    Some(used)
}

/// Lays a tile (1841 §9.1): the old tile returns to the supply, the cost goes to the bank,
/// tokens stay in their city. `before`: the board of the state before the lay, if one was
/// made. Returns the board of the state after the lay (made from `before` when no token
/// moves, [`track::Board::after_lay`]).
pub(super) fn lay_tile(
    state: &mut State,
    sym: &str,
    lay: &Lay,
    before: Option<&std::rc::Rc<track::Board>>,
    events: &mut Vec<Event>,
) -> std::rc::Rc<track::Board> {
    // 1841 §9.1: a base already used this turn serves this lay when the earlier lays can be
    // traced to other bases ([`reassigned_bases`]).
    let retraced = round(state)
        .filter(|r| r.used_bases.contains(&lay.base))
        .and_then(|_| {
            let board = before
                .cloned()
                .unwrap_or_else(|| track::Board::shared(state));
            let bases = board.bases(state, sym);
            let new = bases
                .iter()
                .position(|&(h, _, c)| h == lay.base.hex && c == lay.base.city)?;
            reassigned_bases(
                state,
                &board,
                sym,
                &bases,
                new,
                track_border_set(state).as_deref(),
            )
        });
    state.operations.tiles.insert(
        lay.hex.clone(),
        PlacedTile {
            tile: lay.tile.clone(),
            rotation: lay.rotation,
        },
    );
    if let Some(c) = state.corporation_mut(sym) {
        c.cash -= lay.cost;
    }
    state.bank_cash += lay.cost;
    // The board with the new tile, the tokens as they were.
    let laid = match before {
        Some(before) => track::Board::after_lay(before, state, &lay.hex),
        None => track::Board::shared(state),
    };
    // 1841 §9.1: tokens stay; where the new tile has fewer cities (yellow Firenze → green, a
    // single city with two slots) they move to its first city. Read on the board: the hex
    // shows what `track::hex_view` gives, and a token lies on the hex exactly when its hex
    // has the hex's index (hex names map to indices one to one); a hex off the map is looked
    // for in every corporation's tokens.
    let at = laid.map.hex_index(&lay.hex);
    let cities = at
        .and_then(|i| laid.view(i))
        .map_or(1, |v| v.nodes.iter().filter(|n| n.is_city()).count() as u32);
    let board = if at.is_none_or(|i| laid.has_token_from(i, cities)) {
        for c in &mut state.corporations {
            for t in &mut c.tokens {
                if t.hex == lay.hex && t.city >= cities {
                    t.city = 0;
                }
            }
        }
        track::Board::shared(state)
    } else {
        debug_assert!(
            !state.corporations.iter().any(|c| c
                .tokens
                .iter()
                .any(|t| t.hex == lay.hex && t.city >= cities)),
            "lay_tile: no token to move"
        );
        laid
    };
    // 1841 §13: off-board groups newly reached by the layer's track.
    super::super::game_end::record_offboards_on(state, sym, &board);
    if let Some(r) = round_mut(state) {
        if let Some(used) = retraced {
            r.used_bases = used;
        }
        r.laid_hexes.push(lay.hex.clone());
        r.used_bases.push(lay.base.clone());
    }
    events.push(Event::TileLaid {
        corporation: sym.to_string(),
        hex: lay.hex.clone(),
        tile: lay.tile.clone(),
        rotation: u32::from(lay.rotation),
        cost: lay.cost,
    });
    board
}
