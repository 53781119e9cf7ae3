//! One licence everywhere: `MIT OR Apache-2.0`. The licence files exist (the clients carry
//! identical copies, because their packages are built from their own folders), and every
//! manifest says the same: the Cargo workspace and each of its crates, the fuzz crate, the
//! Python `pyproject.toml` and the TypeScript `package.json` (not private) with its lock file;
//! a walk of the tree finds every other manifest (the web client, the OpenAPI generator).

use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item};

const LICENCE: &str = "MIT OR Apache-2.0";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn toml(rel: &str) -> DocumentMut {
    read(&root().join(rel))
        .parse::<DocumentMut>()
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn json(rel: &str) -> serde_json::Value {
    serde_json::from_str(&read(&root().join(rel))).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The `license` of a crate's `[package]`: its own value, or the workspace's when it says
/// `license.workspace = true`.
fn crate_licence(rel: &str, workspace: &str) -> String {
    let doc = toml(rel);
    let item = &doc["package"]["license"];
    if let Some(s) = item.as_str() {
        return s.to_owned();
    }
    let inherits = match item {
        Item::Value(v) => v
            .as_inline_table()
            .and_then(|t| t.get("workspace"))
            .and_then(|w| w.as_bool()),
        Item::Table(t) => t.get("workspace").and_then(|w| w.as_bool()),
        _ => None,
    };
    assert_eq!(inherits, Some(true), "{rel}: [package] license missing");
    workspace.to_owned()
}

#[test]
fn licence_files_exist_and_client_copies_are_identical() {
    let mit = read(&root().join("LICENSE-MIT"));
    assert!(
        mit.starts_with("MIT License\n"),
        "LICENSE-MIT: the MIT text"
    );
    assert!(mit.contains("Copyright (c) 2026 The Referee contributors"));
    assert!(mit.contains("THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND"));
    let apache = read(&root().join("LICENSE-APACHE"));
    assert!(
        apache.contains("Apache License\n                           Version 2.0, January 2004")
    );
    assert!(apache.contains("END OF TERMS AND CONDITIONS"));
    assert!(
        apache.lines().count() > 190,
        "LICENSE-APACHE: the full text"
    );
    for client in ["clients/python", "clients/typescript"] {
        for file in ["LICENSE-MIT", "LICENSE-APACHE"] {
            assert_eq!(
                read(&root().join(client).join(file)),
                read(&root().join(file)),
                "{client}/{file} must be a copy of the root {file}"
            );
        }
    }
}

#[test]
fn every_manifest_says_mit_or_apache() {
    let workspace = toml("Cargo.toml");
    let ws_licence = workspace["workspace"]["package"]["license"]
        .as_str()
        .expect("[workspace.package] license");
    assert_eq!(ws_licence, LICENCE, "Cargo.toml [workspace.package]");

    let members = workspace["workspace"]["members"]
        .as_array()
        .expect("[workspace] members");
    assert!(members.len() >= 5, "the workspace's crates");
    for member in members {
        let member = member.as_str().expect("member path");
        let rel = format!("{member}/Cargo.toml");
        assert_eq!(crate_licence(&rel, ws_licence), LICENCE, "{rel}");
    }
    assert_eq!(crate_licence("fuzz/Cargo.toml", ws_licence), LICENCE);

    let py = toml("clients/python/pyproject.toml");
    assert_eq!(
        py["project"]["license"].as_str(),
        Some(LICENCE),
        "clients/python/pyproject.toml [project] license (a PEP 639 expression)"
    );
    let files: Vec<&str> = py["project"]["license-files"]
        .as_array()
        .expect("[project] license-files")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert_eq!(files, ["LICENSE-MIT", "LICENSE-APACHE"]);

    let ts = json("clients/typescript/package.json");
    assert_eq!(
        ts["license"].as_str(),
        Some(LICENCE),
        "package.json license"
    );
    assert_ne!(
        ts["private"].as_bool(),
        Some(true),
        "package.json: the client is a package people install"
    );
    let packed: Vec<&str> = ts["files"]
        .as_array()
        .expect("package.json files")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    for file in ["LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(packed.contains(&file), "package.json files: {file}");
    }
    let lock = json("clients/typescript/package-lock.json");
    assert_eq!(
        lock["packages"][""]["license"].as_str(),
        Some(LICENCE),
        "package-lock.json: the root package's licence (run npm install after changing it)"
    );

    let readme = read(&root().join("README.md"));
    assert!(
        readme.contains("## Licence") && readme.contains(LICENCE),
        "README.md: a Licence section naming {LICENCE}"
    );
}

/// Every manifest in the repository, found by walking it (so a new package cannot be missed):
/// each `package.json` (the web client and the OpenAPI generator too, private or not) and its
/// lock file, each `pyproject.toml` and each crate's `Cargo.toml` name the one licence.
#[test]
fn no_manifest_in_the_tree_names_another_licence() {
    /// Folders of installed or built things, not of the project.
    const SKIP: [&str; 8] = [
        "node_modules",
        "target",
        "dist",
        "build",
        "corpus",
        "artifacts",
        "coverage",
        "__pycache__",
    ];
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.expect("directory entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            let file_type = entry.file_type().expect("file type");
            if file_type.is_dir() {
                if !name.starts_with('.') && !SKIP.contains(&name.as_str()) {
                    walk(&path, found);
                }
            } else if matches!(
                name.as_str(),
                "package.json" | "pyproject.toml" | "Cargo.toml"
            ) {
                found.push(path);
            }
        }
    }
    let root = root().canonicalize().expect("repository root");
    let mut found = Vec::new();
    walk(&root, &mut found);
    found.sort();
    let rel = |p: &Path| {
        p.strip_prefix(&root)
            .expect("inside the repository")
            .to_string_lossy()
            .replace('\\', "/")
    };
    let names: Vec<String> = found.iter().map(|p| rel(p)).collect();
    for expected in [
        "Cargo.toml",
        "clients/python/pyproject.toml",
        "clients/typescript/package.json",
        "clients/web/package.json",
        "proto/openapi/package.json",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "the walk finds {expected}: {names:?}"
        );
    }
    for (path, name) in found.iter().zip(&names) {
        match path.file_name().and_then(|f| f.to_str()) {
            Some("package.json") => {
                assert_eq!(
                    json(name)["license"].as_str(),
                    Some(LICENCE),
                    "{name} license"
                );
                let lock = path.with_file_name("package-lock.json");
                if lock.is_file() {
                    let lock_rel = rel(&lock);
                    assert_eq!(
                        json(&lock_rel)["packages"][""]["license"].as_str(),
                        Some(LICENCE),
                        "{lock_rel}: the root package's licence (npm install after changing it)"
                    );
                }
            }
            Some("pyproject.toml") => assert_eq!(
                toml(name)["project"]["license"].as_str(),
                Some(LICENCE),
                "{name} [project] license"
            ),
            _ => {
                // Cargo.toml: the workspace root has no [package]; every crate has a licence.
                if toml(name).get("package").is_some() {
                    assert_eq!(crate_licence(name, LICENCE), LICENCE, "{name}");
                }
            }
        }
    }
}
