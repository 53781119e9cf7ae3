//! `referee-soak`: saturate a running server, sample its memory, then SIGTERM it under load
//! and count every answer. Prints a JSON report; exits 1 when the soak failed (an unexpected
//! gRPC code, memory growth of 10 % or more past the first half of the run; with `--hostile`, an attack that did not meet its
//! bound). Used by `scripts/soak.sh` (docs/PERFORMANCE.md, docs/SECURITY.md).

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use referee_loadgen::soak::{SoakConfig, soak};

/// Soak test client for a running `referee serve` on this machine.
#[derive(Parser, Debug)]
#[command(name = "referee-soak", version)]
struct Args {
    /// Server address.
    #[arg(long, default_value = "127.0.0.1:50051")]
    addr: String,
    /// Server process id (memory samples and SIGTERM).
    #[arg(long)]
    server_pid: u32,
    /// Minutes under load before SIGTERM.
    #[arg(long, default_value_t = 10.0)]
    minutes: f64,
    /// Seconds between memory samples.
    #[arg(long, default_value_t = 60.0)]
    sample_secs: f64,
    /// HTTP/2 connections.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// Requests in flight.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// Do not send SIGTERM at the end.
    #[arg(long)]
    no_sigterm: bool,
    /// Seconds of load kept up after SIGTERM.
    #[arg(long, default_value_t = 5.0)]
    after_term_secs: f64,
    /// Honest calls per second (paced, open loop); default: as fast as answered (saturation).
    #[arg(long)]
    rate: Option<f64>,
    /// Mix in the attack suite's hostile traffic (the server must run with its default limits).
    #[arg(long)]
    hostile: bool,
}

#[tokio::main]
async fn main() -> ExitCode {
    let a = Args::parse();
    let cfg = SoakConfig {
        addr: a.addr,
        connections: a.connections,
        concurrency: a.concurrency,
        duration: Duration::from_secs_f64((a.minutes * 60.0).max(1.0)),
        sample_every: Duration::from_secs_f64(a.sample_secs.max(1.0)),
        server_pid: a.server_pid,
        sigterm: !a.no_sigterm,
        after_term: Duration::from_secs_f64(a.after_term_secs.max(0.0)),
        rate: a.rate,
        hostile: a.hostile,
    };
    match soak(&cfg).await {
        Ok(report) => {
            println!("{report:#}");
            if report["passed"].as_bool() == Some(true) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("referee-soak: {e:#}");
            ExitCode::from(2)
        }
    }
}
