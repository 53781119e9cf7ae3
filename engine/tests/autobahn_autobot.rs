//! The solo opponent Autobot (autobahn.md §8): one test per rule, named after it, with exact
//! values on the default board.

use referee_engine::Game;
use referee_engine::autobahn::action::Event;
use referee_engine::autobahn::autobot;
use referee_engine::autobahn::board::Effect;
use referee_engine::autobahn::state::{Phase, Road, State, Truck, TruckAt};
use referee_engine::autobahn::{Autobahn, Options};

const BOT: u32 = 1;

/// A solo game at `level`, before anything is played (the route draft is pending).
fn solo(level: u32) -> State {
    let o = Options {
        autobot_level: level,
        ..Options::default()
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
