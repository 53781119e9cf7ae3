//! The top level of an export (`id`, `players`, `title`, `settings` with the options of 1841
//! §0.2, `status`, `acting`, `result`, `game_end_reason`), around its `actions`.

use serde_json::{Value, json};

use super::ExportSettings;
use crate::Game;
use crate::g1841::G1841;
use crate::g1841::import18xx::{self, ExportPlayer};
use crate::g1841::options::{OPTION_NAMES, Options};
use crate::g1841::state::{Round, State};

/// The `optional_rules` symbols of `options` (the option names set, 1841 §0.2): the inverse of
/// [`Options::from_optional_rules`].
pub fn optional_rules(options: &Options) -> Vec<String> {
    let on = [
        options.version_1,
        options.lite,
        options.p2p_purchases,
        options.sfli_run_variant,
    ];
    OPTION_NAMES
        .iter()
        .zip(on)
        .filter(|(_, on)| *on)
        .map(|(n, _)| n.to_string())
        .collect()
}

pub(super) fn player_id_json(id: &str) -> Value {
    id.parse::<i64>()
        .map_or_else(|_| Value::from(id), Value::from)
}

pub(super) fn top_level(
    options: &Options,
    players: &[ExportPlayer],
    state: &State,
    actions: Vec<Value>,
    settings: &ExportSettings,
) -> Value {
    let outcome = G1841::outcome(state);
    let acting: Vec<Value> = G1841::to_act(state)
        .into_iter()
        .filter_map(|s| players.get(s as usize))
        .map(|p| player_id_json(&p.id))
        .collect();
    let (round, turn) = match &state.round {
        Round::ConcessionRound(_) => ("Concession Round", 1),
        Round::StockRound(r) => ("Stock Round", r.number),
        Round::OperatingRound(r) => ("Operating Round", r.stock_round),
    };
    let mut root = json!({
        "id": settings.id.unwrap_or(0),
        "description": settings.description.clone().unwrap_or_else(|| {
            format!("Exported by Referee ({})", crate::RULES_VERSION)
        }),
        "user": {"id": 0, "name": "You"},
        "players": players
            .iter()
            .map(|p| json!({"id": player_id_json(&p.id), "name": p.name}))
            .collect::<Vec<_>>(),
        "min_players": 3,
        "max_players": if options.lite { 6 } else { 8 },
        "title": "1841",
        "settings": {
            "seed": 0,
            "is_async": true,
            "unlisted": true,
            "auto_routing": false,
            "player_order": null,
            "optional_rules": optional_rules(options),
            // Referee's FAQ options (unknown to 18xx.games), so that ImportGame restores the
            // same rules; only the ones set explicitly (unset = the version default).
            import18xx::FAQ_OPTIONS_SETTING: options
                .faq_options_set()
                .into_iter()
                .map(|(name, on)| (name.to_string(), Value::Bool(on)))
                .collect::<serde_json::Map<String, Value>>(),
        },
        "user_settings": null,
        "status": if outcome.is_some() { "finished" } else { "active" },
        "turn": turn,
        "round": round,
        "acting": acting,
        "result": {},
        "actions": actions,
        "loaded": true,
        "created_at": 0,
        "updated_at": 0,
    });
    root[import18xx::EXPORTED_BY] = Value::from(crate::RULES_VERSION);
    if let Some(o) = outcome {
        root["result"] = Value::Object(
            players
                .iter()
                .zip(&o.scores)
                .map(|(p, score)| (p.id.clone(), Value::from(*score)))
                .collect(),
        );
        root["game_end_reason"] = Value::from(o.end_reason);
    }
    root
}
