//! Replays the two recorded 1841 games through the engine alone (no service, no JSON report)
//! and prints the time per replay — a quick harness for profiling the rules
//! (docs/PERFORMANCE.md):
//!
//! ```sh
//! cargo run --release -p referee-engine --example replay1841 -- 20     # 20 rounds
//! valgrind --tool=callgrind target/release/examples/replay1841 1      # instruction counts
//! ```
//!
//! Each replay parses the export (`import18xx::parse_export`) and applies every action, as
//! `referee replay-18xx` does; the scores at the end are printed so that a changed engine
//! shows at once.

use std::time::Instant;

/// The allocator of the `referee` binary, so the figures are the service's.
#[global_allocator]
static GLOBAL: referee_alloc::MiMalloc = referee_alloc::MiMalloc;

use referee_engine::Game;
use referee_engine::g1841::G1841;
use referee_engine::g1841::import18xx::parse_export;

const FIXTURES: [&str; 2] = ["132002.json", "1841_game_end_bank.json"];

/// Replays one export; returns (actions applied, scores at the end).
fn replay(text: &str) -> (usize, Option<Vec<i64>>) {
    let export = parse_export(text).expect("export parses");
    let options = export.options().expect("options");
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).expect("setup");
    let mut applied = 0;
    for a in &export.actions {
        if matches!(
            a.kind.as_str(),
            "message" | "destination_connection" | "program_disable"
        ) || a.kind.starts_with("program_")
        {
            continue;
        }
        let Ok(Some((seat, action))) = a.to_action(&state) else {
            break;
        };
        if G1841::apply(&mut state, seat, &action).is_err() {
            break;
        }
        applied += 1;
    }
    (applied, G1841::outcome(&state).map(|o| o.scores))
}

fn main() {
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    for name in FIXTURES {
        let path = format!(
            "{}/../tests/fixtures/1841/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("fixture");
        let (applied, scores) = replay(&text);
        let mut times = Vec::new();
        for _ in 0..rounds {
            let t = Instant::now();
            std::hint::black_box(replay(std::hint::black_box(&text)));
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        // The fastest replay: on a shared VM (CPU steal) the least disturbed figure.
        let best = times.first().copied().unwrap_or(0.0);
        println!(
            "{name}: {applied} actions, scores {scores:?}, median {median:.2} ms per replay, best {best:.2} ms ({rounds} rounds), {:.2} µs per action",
            median * 1e3 / applied.max(1) as f64
        );
    }
}
