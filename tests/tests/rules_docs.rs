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
