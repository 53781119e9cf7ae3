//! Structural validation of a 1841 state received from outside (the service decodes states
//! that callers send back). A state that passes can be handed to every rules function without
//! any risk of a panic; a state that fails is refused with the path of the first bad field.
//!
//! Checked: player count and seats (1841 §2), player order, cash never negative, money
//! conserved (bank + players + corporations = the bank total of 1841 §1), each concession of the ruleset held
//! at most once (players, bank, still for sale — 1841 §3.2), and the consistency of the
//! concession round (auction participants, sealed bids).
//!
//! This module holds [`validate`] (the table, the money, the concessions, the game end and
//! the round in progress, with the sealed bids of §4.2) and the pending price drops shared by
//! the rounds (FAQ-Q2); the checks by subject, one module each: [`concession_round`] (§4),
//! [`stock_round`] (§5), [`corporations`] (§3.3, §3.4, §6, §7.1), [`operating`] (§8–§10: the
//! round and its tiles, trains and tokens) and [`events`] (§11, §12).

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

mod concession_round;
mod corporations;
mod events;
mod operating;
mod stock_round;

use concession_round::{check_auction, check_concession_round_progress, check_open_auction};
use corporations::check_corporations;
use operating::{check_operating_round, check_operations};
use stock_round::check_stock_round;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::{G1841, Options};

    pub(super) fn fresh() -> State {
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
}
