//! `referee playout`: plays K seeded games, each seat by a named policy (random by default),
//! and reports one JSON object (counts, time, score statistics per seat, every error with its
//! game, seed and action index). Generic over [`Game`], so every game of the engine can be
//! played out; options come in through the game's [`WireGame`] mapping exactly as NewGame
//! receives them.
//!
//! **Random policy.** At each step one seat of `to_act` is picked, then one of its legal
//! actions, uniformly, except that actions the game marks as *rare* (Autobahn: `TakeBackCards`
//! and `Decline`) are picked only when nothing else is legal or with 1 chance in 8 (the policy
//! of the engine's proptests), so games do not stall in endless take-backs. 1841:
//! withholding, buying another corporation's train, declaring bankruptcy and (with
//! `p2p_purchases`) offers to buy from other players are rare ([`g1841_rare`]), so companies
//! pay out and buy trains from the depot and players trade now and then, at market value;
//! routes are the route optimizer's best set.
//!
//! Game `k` (0-based) uses seed `S + k` both for the engine setup and for the ChaCha8 RNG of
//! the policy, so any game is reproducible alone with `--seed S+k --games 1`.
//!
//! A game ends *finished* (it has an outcome), *unfinished* (the action limit was reached, no
//! seat can act, a seat to act has no legal action, or the engine answered `UNSUPPORTED` for a
//! part of the rules it does not implement yet) or with an *error* (setup failed, a listed
//! legal action was rejected for another reason, or the engine panicked).

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use referee_engine::{Game, RejectionCode};
use serde_json::{Value, json};

use std::process::ExitCode;

use crate::cli::{PlayoutArgs, PlayoutGame};
use crate::games::WireGame;
use crate::games::autobahn::WireAutobahn;
use crate::games::g1841::Wire1841;
use crate::work::Cancel;

/// What to play.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Seats per game.
    pub players: u32,
    /// Number of games.
    pub games: u32,
    /// Seed of game 0 (game k uses `seed + k`).
    pub seed: u64,
    /// Actions after which an unfinished game is given up.
    pub max_actions: u64,
    /// NewGame options (`name → value`).
    pub options: BTreeMap<String, String>,
    /// Policy names, one per seat (seat `i` plays `policies[i % len]`); empty = `random`.
    pub policies: Vec<String>,
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// The game has an outcome: scores per seat and the game's end reason (1841: `bank`,
    /// `stock_market`, `bankruptcy`, …; Autobahn: its own vocabulary).
    Finished(Vec<i64>, String),
    /// `max_actions` actions were applied and the game has no outcome yet.
    ActionLimit,
    /// The deadline of [`Stop`] passed before the game ended.
    Deadline,
    /// The [`Cancel`] of [`Stop`] was set (the caller of the Playout RPC went away).
    Cancelled,
    /// The game stopped without an outcome (nobody to act, unsupported rules).
    Unfinished(String),
    /// A failure of the engine (or of the game's contract).
    Error(String),
}

/// One played game.
#[derive(Clone, Debug)]
pub struct Played {
    /// How it ended.
    pub ending: Ending,
    /// Actions applied.
    pub actions: u64,
}

/// A uniform index below `n` from `rng` (0 when `n` is 0).
pub fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    if n == 0 {
        0
    } else {
        (rng.next_u64() % n as u64) as usize
    }
}

/// Plays one game of `G` with seed `seed`; `rare` marks the actions picked rarely; seat `i`
/// plays `policies[i % len]` (at least one policy).
pub fn play_one<G: Game>(
    options: &G::Options,
    players: u32,
    seed: u64,
    max_actions: u64,
    rare: fn(&G::Action) -> bool,
    policies: &[Policy<G>],
) -> Played {
    let mut state = match G::setup(options, players, seed) {
        Ok(s) => s,
        Err(e) => {
            return Played {
                ending: Ending::Error(format!("setup: {e}")),
                actions: 0,
            };
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    play_from::<G>(
        &mut state,
        &mut rng,
        max_actions,
        rare,
        policies,
        Stop::default(),
        None,
    )
}

/// A game's bot: the action it plays for `seat` among the (non-empty) legal actions, using
/// only `rng` for its random choices (deterministic for a given generator state).
pub type BotFn<G> = fn(
    &<G as Game>::State,
    referee_engine::Seat,
    Vec<<G as Game>::Action>,
    &mut ChaCha8Rng,
) -> <G as Game>::Action;

/// How [`play_from`] chooses, named by a string (issue #23, one convention for every game):
/// `random`, `first`, then the game's bots (`heuristic` and its own names; see
/// [`policy_by_name`]).
pub enum Policy<G: Game> {
    /// `random`: a seat of `to_act` and one of its legal actions at random ([`pick`]'s rare rule).
    Random,
    /// `first`: the first seat of `to_act` and its first legal action.
    First,
    /// A bot of the game (Autobahn: `heuristic`/`balanced`, `builder`, `network`, `trucker`,
    /// `finance`): the first seat of `to_act`, the bot's choice.
    Bot(BotFn<G>),
}

impl<G: Game> Clone for Policy<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Policy<G> {}

impl<G: Game> std::fmt::Debug for Policy<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Policy::Random => "Random",
            Policy::First => "First",
            Policy::Bot(_) => "Bot",
        })
    }
}

/// The policy called `name` for game `W`. Errors (the message of INVALID_ARGUMENT, and of
/// `referee playout`): a name the game does not have, listing the names it has; `heuristic`
/// for a game without one says so.
pub fn policy_by_name<W: WireGame>(name: &str) -> Result<Policy<W::G>, String> {
    let name = name.trim();
    let names = W::policy_names().join(", ");
    match name {
        "random" => Ok(Policy::Random),
        "first" => Ok(Policy::First),
        _ => match W::bot(name) {
            Some(f) => Ok(Policy::Bot(f)),
            None if name == "heuristic" => Err(format!(
                "{} has no `heuristic` policy yet; its policies: {names}",
                W::ID
            )),
            None => Err(format!(
                "unknown policy `{}` for {}; its policies: {names}",
                crate::games::log_safe(name),
                W::ID
            )),
        },
    }
}

/// When [`play_from`] stops early, checked before every action: the Playout RPC's deadline
/// and the [`Cancel`] of its call. `referee playout` sets neither.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stop<'a> {
    /// Stop with [`Ending::Deadline`] once this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop with [`Ending::Cancelled`] once this is set.
    pub cancel: Option<&'a Cancel>,
}

/// Plays `state` on with `policies` (seat `i` plays `policies[i % len]`; the seat acting is
/// the first of `to_act` unless the policy of the first is `random`) until it has an outcome, `max_actions` actions were applied
/// ([`Ending::ActionLimit`]), or `stop` says so ([`Ending::Deadline`], [`Ending::Cancelled`]).
/// Every applied action is pushed to `record` when given. The Playout RPC and
/// `referee playout` share it.
pub fn play_from<G: Game>(
    state: &mut G::State,
    rng: &mut ChaCha8Rng,
    max_actions: u64,
    rare: fn(&G::Action) -> bool,
    policies: &[Policy<G>],
    stop: Stop<'_>,
    mut record: Option<&mut Vec<(referee_engine::Seat, G::Action)>>,
) -> Played {
    let mut actions = 0u64;
    loop {
        if let Some(o) = G::outcome(state) {
            return Played {
                ending: Ending::Finished(o.scores, o.end_reason),
                actions,
            };
        }
        if actions >= max_actions {
            return Played {
                ending: Ending::ActionLimit,
                actions,
            };
        }
        if stop.cancel.is_some_and(Cancel::is_cancelled) {
            return Played {
                ending: Ending::Cancelled,
                actions,
            };
        }
        if stop.deadline.is_some_and(|d| Instant::now() >= d) {
            return Played {
                ending: Ending::Deadline,
                actions,
            };
        }
        let to_act = G::to_act(state);
        if to_act.is_empty() {
            return Played {
                ending: Ending::Unfinished("no seat can act and the game has no result".into()),
                actions,
            };
        }
        let policy_of = |seat: referee_engine::Seat| {
            policies
                .get(seat as usize % policies.len().max(1))
                .copied()
                .unwrap_or(Policy::Random)
        };
        let seat = match policy_of(to_act[0]) {
            Policy::Random => to_act[below(rng, to_act.len())],
            Policy::First | Policy::Bot(_) => to_act[0],
        };
        let policy = policy_of(seat);
        let mut legal = G::legal_actions(state, seat);
        if legal.is_empty() {
            // The engine cannot go on (1841 today: the operating round is not implemented).
            return Played {
                ending: Ending::Unfinished(format!(
                    "action {actions}: seat {seat} must act but has no legal action (rules not implemented yet?)"
                )),
                actions,
            };
        }
        let pick = match policy {
            Policy::Random => pick(legal, rare, rng),
            Policy::First => legal.swap_remove(0),
            Policy::Bot(bot) => bot(state, seat, legal, rng),
        };
        match G::apply(state, seat, &pick) {
            Ok(_) => {
                actions += 1;
                if let Some(r) = record.as_deref_mut() {
                    r.push((seat, pick));
                }
            }
            Err(r) if r.code == RejectionCode::Unsupported => {
                return Played {
                    ending: Ending::Unfinished(format!(
                        "action {actions}: not supported by the engine yet: {}",
                        r.message
                    )),
                    actions,
                };
            }
            Err(r) => {
                return Played {
                    ending: Ending::Error(format!(
                        "action {actions}: seat {seat}: legal action {pick:?} rejected: {r}"
                    )),
                    actions,
                };
            }
        }
    }
}

/// The random policy: a common action with probability 7/8 (when there is one), else any
/// legal action, uniformly. Takes the chosen action out of `legal` (no copy).
pub fn pick<A>(mut legal: Vec<A>, rare: fn(&A) -> bool, rng: &mut ChaCha8Rng) -> A {
    let common = legal.iter().filter(|a| !rare(a)).count();
    let index = if common > 0 && below(rng, 8) != 0 {
        let k = below(rng, common);
        legal
            .iter()
            .enumerate()
            .filter(|(_, a)| !rare(a))
            .nth(k)
            .map_or(0, |(i, _)| i)
    } else {
        below(rng, legal.len())
    };
    legal.swap_remove(index)
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Plays the plan for game `W` and returns the JSON report and whether every game finished
/// without error. Errors: bad options (before any game is played).
pub fn run<W: WireGame>(
    plan: &Plan,
    rare: fn(&<W::G as Game>::Action) -> bool,
) -> Result<(Value, bool), String> {
    let options = W::options_from_pb(&plan.options).map_err(|s| s.message().to_string())?;
    let policies = if plan.policies.is_empty() {
        vec![Policy::Random]
    } else {
        plan.policies
            .iter()
            .map(|n| policy_by_name::<W>(n))
            .collect::<Result<Vec<_>, _>>()?
    };
    let start = Instant::now();
    let mut finished = 0u32;
    let mut total_actions = 0u64;
    let mut scores: Vec<Vec<i64>> = Vec::new();
    let mut errors = Vec::new();
    let mut unfinished = Vec::new();
    let mut end_reasons: BTreeMap<String, u32> = BTreeMap::new();
    for k in 0..plan.games {
        let seed = plan.seed.wrapping_add(u64::from(k));
        let played = catch_unwind(AssertUnwindSafe(|| {
            play_one::<W::G>(
                &options,
                plan.players,
                seed,
                plan.max_actions,
                rare,
                &policies,
            )
        }))
        .unwrap_or_else(|p| Played {
            ending: Ending::Error(format!("engine panicked: {}", panic_message(p.as_ref()))),
            actions: 0,
        });
        total_actions += played.actions;
        match played.ending {
            Ending::Finished(s, reason) => {
                finished += 1;
                scores.push(s);
                *end_reasons.entry(reason).or_insert(0u32) += 1;
            }
            Ending::ActionLimit => unfinished.push(json!({
                "game": k, "seed": seed, "actions": played.actions,
                "reason": format!("no result after {} actions (--max-actions)", plan.max_actions),
            })),
            // No deadline and no cancel flag here; kept apart for completeness.
            Ending::Deadline | Ending::Cancelled => unfinished.push(json!({
                "game": k, "seed": seed, "actions": played.actions, "reason": "stopped early",
            })),
            Ending::Unfinished(reason) => unfinished.push(json!({
                "game": k, "seed": seed, "actions": played.actions, "reason": reason,
            })),
            Ending::Error(message) => errors.push(json!({
                "game": k, "seed": seed, "action_index": played.actions, "message": message,
            })),
        }
    }
    let seats = scores.iter().map(Vec::len).max().unwrap_or(0);
    let per_seat = |f: &dyn Fn(&[i64]) -> Value| -> Vec<Value> {
        (0..seats)
            .map(|i| {
                let v: Vec<i64> = scores.iter().filter_map(|s| s.get(i).copied()).collect();
                f(&v)
            })
            .collect()
    };
    let mean = per_seat(&|v| {
        if v.is_empty() {
            Value::Null
        } else {
            json!(v.iter().sum::<i64>() as f64 / v.len() as f64)
        }
    });
    let min = per_seat(&|v| json!(v.iter().min()));
    let max = per_seat(&|v| json!(v.iter().max()));
    let ok = finished == plan.games && errors.is_empty();
    let report = json!({
        "game": W::ID,
        "players": plan.players,
        "games": plan.games,
        "seed": plan.seed,
        "max_actions": plan.max_actions,
        "policies": if plan.policies.is_empty() { vec!["random".to_string()] } else { plan.policies.clone() },
        "finished": finished,
        "unfinished": unfinished.len(),
        "errors": errors.len(),
        "actions": total_actions,
        "seconds": start.elapsed().as_secs_f64(),
        "scores": { "mean": mean, "min": min, "max": max },
        "end_reasons": end_reasons,
        "error_details": errors,
        "unfinished_details": unfinished,
    });
    Ok((report, ok))
}

/// `referee playout`: parses the arguments, plays, prints the report. Exit status: 0 when
/// every game finished without error, 1 otherwise, 2 for bad arguments or options.
pub fn main(args: &PlayoutArgs) -> ExitCode {
    let mut options = BTreeMap::new();
    for kv in args.options.iter().filter(|s| !s.trim().is_empty()) {
        let Some((k, v)) = kv.split_once('=') else {
            eprintln!("referee playout: --options: `{kv}` is not name=value");
            return ExitCode::from(2);
        };
        let v = match v.strip_prefix('@') {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) => {
                    eprintln!("referee playout: --options {k}: cannot read {path}: {e}");
                    return ExitCode::from(2);
                }
            },
            None => v.to_string(),
        };
        options.insert(k.trim().to_string(), v);
    }
    let plan = Plan {
        players: args.players,
        games: args.games,
        seed: args.seed,
        max_actions: args.max_actions.unwrap_or(match args.game {
            PlayoutGame::Autobahn => 5_000,
            PlayoutGame::G1841 => 20_000,
        }),
        options,
        policies: args.policy.clone(),
    };
    let result = match args.game {
        PlayoutGame::Autobahn => run::<WireAutobahn>(&plan, autobahn_rare),
        PlayoutGame::G1841 => run::<Wire1841>(&plan, g1841_rare),
    };
    if let Some(dir) = &args.export_18xx {
        if args.game != PlayoutGame::G1841 {
            eprintln!("referee playout: --export-18xx is for --game 1841 only");
            return ExitCode::from(2);
        }
        if let Err(e) = export_1841_games(&plan, dir) {
            eprintln!("referee playout: --export-18xx: {e}");
            return ExitCode::from(2);
        }
    }
    match result {
        Ok((report, ok)) => {
            crate::cli::print_result(&report);
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("referee playout: {e}");
            ExitCode::from(2)
        }
    }
}

/// 1841's rarely picked actions, so random games reach an end (see the module docs):
/// withholding, buying another corporation's train (listed at L.1), declaring bankruptcy and,
/// with `p2p_purchases`, offering to buy from another player (listed at the item's market
/// value; the seller's accept and decline are common).
/// Routes come from the route optimizer (the representative of the routes step is its best
/// route set). Passing stays as likely as anything else: making it rare too had players buy
/// to their limits, go bankrupt and leave frozen corporations nobody could take over (games
/// with nobody able to act: 13 of 30 with 6 players, against 0 of 30 with this policy).
pub fn g1841_rare(a: &referee_engine::g1841::Action) -> bool {
    use referee_engine::g1841::Action;
    match a {
        Action::DeclareBankruptcy { .. } | Action::OfferPurchase { .. } => true,
        Action::Dividend { payout } => !payout,
        Action::BuyTrain { from, .. } => from != "depot" && from != "pool",
        _ => false,
    }
}

/// Autobahn actions the random policy picks rarely.
pub fn autobahn_rare(a: &referee_engine::autobahn::Action) -> bool {
    use referee_engine::autobahn::Action;
    matches!(a, Action::TakeBackCards | Action::Decline)
}

/// Plays the games of `plan` again (the same seeds, so the same games) with their actions
/// recorded and writes each as an 18xx.games export, `dir/1841-<seed>.json`
/// ([`referee_engine::g1841::export18xx::export`]). An action the writer cannot express ends
/// the export there; the file then carries `referee_export_failure` (`index`, `kind`,
/// `reason`). Errors: options, an unwritable directory.
pub fn export_1841_games(plan: &Plan, dir: &std::path::Path) -> Result<(), String> {
    use referee_engine::g1841::G1841;
    use referee_engine::g1841::export18xx::{ExportSettings, export};
    let options = Wire1841::options_from_pb(&plan.options).map_err(|s| s.message().to_string())?;
    // The plan's policies, so the same games are played again.
    let policies = if plan.policies.is_empty() {
        vec![Policy::Random]
    } else {
        plan.policies
            .iter()
            .map(|n| policy_by_name::<Wire1841>(n))
            .collect::<Result<Vec<_>, _>>()?
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for k in 0..plan.games {
        let seed = plan.seed.wrapping_add(u64::from(k));
        let Ok(mut state) = G1841::setup(&options, plan.players, seed) else {
            continue;
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut record = Vec::new();
        let _ = catch_unwind(AssertUnwindSafe(|| {
            play_from::<G1841>(
                &mut state,
                &mut rng,
                plan.max_actions,
                g1841_rare,
                &policies,
                Stop::default(),
                Some(&mut record),
            )
        }));
        let settings = ExportSettings {
            id: i64::try_from(seed).ok(),
            ..Default::default()
        };
        let exported =
            export(&options, plan.players, &record, &settings).map_err(|e| e.to_string())?;
        let mut json = exported.json;
        json["referee_actions"] = Value::from(record.len());
        let players: Vec<referee_engine::g1841::import18xx::ExportPlayer> = (1..=plan.players)
            .map(|n| referee_engine::g1841::import18xx::ExportPlayer {
                id: n.to_string(),
                name: format!("Player {n}"),
            })
            .collect();
        let ids: Vec<Option<i64>> = exported.action_ids.iter().map(|i| Some(*i)).collect();
        let played = record.get(..exported.action_ids.len()).unwrap_or(&record);
        json[crate::replay18xx::SNAPSHOTS] = Value::Array(crate::replay18xx::play_snapshots(
            &options, &players, played, &ids,
        ));
        if let Some(f) = &exported.failure {
            json["referee_export_failure"] = json!({
                "index": f.index,
                "kind": format!("{:?}", f.kind),
                "reason": f.reason,
            });
        }
        let path = dir.join(format!("1841-{seed}.json"));
        let text = serde_json::to_string(&json).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rare(a: &referee_engine::autobahn::Action) -> bool {
        autobahn_rare(a)
    }

    #[test]
    fn playouts_are_reproducible_and_finish() {
        let plan = Plan {
            players: 2,
            games: 2,
            seed: 7,
            max_actions: 5_000,
            options: BTreeMap::new(),
            policies: Vec::new(),
        };
        let (a, ok) = run::<WireAutobahn>(&plan, rare).unwrap();
        assert!(ok, "{a}");
        let (b, _) = run::<WireAutobahn>(&plan, rare).unwrap();
        assert_eq!(a["actions"], b["actions"]);
        assert_eq!(a["scores"], b["scores"]);
        assert_eq!(a["finished"], 2);
    }

    #[test]
    fn policies_are_named_by_a_string_for_both_games() {
        assert!(matches!(
            policy_by_name::<WireAutobahn>("random"),
            Ok(Policy::Random)
        ));
        assert!(matches!(
            policy_by_name::<Wire1841>("first"),
            Ok(Policy::First)
        ));
        assert!(matches!(
            policy_by_name::<WireAutobahn>("heuristic"),
            Ok(Policy::Bot(_))
        ));
        for name in ["balanced", "builder", "network", "trucker", "finance"] {
            assert!(
                matches!(policy_by_name::<WireAutobahn>(name), Ok(Policy::Bot(_))),
                "{name}"
            );
        }
        assert!(matches!(
            policy_by_name::<Wire1841>("heuristic"),
            Ok(Policy::Bot(_))
        ));
        let e = policy_by_name::<Wire1841>("balanced").unwrap_err();
        assert_eq!(
            e,
            "unknown policy `balanced` for 1841; its policies: random, first, heuristic"
        );
        let e = policy_by_name::<WireAutobahn>("greedy").unwrap_err();
        assert_eq!(
            e,
            "unknown policy `greedy` for autobahn; its policies: random, first, heuristic, balanced, builder, network, trucker, finance"
        );
    }

    /// `referee playout --game 1841 --policy heuristic` plays exactly the games of the
    /// engine's frequency report (`g1841::heuristic::stats::play`, docs/games/1841.md).
    #[test]
    fn g1841_heuristic_playout_is_the_frequency_report_game() {
        let plan = Plan {
            players: 4,
            games: 1,
            seed: 5,
            max_actions: 20_000,
            options: BTreeMap::new(),
            policies: vec!["heuristic".into()],
        };
        let (report, ok) = run::<Wire1841>(&plan, g1841_rare).unwrap();
        assert!(ok, "{report}");
        let g = referee_engine::g1841::heuristic::stats::play(
            &referee_engine::g1841::Options::default(),
            4,
            5,
            20_000,
        );
        assert_eq!(report["actions"], json!(g.actions));
        let end = g.end.unwrap();
        assert_eq!(report["end_reasons"], json!({ end: 1 }));
    }

    #[test]
    fn strategy_bots_finish_reproducible_games() {
        let plan = Plan {
            players: 3,
            games: 1,
            seed: 3,
            max_actions: 5_000,
            options: BTreeMap::new(),
            policies: vec!["builder".into(), "trucker".into(), "finance".into()],
        };
        let (a, ok) = run::<WireAutobahn>(&plan, rare).unwrap();
        assert!(ok, "{a}");
        let (b, _) = run::<WireAutobahn>(&plan, rare).unwrap();
        assert_eq!(a["scores"], b["scores"]);
        assert_eq!(a["actions"], b["actions"]);
        assert_eq!(a["policies"], json!(["builder", "trucker", "finance"]));
    }

    /// The 1841 games of `referee playout --game 1841 --players 4 --games 20 --seed 1`
    /// (docs/games/1841.md, "Random games"): every one finishes, each by bankruptcy, and the
    /// scores it reports are the players' values less their bankruptcy loans (1841 §13, §14:
    /// L.500 per loan), which is why some are negative: a score is below zero only for a
    /// player with a loan, never below its cash less its loans, and minus its earlier loans for one who resigned.
    #[test]
    fn g1841_random_games_end_by_bankruptcy_and_scores_subtract_the_loans() {
        use referee_engine::g1841::{G1841, game_end};
        let options = Wire1841::options_from_pb(&BTreeMap::new()).unwrap();
        let mut reasons: BTreeMap<String, u32> = BTreeMap::new();
        let (mut negative, mut with_loans, mut lowest) = (0, 0, i64::MAX);
        for seed in 1..=20u64 {
            let mut state = G1841::setup(&options, 4, seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let played = play_from::<G1841>(
                &mut state,
                &mut rng,
                20_000,
                g1841_rare,
                &[Policy::Random],
                Stop::default(),
                None,
            );
            let Ending::Finished(scores, reason) = played.ending else {
                panic!("seed {seed}: {:?}", played.ending);
            };
            *reasons.entry(reason).or_insert(0) += 1;
            assert_eq!(scores, game_end::scores(&state), "seed {seed}");
            for (p, &score) in state.players.iter().zip(&scores) {
                if p.bankrupt {
                    // Resigned: nothing held, minus the loans taken before (§13, §14).
                    assert_eq!(score, -p.loan, "seed {seed}: seat {} resigned", p.seat);
                    continue;
                }
                assert_eq!(p.loan % 500, 0, "seed {seed}: loans of L.500");
                assert!(p.cash >= 0, "seed {seed}: seat {} cash {}", p.seat, p.cash);
                // Certificates and concessions count at least 0: the score is at least the
                // cash less the loans.
                assert!(
                    score >= p.cash - p.loan,
                    "seed {seed}: seat {} score {score}, cash {}, loans {}",
                    p.seat,
                    p.cash,
                    p.loan
                );
                if score < 0 {
                    negative += 1;
                    assert!(
                        p.loan > 0,
                        "seed {seed}: seat {} negative without a loan",
                        p.seat
                    );
                }
                with_loans += u32::from(p.loan > 0);
                lowest = lowest.min(score);
            }
        }
        assert_eq!(reasons, BTreeMap::from([("bankrupt".to_owned(), 20)]));
        assert!(negative > 0 && with_loans >= negative);
        // The lowest score: L.1,295 more loans than cash and certificates. −1,500 before the §9.1
        // lays of issue #22 changed the random games; −2,000 before the rules merged on
        // 2026-12-06 (§3.2, §12.4 holder's choice, §9.6 discard order); −2,062 (five loans
        // against L.438) before the second merge of that day (§12.1 merger order and two-city
        // token, I35, §12.4 pool pair, §14 emergency sweep and dump); −1,500 before the
        // Tuscan merge's token choices and purchase rounds (§12.3) and half a president's
        // certificate into the pool (§14, I39) of branch rules-1841, with a bankrupt's
        // presidency passed on (§14) merged from main; −2,000 (−2,003 on other branches) before
        // the merges of 2026-12-06 08:30 UTC (harness-v2, harness-lp: presidency ties, the
        // end check after a merger, played-through turns); −1,500 before the merges of
        // 2026-12-06 15:00 UTC (§12.2 token money by emergency money raising, §9.7 corporate
        // sales out of a presidency, §14 bankrupt's sales in operating order).
        assert_eq!(lowest, -1295);
    }
}
