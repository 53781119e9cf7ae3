//! Issue #21, property: Referee's 1841 export (`export18xx`) re-imports (`import18xx`) to the
//! same game. Random full games in every mode the oracle harness plays (Version 2 at 3–8
//! players, `lite` 3–6, `version_1`, `version_1` + `sfli_run_variant`, `p2p_purchases`, and
//! Version 2 with every FAQ ruling on) are exported and replayed: each must re-import to its
//! end with the same actions (up to what the format does not record: Version 1 sealed bids in
//! player order, 1841 §4.2; a declined purchase offer, §15.3), the same final state and the
//! same result. The writer adds records for steps 18xx.games opens and this engine skips
//! (passes around a bankruptcy, a transformation offer, a token step) and leaves out passes of
//! steps 18xx.games never opened; the importer must take each back.
//!
//! By default a handful of games (a few seconds in a release build, about ten in debug); set
//! `G1841_ROUNDTRIP_GAMES=N` for N seeds of every mode and player count (from
//! `G1841_ROUNDTRIP_FIRST_SEED`, default 0).

mod common;

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use common::g1841::{random_game_seen, sealed_bids_by_seat};
use referee_engine::Seat;
use referee_engine::g1841::export18xx::{ExportSettings, Exported, export};
use referee_engine::g1841::import18xx::{ReplaySettings, Replayed, replay};
use referee_engine::g1841::{Action, Event, OddShareChoice, Options};

/// A random game to its end ([`common::g1841::random_game`]: mostly actions other than the
/// rare ones, a bankruptcy, a purchase offer, withholding, a train from another corporation);
/// with the indices of the declined purchase offers after which the buyer passed
/// automatically (nothing left to do, 1841 §15.3): the export writes his `pass`.
fn random_game(
    options: Options,
    players: u32,
    seed: u64,
) -> (Vec<(Seat, Action)>, BTreeSet<usize>) {
    let mut passed = BTreeSet::new();
    let history = random_game_seen(options, players, seed, |before, (_, pick), events| {
        if *pick == (Action::AnswerOffer { accept: false })
            && let Some((buyer, Action::OfferPurchase { .. })) = before.last()
            && events
                .iter()
                .any(|e| matches!(e, Event::Passed { seat, automatic: true } if seat == buyer))
        {
            passed.insert(before.len());
        }
    });
    (history, passed)
}

/// `actions` as an export records them: Version 1 sealed bids of one bidding in seat order
/// (1841 §4.2), a declined purchase offer (1841 §15.3) not at all, or as the buyer's `pass`
/// where he then passed automatically (the indices in `passed`).
fn as_recorded(actions: &[(Seat, Action)], passed: &BTreeSet<usize>) -> Vec<(Seat, Action)> {
    let mut out: Vec<(Seat, Action)> = Vec::new();
    for (k, (seat, a)) in actions.iter().enumerate() {
        if *a == (Action::AnswerOffer { accept: false }) {
            if let Some((buyer, Action::OfferPurchase { .. })) = out.last().cloned() {
                out.pop();
                if passed.contains(&k) {
                    out.push((buyer, Action::Pass));
                }
            }
            continue;
        }
        out.push((*seat, a.clone()));
    }
    sealed_bids_by_seat(&out)
}

/// Every mode with its player counts.
fn modes() -> Vec<(&'static str, Options, Vec<u32>)> {
    vec![
        ("v2", Options::default(), (3..=8).collect()),
        (
            "lite",
            Options {
                lite: true,
                ..Options::default()
            },
            (3..=6).collect(),
        ),
        (
            "v1",
            Options {
                version_1: true,
                ..Options::default()
            },
            (3..=8).collect(),
        ),
        (
            "v1-sfli",
            Options {
                version_1: true,
                sfli_run_variant: true,
                ..Options::default()
            },
            (3..=8).collect(),
        ),
        (
            "p2p",
            Options {
                p2p_purchases: true,
                ..Options::default()
            },
            (3..=8).collect(),
        ),
        (
            "v2-faq",
            Options::default().with_all_faq_rulings(),
            (3..=8).collect(),
        ),
    ]
}

/// The random game (`options`, `players`, `seed`) and its export, which does not stop.
fn exported(options: Options, players: u32, seed: u64) -> (Vec<(Seat, Action)>, Exported) {
    let (history, _) = random_game(options, players, seed);
    let written = export(&options, players, &history, &ExportSettings::default()).unwrap();
    assert_eq!(written.failure, None);
    (history, written)
}

/// The record of 18xx id `id` in the export `json` (`null` where there is none).
fn record(json: &serde_json::Value, id: i64) -> serde_json::Value {
    json["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .cloned()
        .unwrap_or_default()
}

/// The records with an 18xx id in `ids` that the replay `again` dropped: (id, type, reason).
fn dropped_in(again: &Replayed, ids: RangeInclusive<i64>) -> Vec<(Option<i64>, &str, &str)> {
    again
        .dropped
        .iter()
        .filter(|d| d.action_id.is_some_and(|id| ids.contains(&id)))
        .map(|d| (d.action_id, d.action_type.as_str(), d.reason))
        .collect()
}

/// The engine actions the replay `again` applied for records with an 18xx id in `ids`.
fn applied_in(again: &Replayed, ids: RangeInclusive<i64>) -> Vec<(Option<i64>, &(Seat, Action))> {
    again
        .action_ids
        .iter()
        .zip(&again.actions)
        .filter(|(id, _)| id.is_some_and(|id| ids.contains(&id)))
        .map(|(id, a)| (*id, a))
        .collect()
}

/// The first way the export of the random game (`options`, `players`, `seed`) fails to come
/// back as the same game, if any; and the game's length.
fn round_trip(options: Options, players: u32, seed: u64) -> (Option<String>, usize) {
    let (history, passed) = random_game(options, players, seed);
    let written = match export(&options, players, &history, &ExportSettings::default()) {
        Ok(w) => w,
        Err(e) => return (Some(format!("export refused: {e:?}")), history.len()),
    };
    if let Some(f) = &written.failure {
        return (Some(format!("export stopped: {f:?}")), history.len());
    }
    let again = replay(
        &written.json.to_string(),
        &ReplaySettings {
            check: true,
            ..Default::default()
        },
    );
    let problem = if let Some(f) = &again.failure {
        Some(format!(
            "import stopped at 18xx id {:?} (record {:?}, {}): {}",
            f.action_id,
            f.action_index,
            f.action_type.as_deref().unwrap_or("-"),
            f.reason
        ))
    } else {
        let (ours, theirs) = (
            as_recorded(&again.actions, &BTreeSet::new()),
            as_recorded(&history, &passed),
        );
        if let Some(k) = (0..ours.len().max(theirs.len())).find(|&k| ours.get(k) != theirs.get(k)) {
            Some(format!(
                "action {k} (export id {:?}) reads back as {:?}, was {:?}",
                written.action_ids.get(k),
                ours.get(k),
                theirs.get(k)
            ))
        } else if again.state.as_ref() != Some(&written.state) {
            Some("another final state".into())
        } else if again.check != Some(None) {
            Some(format!("another result: {:?}", again.check))
        } else {
            None
        }
    };
    (problem, history.len())
}

/// Issue #21: every random game's export re-imports to the same actions, state and result.
/// One game per mode by default, those that found defects among them; each time a `pass` the
/// writer adds after an action for a step 18xx.games keeps open was read as a pass of what
/// this engine asks next (`TurnEndPasses` in the importer):
/// * Version 2, 4 players, seed 28: SLDV, the last to operate in OR 6.1 after CGTF's
///   bankruptcy, operates first in OR 6.2 too; the pass of 18xx's transformation offer at the
///   end of its first turn (id 892) passed its second turn's track step, and its tile lay
///   (id 893) was refused ("SLDV is in its routes step");
/// * Version 1, 8 players, seed 42: SFTC's transformation-offer pass (id 892) passed the
///   track step of ATFA, the next corporation of the same player;
/// * `version_1` + `sfli_run_variant`, 5 players, seed 100 (and `p2p_purchases`, 7 players,
///   seed 102): the pass ending 18xx's optional removal of SFLi's tokens after the Tuscan
///   merge (id 368, 1841 §12.3) passed SFLi's track step, SFLi operating next;
/// * Version 2, 7 players, seed 200, and `p2p_purchases`, 8 players, seed 200: the same, with
///   records the writer puts before that pass (the split's token count for a successor
///   without a president, id 526; a merger's token removal on a two-city tile, id 386).
#[test]
fn s18_random_games_of_every_mode_reimport_as_the_same_game() {
    let per_mode: Option<u64> = std::env::var("G1841_ROUNDTRIP_GAMES")
        .ok()
        .and_then(|v| v.parse().ok());
    let first: u64 = std::env::var("G1841_ROUNDTRIP_FIRST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut games: Vec<(&str, Options, u32, u64)> = Vec::new();
    for (k, (name, options, counts)) in modes().into_iter().enumerate() {
        match per_mode {
            Some(n) => {
                for &players in &counts {
                    for seed in first..first + n {
                        games.push((name, options, players, seed));
                    }
                }
            }
            // One game per mode, player counts and seeds spread over the modes.
            // One game per mode: the ones that found a defect, else a player count and seed
            // spread over the modes.
            None => {
                let (players, seed) = match name {
                    "v2" => (4, 28),
                    "v1" => (8, 42),
                    "v1-sfli" => (5, 100),
                    "p2p" => (8, 200),
                    _ => (counts[(k * 2 + 1) % counts.len()], 40 + k as u64),
                };
                games.push((name, options, players, seed));
            }
        }
    }
    if per_mode.is_none() {
        games.push(("v2", Options::default(), 7, 200));
    }
    let mut failures = Vec::new();
    let mut actions = 0;
    for (name, options, players, seed) in &games {
        let (problem, len) = round_trip(*options, *players, *seed);
        actions += len;
        if let Some(p) = problem {
            failures.push(format!("{name} {players}p seed {seed}: {p}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} games:\n{}",
        failures.len(),
        games.len(),
        failures.join("\n")
    );
    assert!(actions > 400 * games.len(), "{actions} actions");
}

/// Issue #21, `p2p_purchases`, 8 players, seed 301: SLDV transforms into CTDA (id 996); the
/// writer adds 18xx's count of CTDA's tokens, the compulsory second token only (`choose` 1,
/// id 997, 1841 §12.2), and the `pass` of 18xx's track step of CTS (id 998), whose turn this
/// engine begins in its share step (no lay, no token, no train: 1841 §9.1). The count, which
/// this engine settled itself, was read as a record for a step after CTS's optional ones:
/// CTS's share and transformation steps were passed for its controller before the count was
/// dropped, so that CTS's sale (id 999) found AFI operating ("Seat 1 does not control AFI").
#[test]
fn s18_a_settled_token_count_passes_no_step_of_the_next_corporation() {
    let options = Options {
        p2p_purchases: true,
        ..Options::default()
    };
    let (history, written) = exported(options, 8, 301);
    let at = |id: i64| record(&written.json, id);
    assert_eq!(
        at(996),
        serde_json::json!({"corporation": "CTDA", "entity": "SLDV", "entity_type": "corporation",
            "id": 996, "type": "merge", "user": 1})
    );
    assert_eq!(
        at(997),
        serde_json::json!({"choice": 1, "entity": "CTDA", "entity_type": "corporation",
            "id": 997, "type": "choose", "user": 1})
    );
    assert_eq!(
        at(998),
        serde_json::json!({"entity": "CTS", "entity_type": "corporation", "id": 998,
            "type": "pass", "user": 2})
    );
    assert_eq!(
        at(999),
        serde_json::json!({"entity": "CTS", "entity_type": "corporation", "id": 999,
            "percent": 40, "shares": ["CTS_1", "CTS_2", "CTS_3", "CTS_4"],
            "type": "sell_shares", "user": 2})
    );
    // Our actions 1101 (the transformation) and 1102 (the sale) carry ids 996 and 999.
    assert_eq!(written.action_ids[1101..1103], [996, 999]);
    assert_eq!(
        history[1101..1103],
        [
            (
                0,
                Action::Transform {
                    corporation: "CTDA".into()
                }
            ),
            (
                1,
                Action::SellShares {
                    corporation: "CTS".into(),
                    percent: 40
                }
            ),
        ]
    );

    let again = replay(&written.json.to_string(), &ReplaySettings::default());
    assert_eq!(again.failure, None);
    assert_eq!(
        dropped_in(&again, 996..=999),
        [
            (
                Some(997),
                "choose",
                "token count this engine settled itself"
            ),
            (Some(998), "pass", "track step with no legal lay"),
        ]
    );
    // No pass inserted for CTS: the records 996–999 are the transformation and the sale.
    assert_eq!(
        applied_in(&again, 996..=999),
        [(Some(996), &history[1101]), (Some(999), &history[1102])]
    );
    assert_eq!(round_trip(options, 8, 301).0, None);
}

/// Issue #21, Version 2 with every FAQ ruling, 6 players, seed 503 (also `p2p_purchases` 6
/// players seed 503 and 8 players seed 500): SFLP, operating after SSFL of the same player,
/// has no tile to lay and no legal token placement here, where 18xx.games opens both its
/// track step and its token step (1841 §9.1, §9.2): the writer adds two passes (ids 224,
/// 225) before its routes (id 226). The importer dropped the track step's pass, but took the
/// token step's for one to read, as the record applied before it was SSFL's (id 223), not
/// SFLP's: "`pass` is not possible for SFLP in its routes step".
#[test]
fn s18_a_token_step_pass_after_a_dropped_track_step_pass_is_dropped() {
    let options = Options::default().with_all_faq_rulings();
    let (history, written) = exported(options, 6, 503);
    let at = |id: i64| record(&written.json, id);
    let pass = |entity: &str, id: i64| {
        serde_json::json!({"entity": entity, "entity_type": "corporation", "id": id,
            "type": "pass", "user": 5})
    };
    assert_eq!(at(223), pass("SSFL", 223));
    assert_eq!(at(224), pass("SFLP", 224));
    assert_eq!(at(225), pass("SFLP", 225));
    assert_eq!(
        (&at(226)["type"], &at(226)["entity"]),
        (&serde_json::json!("run_routes"), &serde_json::json!("SFLP"))
    );
    // Our actions 221 (SSFL's share-step pass) and 222 (SFLP's routes).
    assert_eq!(written.action_ids[221..223], [223, 226]);
    assert_eq!(history[221], (4, Action::Pass));
    assert!(matches!(&history[222], (4, Action::RunRoutes { .. })));

    let again = replay(&written.json.to_string(), &ReplaySettings::default());
    assert_eq!(again.failure, None);
    assert_eq!(
        dropped_in(&again, 223..=226),
        [
            (Some(224), "pass", "track step with no legal lay"),
            (Some(225), "pass", "token step with no legal placement"),
        ]
    );
    assert_eq!(
        applied_in(&again, 223..=226),
        [(Some(223), &history[221]), (Some(226), &history[222])]
    );
    assert_eq!(round_trip(options, 6, 503).0, None);
}

/// Issue #21, `p2p_purchases`, 6 players, seed 604: SFLP lays tile 619 on P12 (id 524); with
/// no legal token placement this engine goes on to its token purchase from another
/// corporation (1841 §9.5), where 18xx.games opens its token step first: the writer adds
/// that step's `pass` (id 525) before SFLP buys SSFL's token in Livorno (Q11, id 526). The
/// importer read the pass as SFLP's pass of the purchase step, and the purchase was refused
/// ("SFLP is in its trains step"). It now drops the pass by the writer's own test
/// (`token_step_opened_in_18xx`).
#[test]
fn s9_5_a_token_step_pass_before_a_token_purchase_is_dropped() {
    let options = Options {
        p2p_purchases: true,
        ..Options::default()
    };
    let (history, written) = exported(options, 6, 604);
    let at = |id: i64| record(&written.json, id);
    assert_eq!(
        at(524),
        serde_json::json!({"auto_actions": [{"entity": "SFLP", "entity_type": "corporation",
            "hexes": [], "type": "destination_connection"}], "entity": "SFLP",
            "entity_type": "corporation", "hex": "P12", "id": 524, "rotation": 5,
            "tile": "619-0", "type": "lay_tile", "user": 5})
    );
    assert_eq!(
        at(525),
        serde_json::json!({"entity": "SFLP", "entity_type": "corporation", "id": 525,
            "type": "pass", "user": 5})
    );
    assert_eq!(
        at(526),
        serde_json::json!({"city": "Q11-0-0", "entity": "SFLP", "entity_type": "corporation",
            "id": 526, "price": 1, "referee_seller": "SSFL", "slot": 0, "type": "buy_token",
            "user": 5})
    );
    assert_eq!(
        at(527),
        serde_json::json!({"entity": "SFLP", "entity_type": "corporation", "id": 527,
            "price": 200, "train": "3-5", "type": "buy_train", "user": 5, "variant": "3"})
    );
    // Our actions 549 (the lay) and 550 (the token purchase) carry ids 524 and 526.
    assert_eq!(written.action_ids[549..551], [524, 526]);
    assert_eq!(
        history[549..551],
        [
            (
                4,
                Action::LayTile {
                    hex: "P12".into(),
                    tile: "619".into(),
                    rotation: 5
                }
            ),
            (
                4,
                Action::BuyToken {
                    hex: "Q11".into(),
                    city: 0,
                    seller: "SSFL".into(),
                    price: 1
                }
            ),
        ]
    );

    let again = replay(&written.json.to_string(), &ReplaySettings::default());
    assert_eq!(again.failure, None);
    assert_eq!(
        dropped_in(&again, 524..=527),
        [(Some(525), "pass", "token step with no legal placement")]
    );
    assert_eq!(
        applied_in(&again, 524..=526),
        [(Some(524), &history[549]), (Some(526), &history[550])]
    );
    assert_eq!(round_trip(options, 6, 604).0, None);
}

/// An export `referee playout … --export-18xx` wrote for `scripts/oracle_harness.py`, cut
/// after the point checked (`tests/fixtures/1841/referee-exports/`), and its replay.
fn referee_export(name: &str) -> (serde_json::Value, Replayed) {
    let text = common::fixture(&format!("referee-exports/{name}"));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let again = replay(
        &text,
        &ReplaySettings {
            check: true,
            ..ReplaySettings::default()
        },
    );
    (json, again)
}

/// Issue #22 (1,000 Version 2 games of main a4e7a4f: 7 exports the oracle accepts and our
/// importer refused): the last corporation of an operating round, SB (a successor of the
/// Ferdinandea split, 1841 §12.4, without cash), has nothing legal in any step, and this
/// engine plays its whole turn by itself with the action before; 18xx.games opens its track step (1841
/// §9.1) and waits for a `pass`, which the writer adds (`turns_played_through`). The importer
/// looked for that turn in the state, where the next round has begun:
/// * heuristic, 5 players, seed 5171 (cut at id 556): RSFS's last pass (id 549) ends SB's
///   turn and the operating round; SB's pass (id 550, player 2) was read in the stock round,
///   "It is seat 0's turn, not seat 1's" (also seeds 6103, 7117 and, after a bankruptcy,
///   random 7 players seed 7146, 8 players seed 8156);
/// * random, 7 players, seed 7138 (cut at id 1481): ATFA's last pass (id 1477) ends SB's turn,
///   OR 8.1, and ILTF's turn of OR 8.2 (nothing recorded), and FTP, of the same player as
///   SB, begins in its track step: SB's pass (id 1478) passed FTP's track step, and FTP's lay
///   (id 1479) was refused ("FTP is in its routes step").
///
/// The importer now follows the writer's own list of such turns after each action applied.
#[test]
fn s9_1_the_track_pass_of_a_turn_played_through_at_a_rounds_end_is_dropped() {
    let (json, again) = referee_export("v2-heuristic-5p-s5171-to556.json");
    assert_eq!(
        record(&json, 550),
        serde_json::json!({"entity": "SB", "entity_type": "corporation", "id": 550,
            "type": "pass", "user": 2})
    );
    assert_eq!(again.failure, None);
    assert_eq!(again.actions.len(), 550);
    assert_eq!(
        dropped_in(&again, 545..=556),
        [(
            Some(550),
            "pass",
            "operating turn this engine ended itself (nothing legal)"
        )]
    );
    assert_eq!(
        applied_in(&again, 549..=551),
        [
            (Some(549), &(2, Action::Pass)),
            (
                Some(551),
                &(
                    0,
                    Action::BuyShares {
                        corporation: "SFTG".into(),
                        from_pool: false,
                        percent: 10
                    }
                )
            ),
        ]
    );

    let (json, again) = referee_export("v2-7p-s7138-to1481.json");
    assert_eq!(
        record(&json, 1478),
        serde_json::json!({"entity": "SB", "entity_type": "corporation", "id": 1478,
            "type": "pass", "user": 5})
    );
    assert_eq!(again.failure, None);
    assert_eq!(again.actions.len(), 1472);
    assert_eq!(
        dropped_in(&again, 1476..=1481),
        [(
            Some(1478),
            "pass",
            "operating turn this engine ended itself (nothing legal)"
        )]
    );
    assert_eq!(
        applied_in(&again, 1477..=1479),
        [
            (Some(1477), &(4, Action::Pass)),
            (
                Some(1479),
                &(
                    4,
                    Action::LayTile {
                        hex: "I11".into(),
                        tile: "29".into(),
                        rotation: 0
                    }
                )
            ),
        ]
    );
}

/// Issue #22, random, 8 players, seed 8170 (cut at id 930): AFI and CGTF merge into RSFS
/// (ids 920, 921, 1841 §12.1); 18xx.games asks two holders for their odd shares (ids 922,
/// 923) before player 3 claims the presidency (id 924), this engine after it: the importer
/// plays those answers with the next record, SFLi's lay at S15 (id 925). SFLi, a major with two
/// bases in phase 4, may lay two tiles (1841 §9.1): with no second lay legal this engine
/// goes on to its token step, while 18xx.games' track step waits for the `pass` the writer
/// adds (id 926). The importer's follower of the track step first saw SFLi's turn after the
/// lay and counted none, so the pass passed SFLi's token step and its token in Lucca (id
/// 927) was refused ("SFLi is in its routes step"). A turn first seen after its lays now
/// counts the state's.
#[test]
fn s9_1_a_lay_played_with_the_records_before_it_leaves_the_track_step_open() {
    let (json, again) = referee_export("v2-8p-s8170-to930.json");
    assert_eq!(
        record(&json, 926),
        serde_json::json!({"auto_actions": [{"entity": "SFLi", "entity_type": "corporation",
            "hexes": ["U15", "V12", "V14"], "type": "destination_connection"}],
            "entity": "SFLi", "entity_type": "corporation", "id": 926, "type": "pass",
            "user": 2})
    );
    assert_eq!(again.failure, None);
    assert_eq!(again.actions.len(), 891);
    assert_eq!(again.choices_inserted, 2);
    assert_eq!(
        dropped_in(&again, 920..=930),
        [
            (
                Some(922),
                "choose",
                "odd merger share answered before the presidency (played at the odd shares)"
            ),
            (
                Some(923),
                "choose",
                "odd merger share answered before the presidency (played at the odd shares)"
            ),
            (Some(926), "pass", "further track lays with no legal lay"),
        ]
    );
    assert_eq!(
        applied_in(&again, 925..=927),
        [
            (
                Some(925),
                &(
                    3,
                    Action::ExchangeOddShare {
                        choice: OddShareChoice::Cash
                    }
                )
            ),
            (
                Some(925),
                &(
                    0,
                    Action::ExchangeOddShare {
                        choice: OddShareChoice::Cash
                    }
                )
            ),
            (
                Some(925),
                &(
                    1,
                    Action::LayTile {
                        hex: "S15".into(),
                        tile: "58".into(),
                        rotation: 0
                    }
                )
            ),
            (
                Some(927),
                &(
                    1,
                    Action::PlaceToken {
                        hex: "P12".into(),
                        city: 0
                    }
                )
            ),
        ]
    );
}

/// Issue #22, heuristic, 7 players, seed 7177 (the whole game): SLDV transforms into ATFA
/// (id 2101, 1841 §12.2); ATFA sells a share (id 2105) and buys its compulsory second token,
/// which ends the transformation (no further token affordable), SLDV's turn, the last
/// operating round and, the bank broken, the game (1841 §13). 18xx.games still asks ATFA's
/// count, the single choice 1, which the writer adds (id 2106); the importer drops such a
/// count as one this engine settled, but only when refused for the step or the turn, and
/// this one was refused "The game is over". A count of the major whose transformation the
/// last action ended so is dropped after the game's end too.
#[test]
fn s12_2_the_count_of_a_transformation_that_ended_the_game_is_dropped() {
    let (json, again) = referee_export("v2-heuristic-7p-s7177.json");
    assert_eq!(
        record(&json, 2106),
        serde_json::json!({"choice": 1, "entity": "ATFA", "entity_type": "corporation",
            "id": 2106, "type": "choose", "user": 7})
    );
    assert_eq!(again.failure, None);
    assert!(again.finished);
    assert_eq!(
        again.check,
        Some(None),
        "the recorded result and game-end reason"
    );
    assert_eq!(again.actions.len(), 2076);
    assert_eq!(
        dropped_in(&again, 2100..=2106),
        [(
            Some(2106),
            "choose",
            "token count this engine settled itself, the game's end"
        )]
    );
    assert_eq!(
        applied_in(&again, 2105..=2106),
        [(
            Some(2105),
            &(
                6,
                Action::EmergencySell {
                    seller: Some("ATFA".into()),
                    corporation: "ATFA".into(),
                    percent: 10
                }
            )
        )]
    );
    let outcome = again.outcome.as_ref().unwrap();
    assert_eq!(outcome.end_reason, "bank");
    assert_eq!(outcome.scores, [0, 0, -109, 2439, 516, -1000, 485]);
}

/// Issue #22 (1,000 `lite` games of main 06c6b25: exports our importer refused). 18xx's track
/// step stays open through a decision of a step it asks first: lite, 3 players, random, seed
/// 3163 (cut at id 430). ATFA's 4-train (id 409) runs the split; its end begins SB's turn,
/// and 18xx asks SB's "another round of purchases?" (`choose n`, id 422, a record only 18xx
/// needs) before SB's track step, whose `pass` (id 423) this engine, with no legal lay,
/// skipped. The `choose` closed the importer's follow of the track step, the pass was read as
/// SB's token purchase's, and SB's turn ended before its share purchase (id 426: "Seat 0 does
/// not control SFL, which is operating").
#[test]
fn s9_1_a_decision_before_the_track_step_leaves_its_pass_to_drop() {
    let (json, again) = referee_export("lite-3p-s3163-to430.json");
    assert_eq!(
        record(&json, 423),
        serde_json::json!({"entity": "SB", "entity_type": "corporation", "id": 423,
            "type": "pass", "user": 1})
    );
    assert_eq!(again.failure, None);
    assert_eq!(again.actions.len(), 423);
    assert_eq!(
        dropped_in(&again, 421..=430),
        [
            (
                Some(421),
                "choose",
                "another round of split purchases this engine closed itself"
            ),
            (
                Some(422),
                "choose",
                "another round of split purchases this engine closed itself"
            ),
            (Some(423), "pass", "track step with no legal lay"),
        ]
    );
    assert_eq!(
        applied_in(&again, 424..=426),
        [
            (Some(424), &(0, Action::Pass)),
            (Some(425), &(0, Action::Pass)),
            (
                Some(426),
                &(
                    0,
                    Action::BuyShares {
                        corporation: "CGTF".into(),
                        from_pool: true,
                        percent: 10
                    }
                )
            ),
        ]
    );
}

/// Issue #22: a presidentless split successor's token count that 18xx asks of IRSFF's
/// president after the train purchase that ended the operating round is dropped in the stock
/// round too. Lite, 3 players, random, seed 3101 (cut at id 176): ICSF's 4-train (id 169)
/// runs the split, the last of the round; player 1's `choose 0` for SB (id 173) met the stock
/// round ("It is seat 2's turn, not seat 0's"); player 3's pass (174) comes next.
#[test]
fn s12_4_a_split_token_count_after_the_rounds_end_is_dropped() {
    let (json, again) = referee_export("lite-3p-s3101-to176.json");
    assert_eq!(
        record(&json, 173),
        serde_json::json!({"choice": 0, "entity": 1, "entity_type": "player", "id": 173,
            "type": "choose", "user": 1})
    );
    assert_eq!(again.failure, None);
    assert_eq!(again.actions.len(), 173);
    assert_eq!(
        dropped_in(&again, 170..=176),
        [(
            Some(173),
            "choose",
            "token count of a corporation without a president (none, as this engine decides)"
        )]
    );
    assert_eq!(
        applied_in(&again, 174..=174),
        [(Some(174), &(2, Action::Pass))]
    );
}

/// Issue #22 (1,000 version_1 games of main e41c1c2): random, 7 players, seed 7116 (cut at id
/// 899). Players 1 and 7 have nothing legal left in the stock round; after player 4's pass
/// (id 894) this engine ends the round and plays the first operating turn, CTS's (no train, no
/// cash, no legal lay, 1841 §9.1), by itself, SFTC's track step opening. 18xx.games has both
/// players pass (ids 895, 896, the round's end there) and then CTS (897). The importer took
/// the operating round for begun with a turn recorded (CTS done, not frozen) and read player
/// 1's pass in SFTC's track step: "Seat 0 does not control SFTC, which is operating". A turn
/// played through whose pass is still to be read now counts as none recorded.
#[test]
fn s5_1_the_stock_rounds_last_passes_after_a_turn_played_through_are_dropped() {
    let (json, again) = referee_export("version_1-7p-s7116-to899.json");
    assert_eq!(
        record(&json, 895),
        serde_json::json!({"entity": 1, "entity_type": "player", "id": 895, "type": "pass",
            "user": 1})
    );
    assert_eq!(again.failure, None);
    assert_eq!(
        dropped_in(&again, 894..=899),
        [
            (
                Some(895),
                "pass",
                "stock-round turn this engine passed itself (nothing legal), the round's end"
            ),
            (
                Some(896),
                "pass",
                "stock-round turn this engine passed itself (nothing legal), the round's end"
            ),
            (
                Some(897),
                "pass",
                "operating turn this engine ended itself (nothing legal)"
            ),
        ]
    );
    assert_eq!(
        applied_in(&again, 894..=898),
        [
            (Some(894), &(3, Action::Pass)),
            (
                Some(898),
                &(
                    4,
                    Action::LayTile {
                        hex: "L4".into(),
                        tile: "18".into(),
                        rotation: 1
                    }
                )
            ),
        ]
    );
}

/// 1841 §12.4 (rounds of optional purchases after the exchanges; another round is offered only
/// while someone can buy), §7.4 (a frozen corporation's turn moves it left twice). Version 1,
/// heuristic, 7 players, seed 7144 (Referee export cut after id 292): RATF, the last
/// corporation of OR 5.1, buys the first 4-train (id 286); after the last exchange (player 2's
/// "b", id 289) nobody can buy SFV or SFL at the split's price of L.177 (player 7 has L.168),
/// and the same action ends OR 5.1 and plays the frozen turns of SFLi and SFV in OR 5.2, SFV
/// moving to L.144. The writer judged the "another round?" question there and wrote a decline
/// of SFV's purchases by player 7 that 18xx.games never asks (oracle: "still in Track, expects
/// SFL" at id 290); it now judges at the successors' prices of the split.
#[test]
fn s12_4_the_splits_last_question_is_judged_at_its_prices() {
    let (json, again) = referee_export("version_1-heuristic-7p-s7144-to292.json");
    assert_eq!(again.failure, None);
    assert_eq!(
        record(&json, 290),
        serde_json::json!({"entity": "SFL", "entity_type": "corporation", "id": 290,
            "type": "pass", "user": 7})
    );
    let at_289 = replay(
        &common::fixture("referee-exports/version_1-heuristic-7p-s7144-to292.json"),
        &ReplaySettings {
            stop_at_action_id: Some(289),
            ..ReplaySettings::default()
        },
    );
    let s = at_289.state.as_ref().expect("a state");
    assert_eq!(s.corporation("SFV").and_then(|c| c.price()), Some(144));
    let seven = at_289.export.as_ref().unwrap().seat_of("7").unwrap();
    assert_eq!(s.players[seven as usize].cash, 168);
    let options = again.export.as_ref().unwrap().options().unwrap();
    let k = again
        .action_ids
        .iter()
        .position(|x| *x == Some(290))
        .expect("SFL's first record");
    let written = export(&options, 7, &again.actions[..k], &ExportSettings::default()).unwrap();
    assert_eq!(written.failure, None);
    let actions = written.json["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 289);
    assert_eq!(
        record(&written.json, 289),
        serde_json::json!({"choice": "b", "entity": 2, "entity_type": "player", "id": 289,
            "type": "choose", "user": 2})
    );
}
