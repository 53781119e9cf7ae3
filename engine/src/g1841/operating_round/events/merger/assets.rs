//! Step 2 of a merger, the assets (1841 §12.1): the new corporation on its cell; cash,
//! trains and certificates of other corporations moved when the new corporation is named
//! (a discard over the train limit first, §9.6), and taken back when the merger fails
//! (FAQ-R6).

use super::*;

/// Step 2 of a merger (see the module documentation): the new corporation on its cell; cash,
/// trains and certificates of other corporations to the new corporation (1841 §12.1). The
/// shares of each old corporation held by the other stay where they are until the exchange
/// eliminates them ([`execute`]): so the old corporations keep their presidents, and the
/// initiator's controller, while the presidency is open (18xx.games moves them to the IPO at
/// once; nothing in the presidency stage depends on them).
///
/// [`execute`]: super::exchange::execute
pub(super) fn place_and_move(state: &mut State, m: &Merger, cell: MarketCell) {
    let target = m.target.clone();
    let (a, b) = (m.initiator.clone(), m.partner.clone());
    start_at(state, &target, cell.row, cell.col);
    for old in [&a, &b] {
        move_cash(state, old, &target);
        move_trains(state, old, &target);
        move_treasury(state, old, &target, &[&a, &b]);
    }
}

/// A voluntary major merger's assets move when the new corporation is named, before the
/// presidency claims (1841 §12.1 lists the assets before the exchange; 18xx.games:
/// `merger_exchange_start` → `move_assets` of both, then the first presidency question), so
/// a new corporation over its train limit discards first (§9.6; 18xx's `DiscardTrain` step
/// comes before `ChooseOption`), decided by `decider` (the initiator's controller; in the
/// Tuscan merge its decider) while it has no president ([`discard_seat`]).
/// What moved is kept in `m.moved` for [`restore_assets`].
///
/// [`discard_seat`]: crate::g1841::operating_round::discard_seat
pub(super) fn move_assets(state: &mut State, m: &mut Merger, decider: Option<Seat>) {
    let Some(cell) = m.cell else { return };
    let (a, b) = (m.initiator.clone(), m.partner.clone());
    let olds = [
        ShareOwner::Corporation(a.clone()),
        ShareOwner::Corporation(b.clone()),
    ];
    let certificates = state
        .corporations
        .iter()
        .flat_map(|c| {
            c.certificates
                .iter()
                .enumerate()
                .filter(|(_, x)| olds.contains(&x.owner) && c.sym != a && c.sym != b)
                .map(|(i, x)| MovedCertificate {
                    corporation: c.sym.clone(),
                    index: u32::try_from(i).unwrap_or(u32::MAX),
                    owner: x.owner.clone(),
                })
        })
        .collect();
    let cash = |s: &str| state.corporation(s).map_or(0, |c| c.cash);
    let moved = MovedAssets {
        initiator_cash: cash(&a),
        partner_cash: cash(&b),
        initiator_trains: trains_of(state, &a),
        partner_trains: trains_of(state, &b),
        certificates,
        next_market_arrival: state.next_market_arrival,
        decider,
    };
    place_and_move(state, m, cell);
    m.moved = Some(moved);
}

/// Takes back [`move_assets`] when the merger fails (1841 §12.1, FAQ-R6; 18xx.games undoes
/// the whole merger): the old corporations' cash, trains and certificates back, the trains
/// discarded meanwhile out of the pool again, the new corporation off the market and
/// unstarted. Money is conserved whatever the record says (the new corporation's cash is
/// shared out, the initiator's part at most its recorded cash).
pub(super) fn restore_assets(state: &mut State, m: &Merger, moved: &MovedAssets) {
    let target = m.target.clone();
    let total = state.corporation(&target).map_or(0, |c| c.cash).max(0);
    let a_cash = moved.initiator_cash.clamp(0, total);
    for (sym, cash) in [
        (&m.initiator, a_cash),
        (&m.partner, total - a_cash),
        (&target, 0),
    ] {
        if let Some(c) = corp_mut(state, sym) {
            c.cash = cash;
        }
    }
    let old: Vec<&String> = moved
        .initiator_trains
        .iter()
        .chain(&moved.partner_trains)
        .collect();
    state.operations.pool_trains.retain(|t| !old.contains(&t));
    state.operations.trains.remove(&target);
    for (sym, list) in [
        (&m.initiator, &moved.initiator_trains),
        (&m.partner, &moved.partner_trains),
    ] {
        if !list.is_empty() {
            state.operations.trains.insert(sym.clone(), list.clone());
        }
    }
    for x in &moved.certificates {
        if let Some(cert) =
            corp_mut(state, &x.corporation).and_then(|c| c.certificates.get_mut(x.index as usize))
        {
            cert.owner = x.owner.clone();
        }
    }
    if let Some(c) = corp_mut(state, &target) {
        c.share_price = None;
        c.par_price = 0;
        c.operated = false;
    }
    state.next_market_arrival = moved.next_market_arrival;
    if let Some(r) = round_mut(state) {
        r.crowded.retain(|c| *c != target);
    }
}
