//! Logs, traces and metrics.
//!
//! * Logs: structured `tracing` events on stderr, as text (default) or JSON (`--log-format json`);
//!   the filter comes from `RUST_LOG` (default `info`).
//! * Traces and metrics: exported over OTLP/gRPC when `OTEL_EXPORTER_OTLP_ENDPOINT` is set
//!   (standard OpenTelemetry variables apply: `OTEL_SERVICE_NAME`, headers, ...), silent
//!   otherwise. Every RPC is one span `rpc` (fields `rpc`, `game`, `seat`, `action_kind`,
//!   `outcome`, `rejection_code`) and one sample of the histogram `referee.rpc.duration` (s).

use std::sync::OnceLock;
use std::time::Duration;

use opentelemetry::KeyValue;
use opentelemetry::metrics::Histogram;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// Log output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// Keeps the exporters alive; flushes and shuts them down when dropped.
#[derive(Debug, Default)]
pub struct TelemetryGuard {
    tracer_provider: Option<SdkTracerProvider>,
    meter_provider: Option<SdkMeterProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(tp) = self.tracer_provider.take() {
            let _ = tp.shutdown();
        }
        if let Some(mp) = self.meter_provider.take() {
            let _ = mp.shutdown();
        }
    }
}

/// Whether OTLP export is configured in the environment.
pub fn otlp_configured() -> bool {
    std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").is_ok_and(|v| !v.trim().is_empty())
}

/// Installs the global subscriber (and OTLP exporters when configured). Must run inside the
/// tokio runtime (the OTLP exporter uses it). Errors if a subscriber is already installed or
/// an exporter cannot be built.
pub fn init(format: LogFormat) -> anyhow::Result<TelemetryGuard> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let mut guard = TelemetryGuard::default();
    let otel_layer = if otlp_configured() {
        let resource = Resource::builder().with_service_name("referee").build();
        let spans = opentelemetry_otlp::SpanExporter::builder()
            .with_tonic()
            .build()?;
        let tp = SdkTracerProvider::builder()
            .with_batch_exporter(spans)
            .with_resource(resource.clone())
            .build();
        let metrics = opentelemetry_otlp::MetricExporter::builder()
            .with_tonic()
            .build()?;
        let mp = SdkMeterProvider::builder()
            .with_periodic_exporter(metrics)
            .with_resource(resource)
            .build();
        opentelemetry::global::set_meter_provider(mp.clone());
        let layer = tracing_opentelemetry::layer().with_tracer(tp.tracer("referee"));
        guard.tracer_provider = Some(tp);
        guard.meter_provider = Some(mp);
        Some(layer)
    } else {
        None
    };
    let registry = tracing_subscriber::registry().with(filter).with(otel_layer);
    match format {
        LogFormat::Text => registry
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(std::io::stderr)
                    .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())),
            )
            .try_init()?,
        LogFormat::Json => registry
            .with(
                tracing_subscriber::fmt::layer()
                    .json()
                    .with_writer(std::io::stderr),
            )
            .try_init()?,
    }
    Ok(guard)
}

fn rpc_duration() -> &'static Histogram<f64> {
    static H: OnceLock<Histogram<f64>> = OnceLock::new();
    H.get_or_init(|| {
        opentelemetry::global::meter("referee")
            .f64_histogram("referee.rpc.duration")
            .with_unit("s")
            .with_description("Time spent in one RPC, from decoded request to encoded answer")
            .build()
    })
}

/// Records one RPC's latency with its name, game id and outcome.
pub fn record_rpc(rpc: &'static str, game: &str, outcome: &str, elapsed: Duration) {
    rpc_duration().record(
        elapsed.as_secs_f64(),
        &[
            KeyValue::new("rpc", rpc),
            KeyValue::new("game", game.to_string()),
            KeyValue::new("outcome", outcome.to_string()),
        ],
    );
}
