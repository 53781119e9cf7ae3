//! Merger tokens checked against 18xx.games (issue #22): the listed divergence
//! `merger-two-city-tile-duplicate-counted-twice` (tests/oracle/divergences.json), and the
//! token slots a merger's `remove_token` names.

use referee_engine::g1841::Action;
use referee_engine::g1841::state::{MapToken, Round};
use referee_engine::g1841::{G1841, Options};
use referee_engine::{Game, Seat};

mod common;
use common::g1841::{oracle_accepts, record, reexported, state_at};
use referee_engine::g1841::export18xx::Exported;
use referee_engine::g1841::token_slots::{reserved_slots, waiting_homes};

/// Listed divergence `merger-two-city-tile-duplicate-counted-twice`: 1841 §12.1 and FAQ-C19 —
/// a merger loses one token for each hex where two predecessor markers become one, the two
/// cities of one tile included. Version 2, 3 players, heuristic seed 3091 (a game of
/// `scripts/oracle_harness.py --policies heuristic`): SFTN (5 tokens: Torino H4 city 1,
/// Alessandria J6, 3 on the charter) and SFTG (2: H4 city 0, J6) merge into CTS (18xx ids
/// 329–331). J6 is a same-city duplicate and H4 the two cities of Torino's yellow tile:
/// CTS owns 7 − 2 = 5 tokens, H4 and J6 on the map and 3 on the charter. 18xx.games counts
/// the H4 removal twice and gives it 4. Which H4 token goes is the new president's choice
/// (stage `TwoCityTile`, 18xx id 331). Until the heuristic's presidents planned for their
/// trains (2026-12-07) this was seed 3001's merger of the same two into CTDA (18xx ids
/// 349–350; its next merger then allowed one removal fewer in 18xx.games: id 442).
#[test]
fn listed_divergence_two_city_tile_duplicate_costs_one_token() {
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;
    let (players, seed) = (3, 3091);
    let options = Options::default();
    let mut state = G1841::setup(&options, players, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut before = None;
    for _ in 0..20_000 {
        if state.corporation("SFTN").is_some_and(|c| c.closed) {
            break;
        }
        assert!(
            G1841::outcome(&state).is_none(),
            "the game ends before the merger"
        );
        let seat: Seat = G1841::to_act(&state)[0];
        let legal = G1841::legal_actions(&state, seat);
        let pick = referee_engine::g1841::heuristic::choose(&state, seat, legal, &mut rng);
        before = Some(state.clone());
        G1841::apply(&mut state, seat, &pick).unwrap();
    }
    let before = before.expect("actions applied");
    let owned = |sym: &str| {
        let c = before.corporation(sym).unwrap();
        (c.tokens_total, c.tokens.clone())
    };
    let token = |hex: &str, city: u32| MapToken {
        hex: hex.into(),
        city,
    };
    assert_eq!(owned("SFTN"), (5, vec![token("H4", 1), token("J6", 0)]));
    assert_eq!(owned("SFTG"), (2, vec![token("H4", 0), token("J6", 0)]));
    // The exchange is over (no odd share): the merger waits for the new president to choose
    // which of the two H4 tokens goes (1841 §12.1); nothing else is offered, not even a pass.
    // Seat 0 held 20% of SFTN and 60% of SFTG: 40% of CTS and its presidency (§12.1);
    // seat 2 10%.
    let cts = state.corporation("CTS").unwrap();
    assert_eq!(
        cts.president(),
        Some(&referee_engine::g1841::ShareOwner::Player(0))
    );
    assert_eq!(
        (
            cts.percent_of(&referee_engine::g1841::ShareOwner::Player(0)),
            cts.percent_of(&referee_engine::g1841::ShareOwner::Player(2))
        ),
        (40, 10)
    );
    assert!(state.corporation("SFTG").is_some_and(|c| c.closed));
    let cts = state.corporation("CTS").unwrap();
    assert_eq!(cts.tokens_total, 5);
    assert_eq!(
        cts.tokens,
        vec![token("H4", 1), token("J6", 0), token("H4", 0)]
    );
    assert_eq!(G1841::to_act(&state), vec![0]);
    let remove = |hex: &str, city: u32| Action::RemoveToken {
        hex: hex.into(),
        city,
    };
    assert_eq!(
        G1841::legal_actions(&state, 0),
        vec![remove("H4", 1), remove("H4", 0)]
    );
    assert!(G1841::apply(&mut state.clone(), 0, &remove("J6", 0)).is_err());
    assert!(G1841::apply(&mut state.clone(), 1, &remove("H4", 0)).is_err());
    // Either choice: 5 tokens (7 − 2), one in H4 and one in J6, 3 on the charter; two on
    // the map leave nothing to remove above the count, so the merger is over.
    for (city, kept) in [(1, 0), (0, 1)] {
        let mut s = state.clone();
        G1841::apply(&mut s, 0, &remove("H4", city)).unwrap();
        let cts = s.corporation("CTS").unwrap();
        assert_eq!(cts.tokens_total, 5);
        let mut tokens = cts.tokens.clone();
        tokens.sort_by(|a, b| (&a.hex, a.city).cmp(&(&b.hex, b.city)));
        assert_eq!(tokens, vec![token("H4", kept), token("J6", 0)]);
        assert!(
            !matches!(&s.round, Round::OperatingRound(r) if r.event.is_some()),
            "the merger is over"
        );
    }
}

/// 18xx.games' `City#get_slot` gives a corporation its reserved slot only while the
/// reservation is there: a started corporation's went with its home token, so its later
/// tokens in its home city take the first open slot. Lite heuristic 3 players seed 3120,
/// Torino (H4, green 606, SFTG's reservation in slot 0 and SFTN's in slot 1): ICSF's merger
/// leaves H4 empty (18xx id 366), SFTN tokens it again (id 368) and takes slot 0; CTDA takes
/// SFTN's slot at their merger (ids 412–413), and IFAI's merger removes CTDA's token from
/// slot 0 (id 450; before: slot 1, SFTN's old reservation, where 18xx found no token).
#[test]
fn a_home_token_placed_again_takes_the_first_open_slot() {
    let (_, written) = reexported("lite-3p-heuristic-s3120-to450");
    let placed = record(&written, 368);
    assert_eq!(
        (
            &placed["type"],
            &placed["entity"],
            &placed["city"],
            &placed["slot"]
        ),
        (
            &"place_token".into(),
            &"SFTN".into(),
            &"606-0-0".into(),
            &0.into()
        )
    );
    let removals: Vec<_> = (448..=450)
        .map(|id| {
            let r = record(&written, id);
            assert_eq!(r["type"], "remove_token", "{id}");
            assert_eq!(r["entity"], "IFAI", "{id}");
            (
                r["city"].as_str().unwrap().to_string(),
                r["slot"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        removals,
        vec![
            ("M3-0-0".to_string(), 0),
            ("15-0-0".to_string(), 0),
            ("606-0-0".to_string(), 0)
        ]
    );
    oracle_accepts("s3120", &written.json, 450, true);
}

/// The `city` and `slot` of record `id` of `written`, with its type and entity.
fn token_record(written: &Exported, id: i64) -> Vec<String> {
    let r = record(written, id);
    ["type", "entity", "city", "slot"]
        .iter()
        .map(|k| r[*k].to_string().replace('"', ""))
        .collect()
}

/// 18xx.games moves a tile's reservations to the new tile before its tokens (`Hex#lay`,
/// hex.rb 120–154: each old city's reservations are appended to its new city's, then each
/// token is re-placed with `City#exchange_token`, which takes the first slot neither tokened
/// nor reserved). Version 1 SFMA's home is city 1 of Firenze's yellow tile (R14, 1841 §15.1);
/// on the green 622, one city, its reservation is slot 0, so the token of yellow city 0 goes
/// to slot 1. Version 1 heuristic 3 players seed 3145: SSFL's upgrade (18xx id 215) leaves
/// `[nil, SSFL]`; SFMA's home token takes slot 0 (id 245), the Tuscan holding AFI and then
/// SFLi take SFMA's slot, SSFL's duplicate goes (ids 294–300), and CTS's token fills slot 1
/// (id 464). RSFS (SFLi's merger with CFCC) removes its own token from slot 0 (id 597;
/// before: slot 1, CTS's — the writer asked the yellow tile's cities for the reservations,
/// found none in city 0 and followed SSFL in slot 0).
#[test]
fn an_upgrade_joining_firenzes_cities_keeps_sfmas_reserved_slot_first() {
    let text = common::fixture("exported/version_1-3p-heuristic-s3145-to597.json");
    let yellow = state_at(&text, 214);
    let waiting = waiting_homes(&yellow);
    assert!(waiting.contains("SFMA"));
    assert_eq!(reserved_slots(&yellow, &waiting, "R14", 0), vec![]);
    assert_eq!(
        reserved_slots(&yellow, &waiting, "R14", 1),
        vec![("SFMA".to_string(), true)]
    );
    let green = state_at(&text, 215);
    assert_eq!(
        reserved_slots(&green, &waiting_homes(&green), "R14", 0),
        vec![("SFMA".to_string(), true)]
    );

    let (_, written) = reexported("version_1-3p-heuristic-s3145-to597");
    let lay = record(&written, 215);
    assert_eq!(
        (&lay["type"], &lay["entity"], &lay["hex"], &lay["tile"]),
        (
            &"lay_tile".into(),
            &"SSFL".into(),
            &"R14".into(),
            &"622-1".into()
        )
    );
    assert_eq!(
        token_record(&written, 464),
        ["place_token", "CTS", "622-1-0", "1"]
    );
    assert_eq!(
        token_record(&written, 597),
        ["remove_token", "RSFS", "622-1-0", "0"]
    );
    oracle_accepts("s3145", &written.json, 597, true);
}

/// The same upgrade with SFMA closed unstarted afterwards (18xx deletes its reservation, the
/// concessions' closing): Version 1 random 8 players seed 8136. SSFL's token of yellow
/// Firenze city 0 goes to slot 1 of green 622 (18xx id 907: `[nil, SSFL]`, SFMA's
/// reservation slot 0), and stays there as SFLi's (the Tuscan merge) and ILTF's; the merger
/// of ILTF and CGTF into CTS (ids 1355–1356) removes ILTF's token from slot 1 (id 1362;
/// before: slot 0, empty, and the oracle crashed, "undefined method `city' for nil").
#[test]
fn a_token_behind_sfmas_reservation_stays_in_slot_1_after_sfma_closes() {
    let (_, written) = reexported("version_1-8p-random-s8136-to1362");
    let lay = record(&written, 907);
    assert_eq!(
        (&lay["type"], &lay["entity"], &lay["hex"], &lay["tile"]),
        (
            &"lay_tile".into(),
            &"SSFL".into(),
            &"R14".into(),
            &"622-0".into()
        )
    );
    assert_eq!(
        token_record(&written, 1362),
        ["remove_token", "CTS", "622-0-0", "1"]
    );
    oracle_accepts("s8136", &written.json, 1362, true);
}
