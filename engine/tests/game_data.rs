//! The static game data documents (`referee_engine::game_data`, the `GetGameData` call) say
//! the same as the data the rules load: every hex, tile, market cell, train, phase and
//! corporation of each 1841 variant, every city, link, section and position of the Autobahn
//! board.

use referee_engine::autobahn::Board;
use referee_engine::g1841::{self, data, map};
use referee_engine::game_data;
use serde_json::Value;

fn variants() -> Vec<(&'static str, g1841::Options)> {
    vec![
        ("v2", g1841::Options::default()),
        (
            "v1",
            g1841::Options {
                version_1: true,
                ..g1841::Options::default()
            },
        ),
        (
            "lite",
            g1841::Options {
                lite: true,
                ..g1841::Options::default()
            },
        ),
    ]
}

fn arr<'a>(v: &'a Value, key: &str) -> &'a Vec<Value> {
    v.get(key)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{key} is an array"))
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

#[test]
fn g1841_hexes_match_the_rules_map() {
    for (variant, options) in variants() {
        let doc = game_data::g1841(&options).unwrap();
        let m = map::map(&options);
        assert_eq!(doc["variant"], variant);
        assert_eq!(doc["game"], "1841");
        let hexes = arr(&doc, "hexes");
        assert_eq!(hexes.len(), m.hexes.len(), "{variant}: hex count");
        for h in hexes {
            let id = s(h, "id");
            let ours = &m.hexes[id];
            assert_eq!(s(h, "color"), ours.color, "{variant} {id} colour");
            let cost: i64 = arr(h, "terrain_cost")
                .iter()
                .map(|c| c["cost"].as_i64().unwrap())
                .sum();
            assert_eq!(cost, ours.terrain_cost, "{variant} {id} terrain cost");
            assert_eq!(
                arr(h, "nodes").len(),
                ours.nodes.len(),
                "{variant} {id} nodes"
            );
            assert_eq!(
                arr(h, "paths").len(),
                ours.paths.len(),
                "{variant} {id} paths"
            );
            for (n, node) in arr(h, "nodes").iter().zip(&ours.nodes) {
                match &node.revenue {
                    map::Revenue::Fixed(r) => assert_eq!(n["revenue"].as_i64(), Some(*r)),
                    map::Revenue::ByPhase(by) => {
                        for (colour, r) in by {
                            assert_eq!(n["revenue"][colour].as_i64(), Some(*r), "{id}");
                        }
                    }
                }
                assert_eq!(n["slots"].as_u64().unwrap_or(0), u64::from(node.slots));
            }
            // Neighbours by edge agree with the drawing rule: across edge e the centre lies
            // at 90° + 60° × e, √3 radii away.
            let c = h["center"].as_array().unwrap();
            for (edge, other) in &ours.neighbors {
                let o = hexes.iter().find(|x| s(x, "id") == other).unwrap();
                let d = o["center"].as_array().unwrap();
                let (dx, dy) = (
                    d[0].as_f64().unwrap() - c[0].as_f64().unwrap(),
                    d[1].as_f64().unwrap() - c[1].as_f64().unwrap(),
                );
                let angle = (90.0 + 60.0 * f64::from(*edge)).to_radians();
                let want = (3f64.sqrt() * angle.cos(), 3f64.sqrt() * angle.sin());
                assert!(
                    (dx - want.0).abs() < 0.01 && (dy - want.1).abs() < 0.01,
                    "{variant} {id} edge {edge} → {other}: ({dx}, {dy}) vs {want:?}"
                );
            }
        }
        // Every hex lies inside the drawing.
        let (w, h) = (
            doc["layout"]["width"].as_f64().unwrap(),
            doc["layout"]["height"].as_f64().unwrap(),
        );
        for hex in hexes {
            let c = hex["center"].as_array().unwrap();
            let (x, y) = (c[0].as_f64().unwrap(), c[1].as_f64().unwrap());
            assert!(
                x >= 1.0 && x <= w - 1.0 && y > 0.0 && y < h,
                "{}",
                s(hex, "id")
            );
        }
    }
}

#[test]
fn g1841_v2_map_has_known_values() {
    let doc = game_data::g1841(&g1841::Options::default()).unwrap();
    let hexes = arr(&doc, "hexes");
    let f8 = hexes.iter().find(|h| s(h, "id") == "F8").unwrap();
    assert_eq!(f8["row"], 5);
    assert_eq!(f8["column"], 8);
    let a5 = hexes.iter().find(|h| s(h, "id") == "A5").unwrap();
    assert_eq!(s(a5, "location"), "Simplon");
    assert_eq!(a5["terrain_cost"][0]["cost"], 200);
}

#[test]
fn g1841_tiles_match_the_manifest() {
    for (variant, options) in variants() {
        let doc = game_data::g1841(&options).unwrap();
        let m = map::map(&options);
        let tiles = arr(&doc, "tiles");
        let in_manifest = m.tiles.keys().filter(|t| m.tile_count(t) > 0).count();
        assert_eq!(tiles.len(), in_manifest, "{variant}: tiles");
        for t in tiles {
            let id = s(t, "id");
            let ours = &m.tiles[id];
            assert_eq!(t["count"].as_u64(), Some(u64::from(m.tile_count(id))));
            assert_eq!(s(t, "color"), ours.color);
            assert_eq!(arr(t, "paths").len(), ours.paths.len());
            let ups: Vec<&str> = arr(t, "upgrades_to")
                .iter()
                .map(|u| u.as_str().unwrap())
                .collect();
            assert_eq!(ups, ours.upgrades_to, "{variant} tile {id} upgrades");
        }
    }
    // A known count: V2 has three copies of tile 57 (tiles.json).
    let doc = game_data::g1841(&g1841::Options::default()).unwrap();
    let t57 = arr(&doc, "tiles")
        .iter()
        .find(|t| s(t, "id") == "57")
        .unwrap();
    assert_eq!(
        t57["count"].as_u64(),
        Some(u64::from(
            map::map(&g1841::Options::default()).tile_count("57")
        ))
    );
}

#[test]
fn g1841_market_trains_phases_and_corporations_match_the_rules() {
    for (variant, options) in variants() {
        let doc = game_data::g1841(&options).unwrap();
        let rows = doc["market"]["rows"].as_array().unwrap();
        let market = data::market();
        assert_eq!(rows.len(), market.rows.len());
        for (r, row) in rows.iter().zip(&market.rows) {
            let prices: Vec<i64> = r
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["price"].as_i64().unwrap())
                .collect();
            let ours: Vec<i64> = row.iter().map(|c| c.price).collect();
            assert_eq!(prices, ours);
        }
        let rs = data::ruleset(&options);
        let trains = arr(&doc["ruleset"], "trains");
        assert_eq!(trains.len(), rs.trains.len());
        for (t, ours) in trains.iter().zip(&rs.trains) {
            assert_eq!(s(t, "name"), ours.name);
            assert_eq!(t["price"].as_i64(), Some(ours.price));
            assert_eq!(t["count"].as_u64(), Some(u64::from(ours.count)));
        }
        let phases: Vec<&str> = arr(&doc["ruleset"], "phases")
            .iter()
            .map(|p| s(p, "name"))
            .collect();
        let ours: Vec<&str> = rs.phases.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(phases, ours);
        // Every historical corporation has a name and colour; every concession of the
        // ruleset is listed with its colour.
        let corps = arr(&doc, "corporations");
        for h in &rs.historical_corporations {
            let c = corps
                .iter()
                .find(|c| s(c, "sym") == h.sym)
                .unwrap_or_else(|| panic!("{variant}: {} has no colour", h.sym));
            assert!(!s(c, "color").is_empty());
        }
        for nh in rs.non_historical_corporations.majors.iter() {
            assert!(corps.iter().any(|c| s(c, "sym") == nh), "{variant}: {nh}");
        }
        let concessions: Vec<&str> = arr(&doc, "concessions")
            .iter()
            .map(|c| s(c, "sym"))
            .collect();
        let mut want = rs.concession_round.concessions_in_order.clone();
        want.sort();
        let mut got: Vec<String> = concessions.iter().map(|c| c.to_string()).collect();
        got.sort();
        assert_eq!(got, want, "{variant}: concessions");
    }
    // Lite has five concessions (1841 §15.2).
    let lite = game_data::g1841(&g1841::Options {
        lite: true,
        ..g1841::Options::default()
    })
    .unwrap();
    assert_eq!(arr(&lite, "concessions").len(), 5);
}

#[test]
fn g1841_documents_are_stable_and_differ_by_variant() {
    let texts: Vec<String> = variants()
        .iter()
        .map(|(_, o)| game_data::g1841(o).unwrap().to_string())
        .collect();
    assert_ne!(texts[0], texts[1]);
    assert_ne!(texts[0], texts[2]);
    assert_eq!(
        texts[0],
        game_data::g1841(&g1841::Options::default())
            .unwrap()
            .to_string()
    );
}

#[test]
fn autobahn_board_matches_the_rules_board() {
    let board = Board::default_board();
    let doc = game_data::autobahn(&board);
    assert_eq!(doc["game"], "autobahn");
    assert_eq!(doc["variant"], board.def.board_id.as_str());
    assert_eq!(arr(&doc["board"], "cities").len(), board.def.cities.len());
    assert_eq!(arr(&doc["board"], "links").len(), board.def.links.len());
    assert_eq!(arr(&doc["board"], "offices").len(), board.def.offices.len());
    assert_eq!(arr(&doc["board"], "depots").len(), board.def.depots.len());
    assert_eq!(
        arr(&doc["board"], "delivery_boards").len(),
        board.def.delivery_boards.len()
    );
    let sections = doc["positions"]["sections"].as_object().unwrap();
    assert_eq!(sections.len(), board.map.sections.len());
    for (id, sec) in board.map.section_ids.iter().zip(&board.map.sections) {
        let p = &sections[id];
        assert_eq!(p["lat"].as_f64(), Some(sec.pos.0), "{id}");
        assert_eq!(p["lon"].as_f64(), Some(sec.pos.1), "{id}");
        let (x, y) = (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap());
        assert!((0.0..=1000.0).contains(&x), "{id} x {x}");
        assert!(y >= 0.0 && y <= doc["layout"]["height"].as_f64().unwrap());
    }
    // North is up: Flensburg is drawn above Hamburg, Hamburg left of Berlin.
    let cities = &doc["positions"]["cities"];
    assert!(cities["FLENSBURG"]["y"].as_f64() < cities["HAMBURG"]["y"].as_f64());
    let ends = &doc["positions"]["link_ends"];
    for l in &board.def.links {
        assert_eq!(ends[&l.id][0], l.a.as_str());
        assert_eq!(ends[&l.id][1], l.b.as_str());
    }
    // The same board gives the same bytes.
    assert_eq!(
        doc.to_string(),
        game_data::autobahn(&Board::default_board()).to_string()
    );
}
