//! # referee-service
//!
//! The network face of Referee: a tonic gRPC server that also speaks gRPC-Web and HTTP/JSON
//! (canonical proto3 JSON) on the same port, with health checking, server reflection,
//! structured logs and OpenTelemetry. The rules live in `referee-engine`; this crate maps
//! them to the wire API (`proto/`) and back.
//!
//! Path of one `Apply` call: transport (`grpc.rs` or `http_json.rs`) → [`api::Api::apply`]
//! → decode and validate the state (`games/<game>.rs`) → `Game::apply` in the engine →
//! encode the new state and events.

pub mod api;
pub mod balance;
pub mod cli;
pub mod codec;
pub mod decoded_size;
pub mod fd_limit;
pub mod game_data;
pub mod game_records;
pub mod games;
pub mod grpc;
pub mod http_json;
pub mod pb;
pub mod playout;
pub mod replay18xx;
pub mod seal;
pub mod server;
mod shares;
pub mod telemetry;
pub mod work;

/// Schema version of the typed states this build writes and the newest it reads.
/// States with a larger `schema_version` are refused with `FAILED_PRECONDITION`.
pub const SCHEMA_VERSION: u32 = 1;
