//! The exchange of IRSFF's shares (1841 §12.4): the successors' presidencies (§17 item 9),
//! pairs into one share of each, odd shares at the holder's choice (who decides for a
//! corporation or the pool; 18xx `@secession_decider`), and units that cannot be exchanged,
//! paid with `ferdinandea_unexchanged_payout` (FAQ-R3).

use super::*;

/// IRSFF's president (with less than 40%) took `chosen`; the other presidency goes to the
/// first other holder with 20% in exchange for a pair of IRSFF shares, else to the pool
/// (1841 §12.4). The holders are taken in the exchange order (players from IRSFF's
/// president, each with the corporations he controls, then the pool, then frozen
/// corporations), the pool included: a pool holding 20% of IRSFF gives a pair for the
/// president's certificate like any holder (18xx `secession_exchange_pairs`: the first pair
/// of the first holder with 20% takes it, the share pool among them), so the exchange hands
/// out exactly as many units as IRSFF had outside its IPO; the corporation is then frozen
/// (§7.4). Before 2026-12-06 the pool was passed over and took the certificate without
/// giving a pair (v2 random 3 players seed 3001, 18xx ids 406–414: a pool with 50% of IRSFF
/// kept one SB and one SFL share more, and SFL's IPO was empty for the repeated offer).
pub(super) fn assign_presidencies(
    state: &mut State,
    split: &mut Split,
    chosen: &str,
    events: &mut Vec<Event>,
) {
    let succ = successors(state);
    let other = succ
        .iter()
        .find(|s| s.as_str() != chosen)
        .cloned()
        .unwrap_or_default();
    let president = split.president.clone();
    give_president(state, chosen, &president);
    exchanged(state, &president, chosen, 20, true, events);
    if let Some(i) = split.holders.iter().position(|h| *h == president) {
        split.units[i] = split.units[i].saturating_sub(2);
    }
    reorder_holders(state, split);
    let next = split
        .holders
        .iter()
        .zip(split.units.iter())
        .position(|(h, u)| *h != president && *u >= 2);
    match next {
        Some(i) => {
            let h = split.holders[i].clone();
            give_president(state, &other, &h);
            exchanged(state, &h, &other, 20, true, events);
            split.units[i] -= 2;
            if h == ShareOwner::Pool {
                events.push(Event::FrozenChanged {
                    corporation: other.clone(),
                    frozen: true,
                });
            }
        }
        None => {
            give_president(state, &other, &ShareOwner::Pool);
            events.push(Event::FrozenChanged {
                corporation: other.clone(),
                frozen: true,
            });
        }
    }
}

/// Pays holder `h` for `units` IRSFF units it cannot exchange (FAQ-R3: "they are paid the
/// current market value, and the price does not move"): `units` × IRSFF's price at the split
/// from the bank, with `ferdinandea_unexchanged_payout`; nothing without it (18xx: the shares
/// are lost when IRSFF closes) or for the pool's units.
pub(super) fn pay_unexchanged(
    state: &mut State,
    split: &Split,
    h: &ShareOwner,
    units: u32,
    events: &mut Vec<Event>,
) {
    if !state.options.ferdinandea_unexchanged_payout()
        || units == 0
        || matches!(h, ShareOwner::Pool | ShareOwner::Ipo)
    {
        return;
    }
    let amount = split.irsff_price.saturating_mul(i64::from(units));
    add_cash(state, h, amount);
    add_cash(state, &ShareOwner::Pool, -amount);
    events.push(Event::ExchangePayment {
        holder: h.clone(),
        corporation: from(state),
        amount,
        to_corporation: false,
    });
}

/// Every remaining pair of IRSFF shares → one share of each successor (1841 §12.4; a half of
/// a pair whose successor is sold out is paid with `ferdinandea_unexchanged_payout`, FAQ-R3);
/// then the odd shares wait in stage `SingleShares`.
pub(super) fn exchange_pairs(state: &mut State, split: &mut Split, events: &mut Vec<Event>) {
    let succ = successors(state);
    for i in 0..split.holders.len() {
        let h = split.holders[i].clone();
        while split.units[i] >= 2 {
            split.units[i] -= 2;
            for s in &succ {
                if give_share(state, s, &h) {
                    let unit = state.corporation(s).map_or(10, |c| c.unit_percent());
                    exchanged(state, &h, s, unit, false, events);
                } else {
                    pay_unexchanged(state, split, &h, 1, events);
                }
            }
        }
    }
    reorder_holders(state, split);
    split.stage = SplitStage::SingleShares;
    split.next = 0;
}

/// Puts the holders with IRSFF units left in the exchange order as it stands now (players
/// from the split's decider, each followed by the corporations he controls, then the pool,
/// then frozen corporations; [`holder_order`]). The presidencies given out at the split change
/// who controls a corporation whose president's certificate went to a successor from IRSFF's
/// treasury (or one controlled through it), so the order is taken again once the chosen
/// presidency is given (for the other presidency and the pairs) and after the pairs (for the
/// odd shares), as 18xx.games builds `secession_share_holder_list` at those two points
/// (`secession_exchange_pairs`, `secession_exchange_singles`). Before 2026-12-06 the order was
/// taken once, before any presidency: lite 4 players seed 4102 (id 600), SFTC, whose president's
/// certificate IRSFF's treasury gave to SFL, came last as frozen, though SFL's presidency had
/// gone to SFTN, controlled by player 4, who then answers for SFTC right after his own.
pub(super) fn reorder_holders(state: &State, split: &mut Split) {
    let first = split_decider(state, split)
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0);
    let units_of = |h: &ShareOwner| {
        split
            .holders
            .iter()
            .position(|x| x == h)
            .and_then(|i| split.units.get(i).copied())
            .unwrap_or(0)
    };
    let mut holders = holder_order(state, first, true, |h| units_of(h) > 0);
    // A holder the order no longer names (none is expected) keeps its units, after the others.
    for h in &split.holders {
        if units_of(h) > 0 && !holders.contains(h) {
            holders.push(h.clone());
        }
    }
    let units = holders.iter().map(units_of).collect();
    split.holders = holders;
    split.units = units;
}

/// Who decides the odd share of holder `h` (1841 §12.4, "holder's choice"): a player himself;
/// a corporation through the player at the end of its chain of control (1841 §7.2; 18xx
/// `secession_next_exchange` asks `entity.player`); the pool's, IRSFF's president (with his
/// certificate in the pool, the controller of the corporation whose train purchase caused
/// the split: 18xx `@secession_decider`). A corporation nobody controls (frozen) takes SB
/// while available (no decision; 18xx: `:a`).
pub(super) fn single_decider(state: &State, split: &Split, h: &ShareOwner) -> Option<Seat> {
    match h {
        ShareOwner::Pool => split_decider(state, split),
        _ => acting_seat(state, h),
    }
}

/// The split's decider (18xx `@secession_decider`): IRSFF's president at the split (a
/// corporation's: its controller), or, with his certificate in the pool or a frozen
/// corporation president, the controller of the corporation whose train purchase caused the
/// split (the operating corporation). A frozen president's choice of presidency is his
/// (1841 §12.4 names no one; 18xx `secession_start` asks him, version_1 4 players seed 4104,
/// id 567: SFTN, frozen, presides IRSFF since the concessions closed, and player 4, whose
/// RSFS bought the 4-train, chooses; before 2026-12-06 SB/SFV was taken without a question).
pub(super) fn split_decider(state: &State, split: &Split) -> Option<Seat> {
    acting_seat(state, &split.president).or_else(|| {
        round(state)
            .and_then(|r| r.current.clone())
            .and_then(|c| controller(state, &c))
    })
}

pub(super) fn exchange_single(
    state: &mut State,
    split: &mut Split,
    i: usize,
    h: &ShareOwner,
    corporation: &str,
    events: &mut Vec<Event>,
) {
    if give_share(state, corporation, h) {
        let unit = state
            .corporation(corporation)
            .map_or(10, |c| c.unit_percent());
        exchanged(state, h, corporation, unit, false, events);
        presidency(state, corporation, events);
    }
    if let Some(u) = split.units.get_mut(i) {
        *u = 0;
    }
}
