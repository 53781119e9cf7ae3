//! Control (1841 §7.2, §7.4): the chain of presidents up to a player, the controlling seat
//! and the percent a seat controls (§7.3), circular control and frozen corporations, each
//! also with one presidency changed ([`PresidentOverride`]).

use super::*;

/// One presidency changed, the rest as in the state: corporation `.0` with president `.1`
/// (what-if questions about control without copying the state).
pub type PresidentOverride<'a> = Option<(&'a str, &'a ShareOwner)>;

/// The president of `corp` (of `state`), with `over` applied.
fn president_of_with<'a>(
    corp: &'a Corporation,
    over: PresidentOverride<'a>,
) -> Option<&'a ShareOwner> {
    match over {
        Some((s, p)) if s == corp.sym => Some(p),
        _ => corp.president(),
    }
}

/// The player at the end of the chain of control of `sym` (1841 §7.2): the owner of its
/// president's certificate, that owner's president, … `None` if the chain ends in the IPO or
/// pool, or loops (frozen, §7.4).
pub fn controller(state: &State, sym: &str) -> Option<Seat> {
    controller_with(state, None, sym)
}

/// [`controller`] with one presidency changed.
pub fn controller_with(state: &State, over: PresidentOverride, sym: &str) -> Option<Seat> {
    controller_of_with(state, over, state.corporation(sym)?)
}

/// [`controller`] of the corporation `corp` (of `state`), without looking it up.
pub fn controller_of(state: &State, corp: &Corporation) -> Option<Seat> {
    controller_of_with(state, None, corp)
}

/// [`controller_of`] with one presidency changed.
fn controller_of_with(state: &State, over: PresidentOverride, corp: &Corporation) -> Option<Seat> {
    let mut current = corp;
    for _ in 0..=state.corporations.len() {
        match president_of_with(current, over)? {
            ShareOwner::Player(s) => return Some(*s),
            ShareOwner::Corporation(c) => current = state.corporation(c)?,
            ShareOwner::Ipo | ShareOwner::Pool => return None,
        }
    }
    None
}

/// Percent of `sym` that `seat` controls: his own certificates plus those held by every
/// corporation he controls (1841 §7.3, FAQ-Q11; 18xx `player_controlled_percentage`).
pub fn controlled_percent(state: &State, seat: Seat, sym: &str) -> u32 {
    match state.corporation(sym) {
        Some(corp) => controlled_percent_of(state, seat, corp),
        None => 0,
    }
}

/// [`controlled_percent`] of the corporation `corp` (of `state`).
pub fn controlled_percent_of(state: &State, seat: Seat, corp: &Corporation) -> u32 {
    corp.certificates
        .iter()
        .filter(|c| match &c.owner {
            ShareOwner::Player(s) => *s == seat,
            ShareOwner::Corporation(holder) => controller(state, holder) == Some(seat),
            ShareOwner::Ipo | ShareOwner::Pool => false,
        })
        .map(|c| c.percent)
        .sum()
}

/// The chain of control of `sym` (1841 §7.2): `sym`, the corporation holding its president's
/// certificate, that one's president, … while presidents are corporations; stops before a
/// repetition.
pub fn chain(state: &State, sym: &str) -> Vec<String> {
    chain_with(state, None, sym)
}

/// [`chain`] with one presidency changed.
fn chain_with(state: &State, over: PresidentOverride, sym: &str) -> Vec<String> {
    let mut out = vec![sym.to_string()];
    let Some(mut current) = state.corporation(sym) else {
        return out;
    };
    for _ in 0..=state.corporations.len() {
        match president_of_with(current, over) {
            Some(ShareOwner::Corporation(c)) if !out.contains(c) => {
                out.push(c.clone());
                match state.corporation(c) {
                    Some(next) => current = next,
                    None => break,
                }
            }
            _ => break,
        }
    }
    out
}

/// Whether the chain of control of `sym` loops back on itself (circular control, 1841 §7.4):
/// it reaches a corporation already in the chain.
pub fn circular(state: &State, sym: &str) -> bool {
    circular_with(state, None, sym)
}

/// [`circular`] with one presidency changed.
fn circular_with(state: &State, over: PresidentOverride, sym: &str) -> bool {
    let c = chain_with(state, over, sym);
    let Some(last) = c.last().and_then(|last| state.corporation(last)) else {
        return false;
    };
    matches!(
        president_of_with(last, over),
        Some(ShareOwner::Corporation(p)) if c.contains(p)
    )
}

/// Started corporations under circular control (1841 §7.4).
pub fn circular_set(state: &State) -> Vec<String> {
    state
        .corporations
        .iter()
        .filter(|c| c.started() && circular(state, &c.sym))
        .map(|c| c.sym.clone())
        .collect()
}

/// Whether making `president` the president of `sym`, nothing else changed, would put a
/// started corporation under circular control that is not in `before` (the
/// [`circular_set`] of `state`) (1841 §7.4, FAQ-R1): [`creates_circular_control`] for a
/// change of one presidency, without copying the state.
pub fn presidency_creates_circular_control(
    state: &State,
    sym: &str,
    president: &ShareOwner,
    before: &[String],
) -> bool {
    state.corporations.iter().any(|c| {
        c.started()
            && !before.contains(&c.sym)
            && circular_with(state, Some((sym, president)), &c.sym)
    })
}

/// Whether a started corporation has no controlling player (1841 §7.4: its president's
/// certificate lies in the pool or its chain of control loops).
pub fn frozen(state: &State, sym: &str) -> bool {
    state.corporation(sym).is_some_and(|c| frozen_of(state, c))
}

/// [`frozen`] of the corporation `corp` (of `state`).
pub fn frozen_of(state: &State, corp: &Corporation) -> bool {
    corp.started() && controller_of(state, corp).is_none()
}

/// Started corporations that are frozen (1841 §7.4).
pub fn frozen_set(state: &State) -> Vec<String> {
    state
        .corporations
        .iter()
        .filter(|c| frozen_of(state, c))
        .map(|c| c.sym.clone())
        .collect()
}

/// Whether applying `change` to a copy of `state` would put a corporation under circular
/// control that is not so now (1841 §7.4, FAQ-R1: such sales, purchases and mergers are
/// refused).
pub fn creates_circular_control(state: &State, change: impl FnOnce(&mut State)) -> bool {
    let before = circular_set(state);
    let mut after = state.clone();
    change(&mut after);
    circular_set(&after).iter().any(|c| !before.contains(c))
}
