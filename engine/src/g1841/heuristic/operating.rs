//! The heuristic player in the operating round (1841 §8–§10, §14) and in the corporate
//! events (§11, §12).

use rand_chacha::ChaCha8Rng;

use super::{
    TUNING, any, below, chance, needs_train, next_train_price, stock, train_need, train_rank,
    train_shortfall, trains, unit,
};
use crate::Seat;
use crate::g1841::action::{Action, Event, OddShareChoice};
use crate::g1841::state::{OperatingStep, Round, State};
use crate::g1841::{G1841, data, flow, map, operating_round};

/// How often [`super::novices`] withhold when the treasury lacks its train (1841 §9.4).
const NOVICE_WITHHOLD_SHORT: f64 = 0.7;

/// Tile lays tried (applied to a copy of the state) before one is chosen.
const LAYS_SAMPLED: usize = 6;

/// Chooses in the operating round; `None` leaves the choice to the caller's fallback (a pass,
/// else a random listed action).
pub(super) fn choose(
    state: &State,
    seat: Seat,
    legal: &[Action],
    rng: &mut ChaCha8Rng,
) -> Option<Action> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    // Discards come before an event's decision (1841 §9.6, `operating_round::to_act`).
    if !r.crowded.is_empty() {
        return discard(legal);
    }
    if r.event.is_some() {
        return event(state, seat, legal, rng);
    }
    let sym = r.current.clone()?;
    if let Some(start) = &r.start {
        return stock::start_step(state, seat, &start.corporation, legal, rng);
    }
    let corp = state.corporation(&sym)?;
    match r.step {
        OperatingStep::Track => track(state, seat, &sym, legal, rng),
        OperatingStep::Token => {
            let tokens: Vec<&Action> = legal
                .iter()
                .filter(|a| matches!(a, Action::PlaceToken { .. }))
                .collect();
            if chance(rng, 0.9) {
                any(&tokens, rng).cloned()
            } else {
                None
            }
        }
        OperatingStep::Routes => legal
            .iter()
            .find(|a| matches!(a, Action::RunRoutes { .. }))
            .cloned(),
        OperatingStep::Dividend => {
            // 1841 §9.4: withholding puts the whole revenue in the treasury, which pays the
            // train first in an emergency (§14); a president short of the train it plans for
            // withholds ([`Tuning::withhold_short`]).
            let short = train_shortfall(state, corp) > 0;
            let p = match (short, super::novices(rng)) {
                (false, _) => TUNING.withhold,
                (true, false) => TUNING.withhold_short,
                (true, true) => NOVICE_WITHHOLD_SHORT,
            };
            let withhold = chance(rng, p);
            Some(Action::Dividend { payout: !withhold })
        }
        OperatingStep::BuyToken => buy_token(state, seat, &sym, rng),
        OperatingStep::Trains => train_step(state, seat, &sym, legal, rng),
        OperatingStep::Shares => share_step(state, &sym, legal, rng),
        OperatingStep::Merge => {
            let merges: Vec<&Action> = legal
                .iter()
                .filter(|a| matches!(a, Action::ProposeMerger { .. }))
                .collect();
            // A corporation short of the train it plans for merges, most of the time, with a
            // partner that runs trains: the new corporation gets both treasuries and all the
            // trains (1841 §12.1), the way out of an emergency (§14) a president sees coming.
            let rescuers: Vec<&Action> = merges
                .iter()
                .copied()
                .filter(|a| {
                    matches!(a, Action::ProposeMerger { partner } if trains(state, partner) > 0)
                })
                .collect();
            if !rescuers.is_empty()
                && !super::novices(rng)
                && train_shortfall(state, corp) > 0
                && chance(rng, TUNING.merge_short)
            {
                return any(&rescuers, rng).cloned();
            }
            if chance(rng, TUNING.merge) {
                any(&merges, rng).cloned()
            } else {
                None
            }
        }
        OperatingStep::Transform => {
            let targets: Vec<&Action> = legal
                .iter()
                .filter(|a| matches!(a, Action::Transform { .. }))
                .collect();
            if chance(rng, TUNING.transform) {
                any(&targets, rng).cloned()
            } else {
                None
            }
        }
    }
}

/// The track step (1841 §9.1). Every listed lay gets a quick score: +25 for an upgrade, +10
/// on a named location, and ([`OFFBOARD_PULL`] + 2 per group already connected) × (8 −
/// hexes to the nearest off-board group not yet connected) (1841 §13), plus noise; the
/// [`LAYS_SAMPLED`] best are tried on a copy of the state, which adds −cost and +150 per
/// group connected. The best is laid if the
/// treasury keeps the price of a needed train.
fn track(
    state: &State,
    seat: Seat,
    sym: &str,
    legal: &[Action],
    rng: &mut ChaCha8Rng,
) -> Option<Action> {
    let corp = state.corporation(sym)?;
    // A corporation with trains keeps the price of the train it plans for (a lay costing
    // nothing is always fine). One without a train may get a route from the lay and with it
    // the duty to buy the cheapest bank train at once (1841 §9.6), which its president pays
    // in an emergency (§14): it lays while the treasury and the president's cash above his
    // reserve for his other corporations pay that train.
    let keep = train_need(state, corp).unwrap_or(0);
    let trainless = trains(state, sym) == 0;
    let backing = if trainless {
        let own = train_shortfall(state, corp);
        state.player(seat).map_or(0, |p| p.cash) - (super::reserve(state, seat, rng) - own)
    } else {
        0
    };
    let affordable = |cost: i64| {
        if trainless {
            corp.cash - cost + backing >= super::cheapest_train_price(state)
        } else {
            cost == 0 || corp.cash - cost >= keep
        }
    };
    let board = map::map(&state.options);
    let connected = state.game_end.connected_offboards.len();
    let distance = offboard_distances(state);
    // The pull grows as groups get connected (the end comes in sight).
    let pull = OFFBOARD_PULL + 2.0 * connected as f64;
    let mut scored: Vec<(f64, &Action)> = legal
        .iter()
        .filter_map(|a| {
            let Action::LayTile { hex, .. } = a else {
                return None;
            };
            let mut score = unit(rng) * 15.0;
            if state.operations.tiles.contains_key(hex) {
                score += 25.0;
            }
            if board
                .hexes
                .get(hex)
                .and_then(|h| h.location.as_deref())
                .is_some_and(|l| !l.is_empty())
            {
                score += 10.0;
            }
            if let Some(d) = board.hex_index(hex).and_then(|i| distance.get(i).copied()) {
                score += pull * f64::from(8u32.saturating_sub(d));
            }
            Some((score, a))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    // A corporation without a route earns nothing and still has to buy trains once someone's
    // track gives it one (1841 §9.6): it tries every lay and prefers one that gives it a
    // route now.
    let routeless = !operating_round::route_available(state, sym);
    let sampled = if routeless {
        scored.len()
    } else {
        LAYS_SAMPLED
    };
    let mut best: Option<(f64, &Action)> = None;
    for (pre, a) in scored.into_iter().take(sampled) {
        let mut copy = state.clone();
        let Ok(events) = flow::apply(&mut copy, seat, a) else {
            continue;
        };
        let cost: i64 = events
            .iter()
            .map(|e| match e {
                Event::TileLaid { cost, .. } => *cost,
                _ => 0,
            })
            .sum();
        if !affordable(cost) {
            continue;
        }
        let route = if routeless && operating_round::route_available(&copy, sym) {
            ROUTE_BONUS
        } else {
            0.0
        };
        let score = pre - cost as f64
            + route
            + 150.0
                * copy
                    .game_end
                    .connected_offboards
                    .len()
                    .saturating_sub(connected) as f64;
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, a));
        }
    }
    best.map(|(_, a)| a.clone())
}

/// Score of a lay that gives a corporation without a route its first (1841 §9.3, §9.6).
const ROUTE_BONUS: f64 = 200.0;

/// Weight of a lay's nearness to an off-board group not yet connected (per hex closer).
const OFFBOARD_PULL: f64 = 6.0;

/// For every hex (map index), the number of hexes to the nearest hex of an off-board group
/// not yet connected (1841 §13), by breadth-first search over neighbours; `u32::MAX` when
/// every group is connected.
fn offboard_distances(state: &State) -> Vec<u32> {
    let m = map::map(&state.options);
    let mut dist = vec![u32::MAX; m.hex_ids.len()];
    let mut queue = std::collections::VecDeque::new();
    for (name, group) in &data::ruleset(&state.options).game_end.offboard_groups {
        if state.game_end.connected_offboards.contains(name) {
            continue;
        }
        for h in &group.hexes_with_track {
            if let Some(i) = m.hex_index(h)
                && dist[i] != 0
            {
                dist[i] = 0;
                queue.push_back(i);
            }
        }
    }
    while let Some(i) = queue.pop_front() {
        for nb in m.neighbor_index[i].iter().flatten() {
            if dist[*nb] == u32::MAX {
                dist[*nb] = dist[i] + 1;
                queue.push_back(*nb);
            }
        }
    }
    dist
}

/// Buying another corporation's token (1841 §9.5, rule 4.4) with probability
/// [`crate::g1841::heuristic::Tuning::buy_token`], at L.1–L.30, while the treasury keeps the
/// price of the train it plans for ([`train_need`]; else half the next depot train's).
fn buy_token(state: &State, seat: Seat, sym: &str, rng: &mut ChaCha8Rng) -> Option<Action> {
    let corp = state.corporation(sym)?;
    let cash = corp.cash;
    let keep = train_need(state, corp).unwrap_or(next_train_price(state) / 2);
    let ranges = G1841::legal(state, seat).token_purchases;
    if ranges.is_empty() || !chance(rng, TUNING.buy_token) {
        return None;
    }
    let r = &ranges[below(rng, ranges.len())];
    let price = (r.min_price + below(rng, 30) as i64).min(r.max_price);
    if price < r.min_price || cash - price < keep {
        return None;
    }
    Some(Action::BuyToken {
        hex: r.hex.clone(),
        city: r.city,
        seller: r.seller.clone(),
        price,
    })
}

/// The train step (1841 §9.6) and emergency money raising (§14).
fn train_step(
    state: &State,
    seat: Seat,
    sym: &str,
    legal: &[Action],
    rng: &mut ChaCha8Rng,
) -> Option<Action> {
    let corp = state.corporation(sym)?;
    // Depot and pool trains (the listing's trains of other corporations stand for a range at
    // L.1 and are chosen apart, below).
    let listed: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::BuyTrain { from, .. } if from == "depot" || from == "pool"))
        .collect();
    let cheapest = listed
        .iter()
        .min_by_key(|a| match a {
            Action::BuyTrain { price, .. } => *price,
            _ => i64::MAX,
        })
        .map(|a| (*a).clone());
    let novices = super::novices(rng);
    if operating_round::in_emergency(state) {
        // 1841 §9.6, §14: before selling anything, a president takes a train another of his
        // corporations can spare, at L.1.
        if !novices && let Some(buy) = sister_train(state, seat, sym) {
            return Some(buy);
        }
        // 1841 §14: bankruptcy once it is allowed (selling on would not pay the train),
        // else buy as soon as the funds suffice, else sell.
        if legal
            .iter()
            .any(|a| matches!(a, Action::DeclareBankruptcy { .. }))
        {
            return Some(Action::DeclareBankruptcy {
                loan: !chance(rng, TUNING.resign),
            });
        }
        if let Some(buy) = cheapest {
            return Some(buy);
        }
        let sales: Vec<&Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::EmergencySell { .. }))
            .collect();
        return any(&sales, rng).cloned();
    }
    let must = !legal.iter().any(|a| matches!(a, Action::Pass));
    let owned = trains(state, sym);
    if must {
        if let Some(buy) = cheapest {
            return Some(buy);
        }
        // Only other corporations' trains: the one its own controller sells, at the least.
        let ranges = G1841::legal(state, seat).train_purchases;
        let r = ranges.first()?;
        return Some(Action::BuyTrain {
            train: r.train.clone(),
            from: r.from.clone(),
            price: r.min_price,
        });
    }
    let want = match owned {
        0 => true,
        1 => chance(rng, TUNING.second_train),
        _ => chance(rng, TUNING.more_trains) || needs_train(state, corp),
    };
    if !want {
        return None;
    }
    // The newest affordable train from the depot or pool (the listing holds only affordable
    // ones), the depot's first; a further train only when it leaves the treasury no shorter
    // of the train it plans for ([`train_shortfall`]: a rusting train bought with the money
    // of its replacement brings the emergency of 1841 §14 closer).
    let best = listed
        .iter()
        .filter(|a| matches!(a, Action::BuyTrain { price, .. } if *price <= corp.cash))
        .max_by_key(|a| match a {
            Action::BuyTrain { train, from, .. } => (train_rank(train), from == "depot"),
            _ => (0, false),
        });
    if let Some(b) = best {
        if owned == 0 || super::novices(rng) || !worsens_plan(state, seat, sym, b) {
            return Some((*b).clone());
        }
        return None;
    }
    // Without a train and the money for one, a train another of its president's corporations
    // can spare, at L.1 (1841 §9.6); novices now and then buy one from another corporation
    // of their own at the price of a new one when the treasury has it.
    if owned == 0 && !novices {
        return sister_train(state, seat, sym);
    }
    if owned == 0 && chance(rng, 0.1) {
        let ranges = G1841::legal(state, seat).train_purchases;
        let mine: Vec<_> = ranges
            .iter()
            .filter(|r| crate::g1841::corporation::controller(state, &r.from) == Some(seat))
            .collect();
        if let Some(r) = mine.first() {
            return Some(Action::BuyTrain {
                train: r.train.clone(),
                from: r.from.clone(),
                price: r.min_price.max(r.max_price / 2),
            });
        }
    }
    None
}

/// A train that another corporation controlled by `seat` can spare (it keeps another train),
/// the newest, for `sym` at the least price the listing allows (1841 §9.6: any price from
/// L.1 between corporations, paid from the buyer's treasury).
fn sister_train(state: &State, seat: Seat, sym: &str) -> Option<Action> {
    G1841::legal(state, seat)
        .train_purchases
        .into_iter()
        .filter(|r| {
            r.from != sym
                && crate::g1841::corporation::controller(state, &r.from) == Some(seat)
                && trains(state, &r.from) >= 2
        })
        .max_by_key(|r| train_rank(&r.train))
        .map(|r| Action::BuyTrain {
            train: r.train,
            from: r.from,
            price: r.min_price,
        })
}

/// Whether buying `buy` leaves `sym` shorter of the train it plans for than it is now
/// ([`train_shortfall`], played on a copy of the state).
fn worsens_plan(state: &State, seat: Seat, sym: &str, buy: &Action) -> bool {
    let mut copy = state.clone();
    if flow::apply(&mut copy, seat, buy).is_err() {
        return true;
    }
    let short = |s: &State| s.corporation(sym).map_or(0, |c| train_shortfall(s, c));
    short(&copy) > short(state)
}

/// The corporate share step (1841 §9.7): sells when it must; buys a share of a corporation
/// with trains, or starts a corporation, now and then, while a train stays affordable.
fn share_step(state: &State, sym: &str, legal: &[Action], rng: &mut ChaCha8Rng) -> Option<Action> {
    let corp = state.corporation(sym)?;
    let must = !legal.iter().any(|a| matches!(a, Action::Pass));
    let sells: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::SellShares { .. }))
        .collect();
    if must {
        return any(&sells, rng).cloned();
    }
    let spare = corp.cash - next_train_price(state);
    if chance(rng, TUNING.corporate_start) {
        let starts: Vec<&Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::Par { price, .. } if 2 * price <= spare))
            .collect();
        if let Some(a) = any(&starts, rng) {
            return Some(a.clone());
        }
    }
    if chance(rng, TUNING.corporate_buy) {
        let buys: Vec<&Action> = legal
            .iter()
            .filter(|a| match a {
                Action::BuyShares {
                    corporation,
                    percent,
                    ..
                } => state.corporation(corporation).is_some_and(|c| {
                    trains(state, &c.sym) > 0
                        && stock::cost(c, *percent).is_some_and(|k| k <= spare)
                }),
                _ => false,
            })
            .collect();
        return any(&buys, rng).cloned();
    }
    None
}

/// Discards the oldest train (1841 §9.6).
fn discard(legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .filter(|a| matches!(a, Action::DiscardTrain { .. }))
        .min_by_key(|a| match a {
            Action::DiscardTrain { train, .. } => train_rank(train),
            _ => u32::MAX,
        })
        .cloned()
}

/// A decision of a corporate event (1841 §11, §12): the presidency taken when offered (¾ of
/// the time), the higher merger price, odd shares completed half the time, purchases half
/// the time, tokens and a player's choice of successor at random; a corporation's odd IRSFF
/// share goes to the first successor (SB, the one with IRSFF's cash, 1841 §12.4).
fn event(state: &State, seat: Seat, legal: &[Action], rng: &mut ChaCha8Rng) -> Option<Action> {
    let first = legal.first()?;
    match first {
        Action::ExchangeSplitShare { .. } if split_holder_is_corporation(state) => {
            Some(first.clone())
        }
        Action::ClaimPresidency { .. } => Some(Action::ClaimPresidency {
            claim: chance(rng, 0.75)
                && legal
                    .iter()
                    .any(|a| matches!(a, Action::ClaimPresidency { claim: true })),
        })
        .filter(|a| legal.contains(a)),
        Action::ChooseMergerPrice { .. } => legal
            .iter()
            .max_by_key(|a| match a {
                Action::ChooseMergerPrice { price } => *price,
                _ => 0,
            })
            .cloned(),
        Action::ExchangeOddShare { .. } => {
            let full = Action::ExchangeOddShare {
                choice: OddShareChoice::FullShare,
            };
            if legal.contains(&full) && chance(rng, 0.5) {
                Some(full)
            } else {
                legal
                    .iter()
                    .find(|a| {
                        matches!(a, Action::ExchangeOddShare { choice } if *choice == OddShareChoice::Cash)
                    })
                    .cloned()
            }
        }
        Action::RepeatPurchaseRound { .. } => Some(Action::RepeatPurchaseRound {
            repeat: chance(rng, 0.2),
        })
        .filter(|a| legal.contains(a)),
        Action::BuyTokens { .. } => {
            let counts = of(legal, |a| matches!(a, Action::BuyTokens { .. }));
            // The smallest count, or one more a third of the time.
            let i = usize::from(chance(rng, 0.33)).min(counts.len().saturating_sub(1));
            counts.get(i).map(|a| (*a).clone())
        }
        _ => {
            let buys = of(legal, |a| matches!(a, Action::BuyShares { .. }));
            if !buys.is_empty() {
                let cash = state.player(seat).map_or(0, |p| p.cash);
                if cash > super::reserve(state, seat, rng) + 100 && chance(rng, 0.5) {
                    return any(&buys, rng).cloned();
                }
                return legal.iter().find(|a| matches!(a, Action::Pass)).cloned();
            }
            let choices: Vec<&Action> = legal
                .iter()
                .filter(|a| !matches!(a, Action::Pass))
                .collect();
            any(&choices, rng).cloned()
        }
    }
}

/// Whether the Ferdinandea split asks now about a corporation's odd IRSFF share (1841 §12.4).
fn split_holder_is_corporation(state: &State) -> bool {
    let Round::OperatingRound(r) = &state.round else {
        return false;
    };
    matches!(r.event.as_deref(),
        Some(crate::g1841::state::CorporateEvent::Split(s))
            if s.stage == crate::g1841::state::SplitStage::SingleShares
                && matches!(s.holders.get(s.next as usize),
                    Some(crate::g1841::state::ShareOwner::Corporation(_))))
}

/// The listed actions `f` accepts.
fn of(legal: &[Action], f: fn(&Action) -> bool) -> Vec<&Action> {
    legal.iter().filter(|a| f(a)).collect()
}
