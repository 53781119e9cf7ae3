//! Buying trains, train limits, phases and rusting (1841 §9.6, §10).

use super::*;

/// The number of trains `sym` owns (those of [`trains_of`], without copying them).
pub(super) fn train_count(state: &State, sym: &str) -> usize {
    state.operations.trains.get(sym).map_or(0, Vec::len)
}

pub(super) fn trains_of(state: &State, sym: &str) -> Vec<String> {
    state
        .operations
        .trains
        .get(sym)
        .cloned()
        .unwrap_or_default()
}

/// Train type of a train id (`2-4` → `2`).
pub fn train_type(id: &str) -> &str {
    id.split('-').next().unwrap_or(id)
}

/// Train limit of `sym` in the current phase (1841 §9.6).
pub fn train_limit(state: &State, sym: &str) -> u32 {
    let (Some(p), Some(c)) = (phase_data(state), state.corporation(sym)) else {
        return 0;
    };
    match c.kind {
        CorporationKind::Major => p.train_limit.major,
        CorporationKind::Minor => p.train_limit.minor,
    }
}

/// The next depot train (lowest type with copies left) as (id, price) (1841 §9.6).
pub fn depot_train(state: &State) -> Option<(String, i64)> {
    data::ruleset(&state.options).trains.iter().find_map(|t| {
        let sold = state
            .operations
            .depot_sold
            .get(&t.name)
            .copied()
            .unwrap_or(0);
        (sold < t.count).then(|| (format!("{}-{sold}", t.name), t.price))
    })
}

pub(super) fn train_price(state: &State, id: &str) -> i64 {
    data::ruleset(&state.options)
        .train(train_type(id))
        .map_or(0, |t| t.price)
}

/// Corporations over their train limit now, in operating order (1841 §9.6).
pub fn over_limit(state: &State) -> Vec<String> {
    market::operating_order_of(state)
        .into_iter()
        .filter(|s| train_count(state, s) as u32 > train_limit(state, s))
        .map(str::to_string)
        .collect()
}

/// The discards open to the first crowded corporation (1841 §9.6): one action per train type
/// it owns (trains of one type are interchangeable; the first id of each type is listed).
pub(super) fn discard_options(state: &State) -> Vec<Action> {
    let Some(sym) = round(state).and_then(|r| r.crowded.first().cloned()) else {
        return Vec::new();
    };
    let mut types = BTreeSet::new();
    trains_of(state, &sym)
        .into_iter()
        .filter(|id| types.insert(train_type(id).to_string()))
        .map(|train| Action::DiscardTrain {
            corporation: sym.clone(),
            train,
        })
        .collect()
}

/// Discards `train` of `sym` to the bank pool (1841 §9.6) and drops `sym` from the crowded
/// list once within its limit.
pub(super) fn discard_train(state: &mut State, sym: &str, train: &str, events: &mut Vec<Event>) {
    if let Some(list) = state.operations.trains.get_mut(sym) {
        list.retain(|x| x != train);
    }
    state.operations.trains.retain(|_, v| !v.is_empty());
    state.operations.pool_trains.push(train.to_string());
    events.push(Event::TrainDiscarded {
        corporation: sym.to_string(),
        train: train.to_string(),
    });
    let within = train_count(state, sym) as u32 <= train_limit(state, sym);
    if within && let Some(r) = round_mut(state) {
        r.crowded.retain(|c| c != sym);
    }
}

/// The seat that decides which train `sym` discards (1841 §9.6): its controller (1841 §7.2);
/// for a merger's new corporation before its president is known (it received the old
/// corporations' trains when it was named, 1841 §12.1) the merger's decider: the initiator's
/// controller (the Tuscan merge's decider, §12.3), as 18xx.games' `@merger_decider`
/// (`merger_start`: `corpa.player`). The last step of the Tuscan merge (§12.3: the merged
/// corporation and SSFL into SFLi) moves the trains when SFLi is formed, with no assets kept
/// for an undo: its decider ([`Merger::decider`]) chooses then, as 18xx.games' `DiscardTrain`
/// step asks SFLi before the odd shares (v2 random 6 players seed 6012, 18xx id 552: SFLi
/// with SSFL's three 3-trains and SFLP's 3-train, limit 3 in phase 4; this engine discarded
/// SFLP's train by itself). `None`: nobody, the discard is automatic (I26).
///
/// [`Merger::decider`]: super::super::state::Merger::decider
pub fn discard_seat(state: &State, sym: &str) -> Option<Seat> {
    controller(state, sym).or_else(|| match round(state)?.event.as_deref()? {
        CorporateEvent::Merger(m) if m.target == sym => match &m.moved {
            Some(moved) => moved.decider,
            None => m.decider,
        },
        _ => None,
    })
}

/// After a phase change: every corporation over its new limit must discard (1841 §9.6). A
/// corporation nobody decides for ([`discard_seat`]: frozen) discards its lowest trains at
/// once (interpretation I26).
pub(super) fn mark_crowded(state: &mut State, events: &mut Vec<Event>) {
    for sym in over_limit(state) {
        if discard_seat(state, &sym).is_none() {
            while train_count(state, &sym) as u32 > train_limit(state, &sym) {
                let Some(first) = trains_of(state, &sym).first().cloned() else {
                    break;
                };
                discard_train(state, &sym, &first, events);
            }
        } else if let Some(r) = round_mut(state)
            && !r.crowded.contains(&sym)
        {
            r.crowded.push(sym);
        }
    }
}

/// Train purchases possible now: fixed-price depot/pool actions and ranges for trains of
/// other corporations (1841 §9.6).
pub(super) fn train_options(state: &State) -> (Vec<Action>, Vec<TrainPurchaseRange>) {
    train_options_of(state, None)
}

/// [`train_options`] with, when `only` is `(train, from)`, the ranges of that train of that
/// corporation alone (all a purchase from another corporation is judged by; the depot and
/// pool actions are listed whole).
pub(super) fn train_options_of(
    state: &State,
    only: Option<(&str, &str)>,
) -> (Vec<Action>, Vec<TrainPurchaseRange>) {
    let mut actions = Vec::new();
    let mut ranges = Vec::new();
    let Some(r) = round(state) else {
        return (actions, ranges);
    };
    let Some(sym) = r.current.clone() else {
        return (actions, ranges);
    };
    if r.step != OperatingStep::Trains {
        return (actions, ranges);
    }
    let Some(corp) = state.corporation(&sym) else {
        return (actions, ranges);
    };
    if train_count(state, &sym) as u32 >= train_limit(state, &sym) {
        return (actions, ranges);
    }
    if let Some((id, price)) = depot_train(state)
        && price <= corp.cash
    {
        actions.push(Action::BuyTrain {
            train: id,
            from: "depot".into(),
            price,
        });
    }
    let mut pool_types = BTreeSet::new();
    for id in &state.operations.pool_trains {
        let price = train_price(state, id);
        if price <= corp.cash && pool_types.insert(train_type(id).to_string()) {
            actions.push(Action::BuyTrain {
                train: id.clone(),
                from: "pool".into(),
                price,
            });
        }
    }
    if corp.cash >= 1 {
        for (other, trains) in &state.operations.trains {
            if *other == sym || only.is_some_and(|(_, from)| from != other) {
                continue;
            }
            for id in trains {
                if only.is_some_and(|(train, _)| train != id) {
                    continue;
                }
                ranges.push(TrainPurchaseRange {
                    train: id.clone(),
                    from: other.clone(),
                    min_price: 1,
                    max_price: corp.cash,
                });
            }
        }
    }
    (actions, ranges)
}

/// Whether [`train_options`] lists anything (an action or a range), found without listing.
pub(super) fn has_train_option(state: &State) -> bool {
    let Some(r) = round(state) else { return false };
    let Some(sym) = r.current.as_deref() else {
        return false;
    };
    if r.step != OperatingStep::Trains {
        return false;
    }
    let Some(corp) = state.corporation(sym) else {
        return false;
    };
    let owned = state.operations.trains.get(sym).map_or(0, Vec::len);
    if owned as u32 >= train_limit(state, sym) {
        return false;
    }
    // The next depot train, without naming it.
    let depot = data::ruleset(&state.options).trains.iter().find_map(|t| {
        let sold = state
            .operations
            .depot_sold
            .get(&t.name)
            .copied()
            .unwrap_or(0);
        (sold < t.count).then_some(t.price)
    });
    depot.is_some_and(|price| price <= corp.cash)
        || state
            .operations
            .pool_trains
            .iter()
            .any(|id| train_price(state, id) <= corp.cash)
        || (corp.cash >= 1
            && state
                .operations
                .trains
                .iter()
                .any(|(other, trains)| other != sym && !trains.is_empty()))
}

/// Whether the operating corporation must buy a train before passing (1841 §9.6: no train
/// and a route available, while the obligation lasts: [`train_obligation_lasts`]); `board`
/// shows the state.
pub(super) fn must_buy_train_with(state: &State, board: &track::LazyBoard, sym: &str) -> bool {
    // (The route search last: the cheaper tests decide most cases.)
    !round(state).is_some_and(|r| r.train_obligation_released)
        && train_count(state, sym) == 0
        && train_obligation_lasts(state)
        && route_available_with(state, board, sym)
}

/// Whether all of the last train type (the seven 8-trains, 1841 §10) have left the depot.
pub fn last_trains_sold(state: &State) -> bool {
    data::ruleset(&state.options)
        .trains
        .last()
        .is_some_and(|t| {
            state
                .operations
                .depot_sold
                .get(&t.name)
                .copied()
                .unwrap_or(0)
                >= t.count
        })
}

/// Whether trainless corporations still have to buy a train (1841 §9.6): while the depot or
/// the pool holds one (18xx `must_buy_train?`); with `no_train_obligation_after_last_8_train`
/// (FAQ-Q20: "once all of them are sold, companies no longer have to buy a train") not once
/// all seven 8-trains are sold, even if the pool holds a discarded train.
pub fn train_obligation_lasts(state: &State) -> bool {
    if state.options.no_train_obligation_after_last_8_train() && last_trains_sold(state) {
        return false;
    }
    depot_train(state).is_some() || !state.operations.pool_trains.is_empty()
}

/// Buys a train (1841 §9.6); the first train of a type starts its phase and rusts older
/// trains (1841 §10).
pub(super) fn buy_train(
    state: &mut State,
    sym: &str,
    train: &str,
    from: &str,
    price: i64,
    events: &mut Vec<Event>,
) {
    let mut phase_changed = false;
    match from {
        "depot" => {
            let t = train_type(train).to_string();
            let first = state.operations.depot_sold.get(&t).copied().unwrap_or(0) == 0;
            *state.operations.depot_sold.entry(t.clone()).or_insert(0) += 1;
            state.bank_cash += price;
            if first {
                first_train(state, &t, events);
                phase_changed = true;
            }
        }
        "pool" => {
            state.operations.pool_trains.retain(|x| x != train);
            state.bank_cash += price;
        }
        seller => {
            if let Some(list) = state.operations.trains.get_mut(seller) {
                list.retain(|x| x != train);
            }
            if let Some(c) = state.corporation_mut(seller) {
                c.cash += price;
            }
        }
    }
    if let Some(c) = state.corporation_mut(sym) {
        c.cash -= price;
    }
    state
        .operations
        .trains
        .entry(sym.to_string())
        .or_default()
        .push(train.to_string());
    state.operations.trains.retain(|_, v| !v.is_empty());
    if let Some(r) = round_mut(state) {
        r.bought_train = true;
    }
    events.push(Event::TrainBought {
        corporation: sym.to_string(),
        train: train.to_string(),
        from: from.to_string(),
        price,
    });
    // 1841 §9.6: the limits drop with a new phase, the buyer's new train included (a
    // corporation at the new limit that buys the first train of the phase discards one, as
    // 18xx.games' `DiscardTrain` step after the purchase). With the first 4-train's events
    // queued, `events::resume` checks once they are over.
    if phase_changed && round(state).is_none_or(|r| r.queued_events.is_empty()) {
        mark_crowded(state, events);
    }
}

/// First purchase of train type `t` (1841 §10): phase change and rusting.
pub(super) fn first_train(state: &mut State, t: &str, events: &mut Vec<Event>) {
    let rules = data::ruleset(&state.options);
    if let Some(p) = rules
        .phases
        .iter()
        .find(|p| p.starts_with_first_train.as_deref() == Some(t))
    {
        state.phase = p.name.clone();
        events.push(Event::PhaseChanged {
            phase: p.name.clone(),
        });
    }
    let rusting: Vec<String> = rules
        .trains
        .iter()
        .filter(|x| x.rusted_by_first_purchase_of.as_deref() == Some(t))
        .map(|x| x.name.clone())
        .collect();
    rust(state, &rusting, events);
    // 1841 §11 (after the rusting, step 1): the concessions close now; the split and the
    // Tuscan merge are queued and run by the caller, which then checks the train limits.
    // Borders follow the phase (set 4). The lower train limits are checked by the caller once
    // the buyer holds its new train (1841 §9.6).
    events::first_train_events(state, t, events);
}

/// Removes every train of the `rusting` types, owned or in the pool (1841 §10).
fn rust(state: &mut State, rusting: &[String], events: &mut Vec<Event>) {
    if rusting.is_empty() {
        return;
    }
    let mut rusted = Vec::new();
    for list in state.operations.trains.values_mut() {
        list.retain(|id| {
            let r = rusting.iter().any(|x| x == train_type(id));
            if r {
                rusted.push(id.clone());
            }
            !r
        });
    }
    state.operations.pool_trains.retain(|id| {
        let r = rusting.iter().any(|x| x == train_type(id));
        if r {
            rusted.push(id.clone());
        }
        !r
    });
    state.operations.trains.retain(|_, v| !v.is_empty());
    if !rusted.is_empty() {
        state.operations.rusted.extend(rusted.iter().cloned());
        events.push(Event::TrainsRusted { trains: rusted });
    }
}
