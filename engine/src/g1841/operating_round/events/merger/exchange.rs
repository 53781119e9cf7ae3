//! Steps 2–4 of a merger executed (1841 §12.1): the new corporation, the president's
//! certificate, the pairs and the odd shares (cash or a full share), the minors' exchange, the
//! Tuscan merge's unclaimed presidency (§12.3, FAQ-R4), the presidencies that follow the moved
//! holdings (§7.5), and the order in which 18xx.games gives old certificates back to a closed
//! corporation's IPO (interpretation I35).

use super::assets::place_and_move;
use super::map_tokens::transfer_tokens;
use super::presidency::{claim_cost, full_pending, in_odd_sweep};
use super::*;

/// Steps 2–4 of a merger (see the module documentation): assets, the new corporation, the
/// president's certificate and the pairs; then the odd shares wait.
pub(super) fn execute(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    let target = m.target.clone();
    let (a, b) = (m.initiator.clone(), m.partner.clone());
    let Some(cell) = m.cell else { return };
    // Shares of each old corporation held by the other are eliminated.
    for (x, y) in [(&a, &b), (&b, &a)] {
        let owner = ShareOwner::Corporation(y.clone());
        if let Some(c) = corp_mut(state, x) {
            for cert in c.certificates.iter_mut().filter(|c| c.owner == owner) {
                cert.owner = ShareOwner::Ipo;
            }
        }
    }
    let first_back: Vec<(String, bool)> = [&a, &b]
        .into_iter()
        .filter_map(|x| first_back_is_ordinary(state, m, x).map(|o| (x.clone(), o)))
        .collect();
    if m.moved.is_none() {
        place_and_move(state, m, cell);
    }
    follow_moved_holdings(state, &target, events);
    events.push(Event::CorporationFormed {
        corporation: target.clone(),
        from: vec![a.clone(), b.clone()],
        price: new_price(m),
        row: cell.row,
        col: cell.col,
    });
    let price = new_price(m);
    if kind_of(state, &a) == CorporationKind::Minor {
        exchange_minors(state, m, events);
        transfer_tokens(state, m, events);
        remove_corporation(state, &a, events);
        remove_corporation(state, &b, events);
        keep_first_back(state, &first_back);
        m.stage = MergerStage::TwoCityTile;
        return;
    }
    // The president's certificate. Its events (the claim's payment, the certificate) are
    // reported at the president's place in the order of the holders, where 18xx.games makes
    // his exchange (`merger_do_exchange` in `@merger_sh_list` order, FAQ-C16): the export's
    // share ids follow that order ([`crate::g1841::share_ledger::Ledger::exchanged`]).
    let mut president_events: Vec<Event> = Vec::new();
    let mut president_at: Option<usize> = None;
    match m.president.clone() {
        Some(p) => {
            let i = m.holders.iter().position(|h| *h == p);
            president_at = i;
            if m.claimed {
                // Claimed in the odd sweep: for the odd share only, the pair is exchanged
                // as usual ([`asked`]).
                let odd = in_odd_sweep(m);
                let u = i.map_or(0, |i| m.units[i]);
                let cost = claim_cost(price, if odd { 1 } else { u });
                add_cash(state, &p, -cost);
                add_cash(state, &ShareOwner::Corporation(target.clone()), cost);
                president_events.push(Event::ExchangePayment {
                    holder: p.clone(),
                    corporation: target.clone(),
                    amount: cost,
                    to_corporation: true,
                });
                if let Some(i) = i {
                    m.units[i] = if odd { m.units[i].saturating_sub(1) } else { 0 };
                }
            } else if let Some(i) = i {
                m.units[i] = m.units[i].saturating_sub(4);
            }
            give_president(state, &target, &p);
            president_events.push(Event::SharesExchanged {
                holder: p.clone(),
                corporation: target.clone(),
                percent: 20,
                president: true,
            });
        }
        None => {
            // Tuscan merge with nobody claiming the presidency (1841 §12.3, FAQ-R4): the
            // president's certificate stays in the IPO while the pairs and the odd shares
            // are exchanged, the pool's pairs included; a holder who ends with 20% takes it
            // ([`tuscan_president_by_holding`]), else it goes to the pool at the end
            // ([`tuscan_president_to_pool`]).
        }
    }
    if president_at.is_none() {
        events.append(&mut president_events);
    }
    // Pairs.
    for i in 0..m.holders.len() {
        let h = m.holders[i].clone();
        if president_at == Some(i) {
            events.append(&mut president_events);
        }
        let mut got = 0;
        while m.units[i] >= 2 {
            m.units[i] -= 2;
            if give_share(state, &target, &h) {
                got += 10;
            } else if got > 0 && president_open(state, m) {
                president_by_run_out(state, m, &h, events);
            } else {
                add_cash(state, &h, price);
                add_cash(state, &ShareOwner::Pool, -price);
                events.push(Event::ExchangePayment {
                    holder: h.clone(),
                    corporation: target.clone(),
                    amount: price,
                    to_corporation: false,
                });
            }
        }
        if got > 0 {
            events.push(Event::SharesExchanged {
                holder: h,
                corporation: target.clone(),
                percent: got,
                president: false,
            });
            follow_presidency(state, &target, events);
        }
    }
    // The old corporations' map tokens pass to the new one; then they leave the game (their
    // remaining holders' odd units are kept in `m.units`).
    transfer_tokens(state, m, events);
    remove_corporation(state, &a, events);
    remove_corporation(state, &b, events);
    keep_first_back(state, &first_back);
    m.stage = MergerStage::OddShares;
    m.next = 0;
}

/// Whether the first certificate of the old corporation `x` that 18xx.games' exchange of the
/// merger `m` gives back to `x` is an ordinary share (`None`: no holder has one). 18xx keeps
/// a closed historical corporation's IPO in the order the certificates came back (behind its
/// unsold ones, [`Corporation::ipo_first_share_ordinary`], interpretation I35), and the
/// exchange gives them back holder by holder in the order of the holders (`m.holders`,
/// 18xx `merger_share_holder_list`), each holder's certificates of both old corporations
/// largest first (`sort_by(&:percent).reverse`): minors all at once
/// (`merger_minor_exchange`); majors in pass 1 (holders of 20% or more) all of a claimant's
/// (`pres`), else pairs until 10% or nothing is left, then the single shares left in pass 2
/// (`merger_do_exchange`). So a holder before the president's with shares of `x` gives back
/// an ordinary one first (v2 random 7 players seed 7120, 18xx id 702: the Tuscan merge's
/// SSFL, none unsold, comes back SSFL_4, SSFL_8, SSFL_0, …; in Stock Round 5, phase 4, 18xx
/// prices its `par` at one L.68 share and Player 2, with L.110, is offered it).
///
/// [`Corporation::ipo_first_share_ordinary`]: crate::g1841::state::Corporation::ipo_first_share_ordinary
fn first_back_is_ordinary(state: &State, m: &Merger, x: &str) -> Option<bool> {
    let minors = kind_of(state, &m.initiator) == CorporationKind::Minor;
    // (of `x`, percent, president) of each certificate of the old corporations `h` holds.
    let held = |h: &ShareOwner| -> Vec<(bool, u32, bool)> {
        let mut out: Vec<(bool, u32, bool)> = [&m.initiator, &m.partner]
            .into_iter()
            .filter_map(|sym| state.corporation(sym))
            .flat_map(|c| {
                c.certificates
                    .iter()
                    .filter(move |cert| cert.owner == *h)
                    .map(move |cert| (c.sym == x, cert.percent, cert.president))
            })
            .collect();
        out.sort_by_key(|c| c.1);
        out.reverse();
        out
    };
    let claims_in_pairs =
        |h: &ShareOwner| m.claimed && !in_odd_sweep(m) && m.president.as_ref() == Some(h);
    let mut left_single = false;
    for h in &m.holders {
        let certs = held(h);
        let total: u32 = certs.iter().map(|c| c.1 / 10).sum();
        let moved = if minors || claims_in_pairs(h) {
            certs.len()
        } else if total < 2 {
            0
        } else {
            // Pairs (a 20% certificate or two 10% ones) while more than 10% is left.
            let (mut n, mut left) = (0, total);
            while left > 1 && n < certs.len() {
                let step = if certs[n].1 >= 20 { 1 } else { 2 };
                for c in certs.iter().skip(n).take(step) {
                    left = left.saturating_sub(c.1 / 10);
                }
                n += step;
            }
            n.min(certs.len())
        };
        if let Some(c) = certs.iter().take(moved).find(|c| c.0) {
            return Some(!c.2);
        }
        left_single |= certs.iter().skip(moved).any(|c| c.0);
    }
    // Pass 2: the single shares left, ordinary ones.
    left_single.then_some(true)
}

/// After the old corporations of a merger left the game: a closed one whose first certificate
/// back in 18xx.games' IPO is an ordinary share ([`first_back_is_ordinary`]).
fn keep_first_back(state: &mut State, first_back: &[(String, bool)]) {
    for (sym, ordinary) in first_back {
        if let Some(c) = corp_mut(state, sym)
            && c.closed
            && *ordinary
        {
            c.ipo_first_share_ordinary = true;
        }
    }
}

/// Minor merger: each 40% certificate → the new president's certificate (the first in
/// order) or two shares; each 20% share → one share (1841 §12.1). After each holder's
/// exchange the presidency rule applies (§7.5: a holder with strictly more takes it; 18xx
/// `merger_minor_exchange` moves every new share with `allow_president_change: true`): a
/// later holder of a 40% certificate and a 20% share (30% of the new corporation) takes the
/// presidency from the first holder of a 40% one (20%). v2 7 players random seed 7013, 18xx
/// id 734: at the Tuscan merge player 3 exchanges SFMA's 40% for CGTF's president's
/// certificate, player 4 SFLP's 40% and 20% for three shares and becomes CGTF's president,
/// so CTLP (held by CGTF) is his at the holding's merger into SFLi and exchanges after him;
/// before 2026-12-06 player 3 stayed president here.
fn exchange_minors(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    let target = m.target.clone();
    let olds: Vec<String> = state
        .corporations
        .iter()
        .filter(|c| c.sym == m.initiator || c.sym == m.partner)
        .map(|c| c.sym.clone())
        .collect();
    let mut president_given = false;
    for h in m.holders.clone() {
        let mut got = 0;
        let mut pres = false;
        for old in &olds {
            let certs: Vec<bool> = state
                .corporation(old)
                .map(|c| {
                    c.certificates
                        .iter()
                        .filter(|x| x.owner == h)
                        .map(|x| x.president)
                        .collect()
                })
                .unwrap_or_default();
            for is_pres in certs {
                if is_pres && !president_given {
                    give_president(state, &target, &h);
                    president_given = true;
                    pres = true;
                    got += 20;
                } else {
                    for _ in 0..(if is_pres { 2 } else { 1 }) {
                        if give_share(state, &target, &h) {
                            got += 10;
                        }
                    }
                }
            }
        }
        if got > 0 {
            events.push(Event::SharesExchanged {
                holder: h.clone(),
                corporation: target.clone(),
                percent: got,
                president: pres,
            });
            follow_presidency(state, &target, events);
        }
    }
    m.president = state
        .corporation(&target)
        .and_then(|c| c.president().cloned());
    m.units.iter_mut().for_each(|u| *u = 0);
}

/// Whether the merger `m` has left the new president's certificate in the IPO so far: a
/// Tuscan merge nobody claimed it in (1841 §12.3, FAQ-R4), or a merger whose president will
/// be the holder of three units who chose a full share (R4, [`asked`]), until a holder
/// reaches 20%.
///
/// [`asked`]: super::presidency::asked
fn president_open(state: &State, m: &Merger) -> bool {
    (m.tuscan || full_pending(m))
        && m.president.is_none()
        && state.corporation(&m.target).is_some_and(|c| {
            c.certificates
                .iter()
                .any(|x| x.president && x.owner == ShareOwner::Ipo)
        })
}

/// A holder who reaches 20% of SFLi in a Tuscan merge nobody claimed the presidency of (an
/// odd share taken as a full share on top of a share from a pair) is its president (FAQ-R4:
/// the certificate goes to the pool only if no player or company holds 20% or more at the
/// formation): he swaps two of his shares, which go back to the IPO, for the president's
/// certificate (18xx.games: `merger_do_exchange` moves the share with
/// `allow_president_change`, and the swap takes the new president's first two shares to the
/// IPO; Version 2 heuristic 3 players seed 3012, id 349: "Player 3 upgrades to full share …
/// Player 3 becomes the president of SFLi"). Before 2026-12-06 the certificate went to the
/// pool at once, and the holder of 20% stayed without it (version_1 heuristic 6 players seed
/// 6013) or took it from the pool, giving the pool his two shares.
fn tuscan_president_by_holding(
    state: &mut State,
    m: &mut Merger,
    h: &ShareOwner,
    events: &mut Vec<Event>,
) {
    if !president_open(state, m) || !matches!(h, ShareOwner::Player(_) | ShareOwner::Corporation(_))
    {
        return;
    }
    let Some(c) = state.corporation(&m.target) else {
        return;
    };
    if c.percent_of(h) < 2 * c.unit_percent() {
        return;
    }
    crate::g1841::corporation::swap_presidency(state, &m.target, &ShareOwner::Ipo, h);
    m.president = Some(h.clone());
    events.push(match h {
        ShareOwner::Player(seat) => Event::PresidentChanged {
            corporation: m.target.clone(),
            seat: *seat,
        },
        _ => Event::PresidencyMoved {
            corporation: m.target.clone(),
            president: h.clone(),
        },
    });
}

/// A pair of a holder who already got a new share, when the new 10% shares have run out and
/// the president's certificate is still in the IPO (a Tuscan merge nobody claimed, 1841
/// §12.3): "further pairs are exchanged against the president's certificate if the holder
/// already owns a new share" (§12.1) — the holder gives that share back to the IPO and takes
/// the certificate; the pool's makes SFLi frozen (§7.4), and the share it gave back is left
/// for the odd shares. 18xx.games (`merger_do_exchange`): "Market exchanges 20% of old shares
/// for president share of SFLi" (v2 4 players seed 4013 id 631; before 2026-12-06 the pair
/// was lost, and at the end two pool shares went back to the IPO for the certificate).
fn president_by_run_out(
    state: &mut State,
    m: &mut Merger,
    h: &ShareOwner,
    events: &mut Vec<Event>,
) {
    let target = m.target.clone();
    if let Some(c) = corp_mut(state, &target) {
        if let Some(x) = c
            .certificates
            .iter_mut()
            .find(|x| !x.president && x.owner == *h)
        {
            x.owner = ShareOwner::Ipo;
        }
        for x in c.certificates.iter_mut().filter(|x| x.president) {
            x.owner = h.clone();
        }
    }
    // Net 10%: the certificate for a share given back.
    events.push(Event::SharesExchanged {
        holder: h.clone(),
        corporation: target.clone(),
        percent: 10,
        president: true,
    });
    match h {
        ShareOwner::Player(seat) => {
            m.president = Some(h.clone());
            events.push(Event::PresidentChanged {
                corporation: target,
                seat: *seat,
            });
        }
        ShareOwner::Corporation(_) => {
            m.president = Some(h.clone());
            events.push(Event::PresidencyMoved {
                corporation: target,
                president: h.clone(),
            });
        }
        ShareOwner::Pool | ShareOwner::Ipo => events.push(Event::FrozenChanged {
            corporation: target,
            frozen: true,
        }),
    }
}

/// The end of the exchange of a Tuscan merge that left SFLi's president's certificate in the
/// IPO (1841 §12.3, FAQ-R4): up to two of the pool's SFLi shares go back to the IPO, the
/// certificate goes to the pool, and SFLi is frozen (18xx.games `merger_tokens_start`: the
/// pool's first two shares, `take(2)`, then the certificate).
pub(super) fn tuscan_president_to_pool(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    if !m.tuscan || !president_open(state, m) {
        return;
    }
    let target = m.target.clone();
    if let Some(c) = corp_mut(state, &target) {
        for x in c
            .certificates
            .iter_mut()
            .filter(|x| !x.president && x.owner == ShareOwner::Pool)
            .take(2)
        {
            x.owner = ShareOwner::Ipo;
        }
    }
    give_president(state, &target, &ShareOwner::Pool);
    events.push(Event::FrozenChanged {
        corporation: target,
        frozen: true,
    });
}

/// A holder pays half the new price to the new corporation for a full share for his odd old
/// share (1841 §12.1 pass 2).
fn pay_for_full_share(
    state: &mut State,
    h: &ShareOwner,
    target: &str,
    half: i64,
    events: &mut Vec<Event>,
) {
    add_cash(state, h, -half);
    add_cash(state, &ShareOwner::Corporation(target.to_string()), half);
    events.push(Event::ExchangePayment {
        holder: h.clone(),
        corporation: target.to_string(),
        amount: half,
        to_corporation: true,
    });
}

pub(super) fn odd_share(
    state: &mut State,
    m: &mut Merger,
    i: usize,
    h: &ShareOwner,
    choice: OddShareChoice,
    events: &mut Vec<Event>,
) {
    let half = new_price(m).div_euclid(2);
    let target = m.target.clone();
    let holds_new = |state: &State| {
        state
            .corporation(&target)
            .is_some_and(|c| c.certificates.iter().any(|x| !x.president && x.owner == *h))
    };
    match choice {
        OddShareChoice::FullShare
            if !ipo_share_left(state, &target) && president_open(state, m) && holds_new(state) =>
        {
            // No ordinary share left but the president's certificate open: his new share
            // goes back for the certificate (18xx `merger_do_exchange`, `full` with no
            // normal share: "ten_share" to the corporation, the certificate to him).
            pay_for_full_share(state, h, &target, half, events);
            president_by_run_out(state, m, h, events);
        }
        OddShareChoice::FullShare if give_share(state, &target, h) => {
            pay_for_full_share(state, h, &target, half, events);
            events.push(Event::SharesExchanged {
                holder: h.clone(),
                corporation: target.clone(),
                percent: 10,
                president: false,
            });
            follow_presidency(state, &target, events);
            tuscan_president_by_holding(state, m, h, events);
        }
        _ => {
            add_cash(state, h, half);
            add_cash(state, &ShareOwner::Pool, -half);
            events.push(Event::ExchangePayment {
                holder: h.clone(),
                corporation: target,
                amount: half,
                to_corporation: false,
            });
        }
    }
    if let Some(u) = m.units.get_mut(i) {
        *u = 0;
    }
}

/// The presidency of the new corporation after a holder received new shares in the exchange
/// (1841 §7.5: a holder with strictly more than the president takes it, ties keep it): the
/// first holder of 40% (or the one who claimed) receives the president's certificate
/// (§12.1, FAQ-R6), and a later holder who ends with more — 60% of the old shares against
/// 40% — becomes president, as in 18xx.games, whose exchange moves every new share with
/// `allow_president_change: true` (`merger_do_exchange`; lite heuristic 4 players seed
/// 4001, id 502: "Player 2 becomes the president of CTDA", then "Player 3 becomes the
/// president of CTDA" with 30% against 20%).
fn follow_presidency(state: &mut State, target: &str, events: &mut Vec<Event>) {
    crate::g1841::corporation::update_presidency(state, target, None, events);
}

/// The presidencies of the corporations whose certificates the old corporations' treasuries
/// held, once those lie together in the new corporation's treasury (1841 §12.1: the treasury
/// shares go to the new corporation; §7.5: a holder, corporations included, with strictly
/// more than the president takes the presidency): two holdings that were each no more than
/// the president's may add up to more (18xx.games' `move_assets` moves each holding with
/// `allow_president_change`; version_1 7 players seed 7013, id 784: ATFA's 20% and ICSF's
/// 10% of RSFS become AFI's 30% against SFTN's 20%, and "AFI becomes the president of
/// RSFS"). Made when the merger is carried out ([`execute`]), so a failed merger, whose
/// assets go back, changes no presidency.
pub(super) fn follow_moved_holdings(state: &mut State, target: &str, events: &mut Vec<Event>) {
    let holder = ShareOwner::Corporation(target.to_string());
    let held: Vec<String> = state
        .corporations
        .iter()
        .filter(|c| c.sym != target && c.certificates.iter().any(|x| x.owner == holder))
        .map(|c| c.sym.clone())
        .collect();
    for sym in held {
        crate::g1841::corporation::update_presidency(state, &sym, None, events);
    }
}
