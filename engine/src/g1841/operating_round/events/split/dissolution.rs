//! What the split does at once (1841 §12.4, [`begin`]): both successors take IRSFF's place in
//! its market stack (FAQ-C15), map tokens by province (§17 item 17), charter tokens, trains,
//! cash and IRSFF's certificates of other corporations shared out between them (with the
//! presidencies those certificates move, §7.5), IRSFF closed; SB and SFL wait for the next
//! round if IRSFF had operated in this one (FAQ-Q24).

use super::exchange::{exchange_pairs, reorder_holders};
use super::*;

/// Starts the split (1841 §12.4) and runs it as far as it goes without a decision.
pub(in crate::g1841::operating_round::events) fn begin(state: &mut State, events: &mut Vec<Event>) {
    let succ = successors(state);
    let irsff_sym = from(state);
    let Some(irsff) = state.corporation(&irsff_sym).cloned() else {
        return;
    };
    if succ.len() != 2 || !irsff.started() || milano_venezia_connected(state) {
        for s in &succ {
            close_unstarted(state, s, events);
        }
        return;
    }
    let (a, b) = (succ[0].clone(), succ[1].clone());
    let rules = data::ruleset(&state.options);
    let v1 = state.options.version_1;
    // Market: IRSFF's place in its stack (FAQ-C15); Version 1 right of column 10 → column 10.
    let Some(p) = irsff.share_price else { return };
    if v1 && p.col > 10 {
        for s in [&a, &b] {
            start_at(state, s, p.row, 10);
        }
    } else {
        take_place_of(state, &b, &irsff_sym);
        take_place_of(state, &a, &irsff_sym);
    }
    // Tokens.
    let veneto = rules.city_set("VENETO").to_vec();
    let mut map_a = Vec::new();
    let mut map_b = Vec::new();
    for t in &irsff.tokens {
        if veneto.contains(&t.hex) {
            map_a.push(t.clone());
        } else {
            map_b.push(t.clone());
        }
    }
    let charter = irsff.tokens_total.saturating_sub(irsff.tokens.len() as u32);
    let charter_a = charter.div_ceil(2);
    let charter_b = charter / 2;
    let mut total_a = (map_a.len() as u32 + charter_a).max(2);
    let mut total_b = (map_b.len() as u32 + charter_b).max(2);
    if v1 {
        map_a.truncate(2);
        map_b.truncate(2);
        total_a = 2;
        total_b = 2;
    }
    for (s, map, total) in [(&a, &map_a, total_a), (&b, &map_b, total_b)] {
        for t in map {
            events.push(Event::TokenPlaced {
                corporation: s.clone(),
                hex: t.hex.clone(),
                city: t.city,
            });
        }
        if let Some(c) = corp_mut(state, s) {
            c.tokens = map.clone();
            c.tokens_total = total;
        }
    }
    // Trains, best first, alternating.
    let mut trains = state
        .operations
        .trains
        .remove(&irsff_sym)
        .unwrap_or_default();
    // 18xx: sorted ascending, then reversed, so among equal types the last bought comes
    // first (fixture 132002: SB receives 3-1, SFL 3-0).
    trains.sort_by_key(|id| train_type(id).parse::<u32>().unwrap_or(0));
    trains.reverse();
    for (i, id) in trains.into_iter().enumerate() {
        let to = if i % 2 == 0 { &a } else { &b };
        state
            .operations
            .trains
            .entry(to.clone())
            .or_default()
            .push(id);
    }
    // Cash: SFL 10% rounded down, SB the rest.
    let cash_b = irsff.cash.div_euclid(10);
    add_cash(state, &ShareOwner::Corporation(b.clone()), cash_b);
    add_cash(
        state,
        &ShareOwner::Corporation(a.clone()),
        irsff.cash - cash_b,
    );
    if let Some(c) = corp_mut(state, &irsff_sym) {
        c.cash = 0;
    }
    // Certificates of other corporations, by descending value, alternating. Of equal
    // values, the later corporation in the corporation list goes first: 18xx.games
    // (`secession_move_treasury_shares`) sorts IRSFF's certificates by ascending price and
    // reverses the list (lite 6p seed 6002, id 405: SFTC and SFTN at L.9, SFTC's share to
    // SB). 18xx.games holds them in the key order of a Ruby hash, which any look-up extends
    // (not always the list's order: lite 6p seed 8002, id 665); the oracle is patched to the
    // list's order (divergence `split-treasury-ties-in-hash-order`; the rule, §12.4, is
    // silent on ties). The certificates of one corporation keep their order
    // (interchangeable; the export's share ledger follows 18xx's ids).
    let owner = ShareOwner::Corporation(irsff_sym.clone());
    let mut held: Vec<(i64, usize, String, usize)> = Vec::new();
    for (k, c) in state.corporations.iter().enumerate() {
        for (i, x) in c.certificates.iter().enumerate() {
            if x.owner == owner {
                let value = c
                    .price()
                    .unwrap_or(0)
                    .saturating_mul(i64::from(x.percent / c.unit_percent()));
                held.push((value, k, c.sym.clone(), i));
            }
        }
    }
    held.sort_by_key(|h| (std::cmp::Reverse(h.0), std::cmp::Reverse(h.1)));
    // 18xx's owner of a corporation whose president's certificate moved while IRSFF stayed
    // president ([`treasury_presidency`]).
    let mut kept: Vec<(String, ShareOwner)> = Vec::new();
    for (k, (_, _, sym, i)) in held.into_iter().enumerate() {
        let to = ShareOwner::Corporation(if k % 2 == 0 { a.clone() } else { b.clone() });
        let mut moved_president = false;
        if let Some(c) = corp_mut(state, &sym)
            && let Some(x) = c.certificates.get_mut(i)
        {
            x.owner = to.clone();
            moved_president = x.president;
        }
        treasury_presidency(state, &sym, &owner, moved_president, &mut kept, events);
    }
    // IRSFF's holders and their units, in order from its president; with IRSFF's
    // president's certificate in the pool, from the controller of the corporation whose
    // train purchase caused the split (18xx `@secession_decider`: `old.player ||
    // current_entity.player`).
    let president = irsff.president().cloned().unwrap_or(ShareOwner::Pool);
    let first = acting_seat(state, &president)
        .or_else(|| {
            round(state)
                .and_then(|r| r.current.clone())
                .and_then(|c| controller(state, &c))
        })
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0);
    let holders = holder_order(state, first, true, |h| irsff.percent_of(h) > 0);
    let units: Vec<u32> = holders
        .iter()
        .map(|h| irsff.percent_of(h) / irsff.unit_percent().max(1))
        .collect();
    // Whether the successors wait for the next round (FAQ-Q24).
    let operated = round(state)
        .is_some_and(|r| r.done.contains(&irsff_sym) || r.current.as_deref() == Some(&irsff_sym));
    events.push(Event::CorporationFormed {
        corporation: a.clone(),
        from: vec![irsff_sym.clone()],
        price: price_of(state, &a),
        row: state
            .corporation(&a)
            .and_then(|c| c.share_price)
            .map_or(0, |p| p.row),
        col: state
            .corporation(&a)
            .and_then(|c| c.share_price)
            .map_or(0, |p| p.col),
    });
    events.push(Event::CorporationFormed {
        corporation: b.clone(),
        from: vec![irsff_sym.clone()],
        price: price_of(state, &b),
        row: state
            .corporation(&b)
            .and_then(|c| c.share_price)
            .map_or(0, |p| p.row),
        col: state
            .corporation(&b)
            .and_then(|c| c.share_price)
            .map_or(0, |p| p.col),
    });
    remove_corporation(state, &irsff_sym, events);
    if let Some(r) = round_mut(state) {
        if operated {
            r.done.push(a.clone());
            r.done.push(b.clone());
        } else {
            // FAQ-Q24: they operate in IRSFF's slot (`split_slot_turn`).
            r.split_slot = irsff.share_price;
        }
    }
    let mut split = Split {
        stage: SplitStage::Presidency,
        president: president.clone(),
        holders,
        units,
        next: 0,
        corporation: String::new(),
        first_rounds_done: false,
        purchases_closed: Vec::new(),
        bought_this_round: false,
        irsff_price: irsff.price().unwrap_or(0),
    };
    let idx = split.holders.iter().position(|h| *h == president);
    let pres_units = idx.map_or(0, |i| split.units[i]);
    if president == ShareOwner::Pool {
        // §17 item 9: both presidencies go to the pool.
        give_president(state, &a, &ShareOwner::Pool);
        give_president(state, &b, &ShareOwner::Pool);
        if let Some(i) = idx {
            split.units[i] = split.units[i].saturating_sub(2);
        }
        reorder_holders(state, &mut split);
        exchange_pairs(state, &mut split, events);
    } else if pres_units >= 4 {
        for s in [&a, &b] {
            give_president(state, s, &president);
            exchanged(state, &president, s, 20, true, events);
        }
        if let Some(i) = idx {
            split.units[i] -= 4;
        }
        reorder_holders(state, &mut split);
        exchange_pairs(state, &mut split, events);
    }
    // Otherwise the president (a frozen one's: the split's decider, [`decision`]) chooses.
    store(state, split);
}

/// The presidency of `sym` after one of IRSFF's certificates of it went to the successor
/// `to` (1841 §7.5 with §12.4): IRSFF gives its treasury certificates away, so a holder with
/// more than the others takes the presidency, and of tied holders the one nearest in order
/// after the president (after a corporation president: the players from the first in player
/// order, then the corporations in operating order; 1841 §5.3 as for a sale) — not the
/// successor merely for receiving IRSFF's president's certificate. A tied president keeps
/// it; nobody with the president's 20% (minor: 40%) leaves it. 18xx.games checks after each
/// certificate (`secession_move_treasury_shares`, `transfer_shares` with
/// `allow_president_change` and `player_distance_for_president`); lite 6p seed 6012 (id
/// 439): IRSFF's 20% of ILTF goes to SFL, P1 with 20% too becomes ILTF's president and SFL
/// gets two shares. Where IRSFF, tied, stays president with its certificate already moved
/// (18xx's owner and certificate apart), `kept` notes it for the next certificate.
fn treasury_presidency(
    state: &mut State,
    sym: &str,
    irsff: &ShareOwner,
    moved_president: bool,
    kept: &mut Vec<(String, ShareOwner)>,
    events: &mut Vec<Event>,
) {
    let Some(corp) = state.corporation(sym) else {
        return;
    };
    let Some(holder) = corp.president().cloned() else {
        return;
    };
    let at = kept.iter().position(|(s, _)| s == sym);
    let previous = match at {
        Some(k) => kept[k].1.clone(),
        None if moved_president => irsff.clone(),
        None => holder.clone(),
    };
    if previous != *irsff {
        // Another holder's presidency. A successor never holds more of it than IRSFF did,
        // but IRSFF's certificates reach it one by one and the presidency may have left
        // IRSFF at an earlier one: the presidency rule (§7.5: strictly more takes it). Lite
        // 5 players seed 5102 (18xx id 575): IRSFF, president of SFTN since the concessions
        // closed (30% against player 2's 20%), gives its president's certificate to SB —
        // player 2 presides, tied — then its 10% — SB, with 30%, presides ("SB becomes the
        // president of SFTN"). Before 2026-12-06 player 2 stayed president.
        presidency(state, sym, events);
        return;
    }
    let pres_percent = 2 * corp.unit_percent();
    // After a corporation president the players from the first in player order, then the
    // corporations ([`ranked_holders`]).
    let first = state.player_order.first().copied().unwrap_or(0);
    let ranked: Vec<(usize, ShareOwner, u32)> = ranked_holders(state, corp, first)
        .into_iter()
        .map(|(r, h, p)| (r, h.clone(), p))
        .collect();
    let max = ranked.iter().map(|(_, _, p)| *p).max().unwrap_or(0);
    if ranked.iter().any(|(_, h, p)| *h == previous && *p == max) {
        // Tied, IRSFF stays president for now.
        if at.is_none() && holder != previous {
            kept.push((sym.to_string(), previous));
        }
        return;
    }
    let Some(new) = ranked
        .iter()
        .filter(|(_, _, p)| *p == max && *p >= pres_percent)
        .min_by_key(|(r, _, _)| *r)
        .map(|(_, h, _)| h.clone())
    else {
        return;
    };
    if let Some(k) = at {
        kept.remove(k);
    }
    if new != holder {
        // The new president gives the certificate's holder ordinary certificates for it
        // (18xx: the successor that received it; where IRSFF had stayed president, 18xx
        // leaves the certificate where it lies, which this engine's certificates cannot
        // show: the swap is made there too).
        swap_presidency(state, sym, &holder, &new);
    }
    if let ShareOwner::Player(seat) = new {
        events.push(Event::PresidentChanged {
            corporation: sym.to_string(),
            seat,
        });
    } else {
        events.push(Event::PresidencyMoved {
            corporation: sym.to_string(),
            president: new,
        });
    }
}
