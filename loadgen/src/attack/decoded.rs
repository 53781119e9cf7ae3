//! Decoded-size amplification (issue #24, attacker review of 2026-12-05): bodies within
//! `--max-request-bytes` made of empty entries of a repeated message field, which decode into
//! 100 times their size and more (one 4 MiB gRPC-Web ApplyBatch of `12 00` took the server
//! from 41 to 602 MB, eight at once to 1.22 GB; the JSON forms 512–536 MB; an ImportGame of
//! 1.4 M `{}` actions 372 MB). Bound: every request's decoded size is estimated before it is
//! decoded and refused over `--max-decoded-bytes` (INVALID_ARGUMENT naming the field).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{Ctx, Outcome};

/// One HTTP/1.1 POST on its own connection (`connection: close`); the answer's status line,
/// `grpc-status` and `grpc-message` headers and body.
async fn post(addr: &str, path: &str, content_type: &str, body: &[u8]) -> String {
    let Ok(mut tcp) = TcpStream::connect(addr).await else {
        return "connect failed".into();
    };
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    // A server may answer before the body is sent (429 when the bodies buffered at once are
    // at their limit) and close: its answer is read all the same.
    let written = tcp.write_all(head.as_bytes()).await.is_ok() && tcp.write_all(body).await.is_ok();
    let mut out = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(60), tcp.read_to_end(&mut out)).await;
    if out.is_empty() {
        return if !written {
            "write failed".into()
        } else if read.is_err() {
            "no answer within 60 s".into()
        } else {
            "closed without an answer".into()
        };
    }
    let text = String::from_utf8_lossy(&out);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).unwrap_or("?");
    let header = |name: &str| {
        head.lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.trim()
                    .eq_ignore_ascii_case(name)
                    .then(|| v.trim().to_string())
            })
            .unwrap_or_default()
    };
    let grpc = header("grpc-status");
    if grpc.is_empty() {
        let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
        format!(
            "HTTP {status} {} {}",
            v["code"].as_str().unwrap_or("-"),
            v["message"].as_str().unwrap_or(body)
        )
    } else {
        let code = grpc
            .parse::<i32>()
            .map_or_else(|_| grpc.clone(), |c| format!("{:?}", tonic::Code::from(c)));
        format!(
            "HTTP {status} {code} {}",
            percent_decode(&header("grpc-message"))
        )
    }
}

/// A `grpc-message` header's text (percent-encoded by the gRPC spec).
fn percent_decode(s: &str) -> String {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `n` copies of `entry` joined by commas, in `prefix`…`suffix`, filling `total` bytes.
fn json_list(prefix: &str, entry: &str, suffix: &str, total: usize) -> (String, usize) {
    let n = (total - prefix.len() - suffix.len()) / (entry.len() + 1);
    let mut s = String::with_capacity(total);
    s.push_str(prefix);
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(entry);
    }
    s.push_str(suffix);
    (s, n)
}

/// Sends at once `k` gRPC-Web ApplyBatch bodies of empty actions (`12 00`) filling
/// `--max-request-bytes` (the issue: 1, 4 and 8 at once), then at once the JSON ApplyBatch of
/// `{}` actions, a JSON Apply whose 1841 state has `{}` players, and a JSON ImportGame whose
/// 18xx.games export has `{}` actions, and one of 700,000 scalar actions (`0`, 1.4 MB).
/// Every one must be refused with INVALID_ARGUMENT naming
/// `--max-decoded-bytes`.
pub async fn decoded_size(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let k = ctx.pick(4, 8, 1);
    let limit = ctx.limits.max_request_bytes - 64;
    let entries = (limit - 5) / 2;
    let mut grpc_web = vec![0u8];
    grpc_web.extend_from_slice(&((entries * 2) as u32).to_be_bytes());
    grpc_web.extend_from_slice(&[0x12u8, 0x00].repeat(entries));
    let (batch, batch_n) = json_list("{\"actions\":[", "{}", "]}", limit);
    let (players, players_n) = json_list(
        "{\"state\":{\"game\":\"1841\",\"schemaVersion\":1,\"g1841\":{\"players\":[",
        "{}",
        "]}}}",
        limit,
    );
    let (import, import_n) =
        json_list("{\"exportJson\":\"{\\\"actions\\\":[", "{}", "]}\"}", limit);
    // Scalar actions (`0`): each still a record in the importer (review of #24: 700,000 of
    // them, 1.4 MB, took the server from 40 to 214 MiB).
    let (scalars, scalars_n) = json_list(
        "{\"exportJson\":\"{\\\"actions\\\":[",
        "0",
        "]}\"}",
        1_400_000,
    );
    let grpc_web = std::sync::Arc::new(grpc_web);
    let mut tasks = Vec::new();
    for _ in 0..k {
        let (addr, body) = (ctx.open.addr.clone(), grpc_web.clone());
        tasks.push(tokio::spawn(async move {
            post(
                &addr,
                "/referee.v1.Referee/ApplyBatch",
                "application/grpc-web+proto",
                &body,
            )
            .await
        }));
    }
    // The JSON forms together once the gRPC-Web ones are answered (all eleven bodies at once
    // did not always arrive within the suite's 3 s body timeout on a loaded machine).
    let mut answers = Vec::new();
    for t in tasks.drain(..) {
        answers.push(t.await.unwrap_or_else(|e| format!("task failed: {e}")));
    }
    for (path, body) in [
        ("/v1/ApplyBatch", batch),
        ("/v1/Apply", players),
        ("/v1/ImportGame", import),
        ("/v1/ImportGame", scalars),
    ] {
        let addr = ctx.open.addr.clone();
        tasks.push(tokio::spawn(async move {
            post(&addr, path, "application/json", body.as_bytes()).await
        }));
    }
    for t in tasks {
        answers.push(t.await.unwrap_or_else(|e| format!("task failed: {e}")));
    }
    let refused = |a: &String| {
        (a.contains("InvalidArgument") || a.contains("INVALID_ARGUMENT"))
            && a.contains("--max-decoded-bytes")
    };
    let pass = answers.iter().all(refused);
    // One answer per kind (the gRPC-Web ones are alike).
    let mut shown: Vec<String> = Vec::new();
    for a in &answers {
        let short: String = a.chars().take(160).collect();
        if !shown.contains(&short) {
            shown.push(short);
        }
    }
    Ok(Outcome {
        sent: format!(
            "at once: {k} gRPC-Web ApplyBatch of {entries} empty actions (`12 00`, {:.2} MiB each); then at once: JSON ApplyBatch of {batch_n} `{{}}` actions; JSON Apply with {players_n} `{{}}` players; JSON ImportGame with {import_n} `{{}}` actions (each {:.2} MiB); JSON ImportGame with {scalars_n} scalar actions (`0`, 1.4 MB)",
            (entries * 2 + 5) as f64 / 1048576.0,
            limit as f64 / 1048576.0
        ),
        answer: format!(
            "{} of {} refused INVALID_ARGUMENT before decoding: {}",
            answers.iter().filter(|a| refused(a)).count(),
            answers.len(),
            shown.join(" | ")
        ),
        pass,
    })
}

/// `n` distinct keys of two or three characters.
fn short_keys(n: usize) -> impl Iterator<Item = String> {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let b = DIGITS.len();
    (0..n).map(move |i| {
        let (len, mut rest) = if i < b * b { (2, i) } else { (3, i - b * b) };
        let mut key = String::with_capacity(len);
        for _ in 0..len {
            key.push(DIGITS[rest % b] as char);
            rest /= b;
        }
        key
    })
}

/// An object of `keys` with `value` each, filling at most `total` bytes: the text and how
/// many keys it has.
fn object_within(keys: impl Iterator<Item = String>, value: &str, total: usize) -> (String, usize) {
    let mut s = String::from("{");
    let mut n = 0;
    for k in keys {
        if s.len() + k.len() + value.len() + 5 > total {
            break;
        }
        if n > 0 {
            s.push(',');
        }
        s.push('"');
        s.push_str(&k);
        s.push_str("\":");
        s.push_str(value);
        n += 1;
    }
    s.push('}');
    (s, n)
}

const PLAYERS: &str = r#""players":[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]"#;

/// The ImportGame exports of the third attacker round's known gap (issue #24): object keys
/// outside the action records, which the estimate charged nothing. Each fills the request
/// limit; `refused` when its estimate is over `--max-decoded-bytes`.
fn key_exports(total: usize) -> Vec<(&'static str, String, bool)> {
    let room = total - 200;
    let (players0, _) = object_within(short_keys(usize::MAX), "0", room);
    let (long, _) = object_within((0..).map(|i: usize| format!("{i:01000}")), "1", room);
    let (unknown, _) = object_within(short_keys(usize::MAX), "null", room);
    let deep = format!("{}0{}", r#"{"a":"#.repeat(120), "}".repeat(120));
    let (nested, _) = object_within(short_keys(usize::MAX), &deep, room);
    let players = {
        let mut s = String::from("[");
        let mut i = 0;
        while s.len() < room - 20 {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&format!(r#"{{"id":{i}}}"#));
            i += 1;
        }
        s.push(']');
        s
    };
    vec![
        (
            "players[0] of short keys",
            format!(
                r#"{{"players":[{}],"actions":[]}}"#,
                players0.replacen('{', r#"{"id":1,"#, 1)
            ),
            true,
        ),
        (
            "result of 1,000-byte keys",
            format!(r#"{{{PLAYERS},"result":{long},"actions":[]}}"#),
            false,
        ),
        (
            "an unknown key of short keys",
            format!(r#"{{{PLAYERS},"history":{unknown},"actions":[]}}"#),
            true,
        ),
        (
            "a record's field of short keys",
            format!(
                r#"{{{PLAYERS},"actions":[{{"type":"pass","id":1,"entity":1,"price":{players0}}}]}}"#
            ),
            true,
        ),
        (
            "settings of objects 120 deep",
            format!(r#"{{{PLAYERS},"settings":{nested},"actions":[]}}"#),
            true,
        ),
        (
            "players {\"id\":N}",
            format!(r#"{{"players":{players},"actions":[]}}"#),
            true,
        ),
    ]
}

/// The key shapes of the third attacker round (issue #24's known gap, closed): at once, `k`
/// gRPC-Web ImportGame bodies of each shape filling `--max-request-bytes` — `players[0]` with
/// ~525,000 short keys, `result` with ~4,200 keys of 1,000 bytes, an unknown top-level key,
/// a record's field, objects nested 120 deep, ~300,000 players. Bound: the shapes whose
/// estimate passes `--max-decoded-bytes` are refused INVALID_ARGUMENT before they are read;
/// `result`'s long keys (estimated at about 14 MB, what it allocates) are answered; any of
/// them may instead be refused RESOURCE_EXHAUSTED at once when the bodies buffered together
/// pass `--max-buffered-bytes` (24 bodies of 4 MiB with `--full`); never INTERNAL.
pub async fn import_keys(ctx: &Ctx) -> anyhow::Result<Outcome> {
    use prost::Message as _;
    let k = ctx.pick(1, 4, 1);
    let limit = ctx.limits.max_request_bytes - 64;
    let mut tasks = Vec::new();
    let mut sent = Vec::new();
    for (what, export, must_refuse) in key_exports(limit) {
        let message = referee_service::pb::v1::ImportGameRequest {
            export_json: export,
            ..Default::default()
        }
        .encode_to_vec();
        sent.push(format!(
            "{what} ({:.2} MiB)",
            message.len() as f64 / 1048576.0
        ));
        let mut frame = vec![0u8];
        frame.extend_from_slice(&(message.len() as u32).to_be_bytes());
        frame.extend_from_slice(&message);
        let frame = std::sync::Arc::new(frame);
        for _ in 0..k {
            let (addr, body) = (ctx.open.addr.clone(), frame.clone());
            tasks.push((
                what,
                must_refuse,
                tokio::spawn(async move {
                    post(
                        &addr,
                        "/referee.v1.Referee/ImportGame",
                        "application/grpc-web+proto",
                        &body,
                    )
                    .await
                }),
            ));
        }
    }
    let refused = |a: &str| a.contains("InvalidArgument") && a.contains("--max-decoded-bytes");
    // An answered gRPC-Web call has its status in the body's trailer frame (no
    // `grpc-status` header): `post` shows it as `HTTP 200 -` and the body.
    let answered = |a: &str| a.starts_with("HTTP 200 -");
    // Bodies over the shared budget of buffered bodies are refused at once, read or not.
    let shed = |a: &str| a.contains("ResourceExhausted") || a.contains("RESOURCE_EXHAUSTED");
    let mut pass = true;
    let mut shown: Vec<String> = Vec::new();
    let (mut n_refused, mut n_shed, mut n_answered, mut total) = (0, 0, 0, 0);
    for (what, must_refuse, t) in tasks {
        let a = t.await.unwrap_or_else(|e| format!("task failed: {e}"));
        total += 1;
        let ok = if refused(&a) {
            n_refused += 1;
            true
        } else if shed(&a) {
            n_shed += 1;
            true
        } else if answered(&a) {
            n_answered += 1;
            !must_refuse
        } else {
            false
        };
        pass &= ok;
        let short = if a.starts_with("HTTP 200 -") {
            format!("{what}: answered")
        } else {
            format!("{what}: {}", a.chars().take(120).collect::<String>())
        };
        if !shown.contains(&short) && (!ok || shown.len() < 8) {
            shown.push(short);
        }
    }
    Ok(Outcome {
        sent: format!(
            "at once, {k} of each gRPC-Web ImportGame: {}",
            sent.join("; ")
        ),
        answer: format!(
            "{n_refused} of {total} refused INVALID_ARGUMENT before reading, {n_shed} RESOURCE_EXHAUSTED (the buffered-body budget), {n_answered} answered: {}",
            shown.join(" | ")
        ),
        pass,
    })
}

/// Review of issue #24: StreamReplay calls with Autobahn boards of about 262 KB (just under
/// the engine's 256 KiB limit on an unparsed board), all at once: each board parses into
/// about 24 times its length after the call's answer has started, and 64 such calls, all
/// admitted while a stream's share of `--max-buffered-bytes` was released when its answer
/// started, took the server to about 410 MiB. Bound: a stream keeps its share (body and
/// estimate, about 7 MB here) until its answer ends, so the 64 MiB budget admits about nine
/// at once and refuses the others with RESOURCE_EXHAUSTED.
pub async fn stream_boards(ctx: &Ctx) -> anyhow::Result<Outcome> {
    use crate::pb;
    let n = ctx.pick(16, 64, 8);
    let entries = 262_000 / 3 - 10;
    let board = format!("{{\"clockwise_order\":[{}\"\"]}}", "\"\",".repeat(entries));
    let board_len = board.len();
    let request = pb::StreamReplayRequest {
        game: Some(pb::ReplayRequest {
            game: "autobahn".into(),
            seats: 2,
            options: [("board".to_string(), board)].into(),
            ..Default::default()
        }),
        ..Default::default()
    };
    let mut tasks = Vec::new();
    for _ in 0..n {
        let (addr, request) = (ctx.open.addr.clone(), request.clone());
        tasks.push(tokio::spawn(async move {
            let ch = super::channel(&addr).await?;
            let mut c = pb::referee_client::RefereeClient::new(ch)
                .max_decoding_message_size(64 << 20)
                .max_encoding_message_size(64 << 20);
            let code = match c.stream_replay(request).await {
                Err(s) => s.code(),
                Ok(resp) => {
                    let mut stream = resp.into_inner();
                    loop {
                        match stream.message().await {
                            Ok(Some(_)) => {}
                            Ok(None) => break tonic::Code::Ok,
                            Err(s) => break s.code(),
                        }
                    }
                }
            };
            anyhow::Ok(code)
        }));
    }
    let mut codes = std::collections::BTreeMap::<String, usize>::new();
    for t in tasks {
        let code = match t.await {
            Ok(Ok(c)) => format!("{c:?}"),
            Ok(Err(e)) => format!("error: {e}"),
            Err(e) => format!("task: {e}"),
        };
        *codes.entry(code).or_default() += 1;
    }
    let refused = codes.get("ResourceExhausted").copied().unwrap_or(0);
    // Body and a 24-fold board estimate per call: how many the budget can hold at once.
    let per_call = 25 * board_len;
    Ok(Outcome {
        sent: format!(
            "{n} gRPC StreamReplay calls at once, each an Autobahn board of {board_len} bytes (estimated about {:.1} MB each once parsed)",
            per_call as f64 / 1e6
        ),
        answer: format!(
            "answers by code: {codes:?}; {refused} refused with RESOURCE_EXHAUSTED (--max-buffered-bytes {} MiB holds about {} such calls at once)",
            ctx.limits.max_buffered_bytes >> 20,
            ctx.limits.max_buffered_bytes / per_call
        ),
        pass: refused > 0 || n <= ctx.limits.max_buffered_bytes / per_call,
    })
}

/// Review of #24, fifth round: the decoded-size estimate bypassed by how a request is spelled
/// (one 4 MiB body of empty actions each: a debug server 66 → 372, 366 and 465 MiB, three
/// escaped at once 584 MiB). At once: JSON ApplyBatch bodies of `{}` actions to escaped
/// method names (`/v1/Apply%42atch`, `/v1/%41pplyBatch`, and `/v1/Stream%52eplay`, which
/// would also have streamed without its slot), a JSON body to `/v1/ApplyBatch` labelled
/// `application/grpc` and `application/grpc-web+proto`, and gRPC frames of empty actions to
/// the gRPC path labelled `application/json` and with no content type. Bound: an escaped
/// name is no method (404 `NOT_FOUND`); every mislabelled body is estimated as its route
/// reads it and refused with INVALID_ARGUMENT naming `--max-decoded-bytes` before it is
/// decoded.
pub async fn decoded_spelling(ctx: &Ctx) -> anyhow::Result<Outcome> {
    let limit = ctx.limits.max_request_bytes - 64;
    let (batch, _) = json_list("{\"actions\":[", "{}", "]}", limit);
    let entries = (limit - 5) / 2;
    let mut frames = vec![0u8];
    frames.extend_from_slice(&((entries * 2) as u32).to_be_bytes());
    frames.extend_from_slice(&[0x12u8, 0x00].repeat(entries));
    let batch = std::sync::Arc::new(batch.into_bytes());
    let frames = std::sync::Arc::new(frames);
    let escaped = ["Apply%42atch", "%41pplyBatch", "Stream%52eplay"];
    let mut cases: Vec<(String, &'static str, std::sync::Arc<Vec<u8>>, bool)> = escaped
        .iter()
        .map(|m| (format!("/v1/{m}"), "application/json", batch.clone(), true))
        .collect();
    for ct in ["application/grpc", "application/grpc-web+proto"] {
        cases.push(("/v1/ApplyBatch".into(), ct, batch.clone(), false));
    }
    for ct in ["application/json", ""] {
        cases.push((
            "/referee.v1.Referee/ApplyBatch".into(),
            ct,
            frames.clone(),
            false,
        ));
    }
    let mut tasks = Vec::new();
    for (path, ct, body, not_found) in cases.clone() {
        let addr = ctx.open.addr.clone();
        tasks.push(tokio::spawn(async move {
            let answer = if ct.is_empty() {
                post_without_content_type(&addr, &path, &body).await
            } else {
                post(&addr, &path, ct, &body).await
            };
            (path, ct, answer, not_found)
        }));
    }
    let (mut ok, mut shown) = (0, Vec::new());
    for t in tasks {
        let Ok((path, ct, answer, not_found)) = t.await else {
            continue;
        };
        let met = if not_found {
            answer.contains("NOT_FOUND")
        } else {
            (answer.contains("InvalidArgument") || answer.contains("INVALID_ARGUMENT"))
                && answer.contains("--max-decoded-bytes")
        };
        ok += usize::from(met);
        let short: String = answer.chars().take(100).collect();
        shown.push(format!("{path} [{ct}]: {short}"));
    }
    Ok(Outcome {
        sent: format!(
            "at once, {} bodies of {:.2} MiB: JSON `{{}}` actions to {}; JSON to /v1/ApplyBatch as application/grpc and application/grpc-web+proto; gRPC frames of `12 00` actions to /referee.v1.Referee/ApplyBatch as application/json and without a content type",
            cases.len(),
            limit as f64 / 1048576.0,
            escaped.map(|m| format!("/v1/{m}")).join(", ")
        ),
        answer: format!(
            "{ok} of {} as bound (escaped names NOT_FOUND, the rest INVALID_ARGUMENT before decoding): {}",
            cases.len(),
            shown.join(" | ")
        ),
        pass: ok == cases.len(),
    })
}

/// [`post`] without a `content-type` header.
async fn post_without_content_type(addr: &str, path: &str, body: &[u8]) -> String {
    let Ok(mut tcp) = TcpStream::connect(addr).await else {
        return "connect failed".into();
    };
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = tcp.write_all(head.as_bytes()).await;
    let _ = tcp.write_all(body).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(60), tcp.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).unwrap_or("?");
    format!(
        "HTTP {status} {} {}",
        head.lines()
            .find_map(|l| l.strip_prefix("grpc-status: ").map(|c| c
                .parse::<i32>()
                .map_or_else(|_| c.to_string(), |c| format!("{:?}", tonic::Code::from(c)))))
            .unwrap_or_default(),
        percent_decode(
            head.lines()
                .find_map(|l| l.strip_prefix("grpc-message: "))
                .unwrap_or(body)
        )
    )
}
