//! The dialectic of spec `002`: its schemas derived from the answer types, scenario files played
//! through the engine (each style, council and not, workflow and single shot, a run-time schema
//! refused and repaired), demo dialectics to the end, prompts, repair prompts and the exported
//! 002 documents as snapshots.

#![allow(clippy::disallowed_methods)] // tests read their own files and the environment

use roundtable_core::engine::Protocol;
use roundtable_core::protocol::dialectic::{answer, DialecticState, DialecticStep};

const STEPS: [DialecticStep; 4] = [
    DialecticStep::Thesis,
    DialecticStep::Antithesis,
    DialecticStep::Synthesis,
    DialecticStep::SingleShot,
];

/// The committed schema files equal what the answer types derive (`UPDATE_SCHEMAS=1` rewrites
/// them).
#[test]
fn schemas_are_derived_from_the_answer_types() {
    let update = std::env::var("UPDATE_SCHEMAS").is_ok();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    for step in STEPS {
        let derived = answer::derive_schema(step);
        let path = dir.join(format!("{}.plain.json", DialecticState::step_name(step)));
        let text = serde_json::to_string_pretty(&derived).unwrap() + "\n";
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            committed,
            text,
            "{} is stale: run `bash scripts/codegen.sh` (schemas, then the tables and TS types made from them)",
            path.display()
        );
    }
}
