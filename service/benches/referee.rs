//! Criterion benchmarks of Referee (`cargo bench -p referee-service`; method and figures in
//! docs/PERFORMANCE.md). Groups:
//!
//! * `autobahn/apply/{mid,late}/KIND`, `1841/apply/KIND`: one `apply` of each action kind on
//!   a realistic state (the state copy is made outside the timing).
//! * `autobahn/legal_actions/{mid,late}`, `1841/legal_actions/mid`.
//! * `wire/GAME/…`: the state envelope to and from the engine type (`to_pb`, `from_pb` with
//!   validation), prost encode/decode, canonical JSON encode/decode.
//! * `1841/replay/FIXTURE`: a recorded 18xx.games game through `referee replay-18xx` (JSON
//!   parsing included), every action to the end of the game.
//! * `1841/optimizer/…`: the route optimizer (`best_routes`, default budget) on every
//!   operating turn with a `run_routes` of both recorded games: all turns per iteration, the
//!   slowest turn, and a p50/p99 summary per turn printed before the measurements.
//! * `playout/…`: random games with the policy of `referee playout`: Autobahn and 1841 whole
//!   games, and 1841 200 random actions from setup.
//!
//! Mid / late: Autobahn states at 40 % / 85 % of a random 4-player game; 1841 states from the
//! replay of fixture 132002 (its second half).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use prost::Message;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use referee_engine::autobahn::{self, Autobahn};
use referee_engine::g1841::{self, G1841, import18xx::parse_export};
use referee_engine::{Game, Seat};

/// The allocator of the `referee` binary, so the figures are the service's.
#[global_allocator]
static GLOBAL: referee_alloc::MiMalloc = referee_alloc::MiMalloc;
use referee_service::games::g1841::Wire1841;
use referee_service::games::{WireGame, autobahn::WireAutobahn, decode_state, encode_state};
use referee_service::pb::v1 as pb;
use referee_service::playout;

const FIXTURES: [&str; 2] = ["132002.json", "1841_game_end_bank.json"];

fn fixture(name: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "tests",
        "fixtures",
        "1841",
        name,
    ]
    .iter()
    .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One recorded decision: the state before it, the seat and the action.
struct Sample<G: Game> {
    kind: &'static str,
    state: G::State,
    seat: Seat,
    action: G::Action,
}

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// Plays a random Autobahn game (the `referee playout` policy) and returns every decision.
fn autobahn_game(players: u32, seed: u64) -> Vec<Sample<Autobahn>> {
    let mut s = Autobahn::setup(&autobahn::Options::default(), players, seed).expect("setup");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while Autobahn::outcome(&s).is_none() {
        let seat = Autobahn::to_act(&s)[0];
        let legal = Autobahn::legal_actions(&s, seat);
        let common: Vec<&autobahn::Action> = legal
            .iter()
            .filter(|a| !playout::autobahn_rare(a))
            .collect();
        let action = if !common.is_empty() && below(&mut rng, 8) != 0 {
            common[below(&mut rng, common.len())].clone()
        } else {
            legal[below(&mut rng, legal.len())].clone()
        };
        out.push(Sample {
            kind: WireAutobahn::action_kind(&action),
            state: s.clone(),
            seat,
            action: action.clone(),
        });
        Autobahn::apply(&mut s, seat, &action).expect("legal");
    }
    out
}

/// The first decision of each kind at or after `from` (a fraction of the game).
fn first_of_each_kind<G: Game>(game: &[Sample<G>], from: f64) -> Vec<&Sample<G>> {
    let start = (game.len() as f64 * from) as usize;
    let mut seen: Vec<&'static str> = Vec::new();
    let mut out = Vec::new();
    for s in &game[start..] {
        if !seen.contains(&s.kind) {
            seen.push(s.kind);
            out.push(s);
        }
    }
    out
}

/// Replays a recorded 1841 game (to its end); every applied decision.
fn g1841_replay(text: &str) -> Vec<Sample<G1841>> {
    let export = parse_export(text).expect("export");
    let options = export.options().expect("options");
    let mut s = G1841::setup(&options, export.players.len() as u32, 0).expect("setup");
    let mut out = Vec::new();
    for a in &export.actions {
        if matches!(
            a.kind.as_str(),
            "message" | "destination_connection" | "program_disable"
        ) || a.kind.starts_with("program_")
        {
            continue;
        }
        let Ok(Some((seat, action))) = a.to_action(&s) else {
            break;
        };
        let before = s.clone();
        if G1841::apply(&mut s, seat, &action).is_err() {
            break;
        }
        out.push(Sample {
            kind: Wire1841::action_kind(&action),
            state: before,
            seat,
            action,
        });
    }
    out
}

/// A mid-game 1841 state of the replay of fixture 132002: the state before its 180th
/// action (where the replay stopped when the benchmarks were written, so figures stay
/// comparable; an operating round of phase 3), with the seat to act.
fn g1841_mid_state() -> (g1841::State, Seat) {
    let game = g1841_replay(&fixture(FIXTURES[0]));
    let s = &game[MID_1841.min(game.len() - 1)];
    (s.state.clone(), s.seat)
}

/// Index of the mid-game 1841 decision (see [`g1841_mid_state`]).
const MID_1841: usize = 179;

/// Every `run_routes` turn of both recorded games: (state before it, operating corporation).
fn g1841_route_turns() -> Vec<(g1841::State, String)> {
    let mut out = Vec::new();
    for name in FIXTURES {
        for s in g1841_replay(&fixture(name)) {
            if matches!(s.action, g1841::Action::RunRoutes { .. })
                && let Some(sym) = g1841::operating_round::current(&s.state)
            {
                out.push((s.state, sym));
            }
        }
    }
    out
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

fn bench_apply<G: Game>(c: &mut Criterion, group: &str, samples: &[&Sample<G>]) {
    let mut g = c.benchmark_group(group);
    for s in samples {
        g.bench_function(s.kind, |b| {
            b.iter_batched(
                || s.state.clone(),
                // The state is returned, so that dropping it is not timed.
                |mut state| {
                    let events = G::apply(&mut state, s.seat, black_box(&s.action));
                    (state, events)
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

fn autobahn_benches(c: &mut Criterion) {
    let game = autobahn_game(4, 7);
    for (name, from) in [("mid", 0.40), ("late", 0.85)] {
        bench_apply(
            c,
            &format!("autobahn/apply/{name}"),
            &first_of_each_kind(&game, from),
        );
    }
    let mut g = c.benchmark_group("autobahn/legal_actions");
    for (name, from) in [("mid", 0.40), ("late", 0.85)] {
        // The first main-phase decision from there (the widest choice of a turn).
        let start = (game.len() as f64 * from) as usize;
        let s = game[start..]
            .iter()
            .find(|s| s.kind == "play_card")
            .expect("a card is played");
        g.bench_function(name, |b| {
            b.iter(|| black_box(Autobahn::legal_actions(black_box(&s.state), s.seat)))
        });
    }
    g.finish();
}

fn g1841_benches(c: &mut Criterion) {
    let game = g1841_replay(&fixture(FIXTURES[0]));
    bench_apply(c, "1841/apply", &first_of_each_kind(&game, 0.5));
    let (mid, seat) = g1841_mid_state();
    c.benchmark_group("1841/legal_actions")
        .bench_function("mid", |b| {
            b.iter(|| black_box(G1841::legal_actions(black_box(&mid), seat)))
        });
    let mut g = c.benchmark_group("1841/replay");
    for name in FIXTURES {
        let text = fixture(name);
        let (report, _) = referee_service::replay18xx::replay(&text, false);
        let applied = report["actions_applied"].as_u64().unwrap_or(0);
        g.throughput(Throughput::Elements(applied));
        g.bench_function(name.trim_end_matches(".json"), |b| {
            b.iter(|| black_box(referee_service::replay18xx::replay(black_box(&text), false)))
        });
    }
    g.finish();
}

fn bench_wire<W: WireGame>(c: &mut Criterion, name: &str, state: &<W::G as Game>::State) {
    let gs = encode_state::<W>(state, 100);
    let bytes = gs.encode_to_vec();
    let json = serde_json::to_string(&gs).expect("json");
    let mut g = c.benchmark_group(format!("wire/{name}"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("to_pb", |b| {
        b.iter(|| black_box(encode_state::<W>(black_box(state), 100)))
    });
    g.bench_function("from_pb_validated", |b| {
        b.iter(|| black_box(decode_state::<W>(black_box(&gs))))
    });
    g.bench_function("prost_encode", |b| {
        b.iter(|| black_box(black_box(&gs).encode_to_vec()))
    });
    g.bench_function("prost_decode", |b| {
        b.iter(|| black_box(pb::GameState::decode(black_box(&bytes[..]))))
    });
    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("json_encode", |b| {
        b.iter(|| black_box(serde_json::to_string(black_box(&gs))))
    });
    g.bench_function("json_decode", |b| {
        b.iter(|| black_box(serde_json::from_str::<pb::GameState>(black_box(&json))))
    });
    g.finish();
}

fn wire_benches(c: &mut Criterion) {
    let game = autobahn_game(4, 7);
    let mid = &game[game.len() * 2 / 5].state;
    bench_wire::<WireAutobahn>(c, "autobahn", mid);
    let (mid, _) = g1841_mid_state();
    bench_wire::<Wire1841>(c, "1841", &mid);
}

fn playout_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("playout");
    g.throughput(Throughput::Elements(1));
    let options = autobahn::Options::default();
    for players in [1u32, 4] {
        let mut seed = 0u64;
        g.bench_function(format!("autobahn_{players}p_game"), |b| {
            b.iter(|| {
                seed = seed % 50 + 1;
                let played = playout::play_one::<Autobahn>(
                    &options,
                    players,
                    seed,
                    5_000,
                    playout::autobahn_rare,
                    &[playout::Policy::Random],
                );
                assert!(matches!(played.ending, playout::Ending::Finished(..)));
                black_box(played)
            })
        });
    }
    // Whole 1841 games (seeds 1–10, as `referee playout --game 1841 --seed 1`).
    let options_1841 = g1841::Options::default();
    let mut seed = 0u64;
    g.bench_function("1841_4p_game", |b| {
        b.iter(|| {
            seed = seed % 10 + 1;
            let played = playout::play_one::<G1841>(
                &options_1841,
                4,
                seed,
                20_000,
                playout::g1841_rare,
                &[playout::Policy::Random],
            );
            assert!(matches!(played.ending, playout::Ending::Finished(..)));
            black_box(played)
        })
    });
    const ACTIONS_1841: u64 = 200;
    g.throughput(Throughput::Elements(ACTIONS_1841));
    let options = g1841::Options::default();
    let mut seed = 0u64;
    g.bench_function("1841_4p_200_actions", |b| {
        b.iter(|| {
            seed = seed % 50 + 1;
            black_box(playout::play_one::<G1841>(
                &options,
                4,
                seed,
                ACTIONS_1841,
                |_| false,
                &[playout::Policy::Random],
            ))
        })
    });
    g.finish();
}

/// The route optimizer on every recorded operating turn. Criterion times whole passes; the
/// per-turn distribution (p50, p99, max over all turns, median of 5 passes per turn) is
/// printed first, since a mean hides the slow turns.
fn route_benches(c: &mut Criterion) {
    use g1841::operating_round::{DEFAULT_BUDGET, best_routes};
    let turns = g1841_route_turns();
    let mut per_turn: Vec<(Duration, usize)> = turns
        .iter()
        .enumerate()
        .map(|(i, (state, sym))| {
            let mut runs: Vec<Duration> = (0..5)
                .map(|_| {
                    let t = std::time::Instant::now();
                    let best = best_routes(state, sym, DEFAULT_BUDGET);
                    let d = t.elapsed();
                    assert!(best.proven_optimal, "turn {i} ({sym}) not proven optimal");
                    d
                })
                .collect();
            runs.sort();
            (runs[2], i)
        })
        .collect();
    per_turn.sort();
    let at = |q: f64| per_turn[((per_turn.len() - 1) as f64 * q).round() as usize].0;
    eprintln!(
        "1841/optimizer: {} turns, per turn p50 {:?}, p99 {:?}, max {:?}",
        per_turn.len(),
        at(0.50),
        at(0.99),
        per_turn.last().map(|t| t.0).unwrap_or_default()
    );
    let mut g = c.benchmark_group("1841/optimizer");
    g.throughput(Throughput::Elements(turns.len() as u64));
    g.bench_function("all_turns", |b| {
        b.iter(|| {
            for (state, sym) in &turns {
                black_box(best_routes(black_box(state), sym, DEFAULT_BUDGET));
            }
        })
    });
    g.throughput(Throughput::Elements(1));
    if let Some(&(_, slowest)) = per_turn.last() {
        let (state, sym) = &turns[slowest];
        g.bench_function("slowest_turn", |b| {
            b.iter(|| black_box(best_routes(black_box(state), sym, DEFAULT_BUDGET)))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = autobahn_benches, g1841_benches, route_benches, wire_benches, playout_benches
}
criterion_main!(benches);
