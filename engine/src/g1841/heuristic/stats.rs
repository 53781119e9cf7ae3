//! Heuristic games and what happens in them (issue #22): [`play`] plays one game with every
//! seat on the `heuristic` policy exactly as `referee playout --policy heuristic` does (game
//! seed = policy generator seed, the first seat of `to_act` acts), and counts the events the
//! frequency report of `docs/games/1841.md` lists; [`modes`] are the report's modes.
//! `cargo run --release -p referee-engine --example frequencies1841 -- 1000` prints the
//! report.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::choose;
use crate::Game;
use crate::g1841::action::{Action, Event};
use crate::g1841::options::FAQ_OPTIONS;
use crate::g1841::{G1841, Options, State, data};

/// What happened in one heuristic game. Counts are numbers of occurrences.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Seats.
    pub players: u32,
    /// Game and policy seed.
    pub seed: u64,
    /// Actions applied.
    pub actions: u64,
    /// End reason (1841 §13: `bank`, `stock_market`, `offboards`, `bankrupt`, or
    /// `no_player_can_act`); `None` when the game did not end.
    pub end: Option<String>,
    /// The engine refused a listed action or could not go on: the message.
    pub error: Option<String>,
    /// Mergers carried out (1841 §12.1): proposals minus failed ones.
    pub mergers: u32,
    /// Transformations (1841 §12.2).
    pub transformations: u32,
    /// The Ferdinandea split happened (1841 §12.4).
    pub split: bool,
    /// The Tuscan merge formed SFLi (1841 §12.3).
    pub tuscan: bool,
    /// Corporations that became frozen (1841 §7.4).
    pub frozen: u32,
    /// Tokens bought from other corporations (1841 §9.5, rule 4.4).
    pub token_purchases: u32,
    /// Operating turns with emergency money raising (1841 §14): turns with an emergency sale
    /// or emergency funds, each turn once however many sales and contributions it has.
    pub emergencies: u32,
    /// Bankruptcies (1841 §14).
    pub bankruptcies: u32,
    /// Name of the last phase reached.
    pub phase: String,
    /// Off-board groups connected at the end (1841 §13: all of them end the game).
    pub offboards: u32,
}

/// The modes of the report: name, options, and the player counts the games spread over
/// (Version 2 at 3–8, `lite` 3–6, `version_1` with the FAQ options off, `version_1` with
/// `sfli_run_variant`, `p2p_purchases`).
pub fn modes() -> Vec<(&'static str, Options)> {
    let faq_off = |mut o: Options| {
        for f in FAQ_OPTIONS {
            // Every name of FAQ_OPTIONS is an option; a failure would leave the default.
            let _ = o.set(f.name, "false");
        }
        o
    };
    vec![
        ("version_2", Options::default()),
        (
            "lite",
            Options {
                lite: true,
                ..Options::default()
            },
        ),
        (
            "version_1",
            faq_off(Options {
                version_1: true,
                ..Options::default()
            }),
        ),
        (
            "version_1+sfli_run_variant",
            faq_off(Options {
                version_1: true,
                sfli_run_variant: true,
                ..Options::default()
            }),
        ),
        (
            "p2p_purchases",
            Options {
                p2p_purchases: true,
                ..Options::default()
            },
        ),
    ]
}

/// The player counts of a mode (its ruleset's range, 1841 §2).
pub fn player_counts(options: &Options) -> Vec<u32> {
    let r = data::ruleset(options);
    (r.players.min..=r.players.max).collect()
}

/// Plays one game with every seat on the heuristic policy, at most `max_actions` actions.
pub fn play(options: &Options, players: u32, seed: u64, max_actions: u64) -> GameStats {
    let mut stats = GameStats {
        players,
        seed,
        ..GameStats::default()
    };
    let mut state: State = match G1841::setup(options, players, seed) {
        Ok(s) => s,
        Err(e) => {
            stats.error = Some(format!("setup: {e}"));
            return stats;
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let split_from = data::ruleset(options).ferdinandea_split.from.clone();
    let tuscan = data::ruleset(options)
        .tuscan_merge
        .as_ref()
        .map(|t| t.result.clone());
    // The operating turn (numbered by its `OperatingTurn` event) last counted as an emergency.
    let mut emergency_turn: Option<u32> = None;
    let mut turn_no = 0u32;
    while stats.actions < max_actions {
        if let Some(o) = G1841::outcome(&state) {
            stats.end = Some(o.end_reason);
            break;
        }
        let Some(&seat) = G1841::to_act(&state).first() else {
            stats.error = Some("no seat can act and the game has no result".into());
            break;
        };
        let legal = G1841::legal_actions(&state, seat);
        if legal.is_empty() {
            stats.error = Some(format!("seat {seat} must act but has no legal action"));
            break;
        }
        let action = choose(&state, seat, legal, &mut rng);
        let events = match G1841::apply(&mut state, seat, &action) {
            Ok(e) => e,
            Err(r) => {
                stats.error = Some(format!(
                    "action {}: seat {seat}: {action:?} rejected: {r}",
                    stats.actions
                ));
                break;
            }
        };
        stats.actions += 1;
        match &action {
            Action::ProposeMerger { .. } => stats.mergers += 1,
            Action::Transform { .. } => stats.transformations += 1,
            _ => {}
        }
        for e in &events {
            match e {
                Event::OperatingTurn { .. } => turn_no += 1,
                Event::MergerFailed { .. } => stats.mergers = stats.mergers.saturating_sub(1),
                Event::CorporationFormed {
                    corporation, from, ..
                } => {
                    if from.len() == 1 && from[0] == split_from {
                        stats.split = true;
                    }
                    if tuscan.as_deref() == Some(corporation.as_str()) {
                        stats.tuscan = true;
                    }
                }
                Event::FrozenChanged { frozen: true, .. } => stats.frozen += 1,
                Event::TokenBought { .. } => stats.token_purchases += 1,
                // One turn is one corporation's: its sales (of whichever corporation's
                // certificates) and contributions count once.
                Event::EmergencySold { .. } | Event::EmergencyFunds { .. }
                    if emergency_turn != Some(turn_no) =>
                {
                    stats.emergencies += 1;
                    emergency_turn = Some(turn_no);
                }
                Event::Bankrupt { .. } => stats.bankruptcies += 1,
                _ => {}
            }
        }
    }
    if stats.end.is_none()
        && stats.error.is_none()
        && let Some(o) = G1841::outcome(&state)
    {
        stats.end = Some(o.end_reason);
    }
    stats.phase = state.phase.clone();
    stats.offboards = state.game_end.connected_offboards.len() as u32;
    stats
}

/// Totals over many games of one mode.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played.
    pub games: u32,
    /// Games per end reason (`unfinished` and `error` included).
    pub ends: std::collections::BTreeMap<String, u32>,
    /// Games with at least one merger, transformation, split, Tuscan merge, frozen
    /// corporation, token purchase, emergency, bankruptcy (in that order).
    pub with: [u32; 8],
    /// Sums of the counts, same order (split and Tuscan: games).
    pub total: [u64; 8],
    /// Actions applied in all.
    pub actions: u64,
    /// Off-board groups connected at the end, summed over the games.
    pub offboards: u64,
    /// Games per last phase reached.
    pub phases: std::collections::BTreeMap<String, u32>,
    /// The first errors (seed, players, message).
    pub errors: Vec<(u64, u32, String)>,
}

/// Row names of [`Summary::with`].
pub const EVENT_NAMES: [&str; 8] = [
    "mergers (§12.1)",
    "transformations (§12.2)",
    "Ferdinandea split (§12.4)",
    "Tuscan merge (§12.3)",
    "frozen corporations (§7.4)",
    "token purchases (§9.5, rule 4.4)",
    "emergency money raising (§14)",
    "bankruptcies (§14)",
];

impl Summary {
    /// Adds one game.
    pub fn add(&mut self, g: &GameStats) {
        self.games += 1;
        self.actions += g.actions;
        self.offboards += u64::from(g.offboards);
        *self.phases.entry(g.phase.clone()).or_insert(0) += 1;
        let end = match (&g.end, &g.error) {
            (_, Some(e)) => {
                if self.errors.len() < 10 {
                    self.errors.push((g.seed, g.players, e.clone()));
                }
                "error".to_string()
            }
            (Some(r), None) => r.clone(),
            (None, None) => "unfinished".to_string(),
        };
        *self.ends.entry(end).or_insert(0) += 1;
        let counts = [
            u64::from(g.mergers),
            u64::from(g.transformations),
            u64::from(g.split),
            u64::from(g.tuscan),
            u64::from(g.frozen),
            u64::from(g.token_purchases),
            u64::from(g.emergencies),
            u64::from(g.bankruptcies),
        ];
        for (i, c) in counts.iter().enumerate() {
            self.total[i] += c;
            if *c > 0 {
                self.with[i] += 1;
            }
        }
    }
}
