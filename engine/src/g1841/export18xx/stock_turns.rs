//! Stock-round turns 18xx.games keeps open where this engine passes by itself, for the
//! 18xx.games export ([`super`]).
//!
//! This engine ends a player's stock turn by itself when he has no legal action left (1841
//! §5.1: an automatic pass, or the end of the turn right after his own sale). 18xx.games does
//! the same only when its `Step::BuySellParShares#actions` is empty; two of its checks offer
//! actions that cannot be carried out, so its turn stays open and its file has the player's
//! `pass`:
//!
//! * `can_buy_any_from_ipo?` (Engine::Step::BuySellParShares) asks, for each started
//!   corporation, `can_buy_shares?(player, corporation.shares)`: `shares` are all the
//!   certificates the corporation holds, those of other corporations too (1841 §7.1), which no
//!   player may buy (§5.2; G1841's `can_buy?` refuses them). The answer is that of the
//!   smallest of them (the first of that size), with the sale check (§5.1, `players_sold`) made
//!   on the corporation of the first certificate listed.
//! * `can_buy_any_from_market?` asks, for each corporation with certificates in the pool,
//!   `can_buy_shares?` of the smallest of them, which never asks `pres_change_ok?`: a
//!   historical corporation's president's certificate alone in the pool before phase 4 counts
//!   when the player can pay it and it fits his limits, although it is not for sale then
//!   (1841 §5.2, §7.5; interpretation I15 and 18xx's own intent in #9379 / PR 9382: "phase ≥ 4
//!   or non-historical"). Version 2 random 6 players seed 6125, 18xx id 557: Player 5 (L.65)
//!   sells RSFS in Stock Round 4, phase 3; SFMA's 40% president's certificate, alone in the
//!   pool at L.24, costs L.48; 18xx waits for his `pass`.
//! * `can_ipo_any?` asks `G1841::Game#can_par?`, which does not look for a free home city
//!   (1841 §5.4 step 3), and `can_buy?` of the president's certificate at twice the lowest par
//!   price: a player with L.136 below his certificate limit may start, in 18xx's reading, any
//!   non-historical corporation not yet started from phase 3, even where no city is free.
//!   Nor does `can_par?` look at `closed?`: from phase 4 a historical corporation closed for
//!   good (§3.4) counts too, its first IPO certificate priced at the lowest par
//!   (interpretation I35, [`closed_historical_listed_par_cost`]).
//!
//! * `buyable_bank_owned_companies` (`can_buy_company?`) does not look at the player's sales
//!   of the round: a bank concession that brings its corporation's president's certificate
//!   from the pool (§3.2, I15) stays on offer after he sold that corporation (§5.1; reviewed
//!   divergence `p2p-concession-after-selling`; Version 2 random 8 players seed 8002, 18xx id
//!   806: Player 3 sold IRSFF earlier in Stock Round 4, IRSFF's concession with its president's
//!   certificate costs L.50 + 2 × L.13 = L.76, he holds L.105).
//!
//! * `can_sell_any?` offers a sale of part of a president's certificate that hands the
//!   presidency to a corporation controlled, through its chain, by the one sold: the
//!   corporations then control each other, which FAQ-R1 forbids (1841 §7.4). 18xx.games' own
//!   check after the sale (`BaseBuySellParShares#sell_shares`, comparing
//!   `circular_corporations`) never fires, `circular?` never being set (reviewed divergence
//!   `circular-control-never-flagged`), so 18xx would even carry the sale out. version_1 random
//!   5 players seed 5102, 18xx id 344: Player 2, president of RATF (20%) whose 20% of RSFS
//!   makes RATF president of RSFS, sells his CTLP; RSFS holds 20% of RATF, so selling 10% of
//!   RATF would make RSFS its president. 18xx waits for his `pass`.
//!
//! The rules are not affected (no such purchase or start can be completed in either engine,
//! and no player of this engine makes such a sale); the export writes the player's `pass`
//! there.

use crate::Seat;
use crate::g1841::corporation::{
    certificate_count, certificate_limit, closed_historical_listed_par_cost, controlled_percent,
    is_non_historical, phase_number,
};
use crate::g1841::data;
use crate::g1841::state::{Corporation, ShareOwner, State};

/// Whether 18xx.games still offers `seat` an action in the position `state`, where this engine
/// found none and ended the turn by itself (see the module documentation).
pub(crate) fn turn_open_in_18xx(state: &State, seat: Seat) -> bool {
    let Some(round) = state.stock_round() else {
        return false;
    };
    if round.start.is_some() {
        return false;
    }
    let Some(player) = state.player(seat) else {
        return false;
    };
    let below_limit = certificate_count(state, seat) < certificate_limit(state);
    treasury_holding_looks_buyable(state, seat, player.cash, below_limit)
        || pool_president_looks_buyable(state, seat, player.cash, below_limit)
        || start_looks_possible(state, player.cash, below_limit)
        || state
            .bank_concessions
            .iter()
            .any(|c| crate::g1841::stock_round::bank_concession_buyable_in_18xx(state, seat, *c))
        || own_concession_on_offer(state, seat, player)
        || crate::g1841::stock_round::has_sale_ignoring_circular_control(state, seat)
}

/// 18xx's `purchasable_companies` (`p2p_purchases`, 1841 §15.3) offering a player his own
/// concession: `can_buy_company?` asks for a player owner, not for another one, and prices a
/// player's concession at L.1; a concession whose corporation's president's certificate the
/// owner does not hold (Bayard, a corporation not started) needs nothing more
/// (`company_president_share` nil). `p2p_purchases`, 4 players, 18xx id 10 of the
/// oracle-played `p2p_purchases-4p-s60008`: Player 4, holding Bayard and nothing else to do
/// in Stock Round 1, is offered `buy_company` of Bayard and passes. (A concession whose
/// president's certificate he holds is offered when 18xx's `can_gain?` allows that
/// certificate again; not followed here.)
fn own_concession_on_offer(
    state: &State,
    seat: Seat,
    player: &crate::g1841::state::Player,
) -> bool {
    let president = |sym: &str| {
        state.corporation(sym).is_some_and(|c| {
            c.certificates
                .iter()
                .any(|x| x.president && x.owner == ShareOwner::Player(seat))
        })
    };
    // Asked where the turn ended by itself, so nothing was bought (18xx `bought?`).
    state.options.p2p_purchases
        && player.cash > 0
        && player.concessions.iter().any(|c| !president(c.as_str()))
}

/// Whether `seat` sold shares of `sym` in this stock round (1841 §5.1: no purchase of a
/// corporation sold in the same round).
fn sold_this_round(state: &State, seat: Seat, sym: &str) -> bool {
    state.stock_round().is_some_and(|r| {
        r.sold
            .iter()
            .any(|s| s.seat == seat && s.corporation == sym)
    })
}

/// 18xx's `can_buy_any_from_ipo?` answering yes for certificates a corporation holds of
/// another corporation (1841 §7.1, §5.2).
fn treasury_holding_looks_buyable(state: &State, seat: Seat, cash: i64, below_limit: bool) -> bool {
    let sold = |sym: &str| sold_this_round(state, seat, sym);
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    state
        .corporations
        .iter()
        .filter(|c| c.started() && !c.closed)
        .any(|holder| {
            let held = holdings_in_18xx_order(state, holder);
            let Some(first) = held.first() else {
                return false;
            };
            if sold(&first.0.sym) {
                return false;
            }
            // The first certificate of the smallest size.
            let Some(&(corp, percent)) =
                held.iter()
                    .fold(None, |best: Option<&(&Corporation, u32)>, x| match best {
                        Some(b) if b.1 <= x.1 => Some(b),
                        _ => Some(x),
                    })
            else {
                return false;
            };
            let Some(price) = corp.price() else {
                return false;
            };
            let cost = price.saturating_mul(i64::from(percent / corp.unit_percent()));
            cost <= cash
                && below_limit
                && controlled_percent(state, seat, &corp.sym).saturating_add(percent) <= max
        })
}

/// 18xx's `can_buy_any_from_market?` answering yes for a historical corporation's president's
/// certificate alone in the pool before phase 4 (see the module documentation): the sale
/// check of the round (§5.1, `players_sold`), its price (two units), the certificate limit and
/// the 60% limit (18xx `can_gain?`). From phase 4 this engine offers that purchase itself.
fn pool_president_looks_buyable(state: &State, seat: Seat, cash: i64, below_limit: bool) -> bool {
    if phase_number(state) >= 4 || !below_limit {
        return false;
    }
    let sold = |sym: &str| sold_this_round(state, seat, sym);
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    state
        .corporations
        .iter()
        .filter(|c| c.historical && c.started() && !c.closed)
        .any(|corp| {
            let mut pool = corp
                .certificates
                .iter()
                .filter(|x| x.owner == ShareOwner::Pool);
            let (Some(only), None) = (pool.next(), pool.next()) else {
                // Nothing there, or a smaller certificate: 18xx asks about that one, as this
                // engine does.
                return false;
            };
            let Some(price) = corp.price() else {
                return false;
            };
            let cost = price.saturating_mul(i64::from(only.percent / corp.unit_percent()));
            only.president
                && !sold(&corp.sym)
                && cost <= cash
                && controlled_percent(state, seat, &corp.sym).saturating_add(only.percent) <= max
        })
}

/// The certificates `holder` holds in 18xx's `shares` order, as (corporation, percent): its
/// own treasury (IPO) certificates first, then those of other corporations in the order of the
/// corporations (18xx.games' `@game.corporations` order, the data's roster).
///
/// 18xx.games itself has no fixed order here (listed divergence `ipo-check-in-hash-order`,
/// tests/oracle/divergences.json, 1841 §5.2, §5.1): its `shares` follow the insertion order of
/// the holder's `shares_by_corporation` hash, whose keys are made by any look-up as well as by
/// share moves — `player_controlled_percentage` in every `can_gain?` scan, every payout (the
/// payer is looked up in every corporation), the corporate share step, mergers — and by
/// code outside the game that reads the holdings (the oracle driver's round-change
/// snapshots). The decision that depends on it is `can_buy_shares?(player, holder.shares)` in
/// `can_buy_any_from_ipo?`: the sale check (§5.1, `players_sold`) on the corporation of the
/// first certificate, price and `can_gain?` on the first of the smallest size. None of these
/// certificates can be bought: where the player has nothing legal left, only whether 18xx asks
/// for his `pass` changes (a legal purchase 18xx hides is `ipo-purchase-hidden-by-a-treasury-
/// holding`), and the same file is read both ways by the oracle with and without its snapshots
/// (version_1 random 4 players seed 4001: it stops at id 324 without them and agrees to the
/// end with them; version_1 and version_1+sfli random seeds 6012, 7011, 7012, 7013 of the
/// seed-11 harness run stopped with them). The corporation order is the one a full
/// scan inserts (the snapshots; `must_sell?` when nothing is over the limit); the patched
/// oracle (tests/oracle/patches/ipo-check-in-hash-order.rb) takes it too and records a
/// correction where 18xx's hash order would have opened or ended the turn otherwise. Keys are
/// never deleted in 1841 (traced 2026-12-06, helper stocks: `restart_corporation!` and `close!`
/// keep them).
fn holdings_in_18xx_order<'a>(
    state: &'a State,
    holder: &'a Corporation,
) -> Vec<(&'a Corporation, u32)> {
    let own = holder
        .certificates
        .iter()
        .filter(|c| c.owner == ShareOwner::Ipo)
        .map(|c| (holder, c.percent));
    let me = ShareOwner::Corporation(holder.sym.clone());
    let others = state
        .corporations
        .iter()
        .filter(|c| c.sym != holder.sym)
        .flat_map(move |c| {
            let me = me.clone();
            c.certificates
                .iter()
                .filter(move |x| x.owner == me)
                .map(move |x| (c, x.percent))
        });
    own.chain(others).collect()
}

/// 18xx's `can_ipo_any?` answering yes for a non-historical corporation that has no free home
/// city (1841 §5.4 step 3): phase 3 or later, one such corporation not started, the player
/// below his certificate limit with twice the lowest par price (L.136).
fn start_looks_possible(state: &State, cash: i64, below_limit: bool) -> bool {
    let lowest =
        crate::g1841::market::par_prices(state, crate::g1841::state::CorporationKind::Minor)
            .into_iter()
            .chain(crate::g1841::market::par_prices(
                state,
                crate::g1841::state::CorporationKind::Major,
            ))
            .min();
    let Some(lowest) = lowest else {
        return false;
    };
    let non_historical = phase_number(state) >= 3
        && lowest.saturating_mul(2) <= cash
        && state
            .corporations
            .iter()
            .any(|c| !c.historical && !c.started() && is_non_historical(&state.options, &c.sym));
    below_limit && (non_historical || closed_historical_looks_startable(state, cash, lowest))
}

/// 18xx's `can_ipo_any?` answering yes for a historical corporation closed for good (1841
/// §3.4, §12): from phase 4, when the player can pay the first certificate of its IPO at the
/// lowest par price ([`closed_historical_listed_par_cost`]; version_1 heuristic 3 players seed
/// 3001, 18xx id 500: Player 3 with L.88 is offered `par` at the start of Stock Round 8, SFMA
/// and six other historical corporations being closed with unsold IPO shares).
fn closed_historical_looks_startable(state: &State, cash: i64, lowest: i64) -> bool {
    state.corporations.iter().any(|c| {
        closed_historical_listed_par_cost(state, c, lowest).is_some_and(|cost| cost <= cash)
    })
}
