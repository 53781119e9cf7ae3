//! The 18xx form of one action: its type and fields ([`Writer::fields`], the mapping of the
//! [`super`] documentation) and the entity 18xx records it by.

use serde_json::{Map, Value, json};

use super::{REFEREE_SELLER, Writer};
use crate::Seat;
use crate::g1841::action::{Action, Event, OddShareChoice};
use crate::g1841::data;
use crate::g1841::import18xx::{self, Entity, notation};
use crate::g1841::operating_round;
use crate::g1841::state::{
    CorporateEvent, MergerStage, OperatingStep, Round, ShareOwner, SplitStage, StartStep, State,
};

impl Writer<'_> {
    /// The action type and its fields (everything but type, entity and id).
    pub(super) fn fields(
        &self,
        pre: &State,
        post: &State,
        action: &Action,
        events: &[Event],
        share_ids: &[String],
    ) -> Result<(String, Map<String, Value>), String> {
        let mut f = Map::new();
        let mut put = |k: &str, v: Value| {
            f.insert(k.to_string(), v);
        };
        let event = match &pre.round {
            Round::OperatingRound(r) => r.event.as_deref(),
            _ => None,
        };
        let successor_letter = |corporation: &str| {
            let successors = &data::ruleset(&pre.options).ferdinandea_split.successors;
            if successors.first().is_some_and(|s| s == corporation) {
                "a"
            } else {
                "b"
            }
        };
        let offered = matches!(
            event,
            Some(CorporateEvent::Split(s)) if s.stage == SplitStage::Purchases
        ) || matches!(
            event,
            Some(CorporateEvent::Transformation(t)) if t.stage == 1 || t.stage == 2
        );
        let kind = match action {
            Action::Bid { concession, price } => {
                put("company", Value::from(concession.as_str()));
                put("price", Value::from(*price));
                "bid"
            }
            Action::BlindBid { amounts } => {
                put("bids", json!(amounts));
                "blind_bid"
            }
            Action::Pass if offered => {
                put("choice", Value::from("no"));
                "choose"
            }
            Action::Pass => "pass",
            Action::Par { corporation, price } => {
                let cell = post
                    .corporation(corporation)
                    .and_then(|c| c.share_price)
                    .ok_or_else(|| format!("{corporation} has no market cell after its par"))?;
                put("corporation", Value::from(corporation.as_str()));
                put(
                    "share_price",
                    Value::from(notation::share_price(*price, cell.row, cell.col)),
                );
                "par"
            }
            Action::BuyShares { .. } if offered => {
                put("choice", Value::from("yes"));
                "choose"
            }
            Action::BuyShares {
                corporation,
                percent,
                ..
            } => {
                let ids = share_ids;
                if ids.is_empty() {
                    return Err(format!("no certificate of {corporation} changed hands"));
                }
                put("shares", json!(ids));
                put("percent", Value::from(*percent));
                "buy_shares"
            }
            Action::SellShares { percent, .. } => {
                let ids = share_ids;
                put("shares", json!(ids));
                put("percent", Value::from(*percent));
                "sell_shares"
            }
            Action::EmergencySell {
                corporation,
                percent,
                ..
            } => {
                let ids = share_ids;
                put("shares", json!(ids));
                put("percent", Value::from(*percent));
                // 18xx stores the half price per unit certificate (1841 §14): `97.5`, `50`.
                if let Some(price) = pre.corporation(corporation).and_then(|c| c.price()) {
                    put(
                        "share_price",
                        if price % 2 == 0 {
                            json!(price / 2)
                        } else {
                            json!(price as f64 / 2.0)
                        },
                    );
                }
                "sell_shares"
            }
            Action::PlaceToken { hex, city } => {
                let tokener = gained_token(pre, post, hex, *city).unwrap_or_default();
                put("city", Value::from(self.city_id(&pre.options, hex, *city)));
                put(
                    "slot",
                    Value::from(import18xx::token_holders(pre, hex, *city).len()),
                );
                put("tokener", Value::from(tokener));
                "place_token"
            }
            Action::BuyTokens { count } => {
                let bought = match event {
                    Some(CorporateEvent::Split(s)) => {
                        count.saturating_sub(tokens_total(pre, &s.corporation))
                    }
                    // 18xx's count includes the compulsory second token when the major
                    // had one (`transform_tokens`: `min` 1), which this engine bought on
                    // entering the step (1841 §12.2).
                    Some(CorporateEvent::Transformation(t)) => count
                        .saturating_sub(tokens_total(pre, &t.major))
                        .saturating_add(u32::from(
                            self.compulsory.as_deref() == Some(t.major.as_str()),
                        )),
                    _ => *count,
                };
                put("choice", Value::from(bought));
                "choose"
            }
            Action::BuyConcession { concession } => {
                // The concession's own price: 18xx.games adds a pool president's
                // certificate's 2 × market price itself (1841 §3.2, `process_buy_company`).
                let paid = events
                    .iter()
                    .find_map(|e| match e {
                        Event::ConcessionBought { price, .. } => Some(*price),
                        _ => None,
                    })
                    .unwrap_or(0);
                put("company", Value::from(concession.as_str()));
                put("price", Value::from(paid));
                "buy_company"
            }
            Action::LayTile {
                hex,
                tile: _,
                rotation,
            } => {
                let copy = self
                    .tiles
                    .get(hex)
                    .cloned()
                    .ok_or_else(|| format!("no tile on {hex} after the lay"))?;
                put("hex", Value::from(hex.as_str()));
                put("tile", Value::from(copy));
                put("rotation", Value::from(*rotation));
                "lay_tile"
            }
            Action::BuyTrain { train, from, price } => {
                put("train", Value::from(train.as_str()));
                put("price", Value::from(*price));
                // 18xx names the variant of depot trains only.
                if from == "depot" {
                    put("variant", Value::from(operating_round::train_type(train)));
                }
                "buy_train"
            }
            Action::RunRoutes { routes } => {
                let revenues = events
                    .iter()
                    .find_map(|e| match e {
                        Event::RoutesRun { revenues, .. } => Some(revenues.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                let list: Vec<Value> = routes
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let hexes: Vec<&str> = r.stops.iter().map(|s| s.hex.as_str()).collect();
                        json!({
                            "train": r.train,
                            "connections": r.connections,
                            "hexes": hexes,
                            "revenue": revenues.get(i).copied().unwrap_or(0),
                            "revenue_str": hexes.join("-"),
                            "nodes": r
                                .stops
                                .iter()
                                .map(|s| notation::node_id(&s.hex, s.node))
                                .collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                put("routes", Value::Array(list));
                put("extra_revenue", Value::from(0));
                put("subsidy", Value::from(0));
                "run_routes"
            }
            Action::Dividend { payout } => {
                put(
                    "kind",
                    Value::from(if *payout { "payout" } else { "withhold" }),
                );
                "dividend"
            }
            Action::BuyToken {
                hex,
                city,
                seller,
                price,
            } => {
                let buyer = operating_round::current(pre);
                let slot = self.slot_of(hex, *city, seller).unwrap_or_else(|| {
                    import18xx::token_holders(pre, hex, *city)
                        .into_iter()
                        .filter(|c| Some(c) != buyer.as_ref())
                        .position(|c| c == *seller)
                        .unwrap_or(0)
                });
                put("city", Value::from(self.city_id(&pre.options, hex, *city)));
                put("slot", Value::from(slot));
                // This engine's importer reads the seller from the slot in its own order of
                // the city's holders, which need not be 18xx's: the seller is named beside.
                put(REFEREE_SELLER, Value::from(seller.as_str()));
                put("price", Value::from(*price));
                "buy_token"
            }
            Action::ChooseSplitPresidency { corporation }
            | Action::ExchangeSplitShare { corporation } => {
                put("choice", Value::from(successor_letter(corporation)));
                "choose"
            }
            Action::RepeatPurchaseRound { repeat } => {
                put("choice", Value::from(if *repeat { "y" } else { "n" }));
                "choose"
            }
            Action::ProposeMerger { partner } => {
                put("corporation", Value::from(partner.as_str()));
                "merge"
            }
            Action::FormCorporation { corporation } | Action::Transform { corporation } => {
                put("corporation", Value::from(corporation.as_str()));
                "merge"
            }
            Action::ChooseMergerPrice { price } => {
                let lowest = match event {
                    Some(CorporateEvent::Merger(m)) => m
                        .price_choices
                        .iter()
                        .filter_map(|c| crate::g1841::market::price_at(c.row, c.col))
                        .min(),
                    _ => None,
                };
                put(
                    "choice",
                    Value::from(if lowest == Some(*price) {
                        "first"
                    } else {
                        "last"
                    }),
                );
                "choose"
            }
            Action::ClaimPresidency { claim } => {
                put("choice", Value::from(if *claim { "pres" } else { "no" }));
                "choose"
            }
            Action::ExchangeOddShare { choice } => {
                put(
                    "choice",
                    Value::from(match choice {
                        OddShareChoice::FullShare => "full",
                        OddShareChoice::Cash => "cash",
                    }),
                );
                "choose"
            }
            Action::RemoveToken { hex, city } => {
                let slot = lost_token(pre, post, hex, *city)
                    .and_then(|sym| {
                        self.slot_of(hex, *city, &sym).or_else(|| {
                            import18xx::token_holders(pre, hex, *city)
                                .iter()
                                .position(|c| *c == sym)
                        })
                    })
                    .unwrap_or(0);
                put("city", Value::from(self.city_id(&pre.options, hex, *city)));
                put("slot", Value::from(slot));
                "remove_token"
            }
            Action::DeclareBankruptcy { loan } => {
                put("option", Value::from(u32::from(*loan)));
                "bankrupt"
            }
            Action::DiscardTrain { train, .. } => {
                put("train", Value::from(train.as_str()));
                "discard_train"
            }
            // Written with their answer by `export` (1841 §15.3).
            Action::OfferPurchase { .. } | Action::AnswerOffer { .. } => {
                return Err("a purchase offer is written with its answer".into());
            }
        };
        Ok((kind.to_string(), f))
    }
}

fn tokens_total(state: &State, sym: &str) -> u32 {
    state.corporation(sym).map_or(0, |c| c.tokens_total)
}

fn has_token(state: &State, sym: &str, hex: &str, city: u32) -> bool {
    state
        .corporation(sym)
        .is_some_and(|c| c.tokens.iter().any(|t| t.hex == hex && t.city == city))
}

/// The corporation that has a token in the city after the action and had none before.
fn gained_token(pre: &State, post: &State, hex: &str, city: u32) -> Option<String> {
    post.corporations
        .iter()
        .map(|c| c.sym.as_str())
        .find(|sym| has_token(post, sym, hex, city) && !has_token(pre, sym, hex, city))
        .map(str::to_string)
}

/// The corporation that had a token in the city before the action and has none after.
fn lost_token(pre: &State, post: &State, hex: &str, city: u32) -> Option<String> {
    pre.corporations
        .iter()
        .map(|c| c.sym.as_str())
        .find(|sym| has_token(pre, sym, hex, city) && !has_token(post, sym, hex, city))
        .map(str::to_string)
}

fn holder_entity(holder: Option<&ShareOwner>, seat: Seat) -> Entity {
    match holder {
        Some(ShareOwner::Player(s)) => Entity::Player(*s),
        Some(ShareOwner::Corporation(c)) => Entity::Corporation(c.clone()),
        _ => Entity::Player(seat),
    }
}

/// The entity 18xx records for `action` by `seat` in `pre` (see the module documentation).
pub(super) fn entity(pre: &State, seat: Seat, action: &Action) -> Entity {
    let corp = |s: &str| Entity::Corporation(s.to_string());
    match &pre.round {
        Round::ConcessionRound(_) => Entity::Player(seat),
        Round::StockRound(r) => match (&r.start, action) {
            (Some(st), Action::PlaceToken { .. } | Action::BuyTokens { .. }) => {
                corp(&st.corporation)
            }
            (Some(st), Action::Pass) if st.step != StartStep::BuyShares => corp(&st.corporation),
            _ => Entity::Player(seat),
        },
        Round::OperatingRound(r) => {
            // A discard is the over-limit corporation's, also while an event waits behind it
            // (18xx's discard step comes before the event's decisions, 1841 §9.6).
            if let Action::DiscardTrain { corporation, .. } = action {
                return corp(corporation);
            }
            if let Some(event) = r.event.as_deref() {
                return match event {
                    CorporateEvent::Split(s) => match s.stage {
                        // 18xx asks IRSFF's president when a player is at the top of it,
                        // else the split's decider (`secession_start`: `old.player ? old_owner
                        // : @secession_decider`).
                        SplitStage::Presidency
                            if crate::g1841::corporation::acting_seat(pre, &s.president)
                                .is_none() =>
                        {
                            Entity::Player(seat)
                        }
                        SplitStage::Presidency => holder_entity(Some(&s.president), seat),
                        SplitStage::SingleShares | SplitStage::Purchases => {
                            holder_entity(s.holders.get(s.next as usize), seat)
                        }
                        // 18xx asks the successor when a player controls it, else
                        // IRSFF's president (`secession_post_offer`, `@secession_decider`).
                        SplitStage::RepeatRound
                            if crate::g1841::corporation::controller(pre, &s.corporation)
                                .is_none() =>
                        {
                            Entity::Player(seat)
                        }
                        SplitStage::RepeatRound | SplitStage::Tokens => corp(&s.corporation),
                    },
                    CorporateEvent::Merger(m) => match m.stage {
                        MergerStage::Price | MergerStage::Corporation => corp(&m.initiator),
                        MergerStage::Presidency => holder_entity(
                            m.holders.get(m.next as usize % m.holders.len().max(1)),
                            seat,
                        ),
                        MergerStage::OddShares => {
                            holder_entity(m.holders.get(m.next as usize), seat)
                        }
                        // 18xx asks the new corporation when a player controls it, else
                        // `@merger_decider` (`merger_tokens_start`, 1841 §12.1).
                        MergerStage::TwoCityTile
                            if crate::g1841::corporation::controller(pre, &m.target).is_none() =>
                        {
                            Entity::Player(seat)
                        }
                        MergerStage::TwoCityTile | MergerStage::Tokens => corp(&m.target),
                    },
                    CorporateEvent::Transformation(t) => match t.stage {
                        1 | 2 => holder_entity(t.holders.get(t.next as usize), seat),
                        _ => corp(&t.major),
                    },
                };
            }
            if let Some(c) = r.crowded.first() {
                return corp(c);
            }
            if let Some(st) = &r.start
                && (matches!(action, Action::PlaceToken { .. } | Action::BuyTokens { .. })
                    || (matches!(action, Action::Pass) && st.step != StartStep::BuyShares))
            {
                return corp(&st.corporation);
            }
            match action {
                Action::EmergencySell { seller: None, .. } => Entity::Player(seat),
                // 18xx.games' train step takes corporate sales from the operating
                // corporation, the bundle's owner selling (`G1841::Step::BuyTrain#actions`,
                // `process_sell_shares`; 1841 §14).
                Action::EmergencySell {
                    seller: Some(_), ..
                } if r.step == OperatingStep::Trains && r.current.is_some() => {
                    r.current.as_deref().map_or(Entity::Player(seat), corp)
                }
                Action::EmergencySell {
                    seller: Some(s), ..
                } => corp(s),
                _ => r.current.as_deref().map_or(Entity::Player(seat), corp),
            }
        }
    }
}
