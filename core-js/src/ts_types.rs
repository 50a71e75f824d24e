//! The TypeScript declarations of every answer shape, generated from the committed JSON Schemas.
//!
//! The serde types of `roundtable-core` are the one source of each shape: `schemars` derives a
//! JSON Schema per step (committed under `core/schemas/`, kept equal to the derivation by core's
//! own test), and [`generate`] turns those schemas into TypeScript: one declaration per `$defs`
//! entry, one per step's whole answer, and the maps the API's signatures index (`Answers`,
//! `FinalOutputs`, `StepName`, `HaltingStep`). The output is committed as `answer_types.d.ts` and
//! included in the package's `.d.ts` by `lib.rs`; the test below regenerates it and fails when it
//! is stale (`UPDATE_TS_TYPES=1 cargo test -p roundtable-core-js ts_types` rewrites it). A new
//! kind's answer shapes therefore come with their TypeScript types once their schemas are
//! committed.
//!
//! The generator knows the small subset of JSON Schema that `schemars` writes for our types:
//! `$ref`, `type` (with `null` for `Option`), `const`, `enum`, `oneOf` (unit enums and tagged
//! unions), `anyOf [T, null]`, `properties` / `required`, `additionalProperties` (maps), `items`,
//! `default`, and `{}` with only a description (any value: `unknown`). Anything else is a test
//! failure, not a silent `unknown`. A field with a `default` is
//! declared present: the API fills the spec's defaults into the value it hands back.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Map, Value};

/// The schemas to declare, in the order their answers are listed: the team's steps (what
/// `validateStep` takes) first, then every other kind's answer shapes by name.
pub struct Schema<'a> {
    /// The schema's name (`write`, `meeting_decision`): the file name and the key of `Answers`.
    pub name: &'a str,
    /// A step `validateStep` accepts (its name goes into `StepName`).
    pub team_step: bool,
    /// The plain schema.
    pub schema: &'a Value,
}

/// Why a schema could not be declared: the JSON pointer of the node and what was there.
#[derive(Debug)]
pub struct Unsupported(pub String);

type Res<T> = Result<T, Unsupported>;

/// The whole generated declaration text.
pub fn generate(schemas: &[Schema<'_>]) -> Res<String> {
    // Every definition once, by name; the same name in two schemas must mean the same shape.
    let mut defs: BTreeMap<&str, &Value> = BTreeMap::new();
    for s in schemas {
        for (name, def) in s
            .schema
            .get("$defs")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if let Some(seen) = defs.insert(name, def) {
                if seen != def {
                    return Err(Unsupported(format!(
                        "{}: $defs/{name} differs from another schema's",
                        s.name
                    )));
                }
            }
        }
    }
    let mut out = String::from(
        "// Generated from core/schemas/*.plain.json by core-js/src/ts_types.rs: do not edit.\n\
         // UPDATE_TS_TYPES=1 cargo test -p roundtable-core-js ts_types rewrites it.\n",
    );
    for (name, def) in &defs {
        out.push('\n');
        declare(&mut out, name, def, &format!("$defs/{name}"))?;
    }
    let mut roots = Vec::new();
    for s in schemas {
        let name = root_name(s)?;
        out.push('\n');
        declare(&mut out, &name, s.schema, s.name)?;
        roots.push((s, name));
    }

    let team: Vec<&(&Schema, String)> = roots.iter().filter(|(s, _)| s.team_step).collect();
    out.push_str("\n/** The answer shape of every step of every kind, by schema name. */\n");
    out.push_str("export interface Answers {\n");
    for (s, name) in &roots {
        let _ = writeln!(out, "  {}: {name};", s.name);
    }
    out.push_str("}\n");
    out.push_str("\n/** The team's steps, by wire name: the steps `validateStep` and `stepSchema` take. */\n");
    let names: Vec<String> = team.iter().map(|(s, _)| format!("{:?}", s.name)).collect();
    let _ = writeln!(out, "export type StepName =\n  | {};", names.join("\n  | "));
    out.push_str("\n/** The final output of each step, by step name. */\n");
    out.push_str("export interface FinalOutputs {\n");
    for (s, _) in &team {
        let output = final_output(s.schema)
            .ok_or_else(|| Unsupported(format!("{}: no final_output branch", s.name)))?;
        let _ = writeln!(out, "  {}: {output};", s.name);
    }
    out.push_str("}\n");
    out.push_str(
        "\n/** The steps that may halt (the step × responseType matrix of spec 000). */\n",
    );
    let halting: Vec<String> = team
        .iter()
        .filter(|(s, _)| has_branch(s.schema, "halt"))
        .map(|(s, _)| format!("{:?}", s.name))
        .collect();
    let _ = writeln!(out, "export type HaltingStep = {};", halting.join(" | "));
    Ok(out)
}

/// The TypeScript name of a schema's whole answer: its `title` in PascalCase.
fn root_name(s: &Schema<'_>) -> Res<String> {
    let title = s
        .schema
        .get("title")
        .and_then(Value::as_str)
        .ok_or_else(|| Unsupported(format!("{}: no title", s.name)))?;
    Ok(title
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect())
}

/// The root `oneOf` branches' tags (`responseType` consts).
fn has_branch(schema: &Value, tag: &str) -> bool {
    schema["oneOf"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|b| b.pointer("/properties/responseType/const") == Some(&Value::from(tag)))
}

/// The name of the output type the `final_output` branch refers to.
fn final_output(schema: &Value) -> Option<&str> {
    schema["oneOf"]
        .as_array()?
        .iter()
        .find(|b| {
            b.pointer("/properties/responseType/const") == Some(&Value::from("final_output"))
        })?
        .get("$ref")?
        .as_str()
        .map(ref_name)
}

fn ref_name(r: &str) -> &str {
    r.trim_start_matches("#/$defs/")
}

/// `export interface Name {…}` for an object, `export type Name = …;` for anything else.
fn declare(out: &mut String, name: &str, node: &Value, at: &str) -> Res<()> {
    doc(out, "", node, variant_docs(node).as_deref());
    if node.get("properties").is_some() && node.get("$ref").is_none() {
        let _ = write!(out, "export interface {name} ");
        out.push_str(&object(node, "", at)?);
        out.push('\n');
    } else if let Some(branches) = node
        .get("oneOf")
        .and_then(Value::as_array)
        .filter(|b| b.iter().any(|b| b.get("properties").is_some()))
    {
        let _ = writeln!(out, "export type {name} =");
        for (i, branch) in branches.iter().enumerate() {
            out.push_str("  | ");
            out.push_str(&ty(branch, "  ", &format!("{at}/oneOf/{i}"))?);
            out.push('\n');
        }
        out.pop();
        out.push_str(";\n");
    } else {
        let _ = writeln!(out, "export type {name} = {};", ty(node, "", at)?);
    }
    Ok(())
}

/// For a unit enum with documented values, one line per value for the type's doc comment.
fn variant_docs(node: &Value) -> Option<String> {
    let branches = node.get("oneOf")?.as_array()?;
    let lines: Vec<String> = branches
        .iter()
        .filter_map(|b| {
            let value = b.get("const")?.as_str()?;
            let text = b.get("description")?.as_str()?;
            Some(format!("- `{value}`: {text}"))
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// A `/** … */` comment from the node's `description` (and `extra` lines), at `indent`.
fn doc(out: &mut String, indent: &str, node: &Value, extra: Option<&str>) {
    let mut text = node
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if let Some(extra) = extra {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(extra);
    }
    if text.is_empty() {
        return;
    }
    let text = text.replace("*/", "*\\/");
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() == 1 {
        let _ = writeln!(out, "{indent}/** {} */", lines[0]);
    } else {
        let _ = writeln!(out, "{indent}/**");
        for line in lines {
            if line.is_empty() {
                let _ = writeln!(out, "{indent} *");
            } else {
                let _ = writeln!(out, "{indent} * {line}");
            }
        }
        let _ = writeln!(out, "{indent} */");
    }
}

/// An object type `{ … }` with one documented field a line, closing at `indent`.
fn object(node: &Value, indent: &str, at: &str) -> Res<String> {
    let props = node
        .get("properties")
        .and_then(Value::as_object)
        .ok_or_else(|| Unsupported(format!("{at}: no properties")))?;
    let required: Vec<&str> = node
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    // The tag of a tagged union first, then the required fields in the type's order, then the
    // optional ones by name (the committed schema keeps only the required fields' order).
    let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
    let rank = |k: &str| match required.iter().position(|r| *r == k) {
        _ if props[k].get("const").is_some() => (0, 0),
        Some(i) => (1, i),
        None => (2, 0),
    };
    keys.sort_by_key(|k| rank(k));
    for key in keys {
        let field = &props[key];
        doc(&mut out, &inner, field, None);
        let present = required.contains(&key) || field.get("default").is_some();
        let _ = writeln!(
            out,
            "{inner}{key}{}: {};",
            if present { "" } else { "?" },
            ty(field, &inner, &format!("{at}/properties/{key}"))?
        );
    }
    let _ = write!(out, "{indent}}}");
    Ok(out)
}

/// The TypeScript type of a schema node, written at `indent` (for inline objects).
fn ty(node: &Value, indent: &str, at: &str) -> Res<String> {
    let unsupported = || Unsupported(format!("{at}: {node}"));
    let obj: &Map<String, Value> = node.as_object().ok_or_else(unsupported)?;
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        let name = ref_name(r).to_string();
        // A `$ref` with fields of its own beside it (the root's final_output branch).
        return Ok(if obj.contains_key("properties") {
            format!("({} & {name})", object(node, indent, at)?)
        } else {
            name
        });
    }
    if let Some(value) = obj.get("const") {
        return Ok(value.to_string());
    }
    if let Some(values) = obj.get("enum").and_then(Value::as_array) {
        let parts: Vec<String> = values.iter().map(Value::to_string).collect();
        return Ok(parts.join(" | "));
    }
    for union in ["oneOf", "anyOf"] {
        if let Some(branches) = obj.get(union).and_then(Value::as_array) {
            let parts = branches
                .iter()
                .enumerate()
                .map(|(i, b)| ty(b, indent, &format!("{at}/{union}/{i}")))
                .collect::<Res<Vec<String>>>()?;
            return Ok(parts.join(" | "));
        }
    }
    let (base, nullable) = match obj.get("type") {
        Some(Value::String(t)) => (t.as_str(), false),
        Some(Value::Array(ts)) => {
            let rest: Vec<&str> = ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            match rest.as_slice() {
                [one] => (*one, ts.len() == 2),
                _ => return Err(unsupported()),
            }
        }
        // A schema with no keyword but its description: any value (a `serde_json::Value` field,
        // the dialectic's `result` in the person's own shape).
        None if obj.keys().all(|k| k == "description") => return Ok("unknown".to_string()),
        _ => return Err(unsupported()),
    };
    let base = match base {
        "null" => "null".to_string(),
        "string" => "string".to_string(),
        "integer" | "number" => "number".to_string(),
        "boolean" => "boolean".to_string(),
        "array" => {
            let item = ty(&obj["items"], indent, &format!("{at}/items"))?;
            if item.contains(' ') {
                format!("({item})[]")
            } else {
                format!("{item}[]")
            }
        }
        "object" if obj.contains_key("properties") => object(node, indent, at)?,
        "object" => match obj.get("additionalProperties") {
            Some(v @ Value::Object(_)) => {
                format!(
                    "Record<string, {}>",
                    ty(v, indent, &format!("{at}/additionalProperties"))?
                )
            }
            _ => return Err(unsupported()),
        },
        _ => return Err(unsupported()),
    };
    Ok(if nullable {
        format!("{base} | null")
    } else {
        base
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use roundtable_core::protocol::team::wire::Step;
    use std::path::Path;

    /// Every committed plain schema: the team's steps in session order, then the rest by name.
    #[allow(clippy::disallowed_methods)] // a test may read files
    fn committed() -> Vec<(String, bool, Value)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/schemas");
        let mut others = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().file_name().into_string().unwrap();
            if let Some(name) = file.strip_suffix(".plain.json") {
                if Step::from_wire_name(name).is_none() {
                    others.push(name.to_string());
                }
            }
        }
        others.sort();
        let team = Step::ALL.iter().map(|s| s.wire_name().to_string());
        team.chain(others)
            .map(|name| {
                let text = std::fs::read_to_string(dir.join(format!("{name}.plain.json"))).unwrap();
                let team_step = Step::from_wire_name(&name).is_some();
                (name, team_step, serde_json::from_str(&text).unwrap())
            })
            .collect()
    }

    fn generated() -> String {
        let schemas = committed();
        let list: Vec<Schema> = schemas
            .iter()
            .map(|(name, team_step, schema)| Schema {
                name,
                team_step: *team_step,
                schema,
            })
            .collect();
        generate(&list).unwrap()
    }

    /// `answer_types.d.ts` is what the committed schemas generate; `UPDATE_TS_TYPES=1` rewrites it.
    #[test]
    #[allow(clippy::disallowed_methods)] // a test may read the environment and write files
    fn committed_declarations_are_current() {
        let text = generated();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/answer_types.d.ts");
        if std::env::var("UPDATE_TS_TYPES").is_ok() {
            std::fs::write(&path, &text).unwrap();
        } else {
            assert!(
                include_str!("answer_types.d.ts") == text,
                "core-js/src/answer_types.d.ts is stale: run `bash scripts/codegen.sh`"
            );
        }
    }

    #[test]
    fn every_schema_and_definition_is_declared() {
        let text = generated();
        for (name, _, schema) in committed() {
            assert!(
                text.contains(&format!("  {name}: ")),
                "{name} missing from Answers"
            );
            for def in schema["$defs"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k)
            {
                assert!(
                    text.contains(&format!("export interface {def} "))
                        || text.contains(&format!("export type {def} ")),
                    "{def} not declared"
                );
            }
        }
        assert!(text.contains("export type HaltingStep = \"bootstrap\" | \"plan_assign\";"));
    }

    /// `lib.rs`'s `default_lists` (the `[]` defaults `validateStep` fills in) names exactly the
    /// fields of each step's final output that the schema gives a `default`.
    #[test]
    fn the_filled_in_defaults_are_the_schema_defaults() {
        for (name, team_step, schema) in committed() {
            if !team_step {
                continue;
            }
            let step = Step::from_wire_name(&name).unwrap();
            let output = final_output(&schema).unwrap();
            let mut defaults: Vec<&str> = schema["$defs"][output]["properties"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, p)| p.get("default").is_some())
                .map(|(k, _)| k.as_str())
                .collect();
            let mut listed = crate::default_lists(step).to_vec();
            defaults.sort_unstable();
            listed.sort_unstable();
            assert_eq!(listed, defaults, "{name}");
        }
    }

    #[test]
    fn fields_are_optional_nullable_or_defaulted_as_the_schema_says() {
        let schema = serde_json::json!({
            "title": "demo_answer",
            "type": "object",
            "properties": {
                "kind": { "const": "x", "type": "string" },
                "must": { "type": "string", "description": "Always there." },
                "maybe": { "type": ["string", "null"] },
                "list": { "type": "array", "items": { "enum": ["a", "b"] }, "default": [] },
                "map": { "type": "object", "additionalProperties": { "type": "integer" } }
            },
            "required": ["kind", "must", "map"]
        });
        let text = generate(&[Schema {
            name: "demo_answer",
            team_step: false,
            schema: &schema,
        }])
        .unwrap();
        assert!(
            text.contains("export interface DemoAnswer {\n  kind: \"x\";\n"),
            "{text}"
        );
        assert!(
            text.contains("  /** Always there. */\n  must: string;\n"),
            "{text}"
        );
        assert!(text.contains("  maybe?: string | null;\n"), "{text}");
        assert!(text.contains("  list: (\"a\" | \"b\")[];\n"), "{text}");
        assert!(text.contains("  map: Record<string, number>;\n"), "{text}");
    }

    #[test]
    fn an_unknown_keyword_shape_is_refused_not_guessed() {
        let schema = serde_json::json!({
            "title": "odd", "type": "object",
            "properties": { "x": { "type": ["string", "integer"] } }
        });
        let err = generate(&[Schema {
            name: "odd",
            team_step: false,
            schema: &schema,
        }])
        .unwrap_err();
        assert!(err.0.contains("properties/x"), "{err:?}");
    }
}
