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
//!
//! **Planning for trains.** A president knows the train each of his corporations will have to
//! buy ([`train_need`]: none owned, or all of them rust within a few depot trains, 1841 §9.6,
//! §10) and keeps in cash what the treasuries lack for it ([`reserve`]): in an emergency his
//! cash pays first and anything else is sold at half price (§14). So he withholds while a
//! treasury is short (§9.4), sells shares in the stock round rather than in an emergency,
//! funds a short treasury with IPO shares, starts and takes over only corporations he can keep
//! trained, bids for a second concession only with the money to start both, buys a further
//! train only when it does not eat its replacement's money, takes a spare train from another of
//! his corporations at L.1 before selling anything, and lays track to give a corporation
//! without a route its first. One game in ten ([`novices`], drawn from the generator's seed) is
//! a table of novices who plan none of this: their games hold most of the bankruptcies, and
//! the bankruptcy ending of §13.
//! * Concession round (1841 §4): nominates while it holds fewer than two concessions, raises up
//!   to a private valuation (a hash of seat and concession: L.25–L.104) while enough cash
//!   stays to start the corporations of all its concessions; Version 1 sealed bids put
//!   L.20–L.59 on about a third of the concessions.
//! * Stock round (1841 §5): starts the corporation of every concession it holds (at the
//!   highest par whose certificate and one more share fit its cash shared among them), starts
//!   a non-historical corporation from phase 3 when it presides fewer than two and can pay its
//!   capital, tokens and depot train, buys shares by a simple valuation ([`stock`]: its own
//!   corporations first, IPO shares when the treasury lacks a train, then corporations that run
//!   trains), sells shares of corporations without trains and whatever it must to keep its
//!   [`reserve`], buys bank concessions.
//! * Operating round (1841 §9, [`operating`]): lays the best of a few sampled tiles (every
//!   tile, for a corporation without a route; upgrades, routes and new off-board connections
//!   preferred) while the treasury keeps its planned train, places tokens, runs the route
//!   optimizer's best routes, pays out unless the treasury is short of its planned train, buys
//!   other corporations' tokens now and then (1841 §9.5), buys the trains it needs, merges
//!   (§12.1, mostly when short of a train) and transforms (§12.2) with some probability, raises
//!   emergency money selling before it declares bankruptcy (§14).
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
    /// Proposes a merger with a partner that runs trains when the corporation is short of the
    /// train it plans for ([`train_shortfall`], 1841 §12.1, §14).
    pub merge_short: f64,
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
    /// Share of what its corporations lack for their planned trains that a player keeps in
    /// cash ([`reserve`]).
    pub reserve_share: f64,
    /// Depot trains that may still stand before the type that rusts a corporation's last
    /// train when its president starts planning for the replacement ([`train_need`]).
    pub rust_horizon: u32,
    /// Withholds when the treasury lacks the price of the train it plans for (1841 §9.4).
    pub withhold_short: f64,
    /// Share of the games played by [`novices`].
    pub novice_tables: f64,
}

/// The tuning used by `heuristic`.
pub const TUNING: Tuning = Tuning {
    merge: 0.35,
    merge_short: 0.8,
    transform: 0.35,
    buy_token: 0.3,
    resign: 0.6,
    withhold: 0.05,
    corporate_buy: 0.12,
    corporate_start: 0.08,
    second_train: 0.7,
    more_trains: 0.3,
    reserve_share: 1.0,
    rust_horizon: 3,
    withhold_short: 1.0,
    novice_tables: 0.1,
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

/// The cheapest train a corporation can buy from the bank now (1841 §9.6: the depot's next
/// train or a discarded one in the pool, at face value), in L.; 0 when there is none.
pub(crate) fn cheapest_train_price(state: &State) -> i64 {
    let rules = data::ruleset(&state.options);
    state
        .operations
        .pool_trains
        .iter()
        .filter_map(|t| rules.train(train_type(t)).map(|d| d.price))
        .chain(depot_train(state).map(|(_, p)| p))
        .min()
        .unwrap_or(0)
}

/// The train `corp` must plan for, as its price in L. (`None`: nothing to plan). A
/// corporation without a train must buy one as soon as it has a route (1841 §9.6, rule 4.5:
/// the cheapest depot or pool train, else emergency money raising, §14); one whose trains
/// all rust must buy again when the first train of the type that rusts the last of them is
/// bought (1841 §10), which it plans for once at most [`Tuning::rust_horizon`] depot trains
/// stand before that type (then the price to plan is that type's: the depot sells it next).
/// A corporation with a train that never rusts (6, 7, 8) plans nothing.
pub fn train_need(state: &State, corp: &Corporation) -> Option<i64> {
    if !corp.started() || corp.closed {
        return None;
    }
    let owned = state
        .operations
        .trains
        .get(&corp.sym)
        .filter(|t| !t.is_empty());
    let Some(owned) = owned else {
        return Some(cheapest_train_price(state)).filter(|p| *p > 0);
    };
    let rules = data::ruleset(&state.options);
    // Depot order index of the type that rusts each train; a permanent train ends the plan.
    let order = |name: &str| rules.trains.iter().position(|t| t.name == name);
    let mut last = 0;
    for t in owned {
        let by = rules
            .train(train_type(t))
            .and_then(|d| d.rusted_by_first_purchase_of.as_deref())
            .and_then(order)?;
        last = last.max(by);
    }
    let left_before: u32 = rules.trains[..last]
        .iter()
        .map(|t| {
            t.count.saturating_sub(
                state
                    .operations
                    .depot_sold
                    .get(&t.name)
                    .copied()
                    .unwrap_or(0),
            )
        })
        .sum();
    (left_before <= TUNING.rust_horizon).then(|| rules.trains[last].price)
}

/// Whether the corporation must plan for a train ([`train_need`]).
pub(crate) fn needs_train(state: &State, corp: &Corporation) -> bool {
    train_need(state, corp).is_some()
}

/// What the treasury of `corp` lacks for the train it plans for ([`train_need`]), in L.
pub fn train_shortfall(state: &State, corp: &Corporation) -> i64 {
    train_need(state, corp).map_or(0, |p| (p - corp.cash).max(0))
}

/// Cash `seat` keeps for its corporations' trains, as a competent president does: in an
/// emergency its cash pays what the treasury lacks (1841 §14), and money raised then comes
/// from half-price sales, so it keeps, for every corporation it controls, what the treasury
/// lacks for the train it plans for ([`train_shortfall`]), times [`Tuning::reserve_share`].
/// Novices ([`novices`]) keep none.
pub fn reserve(state: &State, seat: Seat, rng: &ChaCha8Rng) -> i64 {
    if novices(rng) {
        return 0;
    }
    let lacking: i64 = state
        .corporations
        .iter()
        .filter(|c| c.started() && !c.closed && controller(state, &c.sym) == Some(seat))
        .map(|c| train_shortfall(state, c))
        .sum();
    (lacking as f64 * TUNING.reserve_share) as i64
}

/// Whether the table is one of novices (a share [`Tuning::novice_tables`] of the games): players
/// who do not plan for their trains — no [`reserve`], withholding only now and then when a
/// train is short, starting corporations they cannot keep trained, buying trains and
/// presidencies without looking at the next rust. Such tables run into the emergencies and
/// bankruptcies of 1841 §14 again and again, and they are where the bankruptcy ending
/// (all players but one bankrupt, §13) still happens. Drawn from the generator's seed (in a
/// playout the game's seed, the same all game long), so a seed is one table.
pub fn novices(rng: &ChaCha8Rng) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in rng.get_seed() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    ((h >> 11) as f64 / (1u64 << 53) as f64) < TUNING.novice_tables
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
