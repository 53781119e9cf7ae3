//! The turn structure of 1841: the only router of actions to the round in progress
//! ([`apply`], [`to_act`], [`legal`]) and the only table of which round follows which.
//!
//! ```text
//! concession round ─► SR 1 ─► OR 1.1 … OR 1.k ─► SR 2 ─► OR 2.1 … OR 2.k ─► SR 3 ─► …
//! ```
//!
//! | the round that is over | what follows (`after_round`) |
//! |---|---|
//! | the concession round (1841 §4.3) | Stock Round 1 |
//! | stock round n (§5.5) | the game ends if a corporation reached L.516 (§13) or n ≥ 100 (`dnf`, I29); else OR n.1 of k, k from the phase in force (§8) |
//! | operating round n.i (§8) | the game ends if a trigger is recorded (§13) or n ≥ 100 (`dnf`); else OR n.(i+1) if i < k, else SR n+1 |
//! | operating round n.i with no corporation on the market (I21) | SR n+1 at once, without the checks of an ended operating round |
//!
//! Within a round the game also ends at the end of a corporation's turn (§13, in
//! [`operating_round`]) and right after an action (all players but one bankrupt; FAQ-Q27 with
//! `immediate_game_end`: [`game_end::finish_if_immediate`] in [`apply`]).
//!
//! A round never begins another. Its `apply` and `begin` play it on by themselves (automatic
//! passes in the stock round, steps without a legal action skipped in the operating round)
//! until a seat must act or the round is over ([`concession_round::over`],
//! [`stock_round::over`], [`operating_round::over`]); then the loop of `play_on` ends it
//! (the round's `finish` and the checks of the table, in its order) and begins the next,
//! until a seat must act or the game is over. So an action after which nobody can act plays
//! any number of rounds in a stack of constant depth (rounds that began each other
//! recursively overflowed it: version_1 + `sfli_run_variant` random 8 players seed 8166).

use super::action::{Action, Event, LegalActions};
use super::data;
use super::state::{Round, State};
use super::{concession_round, game_end, operating_round, stock_round};
use crate::{Rejection, RejectionCode, Seat};

/// What follows a round that is over (the table of the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Stock round `n` (1841 §5).
    StockRound(u32),
    /// Operating round `stock_round`.`number` of `total` (1841 §8).
    OperatingRound {
        /// The stock round the operating round follows.
        stock_round: u32,
        /// Its number in the set, from 1.
        number: u32,
        /// The number of operating rounds of the set (the phase's, at the end of the stock
        /// round).
        total: u32,
    },
    /// The game is over (1841 §13): no round follows.
    GameOver,
}

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
    let mut events = match &state.round {
        // (No action of the concession round meets an immediate end trigger of §13: no check.)
        Round::ConcessionRound(_) => {
            let mut events = concession_round::apply(state, seat, action)?;
            play_on(state, &mut events);
            return Ok(events);
        }
        Round::StockRound(_) => stock_round::apply(state, seat, action)?,
        Round::OperatingRound(_) => operating_round::apply(state, seat, action)?,
    };
    play_on(state, &mut events);
    game_end::finish_if_immediate(state, &mut events);
    Ok(events)
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

/// Begins `next` and plays on (`play_on`) until a seat must act or the game is over: the
/// way into a round for a state built by hand (tests, the importer's tests).
pub fn begin(state: &mut State, next: Next, events: &mut Vec<Event>) {
    begin_round(state, next, events);
    play_on(state, events);
}

/// Ends the round in progress while it is over and begins the one that follows, until a seat
/// must act or the game is over: a loop, one round after the other (never a recursion).
fn play_on(state: &mut State, events: &mut Vec<Event>) {
    loop {
        match after_round(state, events) {
            None | Some(Next::GameOver) => return,
            Some(next) => begin_round(state, next, events),
        }
    }
}

/// Begins round `next`, which plays itself on until a seat must act or it is over.
fn begin_round(state: &mut State, next: Next, events: &mut Vec<Event>) {
    match next {
        Next::StockRound(number) => stock_round::begin(state, number, events),
        Next::OperatingRound {
            stock_round,
            number,
            total,
        } => {
            // Interpretation I21: with no corporation on the market the operating round is
            // over at once and the next stock round begins (18xx goes straight to it),
            // without the checks of an ended operating round.
            if !operating_round::begin(state, stock_round, number, total, events) {
                stock_round::begin(state, next_stock_round(stock_round), events);
            }
        }
        Next::GameOver => {}
    }
}

/// If the round in progress is over: ends it and says what follows (the table of the module
/// documentation). `None` while a seat must act, and once the game is over.
fn after_round(state: &mut State, events: &mut Vec<Event>) -> Option<Next> {
    if game_end::ended(state) {
        return None;
    }
    Some(match &state.round {
        Round::ConcessionRound(_) if concession_round::over(state) => {
            // 1841 §4.3: unsold concessions to the bank, the new player order; then SR 1.
            concession_round::finish(state, events);
            Next::StockRound(1)
        }
        Round::StockRound(r) if stock_round::over(state) => {
            let number = r.number;
            after_stock_round(state, number, events)
        }
        Round::OperatingRound(r) if operating_round::over(state) => {
            let (stock_round, number, total) = (r.stock_round, r.number, r.total);
            after_operating_round(state, stock_round, number, total, events)
        }
        _ => return None,
    })
}

/// The end of stock round `number` (1841 §5.5: [`stock_round::finish`]), then, in this order:
/// 1. 1841 §13: a corporation that reached L.516 (e.g. sold out) ends the game now;
/// 2. 18xx.games' turn limit (I29, [`game_end::TURN_LIMIT`]): from stock round 100 the game
///    ends as `dnf` — also the end of a game in which nothing can change any more, whose empty
///    rounds this loop plays through;
///
/// else Operating Round `number`.1 of as many as the phase in force gives (1841 §8).
fn after_stock_round(state: &mut State, number: u32, events: &mut Vec<Event>) -> Next {
    stock_round::finish(state, events);
    if game_end::at_end_of_stock_round(state, events) {
        return Next::GameOver;
    }
    if game_end::at_turn_limit(state, number, events) {
        return Next::GameOver;
    }
    let total = data::ruleset(&state.options)
        .phase(&state.phase)
        .map_or(1, |p| p.operating_rounds_per_stock_round);
    Next::OperatingRound {
        stock_round: number,
        number: 1,
        total,
    }
}

/// The end of operating round `stock_round`.`number` of `total` (1841 §8), in this order:
/// 1. 1841 §13: any recorded trigger (a broken bank at the latest) ends the game now;
/// 2. 18xx.games' turn limit (I29, [`game_end::TURN_LIMIT`]);
///
/// else the next operating round of the set, or after the last one the next stock round.
fn after_operating_round(
    state: &mut State,
    stock_round: u32,
    number: u32,
    total: u32,
    events: &mut Vec<Event>,
) -> Next {
    if game_end::at_end_of_operating_round(state, events) {
        return Next::GameOver;
    }
    if game_end::at_turn_limit(state, stock_round, events) {
        return Next::GameOver;
    }
    if number < total {
        Next::OperatingRound {
            stock_round,
            number: number + 1,
            total,
        }
    } else {
        Next::StockRound(next_stock_round(stock_round))
    }
}

/// The number of the stock round after stock round `stock_round`. The count stays at its
/// largest value rather than overflow: no game comes near 2^32 − 1 stock rounds, but the
/// validator accepts any number from 1, and a crafted state at the largest one panicked when
/// its operating round ended (stock round 0 without overflow checks, which the validator
/// refuses; review of issue #24, fifth round).
fn next_stock_round(stock_round: u32) -> u32 {
    stock_round.saturating_add(1)
}
