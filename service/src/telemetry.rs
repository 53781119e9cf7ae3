//! Logs, traces and metrics.
//!
//! * Logs: structured `tracing` events on stderr, as text (default) or JSON (`--log-format json`);
//!   the filter comes from `RUST_LOG` (default `info`). Text that comes from callers (game ids,
//!   error messages quoting input, panic messages) is only ever a field value other than
//!   `message`, which both formats escape (text: Rust string escapes in quotes; JSON: JSON
//!   strings): one event is one line, and a caller cannot forge log lines.
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
    log_panics();
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

/// Panics (a bug in the engine, caught per call and answered INTERNAL) are logged as one
/// `tracing` event whose panic message is an escaped field, instead of the default hook's raw
/// line on stderr (the message can quote the data of the request). The backtrace is added
/// when `RUST_BACKTRACE` asks for one.
fn log_panics() {
    std::panic::set_hook(Box::new(log_panic));
}

/// The panic hook of [`log_panics`].
fn log_panic(info: &std::panic::PanicHookInfo<'_>) {
    {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let location = info.location().map(|l| l.to_string()).unwrap_or_default();
        let backtrace = std::backtrace::Backtrace::capture();
        if backtrace.status() == std::backtrace::BacktraceStatus::Captured {
            let backtrace = backtrace.to_string();
            tracing::error!(
                panic = text.as_str(),
                location = location.as_str(),
                backtrace = backtrace.as_str(),
                "a thread panicked"
            );
        } else {
            tracing::error!(
                panic = text.as_str(),
                location = location.as_str(),
                "a thread panicked"
            );
        }
    }
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

/// Records one RPC's latency with its name, game id (a known game, `""` or `other`) and
/// outcome.
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

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    /// A panic is one escaped log event: its message (which can quote request data) cannot
    /// start a line of its own.
    #[test]
    fn a_panic_is_logged_as_one_escaped_event() {
        #[derive(Clone, Default)]
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl std::io::Write for Sink {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let sink = Sink::default();
        let writer = sink.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(super::log_panic));
        let caught = tracing::subscriber::with_default(subscriber, || {
            std::panic::catch_unwind(|| panic!("bad id `a\nFORGED LINE`"))
        });
        std::panic::set_hook(previous);
        assert!(caught.is_err());
        let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(
            out.contains(r#"ERROR referee_service::telemetry: a thread panicked panic="bad id `a\nFORGED LINE`" location="#),
            "{out}"
        );
    }
}
