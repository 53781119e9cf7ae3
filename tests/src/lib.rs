//! Cross-crate tests live in `tests/tests/`. The library holds the bodies of the fuzz targets
//! ([`fuzzing`]), shared by `fuzz/` (cargo-fuzz, nightly) and the stable test suite.

pub mod fuzzing;
