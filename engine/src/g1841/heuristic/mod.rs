//! The 1841 `heuristic` playout policy (issue #22): a seeded, deterministic player that plays
//! 1841 the way a plain human player does, so that playouts reach what random games almost
//! never reach (mergers, transformations, the first 4-train's events, frozen corporations, the
//! late phases and every game end of 1841 §13). Used by Playout, `referee playout --policy
//! heuristic`, DefaultAction's `policy_name`, the clients' bots and the frequency report of
//! `docs/games/1841.md` ([`stats`]).
//!
//! **How it chooses.** Rules of thumb per round and step, each a score or a probability; the
//! only randomness is the caller's generator, so the same state and generator state give the
//! same action. It never plays an action outside the engine's legal set ([`crate::g1841::G1841::legal`]):
//! it picks among the listed representatives or sets an amount inside a listed range.
//! * Concession round (1841 §4): nominates while it holds fewer than two concessions, raises up
//!   to a private valuation (a hash of seat and concession: L.25–L.104) while enough cash
//!   stays to start the corporation; Version 1 sealed bids put L.20–L.59 on about a third of
//!   the concessions.
//! * Stock round (1841 §5): starts the corporation of every concession it holds (at the
//!   highest par whose president's certificate costs at most ¾ of its cash), starts a
//!   non-historical corporation from phase 3 when it presides fewer than two, buys shares by a
//!   simple valuation ([`stock`]: its own corporations first, IPO shares when the treasury
//!   lacks a train, then corporations that run trains), sells shares of corporations without
//!   trains, buys bank concessions, and keeps a cash [`reserve`] for the trains its
//!   corporations will have to buy.
//! * Operating round (1841 §9, [`operating`]): lays the cheapest of a few sampled tiles
//!   (upgrades and new off-board connections preferred) while the treasury keeps the price of a
//!   needed train, places tokens, runs the route optimizer's best routes, pays out (withholds
//!   mostly when a needed train is not yet affordable), buys other corporations' tokens now and
//!   then (1841 §9.5), buys the trains it needs, merges (§12.1) and transforms (§12.2) with
//!   some probability, raises emergency money selling before it declares bankruptcy (§14).
//! * Events (§11, §12): takes the presidency when it can, decides odd shares and split shares
//!   at random, removes tokens at random.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use super::action::Action;
use super::corporation::controller;
use super::data;
use super::operating_round::{depot_train, train_type};
use super::state::{Corporation, Round, ShareOwner, State};
use crate::Seat;

mod concession;
mod operating;
pub mod stats;
mod stock;

/// The policy names 1841 answers, in the order `referee playout --help` and the errors list
/// them: the common names only (`heuristic` is this module's player).
pub const POLICY_NAMES: [&str; 3] = ["random", "first", "heuristic"];

/// Chances and thresholds of the player, in one place so that tuning (docs/games/1841.md,
/// "Heuristic games") changes data, not code. Probabilities are per decision.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Proposes a merger when one is offered (1841 §12.1).
    pub merge: f64,
    /// Transforms a minor when it may (1841 §12.2).
    pub transform: f64,
    /// Buys another corporation's token when one is offered (1841 §9.5).
    pub buy_token: f64,
    /// Resigns (rather than taking the L.500 loan) when it must declare bankruptcy (1841 §14).
    pub resign: f64,
    /// Withholds although no train is needed.
    pub withhold: f64,
    /// A corporation buys a share in its corporate share step (1841 §9.7).
    pub corporate_buy: f64,
    /// A corporation starts a corporation in its share step (1841 §3.4, §9.7).
    pub corporate_start: f64,
    /// Buys a second train when the corporation has one (the first is always bought).
    pub second_train: f64,
    /// Buys a further train below the limit.
    pub more_trains: f64,
    /// Share of its cash a player keeps for its corporations' trains ([`reserve`]).
    pub reserve_share: f64,
}

/// The tuning used by `heuristic`.
pub const TUNING: Tuning = Tuning {
    merge: 0.35,
    transform: 0.35,
    buy_token: 0.3,
    resign: 0.6,
    withhold: 0.05,
    corporate_buy: 0.12,
    corporate_start: 0.08,
    second_train: 0.7,
    more_trains: 0.3,
    reserve_share: 0.8,
};

/// The heuristic player's action for `seat` among `legal` (the engine's
/// [`crate::Game::legal_actions`] for that seat, not empty), using `rng` for every random
/// choice. Returns one of `legal`, or a listed action with an amount set inside its legal
/// range (a bid, a sealed bid, a token price).
pub fn choose(state: &State, seat: Seat, mut legal: Vec<Action>, rng: &mut ChaCha8Rng) -> Action {
    if legal.len() == 1 {
        return legal.swap_remove(0);
    }
    let picked = match &state.round {
        Round::ConcessionRound(_) => concession::choose(state, seat, &legal, rng),
        Round::StockRound(sr) => {
            if sr.offer.is_some() {
                stock::answer(state, &legal, rng)
            } else if let Some(start) = &sr.start {
                stock::start_step(state, seat, &start.corporation, &legal, rng)
            } else {
                stock::choose(state, seat, &legal, rng)
            }
        }
        Round::OperatingRound(_) => operating::choose(state, seat, &legal, rng),
    };
    picked.unwrap_or_else(|| fallback(legal, rng))
}

/// A pass when there is one, else a random listed action.
fn fallback(mut legal: Vec<Action>, rng: &mut ChaCha8Rng) -> Action {
    if let Some(i) = legal.iter().position(|a| matches!(a, Action::Pass)) {
        return legal.swap_remove(i);
    }
    let i = below(rng, legal.len());
    legal.swap_remove(i)
}

/// A uniform index below `n` (0 when `n` is 0).
pub(crate) fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    if n == 0 {
        0
    } else {
        (rng.next_u64() % n as u64) as usize
    }
}

/// True with probability `p`.
pub(crate) fn chance(rng: &mut ChaCha8Rng, p: f64) -> bool {
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    x < p
}

/// A uniform number in [0, 1).
pub(crate) fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A random element of `items` (`None` when empty).
pub(crate) fn any<'a, T>(items: &[&'a T], rng: &mut ChaCha8Rng) -> Option<&'a T> {
    if items.is_empty() {
        None
    } else {
        Some(items[below(rng, items.len())])
    }
}

/// Trains `sym` owns.
pub(crate) fn trains(state: &State, sym: &str) -> usize {
    state.operations.trains.get(sym).map_or(0, Vec::len)
}

/// The price of the next depot train (L.), or 0 when the depot is empty.
pub(crate) fn next_train_price(state: &State) -> i64 {
    depot_train(state).map_or(0, |(_, p)| p)
}

/// The type rank (2 … 8) of a train id such as `4-1` (0 when unreadable).
pub(crate) fn train_rank(id: &str) -> u32 {
    id.split('-')
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

/// Whether the corporation will have to buy a train soon: it owns none, or every train it
/// owns rusts when the depot's next train type is first bought (1841 §10).
pub(crate) fn needs_train(state: &State, corp: &Corporation) -> bool {
    if !corp.started() {
        return false;
    }
    let Some(owned) = state
        .operations
        .trains
        .get(&corp.sym)
        .filter(|t| !t.is_empty())
    else {
        return true;
    };
    let Some((next, _)) = depot_train(state) else {
        return false;
    };
    let next_type = train_type(&next);
    if state
        .operations
        .depot_sold
        .get(next_type)
        .copied()
        .unwrap_or(0)
        > 0
    {
        return false;
    }
    let rules = data::ruleset(&state.options);
    owned.iter().all(|t| {
        rules
            .train(train_type(t))
            .and_then(|d| d.rusted_by_first_purchase_of.as_deref())
            == Some(next_type)
    })
}

/// Cash `seat` keeps for its corporations' trains: for every corporation it controls that
/// [`needs_train`], the part of the next depot train's price the treasury lacks, times
/// [`Tuning::reserve_share`]; at most half its cash (a reserve it cannot reach anyway must
/// not stop it from buying into running corporations).
pub fn reserve(state: &State, seat: Seat) -> i64 {
    let price = next_train_price(state);
    let lacking: i64 = state
        .corporations
        .iter()
        .filter(|c| c.started() && !c.closed && controller(state, &c.sym) == Some(seat))
        .filter(|c| needs_train(state, c))
        .map(|c| (price - c.cash).max(0))
        .sum();
    let cash = state.player(seat).map_or(0, |p| p.cash);
    ((lacking as f64 * TUNING.reserve_share) as i64).min(cash / 2)
}

/// Cash of a holder (a player's or a corporation's).
pub(crate) fn cash_of(state: &State, owner: &ShareOwner) -> i64 {
    super::corporation::holder_cash(state, owner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    #[test]
    fn chance_and_below_stay_in_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let hits = (0..10_000).filter(|_| chance(&mut rng, 0.25)).count();
        assert!((2_200..2_800).contains(&hits), "{hits}");
        assert!((0..1000).all(|_| below(&mut rng, 3) < 3));
        assert_eq!(below(&mut rng, 0), 0);
    }

    #[test]
    fn train_ranks() {
        assert_eq!(train_rank("4-1"), 4);
        assert_eq!(train_rank("8-0"), 8);
        assert_eq!(train_rank("x"), 0);
    }
}
