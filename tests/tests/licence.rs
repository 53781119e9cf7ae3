//! One licence everywhere: `MIT OR Apache-2.0`. The licence files exist (the clients carry
//! identical copies, because their packages are built from their own folders), and every
//! manifest says the same: the Cargo workspace and each of its crates, the fuzz crate, the
//! Python `pyproject.toml` and the TypeScript `package.json` (not private) with its lock file.

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
