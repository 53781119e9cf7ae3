//! Sealed states: with a key configured, the server hands out game states encrypted and
//! authenticated with XChaCha20-Poly1305 (an AEAD), so callers can neither read hidden
//! information (deck order, sealed bids) nor alter anything, and accepts only states it sealed.
//!
//! Keys: one per line, `KEY_ID:HEX` (64 hex digits = 32 bytes), `#` starts a comment. The
//! first key seals; every listed key opens, so a key can be rotated by putting the new key
//! first and keeping the old one listed until no state sealed with it is in use.
//!
//! Token layout (all of it authenticated): `b"RSS2"`, key-id length (1 byte), key id (UTF-8),
//! nonce (24 bytes), ciphertext plus the 16-byte tag. The plaintext is the game id (16 random
//! bytes, fixed for the whole game: seat credentials are bound to it), the length of the
//! protobuf-encoded `GameState` (4 bytes, little-endian), that encoding, and zeros up to a fixed
//! size per game ([`padded_len`], from the secret-free bound [`public_len`]), so a token's
//! length says nothing about the secrets in it.
//! Tokens of the first layout (`b"RSS1"`: the ciphertext of the bare `GameState`, no game id,
//! no padding) still open.
//!
//! Credentials (issue #24, docs/SECURITY.md "Seat access"): `arbiter:KEY_ID:HEX` with HEX the
//! HMAC-SHA256 of [`ARBITER_LABEL`] under sealing key KEY_ID, and `seat-S:KEY_ID:HEX` with HEX
//! the HMAC-SHA256 of [`SEAT_LABEL`], the game id and the seat (4 bytes, big-endian).

use chacha20poly1305::aead::rand_core::RngCore;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use prost::Message;
use sha2::Sha256;
use tonic::Status;

use crate::pb::v1 as pb;

const MAGIC_V1: &[u8; 4] = b"RSS1";
const MAGIC: &[u8; 4] = b"RSS2";
const NONCE_LEN: usize = 24;

/// Length of a game id.
pub const GAME_ID_LEN: usize = 16;

/// A game's random id, kept in its sealed tokens (seat credentials are bound to it).
pub type GameId = [u8; GAME_ID_LEN];

/// What the arbiter credential authenticates (HMAC-SHA256 under a sealing key).
pub const ARBITER_LABEL: &[u8] = b"referee arbiter credential v1";
/// What a seat credential authenticates, followed by the game id and the seat.
pub const SEAT_LABEL: &[u8] = b"referee seat credential v1";

/// The size a sealed plaintext is padded to, per game: 1841 states measured up to 3.7 KB in
/// random games (3 to 8 players), Autobahn states up to 7.5 KB (1 to 4 players); a larger
/// state takes the next multiple.
pub fn pad_block(game: &str) -> usize {
    match game {
        "1841" => 8 * 1024,
        _ => 12 * 1024,
    }
}

/// The plaintext length of a sealed state whose encoding is at most `len` bytes: game id,
/// length and encoding, rounded up to a multiple of [`pad_block`]. [`Sealer::seal_game`] gives
/// it [`public_len`], never the state's own encoded length.
pub fn padded_len(game: &str, len: usize) -> usize {
    let block = pad_block(game);
    (GAME_ID_LEN + 4 + len).div_ceil(block) * block
}

/// The encoded length of `state` with every secret whose encoded width varies set to its
/// widest value: an upper bound of the state's own encoded length (a varint's width only
/// grows with its value, and so do the length prefixes of the messages around it) that
/// depends on public information only, the length a sealed state is padded from (review of
/// issue #24, finding I: a state whose encoding sat a few bytes under a multiple of
/// [`pad_block`] — an Autobahn custom board's whitespace aligns it to the byte — gave a token
/// one step longer when its secret seed's varint was 10 bytes instead of 9).
///
/// The secrets (what the spectator view hides, docs/SECURITY.md) and their width:
/// - Autobahn: the RNG seed and word position (varints of 1 to 10 bytes): set to `u64::MAX`,
///   and the RNG present. The hidden piles (display deck, delivery tiles, tiles in the box,
///   advanced cards, the Autobot's piles) are orders of public contents, and the split of the
///   Autobot's task pile and reserve moves cards between two lists of one message whose
///   sizes are public: their encoded length does not depend on the secret.
/// - 1841 Version 1: the sealed bids' amounts (`int64`, 1 to 10 bytes each): set to -1,
///   the widest `int64` varint. Which seats have submitted, and so how many amounts there
///   are (one per concession), is public (`SealedBidSubmitted`).
pub fn public_len(state: &pb::GameState) -> usize {
    use crate::pb::{autobahn, g1841};
    let mut widest = state.clone();
    match &mut widest.state {
        Some(pb::game_state::State::Autobahn(s)) => {
            s.rng = Some(autobahn::Rng {
                seed: u64::MAX,
                word_pos: u64::MAX,
            });
        }
        Some(pb::game_state::State::G1841(s)) => {
            if let Some(g1841::state::Round::ConcessionRound(r)) = &mut s.round {
                for bid in &mut r.sealed_bids {
                    bid.amounts.iter_mut().for_each(|a| *a = -1);
                }
            }
        }
        None => {}
    }
    widest.encoded_len()
}

/// A fresh random game id (OS randomness).
pub fn new_game_id() -> GameId {
    let mut id = [0u8; GAME_ID_LEN];
    OsRng.fill_bytes(&mut id);
    id
}

/// A seed from OS randomness (sealed games whose caller gives none).
pub fn random_seed() -> u64 {
    OsRng.next_u64()
}

/// Decodes an opened token's state, its decoded size estimated first (within the default
/// `--max-decoded-bytes`, [`crate::decoded_size`]): a token is the server's own work, so
/// this only keeps the bound of every decode true should a key ever leak.
fn decode_state(encoded: &[u8]) -> Result<pb::GameState, ()> {
    crate::decoded_size::protobuf(
        "referee.v1.GameState",
        encoded,
        crate::decoded_size::DEFAULT_MAX_DECODED_BYTES,
    )
    .map_err(drop)?;
    pb::GameState::decode(encoded).map_err(drop)
}

/// An opened token: the state and its game id (`None` for a token of the first layout).
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    /// The state.
    pub state: pb::GameState,
    /// The game id.
    pub game_id: Option<GameId>,
}

/// Who a credential says the caller is (before a seat credential is checked against a game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// The arbiter (verified).
    Arbiter,
    /// A seat credential, verified against a game by [`Sealer::seat_credential_valid`].
    Seat {
        /// The seat it names.
        seat: u32,
        /// The key id it names.
        key_id: String,
        /// Its MAC.
        mac: Vec<u8>,
    },
}

/// The one answer to every credential that is not accepted — malformed, naming a key id
/// this server does not have, a wrong MAC, another game's seat credential — so that the
/// answer does not tell a caller whether a key id exists (review of issue #24, finding D:
/// an unknown key id was "not a valid credential of this server", a known one with a wrong
/// MAC "not a credential of this game").
pub(crate) fn unauthenticated() -> Status {
    Status::unauthenticated(
        "referee-credential: not a valid credential for this call (expected \
         `arbiter:KEY_ID:HEX`, or this game's `seat-N:KEY_ID:HEX`)",
    )
}

/// The key a MAC is checked with when the credential names a key id this server does not
/// have: the check is made all the same (and fails), so that it takes the time a check with
/// a real key takes.
const DECOY_KEY: [u8; 32] = [0x5a; 32];

#[cfg(test)]
thread_local! {
    /// HMACs computed on this thread (tests count the work of a credential check).
    static MACS_COMPUTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn mac(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    #[cfg(test)]
    MACS_COMPUTED.with(|n| n.set(n.get() + 1));
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    for p in parts {
        m.update(p);
    }
    m.finalize().into_bytes().to_vec()
}

fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The keys of a server in sealed mode.
pub struct Sealer {
    keys: Vec<(String, XChaCha20Poly1305)>,
    /// The raw keys by id, only to recognise an arbiter presenting one ([`Sealer::is_key`]).
    raw: Vec<(String, Vec<u8>)>,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<_> = self.keys.iter().map(|(id, _)| id.as_str()).collect();
        f.debug_struct("Sealer").field("key_ids", &ids).finish()
    }
}

impl Sealer {
    /// Parses keys (`KEY_ID:HEX` per line or comma-separated). Errors name the bad entry
    /// without echoing key material.
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let mut keys = Vec::new();
        let mut raw = Vec::new();
        for (i, entry) in text
            .split(['\n', ','])
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .enumerate()
            .filter(|(_, l)| !l.is_empty())
        {
            let (id, hex_key) = entry
                .split_once(':')
                .ok_or_else(|| anyhow::anyhow!("seal key entry {}: expected KEY_ID:HEX", i + 1))?;
            let id = id.trim();
            if id.is_empty()
                || id.len() > 64
                || !id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            {
                anyhow::bail!(
                    "seal key entry {}: key id must be 1-64 characters [A-Za-z0-9._-]",
                    i + 1
                );
            }
            let bytes = hex::decode(hex_key.trim())
                .map_err(|_| anyhow::anyhow!("seal key `{id}`: not hexadecimal"))?;
            if bytes.len() != 32 {
                anyhow::bail!(
                    "seal key `{id}`: must be 32 bytes (64 hex digits), got {}",
                    bytes.len()
                );
            }
            if keys.iter().any(|(k, _): &(String, _)| k == id) {
                anyhow::bail!("seal key `{id}` is listed twice");
            }
            let cipher = XChaCha20Poly1305::new_from_slice(&bytes)
                .map_err(|_| anyhow::anyhow!("seal key `{id}`: invalid length"))?;
            keys.push((id.to_string(), cipher));
            raw.push((id.to_string(), bytes));
        }
        if keys.is_empty() {
            anyhow::bail!("no seal key given");
        }
        Ok(Self { keys, raw })
    }

    /// Whether `entry` (`KEY_ID:HEX`, as in the key file) is one of these keys. The key bytes
    /// are compared in constant time.
    /// Every key is compared, whether or not its id matches, so that the time taken does not
    /// tell whether a key id exists.
    pub fn is_key(&self, entry: &str) -> bool {
        let Some((id, hex_key)) = entry.trim().split_once(':') else {
            return false;
        };
        let Ok(bytes) = hex::decode(hex_key.trim()) else {
            return false;
        };
        self.raw.iter().fold(false, |found, (k, raw)| {
            let id_eq = ct_eq(k.as_bytes(), id.trim().as_bytes());
            let key_eq = ct_eq(raw, &bytes);
            found | (id_eq & key_eq)
        })
    }

    /// The raw key named `id`, and whether there is one: for an id this server does not have,
    /// [`DECOY_KEY`] and `false`. Every id is compared (no early exit).
    fn key_named(&self, id: &str) -> (&[u8], bool) {
        self.raw
            .iter()
            .fold((&DECOY_KEY[..], false), |(key, found), (k, raw)| {
                if !found & ct_eq(k.as_bytes(), id.as_bytes()) {
                    (raw.as_slice(), true)
                } else {
                    (key, found)
                }
            })
    }

    /// Id of the key that seals new states.
    pub fn active_key_id(&self) -> &str {
        &self.keys[0].0
    }

    /// Seals a state with the active key under a fresh game id (a new game).
    pub fn seal(&self, state: &pb::GameState) -> Result<Vec<u8>, Status> {
        self.seal_game(state, &new_game_id())
    }

    /// Seals a state of game `game_id` with the active key, padded to [`padded_len`].
    pub fn seal_game(&self, state: &pb::GameState, game_id: &GameId) -> Result<Vec<u8>, Status> {
        let (id, cipher) = &self.keys[0];
        let mut header = Vec::with_capacity(5 + id.len());
        header.extend_from_slice(MAGIC);
        header.push(id.len() as u8);
        header.extend_from_slice(id.as_bytes());
        let len = state.encoded_len();
        let len32 =
            u32::try_from(len).map_err(|_| Status::internal("state too large to be sealed"))?;
        // From the secret-free bound, not from `len` (finding I); `max` only keeps the
        // plaintext whole should the bound ever miss a field.
        let padded = padded_len(&state.game, public_len(state).max(len));
        let mut plain = Vec::with_capacity(padded);
        plain.extend_from_slice(game_id);
        plain.extend_from_slice(&len32.to_le_bytes());
        state
            .encode(&mut plain)
            .map_err(|_| Status::internal("could not encode the state"))?;
        plain.resize(padded, 0);
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let ciphertext = cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: &plain,
                    aad: &header,
                },
            )
            .map_err(|_| Status::internal("could not seal the state"))?;
        let mut out = header;
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&ciphertext);
        Ok(out)
    }

    /// Opens a sealed state (the state only; [`Sealer::open_game`] also gives its game id).
    pub fn open(&self, token: &[u8]) -> Result<pb::GameState, Status> {
        self.open_game(token).map(|o| o.state)
    }

    /// Opens a sealed state of either layout. Errors: `INVALID_ARGUMENT` for a truncated,
    /// tampered or foreign token (one message for all, so nothing is learned from the
    /// difference), naming the key id only when it is simply not one of this server's keys.
    pub fn open_game(&self, token: &[u8]) -> Result<Opened, Status> {
        let bad = || {
            Status::invalid_argument(
                "sealed_state: cannot be opened: truncated, altered, or not sealed by this server",
            )
        };
        let (v1, rest) = if let Some(rest) = token.strip_prefix(MAGIC.as_slice()) {
            (false, rest)
        } else {
            (
                true,
                token.strip_prefix(MAGIC_V1.as_slice()).ok_or_else(bad)?,
            )
        };
        let (&id_len, rest) = rest.split_first().ok_or_else(bad)?;
        let id_len = usize::from(id_len);
        if rest.len() < id_len + NONCE_LEN {
            return Err(bad());
        }
        let (id, rest) = rest.split_at(id_len);
        let (nonce, ciphertext) = rest.split_at(NONCE_LEN);
        let header = &token[..5 + id_len];
        let id = std::str::from_utf8(id).map_err(|_| bad())?;
        let Some((_, cipher)) = self.keys.iter().find(|(k, _)| k == id) else {
            return Err(Status::invalid_argument(format!(
                "sealed_state: sealed with key `{id}`, which this server does not have"
            )));
        };
        let plain = cipher
            .decrypt(
                XNonce::from_slice(nonce),
                Payload {
                    msg: ciphertext,
                    aad: header,
                },
            )
            .map_err(|_| bad())?;
        if v1 {
            let state = decode_state(plain.as_slice()).map_err(|_| bad())?;
            return Ok(Opened {
                state,
                game_id: None,
            });
        }
        let (game_id, rest) = plain.split_at_checked(GAME_ID_LEN).ok_or_else(bad)?;
        let (len, rest) = rest.split_at_checked(4).ok_or_else(bad)?;
        let len = u32::from_le_bytes(len.try_into().map_err(|_| bad())?) as usize;
        let encoded = rest.get(..len).ok_or_else(bad)?;
        let state = decode_state(encoded).map_err(|_| bad())?;
        Ok(Opened {
            state,
            game_id: Some(game_id.try_into().map_err(|_| bad())?),
        })
    }

    /// The arbiter credential of the active key: `arbiter:KEY_ID:HEX`.
    pub fn arbiter_credential(&self) -> String {
        let (id, key) = &self.raw[0];
        format!("arbiter:{id}:{}", hex::encode(mac(key, &[ARBITER_LABEL])))
    }

    /// The credential of `seat` in game `game_id`, with the active key: `seat-S:KEY_ID:HEX`.
    pub fn seat_credential(&self, game_id: &GameId, seat: u32) -> String {
        let (id, key) = &self.raw[0];
        let m = mac(key, &[SEAT_LABEL, game_id, &seat.to_be_bytes()]);
        format!("seat-{seat}:{id}:{}", hex::encode(m))
    }

    /// Reads a caller's credential (header `referee-credential`): the arbiter credential or a
    /// sealing key (`KEY_ID:HEX`) is [`Credential::Arbiter`]; a well-formed seat credential is
    /// returned for checking against the game ([`Sealer::seat_credential_valid`]), whatever
    /// key id it names. Errors: UNAUTHENTICATED, one answer for all ([`unauthenticated`]):
    /// malformed (also a MAC that is not 32 bytes of hex), an arbiter credential naming a key
    /// id this server does not have or with a wrong MAC. An unknown key id is checked as a
    /// known one is (one HMAC, against [`DECOY_KEY`]), so neither the answer nor, as far as
    /// practical, its time tells whether the key id exists.
    pub fn credential(&self, text: &str) -> Result<Credential, Status> {
        let text = text.trim();
        let parts: Vec<&str> = text.split(':').collect();
        match parts.as_slice() {
            [_, _] if self.is_key(text) => Ok(Credential::Arbiter),
            [kind, id, hex_mac] => {
                let given = hex::decode(hex_mac).map_err(|_| unauthenticated())?;
                // An HMAC-SHA256: 32 bytes. Anything else is malformed, also where it cannot
                // be checked against a game (the calls that start one).
                if given.len() != 32 {
                    return Err(unauthenticated());
                }
                if *kind == "arbiter" {
                    let (key, known) = self.key_named(id);
                    let mac_ok = ct_eq(&mac(key, &[ARBITER_LABEL]), &given);
                    return if known & mac_ok {
                        Ok(Credential::Arbiter)
                    } else {
                        Err(unauthenticated())
                    };
                }
                let seat = kind
                    .strip_prefix("seat-")
                    .and_then(|s| s.parse::<u32>().ok())
                    .ok_or_else(unauthenticated)?;
                Ok(Credential::Seat {
                    seat,
                    key_id: id.to_string(),
                    mac: given,
                })
            }
            _ => Err(unauthenticated()),
        }
    }

    /// Whether a seat credential (from [`Sealer::credential`]) belongs to game `game_id`.
    /// Compared in constant time; a key id this server does not have is checked against
    /// [`DECOY_KEY`] (one HMAC either way) and fails.
    pub fn seat_credential_valid(&self, cred: &Credential, game_id: &GameId) -> bool {
        let Credential::Seat {
            seat,
            key_id,
            mac: given,
        } = cred
        else {
            return false;
        };
        let (key, known) = self.key_named(key_id);
        let mac_ok = ct_eq(
            &mac(key, &[SEAT_LABEL, game_id, &seat.to_be_bytes()]),
            given,
        );
        known & mac_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const K1: &str = "k1:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const K2: &str = "k2:1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";

    fn state() -> pb::GameState {
        pb::GameState {
            game: "1841".into(),
            rules_version: "x".into(),
            schema_version: 1,
            action_count: 7,
            state: None,
        }
    }

    #[test]
    fn seal_then_open_round_trips_and_rotation_keeps_old_keys_readable() {
        let old = Sealer::parse(K1).unwrap();
        let token = old.seal(&state()).unwrap();
        assert_eq!(old.open(&token).unwrap(), state());
        let rotated = Sealer::parse(&format!("{K2}\n{K1}")).unwrap();
        assert_eq!(rotated.active_key_id(), "k2");
        assert_eq!(rotated.open(&token).unwrap(), state());
        let only_new = Sealer::parse(K2).unwrap();
        let err = only_new.open(&token).unwrap_err();
        assert_eq!(err.code(), tonic::Code::InvalidArgument);
        assert!(err.message().contains("`k1`"), "{}", err.message());
    }

    #[test]
    fn every_flipped_bit_and_every_truncation_is_refused() {
        let s = Sealer::parse(K1).unwrap();
        let token = s.seal(&state()).unwrap();
        for i in 0..token.len() {
            let mut t = token.clone();
            t[i] ^= 0x01;
            assert!(s.open(&t).is_err(), "bit flip at byte {i} accepted");
        }
        for len in 0..token.len() {
            assert!(
                s.open(&token[..len]).is_err(),
                "truncation to {len} accepted"
            );
        }
    }

    #[test]
    fn tokens_of_the_first_layout_still_open_without_a_game_id() {
        let s = Sealer::parse(K1).unwrap();
        // An `RSS1` token as the first sealed mode wrote it: the bare state, unpadded.
        let mut header = b"RSS1".to_vec();
        header.push(2);
        header.extend_from_slice(b"k1");
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let ct = s.keys[0]
            .1
            .encrypt(
                &nonce,
                Payload {
                    msg: &state().encode_to_vec(),
                    aad: &header,
                },
            )
            .unwrap();
        let token = [header, nonce.to_vec(), ct].concat();
        let opened = s.open_game(&token).unwrap();
        assert_eq!(opened.state, state());
        assert_eq!(opened.game_id, None);
    }

    #[test]
    fn tokens_are_padded_and_keep_their_game_id() {
        let s = Sealer::parse(K1).unwrap();
        let id = [7u8; GAME_ID_LEN];
        let token = s.seal_game(&state(), &id).unwrap();
        // magic, key-id length, key id, nonce, 8 KiB of plaintext (1841), tag.
        assert_eq!(token.len(), 4 + 1 + 2 + 24 + 8192 + 16);
        let opened = s.open_game(&token).unwrap();
        assert_eq!((opened.state, opened.game_id), (state(), Some(id)));
    }

    /// A state built by `make(n)` (`n` bytes of caller text in it) whose plaintext with
    /// `narrow` fills a whole number of pad blocks exactly, so that one byte more of a secret
    /// would cross a step: `n` is searched for.
    fn at_a_step(make: impl Fn(usize) -> pb::GameState) -> usize {
        (1000..13_000)
            .find(|&n| {
                let s = make(n);
                let block = pad_block(&s.game);
                (GAME_ID_LEN + 4 + s.encoded_len()).is_multiple_of(block)
            })
            .expect("a text length that puts the state on a step")
    }

    /// Review of issue #24, finding I: an Autobahn state whose custom board's whitespace puts
    /// it on a pad step, sealed with a secret seed whose varint is 9 bytes (top bit clear) and
    /// one of 10 bytes (top bit set): tokens of one length (before the fix, the second was
    /// 12 KiB longer).
    #[test]
    fn token_length_at_a_padding_step_does_not_depend_on_the_secret_seed() {
        use crate::pb::autobahn;
        let make = |board: usize, seed: u64| pb::GameState {
            game: "autobahn".into(),
            rules_version: "x".into(),
            schema_version: 1,
            action_count: 0,
            state: Some(pb::game_state::State::Autobahn(autobahn::State {
                options: Some(autobahn::Options {
                    board_json: format!("{{}}{}", " ".repeat(board)),
                    ..Default::default()
                }),
                rng: Some(autobahn::Rng { seed, word_pos: 3 }),
                ..Default::default()
            })),
        };
        let (narrow, wide) = (1u64 << 60, 1u64 << 63);
        let board = at_a_step(|n| make(n, narrow));
        let (a, b) = (make(board, narrow), make(board, wide));
        assert_eq!(b.encoded_len(), a.encoded_len() + 1);
        assert!((GAME_ID_LEN + 4 + a.encoded_len()).is_multiple_of(12 * 1024));
        let s = Sealer::parse(K1).unwrap();
        let id = [7u8; GAME_ID_LEN];
        let (ta, tb) = (s.seal_game(&a, &id).unwrap(), s.seal_game(&b, &id).unwrap());
        assert_eq!(ta.len(), tb.len());
        assert_eq!(ta.len(), 4 + 1 + 2 + 24 + 2 * 12 * 1024 + 16);
        assert_eq!(s.open_game(&ta).unwrap().state, a);
        assert_eq!(s.open_game(&tb).unwrap().state, b);
    }

    /// The same for 1841 Version 1 sealed bids: amounts of 127 and 128 (varints of one and
    /// two bytes) in a state on a step give tokens of one length.
    #[test]
    fn token_length_at_a_padding_step_does_not_depend_on_the_sealed_bids() {
        use crate::pb::g1841;
        let make = |text: usize, amount: i64| pb::GameState {
            game: "1841".into(),
            rules_version: "x".into(),
            schema_version: 1,
            action_count: 0,
            state: Some(pb::game_state::State::G1841(g1841::State {
                round: Some(g1841::state::Round::ConcessionRound(
                    g1841::ConcessionRound {
                        remaining: vec!["x".repeat(text), "SFTG".into()],
                        sealed_bids: vec![g1841::SealedBid {
                            seat: 1,
                            submitted: true,
                            amounts: vec![0, amount],
                        }],
                        ..Default::default()
                    },
                )),
                ..Default::default()
            })),
        };
        let text = at_a_step(|n| make(n, 127));
        let (a, b) = (make(text, 127), make(text, 128));
        assert_eq!(b.encoded_len(), a.encoded_len() + 1);
        let s = Sealer::parse(K1).unwrap();
        let id = [7u8; GAME_ID_LEN];
        let (ta, tb) = (s.seal_game(&a, &id).unwrap(), s.seal_game(&b, &id).unwrap());
        assert_eq!(ta.len(), tb.len());
        assert_eq!(ta.len(), 4 + 1 + 2 + 24 + 2 * 8 * 1024 + 16);
        assert_eq!(s.open_game(&tb).unwrap().state, b);
    }

    /// Tokens padded by the rule before finding I's fix (from the state's own length) still
    /// open: opening reads the stored length and ignores the padding, whatever its size.
    #[test]
    fn tokens_padded_from_the_state_length_still_open() {
        let s = Sealer::parse(K1).unwrap();
        let id = [7u8; GAME_ID_LEN];
        let st = state();
        for padding in [0, 1, 8192 - GAME_ID_LEN - 4 - st.encoded_len()] {
            let mut header = b"RSS2".to_vec();
            header.push(2);
            header.extend_from_slice(b"k1");
            let mut plain = id.to_vec();
            plain.extend_from_slice(&(st.encoded_len() as u32).to_le_bytes());
            st.encode(&mut plain).unwrap();
            plain.resize(plain.len() + padding, 0);
            let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
            let ct = s.keys[0]
                .1
                .encrypt(
                    &nonce,
                    Payload {
                        msg: &plain,
                        aad: &header,
                    },
                )
                .unwrap();
            let token = [header, nonce.to_vec(), ct].concat();
            let opened = s.open_game(&token).unwrap();
            assert_eq!((opened.state, opened.game_id), (st.clone(), Some(id)));
        }
    }

    #[test]
    fn credentials_verify_only_for_their_seat_game_and_keys() {
        let s = Sealer::parse(K1).unwrap();
        let (g1, g2) = ([1u8; GAME_ID_LEN], [2u8; GAME_ID_LEN]);
        assert_eq!(
            s.credential(&s.arbiter_credential()).unwrap(),
            Credential::Arbiter
        );
        assert_eq!(s.credential(K1).unwrap(), Credential::Arbiter);
        let c = s.credential(&s.seat_credential(&g1, 3)).unwrap();
        assert!(matches!(c, Credential::Seat { seat: 3, .. }));
        assert!(s.seat_credential_valid(&c, &g1));
        assert!(!s.seat_credential_valid(&c, &g2));
        // Another server's credentials are not this one's.
        let other = Sealer::parse(K2).unwrap();
        assert!(s.credential(&other.arbiter_credential()).is_err());
        let forged = s
            .credential(&other.seat_credential(&g1, 3).replace("k2", "k1"))
            .unwrap();
        assert!(!s.seat_credential_valid(&forged, &g1));
        for bad in ["", "arbiter", "arbiter:k1:zz", "seat-x:k1:00", "k1:00"] {
            assert_eq!(
                s.credential(bad).unwrap_err().code(),
                tonic::Code::Unauthenticated
            );
        }
    }

    /// Review of issue #24 (finding D): whether a key id exists is not told by the answer
    /// (code and message alike) nor by the work done (one HMAC either way), for arbiter and
    /// seat credentials.
    #[test]
    fn an_unknown_key_id_is_answered_as_a_wrong_secret() {
        let s = Sealer::parse(&format!("{K1}\n{K2}")).unwrap();
        let game = [1u8; GAME_ID_LEN];
        let macs = || MACS_COMPUTED.with(|n| n.get());
        let wrong_mac = "ab".repeat(32);
        // Arbiter credentials: refused alike, one HMAC each.
        let mut answers = Vec::new();
        for id in ["k1", "k2", "k9", "no-such-key"] {
            let before = macs();
            let err = s
                .credential(&format!("arbiter:{id}:{wrong_mac}"))
                .unwrap_err();
            assert_eq!(macs() - before, 1, "{id}");
            answers.push((err.code(), err.message().to_string()));
        }
        assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
        assert_eq!(answers[0].0, tonic::Code::Unauthenticated);
        // A sealing key presented with a known or an unknown id and the wrong bytes.
        let wrong_key = format!("k1:{wrong_mac}");
        let unknown_key = format!("k9:{wrong_mac}");
        for text in [&wrong_key, &unknown_key] {
            let err = s.credential(text).unwrap_err();
            assert_eq!(
                (err.code(), err.message().to_string()),
                answers[0],
                "{text}"
            );
        }
        // Seat credentials: read alike, then invalid alike, one HMAC each.
        for id in ["k1", "k2", "k9"] {
            let cred = s.credential(&format!("seat-2:{id}:{wrong_mac}")).unwrap();
            let before = macs();
            assert!(!s.seat_credential_valid(&cred, &game), "{id}");
            assert_eq!(macs() - before, 1, "{id}");
        }
        // The real ones still pass.
        let real = s.credential(&s.seat_credential(&game, 2)).unwrap();
        assert!(s.seat_credential_valid(&real, &game));
        assert_eq!(
            s.credential(&s.arbiter_credential()).unwrap(),
            Credential::Arbiter
        );
        assert!(s.is_key(K2) && !s.is_key(&unknown_key) && !s.is_key(&wrong_key));
    }

    #[test]
    fn two_seals_of_one_state_differ() {
        let s = Sealer::parse(K1).unwrap();
        assert_ne!(s.seal(&state()).unwrap(), s.seal(&state()).unwrap());
    }

    #[test]
    fn bad_key_files_are_refused_without_echoing_keys() {
        for (text, needle) in [
            ("", "no seal key"),
            ("k1:abcd", "32 bytes"),
            ("k1:zz", "not hexadecimal"),
            ("nokey", "KEY_ID:HEX"),
            (&format!("{K1}\n{K1}"), "twice"),
        ] {
            let err = Sealer::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
            assert!(!err.contains("0001020304"), "{err}");
        }
    }
}
