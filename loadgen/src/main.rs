//! `referee-loadgen`: load a running Referee server and report requests/s, latency
//! percentiles and errors per scenario, with an echo baseline (see the library docs and
//! docs/PERFORMANCE.md).

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use referee_loadgen::{Config, SCENARIOS, run, table};

/// Load generator for a running `referee serve`.
#[derive(Parser, Debug)]
#[command(name = "referee-loadgen", version)]
struct Args {
    /// Server address.
    #[arg(long, default_value = "127.0.0.1:50051")]
    addr: String,
    /// HTTP/2 connections.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// Requests in flight, spread over the connections.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// Measured seconds per scenario.
    #[arg(long, default_value_t = 10.0)]
    duration_secs: f64,
    /// Unmeasured warm-up seconds per scenario.
    #[arg(long, default_value_t = 2.0)]
    warmup_secs: f64,
    /// Scenarios, comma-separated (default: all of SCENARIOS): echo-1841, apply-1841,
    /// legal-1841, view-1841, echo-autobahn, apply-autobahn, legal-autobahn, view-autobahn;
    /// also describe-1841, default-1841, describe-autobahn, default-autobahn (Describe and
    /// DefaultAction of the same positions). Calls refused by load shedding
    /// (RESOURCE_EXHAUSTED) are counted in their own column, not as errors.
    #[arg(long, value_delimiter = ',')]
    scenarios: Vec<String>,
    /// Stop each scenario after this many measured requests.
    #[arg(long)]
    max_requests: Option<u64>,
    /// Report the resident memory of this server process (Linux /proc).
    #[arg(long)]
    server_pid: Option<u32>,
    /// Print the JSON report instead of a table.
    #[arg(long)]
    json: bool,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let scenarios = if args.scenarios.is_empty() {
        SCENARIOS.iter().map(|s| s.to_string()).collect()
    } else {
        args.scenarios.clone()
    };
    let cfg = Config {
        addr: args.addr.clone(),
        connections: args.connections,
        concurrency: args.concurrency,
        duration: Duration::from_secs_f64(args.duration_secs.max(0.0)),
        warmup: Duration::from_secs_f64(args.warmup_secs.max(0.0)),
        scenarios,
        max_requests: args.max_requests,
        server_pid: args.server_pid,
    };
    match run(&cfg).await {
        Ok(report) => {
            if args.json {
                println!("{report}");
            } else {
                print!("{}", table(&report));
            }
            let errors = report["scenarios"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|o| o["errors"].as_object().is_some_and(|m| !m.is_empty()));
            if errors {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("referee-loadgen: {e:#}");
            ExitCode::from(2)
        }
    }
}
