//! The gRPC face: the generated `referee.v1.Referee` service delegating to [`Api`].

use std::time::Duration;

use tonic::{Request, Response, Status};

use crate::api::Api;
use crate::pb::v1 as pb;
use crate::pb::v1::referee_server::{Referee, RefereeServer};
use crate::work::{Arrival, Cancel};

/// gRPC adapter over [`Api`].
#[derive(Clone, Debug, Default)]
pub struct GrpcReferee {
    api: Api,
}

impl GrpcReferee {
    /// Wraps the service logic.
    pub fn new(api: Api) -> Self {
        Self { api }
    }

    /// The tonic server, refusing decoded requests larger than `max_request_bytes`.
    pub fn into_server(self, max_request_bytes: usize) -> RefereeServer<Self> {
        RefereeServer::new(self)
            .max_decoding_message_size(max_request_bytes)
            .max_encoding_message_size(usize::MAX)
    }
}

/// The header carrying a caller's credential in sealed mode (docs/SECURITY.md, "Seat access").
pub const CREDENTIAL_HEADER: &str = "referee-credential";

/// What a `referee-credential` header that is not visible ASCII text reads as: a value no
/// credential can be, so that sealed mode refuses it with `UNAUTHENTICATED` like any other
/// malformed credential instead of taking its caller for one without a credential.
pub const NOT_TEXT_CREDENTIAL: &str = "\u{fffd}";

/// The caller's credential from the `referee-credential` header (`None`: absent; a value that
/// is not text: [`NOT_TEXT_CREDENTIAL`]).
pub fn credential(metadata: &tonic::metadata::MetadataMap) -> Option<&str> {
    Some(
        metadata
            .get(CREDENTIAL_HEADER)?
            .to_str()
            .unwrap_or(NOT_TEXT_CREDENTIAL),
    )
}

/// The caller's deadline from the `grpc-timeout` header (gRPC over HTTP/2: digits and a unit
/// `H`, `M`, `S`, `m`, `u`, `n`), `None` when absent or unreadable.
pub fn grpc_timeout(metadata: &tonic::metadata::MetadataMap) -> Option<Duration> {
    parse_grpc_timeout(metadata.get("grpc-timeout")?.to_str().ok()?)
}

/// Parses a `grpc-timeout` value (`100m`, `5S`).
pub fn parse_grpc_timeout(v: &str) -> Option<Duration> {
    let v = v.trim();
    let unit = v.chars().last()?;
    let n: u64 = v.get(..v.len() - unit.len_utf8())?.parse().ok()?;
    Some(match unit {
        'H' => Duration::from_secs(n.saturating_mul(3600)),
        'M' => Duration::from_secs(n.saturating_mul(60)),
        'S' => Duration::from_secs(n),
        'm' => Duration::from_millis(n),
        'u' => Duration::from_micros(n),
        'n' => Duration::from_nanos(n),
        _ => return None,
    })
}

/// Runs `f` on the blocking thread pool (whole games, playouts: off the async workers so the
/// request timeout and other connections keep working); when the call goes away first, `f`'s
/// [`Cancel`] is set and the work stops ([`crate::work::blocking`]).
async fn blocking<T: Send + 'static>(
    f: impl FnOnce(&Cancel) -> Result<T, Status> + Send + 'static,
) -> Result<Response<T>, Status> {
    crate::work::blocking(f).await?.map(Response::new)
}

/// A call on one state, off the async workers behind the quick-call queue
/// ([`crate::work::quick`]): the concurrency slot counts it while it waits.
async fn quick<T: Send + 'static>(
    f: impl FnOnce(&Cancel) -> Result<T, Status> + Send + 'static,
) -> Result<Response<T>, Status> {
    crate::work::quick(f).await?.map(Response::new)
}

#[tonic::async_trait]
impl Referee for GrpcReferee {
    type StreamReplayStream = crate::work::Messages<pb::StreamReplayResponse>;

    async fn apply_batch(
        &self,
        request: Request<pb::ApplyBatchRequest>,
    ) -> Result<Response<pb::ApplyBatchResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        blocking(move |cancel| api.apply_batch(&request, cancel)).await
    }

    async fn stream_replay(
        &self,
        request: Request<pb::StreamReplayRequest>,
    ) -> Result<Response<Self::StreamReplayStream>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let deadline = api.deadline(grpc_timeout(request.metadata()));
        let request = request.into_inner();
        // Bounded: the replay waits while the client reads slowly, stops when it leaves, and
        // ends with DEADLINE_EXCEEDED at the call's deadline.
        Ok(Response::new(crate::work::stream(
            deadline,
            prost::Message::encoded_len,
            move |send| api.stream_replay(&request, send),
        )))
    }

    async fn playout(
        &self,
        request: Request<pb::PlayoutRequest>,
    ) -> Result<Response<pb::PlayoutResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let timeout = grpc_timeout(request.metadata());
        let arrived = request.extensions().get::<Arrival>().map(|a| a.0);
        let request = request.into_inner();
        blocking(move |cancel| api.playout(&request, timeout, arrived, cancel)).await
    }

    async fn suggest_routes(
        &self,
        request: Request<pb::SuggestRoutesRequest>,
    ) -> Result<Response<pb::SuggestRoutesResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        blocking(move |_| api.suggest_routes(&request)).await
    }

    async fn default_action(
        &self,
        request: Request<pb::DefaultActionRequest>,
    ) -> Result<Response<pb::DefaultActionResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        quick(move |_| api.default_action(&request)).await
    }

    async fn describe(
        &self,
        request: Request<pb::DescribeRequest>,
    ) -> Result<Response<pb::DescribeResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        quick(move |_| api.describe(&request)).await
    }

    async fn get_game_data(
        &self,
        request: Request<pb::GetGameDataRequest>,
    ) -> Result<Response<pb::GetGameDataResponse>, Status> {
        // A platform's own Autobahn board is parsed, checked and drawn per call: engine
        // work, off the async workers like every call on one state.
        let api = self.api.clone();
        let request = request.into_inner();
        quick(move |_| api.get_game_data(&request)).await
    }

    async fn list_games(
        &self,
        request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        self.api
            .for_caller(credential(request.metadata()))
            .list_games(request.get_ref())
            .map(Response::new)
    }

    async fn new_game(
        &self,
        request: Request<pb::NewGameRequest>,
    ) -> Result<Response<pb::NewGameResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        quick(move |_| api.new_game(&request)).await
    }

    async fn apply(
        &self,
        request: Request<pb::ApplyRequest>,
    ) -> Result<Response<pb::ApplyResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        quick(move |_| api.apply(&request)).await
    }

    async fn legal_actions(
        &self,
        request: Request<pb::LegalActionsRequest>,
    ) -> Result<Response<pb::LegalActionsResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        quick(move |_| api.legal_actions(&request)).await
    }

    async fn view(
        &self,
        request: Request<pb::ViewRequest>,
    ) -> Result<Response<pb::ViewResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        quick(move |_| api.view(&request)).await
    }

    async fn replay(
        &self,
        request: Request<pb::ReplayRequest>,
    ) -> Result<Response<pb::ReplayResponse>, Status> {
        // A replay can be long: run it off the async workers so the request timeout and
        // other connections keep working while it computes.
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        blocking(move |cancel| api.replay(&request, cancel)).await
    }

    async fn import_game(
        &self,
        request: Request<pb::ImportGameRequest>,
    ) -> Result<Response<pb::ImportGameResponse>, Status> {
        // A whole recorded game takes a while: off the async workers, as Replay. The
        // engine's import stops before the next action once the caller has gone away
        // (`work::blocking` sets the engine's cancellation flag); its undo/redo filter is
        // linear in the size of the export.
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        blocking(move |_| api.import_game(&request)).await
    }

    async fn export_game(
        &self,
        request: Request<pb::ExportGameRequest>,
    ) -> Result<Response<pb::ExportGameResponse>, Status> {
        let api = self.api.for_caller(credential(request.metadata()));
        let request = request.into_inner();
        blocking(move |_| api.export_game(&request)).await
    }
}
