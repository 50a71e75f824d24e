//! The rules a schema must meet to be compiled into a sampling grammar by a local server:
//! llama.cpp's JSON-schema-to-grammar converter (llama-server, Ollama, LM Studio's GGUF engine)
//! and the engines vLLM and LM Studio's MLX engine use (xgrammar, Outlines).
//!
//! Read 2026-11-26: <https://github.com/ggml-org/llama.cpp/blob/master/grammars/README.md>
//! ("JSON Schemas → GBNF": the supported keywords; unsupported are `uniqueItems`, `contains`,
//! `patternProperties`, `if`/`then`/`else`, `not`, remote `$ref`s), and
//! <https://github.com/ggml-org/llama.cpp/blob/master/src/llama-grammar.cpp>:
//! `MAX_REPETITION_THRESHOLD 2000` — a repetition `x{m,n}` whose rules times `n` reaches 2000
//! throws "number of rules that are going to be repeated multiplied by the new repetition
//! exceeds sane defaults"; a `maxLength` becomes such a repetition of one character rule.
//! <https://github.com/ggml-org/llama.cpp/blob/master/examples/json_schema_to_grammar.py> (the
//! converter, as llama-cpp-python 0.3.36 ships it and `scripts/check-grammars.py` runs it): a
//! schema with none of the keywords that say what a value is (no `type`, `enum`, `const`, `$ref`,
//! alternatives, properties or items) is refused ("Unrecognized schema"), unless it is empty —
//! and an empty one means an object, not any value.

use serde_json::Value;

use super::{keywords, nodes, refs_resolve, Breaks, RuleBreak};

/// The converter's supported keywords.
pub const DOCS: &str = "https://github.com/ggml-org/llama.cpp/blob/master/grammars/README.md";
/// The repetition limit.
pub const REPETITION: &str =
    "https://github.com/ggml-org/llama.cpp/blob/master/src/llama-grammar.cpp";
/// Keywords the converters handle.
pub const KEYWORDS: &[&str] = &[
    "$defs",
    "$ref",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "const",
    "description",
    "enum",
    "items",
    "prefixItems",
    "maxItems",
    "maxLength",
    "maximum",
    "minItems",
    "minLength",
    "minimum",
    "properties",
    "required",
    "title",
    "type",
];
/// llama.cpp's `MAX_REPETITION_THRESHOLD`: a bound this large (or larger) fails to compile.
pub const MAX_REPETITION: u64 = 2000;
/// The bounds that become a repetition in the grammar.
pub const BOUNDS: &[&str] = &["maxLength", "minLength", "maxItems", "minItems"];
/// The converter's source, which refuses a schema that says nothing of its value.
pub const CONVERTER: &str =
    "https://github.com/ggml-org/llama.cpp/blob/master/examples/json_schema_to_grammar.py";
/// The keywords of which a schema needs one for the converter to know what its value is.
pub const SAYS_WHAT: &[&str] = &[
    "type",
    "enum",
    "const",
    "$ref",
    "anyOf",
    "oneOf",
    "allOf",
    "properties",
    "items",
    "prefixItems",
];

/// Every grammar-form rule `schema` breaks.
pub fn check(schema: &Value) -> Vec<RuleBreak> {
    let mut list = Vec::new();
    let mut b = Breaks { list: &mut list };
    keywords(schema, KEYWORDS, &[], DOCS, &mut b);
    refs_resolve(schema, DOCS, &mut b);
    for node in nodes(schema) {
        if !SAYS_WHAT.iter().any(|k| node.obj.contains_key(*k)) {
            b.add(
                &node.at,
                CONVERTER,
                if node.obj.is_empty() {
                    "`{}` compiles as any object, not any value".to_string()
                } else {
                    "the schema says nothing of its value (no type, enum, const, $ref, \
                     alternatives, properties or items): \"Unrecognized schema\""
                        .to_string()
                },
            );
        }
        for key in BOUNDS {
            if let Some(n) = node.obj.get(*key).and_then(Value::as_u64) {
                if n >= MAX_REPETITION {
                    b.add(
                        &node.at,
                        REPETITION,
                        format!("`{key}: {n}` is a repetition over the limit of {MAX_REPETITION}"),
                    );
                }
            }
        }
    }
    list
}
