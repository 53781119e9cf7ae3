//! A merger's pass 2 as 18xx.games asks it, for the 18xx.games export
//! ([`super`]; issue #21).
//!
//! 18xx.games asks every holder of an odd old share ONE question in pass 2 of a merger's
//! exchange (1841 §12.1; `G1841::Game#merger_next_exchange` in `:exchange_pass2`): sell it
//! for half the new price (`cash`), pay half the new price for a full new share (`full`) or,
//! while nobody holds the president's certificate, pay 1.5 times the new price for it
//! (`pres`). It offers no `no` there (a `no` would be read as `cash`, `merger_do_exchange`),
//! and it asks only when more than one of these is open to the holder.
//!
//! This engine asks the same holder twice: first whether he claims the presidency with his
//! single share (`MergerStage::Presidency`, the sweep over single shares), then, once the
//! president is known and the pairs are exchanged, for his odd share
//! (`MergerStage::OddShares`), which it settles as cash by itself when a full share is not
//! open to him. So the writer:
//! * writes a declined claim of that sweep as the holder's single answer: the record is
//!   written at the decline (a `choose` by the holder, in 18xx's place: before the claim
//!   that follows in the sweep, whose holder comes after him) and gets its choice once his odd
//!   share is settled — `full` or `cash` as he answered this engine's second question (which
//!   has no record of its own), or `cash` where this engine settled it by itself (18xx asks
//!   him: `cash` and `pres` were open);
//! * leaves the record a `no` when the merger is backed out before (nobody took the
//!   presidency, 1841 §12.1): the `undo` that follows takes it back in 18xx.games
//!   ([`super`]'s `merger_backed_out`).
//!
//! The importer reads such an answer back as the declined claim and plays the answer at the
//! odd shares ([`crate::g1841::import18xx`], `choose::Answers`).

use serde_json::Value;

use crate::g1841::action::{Action, Event, OddShareChoice};
use crate::g1841::state::{CorporateEvent, Merger, MergerStage, Round, ShareOwner, State};

/// The temporary field of a record that also carries the action with this index (an odd
/// share's answer written in the holder's pass-2 record); read by `index_to_id`.
pub(super) const ALSO_INDEX_TAG: &str = "_referee_also_index";

/// A declined claim of the sweep over single shares whose record waits for the odd share.
#[derive(Debug)]
struct Declined {
    /// The corporation the merger forms.
    target: String,
    holder: ShareOwner,
    /// The holder's place in the merger's exchange order.
    place: usize,
    /// Position of its record in the records written.
    record: usize,
}

/// The declined claims of the merger under way ([`Pass2::declined`]).
#[derive(Debug, Default)]
pub(super) struct Pass2 {
    waiting: Vec<Declined>,
}

fn merger(state: &State) -> Option<&Merger> {
    match &state.round {
        Round::OperatingRound(r) => match r.event.as_deref() {
            Some(CorporateEvent::Merger(m)) => Some(m),
            _ => None,
        },
        _ => None,
    }
}

fn failed(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::MergerFailed { .. }))
}

impl Pass2 {
    /// Whether `action` in `pre` declines the presidency in the sweep over single shares
    /// without backing the merger out; if so its record, about to be written at position
    /// `record`, waits for the holder's odd share.
    pub(super) fn declined(
        &mut self,
        pre: &State,
        action: &Action,
        events: &[Event],
        record: usize,
    ) -> bool {
        let Some(m) = merger(pre) else {
            return false;
        };
        let len = m.holders.len();
        let next = m.next as usize;
        if m.stage != MergerStage::Presidency
            || next < len
            || !matches!(action, Action::ClaimPresidency { claim: false })
            || failed(events)
        {
            return false;
        }
        let place = next - len;
        // Players, and corporations of three units (asked whether a full share makes them
        // president, 1841 §12.1, R4): 18xx.games never asks a corporation about the
        // presidency (its `merger_presidency_for_companies` claim, FAQ-R6, has no 18xx form).
        let Some(holder) = m.holders.get(place).cloned() else {
            return false;
        };
        let three = m.units.get(place) == Some(&3);
        if !matches!(holder, ShareOwner::Player(_)) && !three {
            return false;
        }
        self.waiting.push(Declined {
            target: m.target.clone(),
            holder,
            place,
            record,
        });
        true
    }

    /// When `action` in `pre` answers the odd share of a holder whose declined claim waits,
    /// writes the answer into that record and returns its position (the action gets no record
    /// of its own).
    pub(super) fn answered(
        &mut self,
        pre: &State,
        action: &Action,
        index: usize,
        out: &mut [Value],
    ) -> Option<usize> {
        let Action::ExchangeOddShare { choice } = action else {
            return None;
        };
        let m = merger(pre)?;
        if m.stage != MergerStage::OddShares {
            return None;
        }
        let holder = m.holders.get(m.next as usize)?;
        let i = self
            .waiting
            .iter()
            .position(|d| d.holder == *holder && d.target == m.target)?;
        let d = self.waiting.remove(i);
        let record = out.get_mut(d.record)?;
        record["choice"] = Value::from(match choice {
            OddShareChoice::FullShare => "full",
            OddShareChoice::Cash => "cash",
        });
        record[ALSO_INDEX_TAG] = Value::from(index);
        Some(d.record)
    }

    /// After an action with `events` leading to `post`: the waiting records of holders whose
    /// odd share this engine settled by itself become `cash`; a merger backed out leaves them
    /// `no` (taken back with it).
    pub(super) fn settled(&mut self, post: &State, events: &[Event], out: &mut [Value]) {
        if self.waiting.is_empty() {
            return;
        }
        if failed(events) {
            self.waiting.clear();
            return;
        }
        let passed = |d: &Declined| match merger(post) {
            None => true,
            Some(m) if m.target != d.target => true,
            Some(m) => match m.stage {
                MergerStage::Price | MergerStage::Corporation | MergerStage::Presidency => false,
                MergerStage::OddShares => (m.next as usize) > d.place,
                MergerStage::TwoCityTile | MergerStage::Tokens => true,
            },
        };
        let (due, keep): (Vec<Declined>, Vec<Declined>) =
            self.waiting.drain(..).partition(|d| passed(d));
        self.waiting = keep;
        for d in due {
            if let Some(record) = out.get_mut(d.record) {
                record["choice"] = Value::from("cash");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::{G1841, Options};
    use serde_json::json;

    /// A merger of AFI and CTDA into ATFA in the stage `stage` at `next`; holders player 4
    /// (seat 3, a pair) and player 2 (seat 1, a single share).
    fn in_merger(stage: &str, next: u32) -> State {
        let mut state = json!(G1841::setup(&Options::default(), 4, 0).unwrap());
        let event = json!({"Merger": {"initiator": "AFI", "partner": "CTDA",
            "stage": stage, "target": "ATFA", "cell": {"row": 8, "col": 9},
            "price_choices": [], "holders": [{"Player": 3}, {"Player": 1}],
            "units": [2, 1], "next": next, "president": null, "claimed": false,
            "token_count": 0, "tuscan": false, "holding": null,
            "joins_round": false, "tokens_min_removal": 0, "tokens_max_removal": 0,
            "moved": null, "two_city": [], "decider": null}});
        let mut round = json!({"stock_round": 4, "number": 1, "total": 2,
            "current": "AFI", "done": [], "step": "Trains", "laid_hexes": [],
            "used_bases": [], "bought_train": false, "revenue": 0, "sold": [],
            "start": null, "queued_events": [], "crowded": [], "emergency": false,
            "train_obligation_released": false, "pending_drops": [],
            "corporate_sales": []});
        round["event"] = event;
        state["round"] = json!({ "OperatingRound": round });
        serde_json::from_value(state).unwrap()
    }

    fn choose(entity: u32, choice: &str) -> Value {
        json!({"type": "choose", "entity": entity, "choice": choice})
    }

    const DECLINE: Action = Action::ClaimPresidency { claim: false };

    /// 1841 §12.1 pass 2, 18xx `merger_next_exchange`: the single holder's declined claim
    /// (sweep over single shares: `next` 3 = holders 2 + place 1) is written once, with the
    /// answer he gives this engine for his odd share; that action has no record of its own.
    #[test]
    fn a_declined_single_claim_takes_the_odd_shares_answer() {
        let mut p = Pass2::default();
        let mut out = vec![choose(4, "no"), choose(2, "no")];
        assert!(p.declined(&in_merger("Presidency", 3), &DECLINE, &[], 1));
        // Still in the presidency stage (another holder asked): nothing settled.
        p.settled(&in_merger("Presidency", 3), &[], &mut out);
        assert_eq!(out[1]["choice"], "no");
        let full = Action::ExchangeOddShare {
            choice: OddShareChoice::FullShare,
        };
        // The pair holder's odd share (place 0) is not his.
        assert_eq!(
            p.answered(&in_merger("OddShares", 0), &full, 7, &mut out),
            None
        );
        assert_eq!(
            p.answered(&in_merger("OddShares", 1), &full, 9, &mut out),
            Some(1)
        );
        assert_eq!(out[1]["choice"], "full");
        assert_eq!(out[1][ALSO_INDEX_TAG], 9);
        assert_eq!(out[0]["choice"], "no");
        assert!(p.waiting.is_empty());
    }

    /// An odd share this engine settles as cash by itself (he cannot pay for a full share)
    /// is still asked by 18xx.games (`cash` and `pres` were open to him): `cash`.
    #[test]
    fn an_odd_share_settled_by_rule_is_written_as_cash() {
        let mut p = Pass2::default();
        let mut out = vec![choose(2, "no")];
        assert!(p.declined(&in_merger("Presidency", 3), &DECLINE, &[], 0));
        p.settled(&in_merger("OddShares", 1), &[], &mut out);
        assert_eq!(out[0]["choice"], "no", "his odd share is asked now");
        p.settled(&in_merger("OddShares", 2), &[], &mut out);
        assert_eq!(out[0]["choice"], "cash");
        assert!(out[0].get(ALSO_INDEX_TAG).is_none());
    }

    /// A decline of the pairs' sweep (pass 1, a `no` in 18xx too), a claim, and a decline
    /// that backs the merger out (the `undo` takes its `no` back) are written as they are.
    #[test]
    fn other_presidency_answers_are_written_as_they_are() {
        let mut p = Pass2::default();
        assert!(!p.declined(&in_merger("Presidency", 0), &DECLINE, &[], 0));
        let claim = Action::ClaimPresidency { claim: true };
        assert!(!p.declined(&in_merger("Presidency", 3), &claim, &[], 0));
        let failed = Event::MergerFailed {
            initiator: "AFI".into(),
            partner: "CTDA".into(),
        };
        assert!(!p.declined(
            &in_merger("Presidency", 3),
            &DECLINE,
            std::slice::from_ref(&failed),
            0
        ));
        // A wait cleared by a later failure leaves the `no`.
        let mut out = vec![choose(2, "no")];
        assert!(p.declined(&in_merger("Presidency", 3), &DECLINE, &[], 0));
        p.settled(&in_merger("OddShares", 2), &[failed], &mut out);
        assert_eq!(out[0]["choice"], "no");
        assert!(p.waiting.is_empty());
    }
}
