//! The corporate share step (1841 §9.7): corporations selling and buying certificates.

use super::super::sale;
use super::*;

/// Corporate sales possible now (1841 §9.7): the operating corporation's own IPO shares
/// (issuing) or certificates it holds of other corporations, of corporations that have
/// operated, in unit steps while the pool stays within 50%. A corporation holding another's
/// president's certificate sells under the limits of a player's sale (§9.7 "same limits as
/// player sales", §5.3): beyond its ordinary certificates only when the presidency may change
/// (§7.5: not a historical corporation before phase 4) and another holder has at least the
/// president's certificate's percent to take it ([`dump_successor`]), and not when that
/// would put a corporation under circular control (§7.4, FAQ-R1). 18xx.games
/// (`G1841::Step::CorporateBuySellParShares`) offers such a sale too: `bundles_for_corporation`
/// includes the president's certificate, `can_dump?` asks for a holder of 20% (v2 4 players
/// seed 4014, id 645: SFTG, holding CGTF's president's certificate while its controller
/// controls 70% of CGTF, must sell CGTF).
pub(super) fn sell_options(state: &State) -> Vec<Action> {
    sell_options_up_to(state, usize::MAX)
}

/// Whether [`sell_options`] lists anything (found at the first sale).
pub(super) fn has_sell_option(state: &State) -> bool {
    !sell_options_up_to(state, 1).is_empty()
}

/// The first `limit` of [`sell_options`], in its order.
fn sell_options_up_to(state: &State, limit: usize) -> Vec<Action> {
    let Some(r) = round(state) else {
        return Vec::new();
    };
    let Some(sym) = r.current.as_deref() else {
        return Vec::new();
    };
    if r.step != OperatingStep::Shares {
        return Vec::new();
    }
    sales_of(state, sym, None, limit)
}

/// Whether corporation `sym` could sell a certificate under [`sell_options`]' limits, were it
/// in its share step with a controller, `operated` saying whether it had finished an
/// operating turn before this one (its own shares are sold only then): for the export of a
/// corporation frozen mid-turn, whose share step 18xx.games opens anyway
/// (`G1841::Step::CorporateBuySellParShares` lists `sell_shares` when `can_sell_any?`;
/// version_1 random 5 players seed 5144, 18xx id 277: IFAI, frozen under SFLi by the Tuscan
/// merge its 4-train began, may issue its own shares; p2p_purchases heuristic 4 players seed
/// 4001, id 541: CFCC, frozen under SB in its first turn, may not).
pub(in crate::g1841) fn could_sell_any(state: &State, sym: &str, operated: bool) -> bool {
    !sales_of(state, sym, Some(operated), 1).is_empty()
}

/// The first `limit` sales of corporation `sym` in [`sell_options`]' order (`operated`:
/// whether `sym` counts as having operated, its own flag when `None`).
fn sales_of(state: &State, sym: &str, operated: Option<bool>, limit: usize) -> Vec<Action> {
    let mut out = Vec::new();
    let pool_max = data::ruleset(&state.options).bank_pool_max_percent;
    let as_holder = ShareOwner::Corporation(sym.to_string());
    for corp in &state.corporations {
        let has_operated = match operated {
            Some(o) if corp.sym == sym => o,
            _ => corp.operated,
        };
        if !corp.started() || !has_operated {
            continue;
        }
        let holder = if corp.sym == sym {
            &ShareOwner::Ipo
        } else {
            &as_holder
        };
        // All it holds, and its ordinary certificates of it.
        let (mut held, mut normal) = (0u32, 0u32);
        for c in corp.certificates.iter().filter(|c| c.owner == *holder) {
            held += c.percent;
            if !c.president {
                normal += c.percent;
            }
        }
        // Beyond its ordinary certificates only by handing the presidency over.
        let dump = || {
            held > normal
                && dump_successor(state, corp, holder).is_some_and(|new| {
                    !super::super::corporation::presidency_creates_circular_control(
                        state,
                        &corp.sym,
                        &new,
                        &super::super::corporation::circular_set(state),
                    )
                })
        };
        let most = if held > normal && dump() {
            held
        } else {
            normal
        };
        let room = pool_max.saturating_sub(corp.pool_percent());
        let unit = corp.unit_percent();
        let mut p = unit;
        while p <= most && p <= room {
            out.push(Action::SellShares {
                corporation: corp.sym.clone(),
                percent: p,
            });
            if out.len() >= limit {
                return out;
            }
            p += unit;
        }
    }
    out
}

/// Who takes the presidency of `corp` when its president `seller` (a corporation) sells
/// part of its president's certificate (1841 §5.3, §7.5, §9.7): the largest other holding
/// of at least the president's certificate's percent, players and corporations, ties to the
/// first in 18xx's order after a corporation president (`player_distance_for_president`:
/// the players in seat order from the first, then the corporations); `None` when the
/// presidency may not change (a historical corporation before phase 4) or nobody holds
/// enough.
pub(super) fn dump_successor(
    state: &State,
    corp: &super::super::state::Corporation,
    seller: &ShareOwner,
) -> Option<ShareOwner> {
    if corp.president() != Some(seller)
        || !super::super::corporation::presidency_may_change(state, corp)
    {
        return None;
    }
    let pres_percent = 2 * corp.unit_percent();
    let first = state.player_order.first().copied().unwrap_or(0);
    let mut best: Option<(usize, &ShareOwner, u32)> = None;
    for (rank, holder, p) in super::super::corporation::ranked_holders(state, corp, first) {
        if holder != seller
            && p >= pres_percent
            && best.is_none_or(|(r, _, b)| p > b || (p == b && rank < r))
        {
            best = Some((rank, holder, p));
        }
    }
    best.map(|(_, holder, _)| holder.clone())
}

/// Why the operating corporation must sell before it may buy, start a corporation or pass in
/// its share step, if it must (18xx `must_sell?` of the corporate share step): it can sell a
/// certificate of a corporation
/// * of which its controlling player controls more than 60% — his own holdings plus those of
///   every corporation he controls (1841 §7.3; FAQ-C7: he must get back under the limit at
///   his next stock-round turn or the next share step of one of his corporations, whichever
///   comes first; FAQ-Q11: it sells even if he stays over 60% afterwards, and it need not
///   give up a corporation that holds the shares in its place);
/// * that is in its own chain of control (1841 §7.1, §9.7 forbid buying such shares; 18xx
///   `must_sell?` makes a corporation holding some sell them);
///
/// or it holds more certificates of other corporations than it may (5, 1841 §9.7) and can sell
/// any. `None` when nothing can be sold (the duty waits for a share step where it can).
pub fn must_sell(state: &State) -> Option<String> {
    let r = round(state)?;
    let sym = r.current.as_deref()?;
    if r.step != OperatingStep::Shares || r.start.is_some() {
        return None;
    }
    let sales = sell_options(state);
    if sales.is_empty() {
        return None;
    }
    let rules = data::ruleset(&state.options);
    let owner = ShareOwner::Corporation(sym.to_string());
    let held = state
        .corporations
        .iter()
        .flat_map(|c| c.certificates.iter())
        .filter(|c| c.owner == owner)
        .count() as u32;
    let max_held = rules.corporation_max_certificates_of_other_corporations;
    if held > max_held {
        return Some(format!(
            "{sym} holds {held} certificates of other corporations, more than {max_held}: it \
             must sell first (1841 §9.7)."
        ));
    }
    let seat = controller(state, sym);
    let max = rules.max_percent_controlled_by_one_player;
    let chain = super::super::corporation::chain(state, sym);
    for corp in &state.corporations {
        if corp.sym == sym
            || !sales.iter().any(
                |a| matches!(a, Action::SellShares { corporation, .. } if *corporation == corp.sym),
            )
        {
            continue;
        }
        if let Some(seat) = seat {
            let controlled = super::super::corporation::controlled_percent_of(state, seat, corp);
            if controlled > max {
                return Some(format!(
                    "Seat {seat}, who controls {sym}, controls {controlled}% of {} (his own \
                     shares and his corporations'), more than {max}%: {sym} must sell its {} \
                     shares first (1841 §7.3, FAQ-C7, FAQ-Q11).",
                    corp.sym, corp.sym
                ));
            }
        }
        if chain.contains(&corp.sym) {
            return Some(format!(
                "{} controls {sym}, which may not hold its shares: {sym} must sell them first \
                 (1841 §9.7).",
                corp.sym
            ));
        }
    }
    None
}

/// Records that corporation `seller` sold certificates of `corporation` in this operating
/// round (FAQ-R5: with `no_corporate_rebuy_after_sale` it may not buy them again in this
/// round, emergency sales included); nothing without the option.
pub(super) fn record_corporate_sale(state: &mut State, seller: &str, corporation: &str) {
    if !state.options.no_corporate_rebuy_after_sale() {
        return;
    }
    if let Some(r) = round_mut(state)
        && !r
            .corporate_sales
            .iter()
            .any(|s| s.seller == seller && s.corporation == corporation)
    {
        r.corporate_sales.push(CorporateSale {
            seller: seller.to_string(),
            corporation: corporation.to_string(),
        });
    }
}

/// Whether `buyer` sold certificates of `target` earlier in this operating round (FAQ-R5,
/// `no_corporate_rebuy_after_sale`; always false without the option).
pub fn sold_this_operating_round(state: &State, buyer: &str, target: &str) -> bool {
    state.options.no_corporate_rebuy_after_sale()
        && round(state).is_some_and(|r| {
            r.corporate_sales
                .iter()
                .any(|s| s.seller == buyer && s.corporation == target)
        })
}

/// Sells `percent` of `target` held by `seller` (its IPO when `target == seller`) to the pool
/// at the current price; the price drops one row per unit (1841 §9.7, §5.3;
/// [`sale::drop_after_sale`]) — at once, or, with `price_drops_lowest_first` (FAQ-Q2), when
/// the corporation's selling ends (a purchase, a start, a pass, the end of the step:
/// [`sale::selling_ends`]).
pub(super) fn sell_share(
    state: &mut State,
    seller: &str,
    target: &str,
    percent: u32,
    events: &mut Vec<Event>,
) {
    let holder = if target == seller {
        ShareOwner::Ipo
    } else {
        ShareOwner::Corporation(seller.to_string())
    };
    // A sale beyond its ordinary certificates first hands its president's certificate to
    // the successor, for two of his shares (1841 §5.3, §9.7; 18xx `transfer_shares` with a
    // partial president's bundle).
    let normal: u32 = state.corporation(target).map_or(0, |t| {
        t.certificates
            .iter()
            .filter(|c| c.owner == holder && !c.president)
            .map(|c| c.percent)
            .sum()
    });
    if percent > normal
        && let Some(new) = state
            .corporation(target)
            .and_then(|t| dump_successor(state, t, &holder))
        && let Some(t) = state.corporation_mut(target)
    {
        super::super::corporation::swap_presidency_of(t, &holder, &new);
        events.push(match &new {
            ShareOwner::Player(s) => Event::PresidentChanged {
                corporation: target.to_string(),
                seat: *s,
            },
            other => Event::PresidencyMoved {
                corporation: target.to_string(),
                president: other.clone(),
            },
        });
    }
    let Some(t) = state.corporation_mut(target) else {
        return;
    };
    let Some(price) = t.price() else { return };
    let unit = t.unit_percent();
    let units = percent / unit;
    let mut left = units;
    for c in t.certificates.iter_mut() {
        if left > 0 && c.owner == holder && !c.president && c.percent == unit {
            c.owner = ShareOwner::Pool;
            left -= 1;
        }
    }
    let proceeds = price.saturating_mul(i64::from(units - left));
    state.bank_cash -= proceeds;
    if let Some(s) = state.corporation_mut(seller) {
        s.cash += proceeds;
    }
    events.push(Event::CorporationSoldShares {
        seller: seller.to_string(),
        corporation: target.to_string(),
        percent,
        price: proceeds,
    });
    if let Some(r) = round_mut(state) {
        // The sale re-reads the operating order (FAQ-Q13; 18xx `recalculate_order`).
        r.split_slot = None;
    }
    sale::drop_after_sale(state, target, units, sale::Unmoved::Reported, events);
    if let Some(r) = round_mut(state)
        && !r.sold.iter().any(|s| s == target)
    {
        r.sold.push(target.to_string());
    }
    record_corporate_sale(state, seller, target);
    // 1841 §5.3, §7.5, §9.7 (a corporation sells under the limits of a player's sale): a sale
    // that leaves another holder with more than the selling president hands the presidency
    // over (18xx `sell_shares_and_change_price` with `allow_president_change:
    // pres_change_ok?`; lite heuristic 3 players seed 3003, id 631: CFCC, president of ATFA,
    // sells its second 10% and Player 3's 30% takes ATFA). Issuing its own IPO shares moves
    // no holding.
    if target != seller {
        let acting = controller(state, seller);
        super::super::corporation::update_presidency(state, target, acting, events);
    }
}

/// A frozen corporation under circular control sells, at the market price with the usual
/// drops, every certificate it holds of the other corporations of its loop (1841 §7.4,
/// FAQ-Q23), in the loop's order: one selling, whose drops are made at its end with
/// `price_drops_lowest_first` (FAQ-Q2, [`sale::selling_ends`]).
pub(super) fn sell_out_of_loop(state: &mut State, sym: &str, events: &mut Vec<Event>) {
    let holder = ShareOwner::Corporation(sym.to_string());
    for target in super::super::corporation::chain(state, sym) {
        if target != sym
            && state
                .corporation(&target)
                .is_some_and(|t| t.percent_of(&holder) > 0)
        {
            sell_all(state, sym, &target, events);
        }
    }
    sale::selling_ends(state, events);
}

/// Sells every certificate of `target` that `seller` holds to the pool at the market price,
/// the price dropping one row per unit, the president's certificate included (1841 §7.4: a
/// frozen corporation under circular control selling out of its loop, FAQ-Q23); then the
/// presidency rule. The drop: [`sale::drop_after_sale`] (with `price_drops_lowest_first`,
/// FAQ-Q2, made once the frozen corporation has sold out of its loop).
fn sell_all(state: &mut State, seller: &str, target: &str, events: &mut Vec<Event>) {
    let holder = ShareOwner::Corporation(seller.to_string());
    let Some(t) = state.corporation_mut(target) else {
        return;
    };
    let Some(price) = t.price() else { return };
    let unit = t.unit_percent();
    let mut percent = 0;
    for c in t.certificates.iter_mut().filter(|c| c.owner == holder) {
        c.owner = ShareOwner::Pool;
        percent += c.percent;
    }
    let units = percent / unit;
    let proceeds = price.saturating_mul(i64::from(units));
    state.bank_cash -= proceeds;
    if let Some(s) = state.corporation_mut(seller) {
        s.cash += proceeds;
    }
    events.push(Event::CorporationSoldShares {
        seller: seller.to_string(),
        corporation: target.to_string(),
        percent,
        price: proceeds,
    });
    sale::drop_after_sale(state, target, units, sale::Unmoved::Reported, events);
    record_corporate_sale(state, seller, target);
    super::super::corporation::update_presidency(state, target, None, events);
}

/// Corporate share purchases possible now (1841 §9.7): a non-historical corporation to start
/// from phase 3 (§3.4: par prices it can pay twice from its treasury) or one certificate of another
/// corporation from its IPO or the pool, at market price, from the treasury; never itself
/// or a corporation in its own chain of control; at most 5 certificates of others; the
/// controlling player's 60% limit; the president's certificate from the pool only for
/// non-historical corporations or from phase 4; not a corporation it sold this turn (18xx)
/// or, with `no_corporate_rebuy_after_sale`, earlier in this operating round (FAQ-R5); with
/// `no_cross_border_corporate_shares` (FAQ-V3) not a corporation with a token across an
/// active border from one of its own ([`across_border_in`]).
pub(super) fn share_options(state: &State) -> Vec<Action> {
    share_options_up_to(state, usize::MAX, false, Wanted::All)
}

/// Whether [`share_options`] lists anything (the cheaper purchases are looked at first).
pub(super) fn has_share_option(state: &State) -> bool {
    !share_options_up_to(state, 1, true, Wanted::All).is_empty()
}

/// What the share step lists of `action`'s kind and corporation: for a `SellShares` the
/// sales ([`sell_options`]), for a `BuyShares` the purchases of certificates of its
/// corporation, for a `Par` the starts of its corporation ([`share_options`] narrowed);
/// `None` for another action. `action` is listed in the share step exactly when it is in this
/// list (an action of another kind or corporation is never equal to it), so [`apply`] judges
/// these actions without listing the whole step (1841 §9.7).
pub(super) fn share_step_listing_of(state: &State, action: &Action) -> Option<Vec<Action>> {
    match action {
        Action::SellShares { .. } => Some(sell_options(state)),
        Action::BuyShares { corporation, .. } => Some(share_options_up_to(
            state,
            usize::MAX,
            false,
            Wanted::Certificate(corporation),
        )),
        Action::Par { corporation, .. } => Some(share_options_up_to(
            state,
            usize::MAX,
            false,
            Wanted::Start(corporation),
        )),
        _ => None,
    }
}

/// Which options [`share_options_up_to`] looks at.
#[derive(Clone, Copy, Debug)]
enum Wanted<'a> {
    /// Every start and purchase.
    All,
    /// The starts of this corporation alone.
    Start(&'a str),
    /// The purchases of certificates of this corporation alone.
    Certificate(&'a str),
}

/// The first `limit` of [`share_options`], in its order — or, with `only_whether`, some of
/// them in another order (for [`has_share_option`]): the purchases of certificates before the
/// starts, the targets in list order instead of operating order (whether a purchase exists
/// does not depend on the order; sorting them costs more than looking at them). `wanted`
/// leaves out the options of other kinds or corporations.
fn share_options_up_to(
    state: &State,
    limit: usize,
    only_whether: bool,
    wanted: Wanted,
) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(r) = round(state) else { return out };
    let Some(sym) = r.current.clone() else {
        return out;
    };
    if r.step != OperatingStep::Shares {
        return out;
    }
    let Some(buyer) = state.corporation(&sym) else {
        return out;
    };
    let Some(seat) = controller(state, &sym) else {
        return out;
    };
    let rules = data::ruleset(&state.options);
    let owner = ShareOwner::Corporation(sym.clone());
    let held: u32 = state
        .corporations
        .iter()
        .flat_map(|c| c.certificates.iter())
        .filter(|c| c.owner == owner)
        .count() as u32;
    if held >= rules.corporation_max_certificates_of_other_corporations {
        return out;
    }
    // 1841 §3.4, §9.7: start a non-historical corporation — the president's certificate at
    // 2× par from the treasury.
    let starts = |out: &mut Vec<Action>| {
        // No par price the treasury can pay twice: no start, whichever corporation (the
        // home-city search of the startable ones is the costly part).
        let affordable = |kind| {
            market::par_prices(state, kind)
                .iter()
                .any(|p| p.saturating_mul(2) <= buyer.cash)
        };
        if !affordable(CorporationKind::Minor) && !affordable(CorporationKind::Major) {
            return;
        }
        let startable = match wanted {
            Wanted::All => super::super::start::startable_non_historical(state),
            Wanted::Start(c) => {
                if super::super::start::non_historical_startable(state, c) {
                    vec![c]
                } else {
                    Vec::new()
                }
            }
            Wanted::Certificate(_) => return,
        };
        for sym in startable {
            let Some(corp) = state.corporation(sym) else {
                continue;
            };
            for price in market::par_prices(state, corp.kind) {
                if price.saturating_mul(2) <= buyer.cash {
                    out.push(Action::Par {
                        corporation: corp.sym.clone(),
                        price,
                    });
                    if out.len() >= limit {
                        return;
                    }
                }
            }
        }
    };
    let purchases = |out: &mut Vec<Action>| {
        if matches!(wanted, Wanted::Start(_)) {
            return;
        }
        // The chain of control above the buyer.
        let mut chain: smallvec::SmallVec<[&str; 4]> = smallvec::smallvec![sym.as_str()];
        let mut cur = buyer;
        for _ in 0..state.corporations.len() {
            match cur.president() {
                Some(ShareOwner::Corporation(c)) if !chain.contains(&c.as_str()) => {
                    chain.push(c);
                    match state.corporation(c) {
                        Some(next) => cur = next,
                        None => break,
                    }
                }
                _ => break,
            }
        }
        let regions = state
            .options
            .no_cross_border_corporate_shares()
            .then(|| border_regions(state));
        // The started corporations (those with a market position), in operating order.
        let targets: Vec<&super::super::state::Corporation> = if let Wanted::Certificate(c) = wanted
        {
            state
                .corporation(c)
                .filter(|t| t.share_price.is_some())
                .into_iter()
                .collect()
        } else if only_whether {
            state
                .corporations
                .iter()
                .filter(|c| c.share_price.is_some())
                .collect()
        } else {
            market::operating_order_of(state)
                .into_iter()
                .filter_map(|target| state.corporation(target))
                .collect()
        };
        for t in targets {
            let target = t.sym.as_str();
            if chain.contains(&target)
                || r.sold.iter().any(|c| c == target)
                || sold_this_operating_round(state, &sym, target)
                || regions
                    .as_ref()
                    .is_some_and(|g| across_border_in(g, state, &sym, target))
            {
                continue;
            }
            let Some(price) = t.price() else { continue };
            for from_pool in [false, true] {
                let owner = if from_pool {
                    ShareOwner::Pool
                } else {
                    ShareOwner::Ipo
                };
                // The certificate sizes on offer, ascending, each once.
                let mut sizes: smallvec::SmallVec<[u32; 4]> = smallvec::SmallVec::new();
                for c in &t.certificates {
                    if c.owner != owner {
                        continue;
                    }
                    if c.president && (!from_pool || (t.historical && phase_number(state) < 4)) {
                        continue;
                    }
                    if let Err(at) = sizes.binary_search(&c.percent) {
                        sizes.insert(at, c.percent);
                    }
                }
                let mut controlled = None;
                for percent in sizes {
                    let cost = price.saturating_mul(i64::from(percent / t.unit_percent()));
                    if cost > buyer.cash {
                        continue;
                    }
                    let controlled = *controlled.get_or_insert_with(|| {
                        super::super::corporation::controlled_percent_of(state, seat, t)
                    });
                    if controlled + percent > rules.max_percent_controlled_by_one_player {
                        continue;
                    }
                    out.push(Action::BuyShares {
                        corporation: target.to_string(),
                        from_pool,
                        percent,
                    });
                    if out.len() >= limit {
                        return;
                    }
                }
            }
        }
    };
    if only_whether {
        purchases(&mut out);
        if out.len() < limit {
            starts(&mut out);
        }
    } else {
        starts(&mut out);
        if out.len() < limit {
            purchases(&mut out);
        }
    }
    out
}

/// A corporation buys one certificate (1841 §9.7): IPO price to the target's treasury, pool
/// price to the bank.
pub(super) fn buy_share(
    state: &mut State,
    buyer: &str,
    target: &str,
    from_pool: bool,
    percent: u32,
    events: &mut Vec<Event>,
) {
    let owner = if from_pool {
        ShareOwner::Pool
    } else {
        ShareOwner::Ipo
    };
    let Some(t) = state.corporation_mut(target) else {
        return;
    };
    let Some(price) = t.price() else { return };
    let cost = price.saturating_mul(i64::from(percent / t.unit_percent()));
    let Some(idx) = t
        .certificates
        .iter()
        .position(|c| c.owner == owner && c.percent == percent && !c.president)
        .or_else(|| {
            t.certificates
                .iter()
                .position(|c| c.owner == owner && c.percent == percent)
        })
    else {
        return;
    };
    t.certificates[idx].owner = ShareOwner::Corporation(buyer.to_string());
    if from_pool {
        state.bank_cash += cost;
    } else {
        t.cash += cost;
    }
    if let Some(b) = state.corporation_mut(buyer) {
        b.cash -= cost;
    }
    events.push(Event::CorporationBoughtShares {
        buyer: buyer.to_string(),
        corporation: target.to_string(),
        percent,
        from_pool,
        price: cost,
    });
    // 1841 §7.5: a corporation holding more than the president takes over (its own chain is
    // never bought, so no mutual control arises, §9.7).
    let acting = controller(state, buyer);
    super::super::corporation::update_presidency(state, target, acting, events);
}

/// The operating corporation `starter` starts `target` at `price` (1841 §3.4, §5.4 step 1,
/// §9.7): it pays 2× par from its treasury into the new treasury and holds the president's
/// certificate; the start then runs through [`super::super::start`]. The new corporation does
/// not operate in this operating round (observed in the recorded games: AFI, ATFA and IFAI
/// started in OR 2.1 of the bank game first operate in OR 3.1).
pub(super) fn start_corporation(
    state: &mut State,
    seat: Seat,
    starter: &str,
    target: &str,
    price: i64,
    events: &mut Vec<Event>,
) {
    let Some(kind) = state.corporation(target).map(|c| c.kind) else {
        return;
    };
    let Some((row, col)) = market::par_cell(price, kind) else {
        return;
    };
    let cost = price.saturating_mul(2);
    if let Some(s) = state.corporation_mut(starter) {
        s.cash -= cost;
    }
    market::set_cell(state, target, row, col);
    if let Some(t) = state.corporation_mut(target) {
        t.cash += cost;
        t.par_price = price;
        for c in t.certificates.iter_mut().filter(|c| c.president) {
            c.owner = ShareOwner::Corporation(starter.to_string());
        }
    }
    if let Some(r) = round_mut(state) {
        r.done.push(target.to_string());
    }
    events.push(Event::CorporationStarted {
        seat,
        corporation: target.to_string(),
        price,
        by_corporation: Some(starter.to_string()),
    });
    super::super::start::open(state, target);
    super::super::start::after_buy(state, target, events);
}
