//! `roundtable-core-js`: the JS API of `roundtable-core`, as Node tools and web pages call it.
//!
//! Its own crate so that the engine (`roundtable-core`, which the browser app links) carries none
//! of the Node-only speed machinery kept here: the UTF-16 copy-in ([`utf16`]), the value tape
//! builder (`TAPE_BUILDER`) and the TypeScript declarations. Built with
//! `wasm-pack build core-js --target nodejs|web --out-name roundtable_core` (see
//! `scripts/build-core-pkg.sh`) into `core-js/pkg-node` and `core-js/pkg-web`. Every function takes
//! and returns plain JS values; their TypeScript types are two `typescript_custom_section`s below
//! (wasm-bindgen would say `any`): every answer shape generated from the committed JSON Schemas
//! ([`ts_types`] writes `answer_types.d.ts`, a test keeps it current), and the API itself
//! (functions, options, results, `Known`, `Violation`, the product tree) written by hand.
//!
//! The boundary is kept cheap because `validateStep` sits on the hot path of every model answer:
//! the raw text crosses once (on Node its UTF-16 code units by one `Buffer.write`, transcoded by
//! [`utf16`]; in browsers one `TextEncoder.encodeInto`), the verdict comes back as a couple of
//! `Reflect.set` calls with interned keys, and the parsed value is built on Node from the
//! checker's value tape by `TAPE_BUILDER` (slices of the caller's own string), elsewhere by the
//! engine's own `JSON.parse` — on the caller's original string when the validator did not have to
//! repair it, so a valid answer is never copied back. Small things (violations, schemas, trees)
//! cross as `serde_json` text and one `JSON.parse`, V8's fastest way to build plain objects.
//! `bench/validate.mjs` measures each part; BENCHMARKS.md has the figures.

pub mod autocoding;
pub mod review;
// Issue 31: the dialectic's and the meeting's functions, each in its own module.
pub mod dialectic;
pub mod meeting;
pub mod utf16;

use js_sys::{Array, JsString, Object, Reflect, Uint8Array, WebAssembly};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use roundtable_core::protocol::team::answer_schema::{step_schema_text, SchemaFlavor};
use roundtable_core::protocol::team::check::{
    check_step_with, check_step_with_tape, Known, RepairPrompt as _,
};
use roundtable_core::protocol::team::tree::{ProductTree, TreeError};
use roundtable_core::protocol::team::wire::{Step, TreeOperation};
use roundtable_core::validate::{Options, Report, Verdict, Violation};
use utf16::utf16le_to_string;

#[cfg(test)]
mod ts_types;

/// The TypeScript declarations of every answer shape, generated from the committed JSON Schemas
/// by [`ts_types`] (a test keeps the file current).
#[wasm_bindgen(typescript_custom_section)]
const ANSWER_TYPES: &'static str = include_str!("answer_types.d.ts");

/// What is not an answer shape, written by hand: the API's functions, options and results, `Known`,
/// `Violation`, and the product tree as the host stores it.
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Ids the session knows; every id an answer names must be in the matching list.
 *  A list left out counts as empty. Leave `known` out altogether to check the shape only. */
export interface Known {
  products?: string[];
  versions?: string[];
  members?: string[];
  collabs?: string[];
}

/** One problem in an answer (error format of spec 002). `path` is a JSON pointer, "" = whole answer. */
export interface Violation {
  path: string;
  message: string;
  expected: string;
  received: string;
  hint: string;
}

export interface ValidateOptions {
  /** Default true: also hand back the parsed answer with the spec's defaults filled in.
   *  false: the verdict only (fastest). */
  value?: boolean;
  /** The provider said it stopped for length (finish_reason "length"): an answer that is not
   *  complete and valid is refused as cut off, with a hint to answer shorter. Default false. */
  truncated?: boolean;
}

// The answer shapes (StepName, Answers, FinalOutputs, HaltingStep, BootstrapOutput, TreeOperation…)
// are generated from the JSON Schemas: see answer_types.d.ts, the section after this one.

/** A valid answer of step S, as sent (after recovery), with default `[]` fields filled in. */
export type StepAnswer<S extends StepName = StepName> = Answers[S];

export interface ValidateOk<S extends StepName = StepName> { ok: true; value: StepAnswer<S>; warnings: Violation[] }
export interface ValidateVerdictOk { ok: true; warnings: Violation[] }
export interface ValidateErr {
  ok: false;
  errors: Violation[];
  warnings: Violation[];
  /** A short message to send back to the same model so it fixes its answer. */
  repairPrompt: string;
}

/**
 * Validates a model's raw answer for `step`: recovers the JSON (fences, prose, BOM, trailing
 * commas…), checks shape, limits and — when `known` is given — every id it names.
 * Throws an Error for an unknown step name or a malformed `known` / `options`.
 */
export function validateStep<S extends StepName>(
  step: S, raw: string, known: Known | null | undefined, options: ValidateOptions & { value: false },
): ValidateVerdictOk | ValidateErr;
export function validateStep<S extends StepName>(
  step: S, raw: string, known?: Known | null, options?: ValidateOptions,
): ValidateOk<S> | ValidateErr;

/** A JSON Schema (draft 2020-12) as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };
export interface StepSchemaOptions {
  /** true: OpenAI strict flavour (all properties required, optional ones nullable, no extras). */
  strict?: boolean;
}
/** The JSON Schema of `step`'s answer. Throws for an unknown step name. */
export function stepSchema(step: StepName, options?: StepSchemaOptions): JsonSchema;

/** A family of structured-output APIs: OpenAI strict (OpenRouter, Mistral, Groq), Anthropic,
 * Gemini `responseJsonSchema`, local grammar servers (Ollama, LM Studio, llama.cpp, vLLM). */
export type SchemaFamily = "openai_strict" | "anthropic" | "gemini" | "grammar";
/** One published rule a schema breaks: where, what, and the page that says so. */
export interface RuleBreak { at: string; message: string; sourceUrl: string; }
/** Every published rule of `family` that `schema` breaks (empty when the provider takes it).
 * Throws for an unknown family. */
export function checkProviderSchema(family: SchemaFamily, schema: JsonSchema): RuleBreak[];
/** An answer to a strict-flavour schema in the plain shape, ready for validateStep: its
 * `{key, value}` pair lists turned back into maps, and a `null` that stood for "absent" where the
 * plain schema takes none left out; null when it needs neither or is not JSON. */
export function plainAnswer(step: StepName, raw: string): string | null;

/** The wire names of every step, in session order. */
export function stepNames(): StepName[];

/** @internal For bench/validate.mjs: copies `raw` in as validateStep does; returns its UTF-8 length. */
export function benchCopyString(raw: string): number;
/** @internal For bench/validate.mjs: runs the verdict-only check `n` times inside WASM; returns how many were valid. */
export function benchCheckStep(step: StepName, raw: string, n: number): number;

// ---- the product tree (core/src/protocol/team/tree.rs, serialized as the host stores it) ----
export type ProductStatus = "pending" | "in_progress" | "accepted" | "removed";
export interface Product {
  id: string;
  parent: string | null;
  name: string;
  product_type: ProductType;
  dod: string;
  description: string | null;
  owner: string | null;
  assignee: string | null;
  status: ProductStatus;
  versions: string[];
  accepted_version: string | null;
  rejection_reason: string | null;
}
export interface Version {
  id: string;
  product_id: string;
  title: string;
  content: string;
  change_summary: string;
  author: string;
  round: number;
  directive: Directive | null;
  reflection_note: string | null;
}
export interface Collab {
  id: string;
  author: string;
  round: number;
  product_id: string;
  version_id: string | null;
  collab_type: CollabOutput["type"];
  importance: number;
  comment: string;
  summary: string;
  addressees: string[];
  responding_to: string[];
}
/** The whole tree of a session; treat it as opaque data and change it through the functions here. */
export interface ProductTree { products: Product[]; versions: Version[]; collabs: Collab[] }

/** An empty tree: only the root product "p0" (a Collection named `rootName`). */
export function newTree(rootName: string): ProductTree;

/** The ids an answer may name given this tree (members stay empty: the session knows them). */
export function knownFromTree(tree: ProductTree): Required<Known>;

/** Why a tree change was refused. `path` points into `operations` ("/2"); "" when not one operation's fault. */
export interface TreeFailure { path: string; index: number | null; action: string | null; message: string }
export type ApplyResult =
  | { ok: true; tree: ProductTree; newIds: Record<string, string> }
  | { ok: false; errors: TreeFailure[] };

/**
 * Applies the operations all-or-nothing; `tree` is not mutated. `newIds` maps each `new-N` to the
 * product id it became. Throws when `tree` is malformed or `operations` is not an array.
 */
export function applyTreeOperations(tree: ProductTree, operations: TreeOperation[]): ApplyResult;
"#;

/// Says which step names exist, for the thrown error of a bad one.
fn parse_step(step: &str) -> Result<Step, JsError> {
    Step::from_wire_name(step).ok_or_else(|| {
        let names: Vec<&str> = Step::ALL.iter().map(|s| s.wire_name()).collect();
        JsError::new(&format!(
            "unknown step {step:?}; expected one of: {}",
            names.join(", ")
        ))
    })
}

/// Hands a small serializable Rust value to JS as plain objects (maps as objects, `None` as
/// `null`), through JSON text: one crossing, and the engine's fastest object builder.
///
/// The text is written in ASCII (other chars as `\uXXXX` escapes, [`AsciiJson`]): decoding it out
/// of linear memory is then a copy, where UTF-8 with a single `—` in it takes the decoder's slow
/// path (on Node 20, ~2 µs for a 1.6 KB refusal against 0.2 µs).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let mut bytes = Vec::with_capacity(512);
    let mut ser = serde_json::Serializer::with_formatter(&mut bytes, AsciiJson);
    value
        .serialize(&mut ser)
        .map_err(|e| JsError::new(&e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|e| JsError::new(&e.to_string()))?;
    js_sys::JSON::parse(&text)
        .map_err(|_| JsError::new("internal error: JSON.parse refused core output"))
}

/// serde_json's compact output with every non-ASCII char written as a `\uXXXX` escape (two for
/// chars beyond the BMP), which `JSON.parse` reads back to the same string.
struct AsciiJson;

impl serde_json::ser::Formatter for AsciiJson {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some(at) = rest.bytes().position(|b| b >= 0x80) {
            writer.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..]
                .chars()
                .next()
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

/// Reads a JS value as JSON-compatible Rust data, through `JSON.stringify` + `serde_json` (so the
/// serde attributes of the core types apply exactly as on the host).
fn from_js<T: serde::de::DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, String> {
    let text = js_sys::JSON::stringify(value)
        .map_err(|_| format!("{what} is not JSON-serializable"))?
        .as_string()
        .ok_or_else(|| format!("{what} is missing"))?;
    serde_json::from_str(&text).map_err(|e| format!("{what}: {e}"))
}

/// `stepNames()`: the wire names of every step, so UIs and tests need not hard-code them.
#[wasm_bindgen(js_name = stepNames, skip_typescript)]
pub fn step_names() -> Array {
    Step::ALL
        .iter()
        .map(|s| JsValue::from_str(s.wire_name()))
        .collect()
}

/// `stepSchema(step, { strict })`: the JSON Schema of a step's answer, plain (draft 2020-12) or
/// OpenAI strict, for providers that constrain their output with one.
#[wasm_bindgen(js_name = stepSchema, skip_typescript)]
pub fn step_schema_js(step: &str, options: JsValue) -> Result<JsValue, JsError> {
    let step = parse_step(step)?;
    let strict = read_bool_option(&options, "strict", false, "stepSchema options")?;
    let flavor = if strict {
        SchemaFlavor::OpenAiStrict
    } else {
        SchemaFlavor::Plain
    };
    // The committed schema text goes to JSON.parse as it is: no serde round trip.
    js_sys::JSON::parse(step_schema_text(step, flavor))
        .map_err(|_| JsError::new("internal error: a committed schema is not JSON"))
}

/// `checkProviderSchema(family, schema)`: every published rule of that provider family the
/// schema breaks (`roundtable_core::provider_rules`), so a mock or a tool refuses what the real
/// API refuses.
#[wasm_bindgen(js_name = checkProviderSchema, skip_typescript)]
pub fn check_provider_schema_js(family: &str, schema: JsValue) -> Result<JsValue, JsError> {
    let family = roundtable_core::provider_rules::Family::parse(family).ok_or_else(|| {
        JsError::new(&format!(
            "unknown schema family {family:?}: expected openai_strict, anthropic, gemini or grammar"
        ))
    })?;
    let schema: serde_json::Value = from_js(&schema, "schema").map_err(|e| JsError::new(&e))?;
    to_js(&roundtable_core::provider_rules::check(family, &schema))
}

/// `plainAnswer(step, raw)`: a strict-flavour answer in the step's plain shape (pair lists back
/// into maps, "absent" nulls left out: `provider_schema::plain_answer`).
#[wasm_bindgen(js_name = plainAnswer, skip_typescript)]
pub fn plain_answer_js(step: &str, raw: &str) -> Result<JsValue, JsError> {
    let step = parse_step(step)?;
    let plain =
        roundtable_core::protocol::team::answer_schema::step_schema(step, SchemaFlavor::Plain);
    Ok(roundtable_core::provider_schema::plain_answer(&plain, raw)
        .map_or(JsValue::NULL, |text| JsValue::from_str(&text)))
}

/// Reads `options[name]` as a boolean: absent/undefined → `default`, anything but a boolean → error
/// (a typo such as `{ strict: "yes" }` must not silently mean false).
fn read_bool_option(
    options: &JsValue,
    name: &str,
    default: bool,
    what: &str,
) -> Result<bool, JsError> {
    if options.is_undefined() || options.is_null() {
        return Ok(default);
    }
    if !options.is_object() {
        return Err(JsError::new(&format!("{what} must be an object")));
    }
    let v = Reflect::get(options, &JsValue::from_str(name))
        .map_err(|_| JsError::new(&format!("{what}: cannot read {name}")))?;
    if v.is_undefined() {
        return Ok(default);
    }
    v.as_bool()
        .ok_or_else(|| JsError::new(&format!("{what}: {name} must be a boolean")))
}

/// Reads `known` strictly: an object whose only keys are `products`, `versions`, `members` and
/// `collabs`, each an array of strings. A misspelt key is an error, because silently treating it as
/// "no ids known" would turn every reference in a valid answer into a violation.
fn read_known(known: &JsValue) -> Result<Option<Known>, JsError> {
    if known.is_undefined() || known.is_null() {
        return Ok(None);
    }
    if !known.is_object() || Array::is_array(known) {
        return Err(JsError::new(
            "known must be an object { products, versions, members, collabs } of id arrays",
        ));
    }
    let mut out = Known::default();
    let obj: &Object = known.unchecked_ref();
    for key in Object::keys(obj).iter() {
        let name = key.as_string().unwrap_or_default();
        let set = match name.as_str() {
            "products" => &mut out.products,
            "versions" => &mut out.versions,
            "members" => &mut out.members,
            "collabs" => &mut out.collabs,
            other => {
                return Err(JsError::new(&format!(
                "known has an unknown key {other:?}; allowed: products, versions, members, collabs"
            )))
            }
        };
        let list = Reflect::get(obj, &key).unwrap_or(JsValue::UNDEFINED);
        if list.is_undefined() {
            continue;
        }
        if !Array::is_array(&list) {
            return Err(JsError::new(&format!(
                "known.{name} must be an array of id strings"
            )));
        }
        for (i, id) in Array::from(&list).iter().enumerate() {
            let id = id
                .as_string()
                .ok_or_else(|| JsError::new(&format!("known.{name}[{i}] must be a string")))?;
            set.insert(id);
        }
    }
    Ok(Some(out))
}

/// One refused tree change, shaped like a validation violation where it can be: `path` points at
/// the operation (`/2`), `index` and `action` name it.
#[derive(Serialize)]
struct TreeFailure {
    path: String,
    index: Option<usize>,
    action: Option<String>,
    message: String,
}

/// `newTree(rootName)`: an empty product tree (only the root `p0`), to start a session from JS.
#[wasm_bindgen(js_name = newTree, skip_typescript)]
pub fn new_tree(root_name: &str) -> Result<JsValue, JsError> {
    to_js(&ProductTree::new(root_name))
}

/// `knownFromTree(tree)`: the ids an answer may name given this tree (live products, versions,
/// collabs; members stay empty — the session knows them), ready to pass to `validateStep`.
#[wasm_bindgen(js_name = knownFromTree, skip_typescript)]
pub fn known_from_tree(tree: JsValue) -> Result<JsValue, JsError> {
    let tree: ProductTree = from_js(&tree, "tree").map_err(|e| JsError::new(&e))?;
    to_js(&tree.known())
}

/// `applyTreeOperations(tree, operations)`: applies the operations all-or-nothing and returns the
/// new tree (the input is not mutated) with the `new-N` → product id map, or why it failed.
/// A malformed tree throws (a caller bug); a malformed operation is reported like a refused one.
#[wasm_bindgen(js_name = applyTreeOperations, skip_typescript)]
pub fn apply_tree_operations(tree: JsValue, operations: JsValue) -> Result<JsValue, JsError> {
    let mut tree: ProductTree = from_js(&tree, "tree").map_err(|e| JsError::new(&e))?;
    if !Array::is_array(&operations) {
        return Err(JsError::new(
            "operations must be an array of tree operations",
        ));
    }
    let mut ops = Vec::new();
    let mut failures = Vec::new();
    for (index, op) in Array::from(&operations).iter().enumerate() {
        match from_js::<TreeOperation>(&op, "operation") {
            Ok(op) => ops.push(op),
            Err(message) => failures.push(TreeFailure {
                path: format!("/{index}"),
                index: Some(index),
                action: Reflect::get(&op, &JsValue::from_str("action"))
                    .ok()
                    .and_then(|a| a.as_string()),
                message,
            }),
        }
    }
    if !failures.is_empty() {
        return to_js(&TreeResult::Err {
            ok: false,
            errors: failures,
        });
    }
    match tree.apply(&ops) {
        Ok(applied) => to_js(&TreeResult::Ok {
            ok: true,
            tree: &tree,
            new_ids: &applied.new_ids,
        }),
        Err(err) => {
            let failure = match &err {
                TreeError::Operation {
                    index,
                    action,
                    reason,
                } => TreeFailure {
                    path: format!("/{index}"),
                    index: Some(*index),
                    action: Some((*action).to_string()),
                    message: reason.to_string(),
                },
                TreeError::Change(problem) => TreeFailure {
                    path: String::new(),
                    index: None,
                    action: None,
                    message: problem.to_string(),
                },
            };
            to_js(&TreeResult::Err {
                ok: false,
                errors: vec![failure],
            })
        }
    }
}

/// The two shapes `applyTreeOperations` returns.
#[derive(Serialize)]
#[serde(untagged)]
enum TreeResult<'a> {
    Ok {
        ok: bool,
        tree: &'a ProductTree,
        #[serde(rename = "newIds")]
        new_ids: &'a std::collections::BTreeMap<String, String>,
    },
    Err {
        ok: bool,
        errors: Vec<TreeFailure>,
    },
}

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` on a JS string as it is, so a valid answer is parsed from the caller's own
    /// string instead of a copy decoded back out of linear memory.
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse_value(text: &JsValue) -> Result<JsValue, JsValue>;

    /// `Reflect.set` without js-sys's exception wrapper (a closure and `arguments` per call, which
    /// cost more than the set itself). Used only on plain objects made here, where it cannot throw.
    #[wasm_bindgen(js_namespace = Reflect, js_name = set)]
    fn reflect_set(target: &JsValue, key: &JsValue, value: &JsValue) -> bool;

    /// `Reflect.get` without the exception wrapper, for plain data objects (options, parsed JSON).
    #[wasm_bindgen(js_namespace = Reflect, js_name = get)]
    fn reflect_get(target: &JsValue, key: &JsValue) -> JsValue;

    /// The platform's UTF-8 encoder (browsers and Node alike).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    /// Writes as much of `source` as fits into `dest` as UTF-8, in native code.
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, source: &JsValue, dest: &Uint8Array) -> EncodeIntoResult;

    /// `{ read, written }` of `encodeInto`.
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;

    /// `Function(args, body)`, caught: compiling code from a string may be forbidden.
    #[wasm_bindgen(js_name = Function, catch)]
    fn compile_function(args: &str, body: &str) -> Result<js_sys::Function, JsValue>;

    /// Node's `Buffer` (absent in browsers; called only when [`Keys::node_buffer`] found it).
    type NodeBuffer;
    /// `Buffer.from(arrayBuffer, byteOffset, length)`: a view on linear memory, no copy.
    #[wasm_bindgen(js_namespace = Buffer, js_name = from)]
    fn node_buffer_view(memory: &JsValue, byte_offset: u32, length: u32) -> NodeBuffer;
    /// `buf.write(string, offset, length, encoding)`: with `'utf16le'`, the string's code units
    /// as they are — a memcpy for V8's two-byte strings.
    #[wasm_bindgen(method, js_name = write)]
    fn write_encoded(
        this: &NodeBuffer,
        source: &JsString,
        offset: u32,
        length: u32,
        encoding: &JsValue,
    ) -> u32;
}

/// Below this many UTF-16 units the string crosses the usual way; the few extra calls of
/// [`read_long_string`] only pay off on long answers.
const LONG_STRING: u32 = 1024;

/// Copies a JS string into a Rust `String`.
///
/// wasm-bindgen's own path copies the leading ASCII run one char at a time in a JS loop, which on
/// an all-ASCII 20 KB answer costs more than the whole validation. Here a long string crosses in
/// one native call: on Node as its UTF-16 code units ([`read_utf16`]), elsewhere by one
/// `TextEncoder.encodeInto` straight into linear memory ([`read_long_string`]).
fn read_string(raw: &JsValue, keys: &Keys) -> Option<String> {
    let s: &JsString = raw.dyn_ref()?;
    let units = s.length();
    if units < LONG_STRING {
        return raw.as_string();
    }
    if keys.node_buffer {
        return Some(read_utf16(s, units, keys));
    }
    read_long_string(s, units, &keys.encoder)
}

/// On Node: the string's UTF-16 code units copied into a reused staging buffer by one
/// `Buffer.write(s, 'utf16le')` (a memcpy, where Node 20's `encodeInto` transcodes at
/// ~1.5 GB/s), then turned into UTF-8 here by [`utf16le_to_string`], 32 ASCII units a step.
/// The text is the same as `encodeInto`'s, unpaired surrogates included.
fn read_utf16(s: &JsString, units: u32, keys: &Keys) -> String {
    // Taken out of its slot while JS runs and put back after: if a JS call threw (a trap leaves
    // no destructor run), the next call would only find the slot empty, never a borrow left set.
    let mut staging = STAGING.take();
    let len = units as usize * 2;
    if staging.len() < len {
        staging.resize(len, 0);
    }
    // The memory's buffer is fetched after the resize: growing memory detaches the old one.
    let memory: WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let view = node_buffer_view(&memory.buffer(), staging.as_ptr() as u32, len as u32);
    let written = view.write_encoded(s, 0, len as u32, &keys.utf16le) as usize;
    let text = utf16le_to_string(&staging[..written.min(len)]);
    // A one-off huge answer does not keep its staging space for the life of the page.
    if staging.len() <= STAGING_KEPT {
        STAGING.set(staging);
    }
    text
}

/// Elsewhere (browsers): one `TextEncoder.encodeInto` straight into linear memory (native code, a
/// memcpy for ASCII), growing the buffer only if non-ASCII text makes it longer than guessed.
fn read_long_string(s: &JsString, units: u32, encoder: &TextEncoder) -> Option<String> {
    let units_len = units as usize;
    // ASCII is one byte a unit; leave room for some non-ASCII text before a second round.
    let mut buf = vec![0u8; units_len + units_len / 8 + 16];
    let (mut read, mut written) = (0u32, 0usize);
    loop {
        // The buffer is fetched after every (re)allocation: growing memory detaches the old one.
        let memory: WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
        let dest = Uint8Array::new_with_byte_offset_and_length(
            &memory.buffer(),
            buf.as_mut_ptr() as u32 + written as u32,
            (buf.len() - written) as u32,
        );
        let source: JsValue = if read == 0 {
            s.into()
        } else {
            s.substring(read, units).into()
        };
        let r = encoder.encode_into(&source, &dest);
        read += r.read();
        written += r.written() as usize;
        if read >= units {
            break;
        }
        // Each remaining UTF-16 unit takes at most 3 bytes.
        buf.resize(written + (units - read) as usize * 3, 0);
    }
    buf.truncate(written);
    String::from_utf8(buf).ok()
}

/// The most staging space kept between calls (a 512 KB answer); longer answers get their own.
const STAGING_KEPT: usize = 1 << 20;

/// JS strings made once per instance: every `Reflect` call on the hot path then passes a heap
/// reference instead of decoding a key out of linear memory again.
struct Keys {
    ok: JsValue,
    value: JsValue,
    warnings: JsValue,
    truncated: JsValue,
    repair_prompt: JsValue,
    response_type: JsValue,
    final_output: JsValue,
    encoder: TextEncoder,
    /// Whether Node's `Buffer` is there, so long strings can cross as UTF-16 ([`read_utf16`]).
    node_buffer: bool,
    /// On Node: [`TAPE_BUILDER`] compiled, and the interned key names it reads ids against.
    tape_builder: Option<(js_sys::Function, JsValue)>,
    utf16le: JsValue,
    /// The default-`[]` fields at the top level of a final output, per step (spec 000).
    defaults: Vec<(Step, Vec<JsValue>)>,
}

impl Keys {
    fn new() -> Keys {
        let s = JsValue::from_str;
        let node_buffer = has_node_buffer();
        let defaults = Step::ALL
            .iter()
            .map(|&step| (step, default_lists(step).iter().map(|k| s(k)).collect()))
            .collect();
        Keys {
            ok: s("ok"),
            value: s("value"),
            warnings: s("warnings"),
            truncated: s("truncated"),
            repair_prompt: s("repairPrompt"),
            response_type: s("responseType"),
            final_output: s("final_output"),
            encoder: TextEncoder::new(),
            node_buffer,
            tape_builder: node_buffer.then(tape_builder).flatten(),
            utf16le: s("utf16le"),
            defaults,
        }
    }

    fn defaults(&self, step: Step) -> &[JsValue] {
        self.defaults
            .iter()
            .find(|(s, _)| *s == step)
            .map_or(&[], |(_, keys)| keys.as_slice())
    }
}

/// The top-level fields of `step`'s final output that the spec defaults to `[]` when omitted.
fn default_lists(step: Step) -> &'static [&'static str] {
    match step {
        Step::Bootstrap | Step::Presentation => &[],
        Step::Reflect | Step::PeerReview | Step::Inspection => &["collabs", "remarks"],
        Step::PlanAssign => &["treeOperations", "assignments", "acceptance", "remarks"],
        Step::Write => &["versions", "collabs", "remarks"],
    }
}

/// Whether `globalThis.Buffer.from` and `Buffer.prototype.write` exist (Node, Bun, Deno's Node
/// mode), checked once per instance.
fn has_node_buffer() -> bool {
    let get = |target: &JsValue, key: &str| Reflect::get(target, &JsValue::from_str(key)).ok();
    let Some(buffer) = get(&js_sys::global(), "Buffer").filter(JsValue::is_function) else {
        return false;
    };
    let write = get(&buffer, "prototype").and_then(|proto| get(&proto, "write"));
    get(&buffer, "from").is_some_and(|f| f.is_function()) && write.is_some_and(|f| f.is_function())
}

/// Builds a checked answer's value from its tape (`validate::tape`: the tags there, the numbers
/// here must match): strings are slices of the caller's own string, keys the interned names.
/// Plain JS run by V8's JIT; measured 4× faster than `JSON.parse` on the 20 KB PlanAssign.
const TAPE_BUILDER: &str = r#"
let i = 0;
function val() {
  switch (t[i]) {
    case 1: { const n = t[i + 1]; i += 2; const o = {};
      for (let k = 0; k < n; k++) { const key = keys[t[i]]; i += 1; o[key] = val(); }
      return o; }
    case 2: { const n = t[i + 1]; i += 2; const a = [];
      for (let k = 0; k < n; k++) a.push(val());
      return a; }
    case 3: { const v = raw.slice(t[i + 1], t[i + 2]); i += 3; return v; }
    case 4: { const v = JSON.parse(raw.slice(t[i + 1] - 1, t[i + 2] + 1)); i += 3; return v; }
    case 5: { const v = +raw.slice(t[i + 1], t[i + 2]); i += 3; return v; }
    case 6: i += 1; return true;
    case 7: i += 1; return false;
    case 8: i += 1; return null;
    default: throw new Error('roundtable-core: bad value tape');
  }
}
const v = val();
if (i !== t.length) throw new Error('roundtable-core: value tape not used up');
return v;
"#;

/// Compiles [`TAPE_BUILDER`] (only asked on Node: a browser page's CSP may forbid compiling code,
/// so browsers keep `JSON.parse`). `None` where compiling is refused all the same (Node's
/// `--disallow-code-generation-from-strings`): then `JSON.parse` builds every value.
fn tape_builder() -> Option<(js_sys::Function, JsValue)> {
    let f = compile_function("raw, t, keys", TAPE_BUILDER).ok()?;
    let names: Array = roundtable_core::protocol::team::check::key_names()
        .iter()
        .map(|k| JsValue::from_str(k))
        .collect();
    Some((f, names.into()))
}

thread_local! {
    static KEYS: Keys = Keys::new();
    /// The value tape of the last answer, kept to reuse its allocation.
    static TAPE: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
    /// Where [`read_utf16`] has Node copy long strings; kept between calls up to
    /// [`STAGING_KEPT`] bytes.
    static STAGING: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The refusal as JS sees it: every error and the warnings cross as one JSON text and one
/// `JSON.parse`, which measured as fast as building the objects with `Reflect.set` from here (V8
/// adds properties to fresh objects faster inside `JSON.parse`). The message for the model,
/// `repairPrompt`, is set beside them as a plain string: inside the JSON it would be escaped,
/// parsed and unescaped again for nothing (about half the refusal's bytes).
#[derive(Serialize)]
struct Refusal<'a> {
    ok: bool,
    errors: &'a [Violation],
    warnings: &'a [Violation],
}

/// `validateStep(step, raw, known?, options?)`: the checked answer, or every violation and the
/// message that makes the model fix them. See the TypeScript declaration for the shapes.
#[wasm_bindgen(js_name = validateStep, skip_typescript)]
pub fn validate_step_js(
    step: &str,
    raw: &JsValue,
    known: &JsValue,
    options: &JsValue,
) -> Result<JsValue, JsError> {
    let step = parse_step(step)?;
    let known = read_known(known)?;
    KEYS.with(|keys| {
        let text = read_string(raw, keys).ok_or_else(|| {
            JsError::new("validateStep: raw must be a string (the model's answer text)")
        })?;
        let (want_value, truncated) = read_validate_options(options, keys)?;
        let options = Options { truncated };
        // With the value wanted on Node, the checker also writes the value's tape as it goes.
        let mut tape = TAPE.take();
        let (verdict, taped) =
            if want_value && keys.tape_builder.is_some() && text.len() >= LONG_STRING as usize {
                check_step_with_tape(step, &text, known.as_ref(), options, &mut tape)
            } else {
                (check_step_with(step, &text, known.as_ref(), options), false)
            };
        let result = respond(
            step,
            raw,
            &text,
            verdict,
            taped.then_some(&tape[..]),
            want_value,
            keys,
        );
        TAPE.set(tape);
        result
    })
}

/// The JS answer to `validateStep`: the refusal, or `{ ok, value?, warnings }`.
fn respond(
    step: Step,
    raw: &JsValue,
    text: &str,
    verdict: Verdict<'_>,
    tape: Option<&[u32]>,
    want_value: bool,
    keys: &Keys,
) -> Result<JsValue, JsError> {
    if !verdict.is_ok() {
        let report = Report {
            step,
            errors: verdict.errors,
            warnings: verdict.warnings,
        };
        let refusal = to_js(&Refusal {
            ok: false,
            errors: &report.errors,
            warnings: &report.warnings,
        })?;
        let prompt = JsValue::from_str(&report.repair_prompt());
        reflect_set(&refusal, &keys.repair_prompt, &prompt);
        return Ok(refusal);
    }
    let out = Object::new();
    set(&out, &keys.ok, &JsValue::TRUE);
    if want_value {
        set(
            &out,
            &keys.value,
            &build_value(step, raw, text, &verdict, tape, keys)?,
        );
    }
    let warnings = if verdict.warnings.is_empty() {
        Array::new().into()
    } else {
        to_js(&verdict.warnings)?
    };
    set(&out, &keys.warnings, &warnings);
    Ok(out.into())
}

/// `Reflect.set` on a plain object we just made, which cannot fail.
fn set(target: &Object, key: &JsValue, value: &JsValue) {
    reflect_set(target, key, value);
}

/// Reads `{ value, truncated }`; `value` defaults to true, `truncated` to false.
fn read_validate_options(options: &JsValue, keys: &Keys) -> Result<(bool, bool), JsError> {
    if options.is_undefined() || options.is_null() {
        return Ok((true, false));
    }
    if !options.is_object() {
        return Err(JsError::new(
            "validateStep: options must be an object { value, truncated }",
        ));
    }
    let read = |key: &JsValue, name: &str, default: bool| -> Result<bool, JsError> {
        let v = reflect_get(options, key);
        if v.is_undefined() {
            return Ok(default);
        }
        v.as_bool()
            .ok_or_else(|| JsError::new(&format!("validateStep: options.{name} must be a boolean")))
    };
    Ok((
        read(&keys.value, "value", true)?,
        read(&keys.truncated, "truncated", false)?,
    ))
}

/// The answer as a JS value: `JSON.parse` of the checked text (the caller's own string when no
/// repair was needed), then the spec's default `[]` lists put in where the model left them out.
fn build_value(
    step: Step,
    raw: &JsValue,
    text: &str,
    verdict: &Verdict<'_>,
    tape: Option<&[u32]>,
    keys: &Keys,
) -> Result<JsValue, JsError> {
    let unchanged = verdict.json.as_ptr() == text.as_ptr() && verdict.json.len() == text.len();
    let from_tape = match (&keys.tape_builder, tape) {
        (Some((builder, names)), Some(tape)) if unchanged => {
            build_from_tape(raw, tape, builder, names)
        }
        _ => None,
    };
    let parsed = match from_tape {
        Some(value) => Ok(value),
        None if unchanged => json_parse_value(raw),
        None => js_sys::JSON::parse(&verdict.json),
    };
    let value =
        parsed.map_err(|_| JsError::new("internal error: JSON.parse refused a checked answer"))?;
    let defaults = keys.defaults(step);
    if !defaults.is_empty() && reflect_get(&value, &keys.response_type) == keys.final_output {
        let obj: &Object = value.unchecked_ref();
        for key in defaults {
            if reflect_get(obj, key).is_undefined() {
                set(obj, key, &Array::new());
            }
        }
    }
    Ok(value)
}

/// The value of a checked, unrepaired answer built from the tape the checker wrote, by
/// [`TAPE_BUILDER`]; `None` if the builder threw (then `JSON.parse` does it).
fn build_from_tape(
    raw: &JsValue,
    tape: &[u32],
    builder: &js_sys::Function,
    names: &JsValue,
) -> Option<JsValue> {
    // No allocation in linear memory between taking the buffer and the builder's last read.
    let memory: WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let view = js_sys::Uint32Array::new_with_byte_offset_and_length(
        &memory.buffer(),
        tape.as_ptr() as u32,
        tape.len() as u32,
    );
    builder.call3(&JsValue::NULL, raw, &view, names).ok()
}

/// `benchCopyString(raw)`: copies the answer into linear memory the way `validateStep` does and
/// returns its UTF-8 length. For `bench/validate.mjs`, to split `validateStep`'s time into the
/// JS → WASM copy and the validation itself.
#[wasm_bindgen(js_name = benchCopyString, skip_typescript)]
pub fn bench_copy_string(raw: &JsValue) -> usize {
    KEYS.with(|keys| read_string(raw, keys).map_or(0, |s| s.len()))
}

/// `benchValueBuilder()`: whether this instance builds values from the tape (the builder compiled:
/// on Node, where code generation is allowed). For the Node tests: a silent fall-back to
/// `JSON.parse` would otherwise show only in the benchmark.
#[wasm_bindgen(js_name = benchValueBuilder, skip_typescript)]
pub fn bench_value_builder() -> bool {
    KEYS.with(|keys| keys.tape_builder.is_some())
}

/// `benchValueTape(step, raw)`: the length of the value tape the checker writes for a valid
/// answer, or `undefined` when it gave the tape up. For the Node tests: proof that the value path
/// of `validateStep` really builds from the tape.
#[wasm_bindgen(js_name = benchValueTape, skip_typescript)]
pub fn bench_value_tape(step: &str, raw: &str) -> Result<Option<u32>, JsError> {
    let step = parse_step(step)?;
    let mut words = Vec::new();
    let (_, taped) = check_step_with_tape(step, raw, None, Options::default(), &mut words);
    Ok(taped.then_some(words.len() as u32))
}

/// `benchCheckStep(step, raw, n)`: runs the verdict-only check `n` times inside WASM on one copy
/// of the answer and returns how many were valid. For `bench/validate.mjs`: the validator's own
/// time, with no boundary crossing.
#[wasm_bindgen(js_name = benchCheckStep, skip_typescript)]
pub fn bench_check_step(step: &str, raw: &JsValue, n: u32) -> Result<u32, JsError> {
    let step = parse_step(step)?;
    let text = KEYS
        .with(|keys| read_string(raw, keys))
        .ok_or_else(|| JsError::new("benchCheckStep: raw must be a string"))?;
    Ok((0..n)
        .filter(|_| {
            check_step_with(step, std::hint::black_box(&text), None, Options::default()).is_ok()
        })
        .count() as u32)
}
