//! The engine/protocol boundary holds: nothing under `core/src/engine/` names a kind of session or
//! its vocabulary, so a new kind is one folder under `core/src/protocol/` and no engine change;
//! and the validator's walker names no kind's ids (each kind's id scope judges them).

#![allow(clippy::disallowed_methods)] // tests read their own files

use std::fs;
use std::path::Path;

/// Words that belong to one kind or another (module names, roles, steps, shapes).
const PROTOCOL_WORDS: &[&str] = &[
    "team",
    "meeting",
    "dialectic",
    "autocoding",
    "review_loop",
    "chair",
    "operative",
    "inspector",
    "envoy",
    "orchestrator",
    "charter",
    "product",
    "tree",
    "bootstrap",
    "plan_assign",
    "peer_review",
    "presentation",
    "phase",
    "minutes",
    "thesis",
    "critic",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_engine_names_no_protocol() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(files.len() >= 5, "the engine's files are found");
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("readable").to_lowercase();
        for (n, line) in text.lines().enumerate() {
            for word in PROTOCOL_WORDS {
                let hit = line.match_indices(word).any(|(i, _)| {
                    let before = line[..i].chars().next_back();
                    let after = line[i + word.len()..].chars().next();
                    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
                    edge(before) && (edge(after) || after == Some('s') || after == Some('_'))
                });
                if hit {
                    found.push(format!("{}:{}: {word}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the engine names a protocol:\n{}",
        found.join("\n")
    );
}

/// The team's id vocabulary: what its id scope (`protocol/team/ids.rs`) knows and the validator's
/// walker must not.
const ID_WORDS: &[&str] = &[
    "team",
    "meeting",
    "product",
    "version",
    "collab",
    "member",
    "recipient",
    "treeoperations",
    "newid",
    "new-n",
    "attendee",
];

#[test]
fn the_validators_walker_names_no_kinds_ids() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/validate");
    let mut found = Vec::new();
    // The walker and the parsing under it: which strings are ids, and their rules, are each
    // kind's id scope. (`shape.rs` looks up the team's step shapes; `mod.rs` holds the entry
    // points, which pick a kind's scope; the generator and its generated tables read every kind.)
    for name in ["check.rs", "json.rs", "tape.rs"] {
        let text = fs::read_to_string(dir.join(name))
            .expect("readable")
            .to_lowercase();
        for (n, line) in text.lines().enumerate() {
            for word in ID_WORDS {
                let hit = line.match_indices(word).any(|(i, _)| {
                    let before = line[..i].chars().next_back();
                    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
                    edge(before)
                });
                if hit {
                    found.push(format!("{name}:{}: {word}", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the validator's walker names a kind's ids:\n{}",
        found.join("\n")
    );
}
