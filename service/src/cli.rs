//! The `referee` command line (clap): `serve` runs the service; `playout`, `replay-18xx`,
//! `export-18xx` and `health` are tools.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::server::ServeConfig;
use crate::telemetry::LogFormat;

/// Referee: a stateless rules engine service for 1841 and Autobahn.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve gRPC, gRPC-Web and HTTP/JSON on one port.
    Serve(ServeArgs),
    /// Play K seeded games with a policy per seat (`--policy`: random by default, first,
    /// heuristic, a game's own bots) and print one JSON report.
    Playout(PlayoutArgs),
    /// Replay a game of 1841 exported from 18xx.games and print one JSON report.
    #[command(name = "replay-18xx")]
    Replay18xx(Replay18xxArgs),
    /// Write a game played on Referee (the game as Replay takes it) as an 18xx.games export.
    #[command(name = "export-18xx")]
    Export18xx(Export18xxArgs),
    /// Autobahn balance harness (issue #23): round-robin tournaments of the strategy bots at
    /// 2-4 players and solo games against the Autobot; prints one JSON report.
    Balance(BalanceArgs),
    /// Ask a running server for its gRPC health (for container health checks): exit 0 when it
    /// reports SERVING, 1 otherwise.
    Health(HealthArgs),
    /// Print the arbiter credential of the sealing keys (`--seal-key-file` or
    /// `REFEREE_SEAL_KEYS`): the value of the `referee-credential` header that lets a
    /// platform see and act for every seat in sealed mode (docs/SECURITY.md, "Seat access").
    Credential(CredentialArgs),
}

/// Options of `referee credential`.
#[derive(Debug, Args)]
pub struct CredentialArgs {
    /// File of sealing keys, as `referee serve --seal-key-file`.
    #[arg(long, env = "REFEREE_SEAL_KEY_FILE")]
    pub seal_key_file: Option<std::path::PathBuf>,
}

impl CredentialArgs {
    /// The arbiter credential of the active (first) key. Errors: no keys, unreadable file,
    /// bad keys.
    pub fn arbiter_credential(&self) -> anyhow::Result<String> {
        let keys = match &self.seal_key_file {
            Some(path) => std::fs::read_to_string(path).map_err(|e| {
                anyhow::anyhow!("cannot read the seal key file {}: {e}", path.display())
            })?,
            None => std::env::var("REFEREE_SEAL_KEYS").unwrap_or_default(),
        };
        Ok(crate::seal::Sealer::parse(&keys)?.arbiter_credential())
    }
}

/// Options of `referee replay-18xx`.
#[derive(Debug, Args)]
pub struct Replay18xxArgs {
    /// The export (`/api/game/<id>` JSON of 18xx.games).
    pub file: std::path::PathBuf,
    /// Compare the final result and game-end reason with the ones recorded in the file; exit
    /// non-zero on any difference, naming the first.
    #[arg(long)]
    pub check: bool,
    /// Stop after the actions whose id is at most ID (the state 18xx.games shows at
    /// `?action=ID`; 0 stops before the first action).
    #[arg(long, value_name = "ID", value_parser = clap::value_parser!(i64).range(0..))]
    pub stop_at: Option<i64>,
    /// Also write the replayed actions back as an 18xx.games export (Referee's own writer,
    /// the one `ExportGame` uses) to this file: what 18xx.games should load to the same game.
    #[arg(long, value_name = "FILE")]
    pub export_18xx: Option<std::path::PathBuf>,
    /// Add `snapshots` to the report: the state at the start, after each action id during
    /// which the round changed, and at the end, in the shape of the snapshots of 18xx.games'
    /// engine driver (`oracle.rb`), for the conformance harness.
    #[arg(long)]
    pub snapshots: bool,
}

/// Options of `referee export-18xx`.
#[derive(Debug, Args)]
pub struct Export18xxArgs {
    /// The game: a `ReplayRequest` in proto3 JSON (the body of `POST /v1/Replay`), or an
    /// `ExportGameRequest` (`{"game": {...}, "players": [...], "sourceGameId": 7}`).
    pub file: std::path::PathBuf,
    /// Write the export to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
}

/// Options of `referee health`.
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// Address of the server to check.
    #[arg(long, env = "REFEREE_ADDR", default_value = "127.0.0.1:50051")]
    pub addr: SocketAddr,
    /// Service name to check (empty = the server as a whole).
    #[arg(long, default_value = "")]
    pub service: String,
    /// Give up after this many milliseconds.
    #[arg(long, default_value_t = 3_000)]
    pub timeout_ms: u64,
}

/// Games `referee playout` can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayoutGame {
    /// Autobahn (1–4 players).
    Autobahn,
    /// 1841 (3–8 players; lite 3–6).
    #[value(name = "1841")]
    G1841,
}

/// Options of `referee playout`.
///
/// Policies (`--policy`) are named by a string, the same names as `PlayoutRequest.policy_name`
/// and the clients' bots.
///
/// Random policy: at each step a seat of `to_act`, then one of its legal actions uniformly,
/// except that Autobahn's `TakeBackCards` and `Decline` (1841: withholding, another
/// corporation's train, bankruptcy and offers to other players, e.g. with
/// `--options p2p_purchases=true`) are picked only when nothing else is legal or with 1 chance
/// in 8 (the policy of the engine's proptests). Game k uses seed S+k
/// for the setup and the policy, so one game is reproduced with `--seed S+k --games 1`.
///
/// Prints one JSON object on stdout: game, players, games, seed, max_actions, finished,
/// unfinished, errors, actions, seconds, scores {mean, min, max} per seat over the finished
/// games, error_details [{game, seed, action_index, message}], unfinished_details [{game,
/// seed, actions, reason}]. Exit status 0 only when every game finished without error; 1
/// otherwise; 2 for bad arguments or options.
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct PlayoutArgs {
    /// Game to play.
    #[arg(long, value_enum)]
    pub game: PlayoutGame,
    /// Seats per game.
    #[arg(long)]
    pub players: u32,
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// Seed of game 0 (game k uses seed + k).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Actions after which a game counts as not finished (default 5000 for autobahn, 20000
    /// for 1841).
    #[arg(long)]
    pub max_actions: Option<u64>,
    /// NewGame options as name=value, comma-separated (e.g. `autobot_level=5`); a value
    /// `@PATH` is read from the file PATH (e.g. `board=@my-board.json`).
    #[arg(long, value_delimiter = ',')]
    pub options: Vec<String>,
    /// 1841 only: also write each game played as an 18xx.games export, `DIR/1841-<seed>.json`
    /// (the writer of `ExportGame`; an action it cannot write ends the export there and is
    /// named in the file's `referee_export_failure`), for the conformance harness against
    /// 18xx.games' own engine (`scripts/oracle-sample.sh`).
    #[arg(long, value_name = "DIR")]
    pub export_18xx: Option<std::path::PathBuf>,
    /// Policies by name, comma-separated, one per seat (seat i plays the (i mod n)-th; one
    /// name = every seat): random (the default), first, heuristic; Autobahn also balanced
    /// (= heuristic), builder, network, trucker, finance (docs/games/autobahn-bots.md). An
    /// unknown name lists the game's names (exit status 2).
    #[arg(long, value_delimiter = ',')]
    pub policy: Vec<String>,
}

/// Options of `referee balance` (docs/games/autobahn-balance.md; `scripts/autobahn-balance.sh`
/// regenerates the report and plots).
#[derive(Debug, Args)]
pub struct BalanceArgs {
    /// Game (only autobahn has strategy bots).
    #[arg(long, value_enum, default_value = "autobahn")]
    pub game: BalanceGame,
    /// Games per table (per player count, and per Autobot level unless --solo-games).
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Games per Autobot level (default: --games).
    #[arg(long)]
    pub solo_games: Option<u32>,
    /// Seed of game 0 of every table (game g uses seed + g).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Player counts of the round-robin tables.
    #[arg(long, value_delimiter = ',', default_value = "2,3,4")]
    pub players: Vec<u32>,
    /// Strategy bots of the round-robin tables (default: all five).
    #[arg(long, value_delimiter = ',')]
    pub strategies: Vec<String>,
    /// Autobot levels of the solo tables (`--solo-games 0` plays no solo table).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1,2,3,4,5,6,7,8,9,10,11,12"
    )]
    pub solo_levels: Vec<u32>,
    /// Strategy bots playing solo (game g: the (g mod n)-th).
    #[arg(long, value_delimiter = ',', default_value = "balanced")]
    pub solo_strategies: Vec<String>,
    /// NewGame options as name=value, comma-separated; `board=@FILE` reads a board file.
    #[arg(long, value_delimiter = ',')]
    pub options: Vec<String>,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Actions after which a game counts as unfinished.
    #[arg(long, default_value_t = 5_000)]
    pub max_actions: u64,
    /// Also write the JSON report to this file.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

/// Games `referee balance` can balance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BalanceGame {
    /// Autobahn.
    Autobahn,
}

/// Options of `referee serve`. Every flag also reads an environment variable.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 = any free port; the chosen address is printed on stdout).
    #[arg(long, env = "REFEREE_ADDR", default_value = "127.0.0.1:50051")]
    pub addr: SocketAddr,
    /// Log format on stderr.
    #[arg(long, env = "REFEREE_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "REFEREE_MAX_REQUEST_BYTES", default_value_t = 4 * 1024 * 1024)]
    pub max_request_bytes: usize,
    /// Longest time one request may take, in milliseconds (a caller's shorter `grpc-timeout`,
    /// on any transport, is its deadline instead).
    #[arg(long, env = "REFEREE_REQUEST_TIMEOUT_MS", default_value_t = 30_000)]
    pub request_timeout_ms: u64,
    /// Requests processed at once; further requests are refused with RESOURCE_EXHAUSTED.
    #[arg(long, env = "REFEREE_MAX_CONCURRENCY", default_value_t = 256)]
    pub max_concurrency: usize,
    /// Origins allowed to call from browsers (CORS), comma-separated; `*` allows any.
    /// Empty (the default) sends no CORS headers.
    #[arg(long, env = "REFEREE_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// After SIGTERM or Ctrl-C, how long in-flight calls may take to finish, in milliseconds.
    #[arg(long, env = "REFEREE_SHUTDOWN_GRACE_MS", default_value_t = 30_000)]
    pub shutdown_grace_ms: u64,
    /// Longest time a request body may take to arrive, in milliseconds (bodies are read before
    /// a request takes a concurrency slot).
    #[arg(long, env = "REFEREE_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    pub body_timeout_ms: u64,
    /// Longest time a connection may take to send a complete request header, in
    /// milliseconds: the first from when the connection is accepted, each later HTTP/1.1 one
    /// from the previous answer (so also how long an idle HTTP/1.1 connection stays open).
    /// Slower connections are closed (slowloris).
    #[arg(long, env = "REFEREE_HEADER_READ_TIMEOUT_MS", default_value_t = 10_000)]
    pub header_read_timeout_ms: u64,
    /// Longest time a connection with no call in flight stays open, in milliseconds (HTTP/2;
    /// HTTP/1.1 waits for a next request only --header-read-timeout-ms). Then it is closed
    /// gracefully (GOAWAY), and dropped if still open --header-read-timeout-ms later (a peer
    /// that never acknowledges the server's PING).
    #[arg(long, env = "REFEREE_IDLE_TIMEOUT_MS", default_value_t = 60_000)]
    pub idle_timeout_ms: u64,
    /// The bytes of request bodies all connections together may have buffered at once
    /// (read, or announced by Content-Length, until the call has answered). A body that finds
    /// them spent is refused with RESOURCE_EXHAUSTED (HTTP 429).
    #[arg(long, env = "REFEREE_MAX_BUFFERED_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_buffered_bytes: usize,
    /// Connections open at once; a connection over it is closed as soon as it is accepted
    /// (keep it under the process's file-descriptor limit).
    #[arg(long, env = "REFEREE_MAX_CONNECTIONS", default_value_t = crate::server::DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// At the connection limit, a new connection is taken instead of refused when an open
    /// one has had no call in flight (or, never having sent a request, has been open) for at
    /// least this long: the one idle longest is closed to make room (HTTP/2 GOAWAY first).
    /// Connections with a call in flight are never closed for it.
    #[arg(
        long,
        env = "REFEREE_IDLE_TIMEOUT_AT_LIMIT_MS",
        default_value_t = crate::server::DEFAULT_IDLE_TIMEOUT_AT_LIMIT_MS
    )]
    pub idle_timeout_at_limit_ms: u64,
    /// HTTP/2 calls open at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS).
    #[arg(
        long,
        env = "REFEREE_MAX_STREAMS_PER_CONNECTION",
        default_value_t = crate::server::DEFAULT_MAX_STREAMS_PER_CONNECTION
    )]
    pub max_streams_per_connection: u32,
    /// Longest time an answer may wait to be sent, in milliseconds (a client that never
    /// reads, or never opens its HTTP/2 receive window); then its connection is dropped.
    #[arg(long, env = "REFEREE_SEND_TIMEOUT_MS", default_value_t = 30_000)]
    pub send_timeout_ms: u64,
    /// Bytes of answers ready and not yet sent, all connections together; an answer that
    /// would pass it is answered RESOURCE_EXHAUSTED instead and the connection that would
    /// hold the most is dropped at once (clients that never open their HTTP/2 window, or
    /// never read, on many connections).
    #[arg(long, env = "REFEREE_MAX_UNSENT_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_unsent_bytes: usize,
    /// Calls open at once, all connections together, from the complete request header until
    /// the answer has been sent in full or dropped (also while the body arrives and while
    /// the answer waits for a reader); a call over it is refused at once with
    /// RESOURCE_EXHAUSTED (HTTP 429), without a body on HTTP/2.
    #[arg(long, env = "REFEREE_MAX_OPEN_CALLS", default_value_t = 2048)]
    pub max_open_calls: usize,
    /// Calls open at once from one client address (an IPv4 address, an IPv6 /64): its share
    /// of --max-open-calls, so that one client holding calls open cannot lock the others
    /// out; a call over it is refused at once as over --max-open-calls. Behind a proxy that
    /// connects for every client, set it to --max-open-calls.
    #[arg(long, env = "REFEREE_MAX_OPEN_CALLS_PER_CLIENT", default_value_t = crate::server::DEFAULT_MAX_OPEN_CALLS_PER_CLIENT)]
    pub max_open_calls_per_client: usize,
    /// Server-streaming calls (StreamReplay, health Watch, reflection) open at once from one
    /// client address (an IPv4 address, an IPv6 /64): its share of the stream slots (half of
    /// --max-concurrency), so that one client holding streams open cannot take every stream
    /// slot; a stream over it is refused at once with RESOURCE_EXHAUSTED. Default: a quarter
    /// of the stream slots (32 at --max-concurrency 256). Behind a proxy that connects for
    /// every client, set it to half of --max-concurrency.
    #[arg(long, env = "REFEREE_MAX_STREAMING_CALLS_PER_CLIENT")]
    pub max_streaming_calls_per_client: Option<usize>,
    /// The bytes one request may take once decoded, estimated from its body before anything
    /// is decoded (gRPC, gRPC-Web and JSON alike; also an ImportGame's export and an opened
    /// sealed state). Over it the request is refused with INVALID_ARGUMENT naming the field;
    /// within it the estimate shares --max-buffered-bytes with the body until the call has
    /// answered.
    #[arg(long, env = "REFEREE_MAX_DECODED_BYTES", default_value_t = crate::decoded_size::DEFAULT_MAX_DECODED_BYTES)]
    pub max_decoded_bytes: usize,
    /// Sealed mode: file of sealing keys, one `KEY_ID:HEX` per line (32-byte keys, 64 hex
    /// digits); the first key seals, every key opens (rotation). Without keys: open mode.
    #[arg(long, env = "REFEREE_SEAL_KEY_FILE")]
    pub seal_key_file: Option<std::path::PathBuf>,
    /// Make every caller an arbiter: arbiter views (everything, secrets included), and in
    /// sealed mode every seat's view, acting for any seat and Playout (the behaviour before
    /// seat access). Off by default: then only a sealed-mode caller presenting the arbiter
    /// credential (`referee credential`) or a sealing key is one.
    #[arg(long, env = "REFEREE_ALLOW_ARBITER_VIEW")]
    pub allow_arbiter_view: bool,
}

impl ServeArgs {
    /// The server settings these flags describe. Sealing keys come from `--seal-key-file`, or
    /// inline from the environment variable `REFEREE_SEAL_KEYS` (same format, lines or commas).
    ///
    /// Errors: the key file cannot be read.
    pub fn config(&self) -> anyhow::Result<ServeConfig> {
        let seal_keys = match &self.seal_key_file {
            Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
                anyhow::anyhow!("cannot read the seal key file {}: {e}", path.display())
            })?),
            None => std::env::var("REFEREE_SEAL_KEYS")
                .ok()
                .filter(|k| !k.trim().is_empty()),
        };
        Ok(ServeConfig {
            addr: self.addr,
            max_request_bytes: self.max_request_bytes,
            request_timeout: Duration::from_millis(self.request_timeout_ms.max(1)),
            max_concurrency: self.max_concurrency.max(1),
            cors_origins: self
                .cors_origins
                .iter()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
            shutdown_grace: Duration::from_millis(self.shutdown_grace_ms),
            seal_keys,
            body_timeout: Duration::from_millis(self.body_timeout_ms.max(1)),
            allow_arbiter_view: self.allow_arbiter_view,
            header_read_timeout: Duration::from_millis(self.header_read_timeout_ms.max(1)),
            idle_timeout: Duration::from_millis(self.idle_timeout_ms.max(1)),
            max_buffered_bytes: self.max_buffered_bytes.max(1),
            max_connections: self.max_connections.max(1),
            idle_timeout_at_limit: Duration::from_millis(self.idle_timeout_at_limit_ms),
            max_streams_per_connection: self.max_streams_per_connection.max(1),
            send_timeout: Duration::from_millis(self.send_timeout_ms.max(1)),
            max_unsent_bytes: self.max_unsent_bytes.max(1),
            max_open_calls: self.max_open_calls.max(1),
            max_open_calls_per_client: self.max_open_calls_per_client.max(1),
            max_streaming_calls_per_client: self.max_streaming_calls_per_client.map(|n| n.max(1)),
            max_decoded_bytes: self.max_decoded_bytes.max(1),
        })
    }
}

/// Writes a command's result to standard output, one line. A reader that stopped reading
/// (`referee replay-18xx FILE | head -c 100`) ends the output quietly: `println!` would panic
/// on the broken pipe. Any other write error is reported on standard error.
pub fn print_result(text: &dyn std::fmt::Display) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("referee: cannot write the result: {e}");
    }
}
