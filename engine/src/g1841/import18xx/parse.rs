//! Reading an export's text ([`parse_export`]): players, options, the effective records with
//! their `auto_actions` flattened in, and the marks taken from the whole record
//! ([`super::marks`]); [`imported`] reads a single action.

use std::sync::{Arc, OnceLock};

use serde_json::Value;
use smallvec::SmallVec;

use super::marks::{
    mark_corporate_sellers, mark_player_purchases, mark_pool_purchases, mark_tile_hexes,
    merger_price_before_form,
};
use super::undo_redo::{Head, effective_indices, skipped_undo};
use super::{
    Entity, EntityType, Export, ExportPlayer, FAQ_OPTIONS_SETTING, ImportError, ImportedAction,
    Record, Recorded, Source, as_whole_number, id_text, reader, seat_of,
};
use crate::Seat;

/// Parses an 18xx.games export.
///
/// Errors: [`ImportError::Json`] for text that is not JSON, [`ImportError::Field`] when
/// `players` or `actions` is missing, [`ImportError::UndoTargetMissing`] (see
/// [`super::filter_actions`]).
pub fn parse_export(json: &str) -> Result<Export, ImportError> {
    let root: reader::Root = serde_json::from_str(json).map_err(|e| ImportError::json(&e))?;
    let players = root
        .players
        .as_ref()
        .and_then(Value::as_array)
        .ok_or_else(|| ImportError::Field("players".into()))?
        .iter()
        .map(|p| {
            Ok(ExportPlayer {
                id: p
                    .get("id")
                    .and_then(id_text)
                    .ok_or_else(|| ImportError::Field("players[].id".into()))?,
                name: p
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            })
        })
        .collect::<Result<Vec<_>, ImportError>>()?;
    let optional_rules = root
        .settings
        .as_ref()
        .and_then(|s| s.get("optional_rules"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let faq_options = root
        .settings
        .as_ref()
        .and_then(|s| s.get(FAQ_OPTIONS_SETTING))
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_bool()?)))
                .collect()
        })
        .unwrap_or_default();
    let Some(mut records) = root.actions.0 else {
        return Err(ImportError::Field("actions".into()));
    };
    let mut export = Export {
        id: root.id.as_ref().and_then(Value::as_i64),
        title: root
            .title
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        players,
        optional_rules,
        faq_options,
        actions: Vec::new(),
        result: root
            .result
            .as_ref()
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| Some((k.clone(), as_whole_number(v)?)))
                    .collect()
            })
            .unwrap_or_default(),
        game_end_reason: root
            .game_end_reason
            .as_ref()
            .and_then(Value::as_str)
            .map(str::to_string),
        referee_export: root
            .exported_by
            .as_ref()
            .and_then(Value::as_str)
            .is_some_and(|s| s.starts_with("referee")),
    };
    fn head(r: &Record) -> Head<'_> {
        Head {
            kind: skipped_undo(
                &r.kind,
                r.fields.get(crate::g1841::export18xx::MERGER_BACKED_OUT),
            ),
            action_id: r.fields.action_id(),
            id: r.id,
        }
    }
    let effective = effective_indices(&records, head)?;
    // The text is kept once for `ImportedAction::raw`, which reads it only when asked.
    let source = Arc::new(Source {
        text: json.into(),
        root: OnceLock::new(),
    });
    let count: usize = effective
        .iter()
        .filter_map(|&i| records.get(i))
        .map(|r| 1 + r.fields.auto_actions())
        .sum();
    export.actions.reserve_exact(count);
    let seats = Seats::new(&export.players);
    for index in effective {
        // Each index is effective at most once: move the record out.
        let Some(mut record) = records.get_mut(index).map(std::mem::take) else {
            continue;
        };
        let autos = record.fields.take_auto_actions();
        let recorded = |auto| Recorded::Export {
            source: Arc::clone(&source),
            index,
            auto,
        };
        let first = from_record(&seats, record, false, recorded(None));
        export.actions.push(first);
        for (j, auto) in autos.into_iter().enumerate() {
            let a = from_record(&seats, auto, true, recorded(Some(j)));
            export.actions.push(a);
        }
    }
    mark_tile_hexes(&mut export.actions);
    merger_price_before_form(&mut export.actions);
    if export.optional_rules.iter().any(|r| r == "p2p_purchases") && !export.referee_export {
        mark_player_purchases(&mut export.actions);
    }
    if export.referee_export {
        return Ok(export);
    }
    mark_pool_purchases(&mut export.actions);
    mark_corporate_sellers(&mut export.actions);
    if let Some(game) = export.id {
        // The few ids of this game (none for most games: no pass over the actions then).
        let ids: SmallVec<[i64; 8]> = POOL_PURCHASES_AFTER_EXCHANGES
            .iter()
            .filter(|(g, _)| *g == game)
            .map(|(_, id)| *id)
            .collect();
        if !ids.is_empty() {
            for a in &mut export.actions {
                if a.id.is_some_and(|id| ids.contains(&id)) {
                    a.from_pool = Some(true);
                }
            }
        }
    }
    Ok(export)
}

/// Purchases of certificates that 18xx put into the pool in an exchange (merger, split): the
/// export names a share id never seen going into the pool, so the id tracking of
/// [`mark_pool_purchases`] cannot tell pool from IPO (18xx's share ids after exchanges are not
/// modelled; docs/games/1841.md I25). (18xx.games game id, action id) of every such purchase
/// in the two recorded games, where the game log reads "from the market" (found by comparing
/// the logs in `1841-fixtures/logs` with the id tracking): 132002 — CTDA `SFLi_7` (333), IFAI
/// `ICSF_1` (703), P4 `ICSF_2` (785), P3 `ICSF_3` (786), P4 `ICSF_4` (789), P3 `ICSF_5` (790); the lite game
/// 182953 — `CFCC_4` (514), `RSFS_5` (675), `RSFS_6` (676), `CFCC_5` … `CFCC_8` (684–687).
pub const POOL_PURCHASES_AFTER_EXCHANGES: &[(i64, i64)] = &[
    (132002, 333),
    (132002, 703),
    (132002, 785),
    (132002, 786),
    (132002, 789),
    (132002, 790),
    (182953, 514),
    (182953, 675),
    (182953, 676),
    (182953, 684),
    (182953, 685),
    (182953, 686),
    (182953, 687),
];

/// One recorded action as read: type, id and entity (a player id mapped to its seat by
/// `players`); the record-derived marks (`from_pool`, `tile_hex`) are left `None`.
pub(in crate::g1841) fn imported(
    players: &[ExportPlayer],
    raw: Value,
    auto: bool,
) -> ImportedAction {
    let mut record = Record::from_value(&raw);
    record.fields.take_auto_actions();
    from_record(
        &Seats::new(players),
        record,
        auto,
        Recorded::Value(Arc::new(raw)),
    )
}

/// The seats of an export's players, for mapping the entities of its actions: as
/// [`seat_of`] with the entity as text ([`id_text`]), but a whole-number entity (current
/// exports) is matched by value against the player ids that are whole numbers written in
/// their usual form (`512`; not `0512`, `+512`), without writing it out.
struct Seats<'a> {
    players: &'a [ExportPlayer],
    /// For each player, its id as a number when the id is the usual text of that number.
    numbers: SmallVec<[Option<u64>; 8]>,
    /// With more players than any game seats (an export the setup refuses later), the first
    /// seat of each id: mapping the actions stays linear in the export (100,000 players and
    /// as many actions would compare each with each; issue #24). The ids are the caller's:
    /// std's hasher, not Fx.
    index: Option<std::collections::HashMap<&'a str, Seat>>,
}

/// Up to this many players an entity is looked up by scanning them.
const SEATS_SCANNED: usize = 8;

impl<'a> Seats<'a> {
    fn new(players: &'a [ExportPlayer]) -> Self {
        if players.len() > SEATS_SCANNED {
            let mut index = std::collections::HashMap::with_capacity(players.len());
            for (i, p) in players.iter().enumerate() {
                if let Ok(seat) = Seat::try_from(i) {
                    index.entry(p.id.as_str()).or_insert(seat);
                }
            }
            return Seats {
                players,
                numbers: SmallVec::new(),
                index: Some(index),
            };
        }
        let numbers = players
            .iter()
            .map(|p| p.id.parse::<u64>().ok().filter(|n| n.to_string() == p.id))
            .collect();
        Seats {
            players,
            numbers,
            index: None,
        }
    }

    /// The seat of the player an entity names.
    fn of(&self, entity: &reader::Id) -> Option<Seat> {
        if let Some(index) = &self.index {
            // A whole number names the player whose id is its usual text.
            let text = match entity {
                reader::Id::Whole(n) => std::borrow::Cow::Owned(n.to_string()),
                reader::Id::Text(text) => std::borrow::Cow::Borrowed(text.as_str()),
                reader::Id::None => std::borrow::Cow::Borrowed(""),
            };
            return index.get(text.as_ref()).copied();
        }
        match entity {
            reader::Id::Whole(n) => self
                .numbers
                .iter()
                .position(|m| *m == Some(*n))
                .and_then(|i| Seat::try_from(i).ok()),
            reader::Id::Text(text) => seat_of(self.players, text),
            reader::Id::None => seat_of(self.players, ""),
        }
    }
}

/// [`imported`] from a record read from the export text.
fn from_record(seats: &Seats, record: Record, auto: bool, recorded: Recorded) -> ImportedAction {
    let entity = match record.entity_type {
        EntityType::Player => match seats.of(&record.entity) {
            Some(seat) => Entity::Player(seat),
            None => Entity::Other(record.entity.into_text()),
        },
        EntityType::Corporation => Entity::Corporation(record.entity.into_text()),
        EntityType::Other => Entity::Other(record.entity.into_text()),
    };
    ImportedAction {
        id: record.id,
        kind: record.kind,
        entity,
        auto,
        fields: record.fields,
        recorded,
        from_pool: None,
        tile_hex: None,
        from_player: None,
        sold_by: None,
    }
}

#[cfg(test)]
mod typed_reading_tests {
    use super::*;
    use crate::g1841::action::Action;
    use serde_json::json;

    /// The error a `Value` parse of `text` gives: what `parse_export` answered when it read
    /// the whole document as a `Value`.
    fn value_error(text: &str) -> ImportError {
        ImportError::json(&serde_json::from_str::<Value>(text).unwrap_err())
    }

    /// Every value is checked as a `Value` parse checks it, the ones the importer skips too:
    /// the same error, message and position.
    #[test]
    fn s18_json_errors_are_those_of_a_value_parse() {
        let action = |field: &str| {
            format!(
                r#"{{"players": [{{"id": 1}}], "actions": [{{"type": "pass", "id": 1, {field}}}]}}"#
            )
        };
        let deep = format!("\"x\": {}1{}", "[".repeat(200), "]".repeat(200));
        for text in [
            action("\"created_at\": 1e400"),
            action("\"created_at\": -1e400"),
            action(&format!("\"created_at\": {}", "9".repeat(400))),
            action("\"variant\": \"\\ud800\""),
            action("\"variant\": \"\\udc00x\""),
            action("\"variant\": \"\\x\""),
            action("\"variant\": \"a\u{1}\""),
            action("\"price\": 01"),
            action("\"routes\": [{\"nodes\": [1e999]}]"),
            action(&deep),
            action("\"x\": [1,]"),
            r#"{"players": [], "actions": [], "id": 1e400}"#.to_string(),
            r#"{"players": [], "actions": []} x"#.to_string(),
            r#"{"players": [], "actions": [{"type": "pass""#.to_string(),
            "[1e400]".to_string(),
        ] {
            assert_eq!(parse_export(&text), Err(value_error(&text)), "{text}");
        }
        // What a `Value` parse accepts is read: a number in range, a surrogate pair, other
        // types in any field, nesting up to the limit.
        for field in [
            "\"created_at\": 1e300",
            "\"variant\": \"\\ud83d\\ude00\"",
            "\"price\": {\"a\": [null, true]}",
            "\"routes\": 5",
            "\"auto_actions\": {}",
        ] {
            let text = action(field);
            assert!(serde_json::from_str::<Value>(&text).is_ok());
            assert!(parse_export(&text).is_ok(), "{text}");
        }
        for text in ["5", "[]", "null", "\"players\""] {
            assert_eq!(
                parse_export(text),
                Err(ImportError::Field("players".into()))
            );
        }
    }

    /// A number entity names the player whose id is that number's text, as if written out:
    /// `512` is not the player `"0512"` or `"+512"`; a number that is no player's id, and a
    /// negative or fractional one, is kept as its text.
    #[test]
    fn s18_number_entities_match_player_ids_as_text() {
        let text = r#"{"players": [{"id": "0512"}, {"id": "+512"}, {"id": 512}, {"id": "7"}],
            "actions": [
              {"type": "pass", "entity": 512, "entity_type": "player", "id": 1},
              {"type": "pass", "entity": "0512", "entity_type": "player", "id": 2},
              {"type": "pass", "entity": 7, "entity_type": "player", "id": 3},
              {"type": "pass", "entity": 513, "entity_type": "player", "id": 4},
              {"type": "pass", "entity": -5, "entity_type": "player", "id": 5},
              {"type": "pass", "entity": 5.5, "entity_type": "player", "id": 6},
              {"type": "pass", "entity": 12, "entity_type": "corporation", "id": 7},
              {"type": "pass", "entity_type": "player", "id": 8}
            ]}"#;
        let e = parse_export(text).unwrap();
        let entities: Vec<_> = e.actions.iter().map(|a| a.entity.clone()).collect();
        assert_eq!(
            entities,
            [
                Entity::Player(2),
                Entity::Player(0),
                Entity::Player(3),
                Entity::Other("513".into()),
                Entity::Other("-5".into()),
                Entity::Other("5.5".into()),
                Entity::Corporation("12".into()),
                Entity::Other(String::new()),
            ]
        );
        for a in &e.actions {
            assert_eq!(
                imported(&e.players, a.raw().clone(), false).entity,
                a.entity
            );
        }
    }

    /// A key given twice counts once, the last one, as in a `Value`; `raw` is the action as
    /// recorded (with its `auto_actions`), an automatic action that element.
    #[test]
    fn s18_raw_is_the_recorded_action_and_the_last_key_wins() {
        let text = r#"{"id": 5, "players": [{"id": 7}, {"id": "8"}], "title": "1841",
            "actions": [
              {"type": "bid", "entity": 7, "entity_type": "player", "id": 1,
               "company": "X", "company": "SFTG", "price": 5, "price": 20.0},
              {"type": "pass", "entity": "8", "entity_type": "player", "id": 2, "user": 3},
              {"type": "undo", "entity": "8", "entity_type": "player", "id": 3},
              {"type": "pass", "type": "pass", "entity": 8, "entity_type": "player", "id": 4,
               "auto_actions": [{"type": "pass", "entity": 7, "entity_type": "player"}, 3]},
              "odd"
            ]}"#;
        let e = parse_export(text).unwrap();
        let root: Value = serde_json::from_str(text).unwrap();
        let recorded = &root["actions"];
        let raws: Vec<&Value> = e.actions.iter().map(ImportedAction::raw).collect();
        assert_eq!(
            raws,
            [
                &recorded[0],
                &recorded[3],
                &recorded[3]["auto_actions"][0],
                &recorded[3]["auto_actions"][1],
                &recorded[4],
            ]
        );
        let summary: Vec<_> = e
            .actions
            .iter()
            .map(|a| (a.id, a.kind.as_str(), a.entity.clone(), a.auto))
            .collect();
        assert_eq!(
            summary,
            [
                (Some(1), "bid", Entity::Player(0), false),
                (Some(4), "pass", Entity::Player(1), false),
                (None, "pass", Entity::Player(0), true),
                (None, "", Entity::Other(String::new()), true),
                (None, "", Entity::Other(String::new()), false),
            ]
        );
        assert_eq!(
            e.actions[0].concession_round_action(),
            Ok(Some((
                0,
                Action::Bid {
                    concession: "SFTG".into(),
                    price: 20
                }
            )))
        );
        // Read from a value, the same action.
        let again = imported(&e.players, recorded[0].clone(), false);
        assert_eq!(again, e.actions[0]);
        assert_eq!(again.raw(), &recorded[0]);
        // `set_raw` replaces the fields the mapping reads, nothing else.
        let mut changed = e.actions[0].clone();
        changed.set_raw(json!({"type": "pass", "company": "IRSFF", "price": 30}));
        assert_eq!((changed.id, changed.kind.as_str()), (Some(1), "bid"));
        assert_eq!(
            changed.concession_round_action(),
            Ok(Some((
                0,
                Action::Bid {
                    concession: "IRSFF".into(),
                    price: 30
                }
            )))
        );
        assert_ne!(changed, e.actions[0]);
    }
}
