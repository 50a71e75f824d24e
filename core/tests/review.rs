//! The review loop (spec `004`): its committed schemas are what its answer types derive, and the
//! answer cases of `tests/review/answers.json` — every contract's valid answer, then each
//! acknowledgement and envelope mistake — get exactly the violations they list.
//! `UPDATE_SCHEMAS=1` rewrites the schemas.
//!
//! Every answer case, forged artifact and scenario file says where its rule is written, in a
//! `"spec"` field ([`spec_of`]): a line of `004`, a reading of `DESIGN.md`, or an extension of
//! ours. A case without one fails, and a failing case's message carries it.
#![allow(clippy::disallowed_methods)] // tests read and write their committed files

use std::collections::BTreeSet;

use roundtable_core::protocol::review::answer::Contract;
use roundtable_core::protocol::review::directive::{nonce, Directive};
use roundtable_core::protocol::review::rules::check;
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

/// The pointers a case expects its violations at (`errorPaths`).
fn error_paths(case: &Value) -> BTreeSet<&str> {
    case["errorPaths"]
        .as_array()
        .expect("errorPaths is a list")
        .iter()
        .map(|p| p.as_str().expect("a pointer"))
        .collect()
}

/// Where a case's rule is written, from its `"spec"` field (one entry, or a list when the case
/// rests on several), as one line for a failing case's message. Each entry is one of:
/// - `004:N` — line `N` of `004_d78591399d98800d.txt` as a file (what `sed -n Np` prints, not
///   the Markdown's own numbering the diff prints between lines): a line of its prompt-schema
///   document (281–1101), where the text sits on odd lines and the document's line numbers on
///   even ones, so an even `N` points at a bare number and is refused;
/// - `DESIGN: review loop — <words of the bullet>` — our reading where `004` is silent
///   (`DESIGN.md`, "The review loop (004): readings decided");
/// - `ours: <which extension>` — a field or step `004` does not have (the fan-out request,
///   `files`, a null task, the acceptance tests …).
///
/// Panics, naming `who`, when the field is missing, empty or malformed.
fn spec_of(case: &Value, who: &str) -> String {
    let entries: Vec<&Value> = match case.get("spec") {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(one) => vec![one],
        None => panic!("{who}: no \"spec\" says where its rule is written (004:N, DESIGN: review loop — …, or ours: …)"),
    };
    assert!(!entries.is_empty(), "{who}: \"spec\" is an empty list");
    let mut out = Vec::new();
    for e in entries {
        let e = e
            .as_str()
            .unwrap_or_else(|| panic!("{who}: a spec entry is not a string: {e}"));
        let ok = if let Some(n) = e.strip_prefix("004:") {
            let n: u32 = n
                .parse()
                .unwrap_or_else(|_| panic!("{who}: {e:?} is not 004:<line>"));
            (281..=1101).contains(&n) && n % 2 == 1
        } else if let Some(words) = e.strip_prefix("DESIGN: review loop — ") {
            words.split_whitespace().count() >= 3
        } else if let Some(what) = e.strip_prefix("ours: ") {
            !what.trim().is_empty()
        } else {
            false
        };
        assert!(
            ok,
            "{who}: spec entry {e:?} is none of 004:<odd line of the schema document, 281–1101>, \
             DESIGN: review loop — <words of the bullet>, ours: <which extension>"
        );
        out.push(e);
    }
    out.join("; ")
}

mod spec_field {
    //! The `"spec"` field the runners require: what it accepts, and the case it names when it
    //! refuses.
    use serde_json::json;

    #[test]
    fn a_line_a_reading_an_extension_and_a_list_are_read() {
        assert_eq!(super::spec_of(&json!({"spec": "004:699"}), "c"), "004:699");
        assert_eq!(
            super::spec_of(
                &json!({"spec": ["004:1013", "DESIGN: review loop — fan-out results are advisory", "ours: the fan-out request"]}),
                "c"
            ),
            "004:1013; DESIGN: review loop — fan-out results are advisory; ours: the fan-out request"
        );
    }

    #[test]
    #[should_panic(expected = "a case of ours: no \"spec\"")]
    fn a_case_without_spec_fails_naming_it() {
        super::spec_of(&json!({"name": "a case of ours"}), "a case of ours");
    }

    #[test]
    #[should_panic(expected = "\"004:700\" is none of")]
    fn a_line_of_the_documents_own_numbering_is_refused() {
        super::spec_of(&json!({"spec": "004:700"}), "c");
    }

    #[test]
    #[should_panic(expected = "\"004:12\" is none of")]
    fn a_line_outside_the_schema_document_is_refused() {
        super::spec_of(&json!({"spec": ["004:699", "004:12"]}), "c");
    }

    #[test]
    #[should_panic(expected = "\"ours\" is none of")]
    fn an_extension_that_does_not_say_which_is_refused() {
        super::spec_of(&json!({"spec": "ours"}), "c");
    }

    #[test]
    #[should_panic(expected = "empty list")]
    fn an_empty_list_is_refused() {
        super::spec_of(&json!({"spec": []}), "c");
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
        let title = case["name"].as_str().unwrap();
        let spec = spec_of(case, title);
        let name = format!("{title} (spec {spec})");
        let name = name.as_str();
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
            let want = error_paths(case);
            let violations = got.as_ref().err().cloned().unwrap_or_default();
            let paths: BTreeSet<&str> = violations.iter().map(|v| v.path.as_str()).collect();
            assert_eq!(paths, want, "{name} ({key}): {violations:#?}");
            assert_eq!(got.is_ok(), want.is_empty(), "{name} ({key})");
            if case.get("messages").is_some() {
                said.push_str(&format!("## {title}\n"));
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
    use roundtable_core::demo::play_demo;
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
        let report = play_demo(&mut s, &mut now, 80).unwrap();
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

    /// With the tests under a protected path, the demo implementer declares them and the
    /// person's approval is asked for them too (in every approval mode).
    #[test]
    fn a_protected_test_path_waits_for_the_person_and_the_demo_declares_it() {
        let mut config = demo::config(model(), "run-demo");
        config.protected_test_paths = vec!["test".into()];
        config.approval_mode = roundtable_core::protocol::review::config::ApprovalMode::Autopilot;
        let mut s = ReviewSession::new(config, 0).unwrap();
        let mut now = 1;
        let report = play_demo(&mut s, &mut now, 80).unwrap();
        assert_eq!(s.status().word(), "done");
        assert_eq!(report.invalid, 0);
        assert_eq!(
            report.approvals, 2,
            "the plan's, and the protected test file's"
        );
        let v = view::view_of(s.state());
        assert_eq!(v.reconciliation.unwrap().status, "complete");
    }

    /// The person's new limit is the run's, and it counts calls: two (the orchestrator's
    /// decision and the planner's plan), then the reconciliation (partial: the gates are unmet).
    #[test]
    fn a_lower_iteration_limit_closes_the_run_after_it() {
        let mut s = ReviewSession::new(demo::config(model(), "run-demo"), 0).unwrap();
        s.start(1).unwrap();
        let mut settings = s.state().core().settings.clone();
        settings.max_rounds = 2;
        s.edit(
            roundtable_core::engine::EngineEdit::Settings { settings },
            2,
        )
        .unwrap();
        let mut now = 3;
        play_demo(&mut s, &mut now, 80).unwrap();
        let st = s.state();
        assert_eq!(s.status().word(), "done");
        assert_eq!(st.config.max_iterations, 2);
        assert_eq!(
            st.end,
            Some(roundtable_core::protocol::review::RunEnd::Iterations)
        );
        let v = view::view_of(st);
        assert_eq!(v.reconciliation.unwrap().status, "partial");
        assert_eq!(v.decisions.len(), 1);
        assert_eq!(
            st.calls_started, 2,
            "the reconciliation closes the run outside the limit"
        );
    }
}

mod scenarios {
    //! Data-driven runs of the loop's branches and gates: each file of `tests/scenarios/review/`
    //! (its `about`, its `spec`, the config `overrides`) plays its steps — `answer` (to the
    //! first call due, acknowledged for it unless it carries its own acknowledgement), `demo`
    //! (n calls answered by the demo model), `times` (the step n times; with no `answer`, the
    //! demo answers), `reply` (the person's verdict and note), `expect_prompt` (words the next
    //! call's directive must say), `wait_ms` (the clock moves on) — and the outcomes are
    //! snapshotted and the end it promises is checked.
    use std::fs;
    use std::path::Path;

    use roundtable_core::engine::{EventKind, ModelRef, PersonReply, Protocol, RunTarget, Verdict};
    use roundtable_core::protocol::review::answer::ACK_FIELD;
    use roundtable_core::protocol::review::{demo, ReviewEnvelope, ReviewSession, ReviewState};
    use serde_json::{json, Value};

    fn config(scenario: &Value) -> roundtable_core::protocol::review::ReviewConfig {
        let model = ModelRef {
            provider: "demo".into(),
            model: "roundtable-demo".into(),
        };
        let mut value = serde_json::to_value(demo::config(model, "run-scenario")).unwrap();
        for (k, v) in scenario["overrides"].as_object().into_iter().flatten() {
            value[k] = v.clone();
        }
        let mut config: roundtable_core::protocol::review::ReviewConfig =
            serde_json::from_value(value).unwrap();
        // As the new-run form does: a role the run does not have has no member.
        let available = config.available_worker_types.clone();
        config.members.retain(|m| {
            m.roles.iter().all(|r| {
                *r == roundtable_core::protocol::review::Role::Orchestrator || available.contains(r)
            })
        });
        config
    }

    /// Runs the code due with the demo's stand-in for the sandbox.
    fn run_due(s: &mut ReviewSession, now: u64, out: &mut Vec<String>) {
        while let Some(effect) = s.next_effects().into_iter().next() {
            let output = s.state().demo_effect(&effect).unwrap();
            out.push(format!(
                "{} ran: {}",
                effect.id,
                output["status"].as_str().unwrap_or("?")
            ));
            s.effect_done(&effect.id, output, now).unwrap();
        }
    }

    /// Submits `text` to the first call due; returns the outcome in a line.
    fn submit(s: &mut ReviewSession, answer: Option<&Value>, now: u64) -> String {
        let Some(call) = s.calls_due().into_iter().next() else {
            return format!("no call due ({})", s.status().word());
        };
        let text = match answer {
            Some(a) => {
                let mut a = a.clone();
                let key = ReviewState::step_name(ReviewState::step_of(call.call.step));
                let contract = ReviewState::step_of(call.call.step).contract().key();
                let payload = &mut a["data"][contract];
                if payload.get(ACK_FIELD).is_none() {
                    let envelope = call.envelope.get::<ReviewEnvelope>();
                    payload[ACK_FIELD] = json!({"runId": envelope.run_id, "nonce": envelope.nonce, "responseField": ACK_FIELD});
                }
                let _ = key;
                a.to_string()
            }
            None => s.state().demo_answer(&call.call, call.envelope.get()).text,
        };
        let id = call.call.id.clone();
        let title = s.state().call_title(
            &call.call.member,
            ReviewState::step_of(call.call.step),
            call.call.round,
        );
        s.submit(&id, &text, None, now).unwrap();
        let last = s.events().last().map(|e| e.kind.clone());
        let what = s
            .events()
            .iter()
            .rev()
            .find_map(|e| match &e.kind {
                EventKind::AnswerInvalid {
                    call_id, report, ..
                } if *call_id == id => Some(format!(
                    "refused: {}",
                    report
                        .errors
                        .iter()
                        .map(|v| format!("{} ({})", v.path, v.message))
                        .collect::<Vec<_>>()
                        .join("; ")
                )),
                EventKind::HaltRaised { call_id, halt, .. } if *call_id == id => {
                    Some(format!("waits for the person: {}", halt.message()))
                }
                EventKind::Applied { call_id, .. } if *call_id == id => {
                    let policy: Vec<String> = s
                        .state()
                        .record
                        .auto_approvals
                        .iter()
                        .filter(|a| a.call_id == id)
                        .map(|a| format!(" ({}: {})", a.what, a.why))
                        .collect();
                    Some(format!("applied{}", policy.concat()))
                }
                _ => None,
            })
            .unwrap_or_else(|| format!("{:?}", last.map(|k| k.name())));
        format!("{id} {title} → {what}")
    }

    fn play(scenario: &Value) -> (ReviewSession, Vec<String>) {
        let mut s = ReviewSession::new(config(scenario), 0).unwrap();
        let mut now = 1;
        s.start_run(RunTarget::End, None, now).unwrap();
        let mut out = Vec::new();
        for step in scenario["steps"].as_array().unwrap() {
            now += 1;
            if let Some(reply) = step.get("reply") {
                let verdict: Verdict = serde_json::from_value(reply["verdict"].clone()).unwrap();
                let note = reply["note"].as_str().unwrap_or("");
                s.reply(None, PersonReply::verdict(verdict, note), now)
                    .unwrap();
                out.push(format!("the person: {} ({note})", verdict.word()));
                continue;
            }
            if let Some(ms) = step.get("wait_ms").and_then(Value::as_u64) {
                // The person's clock moves on: the next event is `ms` later.
                now += ms;
                out.push(format!("{ms} ms pass"));
                continue;
            }
            if let Some(text) = step.get("expect_prompt").and_then(Value::as_str) {
                let call = s.calls_due().into_iter().next().expect("a call due");
                let prompt: String = call
                    .call
                    .messages
                    .iter()
                    .map(|m| m.content.to_string())
                    .collect();
                assert!(
                    prompt.contains(text),
                    "{} lacks {text:?}:\n{prompt}",
                    call.call.id
                );
                out.push(format!("{}'s directive says {text:?}", call.call.id));
                continue;
            }
            let times = step
                .get("demo")
                .or(step.get("times"))
                .and_then(Value::as_u64)
                .unwrap_or(1);
            for _ in 0..times {
                now += 1;
                run_due(&mut s, now, &mut out);
                if step.get("demo").is_some() && s.calls_due().is_empty() {
                    break;
                }
                out.push(submit(&mut s, step.get("answer"), now));
            }
        }
        out.push(format!("status: {}", s.status().word()));
        if let roundtable_core::engine::Status::Paused { reason } = s.status() {
            out.push(format!("paused: {}", reason.describe(s.state())));
        }
        (s, out)
    }

    #[test]
    fn scenario_files_play_as_their_snapshots_say() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/review");
        let mut files: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() >= 5);
        for file in &files {
            let scenario: Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
            let stem = file.file_stem().unwrap().to_string_lossy().to_string();
            let spec = super::spec_of(&scenario, &stem);
            let name = format!("{stem} (spec {spec})");
            let (s, outcomes) = play(&scenario);
            let expect = &scenario["expect"];
            let st = s.state();
            assert_eq!(
                s.status().word(),
                expect["engine"].as_str().unwrap(),
                "{name}: {outcomes:#?}"
            );
            let invalid = s
                .events()
                .iter()
                .filter(|e| matches!(e.kind, EventKind::AnswerInvalid { .. }))
                .count();
            assert_eq!(
                invalid as u64,
                expect["invalid"].as_u64().unwrap(),
                "{name}: {outcomes:#?}"
            );
            if let Some(r) = expect["reconciliation"].as_str() {
                let got = st
                    .reconciliation()
                    .map(|r| serde_json::to_value(r.status).unwrap());
                assert_eq!(got, Some(json!(r)), "{name}: {outcomes:#?}");
            }
            if let Some(e) = expect.get("end") {
                assert_eq!(serde_json::to_value(st.end).unwrap(), *e, "{name}");
            }
            if let Some(n) = expect["approvals"].as_u64() {
                assert_eq!(u64::from(st.approvals), n, "{name}");
            }
            if let Some(n) = expect["runs"].as_u64() {
                let ran = st.record.runs.iter().filter(|r| r.run.is_some()).count();
                assert_eq!(ran as u64, n, "{name}: sandbox runs");
            }
            if let Some(codes) = expect.get("triggers") {
                let got: Vec<Value> = st
                    .record
                    .triggers
                    .iter()
                    .map(|t| serde_json::to_value(t.reason_code).unwrap())
                    .collect();
                assert_eq!(Value::Array(got), *codes, "{name}: trigger codes");
            }
            if let Some(n) = expect["calls"].as_u64() {
                assert_eq!(u64::from(st.calls_started), n, "{name}: calls started");
            }
            if let Some(n) = expect["auto_approvals"].as_u64() {
                assert_eq!(
                    st.record.auto_approvals.len() as u64,
                    n,
                    "{name}: policy approvals"
                );
            }
            if let Some(roles) = expect.get("roles_called") {
                let mut called: Vec<Value> = st
                    .core()
                    .calls
                    .iter()
                    .map(|c| {
                        serde_json::to_value(ReviewState::step_of(c.call.step).role()).unwrap()
                    })
                    .collect();
                called.dedup();
                let mut seen = Vec::new();
                for r in called {
                    if !seen.contains(&r) {
                        seen.push(r);
                    }
                }
                assert_eq!(Value::Array(seen), *roles, "{name}: roles called");
            }
            if let Some(n) = expect["packets"].as_u64() {
                assert_eq!(
                    st.record.packets.len() as u64,
                    n,
                    "{name}: revision packets"
                );
            }
            if let Some(n) = expect["fanouts"].as_u64() {
                assert_eq!(st.record.fanouts.len() as u64, n, "{name}");
            }
            if let Some(want) = expect.get("last_fanout") {
                let f = serde_json::to_value(st.record.fanouts.last().expect("a fan-out")).unwrap();
                let items: Vec<Value> = f["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| json!([i["role"], i["summonKind"], i["status"]]))
                    .collect();
                let got = json!({
                    "execution": f["execution"],
                    "status": f["status"],
                    "requestedItems": f["bounds"]["requestedItems"],
                    "executedItems": f["bounds"]["executedItems"],
                    "items": items,
                });
                assert_eq!(got, *want, "{name}: the fan-out artifact");
                let checked = roundtable_core::protocol::review::artifacts::check_artifact(
                    &f,
                    Some(&st.config.run_id),
                );
                assert!(
                    checked.is_ok(),
                    "{name}: the fan-out's checker: {checked:?}"
                );
            }
            let snapshot = std::panic::catch_unwind(|| {
                insta::assert_snapshot!(format!("review_scenario__{stem}"), outcomes.join("\n"));
            });
            if snapshot.is_err() {
                panic!("{name}: the outcomes are not the snapshot's (the diff is above)");
            }
        }
    }
}

mod directives {
    //! What the runtime hands a summoned critic, a repairing implementer, the orchestrator and
    //! the closing reconciliation, as the model reads it: the trigger, the packet, the files, the
    //! runtime's run, the run so far and the gates.
    use roundtable_core::demo::play_demo;
    use roundtable_core::engine::{ModelRef, Protocol};
    use roundtable_core::protocol::review::{demo, ReviewSession, ReviewState, ReviewStep};

    #[test]
    fn the_summoned_critic_and_the_repair_read_their_artifacts() {
        let model = ModelRef {
            provider: "demo".into(),
            model: "roundtable-demo".into(),
        };
        let mut s = ReviewSession::new(demo::config(model, "run-demo"), 0).unwrap();
        let mut now = 1;
        play_demo(&mut s, &mut now, 80).unwrap();
        let calls = &s.state().core().calls;
        let critic = calls
            .iter()
            .find(|c| ReviewState::step_of(c.call.step) == ReviewStep::Critic)
            .unwrap();
        let repair = calls
            .iter()
            .filter(|c| ReviewState::step_of(c.call.step) == ReviewStep::Implementer)
            .nth(1)
            .unwrap();
        // The orchestrator after the first run failed, and the closing reconciliation.
        let decision = calls
            .iter()
            .find(|c| {
                ReviewState::step_of(c.call.step) == ReviewStep::Orchestrator && c.call.round == 4
            })
            .unwrap();
        let closing = calls
            .iter()
            .find(|c| ReviewState::step_of(c.call.step) == ReviewStep::Reconciliation)
            .unwrap();
        for (name, call) in [
            ("critic", critic),
            ("repair", repair),
            ("decision", decision),
            ("reconciliation", closing),
        ] {
            let user = &call.call.messages.last().unwrap().content;
            insta::assert_snapshot!(format!("review_directive__{name}"), user.to_string());
        }
    }
}

mod artifacts_checked {
    //! `004`'s artifacts as the runtime writes them pass their checker, in any run the models
    //! can steer (a property); a corpus of forged ones is refused, each at its pointers; and a
    //! session file whose replay would write a forged one is refused on import.
    use std::collections::BTreeSet;

    use proptest::prelude::*;
    use roundtable_core::demo::{play_demo, play_with};
    use roundtable_core::engine::{ModelRef, Protocol};
    use roundtable_core::export;
    use roundtable_core::protocol::review::artifacts::check_artifact;
    use roundtable_core::protocol::review::{demo, ReviewSession, ReviewState, ReviewStep};
    use roundtable_core::session::Session;
    use serde_json::{json, Value};

    fn model() -> ModelRef {
        ModelRef {
            provider: "demo".into(),
            model: "roundtable-demo".into(),
        }
    }

    /// Every artifact the run holds, as JSON.
    fn written(st: &ReviewState) -> Vec<Value> {
        let r = &st.record;
        r.triggers
            .iter()
            .map(|t| serde_json::to_value(t).unwrap())
            .chain(r.packets.iter().map(|p| serde_json::to_value(p).unwrap()))
            .chain(r.fanouts.iter().map(|f| serde_json::to_value(f).unwrap()))
            .collect()
    }

    fn demo_run() -> ReviewSession {
        let mut s = ReviewSession::new(demo::config(model(), "run-demo"), 0).unwrap();
        let mut now = 1;
        play_demo(&mut s, &mut now, 80).unwrap();
        s
    }

    #[test]
    fn the_forged_corpus_is_refused_at_its_pointers() {
        let s = demo_run();
        let all = written(s.state());
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/review/forged_artifacts.json"
        );
        let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut ran = 0;
        for case in file["cases"].as_array().unwrap() {
            let title = case["name"].as_str().unwrap();
            let name = format!("{title} (spec {})", super::spec_of(case, title));
            let name = name.as_str();
            let kind = case["kind"].as_str().unwrap();
            let mut artifact = all.iter().find(|a| a["kind"] == kind).unwrap().clone();
            assert!(
                check_artifact(&artifact, Some("run-demo")).is_ok(),
                "{kind} as written"
            );
            for p in case["remove"].as_array().into_iter().flatten() {
                let (parent, key) = p.as_str().unwrap().rsplit_once('/').unwrap();
                let removed = artifact
                    .pointer_mut(parent)
                    .and_then(Value::as_object_mut)
                    .and_then(|m| m.remove(key));
                assert!(removed.is_some(), "{name}: nothing at {p}");
            }
            for (p, v) in case["set"].as_object().into_iter().flatten() {
                let (parent, key) = p.rsplit_once('/').unwrap();
                artifact
                    .pointer_mut(parent)
                    .unwrap()
                    .as_object_mut()
                    .unwrap()
                    .insert(key.into(), v.clone());
            }
            let errors = check_artifact(&artifact, Some("run-demo")).expect_err(name);
            let got: BTreeSet<&str> = errors.iter().map(|e| e.path.as_str()).collect();
            let want = super::error_paths(case);
            assert_eq!(got, want, "{name}: {errors:#?}");
            ran += 1;
        }
        assert!(ran >= 20);
    }

    /// A session file whose events make the runtime write a fan-out with a slot it never had
    /// (`researcher.7` of two): refused on import, nothing applied.
    #[test]
    fn an_imported_file_whose_replay_forges_a_fanout_is_refused() {
        let s = demo_run();
        let session = Session::of_kind(s);
        let file = export::to_file(&session, 99);
        assert!(
            export::from_file(&file).is_ok(),
            "the file as written imports"
        );
        let forged = file.replace("\"researcher.2\"", "\"researcher.7\"");
        assert_ne!(forged, file);
        let mut value: Value = serde_json::from_str(&forged).unwrap();
        let events = serde_json::to_string(&value["events"]).unwrap();
        value["checksum"] = json!(export::checksum_of_text(&events));
        let err = export::from_file(&value.to_string()).expect_err("a forged fan-out is refused");
        let words = err.to_string();
        assert!(words.contains("fan-out slot 7"), "{words}");
    }

    /// Every `fanout` request in `v` (an event, an answer) rewritten as older builds wrote it:
    /// `{role, count, instruction}`, one role for every call. Returns how many it rewrote.
    fn to_one_role_requests(v: &mut Value) -> usize {
        match v {
            Value::Object(o) => {
                let mut n = 0;
                if let Some(f) = o.get_mut("fanout").filter(|f| f.get("roles").is_some()) {
                    let roles = f["roles"].as_array().unwrap().clone();
                    assert!(roles.iter().all(|r| *r == roles[0]), "one role only");
                    *f = json!({"role": roles[0], "count": roles.len(), "instruction": f["instruction"]});
                    n += 1;
                }
                if let Some(Value::String(raw)) = o.get_mut("raw") {
                    if let Ok(mut answer) = serde_json::from_str::<Value>(raw) {
                        let k = to_one_role_requests(&mut answer);
                        if k > 0 {
                            *raw = serde_json::to_string_pretty(&answer).unwrap();
                            n += k;
                        }
                    }
                }
                n + o.values_mut().map(to_one_role_requests).sum::<usize>()
            }
            Value::Array(a) => a.iter_mut().map(to_one_role_requests).sum(),
            _ => 0,
        }
    }

    /// A session file written before mixed-role fan-outs (its requests `{role, count}`) imports
    /// and replays to the state today's build reaches.
    #[test]
    fn a_file_with_the_older_one_role_fanout_request_imports_unchanged() {
        let s = demo_run();
        let file = export::to_file(&Session::of_kind(s.clone()), 99);
        let mut value: Value = serde_json::from_str(&file).unwrap();
        let rewritten = to_one_role_requests(&mut value["events"]);
        assert!(
            rewritten >= 2,
            "the demo's fan-out request, raw and applied: {rewritten}"
        );
        let events = serde_json::to_string(&value["events"]).unwrap();
        assert!(events.contains(r#"\"count\": 2"#) && events.contains(r#""count":2"#));
        value["checksum"] = json!(export::checksum_of_text(&events));
        let imported = export::from_file(&value.to_string()).expect("the older file imports");
        let Some(back) = imported.as_kind::<ReviewState>() else {
            panic!("a review session")
        };
        assert_eq!(back.state().record.fanouts, s.state().record.fanouts);
        assert_eq!(
            back.state().record.answers.len(),
            s.state().record.answers.len()
        );
        assert_eq!(back.status(), s.status());
    }

    /// The verdict the `k`th reviewing call gives, from the case's choices.
    fn steer(choices: &[u8], k: usize, step: ReviewStep, answer: &mut Value) {
        let pick = |options: &[&str]| {
            options[choices[k % choices.len()] as usize % options.len()].to_string()
        };
        let data = &mut answer["data"];
        match step {
            ReviewStep::Qa => {
                data["qa_result"]["verdict"] = json!(pick(&[
                    "pass",
                    "needs_revision",
                    "needs_more_evidence",
                    "blocked"
                ]))
            }
            ReviewStep::Critic => {
                data["critique_result"]["verdict"] =
                    json!(pick(&["acceptable", "needs_revision", "unclear"]))
            }
            _ => {}
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// Whatever QA and the critic say, every artifact the runtime writes passes `004`'s
        /// checker (the fold refuses to write one that does not, so the run also never fails).
        #[test]
        fn every_artifact_the_runtime_writes_passes_its_checker(
            choices in proptest::collection::vec(0u8..8, 1..6),
            fanout_max in 1u32..4,
        ) {
            let mut config = demo::config(model(), "run-prop");
            config.fanout_max = fanout_max;
            let mut s = ReviewSession::new(config, 0).unwrap();
            let mut now = 1;
            let k = std::cell::Cell::new(0usize);
            play_with(&mut s, |st, c| {
                let mut reply = st.demo_answer(&c.call, &c.envelope);
                if matches!(ReviewState::step_of(c.call.step), ReviewStep::Qa | ReviewStep::Critic) {
                    let mut v: Value = serde_json::from_str(&reply.text).unwrap();
                    steer(&choices, k.get(), ReviewState::step_of(c.call.step), &mut v);
                    k.set(k.get() + 1);
                    reply.text = v.to_string();
                }
                reply
            }, &mut now, 80).unwrap();
            for a in written(s.state()) {
                prop_assert!(check_artifact(&a, Some("run-prop")).is_ok(), "{a:#}");
            }
        }
    }
}
