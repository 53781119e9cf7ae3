//! Player-to-player purchases (`p2p_purchases`; 1841 §3.2, §5.2, §15.3; FAQ-Q3, FAQ-Q4,
//! FAQ-C18, FAQ-R1) as an offer by the buyer and the seller's answer, with exact values.
//! States are built by hand: 4 players (L.840 each), player order 0, 1, 2, 3, Stock Round 2.

use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{
    Action, Concession, Event, G1841, OfferRange, Options, PurchaseItem, PurchaseOffer, Round,
    ShareOwner, State, flow, market,
};
use referee_engine::{Game, RejectionCode, Seat};

mod common;
use common::before_in;

fn p2p() -> Options {
    Options {
        p2p_purchases: true,
        ..Options::default()
    }
}

/// A corporation placed by hand: symbol, par price, holders (the first holds the president's
/// certificate; percents include it).
type Placed<'a> = (&'a str, i64, &'a [(Seat, u32)]);

/// A 4-player game in `phase` at the start of Stock Round 2 with the given concessions (L.50
/// each paid to the bank) and corporations (started at par; the certificates were given, no
/// money moved, so money stays conserved).
fn table(
    options: Options,
    phase: &str,
    concessions: &[(Seat, Concession)],
    corps: &[Placed],
) -> State {
    let mut s = G1841::setup(&options, 4, 0).unwrap();
    s.phase = phase.to_string();
    for c in referee_engine::g1841::setup::concessions_of(&options) {
        match concessions.iter().find(|(_, x)| *x == c) {
            Some((seat, _)) => {
                s.players[*seat as usize].concessions.push(c);
                s.players[*seat as usize].cash -= 50;
                s.bank_cash += 50;
            }
            None => s.bank_concessions.push(c),
        }
    }
    for (sym, par, holders) in corps {
        let kind = s.corporation(sym).unwrap().kind;
        let (row, col) = market::par_cell(*par, kind).unwrap();
        market::set_cell(&mut s, sym, row, col);
        let corp = s.corporations.iter_mut().find(|c| c.sym == *sym).unwrap();
        corp.par_price = *par;
        let unit = corp.unit_percent();
        for (k, (seat, percent)) in holders.iter().enumerate() {
            let mut left = *percent;
            if k == 0 {
                corp.certificates[0].owner = ShareOwner::Player(*seat);
                left -= 2 * unit;
            }
            for c in corp.certificates.iter_mut() {
                if left == 0 {
                    break;
                }
                if !c.president && c.owner == ShareOwner::Ipo {
                    c.owner = ShareOwner::Player(*seat);
                    left -= unit;
                }
            }
        }
    }
    let mut events = Vec::new();
    flow::begin(&mut s, flow::Next::StockRound(2), &mut events);
    assert_eq!(validate(&s), Ok(()));
    s
}

fn shares(sym: &str, percent: u32) -> PurchaseItem {
    PurchaseItem::Shares {
        corporation: sym.into(),
        percent,
    }
}

fn concession(c: &str) -> PurchaseItem {
    PurchaseItem::Concession {
        concession: c.into(),
    }
}

fn offer(seller: Seat, item: PurchaseItem, price: i64) -> Action {
    Action::OfferPurchase {
        seller,
        item,
        price,
    }
}

const ACCEPT: Action = Action::AnswerOffer { accept: true };
const DECLINE: Action = Action::AnswerOffer { accept: false };

/// Whether `a` lies inside `seat`'s legal set (listed, or an offer within a range).
fn covered(s: &State, seat: Seat, a: &Action) -> bool {
    let legal = G1841::legal(s, seat);
    match a {
        Action::OfferPurchase {
            seller,
            item,
            price,
        } => legal.offers.iter().any(|o| {
            o.seller == *seller && o.item == *item && (o.min_price..=o.max_price).contains(price)
        }),
        other => legal.actions.contains(other),
    }
}

fn ok(s: &mut State, seat: Seat, a: Action) -> Vec<Event> {
    assert!(covered(s, seat, &a), "{a:?} not legal for seat {seat}");
    let ev = G1841::apply(s, seat, &a).unwrap_or_else(|r| panic!("{a:?}: {r}"));
    assert_eq!(validate(s), Ok(()));
    ev
}

fn rejected(s: &State, seat: Seat, a: Action, code: RejectionCode, rule: &str) {
    let mut probe = s.clone();
    let r = G1841::apply(&mut probe, seat, &a).unwrap_err();
    assert_eq!((r.code, r.rule.as_str()), (code, rule), "{a:?}: {r}");
    assert_eq!(&probe, s, "a rejection leaves the state unchanged");
    assert!(!covered(s, seat, &a), "{a:?} refused but legal");
}

/// 1841 §2: in a phase-3 `p2p` table of `corps`, seat 1 holds 16 certificates, the limit
/// for 4 players, so his offer for 10% of CGTF from seat 2 is refused.
fn seat_1_at_the_limit_may_not_buy_cgtf(corps: &[Placed]) {
    let mut s = table(p2p(), "3", &[], corps);
    turn_of(&mut s, 1);
    assert_eq!(
        referee_engine::g1841::corporation::certificate_count(&s, 1),
        16
    );
    rejected(
        &s,
        1,
        offer(2, shares("CGTF", 10), 100),
        RejectionCode::IllegalMove,
        "1841 §2",
    );
}

/// The other seats pass until it is `seat`'s turn.
fn turn_of(s: &mut State, seat: Seat) {
    while G1841::to_act(s) != [seat] {
        let other = G1841::to_act(s)[0];
        ok(s, other, Action::Pass);
    }
}

fn percent(s: &State, sym: &str, seat: Seat) -> u32 {
    s.corporation(sym)
        .unwrap()
        .percent_of(&ShareOwner::Player(seat))
}

fn president(s: &State, sym: &str) -> Option<Seat> {
    s.corporation(sym).unwrap().president_seat()
}

fn cash(s: &State) -> Vec<i64> {
    s.players.iter().map(|p| p.cash).collect()
}

fn the_offer(buyer: Seat, seller: Seat, item: PurchaseItem, price: i64) -> PurchaseOffer {
    PurchaseOffer {
        buyer,
        seller,
        item,
        price,
    }
}

/// FAQ-Q3 (1841 §5.2): P1 (seat 0) holds only CTS's president's certificate, P2 (seat 1) 20%,
/// P3 (seat 2) none. P3 buys 10% from P1 for L.60: accepted; P2 becomes president (he gives
/// two 10% shares for the president's certificate). P1 keeps 10%, P3 holds 10%.
#[test]
fn faq_q3_one_share_from_a_player_holding_only_the_presidents_certificate() {
    let mut s = table(p2p(), "3", &[], &[("CTS", 100, &[(0, 20), (1, 20)])]);
    turn_of(&mut s, 2);
    let o = the_offer(2, 0, shares("CTS", 10), 60);
    // Listed for the buyer as a range from L.1 to his cash, worth L.100 at market.
    assert!(G1841::legal(&s, 2).offers.contains(&OfferRange {
        seller: 0,
        item: shares("CTS", 10),
        min_price: 1,
        max_price: 840,
        market_value: 100,
    }));
    // `legal_actions` lists it at its market value.
    assert!(G1841::legal_actions(&s, 2).contains(&offer(0, shares("CTS", 10), 100)));
    let ev = ok(&mut s, 2, offer(0, shares("CTS", 10), 60));
    assert_eq!(ev, [Event::OfferMade { offer: o.clone() }]);
    assert_eq!(G1841::to_act(&s), [0], "the seller answers");
    assert_eq!(G1841::legal_actions(&s, 0), [ACCEPT, DECLINE]);
    assert!(G1841::legal(&s, 2).is_empty());
    let ev = ok(&mut s, 0, ACCEPT);
    assert_eq!(
        &ev[..2],
        [
            Event::OfferAccepted { offer: o },
            Event::PresidentChanged {
                corporation: "CTS".into(),
                seat: 1
            }
        ]
    );
    assert_eq!(
        (
            percent(&s, "CTS", 0),
            percent(&s, "CTS", 1),
            percent(&s, "CTS", 2)
        ),
        (10, 20, 10)
    );
    assert_eq!(president(&s, "CTS"), Some(1));
    assert_eq!(cash(&s), [900, 840, 780, 840]);
    // The purchase was seat 2's buy of the turn: seat 3 is next.
    assert_eq!(G1841::to_act(&s), [3]);
    assert_eq!(s.stock_round().unwrap().last_to_act, Some(2));
}

/// FAQ-Q3: with P2 holding only 10% nobody could take over the presidency: the purchase is
/// refused (and not offered).
#[test]
fn faq_q3_refused_when_nobody_can_take_the_presidency() {
    let mut s = table(p2p(), "3", &[], &[("CTS", 100, &[(0, 20), (1, 10)])]);
    turn_of(&mut s, 2);
    rejected(
        &s,
        2,
        offer(0, shares("CTS", 10), 60),
        RejectionCode::IllegalMove,
        "FAQ-Q3",
    );
    // The whole president's certificate may be bought: the buyer then holds 20%.
    assert!(covered(&s, 2, &offer(0, shares("CTS", 20), 1)));
}

/// FAQ-Q3 (18xx: "when the buyer already holds a share"): P3 holds 10% and buys 10% from P1,
/// who holds only the president's certificate: P3 reaches 20% and takes the presidency.
#[test]
fn faq_q3_buyer_with_a_share_takes_the_presidency() {
    let mut s = table(p2p(), "3", &[], &[("CTS", 100, &[(0, 20), (2, 10)])]);
    turn_of(&mut s, 2);
    ok(&mut s, 2, offer(0, shares("CTS", 10), 150));
    let ev = ok(&mut s, 0, ACCEPT);
    assert!(ev.contains(&Event::PresidentChanged {
        corporation: "CTS".into(),
        seat: 2
    }));
    assert_eq!((percent(&s, "CTS", 0), percent(&s, "CTS", 2)), (10, 20));
    assert_eq!(president(&s, "CTS"), Some(2));
    let corp = s.corporation("CTS").unwrap();
    assert_eq!(corp.certificates[0].owner, ShareOwner::Player(2));
    assert_eq!(cash(&s), [990, 840, 690, 840]);
}

/// FAQ-Q4: a purchase from a player is not a sale by that player. CTS has not operated; P2
/// (seat 1) buys one of P1's (seat 0) CTS shares: accepted. Later in the same stock round P1
/// buys a CTS share from the IPO: accepted (he has not sold CTS).
#[test]
fn faq_q4_buying_from_a_player_is_not_a_sale() {
    let mut s = table(p2p(), "3", &[], &[("CTS", 100, &[(0, 40)])]);
    assert!(!s.corporation("CTS").unwrap().operated);
    turn_of(&mut s, 1);
    ok(&mut s, 1, offer(0, shares("CTS", 10), 90));
    ok(&mut s, 0, ACCEPT);
    assert_eq!((percent(&s, "CTS", 0), percent(&s, "CTS", 1)), (30, 10));
    assert_eq!(president(&s, "CTS"), Some(0));
    assert!(s.stock_round().unwrap().sold.is_empty(), "no sale recorded");
    turn_of(&mut s, 0);
    let ipo = Action::BuyShares {
        corporation: "CTS".into(),
        from_pool: false,
        percent: 10,
    };
    ok(&mut s, 0, ipo);
    assert_eq!(percent(&s, "CTS", 0), 40);
    assert_eq!(s.corporation("CTS").unwrap().cash, 100);
    assert_eq!(cash(&s), [840 + 90 - 100, 840 - 90, 840, 840]);
}

/// 1841 §3.2: an unused concession changes hands at any agreed price from L.1; the buyer may
/// then start the corporation in a later turn.
#[test]
fn s3_2_an_unused_concession_is_bought_from_a_player() {
    let mut s = table(p2p(), "2", &[(0, Concession::Sftn)], &[]);
    turn_of(&mut s, 1);
    let range = G1841::legal(&s, 1)
        .offers
        .into_iter()
        .find(|o| o.item == concession("SFTN"))
        .unwrap();
    assert_eq!(
        (
            range.seller,
            range.min_price,
            range.max_price,
            range.market_value
        ),
        (0, 1, 840, 50)
    );
    rejected(
        &s,
        1,
        offer(0, concession("SFTN"), 0),
        RejectionCode::InvalidArgument,
        "1841 §3.2",
    );
    ok(&mut s, 1, offer(0, concession("SFTN"), 1));
    let ev = ok(&mut s, 0, ACCEPT);
    assert_eq!(
        ev,
        [Event::OfferAccepted {
            offer: the_offer(1, 0, concession("SFTN"), 1)
        }]
    );
    assert!(s.players[0].concessions.is_empty());
    assert_eq!(s.players[1].concessions, [Concession::Sftn]);
    assert_eq!(cash(&s), [790 + 1, 839, 840, 840]);
    turn_of(&mut s, 1);
    assert!(covered(
        &s,
        1,
        &Action::Par {
            corporation: "SFTN".into(),
            price: 100
        }
    ));
}

/// 1841 §3.2: the locked concession of a started historical corporation brings its
/// president's certificate along — the only way that presidency changes hands before
/// phase 4. P1 (seat 0) started SFTG (20% + 10%); P2 (seat 1, 10%) buys the concession for
/// L.300: he holds the SFTG concession and the president's certificate (30%), P1 keeps 10%.
#[test]
fn s3_2_the_locked_concession_carries_the_presidents_certificate() {
    let mut s = table(
        p2p(),
        "2",
        &[(0, Concession::Sftg)],
        &[("SFTG", 100, &[(0, 30), (1, 10)])],
    );
    turn_of(&mut s, 1);
    let range = G1841::legal(&s, 1)
        .offers
        .into_iter()
        .find(|o| o.item == concession("SFTG"))
        .unwrap();
    assert_eq!(range.market_value, 50 + 2 * 100);
    ok(&mut s, 1, offer(0, concession("SFTG"), 300));
    let ev = ok(&mut s, 0, ACCEPT);
    assert_eq!(
        &ev[..2],
        [
            Event::OfferAccepted {
                offer: the_offer(1, 0, concession("SFTG"), 300)
            },
            Event::PresidentChanged {
                corporation: "SFTG".into(),
                seat: 1
            }
        ]
    );
    assert_eq!(s.players[1].concessions, [Concession::Sftg]);
    assert!(s.players[0].concessions.is_empty());
    assert_eq!(president(&s, "SFTG"), Some(1));
    assert_eq!((percent(&s, "SFTG", 0), percent(&s, "SFTG", 1)), (10, 30));
    assert_eq!(cash(&s), [790 + 300, 540, 840, 840]);
}

/// 1841 §5.2, §7.5: before phase 4 a historical president's certificate cannot change hands
/// as shares (P1 holds only SFTG's 20%: 10% or 20% of it are refused), while his ordinary
/// shares may (the presidency stays locked although the buyer then holds more). From phase 4
/// the president's certificate may be bought.
#[test]
fn s5_2_historical_presidency_locked_before_phase_4() {
    let mut s = table(
        p2p(),
        "3",
        &[(0, Concession::Sftg)],
        &[("SFTG", 100, &[(0, 20), (1, 30)])],
    );
    turn_of(&mut s, 1);
    for p in [10, 20] {
        rejected(
            &s,
            1,
            offer(0, shares("SFTG", p), 200),
            RejectionCode::IllegalMove,
            "1841 §5.2",
        );
    }
    let mut s = table(
        p2p(),
        "3",
        &[(0, Concession::Sftg)],
        &[("SFTG", 100, &[(0, 30), (1, 30)])],
    );
    turn_of(&mut s, 1);
    ok(&mut s, 1, offer(0, shares("SFTG", 10), 100));
    let ev = ok(&mut s, 0, ACCEPT);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::PresidentChanged { .. }))
    );
    assert_eq!((percent(&s, "SFTG", 0), percent(&s, "SFTG", 1)), (20, 40));
    assert_eq!(president(&s, "SFTG"), Some(0), "locked");
    // Phase 4 (no concessions any more): the president's certificate may be bought.
    let mut s = table(p2p(), "4", &[], &[("SFTG", 100, &[(0, 20), (1, 30)])]);
    turn_of(&mut s, 1);
    ok(&mut s, 1, offer(0, shares("SFTG", 20), 250));
    ok(&mut s, 0, ACCEPT);
    assert_eq!((percent(&s, "SFTG", 0), percent(&s, "SFTG", 1)), (0, 50));
    assert_eq!(president(&s, "SFTG"), Some(1));
}

/// 1841 §15.3, interpretation I47: a declined offer leaves everything unchanged except the
/// record of declined offers (and the events); the buyer's turn goes on; the same thing may
/// be offered to the same seller again only at a higher price; the record is cleared when the
/// turn ends.
#[test]
fn s15_3_a_declined_offer_changes_nothing() {
    let mut s = table(p2p(), "3", &[], &[("CTS", 100, &[(0, 40)])]);
    turn_of(&mut s, 1);
    let before = s.clone();
    let ev = ok(&mut s, 1, offer(0, shares("CTS", 10), 80));
    let o = the_offer(1, 0, shares("CTS", 10), 80);
    assert_eq!(ev, [Event::OfferMade { offer: o.clone() }]);
    assert_eq!(s.stock_round().unwrap().offer.as_ref(), Some(&o));
    let ev = ok(&mut s, 0, DECLINE);
    assert_eq!(ev, [Event::OfferDeclined { offer: o.clone() }]);
    let mut expected = before.clone();
    if let Round::StockRound(r) = &mut expected.round {
        r.declined_offers.push(o.clone());
    }
    assert_eq!(s, expected);
    assert_eq!(G1841::to_act(&s), [1], "the buyer's turn goes on");
    // Not again at L.80 or less; from L.81 on.
    rejected(
        &s,
        1,
        offer(0, shares("CTS", 10), 80),
        RejectionCode::IllegalMove,
        "1841 §15.3",
    );
    let range = G1841::legal(&s, 1)
        .offers
        .into_iter()
        .find(|r| r.seller == 0 && r.item == shares("CTS", 10))
        .unwrap();
    assert_eq!((range.min_price, range.max_price), (81, 840));
    // Other items are unaffected.
    assert!(covered(&s, 1, &offer(0, shares("CTS", 20), 1)));
    ok(&mut s, 1, Action::Pass);
    assert!(s.stock_round().unwrap().declined_offers.is_empty());
    assert_eq!(cash(&s), cash(&before));
}

/// 1841 §5.1: sell, then one purchase: a player may sell first and then offer; while the
/// offer waits only the seller acts (the buyer, or anybody else, answering gets
/// NOT_YOUR_TURN; the seller doing anything else WRONG_STEP); an answer without an offer is
/// WRONG_STEP.
#[test]
fn s15_3_only_the_seller_answers() {
    let mut s = table(
        p2p(),
        "3",
        &[],
        &[("CTS", 100, &[(0, 40)]), ("AFI", 100, &[(1, 30)])],
    );
    if let Some(c) = s.corporations.iter_mut().find(|c| c.sym == "AFI") {
        c.operated = true;
    }
    turn_of(&mut s, 1);
    rejected(&s, 1, ACCEPT, RejectionCode::WrongStep, "1841 §15.3");
    ok(
        &mut s,
        1,
        Action::SellShares {
            corporation: "AFI".into(),
            percent: 10,
        },
    );
    ok(&mut s, 1, offer(0, shares("CTS", 10), 80));
    rejected(&s, 1, ACCEPT, RejectionCode::NotYourTurn, "1841 §15.3");
    rejected(&s, 2, DECLINE, RejectionCode::NotYourTurn, "1841 §15.3");
    rejected(
        &s,
        1,
        Action::Pass,
        RejectionCode::NotYourTurn,
        "1841 §15.3",
    );
    rejected(&s, 0, Action::Pass, RejectionCode::WrongStep, "1841 §15.3");
    rejected(
        &s,
        0,
        offer(1, shares("AFI", 10), 80),
        RejectionCode::WrongStep,
        "1841 §15.3",
    );
    ok(&mut s, 0, ACCEPT);
    assert_eq!(G1841::to_act(&s), [2]);
    assert_eq!(percent(&s, "CTS", 1), 10);
}

/// FAQ-C18: corporations never buy from players. In an operating round (132002, IRSFF's
/// routes) the seat controlling the operating corporation is refused an offer or an answer;
/// another seat gets NOT_YOUR_TURN.
#[test]
fn faq_c18_a_corporation_never_offers() {
    let mut s = before_in("132002", 250);
    s.options.p2p_purchases = true;
    assert!(matches!(s.round, Round::OperatingRound(_)));
    let seat = G1841::to_act(&s)[0];
    let other = (seat + 1) % 4;
    let item = shares("IRSFF", 10);
    rejected(
        &s,
        seat,
        offer(other, item.clone(), 50),
        RejectionCode::IllegalMove,
        "FAQ-C18",
    );
    rejected(&s, seat, ACCEPT, RejectionCode::IllegalMove, "FAQ-C18");
    rejected(
        &s,
        other,
        offer(seat, item, 50),
        RejectionCode::NotYourTurn,
        "1841 §8",
    );
    assert!(G1841::legal(&s, seat).offers.is_empty());
}

/// The limits, each refused with its code and rule (1841 §2, §5.1, §5.2, §7.3, §15.3,
/// FAQ-R1).
#[test]
fn s5_2_limits_are_refused_with_their_rule() {
    // Without the option.
    let s = table(Options::default(), "3", &[], &[("CTS", 100, &[(0, 40)])]);
    let seat = G1841::to_act(&s)[0];
    assert_eq!(seat, 0);
    let mut s = s;
    turn_of(&mut s, 1);
    rejected(
        &s,
        1,
        offer(0, shares("CTS", 10), 80),
        RejectionCode::IllegalMove,
        "1841 §15.3",
    );
    assert!(G1841::legal(&s, 1).offers.is_empty());

    // Cash, price, holdings, own seat, unknown seats and symbols.
    let mut s = table(
        p2p(),
        "3",
        &[],
        &[("CTS", 100, &[(0, 40)]), ("AFI", 100, &[(1, 50)])],
    );
    turn_of(&mut s, 1);
    let bad = |s: &State, a: Action, code, rule| rejected(s, 1, a, code, rule);
    bad(
        &s,
        offer(0, shares("CTS", 10), 841),
        RejectionCode::InsufficientFunds,
        "1841 §5.2",
    );
    bad(
        &s,
        offer(0, shares("CTS", 10), -5),
        RejectionCode::InvalidArgument,
        "1841 §3.2",
    );
    bad(
        &s,
        offer(0, shares("CTS", 50), 100),
        RejectionCode::IllegalMove,
        "1841 §5.2",
    );
    bad(
        &s,
        offer(0, shares("CTS", 15), 100),
        RejectionCode::IllegalMove,
        "1841 §5.2",
    );
    bad(
        &s,
        offer(1, shares("AFI", 10), 100),
        RejectionCode::IllegalMove,
        "1841 §15.3",
    );
    bad(
        &s,
        offer(7, shares("CTS", 10), 100),
        RejectionCode::InvalidArgument,
        "1841 §2",
    );
    bad(
        &s,
        offer(0, shares("XX", 10), 100),
        RejectionCode::InvalidArgument,
        "1841 §3.3",
    );
    bad(
        &s,
        offer(0, concession("Nope"), 100),
        RejectionCode::InvalidArgument,
        "1841 §3.2",
    );
    bad(
        &s,
        offer(0, concession("SFTG"), 100),
        RejectionCode::IllegalMove,
        "1841 §3.2",
    );
    // 1841 §7.3: seat 1 holds 50% of AFI; 20% more from seat 2 would make 70%.
    let mut s = table(p2p(), "3", &[], &[("AFI", 100, &[(1, 50), (2, 20)])]);
    turn_of(&mut s, 1);
    rejected(
        &s,
        1,
        offer(2, shares("AFI", 20), 100),
        RejectionCode::IllegalMove,
        "1841 §7.3",
    );
    assert!(covered(&s, 1, &offer(2, shares("AFI", 10), 100)));
    // 1841 §2: seat 1 at the certificate limit of 16 (4 players).
    seat_1_at_the_limit_may_not_buy_cgtf(&[
        ("AFI", 100, &[(1, 50)]),
        ("ATFA", 100, &[(1, 50)]),
        ("CFCC", 100, &[(1, 50)]),
        ("CGTF", 100, &[(1, 50), (2, 10)]),
    ]);
    // 1841 §2 at the limit even where the purchase makes the buyer president: seat 1 (16
    // certificates, 20% of CGTF) buys 10% from seat 2 (CGTF president, 20% + 10%); the swap
    // would leave him 16, but he may buy no certificate (18xx `can_gain?`; p2p_purchases
    // heuristic 4 players seed 4001, id 771).
    seat_1_at_the_limit_may_not_buy_cgtf(&[
        ("AFI", 100, &[(1, 50)]),
        ("ATFA", 100, &[(1, 50)]),
        ("CFCC", 100, &[(1, 50)]),
        ("CTDA", 100, &[(1, 30)]),
        ("CGTF", 100, &[(2, 30), (1, 20)]),
    ]);
    // 1841 §5.1: no purchase of a corporation the buyer sold this round.
    let mut s = table(p2p(), "3", &[], &[("AFI", 100, &[(1, 30), (2, 20)])]);
    if let Some(c) = s.corporations.iter_mut().find(|c| c.sym == "AFI") {
        c.operated = true;
    }
    turn_of(&mut s, 1);
    ok(
        &mut s,
        1,
        Action::SellShares {
            corporation: "AFI".into(),
            percent: 10,
        },
    );
    rejected(
        &s,
        1,
        offer(2, shares("AFI", 10), 100),
        RejectionCode::IllegalMove,
        "1841 §5.1",
    );
}

/// FAQ-R1: no purchase that puts corporations under mutual control. CTS (president seat 0,
/// only the 20% certificate) is president of AFI; AFI holds 20% of CTS. Seat 1 buying 10% of
/// CTS from seat 0 would make AFI (the only holder with 20%) CTS's president: CTS and AFI
/// would control each other — refused.
#[test]
fn faq_r1_no_purchase_that_creates_mutual_control() {
    let mut s = table(
        p2p(),
        "3",
        &[],
        &[("CTS", 100, &[(0, 20)]), ("AFI", 100, &[(3, 20)])],
    );
    {
        let afi = s.corporations.iter_mut().find(|c| c.sym == "AFI").unwrap();
        afi.certificates[0].owner = ShareOwner::Corporation("CTS".into());
        let cts = s.corporations.iter_mut().find(|c| c.sym == "CTS").unwrap();
        for c in cts.certificates.iter_mut().skip(1).take(2) {
            c.owner = ShareOwner::Corporation("AFI".into());
        }
    }
    assert_eq!(validate(&s), Ok(()));
    turn_of(&mut s, 1);
    rejected(
        &s,
        1,
        offer(0, shares("CTS", 10), 100),
        RejectionCode::IllegalMove,
        "FAQ-R1",
    );
    // The whole certificate is fine: seat 1 then holds 20% and is nearer than AFI.
    ok(&mut s, 1, offer(0, shares("CTS", 20), 100));
    ok(&mut s, 0, ACCEPT);
    assert_eq!(president(&s, "CTS"), Some(1));
}

/// 1841 §5.1, §15.3: a buyer whose offer was declined and who has nothing else to do passes
/// automatically.
#[test]
fn s15_3_buyer_without_other_choices_passes_after_a_decline() {
    // Seat 1 has L.1 only and the one thing to buy is seat 0's 20% of CTS (10% of it would
    // leave nobody to take the presidency, FAQ-Q3): he can offer L.1 once; after the decline
    // nothing is left.
    let mut s = table(p2p(), "3", &[], &[("CTS", 100, &[(0, 20)])]);
    let spent = s.players[1].cash - 1;
    s.players[1].cash = 1;
    s.bank_cash += spent;
    turn_of(&mut s, 1);
    assert_eq!(G1841::legal(&s, 1).offers.len(), 1);
    ok(&mut s, 1, offer(0, shares("CTS", 20), 1));
    let ev = ok(&mut s, 0, DECLINE);
    assert!(ev.contains(&Event::Passed {
        seat: 1,
        automatic: true
    }));
    assert_eq!(G1841::to_act(&s), [2]);
}

/// A game in which nothing can change (interpretation I29), begun at stock round `number`:
/// phase 3, CTS started at L.100 and frozen (its president's certificate in the pool, seat 0
/// holding 10%), every player with L.10 (nobody can buy at the IPO or pool), the concessions
/// `concessions` held.
fn dead_table(options: Options, concessions: &[(Seat, Concession)], number: u32) -> State {
    let mut s = table(options, "3", concessions, &[("CTS", 100, &[(0, 20)])]);
    {
        let cts = s.corporations.iter_mut().find(|c| c.sym == "CTS").unwrap();
        cts.certificates[0].owner = ShareOwner::Pool;
        cts.certificates[1].owner = ShareOwner::Player(0);
    }
    for p in s.players.iter_mut() {
        s.bank_cash += p.cash - 10;
        p.cash = 10;
    }
    // Restart the round on the edited holdings.
    flow::begin(&mut s, flow::Next::StockRound(number), &mut Vec::new());
    s
}

/// Interpretation I29 with `p2p_purchases` (I49 before 2026-12-07): a dead game — SR2 on,
/// CTS frozen with its president's certificate in the pool, nobody with income, nobody able
/// to buy from the IPO or pool (L.10 each) — no longer ends when a whole stock round passes:
/// as in 18xx.games, the players who could trade with each other are asked in every stock
/// round, and the game runs to the turn limit (reason `dnf`, stock round 100), CTS moving left
/// in every round (frozen, §7.4) to the market's left end — which changes the scores; this
/// engine used to end such a game at once (`no_player_can_act`), with CTS's price of that
/// moment: one point apart in p2p_purchases random 7 players seed 7132.
#[test]
fn i29_a_dead_game_with_possible_trades_runs_to_the_turn_limit() {
    let mut s = dead_table(p2p(), &[], 2);
    assert_eq!(validate(&s), Ok(()));
    // Nobody does anything: every seat asked (to trade, or to sell CTS) passes.
    let mut passes = 0;
    while G1841::outcome(&s).is_none() {
        let seat = G1841::to_act(&s)[0];
        ok(&mut s, seat, Action::Pass);
        passes += 1;
    }
    assert_eq!(passes, 395);
    assert_eq!(s.stock_round().map(|r| r.number), Some(100));
    let outcome = G1841::outcome(&s).unwrap();
    assert_eq!(outcome.end_reason, "dnf");
    // CTS at the market's left end (L.8, row 12): seat 0's L.10 and 10% of CTS.
    let cts = s.corporation("CTS").unwrap();
    let p = cts.share_price.unwrap();
    assert_eq!((cts.price(), p.row, p.col), (Some(8), 12, 0));
    assert_eq!(outcome.scores, [18, 10, 10, 10]);
}

/// Interpretation I29 with 18xx.games' turn limit (`game_end::TURN_LIMIT`, reason `dnf`;
/// without `p2p_purchases`): a game in which nothing can change that I29's test does not
/// recognise — CTS frozen, but player 1 holds Bayard, whose income keeps I29 from ending it —
/// plays its empty rounds by itself until a round of stock round 100 ends, and ends there
/// with reason `dnf`, as 18xx.games does (`elsif @turn >= 100 then end_game!(:dnf)`). Before,
/// such rounds went on forever (version_1 + `sfli_run_variant` random 8 players seed 8166:
/// the stack overflowed). From stock round 2 that is 98 turns, the seats with something to
/// sell or buy passing in them (a game in which nobody can act plays them all in one call,
/// in a small stack: `g1841_flow.rs`).
#[test]
fn i29_a_game_still_running_in_stock_round_100_ends_as_dnf() {
    let dead_with_income = |number: u32| {
        let mut s = dead_table(Options::default(), &[(1, Concession::Bayard)], number);
        assert_eq!(validate(&s), Ok(()));
        while G1841::outcome(&s).is_none() {
            let seat = G1841::to_act(&s)[0];
            ok(&mut s, seat, Action::Pass);
        }
        s
    };
    for start in [100, 99, 2] {
        let s = dead_with_income(start);
        assert_eq!(
            G1841::outcome(&s).map(|o| o.end_reason),
            Some("dnf".to_string()),
            "from stock round {start}"
        );
        assert_eq!(
            s.stock_round().map(|r| r.number),
            Some(100),
            "from stock round {start}"
        );
    }
}

/// FAQ-Q2 (`price_drops_lowest_first`) with 1841 §15.3: an offer ends the seller's selling
/// like a buy, so the turn's pending price drops are made first (AFI L.100 → L.95, row 3 → 4,
/// one 10% unit sold), then the offer waits.
#[test]
fn faq_q2_an_offer_ends_the_selling() {
    let mut options = p2p();
    options.set("price_drops_lowest_first", "true").unwrap();
    let mut s = table(
        options,
        "3",
        &[],
        &[("CTS", 100, &[(0, 40)]), ("AFI", 100, &[(1, 30)])],
    );
    if let Some(c) = s.corporations.iter_mut().find(|c| c.sym == "AFI") {
        c.operated = true;
    }
    turn_of(&mut s, 1);
    ok(
        &mut s,
        1,
        Action::SellShares {
            corporation: "AFI".into(),
            percent: 10,
        },
    );
    assert_eq!(s.stock_round().unwrap().pending_drops.len(), 1);
    let ev = ok(&mut s, 1, offer(0, shares("CTS", 10), 80));
    let afi = s.corporation("AFI").unwrap();
    let p = afi.share_price.unwrap();
    assert_eq!((afi.price(), p.row, p.col), (Some(95), 4, 5));
    assert!(matches!(ev[0], Event::SharePriceChanged { .. }));
    assert!(matches!(ev.last(), Some(Event::OfferMade { .. })));
    assert!(s.stock_round().unwrap().pending_drops.is_empty());
}
