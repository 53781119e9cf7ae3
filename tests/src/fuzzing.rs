//! The bodies of the fuzz targets (`fuzz/`, docs/FUZZING.md), here so that the stable
//! workspace builds and lints them and the normal test suite replays every crash input found
//! (`tests/fuzz-regressions/TARGET/*`, test `fuzz_regressions`).
//!
//! The targets drive the service's own code paths (the ones every RPC takes) without the
//! transport and without `Api`'s panic guard, so a panic anywhere is a crash libFuzzer reports.

use std::sync::OnceLock;

use prost::Message;
use referee_engine::autobahn::Autobahn;
use referee_engine::g1841::G1841;
use referee_engine::{Game, Seat};
use referee_service::games::autobahn::WireAutobahn;
use referee_service::games::g1841::Wire1841;
use referee_service::games::{WireGame, decode_state, encode_state};
use referee_service::pb::v1 as pb;

/// Reads fuzz bytes as a stream of choices; yields zeros once exhausted.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }
    /// Whether every byte was read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// The next byte (0 when exhausted).
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((b, rest)) => {
                self.data = rest;
                *b
            }
            None => 0,
        }
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let v = (usize::from(self.byte()) << 8) | usize::from(self.byte());
        v % n
    }
    /// Up to `n` raw bytes.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        head
    }
}

/// The golden corpus (`tests/golden/*.pb`): encoded state envelopes of both games, decoded once.
pub fn golden_states() -> &'static [pb::GameState] {
    static STATES: OnceLock<Vec<pb::GameState>> = OnceLock::new();
    STATES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|x| x == "pb"));
        files.sort();
        files
            .iter()
            .filter_map(|p| std::fs::read(p).ok())
            .filter_map(|b| pb::GameState::decode(b.as_slice()).ok())
            .collect()
    })
}

/// Every query a caller can make on a decoded state, for every seat (and one past the table):
/// none may panic; results are not judged.
pub fn exercise<W: WireGame>(state: &<W::G as Game>::State) {
    let seats = W::seat_count(state);
    let _ = W::G::to_act(state);
    let _ = W::G::outcome(state);
    let _ = W::G::view(state, referee_engine::Viewer::Spectator);
    for seat in 0..seats {
        let _ = W::G::view(state, referee_engine::Viewer::Seat(seat));
        let _ = W::legal_actions_pb(state, seat);
    }
    let _ = W::legal_actions_pb(state, seats);
}

/// Encodes `state` and decodes it again: an accepted state must always decode (the service
/// would refuse its own output otherwise) and come back equal.
pub fn round_trip<W: WireGame>(state: &<W::G as Game>::State, what: &str) {
    if W::check_encodable(state).is_err() {
        return;
    }
    let gs = encode_state::<W>(state, 1);
    let back = pb::GameState::decode(gs.encode_to_vec().as_slice())
        .unwrap_or_else(|e| panic!("{what}: own encoding does not parse: {e}"));
    match decode_state::<W>(&back) {
        Ok(s) => assert!(&s == state, "{what}: state changed by encode + decode"),
        Err(e) => panic!("{what}: own state refused on decode: {}", e.message()),
    }
}

/// Plays on from `state`: each step either applies a legal action of a seat to act (it must be
/// accepted) or a malformed one: a legal action's wire encoding with bytes overwritten, or
/// arbitrary bytes decoded as an action, by any seat. A rejection must leave the state unchanged;
/// an acceptance must yield a state that passes the invariant checker and survives encode +
/// decode. At most `max_steps` steps.
pub fn play<W: WireGame>(
    mut state: <W::G as Game>::State,
    bytes: &mut Bytes<'_>,
    max_steps: usize,
    check: fn(&<W::G as Game>::State) -> Result<(), referee_engine::InvariantViolation>,
) {
    for _ in 0..max_steps {
        if bytes.is_empty() {
            break;
        }
        let to_act = W::G::to_act(&state);
        let seats = W::seat_count(&state);
        let mode = bytes.byte();
        if mode < 160 {
            if to_act.is_empty() {
                break;
            }
            let seat = to_act[bytes.below(to_act.len())];
            let legal = W::G::legal_actions(&state, seat);
            if legal.is_empty() {
                panic!("seat {seat} must act but has no legal action");
            }
            let action = legal[bytes.below(legal.len())].clone();
            let mut next = state.clone();
            match W::G::apply(&mut next, seat, &action) {
                Ok(_) => {}
                Err(r) => panic!("listed legal action {action:?} by {seat} rejected: {r}"),
            }
            if let Err(v) = check(&next) {
                panic!("{action:?} by {seat} broke an invariant: {v}");
            }
            round_trip::<W>(&next, "after a legal action");
            state = next;
        } else {
            let seat = bytes.below(seats as usize + 1) as Seat;
            let wire = if mode < 224 {
                // A legal action of any seat, mutated on the wire.
                let probe = to_act.first().copied().unwrap_or(0);
                let legal = W::G::legal_actions(&state, probe);
                let base = legal
                    .get(bytes.below(legal.len().max(1)))
                    .map(|a| W::action_to_pb(a).encode_to_vec())
                    .unwrap_or_default();
                let mut raw = base;
                for _ in 0..(bytes.byte() % 4) + 1 {
                    let at = bytes.below(raw.len() + 1);
                    let v = bytes.byte();
                    if at < raw.len() {
                        raw[at] = v;
                    } else {
                        raw.push(v);
                    }
                }
                raw
            } else {
                let n = usize::from(bytes.byte());
                bytes.take(n).to_vec()
            };
            let Ok(pba) = pb::Action::decode(wire.as_slice()) else {
                continue;
            };
            let Ok(action) = W::action_from_pb(&pba) else {
                continue;
            };
            let mut next = state.clone();
            match W::G::apply(&mut next, seat, &action) {
                Err(_) => assert!(next == state, "a rejected {action:?} changed the state"),
                Ok(_) => {
                    if let Err(v) = check(&next) {
                        panic!("accepted {action:?} by {seat} broke an invariant: {v}");
                    }
                    round_trip::<W>(&next, "after an accepted mutated action");
                    state = next;
                }
            }
        }
    }
}

/// 1841 options from two bytes (Version 2, Version 1, lite; FAQ options and p2p on or off).
pub fn options_1841(bytes: &mut Bytes<'_>) -> referee_engine::g1841::Options {
    let b = bytes.byte();
    let mut o = referee_engine::g1841::Options {
        version_1: b & 1 != 0,
        lite: b & 2 != 0,
        p2p_purchases: b & 4 != 0,
        sfli_run_variant: b & 8 != 0,
        ..Default::default()
    };
    if b & 16 != 0 {
        let f = bytes.byte();
        o.emergency_sales_unrestricted = Some(f & 1 != 0);
        o.merger_presidency_for_companies = Some(f & 2 != 0);
        o.merger_price_cap = Some(f & 4 != 0);
        o.pass_token_not_a_route_base = Some(f & 8 != 0);
        o.no_corporate_rebuy_after_sale = Some(f & 16 != 0);
        o.price_drops_lowest_first = Some(f & 32 != 0);
    }
    o
}

/// Starts a game from fuzz bytes and plays on (target `apply_actions`): a fresh setup of either
/// game, or a state of the golden corpus.
pub fn fuzz_apply(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let start = bytes.byte();
    match start % 3 {
        0 => {
            let options = options_1841(&mut bytes);
            let seats = 3 + u32::from(bytes.byte() % 6);
            if let Ok(s) = G1841::setup(&options, seats, 0) {
                play::<Wire1841>(s, &mut bytes, 48, referee_engine::g1841::check_invariants);
            }
        }
        1 => {
            let options = referee_engine::autobahn::Options {
                autobot_level: 1 + u32::from(bytes.byte() % 12),
                ..Default::default()
            };
            let seats = 1 + u32::from(bytes.byte() % 4);
            let seed = u64::from(bytes.byte());
            if let Ok(s) = Autobahn::setup(&options, seats, seed) {
                play::<WireAutobahn>(
                    s,
                    &mut bytes,
                    48,
                    referee_engine::autobahn::check_invariants,
                );
            }
        }
        _ => {
            let golden = golden_states();
            if golden.is_empty() {
                return;
            }
            let gs = &golden[bytes.below(golden.len())];
            if let Ok(s) = decode_state::<Wire1841>(gs) {
                play::<Wire1841>(s, &mut bytes, 48, referee_engine::g1841::check_invariants);
            } else if let Ok(s) = decode_state::<WireAutobahn>(gs) {
                play::<WireAutobahn>(
                    s,
                    &mut bytes,
                    48,
                    referee_engine::autobahn::check_invariants,
                );
            }
        }
    }
}

/// Decodes arbitrary bytes as a state envelope (protobuf, then proto3 JSON) the way every RPC
/// does (target `decode_state`): the result must be a typed error or a state that passes the
/// invariant checker, can be queried without panicking and round-trips.
pub fn fuzz_decode(data: &[u8]) {
    let mut envelopes = Vec::new();
    if let Ok(gs) = pb::GameState::decode(data) {
        envelopes.push(gs);
    }
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(gs) = serde_json::from_str::<pb::GameState>(text)
    {
        envelopes.push(gs);
    }
    for gs in &envelopes {
        if let Ok(s) = decode_state::<Wire1841>(gs) {
            if let Err(v) = referee_engine::g1841::check_invariants(&s) {
                panic!("decoded 1841 state breaks an invariant: {v}");
            }
            exercise::<Wire1841>(&s);
            round_trip::<Wire1841>(&s, "decoded 1841 state");
        }
        if let Ok(s) = decode_state::<WireAutobahn>(gs) {
            if let Err(v) = referee_engine::autobahn::check_invariants(&s) {
                panic!("decoded Autobahn state breaks an invariant: {v}");
            }
            exercise::<WireAutobahn>(&s);
            round_trip::<WireAutobahn>(&s, "decoded Autobahn state");
        }
    }
}

/// Feeds arbitrary text to the 18xx.games import (target `import_18xx`): parse, map and replay
/// must end in a typed failure or a state that passes the invariant checker.
pub fn fuzz_import(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = referee_engine::g1841::import18xx::parse_export(&text);
    let replayed = referee_engine::g1841::import18xx::replay(
        &text,
        &referee_engine::g1841::import18xx::ReplaySettings {
            check: data.first().is_some_and(|b| b & 1 != 0),
            stop_at_action_id: None,
        },
    );
    if let Some(s) = &replayed.state {
        if let Err(v) = referee_engine::g1841::check_invariants(s) {
            panic!("imported state breaks an invariant: {v}");
        }
        round_trip::<Wire1841>(s, "imported state");
    }
}
