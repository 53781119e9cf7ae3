//! Tests of the importer as a whole: the undo/redo filter, purchases from players (1841
//! §15.3), seats and the concession round's actions.

use super::*;
use crate::g1841::action::Action;
use crate::g1841::state::{PurchaseItem, Round, ShareOwner};
use serde_json::json;

fn ids(v: &[Value]) -> Vec<i64> {
    v.iter().filter_map(|a| a["id"].as_i64()).collect()
}

#[test]
fn s18_undo_without_action_id_removes_last_non_message_action() {
    let raw = vec![
        json!({"type":"bid","id":1}),
        json!({"type":"pass","id":2}),
        json!({"type":"message","id":3}),
        json!({"type":"undo","id":4}),
    ];
    assert_eq!(ids(&filter_actions(&raw).unwrap()), [1]);
}

#[test]
fn s18_undo_with_action_id_keeps_that_action() {
    let raw = vec![
        json!({"type":"bid","id":1}),
        json!({"type":"pass","id":2}),
        json!({"type":"pass","id":3}),
        json!({"type":"undo","id":4,"action_id":1}),
        json!({"type":"pass","id":5}),
    ];
    assert_eq!(ids(&filter_actions(&raw).unwrap()), [1, 5]);
    let all = vec![
        json!({"type":"bid","id":1}),
        json!({"type":"undo","id":2,"action_id":0}),
    ];
    assert!(filter_actions(&all).unwrap().is_empty());
    let missing = vec![
        json!({"type":"bid","id":1}),
        json!({"type":"undo","id":2,"action_id":9}),
    ];
    assert_eq!(
        filter_actions(&missing),
        Err(ImportError::UndoTargetMissing(9))
    );
}

#[test]
fn s18_redo_restores_only_if_nothing_happened_since() {
    let raw = vec![
        json!({"type":"bid","id":1}),
        json!({"type":"pass","id":2}),
        json!({"type":"undo","id":3}),
        json!({"type":"undo","id":4}),
        json!({"type":"redo","id":5}),
    ];
    assert_eq!(ids(&filter_actions(&raw).unwrap()), [1]);
    let mut twice = raw.clone();
    twice.push(json!({"type":"redo","id":6}));
    assert_eq!(ids(&filter_actions(&twice).unwrap()), [1, 2]);
    let mut stale = raw[..3].to_vec();
    stale.push(json!({"type":"pass","id":7}));
    stale.push(json!({"type":"redo","id":8}));
    assert_eq!(ids(&filter_actions(&stale).unwrap()), [1, 7]);
}

/// 1841 §15.3: with `p2p_purchases`, 18xx's direct purchase from a player (a
/// `buy_shares` of a share another player held, with its total price; a `buy_company` of a
/// concession another player holds) replays as the buyer's offer immediately accepted.
#[test]
fn s18_purchases_from_players_import_as_an_accepted_offer() {
    use crate::Game;
    use crate::g1841::{Concession, G1841, flow, market};
    let text = json!({
        "id": 2, "title": "1841",
        "players": [{"id": 10, "name": "A"}, {"id": 20, "name": "B"}, {"id": 30, "name": "C"}, {"id": 40, "name": "D"}],
        "settings": {"optional_rules": ["p2p_purchases"]},
        "actions": [
            {"type":"par","entity":10,"entity_type":"player","id":1,"corporation":"SFTG","share_price":"100,3,5"},
            {"type":"buy_shares","entity":10,"entity_type":"player","id":2,"shares":["SFTG_1"],"percent":10},
            {"type":"buy_shares","entity":20,"entity_type":"player","id":3,"shares":["SFTG_1"],"percent":10,"total_price":120},
            {"type":"buy_company","entity":20,"entity_type":"player","id":4,"company":"SFTN","price":70},
            {"type":"buy_company","entity":20,"entity_type":"player","id":5,"company":"IRSFF","price":50}
        ]
    })
    .to_string();
    let e = parse_export(&text).unwrap();
    let from: Vec<_> = e.actions.iter().map(|a| a.from_player).collect();
    assert_eq!(from, [None, None, Some(0), None, None]);
    // Seat 0 holds SFTG (20% + 10%) and the SFTN concession; the bank holds IRSFF; it is
    // seat 1's turn in Stock Round 2.
    let mut s = G1841::setup(&e.options().unwrap(), 4, 0).unwrap();
    s.players[0].concessions = vec![Concession::Sftg, Concession::Sftn];
    s.players[0].cash -= 100;
    s.bank_cash += 100;
    s.bank_concessions = vec![Concession::Irsff];
    market::set_cell(&mut s, "SFTG", 3, 5);
    let sftg = s.corporations.iter_mut().find(|c| c.sym == "SFTG").unwrap();
    sftg.par_price = 100;
    sftg.certificates[0].owner = ShareOwner::Player(0);
    sftg.certificates[1].owner = ShareOwner::Player(0);
    flow::begin(&mut s, flow::Next::StockRound(2), &mut Vec::new());
    G1841::apply(&mut s, 0, &Action::Pass).unwrap();
    let accept = (0, Action::AnswerOffer { accept: true });
    let shares = e.actions[2].to_actions(&s).unwrap();
    assert_eq!(
        shares,
        [
            (
                1,
                Action::OfferPurchase {
                    seller: 0,
                    item: PurchaseItem::Shares {
                        corporation: "SFTG".into(),
                        percent: 10
                    },
                    price: 120
                }
            ),
            accept.clone()
        ]
    );
    assert_eq!(e.actions[2].to_action(&s).unwrap().as_ref(), shares.first());
    let company = e.actions[3].to_actions(&s).unwrap();
    assert_eq!(
        company,
        [
            (
                1,
                Action::OfferPurchase {
                    seller: 0,
                    item: PurchaseItem::Concession {
                        concession: "SFTN".into()
                    },
                    price: 70
                }
            ),
            accept
        ]
    );
    // A bank concession stays a bank purchase.
    assert_eq!(
        e.actions[4].to_actions(&s).unwrap(),
        [(
            1,
            Action::BuyConcession {
                concession: "IRSFF".into()
            }
        )]
    );
    // Replayed: seat 1 holds 10% of SFTG and paid seat 0 L.120.
    for (seat, a) in shares {
        G1841::apply(&mut s, seat, &a).unwrap();
    }
    let sftg = s.corporation("SFTG").unwrap();
    assert_eq!(sftg.percent_of(&ShareOwner::Player(1)), 10);
    assert_eq!(
        (s.players[0].cash, s.players[1].cash),
        (840 - 100 + 120, 840 - 120)
    );
    // Without a price the purchase cannot be replayed.
    let mut no_price = e.actions[2].clone();
    let mut raw = no_price.raw().clone();
    raw.as_object_mut().unwrap().remove("total_price");
    no_price.set_raw(raw);
    let mut s2 = s.clone();
    if let Round::StockRound(r) = &mut s2.round {
        r.current_seat = 1;
    }
    assert!(matches!(
        no_price.to_actions(&s2),
        Err(ImportError::BadAction { .. })
    ));
}

#[test]
fn s18_players_map_to_seats_and_actions_to_concession_round_actions() {
    let text = json!({
        "id": 1, "title": "1841",
        "players": [{"id": 512, "name": "A"}, {"id": 7, "name": "B"}, {"id": 9, "name": "C"}],
        "settings": {"optional_rules": ["lite"]},
        "actions": [
            {"type":"bid","entity":7,"entity_type":"player","id":1,"company":"SFTG","price":20},
            {"type":"pass","entity":9,"entity_type":"player","id":2,
             "auto_actions":[{"type":"pass","entity":512,"entity_type":"player"}]},
            {"type":"blind_bid","entity":512,"entity_type":"player","id":3,"bids":[0,20,0,0,30]},
            {"type":"lay_tile","entity":"SFTG","entity_type":"corporation","id":4}
        ]
    })
    .to_string();
    let e = parse_export(&text).unwrap();
    // A game 18xx.games played: every FAQ option off, 18xx.games having none; off by
    // default outside Version 1, so left unset here (as NewGame with `lite` makes it).
    let want = Options {
        lite: true,
        ..Options::default()
    };
    assert_eq!(e.options().unwrap(), want);
    assert!(!want.price_drops_lowest_first());
    let mapped: Vec<_> = e
        .actions
        .iter()
        .map(|a| a.concession_round_action().unwrap())
        .collect();
    assert_eq!(
        mapped,
        [
            Some((
                1,
                Action::Bid {
                    concession: "SFTG".into(),
                    price: 20
                }
            )),
            Some((2, Action::Pass)),
            Some((0, Action::Pass)),
            Some((
                0,
                Action::BlindBid {
                    amounts: vec![0, 20, 0, 0, 30]
                }
            )),
            None,
        ]
    );
    assert!(e.actions[2].auto && !e.actions[1].auto);
    assert_eq!(e.actions[3].entity, Entity::Player(0));
    assert_eq!(e.actions[4].entity, Entity::Corporation("SFTG".into()));
    assert!(matches!(
        parse_export("{"),
        Err(ImportError::Json {
            truncated: true,
            line: 1,
            ..
        })
    ));
    assert!(matches!(
        parse_export("{\n  \"players\": [,]}"),
        Err(ImportError::Json {
            truncated: false,
            line: 2,
            column: 15,
            ..
        })
    ));
    assert_eq!(
        parse_export("{}"),
        Err(ImportError::Field("players".into()))
    );
}
