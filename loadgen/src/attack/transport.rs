//! Attacks on the transport: slow and idle connections, HTTP/2 floods and windows, bodies
//! that never end, compression bombs, endless streams, too many connections.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::transport::Channel;

use super::h2raw::{self, END_HEADERS, HEADERS};
use super::{Ctx, Outcome, honest_call};
use crate::{Prepared, position_1841, position_autobahn, prepare};

/// The Apply request of the load generator's mid-game 1841 position (its answer carries the
/// new state and its events: the largest answer of the loaded calls).
pub fn apply_1841() -> &'static Prepared {
    static P: std::sync::OnceLock<Prepared> = std::sync::OnceLock::new();
    P.get_or_init(|| {
        let (a, b) = (
            position_1841().expect("1841 position"),
            position_autobahn().expect("Autobahn position"),
        );
        prepare("apply-1841", &a, &b).expect("apply-1841")
    })
}

/// GetGameData of 1841: a tiny request with a large answer (about 110 KB: the game's data
/// as JSON), what a client that does not take its answers makes the server hold.
pub fn game_data_1841() -> &'static Prepared {
    static P: std::sync::OnceLock<Prepared> = std::sync::OnceLock::new();
    P.get_or_init(|| Prepared {
        name: "game-data-1841".into(),
        path: "/referee.v1.Referee/GetGameData",
        body: Bytes::from(prost::Message::encode_to_vec(
            &crate::pb::GetGameDataRequest {
                game: "1841".into(),
                ..Default::default()
            },
        )),
        expect: tonic::Code::Ok,
    })
}

/// The size in bytes of the answer to [`game_data_1841`].
async fn held_answer_bytes(ctx: &Ctx) -> anyhow::Result<usize> {
    Ok(crate::call(ctx.channel().await?, game_data_1841()).await?)
}

/// Reads until the peer closes (`true`) or `within` passes (`false`).
async fn closed_within(tcp: &mut TcpStream, within: Duration) -> bool {
    let until = tokio::time::Instant::now() + within;
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(until, tcp.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// Earlier attack: connections opened and never finished (nothing sent, half an HTTP/1.1
/// header, half the HTTP/2 preface). Bound: each is closed `--header-read-timeout-ms` after
/// it was accepted, and the server answers others meanwhile.
pub async fn slowloris(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let n = ctx.pick(60, 300, 60);
    let wait = ctx.limits.header_read + Duration::from_secs(5);
    let closed = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..n {
        let addr = ctx.open.addr.clone();
        let closed = closed.clone();
        tasks.push(tokio::spawn(async move {
            let t0 = Instant::now();
            let mut tcp = match TcpStream::connect(&addr).await {
                Ok(t) => t,
                Err(e) => return format!("connect failed: {e}"),
            };
            let connected = t0.elapsed();
            let half: &[u8] = match i % 3 {
                0 => b"",
                1 => b"POST /v1/Apply HTTP/1.1\r\nhost: x\r\ncontent-le",
                _ => b"PRI * HTTP/2.0\r\n",
            };
            let _ = tcp.write_all(half).await;
            if closed_within(&mut tcp, wait).await {
                closed.fetch_add(1, Ordering::Relaxed);
                String::new()
            } else {
                format!(
                    "kind {} open (connected after {:.1} s)",
                    i % 3,
                    connected.as_secs_f64()
                )
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let during = honest_call(&ctx.open.addr).await;
    let mut failures: std::collections::BTreeMap<String, usize> = Default::default();
    for t in tasks {
        let f = t.await.unwrap_or_else(|e| format!("task: {e}"));
        if !f.is_empty() {
            *failures.entry(f).or_default() += 1;
        }
    }
    let closed = closed.load(Ordering::Relaxed);
    Ok(Outcome {
        sent: format!(
            "{n} connections: nothing / half an HTTP/1.1 header / half the HTTP/2 preface, then silence"
        ),
        answer: format!(
            "{closed}/{n} closed by the server within header-read timeout ({} ms) + 5 s{}; honest call meanwhile: {}",
            ctx.limits.header_read.as_millis(),
            if failures.is_empty() {
                String::new()
            } else {
                format!(" (not closed: {failures:?})")
            },
            if during { "answered" } else { "NOT answered" }
        ),
        pass: closed == n && during,
    })
}

/// #24.4 with a real HTTP/2 client (the `h2` crate): SETTINGS_INITIAL_WINDOW_SIZE 0 and no
/// WINDOW_UPDATE ever, then `n` calls with a large answer on one connection (the library keeps to the
/// server's stream limit and queues the rest). Bound: at most `--max-streams-per-connection`
/// answers held, the connection dropped `--send-timeout-ms` after the first answer waited.
pub async fn zero_window(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let n = ctx.pick(3_000, 30_000, 1_000);
    let answer_bytes = held_answer_bytes(ctx).await?;
    let (responses, _, opened, closed_after) =
        zero_window_connection(ctx, game_data_1841(), n, None).await?;
    let held_bound = ctx.limits.max_streams;
    Ok(Outcome {
        sent: format!(
            "1 HTTP/2 connection, initial window 0, {n} GetGameData calls (answer {answer_bytes} B each)"
        ),
        answer: format!(
            "{opened} streams opened, {responses} answers held unsent (limit {held_bound}, ≤ {:.1} MiB), connection dropped by the server after {}",
            (responses * answer_bytes) as f64 / 1048576.0,
            closed_after.map_or("— (still open)".to_string(), |d| format!(
                "{:.1} s (send timeout {} ms)",
                d.as_secs_f64(),
                ctx.limits.send_timeout.as_millis()
            )),
        ),
        pass: responses <= held_bound && closed_after.is_some(),
    })
}

/// ListGames: an empty request with a small answer (about 100 bytes): a client that never
/// takes it makes the server hold a stream for next to nothing counted in answer bytes.
pub fn list_games() -> &'static Prepared {
    static P: std::sync::OnceLock<Prepared> = std::sync::OnceLock::new();
    P.get_or_init(|| Prepared {
        name: "list-games".into(),
        path: "/referee.v1.Referee/ListGames",
        body: Bytes::new(),
        expect: tonic::Code::Ok,
    })
}

/// One zero-window connection sending up to `n` calls `p`: (answers held, answers complete
/// at once without a body, streams opened, when the server dropped the connection).
async fn zero_window_connection(
    ctx: &Ctx,
    p: &Prepared,
    n: usize,
    from: Option<std::net::IpAddr>,
) -> anyhow::Result<(usize, usize, usize, Option<Duration>)> {
    let tcp = connect_from(&ctx.open.addr, from).await?;
    tcp.set_nodelay(true)?;
    let (client, conn) = h2::client::Builder::new()
        .initial_window_size(0)
        .handshake::<_, Bytes>(tcp)
        .await?;
    let t0 = Instant::now();
    let mut conn_task = tokio::spawn(async move {
        let _ = conn.await;
        Instant::now()
    });
    let mut body = vec![0u8];
    body.extend_from_slice(&(p.body.len() as u32).to_be_bytes());
    body.extend_from_slice(&p.body);
    let body = Bytes::from(body);
    let responses = Arc::new(AtomicUsize::new(0));
    let empty = Arc::new(AtomicUsize::new(0));
    let mut held = Vec::new();
    let mut opened = 0;
    let deadline = t0 + ctx.limits.send_timeout + Duration::from_secs(15);
    let mut client = Some(client);
    let mut closed_at = None;
    while opened < n && Instant::now() < deadline {
        let Some(c) = client.take() else { break };
        let ready = tokio::select! {
            r = c.ready() => r,
            at = &mut conn_task => {
                closed_at = Some(at.ok());
                break;
            }
        };
        let Ok(mut c) = ready else { break };
        let req = http::Request::builder()
            .method("POST")
            .uri(format!("http://{}{}", ctx.open.addr, p.path))
            .header("content-type", "application/grpc")
            .header("te", "trailers")
            .body(())?;
        let Ok((resp, mut send)) = c.send_request(req, false) else {
            break;
        };
        if send.send_data(body.clone(), true).is_err() {
            break;
        }
        opened += 1;
        let (responses, empty) = (responses.clone(), empty.clone());
        held.push(tokio::spawn(async move {
            // The answer's head arrives (HEADERS are not flow-controlled); its body is
            // never read and the window never opened.
            // A complete answer without a body (load shedding) ends its stream at once.
            match resp.await {
                Ok(r) if !r.body().is_end_stream() => {
                    responses.fetch_add(1, Ordering::Relaxed);
                    let _keep = r;
                    std::future::pending::<()>().await;
                }
                Ok(_) => {
                    empty.fetch_add(1, Ordering::Relaxed);
                }
                Err(_) => {}
            }
        }));
        client = Some(c);
    }
    drop(client);
    let closed_at = match closed_at {
        Some(at) => at,
        None => tokio::time::timeout_at(deadline.into(), &mut conn_task)
            .await
            .ok()
            .and_then(Result::ok),
    };
    for h in &held {
        h.abort();
    }
    Ok((
        responses.load(Ordering::Relaxed),
        empty.load(Ordering::Relaxed),
        opened,
        closed_at.map(|at| at - t0),
    ))
}

/// #24.4 on many connections at once: each holds up to `--max-streams-per-connection`
/// answers of GetGameData (about 96 KB). Bound: the answers waiting, all connections
/// together, stay within `--max-unsent-bytes` (over it the connection holding the most is
/// dropped), every connection holding answers is dropped (budget or send timeout), and the
/// server answers others meanwhile.
pub async fn zero_window_many(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let conns = conns_override().unwrap_or(ctx.pick(10, 200, 5));
    let answer_bytes = held_answer_bytes(ctx).await?;
    let m = zero_window_connections(ctx, game_data_1841(), conns).await;
    Ok(Outcome {
        sent: format!(
            "{conns} HTTP/2 connections, initial window 0, {} GetGameData calls each (answer {answer_bytes} B; {:.0} MiB if all were held)",
            ctx.limits.max_streams,
            (conns * ctx.limits.max_streams * answer_bytes) as f64 / 1048576.0,
        ),
        answer: format!(
            "{} answers held over the attack (≤ {:.1} MiB of answers; budget --max-unsent-bytes {} MiB), {} refused at once; {} of the {} connections holding answers dropped (budget or send timeout); honest call meanwhile: {}",
            m.held,
            (m.held * answer_bytes) as f64 / 1048576.0,
            ctx.limits.max_unsent_bytes >> 20,
            m.refused,
            m.dropped,
            m.holding,
            if m.during { "answered" } else { "NOT answered" }
        ),
        pass: m.held <= conns * ctx.limits.max_streams && m.dropped == m.holding && m.during,
    })
}

/// #24.4 with small answers: many zero-window connections, each with
/// `--max-streams-per-connection` ListGames calls (answers of about 100 bytes), so that
/// the answer bytes are next to nothing and what a waiting call costs the server beyond
/// its answer (its HTTP/2 stream, task and request) is what adds up. Bound: at most
/// `--max-open-calls` calls open at once, all connections together; the rest refused at
/// once (`RESOURCE_EXHAUSTED` without a body); every connection holding answers dropped at
/// the send timeout; the server answers others meanwhile.
pub async fn zero_window_small(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let conns = conns_override().unwrap_or(ctx.pick(20, 400, 5));
    let m = zero_window_connections(ctx, list_games(), conns).await;
    Ok(Outcome {
        sent: format!(
            "{conns} HTTP/2 connections, initial window 0, {} ListGames calls each (small answers)",
            ctx.limits.max_streams,
        ),
        answer: format!(
            "{} answers held (limit --max-open-calls {}), {} refused at once (RESOURCE_EXHAUSTED); {} of the {} connections holding answers dropped (send timeout); honest call meanwhile: {}",
            m.held,
            ctx.limits.max_open_calls,
            m.refused,
            m.dropped,
            m.holding,
            if m.during { "answered" } else { "NOT answered" }
        ),
        pass: m.held <= ctx.limits.max_open_calls && m.dropped == m.holding && m.during,
    })
}

/// #24.4, fairness (review of issue #24): one client address holding every call it may
/// keep open — many zero-window connections from `127.0.0.1`, each with
/// `--max-streams-per-connection` ListGames calls whose answers it never takes. Bound: that
/// client holds at most `--max-open-calls-per-client` calls, the rest refused at once; and
/// another client (`127.0.0.2`) is answered at its first call while they are held (before,
/// 21 such connections took every open call and other clients were refused until the send
/// timeout dropped them).
pub async fn open_calls_share(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let conns = ctx.pick(20, 40, 6);
    let per = ctx.limits.max_streams;
    let mut tasks = Vec::new();
    for _ in 0..conns {
        let ctx = ctx.clone();
        tasks.push(tokio::spawn(async move {
            zero_window_connection(&ctx, list_games(), per, None).await
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // One call, no retry, from another client address, while the attacker's calls are held
    // (the send timeout is longer than this wait).
    let other = async {
        let ch = super::other_client_channel(&ctx.open.addr).await?;
        let mut c = referee_service::pb::v1::referee_client::RefereeClient::new(ch);
        c.list_games(referee_service::pb::v1::ListGamesRequest::default())
            .await
            .map_err(anyhow::Error::from)
    };
    let other = tokio::time::timeout(Duration::from_secs(5), other).await;
    let other_ok = matches!(other, Ok(Ok(_)));
    let (mut held, mut refused) = (0, 0);
    for t in tasks {
        if let Ok(Ok((r, empty, _, _))) = t.await {
            held += r;
            refused += empty;
        }
    }
    let share = ctx
        .limits
        .max_open_calls_per_client
        .min(ctx.limits.max_open_calls);
    Ok(Outcome {
        sent: format!(
            "{conns} HTTP/2 connections from one address (127.0.0.1), initial window 0, {per} ListGames calls each; one ListGames from 127.0.0.2 meanwhile"
        ),
        answer: format!(
            "{held} answers held (share --max-open-calls-per-client {share}), {refused} refused at once; the other client's call: {}",
            match &other {
                Ok(Ok(_)) => "answered at once".to_string(),
                Ok(Err(e)) => format!("refused ({e})"),
                Err(_) => "no answer within 5 s".to_string(),
            }
        ),
        pass: held <= share && other_ok,
    })
}

/// `REFEREE_ATTACK_CONNS`: the number of connections of `zero-window-many` and
/// `zero-window-small` instead of the scale's (to try more connections than the suite's).
fn conns_override() -> Option<usize> {
    std::env::var("REFEREE_ATTACK_CONNS").ok()?.parse().ok()
}

/// What [`zero_window_connections`] saw.
struct ManyZeroWindows {
    /// Answers whose head arrived with a body to come (held by the shut window).
    held: usize,
    /// Answers complete at once without a body (refused or shed).
    refused: usize,
    /// Connections that held answers, and how many of them the server dropped.
    holding: usize,
    dropped: usize,
    /// The honest call made meanwhile was answered.
    during: bool,
}

/// Connects to `addr` from the local address `from` (any port), or from the default one.
pub async fn connect_from(addr: &str, from: Option<std::net::IpAddr>) -> anyhow::Result<TcpStream> {
    let Some(from) = from else {
        return Ok(TcpStream::connect(addr).await?);
    };
    let socket = match from {
        std::net::IpAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        std::net::IpAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.bind(std::net::SocketAddr::new(from, 0))?;
    Ok(socket.connect(addr.parse()?).await?)
}

/// The address the `i`th connection of a many-client attack comes from, when the server is
/// on loopback: `127.1.X.Y`, one per connection (Linux routes all of 127/8 to loopback), so
/// that the attack is that of many clients (a botnet), each within its share of the open
/// calls (`--max-open-calls-per-client`), and only the limits of all clients together bound
/// it. `None` (the default address) for a server elsewhere.
pub fn many_clients_address(server: &str, i: usize) -> Option<std::net::IpAddr> {
    let addr: std::net::SocketAddr = server.parse().ok()?;
    addr.ip().is_loopback().then_some(())?;
    addr.is_ipv4().then_some(())?;
    Some(std::net::IpAddr::from([
        127,
        1,
        (i / 250 % 250) as u8,
        (i % 250 + 1) as u8,
    ]))
}

/// `conns` zero-window connections at once, each from its own client address
/// ([`many_clients_address`]) and making `--max-streams-per-connection` calls `p`, and an
/// honest call meanwhile.
async fn zero_window_connections(ctx: &Ctx, p: &'static Prepared, conns: usize) -> ManyZeroWindows {
    let per = ctx.limits.max_streams;
    let mut tasks = Vec::new();
    for i in 0..conns {
        let ctx = ctx.clone();
        let from = many_clients_address(&ctx.open.addr, i);
        tasks.push(tokio::spawn(async move {
            zero_window_connection(&ctx, p, per, from).await
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let during = honest_call(&ctx.open.addr).await;
    let mut m = ManyZeroWindows {
        held: 0,
        refused: 0,
        holding: 0,
        dropped: 0,
        during,
    };
    for t in tasks {
        if let Ok(Ok((r, empty, _, closed))) = t.await {
            m.held += r;
            m.refused += empty;
            m.holding += usize::from(r > 0);
            m.dropped += usize::from(r > 0 && closed.is_some());
        }
    }
    m
}

/// #24.4 without a client library: hand-built frames, window 0, and `n` calls sent at once
/// ignoring the server's stream limit. Bound: streams over `--max-streams-per-connection`
/// are refused (RST_STREAM REFUSED_STREAM) and at most that many answers are held.
pub async fn zero_window_raw(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let n = ctx.pick(400, 2_000, 300);
    let seen = raw_zero_window_calls(
        &ctx.open.addr,
        n,
        game_data_1841().path,
        &game_data_1841().body,
        ctx.limits.send_timeout + Duration::from_secs(15),
    )
    .await?;
    let bound = ctx.limits.max_streams;
    Ok(Outcome {
        sent: format!(
            "1 connection of hand-built frames: SETTINGS_INITIAL_WINDOW_SIZE 0, {n} GetGameData calls at once, no WINDOW_UPDATE"
        ),
        answer: format!(
            "{} answers held (limit {bound}; {} more answered at once without a body: shed), {} streams refused (REFUSED_STREAM), {} resets of their DATA, {} DATA bytes sent by the server, GOAWAY {:?}, connection dropped: {}",
            seen.held(),
            seen.complete_heads,
            seen.refused,
            seen.reset,
            seen.data_bytes,
            seen.goaway,
            seen.closed
        ),
        pass: seen.held() <= bound && seen.data_bytes == 0 && seen.closed,
    })
}

/// Sends `n` unary gRPC calls to `path` with `message` at once on one raw connection whose
/// window is 0 and reads what comes back until the server closes it or `quiet` passes
/// without a frame.
pub async fn raw_zero_window_calls(
    addr: &str,
    n: usize,
    path: &str,
    message: &[u8],
    quiet: Duration,
) -> anyhow::Result<h2raw::Seen> {
    let tcp = h2raw::connect(addr, &[(0x4, 0)]).await?;
    let (mut rd, mut wr) = tcp.into_split();
    let mut frames = Vec::new();
    for i in 0..n {
        frames.extend(h2raw::grpc_call(2 * i as u32 + 1, path, message));
    }
    let writer = tokio::spawn(async move {
        let _ = wr.write_all(&frames).await;
        // Keep the write half open (dropping it would half-close the connection).
        std::future::pending::<()>().await;
        drop(wr);
    });
    let seen = h2raw::read_until_quiet(&mut rd, quiet, |_| false).await;
    writer.abort();
    Ok(seen)
}

/// Earlier attack: rapid reset (CVE-2023-44487): streams opened and reset at once, many
/// times. Bound: h2 answers with GOAWAY once too many resets are pending, the server
/// answers others meanwhile.
pub async fn rapid_reset(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let n = ctx.pick(5_000, 50_000, 2_000);
    let tcp = h2raw::connect(&ctx.open.addr, &[]).await?;
    let (mut rd, mut wr) = tcp.into_split();
    let headers = h2raw::grpc_headers("/referee.v1.Referee/ListGames");
    let writer = tokio::spawn(async move {
        let mut sent = 0usize;
        let mut batch = Vec::new();
        for i in 0..n {
            let id = 2 * i as u32 + 1;
            batch.extend(h2raw::frame(HEADERS, END_HEADERS, id, &headers));
            batch.extend(h2raw::frame(h2raw::RST_STREAM, 0, id, &8u32.to_be_bytes()));
            if batch.len() > 64 * 1024 || i + 1 == n {
                if wr.write_all(&batch).await.is_err() {
                    break;
                }
                sent = i + 1;
                batch.clear();
            }
        }
        sent
    });
    let during = honest_call(&ctx.open.addr).await;
    let seen =
        h2raw::read_until_quiet(&mut rd, Duration::from_secs(3), |s| s.goaway.is_some()).await;
    let sent = writer.await.unwrap_or(0);
    Ok(Outcome {
        sent: format!(
            "{n} streams opened and reset at once on one connection (HEADERS + RST_STREAM)"
        ),
        answer: format!(
            "{sent} pairs written before the connection stopped taking them; GOAWAY {}; honest call meanwhile: {}",
            seen.goaway
                .map_or("none".to_string(), |c| format!("code {c:#x}")),
            if during { "answered" } else { "NOT answered" }
        ),
        pass: during,
    })
}

/// Earlier attack: CONTINUATION flood: one header block that never ends. Bound: the
/// server stops the connection once the header list passes its limit.
pub async fn continuation_flood(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let total = ctx.pick(8, 64, 4) << 20;
    let tcp = h2raw::connect(&ctx.open.addr, &[]).await?;
    let (mut rd, mut wr) = tcp.into_split();
    let writer = tokio::spawn(async move {
        let first = h2raw::grpc_headers("/referee.v1.Referee/ListGames");
        if wr
            .write_all(&h2raw::frame(HEADERS, 0, 1, &first))
            .await
            .is_err()
        {
            return 0;
        }
        // Literal fields `x-a: aaaa…` of 16,000 bytes, one per CONTINUATION frame.
        let value = "a".repeat(15_990);
        let block = h2raw::header_block(&[("x-a", &value)]);
        let f = h2raw::frame(h2raw::CONTINUATION, 0, 1, &block);
        let mut sent = 0usize;
        while sent < total {
            match tokio::time::timeout(Duration::from_secs(5), wr.write_all(&f)).await {
                Ok(Ok(())) => sent += f.len(),
                _ => break,
            }
        }
        sent
    });
    let seen =
        h2raw::read_until_quiet(&mut rd, Duration::from_secs(6), |s| s.goaway.is_some()).await;
    let sent = writer.await.unwrap_or(0);
    Ok(Outcome {
        sent: format!(
            "one HEADERS without END_HEADERS, then CONTINUATION frames of 16 KB up to {} MiB",
            total >> 20
        ),
        answer: format!(
            "{:.1} MiB written before the server stopped reading; GOAWAY {}, closed: {}",
            sent as f64 / 1048576.0,
            seen.goaway
                .map_or("none".to_string(), |c| format!("code {c:#x}")),
            seen.closed
        ),
        pass: sent < total || seen.goaway.is_some() || seen.closed,
    })
}

/// Earlier attack: PING and SETTINGS flood from a client that never reads. Bound: the
/// server stops reading once its answers are not taken (TCP back-pressure); memory flat.
pub async fn ping_flood(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let n = ctx.pick(200_000, 2_000_000, 100_000);
    let mut tcp = h2raw::connect(&ctx.open.addr, &[]).await?;
    let ping = h2raw::frame(h2raw::PING, 0, 0, &[7u8; 8]);
    let settings = h2raw::settings(&[(0x3, 100)]);
    let mut batch = Vec::new();
    for i in 0..1000 {
        batch.extend_from_slice(if i % 2 == 0 { &ping } else { &settings });
    }
    let mut sent = 0usize;
    let stalled = loop {
        if sent >= n {
            break false;
        }
        match tokio::time::timeout(Duration::from_secs(3), tcp.write_all(&batch)).await {
            Ok(Ok(())) => sent += 1000,
            Ok(Err(_)) => break false,
            Err(_) => break true,
        }
    };
    let during = honest_call(&ctx.open.addr).await;
    drop(tcp);
    Ok(Outcome {
        sent: format!("up to {n} PING and SETTINGS frames on one connection, never reading"),
        answer: format!(
            "{sent} frames taken, then {}; honest call meanwhile: {}",
            if stalled {
                "the server stopped reading (its answers not taken)"
            } else if sent >= n {
                "all taken"
            } else {
                "the connection was closed"
            },
            if during { "answered" } else { "NOT answered" }
        ),
        pass: during,
    })
}

/// #24.7 over HTTP/1.1: `n` connections each announce a 4 MiB JSON body and send all but
/// one byte of it. Bound: all bodies buffered at once share `--max-buffered-bytes`; a body
/// announced over what is left is refused at once (429), the others wait for the body
/// timeout (408).
pub async fn incomplete_bodies(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let n = ctx.pick(40, 160, 8);
    let len = ctx.limits.max_request_bytes;
    let fit = ctx.limits.max_buffered_bytes / len;
    let wait = ctx.limits.body_timeout + Duration::from_secs(10);
    let mut tasks = Vec::new();
    for _ in 0..n {
        let addr = ctx.open.addr.clone();
        tasks.push(tokio::spawn(async move {
            let Ok(mut tcp) = TcpStream::connect(&addr).await else {
                return "connect failed".to_string();
            };
            let head = format!(
                "POST /v1/Apply HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {len}\r\n\r\n"
            );
            let _ = tcp.write_all(head.as_bytes()).await;
            let body = vec![b' '; len - 1];
            let wrote = match tokio::time::timeout(Duration::from_secs(20), tcp.write_all(&body)).await {
                Ok(Ok(())) => "body written",
                Ok(Err(_)) => "write failed",
                Err(_) => "write stalled",
            };
            let mut out = Vec::new();
            let mut buf = [0u8; 1024];
            let until = tokio::time::Instant::now() + wait;
            let mut end = "";
            while !out.windows(4).any(|w| w == b"\r\n\r\n") {
                match tokio::time::timeout_at(until, tcp.read(&mut buf)).await {
                    Ok(Ok(k)) if k > 0 => out.extend_from_slice(&buf[..k]),
                    Ok(Ok(_)) => { end = "closed"; break }
                    Ok(Err(_)) => { end = "reset"; break }
                    Err(_) => { end = "timeout"; break }
                }
            }
            let text = String::from_utf8_lossy(&out);
            match text.split(' ').nth(1) {
                Some(code) => code.to_string(),
                None => format!("no answer ({wrote}, then {end})"),
            }
        }));
    }
    let mut by: std::collections::BTreeMap<String, usize> = Default::default();
    for t in tasks {
        *by.entry(t.await.unwrap_or_default()).or_default() += 1;
    }
    let timed_out = by.get("408").copied().unwrap_or(0);
    let refused = by.get("429").copied().unwrap_or(0);
    Ok(Outcome {
        sent: format!(
            "{n} HTTP/1.1 connections, each `content-length: {len}` and {} bytes of it, then silence",
            len - 1
        ),
        answer: format!(
            "HTTP status counts {by:?}: {refused} refused at once (429 RESOURCE_EXHAUSTED), {timed_out} buffered until the body timeout (408; budget room for {fit})"
        ),
        pass: timed_out <= fit && refused + timed_out == n,
    })
}

/// The gRPC status of an `h2` response: from the headers (trailers-only) or the trailers.
async fn grpc_status(resp: h2::client::ResponseFuture) -> String {
    let r = match resp.await {
        Ok(r) => r,
        Err(e) => {
            return match e.reason() {
                Some(reason) => format!("reset ({reason:?})"),
                None if e.is_io() => "reset (connection closed)".to_string(),
                None if e.is_go_away() => "reset (GOAWAY)".to_string(),
                None => format!("reset ({e})"),
            };
        }
    };
    let code = |h: &http::HeaderMap| {
        h.get("grpc-status")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<i32>().ok())
            .map(|c| format!("{:?}", tonic::Code::from(c)))
    };
    if let Some(c) = code(r.headers()) {
        return c;
    }
    let mut body = r.into_body();
    while let Some(Ok(chunk)) = body.data().await {
        let _ = body.flow_control().release_capacity(chunk.len());
    }
    match body.trailers().await {
        Ok(Some(t)) => code(&t).unwrap_or_else(|| "no grpc-status".to_string()),
        _ => "no trailers".to_string(),
    }
}

/// The server's HTTP/2 flow-control window of a stream (hyper's default, 1 MiB): what a
/// client can have sent of a body beyond what the server has read of it.
const SERVER_STREAM_WINDOW: usize = 1 << 20;

/// #24.7 over HTTP/2 (gRPC has no content length): `n` connections each open one gRPC Apply
/// and then, once every connection's request is open, send 4 MiB less one byte of a 4 MiB
/// message and stall. Bound: the frames buffered count against `--max-buffered-bytes`: a
/// stream that passes it is refused with RESOURCE_EXHAUSTED at once, the others get
/// DEADLINE_EXCEEDED at the body timeout; the bytes the held streams got through (counted
/// from the flow-control capacity the server granted, less one stream window each: what
/// the server has at least read) stay within the budget.
///
/// Headers first, bodies after a barrier: sending 240 MB at once from a slow client (debug
/// build, loaded machine) delayed some connections' request headers past the header-read
/// timeout, and the server rightly closed them before the attack had begun (issue #24,
/// "reset" answers). The bound is on bytes, not on streams: bodies that arrive slowly
/// are held part-way, so more than `budget / 4 MiB` streams can be held at once within it.
pub async fn incomplete_bodies_h2(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let n = ctx.pick(24, 60, 4);
    let msg = ctx.limits.max_request_bytes - 5;
    let mut data = vec![0u8];
    data.extend_from_slice(&(msg as u32).to_be_bytes());
    data.resize(msg + 4, 0x0a);
    let data = Bytes::from(data);
    let barrier = Arc::new(tokio::sync::Barrier::new(n));
    let mut tasks = Vec::new();
    for _ in 0..n {
        let addr = ctx.open.addr.clone();
        let barrier = barrier.clone();
        let data = data.clone();
        tasks.push(tokio::spawn(async move {
            let opened = async {
                let tcp = TcpStream::connect(&addr).await.ok()?;
                let (client, conn) = h2::client::handshake(tcp).await.ok()?;
                let conn = tokio::spawn(conn);
                let mut client = client.ready().await.ok()?;
                let req = http::Request::builder()
                    .method("POST")
                    .uri(format!("http://{addr}/referee.v1.Referee/Apply"))
                    .header("content-type", "application/grpc")
                    .header("te", "trailers")
                    .body(())
                    .ok()?;
                let (resp, send) = client.send_request(req, false).ok()?;
                Some((conn, resp, send))
            }
            .await;
            // Every task reaches the barrier, opened or not, so none waits forever.
            barrier.wait().await;
            let Some((conn, resp, mut send)) = opened else {
                return ("not opened".to_string(), 0);
            };
            // The body as the server's window lets it through, counting what got through.
            let sent = AtomicUsize::new(0);
            let sender = async {
                while sent.load(Ordering::Relaxed) < data.len() {
                    let at = sent.load(Ordering::Relaxed);
                    let left = data.len() - at;
                    send.reserve_capacity(left);
                    match std::future::poll_fn(|cx| send.poll_capacity(cx)).await {
                        Some(Ok(cap)) if cap > 0 => {
                            let k = cap.min(left);
                            if send.send_data(data.slice(at..at + k), false).is_err() {
                                break;
                            }
                            sent.store(at + k, Ordering::Relaxed);
                        }
                        Some(Ok(_)) => {}
                        _ => break,
                    }
                }
                // Then silence: never the last byte nor the end of the stream.
                std::future::pending::<()>().await;
            };
            let status = tokio::select! {
                status = grpc_status(resp) => status,
                () = sender => unreachable!("the sender never ends"),
            };
            conn.abort();
            (status, sent.load(Ordering::Relaxed))
        }));
    }
    let mut by: std::collections::BTreeMap<String, usize> = Default::default();
    // Bytes the held streams got through, and at least what the server read of them.
    let (mut held_sent, mut held_read) = (0usize, 0usize);
    for t in tasks {
        let (status, sent) = t.await.unwrap_or_default();
        if status == "DeadlineExceeded" {
            held_sent += sent;
            held_read += sent.saturating_sub(SERVER_STREAM_WINDOW);
        }
        *by.entry(status).or_default() += 1;
    }
    let fit = ctx.limits.max_buffered_bytes / ctx.limits.max_request_bytes;
    let waited = by.get("DeadlineExceeded").copied().unwrap_or(0);
    let shed = by.get("ResourceExhausted").copied().unwrap_or(0);
    Ok(Outcome {
        sent: format!(
            "{n} HTTP/2 connections, one gRPC Apply each: a {msg}-byte message of which all but one byte is sent, then silence"
        ),
        answer: format!(
            "gRPC codes {by:?} ({shed} refused when the budget was full, {waited} held until the body timeout, room for about {fit} whole bodies; the held streams sent {:.1} MiB, of which the server read at least {:.1} MiB, budget {} MiB)",
            held_sent as f64 / 1048576.0,
            held_read as f64 / 1048576.0,
            ctx.limits.max_buffered_bytes >> 20
        ),
        pass: shed + waited == n && held_read <= ctx.limits.max_buffered_bytes,
    })
}

/// A gzip stream that inflates to `mib` MiB of zeros in a few KB: one deflate block of
/// 1 MiB of zeros ending on a byte boundary (sync flush), repeated; never finished (a
/// reader that keeps to a limit stops long before the end).
pub fn gzip_bomb(mib: usize) -> Vec<u8> {
    let mut c = flate2::Compress::new(flate2::Compression::fast(), false);
    let zeros = vec![0u8; 1 << 20];
    let mut block = Vec::with_capacity(8 << 10);
    c.compress_vec(&zeros, &mut block, flate2::FlushCompress::Sync)
        .expect("deflate");
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    for _ in 0..mib {
        out.extend_from_slice(&block);
    }
    out
}

/// Earlier attack: a gRPC message compressed with gzip that inflates to hundreds of MiB.
/// Bound: refused once the inflated size passes the message limit, memory flat.
pub async fn compression_bomb(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let mib = ctx.pick(256, 1024, 128);
    let bomb = gzip_bomb(mib);
    let tcp = TcpStream::connect(&ctx.open.addr).await?;
    let (client, conn) = h2::client::handshake(tcp).await?;
    let conn = tokio::spawn(conn);
    let mut client = client.ready().await?;
    let req = http::Request::builder()
        .method("POST")
        .uri(format!("http://{}/referee.v1.Referee/Apply", ctx.open.addr))
        .header("content-type", "application/grpc")
        .header("grpc-encoding", "gzip")
        .header("te", "trailers")
        .body(())?;
    let (resp, mut send) = client.send_request(req, false)?;
    let mut data = vec![1u8];
    data.extend_from_slice(&(bomb.len() as u32).to_be_bytes());
    data.extend_from_slice(&bomb);
    send.send_data(Bytes::from(data), true)?;
    let status = tokio::time::timeout(Duration::from_secs(60), grpc_status(resp))
        .await
        .unwrap_or_else(|_| "no answer in 60 s".into());
    conn.abort();
    Ok(Outcome {
        sent: format!(
            "gRPC Apply, grpc-encoding gzip: {} KB inflating to {mib} MiB of zeros",
            bomb.len() / 1024
        ),
        answer: format!("gRPC status {status}"),
        pass: status != "Ok" && !status.starts_with("no answer"),
    })
}

/// One health `Watch` stream on `ch`, held until the server ends it: `(opened, how it
/// ended or why it was refused)`; a refusal over the client's share says `client share`.
async fn watch_until_ended(ch: Channel) -> (bool, String) {
    use tonic_health::pb::HealthCheckRequest;
    use tonic_health::pb::health_client::HealthClient;
    let refusal = |e: tonic::Status| {
        if e.message().contains("--max-streaming-calls-per-client") {
            format!("{:?} (client share)", e.code())
        } else {
            format!("{:?}", e.code())
        }
    };
    let mut h = HealthClient::new(ch);
    let mut s = match h
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
    {
        Ok(s) => s.into_inner(),
        Err(e) => return (false, refusal(e)),
    };
    match s.message().await {
        Ok(Some(_)) => {}
        Ok(None) => return (true, "ended".into()),
        Err(e) => return (false, refusal(e)),
    }
    loop {
        match s.message().await {
            Ok(Some(_)) => continue,
            Ok(None) => return (true, "ended without status".into()),
            Err(e) => return (true, format!("{:?}", e.code())),
        }
    }
}

/// A gRPC channel to `addr` from the loopback address `from` (a client of its own).
async fn channel_from(addr: &str, from: std::net::IpAddr) -> anyhow::Result<Channel> {
    Ok(
        tonic::transport::Endpoint::from_shared(format!("http://{addr}"))?
            .connect_timeout(Duration::from_secs(5))
            .tcp_nodelay(true)
            .local_address(Some(from))
            .connect()
            .await?,
    )
}

/// #24.9: health `Watch` streams (never ending by themselves) and a reflection stream, more
/// than the concurrency slots. Bound: each open stream holds a slot, streams hold at most
/// half the slots (the ones over it are refused with RESOURCE_EXHAUSTED) and each ends with
/// DEADLINE_EXCEEDED at the request timeout. Review of #24 (finding A): one client address
/// holds at most its share of those stream slots (`--max-streaming-calls-per-client`, by
/// default a quarter): the attacker's address (`127.0.0.1`) opens as many streams as there
/// are slots and gets its share, the rest refused naming the flag; then clients of their own
/// addresses (`127.1.0.Y`) open their shares until all stream slots are taken; meanwhile
/// another client's ListGames is answered (streams never hold the other half).
pub async fn endless_streams(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let slots = ctx.limits.stream_slots();
    let share = ctx.limits.streaming_calls_per_client();
    let n = match ctx.scale {
        super::Scale::Soak => 4,
        _ => ctx.limits.max_concurrency + ctx.pick(8, 32, 0),
    };
    // The attacker's address: `n` streams over enough connections for all to be open at
    // once (a client queues the streams over a connection's `--max-streams-per-connection`).
    let mut channels = Vec::new();
    for _ in 0..n.div_ceil(ctx.limits.max_streams.max(1)) {
        channels.push(ctx.channel().await?);
    }
    let mut tasks = Vec::new();
    for i in 0..n {
        tasks.push(tokio::spawn(watch_until_ended(
            channels[i % channels.len()].clone(),
        )));
    }
    // Other clients, each opening its share, until more than every stream slot is asked for
    // (the soak keeps to the attacker's few).
    let others = match ctx.scale {
        super::Scale::Soak => 0,
        _ => slots.div_ceil(share.max(1)) + 1,
    };
    // The attacker's streams first (they are answered at once: admitted or refused).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut other_tasks = Vec::new();
    for c in 0..others {
        let from = std::net::IpAddr::from([127, 1, 0, (c + 1) as u8]);
        let ch = channel_from(&ctx.open.addr, from).await?;
        for _ in 0..share {
            other_tasks.push(tokio::spawn(watch_until_ended(ch.clone())));
        }
    }
    // A reflection stream whose request side never ends.
    let reflection = {
        use tokio_stream::StreamExt;
        use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
        use tonic_reflection::pb::v1::{ServerReflectionRequest, server_reflection_request};
        let ch = ctx.channel().await?;
        tokio::spawn(async move {
            let first = ServerReflectionRequest {
                host: String::new(),
                message_request: Some(server_reflection_request::MessageRequest::ListServices(
                    String::new(),
                )),
            };
            let requests = tokio_stream::iter(vec![first]).chain(tokio_stream::pending());
            let mut c = ServerReflectionClient::new(ch);
            let mut s = match c.server_reflection_info(requests).await {
                Ok(s) => s.into_inner(),
                Err(e) => return format!("{:?}", e.code()),
            };
            loop {
                match s.message().await {
                    Ok(Some(_)) => continue,
                    Ok(None) => return "ended without status".into(),
                    Err(e) => return format!("{:?}", e.code()),
                }
            }
        })
    };
    // While the streams are open: another client's call (the half the streams leave).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let honest = match super::other_client_channel(&ctx.open.addr).await {
        Ok(ch) => {
            let mut c = referee_service::pb::v1::referee_client::RefereeClient::new(ch);
            match tokio::time::timeout(
                Duration::from_secs(10),
                c.list_games(referee_service::pb::v1::ListGamesRequest::default()),
            )
            .await
            {
                Ok(Ok(_)) => "OK".to_string(),
                Ok(Err(e)) => format!("{:?}", e.code()),
                Err(_) => "no answer in 10 s".to_string(),
            }
        }
        Err(e) => format!("no connection: {e}"),
    };
    type Counts = std::collections::BTreeMap<String, usize>;
    async fn tally(tasks: Vec<tokio::task::JoinHandle<(bool, String)>>) -> (Counts, Counts) {
        let (mut opened, mut refused) = (Counts::new(), Counts::new());
        for t in tasks {
            let (open, how) = t.await.unwrap_or((false, "panicked".into()));
            let counts = if open { &mut opened } else { &mut refused };
            *counts.entry(how).or_default() += 1;
        }
        (opened, refused)
    }
    let (opened, refused) = tally(tasks).await;
    let (other_opened, other_refused) = tally(other_tasks).await;
    let refl = reflection.await.unwrap_or_default();
    let sum = |c: &Counts| c.values().sum::<usize>();
    let (open_n, other_open_n) = (sum(&opened), sum(&other_opened));
    let ends_ok = |c: &Counts| c.get("DeadlineExceeded").copied().unwrap_or(0) == sum(c);
    let shed_only = |c: &Counts| c.keys().all(|k| k.starts_with("ResourceExhausted"));
    let over_share = refused
        .get("ResourceExhausted (client share)")
        .copied()
        .unwrap_or(0);
    Ok(Outcome {
        sent: format!(
            "{n} health Watch streams from one address over {} connections, {} from {others} other addresses ({share} each), 1 reflection stream; none closed by the client (stream slots {slots}, {share} per client)",
            channels.len(),
            others * share,
        ),
        answer: format!(
            "the attacker's address: {open_n} opened {opened:?}, refused {refused:?}; the others: {other_open_n} opened {other_opened:?}, refused {other_refused:?}; reflection stream ended {refl}; another client's ListGames meanwhile: {honest} (request timeout {} ms)",
            ctx.limits.request_timeout.as_millis()
        ),
        pass: open_n <= share
            && (n <= share || over_share > 0)
            && open_n + other_open_n <= slots
            && (others == 0 || open_n + other_open_n == slots)
            && ends_ok(&opened)
            && ends_ok(&other_opened)
            && shed_only(&refused)
            && shed_only(&other_refused)
            && (honest == "OK" || ctx.scale == super::Scale::Soak)
            && (refl == "DeadlineExceeded" || refl.starts_with("ResourceExhausted")),
    })
}

/// One HTTP/2 connection from `from` that makes one gRPC ListGames call and then stays
/// open and idle, as a well-behaved client between calls (its connection task answers the
/// server's PINGs). Returns the call's status, the connection (kept open while held) and
/// its task, which ends when the server closes the connection.
async fn idle_h2_connection(
    addr: &str,
    from: Option<std::net::IpAddr>,
) -> anyhow::Result<(
    String,
    h2::client::SendRequest<Bytes>,
    tokio::task::JoinHandle<()>,
)> {
    let tcp = connect_from(addr, from).await?;
    let (client, conn) = h2::client::handshake(tcp).await?;
    let conn = tokio::spawn(async move {
        let _ = conn.await;
    });
    let mut client = client.ready().await?;
    let req = http::Request::builder()
        .method("POST")
        .uri(format!("http://{addr}/referee.v1.Referee/ListGames"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())?;
    let (resp, mut send) = client.send_request(req, false)?;
    send.send_data(Bytes::from_static(&[0, 0, 0, 0, 0]), true)?;
    let status = grpc_status(resp).await;
    Ok((status, client, conn))
}

/// #24.9, review: a distributed attacker fills `--max-connections` with HTTP/2 connections
/// from as many addresses (`127.1.X.Y`: no per-client limit applies), each making one call
/// and then staying idle — before, every new client was closed at once until the idle
/// timeout (60 s). Then `m` new connections of another client (`127.0.0.2`), each kept
/// open, make a call. Bound: every one is answered, each taking the place of an attacker's
/// connection idle longer than `--idle-timeout-at-limit-ms`, which the server closes.
pub async fn idle_connections(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let n = ctx.limits.max_connections;
    let m = ctx.pick(20, 100, 20);
    // At most 64 handshakes at once (the listen queue is not what this attack is about).
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::new();
    for i in 0..n {
        let addr = ctx.open.addr.clone();
        let from = many_clients_address(&addr, i);
        let gate = gate.clone();
        tasks.push(tokio::spawn(async move {
            let _gate = gate.acquire().await;
            idle_h2_connection(&addr, from).await.ok()
        }));
    }
    let mut held = Vec::new();
    let mut calls: std::collections::BTreeMap<String, usize> = Default::default();
    for t in tasks {
        if let Ok(Some((status, client, conn))) = t.await {
            *calls.entry(status).or_default() += 1;
            held.push((client, conn));
        }
    }
    let opened = held.len();
    // Every attacker's connection idle longer than the server's idle time at the limit.
    tokio::time::sleep(ctx.limits.idle_at_limit + Duration::from_millis(500)).await;
    let mut honest = Vec::new();
    let mut answered = 0;
    for _ in 0..m {
        let Ok(ch) = super::other_client_channel(&ctx.open.addr).await else {
            continue;
        };
        let mut c = crate::pb::referee_client::RefereeClient::new(ch.clone());
        if c.list_games(crate::pb::ListGamesRequest::default())
            .await
            .is_ok()
        {
            answered += 1;
        }
        honest.push(ch);
    }
    // The attacker's connections the server closed (their task ended) to make room.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let closed = held.iter().filter(|(_, conn)| conn.is_finished()).count();
    drop(held);
    drop(honest);
    Ok(Outcome {
        sent: format!(
            "{n} HTTP/2 connections (limit {}), each from its own address making one ListGames call, then idle; {m} new connections of another client, each kept open, one call each",
            ctx.limits.max_connections
        ),
        answer: format!(
            "{opened} attacker connections opened (calls {calls:?}); the other client's calls: {answered} of {m} answered; {closed} idle attacker connections closed to make room (idle at the limit after {} ms)",
            ctx.limits.idle_at_limit.as_millis()
        ),
        pass: answered == m,
    })
}

/// #24.9: more connections than `--max-connections`, all idle, from one address. Bound:
/// those over the limit are closed at once (refused, or taking the place of one idle longer
/// than `--idle-timeout-at-limit-ms`, closed at once having made no request); the others at
/// the header-read timeout; another client is served meanwhile (a new connection: it takes
/// the place of an idle one).
pub async fn connections(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (limit, extra) = match ctx.scale {
        super::Scale::Soak => (0, 500),
        _ => (ctx.limits.max_connections, ctx.pick(100, 200, 0)),
    };
    let n = limit + extra;
    let mut conns = Vec::with_capacity(n);
    for _ in 0..n {
        match TcpStream::connect(&ctx.open.addr).await {
            Ok(t) => conns.push(t),
            Err(_) => break,
        }
    }
    let opened = conns.len();
    let mut tasks = Vec::new();
    for mut t in conns {
        tasks.push(tokio::spawn(async move {
            let t0 = Instant::now();
            closed_within(&mut t, Duration::from_secs(30))
                .await
                .then(|| t0.elapsed())
        }));
    }
    let during = honest_call(&ctx.open.addr).await;
    let (mut at_once, mut later, mut open) = (0, 0, 0);
    for t in tasks {
        match t.await.ok().flatten() {
            // "At once": well before the header-read timeout could have closed it.
            Some(d) if d < ctx.limits.header_read / 2 => at_once += 1,
            Some(_) => later += 1,
            None => open += 1,
        }
    }
    Ok(Outcome {
        sent: format!(
            "{opened} idle TCP connections at once (limit {limit}), then another client's call"
        ),
        answer: format!(
            "{at_once} closed at once, {later} at the header-read timeout ({} ms), {open} still open after 30 s; another client served meanwhile: {}",
            ctx.limits.header_read.as_millis(),
            if during { "yes" } else { "NO" }
        ),
        pass: open == 0 && during && (limit == 0 || at_once + 1 >= extra),
    })
}
