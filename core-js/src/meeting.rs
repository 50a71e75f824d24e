//! Spec `001`'s meeting for JS (`roundtable_core::protocol::meeting`): the orchestrator's
//! decision checked against 001's rules (the decision's required field, an attendee for
//! `continue`, one of the seven phases) and the meeting's phase policy (`continue` only while the
//! phase has turns left, `change_phase` only to the next phase, `end_meeting` only in the last
//! two), a member's contribution, and the minutes with every action item's owner an attendee —
//! the checks the app makes, for a meeting runtime of its own.
//!
//! Kept apart from the other kinds' functions (`lib.rs` holds the team's; `autocoding.rs`,
//! `review.rs`, `dialectic.rs` theirs).

use serde::Deserialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use roundtable_core::protocol::meeting::answer::{
    check_contribution, check_decision, check_minutes,
};
use roundtable_core::protocol::meeting::{phase_policy, Phase};
use roundtable_core::validate::{Options, Violation};

use crate::{from_js, to_js};

/// The declarations of this module's functions.
#[wasm_bindgen(typescript_custom_section)]
const MEETING_TS: &'static str = r#"
/** Where the meeting stands when the orchestrator decides: who may be named, the phase it is
 *  in, and how many speaking turns that phase has had of its maximum (the policy's input). */
export interface MeetingDecisionContext {
  attendees: string[];
  phase: Phase;
  turnsUsed?: number;
  maxTurnsPerPhase?: number;
}

/** A decision as the meeting applies it: 001's shape, with only its decision's fields. */
export type MeetingDecisionChecked =
  | { decision: "continue"; next_agent_id: string; rationale: string }
  | { decision: "change_phase"; new_phase: Phase; rationale: string }
  | { decision: "end_meeting"; end_reason: string; rationale: string };

/** A checked meeting answer: the value as the meeting reads it, or every violation. */
export type MeetingCheck<T> =
  | { ok: true; answer: T; warnings: Violation[] }
  | { ok: false; errors: Violation[]; warnings: Violation[] };

/** Checks an orchestrator's decision (spec 001) and the phase policy in `context`. */
export function checkMeetingDecision(raw: string, context: MeetingDecisionContext): MeetingCheck<MeetingDecisionChecked>;
/** Checks a member's contribution. */
export function checkMeetingContribution(raw: string): MeetingCheck<MeetingContribution>;
/** Checks the minutes; every action item's owner must be one of `owners` (attendee ids). */
export function checkMeetingMinutes(raw: string, owners: string[]): MeetingCheck<MeetingMinutes>;
"#;

/// The context as JS passes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Context {
    attendees: Vec<String>,
    phase: Phase,
    #[serde(default)]
    turns_used: u32,
    #[serde(default = "default_turns")]
    max_turns_per_phase: u32,
}

/// The app's default turns per phase when the caller gives none.
fn default_turns() -> u32 {
    roundtable_core::protocol::meeting::MeetingConfig::DEFAULT_TURNS_PER_PHASE
}

fn verdict<T: serde::Serialize>(
    checked: Result<T, Vec<Violation>>,
    warnings: Vec<Violation>,
) -> Result<JsValue, JsError> {
    let out: Value = match checked {
        Ok(answer) => json!({"ok": true, "answer": answer, "warnings": warnings}),
        Err(errors) => json!({"ok": false, "errors": errors, "warnings": warnings}),
    };
    to_js(&out)
}

/// `checkMeetingDecision(raw, context)`.
#[wasm_bindgen(js_name = checkMeetingDecision, skip_typescript)]
pub fn check_meeting_decision(raw: &str, context: JsValue) -> Result<JsValue, JsError> {
    let ctx: Context = from_js(&context, "context").map_err(|e| JsError::new(&e))?;
    let attendees: Vec<&str> = ctx.attendees.iter().map(String::as_str).collect();
    let mut warnings = Vec::new();
    let checked =
        check_decision(raw, Options::default(), &attendees, &mut warnings).and_then(|d| {
            let broken = phase_policy(
                &d,
                ctx.phase,
                ctx.turns_used >= ctx.max_turns_per_phase,
                ctx.max_turns_per_phase,
            );
            if broken.is_empty() {
                Ok(d)
            } else {
                Err(broken)
            }
        });
    verdict(checked, warnings)
}

/// `checkMeetingContribution(raw)`.
#[wasm_bindgen(js_name = checkMeetingContribution, skip_typescript)]
pub fn check_meeting_contribution(raw: &str) -> Result<JsValue, JsError> {
    let mut warnings = Vec::new();
    let checked = check_contribution(raw, Options::default(), &mut warnings);
    verdict(checked, warnings)
}

/// `checkMeetingMinutes(raw, owners)`.
#[wasm_bindgen(js_name = checkMeetingMinutes, skip_typescript)]
pub fn check_meeting_minutes(raw: &str, owners: JsValue) -> Result<JsValue, JsError> {
    let owners: Vec<String> = from_js(&owners, "owners").map_err(|e| JsError::new(&e))?;
    let owners: Vec<&str> = owners.iter().map(String::as_str).collect();
    let mut warnings = Vec::new();
    let checked = check_minutes(raw, Options::default(), &owners, &mut warnings);
    verdict(checked, warnings)
}
