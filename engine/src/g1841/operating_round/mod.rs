//! Operating rounds (1841 §8, §9, §10): operating order, the steps of a corporation's turn
//! (track → token → routes → dividend → trains → corporate shares), the end of the round and
//! the next round.
//!
//! `apply` accepts exactly the actions [`legal`] lists (plus cross-corporation train purchases
//! at any price in [`TrainPurchaseRange`]), so the two always agree. Steps without a legal
//! action are skipped automatically, as 18xx does.

use std::collections::BTreeSet;

use super::action::{Action, Event, LegalActions, Route, TokenPurchaseRange, TrainPurchaseRange};
use super::corporation::{controller, phase_number};
use super::data;
use super::map::{self, End, NodeKind};
use super::market;
use super::state::{
    CorporateEvent, CorporateSale, CorporationKind, MapToken, OperatingRound, OperatingStep,
    PlacedTile, Round, ShareOwner, StartStep, State,
};
use super::track;
use crate::{Rejection, RejectionCode, Seat};

mod dividends;
mod emergency;
pub mod events;
mod explain;
mod optimizer;
mod routes;
mod shares;
mod tiles;
mod tokens;
mod trains;

use dividends::*;
pub use emergency::*;
pub use optimizer::*;
pub use routes::*;
pub(in crate::g1841) use shares::could_sell_any;
pub use shares::sold_this_operating_round;
use shares::*;
pub use tiles::*;
pub use tokens::*;
pub use trains::*;
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

/// The corporation whose decision the round waits for: the first corporation that must
/// discard a train (1841 §9.6), else the operating corporation.
pub fn acting(state: &State) -> Option<String> {
    let r = round(state)?;
    r.crowded.first().cloned().or_else(|| r.current.clone())
}

/// The seat acting for the operating corporation (its controller, 1841 §7.2); empty when
/// the corporation is in a step this build cannot play (routes, emergency money raising).
pub fn to_act(state: &State) -> Vec<Seat> {
    // 1841 §9.6: a corporation over its train limit discards before anything else, an
    // event's decision included (18xx.games' `DiscardTrain` step comes before its
    // `RemoveTokens`, `ChooseOption` and `BuyNewTokens` steps).
    if events::in_progress(state) && round(state).is_none_or(|r| r.crowded.is_empty()) {
        return events::to_act(state);
    }
    // (For the operating corporation `discard_seat` is its controller.)
    acting(state)
        .and_then(|c| discard_seat(state, &c))
        .filter(|s| !legal(state, *s).is_empty())
        .map(|s| vec![s])
        .unwrap_or_default()
}

fn phase_data(state: &State) -> Option<&'static data::PhaseData> {
    data::ruleset(&state.options).phase(&state.phase)
}

/// Everything `seat` may do now in the operating round.
pub fn legal(state: &State, seat: Seat) -> LegalActions {
    legal_with_lays(state, seat, None, &track::LazyBoard::new())
}

/// [`legal`] on a board of the state, with the track step's lays when the caller has already
/// listed them (`legal_lays` of the same state).
fn legal_with_lays(
    state: &State,
    seat: Seat,
    lays: Option<&[Lay]>,
    board: &track::LazyBoard,
) -> LegalActions {
    listing(state, seat, lays, board, true)
}

/// [`legal_with_lays`]; with `dedupe` false an action may be listed more than once (enough
/// to judge whether an action is listed, without comparing every pair).
fn listing(
    state: &State,
    seat: Seat,
    lays: Option<&[Lay]>,
    board: &track::LazyBoard,
    dedupe: bool,
) -> LegalActions {
    let mut out = LegalActions::default();
    let Some(r) = round(state) else { return out };
    // 1841 §9.6: discards come first, before an event's decision (see [`to_act`]).
    if let Some(crowded) = r.crowded.first() {
        if discard_seat(state, crowded) == Some(seat) {
            out.actions = discard_options(state);
        }
        return out;
    }
    if r.event.is_some() {
        return events::legal(state, seat);
    }
    let Some(sym) = r.current.clone() else {
        return out;
    };
    if controller(state, &sym) != Some(seat) {
        return out;
    }
    if let Some(start) = &r.start {
        out.actions = super::stock_round::start_legal(state, start);
        return out;
    }
    match r.step {
        OperatingStep::Track => {
            let listed;
            let lays = match lays {
                Some(l) => l,
                None => {
                    listed = legal_lays_with(state, board);
                    &listed
                }
            };
            out.actions = lays
                .iter()
                .map(|l| Action::LayTile {
                    hex: l.hex.clone(),
                    tile: l.tile.clone(),
                    rotation: u32::from(l.rotation),
                })
                .collect();
            out.actions.push(Action::Pass);
        }
        OperatingStep::Token => {
            out.actions = legal_tokens_with(state, board)
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
            out.token_purchases = token_purchases_with(state, board);
            out.actions = vec![Action::Pass];
        }
        OperatingStep::Trains if in_emergency_with(state, board) => {
            // 1841 §14: emergency money raising.
            out.actions = emergency_sales(state);
            out.actions.extend(emergency_buys(state));
            if !r.emergency {
                out.train_purchases = train_options(state).1;
            }
            if may_go_bankrupt(state) {
                out.actions.push(Action::DeclareBankruptcy { loan: false });
                out.actions.push(Action::DeclareBankruptcy { loan: true });
            }
        }
        OperatingStep::Trains => {
            let (actions, ranges) = train_options(state);
            out.actions = actions;
            out.train_purchases = ranges;
            if !must_buy_train_with(state, board, &sym) {
                out.actions.push(Action::Pass);
            }
        }
        OperatingStep::Shares => {
            out.actions = sell_options(state);
            // 1841 §7.3, FAQ-C7, FAQ-Q11: a corporation that must sell only sells.
            if shares::must_sell(state).is_none() {
                out.actions.extend(share_options(state));
                out.actions.push(Action::Pass);
            }
        }
        OperatingStep::Merge => {
            out.actions = events::merger::partners(state, &sym)
                .into_iter()
                .map(|partner| Action::ProposeMerger { partner })
                .collect();
            out.actions.push(Action::Pass);
        }
        OperatingStep::Transform => {
            out.actions = events::transform::targets(state, &sym)
                .into_iter()
                .map(|corporation| Action::Transform { corporation })
                .collect();
            out.actions.push(Action::Pass);
        }
    }
    // Dedupe, keeping the first of equal actions. (Lays traceable to several bases are
    // listed once already by `legal_lays`.)
    if dedupe && r.step != OperatingStep::Track {
        let mut kept: Vec<Action> = Vec::with_capacity(out.actions.len());
        for a in out.actions.drain(..) {
            if !kept.contains(&a) {
                kept.push(a);
            }
        }
        out.actions = kept;
    }
    out
}

/// The parts of the operating round that [`apply`] judges an action by.
struct TurnNow {
    event: bool,
    current: Option<String>,
    crowded: Option<String>,
    step: OperatingStep,
    start: Option<super::state::CorporationStart>,
    revenue: i64,
}

/// Applies an operating-round action in place. Every refusal happens before the first
/// change (the legality of the action is settled first, then it is carried out; the corporate
/// events likewise), so on `Err` the state is unchanged and the caller needs no copy.
///
/// Rejections: `NOT_YOUR_TURN` (not the operating corporation's controller), `UNSUPPORTED`
/// (routes/dividends with trains, the first 4-train, emergency money raising), `WRONG_STEP`
/// (an action of another step), `ILLEGAL_MOVE` (anything else not in [`legal`]).
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    // What the action is judged by (copied: the state changes below).
    let Some(r) = round(state).map(|r| TurnNow {
        event: r.event.is_some(),
        current: r.current.clone(),
        crowded: r.crowded.first().cloned(),
        step: r.step,
        start: r.start.clone(),
        revenue: r.revenue,
    }) else {
        return Err(reject(
            RejectionCode::WrongStep,
            RULE,
            "No operating round.",
        ));
    };
    // FAQ-C18: corporations never buy from players; purchases between players belong to the
    // stock round (1841 §5.2, §15.3).
    if matches!(
        action,
        Action::OfferPurchase { .. } | Action::AnswerOffer { .. }
    ) {
        return Err(if to_act(state).contains(&seat) {
            reject(
                RejectionCode::IllegalMove,
                "FAQ-C18",
                "Corporations buy certificates only from an IPO or the pool, never from players; purchases between players happen in stock rounds.",
            )
        } else {
            reject(
                RejectionCode::NotYourTurn,
                RULE,
                format!("Seat {seat} is not to act in this operating round."),
            )
        });
    }
    if r.event && r.crowded.is_none() {
        return events::apply(state, seat, action);
    }
    if let Some(crowded) = r.crowded.clone() {
        if discard_seat(state, &crowded) != Some(seat) {
            return Err(reject(
                RejectionCode::NotYourTurn,
                "1841 §9.6",
                format!("{crowded} must first discard a train; seat {seat} does not control it."),
            ));
        }
        let mut events = Vec::new();
        match action {
            Action::DiscardTrain { corporation, train }
                if discard_options(state).contains(action) =>
            {
                discard_train(state, corporation, train, &mut events);
            }
            Action::DiscardTrain { .. } => {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    "1841 §9.6",
                    format!("{crowded} must discard one of its own trains."),
                ));
            }
            _ => {
                return Err(reject(
                    RejectionCode::WrongStep,
                    "1841 §9.6",
                    format!(
                        "{crowded} is over its train limit and must discard a train first; `{}` is not possible now.",
                        action.kind_name()
                    ),
                ));
            }
        }
        after_discards(state, &mut events);
        return Ok(events);
    }
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
    // One board of the state before the action for every search of the legality test. The
    // track step's lays, found once for both the legality test and the lay itself: the
    // action's lay alone, if legal (a pass needs none); a refusal lists them all (`why_not`).
    let board = track::LazyBoard::new();
    let lays = (r.step == OperatingStep::Track && r.start.is_none()).then(|| match action {
        Action::LayTile {
            hex,
            tile,
            rotation,
        } => legal_lay(state, &board, hex, tile, *rotation)
            .into_iter()
            .collect(),
        _ => Vec::new(),
    });
    // Some actions are judged without listing the step ([`known_listing`]); the others by
    // the listing, left with its repeats (whether the action is listed is all that counts;
    // a refusal explains itself with the listing as `legal` gives it, below).
    let (legal, known) = match known_listing(r.step, r.start.is_some(), action) {
        Some(known) => {
            debug_assert_eq!(
                known.actions.contains(action),
                legal_with_lays(state, seat, None, &board)
                    .actions
                    .contains(action),
                "{action:?} in the {:?} step is judged as the listing does",
                r.step
            );
            (known, true)
        }
        None => match narrowed_listing(state, r.step, r.start.is_some(), action, &board) {
            Some(narrowed) => {
                debug_assert!(
                    {
                        let full = legal_with_lays(state, seat, None, &board);
                        let judged = |l: &LegalActions| {
                            l.actions.contains(action)
                                || matches!(action, Action::BuyTrain { train, from, price }
                                    if l.train_purchases.iter().any(|t| &t.train == train
                                        && &t.from == from
                                        && (t.min_price..=t.max_price).contains(price)))
                        };
                        judged(&narrowed) == judged(&full)
                    },
                    "{action:?} in the {:?} step is judged as the listing does",
                    r.step
                );
                (narrowed, false)
            }
            None => (listing(state, seat, lays.as_deref(), &board, false), false),
        },
    };
    let mut events = Vec::new();
    let listed = legal.actions.contains(action);
    if let Some(start) = r.start.clone() {
        if !listed {
            return Err(reject(
                if matches!(
                    action,
                    Action::BuyShares { .. }
                        | Action::PlaceToken { .. }
                        | Action::BuyTokens { .. }
                        | Action::Pass
                ) {
                    RejectionCode::IllegalMove
                } else {
                    RejectionCode::WrongStep
                },
                super::start::RULE,
                format!(
                    "{sym} is starting {} ({}); `{}` is not possible now.",
                    start.corporation,
                    match start.step {
                        StartStep::BuyShares => "buy more of its IPO shares or pass",
                        StartStep::HomeToken => "choose its home city",
                        StartStep::BuyTokens => "choose how many tokens it buys",
                    },
                    action.kind_name()
                ),
            ));
        }
        if let Action::BuyShares {
            corporation,
            percent,
            ..
        } = action
        {
            buy_share(state, &sym, corporation, false, *percent, &mut events);
            super::start::after_buy(state, corporation, &mut events);
        } else if super::stock_round::apply_start(state, &start, action, &mut events) {
            // 1841 §8: the share step ends with the start; the merge step follows.
            advance(state, &mut events);
        }
        settle(state, &mut events);
        return Ok(events);
    }
    // FAQ-Q2 (`price_drops_lowest_first`): a selling (share step, emergency, 1841 §14) ends
    // with anything but another sale; its pending price drops are made first.
    let a_sale = matches!(
        action,
        Action::SellShares { .. } | Action::EmergencySell { .. }
    );
    if listed && !a_sale {
        super::sale::selling_ends(state, &mut events);
    }
    match action {
        Action::Pass if listed => {
            events.push(Event::Passed {
                seat,
                automatic: false,
            });
            advance(state, &mut events);
        }
        Action::Pass if r.step == OperatingStep::Trains => {
            return Err(reject(
                RejectionCode::IllegalMove,
                if in_emergency_with(state, &board) {
                    "1841 §14"
                } else {
                    "1841 §9.6"
                },
                format!(
                    "{sym} has a route but no train: it must buy one{}.",
                    if in_emergency_with(state, &board) {
                        " (emergency money raising)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        Action::LayTile {
            hex,
            tile,
            rotation,
        } if listed => {
            let lay = lays
                .unwrap_or_default()
                .into_iter()
                .find(|l| &l.hex == hex && &l.tile == tile && u32::from(l.rotation) == *rotation)
                .ok_or_else(|| reject(RejectionCode::IllegalMove, "1841 §9.1", "lay"))?;
            let after = lay_tile(state, &sym, &lay, board.made_shared(), &mut events);
            // Nothing below moves a tile or a token before the step skipping.
            settle_on(state, &mut events, track::LazyBoard::of(after));
            return Ok(events);
        }
        Action::PlaceToken { hex, city } if listed => {
            // The board of the state with the token, for the look-ups after it.
            let mut after = None;
            if let Some(c) = state.corporation_index(&sym)
                && let Some(corp) = state.corporations.get_mut(c)
            {
                corp.tokens.push(MapToken {
                    hex: hex.clone(),
                    city: *city,
                });
                after = board
                    .made_shared()
                    .map(|before| track::Board::after_token(before, state, c));
            }
            events.push(Event::TokenPlaced {
                corporation: sym.clone(),
                hex: hex.clone(),
                city: *city,
            });
            // From the token step `advance` moves on to the routes step and nothing else (no
            // tile or token moves): the step skipping gets the board.
            let from_token_step = round(state).is_some_and(|r| r.step == OperatingStep::Token);
            advance(state, &mut events);
            if let Some(after) = after.filter(|_| from_token_step) {
                settle_on(state, &mut events, track::LazyBoard::of(after));
                return Ok(events);
            }
        }
        Action::BuyTrain { train, from, price } if listed && in_emergency_with(state, &board) => {
            contribute(state, &sym, *price, &mut events);
            buy_train(state, &sym, train, from, *price, &mut events);
            end_trains_step_if_spent(state, &mut events);
        }
        Action::EmergencySell {
            seller,
            corporation,
            percent,
        } if listed => {
            emergency_sell(state, seat, seller, corporation, *percent, &mut events);
            let owner = match seller {
                Some(c) => ShareOwner::Corporation(c.clone()),
                None => ShareOwner::Player(seat),
            };
            sweep(state, &sym, &owner, &mut events);
        }
        Action::DeclareBankruptcy { loan } if listed => {
            declare_bankruptcy(state, seat, *loan, &mut events);
            // 1841 §14: the bankruptcy settles the train obligation; the corporation's turn
            // ends there (18xx.games: `G1841::Step::Bankrupt#process_bankrupt` →
            // `done_operating!`), also when a holder took its presidency and could go on.
            if round(state).is_some_and(|r| r.event.is_none() && r.start.is_none()) {
                end_turn(state, &mut events);
            }
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
            end_trains_step_if_spent(state, &mut events);
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
        Action::Par { corporation, price } if listed => {
            start_corporation(state, seat, &sym, corporation, *price, &mut events);
        }
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } if listed => {
            buy_share(state, &sym, corporation, *from_pool, *percent, &mut events);
            // 1841 §9.7: one purchase ends the share step; the merge step follows.
            advance(state, &mut events);
        }
        Action::ProposeMerger { partner } if listed => {
            events::merger::propose(state, &sym, partner);
            events::run(state, &mut events);
        }
        Action::Transform { corporation } if listed => {
            events::transform::begin(state, &sym, corporation, &mut events);
            events::run(state, &mut events);
        }
        Action::ProposeMerger { partner } if r.step == OperatingStep::Merge => {
            return Err(reject(
                RejectionCode::IllegalMove,
                "1841 §12.1",
                events::merger::why_not(state, &sym, partner),
            ));
        }
        Action::Transform { corporation } if r.step == OperatingStep::Transform => {
            return Err(reject(
                RejectionCode::IllegalMove,
                "1841 §12.2",
                format!(
                    "{sym} cannot become {corporation} now: only a minor (historical ones from \
                     phase 4) with its second token paid for may transform, into an unstarted \
                     non-historical major."
                ),
            ));
        }
        _ => {
            let step_of = match action {
                Action::LayTile { .. } => Some(OperatingStep::Track),
                Action::PlaceToken { .. } => Some(OperatingStep::Token),
                Action::BuyTrain { .. }
                | Action::EmergencySell { .. }
                | Action::DeclareBankruptcy { .. } => Some(OperatingStep::Trains),
                Action::RunRoutes { .. } => Some(OperatingStep::Routes),
                Action::Dividend { .. } => Some(OperatingStep::Dividend),
                Action::BuyToken { .. } => Some(OperatingStep::BuyToken),
                Action::BuyShares { .. } | Action::SellShares { .. } | Action::Par { .. } => {
                    Some(OperatingStep::Shares)
                }
                Action::ProposeMerger { .. } => Some(OperatingStep::Merge),
                Action::Transform { .. } => Some(OperatingStep::Transform),
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
                // `legal` lists the lays of one hex only (above), and its other steps with
                // repeats: list them all here, as `legal` does (the state is unchanged).
                let all = if r.step == OperatingStep::Track || !known {
                    legal_with_lays(state, seat, None, &board)
                } else {
                    legal
                };
                explain::why_not(state, &sym, r.step, action, &all)
            });
        }
    }
    settle(state, &mut events);
    Ok(events)
}

/// Ends the train step right after a purchase when the buyer cannot buy another train at
/// that moment (no room under the train limit of the phase now in force, or no train it can
/// pay from its treasury), before the first 4-train's events (1841 §11) or a discard
/// (§9.6) change its cash or its trains. 1841 §9.6 lets a corporation buy trains in its
/// train step and is silent on whether the step survives a purchase that leaves it unable
/// to buy; 18xx.games ends it then (`Step::BuyTrain#process_buy_train`: `pass! unless
/// can_buy_train?`), so a buyer left with L.0 that gets cash in the Tuscan merge (§12.3:
/// its SSFL share sold for half the new price) does not buy again, and this engine does
/// the same (interpretation I30; version_1 random p3 seed 3012, 18xx id 466: RSFS, L.0
/// after its 4-train, L.26 after the merge, goes to its share step).
fn end_trains_step_if_spent(state: &mut State, events: &mut Vec<Event>) {
    if round(state).is_some_and(|r| r.step == OperatingStep::Trains) && !has_train_option(state) {
        advance(state, events);
    }
}

/// Whether a listing holds a pass and nothing else (the step is skipped then).
fn only_a_pass(l: &LegalActions) -> bool {
    l.actions == [Action::Pass] && l.train_purchases.is_empty() && l.token_purchases.is_empty()
}

/// For the actions whose legality does not depend on the state beyond the step, what `apply`
/// needs of [`legal`] (no start in progress, the operating corporation's controller asking):
/// a pass where one is always listed ([`pass_always_listed`]); the two dividend choices in
/// the dividend step; nothing for routes in the routes step (the routes are checked by
/// [`check_routes`], the listing only names the trains). `None`: list the step.
fn known_listing(step: OperatingStep, starting: bool, action: &Action) -> Option<LegalActions> {
    if starting {
        return None;
    }
    let actions = match (action, step) {
        (Action::Pass, s) if pass_always_listed(s) => vec![Action::Pass],
        (Action::Dividend { .. }, OperatingStep::Dividend) => vec![
            Action::Dividend { payout: true },
            Action::Dividend { payout: false },
        ],
        (Action::RunRoutes { .. }, OperatingStep::Routes) => Vec::new(),
        _ => return None,
    };
    Some(LegalActions {
        actions,
        ..LegalActions::default()
    })
}

/// For an action judged by a part of its step's listing, that part (no start in progress, the
/// operating corporation's controller asking, as [`known_listing`]); `None`: list the step.
/// A part holds the action exactly when the whole listing does:
/// * the share step (1841 §9.7): a sale, purchase or start by the options of its kind and
///   corporation ([`share_step_listing_of`]);
/// * the train step (1841 §9.6): a pass by whether the corporation must buy a train, a
///   purchase by the depot and pool purchases and the ranges of its train
///   ([`train_options_of`]); in emergency money raising (1841 §14) no pass, a purchase by the
///   emergency purchases and the ranges of its train (until the first emergency sale), a sale
///   by the emergency sales, a bankruptcy by whether it may be declared.
fn narrowed_listing(
    state: &State,
    step: OperatingStep,
    starting: bool,
    action: &Action,
    board: &track::LazyBoard,
) -> Option<LegalActions> {
    if starting {
        return None;
    }
    match step {
        OperatingStep::Shares => {
            // A corporation that must sell (1841 §7.3) may only sell.
            let forced = || shares::must_sell(state).is_some();
            let actions = match action {
                Action::Pass if forced() => Vec::new(),
                Action::Pass => vec![Action::Pass],
                Action::SellShares { .. } => share_step_listing_of(state, action)?,
                _ => {
                    let listed = share_step_listing_of(state, action)?;
                    if forced() { Vec::new() } else { listed }
                }
            };
            Some(LegalActions {
                actions,
                ..LegalActions::default()
            })
        }
        OperatingStep::Trains => {
            let r = round(state)?;
            let sym = r.current.as_deref()?;
            let emergency = in_emergency_with(state, board);
            let actions = |actions| LegalActions {
                actions,
                ..LegalActions::default()
            };
            Some(match action {
                // 1841 §14: no pass in an emergency; otherwise unless a train must be bought.
                Action::Pass => actions(if emergency || must_buy_train_with(state, board, sym) {
                    Vec::new()
                } else {
                    vec![Action::Pass]
                }),
                Action::BuyTrain { train, from, .. } => {
                    let only = Some((train.as_str(), from.as_str()));
                    if emergency {
                        LegalActions {
                            actions: emergency_buys(state),
                            train_purchases: if r.emergency {
                                Vec::new()
                            } else {
                                train_options_of(state, only).1
                            },
                            ..LegalActions::default()
                        }
                    } else {
                        let (actions, train_purchases) = train_options_of(state, only);
                        LegalActions {
                            actions,
                            train_purchases,
                            ..LegalActions::default()
                        }
                    }
                }
                Action::EmergencySell { .. } if emergency => actions(emergency_sales(state)),
                Action::DeclareBankruptcy { .. } if emergency && may_go_bankrupt(state) => {
                    actions(vec![
                        Action::DeclareBankruptcy { loan: false },
                        Action::DeclareBankruptcy { loan: true },
                    ])
                }
                Action::EmergencySell { .. } | Action::DeclareBankruptcy { .. } => {
                    actions(Vec::new())
                }
                _ => return None,
            })
        }
        _ => None,
    }
}

/// Whether [`legal`] lists a pass in `step` whatever the state (no start in progress, the
/// operating corporation's controller asking).
fn pass_always_listed(step: OperatingStep) -> bool {
    matches!(
        step,
        OperatingStep::Track
            | OperatingStep::Token
            | OperatingStep::BuyToken
            | OperatingStep::Merge
            | OperatingStep::Transform
    )
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
        OperatingStep::Merge => "1841 §12.1",
        OperatingStep::Transform => "1841 §12.2",
    }
}

/// Moves the current corporation to its next step (1841 §8).
fn advance(state: &mut State, events: &mut Vec<Event>) {
    if round(state).is_some_and(|r| r.step == OperatingStep::Shares) {
        // FAQ-Q2: the share step's selling is over.
        super::sale::selling_ends(state, events);
    }
    let Some(r) = round(state) else { return };
    let next = match r.step {
        OperatingStep::Track => Some(OperatingStep::Token),
        OperatingStep::Token => Some(OperatingStep::Routes),
        OperatingStep::Routes => Some(OperatingStep::Dividend),
        OperatingStep::Dividend => Some(OperatingStep::BuyToken),
        OperatingStep::BuyToken => Some(OperatingStep::Trains),
        OperatingStep::Trains => Some(OperatingStep::Shares),
        OperatingStep::Shares => Some(OperatingStep::Merge),
        OperatingStep::Merge => Some(OperatingStep::Transform),
        OperatingStep::Transform => None,
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
    settle_on(state, events, track::LazyBoard::new());
}

/// [`settle`] with `board`, empty or the board of `state`.
fn settle_on(state: &mut State, events: &mut Vec<Event>, board: track::LazyBoard) {
    // 1841 §11: the first 4-train's events run as soon as it is bought, however it was bought
    // (normally, in an emergency, in a bankruptcy); `events::run` settles afterwards.
    if round(state).is_some_and(|r| r.event.is_none() && !r.queued_events.is_empty()) {
        events::run(state, events);
        return;
    }
    // Skipping steps, ending turns and rounds moves no tile and no token: one board, made
    // when first needed, serves every check of the loop.
    for _ in 0..10_000 {
        debug_assert!(
            board.made().is_none_or(|b| b.is_current(state)),
            "settle: the board changed"
        );
        let Some(r) = round(state) else {
            return;
        };
        let Some(sym) = r.current.clone() else { return };
        if r.start.is_some()
            || r.event.is_some()
            || !r.queued_events.is_empty()
            || !r.crowded.is_empty()
        {
            return;
        }
        let step = r.step;
        let Some(seat) = controller(state, &sym) else {
            // Frozen mid-turn (cannot happen in the implemented steps): end the turn.
            end_turn(state, events);
            continue;
        };
        match step {
            OperatingStep::Track => {
                if !has_legal_lay(state, &board) {
                    advance(state, events);
                } else {
                    return;
                }
            }
            OperatingStep::Token => {
                debug_assert_eq!(
                    has_legal_token(state, &board),
                    !legal_tokens_with(state, &board).is_empty(),
                    "the token step's skipping agrees with its listing"
                );
                if !has_legal_token(state, &board) {
                    advance(state, events);
                } else {
                    return;
                }
            }
            OperatingStep::Routes => {
                if train_count(state, &sym) == 0 || !route_available_with(state, &board, &sym) {
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
                // I16: offered with an unplaced token — and treasury money to pay at least
                // L.1 (132002 action 732: SFLi, L.0, skips the step).
                let cash = state.corporation(&sym).map_or(0, |c| c.cash);
                if has_unplaced_token(state, &sym) && cash >= 1 {
                    return;
                }
                advance(state, events);
            }
            // The shares step without a listing: the first option found is enough.
            OperatingStep::Shares => {
                // I35: 18xx plays the share step (a pass is recorded) while its listing has
                // a `par` the treasury can pay, even where no start is legal here
                // ([`shares_step_open`]).
                let skip = !has_sell_option(state) && !has_share_option(state);
                debug_assert_eq!(
                    skip,
                    only_a_pass(&legal_with_lays(state, seat, None, &board)),
                    "the share step's skipping agrees with its listing"
                );
                if skip && !shares_step_open(state, &sym) {
                    events.push(Event::Passed {
                        seat,
                        automatic: true,
                    });
                    advance(state, events);
                } else {
                    return;
                }
            }
            // The train step is skipped when its listing would be a pass alone, found without
            // listing: an emergency (1841 §14) never lists a pass, a corporation that must buy
            // lists none unless it can buy, otherwise a pass is listed beside the purchases.
            OperatingStep::Trains => {
                let stay = has_train_option(state) || must_buy_train_with(state, &board, &sym);
                debug_assert_eq!(
                    stay,
                    !only_a_pass(&legal_with_lays(state, seat, None, &board)),
                    "the train step's skipping agrees with its listing"
                );
                if stay {
                    return;
                }
                advance(state, events);
            }
            OperatingStep::Merge => {
                // 18xx offers the step (a pass is recorded) whenever the corporation itself
                // may merge, partner or not (interpretation I32).
                if events::merger::step_active(state, &sym) {
                    return;
                }
                advance(state, events);
            }
            OperatingStep::Transform => {
                if events::transform::targets(state, &sym).is_empty() {
                    advance(state, events);
                } else {
                    return;
                }
            }
        }
    }
}

/// Whether the corporate share step waits for the corporation even without a start, a
/// purchase or a sale this engine lists (interpretation I35, revised 2026-12-06): 18xx.games
/// (`G1841::Step::CorporateBuySellParShares`, `BuySellParShares#can_ipo_any?`) opens the step
/// with a `par` whenever the treasury can pay the first IPO certificate of a corporation its
/// `can_par?` accepts, priced at the lowest par price (L.68 a unit):
/// * a non-historical corporation not started (phase 3 on): its president's certificate,
///   twice the par (L.136, 1841 §5.4), whether or not a home city is free;
/// * from phase 4 (when `concession_ok?` lets a corporation start any corporation), a
///   historical corporation that is closed (§3.4, §11 step 2, §12: closed for good, so never
///   a real start): 18xx keeps its IPO in the order the certificates came back, so its first
///   certificate is an ordinary share (L.68) when it still had unsold IPO shares at its close
///   ([`Corporation::ipo_first_share_ordinary`]; lite recorded game, action 721: IFAI with
///   L.97 passes the step, IRSFF having kept three IPO shares through the split), otherwise
///   its president's certificate (L.136); a corporation formed by an event counts only once
///   formed ([`super::corporation::closed_historical_listed_par_cost`]).
///
/// The corporation must hold fewer than 5 certificates of others (§9.7). So a corporation
/// with less than L.136 and nothing to buy or sell has no step in general (lite heuristic 3
/// players seed 3001, 18xx id 227: RSFS with L.86 in its first turn; before, the step was
/// kept open from L.68 whenever a non-historical corporation could start). A merger's
/// exchanges give the certificates back in 18xx's order (`merger::first_back_is_ordinary`,
/// since 2026-12-07). Not modelled: the split with IRSFF's president's certificate in the
/// pool.
///
/// [`Corporation::ipo_first_share_ordinary`]: super::state::Corporation::ipo_first_share_ordinary
fn shares_step_open(state: &State, sym: &str) -> bool {
    let Some(c) = state.corporation(sym) else {
        return false;
    };
    let lowest = market::par_prices(state, CorporationKind::Minor)
        .into_iter()
        .chain(market::par_prices(state, CorporationKind::Major))
        .min()
        .unwrap_or(i64::MAX);
    if c.cash < lowest {
        return false;
    }
    let rules = data::ruleset(&state.options);
    let owner = ShareOwner::Corporation(sym.to_string());
    let held = state
        .corporations
        .iter()
        .flat_map(|x| x.certificates.iter())
        .filter(|x| x.owner == owner)
        .count();
    let max_held =
        usize::try_from(rules.corporation_max_certificates_of_other_corporations).unwrap_or(0);
    if held >= max_held {
        return false;
    }
    let phase = phase_number(state);
    let president = lowest.saturating_mul(2);
    state.corporations.iter().any(|x| {
        if x.started() || x.sym == sym {
            false
        } else if x.closed {
            super::corporation::closed_historical_listed_par_cost(state, x, lowest)
                .is_some_and(|first| c.cash >= first)
        } else {
            phase >= 3
                && c.cash >= president
                && !x.historical
                && super::corporation::is_non_historical(&state.options, &x.sym)
        }
    })
}

/// Ends the current corporation's turn and starts the next one (or the round is [`over`]).
fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    super::sale::selling_ends(state, events);
    let Some(sym) = current(state) else { return };
    let started = state.corporation(&sym).is_some_and(|c| c.started());
    if let Some(c) = state.corporation_mut(&sym)
        && started
    {
        c.operated = true;
    }
    if let Some(r) = round_mut(state) {
        if started && !r.done.contains(&sym) {
            r.done.push(sym);
        }
        r.current = None;
    }
    // 1841 §13: the stock-market and off-board triggers end the game after this turn.
    if super::game_end::at_end_of_turn(state, events) {
        return;
    }
    next_corporation(state, events);
}

/// Goes on once no corporation must discard a train (1841 §9.6): the current corporation's
/// turn, or — its turn over (a merger's initiator, a corporation gone in an event) — the next
/// corporation's, or the end of the round. While a corporation is over its limit nothing moves
/// on: a merger completed by the round's last corporation must not end the round with the new
/// corporation above its limit.
fn after_discards(state: &mut State, events: &mut Vec<Event>) {
    let Some(r) = round(state) else { return };
    if !r.crowded.is_empty() {
        return;
    }
    if r.current.is_none() && r.event.is_none() && r.queued_events.is_empty() {
        // 1841 §13: the stock-market and off-board triggers end the game after this turn,
        // also a turn that ended with a merger (p2p_purchases heuristic 4 players seed 4001,
        // 18xx id 1816: ATFA reached L.516 with its dividend, merged into IFAI, and 18xx
        // ended the game there; this engine went on to CGTF's turn).
        if super::game_end::at_end_of_turn(state, events) {
            return;
        }
        next_corporation(state, events);
    }
    settle(state, events);
}

/// Starts the next corporation in operating order that has not yet operated (1841 §8: the
/// order is re-read after every turn, so price changes re-sort the remainder: FAQ-Q13, share
/// sales in an operating round, a bankrupt president's sales (§14) included, re-order the
/// corporations still to operate; 18xx.games does not re-sort after a bankruptcy, the
/// reviewed divergence `operating-order-after-bankruptcy`). A frozen
/// corporation only moves left twice (1841 §7.4). After the last one the round is [`over`]
/// ([`super::flow`] ends it).
fn next_corporation(state: &mut State, events: &mut Vec<Event>) {
    loop {
        let Some(sym) = next_in_order(state) else {
            return;
        };
        if controller(state, &sym).is_none() {
            frozen_turn(state, &sym, events);
            continue;
        }
        if let Some(r) = round_mut(state) {
            r.current = Some(sym.clone());
            r.step = OperatingStep::Track;
            r.laid_hexes.clear();
            r.used_bases.clear();
            r.bought_train = false;
            r.sold.clear();
            r.start = None;
            r.emergency = false;
            r.train_obligation_released = false;
        }
        events.push(Event::OperatingTurn { corporation: sym });
        return;
    }
}

/// The corporation to operate next in [`next_corporation`]: the first in operating order
/// that has not operated in this round, or a split successor in IRSFF's slot.
fn next_in_order(state: &State) -> Option<String> {
    let r = round(state)?;
    let next = market::first_in_operating_order(state, |s| r.done.iter().any(|d| d == s))
        .map(str::to_string);
    split_slot_turn(state, r, next.as_deref()).or(next)
}

/// The Ferdinandea split's successor that operates next in IRSFF's slot instead of `next`
/// (1841 §12.4: "if IRSFF had not yet operated in this OR, SB and SFL operate in its
/// place"; FAQ-Q24: in IRSFF's slot): SB (Version 1: SFV), then SFL, each once, when IRSFF's
/// place at the split comes before `next` or `next` is a successor. In Version 2 the successors
/// take IRSFF's place in its market stack (FAQ-C15), and this changes nothing; in Version 1 an
/// IRSFF right of column 10 sends them to column 10 behind the markers there (18xx
/// `secession_replace_price_tokens`), yet they still operate where IRSFF would have
/// (18xx `secession_finish` puts them in IRSFF's place in the round's list; Version 1
/// heuristic 3 players seed 3126, 18xx id 400: SFV and SFL at L.195 behind CTDA's marker).
fn split_slot_turn(state: &State, r: &OperatingRound, next: Option<&str>) -> Option<String> {
    let slot = r.split_slot?;
    let successors = &data::ruleset(&state.options).ferdinandea_split.successors;
    let first = successors.iter().find(|s| {
        !r.done.contains(s)
            && state
                .corporation(s)
                .is_some_and(|c| c.share_price.is_some())
    })?;
    match next {
        Some(n) if !successors.iter().any(|s| s == n) && !market::slot_precedes(state, slot, n) => {
            None
        }
        _ => Some(first.clone()),
    }
}

/// The turn of a frozen corporation (1841 §7.4): its price moves left twice; one under
/// circular control also sells, at the market price with the usual drops, every share it
/// holds of the corporations in its loop (FAQ-Q23: full value). It has operated then
/// (FAQ-Q1).
fn frozen_turn(state: &mut State, sym: &str, events: &mut Vec<Event>) {
    move_left(state, sym, 2, events);
    if super::corporation::circular(state, sym) {
        sell_out_of_loop(state, sym, events);
    }
    if let Some(c) = state.corporation_mut(sym) {
        c.operated = true;
    }
    if let Some(r) = round_mut(state) {
        r.done.push(sym.to_string());
    }
}

/// Whether the operating round is over (1841 §8): no corporation operates, nothing waits (no
/// corporate event, §11, §12; no discard, §9.6) and no corporation is left to operate. (A
/// turn that ends the game, §13, may leave the round like this too: [`super::flow`] asks
/// after the game's end first.)
pub fn over(state: &State) -> bool {
    round(state).is_some_and(|r| {
        r.current.is_none()
            && r.event.is_none()
            && r.queued_events.is_empty()
            && r.crowded.is_empty()
    }) && next_in_order(state).is_none()
}

/// Starts operating round `stock_round`.`number` of `total` (1841 §8) with the first
/// corporation in operating order (the round may be [`over`] at once). Called by
/// [`super::flow`], which ends the round when it is over. Returns false, and starts no
/// corporation, when no corporation is on the market (interpretation I21: flow goes straight
/// to the next stock round).
pub(super) fn begin(
    state: &mut State,
    stock_round: u32,
    number: u32,
    total: u32,
    events: &mut Vec<Event>,
) -> bool {
    state.round = Round::OperatingRound(OperatingRound {
        stock_round,
        number,
        total,
        ..OperatingRound::default()
    });
    events.push(Event::RoundStarted {
        name: format!("Operating Round {stock_round}.{number}"),
    });
    // Interpretation I21: with no corporation on the market nothing operates; frozen
    // corporations only move left (`next_corporation`).
    if market::operating_order(state).is_empty() {
        return false;
    }
    next_corporation(state, events);
    settle(state, events);
    true
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
        OperatingStep::Merge => "merge",
        OperatingStep::Transform => "transform",
    }
}
