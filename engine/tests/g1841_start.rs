//! Starting corporations (1841 §3.4, §5.4, §9.7): non-historical corporations started by
//! players in a stock round and by corporations in their corporate share step, home cities,
//! token prices by distance, and the automatic IPO sale when the tokens cannot be paid. Values
//! are pinned on states of the recorded games (replayed with the importer).

use referee_engine::g1841::start::{self, connection_distance, home_cities, token_price};
use referee_engine::g1841::{
    Action, CorporationStart, Event, G1841, Round, ShareOwner, StartStep, State,
};
use referee_engine::{Game, RejectionCode};

mod common;
use common::before_in;

fn hexes(tokens: &[referee_engine::g1841::MapToken]) -> Vec<&str> {
    tokens.iter().map(|t| t.hex.as_str()).collect()
}

fn start_of(state: &State) -> Option<CorporationStart> {
    start::in_progress(state).cloned()
}

fn par(sym: &str, price: i64) -> Action {
    Action::Par {
        corporation: sym.into(),
        price,
    }
}

fn place(hex: &str) -> Action {
    Action::PlaceToken {
        hex: hex.into(),
        city: 0,
    }
}

/// 1841 §3.4, §5.4: in phase 3 (132002, SR3, before action 294) any player may start a
/// non-historical corporation at the par prices he can pay twice (P4 has L.787: every major
/// par price up to L.340 × 2 = L.680); minors only at 68, 100 and 144.
#[test]
fn s3_4_non_historical_pars_from_phase_3() {
    let s = before_in("132002", 294);
    assert_eq!(s.phase, "3");
    let seat = G1841::to_act(&s)[0];
    let cash = s.players[seat as usize].cash;
    assert_eq!(cash, 787, "P4's cash after selling");
    let legal = G1841::legal(&s, seat).actions;
    for price in [68, 100, 144, 216, 340] {
        assert!(legal.contains(&par("CTDA", price)), "CTDA at L.{price}");
        assert!(legal.contains(&par("AFI", price)), "AFI at L.{price}");
    }
    // Minors only at the three shared par prices.
    for price in [68, 100, 144] {
        assert!(legal.contains(&par("SLDV", price)));
    }
    assert!(!legal.contains(&par("SLDV", 216)));
    // Event-formed historical corporations are never started.
    assert!(!legal.iter().any(|a| matches!(a, Action::Par { corporation, .. } if corporation == "SFLi" || corporation == "SB")));
}

/// Before phase 3 no non-historical corporation may start (1841 §3.4): the refusal names the
/// rule.
#[test]
fn s3_4_no_non_historical_start_in_phase_2() {
    let mut s = before_in("132002", 240);
    assert_eq!(s.phase, "2");
    let Round::StockRound(sr) = &s.round else {
        panic!("{:?}", s.round)
    };
    let seat = sr.current_seat;
    let err = G1841::apply(&mut s, seat, &par("CTDA", 68)).unwrap_err();
    assert_eq!(err.code, RejectionCode::IllegalMove);
    assert_eq!(err.rule, "1841 §3.4");
}

/// 1841 §5.4 step 3 (phase 3): a non-historical major's first home is any zone city that is
/// not reserved (historical cities, Lugano) nor Austrian (Lombardy, Veneto) — Genova,
/// Livorno and the five cities of the Conservative zone; the second must lie in the same
/// zone as the first and may be skipped. A minor never starts in a major city (Bologna L14,
/// Genova M7) or in a city with a token.
#[test]
fn s5_4_home_cities_by_zone_and_type() {
    let s = before_in("132002", 297);
    assert_eq!(
        start_of(&s),
        Some(CorporationStart {
            corporation: "CTDA".into(),
            step: StartStep::HomeToken
        })
    );
    assert_eq!(
        hexes(&home_cities(&s, "CTDA", None)),
        ["M7", "S11", "K11", "L12", "K13", "L14", "K15"]
    );
    assert_eq!(
        hexes(&home_cities(&s, "CTDA", Some("K11"))),
        ["L12", "K13", "L14", "K15"]
    );
    assert_eq!(
        hexes(&home_cities(&s, "CTDA", Some("M7"))),
        Vec::<&str>::new()
    );
    assert_eq!(
        hexes(&home_cities(&s, "SLDV", None)),
        ["S11", "K11", "L12", "K13", "K15"]
    );
    // The first home is mandatory: no pass.
    let seat = G1841::to_act(&s)[0];
    assert!(!G1841::legal(&s, seat).actions.contains(&Action::Pass));
    let mut t = s.clone();
    G1841::apply(&mut t, seat, &place("K11")).unwrap();
    let legal = G1841::legal(&t, seat).actions;
    assert!(
        legal.contains(&Action::Pass),
        "the second token is optional"
    );
    assert!(legal.contains(&place("K13")));
    assert!(!legal.contains(&place("M7")), "another zone");
    let err = G1841::apply(&mut t.clone(), seat, &place("M7")).unwrap_err();
    assert_eq!(err.code, RejectionCode::IllegalMove);
}

/// 1841 §5.4 step 4: CTDA (homes Parma and Modena, no connected hex within 2 of either) buys
/// its tokens at L.25 each; with L.576 in its treasury it may choose 2–5 tokens; 4 cost
/// L.100 and the start ends (132002 action 299).
#[test]
fn s5_4_token_price_and_count() {
    let s = before_in("132002", 299);
    assert_eq!(
        hexes(&s.corporation("CTDA").unwrap().tokens),
        ["K11", "K13"]
    );
    assert_eq!(connection_distance(&s, "K11"), None);
    assert_eq!(connection_distance(&s, "K13"), None);
    assert_eq!(token_price(&s, "CTDA"), 25);
    let seat = G1841::to_act(&s)[0];
    assert_eq!(s.corporation("CTDA").unwrap().cash, 576);
    assert_eq!(
        G1841::legal(&s, seat).actions,
        (2..=5)
            .map(|count| Action::BuyTokens { count })
            .collect::<Vec<_>>()
    );
    let mut t = s.clone();
    let bank = t.bank_cash;
    G1841::apply(&mut t, seat, &Action::BuyTokens { count: 4 }).unwrap();
    let ctda = t.corporation("CTDA").unwrap();
    assert_eq!((ctda.cash, ctda.tokens_total), (476, 4));
    assert_eq!(t.bank_cash, bank + 100);
    assert_eq!(start_of(&t), None);
}

/// 1841 §5.4 step 4 distances (18xx `hex_price`): a hex with a laid tile is connected
/// (distance 0 → L.200), its neighbours are at distance 1 (L.100), theirs at 2; Genova in the lite game
/// (AFI's home, action 110) has a connected hex 2 away → L.50.
#[test]
fn s5_4_connection_distance() {
    let s = before_in("1841_game_end_bank", 111);
    assert_eq!(hexes(&s.corporation("AFI").unwrap().tokens), ["M7"]);
    assert_eq!(connection_distance(&s, "M7"), Some(2));
    assert_eq!(token_price(&s, "AFI"), 50);
    // 132002 after CTDA's first tile (K11, action 323).
    let s = before_in("132002", 324);
    assert!(s.operations.tiles.contains_key("K11"));
    assert_eq!(connection_distance(&s, "K11"), Some(0));
    assert_eq!(
        connection_distance(&s, "L12"),
        Some(1),
        "a neighbour of K11"
    );
    assert_eq!(connection_distance(&s, "K13"), Some(2), "via L12 or J12");
}

/// 1841 §5.4 step 4 distances as 18xx.games' `search_hexes` measures them: the walk goes
/// round an impassable side among the hexes at most 2 away, and the distance is the grid
/// distance. Hand-made on 132002 (before action 324) with no tile but one at Bergamo's
/// neighbour C13, phase 4: from Verona (G13), whose side toward E13 is impassable, the walk
/// reaches E13 through F12 and then C13, 2 away on the grid (3 steps): L.50 a token, not L.25
/// (p2p 6p seed 6002, id 659: SLDV's 2 tokens for L.100).
#[test]
fn s5_4_connection_distance_is_the_grid_distance_round_an_impassable_side() {
    let mut s = before_in("132002", 324);
    s.operations.tiles.clear();
    s.phase = "4".into();
    s.operations.tiles.insert(
        "C13".into(),
        referee_engine::g1841::PlacedTile {
            tile: "7".into(),
            rotation: 0,
        },
    );
    assert_eq!(connection_distance(&s, "C13"), Some(0));
    assert_eq!(connection_distance(&s, "E13"), Some(1));
    assert_eq!(connection_distance(&s, "G13"), Some(2));
}

/// 1841 §3.4, §9.7: in its share step SFTC (lite, OR 2.1, action 108) starts AFI at L.216:
/// L.432 from SFTC's treasury into AFI's, SFTC holds the president's certificate, buys one
/// more share (30%, L.216), places AFI's home in Genova and buys 2 tokens at L.50; its turn
/// then ends and AFI does not operate in this round.
#[test]
fn s9_7_corporation_starts_a_corporation() {
    let s = before_in("1841_game_end_bank", 108);
    let seat = G1841::to_act(&s)[0];
    assert!(G1841::legal(&s, seat).actions.contains(&par("AFI", 216)));
    let sftc_cash = s.corporation("SFTC").unwrap().cash;
    let mut t = s.clone();
    let events = G1841::apply(&mut t, seat, &par("AFI", 216)).unwrap();
    assert!(events.contains(&Event::CorporationStarted {
        seat,
        corporation: "AFI".into(),
        price: 216,
        by_corporation: Some("SFTC".into()),
    }));
    let afi = t.corporation("AFI").unwrap();
    assert_eq!(afi.cash, 432);
    assert_eq!(
        afi.president(),
        Some(&ShareOwner::Corporation("SFTC".into()))
    );
    assert_eq!(t.corporation("SFTC").unwrap().cash, sftc_cash - 432);
    assert_eq!(
        G1841::to_act(&t),
        [seat],
        "SFTC's controller acts for the start"
    );
    let buy = Action::BuyShares {
        corporation: "AFI".into(),
        from_pool: false,
        percent: 10,
    };
    assert_eq!(G1841::legal(&t, seat).actions, [buy.clone(), Action::Pass]);
    G1841::apply(&mut t, seat, &buy).unwrap();
    // 30% held: one more would pass 40%? 20 + 10 + 10 = 40 is allowed, but SFTC's treasury
    // is too small for a second L.216 share.
    assert!(t.corporation("SFTC").unwrap().cash < 216);
    assert_eq!(start_of(&t).map(|x| x.step), Some(StartStep::HomeToken));
    G1841::apply(&mut t, seat, &place("M7")).unwrap();
    assert_eq!(start_of(&t).map(|x| x.step), Some(StartStep::BuyTokens));
    G1841::apply(&mut t, seat, &Action::BuyTokens { count: 2 }).unwrap();
    assert_eq!(t.corporation("AFI").unwrap().cash, 432 + 216 - 100);
    let Round::OperatingRound(r) = &t.round else {
        panic!()
    };
    assert!(r.done.contains(&"AFI".to_string()));
    assert!(r.done.contains(&"SFTC".to_string()));
    assert_eq!(r.current.as_deref(), Some("SFTN"));
    assert_eq!(r.start, None);
}

/// 1841 §5.4 step 4 (18xx `auto_emr`): a start whose treasury cannot pay its minimum tokens
/// sells ceil(2 × shortfall ÷ price) IPO shares to the pool as one bundle at half price,
/// rounded up once (§14): AFI with L.30 and 2 tokens at L.50 to buy sells one share at L.216
/// for L.108, drops one row (L.216 → L.196) and ends with L.38.
#[test]
fn s5_4_automatic_ipo_sale_when_tokens_cannot_be_paid() {
    let mut s = before_in("1841_game_end_bank", 111);
    let afi_cash = s.corporation("AFI").unwrap().cash;
    s.bank_cash += afi_cash - 30;
    s.corporations
        .iter_mut()
        .find(|c| c.sym == "AFI")
        .unwrap()
        .cash = 30;
    let seat = G1841::to_act(&s)[0];
    assert_eq!(
        G1841::legal(&s, seat).actions,
        [Action::BuyTokens { count: 2 }],
        "only the minimum when it cannot be paid"
    );
    let ipo = s.corporation("AFI").unwrap().ipo_percent();
    G1841::apply(&mut s, seat, &Action::BuyTokens { count: 2 }).unwrap();
    let afi = s.corporation("AFI").unwrap();
    assert_eq!(afi.cash, 30 + 108 - 100);
    assert_eq!(afi.pool_percent(), 10);
    assert_eq!(afi.ipo_percent(), ipo - 10);
    assert_eq!(afi.price(), Some(196));
}
