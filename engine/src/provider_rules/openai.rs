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

use super::{
    children, keywords, nodes, property_names, refs_resolve, required, resolve, Breaks, RuleBreak,
};

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
/// "… with up to 10 levels of nesting", counted as the model meets them: through every `$ref`
/// into its definition.
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
    for (at, depth) in nesting(schema) {
        if depth > MAX_NESTING {
            b.add(
                &at,
                DOCS,
                format!("{depth} levels of nesting exceed the limit of {MAX_NESTING}"),
            );
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

/// The deepest object nesting at each schema position, counted the way the model meets it: from
/// the root down, a `$ref` followed into its definition (so a definition named five objects deep
/// adds its own levels to those five), and each definition also from itself as if named at the
/// root. A definition already open on the way down is not entered again: a recursive schema is
/// counted once round its loop, not forever.
fn nesting(schema: &Value) -> BTreeMap<String, usize> {
    fn go<'v>(
        root: &'v Value,
        v: &'v Value,
        at: String,
        depth: usize,
        open: &mut Vec<String>,
        out: &mut BTreeMap<String, usize>,
    ) {
        let Some(obj) = v.as_object() else { return };
        let depth = depth + usize::from(obj.contains_key("properties"));
        let deepest = out.entry(at.clone()).or_default();
        *deepest = (*deepest).max(depth);
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            if !open.iter().any(|o| o == r) {
                if let Some(def) = resolve(root, r) {
                    open.push(r.to_string());
                    go(
                        root,
                        def,
                        r.trim_start_matches('#').to_string(),
                        depth,
                        open,
                        out,
                    );
                    open.pop();
                }
            }
        }
        for (suffix, c) in children(obj, false) {
            go(root, c, format!("{at}{suffix}"), depth, open, out);
        }
    }
    let mut out = BTreeMap::new();
    let mut open = Vec::new();
    go(schema, schema, String::new(), 0, &mut open, &mut out);
    let root_depth = usize::from(schema.get("properties").is_some());
    for (name, def) in schema
        .get("$defs")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        open.push(format!("#/$defs/{name}"));
        go(
            schema,
            def,
            format!("/$defs/{name}"),
            root_depth,
            &mut open,
            &mut out,
        );
        open.clear();
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `inner` inside `levels` strict objects, each holding the next as its one property.
    fn nest(levels: usize, inner: Value) -> Value {
        (0..levels).fold(inner, |inner, _| {
            json!({"type": "object", "properties": {"x": inner}, "required": ["x"], "additionalProperties": false})
        })
    }

    fn nesting_breaks(schema: &Value) -> Vec<RuleBreak> {
        check(schema)
            .into_iter()
            .filter(|b| b.message.contains("levels of nesting"))
            .collect()
    }

    /// Five objects down to a `$ref` whose definition is six objects deep: eleven levels as the
    /// model meets them, though neither part alone passes ten.
    #[test]
    fn nesting_counts_through_a_ref() {
        let leaf = json!({"type": "string"});
        let mut schema = nest(5, json!({"$ref": "#/$defs/Deep"}));
        schema["$defs"] = json!({"Deep": nest(6, leaf.clone())});
        let breaks = nesting_breaks(&schema);
        assert!(!breaks.is_empty(), "eleven levels through the ref pass");
        assert!(
            breaks.iter().all(|b| b.at.starts_with("/$defs/Deep")),
            "{breaks:?}"
        );
        assert!(breaks[0].message.starts_with("11 levels"), "{breaks:?}");
        // The same eleven levels written out in place break the same rule.
        assert!(!nesting_breaks(&nest(11, leaf.clone())).is_empty());
        // Four down to the same definition is ten: inside the limit.
        let mut fits = nest(4, json!({"$ref": "#/$defs/Deep"}));
        fits["$defs"] = json!({"Deep": nest(6, leaf)});
        assert!(
            nesting_breaks(&fits).is_empty(),
            "{:?}",
            nesting_breaks(&fits)
        );
    }

    /// A recursive definition (allowed by strict mode) is counted once round its loop: the
    /// check ends, and a shallow loop passes.
    #[test]
    fn a_recursive_definition_is_counted_once_round_its_loop() {
        let mut schema = nest(1, json!({"$ref": "#/$defs/Node"}));
        schema["$defs"] = json!({"Node": {
            "type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "required": ["children"],
            "additionalProperties": false
        }});
        assert!(check(&schema).is_empty(), "{:?}", check(&schema));
        let mut deep = nest(10, json!({"$ref": "#/$defs/Node"}));
        deep["$defs"] = schema["$defs"].clone();
        assert!(!nesting_breaks(&deep).is_empty());
    }
}
