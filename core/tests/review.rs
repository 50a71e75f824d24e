//! The review loop (spec `004`): its committed schemas are what its answer types derive, and the
//! answer cases of `tests/review/answers.json` — every contract's valid answer, then each
//! acknowledgement and envelope mistake — get exactly the violations they list.
//! `UPDATE_SCHEMAS=1` rewrites the schemas.
#![allow(clippy::disallowed_methods)] // tests read and write their committed files

use std::collections::BTreeSet;

use roundtable_core::protocol::review::answer::{check, Contract};
use roundtable_core::protocol::review::directive::{nonce, Directive};
use roundtable_core::validate::Options;
use serde_json::Value;

/// The committed schema files equal what the answer types derive (`UPDATE_SCHEMAS=1` rewrites
/// them; `bash scripts/codegen.sh` runs this test first).
#[test]
fn committed_schemas_are_current() {
    let update = std::env::var("UPDATE_SCHEMAS").is_ok();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    for contract in Contract::ALL {
        let path = dir.join(format!("{}.plain.json", contract.schema_name()));
        let text = serde_json::to_string_pretty(&contract.derive_schema()).unwrap() + "\n";
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

fn contract_of(key: &str) -> Contract {
    Contract::ALL
        .into_iter()
        .find(|c| c.key() == key)
        .unwrap_or_else(|| panic!("no contract has the key {key}"))
}

/// `$NONCE` and `$EARLIER` in every string of `value`, replaced.
fn fill(value: &mut Value, now: &str, earlier: &str) {
    match value {
        Value::String(s) => *s = s.replace("$NONCE", now).replace("$EARLIER", earlier),
        Value::Array(items) => items.iter_mut().for_each(|v| fill(v, now, earlier)),
        Value::Object(map) => map.values_mut().for_each(|v| fill(v, now, earlier)),
        _ => {}
    }
}

/// Sets `pointer` in `value` to `to`, making the last step's key if it is missing.
fn set(value: &mut Value, pointer: &str, to: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let target = value
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"));
    target.as_object_mut().unwrap().insert(key.into(), to);
}

fn remove(value: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let removed = value
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .and_then(|m| m.remove(key));
    assert!(removed.is_some(), "nothing at {pointer} to remove");
}

#[test]
fn every_answer_case_gets_exactly_its_violations() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/review/answers.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let directive =
        Directive::for_call("run-1", "call-5", ["call-1", "call-2", "call-3", "call-4"]);
    let earlier = nonce("run-1", "call-3");
    let mut valid = file["valid"].clone();
    fill(&mut valid, &directive.nonce, &earlier);
    assert_eq!(
        valid.as_object().unwrap().len(),
        Contract::ALL.len(),
        "one valid answer per contract"
    );
    let mut ran = 0;
    // What a model reads back for each mistake the cases name in words.
    let mut said = String::new();
    for case in file["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let keys: Vec<&str> = match case["contract"].as_str().unwrap() {
            "*" => Contract::ALL.iter().map(|c| c.key()).collect(),
            key => vec![key],
        };
        for key in keys {
            let contract = contract_of(key);
            let mut answer = valid[key].clone();
            for p in case["remove"].as_array().into_iter().flatten() {
                remove(&mut answer, p.as_str().unwrap());
            }
            for (p, v) in case["set"].as_object().into_iter().flatten() {
                let mut v = v.clone();
                fill(&mut v, &directive.nonce, &earlier);
                set(&mut answer, p, v);
            }
            if let Some(wrapper) = case["wrap"].as_str() {
                answer = serde_json::json!({ wrapper: answer });
            }
            let mut raw = serde_json::to_string_pretty(&answer).unwrap();
            if case["fence"].as_bool() == Some(true) {
                raw = format!("Here is my answer:\n```json\n{raw}\n```\nThanks.");
            }
            let mut warnings = Vec::new();
            let got = check(
                contract,
                &raw,
                &directive,
                Options::default(),
                &mut warnings,
            );
            let want: BTreeSet<&str> = case["errorPaths"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            let violations = got.as_ref().err().cloned().unwrap_or_default();
            let paths: BTreeSet<&str> = violations.iter().map(|v| v.path.as_str()).collect();
            assert_eq!(paths, want, "{name} ({key}): {violations:#?}");
            assert_eq!(got.is_ok(), want.is_empty(), "{name} ({key})");
            if case.get("messages").is_some() {
                said.push_str(&format!("## {name}\n"));
                for v in &violations {
                    said.push_str(&format!(
                        "{}: {}\n  expected: {}\n  received: {}\n  hint: {}\n",
                        v.path, v.message, v.expected, v.received, v.hint
                    ));
                }
            }
            for m in case["messages"].as_array().into_iter().flatten() {
                let m = m.as_str().unwrap();
                assert!(
                    violations.iter().any(|v| v.message.contains(m)),
                    "{name}: no message says {m:?}: {violations:#?}"
                );
            }
            if let Some(n) = case["warnings"].as_u64() {
                assert_eq!(warnings.len() as u64, n, "{name}: {warnings:#?}");
            }
            if let Ok(response) = got {
                assert_eq!(response.payload.ack().nonce, directive.nonce);
            }
            ran += 1;
        }
    }
    assert!(ran >= 20, "{ran} answers checked");
    insta::assert_snapshot!("review_acknowledgement_violations", said);
}

mod run {
    //! The review loop as a kind of session: the demo model plays a whole run.
    use roundtable_core::demo::play_with;
    use roundtable_core::engine::{ModelRef, Protocol};
    use roundtable_core::protocol::review::{demo, view, ReviewSession};

    fn model() -> ModelRef {
        ModelRef {
            provider: "demo".into(),
            model: "roundtable-demo".into(),
        }
    }

    #[test]
    fn the_demo_plays_a_whole_run_through_everything_004_names() {
        let mut s = ReviewSession::new(demo::config(model(), "run-demo"), 0).unwrap();
        let mut now = 1;
        let report = play_with(
            &mut s,
            |st, c| st.demo_answer(&c.call, &c.envelope),
            &mut now,
            80,
        )
        .unwrap();
        let v = view::view_of(s.state());
        assert_eq!(s.status().word(), "done");
        assert_eq!(report.invalid, 0);
        assert_eq!(report.approvals, 1);
        assert_eq!(v.reconciliation.as_ref().unwrap().status, "complete");
        let ids: Vec<&str> = v.artifacts.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["critic_trigger-1", "revision_packet-1", "fanout-1"]);
        let runs: Vec<&str> = v.runs.iter().map(|r| r.status.as_str()).collect();
        assert_eq!(runs, ["failed", "passed"]);
        assert!(v.gates.iter().all(|g| g.met), "{:?}", v.gates);
    }
}
