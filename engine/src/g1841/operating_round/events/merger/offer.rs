//! The offer of a voluntary merger (1841 §12.1): which corporations may merge
//! ([`may_merge`]: FAQ-M3, FAQ-Q1), whether two are connected (FAQ-R7, FAQ-Q26), the partners
//! listed in the merge step and why one is refused, the proposal with its new price (§12.1;
//! FAQ-T with `merger_price_cap`), and whether a merger can end with a president at all
//! (FAQ-R6, FAQ-R1; 18xx #9404), so that only partners that can succeed are offered.

use super::presidency::{asked, begin_exchange, illegal_result};
use super::*;

/// Whether `sym` may take part in a voluntary merger (1841 §12.1, FAQ-M3, FAQ-Q1): started,
/// has completed an operating turn, not frozen, and historical ones only from phase 4.
fn may_merge(state: &State, sym: &str) -> bool {
    state.corporation(sym).is_some_and(|c| {
        // (The control chain, for `frozen`, is walked last.)
        c.started()
            && c.operated
            && (!c.historical || phase_number(state) >= 4)
            && !frozen(state, sym)
    })
}

/// Whether `partner` has a city token reachable from `sym`'s tokens without crossing the
/// active province borders (1841 §12.1, FAQ-R7; a shared city counts, FAQ-Q26; pass tokens
/// are ignored).
fn connected(state: &State, sym: &str, partner: &str) -> bool {
    reach_of(state, sym).is_some_and(|reach| reaches(state, &reach, partner))
}

/// The track graph traced from `sym`'s bases (`None` without a base), for [`connected`].
fn reach_of(state: &State, sym: &str) -> Option<track::Reach> {
    let starts: Vec<(String, usize)> = track::bases(state, sym)
        .into_iter()
        .map(|(h, n, _)| (h, n))
        .collect();
    if starts.is_empty() {
        return None;
    }
    let border = tokens::token_border_set(state);
    Some(track::reach(state, sym, &starts, border.as_deref()))
}

/// Whether `reach` contains a base of `partner`.
fn reaches(state: &State, reach: &track::Reach, partner: &str) -> bool {
    track::bases(state, partner)
        .into_iter()
        .any(|(h, n, _)| reach.contains(&h, n))
}

/// Whether the merge step is played by `sym` (18xx records a pass there): it may merge itself
/// ([`may_merge`]) and an unstarted non-historical major is left to form, whether or not a
/// connected partner exists (observed in both recorded games: every corporation that has
/// operated passes its merge step from phase 4 on; docs/games/1841.md I32).
pub fn step_active(state: &State, sym: &str) -> bool {
    may_merge(state, sym) && any_formable_major(state)
}

/// The partners the operating corporation `sym` may propose now (1841 §12.1): same type,
/// both eligible ([`may_merge`]), connected, and an unstarted non-historical major to form.
pub fn partners(state: &State, sym: &str) -> Vec<String> {
    if !may_merge(state, sym) || !any_formable_major(state) {
        return Vec::new();
    }
    let kind = kind_of(state, sym);
    // `sym`'s track graph is the same for every candidate: traced once, when first needed.
    let mut reach: Option<Option<track::Reach>> = None;
    state
        .corporations
        .iter()
        .filter(|c| c.sym != sym && c.kind == kind && may_merge(state, &c.sym))
        .filter(|c| {
            reach
                .get_or_insert_with(|| reach_of(state, sym))
                .as_ref()
                .is_some_and(|r| reaches(state, r, &c.sym))
        })
        .filter(|c| can_succeed(state, sym, &c.sym))
        .map(|c| c.sym.clone())
        .collect()
}

/// Why `partner` is not a legal merger partner of `sym` now, in plain words (1841 §12.1).
pub fn why_not(state: &State, sym: &str, partner: &str) -> String {
    let Some(p) = state.corporation(partner) else {
        return format!("`{partner}` is not a corporation of these rules.");
    };
    let about = |who: &str| -> Option<String> {
        let c = state.corporation(who)?;
        if !c.started() {
            Some(format!("{who} is not started."))
        } else if !c.operated {
            Some(format!(
                "{who} has not completed an operating turn yet (FAQ-M3, FAQ-Q1)."
            ))
        } else if frozen(state, who) {
            Some(format!("{who} is frozen (1841 §7.4)."))
        } else if c.historical && phase_number(state) < 4 {
            Some(format!("{who} is historical: no merger before phase 4."))
        } else {
            None
        }
    };
    if partner == sym {
        return format!("{sym} cannot merge with itself.");
    }
    if let Some(m) = about(sym).or_else(|| about(partner)) {
        return m;
    }
    if state.corporation(sym).map(|c| c.kind) != Some(p.kind) {
        return format!(
            "{sym} and {partner} are not of the same type (major with major, minor with minor)."
        );
    }
    if formable_majors(state).is_empty() {
        return "No unstarted non-historical major is left to form.".to_string();
    }
    if !connected(state, sym, partner) {
        return format!(
            "No token of {partner} in a city reachable from {sym}'s tokens without crossing a border (FAQ-R7)."
        );
    }
    if !can_succeed(state, sym, partner) {
        return format!(
            "A merger of {sym} and {partner} cannot end with a president of the new corporation (nobody holds 40% of the old shares or can pay to claim it), or only with circular control or a frozen corporation (1841 §12.1, FAQ-R6, FAQ-R1)."
        );
    }
    format!("{partner} is not a legal partner of {sym} now.")
}

/// Opens a voluntary merger of the operating corporation `initiator` with `partner`.
pub(in crate::g1841::operating_round) fn propose(
    state: &mut State,
    initiator: &str,
    partner: &str,
) {
    if let Some(m) = proposal(state, initiator, partner) {
        store(state, m);
    }
}

/// The merger of `initiator` with `partner` as proposed: the new price's cell, or the two
/// prices its president chooses between (1841 §12.1).
fn proposal(state: &State, initiator: &str, partner: &str) -> Option<Merger> {
    let (Some(a), Some(b)) = (state.corporation(initiator), state.corporation(partner)) else {
        return None;
    };
    let (pa, pb) = (a.price().unwrap_or(0), b.price().unwrap_or(0));
    let (ca, cb) = (
        a.share_price.map_or((0, 0), |p| (p.row, p.col)),
        b.share_price.map_or((0, 0), |p| (p.row, p.col)),
    );
    let mut m = Merger {
        initiator: initiator.to_string(),
        partner: partner.to_string(),
        stage: MergerStage::Corporation,
        target: String::new(),
        cell: None,
        price_choices: Vec::new(),
        holders: Vec::new(),
        units: Vec::new(),
        next: 0,
        president: None,
        claimed: false,
        token_count: 0,
        tuscan: false,
        holding: None,
        joins_round: false,
        tokens_min_removal: 0,
        tokens_max_removal: 0,
        moved: None,
        two_city: Vec::new(),
        decider: None,
        pass2: Vec::new(),
    };
    let cell = match a.kind {
        CorporationKind::Major => {
            market::major_merger_cell(state.options.merger_price_cap(), pa, ca, pb, cb)
        }
        CorporationKind::Minor => Some(market::minor_merger_cell(pa, pb)),
    };
    match cell {
        Some((row, col)) => m.cell = Some(MarketCell { row, col }),
        None => {
            m.stage = MergerStage::Price;
            let mut choices = vec![
                MarketCell {
                    row: ca.0,
                    col: ca.1,
                },
                MarketCell {
                    row: cb.0,
                    col: cb.1,
                },
            ];
            choices.sort_by_key(cell_price);
            choices.dedup_by_key(|c| cell_price(c));
            if choices.len() == 1 {
                m.cell = choices.pop();
                m.stage = MergerStage::Corporation;
            } else {
                m.price_choices = choices;
            }
        }
    }
    Some(m)
}

/// Whether some decisions of the holders end the merger of `initiator` with `partner` with a
/// president and a legal result (1841 §12.1, rule 4.7.4.1, FAQ-R6: "a voluntary merger may not
/// happen if no shareholder takes the presidency"; FAQ-R1: no circular control, the new
/// corporation not frozen). 18xx.games refuses such a merger as soon as it is sure to fail
/// ("Cannot complete this merger without a president. Undo required.", 18xx #9404), so a
/// partner is offered only if it can succeed: for some new price (both prices when its
/// president chooses), the president is one of those the presidency stage can reach — a
/// holder in order who may claim it and can pay (pairs first, then single shares), or the
/// first holder of 40% of the old shares, who takes it unless someone before him claims —
/// and the merger executed with him leaves no new circular control and the new corporation
/// not frozen. Minors merge without decisions: the result alone is checked. Which
/// non-historical major is formed changes nothing here (the first formable one is used).
fn can_succeed(state: &State, initiator: &str, partner: &str) -> bool {
    let (Some(base), Some(target)) = (
        proposal(state, initiator, partner),
        formable_majors_of(state).next(),
    ) else {
        return false;
    };
    let cells: Vec<Option<MarketCell>> = if base.price_choices.is_empty() {
        vec![base.cell]
    } else {
        base.price_choices.iter().copied().map(Some).collect()
    };
    for cell in cells {
        let mut m = base.clone();
        m.cell = cell;
        m.price_choices.clear();
        m.target = target.clone();
        begin_exchange(state, &mut m);
        if kind_of(state, initiator) == CorporationKind::Minor {
            if !illegal_result(state, &m) {
                return true;
            }
            continue;
        }
        for sim in reachable_presidents(state, &m) {
            if !illegal_result(state, &sim) {
                return true;
            }
        }
    }
    false
}

/// The ways a major merger's presidency stage can end with a president, as [`advance`]
/// walks it, each as the merger settled that way: a holder asked ([`asked`]) claims it, or
/// (three old units, in the sweep over odd shares) pays for a full share and reaches 20%
/// (R4), until the first holder of 40% in the pairs sweep, who takes it.
fn reachable_presidents(state: &State, m: &Merger) -> Vec<Merger> {
    let len = m.holders.len();
    let mut out = Vec::new();
    let mut probe = m.clone();
    for next in 0..2 * len {
        if next == len && pool_takes_president(state, m) {
            break;
        }
        probe.next = next as u32;
        let i = next % len;
        if next < len && m.units[i] >= 4 && m.holders[i] != ShareOwner::Pool {
            let mut sim = probe.clone();
            sim.president = Some(m.holders[i].clone());
            sim.claimed = false;
            out.push(sim);
            break;
        }
        if let Some(a) = asked(state, &probe) {
            if a.claim {
                let mut sim = probe.clone();
                sim.president = Some(a.holder.clone());
                sim.claimed = true;
                out.push(sim);
            }
            if a.full {
                let mut sim = probe.clone();
                sim.pass2.push((a.holder, OddShareChoice::FullShare));
                out.push(sim);
            }
        }
    }
    out
}

/// Whether, with the presidency unclaimed after the pairs sweep, the pool's pairs take the
/// new president's certificate (1841 §12.1: "if new 10% shares run out, further pairs are
/// exchanged against the president's certificate if the holder already owns a new share";
/// the pool exchanges its pairs like any holder, FAQ-Q25): the first pass gives every
/// holder's pairs one ordinary share each, in order, and when they run out a pool that got
/// one already takes the certificate — so no holder of a single share can claim it in the
/// second pass, nobody presides and the merger fails (§12.1, FAQ-R6). 18xx.games
/// (`merger_do_exchange`): "Market exchanges 20% of old shares for president share", then
/// "Cannot complete this merger without a president" (v2 8p seed 8013 id 1229, SFL + ATFA →
/// CTS: the pool's seventh pair). The Tuscan merge, which cannot fail (§12.3), goes on with
/// the certificate in the pool ([`president_by_run_out`]).
///
/// [`president_by_run_out`]: super::exchange::president_by_run_out
pub(super) fn pool_takes_president(state: &State, m: &Merger) -> bool {
    if m.president.is_some() {
        return false;
    }
    let mut left = state.corporation(&m.target).map_or(0, |c| {
        c.certificates
            .iter()
            .filter(|x| x.owner == ShareOwner::Ipo && !x.president)
            .count()
    });
    for (h, &u) in m.holders.iter().zip(&m.units) {
        let mut got = 0;
        for _ in 0..u / 2 {
            if left > 0 {
                left -= 1;
                got += 1;
            } else if got > 0 {
                // The first holder to get the certificate this way.
                return *h == ShareOwner::Pool;
            }
        }
    }
    false
}
