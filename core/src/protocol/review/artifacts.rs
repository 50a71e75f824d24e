//! The artifacts the runtime writes, never a model: `004`'s `critic_trigger`, `revision_packet`
//! and `fanout`, field for field (camelCase, `schemaVersion: 1`, `kind` naming itself). Models
//! may read them as context; whether one exists is decided here, from the answers and the
//! runtime's own checks.
//!
//! - A **critic trigger** is written when QA or the verifier fails or is inconclusive, or when
//!   their evidence disagrees with the runtime's own check of the same implementation
//!   ([`critic_trigger`]).
//! - A **revision packet** is written before a repair pass, from the answer that asked for it
//!   ([`revision_packet`]): the implementer's narrow brief.
//! - A **fan-out** records a bounded group of read-only calls ([`Fanout::new`]); its safety block
//!   says, and [`super::gates`] holds, that it never satisfies a required gate.

use serde::{Deserialize, Serialize};

use super::answer::{
    CriticVerdict, Critique, Qa, QaVerdict, ReadOnlyRole, Verification, VerifierVerdict,
};

/// Every artifact's `schemaVersion`.
pub const SCHEMA_VERSION: u32 = 1;

/// Why the critic was called (`004`'s reason codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TriggerReason {
    /// QA found a failure (`needs_revision` or `blocked`).
    QaFailed,
    /// QA could not judge (`needs_more_evidence`).
    QaInconclusive,
    /// The verifier asked for a revision or an abort.
    VerifierFailed,
    /// The verifier left it to the person (`ask_user`).
    VerifierInconclusive,
    /// A role's verdict disagrees with the runtime's own check of the same implementation.
    ValidationMismatch,
}

/// A reviewing role whose answer can call the critic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reviewer {
    /// The QA tester.
    Qa,
    /// The verifier.
    Verifier,
}

/// `critic_trigger`: why the runtime summoned the critic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CriticTrigger {
    /// Always 1.
    pub schema_version: u32,
    /// Always `critic_trigger`.
    pub kind: String,
    /// The run's id.
    pub run_id: String,
    /// Always true: the critic was called.
    pub called: bool,
    /// Why.
    pub reason_code: TriggerReason,
    /// Why, in words.
    pub reason: String,
    /// The answers that caused it.
    pub source_roles: Vec<Reviewer>,
    /// Refs of the answers and runs weighed.
    pub evidence_refs: Vec<String>,
    /// The ref of the critic's call this trigger starts.
    pub critic_response_ref: String,
}

/// What the runtime's own check of an implementation found (its sandboxed test run and schema
/// checks), by the implementation's ref.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeCheck {
    /// The implementation checked.
    pub implementation_ref: String,
    /// Whether every check passed.
    pub passed: bool,
    /// The ref of the run's record.
    pub run_ref: String,
}

/// What the reviewers said of one implementation, with their answers' refs.
#[derive(Debug, Clone, Copy)]
pub struct Reviews<'a> {
    /// QA's answer and its ref, if QA ran.
    pub qa: Option<(&'a Qa, &'a str)>,
    /// The verifier's answer and its ref, if it ran.
    pub verification: Option<(&'a Verification, &'a str)>,
    /// The runtime's own check of the same implementation, if it ran.
    pub runtime: Option<&'a RuntimeCheck>,
}

/// The trigger the runtime writes for `reviews`, or `None` when nothing calls the critic.
/// Failures come first, then inconclusive answers, then a disagreement with the runtime's check.
pub fn critic_trigger(
    run_id: &str,
    reviews: Reviews,
    critic_call_ref: &str,
) -> Option<CriticTrigger> {
    let mut sources = Vec::new();
    let mut refs = Vec::new();
    let mut reason = None;
    let mut note = |code: TriggerReason, who: Reviewer, at: &str, why: String| {
        if !sources.contains(&who) {
            sources.push(who);
        }
        if !refs.iter().any(|r: &String| r == at) {
            refs.push(at.to_string());
        }
        match reason {
            Some((c, _)) if rank(c) <= rank(code) => {}
            _ => reason = Some((code, why)),
        }
    };
    if let Some((qa, at)) = reviews.qa {
        match qa.verdict {
            QaVerdict::NeedsRevision | QaVerdict::Blocked => note(
                TriggerReason::QaFailed,
                Reviewer::Qa,
                at,
                format!("QA: {}", qa.summary),
            ),
            QaVerdict::NeedsMoreEvidence => note(
                TriggerReason::QaInconclusive,
                Reviewer::Qa,
                at,
                format!("QA could not judge: {}", qa.summary),
            ),
            QaVerdict::Pass => {
                if let Some(run) = reviews.runtime.filter(|r| !r.passed) {
                    note(
                        TriggerReason::ValidationMismatch,
                        Reviewer::Qa,
                        at,
                        format!(
                            "QA passed it, but the runtime's own run {} failed",
                            run.run_ref
                        ),
                    )
                }
            }
        }
    }
    if let Some((v, at)) = reviews.verification {
        match v.verdict {
            VerifierVerdict::Revise | VerifierVerdict::Abort => note(
                TriggerReason::VerifierFailed,
                Reviewer::Verifier,
                at,
                format!("The verifier: {}", v.summary),
            ),
            VerifierVerdict::AskUser => note(
                TriggerReason::VerifierInconclusive,
                Reviewer::Verifier,
                at,
                format!("The verifier left it to the person: {}", v.summary),
            ),
            VerifierVerdict::Approve => {
                if let Some(run) = reviews.runtime.filter(|r| !r.passed) {
                    note(
                        TriggerReason::ValidationMismatch,
                        Reviewer::Verifier,
                        at,
                        format!(
                            "The verifier approved it, but the runtime's own run {} failed",
                            run.run_ref
                        ),
                    )
                }
            }
        }
    }
    let (reason_code, reason) = reason?;
    if let Some(run) = reviews.runtime {
        if !refs.contains(&run.run_ref) {
            refs.push(run.run_ref.clone());
        }
    }
    Some(CriticTrigger {
        schema_version: SCHEMA_VERSION,
        kind: "critic_trigger".into(),
        run_id: run_id.into(),
        called: true,
        reason_code,
        reason,
        source_roles: sources,
        evidence_refs: refs,
        critic_response_ref: critic_call_ref.into(),
    })
}

/// Which reason a trigger names when several hold: failures, then inconclusive, then a mismatch.
fn rank(code: TriggerReason) -> u8 {
    match code {
        TriggerReason::QaFailed | TriggerReason::VerifierFailed => 0,
        TriggerReason::QaInconclusive | TriggerReason::VerifierInconclusive => 1,
        TriggerReason::ValidationMismatch => 2,
    }
}

/// Why a repair pass is asked for (`004`'s reason codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevisionReason {
    /// QA's verdict was `needs_revision`.
    QaNeedsRevision,
    /// The verifier's verdict was `revise`.
    VerifierRevise,
    /// The critic's verdict was `needs_revision`.
    CriticNeedsRevision,
    /// The critic named blocking concerns.
    CriticBlockingConcerns,
}

/// The role whose answer asked for the repair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevisionSource {
    /// The QA tester.
    Qa,
    /// The verifier.
    Verifier,
    /// The critic.
    Critic,
}

/// `revision_packet`: the implementer's brief for a repair pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevisionPacket {
    /// Always 1.
    pub schema_version: u32,
    /// Always `revision_packet`.
    pub kind: String,
    /// The run's id.
    pub run_id: String,
    /// When it was written (RFC 3339, from the caller's clock).
    pub created_at: String,
    /// Whose answer asked for it.
    pub source_role: RevisionSource,
    /// Why.
    pub reason_code: RevisionReason,
    /// Why, in words.
    pub reason: String,
    /// What the repair must achieve.
    pub repair_objective: String,
    /// How the repair will be judged.
    pub acceptance_criteria: Vec<String>,
    /// Refs of the answers and runs that show the problem.
    pub evidence_refs: Vec<String>,
    /// The ref of the answer that asked for it.
    pub source_response_ref: String,
    /// The critic trigger it follows, if any.
    pub critic_trigger_ref: Option<String>,
}

/// The answer a repair pass follows from.
#[derive(Debug, Clone, Copy)]
pub enum RepairCause<'a> {
    /// QA's answer.
    Qa(&'a Qa),
    /// The verifier's answer.
    Verifier(&'a Verification),
    /// The critic's answer.
    Critic(&'a Critique),
}

/// Where a revision packet comes from, besides its cause.
#[derive(Debug, Clone)]
pub struct RepairContext<'a> {
    /// The run's id.
    pub run_id: &'a str,
    /// The caller's clock, RFC 3339.
    pub now: &'a str,
    /// The ref of the answer that asked for the repair.
    pub source_ref: &'a str,
    /// The task's acceptance criteria (the packet keeps them whole).
    pub acceptance_criteria: &'a [String],
    /// Refs of the evidence (runs, earlier answers).
    pub evidence_refs: Vec<String>,
    /// The critic trigger this repair follows, if any.
    pub critic_trigger_ref: Option<String>,
}

/// The packet the runtime writes before a repair pass, or `None` when `cause` asks for none (a
/// passing QA, an approving verifier, an acceptable critique without blocking concerns).
pub fn revision_packet(cause: RepairCause, context: RepairContext) -> Option<RevisionPacket> {
    let (source_role, reason_code, reason, objective) = match cause {
        RepairCause::Qa(qa) if qa.verdict == QaVerdict::NeedsRevision => (
            RevisionSource::Qa,
            RevisionReason::QaNeedsRevision,
            qa.summary.clone(),
            first_or(&qa.risks, &qa.summary),
        ),
        RepairCause::Verifier(v) if v.verdict == VerifierVerdict::Revise => (
            RevisionSource::Verifier,
            RevisionReason::VerifierRevise,
            v.summary.clone(),
            if v.failed_criteria.is_empty() {
                v.next_action.instruction.clone()
            } else {
                format!("Meet: {}", v.failed_criteria.join("; "))
            },
        ),
        RepairCause::Critic(c) if !c.blocking_concerns.is_empty() => (
            RevisionSource::Critic,
            RevisionReason::CriticBlockingConcerns,
            c.blocking_concerns.join("; "),
            c.recommended_next_action.clone(),
        ),
        RepairCause::Critic(c) if c.verdict == CriticVerdict::Unsafe => (
            RevisionSource::Critic,
            RevisionReason::CriticBlockingConcerns,
            format!(
                "The critic found the work unsafe: {}",
                c.recommended_next_action
            ),
            c.recommended_next_action.clone(),
        ),
        RepairCause::Critic(c) if c.verdict == CriticVerdict::NeedsRevision => (
            RevisionSource::Critic,
            RevisionReason::CriticNeedsRevision,
            c.recommended_next_action.clone(),
            c.recommended_next_action.clone(),
        ),
        _ => return None,
    };
    let mut evidence_refs = context.evidence_refs;
    if !evidence_refs.iter().any(|r| r == context.source_ref) {
        evidence_refs.insert(0, context.source_ref.to_string());
    }
    Some(RevisionPacket {
        schema_version: SCHEMA_VERSION,
        kind: "revision_packet".into(),
        run_id: context.run_id.into(),
        created_at: context.now.into(),
        source_role,
        reason_code,
        reason,
        repair_objective: objective,
        acceptance_criteria: context.acceptance_criteria.to_vec(),
        evidence_refs,
        source_response_ref: context.source_ref.into(),
        critic_trigger_ref: context.critic_trigger_ref,
    })
}

fn first_or(items: &[String], otherwise: &str) -> String {
    items
        .first()
        .map_or_else(|| otherwise.to_string(), Clone::clone)
}

/// How a fan-out ended, and how each slot did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FanoutStatus {
    /// Every slot answered.
    Completed,
    /// A slot answered `blocked`.
    Blocked,
    /// A slot failed.
    Failed,
}

/// How many slots were asked for, allowed and run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FanoutBounds {
    /// What the decision asked for.
    pub requested_items: u32,
    /// The run's own maximum.
    pub max_items: u32,
    /// `004`'s hard maximum, 8.
    pub hard_max_items: u32,
    /// How many ran.
    pub executed_items: u32,
}

/// What a fan-out may never do; constant, and said in the artifact so a reader need not trust
/// the runtime's word alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FanoutSafety {
    /// Always true: its answers are advisory.
    pub sidecar_only: bool,
    /// Always true: only roles that read.
    pub read_only_roles_only: bool,
    /// Always false: no gate counts its answers.
    pub can_satisfy_required_gates: bool,
}

/// The ref of a slot's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseRef {
    /// The call's ref.
    pub r#ref: String,
}

/// One slot of a fan-out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FanoutItem {
    /// The slot's number, from 0.
    pub index: u32,
    /// The role it played.
    pub role: ReadOnlyRole,
    /// What it was summoned for (the contract's key).
    pub summon_kind: String,
    /// How it ended.
    pub status: FanoutStatus,
    /// Its answer.
    pub response_artifact: ResponseRef,
}

/// `fanout`: a bounded group of read-only calls of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fanout {
    /// Always 1.
    pub schema_version: u32,
    /// Always `fanout`.
    pub kind: String,
    /// The run's id.
    pub run_id: String,
    /// When it was written (RFC 3339, from the caller's clock).
    pub created_at: String,
    /// How it ended: failed if a slot failed, else blocked if one was, else completed.
    pub status: FanoutStatus,
    /// The counts.
    pub bounds: FanoutBounds,
    /// `parallel` here: the slots run at once (thehood ran them one after another and wrote
    /// `sequential`).
    pub execution: String,
    /// What it may never do.
    pub safety: FanoutSafety,
    /// What every slot was asked.
    pub instruction: String,
    /// The slots.
    pub items: Vec<FanoutItem>,
}

/// `004`'s hard maximum of slots in one fan-out.
pub const FANOUT_HARD_MAX: u32 = 8;

/// How many slots a request for `requested` runs under the run's maximum `run_max` (itself held
/// to the hard maximum).
pub fn fanout_slots(requested: u32, run_max: u32) -> u32 {
    requested.min(run_max.min(FANOUT_HARD_MAX))
}

impl Fanout {
    /// The record of a finished fan-out.
    pub fn new(
        run_id: &str,
        now: &str,
        requested: u32,
        run_max: u32,
        instruction: &str,
        items: Vec<FanoutItem>,
    ) -> Fanout {
        let status = if items.iter().any(|i| i.status == FanoutStatus::Failed) {
            FanoutStatus::Failed
        } else if items.iter().any(|i| i.status == FanoutStatus::Blocked) {
            FanoutStatus::Blocked
        } else {
            FanoutStatus::Completed
        };
        Fanout {
            schema_version: SCHEMA_VERSION,
            kind: "fanout".into(),
            run_id: run_id.into(),
            created_at: now.into(),
            status,
            bounds: FanoutBounds {
                requested_items: requested,
                max_items: run_max.min(FANOUT_HARD_MAX),
                hard_max_items: FANOUT_HARD_MAX,
                executed_items: items.len() as u32,
            },
            execution: "parallel".into(),
            safety: FanoutSafety {
                sidecar_only: true,
                read_only_roles_only: true,
                can_satisfy_required_gates: false,
            },
            instruction: instruction.into(),
            items,
        }
    }
}
