//! Spec `002`'s dialectic for JS (`roundtable_core::protocol::dialectic` and the validator's
//! run-time schemas): a person's JSON Schema checked as the app checks it (each problem with its
//! pointer, the formats it only notes), any answer validated against such a schema with JSON
//! pointers, a dialectic's config checked with its `response_schema`, each phase's answer checked
//! as the app checks it, and 002's documents (`dialectical_workflow`, its `single_prompt`
//! variant, `dialectical_single_shot`) built from a config.
//!
//! Kept apart from the other kinds' functions (`lib.rs` holds the team's; `autocoding.rs`,
//! `review.rs`, `meeting.rs` theirs).

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use roundtable_core::protocol::dialectic::answer::{self, Rules};
use roundtable_core::protocol::dialectic::{
    DialecticConfig, DialecticConfigError, DialecticSession,
};
use roundtable_core::validate::{self, Options, SchemaProblem};

use crate::{from_js, to_js};

/// The declarations of this module's functions and the shapes they trade in.
#[wasm_bindgen(typescript_custom_section)]
const DIALECTIC_TS: &'static str = r#"
/** A place in a person's JSON Schema (a JSON pointer, "" = the root) and what is wrong there,
 *  or what is only noted (a format that is not checked). */
export interface SchemaProblem { pointer: string; message: string }

/** A person's JSON Schema as the app reads it: accepted (with notes on what is kept only as a
 *  note), or refused with every problem. */
export type JsonSchemaCheck =
  | { ok: true; notes: SchemaProblem[] }
  | { ok: false; problems: SchemaProblem[] };

/** An answer checked against a person's schema: its value, or every violation with its JSON
 *  pointer; recoveries (a fence, prose around it, trailing commas) are warnings. */
export type SchemaAnswerCheck =
  | { ok: true; value: unknown; warnings: Violation[] }
  | { ok: false; errors: Violation[]; warnings: Violation[] };

/** Checks a JSON Schema (its text, or the parsed value) the way a dialectic's response_schema
 *  is checked: 2020-12 and draft-07, local $refs (recursion included), unions, conditionals,
 *  maps, formats; a remote $ref, a pattern needing backtracking, unknown keywords and sizes past
 *  the limits refused with their pointers. */
export function checkJsonSchema(schema: string | object | boolean): JsonSchemaCheck;
/** Validates `raw` (a model's answer, or any JSON text) against `schema`. Throws when the schema
 *  itself is refused (checkJsonSchema says why). */
export function validateAgainstSchema(schema: string | object | boolean, raw: string): SchemaAnswerCheck;

/** Spec 002's response styles. */
export type DialecticResponseStyle = "sections" | "json" | "synthesis_only" | "conversational" | "bullet_points";
/** A dialectic's phases ("single_shot": one call writes all three). */
export type DialecticStepName = "thesis" | "antithesis" | "synthesis" | "single_shot";

/** A member of a dialectic: who writes a phase, on which model. */
export interface DialecticMember {
  id: string;
  name: string;
  persona?: string;
  model: { provider: string; model: string };
}

/** Everything a dialectic starts from (the app's config, camelCase). */
export interface DialecticConfig {
  query: string;
  responseStyle: DialecticResponseStyle;
  mode: "workflow" | "single_shot";
  thesis: DialecticMember;
  synthesis: DialecticMember;
  critics: DialecticMember[];
  useCouncil: boolean;
  responseSchema?: unknown;
  useSearch?: boolean;
  sources?: { title: string; text: string }[];
  settings?: Record<string, unknown>;
}

/** A config checked: every problem, a schema problem with its pointer into responseSchema. */
export type DialecticConfigCheck =
  | { ok: true }
  | { ok: false; errors: { message: string; pointer?: string }[] };

/** A phase's answer checked as the app checks it (its shape, the style's form of the synthesis,
 *  `result` against the person's schema). */
export type DialecticAnswerCheck =
  | { ok: true; answer: DialecticThesis | DialecticAntithesis | DialecticSynthesis | DialecticSingleShot; warnings: Violation[] }
  | { ok: false; errors: Violation[]; warnings: Violation[] };

/** Checks a dialectic's config; a malformed one (not the shape above) throws. */
export function checkDialecticConfig(config: DialecticConfig): DialecticConfigCheck;
/** Checks a model's answer to `step` of the dialectic `config` describes. Throws for a config
 *  that checkDialecticConfig refuses. */
export function checkDialecticAnswer(config: DialecticConfig, step: DialecticStepName, raw: string): DialecticAnswerCheck;
/** Spec 002's document of the dialectic, before it runs: "workflow" (dialectical_workflow, with
 *  {{thesis_output}} / {{antithesis_output}} places), "single_prompt" (the same fields as
 *  dialectical_single_shot with format: "single_prompt") or "single_shot"
 *  (dialectical_single_shot). Throws for a refused config. */
export function dialecticDocument(config: DialecticConfig, format: "workflow" | "single_prompt" | "single_shot"): Record<string, unknown>;
"#;

/// A schema as JS passes it: its text (read with the depth check), or a parsed value.
fn schema_arg(schema: &JsValue) -> Result<Value, SchemaProblem> {
    match schema.as_string() {
        Some(text) => validate::parse_schema_text(&text),
        None => from_js(schema, "schema").map_err(|message| SchemaProblem {
            pointer: String::new(),
            message,
        }),
    }
}

fn problems_json(problems: &[SchemaProblem]) -> Value {
    Value::Array(
        problems
            .iter()
            .map(|p| json!({"pointer": p.pointer, "message": p.message}))
            .collect(),
    )
}

/// `checkJsonSchema(schema)`.
#[wasm_bindgen(js_name = checkJsonSchema, skip_typescript)]
pub fn check_json_schema(schema: JsValue) -> Result<JsValue, JsError> {
    let out = match schema_arg(&schema)
        .map_err(|p| vec![p])
        .and_then(|v| validate::compile_schema(&v))
    {
        Ok(shape) => json!({"ok": true, "notes": problems_json(shape.notes())}),
        Err(problems) => json!({"ok": false, "problems": problems_json(&problems)}),
    };
    to_js(&out)
}

/// `validateAgainstSchema(schema, raw)`.
#[wasm_bindgen(js_name = validateAgainstSchema, skip_typescript)]
pub fn validate_against_schema(schema: JsValue, raw: &str) -> Result<JsValue, JsError> {
    let shape = schema_arg(&schema)
        .map_err(|p| vec![p])
        .and_then(|v| validate::compile_schema(&v))
        .map_err(|problems| {
            let words: Vec<String> = problems.iter().map(ToString::to_string).collect();
            JsError::new(&format!("the schema cannot be used: {}", words.join("; ")))
        })?;
    let verdict = validate::check_against_schema(shape, raw, Options::default());
    let out = if verdict.is_ok() {
        let value: Value = serde_json::from_str(&verdict.json).unwrap_or(Value::Null);
        json!({"ok": true, "value": value, "warnings": verdict.warnings})
    } else {
        json!({"ok": false, "errors": verdict.errors, "warnings": verdict.warnings})
    };
    to_js(&out)
}

fn config_arg(config: &JsValue) -> Result<DialecticConfig, JsError> {
    from_js(config, "config").map_err(|e| JsError::new(&e))
}

/// `checkDialecticConfig(config)`.
#[wasm_bindgen(js_name = checkDialecticConfig, skip_typescript)]
pub fn check_dialectic_config(config: JsValue) -> Result<JsValue, JsError> {
    let config = config_arg(&config)?;
    let out = match config.check() {
        Ok(()) => json!({"ok": true}),
        Err(all) => {
            let errors: Vec<Value> = all
                .0
                .iter()
                .map(|e| match e {
                    DialecticConfigError::Schema { pointer, .. } => {
                        json!({"message": e.to_string(), "pointer": pointer})
                    }
                    e => json!({"message": e.to_string()}),
                })
                .collect();
            json!({"ok": false, "errors": errors})
        }
    };
    to_js(&out)
}

/// The config checked, as the app's session starts from it.
fn session(config: &JsValue) -> Result<DialecticSession, JsError> {
    DialecticSession::new(config_arg(config)?, 0).map_err(|e| JsError::new(&e.to_string()))
}

/// `checkDialecticAnswer(config, step, raw)`.
#[wasm_bindgen(js_name = checkDialecticAnswer, skip_typescript)]
pub fn check_dialectic_answer(config: JsValue, step: &str, raw: &str) -> Result<JsValue, JsError> {
    let s = session(&config)?;
    let c = &s.state().config;
    let rules = Rules {
        style: c.response_style,
        schema: c
            .response_schema
            .as_ref()
            .and_then(|v| validate::compile_schema(v).ok()),
    };
    let options = Options::default();
    let mut warnings = Vec::new();
    let checked = match step {
        "thesis" => answer::check_thesis(raw, options, &mut warnings).map(|a| json!(a)),
        "antithesis" => answer::check_antithesis(raw, options, &mut warnings).map(|a| json!(a)),
        "synthesis" => {
            answer::check_synthesis(raw, options, rules, &mut warnings).map(|a| json!(a))
        }
        "single_shot" => {
            answer::check_single_shot(raw, options, rules, &mut warnings).map(|a| json!(a))
        }
        other => {
            return Err(JsError::new(&format!(
                "unknown step {other:?}: one of thesis, antithesis, synthesis, single_shot"
            )))
        }
    };
    let out = match checked {
        Ok(answer) => json!({"ok": true, "answer": answer, "warnings": warnings}),
        Err(errors) => json!({"ok": false, "errors": errors, "warnings": warnings}),
    };
    to_js(&out)
}

/// `dialecticDocument(config, format)`.
#[wasm_bindgen(js_name = dialecticDocument, skip_typescript)]
pub fn dialectic_document(config: JsValue, format: &str) -> Result<JsValue, JsError> {
    let s = session(&config)?;
    let doc = match format {
        "workflow" => s.state().workflow_document(),
        "single_prompt" => s.state().single_prompt_document(),
        "single_shot" => s.state().single_shot_document(),
        other => {
            return Err(JsError::new(&format!(
                "unknown format {other:?}: one of workflow, single_prompt, single_shot"
            )))
        }
    };
    to_js(&doc)
}
