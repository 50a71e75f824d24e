//! Autocoding (spec `002`): its committed schemas are what its answer types derive, and the demo's
//! code is real — each turn's files, as the demo player writes them from the files before, are
//! committed in `tests/e2e/fixtures/autocoding-demo-turns.json`, which the browser test
//! (`tests/e2e/sandbox.test.mjs`) runs in the code sandbox: the first turn fails a test, the last
//! passes them all. `UPDATE_FIXTURES=1` rewrites the fixture, `UPDATE_SCHEMAS=1` the schemas.

#![allow(clippy::disallowed_methods)] // tests read their own files

use roundtable_core::protocol::autocoding::answer::{derive_schema, SCHEMA_NAMES};
use roundtable_core::protocol::autocoding::demo::{player, DEMO_REQUIREMENTS};
use roundtable_core::protocol::autocoding::prompt::CodeFile;
use serde_json::{json, Value};

/// The files after each of `turns` demo turns on `requirements`.
fn turns(requirements: &str, turns: usize) -> Value {
    let mut files: Vec<CodeFile> = Vec::new();
    let mut out = Vec::new();
    for _ in 0..turns {
        let answer = player(requirements, &files);
        assert!(answer.problems(&files).is_empty());
        files = answer.apply(&files);
        out.push(json!(files));
    }
    json!({ "requirements": requirements, "turns": out })
}

#[test]
fn the_committed_turns_are_what_the_demo_writes() {
    let derived = json!({
        "slug": turns(DEMO_REQUIREMENTS, 3),
        "checklist": turns("Keep a reading list.\n- add a book\n- mark a book read\n- list the unread ones", 2),
    });
    let text = serde_json::to_string_pretty(&derived).unwrap() + "\n";
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/e2e/fixtures/autocoding-demo-turns.json"
    );
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == text,
        "{path} is stale: run UPDATE_FIXTURES=1 cargo test -p roundtable-core --test autocoding"
    );
}

/// The committed schema files equal what the answer types derive (`UPDATE_SCHEMAS=1` rewrites
/// them; `bash scripts/codegen.sh` runs this test first).
#[test]
fn committed_schemas_are_current() {
    let update = std::env::var("UPDATE_SCHEMAS").is_ok();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    for name in SCHEMA_NAMES {
        let path = dir.join(format!("{name}.plain.json"));
        let text = serde_json::to_string_pretty(&derive_schema(name)).unwrap() + "\n";
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            committed,
            text,
            "{} is stale: run `bash scripts/codegen.sh`",
            path.display()
        );
    }
}
