//! Fuzzing on the stable toolchain, in the normal test suite (docs/FUZZING.md). This is the
//! default run's fuzz suite (`./scripts/test-all.sh`); real cargo-fuzz campaigns run with
//! `./scripts/test-all.sh --long` (`scripts/fuzz.sh`).
//!
//! * every crash input the fuzzers found (`tests/fuzz-regressions/TARGET/*`) is replayed
//!   through the target's body: each one is a regression test of its fix;
//! * each target's seed corpus (the one `scripts/fuzz.sh` hands to libFuzzer: golden states,
//!   recorded 18xx.games games, `fuzz/seeds/TARGET/*`) passes that target;
//! * `REFEREE_FUZZ_INPUTS` (default 100) seeded pseudo-random inputs per target, half of them
//!   mutations of a seed, so the target bodies are exercised (and cannot rot) without a nightly
//!   toolchain. The test command runs 1500 (suite "rust: tests").

use std::path::{Path, PathBuf};

use referee_tests::Rng;
use referee_tests::fuzzing::{fuzz_apply, fuzz_decode, fuzz_import};

fn dir(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn files(rel: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir(rel))
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| {
        p.is_file()
            && !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
    });
    out.sort();
    out
}

#[test]
fn crash_inputs_found_by_the_fuzzers_stay_fixed() {
    let mut n = 0;
    for (target, body) in targets() {
        for f in files(&format!("fuzz-regressions/{target}")) {
            let data = std::fs::read(&f).expect("regression input");
            eprintln!("{target}: {}", f.display());
            body(&data);
            n += 1;
        }
    }
    eprintln!("{n} regression inputs replayed");
}

/// The seed corpus of `target`, as `scripts/fuzz.sh` assembles it for libFuzzer.
fn seeds(target: &str) -> Vec<PathBuf> {
    let mut out = match target {
        "decode_state" | "apply_actions" => files("golden")
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "pb"))
            .collect(),
        "import_18xx" => files("fixtures/1841")
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        _ => Vec::new(),
    };
    out.extend(files(&format!("../fuzz/seeds/{target}")));
    out
}

/// A fuzz target: its name and its body.
type Target = (&'static str, fn(&[u8]));

fn targets() -> [Target; 4] {
    [
        ("decode_state", fuzz_decode as fn(&[u8])),
        ("apply_actions", fuzz_apply),
        ("import_18xx", fuzz_import),
        ("validated_states", fuzz_validated),
    ]
}

fn fuzz_validated(data: &[u8]) {
    referee_tests::validated::fuzz_validated(data);
}

#[test]
fn the_seed_corpus_passes_every_target() {
    assert!(
        seeds("decode_state").len() >= 20,
        "the golden corpus is missing"
    );
    assert!(
        seeds("import_18xx").len() >= 2,
        "the recorded games are missing"
    );
    let mut n = 0;
    for (target, body) in targets() {
        for f in seeds(target) {
            body(&std::fs::read(&f).expect("seed file"));
            n += 1;
        }
    }
    eprintln!("{n} seed inputs replayed");
}

/// Inputs per target: `REFEREE_FUZZ_INPUTS`, default 100.
fn inputs_per_target() -> usize {
    std::env::var("REFEREE_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
}

#[test]
fn seeded_random_inputs_pass_every_target() {
    let n = inputs_per_target();
    let mut rng = Rng(0x5EED_F022);
    for (target, body) in targets() {
        let corpus: Vec<Vec<u8>> = seeds(target)
            .iter()
            .filter_map(|f| std::fs::read(f).ok())
            .filter(|d| !d.is_empty())
            .collect();
        // A recorded game imports to its end (about a second in a debug build): mutate it
        // less often than the cheap targets' seeds.
        let mutate_every = if target == "import_18xx" { 10 } else { 2 };
        for i in 0..n {
            let data = if i % mutate_every == 0 && !corpus.is_empty() {
                // A seed with a few bytes changed, or cut short.
                let mut data = corpus[rng.below(corpus.len())].clone();
                for _ in 0..1 + rng.below(4) {
                    let at = rng.below(data.len());
                    data[at] = rng.next_u64() as u8;
                }
                if rng.below(4) == 0 {
                    data.truncate(1 + rng.below(data.len()));
                }
                data
            } else {
                let len = 1 + rng.below(400);
                rng.bytes(len)
            };
            body(&data);
        }
        eprintln!("{target}: {n} generated inputs");
    }
}
