//! Spec `004`'s review-loop answers for JS (`roundtable_core::protocol::review::answer`): a raw
//! model answer checked against its role's contract and the directive it answers — the
//! `agent_response` envelope, the payload under the role's key, every field and enum, and the
//! `thehoodDirectiveAck` (the run id, this directive's nonce; an earlier directive's nonce is
//! named as stale). The checks the app's runtime makes, for a JS runtime of its own.

use serde::Deserialize;
use serde_json::json;
use wasm_bindgen::prelude::*;

use roundtable_core::protocol::review::answer::Contract;
use roundtable_core::protocol::review::directive::{nonce, Directive};
use roundtable_core::protocol::review::rules::check;
use roundtable_core::validate::Options;

use crate::{from_js, to_js};

/// The declarations of this module's functions.
#[wasm_bindgen(typescript_custom_section)]
const REVIEW_TS: &'static str = r#"
/** The key a review-loop role answers under `data` (spec 004's contracts). */
export type ReviewContract =
  | "decision" | "research_result" | "implementation_result" | "qa_result"
  | "verification_result" | "critique_result" | "reconciliation_result";

/** The directive an answer must acknowledge: the run's id, this directive's nonce, and the
 *  nonces of earlier directives (an answer naming one is refused as stale). */
export interface ReviewDirective { runId: string; nonce: string; earlierNonces?: string[] }

/** A checked review-loop answer: the envelope as read (recovered from fences or prose, or
 *  unwrapped from {"agent_response": …}, each with a warning), or every violation with its
 *  JSON pointer. */
export type ReviewCheck =
  | { ok: true; answer: ReviewCritique | ReviewDecision | ReviewImplementation | ReviewQa | ReviewReconciliation | ReviewResearch | ReviewVerification; warnings: Violation[] }
  | { ok: false; errors: Violation[]; warnings: Violation[] };

/** Checks `raw` (a model's answer) against `contract` and the directive it answers. Throws only
 *  for an unknown contract or a malformed directive. */
export function checkReviewAnswer(contract: ReviewContract, raw: string, directive: ReviewDirective): ReviewCheck;
/** The nonce the review loop gives the directive of `callId` in run `runId` (stable across
 *  replays, so a stored run checks the same way again). */
export function reviewNonce(runId: string, callId: string): string;
"#;

/// The directive as JS passes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DirectiveArg {
    run_id: String,
    nonce: String,
    #[serde(default)]
    earlier_nonces: Vec<String>,
}

/// `checkReviewAnswer(contract, raw, directive)`.
#[wasm_bindgen(js_name = checkReviewAnswer, skip_typescript)]
pub fn check_review_answer(
    contract: &str,
    raw: &str,
    directive: JsValue,
) -> Result<JsValue, JsError> {
    let contract = Contract::ALL
        .into_iter()
        .find(|c| c.key() == contract)
        .ok_or_else(|| {
            let keys: Vec<&str> = Contract::ALL.iter().map(|c| c.key()).collect();
            JsError::new(&format!(
                "unknown contract {contract:?}: one of {}",
                keys.join(", ")
            ))
        })?;
    let arg: DirectiveArg = from_js(&directive, "directive").map_err(|e| JsError::new(&e))?;
    let directive = Directive {
        run_id: arg.run_id,
        nonce: arg.nonce,
        earlier: arg.earlier_nonces,
    };
    let mut warnings = Vec::new();
    let out = match check(contract, raw, &directive, Options::default(), &mut warnings) {
        Ok(answer) => json!({"ok": true, "answer": answer, "warnings": warnings}),
        Err(errors) => json!({"ok": false, "errors": errors, "warnings": warnings}),
    };
    to_js(&out)
}

/// `reviewNonce(runId, callId)`.
#[wasm_bindgen(js_name = reviewNonce, skip_typescript)]
pub fn review_nonce(run_id: &str, call_id: &str) -> String {
    nonce(run_id, call_id)
}
