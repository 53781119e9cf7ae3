//! Body of the fuzz target `validated_states` (docs/FUZZING.md; issue #24): **a state the
//! validator accepts never makes any call panic, and every legal action of it yields a state
//! the validator accepts** — for both games.
//!
//! Random bytes rarely decode to a state the validator accepts, so this target mutates valid
//! states by their structure: a state of the golden corpus or a fresh setup played on a few
//! legal actions is written as proto3 JSON, one to four nodes of its tree are changed (a list
//! emptied, shortened or an element duplicated; a number set to 0, 1, −1, a neighbour or a large
//! value; a flag flipped; a text emptied; a field removed), and the result is read back. When
//! the service's decoding accepts it, [`check_rule`] runs every call on it.

use std::time::{Duration, Instant};

use referee_engine::Game;
use referee_service::games::{
    self, WireGame, autobahn::WireAutobahn, decode_state, encode_state, g1841::Wire1841,
};
use referee_service::pb::v1 as pb;
use referee_service::work::Cancel;
use serde_json::Value;

use crate::fuzzing::{Bytes, exercise, golden_states};

/// Legal actions applied per seat (evenly spread over the list when there are more).
const ACTIONS_PER_SEAT: usize = 24;

/// Target `validated_states`: a valid state from the bytes, mutated by its structure, then
/// [`check_rule`]. Returns whether the service accepted the mutated state (so tests can check
/// that the rule was put to work).
pub fn fuzz_validated(data: &[u8]) -> bool {
    let mut bytes = Bytes::new(data);
    let Some(gs) = base_state(&mut bytes) else {
        return false;
    };
    let Ok(mut json) = serde_json::to_value(&gs) else {
        return false;
    };
    for _ in 0..1 + bytes.byte() % 4 {
        for game in ["g1841", "autobahn"] {
            if let Some(typed) = json.get_mut(game) {
                mutate(typed, &mut bytes);
            }
        }
    }
    match serde_json::from_value::<pb::GameState>(json) {
        Ok(gs) => check_rule(&gs),
        Err(_) => false,
    }
}

/// A valid state: one of the golden corpus, or a fresh setup of either game played on up to
/// 40 legal actions chosen by the bytes.
fn base_state(bytes: &mut Bytes<'_>) -> Option<pb::GameState> {
    match bytes.byte() % 3 {
        0 => {
            let golden = golden_states();
            golden.get(bytes.below(golden.len())).cloned()
        }
        1 => {
            let options = crate::fuzzing::options_1841(bytes);
            let seats = 3 + u32::from(bytes.byte() % 6);
            let s = referee_engine::g1841::G1841::setup(&options, seats, 0).ok()?;
            Some(walk::<Wire1841>(s, bytes))
        }
        _ => {
            let options = referee_engine::autobahn::Options {
                autobot_level: 1 + u32::from(bytes.byte() % 12),
                ..Default::default()
            };
            let seats = 1 + u32::from(bytes.byte() % 4);
            let s =
                referee_engine::autobahn::Autobahn::setup(&options, seats, u64::from(bytes.byte()))
                    .ok()?;
            Some(walk::<WireAutobahn>(s, bytes))
        }
    }
}

/// Plays up to 40 legal actions chosen by the bytes, then encodes the state.
fn walk<W: WireGame>(mut state: <W::G as Game>::State, bytes: &mut Bytes<'_>) -> pb::GameState {
    let steps = bytes.byte() % 41;
    for _ in 0..steps {
        let to_act = W::G::to_act(&state);
        if to_act.is_empty() {
            break;
        }
        let seat = to_act[bytes.below(to_act.len())];
        let legal = W::G::legal_actions(&state, seat);
        if legal.is_empty()
            || W::G::apply(&mut state, seat, &legal[bytes.below(legal.len())]).is_err()
        {
            break;
        }
    }
    encode_state::<W>(&state, u64::from(steps))
}

/// Changes one node of `v`, chosen by a walk down the tree.
fn mutate(v: &mut Value, bytes: &mut Bytes<'_>) {
    // Go down while the bytes say so and there is somewhere to go.
    let descend = !bytes.byte().is_multiple_of(8);
    match v {
        Value::Object(map) if descend && !map.is_empty() => {
            let k = bytes.below(map.len());
            let key = map.keys().nth(k).cloned().unwrap_or_default();
            if bytes.byte().is_multiple_of(16) {
                map.remove(&key);
            } else if let Some(child) = map.get_mut(&key) {
                mutate(child, bytes);
            }
        }
        Value::Array(items) if descend && !items.is_empty() && !bytes.byte().is_multiple_of(4) => {
            let i = bytes.below(items.len());
            mutate(&mut items[i], bytes);
        }
        Value::Array(items) => match bytes.byte() % 4 {
            0 => items.clear(),
            1 => {
                let i = bytes.below(items.len().max(1));
                if i < items.len() {
                    items.remove(i);
                }
            }
            2 => {
                if let Some(x) = items.get(bytes.below(items.len().max(1))).cloned() {
                    items.push(x);
                }
            }
            _ => {
                if let Some(last) = items.len().checked_sub(1) {
                    items.swap(0, last);
                }
            }
        },
        Value::Number(n) => {
            let x = n.as_i64().unwrap_or(0);
            *v = Value::from(number(x, bytes));
        }
        // pbjson writes 64-bit integers as strings.
        Value::String(s) if s.parse::<i64>().is_ok() => {
            let x = s.parse::<i64>().unwrap_or(0);
            *v = Value::String(number(x, bytes).to_string());
        }
        Value::String(s) => {
            if bytes.byte().is_multiple_of(2) {
                s.clear();
            } else {
                s.push('X');
            }
        }
        Value::Bool(b) => *b = !*b,
        _ => {}
    }
}

fn number(x: i64, bytes: &mut Bytes<'_>) -> i64 {
    match bytes.byte() % 8 {
        0 => 0,
        1 => 1,
        2 => -1,
        3 => x.saturating_add(1),
        4 => x.saturating_sub(1),
        5 => 1_000_000,
        6 => i64::from(bytes.byte()),
        _ => x.saturating_mul(2),
    }
}

/// The rule, on an envelope: when the service's decoding (with the game's validator) accepts
/// it, [`rule`] for that game. Panics on a breach; returns whether the state was accepted.
pub fn check_rule(gs: &pb::GameState) -> bool {
    if let Ok(s) = decode_state::<Wire1841>(gs) {
        rule::<Wire1841>(gs, s, referee_engine::g1841::check_invariants);
        return true;
    }
    if let Ok(s) = decode_state::<WireAutobahn>(gs) {
        rule::<WireAutobahn>(gs, s, referee_engine::autobahn::check_invariants);
        return true;
    }
    false
}

/// Every call on an accepted state (queries, views, legal actions, DefaultAction, Describe, a
/// short Playout, SuggestRoutes), none may panic; then up to [`ACTIONS_PER_SEAT`] legal
/// actions of every seat to act, each applied to a copy: it must be accepted, and the new
/// state must pass the invariant checker and the service's decoding of its own encoding.
pub fn rule<W: WireGame>(
    gs: &pb::GameState,
    state: <W::G as Game>::State,
    check: fn(&<W::G as Game>::State) -> Result<(), referee_engine::InvariantViolation>,
) {
    exercise::<W>(&state);
    let seats = W::seat_count(&state);
    for seat in 0..=seats {
        for (policy, sees_secrets) in [(1, true), (2, true), (2, false)] {
            let _ = games::default_action::<W>(
                gs,
                &pb::DefaultActionRequest {
                    seat,
                    policy,
                    seed: 7,
                    ..Default::default()
                },
                sees_secrets,
            );
        }
        let first = W::G::legal_actions(&state, seat.min(seats.saturating_sub(1)))
            .first()
            .map(|a| W::action_to_pb(a));
        let _ = games::describe::<W>(
            gs,
            &pb::DescribeRequest {
                seat,
                action: first,
                ..Default::default()
            },
        );
    }
    let _ = games::playout::<W>(
        gs,
        &pb::PlayoutRequest {
            games: 1,
            max_actions: 60,
            seed: 3,
            ..Default::default()
        },
        Instant::now() + Duration::from_secs(5),
        &Cancel::new(),
    );
    if W::ID == Wire1841::ID {
        let _ = games::g1841::suggest_routes(
            gs,
            &pb::SuggestRoutesRequest {
                work_budget: 20_000,
                ..Default::default()
            },
        );
    }
    for seat in W::G::to_act(&state) {
        let legal = W::G::legal_actions(&state, seat);
        let stride = legal.len().div_ceil(ACTIONS_PER_SEAT).max(1);
        for action in legal.iter().step_by(stride) {
            let mut next = state.clone();
            if let Err(r) = W::G::apply(&mut next, seat, action) {
                panic!("listed legal action {action:?} of seat {seat} refused: {r}");
            }
            if let Err(v) = check(&next) {
                panic!("legal action {action:?} of seat {seat} broke an invariant: {v}");
            }
            if W::check_encodable(&next).is_ok() {
                let out = encode_state::<W>(&next, gs.action_count.saturating_add(1));
                if let Err(e) = decode_state::<W>(&out) {
                    panic!(
                        "legal action {action:?} of seat {seat} gave a state the validator refuses: {}",
                        e.message()
                    );
                }
            }
        }
    }
}
