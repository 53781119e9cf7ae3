//! Memory and work bounds against hostile clients (issue #24), each attack reproduced at
//! small scale against the real binary on loopback, asserting the bound (bytes budgeted, a
//! typed error, the server answering others meanwhile), never a duration.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

mod common;
use common::Server;

/// Sends an HTTP/1.1 JSON POST header announcing `len` body bytes, then `sent` of them.
fn post_partial(addr: &str, len: usize, sent: usize) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /v1/Apply HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {len}\r\n\r\n"
    )
    .unwrap();
    // A refused request's connection may be closed before its body is sent.
    let _ = s.write_all(&vec![b' '; sent]);
    let _ = s.flush();
    s
}

/// The status line and body of the first answer on `s`.
fn answer(s: &mut TcpStream) -> String {
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&out);
        if let Some(head_end) = text.find("\r\n\r\n") {
            let len = text[..head_end].lines().find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length: ")
                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
            });
            if len.is_some_and(|n| out.len() >= head_end + 4 + n) {
                break;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Item 7: incomplete bodies are buffered within one byte budget for all connections
/// (`--max-buffered-bytes`). With 1,000,000 bytes, a first body announcing 500,000 (and
/// sending 400,000 of them, then stalling) holds half; a second announcing 600,000 is
/// refused at once with 429 RESOURCE_EXHAUSTED before it is read, a chunked one (no length)
/// as soon as what it sent passes the budget; a call without a body is answered meanwhile;
/// once the first is answered its bytes are free again.
#[test]
fn buffered_bodies_share_one_byte_budget() {
    let server = Server::start(&[
        "--max-buffered-bytes",
        "1000000",
        "--max-request-bytes",
        "800000",
        "--body-timeout-ms",
        "60000",
    ]);
    let addr = server.addr.clone();
    let mut first = post_partial(&addr, 500_000, 400_000);
    // Give the server the first body's header (it takes the announced 500,000 at once).
    let mut probe = TcpStream::connect(&addr).unwrap();
    write!(probe, "GET /v1/ListGames HTTP/1.1\r\nhost: x\r\n\r\n").unwrap();
    let listed = answer(&mut probe);
    assert!(listed.starts_with("HTTP/1.1 200"), "{listed}");

    let mut second = post_partial(&addr, 600_000, 600_000);
    let refused = answer(&mut second);
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    assert!(refused.contains("RESOURCE_EXHAUSTED"), "{refused}");

    // Chunked, no length: refused once its bytes pass what is left (500,000).
    let mut chunked = TcpStream::connect(&addr).unwrap();
    write!(
        chunked,
        "POST /v1/Apply HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
    )
    .unwrap();
    for _ in 0..6 {
        let _ = write!(chunked, "{:x}\r\n", 100_000);
        let _ = chunked.write_all(&vec![b' '; 100_000]);
        let _ = chunked.write_all(b"\r\n");
    }
    let refused = answer(&mut chunked);
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");

    // The first body completes (not JSON: 400), and its bytes go back to the budget.
    first.write_all(&vec![b' '; 100_000]).unwrap();
    let judged = answer(&mut first);
    assert!(judged.starts_with("HTTP/1.1 400"), "{judged}");
    let mut third = post_partial(&addr, 600_000, 600_000);
    let judged = answer(&mut third);
    assert!(judged.starts_with("HTTP/1.1 400"), "{judged}");
}
