//! The Ferdinandea split (1841 §12.4, 18xx `ferd_secession`): at the first 4-train IRSFF
//! dissolves into SB and SFL (Version 1: SFV and SFL) unless IRSFF was never started or some
//! corporation's track connects IRSFF's Milano and Venezia cities.
//!
//! At once ([`begin`]): both successors take IRSFF's place in its market stack (FAQ-C15;
//! Version 1 right of column 10: column 10 of that row); map tokens in Veneto hexes (passes
//! D14, C15 included, §17 item 17) go to SB, the others to SFL; charter tokens alternate SB,
//! SFL, …; each gets at least 2 tokens (Version 1: exactly 2); trains from best to worst
//! alternate SB, SFL; SFL gets 10% of the cash rounded down, SB the rest; certificates of
//! other corporations alternate SB, SFL by descending value. IRSFF closes; if it had operated
//! in this round (or bought the 4-train) SB and SFL wait for the next one (FAQ-Q24).
//!
//! Then, in order ([`SplitStage`]): the presidencies (IRSFF's president takes both with 40% or
//! more, else chooses one — a frozen president through the split's decider, as 18xx — the
//! other goes to the next holder with 20%, or the pool: frozen; with IRSFF's president's
//! certificate in the pool both go to the pool, §17 item 9); every
//! pair of IRSFF shares → one SB and one SFL share; each odd share → SB or SFL at the
//! holder's choice (a corporation's: its controller's; the pool's: IRSFF's president; a
//! corporation nobody controls: SB while available); rounds
//! of optional purchases of one IPO share each, SB then SFL, repeated while the successor's
//! president asks for it and someone can buy; Version 2: SB then SFL may buy tokens at L.50
//! up to 5. An IRSFF unit that cannot be exchanged because the successors' shares are sold out
//! (possible only in Version 1) is lost (18xx), or, with `ferdinandea_unexchanged_payout`
//! (FAQ-R3), paid at IRSFF's market price at the split by the bank ([`pay_unexchanged`]).

use super::*;
use crate::g1841::corporation::{
    holder_cash, holder_order, may_hold_more, ranked_holders, swap_presidency,
};
use crate::g1841::state::{Split, SplitStage};

fn successors(state: &State) -> Vec<String> {
    data::ruleset(&state.options)
        .ferdinandea_split
        .successors
        .clone()
}

fn from(state: &State) -> String {
    data::ruleset(&state.options).ferdinandea_split.from.clone()
}

fn store(state: &mut State, s: Split) {
    set_event(state, Some(CorporateEvent::Split(s)));
}

/// Whether one corporation's track connects IRSFF's Milano and Venezia cities (1841 §12.4;
/// 18xx: any corporation's graph from any of its tokens, pass tokens included, borders
/// ignored; §17 item 11). Each token is traced on its own, so IRSFF's two homes do not count
/// as connected merely by both being IRSFF's.
pub fn milano_venezia_connected(state: &State) -> bool {
    let irsff = from(state);
    let Some(c) = state.corporation(&irsff) else {
        return false;
    };
    let target = |hex: &str| -> Option<(String, usize)> {
        let v = track::hex_view(state, hex)?;
        let city = c.tokens.iter().find(|t| t.hex == hex).map_or(0, |t| t.city);
        Some((hex.to_string(), track::city_node(v.nodes, city)?))
    };
    let (Some(milano), Some(venezia)) = (target("F8"), target("F16")) else {
        return false;
    };
    for corp in state.corporations.iter().filter(|c| c.started()) {
        for t in &corp.tokens {
            let Some(v) = track::hex_view(state, &t.hex) else {
                continue;
            };
            let Some(node) = track::city_node(v.nodes, t.city) else {
                continue;
            };
            let reach = track::reach(state, &corp.sym, &[(t.hex.clone(), node)], None);
            if reach.contains(&milano.0, milano.1) && reach.contains(&venezia.0, venezia.1) {
                return true;
            }
        }
    }
    false
}

/// Starts the split (1841 §12.4) and runs it as far as it goes without a decision.
pub(super) fn begin(state: &mut State, events: &mut Vec<Event>) {
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

fn exchanged(
    state: &State,
    holder: &ShareOwner,
    corporation: &str,
    percent: u32,
    president: bool,
    events: &mut Vec<Event>,
) {
    let _ = state;
    events.push(Event::SharesExchanged {
        holder: holder.clone(),
        corporation: corporation.to_string(),
        percent,
        president,
    });
}

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
fn assign_presidencies(
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
fn pay_unexchanged(
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
fn exchange_pairs(state: &mut State, split: &mut Split, events: &mut Vec<Event>) {
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
fn reorder_holders(state: &State, split: &mut Split) {
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
fn single_decider(state: &State, split: &Split, h: &ShareOwner) -> Option<Seat> {
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
fn split_decider(state: &State, split: &Split) -> Option<Seat> {
    acting_seat(state, &split.president).or_else(|| {
        round(state)
            .and_then(|r| r.current.clone())
            .and_then(|c| controller(state, &c))
    })
}

fn available(state: &State) -> Vec<String> {
    successors(state)
        .into_iter()
        .filter(|s| ipo_share_left(state, s))
        .collect()
}

/// Holders of successor `sym` that may buy one of its IPO shares now, in order from its
/// president (1841 §12.4: players and the corporations they control). A successor without a
/// president (its certificate in the pool) starts from the split's decider
/// ([`split_decider`]; the rulebook names no other start; 18xx `secession_offer`:
/// `corp.player || @secession_decider`): with IRSFF's president's certificate in the pool, the
/// controller of the corporation that bought the first 4-train, not the first player (v2, 4
/// players, random, seed 4013, id 628).
fn buyers(state: &State, sym: &str, split: &Split) -> Vec<ShareOwner> {
    let Some(c) = state.corporation(sym) else {
        return Vec::new();
    };
    let first = c
        .president()
        .and_then(|p| acting_seat(state, p))
        .or_else(|| split_decider(state, split))
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0);
    holder_order(state, first, false, |h| {
        c.percent_of(h) > 0 && acting_seat(state, h).is_some()
    })
}

fn can_buy(state: &State, sym: &str, h: &ShareOwner) -> bool {
    let Some(c) = state.corporation(sym) else {
        return false;
    };
    let Some(price) = c.price() else { return false };
    ipo_share_left(state, sym)
        && holder_cash(state, h) >= price
        && may_hold_more(state, h, sym, c.unit_percent())
}

/// Whether a holder of successor `sym` (players and the corporations they control, from its
/// president) can buy one of its IPO shares now (1841 §12.4): what decides whether another
/// round of purchases is offered (also read by the 18xx.games writer).
pub fn anyone_can_buy(state: &State, sym: &str, split: &Split) -> bool {
    buyers(state, sym, split)
        .iter()
        .any(|h| can_buy(state, sym, h))
}

/// The token purchase of successor `sym` (Version 2: L.50 each up to 5): the counts it may
/// choose in all, when it may buy at least one.
fn token_counts(state: &State, sym: &str) -> Vec<u32> {
    let rules = data::ruleset(&state.options);
    let (Some(price), Some(c)) = (
        rules.token_prices.ferdinandea_split_extra_token,
        state.corporation(sym),
    ) else {
        return Vec::new();
    };
    if price <= 0 || controller(state, sym).is_none() {
        return Vec::new();
    }
    let max = rules.token_counts.major_max;
    let have = c.tokens_total;
    let affordable = u32::try_from(c.cash / price).unwrap_or(0);
    let top = max.min(have.saturating_add(affordable));
    if top <= have {
        return Vec::new();
    }
    (have..=top).collect()
}

/// The decision the split waits for (see [`SplitStage`]).
pub(super) fn decision(state: &State, split: &Split) -> Option<Decision> {
    let succ = successors(state);
    match split.stage {
        // A frozen president's choice is the split's decider's (18xx `secession_start`: the
        // question goes to `@secession_decider` when IRSFF has no player at the top).
        SplitStage::Presidency => Some(Decision {
            seat: split_decider(state, split)?,
            actions: succ
                .iter()
                .map(|s| Action::ChooseSplitPresidency {
                    corporation: s.clone(),
                })
                .collect(),
        }),
        SplitStage::SingleShares => {
            let h = split.holders.get(split.next as usize)?;
            Some(Decision {
                seat: single_decider(state, split, h)?,
                actions: available(state)
                    .into_iter()
                    .map(|s| Action::ExchangeSplitShare { corporation: s })
                    .collect(),
            })
        }
        SplitStage::Purchases => {
            let h = split.holders.get(split.next as usize)?;
            let unit = state.corporation(&split.corporation)?.unit_percent();
            Some(Decision {
                seat: acting_seat(state, h)?,
                actions: vec![
                    Action::BuyShares {
                        corporation: split.corporation.clone(),
                        from_pool: false,
                        percent: unit,
                    },
                    Action::Pass,
                ],
            })
        }
        SplitStage::RepeatRound => Some(Decision {
            seat: controller(state, &split.corporation)?,
            actions: vec![
                Action::RepeatPurchaseRound { repeat: true },
                Action::RepeatPurchaseRound { repeat: false },
            ],
        }),
        SplitStage::Tokens => Some(Decision {
            seat: controller(state, &split.corporation)?,
            actions: token_counts(state, &split.corporation)
                .into_iter()
                .map(|count| Action::BuyTokens { count })
                .collect(),
        }),
    }
}

/// Applies a listed decision.
pub(super) fn apply(state: &mut State, mut split: Split, action: &Action, events: &mut Vec<Event>) {
    match (split.stage, action) {
        (SplitStage::Presidency, Action::ChooseSplitPresidency { corporation }) => {
            assign_presidencies(state, &mut split, corporation, events);
            exchange_pairs(state, &mut split, events);
        }
        (SplitStage::SingleShares, Action::ExchangeSplitShare { corporation }) => {
            let i = split.next as usize;
            if let Some(h) = split.holders.get(i).cloned() {
                exchange_single(state, &mut split, i, &h, corporation, events);
            }
            split.next += 1;
        }
        (SplitStage::Purchases, Action::BuyShares { .. }) => {
            let i = split.next as usize;
            if let Some(h) = split.holders.get(i).cloned() {
                buy(state, &split.corporation, &h, events);
                split.bought_this_round = true;
            }
            split.next += 1;
        }
        (SplitStage::Purchases, Action::Pass) => split.next += 1,
        (SplitStage::RepeatRound, Action::RepeatPurchaseRound { repeat }) => {
            if *repeat {
                let sym = split.corporation.clone();
                start_round(state, &mut split, &sym);
            } else {
                split.purchases_closed.push(split.corporation.clone());
                let after = split.corporation.clone();
                ask_repeat(state, &mut split, Some(&after));
            }
        }
        (SplitStage::Tokens, Action::BuyTokens { count }) => {
            buy_tokens(state, &split.corporation, *count, events);
            next_tokens(state, &mut split);
        }
        _ => {}
    }
    store(state, split);
}

fn exchange_single(
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

fn buy(state: &mut State, sym: &str, h: &ShareOwner, events: &mut Vec<Event>) {
    let Some(c) = state.corporation(sym) else {
        return;
    };
    let Some(price) = c.price() else { return };
    let unit = c.unit_percent();
    if !give_share(state, sym, h) {
        return;
    }
    add_cash(state, h, -price);
    add_cash(state, &ShareOwner::Corporation(sym.to_string()), price);
    match h {
        ShareOwner::Player(seat) => events.push(Event::SharesBought {
            seat: *seat,
            corporation: sym.to_string(),
            percent: unit,
            from_pool: false,
            price,
        }),
        ShareOwner::Corporation(buyer) => events.push(Event::CorporationBoughtShares {
            buyer: buyer.clone(),
            corporation: sym.to_string(),
            percent: unit,
            from_pool: false,
            price,
        }),
        _ => {}
    }
    presidency(state, sym, events);
}

fn buy_tokens(state: &mut State, sym: &str, count: u32, events: &mut Vec<Event>) {
    let price = data::ruleset(&state.options)
        .token_prices
        .ferdinandea_split_extra_token
        .unwrap_or(0);
    let Some(c) = corp_mut(state, sym) else {
        return;
    };
    let extra = count.saturating_sub(c.tokens_total);
    let cost = price.saturating_mul(i64::from(extra));
    c.tokens_total = count.max(c.tokens_total);
    c.cash -= cost;
    state.bank_cash += cost;
    events.push(Event::TokensBought {
        corporation: sym.to_string(),
        count,
        price: cost,
    });
}

fn start_round(state: &State, split: &mut Split, sym: &str) {
    split.stage = SplitStage::Purchases;
    split.corporation = sym.to_string();
    split.holders = buyers(state, sym, split);
    split.units.clear();
    split.next = 0;
    split.bought_this_round = false;
}

/// Asks the next successor's president (after `after`) whether another round follows; to
/// the tokens when no successor has buyers left.
fn ask_repeat(state: &State, split: &mut Split, after: Option<&str>) {
    let succ = successors(state);
    let start = after
        .and_then(|a| succ.iter().position(|s| s == a))
        .map_or(0, |i| i + 1);
    for k in 0..succ.len() {
        let s = &succ[(start + k) % succ.len()];
        if split.purchases_closed.contains(s) || controller(state, s).is_none() {
            continue;
        }
        if anyone_can_buy(state, s, split) {
            split.stage = SplitStage::RepeatRound;
            split.corporation = s.clone();
            split.holders.clear();
            split.next = 0;
            return;
        }
    }
    split.stage = SplitStage::Tokens;
    split.corporation = succ.first().cloned().unwrap_or_default();
    split.holders.clear();
    split.next = 0;
}

fn next_tokens(state: &State, split: &mut Split) {
    let succ = successors(state);
    let i = succ.iter().position(|s| *s == split.corporation);
    match i.and_then(|i| succ.get(i + 1)) {
        Some(s) => split.corporation = s.clone(),
        None => split.corporation = String::new(),
    }
}

/// Runs the split until a decision is needed; true when it is over.
pub(super) fn advance(state: &mut State, mut split: Split, events: &mut Vec<Event>) -> bool {
    let succ = successors(state);
    for _ in 0..256 {
        match split.stage {
            SplitStage::Presidency => {
                if decision(state, &split).is_some() {
                    store(state, split);
                    return false;
                }
                let first = succ.first().cloned().unwrap_or_default();
                assign_presidencies(state, &mut split, &first, events);
                exchange_pairs(state, &mut split, events);
            }
            SplitStage::SingleShares => {
                let i = split.next as usize;
                let Some(h) = split.holders.get(i).cloned() else {
                    let first = succ.first().cloned().unwrap_or_default();
                    start_round(state, &mut split, &first);
                    continue;
                };
                if split.units.get(i).copied().unwrap_or(0) == 0 {
                    split.next += 1;
                    continue;
                }
                let options = available(state);
                match (options.len(), single_decider(state, &split, &h)) {
                    (0, _) => {
                        // Both successors sold out: the share is lost (18xx), or paid at
                        // market value (FAQ-R3, `ferdinandea_unexchanged_payout`).
                        let units = split.units.get(i).copied().unwrap_or(0);
                        pay_unexchanged(state, &split, &h, units, events);
                        if let Some(u) = split.units.get_mut(i) {
                            *u = 0;
                        }
                        split.next += 1;
                    }
                    (1, _) | (_, None) => {
                        let to = options[0].clone();
                        exchange_single(state, &mut split, i, &h, &to, events);
                        split.next += 1;
                    }
                    _ => {
                        store(state, split);
                        return false;
                    }
                }
            }
            SplitStage::Purchases => {
                let i = split.next as usize;
                match split.holders.get(i).cloned() {
                    Some(h) => {
                        if can_buy(state, &split.corporation, &h) {
                            store(state, split);
                            return false;
                        }
                        split.next += 1;
                    }
                    None => {
                        let sym = split.corporation.clone();
                        if !split.first_rounds_done {
                            match succ.iter().position(|s| *s == sym) {
                                Some(0) if succ.len() > 1 => {
                                    let second = succ[1].clone();
                                    start_round(state, &mut split, &second);
                                }
                                _ => {
                                    split.first_rounds_done = true;
                                    ask_repeat(state, &mut split, None);
                                }
                            }
                        } else {
                            if !split.bought_this_round {
                                split.purchases_closed.push(sym.clone());
                            }
                            ask_repeat(state, &mut split, Some(&sym));
                        }
                    }
                }
            }
            SplitStage::RepeatRound => {
                store(state, split);
                return false;
            }
            SplitStage::Tokens => {
                if split.corporation.is_empty() {
                    set_event(state, None);
                    return true;
                }
                if token_counts(state, &split.corporation).is_empty() {
                    next_tokens(state, &mut split);
                    continue;
                }
                store(state, split);
                return false;
            }
        }
    }
    store(state, split);
    false
}
