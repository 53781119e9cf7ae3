//! Structural validation of a 1841 state received from outside (the service decodes states
//! that callers send back). A state that passes can be handed to every rules function without
//! any risk of a panic; a state that fails is refused with the path of the first bad field.
//!
//! Checked: player count and seats (1841 §2), player order, cash never negative, money
//! conserved (bank + players + corporations = the bank total of 1841 §1), each concession of the ruleset held
//! at most once (players, bank, still for sale — 1841 §3.2), and the consistency of the
//! concession round (auction participants, sealed bids).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::data;
use super::map;
use super::market;
use super::setup::concessions_of;
use super::state::{
    Auction, OperatingRound, OperatingStep, PriceDrop, PurchaseItem, Round, ShareOwner, State,
    StockRound,
};
use super::track;
use crate::invariants::InvariantViolation;

/// Largest `next_market_arrival` accepted: far beyond any real game (one arrival per price
/// move), small enough that counting on can never overflow.
pub const MAX_MARKET_ARRIVAL: u64 = 1 << 40;

/// The first problem found: `path` is relative to the 1841 state (`players[2].seat`), e.g.
/// `concession_round.auction.to_act`. The shared [`InvariantViolation`] of every game.
pub type StateError = InvariantViolation;

fn err(path: impl Into<String>, message: impl Into<String>) -> StateError {
    StateError {
        path: path.into(),
        message: message.into(),
    }
}

/// Validates `state`. Errors: the first [`StateError`] found.
///
/// Operating rounds (1841 §8–§10): tiles fit their hexes within the manifest, train ids are
/// depot sales held once (corporation, pool or rusted), tokens sit on existing cities within
/// their slots, and the round's progress is consistent.
pub fn validate(state: &State) -> Result<(), StateError> {
    let rules = data::ruleset(&state.options);
    let n = u32::try_from(state.players.len()).map_err(|_| err("players", "too many players"))?;
    if n < rules.players.min || n > rules.players.max {
        return Err(err(
            "players",
            format!(
                "{n} players; these options allow {} to {}",
                rules.players.min, rules.players.max
            ),
        ));
    }
    for (i, p) in state.players.iter().enumerate() {
        if p.seat as usize != i {
            return Err(err(format!("players[{i}].seat"), format!("must be {i}")));
        }
        if p.cash < 0 {
            return Err(err(format!("players[{i}].cash"), "must not be negative"));
        }
        // 1841 §14: L.500 per bankruptcy; bounded far above any real game.
        if p.loan < 0 || p.loan > 100_000 {
            return Err(err(
                format!("players[{i}].loan"),
                "must be between 0 and L.100,000",
            ));
        }
        // Searched only for a bankrupt player.
        let holds = || {
            state
                .corporations
                .iter()
                .flat_map(|c| c.certificates.iter())
                .any(|c| c.owner == ShareOwner::Player(p.seat))
        };
        if p.bankrupt && (p.cash != 0 || !p.concessions.is_empty() || holds()) {
            return Err(err(
                format!("players[{i}].bankrupt"),
                "a player who resigned holds no cash, certificates or concessions",
            ));
        }
    }
    let mut order = state.player_order.clone();
    order.sort_unstable();
    if order != (0..n).collect::<Vec<_>>() {
        return Err(err("player_order", "must list every seat exactly once"));
    }
    if !data::ruleset(&state.options)
        .phases
        .iter()
        .any(|p| p.name == state.phase)
    {
        return Err(err(
            "phase",
            format!("`{}` is not a phase of these rules (1841 §10)", state.phase),
        ));
    }
    if state.next_market_arrival > MAX_MARKET_ARRIVAL {
        return Err(err(
            "next_market_arrival",
            format!("must be at most {MAX_MARKET_ARRIVAL}"),
        ));
    }
    // 1841 §13: the bank may go below 0 only once broken (the `bank` trigger, or a later one
    // recorded first).
    if state.bank_cash < 0 && state.game_end.trigger.is_none() {
        return Err(err(
            "bank_cash",
            "must not be negative unless a game-end trigger is recorded",
        ));
    }
    let groups = &rules.game_end.offboard_groups;
    for (i, g) in state.game_end.connected_offboards.iter().enumerate() {
        if !groups.contains_key(g) || state.game_end.connected_offboards[..i].contains(g) {
            return Err(err(
                format!("game_end.connected_offboards[{i}]"),
                "must be an off-board group of this map, listed once",
            ));
        }
    }
    if let Some(t) = &state.game_end.trigger
        && !rules.game_end.triggers.contains_key(t)
        && t != super::game_end::NO_PLAYER_CAN_ACT
        && t != super::game_end::TURN_LIMIT
    {
        return Err(err(
            "game_end.trigger",
            "must be `bank`, `stock_market`, `offboards`, `bankrupt`, `no_player_can_act` or `dnf`",
        ));
    }
    if state.game_end.ended && state.game_end.trigger.is_none() {
        return Err(err("game_end.ended", "an ended game has a trigger"));
    }
    check_corporations(state)?;
    let total = state
        .players
        .iter()
        .map(|p| p.cash)
        .chain(state.corporations.iter().map(|c| c.cash))
        .try_fold(state.bank_cash, |acc, c| acc.checked_add(c));
    if total != Some(rules.bank_cash_total) {
        return Err(err(
            "bank_cash",
            format!(
                "bank, players and corporations hold L.{} in all; the game has L.{} (1841 §1)",
                total.map_or_else(|| "overflow".to_string(), |t| t.to_string()),
                rules.bank_cash_total
            ),
        ));
    }

    // Every concession of the ruleset is held at most once.
    let allowed: BTreeSet<_> = concessions_of(&state.options).into_iter().collect();
    let mut seen = BTreeSet::new();
    // Field paths are built only for an error (`path` is called then).
    let mut hold = |path: &dyn Fn() -> String, c| {
        if !allowed.contains(&c) {
            return Err(err(
                path(),
                format!("{c} is not a concession of these rules"),
            ));
        }
        if !seen.insert(c) {
            return Err(err(path(), format!("{c} is held twice")));
        }
        Ok(())
    };
    for (i, p) in state.players.iter().enumerate() {
        for (j, &c) in p.concessions.iter().enumerate() {
            hold(&|| format!("players[{i}].concessions[{j}]"), c)?;
        }
    }
    for (j, &c) in state.bank_concessions.iter().enumerate() {
        hold(&|| format!("bank_concessions[{j}]"), c)?;
    }

    check_operations(state)?;
    match &state.round {
        Round::StockRound(sr) => check_stock_round(state, sr, n)?,
        Round::OperatingRound(or) => {
            if or.number == 0 || or.number > or.total {
                return Err(err(
                    "operating_round.number",
                    "must be between 1 and the number of operating rounds",
                ));
            }
            check_operating_round(state, or)?;
        }
        Round::ConcessionRound(cr) => {
            for (j, &c) in cr.remaining.iter().enumerate() {
                hold(&|| format!("concession_round.remaining[{j}]"), c)?;
            }
            check_concession_round_progress(state, cr)?;
            if cr.nominating_seat >= n {
                return Err(err(
                    "concession_round.nominating_seat",
                    "not a seat at the table",
                ));
            }
            if cr.consecutive_passes > n {
                return Err(err(
                    "concession_round.consecutive_passes",
                    "more passes than players",
                ));
            }
            if let Some(a) = &cr.auction {
                check_auction("concession_round.auction", a, state, &cr.remaining)?;
                check_open_auction("concession_round.auction", a)?;
            }
            for (i, a) in cr.pending_tie_auctions.iter().enumerate() {
                check_auction(
                    &format!("concession_round.pending_tie_auctions[{i}]"),
                    a,
                    state,
                    &cr.remaining,
                )?;
            }
            if state.options.version_1 && cr.sealed_bids.is_empty() {
                return Err(err(
                    "concession_round.sealed_bids",
                    "a Version 1 concession round has one sealed bid entry per seat (1841 §4.2)",
                ));
            }
            // Before the reveal every submitted bid is a commitment the bidder can pay:
            // 0 or at least the minimum bid per concession, the total within his cash.
            let revealed = cr.sealed_bids.iter().all(|b| b.submitted);
            let min_bid = data::ruleset(&state.options).concession_round.min_bid;
            for (i, b) in cr.sealed_bids.iter().enumerate() {
                if revealed || !b.submitted {
                    continue;
                }
                let path = format!("concession_round.sealed_bids[{i}].amounts");
                if b.amounts.len() != allowed.len() {
                    return Err(err(
                        path,
                        format!("one amount per concession ({})", allowed.len()),
                    ));
                }
                if b.amounts.iter().any(|&x| x != 0 && x < min_bid) {
                    return Err(err(
                        path,
                        format!("each amount is 0 or at least L.{min_bid} (1841 §4.2)"),
                    ));
                }
                let total = b.amounts.iter().try_fold(0i64, |t, &x| t.checked_add(x));
                let cash = state.players.get(i).map_or(0, |p| p.cash);
                if total.is_none_or(|t| t > cash) {
                    return Err(err(
                        path,
                        format!("the bids exceed the bidder's cash of L.{cash} (1841 §4.2)"),
                    ));
                }
            }
            if !cr.sealed_bids.is_empty() {
                if !state.options.version_1 {
                    return Err(err(
                        "concession_round.sealed_bids",
                        "sealed bids exist only with version_1",
                    ));
                }
                if cr.sealed_bids.len() != state.players.len() {
                    return Err(err("concession_round.sealed_bids", "one entry per seat"));
                }
                for (i, b) in cr.sealed_bids.iter().enumerate() {
                    if b.seat as usize != i {
                        return Err(err(
                            format!("concession_round.sealed_bids[{i}].seat"),
                            format!("must be {i}"),
                        ));
                    }
                    if b.amounts.len() > allowed.len() {
                        return Err(err(
                            format!("concession_round.sealed_bids[{i}].amounts"),
                            "more amounts than concessions",
                        ));
                    }
                    if b.amounts.iter().any(|&x| x < 0) {
                        return Err(err(
                            format!("concession_round.sealed_bids[{i}].amounts"),
                            "must not be negative",
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The concession round is the game's first round (1841 §4): it goes on while a concession
/// is for sale — it ends when the last one is sold or goes to the bank (§4.1 step 4, §4.2
/// step 3, §4.3), so `remaining` is never empty in it — and no train can have been bought
/// before it, so the game is in its first phase (§10: phase 2). (Review of issue #24,
/// finding E: both were accepted.)
fn check_concession_round_progress(
    state: &State,
    cr: &super::state::ConcessionRound,
) -> Result<(), StateError> {
    if cr.remaining.is_empty() {
        return Err(err(
            "concession_round.remaining",
            "empty: the concession round ends when no concession is left for sale (1841 §4.3)",
        ));
    }
    let first = data::ruleset(&state.options)
        .phases
        .first()
        .map(|p| p.name.as_str());
    if first.is_some_and(|f| f != state.phase) {
        return Err(err(
            "phase",
            format!(
                "phase `{}` in the concession round: the game begins in phase `{}` and no train \
                 is bought before the first stock round (1841 §4, §10)",
                state.phase,
                first.unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

/// The corporations: exactly the roster of the ruleset (1841 §3.3, §3.4), certificates of the
/// right sizes held by existing holders, unstarted corporations untouched, started ones on a
/// market cell (1841 §6).
/// The operating round's progress (1841 §8): the operating corporation is started and has
/// not yet operated; finished corporations are started and listed once; hexes built on this
/// turn exist.
fn check_operating_round(state: &State, or: &OperatingRound) -> Result<(), StateError> {
    check_events(state, or)?;
    check_drops(state, "operating_round.pending_drops", &or.pending_drops)?;
    if let Some(p) = or.split_slot
        && super::market::price_at(p.row, p.col).is_none()
    {
        return Err(err(
            "operating_round.split_slot",
            "not a cell of the stock market",
        ));
    }
    if !or.corporate_sales.is_empty() && !state.options.no_corporate_rebuy_after_sale() {
        return Err(err(
            "operating_round.corporate_sales",
            "only with the option no_corporate_rebuy_after_sale",
        ));
    }
    for (i, x) in or.corporate_sales.iter().enumerate() {
        if state.corporation(&x.seller).is_none() || state.corporation(&x.corporation).is_none() {
            return Err(err(
                format!("operating_round.corporate_sales[{i}]"),
                "must name corporations of these rules",
            ));
        }
    }
    let started = |sym: &str| state.corporation(sym).is_some_and(|c| c.started());
    if let Some(c) = &or.current {
        if !started(c) {
            return Err(err("operating_round.current", "not a started corporation"));
        }
        if or.done.contains(c) {
            return Err(err("operating_round.current", "has already operated"));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, d) in or.done.iter().enumerate() {
        if !started(d) || !seen.insert(d) {
            return Err(err(
                format!("operating_round.done[{i}]"),
                "must be a started corporation, listed once",
            ));
        }
    }
    for (i, c) in or.crowded.iter().enumerate() {
        let over = state.operations.trains.get(c).map_or(0, Vec::len) as u32
            > super::operating_round::train_limit(state, c);
        if !started(c) || !over || or.crowded[..i].contains(c) {
            return Err(err(
                format!("operating_round.crowded[{i}]"),
                "must be a started corporation over its train limit, listed once",
            ));
        }
    }
    if let Some(start) = &or.start {
        let ok = or.current.as_ref().is_some_and(|cur| {
            or.step == OperatingStep::Shares
                && state.corporation(&start.corporation).is_some_and(|c| {
                    !c.historical
                        && c.started()
                        && c.president() == Some(&ShareOwner::Corporation(cur.clone()))
                })
        });
        if !ok {
            return Err(err(
                "operating_round.start.corporation",
                "must be a started non-historical corporation whose president is the operating corporation, in its share step",
            ));
        }
    }
    let m = map::map(&state.options);
    for (i, h) in or.laid_hexes.iter().enumerate() {
        if !m.hexes.contains_key(h) {
            return Err(err(
                format!("operating_round.laid_hexes[{i}]"),
                "no such hex",
            ));
        }
    }
    if or.used_bases.len() > 8 || or.laid_hexes.len() > 8 {
        return Err(err("operating_round.used_bases", "too many tile actions"));
    }
    // Revenue awaits a dividend decision only in that step; bounded far above any route set.
    if or.revenue < 0
        || or.revenue > 100_000
        || (or.revenue != 0 && or.step != OperatingStep::Dividend)
    {
        return Err(err(
            "operating_round.revenue",
            "must be 0 outside the dividend step and a plausible amount in it",
        ));
    }
    Ok(())
}

/// Which tiles may stand on each hex of a map (1841 §9.1): a hex's first tiles and every
/// tile reachable from them through upgrades. Worked out once per map, so validating a state
/// does not walk the upgrade chains of every laid tile.
struct HexTiles {
    /// Words per hex.
    words: usize,
    /// By hex index ([`map::Map::hex_ids`]), `words` words: bit `t` for tile index `t`
    /// ([`map::Map::tile_list`]).
    bits: Vec<u64>,
}

impl HexTiles {
    fn new(m: &map::Map) -> Self {
        let tiles = m.tile_list.len();
        let words = tiles.div_ceil(64);
        let mut bits = vec![0u64; words * m.hex_list.len()];
        let mut reached = vec![false; tiles];
        let mut frontier = Vec::new();
        for (h, hex) in m.hex_list.iter().enumerate() {
            reached.fill(false);
            frontier.clear();
            frontier.extend(hex.first_tiles.iter().filter_map(|t| m.tile_lookup.get(t)));
            while let Some(t) = frontier.pop() {
                if !std::mem::replace(&mut reached[t], true) {
                    let row = &mut bits[h * words..(h + 1) * words];
                    row[t / 64] |= 1 << (t % 64);
                    frontier.extend(
                        m.tile_list[t]
                            .upgrades_to
                            .iter()
                            .filter_map(|u| m.tile_lookup.get(u)),
                    );
                }
            }
        }
        Self { words, bits }
    }

    /// Whether tile index `tile` may stand on hex index `hex`.
    fn fits(&self, hex: usize, tile: usize) -> bool {
        self.bits
            .get(hex * self.words + tile / 64)
            .is_some_and(|w| w & (1 << (tile % 64)) != 0)
    }
}

/// [`HexTiles`] of `m` (one of the three rulesets' maps), computed on first use.
fn hex_tiles(m: &map::Map) -> &'static HexTiles {
    static V2: OnceLock<HexTiles> = OnceLock::new();
    static V1: OnceLock<HexTiles> = OnceLock::new();
    static LITE: OnceLock<HexTiles> = OnceLock::new();
    let cell = match m.ruleset {
        "v1" => &V1,
        "lite" => &LITE,
        _ => &V2,
    };
    debug_assert!(matches!(m.ruleset, "v1" | "lite" | "v2"));
    cell.get_or_init(|| HexTiles::new(m))
}

/// Tiles, trains and tokens on the map (1841 §9, §10): tiles exist, fit their hex (a legal
/// first tile or an upgrade chain of one) within the manifest counts, rotations 0–5; train ids
/// `<type>-<n>` below the depot's sales, each in one place; tokens on existing cities, never
/// more than the slots.
fn check_operations<'a>(state: &'a State) -> Result<(), StateError> {
    let m = map::map(&state.options);
    let ops = &state.operations;
    let rules = data::ruleset(&state.options);
    let fits = hex_tiles(m);
    // Copies laid, by tile index (`Map::tile_list` order: tile-number order).
    let mut counts = vec![0u32; m.tile_list.len()];
    for (hex, p) in &ops.tiles {
        let path = || format!("operations.tiles.{hex}");
        let Some(h) = m.hex_index(hex) else {
            return Err(err(path(), "no such hex"));
        };
        let Some(t) = m.tile_lookup.get(&p.tile) else {
            return Err(err(path(), "no such tile"));
        };
        if p.rotation > 5 {
            return Err(err(path(), "rotation must be 0–5"));
        }
        // Reachable from a first tile through upgrades.
        if !fits.fits(h, t) {
            return Err(err(path(), "tile does not fit this hex"));
        }
        counts[t] += 1;
    }
    for (t, &n) in counts.iter().enumerate() {
        if n > m.tile_manifest.get(t).copied().unwrap_or(0) {
            return Err(err(
                "operations.tiles",
                format!("more copies of {} than exist", m.tile_list[t].id),
            ));
        }
    }
    let mut ids: BTreeSet<&str> = BTreeSet::new();
    let mut check_id = |path: &dyn Fn() -> String, id: &'a str| -> Result<(), StateError> {
        let (t, n) = id
            .split_once('-')
            .ok_or_else(|| err(path(), "train id must be <type>-<n>"))?;
        let n: u32 = n
            .parse()
            .map_err(|_| err(path(), "train id must be <type>-<n>"))?;
        if rules.train(t).is_none() || n >= ops.depot_sold.get(t).copied().unwrap_or(0) {
            return Err(err(path(), "train not sold by the depot"));
        }
        if !ids.insert(id) {
            return Err(err(path(), "train listed twice"));
        }
        Ok(())
    };
    for (t, n) in &ops.depot_sold {
        if rules.train(t).is_none_or(|d| *n > d.count) {
            return Err(err(
                format!("operations.depot_sold.{t}"),
                "unknown type or more than exist",
            ));
        }
    }
    for (sym, list) in &ops.trains {
        let Some(c) = state.corporation(sym) else {
            return Err(err(
                format!("operations.trains.{sym}"),
                "no such corporation",
            ));
        };
        if !c.started() && !list.is_empty() {
            return Err(err(format!("operations.trains.{sym}"), "not started"));
        }
        // At most the largest limit (4); a merger may briefly hold both corporations' trains
        // until the excess is discarded (1841 §9.6, §12.1).
        if list.len() > 8 {
            return Err(err(format!("operations.trains.{sym}"), "too many trains"));
        }
        for (i, id) in list.iter().enumerate() {
            check_id(&|| format!("operations.trains.{sym}[{i}]"), id)?;
        }
    }
    for (i, id) in ops.pool_trains.iter().enumerate() {
        check_id(&|| format!("operations.pool_trains[{i}]"), id)?;
    }
    for (i, id) in ops.rusted.iter().enumerate() {
        check_id(&|| format!("operations.rusted[{i}]"), id)?;
    }
    let sold: u32 = ops.depot_sold.values().sum();
    if ids.len() != sold as usize {
        return Err(err(
            "operations",
            "every train sold must be owned, pooled or rusted",
        ));
    }
    for (ci, c) in state.corporations.iter().enumerate() {
        for (ti, t) in c.tokens.iter().enumerate() {
            let path = || format!("corporations[{ci}].tokens[{ti}]");
            let Some(v) = track::hex_view(state, &t.hex) else {
                return Err(err(path(), "no such hex"));
            };
            let Some(node) = track::city_node(v.nodes, t.city) else {
                return Err(err(path(), "no such city"));
            };
            if track::token_count_at(state, &t.hex, t.city) as u32 > v.nodes[node].slots {
                return Err(err(path(), "more tokens than slots"));
            }
        }
    }
    Ok(())
}

/// A holder named in an event: a seat at the table, a corporation of these rules, the pool.
fn check_holder(state: &State, path: &str, h: &ShareOwner) -> Result<(), StateError> {
    let ok = match h {
        ShareOwner::Player(s) => (*s as usize) < state.players.len(),
        ShareOwner::Corporation(c) => state.corporation(c).is_some(),
        ShareOwner::Pool => true,
        ShareOwner::Ipo => false,
    };
    if ok {
        Ok(())
    } else {
        Err(err(
            path,
            "not a player, corporation or the pool of this game",
        ))
    }
}

fn check_holders(
    state: &State,
    path: &str,
    holders: &[ShareOwner],
    units: &[u32],
    units_needed: bool,
) -> Result<(), StateError> {
    // Every player, every corporation and the pool at most once.
    if holders.len() > state.players.len() + state.corporations.len() + 1 {
        return Err(err(format!("{path}.holders"), "too many holders"));
    }
    let mut seen = BTreeSet::new();
    for (i, h) in holders.iter().enumerate() {
        check_holder(state, &format!("{path}.holders[{i}]"), h)?;
        if !seen.insert(h) {
            return Err(err(format!("{path}.holders[{i}]"), "listed twice"));
        }
    }
    if units_needed && units.len() != holders.len() {
        return Err(err(
            format!("{path}.units"),
            "one entry per holder in this stage",
        ));
    }
    if units.iter().any(|u| *u > 20) {
        return Err(err(
            format!("{path}.units"),
            "at most 20 units (two majors)",
        ));
    }
    Ok(())
}

/// The corporate event in progress and the queued events (1841 §11, §12).
fn check_events(state: &State, or: &OperatingRound) -> Result<(), StateError> {
    use super::state::{CorporateEvent, MergerStage, SplitStage};
    let mut queued = BTreeSet::new();
    for (i, q) in or.queued_events.iter().enumerate() {
        if !queued.insert(format!("{q:?}")) {
            return Err(err(
                format!("operating_round.queued_events[{i}]"),
                "listed twice",
            ));
        }
    }
    let started = |sym: &str| state.corporation(sym).is_some_and(|c| c.started());
    let Some(ev) = or.event.as_deref() else {
        return Ok(());
    };
    match ev {
        CorporateEvent::Split(x) => {
            let path = "operating_round.event.split";
            let succ = &data::ruleset(&state.options).ferdinandea_split.successors;
            check_holder(state, &format!("{path}.president"), &x.president)?;
            let with_units = matches!(x.stage, SplitStage::Presidency | SplitStage::SingleShares);
            check_holders(state, path, &x.holders, &x.units, with_units)?;
            if x.next as usize > x.holders.len() {
                return Err(err(format!("{path}.next"), "beyond the holders"));
            }
            if !succ.iter().all(|s| started(s)) {
                return Err(err(path, "both successors are started during the split"));
            }
            let named = matches!(x.stage, SplitStage::Purchases | SplitStage::RepeatRound);
            if (named && !succ.contains(&x.corporation))
                || (!x.corporation.is_empty() && !succ.contains(&x.corporation))
            {
                return Err(err(format!("{path}.corporation"), "must be a successor"));
            }
            if x.purchases_closed.iter().any(|c| !succ.contains(c)) {
                return Err(err(format!("{path}.purchases_closed"), "successors only"));
            }
        }
        CorporateEvent::Merger(x) => {
            let path = "operating_round.event.merger";
            let exists = |s: &str| state.corporation(s).is_some();
            if !exists(&x.initiator) || !exists(&x.partner) || x.initiator == x.partner {
                return Err(err(
                    format!("{path}.initiator"),
                    "two different corporations of these rules",
                ));
            }
            let before = matches!(
                x.stage,
                MergerStage::Price | MergerStage::Corporation | MergerStage::Presidency
            );
            if before && !(started(&x.initiator) && started(&x.partner)) {
                return Err(err(
                    format!("{path}.stage"),
                    "the old corporations are started until the exchange",
                ));
            }
            if x.stage != MergerStage::Corporation && x.stage != MergerStage::Price {
                // Started once the assets moved (1841 §12.1: named, or the exchange done).
                let moved = x.stage != MergerStage::Presidency || x.moved.is_some();
                match state.corporation(&x.target) {
                    Some(t) if t.started() == moved => {}
                    _ => {
                        return Err(err(
                            format!("{path}.target"),
                            "an unstarted corporation before the assets move, started after it",
                        ));
                    }
                }
            }
            if let Some(moved) = &x.moved {
                check_moved_assets(state, path, x, moved)?;
            }
            if x.stage == MergerStage::Price && x.price_choices.len() != 2 {
                return Err(err(format!("{path}.price_choices"), "two prices"));
            }
            if x.stage != MergerStage::Price && x.cell.is_none() {
                return Err(err(format!("{path}.cell"), "set once the price is known"));
            }
            for (i, c) in x.cell.iter().chain(x.price_choices.iter()).enumerate() {
                if !market::exists(c.row, c.col) {
                    return Err(err(
                        format!("{path}.cell[{i}]"),
                        "not a cell of the stock market",
                    ));
                }
            }
            let with_units = matches!(x.stage, MergerStage::Presidency | MergerStage::OddShares);
            check_holders(state, path, &x.holders, &x.units, with_units)?;
            if x.next as usize > 2 * x.holders.len() {
                return Err(err(format!("{path}.next"), "beyond the holders"));
            }
            if let Some(p) = &x.president {
                check_holder(state, &format!("{path}.president"), p)?;
            }
            check_pass2(path, x)?;
            // At most one two-city tile per hex, each of the new corporation's hexes
            // (1841 §12.1), and only until the choice is made.
            let two_city_ok = x.two_city.len() <= 4
                && (x.two_city.is_empty()
                    || matches!(x.stage, MergerStage::OddShares | MergerStage::TwoCityTile))
                && x.two_city.iter().enumerate().all(|(i, t)| {
                    !x.two_city[..i].iter().any(|u| u.hex == t.hex)
                        && state
                            .corporation(&x.target)
                            .is_some_and(|c| c.tokens.contains(t))
                });
            if !two_city_ok {
                return Err(err(
                    format!("{path}.two_city"),
                    "tokens of the new corporation, one per hex, before the token stage",
                ));
            }
            if x.decider.is_some_and(|s| s as usize >= state.players.len()) {
                return Err(err(format!("{path}.decider"), "a seat of this game"));
            }
            if x.token_count > 5
                || x.tokens_min_removal > x.tokens_max_removal
                || x.tokens_max_removal > 10
            {
                return Err(err(
                    format!("{path}.token_count"),
                    "at most 5 tokens, removal bounds min ≤ max",
                ));
            }
        }
        CorporateEvent::Transformation(x) => {
            let path = "operating_round.event.transformation";
            // Stage 5: the compulsory second token by emergency money raising (1841 §12.2).
            if !started(&x.major) || !(1..=5).contains(&x.stage) {
                return Err(err(format!("{path}.major"), "a started major, stage 1–5"));
            }
            check_holders(state, path, &x.holders, &[], false)?;
            if x.next as usize > x.holders.len() {
                return Err(err(format!("{path}.next"), "beyond the holders"));
            }
            if x.decider.is_some_and(|s| s as usize >= state.players.len()) {
                return Err(err(format!("{path}.decider"), "a seat of this game"));
            }
        }
    }
    Ok(())
}

/// The odd-share answers of a merger's sweep over odd shares (1841 §12.1 pass 2, R4;
/// `Merger::pass2`): each given by a holder of the merger's list, once. Errors name
/// `operating_round.event.merger.pass2[i]`.
fn check_pass2(path: &str, x: &super::state::Merger) -> Result<(), StateError> {
    if x.pass2.len() > x.holders.len() {
        return Err(err(
            format!("{path}.pass2"),
            "at most one answer per holder",
        ));
    }
    for (i, (h, _)) in x.pass2.iter().enumerate() {
        let p = format!("{path}.pass2[{i}]");
        if !x.holders.contains(h) {
            return Err(err(p, "a holder of the merger"));
        }
        if x.pass2[..i].iter().any(|(g, _)| g == h) {
            return Err(err(p, "one answer per holder"));
        }
    }
    Ok(())
}

/// A voluntary merger's record of the assets moved to its new corporation (1841 §12.1), so
/// that taking it back cannot create or duplicate anything: only in the presidency stage of
/// a major merger; the decider a seat; the recorded trains are now the new corporation's
/// or in the pool (discarded), and the new corporation holds no others; the recorded
/// certificates exist and were the old corporations'; cash not negative; the market arrival
/// counter not ahead.
fn check_moved_assets(
    state: &State,
    path: &str,
    x: &super::state::Merger,
    moved: &super::state::MovedAssets,
) -> Result<(), StateError> {
    let path = format!("{path}.moved");
    let major = state
        .corporation(&x.initiator)
        .is_some_and(|c| c.kind == super::state::CorporationKind::Major);
    if x.stage != super::state::MergerStage::Presidency || !major {
        return Err(err(path, "only in the presidency stage of a major merger"));
    }
    if moved
        .decider
        .is_some_and(|s| s as usize >= state.players.len())
    {
        return Err(err(format!("{path}.decider"), "a seat of this game"));
    }
    let recorded: Vec<&String> = moved
        .initiator_trains
        .iter()
        .chain(&moved.partner_trains)
        .collect();
    let unique: BTreeSet<&String> = recorded.iter().copied().collect();
    let held = state.operations.trains.get(&x.target);
    let placed = |t: &String| {
        held.is_some_and(|l| l.contains(t)) || state.operations.pool_trains.contains(t)
    };
    if unique.len() != recorded.len()
        || !recorded.iter().all(|t| placed(t))
        || held.is_some_and(|l| l.iter().any(|t| !unique.contains(t)))
    {
        return Err(err(
            format!("{path}.initiator_trains"),
            "the old corporations' trains, each now the new corporation's or in the pool",
        ));
    }
    let olds = [
        ShareOwner::Corporation(x.initiator.clone()),
        ShareOwner::Corporation(x.partner.clone()),
    ];
    for (i, c) in moved.certificates.iter().enumerate() {
        let exists = state
            .corporation(&c.corporation)
            .is_some_and(|k| (c.index as usize) < k.certificates.len());
        if !exists || !olds.contains(&c.owner) {
            return Err(err(
                format!("{path}.certificates[{i}]"),
                "a certificate of these rules, held by an old corporation before",
            ));
        }
    }
    if moved.initiator_cash < 0
        || moved.partner_cash < 0
        || moved.next_market_arrival > state.next_market_arrival
    {
        return Err(err(
            path,
            "cash not negative, the arrival counter not ahead of the state's",
        ));
    }
    Ok(())
}

fn check_corporations(state: &State) -> Result<(), StateError> {
    let roster = super::corporation::roster(&state.options);
    if state.corporations.len() != roster.len() {
        return Err(err(
            "corporations",
            format!(
                "{} corporations; these rules have {}",
                state.corporations.len(),
                roster.len()
            ),
        ));
    }
    let n = state.players.len() as u32;
    // A corporation of these rules: a roster symbol (found by its index, not a set built here).
    let is_roster = |sym: &str| super::corporation::roster_index(&state.options, sym).is_some();
    for (i, (c, fresh)) in state.corporations.iter().zip(roster).enumerate() {
        // Field paths are built only for an error.
        let path = |field: &str| format!("corporations[{i}]{field}");
        if c.sym != fresh.sym || c.kind != fresh.kind || c.historical != fresh.historical {
            return Err(err(
                path(".sym"),
                format!("must be {} ({:?})", fresh.sym, fresh.kind),
            ));
        }
        if c.certificates.len() != fresh.certificates.len() {
            return Err(err(
                path(".certificates"),
                format!("{} has {} certificates", c.sym, fresh.certificates.len()),
            ));
        }
        for (j, (cert, f)) in c.certificates.iter().zip(&fresh.certificates).enumerate() {
            let cpath = |field: &str| format!("corporations[{i}].certificates[{j}]{field}");
            if cert.percent != f.percent || cert.president != f.president {
                return Err(err(
                    cpath(""),
                    format!(
                        "must be a {}% {}certificate",
                        f.percent,
                        if f.president { "president's " } else { "" }
                    ),
                ));
            }
            match &cert.owner {
                ShareOwner::Player(s) if *s >= n => {
                    return Err(err(cpath(".owner"), "not a seat at the table"));
                }
                ShareOwner::Corporation(o) if !is_roster(o) || *o == c.sym => {
                    return Err(err(
                        cpath(".owner"),
                        "not another corporation of these rules",
                    ));
                }
                _ => {}
            }
        }
        if c.cash < 0 {
            return Err(err(path(".cash"), "must not be negative"));
        }
        if c.closed && (!c.historical || c.started()) {
            return Err(err(
                path(".closed"),
                "only an unstarted historical corporation is closed (1841 §11, §12)",
            ));
        }
        if c.ipo_first_share_ordinary && !c.closed {
            return Err(err(
                path(".ipo_first_share_ordinary"),
                "only a closed corporation has it (interpretation I35)",
            ));
        }
        match c.share_price {
            None => {
                if c.certificates.iter().any(|x| x.owner != ShareOwner::Ipo)
                    || c.cash != 0
                    || !c.tokens.is_empty()
                    || c.tokens_total != 0
                    || c.operated
                {
                    return Err(err(
                        path(".share_price"),
                        "an unstarted corporation has no holders, cash, tokens or history",
                    ));
                }
            }
            Some(p) => {
                if !market::exists(p.row, p.col) {
                    return Err(err(path(".share_price"), "not a cell of the stock market"));
                }
                if p.arrival >= state.next_market_arrival {
                    return Err(err(
                        path(".share_price.arrival"),
                        "must be below next_market_arrival",
                    ));
                }
                // 1841 §12.4: during the split's presidency choice the successors' president's
                // certificates wait in their IPOs.
                let choosing = matches!(
                    &state.round,
                    Round::OperatingRound(OperatingRound {
                        event: Some(ev),
                        ..
                    }) if matches!(&**ev, super::state::CorporateEvent::Split(x) if x.stage
                        == super::state::SplitStage::Presidency)
                        && data::ruleset(&state.options)
                            .ferdinandea_split
                            .successors
                            .contains(&c.sym)
                );
                // 1841 §12.1: a merger's new corporation has its assets before its president.
                let claiming = matches!(
                    &state.round,
                    Round::OperatingRound(OperatingRound {
                        event: Some(ev),
                        ..
                    }) if matches!(&**ev, super::state::CorporateEvent::Merger(m)
                        if m.target == c.sym && m.moved.is_some())
                );
                // 1841 §12.3, FAQ-R4: an unclaimed SFLi's certificate waits in its IPO until
                // the odd shares are exchanged (a holder of 20% takes it, else the pool); so
                // does a merger's whose holder of 30% chose a full share for his odd one
                // (§12.1: the first holder of 20% presides, R4).
                let odd_shares = matches!(
                    &state.round,
                    Round::OperatingRound(OperatingRound {
                        event: Some(ev),
                        ..
                    }) if matches!(&**ev, super::state::CorporateEvent::Merger(m)
                        if m.target == c.sym && m.president.is_none()
                            && (m.tuscan || m.pass2.iter().any(|(_, x)| {
                                *x == super::action::OddShareChoice::FullShare
                            }))
                            && m.stage == super::state::MergerStage::OddShares)
                );
                if c.president() == Some(&ShareOwner::Ipo) && !choosing && !claiming && !odd_shares
                {
                    return Err(err(
                        path(".certificates[0].owner"),
                        "a started corporation's president's certificate is not in its IPO",
                    ));
                }
            }
        }
        // 1841 §12.1: while the president removes the surplus after a merger the new
        // corporation may have both old corporations' map tokens (at most 10).
        let removing = matches!(
            &state.round,
            Round::OperatingRound(OperatingRound {
                event: Some(ev),
                ..
            }) if matches!(&**ev, super::state::CorporateEvent::Merger(m) if m.target == c.sym)
        );
        let cap = if removing { 10 } else { 5 };
        if c.tokens.len() > c.tokens_total as usize || c.tokens_total > cap {
            return Err(err(
                path(".tokens_total"),
                "at least the tokens on the map and at most 5",
            ));
        }
    }
    Ok(())
}

/// Pending price drops (FAQ-Q2): only with `price_drops_lowest_first`, each a started
/// corporation listed once with 1 to 20 rows.
fn check_drops(state: &State, path: &str, drops: &[PriceDrop]) -> Result<(), StateError> {
    if !drops.is_empty() && !state.options.price_drops_lowest_first() {
        return Err(err(path, "only with the option price_drops_lowest_first"));
    }
    for (i, d) in drops.iter().enumerate() {
        let started = state
            .corporation(&d.corporation)
            .is_some_and(|c| c.started());
        if !started
            || d.rows == 0
            || d.rows > 20
            || drops[..i].iter().any(|x| x.corporation == d.corporation)
        {
            return Err(err(
                format!("{path}[{i}]"),
                "a started corporation listed once, 1 to 20 rows",
            ));
        }
    }
    Ok(())
}

fn check_stock_round(state: &State, sr: &StockRound, n: u32) -> Result<(), StateError> {
    check_drops(state, "stock_round.pending_drops", &sr.pending_drops)?;
    for (field, s) in [
        ("priority_seat", Some(sr.priority_seat)),
        ("current_seat", Some(sr.current_seat)),
        ("last_to_act", sr.last_to_act),
    ] {
        if s.is_some_and(|s| s >= n) {
            return Err(err(
                format!("stock_round.{field}"),
                "not a seat at the table",
            ));
        }
    }
    if sr.number == 0 {
        return Err(err("stock_round.number", "stock rounds count from 1"));
    }
    if sr.consecutive_passes > n {
        return Err(err(
            "stock_round.consecutive_passes",
            "more passes than players",
        ));
    }
    for (i, s) in sr.sold.iter().enumerate() {
        if s.seat >= n {
            return Err(err(
                format!("stock_round.sold[{i}].seat"),
                "not a seat at the table",
            ));
        }
        if state.corporation(&s.corporation).is_none() {
            return Err(err(
                format!("stock_round.sold[{i}].corporation"),
                "not a corporation of these rules",
            ));
        }
    }
    if let Some(start) = &sr.start {
        let ok = state.corporation(&start.corporation).is_some_and(|c| {
            c.started() && c.president() == Some(&ShareOwner::Player(sr.current_seat))
        });
        if !ok {
            return Err(err(
                "stock_round.start.corporation",
                "must be a started corporation whose president is the current seat",
            ));
        }
    }
    // 1841 §15.3: purchase offers between players, made by the seat on turn.
    if sr.offer.is_some() || !sr.declined_offers.is_empty() {
        if !state.options.p2p_purchases {
            return Err(err(
                "stock_round.offer",
                "purchase offers need the p2p_purchases option",
            ));
        }
        if sr.offer.is_some() && sr.start.is_some() {
            return Err(err(
                "stock_round.offer",
                "no offer while a corporation is being started",
            ));
        }
    }
    let offers = sr
        .offer
        .iter()
        .map(|o| ("stock_round.offer".to_string(), o))
        .chain(
            sr.declined_offers
                .iter()
                .enumerate()
                .map(|(i, o)| (format!("stock_round.declined_offers[{i}]"), o)),
        );
    for (path, o) in offers {
        if o.buyer != sr.current_seat {
            return Err(err(format!("{path}.buyer"), "must be the current seat"));
        }
        if o.seller >= n || o.seller == o.buyer {
            return Err(err(
                format!("{path}.seller"),
                "must be another seat at the table",
            ));
        }
        if o.price < 1 {
            return Err(err(format!("{path}.price"), "at least L.1"));
        }
        match &o.item {
            PurchaseItem::Shares {
                corporation,
                percent,
            } => {
                let Some(c) = state.corporation(corporation) else {
                    return Err(err(
                        format!("{path}.item.corporation"),
                        "not a corporation of these rules",
                    ));
                };
                if *percent == 0 || !percent.is_multiple_of(c.unit_percent()) {
                    return Err(err(
                        format!("{path}.item.percent"),
                        "a positive multiple of the corporation's unit",
                    ));
                }
            }
            PurchaseItem::Concession { concession } => {
                if !concession
                    .parse()
                    .is_ok_and(|c| concessions_of(&state.options).contains(&c))
                {
                    return Err(err(
                        format!("{path}.item.concession"),
                        "not a concession of these rules",
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The auction being bid on now (1841 §4.1, FAQ-C1): at least two bidders (with one left
/// the auction is decided at once), and the seat to act is the bidder after the high bidder
/// — never the high bidder itself, who cannot raise its own bid. Such states passed before
/// issue #24.
fn check_open_auction(path: &str, a: &Auction) -> Result<(), StateError> {
    if a.bidders.len() < 2 {
        return Err(err(
            format!("{path}.bidders"),
            "an open auction has at least two bidders (with one left it is decided)",
        ));
    }
    let after_high = a
        .bidders
        .iter()
        .position(|s| *s == a.high_bidder)
        .map(|i| a.bidders[(i + 1) % a.bidders.len()]);
    if after_high != Some(a.to_act) {
        return Err(err(
            format!("{path}.to_act"),
            format!(
                "must be the bidder after the high bidder (seat {}), not seat {}",
                a.high_bidder, a.to_act
            ),
        ));
    }
    Ok(())
}

fn check_auction(
    path: &str,
    a: &Auction,
    state: &State,
    remaining: &[super::Concession],
) -> Result<(), StateError> {
    let n = state.players.len() as u32;
    if !remaining.contains(&a.concession) {
        return Err(err(
            format!("{path}.concession"),
            format!("{} is not for sale", a.concession),
        ));
    }
    if a.bidders.is_empty() {
        return Err(err(
            format!("{path}.bidders"),
            "an auction has at least one bidder",
        ));
    }
    let mut distinct = BTreeSet::new();
    for (i, &s) in a.bidders.iter().enumerate() {
        if s >= n || !distinct.insert(s) {
            return Err(err(
                format!("{path}.bidders[{i}]"),
                "not a seat at the table, or listed twice",
            ));
        }
    }
    for (field, s) in [
        ("nominator", a.nominator),
        ("high_bidder", a.high_bidder),
        ("to_act", a.to_act),
    ] {
        if s >= n {
            return Err(err(format!("{path}.{field}"), "not a seat at the table"));
        }
    }
    if !a.bidders.contains(&a.to_act) {
        return Err(err(format!("{path}.to_act"), "must be one of the bidders"));
    }
    if !a.bidders.contains(&a.high_bidder) {
        return Err(err(
            format!("{path}.high_bidder"),
            "must be one of the bidders",
        ));
    }
    if a.high_bid < 0 {
        return Err(err(format!("{path}.high_bid"), "must not be negative"));
    }
    // The standing high bid is a commitment its bidder can pay (1841 §4.1: a bid never
    // exceeds the bidder's cash).
    let cash = state
        .players
        .get(a.high_bidder as usize)
        .map_or(0, |p| p.cash);
    if a.high_bid > cash {
        return Err(err(
            format!("{path}.high_bid"),
            format!(
                "L.{} exceeds the high bidder's cash of L.{cash} (1841 §4.1)",
                a.high_bid
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::{G1841, Options};

    fn fresh() -> State {
        G1841::setup(&Options::default(), 4, 0).unwrap()
    }

    #[test]
    fn s1_fresh_states_are_valid() {
        for lite in [false, true] {
            for version_1 in [false, true] {
                let o = Options {
                    lite,
                    version_1,
                    ..Options::default()
                };
                let s = G1841::setup(&o, 4, 0).unwrap();
                assert_eq!(validate(&s), Ok(()));
            }
        }
    }

    #[test]
    fn s1_money_must_be_conserved() {
        let mut s = fresh();
        s.players[1].cash += 1;
        let e = validate(&s).unwrap_err();
        assert_eq!(e.path, "bank_cash");
        assert!(e.message.contains("L.14401"), "{}", e.message);
    }

    #[test]
    fn s3_2_a_concession_is_held_once() {
        let mut s = fresh();
        let c = match &s.round {
            Round::ConcessionRound(r) => r.remaining[0],
            _ => unreachable!(),
        };
        s.players[2].concessions.push(c);
        let e = validate(&s).unwrap_err();
        assert_eq!(e.path, "concession_round.remaining[0]");
    }

    #[test]
    fn player_order_must_be_a_permutation() {
        let mut s = fresh();
        s.player_order = vec![0, 0, 1, 2];
        assert_eq!(validate(&s).unwrap_err().path, "player_order");
    }

    /// 1841 §4.1 (issue #24): in the open auction the bidder after the high bidder acts, never
    /// the high bidder itself; an auction with one bidder left is decided, not open.
    #[test]
    fn s4_1_the_high_bidder_is_not_the_one_to_act() {
        let mut s = fresh();
        <G1841 as crate::Game>::apply(
            &mut s,
            0,
            &crate::g1841::Action::Bid {
                concession: "SFTG".into(),
                price: 20,
            },
        )
        .unwrap();
        assert_eq!(validate(&s), Ok(()));
        let mut high_acts = s.clone();
        if let Round::ConcessionRound(cr) = &mut high_acts.round {
            let a = cr.auction.as_mut().unwrap();
            assert_ne!(a.to_act, a.high_bidder);
            a.to_act = a.high_bidder;
        }
        let e = validate(&high_acts).unwrap_err();
        assert_eq!(e.path, "concession_round.auction.to_act");
        assert!(e.message.contains("after the high bidder"), "{}", e.message);
        let mut lone = s.clone();
        if let Round::ConcessionRound(cr) = &mut lone.round {
            let a = cr.auction.as_mut().unwrap();
            a.bidders = vec![a.high_bidder];
            a.to_act = a.high_bidder;
        }
        assert_eq!(
            validate(&lone).unwrap_err().path,
            "concession_round.auction.bidders"
        );
    }

    /// 1841 §4.3, §10 (review of issue #24, finding E): a concession round with nothing left
    /// for sale has ended, and no phase but the first is possible in it.
    #[test]
    fn s4_3_a_concession_round_has_concessions_left_and_is_in_the_first_phase() {
        let s = fresh();
        assert!(matches!(s.round, Round::ConcessionRound(_)));
        assert_eq!(s.phase, "2");
        let mut empty = s.clone();
        if let Round::ConcessionRound(cr) = &mut empty.round {
            // The concessions go to the bank, as at the end of the round: still conserved.
            empty.bank_concessions.append(&mut cr.remaining);
            empty.bank_concessions.sort();
        }
        let e = validate(&empty).unwrap_err();
        assert_eq!(e.path, "concession_round.remaining");
        assert!(e.message.contains("1841 §4.3"), "{}", e.message);
        for phase in ["3", "8"] {
            let mut later = s.clone();
            later.phase = phase.into();
            let e = validate(&later).unwrap_err();
            assert_eq!(e.path, "phase", "{phase}");
            assert!(
                e.message
                    .contains(&format!("phase `{phase}` in the concession round")),
                "{}",
                e.message
            );
        }
        // Version 1 (sealed bids) alike.
        let o = Options {
            version_1: true,
            ..Options::default()
        };
        let mut v1 = G1841::setup(&o, 4, 0).unwrap();
        assert_eq!(validate(&v1), Ok(()));
        v1.phase = "8".into();
        assert_eq!(validate(&v1).unwrap_err().path, "phase");
    }

    /// 1841 §4.1: a standing high bid its bidder cannot pay is refused (it would make a later
    /// purchase drive his cash negative).
    #[test]
    fn s4_1_high_bid_within_the_high_bidders_cash() {
        let mut s = fresh();
        <G1841 as crate::Game>::apply(
            &mut s,
            0,
            &crate::g1841::Action::Bid {
                concession: "SFTG".into(),
                price: 20,
            },
        )
        .unwrap();
        assert_eq!(validate(&s), Ok(()));
        if let Round::ConcessionRound(cr) = &mut s.round {
            cr.auction.as_mut().unwrap().high_bid = 5000;
        }
        let e = validate(&s).unwrap_err();
        assert_eq!(e.path, "concession_round.auction.high_bid");
        assert!(e.message.contains("L.840"), "{}", e.message);
    }

    /// 1841 §4.2: before the reveal, submitted sealed bids are 0 or ≥ L.20 each, one per
    /// concession, and total at most the bidder's cash (no overflow either).
    #[test]
    fn s4_2_submitted_sealed_bids_are_payable_commitments() {
        let o = Options {
            version_1: true,
            ..Options::default()
        };
        let base = G1841::setup(&o, 4, 0).unwrap();
        let with_bid = |amounts: Vec<i64>| {
            let mut s = base.clone();
            if let Round::ConcessionRound(cr) = &mut s.round {
                cr.sealed_bids[0].submitted = true;
                cr.sealed_bids[0].amounts = amounts;
            }
            validate(&s)
        };
        assert_eq!(with_bid(vec![30, 0, 0, 0, 0, 0, 0, 0]), Ok(()));
        assert!(
            with_bid(vec![5000, 0, 0, 0, 0, 0, 0, 0])
                .unwrap_err()
                .message
                .contains("cash of L.840")
        );
        assert!(
            with_bid(vec![10, 0, 0, 0, 0, 0, 0, 0])
                .unwrap_err()
                .message
                .contains("at least L.20")
        );
        assert!(
            with_bid(vec![30])
                .unwrap_err()
                .message
                .contains("one amount per concession")
        );
        let huge = 4_611_686_018_427_387_904;
        assert_eq!(
            with_bid(vec![huge; 8]).unwrap_err().path,
            "concession_round.sealed_bids[0].amounts"
        );
        let mut s = base.clone();
        if let Round::ConcessionRound(cr) = &mut s.round {
            cr.sealed_bids.clear();
        }
        assert_eq!(
            validate(&s).unwrap_err().path,
            "concession_round.sealed_bids"
        );
    }

    #[test]
    fn s10_phase_must_exist_and_the_arrival_counter_is_bounded() {
        let mut s = fresh();
        s.phase = "9".into();
        assert_eq!(validate(&s).unwrap_err().path, "phase");
        let mut s = fresh();
        s.next_market_arrival = u64::MAX;
        assert_eq!(validate(&s).unwrap_err().path, "next_market_arrival");
    }

    /// 1841 §9.1, §9.6: operating material is checked — a tile that does not fit its hex, a
    /// train the depot never sold, a train in two places.
    #[test]
    fn s9_operations_are_checked() {
        use crate::g1841::state::PlacedTile;
        let mut s = fresh();
        s.operations.tiles.insert(
            "F16".into(),
            PlacedTile {
                tile: "9".into(),
                rotation: 0,
            },
        );
        assert_eq!(validate(&s).unwrap_err().path, "operations.tiles.F16");
        s.operations.tiles.insert(
            "F16".into(),
            PlacedTile {
                tile: "601".into(),
                rotation: 0,
            },
        );
        assert_eq!(validate(&s), Ok(()));
        s.operations.pool_trains.push("2-0".into());
        assert_eq!(validate(&s).unwrap_err().path, "operations.pool_trains[0]");
        s.operations.depot_sold.insert("2".into(), 1);
        assert_eq!(validate(&s), Ok(()));
        s.operations.rusted.push("2-0".into());
        assert_eq!(validate(&s).unwrap_err().path, "operations.rusted[0]");
    }

    /// The walk of the upgrade chains that `HexTiles` replaces: the tiles reachable from the
    /// hex's first tiles.
    fn fits_by_walking(m: &map::Map, hex: &str, tile: &str) -> bool {
        let mut frontier: Vec<&str> = m.hexes[hex]
            .first_tiles
            .iter()
            .map(String::as_str)
            .collect();
        let mut reached = BTreeSet::new();
        while let Some(t) = frontier.pop() {
            if reached.insert(t)
                && let Some(tile) = m.tiles.get(t)
            {
                frontier.extend(tile.upgrades_to.iter().map(String::as_str));
            }
        }
        reached.contains(tile)
    }

    #[test]
    fn s9_1_hex_tiles_agree_with_the_upgrade_chains_on_every_map() {
        let options = crate::g1841::options::each_ruleset();
        for o in options {
            let m = map::map(&o);
            let fits = hex_tiles(m);
            let mut fitting = 0;
            for (h, hex) in m.hex_ids.iter().enumerate() {
                for (t, tile) in m.tile_list.iter().enumerate() {
                    let walked = fits_by_walking(m, hex, &tile.id);
                    assert_eq!(fits.fits(h, t), walked, "{} {hex} {}", m.ruleset, tile.id);
                    fitting += usize::from(walked);
                }
            }
            assert!(fitting > 100, "{}: {fitting}", m.ruleset);
            assert!(!fits.fits(m.hex_ids.len(), 0));
        }
    }

    #[test]
    fn s9_1_laid_tiles_are_checked_against_hex_and_manifest() {
        use crate::g1841::state::PlacedTile;
        let lay = |s: &mut State, hex: &str, tile: &str, rotation| {
            s.operations.tiles.insert(
                hex.into(),
                PlacedTile {
                    tile: tile.into(),
                    rotation,
                },
            );
        };
        let mut s = fresh();
        lay(&mut s, "Z99", "601", 0);
        let e = validate(&s).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.message.as_str()),
            ("operations.tiles.Z99", "no such hex")
        );
        let mut s = fresh();
        lay(&mut s, "F16", "99999", 0);
        assert_eq!(validate(&s).unwrap_err().message, "no such tile");
        let mut s = fresh();
        lay(&mut s, "F16", "601", 6);
        assert_eq!(validate(&s).unwrap_err().message, "rotation must be 0–5");
        let mut s = fresh();
        lay(&mut s, "F16", "9", 0);
        assert_eq!(
            validate(&s).unwrap_err().message,
            "tile does not fit this hex"
        );
        // More copies of a tile than the manifest has: the first such tile in tile order.
        let m = map::map(&s.options);
        let (tile, hexes) = m
            .tile_list
            .iter()
            .find_map(|t| {
                let hexes: Vec<&String> = m
                    .hex_ids
                    .iter()
                    .filter(|h| m.hexes[*h].first_tiles.contains(&t.id))
                    .collect();
                (hexes.len() > m.tile_count(&t.id) as usize).then(|| (t.id.clone(), hexes))
            })
            .expect("a first tile with fewer copies than hexes");
        let copies = m.tile_count(&tile);
        let mut s = fresh();
        for h in &hexes[..=copies as usize] {
            lay(&mut s, h, &tile, 0);
        }
        let e = validate(&s).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.message),
            (
                "operations.tiles",
                format!("more copies of {tile} than exist")
            )
        );
    }

    #[test]
    fn s14_a_bankrupt_player_holds_nothing() {
        let mut s = fresh();
        s.players[2].bankrupt = true;
        s.bank_cash += s.players[2].cash;
        s.players[2].cash = 0;
        assert_eq!(validate(&s), Ok(()));
        // A certificate of some corporation held by the bankrupt player.
        let mut held = s.clone();
        let c = held.corporations.len() - 1;
        held.corporations[c].certificates[1].owner = ShareOwner::Player(2);
        // Checked before the corporations: the player's error comes first.
        assert_eq!(validate(&held).unwrap_err().path, "players[2].bankrupt");
        let mut cash = s.clone();
        cash.players[2].cash = 10;
        cash.bank_cash -= 10;
        assert_eq!(validate(&cash).unwrap_err().path, "players[2].bankrupt");
    }

    #[test]
    fn s7_1_a_corporation_holder_is_another_corporation_of_these_rules() {
        let s = fresh();
        let sym = s.corporations[1].sym.clone();
        for (owner, ok) in [
            (sym.clone(), true),
            (s.corporations[0].sym.clone(), false),
            ("XYZ".to_string(), false),
            (String::new(), false),
        ] {
            let mut t = s.clone();
            t.corporations[0].certificates[1].owner = ShareOwner::Corporation(owner.clone());
            let r = validate(&t);
            if ok {
                // Another corporation of the roster passes this check (an unstarted
                // corporation's certificates stay in its IPO, which fails later).
                assert!(r.is_err_and(|e| !e.message.contains("another corporation")));
            } else {
                let e = r.unwrap_err();
                assert_eq!(
                    (e.path.as_str(), e.message.as_str()),
                    (
                        "corporations[0].certificates[1].owner",
                        "not another corporation of these rules"
                    ),
                    "{owner}"
                );
            }
        }
    }
}
