//! Step 1 of a major merger, the presidency (1841 §12.1, FAQ-R6, R4): the holders in
//! order, who is asked to claim and what a claim costs, the answers of the odd sweep, and the
//! check of the result once the president is known (no circular control, the new corporation
//! not frozen, FAQ-R1) before the exchange is executed.

use super::assets::restore_assets;
use super::exchange::{execute, follow_moved_holdings, odd_share};
use super::*;

/// Cost of claiming the presidency with `units` old units (1841 §12.1: price × (40 − held%)
/// ÷ 20, rounded down; in the odd sweep with the odd share alone, `units` 1: 1.5 × the
/// price, 18xx `pres_upgrade_cost` with the 10% left after pass 1).
pub(super) fn claim_cost(price: i64, units: u32) -> i64 {
    let held = i64::from(units) * 10;
    (price.saturating_mul(40 - held.min(40))).div_euclid(20)
}

/// Whether holder `h` may claim a merger's new president's certificate (1841 §12.1): a
/// player (18xx, spec §17 item 3); with `merger_presidency_for_companies` (FAQ-R6: "a
/// shareholder whose turn it is … may take it") also a corporation that has a controlling
/// player to decide for it, paying from its treasury.
fn may_claim(state: &State, m: &Merger, h: &ShareOwner) -> bool {
    match h {
        ShareOwner::Player(_) => true,
        ShareOwner::Corporation(_) => {
            state.options.merger_presidency_for_companies() && exchange_seat(state, m, h).is_some()
        }
        ShareOwner::Ipo | ShareOwner::Pool => false,
    }
}

/// The seat deciding for the holder `h` in a major merger's presidency stage. Once the
/// assets have moved (`m.moved`: the old corporations' certificates of other corporations lie
/// in the new corporation's treasury), a holder corporation whose presidency the new
/// corporation takes by them answers to the new corporation's chain (1841 §7.5: a holder,
/// corporations included, with strictly more than the president takes the presidency, after
/// every share movement; 18xx.games' `move_assets` moves each holding with
/// `allow_president_change`), and while the new corporation has no president, to nobody: it
/// is frozen and takes the default (§7.4: "it cannot take decisions in exchanges"). Version 2
/// random 5 players seed 5122, 18xx id 617: at the Tuscan merge SFLi receives 30% of SFTG
/// against player 3's 20% president's certificate, and 18xx.games exchanges SFTG's odd share
/// for cash without asking anyone, where this engine asked player 3. This engine makes those
/// presidency changes when the merger is carried out (`follow_moved_holdings` in
/// [`execute`], so that a failed merger changes none); here they are looked ahead on a copy.
pub(super) fn exchange_seat(state: &State, m: &Merger, h: &ShareOwner) -> Option<Seat> {
    if m.moved.is_none() || !matches!(h, ShareOwner::Corporation(_)) {
        return acting_seat(state, h);
    }
    let mut s = state.clone();
    follow_moved_holdings(&mut s, &m.target, &mut Vec::new());
    acting_seat(&s, h)
}

/// The holder asked about the presidency at `m.next`, and what he may do.
pub(super) struct Asked {
    pub(super) holder: ShareOwner,
    pub(super) units: u32,
    /// He may claim the president's certificate and can pay for it.
    pub(super) claim: bool,
    /// He may pay for a full share for his odd share and so reach 20% (R4).
    pub(super) full: bool,
}

/// Whether `m.next` points into the sweep over odd shares (past the pairs sweep).
pub(super) fn in_odd_sweep(m: &Merger) -> bool {
    m.next as usize >= m.holders.len()
}

/// The holder asked about the presidency at `m.next`; `None` when `m.next` points at nobody to
/// ask. 1841 §12.1: pairs first, then odd single shares (18xx.games `merger_next_exchange`:
/// pass 1 asks each holder of 20–30% of the old shares, pass 2 every holder of an odd old
/// share left after his pairs, a holder of 30% too, with one question — `cash`, `full`, or
/// `pres` while nobody presides).
/// * Claim: a player (or with `merger_presidency_for_companies` a corporation, FAQ-R6) with
///   fewer than 4 units who can pay [`claim_cost`]: in the pairs sweep for his whole holding
///   (× (40 − held%) ÷ 20); in the odd sweep for his odd share only (held 10%: 1.5 × the
///   price), keeping the new share of his pair (§12.1 pass 2 (c); 18xx `pres_upgrade_cost`
///   with the 10% left after pass 1).
/// * Full share (odd sweep, three units): with the new share of his pair he then holds 20%,
///   and "the first holder to accumulate 20% of the new corporation receives its president's
///   certificate" (§12.1; 18xx.games' exchange moves shares with `allow_president_change`,
///   players and corporations alike, `player_share_holders`). So a holder of 30% who pays
///   for a full share presides (divergences-import R4: `version_1-7p-s20003` id 208); one who
///   declines takes cash for his odd share (18xx: his single answer, `cash`).
///   Open to a player or a corporation with a controlling player who can pay half the price
///   and gets a new share for his pair (the pairs before his leave one).
pub(super) fn asked(state: &State, m: &Merger) -> Option<Asked> {
    let len = m.holders.len();
    let i = m.next as usize % len.max(1);
    let h = m.holders.get(i)?;
    let u = *m.units.get(i)?;
    let odd_sweep = in_odd_sweep(m);
    let in_sweep = if odd_sweep { u % 2 == 1 } else { u >= 2 };
    if !in_sweep || u >= 4 {
        return None;
    }
    let price = new_price(m);
    let claim = may_claim(state, m, h)
        && holder_cash(state, h) >= claim_cost(price, if odd_sweep { 1 } else { u });
    let full = odd_sweep
        && u == 3
        && matches!(h, ShareOwner::Player(_) | ShareOwner::Corporation(_))
        && exchange_seat(state, m, h).is_some()
        && holder_cash(state, h) >= price.div_euclid(2)
        && gets_pair_share(state, m, i);
    (claim || full).then(|| Asked {
        holder: h.clone(),
        units: u,
        claim,
        full,
    })
}

/// Whether the holder at `i` receives a new share for a pair in the exchange of pairs: the
/// holders before him take one share per pair while the new corporation's ordinary shares
/// last (1841 §12.1).
fn gets_pair_share(state: &State, m: &Merger, i: usize) -> bool {
    let left = state.corporation(&m.target).map_or(0, |c| {
        c.certificates
            .iter()
            .filter(|x| x.owner == ShareOwner::Ipo && !x.president)
            .count()
    });
    let before: usize = m.units.iter().take(i).map(|&u| (u / 2) as usize).sum();
    left > before
}

/// A claim of the presidency in the sweep over odd shares, by the holder at `claimant`: the
/// holders before him in the order answered for their odd shares at their turns, while the
/// new corporation had no president (1841 §12.1: pass 2 goes through the holders in order;
/// 18xx.games `merger_next_exchange`). A corporation among them controlled only through
/// the new corporation had nobody to choose a full share for it and took cash (18xx: `:full`
/// only with `entity.player`); its answer is recorded now, played when its odd share comes
/// up. (Version 2 random 7 players seed 7176, 18xx id 901: SFLi, whose president's
/// certificate the merger had moved to the new CTDA, sold its odd SFTC share before player 4
/// claimed CTDA; this engine asked SFLi after the claim, of player 4.)
pub(super) fn answered_without_president(state: &State, m: &mut Merger, claimant: usize) {
    let unpresided = (m.target.as_str(), &ShareOwner::Ipo);
    for i in 0..claimant.min(m.holders.len()) {
        let h = &m.holders[i];
        let ShareOwner::Corporation(c) = h else {
            continue;
        };
        if m.units.get(i).is_some_and(|u| u % 2 == 1)
            && !m.pass2.iter().any(|(x, _)| x == h)
            && crate::g1841::corporation::controller_with(state, Some(unpresided), c).is_none()
        {
            m.pass2.push((h.clone(), OddShareChoice::Cash));
        }
    }
}

/// Whether a holder of three units chose a full share in the odd sweep (R4): the merger goes
/// on with the president's certificate open until his odd share makes him president.
pub(super) fn full_pending(m: &Merger) -> bool {
    m.pass2.iter().any(|(_, c)| *c == OddShareChoice::FullShare)
}

/// Holders of the old corporations in order with their combined units (shares of one held by
/// the other do not take part).
pub(super) fn old_holders(state: &State, m: &Merger, first: Seat) -> (Vec<ShareOwner>, Vec<u32>) {
    let olds = [m.initiator.clone(), m.partner.clone()];
    let is_old = |h: &ShareOwner| matches!(h, ShareOwner::Corporation(c) if olds.contains(c));
    let units = |h: &ShareOwner| -> u32 { olds.iter().map(|o| units_of(state, o, h)).sum() };
    let holders = holder_order(state, first, true, |h| !is_old(h) && units(h) > 0);
    let u = holders.iter().map(units).collect();
    (holders, u)
}

fn first_seat(state: &State, m: &Merger) -> Seat {
    controller(state, &m.initiator)
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0)
}

/// After the new corporation is chosen: majors go to the presidency stage; minors exchange
/// at once.
pub(super) fn begin_exchange(state: &State, m: &mut Merger) {
    let first = first_seat(state, m);
    let (holders, units) = old_holders(state, m, first);
    m.holders = holders;
    m.units = units;
    m.next = 0;
    m.stage = MergerStage::Presidency;
}

/// Whether the merger, executed with `m.president`, would create circular control or leave
/// the new corporation frozen (1841 §12.1, FAQ-R1).
pub(super) fn illegal_result(state: &State, m: &Merger) -> bool {
    // One simulated execution serves both checks (as
    // `corporation::creates_circular_control` on a copy, then the frozen test).
    let before = circular_set(state);
    let mut s = state.clone();
    let mut sim = m.clone();
    let mut ev = Vec::new();
    execute(&mut s, &mut sim, &mut ev);
    // R4: the holder of three units who chose a full share presides once his odd share is
    // exchanged.
    let full = sim
        .pass2
        .iter()
        .find(|(_, c)| *c == OddShareChoice::FullShare)
        .map(|(h, _)| h.clone());
    if let Some(h) = full
        && let Some(i) = sim.holders.iter().position(|x| *x == h)
    {
        odd_share(&mut s, &mut sim, i, &h, OddShareChoice::FullShare, &mut ev);
    }
    circular_set(&s).iter().any(|c| !before.contains(c)) || frozen(&s, &m.target)
}

/// The president is known (or nobody, at the end of the list): check the result, then
/// execute. Returns false when the merger failed (the event is gone).
pub(super) fn settle_presidency(
    state: &mut State,
    m: &mut Merger,
    events: &mut Vec<Event>,
) -> bool {
    if !m.tuscan && ((m.president.is_none() && !full_pending(m)) || illegal_result(state, m)) {
        // 18xx.games: "Cannot complete this merger without a president. Undo required." —
        // the whole merger is taken back, the moved assets and the discards included.
        if let Some(moved) = m.moved.take() {
            restore_assets(state, m, &moved);
        }
        events.push(Event::MergerFailed {
            initiator: m.initiator.clone(),
            partner: m.partner.clone(),
        });
        set_event(state, None);
        return false;
    }
    execute(state, m, events);
    // Settled: nothing is taken back any more.
    m.moved = None;
    true
}
