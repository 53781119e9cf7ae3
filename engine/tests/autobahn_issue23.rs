//! Issue #23: the defects found by an outside tester, each pinned with its exact value, the
//! trap warnings, and the strategy bots (seeded, deterministic, avoiding traps).

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use referee_engine::autobahn::action::Event;
use referee_engine::autobahn::bots::{Strategy, choose};
use referee_engine::autobahn::state::{Phase, State, TruckAt};
use referee_engine::autobahn::{Action, Autobahn, Options, assist, check_invariants, era, legal};
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

#[test]
fn autobot_turn_starts_once() {
    let mut s = Autobahn::setup(&test_options(), 1, 3).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut events = Vec::new();
    let mut bot_turns = 0;
    for _ in 0..400 {
        if Autobahn::outcome(&s).is_some() {
            break;
        }
        let legal = Autobahn::legal_actions(&s, 0);
        let a = choose(Strategy::Balanced, &s, 0, legal, &mut rng);
        let ev = Autobahn::apply(&mut s, 0, &a).unwrap();
        bot_turns += ev
            .iter()
            .filter(|e| matches!(e, Event::TurnStarted { player: 1 }))
            .count();
        events.extend(ev);
    }
    assert!(bot_turns > 10, "the Autobot played {bot_turns} turns");
    let starts: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::TurnStarted { player } => Some(*player),
            _ => None,
        })
        .collect();
    for w in starts.windows(2) {
        assert_ne!(w[0], w[1], "a turn started twice in a row: {starts:?}");
    }
}

#[test]
fn lost_promotion_is_said_in_plain_words_and_warned() {
    let mut s = started(2);
    assert_eq!(s.players[0].lobby, 0);
    assert!(s.players[0].departments.iter().flatten().all(|n| *n == 0));
    let key = Action::PlayCard {
        card: "BASIC-RED".into(),
        colour: "RED".into(),
        space: "KEY".into(),
        target: "U3".into(),
        goods: None,
    };
    assert!(Autobahn::legal_actions(&s, 0).contains(&key));
    let w = legal::warning(&s, 0, &key).expect("a trap");
    assert_eq!(
        w,
        "the reward of unlocking U3 is lost: a promotion (unlock cell U3): no employee in the Lobby or on a floor below an open floor to promote"
    );
    let (text, ok) = assist::describe(&s, 0, &key);
    assert!(ok.is_ok());
    assert!(text.ends_with(&format!(" — warning: {w}")), "{text}");
    let ev = Autobahn::apply(&mut s, 0, &key).unwrap();
    let lost: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::EffectLost { .. }))
        .collect();
    assert_eq!(
        lost,
        vec![&Event::EffectLost {
            player: 0,
            effect: "a promotion (unlock cell U3): no employee in the Lobby or on a floor below an open floor to promote".into()
        }]
    );
}

#[test]
fn unlock_with_something_to_promote_is_not_warned() {
    let mut s = started(2);
    s.players[0].lobby = 1;
    s.players[0].reserve -= 1;
    let key = Action::PlayCard {
        card: "BASIC-RED".into(),
        colour: "RED".into(),
        space: "KEY".into(),
        target: "U3".into(),
        goods: None,
    };
    assert_eq!(legal::warning(&s, 0, &key), None);
}

#[test]
fn loading_at_a_depot_no_road_reaches_is_warned() {
    let s = started(2);
    let load = |depot: &str, colour: &str, goods: &str| Action::PlayCard {
        card: format!("BASIC-{colour}").into(),
        colour: colour.into(),
        space: "LOAD_TRUCK".into(),
        target: depot.into(),
        goods: Some(goods.into()),
    };
    let legal_now = Autobahn::legal_actions(&s, 0);
    let red = load("DEP-RED", "RED", "APPLIANCES");
    assert!(legal_now.contains(&red), "loading is legal");
    assert_eq!(
        legal::warning(&s, 0, &red).as_deref(),
        Some(
            "no built road reaches depot DEP-RED (BIELEFELD): the truck cannot leave it until a road section at BIELEFELD is built"
        )
    );
    // Hamburg is on the pre-built A7: no warning.
    let black = load("DEP-BLK-HAMBURG", "BLACK", "CHEMICALS");
    assert!(legal_now.contains(&black));
    assert_eq!(legal::warning(&s, 0, &black), None);
}

#[test]
fn bots_never_pick_a_warned_action_while_another_is_legal() {
    for strategy in Strategy::ALL {
        for seed in 0..3u64 {
            let mut s = Autobahn::setup(&test_options(), 2, seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while Autobahn::outcome(&s).is_none() {
                let seat = Autobahn::to_act(&s)[0];
                let legal_now = Autobahn::legal_actions(&s, seat);
                let safe = legal_now
                    .iter()
                    .any(|a| legal::warning(&s, seat, a).is_none());
                let a = choose(strategy, &s, seat, legal_now, &mut rng);
                if safe {
                    assert_eq!(legal::warning(&s, seat, &a), None, "{strategy:?} {a:?}");
                }
                Autobahn::apply(&mut s, seat, &a).unwrap();
                assert!(s.action_count < 3_000, "{strategy:?} seed {seed} stalls");
            }
        }
    }
}

#[test]
fn bots_are_deterministic_for_a_seed() {
    let play = |seed: u64| {
        let mut s = Autobahn::setup(&test_options(), 3, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let bots = [Strategy::Builder, Strategy::Trucker, Strategy::Finance];
        while Autobahn::outcome(&s).is_none() {
            let seat = Autobahn::to_act(&s)[0];
            let legal_now = Autobahn::legal_actions(&s, seat);
            let a = choose(bots[seat as usize], &s, seat, legal_now, &mut rng);
            Autobahn::apply(&mut s, seat, &a).unwrap();
        }
        (s.action_count, Autobahn::outcome(&s).unwrap().scores)
    };
    assert_eq!(play(5), play(5));
}

#[test]
fn truck_on_a_depot_of_another_colour_is_refused_in_clear_words() {
    let mut s = started(2);
    s.goods_supply[2] -= 1;
    s.players[0].trucks[0].at = TruckAt::Depot("DEP-BLK-HAMBURG".into());
    s.players[0].trucks[0].goods = Some("CHEMICALS".into());
    s.phase = Phase::Trucks {
        colour: "RED".into(),
        moved: vec![],
    };
    let before = s.clone();
    let mv = Action::MoveTruck {
        truck: 0,
        path: vec!["BLK01-1".into()].into(),
        deliver: false,
    };
    let r = Autobahn::apply(&mut s, 0, &mv).unwrap_err();
    assert_eq!(r.code, RejectionCode::IllegalMove);
    assert_eq!(r.rule, "AQ-4");
    assert_eq!(
        r.message,
        "Truck 0 cannot move with a RED card: a truck moves only if it starts on a RED depot or a RED road section, and it stands on depot DEP-BLK-HAMBURG, a BLACK depot, not a RED one."
    );
    assert_eq!(s, before);
}

#[test]
fn validator_refuses_city_values_that_do_not_match_the_roads() {
    let mut s = started(2);
    assert!(check_invariants(&s).is_ok());
    let c = s
        .city_values
        .iter()
        .position(|v| v.city == "HAMBURG")
        .unwrap();
    let real = s.city_values[c].value;
    s.city_values[c].value = 999;
    let e = check_invariants(&s).unwrap_err();
    assert_eq!(e.path, format!("city_values[{c}].value"));
    assert!(
        e.message.starts_with("999 does not match the roads")
            && e.message.contains(&format!("= {real} (AQ-3)")),
        "{}",
        e.message
    );
}

/// autobahn §6 step 2 / AQ-6: S sums the cities *along that autobahn* connected to the built
/// network — of any colour ([L]: a city counts if it ends a complete link of any colour). So an
/// Office whose own colour has no road yet still earns a budget from cities its autobahn
/// passes that other roads connect. Pinned either way; here: it earns.
#[test]
fn office_without_road_of_its_colour_earns_from_connected_cities_along_it() {
    let mut s = started(2);
    let red = s.board.autobahn("RED").unwrap();
    let red_built = s.board.map.sections.iter().enumerate().any(|(i, x)| {
        x.autobahn == red && s.sections[i].road != referee_engine::autobahn::state::Road::Unbuilt
    });
    assert!(!red_built, "no red road at setup");
    let sum = era::budget_sum(&s, red);
    assert!(sum > 0, "red passes cities the A7 connects");
    s.offices[red].seats = vec![0];
    s.players[0].reserve -= 1;
    let dm = s.players[0].dm;
    let mut ev = Vec::new();
    era::pay_budgets(&mut s, &mut ev);
    assert!(ev.iter().any(|e| matches!(e, Event::BudgetPaid { office, player: 0, amount, .. } if office == "RED" && *amount == sum)));
    assert!(s.players[0].dm - dm >= sum);
}

/// U-23: a board may give the era supplies by player count (`era_supply.by_players`); a table
/// of that size starts with them, a solo game takes the 2-player supply (§3.3), other counts
/// keep `by_era`, and the validator checks a state's supplies against its own table size.
#[test]
fn era_supply_by_player_count() {
    let mut def = test_options().board.def.clone();
    def.era_supply.by_players.insert("2".into(), vec![7, 8, 9]);
    def.era_supply
        .by_players
        .insert("4".into(), vec![11, 13, 15]);
    let text = serde_json::to_string(&def).unwrap();
    let board = std::sync::Arc::new(referee_engine::autobahn::Board::from_json(&text).unwrap());
    let o = Options {
        board,
        ..Options::default()
    };
    for (seats, want) in [
        (1, vec![7, 8, 9]),
        (2, vec![7, 8, 9]),
        (3, vec![10, 12, 14]),
        (4, vec![11, 13, 15]),
    ] {
        let s = Autobahn::setup(&o, seats, 5).unwrap();
        assert_eq!(s.era_supply, want, "{seats} seat(s)");
        check_invariants(&s).unwrap();
        // a 4-player supply in a 3-player game does not add up
        if seats == 3 {
            let mut bad = s.clone();
            bad.era_supply = vec![11, 13, 15];
            assert!(check_invariants(&bad).is_err());
        }
    }
    // a count outside 2-4, or a supply that is not three positive numbers, is refused
    let mut wrong = def.clone();
    wrong
        .era_supply
        .by_players
        .insert("5".into(), vec![1, 2, 3]);
    wrong
        .era_supply
        .by_players
        .insert("3".into(), vec![0, 2, 3]);
    let err = referee_engine::autobahn::Board::from_json(&serde_json::to_string(&wrong).unwrap())
        .unwrap_err()
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("; ");
    assert!(err.contains("era_supply.by_players.5"), "{err}");
    assert!(err.contains("era_supply.by_players.3"), "{err}");
}

/// Issue #23: every earlier default board stays loadable by its id, and a game set up on it
/// keeps it.
#[test]
fn earlier_default_boards_stay_loadable() {
    use referee_engine::autobahn::Board;
    let ids = Board::shipped_ids();
    assert_eq!(ids[0], Board::default_board().def.board_id);
    for id in ["reconstructed-2026-1", "reconstructed-2026-2"] {
        assert!(ids.iter().any(|x| x == id), "{id} in {ids:?}");
        let mut o = Options::default();
        o.set("board", id).unwrap();
        let s = Autobahn::setup(&o, 3, 1).unwrap();
        assert_eq!(s.board.def.board_id, id);
    }
}

/// The acceptance rule "costs are affordable given starting DM and income" of the shared board
/// checker (`check_autobahn_board.py`), repeated here so that the repository checks its default
/// board without the shared folder: the dearest section and the dearest upgrade cost at most
/// the starting DM, three of the cheapest first builds are payable from it, and, for 2
/// players, each era's cheapest-first build-out of the standard supply (10/12/14, [C]) is
/// covered, cumulatively, by the starting DM, the subsidies (U-7) and, from era 2, the black
/// office's budget at its setup value less the worst rounding loss (AQ-6). Figures of the
/// default board `reconstructed-2026-3`: era build-outs 31 / 56 / 65 DM against 32 / 87 / 152.
#[test]
fn default_board_costs_are_affordable_as_the_checker_requires() {
    use std::collections::BTreeSet;
    let b = referee_engine::autobahn::Board::default_board();
    let m = &b.map;
    let sdm = b.def.starting_dm.per_player;
    let sub = &b.def.subsidy.dm_by_era;
    let n = m.sections.len();
    let max_sec = (0..n)
        .flat_map(|s| (1..=3).map(move |e| (s, e)))
        .map(|(s, e)| b.section_cost(s, e))
        .max()
        .unwrap();
    let max_upg = (0..m.link_sections.len())
        .flat_map(|l| (1..=3).map(move |e| (l, e)))
        .map(|(l, e)| {
            m.link_sections[l]
                .iter()
                .map(|s| b.section_cost(*s, e))
                .sum::<i64>()
        })
        .max()
        .unwrap();
    let prebuilt: BTreeSet<usize> = (0..n)
        .filter(|s| b.def.links[m.sections[*s].link].sections[m.sections[*s].idx].prebuilt)
        .collect();
    let frontier = |built: &BTreeSet<usize>, era: u32| {
        referee_engine::autobahn::board::frontier(m, built, |s| b.section_open(s, era))
    };
    let cheapest0 = frontier(&prebuilt, 1)
        .iter()
        .map(|s| b.section_cost(*s, 1))
        .min()
        .unwrap();
    assert_eq!((max_sec, max_upg, cheapest0, sdm), (10, 14, 3, 14));
    assert!(max_sec <= sdm && max_upg <= sdm && cheapest0 * 3 <= sdm);
    // The black office's budget at setup: the cities of the pre-built black road, each worth
    // its base value + 2 per autobahn with a pre-built (complete) link there (AQ-3).
    let full_links: Vec<&referee_engine::autobahn::board::LinkDef> = b
        .def
        .links
        .iter()
        .filter(|l| l.sections.iter().all(|s| s.prebuilt))
        .collect();
    let black_budget: i64 = b
        .def
        .cities
        .iter()
        .filter(|c| {
            full_links
                .iter()
                .any(|l| l.autobahn == "BLACK" && (l.a == c.id || l.b == c.id))
        })
        .map(|c| {
            let cols: BTreeSet<&str> = full_links
                .iter()
                .filter(|l| l.a == c.id || l.b == c.id)
                .map(|l| l.autobahn.as_str())
                .collect();
            c.base_value + 2 * cols.len() as i64
        })
        .sum();
    let (mut built, mut income, mut spent) = (prebuilt.clone(), 0i64, 0i64);
    let mut figures = Vec::new();
    for (e, supply) in [10u32, 12, 14].into_iter().enumerate() {
        let era = e as u32 + 1;
        let before = spent;
        for _ in 0..supply {
            let s = frontier(&built, era)
                .into_iter()
                .min_by(|x, y| {
                    (b.section_cost(*x, era), &m.section_ids[*x])
                        .cmp(&(b.section_cost(*y, era), &m.section_ids[*y]))
                })
                .expect("the era's supply can be built out");
            spent += b.section_cost(s, era);
            built.insert(s);
        }
        income += 2 * if era == 1 { sdm } else { 0 } + 2 * sub[e];
        if era > 1 {
            income += (black_budget - 2).max(0);
        }
        assert!(
            spent <= income,
            "era {era}: cumulative build-out {spent} DM > guaranteed income {income} DM"
        );
        figures.push((spent - before, income));
    }
    assert_eq!(figures, vec![(31, 32), (56, 87), (65, 152)]);
}

/// The test board with its station price (U-30) replaced by `price` (JSON).
fn board_with_station_price(
    price: serde_json::Value,
) -> Result<referee_engine::autobahn::Board, String> {
    let mut v: serde_json::Value =
        serde_json::from_str(include_str!("data/autobahn-test-board.json")).unwrap();
    v["service_stations"]["build_cost_dm"] = price;
    referee_engine::autobahn::Board::from_json(&v.to_string()).map_err(|p| {
        p.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// U-30 ("station from data"): a board prices a service station with one amount for every era
/// (the older boards: `0`) or with one amount per era; a player pays the current era's price,
/// and cannot build when holding less (AQ-1: cannot pay, cannot act).
#[test]
fn station_price_is_one_amount_or_one_per_era() {
    let one = board_with_station_price(serde_json::json!(12)).unwrap();
    let st = &one.def.service_stations;
    assert_eq!(
        (st.build_cost(1), st.build_cost(2), st.build_cost(3)),
        (12, 12, 12)
    );
    let per_era = board_with_station_price(serde_json::json!([10, 40, 90])).unwrap();
    let st = &per_era.def.service_stations;
    assert_eq!(
        (st.build_cost(1), st.build_cost(2), st.build_cost(3)),
        (10, 40, 90)
    );
    for bad in [
        serde_json::json!([10, 40]),
        serde_json::json!([10, -1, 90]),
        serde_json::json!(-1),
    ] {
        let err = board_with_station_price(bad.clone()).unwrap_err();
        assert!(
            err.contains("service_stations.build_cost_dm"),
            "{bad}: {err}"
        );
    }

    let options = Options {
        board: std::sync::Arc::new(per_era),
        ..Options::default()
    };
    let mut s = Autobahn::setup(&options, 3, 7).unwrap();
    let space = referee_engine::autobahn::build::free_station_spaces(&s, None)[0];
    let mut ev = Vec::new();
    // Era 1: 10 DM, then the first slot of the test board reveals +2 DM (§5.7).
    s.pm(0).dm = 14;
    referee_engine::autobahn::build::build_station(&mut s, &mut ev, 0, space, None).unwrap();
    assert_eq!(s.p(0).dm, 14 - 10 + 2);
    // Era 2: 40 DM; 39 DM is not enough and changes nothing.
    s.era = 2;
    let space = referee_engine::autobahn::build::free_station_spaces(&s, None)[0];
    s.pm(1).dm = 39;
    let err = referee_engine::autobahn::build::build_station(&mut s, &mut ev, 1, space, None)
        .unwrap_err();
    assert_eq!(err.code, RejectionCode::InsufficientFunds);
    assert_eq!((s.p(1).dm, s.p(1).stations_built), (39, 0));
    s.pm(1).dm = 40;
    referee_engine::autobahn::build::build_station(&mut s, &mut ev, 1, space, None).unwrap();
    // 40 DM paid, then the +2 DM of slot 1.
    assert_eq!((s.p(1).dm, s.p(1).stations_built), (2, 1));
}

/// The shipped boards of before the per-era station price (one amount, `0`) load unchanged.
#[test]
fn boards_with_a_single_station_price_still_load() {
    use referee_engine::autobahn::Board;
    for id in ["reconstructed-2026-1", "reconstructed-2026-2"] {
        let b = Board::shipped(id).unwrap();
        assert_eq!(b.def.service_stations.build_cost(2), 0, "{id}");
    }
}
