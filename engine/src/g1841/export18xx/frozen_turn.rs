//! The corporate share step and the transformation step 18xx.games keeps open for a
//! corporation frozen mid-turn (1841 §7.4, §9.7, §12.2), which this engine ends (reviewed
//! divergence `frozen-mid-turn-train-step`).

use super::frozen_mid_turn;
use crate::Seat;
use crate::g1841::corporation::{chain, phase_number};
use crate::g1841::market;
use crate::g1841::operating_round;
use crate::g1841::state::{CorporationKind, ShareOwner, State};

/// The corporation frozen mid-turn (1841 §7.4: no player controls it once the events of its
/// train purchase are over, e.g. its owner SB's president's certificate in the pool after the
/// split, §12.4) whose turn this engine ended with `pre → post`, while 18xx.games goes on to its
/// corporate share step (`G1841::Round::Operating#after_process` continues a turn the pool
/// controls) and that step lists something (`G1841::Step::CorporateBuySellParShares#actions`),
/// with the seat to write its `pass` for: no share action, the decision this engine makes for
/// it. 18xx lists a purchase of an ordinary certificate of another started corporation outside its chain of
/// control from the IPO or the pool that its treasury pays while it holds fewer than 5
/// certificates of others (1841 §9.7) and the pool — its controller, whose
/// `player_controlled_percentage` is the pool's holding — stays within 60% of the target
/// (`can_gain?`), or a start whose first treasury certificate it pays (`can_ipo_any?`,
/// [`startable_in_18xx`]), or a sale (`can_sell_any?`, [`operating_round::could_sell_any`]).
/// v2 4 players seed 4102, 18xx id 327: SLDV, L.57, frozen under SB after the split, passes
/// its train step; 18xx then waits in its share step (SFTN's pool share at L.48, SFTC's at
/// L.8) where the next corporation's lay was written. (18xx's `must_sell?` would list only a
/// sale: not bridged by a pass.)
pub(super) fn share_step_left_open_in_18xx(pre: &State, post: &State) -> Option<(String, Seat)> {
    let (corp, seat) = frozen_mid_turn(pre, post)?;
    let buyer = post.corporation(&corp)?;
    let rules = crate::g1841::data::ruleset(&post.options);
    let holder = ShareOwner::Corporation(corp.clone());
    let held = post
        .corporations
        .iter()
        .flat_map(|c| c.certificates.iter())
        .filter(|c| c.owner == holder)
        .count() as u32;
    let above = chain(post, &corp);
    let buys = held < rules.corporation_max_certificates_of_other_corporations
        && post.corporations.iter().any(|t| {
            let Some(price) = t.price() else {
                return false;
            };
            if t.sym == corp || t.closed || above.contains(&t.sym) {
                return false;
            }
            let pool = t.pool_percent();
            t.certificates.iter().any(|c| {
                !c.president
                    && matches!(c.owner, ShareOwner::Pool | ShareOwner::Ipo)
                    && price.saturating_mul(i64::from(c.percent / t.unit_percent().max(1)))
                        <= buyer.cash
                    && pool + c.percent <= rules.max_percent_controlled_by_one_player
            })
        });
    // A sale keeps the step open too (`can_sell_any?`; version_1 random 5 players seed 5144,
    // 18xx id 277: IFAI, frozen under SFLi by the Tuscan merge its 4-train began, may issue
    // its own shares): the sales this engine would list were the corporation controlled, its
    // own shares only after a first turn (p2p_purchases heuristic 4 players seed 4001, id
    // 541: CFCC, frozen under SB in its first turn, holds nothing else; 18xx goes on).
    let open = buys
        || startable_in_18xx(post, &corp)
        || operating_round::could_sell_any(
            post,
            &corp,
            pre.corporation(&corp).is_some_and(|c| c.operated),
        );
    open.then_some((corp, seat))
}

/// The minor frozen mid-turn whose turn this engine ended with `pre → post` (as
/// [`share_step_left_open_in_18xx`]) while 18xx.games goes on to its transformation step and
/// offers it (`G1841::Step::Transform#actions`: a minor, non-historical or from phase 4,
/// `transformable?`, while a non-historical major can be formed, `merge_target?`; unlike its
/// merge step, `mergeable?`, it never asks whether the corporation is frozen), with the seat
/// to write its `pass` for. By the rules a frozen corporation does nothing in its turn (1841
/// §7.4: it has no president to decide, and "cannot merge"); a transformation is its
/// president's decision (§12.2), so nobody may transform it and the pass is the decision this
/// engine makes for it: a matter of the export only. v2 4 players seed 4102, 18xx id 329:
/// SLDV buys the first 4-train (id 318), is frozen by the split, passes its train step (id
/// 327) and its share step (id 328); 18xx then waits in its transformation step where SFTG's
/// lay was written.
pub(super) fn transform_step_left_open_in_18xx(
    pre: &State,
    post: &State,
) -> Option<(String, Seat)> {
    let (corp, seat) = frozen_mid_turn(pre, post)?;
    let c = post.corporation(&corp)?;
    let offered = c.kind == CorporationKind::Minor
        && c.started()
        && (!c.historical || phase_number(post) >= 4)
        && operating_round::events::any_formable_major(post);
    offered.then_some((corp, seat))
}

/// Whether 18xx.games lists a start to corporation `buyer` in its share step
/// (`can_ipo_any?`): a corporation never started, non-historical from phase 3 or historical
/// from phase 4 (1841 §3.4, §9.7), whose first treasury certificate the treasury pays at the
/// lowest par price (the president's of a corporation never started; of a closed one,
/// whichever came back first, so the cheapest is assumed).
pub(super) fn startable_in_18xx(state: &State, buyer: &str) -> bool {
    let Some(b) = state.corporation(buyer) else {
        return false;
    };
    let lowest = market::par_prices(state, CorporationKind::Minor)
        .into_iter()
        .chain(market::par_prices(state, CorporationKind::Major))
        .min()
        .unwrap_or(0);
    let phase = phase_number(state);
    state.corporations.iter().any(|c| {
        let available = if c.historical { phase >= 4 } else { phase >= 3 };
        let mut ipo = c.certificates.iter().filter(|x| x.owner == ShareOwner::Ipo);
        let first = if c.closed {
            ipo.map(|x| x.percent).min()
        } else {
            ipo.next().map(|x| x.percent)
        }
        .map(|percent| i64::from(percent) * lowest / 10);
        c.sym != b.sym && !c.started() && available && first.is_some_and(|price| price <= b.cash)
    })
}
