//! Corporate events (1841 §11, §12): the events of the first 4-train (concessions close with
//! the delayed presidency checks, unstarted historical corporations close, the Ferdinandea
//! split, the Tuscan merge), voluntary mergers and transformations.
//!
//! An event in progress lives in `OperatingRound::event` ([`CorporateEvent`]); the events of
//! the first 4-train still to run after it in `OperatingRound::queued_events`. Each event
//! runs automatically until a player must decide; [`legal`] lists that decision for the
//! deciding seat only ([`to_act`]), [`apply`] takes it and runs on. When no event is left the
//! operating round resumes: the corporation whose train purchase triggered the events goes on
//! with its turn, unless it no longer exists (IRSFF split, a Tuscan participant); a merger's
//! or transformation's initiator ends its turn.
//!
//! Modules: [`phase4`] (concessions close, §11 step 2), [`split`] (§12.4), [`merger`]
//! (§12.1, the Tuscan merge §12.3), [`transform`] (§12.2).

use super::*;
use crate::g1841::action::OddShareChoice;
use crate::g1841::corporation::{acting_seat, add_cash, update_presidency};
use crate::g1841::state::{CorporateEvent, Corporation, QueuedEvent};

pub mod merger;
pub mod phase4;
pub mod split;
pub mod transform;

/// The decision an event waits for: the seat that decides and its legal actions.
pub(super) struct Decision {
    /// The deciding seat.
    pub seat: Seat,
    /// Everything it may do (listed completely).
    pub actions: Vec<Action>,
}

fn event(state: &State) -> Option<&CorporateEvent> {
    round(state)?.event.as_deref()
}

/// Whether a corporate event is in progress.
pub fn in_progress(state: &State) -> bool {
    event(state).is_some()
}

/// The decision the event in progress waits for.
pub(super) fn decision(state: &State) -> Option<Decision> {
    match event(state)? {
        CorporateEvent::Split(s) => split::decision(state, s),
        CorporateEvent::Merger(m) => merger::decision(state, m),
        CorporateEvent::Transformation(t) => transform::decision(state, t),
    }
}

/// The seat that must decide in the event in progress.
pub(super) fn to_act(state: &State) -> Vec<Seat> {
    decision(state).map(|d| vec![d.seat]).unwrap_or_default()
}

/// What `seat` may do in the event in progress.
pub(super) fn legal(state: &State, seat: Seat) -> LegalActions {
    let mut out = LegalActions::default();
    if let Some(d) = decision(state)
        && d.seat == seat
    {
        out.actions = d.actions;
    }
    out
}

/// The rule an event's decisions follow, for rejections.
fn rule(state: &State) -> &'static str {
    match event(state) {
        Some(CorporateEvent::Split(_)) => "1841 §12.4",
        Some(CorporateEvent::Merger(m)) if m.tuscan || m.holding.is_some() => "1841 §12.3",
        Some(CorporateEvent::Merger(_)) => "1841 §12.1",
        Some(CorporateEvent::Transformation(_)) => "1841 §12.2",
        None => "1841 §12",
    }
}

/// Applies a decision of the event in progress, then runs on.
///
/// Rejections: `NOT_YOUR_TURN` (another seat decides), `WRONG_STEP` (an action the event does
/// not wait for), `ILLEGAL_MOVE` (a choice outside the listed ones).
pub(super) fn apply(
    state: &mut State,
    seat: Seat,
    action: &Action,
) -> Result<Vec<Event>, Rejection> {
    let rule = rule(state);
    let Some(d) = decision(state) else {
        return Err(reject(
            RejectionCode::WrongStep,
            rule,
            "No decision is pending in the corporate event.",
        ));
    };
    if d.seat != seat {
        return Err(reject(
            RejectionCode::NotYourTurn,
            rule,
            format!(
                "Seat {} decides now in the corporate event, not seat {seat}.",
                d.seat
            ),
        ));
    }
    if !d.actions.contains(action) {
        let same_kind = d
            .actions
            .iter()
            .any(|a| std::mem::discriminant(a) == std::mem::discriminant(action));
        return Err(reject(
            if same_kind {
                RejectionCode::IllegalMove
            } else {
                RejectionCode::WrongStep
            },
            rule,
            format!(
                "`{}` is not a legal choice now; the event waits for: {}.",
                action.kind_name(),
                kinds(&d.actions)
            ),
        ));
    }
    let mut events = Vec::new();
    let ev = event(state).cloned();
    match ev {
        Some(CorporateEvent::Split(s)) => split::apply(state, s, action, &mut events),
        Some(CorporateEvent::Merger(m)) => merger::apply(state, m, action, &mut events),
        Some(CorporateEvent::Transformation(t)) => {
            transform::apply(state, seat, t, action, &mut events)
        }
        None => {}
    }
    run(state, &mut events);
    Ok(events)
}

fn kinds(actions: &[Action]) -> String {
    let mut names: Vec<&str> = actions.iter().map(Action::kind_name).collect();
    names.dedup();
    names.join(", ")
}

fn set_event(state: &mut State, ev: Option<CorporateEvent>) {
    if let Some(r) = round_mut(state) {
        r.event = ev.map(Box::new);
    }
}

/// Runs the event in progress and the queued events until a decision is needed; when all
/// are over, resumes the operating round.
///
/// When the event stops for a decision, every corporation then over its train limit (the
/// lower limit of the first 4-train's phase, a split successor, a merger's new corporation)
/// must discard first (1841 §9.6: excess trains are discarded after a phase change; the
/// rules give no order against the events' decisions, so this follows 18xx.games, whose
/// `DiscardTrain` step blocks before the `ChooseOption`, `RemoveTokens` and `BuyNewTokens`
/// steps that carry them: at the Tuscan merge SFLi discards before its token removal).
pub(super) fn run(state: &mut State, events: &mut Vec<Event>) {
    for _ in 0..64 {
        let waits = match event(state).cloned() {
            Some(CorporateEvent::Split(s)) => !split::advance(state, s, events),
            Some(CorporateEvent::Merger(m)) => !merger::advance(state, m, events),
            Some(CorporateEvent::Transformation(t)) => !transform::advance(state, t, events),
            None => false,
        };
        if waits {
            mark_crowded(state, events);
            return;
        }
        match event(state).cloned() {
            Some(_) => {}
            None => {
                let next = round_mut(state)
                    .and_then(|r| (!r.queued_events.is_empty()).then(|| r.queued_events.remove(0)));
                match next {
                    Some(QueuedEvent::FerdinandeaSplit) => split::begin(state, events),
                    Some(QueuedEvent::TuscanMerge) => merger::begin_tuscan(state, events),
                    None => {
                        resume(state, events);
                        return;
                    }
                }
            }
        }
    }
}

/// After the events: the operating corporation goes on with its turn if it still exists
/// (1841 §11: the 4-train buyer continues), else the next corporation operates (FAQ-Q24).
///
/// A corporation left over its train limit (the lower limit of a new phase, or a merger's new
/// corporation holding both corporations' trains, 1841 §9.6, §12.1) discards first: when the
/// turn is over, the next corporation operates — or the round ends — only after the discards
/// ([`after_discards`]), as 18xx.games' `DiscardTrain` step blocks its operating round.
fn resume(state: &mut State, events: &mut Vec<Event>) {
    // 1841 §9.6: the lower train limit of the new phase, once the trains have moved.
    mark_crowded(state, events);
    if let Some(sym) = current(state)
        && !state.corporation(&sym).is_some_and(|c| c.started())
        && let Some(r) = round_mut(state)
    {
        r.current = None;
    }
    after_discards(state, events);
}

/// The events of the first purchase of train type `t` that belong to this module
/// (1841 §11): `close_companies` now; `ferd_secession` and `tuscan_merge` queued and run.
/// Rusting, the phase and its border set are handled by the caller.
pub(super) fn first_train_events(state: &mut State, t: &str, events: &mut Vec<Event>) {
    let rules = data::ruleset(&state.options);
    let Some(train) = rules.train(t) else { return };
    let list = train.events_on_first_purchase.clone();
    if list.iter().any(|e| e == "close_companies") {
        phase4::close_concessions(state, events);
    }
    let mut queue = Vec::new();
    if list.iter().any(|e| e == "ferd_secession") {
        queue.push(QueuedEvent::FerdinandeaSplit);
    }
    if list.iter().any(|e| e == "tuscan_merge") {
        queue.push(QueuedEvent::TuscanMerge);
    }
    if queue.is_empty() {
        return;
    }
    if let Some(r) = round_mut(state) {
        r.queued_events.extend(queue);
    }
}

// ----- shared helpers -------------------------------------------------------------------

fn corp_mut<'a>(state: &'a mut State, sym: &str) -> Option<&'a mut Corporation> {
    state.corporation_mut(sym)
}

fn price_of(state: &State, sym: &str) -> i64 {
    state.corporation(sym).and_then(|c| c.price()).unwrap_or(0)
}

/// Units (10% of a major, 20% of a minor) `holder` holds of `sym`.
fn units_of(state: &State, sym: &str, holder: &ShareOwner) -> u32 {
    state
        .corporation(sym)
        .map_or(0, |c| c.percent_of(holder) / c.unit_percent().max(1))
}

/// Whether an ordinary certificate of `sym` lies in its IPO.
fn ipo_share_left(state: &State, sym: &str) -> bool {
    state.corporation(sym).is_some_and(|c| {
        c.certificates
            .iter()
            .any(|x| x.owner == ShareOwner::Ipo && !x.president)
    })
}

/// Gives one ordinary IPO certificate of `sym` to `to`; false if none is left.
fn give_share(state: &mut State, sym: &str, to: &ShareOwner) -> bool {
    let Some(c) = corp_mut(state, sym) else {
        return false;
    };
    match c
        .certificates
        .iter_mut()
        .find(|x| x.owner == ShareOwner::Ipo && !x.president)
    {
        Some(x) => {
            x.owner = to.clone();
            true
        }
        None => false,
    }
}

/// Gives the president's certificate of `sym` to `to`.
fn give_president(state: &mut State, sym: &str, to: &ShareOwner) {
    if let Some(c) = corp_mut(state, sym) {
        for x in c.certificates.iter_mut().filter(|x| x.president) {
            x.owner = to.clone();
        }
    }
}

/// Starts `sym` on market cell (`row`, `col`) as the latest arrival there (1841 §12).
fn start_at(state: &mut State, sym: &str, row: u32, col: u32) {
    if let Some(c) = corp_mut(state, sym) {
        c.share_price = None;
        c.par_price = market::price_at(row, col).unwrap_or(0);
        c.operated = false;
        c.closed = false;
    }
    market::set_cell(state, sym, row, col);
}

/// Places `sym` on `cell` taking the place of `old` in its stack (1841 §12.4, FAQ-C15):
/// `sym` gets `old`'s arrival and later arrivals on that cell move one back.
fn take_place_of(state: &mut State, sym: &str, old: &str) {
    let Some(p) = state.corporation(old).and_then(|c| c.share_price) else {
        return;
    };
    for c in state.corporations.iter_mut() {
        if let Some(q) = c.share_price.as_mut()
            && q.row == p.row
            && q.col == p.col
            && q.arrival > p.arrival
        {
            q.arrival += 1;
        }
    }
    state.next_market_arrival = state.next_market_arrival.saturating_add(1);
    if let Some(c) = corp_mut(state, sym) {
        c.share_price = Some(crate::g1841::state::SharePrice {
            row: p.row,
            col: p.col,
            arrival: p.arrival + 1,
        });
        c.par_price = market::price_at(p.row, p.col).unwrap_or(0);
        c.operated = false;
        c.closed = false;
    }
}

/// Moves every certificate of other corporations held by `from` to `to`'s treasury (a
/// president's certificate makes `to` the president there), except certificates of the
/// corporations in `except`.
fn move_treasury(state: &mut State, from: &str, to: &str, except: &[&String]) {
    let from_owner = ShareOwner::Corporation(from.to_string());
    for c in state.corporations.iter_mut() {
        if except.contains(&&c.sym) {
            continue;
        }
        if c.sym == to {
            // Shares of the receiver itself go back to its IPO.
            for x in c.certificates.iter_mut().filter(|x| x.owner == from_owner) {
                x.owner = ShareOwner::Ipo;
            }
            continue;
        }
        for x in c.certificates.iter_mut().filter(|x| x.owner == from_owner) {
            x.owner = ShareOwner::Corporation(to.to_string());
        }
    }
}

/// Moves all trains of `from` to `to`.
fn move_trains(state: &mut State, from: &str, to: &str) {
    let trains = state.operations.trains.remove(from).unwrap_or_default();
    if !trains.is_empty() {
        state
            .operations
            .trains
            .entry(to.to_string())
            .or_default()
            .extend(trains);
    }
}

/// Moves all cash of `from` to `to`.
fn move_cash(state: &mut State, from: &str, to: &str) {
    let cash = state.corporation(from).map_or(0, |c| c.cash);
    if let Some(c) = corp_mut(state, from) {
        c.cash = 0;
    }
    add_cash(state, &ShareOwner::Corporation(to.to_string()), cash);
}

/// Takes `sym` off the game (1841 §3.4, §12): every certificate back to its IPO, no cash,
/// tokens, trains or market marker; off the round's lists. A historical corporation is closed
/// for good; a non-historical one may be started again as a new company.
fn remove_corporation(state: &mut State, sym: &str, events: &mut Vec<Event>) {
    state.operations.trains.remove(sym);
    let Some(c) = corp_mut(state, sym) else {
        return;
    };
    let historical = c.historical;
    // 18xx.games keeps a closed historical corporation's IPO in its own order: the unsold
    // shares first, the certificates that come back behind them (I35).
    c.ipo_first_share_ordinary = historical
        && c.certificates
            .iter()
            .any(|x| x.owner == ShareOwner::Ipo && !x.president);
    c.certificates = crate::g1841::corporation::fresh_certificates(c.kind);
    c.cash = 0;
    c.tokens.clear();
    c.tokens_total = 0;
    c.share_price = None;
    c.par_price = 0;
    c.operated = false;
    c.closed = historical;
    if let Some(r) = round_mut(state) {
        r.done.retain(|d| d != sym);
        if r.current.as_deref() == Some(sym) {
            // Its turn is over (FAQ-Q24); the round resumes with the next corporation.
            r.current = None;
        }
    }
    // Certificates of it held anywhere go back to its IPO (done above); certificates it held
    // of others go back to their IPOs.
    let owner = ShareOwner::Corporation(sym.to_string());
    for c in state.corporations.iter_mut() {
        for x in c.certificates.iter_mut().filter(|x| x.owner == owner) {
            x.owner = ShareOwner::Ipo;
        }
    }
    events.push(if historical {
        Event::CorporationClosed {
            corporation: sym.to_string(),
        }
    } else {
        Event::CorporationAvailable {
            corporation: sym.to_string(),
        }
    });
}

/// Closes an unstarted historical corporation for good (1841 §11 step 2, §12.3, §12.4).
fn close_unstarted(state: &mut State, sym: &str, events: &mut Vec<Event>) {
    if let Some(c) = corp_mut(state, sym)
        && !c.started()
        && !c.closed
    {
        c.closed = true;
        events.push(Event::CorporationClosed {
            corporation: sym.to_string(),
        });
    }
}

/// The first unstarted non-historical major (1841 §12.3 holding).
fn first_unstarted_major(state: &State) -> Option<String> {
    let rules = data::ruleset(&state.options);
    rules
        .non_historical_corporations
        .majors
        .iter()
        .find(|s| {
            state
                .corporation(s)
                .is_some_and(|c| !c.started() && !c.closed)
        })
        .cloned()
}

/// Unstarted non-historical majors a merger or transformation may form (1841 §12.1, §12.2).
pub fn formable_majors(state: &State) -> Vec<String> {
    formable_majors_of(state).cloned().collect()
}

/// Whether [`formable_majors`] names one (without copying the names).
pub fn any_formable_major(state: &State) -> bool {
    formable_majors_of(state).next().is_some()
}

/// The symbols of [`formable_majors`], in order.
fn formable_majors_of(state: &State) -> impl Iterator<Item = &String> {
    data::ruleset(&state.options)
        .non_historical_corporations
        .majors
        .iter()
        .filter(|s| {
            state
                .corporation(s)
                .is_some_and(|c| !c.started() && !c.closed)
        })
}

/// After shares moved in an event: presidency rule for `sym` (1841 §7.5).
fn presidency(state: &mut State, sym: &str, events: &mut Vec<Event>) {
    update_presidency(state, sym, None, events);
}
