//! A shape chosen at run time: the JSON Schema a person gives (a dialectic's `response_schema`,
//! spec `002`), turned into the validator's own [`Ty`] so that the same walker checks an answer
//! against it, with the same pointers, `expected` / `received` / hint and repair wording as every
//! generated shape.
//!
//! The walker takes `&'static` shapes (the generated tables cost nothing to check against), so a
//! compiled schema is *interned*: built once per distinct schema text and kept for the life of
//! the program (a person gives a handful; the schema text is at most [`SCHEMA_TEXT_MAX`] bytes).
//!
//! The subset read is the one the walker can check: `type` (`object`, `array`, `string`,
//! `integer`, `number`, `boolean`, each optionally with `"null"`), `properties`, `required`,
//! `additionalProperties` (`false`; or a schema, for an object of free keys), `items`, `enum` (of
//! strings), `minLength` / `maxLength`, `minItems` / `maxItems`, `minimum` / `maximum`, and the
//! annotations `title`, `description`, `$schema`, `$id`, `examples`, `default`. Any other keyword
//! is refused by name, with its pointer, when the session is created — never silently ignored.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde_json::Value;

use super::shape::{Field, Obj, Ty};
use super::{Options, Verdict, Violation};

/// The longest schema text a person may give (as compact JSON).
pub const SCHEMA_TEXT_MAX: usize = 20_000;
/// The deepest nesting of objects and arrays a schema may have.
pub const SCHEMA_DEPTH_MAX: usize = 12;
/// The most properties one object of a schema may have (a bit each in the walker).
const FIELDS_MAX: usize = 64;

/// Keywords read for what they check.
const CHECKED: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
];
/// Keywords that only describe, read and ignored.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "$schema",
    "$id",
    "examples",
    "default",
];

/// Why a schema cannot be used, at one place of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    /// JSON pointer into the schema (`/properties/score/format`); `""` for the root.
    pub pointer: String,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "at {}: {}", self.pointer, self.message)
        }
    }
}

/// A schema compiled into the walker's shape: cheap to copy, valid for the life of the program.
#[derive(Debug, Clone, Copy)]
pub struct RuntimeShape {
    obj: &'static Obj,
    closed: &'static [String],
}

/// The compiled shapes, by schema text: each distinct schema is built once.
static INTERNED: Mutex<BTreeMap<String, RuntimeShape>> = Mutex::new(BTreeMap::new());

/// Compiles a person's JSON Schema into a shape the walker checks answers against, or every
/// problem with it (unsupported keywords by name, wrong types of keyword values, a root that is
/// not an object of known properties, too deep, too long).
pub fn compile_schema(schema: &Value) -> Result<RuntimeShape, Vec<SchemaProblem>> {
    let text = schema.to_string();
    if let Some(shape) = INTERNED.lock().ok().and_then(|m| m.get(&text).copied()) {
        return Ok(shape);
    }
    let mut problems = Vec::new();
    if text.len() > SCHEMA_TEXT_MAX {
        problems.push(SchemaProblem {
            pointer: String::new(),
            message: format!(
                "the schema is {} characters long; the limit is {SCHEMA_TEXT_MAX}",
                text.len()
            ),
        });
        return Err(problems);
    }
    let mut closed = Vec::new();
    let node = read(schema, "", 0, &mut problems, &mut closed);
    let root = match node {
        Some(Node::Object { fields, .. }) if problems.is_empty() => fields,
        Some(_) if problems.is_empty() => {
            problems.push(SchemaProblem {
                pointer: String::new(),
                message:
                    "the root must be an object with `properties`: the answer is one JSON object"
                        .into(),
            });
            return Err(problems);
        }
        _ => return Err(problems),
    };
    let obj: &'static Obj = Box::leak(Box::new(Obj {
        fields: leak_fields(root),
    }));
    let shape = RuntimeShape {
        obj,
        closed: Box::leak(closed.into_boxed_slice()),
    };
    if let Ok(mut m) = INTERNED.lock() {
        m.insert(text, shape);
    }
    Ok(shape)
}

/// Checks a raw answer against a compiled run-time shape: the same recovery, walker and wording
/// as every generated shape. A field the schema's `additionalProperties: false` forbids is an
/// error (the walker alone only warns of unknown fields).
pub fn check_against_schema<'a>(
    shape: RuntimeShape,
    raw: &'a str,
    options: Options,
) -> Verdict<'a> {
    let mut verdict = super::check_object(shape.obj, raw, options);
    if !shape.closed.is_empty() {
        let (closed, kept): (Vec<Violation>, Vec<Violation>) =
            verdict.warnings.into_iter().partition(|w| {
                w.message.starts_with("unknown field")
                    && shape.closed.iter().any(|c| parent_matches(c, &w.path))
            });
        verdict.warnings = kept;
        for mut v in closed {
            v.message = v.message.replace(" is ignored", " is not allowed");
            v.hint = format!(
                "Remove it: the schema allows only {}.",
                v.expected.trim_start_matches("one of: ")
            );
            verdict.errors.push(v);
        }
    }
    verdict
}

/// True when `path`'s parent matches the closed object's pattern (`*` for any array index or
/// free key).
fn parent_matches(pattern: &str, path: &str) -> bool {
    let parent = path.rsplit_once('/').map_or("", |(p, _)| p);
    let a: Vec<&str> = pattern.split('/').collect();
    let b: Vec<&str> = parent.split('/').collect();
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| *x == "*" || x == y)
}

/// A schema node read, before it becomes a [`Ty`].
enum Node {
    Any,
    String {
        min: Option<usize>,
        max: Option<usize>,
        values: Option<Vec<String>>,
    },
    Number {
        min: Option<f64>,
        max: Option<f64>,
        integer: bool,
    },
    Bool,
    Array {
        item: Box<Node>,
        min: usize,
        max: usize,
    },
    Object {
        fields: Vec<(String, Node, bool, bool)>,
    },
    Map(Box<Node>),
}

fn problem(problems: &mut Vec<SchemaProblem>, pointer: &str, message: String) {
    problems.push(SchemaProblem {
        pointer: pointer.to_string(),
        message,
    });
}

/// Reads one schema node at `at`; `closed` collects the walker paths (`*` for any index or key)
/// of objects that forbid extra fields.
fn read(
    node: &Value,
    at: &str,
    depth: usize,
    problems: &mut Vec<SchemaProblem>,
    closed: &mut Vec<String>,
) -> Option<Node> {
    read_at(node, at, "", depth, problems, closed).map(|(n, _)| n)
}

/// [`read`], with the walker path of the value the node describes; also says whether `null` is
/// allowed.
fn read_at(
    node: &Value,
    at: &str,
    path: &str,
    depth: usize,
    problems: &mut Vec<SchemaProblem>,
    closed: &mut Vec<String>,
) -> Option<(Node, bool)> {
    if node == &Value::Bool(true) {
        return Some((Node::Any, true));
    }
    let Some(map) = node.as_object() else {
        problem(
            problems,
            at,
            format!("a schema must be an object, not {node}"),
        );
        return None;
    };
    if depth > SCHEMA_DEPTH_MAX {
        problem(
            problems,
            at,
            format!("the schema is nested deeper than {SCHEMA_DEPTH_MAX} levels"),
        );
        return None;
    }
    let before = problems.len();
    for key in map.keys() {
        if !CHECKED.contains(&key.as_str()) && !ANNOTATIONS.contains(&key.as_str()) {
            problem(
                problems,
                &format!("{at}/{key}"),
                format!(
                    "the keyword `{key}` is not supported (supported: {})",
                    CHECKED.join(", ")
                ),
            );
        }
    }
    let usize_of = |key: &str, problems: &mut Vec<SchemaProblem>| -> Option<usize> {
        let v = map.get(key)?;
        match v.as_u64() {
            Some(n) => Some(n as usize),
            None => {
                problem(
                    problems,
                    &format!("{at}/{key}"),
                    format!("`{key}` must be a whole number of at least 0, not {v}"),
                );
                None
            }
        }
    };
    let f64_of = |key: &str, problems: &mut Vec<SchemaProblem>| -> Option<f64> {
        let v = map.get(key)?;
        match v.as_f64() {
            Some(n) => Some(n),
            None => {
                problem(
                    problems,
                    &format!("{at}/{key}"),
                    format!("`{key}` must be a number, not {v}"),
                );
                None
            }
        }
    };
    // `type`: one name, or a list of one name and "null".
    let (ty, nullable) = match map.get("type") {
        None if map.contains_key("properties") => (Some("object"), false),
        None if map.contains_key("enum") => (Some("string"), false),
        None if map.contains_key("items") => (Some("array"), false),
        None => {
            problem(
                problems,
                at,
                "give a `type` (object, array, string, integer, number or boolean)".into(),
            );
            (None, false)
        }
        Some(Value::String(t)) => (Some(t.as_str()), false),
        Some(Value::Array(ts)) => {
            let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            let rest: Vec<&str> = names.iter().copied().filter(|t| *t != "null").collect();
            if rest.len() != 1 || names.len() != ts.len() {
                problem(
                    problems,
                    &format!("{at}/type"),
                    "a list of types may only be one type and \"null\"".into(),
                );
                (None, false)
            } else {
                (Some(rest[0]), names.len() == 2)
            }
        }
        Some(other) => {
            problem(
                problems,
                &format!("{at}/type"),
                format!("`type` must be a name, not {other}"),
            );
            (None, false)
        }
    };
    let read = match ty {
        Some("string") => {
            let values = match map.get("enum") {
                None => None,
                Some(Value::Array(vs)) if !vs.is_empty() && vs.iter().all(Value::is_string) => {
                    Some(
                        vs.iter()
                            .filter_map(Value::as_str)
                            .map(String::from)
                            .collect(),
                    )
                }
                Some(_) => {
                    problem(
                        problems,
                        &format!("{at}/enum"),
                        "`enum` must be a non-empty list of strings".into(),
                    );
                    None
                }
            };
            Node::String {
                min: usize_of("minLength", problems),
                max: usize_of("maxLength", problems),
                values,
            }
        }
        Some(t @ ("integer" | "number")) => Node::Number {
            min: f64_of("minimum", problems),
            max: f64_of("maximum", problems),
            integer: t == "integer",
        },
        Some("boolean") => Node::Bool,
        Some("array") => {
            let item = match map.get("items") {
                Some(items) => read_at(
                    items,
                    &format!("{at}/items"),
                    &format!("{path}/*"),
                    depth + 1,
                    problems,
                    closed,
                )
                .map(|(n, _)| n),
                None => Some(Node::Any),
            };
            Node::Array {
                item: Box::new(item.unwrap_or(Node::Any)),
                min: usize_of("minItems", problems).unwrap_or(0),
                max: usize_of("maxItems", problems).unwrap_or(usize::MAX),
            }
        }
        Some("object") => {
            let required: Vec<&str> = match map.get("required") {
                None => Vec::new(),
                Some(Value::Array(r)) if r.iter().all(Value::is_string) => {
                    r.iter().filter_map(Value::as_str).collect()
                }
                Some(_) => {
                    problem(
                        problems,
                        &format!("{at}/required"),
                        "`required` must be a list of property names".into(),
                    );
                    Vec::new()
                }
            };
            match (map.get("properties"), map.get("additionalProperties")) {
                (None, Some(extra @ Value::Object(_))) => {
                    let value = read_at(
                        extra,
                        &format!("{at}/additionalProperties"),
                        &format!("{path}/*"),
                        depth + 1,
                        problems,
                        closed,
                    )
                    .map_or(Node::Any, |(n, _)| n);
                    Node::Map(Box::new(value))
                }
                (Some(_), Some(Value::Object(_))) => {
                    problem(
                        problems,
                        &format!("{at}/additionalProperties"),
                        "a schema for extra properties beside `properties` is not supported: give `false`, `true`, or leave it out".into(),
                    );
                    Node::Any
                }
                (props, extra) => {
                    if let Some(e) = extra.filter(|e| !e.is_boolean()) {
                        problem(
                            problems,
                            &format!("{at}/additionalProperties"),
                            format!(
                                "`additionalProperties` must be true, false or a schema, not {e}"
                            ),
                        );
                    }
                    if extra == Some(&Value::Bool(false)) {
                        closed.push(path.to_string());
                    }
                    let props = match props {
                        None => &serde_json::Map::new(),
                        Some(Value::Object(p)) => p,
                        Some(other) => {
                            problem(
                                problems,
                                &format!("{at}/properties"),
                                format!("`properties` must be an object, not {other}"),
                            );
                            &serde_json::Map::new()
                        }
                    };
                    for r in &required {
                        if !props.contains_key(*r) {
                            problem(
                                problems,
                                &format!("{at}/required"),
                                format!("\"{r}\" is required but is not in `properties`"),
                            );
                        }
                    }
                    if props.len() > FIELDS_MAX {
                        problem(
                            problems,
                            &format!("{at}/properties"),
                            format!("an object may have at most {FIELDS_MAX} properties"),
                        );
                    }
                    // Required fields first, in the order `required` lists them; then the rest.
                    let mut names: Vec<&String> = props.keys().collect();
                    crate::order::sort_by_key(&mut names, |k| {
                        required
                            .iter()
                            .position(|r| r == k)
                            .map_or((1, 0), |i| (0, i))
                    });
                    let mut fields = Vec::new();
                    for name in names {
                        let field_at = format!("{at}/properties/{}", escape(name));
                        let field_path = format!("{path}/{}", escape(name));
                        if let Some((n, nullable)) = read_at(
                            &props[name],
                            &field_at,
                            &field_path,
                            depth + 1,
                            problems,
                            closed,
                        ) {
                            fields.push((
                                name.clone(),
                                n,
                                required.contains(&name.as_str()),
                                nullable,
                            ));
                        }
                    }
                    if props.is_empty() {
                        Node::Map(Box::new(Node::Any))
                    } else {
                        Node::Object { fields }
                    }
                }
            }
        }
        Some(other) => {
            problem(
                problems,
                &format!("{at}/type"),
                format!("the type \"{other}\" is not one of object, array, string, integer, number, boolean"),
            );
            Node::Any
        }
        None => Node::Any,
    };
    // Keywords that do not belong to the type given.
    let belongs: &[&str] = match &read {
        Node::String { .. } => &["minLength", "maxLength", "enum"],
        Node::Number { .. } => &["minimum", "maximum"],
        Node::Array { .. } => &["items", "minItems", "maxItems"],
        Node::Object { .. } | Node::Map(_) => &["properties", "required", "additionalProperties"],
        Node::Bool | Node::Any => &[],
    };
    for key in CHECKED.iter().filter(|k| **k != "type") {
        if map.contains_key(*key) && !belongs.contains(key) && ty.is_some() {
            problem(
                problems,
                &format!("{at}/{key}"),
                format!(
                    "`{key}` does not apply to the type \"{}\"",
                    ty.unwrap_or("")
                ),
            );
        }
    }
    (problems.len() == before).then_some((read, nullable))
}

/// A property name as a JSON pointer segment.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn leak_ty(node: Node) -> Ty {
    match node {
        Node::Any => Ty::Any,
        Node::String {
            values: Some(values),
            ..
        } => {
            let values: Vec<&'static str> = values
                .into_iter()
                .map(|v| &*Box::leak(v.into_boxed_str()))
                .collect();
            Ty::Enum(Box::leak(values.into_boxed_slice()))
        }
        Node::String {
            min: Some(min),
            max,
            ..
        } if min > 0 => Ty::NonBlank {
            min,
            max: max.unwrap_or(usize::MAX),
        },
        Node::String { max, .. } => Ty::Text {
            max: max.unwrap_or(usize::MAX),
        },
        Node::Number { min, max, integer } => Ty::Number { min, max, integer },
        Node::Bool => Ty::Bool,
        Node::Array { item, min, max } => Ty::Array {
            item: Box::leak(Box::new(leak_ty(*item))),
            min,
            max,
        },
        Node::Object { fields } => Ty::Object(Box::leak(Box::new(Obj {
            fields: leak_fields(fields),
        }))),
        Node::Map(value) => Ty::Map(Box::leak(Box::new(leak_ty(*value)))),
    }
}

fn leak_fields(fields: Vec<(String, Node, bool, bool)>) -> &'static [Field] {
    let fields: Vec<Field> = fields
        .into_iter()
        .map(|(name, node, required, nullable)| Field {
            name: Box::leak(name.into_boxed_str()),
            ty: leak_ty(node),
            required,
            nullable,
        })
        .collect();
    Box::leak(fields.into_boxed_slice())
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn every_violation_has_its_pointer_expected_received_and_hint() {
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
            messages.iter().any(|m| m.contains("must be a number")),
            "{messages:?}"
        );
        assert!(
            messages.iter().any(|m| m.contains("must be an array")),
            "{messages:?}"
        );
        assert!(
            messages.contains(&"missing required field verdict"),
            "{messages:?}"
        );
    }

    #[test]
    fn unsupported_keywords_are_refused_by_name_with_their_pointer() {
        let bad = json!({
            "type": "object",
            "properties": {
                "email": {"type": "string", "format": "email"},
                "tags": {"type": "array", "items": {"type": "string", "pattern": "^a"}},
                "n": {"type": "integer", "minLength": 2}
            },
            "required": ["email", "missing"],
            "oneOf": []
        });
        let problems = compile_schema(&bad).unwrap_err();
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        for expected in [
            "at /oneOf: the keyword `oneOf` is not supported",
            "at /properties/email/format: the keyword `format` is not supported",
            "at /properties/tags/items/pattern: the keyword `pattern` is not supported",
            "at /properties/n/minLength: `minLength` does not apply to the type \"integer\"",
            "at /required: \"missing\" is required but is not in `properties`",
        ] {
            assert!(
                text.iter().any(|t| t.starts_with(expected)),
                "{expected} in {text:#?}"
            );
        }
    }

    #[test]
    fn the_root_must_be_an_object_of_properties() {
        let problems =
            compile_schema(&json!({"type": "array", "items": {"type": "string"}})).unwrap_err();
        assert!(
            problems[0].message.contains("root must be an object"),
            "{problems:?}"
        );
    }

    #[test]
    fn the_same_schema_is_compiled_once() {
        let a = compile_schema(&schema()).unwrap();
        let b = compile_schema(&schema()).unwrap();
        assert!(std::ptr::eq(a.obj, b.obj));
    }

    #[test]
    fn nested_closed_objects_refuse_extras_at_their_own_pointer() {
        let s = json!({"type": "object", "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}}
        }});
        let errors = verdict(
            &s,
            r#"{"items": [{"a": "x"}, {"a": "y", "b": 1}], "free": 1}"#,
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].path, "/items/1/b");
    }
}
