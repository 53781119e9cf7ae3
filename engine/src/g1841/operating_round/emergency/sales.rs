//! The emergency sales open now (1841 §14): what each raiser in chain order may sell at half
//! price (a corporation: other corporations' certificates, then its own IPO shares, or either
//! with `emergency_sales_unrestricted`, FAQ-C13), a presidency dumped outside the needy chain
//! (§5.3) and who takes it, and each sale offered only while it is needed.

use super::*;

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
///
/// [`emergency_sell`]: super::selling::emergency_sell
pub(super) fn sellable(state: &State, needy: &str, raiser: &ShareOwner) -> Vec<(String, u32)> {
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
pub(super) fn dump_successor(
    state: &State,
    target: &str,
    owner: &ShareOwner,
) -> Option<(ShareOwner, u32)> {
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
            for (rank, holder, p) in crate::g1841::corporation::ranked_holders(state, corp, start) {
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
pub(in crate::g1841::operating_round) fn emergency_presidency_kept(
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

pub(super) fn seller_owner(seller: &Option<String>, seat: Seat) -> ShareOwner {
    match seller {
        Some(c) => ShareOwner::Corporation(c.clone()),
        None => ShareOwner::Player(seat),
    }
}

/// The emergency sales open now (1841 §14): the first raiser in chain order with something
/// to sell sells bundles of 1… units of one corporation, each only if the bundle less one
/// share would not cover the shortfall.
pub(in crate::g1841::operating_round) fn emergency_sales(state: &State) -> Vec<Action> {
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
pub(in crate::g1841::operating_round) fn emergency_sales_for(
    state: &State,
    sym: &str,
    price: i64,
) -> Vec<Action> {
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
