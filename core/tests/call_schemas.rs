//! Per-call schemas (spec `003`: prefer enumerated ids): every call names the ids each place of
//! its answer may hold, and `provider_schema::narrow` writes them into the step's schema as
//! enums. Played on demo sessions of both kinds: every id a valid demo answer names is among the
//! call's choices (the choices are never too narrow), each choice lands as an enum where the
//! schema has that place, and the shared definitions stay untouched.
#![allow(clippy::disallowed_methods)] // tests read the committed schema files

use roundtable_core::engine::{IdChoice, ModelCall, ModelRef, Outcome, Protocol, Status};
use roundtable_core::protocol::meeting::{MeetingConfig, MeetingSession};
use roundtable_core::protocol::team::{TeamConfig, TeamSession};
use roundtable_core::provider_schema::{self, narrow};
use serde_json::Value;

fn demo() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

fn plain_schema(step: &str) -> Value {
    let path = format!("{}/schemas/{step}.plain.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every string the answer holds at `path` (`*` for array items).
fn values_at<'a>(v: &'a Value, path: &[&str], out: &mut Vec<&'a str>) {
    match path.split_first() {
        None => out.extend(v.as_str()),
        Some((&"*", rest)) => {
            for item in v.as_array().into_iter().flatten() {
                values_at(item, rest, out);
            }
        }
        Some((key, rest)) => {
            if let Some(next) = v.get(*key) {
                values_at(next, rest, out);
            }
        }
    }
}

/// The enums the narrowed schema holds at `path`, in every branch that has the place.
fn enums_at(schema: &Value, node: &Value, path: &[&str], out: &mut Vec<Vec<Value>>) {
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(r) => &schema["$defs"][r.trim_start_matches("#/$defs/")],
        None => node,
    };
    for key in ["oneOf", "anyOf"] {
        for b in node
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            enums_at(schema, b, path, out);
        }
    }
    match path.split_first() {
        None => out.extend(node.get("enum").and_then(Value::as_array).cloned()),
        Some((&"*", rest)) => {
            if let Some(items) = node.get("items") {
                enums_at(schema, items, rest, out);
            }
        }
        Some((key, rest)) => {
            if let Some(next) = node.get("properties").and_then(|p| p.get(*key)) {
                enums_at(schema, next, rest, out);
            }
        }
    }
}

/// Checks one call against its demo answer; returns how many choices landed as enums.
fn check_call(call: &ModelCall, failures: &mut Vec<String>) -> usize {
    let answer: Value = match serde_json::from_str(&call.demo.as_ref().unwrap().text) {
        Ok(v) => v,
        Err(_) => return 0, // the demo's deliberately broken answers
    };
    let plain = plain_schema(call.step);
    let narrowed = narrow(&plain, &call.ids);
    for (name, def) in plain["$defs"].as_object().into_iter().flatten() {
        assert_eq!(
            &narrowed["$defs"][name], def,
            "{}: {name} untouched",
            call.id
        );
    }
    let mut landed = 0;
    for IdChoice { at, ids } in &call.ids {
        let path: Vec<&str> = at.split('/').collect();
        let mut found = Vec::new();
        enums_at(&narrowed, &narrowed, &path, &mut found);
        if !ids.is_empty() && !found.is_empty() {
            landed += 1;
            for e in &found {
                let strings: Vec<&str> = e.iter().filter_map(Value::as_str).collect();
                if strings != ids.iter().map(String::as_str).collect::<Vec<_>>() {
                    failures.push(format!("{} {at}: enum {e:?} is not {ids:?}", call.id));
                }
            }
        }
        let mut named = Vec::new();
        values_at(&answer, &path, &mut named);
        for id in named {
            // An answer may name a new-N of its own tree operations where the choice is open.
            if !ids.is_empty() && !ids.iter().any(|i| i == id) {
                failures.push(format!(
                    "{} ({}) {at}: the demo names {id}, not in {ids:?}",
                    call.id, call.step
                ));
            }
        }
    }
    landed
}

#[test]
fn team_calls_name_their_ids_and_valid_answers_stay_inside_them() {
    let config = TeamConfig::standard(
        "Plan a half-day workshop for twenty people on customer interviews.",
        3,
        true,
        true,
        demo(),
    );
    let mut s = TeamSession::new(config, 0).unwrap();
    let mut now = 1;
    s.start(now).unwrap();
    let (mut failures, mut landed, mut steps) = (Vec::new(), 0, std::collections::BTreeSet::new());
    for _ in 0..300 {
        now += 1;
        match s.status() {
            Status::Running => {}
            _ if s.status().word() == "awaiting_person" => {
                s.answer_halt("Half a day, twenty people.", now).unwrap();
                continue;
            }
            _ => break,
        }
        let call = s.next_calls().into_iter().next().expect("a call is due");
        let mut found = Vec::new();
        landed += check_call(&call, &mut found);
        steps.insert(call.step);
        let text = call.demo.clone().unwrap().text;
        // The demo's deliberate mistakes (refused, then repaired) may name anything.
        if s.submit(&call.id, &text, None, now).unwrap() == Outcome::Applied {
            failures.extend(found);
        }
    }
    assert_eq!(s.status(), &Status::Done);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert!(steps.len() >= 6, "{steps:?}");
    assert!(landed >= 40, "choices land as enums ({landed})");
}

#[test]
fn a_write_call_may_name_only_its_assigned_products() {
    let config = TeamConfig::standard("A short guide.", 2, false, false, demo());
    let mut s = TeamSession::new(config, 0).unwrap();
    let mut now = 1;
    s.start(now).unwrap();
    let call = loop {
        now += 1;
        if s.status().word() == "awaiting_person" {
            s.answer_halt("Go ahead.", now).unwrap();
            continue;
        }
        let call = s.next_calls().into_iter().next().unwrap();
        if call.step == "write" {
            break call;
        }
        s.submit(&call.id, &call.demo.unwrap().text, None, now)
            .unwrap();
    };
    let assigned: Vec<String> = s
        .state()
        .assignments_of_round(s.state().core.round)
        .filter(|a| a.assignee == call.member)
        .map(|a| a.product_id.clone())
        .collect();
    assert!(!assigned.is_empty());
    let narrowed = narrow(&plain_schema("write"), &call.ids);
    let mut found = Vec::new();
    enums_at(
        &narrowed,
        &narrowed,
        &["versions", "*", "productId"],
        &mut found,
    );
    let expected: Vec<Value> = assigned.iter().map(|p| Value::from(p.as_str())).collect();
    assert_eq!(found, vec![expected]);
    // Every provider's form keeps the enum, and every `$ref` still names a definition.
    for (provider, form) in [
        ("openai", provider_schema::openai_strict(&narrowed)),
        ("anthropic", provider_schema::anthropic(&narrowed)),
        ("gemini", provider_schema::gemini(&narrowed)),
        ("grammar", provider_schema::grammar(&narrowed)),
    ] {
        let text = form.to_string();
        let listed = serde_json::to_string(&assigned).unwrap();
        assert!(
            text.contains(&format!("\"enum\":{listed}")),
            "{provider}: {text}"
        );
        for (i, _) in text.match_indices("\"$ref\":\"#/$defs/") {
            let name: String = text[i + 16..].chars().take_while(|c| *c != '"').collect();
            assert!(
                form["$defs"].get(&name).is_some(),
                "{provider}: $ref to {name}"
            );
        }
    }
    // A nullable place keeps null among its values.
    let mut versions = Vec::new();
    enums_at(
        &narrowed,
        &narrowed,
        &["collabs", "*", "refersToVersion"],
        &mut versions,
    );
    assert!(
        versions.iter().all(|e| e.last() == Some(&Value::Null)),
        "{versions:?}"
    );
}

#[test]
fn meeting_decisions_name_only_participants() {
    let config = MeetingConfig::standard(
        "Pick a database for the notes app.",
        &[
            ("engineer-1", "Ana", "Backend engineer"),
            ("designer-1", "Bo", "Product designer"),
        ],
        demo(),
    );
    let mut s = MeetingSession::new(config, 0).unwrap();
    let mut now = 1;
    s.start(now).unwrap();
    let (mut failures, mut landed) = (Vec::new(), 0);
    for _ in 0..200 {
        now += 1;
        if *s.status() != Status::Running {
            break;
        }
        let call = s.next_calls().into_iter().next().expect("a call is due");
        let mut found = Vec::new();
        landed += check_call(&call, &mut found);
        let text = call.demo.clone().unwrap().text;
        // The demo's deliberately invalid decisions fall back; they may name anyone.
        if s.submit(&call.id, &text, None, now).unwrap() == Outcome::Applied {
            failures.extend(found);
        }
    }
    assert_eq!(s.status(), &Status::Done);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert!(landed >= 5, "choices land as enums ({landed})");
    let _ = <roundtable_core::protocol::meeting::MeetingState as Protocol>::KIND;
}

#[test]
fn a_bootstrap_call_names_the_keys_of_its_maps() {
    let config = TeamConfig::standard("A short guide.", 3, true, false, demo());
    let mut s = TeamSession::new(config, 0).unwrap();
    s.start(1).unwrap();
    let call = s.next_calls().into_iter().next().unwrap();
    assert_eq!(call.step, "bootstrap");
    let narrowed = narrow(&plain_schema("bootstrap"), &call.ids);
    // Personas are for every member, domains for the operatives: the keys a strict family's
    // pair list may name, and the properties Gemini's and a grammar's map may have.
    let keys = |map: &str| -> Vec<String> {
        let names = &narrowed["$defs"]
            .as_object()
            .unwrap()
            .iter()
            .find(|(n, _)| n.starts_with("BootstrapOutput__"))
            .expect("the output's definition is narrowed on a copy")
            .1["properties"][map]["propertyNames"]["enum"];
        serde_json::from_value(names.clone()).unwrap()
    };
    let members: Vec<String> = s.state().members.iter().map(|m| m.id.clone()).collect();
    assert_eq!(keys("personas"), members);
    let operatives: Vec<String> = s.state().workers().iter().map(|w| w.to_string()).collect();
    assert_eq!(keys("operativeDomains"), operatives);
    assert_eq!(operatives.len(), 3);
}
