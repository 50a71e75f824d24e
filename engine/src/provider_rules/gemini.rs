//! Gemini's rules for `generationConfig.responseJsonSchema`.
//!
//! Read 2026-11-26: the field's reference, <https://ai.google.dev/api/generate-content#FIELDS.response_json_schema>
//! (the same words in the Vertex AI `GenerationConfig.responseJsonSchema` reference): "only the
//! following properties are supported: `$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`,
//! `title`, `description`, `enum` (for strings and numbers), `items`, `prefixItems`, `minItems`,
//! `maxItems`, `minimum`, `maximum`, `anyOf`, `oneOf` (interpreted the same as `anyOf`),
//! `properties`, `additionalProperties`, `required`", plus the non-standard `propertyOrdering`;
//! "If `$ref` is set on a sub-schema, no other properties, except for than those starting as a
//! `$`, may be set." Formats: <https://ai.google.dev/gemini-api/docs/structured-output>
//! (read 2026-11-26) names `date-time`, `date` and `time` for strings.

use serde_json::Value;

use super::{keywords, nodes, refs_resolve, Breaks, RuleBreak};

/// The field's reference.
pub const DOCS: &str = "https://ai.google.dev/api/generate-content#FIELDS.response_json_schema";
/// The structured-output guide (formats).
pub const GUIDE: &str = "https://ai.google.dev/gemini-api/docs/structured-output";
/// The keywords the field takes.
pub const KEYWORDS: &[&str] = &[
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];
/// The formats the guide names.
pub const FORMATS: &[&str] = &["date-time", "date", "time"];

/// Every Gemini `responseJsonSchema` rule `schema` breaks.
pub fn check(schema: &Value) -> Vec<RuleBreak> {
    let mut list = Vec::new();
    let mut b = Breaks { list: &mut list };
    keywords(schema, KEYWORDS, FORMATS, DOCS, &mut b);
    refs_resolve(schema, DOCS, &mut b);
    for node in nodes(schema) {
        let at = node.at.as_str();
        if node.obj.contains_key("$ref") && node.obj.keys().any(|k| !k.starts_with('$')) {
            b.add(
                at,
                DOCS,
                "a `$ref` may have no sibling keywords but `$` ones",
            );
        }
        if let Some(values) = node.obj.get("enum").and_then(Value::as_array) {
            if values.iter().any(|v| !(v.is_string() || v.is_number())) {
                b.add(at, DOCS, "`enum` may hold only strings and numbers");
            }
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_guides_formats_pass_and_others_break() {
        let with = |format: &str| json!({"type": "object", "properties": {"at": {"type": "string", "format": format}}, "required": ["at"]});
        for ok in FORMATS {
            assert!(check(&with(ok)).is_empty(), "{ok}: {:?}", check(&with(ok)));
        }
        let broken = check(&with("int64"));
        assert_eq!(broken.len(), 1, "{broken:?}");
    }
}
