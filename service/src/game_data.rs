//! GetGameData: the static data a UI draws a game with (the engine's
//! `referee_engine::game_data` documents), with a content hash for caching.
//!
//! The documents of the shipped variants (1841 `v2`, `v1`, `lite`; the default Autobahn board)
//! are built once per process; a platform's own Autobahn board (option `board`) is built per
//! call, bounded by the request size limit like every option.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};
use tonic::Status;

use crate::games::WireGame;
use crate::games::autobahn::{WireAutobahn, default_board};
use crate::games::g1841::Wire1841;
use crate::pb::v1 as pb;

/// One built document: variant, JSON text, content hash.
#[derive(Debug)]
pub struct Document {
    /// `v2`, `v1`, `lite`, or the Autobahn board id.
    pub variant: String,
    /// The JSON text (object keys sorted).
    pub json: String,
    /// `sha256:<hex>` of `json`.
    pub content_hash: String,
}

impl Document {
    fn new(variant: &str, value: &serde_json::Value) -> Document {
        let json = value.to_string();
        let content_hash = format!("sha256:{}", hex::encode(Sha256::digest(json.as_bytes())));
        Document {
            variant: variant.to_string(),
            json,
            content_hash,
        }
    }
}

fn internal(e: String) -> Status {
    Status::internal(format!("game data: {e} (a build defect; please report)"))
}

/// The document of `game` with `options` (NewGame's option names and values).
///
/// Errors: NOT_FOUND (unknown game), INVALID_ARGUMENT (missing game id, a bad option).
pub fn document(game: &str, options: &BTreeMap<String, String>) -> Result<Arc<Document>, Status> {
    match game {
        Wire1841::ID => {
            let o = Wire1841::options_from_pb(options)?;
            let variant = referee_engine::g1841::map::map(&o).ruleset;
            static V2: OnceLock<Arc<Document>> = OnceLock::new();
            static V1: OnceLock<Arc<Document>> = OnceLock::new();
            static LITE: OnceLock<Arc<Document>> = OnceLock::new();
            let cell = match variant {
                "lite" => &LITE,
                "v1" => &V1,
                _ => &V2,
            };
            if let Some(d) = cell.get() {
                return Ok(d.clone());
            }
            let value = referee_engine::game_data::g1841(&o).map_err(internal)?;
            Ok(cell
                .get_or_init(|| Arc::new(Document::new(variant, &value)))
                .clone())
        }
        WireAutobahn::ID => {
            let o = WireAutobahn::options_from_pb(options)?;
            let shipped = default_board();
            if Arc::ptr_eq(&o.board, &shipped) || *o.board == *shipped {
                static DEFAULT: OnceLock<Arc<Document>> = OnceLock::new();
                return Ok(DEFAULT
                    .get_or_init(|| {
                        let value = referee_engine::game_data::autobahn(&shipped);
                        Arc::new(Document::new(&shipped.def.board_id, &value))
                    })
                    .clone());
            }
            let value = referee_engine::game_data::autobahn(&o.board);
            Ok(Arc::new(Document::new(&o.board.def.board_id, &value)))
        }
        "" => Err(Status::invalid_argument("game: missing game id")),
        other => Err(Status::not_found(format!(
            "game: unknown game `{}` (ListGames lists the games this server knows)",
            crate::games::clip(other)
        ))),
    }
}

/// GetGameData: the document with its hash, or only `not_modified` when the caller's
/// `if_none_match` is the current hash.
pub fn get_game_data(req: &pb::GetGameDataRequest) -> Result<pb::GetGameDataResponse, Status> {
    let doc = document(&req.game, &req.options)?;
    let not_modified = !req.if_none_match.is_empty() && req.if_none_match == doc.content_hash;
    Ok(pb::GetGameDataResponse {
        game: req.game.clone(),
        variant: doc.variant.clone(),
        format_version: referee_engine::game_data::FORMAT_VERSION,
        content_hash: doc.content_hash.clone(),
        data_json: if not_modified {
            String::new()
        } else {
            doc.json.clone()
        },
        not_modified,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(game: &str, options: &[(&str, &str)]) -> pb::GetGameDataRequest {
        pb::GetGameDataRequest {
            game: game.into(),
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            if_none_match: String::new(),
        }
    }

    #[test]
    fn each_variant_has_its_document_and_hash() {
        let v2 = get_game_data(&req("1841", &[])).unwrap();
        let v1 = get_game_data(&req("1841", &[("version_1", "true")])).unwrap();
        let lite = get_game_data(&req("1841", &[("lite", "true")])).unwrap();
        assert_eq!(
            (
                v2.variant.as_str(),
                v1.variant.as_str(),
                lite.variant.as_str()
            ),
            ("v2", "v1", "lite")
        );
        assert_ne!(v2.content_hash, v1.content_hash);
        assert_ne!(v2.content_hash, lite.content_hash);
        assert!(v2.content_hash.starts_with("sha256:") && v2.content_hash.len() == 7 + 64);
        // A rules-only option leaves the document as it is.
        let faq = get_game_data(&req("1841", &[("merger_price_cap", "true")])).unwrap();
        assert_eq!(faq.content_hash, v2.content_hash);
        let doc: serde_json::Value = serde_json::from_str(&v2.data_json).unwrap();
        assert_eq!(doc["variant"], "v2");
        let ab = get_game_data(&req("autobahn", &[])).unwrap();
        assert_eq!(ab.variant, "reconstructed-2026-3");
        assert_eq!(ab.format_version, 1);
    }

    #[test]
    fn a_current_hash_gets_not_modified() {
        let first = get_game_data(&req("autobahn", &[])).unwrap();
        let mut again = req("autobahn", &[]);
        again.if_none_match = first.content_hash.clone();
        let second = get_game_data(&again).unwrap();
        assert!(second.not_modified);
        assert!(second.data_json.is_empty());
        assert_eq!(second.content_hash, first.content_hash);
        again.if_none_match = "sha256:00".into();
        assert!(!get_game_data(&again).unwrap().not_modified);
    }

    #[test]
    fn bad_requests_are_named() {
        assert_eq!(
            get_game_data(&req("chess", &[])).unwrap_err().code(),
            tonic::Code::NotFound
        );
        assert_eq!(
            get_game_data(&req("", &[])).unwrap_err().code(),
            tonic::Code::InvalidArgument
        );
        let e = get_game_data(&req("1841", &[("no_such", "true")])).unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        assert!(e.message().contains("no_such"), "{}", e.message());
    }
}
