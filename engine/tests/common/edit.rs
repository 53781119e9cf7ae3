//! Editing a state for a test scenario (the FAQ and price-drop tests): options, holders,
//! cash and market cells set by hand, money moved to or from the bank so that it stays
//! conserved, and actions applied with the state validated after each.

use referee_engine::g1841::market::{price_at, set_cell};
use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{
    Action, Event, G1841, OperatingRound, OperatingStep, Round, ShareOwner, State,
};

use super::before_in;
use referee_engine::{Game, Seat};

/// `state` with FAQ option `name` set to `on` (the version default overridden).
pub fn with_option(state: &State, name: &str, on: bool) -> State {
    let mut s = state.clone();
    s.options
        .set(name, if on { "true" } else { "false" })
        .unwrap();
    s
}

/// Applies `action` by `seat`, which must be accepted; the state must validate after it.
pub fn act(state: &mut State, seat: Seat, action: Action) -> Vec<Event> {
    let events = G1841::apply(state, seat, &action)
        .unwrap_or_else(|r| panic!("{action:?} by {seat} rejected: {r}"));
    assert_eq!(validate(state), Ok(()), "after {action:?}");
    events
}

/// Player `seat` as a holder.
pub fn p(seat: Seat) -> ShareOwner {
    ShareOwner::Player(seat)
}

/// Corporation `sym` as a holder.
pub fn corp(sym: &str) -> ShareOwner {
    ShareOwner::Corporation(sym.into())
}

/// Moves every certificate of `sym` to the owners given (president's certificate first,
/// then the ordinary ones in order); the rest to the IPO. Money is not touched.
pub fn set_holders(state: &mut State, sym: &str, owners: &[ShareOwner]) {
    let c = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == sym)
        .unwrap();
    for (i, cert) in c.certificates.iter_mut().enumerate() {
        cert.owner = owners.get(i).cloned().unwrap_or(ShareOwner::Ipo);
    }
}

/// Sets a player's cash, the difference moved to or from the bank.
pub fn set_player_cash(state: &mut State, seat: Seat, cash: i64) {
    state.bank_cash += state.players[seat as usize].cash - cash;
    state.players[seat as usize].cash = cash;
}

/// Sets a corporation's treasury, the difference moved to or from the bank.
pub fn set_corp_cash(state: &mut State, sym: &str, cash: i64) {
    let c = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == sym)
        .unwrap();
    state.bank_cash += c.cash - cash;
    c.cash = cash;
}

/// Starts `sym` by hand on (`row`, `col`) with the holders given and `operated` as given (no
/// tokens, no cash).
pub fn start(
    state: &mut State,
    sym: &str,
    row: u32,
    col: u32,
    owners: &[ShareOwner],
    operated: bool,
) {
    set_cell(state, sym, row, col);
    set_holders(state, sym, owners);
    let c = state
        .corporations
        .iter_mut()
        .find(|c| c.sym == sym)
        .unwrap();
    c.par_price = price_at(row, col).unwrap();
    c.operated = operated;
}

/// The market cell (row, column) of `sym`.
pub fn cell(state: &State, sym: &str) -> (u32, u32) {
    let p = state.corporation(sym).unwrap().share_price.unwrap();
    (p.row, p.col)
}

/// The operating round of `state`; panics in another round.
pub fn or_mut(state: &mut State) -> &mut OperatingRound {
    match &mut state.round {
        Round::OperatingRound(r) => r,
        _ => panic!("not an operating round"),
    }
}

/// 132002 before action 326 (phase 3, the set-2 borders) with `sym` in its share step
/// (1841 §9.7), nothing sold yet.
pub fn share_step_of(sym: &str) -> State {
    let mut s = before_in("132002", 326);
    let r = or_mut(&mut s);
    r.current = Some(sym.into());
    r.step = OperatingStep::Shares;
    r.done.retain(|d| d != sym);
    r.sold.clear();
    assert_eq!(validate(&s), Ok(()));
    s
}
