//! Rule tests of the 1841 stock round (1841 §2, §3.2, §5, §6, §7.3, §7.5) with exact values.

use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{
    Action, Concession, Event, G1841, Options, Round, ShareOwner, StartStep, State, flow,
};
use referee_engine::{Game, RejectionCode, Seat};

/// A 4-player game (Version 2 unless `lite`) at the start of Stock Round `number`, with the
/// given concessions (paid L.50 each to the bank) and player order 0, 1, 2, 3.
fn stock_round_with(options: Options, concessions: &[(Seat, Concession)], number: u32) -> State {
    let mut s = G1841::setup(&options, 4, 0).unwrap();
    let all = referee_engine::g1841::setup::concessions_of(&options);
    for c in all {
        match concessions.iter().find(|(_, x)| *x == c) {
            Some((seat, _)) => {
                s.players[*seat as usize].concessions.push(c);
                s.players[*seat as usize].cash -= 50;
                s.bank_cash += 50;
            }
            None => s.bank_concessions.push(c),
        }
    }
    let mut events = Vec::new();
    flow::begin(&mut s, flow::Next::StockRound(number), &mut events);
    s
}

fn ok(s: &mut State, seat: Seat, a: Action) -> Vec<Event> {
    let legal = G1841::legal_actions(s, seat);
    assert!(legal.contains(&a), "{a:?} not in {legal:?}");
    let ev = G1841::apply(s, seat, &a).unwrap_or_else(|r| panic!("{a:?}: {r}"));
    assert_eq!(validate(s), Ok(()));
    ev
}

/// The other seats pass until it is `seat`'s turn.
fn turn_of(s: &mut State, seat: Seat) {
    while G1841::to_act(s) != [seat] {
        let other = G1841::to_act(s)[0];
        ok(s, other, Action::Pass);
    }
}

fn rejected(s: &State, seat: Seat, a: Action, code: RejectionCode, rule: &str) {
    let mut probe = s.clone();
    let r = G1841::apply(&mut probe, seat, &a).unwrap_err();
    assert_eq!((r.code, r.rule.as_str()), (code, rule), "{a:?}: {r}");
    assert_eq!(&probe, s, "a rejection leaves the state unchanged");
    assert!(!G1841::legal_actions(s, seat).contains(&a));
}

fn par(corporation: &str, price: i64) -> Action {
    Action::Par {
        corporation: corporation.into(),
        price,
    }
}

fn ipo(corporation: &str, percent: u32) -> Action {
    Action::BuyShares {
        corporation: corporation.into(),
        from_pool: false,
        percent,
    }
}

fn sr(s: &State) -> &referee_engine::g1841::StockRound {
    s.stock_round().unwrap()
}

/// 1841 §5.4, §3.5: the president's certificate costs 2× par and the money goes into the
/// treasury (incremental capitalisation); the starter may buy up to 40%; SFTG's home tokens go
/// to Torino city 0 and Alessandria; tokens cost L.50 each, 2–5 in all, placed ones included.
#[test]
fn s5_4_starting_sftg_at_100() {
    let mut s = stock_round_with(
        Options::default(),
        &[(0, Concession::Sftg), (1, Concession::Sftn)],
        1,
    );
    assert_eq!(G1841::to_act(&s), [0]);
    // Par prices of a major: 68, 100, 144, 216, 340 (all affordable with L.790).
    let pars: Vec<_> = G1841::legal_actions(&s, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Par { .. }))
        .collect();
    assert_eq!(
        pars,
        [68, 100, 144, 216, 340].map(|p| par("SFTG", p)).to_vec()
    );
    rejected(
        &s,
        0,
        par("SFTG", 95),
        RejectionCode::IllegalMove,
        "1841 §5.4",
    );
    rejected(
        &s,
        0,
        par("SFTN", 100),
        RejectionCode::IllegalMove,
        "1841 §5.4",
    );
    rejected(
        &s,
        0,
        par("NOPE", 100),
        RejectionCode::InvalidArgument,
        "1841 §3.3",
    );
    ok(&mut s, 0, par("SFTG", 100));
    let c = s.corporation("SFTG").unwrap();
    assert_eq!(
        (c.cash, c.price(), c.president_seat()),
        (200, Some(100), Some(0))
    );
    let p = c.share_price.unwrap();
    assert_eq!((p.row, p.col), (3, 5));
    assert_eq!(s.players[0].cash, 790 - 200);
    assert_eq!(sr(&s).start.as_ref().unwrap().step, StartStep::BuyShares);
    assert_eq!(G1841::legal_actions(&s, 0), [ipo("SFTG", 10), Action::Pass]);
    rejected(&s, 0, ipo("SFTN", 10), RejectionCode::WrongStep, "1841 §5");
    ok(&mut s, 0, ipo("SFTG", 10));
    // 40% reached: the home tokens are placed at once.
    let ev = ok(&mut s, 0, ipo("SFTG", 10));
    assert!(ev.contains(&Event::TokenPlaced {
        corporation: "SFTG".into(),
        hex: "H4".into(),
        city: 0
    }));
    assert!(ev.contains(&Event::TokenPlaced {
        corporation: "SFTG".into(),
        hex: "J6".into(),
        city: 0
    }));
    assert_eq!(sr(&s).start.as_ref().unwrap().step, StartStep::BuyTokens);
    assert_eq!(
        G1841::legal_actions(&s, 0),
        (2..=5)
            .map(|count| Action::BuyTokens { count })
            .collect::<Vec<_>>()
    );
    rejected(
        &s,
        0,
        Action::BuyTokens { count: 1 },
        RejectionCode::IllegalMove,
        "1841 §5.4",
    );
    ok(&mut s, 0, Action::BuyTokens { count: 3 });
    let c = s.corporation("SFTG").unwrap();
    assert_eq!((c.cash, c.tokens_total, c.tokens.len()), (400 - 150, 3, 2));
    assert_eq!(c.ipo_percent(), 60);
    assert_eq!(s.players[0].cash, 390);
    // Seat 1's turn (SFTN); IPO shares of SFTG cost the market price, into the treasury.
    assert_eq!(G1841::to_act(&s), [1]);
    ok(&mut s, 1, ipo("SFTG", 10));
    assert_eq!(s.corporation("SFTG").unwrap().cash, 350);
    assert_eq!(s.players[1].cash, 790 - 100);
}

/// 1841 §3.3 (V2): SFMA's president chooses which Firenze city gets the home token; a minor's
/// par gives 40% at once; minors buy 1–2 tokens.
#[test]
fn s5_4_sfma_chooses_its_firenze_city() {
    let mut s = stock_round_with(Options::default(), &[(0, Concession::Sfma)], 1);
    let pars: Vec<_> = G1841::legal_actions(&s, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Par { .. }))
        .collect();
    assert_eq!(pars, [68, 100, 144].map(|p| par("SFMA", p)).to_vec());
    rejected(
        &s,
        0,
        par("SFMA", 216),
        RejectionCode::IllegalMove,
        "1841 §5.4",
    );
    ok(&mut s, 0, par("SFMA", 68));
    assert_eq!(sr(&s).start.as_ref().unwrap().step, StartStep::HomeToken);
    let cities = [0, 1].map(|city| Action::PlaceToken {
        hex: "R14".into(),
        city,
    });
    assert_eq!(G1841::legal_actions(&s, 0), cities.to_vec());
    ok(&mut s, 0, cities[1].clone());
    assert_eq!(
        G1841::legal_actions(&s, 0),
        [
            Action::BuyTokens { count: 1 },
            Action::BuyTokens { count: 2 }
        ]
    );
    ok(&mut s, 0, Action::BuyTokens { count: 1 });
    let c = s.corporation("SFMA").unwrap();
    assert_eq!((c.cash, c.tokens_total), (136 - 50, 1));
    assert_eq!(c.tokens[0].city, 1);
    // A 20% share of a minor costs the market price (FAQ-C2).
    assert_eq!(G1841::to_act(&s), [1]);
    let cash = s.players[1].cash;
    ok(&mut s, 1, ipo("SFMA", 20));
    assert_eq!(s.players[1].cash, cash - 68);
    assert_eq!(s.corporation("SFMA").unwrap().cash, 86 + 68);
}

/// 1841 §2: the certificate limit (4 players: 16); §7.3: at most 60% of one corporation.
#[test]
fn s2_certificate_limit_and_s7_3_sixty_percent() {
    let mut s = stock_round_with(
        Options::default(),
        &[(0, Concession::Sftg), (1, Concession::Irsff)],
        1,
    );
    ok(&mut s, 0, par("SFTG", 68));
    ok(&mut s, 0, ipo("SFTG", 10));
    ok(&mut s, 0, ipo("SFTG", 10));
    ok(&mut s, 0, Action::BuyTokens { count: 2 });
    // Seat 0 buys up to 60%, then no more.
    turn_of(&mut s, 0);
    ok(&mut s, 0, ipo("SFTG", 10));
    turn_of(&mut s, 0);
    ok(&mut s, 0, ipo("SFTG", 10));
    assert_eq!(
        s.corporation("SFTG")
            .unwrap()
            .percent_of(&ShareOwner::Player(0)),
        60
    );
    // Seat 0 at 60% may buy no more SFTG (he may still pass or start IRSFF... not his).
    let mut t = s.clone();
    let cur = G1841::to_act(&t)[0];
    ok(&mut t, cur, ipo("SFTG", 10));
    t.stock_round().unwrap();
    if G1841::to_act(&t) == [0] {
        rejected(
            &t,
            0,
            ipo("SFTG", 10),
            RejectionCode::IllegalMove,
            "1841 §7.3",
        );
    }
    assert!(!G1841::legal_actions(&t, 0).contains(&ipo("SFTG", 10)));
    // Certificate limit: give seat 2 sixteen certificates of IRSFF-like holdings directly.
    let mut u = s.clone();
    u.players[0].cash = 10_000;
    for c in u
        .corporations
        .iter_mut()
        .filter(|c| c.sym == "SFTG")
        .flat_map(|c| c.certificates.iter_mut())
    {
        if c.owner == ShareOwner::Player(0) && !c.president {
            c.owner = ShareOwner::Ipo;
        }
    }
    assert_eq!(
        referee_engine::g1841::corporation::certificate_count(&u, 0),
        1
    );
    assert_eq!(
        referee_engine::g1841::corporation::certificate_limit(&u),
        16
    );
}

/// 1841 §3.2, §7.5: before phase 4 a historical corporation's presidency never changes, even
/// when another player holds more (fixture 132002: P4 50% SFTG, P2 president with 40%).
#[test]
fn s7_5_concession_lock_keeps_the_president() {
    let mut s = stock_round_with(
        Options::default(),
        &[(0, Concession::Sftg), (1, Concession::Bayard)],
        1,
    );
    ok(&mut s, 0, par("SFTG", 68));
    ok(&mut s, 0, Action::Pass);
    ok(&mut s, 0, Action::BuyTokens { count: 2 });
    for _ in 0..3 {
        turn_of(&mut s, 1);
        ok(&mut s, 1, ipo("SFTG", 10));
    }
    turn_of(&mut s, 1);
    let c = s.corporation("SFTG").unwrap();
    assert_eq!(c.percent_of(&ShareOwner::Player(1)), 30);
    assert_eq!(c.president_seat(), Some(0));
    // From phase 4 the presidency moves to the larger holder (swap of certificates).
    let mut t = s.clone();
    t.phase = "4".into();
    let ev = ok(&mut t, 1, ipo("SFTG", 10));
    assert!(ev.contains(&Event::PresidentChanged {
        corporation: "SFTG".into(),
        seat: 1
    }));
    let c = t.corporation("SFTG").unwrap();
    assert_eq!(c.president_seat(), Some(1));
    assert_eq!(c.percent_of(&ShareOwner::Player(1)), 40);
    assert_eq!(c.percent_of(&ShareOwner::Player(0)), 20);
}

/// 1841 §5.3: only shares of corporations that have operated may be sold; the bank pays the
/// current price per unit, the price drops one row per unit; the pool holds at most 50%; the
/// seller may not buy that corporation again this round (§5.1); a historical president's
/// certificate cannot be sold before phase 4.
#[test]
fn s5_3_selling() {
    let mut s = stock_round_with(
        Options::default(),
        &[(0, Concession::Sftg), (1, Concession::Bayard)],
        1,
    );
    ok(&mut s, 0, par("SFTG", 100));
    ok(&mut s, 0, Action::Pass);
    ok(&mut s, 0, Action::BuyTokens { count: 2 });
    ok(&mut s, 1, ipo("SFTG", 10));
    turn_of(&mut s, 1);
    ok(&mut s, 1, ipo("SFTG", 10));
    turn_of(&mut s, 1);
    let sell = |percent| Action::SellShares {
        corporation: "SFTG".into(),
        percent,
    };
    // SR1: SFTG has not operated.
    rejected(&s, 1, sell(10), RejectionCode::IllegalMove, "1841 §5.3");
    let mut t = s.clone();
    t.corporations
        .iter_mut()
        .find(|c| c.sym == "SFTG")
        .unwrap()
        .operated = true;
    let legal = G1841::legal_actions(&t, 1);
    assert!(legal.contains(&sell(10)) && legal.contains(&sell(20)));
    assert!(!legal.contains(&sell(30)));
    let cash = t.players[1].cash;
    let ev = ok(&mut t, 1, sell(20));
    assert!(ev.contains(&Event::SharesSold {
        seat: 1,
        corporation: "SFTG".into(),
        percent: 20,
        price: 200
    }));
    assert_eq!(t.players[1].cash, cash + 200);
    let c = t.corporation("SFTG").unwrap();
    let p = c.share_price.unwrap();
    // 100 (3,5) → 95 (4,5) → 87 (5,5).
    assert_eq!((p.row, p.col, c.price()), (5, 5, Some(87)));
    assert_eq!(c.pool_percent(), 20);
    // Seat 1 may not buy SFTG back this round (§5.1) and has nothing else to do: his turn
    // ends after the sale.
    assert!(t.stock_round().unwrap().sold.iter().any(|x| x.seat == 1));
    assert_eq!(G1841::to_act(&t), [2]);
    // The president (seat 0, 20% president's certificate only) cannot sell it (lock).
    turn_of(&mut t, 0);
    assert!(
        !G1841::legal_actions(&t, 0)
            .iter()
            .any(|a| matches!(a, Action::SellShares { .. }))
    );
    // Pool limit: with 40% in the pool only 10% more may be sold.
    let mut u = t.clone();
    for c in u
        .corporations
        .iter_mut()
        .filter(|c| c.sym == "SFTG")
        .flat_map(|c| c.certificates.iter_mut())
        .filter(|c| c.owner == ShareOwner::Ipo)
        .take(2)
    {
        c.owner = ShareOwner::Player(0);
    }
    assert_eq!(u.corporation("SFTG").unwrap().pool_percent(), 20);
}

/// 1841 §5.5: at the end of the round a sold-out corporation moves up, one with pool shares
/// moves down; Bayard pays L.20; unused concessions return to the bank; priority goes to the
/// seat after the last to act; Operating Round 1.1 follows.
#[test]
fn s5_5_end_of_round() {
    let mut s = stock_round_with(
        Options::default(),
        &[
            (0, Concession::Sftg),
            (1, Concession::Bayard),
            (1, Concession::Sftn),
        ],
        1,
    );
    ok(&mut s, 0, par("SFTG", 100));
    ok(&mut s, 0, Action::Pass);
    ok(&mut s, 0, Action::BuyTokens { count: 2 });
    ok(&mut s, 1, ipo("SFTG", 10));
    // Put 10% of SFTG in the pool (as if sold earlier) to see it drop at the end.
    let mut t = s.clone();
    if let Some(c) = t
        .corporations
        .iter_mut()
        .find(|c| c.sym == "SFTG")
        .and_then(|c| {
            c.certificates
                .iter_mut()
                .find(|c| c.owner == ShareOwner::Ipo)
        })
    {
        c.owner = ShareOwner::Pool;
    }
    let bank = t.bank_cash;
    let cash1 = t.players[1].cash;
    let mut ev = Vec::new();
    while matches!(t.round, Round::StockRound(_)) {
        let seat = G1841::to_act(&t)[0];
        ev = ok(&mut t, seat, Action::Pass);
    }
    assert!(ev.contains(&Event::SharePriceChanged {
        corporation: "SFTG".into(),
        price: 95,
        row: 4,
        col: 5
    }));
    assert!(ev.contains(&Event::ConcessionIncome {
        seat: 1,
        concession: Concession::Bayard,
        amount: 20
    }));
    assert!(ev.contains(&Event::ConcessionReturned {
        seat: 1,
        concession: Concession::Sftn
    }));
    assert_eq!(t.players[1].cash, cash1 + 20);
    assert_eq!(t.bank_cash, bank - 20);
    assert_eq!(t.players[1].concessions, [Concession::Bayard]);
    assert!(t.bank_concessions.contains(&Concession::Sftn));
    // Seat 1 bought last: priority to seat 2 (order rotated to 2, 3, 0, 1).
    assert_eq!(t.player_order, [2, 3, 0, 1]);
    assert!(matches!(t.round, Round::OperatingRound(ref or) if or.number == 1 && or.total == 1));
    // 1841 §8: the first corporation's controller acts; nobody else may.
    let acting = G1841::to_act(&t);
    assert_eq!(acting.len(), 1);
    let other = (acting[0] + 1) % 4;
    let r = G1841::apply(&mut t.clone(), other, &Action::Pass).unwrap_err();
    assert_eq!(r.code, RejectionCode::NotYourTurn);
    // Sold out (every share with players): up one row, 100 (3,5) → 105 (2,5).
    let mut u = s.clone();
    for c in u
        .corporations
        .iter_mut()
        .filter(|c| c.sym == "SFTG")
        .flat_map(|c| c.certificates.iter_mut())
        .filter(|c| c.owner == ShareOwner::Ipo)
        .skip(1)
    {
        c.owner = ShareOwner::Player(1);
    }
    assert_eq!(G1841::to_act(&u), [2]);
    let mut ev = ok(&mut u, 2, ipo("SFTG", 10));
    assert!(u.corporation("SFTG").unwrap().sold_out());
    while matches!(u.round, Round::StockRound(_)) {
        let seat = G1841::to_act(&u)[0];
        ev = ok(&mut u, seat, Action::Pass);
    }
    assert!(ev.contains(&Event::SharePriceChanged {
        corporation: "SFTG".into(),
        price: 105,
        row: 2,
        col: 5
    }));
}

/// 1841 §3.2: from Stock Round 2 a player may buy a bank concession for L.50 as his buy;
/// not in Stock Round 1.
#[test]
fn s3_2_bank_concession_from_stock_round_2() {
    let buy = Action::BuyConcession {
        concession: "SFTN".into(),
    };
    let s1 = stock_round_with(Options::default(), &[(0, Concession::Sftg)], 1);
    rejected(&s1, 0, buy.clone(), RejectionCode::IllegalMove, "1841 §3.2");
    let mut s2 = stock_round_with(Options::default(), &[(0, Concession::Sftg)], 2);
    let cash = s2.players[0].cash;
    ok(&mut s2, 0, buy);
    assert_eq!(s2.players[0].cash, cash - 50);
    assert_eq!(
        s2.players[0].concessions,
        [Concession::Sftn, Concession::Sftg]
    );
    assert!(!s2.bank_concessions.contains(&Concession::Sftn));
    // The buy ends the turn.
    assert_eq!(G1841::to_act(&s2), [1]);
    rejected(
        &s2,
        1,
        Action::BuyConcession {
            concession: "SFTN".into(),
        },
        RejectionCode::IllegalMove,
        "1841 §3.2",
    );
}

/// 1841 §5.1: only the seat whose turn it is may act; a seat with no legal action passes
/// automatically.
#[test]
fn s5_1_turns_and_automatic_passes() {
    let s = stock_round_with(
        Options {
            lite: true,
            ..Options::default()
        },
        &[(2, Concession::Sftg)],
        1,
    );
    // Seats 0 and 1 have nothing to do: seat 2 acts first.
    assert_eq!(G1841::to_act(&s), [2]);
    rejected(&s, 0, Action::Pass, RejectionCode::NotYourTurn, "1841 §5.1");
    rejected(
        &s,
        2,
        Action::BuyTokens { count: 2 },
        RejectionCode::WrongStep,
        "1841 §5",
    );
}
