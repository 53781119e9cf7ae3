//! Bonus effects (autobahn §5.13) and the queue of pending decisions.
//!
//! Effects without a choice (DM, development steps, floor access) resolve at once; effects with
//! a choice become [`Pending`] entries answered by explicit actions. An effect that cannot be
//! used at all is lost (autobahn §5.11 [L]) and an `EffectLost` event says so.

use super::action::Event;
use super::board::{DEPARTMENTS, Effect};
use super::state::{Pending, PendingKind, State};

/// Resolves `effect` for `player` (autobahn §5.13). `source` names the rule or item.
pub fn resolve(state: &mut State, ev: &mut Vec<Event>, player: u32, effect: &Effect, source: &str) {
    if state.is_bot(player) {
        super::autobot::bot_effect(state, ev, effect, source);
        return;
    }
    match effect {
        Effect::GainDm { amount } => {
            let dm = &mut state.pm(player).dm;
            *dm = dm.saturating_add(*amount);
            ev.push(Event::DmGained {
                player,
                amount: *amount,
                reason: source.to_string(),
            });
        }
        Effect::Develop { steps } => develop(state, ev, player, *steps),
        Effect::Promote { department } => queue(
            state,
            ev,
            player,
            PendingKind::Promote {
                department: department.clone(),
            },
            source,
        ),
        Effect::PlaceEmployee { .. } => {
            queue(state, ev, player, PendingKind::PlaceEmployee, source)
        }
        Effect::BuildRoadSection => queue(
            state,
            ev,
            player,
            PendingKind::BuildRoad { colour: None },
            source,
        ),
        Effect::UpgradeLink => queue(state, ev, player, PendingKind::UpgradeLink, source),
        Effect::BuildServiceStation => queue(state, ev, player, PendingKind::BuildStation, source),
        Effect::Unlock => queue(state, ev, player, PendingKind::Unlock, source),
        Effect::TakeDisplayCard => queue(state, ev, player, PendingKind::TakeDisplayCard, source),
        Effect::DiscardDisplayCard => {
            queue(state, ev, player, PendingKind::DiscardDisplayCard, source)
        }
        Effect::MaxPlus1 => queue(state, ev, player, PendingKind::ActionTile, source),
        Effect::FloorAccess {
            department,
            max_floor,
        } => {
            if let Some(d) = DEPARTMENTS.iter().position(|x| x == department) {
                let p = state.pm(player);
                p.floor_access[d] = p.floor_access[d].max(*max_floor);
            }
        }
    }
}

/// Queues a decision for `player` (the Autobot decides at once, autobahn §8.5).
pub fn queue(state: &mut State, ev: &mut Vec<Event>, player: u32, kind: PendingKind, source: &str) {
    if state.is_bot(player) {
        let effect = match kind {
            PendingKind::Promote { department } => Effect::Promote { department },
            PendingKind::PlaceEmployee => Effect::PlaceEmployee {
                office: "CURRENT".into(),
            },
            PendingKind::BuildRoad { .. } => Effect::BuildRoadSection,
            PendingKind::UpgradeLink => Effect::UpgradeLink,
            PendingKind::BuildStation => Effect::BuildServiceStation,
            PendingKind::Unlock | PendingKind::TakeDisplayCard => Effect::Unlock,
            PendingKind::DiscardDisplayCard => Effect::DiscardDisplayCard,
            PendingKind::ActionTile => Effect::MaxPlus1,
        };
        super::autobot::bot_effect(state, ev, &effect, source);
        return;
    }
    state.pending.push(Pending {
        player,
        kind,
        source: source.to_string(),
    });
}

/// Moves `player`'s development marker `steps` spaces; every reward space reached or passed
/// resolves once; steps beyond the last space are lost (autobahn §5.12, U-10).
pub fn develop(state: &mut State, ev: &mut Vec<Event>, player: u32, steps: u32) {
    let last = state
        .board
        .def
        .development_track
        .spaces
        .len()
        .saturating_sub(1) as u32;
    let from = state.p(player).development;
    let to = from.saturating_add(steps).min(last);
    if to == from {
        return;
    }
    state.pm(player).development = to;
    ev.push(Event::Developed {
        player,
        position: to,
    });
    let board = state.board.clone();
    for s in (from + 1)..=to {
        if let Some(r) = board
            .def
            .development_track
            .spaces
            .get(s as usize)
            .and_then(|x| x.reward.as_ref())
        {
            resolve(
                state,
                ev,
                player,
                r,
                &format!("development track space {s}"),
            );
        }
    }
}

/// Whether a pending entry can be answered by anything but `Decline`.
pub fn has_option(state: &State, p: &Pending) -> bool {
    use super::build;
    let i = p.player;
    match &p.kind {
        PendingKind::Promote { department } => {
            !super::office::promotion_options(state, i, department.as_deref()).is_empty()
        }
        PendingKind::PlaceEmployee => state.p(i).reserve + state.p(i).lobby > 0,
        PendingKind::BuildRoad { colour } => {
            let c = colour.as_deref().and_then(|c| state.board.autobahn(c));
            (0..state.board.map.sections.len()).any(|s| {
                build::is_buildable(state, s, c)
                    && state.board.section_cost(s, state.era) <= state.p(i).dm
            })
        }
        PendingKind::UpgradeLink => (0..state.board.map.link_sections.len()).any(|l| {
            build::is_upgradable(state, l, None) && build::upgrade_cost(state, l) <= state.p(i).dm
        }),
        PendingKind::BuildStation => {
            state.p(i).stations_built < state.board.def.service_stations.per_player
                && (0..state.board.map.station_spaces.len())
                    .any(|x| build::is_free_station_space(state, x, None))
                && state.p(i).dm >= state.board.def.service_stations.build_cost(state.era)
        }
        PendingKind::Unlock => state
            .board
            .def
            .player_board
            .unlock_grid
            .cells
            .iter()
            .any(|c| build::can_unlock(state, i, &c.id)),
        PendingKind::TakeDisplayCard | PendingKind::DiscardDisplayCard => !state.display.is_empty(),
        PendingKind::ActionTile => state.p(i).action_tiles_left > 0,
    }
}

/// Drops pending entries nobody can answer (lost effects), front first.
pub fn settle(state: &mut State, ev: &mut Vec<Event>) {
    while let Some(p) = state.pending.first() {
        if has_option(state, p) {
            break;
        }
        let p = state.pending.remove(0);
        ev.push(Event::EffectLost {
            player: p.player,
            effect: format!(
                "{} ({}): {}",
                p.kind.describe(),
                p.source,
                p.kind.why_lost()
            ),
        });
    }
}
