//! Spec `002`'s `AutocodingState` as load and save read it, case by case from one data file
//! (`tests/autocoding/states.json`, which the JS API's Node test plays through `autocodingLoad`
//! too): every missing key refused at its own pointer, every rule across fields refused with its
//! pointer and `received` in the terms of `expected`, fields 002 does not name kept and warned
//! about, prototype keys as data, Hegelion's own states. A state that loads saves back to text
//! that loads to the same state and warnings; a state load refuses, save refuses with the same
//! pointers — through the tool (`autocoding_save`) and as a typed state (`AutocodingState::save`).
//! Every case of both files says where its rule is written (`spec`: a line of 002, or DESIGN's
//! reading), and a failing case's message names it.
#![allow(clippy::disallowed_methods)] // the tests read their committed files

use roundtable_core::protocol::autocoding::state::AutocodingState;
use roundtable_core::protocol::autocoding::tools;
use serde_json::Value;

fn fixture() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/autocoding/states.json"
    ))
    .expect("the states file reads");
    serde_json::from_str(&text).expect("the states file is JSON")
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The parent of `pointer` in `root` and the last token.
fn parent<'a>(root: &'a mut Value, pointer: &str) -> (&'a mut Value, String) {
    let mut parts: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let last = parts.pop().expect("a pointer below the root");
    let mut at = root;
    for p in parts {
        at = match at {
            Value::Array(items) => &mut items[p.parse::<usize>().unwrap()],
            Value::Object(map) => map.get_mut(&p).expect("the pointer's parent exists"),
            _ => panic!("{pointer}: not a container"),
        };
    }
    (at, last)
}

/// The case's text: its `text`, or its base with `set` and `remove` applied.
pub fn document(fixture: &Value, case: &Value) -> String {
    if let Some(text) = case["text"].as_str() {
        return text.to_string();
    }
    let mut doc = fixture["bases"][case["from"].as_str().unwrap()].clone();
    for (pointer, value) in case["set"].as_object().into_iter().flatten() {
        let (at, key) = parent(&mut doc, pointer);
        match at {
            Value::Array(items) => {
                let i: usize = key.parse().unwrap();
                if i == items.len() {
                    items.push(value.clone());
                } else {
                    items[i] = value.clone();
                }
            }
            Value::Object(map) => {
                map.insert(key, value.clone());
            }
            _ => panic!("{pointer}: not a container"),
        }
    }
    for pointer in case["remove"].as_array().into_iter().flatten() {
        let (at, key) = parent(&mut doc, pointer.as_str().unwrap());
        at.as_object_mut().unwrap().remove(&key).expect("removed");
    }
    serde_json::to_string_pretty(&doc).unwrap()
}

/// A case's name with where its rule is written (`spec`: `002:<line>` of spec 002, or
/// `DESIGN: Autocoding (002)` for a reading where 002 is silent; several joined by `; `), for
/// every failure's message. A case without a well-formed `spec` fails.
fn case_name(case: &Value) -> String {
    let name = case["name"].as_str().expect("every case has a name");
    let spec = case["spec"]
        .as_str()
        .unwrap_or_else(|| panic!("{name}: no `spec` (the line of 002 its rule comes from)"));
    for part in spec.split("; ") {
        let line = part.strip_prefix("002:").map(str::parse::<u32>);
        assert!(
            matches!(line, Some(Ok(1..=SPEC_002_LINES))) || part == "DESIGN: Autocoding (002)",
            "{name}: `spec` is \"002:<line>\" or \"DESIGN: Autocoding (002)\", not {part:?}"
        );
    }
    format!("{name} [{spec}]")
}

/// The lines of `002_7f80548afeb542a8.txt` (the spec is not in the repository; a line number
/// past its end is a typo).
const SPEC_002_LINES: u32 = 156;

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_state_document_gets_its_verdict_and_pointers() {
    let fixture = fixture();
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() >= 60);
    let mut typed_refusals = 0;
    for case in cases {
        let name = &case_name(case);
        let text = document(&fixture, case);
        let want_errors = strings(&case["errors"]);
        let want_warnings = strings(&case["warnings"]);
        let (errors, warnings, found) = match AutocodingState::load(&text) {
            Ok(loaded) => {
                // Saved, it loads back to the same state with the same warnings.
                let saved = loaded.state.save().expect("a loaded state saves");
                let again = AutocodingState::load(&saved).expect("a saved state loads");
                assert_eq!(again, loaded, "{name}: save then load");
                let tool = tools::save(&serde_json::json!({ "state": loaded.state })).unwrap();
                assert_eq!(tool, saved, "{name}: the tool saves the same text");
                (Vec::new(), loaded.warnings.clone(), loaded.warnings)
            }
            Err(errors) => (errors.clone(), Vec::new(), errors),
        };
        let paths = |v: &[roundtable_core::validate::Violation]| {
            v.iter().map(|v| v.path.clone()).collect::<Vec<_>>()
        };
        assert_eq!(paths(&errors), want_errors, "{name}: errors");
        assert_eq!(paths(&warnings), want_warnings, "{name}: warnings");
        assert_eq!(
            case["verdict"].as_str(),
            Some(if errors.is_empty() {
                "loads"
            } else {
                "refused"
            }),
            "{name}: verdict"
        );
        for (pointer, words) in case["expect"].as_object().into_iter().flatten() {
            let v = found
                .iter()
                .find(|v| &v.path == pointer)
                .unwrap_or_else(|| panic!("{name}: nothing at {pointer}"));
            for field in ["expected", "received"] {
                if let Some(want) = words[field].as_str() {
                    let have = if field == "expected" {
                        &v.expected
                    } else {
                        &v.received
                    };
                    assert_eq!(have, want, "{name}: {field} at {pointer}");
                }
            }
        }
        if errors.is_empty() {
            continue;
        }
        // Save refuses what load refuses, with the same pointers under the tool's `/state`.
        if let Ok(doc) = serde_json::from_str::<Value>(&text) {
            if doc.is_object() {
                let e = tools::save(&serde_json::json!({ "state": doc })).unwrap_err();
                let under: Vec<String> = want_errors.iter().map(|p| format!("/state{p}")).collect();
                assert_eq!(paths(&e.violations), under, "{name}: autocoding_save");
                assert_eq!(e.pointer, under[0], "{name}: the error's pointer");
            }
            // A typed state (serde reads types, not rules: a document with every key and
            // only rules broken) is refused by its own save by the same rules.
            if case.get("remove").is_none() && case.get("text").is_none() {
                if let Ok(typed) = serde_json::from_value::<AutocodingState>(doc) {
                    typed_refusals += 1;
                    assert_eq!(
                        paths(&typed.save().unwrap_err()),
                        want_errors,
                        "{name}: a typed state's save"
                    );
                }
            }
        }
    }
    assert!(
        typed_refusals >= 20,
        "typed states refused by save: {typed_refusals}"
    );
}

// ---- The tools and the `hegelion` entry point: tests/autocoding/tools.json. ----

fn tools_fixture() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/autocoding/tools.json"
    ))
    .expect("the tools file reads");
    serde_json::from_str(&text).expect("the tools file is JSON")
}

/// `$name` as the file's state, `$text:name[:field=value]` as its text (with one field changed).
fn resolve(states: &Value, v: &Value) -> Value {
    match v {
        Value::String(s) if s.starts_with("$text:") => {
            let mut parts = s["$text:".len()..].split(':');
            let mut state = states[parts.next().unwrap()].clone();
            if let Some(change) = parts.next() {
                let (field, value) = change.split_once('=').unwrap();
                state[field] = serde_json::from_str(value).unwrap_or(Value::String(value.into()));
            }
            Value::String(serde_json::to_string_pretty(&state).unwrap())
        }
        Value::String(s) if s.starts_with('$') => states[&s[1..]].clone(),
        Value::Array(items) => Value::Array(items.iter().map(|i| resolve(states, i)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), resolve(states, v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn every_tool_call_answers_or_errs_as_the_file_says() {
    let fixture = tools_fixture();
    let states = &fixture["states"];
    let cases = fixture["cases"].as_array().unwrap();
    let mut errors = 0;
    for case in cases {
        let name = &case_name(case);
        let tool = case["tool"].as_str().unwrap();
        let args = resolve(states, &case["args"]);
        let sid = case["session_id"].as_str().unwrap();
        match tools::call(tool, &args, sid) {
            Ok(mut answer) => {
                assert!(case["error"].is_null(), "{name}: answered {answer}");
                if let Value::String(text) = &answer {
                    answer = serde_json::from_str(text).expect("a text answer is JSON");
                }
                for (pointer, want) in case["ok"].as_object().unwrap() {
                    assert_eq!(
                        answer.pointer(pointer),
                        Some(&resolve(states, want)),
                        "{name}: at {pointer}"
                    );
                }
            }
            Err(e) => {
                errors += 1;
                let e = serde_json::to_value(e).unwrap();
                assert!(case["ok"].is_null(), "{name}: refused {e}");
                assert_eq!(e["schema_version"], 1, "{name}");
                assert!(
                    e["pointer"].is_string(),
                    "{name}: every error has a pointer"
                );
                for (field, want) in case["error"].as_object().unwrap() {
                    assert_eq!(&e[field], want, "{name}: {field}");
                }
            }
        }
    }
    assert!(errors >= 25, "the error cases ran: {errors}");
}
