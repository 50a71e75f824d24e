//! A shape chosen at run time: the JSON Schema a person gives (a dialectic's `response_schema`,
//! spec `002`), read as people write it — what Pydantic, zod-to-json-schema, TypeBox and hand
//! writing produce, in the draft 2020-12 and draft-07 spellings — and every answer checked
//! against it with the same pointers, `expected` / `received` / hint and repair wording as every
//! generated shape.
//!
//! Read and checked (`eval.rs` walks an answer's value against the schema's own JSON):
//! - `$ref` to any place of the same schema (`#`, `#/$defs/…`, `#/definitions/…`), recursion
//!   included: a recursive schema is followed as deep as the answer goes, never further;
//! - `allOf`, `anyOf`, `oneOf`, `not`, `if` / `then` / `else`, at any level, the root included;
//! - `type` (a name or a list), `enum`, `const`;
//! - objects: `properties`, `required`, `additionalProperties` and `patternProperties` (a map
//!   is an object whose extra keys meet a schema), `propertyNames`, `minProperties` /
//!   `maxProperties`, `dependentRequired`, `dependentSchemas`, draft-07's `dependencies`;
//! - arrays: `items`, `prefixItems` (and draft-07's list `items` with `additionalItems`),
//!   `contains` / `minContains` / `maxContains`, `minItems` / `maxItems`, `uniqueItems`;
//! - strings: `minLength` / `maxLength` (in characters), `pattern`, and `format` for
//!   `date-time`, `date`, `time`, `email`, `uri`, `uuid`, `ipv4` and `ipv6` (as ajv-formats
//!   checks them, `format.rs`); any other format is kept as a note and said so ([`RuntimeShape::notes`]);
//! - numbers: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`.
//!
//! Annotations (`title`, `description`, `examples`, `default`, `$comment`, `deprecated`,
//! `readOnly`, `writeOnly`, `discriminator`, `x-…`) are read and left alone.
//!
//! Refused when the session is created, each problem with its pointer into the schema and the
//! true reason: a `$ref` that leaves the schema (no request ever leaves the tab), a `$ref` loop
//! that never reaches the answer, a `pattern` that needs backtracking (lookaround,
//! backreferences: the checker runs patterns on `regex-lite`, whose time is linear in the text),
//! keywords it does not check (`unevaluatedProperties`, `$dynamicRef`, …) and unknown ones, and
//! sizes past [`SCHEMA_TEXT_MAX`], [`SCHEMA_DEPTH_MAX`] and [`PATTERN_MAX`]. A text nested too deep
//! to read ([`parse_schema_text`]) is refused with its depth and pointer.
//!
//! A compiled schema is *interned*: built once per distinct schema text and kept for the life
//! of the program (a person gives a handful), so [`RuntimeShape`] is a cheap copyable handle.

mod eval;
mod format;
mod order;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use regex_lite::Regex;
use serde_json::Value;

use super::{Options, Verdict};

/// The longest schema text a person may give (as compact JSON).
pub const SCHEMA_TEXT_MAX: usize = 32_000;
/// The deepest nesting of subschemas (and of the schema's JSON text) a schema may have.
pub const SCHEMA_DEPTH_MAX: usize = 32;
/// The longest `pattern` (or `patternProperties` key).
pub const PATTERN_MAX: usize = 1_000;
/// The most subschemas one schema may hold.
pub const SUBSCHEMAS_MAX: usize = 2_000;

/// Why a schema cannot be used, at one place of it (or a note on what it does not check).
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

/// A schema compiled for the checker: cheap to copy, valid for the life of the program.
#[derive(Debug, Clone, Copy)]
pub struct RuntimeShape {
    compiled: &'static Compiled,
}

/// What a compiled schema keeps: the schema itself, its patterns compiled, its notes.
#[derive(Debug)]
struct Compiled {
    root: Value,
    patterns: BTreeMap<String, Regex>,
    notes: Vec<SchemaProblem>,
}

impl RuntimeShape {
    /// What the schema says that is not checked (a `format` other than the eight checked),
    /// each with its pointer: shown to the person beside the accepted schema.
    pub fn notes(&self) -> &'static [SchemaProblem] {
        &self.compiled.notes
    }
}

/// The compiled shapes, by schema text: each distinct schema is built once.
static INTERNED: Mutex<BTreeMap<String, RuntimeShape>> = Mutex::new(BTreeMap::new());

/// Reads a schema the person pasted: its nesting first (a text nested deeper than
/// [`SCHEMA_DEPTH_MAX`] containers is refused with the depth and the pointer where it goes
/// past, not as "not valid JSON"), then its JSON (a syntax error with its line and column).
pub fn parse_schema_text(text: &str) -> Result<Value, SchemaProblem> {
    // Each subschema is at least one container deep, often two (`properties`, then the field):
    // the text may nest twice as deep as the subschemas, plus the root.
    let limit = 2 * SCHEMA_DEPTH_MAX + 1;
    if let Some((depth, pointer)) = order::too_deep(text, limit) {
        return Err(SchemaProblem {
            pointer,
            message: format!(
                "the schema nests {depth} levels of objects and arrays here; the limit is {limit}"
            ),
        });
    }
    serde_json::from_str(text).map_err(|e| SchemaProblem {
        pointer: String::new(),
        message: format!(
            "the schema is not valid JSON: {} at line {}, column {}",
            strip_position(&e.to_string()),
            e.line(),
            e.column()
        ),
    })
}

fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

/// Compiles a person's JSON Schema for the checker, or every problem with it, each with its
/// pointer and reason (see the module docs for what is read and what is refused).
pub fn compile_schema(schema: &Value) -> Result<RuntimeShape, Vec<SchemaProblem>> {
    let text = schema.to_string();
    if let Some(shape) = INTERNED.lock().ok().and_then(|m| m.get(&text).copied()) {
        return Ok(shape);
    }
    if text.len() > SCHEMA_TEXT_MAX {
        return Err(vec![SchemaProblem {
            pointer: String::new(),
            message: format!(
                "the schema is {} characters long; the limit is {SCHEMA_TEXT_MAX}",
                text.len()
            ),
        }]);
    }
    let mut scan = Scan {
        root: schema,
        problems: Vec::new(),
        notes: Vec::new(),
        patterns: BTreeMap::new(),
        nodes: BTreeSet::new(),
        in_place: Vec::new(),
        refs: Vec::new(),
        count: 0,
    };
    scan.node(schema, "", 0);
    scan.resolve_refs();
    if !scan.problems.is_empty() {
        return Err(scan.problems);
    }
    let compiled: &'static Compiled = Box::leak(Box::new(Compiled {
        root: schema.clone(),
        patterns: scan.patterns,
        notes: scan.notes,
    }));
    let shape = RuntimeShape { compiled };
    if let Ok(mut m) = INTERNED.lock() {
        m.insert(text, shape);
    }
    Ok(shape)
}

/// Checks a raw answer against a compiled schema. The answer is recovered as every answer is
/// (a fence, prose around it, trailing commas: each repair a warning); then its value is walked
/// against the schema, and every violation comes with its pointer, in the order of the answer.
pub fn check_against_schema<'a>(
    shape: RuntimeShape,
    raw: &'a str,
    options: Options,
) -> Verdict<'a> {
    let (value, verdict) = match serde_json::from_str::<Value>(raw.trim()) {
        Ok(value) => (
            value,
            Verdict {
                errors: Vec::new(),
                warnings: Vec::new(),
                json: std::borrow::Cow::Borrowed(raw.trim()),
            },
        ),
        Err(_) => {
            // The recovery of every answer: an object with no known fields, so only the syntax
            // and the repairs are reported.
            static ANY: super::shape::Obj = super::shape::Obj { fields: &[] };
            let mut verdict = super::check_object(&ANY, raw, options);
            verdict
                .warnings
                .retain(|w| !w.message.starts_with("unknown field") || w.path.is_empty());
            match (
                verdict.is_ok(),
                serde_json::from_str::<Value>(&verdict.json),
            ) {
                (true, Ok(value)) => (value, verdict),
                _ => return verdict,
            }
        }
    };
    let mut verdict = verdict;
    let mut errors = eval::check(shape.compiled, &value);
    order::sort_by_answer(&mut errors, &verdict.json);
    verdict.errors = errors;
    if options.truncated && !verdict.is_ok() {
        verdict.errors.insert(0, super::recover::cut_off(raw));
    }
    verdict
}

/// A subschema keyword whose value is one schema.
const ONE: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
];
/// A subschema keyword whose value is a map of schemas.
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// A subschema keyword whose value is a list of schemas.
const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords that apply to the same value as the schema they stand in (a `$ref` loop through
/// them alone never reaches the answer).
const IN_PLACE: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "dependentSchemas",
];
/// Keywords of a value's own (checked, or read for their place).
const VALUES: &[&str] = &[
    "type",
    "enum",
    "const",
    "required",
    "dependentRequired",
    "dependencies",
    "items",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "$ref",
    "$schema",
    "$id",
];
/// Keywords that only describe: read and left alone.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "default",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "discriminator",
    "contentMediaType",
    "contentEncoding",
    "nullable",
];
/// Keywords known but not checked, each with the reason and what to write instead.
const REFUSED: &[(&str, &str)] = &[
    ("$dynamicRef", "dynamic references are not supported: use $ref to a place in $defs"),
    ("$dynamicAnchor", "dynamic anchors are not supported: use $ref to a place in $defs"),
    ("$recursiveRef", "recursive references of draft 2019-09 are not supported: use $ref to a place in $defs (\"#\" for the root)"),
    ("$recursiveAnchor", "recursive anchors of draft 2019-09 are not supported: use $ref to a place in $defs"),
    ("$anchor", "anchors are not supported: name the place with a JSON pointer ($ref: \"#/$defs/…\")"),
    ("$vocabulary", "custom vocabularies are not supported"),
    ("unevaluatedProperties", "unevaluatedProperties is not checked: use additionalProperties (with allOf, repeat the properties)"),
    ("unevaluatedItems", "unevaluatedItems is not checked: use items"),
];
/// The drafts whose spelling is read.
const DRAFTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
];
const TYPES: &[&str] = &[
    "object", "array", "string", "integer", "number", "boolean", "null",
];

/// The walk over a schema at compile time.
struct Scan<'a> {
    root: &'a Value,
    problems: Vec<SchemaProblem>,
    notes: Vec<SchemaProblem>,
    patterns: BTreeMap<String, Regex>,
    /// The pointer of every subschema read.
    nodes: BTreeSet<String>,
    /// (from, to): a subschema applying to the same value as the schema it stands in.
    in_place: Vec<(String, String)>,
    /// (the `$ref`'s own pointer, the schema it stands in, the place it names).
    refs: Vec<(String, String, String)>,
    count: usize,
}

impl Scan<'_> {
    fn problem(&mut self, pointer: String, message: impl Into<String>) {
        self.problems.push(SchemaProblem {
            pointer,
            message: message.into(),
        });
    }

    fn node(&mut self, node: &Value, at: &str, depth: usize) {
        self.count += 1;
        if self.count == SUBSCHEMAS_MAX + 1 {
            self.problem(
                at.to_string(),
                format!("the schema holds more than {SUBSCHEMAS_MAX} subschemas"),
            );
        }
        if depth > SCHEMA_DEPTH_MAX {
            self.problem(
                at.to_string(),
                format!(
                    "the schema nests subschemas {depth} levels deep here; the limit is {SCHEMA_DEPTH_MAX}"
                ),
            );
            return;
        }
        self.nodes.insert(at.to_string());
        let map = match node {
            Value::Bool(_) => return,
            Value::Object(map) => map,
            other => {
                self.problem(
                    at.to_string(),
                    format!(
                        "a schema must be an object or true/false, not {}",
                        short(other)
                    ),
                );
                return;
            }
        };
        if depth > 0 && map.contains_key("$schema") {
            // Only the root may say which draft it is written in.
            self.problem(format!("{at}/$schema"), "$schema belongs at the root only");
        }
        for (key, value) in map {
            let here = format!("{at}/{}", escape(key));
            if ONE.contains(&key.as_str()) {
                self.child(value, &here, depth, at, IN_PLACE.contains(&key.as_str()));
            } else if MAP.contains(&key.as_str()) {
                match value {
                    Value::Object(children) => {
                        for (name, child) in children {
                            if key == "patternProperties" {
                                self.pattern(name, &here);
                            }
                            let in_place = key == "dependentSchemas";
                            self.child(
                                child,
                                &format!("{here}/{}", escape(name)),
                                depth,
                                at,
                                in_place,
                            );
                        }
                    }
                    other => self.problem(
                        here,
                        format!("`{key}` must be an object of schemas, not {}", short(other)),
                    ),
                }
            } else if LIST.contains(&key.as_str()) {
                match value {
                    Value::Array(children) if !children.is_empty() || key == "prefixItems" => {
                        for (i, child) in children.iter().enumerate() {
                            let in_place = key != "prefixItems";
                            self.child(child, &format!("{here}/{i}"), depth, at, in_place);
                        }
                    }
                    other => self.problem(
                        here,
                        format!(
                            "`{key}` must be a non-empty list of schemas, not {}",
                            short(other)
                        ),
                    ),
                }
            } else if VALUES.contains(&key.as_str()) {
                self.value_keyword(key, value, &here, at, depth);
            } else if ANNOTATIONS.contains(&key.as_str()) || key.starts_with("x-") {
            } else if let Some((_, why)) = REFUSED.iter().find(|(k, _)| k == key) {
                self.problem(here, *why);
            } else {
                self.problem(
                    here,
                    format!("`{key}` is not a keyword of JSON Schema (draft 2020-12 or draft-07) that this checker knows; if it is only a note, name it `x-{key}`"),
                );
            }
        }
    }

    fn child(&mut self, node: &Value, at: &str, depth: usize, parent: &str, in_place: bool) {
        if in_place {
            self.in_place.push((parent.to_string(), at.to_string()));
        }
        self.node(node, at, depth + 1);
    }

    fn pattern(&mut self, pattern: &str, at: &str) {
        if pattern.chars().count() > PATTERN_MAX {
            self.problem(
                at.to_string(),
                format!("the pattern is longer than {PATTERN_MAX} characters"),
            );
            return;
        }
        if self.patterns.contains_key(pattern) {
            return;
        }
        if let Some(why) = backtracking(pattern) {
            self.problem(
                at.to_string(),
                format!("the pattern uses {why}, which needs a backtracking engine whose time can grow exponentially with the text; patterns here run in linear time — write it without {why}"),
            );
            return;
        }
        match Regex::new(pattern) {
            Ok(re) => {
                self.patterns.insert(pattern.to_string(), re);
            }
            Err(e) => {
                let first = e.to_string();
                let first = first.lines().last().unwrap_or("").trim().to_string();
                self.problem(
                    at.to_string(),
                    format!("the pattern cannot be read: {first}"),
                );
            }
        }
    }

    fn value_keyword(&mut self, key: &str, value: &Value, here: &str, at: &str, depth: usize) {
        let count = |v: &Value| v.as_u64().is_some();
        match key {
            "type" => {
                let names: Vec<&Value> = match value {
                    Value::Array(ts) if !ts.is_empty() => ts.iter().collect(),
                    Value::String(_) => vec![value],
                    _ => Vec::new(),
                };
                let bad = names.is_empty()
                    || names.iter().any(|t| !t.as_str().is_some_and(|t| TYPES.contains(&t)));
                let unique: BTreeSet<String> = names.iter().map(|t| t.to_string()).collect();
                if bad || unique.len() != names.len() {
                    self.problem(here.to_string(), format!("`type` must be one of {} or a list of them without repeats, not {}", TYPES.join(", "), short(value)));
                }
            }
            "enum" => match value {
                Value::Array(vs) if !vs.is_empty() => {}
                other => self.problem(here.to_string(), format!("`enum` must be a non-empty list of values, not {}", short(other))),
            },
            "const" => {}
            "required" if !value.as_array().is_some_and(|r| r.iter().all(Value::is_string)) => {
                self.problem(here.to_string(), "`required` must be a list of property names");
            }
            "dependentRequired" => {
                let ok = value.as_object().is_some_and(|m| {
                    m.values().all(|v| v.as_array().is_some_and(|r| r.iter().all(Value::is_string)))
                });
                if !ok {
                    self.problem(here.to_string(), "`dependentRequired` must map property names to lists of property names");
                }
            }
            "dependencies" => match value {
                Value::Object(m) => {
                    for (name, dep) in m {
                        let dep_at = format!("{here}/{}", escape(name));
                        match dep {
                            Value::Array(r) if r.iter().all(Value::is_string) => {}
                            Value::Array(_) => self.problem(dep_at, "a dependency list holds property names only"),
                            schema => self.child(schema, &dep_at, depth, at, true),
                        }
                    }
                }
                other => self.problem(here.to_string(), format!("`dependencies` must be an object, not {}", short(other))),
            },
            "items" => match value {
                // Draft-07's list of items (2020-12 spells it `prefixItems`).
                Value::Array(children) => {
                    for (i, child) in children.iter().enumerate() {
                        self.child(child, &format!("{here}/{i}"), depth, at, false);
                    }
                }
                schema => self.child(schema, here, depth, at, false),
            },
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minContains"
            | "maxContains" | "minProperties" | "maxProperties"
                if !count(value) =>
            {
                self.problem(here.to_string(), format!("`{key}` must be a whole number of at least 0, not {}", short(value)));
            }
            "minimum" | "maximum" if !value.is_number() => {
                self.problem(here.to_string(), format!("`{key}` must be a number, not {}", short(value)));
            }
            "exclusiveMinimum" | "exclusiveMaximum" => {
                if value.is_boolean() {
                    self.problem(here.to_string(), format!("`{key}` as true/false is draft-04; since draft-06 it is the bound itself (write `\"{key}\": <the bound>` in place of `minimum`/`maximum`)"));
                } else if !value.is_number() {
                    self.problem(here.to_string(), format!("`{key}` must be a number, not {}", short(value)));
                }
            }
            "multipleOf" if !value.as_f64().is_some_and(|m| m > 0.0) => {
                self.problem(here.to_string(), format!("`multipleOf` must be a number above 0, not {}", short(value)));
            }
            "uniqueItems" if !value.is_boolean() => {
                self.problem(here.to_string(), "`uniqueItems` must be true or false");
            }
            "pattern" => match value.as_str() {
                Some(p) => self.pattern(p, here),
                None => self.problem(here.to_string(), "`pattern` must be a string"),
            },
            "format" => match value.as_str() {
                Some(f) if format::CHECKED.contains(&f) => {}
                Some(f) => self.notes.push(SchemaProblem {
                    pointer: here.to_string(),
                    message: format!("the format \"{f}\" is not checked (checked: {}); it is kept as a note to the model", format::CHECKED.join(", ")),
                }),
                None => self.problem(here.to_string(), "`format` must be a string"),
            },
            "$ref" => match value.as_str() {
                Some(r) if r.starts_with('#') => {
                    self.refs.push((here.to_string(), at.to_string(), r.to_string()));
                }
                Some(r) => self.problem(here.to_string(), format!("\"{r}\" is a remote $ref: the schema must hold everything it names, because no request ever leaves the tab — copy that definition into $defs and point to it with \"#/$defs/…\"")),
                None => self.problem(here.to_string(), "`$ref` must be a string"),
            },
            "$schema" => match value.as_str() {
                Some(s) if DRAFTS.contains(&s.trim_end_matches('#')) => {}
                Some(s) if s.contains("draft-04") || s.contains("draft-03") => self.problem(here.to_string(), format!("{s} is an old draft; write the schema in draft-07 or 2020-12")),
                _ => self.problem(here.to_string(), format!("$schema must name draft 2020-12, 2019-09, draft-07 or draft-06, not {}", short(value))),
            },
            "$id" => {
                if at.is_empty() {
                    return;
                }
                // A nested `$id` moves the base of every `$ref` under it.
                self.problem(here.to_string(), "$id is read at the root only: a nested $id changes what the $refs under it point to; name the place with $defs instead");
            }
            _ => {}
        }
    }

    /// Every `$ref` must name a subschema of this schema, and no loop of `$ref`s may come back
    /// to where it started without going into the answer.
    fn resolve_refs(&mut self) {
        let refs = std::mem::take(&mut self.refs);
        let mut edges = std::mem::take(&mut self.in_place);
        for (here, from, target) in &refs {
            let pointer = fragment_pointer(target);
            match pointer {
                Some(p) if self.nodes.contains(&p) => edges.push((from.clone(), p)),
                Some(p) if self.root.pointer(&p).is_some() => self.problem(
                    here.clone(),
                    format!("\"{target}\" names something that is not a schema (point into $defs, definitions or properties)"),
                ),
                _ => self.problem(
                    here.clone(),
                    format!("\"{target}\" names no place in this schema"),
                ),
            }
        }
        if !self.problems.is_empty() {
            return;
        }
        // A loop of in-place steps: the first `$ref` on it is where it is reported.
        let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (a, b) in &edges {
            next.entry(a.as_str()).or_default().push(b.as_str());
        }
        let mut state: BTreeMap<&str, u8> = BTreeMap::new();
        let mut looped: Option<String> = None;
        for start in self.nodes.iter() {
            if looped.is_some() {
                break;
            }
            let mut stack: Vec<(&str, usize)> = vec![(start.as_str(), 0)];
            if state.get(start.as_str()).copied().unwrap_or(0) != 0 {
                continue;
            }
            state.insert(start, 1);
            while let Some((node, i)) = stack.pop() {
                let out = next.get(node).map_or(&[][..], Vec::as_slice);
                if let Some(&succ) = out.get(i) {
                    stack.push((node, i + 1));
                    match state.get(succ).copied().unwrap_or(0) {
                        0 => {
                            state.insert(succ, 1);
                            stack.push((succ, 0));
                        }
                        1 => {
                            looped = Some(node.to_string());
                            break;
                        }
                        _ => {}
                    }
                } else {
                    state.insert(node, 2);
                }
            }
        }
        if let Some(node) = looped {
            let at = refs
                .iter()
                .find(|(_, from, _)| *from == node)
                .map_or(node.clone(), |(here, _, _)| here.clone());
            self.problem(
                at,
                "this $ref leads back to itself without going into the answer (through $ref, allOf, anyOf, oneOf, not or if alone), so checking would never end",
            );
        }
    }
}

/// Why a pattern needs backtracking, if it does: a lookaround or a backreference.
fn backtracking(pattern: &str) -> Option<&'static str> {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    let mut in_class = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if let Some(&c) = bytes.get(i + 1) {
                    if !in_class && (c.is_ascii_digit() && c != b'0' || c == b'k') {
                        return Some("a backreference");
                    }
                }
                i += 2;
                continue;
            }
            b'[' => in_class = true,
            b']' => in_class = false,
            b'(' if !in_class => {
                let rest = &pattern[i + 1..];
                if rest.starts_with("?=")
                    || rest.starts_with("?!")
                    || rest.starts_with("?<=")
                    || rest.starts_with("?<!")
                {
                    return Some("a lookaround");
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The JSON pointer a local `$ref` names (`#/$defs/a%20b` → `/$defs/a b`), or `None` for a
/// fragment that is not a pointer (an anchor).
fn fragment_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    if !(fragment.is_empty() || fragment.starts_with('/')) {
        return None;
    }
    Some(percent_decode(fragment))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// One segment of a `$ref`'s pointer as the name it stands for: percent-decoded, then `~1` as
/// `/` and `~0` as `~`.
pub fn decode_pointer_segment(seg: &str) -> String {
    percent_decode(seg).replace("~1", "/").replace("~0", "~")
}

/// A property name as a JSON pointer segment.
pub fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// A keyword value shortened for a message.
fn short(v: &Value) -> String {
    super::json::shorten(&v.to_string(), 60)
}

#[cfg(test)]
mod tests;
