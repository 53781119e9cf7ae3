//! Fuzz target `import_18xx`: see [`referee_tests::fuzzing::fuzz_import`] and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| referee_tests::fuzzing::fuzz_import(data));
