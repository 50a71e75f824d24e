//! The value tape (`validate::tape`), written by the checker, against serde_json on every valid
//! fixture: rebuilt the way the JS builder does it, each gives back exactly the parsed answer.
#![allow(clippy::disallowed_methods)] // Tests read their fixture files.

use roundtable_core::protocol::team::check::{check_step_with_tape, key_names};
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::validate::tape;
use roundtable_core::validate::Options;
use serde_json::Value;

/// The value from the tape, built as the JS builder builds it (strings sliced by UTF-16 units).
fn build(text: &str, t: &[u32]) -> Value {
    let units: Vec<u16> = text.encode_utf16().collect();
    let slice = |s: u32, e: u32| String::from_utf16(&units[s as usize..e as usize]).unwrap();
    fn val(t: &[u32], i: &mut usize, slice: &dyn Fn(u32, u32) -> String) -> Value {
        let tag = t[*i];
        *i += 1;
        match tag {
            tape::OBJECT | tape::ARRAY => {
                let n = t[*i];
                *i += 1;
                if tag == tape::ARRAY {
                    return (0..n).map(|_| val(t, i, slice)).collect();
                }
                let mut map = serde_json::Map::new();
                for _ in 0..n {
                    let key = key_names()[t[*i] as usize].to_string();
                    *i += 1;
                    map.insert(key, val(t, i, slice));
                }
                Value::Object(map)
            }
            tape::STRING | tape::STRING_ESCAPED | tape::NUMBER => {
                let text = slice(t[*i], t[*i + 1]);
                *i += 2;
                match tag {
                    tape::STRING => Value::String(text),
                    tape::STRING_ESCAPED => serde_json::from_str(&format!("\"{text}\"")).unwrap(),
                    _ => serde_json::from_str(&text).unwrap(),
                }
            }
            tape::TRUE => true.into(),
            tape::FALSE => false.into(),
            tape::NULL => Value::Null,
            other => panic!("unknown tag {other}"),
        }
    }
    let mut i = 0;
    let v = val(t, &mut i, &slice);
    assert_eq!(i, t.len(), "the whole tape is one value");
    v
}

#[test]
fn every_valid_json_fixture_comes_back_as_serde_parses_it() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let index: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/index.json")).unwrap())
            .unwrap();
    let (mut built, mut gave_up) = (0, 0);
    for case in index["fixtures"].as_array().unwrap() {
        let file = case["file"].as_str().unwrap();
        if case["valid"] != true || !file.ends_with(".json") {
            continue;
        }
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        let Ok(want) = serde_json::from_str::<Value>(&text) else {
            continue; // repaired on the way in: the JS API parses the repaired text instead
        };
        let step = Step::from_wire_name(case["step"].as_str().unwrap()).unwrap();
        let mut t = Vec::new();
        let (verdict, taped) = check_step_with_tape(step, &text, None, Options::default(), &mut t);
        assert!(verdict.is_ok(), "{file}: {:?}", verdict.errors);
        if taped {
            assert_eq!(build(&text, &t), want, "{file}");
            built += 1;
        } else {
            gave_up += 1;
        }
    }
    assert!(
        built >= 10,
        "only {built} fixtures went through the tape ({gave_up} gave up)"
    );
}

/// Tapes `text` as a Write answer and rebuilds it; `None` when the checker gave the tape up.
fn write_tape(text: &str) -> Option<Value> {
    let mut t = Vec::new();
    let (verdict, taped) =
        check_step_with_tape(Step::Write, text, None, Options::default(), &mut t);
    assert!(verdict.is_ok(), "{:?}", verdict.errors);
    taped.then(|| build(text, &t))
}

#[test]
fn offsets_are_utf16_units_and_escapes_are_marked() {
    let text = r#"{"responseType": "final_output", "versions": [{"productId": "p1", "newVersion": {"contentTitle": "Tïtle", "content": "é😀 \"q\" 中 — a long enough body of text for a version", "changeSummary": "x"}}], "remarks": []}"#;
    let built = write_tape(text).expect("known keys only");
    assert_eq!(built, serde_json::from_str::<Value>(text).unwrap());
}

#[test]
fn unknown_keys_and_repaired_answers_give_the_tape_up() {
    let ok = r#"{"responseType": "final_output", "remarks": []}"#;
    assert!(write_tape(ok).is_some());
    assert!(write_tape(r#"{"responseType": "final_output", "remarks": [], "nope": 1}"#).is_none());
    // Repaired on the way in (a fence): the offsets would not be into the caller's text.
    let mut t = Vec::new();
    let fenced = format!("```json\n{ok}\n```");
    let (verdict, taped) =
        check_step_with_tape(Step::Write, &fenced, None, Options::default(), &mut t);
    assert!(verdict.is_ok() && !taped);
    // An invalid answer has no value to build.
    let (verdict, taped) = check_step_with_tape(
        Step::Write,
        r#"{"responseType": "final_output", "remarks": 5}"#,
        None,
        Options::default(),
        &mut t,
    );
    assert!(!verdict.is_ok() && !taped);
}
