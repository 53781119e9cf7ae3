//! The 1841 route optimizer (1841 §9.3): exact best revenues on hand-built positions, an
//! oracle against the recorded games (never worse than the recorded routes, always legal,
//! proven optimal within the default budget) and determinism.

use std::path::PathBuf;
use std::time::Instant;

use referee_engine::Game;
use referee_engine::g1841::import18xx::parse_export;
use referee_engine::g1841::operating_round::{
    BestRoutes, DEFAULT_BUDGET, best_routes, check_routes, current,
};
use referee_engine::g1841::{Action, G1841, State};

fn fixture(rel: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "tests",
        "fixtures",
        "1841",
        rel,
    ]
    .iter()
    .collect();
    std::fs::read_to_string(&path).unwrap()
}

/// Asserts the optimizer's own invariants: the routes pass `check_routes` with exactly the
/// returned revenues, which sum to the total.
fn assert_valid(state: &State, sym: &str, best: &BestRoutes) {
    assert_eq!(
        check_routes(state, sym, &best.routes).unwrap(),
        best.revenues,
        "{sym}: {best:?}"
    );
    assert_eq!(best.revenues.iter().sum::<i64>(), best.revenue);
}

/// One recorded `run_routes`: the state before it, the corporation and the recorded
/// revenue.
struct Turn {
    game: &'static str,
    id: Option<i64>,
    sym: String,
    state: State,
    recorded: i64,
}

/// Replays `name` as far as the engine goes and collects every `run_routes` on the way.
fn recorded_turns(name: &'static str) -> Vec<Turn> {
    let export = parse_export(&fixture(&format!("{name}.json"))).unwrap();
    let options = export.options().unwrap();
    let mut state = G1841::setup(&options, export.players.len() as u32, 0).unwrap();
    let mut out = Vec::new();
    for action in &export.actions {
        if action.kind == "destination_connection" || action.kind.starts_with("program") {
            continue;
        }
        let Ok(Some((seat, a))) = action.to_action(&state) else {
            break;
        };
        if let Action::RunRoutes { routes } = &a {
            let sym = current(&state).unwrap();
            let recorded = check_routes(&state, &sym, routes).unwrap().iter().sum();
            out.push(Turn {
                game: name,
                id: action.id,
                sym,
                state: state.clone(),
                recorded,
            });
        }
        if G1841::apply(&mut state, seat, &a).is_err() {
            break;
        }
    }
    out
}

/// Oracle (1841 §9.3): at every recorded `run_routes` the engine reaches, the optimizer's
/// revenue is at least the recorded one, its routes are legal and it proves optimality
/// within `DEFAULT_BUDGET`. Prints the numbers and the time per turn (not asserted).
#[test]
fn oracle_recorded_games() {
    let mut turns = recorded_turns("132002");
    let n132002 = turns.len();
    turns.extend(recorded_turns("1841_game_end_bank"));
    assert_eq!((n132002, turns.len() - n132002), (6, 1));
    let (mut better, mut proven, mut max_work) = (0, 0, 0);
    let mut times = Vec::new();
    for t in &turns {
        let start = Instant::now();
        let best = best_routes(&t.state, &t.sym, DEFAULT_BUDGET);
        times.push(start.elapsed());
        assert_valid(&t.state, &t.sym, &best);
        assert!(
            best.revenue >= t.recorded,
            "{} {:?} {}: optimizer {} < recorded {}",
            t.game,
            t.id,
            t.sym,
            best.revenue,
            t.recorded
        );
        assert!(best.proven_optimal, "{} {:?}", t.game, t.id);
        better += usize::from(best.revenue > t.recorded);
        proven += usize::from(best.proven_optimal);
        max_work = max_work.max(best.work);
        println!(
            "{} action {:?} {}: recorded L.{} optimizer L.{} {:?} work {} in {:?}",
            t.game,
            t.id,
            t.sym,
            t.recorded,
            best.revenue,
            best.revenues,
            best.work,
            times.last().unwrap()
        );
    }
    let total: std::time::Duration = times.iter().sum();
    println!(
        "oracle: {} turns, {} strictly better than recorded, {} proven optimal, max work {}, \
         time per turn max {:?} mean {:?}",
        turns.len(),
        better,
        proven,
        max_work,
        times.iter().max().unwrap(),
        total / turns.len() as u32
    );
}
