//! Fuzz target `decode_state`: see [`referee_fuzz::fuzz_decode`] and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| referee_fuzz::fuzz_decode(data));
