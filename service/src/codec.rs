//! The protobuf codec of the gRPC service: tonic-prost's codec, except that a request body
//! that is not valid protobuf is answered with `INVALID_ARGUMENT` (a caller error) instead of
//! tonic's default `INTERNAL`.

use std::marker::PhantomData;

use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder};
use tonic_prost::ProstCodec;

/// Codec used by the generated `Referee` server (see `build.rs`, `codec_path`).
#[derive(Debug)]
pub struct RefereeCodec<T, U> {
    inner: ProstCodec<T, U>,
}

impl<T, U> Default for RefereeCodec<T, U> {
    fn default() -> Self {
        Self {
            inner: ProstCodec::default(),
        }
    }
}

impl<T, U> Codec for RefereeCodec<T, U>
where
    T: prost::Message + Send + 'static,
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = <ProstCodec<T, U> as Codec>::Encoder;
    type Decoder = RefereeDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        self.inner.encoder()
    }

    fn decoder(&mut self) -> Self::Decoder {
        RefereeDecoder(PhantomData)
    }
}

/// Decodes a protobuf message; malformed bytes give `INVALID_ARGUMENT`.
#[derive(Debug)]
pub struct RefereeDecoder<U>(PhantomData<U>);

impl<U: prost::Message + Default> Decoder for RefereeDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<Self::Item>, Self::Error> {
        U::decode(buf).map(Some).map_err(|e| {
            Status::invalid_argument(format!("request is not a valid protobuf message: {e}"))
        })
    }

    fn buffer_settings(&self) -> BufferSettings {
        BufferSettings::default()
    }
}
