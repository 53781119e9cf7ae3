//! Server-streaming calls against a hostile reader (review of issue #24, sixth round):
//!
//! * `stream-window`: streams whose reader never opens its HTTP/2 window. hyper polls an
//!   answer's body only while the stream may send, so neither StreamReplay's deadline nor
//!   the server's end of endless streams ever ran: the stream was kept until its connection
//!   closed, and a connection with a call in flight is never idle. Each kept its share of
//!   `--max-buffered-bytes` (two StreamReplay calls with large requests held nearly the whole
//!   budget, for good), its place among the open calls and its messages.
//! * `reflection-bodies`: server reflection reads its requests as they come (outside the
//!   body budget) and took messages of up to 4 MiB, echoing the `host` twice in its answer.

use std::time::{Duration, Instant};

use bytes::Bytes;

use super::transport::{connect_from, many_clients_address};
use super::{Ctx, Outcome};
use crate::pb;

/// A StreamReplay request of 1841 with `passes` passes by seat 0 (the first is legal, the
/// second refused: the stream has a few messages, then ends).
pub fn replay_of_passes(passes: usize) -> pb::StreamReplayRequest {
    let pass: pb::SeatAction =
        serde_json::from_value(serde_json::json!({"seat": 0, "action": {"g1841": {"pass": {}}}}))
            .unwrap_or_default();
    pb::StreamReplayRequest {
        game: Some(pb::ReplayRequest {
            game: "1841".into(),
            seats: 4,
            actions: vec![pass; passes],
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// What a request to `method` takes of `--max-buffered-bytes`: its body and its estimated
/// decoded size (`referee_service::decoded_size`, as the server counts it).
pub fn budget_share(method: &str, body: &[u8]) -> usize {
    body.len()
        + referee_service::decoded_size::request_protobuf(method, body, usize::MAX).unwrap_or(0)
        + 5
}

/// The StreamReplay request of [`replay_of_passes`] taking at most `bytes` of the budget
/// (at most 100,000 actions, the action-list limit), encoded, and its share.
pub fn replay_taking(bytes: usize) -> (Vec<u8>, usize) {
    let (mut lo, mut hi) = (1usize, 100_000usize);
    let encode = |n: usize| prost::Message::encode_to_vec(&replay_of_passes(n));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if budget_share("StreamReplay", &encode(mid)) <= bytes {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let body = encode(lo);
    let share = budget_share("StreamReplay", &body);
    (body, share)
}

/// A gRPC StreamReplay of `body` from another client than the attacks: its status code.
pub async fn honest_replay(addr: &str, body: &[u8]) -> String {
    let Ok(request) = <pb::StreamReplayRequest as prost::Message>::decode(body) else {
        return "bad request".into();
    };
    let Ok(ch) = super::other_client_channel(addr).await else {
        return "connect failed".into();
    };
    let mut c = pb::referee_client::RefereeClient::new(ch).max_encoding_message_size(64 << 20);
    let call = async {
        match c.stream_replay(request).await {
            Err(s) => format!("{:?}", s.code()),
            Ok(resp) => {
                let mut s = resp.into_inner();
                loop {
                    match s.message().await {
                        Ok(Some(_)) => {}
                        Ok(None) => break "Ok".to_string(),
                        Err(st) => break format!("{:?}", st.code()),
                    }
                }
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), call)
        .await
        .unwrap_or_else(|_| "no answer within 20 s".into())
}

/// An HTTP/2 connection from `from` whose receive window is 0 (the server can send no
/// DATA): the client, and the task that ends (with when) once the server closes it.
pub async fn zero_window_client(
    addr: &str,
    from: Option<std::net::IpAddr>,
) -> anyhow::Result<(
    h2::client::SendRequest<Bytes>,
    tokio::task::JoinHandle<Instant>,
)> {
    let tcp = connect_from(addr, from).await?;
    tcp.set_nodelay(true)?;
    let (client, conn) = h2::client::Builder::new()
        .initial_window_size(0)
        .handshake::<_, Bytes>(tcp)
        .await?;
    let conn = tokio::spawn(async move {
        let _ = conn.await;
        Instant::now()
    });
    Ok((client, conn))
}

/// One gRPC call on `client`: the whole `message` sent (as the server's window lets it
/// through) with the end of the request. The answer's head, to await.
pub async fn start_call(
    client: &h2::client::SendRequest<Bytes>,
    addr: &str,
    path: &str,
    message: &[u8],
) -> anyhow::Result<h2::client::ResponseFuture> {
    let mut c = client.clone().ready().await?;
    let req = http::Request::builder()
        .method("POST")
        .uri(format!("http://{addr}{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())?;
    let (resp, mut send) = c.send_request(req, false)?;
    let mut body = vec![0u8];
    body.extend_from_slice(&(message.len() as u32).to_be_bytes());
    body.extend_from_slice(message);
    send.send_data(Bytes::from(body), true)?;
    Ok(resp)
}

/// How an answer on a window-0 connection went: refused at once (a complete head without
/// a body), ended (its trailers came: it had no DATA to send), or held (its head came, then
/// nothing within `within`: DATA waits behind the shut window), or failed (reset). A held
/// answer's stream comes back with it, still open: dropping it would reset the stream (and
/// let the server free it), which a hostile reader does not do.
pub async fn zero_window_answer(
    resp: h2::client::ResponseFuture,
    within: Duration,
) -> (&'static str, Option<h2::RecvStream>) {
    let r = match tokio::time::timeout(within, resp).await {
        Err(_) => return ("no head", None),
        Ok(Err(_)) => return ("reset", None),
        Ok(Ok(r)) => r,
    };
    if r.body().is_end_stream() {
        return ("refused", None);
    }
    let mut body = r.into_body();
    let ended = tokio::time::timeout(within, async {
        while let Some(Ok(_)) = body.data().await {}
        body.trailers().await.is_ok()
    })
    .await;
    match ended {
        Ok(true) => ("ended", None),
        Ok(false) => ("reset", None),
        Err(_) => ("held", Some(body)),
    }
}

/// Review of #24, sixth round: on one HTTP/2 connection with window 0, StreamReplay calls
/// whose requests together take all but a thirty-second of `--max-buffered-bytes` (body and
/// decoded estimate; as many as that takes, at most the client's stream share less one) and
/// a health `Watch`; the reader takes nothing. Once the streams' slots are free again (after
/// the request timeout) another client's StreamReplay taking a sixteenth of the budget is
/// refused (the shares are still held), and it is tried again after the attack. Bound: the
/// connection is dropped `--send-timeout-ms` after the streams' end (the request timeout),
/// so their shares and open calls are free again and the other client is answered.
pub async fn stream_window(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let budget = ctx.limits.max_buffered_bytes;
    let target = budget - budget / 32;
    let (_, most) = replay_taking(usize::MAX);
    let k = target.div_ceil(most).clamp(
        1,
        ctx.limits
            .streaming_calls_per_client()
            .saturating_sub(1)
            .max(1),
    );
    let (big, big_share) = replay_taking(target / k);
    let (probe, probe_share) = replay_taking(budget / 16);
    let addr = ctx.open.addr.clone();
    let t0 = Instant::now();
    let (client, mut conn) = zero_window_client(&addr, None).await?;
    let mut calls = vec![("/referee.v1.Referee/StreamReplay", &big[..]); k];
    calls.push(("/grpc.health.v1.Health/Watch", &[][..]));
    let mut answers = Vec::new();
    for (path, message) in calls {
        let resp = start_call(&client, &addr, path, message).await?;
        answers.push(tokio::spawn(zero_window_answer(
            resp,
            Duration::from_secs(5),
        )));
    }
    let mut by = std::collections::BTreeMap::<&str, usize>::new();
    // The held streams stay open (never reset) until the server drops the connection.
    let mut open = Vec::new();
    for a in answers {
        let (how, stream) = a.await.unwrap_or(("task failed", None));
        *by.entry(how).or_default() += 1;
        open.extend(stream);
    }
    let held = by.get("held").copied().unwrap_or(0);
    // Once the streams' slots are free again: another client.
    let slots_free = t0 + ctx.limits.request_timeout + Duration::from_secs(1);
    tokio::time::sleep_until(slots_free.into()).await;
    let during = honest_replay(&addr, &probe).await;
    let wait = t0 + ctx.limits.request_timeout + ctx.limits.send_timeout + Duration::from_secs(10);
    let closed_at = tokio::time::timeout_at(wait.into(), &mut conn)
        .await
        .ok()
        .and_then(Result::ok);
    conn.abort();
    drop((client, open));
    let after = honest_replay(&addr, &probe).await;
    Ok(Outcome {
        sent: format!(
            "one HTTP/2 connection, window 0: {k} StreamReplay calls each taking {:.1} MiB of the {} MiB budget (body and decoded estimate), a health Watch; nothing read",
            big_share as f64 / 1048576.0,
            budget >> 20
        ),
        answer: format!(
            "answers {by:?}; the connection {}; another client's StreamReplay taking {:.1} MiB: {during} after the request timeout (the streams' slots free again), {after} after",
            match closed_at {
                Some(at) => format!(
                    "dropped by the server after {:.1} s",
                    (at - t0).as_secs_f64()
                ),
                None => format!(
                    "still open after {:.0} s (request timeout + send timeout + 10 s): the streams and their shares held",
                    t0.elapsed().as_secs_f64()
                ),
            },
            probe_share as f64 / 1048576.0,
        ),
        pass: held == k + 1 && closed_at.is_some() && after == "Ok",
    })
}

/// Review of #24, sixth round: server reflection streams, each sending one request whose
/// `host` is nearly `--max-request-bytes`, from as many addresses as it takes to fill the
/// stream slots; the readers take nothing (window 0). Bound: such a request is refused (the
/// stream ends without an answer to it, nothing held), not buffered, decoded, copied and
/// echoed twice in an answer the server keeps.
pub async fn reflection_bodies(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let per_client = ctx.limits.streaming_calls_per_client();
    let streams = ctx.pick(per_client, ctx.limits.stream_slots(), per_client);
    let clients = streams.div_ceil(per_client);
    let host_len = ctx.limits.max_request_bytes - 64;
    // ServerReflectionRequest { host (1): host_len bytes, list_services (7): "" }.
    let mut message = vec![0x0a];
    let mut n = host_len;
    while n >= 0x80 {
        message.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    message.push(n as u8);
    message.resize(message.len() + host_len, b'h');
    message.extend_from_slice(&[0x3a, 0x00]);
    let message = Bytes::from(message);
    let mut tasks = Vec::new();
    for c in 0..clients {
        let count = per_client.min(streams - c * per_client);
        let from = many_clients_address(&ctx.open.addr, 40_000 + c);
        let (addr, message) = (ctx.open.addr.clone(), message.clone());
        tasks.push(tokio::spawn(async move {
            let (client, conn) = zero_window_client(&addr, from).await?;
            let path = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
            let mut answers = Vec::new();
            for _ in 0..count {
                let resp = start_call(&client, &addr, path, &message).await?;
                answers.push(tokio::spawn(zero_window_answer(
                    resp,
                    Duration::from_secs(10),
                )));
            }
            let mut out = Vec::new();
            for a in answers {
                out.push(a.await.map_or("task failed", |(how, _)| how));
            }
            conn.abort();
            anyhow::Ok(out)
        }));
    }
    let mut by = std::collections::BTreeMap::<&str, usize>::new();
    for t in tasks {
        match t.await {
            Ok(Ok(out)) => out.into_iter().for_each(|o| *by.entry(o).or_default() += 1),
            _ => *by.entry("client failed").or_default() += 1,
        }
    }
    let held = by.get("held").copied().unwrap_or(0);
    let ended = by.get("ended").copied().unwrap_or(0);
    Ok(Outcome {
        sent: format!(
            "{streams} reflection streams from {clients} addresses, window 0, each one ServerReflectionRequest with a {host_len}-byte host and list_services ({:.0} MiB in all)",
            (streams * host_len) as f64 / 1048576.0
        ),
        answer: format!(
            "answers {by:?} (held: an answer waiting behind the shut window; ended: no answer to the request)"
        ),
        pass: held == 0
            && ended > 0
            && by.keys().all(|k| ["ended", "reset", "refused"].contains(k)),
    })
}

/// A gRPC-framed `ServerReflectionRequest` with a `host` of `host_len` bytes asking for the
/// file containing `symbol` (field 4).
pub fn reflection_request(host_len: usize, symbol: &str) -> Vec<u8> {
    fn field(out: &mut Vec<u8>, tag: u8, bytes: &[u8]) {
        out.push(tag);
        let mut n = bytes.len();
        while n >= 0x80 {
            out.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
        out.extend_from_slice(bytes);
    }
    let mut message = Vec::new();
    field(&mut message, 0x0a, &vec![b'h'; host_len]);
    field(&mut message, 0x22, symbol.as_bytes());
    let mut framed = vec![0u8];
    framed.extend_from_slice(&(message.len() as u32).to_be_bytes());
    framed.extend_from_slice(&message);
    framed
}

/// Review of #24, sixth round ("Memory budget, new term"): server reflection streams whose
/// readers never open their window, each on a connection of its own, each pipelining
/// nearly 1 MiB (hyper's stream window) of requests for the largest file of the API
/// (`g1841.proto`, 97,896 bytes) with hosts just under the 16 KiB request limit: the server
/// answers ahead of the reader (three answers of ≈ 0.13 MB) and the requests it has not read
/// wait in h2. A first wave fills the stream slots (at most 128), a second wave comes once
/// the first wave's slots came back on main (the request timeout). Bound: at most
/// `MAX_REFLECTION_STREAMS` (16) reflection streams held at once whatever the waves, their
/// places kept until the server drops their connections; another client's reflection call
/// answered after.
pub async fn reflection_streams(ctx: &Ctx) -> anyhow::Result<Outcome> {
    // A client's reflection streams are bounded by both per-client caps: the wave comes from
    // as many addresses as it takes to fill every reflection place (at the server's defaults,
    // a quarter of 256 stream slots per client, the reflection cap of 4 decides).
    let per_client = referee_service::server::MAX_REFLECTION_STREAMS_PER_CLIENT
        .min(ctx.limits.streaming_calls_per_client())
        .max(1);
    let wave = ctx
        .limits
        .stream_slots()
        .min(ctx.pick(16, 128, 16))
        .max(referee_service::server::MAX_REFLECTION_STREAMS);
    let message = reflection_request(16_000, "referee.g1841.v1.State");
    let count = (1_000_000 / message.len()).max(1);
    let body = Bytes::from(message.repeat(count));
    let addr = ctx.open.addr.clone();
    let launch = |first_client: usize| {
        let mut tasks = Vec::new();
        for i in 0..wave {
            let from = many_clients_address(&addr, first_client + i / per_client);
            let (addr, body) = (addr.clone(), body.clone());
            tasks.push(tokio::spawn(async move {
                let (client, conn) = zero_window_client(&addr, from).await?;
                let mut c = client.clone().ready().await?;
                let req = http::Request::builder()
                    .method("POST")
                    .uri(format!(
                        "http://{addr}/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
                    ))
                    .header("content-type", "application/grpc")
                    .header("te", "trailers")
                    .body(())?;
                let (resp, mut send) = c.send_request(req, false)?;
                send.send_data(body, true)?;
                let (how, held) = zero_window_answer(resp, Duration::from_secs(3)).await;
                anyhow::Ok((how, (client, conn, send, held)))
            }));
        }
        tasks
    };
    async fn gather<T>(
        tasks: Vec<tokio::task::JoinHandle<anyhow::Result<(&'static str, T)>>>,
    ) -> (std::collections::BTreeMap<&'static str, usize>, Vec<T>) {
        let mut by = std::collections::BTreeMap::new();
        let mut kept = Vec::new();
        for t in tasks {
            match t.await {
                Ok(Ok((how, k))) => {
                    *by.entry(how).or_default() += 1;
                    kept.push(k);
                }
                _ => *by.entry("client failed").or_default() += 1,
            }
        }
        (by, kept)
    }
    let t0 = Instant::now();
    let (first, first_kept) = gather(launch(50_000)).await;
    let second_at = t0 + ctx.limits.request_timeout + Duration::from_secs(1);
    tokio::time::sleep_until(second_at.into()).await;
    let (second, second_kept) = gather(launch(50_000 + wave)).await;
    let held = |by: &std::collections::BTreeMap<&str, usize>| by.get("held").copied().unwrap_or(0);
    let (held1, held2) = (held(&first), held(&second));
    // The first wave's connections, dropped by the server at request + send timeout.
    let wait = t0 + ctx.limits.request_timeout + ctx.limits.send_timeout + Duration::from_secs(10);
    let mut dropped = 0;
    let mut first_kept = first_kept;
    for (_, conn, _, _) in first_kept.iter_mut() {
        if tokio::time::timeout_at(wait.into(), &mut *conn)
            .await
            .is_ok()
        {
            dropped += 1;
        }
    }
    for (_, conn, _, _) in first_kept.iter().chain(second_kept.iter()) {
        conn.abort();
    }
    drop((first_kept, second_kept));
    let after = honest_reflection(&addr).await;
    let limit = referee_service::server::MAX_REFLECTION_STREAMS;
    Ok(Outcome {
        sent: format!(
            "two waves of {wave} server reflection streams ({per_client} per address, each on a connection of its own, window 0), the second {:.0} s after the first (the request timeout: the first wave's slots came back on main); each stream {count} FileContainingSymbol(referee.g1841.v1.State) requests with a 16,000-byte host ({:.2} MB), nothing read",
            (second_at - t0).as_secs_f64(),
            body.len() as f64 / 1e6
        ),
        answer: format!(
            "first wave {first:?}, second wave {second:?}: {} held at once (limit {limit}); {dropped} of the first wave's connections dropped by the server; another client's reflection call afterwards: {after}",
            held1 + held2
        ),
        // The second wave finds no place only when the first took them all.
        pass: held1 + held2 <= limit && (held1 < limit || held2 == 0) && after == "Ok",
    })
}

/// A reflection `list_services` call from another client than the attacks: "Ok" with an
/// answer, else what went wrong.
pub async fn honest_reflection(addr: &str) -> String {
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::{ServerReflectionRequest, server_reflection_request};
    let Ok(ch) = super::other_client_channel(addr).await else {
        return "connect failed".into();
    };
    let request = ServerReflectionRequest {
        host: "localhost".into(),
        message_request: Some(server_reflection_request::MessageRequest::ListServices(
            String::new(),
        )),
    };
    let call = async {
        let mut c = ServerReflectionClient::new(ch);
        match c
            .server_reflection_info(tokio_stream::iter(vec![request]))
            .await
        {
            Err(s) => format!("{:?}", s.code()),
            Ok(resp) => {
                let mut s = resp.into_inner();
                match s.message().await {
                    Ok(Some(_)) => "Ok".into(),
                    Ok(None) => "no answer".into(),
                    Err(st) => format!("{:?}", st.code()),
                }
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), call)
        .await
        .unwrap_or_else(|_| "no answer within 20 s".into())
}
