//! Fuzz target `decode_state`: see [`referee_tests::fuzzing::fuzz_decode`] and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| referee_tests::fuzzing::fuzz_decode(data));
