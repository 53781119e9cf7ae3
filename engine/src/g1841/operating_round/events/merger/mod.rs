//! Mergers (1841 §12.1) and the Tuscan merge (§12.3).
//!
//! A voluntary merger: in its merge step the operating corporation proposes a partner
//! ([`partners`]); the new price follows (§12.1: majors by the sum, minors by the average;
//! both majors above L.250 → its president chooses one of their prices; with
//! `merger_price_cap`, FAQ-T, always the table on the sum, at most L.242); its president
//! chooses the unstarted non-historical major to form. Then:
//! 1. **Presidency** (majors): holders of the two old corporations in order (from the
//!    initiator's president round the table, each player followed by the corporations he
//!    controls, then the pool, then frozen corporations): first those with a pair (18xx's
//!    pass 1), then those with an odd share, 10% or 30% (pass 2). A holder of 40% or more
//!    takes the new president's certificate; a player with less may claim it first, paying
//!    to the new corporation, rounded down, price × (40 − held%) ÷ 20 for his whole holding
//!    in the pairs' sweep, 1.5 × the price for his odd share in the odd sweep (keeping the
//!    new share of his pair) (FAQ-R6, 18xx: players only; with
//!    `merger_presidency_for_companies` corporations too, from their treasury). In the odd
//!    sweep a holder of 30% may instead pay for a full share for his odd one: with the share
//!    of his pair he holds 20%, and the first holder of 20% presides (§12.1, R4); declining,
//!    he takes cash for it. Nobody → the
//!    merger fails and nothing changes (`MergerFailed`; 18xx takes it back, #9404); likewise if
//!    it would put a corporation under circular control or leave the new one frozen
//!    (FAQ-R1). The Tuscan merge cannot fail: unclaimed, the certificate goes to a holder who
//!    ends the exchange with 20% of SFLi, else to the pool (SFLi frozen; FAQ-R4).
//! 2. **Assets**: cash, trains and certificates of other corporations go to the new
//!    corporation; shares of each old corporation held by the other are eliminated; the new
//!    corporation starts on the new cell. In a major merger (the Tuscan merge's last step
//!    too) this happens when the new corporation is named, before step 1, as 18xx.games does
//!    (`merger_exchange_start`): a new corporation over its train limit discards first
//!    (§9.6), decided while it has no president by the initiator's controller (the Tuscan
//!    merge's decider); a merger that then fails gives everything back (`Merger::moved`).
//! 3. **Pairs**: every two old units → one new 10% share (none left: a holder who got one
//!    takes a president's certificate still in the IPO for it, else the bank pays the price;
//!    with the presidency unclaimed after the pairs sweep, the pool's pairs taking it leave
//!    nobody to claim it: the merger fails, [`pool_takes_president`]).
//! 4. **Odd shares**: cash (half the new price from the bank) or a full share (half the new
//!    price to the new corporation), the holder's choice; only cash when no share is left or
//!    he cannot pay; the pool's odd share is discarded; frozen corporations take cash.
//! 5. **Two-city tile** (18xx `merger_tokens_start`): the old map tokens become the new
//!    corporation's, a second token in the same city is destroyed; where the two held the
//!    two different cities of one tile (yellow Torino H4, yellow Firenze), one of the two
//!    must go: the new president (else the initiator's president, 18xx `@merger_decider`)
//!    chooses which (1841 §12.1), one such tile after the other.
//! 6. **Tokens** (18xx `merger_tokens_finish`): it owns N = min(tokens of both − duplicates
//!    (same city or same tile, each counted once, FAQ-C19), 5) (at least 2; SFLi: 5); the
//!    charter may hold
//!    at most the old charters' total, so the president removes map tokens down to N and may
//!    remove more while the charter stays within that total (never the last non-pass token).
//!    SFLi (§12.3) always keeps Pisa and Firenze, and its president may remove any other
//!    token (18xx: at most all of them); the Tuscan holding keeps its map tokens and owns 4.
//!
//! Minors merge without choices: each 40% certificate becomes the new president's
//! certificate (the first in order) or two shares, each 20% share one 10% share.
//! The old corporations close (historical) or become available again (non-historical); the
//! new one does not operate again in this round, and the initiator's turn ends.
//!
//! This module holds the stages as a whole: the decision each waits for ([`decision`]), a
//! decision applied ([`apply`]), the merger run on to the next one ([`advance`]) and its end.
//! The rest, one module each: [`offer`] (partners, the proposal and whether it can succeed),
//! [`presidency`] (step 1), [`assets`] (step 2's moves and their undoing), [`exchange`]
//! (steps 2–4 executed: pairs, odd shares, minors), [`map_tokens`] (steps 5–6) and
//! [`tuscan`] (§12.3).

use super::*;
use crate::g1841::corporation::{circular_set, frozen, holder_cash, holder_order};
use crate::g1841::state::{MarketCell, Merger, MergerStage, MovedAssets, MovedCertificate};

mod assets;
mod exchange;
mod map_tokens;
mod offer;
mod presidency;
mod tuscan;

use assets::move_assets;
use exchange::{execute, odd_share, tuscan_president_to_pool};
use map_tokens::{
    auto_tokens, auto_two_city, drop_target_token, removable, remove_token, token_decider,
    two_city_choices, two_city_chooser,
};
use offer::pool_takes_president;
pub(in crate::g1841::operating_round) use offer::propose;
pub use offer::{partners, step_active, why_not};
use presidency::{
    answered_without_president, asked, begin_exchange, exchange_seat, illegal_result, in_odd_sweep,
    settle_presidency,
};
use tuscan::is_tuscan_first_step;
pub(super) use tuscan::{begin_tuscan, tuscan_last_step};

fn store(state: &mut State, m: Merger) {
    set_event(state, Some(CorporateEvent::Merger(m)));
}

fn cell_price(c: &MarketCell) -> i64 {
    market::price_at(c.row, c.col).unwrap_or(0)
}

fn new_price(m: &Merger) -> i64 {
    m.cell.as_ref().map_or(0, cell_price)
}

fn kind_of(state: &State, sym: &str) -> CorporationKind {
    state
        .corporation(sym)
        .map_or(CorporationKind::Major, |c| c.kind)
}

/// The decision the merger waits for.
pub(super) fn decision(state: &State, m: &Merger) -> Option<Decision> {
    let initiator_seat = || controller(state, &m.initiator);
    match m.stage {
        MergerStage::Price => Some(Decision {
            seat: initiator_seat()?,
            actions: m
                .price_choices
                .iter()
                .map(|c| Action::ChooseMergerPrice {
                    price: cell_price(c),
                })
                .collect(),
        }),
        MergerStage::Corporation => Some(Decision {
            seat: initiator_seat()?,
            actions: formable_majors(state)
                .into_iter()
                .map(|corporation| Action::FormCorporation { corporation })
                .collect(),
        }),
        MergerStage::Presidency => {
            let a = asked(state, m)?;
            let mut actions = Vec::new();
            if a.claim {
                actions.push(Action::ClaimPresidency { claim: true });
            }
            actions.push(Action::ClaimPresidency { claim: false });
            if a.full {
                actions.push(Action::ExchangeOddShare {
                    choice: OddShareChoice::FullShare,
                });
            }
            Some(Decision {
                seat: exchange_seat(state, m, &a.holder)?,
                actions,
            })
        }
        MergerStage::OddShares => {
            let h = m.holders.get(m.next as usize)?;
            Some(Decision {
                seat: acting_seat(state, h)?,
                actions: vec![
                    Action::ExchangeOddShare {
                        choice: OddShareChoice::Cash,
                    },
                    Action::ExchangeOddShare {
                        choice: OddShareChoice::FullShare,
                    },
                ],
            })
        }
        MergerStage::TwoCityTile => {
            let t = m.two_city.first()?;
            let seat = two_city_chooser(state, m)?;
            let actions: Vec<Action> = two_city_choices(state, m, &t.hex)
                .into_iter()
                .map(|t| Action::RemoveToken {
                    hex: t.hex,
                    city: t.city,
                })
                .collect();
            Some(Decision { seat, actions })
        }
        MergerStage::Tokens => {
            let seat = token_decider(state, m)?;
            let mut actions: Vec<Action> = removable(state, m)
                .into_iter()
                .map(|t| Action::RemoveToken {
                    hex: t.hex,
                    city: t.city,
                })
                .collect();
            if m.tokens_min_removal == 0 {
                actions.push(Action::Pass);
            }
            Some(Decision { seat, actions })
        }
    }
}

/// Applies a listed decision.
pub(super) fn apply(state: &mut State, mut m: Merger, action: &Action, events: &mut Vec<Event>) {
    match (m.stage, action) {
        (MergerStage::Price, Action::ChooseMergerPrice { price }) => {
            m.cell = m
                .price_choices
                .iter()
                .find(|c| cell_price(c) == *price)
                .copied();
            m.price_choices.clear();
            m.stage = MergerStage::Corporation;
        }
        (MergerStage::Corporation, Action::FormCorporation { corporation }) => {
            m.target = corporation.clone();
            begin_exchange(state, &mut m);
            if kind_of(state, &m.initiator) == CorporationKind::Major && !m.tuscan {
                // 18xx's `@merger_decider`: the initiator's player when the merger starts.
                let decider = controller(state, &m.initiator);
                move_assets(state, &mut m, decider);
            }
        }
        (MergerStage::Presidency, Action::ClaimPresidency { claim }) => {
            if *claim {
                let i = m.next as usize % m.holders.len().max(1);
                if in_odd_sweep(&m) {
                    answered_without_president(state, &mut m, i);
                }
                m.president = m.holders.get(i).cloned();
                m.claimed = true;
                if !settle_presidency(state, &mut m, events) {
                    return;
                }
            } else {
                // A holder of three units declining in the odd sweep takes cash for his odd
                // share (18xx: one answer, `cash`; see [`asked`]).
                if in_odd_sweep(&m)
                    && let Some(a) = asked(state, &m).filter(|a| a.units == 3)
                {
                    m.pass2.push((a.holder, OddShareChoice::Cash));
                }
                m.next += 1;
            }
        }
        (
            MergerStage::Presidency,
            Action::ExchangeOddShare {
                choice: OddShareChoice::FullShare,
            },
        ) => {
            // R4: a holder of three units pays for a full share and will hold 20% ([`asked`]).
            if let Some(a) = asked(state, &m).filter(|a| a.full) {
                m.pass2.push((a.holder, OddShareChoice::FullShare));
                if !settle_presidency(state, &mut m, events) {
                    return;
                }
            }
        }
        (MergerStage::OddShares, Action::ExchangeOddShare { choice }) => {
            let i = m.next as usize;
            if let Some(h) = m.holders.get(i).cloned() {
                odd_share(state, &mut m, i, &h, *choice, events);
            }
            m.next += 1;
        }
        (MergerStage::TwoCityTile, Action::RemoveToken { hex, city })
            if m.two_city.first().is_some_and(|t| t.hex == *hex) =>
        {
            m.two_city.remove(0);
            drop_target_token(state, &m, hex, *city, events);
        }
        (MergerStage::Tokens, Action::RemoveToken { hex, city }) => {
            remove_token(state, &mut m, hex, *city, events);
        }
        (MergerStage::Tokens, Action::Pass) => {
            m.tokens_max_removal = 0;
        }
        _ => {}
    }
    store(state, m);
}

/// The end of a merger: the token count, the old corporations off the game, the new one's
/// place in the round.
fn finish(state: &mut State, m: &Merger, events: &mut Vec<Event>) {
    let target = m.target.clone();
    if let Some(c) = corp_mut(state, &target) {
        c.tokens_total = m.token_count.max(c.tokens.len() as u32);
    }
    if is_tuscan_first_step(m) {
        // 1841 §12.3: the holding and SSFL now merge into SFLi (18xx `merger_finish` →
        // `tuscan_merge_post_merge`).
        set_event(state, None);
        let first = m.decider.unwrap_or(0);
        tuscan_last_step(state, &target, first, m.joins_round);
        return;
    }
    let _ = events;
    if let Some(r) = round_mut(state)
        && !m.joins_round
        && !r.done.contains(&target)
    {
        r.done.push(target.clone());
    }
    set_event(state, None);
}

/// Runs the merger until a decision is needed; true when it is over (done or failed).
pub(super) fn advance(state: &mut State, mut m: Merger, events: &mut Vec<Event>) -> bool {
    for _ in 0..512 {
        match m.stage {
            MergerStage::Price | MergerStage::Corporation => {
                if decision(state, &m).is_some_and(|d| !d.actions.is_empty()) {
                    store(state, m);
                    return false;
                }
                // Nobody can decide (cannot happen for an eligible initiator): give up.
                events.push(Event::MergerFailed {
                    initiator: m.initiator.clone(),
                    partner: m.partner.clone(),
                });
                set_event(state, None);
                return true;
            }
            MergerStage::Presidency => {
                if kind_of(state, &m.initiator) == CorporationKind::Minor {
                    if illegal_result(state, &m) && !m.tuscan {
                        events.push(Event::MergerFailed {
                            initiator: m.initiator.clone(),
                            partner: m.partner.clone(),
                        });
                        set_event(state, None);
                        return true;
                    }
                    execute(state, &mut m, events);
                    continue;
                }
                let len = m.holders.len();
                if m.next as usize >= 2 * len {
                    m.president = None;
                    if !settle_presidency(state, &mut m, events) {
                        return true;
                    }
                    continue;
                }
                if m.next as usize == len && pool_takes_president(state, &m) {
                    // Nobody claimed in the pairs sweep and the pool's pairs take the
                    // certificate: no single share can claim it; the merger fails (the
                    // Tuscan merge goes on, [`president_by_run_out`]).
                    m.president = None;
                    if !settle_presidency(state, &mut m, events) {
                        return true;
                    }
                    continue;
                }
                let i = m.next as usize % len.max(1);
                let u = m.units.get(i).copied().unwrap_or(0);
                if (m.next as usize) < len && u >= 4 && m.holders[i] != ShareOwner::Pool {
                    m.president = Some(m.holders[i].clone());
                    m.claimed = false;
                    if !settle_presidency(state, &mut m, events) {
                        return true;
                    }
                    continue;
                }
                if asked(state, &m).is_some() {
                    store(state, m);
                    return false;
                }
                m.next += 1;
            }
            MergerStage::OddShares => {
                let i = m.next as usize;
                let Some(h) = m.holders.get(i).cloned() else {
                    tuscan_president_to_pool(state, &mut m, events);
                    m.stage = MergerStage::TwoCityTile;
                    m.next = 0;
                    continue;
                };
                if m.units.get(i).copied().unwrap_or(0) == 0 {
                    m.next += 1;
                    continue;
                }
                if h == ShareOwner::Pool {
                    // The pool's odd share is discarded.
                    m.units[i] = 0;
                    m.next += 1;
                    continue;
                }
                if let Some(k) = m.pass2.iter().position(|(x, _)| *x == h) {
                    // Answered in the odd sweep ([`asked`]): kept until played, so that a
                    // pending full share keeps the certificate open ([`president_open`]).
                    let choice = m.pass2[k].1;
                    odd_share(state, &mut m, i, &h, choice, events);
                    m.pass2.remove(k);
                    m.next += 1;
                    continue;
                }
                let half = new_price(&m).div_euclid(2);
                let can_full = ipo_share_left(state, &m.target) && holder_cash(state, &h) >= half;
                if can_full && acting_seat(state, &h).is_some() {
                    store(state, m);
                    return false;
                }
                odd_share(state, &mut m, i, &h, OddShareChoice::Cash, events);
                m.next += 1;
            }
            MergerStage::TwoCityTile => {
                if m.two_city.is_empty() {
                    m.stage = MergerStage::Tokens;
                    continue;
                }
                if decision(state, &m).is_some_and(|d| !d.actions.is_empty()) {
                    store(state, m);
                    return false;
                }
                // Nobody to choose: the second corporation's token goes.
                auto_two_city(state, &mut m, events);
            }
            MergerStage::Tokens => {
                if m.tokens_max_removal == 0 || removable(state, &m).is_empty() {
                    finish(state, &m, events);
                    return true;
                }
                if token_decider(state, &m).is_none() {
                    auto_tokens(state, &mut m, events);
                    continue;
                }
                store(state, m);
                return false;
            }
        }
    }
    store(state, m);
    false
}
