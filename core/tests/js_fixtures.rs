//! The fixture the JS module's dialectic and meeting functions are played against
//! (`tests/core-js/kinds.test.mjs`): cases built and judged here by the native core — a
//! dialectic's config checks, each phase's answers (valid examples and broken ones, the
//! person's schema under `result`), 002's three documents, an orchestrator's decisions under the
//! phase policy, contributions and minutes — written to `core/tests/fixtures/kinds.json` with
//! the verdict each must get. The wasm build must give the same. `UPDATE_FIXTURES=1` rewrites
//! the file; otherwise this test fails when it is not current.

#![allow(clippy::disallowed_methods)] // the test reads and (on request) writes its own fixture

use std::fs;
use std::path::Path;

use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::dialectic::answer::{self, Rules};
use roundtable_core::protocol::dialectic::prompt;
use roundtable_core::protocol::dialectic::{
    DialecticConfig, DialecticSession, DialecticStep, Mode, ResponseStyle,
};
use roundtable_core::protocol::meeting::answer::{
    check_contribution, check_decision, check_minutes,
};
use roundtable_core::protocol::meeting::{phase_policy, Phase};
use roundtable_core::validate::{self, Options, Violation};
use serde_json::{json, Value};

fn model() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

fn verdict<T: serde::Serialize>(r: Result<T, Vec<Violation>>) -> Value {
    match r {
        Ok(answer) => json!({"ok": true, "answer": answer}),
        Err(errors) => {
            json!({"ok": false, "paths": errors.iter().map(|e| e.path.clone()).collect::<Vec<_>>()})
        }
    }
}

fn person_schema() -> Value {
    json!({
        "$defs": {"Reason": {"type": "object", "properties": {"text": {"type": "string", "minLength": 3}, "weight": {"type": "number", "minimum": 0, "maximum": 1}}, "required": ["text"]}},
        "type": "object",
        "properties": {
            "verdict": {"enum": ["adopt", "trial", "reject"]},
            "reasons": {"type": "array", "items": {"$ref": "#/$defs/Reason"}, "minItems": 1},
            "decided": {"type": "string", "format": "date"}
        },
        "required": ["verdict", "reasons"],
        "additionalProperties": false
    })
}

fn configs() -> Vec<(String, DialecticConfig)> {
    let mut out = Vec::new();
    for (style, mode, council) in [
        (ResponseStyle::Sections, Mode::Workflow, true),
        (ResponseStyle::BulletPoints, Mode::Workflow, false),
        (ResponseStyle::Conversational, Mode::SingleShot, true),
        (ResponseStyle::Json, Mode::Workflow, true),
        (ResponseStyle::Json, Mode::SingleShot, false),
    ] {
        let mut c = DialecticConfig::standard(
            "Should a small software company move to a four-day work week?",
            style,
            mode,
            council,
            model(),
        );
        if style == ResponseStyle::Json {
            c.response_schema = Some(person_schema());
            c.sources = vec![roundtable_core::protocol::dialectic::Source {
                title: "Trial report, 2024".into(),
                text: "Output per person held steady in 61 companies over six months.".into(),
            }];
        }
        out.push((format!("{}-{:?}-{council}", style.name(), mode), c));
    }
    out
}

fn dialectic_cases() -> Vec<Value> {
    let mut cases = Vec::new();
    for (name, config) in configs() {
        let s = DialecticSession::new(config.clone(), 0).unwrap();
        let config_json = serde_json::to_value(&config).unwrap();
        cases.push(json!({"fn": "checkDialecticConfig", "name": name, "config": config_json, "expect": {"ok": true}}));
        // The documents of two dialectics (one with the person's schema): every format.
        let formats: &[&str] = if name.starts_with("sections") || name.starts_with("json-Workflow")
        {
            &["workflow", "single_prompt", "single_shot"]
        } else {
            &[]
        };
        for format in formats {
            let doc = match *format {
                "workflow" => s.state().workflow_document(),
                "single_prompt" => s.state().single_prompt_document(),
                _ => s.state().single_shot_document(),
            };
            cases.push(json!({"fn": "dialecticDocument", "name": name, "config": config_json, "format": format, "expect": doc}));
        }
        let rules = Rules {
            style: config.response_style,
            schema: config
                .response_schema
                .as_ref()
                .map(|v| validate::compile_schema(v).unwrap()),
        };
        let steps: &[DialecticStep] = match config.mode {
            Mode::Workflow => &[
                DialecticStep::Thesis,
                DialecticStep::Antithesis,
                DialecticStep::Synthesis,
            ],
            Mode::SingleShot => &[DialecticStep::SingleShot],
        };
        for step in steps {
            let mut env = prompt::envelope(s.state(), &config.thesis.id);
            env.step = *step;
            let example = prompt::example_json(*step, &env);
            let mut broken: Value = serde_json::from_str(&example).unwrap();
            broken.as_object_mut().unwrap().remove("assumptions");
            broken["schema_version"] = json!(2);
            if broken.get("result").is_some() {
                broken["result"]["verdict"] = json!("maybe");
                broken["result"]["reasons"] = json!([{"text": "ok", "weight": 2}]);
                broken["result"]["decided"] = json!("2024-02-30");
            }
            for raw in [format!("```json\n{example}\n```"), broken.to_string()] {
                let mut warnings = Vec::new();
                let options = Options::default();
                let expect = match step {
                    DialecticStep::Thesis => {
                        verdict(answer::check_thesis(&raw, options, &mut warnings))
                    }
                    DialecticStep::Antithesis => {
                        verdict(answer::check_antithesis(&raw, options, &mut warnings))
                    }
                    DialecticStep::Synthesis => {
                        verdict(answer::check_synthesis(&raw, options, rules, &mut warnings))
                    }
                    DialecticStep::SingleShot => verdict(answer::check_single_shot(
                        &raw,
                        options,
                        rules,
                        &mut warnings,
                    )),
                };
                let step_name = serde_json::to_value(step).unwrap();
                cases.push(json!({"fn": "checkDialecticAnswer", "name": name, "config": config_json, "step": step_name, "raw": raw, "expect": expect}));
            }
        }
    }
    // A config refused: a remote $ref and a lookahead in the person's schema, and no critic.
    let mut bad = configs().remove(3).1;
    bad.response_schema = Some(
        json!({"properties": {"a": {"$ref": "https://example.com/a.json"}, "b": {"type": "string", "pattern": "(?=x)"}}}),
    );
    bad.critics.truncate(1);
    let errors = bad.check().unwrap_err();
    let expect: Vec<Value> = errors
        .0
        .iter()
        .map(|e| match e {
            roundtable_core::protocol::dialectic::DialecticConfigError::Schema {
                pointer, ..
            } => {
                json!({"message": e.to_string(), "pointer": pointer})
            }
            e => json!({"message": e.to_string()}),
        })
        .collect();
    cases.push(json!({"fn": "checkDialecticConfig", "name": "refused", "config": bad, "expect": {"ok": false, "errors": expect}}));
    cases
}

fn meeting_cases() -> Vec<Value> {
    let attendees = ["orchestrator-1", "engineer-001", "designer-002"];
    let mut cases = Vec::new();
    let decisions = [
        (
            r#"{"decision": "continue", "next_agent_id": "engineer-001", "rationale": "Engineer has expertise on schema design"}"#,
            Phase::OptionGeneration,
            1,
        ),
        (
            r#"{"decision": "continue", "next_agent_id": "engineer-001", "rationale": "One more turn."}"#,
            Phase::OptionGeneration,
            4,
        ),
        (
            r#"{"decision": "continue", "next_agent_id": "nobody", "rationale": "Who?"}"#,
            Phase::Evaluation,
            0,
        ),
        (
            r#"{"decision": "change_phase", "new_phase": "Evaluation", "rationale": "Sufficient options gathered; begin trade-off analysis"}"#,
            Phase::OptionGeneration,
            2,
        ),
        (
            r#"{"decision": "change_phase", "new_phase": "Conclusion", "rationale": "Skip ahead."}"#,
            Phase::OptionGeneration,
            2,
        ),
        (
            r#"{"decision": "change_phase", "new_phase": "Retrospective", "rationale": "A phase 001 does not have."}"#,
            Phase::OptionGeneration,
            2,
        ),
        (
            r#"{"decision": "end_meeting", "end_reason": "Consensus reached on option B", "rationale": "Decision made with action items defined"}"#,
            Phase::Conclusion,
            1,
        ),
        (
            r#"{"decision": "end_meeting", "end_reason": "Tired.", "rationale": "Too early."}"#,
            Phase::Evaluation,
            1,
        ),
        (
            r#"{"decision": "end_meeting", "rationale": "No reason given."}"#,
            Phase::Conclusion,
            1,
        ),
        (
            "Sure:\n```json\n{\"decision\": \"adjourn\"}\n```",
            Phase::Decision,
            0,
        ),
    ];
    for (raw, phase, turns_used) in decisions {
        let mut warnings = Vec::new();
        let checked =
            check_decision(raw, Options::default(), &attendees, &mut warnings).and_then(|d| {
                let broken = phase_policy(&d, phase, turns_used >= 4, 4);
                if broken.is_empty() {
                    Ok(d)
                } else {
                    Err(broken)
                }
            });
        cases.push(json!({"fn": "checkMeetingDecision", "raw": raw, "context": {"attendees": attendees, "phase": phase, "turnsUsed": turns_used, "maxTurnsPerPhase": 4}, "expect": verdict(checked)}));
    }
    for raw in [
        r#"{"contribution": "We could keep the schema flat and add a version field for later changes."}"#,
        r#"{"contribution": "Yes."}"#,
        r#"{"text": "A field the shape does not have."}"#,
    ] {
        let mut warnings = Vec::new();
        cases.push(json!({"fn": "checkMeetingContribution", "raw": raw, "expect": verdict(check_contribution(raw, Options::default(), &mut warnings))}));
    }
    for raw in [
        r#"{"summary": "The team weighed three schema designs and chose the flat one with a version field.", "decisions": ["Flat schema with a version field."], "action_items": [{"owner": "engineer-001", "task": "Write the schema.", "due": "Friday"}], "open_questions": []}"#,
        r#"{"summary": "Short.", "decisions": [], "action_items": [{"owner": "someone-else", "task": "Write it."}], "open_questions": []}"#,
    ] {
        let mut warnings = Vec::new();
        cases.push(json!({"fn": "checkMeetingMinutes", "raw": raw, "owners": attendees, "expect": verdict(check_minutes(raw, Options::default(), &attendees, &mut warnings))}));
    }
    cases
}

#[test]
fn the_kinds_fixture_for_the_js_module_is_current() {
    let mut cases = dialectic_cases();
    cases.extend(meeting_cases());
    // Both verdicts, for every function.
    for f in [
        "checkDialecticAnswer",
        "checkMeetingDecision",
        "checkMeetingContribution",
        "checkMeetingMinutes",
    ] {
        let mine: Vec<&Value> = cases.iter().filter(|c| c["fn"] == f).collect();
        assert!(
            mine.iter().any(|c| c["expect"]["ok"] == true),
            "{f}: a valid case"
        );
        assert!(
            mine.iter().any(|c| c["expect"]["ok"] == false),
            "{f}: a refused case"
        );
    }
    let text = serde_json::to_string_pretty(&json!({"cases": cases})).unwrap() + "\n";
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kinds.json");
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        fs::write(&file, &text).unwrap();
    }
    let committed = fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == text,
        "core/tests/fixtures/kinds.json is not current: run with UPDATE_FIXTURES=1"
    );
}
