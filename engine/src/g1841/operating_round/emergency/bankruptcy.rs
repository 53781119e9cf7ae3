//! Bankruptcy (1841 §14): whether the controlling player may declare it (selling everything
//! cannot raise the price), and the bankruptcy itself: his sales at half price, the
//! presidencies he still holds passed on, then resigning or a L.500 loan.

use super::sales::{dump_successor, sellable};
use super::selling::emergency_sell;
use super::*;

/// Whether the controlling player may declare bankruptcy (1841 §14, 18xx): every raiser's
/// cash plus everything sellable at half price cannot pay the cheapest train.
pub(in crate::g1841::operating_round) fn may_go_bankrupt(state: &State) -> bool {
    let Some(sym) = current(state) else {
        return false;
    };
    let Some((_, _, price)) = cheapest_train(state) else {
        return false;
    };
    may_go_bankrupt_for(state, &sym, price)
}

/// [`may_go_bankrupt`] for the raisers of `sym` and a need of `price` (L.).
pub(in crate::g1841::operating_round) fn may_go_bankrupt_for(
    state: &State,
    sym: &str,
    price: i64,
) -> bool {
    let sym = sym.to_string();
    let mut total = funds(state, &sym);
    for raiser in raisers(state, &sym) {
        // A corporation sells others' certificates first, then its IPO: count both.
        let mut all = sellable(state, &sym, &raiser);
        if let ShareOwner::Corporation(x) = &raiser
            && let Some(c) = state.corporation(x)
            && !all.iter().any(|(t, _)| t == x)
        {
            let ipo = c
                .certificates
                .iter()
                .filter(|k| k.owner == ShareOwner::Ipo && !k.president)
                .count() as u32;
            if ipo > 0 {
                all.push((x.clone(), ipo));
            }
        }
        for (t, units) in all {
            let p = state.corporation(&t).and_then(|c| c.price()).unwrap_or(0);
            total += half_price_proceeds(&state.options, units, p);
        }
    }
    total < price
}

/// The presidencies `owner` (a bankrupt player) still holds after his sales with drops, passed
/// to the holders [`dump_successor`] names when they hold at least the president's
/// certificate's size (1841 §5.3, §14); the others stay with him and go into the pool with the
/// rest of his certificates.
fn pass_presidencies_on(state: &mut State, owner: &ShareOwner, events: &mut Vec<Event>) {
    let held: Vec<String> = state
        .corporations
        .iter()
        .filter(|c| c.price().is_some() && c.president() == Some(owner))
        .filter(|c| presidency_may_change(state, c))
        .map(|c| c.sym.clone())
        .collect();
    for sym in held {
        let Some(unit) = state.corporation(&sym).map(|c| c.unit_percent()) else {
            continue;
        };
        let Some((next, _)) = dump_successor(state, &sym, owner).filter(|(_, p)| *p >= 2 * unit)
        else {
            continue;
        };
        swap_presidency(state, &sym, owner, &next);
        events.push(match &next {
            ShareOwner::Player(seat) => Event::PresidentChanged {
                corporation: sym.clone(),
                seat: *seat,
            },
            other => Event::PresidencyMoved {
                corporation: sym.clone(),
                president: other.clone(),
            },
        });
    }
}

/// Bankruptcy of the controlling player `seat` (1841 §14): he sells, at half price with
/// normal price drops, the largest legal bundle of each corporation; then every remaining
/// certificate at half price without further drops, whatever the presidency (a president's
/// certificate passes to a holder with at least its size, else it ends in the pool: that
/// corporation is frozen); gives all his cash to the
/// needy corporation; returns his concessions to the bank; then resigns (`loan == false`: out
/// of the game, value 0) or takes a L.500 bank loan, subtracted from his final value. The
/// corporation is released from its train obligation for this turn.
pub(in crate::g1841::operating_round) fn declare_bankruptcy(
    state: &mut State,
    seat: Seat,
    loan: bool,
    events: &mut Vec<Event>,
) {
    let Some(sym) = current(state) else { return };
    bankrupt_for(state, seat, loan, &sym, events);
    if let Some(r) = round_mut(state) {
        r.train_obligation_released = true;
    }
}

/// The bankruptcy of the controlling player `seat` of the needy corporation `sym` (steps 1–5
/// of [`declare_bankruptcy`], without releasing a train obligation): his cash goes to `sym`.
pub(in crate::g1841::operating_round) fn bankrupt_for(
    state: &mut State,
    seat: Seat,
    loan: bool,
    sym: &str,
    events: &mut Vec<Event>,
) {
    let sym = sym.to_string();
    // FAQ-Q2 (`price_drops_lowest_first`): the declaration ends the emergency's selling so
    // far; the sales with drops below are one selling of their own, whose drops are made
    // before the sales without drops.
    sale::selling_ends(state, events);
    // 1. The largest legal bundle of each corporation, with drops, the corporations taken in
    // operating order as it stands before the sales (the rules give no order; 18xx.games
    // sells `shares_by_corporation(sorted: true)`, its holdings sorted by `sort_order_key`).
    // The order decides which of two corporations dropped onto one cell arrives there first
    // (1841 §6; v2 heuristic 6 players seed 6012, 18xx id 1124: CTS at L.306 and SB at L.266
    // both dropped to L.242, CTS first, and CTS opened the next round; before 2026-12-06 the
    // engine sold in list order, SB first, and SB opened it).
    let mut legal: Vec<(String, u32)> = sellable(state, &sym, &ShareOwner::Player(seat));
    let order = market::operating_order_of(state);
    legal.sort_by_key(|(t, _)| order.iter().position(|s| s == t).unwrap_or(usize::MAX));
    for (target, units) in legal {
        let unit = state.corporation(&target).map_or(10, |c| c.unit_percent());
        emergency_sell(state, seat, &None, &target, units * unit, events);
    }
    sale::selling_ends(state, events);
    // 2. Everything else at half price, no drops, presidencies included: a president's
    // certificate passes, as in any sale (1841 §5.3), to the holder who then has the most,
    // at least the certificate's size (he gives two units back for it, which are sold with
    // the rest); with nobody such, or for a historical corporation before phase 4 (§7.5),
    // it goes into the pool (18xx: `sell_shares(bundle, allow_president_change: true)`;
    // harness version_1 random 3 players seed 3001, 18xx id 706: player 1, holding 20% of
    // SFTN, becomes its president when its president goes bankrupt in SFTN's turn).
    let owner = ShareOwner::Player(seat);
    pass_presidencies_on(state, &owner, events);
    let mut proceeds_total = 0;
    let mut rest = Vec::new();
    for c in state.corporations.iter_mut() {
        let Some(price) = c.price() else { continue };
        let unit = c.unit_percent();
        let mut units = 0;
        for k in c.certificates.iter_mut().filter(|k| k.owner == owner) {
            units += k.percent / unit;
            k.owner = ShareOwner::Pool;
        }
        if units > 0 {
            let p = half_price_proceeds(&state.options, units, price);
            proceeds_total += p;
            rest.push((c.sym.clone(), units * unit, p));
        }
    }
    state.bank_cash -= proceeds_total;
    if let Some(p) = state.players.get_mut(seat as usize) {
        p.cash += proceeds_total;
    }
    for (corporation, percent, proceeds) in rest {
        events.push(Event::EmergencySold {
            seller: None,
            seat,
            corporation,
            percent,
            proceeds,
        });
    }
    // 3. All his cash to the corporation; 4. concessions back to the bank.
    let cash = state.player(seat).map_or(0, |p| p.cash);
    if let Some(p) = state.players.get_mut(seat as usize) {
        p.cash = 0;
        let held = std::mem::take(&mut p.concessions);
        state.bank_concessions.extend(held);
        state.bank_concessions.sort();
    }
    if let Some(c) = state.corporation_mut(&sym) {
        c.cash += cash;
    }
    // 5. Resign or loan.
    if let Some(p) = state.players.get_mut(seat as usize) {
        if loan {
            let amount = data::ruleset(&state.options).bankruptcy_loan;
            p.cash += amount;
            p.loan += amount;
            state.bank_cash -= amount;
        } else {
            p.bankrupt = true;
        }
    }
    events.push(Event::Bankrupt {
        seat,
        corporation: sym.clone(),
        loan,
    });
}
