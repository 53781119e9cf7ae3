//! Player-to-player purchases (`p2p_purchases`; 1841 §3.2, §5.2, §15.3; FAQ-Q3, FAQ-Q4,
//! FAQ-C18, FAQ-R1).
//!
//! In his stock-round turn a player may, as his one purchase of the turn (after any sales,
//! 1841 §5.1), buy certificates or a concession from another player at a negotiated price.
//! The negotiation is two actions: the buyer's [`Action::OfferPurchase`] (what, from whom, at
//! what price) and the seller's [`Action::AnswerOffer`]. While an offer waits, only the seller
//! acts. Accepted: the item goes to the buyer, the price to the seller, the buyer's turn ends.
//! Declined: nothing changes hands and the buyer's turn goes on; he may offer the same thing
//! to the same seller again only at a higher price (docs/games/1841.md, interpretation I47).
//!
//! The rules of a purchase ([`check`], the same at offer time and at acceptance):
//! * shares: a multiple of the corporation's unit that the seller holds, his ordinary
//!   certificates first; more than those takes his president's certificate too, whole or in
//!   part: never for a historical corporation before phase 4 (1841 §5.2, the concession
//!   lock); a partial president's bundle needs another holder who then holds at least the
//!   president's certificate's percent, the largest of them taking the presidency, ties to
//!   the nearest after the seller (FAQ-Q3, 1841 §5.3);
//! * a concession: any one the seller holds; the locked concession of a started historical
//!   corporation brings its president's certificate along (1841 §3.2);
//! * the buyer's limits: certificate limit (1841 §2) and 60% (§7.3, indirect holdings
//!   included), no purchase of a corporation he sold this round (§5.1), no purchase that
//!   puts corporations under mutual control (FAQ-R1); price at least L.1 and at most his cash;
//! * not a sale by the seller: allowed before the corporation has operated, and the seller
//!   may still buy it later in the round (FAQ-Q4);
//! * only players buy from players: corporations never do (FAQ-C18), so the actions exist
//!   only in stock rounds.

use super::action::{Action, Event, OfferRange};
use super::concession::Concession;
use super::corporation::{
    certificate_count, certificate_limit, circular_set, controlled_percent,
    corporation_of_concession, frozen, players_from, presidency_may_change,
};
use super::data;
use super::state::{PurchaseItem, PurchaseOffer, Round, ShareOwner, State};
use crate::{Rejection, RejectionCode, Seat};

/// The rule cited for player-to-player purchases in general.
pub const RULE: &str = "1841 §15.3";

fn reject(code: RejectionCode, rule: &str, message: impl Into<String>) -> Rejection {
    Rejection::new(code, rule, message)
}

fn illegal(rule: &str, message: impl Into<String>) -> Rejection {
    reject(RejectionCode::IllegalMove, rule, message)
}

/// The corporation whose certificates change hands with `item`: the shares' corporation, or
/// the started historical corporation whose president's certificate comes with its locked
/// concession (1841 §3.2). `None` for an unused concession, Bayard, or an unknown symbol.
fn corporation_of_item(state: &State, seller: Seat, item: &PurchaseItem) -> Option<String> {
    match item {
        PurchaseItem::Shares { corporation, .. } => Some(corporation.clone()),
        PurchaseItem::Concession { concession } => {
            let c: Concession = concession.parse().ok()?;
            let sym = corporation_of_concession(&state.options, c)?;
            let corp = state.corporation(sym)?;
            (corp.started() && corp.president() == Some(&ShareOwner::Player(seller)))
                .then(|| sym.to_string())
        }
    }
}

/// What `item` is worth at market in L. (a guide for offers, [`OfferRange::market_value`]):
/// the certificates at the current share price; a concession at its face value (L.50), plus
/// its president's certificate at 2× the share price when that comes along (1841 §3.2).
pub fn market_value(state: &State, seller: Seat, item: &PurchaseItem) -> i64 {
    match item {
        PurchaseItem::Shares {
            corporation,
            percent,
        } => state.corporation(corporation).map_or(0, |c| {
            c.price()
                .unwrap_or(0)
                .saturating_mul(i64::from(percent / c.unit_percent().max(1)))
        }),
        PurchaseItem::Concession { .. } => {
            let face = data::ruleset(&state.options).concession_round.face_value;
            let president = corporation_of_item(state, seller, item)
                .and_then(|sym| state.corporation(&sym).and_then(|c| c.price()))
                .map_or(0, |p| p.saturating_mul(2));
            face.saturating_add(president)
        }
    }
}

/// Checks everything about `buyer` buying `item` from `seller` except the price (1841 §2,
/// §3.2, §5.1, §5.2, §7.3; FAQ-Q3, FAQ-R1): the option, the seats, the holdings, the
/// presidency rules and the buyer's limits after the transfer. Turn-level conditions (his
/// turn, no start in progress, no forced sale) are the stock round's.
///
/// Errors: `ILLEGAL_MOVE` with the rule broken; `INVALID_ARGUMENT` for a seat not at the
/// table or an unknown corporation or concession symbol.
pub fn check(
    state: &State,
    buyer: Seat,
    seller: Seat,
    item: &PurchaseItem,
) -> Result<(), Rejection> {
    precheck(state, buyer, seller, item)?;
    let mut work = state.clone();
    trial(
        &mut work,
        &Before::of(state, buyer),
        buyer,
        seller,
        item,
        |_| (),
    )
}

/// The checks that need no trial transfer: the option, the seats, no purchase of a
/// corporation the buyer sold this round (1841 §5.1).
fn precheck(
    state: &State,
    buyer: Seat,
    seller: Seat,
    item: &PurchaseItem,
) -> Result<(), Rejection> {
    if !state.options.p2p_purchases {
        return Err(illegal(
            RULE,
            "Players buy from other players only with the p2p_purchases option.",
        ));
    }
    if state.player(seller).is_none() {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "1841 §2",
            format!(
                "Seat {seller} does not exist in this {}-player game.",
                state.players.len()
            ),
        ));
    }
    if seller == buyer {
        return Err(illegal(RULE, "A player cannot buy from himself."));
    }
    if let Some(sym) = corporation_of_item(state, seller, item)
        && state.stock_round().is_some_and(|r| {
            r.sold
                .iter()
                .any(|s| s.seat == buyer && s.corporation == sym)
        })
    {
        return Err(illegal(
            "1841 §5.1",
            format!("Seat {buyer} sold {sym} this round and may not buy it."),
        ));
    }
    Ok(())
}

/// The buyer's position before any purchase, to compare the trials with.
struct Before {
    certificates: u32,
    controlled: Vec<u32>,
    loops: Vec<String>,
}

impl Before {
    fn of(state: &State, buyer: Seat) -> Self {
        Self {
            certificates: certificate_count(state, buyer),
            controlled: state
                .corporations
                .iter()
                .map(|c| controlled_percent(state, buyer, &c.sym))
                .collect(),
            loops: circular_set(state),
        }
    }
}

/// Transfers `item` on `work` (a copy of the state the [`Before`] was taken of), checks the
/// buyer's limits after it (1841 §2, §7.3, FAQ-R1), runs `inspect` on the result and puts
/// `work` back as it was (only the corporation concerned and the two players' concessions
/// change in a transfer).
fn trial<T>(
    work: &mut State,
    before: &Before,
    buyer: Seat,
    seller: Seat,
    item: &PurchaseItem,
    inspect: impl FnOnce(&State) -> T,
) -> Result<T, Rejection> {
    let sym = corporation_of_item(work, seller, item);
    let certificates = sym
        .as_deref()
        .and_then(|s| work.corporation(s))
        .map(|c| c.certificates.clone());
    let concessions = |w: &State| {
        (
            w.player(seller).map(|p| p.concessions.clone()),
            w.player(buyer).map(|p| p.concessions.clone()),
        )
    };
    let saved_concessions =
        matches!(item, PurchaseItem::Concession { .. }).then(|| concessions(work));
    let president_of = |w: &State| {
        sym.as_deref()
            .and_then(|s| w.corporation(s))
            .and_then(|c| c.president().cloned())
    };
    let president = president_of(work);
    let result = transfer(work, buyer, seller, item, &mut Vec::new())
        .and_then(|()| {
            // Control changes only with the presidency; otherwise only the corporation
            // concerned can have moved under the limits.
            let only = (president_of(work) == president)
                .then_some(sym.as_deref())
                .flatten();
            let shares = matches!(item, PurchaseItem::Shares { .. });
            limits(work, before, buyer, only, shares)
        })
        .map(|()| inspect(work));
    if let (Some(sym), Some(certificates)) = (sym, certificates)
        && let Some(c) = work.corporations.iter_mut().find(|c| c.sym == sym)
    {
        c.certificates = certificates;
    }
    if let Some((s, b)) = saved_concessions {
        if let (Some(list), Some(p)) = (s, work.players.get_mut(seller as usize)) {
            p.concessions = list;
        }
        if let (Some(list), Some(p)) = (b, work.players.get_mut(buyer as usize)) {
            p.concessions = list;
        }
    }
    result
}

/// The buyer's limits after a trial transfer (1841 §2, §7.3, FAQ-R1); `only`: the one
/// corporation whose shares moved when no presidency changed (nothing else can have);
/// `shares`: the item is certificates of a corporation.
fn limits(
    after: &State,
    before: &Before,
    buyer: Seat,
    only: Option<&str>,
    shares: bool,
) -> Result<(), Rejection> {
    // 1841 §2: the certificate limit. A player at his limit buys no certificate, as in any
    // purchase (stock_round: at the limit, no purchase at all; 18xx `can_gain?`:
    // `num_certs < cert_limit` before the bundle moves), even where the presidency swap that
    // follows would leave his count as it was (p2p_purchases heuristic 4 players seed 4001,
    // id 771: seat 2, 16 certificates of 16, bought a 10% ICSF share that made him
    // president). Otherwise the count after any exchange may not pass the limit (a
    // purchase that adds no certificate is always fine).
    let limit = certificate_limit(after);
    if shares && before.certificates >= limit {
        return Err(illegal(
            "1841 §2",
            format!(
                "Seat {buyer} holds {} certificates, the limit of {limit}, and may buy none.",
                before.certificates
            ),
        ));
    }
    let count = certificate_count(after, buyer);
    if count > limit && count > before.certificates {
        return Err(illegal(
            "1841 §2",
            format!("Seat {buyer} would hold {count} certificates; the limit is {limit}."),
        ));
    }
    // 1841 §7.3: at most 60% of any corporation, shares held by corporations he controls
    // included (a presidency bought may bring such shares under his control).
    let max = data::ruleset(&after.options).max_percent_controlled_by_one_player;
    for (c, was) in after.corporations.iter().zip(&before.controlled) {
        if only.is_some_and(|sym| sym != c.sym) {
            continue;
        }
        let now = controlled_percent(after, buyer, &c.sym);
        if now > max && now > *was {
            return Err(illegal(
                "1841 §7.3",
                format!(
                    "Seat {buyer} would control {now}% of {}; a player may control at most {max}%.",
                    c.sym
                ),
            ));
        }
    }
    // FAQ-R1: no purchase that puts corporations under mutual control (only a presidency
    // that changes can close a loop).
    if only.is_some() {
        return Ok(());
    }
    if let Some(c) = circular_set(after)
        .into_iter()
        .find(|c| !before.loops.contains(c))
    {
        return Err(illegal(
            "FAQ-R1",
            format!("This purchase would put {c} under mutual control of corporations."),
        ));
    }
    Ok(())
}

/// Moves `item` from `seller` to `buyer` (no payment), with the presidency changes it
/// brings, on a state the caller may throw away on `Err`.
fn transfer(
    state: &mut State,
    buyer: Seat,
    seller: Seat,
    item: &PurchaseItem,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    match item {
        PurchaseItem::Shares {
            corporation,
            percent,
        } => transfer_shares(state, buyer, seller, corporation, *percent, events),
        PurchaseItem::Concession { concession } => {
            transfer_concession(state, buyer, seller, concession, events)
        }
    }
}

fn presidency_event(sym: &str, new: &ShareOwner) -> Event {
    match new {
        ShareOwner::Player(seat) => Event::PresidentChanged {
            corporation: sym.to_string(),
            seat: *seat,
        },
        other => Event::PresidencyMoved {
            corporation: sym.to_string(),
            president: other.clone(),
        },
    }
}

/// Shares (1841 §5.2): ordinary certificates first, then the president's certificate
/// (never of a historical corporation before phase 4); when it goes, the largest other holder
/// after the transfer with at least its percent becomes president (ties: players from the
/// seller on round the table, then corporations in operating order), exchanging certificates so
/// that every holder ends with the percent the purchase gives him (FAQ-Q3).
fn transfer_shares(
    state: &mut State,
    buyer: Seat,
    seller: Seat,
    sym: &str,
    percent: u32,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    let Some(corp) = state.corporation(sym) else {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "1841 §3.3",
            format!("`{sym}` is not a corporation of these rules."),
        ));
    };
    if !corp.started() {
        return Err(illegal(
            "1841 §5.2",
            format!("{sym} has not been started: nobody holds its shares."),
        ));
    }
    let unit = corp.unit_percent();
    let pres = 2 * unit;
    if percent == 0 || !percent.is_multiple_of(unit) {
        return Err(illegal(
            "1841 §5.2",
            format!("Shares of {sym} change hands in units of {unit}%, not {percent}%."),
        ));
    }
    let s = ShareOwner::Player(seller);
    let b = ShareOwner::Player(buyer);
    let held = corp.percent_of(&s);
    if percent > held {
        return Err(illegal(
            "1841 §5.2",
            format!("Seat {seller} holds {held}% of {sym}, not {percent}%."),
        ));
    }
    let ordinary: u32 = corp
        .certificates
        .iter()
        .filter(|c| c.owner == s && !c.president)
        .map(|c| c.percent)
        .sum();
    if percent <= ordinary {
        if let Some(corp) = state.corporation_mut(sym) {
            let mut moved = 0;
            for c in corp.certificates.iter_mut() {
                if moved >= percent {
                    break;
                }
                if c.owner == s && !c.president {
                    c.owner = b.clone();
                    moved += c.percent;
                }
            }
        }
        // 1841 §7.5: a holder with strictly more than the president takes over (never for a
        // historical corporation before phase 4).
        super::corporation::update_presidency(state, sym, Some(buyer), events);
        return Ok(());
    }
    // The president's certificate goes (the seller holds more than his ordinary shares).
    if !presidency_may_change(state, corp) {
        return Err(illegal(
            "1841 §5.2",
            format!(
                "The president's certificate of historical {sym} cannot change hands before phase 4 (except with its concession, 1841 §3.2)."
            ),
        ));
    }
    let post = |h: &ShareOwner| corp.percent_of(h) + if *h == b { percent } else { 0 };
    let candidates = players_from(state, seller)
        .into_iter()
        .filter(|p| *p != seller)
        .map(ShareOwner::Player)
        .chain(
            state
                .corporations
                .iter()
                .filter(|c| c.sym != sym)
                .map(|c| ShareOwner::Corporation(c.sym.clone())),
        );
    let mut best: Option<(ShareOwner, u32)> = None;
    for h in candidates {
        let p = post(&h);
        if p >= pres && best.as_ref().is_none_or(|(_, q)| p > *q) {
            best = Some((h, p));
        }
    }
    let Some((new, new_post)) = best else {
        return Err(illegal(
            "FAQ-Q3",
            format!(
                "After this purchase nobody would hold the {pres}% needed to take over the presidency of {sym}."
            ),
        ));
    };
    // Ordinary certificates each of seller, buyer and new president ends with.
    let mut targets: Vec<(ShareOwner, u32)> = vec![(s.clone(), (held - percent) / unit)];
    if new != b {
        targets.push((b.clone(), post(&b) / unit));
    }
    targets.push((new.clone(), (new_post - pres) / unit));
    let was_frozen = frozen(state, sym);
    if let Some(corp) = state.corporation_mut(sym) {
        // Holders over their target give certificates to holders under it.
        let mut have: Vec<u32> = targets
            .iter()
            .map(|(h, _)| {
                corp.certificates
                    .iter()
                    .filter(|c| &c.owner == h && !c.president)
                    .count() as u32
            })
            .collect();
        for i in 0..corp.certificates.len() {
            if corp.certificates[i].president {
                corp.certificates[i].owner = new.clone();
                continue;
            }
            let owner = corp.certificates[i].owner.clone();
            let Some(from) = targets.iter().position(|(h, _)| *h == owner) else {
                continue;
            };
            if have[from] <= targets[from].1 {
                continue;
            }
            if let Some(to) = (0..targets.len()).find(|&k| have[k] < targets[k].1) {
                corp.certificates[i].owner = targets[to].0.clone();
                have[from] -= 1;
                have[to] += 1;
            }
        }
    }
    events.push(presidency_event(sym, &new));
    let now_frozen = frozen(state, sym);
    if was_frozen != now_frozen {
        events.push(Event::FrozenChanged {
            corporation: sym.to_string(),
            frozen: now_frozen,
        });
    }
    Ok(())
}

/// A concession (1841 §3.2): it changes hands; the locked concession of a started historical
/// corporation brings its president's certificate along (the only way that presidency changes
/// hands before phase 4).
fn transfer_concession(
    state: &mut State,
    buyer: Seat,
    seller: Seat,
    text: &str,
    events: &mut Vec<Event>,
) -> Result<(), Rejection> {
    let Ok(c) = text.parse::<Concession>() else {
        return Err(reject(
            RejectionCode::InvalidArgument,
            "1841 §3.2",
            format!("`{text}` is not a concession of 1841."),
        ));
    };
    if !state
        .player(seller)
        .is_some_and(|p| p.concessions.contains(&c))
    {
        return Err(illegal(
            "1841 §3.2",
            format!("Seat {seller} does not hold the {c} concession."),
        ));
    }
    let president = corporation_of_item(
        state,
        seller,
        &PurchaseItem::Concession {
            concession: text.to_string(),
        },
    );
    if let Some(p) = state.players.get_mut(seller as usize) {
        p.concessions.retain(|x| *x != c);
    }
    if let Some(p) = state.players.get_mut(buyer as usize) {
        p.concessions.push(c);
        p.concessions.sort();
    }
    if let Some(sym) = president {
        if let Some(corp) = state.corporations.iter_mut().find(|x| x.sym == sym) {
            for cert in corp.certificates.iter_mut().filter(|x| x.president) {
                cert.owner = ShareOwner::Player(buyer);
            }
        }
        events.push(presidency_event(&sym, &ShareOwner::Player(buyer)));
    }
    Ok(())
}

/// The smallest price `buyer` may offer now for `item` from `seller`: L.1, or L.1 more than
/// the highest price the seller declined for it this turn (interpretation I47).
fn min_price(state: &State, seller: Seat, item: &PurchaseItem) -> i64 {
    state
        .stock_round()
        .into_iter()
        .flat_map(|r| r.declined_offers.iter())
        .filter(|o| o.seller == seller && o.item == *item)
        .map(|o| o.price.saturating_add(1))
        .fold(1, i64::max)
}

/// Every item `buyer` could buy from another player, before the price.
fn candidates(state: &State, buyer: Seat) -> Vec<(Seat, PurchaseItem)> {
    let mut out = Vec::new();
    for seller in players_from(state, buyer) {
        if seller == buyer {
            continue;
        }
        let Some(p) = state.player(seller) else {
            continue;
        };
        for c in &p.concessions {
            out.push((
                seller,
                PurchaseItem::Concession {
                    concession: c.as_str().to_string(),
                },
            ));
        }
        let owner = ShareOwner::Player(seller);
        for corp in state.corporations.iter().filter(|c| c.started()) {
            let unit = corp.unit_percent();
            let held = corp.percent_of(&owner);
            let mut percent = unit;
            while percent <= held {
                out.push((
                    seller,
                    PurchaseItem::Shares {
                        corporation: corp.sym.clone(),
                        percent,
                    },
                ));
                percent += unit;
            }
        }
    }
    out
}

/// Every purchase `buyer` may offer now, with its price range: from L.1 (more after a
/// declined offer, I47) to his cash (1841 §3.2, §5.2). Sellers in player order from the
/// buyer, each seller's concessions, then shares by corporation and percent. Empty without
/// `p2p_purchases`. Turn-level conditions are the stock round's.
pub fn offer_ranges(state: &State, buyer: Seat) -> Vec<OfferRange> {
    ranges_with(state, buyer, |_| true)
}

/// [`offer_ranges`] keeping the ranges whose transferred state `keep` accepts.
fn ranges_with(state: &State, buyer: Seat, keep: impl Fn(&State) -> bool) -> Vec<OfferRange> {
    if !state.options.p2p_purchases {
        return Vec::new();
    }
    let Some(cash) = state.player(buyer).map(|p| p.cash) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut work: Option<State> = None;
    let before = Before::of(state, buyer);
    for (seller, item) in candidates(state, buyer) {
        let min = min_price(state, seller, &item);
        if min > cash || precheck(state, buyer, seller, &item).is_err() {
            continue;
        }
        let work = work.get_or_insert_with(|| state.clone());
        if !trial(work, &before, buyer, seller, &item, &keep).unwrap_or(false) {
            continue;
        }
        out.push(OfferRange {
            seller,
            market_value: market_value(state, seller, &item),
            item,
            min_price: min,
            max_price: cash,
        });
    }
    out
}

/// Whether `price` for `item` from `seller` lies in `buyer`'s range now.
fn price_in_range(
    state: &State,
    buyer: Seat,
    seller: Seat,
    item: &PurchaseItem,
    price: i64,
) -> bool {
    let cash = state.player(buyer).map_or(0, |p| p.cash);
    price >= min_price(state, seller, item) && price <= cash
}

/// Why `buyer`'s offer is refused: the first rule it breaks (1841 §2, §3.2, §5.1, §5.2,
/// §7.3, §15.3; FAQ-Q3, FAQ-R1). Turn-level reasons are the stock round's.
pub fn explain(
    state: &State,
    buyer: Seat,
    seller: Seat,
    item: &PurchaseItem,
    price: i64,
) -> Rejection {
    if let Err(r) = check(state, buyer, seller, item) {
        return r;
    }
    let cash = state.player(buyer).map_or(0, |p| p.cash);
    let min = min_price(state, seller, item);
    if price < 1 {
        reject(
            RejectionCode::InvalidArgument,
            "1841 §3.2",
            format!("A price must be at least L.1, not L.{price}."),
        )
    } else if price < min {
        illegal(
            RULE,
            format!(
                "Seat {seller} declined L.{} for this earlier in the turn: offer at least L.{min}.",
                min - 1
            ),
        )
    } else if price > cash {
        reject(
            RejectionCode::InsufficientFunds,
            "1841 §5.2",
            format!("Seat {buyer} has L.{cash}, not L.{price}."),
        )
    } else {
        illegal(RULE, "Not a purchase that may be offered now.")
    }
}

/// Whether `offer` is (still) a purchase its buyer may make (used for listing and applying
/// the seller's acceptance).
pub fn acceptable(state: &State, offer: &PurchaseOffer) -> bool {
    price_in_range_for_acceptance(state, offer)
        && check(state, offer.buyer, offer.seller, &offer.item).is_ok()
}

fn price_in_range_for_acceptance(state: &State, offer: &PurchaseOffer) -> bool {
    offer.price >= 1
        && state
            .player(offer.buyer)
            .is_some_and(|p| p.cash >= offer.price)
}

/// The seller's choices for the waiting offer: accept (if the purchase is still within the
/// rules) and decline.
pub fn answers(state: &State, offer: &PurchaseOffer) -> Vec<Action> {
    let mut out = Vec::new();
    if acceptable(state, offer) {
        out.push(Action::AnswerOffer { accept: true });
    }
    out.push(Action::AnswerOffer { accept: false });
    out
}

/// Records the offer (already checked against the buyer's ranges) and hands the decision to
/// the seller.
pub fn make_offer(state: &mut State, offer: PurchaseOffer, events: &mut Vec<Event>) {
    events.push(Event::OfferMade {
        offer: offer.clone(),
    });
    if let Round::StockRound(r) = &mut state.round {
        r.offer = Some(offer);
    }
}

/// Whether `price` for `item` from `seller` is an offer `buyer` may make now (checks and
/// range; turn-level conditions are the stock round's).
pub fn may_offer(
    state: &State,
    buyer: Seat,
    seller: Seat,
    item: &PurchaseItem,
    price: i64,
) -> bool {
    price_in_range(state, buyer, seller, item, price) && check(state, buyer, seller, item).is_ok()
}

/// The seller's answer to the waiting offer: accepted → the item and the price change hands
/// (`OfferAccepted`, then presidency events); declined → it is remembered for the rest of the
/// turn (`OfferDeclined`). Returns the offer and whether it was accepted.
///
/// Errors: `WRONG_STEP` without a waiting offer; `ILLEGAL_MOVE` when an acceptance breaks a
/// rule (only possible for a state edited since the offer).
pub fn answer(
    state: &mut State,
    accept: bool,
    events: &mut Vec<Event>,
) -> Result<(PurchaseOffer, bool), Rejection> {
    let Some(offer) = state.stock_round().and_then(|r| r.offer.clone()) else {
        return Err(reject(
            RejectionCode::WrongStep,
            RULE,
            "No purchase offer is waiting for an answer.",
        ));
    };
    if !accept {
        if let Round::StockRound(r) = &mut state.round {
            r.offer = None;
            r.declined_offers.push(offer.clone());
        }
        events.push(Event::OfferDeclined {
            offer: offer.clone(),
        });
        return Ok((offer, false));
    }
    if !acceptable(state, &offer) {
        return Err(match check(state, offer.buyer, offer.seller, &offer.item) {
            Err(r) => r,
            Ok(()) => reject(
                RejectionCode::InsufficientFunds,
                "1841 §5.2",
                format!("Seat {} cannot pay L.{}.", offer.buyer, offer.price),
            ),
        });
    }
    if let Round::StockRound(r) = &mut state.round {
        r.offer = None;
    }
    events.push(Event::OfferAccepted {
        offer: offer.clone(),
    });
    transfer(state, offer.buyer, offer.seller, &offer.item, events)?;
    if let Some(p) = state.players.get_mut(offer.buyer as usize) {
        p.cash -= offer.price;
    }
    if let Some(p) = state.players.get_mut(offer.seller as usize) {
        p.cash += offer.price;
    }
    Ok((offer, true))
}
