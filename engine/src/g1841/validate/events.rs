//! Checks of the corporate events (1841 §11, §12): the event in progress and the queued
//! ones, their holders (seats, corporations of these rules, the pool), a merger's odd-share
//! answers (pass 2, §12.1) and the assets it moved (`Merger::moved`).

use super::*;

/// A holder named in an event: a seat at the table, a corporation of these rules, the pool.
fn check_holder(state: &State, path: &str, h: &ShareOwner) -> Result<(), StateError> {
    let ok = match h {
        ShareOwner::Player(s) => (*s as usize) < state.players.len(),
        ShareOwner::Corporation(c) => state.corporation(c).is_some(),
        ShareOwner::Pool => true,
        ShareOwner::Ipo => false,
    };
    if ok {
        Ok(())
    } else {
        Err(err(
            path,
            "not a player, corporation or the pool of this game",
        ))
    }
}

fn check_holders(
    state: &State,
    path: &str,
    holders: &[ShareOwner],
    units: &[u32],
    units_needed: bool,
) -> Result<(), StateError> {
    // Every player, every corporation and the pool at most once.
    if holders.len() > state.players.len() + state.corporations.len() + 1 {
        return Err(err(format!("{path}.holders"), "too many holders"));
    }
    let mut seen = BTreeSet::new();
    for (i, h) in holders.iter().enumerate() {
        check_holder(state, &format!("{path}.holders[{i}]"), h)?;
        if !seen.insert(h) {
            return Err(err(format!("{path}.holders[{i}]"), "listed twice"));
        }
    }
    if units_needed && units.len() != holders.len() {
        return Err(err(
            format!("{path}.units"),
            "one entry per holder in this stage",
        ));
    }
    if units.iter().any(|u| *u > 20) {
        return Err(err(
            format!("{path}.units"),
            "at most 20 units (two majors)",
        ));
    }
    Ok(())
}

/// The corporate event in progress and the queued events (1841 §11, §12).
pub(super) fn check_events(state: &State, or: &OperatingRound) -> Result<(), StateError> {
    use crate::g1841::state::{CorporateEvent, MergerStage, SplitStage};
    let mut queued = BTreeSet::new();
    for (i, q) in or.queued_events.iter().enumerate() {
        if !queued.insert(format!("{q:?}")) {
            return Err(err(
                format!("operating_round.queued_events[{i}]"),
                "listed twice",
            ));
        }
    }
    let started = |sym: &str| state.corporation(sym).is_some_and(|c| c.started());
    let Some(ev) = or.event.as_deref() else {
        return Ok(());
    };
    match ev {
        CorporateEvent::Split(x) => {
            let path = "operating_round.event.split";
            let succ = &data::ruleset(&state.options).ferdinandea_split.successors;
            check_holder(state, &format!("{path}.president"), &x.president)?;
            let with_units = matches!(x.stage, SplitStage::Presidency | SplitStage::SingleShares);
            check_holders(state, path, &x.holders, &x.units, with_units)?;
            if x.next as usize > x.holders.len() {
                return Err(err(format!("{path}.next"), "beyond the holders"));
            }
            if !succ.iter().all(|s| started(s)) {
                return Err(err(path, "both successors are started during the split"));
            }
            let named = matches!(x.stage, SplitStage::Purchases | SplitStage::RepeatRound);
            if (named && !succ.contains(&x.corporation))
                || (!x.corporation.is_empty() && !succ.contains(&x.corporation))
            {
                return Err(err(format!("{path}.corporation"), "must be a successor"));
            }
            if x.purchases_closed.iter().any(|c| !succ.contains(c)) {
                return Err(err(format!("{path}.purchases_closed"), "successors only"));
            }
        }
        CorporateEvent::Merger(x) => {
            let path = "operating_round.event.merger";
            let exists = |s: &str| state.corporation(s).is_some();
            if !exists(&x.initiator) || !exists(&x.partner) || x.initiator == x.partner {
                return Err(err(
                    format!("{path}.initiator"),
                    "two different corporations of these rules",
                ));
            }
            let before = matches!(
                x.stage,
                MergerStage::Price | MergerStage::Corporation | MergerStage::Presidency
            );
            if before && !(started(&x.initiator) && started(&x.partner)) {
                return Err(err(
                    format!("{path}.stage"),
                    "the old corporations are started until the exchange",
                ));
            }
            if x.stage != MergerStage::Corporation && x.stage != MergerStage::Price {
                // Started once the assets moved (1841 §12.1: named, or the exchange done).
                let moved = x.stage != MergerStage::Presidency || x.moved.is_some();
                match state.corporation(&x.target) {
                    Some(t) if t.started() == moved => {}
                    _ => {
                        return Err(err(
                            format!("{path}.target"),
                            "an unstarted corporation before the assets move, started after it",
                        ));
                    }
                }
            }
            if let Some(moved) = &x.moved {
                check_moved_assets(state, path, x, moved)?;
            }
            if x.stage == MergerStage::Price && x.price_choices.len() != 2 {
                return Err(err(format!("{path}.price_choices"), "two prices"));
            }
            if x.stage != MergerStage::Price && x.cell.is_none() {
                return Err(err(format!("{path}.cell"), "set once the price is known"));
            }
            for (i, c) in x.cell.iter().chain(x.price_choices.iter()).enumerate() {
                if !market::exists(c.row, c.col) {
                    return Err(err(
                        format!("{path}.cell[{i}]"),
                        "not a cell of the stock market",
                    ));
                }
            }
            let with_units = matches!(x.stage, MergerStage::Presidency | MergerStage::OddShares);
            check_holders(state, path, &x.holders, &x.units, with_units)?;
            if x.next as usize > 2 * x.holders.len() {
                return Err(err(format!("{path}.next"), "beyond the holders"));
            }
            if let Some(p) = &x.president {
                check_holder(state, &format!("{path}.president"), p)?;
            }
            check_pass2(path, x)?;
            // At most one two-city tile per hex, each of the new corporation's hexes
            // (1841 §12.1), and only until the choice is made.
            let two_city_ok = x.two_city.len() <= 4
                && (x.two_city.is_empty()
                    || matches!(x.stage, MergerStage::OddShares | MergerStage::TwoCityTile))
                && x.two_city.iter().enumerate().all(|(i, t)| {
                    !x.two_city[..i].iter().any(|u| u.hex == t.hex)
                        && state
                            .corporation(&x.target)
                            .is_some_and(|c| c.tokens.contains(t))
                });
            if !two_city_ok {
                return Err(err(
                    format!("{path}.two_city"),
                    "tokens of the new corporation, one per hex, before the token stage",
                ));
            }
            if x.decider.is_some_and(|s| s as usize >= state.players.len()) {
                return Err(err(format!("{path}.decider"), "a seat of this game"));
            }
            if x.token_count > 5
                || x.tokens_min_removal > x.tokens_max_removal
                || x.tokens_max_removal > 10
            {
                return Err(err(
                    format!("{path}.token_count"),
                    "at most 5 tokens, removal bounds min ≤ max",
                ));
            }
        }
        CorporateEvent::Transformation(x) => {
            let path = "operating_round.event.transformation";
            // Stage 5: the compulsory second token by emergency money raising (1841 §12.2).
            if !started(&x.major) || !(1..=5).contains(&x.stage) {
                return Err(err(format!("{path}.major"), "a started major, stage 1–5"));
            }
            check_holders(state, path, &x.holders, &[], false)?;
            if x.next as usize > x.holders.len() {
                return Err(err(format!("{path}.next"), "beyond the holders"));
            }
            if x.decider.is_some_and(|s| s as usize >= state.players.len()) {
                return Err(err(format!("{path}.decider"), "a seat of this game"));
            }
        }
    }
    Ok(())
}

/// The odd-share answers of a merger's sweep over odd shares (1841 §12.1 pass 2, R4;
/// `Merger::pass2`): each given by a holder of the merger's list, once. Errors name
/// `operating_round.event.merger.pass2[i]`.
fn check_pass2(path: &str, x: &crate::g1841::state::Merger) -> Result<(), StateError> {
    if x.pass2.len() > x.holders.len() {
        return Err(err(
            format!("{path}.pass2"),
            "at most one answer per holder",
        ));
    }
    for (i, (h, _)) in x.pass2.iter().enumerate() {
        let p = format!("{path}.pass2[{i}]");
        if !x.holders.contains(h) {
            return Err(err(p, "a holder of the merger"));
        }
        if x.pass2[..i].iter().any(|(g, _)| g == h) {
            return Err(err(p, "one answer per holder"));
        }
    }
    Ok(())
}

/// A voluntary merger's record of the assets moved to its new corporation (1841 §12.1), so
/// that taking it back cannot create or duplicate anything: only in the presidency stage of
/// a major merger; the decider a seat; the recorded trains are now the new corporation's
/// or in the pool (discarded), and the new corporation holds no others; the recorded
/// certificates exist and were the old corporations'; cash not negative; the market arrival
/// counter not ahead.
fn check_moved_assets(
    state: &State,
    path: &str,
    x: &crate::g1841::state::Merger,
    moved: &crate::g1841::state::MovedAssets,
) -> Result<(), StateError> {
    let path = format!("{path}.moved");
    let major = state
        .corporation(&x.initiator)
        .is_some_and(|c| c.kind == crate::g1841::state::CorporationKind::Major);
    if x.stage != crate::g1841::state::MergerStage::Presidency || !major {
        return Err(err(path, "only in the presidency stage of a major merger"));
    }
    if moved
        .decider
        .is_some_and(|s| s as usize >= state.players.len())
    {
        return Err(err(format!("{path}.decider"), "a seat of this game"));
    }
    let recorded: Vec<&String> = moved
        .initiator_trains
        .iter()
        .chain(&moved.partner_trains)
        .collect();
    let unique: BTreeSet<&String> = recorded.iter().copied().collect();
    let held = state.operations.trains.get(&x.target);
    let placed = |t: &String| {
        held.is_some_and(|l| l.contains(t)) || state.operations.pool_trains.contains(t)
    };
    if unique.len() != recorded.len()
        || !recorded.iter().all(|t| placed(t))
        || held.is_some_and(|l| l.iter().any(|t| !unique.contains(t)))
    {
        return Err(err(
            format!("{path}.initiator_trains"),
            "the old corporations' trains, each now the new corporation's or in the pool",
        ));
    }
    let olds = [
        ShareOwner::Corporation(x.initiator.clone()),
        ShareOwner::Corporation(x.partner.clone()),
    ];
    for (i, c) in moved.certificates.iter().enumerate() {
        let exists = state
            .corporation(&c.corporation)
            .is_some_and(|k| (c.index as usize) < k.certificates.len());
        if !exists || !olds.contains(&c.owner) {
            return Err(err(
                format!("{path}.certificates[{i}]"),
                "a certificate of these rules, held by an old corporation before",
            ));
        }
    }
    if moved.initiator_cash < 0
        || moved.partner_cash < 0
        || moved.next_market_arrival > state.next_market_arrival
    {
        return Err(err(
            path,
            "cash not negative, the arrival counter not ahead of the state's",
        ));
    }
    Ok(())
}
