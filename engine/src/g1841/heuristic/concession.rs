//! The heuristic player in the concession round (1841 §4).

use rand_chacha::ChaCha8Rng;

use super::{any, below, chance};
use crate::Seat;
use crate::g1841::action::Action;
use crate::g1841::corporation::corporation_of_concession;
use crate::g1841::state::{Round, State};
use crate::g1841::{G1841, market};

/// Cash a player keeps after a bid: for the concession bid on, the smallest president's
/// certificate (2 × the lowest par price, 1841 §5.4) plus one more share, so that the
/// corporation starts with its tokens and a first train (§5.4 step 4, §9.6) — and as much again
/// for every concession of a corporation it holds already (their corporations must be
/// started too, 1841 §5.5 step 4); novices ([`super::novices`]) think only of the one.
fn keep(state: &State, seat: Seat, novices: bool) -> i64 {
    let low = market::par_prices(state, crate::g1841::CorporationKind::Minor)
        .into_iter()
        .min()
        .unwrap_or(68);
    let held = state.player(seat).map_or(0, |p| {
        p.concessions
            .iter()
            .filter(|c| corporation_of_concession(&state.options, **c).is_some())
            .count() as i64
    });
    3 * low * if novices { 1 } else { held + 1 }
}

/// What `seat` would pay at most for `concession` (L.25–L.104): a fixed hash of the two, so
/// that a player values a concession the same way all auction long.
fn valuation(seat: Seat, concession: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ u64::from(seat);
    for b in concession.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    25 + (h % 80) as i64
}

/// Chooses in the concession round; `None` leaves the choice to the caller's fallback (pass).
pub(super) fn choose(
    state: &State,
    seat: Seat,
    legal: &[Action],
    rng: &mut ChaCha8Rng,
) -> Option<Action> {
    let Round::ConcessionRound(cr) = &state.round else {
        return None;
    };
    let cash = state.player(seat)?.cash;
    let held = state.player(seat)?.concessions.len();
    let novices = super::novices(rng);
    if legal.iter().any(|a| matches!(a, Action::BlindBid { .. })) {
        return blind_bid(state, seat, rng);
    }
    let bids: Vec<&Action> = legal
        .iter()
        .filter(|a| match a {
            Action::Bid { concession, price } => {
                *price <= valuation(seat, concession) + if held == 0 { 30 } else { 0 }
                    && cash - price >= keep(state, seat, novices)
            }
            _ => false,
        })
        .collect();
    let in_auction = cr.auction.is_some() || !cr.pending_tie_auctions.is_empty();
    if in_auction {
        // Raise (the listed bid is the minimum raise) while under the valuation.
        return bids.first().map(|a| (*a).clone());
    }
    // Nominate while holding fewer than two concessions (a third now and then).
    let wants = match held {
        0 => 0.9,
        1 => 0.6,
        _ => 0.15,
    };
    if chance(rng, wants) {
        return any(&bids, rng).cloned();
    }
    None
}

/// A Version 1 sealed bid (1841 §4.2): L.20–L.59 on about a third of the concessions, the
/// total at most half the bidder's cash.
fn blind_bid(state: &State, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Action> {
    let range = G1841::legal(state, seat).blind_bid?;
    let budget = range.max_total / 2;
    let mut total = 0;
    let mut amounts = vec![0; range.concessions.len()];
    for a in amounts.iter_mut() {
        if chance(rng, 0.35) {
            let bid = range.min_price + below(rng, 40) as i64;
            if total + bid <= budget {
                *a = bid;
                total += bid;
            }
        }
    }
    Some(Action::BlindBid { amounts })
}
