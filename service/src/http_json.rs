//! The HTTP/JSON face: every RPC at `POST /v1/<Method>` (e.g. `/v1/NewGame`), request and
//! response bodies in canonical proto3 JSON (the same messages as gRPC). `GET /v1/ListGames`
//! also works. Errors are `{"code": "INVALID_ARGUMENT", "message": "..."}` with the HTTP
//! status of the gRPC code (400, 403, 404, 412, 429, 500, 501, 504; 405 for a wrong method,
//! 408 for a body slower than `--body-timeout-ms`, 413 for one over `--max-request-bytes`);
//! a path no route serves is 404 with the same body (docs/API.md). `GET /v1/openapi.json`
//! describes these routes (OpenAPI 3.1, generated from the proto files).

use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio_stream::StreamExt;
use tonic::{Code, Status};

use crate::api::Api;
use crate::work::{Arrival, Cancel};

/// What the JSON routes share: the service logic and the body limit (for its message).
#[derive(Clone, Debug)]
struct Json {
    api: Api,
    max_request_bytes: usize,
}

/// Routes of the JSON surface, limited to `max_request_bytes` per body.
pub fn router(api: Api, max_request_bytes: usize) -> Router {
    Router::new()
        .route("/v1/{method}", post(call))
        .route("/v1/ListGames", get(list_games_get).post(call_list_games))
        .route("/v1/GameData", get(game_data_get))
        .route("/v1/openapi.json", get(openapi))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(max_request_bytes))
        .with_state(Json {
            api,
            max_request_bytes,
        })
}

/// The OpenAPI 3.1 description of these routes, generated from the proto files
/// (`proto/openapi/generate.mjs`, committed so that building needs no Node.js; the test run
/// checks it against a fresh generation and against this server: `scripts/openapi-check.sh`).
pub const OPENAPI_JSON: &str = include_str!("../../proto/openapi/referee.v1.openapi.json");

/// `GET /v1/openapi.json`: [`OPENAPI_JSON`].
async fn openapi() -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        OPENAPI_JSON,
    )
        .into_response()
}

/// The message of a request body over `--max-request-bytes` (the same for every transport).
pub fn too_large_message(max_request_bytes: usize) -> String {
    format!(
        "the request body is larger than this server accepts: at most {max_request_bytes} bytes (--max-request-bytes)"
    )
}

/// A wrong HTTP method on a JSON route: 405 with the usual JSON error (the `Allow` header
/// names the methods the route takes).
async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let allowed = if uri.path() == "/v1/ListGames" {
        "GET or POST"
    } else if uri.path() == "/v1/openapi.json" {
        "GET"
    } else {
        "POST"
    };
    error_with(
        StatusCode::METHOD_NOT_ALLOWED,
        Code::Unimplemented,
        &format!("{} {}: use {allowed}", method, uri.path()),
    )
}

/// HTTP status for a gRPC code (Google's HTTP mapping).
pub fn http_status(code: Code) -> StatusCode {
    match code {
        Code::Ok => StatusCode::OK,
        Code::InvalidArgument | Code::OutOfRange => StatusCode::BAD_REQUEST,
        Code::FailedPrecondition => StatusCode::PRECONDITION_FAILED,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::AlreadyExists | Code::Aborted => StatusCode::CONFLICT,
        Code::Cancelled => StatusCode::from_u16(499).unwrap_or(StatusCode::BAD_REQUEST),
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// A JSON error body for a status.
pub fn error_response(status: &Status) -> Response {
    error_with(http_status(status.code()), status.code(), status.message())
}

/// The JSON error object `{"code", "message"}` of a status.
fn error_json(code: Code, message: &str) -> serde_json::Value {
    serde_json::json!({
        "code": to_screaming_snake(&format!("{code:?}")),
        "message": crate::games::clip(message),
    })
}

fn error_with(http: StatusCode, code: Code, message: &str) -> Response {
    (
        http,
        [(header::CONTENT_TYPE, "application/json")],
        error_json(code, message).to_string(),
    )
        .into_response()
}

fn to_screaming_snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

fn json_ok<T: Serialize>(value: &T) -> Response {
    match serde_json::to_string(value) {
        Ok(body) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response(),
        Err(e) => error_response(&Status::internal(format!(
            "could not encode the response: {e}"
        ))),
    }
}

/// serde's message for a value pbjson cannot read, without the doubled word of pbjson's
/// generated enum visitors (`expected expected one of: [...]`: their `expecting` text starts
/// with "expected", and serde writes "expected" before it).
pub fn serde_message(e: &impl std::fmt::Display) -> String {
    e.to_string()
        .replace("expected expected one of", "expected one of")
}

/// Reads a request body: one JSON object (an empty body is `{}`) and nothing after it but
/// whitespace. Errors: INVALID_ARGUMENT naming the field path and the problem.
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, Status> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // The field path (`action.g1841.bid.price`) makes a wrong value easy to find.
        let path = e.path().clone();
        let shown = path.to_string();
        let inner = e.into_inner();
        let what = number_problem(body, &path, &inner).unwrap_or_else(|| serde_message(&inner));
        if shown.is_empty() || shown == "." || shown == "?" {
            Status::invalid_argument(format!(
                "request body is not valid proto3 JSON for this method: {what}"
            ))
        } else {
            Status::invalid_argument(format!(
                "request body is not valid proto3 JSON for this method: field `{shown}`: {what}"
            ))
        }
    })?;
    // Anything after the object (`{} garbage`, a second object) is refused, not ignored.
    de.end().map_err(|e| {
        Status::invalid_argument(format!(
            "request body is not valid proto3 JSON for this method: {e} (after the JSON object)"
        ))
    })?;
    Ok(value)
}

/// pbjson reads an integer field as "a string or a number" (an untagged enum), so any value
/// that is neither — a negative number for an unsigned field, `null`, `1.5` — fails with
/// serde's "data did not match any variant of untagged enum Content", which says nothing
/// useful. For that error this looks at the value the caller sent at `path` and says what
/// is wrong with it instead (`None`: another error, keep serde's message).
fn number_problem(
    body: &[u8],
    path: &serde_path_to_error::Path,
    err: &serde_json::Error,
) -> Option<String> {
    if !err
        .to_string()
        .starts_with("data did not match any variant of untagged enum")
    {
        return None;
    }
    let segments: Vec<&serde_path_to_error::Segment> = path.iter().collect();
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = serde::de::DeserializeSeed::deserialize(Follow(&segments), &mut de).ok()??;
    let at = format!("(line {}, column {})", err.line(), err.column());
    let problem = match value {
        Leaf::Null => {
            "expected a number, got null (leave the field out for its default, 0)".to_string()
        }
        Leaf::Bool(b) => format!("expected a number, got {b}"),
        Leaf::List => "expected a number, got a list".to_string(),
        Leaf::Object => "expected a number, got an object".to_string(),
        Leaf::Text => return None,
        Leaf::Number(n) => {
            if let Some(i) = n.as_i64().filter(|i| *i < 0) {
                if i >= i64::from(i32::MIN) {
                    format!("expected a non-negative integer, got {i}")
                } else {
                    format!("the integer {i} is out of range for this field")
                }
            } else if let Some(u) = n.as_u64() {
                format!("the integer {u} is out of range for this field")
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                if f.fract() == 0.0 && f.abs() < 9.0e15 {
                    format!("expected an integer without a decimal point or exponent, got {n}")
                } else if f.fract() == 0.0 {
                    format!("the number {n} is out of range for this field")
                } else {
                    format!("expected an integer, got {n}")
                }
            }
        }
    };
    Some(format!("{problem} {at}"))
}

/// What the value at a path of a JSON body is, for [`number_problem`].
enum Leaf {
    Null,
    Bool(bool),
    List,
    Object,
    Text,
    Number(serde_json::Number),
}

/// Reads a JSON body down the path of an error to the value there ([`Leaf`]), skipping every
/// other value unread (`IgnoredAny`): the body may hold 4 MiB of values, and a
/// `serde_json::Value` of all of it took about 30 times that (a list of 2 million `0` under a
/// wrong `seat`: 187 MiB for one call, outside the request's decoded-size estimate; review of
/// issue #24). `None`: the path is not in the body.
struct Follow<'p>(&'p [&'p serde_path_to_error::Segment]);

impl<'de> serde::de::DeserializeSeed<'de> for Follow<'_> {
    type Value = Option<Leaf>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Follow<'_> {
    type Value = Option<Leaf>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(self.0.is_empty().then_some(Leaf::Null))
    }

    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok(self.0.is_empty().then_some(Leaf::Bool(b)))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Self::Value, E> {
        Ok(self.0.is_empty().then(|| Leaf::Number(i.into())))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Self::Value, E> {
        Ok(self.0.is_empty().then(|| Leaf::Number(u.into())))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Self::Value, E> {
        Ok(self
            .0
            .is_empty()
            .then(|| serde_json::Number::from_f64(f).map(Leaf::Number))
            .flatten())
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(self.0.is_empty().then_some(Leaf::Text))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let next = match self.0.split_first() {
            Some((serde_path_to_error::Segment::Seq { index }, rest)) => Some((*index, rest)),
            _ => None,
        };
        let mut found = None;
        let mut i = 0usize;
        loop {
            match next {
                Some((index, rest)) if index == i => match seq.next_element_seed(Follow(rest))? {
                    Some(leaf) => found = leaf,
                    None => break,
                },
                _ => {
                    if seq.next_element::<IgnoredAny>()?.is_none() {
                        break;
                    }
                }
            }
            i += 1;
        }
        Ok(if self.0.is_empty() {
            Some(Leaf::List)
        } else {
            found
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let next = match self.0.split_first() {
            Some((serde_path_to_error::Segment::Map { key }, rest)) => Some((key, rest)),
            _ => None,
        };
        let mut found = None;
        while let Some(k) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match next {
                Some((key, rest)) if *key == k => found = map.next_value_seed(Follow(rest))?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(if self.0.is_empty() {
            Some(Leaf::Object)
        } else {
            found
        })
    }
}

fn run<Req, Resp>(body: &[u8], f: impl FnOnce(&Req) -> Result<Resp, Status>) -> Response
where
    Req: DeserializeOwned,
    Resp: Serialize,
{
    match parse::<Req>(body).and_then(|req| f(&req)) {
        Ok(resp) => json_ok(&resp),
        Err(status) => error_response(&status),
    }
}

/// [`run`] on the blocking thread pool; when the caller goes away first, `f`'s [`Cancel`]
/// is set and the work stops ([`crate::work::blocking`]).
async fn run_blocking<Req, Resp>(
    body: Bytes,
    f: impl FnOnce(&Req, &Cancel) -> Result<Resp, Status> + Send + 'static,
) -> Response
where
    Req: DeserializeOwned,
    Resp: Serialize,
{
    crate::work::blocking(move |cancel| run(&body, |req| f(req, cancel)))
        .await
        .unwrap_or_else(|status| error_response(&status))
}

/// [`run`] for a call on one state: behind the quick-call queue on the blocking pool
/// ([`crate::work::quick`]).
async fn run_quick<Req, Resp>(
    body: Bytes,
    f: impl FnOnce(&Req) -> Result<Resp, Status> + Send + 'static,
) -> Response
where
    Req: DeserializeOwned,
    Resp: Serialize,
{
    crate::work::quick(move |_| run(&body, f))
        .await
        .unwrap_or_else(|status| error_response(&status))
}

async fn list_games_get(State(json): State<Json>) -> Response {
    run(b"{}", |r| json.api.list_games(r))
}

/// `GET /v1/GameData?game=1841&lite=true`: the static game data document itself (not the
/// GetGameData message around it), `application/json`, with `ETag` = its content hash in
/// quotes; a request whose `If-None-Match` names that tag gets 304 without a body. Every
/// query parameter but `game` is an option, as NewGame takes it. Errors as every JSON route.
async fn game_data_get(
    State(json): State<Json>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let mut req = crate::pb::v1::GetGameDataRequest::default();
    for (k, v) in form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        if k == "game" {
            req.game = v.into_owned();
        } else {
            req.options.insert(k.into_owned(), v.into_owned());
        }
    }
    // Every tag of every If-None-Match header (weak `W/"…"` compares as strong: the hash is of
    // the bytes), or `*`; any one that matches the document's hash is a 304 (RFC 9110 §13.1.2).
    let tags: Vec<String> = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| {
            t.trim()
                .trim_start_matches("W/")
                .trim_matches('"')
                .to_string()
        })
        .filter(|t| !t.is_empty())
        .collect();
    // Off the async workers: a platform's own board is parsed and drawn per call.
    let api = json.api.clone();
    let answer = crate::work::quick(move |_| api.get_game_data(&req))
        .await
        .and_then(|r| r);
    match answer {
        Err(status) => error_response(&status),
        Ok(resp) => {
            let etag = format!("\"{}\"", resp.content_hash);
            let cache = "public, no-cache";
            if tags.iter().any(|t| t == "*" || *t == resp.content_hash) {
                (
                    StatusCode::NOT_MODIFIED,
                    [(header::ETAG, etag), (header::CACHE_CONTROL, cache.into())],
                )
                    .into_response()
            } else {
                (
                    StatusCode::OK,
                    [
                        (header::CONTENT_TYPE, "application/json".to_string()),
                        (header::ETAG, etag),
                        (header::CACHE_CONTROL, cache.into()),
                    ],
                    resp.data_json,
                )
                    .into_response()
            }
        }
    }
}

async fn call_list_games(state: State<Json>, body: Result<Bytes, BytesRejection>) -> Response {
    call_method(state, "ListGames".to_string(), None, HeaderMap::new(), body).await
}

/// One NDJSON line: the JSON of `value` and a newline.
fn ndjson_line<T: Serialize>(value: &T) -> Result<Bytes, Status> {
    let mut line = serde_json::to_vec(value)
        .map_err(|e| Status::internal(format!("could not encode the response: {e}")))?;
    line.push(b'\n');
    Ok(Bytes::from(line))
}

/// StreamReplay over HTTP/JSON: every message of the stream as one line of JSON
/// (`application/x-ndjson`), in order, sent as it is made ([`crate::work::stream`]: the
/// replay waits while the client reads slowly and stops when it goes away). An error before
/// the first message is the usual JSON error answer; one after it (a refused action is
/// not an error: it is a message with `failure`) ends the body with a `{"code", "message"}`
/// line — among them DEADLINE_EXCEEDED when the stream outlasts the call's deadline.
async fn stream_replay_ndjson(api: Api, timeout: Option<Duration>, body: Bytes) -> Response {
    let deadline = api.deadline(timeout);
    let mut lines = crate::work::stream(deadline, Bytes::len, move |send| {
        let req: crate::pb::v1::StreamReplayRequest = parse(&body)?;
        drop(body); // up to --max-request-bytes, not needed while the replay streams
        let mut batch = LineBatch::default();
        let result = api.stream_replay(&req, &mut |frame| {
            batch.lines.extend_from_slice(&ndjson_line(&frame)?);
            match batch.due() {
                Some(lines) => send(lines),
                None => Ok(()),
            }
        });
        // The lines made before the end (or before a failure, which follows them).
        let rest = batch.take();
        if !rest.is_empty() {
            let flushed = send(rest);
            if result.is_ok() {
                flushed?;
            }
        }
        result
    });
    let first = match lines.next().await {
        Some(Ok(first)) => first,
        Some(Err(status)) => return error_response(&status),
        None => {
            return error_response(&Status::internal(
                "the replay ended without a message (a bug: please report the request)",
            ));
        }
    };
    let body = NdjsonBody {
        first: Some(first),
        lines,
        done: false,
    };
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(body),
    )
        .into_response()
}

/// Lines made while the last batch went out are sent together once they are this long...
const LINE_BATCH_BYTES: usize = 32 * 1024;
/// ... or this old: a replay makes thousands of small lines a second, and one message per
/// line through the channel and the connection cost more than making the lines (twice the
/// CPU of the whole replay for 80,000 passes with `events_only`).
const LINE_BATCH_AGE: Duration = Duration::from_millis(20);

/// NDJSON lines waiting to be sent as one message of the stream. The first line goes out
/// alone at once (the reader sees the stream start without waiting).
#[derive(Default)]
struct LineBatch {
    lines: Vec<u8>,
    /// When the last batch went out (`None`: nothing sent yet).
    sent: Option<std::time::Instant>,
}

impl LineBatch {
    /// The lines to send now, if it is time.
    fn due(&mut self) -> Option<Bytes> {
        let due = match self.sent {
            None => true,
            Some(at) => self.lines.len() >= LINE_BATCH_BYTES || at.elapsed() >= LINE_BATCH_AGE,
        };
        due.then(|| self.take())
    }

    fn take(&mut self) -> Bytes {
        self.sent = Some(std::time::Instant::now());
        Bytes::from(std::mem::take(&mut self.lines))
    }
}

/// Largest chunk of the NDJSON body made of lines that are already waiting.
const NDJSON_CHUNK_BYTES: usize = 64 * 1024;

/// The body of a streamed NDJSON answer: the lines as they come, an error as a last
/// `{"code", "message"}` line. Each chunk is the next line plus every line already waiting
/// behind it (up to [`NDJSON_CHUNK_BYTES`]): a reader that keeps up gets every line at once,
/// and one that falls behind gets fewer, larger writes.
struct NdjsonBody {
    first: Option<Bytes>,
    lines: crate::work::Messages<Bytes>,
    done: bool,
}

impl NdjsonBody {
    fn push(&mut self, chunk: &mut Vec<u8>, line: Result<Bytes, Status>) {
        match line {
            Ok(line) => chunk.extend_from_slice(&line),
            Err(status) => {
                chunk.extend_from_slice(
                    error_json(status.code(), status.message())
                        .to_string()
                        .as_bytes(),
                );
                chunk.push(b'\n');
                self.done = true;
            }
        }
    }
}

impl tokio_stream::Stream for NdjsonBody {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        if self.done {
            return Poll::Ready(None);
        }
        let mut chunk = Vec::new();
        if let Some(first) = self.first.take() {
            chunk.extend_from_slice(&first);
        } else {
            match self.lines.poll_recv(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(line)) => self.push(&mut chunk, line),
            }
        }
        while !self.done && chunk.len() < NDJSON_CHUNK_BYTES {
            match self.lines.try_recv() {
                Some(line) => self.push(&mut chunk, line),
                None => break,
            }
        }
        Poll::Ready(Some(Ok(Bytes::from(chunk))))
    }
}

/// The caller's `grpc-timeout` header, as gRPC sends it (`None`: absent or unreadable).
fn header_timeout(headers: &HeaderMap) -> Option<Duration> {
    headers
        .get("grpc-timeout")
        .and_then(|v| v.to_str().ok())
        .and_then(crate::grpc::parse_grpc_timeout)
}

/// `POST /v1/{method}`. The method is the path's segment as sent, not percent-decoded: the
/// server's limits read the request's path before this runs (`decoded_size` estimates the
/// body by the method named in the path, `concurrency_limit` and the connection tell streams
/// by it), so a method spelled `/v1/Apply%42atch` must not run as ApplyBatch: it did, its
/// body decoded without an estimate (one 4 MiB body of `{}` actions: 372 MiB; three at once
/// 584 MiB, above the 448 MiB limit `deploy/k8s` had then), and `/v1/Stream%52eplay` streamed without its
/// stream slot, its whole answer collected before it was sent. Now it is an unknown method
/// (404 `NOT_FOUND`).
async fn call(
    state: State<Json>,
    uri: Uri,
    arrival: Option<axum::Extension<Arrival>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    // The path as sent (axum's `Path` and `RawPathParams` both percent-decode).
    let method = uri
        .path()
        .strip_prefix("/v1/")
        .unwrap_or_default()
        .to_string();
    call_method(state, method, arrival, headers, body).await
}

/// Runs the JSON call `method` (as the path names it).
async fn call_method(
    State(json): State<Json>,
    method: String,
    arrival: Option<axum::Extension<Arrival>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(rejection) => {
            let http = rejection.status();
            if http == StatusCode::PAYLOAD_TOO_LARGE {
                return error_with(
                    http,
                    Code::OutOfRange,
                    &too_large_message(json.max_request_bytes),
                );
            }
            return error_with(http, Code::InvalidArgument, &rejection.body_text());
        }
    };
    // Sealed mode: who calls (docs/SECURITY.md, "Seat access").
    let api = json.api.for_caller(
        headers
            .get(crate::grpc::CREDENTIAL_HEADER)
            .map(|v| v.to_str().unwrap_or(crate::grpc::NOT_TEXT_CREDENTIAL)),
    );
    match method.as_str() {
        "ListGames" => run(&body, |r| api.list_games(r)),
        // Calls on one state: off the async workers too, behind the quick-call queue
        // (`work::quick`), so the concurrency slots count the work queued.
        "NewGame" => run_quick(body, move |r| api.new_game(r)).await,
        "Apply" => run_quick(body, move |r| api.apply(r)).await,
        "LegalActions" => run_quick(body, move |r| api.legal_actions(r)).await,
        "View" => run_quick(body, move |r| api.view(r)).await,
        // Whole games take a while: off the async workers, as over gRPC.
        "Replay" => run_blocking(body, move |r, cancel| api.replay(r, cancel)).await,
        "ImportGame" => run_blocking(body, move |r, _| api.import_game(r)).await,
        "ExportGame" => run_blocking(body, move |r, _| api.export_game(r)).await,
        "ApplyBatch" => run_blocking(body, move |r, cancel| api.apply_batch(r, cancel)).await,
        "StreamReplay" => stream_replay_ndjson(api, header_timeout(&headers), body).await,
        "Playout" => {
            // The deadline: a `grpc-timeout` header if the caller sends one (as gRPC does),
            // else the server's request timeout; counted from the request's arrival.
            let timeout = header_timeout(&headers);
            let arrived = arrival.map(|a| a.0.0);
            run_blocking(body, move |r, cancel| {
                api.playout(r, timeout, arrived, cancel)
            })
            .await
        }
        "SuggestRoutes" => run_blocking(body, move |r, _| api.suggest_routes(r)).await,
        "DefaultAction" => run_quick(body, move |r| api.default_action(r)).await,
        "Describe" => run_quick(body, move |r| api.describe(r)).await,
        "GetGameData" => run_quick(body, move |r| api.get_game_data(r)).await,
        other => error_with(
            StatusCode::NOT_FOUND,
            Code::NotFound,
            &format!(
                "unknown method `{other}`; methods: ListGames, NewGame, Apply, LegalActions, View, Replay, ImportGame, ExportGame, ApplyBatch, StreamReplay, Playout, SuggestRoutes, DefaultAction, Describe, GetGameData"
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pb::v1;

    /// A wrong value names its field path, so a negative seat or price is easy to find.
    #[test]
    fn bad_values_name_their_field() {
        let e = parse::<v1::ApplyRequest>(br#"{"seat": -1}"#).unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument);
        assert!(
            e.message().starts_with(
                "request body is not valid proto3 JSON for this method: field `seat`: "
            ),
            "{}",
            e.message()
        );
        let e = parse::<v1::ApplyRequest>(
            br#"{"seat": 0, "action": {"g1841": {"bid": {"concession": "SFTG", "price": "x"}}}}"#,
        )
        .unwrap_err();
        assert!(
            e.message().contains("field `action.g1841.bid.price`: "),
            "{}",
            e.message()
        );
        let e = parse::<v1::ApplyRequest>(b"{").unwrap_err();
        assert!(
            e.message()
                .starts_with("request body is not valid proto3 JSON for this method: EOF"),
            "{}",
            e.message()
        );
        assert!(parse::<v1::ApplyRequest>(b"  ").is_ok());
    }
}

#[cfg(test)]
mod plain_message_tests {
    use super::*;
    use crate::pb::v1;
    use tower::ServiceExt;

    fn message<T: DeserializeOwned + std::fmt::Debug>(body: &str) -> String {
        parse::<T>(body.as_bytes())
            .unwrap_err()
            .message()
            .to_string()
    }

    /// A number pbjson cannot read (negative for an unsigned field, null, a fraction, too
    /// large) gets a plain message naming the field and the value, not serde's "did not
    /// match any variant of untagged enum Content".
    #[test]
    fn unreadable_numbers_say_what_is_wrong() {
        let p = "request body is not valid proto3 JSON for this method: ";
        assert_eq!(
            message::<v1::ApplyRequest>(r#"{"seat": -1}"#),
            format!("{p}field `seat`: expected a non-negative integer, got -1 (line 1, column 12)")
        );
        assert_eq!(
            message::<v1::ApplyRequest>(r#"{"seat": null}"#),
            format!(
                "{p}field `seat`: expected a number, got null (leave the field out for its default, 0) (line 1, column 14)"
            )
        );
        assert_eq!(
            message::<v1::PlayoutRequest>(r#"{"games": 1.5}"#),
            format!("{p}field `games`: expected an integer, got 1.5 (line 1, column 14)")
        );
        assert_eq!(
            message::<v1::NewGameRequest>(r#"{"seats": 99999999999}"#),
            format!(
                "{p}field `seats`: the integer 99999999999 is out of range for this field (line 1, column 22)"
            )
        );
        assert_eq!(
            message::<v1::NewGameRequest>(r#"{"seed": true}"#),
            format!("{p}field `seed`: expected a number, got true (line 1, column 14)")
        );
        assert_eq!(
            message::<v1::ApplyRequest>(
                r#"{"action": {"g1841": {"bid": {"concession": "SFTG", "price": null}}}}"#
            ),
            format!(
                "{p}field `action.g1841.bid.price`: expected a number, got null (leave the field out for its default, 0) (line 1, column 66)"
            )
        );
        assert_eq!(
            message::<v1::ReplayRequest>(
                r#"{"game": "1841", "actions": [{"seat": 1}, {"seat": -3}]}"#
            ),
            format!(
                "{p}field `actions[1].seat`: expected a non-negative integer, got -3 (line 1, column 54)"
            )
        );
        // Other errors keep serde's message.
        assert_eq!(
            message::<v1::ApplyRequest>(r#"{"seat": "x"}"#),
            format!("{p}field `seat`: invalid digit found in string at line 1 column 13")
        );
        // An enum value pbjson cannot read: "expected one of", not "expected expected one of".
        let policies = r#"["PLAYOUT_POLICY_UNSPECIFIED", "PLAYOUT_POLICY_RANDOM_LEGAL", "PLAYOUT_POLICY_FIRST_LEGAL"]"#;
        assert_eq!(
            message::<v1::PlayoutRequest>(r#"{"policy": 99}"#),
            format!(
                "{p}field `policy`: invalid value: integer `99`, expected one of: {policies} at line 1 column 13"
            )
        );
        assert_eq!(
            message::<v1::PlayoutRequest>(r#"{"policy": true}"#),
            format!(
                "{p}field `policy`: invalid type: boolean `true`, expected one of: {policies} at line 1 column 15"
            )
        );
    }

    /// A body is one JSON object: anything after it but whitespace is refused, not ignored.
    #[test]
    fn trailing_characters_after_the_object_are_refused() {
        let p = "request body is not valid proto3 JSON for this method: ";
        assert_eq!(
            message::<v1::ListGamesRequest>("{} garbage"),
            format!("{p}trailing characters at line 1 column 4 (after the JSON object)")
        );
        assert_eq!(
            message::<v1::ApplyRequest>("{\"seat\": 1}\n{\"seat\": 2}"),
            format!("{p}trailing characters at line 2 column 1 (after the JSON object)")
        );
        assert_eq!(
            parse::<v1::ApplyRequest>(b"{\"seat\": 1} \r\n")
                .unwrap()
                .seat,
            1
        );
    }

    /// A wrong HTTP method gets the JSON error body (and the `Allow` header), like every
    /// other error of the JSON surface.
    #[tokio::test]
    async fn a_wrong_method_gets_a_json_error() {
        for (method, path, allow, use_) in [
            ("GET", "/v1/Apply", "POST", "POST"),
            ("PUT", "/v1/ListGames", "GET,HEAD,POST", "GET or POST"),
        ] {
            let req = axum::http::Request::builder()
                .method(method)
                .uri(path)
                .body(Body::empty())
                .unwrap();
            let resp = router(Api::new(), 1000).oneshot(req).await.unwrap();
            assert_eq!(resp.status(), StatusCode::METHOD_NOT_ALLOWED);
            assert_eq!(resp.headers()[header::ALLOW], allow);
            assert_eq!(resp.headers()[header::CONTENT_TYPE], "application/json");
            let body = axum::body::to_bytes(resp.into_body(), 10_000)
                .await
                .unwrap();
            let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(v["code"], "UNIMPLEMENTED");
            assert_eq!(v["message"], format!("{method} {path}: use {use_}"));
        }
    }

    /// `GET /v1/GameData` answers the document with its hash as ETag; the same tag in
    /// `If-None-Match` gets 304 without a body; a bad option is a JSON error.
    #[tokio::test]
    async fn game_data_is_cacheable_by_etag() {
        let get = |uri: &str, tag: Option<&str>| {
            let mut b = axum::http::Request::get(uri);
            if let Some(t) = tag {
                b = b.header(header::IF_NONE_MATCH, t);
            }
            router(Api::new(), 1000).oneshot(b.body(Body::empty()).unwrap())
        };
        let resp = get("/v1/GameData?game=1841&lite=true", None).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let etag = resp.headers()[header::ETAG].to_str().unwrap().to_string();
        assert!(etag.starts_with("\"sha256:"), "{etag}");
        let body = axum::body::to_bytes(resp.into_body(), 10_000_000)
            .await
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["variant"], "lite");
        let again = get("/v1/GameData?game=1841&lite=true", Some(&etag))
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        let body = axum::body::to_bytes(again.into_body(), 100).await.unwrap();
        assert!(body.is_empty());
        // Any tag of a list, a weak tag, or `*` matches too.
        for tags in [
            format!("\"sha256:00\", {etag}"),
            format!("W/{etag}"),
            "*".to_string(),
        ] {
            let r = get("/v1/GameData?game=1841&lite=true", Some(&tags))
                .await
                .unwrap();
            assert_eq!(r.status(), StatusCode::NOT_MODIFIED, "{tags}");
        }
        // Another variant has another tag, so the old one does not match.
        let v2 = get("/v1/GameData?game=1841", Some(&etag)).await.unwrap();
        assert_eq!(v2.status(), StatusCode::OK);
        assert_ne!(v2.headers()[header::ETAG].to_str().unwrap(), etag);
        let bad = get("/v1/GameData?game=1841&bogus=1", None).await.unwrap();
        assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
        let unknown = get("/v1/GameData?game=go", None).await.unwrap();
        assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    }

    /// A body over the limit names the limit (`--max-request-bytes`), not another number.
    #[tokio::test]
    async fn an_oversized_body_names_the_limit() {
        let req = axum::http::Request::post("/v1/Apply")
            .body(Body::from(vec![b' '; 1001]))
            .unwrap();
        let resp = router(Api::new(), 1000).oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let body = axum::body::to_bytes(resp.into_body(), 10_000)
            .await
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["code"], "OUT_OF_RANGE");
        assert_eq!(
            v["message"],
            "the request body is larger than this server accepts: at most 1000 bytes (--max-request-bytes)"
        );
    }

    /// `GET /v1/openapi.json` serves the generated document, which lists exactly the methods
    /// the JSON router dispatches (the test run also checks it against a running server and
    /// a fresh generation: scripts/openapi-check.sh).
    #[tokio::test]
    async fn the_openapi_document_is_served_and_lists_every_method() {
        let req = axum::http::Request::get("/v1/openapi.json")
            .body(Body::empty())
            .unwrap();
        let resp = router(Api::new(), 1000).oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        assert_eq!(resp.headers()[header::CONTENT_TYPE], "application/json");
        let body = axum::body::to_bytes(resp.into_body(), 10_000_000)
            .await
            .unwrap();
        assert_eq!(body, OPENAPI_JSON.as_bytes());
        let doc: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(doc["openapi"], "3.1.0");
        let mut paths: Vec<&str> = doc["paths"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        paths.sort_unstable();
        // Every RPC of referee.v1.Referee, read from the compiled proto descriptors: a new
        // RPC fails here until the document is regenerated (proto/openapi: npm run generate).
        use prost::Message as _;
        let set = prost_types::FileDescriptorSet::decode(crate::pb::FILE_DESCRIPTOR_SET).unwrap();
        let mut want: Vec<String> = set
            .file
            .iter()
            .filter(|f| f.package() == "referee.v1")
            .flat_map(|f| &f.service)
            .filter(|s| s.name() == "Referee")
            .flat_map(|s| &s.method)
            .map(|m| format!("/v1/{}", m.name()))
            // The GET-only routes: this document and the game data document (ETag-cached).
            .chain(["/v1/openapi.json".to_string(), "/v1/GameData".to_string()])
            .collect();
        assert!(want.len() >= 15, "{want:?}");
        want.sort_unstable();
        assert_eq!(
            paths, want,
            "proto/openapi/referee.v1.openapi.json is stale: run `npm ci && npm run generate` in proto/openapi"
        );
        assert_eq!(
            doc["paths"]["/v1/StreamReplay"]["post"]["responses"]["200"]["content"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["application/x-ndjson"]
        );
    }
}
