//! Fuzz target `apply_actions`: see [`referee_tests::fuzzing::fuzz_apply`] and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| referee_tests::fuzzing::fuzz_apply(data));
