//! An answer's value walked against a person's compiled schema: every keyword the schema holds,
//! every violation collected with its pointer into the answer, what was expected, what was
//! received and a hint, in the validator's words.
//!
//! A union (`anyOf`, `oneOf`) that no branch meets is one violation where the value stands,
//! naming the branches; when one branch comes closest (fewest violations of its own), its
//! violations follow, so a model repairing the answer sees what that branch still wants.

use serde_json::Value;

use super::super::json::shorten;
use super::super::Violation;
use super::{format, fragment_pointer, Compiled};

/// Every violation of `value` against the compiled schema.
pub(super) fn check(compiled: &Compiled, value: &Value) -> Vec<Violation> {
    let mut out = Vec::new();
    Eval { c: compiled }.node(&compiled.root, "", value, "", &mut out);
    out
}

struct Eval<'c> {
    c: &'c Compiled,
}

/// What a path names, for a message: the last key, `item 2 of tags`, or `the value`.
fn label(path: &str) -> String {
    let Some((parent, last)) = path.rsplit_once('/') else {
        return "the value".into();
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    if !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()) {
        format!("item {last} of {}", label(parent))
    } else {
        last
    }
}

fn received(v: &Value) -> String {
    shorten(&v.to_string(), 80)
}

fn type_words(t: &str) -> &'static str {
    match t {
        "object" => "an object",
        "array" => "an array",
        "string" => "a string",
        "integer" => "a whole number",
        "number" => "a number",
        "boolean" => "true or false",
        _ => "null",
    }
}

fn is_integer(v: &Value) -> bool {
    v.is_i64()
        || v.is_u64()
        || v.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_number() && is_integer(v),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        _ => v.is_null(),
    }
}

/// JSON equality as JSON Schema reads it: `1` and `1.0` are the same number.
pub(super) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), _, _) => p == q,
                (_, _, Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

fn num(v: &Value) -> String {
    v.to_string()
}

/// A list of values for `expected`: strings bare, the rest as JSON.
fn values_words(values: &[Value]) -> String {
    let words: Vec<String> = values
        .iter()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), String::from))
        .collect();
    format!("one of: {}", words.join(", "))
}

impl Eval<'_> {
    fn violation(
        out: &mut Vec<Violation>,
        path: &str,
        message: String,
        expected: String,
        value: &Value,
        hint: String,
    ) {
        out.push(Violation::new(
            path.to_string(),
            message,
            expected,
            received(value),
            hint,
        ));
    }

    /// The schema a local `$ref` names (compile checked that it names one).
    fn target(&self, reference: &str) -> (String, &Value) {
        let pointer = fragment_pointer(reference).unwrap_or_default();
        let node = self.c.root.pointer(&pointer).unwrap_or(&Value::Bool(true));
        (pointer, node)
    }

    /// Checks `v` (at `path` in the answer) against `schema` (at `at` in the schema).
    fn node(&self, schema: &Value, at: &str, v: &Value, path: &str, out: &mut Vec<Violation>) {
        let map = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                let what = label(path);
                Self::violation(
                    out,
                    path,
                    format!("{what} is not allowed here"),
                    "no value here (the schema allows none)".into(),
                    v,
                    format!("Leave {what} out."),
                );
                return;
            }
            Value::Object(map) => map,
            _ => return,
        };
        let what = label(path);
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            let (pointer, target) = self.target(r);
            self.node(target, &pointer, v, path, out);
        }
        if let Some(t) = map.get("type") {
            let names: Vec<&str> = match t {
                Value::String(s) => vec![s.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !names.iter().any(|n| has_type(v, n)) {
                let words: Vec<&str> = names.iter().map(|n| type_words(n)).collect();
                let expected = words.join(" or ");
                Self::violation(
                    out,
                    path,
                    format!("{what} must be {expected}"),
                    expected.clone(),
                    v,
                    format!("Write {what} as {expected}."),
                );
            }
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            if !values.iter().any(|e| equal(e, v)) {
                let expected = values_words(values);
                Self::violation(
                    out,
                    path,
                    format!("{what} must be {expected}"),
                    expected,
                    v,
                    format!("Use {}.", values_words(values)),
                );
            }
        }
        if let Some(c) = map.get("const") {
            if !equal(c, v) {
                Self::violation(
                    out,
                    path,
                    format!("{what} must be {c}"),
                    format!("exactly {c}"),
                    v,
                    format!("Write {what} as {c}."),
                );
            }
        }
        match v {
            Value::String(s) => self.string(map, s, v, path, &what, out),
            Value::Number(_) => Self::number(map, v, path, &what, out),
            Value::Array(items) => self.array(map, at, items, v, path, &what, out),
            Value::Object(fields) => self.object(map, at, fields, v, path, &what, out),
            _ => {}
        }
        if let Some(Value::Array(all)) = map.get("allOf") {
            for (i, s) in all.iter().enumerate() {
                self.node(s, &format!("{at}/allOf/{i}"), v, path, out);
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                self.union(key, branches, at, v, path, &what, out);
            }
        }
        if let Some(not) = map.get("not") {
            let mut inner = Vec::new();
            self.node(not, &format!("{at}/not"), v, path, &mut inner);
            if inner.is_empty() {
                Self::violation(
                    out,
                    path,
                    format!("{what} must not match the schema at {at}/not"),
                    format!("a value the schema at {at}/not refuses"),
                    v,
                    format!("Change {what}: the schema forbids this value."),
                );
            }
        }
        if let Some(cond) = map.get("if") {
            let mut inner = Vec::new();
            self.node(cond, &format!("{at}/if"), v, path, &mut inner);
            let (key, branch) = if inner.is_empty() {
                ("then", map.get("then"))
            } else {
                ("else", map.get("else"))
            };
            if let Some(branch) = branch {
                self.node(branch, &format!("{at}/{key}"), v, path, out);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn union(
        &self,
        key: &str,
        branches: &[Value],
        at: &str,
        v: &Value,
        path: &str,
        what: &str,
        out: &mut Vec<Violation>,
    ) {
        let results: Vec<Vec<Violation>> = branches
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let mut inner = Vec::new();
                self.node(b, &format!("{at}/{key}/{i}"), v, path, &mut inner);
                inner
            })
            .collect();
        let passing: Vec<usize> = (0..results.len())
            .filter(|i| results[*i].is_empty())
            .collect();
        let names: Vec<String> = branches
            .iter()
            .enumerate()
            .map(|(i, b)| self.branch_name(b, i))
            .collect();
        if passing.len() == 1 || (key == "anyOf" && !passing.is_empty()) {
            return;
        }
        if passing.len() > 1 {
            let which: Vec<&str> = passing.iter().map(|i| names[*i].as_str()).collect();
            Self::violation(
                out,
                path,
                format!(
                    "{what} matches {} of the shapes allowed ({}); it must match exactly one",
                    passing.len(),
                    which.join(", ")
                ),
                format!("exactly one of: {}", names.join(", ")),
                v,
                format!("Make {what} fit one shape only (the schema's oneOf at {at})."),
            );
            return;
        }
        let closest = self.closest(branches, &results, v, path);
        let hint = match closest[..] {
            [one] => format!("It comes closest to {}: fix what follows.", names[one]),
            _ => format!("Make {what} fit one of them."),
        };
        let hint = if closest.is_empty() && v.is_object() {
            format!("{hint} Its tag names none of the shapes.")
        } else {
            hint
        };
        Self::violation(
            out,
            path,
            format!(
                "{what} matches none of the {} shapes allowed",
                branches.len()
            ),
            format!("one of: {}", names.join(", ")),
            v,
            hint,
        );
        if let [one] = closest[..] {
            out.extend(results.into_iter().nth(one).unwrap_or_default());
        }
    }

    /// The branches an answer comes closest to: in a tagged union (every branch an object with
    /// a `const` on the same property), the branch whose tag the value carries (none when it
    /// carries no known tag); else the branches with the fewest violations of the value itself,
    /// then the fewest in all.
    fn closest(
        &self,
        branches: &[Value],
        results: &[Vec<Violation>],
        v: &Value,
        path: &str,
    ) -> Vec<usize> {
        let resolved: Vec<&Value> = branches
            .iter()
            .map(|b| match b.get("$ref").and_then(Value::as_str) {
                Some(r) if b.get("properties").is_none() => self.target(r).1,
                _ => b,
            })
            .collect();
        let tag_of = |b: &Value, name: &str| b.get("properties")?.get(name)?.get("const").cloned();
        let tags = resolved
            .first()
            .and_then(|b| b.get("properties"))
            .and_then(Value::as_object);
        for name in tags.into_iter().flat_map(|p| p.keys()) {
            let values: Vec<Option<Value>> = resolved.iter().map(|b| tag_of(b, name)).collect();
            if values.iter().all(Option::is_some) {
                return match v.get(name) {
                    Some(tag) => (0..branches.len())
                        .filter(|i| values[*i].as_ref().is_some_and(|t| equal(t, tag)))
                        .collect(),
                    None => Vec::new(),
                };
            }
        }
        let score = |errors: &Vec<Violation>| {
            (
                errors.iter().filter(|e| e.path == path).count(),
                errors.len(),
            )
        };
        let best = results.iter().map(score).min();
        (0..results.len())
            .filter(|i| Some(score(&results[*i])) == best)
            .collect()
    }

    /// A union branch in words: its title, the definition it names, its type, or its place.
    fn branch_name(&self, b: &Value, i: usize) -> String {
        let base = if let Some(t) = b.get("title").and_then(Value::as_str) {
            t.to_string()
        } else if let Some(r) = b.get("$ref").and_then(Value::as_str) {
            let (_, target) = self.target(r);
            target.get("title").and_then(Value::as_str).map_or_else(
                || r.rsplit('/').next().unwrap_or(r).to_string(),
                String::from,
            )
        } else if let Some((name, tag)) = b
            .get("properties")
            .and_then(Value::as_object)
            .and_then(|p| p.iter().find_map(|(k, s)| Some((k, s.get("const")?))))
        {
            format!("{name} {tag}")
        } else if let Some(c) = b.get("const") {
            c.to_string()
        } else if let Some(t) = b.get("type").and_then(Value::as_str) {
            type_words(t).to_string()
        } else {
            format!("shape {}", i + 1)
        };
        base
    }

    fn string(
        &self,
        map: &serde_json::Map<String, Value>,
        s: &str,
        v: &Value,
        path: &str,
        what: &str,
        out: &mut Vec<Violation>,
    ) {
        let len = s.chars().count();
        let min = map.get("minLength").and_then(Value::as_u64);
        let max = map.get("maxLength").and_then(Value::as_u64);
        let bounds = match (min, max) {
            (Some(a), Some(b)) => format!("text of {a} to {b} characters"),
            (Some(a), None) => format!("text of at least {a} characters"),
            (None, Some(b)) => format!("text of at most {b} characters"),
            (None, None) => String::new(),
        };
        if min.is_some_and(|m| (len as u64) < m) {
            Self::violation(
                out,
                path,
                format!("{what} is too short ({len} characters)"),
                bounds.clone(),
                v,
                format!("Write {what} as {bounds}."),
            );
        }
        if max.is_some_and(|m| (len as u64) > m) {
            Self::violation(
                out,
                path,
                format!("{what} is too long ({len} characters)"),
                bounds.clone(),
                v,
                format!("Shorten {what} to {bounds}."),
            );
        }
        if let Some(p) = map.get("pattern").and_then(Value::as_str) {
            if self.c.patterns.get(p).is_some_and(|re| !re.is_match(s)) {
                Self::violation(
                    out,
                    path,
                    format!("{what} does not match the pattern {p}"),
                    format!("text matching {p}"),
                    v,
                    format!("Rewrite {what} so that it matches {p}."),
                );
            }
        }
        if let Some(f) = map.get("format").and_then(Value::as_str) {
            if !format::is_valid(f, s) {
                let words = format::words(f);
                Self::violation(
                    out,
                    path,
                    format!("{what} is not {}", format::noun(f)),
                    words.to_string(),
                    v,
                    format!("Write {what} as {words}."),
                );
            }
        }
    }

    fn number(
        map: &serde_json::Map<String, Value>,
        v: &Value,
        path: &str,
        what: &str,
        out: &mut Vec<Violation>,
    ) {
        let x = v.as_f64().unwrap_or(0.0);
        let integer = map.get("type").and_then(Value::as_str) == Some("integer");
        let noun = if integer {
            "a whole number"
        } else {
            "a number"
        };
        let min = map.get("minimum");
        let max = map.get("maximum");
        let expected = match (min, max) {
            (Some(a), Some(b)) => format!("{noun} from {} to {}", num(a), num(b)),
            (Some(a), None) => format!("{noun} of at least {}", num(a)),
            (None, Some(b)) => format!("{noun} of at most {}", num(b)),
            _ => String::new(),
        };
        let below = min.and_then(Value::as_f64).is_some_and(|m| x < m);
        let above = max.and_then(Value::as_f64).is_some_and(|m| x > m);
        if below || above {
            Self::violation(
                out,
                path,
                format!("{what} is out of range"),
                expected.clone(),
                v,
                format!("Use {expected} for {what}."),
            );
        }
        if let Some(m) = map
            .get("exclusiveMinimum")
            .filter(|m| m.as_f64().is_some_and(|m| x <= m))
        {
            let e = format!("{noun} above {}", num(m));
            Self::violation(
                out,
                path,
                format!("{what} must be above {}", num(m)),
                e.clone(),
                v,
                format!("Use {e} for {what}."),
            );
        }
        if let Some(m) = map
            .get("exclusiveMaximum")
            .filter(|m| m.as_f64().is_some_and(|m| x >= m))
        {
            let e = format!("{noun} below {}", num(m));
            Self::violation(
                out,
                path,
                format!("{what} must be below {}", num(m)),
                e.clone(),
                v,
                format!("Use {e} for {what}."),
            );
        }
        if let Some(m) = map.get("multipleOf") {
            let step = m.as_f64().unwrap_or(1.0);
            let ratio = x / step;
            if !(ratio.is_finite() && ratio.fract() == 0.0) {
                Self::violation(
                    out,
                    path,
                    format!("{what} must be a multiple of {}", num(m)),
                    format!("a multiple of {}", num(m)),
                    v,
                    format!("Round {what} to a multiple of {}.", num(m)),
                );
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn array(
        &self,
        map: &serde_json::Map<String, Value>,
        at: &str,
        items: &[Value],
        v: &Value,
        path: &str,
        what: &str,
        out: &mut Vec<Violation>,
    ) {
        let n = items.len() as u64;
        let min = map.get("minItems").and_then(Value::as_u64);
        let max = map.get("maxItems").and_then(Value::as_u64);
        let count = match (min, max) {
            (Some(a), Some(b)) => format!("{a} to {b} items"),
            (Some(a), None) => format!("at least {a} items"),
            (None, Some(b)) => format!("at most {b} items"),
            _ => String::new(),
        };
        if min.is_some_and(|m| n < m) {
            Self::violation(
                out,
                path,
                format!("{what} has too few items ({n})"),
                count.clone(),
                v,
                format!("Give {what} {count}."),
            );
        }
        if max.is_some_and(|m| n > m) {
            Self::violation(
                out,
                path,
                format!("{what} has too many items ({n})"),
                count.clone(),
                v,
                format!("Give {what} {count}."),
            );
        }
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            'outer: for j in 1..items.len() {
                for i in 0..j {
                    if equal(&items[i], &items[j]) {
                        Self::violation(
                            out,
                            &format!("{path}/{j}"),
                            format!("item {j} of {what} repeats item {i}"),
                            "items that are all different".into(),
                            &items[j],
                            format!("Remove the repeated item from {what}."),
                        );
                        break 'outer;
                    }
                }
            }
        }
        // The items a list of schemas covers by place; the rest meet `items` (2020-12) or
        // `additionalItems` (draft-07).
        let (prefix, prefix_key, rest_key) = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(p)), _) => (p.as_slice(), "prefixItems", "items"),
            (_, Some(Value::Array(p))) => (p.as_slice(), "items", "additionalItems"),
            _ => (&[][..], "prefixItems", "items"),
        };
        for (i, item) in items.iter().enumerate() {
            let item_path = format!("{path}/{i}");
            if let Some(s) = prefix.get(i) {
                self.node(s, &format!("{at}/{prefix_key}/{i}"), item, &item_path, out);
            } else if let Some(s) = map.get(rest_key).filter(|s| !s.is_array()) {
                if s == &Value::Bool(false) {
                    Self::violation(
                        out,
                        &item_path,
                        format!("{what} has an item past the {} allowed", prefix.len()),
                        format!("at most {} items", prefix.len()),
                        item,
                        format!("Give {what} only {} items.", prefix.len()),
                    );
                } else {
                    self.node(s, &format!("{at}/{rest_key}"), item, &item_path, out);
                }
            }
        }
        if let Some(c) = map.get("contains") {
            let matching = items
                .iter()
                .enumerate()
                .filter(|(i, item)| {
                    let mut inner = Vec::new();
                    self.node(
                        c,
                        &format!("{at}/contains"),
                        item,
                        &format!("{path}/{i}"),
                        &mut inner,
                    );
                    inner.is_empty()
                })
                .count() as u64;
            let least = map.get("minContains").and_then(Value::as_u64).unwrap_or(1);
            let most = map.get("maxContains").and_then(Value::as_u64);
            if matching < least || most.is_some_and(|m| matching > m) {
                let want = match most {
                    Some(m) => format!("{least} to {m} items matching the schema at {at}/contains"),
                    None => {
                        format!("at least {least} item(s) matching the schema at {at}/contains")
                    }
                };
                Self::violation(
                    out,
                    path,
                    format!("{what} has {matching} items of the kind it must contain"),
                    want.clone(),
                    v,
                    format!("Give {what} {want}."),
                );
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn object(
        &self,
        map: &serde_json::Map<String, Value>,
        at: &str,
        fields: &serde_json::Map<String, Value>,
        v: &Value,
        path: &str,
        what: &str,
        out: &mut Vec<Violation>,
    ) {
        let props = map.get("properties").and_then(Value::as_object);
        let patterns = map.get("patternProperties").and_then(Value::as_object);
        let extra = map.get("additionalProperties");
        for (key, value) in fields {
            let field_path = format!("{path}/{}", super::escape(key));
            let mut known = false;
            if let Some(s) = props.and_then(|p| p.get(key)) {
                known = true;
                self.node(
                    s,
                    &format!("{at}/properties/{}", super::escape(key)),
                    value,
                    &field_path,
                    out,
                );
            }
            for (p, s) in patterns.into_iter().flatten() {
                if self.c.patterns.get(p).is_some_and(|re| re.is_match(key)) {
                    known = true;
                    self.node(
                        s,
                        &format!("{at}/patternProperties/{}", super::escape(p)),
                        value,
                        &field_path,
                        out,
                    );
                }
            }
            if !known {
                match extra {
                    Some(Value::Bool(false)) => {
                        let allowed: Vec<&str> = props
                            .map(|p| p.keys().map(String::as_str).collect())
                            .unwrap_or_default();
                        let mut allowed_words = if allowed.is_empty() {
                            "no other fields".to_string()
                        } else {
                            allowed.join(", ")
                        };
                        if let Some(p) = patterns.filter(|p| !p.is_empty()) {
                            let names: Vec<&str> = p.keys().map(String::as_str).collect();
                            allowed_words
                                .push_str(&format!(" and names matching {}", names.join(", ")));
                        }
                        Self::violation(
                            out,
                            &field_path,
                            format!("unknown field {key} is not allowed"),
                            format!("one of: {allowed_words}"),
                            value,
                            format!("Remove it: the schema allows only {allowed_words}."),
                        );
                    }
                    Some(s @ Value::Object(_)) => self.node(
                        s,
                        &format!("{at}/additionalProperties"),
                        value,
                        &field_path,
                        out,
                    ),
                    _ => {}
                }
            }
            if let Some(names) = map.get("propertyNames") {
                let mut inner = Vec::new();
                self.node(
                    names,
                    &format!("{at}/propertyNames"),
                    &Value::String(key.clone()),
                    &field_path,
                    &mut inner,
                );
                if let Some(first) = inner.first() {
                    Self::violation(
                        out,
                        &field_path,
                        format!(
                            "the key \"{key}\" is not an allowed name: {}",
                            first.message.replacen(&label(&field_path), "it", 1)
                        ),
                        first.expected.clone(),
                        &Value::String(key.clone()),
                        format!("Rename the key \"{key}\": {}", first.expected),
                    );
                }
            }
        }
        if let Some(required) = map.get("required").and_then(Value::as_array) {
            for name in required.iter().filter_map(Value::as_str) {
                if !fields.contains_key(name) {
                    Self::missing(out, path, name, None, props);
                }
            }
        }
        for dep_key in ["dependentRequired", "dependencies"] {
            let Some(Value::Object(deps)) = map.get(dep_key) else {
                continue;
            };
            for (key, needs) in deps.iter().filter(|(k, _)| fields.contains_key(*k)) {
                match needs {
                    Value::Array(names) => {
                        for name in names.iter().filter_map(Value::as_str) {
                            if !fields.contains_key(name) {
                                Self::missing(out, path, name, Some(key), props);
                            }
                        }
                    }
                    schema => {
                        self.node(
                            schema,
                            &format!("{at}/{dep_key}/{}", super::escape(key)),
                            v,
                            path,
                            out,
                        );
                    }
                }
            }
        }
        if let Some(Value::Object(deps)) = map.get("dependentSchemas") {
            for (key, schema) in deps {
                if fields.contains_key(key) {
                    self.node(
                        schema,
                        &format!("{at}/dependentSchemas/{}", super::escape(key)),
                        v,
                        path,
                        out,
                    );
                }
            }
        }
        let n = fields.len() as u64;
        if let Some(m) = map
            .get("minProperties")
            .and_then(Value::as_u64)
            .filter(|m| n < *m)
        {
            Self::violation(
                out,
                path,
                format!("{what} has too few fields ({n})"),
                format!("at least {m} fields"),
                v,
                format!("Give {what} at least {m} fields."),
            );
        }
        if let Some(m) = map
            .get("maxProperties")
            .and_then(Value::as_u64)
            .filter(|m| n > *m)
        {
            Self::violation(
                out,
                path,
                format!("{what} has too many fields ({n})"),
                format!("at most {m} fields"),
                v,
                format!("Give {what} at most {m} fields."),
            );
        }
    }

    fn missing(
        out: &mut Vec<Violation>,
        path: &str,
        name: &str,
        because: Option<&str>,
        props: Option<&serde_json::Map<String, Value>>,
    ) {
        let schema = props.and_then(|p| p.get(name));
        let description = schema
            .and_then(|s| s.get("description"))
            .and_then(Value::as_str)
            .map_or(String::new(), |d| format!(" ({})", shorten(d, 80)));
        let kind = match schema.and_then(|s| s.get("type")) {
            Some(Value::String(t)) => type_words(t).to_string(),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .map(type_words)
                .collect::<Vec<_>>()
                .join(" or "),
            _ => format!("a value for {name}"),
        };
        let message = match because {
            None => format!("missing required field {name}"),
            Some(key) => format!("missing field {name}, required when {key} is given"),
        };
        out.push(Violation::new(
            format!("{path}/{}", super::escape(name)),
            message,
            format!("{kind}{description}"),
            "nothing".into(),
            format!("Add {name}."),
        ));
    }
}
