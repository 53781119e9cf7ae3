//! Corporations, certificates and control (1841 §3.3–§3.5, §7.1–§7.3, §7.5).
//!
//! A corporation's president is whoever holds its president's certificate; holders are
//! players, other corporations, the IPO or the pool ([`ShareOwner`]). Control follows the
//! chain of presidents up to a player (1841 §7.2), so the 60% limit (§7.3) counts shares held
//! by every corporation a player controls.
//!
//! This module holds a corporation's own questions (`impl Corporation`: started, price,
//! president, holdings), the certificate limit (§2), the phase number, the order of holders
//! (§12.1, FAQ-C16), the seat acting for a holder, holders' cash and the holding limits
//! (§7.3). One module each: [`roster`] (§3.2–§3.5), [`control`] (§7.2, §7.4) and
//! [`presidency`] (§7.5).

use super::concession::Concession;
use super::data;
use super::market;
use super::options::Options;
use super::state::{Certificate, Corporation, CorporationKind, ShareOwner, State};
use crate::Seat;

mod control;
mod presidency;
mod roster;

pub use control::{
    PresidentOverride, chain, circular, circular_set, controlled_percent, controlled_percent_of,
    controller, controller_of, controller_with, creates_circular_control, frozen, frozen_of,
    frozen_set, presidency_creates_circular_control,
};
pub use presidency::{
    largest_other_holding, presidency_may_change, presidency_taker, ranked_holders,
    swap_presidency, swap_presidency_of, update_presidency,
};
pub use roster::{
    concession_of_corporation, corporation_of_concession, fresh_certificates, historical_data,
    initial_corporations, is_non_historical, roster, roster_index, roster_slot,
};

impl Corporation {
    /// Whether it has been started (has a market position; it floats at once, 1841 §3.5).
    pub fn started(&self) -> bool {
        self.share_price.is_some()
    }

    /// Current market price per unit certificate in L. (`None` while not started).
    pub fn price(&self) -> Option<i64> {
        self.share_price
            .and_then(|p| super::market::price_at(p.row, p.col))
    }

    /// The holder of the president's certificate.
    pub fn president(&self) -> Option<&ShareOwner> {
        self.certificates
            .iter()
            .find(|c| c.president)
            .map(|c| &c.owner)
    }

    /// The president if it is a player.
    pub fn president_seat(&self) -> Option<Seat> {
        match self.president() {
            Some(ShareOwner::Player(s)) => Some(*s),
            _ => None,
        }
    }

    /// Percent held by `owner`.
    pub fn percent_of(&self, owner: &ShareOwner) -> u32 {
        self.certificates
            .iter()
            .filter(|c| &c.owner == owner)
            .map(|c| c.percent)
            .sum()
    }

    /// Percent in its IPO.
    pub fn ipo_percent(&self) -> u32 {
        self.percent_of(&ShareOwner::Ipo)
    }

    /// Percent in the bank pool.
    pub fn pool_percent(&self) -> u32 {
        self.percent_of(&ShareOwner::Pool)
    }

    /// Sold out: every share with players or corporations, none in the IPO or pool (1841 §5.5).
    pub fn sold_out(&self) -> bool {
        self.certificates
            .iter()
            .all(|c| matches!(c.owner, ShareOwner::Player(_) | ShareOwner::Corporation(_)))
    }

    /// Percent of one unit certificate.
    pub fn unit_percent(&self) -> u32 {
        self.kind.unit_percent()
    }
}

/// Certificates `seat` holds, all corporations together (1841 §2: each certificate counts
/// one, whatever its size; concessions do not count, FAQ-Q7; corporations' holdings do not
/// count, FAQ-Q8).
pub fn certificate_count(state: &State, seat: Seat) -> u32 {
    let owner = ShareOwner::Player(seat);
    state
        .corporations
        .iter()
        .flat_map(|c| c.certificates.iter())
        .filter(|c| c.owner == owner)
        .count() as u32
}

/// The certificate limit of every player (1841 §2: 21/16/13/11/10/9 for 3–8 players).
pub fn certificate_limit(state: &State) -> u32 {
    data::ruleset(&state.options)
        .cert_limit(state.players.len() as u32)
        .unwrap_or(0)
}

/// What 18xx.games' `BuySellParShares#can_ipo_any?` asks a buyer to hold for a closed
/// historical corporation `x` (interpretation I35), `lowest` being the lowest par price; `None`
/// when its `can_par?` refuses `x`. A historical corporation that closes is closed for good
/// (1841 §3.4, §11 step 2, §12), so no start of it ever follows; but 18xx's `can_par?` does not
/// look at `closed?`: from phase 4 (`concession_ok?` then accepts anyone) it accepts a closed
/// historical corporation that was `startable` — one of the seven of the concessions, or one
/// formed by an event (SFLi, the split's two) that did form. Its `can_buy?` then prices the first
/// certificate of the closed corporation's IPO at the lowest par: an ordinary share (one unit,
/// `lowest`) when the corporation still had unsold IPO shares at its close
/// ([`Corporation::ipo_first_share_ordinary`]), else its president's certificate (two units).
/// A corporation formed by an event that closed without unsold IPO shares cannot be told from
/// one that never formed (18xx: not `startable`) and is taken as never formed.
pub(crate) fn closed_historical_listed_par_cost(
    state: &State,
    x: &Corporation,
    lowest: i64,
) -> Option<i64> {
    if !(x.closed && x.historical) || phase_number(state) < 4 {
        return None;
    }
    let formed_by_event = historical_data(&state.options, &x.sym)?
        .formed_by_event
        .is_some();
    if formed_by_event && !x.ipo_first_share_ordinary {
        return None;
    }
    Some(if x.ipo_first_share_ordinary {
        lowest
    } else {
        lowest.saturating_mul(2)
    })
}

/// The current phase as a number (`2` … `8`).
pub fn phase_number(state: &State) -> u32 {
    state.phase.parse().unwrap_or(2)
}

/// Players in player order starting with `first` (1841 §12.1: "starting with the
/// initiator's president and going round the table").
pub fn players_from(state: &State, first: Seat) -> Vec<Seat> {
    let order = &state.player_order;
    let start = order.iter().position(|s| *s == first).unwrap_or(0);
    (0..order.len())
        .filter_map(|k| order.get((start + k) % order.len()).copied())
        .collect()
}

/// The order in which holders act in exchanges and share offers (1841 §12.1, FAQ-C16): the
/// players from `first` round the table, each followed by the started corporations he
/// controls, then the pool (if `with_pool`), then frozen corporations. Corporations come in
/// the corporation list order (18xx), or, with `exchanges_by_share_value` (FAQ-C16: "then for
/// the companies he runs, in descending share price order"; FAQ-Q25: several frozen companies
/// "go in share-value order"; FAQ-Q12: share-value order is operating order), in operating
/// order. `only` keeps the holders it accepts.
pub fn holder_order(
    state: &State,
    first: Seat,
    with_pool: bool,
    only: impl Fn(&ShareOwner) -> bool,
) -> Vec<ShareOwner> {
    let corporations: Vec<&str> = if state.options.exchanges_by_share_value() {
        let mut order = market::operating_order_of(state);
        let rest: Vec<&str> = state
            .corporations
            .iter()
            .filter(|c| !order.contains(&c.sym.as_str()))
            .map(|c| c.sym.as_str())
            .collect();
        order.extend(rest);
        order
    } else {
        state.corporations.iter().map(|c| c.sym.as_str()).collect()
    };
    // Each corporation with, if started, its controlling player: worked out once, not once
    // per player.
    let corporations: Vec<(&Corporation, Option<Option<Seat>>)> = corporations
        .iter()
        .filter_map(|s| state.corporation(s))
        .map(|c| (c, c.started().then(|| controller_of(state, c))))
        .collect();
    let mut out = Vec::new();
    for seat in players_from(state, first) {
        out.push(ShareOwner::Player(seat));
        for (c, controller) in &corporations {
            if !c.closed && *controller == Some(Some(seat)) {
                out.push(ShareOwner::Corporation(c.sym.clone()));
            }
        }
    }
    if with_pool {
        out.push(ShareOwner::Pool);
    }
    for (c, controller) in &corporations {
        // Frozen (`frozen_of`): started, without a controlling player.
        if *controller == Some(None) {
            out.push(ShareOwner::Corporation(c.sym.clone()));
        }
    }
    out.retain(|h| only(h));
    out
}

/// The seat acting for a holder: the player, or a corporation's controller (1841 §7.2).
pub fn acting_seat(state: &State, holder: &ShareOwner) -> Option<Seat> {
    match holder {
        ShareOwner::Player(s) => Some(*s),
        ShareOwner::Corporation(c) => controller(state, c),
        ShareOwner::Ipo | ShareOwner::Pool => None,
    }
}

/// Cash of a player or corporation holder.
pub fn holder_cash(state: &State, holder: &ShareOwner) -> i64 {
    match holder {
        ShareOwner::Player(s) => state.player(*s).map_or(0, |p| p.cash),
        ShareOwner::Corporation(c) => state.corporation(c).map_or(0, |c| c.cash),
        ShareOwner::Ipo | ShareOwner::Pool => 0,
    }
}

/// Adds `amount` (may be negative) to a player's or corporation's cash; the bank's when
/// `holder` is the pool or the IPO.
pub fn add_cash(state: &mut State, holder: &ShareOwner, amount: i64) {
    match holder {
        ShareOwner::Player(s) => {
            if let Some(p) = state.players.get_mut(*s as usize) {
                p.cash = p.cash.saturating_add(amount);
            }
        }
        ShareOwner::Corporation(c) => {
            if let Some(c) = state.corporations.iter_mut().find(|x| x.sym == *c) {
                c.cash = c.cash.saturating_add(amount);
            }
        }
        ShareOwner::Ipo | ShareOwner::Pool => {
            state.bank_cash = state.bank_cash.saturating_add(amount);
        }
    }
}

/// Whether `holder` may take one more certificate of `sym` of `percent` by the limits: a
/// player within his certificate limit and the 60% limit (1841 §2, §7.3); a corporation
/// within its 5 certificates of others, never of itself or a corporation of its own chain,
/// and within its controller's 60% (§9.7).
pub fn may_hold_more(state: &State, holder: &ShareOwner, sym: &str, percent: u32) -> bool {
    let rules = data::ruleset(&state.options);
    let max = rules.max_percent_controlled_by_one_player;
    match holder {
        ShareOwner::Player(seat) => {
            certificate_count(state, *seat) < certificate_limit(state)
                && controlled_percent(state, *seat, sym).saturating_add(percent) <= max
        }
        ShareOwner::Corporation(buyer) => {
            if buyer == sym || chain(state, buyer).iter().any(|c| c == sym) {
                return false;
            }
            let held = state
                .corporations
                .iter()
                .flat_map(|c| c.certificates.iter())
                .filter(|c| c.owner == *holder)
                .count() as u32;
            held < rules.corporation_max_certificates_of_other_corporations
                && controller(state, buyer).is_some_and(|seat| {
                    controlled_percent(state, seat, sym).saturating_add(percent) <= max
                })
        }
        ShareOwner::Ipo | ShareOwner::Pool => false,
    }
}
