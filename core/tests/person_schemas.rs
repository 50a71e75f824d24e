//! The JSON Schemas people write, as a data-driven corpus (`person_schemas/corpus.json`):
//! what Pydantic, zod-to-json-schema, TypeBox and hand writing produce, each with its verdict
//! when the session is created — accepted (with the notes it gets), or refused with every
//! problem's pointer and reason — and answers with the pointers of their violations. The same
//! corpus runs through ajv in `tests/core-js/person-schema.test.mjs`.

use roundtable_core::engine::{ModelRef, SchemaForm};
use roundtable_core::protocol::dialectic::{
    DialecticConfig, DialecticSession, DialecticStep, Mode, ResponseStyle,
};
use roundtable_core::provider_rules::{self, Family};
use roundtable_core::provider_schema;
use roundtable_core::validate::{self, Options, SCHEMA_DEPTH_MAX};
use serde_json::{json, Value};

/// The corpus, with the generated entries filled in (a pattern past the limit, a schema nested
/// past the depth limit).
pub fn corpus() -> Vec<Value> {
    let text = include_str!("person_schemas/corpus.json");
    let mut entries: Vec<Value> = serde_json::from_str(text).unwrap();
    for e in &mut entries {
        if e["schema"]["pattern"] == "LONG_PATTERN" {
            e["schema"]["pattern"] = json!("a".repeat(1_001));
        }
        if e["schema"] == "DEEP_SCHEMA" {
            let mut schema = json!({"type": "string"});
            for _ in 0..SCHEMA_DEPTH_MAX + 5 {
                schema = json!({"type": "object", "properties": {"a": schema}});
            }
            e["schema"] = schema;
            e["refused"][0]["pointer"] = json!("/properties/a".repeat(SCHEMA_DEPTH_MAX + 1));
        }
    }
    entries
}

#[test]
fn every_schema_gets_its_verdict_and_every_answer_its_pointers() {
    for entry in corpus() {
        let name = entry["name"].as_str().unwrap();
        let compiled = validate::compile_schema(&entry["schema"]);
        if let Some(refused) = entry["refused"].as_array() {
            let problems = compiled.expect_err(name);
            for want in refused {
                let pointer = want["pointer"].as_str().unwrap();
                let says = want["says"].as_str().unwrap();
                assert!(
                    problems
                        .iter()
                        .any(|p| p.pointer == pointer && p.message.contains(says)),
                    "{name}: no problem at {pointer:?} saying {says:?} in {problems:#?}"
                );
            }
            assert_eq!(problems.len(), refused.len(), "{name}: {problems:#?}");
            continue;
        }
        let shape = compiled.unwrap_or_else(|p| panic!("{name}: refused {p:#?}"));
        let notes: Vec<&str> = shape.notes().iter().map(|n| n.pointer.as_str()).collect();
        let want_notes: Vec<&str> = entry["notes"]
            .as_array()
            .map(|n| n.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        assert_eq!(notes, want_notes, "{name}");
        for case in entry["answers"].as_array().unwrap() {
            let raw = serde_json::to_string_pretty(&case["answer"]).unwrap();
            let verdict = validate::check_against_schema(shape, &raw, Options::default());
            // Sorted: the text is written with sorted keys, the corpus in its own order.
            let mut paths: Vec<&str> = verdict.errors.iter().map(|e| e.path.as_str()).collect();
            paths.sort_unstable();
            let mut want: Vec<&str> = case["errors"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            want.sort_unstable();
            assert_eq!(paths, want, "{name}: {raw}\n{:#?}", verdict.errors);
            for e in &verdict.errors {
                assert!(
                    !e.message.is_empty() && !e.expected.is_empty() && !e.hint.is_empty(),
                    "{name}: {e:?}"
                );
            }
        }
    }
}

fn dialectic_with(schema: &Value) -> DialecticSession {
    let model = ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    };
    let mut c = DialecticConfig::standard(
        "Which shape fits?",
        ResponseStyle::Json,
        Mode::Workflow,
        true,
        model,
    );
    c.response_schema = Some(schema.clone());
    DialecticSession::new(c, 0).unwrap()
}

/// The schema a call is sent, with every accepted corpus schema as its `result`, breaks no rule
/// of any provider family: each family is sent its own form, checked by that family's checker,
/// or — where the form still breaks a rule — no schema at all (JSON mode; the validator judges
/// the answer either way). The person's `$defs` travel with it, so every `$ref` still resolves.
#[test]
fn every_accepted_schema_goes_to_every_provider_within_its_rules() {
    for entry in corpus().iter().filter(|e| e["answers"].is_array()) {
        let name = entry["name"].as_str().unwrap();
        let s = dialectic_with(&entry["schema"]);
        for step in [DialecticStep::Synthesis, DialecticStep::SingleShot] {
            let schema = s.state().call_schema(step);
            // Every $ref of the call schema names a place in it.
            let text = schema.to_string();
            for (i, _) in text.match_indices("\"$ref\":\"") {
                let r: String = text[i + 8..].chars().take_while(|c| *c != '"').collect();
                let pointer = r.trim_start_matches('#').replace("%20", " ");
                assert!(
                    schema.pointer(&pointer).is_some(),
                    "{name}: {r} dangles in {schema:#}"
                );
            }
            assert!(
                validate::compile_schema(&schema).is_ok(),
                "{name}: the call schema itself compiles"
            );
            for family in Family::ALL {
                let fitted = provider_schema::for_family(family, &schema);
                let breaks = provider_rules::check(family, &fitted.schema);
                // Every schema of the corpus is enforced by every family, in its form.
                assert_ne!(
                    fitted.form,
                    SchemaForm::JsonMode,
                    "{name} {step:?} [{}]",
                    family.name()
                );
                assert!(
                    breaks.is_empty() || fitted.form == SchemaForm::JsonMode,
                    "{name} {step:?} [{}]: {breaks:?}",
                    family.name()
                );
            }
        }
    }
}

/// The example a prompt shows for `result` meets the person's schema — for every accepted schema
/// of the corpus, or the prompt says it leaves `result` out.
#[test]
fn the_example_of_every_accepted_schema_meets_it() {
    use roundtable_core::protocol::dialectic::example::valid_example;
    let mut without = Vec::new();
    for entry in corpus().into_iter().filter(|e| e["answers"].is_array()) {
        let name = entry["name"].as_str().unwrap().to_string();
        let shape = validate::compile_schema(&entry["schema"]).unwrap();
        match valid_example(&entry["schema"]) {
            Some(example) => {
                let text = example.to_string();
                let v = validate::check_against_schema(shape, &text, Options::default());
                assert!(v.is_ok(), "{name}: {example} {:#?}", v.errors);
            }
            None => without.push(name),
        }
    }
    assert!(without.is_empty(), "no example for: {without:#?}");
}
