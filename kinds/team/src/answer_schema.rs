//! A JSON Schema of each step's answer, for providers that constrain their output with one.
//!
//! Two flavours: [`SchemaFlavor::Plain`] is the schema `schemars` derives from [`crate::wire`],
//! with the halt branch dropped on steps that may not halt; [`SchemaFlavor::OpenAiStrict`] is
//! [`roundtable_engine::provider_schema::openai_strict`] of it: the form OpenAI's strict structured outputs
//! accept (an object at the root, every property required, optional ones nullable,
//! `additionalProperties: false`, `anyOf` instead of `oneOf`, no `int64` format). The validator stays the
//! judge: a schema cannot say "content is not JSON" or "this id exists".
//!
//! [`derive_step_schema`] is the source of truth; its output is committed under `core/schemas/`
//! and [`step_schema`] serves those files, so a build that only needs the schemas (the browser
//! app, the JS API) does not carry `schemars` and the derived code — about a tenth of the app's
//! download. A test keeps the files equal to the derivation (`UPDATE_SCHEMAS=1` rewrites them).

use schemars::{generate::SchemaSettings, JsonSchema};
use serde_json::{json, Map, Value};

use crate::wire::{
    limits, BootstrapOutput, InspectionOutput, PeerReviewOutput, PlanAssignOutput,
    PresentationOutput, ReflectOutput, Step, WireAnswer, WriteOutput,
};
pub use roundtable_engine::provider_schema::SchemaFlavor;

/// The JSON Schema of `step`'s answer in the given flavour, as providers and JS callers get it.
pub fn step_schema(step: Step, flavor: SchemaFlavor) -> Value {
    serde_json::from_str(step_schema_text(step, flavor)).expect("committed schemas are JSON")
}

/// The JSON Schema of `step`'s answer as committed text (pretty-printed), for callers that pass
/// it on without looking inside.
pub fn step_schema_text(step: Step, flavor: SchemaFlavor) -> &'static str {
    macro_rules! file {
        ($name:literal) => {
            match flavor {
                SchemaFlavor::Plain => {
                    include_str!(concat!("../../../core/schemas/", $name, ".plain.json"))
                }
                SchemaFlavor::OpenAiStrict => {
                    include_str!(concat!("../../../core/schemas/", $name, ".strict.json"))
                }
            }
        };
    }
    match step {
        Step::Bootstrap => file!("bootstrap"),
        Step::Reflect => file!("reflect"),
        Step::PlanAssign => file!("plan_assign"),
        Step::Write => file!("write"),
        Step::PeerReview => file!("peer_review"),
        Step::Inspection => file!("inspection"),
        Step::Presentation => file!("presentation"),
    }
}

/// Derives the JSON Schema of `step`'s answer from the Rust types with `schemars`: the source of
/// truth the committed files under `core/schemas/` are checked against.
pub fn derive_step_schema(step: Step, flavor: SchemaFlavor) -> Value {
    let mut schema = match step {
        Step::Bootstrap => derive::<BootstrapOutput>(),
        Step::Reflect => derive::<ReflectOutput>(),
        Step::PlanAssign => derive::<PlanAssignOutput>(),
        Step::Write => derive::<WriteOutput>(),
        Step::PeerReview => derive::<PeerReviewOutput>(),
        Step::Inspection => derive::<InspectionOutput>(),
        Step::Presentation => derive::<PresentationOutput>(),
    };
    plain_descriptions(&mut schema);
    if let Some(obj) = schema.as_object_mut() {
        obj.insert("title".into(), json!(format!("{}Answer", step.title())));
        if !step.allows_halt() {
            drop_halt_branch(obj);
        }
    }
    match flavor {
        SchemaFlavor::Plain => schema,
        SchemaFlavor::OpenAiStrict => {
            // The committed file says its dialect, as the plain one does (the request body that
            // goes to OpenAI is `openai_strict` itself, without it).
            let mut strict = roundtable_engine::provider_schema::openai_strict(&schema);
            if let (Some(obj), Some(dialect)) = (strict.as_object_mut(), schema.get("$schema")) {
                obj.insert("$schema".into(), dialect.clone());
            }
            strict
        }
    }
}

fn derive<F: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12().into_generator();
    generator.into_root_schema_for::<WireAnswer<F>>().to_value()
}

/// The limits doc comments link to, by name, so a description a model reads says "max 120 chars"
/// rather than a rustdoc link.
const LIMIT_NAMES: &[(&str, i64)] = &[
    ("CONTEXT_REASON_MAX", limits::CONTEXT_REASON_MAX as i64),
    ("HALT_MESSAGE_MAX", limits::HALT_MESSAGE_MAX as i64),
    ("COLLAB_COMMENT_MAX", limits::COLLAB_COMMENT_MAX as i64),
    ("COLLAB_SUMMARY_MAX", limits::COLLAB_SUMMARY_MAX as i64),
    ("REMARK_CONTENT_MAX", limits::REMARK_CONTENT_MAX as i64),
    ("PRODUCT_NAME_MAX", limits::PRODUCT_NAME_MAX as i64),
    ("PRODUCT_DOD_MAX", limits::PRODUCT_DOD_MAX as i64),
    ("MISSION_MAX", limits::MISSION_MAX as i64),
    ("OBJECTIVES_MAX", limits::OBJECTIVES_MAX as i64),
    ("PERSONA_MAX", limits::PERSONA_MAX as i64),
    (
        "DOMAIN_RESPONSIBILITY_MAX",
        limits::DOMAIN_RESPONSIBILITY_MAX as i64,
    ),
    ("DOMAIN_AREA_MAX", limits::DOMAIN_AREA_MAX as i64),
    ("CONTENT_TITLE_MAX", limits::CONTENT_TITLE_MAX as i64),
    ("CONTENT_MIN", limits::CONTENT_MIN as i64),
    ("CONTENT_MAX", limits::CONTENT_MAX as i64),
    ("MESSAGES_MIN", limits::MESSAGES_MIN as i64),
    ("MESSAGES_MAX", limits::MESSAGES_MAX as i64),
    ("SCALE_MIN", limits::SCALE_MIN),
    ("SCALE_MAX", limits::SCALE_MAX),
];

/// Rewrites rustdoc links in every `description` (``[`limits::X`]``, ``[`Halt`]``) as plain text.
fn plain_descriptions(node: &mut Value) {
    match node {
        Value::Object(obj) => {
            if let Some(Value::String(text)) = obj.get_mut("description") {
                let mut plain = text.clone();
                for (name, value) in LIMIT_NAMES {
                    plain = plain.replace(&format!("[`limits::{name}`]"), &value.to_string());
                }
                *text = plain.replace("[`", "").replace("`]", "");
            }
            obj.values_mut().for_each(plain_descriptions);
        }
        Value::Array(items) => items.iter_mut().for_each(plain_descriptions),
        _ => {}
    }
}

/// Removes the `{"responseType": "halt"}` branch of the root `oneOf`.
fn drop_halt_branch(root: &mut Map<String, Value>) {
    if let Some(Value::Array(branches)) = root.get_mut("oneOf") {
        branches.retain(|b| b.pointer("/properties/responseType/const") != Some(&json!("halt")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halt_branch_only_where_the_matrix_allows_it() {
        for step in Step::ALL {
            let schema = step_schema(step, SchemaFlavor::Plain);
            let tags: Vec<&Value> = schema["oneOf"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| &b["properties"]["responseType"]["const"])
                .collect();
            assert_eq!(tags.contains(&&json!("halt")), step.allows_halt(), "{step}");
            assert!(tags.contains(&&json!("request_context")), "{step}");
            assert!(tags.contains(&&json!("final_output")), "{step}");
        }
    }

    #[test]
    fn strict_objects_require_every_property_and_forbid_extras() {
        fn walk(v: &Value, at: &str) {
            if let Some(obj) = v.as_object() {
                assert!(!obj.contains_key("oneOf"), "oneOf left at {at}");
                if let Some(Value::Object(props)) = obj.get("properties") {
                    let req = obj["required"].as_array().unwrap();
                    assert_eq!(req.len(), props.len(), "not all required at {at}");
                    assert_eq!(
                        obj["additionalProperties"],
                        json!(false),
                        "extras allowed at {at}"
                    );
                }
                for (k, c) in obj {
                    walk(c, &format!("{at}/{k}"));
                }
            } else if let Some(a) = v.as_array() {
                for (i, c) in a.iter().enumerate() {
                    walk(c, &format!("{at}/{i}"));
                }
            }
        }
        for step in Step::ALL {
            walk(&step_schema(step, SchemaFlavor::OpenAiStrict), "");
        }
    }

    #[test]
    fn descriptions_quote_limits_as_numbers() {
        let text = step_schema(Step::Write, SchemaFlavor::Plain).to_string();
        assert!(
            !text.contains("limits::"),
            "rustdoc link left in a description"
        );
        assert!(
            text.contains("max 120 chars"),
            "summary limit not spelled out"
        );
    }

    /// The committed schema files equal what the types derive; `UPDATE_SCHEMAS=1` rewrites them.
    #[test]
    #[allow(clippy::disallowed_methods)] // a test may read the environment and write files
    fn committed_schemas_are_current() {
        let update = std::env::var("UPDATE_SCHEMAS").is_ok();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../core/schemas");
        for step in Step::ALL {
            for (flavor, name) in [
                (SchemaFlavor::Plain, "plain"),
                (SchemaFlavor::OpenAiStrict, "strict"),
            ] {
                let derived = derive_step_schema(step, flavor);
                let text = serde_json::to_string_pretty(&derived).unwrap() + "\n";
                if update {
                    std::fs::write(dir.join(format!("{}.{name}.json", step.wire_name())), &text)
                        .unwrap();
                } else {
                    assert_eq!(
                        step_schema(step, flavor),
                        derived,
                        "core/schemas/{}.{name}.json is stale: run `bash scripts/codegen.sh` (schemas, then the tables and TS types made from them)",
                        step.wire_name()
                    );
                }
            }
        }
    }

    #[test]
    fn schemas_snapshot() {
        for step in Step::ALL {
            for (flavor, name) in [
                (SchemaFlavor::Plain, "plain"),
                (SchemaFlavor::OpenAiStrict, "strict"),
            ] {
                insta::assert_json_snapshot!(
                    format!("{}_{name}", step.wire_name()),
                    derive_step_schema(step, flavor)
                );
            }
        }
    }
}
