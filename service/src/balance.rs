//! `referee balance --game autobahn`: the balance harness of issue #23. Round-robin
//! tournaments of the strategy bots (docs/games/autobahn-bots.md) at 2, 3 and 4 players and
//! solo games against the Autobot at every level, with per strategy the win rate, the mean and
//! spread of VP by department, deliveries, turns, construction budget and DM spent, and per
//! table how often money blocked an action (per era), game length and score range. Prints one
//! JSON report (also written with `--out`); `scripts/autobahn-balance.sh` turns it into
//! `docs/games/autobahn-balance.md` and its plots.
//!
//! **Schedule.** A table of `n` players over the strategies `S` plays every `n`-subset of `S`
//! in turn (game `g`: subset `g mod C`), rotated one seat every `C` games, so every strategy
//! sits in every seat equally often. Game `g` uses seed `seed + g` for the setup and for the
//! bots' generator: any game is reproduced with `referee playout --seed S+g --policy ...`.
//! Wins are shared: a game won by `k` tied players gives each `1/k`, so win rates add to 1.
//!
//! **Money blocked an action**: in a main-phase state of a (human) player, a road section or a
//! link of a colour the player holds a card of, with room on that action space, could be
//! built or upgraded but for its cost (AQ-1: "cannot pay, cannot act"), or a service station
//! could be built on a free connected space of such a colour but for the station's cost
//! in the current era (`service_stations.build_cost_dm`, one price or one per era, U-30).

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use referee_engine::Game;
use referee_engine::autobahn::action::Event;
use referee_engine::autobahn::bots::{Strategy, choose};
use referee_engine::autobahn::state::{Phase, State};
use referee_engine::autobahn::{Autobahn, Board, Options, build};
use serde_json::{Value, json};

use crate::cli::BalanceArgs;

/// One seat's record of one game.
#[derive(Clone, Debug, Default)]
struct SeatRecord {
    strategy: usize,
    vp: [i64; 6], // lobby, network, trade, service, finance, total
    win: f64,
    deliveries: u32,
    /// Service stations built (U-30 prices them).
    stations: u32,
    turns: u32,
    budget: i64,
    spent: i64,
    dm_end: i64,
}

/// One game's record.
#[derive(Clone, Debug, Default)]
struct GameRecord {
    finished: bool,
    seats: Vec<SeatRecord>,
    /// Per era: main-phase states of human players, and those where money blocked an action.
    main_states: [u32; 3],
    blocked: [u32; 3],
    /// Per era: DM held, summed over those states, and the price of the dearest action there
    /// that money could block (0 when none is available).
    dm_held: [i64; 3],
    dearest: [i64; 3],
    /// Per era: construction budget paid at the era's end and DM spent on roads, all seats.
    budget_by_era: [i64; 3],
    spent_by_era: [i64; 3],
    /// Per era: service stations built by the seats (human players).
    stations_by_era: [u32; 3],
    /// Solo: the Autobot's score.
    autobot_vp: i64,
}

/// The price of the dearest action of `player` now that money could block (see the module
/// docs), or 0 when there is none. Money blocks an action when this is above the DM held.
fn dearest_action(state: &State, player: u32) -> i64 {
    let p = state.p(player);
    let room = |id: &str| {
        p.action_spaces
            .iter()
            .any(|s| s.id == id && (s.cards.len() as u32) < s.capacity)
    };
    let (build_room, upgrade_room) = (room("BUILD_ROAD"), room("UPGRADE_LINK"));
    let board = &state.board;
    let st = &board.def.service_stations;
    let station_room = room("BUILD_STATION") && p.stations_built < st.per_player;
    let mut dearest = 0;
    for card in &p.hand {
        let Some(def) = board.card(card) else {
            continue;
        };
        for colour in &def.colours {
            let Some(c) = board.autobahn(colour) else {
                continue;
            };
            if build_room {
                for s in build::buildable_sections(state, Some(c)) {
                    dearest = dearest.max(board.section_cost(s, state.era));
                }
            }
            if upgrade_room {
                for l in build::upgradable_links(state, Some(c)) {
                    dearest = dearest.max(build::upgrade_cost(state, l));
                }
            }
            if station_room && !build::free_station_spaces(state, Some(c)).is_empty() {
                dearest = dearest.max(st.build_cost(state.era));
            }
        }
    }
    dearest
}

/// Plays one game: seat `i` plays `strategies[i]`.
fn play(options: &Options, strategies: &[usize], seed: u64, max_actions: u64) -> GameRecord {
    let seats = strategies.len() as u32;
    let mut rec = GameRecord::default();
    let Ok(mut state) = Autobahn::setup(options, seats, seed) else {
        return rec;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = state.players.len();
    let mut deliveries = vec![0u32; n];
    let mut turns = vec![0u32; n];
    let mut budget = vec![0i64; n];
    let mut spent = vec![0i64; n];
    // The first turn's TurnStarted is emitted at the end of the route draft.
    for _ in 0..max_actions {
        if Autobahn::outcome(&state).is_some() {
            break;
        }
        let Some(&seat) = Autobahn::to_act(&state).first() else {
            break;
        };
        if let (Phase::Main { .. }, true) = (&state.phase, state.pending.is_empty())
            && let Some(pl) = state.player_of(seat)
            && (1..=3).contains(&state.era)
        {
            let e = (state.era - 1) as usize;
            let dearest = dearest_action(&state, pl);
            let dm = state.p(pl).dm;
            rec.main_states[e] += 1;
            rec.blocked[e] += u32::from(dearest > dm);
            rec.dm_held[e] += dm;
            rec.dearest[e] += dearest;
        }
        let legal = Autobahn::legal_actions(&state, seat);
        if legal.is_empty() {
            break;
        }
        let era_before = (state.era.clamp(1, 3) - 1) as usize;
        let strategy = Strategy::ALL[strategies[seat as usize]];
        let action = choose(strategy, &state, seat, legal, &mut rng);
        let Ok(events) = Autobahn::apply(&mut state, seat, &action) else {
            break;
        };
        for e in &events {
            match e {
                Event::Delivered { player, .. } => deliveries[*player as usize] += 1,
                Event::TurnStarted { player } => turns[*player as usize] += 1,
                Event::StationBuilt { player, .. } if *player < seats => {
                    rec.stations_by_era[era_before] += 1;
                }
                Event::BudgetPaid { player, amount, .. } => {
                    budget[*player as usize] += amount;
                    rec.budget_by_era[era_before] += amount;
                }
                Event::SectionBuilt { player, cost, .. }
                | Event::LinkUpgraded { player, cost, .. } => {
                    spent[*player as usize] += cost;
                    rec.spent_by_era[era_before] += cost;
                }
                _ => {}
            }
        }
    }
    let Some(result) = state.result.clone() else {
        return rec;
    };
    rec.finished = true;
    let best = result
        .ranks
        .iter()
        .take(seats as usize)
        .filter(|r| **r == 1)
        .count()
        .max(1) as f64;
    for i in 0..seats as usize {
        let l = &result.scores[i];
        rec.seats.push(SeatRecord {
            strategy: strategies[i],
            vp: [l.lobby, l.network, l.trade, l.service, l.finance, l.total],
            win: if result.ranks[i] == 1 {
                1.0 / best
            } else {
                0.0
            },
            deliveries: deliveries[i],
            stations: state.players[i].stations_built,
            turns: turns[i],
            budget: budget[i],
            spent: spent[i],
            dm_end: state.players[i].dm,
        });
    }
    if seats == 1 {
        rec.autobot_vp = result.scores.get(1).map_or(0, |l| l.total);
        // Solo: rank 1 means beating or tying the Autobot (Game::outcome).
        rec.seats[0].win = if result.ranks[0] == 1 { 1.0 } else { 0.0 };
    }
    rec
}

/// `k`-subsets of `0..n` in lexicographic order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn rec(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            rec(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// Plays `games` games with the seat strategies `line(g)`, on `threads` threads, in game order.
fn run_table(
    options: &Options,
    games: u32,
    seed: u64,
    max_actions: u64,
    threads: usize,
    line: &(dyn Fn(u32) -> Vec<usize> + Sync),
) -> Vec<GameRecord> {
    let threads = threads.max(1);
    let mut out: Vec<(u32, GameRecord)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                sc.spawn(move || {
                    (0..games)
                        .filter(|g| *g as usize % threads == t)
                        .map(|g| {
                            let seats = line(g);
                            (
                                g,
                                play(
                                    options,
                                    &seats,
                                    seed.wrapping_add(u64::from(g)),
                                    max_actions,
                                ),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    out.sort_by_key(|(g, _)| *g);
    out.into_iter().map(|(_, r)| r).collect()
}

fn mean_sd(v: &[f64]) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n;
    (m, var.sqrt())
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

const DEPTS: [&str; 6] = ["lobby", "network", "trade", "service", "finance", "total"];

/// The statistics of one table.
fn summarize(records: &[GameRecord], names: &[&str]) -> Value {
    let finished: Vec<&GameRecord> = records.iter().filter(|r| r.finished).collect();
    let mut per = Vec::new();
    for (si, name) in names.iter().enumerate() {
        let seats: Vec<&SeatRecord> = finished
            .iter()
            .flat_map(|r| r.seats.iter())
            .filter(|s| s.strategy == si)
            .collect();
        if seats.is_empty() {
            continue;
        }
        let n = seats.len() as f64;
        let mut vp = serde_json::Map::new();
        for (d, dept) in DEPTS.iter().enumerate() {
            let v: Vec<f64> = seats.iter().map(|s| s.vp[d] as f64).collect();
            let (m, sd) = mean_sd(&v);
            vp.insert(
                (*dept).to_string(),
                json!({"mean": round2(m), "sd": round2(sd)}),
            );
        }
        let avg =
            |f: &dyn Fn(&SeatRecord) -> f64| round2(seats.iter().map(|s| f(s)).sum::<f64>() / n);
        per.push(json!({
            "strategy": name,
            "seats": seats.len(),
            "win_rate": round2(seats.iter().map(|s| s.win).sum::<f64>() / n * 100.0) / 100.0,
            "wins": round2(seats.iter().map(|s| s.win).sum::<f64>()),
            "vp": vp,
            "deliveries": avg(&|s| f64::from(s.deliveries)),
            "stations": avg(&|s| f64::from(s.stations)),
            "turns": avg(&|s| f64::from(s.turns)),
            "budget_dm": avg(&|s| s.budget as f64),
            "spent_dm": avg(&|s| s.spent as f64),
            "dm_end": avg(&|s| s.dm_end as f64),
        }));
    }
    let mut main = [0u64; 3];
    let mut blocked = [0u64; 3];
    let mut stations = [0u64; 3];
    let (mut held, mut dear, mut paid, mut spent) = ([0i64; 3], [0i64; 3], [0i64; 3], [0i64; 3]);
    for r in &finished {
        for e in 0..3 {
            main[e] += u64::from(r.main_states[e]);
            blocked[e] += u64::from(r.blocked[e]);
            held[e] += r.dm_held[e];
            dear[e] += r.dearest[e];
            paid[e] += r.budget_by_era[e];
            spent[e] += r.spent_by_era[e];
            stations[e] += u64::from(r.stations_by_era[e]);
        }
    }
    let per_state = |v: &[i64; 3]| -> Vec<f64> {
        (0..3)
            .map(|e| round2(v[e] as f64 / (main[e].max(1)) as f64))
            .collect()
    };
    let seats_played: usize = finished.iter().map(|r| r.seats.len()).sum();
    let per_seat = |v: &[i64; 3]| -> Vec<f64> {
        v.iter()
            .map(|x| round2(*x as f64 / seats_played.max(1) as f64))
            .collect()
    };
    let share: Vec<Value> = (0..3)
        .map(|e| {
            json!(if main[e] == 0 {
                0.0
            } else {
                round2(blocked[e] as f64 / main[e] as f64 * 10_000.0) / 10_000.0
            })
        })
        .collect();
    // Winners' mean VP and the best deliverer's mean VP (games with a delivery).
    let mut winners = Vec::new();
    let mut deliverers = Vec::new();
    let mut min_vp = Vec::new();
    let mut max_vp = Vec::new();
    let mut turns = Vec::new();
    let mut deliveries_game = Vec::new();
    for r in &finished {
        let top = r.seats.iter().map(|s| s.vp[5]).max().unwrap_or(0);
        winners.push(top as f64);
        min_vp.push(r.seats.iter().map(|s| s.vp[5]).min().unwrap_or(0) as f64);
        max_vp.push(top as f64);
        turns.extend(r.seats.iter().map(|s| f64::from(s.turns)));
        deliveries_game.push(r.seats.iter().map(|s| f64::from(s.deliveries)).sum::<f64>());
        if let Some(d) = r
            .seats
            .iter()
            .filter(|s| s.deliveries > 0)
            .max_by_key(|s| (s.deliveries, std::cmp::Reverse(s.vp[5])))
        {
            deliverers.push(d.vp[5] as f64);
        }
    }
    let autobot: Vec<f64> = finished.iter().map(|r| r.autobot_vp as f64).collect();
    let solo = finished.first().is_some_and(|r| r.seats.len() == 1);
    json!({
        "games": records.len(),
        "finished": finished.len(),
        "strategies": per,
        "money_blocked_share_by_era": share,
        "dm_held_mean_by_era": per_state(&held),
        "dearest_action_mean_by_era": per_state(&dear),
        "budget_per_seat_by_era": per_seat(&paid),
        "spent_per_seat_by_era": per_seat(&spent),
        "main_states_by_era": main,
        "winner_vp_mean": round2(mean_sd(&winners).0),
        "best_deliverer_vp_mean": round2(mean_sd(&deliverers).0),
        "games_with_a_delivery": deliverers.len(),
        "deliveries_per_game": round2(mean_sd(&deliveries_game).0),
        "stations_per_game_by_era": stations
            .iter()
            .map(|x| round2(*x as f64 / finished.len().max(1) as f64))
            .collect::<Vec<_>>(),
        "turns_per_player": {"mean": round2(mean_sd(&turns).0), "sd": round2(mean_sd(&turns).1)},
        "vp_min_mean": round2(mean_sd(&min_vp).0),
        "vp_max_mean": round2(mean_sd(&max_vp).0),
        "autobot_vp_mean": if solo { json!(round2(mean_sd(&autobot).0)) } else { Value::Null },
    })
}

/// `referee balance`: plays the tables, prints the JSON report (and writes it to `--out`).
/// Exit status 2 for bad arguments, 1 when a game did not finish, else 0.
pub fn main(args: &BalanceArgs) -> ExitCode {
    let mut options = Options::default();
    for kv in args.options.iter().filter(|s| !s.trim().is_empty()) {
        let Some((k, v)) = kv.split_once('=') else {
            eprintln!("referee balance: --options: `{kv}` is not name=value");
            return ExitCode::from(2);
        };
        let v = match v.strip_prefix('@') {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("referee balance: --options {k}: cannot read {path}: {e}");
                    return ExitCode::from(2);
                }
            },
            None => v.to_string(),
        };
        if let Err(e) = options.set(k.trim(), &v) {
            eprintln!("referee balance: --options {k}: {e}");
            return ExitCode::from(2);
        }
    }
    let mut names: Vec<&'static str> = Vec::new();
    for n in &args.strategies {
        match Strategy::from_name(n.trim()) {
            Some(s) => names.push(s.name()),
            None => {
                eprintln!(
                    "referee balance: unknown strategy `{n}`; the strategy bots: balanced, builder, network, trucker, finance"
                );
                return ExitCode::from(2);
            }
        }
    }
    if names.is_empty() {
        names = Strategy::ALL.iter().map(|s| s.name()).collect();
    }
    let index: Vec<usize> = names
        .iter()
        .map(|n| {
            Strategy::ALL
                .iter()
                .position(|s| s.name() == *n)
                .unwrap_or(0)
        })
        .collect();
    let all_names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
    let start = std::time::Instant::now();
    let mut tables = BTreeMap::new();
    let mut unfinished = 0usize;
    for &players in &args.players {
        if !(2..=4).contains(&players) || players as usize > names.len() {
            eprintln!(
                "referee balance: --players {players}: 2 to 4, at most the number of strategies"
            );
            return ExitCode::from(2);
        }
        let combos = subsets(names.len(), players as usize);
        let c = combos.len() as u32;
        let line = |g: u32| {
            let combo = &combos[(g % c) as usize];
            let r = ((g / c) % players) as usize;
            (0..players as usize)
                .map(|i| index[combo[(i + r) % players as usize]])
                .collect::<Vec<_>>()
        };
        let recs = run_table(
            &options,
            args.games,
            args.seed,
            args.max_actions,
            args.threads,
            &line,
        );
        unfinished += recs.iter().filter(|r| !r.finished).count();
        let s = summarize(&recs, &all_names);
        eprintln!(
            "referee balance: {players} players: {} games in {:.0} s",
            args.games,
            start.elapsed().as_secs_f64()
        );
        tables.insert(format!("{players}p"), s);
    }
    let mut solo = BTreeMap::new();
    let solo_names: Vec<usize> = args
        .solo_strategies
        .iter()
        .filter_map(|n| Strategy::from_name(n.trim()))
        .map(|s| Strategy::ALL.iter().position(|x| *x == s).unwrap_or(0))
        .collect();
    for &level in &args.solo_levels {
        if !(1..=12).contains(&level) {
            eprintln!("referee balance: --solo-levels {level}: 1 to 12");
            return ExitCode::from(2);
        }
        let mut o = options.clone();
        o.autobot_level = level;
        let k = solo_names.len().max(1) as u32;
        let line = |g: u32| vec![solo_names.get((g % k) as usize).copied().unwrap_or(0)];
        let recs = run_table(
            &o,
            args.solo_games.unwrap_or(args.games),
            args.seed,
            args.max_actions,
            args.threads,
            &line,
        );
        unfinished += recs.iter().filter(|r| !r.finished).count();
        solo.insert(format!("{level:02}"), summarize(&recs, &all_names));
    }
    let board: &Arc<Board> = &options.board;
    let report = json!({
        "board_id": board.def.board_id,
        "games_per_table": args.games,
        "seed": args.seed,
        "strategies": names,
        "tables": tables,
        "solo": solo,
        "unfinished": unfinished,
        "seconds": round2(start.elapsed().as_secs_f64()),
    });
    let text = serde_json::to_string_pretty(&report).unwrap_or_default();
    if let Some(path) = &args.out
        && let Err(e) = std::fs::write(path, &text)
    {
        eprintln!("referee balance: cannot write {}: {e}", path.display());
        return ExitCode::from(2);
    }
    crate::cli::print_result(&text);
    if unfinished == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_seats_every_strategy_equally() {
        assert_eq!(subsets(5, 3).len(), 10);
        assert_eq!(subsets(5, 2).len(), 10);
        assert_eq!(subsets(5, 4).len(), 5);
        assert_eq!(subsets(4, 4), vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn a_small_table_is_reproducible() {
        let o = Options::default();
        let line = |g: u32| vec![(g % 5) as usize, ((g + 1) % 5) as usize];
        let a = run_table(&o, 4, 9, 5_000, 2, &line);
        let b = run_table(&o, 4, 9, 5_000, 1, &line);
        assert!(a.iter().all(|r| r.finished));
        let key = |r: &Vec<GameRecord>| {
            r.iter()
                .map(|g| {
                    (
                        g.seats.iter().map(|s| s.vp[5]).collect::<Vec<_>>(),
                        g.blocked,
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(key(&a), key(&b), "threads do not change the games");
        let s = summarize(
            &a,
            &["balanced", "builder", "network", "trucker", "finance"],
        );
        assert_eq!(s["finished"], 4);
        let wins: f64 = s["strategies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["wins"].as_f64().unwrap())
            .sum();
        assert!(
            (wins - 4.0).abs() < 1e-6,
            "one win per game, shared on ties"
        );
        // Every era pays a budget and has main-phase states holding DM.
        for k in [
            "dm_held_mean_by_era",
            "budget_per_seat_by_era",
            "spent_per_seat_by_era",
        ] {
            let v = s[k].as_array().unwrap();
            assert_eq!(v.len(), 3, "{k}");
            assert!(v.iter().all(|x| x.as_f64().unwrap() > 0.0), "{k}: {v:?}");
        }
    }

    /// A game of 2 players after the route draft, on `board`.
    fn started(board: referee_engine::autobahn::Board) -> State {
        let o = Options {
            board: Arc::new(board),
            ..Options::default()
        };
        let mut s = Autobahn::setup(&o, 2, 5).unwrap();
        while matches!(s.phase, Phase::RouteDraft) {
            let seat = Autobahn::to_act(&s)[0];
            let a = Autobahn::legal_actions(&s, seat)[0].clone();
            Autobahn::apply(&mut s, seat, &a).unwrap();
        }
        s
    }

    /// The money measure: at the start the dearest blockable action is a section of the
    /// default board (at most 8 DM in era 1, below the 14 DM held); with stations priced
    /// above the DM held (U-30), a station on the pre-built black road is blocked.
    #[test]
    fn money_blocks_a_station_priced_above_the_dm_held() {
        let s = started(Board::default_board());
        let p = 0;
        assert_eq!(s.p(p).dm, 14);
        let d = dearest_action(&s, p);
        assert!((3..=8).contains(&d), "{d}");
        let text = referee_engine::autobahn::board::DEFAULT_BOARD_JSON
            .replace("\"build_cost_dm\": 0", "\"build_cost_dm\": 40");
        let s = started(Board::from_json(&text).unwrap());
        assert_eq!(s.board.def.service_stations.build_cost(1), 40);
        assert_eq!(dearest_action(&s, p), 40);
        assert!(dearest_action(&s, p) > s.p(p).dm);
        // One price per era: the current era's counts.
        let text = referee_engine::autobahn::board::DEFAULT_BOARD_JSON
            .replace("\"build_cost_dm\": 0", "\"build_cost_dm\": [20, 90, 150]");
        let mut s = started(Board::from_json(&text).unwrap());
        assert_eq!(dearest_action(&s, p), 20);
        s.era = 2;
        assert_eq!(dearest_action(&s, p), 90);
    }
}
