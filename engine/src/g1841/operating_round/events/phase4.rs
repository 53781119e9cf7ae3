//! The first 4-train, step 2 (1841 §11): every concession is removed (Bayard too), the
//! delayed presidency check runs for every started historical corporation (FAQ-C14: before
//! the split and the Tuscan merge), and every historical corporation never started closes for
//! good (its home reservations disappear).

use super::*;

/// 1841 §11 step 2 (18xx `close_companies`). The phase is already 4, so the concession lock
/// of §7.5 no longer holds and [`presidency`] may move presidencies: a holder (player or
/// corporation) with strictly more than the president takes over, ties to the nearest after
/// him. Mutual control created here is allowed (FAQ-R1: the first 4-train may be bought
/// anyway); such corporations are frozen (§7.4).
pub fn close_concessions(state: &mut State, events: &mut Vec<Event>) {
    for i in 0..state.players.len() {
        let held = std::mem::take(&mut state.players[i].concessions);
        for concession in held {
            events.push(Event::ConcessionClosed {
                seat: Some(i as Seat),
                concession,
            });
        }
    }
    for concession in std::mem::take(&mut state.bank_concessions) {
        events.push(Event::ConcessionClosed {
            seat: None,
            concession,
        });
    }
    let historical: Vec<String> = state
        .corporations
        .iter()
        .filter(|c| c.historical)
        .map(|c| c.sym.clone())
        .collect();
    for sym in &historical {
        if state.corporation(sym).is_some_and(|c| c.started()) {
            presidency(state, sym, events);
        }
    }
    // Historical corporations startable with a concession and never started close for good;
    // those formed by events (SB, SFL, SFLi) and the internal holding wait for their event.
    let rules = data::ruleset(&state.options);
    let closing: Vec<String> = rules
        .historical_corporations
        .iter()
        .filter(|h| h.concession.is_some() && h.formed_by_event.is_none())
        .map(|h| h.sym.clone())
        .collect();
    for sym in closing {
        close_unstarted(state, &sym, events);
    }
}
