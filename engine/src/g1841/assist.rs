//! Help for platforms and UIs (issue #9): a one-line English description of an action
//! ([`describe`]) and the move played for a seat that does not act in time
//! ([`default_action`]). Neither changes the state.

use super::action::{Action, Event, OddShareChoice};
use super::state::PurchaseItem;
use super::{G1841, State, map, operating_round};
use crate::{Game, Rejection, Seat};

/// The holder whose odd IRSFF share the Ferdinandea split asks about now (1841 §12.4).
fn split_holder(state: &State) -> Option<&super::state::ShareOwner> {
    let super::state::Round::OperatingRound(r) = &state.round else {
        return None;
    };
    match r.event.as_deref() {
        Some(super::state::CorporateEvent::Split(s))
            if s.stage == super::state::SplitStage::SingleShares =>
        {
            s.holders.get(s.next as usize)
        }
        _ => None,
    }
}

/// `hex (Location)` when the hex has a printed location name, else `hex`.
fn hex_name(state: &State, hex: &str) -> String {
    match map::map(&state.options)
        .hexes
        .get(hex)
        .and_then(|h| h.location.as_deref())
    {
        Some(name) if !name.is_empty() => format!("{hex} ({name})"),
        _ => hex.to_string(),
    }
}

fn percent_of(percent: u32, corporation: &str) -> String {
    format!("{percent}% of {corporation}")
}

/// One English line describing `action` by `seat` in `state`, e.g.
/// `IRSFF lays tile 202 on E9 (Bergamo), rotation 5, for L.0`; and whether the rules accept
/// it now (the rejection otherwise). The action is tried on a copy of the state so that the
/// amounts the rules compute (tile costs, share prices, revenue) can be named; a refused
/// action is described without them. Covers every action type (the `match` has no
/// catch-all). The actor is the operating corporation for the operating round's company
/// actions (1841 §9), else `Seat N`. Amounts are in Lire (`L.`).
pub fn describe(state: &State, seat: Seat, action: &Action) -> (String, Result<(), Rejection>) {
    let mut copy = state.clone();
    let applied = G1841::apply(&mut copy, seat, action);
    let events: &[Event] = match &applied {
        Ok(e) => e,
        Err(_) => &[],
    };
    let player = format!("Seat {seat}");
    let operating = operating_round::current(state);
    let company = operating.clone().unwrap_or_else(|| player.clone());
    let total_of = |f: &dyn Fn(&Event) -> Option<i64>| -> Option<i64> {
        let v: Vec<i64> = events.iter().filter_map(f).collect();
        if v.is_empty() {
            None
        } else {
            Some(v.iter().sum())
        }
    };
    let for_amount = |a: Option<i64>| a.map(|a| format!(" for L.{a}")).unwrap_or_default();
    let text = match action {
        Action::Bid { concession, price } => {
            format!("{player} bids L.{price} for the {concession} concession")
        }
        Action::Pass => match &operating {
            Some(sym) => format!("{player} passes ({sym} operating)"),
            None => format!("{player} passes"),
        },
        // The amounts are secret until every seat has bid (1841 §4.2 step 1): the line says
        // that a bid is made, never how much, how many are non-zero or their total, since
        // such lines end up in game logs that other players read (I9).
        Action::BlindBid { .. } => {
            format!("{player} submits a sealed bid (amounts secret until every seat has bid)")
        }
        Action::Par { corporation, price } => format!(
            "{player} starts {corporation} at par L.{price} (president's certificate for L.{})",
            price.saturating_mul(2)
        ),
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } => {
            // A corporation buying in its operating turn (1841 §9.7) is named as the buyer.
            let buyer = events
                .iter()
                .find_map(|e| match e {
                    Event::CorporationBoughtShares { buyer, .. } => Some(buyer.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| player.clone());
            format!(
                "{buyer} buys {} from the {}{}",
                percent_of(*percent, corporation),
                if *from_pool { "pool" } else { "IPO" },
                for_amount(total_of(&|e| match e {
                    Event::SharesBought { price, .. }
                    | Event::CorporationBoughtShares { price, .. } => Some(*price),
                    _ => None,
                }))
            )
        }
        Action::SellShares {
            corporation,
            percent,
        } => {
            // A corporation selling in its operating turn (1841 §9.7) is named as the seller.
            let seller = events
                .iter()
                .find_map(|e| match e {
                    Event::CorporationSoldShares { seller, .. } => Some(seller.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| player.clone());
            format!(
                "{seller} sells {} to the pool{}",
                percent_of(*percent, corporation),
                for_amount(total_of(&|e| match e {
                    Event::SharesSold { price, .. }
                    | Event::CorporationSoldShares { price, .. } => Some(*price),
                    _ => None,
                }))
            )
        }
        Action::PlaceToken { hex, city } => format!(
            "{company} places a token in city {city} of {}",
            hex_name(state, hex)
        ),
        Action::BuyTokens { count } => format!(
            "{company} buys {count} token{}{}",
            if *count == 1 { "" } else { "s" },
            for_amount(total_of(&|e| match e {
                Event::TokensBought { price, .. } => Some(*price),
                _ => None,
            }))
        ),
        Action::BuyConcession { concession } => format!(
            "{player} buys the {concession} concession from the bank{}",
            for_amount(total_of(&|e| match e {
                Event::ConcessionBought { price, .. } => Some(*price),
                _ => None,
            }))
        ),
        Action::LayTile {
            hex,
            tile,
            rotation,
        } => format!(
            "{company} lays tile {tile} on {}, rotation {rotation}{}",
            hex_name(state, hex),
            total_of(&|e| match e {
                Event::TileLaid { cost, .. } => Some(*cost),
                _ => None,
            })
            .map(|c| format!(", for L.{c}"))
            .unwrap_or_default()
        ),
        Action::BuyTrain { train, from, price } => {
            let source = match from.as_str() {
                "depot" => "the depot".to_string(),
                "pool" => "the pool".to_string(),
                other => other.to_string(),
            };
            format!("{company} buys train {train} from {source} for L.{price}")
        }
        Action::RunRoutes { routes } => {
            let revenue = total_of(&|e| match e {
                Event::RoutesRun { revenue, .. } => Some(*revenue),
                _ => None,
            });
            if routes.is_empty() {
                format!("{company} runs no train")
            } else {
                let trains: Vec<&str> = routes.iter().map(|r| r.train.as_str()).collect();
                let plural = if routes.len() == 1 { "" } else { "s" };
                format!(
                    "{company} runs {} route{plural} (train{plural} {}){}",
                    routes.len(),
                    trains.join(", "),
                    revenue.map(|r| format!(" for L.{r}")).unwrap_or_default()
                )
            }
        }
        Action::Dividend { payout } => {
            let revenue = total_of(&|e| match e {
                Event::DividendPaid { revenue, .. } | Event::Withheld { revenue, .. } => {
                    Some(*revenue)
                }
                _ => None,
            });
            let amount = revenue.map(|r| format!(" L.{r}")).unwrap_or_default();
            if *payout {
                format!("{company} pays out{amount}")
            } else {
                format!("{company} withholds{amount}")
            }
        }
        Action::BuyToken {
            hex,
            city,
            seller,
            price,
        } => format!(
            "{company} buys {seller}'s token in city {city} of {} for L.{price}",
            hex_name(state, hex)
        ),
        Action::ChooseSplitPresidency { corporation } => {
            format!("{player} takes the presidency of {corporation} in the Ferdinandea split")
        }
        Action::ExchangeSplitShare { corporation } => match split_holder(state) {
            // A corporation's odd share is its controller's choice (1841 §12.4, §7.2).
            Some(super::state::ShareOwner::Corporation(holder)) => format!(
                "{player} exchanges {holder}'s odd IRSFF share for a share of {corporation}"
            ),
            Some(super::state::ShareOwner::Pool) => format!(
                "{player} exchanges the pool's odd IRSFF share for a share of {corporation}"
            ),
            _ => format!("{player} exchanges an odd IRSFF share for a share of {corporation}"),
        },
        Action::RepeatPurchaseRound { repeat } => {
            if *repeat {
                format!("{player} calls another round of share purchases")
            } else {
                format!("{player} declines another round of share purchases")
            }
        }
        Action::ProposeMerger { partner } => {
            format!("{company} proposes a merger with {partner}")
        }
        Action::ChooseMergerPrice { price } => {
            format!("{player} chooses L.{price} as the merged corporation's price")
        }
        Action::FormCorporation { corporation } => {
            format!("{player} forms {corporation} from the merger")
        }
        Action::ClaimPresidency { claim } => {
            if *claim {
                format!("{player} claims the new president's certificate")
            } else {
                format!("{player} declines the new president's certificate")
            }
        }
        Action::ExchangeOddShare { choice } => match choice {
            OddShareChoice::Cash => format!("{player} sells an odd old share to the bank"),
            OddShareChoice::FullShare => {
                format!("{player} completes an odd old share to a full new share")
            }
        },
        Action::RemoveToken { hex, city } => format!(
            "{player} removes the merged corporation's token in city {city} of {}",
            hex_name(state, hex)
        ),
        Action::Transform { corporation } => format!("{company} transforms into {corporation}"),
        Action::EmergencySell {
            seller,
            corporation,
            percent,
        } => format!(
            "{} sells {} in an emergency sale{}",
            seller.clone().unwrap_or_else(|| player.clone()),
            percent_of(*percent, corporation),
            for_amount(total_of(&|e| match e {
                Event::EmergencySold { proceeds, .. } => Some(*proceeds),
                _ => None,
            }))
        ),
        Action::DeclareBankruptcy { loan } => {
            if *loan {
                format!("{player} declares bankruptcy and takes the L.500 bank loan")
            } else {
                format!("{player} declares bankruptcy and resigns")
            }
        }
        Action::DiscardTrain { corporation, train } => {
            format!("{corporation} discards train {train} to the pool")
        }
        Action::OfferPurchase {
            seller,
            item,
            price,
        } => {
            let what = match item {
                PurchaseItem::Shares {
                    corporation,
                    percent,
                } => percent_of(*percent, corporation),
                PurchaseItem::Concession { concession } => {
                    format!("the {concession} concession")
                }
            };
            format!("{player} offers Seat {seller} L.{price} for {what}")
        }
        Action::AnswerOffer { accept } => {
            if *accept {
                format!("{player} accepts the purchase offer")
            } else {
                format!("{player} declines the purchase offer")
            }
        }
    };
    (text, applied.map(|_| ()))
}

/// Preference of the timeout move (lower first) among the legal actions; see
/// [`default_action`].
fn default_rank(action: &Action) -> (u8, i64) {
    match action {
        Action::Pass
        | Action::AnswerOffer { accept: false }
        | Action::RepeatPurchaseRound { repeat: false }
        | Action::ClaimPresidency { claim: false } => (0, 0),
        Action::BlindBid { amounts } if amounts.iter().all(|a| *a == 0) => (0, 0),
        Action::RunRoutes { .. } => (1, 0),
        Action::Dividend { payout: true } => (1, 0),
        Action::ExchangeOddShare {
            choice: OddShareChoice::Cash,
        } => (1, 0),
        Action::BuyTrain { from, price, .. } if from == "depot" || from == "pool" => (2, *price),
        Action::EmergencySell { .. } => (3, 0),
        Action::DeclareBankruptcy { loan: false } => (9, 0),
        Action::DeclareBankruptcy { loan: true } => (8, 0),
        Action::OfferPurchase { .. } => (7, 0),
        _ => (5, 0),
    }
}

/// The move played for `seat` when its clock runs out ("pass or minimal"): among the legal
/// actions ([`Game::legal_actions`], so Apply accepts it), in this order of preference:
/// 1. passing: `Pass` (stock round, auctions, optional operating steps), declining an offer,
///    another purchase round or a presidency claim, an all-zero sealed bid (1841 §4.2);
/// 2. the route optimizer's best routes (1841 §9.3), paying out (1841 §9.4), selling an odd
///    share for cash (1841 §12.1);
/// 3. the cheapest train from the depot or pool when a train must be bought (1841 §9.6);
/// 4. an emergency sale (1841 §14);
/// 5. the first other legal action in the engine's order; offers to other players and
///    bankruptcy (loan before resigning) last.
///
/// Ties keep the engine's order. `None` when the seat has no legal action.
pub fn default_action(state: &State, seat: Seat) -> Option<Action> {
    let legal = G1841::legal_actions(state, seat);
    legal
        .iter()
        .enumerate()
        .min_by_key(|(i, a)| (default_rank(a), *i))
        .map(|(_, a)| a.clone())
}

/// Whether `action` is a pass in the sense of [`default_action`]'s first preference.
pub fn is_pass(action: &Action) -> bool {
    default_rank(action).0 == 0
}
