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
use serde_json::Value;

use super::answer::{
    CriticVerdict, Critique, Qa, QaVerdict, ReadOnlyRole, Verification, VerifierVerdict,
};
use roundtable_engine::validate::Violation;

/// Every artifact's `schemaVersion`.
pub const SCHEMA_VERSION: u32 = 1;

/// Why the critic was called (`004`'s reason codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TriggerReason {
    /// QA found a failure (`needs_revision`) where the runtime's run did not pass.
    QaFailed,
    /// QA could not judge (`needs_more_evidence` or `blocked`).
    QaInconclusive,
    /// The verifier asked for a revision or an abort.
    VerifierFailed,
    /// The verifier left it to the person (`ask_user`).
    VerifierInconclusive,
    /// A role's verdict disagrees with the runtime's own check of the same implementation (QA
    /// or the verifier passing a failed run, QA asking to revise a passing one).
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
            // QA asking for a revision of code whose run passed disagrees with the runtime.
            QaVerdict::NeedsRevision if reviews.runtime.is_some_and(|r| r.passed) => note(
                TriggerReason::ValidationMismatch,
                Reviewer::Qa,
                at,
                format!(
                    "QA asks for a revision, but the runtime's own run {} passed: {}",
                    reviews.runtime.map_or("", |r| r.run_ref.as_str()),
                    qa.summary
                ),
            ),
            QaVerdict::NeedsRevision => note(
                TriggerReason::QaFailed,
                Reviewer::Qa,
                at,
                format!("QA: {}", qa.summary),
            ),
            // Blocked or wanting evidence, QA could not judge.
            QaVerdict::NeedsMoreEvidence | QaVerdict::Blocked => note(
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
    /// The slot's number, from 1, in order.
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
    /// `parallel` when every slot ran at once (one role); `sequential` when the roles of a
    /// mixed fan-out ran one after another, as `004`'s own runtime wrote for all.
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
        execution: &str,
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
            execution: execution.into(),
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

/// One of the runtime's artifacts, as read back by [`check_artifact`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Artifact {
    /// A `critic_trigger`.
    CriticTrigger(CriticTrigger),
    /// A `revision_packet`.
    RevisionPacket(RevisionPacket),
    /// A `fanout`.
    Fanout(Fanout),
}

/// Collects an artifact's violations, each at its JSON pointer.
struct Checker {
    errors: Vec<Violation>,
}

type Obj = serde_json::Map<String, Value>;

impl Checker {
    fn say(&mut self, at: String, message: String, expected: &str, received: &str) {
        self.errors.push(Violation::at(
            at,
            message,
            expected,
            received,
            "an artifact is the runtime's: it is written as 004 writes it, never by hand",
        ));
    }

    fn object<'a>(&mut self, value: &'a Value, at: &str, keys: &[&str]) -> Option<&'a Obj> {
        let Some(o) = value.as_object() else {
            self.say(
                at.into(),
                "not an object".into(),
                "an object",
                &short(value),
            );
            return None;
        };
        for k in o.keys().filter(|k| !keys.contains(&k.as_str())) {
            self.say(
                format!("{at}/{k}"),
                format!("004 names no field {k} here"),
                &keys.join(", "),
                k,
            );
        }
        Some(o)
    }

    fn field<'a>(&mut self, o: &'a Obj, at: &str, key: &str) -> Option<&'a Value> {
        let v = o.get(key);
        if v.is_none() {
            self.say(
                format!("{at}/{key}"),
                format!("{key} is missing"),
                key,
                "nothing",
            );
        }
        v
    }

    fn string<'a>(&mut self, o: &'a Obj, at: &str, key: &str, non_empty: bool) -> Option<&'a str> {
        let v = self.field(o, at, key)?;
        match v.as_str() {
            Some(s) if !non_empty || !s.trim().is_empty() => Some(s),
            _ => {
                self.say(
                    format!("{at}/{key}"),
                    format!("{key} must be a non-empty string"),
                    "a string",
                    &short(v),
                );
                None
            }
        }
    }

    fn count(&mut self, o: &Obj, at: &str, key: &str) -> Option<u64> {
        let v = self.field(o, at, key)?;
        let n = v.as_u64();
        if n.is_none() {
            self.say(
                format!("{at}/{key}"),
                format!("{key} must be a whole number"),
                "a number from 0",
                &short(v),
            );
        }
        n
    }

    fn exactly(&mut self, o: &Obj, at: &str, key: &str, want: &Value) {
        if let Some(v) = self.field(o, at, key) {
            if v != want {
                self.say(
                    format!("{at}/{key}"),
                    format!("{key} is always {want}"),
                    &want.to_string(),
                    &short(v),
                );
            }
        }
    }

    fn one_of<'a>(&mut self, o: &'a Obj, at: &str, key: &str, allowed: &[&str]) -> Option<&'a str> {
        let v = self.field(o, at, key)?;
        match v.as_str().filter(|s| allowed.contains(s)) {
            Some(s) => Some(s),
            None => {
                self.say(
                    format!("{at}/{key}"),
                    format!("{key} is not one of 004's values"),
                    &allowed.join(", "),
                    &short(v),
                );
                None
            }
        }
    }

    fn strings<'a>(&mut self, o: &'a Obj, at: &str, key: &str) -> Vec<&'a str> {
        let Some(v) = self.field(o, at, key) else {
            return Vec::new();
        };
        let Some(items) = v.as_array() else {
            self.say(
                format!("{at}/{key}"),
                format!("{key} must be a list of strings"),
                "a list",
                &short(v),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (n, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(s) => out.push(s),
                None => self.say(
                    format!("{at}/{key}/{n}"),
                    "not a string".into(),
                    "a string",
                    &short(item),
                ),
            }
        }
        out
    }
}

fn short(v: &Value) -> String {
    roundtable_engine::text::cut_at_word(&v.to_string(), 80).to_string()
}

/// The reason codes, source roles and statuses as `004` spells them.
const TRIGGER_CODES: [&str; 5] = [
    "qa_failed",
    "qa_inconclusive",
    "verifier_failed",
    "verifier_inconclusive",
    "validation_mismatch",
];
const PACKET_CODES: [&str; 4] = [
    "qa_needs_revision",
    "verifier_revise",
    "critic_needs_revision",
    "critic_blocking_concerns",
];
const FANOUT_STATUS: [&str; 3] = ["completed", "blocked", "failed"];
/// `004`'s roles of a fan-out item (ours run only read-only roles; `004` lists the orchestrator).
const FANOUT_ROLES: [&str; 6] = [
    "orchestrator",
    "planner",
    "researcher",
    "qa",
    "verifier",
    "critic",
];

/// Checks one artifact as `004` writes it — `critic_trigger`, `revision_packet` or `fanout`, by
/// its `kind` — against its fields, values and the rules across them, for the run `run_id`
/// (`None`: any run): every violation with its pointer, else the artifact. The runtime holds
/// what it writes to this, and an imported session whose replay would write anything else is
/// refused.
pub fn check_artifact(value: &Value, run_id: Option<&str>) -> Result<Artifact, Vec<Violation>> {
    let mut c = Checker { errors: Vec::new() };
    let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
    let keys: &[&str] = match kind {
        "critic_trigger" => &[
            "schemaVersion",
            "kind",
            "runId",
            "called",
            "reasonCode",
            "reason",
            "sourceRoles",
            "evidenceRefs",
            "criticResponseRef",
        ],
        "revision_packet" => &[
            "schemaVersion",
            "kind",
            "runId",
            "createdAt",
            "sourceRole",
            "reasonCode",
            "reason",
            "repairObjective",
            "acceptanceCriteria",
            "evidenceRefs",
            "sourceResponseRef",
            "criticTriggerRef",
        ],
        "fanout" => &[
            "schemaVersion",
            "kind",
            "runId",
            "createdAt",
            "status",
            "bounds",
            "execution",
            "safety",
            "instruction",
            "items",
        ],
        _ => {
            c.say(
                "/kind".into(),
                "not one of the runtime's artifacts".into(),
                "critic_trigger, revision_packet or fanout",
                &short(value.get("kind").unwrap_or(&Value::Null)),
            );
            return Err(c.errors);
        }
    };
    let Some(o) = c.object(value, "", keys) else {
        return Err(c.errors);
    };
    c.exactly(o, "", "schemaVersion", &Value::from(SCHEMA_VERSION));
    if let Some(id) = c.string(o, "", "runId", true) {
        if let Some(want) = run_id.filter(|w| *w != id) {
            c.say(
                "/runId".into(),
                "the artifact is another run's".into(),
                want,
                id,
            );
        }
    }
    match kind {
        "critic_trigger" => {
            c.exactly(o, "", "called", &Value::Bool(true));
            let code = c.one_of(o, "", "reasonCode", &TRIGGER_CODES);
            c.string(o, "", "reason", true);
            let sources = c.strings(o, "", "sourceRoles");
            for (n, s) in sources.iter().enumerate() {
                if !["qa", "verifier"].contains(s) {
                    c.say(
                        format!("/sourceRoles/{n}"),
                        "only QA or the verifier calls the critic".into(),
                        "qa or verifier",
                        s,
                    );
                }
            }
            if sources.is_empty() {
                c.say(
                    "/sourceRoles".into(),
                    "a trigger names the review that caused it".into(),
                    "qa or verifier",
                    "[]",
                );
            }
            let needs = code.map(|c| {
                if c.starts_with("qa_") {
                    "qa"
                } else if c.starts_with("verifier_") {
                    "verifier"
                } else {
                    ""
                }
            });
            if let Some(role) = needs.filter(|r| !r.is_empty() && !sources.contains(r)) {
                c.say(
                    "/sourceRoles".into(),
                    format!(
                        "reason {} comes from {role}, which sourceRoles does not name",
                        code.unwrap_or("")
                    ),
                    role,
                    &sources.join(", "),
                );
            }
            c.strings(o, "", "evidenceRefs");
            c.string(o, "", "criticResponseRef", false);
        }
        "revision_packet" => {
            c.string(o, "", "createdAt", true);
            let source = c.one_of(o, "", "sourceRole", &["qa", "verifier", "critic"]);
            let code = c.one_of(o, "", "reasonCode", &PACKET_CODES);
            if let (Some(s), Some(code)) = (source, code) {
                if !code.starts_with(s) {
                    c.say(
                        "/reasonCode".into(),
                        format!("{code} is not a reason {s} gives"),
                        &format!("a {s}_ reason"),
                        code,
                    );
                }
            }
            c.string(o, "", "reason", true);
            c.string(o, "", "repairObjective", true);
            c.strings(o, "", "acceptanceCriteria");
            c.strings(o, "", "evidenceRefs");
            c.string(o, "", "sourceResponseRef", true);
            if let Some(v) = c.field(o, "", "criticTriggerRef") {
                if !(v.is_null() || v.as_str().is_some_and(|s| !s.is_empty())) {
                    c.say(
                        "/criticTriggerRef".into(),
                        "criticTriggerRef is a ref or null".into(),
                        "a string or null",
                        &short(v),
                    );
                }
            }
        }
        _ => check_fanout(&mut c, o),
    }
    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    let read = match kind {
        "critic_trigger" => serde_json::from_value(value.clone()).map(Artifact::CriticTrigger),
        "revision_packet" => serde_json::from_value(value.clone()).map(Artifact::RevisionPacket),
        _ => serde_json::from_value(value.clone()).map(Artifact::Fanout),
    };
    read.map_err(|e| {
        vec![Violation::at(
            String::new(),
            format!("the artifact could not be read: {e}"),
            "004's fields",
            "",
            "",
        )]
    })
}

/// The fan-out's nesting, bounds, safety block and items (each slot once, numbered from 1 in
/// order; the status what its items say).
fn check_fanout(c: &mut Checker, o: &Obj) {
    c.string(o, "", "createdAt", true);
    let status = c.one_of(o, "", "status", &FANOUT_STATUS);
    c.one_of(o, "", "execution", &["sequential", "parallel"]);
    c.string(o, "", "instruction", true);
    let mut executed = None;
    if let Some(b) = c.field(o, "", "bounds").and_then(|b| {
        c.object(
            b,
            "/bounds",
            &[
                "requestedItems",
                "maxItems",
                "hardMaxItems",
                "executedItems",
            ],
        )
    }) {
        let requested = c.count(b, "/bounds", "requestedItems");
        let max = c.count(b, "/bounds", "maxItems");
        c.exactly(b, "/bounds", "hardMaxItems", &Value::from(FANOUT_HARD_MAX));
        executed = c.count(b, "/bounds", "executedItems");
        if let (Some(max), Some(run)) = (max, executed) {
            if max > u64::from(FANOUT_HARD_MAX) || run > max {
                c.say(
                    "/bounds/executedItems".into(),
                    "more items ran than the bounds allow".into(),
                    &format!("at most {max} (maxItems), itself at most 8"),
                    &run.to_string(),
                );
            }
        }
        if let (Some(req), Some(run)) = (requested, executed) {
            if run > req {
                c.say(
                    "/bounds/executedItems".into(),
                    "more items ran than were asked for".into(),
                    &format!("at most {req}"),
                    &run.to_string(),
                );
            }
        }
    }
    if let Some(s) = c.field(o, "", "safety").and_then(|s| {
        c.object(
            s,
            "/safety",
            &[
                "sidecarOnly",
                "readOnlyRolesOnly",
                "canSatisfyRequiredGates",
            ],
        )
    }) {
        c.exactly(s, "/safety", "sidecarOnly", &Value::Bool(true));
        c.exactly(s, "/safety", "readOnlyRolesOnly", &Value::Bool(true));
        c.exactly(s, "/safety", "canSatisfyRequiredGates", &Value::Bool(false));
    }
    let Some(items) = c.field(o, "", "items") else {
        return;
    };
    let Some(items) = items.as_array() else {
        c.say(
            "/items".into(),
            "items must be a list".into(),
            "a list",
            &short(items),
        );
        return;
    };
    if let Some(run) = executed.filter(|n| *n != items.len() as u64) {
        c.say(
            "/bounds/executedItems".into(),
            "executedItems does not count the items".into(),
            &items.len().to_string(),
            &run.to_string(),
        );
    }
    let mut statuses = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let at = format!("/items/{n}");
        let Some(i) = c.object(
            item,
            &at,
            &["index", "role", "summonKind", "status", "responseArtifact"],
        ) else {
            continue;
        };
        if let Some(k) = c.count(i, &at, "index") {
            if k != n as u64 + 1 {
                c.say(
                    format!("{at}/index"),
                    "items are numbered from 1 in order, each slot once".into(),
                    &(n + 1).to_string(),
                    &k.to_string(),
                );
            }
        }
        c.one_of(i, &at, "role", &FANOUT_ROLES);
        c.string(i, &at, "summonKind", true);
        if let Some(s) = c.one_of(i, &at, "status", &FANOUT_STATUS) {
            statuses.push(s);
        }
        if let Some(r) = c
            .field(i, &at, "responseArtifact")
            .and_then(|r| c.object(r, &format!("{at}/responseArtifact"), &["ref"]))
        {
            c.string(r, &format!("{at}/responseArtifact"), "ref", false);
        }
    }
    let want = if statuses.contains(&"failed") {
        "failed"
    } else if statuses.contains(&"blocked") {
        "blocked"
    } else {
        "completed"
    };
    if let Some(s) = status.filter(|s| *s != want && statuses.len() == items.len()) {
        c.say(
            "/status".into(),
            "the status is not what its items say".into(),
            want,
            s,
        );
    }
}
