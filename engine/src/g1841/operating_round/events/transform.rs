//! Transforming a minor into a major (1841 §12.2, rule 4.7.5).
//!
//! In its transform step a minor (non-historical at any time, historical from phase 4) may
//! become an unstarted non-historical major: the major starts on the minor's cell, taking its
//! place in the stack; cash, trains, certificates of other corporations and map tokens move
//! over; the 40% president's certificate becomes the 20% one, every 20% share one 10% share
//! (players, corporations and pool alike). Two rounds of optional purchases of one IPO share
//! at the market price follow (money to the major): first every shareholder — players and
//! the corporations they control — from the president on, then every player (#9427); the
//! certificate limit and 60% apply. A major with one token must buy a second for L.50, then
//! may buy more at L.100 each up to 5 (#10120). The minor closes (historical) or becomes
//! available again; the major does not operate again in this round and the minor's turn
//! ends.
//!
//! The compulsory second token needs no money in hand: the transformation is offered to every
//! eligible minor, and a major that cannot pay the L.50 from its treasury after the purchase
//! rounds raises it by emergency money raising (1841 §12.2 "emergency money raising
//! allowed", §14; FAQ-Q5: "it sells, at half price, shares it owns or shares from its IPO. If
//! that is not enough, the president must pay the rest"): the corporations of its chain of
//! control sell as in a train emergency ([`TOKEN_EMERGENCY`]), then the raisers' cash covers
//! the rest; a president who cannot raise it goes bankrupt and the major receives the token
//! without paying (§14). A major that needed the emergency buys no further token (FAQ-Q5: "a
//! company may not buy more than the minimum number of markers if doing so would need share
//! sales or help from the president").
//!
//! The Tuscan merge's transformation (§12.3) has the purchase rounds too, then a free second
//! token, and the merge with SSFL follows ([`begin_tuscan`]).
//!
use super::super::emergency::{
    bankrupt_for, contribute, emergency_sales_for, emergency_sell, funds, may_go_bankrupt_for,
    sweep_for,
};
use super::*;
use crate::g1841::corporation::{holder_cash, holder_order, may_hold_more, players_from};
use crate::g1841::state::{Certificate, Transformation};

/// The stage of a transformation whose major raises its compulsory second token's price by
/// emergency money raising (1841 §12.2, §14, FAQ-Q5); stages 1 and 2 are the purchase rounds,
/// 3 the optional tokens, 4 the end.
pub const TOKEN_EMERGENCY: u32 = 5;

fn store(state: &mut State, t: Transformation) {
    set_event(state, Some(CorporateEvent::Transformation(t)));
}

/// The majors the operating minor `sym` may transform into now (1841 §12.2): any minor with
/// a controlling player (a historical one from phase 4), whatever its cash — the second
/// token's L.50 may be raised by emergency money raising (§12.2, FAQ-Q5; 18xx `transformable?`
/// asks no money either).
pub fn targets(state: &State, sym: &str) -> Vec<String> {
    let Some(c) = state.corporation(sym) else {
        return Vec::new();
    };
    let may = c.started()
        && c.kind == CorporationKind::Minor
        && controller(state, sym).is_some()
        && (!c.historical || phase_number(state) >= 4);
    if !may {
        return Vec::new();
    }
    formable_majors(state)
}

/// Converts `minor` into `major` (shares, assets, market place); the minor leaves the game.
///
/// The major's marker goes on the minor's cell (1841 §12.2: "starts at the minor's current
/// price (same cell)"). Where in that cell's stack the rules do not say; as in 18xx.games
/// (`transform_start`: `stock_market.set_par`, which appends), a voluntary transformation
/// puts it at the back of the stack, behind the markers already there, so it operates after
/// them in later rounds (the split's successors take IRSFF's place instead, FAQ-C15).
/// `tuscan` (the Tuscan merge's holding, 1841 §12.3) keeps the minor's place: the holding
/// merges with SSFL at once, and the merge's decider is the participant with the best stock
/// value among SFLP, SFMA and SSFL, found before the transformation (18xx
/// `best_stock_value`; [`finish_tuscan`] reads it from the holding's place). Before
/// 2026-12-06 every transformation kept the minor's place (lite heuristic 4 players seed
/// 4015, 18xx id 867: RATF, transformed from CTLP on L.8, operated before AFI, which had
/// come to L.8 after CTLP; 18xx operates AFI first).
fn convert(
    state: &mut State,
    minor: &str,
    major: &str,
    tuscan: Option<Seat>,
    events: &mut Vec<Event>,
) {
    let Some(m) = state.corporation(minor).cloned() else {
        return;
    };
    match m.share_price {
        Some(p) if tuscan.is_none() => start_at(state, major, p.row, p.col),
        _ => take_place_of(state, major, minor),
    }
    move_cash(state, minor, major);
    move_trains(state, minor, major);
    move_treasury(state, minor, major, &[]);
    if let Some(c) = corp_mut(state, major) {
        c.tokens = m.tokens.clone();
        c.tokens_total = m.tokens_total.max(m.tokens.len() as u32);
    }
    if let Some(p) = m.share_price {
        events.push(Event::CorporationFormed {
            corporation: major.to_string(),
            from: vec![minor.to_string()],
            price: market::price_at(p.row, p.col).unwrap_or(0),
            row: p.row,
            col: p.col,
        });
    }
    // The players' exchanges start at the minor's controller; a frozen minor of the Tuscan
    // merge has none, and then at the merge's decider (`tuscan`).
    let anchor = controller(state, minor).or(tuscan);
    for cert in exchange_order(state, &m, anchor) {
        if cert.president {
            give_president(state, major, &cert.owner);
        } else {
            give_share(state, major, &cert.owner);
        }
        events.push(Event::SharesExchanged {
            holder: cert.owner.clone(),
            corporation: major.to_string(),
            percent: cert.percent / 2,
            president: cert.president,
        });
    }
    let in_round = round(state)
        .is_some_and(|r| r.done.iter().any(|d| d == minor) || r.current.as_deref() == Some(minor));
    remove_corporation(state, minor, events);
    if in_round && let Some(r) = round_mut(state) {
        r.done.push(major.to_string());
    }
}

/// The certificates of `minor` held outside its IPO, in the order they are exchanged: the
/// president's first, then every other holder's (largest first) — the players round the
/// table from `anchor` (the minor's controller), the corporations in the corporation list
/// order, the pool last. 1841 §12.2 makes the exchange simultaneous; this is 18xx.games'
/// order (`transform_shares`: `@players.rotate(@players.index(corp.player))`), which decides
/// the share ids its export names (issue #22: a sale of a share the export took for another
/// holder's crashed 18xx.games). Before 2026-12-06 the players came first only when the
/// president's certificate was a player's own.
fn exchange_order(state: &State, minor: &Corporation, anchor: Option<Seat>) -> Vec<Certificate> {
    let held: Vec<&Certificate> = minor
        .certificates
        .iter()
        .filter(|c| c.owner != ShareOwner::Ipo)
        .collect();
    let mut holders: Vec<ShareOwner> = Vec::new();
    if let Some(seat) = anchor {
        holders.extend(
            players_from(state, seat)
                .into_iter()
                .map(ShareOwner::Player),
        );
    }
    holders.extend(
        state
            .corporations
            .iter()
            .map(|c| ShareOwner::Corporation(c.sym.clone())),
    );
    holders.push(ShareOwner::Pool);
    let mut out: Vec<Certificate> = held
        .iter()
        .filter(|c| c.president)
        .map(|c| (*c).clone())
        .collect();
    for h in &holders {
        let mut theirs: Vec<Certificate> = held
            .iter()
            .filter(|c| !c.president && c.owner == *h)
            .map(|c| (*c).clone())
            .collect();
        theirs.sort_by_key(|c| std::cmp::Reverse(c.percent));
        out.extend(theirs);
    }
    // Any holder not named above (none in a valid state) keeps its exchange.
    for c in held
        .iter()
        .filter(|c| !c.president && !holders.contains(&c.owner))
    {
        out.push((*c).clone());
    }
    out
}

/// Starts the transformation inside the Tuscan merge (1841 §12.3: SFLP or SFMA, whichever
/// is there, "transforms into the holding"): the two purchase rounds of §12.2 follow, as
/// 18xx.games offers them (`transform_start` with `tuscan_merge`: `offer1`, `offer2`); then
/// the holding gets its second token free (`transform_tokens`: "in Tuscan merger, just give
/// target a 2nd token") and merges with SSFL into SFLi ([`super::merger::tuscan_last_step`]).
/// Whether SFLi may still operate in this round is kept as the holding's place in the
/// round's `done` list (there when it may not), read when the rounds end.
pub(super) fn begin_tuscan(
    state: &mut State,
    minor: &str,
    major: &str,
    joins_round: bool,
    decider: Seat,
    events: &mut Vec<Event>,
) {
    convert(state, minor, major, Some(decider), events);
    if let Some(r) = round_mut(state) {
        r.done.retain(|d| d != major);
        if !joins_round {
            r.done.push(major.to_string());
        }
    }
    start_first_round(state, minor, major, Some(decider));
}

/// Whether `t` is the Tuscan merge's transformation (1841 §12.3): its minor is SFLP or SFMA
/// while SFLi is being formed (neither started nor closed; a voluntary transformation of
/// them, from phase 4, comes after the Tuscan merge, which closes them).
fn is_tuscan(state: &State, t: &Transformation) -> bool {
    data::ruleset(&state.options)
        .tuscan_merge
        .as_ref()
        .is_some_and(|m| {
            m.participants.iter().take(2).any(|p| *p == t.minor)
                && state
                    .corporation(&m.result)
                    .is_some_and(|c| !c.started() && !c.closed)
        })
}

/// The end of the Tuscan merge's transformation (1841 §12.3): the holding's second token,
/// free, then its merger with SSFL, led by the merge's decider, fixed when the merge began
/// (`Transformation::decider`, 18xx.games' `@tuscan_merge_decider`; p2p_purchases, 8
/// players, heuristic, seed 8102: player 4, SFLP's president, leads the last step although
/// player 2 became the holding AFI's president in the second purchase round). Before
/// 2026-12-07 the decider was found again here ([`tuscan_decider`]), which a state saved by
/// an older build still does.
fn finish_tuscan(state: &mut State, t: &Transformation) {
    if let Some(c) = corp_mut(state, &t.major) {
        c.tokens_total = c.tokens_total.max(2);
    }
    let joins_round = round(state).is_none_or(|r| !r.done.contains(&t.major));
    let first = t.decider.unwrap_or_else(|| tuscan_decider(state, &t.major));
    set_event(state, None);
    super::merger::tuscan_last_step(state, &t.major, first, joins_round);
}

/// The Tuscan merge's decider found again while its minor transforms into `holding`, for a
/// state saved before `Transformation::decider` was kept (1841 §12.3): the
/// president of the participant with the best stock value — the holding, in the minor's
/// place, or SSFL, whichever operates first (FAQ-Q12) — and when that one is frozen (§7.4:
/// no president) the operating corporation's controller, the first 4-train's buyer's, as
/// [`super::merger::begin_tuscan`] and 18xx.games (`tuscan_merge_start`:
/// `decider.player || @round.current_entity.player`). Before 2026-12-06 a frozen leader
/// left the choice to the first player in player order here.
fn tuscan_decider(state: &State, holding: &str) -> Seat {
    let ssfl = data::ruleset(&state.options)
        .tuscan_merge
        .as_ref()
        .and_then(|m| m.participants.get(2).cloned())
        .unwrap_or_default();
    let leader = market::operating_order(state)
        .into_iter()
        .find(|s| s == holding || *s == ssfl)
        .unwrap_or_else(|| holding.to_string());
    let buyer = round(state)
        .and_then(|r| r.current.clone())
        .and_then(|c| controller(state, &c));
    controller(state, &leader)
        .or(buyer)
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0)
}

/// Starts a voluntary transformation of the operating minor `minor` into `major`.
pub(in crate::g1841::operating_round) fn begin(
    state: &mut State,
    minor: &str,
    major: &str,
    events: &mut Vec<Event>,
) {
    convert(state, minor, major, None, events);
    if let Some(r) = round_mut(state)
        && !r.done.iter().any(|d| d == major)
    {
        r.done.push(major.to_string());
    }
    start_first_round(state, minor, major, None);
}

/// Stores the transformation of `minor` into `major` at its first purchase round (1841
/// §12.2), with the holders asked in it; `decider`: the Tuscan merge's.
fn start_first_round(state: &mut State, minor: &str, major: &str, decider: Option<Seat>) {
    let mut t = Transformation {
        minor: minor.to_string(),
        major: major.to_string(),
        stage: 1,
        holders: Vec::new(),
        next: 0,
        decider,
    };
    t.holders = round_holders(state, &t);
    store(state, t);
}

/// Where the purchase rounds start (1841 §12.2: "from the president on"): the major's
/// controller; a frozen holding of the Tuscan merge has none, and then its decider
/// ([`tuscan_decider`]), as 18xx.games does for a split's successor without a president
/// (`corp.player || @secession_decider`; its transformation crashes here: reviewed divergence
/// `tuscan-transform-of-a-frozen-minor`). Before 2026-12-06: the first player in player order.
fn president_seat(state: &State, t: &Transformation) -> Seat {
    controller(state, &t.major)
        .or_else(|| {
            is_tuscan(state, t)
                .then(|| t.decider.unwrap_or_else(|| tuscan_decider(state, &t.major)))
        })
        .or_else(|| state.player_order.first().copied())
        .unwrap_or(0)
}

/// Holders asked in the current round: round 1 the shareholders (players and controlled
/// corporations) from the president, round 2 every player from the president.
fn round_holders(state: &State, t: &Transformation) -> Vec<ShareOwner> {
    let first = president_seat(state, t);
    match t.stage {
        1 => {
            let Some(c) = state.corporation(&t.major) else {
                return Vec::new();
            };
            holder_order(state, first, false, |h| {
                c.percent_of(h) > 0 && acting_seat(state, h).is_some()
            })
        }
        2 => players_from(state, first)
            .into_iter()
            .map(ShareOwner::Player)
            .collect(),
        _ => Vec::new(),
    }
}

fn can_buy(state: &State, sym: &str, h: &ShareOwner) -> bool {
    let Some(c) = state.corporation(sym) else {
        return false;
    };
    let Some(price) = c.price() else { return false };
    ipo_share_left(state, sym)
        && holder_cash(state, h) >= price
        && may_hold_more(state, h, sym, c.unit_percent())
}

/// Token counts the major may choose in all (after the compulsory second token): L.100 each
/// up to 5.
fn token_counts(state: &State, sym: &str) -> Vec<u32> {
    let rules = data::ruleset(&state.options);
    let Some(c) = state.corporation(sym) else {
        return Vec::new();
    };
    let price = rules.token_prices.transformation_extra_token;
    if price <= 0 || controller(state, sym).is_none() {
        return Vec::new();
    }
    let have = c.tokens_total;
    let affordable = u32::try_from(c.cash / price).unwrap_or(0);
    let top = rules
        .token_counts
        .major_max
        .min(have.saturating_add(affordable));
    if top <= have {
        return Vec::new();
    }
    (have..=top).collect()
}

/// The decision the transformation waits for.
pub(super) fn decision(state: &State, t: &Transformation) -> Option<Decision> {
    match t.stage {
        1 | 2 => {
            let h = t.holders.get(t.next as usize)?;
            let unit = state.corporation(&t.major)?.unit_percent();
            Some(Decision {
                seat: acting_seat(state, h)?,
                actions: vec![
                    Action::BuyShares {
                        corporation: t.major.clone(),
                        from_pool: false,
                        percent: unit,
                    },
                    Action::Pass,
                ],
            })
        }
        TOKEN_EMERGENCY => {
            let price = required_token_price(state);
            let mut actions = emergency_sales_for(state, &t.major, price);
            if may_go_bankrupt_for(state, &t.major, price) {
                actions.push(Action::DeclareBankruptcy { loan: false });
                actions.push(Action::DeclareBankruptcy { loan: true });
            }
            Some(Decision {
                seat: controller(state, &t.major)?,
                actions,
            })
        }
        _ => Some(Decision {
            seat: controller(state, &t.major)?,
            actions: token_counts(state, &t.major)
                .into_iter()
                .map(|count| Action::BuyTokens { count })
                .collect(),
        }),
    }
}

/// The compulsory second token's price (1841 §12.2: L.50).
fn required_token_price(state: &State) -> i64 {
    data::ruleset(&state.options)
        .token_prices
        .transformation_required_second_token
}

/// Whether the transformation in progress waits for its major's emergency money raising for
/// the compulsory second token (1841 §12.2, §14) — where a recorded `sell_shares` is an
/// emergency sale.
pub fn in_token_emergency(state: &State) -> bool {
    matches!(
        round(state).and_then(|r| r.event.as_deref()),
        Some(CorporateEvent::Transformation(t)) if t.stage == TOKEN_EMERGENCY
    )
}

/// Applies a listed decision of `seat`.
pub(super) fn apply(
    state: &mut State,
    seat: Seat,
    mut t: Transformation,
    action: &Action,
    events: &mut Vec<Event>,
) {
    match action {
        // 1841 §14: an emergency sale for the second token; the proceeds of a corporation
        // above the major in its chain flow down to it at once (18xx
        // `TokenEmergencyMoney#process_sell_shares`, `sweep_cash`).
        Action::EmergencySell {
            seller,
            corporation,
            percent,
        } => {
            emergency_sell(state, seat, seller, corporation, *percent, events);
            let owner = match seller {
                Some(c) => ShareOwner::Corporation(c.clone()),
                None => ShareOwner::Player(seat),
            };
            let price = required_token_price(state);
            sweep_for(state, &t.major, price, &owner, events);
        }
        // 1841 §14: the president cannot raise the L.50: he goes bankrupt (his cash goes to
        // the major) and the major "receives the token without paying".
        Action::DeclareBankruptcy { loan } => {
            bankrupt_for(state, seat, *loan, &t.major, events);
            free_token(state, &t.major, events);
            t.stage = 4;
        }
        Action::BuyShares { .. } => {
            if let Some(h) = t.holders.get(t.next as usize).cloned() {
                buy(state, &t.major, &h, events);
            }
            t.next += 1;
        }
        Action::Pass => t.next += 1,
        Action::BuyTokens { count } => {
            let price = data::ruleset(&state.options)
                .token_prices
                .transformation_extra_token;
            pay_tokens(state, &t.major, *count, price, events);
            t.stage = 4;
        }
        _ => {}
    }
    store(state, t);
}

fn buy(state: &mut State, sym: &str, h: &ShareOwner, events: &mut Vec<Event>) {
    let Some(price) = state.corporation(sym).and_then(|c| c.price()) else {
        return;
    };
    let unit = state.corporation(sym).map_or(10, |c| c.unit_percent());
    if !give_share(state, sym, h) {
        return;
    }
    add_cash(state, h, -price);
    add_cash(state, &ShareOwner::Corporation(sym.to_string()), price);
    match h {
        ShareOwner::Player(seat) => events.push(Event::SharesBought {
            seat: *seat,
            corporation: sym.to_string(),
            percent: unit,
            from_pool: false,
            price,
        }),
        ShareOwner::Corporation(buyer) => events.push(Event::CorporationBoughtShares {
            buyer: buyer.clone(),
            corporation: sym.to_string(),
            percent: unit,
            from_pool: false,
            price,
        }),
        _ => {}
    }
    presidency(state, sym, events);
}

/// The second token without payment, after the president's bankruptcy (1841 §14: "in the
/// token case, receives the token without paying").
fn free_token(state: &mut State, sym: &str, events: &mut Vec<Event>) {
    if let Some(c) = corp_mut(state, sym) {
        c.tokens_total = c.tokens_total.max(2);
        events.push(Event::TokensBought {
            corporation: sym.to_string(),
            count: 2,
            price: 0,
        });
    }
}

fn pay_tokens(state: &mut State, sym: &str, count: u32, price: i64, events: &mut Vec<Event>) {
    let Some(c) = corp_mut(state, sym) else {
        return;
    };
    let extra = count.saturating_sub(c.tokens_total);
    let cost = price.saturating_mul(i64::from(extra));
    c.tokens_total = count.max(c.tokens_total);
    c.cash -= cost;
    state.bank_cash += cost;
    events.push(Event::TokensBought {
        corporation: sym.to_string(),
        count,
        price: cost,
    });
}

/// Runs the transformation until a decision is needed; true when it is over.
pub(super) fn advance(state: &mut State, mut t: Transformation, events: &mut Vec<Event>) -> bool {
    for _ in 0..64 {
        match t.stage {
            1 | 2 => match t.holders.get(t.next as usize).cloned() {
                Some(h) if can_buy(state, &t.major, &h) => {
                    store(state, t);
                    return false;
                }
                Some(_) => t.next += 1,
                None => {
                    t.stage += 1;
                    t.next = 0;
                    t.holders = round_holders(state, &t);
                    if t.stage == 3 && is_tuscan(state, &t) {
                        finish_tuscan(state, &t);
                        return true;
                    }
                    if t.stage == 3 {
                        // The compulsory second token (L.50), from the treasury when it
                        // can, else by emergency money raising (1841 §12.2, §14).
                        let price = required_token_price(state);
                        match state.corporation(&t.major) {
                            Some(c) if c.tokens_total < 2 && c.cash >= price => {
                                pay_tokens(state, &t.major, 2, price, events);
                            }
                            Some(c) if c.tokens_total < 2 => t.stage = TOKEN_EMERGENCY,
                            _ => {}
                        }
                    }
                }
            },
            TOKEN_EMERGENCY => {
                let price = required_token_price(state);
                let major = t.major.clone();
                if emergency_sales_for(state, &major, price).is_empty() {
                    // FAQ-Q2: nothing more to sell, the selling is over.
                    crate::g1841::sale::selling_ends(state, events);
                    if funds(state, &major) >= price {
                        // What the sales left short, the raisers' cash pays (FAQ-Q5: "the
                        // president must pay the rest"); no further token (FAQ-Q5).
                        contribute(state, &major, price, events);
                        pay_tokens(state, &major, 2, price, events);
                        t.stage = 4;
                        continue;
                    }
                    if controller(state, &major).is_none()
                        || !may_go_bankrupt_for(state, &major, price)
                    {
                        // Nobody can raise it nor go bankrupt for it (no controlling player:
                        // unreachable from a valid state): the token is given, as after a
                        // bankruptcy (§14).
                        free_token(state, &major, events);
                        t.stage = 4;
                        continue;
                    }
                }
                store(state, t);
                return false;
            }
            3 => {
                if token_counts(state, &t.major).is_empty() {
                    t.stage = 4;
                    continue;
                }
                store(state, t);
                return false;
            }
            _ => {
                set_event(state, None);
                return true;
            }
        }
    }
    store(state, t);
    false
}
