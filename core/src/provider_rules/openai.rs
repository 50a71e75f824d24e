//! OpenAI's rules for a strict `json_schema` response format (`strict: true`), which OpenRouter,
//! Mistral and Groq's strict mode copy.
//!
//! Read 2026-11-26: <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>
//! ("Supported schemas", "Limitations and restrictions"); the shared-first-key rule is the
//! API's own 400 ("Invalid schema: Objects provided via 'anyOf' must not share identical first
//! keys"), not on the docs page; quoted from a real response in
//! <https://zenn.dev/nicopin/scraps/a8d8f53f5faebb> (read 2026-11-26).

use std::collections::BTreeMap;

use serde_json::Value;

use super::{keywords, nodes, property_names, refs_resolve, required, resolve, Breaks, RuleBreak};

/// "Supported schemas" and "Limitations and restrictions".
pub const DOCS: &str =
    "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";
/// The 400 OpenAI answers for `anyOf` object branches that start with the same key.
pub const FIRST_KEYS: &str = "https://zenn.dev/nicopin/scraps/a8d8f53f5faebb";

/// Keywords strict mode takes: the supported types' keywords (`type`, `properties`, `required`,
/// `additionalProperties`, `items`, `anyOf`, `enum`, `const`, `$ref`/`$defs`), strings'
/// `pattern`/`format`, numbers' `multipleOf`/`maximum`/`exclusiveMaximum`/`minimum`/
/// `exclusiveMinimum`, arrays' `minItems`/`maxItems`, and the notes `title`/`description`.
/// Not `allOf`, `not`, `if`/`then`/`else`, `dependent*`, string lengths, or `default` (the API
/// answers "'default' is not permitted").
pub const KEYWORDS: &[&str] = &[
    "$defs",
    "$ref",
    "additionalProperties",
    "anyOf",
    "const",
    "description",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "items",
    "maxItems",
    "maximum",
    "minItems",
    "minimum",
    "multipleOf",
    "pattern",
    "properties",
    "required",
    "title",
    "type",
];
/// The string formats strict mode names.
pub const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
/// "A schema may have up to 5000 object properties total".
pub const MAX_PROPERTIES: usize = 5000;
/// "… with up to 10 levels of nesting".
pub const MAX_NESTING: usize = 10;
/// "A schema may have up to 1000 enum values across all enum properties".
pub const MAX_ENUM_VALUES: usize = 1000;
/// "For a single enum property with string values, the total string length of all enum values
/// cannot exceed 15,000 characters when there are more than 250 enum values".
pub const MAX_LONG_ENUM_CHARS: usize = 15_000;
/// The enum size from which [`MAX_LONG_ENUM_CHARS`] applies.
pub const LONG_ENUM: usize = 250;
/// "The total string length of all property names, definition names, enum values, and const
/// values cannot exceed 120,000 characters".
pub const MAX_STRING_CHARS: usize = 120_000;

/// Every OpenAI strict-mode rule `schema` breaks.
pub fn check(schema: &Value) -> Vec<RuleBreak> {
    let mut list = Vec::new();
    let mut b = Breaks { list: &mut list };
    if schema.get("type") != Some(&Value::from("object")) {
        b.add("", DOCS, "the root must be an object");
    }
    if schema.get("anyOf").is_some() {
        b.add("", DOCS, "the root must not be `anyOf`");
    }
    keywords(schema, KEYWORDS, FORMATS, DOCS, &mut b);
    refs_resolve(schema, DOCS, &mut b);
    let (mut properties, mut enum_values, mut chars) = (0, 0, 0);
    for name in schema
        .get("$defs")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(n, _)| n)
    {
        chars += name.chars().count();
    }
    for node in nodes(schema) {
        let at = node.at.as_str();
        if node.is_object() && node.obj.get("additionalProperties") != Some(&Value::Bool(false)) {
            b.add(
                at,
                DOCS,
                "`additionalProperties: false` must be set on every object",
            );
        }
        let names = property_names(node.obj);
        properties += names.len();
        chars += names.iter().map(|n| n.chars().count()).sum::<usize>();
        let req = required(node.obj);
        for name in &names {
            if !req.contains(name) {
                b.add(
                    at,
                    DOCS,
                    format!("every property must be required: `{name}` is not"),
                );
            }
        }
        if node.depth > MAX_NESTING {
            b.add(
                at,
                DOCS,
                format!(
                    "{} levels of nesting exceed the limit of {MAX_NESTING}",
                    node.depth
                ),
            );
        }
        if let Some(values) = node.obj.get("enum").and_then(Value::as_array) {
            enum_values += values.len();
            let len: usize = values
                .iter()
                .filter_map(Value::as_str)
                .map(|s| s.chars().count())
                .sum();
            chars += len;
            if values.len() > LONG_ENUM && len > MAX_LONG_ENUM_CHARS {
                b.add(at, DOCS, format!("an enum of {} values is {len} characters long; the limit over {LONG_ENUM} values is {MAX_LONG_ENUM_CHARS}", values.len()));
            }
        }
        if let Some(c) = node.obj.get("const").and_then(Value::as_str) {
            chars += c.chars().count();
        }
        if let Some(branches) = node.obj.get("anyOf").and_then(Value::as_array) {
            first_keys(schema, at, branches, &mut b);
        }
    }
    if properties > MAX_PROPERTIES {
        b.add(
            "",
            DOCS,
            format!("{properties} object properties exceed the limit of {MAX_PROPERTIES}"),
        );
    }
    if enum_values > MAX_ENUM_VALUES {
        b.add(
            "",
            DOCS,
            format!("{enum_values} enum values exceed the limit of {MAX_ENUM_VALUES}"),
        );
    }
    if chars > MAX_STRING_CHARS {
        b.add(
            "",
            DOCS,
            format!("names and values total {chars} characters, over {MAX_STRING_CHARS}"),
        );
    }
    list
}

/// Object branches of one `anyOf` must not start with the same property.
fn first_keys(schema: &Value, at: &str, branches: &[Value], b: &mut Breaks<'_>) {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, branch) in branches.iter().enumerate() {
        let branch = match branch.get("$ref").and_then(Value::as_str) {
            Some(r) => resolve(schema, r).unwrap_or(branch),
            None => branch,
        };
        let Some(first) = branch
            .as_object()
            .and_then(|o| property_names(o).first().copied())
        else {
            continue;
        };
        if let Some(j) = seen.insert(first, i) {
            b.add(
                &format!("{at}/anyOf/{i}"),
                FIRST_KEYS,
                format!("objects provided via 'anyOf' must not share identical first keys (`{first}`, as branch {j})"),
            );
        }
    }
}
