//! Corporate events written as 18xx.games records them: the compulsory second token of a
//! transformation (1841 §12.2), a merger's token removed by rule on a two-city tile and a
//! merger backed out (§12.1), and the discards this engine made by itself around the Tuscan
//! merge (§9.6, §12.3).

use serde_json::{Map, Value};

use super::{MERGER_BACKED_OUT, OoRemoval, Writer};
use crate::Seat;
use crate::g1841::action::{Action, Event};
use crate::g1841::data;
use crate::g1841::import18xx::{self, Entity};
use crate::g1841::state::{CorporateEvent, MergerStage, Round, State};

impl Writer<'_> {
    /// Follows the compulsory second token of a transformation (1841 §12.2) bought during
    /// `pre → post`: remembered while the major's count is asked ([`Writer::compulsory`]);
    /// returns the major when the transformation ended at once (no further token
    /// affordable), where 18xx.games still asks for its count, the single choice 1.
    pub(super) fn compulsory_token(
        &mut self,
        pre: &State,
        post: &State,
        action: &Action,
        events: &[Event],
    ) -> Option<String> {
        let transformation = |s: &State| match &s.round {
            Round::OperatingRound(r) => match r.event.as_deref() {
                Some(CorporateEvent::Transformation(t)) => Some(t.clone()),
                _ => None,
            },
            _ => None,
        };
        let before = transformation(pre);
        let after = transformation(post);
        if after.is_none() {
            self.compulsory = None;
        }
        let bought = compulsory_token_bought(post, events)?;
        let ours = matches!(action, Action::Transform { .. })
            || before.as_ref().is_some_and(|t| t.major == bought);
        if !ours {
            return None;
        }
        match after {
            Some(t) if t.major == bought && t.stage == 3 => {
                self.compulsory = Some(bought);
                None
            }
            Some(_) => None,
            None => Some(bought),
        }
    }

    /// Follows the tokens a merger's old corporations lose on a two-city tile (yellow Torino,
    /// yellow Firenze) during `pre → post` without a choice of ours — only where nobody can
    /// choose (every merger, the Tuscan merge's first step too, asks in stage `TwoCityTile`,
    /// 1841 §12.1, and that `RemoveToken` is written as it is): this engine keeps the first corporation's
    /// token in the hex and removes the other's, where 18xx.games asks which of the two goes (`merger_tokens_start`, a
    /// pending removal with `min` = `max` = 1 of that hex, by the new corporation when a
    /// player controls it, else by the initiator's player) once every share is exchanged:
    /// the decision made here, queued until [`Writer::merger_oo_due`] writes it. A second
    /// token in the same city is removed by 18xx itself and not written.
    pub(super) fn merger_oo_removals(&mut self, pre: &State, post: &State, events: &[Event]) {
        for (at, e) in events.iter().enumerate() {
            let Event::CorporationFormed {
                corporation: target,
                from,
                ..
            } = e
            else {
                continue;
            };
            let Some(formed) = post.corporation(target) else {
                continue;
            };
            // Only removals of this merger, made after it formed the corporation: the same
            // action may first end another merger's two-city choice (the Tuscan merge's first
            // step, whose end forms SFLi at once, 1841 §12.3).
            for r in &events[at + 1..] {
                let Event::TokenRemoved {
                    corporation,
                    hex,
                    city,
                } = r
                else {
                    continue;
                };
                let other_city = formed
                    .tokens
                    .iter()
                    .any(|t| t.hex == *hex && t.city != *city);
                if !from.contains(corporation) || !other_city {
                    continue;
                }
                let decider = crate::g1841::corporation::controller(post, target)
                    .map(|s| (Entity::Corporation(target.clone()), s))
                    .or_else(|| {
                        from.first()
                            .and_then(|a| crate::g1841::corporation::controller(pre, a))
                            .map(|s| (Entity::Player(s), s))
                    });
                let Some((entity, seat)) = decider else {
                    continue;
                };
                let slot = self.slot_of(hex, *city, corporation).unwrap_or_else(|| {
                    import18xx::token_holders(pre, hex, *city)
                        .iter()
                        .position(|c| c == corporation)
                        .unwrap_or(0)
                });
                self.oo_removals.push(OoRemoval {
                    target: target.clone(),
                    entity,
                    seat,
                    city: self.city_id(&pre.options, hex, *city),
                    slot,
                });
            }
        }
    }

    /// The `remove_token` records of [`Writer::merger_oo_removals`] whose merger has ended
    /// its exchanges in `post` (its token stage reached, or the merger over), with ids from
    /// `written + 1`. The importer drops them again.
    pub(super) fn merger_oo_due(&mut self, post: &State, written: usize) -> Vec<Value> {
        let exchanging = |target: &str| {
            matches!(&post.round, Round::OperatingRound(r)
                if matches!(r.event.as_deref(), Some(CorporateEvent::Merger(m))
                    if m.target == target && m.stage != MergerStage::Tokens))
        };
        let (due, keep): (Vec<OoRemoval>, Vec<OoRemoval>) = std::mem::take(&mut self.oo_removals)
            .into_iter()
            .partition(|r| !exchanging(&r.target));
        self.oo_removals = keep;
        due.into_iter()
            .enumerate()
            .map(|(k, r)| {
                let id = i64::try_from(written + k + 1).unwrap_or(i64::MAX);
                let mut f = Map::new();
                f.insert("city".into(), Value::from(r.city));
                f.insert("slot".into(), Value::from(r.slot));
                self.record("remove_token", &f, &r.entity, r.seat, id)
            })
            .collect()
    }

    /// The `undo` 18xx.games records for a merger this engine backed out with the events of
    /// an action (`MergerFailed`: nobody took the presidency, or the result would be frozen
    /// or circular; 1841 §12.1, FAQ-R6, #9404): 18xx refuses the merger's last decision
    /// ("Cannot complete this merger without a president. Undo required.") and its player
    /// takes the whole proposal back, to the record before it (`action_id` = `base`). The
    /// mark [`MERGER_BACKED_OUT`] tells this engine's importer to skip the undo and replay the
    /// proposal and its declines, which back the merger out here as in the game played
    /// (listed divergence `merger-backed-out-after-declines`).
    pub(super) fn merger_backed_out(
        &self,
        events: &[Event],
        seat: Seat,
        base: i64,
        written: usize,
    ) -> Option<Value> {
        if !events
            .iter()
            .any(|e| matches!(e, Event::MergerFailed { .. }))
        {
            return None;
        }
        let id = i64::try_from(written + 1).unwrap_or(i64::MAX);
        let mut f = Map::new();
        f.insert("action_id".into(), Value::from(base));
        f.insert(MERGER_BACKED_OUT.into(), Value::from(true));
        Some(self.record("undo", &f, &Entity::Player(seat), seat, id))
    }
}

/// The major that bought its compulsory second token of a transformation (1841 §12.2: two
/// tokens at the L.50 of `transformation_required_second_token`) in `events`, if any: the
/// writer's [`Writer::compulsory_token`] and the importer's `transformation_settled` both
/// start from it.
pub(in crate::g1841) fn compulsory_token_bought(post: &State, events: &[Event]) -> Option<String> {
    let price = data::ruleset(&post.options)
        .token_prices
        .transformation_required_second_token;
    events.iter().find_map(|e| match e {
        Event::TokensBought {
            corporation,
            count: 2,
            price: p,
        } if *p == price => Some(corporation.clone()),
        _ => None,
    })
}

/// The trains this engine discarded by itself with `action` (1841 §9.6, I26: a corporation
/// over its new limit that nobody decides for, frozen, discards its oldest trains at once,
/// `operating_round::trains::mark_crowded`), as (corporation, train). 18xx.games' blocking
/// `DiscardTrain` step waits for a `discard_train` of every crowded corporation, a frozen one
/// included (v2 heuristic 8 players seed 8011, id 1087: CTDA, frozen, over the phase-6 limit
/// after CFCC's first 6-train; 18xx waited for its discard where the export wrote AFI's
/// `pass`); the export writes them right after the action's record (the step takes the
/// crowded corporations in any order). This engine's importer drops them
/// (`discard_without_controller`).
/// [`automatic_discards`] split at the Tuscan merge's formation (1841 §12.3) in `events`:
/// those before it, those after it (a merge that ran on behind the Ferdinandea split's end
/// in the same action; 18xx asks the split's last questions first: v2 heuristic 5 players
/// seed 5166, id 608: SFLi's discard came before the question of SFL's tokens, "Blocking
/// step Buy New Tokens cannot process action discard_train").
#[allow(clippy::type_complexity)]
pub(super) fn discards_around_tuscan_merge(
    pre: &State,
    action: &Action,
    events: &[Event],
) -> (Vec<(String, String)>, Vec<(String, String)>) {
    let formed = data::ruleset(&pre.options)
        .tuscan_merge
        .as_ref()
        .and_then(|t| {
            events.iter().position(|e| {
                matches!(e, Event::CorporationFormed { corporation, .. } if *corporation == t.result)
            })
        })
        .unwrap_or(events.len());
    (
        automatic_discards(action, &events[..formed]),
        automatic_discards(action, &events[formed..]),
    )
}

fn automatic_discards(action: &Action, events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TrainDiscarded { corporation, train } => Some((corporation, train)),
            _ => None,
        })
        .filter(|(corporation, train)| {
            !matches!(action, Action::DiscardTrain { corporation: c, train: t }
                if c == *corporation && t == *train)
        })
        .map(|(c, t)| (c.clone(), t.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1841 §9.6, I26: the discards this engine made by itself with an action (a frozen
    /// corporation's, at a phase change) are written; the action's own discard is not (v2
    /// heuristic 8 players seed 8011, id 1085: CFCC's first 6-train, frozen CTDA discards
    /// its 4-0).
    #[test]
    fn automatic_discards_are_the_ones_the_action_did_not_choose() {
        let discarded = |corporation: &str, train: &str| Event::TrainDiscarded {
            corporation: corporation.into(),
            train: train.into(),
        };
        let buy = Action::BuyTrain {
            train: "6-0".into(),
            from: "depot".into(),
            price: 800,
        };
        assert_eq!(
            automatic_discards(&buy, &[discarded("CTDA", "4-0")]),
            [("CTDA".to_string(), "4-0".to_string())]
        );
        let own = Action::DiscardTrain {
            corporation: "RATF".into(),
            train: "4-2".into(),
        };
        assert_eq!(
            automatic_discards(&own, &[discarded("RATF", "4-2"), discarded("CTDA", "4-0")]),
            [("CTDA".to_string(), "4-0".to_string())]
        );
        assert!(automatic_discards(&own, &[discarded("RATF", "4-2")]).is_empty());
    }
}
