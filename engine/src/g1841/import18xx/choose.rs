//! 18xx.games' `choose` answers of corporate events that this engine asks in another order,
//! or not at all (issue #21, import direction).
//!
//! What 18xx.games means by each answer (`G1841::Step::ChooseOption#choices`):
//! * a merger's exchange (`merger_next_exchange`, 1841 §12.1): pass 1, to a player holding
//!   20–30% of the two old corporations who can pay for it, `pres` (claim the new president's
//!   certificate) or `no`; pass 2, to every holder of an odd old share with a choice, `cash`
//!   (sell it for half the new price), `full` (pay half the new price for a full new share)
//!   or, while nobody holds the presidency, `pres` (pay 1.5 times the new price for it);
//! * a transformation's share offer and the split's purchase rounds (`share_offer_option`,
//!   §12.2, §12.4): `yes` (buy one IPO share) or `no`; inside the Tuscan merge too (§12.3:
//!   `transform_start` with `tuscan_merge`);
//! * the split's question whether another purchase round follows (`secession_offer_response`):
//!   `y` or `n`.
//!
//! This engine asks the merger's presidency claims of both passes before the odd shares
//! (`MergerStage::Presidency`, then `OddShares`), settles a choice it sees only one answer to
//! by itself, and opens no share offer in the Tuscan merge's transformation nor a further
//! split purchase round after one without a sale. [`Plan`] maps the records onto that:
//! * pass-2 answers recorded before the presidency is claimed are kept and played when this
//!   engine asks the odd shares ([`Answers`]); a holder this engine asks and 18xx.games did
//!   not (it had no choice there) is given what 18xx.games gave him: no claim, or cash;
//! * a `no` or `y` this engine has no question for is dropped (a decline changes nothing);
//! * a `yes` this engine has no offer for is a rules divergence (listed in
//!   `tests/oracle/divergences-import.md`), as is an action of a corporation without a
//!   controlling player (frozen, 1841 §7.4).
//!
//! The mapping of one `choose` record by context ([`ImportedAction::choose_action`]) is here too.

use super::failure::ImportFailure;
use super::{Entity, ImportError, ImportedAction, as_whole_number};
use crate::g1841::G1841;
use crate::g1841::action::{Action, Event, OddShareChoice};
use crate::g1841::corporation::controller;
use crate::g1841::state::{
    CorporateEvent, Merger, MergerStage, Round, ShareOwner, SplitStage, State,
};
use crate::g1841::{data, market};
use crate::{Game, Rejection, RejectionCode, Seat};

/// What the replay does with one record.
#[derive(Debug)]
pub(super) enum Plan {
    /// Read it as usual.
    Normal,
    /// Drop it, for this reason.
    Drop(&'static str),
    /// Play these actions for it; the first `inserted` of them are answers 18xx.games gave
    /// by itself (no record of theirs).
    Play {
        actions: Vec<(Seat, Action)>,
        inserted: usize,
    },
    /// A rules divergence: stop here.
    Diverge(ImportFailure),
}

/// Pass-2 merger answers recorded before this engine asks them (in record order).
#[derive(Debug, Default)]
pub(super) struct Answers {
    kept: Vec<(ShareOwner, OddShareChoice)>,
    /// The merger (initiator, partner) the last action applied undid for want of a president
    /// (1841 §12.1), e.g. on a declined claim that 18xx.games answered in the usual way.
    failed: Option<(String, String)>,
    /// The export is Referee's ([`Answers::referee_export`]).
    referee: bool,
}

/// At most this many answers are filled in for one record.
const MAX_FILLED: usize = 64;

fn merger(state: &State) -> Option<&Merger> {
    match &state.round {
        Round::OperatingRound(r) => match r.event.as_deref() {
            Some(CorporateEvent::Merger(m)) => Some(m),
            _ => None,
        },
        _ => None,
    }
}

fn holder_of(entity: &Entity) -> Option<ShareOwner> {
    match entity {
        Entity::Player(s) => Some(ShareOwner::Player(*s)),
        Entity::Corporation(c) => Some(ShareOwner::Corporation(c.clone())),
        Entity::Other(_) => None,
    }
}

fn choice_text(action: &ImportedAction) -> Option<&str> {
    (action.kind == "choose")
        .then(|| action.field("choice").and_then(serde_json::Value::as_str))
        .flatten()
}

/// The seat asked the merger's presidency or an odd share now; `None` when the merger waits
/// for something else (or nobody).
fn open_exchange(state: &State, m: &Merger) -> Option<Seat> {
    if !matches!(m.stage, MergerStage::Presidency | MergerStage::OddShares) {
        return None;
    }
    state.players.iter().map(|p| p.seat).find(|&seat| {
        G1841::legal_actions(state, seat).iter().any(|a| {
            matches!(
                a,
                Action::ClaimPresidency { .. } | Action::ExchangeOddShare { .. }
            )
        })
    })
}

/// The sweep position (as `Merger::next`: pairs sweep `0..len`, singles sweep `len..2 len`)
/// at which this engine would ask `holder` the presidency for a record `text`, from `next` on.
fn position(m: &Merger, holder: &ShareOwner, text: &str) -> Option<usize> {
    let len = m.holders.len();
    let i = m.holders.iter().position(|h| h == holder)?;
    let units = m.units.get(i).copied().unwrap_or(0);
    let next = m.next as usize;
    let pairs = (next < len && units >= 2 && text != "cash" && text != "full").then_some(i);
    // The sweep over odd shares asks every holder of an odd share, 30% too (1841 §12.1).
    let singles = (units % 2 == 1 && units < 4).then_some(len + i);
    [pairs, singles].into_iter().flatten().find(|&p| p >= next)
}

impl Answers {
    /// The export is Referee's. Referee writes every answer of a merger's exchange, and an
    /// `undo` (`referee_merger_backed_out`, read as no record) where it backed a merger out
    /// (1841 §12.1). A Referee export of an older build wrote that undo where that build
    /// stopped asking: since the sweep over odd shares asks holders of 30% too (whether a
    /// full share makes them president, R4), this engine may still wait for such holders
    /// there. They declined, or the merger would not have been backed out: the next record
    /// fills in their declines, and the merger's failure is the record's, not a divergence.
    pub(super) fn referee_export(&mut self) {
        self.referee = true;
    }

    /// Follows an action the replay applied (its `events`): whether it undid a merger.
    pub(super) fn applied(&mut self, events: &[Event]) {
        self.failed = events.iter().find_map(|e| match e {
            Event::MergerFailed { initiator, partner } => {
                Some((initiator.clone(), partner.clone()))
            }
            _ => None,
        });
    }

    /// The plan for `action` in `state` (a record the replay has not read yet).
    pub(super) fn plan(&mut self, state: &State, action: &ImportedAction) -> Plan {
        // 18xx.games goes on with the exchange of a merger this engine undid (R4).
        if let Some((initiator, partner)) = self.failed.take()
            && merger(state).is_none()
            && matches!(choice_text(action), Some("pres" | "cash" | "full"))
        {
            return Plan::Diverge(no_president_divergence(&initiator, &partner));
        }
        if let Some(f) = token_paid_before_the_emergency_sales(state, action) {
            return Plan::Diverge(f);
        }
        if merger(state).is_some() {
            let plan = self.merger_plan(state, action);
            if !matches!(plan, Plan::Normal) {
                return plan;
            }
        } else if let Some((holder, _)) = self
            .kept
            .drain(..)
            .find(|(_, c)| *c == OddShareChoice::FullShare)
        {
            // The merger is over and never asked this holder: it gave him cash.
            return Plan::Diverge(divergence(
                "1841 §12.1",
                format!(
                    "rules divergence: 18xx.games let {holder:?} pay for a full share for its odd \
                     share of the last merger; this engine gave it cash (it could not pay, or \
                     nobody decides for it)"
                ),
            ));
        }
        offer_plan(state, action)
    }

    /// Fills in the merger's open questions 18xx.games did not ask (or asked earlier), then
    /// maps the record; works on a copy of `state`.
    fn merger_plan(&mut self, state: &State, action: &ImportedAction) -> Plan {
        let text = choice_text(action);
        let holder = holder_of(&action.entity);
        let odd_answer = matches!(text, Some("cash" | "full"));
        // Records of the merger's exchange or after it (not an offer, split or count answer).
        let exchange_or_later =
            action.kind != "choose" || matches!(text, Some("pres" | "cash" | "full"));
        let saved = self.kept.clone();
        let mut sim = state.clone();
        let mut fills: Vec<(Seat, Action)> = Vec::new();
        for _ in 0..MAX_FILLED {
            let Some(m) = merger(&sim).cloned() else {
                break;
            };
            let Some(seat) = open_exchange(&sim, &m) else {
                break;
            };
            let next = m.next as usize;
            let fill = match m.stage {
                MergerStage::Presidency => {
                    let asked = m.holders.get(next % m.holders.len().max(1));
                    let by_asked = holder.is_some() && asked == holder.as_ref();
                    if by_asked && odd_answer {
                        let full = Action::ExchangeOddShare {
                            choice: OddShareChoice::FullShare,
                        };
                        let settles = G1841::legal_actions(&sim, seat).contains(&full);
                        if settles && text == Some("full") {
                            // A holder of 30% paying for a full share: he reaches 20% and
                            // presides (1841 §12.1, R4); this engine asks it in the sweep.
                            fills.push((seat, full.clone()));
                            let mut after = fills.len();
                            if G1841::apply(&mut sim, seat, &full).is_ok() {
                                after = self.fill_kept_odd_shares(&mut sim, &mut fills);
                            }
                            return Plan::Play {
                                actions: fills,
                                // The record is `full`; the odd shares after it are filled.
                                inserted: after - 1,
                            };
                        }
                        // A pass-2 answer of the holder asked: no claim; the answer waits for
                        // the odd shares (a holder of 30% declining takes cash there, which
                        // this engine settles by itself).
                        if let Some(h) = holder.clone()
                            && !settles
                        {
                            self.kept.push((h, odd_choice(text)));
                        }
                        let decline = Action::ClaimPresidency { claim: false };
                        fills.push((seat, decline.clone()));
                        let mut after = fills.len();
                        // The last decline settles the presidency: the odd shares read
                        // before are answered with it, as after a full share above.
                        if G1841::apply(&mut sim, seat, &decline).is_ok() {
                            after = self.fill_kept_odd_shares(&mut sim, &mut fills);
                        }
                        return Plan::Play {
                            actions: fills,
                            // The record is the decline; the odd shares after it are filled.
                            inserted: after - 1,
                        };
                    }
                    if by_asked || !exchange_or_later {
                        break;
                    }
                    let later = match (&holder, text) {
                        (Some(h), Some(t)) => position(&m, h, t).is_some_and(|p| p > next),
                        _ => false,
                    };
                    if action.kind == "choose" && !later {
                        if !odd_answer {
                            break;
                        }
                        // An odd share of a holder this engine does not ask the presidency
                        // (any more): the answer waits for the odd shares.
                        if let Some(h) = holder.clone() {
                            self.kept.push((h, odd_choice(text)));
                        }
                        return if fills.is_empty() {
                            Plan::Drop(
                                "odd merger share answered before the presidency (played at the odd shares)",
                            )
                        } else {
                            Plan::Play {
                                inserted: fills.len(),
                                actions: fills,
                            }
                        };
                    }
                    // 18xx.games did not ask this holder (no choice there): no claim.
                    Action::ClaimPresidency { claim: false }
                }
                MergerStage::OddShares => {
                    let asked = m.holders.get(next).cloned();
                    if let Some(i) = self
                        .kept
                        .iter()
                        .position(|(h, _)| Some(h) == asked.as_ref())
                    {
                        Action::ExchangeOddShare {
                            choice: self.kept.remove(i).1,
                        }
                    } else if !exchange_or_later
                        || text == Some("pres")
                        || (odd_answer && holder.is_some() && asked == holder)
                    {
                        break;
                    } else {
                        // 18xx.games gave this holder cash by itself (its only option there).
                        Action::ExchangeOddShare {
                            choice: OddShareChoice::Cash,
                        }
                    }
                }
                _ => break,
            };
            match G1841::apply(&mut sim, seat, &fill) {
                // Backed out as the Referee export says ([`Answers::referee_export`]).
                Ok(events)
                    if self.referee
                        && events
                            .iter()
                            .any(|e| matches!(e, Event::MergerFailed { .. })) =>
                {
                    fills.push((seat, fill));
                    break;
                }
                // A merger this engine would undo for want of a president goes on in
                // 18xx.games (its records follow the exchange).
                Ok(events)
                    if events
                        .iter()
                        .any(|e| matches!(e, Event::MergerFailed { .. })) =>
                {
                    self.kept = saved;
                    return Plan::Diverge(no_president_divergence(&m.initiator, &m.partner));
                }
                Ok(_) => fills.push((seat, fill)),
                Err(_) => break,
            }
        }
        if fills.is_empty() {
            self.kept = saved;
            return Plan::Normal;
        }
        // The record itself, mapped in the state after the fills (when it cannot be, nothing
        // is filled: the replay stops at the record as it is).
        let inserted = fills.len();
        match action.to_actions(&sim) {
            Ok(list) if !list.is_empty() => {
                fills.extend(list);
                Plan::Play {
                    actions: fills,
                    inserted,
                }
            }
            _ => {
                self.kept = saved;
                Plan::Normal
            }
        }
    }
}

impl Answers {
    /// Appends to `fills` (applied to `sim` as it goes) the odd-share answers 18xx.games
    /// recorded earlier ([`Answers::kept`]) that this engine asks right after the presidency
    /// was settled: 18xx asks a merger's odd shares before the presidency, this engine after
    /// it (1841 §12.1, R4), so when a holder of 30% pays for a full share and presides, the
    /// others' odd shares, already read, are answered with that record. Were they left for the
    /// next record, the passes 18xx records after the merger for a corporation it froze (its
    /// turn's open steps, 1841 §7.4) would be read while this engine still waits for them
    /// (version_1 + `sfli_run_variant` random 4 players seed 4180, ids 484–488: ICSF frozen
    /// by the merger of SFV, its president). The same when the last holder asked declines the
    /// presidency and the merger goes on to the odd shares (p2p_purchases random 7 players
    /// seed 7135, ids 1126–1128: player 7's `full`, read before, is answered with player 4's
    /// decline, written as SFTN's `cash`; left for the next record, it was CGTF's pass, the
    /// turn that the merger's end closes: "CGTF has no controlling player"). The length of
    /// `fills` afterwards.
    fn fill_kept_odd_shares(&mut self, sim: &mut State, fills: &mut Vec<(Seat, Action)>) -> usize {
        for _ in 0..MAX_FILLED {
            let Some(m) = merger(sim).cloned() else {
                break;
            };
            if !matches!(m.stage, MergerStage::OddShares) {
                break;
            }
            let Some(seat) = open_exchange(sim, &m) else {
                break;
            };
            let asked = m.holders.get(m.next as usize);
            let Some(i) = self.kept.iter().position(|(h, _)| Some(h) == asked) else {
                break;
            };
            let fill = Action::ExchangeOddShare {
                choice: self.kept[i].1,
            };
            if G1841::apply(sim, seat, &fill).is_err() {
                break;
            }
            self.kept.remove(i);
            fills.push((seat, fill));
        }
        fills.len()
    }
}

fn odd_choice(text: Option<&str>) -> OddShareChoice {
    if text == Some("full") {
        OddShareChoice::FullShare
    } else {
        OddShareChoice::Cash
    }
}

/// Whether `action` maps onto a decision this engine has open for its seat now.
fn placeable(state: &State, action: &ImportedAction) -> bool {
    match action.to_actions(state) {
        Ok(list) => list
            .first()
            .is_some_and(|(seat, a)| G1841::legal_actions(state, *seat).iter().any(|l| l == a)),
        Err(_) => false,
    }
}

/// Offers and questions outside a merger's exchange: a `no` or `y` this engine has no
/// question for is dropped; a `yes` it has no offer for, and an action of a corporation
/// without a controlling player, are rules divergences.
fn offer_plan(state: &State, action: &ImportedAction) -> Plan {
    let in_or = matches!(state.round, Round::OperatingRound(_));
    if !in_or {
        return Plan::Normal;
    }
    if let Entity::Corporation(sym) = &action.entity
        && action.kind != "choose"
        && action.kind != "pass"
        && action.kind != "discard_train"
        && state.corporation(sym).is_some_and(|c| c.started())
        && controller(state, sym).is_none()
    {
        return Plan::Diverge(divergence(
            "1841 §7.4",
            format!(
                "rules divergence: {sym} has no controlling player (frozen, 1841 §7.4); this engine \
                 lets a frozen corporation do nothing in its turn, 18xx.games recorded its `{}`",
                action.kind
            ),
        ));
    }
    let Some(text) = choice_text(action) else {
        return Plan::Normal;
    };
    if !matches!(text, "yes" | "no" | "y") || placeable(state, action) {
        return Plan::Normal;
    }
    match text {
        "no" => Plan::Drop("declined offer or question this engine does not make"),
        "y" => Plan::Drop("another round of split purchases this engine closed itself"),
        _ => {
            let tuscan = merger(state).is_some_and(|m| m.tuscan);
            let (rule, what) = if tuscan {
                (
                    "1841 §12.3",
                    "a share of the Tuscan merge's holding offered at its transformation (this \
                     engine's Tuscan merge makes no offers)",
                )
            } else {
                (
                    "1841 §12.4",
                    "a share offered in a purchase round this engine does not hold (a further \
                     split purchase round after one without a sale, or an offer to a holder it \
                     does not ask)",
                )
            };
            Plan::Diverge(divergence(
                rule,
                format!("rules divergence: 18xx.games sells {what}"),
            ))
        }
    }
}

/// The count of a transformation's compulsory second token (`choose`, 1841 §12.2) recorded
/// while this engine's major is still raising the L.50 by emergency money raising: 18xx.games'
/// `BuyNewTokens` takes the count before its `TokenEmergencyMoney` step's sales and sweeps the
/// missing money from the president (`sweep_cash`), where the major first sells at half
/// price what it holds, then its IPO shares, and only then the president pays the rest (§14,
/// FAQ-Q5). The listed divergence `transform-token-president-pays-first`
/// (tests/oracle/divergences.json).
fn token_paid_before_the_emergency_sales(
    state: &State,
    action: &ImportedAction,
) -> Option<ImportFailure> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    let Some(CorporateEvent::Transformation(t)) = r.event.as_deref() else {
        return None;
    };
    let counted = action.kind == "choose"
        && matches!(&action.entity, Entity::Corporation(c) if *c == t.major)
        && action.field("choice").is_some_and(|v| {
            v.as_u64().is_some() || v.as_str().is_some_and(|t| t.parse::<u32>().is_ok())
        });
    if !counted || !crate::g1841::operating_round::events::transform::in_token_emergency(state) {
        return None;
    }
    let cash = state.corporation(&t.major).map_or(0, |c| c.cash);
    Some(divergence(
        "1841 §12.2, §14",
        format!(
            "rules divergence (transform-token-president-pays-first): 18xx.games takes {major}'s \
             compulsory second token and sweeps the missing money from its president, while \
             {major} (L.{cash}) must first sell at half price for it (emergency money raising, \
             FAQ-Q5)",
            major = t.major
        ),
    ))
}

/// R4 (tests/oracle/divergences-import.md): a merger this engine undoes for want of a
/// president goes on in 18xx.games (1841 §12.1).
fn no_president_divergence(initiator: &str, partner: &str) -> ImportFailure {
    divergence(
        "1841 §12.1",
        format!(
            "rules divergence: 18xx.games goes on with the merger of {initiator} and {partner} \
             where this engine undoes it for want of a president (in 18xx.games the first \
             holder of 20% of the new corporation is its president, e.g. one who declined the \
             claim with 30% of the old shares and pays for a full share for his odd one)"
        ),
    )
}

fn divergence(rule: &str, reason: String) -> ImportFailure {
    let r = Rejection::new(RejectionCode::IllegalMove, rule, reason.clone());
    ImportFailure {
        reason,
        rejection: Some(r),
        ..ImportFailure::new(super::failure::FailureKind::Refused, String::new())
    }
}

impl ImportedAction {
    /// `choose` by context (18xx `choice`): the token count of a start (total) or of the split
    /// and a transformation (additional tokens, added to the total owned); `a`/`b` = the first
    /// or second split successor (its presidency, or an odd share); `yes`/`no` = an offered
    /// share bought or declined; `y`/`n` = another purchase round or not; `first`/`last` = the
    /// lower or higher merger price; `pres` = claim the presidency (`no` declines); `full` /
    /// `cash` = an odd merger share completed or sold.
    pub(super) fn choose_action(&self, state: &State) -> Result<Action, ImportError> {
        let bad = |field: &str, reason: String| ImportError::BadAction {
            id: self.id,
            field: field.to_string(),
            reason,
        };
        let raw = self
            .field("choice")
            .ok_or_else(|| bad("choice", "choose without `choice`".into()))?;
        let number = as_whole_number(raw)
            .or_else(|| raw.as_str().and_then(|t| t.parse().ok()))
            .and_then(|n| u32::try_from(n).ok());
        let text = raw.as_str().unwrap_or_default();
        let successors = &data::ruleset(&state.options).ferdinandea_split.successors;
        let successor = |i: usize| successors.get(i).cloned().unwrap_or_default();
        let event = match &state.round {
            Round::OperatingRound(r) => r.event.as_deref(),
            _ => None,
        };
        let total = |sym: &str| state.corporation(sym).map_or(0, |c| c.tokens_total);
        Ok(match event {
            Some(CorporateEvent::Split(s)) => match (s.stage, text, number) {
                (SplitStage::Presidency, "a" | "b", _) => Action::ChooseSplitPresidency {
                    corporation: successor(usize::from(text == "b")),
                },
                (SplitStage::SingleShares, "a" | "b", _) => Action::ExchangeSplitShare {
                    corporation: successor(usize::from(text == "b")),
                },
                (SplitStage::Purchases, "yes", _) => Action::BuyShares {
                    corporation: s.corporation.clone(),
                    from_pool: false,
                    percent: state
                        .corporation(&s.corporation)
                        .map_or(10, |c| c.unit_percent()),
                },
                (SplitStage::Purchases, "no", _) => Action::Pass,
                (SplitStage::RepeatRound, "y" | "n", _) => Action::RepeatPurchaseRound {
                    repeat: text == "y",
                },
                (SplitStage::Tokens, _, Some(n)) => Action::BuyTokens {
                    count: total(&s.corporation) + n,
                },
                _ => {
                    return Err(bad(
                        "choice",
                        format!("choice {raw} does not fit the split"),
                    ));
                }
            },
            Some(CorporateEvent::Merger(m)) => match (m.stage, text) {
                (MergerStage::Price, "first" | "last") => {
                    let mut prices: Vec<i64> = m
                        .price_choices
                        .iter()
                        .filter_map(|c| market::price_at(c.row, c.col))
                        .collect();
                    prices.sort_unstable();
                    let price = if text == "first" {
                        prices.first()
                    } else {
                        prices.last()
                    };
                    Action::ChooseMergerPrice {
                        price: price.copied().unwrap_or(0),
                    }
                }
                (MergerStage::Presidency, "pres" | "no") => Action::ClaimPresidency {
                    claim: text == "pres",
                },
                // A holder of 30% paying for a full share in the sweep over odd shares: he
                // reaches 20% and presides (1841 §12.1, R4).
                (MergerStage::Presidency, "full") => Action::ExchangeOddShare {
                    choice: OddShareChoice::FullShare,
                },
                (MergerStage::OddShares, "full" | "cash") => Action::ExchangeOddShare {
                    choice: if text == "full" {
                        OddShareChoice::FullShare
                    } else {
                        OddShareChoice::Cash
                    },
                },
                _ => {
                    return Err(bad(
                        "choice",
                        format!("choice {raw} does not fit the merger"),
                    ));
                }
            },
            Some(CorporateEvent::Transformation(t)) => match (t.stage, text, number) {
                (1 | 2, "yes", _) => Action::BuyShares {
                    corporation: t.major.clone(),
                    from_pool: false,
                    percent: 10,
                },
                (1 | 2, "no", _) => Action::Pass,
                (_, _, Some(n)) => Action::BuyTokens {
                    count: total(&t.major) + n,
                },
                _ => {
                    return Err(bad(
                        "choice",
                        format!("choice {raw} does not fit the transformation"),
                    ));
                }
            },
            None => Action::BuyTokens {
                count: number
                    .ok_or_else(|| bad("choice", "choose without an integer `choice`".into()))?,
            },
        })
    }
}
