//! Hostile inputs built for the attacks: a valid 1841 position that makes the route search
//! work hard, inconsistent states the validators must refuse, and the ImportGame undo/redo
//! bomb.

use referee_engine::g1841::import18xx::parse_export;
use referee_engine::g1841::{G1841, OperatingStep, PlacedTile, Round, State, map};
use referee_engine::{Game, Seat};
use referee_service::games::encode_state;
use referee_service::games::g1841::Wire1841;
use referee_service::pb::v1 as pb;
use serde_json::{Value, json};

use crate::FIXTURE_1841;

/// The tiles tried on each hex, brown and grey first: the more track of high phases on the
/// map, the more routes the optimizer has to consider.
const HEAVY_TILES: &[&str] = &[
    "605", "607", "609", "603", "623", "63", "88", "55", "616", "617", "618", "43", "44", "45",
    "46", "47", "70",
];

/// Whether the server would take this state (the engine's validator, which the service runs
/// on every decoded state).
fn valid(s: &State) -> bool {
    referee_engine::g1841::check_invariants(s).is_ok()
}

/// A crafted, valid 1841 position for the route search (issue #24, item 5): the recorded game
/// 132002 replayed to its last `Routes` step of a corporation with trains, then every hex the
/// tile manifest allows upgraded to brown or grey track in a fixed pseudo-random rotation,
/// and (as far as the validator takes them) up to four long trains for the operating
/// corporation. Returns the envelope, the seat to act (the president), the corporation, and
/// what was changed.
pub fn crafted_routes_1841() -> anyhow::Result<(pb::GameState, Seat, String, String)> {
    let export = parse_export(FIXTURE_1841).map_err(|e| anyhow::anyhow!("fixture: {e}"))?;
    let options = export
        .options()
        .map_err(|e| anyhow::anyhow!("fixture: {e}"))?;
    let mut s = G1841::setup(&options, export.players.len() as u32, 0)?;
    let mut last: Option<(State, u64)> = None;
    let mut count = 0u64;
    for a in &export.actions {
        if matches!(a.kind.as_str(), "message" | "destination_connection")
            || a.kind.starts_with("program_")
        {
            continue;
        }
        let Ok(Some((seat, action))) = a.to_action(&s) else {
            break;
        };
        if G1841::apply(&mut s, seat, &action).is_err() {
            break;
        }
        count += 1;
        if let Round::OperatingRound(or) = &s.round
            && or.step == OperatingStep::Routes
            && let Some(c) = &or.current
            && s.operations.trains.get(c).is_some_and(|t| !t.is_empty())
        {
            last = Some((s.clone(), count));
        }
    }
    let (mut s, n) = last.ok_or_else(|| anyhow::anyhow!("no Routes step in the replay"))?;
    let Round::OperatingRound(or) = &s.round else {
        anyhow::bail!("not an operating round")
    };
    let corp = or.current.clone().unwrap_or_default();
    let m = map::map(&s.options);
    let mut seed = 12345u64;
    let mut upgraded = 0;
    let hexes: Vec<String> = m
        .hexes
        .iter()
        .filter(|(_, h)| !h.first_tiles.is_empty())
        .map(|(id, _)| id.clone())
        .collect();
    for hex in hexes {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let rotation = ((seed >> 33) % 6) as u8;
        let before = s.operations.tiles.get(&hex).cloned();
        let mut placed = false;
        'tiles: for tile in HEAVY_TILES {
            if before.as_ref().is_some_and(|p| p.tile == *tile) {
                break;
            }
            for r in [rotation] {
                s.operations.tiles.insert(
                    hex.clone(),
                    PlacedTile {
                        tile: tile.to_string(),
                        rotation: r,
                    },
                );
                if valid(&s) {
                    placed = true;
                    break 'tiles;
                }
            }
        }
        if placed {
            upgraded += 1;
        } else {
            match &before {
                Some(p) => s.operations.tiles.insert(hex.clone(), p.clone()),
                None => s.operations.tiles.remove(&hex),
            };
        }
    }
    // More long trains for the operating corporation, as far as the validator takes them
    // (train ids not held anywhere, sold by the depot, within the train limit).
    for t in ["8", "7", "6", "5"] {
        for k in 0..12 {
            if s.operations.trains.get(&corp).map_or(0, Vec::len) >= 4 {
                break;
            }
            let id = format!("{t}-{k}");
            let held = s.operations.trains.values().flatten().any(|x| *x == id)
                || s.operations.pool_trains.contains(&id)
                || s.operations.rusted.contains(&id);
            if held {
                continue;
            }
            let mut c = s.clone();
            let sold = c.operations.depot_sold.entry(t.into()).or_insert(0);
            *sold = (*sold).max(k + 1);
            c.operations
                .trains
                .entry(corp.clone())
                .or_default()
                .push(id);
            if valid(&c) {
                s = c;
            }
        }
    }
    let trains = s.operations.trains.get(&corp).cloned().unwrap_or_default();
    anyhow::ensure!(valid(&s), "the crafted state does not validate");
    let seat = G1841::to_act(&s)
        .first()
        .copied()
        .ok_or_else(|| anyhow::anyhow!("nobody to act"))?;
    let what = format!(
        "game 132002 at its last Routes step ({corp}, trains {trains:?}), {upgraded} hexes upgraded to brown/grey"
    );
    Ok((encode_state::<Wire1841>(&s, n), seat, corp, what))
}

/// A 4-seat 1841 state in an open auction (Version 2: a concession nominated) whose seat to
/// act is set to the high bidder: inconsistent (issue #24, item 8).
pub fn auction_high_bidder_to_act() -> anyhow::Result<(pb::GameState, Seat)> {
    let mut s = G1841::setup(&Default::default(), 4, 0)?;
    for _ in 0..40 {
        if let Round::ConcessionRound(cr) = &s.round
            && let Some(a) = &cr.auction
            && a.bidders.len() >= 2
        {
            break;
        }
        let seat = G1841::to_act(&s)
            .first()
            .copied()
            .ok_or_else(|| anyhow::anyhow!("nobody to act"))?;
        let legal = G1841::legal_actions(&s, seat);
        let a = legal
            .iter()
            .find(|a| !format!("{a:?}").starts_with("Pass"))
            .or_else(|| legal.first())
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("no legal action"))?;
        G1841::apply(&mut s, seat, &a).map_err(|r| anyhow::anyhow!("{r}"))?;
    }
    let Round::ConcessionRound(cr) = &mut s.round else {
        anyhow::bail!("the concession round ended before an auction")
    };
    let Some(a) = cr.auction.as_mut() else {
        anyhow::bail!("no auction opened")
    };
    a.to_act = a.high_bidder;
    let seat = a.high_bidder;
    Ok((encode_state::<Wire1841>(&s, 10), seat))
}

/// The 18xx.games export of the undo/redo bomb (issue #24, item 3): the first actions of the
/// recorded game 132002, then `undo` back to its first action and `redo`, alternating, until
/// the JSON is about `bytes` long.
pub fn undo_redo_bomb(bytes: usize) -> anyhow::Result<String> {
    let mut root: Value = serde_json::from_str(FIXTURE_1841)?;
    let actions = root["actions"]
        .as_array()
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("no actions"))?;
    let mut kept: Vec<Value> = actions.into_iter().take(200).collect();
    let first = kept
        .first()
        .and_then(|a| a["id"].as_i64())
        .ok_or_else(|| anyhow::anyhow!("no first id"))?;
    let mut id = kept
        .iter()
        .filter_map(|a| a["id"].as_i64())
        .max()
        .unwrap_or(0)
        + 1;
    root["actions"] = Value::Array(Vec::new());
    let base = serde_json::to_string(&root)?.len();
    let mut size = base + kept.iter().map(|a| a.to_string().len() + 1).sum::<usize>();
    while size < bytes {
        let undo = json!({"type": "undo", "entity": 512, "entity_type": "player", "id": id, "action_id": first});
        let redo = json!({"type": "redo", "entity": 512, "entity_type": "player", "id": id + 1});
        size += undo.to_string().len() + redo.to_string().len() + 2;
        kept.push(undo);
        kept.push(redo);
        id += 2;
    }
    root["actions"] = Value::Array(kept);
    Ok(serde_json::to_string(&root)?)
}
