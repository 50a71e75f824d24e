//! Writes a kind's shape tables (the `static` data the checker walks) from the kind's JSON
//! Schemas, and holds them to those schemas — the rust-analyzer way: each kind has a test that
//! regenerates its file and compares it with the committed one (`UPDATE_SHAPES=1` rewrites it;
//! `bash scripts/codegen.sh` runs every kind's). The validator names no kind: each kind's test
//! hands this generator its schemas, its id scope (which fields name an id, as the Rust of their
//! `Ty::Id`) and its content fields (as the Rust of their `Ty::Content`), and writes the file in
//! its own crate (`kinds/<kind>/src/shape.rs`).
//!
//! The input is what `schemars` derives from the kind's serde types (each kind's schema test keeps
//! the committed schemas equal to it). The output is plain `static` data, so checking an answer
//! costs nothing to set up: nothing is parsed or built at run time.
//!
//! Field order: the schema keeps the order of the required fields; optional ones follow by name.
//! A tagged union's tag (a `const` field) comes first, a step's `responseType` before all.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::shape::{Obj, Ty};

/// The `$defs` of every schema of one kind, merged: a definition must read the same in each.
pub fn merged_defs(schemas: &[Value], kind: &str) -> BTreeMap<String, Value> {
    let mut defs: BTreeMap<String, Value> = BTreeMap::new();
    for schema in schemas {
        for (name, def) in schema["$defs"].as_object().into_iter().flatten() {
            if let Some(seen) = defs.insert(name.clone(), def.clone()) {
                assert_eq!(
                    &seen, def,
                    "$defs/{name} differs between the {kind} answers"
                );
            }
        }
    }
    defs
}

/// The writer of one kind's tables.
pub struct Gen<'a> {
    defs: &'a BTreeMap<String, Value>,
    /// Put before every definition's name (a kind's own namespace).
    prefix: &'a str,
    /// The kind's id scope: `(definition, field, the Rust of its Ty::Id)`; for a list of ids,
    /// the type of each item.
    ids: &'a [(&'a str, &'a str, String)],
    /// The kind's content fields: `(definition, field, the Rust of its Ty::Content)`.
    content: &'a [(&'a str, &'a str, &'a str)],
    /// The id-scope and content entries the walk met, so that a stale entry fails.
    used: RefCell<Vec<(String, String)>>,
}

/// `#/$defs/ContextRequest` → `ContextRequest`.
pub fn ref_name(r: &str) -> &str {
    r.trim_start_matches("#/$defs/")
}

/// `ContextRequest` → `CONTEXT_REQUEST`.
pub fn screaming(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// A unit enum's values (`oneOf` of `const`s, or `enum`).
fn enum_values(node: &Value) -> Option<Vec<String>> {
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(|v| v.as_str().map(String::from))
            .collect();
    }
    node.get("oneOf")?
        .as_array()?
        .iter()
        .map(|b| b.get("const").and_then(Value::as_str).map(String::from))
        .collect()
}

fn str_list(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
    format!("&[{}]", quoted.join(", "))
}

impl<'a> Gen<'a> {
    /// A writer of the definitions `defs`, named with `prefix`, with the kind's id and content
    /// fields.
    pub fn new(
        defs: &'a BTreeMap<String, Value>,
        prefix: &'a str,
        ids: &'a [(&'a str, &'a str, String)],
        content: &'a [(&'a str, &'a str, &'a str)],
    ) -> Gen<'a> {
        Gen {
            defs,
            prefix,
            ids,
            content,
            used: RefCell::new(Vec::new()),
        }
    }

    /// Fails when an id or content entry names a field no shape written so far has.
    pub fn assert_every_entry_used(&self, kind: &str) {
        let used = self.used.borrow();
        let entries = self
            .ids
            .iter()
            .map(|(d, f, _)| (d, f))
            .chain(self.content.iter().map(|(d, f, _)| (d, f)));
        for (def, field) in entries {
            assert!(
                used.contains(&(def.to_string(), field.to_string())),
                "the {kind}'s id scope names {def}.{field}, which no answer shape has"
            );
        }
    }

    /// One `$defs` entry: a list of values, a tagged union (with an object per variant) or an object.
    pub fn def(&self, out: &mut String, name: &str, def: &Value) {
        let id = self.ident(name);
        if let Some(values) = enum_values(def) {
            let _ = write!(
                out,
                "\npub(super) const {id}: &[&str] = {};\n",
                str_list(&values)
            );
        } else if let Some(branches) = def.get("oneOf").and_then(Value::as_array) {
            let mut variants = Vec::new();
            let tag = branches[0]["properties"]
                .as_object()
                .and_then(|p| p.iter().find(|(_, v)| v.get("const").is_some()))
                .map(|(k, _)| k.clone())
                .unwrap_or_else(|| panic!("$defs/{name}: a union without a tag"));
            for branch in branches {
                let value = branch["properties"][&tag]["const"]
                    .as_str()
                    .unwrap_or_else(|| panic!("$defs/{name}: a variant without {tag}"));
                let variant = format!("{id}_{}", value.to_uppercase());
                let _ = write!(
                    out,
                    "\nstatic {variant}: Obj = {};\n",
                    self.obj(branch, name)
                );
                variants.push(format!("({value:?}, &{variant})"));
            }
            let _ = write!(
                out,
                "\npub(super) static {id}: Union = Union {{\n    tag: {tag:?},\n    variants: &[{}],\n}};\n",
                variants.join(", ")
            );
        } else {
            let _ = write!(
                out,
                "\npub(super) static {id}: Obj = {};\n",
                self.obj(def, name)
            );
        }
    }

    /// The Rust name of definition `name`: `ContextRequest` → `CONTEXT_REQUEST`, with the prefix.
    pub fn ident(&self, name: &str) -> String {
        screaming(&format!("{}{name}", self.prefix))
    }

    /// `Obj { fields: &[…] }` for an object node of definition `def`.
    pub fn obj(&self, node: &Value, def: &str) -> String {
        let props = node["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{def}: an object without properties"));
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
        let rank = |k: &str| match required.iter().position(|r| *r == k) {
            _ if k == "responseType" => (0, 0),
            _ if props[k].get("const").is_some() => (0, 1),
            Some(i) => (1, i),
            None => (2, 0),
        };
        keys.sort_by_key(|k| rank(k));
        assert!(keys.len() <= 64, "{def}: more than 64 fields");
        let mut out = String::from("Obj {\n    fields: &[\n");
        for key in keys {
            let (ty, nullable) = self.field_ty(&props[key], def, key);
            let _ = writeln!(
                out,
                "        Field {{ name: {key:?}, ty: {ty}, required: {}, nullable: {nullable} }},",
                required.contains(&key)
            );
        }
        out.push_str("    ],\n}");
        out
    }

    /// A field's type and whether it may be `null`.
    fn field_ty(&self, node: &Value, def: &str, field: &str) -> (String, bool) {
        let (node, nullable) = strip_null(node);
        let id = self
            .ids
            .iter()
            .find(|(d, f, _)| *d == def && *f == field)
            .map(|(_, _, ty)| ty.as_str());
        let content = self
            .content
            .iter()
            .find(|(d, f, _)| *d == def && *f == field)
            .map(|(_, _, ty)| *ty);
        if id.is_some() || content.is_some() {
            self.used
                .borrow_mut()
                .push((def.to_string(), field.to_string()));
        }
        (self.ty(&node, def, field, id, content), nullable)
    }

    fn ty(
        &self,
        node: &Value,
        def: &str,
        field: &str,
        id: Option<&str>,
        content: Option<&str>,
    ) -> String {
        let at = || format!("{def}.{field}: {node}");
        if let Some(r) = node.get("$ref").and_then(Value::as_str) {
            let name = ref_name(r);
            let target = &self.defs[name];
            let id = self.ident(name);
            return if enum_values(target).is_some() {
                format!("Ty::Enum({id})")
            } else if target.get("oneOf").is_some() {
                format!("Ty::Union(&{id})")
            } else {
                format!("Ty::Object(&{id})")
            };
        }
        if let Some(c) = node.get("const").and_then(Value::as_str) {
            return format!("Ty::Enum(&[{c:?}])");
        }
        if let Some(values) = enum_values(node) {
            return format!("Ty::Enum({})", str_list(&values));
        }
        // A field of any value (a `serde_json::Value`: no type, no reference).
        if ["type", "oneOf", "anyOf"]
            .iter()
            .all(|k| node.get(k).is_none())
        {
            return "Ty::Any".into();
        }
        let uint = |key: &str| node.get(key).and_then(Value::as_u64);
        match node["type"].as_str() {
            Some("string") if content.is_some() => content.unwrap_or_default().into(),
            Some("string") => match (id, uint("minLength"), uint("maxLength")) {
                (Some(ty), None, None) => ty.to_string(),
                (Some(_), _, _) => panic!("{}: an id with a length", at()),
                (None, None, Some(max)) => format!("Ty::Text {{ max: {max} }}"),
                (None, None, None) => "Ty::Text { max: usize::MAX }".into(),
                (None, Some(min), max) => format!(
                    "Ty::NonBlank {{ min: {min}, max: {} }}",
                    max.map_or("usize::MAX".to_string(), |m| m.to_string())
                ),
            },
            Some("integer") => {
                let bound = |key: &str| {
                    node.get(key)
                        .and_then(Value::as_i64)
                        .unwrap_or_else(|| panic!("{}: an integer without {key}", at()))
                };
                format!(
                    "Ty::Int {{ min: {}, max: {} }}",
                    bound("minimum"),
                    bound("maximum")
                )
            }
            Some("number") => {
                let bound = |key: &str| {
                    node.get(key)
                        .and_then(Value::as_f64)
                        .unwrap_or_else(|| panic!("{}: a number without {key}", at()))
                };
                format!(
                    "Ty::Number {{ min: Some({:?}), max: Some({:?}), integer: false }}",
                    bound("minimum"),
                    bound("maximum")
                )
            }
            Some("boolean") => "Ty::Bool".into(),
            Some("array") => {
                let item = self.ty(&node["items"], def, field, id, content);
                let max = uint("maxItems").map_or("usize::MAX".to_string(), |m| m.to_string());
                format!(
                    "Ty::Array {{ item: &{item}, min: {}, max: {max} }}",
                    uint("minItems").unwrap_or(0)
                )
            }
            Some("object") => match node.get("additionalProperties") {
                Some(v @ Value::Object(_)) => {
                    let (v, _) = strip_null(v);
                    format!("Ty::Map(&{})", self.ty(&v, def, field, id, content))
                }
                _ => panic!("{}: an inline object (give it a type of its own)", at()),
            },
            _ => panic!("{}: a schema the generator does not know", at()),
        }
    }
}

/// `anyOf [T, null]` → `T`, `type: [t, "null"]` → `type: t`; and whether null was allowed.
fn strip_null(node: &Value) -> (Value, bool) {
    if let Some(any) = node.get("anyOf").and_then(Value::as_array) {
        let is_null = |b: &&Value| b.get("type") == Some(&Value::from("null"));
        let rest: Vec<&Value> = any.iter().filter(|b| !is_null(b)).collect();
        assert_eq!(rest.len(), 1, "an anyOf that is not [T, null]: {node}");
        return (rest[0].clone(), any.iter().any(|b| is_null(&b)));
    }
    if let Some(types) = node.get("type").and_then(Value::as_array) {
        let rest: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
        assert_eq!(rest.len(), 1, "a type list that is not [t, null]: {node}");
        let mut node = node.clone();
        node["type"] = rest[0].clone();
        return (node, types.len() == 2);
    }
    (node.clone(), false)
}

/// The tables of a kind whose answers are one object each, with no tag, from the schema of each answer: after `header` (the file's `//!` lines) and the
/// imports, the definitions named with `prefix`, each answer an `Obj` named after its schema's
/// title, and `answer_object` to find one by that name.
pub fn one_object_answers(header: &str, prefix: &str, schemas: &[Value]) -> String {
    let mut out = String::new();
    let defs = merged_defs(schemas, prefix);
    let gen = Gen::new(&defs, prefix, &[], &[]);
    for (name, def) in &defs {
        gen.def(&mut out, name, def);
    }
    let mut names = Vec::new();
    for schema in schemas {
        let title = schema["title"]
            .as_str()
            .expect("an answer schema has a title");
        let _ = write!(
            out,
            "\n/// The `{title}` answer.\npub(super) static {}: Obj = {};\n",
            title.to_uppercase(),
            gen.obj(schema, title)
        );
        names.push(title.to_string());
    }
    out.push_str("\n/// The object an answer must be, by its schema's name.\n");
    out.push_str(
        "pub(crate) fn answer_object(name: &str) -> Option<&'static Obj> {\n    match name {\n",
    );
    for name in names {
        let _ = writeln!(out, "        {name:?} => Some(&{}),", name.to_uppercase());
    }
    out.push_str("        _ => None,\n    }\n}\n");
    let union = if out.contains("Union {") {
        ", Union"
    } else {
        ""
    };
    format!("{header}\nuse roundtable_engine::validate::shape::{{Field, Obj, Ty{union}}};\n{out}")
}

/// The two checks every kind whose answers are one object each makes of its tables: the
/// committed `kinds/<folder>/src/shape.rs` (at `shape_file`, an absolute path) is what its
/// schemas generate (`UPDATE_SHAPES=1` rewrites it), and each answer's shape says exactly what
/// its schema says. `whose` names the kind in the file's header (its possessive, as a sentence
/// reads it); `prefix` starts its statics' names.
#[allow(clippy::too_many_arguments)]
pub fn check_object_tables(
    shape_file: &str,
    folder: &str,
    whose: &str,
    prefix: &str,
    committed: &str,
    schemas: &[Value],
    answer_object: fn(&str) -> Option<&'static Obj>,
) {
    let capital = whose[..1].to_uppercase() + &whose[1..];
    let header = format!(
        "//! {capital} answer shapes as the validator's static data. Generated by the engine's\n\
         //! `validate/shape_gen.rs` from {whose} JSON Schemas (`core/schemas/`) by the test in\n\
         //! `kinds/{folder}/src/answer.rs`: do not edit. `bash scripts/codegen.sh` rewrites it.\n"
    );
    assert_current(
        shape_file,
        committed,
        &one_object_answers(&header, prefix, schemas),
    );
    for root in schemas {
        let name = root["title"]
            .as_str()
            .expect("an answer's schema has its name as title");
        let obj = answer_object(name).unwrap_or_else(|| panic!("no shape for {name}"));
        compare_obj(root, root, obj, name);
    }
    assert!(answer_object("no such answer").is_none());
}

/// Compares the generated `text` with the committed file at `path` (absolute: the kind's
/// `concat!(env!("CARGO_MANIFEST_DIR"), "/src/shape.rs")`), whose text is `committed`; with
/// `UPDATE_SHAPES` set, rewrites the file instead.
#[allow(clippy::disallowed_methods)] // a test may read the environment and write files
pub fn assert_current(path: &str, committed: &str, text: &str) {
    if std::env::var("UPDATE_SHAPES").is_ok() {
        std::fs::write(path, text).unwrap();
    } else {
        assert!(
            committed == text,
            "{path} is stale: run `bash scripts/codegen.sh`"
        );
    }
}

// ---- the tables held to the schemas -------------------------------------------------------------
//
// A second check, beside regeneration: the committed tables walked side by side with the schema
// they came from, so a fault in the generator itself shows too. Each kind's test calls these.

/// Follows `$ref` (possibly inside `anyOf [ref, null]`) and reports whether null was allowed.
fn resolve<'a>(root: &'a Value, mut node: &'a Value) -> (&'a Value, bool) {
    let mut nullable = false;
    if let Some(any) = node.get("anyOf").and_then(Value::as_array) {
        nullable = any
            .iter()
            .any(|b| b.get("type") == Some(&Value::from("null")));
        node = any
            .iter()
            .find(|b| b.get("type") != Some(&Value::from("null")))
            .unwrap();
    }
    if let Some(types) = node.get("type").and_then(Value::as_array) {
        nullable |= types.contains(&Value::from("null"));
    }
    while let Some(r) = node.get("$ref").and_then(Value::as_str) {
        let name = ref_name(r);
        let target = &root["$defs"][name];
        // A `$ref` with sibling keywords (a root's final_output branch) is merged by the caller.
        if node.get("properties").is_some() {
            break;
        }
        node = target;
    }
    (node, nullable)
}

fn base_type(node: &Value) -> Option<String> {
    match node.get("type") {
        Some(Value::String(t)) => Some(t.clone()),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .map(String::from),
        _ => None,
    }
}

fn compare_ty(root: &Value, node: &Value, ty: &Ty, at: &str) {
    let (node, _) = resolve(root, node);
    let schema_max = |key: &str| {
        node.get(key)
            .and_then(Value::as_u64)
            .map_or(usize::MAX, |m| m as usize)
    };
    match ty {
        Ty::Any => {}
        Ty::Text { max } => {
            assert_eq!(base_type(node).as_deref(), Some("string"), "{at}");
            assert_eq!(schema_max("maxLength"), *max, "{at} maxLength");
            assert!(node.get("minLength").is_none(), "{at} minLength");
        }
        Ty::NonBlank { min, max } => {
            assert_eq!(base_type(node).as_deref(), Some("string"), "{at}");
            assert_eq!(
                node["minLength"].as_u64(),
                Some(*min as u64),
                "{at} minLength"
            );
            assert_eq!(schema_max("maxLength"), *max, "{at} maxLength");
        }
        Ty::Id(_) => {
            assert_eq!(base_type(node).as_deref(), Some("string"), "{at}");
            assert!(node.get("maxLength").is_none(), "{at}");
        }
        Ty::Content(rule) => {
            assert_eq!(node["minLength"].as_u64(), Some(rule.min as u64), "{at}");
            assert_eq!(node["maxLength"].as_u64(), Some(rule.max as u64), "{at}");
        }
        Ty::Enum(values) => {
            let schema_values = enum_values(node)
                .or_else(|| {
                    node.get("const")
                        .and_then(Value::as_str)
                        .map(|c| vec![c.to_string()])
                })
                .unwrap_or_else(|| panic!("{at}: no enum in {node}"));
            assert_eq!(
                schema_values,
                values.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
                "{at}"
            );
        }
        Ty::Int { min, max } => {
            assert_eq!(base_type(node).as_deref(), Some("integer"), "{at}");
            assert_eq!(node["minimum"].as_i64(), Some(*min), "{at}");
            assert_eq!(node["maximum"].as_i64(), Some(*max), "{at}");
        }
        Ty::Bool => assert_eq!(base_type(node).as_deref(), Some("boolean"), "{at}"),
        Ty::Number { min, max, integer } => {
            assert_eq!(base_type(node).as_deref(), Some("number"), "{at}");
            assert!(!integer, "{at}: a whole number is an integer");
            assert_eq!(node["minimum"].as_f64(), *min, "{at}");
            assert_eq!(node["maximum"].as_f64(), *max, "{at}");
        }
        Ty::Array { item, min, max } => {
            assert_eq!(base_type(node).as_deref(), Some("array"), "{at}");
            assert_eq!(
                node.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize,
                *min,
                "{at}"
            );
            assert_eq!(schema_max("maxItems"), *max, "{at}");
            compare_ty(root, &node["items"], item, &format!("{at}/items"));
        }
        Ty::Map(value) => {
            assert_eq!(base_type(node).as_deref(), Some("object"), "{at}");
            compare_ty(
                root,
                &node["additionalProperties"],
                value,
                &format!("{at}/*"),
            );
        }
        Ty::Object(obj) => compare_obj(root, node, obj, at),
        Ty::Union(u) => {
            let branches = node["oneOf"].as_array().unwrap();
            assert_eq!(branches.len(), u.variants.len(), "{at}");
            for (branch, (tag, obj)) in branches.iter().zip(u.variants) {
                assert_eq!(
                    branch["properties"][u.tag]["const"],
                    Value::from(*tag),
                    "{at}"
                );
                compare_obj(root, branch, obj, &format!("{at}[{tag}]"));
            }
        }
    }
}

/// Asserts that `obj` says exactly what the object schema `node` (of the schema `root`) says:
/// the same fields, each required, nullable, typed and limited as there.
pub fn compare_obj(root: &Value, node: &Value, obj: &Obj, at: &str) {
    let props = node["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{at}: {node}"));
    let required: Vec<&str> = node
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut names: Vec<&str> = obj.fields.iter().map(|f| f.name).collect();
    names.sort_unstable();
    let mut schema_names: Vec<&str> = props.keys().map(String::as_str).collect();
    schema_names.sort_unstable();
    assert_eq!(names, schema_names, "{at}: field names");
    assert!(obj.fields.len() <= 64, "{at}");
    for f in obj.fields {
        let at = format!("{at}/{}", f.name);
        assert_eq!(required.contains(&f.name), f.required, "{at} required");
        let (_, nullable) = resolve(root, &props[f.name]);
        assert_eq!(nullable, f.nullable, "{at} nullable");
        compare_ty(root, &props[f.name], &f.ty, &at);
    }
}
