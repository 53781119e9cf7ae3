//! Buying trains, train limits, phases and rusting (1841 §9.6, §10).

use super::*;

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

/// Train purchases possible now: fixed-price depot/pool actions and ranges for trains of
/// other corporations (1841 §9.6).
pub(super) fn train_options(state: &State) -> (Vec<Action>, Vec<TrainPurchaseRange>) {
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
    if trains_of(state, &sym).len() as u32 >= train_limit(state, &sym) {
        return (actions, ranges);
    }
    if let Some((id, price)) = depot_train(state) {
        if price <= corp.cash {
            actions.push(Action::BuyTrain {
                train: id,
                from: "depot".into(),
                price,
            });
        }
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
            if *other == sym {
                continue;
            }
            for id in trains {
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

/// Whether the operating corporation must buy a train before passing (1841 §9.6: no train
/// and a route available).
pub(super) fn must_buy_train(state: &State, sym: &str) -> bool {
    trains_of(state, sym).is_empty() && route_available(state, sym)
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
    match from {
        "depot" => {
            let t = train_type(train).to_string();
            let first = state.operations.depot_sold.get(&t).copied().unwrap_or(0) == 0;
            *state.operations.depot_sold.entry(t.clone()).or_insert(0) += 1;
            state.bank_cash += price;
            if first {
                first_train(state, &t, events);
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
            if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == seller) {
                c.cash += price;
            }
        }
    }
    if let Some(c) = state.corporations.iter_mut().find(|c| c.sym == sym) {
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
    // 1841 §11 (after the rusting, step 1): the concessions close now; the split and the
    // Tuscan merge are queued and run by the caller. Borders follow the phase (set 4).
    // Excess trains over the phase's lower train limit are discarded by the lead's §9.6 code.
    events::first_train_events(state, t, events);
}
