//! Starting a corporation (1841 §5.4), shared by the stock round (a player starts it) and the
//! corporate share step of the operating round (a corporation starts it, 1841 §3.4, §9.7).
//!
//! After the par (the president's certificate at 2× par, paid into the new treasury) a start
//! runs through the steps of [`StartStep`]:
//! 1. `BuyShares`: the starter may buy single IPO shares until it holds 40% (majors: two more
//!    10% shares; minors: nothing more) or pass;
//! 2. `HomeToken`: historical homes are placed automatically (V2 SFMA: the president chooses
//!    the Firenze city); a non-historical corporation chooses its home city, and a
//!    non-historical major may add a second home token in the same region or pass;
//! 3. `BuyTokens`: the total number of tokens (majors 2–5, minors 1–2, placed ones included)
//!    at one price per token: L.50 for historical corporations, for non-historical ones by how
//!    near the home is to existing track (L.200/100/50/25). If the treasury cannot pay the
//!    minimum, the corporation sells its own IPO shares at half price first (18xx `auto_emr`).
//!
//! The start in progress lives in `StockRound::start` or `OperatingRound::start`; its actions
//! are taken by the starter's controlling seat.

use super::action::{Action, Event};
use super::corporation::{
    certificate_count, certificate_limit, controlled_percent, controller, historical_data,
    is_non_historical, phase_number,
};
use super::data;
use super::map::{self, NodeKind};
use super::options::Options;
use super::sale;
use super::state::{
    CorporationKind, CorporationStart, MapToken, Round, ShareOwner, StartStep, State,
};
use super::track;

/// Rule tag of a start.
pub const RULE: &str = "1841 §5.4";

/// The start in progress in the current round, if any.
pub fn in_progress(state: &State) -> Option<&CorporationStart> {
    match &state.round {
        Round::StockRound(r) => r.start.as_ref(),
        Round::OperatingRound(r) => r.start.as_ref(),
        Round::ConcessionRound(_) => None,
    }
}

fn slot(state: &mut State) -> Option<&mut Option<CorporationStart>> {
    match &mut state.round {
        Round::StockRound(r) => Some(&mut r.start),
        Round::OperatingRound(r) => Some(&mut r.start),
        Round::ConcessionRound(_) => None,
    }
}

/// Opens the start of `sym` at step `BuyShares` in the current round.
pub fn open(state: &mut State, sym: &str) {
    if let Some(s) = slot(state) {
        *s = Some(CorporationStart {
            corporation: sym.to_string(),
            step: StartStep::BuyShares,
        });
    }
}

/// Closes the start in progress.
pub fn close(state: &mut State) {
    if let Some(s) = slot(state) {
        *s = None;
    }
}

/// Moves the start in progress to `step`.
pub fn set_step(state: &mut State, step: StartStep) {
    if let Some(Some(s)) = slot(state) {
        s.step = step;
    }
}

/// Whether `sym` is a non-historical corporation that may be started now by someone who can
/// pay for it (1841 §3.4: from phase 3; it must have a legal home city).
pub fn non_historical_startable(state: &State, sym: &str) -> bool {
    is_non_historical(&state.options, sym)
        && phase_number(state) >= 3
        && state
            .corporation(sym)
            .is_some_and(|c| !c.historical && !c.started())
        && !home_cities_up_to(state, sym, None, 1).is_empty()
}

/// The non-historical corporations that may be started now, in corporation order: those for
/// which [`non_historical_startable`] holds. The home-city search (which depends only on the
/// corporation's kind) is made once per kind instead of once per corporation.
pub fn startable_non_historical(state: &State) -> Vec<&str> {
    if phase_number(state) < 3 {
        return Vec::new();
    }
    // Whether a home city is free, per kind: [minor, major].
    let mut home: [Option<bool>; 2] = [None, None];
    let mut out = Vec::new();
    for c in &state.corporations {
        if c.historical || c.started() || !is_non_historical(&state.options, &c.sym) {
            continue;
        }
        let k = usize::from(c.kind == CorporationKind::Major);
        if *home[k].get_or_insert_with(|| !home_cities_up_to(state, &c.sym, None, 1).is_empty()) {
            out.push(c.sym.as_str());
        }
    }
    out
}

/// The single IPO shares the starter of `sym` may still buy in step `BuyShares` (1841 §5.4
/// step 2: until it holds 40%). A player pays from his cash within his certificate and 60%
/// limits (§2, §7.3); a corporation from its treasury, within its 5 certificates of others
/// (§9.7) and its controller's 60% limit.
pub fn buy_options(state: &State, sym: &str) -> Vec<Action> {
    let Some(corp) = state.corporation(sym) else {
        return Vec::new();
    };
    let Some(starter) = corp.president().cloned() else {
        return Vec::new();
    };
    let unit = corp.unit_percent();
    let held = corp.percent_of(&starter);
    let has_ipo = corp
        .certificates
        .iter()
        .any(|c| c.owner == ShareOwner::Ipo && !c.president);
    let Some(price) = corp.price() else {
        return Vec::new();
    };
    if !has_ipo || held + unit > 40 {
        return Vec::new();
    }
    let rules = data::ruleset(&state.options);
    let max = rules.max_percent_controlled_by_one_player;
    let allowed = match &starter {
        ShareOwner::Player(seat) => {
            state.player(*seat).is_some_and(|p| price <= p.cash)
                && certificate_count(state, *seat) < certificate_limit(state)
                && controlled_percent(state, *seat, sym) + unit <= max
        }
        ShareOwner::Corporation(buyer) => {
            let others = state
                .corporations
                .iter()
                .flat_map(|c| c.certificates.iter())
                .filter(|c| c.owner == starter)
                .count() as u32;
            state.corporation(buyer).is_some_and(|b| price <= b.cash)
                && others < rules.corporation_max_certificates_of_other_corporations
                && controller(state, buyer)
                    .is_some_and(|seat| controlled_percent(state, seat, sym) + unit <= max)
        }
        ShareOwner::Ipo | ShareOwner::Pool => false,
    };
    if !allowed {
        return Vec::new();
    }
    vec![Action::BuyShares {
        corporation: sym.to_string(),
        from_pool: false,
        percent: unit,
    }]
}

/// Moves a start to its token steps when the starter cannot buy more shares (1841 §5.4; 18xx
/// skips the step): see [`to_home_tokens`].
pub fn after_buy(state: &mut State, sym: &str, events: &mut Vec<Event>) {
    if buy_options(state, sym).is_empty() {
        to_home_tokens(state, sym, events);
    }
}

/// Step 3 of a start (1841 §5.4): historical homes with a fixed city are placed automatically;
/// the start waits in `HomeToken` when the president chooses (V2 SFMA, every non-historical
/// corporation), else goes on to `BuyTokens`.
pub fn to_home_tokens(state: &mut State, sym: &str, events: &mut Vec<Event>) {
    if let Some(h) = historical_data(&state.options, sym) {
        for home in &h.homes {
            if let Some(city) = home.city_index {
                place(state, sym, &home.hex, city, events);
            }
        }
        let choice = h.homes.iter().any(|home| home.city_index.is_none());
        set_step(
            state,
            if choice {
                StartStep::HomeToken
            } else {
                StartStep::BuyTokens
            },
        );
    } else {
        set_step(state, StartStep::HomeToken);
    }
}

/// The home cities `sym` may choose now in step `HomeToken` (1841 §3.3, §5.4 step 3).
pub fn home_options(state: &State, sym: &str) -> Vec<MapToken> {
    let Some(corp) = state.corporation(sym) else {
        return Vec::new();
    };
    if corp.historical {
        return historical_home_choices(state, sym);
    }
    match (corp.tokens.as_slice(), corp.kind) {
        ([], _) => home_cities(state, sym, None),
        ([first], CorporationKind::Major) => home_cities(state, sym, Some(&first.hex)),
        _ => Vec::new(),
    }
}

/// Whether the start of `sym` may pass in step `HomeToken`: only the optional second home
/// token of a non-historical major (1841 §5.4 step 3).
pub fn home_optional(state: &State, sym: &str) -> bool {
    state
        .corporation(sym)
        .is_some_and(|c| !c.historical && c.kind == CorporationKind::Major && c.tokens.len() == 1)
}

/// The Firenze city choices of V2 SFMA (1841 §3.3): the printed cities still with a free slot.
fn historical_home_choices(state: &State, sym: &str) -> Vec<MapToken> {
    let Some(h) = historical_data(&state.options, sym) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for home in h.homes.iter().filter(|h| h.city_index.is_none()) {
        for &printed in &home.city_index_choice {
            // 1841 §9.1: after an upgrade to a single city the choice is that city.
            let city = track::current_city(state, &home.hex, printed);
            let t = MapToken {
                hex: home.hex.clone(),
                city,
            };
            if track::has_free_slot(state, &home.hex, city) && !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// Home cities of a non-historical corporation (1841 §5.4 step 3): zone cities (§3.1) that
/// are not reserved (before phase 4 the historical cities and Lugano, from phase 4 Lugano),
/// not Austrian before phase 4 (Lombardy, Veneto), never a pass, with a free slot. A minor
/// never in a major city (Bologna, Firenze, Genova, Milano, Torino, Venezia) nor in a city
/// with anyone's token. The second token of a major (`first` = the first home hex): another
/// hex in the same region — phase 3 the same zone; phase 4 Veneto if the first is in Veneto,
/// else outside Veneto; from phase 5 anywhere.
pub fn home_cities(state: &State, sym: &str, first: Option<&str>) -> Vec<MapToken> {
    home_cities_up_to(state, sym, first, usize::MAX)
}

/// A zone city that a non-historical corporation may have as its home by the lists of
/// [`home_cities`] (neither reserved nor Austrian in its phase regime).
struct HomeCandidate {
    zone: u32,
    hex: &'static str,
    /// `hex` packed ([`super::ids::pack`]; `None` when longer than 7 bytes), to compare it with
    /// the tokens' hexes without comparing strings.
    key: Option<u64>,
    /// One of the `MAJOR_CITIES` (never a minor's home).
    major_city: bool,
}

/// The [`HomeCandidate`]s of the ruleset of `options` in zone order, before phase 4
/// (`[0]`) and from phase 4 (`[1]`): the named city sets depend only on the ruleset, so they
/// are read once, not for every city of every home search.
fn home_candidates(options: &Options, from_phase_4: bool) -> &'static [HomeCandidate] {
    static CANDIDATES: [std::sync::OnceLock<[Vec<HomeCandidate>; 2]>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    let rules = data::ruleset(options);
    let slot = if std::ptr::eq(rules, data::lite()) {
        2
    } else if std::ptr::eq(rules, data::v1()) {
        1
    } else {
        0
    };
    let lists = CANDIDATES[slot].get_or_init(|| {
        let major_cities = rules.city_set("MAJOR_CITIES");
        let list = |reserved: &[String], austrian: &[String]| {
            rules
                .zones
                .iter()
                .flat_map(|zone| {
                    zone.token_cities_on_this_map
                        .iter()
                        .map(move |hex| (zone.index, hex))
                })
                .filter(|(_, hex)| !reserved.contains(hex) && !austrian.contains(hex))
                .map(|(zone, hex)| HomeCandidate {
                    zone,
                    hex: hex.as_str(),
                    key: super::ids::pack(hex.as_bytes()),
                    major_city: major_cities.contains(hex),
                })
                .collect()
        };
        [
            list(
                rules.city_set("reserved_cities_before_phase_4"),
                rules.city_set("austrian_cities_before_phase_4"),
            ),
            list(rules.city_set("reserved_cities_from_phase_4"), &[]),
        ]
    });
    &lists[usize::from(from_phase_4)]
}

/// Whether the region of a non-historical major's first home hex `first` has another zone
/// city it could have as its second home by the lists of [`home_cities`], free slot or not:
/// 18xx.games (`home_token_locations`) offers the optional second home token in that case
/// and asks for a `pass` when every such city is full (1841 §5.4 step 3). For the exports'
/// format only; the rule itself is [`home_cities`].
pub fn region_has_other_city(state: &State, first: &str) -> bool {
    let rules = data::ruleset(&state.options);
    let phase = phase_number(state);
    const VENETO_ZONE: u32 = 4;
    let first_zone = rules.zone_of(first);
    home_candidates(&state.options, phase >= 4).iter().any(|c| {
        let same_region = match phase {
            0..=3 => first_zone == Some(c.zone),
            4 => (first_zone == Some(VENETO_ZONE)) == (c.zone == VENETO_ZONE),
            _ => true,
        };
        same_region && c.hex != first
    })
}

/// A token on the map as [`home_cities_up_to`] reads it: (its hex packed by
/// [`super::ids::pack`], the hex, the city, the index of its corporation in the state).
type MapTokenAt<'a> = (Option<u64>, &'a str, u32, usize);

/// Whether city `city` of `hex` is the home of a historical corporation not yet started and
/// not closed (1841 §3.3, §5.4; the reservation disappears when it closes, §11 step 2).
pub fn reserved_home(state: &State, hex: &str, city: u32) -> bool {
    // (The hex is compared first: most corporations have no home there.)
    data::ruleset(&state.options)
        .historical_corporations
        .iter()
        .any(|h| {
            h.homes.iter().any(|home| {
                home.hex == hex
                    && home
                        .city_index
                        .is_none_or(|i| track::current_city(state, hex, i) == city)
            }) && !state
                .corporation(&h.sym)
                .is_some_and(|c| c.started() || c.closed)
        })
}

/// The first `limit` of [`home_cities`], in the same order (whether there is one is asked
/// often: stop at the first).
fn home_cities_up_to(state: &State, sym: &str, first: Option<&str>, limit: usize) -> Vec<MapToken> {
    let Some(corp) = state.corporation(sym) else {
        return Vec::new();
    };
    let rules = data::ruleset(&state.options);
    let phase = phase_number(state);
    const VENETO_ZONE: u32 = 4;
    let first = first.map(|first| (first, rules.zone_of(first)));
    // Every token on the map as (packed hex, hex, city, corporation index), read once for all
    // candidates, and a mask of the packed hexes' bits `bit` (no bit of a candidate's hex: no
    // token there).
    let bit = |key: u64| 1u64 << (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58);
    let mut tokens: smallvec::SmallVec<[MapTokenAt; 48]> = smallvec::SmallVec::new();
    let mut mask = 0u64;
    for (i, c) in state.corporations.iter().enumerate() {
        for t in &c.tokens {
            let key = super::ids::pack(t.hex.as_bytes());
            mask |= key.map_or(0, bit);
            tokens.push((key, t.hex.as_str(), t.city, i));
        }
    }
    let mut out = Vec::new();
    for candidate in home_candidates(&state.options, phase >= 4) {
        let hex = candidate.hex;
        if let Some((first, first_zone)) = first {
            let same_region = match phase {
                0..=3 => first_zone == Some(candidate.zone),
                4 => (first_zone == Some(VENETO_ZONE)) == (candidate.zone == VENETO_ZONE),
                _ => true,
            };
            if hex == first || !same_region {
                continue;
            }
        }
        let minor = corp.kind == CorporationKind::Minor;
        if minor && candidate.major_city {
            continue;
        }
        // The cities of this hex with a token of each corporation there, once per
        // corporation and city (one pass over the tokens, for the minor's rule and the slots).
        // Packed hexes are equal exactly when the hexes are (a hex that does not pack is
        // longer than one that does).
        let mut tokened: smallvec::SmallVec<[u32; 8]> = smallvec::SmallVec::new();
        if candidate.key.is_none_or(|k| mask & bit(k) != 0) {
            let mut corporation = usize::MAX;
            let mut before = 0;
            for &(key, token_hex, city, i) in &tokens {
                let here = match (candidate.key, key) {
                    (Some(a), Some(b)) => a == b,
                    (Some(_), None) => false,
                    (None, _) => token_hex == hex,
                };
                if !here {
                    continue;
                }
                if i != corporation {
                    corporation = i;
                    before = tokened.len();
                }
                if !tokened[before..].contains(&city) {
                    tokened.push(city);
                }
            }
        }
        if minor && !tokened.is_empty() {
            continue;
        }
        let Some(view) = track::hex_view(state, hex) else {
            continue;
        };
        // City indices count the nodes that take tokens (cities and passes) in node order
        // (`track::node_city`); passes are never homes.
        let cities = view.nodes.iter().filter(|n| n.is_city());
        for (city, node) in (0u32..).zip(cities) {
            if node.kind != NodeKind::City {
                continue;
            }
            // A free slot (`track::has_free_slot`), not a historical home still reserved.
            let taken = tokened.iter().filter(|c| **c == city).count();
            if (taken as u32) < node.slots && !reserved_home(state, hex, city) {
                out.push(MapToken {
                    hex: hex.to_string(),
                    city,
                });
                if out.len() >= limit {
                    return out;
                }
            }
        }
    }
    out
}

/// Places a home token of `sym` (1841 §5.4 step 3); `tokens_total` grows with the placed
/// tokens until the token purchase sets it.
pub fn place(state: &mut State, sym: &str, hex: &str, city: u32, events: &mut Vec<Event>) {
    // 1841 §9.1: a printed city that an upgrade merged into one city is that city now.
    let city = track::current_city(state, hex, city);
    if let Some(corp) = state.corporation_mut(sym) {
        corp.tokens.push(MapToken {
            hex: hex.to_string(),
            city,
        });
        corp.tokens_total = corp.tokens_total.max(corp.tokens.len() as u32);
    }
    events.push(Event::TokenPlaced {
        corporation: sym.to_string(),
        hex: hex.to_string(),
        city,
    });
}

/// After a home token placed in step `HomeToken`: stay for an optional second token when one
/// is possible, else go on to `BuyTokens` (1841 §5.4 step 3: "if no legal 2nd location exists
/// the 2nd token is skipped").
pub fn after_home(state: &mut State, sym: &str) {
    let more = home_optional(state, sym) && !home_options(state, sym).is_empty();
    if !more {
        set_step(state, StartStep::BuyTokens);
    }
}

/// Whether the hex of index `h` (of `m`) counts as connected for the token price (1841 §5.4
/// step 4, 18xx `hex_price`): a tile has been laid there; or it is printed with track and a
/// city; or it is printed with track and a laid tile in a neighbouring hex connects to one of
/// its exits.
fn connected_hex(state: &State, m: &map::Map, h: usize) -> bool {
    let (Some(id), Some(printed)) = (m.hex_ids.get(h), m.hex_list.get(h)) else {
        return false;
    };
    if state.operations.tiles.contains_key(id) {
        return true;
    }
    if printed.paths.is_empty() {
        return false;
    }
    if printed.nodes.iter().any(|n| n.kind == NodeKind::City) {
        return true;
    }
    track::exits(&printed.paths).into_iter().any(|e| {
        printed.neighbors.get(&e).is_some_and(|n| {
            state.operations.tiles.contains_key(n)
                && track::hex_view(state, n)
                    .is_some_and(|v| track::exits(v.paths).contains(&((e + 3) % 6)))
        })
    })
}

/// Distance (0, 1, 2) from `hex` to the nearest connected hex (1841 §5.4 step 4, 18xx
/// `hex_price`), `None` if there is none within 2. As 18xx.games' `search_hexes`, the search
/// walks from `hex` through traversable hex sides that are not on an active province border,
/// among the hexes at most 2 from `hex` (every hex closer than 2 is walked on, so a hex 2
/// away may be reached round an impassable side), and the distance is the hexes' own
/// distance on the grid, not the length of the walk (p2p 6p seed 6002, id 659: from Verona
/// G13, whose side toward E13 is impassable, C13 is reached through F12 and E13, 2 away:
/// L.50 a token). The search runs on hex indices (`Map::neighbor_index`, `Map::border_mask`).
pub fn connection_distance(state: &State, hex: &str) -> Option<u32> {
    let m = map::map(&state.options);
    let Some(start) = m.hex_index(hex) else {
        // Off the map: only a tile there would count (a valid state has none).
        return state.operations.tiles.contains_key(hex).then_some(0);
    };
    let border = data::ruleset(&state.options)
        .phase(&state.phase)
        .and_then(|p| m.border_mask(&p.province_border_set_active));
    let distance = |h: usize| m.hex_ids.get(h).and_then(|id| grid_distance(hex, id));
    let mut seen = vec![false; m.hex_ids.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut best: Option<u32> = None;
    while let Some(h) = stack.pop() {
        let Some(d) = distance(h) else { continue };
        if connected_hex(state, m, h) && best.is_none_or(|b| d < b) {
            best = Some(d);
        }
        if d >= 2 {
            continue;
        }
        let Some(neighbors) = m.neighbor_index.get(h) else {
            continue;
        };
        let mask = border.and_then(|b| b.get(h)).copied().unwrap_or(0);
        for (edge, n) in neighbors.iter().enumerate() {
            let Some(n) = *n else { continue };
            if mask & (1 << edge) != 0 || distance(n).is_none_or(|d| d > 2) {
                continue;
            }
            if let Some(seen) = seen.get_mut(n)
                && !*seen
            {
                *seen = true;
                stack.push(n);
            }
        }
    }
    best
}

/// The distance in hexes between two hexes named by row letter and column number (`G13`),
/// as 18xx.games' `hex_distance` works it out on double-height coordinates; `None` for a
/// name of another shape.
fn grid_distance(a: &str, b: &str) -> Option<u32> {
    let coordinates = |id: &str| -> Option<(i64, i64)> {
        let mut chars = id.chars();
        let row = chars.next().filter(char::is_ascii_uppercase)?;
        let column: i64 = chars.as_str().parse().ok()?;
        Some((column, i64::from(u32::from(row) - u32::from('A'))))
    };
    let (xa, ya) = coordinates(a)?;
    let (xb, yb) = coordinates(b)?;
    let dx = (xa - xb).abs();
    let dy = (ya - yb).abs();
    u32::try_from(dx + ((dy - dx) / 2).max(0)).ok()
}

/// Price of each token bought at the start of `sym`, in L. (1841 §5.4 step 4): L.50 for a
/// historical corporation; for a non-historical one by the distance of its home to the
/// nearest connected hex — 0 → L.200, 1 → L.100, 2 → L.50, none within 2 → L.25 — the higher
/// price of its two homes when it has two.
pub fn token_price(state: &State, sym: &str) -> i64 {
    let rules = data::ruleset(&state.options);
    let Some(corp) = state.corporation(sym) else {
        return rules.token_prices.historical_each;
    };
    if corp.historical {
        return rules.token_prices.historical_each;
    }
    let table = &rules
        .token_prices
        .non_historical_each_by_distance_to_connected_hex;
    corp.tokens
        .iter()
        .map(|t| {
            let key = connection_distance(state, &t.hex)
                .map_or_else(|| "none_within_2".to_string(), |d| d.to_string());
            table.get(&key).copied().unwrap_or(0)
        })
        .max()
        .unwrap_or(rules.token_prices.historical_each)
}

/// Token price and count range of the start of `sym` (1841 §5.4 step 4: majors 2–5, minors
/// 1–2, placed tokens included): `(price each in L., min, max)`.
pub fn token_terms(state: &State, sym: &str) -> Option<(i64, u32, u32)> {
    let corp = state.corporation(sym)?;
    let rules = data::ruleset(&state.options);
    let range = match corp.kind {
        CorporationKind::Major => rules.token_counts.major_total_after_start,
        CorporationKind::Minor => rules.token_counts.minor_total_after_start,
    };
    let placed = u32::try_from(corp.tokens.len()).unwrap_or(u32::MAX);
    Some((token_price(state, sym), range.min.max(placed), range.max))
}

/// Token counts `sym` may choose (1841 §5.4 step 4): the minimum always (the treasury raises
/// the money by selling IPO shares if it must), more only when the treasury can pay.
pub fn token_options(state: &State, sym: &str) -> Vec<Action> {
    let Some((price, min, max)) = token_terms(state, sym) else {
        return Vec::new();
    };
    let Some(corp) = state.corporation(sym) else {
        return Vec::new();
    };
    (min..=max)
        .filter(|n| *n == min || price.saturating_mul(i64::from(*n)) <= corp.cash)
        .map(|count| Action::BuyTokens { count })
        .collect()
}

/// Proceeds of a half-price sale of `units` units at market price `price` (1841 §14), rounded
/// once per sale: by default as 18xx, ceil(units × price ÷ 2) (3 × L.75 → L.113); with
/// `half_price_round_down` (FAQ-Q21: "the total amount is rounded down; individual share
/// prices are not rounded") floor(units × price ÷ 2) (3 × L.75 → L.112).
pub fn half_price_proceeds(options: &Options, units: u32, price: i64) -> i64 {
    let total = i64::from(units).saturating_mul(price);
    if options.half_price_round_down() {
        total.div_euclid(2)
    } else {
        (total + 1).div_euclid(2)
    }
}

/// Buys `count` tokens for the start of `sym` (1841 §5.4 step 4). If the treasury cannot pay,
/// it first sells ceil(2 × shortfall ÷ price) of its own IPO shares to the pool as one bundle
/// at half price (18xx `auto_emr`; proceeds as [`half_price_proceeds`], the price dropping one
/// row per share); a bank that cannot pay those proceeds is broken (1841 §13), even though
/// the tokens' price refills it at once. Closes the start.
pub fn buy_tokens(state: &mut State, sym: &str, count: u32, events: &mut Vec<Event>) {
    let Some((price, _, _)) = token_terms(state, sym) else {
        return;
    };
    let cost = price.saturating_mul(i64::from(count));
    let cash = state.corporation(sym).map_or(0, |c| c.cash);
    if cost > cash {
        raise_by_ipo_sale(state, sym, cost - cash, events);
    }
    if let Some(corp) = state.corporation_mut(sym) {
        corp.cash -= cost;
        corp.tokens_total = count;
    }
    state.bank_cash += cost;
    events.push(Event::TokensBought {
        corporation: sym.to_string(),
        count,
        price: cost,
    });
    close(state);
}

/// The automatic sale of a start that cannot pay its minimum tokens (1841 §5.4 step 4); its
/// price drop ([`sale::drop_after_sale`]) is made before the tokens are bought, also with
/// `price_drops_lowest_first` (FAQ-Q2: its selling is this one bundle).
fn raise_by_ipo_sale(state: &mut State, sym: &str, shortfall: i64, events: &mut Vec<Event>) {
    let Some(corp) = state.corporation(sym) else {
        return;
    };
    let Some(price) = corp.price().filter(|p| *p > 0) else {
        return;
    };
    let unit = corp.unit_percent();
    let wanted = u32::try_from((2 * shortfall + price - 1) / price).unwrap_or(u32::MAX);
    let available = corp
        .certificates
        .iter()
        .filter(|c| c.owner == ShareOwner::Ipo && !c.president && c.percent == unit)
        .count() as u32;
    let units = wanted.min(available);
    if units == 0 {
        return;
    }
    let proceeds = half_price_proceeds(&state.options, units, price);
    let Some(corp) = state.corporation_mut(sym) else {
        return;
    };
    let mut left = units;
    for c in corp.certificates.iter_mut() {
        if left > 0 && c.owner == ShareOwner::Ipo && !c.president && c.percent == unit {
            c.owner = ShareOwner::Pool;
            left -= 1;
        }
    }
    corp.cash += proceeds;
    state.bank_cash -= proceeds;
    // The token purchase right after refills the bank: a bank that could not pay the
    // proceeds broke here (lite heuristic 4 players seed 4013, 18xx id 668: AFI's sale of
    // six shares for L.204 with L.107 in the bank breaks it, the game ends with the round).
    super::game_end::bank_breaks_if_short(state);
    events.push(Event::CorporationSoldShares {
        seller: sym.to_string(),
        corporation: sym.to_string(),
        percent: units * unit,
        price: proceeds,
    });
    // One bundle: the selling ends with it (FAQ-Q2).
    sale::drop_after_sale(state, sym, units, sale::Unmoved::Reported, events);
    sale::selling_ends(state, events);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_price_rounds_up_once_per_sale() {
        // 1841 §14: one 10% share at L.195 → ceil(97.5) = L.98; three at L.75 → L.113.
        let o = Options::default();
        assert_eq!(half_price_proceeds(&o, 1, 195), 98);
        assert_eq!(half_price_proceeds(&o, 3, 75), 113);
        assert_eq!(half_price_proceeds(&o, 2, 100), 100);
        // FAQ-Q21 (`half_price_round_down`): the total rounded down, L.97 and L.112.
        let faq = Options {
            half_price_round_down: Some(true),
            ..Options::default()
        };
        assert_eq!(half_price_proceeds(&faq, 1, 195), 97);
        assert_eq!(half_price_proceeds(&faq, 3, 75), 112);
        assert_eq!(half_price_proceeds(&faq, 2, 100), 100);
    }

    /// 1841 §13 (the bank breaks when it cannot pay; 18xx `Bank#check_cash`): a start that
    /// cannot pay its two tokens (2 × L.50) sells three IPO shares at half of L.68 for L.102
    /// with L.60 in the bank: the bank is broken, although the L.100 for the tokens leaves it
    /// L.58 at the end of the action (lite heuristic 4 players seed 4013, 18xx id 668).
    #[test]
    fn a_bank_short_of_the_start_sale_proceeds_breaks() {
        let mut state = crate::g1841::setup::setup(&Options::default(), 4).expect("four players");
        let sym = "IRSFF";
        let c = state.corporation_mut(sym).expect("IRSFF");
        c.share_price = Some(crate::g1841::state::SharePrice {
            row: 4,
            col: 2,
            arrival: 0,
        });
        c.cash = 0;
        state.next_market_arrival = 1;
        let total = state.bank_cash;
        state.bank_cash = 60;
        state.players[0].cash += total - 60;
        assert_eq!(state.corporation(sym).and_then(|c| c.price()), Some(68));
        let mut events = Vec::new();
        buy_tokens(&mut state, sym, 2, &mut events);
        assert_eq!(state.bank_cash, 58);
        assert_eq!(state.corporation(sym).map(|c| c.cash), Some(2));
        assert_eq!(state.game_end.trigger.as_deref(), Some("bank"));
    }
}
