//! Rule tests of Autobahn: one per AQ ruling with the exact values of its example, and the
//! confirmed facts of the board and setup (autobahn.md, autobahn-qa.md).

use referee_engine::autobahn::action::Event;
use referee_engine::autobahn::board::Board;
use referee_engine::autobahn::state::{PendingKind, Phase, Road, State, TruckAt};
use referee_engine::autobahn::{Action, Autobahn, Options, build, era, movement};
use referee_engine::{Game, RejectionCode};

/// The fixed board of these tests (issue #23): today's numbers stay pinned here whatever the
/// default board's tuning (`data/autobahn-test-board.json`, board `reconstructed-2026-1`).
fn test_options() -> Options {
    Options {
        board: std::sync::Arc::new(
            referee_engine::autobahn::Board::from_json(include_str!(
                "data/autobahn-test-board.json"
            ))
            .unwrap(),
        ),
        ..Options::default()
    }
}

/// A game after the route draft, player 0 to act.
fn started(players: u32) -> State {
    let mut s = Autobahn::setup(&test_options(), players, 7).unwrap();
    while matches!(s.phase, Phase::RouteDraft) {
        let seat = Autobahn::to_act(&s)[0];
        let a = Autobahn::legal_actions(&s, seat)[0].clone();
        Autobahn::apply(&mut s, seat, &a).unwrap();
    }
    s
}

fn sec(s: &State, id: &str) -> usize {
    s.board.map.section_index[id]
}

/// Builds sections by hand, each newly built one taken from the current era's supply, so road
/// sections stay conserved (the invariant checker runs after every apply in debug builds).
fn build_road(s: &mut State, ids: &[&str], road: Road) {
    for id in ids {
        let i = sec(s, id);
        if s.sections[i].road == Road::Unbuilt {
            let era = (s.era as usize)
                .saturating_sub(1)
                .min(s.era_supply.len() - 1);
            s.era_supply[era] -= 1;
        }
        s.sections[i].road = road;
    }
    // City values follow the roads (AQ-3; the invariant checker compares them).
    build::recalc_cities(s, &mut Vec::new());
}

/// Leaves `left` sections in the era-1 supply; the others go to the era-2 supply, so road
/// sections stay conserved.
fn shrink_era_1_supply(s: &mut State, left: u32) {
    let moved = s.era_supply[0] - left;
    s.era_supply[0] = left;
    s.era_supply[1] += moved;
}

#[test]
fn aq1_build_needs_the_cost_and_seats_an_employee_leftmost() {
    let mut s = started(2);
    assert_eq!(
        s.offices[0].seats,
        vec![0, 1],
        "autobahn §3.1 step 8: one employee each, in turn order"
    );
    s.players[0].dm = 1;
    let before = s.clone();
    let play = Action::PlayCard {
        card: "BASIC-BLACK".into(),
        colour: "BLACK".into(),
        space: "BUILD_ROAD".into(),
        target: "BLK02-1".into(),
        goods: None,
    };
    let err = Autobahn::apply(&mut s, 0, &play).unwrap_err();
    assert_eq!(err.code, RejectionCode::InsufficientFunds);
    assert_eq!(err.rule, "AQ-1");
    assert_eq!(s, before, "state unchanged");
    s.players[0].dm = 12;
    let reserve = s.players[0].reserve;
    Autobahn::apply(&mut s, 0, &play).unwrap();
    assert_eq!(s.players[0].dm, 10, "BLK02-1 costs 2 DM");
    assert_eq!(s.offices[0].seats, vec![0, 1, 0], "leftmost free seat");
    assert_eq!(s.players[0].reserve, reserve - 1);
    assert_eq!(s.era_supply[0], 9, "one section from the era-1 supply");
}

#[test]
fn aq2_full_office_evicts_leftmost() {
    let mut s = started(2);
    // Office capacity 3 holding [Red, Blue, Red]; Blue builds.
    s.offices[0].seats = vec![0, 1, 0];
    s.players[0].reserve -= 1;
    s.current = 1;
    let lobby0 = s.players[0].lobby;
    let play = Action::PlayCard {
        card: "BASIC-BLACK".into(),
        colour: "BLACK".into(),
        space: "BUILD_ROAD".into(),
        target: "BLK02-1".into(),
        goods: None,
    };
    Autobahn::apply(&mut s, 1, &play).unwrap();
    assert_eq!(s.offices[0].seats, vec![1, 0, 1]);
    assert_eq!(
        s.players[0].lobby,
        lobby0 + 1,
        "one more Red employee in the Lobby"
    );
}

#[test]
fn aq2_empty_reserve_takes_three_from_lobby_and_promotes() {
    let mut s = started(2);
    // Blue (player 1) has 0 in reserve and 4 in the Lobby.
    let p = &mut s.players[1];
    p.lobby = 4;
    p.departments[0][0] = p.reserve - 4;
    p.reserve = 0;
    s.current = 1;
    let up = Action::PlayCard {
        card: "BASIC-BLACK".into(),
        colour: "BLACK".into(),
        space: "UPGRADE_LINK".into(),
        target: "BLK03".into(),
        goods: None,
    };
    Autobahn::apply(&mut s, 1, &up).unwrap();
    assert_eq!(s.players[1].lobby, 1, "4 - 3");
    assert_eq!(s.players[1].reserve, 2, "3 - 1 after placing");
    assert_eq!(s.offices[0].seats, vec![0, 1, 1]);
    assert!(matches!(
        s.pending.first().map(|p| &p.kind),
        Some(PendingKind::Promote { department: None })
    ));
    assert_eq!(
        Autobahn::to_act(&s),
        vec![1],
        "Blue chooses the promotion before the turn goes on"
    );
    let legal = Autobahn::legal_actions(&s, 1);
    assert!(legal.contains(&Action::Promote {
        department: "TRADE".into(),
        from_floor: 0
    }));
    Autobahn::apply(
        &mut s,
        1,
        &Action::Promote {
            department: "TRADE".into(),
            from_floor: 0,
        },
    )
    .unwrap();
    assert_eq!(s.players[1].departments[1][0], 1);
    assert_eq!(s.players[1].lobby, 0);
}

#[test]
fn aq3_city_values_count_distinct_autobahns_not_links() {
    let mut s = started(2);
    let hannover = s.board.map.city_index["HANNOVER"];
    let base = s.board.def.cities[hannover].base_value;
    // Two complete black links at Hannover (BLK03, BLK04, pre-built): +2 once.
    assert_eq!(build::city_value(&s, hannover), base + 2);
    // Upgrade one black link, complete one red link.
    build_road(&mut s, &["BLK03-1", "BLK03-2"], Road::TwoLane);
    build_road(&mut s, &["RED03-1"], Road::SingleLane);
    assert_eq!(
        build::city_value(&s, hannover),
        base + 6,
        "base + 2 (black) + 2 (red) + 2 (black upgraded)"
    );
    // Upgrading the second black link changes nothing.
    build_road(&mut s, &["BLK04-1"], Road::TwoLane);
    assert_eq!(build::city_value(&s, hannover), base + 6);
}

#[test]
fn aq4_truck_moves_from_played_colour_two_lane_bonus() {
    let mut s = started(2);
    s.era = 2;
    build_road(&mut s, &["RED03-1"], Road::TwoLane);
    s.players[0].trucks[0].at = TruckAt::Section("RED03-1".into());
    s.players[0].trucks[0].goods = Some("CHEMICALS".into());
    s.goods_supply[2] -= 1;
    s.players[0].trucks[1].at = TruckAt::Section("BLK05-1".into());
    s.players[0].trucks[1].goods = Some("CHEMICALS".into());
    s.goods_supply[2] -= 1;
    s.phase = Phase::Trucks {
        colour: "RED".into(),
        moved: vec![],
    };
    assert_eq!(
        movement::max_steps(&s, 0, 0),
        4,
        "era 2: 3 + 1 from a two-lane section"
    );
    let too_far = Action::MoveTruck {
        truck: 0,
        path: vec![
            "BLK04-1".into(),
            "BLK05-1".into(),
            "BLK06-1".into(),
            "BLK07-1".into(),
            "BLK08-1".into(),
        ]
        .into(),
        deliver: false,
    };
    let before = s.clone();
    assert!(Autobahn::apply(&mut s, 0, &too_far).is_err());
    assert_eq!(s, before);
    let black_truck = Action::MoveTruck {
        truck: 1,
        path: vec!["BLK06-1".into()].into(),
        deliver: false,
    };
    let err = Autobahn::apply(&mut s, 0, &black_truck).unwrap_err();
    assert_eq!(
        err.rule, "AQ-4",
        "a truck on black does not move with a red card"
    );
    let ok = Action::MoveTruck {
        truck: 0,
        path: vec![
            "BLK04-1".into(),
            "BLK05-1".into(),
            "BLK06-1".into(),
            "BLK07-1".into(),
        ]
        .into(),
        deliver: false,
    };
    Autobahn::apply(&mut s, 0, &ok).unwrap();
    assert_eq!(
        s.players[0].trucks[0].at,
        TruckAt::Section("BLK07-1".into()),
        "left red for black, 4 steps"
    );
}

#[test]
fn aq5_pharma_first_delivery_gets_the_bonus_second_only_dm() {
    let mut s = started(2);
    s.era = 3;
    let at = s.board.map.country_index["AT"];
    let mut ev = Vec::new();
    for p in 0..2u32 {
        s.players[p as usize].trucks[0].at = TruckAt::Section("CYN08-1".into());
        s.players[p as usize].trucks[0].goods = Some("PHARMACEUTICALS".into());
        s.goods_supply[3] -= 1;
    }
    s.country_tiles[at] = Some("BT-D01".into());
    let dm1 = s.players[1].dm;
    movement::deliver_goods(&mut s, &mut ev, 0, 0, at);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Delivered {
            player: 0,
            pharma_bonus: true,
            ..
        }
    )));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::BonusTileTaken { player: 0, .. })),
        "the country's bonus tile"
    );
    assert!(
        s.pending
            .iter()
            .any(|p| p.player == 0 && matches!(p.kind, PendingKind::Promote { .. })),
        "AT pharma bonus: Promote"
    );
    let row_dm = s
        .board
        .def
        .delivery_boards
        .iter()
        .find(|b| b.id == s.players[1].delivery_board)
        .unwrap()
        .rows[5]
        .dm;
    ev.clear();
    movement::deliver_goods(&mut s, &mut ev, 1, 0, at);
    assert!(ev.iter().any(|e| matches!(e, Event::Delivered { player: 1, pharma_bonus: false, placement, .. } if placement == "dm_space")));
    assert_eq!(s.players[1].dm, dm1 + row_dm, "only the DM of its own row");
    // a third pharma delivery by player 1 finds its DM space taken: nothing
    s.players[1].trucks[0].at = TruckAt::Section("CYN08-1".into());
    s.players[1].trucks[0].goods = Some("PHARMACEUTICALS".into());
    s.goods_supply[3] -= 1;
    ev.clear();
    movement::deliver_goods(&mut s, &mut ev, 1, 0, at);
    assert_eq!(s.players[1].dm, dm1 + row_dm);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Delivered { placement, .. } if placement == "none"))
    );
    for p in 0..2 {
        assert_eq!(
            s.players[p].trucks[0].at,
            TruckAt::Reserve,
            "trucks back in reserve"
        );
    }
    assert_eq!(s.goods_supply[3], 4, "goods back in supply");
}

#[test]
fn aq6_construction_budget_divides_by_employees() {
    let mut s = started(3);
    assert_eq!(
        s.offices[0].capacity, 4,
        "3 players: 4 seats (autobahn §3.2)"
    );
    assert_eq!(
        era::budget_sum(&s, 0),
        37,
        "connected black cities at setup"
    );
    s.offices[0].seats = vec![0, 0, 1, 2];
    s.offices[4].seats = vec![1];
    let dm: Vec<i64> = s.players.iter().map(|p| p.dm).collect();
    let mut ev = Vec::new();
    era::pay_budgets(&mut s, &mut ev);
    assert_eq!(s.players[0].dm - dm[0], 18);
    assert_eq!(s.players[1].dm - dm[1], 9, "9 from black, 0 from purple");
    assert_eq!(s.players[2].dm - dm[2], 9);
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::BudgetPaid { office, amount: 0, .. } if office == "PURPLE")
        ),
        "no connected city: 0"
    );
}

#[test]
fn board_loader_reports_every_problem_with_its_path() {
    let mut v: serde_json::Value =
        serde_json::from_str(include_str!("data/autobahn-test-board.json")).unwrap();
    v["links"][12]["sections"] = serde_json::json!([]);
    v["era_supply"]["by_era"] = serde_json::json!([10, 0, 14]);
    v["countries"][0]["value"] = serde_json::json!(0);
    let err = Board::from_json(&v.to_string()).unwrap_err();
    let text: Vec<String> = err.iter().map(|p| p.to_string()).collect();
    assert!(
        text.contains(&"links[12].sections: must be ≥ 1".to_string()),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("era_supply.by_era:")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("countries[0].value:")),
        "{text:?}"
    );
}

#[test]
fn board_default_encodes_the_confirmed_facts() {
    let b = Board::default_board();
    assert!(
        b.def
            .provenance
            .starts_with("reconstruction; not the printed board")
    );
    assert_eq!(b.def.era_supply.by_era, vec![10, 12, 14], "autobahn §3.1");
    assert_eq!(b.def.autobahns.len(), 7);
    assert_eq!(b.def.countries.len(), 8);
    assert_eq!(b.office_capacity(0, 2), 3, "autobahn §3.2");
    assert_eq!(b.office_capacity(0, 3), 4);
    assert_eq!(b.office_capacity(0, 4), 5);
    assert_eq!(b.office_capacity(0, 1), 3, "solo counts as 2");
    let yellow = b.autobahn("YELLOW").unwrap();
    assert!(
        b.map
            .sections
            .iter()
            .enumerate()
            .filter(|(_, x)| x.autobahn == yellow)
            .all(|(i, _)| !b.section_open(i, 2) && b.section_open(i, 3)),
        "East closed until era 3"
    );
}

#[test]
fn setup_gives_six_cards_and_starting_money() {
    let s = started(4);
    for p in &s.players {
        assert_eq!(p.hand.len(), 6, "yellow set aside (autobahn §1.2)");
        assert_eq!(p.dm, 12);
        assert_eq!(p.trucks.len(), 2);
        assert!(p.route_card.is_some());
    }
    assert_eq!(s.offices[0].seats, vec![0, 1, 2, 3]);
    assert!(Autobahn::setup(&test_options(), 5, 1).is_err());
}

#[test]
fn era_end_last_builder_promotion_and_subsidy_return() {
    let mut s = started(2);
    shrink_era_1_supply(&mut s, 1);
    s.players[0].subsidy_used = true;
    s.players[0].reserve -= 1;
    s.players[0].lobby += 1;
    let play = Action::PlayCard {
        card: "BASIC-BLACK".into(),
        colour: "BLACK".into(),
        space: "BUILD_ROAD".into(),
        target: "BLK02-1".into(),
        goods: None,
    };
    Autobahn::apply(&mut s, 0, &play).unwrap();
    // trucks cannot move (none on the map): the turn ends, the era ends.
    assert_eq!(s.era, 2);
    assert!(!s.players[0].subsidy_used);
    assert_eq!(
        s.pending.first().map(|p| p.player),
        Some(0),
        "last builder promotes (autobahn §6 step 1)"
    );
    Autobahn::apply(
        &mut s,
        0,
        &Action::Promote {
            department: "NETWORK".into(),
            from_floor: 0,
        },
    )
    .unwrap();
    assert_eq!(s.players[0].departments[0][0], 1);
    // with nobody in the Lobby a promotion is lost (autobahn §5.11 [L])
    let mut t = started(2);
    shrink_era_1_supply(&mut t, 1);
    let ev = Autobahn::apply(&mut t, 0, &play).unwrap();
    assert!(t.pending.is_empty());
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::EffectLost { player: 0, .. }))
    );
}

#[test]
fn solo_autobot_plays_inside_apply_reproducibly() {
    let o = Options {
        autobot_level: 8,
        ..test_options()
    };
    let run = || {
        let mut s = Autobahn::setup(&o, 1, 99).unwrap();
        let a = Autobahn::legal_actions(&s, 0)[0].clone();
        let ev = Autobahn::apply(&mut s, 0, &a).unwrap();
        (s, ev)
    };
    let (s1, ev1) = run();
    let (s2, ev2) = run();
    assert_eq!(s1, s2);
    assert_eq!(ev1, ev2);
    assert!(
        ev1.iter().any(|e| matches!(e, Event::AutobotDrew { .. })),
        "events say what the Autobot did"
    );
    assert_eq!(Autobahn::to_act(&s1), vec![0]);
}

/// Card conservation (autobahn §3.1 steps 6–7) in the validation of an incoming state: a
/// duplicated improved card or basic card is refused with the path of the second copy; a
/// card missing (discarded from the display) is not an error.
#[test]
fn validation_refuses_a_card_in_two_places() {
    let s = started(3);
    assert_eq!(referee_engine::autobahn::check_invariants(&s), Ok(()));

    // An improved card of the deck copied onto the deck again.
    let mut twice = s.clone();
    let card = twice.card_deck[0].clone();
    twice.card_deck.push(card.clone());
    let last = twice.card_deck.len() - 1;
    let v = referee_engine::autobahn::check_invariants(&twice).unwrap_err();
    assert_eq!(v.path, format!("card_deck[{last}]"));
    assert_eq!(
        v.message,
        format!(
            "card `{card}` is also at card_deck[0]; each improved and advanced card exists once"
        )
    );

    // A display card also in a player's hand.
    let mut held = s.clone();
    let shown = held.display[0].clone();
    held.players[1].hand.push(shown.clone());
    let v = referee_engine::autobahn::check_invariants(&held).unwrap_err();
    assert_eq!(v.path, "display[0]");
    assert!(
        v.message
            .contains(&format!("card `{shown}` is also at players[1].hand["))
    );

    // A second copy of a basic card in one player's hand.
    let mut basic = s.clone();
    let own = basic.players[2].hand[0].clone();
    basic.players[2].hand.push(own.clone());
    let n = basic.players[2].hand.len() - 1;
    let v = referee_engine::autobahn::check_invariants(&basic).unwrap_err();
    assert_eq!(v.path, format!("players[2].hand[{n}]"));
    assert_eq!(
        v.message,
        format!(
            "card `{own}` is also at players[2].hand[0]; each player has one copy of each basic card"
        )
    );

    // A basic card on the deck.
    let mut stray = s.clone();
    stray.card_deck.push(own.clone());
    let v = referee_engine::autobahn::check_invariants(&stray).unwrap_err();
    assert_eq!(v.path, format!("card_deck[{}]", stray.card_deck.len() - 1));

    // A card gone (as after a discard from the display) is fine.
    let mut gone = s.clone();
    gone.display.remove(0);
    assert_eq!(referee_engine::autobahn::check_invariants(&gone), Ok(()));
}
