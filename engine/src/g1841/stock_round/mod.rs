//! The stock round of 1841 (1841 §5), one module per step of a share turn; this module only
//! routes: who acts ([`to_act`]), the listing ([`legal`]) and the test of one action
//! (`allows`), [`apply`], the turn order, the automatic passes of seats with nothing to do,
//! and the round's `begin`, [`over`] and `finish`.
//!
//! A share turn (1841 §5.1) is any number of sales, then at most one purchase, par, bank
//! concession purchase or purchase offer, or a pass; a seat over the certificate limit (§2) or
//! the 60% control limit (§7.3) must sell first (FAQ-Q9). The steps, in the order the listing
//! holds them:
//!
//! | step | module | rule | actions |
//! |---|---|---|---|
//! | sales | `sell` | 1841 §5.3 | `SellShares` (any number, before the rest; the price drops through [`super::sale`]) |
//! | par and the start it opens | `par` | 1841 §5.4, §3.4 | `Par`, then the start's `BuyShares` / `PlaceToken` / `BuyTokens` / `Pass` |
//! | purchase | `buy` | 1841 §5.2, §2, §7.3 | `BuyShares` (IPO or pool; ends the turn) |
//! | bank concession | `bank_concession` | 1841 §3.2, §5.1 | `BuyConcession` (from Stock Round 2; ends the turn) |
//! | purchase from a player | `offer` | 1841 §15.3 | `OfferPurchase`, then the seller's `AnswerOffer` (`p2p_purchases`) |
//! | pass | this module | 1841 §5.1 | `Pass` (every seat passing in a row ends the round) |
//!
//! After the round: `end` (1841 §5.5: price movements, Bayard's income, return of unused
//! concessions, priority), then [`super::flow`] begins Operating Round `n`.1 (§8).
//!
//! Every step module answers the same questions: its listing (one generator of its legal
//! actions, e.g. `sell::each_sale`, `buy::each_buy`, from which the listing, the test of
//! one action — the options of the action's corporation only — and whether the step offers
//! anything at all derive), the action carried out, and the refusal of an action outside the
//! listing (its `explain_*`). How the turn goes on after an action (it goes on after a sale,
//! ends after a purchase) is this module's.
//!
//! [`apply`] refuses before its first change (a copy only while FAQ-Q2 price drops are pending), so
//! a rejection never leaves a half-applied action behind.

use super::action::{Action, Event};
use super::p2p;
use super::sale;
use super::start;
use super::state::{Round, State, StockRound};
use crate::{Rejection, RejectionCode, Seat};

mod bank_concession;
mod buy;
mod end;
mod offer;
mod par;
mod sell;

pub(crate) use bank_concession::bank_concession_buyable_in_18xx;
pub(super) use end::finish;
pub use offer::offers;
pub use par::{apply_start, start_legal};
pub use sell::over_limits;
pub(crate) use sell::{has_sale_ignoring_circular_control, successor};

/// Rule cited for the stock round in general.
pub const RULE: &str = "1841 §5";

std::thread_local! {
    /// The question of [`probe_turn_ends`] and the seats it answered yes for, in order.
    static TURN_END_PROBE: std::cell::RefCell<Option<(TurnEndQuestion, Vec<Seat>)>> =
        const { std::cell::RefCell::new(None) };
}

/// A question about a seat whose stock-round turn this engine ended by itself, asked of the
/// position at that moment (see [`probe_turn_ends`]).
pub(crate) type TurnEndQuestion = fn(&State, Seat) -> bool;

/// Runs `f` (applying actions) and returns its result with the seats, in order, whose
/// stock-round turn this engine ended by itself for want of a legal action (an automatic
/// pass, or the end of the turn right after the seat's own sale) and for which `question`,
/// asked of the position at that moment, answered yes. For the 18xx.games export, which must
/// write a `pass` where 18xx.games still offers the player something (its own reading of the
/// position); the rules are not affected. Not re-entrant: an inner probe replaces the outer.
pub(crate) fn probe_turn_ends<T>(
    question: TurnEndQuestion,
    f: impl FnOnce() -> T,
) -> (T, Vec<Seat>) {
    TURN_END_PROBE.with(|p| *p.borrow_mut() = Some((question, Vec::new())));
    let out = f();
    let seats = TURN_END_PROBE
        .with(|p| p.borrow_mut().take())
        .map(|(_, seats)| seats)
        .unwrap_or_default();
    (out, seats)
}

/// Tells a running [`probe_turn_ends`] that `seat`'s turn ends by itself in `state`.
fn turn_ends_by_itself(state: &State, seat: Seat) {
    TURN_END_PROBE.with(|p| {
        if let Some((question, seats)) = p.borrow_mut().as_mut()
            && question(state, seat)
        {
            seats.push(seat);
        }
    });
}

/// Rule cited for operating rounds (1841 §8).
pub const RULE_OPERATING_ROUND: &str = "1841 §8";

// ----- What the steps share ------------------------------------------------------------------

/// A refusal citing `rule`.
fn reject(code: RejectionCode, rule: &str, message: impl Into<String>) -> Rejection {
    Rejection::new(code, rule, message)
}

/// The refusal of an action on a state this round cannot have made.
fn corrupt(what: &str) -> Rejection {
    reject(
        RejectionCode::InvalidArgument,
        RULE,
        format!("Inconsistent state: {what}."),
    )
}

/// The stock round in progress.
fn round(state: &State) -> Option<&StockRound> {
    state.stock_round()
}

/// The stock round in progress, to change.
fn round_mut(state: &mut State) -> Option<&mut StockRound> {
    match &mut state.round {
        Round::StockRound(r) => Some(r),
        _ => None,
    }
}

/// The cash of `seat` (0 for no such seat).
fn cash(state: &State, seat: Seat) -> i64 {
    state.player(seat).map_or(0, |p| p.cash)
}

/// Whether `seat` sold shares of `sym` this round: he may not buy it again (1841 §5.1).
fn sold_this_round(state: &State, seat: Seat, sym: &str) -> bool {
    round(state).is_some_and(|r| {
        r.sold
            .iter()
            .any(|s| s.seat == seat && s.corporation == sym)
    })
}

/// Notes that `seat` bought, sold or started this turn: no pass of his in a row, the priority
/// after him (1841 §5.1).
fn mark_acted(state: &mut State, seat: Seat) {
    if let Some(r) = round_mut(state) {
        r.consecutive_passes = 0;
        r.last_to_act = Some(seat);
        r.acted_this_turn = true;
    }
}

/// The refusal of an action naming a corporation these rules do not have.
fn unknown_corporation(sym: &str) -> Rejection {
    reject(
        RejectionCode::InvalidArgument,
        "1841 §3.3",
        format!("`{sym}` is not a corporation of these rules."),
    )
}

/// The presidency rule after a purchase or sale (1841 §5.3, §7.4, §7.5): see
/// [`super::corporation::update_presidency`] (holders with strictly more take over, players
/// and corporations; a president's certificate in the pool goes to the first holder of 20%
/// or 40%; never for a historical corporation before phase 4).
pub(crate) fn update_presidency(
    state: &mut State,
    sym: &str,
    actor: Seat,
    events: &mut Vec<Event>,
) {
    super::corporation::update_presidency(state, sym, Some(actor), events);
}

// ----- The turn -----------------------------------------------------------------------------

/// The seat that must act in the stock round: the seat whose turn it is.
/// While a purchase offer waits for its answer, only the seller acts (1841 §15.3).
pub fn to_act(state: &State) -> Vec<Seat> {
    round(state)
        .filter(|r| (r.consecutive_passes as usize) < state.players.len())
        .map(|r| vec![r.offer.as_ref().map_or(r.current_seat, |o| o.seller)])
        .unwrap_or_default()
}

/// The seat after `seat` in player order.
fn next_in_order(state: &State, seat: Seat) -> Seat {
    let order = &state.player_order;
    order
        .iter()
        .position(|s| *s == seat)
        .and_then(|i| order.get((i + 1) % order.len()))
        .copied()
        .unwrap_or(seat)
}

/// What `seat` may do in its turn apart from passing.
fn turn_options(state: &State, seat: Seat) -> Vec<Action> {
    let sells = sell::sell_options(state, seat, None, usize::MAX);
    // 1841 §5.1, FAQ-Q9: over a limit → sell first, if anything can be sold.
    if !sells.is_empty() && over_limits(state, seat) {
        return sells;
    }
    let mut out = sells;
    out.extend(par::par_options(state, seat, None));
    out.extend(buy::buy_options(state, seat, None, usize::MAX));
    out.extend(bank_concession::concession_options(state, seat));
    out
}

/// Whether [`turn_options`] is not empty, stopping at the first kind of action found.
fn has_turn_option(state: &State, seat: Seat) -> bool {
    sell::has_sale(state, seat)
        || buy::has_buy(state, seat)
        || !bank_concession::concession_options(state, seat).is_empty()
        || !par::par_options(state, seat, None).is_empty()
}

/// Every action `seat` may take now in the stock round (listed completely).
///
/// While a purchase offer waits, the seller's answers (accept, if still within the rules, and
/// decline) and nothing for anybody else (1841 §15.3). The purchases the seat on turn may
/// offer to other players are ranges: [`offers`].
pub fn legal(state: &State, seat: Seat) -> Vec<Action> {
    let Some(sr) = round(state) else {
        return Vec::new();
    };
    if let Some(offer) = &sr.offer {
        return if offer.seller == seat {
            p2p::answers(state, offer)
        } else {
            Vec::new()
        };
    }
    if sr.current_seat != seat || state.player(seat).is_none() {
        return Vec::new();
    }
    if let Some(start) = &sr.start {
        return start_legal(state, start);
    }
    let mut out = turn_options(state, seat);
    let forced = !out.is_empty()
        && over_limits(state, seat)
        && out.iter().all(|a| matches!(a, Action::SellShares { .. }));
    if !forced && (!out.is_empty() || !offers(state, seat).is_empty()) {
        out.push(Action::Pass);
    }
    out
}

/// Whether `action` is one of [`legal`]`(state, seat)` (the seat on turn, no offer waiting),
/// found without listing every action: only the options of the action's kind and
/// corporation are listed.
fn allows(state: &State, seat: Seat, action: &Action) -> bool {
    let Some(sr) = round(state) else {
        return false;
    };
    if sr.offer.is_some() || sr.current_seat != seat || state.player(seat).is_none() {
        return false;
    }
    if let Some(start) = &sr.start {
        return start_legal(state, start).contains(action);
    }
    // `turn_options` lists only the sales when the seat is over a limit and can sell
    // (1841 §5.1, FAQ-Q9); `legal` adds a pass unless so forced, when the seat has an
    // option or an offer to make.
    let forced = || sell::forced_to_sell(state, seat);
    match action {
        Action::SellShares { corporation, .. } => sell::lists(state, seat, corporation, action),
        Action::BuyShares { corporation, .. } => {
            !forced() && buy::lists(state, seat, corporation, action)
        }
        Action::Par { corporation, .. } => {
            !forced() && par::lists(state, seat, corporation, action)
        }
        Action::BuyConcession { .. } => !forced() && bank_concession::lists(state, seat, action),
        Action::Pass => {
            !forced() && (has_turn_option(state, seat) || !offers(state, seat).is_empty())
        }
        _ => false,
    }
}

/// Whether the seat on turn has anything to do besides passing: an action or an offer.
fn can_act(state: &State, seat: Seat) -> bool {
    has_turn_option(state, seat) || !offers(state, seat).is_empty()
}

/// Applies `action` by `seat` in the stock round; on `Err` the state is unchanged.
///
/// Errors: `NOT_YOUR_TURN` (not the current seat), `WRONG_STEP` (an action the current step of
/// the turn does not take, e.g. a second buy, a token choice outside a start), and
/// `ILLEGAL_MOVE` / `INSUFFICIENT_FUNDS` / `INVALID_ARGUMENT` for actions outside the legal
/// set, with the rule that forbids them.
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    let sr = round(state).ok_or_else(|| corrupt("not a stock round"))?;
    if let Some(offer) = &sr.offer {
        return offer::answer_offer(state, seat, offer.clone(), action);
    }
    if sr.current_seat != seat {
        return Err(reject(
            RejectionCode::NotYourTurn,
            "1841 §5.1",
            format!("It is seat {}'s turn, not seat {seat}'s.", sr.current_seat),
        ));
    }
    if let Action::OfferPurchase {
        seller,
        item,
        price,
    } = action
    {
        return offer::offer_purchase(state, seat, *seller, item, *price);
    }
    if !allows(state, seat, action) {
        return Err(explain(state, seat, action));
    }
    // FAQ-Q2 (`price_drops_lowest_first`): the seller's selling ends with anything but
    // another sale; the pending price drops are made first. Every refusal of `carry_out`
    // comes before its first change, so it works in place — but for pending drops, which
    // are made before it: then on a copy.
    let drops_first = !matches!(action, Action::SellShares { .. }) && !sr.pending_drops.is_empty();
    if drops_first {
        let mut next = state.clone();
        let mut events = Vec::new();
        sale::selling_ends(&mut next, &mut events);
        carry_out(&mut next, seat, action, &mut events)?;
        *state = next;
        Ok(events)
    } else {
        let mut events = Vec::new();
        carry_out(state, seat, action, &mut events)?;
        Ok(events)
    }
}

/// Carries out a listed action of the seat on turn (the body of [`apply`]); every refusal
/// (an inconsistent state only) comes before the first change.
fn carry_out(
    state: &mut State,
    seat: Seat,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    let start = round(state)
        .ok_or_else(|| corrupt("not a stock round"))?
        .start
        .clone();
    match (action, start) {
        (Action::Pass | Action::PlaceToken { .. } | Action::BuyTokens { .. }, Some(start)) => {
            if apply_start(state, &start, action, events) {
                end_turn(state, events);
            }
        }
        (Action::Pass, None) => {
            let acted = round(state).is_some_and(|r| r.acted_this_turn);
            if !acted && let Some(r) = round_mut(state) {
                r.consecutive_passes = r.consecutive_passes.saturating_add(1);
            }
            events.push(Event::Passed {
                seat,
                automatic: false,
            });
            end_turn(state, events);
        }
        (Action::Par { corporation, price }, None) => {
            par::par(state, seat, corporation, *price, events)?;
            start::after_buy(state, corporation, events);
        }
        (
            Action::BuyShares {
                corporation,
                from_pool,
                percent,
            },
            start,
        ) => {
            buy::buy(state, seat, corporation, *from_pool, *percent, events)?;
            if start.is_some() {
                start::after_buy(state, corporation, events);
            } else {
                end_turn(state, events);
            }
        }
        (
            Action::SellShares {
                corporation,
                percent,
            },
            None,
        ) => {
            sell::sell(state, seat, corporation, *percent, events)?;
            if !can_act(state, seat) {
                turn_ends_by_itself(state, seat);
                end_turn(state, events);
            }
        }
        (Action::BuyConcession { concession }, None) => {
            bank_concession::buy_concession(state, seat, concession, events)?;
            end_turn(state, events);
        }
        _ => return Err(corrupt("legal action without a handler")),
    }
    Ok(())
}

/// The rejection for an action outside the legal set, naming the rule it breaks: here an
/// action of another round or of no step now, else the refusal of the action's step (its
/// `explain_*`).
fn explain(state: &State, seat: Seat, action: &Action) -> Rejection {
    let sr = round(state);
    let start = sr.and_then(|r| r.start.as_ref());
    if let Some(start) = start {
        return par::explain_start(state, seat, start, action);
    }
    let wrong_step = |what: &str| reject(RejectionCode::WrongStep, RULE, what.to_string());
    match action {
        Action::Bid { .. } | Action::BlindBid { .. } => {
            wrong_step("Bids belong to the concession round.")
        }
        Action::LayTile { .. }
        | Action::BuyTrain { .. }
        | Action::RunRoutes { .. }
        | Action::Dividend { .. }
        | Action::ChooseSplitPresidency { .. }
        | Action::ExchangeSplitShare { .. }
        | Action::RepeatPurchaseRound { .. }
        | Action::ProposeMerger { .. }
        | Action::ChooseMergerPrice { .. }
        | Action::FormCorporation { .. }
        | Action::ClaimPresidency { .. }
        | Action::ExchangeOddShare { .. }
        | Action::RemoveToken { .. }
        | Action::Transform { .. }
        | Action::BuyToken { .. }
        | Action::DiscardTrain { .. }
        | Action::EmergencySell { .. }
        | Action::DeclareBankruptcy { .. } => {
            wrong_step("Tiles, routes and trains belong to the operating round.")
        }
        Action::PlaceToken { .. } | Action::BuyTokens { .. } => {
            wrong_step("No corporation is being started.")
        }
        Action::AnswerOffer { .. } => offer::explain_answer(),
        // Handled by `offer_purchase`.
        Action::OfferPurchase {
            seller,
            item,
            price,
        } => p2p::explain(state, seat, *seller, item, *price),
        Action::Pass | Action::Par { .. } | Action::BuyShares { .. }
            if sell::must_sell_reason(state, seat).is_some() =>
        {
            sell::explain_must_sell(state, seat)
        }
        Action::Pass => reject(
            RejectionCode::IllegalMove,
            "1841 §5.1",
            "A player over the certificate limit or the 60% limit must sell first.",
        ),
        Action::Par { corporation, price } => par::explain_par(state, seat, corporation, *price),
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } => buy::explain_buy(state, seat, corporation, *from_pool, *percent),
        Action::SellShares {
            corporation,
            percent,
        } => sell::explain_sell(state, seat, corporation, *percent),
        Action::BuyConcession { concession } => {
            bank_concession::explain_concession(state, seat, concession)
        }
    }
}

// ----- The turn order, the automatic passes, the round ---------------------------------------

/// Ends the current turn and moves to the next seat that can act; seats without a legal
/// action pass automatically (18xx "has no valid actions and passes"). The round is over when
/// every player has passed in a row (1841 §5.1, [`over`]).
fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    let Some(current) = round(state).map(|r| r.current_seat) else {
        return;
    };
    sale::selling_ends(state, events);
    let next = next_in_order(state, current);
    if let Some(r) = round_mut(state) {
        r.start = None;
        r.acted_this_turn = false;
        r.current_seat = next;
        r.offer = None;
        r.declined_offers.clear();
    }
    settle(state, events);
}

/// From the current seat on: auto-pass seats with nothing to do, until a seat can act or the
/// round is [`over`] after a full circle of passes (at most one circle: every seat passes).
fn settle(state: &mut State, events: &mut Vec<Event>) {
    let n = state.players.len() as u32;
    for _ in 0..=n {
        if over(state) {
            return;
        }
        let Some(sr) = round(state) else { return };
        let seat = sr.current_seat;
        if can_act(state, seat) {
            return;
        }
        turn_ends_by_itself(state, seat);
        events.push(Event::Passed {
            seat,
            automatic: true,
        });
        let next = next_in_order(state, seat);
        if let Some(r) = round_mut(state) {
            r.consecutive_passes = r.consecutive_passes.saturating_add(1);
            r.current_seat = next;
        }
    }
}

/// Whether the stock round is over: every player has passed in a row (1841 §5.1).
pub fn over(state: &State) -> bool {
    round(state).is_some_and(|r| r.consecutive_passes >= state.players.len() as u32)
}

/// Starts stock round `number` with priority to the first seat of the player order; seats
/// that cannot act pass automatically (the round may be [`over`] at once). Called by
/// [`super::flow`], which ends the round when it is over.
pub(super) fn begin(state: &mut State, number: u32, events: &mut Vec<Event>) {
    let priority_seat = state.player_order.first().copied().unwrap_or(0);
    state.round = Round::StockRound(StockRound {
        number,
        priority_seat,
        current_seat: priority_seat,
        consecutive_passes: 0,
        last_to_act: None,
        acted_this_turn: false,
        sold: Vec::new(),
        start: None,
        pending_drops: Vec::new(),
        offer: None,
        declined_offers: Vec::new(),
    });
    events.push(Event::RoundStarted {
        name: format!("Stock Round {number}"),
    });
    settle(state, events);
}

/// Whether a started corporation has no controlling player (1841 §7.4).
pub fn frozen(state: &State, sym: &str) -> bool {
    super::corporation::frozen(state, sym)
}
