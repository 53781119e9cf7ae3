//! Fuzzing on the stable toolchain, in the normal test suite (docs/FUZZING.md):
//!
//! * every crash input the fuzzers found (`tests/fuzz-regressions/TARGET/*`) is replayed
//!   through the target's body: each one is a regression test of its fix;
//! * the seed corpus (golden states, recorded 18xx.games games) passes every target;
//! * a few hundred seeded pseudo-random inputs per target, so the target bodies are exercised
//!   (and cannot rot) without a nightly toolchain.

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
    for (target, body) in [
        ("decode_state", fuzz_decode as fn(&[u8])),
        ("apply_actions", fuzz_apply),
        ("import_18xx", fuzz_import),
        ("validated_states", |d| {
            referee_tests::validated::fuzz_validated(d);
        }),
    ] {
        for f in files(&format!("fuzz-regressions/{target}")) {
            let data = std::fs::read(&f).expect("regression input");
            eprintln!("{target}: {}", f.display());
            body(&data);
            n += 1;
        }
    }
    eprintln!("{n} regression inputs replayed");
}

#[test]
fn the_seed_corpus_passes_every_target() {
    let golden = files("golden");
    assert!(golden.len() >= 20);
    for f in golden
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "pb"))
    {
        fuzz_decode(&std::fs::read(f).expect("golden file"));
    }
    // A recorded game, imported to its end (the import target's seed).
    let fixture = files("fixtures/1841");
    let first = fixture
        .iter()
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a recorded game");
    fuzz_import(&std::fs::read(first).expect("fixture"));
}

#[test]
fn seeded_random_inputs_pass_every_target() {
    let mut rng = Rng(0x5EED_F022);
    for i in 0..300 {
        let len = 1 + (rng.next_u64() % 400) as usize;
        let data = rng.bytes(len);
        fuzz_apply(&data);
        fuzz_decode(&data);
        if i % 10 == 0 {
            fuzz_import(&data);
        }
    }
    // Mutated golden states: a few bytes changed each.
    for f in files("golden") {
        let Ok(orig) = std::fs::read(&f) else {
            continue;
        };
        if orig.is_empty() || f.extension().is_none_or(|x| x != "pb") {
            continue;
        }
        for _ in 0..5 {
            let mut data = orig.clone();
            for _ in 0..1 + rng.next_u64() % 4 {
                let at = (rng.next_u64() as usize) % data.len();
                data[at] = rng.next_u64() as u8;
            }
            fuzz_decode(&data);
        }
    }
}
