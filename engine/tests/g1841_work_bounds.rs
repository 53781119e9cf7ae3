//! Bounds on the engine's long work (issue #24). The route optimizer (item 5): on a crafted
//! position (every buildable hex of the map brown, four tokens, two 8-trains) the search
//! keeps at most `MAX_STORED_ROUTES` walks and candidate routes, so the memory it allocates
//! stays bounded whatever its work budget, and it stops at once when its caller goes away.
//! The import of a recorded game (item 3) stops before its next action when its caller goes
//! away. Memory is counted in bytes allocated (a counting allocator), work in units or
//! actions, never in time.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use referee_engine::Game;
use referee_engine::g1841::operating_round::{
    DEFAULT_BUDGET, MAX_STORED_ROUTES, SearchStop, best_routes, best_routes_within, check_routes,
};
use referee_engine::g1841::{G1841, MapToken, PlacedTile, State, map};
use referee_engine::interrupt;

#[global_allocator]
static ALLOC: referee_alloc::Counting = referee_alloc::Counting::new();

/// The tests measure the one allocator: one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Every buildable hex brown in a fixed pseudo-random rotation, SFTG with tokens in Milano,
/// Torino, Bologna and Firenze, phase 8, and the given trains (the position of
/// `g1841_optimizer::stress_full_brown_map`).
fn full_brown_map(trains: &[&str]) -> State {
    let mut s = G1841::setup(&Default::default(), 4, 0).unwrap();
    let m = map::map(&s.options);
    let mut seed = 12345u64;
    for (id, hex) in &m.hexes {
        if hex.first_tiles.is_empty() {
            continue;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = ((seed >> 33) % 6) as u8;
        let count = |k| hex.nodes.iter().filter(|n| n.kind == k).count();
        let kinds = (
            count(map::NodeKind::City),
            count(map::NodeKind::Town),
            count(map::NodeKind::Pass),
        );
        let tile = match (id.as_str(), hex.label.as_deref(), kinds) {
            ("F8", ..) => "605",
            ("H4", ..) => "607",
            ("M7", ..) => "609",
            ("F16", ..) => "603",
            (_, Some("Y"), _) => "623",
            (_, _, (1, 0, 0)) => "63",
            (_, _, (0, 1, 0)) => "88",
            (_, _, (0, 2, 0)) => "55",
            (_, _, (0, 0, 1)) => ["616", "617", "618"][(seed >> 40) as usize % 3],
            (_, _, (0, 0, 0)) => ["43", "44", "45", "46", "47", "70"][(seed >> 40) as usize % 6],
            _ => continue,
        };
        s.operations.tiles.insert(
            id.clone(),
            PlacedTile {
                tile: tile.into(),
                rotation: r,
            },
        );
    }
    s.phase = "8".into();
    let c = s.corporations.iter_mut().find(|c| c.sym == "SFTG").unwrap();
    for (hex, city) in [("F8", 0), ("H4", 0), ("L14", 0), ("R14", 0)] {
        c.tokens.push(MapToken {
            hex: hex.into(),
            city,
        });
    }
    s.operations.trains.insert(
        "SFTG".into(),
        trains.iter().map(|t| t.to_string()).collect(),
    );
    s
}

/// Peak bytes allocated while `f` runs, above what was in use before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    ALLOC.reset_peak();
    let before = ALLOC.in_use();
    let out = f();
    (out, ALLOC.peak().saturating_sub(before))
}

/// Two 8-trains on the full brown map: without the cap the default budget stored about
/// 3 million candidate routes (some 200 MB at once in release builds, 483 MB through
/// DefaultAction in the attack of issue #24). With it the search stops at the cap, answers
/// a legal route set (the best of what it kept, not proven optimal) and allocates at most
/// about 300 bytes per stored route at once.
#[test]
fn the_search_keeps_a_bounded_number_of_routes() {
    let _one = serial();
    let s = full_brown_map(&["8-0", "8-1"]);
    let (best, peak) = peak_of(|| best_routes(&s, "SFTG", DEFAULT_BUDGET));
    println!(
        "revenue {} work {} stopped {:?} peak {} bytes",
        best.revenue, best.work, best.stopped, peak
    );
    assert_eq!(best.stopped, Some(SearchStop::StoredRoutes));
    assert!(!best.proven_optimal);
    assert!(best.revenue > 0);
    assert_eq!(
        check_routes(&s, "SFTG", &best.routes).unwrap(),
        best.revenues
    );
    assert!(
        peak <= 600 * MAX_STORED_ROUTES,
        "the search held {peak} bytes at once (cap {MAX_STORED_ROUTES} routes)"
    );
    // A smaller cap holds proportionally less.
    let (small, small_peak) = peak_of(|| best_routes_within(&s, "SFTG", DEFAULT_BUDGET, 1_000));
    assert_eq!(small.stopped, Some(SearchStop::StoredRoutes));
    assert!(small_peak < peak / 10, "{small_peak} vs {peak}");
    if std::env::var_os("REFEREE_UNCAPPED").is_some() {
        let (all, all_peak) =
            peak_of(|| best_routes_within(&s, "SFTG", DEFAULT_BUDGET, usize::MAX));
        println!(
            "uncapped: revenue {} work {} stopped {:?} peak {all_peak} bytes",
            all.revenue, all.work, all.stopped
        );
    }
}

/// A search whose caller has gone away stops within `interrupt::CHECK_EVERY` work units.
#[test]
fn a_cancelled_search_stops_at_once() {
    let _one = serial();
    let s = full_brown_map(&["8-0", "8-1"]);
    let flag = Arc::new(AtomicBool::new(true));
    let best = interrupt::with_cancel(flag.clone(), || best_routes(&s, "SFTG", DEFAULT_BUDGET));
    assert_eq!(best.stopped, Some(SearchStop::Cancelled));
    assert!(
        best.work <= 2 * interrupt::CHECK_EVERY,
        "work {} after cancellation",
        best.work
    );
    // The same search with the flag down goes on (and stops for another reason).
    flag.store(false, Ordering::Relaxed);
    let on = interrupt::with_cancel(flag, || best_routes(&s, "SFTG", 100_000));
    assert_eq!(on.stopped, Some(SearchStop::Work));
    assert!(on.work >= 100_000, "work {}", on.work);
}

/// A replay of a recorded game whose caller has gone away stops before its next action
/// (`Replayed::cancelled`), and one with the flag down is not affected.
#[test]
fn a_cancelled_import_stops_before_its_next_action() {
    use referee_engine::g1841::import18xx::{ReplaySettings, replay};
    let _one = serial();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/1841/132002.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    let r = interrupt::with_cancel(flag.clone(), || replay(&text, &ReplaySettings::default()));
    assert!(r.cancelled);
    assert_eq!(r.actions.len(), 0);
    assert!(r.actions_total > 500, "{}", r.actions_total);
    flag.store(false, Ordering::Relaxed);
    let r = interrupt::with_cancel(flag, || replay(&text, &ReplaySettings::default()));
    assert!(!r.cancelled && r.finished, "{:?}", r.failure);
}
