//! # referee-loadgen
//!
//! Drives a running Referee server over gRPC with many concurrent requests and reports
//! requests/s, latency percentiles (HdrHistogram) and errors per scenario. See
//! docs/PERFORMANCE.md for the method.
//!
//! **Scenarios.** `apply-1841`, `legal-1841`, `view-1841` use a mid-game 1841 state (the
//! state before action 180 of the recorded game 132002, [`MID_ACTION_1841`]) and the recorded action that
//! follows; `apply-autobahn`, `legal-autobahn`, `view-autobahn` use a state at 40 % of a
//! seeded random 4-player Autobahn game and its next action. `echo-1841` and `echo-autobahn`
//! are the **echo baseline**: the very same `Apply` request bytes with the envelope's
//! `schema_version` set above what the server reads, so the server decodes the whole request
//! (prost, same size) and answers `FAILED_PRECONDITION` at once, through the same transport,
//! layers and tracing span, without converting, validating or applying anything. Results are
//! given as a ratio to that baseline, which carries over between machines.
//!
//! `describe-*` and `default-*` ([`EXTRA_SCENARIOS`]) call Describe (the same action) and
//! DefaultAction (the same seat) on those positions. A call refused by load shedding
//! (RESOURCE_EXHAUSTED) is counted as shed, with its own latencies, not as an error.
//!
//! **Cheap client.** Requests are encoded once; the load phase sends the same bytes with a
//! raw codec and does not decode answers (each scenario's answer is checked once, typed,
//! before the load), so on a small machine the client takes as little CPU as possible from
//! the server.

pub mod attack;
pub mod soak;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use bytes::{Buf, BufMut, Bytes};
use hdrhistogram::Histogram;
use prost::Message;
use referee_engine::autobahn::{self, Autobahn};
use referee_engine::g1841::{G1841, import18xx::parse_export};
use referee_engine::{Game, Seat};
use referee_service::games::autobahn::WireAutobahn;
use referee_service::games::g1841::Wire1841;
use referee_service::games::{WireGame, encode_state};
use referee_service::pb::v1 as pb;
use serde_json::{Value, json};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Status};

/// The recorded 1841 game whose replay gives the mid-game state.
pub const FIXTURE_1841: &str = include_str!("../../tests/fixtures/1841/132002.json");

/// Every scenario, in the order a full run measures them.
pub const SCENARIOS: [&str; 8] = [
    "echo-1841",
    "apply-1841",
    "legal-1841",
    "view-1841",
    "echo-autobahn",
    "apply-autobahn",
    "legal-autobahn",
    "view-autobahn",
];

/// Scenarios not in a default run: Describe and DefaultAction of the same positions (the
/// load-shedding figures of docs/PERFORMANCE.md load every call on one state).
pub const EXTRA_SCENARIOS: [&str; 4] = [
    "describe-1841",
    "default-1841",
    "describe-autobahn",
    "default-autobahn",
];

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Server address, `HOST:PORT`.
    pub addr: String,
    /// HTTP/2 connections.
    pub connections: usize,
    /// Requests in flight (spread over the connections).
    pub concurrency: usize,
    /// Measured time per scenario.
    pub duration: Duration,
    /// Unmeasured warm-up per scenario.
    pub warmup: Duration,
    /// Scenarios to run, in order.
    pub scenarios: Vec<String>,
    /// Stop a scenario after this many measured requests (bounded runs, tests).
    pub max_requests: Option<u64>,
    /// A server process id whose resident memory (VmRSS, VmHWM) is reported.
    pub server_pid: Option<u32>,
}

/// One prepared request: the RPC path, its encoded bytes and the gRPC code that counts as
/// success.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Scenario name.
    pub name: String,
    /// `/referee.v1.Referee/Apply`, …
    pub path: &'static str,
    /// Encoded request message.
    pub body: Bytes,
    /// The answer expected (OK, or FAILED_PRECONDITION for the echo baseline).
    pub expect: Code,
}

/// A realistic state of one game with the seat to act and the action it takes next.
pub struct Position {
    /// The envelope.
    pub state: pb::GameState,
    /// The acting seat.
    pub seat: Seat,
    /// Its next action.
    pub action: pb::Action,
}

/// Index of the recorded action of game 132002 whose state is the mid-game 1841 position:
/// the 180th action, an operating round of phase 3 (where the replay stopped when the load
/// generator was written; the whole game replays since, and keeping the position keeps the
/// figures comparable).
pub const MID_ACTION_1841: u64 = 179;

/// The mid-game 1841 position: the replay of game 132002 up to its action
/// [`MID_ACTION_1841`] (or as far as it goes); the state before that action, with it.
pub fn position_1841() -> anyhow::Result<Position> {
    let export = parse_export(FIXTURE_1841).map_err(|e| anyhow::anyhow!("fixture: {e}"))?;
    let options = export
        .options()
        .map_err(|e| anyhow::anyhow!("fixture: {e}"))?;
    let mut s = G1841::setup(&options, export.players.len() as u32, 0)?;
    let mut last = None;
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
        let before = s.clone();
        if G1841::apply(&mut s, seat, &action).is_err() {
            break;
        }
        last = Some((before, count, seat, action));
        if count >= MID_ACTION_1841 {
            break;
        }
        count += 1;
    }
    let (state, n, seat, action) =
        last.ok_or_else(|| anyhow::anyhow!("the 1841 replay applied nothing"))?;
    Ok(Position {
        state: encode_state::<Wire1841>(&state, n),
        seat,
        action: Wire1841::action_to_pb(&action),
    })
}

/// The mid-game Autobahn position: 40 % into a seeded random 4-player game.
pub fn position_autobahn() -> anyhow::Result<Position> {
    let mut s = Autobahn::setup(&autobahn::Options::default(), 4, 7)?;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut rng = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n.max(1) as u64) as usize
    };
    // Random games last about 170 actions; stop at 70.
    for _ in 0..70 {
        let seat = Autobahn::to_act(&s)
            .first()
            .copied()
            .ok_or_else(|| anyhow::anyhow!("the Autobahn game ended early"))?;
        let legal = Autobahn::legal_actions(&s, seat);
        let a = legal[rng(legal.len())].clone();
        Autobahn::apply(&mut s, seat, &a).map_err(|r| anyhow::anyhow!("{r}"))?;
    }
    let seat = Autobahn::to_act(&s)
        .first()
        .copied()
        .ok_or_else(|| anyhow::anyhow!("the Autobahn game ended early"))?;
    let legal = Autobahn::legal_actions(&s, seat);
    let action = legal
        .iter()
        .find(|a| !matches!(a, autobahn::Action::TakeBackCards))
        .unwrap_or(&legal[0]);
    Ok(Position {
        state: encode_state::<WireAutobahn>(&s, s.action_count),
        seat,
        action: WireAutobahn::action_to_pb(action),
    })
}

/// The request of scenario `name`.
pub fn prepare(name: &str, p1841: &Position, pab: &Position) -> anyhow::Result<Prepared> {
    let (kind, game) = name
        .split_once('-')
        .ok_or_else(|| anyhow::anyhow!("unknown scenario `{name}`"))?;
    let p = match game {
        "1841" => p1841,
        "autobahn" => pab,
        _ => anyhow::bail!("unknown scenario `{name}`"),
    };
    let apply = |state: pb::GameState| pb::ApplyRequest {
        state: Some(state),
        seat: p.seat,
        action: Some(p.action.clone()),
        ..Default::default()
    };
    let (path, body, expect) = match kind {
        "apply" => (
            "/referee.v1.Referee/Apply",
            apply(p.state.clone()).encode_to_vec(),
            Code::Ok,
        ),
        "echo" => {
            let mut state = p.state.clone();
            state.schema_version = u32::MAX;
            (
                "/referee.v1.Referee/Apply",
                apply(state).encode_to_vec(),
                Code::FailedPrecondition,
            )
        }
        "legal" => (
            "/referee.v1.Referee/LegalActions",
            pb::LegalActionsRequest {
                state: Some(p.state.clone()),
                seat: p.seat,
                ..Default::default()
            }
            .encode_to_vec(),
            Code::Ok,
        ),
        "describe" => (
            "/referee.v1.Referee/Describe",
            pb::DescribeRequest {
                state: Some(p.state.clone()),
                seat: p.seat,
                action: Some(p.action.clone()),
                ..Default::default()
            }
            .encode_to_vec(),
            Code::Ok,
        ),
        "default" => (
            "/referee.v1.Referee/DefaultAction",
            pb::DefaultActionRequest {
                state: Some(p.state.clone()),
                seat: p.seat,
                ..Default::default()
            }
            .encode_to_vec(),
            Code::Ok,
        ),
        "view" => (
            "/referee.v1.Referee/View",
            pb::ViewRequest {
                state: Some(p.state.clone()),
                seat: Some(p.seat),
                ..Default::default()
            }
            .encode_to_vec(),
            Code::Ok,
        ),
        _ => anyhow::bail!("unknown scenario `{name}`"),
    };
    Ok(Prepared {
        name: name.to_string(),
        path,
        body: Bytes::from(body),
        expect,
    })
}

/// Sends pre-encoded request bytes; answers are counted, not decoded.
#[derive(Clone, Copy, Debug, Default)]
struct RawCodec;

#[derive(Clone, Copy, Debug, Default)]
struct RawEncoder;

#[derive(Clone, Copy, Debug, Default)]
struct RawDecoder;

impl Codec for RawCodec {
    type Encode = Bytes;
    type Decode = usize;
    type Encoder = RawEncoder;
    type Decoder = RawDecoder;
    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }
    fn decoder(&mut self) -> RawDecoder {
        RawDecoder
    }
}

impl Encoder for RawEncoder {
    type Item = Bytes;
    type Error = Status;
    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for RawDecoder {
    type Item = usize;
    type Error = Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<usize>, Status> {
        let n = src.remaining();
        src.advance(n);
        Ok(Some(n))
    }
}

/// One raw unary call; `Ok` with the answer's size, or the status.
pub(crate) async fn call(channel: Channel, p: &Prepared) -> Result<usize, Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|e| Status::unavailable(e.to_string()))?;
    let path = http::uri::PathAndQuery::from_static(p.path);
    grpc.unary(tonic::Request::new(p.body.clone()), path, RawCodec)
        .await
        .map(|r| r.into_inner())
}

/// Checks once, typed, that the server answers scenario `p` as expected (Apply accepted,
/// LegalActions and View answered, the echo refused with FAILED_PRECONDITION).
async fn check(channel: Channel, p: &Prepared) -> anyhow::Result<()> {
    let mut client =
        pb::referee_client::RefereeClient::new(channel).max_decoding_message_size(64 << 20);
    let result = match p.path {
        "/referee.v1.Referee/Apply" => {
            let req = pb::ApplyRequest::decode(p.body.clone())?;
            client.apply(req).await.map(|r| {
                matches!(
                    r.into_inner().result,
                    Some(pb::apply_response::Result::Accepted(_))
                )
            })
        }
        "/referee.v1.Referee/LegalActions" => {
            let req = pb::LegalActionsRequest::decode(p.body.clone())?;
            client.legal_actions(req).await.map(|_| true)
        }
        "/referee.v1.Referee/Describe" => {
            let req = pb::DescribeRequest::decode(p.body.clone())?;
            client.describe(req).await.map(|r| r.into_inner().legal)
        }
        "/referee.v1.Referee/DefaultAction" => {
            let req = pb::DefaultActionRequest::decode(p.body.clone())?;
            client.default_action(req).await.map(|_| true)
        }
        _ => {
            let req = pb::ViewRequest::decode(p.body.clone())?;
            client.view(req).await.map(|_| true)
        }
    };
    match (result, p.expect) {
        (Ok(true), Code::Ok) => Ok(()),
        (Ok(false), _) => anyhow::bail!("{}: the action was rejected", p.name),
        (Err(s), want) if s.code() == want => Ok(()),
        (Err(s), _) => anyhow::bail!("{}: {:?}: {}", p.name, s.code(), s.message()),
        (Ok(_), want) => anyhow::bail!("{}: expected {want:?}, the call succeeded", p.name),
    }
}

/// Resident memory of a process: `(VmRSS, VmHWM)` in KiB, from `/proc`.
pub fn rss_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// Result of one scenario.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Scenario name.
    pub name: String,
    /// Request size in bytes.
    pub request_bytes: usize,
    /// Measured requests answered as expected.
    pub ok: u64,
    /// Other answers, by gRPC code (load shedding not included: [`Outcome::shed`]).
    pub errors: BTreeMap<String, u64>,
    /// Calls refused by load shedding (RESOURCE_EXHAUSTED).
    pub shed: u64,
    /// Latencies of the shed calls in microseconds (how early overload is refused).
    pub shed_latency: Histogram<u64>,
    /// Measured seconds.
    pub seconds: f64,
    /// Latencies in microseconds.
    pub latency: Histogram<u64>,
    /// Server memory after the scenario, `(VmRSS, VmHWM)` KiB.
    pub server_rss_kib: Option<(u64, u64)>,
}

impl Outcome {
    /// Requests per second answered as expected.
    pub fn rps(&self) -> f64 {
        if self.seconds > 0.0 {
            self.ok as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// The scenario as JSON (latencies in milliseconds).
    pub fn to_json(&self) -> Value {
        let ms = |q: f64| self.latency.value_at_quantile(q) as f64 / 1000.0;
        json!({
            "scenario": self.name,
            "request_bytes": self.request_bytes,
            "requests": self.ok,
            "errors": self.errors,
            "shed": self.shed,
            "shed_latency_ms": {
                "p50": self.shed_latency.value_at_quantile(0.50) as f64 / 1000.0,
                "p99": self.shed_latency.value_at_quantile(0.99) as f64 / 1000.0,
            },
            "seconds": self.seconds,
            "rps": self.rps(),
            "latency_ms": {
                "p50": ms(0.50), "p90": ms(0.90), "p99": ms(0.99),
                "max": self.latency.max() as f64 / 1000.0,
                "mean": self.latency.mean() / 1000.0,
            },
            "server_rss_kib": self.server_rss_kib.map(|(rss, hwm)| json!({"rss": rss, "peak": hwm})),
        })
    }
}

/// Runs one scenario: `concurrency` tasks over `channels`, warm-up then measurement.
pub async fn run_scenario(
    cfg: &Config,
    channels: &[Channel],
    p: &Prepared,
) -> anyhow::Result<Outcome> {
    check(channels[0].clone(), p).await?;
    let start = Instant::now();
    let measure_from = start + cfg.warmup;
    let end = measure_from + cfg.duration;
    let budget = cfg.max_requests.unwrap_or(u64::MAX);
    let per_task = budget.div_ceil(cfg.concurrency.max(1) as u64);
    let mut tasks = Vec::new();
    for i in 0..cfg.concurrency.max(1) {
        let channel = channels[i % channels.len()].clone();
        let p = p.clone();
        tasks.push(tokio::spawn(async move {
            let mut h = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).expect("histogram");
            let mut hs = h.clone();
            let mut shed = 0u64;
            let mut ok = 0u64;
            let mut errors: BTreeMap<String, u64> = BTreeMap::new();
            let mut measured = 0u64;
            loop {
                let t0 = Instant::now();
                if t0 >= end || measured >= per_task {
                    break;
                }
                let r = call(channel.clone(), &p).await;
                let t1 = Instant::now();
                if t0 < measure_from {
                    continue;
                }
                measured += 1;
                let good = match &r {
                    Ok(_) => p.expect == Code::Ok,
                    Err(s) => s.code() == p.expect,
                };
                let us = (t1 - t0).as_micros().clamp(1, 60_000_000) as u64;
                if good {
                    ok += 1;
                    let _ = h.record(us);
                } else if matches!(&r, Err(s) if s.code() == Code::ResourceExhausted) {
                    shed += 1;
                    let _ = hs.record(us);
                } else {
                    let code = match r {
                        Ok(_) => "OK (unexpected)".to_string(),
                        Err(s) => format!("{:?}", s.code()),
                    };
                    *errors.entry(code).or_default() += 1;
                }
            }
            (h, ok, errors, Instant::now(), hs, shed)
        }));
    }
    let mut latency = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)?;
    let mut shed_latency = latency.clone();
    let mut shed = 0;
    let mut ok = 0;
    let mut errors: BTreeMap<String, u64> = BTreeMap::new();
    let mut finished = measure_from;
    for t in tasks {
        let (h, n, e, at, hs, sh) = t.await?;
        latency.add(&h)?;
        shed_latency.add(&hs)?;
        shed += sh;
        ok += n;
        for (k, v) in e {
            *errors.entry(k).or_default() += v;
        }
        finished = finished.max(at);
    }
    let seconds = finished
        .saturating_duration_since(measure_from)
        .as_secs_f64();
    Ok(Outcome {
        name: p.name.clone(),
        request_bytes: p.body.len(),
        ok,
        errors,
        shed,
        shed_latency,
        seconds,
        latency,
        server_rss_kib: cfg.server_pid.and_then(rss_kib),
    })
}

/// Opens the connections (one HTTP/2 connection each).
pub async fn connect(cfg: &Config) -> anyhow::Result<Vec<Channel>> {
    let mut out = Vec::new();
    for _ in 0..cfg.connections.max(1) {
        // From 127.0.0.2 when the server is on 127.0.0.1: another client than the attack
        // suite's (the soak mixes them; the server gives each client address its share of
        // the open calls, `--max-open-calls-per-client`).
        let ch = Endpoint::from_shared(format!("http://{}", cfg.addr))?
            .connect_timeout(Duration::from_secs(5))
            .tcp_nodelay(true)
            .local_address(crate::attack::other_client_address(&cfg.addr))
            .connect()
            .await?;
        out.push(ch);
    }
    Ok(out)
}

/// Runs every configured scenario and returns the JSON report: the scenarios, and per game
/// the ratio of each RPC's requests/s to the echo baseline.
pub async fn run(cfg: &Config) -> anyhow::Result<Value> {
    let p1841 = position_1841()?;
    let pab = position_autobahn()?;
    let channels = connect(cfg).await?;
    let mut outcomes = Vec::new();
    for name in &cfg.scenarios {
        let p = prepare(name, &p1841, &pab)?;
        outcomes.push(run_scenario(cfg, &channels, &p).await?);
    }
    let rps = |n: &str| outcomes.iter().find(|o| o.name == n).map(Outcome::rps);
    let mut ratios = BTreeMap::new();
    for game in ["1841", "autobahn"] {
        if let Some(echo) = rps(&format!("echo-{game}")).filter(|e| *e > 0.0) {
            for kind in ["apply", "legal", "view"] {
                if let Some(r) = rps(&format!("{kind}-{game}")) {
                    ratios.insert(format!("{kind}-{game}"), r / echo);
                }
            }
        }
    }
    Ok(json!({
        "addr": cfg.addr,
        "connections": cfg.connections,
        "concurrency": cfg.concurrency,
        "duration_s": cfg.duration.as_secs_f64(),
        "warmup_s": cfg.warmup.as_secs_f64(),
        "scenarios": outcomes.iter().map(Outcome::to_json).collect::<Vec<_>>(),
        "ratio_to_echo": ratios,
    }))
}

/// A plain-text table of a report from [`run`].
pub fn table(report: &Value) -> String {
    let mut s = format!(
        "{:<16} {:>7} {:>10} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>10}\n",
        "scenario",
        "bytes",
        "req/s",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "shed",
        "errors",
        "rss MiB"
    );
    for o in report["scenarios"].as_array().into_iter().flatten() {
        let errors: u64 = o["errors"]
            .as_object()
            .map_or(0, |m| m.values().filter_map(Value::as_u64).sum());
        let rss = o["server_rss_kib"]["rss"]
            .as_u64()
            .map_or("-".to_string(), |k| format!("{:.1}", k as f64 / 1024.0));
        s += &format!(
            "{:<16} {:>7} {:>10.0} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>8} {:>8} {:>10}\n",
            o["scenario"].as_str().unwrap_or(""),
            o["request_bytes"],
            o["rps"].as_f64().unwrap_or(0.0),
            o["latency_ms"]["p50"].as_f64().unwrap_or(0.0),
            o["latency_ms"]["p90"].as_f64().unwrap_or(0.0),
            o["latency_ms"]["p99"].as_f64().unwrap_or(0.0),
            o["latency_ms"]["max"].as_f64().unwrap_or(0.0),
            o["shed"].as_u64().unwrap_or(0),
            errors,
            rss,
        );
    }
    if let Some(r) = report["ratio_to_echo"].as_object() {
        for (k, v) in r {
            s += &format!("{k}: {:.2} × echo\n", v.as_f64().unwrap_or(0.0));
        }
    }
    s
}
