//! A value that meets a person's JSON Schema, for the example in the prompt and for the demo
//! model's `result`: the required fields only, the first branch of a union (a `null` branch once
//! a recursion is deep), the first `enum` value, the least count, number and length allowed, a
//! well-formed value for each checked `format`, the schema's own `examples` or `default` first.
//! Every value is checked against the schema by the validator before it is used: a schema this
//! cannot satisfy (a `pattern` it cannot write for) gets no example rather than a wrong one.

use serde_json::{json, Map, Value};

/// The deepest the example goes into a recursive schema before it takes the way out (`null`, an
/// empty list, an optional field left out).
const DEEP: usize = 4;

/// A value meeting `schema`, checked by the validator; `None` when none could be built.
pub fn valid_example(schema: &Value) -> Option<Value> {
    let shape = roundtable_engine::validate::compile_schema(schema).ok()?;
    let ok = |v: &Value| {
        roundtable_engine::validate::check_against_schema(shape, &v.to_string(), Default::default())
            .is_ok()
    };
    let built = Example { root: schema }.of(schema, 0);
    if ok(&built) {
        return Some(built);
    }
    [
        schema.get("examples").and_then(|e| e.get(0)),
        schema.get("default"),
    ]
    .into_iter()
    .flatten()
    .find(|v| ok(v))
    .cloned()
}

/// A value built for `schema`, not yet checked (see [`valid_example`]).
pub fn example_of_schema(schema: &Value) -> Value {
    Example { root: schema }.of(schema, 0)
}

struct Example<'a> {
    root: &'a Value,
}

impl<'a> Example<'a> {
    fn resolve(&self, reference: &str) -> &'a Value {
        let pointer = reference.trim_start_matches('#');
        let pointer: Vec<String> = pointer
            .split('/')
            .map(roundtable_engine::validate::decode_pointer_segment)
            .collect();
        let mut node = self.root;
        for seg in pointer.iter().skip(1) {
            node = match node {
                Value::Object(m) => m.get(seg.as_str()).unwrap_or(&Value::Null),
                Value::Array(a) => seg
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| a.get(i))
                    .unwrap_or(&Value::Null),
                _ => &Value::Null,
            };
        }
        node
    }

    fn of(&self, node: &Value, depth: usize) -> Value {
        let Some(map) = node.as_object() else {
            return Value::Null;
        };
        if depth > 3 * DEEP {
            return Value::Null;
        }
        if let Some(v) = map.get("examples").and_then(|e| e.get(0)) {
            return v.clone();
        }
        if let Some(v) = map.get("const") {
            return v.clone();
        }
        if let Some(v) = map.get("enum").and_then(|e| e.get(0)) {
            return v.clone();
        }
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            return self.of(self.resolve(r), depth + 1);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                let is_null = |b: &&Value| b.get("type") == Some(&json!("null"));
                let pick = if depth >= DEEP {
                    branches.iter().find(is_null).or(branches.first())
                } else {
                    branches.iter().find(|b| !is_null(b)).or(branches.first())
                };
                let mut value = pick.map_or(Value::Null, |b| self.of(b, depth + 1));
                self.merge_own(map, &mut value, depth);
                return value;
            }
        }
        if let Some(Value::Array(all)) = map.get("allOf") {
            let mut value = self.own(map, depth);
            for b in all {
                let part = self.of(b, depth + 1);
                match (&mut value, part) {
                    (Value::Object(into), Value::Object(from)) => {
                        for (k, v) in from {
                            into.entry(k).or_insert(v);
                        }
                    }
                    (v @ Value::Null, part) => *v = part,
                    _ => {}
                }
            }
            return value;
        }
        self.own(map, depth)
    }

    /// The fields a union's schema requires beside the union itself.
    fn merge_own(&self, map: &Map<String, Value>, value: &mut Value, depth: usize) {
        if let (Value::Object(into), Value::Object(own)) = (value, self.own(map, depth)) {
            for (k, v) in own {
                into.entry(k).or_insert(v);
            }
        }
    }

    /// A value of the schema's own type and bounds.
    fn own(&self, map: &Map<String, Value>, depth: usize) -> Value {
        let ty = match map.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(ts)) => {
                let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
                if depth >= DEEP && names.contains(&"null") {
                    "null"
                } else {
                    names
                        .iter()
                        .copied()
                        .find(|t| *t != "null")
                        .unwrap_or("null")
                }
            }
            _ if [
                "properties",
                "required",
                "additionalProperties",
                "patternProperties",
            ]
            .iter()
            .any(|k| map.contains_key(*k)) =>
            {
                "object"
            }
            _ if ["items", "prefixItems"]
                .iter()
                .any(|k| map.contains_key(*k)) =>
            {
                "array"
            }
            _ if ["minLength", "maxLength", "pattern", "format"]
                .iter()
                .any(|k| map.contains_key(*k)) =>
            {
                "string"
            }
            _ if [
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf",
            ]
            .iter()
            .any(|k| map.contains_key(*k)) =>
            {
                "number"
            }
            _ => return Value::Null,
        };
        match ty {
            "object" => self.object(map, depth),
            "array" => self.array(map, depth),
            "string" => string(map),
            "integer" => number(map, true),
            "number" => number(map, false),
            "boolean" => Value::Bool(true),
            _ => Value::Null,
        }
    }

    fn object(&self, map: &Map<String, Value>, depth: usize) -> Value {
        let mut out = Map::new();
        let props = map.get("properties").and_then(Value::as_object);
        for name in map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            let schema = props
                .and_then(|p| p.get(name))
                .or_else(|| map.get("additionalProperties").filter(|a| a.is_object()))
                .unwrap_or(&Value::Bool(true));
            out.insert(name.to_string(), self.of(schema, depth + 1));
        }
        let least = map
            .get("minProperties")
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize;
        if out.len() < least {
            if let Some(extra) = map.get("additionalProperties").filter(|a| a.is_object()) {
                for i in out.len()..least {
                    // Letters only: a `propertyNames` pattern most often allows those.
                    let name = ["key", "name", "item", "entry", "field", "other"]
                        .get(i)
                        .map_or_else(|| "k".repeat(i + 1), |n| (*n).to_string());
                    out.insert(name, self.of(extra, depth + 1));
                }
            }
        }
        Value::Object(out)
    }

    fn array(&self, map: &Map<String, Value>, depth: usize) -> Value {
        let (prefix, rest) = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(p)), rest) => (p.as_slice(), rest),
            (_, Some(Value::Array(p))) => (p.as_slice(), map.get("additionalItems")),
            (_, rest) => (&[][..], rest),
        };
        let mut out: Vec<Value> = prefix.iter().map(|s| self.of(s, depth + 1)).collect();
        let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = map
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(usize::MAX, |m| m as usize);
        let wanted = if depth < DEEP {
            min.max(out.len() + 1)
        } else {
            min
        };
        if let Some(item) = rest.filter(|r| r.is_object()) {
            while out.len() < wanted.min(max) {
                out.push(self.of(item, depth + 1));
            }
        }
        if let Some(c) = map.get("contains") {
            if out.len() < max {
                out.push(self.of(c, depth + 1));
            }
        }
        Value::Array(out)
    }
}

fn string(map: &Map<String, Value>) -> Value {
    let canned = match map.get("format").and_then(Value::as_str) {
        Some("date-time") => Some("2024-05-01T12:00:00Z"),
        Some("date") => Some("2024-05-01"),
        Some("time") => Some("12:00:00Z"),
        Some("email") => Some("ada@example.com"),
        Some("uri") => Some("https://example.com/"),
        Some("uuid") => Some("123e4567-e89b-12d3-a456-426614174000"),
        Some("ipv4") => Some("192.168.0.1"),
        Some("ipv6") => Some("2001:db8::1"),
        _ => None,
    };
    if let Some(c) = canned {
        return json!(c);
    }
    let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = map
        .get("maxLength")
        .and_then(Value::as_u64)
        .map_or(usize::MAX, |m| m as usize);
    let mut text = String::from("…");
    while text.chars().count() < min {
        text.push('…');
    }
    json!(text.chars().take(max.max(min)).collect::<String>())
}

fn number(map: &Map<String, Value>, integer: bool) -> Value {
    let get = |k: &str| map.get(k).and_then(Value::as_f64);
    let step = get("multipleOf").unwrap_or(if integer { 1.0 } else { 0.0 });
    let mut x = match (get("minimum"), get("exclusiveMinimum")) {
        (Some(m), _) => m,
        (None, Some(e)) => e + if step > 0.0 { step } else { 1.0 },
        _ => 0.0_f64
            .min(get("maximum").unwrap_or(0.0))
            .min(get("exclusiveMaximum").map_or(0.0, |e| e - 1.0)),
    };
    if step > 0.0 {
        x = (x / step).ceil() * step;
    }
    if integer || x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}
