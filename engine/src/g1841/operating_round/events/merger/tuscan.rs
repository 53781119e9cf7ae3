//! The Tuscan merge (1841 §12.3): its start (SFLP + SFMA into a holding, or one of them
//! transforming), its first step as a minor merger, and its last step, the holding and SSFL
//! merging into SFLi (FAQ-R4).

use super::assets::move_assets;
use super::exchange::execute;
use super::presidency::old_holders;
use super::*;

/// Starts the Tuscan merge: with fewer than two of SFLP, SFMA, SSFL started nothing happens
/// and SFLi closes; otherwise the participant with the best stock value leads it. SFLP + SFMA
/// merge (minor merger) into a holding major (the first unstarted non-historical major, else
/// `Holding`) with 4 tokens, or the one of them present transforms into it with 2 tokens;
/// then the holding and SSFL merge into SFLi (the last step, with the usual choices but no
/// failure). Without SSFL, SFLP + SFMA merge into SFLi directly.
pub(in crate::g1841::operating_round::events) fn begin_tuscan(
    state: &mut State,
    events: &mut Vec<Event>,
) {
    let Some(t) = data::ruleset(&state.options).tuscan_merge.clone() else {
        return;
    };
    let started: Vec<String> = t
        .participants
        .iter()
        .filter(|s| state.corporation(s).is_some_and(|c| c.started()))
        .cloned()
        .collect();
    if started.len() < 2 || t.participants.len() < 3 {
        close_unstarted(state, &t.result, events);
        return;
    }
    // The leader: best stock value = first in operating order (FAQ-Q12, #10389).
    let leader = market::operating_order(state)
        .into_iter()
        .find(|s| started.contains(s))
        .unwrap_or_else(|| started[0].clone());
    // Whether SFLi runs in this round (1841 §12.3, FAQ-V2; Version 1 only with
    // `sfli_run_variant`): none of the participants has operated in it or is operating.
    let operated = round(state).is_none_or(|r| {
        t.participants
            .iter()
            .any(|p| r.done.contains(p) || r.current.as_deref() == Some(p.as_str()))
    });
    let joins_round = (!state.options.version_1 || state.options.sfli_run_variant) && !operated;
    if let Some(r) = round_mut(state) {
        r.done.retain(|d| !t.participants.contains(d));
    }
    let has = |s: &str| started.iter().any(|x| x == s);
    let (sflp, sfma, ssfl) = (&t.participants[0], &t.participants[1], &t.participants[2]);
    // 1841 §12.3 names the leader's president; a frozen leader has none (§7.4), and then the
    // operating corporation's controller (the first 4-train's buyer's) decides, as 18xx.games
    // means to (`tuscan_merge_start`: `decider.player || @round.current_entity.player`; it
    // crashes when no step is active then, after a deferring split: reviewed divergence
    // `tuscan-merge-frozen-leader-after-split`). Before 2026-12-06: the first in player order.
    let buyer = round(state)
        .and_then(|r| r.current.clone())
        .and_then(|c| controller(state, &c));
    let first = controller(state, &leader)
        .or(buyer)
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0);
    let holding =
        has(ssfl).then(|| first_unstarted_major(state).unwrap_or_else(|| "Holding".to_string()));
    if has(sflp) && has(sfma) {
        // SFLP first, SFMA second, whoever leads (18xx.games `tuscan_merge_start`:
        // `merger_start(sflp, sfma, ...)`): the leader's president decides (`first`), and
        // the order only says whose duplicate token goes (the second's, as in any merger)
        // and whose assets move first. The rulebook leaves both open; 18xx's token slots
        // follow it (p2p_purchases heuristic 8 players seed 8002, 18xx id 800: SFMA led,
        // SFLP's token stayed in Lucca's slot 0).
        let (a, b) = (sflp.clone(), sfma.clone());
        let mut m = tuscan_merger(
            state,
            &a,
            &b,
            holding.as_deref().unwrap_or(&t.result),
            first,
        );
        m.joins_round = joins_round;
        if let Some(h) = &holding {
            // The first step, a minor merger into the holding: not the last step (it forms
            // no SFLi), marked by its target being the holding ([`is_tuscan_first_step`]).
            m.tuscan = false;
            m.holding = Some(h.clone());
        }
        // SFLP + SFMA: into the holding (the last step follows when it ends, [`finish`]) or
        // straight into SFLi, whose president then places its tokens.
        execute(state, &mut m, events);
        // 18xx's `@merger_decider` in the Tuscan merge is its decider.
        m.decider = Some(first);
        store(state, m);
        return;
    }
    if let Some(h) = holding {
        let minor = if has(sflp) {
            sflp.clone()
        } else {
            sfma.clone()
        };
        // The minor transforms into the holding, with the purchase rounds of §12.2; the
        // last step follows when they end.
        super::transform::begin_tuscan(state, &minor, &h, joins_round, first, events);
    }
}

/// The first step of the Tuscan merge (1841 §12.3): SFLP and SFMA merging into the holding
/// (a minor merger, `tuscan` false, `holding` its target). Its only decision is the token on
/// the yellow Firenze tile when the two minors hold both its cities (stage `TwoCityTile`,
/// §12.1: the holding's president chooses, as 18xx.games' `merger_tokens_start` asks before
/// the holding's tokens are counted); the holding keeps every other map token and owns 4.
pub(super) fn is_tuscan_first_step(m: &Merger) -> bool {
    !m.tuscan && m.holding.as_deref() == Some(m.target.as_str())
}

/// The last step of the Tuscan merge (1841 §12.3): the holding and SSFL merge into SFLi,
/// decided by `first` (the Tuscan merge's decider) where nobody presides.
pub(in crate::g1841::operating_round::events) fn tuscan_last_step(
    state: &mut State,
    holding: &str,
    first: Seat,
    joins_round: bool,
) {
    let Some(t) = data::ruleset(&state.options).tuscan_merge.clone() else {
        return;
    };
    let Some(ssfl) = t.participants.get(2) else {
        return;
    };
    let mut m = tuscan_merger(state, holding, ssfl, &t.result, first);
    m.holding = Some(holding.to_string());
    m.joins_round = joins_round;
    // As a voluntary merger's (18xx.games' `merger_exchange_start` serves both): SFLi has the
    // holding's and SSFL's assets before the presidency question, and discards first,
    // decided by the Tuscan merge's decider while it has no president.
    move_assets(state, &mut m, Some(first));
    store(state, m);
}

fn tuscan_merger(state: &State, a: &str, b: &str, target: &str, first: Seat) -> Merger {
    let (pa, pb) = (
        state.corporation(a).and_then(|c| c.price()).unwrap_or(0),
        state.corporation(b).and_then(|c| c.price()).unwrap_or(0),
    );
    let ca = state
        .corporation(a)
        .and_then(|c| c.share_price)
        .map_or((0, 0), |p| (p.row, p.col));
    let cb = state
        .corporation(b)
        .and_then(|c| c.share_price)
        .map_or((0, 0), |p| (p.row, p.col));
    let cell = match kind_of(state, a) {
        CorporationKind::Minor => market::minor_merger_cell(pa, pb),
        // Both above L.250 cannot be chosen here: the higher price is kept.
        CorporationKind::Major => {
            market::major_merger_cell(state.options.merger_price_cap(), pa, ca, pb, cb)
                .unwrap_or(if pa >= pb { ca } else { cb })
        }
    };
    let mut m = Merger {
        initiator: a.to_string(),
        partner: b.to_string(),
        stage: MergerStage::Presidency,
        target: target.to_string(),
        cell: Some(MarketCell {
            row: cell.0,
            col: cell.1,
        }),
        price_choices: Vec::new(),
        holders: Vec::new(),
        units: Vec::new(),
        next: 0,
        president: None,
        claimed: false,
        token_count: 0,
        tuscan: true,
        holding: None,
        joins_round: false,
        tokens_min_removal: 0,
        tokens_max_removal: 0,
        moved: None,
        two_city: Vec::new(),
        // 18xx's `@merger_decider` in the Tuscan merge: its decider.
        decider: Some(first),
        pass2: Vec::new(),
    };
    let (holders, units) = old_holders(state, &m, first);
    m.holders = holders;
    m.units = units;
    m
}
