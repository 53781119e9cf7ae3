//! Sealed states: with a key configured, the server hands out game states encrypted and
//! authenticated with XChaCha20-Poly1305 (an AEAD), so callers can neither read hidden
//! information (deck order, sealed bids) nor alter anything, and accepts only states it sealed.
//!
//! Keys: one per line, `KEY_ID:HEX` (64 hex digits = 32 bytes), `#` starts a comment. The
//! first key seals; every listed key opens, so a key can be rotated by putting the new key
//! first and keeping the old one listed until no state sealed with it is in use.
//!
//! Token layout (all of it authenticated): `b"RSS1"`, key-id length (1 byte), key id (UTF-8),
//! nonce (24 bytes), ciphertext of the protobuf-encoded `GameState` plus the 16-byte tag.

use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use prost::Message;
use tonic::Status;

use crate::pb::v1 as pb;

const MAGIC: &[u8; 4] = b"RSS1";
const NONCE_LEN: usize = 24;

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
    pub fn is_key(&self, entry: &str) -> bool {
        let Some((id, hex_key)) = entry.trim().split_once(':') else {
            return false;
        };
        let Ok(bytes) = hex::decode(hex_key.trim()) else {
            return false;
        };
        self.raw.iter().any(|(k, raw)| {
            k == id.trim()
                && raw.len() == bytes.len()
                && raw
                    .iter()
                    .zip(&bytes)
                    .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                    == 0
        })
    }

    /// Id of the key that seals new states.
    pub fn active_key_id(&self) -> &str {
        &self.keys[0].0
    }

    /// Seals a state with the active key.
    pub fn seal(&self, state: &pb::GameState) -> Result<Vec<u8>, Status> {
        let (id, cipher) = &self.keys[0];
        let mut header = Vec::with_capacity(5 + id.len());
        header.extend_from_slice(MAGIC);
        header.push(id.len() as u8);
        header.extend_from_slice(id.as_bytes());
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let ciphertext = cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: &state.encode_to_vec(),
                    aad: &header,
                },
            )
            .map_err(|_| Status::internal("could not seal the state"))?;
        let mut out = header;
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&ciphertext);
        Ok(out)
    }

    /// Opens a sealed state. Errors: `INVALID_ARGUMENT` for a truncated, tampered or foreign
    /// token (one message for all, so nothing is learned from the difference), naming the key id
    /// only when it is simply not one of this server's keys.
    pub fn open(&self, token: &[u8]) -> Result<pb::GameState, Status> {
        let bad = || {
            Status::invalid_argument(
                "sealed_state: cannot be opened: truncated, altered, or not sealed by this server",
            )
        };
        let rest = token.strip_prefix(MAGIC.as_slice()).ok_or_else(bad)?;
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
        pb::GameState::decode(plain.as_slice()).map_err(|_| bad())
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
