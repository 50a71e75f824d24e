//! The shape of every answer of every kind as static data, walked by the checker while it parses:
//! a team step's answer (a union on `responseType`), a meeting's decision, contribution and
//! minutes, a dialectic's thesis, antithesis, synthesis and single shot (one object each,
//! [`answer_object`]).
//!
//! The tables (`shape/tables.rs`) are generated, not written: `shape_gen.rs` reads the JSON Schema
//! that [`crate::protocol::team::answer_schema::step_schema`] derives from the serde types of [`crate::protocol::team::wire`], and the team's
//! id scope (`protocol/team/ids.rs`: which strings name a product, a version, a collab, a member or
//! a `new-N`, and which field is a version's content), and writes them out as constants, so that
//! checking needs no allocation and no `serde_json::Value`; a test regenerates the file and fails
//! when it is stale. A field's type, limits and optionality are therefore written once, on the
//! serde type. A second test at the bottom of this file walks the tables and the schema side by
//! side, so a fault in the generator shows too. What a schema cannot say is here, marked as such:
//! which strings are ids (`Ty::Id`, judged by the kind's id scope), that Write content is not JSON ([`Ty::Content`]).

use crate::protocol::team::wire::Step;

#[rustfmt::skip]
mod tables;

/// What a value must be.
#[derive(Debug)]
pub(crate) enum Ty {
    /// Anything at all (unknown fields): only the JSON syntax is checked.
    Any,
    /// A string of at most `max` chars.
    Text { max: usize },
    /// A string of at most `max` chars with at least `min` that are not blank at its ends (a
    /// schema's `minLength`, read as a person would: spaces are not text).
    NonBlank { min: usize, max: usize },
    /// One of these exact strings.
    Enum(&'static [&'static str]),
    /// A string naming something of the session: the kind's id scope judges it
    /// (`check::IdScope`), by this number, which the kind gives meaning to.
    Id(u8),
    /// Write `newVersion.content`: at least [`crate::protocol::team::wire::limits::CONTENT_MIN`] chars, and not
    /// JSON.
    Content,
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// A number (a whole one when `integer`), within the bounds given: the `number` and
    /// `integer` of a schema a person gives at run time (`runtime.rs`); the generated tables use
    /// [`Ty::Int`].
    Number {
        min: Option<f64>,
        max: Option<f64>,
        integer: bool,
    },
    /// `true` or `false`.
    Bool,
    /// An array of `item`, with `min..=max` entries.
    Array {
        item: &'static Ty,
        min: usize,
        max: usize,
    },
    /// An object with known fields.
    Object(&'static Obj),
    /// An object with free keys and values of one type (`personas`).
    Map(&'static Ty),
    /// An object whose fields depend on the string value of one tag field.
    Union(&'static Union),
}

/// One field of an object.
#[derive(Debug)]
pub(crate) struct Field {
    /// Wire name.
    pub name: &'static str,
    /// Its type.
    pub ty: Ty,
    /// Must be present.
    pub required: bool,
    /// May be `null` (the `Option` fields of the wire types).
    pub nullable: bool,
}

/// An object with known fields.
#[derive(Debug)]
pub(crate) struct Obj {
    /// The fields, at most 64 (a bit each in the checker).
    pub fields: &'static [Field],
}

/// A tagged union: the value of field `tag` picks the variant.
#[derive(Debug)]
pub(crate) struct Union {
    /// The tag's wire name (`action`, `responseType`).
    pub tag: &'static str,
    /// Tag value → the object shape (which lists the tag itself as a field).
    pub variants: &'static [(&'static str, &'static Obj)],
}

/// The values of the wire enums the checker names itself.
pub(crate) mod enums {
    /// `responseType`.
    pub const RESPONSE_TYPE: &[&str] = &["request_context", "halt", "final_output"];
}

/// The object a `final_output` answer of `step` must be.
pub(crate) fn final_output(step: Step) -> &'static Obj {
    tables::final_output(step)
}

/// The object an answer of `step` with this `responseType` must be, or `None` when the step ×
/// responseType matrix forbids it (or the value is not a response type at all).
pub(crate) fn answer(step: Step, response_type: &str) -> Option<&'static Obj> {
    match response_type {
        "request_context" => Some(&tables::ANSWER_REQUEST_CONTEXT),
        "halt" if step.allows_halt() => Some(&tables::ANSWER_HALT),
        "final_output" => Some(final_output(step)),
        _ => None,
    }
}

/// The object an answer of a kind with no `responseType` must be (a meeting's), by the name of
/// its schema (`meeting_decision`).
pub(crate) fn answer_object(name: &str) -> Option<&'static Obj> {
    tables::answer_object(name)
}

/// The words of a `responseType` that exists but that `step` does not allow (`allowed`): the
/// message and the hint.
pub(crate) fn not_allowed_here(step: Step, value: &str, allowed: &[&str]) -> (String, String) {
    (
        format!(
            "responseType {value} is not allowed on the {} step",
            step.title()
        ),
        format!(
            "Only Bootstrap and PlanAssign may halt. Answer with {} instead.",
            allowed.join(" or ")
        ),
    )
}

/// The hint of a content under its minimum.
pub(crate) const CONTENT_TOO_SHORT_HINT: &str =
    "Write the whole content of the version, not a summary or a placeholder.";

/// The hint of a content past its limit.
pub(crate) const CONTENT_TOO_LONG_HINT: &str =
    "Split the product: keep this version to its essentials and ADD child products for the rest.";

/// The response types `step` allows, for messages.
pub(crate) fn allowed_response_types(step: Step) -> &'static [&'static str] {
    if step.allows_halt() {
        enums::RESPONSE_TYPE
    } else {
        &["request_context", "final_output"]
    }
}

#[cfg(test)]
mod tests {
    //! The generated shapes must say exactly what `step_schema(step, Plain)` says.
    use super::*;
    use crate::protocol::team::answer_schema::{step_schema, SchemaFlavor};
    use crate::protocol::team::wire::limits;
    use serde_json::Value;

    /// Follows `$ref` (possibly inside `anyOf [ref, null]`) and reports whether null was allowed.
    fn resolve<'a>(root: &'a Value, mut node: &'a Value) -> (&'a Value, bool) {
        let mut nullable = false;
        if let Some(any) = node.get("anyOf").and_then(Value::as_array) {
            nullable = any
                .iter()
                .any(|b| b.get("type") == Some(&Value::from("null")));
            node = any
                .iter()
                .find(|b| b.get("type") != Some(&Value::from("null")))
                .unwrap();
        }
        if let Some(types) = node.get("type").and_then(Value::as_array) {
            nullable |= types.contains(&Value::from("null"));
        }
        while let Some(r) = node.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/$defs/");
            let target = &root["$defs"][name];
            // A `$ref` with sibling keywords (the root's final_output branch) is merged by hand.
            if node.get("properties").is_some() {
                break;
            }
            node = target;
        }
        (node, nullable)
    }

    fn base_type(node: &Value) -> Option<String> {
        match node.get("type") {
            Some(Value::String(t)) => Some(t.clone()),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .find(|t| *t != "null")
                .map(String::from),
            _ => None,
        }
    }

    fn enum_values(node: &Value) -> Option<Vec<String>> {
        if let Some(values) = node.get("enum").and_then(Value::as_array) {
            return values
                .iter()
                .map(|v| v.as_str().map(String::from))
                .collect();
        }
        let branches = node.get("oneOf")?.as_array()?;
        branches
            .iter()
            .map(|b| b.get("const").and_then(Value::as_str).map(String::from))
            .collect()
    }

    fn compare_ty(root: &Value, node: &Value, ty: &Ty, at: &str) {
        let (node, _) = resolve(root, node);
        match ty {
            Ty::Any => {}
            Ty::Text { max } => {
                assert_eq!(base_type(node).as_deref(), Some("string"), "{at}");
                let schema_max = node
                    .get("maxLength")
                    .and_then(Value::as_u64)
                    .map(|m| m as usize);
                assert_eq!(schema_max.unwrap_or(usize::MAX), *max, "{at} maxLength");
                assert!(node.get("minLength").is_none(), "{at} minLength");
            }
            Ty::NonBlank { min, max } => {
                assert_eq!(base_type(node).as_deref(), Some("string"), "{at}");
                assert_eq!(
                    node["minLength"].as_u64(),
                    Some(*min as u64),
                    "{at} minLength"
                );
                let schema_max = node
                    .get("maxLength")
                    .and_then(Value::as_u64)
                    .map(|m| m as usize);
                assert_eq!(schema_max.unwrap_or(usize::MAX), *max, "{at} maxLength");
            }
            Ty::Id(_) => {
                assert_eq!(base_type(node).as_deref(), Some("string"), "{at}");
                assert!(node.get("maxLength").is_none(), "{at}");
            }
            Ty::Content => {
                assert_eq!(
                    node["minLength"].as_u64(),
                    Some(limits::CONTENT_MIN as u64),
                    "{at}"
                );
                assert_eq!(
                    node["maxLength"].as_u64(),
                    Some(limits::CONTENT_MAX as u64),
                    "{at}"
                );
            }
            Ty::Enum(values) => {
                let schema_values = enum_values(node)
                    .or_else(|| {
                        node.get("const")
                            .and_then(Value::as_str)
                            .map(|c| vec![c.to_string()])
                    })
                    .unwrap_or_else(|| panic!("{at}: no enum in {node}"));
                assert_eq!(
                    schema_values,
                    values.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
                    "{at}"
                );
            }
            Ty::Int { min, max } => {
                assert_eq!(base_type(node).as_deref(), Some("integer"), "{at}");
                assert_eq!(node["minimum"].as_i64(), Some(*min), "{at}");
                assert_eq!(node["maximum"].as_i64(), Some(*max), "{at}");
            }
            Ty::Bool => assert_eq!(base_type(node).as_deref(), Some("boolean"), "{at}"),
            Ty::Number { .. } => panic!("{at}: a run-time shape in the generated tables"),
            Ty::Array { item, min, max } => {
                assert_eq!(base_type(node).as_deref(), Some("array"), "{at}");
                assert_eq!(
                    node.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize,
                    *min,
                    "{at}"
                );
                let smax = node
                    .get("maxItems")
                    .and_then(Value::as_u64)
                    .map(|m| m as usize);
                assert_eq!(smax.unwrap_or(usize::MAX), *max, "{at}");
                compare_ty(root, &node["items"], item, &format!("{at}/items"));
            }
            Ty::Map(value) => {
                assert_eq!(base_type(node).as_deref(), Some("object"), "{at}");
                compare_ty(
                    root,
                    &node["additionalProperties"],
                    value,
                    &format!("{at}/*"),
                );
            }
            Ty::Object(obj) => compare_obj(root, node, obj, at),
            Ty::Union(u) => {
                let branches = node["oneOf"].as_array().unwrap();
                assert_eq!(branches.len(), u.variants.len(), "{at}");
                for (branch, (tag, obj)) in branches.iter().zip(u.variants) {
                    assert_eq!(
                        branch["properties"][u.tag]["const"],
                        Value::from(*tag),
                        "{at}"
                    );
                    compare_obj(root, branch, obj, &format!("{at}[{tag}]"));
                }
            }
        }
    }

    fn compare_obj(root: &Value, node: &Value, obj: &Obj, at: &str) {
        let props = node["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{at}: {node}"));
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut names: Vec<&str> = obj.fields.iter().map(|f| f.name).collect();
        names.sort_unstable();
        let mut schema_names: Vec<&str> = props.keys().map(String::as_str).collect();
        schema_names.sort_unstable();
        assert_eq!(names, schema_names, "{at}: field names");
        assert!(obj.fields.len() <= 64, "{at}");
        for f in obj.fields {
            let at = format!("{at}/{}", f.name);
            assert_eq!(required.contains(&f.name), f.required, "{at} required");
            let (_, nullable) = resolve(root, &props[f.name]);
            assert_eq!(nullable, f.nullable, "{at} nullable");
            compare_ty(root, &props[f.name], &f.ty, &at);
        }
    }

    #[test]
    fn shapes_match_the_plain_json_schema_of_every_meeting_answer() {
        use crate::protocol::meeting::{answer::derive_schema, MeetingStep};
        for step in [
            MeetingStep::Decide,
            MeetingStep::Speak,
            MeetingStep::Minutes,
        ] {
            let root = derive_schema(step);
            let name = root["title"].as_str().unwrap();
            let obj = answer_object(name).unwrap_or_else(|| panic!("no shape for {name}"));
            compare_obj(&root, &root, obj, name);
        }
        assert!(answer_object("write").is_none());
    }

    #[test]
    fn shapes_match_the_plain_json_schema_of_every_dialectic_answer() {
        use crate::protocol::dialectic::{answer::derive_schema, DialecticStep};
        for step in [
            DialecticStep::Thesis,
            DialecticStep::Antithesis,
            DialecticStep::Synthesis,
            DialecticStep::SingleShot,
        ] {
            let root = derive_schema(step);
            let name = root["title"].as_str().unwrap();
            let obj = answer_object(name).unwrap_or_else(|| panic!("no shape for {name}"));
            compare_obj(&root, &root, obj, name);
        }
    }

    #[test]
    fn shapes_match_the_plain_json_schema_of_every_step() {
        for step in Step::ALL {
            let root = step_schema(step, SchemaFlavor::Plain);
            let branches = root["oneOf"].as_array().unwrap();
            let tags: Vec<&str> = branches
                .iter()
                .map(|b| b["properties"]["responseType"]["const"].as_str().unwrap())
                .collect();
            assert_eq!(tags, allowed_response_types(step), "{step}");
            for branch in branches {
                let tag = branch["properties"]["responseType"]["const"]
                    .as_str()
                    .unwrap();
                let obj = answer(step, tag).unwrap();
                // Merge the branch's own properties with the `$ref`'d output struct.
                let mut merged = branch.clone();
                if let Some(r) = branch.get("$ref").and_then(Value::as_str) {
                    let target = &root["$defs"][r.trim_start_matches("#/$defs/")];
                    let props = merged["properties"].as_object_mut().unwrap();
                    for (k, v) in target["properties"].as_object().unwrap() {
                        props.insert(k.clone(), v.clone());
                    }
                    let mut req: Vec<Value> = merged["required"].as_array().unwrap().clone();
                    req.extend(target["required"].as_array().cloned().unwrap_or_default());
                    merged["required"] = Value::Array(req);
                }
                merged["properties"]["responseType"]["type"] = Value::from("string");
                compare_obj(&root, &merged, obj, &format!("{step}[{tag}]"));
            }
            assert!(answer(step, "halt").is_some() == step.allows_halt());
        }
    }
}
