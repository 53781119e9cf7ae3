//! Token placement and token purchase (1841 §9.2, §9.5).

use std::collections::BTreeMap;

use super::super::trail;

use super::*;

/// Border set that blocks token reachability (1841 §9.2: always the active set).
pub(super) fn token_border_set(state: &State) -> Option<String> {
    phase_data(state).map(|p| p.province_border_set_active.clone())
}

/// The regions of the map while the active province border set stands (1841 §9.2, §10):
/// every hex with the number of its region, hexes joined by traversable sides that are not on
/// an active border sharing a number.
pub fn border_regions(state: &State) -> BTreeMap<String, usize> {
    let m = map::map(&state.options);
    let set = token_border_set(state);
    let mut region: BTreeMap<String, usize> = BTreeMap::new();
    let mut next = 0;
    for start in m.hexes.keys() {
        if region.contains_key(start) {
            continue;
        }
        region.insert(start.clone(), next);
        let mut queue = vec![start.clone()];
        while let Some(h) = queue.pop() {
            let Some(printed) = m.hexes.get(&h) else {
                continue;
            };
            for (edge, n) in &printed.neighbors {
                if set.as_deref().is_some_and(|s| m.on_border(s, &h, *edge)) {
                    continue;
                }
                if !region.contains_key(n) {
                    region.insert(n.clone(), next);
                    queue.push(n.clone());
                }
            }
        }
        next += 1;
    }
    region
}

/// Whether some token of `a` and some token of `b` lie on opposite sides of an active
/// province border (FAQ-V3: "a company may not buy shares of a company that has station
/// markers on the other side of an existing border", read as: across a border from any of
/// the buyer's own markers; a buyer whose own tokens lie on both sides of a border, such as
/// IRSFF in Milano and Venezia before phase 4, may buy no shares at all), given the
/// [`border_regions`].
pub fn across_border_in(
    regions: &BTreeMap<String, usize>,
    state: &State,
    a: &str,
    b: &str,
) -> bool {
    let pair = [a, b];
    let mut ids = pair
        .iter()
        .filter_map(|s| state.corporation(s))
        .flat_map(|c| c.tokens.iter().map(|t| regions.get(&t.hex)));
    let Some(first) = ids.next() else {
        return false;
    };
    ids.any(|id| id != first)
}

/// [`across_border_in`] with the regions of the current border set.
pub fn across_border(state: &State, a: &str, b: &str) -> bool {
    across_border_in(&border_regions(state), state, a, b)
}

/// Cities where the operating corporation may place a token now (1841 §9.2).
pub fn legal_tokens(state: &State) -> Vec<MapToken> {
    legal_tokens_with(state, &track::LazyBoard::new())
}

/// [`legal_tokens`] on a board of the state.
pub(super) fn legal_tokens_with(state: &State, board: &track::LazyBoard) -> Vec<MapToken> {
    let Some(search) = TokenSearch::of(state, board) else {
        return Vec::new();
    };
    search
        .cities(state)
        .into_iter()
        .filter(|c| search.placeable(state, c))
        .map(|c| MapToken {
            hex: c.hex,
            city: c.city,
        })
        .collect()
}

/// Whether [`legal_tokens_with`] lists a city: the same search, the same cities asked in the
/// same order, stopped at the first city where the token may be placed (1841 §9.2). The
/// trail searches share one step budget ([`Traces`]), so asking the cities in another order
/// could spend it differently and answer otherwise than the listing.
pub(super) fn has_legal_token(state: &State, board: &track::LazyBoard) -> bool {
    let Some(search) = TokenSearch::of(state, board) else {
        return false;
    };
    search
        .cities(state)
        .iter()
        .any(|c| search.placeable(state, c))
}

/// The token step's search (1841 §9.2): from every base of the operating corporation, borders
/// of the active set blocking; `None` when no token may be placed whatever the board (not the
/// token step, no token left).
struct TokenSearch<'a> {
    sym: &'a str,
    corp: &'a super::super::state::Corporation,
    board: &'a track::Board,
    starts: Vec<(&'a str, usize)>,
    border: Option<String>,
    /// The trail test's terms ([`Traces`]).
    traces: Traces<'a>,
    /// 1841 §9.2: no token in Firenze before SFMA starts or phase 4 (V2).
    firenze_locked: bool,
}

impl<'a> TokenSearch<'a> {
    fn of(state: &'a State, board: &'a track::LazyBoard) -> Option<Self> {
        let r = round(state)?;
        let sym = r.current.as_deref()?;
        if r.step != OperatingStep::Token {
            return None;
        }
        let corp = state.corporation(sym)?;
        if corp.tokens.len() as u32 >= corp.tokens_total {
            return None;
        }
        let board = board.get(state);
        let starts: Vec<(&str, usize)> = board
            .bases(state, sym)
            .into_iter()
            .map(|(h, n, _)| (h, n))
            .collect();
        let firenze_locked = !state.options.lite
            && !state.options.version_1
            && phase_number(state) < 4
            && !state.corporation("SFMA").is_some_and(|c| c.started());
        let border = token_border_set(state);
        let traces = Traces::of(state, board, sym, &starts, border.as_deref());
        Some(TokenSearch {
            sym,
            corp,
            board,
            starts,
            border,
            traces,
            firenze_locked,
        })
    }

    /// The cities the breadth-first trace reaches, in hex order (the cities every question of
    /// the token step asks about, in the order they are asked: see [`has_legal_token`]).
    fn cities(&self, state: &State) -> Vec<ReachedCity> {
        let reach = self
            .board
            .traced_reach(state, self.sym, &self.starts, self.border.as_deref());
        reached_cities(self.board, &reach)
    }

    /// Whether the token may go to reached city `c` ([`TokenSearch::may_place`]) and a trail
    /// reaches it ([`TokenSearch::traceable`]).
    fn placeable(&self, state: &State, c: &ReachedCity) -> bool {
        self.may_place(state, c.index, &c.hex, c.city, c.slots) && self.traceable(c.index, c.node)
    }

    /// Whether a trail that uses no track twice reaches node `node` of hex `index`, a node
    /// the breadth-first search reached ([`Traces::reach`]).
    fn traceable(&self, index: usize, node: usize) -> bool {
        self.traces.reach(index, node)
    }

    /// Whether the token may go to city `city` (with `slots` slots) of hex `hex` (index
    /// `index`), a city the search reached.
    fn may_place(&self, state: &State, index: usize, hex: &str, city: u32, slots: u32) -> bool {
        // One token per hex.
        !self.corp.tokens.iter().any(|t| t.hex == hex)
            // A free slot (`track::tokens_at`, counted on the board).
            && (self.board.tokens_in(index, city).count() as u32) < slots
            && (hex != "R14" || !self.firenze_locked)
            // 1841 §5.4: the home city of an unstarted historical corporation stays reserved
            // (18xx home reservations; SFMA's undecided Firenze home reserves the hex).
            && !super::super::start::reserved_home(state, hex, city)
    }
}

/// The terms of the exact trail test ([`trail::trail_reaches`]) of a token search: the
/// tracing corporation's index, its bases as (hex index, node) and the active border mask.
struct Traces<'a> {
    board: &'a track::Board,
    corp: Option<usize>,
    starts: Vec<(usize, usize)>,
    borders: Option<&'static [u8]>,
    /// Steps left to the trail searches of this token search ([`trail::STEP_BUDGET`] in all).
    budget: std::cell::Cell<u32>,
}

impl<'a> Traces<'a> {
    fn of(
        state: &State,
        board: &'a track::Board,
        sym: &str,
        starts: &[(&str, usize)],
        border: Option<&str>,
    ) -> Self {
        Traces {
            board,
            corp: state.corporation_index(sym),
            starts: starts
                .iter()
                .filter_map(|&(h, n)| Some((board.map.hex_index(h)?, n)))
                .collect(),
            borders: border.and_then(|s| board.map.border_mask(s)),
            budget: std::cell::Cell::new(trail::STEP_BUDGET),
        }
    }

    /// Whether a trail of track that uses no hexside twice joins a base to node `node` of
    /// hex `index`, a node [`track::Board::traced_reach`] reached (1841 §9.2, §9.3;
    /// [`trail`]): once the searches of this token search have spent the trail search's
    /// bound, the breadth-first answer (reached) stands.
    fn reach(&self, index: usize, node: usize) -> bool {
        let mut budget = self.budget.get();
        let answer = trail::trail_reaches(
            self.board,
            self.corp,
            &self.starts,
            self.borders,
            (index, node),
            &mut budget,
        );
        self.budget.set(budget);
        answer.unwrap_or(true)
    }
}

/// Whether `sym` has a token not on the map (the token-purchase step is offered then,
/// 1841 §9.5; observed in the recorded games).
pub(super) fn has_unplaced_token(state: &State, sym: &str) -> bool {
    state
        .corporation(sym)
        .is_some_and(|c| (c.tokens.len() as u32) < c.tokens_total)
}

/// Tokens the operating corporation may buy now (1841 §9.5, FAQ-C12): it has an unplaced
/// token; the token is another corporation's, in a city or pass reachable from the buyer's
/// bases without crossing the active border set, on a tile where the buyer has no token; the
/// seller has a controlling player and keeps at least one non-pass token on the map (a token
/// in a pass can always be sold); price L.1 up to the buyer's treasury.
pub fn token_purchases(state: &State) -> Vec<TokenPurchaseRange> {
    token_purchases_with(state, &track::LazyBoard::new())
}

/// [`token_purchases`] on a board of the state.
pub(super) fn token_purchases_with(
    state: &State,
    board: &track::LazyBoard,
) -> Vec<TokenPurchaseRange> {
    let mut out = Vec::new();
    let Some(r) = round(state) else { return out };
    let Some(sym) = r.current.clone() else {
        return out;
    };
    if r.step != OperatingStep::BuyToken || !has_unplaced_token(state, &sym) {
        return out;
    }
    let Some(buyer) = state.corporation(&sym) else {
        return out;
    };
    if buyer.cash < 1 {
        return out;
    }
    let board = board.get(state);
    let starts: Vec<(&str, usize)> = board
        .bases(state, &sym)
        .into_iter()
        .map(|(h, n, _)| (h, n))
        .collect();
    let border = token_border_set(state);
    let reach = board.traced_reach(state, &sym, &starts, border.as_deref());
    let traces = Traces::of(state, board, &sym, &starts, border.as_deref());
    for ReachedCity {
        hex,
        index,
        node,
        city,
        kind,
        ..
    } in reached_cities(board, &reach)
    {
        let hex = &hex;
        if buyer.tokens.iter().any(|t| &t.hex == hex) {
            continue;
        }
        if track::tokens_at(state, hex, city).is_empty() || !traces.reach(index, node) {
            continue;
        }
        for seller in track::tokens_at(state, hex, city) {
            if seller == sym || controller(state, &seller).is_none() {
                continue;
            }
            let in_pass = kind == NodeKind::Pass;
            if !in_pass && track::bases(state, &seller).len() < 2 {
                continue;
            }
            out.push(TokenPurchaseRange {
                hex: hex.clone(),
                city,
                seller,
                min_price: 1,
                max_price: buyer.cash,
            });
        }
    }
    out
}

/// Buys a token (1841 §9.5): the seller's token returns to its charter, the buyer's takes
/// its slot; the price goes to the seller.
pub(super) fn buy_token(
    state: &mut State,
    buyer: &str,
    hex: &str,
    city: u32,
    seller: &str,
    price: i64,
    events: &mut Vec<Event>,
) {
    if let Some(s) = state.corporation_mut(seller) {
        if let Some(i) = s.tokens.iter().position(|t| t.hex == hex && t.city == city) {
            s.tokens.remove(i);
        }
        s.cash += price;
    }
    if let Some(b) = state.corporation_mut(buyer) {
        b.cash -= price;
        b.tokens.push(MapToken {
            hex: hex.to_string(),
            city,
        });
    }
    events.push(Event::TokenBought {
        corporation: buyer.to_string(),
        seller: seller.to_string(),
        hex: hex.to_string(),
        city,
        price,
    });
}

/// A city (or pass) among the nodes a corporation's track reaches (1841 §9.2, §9.5).
pub(super) struct ReachedCity {
    /// Hex, e.g. `F8`.
    hex: String,
    /// Its index on the map.
    index: usize,
    /// Node index on the hex's tile.
    node: usize,
    /// City index on the hex's tile.
    city: u32,
    /// Token slots of that city.
    slots: u32,
    /// City or pass.
    kind: NodeKind,
}

/// The cities among the reached nodes, in hex order.
pub(super) fn reached_cities(board: &track::Board, reach: &track::Reach) -> Vec<ReachedCity> {
    let mut out = Vec::new();
    for &(i, node) in reach.node_indices() {
        let Some(v) = board.view(i) else {
            continue;
        };
        let Some(n) = v.nodes.get(node) else {
            continue;
        };
        if !n.is_city() {
            continue;
        }
        let Some(city) = track::node_city(v.nodes, node) else {
            continue;
        };
        out.push(ReachedCity {
            hex: board.map.hex_ids[i].clone(),
            index: i,
            node,
            city,
            slots: n.slots,
            kind: n.kind,
        });
    }
    out
}

/// Whether 18xx.games opens its token step for the operating corporation, in its token step
/// (for the 18xx export, issue #21): the search of [`legal_tokens`] without the Firenze lock
/// (1841 §9.2, V2: no token in Firenze before SFMA starts or phase 4) and without the
/// reservation of Firenze by V2 SFMA's undecided home (§3.3). 18xx's step opens when its
/// token graph finds a city with a free, unreserved slot (`Tokener#can_place_token?`); it
/// reserves no slot for SFMA's home in Version 2 and applies the lock
/// (`G1841::Game#check_token_hex`) only to the city chosen, so a corporation that reaches
/// Firenze and no other free city has a step whose only action is its `pass`.
pub fn token_step_opens_in_18xx(state: &State) -> bool {
    let board = track::LazyBoard::new();
    let Some(search) = TokenSearch::of(state, &board) else {
        return false;
    };
    // Slots reserved in a city (18xx reservations): homes of one city of historical
    // corporations not started.
    let reserved = |hex: &str, city: u32| {
        data::ruleset(&state.options)
            .historical_corporations
            .iter()
            .filter(|h| {
                h.homes.iter().any(|home| {
                    home.hex == hex
                        && home
                            .city_index
                            .is_some_and(|i| track::current_city(state, hex, i) == city)
                }) && !state
                    .corporation(&h.sym)
                    .is_some_and(|c| c.started() || c.closed)
            })
            .count() as u32
    };
    search.cities(state).into_iter().any(|c| {
        !search.corp.tokens.iter().any(|t| t.hex == c.hex)
            && search.board.tokens_in(c.index, c.city).count() as u32 + reserved(&c.hex, c.city)
                < c.slots
            && search.traceable(c.index, c.node)
    })
}
