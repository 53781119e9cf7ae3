//! Mergers (1841 §12.1) and the Tuscan merge (§12.3).
//!
//! A voluntary merger: in its merge step the operating corporation proposes a partner
//! ([`partners`]); the new price follows (§12.1: majors by the sum, minors by the average;
//! both majors above L.250 → its president chooses one of their prices; with
//! `merger_price_cap`, FAQ-T, always the table on the sum, at most L.242); its president
//! chooses the unstarted non-historical major to form. Then:
//! 1. **Presidency** (majors): holders of the two old corporations in order (from the
//!    initiator's president round the table, each player followed by the corporations he
//!    controls, then the pool, then frozen corporations): first those with a pair (18xx's
//!    pass 1), then those with an odd share, 10% or 30% (pass 2). A holder of 40% or more
//!    takes the new president's certificate; a player with less may claim it first, paying
//!    to the new corporation, rounded down, price × (40 − held%) ÷ 20 for his whole holding
//!    in the pairs' sweep, 1.5 × the price for his odd share in the odd sweep (keeping the
//!    new share of his pair) (FAQ-R6, 18xx: players only; with
//!    `merger_presidency_for_companies` corporations too, from their treasury). In the odd
//!    sweep a holder of 30% may instead pay for a full share for his odd one: with the share
//!    of his pair he holds 20%, and the first holder of 20% presides (§12.1, R4); declining,
//!    he takes cash for it. Nobody → the
//!    merger fails and nothing changes (`MergerFailed`; 18xx takes it back, #9404); likewise if
//!    it would put a corporation under circular control or leave the new one frozen
//!    (FAQ-R1). The Tuscan merge cannot fail: unclaimed, the certificate goes to a holder who
//!    ends the exchange with 20% of SFLi, else to the pool (SFLi frozen; FAQ-R4).
//! 2. **Assets**: cash, trains and certificates of other corporations go to the new
//!    corporation; shares of each old corporation held by the other are eliminated; the new
//!    corporation starts on the new cell. In a major merger (the Tuscan merge's last step
//!    too) this happens when the new corporation is named, before step 1, as 18xx.games does
//!    (`merger_exchange_start`): a new corporation over its train limit discards first
//!    (§9.6), decided while it has no president by the initiator's controller (the Tuscan
//!    merge's decider); a merger that then fails gives everything back (`Merger::moved`).
//! 3. **Pairs**: every two old units → one new 10% share (none left: a holder who got one
//!    takes a president's certificate still in the IPO for it, else the bank pays the price;
//!    with the presidency unclaimed after the pairs sweep, the pool's pairs taking it leave
//!    nobody to claim it: the merger fails, [`pool_takes_president`]).
//! 4. **Odd shares**: cash (half the new price from the bank) or a full share (half the new
//!    price to the new corporation), the holder's choice; only cash when no share is left or
//!    he cannot pay; the pool's odd share is discarded; frozen corporations take cash.
//! 5. **Two-city tile** (18xx `merger_tokens_start`): the old map tokens become the new
//!    corporation's, a second token in the same city is destroyed; where the two held the
//!    two different cities of one tile (yellow Torino H4, yellow Firenze), one of the two
//!    must go: the new president (else the initiator's president, 18xx `@merger_decider`)
//!    chooses which (1841 §12.1), one such tile after the other.
//! 6. **Tokens** (18xx `merger_tokens_finish`): it owns N = min(tokens of both − duplicates
//!    (same city or same tile, each counted once, FAQ-C19), 5) (at least 2; SFLi: 5); the
//!    charter may hold
//!    at most the old charters' total, so the president removes map tokens down to N and may
//!    remove more while the charter stays within that total (never the last non-pass token).
//!    SFLi (§12.3) always keeps Pisa and Firenze, and its president may remove any other
//!    token (18xx: at most all of them); the Tuscan holding keeps its map tokens and owns 4.
//!
//! Minors merge without choices: each 40% certificate becomes the new president's
//! certificate (the first in order) or two shares, each 20% share one 10% share.
//! The old corporations close (historical) or become available again (non-historical); the
//! new one does not operate again in this round, and the initiator's turn ends.

use super::*;
use crate::g1841::corporation::{circular_set, frozen, holder_cash, holder_order};
use crate::g1841::state::{MarketCell, Merger, MergerStage, MovedAssets, MovedCertificate};

fn store(state: &mut State, m: Merger) {
    set_event(state, Some(CorporateEvent::Merger(m)));
}

fn cell_price(c: &MarketCell) -> i64 {
    market::price_at(c.row, c.col).unwrap_or(0)
}

fn new_price(m: &Merger) -> i64 {
    m.cell.as_ref().map_or(0, cell_price)
}

fn kind_of(state: &State, sym: &str) -> CorporationKind {
    state
        .corporation(sym)
        .map_or(CorporationKind::Major, |c| c.kind)
}

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
fn pool_takes_president(state: &State, m: &Merger) -> bool {
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

/// The decision the merger waits for.
pub(super) fn decision(state: &State, m: &Merger) -> Option<Decision> {
    let initiator_seat = || controller(state, &m.initiator);
    match m.stage {
        MergerStage::Price => Some(Decision {
            seat: initiator_seat()?,
            actions: m
                .price_choices
                .iter()
                .map(|c| Action::ChooseMergerPrice {
                    price: cell_price(c),
                })
                .collect(),
        }),
        MergerStage::Corporation => Some(Decision {
            seat: initiator_seat()?,
            actions: formable_majors(state)
                .into_iter()
                .map(|corporation| Action::FormCorporation { corporation })
                .collect(),
        }),
        MergerStage::Presidency => {
            let a = asked(state, m)?;
            let mut actions = Vec::new();
            if a.claim {
                actions.push(Action::ClaimPresidency { claim: true });
            }
            actions.push(Action::ClaimPresidency { claim: false });
            if a.full {
                actions.push(Action::ExchangeOddShare {
                    choice: OddShareChoice::FullShare,
                });
            }
            Some(Decision {
                seat: exchange_seat(state, m, &a.holder)?,
                actions,
            })
        }
        MergerStage::OddShares => {
            let h = m.holders.get(m.next as usize)?;
            Some(Decision {
                seat: acting_seat(state, h)?,
                actions: vec![
                    Action::ExchangeOddShare {
                        choice: OddShareChoice::Cash,
                    },
                    Action::ExchangeOddShare {
                        choice: OddShareChoice::FullShare,
                    },
                ],
            })
        }
        MergerStage::TwoCityTile => {
            let t = m.two_city.first()?;
            let seat = two_city_chooser(state, m)?;
            let actions: Vec<Action> = two_city_choices(state, m, &t.hex)
                .into_iter()
                .map(|t| Action::RemoveToken {
                    hex: t.hex,
                    city: t.city,
                })
                .collect();
            Some(Decision { seat, actions })
        }
        MergerStage::Tokens => {
            let seat = token_decider(state, m)?;
            let mut actions: Vec<Action> = removable(state, m)
                .into_iter()
                .map(|t| Action::RemoveToken {
                    hex: t.hex,
                    city: t.city,
                })
                .collect();
            if m.tokens_min_removal == 0 {
                actions.push(Action::Pass);
            }
            Some(Decision { seat, actions })
        }
    }
}

/// Cost of claiming the presidency with `units` old units (1841 §12.1: price × (40 − held%)
/// ÷ 20, rounded down; in the odd sweep with the odd share alone, `units` 1: 1.5 × the
/// price, 18xx `pres_upgrade_cost` with the 10% left after pass 1).
fn claim_cost(price: i64, units: u32) -> i64 {
    let held = i64::from(units) * 10;
    (price.saturating_mul(40 - held.min(40))).div_euclid(20)
}

/// Whether holder `h` may claim a merger's new president's certificate (1841 §12.1): a
/// player (18xx, spec §17 item 3); with `merger_presidency_for_companies` (FAQ-R6: "a
/// shareholder whose turn it is … may take it") also a corporation that has a controlling
/// player to decide for it, paying from its treasury.
fn may_claim(state: &State, m: &Merger, h: &ShareOwner) -> bool {
    match h {
        ShareOwner::Player(_) => true,
        ShareOwner::Corporation(_) => {
            state.options.merger_presidency_for_companies() && exchange_seat(state, m, h).is_some()
        }
        ShareOwner::Ipo | ShareOwner::Pool => false,
    }
}

/// The seat deciding for the holder `h` in a major merger's presidency stage. Once the
/// assets have moved (`m.moved`: the old corporations' certificates of other corporations lie
/// in the new corporation's treasury), a holder corporation whose presidency the new
/// corporation takes by them answers to the new corporation's chain (1841 §7.5: a holder,
/// corporations included, with strictly more than the president takes the presidency, after
/// every share movement; 18xx.games' `move_assets` moves each holding with
/// `allow_president_change`), and while the new corporation has no president, to nobody: it
/// is frozen and takes the default (§7.4: "it cannot take decisions in exchanges"). Version 2
/// random 5 players seed 5122, 18xx id 617: at the Tuscan merge SFLi receives 30% of SFTG
/// against player 3's 20% president's certificate, and 18xx.games exchanges SFTG's odd share
/// for cash without asking anyone, where this engine asked player 3. This engine makes those
/// presidency changes when the merger is carried out (`follow_moved_holdings` in
/// [`execute`], so that a failed merger changes none); here they are looked ahead on a copy.
fn exchange_seat(state: &State, m: &Merger, h: &ShareOwner) -> Option<Seat> {
    if m.moved.is_none() || !matches!(h, ShareOwner::Corporation(_)) {
        return acting_seat(state, h);
    }
    let mut s = state.clone();
    follow_moved_holdings(&mut s, &m.target, &mut Vec::new());
    acting_seat(&s, h)
}

/// The holder asked about the presidency at `m.next`, and what he may do.
struct Asked {
    holder: ShareOwner,
    units: u32,
    /// He may claim the president's certificate and can pay for it.
    claim: bool,
    /// He may pay for a full share for his odd share and so reach 20% (R4).
    full: bool,
}

/// Whether `m.next` points into the sweep over odd shares (past the pairs sweep).
fn in_odd_sweep(m: &Merger) -> bool {
    m.next as usize >= m.holders.len()
}

/// The holder asked about the presidency at `m.next`; `None` when `m.next` points at nobody to
/// ask. 1841 §12.1: pairs first, then odd single shares (18xx.games `merger_next_exchange`:
/// pass 1 asks each holder of 20–30% of the old shares, pass 2 every holder of an odd old
/// share left after his pairs, a holder of 30% too, with one question — `cash`, `full`, or
/// `pres` while nobody presides).
/// * Claim: a player (or with `merger_presidency_for_companies` a corporation, FAQ-R6) with
///   fewer than 4 units who can pay [`claim_cost`]: in the pairs sweep for his whole holding
///   (× (40 − held%) ÷ 20); in the odd sweep for his odd share only (held 10%: 1.5 × the
///   price), keeping the new share of his pair (§12.1 pass 2 (c); 18xx `pres_upgrade_cost`
///   with the 10% left after pass 1).
/// * Full share (odd sweep, three units): with the new share of his pair he then holds 20%,
///   and "the first holder to accumulate 20% of the new corporation receives its president's
///   certificate" (§12.1; 18xx.games' exchange moves shares with `allow_president_change`,
///   players and corporations alike, `player_share_holders`). So a holder of 30% who pays
///   for a full share presides (divergences-import R4: `version_1-7p-s20003` id 208); one who
///   declines takes cash for his odd share (18xx: his single answer, `cash`).
///   Open to a player or a corporation with a controlling player who can pay half the price
///   and gets a new share for his pair (the pairs before his leave one).
fn asked(state: &State, m: &Merger) -> Option<Asked> {
    let len = m.holders.len();
    let i = m.next as usize % len.max(1);
    let h = m.holders.get(i)?;
    let u = *m.units.get(i)?;
    let odd_sweep = in_odd_sweep(m);
    let in_sweep = if odd_sweep { u % 2 == 1 } else { u >= 2 };
    if !in_sweep || u >= 4 {
        return None;
    }
    let price = new_price(m);
    let claim = may_claim(state, m, h)
        && holder_cash(state, h) >= claim_cost(price, if odd_sweep { 1 } else { u });
    let full = odd_sweep
        && u == 3
        && matches!(h, ShareOwner::Player(_) | ShareOwner::Corporation(_))
        && exchange_seat(state, m, h).is_some()
        && holder_cash(state, h) >= price.div_euclid(2)
        && gets_pair_share(state, m, i);
    (claim || full).then(|| Asked {
        holder: h.clone(),
        units: u,
        claim,
        full,
    })
}

/// Whether the holder at `i` receives a new share for a pair in the exchange of pairs: the
/// holders before him take one share per pair while the new corporation's ordinary shares
/// last (1841 §12.1).
fn gets_pair_share(state: &State, m: &Merger, i: usize) -> bool {
    let left = state.corporation(&m.target).map_or(0, |c| {
        c.certificates
            .iter()
            .filter(|x| x.owner == ShareOwner::Ipo && !x.president)
            .count()
    });
    let before: usize = m.units.iter().take(i).map(|&u| (u / 2) as usize).sum();
    left > before
}

/// A claim of the presidency in the sweep over odd shares, by the holder at `claimant`: the
/// holders before him in the order answered for their odd shares at their turns, while the
/// new corporation had no president (1841 §12.1: pass 2 goes through the holders in order;
/// 18xx.games `merger_next_exchange`). A corporation among them controlled only through
/// the new corporation had nobody to choose a full share for it and took cash (18xx: `:full`
/// only with `entity.player`); its answer is recorded now, played when its odd share comes
/// up. (Version 2 random 7 players seed 7176, 18xx id 901: SFLi, whose president's
/// certificate the merger had moved to the new CTDA, sold its odd SFTC share before player 4
/// claimed CTDA; this engine asked SFLi after the claim, of player 4.)
fn answered_without_president(state: &State, m: &mut Merger, claimant: usize) {
    let unpresided = (m.target.as_str(), &ShareOwner::Ipo);
    for i in 0..claimant.min(m.holders.len()) {
        let h = &m.holders[i];
        let ShareOwner::Corporation(c) = h else {
            continue;
        };
        if m.units.get(i).is_some_and(|u| u % 2 == 1)
            && !m.pass2.iter().any(|(x, _)| x == h)
            && crate::g1841::corporation::controller_with(state, Some(unpresided), c).is_none()
        {
            m.pass2.push((h.clone(), OddShareChoice::Cash));
        }
    }
}

/// Whether a holder of three units chose a full share in the odd sweep (R4): the merger goes
/// on with the president's certificate open until his odd share makes him president.
fn full_pending(m: &Merger) -> bool {
    m.pass2.iter().any(|(_, c)| *c == OddShareChoice::FullShare)
}

/// Applies a listed decision.
pub(super) fn apply(state: &mut State, mut m: Merger, action: &Action, events: &mut Vec<Event>) {
    match (m.stage, action) {
        (MergerStage::Price, Action::ChooseMergerPrice { price }) => {
            m.cell = m
                .price_choices
                .iter()
                .find(|c| cell_price(c) == *price)
                .copied();
            m.price_choices.clear();
            m.stage = MergerStage::Corporation;
        }
        (MergerStage::Corporation, Action::FormCorporation { corporation }) => {
            m.target = corporation.clone();
            begin_exchange(state, &mut m);
            if kind_of(state, &m.initiator) == CorporationKind::Major && !m.tuscan {
                // 18xx's `@merger_decider`: the initiator's player when the merger starts.
                let decider = controller(state, &m.initiator);
                move_assets(state, &mut m, decider);
            }
        }
        (MergerStage::Presidency, Action::ClaimPresidency { claim }) => {
            if *claim {
                let i = m.next as usize % m.holders.len().max(1);
                if in_odd_sweep(&m) {
                    answered_without_president(state, &mut m, i);
                }
                m.president = m.holders.get(i).cloned();
                m.claimed = true;
                if !settle_presidency(state, &mut m, events) {
                    return;
                }
            } else {
                // A holder of three units declining in the odd sweep takes cash for his odd
                // share (18xx: one answer, `cash`; see [`asked`]).
                if in_odd_sweep(&m)
                    && let Some(a) = asked(state, &m).filter(|a| a.units == 3)
                {
                    m.pass2.push((a.holder, OddShareChoice::Cash));
                }
                m.next += 1;
            }
        }
        (
            MergerStage::Presidency,
            Action::ExchangeOddShare {
                choice: OddShareChoice::FullShare,
            },
        ) => {
            // R4: a holder of three units pays for a full share and will hold 20% ([`asked`]).
            if let Some(a) = asked(state, &m).filter(|a| a.full) {
                m.pass2.push((a.holder, OddShareChoice::FullShare));
                if !settle_presidency(state, &mut m, events) {
                    return;
                }
            }
        }
        (MergerStage::OddShares, Action::ExchangeOddShare { choice }) => {
            let i = m.next as usize;
            if let Some(h) = m.holders.get(i).cloned() {
                odd_share(state, &mut m, i, &h, *choice, events);
            }
            m.next += 1;
        }
        (MergerStage::TwoCityTile, Action::RemoveToken { hex, city })
            if m.two_city.first().is_some_and(|t| t.hex == *hex) =>
        {
            m.two_city.remove(0);
            drop_target_token(state, &m, hex, *city, events);
        }
        (MergerStage::Tokens, Action::RemoveToken { hex, city }) => {
            remove_token(state, &mut m, hex, *city, events);
        }
        (MergerStage::Tokens, Action::Pass) => {
            m.tokens_max_removal = 0;
        }
        _ => {}
    }
    store(state, m);
}

/// Holders of the old corporations in order with their combined units (shares of one held by
/// the other do not take part).
fn old_holders(state: &State, m: &Merger, first: Seat) -> (Vec<ShareOwner>, Vec<u32>) {
    let olds = [m.initiator.clone(), m.partner.clone()];
    let is_old = |h: &ShareOwner| matches!(h, ShareOwner::Corporation(c) if olds.contains(c));
    let units = |h: &ShareOwner| -> u32 { olds.iter().map(|o| units_of(state, o, h)).sum() };
    let holders = holder_order(state, first, true, |h| !is_old(h) && units(h) > 0);
    let u = holders.iter().map(units).collect();
    (holders, u)
}

fn first_seat(state: &State, m: &Merger) -> Seat {
    controller(state, &m.initiator)
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0)
}

/// After the new corporation is chosen: majors go to the presidency stage; minors exchange
/// at once.
fn begin_exchange(state: &State, m: &mut Merger) {
    let first = first_seat(state, m);
    let (holders, units) = old_holders(state, m, first);
    m.holders = holders;
    m.units = units;
    m.next = 0;
    m.stage = MergerStage::Presidency;
}

/// Whether the merger, executed with `m.president`, would create circular control or leave
/// the new corporation frozen (1841 §12.1, FAQ-R1).
fn illegal_result(state: &State, m: &Merger) -> bool {
    // One simulated execution serves both checks (as
    // `corporation::creates_circular_control` on a copy, then the frozen test).
    let before = circular_set(state);
    let mut s = state.clone();
    let mut sim = m.clone();
    let mut ev = Vec::new();
    execute(&mut s, &mut sim, &mut ev);
    // R4: the holder of three units who chose a full share presides once his odd share is
    // exchanged.
    let full = sim
        .pass2
        .iter()
        .find(|(_, c)| *c == OddShareChoice::FullShare)
        .map(|(h, _)| h.clone());
    if let Some(h) = full
        && let Some(i) = sim.holders.iter().position(|x| *x == h)
    {
        odd_share(&mut s, &mut sim, i, &h, OddShareChoice::FullShare, &mut ev);
    }
    circular_set(&s).iter().any(|c| !before.contains(c)) || frozen(&s, &m.target)
}

/// The president is known (or nobody, at the end of the list): check the result, then
/// execute. Returns false when the merger failed (the event is gone).
fn settle_presidency(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) -> bool {
    if !m.tuscan && ((m.president.is_none() && !full_pending(m)) || illegal_result(state, m)) {
        // 18xx.games: "Cannot complete this merger without a president. Undo required." —
        // the whole merger is taken back, the moved assets and the discards included.
        if let Some(moved) = m.moved.take() {
            restore_assets(state, m, &moved);
        }
        events.push(Event::MergerFailed {
            initiator: m.initiator.clone(),
            partner: m.partner.clone(),
        });
        set_event(state, None);
        return false;
    }
    execute(state, m, events);
    // Settled: nothing is taken back any more.
    m.moved = None;
    true
}

/// Steps 2–4 of a merger (see the module documentation): assets, the new corporation, the
/// president's certificate and the pairs; then the odd shares wait.
fn execute(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
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

/// Step 2 of a merger (see the module documentation): the new corporation on its cell; cash,
/// trains and certificates of other corporations to the new corporation (1841 §12.1). The
/// shares of each old corporation held by the other stay where they are until the exchange
/// eliminates them ([`execute`]): so the old corporations keep their presidents, and the
/// initiator's controller, while the presidency is open (18xx.games moves them to the IPO at
/// once; nothing in the presidency stage depends on them).
fn place_and_move(state: &mut State, m: &Merger, cell: MarketCell) {
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
/// Tuscan merge its decider) while it has no president ([`super::super::discard_seat`]).
/// What moved is kept in `m.moved` for [`restore_assets`].
fn move_assets(state: &mut State, m: &mut Merger, decider: Option<Seat>) {
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
fn restore_assets(state: &mut State, m: &Merger, moved: &MovedAssets) {
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
fn tuscan_president_to_pool(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
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

fn odd_share(
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
fn follow_moved_holdings(state: &mut State, target: &str, events: &mut Vec<Event>) {
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

/// Steps 5–6 (tokens): the old map tokens become the new corporation's; a second one in the
/// same city is destroyed (the second corporation's, as 18xx.games' `merger_tokens_start`);
/// a second one in the other city of the same tile stays until the choice of stage
/// `TwoCityTile` (1841 §12.1), kept in `m.two_city`. Each such hex costs one token, once
/// (FAQ-C19; 18xx.games counts the two-city one twice, divergence
/// `merger-two-city-tile-duplicate-counted-twice`). Then the count N and the removal bounds,
/// as if the two-city choices were made (each leaves one token in its hex).
/// Tokens the Tuscan merge's holding owns after its first step (1841 §12.3: "up to 4 tokens";
/// 18xx `merger_tokens_finish`).
const HOLDING_TOKENS: u32 = 4;

fn transfer_tokens(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    let target = m.target.clone();
    let mut list: Vec<MapToken> = Vec::new();
    let mut two_city: Vec<MapToken> = Vec::new();
    let mut owned = 0u32;
    let mut charter = 0u32;
    let mut destroyed = 0u32;
    for old in [&m.initiator, &m.partner] {
        let Some(c) = state.corporation(old).cloned() else {
            continue;
        };
        owned += c.tokens_total;
        charter += c.tokens_total.saturating_sub(c.tokens.len() as u32);
        for t in &c.tokens {
            if list.iter().any(|x| x.hex == t.hex && x.city == t.city) {
                destroyed += 1;
                events.push(Event::TokenRemoved {
                    corporation: old.clone(),
                    hex: t.hex.clone(),
                    city: t.city,
                });
            } else if list.iter().any(|x| x.hex == t.hex) {
                // The other city of the same tile: one of the two goes, chosen later.
                destroyed += 1;
                if !two_city.iter().any(|x| x.hex == t.hex) {
                    two_city.push(t.clone());
                }
                list.push(t.clone());
            } else {
                list.push(t.clone());
            }
        }
        if let Some(c) = corp_mut(state, old) {
            c.tokens.clear();
        }
    }
    let rules = data::ruleset(&state.options);
    let max = rules.token_counts.major_max;
    let first_step = is_tuscan_first_step(m);
    let n = if m.tuscan {
        max
    } else if first_step {
        HOLDING_TOKENS
    } else {
        owned.saturating_sub(destroyed).clamp(2, max)
    };
    // Map tokens once every two-city choice is made.
    let on_map = (list.len() - two_city.len()) as u32;
    let min_removal = on_map.saturating_sub(n);
    let max_removal = if first_step {
        // 1841 §12.3: the holding simply keeps the map tokens (18xx `merger_tokens_finish`:
        // "just replace tokens and bring total to four").
        0
    } else if m.tuscan {
        // 1841 §12.3: SFLi keeps Pisa and Firenze and "the president decides which other
        // tokens stay on the map (the rest go to the charter)": any of them may go (18xx
        // `merger_tokens_finish`: at most every token outside Pisa and Firenze, at least
        // those beyond 5).
        let protected = rules.city_set("TUSCAN_TOKEN_HEXES");
        let in_protected = |t: &&MapToken| protected.contains(&t.hex);
        let kept =
            list.iter().filter(in_protected).count() - two_city.iter().filter(in_protected).count();
        on_map.saturating_sub(kept as u32).max(min_removal)
    } else {
        let keep_at_least = n.saturating_sub(charter).max(1);
        on_map.saturating_sub(keep_at_least).max(min_removal)
    };
    m.token_count = n;
    m.tokens_min_removal = min_removal;
    m.tokens_max_removal = max_removal;
    // 18xx's `@merger_decider`: the initiator's player when the merger began; in either
    // step of the Tuscan merge its decider, set when the step began ([`tuscan_merger`]).
    // The initiator is still in place here.
    if !(m.tuscan || first_step) || m.decider.is_none() {
        m.decider = m
            .moved
            .as_ref()
            .and_then(|x| x.decider)
            .or_else(|| controller(state, &m.initiator));
    }
    m.two_city = two_city;
    if let Some(c) = corp_mut(state, &target) {
        c.tokens_total = n.max(list.len() as u32);
        c.tokens = list;
    }
}

/// The seat choosing on a two-city tile (1841 §12.1: "the new president, or the initiator's
/// president if there is none"; 18xx.games: the new corporation when a player controls it,
/// else `@merger_decider`).
fn two_city_chooser(state: &State, m: &Merger) -> Option<Seat> {
    controller(state, &m.target).or(m.decider)
}

/// Whether `t` is the corporation's only base (of `bases`, [`track::bases`]): 18xx's
/// `RemoveTokens` keeps the last non-pass token ("Cannot remove last non-pass token").
fn is_last_base(bases: &[(String, usize, u32)], t: &MapToken) -> bool {
    bases.len() <= 1
        && bases
            .iter()
            .any(|(h, _, city)| *h == t.hex && *city == t.city)
}

/// The new corporation's tokens in `hex` that may be removed in stage `TwoCityTile`: both
/// cities' tokens, except the last non-pass token (18xx `RemoveTokens`: "Cannot remove last
/// non-pass token").
fn two_city_choices(state: &State, m: &Merger, hex: &str) -> Vec<MapToken> {
    let Some(c) = state.corporation(&m.target) else {
        return Vec::new();
    };
    let bases = track::bases(state, &m.target);
    c.tokens
        .iter()
        .filter(|t| t.hex == hex)
        .filter(|t| !is_last_base(&bases, t))
        .cloned()
        .collect()
}

/// Removes the new corporation's token in city `city` of `hex` (a two-city choice, or one
/// of [`remove_token`]'s).
fn drop_target_token(state: &mut State, m: &Merger, hex: &str, city: u32, events: &mut Vec<Event>) {
    if let Some(c) = corp_mut(state, &m.target)
        && let Some(i) = c.tokens.iter().position(|t| t.hex == hex && t.city == city)
    {
        c.tokens.remove(i);
        events.push(Event::TokenRemoved {
            corporation: m.target.clone(),
            hex: hex.to_string(),
            city,
        });
    }
}

/// The two-city choices nobody makes (no chooser; the first, automatic step of the Tuscan
/// merge): the second corporation's token goes, as this engine did before it asked.
fn auto_two_city(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    for t in std::mem::take(&mut m.two_city) {
        if let Some(c) = corp_mut(state, &m.target)
            && let Some(i) = c.tokens.iter().position(|x| *x == t)
        {
            c.tokens.remove(i);
            events.push(Event::TokenRemoved {
                corporation: m.partner.clone(),
                hex: t.hex.clone(),
                city: t.city,
            });
        }
    }
}

/// The seat removing tokens: the new president's controller, else the initiator's
/// (1841 §12.1); `None` → automatic (frozen SFLi, §12.3).
fn token_decider(state: &State, m: &Merger) -> Option<Seat> {
    if m.tuscan {
        return controller(state, &m.target);
    }
    controller(state, &m.target).or_else(|| controller(state, &m.initiator))
}

/// Map tokens of the new corporation that may be removed now: not in Pisa/Firenze for SFLi
/// (1841 §12.3), never the last non-pass token.
fn removable(state: &State, m: &Merger) -> Vec<MapToken> {
    if m.tokens_max_removal == 0 {
        return Vec::new();
    }
    let Some(c) = state.corporation(&m.target) else {
        return Vec::new();
    };
    let protected = if m.tuscan {
        data::ruleset(&state.options)
            .city_set("TUSCAN_TOKEN_HEXES")
            .to_vec()
    } else {
        Vec::new()
    };
    let bases = track::bases(state, &m.target);
    c.tokens
        .iter()
        .filter(|t| !protected.contains(&t.hex))
        .filter(|t| !is_last_base(&bases, t))
        .cloned()
        .collect()
}

fn remove_token(state: &mut State, m: &mut Merger, hex: &str, city: u32, events: &mut Vec<Event>) {
    drop_target_token(state, m, hex, city, events);
    m.tokens_min_removal = m.tokens_min_removal.saturating_sub(1);
    m.tokens_max_removal = m.tokens_max_removal.saturating_sub(1);
}

/// Automatic token removal of a frozen SFLi (1841 §12.3, FAQ-R4): only Pisa and Firenze stay
/// (or, with neither, the alphabetically first non-pass city).
fn auto_tokens(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    let protected = data::ruleset(&state.options)
        .city_set("TUSCAN_TOKEN_HEXES")
        .to_vec();
    let Some(c) = state.corporation(&m.target).cloned() else {
        return;
    };
    let mut keep: Vec<MapToken> = c
        .tokens
        .iter()
        .filter(|t| protected.contains(&t.hex))
        .cloned()
        .collect();
    if keep.is_empty() {
        let mut bases: Vec<(String, usize, u32)> = track::bases(state, &m.target);
        bases.sort();
        if let Some((h, _, city)) = bases.first() {
            keep.push(MapToken {
                hex: h.clone(),
                city: *city,
            });
        }
    }
    for t in &c.tokens {
        if !keep.contains(t) {
            events.push(Event::TokenRemoved {
                corporation: m.target.clone(),
                hex: t.hex.clone(),
                city: t.city,
            });
        }
    }
    if let Some(c) = corp_mut(state, &m.target) {
        c.tokens = keep;
    }
    m.tokens_max_removal = 0;
    m.tokens_min_removal = 0;
}

/// The end of a merger: the token count, the old corporations off the game, the new one's
/// place in the round.
fn finish(state: &mut State, m: &Merger, events: &mut Vec<Event>) {
    let target = m.target.clone();
    if let Some(c) = corp_mut(state, &target) {
        c.tokens_total = m.token_count.max(c.tokens.len() as u32);
    }
    if is_tuscan_first_step(m) {
        // 1841 §12.3: the holding and SSFL now merge into SFLi (18xx `merger_finish` →
        // `tuscan_merge_post_merge`).
        set_event(state, None);
        let first = m.decider.unwrap_or(0);
        tuscan_last_step(state, &target, first, m.joins_round);
        return;
    }
    let _ = events;
    if let Some(r) = round_mut(state)
        && !m.joins_round
        && !r.done.contains(&target)
    {
        r.done.push(target.clone());
    }
    set_event(state, None);
}

/// Runs the merger until a decision is needed; true when it is over (done or failed).
pub(super) fn advance(state: &mut State, mut m: Merger, events: &mut Vec<Event>) -> bool {
    for _ in 0..512 {
        match m.stage {
            MergerStage::Price | MergerStage::Corporation => {
                if decision(state, &m).is_some_and(|d| !d.actions.is_empty()) {
                    store(state, m);
                    return false;
                }
                // Nobody can decide (cannot happen for an eligible initiator): give up.
                events.push(Event::MergerFailed {
                    initiator: m.initiator.clone(),
                    partner: m.partner.clone(),
                });
                set_event(state, None);
                return true;
            }
            MergerStage::Presidency => {
                if kind_of(state, &m.initiator) == CorporationKind::Minor {
                    if illegal_result(state, &m) && !m.tuscan {
                        events.push(Event::MergerFailed {
                            initiator: m.initiator.clone(),
                            partner: m.partner.clone(),
                        });
                        set_event(state, None);
                        return true;
                    }
                    execute(state, &mut m, events);
                    continue;
                }
                let len = m.holders.len();
                if m.next as usize >= 2 * len {
                    m.president = None;
                    if !settle_presidency(state, &mut m, events) {
                        return true;
                    }
                    continue;
                }
                if m.next as usize == len && pool_takes_president(state, &m) {
                    // Nobody claimed in the pairs sweep and the pool's pairs take the
                    // certificate: no single share can claim it; the merger fails (the
                    // Tuscan merge goes on, [`president_by_run_out`]).
                    m.president = None;
                    if !settle_presidency(state, &mut m, events) {
                        return true;
                    }
                    continue;
                }
                let i = m.next as usize % len.max(1);
                let u = m.units.get(i).copied().unwrap_or(0);
                if (m.next as usize) < len && u >= 4 && m.holders[i] != ShareOwner::Pool {
                    m.president = Some(m.holders[i].clone());
                    m.claimed = false;
                    if !settle_presidency(state, &mut m, events) {
                        return true;
                    }
                    continue;
                }
                if asked(state, &m).is_some() {
                    store(state, m);
                    return false;
                }
                m.next += 1;
            }
            MergerStage::OddShares => {
                let i = m.next as usize;
                let Some(h) = m.holders.get(i).cloned() else {
                    tuscan_president_to_pool(state, &mut m, events);
                    m.stage = MergerStage::TwoCityTile;
                    m.next = 0;
                    continue;
                };
                if m.units.get(i).copied().unwrap_or(0) == 0 {
                    m.next += 1;
                    continue;
                }
                if h == ShareOwner::Pool {
                    // The pool's odd share is discarded.
                    m.units[i] = 0;
                    m.next += 1;
                    continue;
                }
                if let Some(k) = m.pass2.iter().position(|(x, _)| *x == h) {
                    // Answered in the odd sweep ([`asked`]): kept until played, so that a
                    // pending full share keeps the certificate open ([`president_open`]).
                    let choice = m.pass2[k].1;
                    odd_share(state, &mut m, i, &h, choice, events);
                    m.pass2.remove(k);
                    m.next += 1;
                    continue;
                }
                let half = new_price(&m).div_euclid(2);
                let can_full = ipo_share_left(state, &m.target) && holder_cash(state, &h) >= half;
                if can_full && acting_seat(state, &h).is_some() {
                    store(state, m);
                    return false;
                }
                odd_share(state, &mut m, i, &h, OddShareChoice::Cash, events);
                m.next += 1;
            }
            MergerStage::TwoCityTile => {
                if m.two_city.is_empty() {
                    m.stage = MergerStage::Tokens;
                    continue;
                }
                if decision(state, &m).is_some_and(|d| !d.actions.is_empty()) {
                    store(state, m);
                    return false;
                }
                // Nobody to choose: the second corporation's token goes.
                auto_two_city(state, &mut m, events);
            }
            MergerStage::Tokens => {
                if m.tokens_max_removal == 0 || removable(state, &m).is_empty() {
                    finish(state, &m, events);
                    return true;
                }
                if token_decider(state, &m).is_none() {
                    auto_tokens(state, &mut m, events);
                    continue;
                }
                store(state, m);
                return false;
            }
        }
    }
    store(state, m);
    false
}

// ----- the Tuscan merge (1841 §12.3) ----------------------------------------------------

/// Starts the Tuscan merge: with fewer than two of SFLP, SFMA, SSFL started nothing happens
/// and SFLi closes; otherwise the participant with the best stock value leads it. SFLP + SFMA
/// merge (minor merger) into a holding major (the first unstarted non-historical major, else
/// `Holding`) with 4 tokens, or the one of them present transforms into it with 2 tokens;
/// then the holding and SSFL merge into SFLi (the last step, with the usual choices but no
/// failure). Without SSFL, SFLP + SFMA merge into SFLi directly.
pub(super) fn begin_tuscan(state: &mut State, events: &mut Vec<Event>) {
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
fn is_tuscan_first_step(m: &Merger) -> bool {
    !m.tuscan && m.holding.as_deref() == Some(m.target.as_str())
}

/// The last step of the Tuscan merge (1841 §12.3): the holding and SSFL merge into SFLi,
/// decided by `first` (the Tuscan merge's decider) where nobody presides.
pub(super) fn tuscan_last_step(state: &mut State, holding: &str, first: Seat, joins_round: bool) {
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
