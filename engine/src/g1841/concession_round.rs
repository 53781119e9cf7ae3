//! The concession round (opening auction) of 1841: the Version 2 nomination auction
//! (1841 §4.1), the Version 1 sealed bids and tie auctions (1841 §4.2, FAQ-C1) and the end of
//! the round (1841 §4.3).
//!
//! Every function here that changes the state refuses before its first change (as the stock
//! and operating rounds do), so a rejection never leaves a half-applied action behind.

use super::action::{Action, BidRange, BlindBidRange, Event, LegalActions};
use super::concession::Concession;
use super::data;
use super::setup::concessions_of;
use super::state::{Auction, ConcessionRound, Round, SealedBid, State};
use crate::{Rejection, RejectionCode, Seat};

/// Rule cited for the Version 2 nomination auction.
pub const RULE_V2: &str = "1841 §4.1";
/// Rule cited for the Version 1 sealed bids and tie auctions.
pub const RULE_V1: &str = "1841 §4.2";

/// Smallest opening or sealed bid in L. (1841 §4.1 step 1, §4.2 step 1: L.20; data
/// `concession_round.min_bid`).
pub fn min_bid(state: &State) -> i64 {
    data::ruleset(&state.options).concession_round.min_bid
}

/// Smallest raise in L. (1841 §4.1 step 2, FAQ-C1: L.5; data `concession_round.min_raise`).
pub fn min_raise(state: &State) -> i64 {
    data::ruleset(&state.options).concession_round.min_raise
}

fn rule(state: &State) -> &'static str {
    if state.options.sealed_bids() {
        RULE_V1
    } else {
        RULE_V2
    }
}

fn reject(code: RejectionCode, rule: &str, message: impl Into<String>) -> Rejection {
    Rejection::new(code, rule, message)
}

/// Applies `action` by `seat` in the concession round (routed here by
/// [`super::flow::apply`], which refuses seats not at the table and actions after the game's
/// end); on `Err` the state is unchanged.
///
/// Errors (all [`Rejection`]s, never a panic):
/// * `INVALID_ARGUMENT` — unknown concession symbol, a concession not in the chosen ruleset,
///   a price of L.0 or less, a negative sealed amount or the wrong number of sealed amounts;
/// * `NOT_YOUR_TURN` — the seat is not the one to nominate / raise, or has already bid;
/// * `WRONG_STEP` — a sealed bid in Version 2, a bid/pass while Version 1 sealed bids are
///   being collected, an action of the stock or operating round;
/// * `ILLEGAL_MOVE` — bid below L.20, raise of less than L.5, a sold concession, a different
///   concession than the one being auctioned, a sealed amount between L.1 and L.19;
/// * `INSUFFICIENT_FUNDS` — a bid or a sealed-bid total above the seat's cash.
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    let round = state
        .concession_round()
        .ok_or_else(|| corrupt("no concession round"))?;
    let sealed_phase = round.auction.is_none() && state.options.sealed_bids();
    let auction_open = round.auction.is_some();
    // Each of these refuses before its first change: no copy.
    if auction_open {
        auction_action(state, seat, action)
    } else if sealed_phase {
        sealed_bid_action(state, seat, action)
    } else {
        nomination_action(state, seat, action)
    }
}

/// The seats that must act now in the concession round, in order: the nominating seat
/// (Version 2), the seat that must raise or drop out of the open auction, every seat that has
/// not yet submitted its sealed bid in player order (Version 1).
pub fn to_act(state: &State) -> Vec<Seat> {
    let Some(r) = state.concession_round() else {
        return Vec::new();
    };
    if let Some(a) = &r.auction {
        vec![a.to_act]
    } else if state.options.sealed_bids() {
        state
            .player_order
            .iter()
            .copied()
            .filter(|s| r.sealed_bids.iter().any(|b| b.seat == *s && !b.submitted))
            .collect()
    } else {
        vec![r.nominating_seat]
    }
}

/// Everything `seat` may do now in the concession round, with amount ranges. Empty for a
/// seat out of range or that need not act.
pub fn legal(state: &State, seat: Seat) -> LegalActions {
    let mut out = LegalActions::default();
    let (Some(player), Round::ConcessionRound(round)) = (state.player(seat), &state.round) else {
        return out;
    };
    if let Some(a) = &round.auction {
        if a.to_act == seat {
            out.actions.push(Action::Pass);
            let min = a.high_bid.saturating_add(min_raise(state));
            if player.cash >= min {
                out.bids.push(BidRange {
                    concession: a.concession,
                    min_price: min,
                    max_price: player.cash,
                });
            }
        }
    } else if state.options.sealed_bids() {
        if round
            .sealed_bids
            .iter()
            .any(|b| b.seat == seat && !b.submitted)
        {
            out.blind_bid = Some(BlindBidRange {
                concessions: concessions_of(&state.options),
                min_price: min_bid(state),
                max_total: player.cash,
            });
        }
    } else if round.nominating_seat == seat {
        out.actions.push(Action::Pass);
        let min = min_bid(state);
        if player.cash >= min {
            out.bids = round
                .remaining
                .iter()
                .map(|c| BidRange {
                    concession: *c,
                    min_price: min,
                    max_price: player.cash,
                })
                .collect();
        }
    }
    out
}

fn round_mut(state: &mut State) -> Option<&mut ConcessionRound> {
    match &mut state.round {
        Round::ConcessionRound(r) => Some(r),
        _ => None,
    }
}

/// Refusal of an action that belongs to another round (stock or operating round) while the
/// concession round is on (1841 §4): `WRONG_STEP`, naming the action and what is possible.
fn not_in_concession_round(action: &Action, rule: &str, possible: &str) -> Rejection {
    reject(
        RejectionCode::WrongStep,
        rule,
        format!(
            "`{}` is not possible in the concession round: {possible}.",
            action.kind_name()
        ),
    )
}

/// Internal invariant broken (should be unreachable); reported as a rejection, never a panic.
fn corrupt(what: &str) -> Rejection {
    reject(
        RejectionCode::InvalidArgument,
        "",
        format!("The game state is inconsistent ({what})."),
    )
}

fn cash(state: &State, seat: Seat) -> i64 {
    state.player(seat).map_or(0, |p| p.cash)
}

/// The seat after `seat` in the player order (wrapping).
fn next_in_order(state: &State, seat: Seat) -> Seat {
    let order = &state.player_order;
    match order.iter().position(|s| *s == seat) {
        Some(i) => order[(i + 1) % order.len()],
        None => seat,
    }
}

/// The bidder after `seat` in `bidders` (wrapping); the first bidder if `seat` is not listed.
fn next_bidder(bidders: &[Seat], seat: Seat) -> Seat {
    match bidders.iter().position(|s| *s == seat) {
        Some(i) => bidders[(i + 1) % bidders.len()],
        None => bidders.first().copied().unwrap_or(seat),
    }
}

/// Parses a concession symbol sent by a player and checks it belongs to the ruleset.
fn parse_concession(state: &State, text: &str) -> Result<Concession, Rejection> {
    let c: Concession = text.parse().map_err(|_| {
        reject(
            RejectionCode::InvalidArgument,
            "1841 §3.2",
            format!(
                "`{text}` is not a concession; use Bayard, SFLP, SFTC, SFMA, SFTN, SSFL, SFTG or IRSFF."
            ),
        )
    })?;
    if !concessions_of(&state.options).contains(&c) {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "1841 §15.2",
            format!("{c} is not part of 1841lite."),
        ));
    }
    Ok(c)
}

fn check_price(
    state: &State,
    seat: Seat,
    price: i64,
    min: i64,
    rule: &str,
) -> Result<(), Rejection> {
    if price <= 0 {
        return Err(reject(
            RejectionCode::InvalidArgument,
            rule,
            format!("A bid must be a positive amount of lire, not L.{price}."),
        ));
    }
    if price < min {
        return Err(reject(
            RejectionCode::IllegalMove,
            rule,
            format!("This bid must be at least L.{min}, not L.{price}."),
        ));
    }
    let have = cash(state, seat);
    if price > have {
        return Err(reject(
            RejectionCode::InsufficientFunds,
            rule,
            format!("A bid of L.{price} is more than your cash of L.{have}."),
        ));
    }
    Ok(())
}

/// Version 2: the nominating seat nominates a concession with a bid of at least L.20 or passes
/// (1841 §4.1 step 1).
fn nomination_action(
    state: &mut State,
    seat: Seat,
    action: &Action,
) -> Result<Vec<Event>, Rejection> {
    let round = state
        .concession_round()
        .ok_or_else(|| corrupt("no concession round"))?;
    if seat != round.nominating_seat {
        return Err(reject(
            RejectionCode::NotYourTurn,
            RULE_V2,
            format!(
                "It is seat {}'s turn to nominate a concession.",
                round.nominating_seat
            ),
        ));
    }
    match action {
        Action::Par { .. }
        | Action::BuyShares { .. }
        | Action::SellShares { .. }
        | Action::PlaceToken { .. }
        | Action::BuyTokens { .. }
        | Action::BuyConcession { .. }
        | Action::LayTile { .. }
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
        | Action::DeclareBankruptcy { .. }
        | Action::OfferPurchase { .. }
        | Action::AnswerOffer { .. }
        | Action::BuyTrain { .. } => Err(not_in_concession_round(
            action,
            RULE_V2,
            "nominate a concession with a bid, or pass",
        )),
        Action::BlindBid { .. } => Err(reject(
            RejectionCode::WrongStep,
            RULE_V2,
            "Sealed bids belong to the version_1 concession round; nominate a concession with a bid or pass.",
        )),
        Action::Pass => {
            let players = state.players.len() as u32;
            let next = next_in_order(state, seat);
            let round = round_mut(state).ok_or_else(|| corrupt("no concession round"))?;
            round.consecutive_passes = round.consecutive_passes.saturating_add(1);
            // 1841 §4.1 step 4, §17.13: the round ends when every player has passed in a row
            // ([`over`]).
            if round.consecutive_passes < players {
                round.nominating_seat = next;
            }
            Ok(vec![Event::NominationPassed { seat }])
        }
        Action::Bid { concession, price } => {
            let c = parse_concession(state, concession)?;
            if !round.remaining.contains(&c) {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    RULE_V2,
                    format!("{c} has already been sold."),
                ));
            }
            check_price(state, seat, *price, min_bid(state), RULE_V2)?;
            // 1841 §4.1 step 2: the other players in seating order after the nominator take
            // part only if they can raise (cash at least the bid plus L.5).
            let raise_to = price.saturating_add(min_raise(state));
            let order = &state.player_order;
            let start = order.iter().position(|s| *s == seat).unwrap_or(0);
            let bidders: Vec<Seat> = (0..order.len())
                .map(|k| order[(start + k) % order.len()])
                .filter(|s| *s == seat || cash(state, *s) >= raise_to)
                .collect();
            let mut events = vec![Event::AuctionOpened {
                seat,
                concession: c,
                price: *price,
            }];
            let auction = Auction {
                concession: c,
                nominator: seat,
                high_bid: *price,
                high_bidder: seat,
                to_act: next_bidder(&bidders, seat),
                bidders,
            };
            let round = round_mut(state).ok_or_else(|| corrupt("no concession round"))?;
            round.consecutive_passes = 0;
            if auction.bidders.len() == 1 {
                finish_auction(state, auction, &mut events);
            } else {
                round.auction = Some(auction);
            }
            Ok(events)
        }
    }
}

/// An open auction (Version 2 nomination or Version 1 tie auction): the seat to act raises by
/// at least L.5 or drops out for good; the last bidder left buys (1841 §4.1 step 2, §4.2
/// step 2, FAQ-C1).
fn auction_action(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    let rule = rule(state);
    let round = state
        .concession_round()
        .ok_or_else(|| corrupt("no concession round"))?;
    let mut auction = round
        .auction
        .clone()
        .ok_or_else(|| corrupt("no open auction"))?;
    if seat != auction.to_act {
        return Err(reject(
            RejectionCode::NotYourTurn,
            rule,
            format!(
                "Seat {} must raise or drop out of the {} auction now.",
                auction.to_act, auction.concession
            ),
        ));
    }
    let mut events = Vec::new();
    match action {
        Action::Par { .. }
        | Action::BuyShares { .. }
        | Action::SellShares { .. }
        | Action::PlaceToken { .. }
        | Action::BuyTokens { .. }
        | Action::BuyConcession { .. }
        | Action::LayTile { .. }
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
        | Action::DeclareBankruptcy { .. }
        | Action::OfferPurchase { .. }
        | Action::AnswerOffer { .. }
        | Action::BuyTrain { .. } => {
            return Err(not_in_concession_round(
                action,
                rule,
                "raise the bid on the concession being auctioned, or pass",
            ));
        }
        Action::BlindBid { .. } => {
            return Err(reject(
                RejectionCode::WrongStep,
                rule,
                format!(
                    "The {} auction is open: raise on it or pass.",
                    auction.concession
                ),
            ));
        }
        Action::Pass => {
            auction.bidders.retain(|s| *s != seat);
            events.push(Event::DroppedOut {
                seat,
                concession: auction.concession,
            });
            auction.to_act = next_bidder(&auction.bidders, auction.high_bidder);
        }
        Action::Bid { concession, price } => {
            let c = parse_concession(state, concession)?;
            if c != auction.concession {
                return Err(reject(
                    RejectionCode::IllegalMove,
                    rule,
                    format!(
                        "Only {} is being auctioned now; raise on it or pass.",
                        auction.concession
                    ),
                ));
            }
            check_price(
                state,
                seat,
                *price,
                auction.high_bid.saturating_add(min_raise(state)),
                rule,
            )?;
            auction.high_bid = *price;
            auction.high_bidder = seat;
            auction.to_act = next_bidder(&auction.bidders, seat);
            events.push(Event::BidPlaced {
                seat,
                concession: c,
                price: *price,
            });
        }
    }
    let round = round_mut(state).ok_or_else(|| corrupt("no concession round"))?;
    if auction.bidders.len() <= 1 {
        round.auction = None;
        finish_auction(state, auction, &mut events);
    } else {
        round.auction = Some(auction);
    }
    Ok(events)
}

/// Moves `concession` to `seat` for `price` L. (paid to the bank).
fn sell(
    state: &mut State,
    concession: Concession,
    seat: Seat,
    price: i64,
    events: &mut Vec<Event>,
) {
    if let Some(p) = state.players.get_mut(seat as usize) {
        p.cash = p.cash.saturating_sub(price);
        p.concessions.push(concession);
        p.concessions.sort();
        state.bank_cash = state.bank_cash.saturating_add(price);
    }
    if let Some(r) = round_mut(state) {
        r.remaining.retain(|c| *c != concession);
    }
    events.push(Event::ConcessionBought {
        seat,
        concession,
        price,
    });
}

/// The auction is decided: the remaining bidder (or the nominator when nobody else could
/// bid) buys at the high bid; then the next nomination (Version 2) or tie auction (Version 1)
/// follows, or the round is over ([`over`]).
fn finish_auction(state: &mut State, auction: Auction, events: &mut Vec<Event>) {
    let winner = auction
        .bidders
        .first()
        .copied()
        .unwrap_or(auction.high_bidder);
    sell(state, auction.concession, winner, auction.high_bid, events);
    if state.options.sealed_bids() {
        start_next_tie_auction(state, events);
        return;
    }
    // 1841 §4.1 step 3: the next nomination passes to the player after the nominator (the
    // round is over once no concession is left, [`over`]).
    let next = next_in_order(state, auction.nominator);
    if let Some(r) = round_mut(state) {
        r.auction = None;
        r.nominating_seat = next;
    }
}

/// Version 1: a seat submits its sealed bid vector (1841 §4.2 step 1); the last one reveals
/// all bids (step 2).
fn sealed_bid_action(
    state: &mut State,
    seat: Seat,
    action: &Action,
) -> Result<Vec<Event>, Rejection> {
    let round = state
        .concession_round()
        .ok_or_else(|| corrupt("no concession round"))?;
    let submitted = round
        .sealed_bids
        .iter()
        .find(|b| b.seat == seat)
        .map(|b| b.submitted)
        .ok_or_else(|| corrupt("missing sealed bid"))?;
    if submitted {
        return Err(reject(
            RejectionCode::NotYourTurn,
            RULE_V1,
            "You have already submitted your sealed bid.",
        ));
    }
    let Action::BlindBid { amounts } = action else {
        return Err(reject(
            RejectionCode::WrongStep,
            RULE_V1,
            "In Version 1 every player first submits one sealed bid for all concessions at once.",
        ));
    };
    let concessions = concessions_of(&state.options);
    if amounts.len() != concessions.len() {
        let names: Vec<&str> = concessions.iter().map(|c| c.as_str()).collect();
        return Err(reject(
            RejectionCode::InvalidArgument,
            RULE_V1,
            format!(
                "A sealed bid needs exactly {} amounts, one per concession in the order {}; got {}.",
                concessions.len(),
                names.join(", "),
                amounts.len()
            ),
        ));
    }
    let min = min_bid(state);
    let mut total: i64 = 0;
    for (c, amount) in concessions.iter().zip(amounts) {
        if *amount < 0 {
            return Err(reject(
                RejectionCode::InvalidArgument,
                RULE_V1,
                format!("The amount for {c} is negative (L.{amount})."),
            ));
        }
        if *amount > 0 && *amount < min {
            return Err(reject(
                RejectionCode::IllegalMove,
                RULE_V1,
                format!(
                    "The amount for {c} must be 0 (no bid) or at least L.{min}, not L.{amount}."
                ),
            ));
        }
        total = total.saturating_add(*amount);
    }
    let have = cash(state, seat);
    if total > have {
        return Err(reject(
            RejectionCode::InsufficientFunds,
            RULE_V1,
            format!("Your sealed bids total L.{total}, more than your cash of L.{have}."),
        ));
    }
    let round = round_mut(state).ok_or_else(|| corrupt("no concession round"))?;
    let mut all_in = true;
    for b in &mut round.sealed_bids {
        if b.seat == seat {
            b.submitted = true;
            b.amounts = amounts.clone();
        }
        all_in &= b.submitted;
    }
    let mut events = vec![Event::SealedBidSubmitted { seat }];
    if all_in {
        reveal_sealed_bids(state, &mut events);
    }
    Ok(events)
}

/// New player order after the Version 1 sealed bids (1841 §4.2 step 3; known-bugs #9355):
/// by total amount bid, highest first; then by the bids compared concession by concession in
/// concession number order, highest first; a complete tie puts the seat that comes later in
/// `order` first (18xx).
pub fn order_after_sealed_bids(order: &[Seat], bids: &[SealedBid]) -> Vec<Seat> {
    let amounts = |s: Seat| -> &[i64] {
        bids.iter()
            .find(|b| b.seat == s)
            .map_or(&[][..], |b| b.amounts.as_slice())
    };
    // Saturating: amounts come from the wire (validated, but never trusted to fit).
    let total = |s: Seat| amounts(s).iter().fold(0i64, |t, &x| t.saturating_add(x));
    let mut ranked: Vec<(usize, Seat)> = order.iter().copied().enumerate().collect();
    ranked.sort_by(|(ia, a), (ib, b)| {
        total(*b)
            .cmp(&total(*a))
            .then_with(|| amounts(*b).cmp(amounts(*a)))
            .then_with(|| ib.cmp(ia))
    });
    ranked.into_iter().map(|(_, s)| s).collect()
}

/// New player order at the end of the Version 2 concession round (1841 §4.1 step 5, §17.14):
/// ascending cash; ties: the player whose lowest-numbered concession has the lower number,
/// a player without concession first (18xx); further ties: previous order.
pub fn order_after_nomination_auction(state: &State) -> Vec<Seat> {
    let lowest = |s: Seat| -> u32 {
        state
            .player(s)
            .and_then(|p| p.concessions.iter().map(|c| c.number()).min())
            .unwrap_or(0)
    };
    let mut ranked: Vec<(usize, Seat)> = state.player_order.iter().copied().enumerate().collect();
    ranked.sort_by(|(ia, a), (ib, b)| {
        cash(state, *a)
            .cmp(&cash(state, *b))
            .then_with(|| lowest(*a).cmp(&lowest(*b)))
            .then_with(|| ia.cmp(ib))
    });
    ranked.into_iter().map(|(_, s)| s).collect()
}

/// All sealed bids are in (1841 §4.2 step 2): reveal them, set the new player order (step 3,
/// before ties are resolved), send concessions nobody bid on to the bank, sell every
/// concession with a unique highest bid at that bid, and queue tie auctions in concession
/// order with the tied seats in the new player order (FAQ-C1).
fn reveal_sealed_bids(state: &mut State, events: &mut Vec<Event>) {
    let Some(round) = state.concession_round() else {
        return;
    };
    let bids = round.sealed_bids.clone();
    events.push(Event::SealedBidsRevealed { bids: bids.clone() });
    let order = order_after_sealed_bids(&state.player_order, &bids);
    state.player_order = order.clone();
    events.push(Event::PlayerOrderChanged {
        player_order: order.clone(),
    });
    let mut ties = Vec::new();
    for (i, c) in concessions_of(&state.options).into_iter().enumerate() {
        let offers: Vec<(Seat, i64)> = bids
            .iter()
            .filter_map(|b| b.amounts.get(i).map(|a| (b.seat, *a)))
            .filter(|(_, a)| *a > 0)
            .collect();
        let Some(best) = offers.iter().map(|(_, a)| *a).max() else {
            // No bid at all: discarded from the auction, owned by the bank.
            if let Some(r) = round_mut(state) {
                r.remaining.retain(|x| *x != c);
            }
            state.bank_concessions.push(c);
            events.push(Event::ConcessionToBank { concession: c });
            continue;
        };
        let mut tied: Vec<Seat> = offers
            .iter()
            .filter(|(_, a)| *a == best)
            .map(|(s, _)| *s)
            .collect();
        if tied.len() == 1 {
            sell(state, c, tied[0], best, events);
        } else {
            tied.sort_by_key(|s| order.iter().position(|o| o == s));
            let first = tied[0];
            let last = tied[tied.len() - 1];
            ties.push(Auction {
                concession: c,
                nominator: first,
                high_bid: best,
                high_bidder: last,
                to_act: first,
                bidders: tied,
            });
        }
    }
    state.bank_concessions.sort();
    if let Some(r) = round_mut(state) {
        r.pending_tie_auctions = ties;
    }
    start_next_tie_auction(state, events);
}

/// Opens the next pending Version 1 tie auction; the round is over when none is left
/// ([`over`]).
///
/// Tied seats whose cash is now below the tied bid (they raised in an earlier tie auction)
/// cannot honour it and are left out (docs/games/1841.md, interpretation I4); if one seat is
/// left it buys at the tied bid, if none is left the concession goes to the bank.
fn start_next_tie_auction(state: &mut State, events: &mut Vec<Event>) {
    loop {
        let Some(round) = round_mut(state) else {
            return;
        };
        round.auction = None;
        if round.pending_tie_auctions.is_empty() {
            return;
        }
        let mut auction = round.pending_tie_auctions.remove(0);
        let (keep, drop): (Vec<Seat>, Vec<Seat>) = auction
            .bidders
            .iter()
            .partition(|s| cash(state, **s) >= auction.high_bid);
        for seat in drop {
            events.push(Event::DroppedOut {
                seat,
                concession: auction.concession,
            });
        }
        auction.bidders = keep;
        match auction.bidders.as_slice() {
            [] => {
                if let Some(r) = round_mut(state) {
                    r.remaining.retain(|c| *c != auction.concession);
                }
                state.bank_concessions.push(auction.concession);
                state.bank_concessions.sort();
                events.push(Event::ConcessionToBank {
                    concession: auction.concession,
                });
            }
            [winner] => {
                sell(state, auction.concession, *winner, auction.high_bid, events);
            }
            [first, .., last] => {
                auction.nominator = *first;
                auction.to_act = *first;
                auction.high_bidder = *last;
                if let Some(r) = round_mut(state) {
                    r.auction = Some(auction);
                }
                return;
            }
        }
    }
}

/// Whether the concession round is over (1841 §4.3): no auction is open, and in Version 2
/// every player has passed in a row (§4.1 step 4, §17.13) or every concession is sold (step
/// 3); in Version 1 every sealed bid is in and no tie auction is left (§4.2).
pub fn over(state: &State) -> bool {
    let Some(r) = state.concession_round() else {
        return false;
    };
    if r.auction.is_some() {
        return false;
    }
    if state.options.sealed_bids() {
        r.sealed_bids.iter().all(|b| b.submitted) && r.pending_tie_auctions.is_empty()
    } else {
        r.consecutive_passes >= state.players.len() as u32 || r.remaining.is_empty()
    }
}

/// End of the concession round (1841 §4.3), once it is [`over`]: unsold concessions go to
/// the bank, the Version 2 new player order is set (§4.1 step 5; Version 1 set it at the
/// reveal). Stock Round 1 follows, with priority to the first player of the order
/// ([`super::flow`]).
pub(super) fn finish(state: &mut State, events: &mut Vec<Event>) {
    let unsold = state
        .concession_round()
        .map(|r| r.remaining.clone())
        .unwrap_or_default();
    for c in unsold {
        state.bank_concessions.push(c);
        events.push(Event::ConcessionToBank { concession: c });
    }
    state.bank_concessions.sort();
    if !state.options.sealed_bids() {
        state.player_order = order_after_nomination_auction(state);
        events.push(Event::PlayerOrderChanged {
            player_order: state.player_order.clone(),
        });
    }
}
