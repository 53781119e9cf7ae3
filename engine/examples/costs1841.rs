//! Where a replay's time goes, by action kind: replays each recorded 1841 game once, timing
//! every action (the best of `REPS` runs on a copy of the state before it), and prints the
//! totals per 18xx.games action type (docs/PERFORMANCE.md).
//!
//! ```sh
//! cargo run --release -p referee-engine --example costs1841 -- 20   # best of 20 runs
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

/// The allocator of the `referee` binary, so the figures are the service's.
#[global_allocator]
static GLOBAL: referee_alloc::MiMalloc = referee_alloc::MiMalloc;

use referee_engine::Game;
use referee_engine::g1841::G1841;
use referee_engine::g1841::import18xx::parse_export;

const FIXTURES: [&str; 2] = ["132002.json", "1841_game_end_bank.json"];

fn main() {
    let reps: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    for name in FIXTURES {
        let path = format!(
            "{}/../tests/fixtures/1841/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("fixture");
        let mut parse = f64::MAX;
        for _ in 0..reps {
            let t = Instant::now();
            std::hint::black_box(parse_export(std::hint::black_box(&text)).expect("parses"));
            parse = parse.min(t.elapsed().as_secs_f64() * 1e6);
        }
        let export = parse_export(&text).expect("export parses");
        let options = export.options().expect("options");
        let mut state = G1841::setup(&options, export.players.len() as u32, 0).expect("setup");
        // kind -> (count, µs converting, µs applying)
        let mut by_kind: BTreeMap<String, (u32, f64, f64)> = BTreeMap::new();
        for a in &export.actions {
            if a.kind == "message" || a.kind.starts_with("program_") {
                continue;
            }
            let mut convert = f64::MAX;
            for _ in 0..reps {
                let t = Instant::now();
                std::hint::black_box(a.to_action(&state).ok());
                convert = convert.min(t.elapsed().as_secs_f64() * 1e6);
            }
            let Ok(Some((seat, action))) = a.to_action(&state) else {
                continue;
            };
            let mut apply = f64::MAX;
            for _ in 0..reps {
                let mut s = state.clone();
                let t = Instant::now();
                let _ = std::hint::black_box(G1841::apply(&mut s, seat, &action));
                apply = apply.min(t.elapsed().as_secs_f64() * 1e6);
            }
            if G1841::apply(&mut state, seat, &action).is_err() {
                break;
            }
            let e = by_kind.entry(a.kind.clone()).or_default();
            e.0 += 1;
            e.1 += convert;
            e.2 += apply;
        }
        let total: f64 = by_kind.values().map(|v| v.1 + v.2).sum::<f64>() + parse;
        println!("{name}: parse {parse:.0} µs; total {total:.0} µs");
        let mut rows: Vec<_> = by_kind.into_iter().collect();
        rows.sort_by(|a, b| (b.1.1 + b.1.2).total_cmp(&(a.1.1 + a.1.2)));
        for (kind, (n, c, ap)) in rows {
            println!(
                "  {kind:24} {n:4} × : convert {c:7.0} µs, apply {ap:7.0} µs ({:.1} µs each)",
                (c + ap) / f64::from(n)
            );
        }
    }
}
