use super::*;
use crate::validate::Violation;
use serde_json::json;

fn verdict(schema: &Value, raw: &str) -> Vec<Violation> {
    let shape = compile_schema(schema).expect("a supported schema");
    check_against_schema(shape, raw, Options::default()).errors
}

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["adopt", "reject", "trial"]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "reasons": {"type": "array", "items": {"type": "string", "minLength": 3, "maxLength": 40}, "minItems": 1, "maxItems": 3},
            "cost": {"type": "integer", "minimum": 0},
            "note": {"type": ["string", "null"]}
        },
        "required": ["verdict", "confidence", "reasons"],
        "additionalProperties": false
    })
}

#[test]
fn a_valid_answer_passes() {
    let errors = verdict(
        &schema(),
        r#"{"verdict": "trial", "confidence": 0.6, "reasons": ["cheap", "quick"], "note": null}"#,
    );
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn every_violation_has_its_pointer_expected_received_and_hint_in_answer_order() {
    let errors = verdict(
        &schema(),
        r#"{"verdict": "maybe", "confidence": 1.5, "reasons": [], "cost": 2.5, "mood": "x"}"#,
    );
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        ["/verdict", "/confidence", "/reasons", "/cost", "/mood"],
        "{errors:#?}"
    );
    assert_eq!(errors[0].expected, "one of: adopt, reject, trial");
    assert_eq!(errors[1].expected, "a number from 0 to 1");
    assert_eq!(errors[1].received, "1.5");
    assert_eq!(errors[3].message, "cost must be a whole number");
    assert!(errors[4].message.contains("not allowed"), "{:?}", errors[4]);
    assert!(errors.iter().all(|e| !e.hint.is_empty()));
}

#[test]
fn missing_fields_and_wrong_types_are_named() {
    let errors = verdict(&schema(), r#"{"confidence": "high", "reasons": "cheap"}"#);
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert!(
        messages.contains(&"confidence must be a number"),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"reasons must be an array"),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"missing required field verdict"),
        "{messages:?}"
    );
}

#[test]
fn a_fenced_answer_is_recovered_with_a_warning() {
    let shape = compile_schema(&schema()).unwrap();
    let raw = "Here it is:\n```json\n{\"verdict\": \"adopt\", \"confidence\": 1, \"reasons\": [\"fast\"],}\n```";
    let v = check_against_schema(shape, raw, Options::default());
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    assert!(!v.warnings.is_empty());
}

#[test]
fn problems_are_refused_with_their_pointer_and_reason() {
    let bad = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "https://example.com/a.json"},
            "b": {"type": "string", "pattern": "^(?=x)"},
            "c": {"type": "string", "pattern": "(a)\\1"},
            "d": {"type": "integer", "exclusiveMinimum": true},
            "e": {"$ref": "#/$defs/nothing"},
            "f": {"type": "strng"}
        },
        "requried": ["a"],
        "unevaluatedProperties": false
    });
    let problems = compile_schema(&bad).unwrap_err();
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    for expected in [
        "at /properties/a/$ref: \"https://example.com/a.json\" is a remote $ref",
        "at /properties/b/pattern: the pattern uses a lookaround",
        "at /properties/c/pattern: the pattern uses a backreference",
        "at /properties/d/exclusiveMinimum: `exclusiveMinimum` as true/false is draft-04",
        "at /properties/f/type: `type` must be one of",
        "at /requried: `requried` is not a keyword",
        "at /unevaluatedProperties: unevaluatedProperties is not checked",
    ] {
        assert!(
            text.iter().any(|t| t.starts_with(expected)),
            "{expected} in {text:#?}"
        );
    }
}

#[test]
fn a_dangling_ref_and_a_ref_loop_are_refused() {
    let dangling =
        compile_schema(&json!({"properties": {"e": {"$ref": "#/$defs/nothing"}}})).unwrap_err();
    assert_eq!(dangling[0].pointer, "/properties/e/$ref");
    assert!(
        dangling[0].message.contains("names no place"),
        "{dangling:?}"
    );
    let looped = compile_schema(&json!({
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}]}},
        "$ref": "#/$defs/a"
    }))
    .unwrap_err();
    assert!(
        looped[0].message.contains("leads back to itself"),
        "{looped:?}"
    );
    // A recursion through a property is fine: it goes into the answer.
    assert!(compile_schema(&json!({"properties": {"next": {"$ref": "#"}}})).is_ok());
}

#[test]
fn a_deep_text_is_refused_with_its_depth_and_pointer() {
    let mut text = String::from("{\"type\":\"object\"");
    for _ in 0..40 {
        text.push_str(",\"properties\":{\"a\":{\"type\":\"object\"");
    }
    for _ in 0..40 {
        text.push_str("}}");
    }
    text.push('}');
    let problem = parse_schema_text(&text).unwrap_err();
    assert!(problem.message.contains("nests 66 levels"), "{problem}");
    assert!(
        problem.pointer.starts_with("/properties/a/properties/a/"),
        "{problem}"
    );
}

#[test]
fn a_schema_too_deep_in_subschemas_names_depth_and_pointer() {
    let mut schema = json!({"type": "string"});
    for _ in 0..(SCHEMA_DEPTH_MAX + 2) {
        schema = json!({"items": schema});
    }
    let problems = compile_schema(&schema).unwrap_err();
    assert!(
        problems[0]
            .message
            .contains(&format!("{} levels deep", SCHEMA_DEPTH_MAX + 1)),
        "{problems:?}"
    );
    assert_eq!(problems[0].pointer, "/items".repeat(SCHEMA_DEPTH_MAX + 1));
}

#[test]
fn formats_not_checked_are_said_so() {
    let shape =
        compile_schema(&json!({"properties": {"h": {"type": "string", "format": "hostname"}}}))
            .unwrap();
    assert_eq!(shape.notes().len(), 1);
    assert_eq!(shape.notes()[0].pointer, "/properties/h/format");
    assert!(shape.notes()[0].message.contains("is not checked"));
}

#[test]
fn the_same_schema_is_compiled_once() {
    let a = compile_schema(&schema()).unwrap();
    let b = compile_schema(&schema()).unwrap();
    assert!(std::ptr::eq(a.compiled, b.compiled));
}

#[test]
fn the_closest_branch_of_a_union_says_what_it_still_wants() {
    let s = json!({"oneOf": [
        {"title": "circle", "type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
        {"title": "square", "type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
    ]});
    let errors = verdict(&s, r#"{"kind": "circle", "r": "big"}"#);
    assert_eq!(errors[0].path, "");
    assert_eq!(errors[0].expected, "one of: circle, square");
    assert!(errors[0].hint.contains("closest to circle"), "{errors:#?}");
    assert_eq!(errors[1].path, "/r");
    assert_eq!(errors.len(), 2);
}
