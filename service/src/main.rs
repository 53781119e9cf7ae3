//! `referee`: the Referee service and its command-line tools.

use clap::Parser;
use referee_service::cli::{Cli, Command};
use referee_service::{server, telemetry};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => run_serve(args).await,
        Command::Playout(args) => return referee_service::playout::main(&args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("referee: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run_serve(args: referee_service::cli::ServeArgs) -> anyhow::Result<()> {
    let _telemetry = telemetry::init(args.log_format)?;
    let shutdown = server::shutdown_signal()?;
    server::serve(args.config()?, shutdown).await
}
