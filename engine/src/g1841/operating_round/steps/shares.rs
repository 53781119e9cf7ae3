//! The corporate share step (1841 §9.7): the operating corporation sells shares, buys one
//! certificate or starts a corporation ([`super::super::shares`] lists them), or passes;
//! one that must sell (1841 §7.3, FAQ-C7, FAQ-Q11) only sells. A start played in the step
//! (its home token, its share purchases) is routed by the round before any step.

use super::super::super::action::{Action, Event, LegalActions};
use super::super::super::corporation::phase_number;
use super::super::super::data;
use super::super::super::market;
use super::super::super::state::{CorporationKind, ShareOwner, State};
use super::super::super::track;
use super::super::shares::{
    buy_share, has_sell_option, has_share_option, must_sell, sell_options, sell_share,
    share_options, share_step_listing_of, start_corporation,
};
use super::super::{legal_with_lays, only_a_pass};
use super::{At, Judged, Settled, Then, only, unlisted};
use crate::{Rejection, Seat};

/// The rule of the step.
pub(in super::super) const RULE: &str = "1841 §9.7";
/// The step in plain words.
pub(in super::super) const NAME: &str = "corporate shares";

/// The sales; unless the corporation must sell, also the purchases and starts, and a pass.
pub(super) fn legal(at: &At) -> LegalActions {
    let mut actions = sell_options(at.state);
    // 1841 §7.3, FAQ-C7, FAQ-Q11: a corporation that must sell only sells.
    if must_sell(at.state).is_none() {
        actions.extend(share_options(at.state));
        actions.push(Action::Pass);
    }
    only(actions)
}

/// The part of the listing that judges `action`: a sale, purchase or start by the options of
/// its kind and corporation ([`share_step_listing_of`]; no purchase or start for a
/// corporation that must sell), a pass by whether the corporation must sell. `None` for
/// another action.
pub(super) fn judge(at: &At, action: &Action) -> Option<LegalActions> {
    let forced = || must_sell(at.state).is_some();
    let actions = match action {
        Action::Pass if forced() => Vec::new(),
        Action::Pass => vec![Action::Pass],
        Action::SellShares { .. } => share_step_listing_of(at.state, action)?,
        _ => {
            let listed = share_step_listing_of(at.state, action)?;
            if forced() { Vec::new() } else { listed }
        }
    };
    Some(only(actions))
}

/// Skipped, with an automatic pass, when the corporation has nothing to sell or buy (the
/// first option found is enough) and 18xx.games does not open the step for a `par` either
/// (interpretation I35: [`shares_step_open`]).
pub(super) fn settle(
    state: &State,
    sym: &str,
    seat: Seat,
    board: &track::LazyBoard,
    events: &mut Vec<Event>,
) -> Settled {
    let skip = !has_sell_option(state) && !has_share_option(state);
    debug_assert_eq!(
        skip,
        only_a_pass(&legal_with_lays(state, seat, None, board)),
        "the share step's skipping agrees with its listing"
    );
    if skip && !shares_step_open(state, sym) {
        events.push(Event::Passed {
            seat,
            automatic: true,
        });
        Settled::Skipped
    } else {
        Settled::Waits
    }
}

/// Carries out a listed sale or start (the step goes on), or a listed purchase (1841 §9.7:
/// one purchase ends the step).
pub(super) fn apply(
    state: &mut State,
    j: &Judged,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<Then, Rejection> {
    match action {
        Action::SellShares {
            corporation,
            percent,
        } if j.listed => {
            sell_share(state, j.sym, corporation, *percent, events);
            Ok(Then::Stay)
        }
        Action::Par { corporation, price } if j.listed => {
            start_corporation(state, j.seat, j.sym, corporation, *price, events);
            Ok(Then::Stay)
        }
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } if j.listed => {
            buy_share(state, j.sym, corporation, *from_pool, *percent, events);
            Ok(Then::Next)
        }
        _ => Err(unlisted(state, j, action)),
    }
}

/// Whether the corporate share step waits for the corporation even without a start, a
/// purchase or a sale this engine lists (interpretation I35, revised 2026-12-06): 18xx.games
/// (`G1841::Step::CorporateBuySellParShares`, `BuySellParShares#can_ipo_any?`) opens the step
/// with a `par` whenever the treasury can pay the first IPO certificate of a corporation its
/// `can_par?` accepts, priced at the lowest par price (L.68 a unit):
/// * a non-historical corporation not started (phase 3 on): its president's certificate,
///   twice the par (L.136, 1841 §5.4), whether or not a home city is free;
/// * from phase 4 (when `concession_ok?` lets a corporation start any corporation), a
///   historical corporation that is closed (§3.4, §11 step 2, §12: closed for good, so never
///   a real start): 18xx keeps its IPO in the order the certificates came back, so its first
///   certificate is an ordinary share (L.68) when it still had unsold IPO shares at its close
///   ([`Corporation::ipo_first_share_ordinary`]; lite recorded game, action 721: IFAI with
///   L.97 passes the step, IRSFF having kept three IPO shares through the split), otherwise
///   its president's certificate (L.136); a corporation formed by an event counts only once
///   formed ([`super::super::super::corporation::closed_historical_listed_par_cost`]).
///
/// The corporation must hold fewer than 5 certificates of others (§9.7). So a corporation
/// with less than L.136 and nothing to buy or sell has no step in general (lite heuristic 3
/// players seed 3001, 18xx id 227: RSFS with L.86 in its first turn; before, the step was
/// kept open from L.68 whenever a non-historical corporation could start). A merger's
/// exchanges give the certificates back in 18xx's order
/// (`merger::exchange::first_back_is_ordinary`, since 2026-12-07). Not modelled: the split
/// with IRSFF's president's certificate in the pool.
///
/// [`Corporation::ipo_first_share_ordinary`]: super::super::super::state::Corporation::ipo_first_share_ordinary
fn shares_step_open(state: &State, sym: &str) -> bool {
    let Some(c) = state.corporation(sym) else {
        return false;
    };
    let lowest = market::par_prices(state, CorporationKind::Minor)
        .into_iter()
        .chain(market::par_prices(state, CorporationKind::Major))
        .min()
        .unwrap_or(i64::MAX);
    if c.cash < lowest {
        return false;
    }
    let rules = data::ruleset(&state.options);
    let owner = ShareOwner::Corporation(sym.to_string());
    let held = state
        .corporations
        .iter()
        .flat_map(|x| x.certificates.iter())
        .filter(|x| x.owner == owner)
        .count();
    let max_held =
        usize::try_from(rules.corporation_max_certificates_of_other_corporations).unwrap_or(0);
    if held >= max_held {
        return false;
    }
    let phase = phase_number(state);
    let president = lowest.saturating_mul(2);
    state.corporations.iter().any(|x| {
        if x.started() || x.sym == sym {
            false
        } else if x.closed {
            super::super::super::corporation::closed_historical_listed_par_cost(state, x, lowest)
                .is_some_and(|first| c.cash >= first)
        } else {
            phase >= 3
                && c.cash >= president
                && !x.historical
                && super::super::super::corporation::is_non_historical(&state.options, &x.sym)
        }
    })
}
