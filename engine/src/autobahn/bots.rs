//! Strategy bots of Autobahn (issue #23): seeded, deterministic players used by Playout,
//! `referee playout --policy NAME`, DefaultAction's `policy_name`, the clients' bots and the
//! balance harness. Their strategies are written down, and frozen, in
//! `docs/games/autobahn-bots.md`: the default board is tuned to the bots, never the bots to
//! the board.
//!
//! **How every bot chooses.** A one-ply search: each legal action is applied to a copy of the
//! state and the result is scored with [`evaluate`] for the acting player, plus the strategy's
//! bonus for the kind of action ([`Strategy::kind_bonus`]); the highest total wins, ties
//! broken by the seeded generator. [`evaluate`] is the player's projected final score
//! (autobahn §7: Lobby 2 VP, departments floor × metric) with the strategy's department
//! weights, plus the value of what can still earn points: the construction budget expected
//! from the seats held (AQ-6), loaded trucks by their distance to a border (AQ-4, AQ-5), DM,
//! cards in hand. An action whose reward is certain to be lost ([`super::legal::warning`]) is
//! never chosen while another one is legal.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use super::action::Action;
use super::board::{DEPARTMENTS, Node};
use super::state::{Phase, State, TruckAt};
use super::{Autobahn, era, movement};
use crate::{Game, Seat};

/// The policy names Autobahn answers, in the order `referee playout --help` and the errors
/// list them: the common names (`random`, `first`, `heuristic` = `balanced`), then the
/// strategy bots.
pub const POLICY_NAMES: [&str; 8] = [
    "random",
    "first",
    "heuristic",
    "balanced",
    "builder",
    "network",
    "trucker",
    "finance",
];

/// The strategy of a bot (docs/games/autobahn-bots.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Builds and upgrades first; promotes where the projected score gains most.
    Builder,
    /// Builds and upgrades; promotes into Network.
    Network,
    /// Loads trucks and delivers; promotes into Trade.
    Trucker,
    /// Builds for the construction budget, keeps DM, takes the subsidy; promotes into Finance.
    Finance,
    /// No preferred action or department: the highest projected score (`heuristic`).
    Balanced,
}

impl Strategy {
    /// Every strategy, in harness order.
    pub const ALL: [Strategy; 5] = [
        Strategy::Balanced,
        Strategy::Builder,
        Strategy::Network,
        Strategy::Trucker,
        Strategy::Finance,
    ];

    /// The strategy of a policy name (`heuristic` is `balanced`); `None` for `random`,
    /// `first` and unknown names.
    pub fn from_name(name: &str) -> Option<Strategy> {
        Some(match name {
            "heuristic" | "balanced" => Strategy::Balanced,
            "builder" => Strategy::Builder,
            "network" => Strategy::Network,
            "trucker" => Strategy::Trucker,
            "finance" => Strategy::Finance,
            _ => return None,
        })
    }

    /// The policy name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Builder => "builder",
            Strategy::Network => "network",
            Strategy::Trucker => "trucker",
            Strategy::Finance => "finance",
            Strategy::Balanced => "balanced",
        }
    }

    /// Weight of each department's projected VP (`DEPARTMENTS` order).
    fn department_weights(self) -> [f64; 4] {
        match self {
            Strategy::Network => [3.0, 1.0, 1.0, 1.0],
            Strategy::Trucker => [1.0, 3.0, 1.0, 1.0],
            Strategy::Finance => [1.0, 1.0, 1.0, 3.0],
            Strategy::Builder | Strategy::Balanced => [1.0; 4],
        }
    }

    /// Value of one DM kept (besides Finance's DM ÷ 20).
    fn dm_weight(self) -> f64 {
        match self {
            Strategy::Finance => 0.3,
            _ => 0.15,
        }
    }

    /// Weight of the delivery terms (loaded trucks, their distance to a border).
    fn truck_weight(self) -> f64 {
        match self {
            Strategy::Trucker => 2.0,
            Strategy::Builder | Strategy::Network | Strategy::Finance => 0.5,
            Strategy::Balanced => 1.0,
        }
    }

    /// Bonus for the kind of action, in projected VP.
    fn kind_bonus(self, action: &Action) -> f64 {
        let space = match action {
            Action::PlayCard { space, .. } => space.as_str(),
            Action::BuildRoad { .. } => "BUILD_ROAD",
            Action::UpgradeLink { .. } => "UPGRADE_LINK",
            Action::Subsidy => "SUBSIDY",
            _ => "",
        };
        match (self, space) {
            (Strategy::Builder, "BUILD_ROAD") => 4.0,
            (Strategy::Builder, "UPGRADE_LINK") => 3.0,
            (Strategy::Network, "BUILD_ROAD") => 3.0,
            (Strategy::Network, "UPGRADE_LINK") => 3.0,
            (Strategy::Finance, "BUILD_ROAD") => 2.0,
            (Strategy::Finance, "SUBSIDY") => 3.0,
            (Strategy::Trucker, "LOAD_TRUCK") => 4.0,
            _ => 0.0,
        }
    }
}

/// Sections a truck at `at` must still cross to leave the map into an open country over
/// built road (AQ-4, AQ-5), at most `limit`; `None` when no such way exists.
fn steps_to_border(state: &State, at: &TruckAt, limit: usize) -> Option<usize> {
    if movement::exit_country(state, at).is_some() {
        return Some(0);
    }
    let m = &state.board.map;
    let mut seen = vec![false; m.sections.len()];
    let mut frontier: Vec<usize> = movement::next_sections(state, at);
    for s in &frontier {
        seen[*s] = true;
    }
    for depth in 1..=limit {
        let mut next = Vec::new();
        for s in frontier {
            let here = TruckAt::Section(m.section_ids[s].clone());
            if movement::exit_country(state, &here).is_some() {
                return Some(depth);
            }
            for t in movement::next_sections(state, &here) {
                if !seen[t] {
                    seen[t] = true;
                    next.push(t);
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        frontier = next;
    }
    None
}

/// The projected value of `state` for player `player` under `strategy`, in VP (see the
/// module docs). Finished games score their final result.
pub fn evaluate(state: &State, player: u32, strategy: Strategy) -> f64 {
    let p = state.p(player);
    if let Some(r) = &state.result {
        return r.scores.get(player as usize).map_or(0, |l| l.total) as f64 * 10.0;
    }
    let w = strategy.department_weights();
    let seated = state
        .offices
        .iter()
        .map(|o| o.seats.iter().filter(|s| **s == player).count())
        .sum::<usize>() as f64;
    // Construction budget expected from the seats held, for every era-end still to come.
    let eras_left = f64::from(4u32.saturating_sub(state.era));
    let conn = era::connected_nodes(state);
    let mut budget = 0.0;
    for (a, o) in state.offices.iter().enumerate() {
        let mine = o.seats.iter().filter(|s| **s == player).count();
        if mine == 0 {
            continue;
        }
        let along: i64 = state
            .board
            .map
            .link_ends
            .iter()
            .enumerate()
            .filter(|(l, _)| state.board.map.link_autobahn[*l] == a)
            .flat_map(|(_, (x, y))| [*x, *y])
            .collect::<std::collections::BTreeSet<Node>>()
            .intersection(&conn)
            .map(|n| era::node_value(state, *n))
            .sum();
        budget += (along / o.seats.len() as i64) as f64 * mine as f64;
    }
    let countries = p.deliveries.iter().filter(|r| r.delivered).count() as f64;
    let mut truck_value = 0.0;
    for t in &p.trucks {
        if t.goods.is_none() {
            continue;
        }
        // Well below a delivery's worth (3 per country below), so that a truck at the
        // border delivers instead of waiting there.
        truck_value += match steps_to_border(state, &t.at, 12) {
            Some(d) => (0.6 - 0.05 * d as f64).max(0.1),
            None => 0.0,
        };
    }
    let stations = state
        .station_spaces
        .iter()
        .filter(|s| s.owner == Some(player))
        .count() as f64;
    let dm = p.dm as f64;
    let metric = [
        seated,
        countries + truck_value * strategy.truck_weight(),
        stations,
        (dm + budget * eras_left) / 20.0,
    ];
    let mut v = 2.0 * f64::from(p.lobby);
    for d in 0..DEPARTMENTS.len() {
        let floors: f64 = p.departments[d]
            .iter()
            .enumerate()
            .map(|(f, n)| (f as f64 + 1.0) * f64::from(*n))
            .sum();
        // An employee's floor counts even before its metric grows (it will).
        v += w[d] * (floors * metric[d].max(1.0) + floors);
    }
    v += 0.5 * seated;
    v += strategy.truck_weight() * (3.0 * countries + 2.0 * truck_value);
    v += strategy.dm_weight() * dm + 0.05 * budget * eras_left;
    v += 0.3 * p.hand.len() as f64;
    v
}

/// The action `strategy` plays for `seat` among `legal` (non-empty; the first one when the
/// seat has no player). Deterministic for a given generator state.
pub fn choose(
    strategy: Strategy,
    state: &State,
    seat: Seat,
    mut legal: Vec<Action>,
    rng: &mut ChaCha8Rng,
) -> Action {
    let Some(player) = state.player_of(seat) else {
        return legal.swap_remove(0);
    };
    if legal.len() == 1 {
        return legal.swap_remove(0);
    }
    let main = matches!(state.phase, Phase::Main { .. }) && state.pending.is_empty();
    let played_cards: usize = state
        .p(player)
        .action_spaces
        .iter()
        .map(|s| s.cards.len())
        .sum();
    let mut best: Option<(f64, u64, usize)> = None;
    for (i, a) in legal.iter().enumerate() {
        let mut copy = state.clone();
        if Autobahn::apply(&mut copy, seat, a).is_err() {
            continue;
        }
        let mut score = evaluate(&copy, player, strategy) + strategy.kind_bonus(a);
        if super::legal::warning(state, seat, a).is_some() {
            score -= 1000.0;
        }
        // Taking cards back is worth its DM and the hand it restores, no more; with no card
        // on the action spaces it is a pass, which would let a game stall.
        if main && matches!(a, Action::TakeBackCards) {
            score -= if played_cards == 0 { 20.0 } else { 1.0 };
        }
        let tie = rng.next_u64();
        let better = match best {
            None => true,
            Some((s, t, _)) => score > s + 1e-9 || ((score - s).abs() <= 1e-9 && tie > t),
        };
        if better {
            best = Some((score, tie, i));
        }
    }
    let i = best.map_or(0, |(_, _, i)| i);
    legal.swap_remove(i)
}
