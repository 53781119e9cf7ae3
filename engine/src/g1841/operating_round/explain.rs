//! Why an operating-round action of the current step is refused: the rejection names the
//! rule that stands in the way and, where there are some, the legal alternatives of the same
//! kind (so a client sees at once what it may send instead).
//!
//! Used by [`super::apply`] for an action of the right step that [`super::legal`] does not
//! list; the tests in `engine/tests/g1841_operating_round.rs` pin the messages' substance.

use super::*;

/// At most this many alternatives are named in a message.
const SHOWN: usize = 10;

/// The rejection of `action`, an action of the current step (`step`) of `sym`'s turn that
/// `legal` (the operating corporation's legal actions) does not list.
///
/// Codes: `INVALID_ARGUMENT` for names that do not exist (a hex not on the map, an unknown
/// tile, a rotation above 5, a price of L.0 or less), `INSUFFICIENT_FUNDS` when only the cost
/// stands in the way, `ILLEGAL_MOVE` otherwise. The rule cited is the step's (1841 §9.1 …
/// §9.7, §12, §14).
pub(super) fn why_not(
    state: &State,
    sym: &str,
    step: OperatingStep,
    action: &Action,
    legal: &LegalActions,
) -> Rejection {
    match action {
        Action::LayTile {
            hex,
            tile,
            rotation,
        } => lay(state, sym, legal, hex, tile, *rotation),
        Action::PlaceToken { hex, city } => token(state, sym, legal, hex, *city),
        Action::BuyTrain { train, from, price } => {
            train_purchase(state, sym, legal, train, from, *price)
        }
        Action::BuyToken {
            hex,
            city,
            seller,
            price,
        } => token_purchase(state, sym, legal, hex, *city, seller, *price),
        Action::BuyShares { .. } | Action::Par { .. } | Action::Pass
            if step == OperatingStep::Shares =>
        {
            match shares::must_sell(state) {
                Some(reason) => {
                    let sales: Vec<String> = legal.actions.iter().map(brief).collect();
                    illegal(
                        if reason.contains("§7.3") {
                            "1841 §7.3"
                        } else {
                            "1841 §9.7"
                        },
                        format!("{reason} Possible now: {}.", shown(&sales)),
                    )
                }
                None => other(sym, step, action, legal),
            }
        }
        Action::EmergencySell {
            seller,
            corporation,
            percent,
        } if step == OperatingStep::Trains => {
            emergency_sale(state, sym, legal, seller, corporation, *percent)
        }
        _ => other(sym, step, action, legal),
    }
}

/// The refusal of an action of the step that is not listed, with the listed actions of its
/// kind (or none).
fn other(sym: &str, step: OperatingStep, action: &Action, legal: &LegalActions) -> Rejection {
    let same: Vec<String> = legal
        .actions
        .iter()
        .filter(|a| std::mem::discriminant(*a) == std::mem::discriminant(action))
        .map(brief)
        .collect();
    let message = if same.is_empty() {
        format!(
            "{} is not possible for {sym} in its {} step.",
            capitalized(&brief(action)),
            steps::name(step)
        )
    } else {
        format!(
            "{} is not legal for {sym} now. Possible now: {}.",
            capitalized(&brief(action)),
            shown(&same)
        )
    };
    reject(RejectionCode::IllegalMove, steps::rule(step), message)
}

/// A short English form of an action, for listing alternatives.
fn brief(action: &Action) -> String {
    match action {
        Action::LayTile {
            hex,
            tile,
            rotation,
        } => format!("tile {tile} on {hex} rotation {rotation}"),
        Action::PlaceToken { hex, city } => format!("a token on {hex} city {city}"),
        Action::BuyTrain { train, from, price } => {
            format!("train {train} from {from} for L.{price}")
        }
        Action::BuyToken {
            hex,
            city,
            seller,
            price,
        } => format!("{seller}'s token on {hex} city {city} for L.{price}"),
        Action::SellShares {
            corporation,
            percent,
        } => format!("selling {percent}% of {corporation}"),
        Action::BuyShares {
            corporation,
            from_pool,
            percent,
        } => format!(
            "buying {percent}% of {corporation} from the {}",
            if *from_pool { "pool" } else { "IPO" }
        ),
        Action::Par { corporation, price } => format!("starting {corporation} at par L.{price}"),
        Action::EmergencySell {
            seller,
            corporation,
            percent,
        } => format!(
            "{} selling {percent}% of {corporation}",
            seller.as_deref().unwrap_or("the president")
        ),
        Action::DeclareBankruptcy { loan } => {
            if *loan {
                "bankruptcy with the L.500 loan".to_string()
            } else {
                "bankruptcy".to_string()
            }
        }
        Action::Dividend { payout } => {
            if *payout {
                "paying out".to_string()
            } else {
                "withholding".to_string()
            }
        }
        Action::ProposeMerger { partner } => format!("a merger with {partner}"),
        Action::Transform { corporation } => format!("transforming into {corporation}"),
        other => format!("`{}`", other.kind_name()),
    }
}

/// Why an emergency sale is refused (1841 §14): no emergency, a sale that would move a
/// presidency in the needy chain (rule {4.5.1}), or one not among the sales open now (another
/// raiser's turn to sell, more than needed, nothing of that corporation to sell).
fn emergency_sale(
    state: &State,
    sym: &str,
    legal: &LegalActions,
    seller: &Option<String>,
    corporation: &str,
    percent: u32,
) -> Rejection {
    const RULE: &str = "1841 §14";
    if !in_emergency(state) {
        return illegal(
            RULE,
            format!("{sym} is not raising money in an emergency: it can pay for a train itself."),
        );
    }
    if let Some(reason) = emergency_presidency_kept(state, sym, seller, corporation, percent) {
        return illegal(RULE, reason);
    }
    let same: Vec<String> = legal
        .actions
        .iter()
        .filter(|a| matches!(a, Action::EmergencySell { .. }))
        .map(brief)
        .collect();
    let who = seller.as_deref().unwrap_or("the president");
    illegal(
        RULE,
        if same.is_empty() {
            format!(
                "No emergency sale is open to {who} now: {sym} may buy its train, or the \
                 president may declare bankruptcy."
            )
        } else {
            format!(
                "{} selling {percent}% of {corporation} is not an emergency sale open now (sales \
                 go up the chain of control, only as many shares as needed). Possible now: {}.",
                capitalized(who),
                shown(&same)
            )
        },
    )
}

/// Why `sym` may not buy `seller`'s token on `hex` city `city`, when the rule that stands in
/// the way can be named (1841 §9.5): no such token, its own token, a seller without a
/// controlling player, the seller's last city token, a tile where the buyer already has a
/// token. `None` otherwise (not reached, no unplaced token, no cash: the listing says it).
fn token_refusal(state: &State, sym: &str, hex: &str, city: u32, seller: &str) -> Option<String> {
    if !track::tokens_at(state, hex, city)
        .iter()
        .any(|s| s == seller)
    {
        return Some(format!("{seller} has no token on {hex} city {city}."));
    }
    if seller == sym {
        return Some(format!("{sym} cannot buy its own token."));
    }
    if controller(state, seller).is_none() {
        return Some(format!(
            "{seller} has no controlling player: its tokens cannot be bought."
        ));
    }
    let bases = track::bases(state, seller);
    let is_base = bases.iter().any(|(h, _, c)| h == hex && *c == city);
    if is_base && bases.len() < 2 {
        return Some(format!(
            "The token on {hex} city {city} is {seller}'s last city token: a corporation \
             keeps at least one token in a city (only a token in a pass can always be sold)."
        ));
    }
    if state
        .corporation(sym)
        .is_some_and(|c| c.tokens.iter().any(|t| t.hex == hex))
    {
        return Some(format!("{sym} already has a token on {hex}."));
    }
    None
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `items` joined, at most [`SHOWN`] of them and the count of the rest.
fn shown(items: &[String]) -> String {
    let mut s = items
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        s.push_str(&format!(" and {} more", items.len() - SHOWN));
    }
    s
}

fn invalid(rule: &str, message: String) -> Rejection {
    reject(RejectionCode::InvalidArgument, rule, message)
}

fn illegal(rule: &str, message: String) -> Rejection {
    reject(RejectionCode::IllegalMove, rule, message)
}

/// 1841 §9.1: why `tile` in `rotation` cannot be laid on `hex` now.
fn lay(
    state: &State,
    sym: &str,
    legal: &LegalActions,
    hex: &str,
    tile: &str,
    rotation: u32,
) -> Rejection {
    const R: &str = "1841 §9.1";
    let m = map::map(&state.options);
    let Some(printed) = m.hexes.get(hex) else {
        return invalid(
            R,
            format!("`{hex}` is not a hex of this map (hexes are named like `E9`)."),
        );
    };
    let Some(t) = m.tiles.get(tile) else {
        return invalid(R, format!("`{tile}` is not a tile of 1841."));
    };
    if rotation > 5 {
        return invalid(R, format!("A rotation is 0 to 5, not {rotation}."));
    }
    let lays: Vec<(&str, &str, u32)> = legal
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::LayTile {
                hex,
                tile,
                rotation,
            } => Some((hex.as_str(), tile.as_str(), *rotation)),
            _ => None,
        })
        .collect();
    let r = round(state);
    if lays.is_empty() {
        let used = r.map_or(0, |r| r.used_bases.len());
        return illegal(
            R,
            if used > 0 {
                format!(
                    "{sym} has no tile lay left this turn ({used} of {} used); pass.",
                    tile_actions(state, sym)
                )
            } else {
                format!("{sym} has no legal tile lay now; pass.")
            },
        );
    }
    if r.is_some_and(|r| r.laid_hexes.iter().any(|h| h == hex)) {
        return illegal(
            R,
            format!("{sym} has already laid a tile on {hex} this turn."),
        );
    }
    let rotations: Vec<String> = lays
        .iter()
        .filter(|(h, t, _)| *h == hex && *t == tile)
        .map(|(_, _, r)| r.to_string())
        .collect();
    if !rotations.is_empty() {
        return illegal(
            R,
            format!(
                "Tile {tile} does not fit on {hex} in rotation {rotation} (its track must \
                 reach {sym}'s, keep the old track and lead to neighbouring hexes); rotations \
                 that fit: {}.",
                rotations.join(", ")
            ),
        );
    }
    let mut here: Vec<String> = lays
        .iter()
        .filter(|(h, _, _)| *h == hex)
        .map(|(_, t, _)| t.to_string())
        .collect();
    here.sort();
    here.dedup();
    // What the hex takes: the upgrades of its tile, or the printed hex's first tiles.
    let (current, candidates, cost) = match state.operations.tiles.get(hex) {
        Some(p) => match m.tiles.get(&p.tile) {
            Some(old) => (Some(p.tile.as_str()), &old.upgrades_to, old.upgrade_cost),
            None => (Some(p.tile.as_str()), &printed.first_tiles, 0),
        },
        None => (None, &printed.first_tiles, printed.terrain_cost),
    };
    if !candidates.iter().any(|c| c == tile) {
        let on = match current {
            Some(c) => format!("tile {c} on {hex} upgrades to"),
            None => format!("{hex} takes as its first tile"),
        };
        return illegal(
            R,
            if candidates.is_empty() {
                format!("Tile {tile} cannot go on {hex}: no tile may be laid there.")
            } else {
                format!(
                    "Tile {tile} cannot go on {hex}: {on} {} only.",
                    candidates.join(", ")
                )
            },
        );
    }
    if let Some(p) = phase_data(state)
        && !p.tile_colors.contains(&t.color)
    {
        return illegal(
            R,
            format!(
                "Tile {tile} is {}; phase {} allows {} tiles.",
                t.color,
                state.phase,
                p.tile_colors.join(", ")
            ),
        );
    }
    let on_map = state
        .operations
        .tiles
        .values()
        .filter(|p| p.tile == tile)
        .count() as u32;
    if on_map >= m.tile_count(tile) {
        return illegal(
            R,
            format!(
                "All {} copies of tile {tile} are on the map.",
                m.tile_count(tile)
            ),
        );
    }
    let cash = state.corporation(sym).map_or(0, |c| c.cash);
    if cost > cash {
        return reject(
            RejectionCode::InsufficientFunds,
            R,
            format!("Laying on {hex} costs L.{cost}; {sym} has L.{cash}."),
        );
    }
    if !here.is_empty() {
        return illegal(
            R,
            format!(
                "Tile {tile} cannot be laid on {hex} now; tiles that can: {}.",
                shown(&here)
            ),
        );
    }
    let mut hexes: Vec<String> = lays.iter().map(|(h, _, _)| h.to_string()).collect();
    hexes.sort();
    hexes.dedup();
    illegal(
        R,
        format!(
            "{sym} cannot lay on {hex}: no tile there connects to track reached from a base it \
             has not used this turn (in phase 2 new track may not cross a province border). \
             Hexes where it can lay: {}.",
            shown(&hexes)
        ),
    )
}

/// 1841 §9.2: why a token cannot be placed in city `city` of `hex` now.
fn token(state: &State, sym: &str, legal: &LegalActions, hex: &str, city: u32) -> Rejection {
    const R: &str = "1841 §9.2";
    if !map::map(&state.options).hexes.contains_key(hex) {
        return invalid(
            R,
            format!("`{hex}` is not a hex of this map (hexes are named like `E9`)."),
        );
    }
    let places: Vec<String> = legal
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::PlaceToken { hex, city } => Some(format!("{hex} city {city}")),
            _ => None,
        })
        .collect();
    illegal(
        R,
        if places.is_empty() {
            format!(
                "{sym} cannot place a token now (no token left, no cash for it, or no free \
                 city slot reached by its track); pass."
            )
        } else {
            format!(
                "{sym} cannot place a token on {hex} city {city} (it must be a free slot \
                 reached by its track, not its second token in a city). Places it can use: {}.",
                shown(&places)
            )
        },
    )
}

/// 1841 §9.6 / §14: why `train` from `from` at `price` cannot be bought now.
fn train_purchase(
    state: &State,
    sym: &str,
    legal: &LegalActions,
    train: &str,
    from: &str,
    price: i64,
) -> Rejection {
    const R: &str = "1841 §9.6";
    if price <= 0 {
        return invalid(
            R,
            format!("A train's price is a positive amount of lire, not L.{price}."),
        );
    }
    let fixed = legal.actions.iter().find_map(|a| match a {
        Action::BuyTrain {
            train: t,
            from: f,
            price: p,
        } if t == train && f == from => Some(*p),
        _ => None,
    });
    if let Some(p) = fixed {
        return illegal(
            R,
            format!("Train {train} from {from} costs L.{p}, not L.{price}."),
        );
    }
    if let Some(range) = legal
        .train_purchases
        .iter()
        .find(|t| t.train == train && t.from == from)
    {
        return if price > range.max_price {
            reject(
                RejectionCode::InsufficientFunds,
                R,
                format!(
                    "{sym} can pay at most L.{} for train {train} from {from}, not L.{price}.",
                    range.max_price
                ),
            )
        } else {
            illegal(
                R,
                format!(
                    "Train {train} from {from} may be bought for L.{} to L.{}, not L.{price}.",
                    range.min_price, range.max_price
                ),
            )
        };
    }
    let mut offers: Vec<String> = legal
        .actions
        .iter()
        .filter(|a| matches!(a, Action::BuyTrain { .. }))
        .map(brief)
        .collect();
    offers.extend(legal.train_purchases.iter().map(|t| {
        format!(
            "train {} from {} for L.{}–L.{}",
            t.train, t.from, t.min_price, t.max_price
        )
    }));
    if offers.is_empty() {
        return no_train_for_sale(state, sym);
    }
    illegal(
        R,
        format!(
            "Train {train} from {from} is not for sale to {sym} now. Trains it can buy: {}.",
            shown(&offers)
        ),
    )
}

/// Why the operating corporation `sym` can buy no train at all now, in its train step
/// (1841 §9.6, §14): it is raising money in an emergency and must sell first, or may only buy
/// the cheapest train once emergency money is used; it holds its train limit; or its treasury
/// pays for no depot or pool train and no other corporation offers one.
fn no_train_for_sale(state: &State, sym: &str) -> Rejection {
    let cash = state.corporation(sym).map_or(0, |c| c.cash);
    if in_emergency(state) {
        let cheapest =
            cheapest_train(state).map(|(id, from, p)| format!("{id} from {from} for L.{p}"));
        let cheapest = cheapest.unwrap_or_else(|| "none left".to_string());
        let sales: Vec<String> = emergency_sales(state).iter().map(brief).collect();
        return illegal(
            "1841 §14",
            if sales.is_empty() {
                format!(
                    "{sym} is raising money in an emergency: it may buy only the cheapest \
                     depot or pool train ({cheapest}), and the money for it is not there; its \
                     controlling player may declare bankruptcy."
                )
            } else {
                format!(
                    "{sym} is raising money in an emergency: the cheapest train ({cheapest}) \
                     costs more than the cash of its chain of control, so shares must be sold \
                     first. Possible now: {}.",
                    shown(&sales)
                )
            },
        );
    }
    let held = train_count(state, sym) as u32;
    let limit = train_limit(state, sym);
    if held >= limit {
        return illegal(
            "1841 §9.6",
            format!(
                "{sym} holds {held} trains, its limit in phase {}: it may buy no more.",
                state.phase
            ),
        );
    }
    let price = cheapest_train(state).map(|(_, _, p)| p);
    reject(
        RejectionCode::InsufficientFunds,
        "1841 §9.6",
        match price {
            Some(p) => format!(
                "{sym} has L.{cash}; the cheapest depot or pool train costs L.{p}, and no other \
                 corporation has a train to sell to it."
            ),
            None => format!("No train is for sale to {sym}: the depot and the pool are empty."),
        },
    )
}

/// 1841 §9.5: why this token purchase is refused.
fn token_purchase(
    state: &State,
    sym: &str,
    legal: &LegalActions,
    hex: &str,
    city: u32,
    seller: &str,
    price: i64,
) -> Rejection {
    const R: &str = "1841 §9.5";
    if price <= 0 {
        return invalid(
            R,
            format!("A token's price is a positive amount of lire, not L.{price}."),
        );
    }
    if let Some(range) = legal
        .token_purchases
        .iter()
        .find(|t| t.hex == hex && t.city == city && t.seller == seller)
    {
        return reject(
            RejectionCode::InsufficientFunds,
            R,
            format!(
                "{sym} can pay at most L.{} for {seller}'s token on {hex}, not L.{price}.",
                range.max_price
            ),
        );
    }
    let offers: Vec<String> = legal
        .token_purchases
        .iter()
        .map(|t| {
            format!(
                "{}'s token on {} city {} for L.{}–L.{}",
                t.seller, t.hex, t.city, t.min_price, t.max_price
            )
        })
        .collect();
    if let Some(reason) = token_refusal(state, sym, hex, city, seller) {
        return illegal(
            R,
            if offers.is_empty() {
                format!("{reason} It can buy no token now; pass.")
            } else {
                format!("{reason} Tokens it can buy: {}.", shown(&offers))
            },
        );
    }
    illegal(
        R,
        if offers.is_empty() {
            format!("{sym} cannot buy a token now; pass.")
        } else {
            format!(
                "{seller} has no token for {sym} to buy on {hex} city {city}. Tokens it can buy: {}.",
                shown(&offers)
            )
        },
    )
}
