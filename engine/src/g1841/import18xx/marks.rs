//! Marks taken from the whole record before the replay, where one record alone does not tell:
//! the hex of a tile copy a token action names, a purchase from another player (1841 §15.3) or
//! from the pool (§5.2), a corporation's emergency sale by another holder (§14), and a merger's
//! price put back in this engine's order (§12.1).

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap;
use serde_json::Value;

use super::{Entity, ImportedAction, notation};
use crate::Seat;

/// A merger of two majors both above L.250 (1841 §12.1) in this engine's order: 18xx.games
/// names the corporation to form (`merge`) before the price is chosen (`choose
/// "first"|"last"`; `Step::Merge#process_merge` → `merger_start` → the `:price` option), where
/// this engine asks the price first ([`crate::g1841::state::MergerStage::Price`] before
/// [`crate::g1841::state::MergerStage::Corporation`]). Each second `merge` (the one naming the new
/// corporation, directly after the proposal's) directly followed by a price `choose` is swapped
/// with it (the two records keep their ids). Files in this engine's order (earlier Referee exports:
/// proposal, `choose`, then the `merge` naming the new corporation) are left as they are.
pub(super) fn merger_price_before_form(actions: &mut [ImportedAction]) {
    let is_price = |a: &ImportedAction| {
        !a.auto
            && a.kind == "choose"
            && matches!(
                a.field("choice").and_then(Value::as_str),
                Some("first" | "last")
            )
    };
    let merge = |a: &ImportedAction| !a.auto && a.kind == "merge";
    let mut i = 1;
    while i + 1 < actions.len() {
        if merge(&actions[i - 1]) && merge(&actions[i]) && is_price(&actions[i + 1]) {
            actions.swap(i, i + 1);
            i += 2;
        } else {
            i += 1;
        }
    }
}

/// Follows the 18xx tile copies (`63-1`) over the effective actions: each `lay_tile` puts its
/// copy on its hex; a token action naming a city `<tile>-<copy>-<i>` gets that hex.
/// The texts are borrowed from the actions while they are followed (the marks are set after).
pub(super) fn mark_tile_hexes(actions: &mut [ImportedAction]) {
    let mut at: FxHashMap<&str, &str> = FxHashMap::default();
    let mut marks: Vec<(usize, Option<String>)> = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        match a.kind.as_str() {
            "lay_tile" => {
                if let (Some(tile), Some(hex)) = (
                    a.field("tile").and_then(Value::as_str),
                    a.field("hex").and_then(Value::as_str),
                ) {
                    at.insert(tile, hex);
                }
            }
            "place_token" | "remove_token" | "buy_token" => {
                if let Some(city) = a.field("city").and_then(Value::as_str)
                    && let Some((_, copy, _)) = notation::parse_city_id(city)
                {
                    marks.push((i, at.get(copy).map(|h| h.to_string())));
                }
            }
            _ => {}
        }
    }
    for (i, hex) in marks {
        if let Some(a) = actions.get_mut(i) {
            a.tile_hex = hex;
        }
    }
}

/// Follows the 18xx share ids held by players over the effective actions (`p2p_purchases`,
/// 1841 §15.3) and records, on every player's `buy_shares` whose first share another player
/// held, that player's seat ([`ImportedAction::from_player`]). A player's `par` gives him
/// `<CORP>_0` (and forgets the corporation's other ids: a new company); a player's
/// `buy_shares` gives him the ids listed; a `sell_shares` or a corporation's purchase takes
/// them away; a `merge` forgets the ids of the corporations it names (exchanges reassign
/// them unseen). Certificates of one size are interchangeable in this engine, so only the
/// seller matters.
pub(super) fn mark_player_purchases(actions: &mut [ImportedAction]) {
    let mut held: std::collections::BTreeMap<String, Seat> = std::collections::BTreeMap::new();
    let forget = |held: &mut std::collections::BTreeMap<String, Seat>, sym: &str| {
        let prefix = format!("{sym}_");
        held.retain(|id, _| !id.starts_with(&prefix));
    };
    for a in actions.iter_mut() {
        let corporation = a.field("corporation").and_then(Value::as_str);
        match (a.kind.as_str(), &a.entity) {
            ("par", Entity::Player(seat)) => {
                if let Some(sym) = corporation {
                    forget(&mut held, sym);
                    held.insert(format!("{sym}_0"), *seat);
                }
            }
            ("buy_shares", Entity::Player(seat)) => {
                let seat = *seat;
                let owner = a
                    .fields
                    .share_ids()
                    .next()
                    .and_then(|id| held.get(id))
                    .copied()
                    .filter(|owner| *owner != seat);
                for id in a.fields.share_ids() {
                    held.insert(id.to_string(), seat);
                }
                if owner.is_some() {
                    a.from_player = owner;
                }
            }
            ("buy_shares" | "sell_shares", _) => {
                for id in a.fields.share_ids() {
                    held.remove(id);
                }
            }
            ("merge", entity) => {
                if let Some(sym) = corporation {
                    forget(&mut held, sym);
                }
                if let Entity::Corporation(sym) = entity {
                    forget(&mut held, sym);
                }
            }
            _ => {}
        }
    }
}

/// Follows the 18xx share ids through the bank pool over the effective actions and records,
/// on every `buy_shares`, whether its first share came from the pool. 18xx share ids are
/// stable certificates; this engine's certificates are interchangeable by size, so which one
/// lies in the pool is known only from the record.
///
/// The share ids are borrowed from the actions while they are followed (the marks are set
/// after).
pub(super) fn mark_pool_purchases(actions: &mut [ImportedAction]) {
    let mut pool: BTreeSet<&str> = BTreeSet::new();
    let mut marks: Vec<(usize, bool)> = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        match a.kind.as_str() {
            "sell_shares" => pool.extend(a.fields.share_ids()),
            "buy_shares" => {
                let from_pool = a
                    .fields
                    .share_ids()
                    .next()
                    .is_some_and(|id| pool.contains(id));
                for id in a.fields.share_ids() {
                    pool.remove(id);
                }
                marks.push((i, from_pool));
            }
            _ => {}
        }
    }
    for (i, from_pool) in marks {
        if let Some(a) = actions.get_mut(i) {
            a.from_pool = Some(from_pool);
        }
    }
}

/// Follows the 18xx share ids held by corporations over the effective actions and records,
/// on every corporation's `sell_shares` whose first share a corporation held, that
/// corporation ([`ImportedAction::sold_by`]): 18xx.games records a chain corporation's
/// emergency sale in the train step with the operating corporation as entity (1841 §14;
/// `G1841::Step::BuyTrain#process_sell_shares` sells `action.bundle.owner`'s shares), and
/// this engine's certificate indices need not be 18xx's ids. A `par` or `buy_shares` gives
/// the ids to the entity, a `sell_shares` to the pool; a `merge` forgets the ids of the
/// corporations it names (exchanges reassign them unseen).
pub(super) fn mark_corporate_sellers(actions: &mut [ImportedAction]) {
    let mut held: BTreeMap<String, Entity> = BTreeMap::new();
    let forget = |held: &mut BTreeMap<String, Entity>, sym: &str| {
        let prefix = format!("{sym}_");
        held.retain(|id, _| !id.starts_with(&prefix));
    };
    for a in actions.iter_mut() {
        let corporation = a.field("corporation").and_then(Value::as_str);
        match a.kind.as_str() {
            "par" => {
                if let Some(sym) = corporation {
                    let sym = sym.to_string();
                    forget(&mut held, &sym);
                    held.insert(format!("{sym}_0"), a.entity.clone());
                }
            }
            "buy_shares" => {
                for id in a.fields.share_ids() {
                    held.insert(id.to_string(), a.entity.clone());
                }
            }
            "sell_shares" => {
                if matches!(a.entity, Entity::Corporation(_))
                    && let Some(Entity::Corporation(owner)) =
                        a.fields.first_share().and_then(|id| held.get(id))
                {
                    a.sold_by = Some(owner.clone());
                }
                for id in a.fields.share_ids() {
                    held.remove(id);
                }
            }
            "merge" => {
                if let Some(sym) = corporation {
                    let sym = sym.to_string();
                    forget(&mut held, &sym);
                }
                if let Entity::Corporation(sym) = &a.entity {
                    let sym = sym.clone();
                    forget(&mut held, &sym);
                }
            }
            _ => {}
        }
    }
}
