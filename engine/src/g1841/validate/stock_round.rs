//! Checks of the stock round (1841 §5): its pending price drops (FAQ-Q2), its seats and
//! counters, the sales of this turn, the corporation start in progress (§5.4) and the purchase
//! offers between players (§15.3).

use super::*;

pub(super) fn check_stock_round(state: &State, sr: &StockRound, n: u32) -> Result<(), StateError> {
    check_drops(state, "stock_round.pending_drops", &sr.pending_drops)?;
    for (field, s) in [
        ("priority_seat", Some(sr.priority_seat)),
        ("current_seat", Some(sr.current_seat)),
        ("last_to_act", sr.last_to_act),
    ] {
        if s.is_some_and(|s| s >= n) {
            return Err(err(
                format!("stock_round.{field}"),
                "not a seat at the table",
            ));
        }
    }
    if sr.number == 0 {
        return Err(err("stock_round.number", "stock rounds count from 1"));
    }
    if sr.consecutive_passes > n {
        return Err(err(
            "stock_round.consecutive_passes",
            "more passes than players",
        ));
    }
    for (i, s) in sr.sold.iter().enumerate() {
        if s.seat >= n {
            return Err(err(
                format!("stock_round.sold[{i}].seat"),
                "not a seat at the table",
            ));
        }
        if state.corporation(&s.corporation).is_none() {
            return Err(err(
                format!("stock_round.sold[{i}].corporation"),
                "not a corporation of these rules",
            ));
        }
    }
    if let Some(start) = &sr.start {
        let ok = state.corporation(&start.corporation).is_some_and(|c| {
            c.started() && c.president() == Some(&ShareOwner::Player(sr.current_seat))
        });
        if !ok {
            return Err(err(
                "stock_round.start.corporation",
                "must be a started corporation whose president is the current seat",
            ));
        }
    }
    // 1841 §15.3: purchase offers between players, made by the seat on turn.
    if sr.offer.is_some() || !sr.declined_offers.is_empty() {
        if !state.options.p2p_purchases {
            return Err(err(
                "stock_round.offer",
                "purchase offers need the p2p_purchases option",
            ));
        }
        if sr.offer.is_some() && sr.start.is_some() {
            return Err(err(
                "stock_round.offer",
                "no offer while a corporation is being started",
            ));
        }
    }
    let offers = sr
        .offer
        .iter()
        .map(|o| ("stock_round.offer".to_string(), o))
        .chain(
            sr.declined_offers
                .iter()
                .enumerate()
                .map(|(i, o)| (format!("stock_round.declined_offers[{i}]"), o)),
        );
    for (path, o) in offers {
        if o.buyer != sr.current_seat {
            return Err(err(format!("{path}.buyer"), "must be the current seat"));
        }
        if o.seller >= n || o.seller == o.buyer {
            return Err(err(
                format!("{path}.seller"),
                "must be another seat at the table",
            ));
        }
        if o.price < 1 {
            return Err(err(format!("{path}.price"), "at least L.1"));
        }
        match &o.item {
            PurchaseItem::Shares {
                corporation,
                percent,
            } => {
                let Some(c) = state.corporation(corporation) else {
                    return Err(err(
                        format!("{path}.item.corporation"),
                        "not a corporation of these rules",
                    ));
                };
                if *percent == 0 || !percent.is_multiple_of(c.unit_percent()) {
                    return Err(err(
                        format!("{path}.item.percent"),
                        "a positive multiple of the corporation's unit",
                    ));
                }
            }
            PurchaseItem::Concession { concession } => {
                if !concession
                    .parse()
                    .is_ok_and(|c| concessions_of(&state.options).contains(&c))
                {
                    return Err(err(
                        format!("{path}.item.concession"),
                        "not a concession of these rules",
                    ));
                }
            }
        }
    }
    Ok(())
}
