//! The HTTP/JSON face: every RPC at `POST /v1/<Method>` (e.g. `/v1/NewGame`), request and
//! response bodies in canonical proto3 JSON (the same messages as gRPC). `GET /v1/ListGames`
//! also works. Errors are `{"code": "INVALID_ARGUMENT", "message": "..."}` with the HTTP
//! status of the gRPC code (400, 404, 412, 413, 429, 501, 504, ...).

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tonic::{Code, Status};

use crate::api::Api;

/// Routes of the JSON surface, limited to `max_request_bytes` per body.
pub fn router(api: Api, max_request_bytes: usize) -> Router {
    Router::new()
        .route("/v1/{method}", post(call))
        .route("/v1/ListGames", get(list_games_get).post(call_list_games))
        .layer(DefaultBodyLimit::max(max_request_bytes))
        .with_state(api)
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

fn error_with(http: StatusCode, code: Code, message: &str) -> Response {
    let name = format!("{code:?}");
    let body = serde_json::json!({
        "code": to_screaming_snake(&name),
        "message": crate::games::clip(message),
    });
    (
        http,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
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

fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, Status> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    let mut de = serde_json::Deserializer::from_slice(body);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // The field path (`action.g1841.bid.price`) makes a wrong value easy to find.
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path.is_empty() || path == "." || path == "?" {
            Status::invalid_argument(format!(
                "request body is not valid proto3 JSON for this method: {inner}"
            ))
        } else {
            Status::invalid_argument(format!(
                "request body is not valid proto3 JSON for this method: field `{path}`: {inner}"
            ))
        }
    })
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

/// [`run`] on the blocking thread pool.
async fn run_blocking<Req, Resp>(
    body: Bytes,
    f: impl FnOnce(&Req) -> Result<Resp, Status> + Send + 'static,
) -> Response
where
    Req: DeserializeOwned,
    Resp: Serialize,
{
    tokio::task::spawn_blocking(move || run(&body, f))
        .await
        .unwrap_or_else(|e| error_response(&Status::internal(format!("task failed: {e}"))))
}

async fn list_games_get(State(api): State<Api>) -> Response {
    run(b"{}", |r| api.list_games(r))
}

async fn call_list_games(state: State<Api>, body: Result<Bytes, BytesRejection>) -> Response {
    call(state, Path("ListGames".to_string()), HeaderMap::new(), body).await
}

/// StreamReplay over HTTP/JSON: every message of the stream as one line of JSON
/// (`application/x-ndjson`), in order; an error before the first message is the usual JSON
/// error, one after it ends the body with a `{"code", "message"}` line.
async fn stream_replay_ndjson(api: Api, body: Bytes) -> Response {
    let result = tokio::task::spawn_blocking(move || {
        let req: crate::pb::v1::StreamReplayRequest = parse(&body)?;
        let mut lines = String::new();
        let mut encode_error = None;
        let r = api.stream_replay(&req, &mut |frame| match serde_json::to_string(&frame) {
            Ok(line) => {
                lines.push_str(&line);
                lines.push('\n');
                true
            }
            Err(e) => {
                encode_error = Some(e.to_string());
                false
            }
        });
        if let Some(e) = encode_error {
            return Err(Status::internal(format!(
                "could not encode the response: {e}"
            )));
        }
        match r {
            Ok(()) => Ok(lines),
            Err(status) if lines.is_empty() => Err(status),
            Err(status) => {
                let code = to_screaming_snake(&format!("{:?}", status.code()));
                lines.push_str(
                    &serde_json::json!({"code": code, "message": status.message()}).to_string(),
                );
                lines.push('\n');
                Ok(lines)
            }
        }
    })
    .await
    .unwrap_or_else(|e| Err(Status::internal(format!("task failed: {e}"))));
    match result {
        Ok(lines) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/x-ndjson")],
            lines,
        )
            .into_response(),
        Err(status) => error_response(&status),
    }
}

async fn call(
    State(api): State<Api>,
    Path(method): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(rejection) => {
            let http = rejection.status();
            let code = if http == StatusCode::PAYLOAD_TOO_LARGE {
                Code::OutOfRange
            } else {
                Code::InvalidArgument
            };
            return error_with(http, code, &rejection.body_text());
        }
    };
    match method.as_str() {
        "ListGames" => run(&body, |r| api.list_games(r)),
        "NewGame" => run(&body, |r| api.new_game(r)),
        "Apply" => run(&body, |r| api.apply(r)),
        "LegalActions" => run(&body, |r| api.legal_actions(r)),
        "View" => run(&body, |r| api.view(r)),
        // Whole games take a while: off the async workers, as over gRPC.
        "Replay" => run_blocking(body, move |r| api.replay(r)).await,
        "ImportGame" => run_blocking(body, move |r| api.import_game(r)).await,
        "ExportGame" => run_blocking(body, move |r| api.export_game(r)).await,
        "ApplyBatch" => run_blocking(body, move |r| api.apply_batch(r)).await,
        "StreamReplay" => stream_replay_ndjson(api, body).await,
        "Playout" => {
            // The deadline: a `grpc-timeout` header if the caller sends one (as gRPC does),
            // else the server's request timeout.
            let timeout = headers
                .get("grpc-timeout")
                .and_then(|v| v.to_str().ok())
                .and_then(crate::grpc::parse_grpc_timeout);
            run_blocking(body, move |r| api.playout(r, timeout)).await
        }
        "SuggestRoutes" => run_blocking(body, move |r| api.suggest_routes(r)).await,
        "DefaultAction" => run(&body, |r| api.default_action(r)),
        "Describe" => run(&body, |r| api.describe(r)),
        other => error_with(
            StatusCode::NOT_FOUND,
            Code::NotFound,
            &format!(
                "unknown method `{other}`; methods: ListGames, NewGame, Apply, LegalActions, View, Replay, ImportGame, ExportGame, ApplyBatch, StreamReplay, Playout, SuggestRoutes, DefaultAction, Describe"
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
