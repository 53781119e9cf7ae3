//! # Autobahn
//!
//! Rules: the Referee rules specification `docs/rules/autobahn.md` (cited as `autobahn §n`,
//! unknowns as `U-n`) and the authoritative rulings `docs/rules/autobahn-qa.md` (`AQ-1` … `AQ-6`). The base game for
//! 1–4 players and the solo opponent (Autobot, autobahn §8) are implemented; the modules (Wine,
//! Traffic, Services, Planning, Customs) are not, but nothing in the data model rules them out.
//!
//! The game is **data-driven**: every [U] point is a value of the board definition
//! ([`board`]), whose shipped default is a **reconstruction, not the printed board**.
//!
//! Module map: [`board`] (format, loader, validation), [`options`], [`state`], [`action`]
//! (actions, events), [`setup`], [`turn`] (phases, pending decisions, end of turn), [`build`]
//! (build, upgrade, city values, load, station, unlock), [`office`] (employees, promotions),
//! [`effects`] (bonus effects), [`movement`] (trucks, delivery), [`era`] (era end, budget,
//! route cards, scoring), [`autobot`], [`legal`], [`view`].

pub mod action;
pub mod assist;
pub mod autobot;
pub mod board;
pub mod bots;
pub mod build;
pub mod effects;
pub mod era;
pub mod legal;
pub mod movement;
pub mod office;
pub mod options;
pub mod setup;
pub mod state;
pub mod turn;
pub mod validate;
pub mod view;

pub use action::{Action, Event};
pub use board::{Board, BoardDef, BoardProblem, Effect};
pub use options::Options;
pub use state::State;
pub use view::View;

use crate::catalog::{GameInfo, GameStage};
use crate::{Game, Outcome, Rejection, Seat, SetupError, Viewer};

/// The invariant checker of Autobahn ([`crate::invariants`]): seats (1–4, solo = one seat
/// plus the Autobot), 25 employees per player all somewhere (player board, offices, hand
/// areas), trucks and goods conserved (supply + loaded trucks = the board's count per type),
/// DM never negative, road sections conserved (built + era supplies = prebuilt + the era
/// supplies of the board), offices within their capacity with seats that are player indices,
/// every card, tile and space id one of the board's, and the phase consistent. See
/// [`validate::validate`].
///
/// Errors: the first [`InvariantViolation`](crate::InvariantViolation) found, with its path
/// relative to the state.
pub fn check_invariants(state: &State) -> Result<(), crate::InvariantViolation> {
    validate::validate(state)
}

/// The game Autobahn. Implements [`Game`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Autobahn;

impl Game for Autobahn {
    type Options = Options;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn info() -> GameInfo {
        GameInfo {
            id: "autobahn",
            display_name: "Autobahn",
            min_players: 1,
            max_players: 4,
            options: options::option_infos(),
            stage: GameStage::Complete,
            coverage: "The base game for 1–4 players with the solo Autobot (levels 1–12), playable to the final scoring; the Autobot follows every base-game point of §8, each with its own rule test. The default board is a reconstruction, not the printed board: the publisher's map, costs and card faces are unknown and every unknown is a board-data value; pass the real data with the `board` option. The modules (Wine, Traffic, Services, Planning, Customs) are not implemented.",
        }
    }

    /// See [`setup::setup`]. The route-card draft (U-20) is the first step; in a solo game
    /// the Autobot starts (§8.1).
    fn setup(options: &Options, seats: u32, seed: u64) -> Result<State, SetupError> {
        setup::setup(options, seats, seed)
    }

    /// See [`turn::apply`].
    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
        let events = turn::apply(state, seat, action)?;
        #[cfg(debug_assertions)]
        if let Err(v) = check_invariants(state) {
            panic!("Autobahn: {action:?} by seat {seat} broke an invariant: {v}");
        }
        Ok(events)
    }

    /// See [`legal::legal_actions`].
    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        legal::legal_actions(state, seat)
    }

    /// See [`turn::to_act`].
    fn to_act(state: &State) -> Vec<Seat> {
        turn::to_act(state)
    }

    /// Final scores per seat (autobahn §7). Solo: the one seat's score; rank 1 when it beats
    /// or ties the Autobot, else 2.
    fn outcome(state: &State) -> Option<Outcome> {
        let r = state.result.as_ref()?;
        let mut scores = Vec::new();
        let mut ranks = Vec::new();
        for (i, p) in state.players.iter().enumerate() {
            if p.seat.is_some() {
                scores.push(r.scores.get(i).map_or(0, |l| l.total));
                ranks.push(r.ranks.get(i).copied().unwrap_or(1));
            }
        }
        Some(Outcome {
            scores,
            ranks,
            end_reason: r.end_reason.clone(),
        })
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }
}
