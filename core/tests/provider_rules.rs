//! Every schema of every kind, in every family's form, judged by that provider's published rules
//! (`provider_rules`): the team's seven steps, the meeting's three, the dialectic's four,
//! autocoding's two and the review loop's seven as committed, and the team's steps narrowed to the ids of a grown 1,000-product session (the
//! enums a real call carries).
#![allow(clippy::disallowed_methods)] // tests read the committed schema files

#[path = "../examples/bench_common/mod.rs"]
mod bench_common;

use std::collections::BTreeMap;

use roundtable_core::engine::Protocol;
use roundtable_core::protocol::review::answer::Contract;
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::{id_choices, TeamState};
use roundtable_core::provider_rules::{self, Family};
use roundtable_core::provider_schema::{self, narrow};
use serde_json::Value;

/// Every answer schema's name: the team's steps, then the meeting's, the dialectic's,
/// autocoding's and the review loop's answers.
fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = Step::ALL.iter().map(|s| s.wire_name()).collect();
    names.extend([
        "meeting_contribution",
        "meeting_decision",
        "meeting_minutes",
        "dialectic_thesis",
        "dialectic_antithesis",
        "dialectic_synthesis",
        "dialectic_single_shot",
        "autocoding_player",
        "autocoding_coach",
    ]);
    names.extend(Contract::ALL.iter().map(|c| c.schema_name()));
    names
}

fn plain_schema(name: &str) -> Value {
    let path = format!("{}/schemas/{name}.plain.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The team steps' schemas narrowed for the calls of a 1,000-product session: per step, the call
/// whose choices name the most ids.
fn narrowed_big_session() -> BTreeMap<&'static str, Value> {
    let mut widest: BTreeMap<&'static str, (usize, Value)> = BTreeMap::new();
    bench_common::grow(1000, true, Some(3), |s, calls| {
        for call in calls {
            let choices = id_choices(s.state(), &call.member, TeamState::step_of(call.step));
            let size: usize = choices.iter().map(|c| c.ids.len()).sum();
            let name = TeamState::step_of(call.step).wire_name();
            if widest.get(name).is_none_or(|(n, _)| *n < size) {
                widest.insert(name, (size, narrow(&plain_schema(name), &choices)));
            }
        }
        bench_common::Flow::Go
    });
    widest.into_iter().map(|(k, (_, v))| (k, v)).collect()
}

/// Every schema under test: `(label, plain or narrowed schema)`.
fn every_schema() -> Vec<(String, Value)> {
    let mut all: Vec<(String, Value)> = names()
        .into_iter()
        .map(|n| (n.to_string(), plain_schema(n)))
        .collect();
    let big = narrowed_big_session();
    assert_eq!(
        big.len(),
        Step::ALL.len(),
        "every step was called: {:?}",
        big.keys()
    );
    all.extend(
        big.into_iter()
            .map(|(n, s)| (format!("{n} (1,000 products)"), s)),
    );
    all
}

#[test]
fn every_schema_of_every_kind_meets_every_familys_published_rules() {
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    // `ROUNDTABLE_GRAMMAR_DUMP=<dir>` writes every grammar form there, for the check with
    // llama.cpp's own converter (scripts/check-grammars.py, run by scripts/test-all.sh).
    let dump = std::env::var_os("ROUNDTABLE_GRAMMAR_DUMP").map(std::path::PathBuf::from);
    for (label, schema) in every_schema() {
        for family in Family::ALL {
            let fitted = provider_schema::for_family(family, &schema);
            let sent = fitted.schema;
            if fitted.form == roundtable_core::engine::SchemaForm::JsonMode {
                failures.push(format!("{label} [{}]: not enforced at all", family.name()));
            } else if fitted.form != roundtable_core::engine::SchemaForm::Full {
                counts.push(format!("{label} [{}]: {:?}", family.name(), fitted.form));
            }
            if let (Some(dir), Family::Grammar) = (&dump, family) {
                let file: String = label
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                std::fs::create_dir_all(dir).unwrap();
                std::fs::write(dir.join(format!("{file}.json")), sent.to_string()).unwrap();
            }
            for b in provider_rules::check(family, &sent) {
                failures.push(format!("{label} [{}] {b}", family.name()));
            }
            if family == Family::Anthropic {
                counts.push(format!(
                    "{label}: {:?}",
                    provider_rules::optional_and_union_counts(&sent)
                ));
            }
        }
    }
    eprintln!(
        "Anthropic (optional, union) counts, and the forms not sent whole:\n{}",
        counts.join("\n")
    );
    let shown: Vec<&String> = failures.iter().take(60).collect();
    assert!(
        failures.is_empty(),
        "{} rule breaks:\n{}",
        failures.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// A map in an answer as a family's form spells it: strict families send `{key, value}` pairs.
fn as_sent(family: Family, map: &serde_json::Map<String, Value>) -> Value {
    match family {
        Family::OpenaiStrict | Family::Anthropic => Value::Array(
            map.iter()
                .map(|(k, v)| serde_json::json!({ "key": k, "value": v }))
                .collect(),
        ),
        Family::Gemini | Family::Grammar => Value::Object(map.clone()),
    }
}

/// The keys a family's form lets an answer use in the map at `/properties/<name>` (an enum of
/// pair keys, or the object's properties); `None` when any key goes.
fn keys_allowed(form: &Value, name: &str) -> Option<Vec<String>> {
    let map = &form["properties"][name];
    let listed = map["items"]["properties"]["key"]["enum"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .or_else(|| {
            map["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
        });
    listed
}

#[test]
fn bootstrap_personas_and_domains_survive_every_familys_form() {
    use roundtable_core::engine::{ModelRef, Outcome};
    use roundtable_core::protocol::team::{TeamConfig, TeamSession};
    let model = ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    };
    let config = TeamConfig::standard("A short guide to composting.", 3, true, false, model);
    for family in Family::ALL {
        let mut s = TeamSession::new(config.clone(), 0).unwrap();
        s.start(1).unwrap();
        let call = s.next_calls().into_iter().next().unwrap();
        assert_eq!(call.step, "bootstrap");
        let plain = plain_schema("bootstrap");
        let fitted = provider_schema::for_family(family, &narrow(&plain, &call.ids));
        assert_eq!(
            fitted.form,
            roundtable_core::engine::SchemaForm::Full,
            "{family:?}"
        );
        assert!(provider_rules::check(family, &fitted.schema).is_empty());
        // A persona for every member, a domain for every operative, in the family's spelling.
        let mut answer = serde_json::json!({
            "responseType": "final_output",
            "thinking": {"interpretation": "A guide.", "scopeDecisions": "Home composting only."},
            "mission": "Write a short guide to composting.",
            "objectives": "Clear steps.",
            "constraints": "Two pages.",
            "initialProducts": [{"name": "Guide", "type": "Content", "dod": "Covers the steps.", "owner": "operative-1"}],
        });
        let personas: serde_json::Map<String, Value> = s
            .state()
            .members
            .iter()
            .map(|m| {
                (
                    m.id.clone(),
                    Value::from(format!("The {} of the guide.", m.id)),
                )
            })
            .collect();
        let domains: serde_json::Map<String, Value> = s
            .state()
            .workers()
            .iter()
            .map(|id| {
                let domain = serde_json::json!({"responsibility": format!("{id}'s part"), "area": "Composting"});
                (id.to_string(), domain)
            })
            .collect();
        assert!(domains.len() == 3 && personas.len() > 3, "{personas:?}");
        for (name, map) in [("personas", &personas), ("operativeDomains", &domains)] {
            let allowed = keys_allowed(&fitted.schema, name).expect("the keys are listed");
            for key in map.keys() {
                assert!(
                    allowed.contains(key),
                    "{family:?} {name}: {key} not in {allowed:?}"
                );
            }
            answer[name] = as_sent(family, map);
        }
        let sent = answer.to_string();
        // As the runner does: judged in the plain shape, kept as the model sent it.
        let read_as = provider_schema::plain_answer(&plain, &sent);
        assert_eq!(
            read_as.is_some(),
            matches!(family, Family::OpenaiStrict | Family::Anthropic),
            "{family:?}: only the pair forms need re-spelling"
        );
        assert_eq!(
            s.submit_read_as(&call.id, &sent, read_as.as_deref(), None, 2)
                .unwrap(),
            Outcome::Applied
        );
        let record = s.state().core.call(&call.id).unwrap();
        assert_eq!(
            record.raw_answer.as_deref(),
            Some(sent.as_str()),
            "{family:?}: the transcript keeps the answer verbatim"
        );
        for m in &s.state().members {
            assert_eq!(
                m.persona,
                format!("The {} of the guide.", m.id),
                "{family:?}"
            );
        }
        assert_eq!(s.state().domains.len(), 3, "{family:?}");
    }
}

#[test]
fn the_form_a_call_was_sent_is_on_its_record_and_in_the_transcript() {
    use roundtable_core::engine::{ModelRef, SchemaForm, Usage};
    use roundtable_core::protocol::team::TeamConfig;
    use roundtable_core::session::Session;
    let model = ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    };
    let mut s =
        Session::new_team(TeamConfig::standard("A guide.", 2, false, false, model), 0).unwrap();
    s.start(1).unwrap();
    let call = s.next_calls().into_iter().next().unwrap();
    let usage = Usage {
        input_tokens: 100,
        output_tokens: 20,
        schema_form: Some(SchemaForm::Trimmed),
        ..Usage::default()
    };
    s.submit(&call.id, &call.demo.unwrap().text, Some(usage), 2)
        .unwrap();
    let view = s.call_view(&call.id).unwrap();
    assert_eq!(view.schema_form, Some(SchemaForm::Trimmed.words()));
    assert!(view.schema_form.unwrap().contains("trimmed"));
    // Kept in the log: a replay reads it back, and a log written before it existed still reads.
    let events: Vec<String> = s
        .events_json(0)
        .unwrap()
        .into_iter()
        .map(|(_, e)| e)
        .collect();
    assert!(events
        .iter()
        .any(|e| e.contains(r#""schemaForm":"trimmed""#)));
    let replayed = Session::replay_stored(&events).unwrap();
    assert_eq!(
        replayed.call_view(&call.id).unwrap().schema_form,
        view.schema_form
    );
    let old: Vec<String> = events
        .iter()
        .map(|e| e.replace(r#","schemaForm":"trimmed""#, ""))
        .collect();
    assert!(!old.iter().any(|e| e.contains("schemaForm")));
    let replayed = Session::replay_stored(&old).unwrap();
    assert_eq!(replayed.call_view(&call.id).unwrap().schema_form, None);
}

/// OpenAI gets a tree operation as one object with every branch's fields, and every optional
/// field as nullable; an answer to it names them all, the unused ones `null`. Turned into the
/// plain shape (a `null` the plain schema refuses is left out, and so is every `null` field of a
/// branch not taken), the validator takes it without a warning: a repair never asks the model to
/// remove a field its own schema requires.
#[test]
fn a_tree_operation_in_openais_one_object_form_validates() {
    use roundtable_core::protocol::team::check::validate_step;
    let ops = serde_json::json!([
        {"action": "ADD", "newId": "new-1", "parentId": "p1", "productId": null, "reason": null,
         "product": {"name": "Agenda", "type": "Content", "dod": "Covers the day.", "description": null, "assignee": null}},
        {"action": "UPDATE", "newId": null, "parentId": null, "productId": "p2", "reason": "Sharper.",
         "product": {"name": "Exercises", "type": null, "dod": null, "description": null, "assignee": null}},
        {"action": "REMOVE", "newId": null, "parentId": null, "productId": "p3", "reason": "Out of scope.", "product": null},
    ]);
    let answer = serde_json::json!({
        "responseType": "final_output",
        "thinking": {"roundStrategy": "a", "acceptanceRationale": "c"},
        "treeOperations": ops,
        "contextRequests": null, "halt": null, "acceptance": null, "assignments": null,
        "bootstrapOverrides": null, "chairVersions": null, "remarks": null,
    });
    let form = provider_schema::for_family(Family::OpenaiStrict, &plain_schema("plan_assign"));
    assert!(form.schema["$defs"]["TreeOperation"].get("anyOf").is_none());
    let plain = plain_schema("plan_assign");
    let text = provider_schema::plain_answer(&plain, &answer.to_string()).expect("nulls left out");
    let back: Value = serde_json::from_str(&text).unwrap();
    assert!(
        back.get("acceptance").is_none() && back.get("remarks").is_none(),
        "{back}"
    );
    assert!(
        back.get("contextRequests").is_none() && back.get("halt").is_none(),
        "the other branches' fields are gone: {back}"
    );
    assert_eq!(
        back["treeOperations"][0].get("productId"),
        None,
        "an ADD keeps no UPDATE field"
    );
    match validate_step(Step::PlanAssign, &text, None) {
        Ok(v) => assert!(v.warnings.is_empty(), "{:?}", v.warnings),
        Err(report) => panic!("{report:?}"),
    }
    // The same answer padded past what any kind reads is not parsed to be re-spelled: the engine
    // refuses it by its length unread.
    let max = roundtable_core::engine::long_answer::ANSWER_BYTES_MAX;
    let mut padded = answer.clone();
    padded["thinking"]["roundStrategy"] = Value::String("a".repeat(max));
    assert_eq!(
        provider_schema::plain_answer(&plain, &padded.to_string()),
        None
    );
}
