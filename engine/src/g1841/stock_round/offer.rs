//! Purchases from other players (`p2p_purchases`, 1841 §15.3, §5.1, §5.2): in his turn, as
//! its one buy, the seat on turn offers to buy a certificate or a concession of another player
//! at a price ([`offers`] lists the ranges, [`p2p::offer_ranges`]); then only the seller acts
//! and answers ([`p2p::answers`]). An accepted offer is the buyer's buy and ends his turn; a
//! declined one lets the turn go on. The mechanics are [`p2p`]'s; this module routes the offer
//! ([`offer_purchase`]) and the answer ([`answer_offer`]) within the turn, and refuses an
//! answer while no offer waits ([`explain_answer`]).

use super::super::action::{Action, Event, OfferRange};
use super::super::p2p;
use super::super::sale;
use super::super::state::{PurchaseItem, PurchaseOffer, State};
use super::sell::forced_to_sell;
use super::{can_act, corrupt, end_turn, mark_acted, reject, round, round_mut};
use crate::{Rejection, RejectionCode, Seat};

/// The purchases the seat on turn may offer to other players now, with price ranges
/// (`p2p_purchases`, 1841 §5.1, §5.2, §15.3): in his own turn, no start in progress, no
/// offer waiting, not forced to sell first. See [`p2p::offer_ranges`].
pub fn offers(state: &State, seat: Seat) -> Vec<OfferRange> {
    if !may_offer_now(state, seat) {
        return Vec::new();
    }
    p2p::offer_ranges(state, seat)
}

/// The turn-level conditions of an offer (1841 §5.1, §15.3): the option, the seat's own turn,
/// no start in progress, no offer waiting, not forced to sell first.
fn may_offer_now(state: &State, seat: Seat) -> bool {
    round(state).is_some_and(|sr| {
        state.options.p2p_purchases
            && sr.current_seat == seat
            && sr.offer.is_none()
            && sr.start.is_none()
            && state.player(seat).is_some()
            && !forced_to_sell(state, seat)
    })
}

/// The seat on turn offers to buy `item` from `seller` for `price` (1841 §5.2, §15.3): it
/// must lie in his [`offers`]; then only the seller acts.
pub(super) fn offer_purchase(
    state: &mut State,
    seat: Seat,
    seller: Seat,
    item: &PurchaseItem,
    price: i64,
) -> Result<Vec<Event>, Rejection> {
    let sr = round(state).ok_or_else(|| corrupt("not a stock round"))?;
    // The same as lying in one of `offers(state, seat)`, for this one item only.
    let listed = may_offer_now(state, seat) && p2p::may_offer(state, seat, seller, item, price);
    if !listed {
        return Err(if !state.options.p2p_purchases {
            p2p::explain(state, seat, seller, item, price)
        } else if let Some(start) = &sr.start {
            reject(
                RejectionCode::WrongStep,
                "1841 §5.4",
                format!(
                    "Seat {seat} is starting {}: buy more of its IPO shares or pass.",
                    start.corporation
                ),
            )
        } else if forced_to_sell(state, seat) {
            reject(
                RejectionCode::IllegalMove,
                "1841 §5.1",
                "A player over the certificate limit or the 60% limit must sell first.",
            )
        } else {
            p2p::explain(state, seat, seller, item, price)
        });
    }
    let mut next = state.clone();
    let mut events = Vec::new();
    // FAQ-Q2 (`price_drops_lowest_first`): an offer ends the seller's selling like a buy.
    sale::selling_ends(&mut next, &mut events);
    p2p::make_offer(
        &mut next,
        PurchaseOffer {
            buyer: seat,
            seller,
            item: item.clone(),
            price,
        },
        &mut events,
    );
    *state = next;
    Ok(events)
}

/// The seller answers the waiting offer (1841 §15.3). Accepted: the purchase is the buyer's
/// buy of the turn (he is the last to act; the seller has not sold, FAQ-Q4) and his turn
/// ends. Declined: the buyer's turn goes on; with nothing left to do he passes automatically.
pub(super) fn answer_offer(
    state: &mut State,
    seat: Seat,
    offer: PurchaseOffer,
    action: &Action,
) -> Result<Vec<Event>, Rejection> {
    if seat != offer.seller {
        return Err(reject(
            RejectionCode::NotYourTurn,
            p2p::RULE,
            format!(
                "Seat {} must answer seat {}'s purchase offer first.",
                offer.seller, offer.buyer
            ),
        ));
    }
    let Action::AnswerOffer { accept } = action else {
        return Err(reject(
            RejectionCode::WrongStep,
            p2p::RULE,
            format!(
                "Seat {seat} must accept or decline seat {}'s purchase offer.",
                offer.buyer
            ),
        ));
    };
    let mut next = state.clone();
    let mut events = Vec::new();
    let (offer, accepted) = p2p::answer(&mut next, *accept, &mut events)?;
    if accepted {
        mark_acted(&mut next, offer.buyer);
        end_turn(&mut next, &mut events);
    } else if !can_act(&next, offer.buyer) {
        let acted = round(&next).is_some_and(|r| r.acted_this_turn);
        if !acted && let Some(r) = round_mut(&mut next) {
            r.consecutive_passes = r.consecutive_passes.saturating_add(1);
        }
        events.push(Event::Passed {
            seat: offer.buyer,
            automatic: true,
        });
        end_turn(&mut next, &mut events);
    }
    *state = next;
    Ok(events)
}

/// The refusal of an answer while no offer waits (1841 §15.3).
pub(super) fn explain_answer() -> Rejection {
    reject(
        RejectionCode::WrongStep,
        p2p::RULE,
        "No purchase offer is waiting for an answer.",
    )
}
