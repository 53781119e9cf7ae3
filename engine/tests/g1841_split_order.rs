//! Who is asked at the Ferdinandea split, and in which order (1841 §12.4; issue #22), on
//! Referee playouts (the conformance harness's games `lite-4p-s4102` and `version_1-4p-s4104`,
//! seed 101 run) whose split answers are written in the order 18xx.games asks them, cut after
//! the split's last exchange (`tests/fixtures/1841/oracle-played/*-split-to*.json`). The
//! oracle loads both to their end (the Version 1 one with the patch of the listed divergence
//! `split-exchange-stale-frozen-holder`, without which 18xx.games raises on its last choice).

use referee_engine::Seat;
use referee_engine::g1841::import18xx::{ReplaySettings, Replayed, replay};
use referee_engine::g1841::state::Round;
use referee_engine::g1841::{Action, ShareOwner, State};

mod common;
use common::fixture;

fn import(name: &str) -> Replayed {
    replay(
        &fixture(&format!("oracle-played/{name}.json")),
        &ReplaySettings::default(),
    )
}

/// The excerpt imported to its last action; its final state and the seat of each player id.
fn to_the_end(name: &str) -> (State, impl Fn(&str) -> Seat) {
    let r = import(name);
    assert_eq!(r.failure, None, "{name} imports to its end");
    let export = r.export.expect("an export");
    let state = r.state.expect("a state");
    let seat = move |id: &str| export.seat_of(id).expect("a player id of the export");
    (state, seat)
}

fn percent(state: &State, sym: &str, holder: &ShareOwner) -> u32 {
    state.corporation(sym).expect(sym).percent_of(holder)
}

fn corp(sym: &str) -> ShareOwner {
    ShareOwner::Corporation(sym.into())
}

/// 1841 §12.4 (odd shares exchanged in the holders' order, "same order as mergers"): the
/// order is taken after the presidencies are given. Lite, 4 players, seed 4102: RSFS (player
/// 4's) buys the first 4-train (id 597); IRSFF's treasury gives SFTC's president's certificate
/// to SFL, and SFTN (player 4's), IRSFF's president, takes SFL's presidency (id 598), so SFTC
/// is player 4's through SFL and SFTN and exchanges its odd share right after SFTN's (id 599),
/// before ICSF (player 1's, id 600 → 601) and the pool (id 602), as 18xx.games'
/// `secession_exchange_singles` lists them. Before 2026-12-06 the order was taken before any
/// presidency, SFTC came last as frozen, and the import of SFTC's answer failed.
#[test]
fn s12_4_odd_shares_in_the_order_after_the_presidencies() {
    let (s, _) = to_the_end("lite-4p-s4102-split-to602");
    let sfl = s.corporation("SFL").expect("SFL");
    assert_eq!(sfl.president(), Some(&corp("SFTN")));
    assert_eq!(
        s.corporation("SFTC").unwrap().president(),
        Some(&corp("SFL"))
    );
    // SFTN: SFL's president's certificate and its odd share ("b").
    assert_eq!(percent(&s, "SFL", &corp("SFTN")), 30);
    // SFTC "a", ICSF "b", the pool "a" (player 4, IRSFF's president's controller, decides).
    assert_eq!(percent(&s, "SB", &corp("SFTC")), 10);
    assert_eq!(percent(&s, "SFL", &corp("SFTC")), 0);
    assert_eq!(percent(&s, "SFL", &corp("ICSF")), 10);
    assert_eq!(percent(&s, "SB", &corp("ICSF")), 0);
    // SB's president's certificate went to the pool with two shares for the pool's pair;
    // the pool's odd share took a third.
    assert_eq!(percent(&s, "SB", &ShareOwner::Pool), 40);
    assert_eq!(percent(&s, "SFL", &ShareOwner::Pool), 10);
    assert_eq!(s.corporation("IRSFF").map(|c| c.closed), Some(true));
}

/// 1841 §12.4 ("otherwise he chooses one"): a frozen IRSFF president's choice is made by the
/// split's decider, the controller of the corporation that bought the first 4-train (18xx.games
/// `secession_start`: `old.player ? old_owner : @secession_decider`). Version 1, 4 players,
/// seed 4104: at the phase change (id 566, RSFS of player 4 buys the 4-train) SFTN, frozen,
/// becomes IRSFF's president with 30% against player 4's 20%; player 4 chooses SFL for SFTN
/// (id 567), takes SFV's presidency for his own pair, player 3's pair gives one share of each,
/// SSFL (player 2's) takes SFV (id 568), the pool SFL (id 569, player 4), and the frozen SFLP
/// and SFTN take SFV while it has shares, then SFL. Before 2026-12-06 SFTN took SFV without a
/// question and the import failed at id 567.
#[test]
fn s12_4_a_frozen_irsff_presidents_choice_is_the_deciders() {
    let (s, seat) = to_the_end("version_1-4p-s4104-split-to569");
    let p4 = ShareOwner::Player(seat("4"));
    let p3 = ShareOwner::Player(seat("3"));
    assert_eq!(
        s.corporation("SFL").unwrap().president(),
        Some(&corp("SFTN"))
    );
    assert_eq!(s.corporation("SFV").unwrap().president(), Some(&p4));
    assert_eq!(percent(&s, "SFL", &corp("SFTN")), 60);
    assert_eq!(percent(&s, "SFV", &p4), 40);
    assert_eq!(percent(&s, "SFV", &p3), 20);
    assert_eq!(percent(&s, "SFL", &p3), 20);
    assert_eq!(percent(&s, "SFL", &ShareOwner::Pool), 20);
}

/// 1841 §12.4 ("if IRSFF had not yet operated in this OR, SB and SFL operate in its place"),
/// FAQ-Q24 (they operate in IRSFF's slot), §15.1 (Version 1: the successors' markers go to
/// column 10 when IRSFF is right of it). Version 1, heuristic, 3 players, seed 3126 (Referee
/// export cut after id 410): SFTG, first in the order, buys the first 4-train (id 388) before
/// IRSFF (L.266, row 1, column 13) has operated; SFV and SFL go to L.195 (row 1, column 10),
/// behind CTDA's marker already there, so CTDA is ahead of them in the market order. After
/// SFTG's turn (its merger, ids 394–399) SFV operates (its lay at id 400, its transformation
/// into ICSF, ids 405–409), then SFL (frozen), and only then CTDA (id 410), as 18xx.games'
/// `secession_finish` puts them in IRSFF's place in the round. This engine ran CTDA first
/// (oracle: "still in Track, expects SFV" at id 400).
#[test]
fn s12_4_successors_operate_in_irsffs_slot() {
    let text = fixture("referee-exports/version_1-heuristic-3p-s3126-to410.json");
    let at = |id: i64| {
        replay(
            &text,
            &ReplaySettings {
                stop_at_action_id: Some(id),
                ..ReplaySettings::default()
            },
        )
    };
    let r = at(399);
    assert_eq!(r.failure, None);
    let s = r.state.expect("a state");
    let place = |sym: &str| s.corporation(sym).and_then(|c| c.share_price).expect(sym);
    let (sfv, sfl, ctda) = (place("SFV"), place("SFL"), place("CTDA"));
    assert_eq!((sfv.row, sfv.col, sfl.row, sfl.col), (1, 10, 1, 10));
    assert_eq!((ctda.row, ctda.col), (1, 10));
    assert!(ctda.arrival < sfv.arrival && sfv.arrival < sfl.arrival);
    let order = referee_engine::g1841::market::operating_order(&s);
    let pos = |sym: &str| order.iter().position(|c| c == sym).expect(sym);
    assert!(pos("CTDA") < pos("SFV") && pos("SFV") < pos("SFL"));
    let Round::OperatingRound(or) = &s.round else {
        panic!("an operating round")
    };
    assert_eq!(or.current.as_deref(), Some("SFV"));
    let slot = or.split_slot.expect("IRSFF's slot");
    assert_eq!((slot.row, slot.col), (1, 13));

    let r = at(410);
    assert_eq!(r.failure, None);
    let by_id = |id: i64| {
        let k = r
            .action_ids
            .iter()
            .position(|x| *x == Some(id))
            .expect("applied");
        r.actions[k].clone()
    };
    assert_eq!(
        by_id(400).1,
        Action::LayTile {
            hex: "D16".into(),
            tile: "6".into(),
            rotation: 0
        }
    );
    let s = r.state.expect("a state");
    let Round::OperatingRound(or) = &s.round else {
        panic!("an operating round")
    };
    assert_eq!(or.current.as_deref(), Some("CTDA"));
    // SFV became ICSF (1841 §12.2), SFL had its frozen turn (§7.4: L.195 → L.158).
    assert_eq!(or.done, ["SFLi", "CGTF", "ICSF", "SFL"]);
    assert_eq!(s.corporation("SFL").and_then(|c| c.price()), Some(158));
}
