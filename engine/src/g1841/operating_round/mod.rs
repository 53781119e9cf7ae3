//! Operating rounds (1841 §8, §9, §10): the operating order, the corporations' turns and the
//! end of the round. A turn is the list of steps in [`steps`] (track → token → routes →
//! dividend → token purchase → trains → corporate shares → merge → transform), one module per
//! step; this module routes to them: a discard (§9.6), a corporate event (§11, §12: [`events`])
//! and a corporation start in the share step (§9.7) come before any step, and a listed pass
//! ends any step.
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
mod steps;
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
    let at = steps::At {
        state,
        sym: &sym,
        board,
    };
    out = steps::legal(r.step, &at, lays);
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
    // Some actions are judged by a part of their step's listing ([`steps::judge`]); the
    // others by the listing, left with its repeats (whether the action is listed is all that
    // counts; a refusal explains itself with the listing as `legal` gives it:
    // [`steps::unlisted`]).
    let at = steps::At {
        state,
        sym: &sym,
        board: &board,
    };
    let legal = match (r.start.is_none())
        .then(|| steps::judge(r.step, &at, action))
        .flatten()
    {
        Some(judged) => {
            debug_assert!(
                {
                    let full = legal_with_lays(state, seat, None, &board);
                    let holds = |l: &LegalActions| {
                        l.actions.contains(action)
                            || matches!(action, Action::BuyTrain { train, from, price }
                                if l.train_purchases.iter().any(|t| &t.train == train
                                    && &t.from == from
                                    && (t.min_price..=t.max_price).contains(price)))
                    };
                    holds(&judged) == holds(&full)
                },
                "{action:?} in the {:?} step is judged as the listing does",
                r.step
            );
            judged
        }
        None => listing(state, seat, lays.as_deref(), &board, false),
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
    if listed && matches!(action, Action::Pass) {
        events.push(Event::Passed {
            seat,
            automatic: false,
        });
        advance(state, &mut events);
        settle(state, &mut events);
        return Ok(events);
    }
    // An action of another step, or of no step of the operating turn.
    if steps::step_of(action, r.step) != Some(r.step) {
        return Err(reject(
            RejectionCode::WrongStep,
            RULE,
            format!(
                "{sym} is in its {} step; `{}` is not possible now.",
                steps::name(r.step),
                action.kind_name()
            ),
        ));
    }
    let judged = steps::Judged {
        seat,
        sym: &sym,
        step: r.step,
        board: &board,
        legal,
        listed,
        lays,
        revenue: r.revenue,
    };
    match steps::apply(state, &judged, action, &mut events)? {
        steps::Then::Stay => settle(state, &mut events),
        steps::Then::Next => {
            advance(state, &mut events);
            settle(state, &mut events);
        }
        steps::Then::EndTurn => {
            end_turn(state, &mut events);
            settle(state, &mut events);
        }
        steps::Then::StayOn(after) => settle_on(state, &mut events, after),
        steps::Then::NextOn(after) => {
            advance(state, &mut events);
            settle_on(state, &mut events, after);
        }
    }
    Ok(events)
}

/// Whether a listing holds a pass and nothing else (the step is skipped then).
fn only_a_pass(l: &LegalActions) -> bool {
    l.actions == [Action::Pass] && l.train_purchases.is_empty() && l.token_purchases.is_empty()
}

/// Moves the current corporation to its next step (1841 §8).
fn advance(state: &mut State, events: &mut Vec<Event>) {
    if round(state).is_some_and(|r| r.step == OperatingStep::Shares) {
        // FAQ-Q2: the share step's selling is over.
        super::sale::selling_ends(state, events);
    }
    let Some(r) = round(state) else { return };
    let next = steps::next(r.step);
    match next {
        Some(s) => {
            if let Some(r) = round_mut(state) {
                r.step = s;
            }
        }
        None => end_turn(state, events),
    }
}

/// Plays the steps that do not wait for the operating corporation ([`steps::settle`]: skipped
/// without a legal action as 18xx.games auto-skips, the routes step of a corporation that does
/// not run, 1841 §9.4) until one waits, the turn or the round is over, or an event or a
/// discard waits.
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
        match steps::settle(step, state, &sym, seat, &board, events) {
            steps::Settled::Waits => return,
            steps::Settled::Skipped => advance(state, events),
            steps::Settled::Moved => {}
        }
    }
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
