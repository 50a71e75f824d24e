//! Spec `002`'s autocoding tools for JS (`roundtable_core::protocol::autocoding::tools`): state in,
//! prompt or next state out, used the way Hegelion's MCP tools are used, without the app. Each
//! function takes the tool's arguments as one object and returns the tool's result, or `002`'s
//! error object (it has an `error` field and a `pointer`) for a call in the wrong phase, a bad
//! argument or a bad state — never a throw. `hegelion` is 002's branded entry point;
//! `autocodingLoad` answers the state with its warnings (fields 002 does not name, kept; an
//! approval on the coach's word alone), each at its pointer.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use roundtable_core::protocol::autocoding::tools::{self, ToolError};

use crate::{from_js, to_js};

/// The declarations of this module's functions and the shapes they trade in.
#[wasm_bindgen(typescript_custom_section)]
const AUTOCODING_TS: &'static str = r#"
/** Spec 002's autocoding phase: whose prompt comes next, or how the loop ended. */
export type AutocodingPhase = "init" | "player" | "coach" | "approved" | "timeout";
/** Whether the session still runs. */
export type AutocodingStatus = "active" | "approved" | "rejected" | "timeout";

/** One coach review in the turn history. */
export interface AutocodingTurn {
  turn: number;
  feedback: string;
  approved: boolean;
  score: number | null;
}

/** Spec 002's AutocodingState, field for field. A field 002 does not name is kept as it was
 *  read (load warns about it) and passed on by every tool. */
export interface AutocodingState {
  schema_version: 1;
  session_id: string;
  session_name: string | null;
  requirements: string;
  current_turn: number;
  max_turns: number;
  phase: AutocodingPhase;
  status: AutocodingStatus;
  turn_history: AutocodingTurn[];
  last_coach_feedback: string | null;
  quality_scores: number[];
  approval_threshold: number;
}

/** Spec 002's AutocodingPrompt. */
export interface AutocodingPrompt {
  phase: "player" | "coach" | "single_shot";
  prompt: string;
  instructions: string;
  expected_format: string;
  requirements_embedded: boolean;
}

/** What playerPrompt and coachPrompt return: the prompt, and the state to pass on. */
export interface AutocodingPhasePrompt extends AutocodingPrompt {
  schema_version: 1;
  current_phase: AutocodingPhase;
  next_phase: AutocodingPhase;
  state: AutocodingState;
}

/** Spec 002's error object. `pointer` (a JSON pointer into the tool's input: `/max_turns`,
 *  `/state/phase`; into the state's text for autocodingLoad) says where the first problem is;
 *  `violations` lists every problem of a state that does not load. */
export interface AutocodingError {
  schema_version: 1;
  tool: string;
  error: string;
  expected?: unknown;
  received?: unknown;
  hint?: string;
  pointer: string;
  violations?: Violation[];
}

/** What autocodingLoad answers: the state, whole, and what is worth a look about it. */
export interface AutocodingLoaded {
  schema_version: 1;
  state: AutocodingState;
  /** Fields 002 does not name (kept), an approval on the coach's word alone: each at its pointer. */
  warnings: Violation[];
}

/** The autocoding_init arguments, and the entry point's mode (without one: "workflow"). */
export interface HegelionArgs {
  requirements: string;
  mode?: "init" | "workflow" | "single_shot";
  max_turns?: number;
  approval_threshold?: number;
  session_name?: string;
}

/** What the hegelion entry point answers, marked with the entry point and its mode: the new
 *  state (init), the loop as steps (workflow) or one prompt that plays both roles (single_shot). */
export type HegelionResult =
  | (AutocodingState & { entrypoint: "hegelion"; mode: "init" })
  | {
      schema_version: 1;
      workflow_type: "dialectical_autocoding";
      requirements: string;
      max_turns: number;
      approval_threshold: number;
      steps: { step: number; name: string; action: string; returns: string; repeat?: boolean }[];
      termination: { approved: string; timeout: string };
      instructions: { execution_mode: string; description: string; state_passing: string };
      sample_prompts: { player: AutocodingPrompt; coach: AutocodingPrompt };
      entrypoint: "hegelion";
      mode: "workflow";
    }
  | (AutocodingPrompt & { schema_version: 1; requirements: string; max_turns: number; entrypoint: "hegelion"; mode: "single_shot" });

/** A file of the player's code, and what running the tests showed: optional context for the
 *  prompts (Hegelion's agents read their workspace; a model behind an API is shown it). */
export interface AutocodingWorkspace {
  files?: { path: string; content: string }[];
  test_run?: {
    status: "passed" | "failed" | "no_tests" | "timed_out" | "error";
    tests?: { file: string; name: string; passed: boolean; message?: string }[];
    errors?: { file: string; message: string }[];
  };
}

/** autocoding_init: a new session in the player phase. The caller makes the id (a UUID). */
export function autocodingInit(
  args: { requirements: string; max_turns?: number; approval_threshold?: number; session_name?: string },
  sessionId: string,
): AutocodingState | AutocodingError;
/** player_prompt: the player's prompt, and the state moved on to the coach. */
export function playerPrompt(args: { state: AutocodingState } & AutocodingWorkspace): AutocodingPhasePrompt | AutocodingError;
/** coach_prompt: the coach's prompt; the state stays in the coach phase. */
export function coachPrompt(args: { state: AutocodingState } & AutocodingWorkspace): AutocodingPhasePrompt | AutocodingError;
/** autocoding_advance: records the coach's review. Approved only at the threshold score. */
export function autocodingAdvance(args: {
  state: AutocodingState;
  coach_feedback: string;
  approved: boolean;
  compliance_score?: number | null;
}): AutocodingState | AutocodingError;
/** autocoding_single_shot: one prompt that plays both roles. */
export function autocodingSingleShot(args: {
  requirements: string;
  max_turns?: number;
}): (AutocodingPrompt & { schema_version: 1; requirements: string; max_turns: number }) | AutocodingError;
/** autocoding_save: the text of the state's file (store or download it; autocodingLoad reads it). */
export function autocodingSave(args: { state: AutocodingState }): string | AutocodingError;
/** autocoding_load: a state from a saved file's text, checked field by field and across fields,
 *  with its warnings. */
export function autocodingLoad(text: string): AutocodingLoaded | AutocodingError;
/** hegelion: 002's branded entry point (mode init, workflow or single_shot). The caller makes the
 *  id a new session gets (mode init). */
export function hegelion(args: HegelionArgs, sessionId: string): HegelionResult | AutocodingError;
"#;

/// The arguments object as JSON (`undefined` reads as `null`, which every tool refuses by name).
fn args(value: &JsValue) -> serde_json::Value {
    if value.is_undefined() {
        return serde_json::Value::Null;
    }
    from_js(value, "arguments").unwrap_or(serde_json::Value::Null)
}

fn answer<T: Serialize>(result: Result<T, Box<ToolError>>) -> Result<JsValue, JsError> {
    match result {
        Ok(value) => to_js(&value),
        Err(error) => to_js(&*error),
    }
}

/// `autocodingInit(args, sessionId)`.
#[wasm_bindgen(js_name = autocodingInit, skip_typescript)]
pub fn init(value: JsValue, session_id: &str) -> Result<JsValue, JsError> {
    answer(tools::init(&args(&value), session_id))
}

/// `playerPrompt(args)`.
#[wasm_bindgen(js_name = playerPrompt, skip_typescript)]
pub fn player_prompt(value: JsValue) -> Result<JsValue, JsError> {
    answer(tools::player_prompt(&args(&value)))
}

/// `coachPrompt(args)`.
#[wasm_bindgen(js_name = coachPrompt, skip_typescript)]
pub fn coach_prompt(value: JsValue) -> Result<JsValue, JsError> {
    answer(tools::coach_prompt(&args(&value)))
}

/// `autocodingAdvance(args)`.
#[wasm_bindgen(js_name = autocodingAdvance, skip_typescript)]
pub fn advance(value: JsValue) -> Result<JsValue, JsError> {
    answer(tools::advance(&args(&value)))
}

/// `autocodingSingleShot(args)`.
#[wasm_bindgen(js_name = autocodingSingleShot, skip_typescript)]
pub fn single_shot(value: JsValue) -> Result<JsValue, JsError> {
    answer(tools::single_shot(&args(&value)))
}

/// `autocodingSave(args)`.
#[wasm_bindgen(js_name = autocodingSave, skip_typescript)]
pub fn save(value: JsValue) -> Result<JsValue, JsError> {
    answer(tools::save(&args(&value)))
}

/// `autocodingLoad(text)`.
#[wasm_bindgen(js_name = autocodingLoad, skip_typescript)]
pub fn load(text: &str) -> Result<JsValue, JsError> {
    answer(tools::load(text))
}

/// `hegelion(args, sessionId)`.
#[wasm_bindgen(js_name = hegelion, skip_typescript)]
pub fn hegelion(value: JsValue, session_id: &str) -> Result<JsValue, JsError> {
    answer(tools::hegelion(&args(&value), session_id))
}
