//! The sales of a share turn (1841 §5.3): any number of them, before the turn's one purchase,
//! par or concession purchase (§5.1). Only corporations that have operated; the pool holds at
//! most 50%; a president's certificate of a locked corporation never (historical before phase
//! 4, §3.2, §7.5); a president sells below another holder (a dump) only when that holder can
//! take the presidency ([`successor`]); no sale that puts corporations under mutual control
//! (FAQ-R1, §7.4). The price drops one row per unit sold through [`sale`]
//! ([`sale::drop_after_sale`]: at once, or with `price_drops_lowest_first`, FAQ-Q2, when the
//! seller's selling ends); then the presidency rule (§7.5).
//!
//! A seat over the certificate limit (§2) or the 60% control limit (§7.3: [`over_limits`])
//! with something to sell must sell before anything else (§5.1, FAQ-Q9: [`forced_to_sell`],
//! explained by [`explain_must_sell`]).
//!
//! One generator, [`each_sale`], finds the sales: the listing ([`sell_options`]), the test of
//! one sale ([`lists`]) and whether there is any ([`has_sale`]) derive from it. [`sell`]
//! carries a sale out, [`explain_sell`] refuses one outside the listing.

use super::super::action::{Action, Event};
use super::super::corporation::{
    self, certificate_count, certificate_limit, presidency_may_change,
};
use super::super::data;
use super::super::sale;
use super::super::state::{Corporation, ShareOwner, SoldShares, State};
use super::{
    corrupt, mark_acted, reject, round_mut, turn_options, unknown_corporation, update_presidency,
};
use crate::{Rejection, RejectionCode, Seat};

/// Whether the seat is over the certificate limit or controls more than 60% of some
/// corporation (1841 §5.1, §7.3).
///
/// One pass over the certificates counts the seat's ([`certificate_count`]) and bounds, per
/// corporation, what he controls by his own holdings plus every corporation's: only where
/// that bound exceeds the limit is the control worked out ([`controlled_percent_of`] counts a
/// part of those holdings). Test `g1841_stock_shortcuts`: the same answer as the whole count
/// and the control of every corporation.
///
/// [`controlled_percent_of`]: corporation::controlled_percent_of
pub fn over_limits(state: &State, seat: Seat) -> bool {
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    let mut count = 0u32;
    for corp in &state.corporations {
        let mut bound = 0u32;
        for c in &corp.certificates {
            match &c.owner {
                ShareOwner::Player(s) if *s == seat => {
                    count += 1;
                    bound = bound.saturating_add(c.percent);
                }
                ShareOwner::Corporation(_) => bound = bound.saturating_add(c.percent),
                _ => {}
            }
        }
        if bound > max && corporation::controlled_percent_of(state, seat, corp) > max {
            return true;
        }
    }
    count > certificate_limit(state)
}

/// Why `seat` must sell before anything else now, if he must (1841 §5.1, FAQ-Q9): the rule
/// and a sentence naming the limit he is over — the certificate limit (§2) or more than 60%
/// of a corporation controlled, his own shares plus his corporations' (§7.3).
pub(super) fn must_sell_reason(state: &State, seat: Seat) -> Option<(&'static str, String)> {
    if !forced_to_sell(state, seat) {
        return None;
    }
    let count = certificate_count(state, seat);
    let limit = certificate_limit(state);
    if count > limit {
        return Some((
            "1841 §2",
            format!(
                "Seat {seat} holds {count} certificates, over the limit of {limit}: he must sell \
                 first."
            ),
        ));
    }
    let max = data::ruleset(&state.options).max_percent_controlled_by_one_player;
    state.corporations.iter().find_map(|corp| {
        let controlled = corporation::controlled_percent_of(state, seat, corp);
        (controlled > max).then(|| {
            (
                "1841 §7.3",
                format!(
                    "Seat {seat} controls {controlled}% of {} (his own shares and his \
                     corporations'), more than {max}%: he must sell first.",
                    corp.sym
                ),
            )
        })
    })
}

/// Whether `seat` must sell before anything else (1841 §5.1, FAQ-Q9): over a limit with
/// something to sell.
pub(super) fn forced_to_sell(state: &State, seat: Seat) -> bool {
    over_limits(state, seat) && has_sale(state, seat)
}

/// The largest other holding of `sym` that could take the presidency from `seat` (1841 §5.3:
/// players nearest after `seat` in player order first, then corporations in operating order, as
/// 18xx ranks them; ties to the first).
pub(crate) fn successor(state: &State, sym: &str, seat: Seat) -> Option<(ShareOwner, u32)> {
    let corp = state.corporation(sym)?;
    // The largest holding, ties to the first in rank; `seat` himself is no candidate.
    let me = ShareOwner::Player(seat);
    let mut best: Option<(usize, &ShareOwner, u32)> = None;
    for (rank, holder, p) in corporation::ranked_holders(state, corp, seat) {
        if *holder != me && best.is_none_or(|(r, _, b)| p > b || (p == b && rank < r)) {
            best = Some((rank, holder, p));
        }
    }
    if let Some((_, holder, p)) = best {
        return Some((holder.clone(), p));
    }
    // Nobody else holds any: the first candidate, with nothing.
    let order = corporation::players_from(state, seat);
    order
        .into_iter()
        .find(|s| *s != seat)
        .map(ShareOwner::Player)
        .or_else(|| {
            state
                .corporations
                .iter()
                .find(|c| c.sym != sym)
                .map(|c| ShareOwner::Corporation(c.sym.clone()))
        })
        .map(|h| (h, 0))
}

/// Every sale `seat` may make (1841 §5.3): corporations that have operated, pool at most
/// 50%, no president's certificate of a locked corporation, a dump only if another player
/// can take the presidency. Of corporation `only` alone when given; the first `limit` only.
pub(super) fn sell_options(
    state: &State,
    seat: Seat,
    only: Option<&str>,
    limit: usize,
) -> Vec<Action> {
    let mut out = Vec::new();
    each_sale(state, seat, only, true, |corp, percent| {
        out.push(Action::SellShares {
            corporation: corp.sym.clone(),
            percent,
        });
        out.len() < limit
    });
    out
}

/// Whether `action`, a sale of `corporation`, is one of [`sell_options`]: the sales of that
/// corporation alone are listed.
pub(super) fn lists(state: &State, seat: Seat, corporation: &str, action: &Action) -> bool {
    sell_options(state, seat, Some(corporation), usize::MAX).contains(action)
}

/// Whether [`sell_options`] lists any sale (nothing built).
pub(super) fn has_sale(state: &State, seat: Seat) -> bool {
    let mut found = false;
    each_sale(state, seat, None, true, |_, _| {
        found = true;
        false
    });
    found
}

/// Whether `seat` could sell something if sales that put corporations under mutual control
/// were allowed (FAQ-R1 forbids them; 18xx.games offers them, its circular check never firing:
/// divergence `circular-control-never-flagged`). For the 18xx.games export
/// ([`super::super::export18xx`], `stock_turns`), asked where this engine found no sale.
pub(crate) fn has_sale_ignoring_circular_control(state: &State, seat: Seat) -> bool {
    let mut found = false;
    each_sale(state, seat, None, false, |_, _| {
        found = true;
        false
    });
    found
}

/// The sales of [`sell_options`] in its order, each handed to `take` as (corporation,
/// percent) until `take` returns `false`; with `forbid_loops` false, those FAQ-R1 forbids too.
fn each_sale(
    state: &State,
    seat: Seat,
    only: Option<&str>,
    forbid_loops: bool,
    mut take: impl FnMut(&Corporation, u32) -> bool,
) {
    let pool_max = data::ruleset(&state.options).bank_pool_max_percent;
    let me = ShareOwner::Player(seat);
    // The corporations under circular control now, once for every simulated sale.
    let mut circular_now: Option<Vec<String>> = None;
    for corp in &state.corporations {
        if !corp.operated || !corp.started() || only.is_some_and(|o| o != corp.sym) {
            continue;
        }
        let unit = corp.unit_percent();
        // All he holds, and his ordinary certificates of it, in one pass.
        let (mut held, mut normal) = (0u32, 0u32);
        for c in corp.certificates.iter().filter(|c| c.owner == me) {
            held += c.percent;
            if !c.president {
                normal += c.percent;
            }
        }
        if held < unit {
            // Nothing to sell (his ordinary certificates are a part of it).
            continue;
        }
        let is_president = corp.president() == Some(&me);
        let pres_percent = 2 * unit;
        // A president sells his ordinary certificates, and beyond them only when he can dump
        // the presidency; that is worked out only once a sale goes beyond them.
        let mut can_dump: Option<bool> = None;
        let mut may_sell = |p: u32| {
            p <= normal
                || (p <= held
                    && (!is_president
                        || *can_dump.get_or_insert_with(|| {
                            presidency_may_change(state, corp)
                                && successor(state, &corp.sym, seat)
                                    .is_some_and(|(_, p)| p >= pres_percent)
                        })))
        };
        let room = pool_max.saturating_sub(corp.pool_percent());
        let mut p = unit;
        while p <= room && may_sell(p) {
            // FAQ-R1: no sale that puts corporations under mutual control (1841 §7.4).
            // Only a president's sale can hand the presidency to a corporation.
            let percent = p;
            // The sale can only create a loop when the presidency may pass to a
            // corporation: one holding at least what the seller keeps (a presidency that
            // stays, or goes to a player, leaves every controller but this one's unchanged).
            // Only then is the new presidency worked out.
            let kept = held.saturating_sub(percent);
            let corporation_may_take_over = corporate_holdings(corp).any(|(_, p)| p >= kept);
            let looping = forbid_loops
                && is_president
                && corporation_may_take_over
                && corporation::presidency_creates_circular_control(
                    state,
                    &corp.sym,
                    &president_after_sale(state, seat, corp, percent),
                    circular_now.get_or_insert_with(|| corporation::circular_set(state)),
                );
            if !looping && !take(corp, p) {
                return;
            }
            p += unit;
        }
    }
}

/// The president of `corp` after its president in `seat` sells `percent` of it ([`sell`]:
/// the dump to the successor when he sells part of his president's certificate, the
/// certificates to the pool, then the presidency rule), worked out without changing the
/// state; only `corp`'s certificates change in a sale.
fn president_after_sale(state: &State, seat: Seat, corp: &Corporation, percent: u32) -> ShareOwner {
    let me = ShareOwner::Player(seat);
    let mut after = Corporation {
        sym: corp.sym.clone(),
        kind: corp.kind,
        historical: corp.historical,
        share_price: corp.share_price,
        par_price: corp.par_price,
        cash: corp.cash,
        certificates: corp.certificates.clone(),
        tokens_total: corp.tokens_total,
        tokens: Vec::new(),
        operated: corp.operated,
        closed: corp.closed,
        ipo_first_share_ordinary: corp.ipo_first_share_ordinary,
    };
    let normal: u32 = corp
        .certificates
        .iter()
        .filter(|c| c.owner == me && !c.president)
        .map(|c| c.percent)
        .sum();
    if percent > normal {
        let Some((new, _)) = successor(state, &corp.sym, seat) else {
            // `sell` refuses before any change.
            return me;
        };
        corporation::swap_presidency_of(&mut after, &me, &new);
    }
    let mut moved = 0;
    for c in after.certificates.iter_mut() {
        if moved >= percent {
            break;
        }
        if c.owner == me && !c.president {
            c.owner = ShareOwner::Pool;
            moved += c.percent;
        }
    }
    let president = after.president().cloned().unwrap_or(me);
    if moved != percent {
        // `sell` refuses here, after the dump.
        return president;
    }
    corporation::presidency_taker(state, &after, Some(seat)).unwrap_or(president)
}

/// Percent of `corp` held by each corporation that holds some of it, in certificate order
/// (a holder may appear once per certificate; amounts are per holder).
fn corporate_holdings(corp: &Corporation) -> impl Iterator<Item = (&str, u32)> {
    corp.certificates
        .iter()
        .filter_map(move |c| match &c.owner {
            ShareOwner::Corporation(s) => Some((s.as_str(), corp.percent_of(&c.owner))),
            _ => None,
        })
}

/// Sells `percent` of `sym` to the pool (1841 §5.3): paid by the bank at the current price,
/// then the price drops one row per unit sold ([`sale::drop_after_sale`]) — at once (18xx:
/// each sale of a turn at the price its earlier sales left), or, with
/// `price_drops_lowest_first` (FAQ-Q2), when the seller's selling ends
/// ([`sale::selling_ends`]: at anything but another sale, I40), all of the turn's drops
/// together, lowest share value first (so every sale of the turn is made at the price before
/// the turn's drops). A president who sells below another player's holding (a dump) first
/// hands over the presidency.
pub(super) fn sell(
    state: &mut State,
    seat: Seat,
    sym: &str,
    percent: u32,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    let me = ShareOwner::Player(seat);
    let corp = state
        .corporation(sym)
        .ok_or_else(|| corrupt("unknown corporation"))?;
    let unit = corp.unit_percent();
    let price = corp.price().ok_or_else(|| corrupt("no share price"))?;
    let normal: u32 = corp
        .certificates
        .iter()
        .filter(|c| c.owner == me && !c.president)
        .map(|c| c.percent)
        .sum();
    // The certificates after the sale, worked out on a copy of this corporation so that
    // every check comes before the first change: the dump first, then the sold ones.
    let mut after = corp.clone();
    let dump = if percent > normal {
        let (new, _) = successor(state, sym, seat).ok_or_else(|| corrupt("no successor"))?;
        corporation::swap_presidency_of(&mut after, &me, &new);
        Some(new)
    } else {
        None
    };
    let mut moved = 0;
    for c in after.certificates.iter_mut() {
        if moved >= percent {
            break;
        }
        if c.owner == me && !c.president {
            c.owner = ShareOwner::Pool;
            moved += c.percent;
        }
    }
    if moved != percent {
        return Err(corrupt("sale does not match the holdings"));
    }
    if let Some(new) = dump {
        events.push(match &new {
            ShareOwner::Player(s) => Event::PresidentChanged {
                corporation: sym.to_string(),
                seat: *s,
            },
            other => Event::PresidencyMoved {
                corporation: sym.to_string(),
                president: other.clone(),
            },
        });
    }
    if let Some(corp) = state.corporation_mut(sym) {
        corp.certificates = after.certificates;
    }
    let units = percent / unit;
    let proceeds = price.saturating_mul(i64::from(units));
    state.bank_cash -= proceeds;
    if let Some(p) = state.players.get_mut(seat as usize) {
        p.cash += proceeds;
    }
    mark_acted(state, seat);
    if let Some(r) = round_mut(state)
        && !r
            .sold
            .iter()
            .any(|s| s.seat == seat && s.corporation == sym)
    {
        r.sold.push(SoldShares {
            seat,
            corporation: sym.to_string(),
        });
    }
    events.push(Event::SharesSold {
        seat,
        corporation: sym.to_string(),
        percent,
        price: proceeds,
    });
    sale::drop_after_sale(state, sym, units, sale::Unmoved::Silent, events);
    update_presidency(state, sym, seat, events);
    Ok(())
}

/// The refusal of a sale outside the listing (1841 §5.3).
pub(super) fn explain_sell(
    state: &State,
    seat: Seat,
    corporation: &str,
    percent: u32,
) -> Rejection {
    let Some(corp) = state.corporation(corporation) else {
        return unknown_corporation(corporation);
    };
    if !corp.operated {
        reject(
            RejectionCode::IllegalMove,
            "1841 §5.3",
            format!("{corporation} has not operated yet: its shares cannot be sold."),
        )
    } else if over_limits(state, seat) && !turn_options(state, seat).is_empty() {
        reject(RejectionCode::IllegalMove, "1841 §5.3", "Not a legal sale.")
    } else {
        reject(
            RejectionCode::IllegalMove,
            "1841 §5.3",
            format!(
                "Cannot sell {percent}% of {corporation}: holdings, the 50% pool limit or the presidency forbid it."
            ),
        )
    }
}

/// The refusal of a pass, par or purchase by a seat that must sell first (1841 §5.1,
/// FAQ-Q9): the limit he is over and the sales he may make. Asked when
/// [`must_sell_reason`] has one.
pub(super) fn explain_must_sell(state: &State, seat: Seat) -> Rejection {
    let (rule, reason) = must_sell_reason(state, seat).unwrap_or_default();
    let sales: Vec<String> = sell_options(state, seat, None, usize::MAX)
        .iter()
        .filter_map(|a| match a {
            Action::SellShares {
                corporation,
                percent,
            } => Some(format!("{percent}% of {corporation}")),
            _ => None,
        })
        .collect();
    reject(
        RejectionCode::IllegalMove,
        rule,
        format!("{reason} Sales possible now: {}.", sales.join(", ")),
    )
}
