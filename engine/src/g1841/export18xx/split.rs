//! The Ferdinandea split (1841 §12.4) as 18xx.games asks it: where the split ends when the
//! Tuscan merge runs on in the same action, the token counts and the "another round of
//! purchases?" questions 18xx asks where this engine decides by rule, and who decides for a
//! successor without a president.

use super::Writer;
use crate::g1841::G1841;
use crate::g1841::action::{Action, Event};
use crate::g1841::data;
use crate::g1841::import18xx::Entity;
use crate::g1841::operating_round;
use crate::g1841::state::{CorporateEvent, Round, ShareOwner, Split, SplitStage, State};
use crate::{Game, Seat};

/// The Ferdinandea split (1841 §12.4) across `pre → post`: the split in progress before and
/// after, and whether `events` formed one of its successors (the split began and, with no
/// decision to ask, may have ended within the action).
pub(super) fn split_across(
    pre: &State,
    post: &State,
    events: &[Event],
) -> (Option<Split>, Option<Split>, bool) {
    let split_of = |s: &State| match &s.round {
        Round::OperatingRound(r) => match r.event.as_deref() {
            Some(CorporateEvent::Split(sp)) => Some(sp.clone()),
            _ => None,
        },
        _ => None,
    };
    let successors = &data::ruleset(&post.options).ferdinandea_split.successors;
    let formed = events.iter().any(|e| {
        matches!(e, Event::CorporationFormed { corporation, .. }
            if successors.contains(corporation))
    });
    (split_of(pre), split_of(post), formed)
}

/// The state in which 18xx.games asks the Ferdinandea split's "another round of purchases?"
/// questions of the action `pre → post` (1841 §12.4): `Some(None)` for `post` itself;
/// `Some(Some(state))` when the split ended in this action and the Tuscan merge queued behind
/// it (1841 §11: both are events of the first 4-train) ran on in the same action — 18xx
/// defers the merge to `secession_finish`, after its last question, and the merge moves
/// cash (an odd share sold to the bank, a presidency bought): `pre` with the action applied
/// and the Tuscan merge taken out of the queue (Version 2 heuristic 4 players seed 4002,
/// 18xx id 453: a player who could buy SB only with the L.121 of his SSFL share sold in the
/// merge was asked nothing by 18xx). `None` (no question to write) when the split both began
/// and ended in this action and a Tuscan merge with at least two participants followed: the
/// split then asked nobody anything, so no holder could buy at its end.
pub(super) fn split_end_state(
    pre: &State,
    post: &State,
    seat: Seat,
    action: &Action,
    events: &[Event],
) -> Option<Option<State>> {
    split_end(pre, post, seat, action, events).map(|end| end.map(|(state, _)| state))
}

/// [`split_end_state`] with the events of the split's end: the action applied without the
/// Tuscan merge.
fn split_end(
    pre: &State,
    post: &State,
    seat: Seat,
    action: &Action,
    events: &[Event],
) -> Option<Option<(State, Vec<Event>)>> {
    let (before, after, began) = split_across(pre, post, events);
    let Some(tuscan) = data::ruleset(&pre.options).tuscan_merge.as_ref() else {
        return Some(None);
    };
    if after.is_some() {
        return Some(None);
    }
    let queued = |s: &State| {
        matches!(&s.round, Round::OperatingRound(r)
            if r.queued_events.contains(&crate::g1841::state::QueuedEvent::TuscanMerge))
    };
    if before.is_none() {
        let started = tuscan
            .participants
            .iter()
            .filter(|p| pre.corporation(p).is_some_and(|c| c.started()))
            .count();
        return if began && started >= 2 {
            None
        } else {
            Some(None)
        };
    }
    if !queued(pre) || queued(post) {
        return Some(None);
    }
    let mut end = pre.clone();
    if let Round::OperatingRound(r) = &mut end.round {
        r.queued_events
            .retain(|q| *q != crate::g1841::state::QueuedEvent::TuscanMerge);
    }
    Some(
        G1841::apply(&mut end, seat, action)
            .ok()
            .map(|split| (end, split)),
    )
}

/// The split's end as [`split_end_state`] finds it when a Tuscan merge ran on in the same
/// action, with the number of `events` (the whole action's) that belong to the split: the
/// events both applications share from the start.
pub(super) fn split_end_with_events(
    pre: &State,
    post: &State,
    seat: Seat,
    action: &Action,
    events: &[Event],
) -> Option<(State, usize)> {
    let (end, split) = split_end(pre, post, seat, action, events)??;
    let n = split.iter().zip(events).take_while(|(a, b)| a == b).count();
    Some((end, n))
}

/// 18xx.games' `@secession_decider`, who decides for the successors of the Ferdinandea split
/// without a president (1841 §12.4) in `pre`: IRSFF's president (`split`'s, a player or the
/// controller of a corporation), else IRSFF's controller, else the operating corporation's.
pub(super) fn secession_decider(pre: &State, split: Option<&Split>) -> Option<Seat> {
    let from = &data::ruleset(&pre.options).ferdinandea_split.from;
    split
        .and_then(|sp| match &sp.president {
            ShareOwner::Player(p) => Some(*p),
            ShareOwner::Corporation(c) => crate::g1841::corporation::controller(pre, c),
            _ => None,
        })
        .or_else(|| crate::g1841::corporation::controller(pre, from))
        .or_else(|| match &pre.round {
            Round::OperatingRound(r) => r
                .current
                .as_deref()
                .and_then(|c| crate::g1841::corporation::controller(pre, c)),
            _ => None,
        })
}

impl Writer<'_> {
    /// The successors of the Ferdinandea split (1841 §12.4) whose token purchase this engine
    /// passed over during `pre → post` while 18xx.games asks for it, each with the seat 18xx
    /// asks: a successor without a controlling player buys no token here
    /// (`operating_round::events::split`), where 18xx's `secession_tokens` offers 0 to
    /// `(5 - tokens) ∧ cash ÷ L.100` further tokens to IRSFF's president
    /// (`@secession_decider`) whenever it has fewer than 5 tokens and L.100. Version 1 has no
    /// such purchase.
    ///
    /// The successor is judged where 18xx asks ([`split_end_state`]): before a Tuscan merge
    /// that ran on in the same action, which may give it a president or cash (v2 random 3
    /// players seed 3118, id 313: SB, its president's certificate in the pool at the split's
    /// end, presided by SFLi after the merge, so no question was written; seed 3137, id 304:
    /// SFL with L.6 at the split's end, L.127 after the merge, a question 18xx never asks).
    /// The same judgement keeps the successor whose own token purchase was this action from
    /// looking president-less after the merge moved its presidency to the new corporation
    /// (seed 5153, 18xx id 494: a second `choose 0` where 18xx asks the merger's first holder).
    pub(super) fn split_tokens_by_rule(
        &mut self,
        pre: &State,
        post: &State,
        seat: Seat,
        action: &Action,
        events: &[Event],
    ) -> Vec<(String, Seat)> {
        let rules = data::ruleset(&post.options);
        let successors = &rules.ferdinandea_split.successors;
        let Some(price) = rules.token_prices.ferdinandea_split_extra_token else {
            return Vec::new();
        };
        if self.split_tokens_seen >= successors.len() || price <= 0 {
            return Vec::new();
        }
        let (before, after, formed) = split_across(pre, post, events);
        // Successors passed over: those before the one whose tokens are asked now, or all
        // when the split ended.
        let upto = match &after {
            Some(sp) if sp.stage == SplitStage::Tokens => successors
                .iter()
                .position(|x| *x == sp.corporation)
                .unwrap_or(successors.len()),
            Some(_) => return Vec::new(),
            None if before.is_some() || formed => successors.len(),
            None => return Vec::new(),
        };
        let decider = secession_decider(pre, before.as_ref());
        let end = match split_end_state(pre, post, seat, action, events) {
            Some(Some(end)) => Some(end),
            _ => None,
        };
        let judged = end.as_ref().unwrap_or(post);
        let max = rules.token_counts.major_max;
        let mut out = Vec::new();
        while self.split_tokens_seen < upto {
            let sym = &successors[self.split_tokens_seen];
            self.split_tokens_seen += 1;
            let Some(c) = judged.corporation(sym) else {
                continue;
            };
            // The successor whose count this action answered was asked here too, even when
            // the Tuscan merge run on in the same action froze it (Version 2 random 3 players
            // seed 3134, 18xx id 316: SFL's president SSFL merged into SFLi, in receivership).
            let answered = before
                .as_ref()
                .is_some_and(|sp| sp.stage == SplitStage::Tokens && sp.corporation == *sym);
            if !answered
                && crate::g1841::corporation::controller(judged, sym).is_none()
                && c.tokens_total < max
                && c.cash >= price
                && let Some(d) = decider
            {
                out.push((sym.clone(), d));
            }
        }
        out
    }

    /// The "another round of purchases?" questions of the Ferdinandea split (1841 §12.4) that
    /// 18xx.games asks after `pre → post` where this engine asked none, each as the entity
    /// 18xx asks and the seat writing it; the writer records a `choose "n"` for each, the
    /// decision this engine made: no further round of that successor.
    ///
    /// 18xx (`Game#secession_post_offer`, `secession_offer_again`): after the first rounds
    /// (SB, then SFL) it alternates between the two successors, starting with SB, skipping
    /// one whose purchases are over (`doneb`/`donea`, set by a "no" or when no holder can
    /// buy), and asks whenever a holder can buy — of the successor when a player controls
    /// it, else of IRSFF's president (`@secession_decider`). This engine asks only a
    /// successor with a controlling player, and closes a successor's purchases after a
    /// further round that sold nothing (`split::ask_repeat`); so 18xx's question for a
    /// successor no player controls (the listed divergence
    /// `split-repeat-round-of-a-frozen-successor`), and its repeated question for a successor
    /// whose round sold nothing, are written here as declined. The writer follows 18xx's
    /// `done` set over the split (`split_offers_done`).
    ///
    /// Whether a holder can buy is judged where 18xx asks: at the end of the split, before
    /// a Tuscan merge that ran on in the same action ([`split_end_state`]).
    pub(super) fn split_repeat_declines(
        &mut self,
        pre: &State,
        post: &State,
        seat: Seat,
        action: &Action,
        events: &[Event],
    ) -> Vec<(Entity, Seat)> {
        let Some(end) = split_end_state(pre, post, seat, action, events) else {
            return Vec::new();
        };
        let post = end.as_ref().unwrap_or(post);
        let rules = data::ruleset(&post.options);
        let successors = &rules.ferdinandea_split.successors;
        let [first, second] = successors.as_slice() else {
            return Vec::new();
        };
        let (before, after, formed) = split_across(pre, post, events);
        if before.is_none() {
            if !formed {
                return Vec::new();
            }
            self.split_offers_done.clear();
        }
        // The split ended in this action, and the turn, the round and the next round's
        // frozen turns may have run on after it: a frozen successor's turn moves it left twice
        // (1841 §7.4). 18xx asks at the split's end, at the successors' prices of the split
        // (its purchases do not move them): Version 1 heuristic 7 players seed 7144, 18xx id
        // 289 — RATF, last in OR 5.1, bought the 4-train; SFV (frozen) moved from L.177 to
        // L.144 in OR 5.2 with the same action, and the writer asked whether player 7 (L.168)
        // buys another SFV share, which 18xx did not (L.177).
        let rewound;
        let post = if before.is_some() && after.is_none() {
            let mut s = post.clone();
            for sym in successors {
                if let (Some(c), Some(p)) = (
                    s.corporation_mut(sym),
                    pre.corporation(sym).and_then(|c| c.share_price),
                ) {
                    c.share_price = Some(p);
                }
            }
            rewound = s;
            &rewound
        } else {
            post
        };
        // Where 18xx's `secession_post_offer` starts from in this action: after SFL's first
        // round, after a further round of a successor, or after a "no" to one.
        let just_did = match &before {
            None => second.clone(),
            Some(sp) => match (sp.stage, action) {
                (SplitStage::RepeatRound, Action::RepeatPurchaseRound { repeat: false }) => {
                    self.split_offers_done.insert(sp.corporation.clone());
                    sp.corporation.clone()
                }
                (SplitStage::RepeatRound | SplitStage::Tokens, _) => return Vec::new(),
                (SplitStage::Purchases, _) if sp.first_rounds_done => sp.corporation.clone(),
                _ => second.clone(),
            },
        };
        // What this engine asks now: a further round of one successor, or nothing more (the
        // tokens, or the split is over). Still in the exchanges or a round: 18xx has not
        // reached its question either.
        let asked = match &after {
            Some(sp) if sp.stage == SplitStage::RepeatRound => Some(sp.corporation.clone()),
            Some(sp) if sp.stage == SplitStage::Tokens => None,
            None => None,
            Some(_) => return Vec::new(),
        };
        let Some(split) = after.clone().or_else(|| before.clone()) else {
            return Vec::new();
        };
        let decider = secession_decider(pre, Some(&split));
        let other = |s: &str| if s == first { second } else { first };
        let mut out = Vec::new();
        let mut last = just_did;
        for _ in 0..4 {
            if successors
                .iter()
                .all(|s| self.split_offers_done.contains(s))
            {
                break;
            }
            let next = other(&last).clone();
            last = next.clone();
            if self.split_offers_done.contains(&next) {
                continue;
            }
            if !operating_round::events::split::anyone_can_buy(post, &next, &split) {
                self.split_offers_done.insert(next);
                continue;
            }
            if asked.as_ref() == Some(&next) {
                break;
            }
            let asked_of = match crate::g1841::corporation::controller(post, &next) {
                Some(seat) => Some((Entity::Corporation(next.clone()), seat)),
                None => decider.map(|d| (Entity::Player(d), d)),
            };
            if let Some(q) = asked_of {
                out.push(q);
            }
            self.split_offers_done.insert(next);
        }
        out
    }
}
