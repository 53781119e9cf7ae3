//! The Ferdinandea split (1841 §12.4, 18xx `ferd_secession`): at the first 4-train IRSFF
//! dissolves into SB and SFL (Version 1: SFV and SFL) unless IRSFF was never started or some
//! corporation's track connects IRSFF's Milano and Venezia cities.
//!
//! At once ([`begin`]): both successors take IRSFF's place in its market stack (FAQ-C15;
//! Version 1 right of column 10: column 10 of that row); map tokens in Veneto hexes (passes
//! D14, C15 included, §17 item 17) go to SB, the others to SFL; charter tokens alternate SB,
//! SFL, …; each gets at least 2 tokens (Version 1: exactly 2); trains from best to worst
//! alternate SB, SFL; SFL gets 10% of the cash rounded down, SB the rest; certificates of
//! other corporations alternate SB, SFL by descending value. IRSFF closes; if it had operated
//! in this round (or bought the 4-train) SB and SFL wait for the next one (FAQ-Q24).
//!
//! Then, in order ([`SplitStage`]): the presidencies (IRSFF's president takes both with 40% or
//! more, else chooses one — a frozen president through the split's decider, as 18xx — the
//! other goes to the next holder with 20%, or the pool: frozen; with IRSFF's president's
//! certificate in the pool both go to the pool, §17 item 9); every
//! pair of IRSFF shares → one SB and one SFL share; each odd share → SB or SFL at the
//! holder's choice (a corporation's: its controller's; the pool's: IRSFF's president; a
//! corporation nobody controls: SB while available); rounds
//! of optional purchases of one IPO share each, SB then SFL, repeated while the successor's
//! president asks for it and someone can buy; Version 2: SB then SFL may buy tokens at L.50
//! up to 5. An IRSFF unit that cannot be exchanged because the successors' shares are sold out
//! (possible only in Version 1) is lost (18xx), or, with `ferdinandea_unexchanged_payout`
//! (FAQ-R3), paid at IRSFF's market price at the split by the bank ([`pay_unexchanged`]).
//!
//! This module holds the stages as a whole: whether the split happens, the decision each
//! stage waits for, a decision applied and the split run on to the next one. The rest, one
//! module each: [`dissolution`] (what happens at once), [`exchange`] (presidencies, pairs,
//! odd shares) and [`purchases`] (the optional share and token purchases).

use super::*;
use crate::g1841::corporation::{
    holder_cash, holder_order, may_hold_more, ranked_holders, swap_presidency,
};
use crate::g1841::state::{Split, SplitStage};

mod dissolution;
mod exchange;
mod purchases;

pub(super) use dissolution::begin;
use exchange::{
    assign_presidencies, exchange_pairs, exchange_single, pay_unexchanged, single_decider,
    split_decider,
};
pub use purchases::anyone_can_buy;
use purchases::{
    ask_repeat, available, buy, buy_tokens, can_buy, next_tokens, start_round, token_counts,
};

fn successors(state: &State) -> Vec<String> {
    data::ruleset(&state.options)
        .ferdinandea_split
        .successors
        .clone()
}

fn from(state: &State) -> String {
    data::ruleset(&state.options).ferdinandea_split.from.clone()
}

fn store(state: &mut State, s: Split) {
    set_event(state, Some(CorporateEvent::Split(s)));
}

/// Whether one corporation's track connects IRSFF's Milano and Venezia cities (1841 §12.4;
/// 18xx: any corporation's graph from any of its tokens, pass tokens included, borders
/// ignored; §17 item 11). Each token is traced on its own, so IRSFF's two homes do not count
/// as connected merely by both being IRSFF's.
pub fn milano_venezia_connected(state: &State) -> bool {
    let irsff = from(state);
    let Some(c) = state.corporation(&irsff) else {
        return false;
    };
    let target = |hex: &str| -> Option<(String, usize)> {
        let v = track::hex_view(state, hex)?;
        let city = c.tokens.iter().find(|t| t.hex == hex).map_or(0, |t| t.city);
        Some((hex.to_string(), track::city_node(v.nodes, city)?))
    };
    let (Some(milano), Some(venezia)) = (target("F8"), target("F16")) else {
        return false;
    };
    for corp in state.corporations.iter().filter(|c| c.started()) {
        for t in &corp.tokens {
            let Some(v) = track::hex_view(state, &t.hex) else {
                continue;
            };
            let Some(node) = track::city_node(v.nodes, t.city) else {
                continue;
            };
            let reach = track::reach(state, &corp.sym, &[(t.hex.clone(), node)], None);
            if reach.contains(&milano.0, milano.1) && reach.contains(&venezia.0, venezia.1) {
                return true;
            }
        }
    }
    false
}

fn exchanged(
    state: &State,
    holder: &ShareOwner,
    corporation: &str,
    percent: u32,
    president: bool,
    events: &mut Vec<Event>,
) {
    let _ = state;
    events.push(Event::SharesExchanged {
        holder: holder.clone(),
        corporation: corporation.to_string(),
        percent,
        president,
    });
}

/// The decision the split waits for (see [`SplitStage`]).
pub(super) fn decision(state: &State, split: &Split) -> Option<Decision> {
    let succ = successors(state);
    match split.stage {
        // A frozen president's choice is the split's decider's (18xx `secession_start`: the
        // question goes to `@secession_decider` when IRSFF has no player at the top).
        SplitStage::Presidency => Some(Decision {
            seat: split_decider(state, split)?,
            actions: succ
                .iter()
                .map(|s| Action::ChooseSplitPresidency {
                    corporation: s.clone(),
                })
                .collect(),
        }),
        SplitStage::SingleShares => {
            let h = split.holders.get(split.next as usize)?;
            Some(Decision {
                seat: single_decider(state, split, h)?,
                actions: available(state)
                    .into_iter()
                    .map(|s| Action::ExchangeSplitShare { corporation: s })
                    .collect(),
            })
        }
        SplitStage::Purchases => {
            let h = split.holders.get(split.next as usize)?;
            let unit = state.corporation(&split.corporation)?.unit_percent();
            Some(Decision {
                seat: acting_seat(state, h)?,
                actions: vec![
                    Action::BuyShares {
                        corporation: split.corporation.clone(),
                        from_pool: false,
                        percent: unit,
                    },
                    Action::Pass,
                ],
            })
        }
        SplitStage::RepeatRound => Some(Decision {
            seat: controller(state, &split.corporation)?,
            actions: vec![
                Action::RepeatPurchaseRound { repeat: true },
                Action::RepeatPurchaseRound { repeat: false },
            ],
        }),
        SplitStage::Tokens => Some(Decision {
            seat: controller(state, &split.corporation)?,
            actions: token_counts(state, &split.corporation)
                .into_iter()
                .map(|count| Action::BuyTokens { count })
                .collect(),
        }),
    }
}

/// Applies a listed decision.
pub(super) fn apply(state: &mut State, mut split: Split, action: &Action, events: &mut Vec<Event>) {
    match (split.stage, action) {
        (SplitStage::Presidency, Action::ChooseSplitPresidency { corporation }) => {
            assign_presidencies(state, &mut split, corporation, events);
            exchange_pairs(state, &mut split, events);
        }
        (SplitStage::SingleShares, Action::ExchangeSplitShare { corporation }) => {
            let i = split.next as usize;
            if let Some(h) = split.holders.get(i).cloned() {
                exchange_single(state, &mut split, i, &h, corporation, events);
            }
            split.next += 1;
        }
        (SplitStage::Purchases, Action::BuyShares { .. }) => {
            let i = split.next as usize;
            if let Some(h) = split.holders.get(i).cloned() {
                buy(state, &split.corporation, &h, events);
                split.bought_this_round = true;
            }
            split.next += 1;
        }
        (SplitStage::Purchases, Action::Pass) => split.next += 1,
        (SplitStage::RepeatRound, Action::RepeatPurchaseRound { repeat }) => {
            if *repeat {
                let sym = split.corporation.clone();
                start_round(state, &mut split, &sym);
            } else {
                split.purchases_closed.push(split.corporation.clone());
                let after = split.corporation.clone();
                ask_repeat(state, &mut split, Some(&after));
            }
        }
        (SplitStage::Tokens, Action::BuyTokens { count }) => {
            buy_tokens(state, &split.corporation, *count, events);
            next_tokens(state, &mut split);
        }
        _ => {}
    }
    store(state, split);
}

/// Runs the split until a decision is needed; true when it is over.
pub(super) fn advance(state: &mut State, mut split: Split, events: &mut Vec<Event>) -> bool {
    let succ = successors(state);
    for _ in 0..256 {
        match split.stage {
            SplitStage::Presidency => {
                if decision(state, &split).is_some() {
                    store(state, split);
                    return false;
                }
                let first = succ.first().cloned().unwrap_or_default();
                assign_presidencies(state, &mut split, &first, events);
                exchange_pairs(state, &mut split, events);
            }
            SplitStage::SingleShares => {
                let i = split.next as usize;
                let Some(h) = split.holders.get(i).cloned() else {
                    let first = succ.first().cloned().unwrap_or_default();
                    start_round(state, &mut split, &first);
                    continue;
                };
                if split.units.get(i).copied().unwrap_or(0) == 0 {
                    split.next += 1;
                    continue;
                }
                let options = available(state);
                match (options.len(), single_decider(state, &split, &h)) {
                    (0, _) => {
                        // Both successors sold out: the share is lost (18xx), or paid at
                        // market value (FAQ-R3, `ferdinandea_unexchanged_payout`).
                        let units = split.units.get(i).copied().unwrap_or(0);
                        pay_unexchanged(state, &split, &h, units, events);
                        if let Some(u) = split.units.get_mut(i) {
                            *u = 0;
                        }
                        split.next += 1;
                    }
                    (1, _) | (_, None) => {
                        let to = options[0].clone();
                        exchange_single(state, &mut split, i, &h, &to, events);
                        split.next += 1;
                    }
                    _ => {
                        store(state, split);
                        return false;
                    }
                }
            }
            SplitStage::Purchases => {
                let i = split.next as usize;
                match split.holders.get(i).cloned() {
                    Some(h) => {
                        if can_buy(state, &split.corporation, &h) {
                            store(state, split);
                            return false;
                        }
                        split.next += 1;
                    }
                    None => {
                        let sym = split.corporation.clone();
                        if !split.first_rounds_done {
                            match succ.iter().position(|s| *s == sym) {
                                Some(0) if succ.len() > 1 => {
                                    let second = succ[1].clone();
                                    start_round(state, &mut split, &second);
                                }
                                _ => {
                                    split.first_rounds_done = true;
                                    ask_repeat(state, &mut split, None);
                                }
                            }
                        } else {
                            if !split.bought_this_round {
                                split.purchases_closed.push(sym.clone());
                            }
                            ask_repeat(state, &mut split, Some(&sym));
                        }
                    }
                }
            }
            SplitStage::RepeatRound => {
                store(state, split);
                return false;
            }
            SplitStage::Tokens => {
                if split.corporation.is_empty() {
                    set_event(state, None);
                    return true;
                }
                if token_counts(state, &split.corporation).is_empty() {
                    next_tokens(state, &mut split);
                    continue;
                }
                store(state, split);
                return false;
            }
        }
    }
    store(state, split);
    false
}
