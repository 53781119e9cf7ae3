//! Unit tests of the decoded-size estimate.

use super::*;
use crate::pb;

fn size_of(name: &str) -> usize {
    let s = schema();
    s.messages[s.by_name[name]].size
}

/// The estimated struct sizes are those of prost's generated types, within a word or two
/// (Rust may pack small fields tighter; never much smaller than the estimate).
#[test]
fn struct_sizes_match_the_generated_types() {
    let cases = [
        (
            "referee.v1.SeatAction",
            std::mem::size_of::<pb::v1::SeatAction>(),
        ),
        ("referee.v1.Action", std::mem::size_of::<pb::v1::Action>()),
        (
            "referee.v1.ApplyBatchRequest",
            std::mem::size_of::<pb::v1::ApplyBatchRequest>(),
        ),
        (
            "referee.v1.GameState",
            std::mem::size_of::<pb::v1::GameState>(),
        ),
        (
            "referee.g1841.v1.State",
            std::mem::size_of::<pb::g1841::State>(),
        ),
        (
            "referee.autobahn.v1.State",
            std::mem::size_of::<pb::autobahn::State>(),
        ),
        (
            "referee.g1841.v1.Action",
            std::mem::size_of::<pb::g1841::Action>(),
        ),
        (
            "referee.autobahn.v1.Action",
            std::mem::size_of::<pb::autobahn::Action>(),
        ),
    ];
    for (name, actual) in cases {
        let est = size_of(name);
        assert!(
            est + 16 >= actual && est <= actual * 2 + 16,
            "{name}: estimated {est}, size_of {actual}"
        );
    }
}

/// The attack of issue #24: empty entries of ApplyBatch's `actions` (`12 00`) stop the
/// walk at the entry that passes the budget, named in the path.
#[test]
fn empty_list_entries_pass_the_budget_at_a_named_entry() {
    let body: Vec<u8> = [0x12u8, 0x00].repeat(100_000);
    let entry = size_of("referee.v1.SeatAction");
    let err = request_protobuf("ApplyBatch", &body, 1_000_000).unwrap_err();
    assert_eq!(err.limit, 1_000_000);
    let expected = (1_000_000 - size_of("referee.v1.ApplyBatchRequest")) / entry;
    assert_eq!(err.path, format!("actions[{expected}]"), "entry {entry}");
    let json = format!("{{\"actions\":[{}{{}}]}}", "{},".repeat(100_000));
    let err = request_json("ApplyBatch", json.as_bytes(), 1_000_000).unwrap_err();
    assert_eq!(err.path, format!("actions[{expected}]"));
    // Under a budget that holds them: the Vec at its capacity (131,072 entries) and its
    // previous buffer (65,536).
    let est = request_protobuf("ApplyBatch", &body, usize::MAX).unwrap();
    assert_eq!(
        est,
        size_of("referee.v1.ApplyBatchRequest") + 196_608 * entry
    );
    assert_eq!(
        request_json("ApplyBatch", json.as_bytes(), usize::MAX).unwrap(),
        { size_of("referee.v1.ApplyBatchRequest") + 196_608 * entry }
    );
}

/// Nested fields are named with their path; strings count their length; map entries
/// count; unknown fields and methods count nothing; malformed input ends the walk.
#[test]
fn paths_strings_maps_and_malformed_input() {
    let req = pb::v1::NewGameRequest {
        game: "1841".into(),
        seats: 4,
        options: [("variant".to_string(), "x".repeat(1000))].into(),
        ..Default::default()
    };
    let bytes = req.encode_to_vec();
    let est = request_protobuf("NewGame", &bytes, usize::MAX).unwrap();
    // An option other than `board` is never parsed: its key and value cost their length.
    assert!((1004..1500).contains(&est), "{est}");
    let err = request_protobuf("NewGame", &bytes, 900).unwrap_err();
    assert_eq!(err.path, "options.value");
    let json = br#"{"game": "1841", "options": {"variant": "xxxxxxxxxx"}, "unknown": [1,2,3]}"#;
    assert!(request_json("NewGame", json, usize::MAX).unwrap() < 300);
    assert_eq!(request_protobuf("Check", &bytes, 10).unwrap(), 0);
    // A length past the end: malformed, what was counted so far.
    assert!(request_protobuf("ApplyBatch", &[0x12, 0x7f, 0x00], usize::MAX).is_ok());
    let state = pb::v1::ApplyRequest {
        state: Some(pb::v1::GameState {
            game: "1841".into(),
            state: Some(pb::v1::game_state::State::G1841(pb::g1841::State {
                players: vec![Default::default(); 3000],
                ..Default::default()
            })),
            ..Default::default()
        }),
        ..Default::default()
    };
    let err = request_protobuf("Apply", &state.encode_to_vec(), 100_000).unwrap_err();
    assert!(err.path.starts_with("state.g1841.players["), "{}", err.path);
}

/// An 18xx.games export of empty actions counts every value.
#[test]
fn import_documents_count_their_values() {
    let doc = format!("{{\"actions\":[{}{{}}]}}", "{},".repeat(999));
    let scalars = r#"{"settings": [1, true, null, "abc"]}"#;
    // The text's copy, two containers, the object's leaf and its entry `settings` (the key
    // twice), a list of four `Value` slots, four scalars and the string's text twice.
    let leaf = IMPORT_BYTES_PER_MAP_LEAF;
    assert_eq!(
        import_json(scalars, usize::MAX).unwrap() as u64,
        scalars.len() as u64
            + 2 * IMPORT_BYTES_PER_CONTAINER
            + leaf
            + IMPORT_BYTES_PER_ENTRY
            + 2 * 8
            + 4 * IMPORT_VALUE_BYTES
            + 4 * IMPORT_BYTES_PER_SCALAR
            + 2 * 3
    );
    // The `actions` list: a record slot per element, whatever the element is.
    let actions_entry = IMPORT_BYTES_PER_ENTRY + 2 * "actions".len() as u64;
    let root = |doc: &str| doc.len() as u64 + IMPORT_BYTES_PER_CONTAINER + leaf;
    assert_eq!(
        import_json(&doc, usize::MAX).unwrap() as u64,
        root(&doc) + actions_entry + import_record_list_bytes(1000)
    );
    let zeros = format!("{{\"actions\":[{}0]}}", "0,".repeat(999));
    let lists = format!("{{\"actions\":[{}[]]}}", "[],".repeat(999));
    for d in [&zeros, &lists] {
        assert_eq!(
            import_json(d, usize::MAX).unwrap() as u64,
            root(d) + actions_entry + import_record_list_bytes(1000)
        );
    }
    // An action's `auto_actions` are records too (a record's own keys are its fields).
    let autos = r#"{"actions":[{"auto_actions":[1,2]}]}"#;
    assert_eq!(
        import_json(autos, usize::MAX).unwrap() as u64,
        root(autos) + actions_entry + import_record_list_bytes(1) + import_record_list_bytes(2)
    );
    // Elsewhere `actions` and `auto_actions` are values like any other: an object in them
    // costs its entries.
    let nested = r#"{"players":[{"actions":[{"a":1}]}],"auto_actions":[{"b":2}]}"#;
    let object_of_one =
        IMPORT_BYTES_PER_CONTAINER + leaf + IMPORT_BYTES_PER_ENTRY + 2 + IMPORT_BYTES_PER_SCALAR;
    let list_of = |element| IMPORT_BYTES_PER_CONTAINER + 4 * IMPORT_VALUE_BYTES + element;
    let entry = |key: &str| IMPORT_BYTES_PER_ENTRY + 2 * key.len() as u64;
    assert_eq!(
        import_json(nested, usize::MAX).unwrap() as u64,
        root(nested)
            + entry("players")
            + list_of(
                IMPORT_BYTES_PER_CONTAINER + leaf + entry("actions") + list_of(object_of_one)
            )
            + entry("auto_actions")
            + list_of(object_of_one)
    );
    // Object entries outside the records: each charged, its key's length twice.
    let keys = r#"{"result":{"abc":1,"de":2}}"#;
    assert_eq!(
        import_json(keys, usize::MAX).unwrap() as u64,
        root(keys)
            + IMPORT_BYTES_PER_CONTAINER
            + leaf
            + entry("result")
            + entry("abc")
            + entry("de")
            + 2 * IMPORT_BYTES_PER_SCALAR
    );
    // A long list stops at the element that passes the budget.
    let many = format!("{{\"actions\":[{}0]}}", "0,".repeat(999_999));
    assert!(import_json(&many, 48 << 20).is_err());
    assert_eq!(import_json(&doc, 1000).unwrap_err().path, "export_json");
    assert!(import_json("not json", 10).is_ok());
}

/// ImportGame's estimate counts what its export takes once imported, on both transports, so
/// that the import shares `--max-buffered-bytes` with the body (review of issue #24).
#[test]
fn import_requests_count_their_export() {
    let export = format!("{{\"actions\":[{}0]}}", "0,".repeat(9_999));
    let imported = import_json(&export, usize::MAX).unwrap();
    let wire = pb::v1::ImportGameRequest {
        export_json: export.clone(),
        ..Default::default()
    }
    .encode_to_vec();
    let empty = request_protobuf("ImportGame", &[], usize::MAX).unwrap();
    assert_eq!(
        request_protobuf("ImportGame", &wire, usize::MAX).unwrap(),
        empty + export.len() + imported
    );
    let json = serde_json::json!({ "exportJson": export }).to_string();
    assert_eq!(
        request_json("ImportGame", json.as_bytes(), usize::MAX).unwrap(),
        empty + export.len() + imported
    );
    let limit = imported / 2;
    assert_eq!(
        request_protobuf("ImportGame", &wire, limit)
            .unwrap_err()
            .path,
        "export_json"
    );
    assert_eq!(
        request_json("ImportGame", json.as_bytes(), limit)
            .unwrap_err()
            .path,
        "export_json"
    );
}

/// Only a text the engine may parse as an Autobahn board is charged BOARD_PARSE_FACTOR (24)
/// bytes per byte besides its length: the value of the `board` option when it begins with
/// `{` (another names a shipped board), a state's `board_json`, and only up to the engine's
/// limit (`MAX_BOARD_JSON_BYTES`, 256 KiB: a longer board is refused unparsed). Review of
/// issue #24: every option key and value was charged so, and a 3 MB option value was
/// estimated above 48 MiB and refused as too large to decode.
#[test]
fn board_texts_are_charged_only_where_parsed() {
    use referee_engine::autobahn::board::MAX_BOARD_JSON_BYTES;
    let new_game = |key: &str, value: &str| pb::v1::NewGameRequest {
        game: "autobahn".into(),
        seats: 2,
        options: [(key.to_string(), value.to_string())].into(),
        ..Default::default()
    };
    let estimate = |req: &pb::v1::NewGameRequest| {
        let proto = request_protobuf("NewGame", &req.encode_to_vec(), usize::MAX).unwrap();
        let json = serde_json::to_vec(req).unwrap();
        let json = request_json("NewGame", &json, usize::MAX).unwrap();
        (proto, json)
    };
    let parsed = 1000 * (BOARD_PARSE_FACTOR as usize);
    let board = format!("{{{}}}", " ".repeat(998));
    // A board text: charged 24 bytes per byte besides its length (protobuf and JSON).
    let (p, j) = estimate(&new_game("board", &board));
    assert!((1000 + parsed..1500 + parsed).contains(&p), "{p}");
    assert!((1000 + parsed..1500 + parsed).contains(&j), "{j}");
    // The same text under another key, a shipped board's name, a board past the engine's
    // limit: their length only.
    for req in [
        new_game("boards", &board),
        new_game("board", &format!("reconstructed-2026-1{}", " ".repeat(980))),
    ] {
        let (p, j) = estimate(&req);
        assert!(
            (1000..1500).contains(&p) && (1000..1500).contains(&j),
            "{p} {j}"
        );
    }
    let three_mb = format!("{{{}}}", " ".repeat(3_000_000));
    for req in [new_game("board", &three_mb), new_game("variant", &three_mb)] {
        let (p, j) = estimate(&req);
        assert!((3_000_000..3_001_000).contains(&p), "{p}");
        assert!((3_000_000..3_001_000).contains(&j), "{j}");
        assert!(p < DEFAULT_MAX_DECODED_BYTES);
    }
    // The largest board the engine parses is still charged.
    let largest = format!("{{{}}}", " ".repeat(MAX_BOARD_JSON_BYTES - 2));
    let (p, _) = estimate(&new_game("board", &largest));
    assert!(p > MAX_BOARD_JSON_BYTES * 25, "{p}");
    // A protobuf entry whose value comes before its key: charged as a board (the key is not
    // known yet when the value is read).
    let mut entry = Vec::new();
    prost::encoding::string::encode(2, &board, &mut entry);
    prost::encoding::string::encode(1, &"variant".to_string(), &mut entry);
    let mut req = pb::v1::NewGameRequest {
        game: "autobahn".into(),
        ..Default::default()
    }
    .encode_to_vec();
    prost::encoding::encode_key(3, prost::encoding::WireType::LengthDelimited, &mut req);
    prost::encoding::encode_varint(entry.len() as u64, &mut req);
    req.extend_from_slice(&entry);
    let decoded = pb::v1::NewGameRequest::decode(req.as_slice()).unwrap();
    assert_eq!(decoded.options.get("variant"), Some(&board));
    let p = request_protobuf("NewGame", &req, usize::MAX).unwrap();
    assert!(p > parsed, "{p}");
    // A state's `board_json` is parsed whatever it begins with.
    let state = pb::v1::ApplyRequest {
        state: Some(pb::v1::GameState {
            game: "autobahn".into(),
            state: Some(pb::v1::game_state::State::Autobahn(pb::autobahn::State {
                options: Some(pb::autobahn::Options {
                    board_json: format!("[{}]", " ".repeat(998)),
                    ..Default::default()
                }),
                ..Default::default()
            })),
            ..Default::default()
        }),
        ..Default::default()
    };
    let p = request_protobuf("Apply", &state.encode_to_vec(), usize::MAX).unwrap();
    assert!(p > parsed, "{p}");
}
