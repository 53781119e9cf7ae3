//! The frequency report of the 1841 `heuristic` policy (issue #22, `docs/games/1841.md`,
//! "Heuristic games"): N games per mode (default 1,000; Version 2 at 3–8 players, `lite`
//! 3–6, `version_1` with the FAQ options off, `version_1` + `sfli_run_variant`,
//! `p2p_purchases`), game k of a mode with `3 + k mod (player counts)` seats and seed k + 1
//! (`referee playout --game 1841 --policy heuristic --players P --seed S --games 1` with the
//! mode's options plays the same game). Prints a Markdown table on stdout, speed on stderr.
//!
//! ```sh
//! nice -n 19 cargo run --release -p referee-engine --example frequencies1841 -- 1000
//! cargo run --release -p referee-engine --example frequencies1841 -- 20 lite   # one mode
//! ```

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use referee_engine::g1841::heuristic::stats::{
    EVENT_NAMES, GameStats, Summary, modes, play, player_counts,
};

const MAX_ACTIONS: u64 = 20_000;
const ENDS: [&str; 4] = ["bankrupt", "bank", "stock_market", "offboards"];

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let only: Vec<String> = args.collect();
    let mut rows = Vec::new();
    for (name, options) in modes() {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let counts = player_counts(&options);
        let started = Instant::now();
        let mut summary = Summary::default();
        for k in 0..games {
            let players = counts[k as usize % counts.len()];
            let seed = u64::from(k) + 1;
            let g = catch_unwind(AssertUnwindSafe(|| {
                play(&options, players, seed, MAX_ACTIONS)
            }))
            .unwrap_or_else(|_| GameStats {
                players,
                seed,
                error: Some("engine panicked".into()),
                ..GameStats::default()
            });
            summary.add(&g);
        }
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "{name}: {games} games in {secs:.1} s ({:.2} games/s, {:.0} actions/s)",
            f64::from(games) / secs,
            summary.actions as f64 / secs
        );
        for (seed, players, e) in &summary.errors {
            eprintln!("  error: seed {seed}, {players} players: {e}");
        }
        rows.push((name, counts, summary, secs));
    }
    // One column per mode, one row per measure.
    let header: Vec<&str> = rows.iter().map(|(n, _, _, _)| *n).collect();
    println!("| | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(rows.len()));
    let line = |label: &str, f: &dyn Fn(&Summary, &[u32], f64) -> String| {
        let cells: Vec<String> = rows.iter().map(|(_, c, s, t)| f(s, c, *t)).collect();
        println!("| {label} | {} |", cells.join(" | "));
    };
    let pct =
        |s: &Summary, n: u32| format!("{:.1}%", 100.0 * f64::from(n) / f64::from(s.games.max(1)));
    line("players", &|_, c, _| {
        format!(
            "{}–{}",
            c.first().copied().unwrap_or(0),
            c.last().copied().unwrap_or(0)
        )
    });
    line("games", &|s, _, _| s.games.to_string());
    for e in ENDS {
        line(&format!("ends: `{e}`"), &|s, _, _| {
            pct(s, s.ends.get(e).copied().unwrap_or(0))
        });
    }
    line("ends: other", &|s, _, _| {
        let other: Vec<String> = s
            .ends
            .iter()
            .filter(|(k, _)| !ENDS.contains(&k.as_str()))
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        if other.is_empty() {
            "–".to_string()
        } else {
            other.join(", ")
        }
    });
    for (i, name) in EVENT_NAMES.iter().enumerate() {
        line(&format!("games with {name} (per game)"), &|s, _, _| {
            format!(
                "{} ({:.2})",
                pct(s, s.with[i]),
                s.total[i] as f64 / f64::from(s.games.max(1))
            )
        });
    }
    line(
        "off-board groups connected at the end (mean of 8)",
        &|s, _, _| format!("{:.1}", s.offboards as f64 / f64::from(s.games.max(1))),
    );
    line("last phase reached", &|s, _, _| {
        s.phases
            .iter()
            .map(|(p, n)| format!("{p}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    });
    line("actions per game", &|s, _, _| {
        format!("{:.0}", s.actions as f64 / f64::from(s.games.max(1)))
    });
    line("games/s (release, 1 core)", &|s, _, t| {
        format!("{:.1}", f64::from(s.games) / t.max(1e-9))
    });
}
