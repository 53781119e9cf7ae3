//! The turn structure of 1841: the only router of actions to the round in progress.

use super::action::{Action, Event, LegalActions};
use super::state::{Round, State};
use super::{concession_round, game_end, operating_round, stock_round};
use crate::{Rejection, RejectionCode, Seat};

/// Applies `action` by `seat` to the round in progress; on `Err` the state is unchanged.
///
/// Errors (all [`Rejection`]s, never a panic): `INVALID_ARGUMENT` for a seat not at the table
/// (1841 §2), `GAME_OVER` once the game has ended (§13), else those of the round:
/// [`concession_round::apply`], [`stock_round::apply`], [`operating_round::apply`]. Each
/// of them refuses before its first change (the stock round applies to a copy where it
/// must), so no copy is made here.
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if state.player(seat).is_none() {
        return Err(Rejection::new(
            RejectionCode::InvalidArgument,
            "1841 §2",
            format!(
                "Seat {seat} does not exist in this {}-player game.",
                state.players.len()
            ),
        ));
    }
    if game_end::ended(state) {
        return Err(Rejection::new(
            RejectionCode::GameOver,
            "1841 §13",
            "The game is over.",
        ));
    }
    match &state.round {
        Round::ConcessionRound(_) => concession_round::apply(state, seat, action),
        Round::StockRound(_) => {
            let mut events = stock_round::apply(state, seat, action)?;
            game_end::finish_if_immediate(state, &mut events);
            Ok(events)
        }
        Round::OperatingRound(_) => {
            let mut events = operating_round::apply(state, seat, action)?;
            game_end::finish_if_immediate(state, &mut events);
            Ok(events)
        }
    }
}

/// The seats that must act now, in order (none once the game is over): see
/// [`concession_round::to_act`], [`stock_round::to_act`], [`operating_round::to_act`].
pub fn to_act(state: &State) -> Vec<Seat> {
    if game_end::ended(state) {
        return Vec::new();
    }
    match &state.round {
        Round::ConcessionRound(_) => concession_round::to_act(state),
        Round::StockRound(_) => stock_round::to_act(state),
        Round::OperatingRound(_) => operating_round::to_act(state),
    }
}

/// Everything `seat` may do now, with amount ranges; empty once the game is over and for a
/// seat not at the table or that need not act. In the stock round every action is listed
/// completely ([`stock_round::legal`]) beside the purchase offers ([`stock_round::offers`]);
/// see also [`concession_round::legal`], [`operating_round::legal`].
pub fn legal(state: &State, seat: Seat) -> LegalActions {
    if game_end::ended(state) {
        return LegalActions::default();
    }
    match &state.round {
        Round::ConcessionRound(_) => concession_round::legal(state, seat),
        Round::StockRound(_) => LegalActions {
            actions: stock_round::legal(state, seat),
            offers: stock_round::offers(state, seat),
            ..LegalActions::default()
        },
        Round::OperatingRound(_) if state.player(seat).is_none() => LegalActions::default(),
        Round::OperatingRound(_) => operating_round::legal(state, seat),
    }
}
