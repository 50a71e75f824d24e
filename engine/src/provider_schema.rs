//! A step's JSON Schema in the form each provider accepts, one pure function per provider.
//!
//! The committed plain schema (`core/schemas/<name>.plain.json`) is draft 2020-12 as `schemars`
//! writes it: a root `oneOf` of the answer's branches (`request_context`, `halt`,
//! `final_output`), `$ref`s with sibling keywords, string length limits, `format: int64`. No
//! provider's structured-output mode takes all of that, and each refuses a different part:
//!
//! - [`openai_strict`] (OpenAI, OpenRouter, Mistral, Groq's strict mode): an object at the root,
//!   every property required (optional ones nullable), `additionalProperties: false` on every
//!   object, maps as `{key, value}` pair lists, an `anyOf` of objects as one object (OpenAI
//!   refuses branches that share a first key), a `$ref` with no sibling keywords, no string
//!   length limits, no `format` outside the short list OpenAI names.
//! - [`anthropic`] (Claude structured outputs, `output_config.format`): an object at the root,
//!   `additionalProperties: false` on every object, maps as pair lists, no numeric or
//!   string-length constraints, `minItems` only 0 or 1, and at most 24 optional and 16
//!   union-typed properties (optional ones sent without their `null`).
//! - [`gemini`] (`responseJsonSchema`): only the keywords and formats of Gemini's documented
//!   subset, no `null` in an `enum`, a map's known keys as its properties.
//! - [`grammar`] (Ollama `format`, LM Studio / llama.cpp / vLLM `json_schema`): servers that turn
//!   the schema into a sampling grammar; the plain schema minus what grammar converters trip on,
//!   and minus the limits of 2,000 and more (llama.cpp refuses them; the validator keeps them).
//!
//! The rules each form must meet are [`crate::provider_rules`]' checkers, which state them with
//! their sources; [`for_family`] picks a family's form and fits it to the published limits.
//! [`plain_answer`] turns an answer to a strict form back into the plain shape.
//!
//! Flattening the root into one object changes how a branch is spelled, not what an answer
//! says: a strict answer carries the other branches' fields as `null`, which the validator
//! reports as ignored fields. A provider's enforcement lowers the number of repairs; the
//! validator still judges every answer.

use crate::order::Collect as _;
use serde_json::{json, Map, Value};

use crate::engine::{IdChoice, SchemaForm};
use crate::provider_rules::Family;

/// Which dialect of JSON Schema to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchemaFlavor {
    /// Draft 2020-12 as `schemars` writes it; optional fields may be absent.
    Plain,
    /// OpenAI strict mode: all properties required, optional ones nullable, no extra properties.
    OpenAiStrict,
}

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

/// The last step of an [`IdChoice`] path that names a map's keys (`personas/@keys`), not a value.
pub const KEYS: &str = "@keys";

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
    if path == [KEYS] {
        // A map's keys: named as `propertyNames`, which the plain schema's readers ignore and
        // each family's form turns into keys a provider enforces (see `map_form`).
        if let Some(obj) = node
            .as_object_mut()
            .filter(|o| o.get("additionalProperties").is_some_and(Value::is_object))
        {
            let values: Vec<Value> = ids.iter().map(|id| Value::from(id.as_str())).collect();
            obj.insert(
                "propertyNames".into(),
                json!({ "type": "string", "enum": values }),
            );
        }
        return;
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

/// A schema in the form one family's providers are sent, and how much of the answer it enforces.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// The schema to send; for [`SchemaForm::JsonMode`] the closest fit, which still breaks the
    /// family's limits, so the runner sends no schema at all.
    pub schema: Value,
    /// Whether the provider enforces all of it, a trimmed part, or nothing (JSON mode).
    pub form: SchemaForm,
}

/// The form `family`'s providers are sent of `plain` (a step's plain schema, already
/// [`narrow`]ed for the call), fitted to that family's published limits
/// ([`crate::provider_rules`]): OpenAI's enum budget (the id enums that keep the most values
/// within it stay; the rest are left to the validator), Anthropic's optional and union budgets (optional fields are sent optional, not
/// nullable, and as many as the union budget allows are sent required-but-nullable instead).
/// When even that does not fit, JSON mode: the provider is sent no schema.
pub fn for_family(family: Family, plain: &Value) -> Fitted {
    let (schema, mut form) = match family {
        Family::OpenaiStrict => {
            let mut schema = openai_strict(plain);
            let trimmed = fit_enums(&mut schema);
            (
                schema,
                if trimmed {
                    SchemaForm::Trimmed
                } else {
                    SchemaForm::Full
                },
            )
        }
        Family::Anthropic => (anthropic(plain), SchemaForm::Full),
        Family::Gemini => (gemini(plain), SchemaForm::Full),
        Family::Grammar => (grammar(plain), SchemaForm::Full),
    };
    if !crate::provider_rules::check(family, &schema).is_empty() {
        form = SchemaForm::JsonMode;
    }
    Fitted { schema, form }
}

/// Removes `enum`s (the ids [`narrow`] wrote in; the validator still checks every id) until the
/// schema is inside OpenAI's enum limits, keeping as many enumerated values as fit. Says whether
/// it removed any.
///
/// An enum that breaks the per-enum rule (over [`LONG_ENUM`] values and [`MAX_LONG_ENUM_CHARS`]
/// characters) goes whatever else happens. The rest must total at most [`MAX_ENUM_VALUES`]:
/// which to keep is a knapsack (each enum's weight and worth its value count), solved exactly
/// over the budget, so the most values stay enforced and, among equal totals, the most enums.
/// Dropping the widest first, the rule this replaces, can throw away far more than the excess
/// (900 + 200 + 10 values: it kept 210 where dropping the 200 keeps 910).
///
/// [`LONG_ENUM`]: crate::provider_rules::openai::LONG_ENUM
/// [`MAX_LONG_ENUM_CHARS`]: crate::provider_rules::openai::MAX_LONG_ENUM_CHARS
/// [`MAX_ENUM_VALUES`]: crate::provider_rules::openai::MAX_ENUM_VALUES
fn fit_enums(schema: &mut Value) -> bool {
    use crate::provider_rules::openai::{LONG_ENUM, MAX_ENUM_VALUES, MAX_LONG_ENUM_CHARS};
    // Every enum in walk order: its value count, and whether it breaks the per-enum rule.
    let mut enums: Vec<(usize, bool)> = Vec::new();
    walk_schemas(schema, &mut |node| {
        if let Some(values) = node.get("enum").and_then(Value::as_array) {
            let chars: usize = values
                .iter()
                .filter_map(Value::as_str)
                .map(|v| v.chars().count())
                .sum();
            let too_long = values.len() > LONG_ENUM && chars > MAX_LONG_ENUM_CHARS;
            enums.push((values.len(), too_long));
        }
    });
    let keep = enums_to_keep(&enums, MAX_ENUM_VALUES);
    if keep.iter().all(|k| *k) {
        return false;
    }
    let mut index = 0;
    walk_schemas(schema, &mut |node| {
        if node.contains_key("enum") {
            if !keep[index] {
                node.remove("enum");
            }
            index += 1;
        }
    });
    true
}

/// Which enums to keep (`sizes`: each enum's value count and whether it must go): the set of the
/// others whose sizes add up to the most values within `budget`, and among those the one that
/// keeps the most enums. Exact: a table over every total up to the budget.
fn enums_to_keep(sizes: &[(usize, bool)], budget: usize) -> Vec<bool> {
    let mut keep: Vec<bool> = sizes.iter().map(|(_, must_go)| !must_go).collect();
    let total: usize = sizes
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|((n, _), _)| n)
        .sum();
    if total <= budget {
        return keep;
    }
    // best[t]: the most enums whose sizes add up to exactly t (None: no set does); taken[i][t]:
    // enum i is in that set after the first i + 1 enums are considered.
    let mut best: Vec<Option<usize>> = vec![None; budget + 1];
    best[0] = Some(0);
    let mut taken = vec![vec![false; budget + 1]; sizes.len()];
    for (i, (n, _)) in sizes.iter().enumerate().filter(|(i, _)| keep[*i]) {
        for t in (*n..=budget).rev() {
            if let Some(count) = best[t - n] {
                if best[t].is_none_or(|c| count + 1 > c) {
                    best[t] = Some(count + 1);
                    taken[i][t] = true;
                }
            }
        }
    }
    let mut t = (0..=budget).rev().find(|t| best[*t].is_some()).unwrap_or(0);
    for i in (0..sizes.len()).rev() {
        if taken[i][t] {
            t -= sizes[i].0;
        } else {
            keep[i] = false;
        }
    }
    keep
}

/// The schema for OpenAI's `response_format: {type: "json_schema", strict: true}` (and the
/// services that copy it: OpenRouter, Mistral, Groq).
pub fn openai_strict(plain: &Value) -> Value {
    let mut schema = common(plain);
    maps_to_pairs(&mut schema);
    merge_object_branches(&mut schema);
    make_strict(&mut schema);
    keep_keywords(&mut schema, openai_rules::KEYWORDS, openai_rules::FORMATS);
    schema
}

/// The schema for Anthropic's `output_config.format` (`type: "json_schema"`).
pub fn anthropic(plain: &Value) -> Value {
    let mut schema = common(plain);
    maps_to_pairs(&mut schema);
    close_objects(&mut schema);
    keep_keywords(
        &mut schema,
        anthropic_rules::KEYWORDS,
        anthropic_rules::FORMATS,
    );
    limit_min_items(&mut schema);
    fit_optional_and_unions(&mut schema);
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
    known_keys(&mut schema);
    keep_keywords(&mut schema, gemini_rules::KEYWORDS, gemini_rules::FORMATS);
    // Gemini's `enum` holds strings and numbers: a nullable place says null by its type.
    walk_schemas(&mut schema, &mut |node| {
        if let Some(Value::Array(values)) = node.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
    });
    schema
}

/// The schema for servers that compile it into a grammar: Ollama's `format`, and the
/// `json_schema` response format of LM Studio, llama.cpp and vLLM.
pub fn grammar(plain: &Value) -> Value {
    let mut schema = common(plain);
    known_keys(&mut schema);
    keep_keywords(&mut schema, grammar_rules::KEYWORDS, &[]);
    // A limit is a repetition in the grammar: llama.cpp refuses one of 2,000 or more, and a
    // string's `maxLength` (a bounded repetition of one character rule) is what makes xgrammar
    // slow: with a 32,000-token vocabulary PlanAssign compiled in 0.95 s with its 500- and
    // 1,000-character bounds and in 55 ms without (scripts/check-grammars-xgrammar.py,
    // bench/log.md "Grammar compile"). So no `maxLength` goes into a grammar, nor any other
    // bound from the limit up; the validator keeps every one of them.
    // A schema that says nothing of its value (any JSON value: a dialectic's `result` when the
    // person gave no shape) is refused by llama.cpp's converter, and `{}` means an object there:
    // it becomes every kind of value spelled out.
    walk_schemas(&mut schema, &mut |node| {
        if !grammar_rules::SAYS_WHAT
            .iter()
            .any(|k| node.contains_key(*k))
        {
            let any = ["object", "array", "string", "number", "boolean", "null"]
                .map(|t| json!({ "type": t }));
            node.insert("anyOf".into(), Value::Array(any.to_vec()));
        }
    });
    walk_schemas(&mut schema, &mut |node| {
        node.remove("maxLength");
        for key in grammar_rules::BOUNDS {
            if node
                .get(*key)
                .and_then(Value::as_u64)
                .is_some_and(|n| n >= GRAMMAR_MAX_REPETITION)
            {
                node.remove(*key);
            }
        }
    });
    schema
}

/// The longest repetition the grammar form keeps ([`crate::provider_rules::grammar`]).
const GRAMMAR_MAX_REPETITION: u64 = grammar_rules::MAX_REPETITION;

/// A map whose keys [`narrow`] named becomes an object with one optional property per key (the
/// answer keeps its shape); a map with unknown keys stays a map.
fn known_keys(schema: &mut Value) {
    walk_schemas(schema, &mut |node| {
        let Some(Value::Object(names)) = node.remove("propertyNames") else {
            return;
        };
        let Some(value) = node.get("additionalProperties").cloned() else {
            return;
        };
        let props: Map<String, Value> = names
            .get("enum")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|k| (k.to_string(), value.clone()))
            .fill();
        node.insert("properties".into(), Value::Object(props));
        node.insert("additionalProperties".into(), json!(false));
    });
}

/// A map (an object whose `additionalProperties` is a schema: member id → persona) becomes an
/// array of `{key, value}` pairs, the form strict providers take for keys they cannot list: no
/// key is optional, so the map costs none of Anthropic's optional budget, and nothing is forced
/// empty. The key is an enum of the ids [`narrow`] named, when it named them.
/// [`plain_answer`] turns the answer back before the validator reads it.
fn maps_to_pairs(schema: &mut Value) {
    walk_schemas(schema, &mut |node| {
        let Some(value) = node
            .get("additionalProperties")
            .filter(|v| v.is_object())
            .cloned()
        else {
            return;
        };
        if node.contains_key("properties") {
            return;
        }
        let mut key = json!({ "type": "string" });
        if let Some(Value::Object(names)) = node.get("propertyNames") {
            if let Some(ids) = names.get("enum") {
                key["enum"] = ids.clone();
            }
        }
        let nullable =
            matches!(node.get("type"), Some(Value::Array(t)) if t.contains(&json!("null")));
        let description = node.get("description").cloned();
        node.clear();
        node.insert(
            "type".into(),
            if nullable {
                json!(["array", "null"])
            } else {
                json!("array")
            },
        );
        if let Some(d) = description {
            node.insert(
                "description".into(),
                json!(format!(
                    "{} As a list of {{key, value}} pairs.",
                    d.as_str().unwrap_or("")
                )),
            );
        }
        node.insert(
            "items".into(),
            json!({
                "type": "object",
                "properties": { "key": key, "value": value },
                "required": ["key", "value"],
                "additionalProperties": false,
            }),
        );
    });
}

/// An answer written to a strict family's form, in the plain schema's shape, so the validator
/// reads the wire shape: every `{key, value}` pair list where `plain` has a map becomes the map
/// (the strict forms sent pairs), and a `null` the strict form used for "absent" where
/// `plain` takes no `null` (an optional list, say) is left out. `None` when the answer is not
/// JSON or needs neither (then it goes to the validator as it came), and when it is longer than
/// any kind reads ([`crate::engine::long_answer::ANSWER_BYTES_MAX`]): the engine refuses that by
/// its length unread, so megabytes are never parsed only to be refused.
pub fn plain_answer(plain: &Value, answer: &str) -> Option<String> {
    if answer.len() > crate::engine::long_answer::ANSWER_BYTES_MAX {
        return None;
    }
    let mut value: Value = serde_json::from_str(answer.trim()).ok()?;
    let defs = plain.get("$defs").cloned().unwrap_or(Value::Null);
    let mut changed = false;
    unpair(plain, &defs, &mut value, &mut changed, 0);
    changed.then(|| value.to_string())
}

/// [`plain_answer`] at one schema position, following `$ref`s and every branch.
fn unpair(schema: &Value, defs: &Value, value: &mut Value, changed: &mut bool, depth: usize) {
    if depth > 32 {
        return;
    }
    let Some(node) = schema.as_object() else {
        return;
    };
    if let Some(target) = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(defs, r))
    {
        unpair(target, defs, value, changed, depth + 1);
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        for branch in node
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if tag_matches(branch, defs, value) {
                unpair(branch, defs, value, changed, depth + 1);
            }
        }
    }
    match value {
        Value::Array(items) => {
            if node
                .get("additionalProperties")
                .is_some_and(Value::is_object)
            {
                let pairs = items.iter().all(|i| {
                    i.as_object().is_some_and(|o| {
                        o.len() == 2 && o.contains_key("key") && o.contains_key("value")
                    }) && i["key"].is_string()
                });
                if pairs {
                    let map: Map<String, Value> = items
                        .iter()
                        .map(|i| {
                            (
                                i["key"].as_str().unwrap_or_default().to_string(),
                                i["value"].clone(),
                            )
                        })
                        .fill();
                    *value = Value::Object(map);
                    *changed = true;
                    return;
                }
            }
            if let Some(item) = node.get("items") {
                for v in items.iter_mut() {
                    unpair(item, defs, v, changed, depth + 1);
                }
            }
        }
        Value::Object(fields) => {
            if let Some(Value::Object(props)) = node.get("properties") {
                let required = strings(node.get("required"));
                for (name, sub) in props {
                    // A strict form sends "absent" as `null`: where the plain schema takes no
                    // `null` and the field may be left out, it is left out.
                    let absent = fields.get(name).is_some_and(Value::is_null)
                        && !required.contains(name)
                        && !allows_null(sub, defs, 0);
                    if absent {
                        fields.remove(name);
                        *changed = true;
                        continue;
                    }
                    if let Some(v) = fields.get_mut(name) {
                        unpair(sub, defs, v, changed, depth + 1);
                    }
                }
                // A strict form flattens the alternatives into one object with every field
                // required, so the fields of the branches not taken come as `null`: they are no
                // part of this answer (and must not read as unknown fields to remove).
                let before = fields.len();
                fields.retain(|name, v| !v.is_null() || props.contains_key(name));
                *changed |= fields.len() != before;
            }
        }
        _ => {}
    }
}

/// Whether a schema position takes `null` (its type, an enum value, or a branch says so).
fn allows_null(schema: &Value, defs: &Value, depth: usize) -> bool {
    if depth > 16 {
        return true;
    }
    let Some(node) = schema.as_object() else {
        return true;
    };
    if let Some(target) = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(defs, r))
    {
        return allows_null(target, defs, depth + 1);
    }
    let branches: Vec<&Value> = ["oneOf", "anyOf"]
        .iter()
        .filter_map(|k| node.get(*k).and_then(Value::as_array))
        .flatten()
        .collect();
    if !branches.is_empty() {
        return branches.iter().any(|b| allows_null(b, defs, depth + 1));
    }
    match node.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => node
            .get("enum")
            .and_then(Value::as_array)
            .is_none_or(|values| values.contains(&Value::Null)),
    }
}

/// Whether `value` may be an instance of `branch` by its tag: a `const` property of the branch
/// that the value holds with another value rules the branch out.
fn tag_matches(branch: &Value, defs: &Value, value: &Value) -> bool {
    let branch = match branch
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(defs, r))
    {
        Some(target) if branch.get("properties").is_none() => target,
        _ => branch,
    };
    branch
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .all(|(name, prop)| match (prop.get("const"), value.get(name)) {
            (Some(tag), Some(v)) => tag == v,
            _ => true,
        })
}

/// An `anyOf` of object branches becomes one object (OpenAI refuses object branches that start
/// with the same key, and `serde_json` keeps keys sorted, so every tree operation would start
/// with `action`): the union of the branches' properties, required only what every branch
/// requires; a property the branches spell differently keeps both as an `anyOf` (merged the same
/// way when both are objects). The tag (`action`) becomes an enum of every branch's value. Like
/// the flattened root, an answer carries the other branches' fields as `null`, which the
/// validator reports as ignored.
fn merge_object_branches(schema: &mut Value) {
    let defs = schema.get("$defs").cloned().unwrap_or(Value::Null);
    walk_schemas(schema, &mut |node| {
        let Some(Value::Array(branches)) = node.get("anyOf") else {
            return;
        };
        let objects: Vec<Value> = branches
            .iter()
            .map(|b| {
                match b
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| resolve(&defs, r))
                {
                    Some(t) => t.clone(),
                    None => b.clone(),
                }
            })
            .collect();
        let all_objects = objects.len() > 1
            && objects
                .iter()
                .all(|o| o.get("properties").is_some_and(Value::is_object));
        if !all_objects {
            return;
        }
        let merged = merge_objects(&objects, &defs);
        node.remove("anyOf");
        if let Value::Object(m) = merged {
            for (k, v) in m {
                node.entry(k).or_insert(v);
            }
        }
    });
}

/// One object with every branch's properties (see [`merge_object_branches`]).
fn merge_objects(objects: &[Value], defs: &Value) -> Value {
    let mut props = Map::new();
    let mut required: Option<Vec<String>> = None;
    for o in objects {
        let names = strings(o.get("required"));
        required = Some(match required {
            None => names,
            Some(r) => r.into_iter().filter(|n| names.contains(n)).collect(),
        });
        for (name, prop) in o["properties"].as_object().into_iter().flatten() {
            let prop = single_value_enum(prop);
            match props.get_mut(name) {
                None => {
                    props.insert(name.clone(), prop);
                }
                Some(seen) if *seen == prop => {}
                Some(seen) => {
                    let tags = (seen.get("enum"), prop.get("enum"));
                    if let (Some(Value::Array(a)), Some(Value::Array(b))) = tags {
                        let mut values = a.clone();
                        values.extend(b.iter().filter(|v| !a.contains(v)).cloned());
                        seen["enum"] = Value::Array(values);
                        continue;
                    }
                    let resolved = |v: &Value| match v
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(|r| resolve(defs, r))
                    {
                        Some(t) => t.clone(),
                        None => v.clone(),
                    };
                    let (a, b) = (resolved(seen), resolved(&prop));
                    *seen = if a.get("properties").is_some() && b.get("properties").is_some() {
                        merge_objects(&[a, b], defs)
                    } else if let Some(joined) = same_but_notes(seen, &prop) {
                        joined
                    } else {
                        json!({ "anyOf": [std::mem::take(seen), prop] })
                    };
                }
            }
        }
    }
    json!({
        "type": "object",
        "properties": props,
        "required": required.unwrap_or_default(),
    })
}

/// Two branches' spellings of one property that differ only in their notes (`description`) and
/// in whether `null` is allowed: one schema, both descriptions, the types joined (an ADD's `name`
/// and an UPDATE's nullable `name` are both a string).
fn same_but_notes(a: &Value, b: &Value) -> Option<Value> {
    // `X` and `anyOf: [X, null]` (a `$ref` made nullable) are the same place, nullable.
    let nullable_ref = |v: &Value| -> Option<Value> {
        let branches = v.get("anyOf")?.as_array()?;
        match branches.as_slice() {
            [x, n] if n == &json!({"type": "null"}) && x.get("$ref").is_some() => Some(x.clone()),
            _ => None,
        }
    };
    let (ra, rb) = (nullable_ref(a), nullable_ref(b));
    if ra.is_some() || rb.is_some() {
        let (xa, xb) = (
            ra.clone().unwrap_or_else(|| a.clone()),
            rb.clone().unwrap_or_else(|| b.clone()),
        );
        if xa != xb {
            return None;
        }
        return Some(json!({ "anyOf": [xa, {"type": "null"}] }));
    }
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("description");
            o.remove("type");
        }
        v
    };
    if strip(a) != strip(b) {
        return None;
    }
    let types = |v: &Value| -> Vec<Value> {
        match v.get("type") {
            Some(Value::Array(t)) => t.clone(),
            Some(t) => vec![t.clone()],
            None => Vec::new(),
        }
    };
    let mut joined_types = types(a);
    for t in types(b) {
        if !joined_types.contains(&t) {
            joined_types.push(t);
        }
    }
    let mut out = strip(a);
    let obj = out.as_object_mut()?;
    match joined_types.len() {
        0 => {}
        1 => {
            obj.insert("type".into(), joined_types.remove(0));
        }
        _ => {
            obj.insert("type".into(), Value::Array(joined_types));
        }
    }
    let mut notes: Vec<&str> = Vec::new();
    for note in [a, b]
        .iter()
        .filter_map(|v| v.get("description").and_then(Value::as_str))
        .flat_map(|d| d.split(" / "))
    {
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    if !notes.is_empty() {
        obj.insert("description".into(), json!(notes.join(" / ")));
    }
    Some(out)
}

/// A `const` tag spelled as a one-value `enum`, so branches' tags can be joined.
fn single_value_enum(prop: &Value) -> Value {
    let mut prop = prop.clone();
    if let Some(obj) = prop.as_object_mut() {
        if let Some(c) = obj.remove("const") {
            obj.insert("enum".into(), json!([c]));
        }
    }
    prop
}

/// Anthropic counts optional properties and union-typed ones (`anyOf`, a list of types) against
/// two budgets ([`crate::provider_rules::anthropic`]). An optional property may simply be left
/// out, so it is sent without its `null`; while the optional budget is exceeded, optional
/// properties the plain schema already lets be `null` are sent required-but-nullable instead,
/// as long as the union budget allows (the validator reads `null` as absent there).
fn fit_optional_and_unions(schema: &mut Value) {
    use crate::provider_rules::anthropic::{MAX_OPTIONAL, MAX_UNION};
    // Every optional property: drop its `null` (absence says the same).
    let mut nullable_optional = Vec::new();
    let mut index = 0;
    walk_schemas(schema, &mut |node| {
        let required = strings(node.get("required"));
        if let Some(Value::Object(props)) = node.get_mut("properties") {
            for (name, prop) in props.iter_mut() {
                if !required.contains(name) && drop_null(prop) {
                    nullable_optional.push(index);
                }
                index += 1;
            }
        }
    });
    let (mut optional, mut union) = crate::provider_rules::optional_and_union_counts(schema);
    let mut promote = Vec::new();
    for i in nullable_optional {
        if optional <= MAX_OPTIONAL || union >= MAX_UNION {
            break;
        }
        promote.push(i);
        optional -= 1;
        union += 1;
    }
    let mut index = 0;
    walk_schemas(schema, &mut |node| {
        let mut now_required = Vec::new();
        if let Some(Value::Object(props)) = node.get_mut("properties") {
            for (name, prop) in props.iter_mut() {
                if promote.contains(&index) {
                    make_nullable(prop);
                    now_required.push(json!(name));
                }
                index += 1;
            }
        }
        if !now_required.is_empty() {
            let req = node.entry("required").or_insert_with(|| json!([]));
            if let Some(list) = req.as_array_mut() {
                list.extend(now_required);
            }
        }
    });
}

/// Removes `null` from a property's types (a type list, an `anyOf` branch, an enum value); says
/// whether there was one.
fn drop_null(prop: &mut Value) -> bool {
    let Some(obj) = prop.as_object_mut() else {
        return false;
    };
    let mut had = false;
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        let before = types.len();
        types.retain(|t| t != "null");
        had |= types.len() < before;
        if types.len() == 1 {
            let only = types[0].clone();
            obj.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = obj.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if let Some(Value::Array(branches)) = obj.get_mut("anyOf") {
        let before = branches.len();
        branches.retain(|b| b != &json!({"type": "null"}));
        had |= branches.len() < before;
        if branches.len() == 1 {
            let only = branches.remove(0);
            obj.remove("anyOf");
            if let Value::Object(o) = only {
                if o.contains_key("$ref") {
                    // A `$ref` stands alone (its definition carries the description).
                    obj.clear();
                }
                for (k, v) in o {
                    obj.entry(k).or_insert(v);
                }
            }
        }
    }
    had
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
    prune_defs(&mut schema);
    schema
}

/// Removes the definitions nothing reachable from the root names ([`narrow`] leaves the shared
/// ones beside its copies): a provider compiles, and counts, only what is sent.
fn prune_defs(schema: &mut Value) {
    let mut used = std::collections::BTreeSet::new();
    let mut todo: Vec<Value> = vec![without_defs(schema)];
    while let Some(node) = todo.pop() {
        let text = node.to_string();
        for (i, _) in text.match_indices("\"$ref\":\"#/$defs/") {
            let name: String = text[i + 16..].chars().take_while(|c| *c != '"').collect();
            if used.insert(name.clone()) {
                if let Some(def) = schema.get("$defs").and_then(|d| d.get(&name)) {
                    todo.push(def.clone());
                }
            }
        }
    }
    if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
        defs.retain(|name, _| used.contains(name));
    }
}

/// The schema without its `$defs`.
fn without_defs(schema: &Value) -> Value {
    let mut root = schema.clone();
    if let Some(obj) = root.as_object_mut() {
        obj.remove("$defs");
    }
    root
}

// The keywords and formats each form keeps, and the bounds it keeps within, are the ones its
// family's rules name (`crate::provider_rules`), so the form and its checker read one list; the
// walks over a schema go by the checkers' lists of the keywords that hold subschemas.
use crate::provider_rules::{anthropic as anthropic_rules, gemini as gemini_rules};
use crate::provider_rules::{grammar as grammar_rules, openai as openai_rules};
use crate::provider_rules::{SUBSCHEMA_LISTS, SUBSCHEMA_MAPS, SUBSCHEMA_ONE};

/// Calls `f` on every schema object in `node`: the node itself, and every subschema under
/// `properties`, `$defs`, `items`, `prefixItems`, `anyOf`, `oneOf`, `allOf`, and
/// `additionalProperties`. Keyword values that are data (`enum`, `const`, `required`) are not
/// schemas and are left alone.
pub fn walk_schemas(node: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(obj) = node.as_object_mut() else {
        return;
    };
    f(obj);
    for (key, child) in obj.iter_mut() {
        let key = key.as_str();
        if SUBSCHEMA_MAPS.contains(&key) {
            for sub in child
                .as_object_mut()
                .into_iter()
                .flat_map(|m| m.values_mut())
            {
                walk_schemas(sub, f);
            }
        } else if SUBSCHEMA_LISTS.contains(&key) {
            for sub in child.as_array_mut().into_iter().flatten() {
                walk_schemas(sub, f);
            }
        } else if SUBSCHEMA_ONE.contains(&key) {
            walk_schemas(child, f);
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

/// Anthropic accepts `minItems` of 0 or 1 only: a larger minimum becomes the largest it takes.
fn limit_min_items(schema: &mut Value) {
    walk_schemas(schema, &mut |node| {
        if let Some(n) = node.get("minItems").and_then(Value::as_u64) {
            if n > anthropic_rules::MAX_MIN_ITEMS {
                node.insert("minItems".into(), json!(anthropic_rules::MAX_MIN_ITEMS));
            }
        }
    });
}

/// OpenAI strict mode: every property required, optional ones nullable, no extra properties,
/// no `default`.
pub fn make_strict(schema: &mut Value) {
    walk_schemas(schema, &mut |obj| {
        obj.remove("default");
        let is_object = match obj.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => ts.contains(&json!("object")),
            _ => false,
        };
        if !obj.contains_key("properties") {
            // Strict mode closes every object, one without properties too (a map was already
            // turned into pairs, so nothing is forced empty).
            if is_object {
                obj.insert("additionalProperties".into(), json!(false));
            }
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

    /// OpenAI's enum budget keeps the most enumerated values that fit: of 900 + 200 + 10 ids
    /// (1,110, over the 1,000), the 200 go, not the 900 (dropping the widest first kept 210); an
    /// enum too long for the per-enum rule goes whatever its size; a schema inside the limits
    /// keeps every enum.
    #[test]
    fn the_enum_budget_keeps_the_most_values_that_fit() {
        let ids = |prefix: &str, n: usize, width: usize| -> Vec<Value> {
            (0..n)
                .map(|i| json!(format!("{prefix}{i:0width$}")))
                .collect()
        };
        let object = |enums: Vec<(&str, Vec<Value>)>| {
            let names: Vec<&str> = enums.iter().map(|(n, _)| *n).collect();
            let props: Map<String, Value> = enums
                .into_iter()
                .map(|(n, e)| (n.to_string(), json!({"type": "string", "enum": e})))
                .fill();
            json!({"type": "object", "properties": props, "required": names, "additionalProperties": false})
        };
        let kept = |schema: &Value, p: &str| {
            schema["properties"][p]
                .get("enum")
                .and_then(Value::as_array)
                .map_or(0, Vec::len)
        };
        let mut schema = object(vec![
            ("a", ids("a", 900, 3)),
            ("b", ids("b", 200, 3)),
            ("c", ids("c", 10, 3)),
        ]);
        assert!(fit_enums(&mut schema));
        assert_eq!(
            ["a", "b", "c"].map(|p| kept(&schema, p)),
            [900, 0, 10],
            "the most values that fit stay"
        );
        assert!(crate::provider_rules::check(Family::OpenaiStrict, &schema).is_empty());
        // 300 ids of 60 characters (18,000, over 15,000 for an enum over 250 values) go, though
        // the total is inside 1,000; the small enum stays.
        let mut long = object(vec![("a", ids("a", 300, 59)), ("c", ids("c", 10, 3))]);
        assert!(fit_enums(&mut long));
        assert_eq!(["a", "c"].map(|p| kept(&long, p)), [0, 10]);
        assert!(crate::provider_rules::check(Family::OpenaiStrict, &long).is_empty());
        // Inside the limits nothing is trimmed.
        let mut fits = object(vec![("a", ids("a", 600, 3)), ("c", ids("c", 400, 3))]);
        assert!(!fit_enums(&mut fits));
        assert_eq!(["a", "c"].map(|p| kept(&fits, p)), [600, 400]);
        // Equal totals: the set with more enums stays (600 + 400 over 1,000 alone).
        assert_eq!(
            enums_to_keep(&[(1000, false), (600, false), (400, false)], 1000),
            [false, true, true]
        );
    }
}
