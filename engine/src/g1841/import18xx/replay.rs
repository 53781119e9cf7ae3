//! The replay of an export through the engine ([`replay`]): sets up the game, maps and applies
//! each effective record, drops the records of steps this engine skips ([`super::dropped`],
//! [`super::passes`]), inserts the passes and answers 18xx.games had no record for, and
//! compares the result with the recorded one.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use super::choose;
use super::dropped::{
    discard_without_controller, merger_second_city_removal, pass_after_turn, repeat_round_declined,
    second_home_pass, skipped_record, step_18xx_skipped, stock_round_last_pass,
    token_count_by_player,
};
use super::failure::{FailureKind, ImportFailure};
use super::followed::{UnrecordedPool, ledger_player_seller, slot_seller};
use super::parse::parse_export;
use super::passes::{PlayedThroughPasses, TokenStepPasses, TrackStep, TurnEndPasses};
use super::{Entity, Export, Field, ImportedAction, as_whole_number, is_ignored};
use crate::g1841::G1841;
use crate::g1841::action::{Action, Event};
use crate::g1841::data;
use crate::g1841::share_ledger::{Ledger, TokenSlots, reserved_slots, waiting_homes};
use crate::g1841::state::{CorporateEvent, Round, ShareOwner, State};
use crate::g1841::token_slots::retiled_hexes;
use crate::{Game, Outcome, Seat};

/// Options of [`replay`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplaySettings {
    /// Compare the final result and game-end reason with the recorded ones.
    pub check: bool,
    /// Stop after the effective actions with an id up to this one (and the automatic actions
    /// recorded with them): the state 18xx.games shows at `?action=<id>`.
    pub stop_at_action_id: Option<i64>,
}

/// The first difference [`replay`]'s check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// `finished`, `game_end_reason` or `result.<player id>`.
    pub field: String,
    /// Our value (`None` when we have none).
    pub ours: Option<Value>,
    /// The recorded value.
    pub recorded: Option<Value>,
    /// One sentence.
    pub reason: String,
}

/// A record of an export the replay accepted and dropped (a step this engine skips or a
/// decision it takes itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DroppedRecord {
    /// The 18xx action id (for an element of `auto_actions`, the id of the carrying action).
    pub action_id: Option<i64>,
    /// Index among the effective actions, from 0.
    pub index: usize,
    /// `pass` or `choose`.
    pub action_type: String,
    /// Whether it came from `auto_actions`.
    pub auto: bool,
    /// Which step or decision it belongs to, in a few words.
    pub reason: &'static str,
}

/// The record `action`, the effective action `index` of 18xx id `record_id` (the carrying
/// action's for an element of `auto_actions`), accepted and dropped for `reason`.
fn dropped_record(
    record_id: Option<i64>,
    index: usize,
    action: &ImportedAction,
    reason: &'static str,
) -> DroppedRecord {
    DroppedRecord {
        action_id: record_id,
        index,
        action_type: action.kind.clone(),
        auto: action.auto,
        reason,
    }
}

/// A game replayed from an export.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replayed {
    /// The parsed export (`None` when the text could not be read).
    pub export: Option<Export>,
    /// The state after the last applied action (`None` when no game could be set up).
    pub state: Option<State>,
    /// Game actions of the export (effective actions without [`is_ignored`] ones).
    pub actions_total: usize,
    /// The engine actions applied, with their seats, in order.
    pub actions: Vec<(Seat, Action)>,
    /// Recorded passes for a step this engine skips, accepted and dropped: 18xx.games' track
    /// step, which opens every corporation's turn even when no tile can be laid (a `pass` as
    /// the corporation's first record while this engine has moved past its track step), and
    /// the optional second home token of a non-historical major when no city of its region
    /// has a free slot.
    pub passes_dropped: usize,
    /// Recorded records of steps this engine skips or decides itself, accepted and dropped,
    /// besides [`Replayed::passes_dropped`]: 18xx.games' automatic `pass` of a step this
    /// engine does not open (the token purchase from another corporation with nothing to buy),
    /// a major's `pass` ending a track step 18xx.games keeps open for further lays this
    /// engine has no legal lay for, and a corporation's token count (`choose`) this engine
    /// settled itself (a single possible count). Each is listed in [`Replayed::dropped`].
    pub records_dropped: usize,
    /// Passes this engine's replay added for optional steps it opens where 18xx.games offered
    /// nothing and so recorded nothing (a corporation's share step, a merger or
    /// transformation offer, a token step, a further train purchase): the next record is for a
    /// later step or the next corporation ([`step_18xx_skipped`]).
    pub passes_inserted: usize,
    /// Answers of corporate events this engine asks and 18xx.games settled by itself, added
    /// before the record that follows them ([`choose`]): a merger's presidency not claimed, an
    /// odd merger share sold for cash (18xx.games had no other option there).
    pub choices_inserted: usize,
    /// Every dropped record (passes and choices), in order: 18xx action id (of the carrying
    /// action for an automatic one), type, and why.
    pub dropped: Vec<DroppedRecord>,
    /// For each applied action, the id of the record it comes from (for an element of
    /// `auto_actions`, the id of the action that carries it; `None` before any id).
    pub action_ids: Vec<Option<i64>>,
    /// Our result once the game has ended (scores by seat, end reason).
    pub outcome: Option<Outcome>,
    /// The game ended and every action was applied.
    pub finished: bool,
    /// The replay stopped at [`ReplaySettings::stop_at_action_id`].
    pub stopped_at_limit: bool,
    /// Why the replay stopped early.
    pub failure: Option<ImportFailure>,
    /// With [`ReplaySettings::check`]: the first difference from the recorded result (`None`
    /// inside = identical). Not set without the check.
    pub check: Option<Option<Difference>>,
    /// The replay stopped because its caller went away ([`crate::interrupt::cancelled`],
    /// looked at before every action); the rest of the answer is of no use.
    pub cancelled: bool,
}

/// Replays an 18xx.games export of 1841 through the engine: parses it ([`parse_export`]),
/// sets up the game with its players (seat order = `players` order) and options, maps each
/// effective game action ([`ImportedAction::to_action`]) and applies it, stopping at the first
/// action that cannot be read, is unknown or is refused (`failure`), or after
/// `stop_at_action_id`. With `check`, compares our result and end reason with the recorded
/// ones. Pure and total: every problem is a [`ImportFailure`], never a panic. Shared by the
/// `referee replay-18xx` command and the `ImportGame` RPC.
pub fn replay(text: &str, settings: &ReplaySettings) -> Replayed {
    let mut out = Replayed::default();
    let export = match parse_export(text) {
        Ok(e) => e,
        Err(e) => {
            out.failure = Some(ImportFailure::from_error(&e));
            return out;
        }
    };
    out.actions_total = export
        .actions
        .iter()
        .filter(|a| !is_ignored(&a.kind))
        .count();
    if !export.title.is_empty() && export.title != "1841" {
        out.failure = Some(ImportFailure {
            field: Some("title".into()),
            ..ImportFailure::new(
                FailureKind::UnsupportedGame,
                format!(
                    "the export is a game of `{}`; this build imports 1841 only",
                    export.title
                ),
            )
        });
        out.export = Some(export);
        return out;
    }
    let setup = match export.options() {
        Err(e) => Err(ImportFailure::from_error(&e)),
        Ok(options) => {
            let seats = u32::try_from(export.players.len()).unwrap_or(u32::MAX);
            // Seats are found by player id: two players with one id cannot be told apart.
            // (One pass: an export of 100,000 players took minutes comparing each with
            // each before its seat count was refused; issue #24.)
            let mut seen = std::collections::HashMap::with_capacity(export.players.len());
            let duplicate = export.players.iter().enumerate().find_map(|(i, p)| {
                let first = *seen.entry(p.id.as_str()).or_insert(i);
                (first < i).then(|| (first, i, p.id.clone()))
            });
            match duplicate {
                Some((first, i, id)) => Err(ImportFailure {
                    field: Some(format!("players[{i}].id")),
                    ..ImportFailure::new(
                        FailureKind::Setup,
                        format!(
                            "players[{i}] has the id `{id}` of players[{first}]; every player needs \
                             its own id (actions name their player by id)"
                        ),
                    )
                }),
                None => G1841::setup(&options, seats, 0).map_err(|e| ImportFailure {
                    field: Some("players".into()),
                    ..ImportFailure::new(FailureKind::Setup, e.to_string())
                }),
            }
        }
    };
    let mut state = match setup {
        Ok(s) => s,
        Err(f) => {
            out.failure = Some(f);
            out.export = Some(export);
            return out;
        }
    };
    let mut record_id = None;
    let mut track = TrackStep::default();
    let mut turn_end = TurnEndPasses::default();
    let mut token_step = TokenStepPasses::default();
    let mut played_through = PlayedThroughPasses::default();
    // The major whose compulsory second token the last action bought (a transformation's
    // token step open, 1841 §12.2).
    let mut compulsory: Option<String> = None;
    // The major whose transformation the last action ended right after buying its compulsory
    // second token (18xx still asks its count, [`transformation_settled`]).
    let mut settled: Option<String> = None;
    // The last record applied (index into the export's actions).
    let mut previous: Option<usize> = None;
    // A pass of 18xx's track step dropped since (index): the record before a pass of 18xx's
    // token step, which follows the track step (1841 §9.2).
    let mut track_passed: Option<usize> = None;
    let mut unrecorded_pool = UnrecordedPool::default();
    // 18xx's token slots, which a genuine `buy_token` names its seller by (1841 §9.5).
    let mut token_slots = TokenSlots::default();
    let mut located = TokenSlots::locate(&state);
    // 18xx's share ids over the replay (the certificates exchanges put in the pool).
    let mut ledger = Ledger::new(&state);
    let mut answers = choose::Answers::default();
    if export.referee_export {
        answers.referee_export();
    }
    for (index, recorded) in export.actions.iter().enumerate() {
        // A purchase of a certificate a start's automatic sale put in the pool (1841 §5.4);
        // a token purchase from 18xx's slot.
        let marked;
        let action = if unrecorded_pool.buys_from_it(recorded) {
            let mut a = recorded.clone();
            a.from_pool = Some(true);
            marked = a;
            &marked
        } else if let Some(seller) = (!export.referee_export)
            .then(|| ledger_player_seller(&ledger, &state, recorded))
            .flatten()
        {
            let mut a = recorded.clone();
            a.from_player = Some(seller);
            marked = a;
            &marked
        } else if let Some(seller) = slot_seller(&token_slots, &state, recorded) {
            let mut a = recorded.clone();
            a.fields.set(Field::RefereeSeller, Value::from(seller));
            marked = a;
            &marked
        } else {
            recorded
        };
        if action.id.is_some() && !action.auto {
            record_id = action.id;
        }
        if is_ignored(&action.kind) {
            continue;
        }
        if crate::interrupt::cancelled() {
            out.cancelled = true;
            break;
        }
        if let Some(reason) = played_through
            .drops(action)
            .or_else(|| turn_end.drops(action))
        {
            out.records_dropped += 1;
            out.dropped
                .push(dropped_record(record_id, index, action, reason));
            continue;
        }
        let track_pass = track.drops(&state, action);
        if track_pass.is_some() {
            track_passed = Some(index);
        }
        if let Some(reason) = track_pass
            .or_else(|| second_home_pass(&state, action))
            .or_else(|| token_count_by_player(&state, action))
            .or_else(|| discard_without_controller(&state, action))
            .or_else(|| repeat_round_declined(&state, action))
            .or_else(|| merger_second_city_removal(&state, action))
        {
            out.passes_dropped += 1;
            out.dropped
                .push(dropped_record(record_id, index, action, reason));
            continue;
        }
        if let Some(reason) = token_step
            .drops(&state, action)
            .or_else(|| {
                pass_after_turn(&state, action, previous.and_then(|i| export.actions.get(i)))
            })
            .or_else(|| stock_round_last_pass(&state, action, &played_through.due))
        {
            out.records_dropped += 1;
            out.dropped
                .push(dropped_record(record_id, index, action, reason));
            continue;
        }
        if let (Some(stop), Some(id)) = (settings.stop_at_action_id, action.id)
            && id > stop
        {
            out.stopped_at_limit = true;
            break;
        }
        // Corporate-event answers in this engine's order, or dropped, or a rules divergence
        // ([`choose`]).
        let mut inserted = 0;
        let planned = match answers.plan(&state, action) {
            choose::Plan::Normal => None,
            choose::Plan::Drop(reason) => {
                out.records_dropped += 1;
                out.dropped
                    .push(dropped_record(record_id, index, action, reason));
                continue;
            }
            choose::Plan::Diverge(f) => {
                out.failure = Some(f.at(index, action));
                break;
            }
            choose::Plan::Play {
                actions,
                inserted: n,
            } => {
                inserted = n;
                Some(actions)
            }
        };
        // A purchase from another player replays as the offer and its acceptance (1841 §15.3).
        let mapped = match planned {
            Some(list) => Ok(list),
            None => action.to_actions(&state),
        };
        let failure = match mapped {
            Err(e) => ImportFailure::from_error(&e).at(index, action),
            Ok(list) if list.is_empty() => ImportFailure {
                field: Some("type".into()),
                ..ImportFailure::new(
                    FailureKind::UnknownActionType,
                    format!(
                        "action type `{}` is not supported by this build (not an 1841 action it knows)",
                        action.kind
                    ),
                )
            }
            .at(index, action),
            Ok(mut list) => {
                // 18xx's count of a transformation's tokens includes the compulsory second
                // token this engine bought when the step began (1841 §12.2).
                if let (Some(major), [(_, Action::BuyTokens { count })]) =
                    (compulsory.as_deref(), list.as_mut_slice())
                    && matches!(&state.round, Round::OperatingRound(r)
                        if matches!(r.event.as_deref(),
                            Some(CorporateEvent::Transformation(t)) if t.major == major))
                {
                    *count = count.saturating_sub(1);
                }
                let mut refused;
                let mut filled = 0;
                loop {
                    refused = None;
                    for (seat, a) in &list {
                        let pre = matches!(state.round, Round::OperatingRound(_))
                            .then(|| state.clone());
                        // 18xx's ids the bankrupt holds before his sales (1841 §14).
                        let bankrupt_ids = match a {
                            Action::DeclareBankruptcy { .. } => {
                                ledger.held_by(&ShareOwner::Player(*seat))
                            }
                            _ => Vec::new(),
                        };
                        // The home reservations holding before the action ([`reserved_slots`]).
                        let waiting = waiting_homes(&state);
                        match G1841::apply(&mut state, *seat, a) {
                            Ok(events) => {
                                turn_end.applied(pre.as_ref(), &state, a);
                                played_through.applied(&state, &events);
                                token_step.applied(pre.as_ref(), &state);
                                answers.applied(&events);
                                let now = TokenSlots::locate(&state);
                                token_slots.follow(
                                    &located,
                                    &now,
                                    &pre.as_ref()
                                        .map(|p| retiled_hexes(p, &state))
                                        .unwrap_or_default(),
                                    matches!(a, Action::BuyToken { .. }),
                                    &events,
                                    &|hex, city| reserved_slots(&state, &waiting, hex, city),
                                );
                                located = now;
                                if let Some(pre) = &pre {
                                    ledger.merger_treasury(pre, &state, &events);
                                }
                                if !export.referee_export && list.len() == 1 {
                                    unrecorded_pool.followed(
                                        &mut ledger,
                                        &state,
                                        action,
                                        a,
                                        &events,
                                    );
                                } else {
                                    ledger.settle(&state);
                                }
                                compulsory = compulsory_token(&state, &events);
                                settled = transformation_settled(pre.as_ref(), &state, a, &events);
                                match a {
                                    Action::BuyTokens { .. } => {
                                        unrecorded_pool.tokens_bought(&state, &events)
                                    }
                                    Action::DeclareBankruptcy { .. } => {
                                        unrecorded_pool.bankrupt(*seat, bankrupt_ids)
                                    }
                                    _ => {}
                                }
                                out.actions.push((*seat, a.clone()));
                                out.action_ids.push(record_id);
                            }
                            Err(r) => {
                                refused = Some(r);
                                break;
                            }
                        }
                    }
                    // An optional step this engine opens and 18xx.games did not (it offered
                    // nothing there): the record is for a later step or the next
                    // corporation; the step is passed and the record tried again.
                    let Some(r) = &refused else { break };
                    let Some(seat) = (filled < 4 && list.len() == 1)
                        .then(|| step_18xx_skipped(&state, action, r))
                        .flatten()
                    else {
                        break;
                    };
                    if G1841::apply(&mut state, seat, &Action::Pass).is_err() {
                        break;
                    }
                    filled += 1;
                    out.actions.push((seat, Action::Pass));
                    out.action_ids.push(record_id);
                    out.passes_inserted += 1;
                    match action.to_actions(&state) {
                        Ok(l) if !l.is_empty() => list = l,
                        _ => break,
                    }
                }
                let Some(r) = refused else {
                    out.choices_inserted += inserted;
                    unrecorded_pool.applied(action);
                    previous = Some(index);
                    track_passed = None;
                    continue;
                };
                let before = track_passed.or(previous).and_then(|i| export.actions.get(i));
                if let Some(reason) = skipped_record(&state, action, before, &r, &played_through.due).or_else(|| {
                    (r.code == crate::RejectionCode::GameOver
                        && is_token_count_of(action, settled.as_deref()))
                    .then_some("token count this engine settled itself, the game's end")
                }) {
                    out.records_dropped += 1;
                    out.dropped.push(dropped_record(record_id, index, action, reason));
                    continue;
                }
                ImportFailure {
                    reason: r.message.clone(),
                    rejection: Some(r),
                    ..ImportFailure::new(FailureKind::Refused, String::new())
                }
                .at(index, action)
            }
        };
        out.failure = Some(failure);
        break;
    }
    out.outcome = G1841::outcome(&state);
    out.finished = out.outcome.is_some() && out.failure.is_none();
    if settings.check {
        out.check = Some(first_difference(&export, &out));
    }
    out.state = Some(state);
    out.export = Some(export);
    out
}

/// The major of the transformation whose token count is asked now when `events` (of the
/// action just applied) bought its compulsory second token (1841 §12.2, L.50): 18xx.games'
/// count (`transform_tokens`, `min` 1) then includes that token.
fn compulsory_token(state: &State, events: &[Event]) -> Option<String> {
    let Round::OperatingRound(r) = &state.round else {
        return None;
    };
    let Some(CorporateEvent::Transformation(t)) = r.event.as_deref() else {
        return None;
    };
    let price = data::ruleset(&state.options)
        .token_prices
        .transformation_required_second_token;
    events
        .iter()
        .any(|e| {
            matches!(e, Event::TokensBought { corporation, count: 2, price: p }
                if *corporation == t.major && *p == price)
        })
        .then(|| t.major.clone())
}

/// The major whose transformation ended with `action` (`pre → post`, `events`) as soon as its
/// compulsory second token was bought (1841 §12.2, L.50: no further token affordable, so this
/// engine asks no count), where 18xx.games still asks its count (`transform_tokens`, `min` =
/// `max` = 1) and the writer adds that `choose 1` after the action (`Writer::compulsory_token`
/// in [`crate::g1841::export18xx`], whose test this is). The importer drops it again: refused "in
/// the wrong step" ([`skipped_record`]), or "the game is over" when the action also ended the game
/// (heuristic 7 players seed 7177, 18xx id 2106: ATFA's count after SLDV's transformation, the
/// bank broken and the last operating round over; [`is_token_count_of`]).
fn transformation_settled(
    pre: Option<&State>,
    post: &State,
    action: &Action,
    events: &[Event],
) -> Option<String> {
    let transformation = |s: &State| match &s.round {
        Round::OperatingRound(r) => match r.event.as_deref() {
            Some(CorporateEvent::Transformation(t)) => Some(t.major.clone()),
            _ => None,
        },
        _ => None,
    };
    if transformation(post).is_some() {
        return None;
    }
    let bought = crate::g1841::export18xx::compulsory_token_bought(post, events)?;
    let ours = matches!(action, Action::Transform { .. })
        || pre.and_then(transformation).as_ref() == Some(&bought);
    ours.then_some(bought)
}

/// Whether `action` is a token count (`choose` with a number) of the corporation `major`.
fn is_token_count_of(action: &ImportedAction, major: Option<&str>) -> bool {
    action.kind == "choose"
        && matches!((&action.entity, major), (Entity::Corporation(c), Some(m)) if c == m)
        && action.field("choice").is_some_and(|c| {
            as_whole_number(c).is_some() || c.as_str().is_some_and(|t| t.parse::<u32>().is_ok())
        })
}

/// The first difference between our replay and the recorded `game_end_reason` and `result`.
fn first_difference(export: &Export, replayed: &Replayed) -> Option<Difference> {
    let Some(outcome) = replayed.outcome.as_ref().filter(|_| replayed.finished) else {
        return Some(Difference {
            field: "finished".into(),
            ours: Some(Value::Bool(false)),
            recorded: Some(Value::Bool(export.game_end_reason.is_some())),
            reason: match &replayed.failure {
                Some(f) => format!("the replay did not reach the end of the game: {f}"),
                None => "the replay did not reach the end of the game".into(),
            },
        });
    };
    if export.game_end_reason.as_deref() != Some(outcome.end_reason.as_str()) {
        return Some(Difference {
            field: "game_end_reason".into(),
            ours: Some(Value::from(outcome.end_reason.clone())),
            recorded: export.game_end_reason.clone().map(Value::from),
            reason: "the game ended for another reason".into(),
        });
    }
    let ours: BTreeMap<&str, i64> = export
        .players
        .iter()
        .map(|p| p.id.as_str())
        .zip(outcome.scores.iter().copied())
        .collect();
    let ids = export
        .result
        .keys()
        .map(String::as_str)
        .chain(ours.keys().copied());
    for id in ids.collect::<BTreeSet<_>>() {
        let (a, b) = (ours.get(id), export.result.get(id));
        if a != b {
            return Some(Difference {
                field: format!("result.{id}"),
                ours: a.map(|v| Value::from(*v)),
                recorded: b.map(|v| Value::from(*v)),
                reason: format!("player {id} ends with another value"),
            });
        }
    }
    None
}
