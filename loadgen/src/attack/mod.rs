//! The attack suite (`referee-attack`, `scripts/attack.sh`; docs/SECURITY.md): every attack
//! of issue #24 and the earlier ones (slowloris, HTTP/2 floods, compression bombs, tampered
//! sealed tokens), replayed against a real server on loopback, each bounded in time and
//! count. Per attack it records what was sent, what the server answered, whether that is
//! the documented bound, the server's peak resident memory during the attack (`VmHWM` after
//! resetting it through `/proc/PID/clear_refs`) and the CPU time the server spent.
//!
//! After every attack an honest call (`ListGames`) must be answered: the server survived.

pub mod calls;
pub mod decoded;
pub mod h2raw;
pub mod sealed;
pub mod states;
pub mod streams;
pub mod transport;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tonic::transport::{Channel, Endpoint};

use referee_service::pb::v1 as pb;

use crate::rss_kib;

/// A server under attack.
#[derive(Clone, Debug)]
pub struct Target {
    /// `HOST:PORT`.
    pub addr: String,
    /// Its process id (memory, CPU).
    pub pid: u32,
}

/// The limits the server was started with (the attacks check these bounds).
#[derive(Clone, Debug)]
pub struct Limits {
    /// `--max-concurrency`.
    pub max_concurrency: usize,
    /// `--max-streams-per-connection`.
    pub max_streams: usize,
    /// `--max-connections`.
    pub max_connections: usize,
    /// `--idle-timeout-at-limit-ms`.
    pub idle_at_limit: Duration,
    /// `--max-request-bytes`.
    pub max_request_bytes: usize,
    /// `--max-buffered-bytes`.
    pub max_buffered_bytes: usize,
    /// `--max-unsent-bytes`.
    pub max_unsent_bytes: usize,
    /// `--max-open-calls`.
    pub max_open_calls: usize,
    /// `--max-open-calls-per-client`.
    pub max_open_calls_per_client: usize,
    /// `--max-streaming-calls-per-client`; `None`: the server's default, a quarter of the
    /// stream slots ([`Limits::streaming_calls_per_client`]).
    pub max_streaming_calls_per_client: Option<usize>,
    /// `--header-read-timeout-ms`.
    pub header_read: Duration,
    /// `--body-timeout-ms`.
    pub body_timeout: Duration,
    /// `--send-timeout-ms`.
    pub send_timeout: Duration,
    /// `--request-timeout-ms`.
    pub request_timeout: Duration,
}

impl Limits {
    /// The server's defaults (docs/SECURITY.md "Limits").
    pub fn server_defaults() -> Self {
        Self {
            max_concurrency: 256,
            max_streams: 32,
            max_connections: 1024,
            idle_at_limit: Duration::from_secs(1),
            max_request_bytes: 4 << 20,
            max_buffered_bytes: 64 << 20,
            max_unsent_bytes: 64 << 20,
            max_open_calls: 2048,
            max_open_calls_per_client: 512,
            max_streaming_calls_per_client: None,
            header_read: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            send_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(30),
        }
    }

    /// What `referee-attack` starts its servers with: the defaults for every memory bound,
    /// the concurrency limit of the overload attack (32), and short timeouts so that
    /// the attacks that wait for one end soon.
    pub fn suite() -> Self {
        Self {
            max_concurrency: 32,
            header_read: Duration::from_secs(2),
            body_timeout: Duration::from_secs(3),
            send_timeout: Duration::from_secs(3),
            request_timeout: Duration::from_secs(6),
            ..Self::server_defaults()
        }
    }

    /// The slots server-streaming calls may hold at once: half of `--max-concurrency`
    /// (`referee_service::server::stream_slots`).
    pub fn stream_slots(&self) -> usize {
        referee_service::server::stream_slots(self.max_concurrency)
    }

    /// The stream slots one client address may hold: `--max-streaming-calls-per-client`, by
    /// default a quarter of [`Limits::stream_slots`].
    pub fn streaming_calls_per_client(&self) -> usize {
        self.max_streaming_calls_per_client.unwrap_or_else(|| {
            referee_service::server::default_streaming_calls_per_client(self.max_concurrency)
        })
    }

    /// The `referee serve` flags that set these limits.
    pub fn flags(&self) -> Vec<String> {
        let ms = |d: Duration| d.as_millis().to_string();
        let streaming_share = self
            .max_streaming_calls_per_client
            .map(|n| ("--max-streaming-calls-per-client", n.to_string()));
        [
            ("--max-concurrency", self.max_concurrency.to_string()),
            ("--max-streams-per-connection", self.max_streams.to_string()),
            ("--max-connections", self.max_connections.to_string()),
            ("--idle-timeout-at-limit-ms", ms(self.idle_at_limit)),
            ("--max-request-bytes", self.max_request_bytes.to_string()),
            ("--max-buffered-bytes", self.max_buffered_bytes.to_string()),
            ("--max-unsent-bytes", self.max_unsent_bytes.to_string()),
            ("--max-open-calls", self.max_open_calls.to_string()),
            (
                "--max-open-calls-per-client",
                self.max_open_calls_per_client.to_string(),
            ),
            ("--header-read-timeout-ms", ms(self.header_read)),
            ("--body-timeout-ms", ms(self.body_timeout)),
            ("--send-timeout-ms", ms(self.send_timeout)),
            ("--request-timeout-ms", ms(self.request_timeout)),
        ]
        .into_iter()
        .chain(streaming_share)
        .flat_map(|(f, v)| [f.to_string(), v])
        .collect()
    }
}

/// Everything an attack needs.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// The open-mode server.
    pub open: Target,
    /// The sealed-mode server and its arbiter credential (the sealed attacks skip without).
    pub sealed: Option<(Target, String)>,
    /// The servers' limits.
    pub limits: Limits,
    /// Scale: `Short` (CI), `Full` (the counts of the issue), `Soak` (mixed into honest load:
    /// the attacks that exist to fill every slot or connection are scaled down).
    pub scale: Scale,
}

/// How hard the attacks push.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// The CI run: each attack at a small count.
    Short,
    /// The counts of issue #24.
    Full,
    /// Mixed into honest traffic by `referee-soak --hostile`.
    Soak,
}

impl Ctx {
    /// `short`, `full` or `soak` count.
    pub fn pick(&self, short: usize, full: usize, soak: usize) -> usize {
        match self.scale {
            Scale::Short => short,
            Scale::Full => full,
            Scale::Soak => soak,
        }
    }

    /// A gRPC channel to the open server.
    pub async fn channel(&self) -> anyhow::Result<Channel> {
        channel(&self.open.addr).await
    }
}

/// The address an honest client connects from when the server is on `127.0.0.1`:
/// `127.0.0.2`, another client than the attacks (which connect from `127.0.0.1`), as the
/// server tells clients apart by address (`--max-open-calls-per-client`).
pub fn other_client_address(server: &str) -> Option<std::net::IpAddr> {
    let addr: std::net::SocketAddr = server.parse().ok()?;
    (addr.ip() == std::net::IpAddr::from([127, 0, 0, 1]))
        .then(|| std::net::IpAddr::from([127, 0, 0, 2]))
}

/// A gRPC channel to `addr` from another client than the attacks ([`other_client_address`]).
pub async fn other_client_channel(addr: &str) -> anyhow::Result<Channel> {
    Ok(Endpoint::from_shared(format!("http://{addr}"))?
        .connect_timeout(Duration::from_secs(5))
        .tcp_nodelay(true)
        .local_address(other_client_address(addr))
        .connect()
        .await?)
}

/// A gRPC channel to `addr`.
pub async fn channel(addr: &str) -> anyhow::Result<Channel> {
    Ok(Endpoint::from_shared(format!("http://{addr}"))?
        .connect_timeout(Duration::from_secs(5))
        .tcp_nodelay(true)
        .connect()
        .await?)
}

/// What one attack sent and got.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What was sent.
    pub sent: String,
    /// What the server answered.
    pub answer: String,
    /// The answer is the documented bound.
    pub pass: bool,
}

/// One attack: name, the finding it replays, and whether it needs the sealed server.
#[derive(Clone, Copy, Debug)]
pub struct Attack {
    /// Name (`--only`).
    pub name: &'static str,
    /// The finding: `#24.N` of issue #24 or `earlier` (the first attack round).
    pub finding: &'static str,
    /// Needs the sealed-mode server.
    pub sealed: bool,
    /// Runs in the soak's hostile mix.
    pub in_soak: bool,
}

/// Every attack, in the order they run.
pub const ATTACKS: &[Attack] = &[
    Attack {
        name: "sealed-seed",
        finding: "#24.1 predictable sealed secrets",
        sealed: true,
        in_soak: false,
    },
    Attack {
        name: "sealed-leaks",
        finding: "#24.2 sealed mode leaks",
        sealed: true,
        in_soak: false,
    },
    Attack {
        name: "sealed-tamper",
        finding: "earlier: tampered sealed tokens",
        sealed: true,
        in_soak: false,
    },
    Attack {
        name: "import-bomb",
        finding: "#24.3 ImportGame undo/redo bomb",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "decoded-size",
        finding: "#24 decoded-size amplification (empty list entries)",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "decoded-spelling",
        finding: "#24 review, fifth round: the decoded-size estimate bypassed by spelling",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "import-keys",
        finding: "#24 decoded size: an export's object keys (third round)",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "stream-boards",
        finding: "#24 review: StreamReplay with 262 KB Autobahn boards",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "zero-window",
        finding: "#24.4 HTTP/2 client never opening its window",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "zero-window-raw",
        finding: "#24.4 same, ignoring the stream limit",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "zero-window-many",
        finding: "#24.4 same, on many connections",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "zero-window-small",
        finding: "#24.4 same, many connections, small answers",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "open-calls-share",
        finding: "#24.4 review: one client taking every open call",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "route-search",
        finding: "#24.5 crafted route-search state",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "overload",
        finding: "#24.6 overload without shedding",
        sealed: false,
        in_soak: false,
    },
    Attack {
        name: "incomplete-bodies",
        finding: "#24.7 incomplete 4 MiB bodies",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "incomplete-bodies-h2",
        finding: "#24.7 same over HTTP/2 (gRPC)",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "bad-states",
        finding: "#24.8 empty floors, inconsistent states",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "endless-streams",
        finding: "#24.9 health Watch / reflection streams",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "stream-window",
        finding: "#24 review, sixth round: streams whose reader never opens its window",
        sealed: false,
        // It holds nearly all of `--max-buffered-bytes` for the request and send timeouts
        // (60 s at the defaults), which sheds the honest load's larger calls meanwhile.
        in_soak: false,
    },
    Attack {
        name: "reflection-bodies",
        finding: "#24 review, sixth round: 4 MiB server reflection requests",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "reflection-streams",
        finding: "#24 review, sixth round: reflection streams held by window-0 readers",
        sealed: false,
        // It holds every reflection place for the request and send timeouts.
        in_soak: true,
    },
    Attack {
        name: "connections",
        finding: "#24.9 connection limit",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "idle-connections",
        finding: "#24.9 review: many addresses filling the connection limit with idle connections",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "slowloris",
        finding: "earlier: slowloris",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "h2-rapid-reset",
        finding: "earlier: HTTP/2 flood (rapid reset)",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "h2-continuation",
        finding: "earlier: HTTP/2 flood (CONTINUATION)",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "h2-ping-flood",
        finding: "earlier: HTTP/2 flood (PING, SETTINGS)",
        sealed: false,
        in_soak: true,
    },
    Attack {
        name: "compression-bomb",
        finding: "earlier: compression bombs",
        sealed: false,
        in_soak: true,
    },
];

/// Runs the attack `name`.
pub async fn run_one(ctx: &Ctx, name: &str) -> anyhow::Result<Outcome> {
    match name {
        "sealed-seed" => sealed::seed(ctx).await,
        "sealed-leaks" => sealed::leaks(ctx).await,
        "sealed-tamper" => sealed::tamper(ctx).await,
        "import-bomb" => calls::import_bomb(ctx).await,
        "decoded-size" => decoded::decoded_size(ctx).await,
        "decoded-spelling" => decoded::decoded_spelling(ctx).await,
        "import-keys" => decoded::import_keys(ctx).await,
        "stream-boards" => decoded::stream_boards(ctx).await,
        "zero-window" => transport::zero_window(ctx).await,
        "zero-window-raw" => transport::zero_window_raw(ctx).await,
        "zero-window-many" => transport::zero_window_many(ctx).await,
        "zero-window-small" => transport::zero_window_small(ctx).await,
        "open-calls-share" => transport::open_calls_share(ctx).await,
        "route-search" => calls::route_search(ctx).await,
        "overload" => calls::overload(ctx).await,
        "incomplete-bodies" => transport::incomplete_bodies(ctx).await,
        "incomplete-bodies-h2" => transport::incomplete_bodies_h2(ctx).await,
        "bad-states" => calls::bad_states(ctx).await,
        "endless-streams" => transport::endless_streams(ctx).await,
        "stream-window" => streams::stream_window(ctx).await,
        "reflection-bodies" => streams::reflection_bodies(ctx).await,
        "reflection-streams" => streams::reflection_streams(ctx).await,
        "connections" => transport::connections(ctx).await,
        "idle-connections" => transport::idle_connections(ctx).await,
        "slowloris" => transport::slowloris(ctx).await,
        "h2-rapid-reset" => transport::rapid_reset(ctx).await,
        "h2-continuation" => transport::continuation_flood(ctx).await,
        "h2-ping-flood" => transport::ping_flood(ctx).await,
        "compression-bomb" => transport::compression_bomb(ctx).await,
        _ => anyhow::bail!("unknown attack `{name}`"),
    }
}

/// The result of one attack with the server's resources.
#[derive(Clone, Debug)]
pub struct Record {
    /// Attack name.
    pub name: String,
    /// The finding it replays.
    pub finding: String,
    /// What happened.
    pub outcome: Outcome,
    /// An honest call was answered after the attack.
    pub server_answers: bool,
    /// Server VmRSS before the attack, KiB.
    pub rss_before_kib: u64,
    /// Server peak VmRSS during the attack (VmHWM reset before it), KiB.
    pub peak_kib: u64,
    /// Server VmRSS after the attack, KiB.
    pub rss_after_kib: u64,
    /// Server CPU seconds (user + system) during the attack.
    pub cpu_seconds: f64,
    /// Wall seconds of the attack.
    pub seconds: f64,
}

impl Record {
    /// Passed: the documented answer, and the server still answers.
    pub fn passed(&self) -> bool {
        self.outcome.pass && self.server_answers
    }

    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "attack": self.name,
            "finding": self.finding,
            "sent": self.outcome.sent,
            "answer": self.outcome.answer,
            "pass": self.passed(),
            "server_answers_after": self.server_answers,
            "rss_before_mib": mib(self.rss_before_kib),
            "peak_rss_mib": mib(self.peak_kib),
            "rss_after_mib": mib(self.rss_after_kib),
            "server_cpu_s": self.cpu_seconds,
            "seconds": self.seconds,
        })
    }
}

fn mib(kib: u64) -> f64 {
    (kib as f64 / 1024.0 * 10.0).round() / 10.0
}

/// Resets the peak resident memory of `pid` (`VmHWM`) to its current size (Linux ≥ 4.0).
pub fn reset_peak(pid: u32) -> bool {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok()
}

/// CPU seconds (user + system) `pid` has used, from `/proc/PID/stat` (100 ticks a second).
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of stat(5); `rest` starts at field 3.
    let utime: u64 = f.get(11)?.parse().ok()?;
    let stime: u64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

/// An honest call: `ListGames` answered within 15 s (retried: connections may be refused
/// while an attack's connections are being closed).
pub async fn honest_call(addr: &str) -> bool {
    let until = Instant::now() + Duration::from_secs(15);
    while Instant::now() < until {
        if let Ok(ch) = other_client_channel(addr).await {
            let mut c = pb::referee_client::RefereeClient::new(ch);
            if c.list_games(pb::ListGamesRequest::default()).await.is_ok() {
                return true;
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    false
}

/// Runs the attacks named in `only` (all when empty) one after the other, printing one line
/// per attack as it ends (`print`), and returns the records.
pub async fn run_all(ctx: &Ctx, only: &[String], print: bool) -> Vec<Record> {
    let mut out = Vec::new();
    for a in ATTACKS {
        if !only.is_empty() && !only.iter().any(|o| o == a.name) {
            continue;
        }
        if ctx.scale == Scale::Soak && !a.in_soak {
            continue;
        }
        let target = match (&ctx.sealed, a.sealed) {
            (_, false) => ctx.open.clone(),
            (Some((t, _)), true) => t.clone(),
            (None, true) => {
                if print {
                    eprintln!("attack {}: skipped (no sealed-mode server)", a.name);
                }
                continue;
            }
        };
        let record = run_recorded(ctx, a, &target).await;
        if print {
            print_record(&record);
        }
        out.push(record);
    }
    out
}

/// Runs the attacks named in `only` at the same time against the open server and records
/// them as one (passed when each met its bound; peak RSS while they all ran).
pub async fn run_together(ctx: &Ctx, only: &[String]) -> Record {
    let target = ctx.open.clone();
    let rss_before = rss_kib(target.pid).map_or(0, |r| r.0);
    reset_peak(target.pid);
    let cpu0 = cpu_seconds(target.pid).unwrap_or(0.0);
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for name in only {
        let (ctx, name) = (ctx.clone(), name.clone());
        tasks.push(tokio::spawn(async move {
            let o = tokio::time::timeout(Duration::from_secs(300), run_one(&ctx, &name)).await;
            (name, o)
        }));
    }
    let (mut sent, mut answer, mut pass) = (Vec::new(), Vec::new(), true);
    for t in tasks {
        match t.await {
            Ok((name, Ok(Ok(o)))) => {
                sent.push(format!("[{name}] {}", o.sent));
                answer.push(format!("[{name}] {}", o.answer));
                pass &= o.pass;
            }
            Ok((name, e)) => {
                answer.push(format!("[{name}] failed: {:?}", e.map(|r| r.err())));
                pass = false;
            }
            Err(e) => {
                answer.push(format!("task: {e}"));
                pass = false;
            }
        }
    }
    let seconds = t0.elapsed().as_secs_f64();
    let peak = rss_kib(target.pid).map_or(0, |r| r.1);
    let cpu = cpu_seconds(target.pid).unwrap_or(0.0) - cpu0;
    let server_answers = honest_call(&target.addr).await;
    let record = Record {
        name: only.join("+"),
        finding: "together".to_string(),
        outcome: Outcome {
            sent: sent.join("; "),
            answer: answer.join("; "),
            pass,
        },
        server_answers,
        rss_before_kib: rss_before,
        peak_kib: peak,
        rss_after_kib: rss_kib(target.pid).map_or(0, |r| r.0),
        cpu_seconds: (cpu * 100.0).round() / 100.0,
        seconds: (seconds * 10.0).round() / 10.0,
    };
    print_record(&record);
    record
}

/// Runs one attack against `target` with its resources recorded.
pub async fn run_recorded(ctx: &Ctx, a: &Attack, target: &Target) -> Record {
    let rss_before = rss_kib(target.pid).map_or(0, |r| r.0);
    reset_peak(target.pid);
    let cpu0 = cpu_seconds(target.pid).unwrap_or(0.0);
    let t0 = Instant::now();
    let bound = Duration::from_secs(match ctx.scale {
        Scale::Full => 300,
        _ => 120,
    });
    let outcome = match tokio::time::timeout(bound, run_one(ctx, a.name)).await {
        Ok(Ok(o)) => o,
        Ok(Err(e)) => Outcome {
            sent: "-".into(),
            answer: format!("attack failed to run: {e:#}"),
            pass: false,
        },
        Err(_) => Outcome {
            sent: "-".into(),
            answer: format!("not finished within {} s", bound.as_secs()),
            pass: false,
        },
    };
    let seconds = t0.elapsed().as_secs_f64();
    let peak = rss_kib(target.pid).map_or(0, |r| r.1);
    let cpu = cpu_seconds(target.pid).unwrap_or(0.0) - cpu0;
    let server_answers = honest_call(&target.addr).await;
    Record {
        name: a.name.to_string(),
        finding: a.finding.to_string(),
        outcome,
        server_answers,
        rss_before_kib: rss_before,
        peak_kib: peak,
        rss_after_kib: rss_kib(target.pid).map_or(0, |r| r.0),
        cpu_seconds: (cpu * 100.0).round() / 100.0,
        seconds: (seconds * 10.0).round() / 10.0,
    }
}

/// One record as text.
pub fn print_record(r: &Record) {
    println!(
        "== {} ({}) — {}\n   sent:   {}\n   answer: {}\n   server: peak RSS {:.1} MiB (before {:.1}, after {:.1}), CPU {:.2} s, {:.1} s; honest call after: {}",
        r.name,
        r.finding,
        if r.passed() { "PASS" } else { "FAIL" },
        r.outcome.sent,
        r.outcome.answer,
        mib(r.peak_kib),
        mib(r.rss_before_kib),
        mib(r.rss_after_kib),
        r.cpu_seconds,
        r.seconds,
        if r.server_answers {
            "answered"
        } else {
            "NOT ANSWERED"
        },
    );
}

/// A Markdown table of records (docs/SECURITY.md).
pub fn markdown(records: &[Record]) -> String {
    let mut s = String::from(
        "| attack | finding | sent | answer | peak RSS MiB | server CPU s | pass |\n|---|---|---|---|---|---|---|\n",
    );
    for r in records {
        s += &format!(
            "| {} | {} | {} | {} | {:.1} | {:.2} | {} |\n",
            r.name,
            r.finding,
            r.outcome.sent,
            r.outcome.answer,
            mib(r.peak_kib),
            r.cpu_seconds,
            if r.passed() { "yes" } else { "NO" }
        );
    }
    s
}
