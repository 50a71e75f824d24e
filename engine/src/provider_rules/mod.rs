//! The published rules each provider family holds a response schema to, as checkers: one module
//! per family ([`openai`], [`anthropic`], [`gemini`], [`grammar`]), each rule with the page it
//! comes from and the date it was read. [`check`] lists every rule a schema breaks, so a test (or
//! the loopback mock, through `core-js`) refuses what the real API refuses — judged by the
//! providers' words, not by the code that writes the schemas ([`crate::provider_schema`]).
//!
//! Pure: a schema in, the broken rules out; no I/O.

pub mod anthropic;
pub mod gemini;
pub mod grammar;
pub mod openai;

use std::collections::BTreeSet;

use serde_json::{Map, Value};

/// A family of structured-output APIs: the providers in one family take the same schema form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// OpenAI strict `json_schema`, and the services that copy it (OpenRouter, Mistral, Groq).
    OpenaiStrict,
    /// Anthropic structured outputs (`output_config.format`).
    Anthropic,
    /// Gemini `responseJsonSchema`.
    Gemini,
    /// Servers that compile the schema into a sampling grammar (Ollama, LM Studio, llama.cpp,
    /// vLLM).
    Grammar,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 4] = [
        Family::OpenaiStrict,
        Family::Anthropic,
        Family::Gemini,
        Family::Grammar,
    ];

    /// The family's wire name (`openai_strict`, `anthropic`, `gemini`, `grammar`).
    pub fn name(self) -> &'static str {
        match self {
            Family::OpenaiStrict => "openai_strict",
            Family::Anthropic => "anthropic",
            Family::Gemini => "gemini",
            Family::Grammar => "grammar",
        }
    }

    /// The family of a wire name; `None` for a name no family has.
    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// One published rule a schema breaks, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error("{at}: {message} ({source_url})")]
#[serde(rename_all = "camelCase")]
pub struct RuleBreak {
    /// JSON pointer of the schema position (`""` for the root).
    pub at: String,
    /// What is wrong there, in the provider's terms.
    pub message: String,
    /// The page the rule is published on.
    pub source_url: &'static str,
}

/// Every rule of `family` that `schema` breaks (empty when the provider would take it).
pub fn check(family: Family, schema: &Value) -> Vec<RuleBreak> {
    match family {
        Family::OpenaiStrict => openai::check(schema),
        Family::Anthropic => anthropic::check(schema),
        Family::Gemini => gemini::check(schema),
        Family::Grammar => grammar::check(schema),
    }
}

/// Collects rule breaks under one source.
pub struct Breaks<'a> {
    /// The breaks so far.
    pub list: &'a mut Vec<RuleBreak>,
}

impl Breaks<'_> {
    /// Records that the rule published at `source` is broken at `at`.
    pub fn add(&mut self, at: &str, source: &'static str, message: impl Into<String>) {
        self.list.push(RuleBreak {
            at: at.to_string(),
            message: message.into(),
            source_url: source,
        });
    }
}

/// The keywords whose value is a map of subschemas (`$defs` holds definitions, not a place).
pub const SUBSCHEMA_MAPS: &[&str] = &["properties", "$defs"];
/// The keywords whose value is a list of subschemas.
pub const SUBSCHEMA_LISTS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];
/// The keywords whose value is one subschema (`additionalProperties` when it is not a boolean).
pub const SUBSCHEMA_ONE: &[&str] = &["items", "additionalProperties"];

/// The subschemas directly under a schema object, each with its JSON pointer suffix
/// (`/properties/name`, `/anyOf/0`, `/items`), in the keywords' order; the definitions under
/// `$defs` only `with_defs`. Every walk over a schema, the checkers' and the forms', goes by
/// these keyword lists.
pub fn children(obj: &Map<String, Value>, with_defs: bool) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    for (k, c) in obj {
        let k = k.as_str();
        if SUBSCHEMA_MAPS.contains(&k) && (with_defs || k != "$defs") {
            for (n, s) in c.as_object().into_iter().flatten() {
                out.push((format!("/{k}/{}", escape(n)), s));
            }
        } else if SUBSCHEMA_LISTS.contains(&k) {
            for (i, s) in c.as_array().into_iter().flatten().enumerate() {
                out.push((format!("/{k}/{i}"), s));
            }
        } else if SUBSCHEMA_ONE.contains(&k) {
            out.push((format!("/{k}"), c));
        }
    }
    out
}

/// Every schema position of `schema` with its JSON pointer: the root and everything under
/// `properties`, `$defs`, `items`, `prefixItems`, `anyOf`, `oneOf`, `allOf`,
/// `additionalProperties` (when a schema), each once where it is written (a `$ref` is not
/// followed: [`reachable`] follows them).
pub fn nodes(schema: &Value) -> Vec<Node<'_>> {
    fn go<'v>(v: &'v Value, at: String, out: &mut Vec<Node<'v>>) {
        let Some(obj) = v.as_object() else { return };
        out.push(Node {
            at: at.clone(),
            obj,
        });
        for (suffix, c) in children(obj, true) {
            go(c, format!("{at}{suffix}"), out);
        }
    }
    let mut out = Vec::new();
    go(schema, String::new(), &mut out);
    out
}

/// A JSON pointer token (`~` and `/` escaped).
pub fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// One schema position.
pub struct Node<'v> {
    /// Its JSON pointer.
    pub at: String,
    /// The schema object.
    pub obj: &'v Map<String, Value>,
}

impl Node<'_> {
    /// The node describes an object (its type says so, or it has properties).
    pub fn is_object(&self) -> bool {
        self.obj.contains_key("properties") || types(self.obj).contains(&"object")
    }
}

/// The node's `type`, as a list.
pub fn types(obj: &Map<String, Value>) -> Vec<&str> {
    match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Every keyword outside `allowed`, and every `format` outside `formats`.
pub fn keywords(
    schema: &Value,
    allowed: &[&str],
    formats: &[&str],
    source: &'static str,
    breaks: &mut Breaks<'_>,
) {
    for node in nodes(schema) {
        for (k, v) in node.obj {
            if !allowed.contains(&k.as_str()) {
                breaks.add(&node.at, source, format!("keyword `{k}` is not supported"));
            } else if k == "format" && !v.as_str().is_some_and(|f| formats.contains(&f)) {
                breaks.add(&node.at, source, format!("format {v} is not supported"));
            }
        }
    }
}

/// The definition a local `$ref` names.
pub fn resolve<'a>(schema: &'a Value, reference: &str) -> Option<&'a Value> {
    schema
        .get("$defs")?
        .get(reference.strip_prefix("#/$defs/")?)
}

/// Every `$ref` resolves to a local definition.
pub fn refs_resolve(schema: &Value, source: &'static str, breaks: &mut Breaks<'_>) {
    for node in nodes(schema) {
        if let Some(r) = node.obj.get("$ref") {
            if r.as_str().and_then(|r| resolve(schema, r)).is_none() {
                breaks.add(&node.at, source, format!("$ref {r} does not resolve"));
            }
        }
    }
}

/// The schema positions reachable from the root, each definition once however often it is
/// named (a `$ref` followed to its definition): what a provider compiles.
pub fn reachable(schema: &Value) -> Vec<Node<'_>> {
    fn go<'v>(
        root: &'v Value,
        v: &'v Value,
        at: String,
        seen: &mut BTreeSet<String>,
        out: &mut Vec<Node<'v>>,
    ) {
        let Some(obj) = v.as_object() else { return };
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            if seen.insert(r.to_string()) {
                if let Some(def) = resolve(root, r) {
                    go(root, def, r.trim_start_matches('#').to_string(), seen, out);
                }
            }
        }
        out.push(Node {
            at: at.clone(),
            obj,
        });
        for (suffix, c) in children(obj, false) {
            go(root, c, format!("{at}{suffix}"), seen, out);
        }
    }
    let mut out = Vec::new();
    go(
        schema,
        schema,
        String::new(),
        &mut BTreeSet::new(),
        &mut out,
    );
    out
}

/// The property names of an object node, in order.
pub fn property_names(obj: &Map<String, Value>) -> Vec<&str> {
    obj.get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The names in a node's `required`.
pub fn required(obj: &Map<String, Value>) -> Vec<&str> {
    obj.get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Counts the properties reachable from the root that are optional (not in their object's
/// `required`) and that are union-typed (an `anyOf`, or a `type` list of more than one type): the
/// figures Anthropic limits. Each definition counts once.
pub fn optional_and_union_counts(schema: &Value) -> (usize, usize) {
    let (mut optional, mut union) = (0, 0);
    for node in reachable(schema) {
        let req = required(node.obj);
        for (name, prop) in node
            .obj
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if !req.contains(&name.as_str()) {
                optional += 1;
            }
            let Some(p) = prop.as_object() else { continue };
            if p.contains_key("anyOf") || p.contains_key("oneOf") || types(p).len() > 1 {
                union += 1;
            }
        }
    }
    (optional, union)
}
