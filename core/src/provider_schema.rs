//! A step's JSON Schema in the form each provider accepts, one pure function per provider.
//!
//! The committed plain schema (`core/schemas/<name>.plain.json`) is draft 2020-12 as `schemars`
//! writes it: a root `oneOf` of the answer's branches (`request_context`, `halt`,
//! `final_output`), `$ref`s with sibling keywords, string length limits, `format: int64`. No
//! provider's structured-output mode takes all of that, and each refuses a different part:
//!
//! - [`openai_strict`] (OpenAI, OpenRouter, Mistral, Groq's strict mode): an object at the root,
//!   every property required (optional ones nullable), `additionalProperties: false` everywhere,
//!   `anyOf` not `oneOf`, a `$ref` with no sibling keywords, no string length limits, no `format`
//!   outside the short list OpenAI names.
//! - [`anthropic`] (Claude structured outputs, `output_config.format`): an object at the root,
//!   `additionalProperties: false` on every object, no numeric or string-length constraints,
//!   `minItems` only 0 or 1, no `maxItems`.
//! - [`gemini`] (`responseJsonSchema`): only the keywords of Gemini's documented subset.
//! - [`grammar`] (Ollama `format`, LM Studio / llama.cpp / vLLM `json_schema`): servers that turn
//!   the schema into a sampling grammar; the plain schema minus what grammar converters trip on.
//!
//! Flattening the root into one object changes how a branch is spelled, not what an answer
//! says: a strict answer carries the other branches' fields as `null`, which the validator
//! reports as ignored fields. A provider's enforcement lowers the number of repairs; the
//! validator still judges every answer.

use serde_json::{json, Map, Value};

use crate::engine::IdChoice;

/// The plain schema of a step narrowed to one call: every place a [`IdChoice`] names gets an
/// `enum` of the ids the call may name there (plus `null` where the place is nullable). A
/// definition (`$defs`) on the way is copied for that place (`WriteOutput__1`), so the shared one
/// stays as it was for the places the call does not narrow; every branch of a `oneOf`/`anyOf` is
/// followed. A place the schema does not have, or a choice with no ids, changes nothing. Apply
/// before a provider's own form ([`openai_strict`], …), which keeps `enum`.
pub fn narrow(plain: &Value, choices: &[IdChoice]) -> Value {
    let mut schema = plain.clone();
    let mut defs = match schema.as_object_mut().and_then(|o| o.remove("$defs")) {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    for choice in choices.iter().filter(|c| !c.ids.is_empty()) {
        let path: Vec<&str> = choice.at.split('/').collect();
        set_enum(&mut schema, &mut defs, &path, &choice.ids);
    }
    if !defs.is_empty() {
        if let Some(root) = schema.as_object_mut() {
            root.insert("$defs".into(), Value::Object(defs));
        }
    }
    schema
}

/// Marks a definition copied by [`narrow`] for one place.
const COPY_MARK: &str = "__";

fn set_enum(node: &mut Value, defs: &mut Map<String, Value>, path: &[&str], ids: &[String]) {
    let target = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .map(str::to_string);
    if let Some(name) = target {
        // A copy made for this place is narrowed in place; a shared definition is copied first.
        let own = if name.contains(COPY_MARK) {
            name
        } else {
            let copy = format!("{name}{COPY_MARK}{}", defs.len());
            let def = defs.get(&name).cloned().unwrap_or(Value::Null);
            defs.insert(copy.clone(), def);
            node["$ref"] = Value::from(format!("#/$defs/{copy}"));
            copy
        };
        if let Some(mut def) = defs.remove(&own) {
            set_enum(&mut def, defs, path, ids);
            defs.insert(own, def);
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(branches) = node.get_mut(key).and_then(Value::as_array_mut) {
            for branch in branches {
                set_enum(branch, defs, path, ids);
            }
        }
    }
    let Some((first, rest)) = path.split_first() else {
        let nullable = match node.get("type") {
            Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
            _ => false,
        };
        if let Some(obj) = node.as_object_mut().filter(|o| o.contains_key("type")) {
            let mut values: Vec<Value> = ids.iter().map(|id| Value::from(id.as_str())).collect();
            if nullable {
                values.push(Value::Null);
            }
            obj.insert("enum".into(), Value::Array(values));
        }
        return;
    };
    let next = if *first == "*" {
        node.get_mut("items")
    } else {
        node.get_mut("properties").and_then(|p| p.get_mut(*first))
    };
    if let Some(next) = next {
        set_enum(next, defs, rest, ids);
    }
}

/// The schema for OpenAI's `response_format: {type: "json_schema", strict: true}` (and the
/// services that copy it: OpenRouter, Mistral, Groq).
pub fn openai_strict(plain: &Value) -> Value {
    let mut schema = common(plain);
    make_strict(&mut schema);
    keep_keywords(&mut schema, OPENAI_KEYWORDS, OPENAI_FORMATS);
    schema
}

/// The schema for Anthropic's `output_config.format` (`type: "json_schema"`).
pub fn anthropic(plain: &Value) -> Value {
    let mut schema = common(plain);
    close_objects(&mut schema);
    keep_keywords(&mut schema, ANTHROPIC_KEYWORDS, ANTHROPIC_FORMATS);
    limit_min_items(&mut schema);
    schema
}

/// The schema for Gemini's `generationConfig.responseJsonSchema`.
pub fn gemini(plain: &Value) -> Value {
    let mut schema = common(plain);
    // Gemini's subset has no `const`: a one-value enum says the same (a tree operation's
    // `action` must keep telling ADD from MOVE).
    walk_schemas(&mut schema, &mut |node| {
        if let Some(value) = node.remove("const") {
            node.insert("enum".into(), json!([value]));
        }
    });
    keep_keywords(&mut schema, GEMINI_KEYWORDS, GEMINI_FORMATS);
    schema
}

/// The schema for servers that compile it into a grammar: Ollama's `format`, and the
/// `json_schema` response format of LM Studio, llama.cpp and vLLM.
pub fn grammar(plain: &Value) -> Value {
    let mut schema = common(plain);
    keep_keywords(&mut schema, GRAMMAR_KEYWORDS, &[]);
    schema
}

/// What every provider's form starts from: one object at the root, sibling-free `$ref`s,
/// `anyOf` for `oneOf`, enums of constants spelled as `enum`.
fn common(plain: &Value) -> Value {
    let mut schema = plain.clone();
    flatten_root(&mut schema);
    walk_schemas(&mut schema, &mut |node| {
        const_union_to_enum(node);
        if let Some(one_of) = node.remove("oneOf") {
            node.insert("anyOf".into(), one_of);
        }
    });
    let defs = schema.get("$defs").cloned().unwrap_or(Value::Null);
    walk_schemas(&mut schema, &mut |node| lone_ref(node, &defs));
    schema
}

/// Keywords OpenAI's strict mode accepts.
const OPENAI_KEYWORDS: &[&str] = &[
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
/// String formats OpenAI's strict mode accepts.
const OPENAI_FORMATS: &[&str] = &[
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
/// Keywords Anthropic's structured outputs accept.
const ANTHROPIC_KEYWORDS: &[&str] = &[
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
/// String formats Anthropic's structured outputs accept.
const ANTHROPIC_FORMATS: &[&str] = &[
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
/// Keywords of Gemini's `responseJsonSchema` subset.
const GEMINI_KEYWORDS: &[&str] = &[
    "$defs",
    "$ref",
    "additionalProperties",
    "anyOf",
    "description",
    "enum",
    "format",
    "items",
    "maxItems",
    "maximum",
    "minItems",
    "minimum",
    "prefixItems",
    "properties",
    "required",
    "title",
    "type",
];
/// Formats Gemini accepts.
const GEMINI_FORMATS: &[&str] = &["date-time", "date", "time", "int32", "int64", "enum"];
/// Keywords grammar converters (llama.cpp's `json-schema-to-grammar`, Outlines) handle.
const GRAMMAR_KEYWORDS: &[&str] = &[
    "$defs",
    "$ref",
    "additionalProperties",
    "anyOf",
    "const",
    "description",
    "enum",
    "items",
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

/// Calls `f` on every schema object in `node`: the node itself, and every subschema under
/// `properties`, `$defs`, `items`, `prefixItems`, `anyOf`, `oneOf`, `allOf`, and
/// `additionalProperties`. Keyword values that are data (`enum`, `const`, `required`) are not
/// schemas and are left alone.
fn walk_schemas(node: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(obj) = node.as_object_mut() else {
        return;
    };
    f(obj);
    for (key, child) in obj.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" => {
                if let Some(map) = child.as_object_mut() {
                    for sub in map.values_mut() {
                        walk_schemas(sub, f);
                    }
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Some(items) = child.as_array_mut() {
                    for sub in items {
                        walk_schemas(sub, f);
                    }
                }
            }
            "items" | "additionalProperties" => walk_schemas(child, f),
            _ => {}
        }
    }
}

/// The definition a local `$ref` (`#/$defs/Name`) points at.
fn resolve<'a>(defs: &'a Value, reference: &str) -> Option<&'a Value> {
    defs.get(reference.strip_prefix("#/$defs/")?)
}

/// Turns the root `oneOf` of answer branches into one object: the union of the branches'
/// properties, `responseType` as an enum of the branches' tags, required only what every
/// branch requires. A branch that is a `$ref` plus its own properties (the flattened
/// `final_output`) contributes the referenced object's properties too.
fn flatten_root(schema: &mut Value) {
    let defs = schema.get("$defs").cloned().unwrap_or(Value::Null);
    let Some(root) = schema.as_object_mut() else {
        return;
    };
    let Some(Value::Array(branches)) = root.remove("oneOf").or_else(|| root.remove("anyOf")) else {
        return;
    };
    let mut props = Map::new();
    let mut tags = Vec::new();
    let mut required: Option<Vec<String>> = None;
    for branch in &branches {
        let mut own = branch.clone();
        if let Some(target) = branch
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve(&defs, r))
        {
            merge_object(&mut own, target);
        }
        let names: Vec<String> = strings(own.get("required"));
        required = Some(match required {
            None => names,
            Some(r) => r.into_iter().filter(|n| names.contains(n)).collect(),
        });
        if let Some(Value::Object(bp)) = own.get("properties") {
            for (name, prop) in bp {
                if let Some(tag) = prop.get("const") {
                    if name == "responseType" {
                        tags.push(tag.clone());
                        continue;
                    }
                }
                match props.get_mut(name) {
                    None => {
                        props.insert(name.clone(), prop.clone());
                    }
                    Some(seen) if seen == prop => {}
                    Some(seen) => {
                        let first = std::mem::take(seen);
                        *seen = json!({ "anyOf": [first, prop] });
                    }
                }
            }
        }
    }
    let mut all = Map::new();
    all.insert(
        "responseType".into(),
        json!({ "type": "string", "enum": tags, "description": "Which kind of answer this is." }),
    );
    all.extend(props);
    root.insert("type".into(), json!("object"));
    root.insert("properties".into(), Value::Object(all));
    root.insert(
        "required".into(),
        json!(required.unwrap_or_else(|| vec!["responseType".into()])),
    );
}

/// Adds `target`'s `properties` and `required` to `into`'s (the object's own win).
fn merge_object(into: &mut Value, target: &Value) {
    let Some(obj) = into.as_object_mut() else {
        return;
    };
    obj.remove("$ref");
    if let Some(Value::Object(theirs)) = target.get("properties") {
        let mine = obj
            .entry("properties")
            .or_insert_with(|| json!({}))
            .as_object_mut();
        if let Some(mine) = mine {
            for (k, v) in theirs {
                mine.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    let mut req = strings(obj.get("required"));
    for r in strings(target.get("required")) {
        if !req.contains(&r) {
            req.push(r);
        }
    }
    obj.insert("required".into(), json!(req));
}

/// The strings in a JSON array (a `required` list).
fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// A `oneOf`/`anyOf` whose branches are all string constants becomes one `enum`; the branches'
/// descriptions are kept in the description, so the model still reads what each value means.
fn const_union_to_enum(node: &mut Map<String, Value>) {
    let key = if node.contains_key("oneOf") {
        "oneOf"
    } else {
        "anyOf"
    };
    let Some(Value::Array(branches)) = node.get(key) else {
        return;
    };
    let all_consts = !branches.is_empty()
        && branches
            .iter()
            .all(|b| b.get("const").is_some_and(Value::is_string));
    if !all_consts {
        return;
    }
    let values: Vec<Value> = branches.iter().map(|b| b["const"].clone()).collect();
    let meanings: Vec<String> = branches
        .iter()
        .filter_map(|b| {
            let d = b.get("description")?.as_str()?;
            Some(format!("{}: {d}", b["const"].as_str()?))
        })
        .collect();
    node.remove(key);
    node.insert("type".into(), json!("string"));
    node.insert("enum".into(), Value::Array(values));
    if !meanings.is_empty() {
        let text = match node.get("description").and_then(Value::as_str) {
            Some(d) => format!("{d} {}", meanings.join("; ")),
            None => meanings.join("; "),
        };
        node.insert("description".into(), json!(text));
    }
}

/// A `$ref` stands alone: a description beside it is dropped (the definition has its own), and a
/// `$ref` with constraints of its own is replaced by the definition merged with them.
fn lone_ref(node: &mut Map<String, Value>, defs: &Value) {
    let Some(reference) = node.get("$ref").and_then(Value::as_str).map(String::from) else {
        return;
    };
    if node.len() == 1 {
        return;
    }
    let only_notes = node
        .keys()
        .all(|k| matches!(k.as_str(), "$ref" | "description" | "title" | "default"));
    if only_notes {
        node.retain(|k, _| k == "$ref");
        return;
    }
    if let Some(target) = resolve(defs, &reference) {
        let mut merged = Value::Object(std::mem::take(node));
        merge_object(&mut merged, target);
        if let (Some(m), Some(t)) = (merged.as_object_mut(), target.as_object()) {
            for (k, v) in t {
                m.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        if let Value::Object(m) = merged {
            *node = m;
        }
    }
}

/// Removes every keyword not in `allowed` (at every schema position) and every `format` not in
/// `formats`.
fn keep_keywords(schema: &mut Value, allowed: &[&str], formats: &[&str]) {
    walk_schemas(schema, &mut |node| {
        node.retain(|k, v| {
            allowed.contains(&k.as_str())
                && (k != "format" || v.as_str().is_some_and(|f| formats.contains(&f)))
        });
    });
}

/// Every object schema gets `additionalProperties: false`.
fn close_objects(schema: &mut Value) {
    walk_schemas(schema, &mut |node| {
        if node.get("type") == Some(&json!("object")) || node.contains_key("properties") {
            node.insert("additionalProperties".into(), json!(false));
        }
    });
}

/// Anthropic accepts `minItems` of 0 or 1 only: a larger minimum becomes 1.
fn limit_min_items(schema: &mut Value) {
    walk_schemas(schema, &mut |node| {
        if let Some(n) = node.get("minItems").and_then(Value::as_u64) {
            if n > 1 {
                node.insert("minItems".into(), json!(1));
            }
        }
    });
}

/// OpenAI strict mode: every property required, optional ones nullable, no extra properties,
/// no `default`.
pub(crate) fn make_strict(schema: &mut Value) {
    walk_schemas(schema, &mut |obj| {
        obj.remove("default");
        if !obj.contains_key("properties") {
            return;
        }
        let required = strings(obj.get("required"));
        if let Some(Value::Object(props)) = obj.get_mut("properties") {
            for (name, prop) in props.iter_mut() {
                if !required.contains(name) {
                    make_nullable(prop);
                }
            }
            let all: Vec<Value> = props.keys().map(|k| json!(k)).collect();
            obj.insert("required".into(), Value::Array(all));
        }
        obj.insert("additionalProperties".into(), json!(false));
    });
}

/// Makes an optional property accept `null`, the way strict mode spells "may be absent".
fn make_nullable(prop: &mut Value) {
    let Some(obj) = prop.as_object_mut() else {
        return;
    };
    match obj.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = t.clone();
            obj.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) => {
            if !types.contains(&json!("null")) {
                types.push(json!("null"));
            }
        }
        Some(_) => {}
        None => {
            let already = obj
                .get("anyOf")
                .and_then(Value::as_array)
                .is_some_and(|b| b.contains(&json!({"type": "null"})));
            if !already {
                let inner = std::mem::take(obj);
                obj.insert(
                    "anyOf".into(),
                    json!([Value::Object(inner), {"type": "null"}]),
                );
            }
        }
    }
    if let Some(Value::Array(values)) = obj.get_mut("enum") {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json_schema::{step_schema, SchemaFlavor};
    use crate::schema::Step;

    /// Every schema position of `v` with its JSON pointer.
    fn nodes(v: &Value) -> Vec<(String, Map<String, Value>)> {
        fn go(v: &Value, at: String, out: &mut Vec<(String, Map<String, Value>)>) {
            let Some(obj) = v.as_object() else { return };
            out.push((at.clone(), obj.clone()));
            for (k, c) in obj {
                match k.as_str() {
                    "properties" | "$defs" => {
                        for (n, s) in c.as_object().into_iter().flatten() {
                            go(s, format!("{at}/{k}/{n}"), out);
                        }
                    }
                    "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                        for (i, s) in c.as_array().into_iter().flatten().enumerate() {
                            go(s, format!("{at}/{k}/{i}"), out);
                        }
                    }
                    "items" | "additionalProperties" => go(c, format!("{at}/{k}"), out),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        go(v, String::new(), &mut out);
        out
    }

    fn each_step(f: impl Fn(Step, &Value)) {
        for step in Step::ALL {
            f(step, &step_schema(step, SchemaFlavor::Plain));
        }
    }

    /// Checks the rules every provider shares: an object at the root, every `$ref` alone and
    /// resolving, no `oneOf`, only allowed keywords and formats.
    fn common_rules(step: Step, schema: &Value, allowed: &[&str], formats: &[&str]) {
        assert_eq!(
            schema["type"],
            json!("object"),
            "{step}: root is not an object"
        );
        assert!(schema.get("anyOf").is_none(), "{step}: root anyOf");
        let tags = &schema["properties"]["responseType"]["enum"];
        assert!(tags.as_array().unwrap().contains(&json!("final_output")));
        for (at, node) in nodes(schema) {
            for (k, v) in &node {
                assert!(allowed.contains(&k.as_str()), "{step}: {k} at {at}");
                if k == "format" {
                    assert!(
                        formats.contains(&v.as_str().unwrap()),
                        "{step}: {v} at {at}"
                    );
                }
            }
            if let Some(r) = node.get("$ref") {
                assert_eq!(node.len(), 1, "{step}: $ref with siblings at {at}");
                assert!(resolve(&schema["$defs"], r.as_str().unwrap()).is_some());
            }
        }
    }

    #[test]
    fn openai_strict_schemas_follow_openais_rules() {
        each_step(|step, plain| {
            let s = openai_strict(plain);
            common_rules(step, &s, OPENAI_KEYWORDS, OPENAI_FORMATS);
            for (at, node) in nodes(&s) {
                if let Some(Value::Object(props)) = node.get("properties") {
                    let req = strings(node.get("required"));
                    assert_eq!(req.len(), props.len(), "{step}: not all required at {at}");
                    assert_eq!(node["additionalProperties"], json!(false), "{step} {at}");
                }
                assert!(!node.contains_key("maxLength"), "{step}: maxLength at {at}");
            }
            // the integer keeps its range, not its int64 format
            assert!(!s.to_string().contains("int64"), "{step}");
        });
    }

    #[test]
    fn anthropic_schemas_follow_anthropics_rules() {
        each_step(|step, plain| {
            let s = anthropic(plain);
            common_rules(step, &s, ANTHROPIC_KEYWORDS, ANTHROPIC_FORMATS);
            for (at, node) in nodes(&s) {
                if node.contains_key("properties") {
                    assert_eq!(node["additionalProperties"], json!(false), "{step} {at}");
                }
                if let Some(n) = node.get("minItems") {
                    assert!(n.as_u64().unwrap() <= 1, "{step}: minItems {n} at {at}");
                }
            }
        });
    }

    #[test]
    fn gemini_and_grammar_schemas_keep_only_their_subset() {
        each_step(|step, plain| {
            common_rules(step, &gemini(plain), GEMINI_KEYWORDS, GEMINI_FORMATS);
            let g = grammar(plain);
            common_rules(step, &g, GRAMMAR_KEYWORDS, &[]);
            // grammars keep the limits that shape the text
            if step == Step::Write {
                assert!(g.to_string().contains("maxLength"));
            }
        });
    }

    #[test]
    fn the_flattened_root_keeps_every_branch_and_requires_only_the_tag() {
        let plain = step_schema(Step::PlanAssign, SchemaFlavor::Plain);
        let s = gemini(&plain);
        assert_eq!(
            s["properties"]["responseType"]["enum"],
            json!(["request_context", "halt", "final_output"])
        );
        assert_eq!(s["required"], json!(["responseType"]));
        let props = s["properties"].as_object().unwrap();
        assert!(props.contains_key("contextRequests"));
        assert!(props.contains_key("halt"));
        assert!(props.contains_key("treeOperations"), "{:?}", props.keys());
        // the tree operations keep their tag as a one-value enum
        let ops = s["$defs"]["TreeOperation"]["anyOf"].as_array().unwrap();
        let actions: Vec<&Value> = ops
            .iter()
            .map(|o| &o["properties"]["action"]["enum"][0])
            .collect();
        assert_eq!(
            actions,
            [
                &json!("ADD"),
                &json!("REMOVE"),
                &json!("MOVE"),
                &json!("UPDATE")
            ]
        );
    }

    #[test]
    fn constant_unions_become_enums_that_keep_their_meanings() {
        let plain = step_schema(Step::PlanAssign, SchemaFlavor::Plain);
        let s = openai_strict(&plain);
        let halt_type = &s["$defs"]["HaltType"];
        assert_eq!(halt_type["enum"], json!(["question", "done"]));
        let text = halt_type["description"].as_str().unwrap();
        assert!(text.contains("done: The chair declares"), "{text}");
    }
}
