//! The solo opponent Autobot (autobahn.md §8): one test per rule, named after it, with exact
//! values on the default board.

use referee_engine::Game;
use referee_engine::autobahn::action::Event;
use referee_engine::autobahn::autobot;
use referee_engine::autobahn::board::Effect;
use referee_engine::autobahn::state::{Phase, Road, State, Truck, TruckAt};
use referee_engine::autobahn::{Autobahn, Options};

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

const BOT: u32 = 1;

/// A solo game at `level`, before anything is played (the route draft is pending).
fn solo(level: u32) -> State {
    let o = Options {
        autobot_level: level,
        ..test_options()
    };
    let s = Autobahn::setup(&o, 1, 5).unwrap();
    assert!(matches!(s.phase, Phase::RouteDraft));
    s
}

fn sec(s: &State, id: &str) -> usize {
    s.board.map.section_index[id]
}

fn set_road(s: &mut State, ids: &[&str], road: Road) {
    for id in ids {
        let i = sec(s, id);
        s.sections[i].road = road;
    }
}

fn truck(at: TruckAt, goods: &str, dest: &str) -> Truck {
    Truck {
        at,
        goods: Some(goods.into()),
        destination: Some(dest.into()),
    }
}

fn built_ids(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::SectionBuilt { section, .. } => Some(section.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn s8_1_setup_autobot_starts_holds_black_seat_1_and_has_no_money_or_route_card() {
    let s = solo(1);
    assert_eq!(s.players.len(), 2);
    assert!(s.players[1].autobot.is_some() && s.players[1].seat.is_none());
    assert_eq!(s.current, 1, "Autobot is the start player");
    assert_eq!(
        s.offices[0].seats,
        vec![1, 0],
        "Autobot black seat 1, you seat 2"
    );
    assert_eq!(s.players[1].trucks.len(), 2);
    assert_eq!(s.players[1].development, 0);
    assert_eq!(s.players[1].route_card, None);
    assert_eq!(s.route_offer.len(), 2, "you reveal 2 route cards");
    assert!(s.players[1].hand.is_empty());
}

#[test]
fn s8_2_decks_six_colours_without_yellow_a_tasks_and_b_reserve() {
    let s = solo(1);
    let b = s.players[1].autobot.as_ref().unwrap();
    let mut c = b.colour_pile.clone();
    c.sort();
    assert_eq!(c, ["BLACK", "CYAN", "ORANGE", "PURPLE", "RED", "WHITE"]);
    let mut t = b.task_pile.clone();
    t.sort();
    assert_eq!(t, ["1A", "2A", "3A", "5A", "7A"]);
    let mut r = b.task_reserve.clone();
    r.sort();
    assert_eq!(r, ["4B", "6B", "8B"]);
    // era 3: the yellow card (with its printed build-road action) goes on top
    let mut s2 = s.clone();
    autobot::start_era3(&mut s2);
    let b2 = s2.players[1].autobot.as_ref().unwrap();
    assert_eq!(b2.colour_pile.last().unwrap(), "YELLOW");
    assert_eq!(
        autobot::colour_card(&s2, "YELLOW"),
        (vec!["YELLOW".to_string()], true)
    );
}

#[test]
fn s8_2_max_plus1_adds_the_next_b_card_ignored_when_none_remain() {
    let mut s = solo(1);
    let mut ev = vec![];
    for k in 0..4 {
        autobot::bot_effect(&mut s, &mut ev, &Effect::MaxPlus1, "test");
        let b = s.players[1].autobot.as_ref().unwrap();
        assert_eq!(b.task_reserve.len(), 3usize.saturating_sub(k + 1));
        assert_eq!(b.task_pile.len(), 5 + (k + 1).min(3));
    }
}

#[test]
fn s8_4_build_prefers_section_towards_truck_destination() {
    // Without a truck: black buildable sections are BLK02-1 (Hamburg) and BLK10-1
    // (Crailsheim); no bonus token, both on black, so era 1 takes the southernmost.
    let mut s = solo(1);
    let mut ev = vec![];
    assert!(autobot::bot_build(&mut s.clone(), &mut ev, BOT, "BLACK"));
    assert_eq!(built_ids(&ev), ["BLK10-1"]);
    // A chemicals truck on the Hamburg depot marked for Denmark: BLK02-1 lets it move
    // towards its destination (priority 1) and wins over the compass tie-break.
    s.players[1].trucks[0] = truck(TruckAt::Depot("DEP-BLK-HAMBURG".into()), "CHEMICALS", "DK");
    let mut ev = vec![];
    assert!(autobot::bot_build(&mut s, &mut ev, BOT, "BLACK"));
    assert_eq!(built_ids(&ev), ["BLK02-1"]);
}

#[test]
fn s8_3_trucks_move_towards_destination_and_stop_at_unbuilt_road() {
    let mut s = solo(1);
    s.players[1].trucks[0] = truck(TruckAt::Depot("DEP-BLK-HAMBURG".into()), "CHEMICALS", "DK");
    set_road(&mut s, &["BLK02-1"], Road::SingleLane);
    let mut ev = vec![];
    autobot::move_trucks(&mut s, &mut ev, BOT);
    assert_eq!(
        s.players[1].trucks[0].at,
        TruckAt::Section("BLK02-1".into())
    );
    // level 1, era 1: 2 steps; with the road built it reaches the exit section, no step left
    set_road(&mut s, &["BLK02-2", "BLK01-1"], Road::SingleLane);
    let mut s3 = s.clone();
    autobot::move_trucks(&mut s, &mut ev, BOT);
    assert_eq!(
        s.players[1].trucks[0].at,
        TruckAt::Section("BLK01-1".into())
    );
    // level 2 (+1 space): the third step delivers into Denmark
    s3.players[1].autobot.as_mut().unwrap().level = 2;
    let mut ev3 = vec![];
    autobot::move_trucks(&mut s3, &mut ev3, BOT);
    assert_eq!(s3.players[1].trucks[0].at, TruckAt::Reserve);
    assert!(
        ev3.iter()
            .any(|e| matches!(e, Event::Delivered { player: 1, country, .. } if country == "DK"))
    );
}

#[test]
fn s8_4_load_country_priority_fewest_sections_left() {
    let mut s = solo(1);
    for t in &mut s.country_tiles {
        *t = None;
    }
    // no country is connected and none has a bonus token: fewest sections left decides
    let left: Vec<(String, u32)> = s
        .board
        .def
        .countries
        .iter()
        .enumerate()
        .map(|(ci, c)| (c.id.clone(), autobot::sections_left(&s, ci)))
        .collect();
    let want: Vec<(String, u32)> = [
        ("DK", 3),
        ("NL", 4),
        ("FR", 5),
        ("CH", 5),
        ("IT", 5),
        ("AT", 4),
        ("CZ", u32::MAX),
        ("PL", u32::MAX),
    ]
    .iter()
    .map(|(c, n)| (c.to_string(), *n))
    .collect();
    assert_eq!(left, want, "PL and CZ cannot be reached in era 1");
    let mut ev = vec![];
    assert!(autobot::bot_load(&mut s, &mut ev, BOT, "BLACK"));
    // Black: the country first (DK, 3 sections left), then its goods on the Autobot's board
    // (chemicals) from the black depot nearest the destination (Hamburg).
    assert_eq!(
        s.players[1].trucks[0],
        truck(TruckAt::Depot("DEP-BLK-HAMBURG".into()), "CHEMICALS", "DK")
    );
}

#[test]
fn s8_4_pharma_marker_moves_clockwise_when_human_delivers_first() {
    let mut s = solo(1);
    s.era = 3;
    // connect AT, IT (not) and CH: build every exit section of AT and CH
    let exits = |s: &State, c: &str| -> Vec<usize> {
        let ci = s.board.map.country_index[c];
        (0..s.board.map.sections.len())
            .filter(|x| s.board.map.sections[*x].exit_to == Some(ci))
            .collect()
    };
    for c in ["AT", "CH"] {
        for x in exits(&s, c) {
            s.sections[x].road = Road::SingleLane;
        }
    }
    s.players[1].trucks[0] = truck(TruckAt::Depot("DEP-CYAN".into()), "PHARMACEUTICALS", "AT");
    s.pharma_delivered.push("AT".into());
    autobot::pharma_taken(&mut s, "AT");
    assert_eq!(
        s.players[1].trucks[0].destination.as_deref(),
        Some("CH"),
        "IT is not connected, so the marker skips it"
    );
}

#[test]
fn s8_5_key_takes_leftmost_display_card_with_all_its_colours() {
    let mut s = solo(1);
    s.display[0] = "IMP-10".into(); // RED + YELLOW with the build-road icon
    let n = s.display.len();
    let mut ev = vec![];
    autobot::bot_effect(&mut s, &mut ev, &Effect::Unlock, "test");
    let b = s.players[1].autobot.as_ref().unwrap();
    assert_eq!(b.colour_pile.len(), 7);
    assert!(b.colour_pile.iter().any(|c| c == "IMP-10"));
    assert!(!s.display.contains(&"IMP-10".to_string()));
    assert_eq!(s.display.len(), n, "the leftmost slot is refilled");
    assert_eq!(
        autobot::colour_card(&s, "IMP-10"),
        (vec!["RED".to_string(), "YELLOW".to_string()], true)
    );
    assert_eq!(
        autobot::colour_card(&s, "IMP-01"),
        (vec!["BLACK".to_string(), "RED".to_string()], false)
    );
}

#[test]
fn s8_5_discard_current_colour_leftmost_else_rightmost_of_most_common_colour() {
    let mut s = solo(1);
    s.display = vec!["IMP-06".into(), "IMP-11".into(), "IMP-01".into()];
    s.card_deck.push("IMP-12".into());
    s.players[1].autobot.as_mut().unwrap().current_colour = "CYAN".into();
    let mut ev = vec![];
    autobot::bot_effect(&mut s, &mut ev, &Effect::DiscardDisplayCard, "test");
    assert_eq!(
        s.display,
        ["IMP-12", "IMP-11", "IMP-01"],
        "leftmost cyan card"
    );
    // WHITE: none in the display; RED 2 / CYAN 2 tie: the first in board order (RED) →
    // its rightmost card IMP-01
    s.display = vec!["IMP-06".into(), "IMP-11".into(), "IMP-01".into()];
    s.card_deck.push("IMP-12".into());
    s.players[1].autobot.as_mut().unwrap().current_colour = "WHITE".into();
    autobot::bot_effect(&mut s, &mut ev, &Effect::DiscardDisplayCard, "test");
    assert_eq!(s.display, ["IMP-12", "IMP-06", "IMP-11"]);
    // CYAN 2 / ORANGE 1 / PURPLE 1 / BLACK 1 / RED 1 → the rightmost cyan card IMP-12
    s.display = vec!["IMP-11".into(), "IMP-12".into(), "IMP-01".into()];
    s.card_deck.push("IMP-02".into());
    autobot::bot_effect(&mut s, &mut ev, &Effect::DiscardDisplayCard, "test");
    assert_eq!(s.display, ["IMP-02", "IMP-11", "IMP-01"]);
}

#[test]
fn s8_6_promotion_floor_limit_and_extra_promotions_table() {
    for (level, expect) in [
        (1, [0, 1, 1]),
        (4, [0, 1, 1]),
        (5, [1, 1, 2]),
        (6, [1, 2, 2]),
        (11, [1, 1, 2]),
        (12, [1, 2, 2]),
    ] {
        for era in 1..=3u32 {
            let mut s = solo(level);
            s.era = era;
            s.players[1].lobby = 5;
            s.players[1].reserve -= 5;
            let mut ev = vec![];
            autobot::era_end_promotions(&mut s, &mut ev);
            let n = ev
                .iter()
                .filter(|e| matches!(e, Event::Promoted { .. }))
                .count();
            assert_eq!(n, expect[era as usize - 1], "level {level} era {era}");
        }
    }
    // floor limit = era; highest reachable floor first, ties to the leftmost department
    let mut s = solo(1);
    s.era = 2;
    s.players[1].lobby = 1;
    s.players[1].reserve -= 1;
    s.players[1].departments[2][0] = 1;
    s.players[1].reserve -= 1;
    let mut ev = vec![];
    autobot::bot_promote(&mut s, &mut ev, BOT, None);
    assert_eq!(
        s.players[1].departments[2],
        [0, 1, 0],
        "floor 1 → 2 beats Lobby → 1"
    );
    autobot::bot_promote(&mut s, &mut ev, BOT, None);
    assert_eq!(
        s.players[1].departments[0],
        [1, 0, 0],
        "Lobby → floor 1, leftmost department"
    );
    autobot::bot_promote(&mut s, &mut ev, BOT, None);
    assert_eq!(s.players[1].departments[0], [0, 1, 0]);
    assert!(!ev.iter().any(|e| matches!(e, Event::EffectLost { .. })));
    autobot::bot_promote(&mut s, &mut ev, BOT, None);
    assert!(
        ev.iter().any(|e| matches!(e, Event::EffectLost { .. })),
        "floor 3 is closed in era 2 and the Lobby is empty"
    );
}

#[test]
fn s8_3_skip_when_no_task_works_reshuffles_and_develops_at_levels_4_to_6() {
    for (level, dev) in [(3, 0), (4, 1), (6, 1), (9, 0), (10, 1)] {
        let mut s = solo(level);
        s.era_supply[0] = 0; // nothing to build
        for x in &mut s.sections {
            if x.road == Road::SingleLane {
                x.road = Road::TwoLane; // nothing to upgrade
            }
        }
        for t in &mut s.players[1].trucks {
            t.at = TruckAt::Depot("DEP-RED".into()); // no free truck
        }
        s.players[1].stations_built = s.board.def.service_stations.per_player; // no station
        s.players[1]
            .autobot
            .as_mut()
            .unwrap()
            .colour_pile
            .push("BLACK".into());
        let mut ev = vec![];
        autobot::take_turn(&mut s, &mut ev);
        let queued = ev
            .iter()
            .filter(|e| matches!(e, Event::AutobotTaskQueued { .. }))
            .count();
        assert_eq!(queued, 5, "every A task tried once, then queued");
        assert!(ev.iter().any(|e| matches!(e, Event::AutobotSkipped)));
        let b = s.players[1].autobot.as_ref().unwrap();
        assert_eq!(b.task_pile.len(), 5, "the whole task deck, queue included");
        assert!(b.task_queue.is_empty() && b.task_used.is_empty());
        assert_eq!(b.colour_pile.len(), 7, "the whole colour deck");
        assert_eq!(s.players[1].development, dev, "level {level}");
    }
}

fn queued(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::AutobotTaskQueued { task } => Some(task.clone()),
            _ => None,
        })
        .collect()
}

fn drawn(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::AutobotDrew { task, .. } => Some(task.clone()),
            _ => None,
        })
        .collect()
}

fn upgraded(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::LinkUpgraded { link, .. } => Some(link.clone()),
            _ => None,
        })
        .collect()
}

fn stations(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::StationBuilt { space, .. } => Some(space.clone()),
            _ => None,
        })
        .collect()
}

fn station_space(s: &State, id: &str) -> usize {
    s.station_spaces.iter().position(|x| x.id == id).unwrap()
}

/// Only Load truck works: nothing to build or upgrade, no station left.
fn only_loads(s: &mut State) {
    s.era_supply[0] = 0;
    for x in &mut s.sections {
        if x.road == Road::SingleLane {
            x.road = Road::TwoLane;
        }
    }
    s.players[1].stations_built = s.board.def.service_stations.per_player;
}

#[test]
fn s8_3_task_queue_highest_first_and_reshuffle_keeps_the_top_queued_card() {
    let mut s = solo(1);
    only_loads(&mut s);
    {
        let b = s.players[1].autobot.as_mut().unwrap();
        b.colour_pile.retain(|c| c != "BLACK");
        b.colour_pile.push("BLACK".into());
        b.task_queue = vec!["7A".into(), "2A".into()];
        b.task_pile = vec!["5A".into(), "1A".into()]; // top = 1A
        b.task_used = vec!["3A".into()];
    }
    let mut ev = vec![];
    autobot::take_turn(&mut s, &mut ev);
    // The queue's highest card first (7A), then the pile (1A, then 5A, which loads);
    // queued cards are kept in descending order value.
    assert_eq!(drawn(&ev), ["7A", "1A", "5A"]);
    assert_eq!(queued(&ev), ["7A", "1A"]);
    let b = s.players[1].autobot.as_ref().unwrap();
    assert_eq!(b.task_queue, ["7A", "2A", "1A"]);
    assert!(b.task_pile.is_empty());
    assert_eq!(b.task_used, ["3A", "5A"]);
    assert_eq!(b.colour_used, ["BLACK"]);

    // Next turn: 7A from the queue fails again; the pile is empty, so the used pile and the
    // queue are shuffled into a new pile, except 7A (the highest queued card), which stays.
    {
        let b = s.players[1].autobot.as_mut().unwrap();
        b.colour_pile.retain(|c| c != "BLACK");
        b.colour_pile.push("BLACK".into());
        b.colour_used.clear();
    }
    let mut ev = vec![];
    autobot::take_turn(&mut s, &mut ev);
    let d = drawn(&ev);
    assert_eq!(d[0], "7A");
    assert_eq!(d.last().unwrap(), "5A", "only Load truck works");
    assert!(!d[1..].contains(&"7A".to_string()), "7A stayed queued");
    let b = s.players[1].autobot.as_ref().unwrap();
    assert_eq!(b.task_queue[0], "7A");
    let mut q = b.task_queue.clone();
    q.sort_by(|a, b| b.cmp(a));
    assert_eq!(b.task_queue, q, "descending order value");
    assert_eq!(b.task_used, ["5A"]);
    let mut all: Vec<String> = b.task_queue.iter().chain(&b.task_pile).cloned().collect();
    all.sort();
    assert_eq!(all, ["1A", "2A", "3A", "7A"]);
    assert_eq!(b.task_queue.len(), d.len() - 1);

    // Step 5: the last colour card used reshuffles both decks, keeping the top queued card.
    let mut s = solo(1);
    only_loads(&mut s);
    {
        let b = s.players[1].autobot.as_mut().unwrap();
        b.colour_pile = vec!["BLACK".into()];
        b.colour_used = ["RED", "CYAN", "ORANGE", "PURPLE", "WHITE"]
            .iter()
            .map(|c| c.to_string())
            .collect();
        b.task_queue = vec!["7A".into(), "3A".into()];
        b.task_pile = vec!["1A".into(), "5A".into()]; // top = 5A
        b.task_used = vec!["2A".into()];
    }
    let mut ev = vec![];
    autobot::take_turn(&mut s, &mut ev);
    assert_eq!(drawn(&ev), ["7A", "5A"]);
    let b = s.players[1].autobot.as_ref().unwrap();
    assert_eq!(b.colour_pile.len(), 6);
    assert!(b.colour_used.is_empty());
    assert_eq!(b.task_queue, ["7A"]);
    assert!(b.task_used.is_empty());
    let mut p = b.task_pile.clone();
    p.sort();
    assert_eq!(p, ["1A", "2A", "3A", "5A"]);
}

#[test]
fn s8_4_upgrade_nearest_black_then_bad_hersfeld_and_station_priorities() {
    // The prebuilt black links BLK03–BLK09 are all on black: the two touching Bad Hersfeld
    // (BLK06 Kassel–Bad Hersfeld, BLK07 Bad Hersfeld–Fulda) win; era 1 takes the southern one,
    // era 3 the northern one (the compass alone would give BLK09 / BLK03).
    let s = solo(1);
    let mut s1 = s.clone();
    let mut ev = vec![];
    assert!(autobot::bot_upgrade(&mut s1, &mut ev, BOT, "BLACK"));
    assert_eq!(upgraded(&ev), ["BLK07"]);
    let mut s3 = s.clone();
    s3.era = 3;
    let mut ev = vec![];
    assert!(autobot::bot_upgrade(&mut s3, &mut ev, BOT, "BLACK"));
    assert_eq!(upgraded(&ev), ["BLK06"]);
    // Orange: ORG01 (touching the black autobahn at Bad Hersfeld) beats the southernmost
    // ORG05 (Karlsruhe–Freiburg).
    let mut so = s.clone();
    set_road(&mut so, &["ORG01-1", "ORG05-1"], Road::SingleLane);
    let mut ev = vec![];
    assert!(autobot::bot_upgrade(&mut so, &mut ev, BOT, "ORANGE"));
    assert_eq!(upgraded(&ev), ["ORG01"]);

    // Stations on black: closest to Bad Hersfeld — ST-B3 (BLK06-1, next to it), then ST-B4
    // (BLK08-1, 2 away) before ST-B2 (BLK03-2); the compass alone would give ST-B4 first.
    let mut st = s.clone();
    let mut ev = vec![];
    assert!(autobot::bot_station(&mut st, &mut ev, BOT, "BLACK"));
    assert!(autobot::bot_station(&mut st, &mut ev, BOT, "BLACK"));
    assert!(autobot::bot_station(&mut st, &mut ev, BOT, "BLACK"));
    assert_eq!(stations(&ev), ["ST-B3", "ST-B4", "ST-B2"]);
    assert!(
        !autobot::bot_station(&mut st, &mut ev, BOT, "BLACK"),
        "no free built space"
    );
    // Easy solo board, slots 1–3 under the stations: Develop 1, Discard, Develop 1.
    assert_eq!(st.players[1].development, 2);
    assert_eq!(st.players[1].stations_built, 3);
    // Other colours: nearest the black autobahn (ST-O1 on ORG01-1 at Bad Hersfeld) before
    // the southernmost (ST-O3 on ORG05-1).
    let mut so = s.clone();
    set_road(&mut so, &["ORG01-1", "ORG05-1"], Road::SingleLane);
    let mut ev = vec![];
    assert!(autobot::bot_station(&mut so, &mut ev, BOT, "ORANGE"));
    assert!(autobot::bot_station(&mut so, &mut ev, BOT, "ORANGE"));
    assert_eq!(stations(&ev), ["ST-O1", "ST-O3"]);
    // Not viable without a built space of the colour.
    let mut ev = vec![];
    assert!(!autobot::bot_station(&mut s.clone(), &mut ev, BOT, "RED"));
}

#[test]
fn s8_4_delivery_matching_goods_gives_one_step_never_money() {
    let mut s = solo(1);
    for t in &mut s.country_tiles {
        *t = None;
    }
    let row = |s: &State, c: &str| {
        let b = s
            .board
            .def
            .delivery_boards
            .iter()
            .find(|b| b.id == s.players[1].delivery_board)
            .unwrap();
        b.rows.iter().find(|r| r.country == c).unwrap().clone()
    };
    assert_eq!(row(&s, "DK").preferred, "CHEMICALS");
    let other = if row(&s, "NL").preferred == "APPLIANCES" {
        "AUTOMOTIVE"
    } else {
        "APPLIANCES"
    };
    set_road(&mut s, &["BLK01-1", "CYN01-1"], Road::SingleLane);
    s.players[1].trucks[0] = truck(TruckAt::Section("BLK01-1".into()), "CHEMICALS", "DK");
    s.players[1].trucks[1] = truck(TruckAt::Section("CYN01-1".into()), other, "NL");
    let dm = s.players[1].dm;
    let mut ev = vec![];
    autobot::move_trucks(&mut s, &mut ev, BOT);
    let placements: Vec<(String, String)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Delivered {
                country, placement, ..
            } => Some((country.clone(), placement.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        placements,
        [
            ("DK".to_string(), "goods_icon".to_string()),
            ("NL".to_string(), "dm_space".to_string())
        ]
    );
    // matching chemicals into DK: +1 step; the non-matching delivery: nothing
    assert_eq!(s.players[1].development, 1);
    assert_eq!(s.players[1].dm, dm, "never the money");
    assert!(!ev.iter().any(|e| matches!(e, Event::DmGained { .. })));
    let p = &s.players[1];
    assert!(
        p.deliveries
            .iter()
            .any(|r| r.country == "DK" && r.delivered && r.goods_token)
    );
    assert!(
        p.deliveries
            .iter()
            .any(|r| r.country == "NL" && r.delivered && !r.goods_token)
    );
    assert!(p.trucks.iter().all(|t| t.at == TruckAt::Reserve));
}

#[test]
fn s8_4_station_passes_own_gives_rightmost_slot_yours_gives_step_at_levels_3_to_6() {
    use referee_engine::autobahn::movement::pass_station;
    // Your truck passes an Autobot station (ST-B3 on BLK06-1): +1 step at levels 3–6, 9–12.
    for (level, dev) in [
        (1, 0),
        (2, 0),
        (3, 1),
        (6, 1),
        (7, 0),
        (8, 0),
        (9, 1),
        (12, 1),
    ] {
        let mut s = solo(level);
        let st = station_space(&s, "ST-B3");
        s.station_spaces[st].owner = Some(BOT);
        s.players[1].stations_built = 1;
        let dm0 = s.players[0].dm;
        let mut ev = vec![];
        let x = sec(&s, "BLK06-1");
        pass_station(&mut s, &mut ev, 0, x);
        assert_eq!(s.players[1].development, dev, "level {level}");
        assert_eq!(s.players[0].dm, dm0, "you gain nothing");
    }
    // The Autobot's truck passes its own station: the rightmost revealed solo-board slot.
    // Easy board: 1 station → Develop 1; 6 stations → Develop 2; Hard board: 3 → Develop 2.
    for (level, built, dev) in [(1, 1, 1), (1, 6, 2), (7, 3, 2), (7, 1, 1)] {
        let mut s = solo(level);
        let st = station_space(&s, "ST-B3");
        s.station_spaces[st].owner = Some(BOT);
        s.players[1].stations_built = built;
        let mut ev = vec![];
        let x = sec(&s, "BLK06-1");
        pass_station(&mut s, &mut ev, BOT, x);
        assert_eq!(
            s.players[1].development, dev,
            "level {level}, {built} built"
        );
    }
    // Easy board, 2 stations: slot 2 is Discard.
    let mut s = solo(1);
    let st = station_space(&s, "ST-B3");
    s.station_spaces[st].owner = Some(BOT);
    s.players[1].stations_built = 2;
    let mut ev = vec![];
    let x = sec(&s, "BLK06-1");
    pass_station(&mut s, &mut ev, BOT, x);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::DisplayCardDiscarded { .. }))
    );
    // The Autobot's truck passes your station: you get the normal income (slot 2: 1 DM).
    let mut s = solo(1);
    let st = station_space(&s, "ST-B3");
    s.station_spaces[st].owner = Some(0);
    s.players[0].stations_built = 2;
    let dm0 = s.players[0].dm;
    let mut ev = vec![];
    let x = sec(&s, "BLK06-1");
    pass_station(&mut s, &mut ev, BOT, x);
    assert_eq!(s.players[0].dm, dm0 + 1);
    assert_eq!(s.players[1].development, 0);
}

#[test]
fn s8_5_bonus_tiles_fill_solo_board_slots_top_row_then_second_row() {
    let mut s = solo(1);
    s.players[1].lobby = 6;
    s.players[1].reserve -= 6;
    let mut ev = vec![];
    let mut devs = vec![];
    let mut promoted = vec![];
    for _ in 0..13 {
        let mut e = vec![];
        autobot::bot_tile(&mut s, &mut e);
        devs.push(s.players[1].development);
        promoted.push(
            e.iter()
                .filter_map(|x| match x {
                    Event::Promoted { department, .. } => Some(department.clone()),
                    _ => None,
                })
                .collect::<Vec<_>>(),
        );
        ev.extend(e);
    }
    // Easy board: D1, Discard, D1, Promote (Trade), D2, Promote | Discard, D1, Place employee,
    // D2, Promote (Trade), Promote; the 13th tile gains nothing. (Track space 6 promotes.)
    assert_eq!(devs, [1, 1, 2, 2, 4, 4, 4, 5, 5, 7, 7, 7, 7]);
    assert_eq!(promoted[3], ["TRADE"]);
    assert_eq!(promoted[10], ["TRADE"]);
    assert_eq!(promoted[12], Vec::<String>::new());
    assert_eq!(s.players[1].autobot.as_ref().unwrap().tile_slots_filled, 12);
    // Hard board (level 7): the first slot is Develop 2.
    let mut h = solo(7);
    let mut e = vec![];
    autobot::bot_tile(&mut h, &mut e);
    assert_eq!(h.players[1].development, 2);
    // Through a build: BLK02-2 holds a bonus token (priority 2); the tile goes face down on
    // slot 1 (Develop 1), not resolved as printed.
    let mut b = solo(1);
    set_road(&mut b, &["BLK02-1"], Road::SingleLane);
    let i = sec(&b, "BLK02-2");
    assert!(b.sections[i].bonus_tile.is_some());
    let mut e = vec![];
    assert!(autobot::bot_build(&mut b, &mut e, BOT, "BLACK"));
    assert_eq!(built_ids(&e), ["BLK02-2"]);
    assert!(
        e.iter()
            .any(|x| matches!(x, Event::BonusTileTaken { player: 1, .. }))
    );
    assert_eq!(b.players[1].autobot.as_ref().unwrap().tile_slots_filled, 1);
    assert_eq!(b.players[1].development, 1);
}

#[test]
fn s8_2_yellow_card_builds_a_road_section_and_then_does_the_task() {
    let mut s = solo(1);
    s.era = 3;
    autobot::start_era3(&mut s);
    {
        let b = s.players[1].autobot.as_mut().unwrap();
        b.task_pile.retain(|t| t != "1A");
        b.task_pile.push("1A".into());
    }
    let mut ev = vec![];
    autobot::take_turn(&mut s, &mut ev);
    let first_build = ev
        .iter()
        .position(|e| matches!(e, Event::SectionBuilt { .. }))
        .unwrap();
    let first_draw = ev
        .iter()
        .position(|e| matches!(e, Event::AutobotDrew { .. }))
        .unwrap();
    assert!(first_build < first_draw, "the printed build comes first");
    assert_eq!(built_ids(&ev), ["YEL08-1", "YEL01-1"]);
    let b = s.players[1].autobot.as_ref().unwrap();
    assert_eq!(b.colour_used, ["YELLOW"]);
    assert_eq!(b.task_used, ["1A"]);
}

#[test]
fn s8_4_load_country_priority_connected_then_bonus_token() {
    let base = solo(1);
    let tile = base.country_tiles.iter().flatten().next().unwrap().clone();
    let ci = |s: &State, c: &str| s.board.map.country_index[c];
    // Only DK holds a bonus token, CH is connected (ORG06-1 built): connected wins.
    let mut s = base.clone();
    for t in &mut s.country_tiles {
        *t = None;
    }
    let dk = ci(&s, "DK");
    s.country_tiles[dk] = Some(tile.clone());
    set_road(&mut s, &["ORG06-1"], Road::SingleLane);
    let mut ev = vec![];
    assert!(autobot::bot_load(&mut s, &mut ev, BOT, "BLACK"));
    assert_eq!(s.players[1].trucks[0].destination.as_deref(), Some("CH"));
    // Nothing connected, only CH holds a bonus token: CH (5 sections left) beats DK (3).
    let mut s = base.clone();
    for t in &mut s.country_tiles {
        *t = None;
    }
    let ch = ci(&s, "CH");
    s.country_tiles[ch] = Some(tile);
    let mut ev = vec![];
    assert!(autobot::bot_load(&mut s, &mut ev, BOT, "BLACK"));
    assert_eq!(s.players[1].trucks[0].destination.as_deref(), Some("CH"));
    // The second truck takes the next country (not the one already being delivered to);
    // with both trucks out, Load truck is not viable.
    assert!(autobot::bot_load(&mut s, &mut ev, BOT, "BLACK"));
    assert_eq!(s.players[1].trucks[1].destination.as_deref(), Some("DK"));
    assert!(!autobot::bot_load(&mut s, &mut ev, BOT, "BLACK"));
}

#[test]
fn s8_3_task_bonus_discard_or_develop_and_build_develop_icon() {
    // 3A: build road + Develop 1. BLK10-1 carries a Develop icon: +1 more; never pays.
    let mut s = solo(1);
    {
        let b = s.players[1].autobot.as_mut().unwrap();
        b.colour_pile.retain(|c| c != "BLACK");
        b.colour_pile.push("BLACK".into());
        b.task_pile.retain(|t| t != "3A");
        b.task_pile.push("3A".into());
    }
    let dm = s.players[1].dm;
    let mut ev = vec![];
    autobot::take_turn(&mut s, &mut ev);
    assert_eq!(built_ids(&ev), ["BLK10-1"]);
    assert_eq!(s.players[1].development, 2);
    assert_eq!(s.players[1].dm, dm, "Autobot never pays");
    // 2A: build road + Discard.
    let mut s = solo(1);
    {
        let b = s.players[1].autobot.as_mut().unwrap();
        b.colour_pile.retain(|c| c != "BLACK");
        b.colour_pile.push("BLACK".into());
        b.task_pile.retain(|t| t != "2A");
        b.task_pile.push("2A".into());
    }
    let mut ev = vec![];
    autobot::take_turn(&mut s, &mut ev);
    assert_eq!(built_ids(&ev), ["BLK10-1"]);
    assert_eq!(s.players[1].development, 1, "the Develop icon only");
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::DisplayCardDiscarded { .. }))
            .count(),
        1
    );
}

#[test]
fn s8_6_budget_counts_the_autobot_but_pays_it_nothing_and_it_never_scores_finance() {
    use referee_engine::autobahn::era;
    let mut s = solo(1);
    assert_eq!(s.offices[0].seats, vec![1, 0]);
    let share = era::budget_sum(&s, 0) / 2;
    assert!(share > 0);
    let (dm0, dm1) = (s.players[0].dm, s.players[1].dm);
    let mut ev = vec![];
    era::pay_budgets(&mut s, &mut ev);
    assert_eq!(
        s.players[0].dm,
        dm0 + share,
        "the sum divided by 2 employees"
    );
    assert_eq!(s.players[1].dm, dm1, "the Autobot is not paid");
    // Final scoring: one Finance employee on floor 1 and 100 DM each.
    for p in 0..2 {
        s.players[p].dm = 100;
        s.players[p].departments[3][0] = 1;
        s.players[p].reserve -= 1;
    }
    era::final_scoring(&mut s, &mut ev);
    let r = s.result.as_ref().unwrap();
    assert_eq!(r.scores[0].finance, 5);
    assert_eq!(r.scores[1].finance, 0);
}
