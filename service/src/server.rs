//! Wiring of the server: one TCP port serving gRPC (HTTP/2), gRPC-Web (HTTP/1.1 or 2) and
//! HTTP/JSON, plus gRPC health and reflection.
//!
//! Layers, outermost first: CORS (when configured) → the request body read in full →
//! global concurrency limit with load shedding → the call's deadline → routes (the gRPC
//! routes behind gRPC-Web translation). Requests over the concurrency limit are refused at
//! once with `RESOURCE_EXHAUSTED` (HTTP 429 for JSON); a streaming call keeps its slot until
//! its answer's body ends or is dropped (at most the request timeout plus the send timeout:
//! the connection of a stream not taken by then is dropped); calls not answered by their
//! deadline end with `DEADLINE_EXCEEDED` (HTTP 504), in the caller's protocol. Request bodies
//! over `max_request_bytes` are refused (`OUT_OF_RANGE`, HTTP 413), at once and unread when
//! their `Content-Length` announces it.
//!
//! Connections are served by hyper directly (`serve_connections`), not by tonic's transport
//! server: tonic's server applies gRPC's `grpc-timeout` to every route and answers in gRPC
//! even a JSON call, so the deadline is ours (`deadline`) and answers each protocol in its
//! form.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tonic::Status;
use tower::ServiceBuilder;
use tower_http::cors::{AllowOrigin, Any, CorsLayer};

use crate::api::Api;
use crate::grpc::GrpcReferee;
use crate::http_json;
use crate::pb;
use crate::shares::{ClientKey, ClientShares, Over, Share};

/// Settings of `referee serve`.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on; port 0 picks a free port.
    pub addr: SocketAddr,
    /// Largest request body accepted, in bytes.
    pub max_request_bytes: usize,
    /// Longest time one request may take.
    pub request_timeout: Duration,
    /// Requests processed at once; more are shed with RESOURCE_EXHAUSTED.
    pub max_concurrency: usize,
    /// Origins allowed by CORS (`*` = any); empty = CORS off.
    pub cors_origins: Vec<String>,
    /// After the shutdown signal, how long in-flight calls and open connections may take to
    /// finish before the server exits anyway.
    pub shutdown_grace: Duration,
    /// Sealing keys (`KEY_ID:HEX` per line, the first seals); `None` = open mode.
    pub seal_keys: Option<String>,
    /// Longest time a request body may take to arrive. Bodies are read completely before a
    /// request takes a concurrency slot, so slow senders cannot hold slots.
    pub body_timeout: Duration,
    /// `--allow-arbiter-view`: arbiter views (ViewRequest.viewer = ARBITER) for every caller,
    /// and Playout in sealed mode.
    pub allow_arbiter_view: bool,
    /// Longest time a connection may take to send a complete request header: the first
    /// request's from the moment the connection is accepted (HTTP/1.1 and HTTP/2, also while
    /// the protocol is not known yet), and each later HTTP/1.1 request's from the end of the
    /// previous answer (so also how long an idle HTTP/1.1 keep-alive connection stays open).
    /// A connection over it is closed.
    pub header_read_timeout: Duration,
    /// Longest time a connection that has made requests may stay open with no call in flight
    /// (HTTP/2 above all: HTTP/1.1 connections wait for their next request only
    /// `header_read_timeout`). Then the server closes it gracefully (HTTP/2 GOAWAY); a
    /// connection still open `header_read_timeout` after any graceful close began (and no
    /// call in flight) is dropped, whatever the peer does.
    pub idle_timeout: Duration,
    /// The bytes of request bodies all connections together may have buffered at once
    /// (read or announced, until the call has answered); a body that finds the budget spent
    /// is refused with RESOURCE_EXHAUSTED (HTTP 429). At least `max_request_bytes` is
    /// sensible.
    pub max_buffered_bytes: usize,
    /// Connections open at once. At the limit a new connection is taken by closing the open
    /// connection idle longest, if one has had no call in flight for at least
    /// `idle_timeout_at_limit`; else it is closed as soon as it is accepted.
    pub max_connections: usize,
    /// How long a connection must have had no call in flight (or, without a request yet,
    /// have been open) before a new connection at the limit may close it
    /// (`max_connections`).
    pub idle_timeout_at_limit: Duration,
    /// HTTP/2 streams (calls) open at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS).
    pub max_streams_per_connection: u32,
    /// Longest time an answer may wait to be sent (a client that never opens its HTTP/2
    /// receive window, or never reads); then the connection is dropped.
    pub send_timeout: Duration,
    /// The bytes of answers ready and not yet sent, all connections together: an answer
    /// that would pass it is not kept (RESOURCE_EXHAUSTED instead) and the connection that
    /// would hold the most is dropped at once (a client that never opens its HTTP/2 window,
    /// on many connections).
    pub max_unsent_bytes: usize,
    /// Calls open at once, all connections together, from the complete request header until
    /// the answer has been sent in full or dropped: over it a call is refused at once with
    /// RESOURCE_EXHAUSTED (HTTP 429; without a body on HTTP/2, so that the refusal holds
    /// nothing for a client that never opens its window). What a waiting call costs beyond
    /// its answer's bytes (its HTTP/2 stream, task, request head) is bounded by it whatever
    /// the number of connections.
    pub max_open_calls: usize,
    /// Calls open at once from one client address (an IPv4 address, an IPv6 /64), its share
    /// of `max_open_calls`: over it a call of that client is refused at once as over
    /// `max_open_calls`, so that one client holding its calls open (answers it never takes)
    /// cannot lock every other client out. Behind a proxy that connects on behalf of every
    /// client, set it to `max_open_calls`.
    pub max_open_calls_per_client: usize,
    /// Server-streaming calls (StreamReplay, health `Watch`, reflection) one client address
    /// may have open at once: its share of the stream slots (half of `max_concurrency`), so
    /// that one client holding streams open for the request timeout leaves the others
    /// streams to open. `None`: a quarter of the stream slots, at least one
    /// ([`default_streaming_calls_per_client`]). Behind a proxy that connects for every
    /// client, set it to half of `max_concurrency`.
    pub max_streaming_calls_per_client: Option<usize>,
    /// The bytes one request may take once decoded, estimated from its body before it is
    /// decoded ([`crate::decoded_size`]): over it the request is refused with
    /// INVALID_ARGUMENT naming the field where the estimate passed it. Within it, the
    /// estimate takes its share of `max_buffered_bytes` with the body until the call has
    /// answered. Also the bound of an ImportGame's export and of an opened sealed state.
    pub max_decoded_bytes: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 50051)),
            max_request_bytes: 4 * 1024 * 1024,
            request_timeout: Duration::from_secs(30),
            max_concurrency: 256,
            cors_origins: Vec::new(),
            shutdown_grace: Duration::from_secs(30),
            seal_keys: None,
            body_timeout: Duration::from_secs(10),
            allow_arbiter_view: false,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_buffered_bytes: 64 * 1024 * 1024,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            idle_timeout_at_limit: Duration::from_millis(DEFAULT_IDLE_TIMEOUT_AT_LIMIT_MS),
            max_streams_per_connection: DEFAULT_MAX_STREAMS_PER_CONNECTION,
            send_timeout: Duration::from_secs(30),
            max_unsent_bytes: 64 * 1024 * 1024,
            max_open_calls: 2048,
            max_open_calls_per_client: DEFAULT_MAX_OPEN_CALLS_PER_CLIENT,
            max_streaming_calls_per_client: None,
            max_decoded_bytes: crate::decoded_size::DEFAULT_MAX_DECODED_BYTES,
        }
    }
}

/// Default of [`ServeConfig::max_connections`]. Every HTTP/2 connection costs the server
/// about 29 KiB however idle (h2's write buffer of 16 KiB, its read buffer of 8 KiB, the
/// HPACK decoder's 4 KiB: fixed in the library), and more while its streams wait to be
/// answered; 1,024 of them about 29 MiB (4,096 were 116 MiB before any call, and 1,000
/// connections each sending 100 calls at once took a release server 244 MiB above idle:
/// docs/SECURITY.md, "Memory budget").
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Default of [`ServeConfig::idle_timeout_at_limit`], milliseconds. Connections that are
/// between calls for less than this are not closed to make room (a client's pool of
/// connections making calls every moment keeps them); one idle for a second is closed, and
/// its client, if honest, connects again when it next calls. Filling the limit with
/// connections that stay idle (from many addresses, so that no per-client limit applies)
/// then locks nobody out: to keep a connection, an attacker must keep a call in flight on
/// it, which the call limits bound.
pub const DEFAULT_IDLE_TIMEOUT_AT_LIMIT_MS: u64 = 1_000;

/// Default of [`ServeConfig::max_streams_per_connection`] (HTTP/2
/// SETTINGS_MAX_CONCURRENT_STREAMS; clients queue calls beyond it). What a connection's
/// streams cost while they wait to be answered or refused grows with their number: with
/// [`DEFAULT_MAX_CONNECTIONS`], at most 32,768 streams at once (409,600 with 4,096 × 100
/// before).
pub const DEFAULT_MAX_STREAMS_PER_CONNECTION: u32 = 32;

/// Default of [`ServeConfig::max_open_calls_per_client`]: a quarter of the default
/// `--max-open-calls` (2048), so that one client address holding every call it may keep
/// open leaves three quarters of them to the others.
pub const DEFAULT_MAX_OPEN_CALLS_PER_CLIENT: usize = 512;

/// The stream slots of a server admitting `max_concurrency` calls: half of them, at least
/// one (server-streaming calls hold theirs until the stream ends, at most the request
/// timeout, and must leave the other half to ordinary calls).
pub fn stream_slots(max_concurrency: usize) -> usize {
    (max_concurrency / 2).max(1)
}

/// Default of [`ServeConfig::max_streaming_calls_per_client`]: a quarter of the stream slots
/// ([`stream_slots`]), at least one: 32 of 128 at the default `--max-concurrency` 256, so
/// that one client address holding every stream it may leaves three quarters of them to
/// the others (as `--max-open-calls-per-client` does for open calls).
pub fn default_streaming_calls_per_client(max_concurrency: usize) -> usize {
    (stream_slots(max_concurrency) / 4).max(1)
}

/// What kind of call a request is, from its content type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CallKind {
    Grpc,
    GrpcWeb,
    Json,
}

fn call_kind(headers: &HeaderMap) -> CallKind {
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if ct.starts_with("application/grpc-web") {
        CallKind::GrpcWeb
    } else if ct.starts_with("application/grpc") {
        CallKind::Grpc
    } else {
        CallKind::Json
    }
}

/// An error answer in the caller's protocol: a trailers-only gRPC (or gRPC-Web) response, or
/// the JSON error body. `json_status` overrides the HTTP status of the JSON form.
fn status_response(
    headers: &HeaderMap,
    status: Status,
    json_status: Option<StatusCode>,
) -> Response {
    match call_kind(headers) {
        CallKind::Json => {
            let mut resp = http_json::error_response(&status);
            if let Some(code) = json_status {
                *resp.status_mut() = code;
            }
            resp
        }
        kind => {
            let (mut parts, ()) = status.into_http::<()>().into_parts();
            if kind == CallKind::GrpcWeb
                && let Some(ct) = headers.get(header::CONTENT_TYPE)
            {
                parts.headers.insert(header::CONTENT_TYPE, ct.clone());
            }
            Response::from_parts(parts, axum::body::Body::empty())
        }
    }
}

/// A path no route serves: JSON callers get the JSON error (404 `NOT_FOUND`), gRPC and
/// gRPC-Web callers `UNIMPLEMENTED` in their protocol, as for an unknown gRPC method.
async fn no_route(
    method: axum::http::Method,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let status = match call_kind(&headers) {
        CallKind::Json => Status::not_found(format!(
            "no route for {method} {path}: the JSON API is POST /v1/<Method> (e.g. /v1/NewGame; \
             GET /v1/ListGames), gRPC is /referee.v1.Referee/<Method>"
        )),
        CallKind::Grpc | CallKind::GrpcWeb => {
            Status::unimplemented(format!("no service or method at {path}"))
        }
    };
    status_response(&headers, status, None)
}

/// The server-streaming calls: their answer is a stream that goes on after the response
/// has started, so they keep their concurrency slot until it ends ([`concurrency_limit`]).
fn is_stream(path: &str) -> bool {
    matches!(
        path,
        "/v1/StreamReplay" | "/referee.v1.Referee/StreamReplay" | "/grpc.health.v1.Health/Watch"
    ) || path.starts_with("/grpc.reflection.")
}

/// Streams with no end of their own (health `Watch`, server reflection): they keep their
/// concurrency slot ([`is_stream`]) and are ended by the server ([`Ending`]) at the
/// request timeout or when the server shuts down.
fn is_endless(path: &str) -> bool {
    path == "/grpc.health.v1.Health/Watch" || path.starts_with("/grpc.reflection.")
}

/// Woken when the server begins to shut down: endless streams end then ([`Ending`]).
fn shutting_down() -> &'static (
    tokio::sync::watch::Sender<bool>,
    tokio::sync::watch::Receiver<bool>,
) {
    static CHANNEL: std::sync::OnceLock<(
        tokio::sync::watch::Sender<bool>,
        tokio::sync::watch::Receiver<bool>,
    )> = std::sync::OnceLock::new();
    CHANNEL.get_or_init(|| tokio::sync::watch::channel(false))
}

/// The body of an endless gRPC stream, ended by the server: at `deadline` with
/// DEADLINE_EXCEEDED, when the server shuts down with UNAVAILABLE (as gRPC trailers).
struct Ending {
    body: axum::body::Body,
    deadline: std::pin::Pin<Box<tokio::time::Sleep>>,
    shutdown: std::pin::Pin<Box<dyn Future<Output = ()> + Send>>,
    done: bool,
}

impl Ending {
    fn new(body: axum::body::Body, after: Duration) -> Self {
        let mut rx = shutting_down().1.clone();
        Self {
            body,
            deadline: Box::pin(tokio::time::sleep(after)),
            shutdown: Box::pin(async move {
                let _ = rx.wait_for(|down| *down).await;
            }),
            done: false,
        }
    }

    fn trailers(code: tonic::Code, message: &str) -> http_body::Frame<bytes::Bytes> {
        let mut t = HeaderMap::new();
        t.insert("grpc-status", HeaderValue::from(code as i32));
        if let Ok(v) = HeaderValue::from_str(message) {
            t.insert("grpc-message", v);
        }
        http_body::Frame::trailers(t)
    }
}

impl http_body::Body for Ending {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        use std::task::Poll;
        if self.done {
            return Poll::Ready(None);
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            self.done = true;
            return Poll::Ready(Some(Ok(Self::trailers(
                tonic::Code::DeadlineExceeded,
                "the stream reached the server's request timeout",
            ))));
        }
        if self.shutdown.as_mut().poll(cx).is_ready() {
            self.done = true;
            return Poll::Ready(Some(Ok(Self::trailers(
                tonic::Code::Unavailable,
                "the server is shutting down",
            ))));
        }
        let polled = std::pin::Pin::new(&mut self.body).poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) {
            self.done = true;
        }
        polled
    }
}

/// The `--max-concurrency` slots, and how long a stream may keep one.
#[derive(Clone, Debug)]
struct Slots {
    semaphore: Arc<Semaphore>,
    /// The slots server-streaming calls ([`is_stream`]) may hold at once: half of
    /// `--max-concurrency` ([`stream_slots`]), so that streams held open for the request
    /// timeout (a client opening health `Watch` streams on many connections) can never take
    /// the slots every ordinary call needs; and of them at most
    /// `--max-streaming-calls-per-client` held by one client address, so that one client
    /// cannot take every stream slot either.
    streams: Arc<ClientShares>,
    /// The server's request timeout: the longest a stream's work runs (an endless stream is
    /// ended with DEADLINE_EXCEEDED then: [`Ending`]).
    stream_hold: Duration,
    /// Server reflection streams open at once ([`MAX_REFLECTION_STREAMS`]), of which one
    /// client address holds at most [`MAX_REFLECTION_STREAMS_PER_CLIENT`].
    reflection: Arc<ClientShares>,
}

/// Server reflection streams open at once, all clients together (a stream holds its place
/// until its answer's body ends or is dropped). A reflection stream reads its requests as
/// they come (a bidirectional stream, outside `--max-buffered-bytes`) and answers each ahead
/// of its reader: one answer in hyper, one in tonic-reflection's channel, one in its task,
/// each up to the largest file descriptor of the API (97,896 bytes, `g1841.proto`) and three
/// copies of its request ([`MAX_REFLECTION_REQUEST_BYTES`]), ≈ 0.44 MB; and the requests it
/// has not read yet wait in h2's buffer, up to the stream's receive window (hyper's 1 MiB).
/// So a stream whose reader never opens its window holds ≈ 2.4 MB (measured) for up to the
/// request timeout plus the send timeout (60 s): at most 16 of them ≈ 38 MiB, where the 128
/// stream slots, given back at the request timeout, let 245 take a release server to 434 MiB
/// (`referee-attack --server-defaults --full --only reflection-streams`; review of issue
/// #24, sixth round, "Memory budget, new term"). Reflection is a tool for developers (grpcurl
/// opens one stream per command); 16 leave room for many of them at once.
pub const MAX_REFLECTION_STREAMS: usize = 16;

/// Server reflection streams one client address (an IPv4 address, an IPv6 /64) may have open
/// at once: a quarter of [`MAX_REFLECTION_STREAMS`].
pub const MAX_REFLECTION_STREAMS_PER_CLIENT: usize = 4;

/// The global concurrency limit with load shedding: a request that finds every slot taken is
/// refused at once with RESOURCE_EXHAUSTED (HTTP 429) instead of waiting. A call gives its
/// slot back when its response is ready — a server-streaming call ([`is_stream`]) only when
/// its answer's body ends (the last message taken) or is dropped (the reader gone, or its
/// connection dropped by the server). A reader that stops reading cannot keep a slot longer
/// than the request timeout plus the send timeout: by then its connection is dropped
/// (`InFlight::ends_by`). The slot used to come back at the request timeout while the stream
/// lived on, so twice the stream slots could hold streams at once, their answers outside
/// every budget (review of issue #24, sixth round). Server reflection streams also take a
/// place of their own ([`MAX_REFLECTION_STREAMS`]).
///
/// (tower's `GlobalConcurrencyLimit` gives the slot back when the response future resolves,
/// which for a stream is when its first message is ready.)
///
/// A health `Check` takes no slot: it does no work, and a probe (deploy/k8s) must not be
/// refused because streams or calls hold every slot. Streams take a slot of their own
/// share too ([`Slots::streams`]): at most half the slots are held by streams, and of those
/// at most `--max-streaming-calls-per-client` by one client address (the request's
/// [`ClientKey`], put there by the server's connection).
async fn concurrency_limit(State(slots): State<Slots>, req: Request, next: Next) -> Response {
    if req.uri().path() == "/grpc.health.v1.Health/Check" {
        return next.run(req).await;
    }
    let stream_permit = if is_stream(req.uri().path()) {
        let client = req.extensions().get::<ClientKey>().copied();
        match slots.streams.admit(client) {
            Ok(p) => Some(p),
            Err(over) => {
                let message = match over {
                    Over::All => {
                        "the server's streams hold half its concurrency slots, their limit; \
                         retry later"
                    }
                    Over::Client => {
                        "this client address has its share of the server's streams open \
                         (--max-streaming-calls-per-client); retry later"
                    }
                };
                return status_response(req.headers(), Status::resource_exhausted(message), None);
            }
        }
    } else {
        None
    };
    let reflection_permit = if req.uri().path().starts_with("/grpc.reflection.") {
        let client = req.extensions().get::<ClientKey>().copied();
        match slots.reflection.admit(client) {
            Ok(p) => Some(p),
            Err(over) => {
                let message = match over {
                    Over::All => format!(
                        "the server has its limit of server reflection streams open ({}); \
                         retry later",
                        MAX_REFLECTION_STREAMS
                    ),
                    Over::Client => format!(
                        "this client address has its share of the server reflection streams \
                         open ({}); retry later",
                        MAX_REFLECTION_STREAMS_PER_CLIENT
                    ),
                };
                return status_response(req.headers(), Status::resource_exhausted(message), None);
            }
        }
    } else {
        None
    };
    let Ok(permit) = slots.semaphore.clone().try_acquire_owned() else {
        return status_response(
            req.headers(),
            Status::resource_exhausted("the server is at its concurrency limit; retry later"),
            None,
        );
    };
    if !is_stream(req.uri().path()) {
        let resp = next.run(req).await;
        drop(permit);
        return resp;
    }
    let endless = is_endless(req.uri().path());
    let mut resp = next.run(req).await;
    if endless {
        resp = resp.map(|body| axum::body::Body::new(Ending::new(body, slots.stream_hold)));
    }
    // The permits go back when the body ends or is dropped.
    let held = (permit, stream_permit, reflection_permit);
    resp.map(|body| axum::body::Body::new(Guarded::new(body, held)))
}

/// A response body that holds `guard` until the body has ended (or failed), or until the
/// body itself is dropped (the connection or stream went away), whichever comes first.
struct Guarded<G> {
    body: axum::body::Body,
    guard: Option<G>,
}

impl<G> Guarded<G> {
    fn new(body: axum::body::Body, guard: G) -> Self {
        Self {
            body,
            guard: Some(guard),
        }
    }
}

impl<G: Unpin> http_body::Body for Guarded<G> {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let polled = std::pin::Pin::new(&mut self.body).poll_frame(cx);
        if matches!(polled, std::task::Poll::Ready(None | Some(Err(_)))) {
            self.guard = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// Calls that keep the caller's deadline themselves: Playout answers the games played so far
/// (`partial`) at 90 % of it, counted from the request's arrival (so always before the
/// safety net below, which counts from the body's end), StreamReplay ends its stream with `DEADLINE_EXCEEDED` (the
/// deadline covers the whole stream, not only its first message). For them [`deadline`]
/// applies only the server's request timeout, as a safety net.
fn keeps_own_deadline(path: &str) -> bool {
    matches!(
        path,
        "/v1/Playout"
            | "/v1/StreamReplay"
            | "/referee.v1.Referee/Playout"
            | "/referee.v1.Referee/StreamReplay"
    )
}

/// The call's deadline, for every protocol alike: the caller's `grpc-timeout` header (sent
/// by gRPC and gRPC-Web clients; honoured on HTTP/JSON calls too), at most the server's
/// request timeout. A call not answered by then gets `DEADLINE_EXCEEDED` in its own protocol
/// (a gRPC status, or the JSON error with HTTP 504), and its work is dropped, which stops it
/// ([`crate::work`]). Counted from the moment the request body has been read.
async fn deadline(State(request_timeout): State<Duration>, req: Request, next: Next) -> Response {
    let header = req
        .headers()
        .get("grpc-timeout")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let client = header.as_deref().and_then(crate::grpc::parse_grpc_timeout);
    let mut kind = HeaderMap::new();
    if let Some(ct) = req.headers().get(header::CONTENT_TYPE) {
        kind.insert(header::CONTENT_TYPE, ct.clone());
    }
    let by_client =
        client.filter(|c| *c < request_timeout && !keeps_own_deadline(req.uri().path()));
    let limit = by_client.unwrap_or(request_timeout);
    let started = tokio::time::Instant::now();
    match tokio::time::timeout(limit, next.run(req)).await {
        // An answer made after the deadline is not sent either (the timer's granularity is
        // 1 ms, so `grpc-timeout: 1n` would otherwise depend on the timing).
        Ok(resp) if started.elapsed() < limit => resp,
        _ => {
            let message = match (by_client, header) {
                (Some(_), Some(h)) => {
                    format!("the call was not answered within its deadline (grpc-timeout: {h})")
                }
                _ => format!(
                    "the call was not answered within the server's request timeout ({} ms)",
                    request_timeout.as_millis()
                ),
            };
            status_response(&kind, Status::deadline_exceeded(message), None)
        }
    }
}

/// Limits applied while a request body arrives, before the request takes a concurrency slot.
#[derive(Clone, Debug)]
struct BodyLimits {
    /// `--max-request-bytes`: the limit of a JSON body, and the limit quoted in messages.
    max_request_bytes: usize,
    /// The limit of a gRPC or gRPC-Web body: room for the framing and for gRPC-Web text
    /// (base64), so that tonic's precise limit on the decoded message decides.
    max_grpc_bytes: usize,
    timeout: Duration,
    /// The bytes all buffered bodies together may hold (`--max-buffered-bytes`).
    budget: ByteBudget,
    budget_bytes: usize,
    /// `--max-decoded-bytes`: the estimated bytes of one decoded request.
    max_decoded_bytes: usize,
}

/// Reads the whole request body (bounded in size and time) before passing the request on, so
/// a slow or stalled sender never holds one of the `--max-concurrency` slots. Marks the
/// request with its [`crate::work::Arrival`] first.
///
/// Server reflection (`/grpc.reflection.*`) is a bidirectional stream whose request body ends
/// only when the client is done, so it is passed on unbuffered: its messages are bounded
/// one by one ([`MAX_REFLECTION_REQUEST_BYTES`]), the stream by the request timeout and the
/// stream slots.
async fn buffer_body(State(limits): State<BodyLimits>, mut req: Request, next: Next) -> Response {
    // The outermost of the server's own layers: the request has just arrived.
    req.extensions_mut()
        .insert(crate::work::Arrival(std::time::Instant::now()));
    if req.uri().path().starts_with("/grpc.reflection.") {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let max_bytes = match call_kind(&parts.headers) {
        CallKind::Json => limits.max_request_bytes,
        CallKind::Grpc | CallKind::GrpcWeb => limits.max_grpc_bytes,
    };
    // A body announced over the limit is refused before it is read: no waiting for it, and
    // no `100 Continue` to an `Expect: 100-continue` client (hyper sends that only when the
    // body is first polled).
    let announced = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > max_bytes as u64) {
        drop(body);
        return status_response(
            &parts.headers,
            Status::out_of_range(http_json::too_large_message(limits.max_request_bytes)),
            Some(StatusCode::PAYLOAD_TOO_LARGE),
        );
    }
    // Announced bodies take their share of the byte budget before a byte is read.
    let mut held = match announced.map(|n| limits.budget.take(n as usize)) {
        Some(None) => return busy_response(&parts.headers, &limits),
        Some(Some(permit)) => Some(permit),
        None => None,
    };
    let read = read_body(body, max_bytes, &limits.budget, &mut held);
    match tokio::time::timeout(limits.timeout, read).await {
        Err(_) => status_response(
            &parts.headers,
            Status::deadline_exceeded(format!(
                "the request body did not arrive within {} ms",
                limits.timeout.as_millis()
            )),
            Some(StatusCode::REQUEST_TIMEOUT),
        ),
        Ok(Err(BodyError::TooLarge)) => status_response(
            &parts.headers,
            Status::out_of_range(http_json::too_large_message(limits.max_request_bytes)),
            Some(StatusCode::PAYLOAD_TOO_LARGE),
        ),
        Ok(Err(BodyError::Busy)) => busy_response(&parts.headers, &limits),
        Ok(Err(BodyError::Unreadable)) => status_response(
            &parts.headers,
            Status::invalid_argument("the request body could not be read"),
            None,
        ),
        Ok(Ok(bytes)) => {
            // The decoded size, estimated before anything is decoded: over the limit the call
            // is refused; within it the estimate shares the byte budget with the body.
            let decoded = match decoded_estimate(&parts, &bytes, limits.max_decoded_bytes) {
                Ok(n) => n.saturating_add(playout_answer_estimate(&parts, &bytes)),
                Err(status) => return status_response(&parts.headers, status, None),
            };
            if decoded > 0 {
                match limits.budget.take(decoded) {
                    Some(more) => match held.as_mut() {
                        Some(p) => p.merge(more),
                        None => held = Some(more),
                    },
                    None => return busy_response(&parts.headers, &limits),
                }
            }
            let streaming = is_stream(parts.uri.path());
            let resp = next
                .run(Request::from_parts(parts, axum::body::Body::from(bytes)))
                .await;
            if streaming && let Some(held) = held {
                // A stream's work goes on after its answer has started (StreamReplay decodes
                // its board and replays while it sends): its share stays taken until the
                // answer's body is done or dropped.
                use http_body_util::BodyExt;
                return resp.map(|body| {
                    axum::body::Body::new(body.map_frame(move |frame| {
                        let _keep = &held;
                        frame
                    }))
                });
            }
            // The body's bytes and its estimates are accounted for until the call's answer
            // has been made and counted as waiting to be sent (`--max-unsent-bytes`, in
            // `serve_connections`), or dropped: the answer is built, encoded and copied while
            // the request's share is still taken.
            let mut resp = resp;
            if let Some(held) = held {
                resp.extensions_mut().insert(RequestShare(Arc::new(held)));
            }
            resp
        }
    }
}

/// A request's share of `--max-buffered-bytes` (its body and estimated decoded size, and a
/// Playout's answer: [`playout_answer_estimate`]), carried by its answer until the answer has
/// been collected and counted as waiting to be sent, then dropped (`serve_connections`).
/// Before, the share went back when the handler returned, while the answer was still to be
/// encoded (gRPC) and copied.
#[derive(Clone)]
struct RequestShare(#[allow(dead_code)] Arc<tokio::sync::OwnedSemaphorePermit>);

/// Bytes a Playout's answer takes per action it returns (`include_actions`), for
/// [`playout_answer_estimate`]: the action's struct (a `SeatAction` is 128 bytes, in a list
/// that may have twice the capacity it uses), its JSON (≈ 100 bytes measured, twice with a
/// `String`'s growth) and the copy the server keeps while it waits to be sent
/// (`service/tests/answer_sizes.rs`: 15–37 bytes protobuf, 61–101 JSON per action).
pub const PLAYOUT_ANSWER_BYTES_PER_ACTION: usize = 512;

/// The bytes a Playout request's answer may take, counted with the request before any work
/// starts: with `include_actions`, `games × max_actions` (at most 100,000) ×
/// [`PLAYOUT_ANSWER_BYTES_PER_ACTION`] (≈ 49 MiB at most); without, 0 (the answer is a few
/// statistics). The other whole-game answers grow with their request's actions and are
/// smaller than its estimated decoded size, held until they are counted as unsent
/// ([`RequestShare`]). A request that does not read (or is not a Playout) counts 0: the
/// call refuses it.
fn playout_answer_estimate(parts: &axum::http::request::Parts, body: &[u8]) -> usize {
    #[derive(Clone, PartialEq, prost::Message)]
    struct Caps {
        #[prost(uint32, tag = "5")]
        games: u32,
        #[prost(uint32, tag = "6")]
        max_actions: u32,
        #[prost(bool, tag = "7")]
        include_actions: bool,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct JsonCaps {
        games: Option<u32>,
        #[serde(alias = "max_actions")]
        #[serde(rename = "maxActions")]
        max_actions: Option<u32>,
        #[serde(alias = "include_actions")]
        #[serde(rename = "includeActions")]
        include_actions: Option<bool>,
    }
    let path = parts.uri.path();
    let caps = if path == "/v1/Playout" {
        let c: JsonCaps = serde_json::from_slice(body).unwrap_or_default();
        Caps {
            games: c.games.unwrap_or(0),
            max_actions: c.max_actions.unwrap_or(0),
            include_actions: c.include_actions.unwrap_or(false),
        }
    } else if path == "/referee.v1.Referee/Playout" {
        let text = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/grpc-web-text"));
        let decoded;
        let frames: &[u8] = if text {
            let Some(d) = grpc_web_text(body) else {
                return 0;
            };
            decoded = d;
            &decoded
        } else {
            body
        };
        // The first frame: uncompressed, its length, its message.
        let message = match frames {
            [0, a, b, c, d, rest @ ..] => rest.get(..u32::from_be_bytes([*a, *b, *c, *d]) as usize),
            _ => None,
        };
        match message {
            Some(m) => <Caps as prost::Message>::decode(m).unwrap_or_default(),
            None => return 0,
        }
    } else {
        return 0;
    };
    if !caps.include_actions {
        return 0;
    }
    crate::games::playout_limits(caps.games, caps.max_actions, true).map_or(0, |(g, m)| {
        (u64::from(g) * u64::from(m))
            .min(crate::games::PLAYOUT_MAX_RETURNED_ACTIONS)
            .saturating_mul(PLAYOUT_ANSWER_BYTES_PER_ACTION as u64) as usize
    })
}

/// The estimated bytes the request `body` takes once decoded ([`crate::decoded_size`]), or
/// INVALID_ARGUMENT naming the field where it passes `limit`. gRPC and gRPC-Web bodies are
/// read frame by frame (gRPC-Web text decoded from base64 first); a compressed frame is
/// refused by tonic (no `grpc-encoding` is enabled) and counts nothing; paths of other
/// services (health) count nothing.
///
/// The body is read as the route the path leads to reads it, whatever its content type:
/// the JSON routes (`/v1/…`) parse any body as JSON and tonic decodes gRPC frames under any
/// content type (base64 only under `application/grpc-web-text`, as tonic-web). Choosing by
/// the content type, as this did, let a JSON body sent as `application/grpc` and gRPC frames
/// sent as `application/json` (HTTP/2) through uncounted (review of issue #24, fifth round:
/// one 4 MiB body of empty actions 366 MiB and 394 MiB).
fn decoded_estimate(
    parts: &axum::http::request::Parts,
    body: &[u8],
    limit: usize,
) -> Result<usize, Status> {
    use crate::decoded_size::{request_json, request_protobuf};
    let path = parts.uri.path();
    let what = "the request";
    if let Some(method) = path.strip_prefix("/v1/") {
        return request_json(method, body, limit).map_err(|e| e.status(what));
    }
    match path.strip_prefix("/referee.v1.Referee/") {
        None => Ok(0),
        Some(method) => {
            let text = parts
                .headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|ct| ct.starts_with("application/grpc-web-text"));
            let decoded;
            let mut frames: &[u8] = if text {
                let Some(d) = grpc_web_text(body) else {
                    return Ok(0);
                };
                decoded = d;
                &decoded
            } else {
                body
            };
            let mut total = 0usize;
            while frames.len() >= 5 {
                let compressed = frames[0] != 0;
                let len = u32::from_be_bytes([frames[1], frames[2], frames[3], frames[4]]) as usize;
                let Some(message) = frames.get(5..5 + len) else {
                    break;
                };
                if !compressed {
                    total = total.saturating_add(
                        request_protobuf(method, message, limit.saturating_sub(total))
                            .map_err(|e| e.status(what))?,
                    );
                }
                frames = &frames[5 + len..];
            }
            Ok(total)
        }
    }
}

/// A gRPC-Web text body decoded as tonic-web decodes it (its engine: padding optional; the
/// whole multiple of 4 the body holds, which arrives as one chunk), so that what this cannot
/// decode tonic-web refuses too.
fn grpc_web_text(body: &[u8]) -> Option<Vec<u8>> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
    const TONIC_WEB: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    TONIC_WEB.decode(&body[..body.len() / 4 * 4]).ok()
}

/// `--max-buffered-bytes`: the bytes of request bodies all connections together may have
/// buffered at once (read, or announced by `Content-Length`, and not yet answered).
#[derive(Clone, Debug)]
struct ByteBudget {
    semaphore: Arc<Semaphore>,
}

impl ByteBudget {
    fn new(bytes: usize) -> Self {
        Self {
            semaphore: Arc::new(Semaphore::new(bytes.clamp(1, Semaphore::MAX_PERMITS))),
        }
    }

    /// Takes `bytes` of the budget at once, or `None` when they are not free now.
    fn take(&self, bytes: usize) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let n = u32::try_from(bytes).ok()?;
        self.semaphore.clone().try_acquire_many_owned(n).ok()
    }
}

/// Why a request body could not be buffered.
enum BodyError {
    /// Over the size limit.
    TooLarge,
    /// The byte budget of all buffered bodies is spent.
    Busy,
    /// The transport failed (reset stream, bad framing).
    Unreadable,
}

/// Reads `body` in full, at most `max_bytes`, taking every frame's bytes from `budget`
/// (beyond what `held` already holds: an announced length) before keeping them.
async fn read_body(
    body: axum::body::Body,
    max_bytes: usize,
    budget: &ByteBudget,
    held: &mut Option<tokio::sync::OwnedSemaphorePermit>,
) -> Result<bytes::Bytes, BodyError> {
    use http_body_util::BodyExt;
    let mut body = body;
    let mut chunks: Vec<bytes::Bytes> = Vec::new();
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|_| BodyError::Unreadable)?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        total = total.saturating_add(data.len());
        if total > max_bytes {
            return Err(BodyError::TooLarge);
        }
        let covered = held.as_ref().map_or(0, |p| p.num_permits());
        if total > covered {
            let more = budget.take(total - covered).ok_or(BodyError::Busy)?;
            match held {
                Some(p) => p.merge(more),
                None => *held = Some(more),
            }
        }
        chunks.push(data);
    }
    Ok(match chunks.len() {
        0 => bytes::Bytes::new(),
        1 => chunks.pop().unwrap_or_default(),
        _ => {
            let mut all = bytes::BytesMut::with_capacity(total);
            for c in &chunks {
                all.extend_from_slice(c);
            }
            all.freeze()
        }
    })
}

/// The answer to a request whose body finds the byte budget spent: RESOURCE_EXHAUSTED
/// (HTTP 429), as when the concurrency limit is reached.
fn busy_response(headers: &HeaderMap, limits: &BodyLimits) -> Response {
    status_response(
        headers,
        Status::resource_exhausted(format!(
            "the server is buffering its limit of request bodies ({} bytes in all); retry later",
            limits.budget_bytes
        )),
        None,
    )
}

fn cors_layer(origins: &[String]) -> anyhow::Result<Option<CorsLayer>> {
    if origins.is_empty() {
        return Ok(None);
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::from(Any)
    } else {
        let list = origins
            .iter()
            .map(|o| {
                HeaderValue::from_str(o).map_err(|e| anyhow::anyhow!("bad CORS origin `{o}`: {e}"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        AllowOrigin::list(list)
    };
    Ok(Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods(Any)
            .allow_headers(Any)
            .expose_headers([
                header::HeaderName::from_static("grpc-status"),
                header::HeaderName::from_static("grpc-message"),
                header::HeaderName::from_static("grpc-status-details-bin"),
            ])
            .max_age(Duration::from_secs(600)),
    ))
}

/// The largest message a server reflection stream takes (a symbol or file name, a host):
/// reflection requests are read as they come, outside `--max-buffered-bytes` (the stream's
/// request side stays open), so each must be small. With tonic's default of 4 MiB, a
/// message with a 4 MiB `host` was buffered, decoded, copied and echoed twice in the answer
/// (`valid_host`, `original_request`): about 16 MiB per stream, held while the reader does
/// not take the answer, on every stream slot at once (review of issue #24, sixth round).
/// Over it the stream ends without an answer to the message.
pub const MAX_REFLECTION_REQUEST_BYTES: usize = 16 * 1024;

/// Builds every route (gRPC services, health, reflection, JSON) with the limits applied.
pub async fn build_routes(cfg: &ServeConfig) -> anyhow::Result<axum::Router> {
    let api = match &cfg.seal_keys {
        None => Api::new(),
        Some(keys) => {
            let sealer = crate::seal::Sealer::parse(keys)?;
            tracing::info!(
                active_key = sealer.active_key_id(),
                "sealed mode: states are sealed and only sealed states are accepted"
            );
            Api::sealed(sealer)
        }
    }
    .with_arbiter_view(cfg.allow_arbiter_view)
    .with_request_timeout(cfg.request_timeout)
    .with_max_decoded_bytes(cfg.max_decoded_bytes);
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter
        .set_serving::<pb::v1::referee_server::RefereeServer<GrpcReferee>>()
        .await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?
        .max_decoding_message_size(MAX_REFLECTION_REQUEST_BYTES);
    let grpc = tonic::service::Routes::new(
        GrpcReferee::new(api.clone()).into_server(cfg.max_request_bytes),
    )
    .add_service(health_service)
    .add_service(reflection)
    .into_axum_router()
    // gRPC-Web is translated for the gRPC routes only: tonic-web answers every other
    // HTTP/1.1 request with 400, which would break JSON calls and CORS preflights.
    .layer(tonic_web::GrpcWebLayer::new());
    let mut app = grpc
        .merge(http_json::router(api, cfg.max_request_bytes))
        .fallback(no_route)
        .layer(
            ServiceBuilder::new()
                .layer(axum::middleware::from_fn_with_state(
                    Slots {
                        semaphore: Arc::new(Semaphore::new(cfg.max_concurrency.max(1))),
                        streams: Arc::new(ClientShares::new(
                            stream_slots(cfg.max_concurrency),
                            cfg.max_streaming_calls_per_client.unwrap_or_else(|| {
                                default_streaming_calls_per_client(cfg.max_concurrency)
                            }),
                        )),
                        stream_hold: cfg.request_timeout,
                        reflection: Arc::new(ClientShares::new(
                            MAX_REFLECTION_STREAMS,
                            MAX_REFLECTION_STREAMS_PER_CLIENT,
                        )),
                    },
                    concurrency_limit,
                ))
                .layer(axum::middleware::from_fn_with_state(
                    cfg.request_timeout,
                    deadline,
                )),
        );
    // Outside the limits: the body is read before the request takes a concurrency slot. The
    // bound of gRPC bodies leaves room for gRPC framing and gRPC-Web text (base64) so that
    // tonic's precise limit on the decoded message still decides.
    if cfg.max_decoded_bytes.saturating_add(cfg.max_request_bytes) > cfg.max_buffered_bytes {
        tracing::warn!(
            max_decoded_bytes = cfg.max_decoded_bytes,
            max_request_bytes = cfg.max_request_bytes,
            max_buffered_bytes = cfg.max_buffered_bytes,
            "a request's body and decoded size share --max-buffered-bytes: requests near both \
             limits will be refused with RESOURCE_EXHAUSTED even on an idle server"
        );
    }
    let body_limits = BodyLimits {
        max_request_bytes: cfg.max_request_bytes,
        max_grpc_bytes: cfg
            .max_request_bytes
            .saturating_add(cfg.max_request_bytes / 3)
            .saturating_add(1024),
        timeout: cfg.body_timeout,
        budget: ByteBudget::new(cfg.max_buffered_bytes),
        budget_bytes: cfg.max_buffered_bytes,
        max_decoded_bytes: cfg.max_decoded_bytes,
    };
    app = app.layer(axum::middleware::from_fn_with_state(
        body_limits,
        buffer_body,
    ));
    if let Some(cors) = cors_layer(&cfg.cors_origins)? {
        app = app.layer(cors);
    }
    Ok(app)
}

/// Binds `cfg.addr`, prints `referee listening on ADDR` on stdout, and serves until
/// `shutdown` completes; then stops accepting and lets in-flight calls finish.
///
/// First the file-descriptor limit is raised to its hard limit, and `max_connections`
/// lowered to what the descriptors allow if they do not allow it ([`crate::fd_limit`],
/// logged as a warning).
pub async fn serve(
    mut cfg: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    cfg.max_connections = crate::fd_limit::fit(cfg.max_connections).max_connections;
    let listener = listen(cfg.addr, listen_backlog(cfg.max_connections))
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", cfg.addr))?;
    let local = listener.local_addr()?;
    let routes = build_routes(&cfg).await?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "referee listening on {local}")?;
        out.flush()?;
    }
    tracing::info!(%local, max_request_bytes = cfg.max_request_bytes, max_concurrency = cfg.max_concurrency,
        request_timeout_ms = cfg.request_timeout.as_millis() as u64,
        header_read_timeout_ms = cfg.header_read_timeout.as_millis() as u64,
        idle_timeout_ms = cfg.idle_timeout.as_millis() as u64, max_connections = cfg.max_connections, cors = ?cfg.cors_origins,
        otlp = crate::telemetry::otlp_configured(), "referee listening");
    let (signalled_tx, signalled_rx) = tokio::sync::oneshot::channel::<()>();
    let signal = async move {
        shutdown.await;
        // Endless streams (health Watch, reflection) end now instead of holding the grace.
        shutting_down().0.send_replace(true);
        let _ = signalled_tx.send(());
    };
    let timeouts = ConnTimeouts {
        header_read: cfg.header_read_timeout,
        idle: cfg.idle_timeout,
        send: cfg.send_timeout,
        stream_hold: cfg.request_timeout,
        max_streams: cfg.max_streams_per_connection.max(1),
        connections: Arc::new(ConnectionSlots::new(
            cfg.max_connections,
            cfg.idle_timeout_at_limit,
        )),
        unsent: Arc::new(Unsent::new(cfg.max_unsent_bytes)),
        open_calls: Arc::new(ClientShares::new(
            cfg.max_open_calls,
            cfg.max_open_calls_per_client,
        )),
    };
    let server = serve_connections(listener, routes, timeouts, signal);
    let grace = cfg.shutdown_grace;
    let deadline = async move {
        if signalled_rx.await.is_ok() {
            tokio::time::sleep(grace).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = server => {
            result?;
            tracing::info!(calls_answered = crate::api::calls_answered(), calls_cancelled = crate::api::calls_cancelled(), "referee stopped");
        }
        () = deadline => {
            // Work still running (a whole game, a route search) stops at its next check
            // instead of keeping the process alive past its grace; the server waits for it
            // a little (the checks come every few milliseconds of work), so that it is
            // counted as cancelled and the process ends with it.
            referee_engine::interrupt::cancel_all();
            let work_running = crate::work::running();
            let work_still_running = crate::work::wait_until_stopped(WORK_STOP_WAIT).await;
            tracing::warn!(grace_ms = grace.as_millis() as u64, work_running, work_still_running, calls_answered = crate::api::calls_answered(), calls_cancelled = crate::api::calls_cancelled(), "shutdown grace period over: work still running stopped, closing the remaining connections");
        }
    }
    Ok(())
}

/// At the end of the shutdown grace, how long the server waits for the work it has stopped
/// ([`referee_engine::interrupt::cancel_all`]) to end before it exits anyway.
const WORK_STOP_WAIT: Duration = Duration::from_secs(5);

/// The kernel's queue of connections not yet accepted (`listen(2)`'s backlog) for a server
/// admitting `max_connections`: as many as it admits, at least 128 (the standard library's
/// and tokio's fixed value) and at most 65,535 (the kernel caps it at
/// `net.core.somaxconn`, 4,096 by default). With 128, a burst of a few hundred connections
/// overflowed the queue while the server was busy: the kernel dropped SYNs (the client
/// retried a second later) or answered with SYN cookies, and a client whose handshake
/// completed on a cookie while the queue was full held a connection the server never saw,
/// one that no timeout of the server could close (issue #24: 13 of 300 `slowloris`
/// connections never closed, `incomplete-bodies` clients with no answer).
fn listen_backlog(max_connections: usize) -> u32 {
    u32::try_from(max_connections.clamp(128, 65_535)).unwrap_or(65_535)
}

/// Listens on `addr` with `backlog` ([`listen_backlog`]); as `TcpListener::bind`
/// (`SO_REUSEADDR` on Unix) but for the backlog.
fn listen(addr: SocketAddr, backlog: u32) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(backlog)
}

/// The timeouts of one connection ([`ServeConfig::header_read_timeout`],
/// [`ServeConfig::idle_timeout`]).
#[derive(Clone, Debug)]
struct ConnTimeouts {
    header_read: Duration,
    idle: Duration,
    /// [`ServeConfig::send_timeout`].
    send: Duration,
    /// [`ServeConfig::request_timeout`]: by then a server-streaming answer has ended (its
    /// last message made), so from then on what is left of it waits to be sent like a
    /// unary answer ([`InFlight::ends_by`]).
    stream_hold: Duration,
    /// [`ServeConfig::max_streams_per_connection`].
    max_streams: u32,
    /// [`ServeConfig::max_connections`] and the open connections.
    connections: Arc<ConnectionSlots>,
    /// [`ServeConfig::max_unsent_bytes`].
    unsent: Arc<Unsent>,
    /// [`ServeConfig::max_open_calls`] and each client's share of them.
    open_calls: Arc<ClientShares>,
}

/// The connection limit ([`ServeConfig::max_connections`]) and the connections holding its
/// slots, so that at the limit a new connection can take the slot of the one idle longest
/// ([`ServeConfig::idle_timeout_at_limit`]).
#[derive(Debug)]
struct ConnectionSlots {
    slots: Arc<Semaphore>,
    /// Connections closed to make room that close gracefully (HTTP/2 GOAWAY, then up to
    /// `--header-read-timeout-ms` for the peer to finish) after giving up their slot: at most
    /// an eighth of the limit at once; beyond it a connection closed to make room is dropped
    /// at once. So at most `max_connections` + `max_connections / 8` sockets are open.
    closing: Arc<Semaphore>,
    idle_at_limit: Duration,
    /// Every connection holding a slot, by number.
    open: std::sync::Mutex<std::collections::HashMap<u64, OpenConnection>>,
}

#[derive(Debug)]
struct OpenConnection {
    activity: Arc<Activity>,
    slot: tokio::sync::OwnedSemaphorePermit,
}

/// A connection's slot ([`ConnectionSlots`]): given back when the connection ends (dropped),
/// unless a new connection took it before.
struct ConnectionSlot {
    slots: Arc<ConnectionSlots>,
    id: u64,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.slots.lock().remove(&self.id);
    }
}

impl ConnectionSlots {
    fn new(max: usize, idle_at_limit: Duration) -> Self {
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        Self {
            slots: Arc::new(Semaphore::new(max)),
            closing: Arc::new(Semaphore::new((max / 8).max(1))),
            idle_at_limit,
            open: std::sync::Mutex::new(std::collections::HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<u64, OpenConnection>> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A slot for the connection of `activity`: a free one, or at the limit the slot of the
    /// open connection idle longest if it has been idle at least `idle_at_limit` (that
    /// connection is told to close: [`Activity::shed`]). `None`: every slot is held by a
    /// connection with a call in flight or idle for less; the new connection is refused.
    /// Also whether a connection was closed for it.
    fn admit(
        self: &Arc<Self>,
        activity: &Arc<Activity>,
    ) -> Option<(ConnectionSlot, Option<Arc<Activity>>)> {
        let (slot, shed) = match self.slots.clone().try_acquire_owned() {
            Ok(slot) => (slot, None),
            Err(_) => {
                let (slot, shed) = self.take_idlest()?;
                (slot, Some(shed))
            }
        };
        self.lock().insert(
            activity.id,
            OpenConnection {
                activity: activity.clone(),
                slot,
            },
        );
        Some((
            ConnectionSlot {
                slots: self.clone(),
                id: activity.id,
            },
            shed,
        ))
    }

    /// The slot of the connection idle longest, idle for at least `idle_at_limit`, which is
    /// told to close. One pass over the open connections (at most `--max-connections`), made
    /// only when the limit is reached.
    fn take_idlest(&self) -> Option<(tokio::sync::OwnedSemaphorePermit, Arc<Activity>)> {
        let now = tokio::time::Instant::now();
        let mut open = self.lock();
        let id = open
            .iter()
            .filter_map(|(id, c)| {
                let since = c.activity.idle_since()?;
                (now >= since + self.idle_at_limit).then_some((since, *id))
            })
            .min()?
            .1;
        let closed = open.remove(&id)?;
        closed.activity.shed.notify_one();
        Some((closed.slot, closed.activity))
    }
}

/// The answer to a call over [`ServeConfig::max_open_calls`]: RESOURCE_EXHAUSTED in the
/// caller's protocol (gRPC and gRPC-Web: a trailers-only answer, no body), HTTP/JSON 429
/// with its JSON error on HTTP/1.1 (one call at a time per connection) and without a body
/// on HTTP/2, where a client that never opens its window would otherwise keep a stream
/// holding it.
fn open_calls_refusal(headers: &HeaderMap, version: axum::http::Version, over: Over) -> Response {
    let status = Status::resource_exhausted(match over {
        Over::All => "the server has its limit of calls open (--max-open-calls); retry later",
        Over::Client => {
            "this client address has its share of the calls open at once \
             (--max-open-calls-per-client); retry later"
        }
    });
    if call_kind(headers) == CallKind::Json
        && (version == axum::http::Version::HTTP_2 || version == axum::http::Version::HTTP_3)
    {
        let mut resp = Response::new(axum::body::Body::empty());
        *resp.status_mut() = StatusCode::TOO_MANY_REQUESTS;
        return resp;
    }
    status_response(headers, status, None)
}

/// The answers ready and not yet sent, in bytes, per connection and in all
/// ([`ServeConfig::max_unsent_bytes`]). A unary answer is collected in full when it is ready
/// (its size known) and counts until it has been sent or dropped.
#[derive(Debug)]
struct Unsent {
    budget: usize,
    state: std::sync::Mutex<UnsentState>,
}

#[derive(Debug, Default)]
struct UnsentState {
    total: usize,
    /// Per connection: the bytes waiting, and the signal that drops it.
    conns: std::collections::HashMap<u64, (usize, Arc<tokio::sync::Notify>)>,
}

impl Unsent {
    fn new(budget: usize) -> Self {
        Self {
            budget: budget.max(1),
            state: std::sync::Mutex::new(UnsentState::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, UnsentState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `bytes` more would wait on connection `conn`: counted when they fit in the budget
    /// (`true`); otherwise not counted (`false`: the answer is not kept) and the connection
    /// that would hold the most — this one with `bytes`, or another — is told to close
    /// (`drop_conn` of that connection). So the answers waiting never pass the budget,
    /// however fast they come and however late a dropped connection lets go of its own.
    fn try_add(&self, conn: u64, drop_conn: &Arc<tokio::sync::Notify>, bytes: usize) -> bool {
        let mut s = self.lock();
        if s.total.saturating_add(bytes) > self.budget {
            let mine = s.conns.get(&conn).map_or(0, |e| e.0).saturating_add(bytes);
            match s
                .conns
                .iter()
                .filter(|(id, _)| **id != conn)
                .max_by_key(|(_, (b, _))| *b)
            {
                Some((_, (b, hog))) if *b > mine => hog.notify_one(),
                _ => drop_conn.notify_one(),
            }
            return false;
        }
        s.total = s.total.saturating_add(bytes);
        let e = s
            .conns
            .entry(conn)
            .or_insert_with(|| (0, drop_conn.clone()));
        e.0 = e.0.saturating_add(bytes);
        true
    }

    /// `bytes` of connection `conn` were sent or dropped.
    fn sub(&self, conn: u64, bytes: usize) {
        let mut s = self.lock();
        s.total = s.total.saturating_sub(bytes);
        if let Some(e) = s.conns.get_mut(&conn) {
            e.0 = e.0.saturating_sub(bytes);
            if e.0 == 0 {
                s.conns.remove(&conn);
            }
        }
    }
}

/// A unary answer collected in full: its data, then its trailers (gRPC status).
struct Collected {
    data: Option<bytes::Bytes>,
    trailers: Option<HeaderMap>,
}

impl http_body::Body for Collected {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        if let Some(d) = self.data.take() {
            return std::task::Poll::Ready(Some(Ok(http_body::Frame::data(d))));
        }
        std::task::Poll::Ready(
            self.trailers
                .take()
                .map(|t| Ok(http_body::Frame::trailers(t))),
        )
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none() && self.trailers.is_none()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.data.as_ref().map_or(0, |d| d.len() as u64))
    }
}

/// Collects a unary answer's body (the answer is complete once its handler has returned;
/// collecting it makes its size known before it waits to be sent). A body that fails is
/// answered empty.
async fn collect(body: axum::body::Body) -> Collected {
    use http_body_util::BodyExt;
    match body.collect().await {
        Ok(c) => {
            let trailers = c.trailers().cloned();
            // A copy of exactly the answer's length: the chunk the encoder yields is a slice
            // of its whole buffer (8 KiB at least for a 100-byte answer), which would stay
            // allocated while the answer waits, uncounted by `--max-unsent-bytes`.
            let data = bytes::Bytes::copy_from_slice(&c.to_bytes());
            Collected {
                data: (!data.is_empty()).then_some(data),
                trailers,
            }
        }
        Err(_) => Collected {
            data: None,
            trailers: None,
        },
    }
}

/// What one connection has done so far, for its timeouts: calls in flight (from the complete
/// request header until the answer's body has been sent or dropped), calls made, and when
/// the last one ended.
#[derive(Debug)]
struct Activity {
    accepted: tokio::time::Instant,
    state: std::sync::Mutex<ActivityState>,
    /// The connection's number, its share of the unsent answers, and the signal that drops
    /// it when the unsent answers pass their budget.
    id: u64,
    unsent: Arc<Unsent>,
    drop_conn: Arc<tokio::sync::Notify>,
    /// Told when a new connection at the limit took this one's slot ([`ConnectionSlots`]).
    shed: tokio::sync::Notify,
    /// Told by this connection's task once its socket no longer counts beyond the limits:
    /// closed, or closing gracefully within the closing share. The accept loop waits for it
    /// after making room, so that a burst of new connections at the limit cannot hold more
    /// descriptors than `crate::fd_limit` counts (shed sockets not yet closed; issue #24:
    /// under `ulimit -n 200` a burst of 84 connections at the limit made `accept` fail with
    /// EMFILE while the server held 133 descriptors once the burst was over).
    released: tokio::sync::Notify,
}

/// Tells [`Activity::released`] when dropped: declared before the connection in its task, so
/// dropped after it (its socket closed).
struct Released(Arc<Activity>);

impl Drop for Released {
    fn drop(&mut self) {
        self.0.released.notify_one();
    }
}

#[derive(Debug)]
struct ActivityState {
    in_flight: usize,
    requests: u64,
    last_end: tokio::time::Instant,
    /// Answers ready and not yet sent in full: when each became ready, by call number.
    unsent: std::collections::BTreeMap<u64, tokio::time::Instant>,
}

/// One call in flight on a connection (the call's number, the bytes of its answer counted as
/// unsent, its place among the [`ServeConfig::max_open_calls`]); dropped with the answer's
/// body.
struct InFlight(Arc<Activity>, u64, usize, Option<Share>);

impl InFlight {
    /// The call's answer (`bytes` long) is ready: from now on it is waiting to be sent, if
    /// it fits in `--max-unsent-bytes` (`true`); else it is not kept (`false`).
    fn answered(&mut self, bytes: usize) -> bool {
        if !self.0.unsent.try_add(self.0.id, &self.0.drop_conn, bytes) {
            return false;
        }
        self.0
            .lock()
            .unsent
            .insert(self.1, tokio::time::Instant::now());
        self.2 = bytes;
        true
    }

    /// A server-streaming answer (StreamReplay, health `Watch`, reflection): it ends by `at`
    /// (its work, or the server's [`Ending`], stops at the request timeout), after which what
    /// is left of it is an answer waiting to be sent — counted from `at` like a unary
    /// answer from when it is ready, so the connection is dropped if the stream has not
    /// been taken in full `--send-timeout-ms` later ([`Activity::stalled`]).
    ///
    /// A reader that never opens its HTTP/2 window (or never reads an HTTP/1.1 answer)
    /// otherwise kept the stream forever: hyper polls an answer's body only while the
    /// stream can send, so neither the stream's own deadline nor [`Ending`] ever ran, and
    /// the stream held its share of `--max-buffered-bytes` (two StreamReplay calls with
    /// large requests held the whole budget: every call with a body was refused with 429
    /// from then on), its place among the open calls, its buffered messages, and kept its
    /// connection busy, so no idle timeout closed it (review of issue #24, sixth round).
    fn ends_by(&mut self, at: tokio::time::Instant) {
        self.0.lock().unsent.insert(self.1, at);
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.2 > 0 {
            self.0.unsent.sub(self.0.id, self.2);
        }
        let mut state = self.0.lock();
        state.in_flight = state.in_flight.saturating_sub(1);
        state.last_end = tokio::time::Instant::now();
        state.unsent.remove(&self.1);
    }
}

impl Activity {
    fn new(id: u64, unsent: Arc<Unsent>) -> Self {
        let now = tokio::time::Instant::now();
        Self {
            id,
            unsent,
            drop_conn: Arc::new(tokio::sync::Notify::new()),
            shed: tokio::sync::Notify::new(),
            released: tokio::sync::Notify::new(),
            accepted: now,
            state: std::sync::Mutex::new(ActivityState {
                in_flight: 0,
                requests: 0,
                last_end: now,
                unsent: std::collections::BTreeMap::new(),
            }),
        }
    }

    /// The state; a panic elsewhere while it was held leaves plain counters, still usable.
    fn lock(&self) -> std::sync::MutexGuard<'_, ActivityState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A request header is complete: one more call in flight.
    fn begin(self: &Arc<Self>) -> InFlight {
        let mut state = self.lock();
        state.in_flight += 1;
        state.requests += 1;
        InFlight(self.clone(), state.requests, 0, None)
    }

    /// Completes once an answer of this connection has waited `send` to be sent in full,
    /// a stream's from when it has ended ([`InFlight::ends_by`]). A stream's time lies
    /// ahead, so a unary answer ready later may be due first: the loop looks again at least
    /// every `send`.
    async fn stalled(&self, send: Duration) {
        loop {
            let oldest = self.lock().unsent.values().min().copied();
            let now = tokio::time::Instant::now();
            match oldest {
                Some(at) if now >= at + send => return,
                Some(at) => tokio::time::sleep_until((at + send).min(now + send)).await,
                None => tokio::time::sleep(send).await,
            }
        }
    }

    fn requests(&self) -> u64 {
        self.lock().requests
    }

    /// When the connection will have waited too long if nothing happens before: for its
    /// first request header `header_read` after it was accepted, later `idle` after its last
    /// call ended; `None` while a call is in flight.
    fn deadline(&self, t: &ConnTimeouts) -> Option<tokio::time::Instant> {
        let since = self.idle_since()?;
        Some(if self.requests() == 0 {
            since + t.header_read
        } else {
            since + t.idle
        })
    }

    /// Since when the connection has had no call in flight: the end of its last call, or
    /// its acceptance if it has made none; `None` while a call is in flight.
    fn idle_since(&self) -> Option<tokio::time::Instant> {
        let state = self.lock();
        if state.in_flight > 0 {
            None
        } else if state.requests == 0 {
            Some(self.accepted)
        } else {
            Some(state.last_end)
        }
    }

    /// Completes `grace` after the connection's graceful shutdown began (the call) or after
    /// its last call ended, whichever is later, and never while a call is in flight.
    async fn drained(&self, grace: Duration) {
        let began = tokio::time::Instant::now();
        loop {
            let at = {
                let state = self.lock();
                (state.in_flight == 0).then(|| began.max(state.last_end) + grace)
            };
            match at {
                Some(at) if tokio::time::Instant::now() >= at => return,
                Some(at) => tokio::time::sleep_until(at).await,
                // A call in flight: look again later.
                None => tokio::time::sleep(grace.min(Duration::from_millis(250))).await,
            }
        }
    }

    /// Completes once the connection has waited too long ([`Activity::deadline`]).
    async fn waited_too_long(&self, t: &ConnTimeouts) {
        loop {
            match self.deadline(t) {
                Some(at) if tokio::time::Instant::now() >= at => return,
                Some(at) => tokio::time::sleep_until(at).await,
                // A call in flight: look again later.
                None => tokio::time::sleep(t.idle.min(t.header_read)).await,
            }
        }
    }
}

/// The future of one call on a connection (hyper runs each as a task of its own).
type CallFuture = std::pin::Pin<
    Box<dyn Future<Output = Result<Response<Guarded<InFlight>>, std::convert::Infallible>> + Send>,
>;

/// hyper's HTTP/1.1 buffer per connection: the largest request head (as HTTP/2's
/// `SETTINGS_MAX_HEADER_LIST_SIZE`, hyper's 16 KiB) and the chunk a body is read in. With
/// `--max-connections` (1024) connections this bounds unfinished heads to about 16 MiB
/// (32 MiB with the buffers' growth) where hyper's default of ~400 KB each allowed 400 MB
/// (1.6 GB with the 4,096 connections allowed before).
pub const MAX_HTTP1_BUF_BYTES: usize = 16 * 1024;

/// How often a warning repeated under attack is logged at most ([`Throttle`]).
const LOG_EVERY: Duration = Duration::from_secs(1);

/// A warning that may be logged at most once per `every`: a flood of refused connections
/// must not flood the log too (issue #24, item 9).
#[derive(Debug)]
struct Throttle {
    every: Duration,
    last: Option<tokio::time::Instant>,
}

impl Throttle {
    fn new(every: Duration) -> Self {
        Self { every, last: None }
    }

    /// Whether to log at `now`: the first time, then once `every` has passed since the last
    /// time it said yes.
    fn due(&mut self, now: tokio::time::Instant) -> bool {
        if self.last.is_none_or(|t| now >= t + self.every) {
            self.last = Some(now);
            true
        } else {
            false
        }
    }
}

/// Accepts connections on `listener` and serves `app` on each — HTTP/1.1 and HTTP/2 (gRPC
/// with prior knowledge) on the same port — until `shutdown` completes; then stops accepting,
/// asks every connection to finish (HTTP/2 GOAWAY, HTTP/1.1 closes after the answer in
/// flight) and waits for them.
///
/// Limits: at most `--max-connections` connections (at the limit the one idle longest makes
/// room, else the new one is closed at once: [`ConnectionSlots`]), `--max-streams-per-connection`
/// HTTP/2 streams on each, `--max-open-calls` calls open on all together and its share per
/// client address, `--max-unsent-bytes` of answers waiting for their readers, each answer
/// taken within `--send-timeout-ms`. Refused connections, connections closed to make room and
/// accept errors are each logged at most once a second ([`Throttle`]), with their count.
///
/// Slow or idle clients (slowloris): a connection that has not sent a complete request
/// header `timeouts.header_read` after it was accepted — nothing at all, half an HTTP/1.1
/// header, half the HTTP/2 preface, an HTTP/2 connection without a complete HEADERS frame —
/// is closed; later HTTP/1.1 request headers get the same time (hyper's
/// `header_read_timeout`, which also closes idle keep-alive connections), and a connection
/// with no call in flight for `timeouts.idle` is closed gracefully (HTTP/2 GOAWAY). A
/// connection closing gracefully (idle, or the server shutting down) that has not ended
/// `timeouts.header_read` after that began, or after its last call in flight ended, is
/// dropped: hyper's HTTP/2 shutdown waits for the peer's PING acknowledgement, which a
/// hostile peer never sends.
async fn serve_connections(
    listener: TcpListener,
    app: axum::Router,
    timeouts: ConnTimeouts,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(timeouts.header_read)
        // A request head (and each read of a body) at most this big, as HTTP/2's header
        // list: hyper's default (~400 KB) let 1,000 connections each sending an unfinished
        // 400 KB head within the header-read timeout take the server from 41 to 497 MiB
        // (issue #24, attacker review of 2026-12-06); over it the answer is 431 at once.
        .max_buf_size(MAX_HTTP1_BUF_BYTES);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(timeouts.max_streams)
        // Per stream, what hyper buffers of an answer the peer's window does not take yet.
        .max_send_buf_size(64 * 1024);
    // Accept errors (out of file descriptors: `crate::fd_limit` keeps the connection limit
    // within them, but other descriptors count too), connections refused and connections
    // closed to make room at the limit: each logged at most once a second, with its count.
    let (mut accept_errors, mut accept_warning) = (0u64, Throttle::new(LOG_EVERY));
    let (mut refused_connections, mut refused_warning) = (0u64, Throttle::new(LOG_EVERY));
    let (mut shed_connections, mut shed_warning) = (0u64, Throttle::new(LOG_EVERY));
    let mut connection_number = 0u64;
    // Every connection task holds a receiver: `closed()` completes when all have ended.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little, go on serving.
                    accept_errors += 1;
                    if accept_warning.due(tokio::time::Instant::now()) {
                        tracing::warn!(error = %e, accept_errors, "accepting a connection failed");
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        connection_number += 1;
        let activity = Arc::new(Activity::new(connection_number, timeouts.unsent.clone()));
        // The connection limit: at it, the connection idle longest makes room (if idle long
        // enough), else the new connection is closed at once.
        let Some((connection_slot, shed)) = timeouts.connections.admit(&activity) else {
            refused_connections += 1;
            if refused_warning.due(tokio::time::Instant::now()) {
                tracing::warn!(
                    refused_connections,
                    "at the connection limit (--max-connections): closing new connections"
                );
            }
            drop(tcp);
            continue;
        };
        // TCP_NODELAY: small responses (View, ListGames) otherwise wait ~40 ms for the
        // client's delayed ACK (Nagle's algorithm).
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        if let Some(shed) = shed {
            // Until the connection closed for this one has let go of its socket (or counts
            // within the closing share): at most a short wait, its task runs at once.
            let _ =
                tokio::time::timeout(Duration::from_millis(100), shed.released.notified()).await;
            shed_connections += 1;
            if shed_warning.due(tokio::time::Instant::now()) {
                tracing::warn!(
                    shed_connections,
                    "at the connection limit (--max-connections): closing the connections idle longest to make room"
                );
            }
        }
        let service = {
            let activity = activity.clone();
            let app = app.clone();
            let open_calls = timeouts.open_calls.clone();
            let stream_hold = timeouts.stream_hold;
            let client = ClientKey::of(peer.ip());
            tower::service_fn(move |mut req: Request<hyper::body::Incoming>| {
                let mut in_flight = activity.begin();
                // The call is open until its answer has been sent or dropped; over
                // `--max-open-calls`, or over its client's share of them, it is refused at
                // once.
                let call = match open_calls.admit(Some(client)) {
                    Ok(call) => call,
                    Err(over) => {
                        // Refused before anything else is kept: the request (its header
                        // list, its body stream) is dropped here, and the call's task holds
                        // only its small answer. A client sending many streams at once that
                        // are refused costs the server little while they wait to be answered.
                        let resp = open_calls_refusal(req.headers(), req.version(), over);
                        drop(req);
                        let resp: CallFuture = Box::pin(std::future::ready(Ok(
                            resp.map(|body| Guarded::new(body, in_flight))
                        )));
                        return resp;
                    }
                };
                in_flight.3 = Some(call);
                // The client's share of the stream slots is counted by `concurrency_limit`.
                req.extensions_mut().insert(client);
                let app = app.clone();
                // Streams end by their own deadline (StreamReplay) or the server's
                // (`Ending`), at most the request timeout after their answer began, and must
                // be taken within the send timeout after that; a plain answer must be taken
                // within the send timeout, and counts against `--max-unsent-bytes` until it
                // has been sent.
                let stream = is_stream(req.uri().path());
                let mut kind = HeaderMap::new();
                if let Some(ct) = req.headers().get(header::CONTENT_TYPE) {
                    kind.insert(header::CONTENT_TYPE, ct.clone());
                }
                // Boxed: the call's task holds a pointer, its state only once admitted.
                let admitted: CallFuture = Box::pin(async move {
                    let mut resp =
                        tower::ServiceExt::oneshot(app, req.map(axum::body::Body::new)).await?;
                    if stream {
                        // The answer has begun (its body read, its work started): the same
                        // moment its slot's hold begins (`concurrency_limit`).
                        in_flight.ends_by(tokio::time::Instant::now() + stream_hold);
                    } else {
                        let (mut parts, body) = resp.into_parts();
                        // The request's share of `--max-buffered-bytes`, held until the answer
                        // is collected and counted below (`RequestShare`).
                        let request_share = parts.extensions.remove::<RequestShare>();
                        let body = collect(body).await;
                        let kept = in_flight.answered(body.data.as_ref().map_or(0, |d| d.len()));
                        drop(request_share);
                        resp = if kept {
                            Response::from_parts(parts, axum::body::Body::new(body))
                        } else {
                            // The answers waiting to be sent are at `--max-unsent-bytes`:
                            // this one is dropped, the connection holding the most closed.
                            status_response(
                                &kind,
                                Status::resource_exhausted(
                                    "the server holds its limit of answers not yet taken by \
                                     their callers (--max-unsent-bytes); retry later",
                                ),
                                None,
                            )
                        };
                    }
                    Ok(resp.map(|body| Guarded::new(body, in_flight)))
                });
                admitted
            })
        };
        let conn = builder
            .serve_connection(TokioIo::new(tcp), TowerToHyperService::new(service))
            .into_owned();
        let mut stop = stop_rx.clone();
        let timeouts = timeouts.clone();
        tokio::spawn(async move {
            // Dropped last, after the connection: its socket is closed by then.
            let _released = Released(activity.clone());
            let _connection_slot = connection_slot;
            // Held while this connection closes gracefully after giving up its slot.
            let mut _closing = None;
            let mut conn = std::pin::pin!(conn);
            let ended = tokio::select! {
                result = conn.as_mut() => Some(result),
                _ = stop.changed() => None,
                () = activity.drop_conn.notified() => {
                    // The answers waiting to be sent passed `--max-unsent-bytes` and this
                    // connection holds the most of them.
                    tracing::debug!(
                        "closing the connection with the most unsent answers (--max-unsent-bytes)"
                    );
                    return;
                }
                () = activity.stalled(timeouts.send) => {
                    // Answers the peer does not take (an HTTP/2 receive window never
                    // opened): drop the connection and what it holds.
                    tracing::debug!(
                        send_timeout_ms = timeouts.send.as_millis() as u64,
                        "closing a connection whose answers were not taken in time"
                    );
                    return;
                }
                () = activity.shed.notified() => {
                    // A new connection at the limit took this one's slot: dropped at once
                    // if it has made no request (or too many are closing already), else
                    // closed gracefully as when idle.
                    let closing = timeouts.connections.closing.clone().try_acquire_owned();
                    if activity.requests() == 0 || closing.is_err() {
                        tracing::debug!("closing a connection to make room at the connection limit");
                        return;
                    }
                    tracing::debug!(
                        "closing an idle connection gracefully to make room at the connection limit"
                    );
                    _closing = closing.ok();
                    activity.released.notify_one();
                    None
                }
                () = activity.waited_too_long(&timeouts) => {
                    if activity.requests() == 0 {
                        tracing::debug!(
                            header_read_timeout_ms = timeouts.header_read.as_millis() as u64,
                            "closing a connection that sent no complete request header in time"
                        );
                        return;
                    }
                    tracing::debug!(
                        idle_timeout_ms = timeouts.idle.as_millis() as u64,
                        "closing an idle connection"
                    );
                    None
                }
            };
            let result = match ended {
                Some(result) => result,
                None => {
                    // HTTP/2: GOAWAY, then the calls in flight finish; HTTP/1.1: closes after
                    // the answer in flight. hyper's HTTP/2 shutdown also waits for the peer
                    // to acknowledge a PING: a peer that never does would keep the connection
                    // open forever, so once no call is in flight the connection gets
                    // `timeouts.header_read` more and is then dropped (its socket closed).
                    conn.as_mut().graceful_shutdown();
                    tokio::select! {
                        result = conn.as_mut() => result,
                        // Closing after its idle timeout, its slot taken by a new connection:
                        // dropped now rather than held uncounted.
                        () = activity.shed.notified() => return,
                        () = activity.drained(timeouts.header_read) => {
                            tracing::debug!(
                                grace_ms = timeouts.header_read.as_millis() as u64,
                                "closing a connection that did not end after its graceful shutdown"
                            );
                            return;
                        }
                    }
                }
            };
            if let Err(e) = result {
                tracing::debug!(error = %e, "connection ended with an error");
            }
            drop(stop);
        });
    }
    // Closing the listening socket now: new clients are refused at once instead of waiting.
    drop(listener);
    drop(stop_rx);
    let _ = stop_tx.send(());
    stop_tx.closed().await;
    Ok(())
}

/// Registers the SIGTERM and Ctrl-C handlers now (so a signal that arrives right after
/// startup is caught, not fatal) and returns a future that completes on the first of them.
///
/// Errors: the handlers cannot be installed.
pub fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    #[cfg(unix)]
    let mut int = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    Ok(async move {
        #[cfg(unix)]
        tokio::select! {
            _ = term.recv() => {},
            _ = int.recv() => {},
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutdown signal received: finishing in-flight calls");
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A warning repeated under attack is logged once per second at most: 10,000 refused
    /// connections in 2.5 s give three lines (at 0, 1.0 and 2.0 s), not 10,000.
    #[test]
    fn repeated_warnings_are_logged_at_most_once_a_second() {
        let start = tokio::time::Instant::now();
        let mut throttle = Throttle::new(LOG_EVERY);
        let logged: Vec<u64> = (0..10_000u64)
            .filter(|i| throttle.due(start + Duration::from_micros(i * 250)))
            .collect();
        assert_eq!(logged, [0, 4_000, 8_000]);
        // Quiet for a while: the next one is logged at once.
        assert!(throttle.due(start + Duration::from_secs(60)));
        assert!(!throttle.due(start + Duration::from_millis(60_999)));
    }

    #[test]
    fn streams_get_half_the_slots_and_a_client_a_quarter_of_those() {
        assert_eq!(
            (stream_slots(256), default_streaming_calls_per_client(256)),
            (128, 32)
        );
        assert_eq!(
            (stream_slots(32), default_streaming_calls_per_client(32)),
            (16, 4)
        );
        assert_eq!(
            (stream_slots(1), default_streaming_calls_per_client(1)),
            (1, 1)
        );
    }
}
