//! Anthropic's rules for structured outputs (`output_config.format` with `type: "json_schema"`,
//! and strict tool inputs, which share them).
//!
//! Read 2026-11-26: <https://platform.claude.com/docs/en/build-with-claude/structured-outputs>
//! ("JSON Schema limitations"). The search index held mirrors of the page rather than the page
//! itself (learn-ai.blindshot.kz's copy of the original documentation and SDK notes quoting it):
//! supported are the basic types, `enum` of primitives, `const`, `anyOf`, `allOf`, local
//! `$ref`/`$defs`, `required`, `additionalProperties: false`, the string formats below, and
//! `minItems` of 0 or 1; not supported are recursive schemas, numeric constraints (`minimum`,
//! `maximum`, `multipleOf`), string constraints (`minLength`, `maxLength`), array constraints
//! beyond `minItems` 0/1, and `additionalProperties` other than `false`.
//!
//! The complexity limits are the API's own 400s, read 2026-11-26 where developers quote them
//! ([`LIMITS`]): "Schemas contains too many optional parameters (87), which would make grammar
//! compilation inefficient. Reduce the number of optional parameters in your tool schemas
//! (limit: 24)" (<https://github.com/elie222/inbox-zero/issues/2323>, 2026-04-20) and "Schemas
//! contains too many parameters with union types (… limit: 16 …)" (<https://github.com/vercel/ai/pull/17268>,
//! 2026-07-15, which also finds both figures in the page's "JSON Schema limitations"; the 400
//! counts "parameters with type arrays or anyOf"). Both limits hold per request, across the
//! output format and every strict tool (<https://github.com/ENTERPILOT/GoModel/pull/963>); this
//! app sends one schema and no tools. <https://github.com/anthropics/claude-code/issues/55539>
//! (2026-05-02) reports the optional limit found by trial before the page stated it.

use serde_json::Value;

use super::{keywords, nodes, optional_and_union_counts, refs_resolve, Breaks, RuleBreak};

/// "JSON Schema limitations" of structured outputs.
pub const DOCS: &str =
    "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations";
/// Where the optional and union limits are quoted from the API's own 400 (and found on the
/// "JSON Schema limitations" section).
pub const LIMITS: &str = "https://github.com/vercel/ai/pull/17268";
/// The keywords structured outputs take.
pub const KEYWORDS: &[&str] = &[
    "$defs",
    "$ref",
    "additionalProperties",
    "allOf",
    "anyOf",
    "const",
    "description",
    "enum",
    "format",
    "items",
    "minItems",
    "properties",
    "required",
    "title",
    "type",
];
/// The string formats structured outputs take.
pub const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];
/// The largest `minItems` structured outputs take ("`minItems` of 0 or 1").
pub const MAX_MIN_ITEMS: u64 = 1;
/// Most optional parameters (properties not `required`) across the schema: "(limit: 24)".
pub const MAX_OPTIONAL: usize = 24;
/// Most parameters with union types (`anyOf`, or a list of types) across the schema:
/// "limit: 16".
pub const MAX_UNION: usize = 16;

/// Every Anthropic structured-output rule `schema` breaks.
pub fn check(schema: &Value) -> Vec<RuleBreak> {
    let mut list = Vec::new();
    let mut b = Breaks { list: &mut list };
    if schema.get("type") != Some(&Value::from("object")) {
        b.add("", DOCS, "the root must be an object");
    }
    keywords(schema, KEYWORDS, FORMATS, DOCS, &mut b);
    refs_resolve(schema, DOCS, &mut b);
    for node in nodes(schema) {
        let at = node.at.as_str();
        if node.is_object() && node.obj.get("additionalProperties") != Some(&Value::Bool(false)) {
            b.add(
                at,
                DOCS,
                "`additionalProperties` must be `false` on every object",
            );
        }
        if let Some(n) = node.obj.get("minItems") {
            if n.as_u64().is_none_or(|n| n > MAX_MIN_ITEMS) {
                b.add(
                    at,
                    DOCS,
                    format!("`minItems` may be 0 to {MAX_MIN_ITEMS}, not {n}"),
                );
            }
        }
        if let Some(values) = node.obj.get("enum").and_then(Value::as_array) {
            if values.iter().any(|v| v.is_array() || v.is_object()) {
                b.add(at, DOCS, "`enum` may hold only primitives");
            }
        }
    }
    let (optional, union) = optional_and_union_counts(schema);
    if optional > MAX_OPTIONAL {
        b.add(
            "",
            LIMITS,
            format!("{optional} optional parameters exceed the limit of {MAX_OPTIONAL}"),
        );
    }
    if union > MAX_UNION {
        b.add(
            "",
            LIMITS,
            format!("{union} parameters with union types exceed the limit of {MAX_UNION}"),
        );
    }
    list
}
