//! The gRPC face: the generated `referee.v1.Referee` service delegating to [`Api`].

use tonic::{Request, Response, Status};

use crate::api::Api;
use crate::pb::v1 as pb;
use crate::pb::v1::referee_server::{Referee, RefereeServer};

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

#[tonic::async_trait]
impl Referee for GrpcReferee {
    async fn list_games(
        &self,
        request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        self.api.list_games(request.get_ref()).map(Response::new)
    }

    async fn new_game(
        &self,
        request: Request<pb::NewGameRequest>,
    ) -> Result<Response<pb::NewGameResponse>, Status> {
        self.api.new_game(request.get_ref()).map(Response::new)
    }

    async fn apply(
        &self,
        request: Request<pb::ApplyRequest>,
    ) -> Result<Response<pb::ApplyResponse>, Status> {
        self.api.apply(request.get_ref()).map(Response::new)
    }

    async fn legal_actions(
        &self,
        request: Request<pb::LegalActionsRequest>,
    ) -> Result<Response<pb::LegalActionsResponse>, Status> {
        self.api.legal_actions(request.get_ref()).map(Response::new)
    }

    async fn view(
        &self,
        request: Request<pb::ViewRequest>,
    ) -> Result<Response<pb::ViewResponse>, Status> {
        self.api.view(request.get_ref()).map(Response::new)
    }

    async fn replay(
        &self,
        request: Request<pb::ReplayRequest>,
    ) -> Result<Response<pb::ReplayResponse>, Status> {
        // A replay can be long: run it off the async workers so the request timeout and
        // other connections keep working while it computes.
        let api = self.api.clone();
        let request = request.into_inner();
        tokio::task::spawn_blocking(move || api.replay(&request))
            .await
            .map_err(|e| Status::internal(format!("replay task failed: {e}")))?
            .map(Response::new)
    }

    async fn import_game(
        &self,
        request: Request<pb::ImportGameRequest>,
    ) -> Result<Response<pb::ImportGameResponse>, Status> {
        // A whole recorded game takes a while: off the async workers, as Replay.
        let api = self.api.clone();
        let request = request.into_inner();
        tokio::task::spawn_blocking(move || api.import_game(&request))
            .await
            .map_err(|e| Status::internal(format!("import task failed: {e}")))?
            .map(Response::new)
    }

    async fn export_game(
        &self,
        request: Request<pb::ExportGameRequest>,
    ) -> Result<Response<pb::ExportGameResponse>, Status> {
        let api = self.api.clone();
        let request = request.into_inner();
        tokio::task::spawn_blocking(move || api.export_game(&request))
            .await
            .map_err(|e| Status::internal(format!("export task failed: {e}")))?
            .map(Response::new)
    }
}
