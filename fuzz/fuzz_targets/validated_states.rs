//! Fuzz target `validated_states`: see [`referee_tests::validated::fuzz_validated`] and
//! docs/FUZZING.md. A state the validator accepts never makes any call panic, and every legal
//! action of it yields a state the validator accepts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee_tests::validated::fuzz_validated(data);
});
