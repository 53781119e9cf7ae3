//! The protobuf codec of the gRPC service: tonic-prost's codec, except that
//!
//! * a request body that is not valid protobuf is answered with `INVALID_ARGUMENT` (a caller
//!   error) instead of tonic's default `INTERNAL`;
//! * an `ApplyResponse` is written without computing the length of its state once per
//!   enclosing message ([`encode_apply_response`]; the bytes are prost's).

use std::any::Any;
use std::marker::PhantomData;

use bytes::BufMut;
use prost::Message;
use prost::encoding::{WireType, encode_key, encode_varint};
use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic_prost::{ProstCodec, ProstEncoder};

use crate::pb::{g1841, v1};

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
    type Encoder = RefereeEncoder<T>;
    type Decoder = RefereeDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        RefereeEncoder(self.inner.encoder())
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
        // tonic hands over the whole message in one contiguous buffer: prost reads a byte
        // slice far faster than through `DecodeBuf` (whose every advance goes through
        // `BytesMut`: about 40 % of the decoding of a 1 KB state).
        let len = bytes::Buf::remaining(buf);
        let chunk = bytes::Buf::chunk(buf);
        let decoded = if chunk.len() == len {
            let decoded = U::decode(chunk);
            bytes::Buf::advance(buf, len);
            decoded
        } else {
            U::decode(buf)
        };
        decoded.map(Some).map_err(|e| {
            Status::invalid_argument(format!("request is not a valid protobuf message: {e}"))
        })
    }

    fn buffer_settings(&self) -> BufferSettings {
        BufferSettings::default()
    }
}

/// Encodes a protobuf message as tonic-prost does; an [`v1::ApplyResponse`] through
/// [`encode_apply_response`] (the same bytes, fewer instructions).
#[derive(Debug)]
pub struct RefereeEncoder<T>(ProstEncoder<T>);

impl<T: Message + Send + 'static> Encoder for RefereeEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, mut item: T, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        if let Some(resp) = (&mut item as &mut dyn Any).downcast_mut::<v1::ApplyResponse>() {
            let mut out = Vec::with_capacity(2048);
            encode_apply_response(std::mem::take(resp), &mut out);
            buf.put_slice(&out);
            return Ok(());
        }
        self.0.encode(item, buf)
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.0.buffer_settings()
    }
}

/// Appends field `tag` (length-delimited) whose contents `body` appends to `out`: the contents
/// are written first and the key and length put before them afterwards, so no length is
/// computed in advance. (prost's `message::encode` computes a message's length before writing
/// it, and every enclosing message computes it again for its own length: a 1841 state inside
/// `ApplyResponse → Accepted → GameState` had the length of its certificates computed six
/// times.)
fn nested(tag: u32, out: &mut Vec<u8>, body: impl FnOnce(&mut Vec<u8>)) {
    let start = out.len();
    body(out);
    let len = out.len() - start;
    let mut prefix = [0u8; 16];
    let mut at = &mut prefix[..];
    encode_key(tag, WireType::LengthDelimited, &mut at);
    encode_varint(len as u64, &mut at);
    let n = 16 - at.len();
    out.extend_from_slice(&prefix[..n]);
    out[start..].rotate_right(n);
}

/// Appends message `m` as field `tag` (the bytes of prost's `message::encode`).
fn message<M: Message>(tag: u32, m: &M, out: &mut Vec<u8>) {
    nested(tag, out, |out| m.encode_raw(out));
}

/// Appends the encoding of `resp`: byte for byte what prost writes (`resp.encode_to_vec()`),
/// its fields in tag order, each nested message's length taken from its written contents.
/// (prost writes the fields of a message in tag order, so a message is the concatenation of
/// its fields: the fields of a part of it, encoded by prost, followed by the fields after
/// them written here.)
pub fn encode_apply_response(resp: v1::ApplyResponse, out: &mut Vec<u8>) {
    use v1::apply_response::Result as R;
    match resp.result {
        None => {}
        Some(R::Accepted(acc)) => nested(1, out, |out| encode_accepted(acc, out)),
        Some(R::Rejected(rej)) => message(2, &rej, out),
    }
}

fn encode_accepted(mut acc: v1::Accepted, out: &mut Vec<u8>) {
    // Field 1, then 2–4 by prost.
    if let Some(gs) = acc.state.take() {
        nested(1, out, |out| encode_game_state(gs, out));
    }
    acc.encode_raw(out);
}

fn encode_game_state(mut gs: v1::GameState, out: &mut Vec<u8>) {
    use v1::game_state::State as S;
    // Fields 1–4 by prost, then the typed state (10, 11).
    let state = gs.state.take();
    gs.encode_raw(out);
    match state {
        None => {}
        Some(S::G1841(s)) => nested(10, out, |out| encode_g1841_state(s, out)),
        Some(S::Autobahn(s)) => message(11, &s, out),
    }
}

fn encode_g1841_state(mut s: g1841::State, out: &mut Vec<u8>) {
    use g1841::state::Round;
    // Fields 1–6 by prost; then corporations (7), next_market_arrival (8), the round (10–12),
    // operations (13), game_end (14).
    let corporations = std::mem::take(&mut s.corporations);
    let next_market_arrival = std::mem::take(&mut s.next_market_arrival);
    let round = s.round.take();
    let operations = s.operations.take();
    let game_end = s.game_end.take();
    s.encode_raw(out);
    for c in &corporations {
        message(7, c, out);
    }
    if next_market_arrival != 0 {
        prost::encoding::uint64::encode(8, &next_market_arrival, out);
    }
    match &round {
        None => {}
        Some(Round::ConcessionRound(r)) => message(10, r, out),
        Some(Round::StockRound(r)) => message(11, r, out),
        Some(Round::OperatingRound(r)) => message(12, r, out),
    }
    if let Some(o) = &operations {
        message(13, o, out);
    }
    if let Some(g) = &game_end {
        message(14, g, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::autobahn::WireAutobahn;
    use crate::games::g1841::Wire1841;
    use crate::games::{self, WireGame, encode_state};
    use referee_engine::Game;
    use referee_engine::autobahn::{self as ab, Autobahn};
    use referee_engine::g1841::{G1841, import18xx::parse_export};

    /// `encode_apply_response` writes exactly prost's bytes.
    fn same_bytes(resp: &v1::ApplyResponse) {
        let mut out = Vec::new();
        encode_apply_response(resp.clone(), &mut out);
        assert_eq!(out, resp.encode_to_vec(), "{resp:?}");
    }

    /// Every Apply answer along a recorded 1841 game (accepted, and refused for the next
    /// seat), plus the sealed-mode shape of each tenth answer.
    fn along_1841_game(name: &str) -> usize {
        let path = format!(
            "{}/../tests/fixtures/1841/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let export = parse_export(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let options = export.options().unwrap();
        let seats = export.players.len() as u32;
        let mut state = G1841::setup(&options, seats, 0).unwrap();
        let mut answers = 0;
        for (count, recorded) in export.actions.iter().enumerate() {
            let Ok(Some((seat, action))) = recorded.to_action(&state) else {
                continue;
            };
            let gs = encode_state::<Wire1841>(&state, count as u64);
            for s in [seat, (seat + 1) % seats] {
                let req = v1::ApplyRequest {
                    state: Some(gs.clone()),
                    seat: s,
                    action: Some(Wire1841::action_to_pb(&action)),
                    ..Default::default()
                };
                let resp = games::apply::<Wire1841>(&gs, &req).unwrap().response;
                same_bytes(&resp);
                answers += 1;
                if count % 10 == 0
                    && let Some(v1::apply_response::Result::Accepted(mut acc)) = resp.result
                {
                    // Sealed mode: no clear state, a token and per-seat views.
                    acc.state = None;
                    acc.sealed_state = vec![7; 90];
                    acc.seat_views = (0..seats)
                        .map(|seat| games::view::<Wire1841>(&gs, Some(seat)).unwrap())
                        .collect();
                    same_bytes(&v1::ApplyResponse {
                        result: Some(v1::apply_response::Result::Accepted(acc)),
                    });
                }
            }
            if G1841::apply(&mut state, seat, &action).is_err() {
                break;
            }
        }
        answers
    }

    #[test]
    fn apply_answers_are_prost_bytes_along_the_recorded_1841_games() {
        assert!(along_1841_game("132002") > 1000);
        assert!(along_1841_game("1841_game_end_bank") > 1000);
    }

    #[test]
    fn apply_answers_are_prost_bytes_for_autobahn_and_odd_shapes() {
        let mut s = Autobahn::setup(&ab::Options::default(), 3, 5).unwrap();
        for i in 0..60 {
            let Some(&seat) = Autobahn::to_act(&s).first() else {
                break;
            };
            let legal = Autobahn::legal_actions(&s, seat);
            let a = legal[i * 7 % legal.len()].clone();
            let gs = encode_state::<WireAutobahn>(&s, s.action_count);
            let req = v1::ApplyRequest {
                state: Some(gs.clone()),
                seat,
                action: Some(WireAutobahn::action_to_pb(&a)),
                ..Default::default()
            };
            same_bytes(&games::apply::<WireAutobahn>(&gs, &req).unwrap().response);
            Autobahn::apply(&mut s, seat, &a).unwrap();
        }
        same_bytes(&v1::ApplyResponse::default());
        let empty = |state| v1::ApplyResponse {
            result: Some(v1::apply_response::Result::Accepted(v1::Accepted {
                state,
                ..Default::default()
            })),
        };
        same_bytes(&empty(None));
        same_bytes(&empty(Some(v1::GameState::default())));
        same_bytes(&empty(Some(v1::GameState {
            state: Some(v1::game_state::State::G1841(Default::default())),
            ..Default::default()
        })));
        // A big state: lengths of two and three bytes.
        let big = v1::GameState {
            game: "x".repeat(70_000),
            state: Some(v1::game_state::State::G1841(crate::pb::g1841::State {
                phase: "y".repeat(200),
                next_market_arrival: u64::MAX,
                corporations: vec![Default::default(); 3],
                round: Some(crate::pb::g1841::state::Round::ConcessionRound(
                    Default::default(),
                )),
                operations: Some(Default::default()),
                game_end: Some(Default::default()),
                ..Default::default()
            })),
            ..Default::default()
        };
        same_bytes(&empty(Some(big)));
        same_bytes(&v1::ApplyResponse {
            result: Some(v1::apply_response::Result::Rejected(v1::Rejected {
                rejection: Some(v1::Rejection {
                    code: 3,
                    message: "no".into(),
                    rule: "§1".into(),
                }),
            })),
        });
    }
}
