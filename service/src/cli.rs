//! The `referee` command line (clap). `referee serve` runs the service; later issues add
//! `replay-18xx` and `playout`.

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
    /// Longest time one request may take, in milliseconds.
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
}

impl ServeArgs {
    /// The server settings these flags describe.
    pub fn config(&self) -> ServeConfig {
        ServeConfig {
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
        }
    }
}
