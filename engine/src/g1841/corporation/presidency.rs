//! The presidency (1841 §7.5, §12.1): who may change it, the holders ranked to take it, the
//! president's certificate swapped, and the presidency rule after shares moved (§5.3, §7.4).

use super::control::frozen;
use super::*;

/// Whether the presidency of `corp` may change hands now: never for a historical corporation
/// before phase 4 (the concession lock, 1841 §3.2, §7.5; 18xx `pres_change_ok?`).
pub fn presidency_may_change(state: &State, corp: &Corporation) -> bool {
    !(corp.historical && phase_number(state) < 4)
}

/// The largest holding of `corp`, in percent, of any holder but `holder` (players and other
/// corporations; the IPO and the pool hold no presidency): what a president must keep to stay
/// president, since the presidency moves only to a holder with strictly more (1841 §7.5).
pub fn largest_other_holding(state: &State, corp: &Corporation, holder: &ShareOwner) -> u32 {
    ranked_holders(state, corp, 0)
        .into_iter()
        .filter(|(_, h, _)| *h != holder)
        .map(|(_, _, percent)| percent)
        .max()
        .unwrap_or(0)
}

/// The holders of `corp` that could take its presidency, with their holdings: each player
/// or other corporation (not the IPO, the pool or `corp` itself) holding some of it, once,
/// as (rank, holder, percent). The rank orders them as the presidency rules do: the players
/// from `first` round the table (player order), then the corporations in operating order
/// (1841 §6; 18xx `player_distance_for_president` sorts them so). A
/// holder the state does not know (no such seat in the player order, no such corporation)
/// is left out.
pub fn ranked_holders<'a>(
    state: &State,
    corp: &'a Corporation,
    first: Seat,
) -> smallvec::SmallVec<[(usize, &'a ShareOwner, u32); 9]> {
    let order = &state.player_order;
    let start = order.iter().position(|s| *s == first).unwrap_or(0);
    let mut out: smallvec::SmallVec<[(usize, &ShareOwner, u32); 9]> = smallvec::SmallVec::new();
    for c in &corp.certificates {
        let rank = match &c.owner {
            ShareOwner::Player(s) => order
                .iter()
                .position(|x| x == s)
                .map(|at| (at + order.len() - start) % order.len()),
            // 18xx `player_distance_for_president`: corporations in operating order
            // (`corporations.sort`); one not started after them, in list order.
            ShareOwner::Corporation(sym) if *sym != corp.sym => {
                crate::g1841::market::operating_rank(state, sym)
                    .or_else(|| {
                        state
                            .corporation_index(sym)
                            .map(|i| state.corporations.len() + i)
                    })
                    .map(|i| order.len() + i)
            }
            _ => None,
        };
        let Some(rank) = rank else { continue };
        match out.iter_mut().find(|(r, _, _)| *r == rank) {
            Some(entry) => entry.2 += c.percent,
            None => out.push((rank, &c.owner, c.percent)),
        }
    }
    out
}

/// Hands the president's certificate of `sym` from `old` to `new`; `new` gives `old`
/// ordinary certificates worth as much (1841 §5.3, §7.5). With `old` = the pool this is the
/// unfreezing swap of §7.4.
pub fn swap_presidency(state: &mut State, sym: &str, old: &ShareOwner, new: &ShareOwner) {
    if let Some(corp) = state.corporation_mut(sym) {
        swap_presidency_of(corp, old, new);
    }
}

/// [`swap_presidency`] on the corporation itself.
pub fn swap_presidency_of(corp: &mut Corporation, old: &ShareOwner, new: &ShareOwner) {
    let pres_percent = 2 * corp.unit_percent();
    let mut given = 0;
    for c in corp.certificates.iter_mut() {
        if given >= pres_percent {
            break;
        }
        if !c.president && c.owner == *new {
            c.owner = old.clone();
            given += c.percent;
        }
    }
    for c in corp.certificates.iter_mut().filter(|c| c.president) {
        c.owner = new.clone();
    }
}

/// The presidency rule after shares of `sym` moved (1841 §5.3, §7.4, §7.5): if the
/// president's certificate lies in the pool, the first holder (in order from `acting`) with
/// at least the president's certificate's percent takes it for two units (unfreezing);
/// otherwise a holder (player or corporation) with strictly more than the president takes
/// over, the largest first, ties to the nearest in order after the president (players round
/// the table, then corporations). Never for a historical corporation before phase 4.
pub fn update_presidency(
    state: &mut State,
    sym: &str,
    acting: Option<Seat>,
    events: &mut Vec<crate::g1841::action::Event>,
) {
    let Some(corp) = state.corporation(sym) else {
        return;
    };
    let Some(current) = corp.president().cloned() else {
        return;
    };
    let Some(new) = presidency_taker(state, corp, acting) else {
        return;
    };
    let was_frozen = frozen(state, sym);
    swap_presidency(state, sym, &current, &new);
    if let ShareOwner::Player(seat) = new {
        events.push(crate::g1841::action::Event::PresidentChanged {
            corporation: sym.to_string(),
            seat,
        });
    } else {
        events.push(crate::g1841::action::Event::PresidencyMoved {
            corporation: sym.to_string(),
            president: new.clone(),
        });
    }
    let now_frozen = frozen(state, sym);
    if was_frozen != now_frozen {
        events.push(crate::g1841::action::Event::FrozenChanged {
            corporation: sym.to_string(),
            frozen: now_frozen,
        });
    }
}

/// Who takes the presidency of `corp` under the presidency rule of [`update_presidency`]
/// (`None`: it stays). `corp` may differ from the state's corporation of that symbol (a
/// what-if): its certificates and president are read from `corp`, everything else from
/// `state`.
pub fn presidency_taker(
    state: &State,
    corp: &Corporation,
    acting: Option<Seat>,
) -> Option<ShareOwner> {
    if !corp.started() || !presidency_may_change(state, corp) {
        return None;
    }
    let current = corp.president()?;
    let pres_percent = 2 * corp.unit_percent();
    // Ties go to the nearest in 18xx's `player_distance_for_president`: after a player
    // president, the players round the table from him; after a corporation president, the
    // players in the current order from its first (the priority holder); then corporations.
    let start = match current {
        ShareOwner::Player(s) => Some(*s),
        ShareOwner::Corporation(_) => state.player_order.first().copied(),
        _ => None,
    }
    .or(acting)
    .or_else(|| state.player_order.first().copied())
    .unwrap_or(0);
    let current_percent = if *current == ShareOwner::Pool {
        pres_percent - 1
    } else {
        corp.percent_of(current)
    };
    // The largest holding above the president's, ties to the first in rank (players from
    // `start` round the table, then corporations); the president is no candidate.
    let mut best: Option<(usize, &ShareOwner, u32)> = None;
    for (rank, holder, p) in ranked_holders(state, corp, start) {
        if holder != current
            && p > current_percent
            && best.is_none_or(|(r, _, b)| p > b || (p == b && rank < r))
        {
            best = Some((rank, holder, p));
        }
    }
    best.map(|(_, holder, _)| holder.clone())
}
