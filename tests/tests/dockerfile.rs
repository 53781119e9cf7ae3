//! `deploy/Dockerfile` builds what the release build builds: the same binary (`[[bin]]` of
//! `service/Cargo.toml`), the `release` profile, the crate's default features (none are
//! passed, as `cargo install --path service --locked` in the README does), from the lock file,
//! with a Rust image at least as new as the workspace's `rust-version`, and with every file
//! the build reads copied into the build stage (each workspace member, `proto/` for
//! `service/build.rs`, the data files the engine embeds) and not excluded by `.dockerignore`.
//! The image itself cannot be built here (no container engine): docs/DEPLOY.md.

use std::path::{Path, PathBuf};

use toml_edit::DocumentMut;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    let path = root().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn toml(rel: &str) -> DocumentMut {
    read(rel)
        .parse::<DocumentMut>()
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The Dockerfile's instructions, continuation lines joined, comments dropped.
fn instructions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if current.is_empty() && (trimmed.is_empty() || trimmed.starts_with('#')) {
            continue;
        }
        if let Some(head) = trimmed.strip_suffix('\\') {
            current.push_str(head);
            current.push(' ');
        } else {
            current.push_str(trimmed);
            out.push(std::mem::take(&mut current));
        }
    }
    out
}

/// The release build's binary name: the one `[[bin]]` of the service crate.
fn release_binary() -> String {
    let service = toml("service/Cargo.toml");
    let bins = service["bin"]
        .as_array_of_tables()
        .expect("service/Cargo.toml [[bin]]");
    assert_eq!(bins.len(), 1, "one binary in the service crate");
    bins.get(0)
        .and_then(|b| b.get("name"))
        .and_then(|n| n.as_str())
        .expect("[[bin]] name")
        .to_owned()
}

/// (major, minor, patch) of "1.95.0" or "1.88".
fn version(s: &str) -> (u32, u32, u32) {
    let mut parts = s.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    )
}

#[test]
fn the_image_builds_the_release_binary_with_the_release_profile_and_features() {
    let text = read("deploy/Dockerfile");
    let steps = instructions(&text);
    let bin = release_binary();

    let builds: Vec<&String> = steps
        .iter()
        .filter(|s| s.starts_with("RUN ") && s.contains("cargo build"))
        .collect();
    assert_eq!(builds.len(), 1, "one `cargo build` in deploy/Dockerfile");
    let args: Vec<&str> = builds[0]
        .split("cargo build")
        .nth(1)
        .unwrap_or("")
        .split("&&")
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();

    // Profile: the release profile, as `cargo install` and `cargo run --release` use.
    let profile = if args.contains(&"--release") {
        "release".to_owned()
    } else if let Some(i) = args.iter().position(|a| *a == "--profile") {
        args.get(i + 1).copied().unwrap_or("").to_owned()
    } else {
        "dev".to_owned()
    };
    assert_eq!(
        profile, "release",
        "deploy/Dockerfile: cargo build {args:?}"
    );

    // Binary.
    let at = args
        .iter()
        .position(|a| *a == "--bin")
        .expect("deploy/Dockerfile: cargo build --bin NAME");
    assert_eq!(args.get(at + 1).copied(), Some(bin.as_str()), "--bin");
    assert!(args.contains(&"--locked"), "deploy/Dockerfile: --locked");

    // Features: the service's defaults, exactly what `cargo install --path service` builds.
    let service = toml("service/Cargo.toml");
    let feature_flags: Vec<&&str> = args
        .iter()
        .filter(|a| {
            a.starts_with("--features")
                || a.starts_with("-F")
                || **a == "--all-features"
                || **a == "--no-default-features"
        })
        .collect();
    assert!(
        feature_flags.is_empty(),
        "deploy/Dockerfile passes {feature_flags:?}: the release build (cargo install --path service --locked) uses the default features{}",
        if service.get("features").is_some() {
            " of service/Cargo.toml [features]"
        } else {
            " (service/Cargo.toml has no [features])"
        }
    );
    for other in ["--target ", "RUSTFLAGS", "CARGO_PROFILE_"] {
        assert!(
            !builds[0].contains(other) && !text.contains(&format!("ENV {other}")),
            "deploy/Dockerfile: {other} changes the build away from the release build"
        );
    }

    // The binary that is installed and run is the one built.
    assert!(
        text.contains(&format!("target/{profile}/{bin} ")),
        "deploy/Dockerfile installs target/{profile}/{bin}"
    );
    let entry = steps
        .iter()
        .find(|s| s.starts_with("ENTRYPOINT "))
        .expect("ENTRYPOINT");
    assert!(entry.contains(&format!("/{bin}\"")), "{entry}");
    let health = steps
        .iter()
        .find(|s| s.starts_with("HEALTHCHECK "))
        .expect("HEALTHCHECK");
    assert!(health.contains(&format!("/{bin}\"")), "{health}");

    // The README gives the same build for people without containers.
    let readme = read("README.md");
    assert!(
        readme.contains("cargo install --path service --locked"),
        "README.md: `cargo install --path service --locked` puts `{bin}` on the PATH"
    );
    assert!(readme.contains(&format!("cargo run --release --bin {bin} -- serve")));
}

#[test]
fn the_build_stage_has_every_file_the_build_reads_and_a_new_enough_rust() {
    let text = read("deploy/Dockerfile");
    let steps = instructions(&text);

    // Rust image of the build stage >= rust-version.
    let workspace = toml("Cargo.toml");
    let msrv = workspace["workspace"]["package"]["rust-version"]
        .as_str()
        .expect("rust-version");
    let from = steps
        .iter()
        .find(|s| s.starts_with("FROM rust:"))
        .expect("a `FROM rust:` build stage");
    let tag = from["FROM rust:".len()..]
        .split_whitespace()
        .next()
        .unwrap_or("");
    let image_version = tag.split('-').next().unwrap_or("");
    assert!(
        version(image_version) >= version(msrv),
        "{from}: older than rust-version {msrv}"
    );

    // What the build stage copies (sources of COPY lines without --from).
    let copied: Vec<String> = steps
        .iter()
        .filter(|s| s.starts_with("COPY ") && !s.contains("--from"))
        .flat_map(|s| {
            let parts: Vec<&str> = s.split_whitespace().skip(1).collect();
            parts[..parts.len().saturating_sub(1)]
                .iter()
                .map(|p| p.trim_end_matches('/').to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    let is_copied = |rel: &str| {
        copied
            .iter()
            .any(|c| rel == c || rel.starts_with(&format!("{c}/")))
    };
    let ignored: Vec<String> = read(".dockerignore")
        .lines()
        .map(|l| l.trim().trim_end_matches('/').to_owned())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let is_ignored = |rel: &str| {
        ignored
            .iter()
            .any(|i| rel == i || rel.starts_with(&format!("{i}/")))
    };
    let mut needed: Vec<String> = vec!["Cargo.toml".into(), "Cargo.lock".into(), "proto".into()];
    for member in workspace["workspace"]["members"]
        .as_array()
        .expect("members")
    {
        needed.push(member.as_str().expect("member").to_owned());
    }
    // Files embedded from outside their crate (include_str!/include_bytes!).
    for member in ["engine", "service", "alloc"] {
        for file in rust_files(&root().join(member).join("src")) {
            let source = std::fs::read_to_string(&file).expect("source");
            for (i, _) in source.match_indices("include_") {
                let rest = &source[i..];
                if !(rest.starts_with("include_str!(\"") || rest.starts_with("include_bytes!(\"")) {
                    continue;
                }
                let path = rest.split('"').nth(1).unwrap_or("");
                let target = file.parent().expect("dir").join(path);
                let target = target
                    .canonicalize()
                    .unwrap_or_else(|e| panic!("{}: {path}: {e}", file.display()));
                let rel = target
                    .strip_prefix(root().canonicalize().expect("root"))
                    .expect("inside the repository")
                    .to_string_lossy()
                    .into_owned();
                needed.push(rel);
            }
        }
    }
    for rel in needed {
        assert!(
            is_copied(&rel),
            "deploy/Dockerfile does not COPY {rel} into the build stage"
        );
        assert!(!is_ignored(&rel), ".dockerignore excludes {rel}");
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}
