//! Operating rounds of 1841 (1841 §8–§10): values pinned on states taken from the recorded
//! game 132002 (replayed with the importer) and on hand-built routes.

use referee_engine::g1841::corporation::controller;
use referee_engine::g1841::operating_round::{self, check_routes, depot_train};
use referee_engine::g1841::validate::validate;
use referee_engine::g1841::{
    Action, Event, G1841, OperatingStep, Round, Route, ShareOwner, State, Stop, data,
};
use referee_engine::{Game, RejectionCode};

mod common;
use common::before_in;

/// The state of 132002 just before action `id` (all earlier effective actions applied).
fn before(id: i64) -> State {
    before_in("132002", id)
}

fn stop(hex: &str, node: u32) -> Stop {
    Stop {
        hex: hex.into(),
        node,
    }
}

fn chain(hexes: &[&str]) -> Vec<String> {
    hexes.iter().map(|h| h.to_string()).collect()
}

/// 1841 §8: Operating Round 1.1 starts with IRSFF (L.144, the highest price) in its track
/// step; its president (Player 3) acts.
#[test]
fn s8_operating_order_and_first_step() {
    let s = before(190);
    let Round::OperatingRound(or) = &s.round else {
        panic!()
    };
    assert_eq!(or.current.as_deref(), Some("IRSFF"));
    assert_eq!(or.step, OperatingStep::Track);
    assert_eq!(G1841::to_act(&s).len(), 1);
}

/// 1841 §8: an action of another step is refused as WRONG_STEP with a plain sentence
/// naming the step and the action (no internal names), and the state is unchanged.
#[test]
fn s8_actions_of_another_step_are_wrong_step() {
    let mut s = before(190);
    let seat = G1841::to_act(&s)[0];
    let copy = s.clone();
    let r = G1841::apply(&mut s, seat, &Action::Dividend { payout: true }).unwrap_err();
    assert_eq!(r.code, referee_engine::RejectionCode::WrongStep);
    assert_eq!(
        r.message,
        "IRSFF is in its track step; `dividend` is not possible now."
    );
    assert_eq!(s, copy);
}

/// 1841 §9.1: Venezia (F16) takes tile 601 in rotation 0 only, for the swamp cost L.50; a
/// two-base major has two tile actions in phase 2, each from a different base; no phase-2
/// lay is on a hex reached only across an active province border (an exit may face one).
#[test]
fn s9_1_venezia_cost_rotation_lays_per_base_and_borders() {
    let s = before(190);
    assert_eq!(operating_round::tile_actions(&s, "IRSFF"), 2);
    let lays = operating_round::legal_lays(&s);
    let venezia: Vec<_> = lays.iter().filter(|l| l.hex == "F16").collect();
    assert!(!venezia.is_empty());
    assert!(
        venezia
            .iter()
            .all(|l| l.tile == "601" && l.rotation == 0 && l.cost == 50)
    );
    // IRSFF's phase-2 lays: Como (D8) and Bergamo (E9) from Milano's stubs, Venezia; in
    // Como tile 6 also in rotation 0, whose exit 2 faces Lugano (C7) across the set-2 border
    // (as 18xx.games lets IRSFF do in `v2-3p-s103`, g1841_oracle_rules).
    let hexes: std::collections::BTreeSet<&str> = lays.iter().map(|l| l.hex.as_str()).collect();
    assert_eq!(hexes.into_iter().collect::<Vec<_>>(), ["D8", "E9", "F16"]);
    let como_tile_6: Vec<u8> = lays
        .iter()
        .filter(|l| l.hex == "D8" && l.tile == "6")
        .map(|l| l.rotation)
        .collect();
    assert_eq!(como_tile_6, vec![0, 4]);
    // E9 (Bergamo) from the Milano base, then Venezia from the other base.
    let mut t = s.clone();
    let seat = G1841::to_act(&t)[0];
    let ev = G1841::apply(
        &mut t,
        seat,
        &Action::LayTile {
            hex: "E9".into(),
            tile: "202".into(),
            rotation: 5,
        },
    )
    .unwrap();
    assert!(ev.contains(&Event::TileLaid {
        corporation: "IRSFF".into(),
        hex: "E9".into(),
        tile: "202".into(),
        rotation: 5,
        cost: 0
    }));
    assert!(
        operating_round::legal_lays(&t)
            .iter()
            .all(|l| l.hex == "F16")
    );
    let r = G1841::apply(
        &mut t.clone(),
        seat,
        &Action::LayTile {
            hex: "F16".into(),
            tile: "601".into(),
            rotation: 1,
        },
    )
    .unwrap_err();
    assert_eq!(r.code, RejectionCode::IllegalMove);
    let cash = t.corporation("IRSFF").unwrap().cash;
    G1841::apply(
        &mut t,
        seat,
        &Action::LayTile {
            hex: "F16".into(),
            tile: "601".into(),
            rotation: 0,
        },
    )
    .unwrap();
    assert_eq!(t.corporation("IRSFF").unwrap().cash, cash - 50);
}

/// 1841 §9.3: IRSFF's recorded routes in OR 2.1 — Milano–Bergamo L.90 (60 + 30) and the
/// Venezia port G17 (40) + Venezia town (20) + city (10) + Padova (30) = L.100; reusing
/// track, running through yellow Milano, a foreign train or a route without a token are
/// refused.
#[test]
fn s9_3_hand_built_routes() {
    let s = before(250);
    let milano = Route {
        train: "2-1".into(),
        stops: vec![stop("F8", 0), stop("E9", 0)],
        connections: vec![chain(&["F8", "E9"])],
    };
    let venezia = Route {
        train: "2-0".into(),
        stops: vec![
            stop("G17", 0),
            stop("F16", 1),
            stop("F16", 0),
            stop("G15", 0),
        ],
        connections: vec![
            chain(&["G17", "F16"]),
            chain(&["F16"]),
            chain(&["F16", "G15"]),
        ],
    };
    assert_eq!(
        check_routes(&s, "IRSFF", &[milano.clone(), venezia.clone()]).unwrap(),
        [90, 100]
    );
    // The same train twice.
    let mut twice = venezia.clone();
    twice.train = "2-1".into();
    assert!(check_routes(&s, "IRSFF", &[milano.clone(), twice]).is_err());
    // Reused track: the Milano route twice with both trains.
    let mut again = milano.clone();
    again.train = "2-0".into();
    assert!(check_routes(&s, "IRSFF", &[milano.clone(), again]).is_err());
    // A train IRSFF does not own.
    let mut foreign = milano.clone();
    foreign.train = "2-2".into();
    assert!(check_routes(&s, "IRSFF", &[foreign]).is_err());
    // SFTG has no token on Milano–Bergamo.
    assert!(check_routes(&s, "SFTG", &[milano]).is_err());
    // Over capacity is impossible here; a 2-train may not count three cities: G17 is a port
    // (free), so the Venezia route counts 2 (city F16 and G15).
    assert_eq!(check_routes(&s, "IRSFF", &[venezia]).unwrap(), [100]);
}

/// 1841 §9.4: IRSFF pays out L.190 — L.19 per share: IRSFF's own IPO 50% pays its treasury
/// L.95; the price moves right (190 > 129) to L.144.
#[test]
fn s9_4_payout_to_holders_and_ipo() {
    let s = before(251);
    let mut t = s.clone();
    let seat = G1841::to_act(&t)[0];
    let cash = t.corporation("IRSFF").unwrap().cash;
    let ev = G1841::apply(&mut t, seat, &Action::Dividend { payout: true }).unwrap();
    assert!(ev.contains(&Event::DividendPaid {
        corporation: "IRSFF".into(),
        revenue: 190,
        to_treasury: 95
    }));
    assert_eq!(t.corporation("IRSFF").unwrap().cash, cash + 95);
    assert_eq!(t.corporation("IRSFF").unwrap().price(), Some(144));
    // Withholding instead: all L.190 to the treasury, price one step left (L.129 → L.120).
    let mut w = s.clone();
    G1841::apply(&mut w, seat, &Action::Dividend { payout: false }).unwrap();
    assert_eq!(w.corporation("IRSFF").unwrap().cash, cash + 190);
    assert!(w.corporation("IRSFF").unwrap().price().unwrap() < 129);
}

/// 1841 §9.3, §10: train prices 100/200/350/550/800/1100/1450; 2-trains rust on the first
/// 4, 3s on the first 5, 4s on the first 7, 5s on the first 8; counts 8/6/4/3/2/2/7.
#[test]
fn s10_train_roster() {
    let s = before(190);
    let rules = data::ruleset(&s.options);
    let got: Vec<(String, u32, i64, Option<String>)> = rules
        .trains
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                t.count,
                t.price,
                t.rusted_by_first_purchase_of.clone(),
            )
        })
        .collect();
    let want = [
        ("2", 8, 100, Some("4")),
        ("3", 6, 200, Some("5")),
        ("4", 4, 350, Some("7")),
        ("5", 3, 550, Some("8")),
        ("6", 2, 800, None),
        ("7", 2, 1100, None),
        ("8", 7, 1450, None),
    ];
    for (g, w) in got.iter().zip(want) {
        assert_eq!(
            (g.0.as_str(), g.1, g.2, g.3.as_deref()),
            (w.0, w.1, w.2, w.3)
        );
    }
    assert_eq!(depot_train(&s), Some(("2-0".to_string(), 100)));
}

/// 1841 §10: the first 3-train (IRSFF, OR 2.1) starts phase 3: 2 ORs per set from the next
/// set, green tiles.
#[test]
fn s10_first_3_train_starts_phase_3() {
    let s = before(252);
    assert_eq!(s.phase, "2");
    let mut t = s.clone();
    let seat = G1841::to_act(&t)[0];
    let ev = G1841::apply(
        &mut t,
        seat,
        &Action::BuyTrain {
            train: "3-0".into(),
            from: "depot".into(),
            price: 200,
        },
    )
    .unwrap();
    assert!(ev.contains(&Event::PhaseChanged { phase: "3".into() }));
    assert_eq!(t.phase, "3");
}

/// 1841 §9.6: a train of another corporation at any price from L.1 to the buyer's cash
/// (SSFL buys SFLP's 2-train for L.257 in OR 1.1); L.0 or more than its cash is refused.
#[test]
fn s9_6_train_from_another_corporation() {
    let s = before(226);
    let seat = G1841::to_act(&s)[0];
    let legal = G1841::legal(&s, seat);
    let range = legal
        .train_purchases
        .iter()
        .find(|t| t.train == "2-4")
        .unwrap();
    assert_eq!((range.from.as_str(), range.min_price), ("SFLP", 1));
    for bad in [0, range.max_price + 1] {
        let mut t = s.clone();
        let a = Action::BuyTrain {
            train: "2-4".into(),
            from: "SFLP".into(),
            price: bad,
        };
        assert!(G1841::apply(&mut t, seat, &a).is_err());
        assert_eq!(t, s);
    }
}

/// 1841 §9.7: SFTG buys a 10% SFTC share from the IPO at L.100 (the price goes to SFTC's
/// treasury) and its turn ends.
#[test]
fn s9_7_corporate_share_purchase() {
    let s = before(210);
    let seat = G1841::to_act(&s)[0];
    let mut t = s.clone();
    let a = Action::BuyShares {
        corporation: "SFTC".into(),
        from_pool: false,
        percent: 10,
    };
    assert!(G1841::legal(&s, seat).actions.contains(&a));
    // Never its own shares.
    assert!(!G1841::legal(&s, seat).actions.iter().any(|x| matches!(
        x,
        Action::BuyShares { corporation, .. } if corporation == "SFTG"
    )));
    let sftc = s.corporation("SFTC").unwrap().cash;
    let sftg = s.corporation("SFTG").unwrap().cash;
    G1841::apply(&mut t, seat, &a).unwrap();
    assert_eq!(t.corporation("SFTC").unwrap().cash, sftc + 100);
    assert_eq!(t.corporation("SFTG").unwrap().cash, sftg - 100);
    let Round::OperatingRound(or) = &t.round else {
        panic!()
    };
    assert!(or.done.contains(&"SFTG".to_string()));
}

/// 1841 §9.1, FAQ-Q14: in phase 2 the track search does not cross an active province
/// border, though a new exit may face one (18xx.games `legal_tile_rotation?`: a neighbour
/// across every exit, one exit on the track reached); from phase 3 track crosses borders.
#[test]
fn s9_1_borders_restrict_track_only_in_phase_2() {
    // SFTG's first lay in OR 1.1 (phase 2): Alessandria J6 sits at a set-2 border (J6/4,
    // toward I7). Tile 6 fits J6 in every rotation, those with exit 4 included.
    let s = before(195);
    let lays = operating_round::legal_lays(&s);
    let j6_tile_6: Vec<u8> = lays
        .iter()
        .filter(|l| l.hex == "J6" && l.tile == "6")
        .map(|l| l.rotation)
        .collect();
    assert_eq!(j6_tile_6, vec![0, 1, 2, 3, 4, 5]);
    assert!(lays.iter().all(|l| l.hex != "I7"));
    // With tile 6 on J6 in rotation 2 (exits 2 and 4), I7 lies across the border: no lay
    // there in phase 2 (FAQ-Q14); in phase 3 the same position offers I7.
    let mut t = s.clone();
    t.operations.tiles.insert(
        "J6".into(),
        referee_engine::g1841::PlacedTile {
            tile: "6".into(),
            rotation: 2,
        },
    );
    let i7 = |s: &State| {
        operating_round::legal_lays(s)
            .iter()
            .filter(|l| l.hex == "I7")
            .count()
    };
    assert_eq!(i7(&t), 0);
    let mut p3 = t.clone();
    p3.phase = "3".into();
    assert!(i7(&p3) > 0);
}

/// 1841 §9.7: a corporation issues its own IPO shares — SFTC (lite game, OR 2.1) sells 50%
/// at L.129 for L.645 and its price drops one row per share to L.77.
#[test]
fn s9_7_corporation_issues_its_own_shares() {
    let s = before_in("1841_game_end_bank", 107);
    let seat = G1841::to_act(&s)[0];
    let a = Action::SellShares {
        corporation: "SFTC".into(),
        percent: 50,
    };
    assert!(G1841::legal(&s, seat).actions.contains(&a));
    // The pool may hold at most 50%.
    assert!(
        !G1841::legal(&s, seat)
            .actions
            .contains(&Action::SellShares {
                corporation: "SFTC".into(),
                percent: 60,
            })
    );
    let mut t = s.clone();
    let cash = t.corporation("SFTC").unwrap().cash;
    let bank = t.bank_cash;
    G1841::apply(&mut t, seat, &a).unwrap();
    assert_eq!(t.corporation("SFTC").unwrap().cash, cash + 645);
    assert_eq!(t.bank_cash, bank - 645);
    assert_eq!(t.corporation("SFTC").unwrap().price(), Some(77));
    assert_eq!(t.corporation("SFTC").unwrap().pool_percent(), 50);
}

/// 1841 §9.5, FAQ-C12: SFTC (OR 2.1, one token on the map, two on its charter) may buy
/// SFTG's Torino token (SFTG keeps Alessandria) at any price from L.1 to its treasury; the
/// price goes to SFTG, SFTG's token returns to its charter and SFTC's takes the slot.
#[test]
fn s9_5_token_acquisition() {
    let s = before(265);
    let seat = G1841::to_act(&s)[0];
    let legal = G1841::legal(&s, seat);
    let offer = legal
        .token_purchases
        .iter()
        .find(|t| t.hex == "H4" && t.seller == "SFTG")
        .unwrap();
    assert_eq!(offer.min_price, 1);
    let a = Action::BuyToken {
        hex: "H4".into(),
        city: offer.city,
        seller: "SFTG".into(),
        price: 60,
    };
    let mut t = s.clone();
    G1841::apply(&mut t, seat, &a).unwrap();
    let (sftc, sftg) = (
        t.corporation("SFTC").unwrap(),
        t.corporation("SFTG").unwrap(),
    );
    assert_eq!(sftc.cash, s.corporation("SFTC").unwrap().cash - 60);
    assert_eq!(sftg.cash, s.corporation("SFTG").unwrap().cash + 60);
    assert!(sftc.tokens.iter().any(|x| x.hex == "H4"));
    assert!(sftg.tokens.iter().all(|x| x.hex != "H4"));
    assert_eq!(
        sftg.tokens_total,
        s.corporation("SFTG").unwrap().tokens_total
    );
    // L.0 is refused and changes nothing.
    let mut u = s.clone();
    let zero = Action::BuyToken {
        hex: "H4".into(),
        city: offer.city,
        seller: "SFTG".into(),
        price: 0,
    };
    assert!(G1841::apply(&mut u, seat, &zero).is_err());
    assert_eq!(u, s);
}

/// 1841 §9.6, §10: when a phase change lowers the train limit (phase 6: majors 2, minors 1),
/// every corporation over it discards trains to the bank pool, one `DiscardTrain` at a time
/// by its controlling seat, in operating order, before the buyer's turn goes on. Hand-edited
/// from 132002 before action 326: phase 5, the depot down to the 6-trains, CTDA buys the
/// first 6-train (L.800, after L.500 moved from the bank to its treasury); IRSFF (four
/// trains) and SFTG (three) are over the limit of 2.
#[test]
fn s9_6_excess_trains_are_discarded_after_a_phase_change() {
    let mut s = before(326);
    s.phase = "5".into();
    common::set_depot_sold(&mut s, &[("2", 8), ("3", 6), ("4", 4), ("5", 3)]);
    s.bank_cash -= 500;
    s.corporations
        .iter_mut()
        .find(|c| c.sym == "CTDA")
        .unwrap()
        .cash += 500;
    assert_eq!(depot_train(&s), Some(("6-0".to_string(), 800)));
    let seat = G1841::to_act(&s)[0];
    let buy = Action::BuyTrain {
        train: "6-0".into(),
        from: "depot".into(),
        price: 800,
    };
    let events = G1841::apply(&mut s, seat, &buy).unwrap();
    assert!(events.contains(&Event::PhaseChanged { phase: "6".into() }));
    let Round::OperatingRound(r) = &s.round else {
        panic!()
    };
    assert_eq!(r.crowded, ["IRSFF", "SFTG"]);
    let irsff = referee_engine::g1841::corporation::controller(&s, "IRSFF").unwrap();
    assert_eq!(G1841::to_act(&s), [irsff]);
    let options = G1841::legal(&s, irsff).actions;
    assert_eq!(
        options,
        [
            Action::DiscardTrain {
                corporation: "IRSFF".into(),
                train: s.operations.trains["IRSFF"][0].clone(),
            },
            Action::DiscardTrain {
                corporation: "IRSFF".into(),
                train: s.operations.trains["IRSFF"][2].clone(),
            },
        ],
        "one per train type (2 and 3)"
    );
    // Nothing else is possible meanwhile, not even for the buyer.
    let err = G1841::apply(&mut s.clone(), irsff, &Action::Pass).unwrap_err();
    assert_eq!(err.code, RejectionCode::WrongStep);
    let two = options[0].clone();
    G1841::apply(&mut s, irsff, &two).unwrap();
    let next = G1841::legal(&s, irsff).actions[0].clone();
    G1841::apply(&mut s, irsff, &next).unwrap();
    assert_eq!(s.operations.trains["IRSFF"].len(), 2);
    assert_eq!(s.operations.pool_trains.len(), 2);
    let sftg = referee_engine::g1841::corporation::controller(&s, "SFTG").unwrap();
    assert_eq!(G1841::to_act(&s), [sftg]);
    let next = G1841::legal(&s, sftg).actions[0].clone();
    G1841::apply(&mut s, sftg, &next).unwrap();
    assert_eq!(s.operations.trains["SFTG"].len(), 2);
    let Round::OperatingRound(r) = &s.round else {
        panic!()
    };
    assert!(r.crowded.is_empty());
    assert_eq!(
        r.current.as_deref(),
        Some("CTDA"),
        "the buyer's turn goes on"
    );
    assert_eq!(G1841::to_act(&s), [seat]);
}

/// 1841 §13: a corporation on the end-game cell (L.516) ends the game at the end of the
/// current corporation turn. Hand-edited from 132002 before action 322 (IRSFF's share step):
/// SFTC is moved to L.516; IRSFF's purchase ends its turn and the game. The outcome scores
/// each player's cash plus certificates at market value (SFTC at L.516 per 10%) plus the
/// face value of concessions still held (before phase 4 they stay with their holder); nobody acts
/// any more and every action is refused as GAME_OVER.
#[test]
fn s13_stock_market_ends_the_game_after_the_turn() {
    use referee_engine::g1841::game_end;
    let mut s = before(322);
    referee_engine::g1841::market::set_cell(&mut s, "SFTC", 0, 18);
    assert_eq!(s.corporation("SFTC").unwrap().price(), Some(516));
    let seat = G1841::to_act(&s)[0];
    let buy = Action::BuyShares {
        corporation: "SSFL".into(),
        from_pool: false,
        percent: 10,
    };
    let events = G1841::apply(&mut s, seat, &buy).unwrap();
    assert_eq!(s.game_end.trigger.as_deref(), Some("stock_market"));
    assert!(s.game_end.ended);
    let scores = game_end::scores(&s);
    assert!(events.contains(&Event::GameEnded {
        reason: "stock_market".into(),
        scores: scores.clone(),
    }));
    // Player 2 (seat of SFTC's 40%) is valued with SFTC at L.516 per 10% share.
    let p2 = s
        .players
        .iter()
        .find(|p| {
            s.corporation("SFTC")
                .unwrap()
                .percent_of(&referee_engine::g1841::ShareOwner::Player(p.seat))
                == 40
        })
        .unwrap();
    let sftg = s.corporation("SFTG").unwrap();
    let sftg_units: i64 = sftg
        .certificates
        .iter()
        .filter(|c| c.owner == referee_engine::g1841::ShareOwner::Player(p2.seat))
        .map(|c| i64::from(c.percent / 10))
        .sum();
    assert_eq!(
        scores[p2.seat as usize],
        p2.cash + 4 * 516 + sftg_units * sftg.price().unwrap() + 50 * p2.concessions.len() as i64
    );
    assert_eq!(
        p2.concessions.len(),
        2,
        "SFTG's and SFTC's concessions, L.50 each"
    );
    let outcome = G1841::outcome(&s).unwrap();
    assert_eq!(outcome.end_reason, "stock_market");
    assert_eq!(outcome.scores, scores);
    assert!(G1841::to_act(&s).is_empty());
    let err = G1841::apply(&mut s.clone(), seat, &Action::Pass).unwrap_err();
    assert_eq!(err.code, RejectionCode::GameOver);
}

/// 1841 §13: a broken bank (cash below 0) ends the game only at the end of the current
/// operating round, not after the turn (hand-edited 132002 state before action 322).
#[test]
fn s13_broken_bank_waits_for_the_end_of_the_operating_round() {
    use referee_engine::g1841::game_end;
    let mut s = before(322);
    let moved = s.bank_cash + 1;
    s.bank_cash -= moved;
    s.players[0].cash += moved;
    let seat = G1841::to_act(&s)[0];
    let buy = Action::BuyShares {
        corporation: "SSFL".into(),
        from_pool: false,
        percent: 10,
    };
    G1841::apply(&mut s, seat, &buy).unwrap();
    assert_eq!(s.game_end.trigger.as_deref(), Some("bank"));
    assert!(!s.game_end.ended, "the round goes on");
    assert!(!G1841::to_act(&s).is_empty());
    let mut events = Vec::new();
    assert!(!game_end::at_end_of_turn(&mut s, &mut events));
    assert!(game_end::at_end_of_operating_round(&mut s, &mut events));
    assert!(s.game_end.ended);
    assert_eq!(G1841::outcome(&s).unwrap().end_reason, "bank");
}

/// The lite game before action 175 (IFAI, trainless with a route, in its train step; IFAI's
/// president is SFTG, whose president is Player 3, seat 2) with the treasuries of IFAI and
/// SFTG and the cash of seat 2 set as given (the differences moved to or from the bank).
fn ifai_short(ifai: i64, sftg: i64, player: i64) -> State {
    let mut s = before_in("1841_game_end_bank", 175);
    for (sym, cash) in [("IFAI", ifai), ("SFTG", sftg)] {
        let c = s.corporations.iter_mut().find(|c| c.sym == sym).unwrap();
        s.bank_cash += c.cash - cash;
        c.cash = cash;
    }
    s.bank_cash += s.players[2].cash - player;
    s.players[2].cash = player;
    s
}

/// 1841 §14 (18xx; lite game action 234: IFAI, L.0, sells 70% of its own shares although
/// SFTG, controlling it, has L.102): up the chain each raiser contributes its cash and sells
/// as needed before the next one pays. IFAI (L.10) must buy the L.200 3-train: it sells its
/// own IPO shares first (10% or 20%, not 30%: L.195 already covers L.190) although SFTG has
/// L.339; once its treasury holds the price it buys the train itself.
#[test]
fn s14_the_needy_corporation_sells_before_its_chain_contributes() {
    let mut s = ifai_short(10, 339, 8);
    let seat = G1841::to_act(&s)[0];
    assert_eq!(seat, 2);
    assert!(operating_round::in_emergency(&s));
    let buy = Action::BuyTrain {
        train: "3-4".into(),
        from: "depot".into(),
        price: 200,
    };
    let sell = |percent| Action::EmergencySell {
        seller: Some("IFAI".into()),
        corporation: "IFAI".into(),
        percent,
    };
    let legal = G1841::legal(&s, seat);
    assert!(!legal.actions.contains(&buy));
    assert!(legal.actions.contains(&sell(10)) && legal.actions.contains(&sell(20)));
    assert!(!legal.actions.contains(&sell(30)));
    G1841::apply(&mut s, seat, &sell(20)).unwrap();
    assert!(G1841::legal(&s, seat).actions.contains(&buy));
    G1841::apply(&mut s, seat, &buy).unwrap();
    assert_eq!(s.corporation("SFTG").unwrap().cash, 339);
    assert_eq!(s.players[2].cash, 8);
}

/// 1841 §14: IFAI (L.10), SFTG (L.0) and seat 2 (L.8) are L.182 short of the L.200 3-train.
/// IFAI holds no other corporation's certificates, so it sells its own IPO shares at half
/// price, only as many as needed: 10% (ceil(195 ÷ 2) = L.98) or 20% (L.195), not 30% (20%
/// already covers L.182). After the 20% sale (L.195, two rows down) it buys the train itself;
/// the emergency forbids buying another corporation's train from then on. Passing is refused.
#[test]
fn s14_emergency_sales_at_half_price_only_as_needed() {
    let mut s = ifai_short(10, 0, 8);
    let seat = G1841::to_act(&s)[0];
    let sell = |percent| Action::EmergencySell {
        seller: Some("IFAI".into()),
        corporation: "IFAI".into(),
        percent,
    };
    let legal = G1841::legal(&s, seat);
    assert!(legal.actions.contains(&sell(10)));
    assert!(legal.actions.contains(&sell(20)));
    assert!(!legal.actions.contains(&sell(30)));
    assert!(
        !legal.train_purchases.is_empty(),
        "other corporations' trains before any sale"
    );
    let err = G1841::apply(&mut s.clone(), seat, &Action::Pass).unwrap_err();
    assert_eq!(
        (err.code, err.rule.as_str()),
        (RejectionCode::IllegalMove, "1841 §14")
    );
    let bank = s.bank_cash;
    let (row, col) = {
        let p = s.corporation("IFAI").unwrap().share_price.unwrap();
        (p.row, p.col)
    };
    G1841::apply(&mut s, seat, &sell(20)).unwrap();
    let ifai = s.corporation("IFAI").unwrap();
    assert_eq!(ifai.cash, 205);
    assert_eq!(s.bank_cash, bank - 195);
    assert_eq!(ifai.pool_percent(), 20);
    let p = ifai.share_price.unwrap();
    assert_eq!((p.row, p.col), (row + 2, col));
    let legal = G1841::legal(&s, seat);
    assert!(legal.train_purchases.is_empty());
    let buy = Action::BuyTrain {
        train: "3-4".into(),
        from: "depot".into(),
        price: 200,
    };
    assert_eq!(legal.actions, std::slice::from_ref(&buy));
    G1841::apply(&mut s, seat, &buy).unwrap();
    assert_eq!(s.corporation("IFAI").unwrap().cash, 5);
    assert_eq!(s.operations.trains["IFAI"], ["3-4"]);
}

/// 1841 §14 bankruptcy: IFAI, SFTG and seat 2 at L.0 and the depot down to the L.1,100
/// 7-trains: IFAI's eight IPO shares (half price L.780) and seat 2's sellable SFTG and SFTC
/// shares cannot pay, so bankruptcy is offered. With the loan: seat 2 sells everything at
/// half price (SFTG's president's certificate goes to the pool: SFTG, and IFAI below it, have
/// no controlling player), his cash goes to IFAI, his concessions to the bank, and he takes
/// L.500 from the bank and plays on, valued at cash − loan. Money is conserved.
#[test]
fn s14_bankruptcy_with_a_loan() {
    let mut s = ifai_short(0, 0, 0);
    common::depot_down_to_7_trains(&mut s);
    let seat = G1841::to_act(&s)[0];
    assert!(operating_round::in_emergency(&s));
    let legal = G1841::legal(&s, seat).actions;
    assert!(legal.contains(&Action::DeclareBankruptcy { loan: true }));
    assert!(legal.contains(&Action::DeclareBankruptcy { loan: false }));
    let money = s.total_money();
    let events = G1841::apply(&mut s, seat, &Action::DeclareBankruptcy { loan: true }).unwrap();
    assert!(events.contains(&Event::Bankrupt {
        seat,
        corporation: "IFAI".into(),
        loan: true,
    }));
    let p = &s.players[seat as usize];
    assert_eq!((p.cash, p.loan, p.bankrupt), (500, 500, false));
    assert!(p.concessions.is_empty());
    assert_eq!(s.total_money(), money, "the loan comes from the bank");
    assert_eq!(
        s.corporation("SFTG").unwrap().president(),
        Some(&referee_engine::g1841::ShareOwner::Pool)
    );
    let score = referee_engine::g1841::game_end::scores(&s)[seat as usize];
    assert_eq!(
        score, 0,
        "L.500 cash less the L.500 loan, nothing else held"
    );
}

/// 1841 §13, §14: the game ends immediately when all players but one are bankrupt — no
/// corporation operates any more, frozen ones included (listed divergence
/// `game-end-after-the-last-bankruptcy`: 18xx.games first plays the turns of the frozen
/// corporations next in order, each moving left twice, `G1841::Round::Operating#
/// start_operating` inside the `bankrupt` action, and checks the end only after it). The
/// position of [`s14_bankruptcy_with_a_loan`] with seats 1 and 3 already out (bankrupt, their
/// certificates in the pool: SFTN and IRSFF frozen, their concessions with the bank): seat 2
/// resigns; seat 0 is the last player (value L.315). IRSFF, next in order after IFAI, drops a
/// row for seat 2's sale but does not move left, nobody operates after IFAI, and the scores
/// are final.
#[test]
fn s13_the_last_bankruptcy_ends_the_game_before_any_frozen_turn() {
    let mut s = ifai_short(0, 0, 0);
    common::depot_down_to_7_trains(&mut s);
    for seat in [1u32, 3] {
        let p = &mut s.players[seat as usize];
        p.bankrupt = true;
        s.bank_cash += p.cash;
        p.cash = 0;
        let held = std::mem::take(&mut p.concessions);
        s.bank_concessions.extend(held);
        for c in s.corporations.iter_mut() {
            for x in c.certificates.iter_mut() {
                if x.owner == ShareOwner::Player(seat) {
                    x.owner = ShareOwner::Pool;
                }
            }
        }
    }
    s.bank_concessions.sort();
    assert_eq!(validate(&s), Ok(()));
    let irsff = s.corporation("IRSFF").unwrap().share_price.unwrap();
    assert_eq!(controller(&s, "IRSFF"), None, "IRSFF is frozen");
    let seat = G1841::to_act(&s)[0];
    assert_eq!(seat, 2);
    let events = G1841::apply(&mut s, seat, &Action::DeclareBankruptcy { loan: false }).unwrap();
    assert!(s.game_end.ended);
    let o = G1841::outcome(&s).unwrap();
    assert_eq!(
        (o.end_reason.as_str(), o.scores.clone()),
        ("bankrupt", vec![315, 0, 0, 0])
    );
    // Seat 2's 10% of IRSFF, sold with the drop, moves it one row down; no frozen turn moves
    // it left.
    let after = s.corporation("IRSFF").unwrap().share_price.unwrap();
    assert_eq!((irsff.row, irsff.col, after.row, after.col), (3, 5, 4, 5));
    let Round::OperatingRound(r) = &s.round else {
        panic!("the operating round")
    };
    assert_eq!(r.done, ["AFI", "ATFA", "IFAI"]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::OperatingTurn { .. }))
    );
}

/// Refusals of an action of the right step say why and what is possible instead (1841 §9.1,
/// §9.2, §9.6): names that do not exist are `INVALID_ARGUMENT`; the state is unchanged.
#[test]
fn s9_refusals_name_the_reason_and_the_alternatives() {
    let s = before(190);
    let seat = G1841::to_act(&s)[0];
    let refuse = |a: Action| {
        let mut t = s.clone();
        let r = G1841::apply(&mut t, seat, &a).unwrap_err();
        assert_eq!(t, s, "{a:?} changed the state");
        (r.code, r.rule, r.message)
    };
    let lay = |hex: &str, tile: &str, rotation: u32| Action::LayTile {
        hex: hex.into(),
        tile: tile.into(),
        rotation,
    };
    for (a, expected) in [
        (
            lay("Z99", "202", 0),
            (
                RejectionCode::InvalidArgument,
                "`Z99` is not a hex of this map (hexes are named like `E9`).",
            ),
        ),
        (
            lay("E9", "9999", 0),
            (
                RejectionCode::InvalidArgument,
                "`9999` is not a tile of 1841.",
            ),
        ),
        (
            lay("E9", "202", 6),
            (
                RejectionCode::InvalidArgument,
                "A rotation is 0 to 5, not 6.",
            ),
        ),
    ] {
        let (code, rule, message) = refuse(a);
        assert_eq!((code, message.as_str()), expected);
        assert_eq!(rule, "1841 §9.1");
    }
    for (a, expected) in [
        (
            lay("F16", "601", 1),
            "Tile 601 does not fit on F16 in rotation 1 (its track must reach IRSFF's, keep the old track and lead to neighbouring hexes); rotations that fit: 0.",
        ),
        (
            lay("F16", "202", 0),
            "Tile 202 cannot go on F16: F16 takes as its first tile 601 only.",
        ),
        (
            lay("E9", "8", 0),
            "Tile 8 cannot go on E9: E9 takes as its first tile 201, 202, 621 only.",
        ),
        (
            lay("K3", "8", 0),
            "IRSFF cannot lay on K3: no tile there connects to track reached from a base it has not used this turn (in phase 2 new track may not cross a province border). Hexes where it can lay: D8, E9, F16.",
        ),
    ] {
        let (code, rule, message) = refuse(a);
        assert_eq!(
            (code, rule.as_str(), message.as_str()),
            (RejectionCode::IllegalMove, "1841 §9.1", expected)
        );
    }
}

/// 1841 §4: an operating-round action in the concession round is refused as `WRONG_STEP`,
/// naming the action and what the round accepts.
#[test]
fn s4_other_rounds_actions_in_the_concession_round() {
    let mut s = G1841::setup(&Default::default(), 4, 0).unwrap();
    let seat = G1841::to_act(&s)[0];
    let copy = s.clone();
    let r = G1841::apply(
        &mut s,
        seat,
        &Action::LayTile {
            hex: "E9".into(),
            tile: "202".into(),
            rotation: 5,
        },
    )
    .unwrap_err();
    assert_eq!(r.code, RejectionCode::WrongStep);
    assert_eq!(
        r.message,
        "`lay a tile` is not possible in the concession round: nominate a concession with a bid, or pass."
    );
    assert_eq!(s, copy);
}

/// 1841 §14 with §7.5: the bankrupt's last sale hands a presidency to another holder with
/// the president's percent where the presidency may change, as 18xx.games'
/// `share_pool.sell_shares(bundle, allow_president_change: true)` does, and the
/// corporation's turn ends there (18xx `done_operating!`; lite random 4 players seed 4001,
/// 18xx ids 446-447: CTDA's bankrupt president left 30% to player 1, who became president,
/// and 18xx went on to the next corporation). Seat 2, president of SFTG (historical, phase 3:
/// the certificate goes to the pool) and, here, of AFI (non-historical; seat 0 holds 20%,
/// seat 3 10%), goes bankrupt for IFAI: seat 0 becomes AFI's president with the president's
/// certificate for two shares, the pool gets seat 2's 20% of AFI as two shares, SFTG's
/// certificate goes to the pool with seat 2's 10% (80% there: SFTG frozen), and IFAI's turn
/// is over.
#[test]
fn s14_a_bankrupts_presidency_passes_to_a_holder_and_the_turn_ends() {
    use common::move_shares;
    use referee_engine::g1841::ShareOwner;
    let mut s = ifai_short(0, 0, 0);
    common::depot_down_to_7_trains(&mut s);
    {
        let afi = s.corporations.iter_mut().find(|c| c.sym == "AFI").unwrap();
        afi.certificates[0].owner = ShareOwner::Player(2);
    }
    move_shares(
        &mut s,
        "AFI",
        &ShareOwner::Corporation("SFTC".into()),
        &ShareOwner::Player(0),
        10,
    );
    move_shares(&mut s, "AFI", &ShareOwner::Ipo, &ShareOwner::Player(0), 10);
    move_shares(&mut s, "AFI", &ShareOwner::Ipo, &ShareOwner::Player(3), 10);
    let seat = G1841::to_act(&s)[0];
    assert_eq!(seat, 2);
    assert!(
        G1841::legal(&s, seat)
            .actions
            .contains(&Action::DeclareBankruptcy { loan: false })
    );
    let events = G1841::apply(&mut s, seat, &Action::DeclareBankruptcy { loan: false }).unwrap();
    assert!(events.contains(&Event::PresidentChanged {
        corporation: "AFI".into(),
        seat: 0,
    }));
    let holding = |s: &State, corp: &str, owner: ShareOwner| -> (u32, bool) {
        let c = s.corporation(corp).unwrap();
        (
            c.percent_of(&owner),
            c.certificates
                .iter()
                .any(|k| k.president && k.owner == owner),
        )
    };
    assert_eq!(holding(&s, "AFI", ShareOwner::Player(0)), (20, true));
    assert_eq!(holding(&s, "AFI", ShareOwner::Player(3)), (10, false));
    assert_eq!(holding(&s, "AFI", ShareOwner::Pool), (20, false));
    assert_eq!(holding(&s, "AFI", ShareOwner::Player(2)), (0, false));
    assert_eq!(holding(&s, "SFTG", ShareOwner::Pool), (80, true));
    let Round::OperatingRound(r) = &s.round else {
        panic!("still the operating round");
    };
    assert!(r.done.contains(&"IFAI".to_string()), "IFAI's turn is over");
    assert_ne!(r.current.as_deref(), Some("IFAI"));
}

/// 1841 §9.3, §9.6, FAQ-C11: the run-routes step is offered only when a walk of the track from
/// one of the corporation's city tokens reaches a second stop without crossing a hex side
/// twice (18xx `route_info`, `operating_round::route_available`). Lite, heuristic, 3 players,
/// seed 3002, id 489: SFTC (a 4-train) has tokens in Cuneo (M3) and in pass M5 and has just
/// laid O5. From Cuneo, track runs over N4 (sides 2-4) into the pass; the only way on, N4's
/// 4-5 to the town O5 and the off-board Q5, crosses N4's side 4 again. So SFTC has no route
/// and does not run, as in 18xx.games (its route M5-O5-Q5 from the pass token alone is legal
/// for the route check with `pass_token_not_a_route_base` off, but never asked; FAQ-C11 makes
/// it illegal anyway). A breadth-first reach of the nodes from Cuneo finds O5 and Q5 (it turns
/// back through the pass); the step used to be offered on it (export id 490 `run_routes`,
/// refused by the oracle, which had skipped the step).
#[test]
fn s9_6_no_route_step_when_the_way_on_reuses_a_hex_side() {
    use referee_engine::g1841::import18xx::{ReplaySettings, replay};
    use referee_engine::g1841::track::Board;
    let text = std::fs::read_to_string(format!(
        "{}/../tests/fixtures/1841/exported/lite-3p-heuristic-s3002-to494.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let replayed = replay(
        &text,
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(489),
        },
    );
    assert_eq!(replayed.failure, None);
    let state = replayed.state.unwrap();
    let Round::OperatingRound(r) = &state.round else {
        panic!("not an operating round: {:?}", state.round);
    };
    assert_eq!(r.current.as_deref(), Some("SFTC"));
    assert_eq!(r.step, OperatingStep::BuyToken);
    assert_eq!(state.operations.trains["SFTC"], ["4-1"]);
    assert!(!operating_round::route_available(&state, "SFTC"));
    let mut tokens: Vec<&str> = state
        .corporation("SFTC")
        .unwrap()
        .tokens
        .iter()
        .map(|t| t.hex.as_str())
        .collect();
    tokens.sort_unstable();
    assert_eq!(tokens, ["M3", "M5"]);
    // The breadth-first reach from Cuneo counts the town and the off-board beyond the pass.
    let board = Board::new(&state);
    let bases = board.bases(&state, "SFTC");
    assert_eq!(bases.len(), 1);
    let (hex, node, _) = bases[0];
    assert_eq!(hex, "M3");
    let counts = |i: usize, n: usize| {
        board
            .view(i)
            .and_then(|v| v.nodes.get(n))
            .is_some_and(|n| n.counts_toward_two_stop_minimum)
    };
    assert!(board.reaches_at_least(&state, "SFTC", &[(hex, node)], None, 3, counts));
}
