//! Smoke run of the load generator against the real server: every scenario (Apply,
//! LegalActions, View, Describe, DefaultAction on both games, and the echo baseline) gets
//! the answer it expects, with a few requests each, none shed. Checks behaviour only;
//! timings are never asserted.

mod common;

use std::time::Duration;

use common::Server;
use referee_loadgen::{Config, EXTRA_SCENARIOS, SCENARIOS, run};

#[tokio::test]
async fn every_scenario_answers_as_expected() {
    let server = Server::start(&[]);
    let cfg = Config {
        addr: server.addr.clone(),
        connections: 2,
        concurrency: 4,
        duration: Duration::from_secs(5),
        warmup: Duration::ZERO,
        scenarios: SCENARIOS
            .iter()
            .chain(&EXTRA_SCENARIOS)
            .map(|s| s.to_string())
            .collect(),
        max_requests: Some(12),
        server_pid: Some(server.child.id()),
    };
    let report = run(&cfg).await.expect("load run");
    let scenarios = report["scenarios"].as_array().expect("scenarios");
    assert_eq!(
        scenarios.len(),
        SCENARIOS.len() + EXTRA_SCENARIOS.len(),
        "{report}"
    );
    for s in scenarios {
        assert!(s["requests"].as_u64().unwrap_or(0) > 0, "{s}");
        assert_eq!(s["errors"], serde_json::json!({}), "{s}");
        assert_eq!(s["shed"], 0, "{s}");
        assert!(s["server_rss_kib"]["rss"].as_u64().unwrap_or(0) > 0, "{s}");
    }
    for key in ["apply-1841", "apply-autobahn"] {
        assert!(report["ratio_to_echo"][key].as_f64().is_some(), "{report}");
    }
}
