//! # 1841 (Northern Italy)
//!
//! Rules: the Referee rules specification of 1841 (`docs/rules/1841.md`, sections cited as
//! `1841 §n`), its FAQ (`docs/rules/1841-faq.md`, `FAQ-…`) and data
//! (`docs/rules/1841-data.md`). This build implements the whole game: **setup** (1841 §1, §2),
//! the complete **concession round** (1841 §4: the Version 2 nomination auction, the Version 1
//! sealed bids with tie auctions, `lite`) and the **stock round** (1841 §5: par with home
//! tokens and token purchase, buy, sell, limits, presidency lock, end of round) and the
//! **operating rounds** of phases 2–8 (1841 §8–§10: operating order, tile lays and upgrades
//! with per-base lays, costs and phase-2 borders, token placement, submitted routes with
//! their revenue, dividends and price moves, trains from the depot/pool/other corporations
//! with phase changes and rusting, token acquisition, corporate sales and purchases, the
//! next OR or stock round, discarding excess trains, the route optimizer), [`start`]ing
//! non-historical corporations from phase 3 by players and by corporations (§3.4, §5.4,
//! §9.7), emergency money raising and bankruptcy (§14), the [`game_end`] (§13) and the
//! corporate events ([`operating_round::events`]: the first 4-train, the Ferdinandea split,
//! the Tuscan merge, mergers, transformations; frozen and circular control, §7.4, §11, §12).
//! The FAQ rulings that differ from 18xx.games (`1841-faq.md` §7) are [`options`], tri-state:
//! off in Version 2 unless set, on with `version_1` unless set. With `p2p_purchases`, [`p2p`]
//! purchases between players (§3.2, §5.2, §15.3) as an offer and the seller's answer.
//! `docs/games/1841.md` lists coverage and the interpretations chosen.
//!
//! Module map: [`options`] (variants and FAQ rule options), [`data`] (embedded reference data), [`concession`]
//! (the concession symbols), [`state`], [`action`] (actions, events, legal ranges),
//! [`setup`], [`flow`] (the turn structure: the router of actions to the round in progress),
//! [`concession_round`], [`corporation`] (certificates, control, limits),
//! [`market`] (stock market), [`start`] (starting a corporation), [`stock_round`], [`p2p`]
//! (purchases between players), [`game_end`] (end triggers and scores), [`map`] (map, tiles,
//! borders), [`track`]
//! (track graph), [`ids`] (fast look-up of identifiers), [`operating_round`], [`validate`], [`view`], [`import18xx`] (reader for
//! 18xx.games exports, the replay shared by the CLI and `ImportGame`) and [`export18xx`]
//! (writer of the same format).

pub mod action;
pub mod assist;
pub mod concession;
pub mod concession_round;
pub mod corporation;
pub mod data;
pub mod export18xx;
pub mod flow;
pub mod game_end;
pub mod heuristic;
pub mod ids;
pub mod import18xx;
pub mod map;
pub mod market;
pub mod operating_round;
pub mod options;
pub mod p2p;
pub mod sale;
pub mod setup;
pub mod share_ledger;
pub mod start;
pub mod state;
pub mod stock_round;
pub mod token_slots;
pub mod track;
pub mod trail;
pub mod validate;
pub mod view;

pub use action::{
    Action, BidRange, BlindBidRange, Event, LegalActions, OddShareChoice, OfferRange, Route, Stop,
    TokenPurchaseRange, TrainPurchaseRange,
};
pub use concession::{Concession, UnknownConcession};
pub use options::Options;
pub use state::{
    Auction, Certificate, ConcessionRound, CorporateEvent, CorporateSale, Corporation,
    CorporationKind, CorporationStart, GameEnd, MapToken, MarketCell, Merger, MergerStage,
    MovedAssets, MovedCertificate, OperatingRound, OperatingStep, Operations, PlacedTile, Player,
    PriceDrop, PurchaseItem, PurchaseOffer, QueuedEvent, Round, SealedBid, ShareOwner, SharePrice,
    SoldShares, Split, SplitStage, StartStep, State, StockRound, Transformation,
};
pub use view::View;

use crate::catalog::{GameInfo, GameStage};
use crate::{Game, Outcome, Rejection, Seat, SetupError, Viewer};

/// The invariant checker of 1841 ([`crate::invariants`]): player seats and order, money
/// conserved (bank + players + corporations = the bank total of 1841 §1), concessions held at
/// most once (§3.2), certificates of each corporation exactly its roster with one owner each
/// (100% per corporation, §3.3–§3.4), tokens within `tokens_total` on existing cities within
/// their slots, trains sold by the depot each held once (owned, pool or rusted), tiles within
/// the manifest, and the consistency of the current round. See [`validate::validate`].
///
/// Errors: the first [`InvariantViolation`] found, with its path relative to the state.
pub fn check_invariants(state: &State) -> Result<(), crate::InvariantViolation> {
    validate::validate(state)
}

/// An invariant of the rules' own transitions, checked after every action in debug builds
/// (not on decoded states, so states saved before it held still load): a corporation is above
/// its train limit (1841 §9.6) only while it must discard (`operating_round.crowded`) or while
/// a corporate event moves trains (§12.1: a merger's new corporation holds both corporations'
/// trains until the event is over), and not after the game's end.
///
/// Errors: the first corporation over its limit, at `operations.trains.<sym>`.
pub fn check_train_limits(state: &State) -> Result<(), crate::InvariantViolation> {
    check_train_limits_except(state, &[])
}

/// The corporations over their train limit (1841 §9.6) without a pending discard, in
/// [`check_train_limits`]'s sense.
#[cfg(debug_assertions)]
fn over_train_limit(state: &State) -> Vec<String> {
    let mut over = Vec::new();
    while let Err(v) = check_train_limits_except(state, &over) {
        match v.path.strip_prefix("operations.trains.") {
            Some(sym) => over.push(sym.to_string()),
            None => break,
        }
    }
    over
}

/// [`check_train_limits`], not counting the corporations of `already` (over their limit
/// before the action: a state decoded from the wire, which the validator does not judge on
/// train limits so that states saved before this check still load).
fn check_train_limits_except(
    state: &State,
    already: &[String],
) -> Result<(), crate::InvariantViolation> {
    let (crowded, event): (&[String], bool) = match &state.round {
        state::Round::OperatingRound(r) => (&r.crowded, r.event.is_some()),
        _ => (&[], false),
    };
    // (Once the game is over nobody discards any more, §13.)
    if event || state.game_end.ended {
        return Ok(());
    }
    for (sym, trains) in &state.operations.trains {
        if trains.len() as u32 > operating_round::train_limit(state, sym)
            && !crowded.contains(sym)
            && !already.contains(sym)
        {
            return Err(crate::InvariantViolation::new(
                format!("operations.trains.{sym}"),
                "over the train limit without a pending discard (1841 §9.6)",
            ));
        }
    }
    Ok(())
}

/// The game 1841. Implements [`Game`]; see the module documentation for coverage.
#[derive(Clone, Copy, Debug, Default)]
pub struct G1841;

impl G1841 {
    /// Everything `seat` may do now, with amount ranges (`referee.g1841.v1.LegalActions`).
    /// [`Game::legal_actions`] returns [`LegalActions::representatives`] of this.
    pub fn legal(state: &State, seat: Seat) -> LegalActions {
        flow::legal(state, seat)
    }
}

impl Game for G1841 {
    type Options = Options;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn info() -> GameInfo {
        GameInfo {
            id: "1841",
            display_name: "1841 (Northern Italy)",
            min_players: 3,
            max_players: 8,
            options: options::option_infos(),
            // The whole game: every rule of 1841 §1–§15 is implemented (no action is refused
            // with UNSUPPORTED), random games end, both recorded games replay to their end.
            stage: GameStage::Complete,
            coverage: "Setup, the concession round (both procedures, lite), stock rounds, operating rounds of phases 2-8 (track, tokens, routes with a route optimizer, dividends, token acquisition, trains, phases and discards, corporate shares and starts), emergency money raising and bankruptcy, the first 4-train with the Ferdinandea split and the Tuscan merge, mergers, transformations, frozen and circular control, player-to-player purchases (p2p_purchases: an offer and the seller's answer) and the game end follow the rules; both recorded games replay to their end. The FAQ rulings that differ from 18xx are options (off in Version 2, on with version_1 unless set).",
        }
    }

    /// See [`setup::setup`]. The seed is unused: 1841 has no randomness.
    fn setup(options: &Options, seats: u32, _seed: u64) -> Result<State, SetupError> {
        setup::setup(options, seats)
    }

    /// See [`flow::apply`].
    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
        // A corporation already over its limit (a state from the wire) is not the action's doing.
        #[cfg(debug_assertions)]
        let over_before = over_train_limit(state);
        let events = flow::apply(state, seat, action)?;
        #[cfg(debug_assertions)]
        if let Err(v) =
            check_invariants(state).and_then(|()| check_train_limits_except(state, &over_before))
        {
            panic!("1841: {action:?} by seat {seat} broke an invariant: {v}");
        }
        Ok(events)
    }

    /// One concrete accepted action per legal choice: `Pass`, a bid at the minimum price per
    /// concession, an all-zero sealed bid, every stock-round action (listed completely), trains
    /// and tokens of other corporations at L.1, and for the routes step the best route set of
    /// the route optimizer ([`operating_round::best_routes`] with its default work budget; the
    /// empty route set when nothing earns revenue). Ranges: [`G1841::legal`].
    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        let legal = Self::legal(state, seat);
        let mut out = legal.representatives();
        if legal.run_routes.is_some()
            && let Some(sym) = operating_round::current(state)
        {
            let best = operating_round::best_routes(state, &sym, operating_round::DEFAULT_BUDGET);
            if best.revenue > 0 {
                for a in out.iter_mut() {
                    if matches!(a, Action::RunRoutes { .. }) {
                        *a = Action::RunRoutes {
                            routes: best.routes.clone(),
                        };
                    }
                }
            }
        }
        out
    }

    /// See [`flow::to_act`].
    fn to_act(state: &State) -> Vec<Seat> {
        flow::to_act(state)
    }

    /// See [`game_end::outcome`] (1841 §13).
    fn outcome(state: &State) -> Option<Outcome> {
        game_end::outcome(state)
    }

    /// See [`view::view`].
    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }
}
