//! Emergency money raising and bankruptcy (1841 §14).
//!
//! A corporation that must buy a train (§9.6: no train and a route) but cannot pay the
//! cheapest depot or pool train from its treasury raises the money through its chain of
//! control: first the corporation itself, then the corporation controlling it, and so on, then
//! the controlling player. Each contributes its cash; each corporation sells at half price,
//! first certificates of other corporations it holds, then its own IPO shares (with
//! `emergency_sales_unrestricted`, FAQ-C13: either, in any order); then the player sells his
//! own certificates at half price. A corporation, like the player, may dump a presidency it
//! holds outside the needy chain (1841 §5.3; FAQ-C13: "even its president's certificate, into
//! the pool"). A sale is offered only while it is needed (its bundle less
//! one share would not cover the shortfall). Proceeds are rounded once per sale
//! ([`half_price_proceeds`]: up as 18xx, or down with `half_price_round_down`, FAQ-Q21). With
//! `no_corporate_rebuy_after_sale` (FAQ-R5) a corporation's emergency sales are recorded for
//! the rest of the operating round: it may not buy those corporations' shares again in it.
//! The purchase is then the cheapest depot or pool
//! train, paid from the treasury first, then from the chain's cash, then the player's. Before
//! any emergency sale the corporation may still buy a train from another corporation with its
//! own treasury (§9.6). When even selling everything cannot raise the price, the player may
//! declare bankruptcy (resign or take a L.500 loan).

use super::super::corporation::swap_presidency;
use super::super::corporation::{largest_other_holding, presidency_may_change};
use super::super::sale;
use super::super::start::half_price_proceeds;
use super::super::state::Corporation;
use super::super::stock_round::{successor, update_presidency};
use super::*;

/// The cheapest depot or pool train as `(train id, from, price)` (1841 §14: the train an
/// emergency must buy); the depot train first on equal prices.
pub(super) fn cheapest_train(state: &State) -> Option<(String, String, i64)> {
    let mut best = depot_train(state).map(|(id, p)| (id, "depot".to_string(), p));
    for id in &state.operations.pool_trains {
        let p = train_price(state, id);
        if best.as_ref().is_none_or(|b| p < b.2) {
            best = Some((id.clone(), "pool".to_string(), p));
        }
    }
    best
}

/// Whether the operating corporation is in emergency money raising now (1841 §14): in its
/// train step it must buy a train and cannot pay the cheapest depot/pool train from its
/// treasury, or it has already made an emergency sale this turn and not yet bought.
pub fn in_emergency(state: &State) -> bool {
    in_emergency_with(state, &track::LazyBoard::new())
}

/// [`in_emergency`] on a board of the state.
pub(super) fn in_emergency_with(state: &State, board: &track::LazyBoard) -> bool {
    let Some(r) = round(state) else { return false };
    let Some(sym) = r.current.as_deref() else {
        return false;
    };
    if r.step != OperatingStep::Trains
        || r.start.is_some()
        || !must_buy_train_with(state, board, sym)
    {
        return false;
    }
    let cash = state.corporation(sym).map_or(0, |c| c.cash);
    // Once an emergency sale is made, the emergency lasts until the train is bought.
    r.emergency || cheapest_train(state).is_some_and(|(_, _, p)| cash < p)
}

/// Who raises money, in order (1841 §14): the needy corporation, the corporations above it in
/// its chain of control, then the controlling player.
fn raisers(state: &State, sym: &str) -> Vec<ShareOwner> {
    let mut out = vec![ShareOwner::Corporation(sym.to_string())];
    let mut cur = sym.to_string();
    for _ in 0..state.corporations.len() {
        match state.corporation(&cur).and_then(|c| c.president()) {
            Some(ShareOwner::Corporation(c))
                if !out.contains(&ShareOwner::Corporation(c.clone())) =>
            {
                out.push(ShareOwner::Corporation(c.clone()));
                cur = c.clone();
            }
            Some(ShareOwner::Player(s)) => {
                out.push(ShareOwner::Player(*s));
                break;
            }
            _ => break,
        }
    }
    out
}

fn cash_of(state: &State, owner: &ShareOwner) -> i64 {
    match owner {
        ShareOwner::Corporation(c) => state.corporation(c).map_or(0, |c| c.cash),
        ShareOwner::Player(s) => state.player(*s).map_or(0, |p| p.cash),
        ShareOwner::Ipo | ShareOwner::Pool => 0,
    }
}

/// Cash of everyone who raises money for `sym` (1841 §14).
pub(super) fn funds(state: &State, sym: &str) -> i64 {
    raisers(state, sym).iter().map(|o| cash_of(state, o)).sum()
}

/// The certificates `raiser` may sell in an emergency, as `(corporation, sellable units)`
/// (1841 §14, FAQ-C13: the "has operated" rule and the pool limit do not apply): a
/// corporation its certificates of other corporations, or, when it has none, its own IPO
/// shares (18xx); with `emergency_sales_unrestricted` (FAQ-C13: "they may choose to sell
/// shares that normally could not be sold, even while they still hold shares that could be
/// sold normally") both at once, in any order; the player his certificates. A president's
/// certificate — the player's or a corporation's (FAQ-C13: "companies and players may …
/// [put] even its president's certificate, into the pool") — is sold only by a dump
/// ([`emergency_sell`], 1841 §5.3): to the next holder with at least as much, or into the
/// pool when nobody has that; never of a corporation in the needy chain nor of a historical
/// corporation before phase 4 (the concession lock, 1841 §7.5; kept with the option too,
/// interpretation I39).
///
/// Where a president may not dump (the needy corporation and every corporation above it in
/// the chain; a historical corporation before phase 4), he may not sell his ordinary
/// certificates below the largest other holding either ([`units_above_retained`]): an emergency sale
/// never moves the presidency of a corporation in the needy chain (1841 §14, rule {4.5.1};
/// 18xx `emr_can_sell?`, `corp_minimum_to_retain`).
fn sellable(state: &State, needy: &str, raiser: &ShareOwner) -> Vec<(String, u32)> {
    let chain: Vec<ShareOwner> = raisers(state, needy);
    let mut out = Vec::new();
    match raiser {
        ShareOwner::Corporation(x) => {
            for c in &state.corporations {
                if &c.sym == x || c.price().is_none() {
                    continue;
                }
                let ordinary: u32 = c
                    .certificates
                    .iter()
                    .filter(|k| &k.owner == raiser && !k.president)
                    .map(|k| k.percent / c.unit_percent())
                    .sum();
                // A corporation presiding over `c` may dump that presidency like a player
                // (1841 §14, §5.3; FAQ-C13: "even its president's certificate, into the
                // pool"): to the next holder with the president's share, or into the pool
                // when nobody has one — never of a corporation in the needy chain (the needy
                // corporation included) nor of a historical one before phase 4, where it
                // keeps the largest other holding and sells only its ordinary shares above it
                // (18xx `emr_valid_bundles`, `can_sell_any_amount?`, `corp_minimum_to_retain`;
                // oracle game lite-5p-s103 id 200: SFTG, raising for CGTF, sells its 10% of
                // CGTF and stays president with 20%; harness lite heuristic 4p seed 4001, 18xx
                // id 494: SFTN may sell its AFI and CTS president's certificates).
                let is_president = c.president() == Some(raiser);
                let in_chain = chain.contains(&ShareOwner::Corporation(c.sym.clone()));
                let may_dump = is_president && !in_chain && presidency_may_change(state, c);
                let ordinary = if is_president && !may_dump {
                    ordinary.min(units_above_retained(state, c, raiser))
                } else {
                    ordinary
                };
                let units = ordinary + if may_dump { 2 } else { 0 };
                if units > 0 {
                    out.push((c.sym.clone(), units));
                }
            }
            if (out.is_empty() || state.options.emergency_sales_unrestricted())
                && let Some(c) = state.corporation(x)
                && c.price().is_some()
            {
                let units = c
                    .certificates
                    .iter()
                    .filter(|k| k.owner == ShareOwner::Ipo && !k.president)
                    .count() as u32;
                if units > 0 {
                    out.push((x.clone(), units));
                }
            }
        }
        ShareOwner::Player(seat) => {
            for c in &state.corporations {
                if c.price().is_none() {
                    continue;
                }
                let unit = c.unit_percent();
                let ordinary: u32 = c
                    .certificates
                    .iter()
                    .filter(|k| &k.owner == raiser && !k.president)
                    .map(|k| k.percent / unit)
                    .sum();
                let is_president = c.president() == Some(raiser);
                // A dump goes to the next holder with the president's share, or, with none,
                // the president's certificate goes into the pool and the corporation is
                // frozen (FAQ-C13; lite game action 248: P4 sells SFL's 20% for L.111).
                let may_dump = is_president
                    && !chain.contains(&ShareOwner::Corporation(c.sym.clone()))
                    && presidency_may_change(state, c);
                let _ = seat;
                let ordinary = if is_president && !may_dump {
                    ordinary.min(units_above_retained(state, c, raiser))
                } else {
                    ordinary
                };
                let units = ordinary + if may_dump { 2 } else { 0 };
                if units > 0 {
                    out.push((c.sym.clone(), units));
                }
            }
        }
        ShareOwner::Ipo | ShareOwner::Pool => {}
    }
    out
}

/// The units of `corp` that `president`, its president, holds above the largest other
/// holding ([`largest_other_holding`]): what he may sell and stay president (1841 §7.5: the
/// presidency moves only to a holder with strictly more; 18xx `corp_minimum_to_retain`).
fn units_above_retained(state: &State, corp: &Corporation, president: &ShareOwner) -> u32 {
    let held = corp.percent_of(president);
    let keep = largest_other_holding(state, corp, president);
    held.saturating_sub(keep) / corp.unit_percent()
}

/// Who takes the presidency of `target` when its president `owner` dumps it (1841 §5.3,
/// §7.5), with that holder's percent: for a player, [`successor`] (the largest other
/// holding, ties to the nearest player after him, then corporations); for a corporation, the
/// largest holding of anyone but it, ties to the nearest player after its controller, then
/// corporations in operating order (as [`update_presidency`] ranks them for a corporation
/// president). `None` (or a holding under the president's certificate) when nobody can take
/// it: the certificate goes into the pool.
fn dump_successor(state: &State, target: &str, owner: &ShareOwner) -> Option<(ShareOwner, u32)> {
    match owner {
        ShareOwner::Player(s) => successor(state, target, *s),
        ShareOwner::Corporation(_) => {
            let corp = state.corporation(target)?;
            // 18xx `player_distance_for_president` after a corporation president: the
            // players in the current player order from its first (the priority holder), not
            // from the seller's controller (v2 6 players seed 6013, id 849: SFLi dumps CTDA's
            // presidency in an emergency, Player 3 and Player 2 hold 20% each, and "Player 2
            // becomes the president of CTDA", Player 2 holding the priority).
            let start = state.player_order.first().copied().unwrap_or(0);
            let mut best: Option<(usize, &ShareOwner, u32)> = None;
            for (rank, holder, p) in super::super::corporation::ranked_holders(state, corp, start) {
                if holder != owner && best.is_none_or(|(r, _, b)| p > b || (p == b && rank < r)) {
                    best = Some((rank, holder, p));
                }
            }
            best.map(|(_, holder, p)| (holder.clone(), p))
        }
        ShareOwner::Ipo | ShareOwner::Pool => None,
    }
}

/// Whether the pool holds an ordinary share of `c` that it can give back to a president who
/// puts half his president's certificate into the pool (interpretation I39; 18xx
/// `can_sell_partial?`: "there is at least one share in the market").
fn pool_share_to_give_back(c: &Corporation) -> bool {
    c.certificates
        .iter()
        .any(|k| k.owner == ShareOwner::Pool && !k.president && k.percent == c.unit_percent())
}

/// Why an emergency sale of `percent` of `target` by `seller` (the needy corporation's
/// controlling player when `None`) for the needy corporation `needy` is refused because of a presidency it would move,
/// if that is the reason (1841 §14, rule {4.5.1}): the seller presides over `target`, which
/// is in the needy chain (or historical before phase 4), and would keep less than the largest
/// other holding.
pub(super) fn emergency_presidency_kept(
    state: &State,
    needy: &str,
    seller: &Option<String>,
    target: &str,
    percent: u32,
) -> Option<String> {
    let c = state.corporation(target)?;
    let owner = match seller {
        Some(s) if s == target => return None,
        Some(s) => ShareOwner::Corporation(s.clone()),
        // The controlling player: the last raiser of the chain (not `target`'s president,
        // which may be a corporation the player's sale cannot touch).
        None => match raisers(state, needy).last() {
            Some(p @ ShareOwner::Player(_)) => p.clone(),
            _ => return None,
        },
    };
    if c.president() != Some(&owner) {
        return None;
    }
    let in_chain = raisers(state, needy).contains(&ShareOwner::Corporation(target.to_string()));
    let locked = !presidency_may_change(state, c);
    if !in_chain && !locked {
        return None;
    }
    let allowed = units_above_retained(state, c, &owner) * c.unit_percent();
    if percent <= allowed {
        return None;
    }
    let keep = largest_other_holding(state, c, &owner);
    let why = if in_chain && target == needy {
        format!("{target} is the corporation raising the money")
    } else if in_chain {
        format!("{target} is in {needy}'s chain of control")
    } else {
        format!("{target} is a historical corporation before phase 4")
    };
    Some(format!(
        "Selling {percent}% of {target} would leave its president with less than another \
         holder's {keep}% and move the presidency; {why}, so an emergency sale may not change \
         its president (at most {allowed}% may be sold)."
    ))
}

fn seller_owner(seller: &Option<String>, seat: Seat) -> ShareOwner {
    match seller {
        Some(c) => ShareOwner::Corporation(c.clone()),
        None => ShareOwner::Player(seat),
    }
}

/// The emergency sales open now (1841 §14): the first raiser in chain order with something
/// to sell sells bundles of 1… units of one corporation, each only if the bundle less one
/// share would not cover the shortfall.
pub(super) fn emergency_sales(state: &State) -> Vec<Action> {
    let Some(sym) = current(state) else {
        return Vec::new();
    };
    let Some((_, _, price)) = cheapest_train(state) else {
        return Vec::new();
    };
    emergency_sales_for(state, &sym, price)
}

/// [`emergency_sales`] of the raisers of `sym` for a need of `price` (L.): the cheapest train
/// in the train step, the compulsory second token (L.50) after a transformation (1841 §12.2,
/// FAQ-Q5).
pub(super) fn emergency_sales_for(state: &State, sym: &str, price: i64) -> Vec<Action> {
    let mut out = Vec::new();
    let sym = sym.to_string();
    // Up the chain, each raiser in turn contributes its cash and sells as needed before the
    // next one pays anything (18xx; #9338; lite game action 209: SFTN sells its ATFA share
    // although its president could pay the rest; action 234: IFAI, L.0, sells 70% of its
    // own shares for L.613 although SFTG, controlling it, has L.102): a raiser's shortfall
    // counts the cash of the raisers up to it.
    let chain = raisers(state, &sym);
    let mut cash_so_far = 0;
    for raiser in chain.iter() {
        cash_so_far += cash_of(state, raiser);
        let shortfall = price - cash_so_far;
        if shortfall <= 0 {
            return out;
        }
        let options = sellable(state, &sym, raiser);
        if options.is_empty() {
            continue;
        }
        let seller = match raiser {
            ShareOwner::Corporation(c) => Some(c.clone()),
            _ => None,
        };
        for (target, units) in options {
            let Some(t) = state.corporation(&target) else {
                continue;
            };
            let Some(p) = t.price() else { continue };
            // A president's certificate that goes into the pool (nobody can take the
            // presidency) is sold whole — no bundle ends in the middle of it — unless the
            // pool holds a share of it to give back for the half not sold (interpretation
            // I39; 18xx `can_sell_partial?`, `handle_partial`). The same for a player's and a
            // corporation's (1841 §5.3, §14, FAQ-C13).
            let half_certificate = (t.president() == Some(raiser)
                && seller.as_deref() != Some(target.as_str()))
            .then(|| {
                let ordinary: u32 = t
                    .certificates
                    .iter()
                    .filter(|c| &c.owner == raiser && !c.president)
                    .map(|c| c.percent / t.unit_percent())
                    .sum();
                let into_pool = dump_successor(state, &target, raiser)
                    .is_none_or(|(_, held)| held < 2 * t.unit_percent());
                (into_pool && !pool_share_to_give_back(t)).then_some(ordinary + 1)
            })
            .flatten();
            for k in 1..=units {
                if Some(k) == half_certificate {
                    continue;
                }
                // Only as needed: the next smaller legal bundle must fall short.
                let smaller = if Some(k - 1) == half_certificate {
                    k - 2
                } else {
                    k - 1
                };
                if half_price_proceeds(&state.options, smaller, p) >= shortfall {
                    break;
                }
                out.push(Action::EmergencySell {
                    seller: seller.clone(),
                    corporation: target.clone(),
                    percent: k * t.unit_percent(),
                });
            }
        }
        break;
    }
    out
}

/// The emergency purchase, once the raisers' cash covers it (1841 §14): the cheapest depot or
/// pool train(s) at their price.
pub(super) fn emergency_buys(state: &State) -> Vec<Action> {
    let Some(sym) = current(state) else {
        return Vec::new();
    };
    let Some((_, _, price)) = cheapest_train(state) else {
        return Vec::new();
    };
    if funds(state, &sym) < price || !emergency_sales(state).is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some((id, p)) = depot_train(state)
        && p == price
    {
        out.push(Action::BuyTrain {
            train: id,
            from: "depot".into(),
            price,
        });
    }
    let mut types = BTreeSet::new();
    for id in &state.operations.pool_trains {
        if train_price(state, id) == price && types.insert(train_type(id).to_string()) {
            out.push(Action::BuyTrain {
                train: id.clone(),
                from: "pool".into(),
                price,
            });
        }
    }
    out
}

/// Whether the controlling player may declare bankruptcy (1841 §14, 18xx): every raiser's
/// cash plus everything sellable at half price cannot pay the cheapest train.
pub(super) fn may_go_bankrupt(state: &State) -> bool {
    let Some(sym) = current(state) else {
        return false;
    };
    let Some((_, _, price)) = cheapest_train(state) else {
        return false;
    };
    may_go_bankrupt_for(state, &sym, price)
}

/// [`may_go_bankrupt`] for the raisers of `sym` and a need of `price` (L.).
pub(super) fn may_go_bankrupt_for(state: &State, sym: &str, price: i64) -> bool {
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

/// Applies an emergency sale (1841 §14): `percent` of `target` from `seller` (its own IPO
/// when it sells its own shares; the controlling player when `seller` is `None`) to the pool
/// at half price, ceil(units × price ÷ 2) from the bank; the price drops one row per unit
/// ([`sale::drop_after_sale`]; with `price_drops_lowest_first`, FAQ-Q2, when the emergency's
/// selling ends: at the purchase it raised money for, or a bankruptcy). A
/// player or a corporation selling into its president's certificate first hands the
/// presidency to the successor holding at least as much, or puts the certificate into the
/// pool when nobody does, freezing the corporation (a dump, §5.3, §7.4; FAQ-C13). Any other
/// sale of held certificates then hands the presidency to a holder with more (§7.5).
pub(super) fn emergency_sell(
    state: &mut State,
    seat: Seat,
    seller: &Option<String>,
    target: &str,
    percent: u32,
    events: &mut Vec<Event>,
) {
    let owner = seller_owner(seller, seat);
    let holder = match seller {
        Some(c) if c == target => ShareOwner::Ipo,
        _ => owner.clone(),
    };
    let Some(t) = state.corporation(target) else {
        return;
    };
    let Some(price) = t.price() else { return };
    let unit = t.unit_percent();
    let units = percent / unit;
    let ordinary: u32 = t
        .certificates
        .iter()
        .filter(|k| k.owner == holder && !k.president)
        .map(|k| k.percent / unit)
        .sum();
    let pres_units = 2;
    let mut pres_to_pool = false;
    // A sale beyond the ordinary certificates is a dump of the president's certificate, by
    // the player or by a corporation (1841 §5.3, §14, FAQ-C13): to the successor with the
    // president's share, or into the pool when nobody has it.
    let dumping = units > ordinary && holder == owner && t.president() == Some(&owner);
    match dumping.then(|| dump_successor(state, target, &owner)) {
        None => {}
        Some(next) => match next.filter(|(_, p)| *p >= pres_units * unit) {
            None => pres_to_pool = true,
            Some((next, _)) => {
                swap_presidency(state, target, &owner, &next);
                events.push(match &next {
                    ShareOwner::Player(seat) => Event::PresidentChanged {
                        corporation: target.to_string(),
                        seat: *seat,
                    },
                    other => Event::PresidencyMoved {
                        corporation: target.to_string(),
                        president: other.clone(),
                    },
                });
            }
        },
    }
    let Some(t) = state.corporation_mut(target) else {
        return;
    };
    let mut left = units;
    if pres_to_pool
        && let Some(k) = t
            .certificates
            .iter_mut()
            .find(|k| k.president && k.owner == holder)
    {
        k.owner = ShareOwner::Pool;
        left = left.saturating_sub(pres_units);
    }
    // Half the president's certificate into the pool (1841 §14, FAQ-C13, interpretation
    // I39): the certificate and every ordinary one go in, and the pool gives back a share
    // for the half not sold, as a presidency swap gives shares for the certificate (§5.3;
    // 18xx `handle_partial`: the pool's first share).
    let give_back = if pres_to_pool {
        (ordinary + pres_units).saturating_sub(units)
    } else {
        0
    };
    if give_back > 0 {
        left = ordinary;
    }
    let in_pool_before: Vec<usize> = t
        .certificates
        .iter()
        .enumerate()
        .filter(|(_, k)| k.owner == ShareOwner::Pool && !k.president && k.percent == unit)
        .map(|(i, _)| i)
        .collect();
    for k in t.certificates.iter_mut() {
        if left > 0 && k.owner == holder && !k.president && k.percent == unit {
            k.owner = ShareOwner::Pool;
            left -= 1;
        }
    }
    for i in in_pool_before.into_iter().take(give_back as usize) {
        if let Some(k) = t.certificates.get_mut(i) {
            k.owner = holder.clone();
        }
    }
    if pres_to_pool {
        events.push(Event::FrozenChanged {
            corporation: target.to_string(),
            frozen: true,
        });
    }
    let sold = units - left;
    let proceeds = half_price_proceeds(&state.options, sold, price);
    state.bank_cash -= proceeds;
    match &owner {
        ShareOwner::Corporation(c) => {
            if let Some(x) = state.corporations.iter_mut().find(|x| &x.sym == c) {
                x.cash += proceeds;
            }
        }
        ShareOwner::Player(s) => {
            if let Some(p) = state.players.get_mut(*s as usize) {
                p.cash += proceeds;
            }
        }
        ShareOwner::Ipo | ShareOwner::Pool => {}
    }
    events.push(Event::EmergencySold {
        seller: seller.clone(),
        seat,
        corporation: target.to_string(),
        percent: sold * unit,
        proceeds,
    });
    sale::drop_after_sale(state, target, sold, sale::Unmoved::Reported, events);
    // The presidency follows the largest holding after any sale but one of the seller's own
    // IPO shares (1841 §5.3, §7.5; 18xx `allow_president_change: pres_change_ok?`): a
    // corporation's sale of ordinary shares may hand it over too.
    if holder == owner {
        update_presidency(state, target, seat, events);
    }
    if let Some(c) = seller {
        super::shares::record_corporate_sale(state, c, target);
    }
    if let Some(r) = round_mut(state) {
        r.emergency = true;
        // The sale re-reads the operating order (FAQ-Q13; 18xx `recalculate_order`).
        r.split_slot = None;
    }
}

/// After an emergency sale by `seller`, another raiser than the needy corporation `sym`
/// itself (1841 §14: "proceeds flow down to the needy corporation"): the raisers above `sym`
/// in chain order, up to and including the seller, each move their cash into `sym` until it
/// holds the cheapest depot or pool train's price — 18xx.games'
/// `G1841::Step::EmergencyAssist#sweep_cash` after every such sale (`BuyTrain#process_sell_shares`,
/// cost `depot.min_depot_price`). So the proceeds are in the needy treasury at once, also when
/// the emergency ends in a bankruptcy (lite random 3 players seed 3001, 18xx ids 503–511:
/// RATF's sales for RSFS). Before 2026-12-06 the cash moved only at the purchase
/// ([`contribute`]), and a bankruptcy left it with the chain's corporations.
pub(super) fn sweep(state: &mut State, sym: &str, seller: &ShareOwner, events: &mut Vec<Event>) {
    let Some((_, _, cost)) = cheapest_train(state) else {
        return;
    };
    sweep_for(state, sym, cost, seller, events);
}

/// [`sweep`] for a need of `cost` (L.): the cheapest train, or the compulsory second token
/// after a transformation (18xx `TokenEmergencyMoney#process_sell_shares`: `sweep_cash` with
/// `token_emr_amount`, 1841 §12.2).
pub(super) fn sweep_for(
    state: &mut State,
    sym: &str,
    cost: i64,
    seller: &ShareOwner,
    events: &mut Vec<Event>,
) {
    if *seller == ShareOwner::Corporation(sym.to_string()) {
        return;
    }
    for raiser in raisers(state, sym).into_iter().skip(1) {
        let have = state.corporation(sym).map_or(0, |c| c.cash);
        let amount = (cost - have).max(0).min(cash_of(state, &raiser));
        if amount > 0 {
            move_funds(state, &raiser, sym, amount, events);
        }
        if raiser == *seller {
            break;
        }
    }
}

/// Moves `amount` (L.) from a raiser of the needy chain (a corporation's treasury or the
/// president's cash) into `sym`'s treasury and reports it as `EmergencyFunds` (1841 §14).
fn move_funds(
    state: &mut State,
    raiser: &ShareOwner,
    sym: &str,
    amount: i64,
    events: &mut Vec<Event>,
) {
    match raiser {
        ShareOwner::Corporation(c) => {
            if let Some(x) = state.corporations.iter_mut().find(|x| &x.sym == c) {
                x.cash -= amount;
            }
        }
        ShareOwner::Player(s) => {
            if let Some(p) = state.players.get_mut(*s as usize) {
                p.cash -= amount;
            }
        }
        ShareOwner::Ipo | ShareOwner::Pool => {}
    }
    if let Some(x) = state.corporations.iter_mut().find(|x| x.sym == sym) {
        x.cash += amount;
    }
    events.push(Event::EmergencyFunds {
        corporation: sym.to_string(),
        from: match raiser {
            ShareOwner::Corporation(c) => Some(c.clone()),
            _ => None,
        },
        amount,
    });
}

/// Moves the raisers' cash into the needy treasury until it holds `price` (1841 §14), in chain
/// order after the corporation itself.
pub(super) fn contribute(state: &mut State, sym: &str, price: i64, events: &mut Vec<Event>) {
    for raiser in raisers(state, sym).into_iter().skip(1) {
        let have = state.corporation(sym).map_or(0, |c| c.cash);
        let need = price - have;
        if need <= 0 {
            break;
        }
        let amount = need.min(cash_of(state, &raiser));
        if amount <= 0 {
            continue;
        }
        move_funds(state, &raiser, sym, amount, events);
    }
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
pub(super) fn declare_bankruptcy(
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
pub(super) fn bankrupt_for(
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
