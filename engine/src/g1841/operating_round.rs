//! Operating rounds (1841 §8, §9, §10): operating order, the steps of a corporation's turn
//! (track → token → routes → dividend → trains → corporate shares), the end of the round and
//! the next round.
//!
//! `apply` accepts exactly the actions [`legal`] lists (plus cross-corporation train purchases
//! at any price in [`TrainPurchaseRange`]), so the two always agree. Steps without a legal
//! action are skipped automatically, as 18xx does.

use std::collections::BTreeSet;

use super::action::{Action, Event, LegalActions, Route, TokenPurchaseRange, TrainPurchaseRange};
use super::corporation::{controlled_percent, controller, phase_number};
use super::data;
use super::map::{self, End, NodeKind};
use super::market;
use super::state::{
    CorporationKind, MapToken, OperatingRound, OperatingStep, PlacedTile, Round, ShareOwner, State,
};
use super::track;
use crate::{Rejection, RejectionCode, Seat};

/// Rule tag of the operating round.
pub const RULE: &str = "1841 §8";

fn reject(code: RejectionCode, rule: &str, message: impl Into<String>) -> Rejection {
    Rejection::new(code, rule, message)
}

fn round(state: &State) -> Option<&OperatingRound> {
    match &state.round {
        Round::OperatingRound(r) => Some(r),
        _ => None,
    }
}

fn round_mut(state: &mut State) -> Option<&mut OperatingRound> {
    match &mut state.round {
        Round::OperatingRound(r) => Some(r),
        _ => None,
    }
}

/// The corporation operating now.
pub fn current(state: &State) -> Option<String> {
    round(state)?.current.clone()
}

/// The seat acting for the operating corporation (its controller, 1841 §7.2); empty when
/// the corporation is in a step this build cannot play (routes, emergency money raising).
pub fn to_act(state: &State) -> Vec<Seat> {
    current(state)
        .and_then(|c| controller(state, &c))
        .filter(|s| !legal(state, *s).is_empty())
        .map(|s| vec![s])
        .unwrap_or_default()
}

fn phase_data(state: &State) -> Option<&'static data::PhaseData> {
    data::ruleset(&state.options).phase(&state.phase)
}

/// Tile actions allowed this turn (1841 §9.1): a major one per base (phase 3–4 at most 2,
/// phase 5+ 1), a minor 1.
pub fn tile_actions(state: &State, sym: &str) -> u32 {
    let Some(corp) = state.corporation(sym) else {
        return 0;
    };
    let Some(p) = phase_data(state) else { return 0 };
    match corp.kind {
        CorporationKind::Minor => p.tile_actions_minor,
        CorporationKind::Major => {
            let n = track::bases(state, sym).len() as u32;
            let n = if p.tile_actions_major.per_base { n } else { 1 };
            p.tile_actions_major.max.map_or(n, |m| n.min(m))
        }
    }
}

/// Border set that blocks track in this phase (1841 §9.1: phase 2 only).
fn track_border_set(state: &State) -> Option<String> {
    let p = phase_data(state)?;
    (!p.track_may_cross_province_borders).then(|| p.province_border_set_active.clone())
}

/// Border set that blocks token reachability (1841 §9.2: always the active set).
fn token_border_set(state: &State) -> Option<String> {
    phase_data(state).map(|p| p.province_border_set_active.clone())
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
    let Some(r) = round(state) else {
        return Vec::new();
    };
    let Some(sym) = r.current.clone() else {
        return Vec::new();
    };
    if r.step != OperatingStep::Track || r.used_bases.len() as u32 >= tile_actions(state, &sym) {
        return Vec::new();
    }
    let Some(corp) = state.corporation(&sym) else {
        return Vec::new();
    };
    let m = map::map(&state.options);
    let colors = phase_data(state)
        .map(|p| p.tile_colors.clone())
        .unwrap_or_default();
    let border = track_border_set(state);
    let mut out: Vec<Lay> = Vec::new();
    let mut seen = BTreeSet::new();
    for (bhex, bnode, bcity) in track::bases(state, &sym) {
        let base = MapToken {
            hex: bhex.clone(),
            city: bcity,
        };
        if r.used_bases.contains(&base) {
            continue;
        }
        let reach = track::reach(state, &sym, &[(bhex.clone(), bnode)], border.as_deref());
        for (hex, edges) in &reach.edges {
            if r.laid_hexes.contains(hex) {
                continue;
            }
            let Some(printed) = m.hexes.get(hex) else {
                continue;
            };
            let Some(view) = track::hex_view(state, hex) else {
                continue;
            };
            let (candidates, cost) = match state.operations.tiles.get(hex) {
                Some(p) => match m.tiles.get(&p.tile) {
                    Some(t) => (t.upgrades_to.clone(), t.upgrade_cost),
                    None => continue,
                },
                None => (printed.first_tiles.clone(), printed.terrain_cost),
            };
            if cost > corp.cash {
                continue;
            }
            for tile_id in candidates {
                let Some(tile) = m.tiles.get(&tile_id) else {
                    continue;
                };
                if !colors.contains(&tile.color) || track::tiles_available(state, &tile_id) == 0 {
                    continue;
                }
                let old_exits = track::exits(&view.paths);
                for rotation in 0..6u8 {
                    // 1841 §9.1: tile 601 (yellow Venezia) only in rotation 0.
                    if tile_id == "601" && rotation != 0 {
                        continue;
                    }
                    let paths = track::rotated(&tile.paths, rotation);
                    let new_exits = track::exits(&paths);
                    if !new_exits.iter().all(|e| printed.neighbors.contains_key(e)) {
                        continue;
                    }
                    if !track::preserves(&view.nodes, &view.paths, &tile.nodes, &paths) {
                        continue;
                    }
                    if new_exits.is_disjoint(edges) {
                        continue;
                    }
                    // 1841 §9.1: phase 2 — no new track across an active province border.
                    if let Some(set) = &border
                        && new_exits
                            .difference(&old_exits)
                            .any(|e| m.on_border(set, hex, *e))
                    {
                        continue;
                    }
                    if seen.insert((hex.clone(), tile_id.clone(), rotation)) {
                        out.push(Lay {
                            hex: hex.clone(),
                            tile: tile_id.clone(),
                            rotation,
                            cost,
                            base: base.clone(),
                        });
                    }
                }
            }
        }
    }
    out
}

/// Cities where the operating corporation may place a token now (1841 §9.2).
pub fn legal_tokens(state: &State) -> Vec<MapToken> {
    let Some(r) = round(state) else {
        return Vec::new();
    };
    let Some(sym) = r.current.clone() else {
        return Vec::new();
    };
    if r.step != OperatingStep::Token {
        return Vec::new();
    }
    let Some(corp) = state.corporation(&sym) else {
        return Vec::new();
    };
    if corp.tokens.len() as u32 >= corp.tokens_total {
        return Vec::new();
    }
    let starts: Vec<(String, usize)> = track::bases(state, &sym)
        .into_iter()
        .map(|(h, n, _)| (h, n))
        .collect();
    let border = token_border_set(state);
    let reach = track::reach(state, &sym, &starts, border.as_deref());
    let firenze_locked = !state.options.lite
        && !state.options.version_1
        && phase_number(state) < 4
        && !state.corporation("SFMA").is_some_and(|c| c.started());
    let mut out = Vec::new();
    for ReachedCity {
        hex, city, slots, ..
    } in reached_cities(state, &reach)
    {
        let hex = &hex;
        if corp.tokens.iter().any(|t| &t.hex == hex) {
            continue;
        }
        if track::tokens_at(state, hex, city).len() as u32 >= slots {
            continue;
        }
        // 1841 §9.2: no token in Firenze before SFMA starts or phase 4 (V2).
        if hex == "R14" && firenze_locked {
            continue;
        }
        // 1841 §5.4: the home city of an unstarted historical corporation stays reserved
        // (18xx home reservations; SFMA's undecided Firenze home reserves the hex).
        if reserved_home(state, hex, city) {
            continue;
        }
        out.push(MapToken {
            hex: hex.clone(),
            city,
        });
    }
    out
}

/// Whether city `city` of `hex` is the home of a historical corporation not yet started
/// (1841 §3.3, §5.4).
pub fn reserved_home(state: &State, hex: &str, city: u32) -> bool {
    data::ruleset(&state.options)
        .historical_corporations
        .iter()
        .filter(|h| !state.corporation(&h.sym).is_some_and(|c| c.started()))
        .flat_map(|h| h.homes.iter())
        .any(|home| {
            home.hex == hex
                && home
                    .city_index
                    .is_none_or(|i| track::current_city(state, hex, i) == city)
        })
}

/// Whether `sym` has a route (1841 §9.6, 18xx `route_available`): from one of its non-pass
/// tokens its track graph (borders ignored) reaches two nodes counting toward the two-stop
/// minimum, its own city included.
pub fn route_available(state: &State, sym: &str) -> bool {
    track::bases(state, sym).into_iter().any(|(h, n, _)| {
        let reach = track::reach(state, sym, &[(h, n)], None);
        reach
            .nodes
            .iter()
            .filter(|(hex, node)| {
                track::hex_view(state, hex)
                    .and_then(|v| v.nodes.get(*node).cloned())
                    .is_some_and(|n| n.counts_toward_two_stop_minimum)
            })
            .count()
            >= 2
    })
}

fn trains_of(state: &State, sym: &str) -> Vec<String> {
    state
        .operations
        .trains
        .get(sym)
        .cloned()
        .unwrap_or_default()
}

/// Train type of a train id (`2-4` → `2`).
pub fn train_type(id: &str) -> &str {
    id.split('-').next().unwrap_or(id)
}

/// Train limit of `sym` in the current phase (1841 §9.6).
pub fn train_limit(state: &State, sym: &str) -> u32 {
    let (Some(p), Some(c)) = (phase_data(state), state.corporation(sym)) else {
        return 0;
    };
    match c.kind {
        CorporationKind::Major => p.train_limit.major,
        CorporationKind::Minor => p.train_limit.minor,
    }
}

/// The next depot train (lowest type with copies left) as (id, price) (1841 §9.6).
pub fn depot_train(state: &State) -> Option<(String, i64)> {
    data::ruleset(&state.options).trains.iter().find_map(|t| {
        let sold = state
            .operations
            .depot_sold
            .get(&t.name)
            .copied()
            .unwrap_or(0);
        (sold < t.count).then(|| (format!("{}-{sold}", t.name), t.price))
    })
}

fn train_price(state: &State, id: &str) -> i64 {
    data::ruleset(&state.options)
        .train(train_type(id))
        .map_or(0, |t| t.price)
}

/// Train purchases possible now: fixed-price depot/pool actions and ranges for trains of
/// other corporations (1841 §9.6).
fn train_options(state: &State) -> (Vec<Action>, Vec<TrainPurchaseRange>) {
    let mut actions = Vec::new();
    let mut ranges = Vec::new();
    let Some(r) = round(state) else {
        return (actions, ranges);
    };
    let Some(sym) = r.current.clone() else {
        return (actions, ranges);
    };
    if r.step != OperatingStep::Trains {
        return (actions, ranges);
    }
    let Some(corp) = state.corporation(&sym) else {
        return (actions, ranges);
    };
    if trains_of(state, &sym).len() as u32 >= train_limit(state, &sym) {
        return (actions, ranges);
    }
    if let Some((id, price)) = depot_train(state) {
        // 1841 §11: the first 4-train's events are not implemented in this build.
        let unsupported = train_type(&id) == "4";
        if price <= corp.cash && !unsupported {
            actions.push(Action::BuyTrain {
                train: id,
                from: "depot".into(),
                price,
            });
        }
    }
    let mut pool_types = BTreeSet::new();
    for id in &state.operations.pool_trains {
        let price = train_price(state, id);
        if price <= corp.cash && pool_types.insert(train_type(id).to_string()) {
            actions.push(Action::BuyTrain {
                train: id.clone(),
                from: "pool".into(),
                price,
            });
        }
    }
    if corp.cash >= 1 {
        for (other, trains) in &state.operations.trains {
            if *other == sym {
                continue;
            }
            for id in trains {
                ranges.push(TrainPurchaseRange {
                    train: id.clone(),
                    from: other.clone(),
                    min_price: 1,
                    max_price: corp.cash,
                });
            }
        }
    }
    (actions, ranges)
}

/// Whether `sym` has a token not on the map (the token-purchase step is offered then,
/// 1841 §9.5; observed in the recorded games).
fn has_unplaced_token(state: &State, sym: &str) -> bool {
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
    let starts: Vec<(String, usize)> = track::bases(state, &sym)
        .into_iter()
        .map(|(h, n, _)| (h, n))
        .collect();
    let border = token_border_set(state);
    let reach = track::reach(state, &sym, &starts, border.as_deref());
    for ReachedCity {
        hex, city, kind, ..
    } in reached_cities(state, &reach)
    {
        let hex = &hex;
        if buyer.tokens.iter().any(|t| &t.hex == hex) {
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
fn buy_token(
    state: &mut State,
    buyer: &str,
    hex: &str,
    city: u32,
    seller: &str,
    price: i64,
    events: &mut Vec<Event>,
) {
    if let Some(s) = state.corporations.iter_mut().find(|c| c.sym == seller) {
        if let Some(i) = s.tokens.iter().position(|t| t.hex == hex && t.city == city) {
            s.tokens.remove(i);
        }
        s.cash += price;
    }
    if let Some(b) = state.corporations.iter_mut().find(|c| c.sym == buyer) {
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

/// Whether the operating corporation must buy a train before passing (1841 §9.6: no train
/// and a route available).
fn must_buy_train(state: &State, sym: &str) -> bool {
    trains_of(state, sym).is_empty() && route_available(state, sym)
}

/// Corporate sales possible now (1841 §9.7): the operating corporation's own IPO shares
/// (issuing) or ordinary certificates it holds of other corporations, of corporations that
/// have operated, in unit steps while the pool stays within 50%; president's certificates
/// are never sold here.
fn sell_options(state: &State) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(r) = round(state) else { return out };
    let Some(sym) = r.current.clone() else {
        return out;
    };
    if r.step != OperatingStep::Shares {
        return out;
    }
    let pool_max = data::ruleset(&state.options).bank_pool_max_percent;
    for corp in &state.corporations {
        if !corp.started() || !corp.operated {
            continue;
        }
        let holder = if corp.sym == sym {
            ShareOwner::Ipo
        } else {
            ShareOwner::Corporation(sym.clone())
        };
        let held: u32 = corp
            .certificates
            .iter()
            .filter(|c| c.owner == holder && !c.president)
            .map(|c| c.percent)
            .sum();
        let room = pool_max.saturating_sub(corp.pool_percent());
        let unit = corp.unit_percent();
        let mut p = unit;
        while p <= held && p <= room {
            out.push(Action::SellShares {
                corporation: corp.sym.clone(),
                percent: p,
            });
            p += unit;
        }
    }
    out
}

/// Sells `percent` of `target` held by `seller` (its IPO when `target == seller`) to the pool
/// at the current price; the price drops one row per unit (1841 §9.7, §5.3).
fn sell_share(
    state: &mut State,
    seller: &str,
    target: &str,
    percent: u32,
    events: &mut Vec<Event>,
) {
    let holder = if target == seller {
        ShareOwner::Ipo
    } else {
        ShareOwner::Corporation(seller.to_string())
    };
    let Some(t) = state.corporations.iter_mut().find(|c| c.sym == target) else {
        return;
    };
    let Some(price) = t.price() else { return };
    let unit = t.unit_percent();
    let units = percent / unit;
    let mut left = units;
    for c in t.certificates.iter_mut() {
        if left > 0 && c.owner == holder && !c.president && c.percent == unit {
            c.owner = ShareOwner::Pool;
            left -= 1;
        }
    }
    let proceeds = price.saturating_mul(i64::from(units - left));
    state.bank_cash -= proceeds;
    if let Some(s) = state.corporations.iter_mut().find(|c| c.sym == seller) {
        s.cash += proceeds;
    }
    events.push(Event::CorporationSoldShares {
        seller: seller.to_string(),
        corporation: target.to_string(),
        percent,
        price: proceeds,
    });
    if let Some(p) = state.corporation(target).and_then(|c| c.share_price) {
        let (mut row, mut col) = (p.row, p.col);
        for _ in 0..units {
            (row, col) = market::down(row, col);
        }
        market::set_cell(state, target, row, col);
        events.push(Event::SharePriceChanged {
            corporation: target.to_string(),
            price: market::price_at(row, col).unwrap_or(0),
            row,
            col,
        });
    }
    if let Some(r) = round_mut(state)
        && !r.sold.iter().any(|s| s == target)
    {
        r.sold.push(target.to_string());
    }
}

/// Corporate share purchases possible now (1841 §9.7): one certificate of another
/// corporation from its IPO or the pool, at market price, from the treasury; never itself
/// or a corporation in its own chain of control; at most 5 certificates of others; the
/// controlling player's 60% limit; the president's certificate from the pool only for
/// non-historical corporations or from phase 4.
fn share_options(state: &State) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(r) = round(state) else { return out };
    let Some(sym) = r.current.clone() else {
        return out;
    };
    if r.step != OperatingStep::Shares {
        return out;
    }
    let Some(buyer) = state.corporation(&sym) else {
        return out;
    };
    let Some(seat) = controller(state, &sym) else {
        return out;
    };
    let rules = data::ruleset(&state.options);
    let held: u32 = state
        .corporations
        .iter()
        .flat_map(|c| c.certificates.iter())
        .filter(|c| c.owner == ShareOwner::Corporation(sym.clone()))
        .count() as u32;
    if held >= rules.corporation_max_certificates_of_other_corporations {
        return out;
    }
    // The chain of control above the buyer.
    let mut chain = vec![sym.clone()];
    let mut cur = sym.clone();
    for _ in 0..state.corporations.len() {
        match state.corporation(&cur).and_then(|c| c.president()) {
            Some(ShareOwner::Corporation(c)) if !chain.contains(c) => {
                chain.push(c.clone());
                cur = c.clone();
            }
            _ => break,
        }
    }
    for target in market::operating_order(state) {
        if chain.contains(&target) || r.sold.contains(&target) {
            continue;
        }
        let Some(t) = state.corporation(&target) else {
            continue;
        };
        let Some(price) = t.price() else { continue };
        for from_pool in [false, true] {
            let owner = if from_pool {
                ShareOwner::Pool
            } else {
                ShareOwner::Ipo
            };
            let mut sizes = BTreeSet::new();
            for c in &t.certificates {
                if c.owner != owner {
                    continue;
                }
                if c.president && (!from_pool || (t.historical && phase_number(state) < 4)) {
                    continue;
                }
                sizes.insert(c.percent);
            }
            for percent in sizes {
                let cost = price.saturating_mul(i64::from(percent / t.unit_percent()));
                if cost > buyer.cash {
                    continue;
                }
                if controlled_percent(state, seat, &target) + percent
                    > rules.max_percent_controlled_by_one_player
                {
                    continue;
                }
                out.push(Action::BuyShares {
                    corporation: target.clone(),
                    from_pool,
                    percent,
                });
            }
        }
    }
    out
}

/// Everything `seat` may do now in the operating round.
pub fn legal(state: &State, seat: Seat) -> LegalActions {
    let mut out = LegalActions::default();
    let Some(r) = round(state) else { return out };
    let Some(sym) = r.current.clone() else {
        return out;
    };
    if controller(state, &sym) != Some(seat) {
        return out;
    }
    match r.step {
        OperatingStep::Track => {
            out.actions = legal_lays(state)
                .into_iter()
                .map(|l| Action::LayTile {
                    hex: l.hex,
                    tile: l.tile,
                    rotation: u32::from(l.rotation),
                })
                .collect();
            out.actions.push(Action::Pass);
        }
        OperatingStep::Token => {
            out.actions = legal_tokens(state)
                .into_iter()
                .map(|t| Action::PlaceToken {
                    hex: t.hex,
                    city: t.city,
                })
                .collect();
            out.actions.push(Action::Pass);
        }
        OperatingStep::Routes => out.run_routes = Some(trains_of(state, &sym)),
        OperatingStep::Dividend => {
            out.actions = vec![
                Action::Dividend { payout: true },
                Action::Dividend { payout: false },
            ];
        }
        OperatingStep::BuyToken => {
            out.token_purchases = token_purchases(state);
            out.actions = vec![Action::Pass];
        }
        OperatingStep::Trains => {
            let (actions, ranges) = train_options(state);
            out.actions = actions;
            out.train_purchases = ranges;
            if !must_buy_train(state, &sym) {
                out.actions.push(Action::Pass);
            }
        }
        OperatingStep::Shares => {
            out.actions = sell_options(state);
            out.actions.extend(share_options(state));
            out.actions.push(Action::Pass);
        }
    }
    // Dedupe (a lay may be traceable to several bases).
    let mut seen = Vec::new();
    out.actions.retain(|a| {
        if seen.contains(a) {
            false
        } else {
            seen.push(a.clone());
            true
        }
    });
    out
}

/// Applies an operating-round action (on a scratch copy by the caller).
///
/// Rejections: `NOT_YOUR_TURN` (not the operating corporation's controller), `UNSUPPORTED`
/// (routes/dividends with trains, the first 4-train, emergency money raising), `WRONG_STEP`
/// (an action of another step), `ILLEGAL_MOVE` (anything else not in [`legal`]).
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    let Some(r) = round(state).cloned() else {
        return Err(reject(
            RejectionCode::WrongStep,
            RULE,
            "No operating round.",
        ));
    };
    let Some(sym) = r.current.clone() else {
        return Err(reject(
            RejectionCode::WrongStep,
            RULE,
            "No corporation is operating.",
        ));
    };
    if controller(state, &sym) != Some(seat) {
        return Err(reject(
            RejectionCode::NotYourTurn,
            RULE,
            format!("Seat {seat} does not control {sym}, which is operating."),
        ));
    }
    let legal = legal(state, seat);
    let mut events = Vec::new();
    let listed = legal.actions.contains(action);
    match action {
        Action::Pass if listed => {
            events.push(Event::Passed {
                seat,
                automatic: false,
            });
            advance(state, &mut events);
        }
        Action::Pass if r.step == OperatingStep::Trains => {
            let (depot, _) = train_options(state);
            return Err(if depot.is_empty() {
                reject(
                    RejectionCode::Unsupported,
                    "1841 §14",
                    "Emergency money raising is not implemented in this build.",
                )
            } else {
                reject(
                    RejectionCode::IllegalMove,
                    "1841 §9.6",
                    format!("{sym} has a route but no train: it must buy one."),
                )
            });
        }
        Action::LayTile {
            hex,
            tile,
            rotation,
        } if listed => {
            let lay = legal_lays(state)
                .into_iter()
                .find(|l| &l.hex == hex && &l.tile == tile && u32::from(l.rotation) == *rotation)
                .ok_or_else(|| reject(RejectionCode::IllegalMove, "1841 §9.1", "lay"))?;
            lay_tile(state, &sym, &lay, &mut events);
        }
        Action::PlaceToken { hex, city } if listed => {
            if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == sym) {
                c.tokens.push(MapToken {
                    hex: hex.clone(),
                    city: *city,
                });
            }
            events.push(Event::TokenPlaced {
                corporation: sym.clone(),
                hex: hex.clone(),
                city: *city,
            });
            advance(state, &mut events);
        }
        Action::BuyTrain { train, from, price }
            if listed
                || legal.train_purchases.iter().any(|t| {
                    &t.train == train
                        && &t.from == from
                        && (t.min_price..=t.max_price).contains(price)
                }) =>
        {
            buy_train(state, &sym, train, from, *price, &mut events);
        }
        Action::SellShares {
            corporation,
            percent,
        } if listed => {
            sell_share(state, &sym, corporation, *percent, &mut events);
        }
        Action::BuyToken {
            hex,
            city,
            seller,
            price,
        } if legal.token_purchases.iter().any(|t| {
            &t.hex == hex
                && t.city == *city
                && &t.seller == seller
                && (t.min_price..=t.max_price).contains(price)
        }) =>
        {
            buy_token(state, &sym, hex, *city, seller, *price, &mut events);
            advance(state, &mut events);
        }
        Action::RunRoutes { routes } if r.step == OperatingStep::Routes => {
            let revenues = check_routes(state, &sym, routes)?;
            let revenue: i64 = revenues.iter().sum();
            events.push(Event::RoutesRun {
                corporation: sym.clone(),
                revenues,
                revenue,
            });
            if revenue > 0 {
                if let Some(r) = round_mut(state) {
                    r.revenue = revenue;
                    r.step = OperatingStep::Dividend;
                }
            } else {
                // 1841 §9.4: no revenue → withheld 0, one step left.
                move_left(state, &sym, 1, &mut events);
                if let Some(r) = round_mut(state) {
                    r.step = OperatingStep::BuyToken;
                }
            }
        }
        Action::Dividend { payout } if listed => {
            pay_dividend(state, &sym, r.revenue, *payout, &mut events);
            if let Some(r) = round_mut(state) {
                r.revenue = 0;
                r.step = OperatingStep::BuyToken;
            }
        }
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } if listed => {
            buy_share(state, &sym, corporation, *from_pool, *percent, &mut events);
            end_turn(state, &mut events);
        }
        _ => {
            let step_of = match action {
                Action::LayTile { .. } => Some(OperatingStep::Track),
                Action::PlaceToken { .. } => Some(OperatingStep::Token),
                Action::BuyTrain { .. } => Some(OperatingStep::Trains),
                Action::RunRoutes { .. } => Some(OperatingStep::Routes),
                Action::Dividend { .. } => Some(OperatingStep::Dividend),
                Action::BuyToken { .. } => Some(OperatingStep::BuyToken),
                Action::BuyShares { .. } | Action::SellShares { .. } => Some(OperatingStep::Shares),
                Action::Pass => Some(r.step),
                _ => None,
            };
            return Err(if step_of != Some(r.step) {
                reject(
                    RejectionCode::WrongStep,
                    RULE,
                    format!(
                        "{sym} is in its {} step; `{}` is not possible now.",
                        step_name(r.step),
                        action.kind_name()
                    ),
                )
            } else {
                reject(
                    RejectionCode::IllegalMove,
                    rule_of(r.step),
                    format!(
                        "`{}` is not a legal action of {sym} now.",
                        action.kind_name()
                    ),
                )
            });
        }
    }
    settle(state, &mut events);
    Ok(events)
}

fn rule_of(step: OperatingStep) -> &'static str {
    match step {
        OperatingStep::Track => "1841 §9.1",
        OperatingStep::Token => "1841 §9.2",
        OperatingStep::Routes => "1841 §9.3",
        OperatingStep::Dividend => "1841 §9.4",
        OperatingStep::BuyToken => "1841 §9.5",
        OperatingStep::Trains => "1841 §9.6",
        OperatingStep::Shares => "1841 §9.7",
    }
}

/// Lays a tile (1841 §9.1): the old tile returns to the supply, the cost goes to the bank,
/// tokens stay in their city.
fn lay_tile(state: &mut State, sym: &str, lay: &Lay, events: &mut Vec<Event>) {
    state.operations.tiles.insert(
        lay.hex.clone(),
        PlacedTile {
            tile: lay.tile.clone(),
            rotation: lay.rotation,
        },
    );
    if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == sym) {
        c.cash -= lay.cost;
    }
    state.bank_cash += lay.cost;
    // 1841 §9.1: tokens stay; where the new tile has fewer cities (yellow Firenze → green, a
    // single city with two slots) they move to its first city.
    let cities = track::hex_view(state, &lay.hex)
        .map_or(1, |v| v.nodes.iter().filter(|n| n.is_city()).count() as u32);
    for c in &mut state.corporations {
        for t in &mut c.tokens {
            if t.hex == lay.hex && t.city >= cities {
                t.city = 0;
            }
        }
    }
    if let Some(r) = round_mut(state) {
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
}

/// Buys a train (1841 §9.6); the first train of a type starts its phase and rusts older
/// trains (1841 §10).
fn buy_train(
    state: &mut State,
    sym: &str,
    train: &str,
    from: &str,
    price: i64,
    events: &mut Vec<Event>,
) {
    match from {
        "depot" => {
            let t = train_type(train).to_string();
            let first = state.operations.depot_sold.get(&t).copied().unwrap_or(0) == 0;
            *state.operations.depot_sold.entry(t.clone()).or_insert(0) += 1;
            state.bank_cash += price;
            if first {
                first_train(state, &t, events);
            }
        }
        "pool" => {
            state.operations.pool_trains.retain(|x| x != train);
            state.bank_cash += price;
        }
        seller => {
            if let Some(list) = state.operations.trains.get_mut(seller) {
                list.retain(|x| x != train);
            }
            if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == seller) {
                c.cash += price;
            }
        }
    }
    if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == sym) {
        c.cash -= price;
    }
    state
        .operations
        .trains
        .entry(sym.to_string())
        .or_default()
        .push(train.to_string());
    state.operations.trains.retain(|_, v| !v.is_empty());
    if let Some(r) = round_mut(state) {
        r.bought_train = true;
    }
    events.push(Event::TrainBought {
        corporation: sym.to_string(),
        train: train.to_string(),
        from: from.to_string(),
        price,
    });
}

/// First purchase of train type `t` (1841 §10): phase change and rusting.
fn first_train(state: &mut State, t: &str, events: &mut Vec<Event>) {
    let rules = data::ruleset(&state.options);
    if let Some(p) = rules
        .phases
        .iter()
        .find(|p| p.starts_with_first_train.as_deref() == Some(t))
    {
        state.phase = p.name.clone();
        events.push(Event::PhaseChanged {
            phase: p.name.clone(),
        });
    }
    let rusting: Vec<String> = rules
        .trains
        .iter()
        .filter(|x| x.rusted_by_first_purchase_of.as_deref() == Some(t))
        .map(|x| x.name.clone())
        .collect();
    if rusting.is_empty() {
        return;
    }
    let mut rusted = Vec::new();
    for list in state.operations.trains.values_mut() {
        list.retain(|id| {
            let r = rusting.iter().any(|x| x == train_type(id));
            if r {
                rusted.push(id.clone());
            }
            !r
        });
    }
    state.operations.pool_trains.retain(|id| {
        let r = rusting.iter().any(|x| x == train_type(id));
        if r {
            rusted.push(id.clone());
        }
        !r
    });
    state.operations.trains.retain(|_, v| !v.is_empty());
    if !rusted.is_empty() {
        state.operations.rusted.extend(rusted.iter().cloned());
        events.push(Event::TrainsRusted { trains: rusted });
    }
}

/// A corporation buys one certificate (1841 §9.7): IPO price to the target's treasury, pool
/// price to the bank.
fn buy_share(
    state: &mut State,
    buyer: &str,
    target: &str,
    from_pool: bool,
    percent: u32,
    events: &mut Vec<Event>,
) {
    let owner = if from_pool {
        ShareOwner::Pool
    } else {
        ShareOwner::Ipo
    };
    let Some(t) = state.corporations.iter_mut().find(|c| c.sym == target) else {
        return;
    };
    let Some(price) = t.price() else { return };
    let cost = price.saturating_mul(i64::from(percent / t.unit_percent()));
    let Some(idx) = t
        .certificates
        .iter()
        .position(|c| c.owner == owner && c.percent == percent && !c.president)
        .or_else(|| {
            t.certificates
                .iter()
                .position(|c| c.owner == owner && c.percent == percent)
        })
    else {
        return;
    };
    t.certificates[idx].owner = ShareOwner::Corporation(buyer.to_string());
    if from_pool {
        state.bank_cash += cost;
    } else {
        t.cash += cost;
    }
    if let Some(b) = state.corporations.iter_mut().find(|c| c.sym == buyer) {
        b.cash -= cost;
    }
    events.push(Event::CorporationBoughtShares {
        buyer: buyer.to_string(),
        corporation: target.to_string(),
        percent,
        from_pool,
        price: cost,
    });
}

/// Moves the current corporation to its next step (1841 §8).
fn advance(state: &mut State, events: &mut Vec<Event>) {
    let Some(r) = round(state) else { return };
    let next = match r.step {
        OperatingStep::Track => Some(OperatingStep::Token),
        OperatingStep::Token => Some(OperatingStep::Routes),
        OperatingStep::Routes => Some(OperatingStep::Dividend),
        OperatingStep::Dividend => Some(OperatingStep::BuyToken),
        OperatingStep::BuyToken => Some(OperatingStep::Trains),
        OperatingStep::Trains => Some(OperatingStep::Shares),
        OperatingStep::Shares => None,
    };
    match next {
        Some(s) => {
            if let Some(r) = round_mut(state) {
                r.step = s;
            }
        }
        None => end_turn(state, events),
    }
}

/// Skips steps without a legal action (18xx auto-skip), applies a corporation that does not
/// run (withholds nothing: price one step left, 1841 §9.4).
fn settle(state: &mut State, events: &mut Vec<Event>) {
    for _ in 0..10_000 {
        let Some(r) = round(state).cloned() else {
            return;
        };
        let Some(sym) = r.current.clone() else { return };
        let Some(seat) = controller(state, &sym) else {
            // Frozen mid-turn (cannot happen in the implemented steps): end the turn.
            end_turn(state, events);
            continue;
        };
        match r.step {
            OperatingStep::Track => {
                if legal_lays(state).is_empty() {
                    advance(state, events);
                } else {
                    return;
                }
            }
            OperatingStep::Token => {
                if legal_tokens(state).is_empty() {
                    advance(state, events);
                } else {
                    return;
                }
            }
            OperatingStep::Routes => {
                if trains_of(state, &sym).is_empty() || !route_available(state, &sym) {
                    // 1841 §9.4: a corporation that runs nothing withholds 0 and moves left.
                    events.push(Event::DidNotRun {
                        corporation: sym.clone(),
                    });
                    move_left(state, &sym, 1, events);
                    if let Some(r) = round_mut(state) {
                        r.step = OperatingStep::BuyToken;
                    }
                } else {
                    return;
                }
            }
            OperatingStep::Dividend => return,
            OperatingStep::BuyToken => {
                if has_unplaced_token(state, &sym) {
                    return;
                }
                advance(state, events);
            }
            OperatingStep::Trains | OperatingStep::Shares => {
                let l = legal(state, seat);
                if l.actions.iter().all(|a| *a == Action::Pass) && l.train_purchases.is_empty() {
                    if l.actions.is_empty() {
                        // Must buy but cannot: emergency money raising (not implemented).
                        return;
                    }
                    if r.step == OperatingStep::Shares {
                        events.push(Event::Passed {
                            seat,
                            automatic: true,
                        });
                    }
                    advance(state, events);
                } else {
                    return;
                }
            }
        }
    }
}

fn move_left(state: &mut State, sym: &str, times: u32, events: &mut Vec<Event>) {
    let Some(p) = state.corporation(sym).and_then(|c| c.share_price) else {
        return;
    };
    let (mut row, mut col) = (p.row, p.col);
    for _ in 0..times {
        (row, col) = market::left(row, col);
    }
    market::set_cell(state, sym, row, col);
    events.push(Event::SharePriceChanged {
        corporation: sym.to_string(),
        price: market::price_at(row, col).unwrap_or(0),
        row,
        col,
    });
}

/// Ends the current corporation's turn and starts the next one (or ends the round).
fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    let Some(sym) = current(state) else { return };
    if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == sym) {
        c.operated = true;
    }
    if let Some(r) = round_mut(state) {
        r.done.push(sym);
        r.current = None;
    }
    next_corporation(state, events);
}

/// Starts the next corporation in operating order that has not yet operated (1841 §8: the
/// order is re-read after every turn, so price changes re-sort the remainder). A frozen
/// corporation only moves left twice (1841 §7.4). After the last one: the next operating
/// round of the set, or the next stock round.
fn next_corporation(state: &mut State, events: &mut Vec<Event>) {
    loop {
        let Some(r) = round(state).cloned() else {
            return;
        };
        let next = market::operating_order(state)
            .into_iter()
            .find(|s| !r.done.contains(s));
        let Some(sym) = next else {
            end_round(state, events);
            return;
        };
        if controller(state, &sym).is_none() {
            move_left(state, &sym, 2, events);
            if let Some(r) = round_mut(state) {
                r.done.push(sym);
            }
            continue;
        }
        if let Some(r) = round_mut(state) {
            r.current = Some(sym.clone());
            r.step = OperatingStep::Track;
            r.laid_hexes.clear();
            r.used_bases.clear();
            r.bought_train = false;
            r.sold.clear();
        }
        events.push(Event::OperatingTurn { corporation: sym });
        return;
    }
}

fn end_round(state: &mut State, events: &mut Vec<Event>) {
    let Some(r) = round(state).cloned() else {
        return;
    };
    if r.number < r.total {
        begin(state, r.stock_round, r.number + 1, r.total, events);
    } else {
        super::stock_round::begin(state, r.stock_round + 1, events);
    }
}

/// Starts operating round `stock_round`.`number` of `total` (1841 §8) with the first
/// corporation in operating order.
pub fn begin(
    state: &mut State,
    stock_round: u32,
    number: u32,
    total: u32,
    events: &mut Vec<Event>,
) {
    state.round = Round::OperatingRound(OperatingRound {
        stock_round,
        number,
        total,
        ..OperatingRound::default()
    });
    events.push(Event::RoundStarted {
        name: format!("Operating Round {stock_round}.{number}"),
    });
    // Interpretation I13: with no corporation that can take a turn the round stays open with
    // nobody to act (no endless chain of empty rounds).
    let any = market::operating_order(state)
        .iter()
        .any(|s| controller(state, s).is_some());
    if !any {
        return;
    }
    next_corporation(state, events);
    settle(state, events);
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

/// Whether `kind` is counted against a train's capacity (1841 §9.3: cities, off-boards and
/// passes; towns and ports free).
pub fn counted(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::City | NodeKind::Offboard | NodeKind::Pass)
}

/// Validates a submitted route set of `sym` and returns each route's revenue (1841 §9.3):
/// every train of the corporation at most once; each route has `stops.len() - 1` hex chains
/// that follow existing track between consecutive stops, using no track segment twice among
/// all routes; no stop twice and no two off-boards of one group in a route; it passes through
/// no off-board, no city full of other corporations' tokens and not through yellow Milano
/// (terminal, which at most one route may use); it includes a city or pass with one of the
/// corporation's tokens and two stops counting toward the minimum; counted stops (cities,
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
    let mut trains_used = BTreeSet::new();
    let mut segments: BTreeSet<(String, usize)> = BTreeSet::new();
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
        let mut nodes = Vec::new();
        for st in &route.stops {
            let v = track::hex_view(state, &st.hex)
                .ok_or_else(|| bad(format!("route {ri}: no hex {}", st.hex)))?;
            let node = v
                .nodes
                .get(st.node as usize)
                .cloned()
                .ok_or_else(|| bad(format!("route {ri}: no node {}-{}", st.hex, st.node)))?;
            nodes.push((v, node));
        }
        let mut seen = BTreeSet::new();
        let mut groups = BTreeSet::new();
        for st in &route.stops {
            if !seen.insert(st.clone()) {
                return Err(bad(format!(
                    "route {ri}: {}-{} visited twice",
                    st.hex, st.node
                )));
            }
        }
        for (_, node) in &nodes {
            for g in &node.groups {
                if !groups.insert(g.clone()) {
                    return Err(bad(format!("route {ri}: off-board group {g} twice")));
                }
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
        for (st, (v, node)) in route.stops.iter().zip(&nodes).take(n - 1).skip(1) {
            let passable = match node.kind {
                NodeKind::Offboard => false,
                NodeKind::City | NodeKind::Pass => {
                    let city = track::node_city(&v.nodes, st.node as usize).unwrap_or(0);
                    let here = track::tokens_at(state, &st.hex, city);
                    here.iter().any(|s| s == sym) || (here.len() as u32) < node.slots
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
            let mut used = Vec::new();
            if chain.len() == 1 {
                let v = &nodes[ci].0;
                let idx = v.paths.iter().enumerate().position(|(pi, p)| {
                    !segments.contains(&(a.hex.clone(), pi))
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
                used.push((a.hex.clone(), idx, v.paths[idx].terminal));
            } else {
                let mut from = End::Node(a.node as usize);
                for (hi, hex) in chain.iter().enumerate() {
                    let v = track::hex_view(state, hex)
                        .ok_or_else(|| bad(format!("route {ri}: no hex {hex}")))?;
                    let printed = &m.hexes[hex];
                    let to: Option<u8> = chain.get(hi + 1).and_then(|next| {
                        printed
                            .neighbors
                            .iter()
                            .find(|(_, h)| *h == next)
                            .map(|(e, _)| *e)
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
                        !segments.contains(&(hex.clone(), pi))
                            && !used.iter().any(|(h, i, _)| h == hex && *i == pi)
                            && ((p.a == from && p.b == target) || (p.b == from && p.a == target))
                    });
                    let idx = idx.ok_or_else(|| {
                        bad(format!("route {ri}: no track in {hex} for hex chain {ci}"))
                    })?;
                    used.push((hex.clone(), idx, v.paths[idx].terminal));
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
                if !segments.insert((h, i)) {
                    return Err(bad(format!("route {ri}: track used twice")));
                }
            }
        }
        // Token, two-stop minimum, capacity, revenue.
        let has_token = route.stops.iter().zip(&nodes).any(|(st, (v, node))| {
            node.is_city()
                && track::node_city(&v.nodes, st.node as usize).is_some_and(|city| {
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

/// Pays out or withholds `revenue` (1841 §9.4): payout gives each holder (players, other
/// corporations, the corporation itself for its IPO shares) ceil(units × revenue ÷ units in
/// all) from the bank, pool shares pay nothing; the price moves right if the revenue exceeds
/// the share price, left when withheld, else stays.
fn pay_dividend(state: &mut State, sym: &str, revenue: i64, payout: bool, events: &mut Vec<Event>) {
    let Some(corp) = state.corporation(sym).cloned() else {
        return;
    };
    if !payout {
        state.bank_cash -= revenue;
        if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == sym) {
            c.cash += revenue;
        }
        events.push(Event::Withheld {
            corporation: sym.to_string(),
            revenue,
        });
        move_left(state, sym, 1, events);
        return;
    }
    let unit = i64::from(corp.unit_percent());
    let total_units = 100 / unit;
    let mut by_holder: Vec<(ShareOwner, i64)> = Vec::new();
    for c in &corp.certificates {
        if c.owner == ShareOwner::Pool {
            continue;
        }
        let units = i64::from(c.percent) / unit;
        match by_holder.iter_mut().find(|(o, _)| *o == c.owner) {
            Some(e) => e.1 += units,
            None => by_holder.push((c.owner.clone(), units)),
        }
    }
    let mut to_treasury = 0;
    for (owner, units) in by_holder {
        let amount = (units * revenue + total_units - 1) / total_units;
        state.bank_cash -= amount;
        match owner {
            ShareOwner::Player(s) => {
                if let Some(p) = state.players.get_mut(s as usize) {
                    p.cash += amount;
                }
            }
            ShareOwner::Corporation(holder) => {
                if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == holder) {
                    c.cash += amount;
                }
            }
            ShareOwner::Ipo => {
                to_treasury += amount;
                if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == sym) {
                    c.cash += amount;
                }
            }
            ShareOwner::Pool => {}
        }
    }
    events.push(Event::DividendPaid {
        corporation: sym.to_string(),
        revenue,
        to_treasury,
    });
    let price = corp.price().unwrap_or(0);
    if revenue > price
        && let Some(p) = corp.share_price
    {
        let (row, col) = market::right(state, corp.kind, p.row, p.col);
        market::set_cell(state, sym, row, col);
        events.push(Event::SharePriceChanged {
            corporation: sym.to_string(),
            price: market::price_at(row, col).unwrap_or(0),
            row,
            col,
        });
    } else if revenue == 0 {
        move_left(state, sym, 1, events);
    }
}

/// A step of the operating turn in plain words (1841 §8).
fn step_name(step: OperatingStep) -> &'static str {
    match step {
        OperatingStep::Track => "track",
        OperatingStep::Token => "token",
        OperatingStep::Routes => "routes",
        OperatingStep::Dividend => "dividend",
        OperatingStep::BuyToken => "token purchase",
        OperatingStep::Trains => "trains",
        OperatingStep::Shares => "corporate shares",
    }
}

/// A city (or pass) among the nodes a corporation's track reaches (1841 §9.2, §9.5).
struct ReachedCity {
    /// Hex, e.g. `F8`.
    hex: String,
    /// City index on the hex's tile.
    city: u32,
    /// Token slots of that city.
    slots: u32,
    /// City or pass.
    kind: NodeKind,
}

/// The cities among the reached nodes, in hex order.
fn reached_cities(state: &State, reach: &track::Reach) -> Vec<ReachedCity> {
    let mut out = Vec::new();
    for (hex, node) in &reach.nodes {
        let Some(v) = track::hex_view(state, hex) else {
            continue;
        };
        let Some(n) = v.nodes.get(*node) else {
            continue;
        };
        if !n.is_city() {
            continue;
        }
        let Some(city) = track::node_city(&v.nodes, *node) else {
            continue;
        };
        out.push(ReachedCity {
            hex: hex.clone(),
            city,
            slots: n.slots,
            kind: n.kind,
        });
    }
    out
}
