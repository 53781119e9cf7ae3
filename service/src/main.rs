//! `referee`: the Referee service and its command-line tools.

use clap::Parser;
use referee_service::cli::{Cli, Command};
use referee_service::{server, telemetry};

/// mimalloc instead of the system allocator: the rules allocate many small values, and
/// glibc's malloc/free took about a fifth of the instructions of a replay
/// (docs/PERFORMANCE.md); entered by its plain `mi_malloc` (crate `referee-alloc`).
#[global_allocator]
static GLOBAL: referee_alloc::MiMalloc = referee_alloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => run_serve(args).await,
        Command::Playout(args) => return referee_service::playout::main(&args),
        Command::Balance(args) => return referee_service::balance::main(&args),
        Command::Health(args) => return health(args).await,
        Command::Credential(args) => args
            .arbiter_credential()
            .map(|c| referee_service::cli::print_result(&c)),
        Command::Replay18xx(args) => {
            return referee_service::replay18xx::main(
                &args.file,
                args.check,
                args.stop_at,
                args.export_18xx.as_deref(),
                args.snapshots,
            );
        }
        Command::Export18xx(args) => {
            return referee_service::replay18xx::export_main(&args.file, args.out.as_deref());
        }
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

/// `referee health`: one gRPC health check; prints the status and exits 0 only for SERVING.
async fn health(args: referee_service::cli::HealthArgs) -> std::process::ExitCode {
    use tonic_health::pb::HealthCheckRequest;
    use tonic_health::pb::health_client::HealthClient;

    let timeout = std::time::Duration::from_millis(args.timeout_ms.max(1));
    let check = async {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", args.addr))?
            .connect_timeout(timeout)
            .connect()
            .await?;
        let response = HealthClient::new(channel)
            .check(HealthCheckRequest {
                service: args.service.clone(),
            })
            .await?;
        Ok::<_, Box<dyn std::error::Error>>(response.into_inner().status())
    };
    match tokio::time::timeout(timeout, check).await {
        Ok(Ok(status)) => {
            referee_service::cli::print_result(&status.as_str_name());
            if status == tonic_health::pb::health_check_response::ServingStatus::Serving {
                std::process::ExitCode::SUCCESS
            } else {
                std::process::ExitCode::FAILURE
            }
        }
        Ok(Err(e)) => {
            eprintln!("referee health: {}: {e}", args.addr);
            std::process::ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!(
                "referee health: {}: no answer within {} ms",
                args.addr,
                timeout.as_millis()
            );
            std::process::ExitCode::FAILURE
        }
    }
}
