//! Fuzz target `apply_actions`: see [`referee_fuzz::fuzz_apply`] and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| referee_fuzz::fuzz_apply(data));
