//! Hand-built HTTP/2 frames for the attacks a well-behaved client library will not send
//! (streams over the server's limit, floods of resets, CONTINUATION or PING frames). Only
//! what the attacks need: frames are written by hand (HPACK literals without indexing, no
//! Huffman), and the server's frames are read for their type, flags, stream and error code,
//! never decoded further (use the `h2` crate to read answers).

use std::io;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The client connection preface.
pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Frame types.
pub const DATA: u8 = 0;
/// HEADERS.
pub const HEADERS: u8 = 1;
/// RST_STREAM.
pub const RST_STREAM: u8 = 3;
/// SETTINGS.
pub const SETTINGS: u8 = 4;
/// PING.
pub const PING: u8 = 6;
/// GOAWAY.
pub const GOAWAY: u8 = 7;
/// WINDOW_UPDATE.
pub const WINDOW_UPDATE: u8 = 8;
/// CONTINUATION.
pub const CONTINUATION: u8 = 9;

/// Flags.
pub const END_STREAM: u8 = 0x1;
/// ACK (SETTINGS, PING).
pub const ACK: u8 = 0x1;
/// END_HEADERS.
pub const END_HEADERS: u8 = 0x4;

/// HTTP/2 error code REFUSED_STREAM.
pub const REFUSED_STREAM: u32 = 0x7;

/// One frame: 9-byte header and payload.
pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() as u32;
    let mut f = Vec::with_capacity(9 + payload.len());
    f.extend_from_slice(&len.to_be_bytes()[1..]);
    f.push(kind);
    f.push(flags);
    f.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    f.extend_from_slice(payload);
    f
}

/// A SETTINGS frame with `(id, value)` pairs (0x3 MAX_CONCURRENT_STREAMS, 0x4
/// INITIAL_WINDOW_SIZE, …).
pub fn settings(pairs: &[(u16, u32)]) -> Vec<u8> {
    let mut p = Vec::new();
    for (id, v) in pairs {
        p.extend_from_slice(&id.to_be_bytes());
        p.extend_from_slice(&v.to_be_bytes());
    }
    frame(SETTINGS, 0, 0, &p)
}

/// An HPACK header block of literal fields without indexing, literal names, no Huffman.
pub fn header_block(fields: &[(&str, &str)]) -> Vec<u8> {
    fn int7(out: &mut Vec<u8>, mut n: usize) {
        // 7-bit prefix integer (RFC 7541 §5.1), H bit 0.
        if n < 127 {
            out.push(n as u8);
            return;
        }
        out.push(127);
        n -= 127;
        while n >= 128 {
            out.push((n % 128 + 128) as u8);
            n /= 128;
        }
        out.push(n as u8);
    }
    let mut b = Vec::new();
    for (name, value) in fields {
        b.push(0x00);
        int7(&mut b, name.len());
        b.extend_from_slice(name.as_bytes());
        int7(&mut b, value.len());
        b.extend_from_slice(value.as_bytes());
    }
    b
}

/// The header block of a gRPC call to `path`.
pub fn grpc_headers(path: &str) -> Vec<u8> {
    header_block(&[
        (":method", "POST"),
        (":scheme", "http"),
        (":path", path),
        (":authority", "localhost"),
        ("content-type", "application/grpc"),
        ("te", "trailers"),
    ])
}

/// A whole unary gRPC call on `stream`: HEADERS (END_HEADERS) and the length-prefixed message
/// in DATA frames of at most 16,384 bytes, the last with END_STREAM.
pub fn grpc_call(stream: u32, path: &str, message: &[u8]) -> Vec<u8> {
    let mut out = frame(HEADERS, END_HEADERS, stream, &grpc_headers(path));
    let mut body = vec![0u8];
    body.extend_from_slice(&(message.len() as u32).to_be_bytes());
    body.extend_from_slice(message);
    let chunks: Vec<&[u8]> = body.chunks(16_384).collect();
    for (i, c) in chunks.iter().enumerate() {
        let last = i + 1 == chunks.len();
        out.extend(frame(DATA, if last { END_STREAM } else { 0 }, stream, c));
    }
    out
}

/// A frame as read: type, flags, stream, payload.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Frame type.
    pub kind: u8,
    /// Flags.
    pub flags: u8,
    /// Stream id.
    pub stream: u32,
    /// Payload.
    pub payload: Vec<u8>,
}

impl Frame {
    /// The error code of a RST_STREAM or GOAWAY.
    pub fn error_code(&self) -> Option<u32> {
        let at = match self.kind {
            RST_STREAM => 0,
            GOAWAY => 4,
            _ => return None,
        };
        let b = self.payload.get(at..at + 4)?;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Reads one frame; `Ok(None)` at the end of the connection, `Err` on a reset connection or
/// when `within` passes (`io::ErrorKind::TimedOut`).
pub async fn read_frame<R: AsyncRead + Unpin>(
    tcp: &mut R,
    within: Duration,
) -> io::Result<Option<Frame>> {
    let read = async {
        let mut head = [0u8; 9];
        match tcp.read_exact(&mut head).await {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        let len = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
        let mut payload = vec![0u8; len];
        tcp.read_exact(&mut payload).await?;
        Ok(Some(Frame {
            kind: head[3],
            flags: head[4],
            stream: u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff,
            payload,
        }))
    };
    tokio::time::timeout(within, read)
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no frame in time"))?
}

/// Opens a connection and sends the preface and the client's SETTINGS.
pub async fn connect(addr: &str, client_settings: &[(u16, u32)]) -> io::Result<TcpStream> {
    let mut tcp = TcpStream::connect(addr).await?;
    tcp.set_nodelay(true)?;
    tcp.write_all(PREFACE).await?;
    tcp.write_all(&settings(client_settings)).await?;
    Ok(tcp)
}

/// What the server sent on a raw connection, counted by kind.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Response HEADERS frames (not the trailers: the first HEADERS of each stream).
    pub responses: usize,
    /// Of those, complete answers without a body (trailers-only: an error such as load
    /// shedding), which end their stream at once.
    pub complete_heads: usize,
    /// Streams that ended (a HEADERS or DATA frame with END_STREAM).
    pub ended: usize,
    /// RST_STREAM frames with REFUSED_STREAM.
    pub refused: usize,
    /// Other RST_STREAM frames.
    pub reset: usize,
    /// DATA bytes received.
    pub data_bytes: usize,
    /// The GOAWAY error code, if one came.
    pub goaway: Option<u32>,
    /// The server closed the connection (end of stream or reset).
    pub closed: bool,
    /// Frames read.
    pub frames: usize,
}

impl Seen {
    /// Answers started and never finished: held by the server (a shut window).
    pub fn held(&self) -> usize {
        self.responses - self.complete_heads
    }

    /// Counts one frame (`responded`: the streams whose response HEADERS came).
    pub fn count(&mut self, f: &Frame, responded: &mut std::collections::HashSet<u32>) {
        self.frames += 1;
        match f.kind {
            HEADERS => {
                if responded.insert(f.stream) {
                    self.responses += 1;
                    if f.flags & END_STREAM != 0 {
                        self.complete_heads += 1;
                    }
                }
                if f.flags & END_STREAM != 0 {
                    self.ended += 1;
                }
            }
            DATA => {
                self.data_bytes += f.payload.len();
                if f.flags & END_STREAM != 0 {
                    self.ended += 1;
                }
            }
            RST_STREAM if f.error_code() == Some(REFUSED_STREAM) => self.refused += 1,
            RST_STREAM => self.reset += 1,
            GOAWAY => self.goaway = f.error_code(),
            _ => {}
        }
    }
}

/// Reads frames until the server closes the connection, `idle` passes without a frame, or
/// `stop` says so. Never opens a window, never answers a PING, never acknowledges SETTINGS
/// (the server applies its stream limit from the start: h2's `remote_max_initiated`).
pub async fn read_until_quiet<R: AsyncRead + Unpin>(
    tcp: &mut R,
    idle: Duration,
    mut stop: impl FnMut(&Seen) -> bool,
) -> Seen {
    let mut seen = Seen::default();
    let mut responded = std::collections::HashSet::new();
    loop {
        match read_frame(tcp, idle).await {
            Ok(Some(f)) => {
                seen.count(&f, &mut responded);
                if stop(&seen) {
                    return seen;
                }
            }
            Ok(None) => {
                seen.closed = true;
                return seen;
            }
            Err(e) if e.kind() == io::ErrorKind::TimedOut => return seen,
            Err(_) => {
                seen.closed = true;
                return seen;
            }
        }
    }
}
