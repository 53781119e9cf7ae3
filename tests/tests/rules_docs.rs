//! The rules documents in `docs/rules/` (every `1841 §n`, `FAQ-…`, `autobahn §n` and `AQ-n`
//! citation leads there): each is listed in the folder's README, carries its header (what it is,
//! where citations point) and, when the developers' shared rules folder exists
//! (`../shared/rules` beside the repository, or `REFEREE_SHARED_RULES`), holds exactly the
//! shared rule text after the header. Without the shared folder that comparison is skipped
//! with a printed notice. `scripts/rules-sync.sh` refreshes the copies.

use std::path::{Path, PathBuf};

/// The documents, and whether citations point into them (their header says so).
const DOCS: [(&str, bool); 7] = [
    ("1841.md", true),
    ("1841-data.md", false),
    ("1841-faq.md", true),
    ("1841-known-bugs.md", true),
    ("autobahn.md", true),
    ("autobahn-board.md", false),
    ("autobahn-qa.md", true),
];

const FIRST_LINE: &str = "<!-- Referee rules document. -->\n";
const END_OF_HEADER: &str = "<!-- end of header:";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rules_dir() -> PathBuf {
    root().join("docs/rules")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A document split into its header (up to and including the end-of-header line) and the rule
/// text after the blank line that follows it.
fn split(name: &str) -> (String, String) {
    let text = read(&rules_dir().join(name));
    assert!(
        text.starts_with(FIRST_LINE),
        "docs/rules/{name}: starts with {FIRST_LINE:?}"
    );
    let at = text
        .find(END_OF_HEADER)
        .unwrap_or_else(|| panic!("docs/rules/{name}: no {END_OF_HEADER:?} line"));
    let line_end = at
        + text[at..]
            .find('\n')
            .unwrap_or_else(|| panic!("docs/rules/{name}: header line not ended"));
    let header = text[..=line_end].to_owned();
    let body = text[line_end + 1..]
        .strip_prefix('\n')
        .unwrap_or_else(|| panic!("docs/rules/{name}: a blank line after the header"))
        .to_owned();
    (header, body)
}

#[test]
fn every_rules_document_is_indexed_and_has_its_header() {
    let index = read(&rules_dir().join("README.md"));
    for (name, cited) in DOCS {
        assert!(
            index.contains(&format!("]({name})")),
            "docs/rules/README.md links {name}"
        );
        let (header, body) = split(name);
        assert!(
            header.lines().count() < 20,
            "docs/rules/{name}: a short header"
        );
        assert!(
            header.contains(&format!("verbatim copy of {name} ")),
            "docs/rules/{name}: the header names its shared original"
        );
        if cited {
            assert!(
                header.contains("**Citations point here.**"),
                "docs/rules/{name}: the header says which citations lead here"
            );
        }
        assert!(
            body.starts_with("# ") && body.len() > 2_000,
            "docs/rules/{name}: the rule text follows the header"
        );
    }
    // Nothing in the folder that the index does not know.
    let mut files: Vec<String> = std::fs::read_dir(rules_dir())
        .expect("docs/rules")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "README.md")
        .collect();
    files.sort();
    let mut expected: Vec<String> = DOCS.iter().map(|(n, _)| (*n).to_owned()).collect();
    expected.sort();
    assert_eq!(
        files, expected,
        "docs/rules/ holds exactly the indexed documents"
    );
}

#[test]
fn the_citation_examples_resolve() {
    // The examples the headers and the guide use lead to real places in the documents.
    let (_, rules_1841) = split("1841.md");
    assert!(rules_1841.contains("## 9. Operating round details"));
    assert!(rules_1841.contains("## 17. Open questions"));
    let (_, faq) = split("1841-faq.md");
    assert!(faq.contains("FAQ-Q12"));
    let (_, qa) = split("autobahn-qa.md");
    for n in 1..=6 {
        assert!(
            qa.contains(&format!("## AQ-{n} ")),
            "autobahn-qa.md: AQ-{n}"
        );
    }
    let (_, bugs) = split("1841-known-bugs.md");
    assert!(
        bugs.contains("| 9355 |"),
        "known-bugs #9355 (cited by the engine)"
    );
}

#[test]
fn rule_text_matches_the_shared_rules_folder() {
    let shared = std::env::var_os("REFEREE_SHARED_RULES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/rules"));
    if !shared.is_dir() {
        println!(
            "skipped: no shared rules folder at {} (set REFEREE_SHARED_RULES); the docs/rules copies are not compared",
            shared.display()
        );
        return;
    }
    for (name, _) in DOCS {
        let (_, body) = split(name);
        let original = read(&shared.join(name));
        assert!(
            body == original,
            "docs/rules/{name} differs from {}: run scripts/rules-sync.sh",
            shared.join(name).display()
        );
    }
    // A new document in the shared folder needs a copy here.
    for entry in std::fs::read_dir(&shared).expect("shared rules") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".md") {
            assert!(
                DOCS.iter().any(|(n, _)| *n == name),
                "{name} of the shared rules folder has no copy in docs/rules/"
            );
        }
    }
}

/// The data files the headers say are byte-for-byte copies: the 1841 files the engine loads
/// (`engine/data/1841/`, from the shared `1841-data/`) and the reconstructed Autobahn board the
/// design notes describe (`autobahn-board.json`, kept as
/// `engine/data/autobahn/boards/reconstructed-2026-1.json`; the default board is its retune).
#[test]
fn data_files_named_as_copies_match_the_shared_rules_folder() {
    const BOARD: &str = "engine/data/autobahn/boards/reconstructed-2026-1.json";
    let (header, _) = split("autobahn-board.md");
    assert!(
        header.contains(&format!("(../../{BOARD})")),
        "docs/rules/autobahn-board.md: the header links {BOARD}"
    );
    assert!(root().join(BOARD).is_file(), "{BOARD} exists");
    let shared = std::env::var_os("REFEREE_SHARED_RULES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/rules"));
    if !shared.is_dir() {
        println!(
            "skipped: no shared rules folder at {}; the data copies are not compared",
            shared.display()
        );
        return;
    }
    assert!(
        std::fs::read(root().join(BOARD)).expect(BOARD)
            == std::fs::read(shared.join("autobahn-board.json")).expect("autobahn-board.json"),
        "{BOARD} differs from the shared autobahn-board.json (docs/rules/autobahn-board.md says byte for byte)"
    );
    let data = root().join("engine/data/1841");
    let mut compared = 0;
    for entry in std::fs::read_dir(shared.join("1841-data")).expect("shared 1841-data/") {
        let name = entry.expect("entry").file_name();
        let ours = data.join(&name);
        if ours.is_file() {
            assert!(
                std::fs::read(&ours).expect("engine data file")
                    == std::fs::read(shared.join("1841-data").join(&name)).expect("shared file"),
                "engine/data/1841/{} differs from the shared 1841-data/ (docs/rules/1841-data.md says byte for byte)",
                name.to_string_lossy()
            );
            compared += 1;
        }
    }
    // maps (3), tiles, market, merger prices (2), region borders, game constants.
    assert!(compared >= 9, "{compared} engine data files compared");
}

/// Every citation in the code and the protos leads somewhere in `docs/rules/`: `1841 §n.m` and
/// `autobahn §n.m` to a heading with that number, `FAQ-Q12` to its ruling's heading, `AQ-n` to
/// its ruling, `U-n` to the open point of autobahn.md.
#[test]
fn every_citation_in_the_sources_resolves() {
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                sources(&path, out);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("rs" | "proto")
            ) {
                out.push(path);
            }
        }
    }
    /// The identifiers that follow each `prefix` in `text`: the longest run of `allowed`
    /// characters, without a trailing dot.
    fn after(text: &str, prefix: &str, allowed: fn(char) -> bool) -> Vec<String> {
        text.match_indices(prefix)
            .map(|(at, _)| {
                let rest = &text[at + prefix.len()..];
                let end = rest.find(|c: char| !allowed(c)).unwrap_or(rest.len());
                rest[..end].trim_end_matches('.').to_owned()
            })
            .filter(|id| id.starts_with(|c: char| c.is_ascii_alphanumeric()))
            .collect()
    }
    /// A Markdown heading (`## 9.`, `### 9.7 Corporate share actions`) numbered `number`.
    fn has_heading(doc: &str, number: &str) -> bool {
        doc.lines().any(|line| {
            line.starts_with('#')
                && line
                    .trim_start_matches('#')
                    .strip_prefix(' ')
                    .and_then(|l| l.strip_prefix(number))
                    .is_some_and(|r| r.starts_with([' ', '.']))
        })
    }
    let mut files = Vec::new();
    for dir in ["engine/src", "service/src", "proto"] {
        sources(&root().join(dir), &mut files);
    }
    let text: String = files.iter().map(|f| read(f)).collect::<Vec<_>>().join("\n");
    let numbered = |c: char| c.is_ascii_digit() || c == '.';
    let (_, rules_1841) = split("1841.md");
    let (_, autobahn) = split("autobahn.md");
    let (_, faq) = split("1841-faq.md");
    let (_, qa) = split("autobahn-qa.md");
    let mut checked = 0;
    let mut missing = Vec::new();
    for n in after(&text, "1841 §", numbered) {
        checked += 1;
        if !has_heading(&rules_1841, &n) {
            missing.push(format!("1841 §{n}"));
        }
    }
    for n in after(&text, "autobahn §", numbered) {
        checked += 1;
        if !has_heading(&autobahn, &n) {
            missing.push(format!("autobahn §{n}"));
        }
    }
    for id in after(&text, "FAQ-", |c| c.is_ascii_alphanumeric()) {
        // Numbered rulings have their own heading; a bare letter (`FAQ-T`) names a section.
        checked += 1;
        let found = if id.ends_with(|c: char| c.is_ascii_digit()) {
            faq.contains(&format!("### FAQ-{id} "))
        } else {
            faq.contains(&format!("FAQ-{id}"))
        };
        if !found {
            missing.push(format!("FAQ-{id}"));
        }
    }
    for n in after(&text, "AQ-", |c| c.is_ascii_digit()) {
        checked += 1;
        if !qa.contains(&format!("## AQ-{n} ")) {
            missing.push(format!("AQ-{n}"));
        }
    }
    for n in after(&text, "U-", |c| c.is_ascii_digit()) {
        checked += 1;
        if !autobahn.contains(&format!("U-{n}")) {
            missing.push(format!("U-{n}"));
        }
    }
    missing.sort();
    missing.dedup();
    assert!(checked > 500, "{checked} citations found");
    assert!(
        missing.is_empty(),
        "citations with no place in docs/rules/: {missing:?}"
    );
}
