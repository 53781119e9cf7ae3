//! Runs the load generator's requests through the service's gRPC handler in process, N times,
//! for profiling (docs/PERFORMANCE.md): the request bytes are decoded with prost as tonic does,
//! [`GrpcReferee`]'s `apply` runs (the `Api` call with its span, metrics, conversion,
//! validation, rules and encoding), and the answer is encoded back to bytes. With
//! `RUST_LOG=warn` the global subscriber is the server's (`telemetry::init`).
//!
//! ```sh
//! cargo build --release -p referee-loadgen --example apply_inproc
//! valgrind --tool=callgrind --dump-instr=no target/release/examples/apply_inproc apply-1841 1000
//! valgrind --tool=callgrind --dump-instr=no target/release/examples/apply_inproc echo-1841 1000
//! ```
//!
//! The difference between the two runs (divided by the count) is the handler's extra work per
//! Apply; a count of 0 runs the setup alone (the position's replay), to subtract it.

use std::time::Instant;

/// The allocator of the `referee` binary, so the figures are the server's.
#[global_allocator]
static GLOBAL: referee_alloc::MiMalloc = referee_alloc::MiMalloc;

use prost::Message;
use referee_loadgen::{position_1841, position_autobahn, prepare};
use referee_service::api::Api;
use referee_service::grpc::GrpcReferee;
use referee_service::pb::v1 as pb;
use referee_service::pb::v1::referee_server::Referee;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "apply-1841".into());
    let n: u64 = args.next().map_or(Ok(1000), |s| s.parse())?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let _telemetry = rt.block_on(async {
        referee_service::telemetry::init(referee_service::telemetry::LogFormat::Text)
    })?;
    let p = prepare(&scenario, &position_1841()?, &position_autobahn()?)?;
    anyhow::ensure!(
        p.path == "/referee.v1.Referee/Apply",
        "only the Apply scenarios (apply-*, echo-*) run here"
    );
    let grpc = GrpcReferee::new(Api::new());
    let started = Instant::now();
    let mut bytes = 0usize;
    rt.block_on(async {
        for _ in 0..n {
            let req = pb::ApplyRequest::decode(p.body.clone()).expect("request decodes");
            match grpc.apply(tonic::Request::new(req)).await {
                Ok(resp) => bytes += resp.into_inner().encode_to_vec().len(),
                Err(status) => bytes += status.message().len(),
            }
        }
    });
    let elapsed = started.elapsed();
    println!(
        "{scenario}: {n} calls, {:.2} µs per call, {bytes} answer bytes",
        elapsed.as_secs_f64() * 1e6 / n.max(1) as f64
    );
    Ok(())
}
