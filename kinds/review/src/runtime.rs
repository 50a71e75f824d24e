//! What the runtime does with each answer, whatever the model hoped: the rules that refuse an
//! answer the gates or the run forbid ([`ReviewState::problems`]), what waits for the person
//! ([`ReviewState::approval_for`]), and what an applied answer changes — the jobs an orchestrator
//! decision queues, the critic a failing review summons, the revision packet and the repair
//! that follow, QA and the verifier again after it, the sandbox's run of every implementation
//! that wrote JavaScript, the fan-out artifact once its slots are in.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::answer::{
    Action, ChangeType, CriticVerdict, Decision, NextRole, Payload, QaVerdict, ReadOnlyRole,
    Response, Severity, Status, VerifierVerdict,
};
use super::artifacts::{
    self, critic_trigger, revision_packet, Fanout, FanoutItem, FanoutStatus, RepairCause,
    RepairContext, ResponseRef, Reviews,
};
use super::config::{under, ApprovalMode, RiskLevel, Role, RunMode};
use super::gates::VerifierRecord;
use super::prompt::Brief;
use super::record::{iso_utc, Answer, RuntimeRun};
use super::{Facts, ReviewEnvelope, ReviewState, ReviewStep, Section};
use roundtable_engine::code_run::{FileError, RunStatus, TestRun};
use roundtable_engine::engine::{Effect, FoldError, PersonAsk, Protocol as _, Verdict};
use roundtable_engine::validate::Violation;

/// The effect that runs the implementer's JavaScript in the sandbox (the same as autocoding's:
/// one sandbox for every kind).
pub use roundtable_engine::code_run::RUN_CODE;

/// Repair passes the runtime starts within one orchestrator decision before handing the run
/// back to the orchestrator.
pub const REPAIRS_PER_DECISION: usize = 2;

/// What the approval dialog's three buttons do, said once after an ask.
const CHOICES: &str =
    "Approve goes on; Reject ends the run; Ask for a revision sends your note to the orchestrator.";

/// Who the inbox's approvals are put to.
const PERSON: &str = "person";

/// Why a step runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// The runtime's own: the orchestrator's turn, the closing reconciliation.
    Runtime,
    /// The orchestrator's decision in this call.
    Decision(String),
    /// The critic trigger at this index.
    Trigger(usize),
    /// A repair from the revision packet at this index.
    Repair(usize),
    /// QA or the verifier again after the repair from the packet at this index.
    Recheck(usize),
}

/// A fan-out under way: read-only calls, one role each. The calls of one role run at once as
/// one step; the roles run one after another (a job each), and the artifact is written once
/// every call is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FanoutJob {
    /// The role of each call that runs: slot `k` plays `roles[k - 1]` (the first calls asked
    /// for, as many as the run's and `004`'s maximum allow).
    pub roles: Vec<ReadOnlyRole>,
    /// Calls asked for.
    pub requested: u32,
    /// What every call is asked.
    pub instruction: String,
    /// The calls answered so far.
    pub items: Vec<FanoutItem>,
    /// Whether its artifact is written.
    pub written: bool,
}

/// The step a fan-out's role answers at.
fn step_of(role: ReadOnlyRole) -> ReviewStep {
    ReviewStep::of_role(role_of(super::rules::next_role_of(role)))
}

/// A fan-out item's `summonKind`: the key of the contract its call answered
/// (`research_result`).
fn summon_kind(role: ReadOnlyRole) -> String {
    step_of(role).contract().key().to_string()
}

impl FanoutJob {
    /// The role slot `k` plays, if the fan-out has that slot.
    fn role_of_slot(&self, k: u32) -> Option<ReadOnlyRole> {
        (k as usize)
            .checked_sub(1)
            .and_then(|i| self.roles.get(i))
            .copied()
    }

    /// The slots that play `role`, numbered from 1 across the whole fan-out.
    fn slots_of(&self, role: ReadOnlyRole) -> Vec<u32> {
        (1..)
            .zip(&self.roles)
            .filter(|(_, r)| **r == role)
            .map(|(k, _)| k)
            .collect()
    }

    /// The roles in the order they run: each at its first call.
    fn role_order(&self) -> Vec<ReadOnlyRole> {
        let mut order: Vec<ReadOnlyRole> = Vec::new();
        for r in &self.roles {
            if !order.contains(r) {
                order.push(*r);
            }
        }
        order
    }

    /// 004's `execution`: `parallel` when every call ran at once (one role), else `sequential`
    /// (the roles ran one after another).
    fn execution(&self) -> &'static str {
        if self.role_order().len() > 1 {
            "sequential"
        } else {
            "parallel"
        }
    }
}

/// One step the runtime will run, or is running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The step.
    pub step: ReviewStep,
    /// The work.
    pub brief: Brief,
    /// Why it runs.
    pub cause: Cause,
    /// The fan-out slots this step runs (its role's share of the fan-out under way), when it
    /// is part of one.
    pub slots: Option<Vec<u32>>,
}

impl Job {
    fn new(step: ReviewStep, objective: &str, criteria: &[String], cause: Cause) -> Job {
        Job {
            step,
            brief: Brief {
                objective: objective.to_string(),
                acceptance_criteria: criteria.to_vec(),
                ..Brief::default()
            },
            cause,
            slots: None,
        }
    }
}

/// Why the run closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunEnd {
    /// The orchestrator completed it with every gate met.
    Completed,
    /// The orchestrator aborted it.
    Aborted,
    /// The person rejected an approval.
    Rejected,
    /// The verifier said abort and the person agreed.
    VerifierAborted,
    /// The orchestrator's decision asked to stop after its work.
    Stopped,
    /// `max_iterations` calls were made.
    Iterations,
    /// The time budget is spent.
    Time,
    /// The person wrapped up.
    WrappedUp,
}

impl RunEnd {
    /// The end in a person's words.
    pub fn words(self) -> &'static str {
        match self {
            RunEnd::Completed => "completed: every gate met",
            RunEnd::Aborted => "was stopped by the orchestrator",
            RunEnd::Rejected => "stopped: the person rejected an approval",
            RunEnd::VerifierAborted => "stopped: the verifier said abort and the person agreed",
            RunEnd::Stopped => "stopped at the orchestrator's word",
            RunEnd::Iterations => "stopped: it used every call it was allowed",
            RunEnd::Time => "stopped: it ran out of time",
            RunEnd::WrappedUp => "was wrapped up by you",
        }
    }
}

/// `text` as a sentence after another: " text." (nothing when empty).
fn sentence(text: &str) -> String {
    let t = text.trim();
    if t.is_empty() {
        String::new()
    } else if t.ends_with(['.', '?', '!']) {
        format!(" {t}")
    } else {
        format!(" {t}.")
    }
}

/// A run's output as the sandbox gave it, or an `error` run saying why it could not be read.
fn read_run(output: &Value) -> TestRun {
    serde_json::from_value(output.clone()).unwrap_or_else(|e| TestRun {
        status: RunStatus::Error,
        tests: Vec::new(),
        errors: vec![FileError {
            file: String::new(),
            message: format!("the runner's answer could not be read: {e}"),
        }],
    })
}

/// A run in one line: "failed: 2 of 3 tests passed".
pub fn run_words(run: &TestRun) -> String {
    let passed = run.tests.iter().filter(|t| t.passed).count();
    let mut s = format!(
        "{}: {passed} of {} tests passed",
        run.status.words(),
        run.tests.len()
    );
    for t in run.tests.iter().filter(|t| !t.passed) {
        s.push_str(&format!("; {} fails: {}", t.name, t.message));
    }
    for e in &run.errors {
        if e.file.is_empty() {
            // The run's own trouble (it crashed the page, it could not start), no file's.
            s.push_str(&format!("; {}", e.message));
        } else {
            s.push_str(&format!("; {} did not load: {}", e.file, e.message));
        }
    }
    s
}

impl ReviewState {
    /// The open asks of the inbox.
    fn open_asks(&self) -> usize {
        self.core.open_asks().count()
    }

    /// Whether the run's mode lets files change.
    fn edits_allowed(&self) -> bool {
        matches!(self.config.mode, RunMode::Implement | RunMode::Review)
    }

    /// The task of the latest implementation the orchestrator delegated: what repairs and
    /// rechecks are judged against (the run's success criteria when none was delegated).
    fn task(&self) -> Brief {
        self.record
            .answers
            .iter()
            .rev()
            .filter(|a| a.step == ReviewStep::Orchestrator)
            .find_map(|a| match &a.response.payload {
                Payload::Decision(d) if d.next_role == Some(NextRole::Implementer) => {
                    d.task.as_ref().map(brief_of)
                }
                _ => None,
            })
            .unwrap_or_else(|| Brief {
                objective: self.config.user_goal.clone(),
                acceptance_criteria: self.config.success_criteria.clone(),
                ..Brief::default()
            })
    }

    /// The latest plan's items: its top-level list items (`1. …`, `- …`), each by its name —
    /// the bold words, else the words before a colon, else the whole line.
    pub(super) fn plan_items(&self) -> Vec<String> {
        let Some((_, plan)) = self.record.plans().last().copied() else {
            return Vec::new();
        };
        plan.lines()
            .filter_map(|line| {
                let rest = line
                    .strip_prefix("- ")
                    .or_else(|| line.strip_prefix("* "))
                    .or_else(|| {
                        let digits = line.find(|c: char| !c.is_ascii_digit())?;
                        (digits > 0).then(|| line[digits..].strip_prefix(". "))?
                    })?;
                let name = match rest.split_once("**") {
                    Some(("", bold)) => bold.split_once("**").map_or(bold, |(b, _)| b),
                    _ => rest.split_once(':').map_or(rest, |(b, _)| b),
                };
                let name = name.trim().trim_matches('`').trim();
                (!name.is_empty()).then(|| name.to_string())
            })
            .collect()
    }

    /// Repair passes started since the orchestrator's latest decision.
    fn repairs_this_decision(&self) -> usize {
        self.record
            .packets
            .len()
            .saturating_sub(self.packets_at_decision)
    }

    /// How risky the run is now, for `auto_low_risk`: the highest of the verifier's risks and
    /// the implementer's open risks (any open risk is medium).
    fn risk(&self, response: &Response) -> Severity {
        let mut risk = match self.config.risk_level {
            RiskLevel::Low => Severity::Low,
            RiskLevel::Medium => Severity::Medium,
            RiskLevel::High => Severity::High,
        };
        let mut raise = |s: Severity| {
            if matches!(
                (risk, s),
                (Severity::Low, Severity::Medium | Severity::High)
                    | (Severity::Medium, Severity::High)
            ) {
                risk = s;
            }
        };
        if let Some(a) = self.record.latest(ReviewStep::Verifier) {
            if let Payload::Verification(v) = &a.response.payload {
                v.risks.iter().for_each(|r| raise(r.severity));
            }
        }
        if let Payload::Implementation(i) = &response.payload {
            if !i.unresolved_risks.is_empty() {
                raise(Severity::Medium);
            }
        }
        risk
    }

    /// Whether the approval mode asks the person for what the policy names.
    fn policy_asks(&self, response: &Response) -> bool {
        match self.config.approval_mode {
            ApprovalMode::Manual => true,
            ApprovalMode::AutoLowRisk => self.risk(response) != Severity::Low,
            ApprovalMode::Autopilot => false,
        }
    }

    /// Every rule of the run `response` (to `call`) breaks; empty when the runtime accepts it.
    pub(super) fn problems(
        &self,
        call: &roundtable_engine::engine::StoredCall,
        response: &Response,
    ) -> Vec<Violation> {
        let mut out = Vec::new();
        match (&response.payload, Self::step_of(call.step)) {
            (Payload::Decision(d), ReviewStep::Orchestrator) => self.decision_problems(d, &mut out),
            (Payload::Decision(d), ReviewStep::Planner)
                if d.markdown.as_deref().is_none_or(|m| m.trim().is_empty()) =>
            {
                out.push(Violation::at(
                    "/data/decision/markdown".into(),
                    "the plan is missing: the planner's plan goes in markdown".into(),
                    "the plan as GitHub-flavored Markdown",
                    "null",
                    "write the plan's slices, each with its acceptance criteria, in markdown",
                ));
            }
            (Payload::Implementation(i), _) => self.implementation_problems(i, &mut out),
            (Payload::Verification(v), _) => self.verification_problems(v, &mut out),
            (Payload::Reconciliation(r), _)
                if r.status == super::answer::ReconciliationStatus::Complete =>
            {
                // Every item of the latest plan is accounted for, done or missing.
                let listed: Vec<String> = r
                    .completed_plan_items
                    .iter()
                    .chain(&r.missing_plan_items)
                    .map(|i| i.to_lowercase())
                    .collect();
                for item in self.plan_items() {
                    if !listed.iter().any(|l| l.contains(&item.to_lowercase())) {
                        out.push(Violation::at(
                            "/data/reconciliation_result/completed_plan_items".into(),
                            format!("the plan's item \"{item}\" is neither done nor missing"),
                            &format!("\"{item}\" in completed_plan_items or missing_plan_items"),
                            "neither",
                            "account for every item of the plan: done, or missing",
                        ));
                    }
                }
                let end = self.closing();
                let failed = matches!(
                    end,
                    Some(RunEnd::Aborted | RunEnd::Rejected | RunEnd::VerifierAborted)
                );
                let unmet = self.record.unmet(0);
                if failed || !unmet.is_empty() {
                    let why = if failed {
                        format!("the run was {}", end.map_or("", RunEnd::words))
                    } else {
                        unmet
                            .iter()
                            .map(|u| u.why.clone())
                            .collect::<Vec<_>>()
                            .join("; ")
                    };
                    out.push(Violation::at(
                        "/data/reconciliation_result/status".into(),
                        format!("a run that did not pass its gates is not complete: {why}"),
                        "partial, off_plan or blocked",
                        "complete",
                        "say partial (or blocked) and list what is missing",
                    ));
                }
            }
            _ => {}
        }
        out
    }

    fn decision_problems(&self, d: &Decision, out: &mut Vec<Violation>) {
        let at = |field: &str| format!("/data/decision/{field}");
        // A role this run does not have is never summoned.
        let summoned = match d.action {
            Action::Delegate | Action::RequestApproval => d
                .next_role
                .filter(|r| *r != NextRole::Integrator)
                .map(role_of),
            Action::Verify => Some(Role::Verifier),
            Action::Critique => Some(Role::Critic),
            Action::RevisePlan => Some(Role::Planner),
            _ => None,
        };
        if let Some(role) = summoned.filter(|r| !self.config.available(*r)) {
            let have: Vec<&str> = self
                .config
                .available_worker_types
                .iter()
                .map(|r| r.id())
                .collect();
            out.push(Violation::at(
                at(if d.action == Action::Delegate {
                    "next_role"
                } else {
                    "action"
                }),
                format!("this run has no {}", role.words()),
                &format!("a role of this run: {}", have.join(", ")),
                role.id(),
                "work with the roles this run has",
            ));
        }
        // Every call of a fan-out plays a role of this run.
        for (k, r) in d.fanout.iter().flat_map(|f| f.roles.iter().enumerate()) {
            let role = role_of(super::rules::next_role_of(*r));
            if !self.config.available(role) {
                let have: Vec<&str> = self
                    .config
                    .available_worker_types
                    .iter()
                    .filter(|r| **r != Role::Implementer)
                    .map(|r| r.id())
                    .collect();
                out.push(Violation::at(
                    format!("/data/decision/fanout/roles/{k}"),
                    format!("this run has no {}", role.words()),
                    &format!("a read-only role of this run: {}", have.join(", ")),
                    role.id(),
                    "fan out to the roles this run has",
                ));
            }
        }
        match d.action {
            Action::Complete => {
                for unmet in self.record.unmet(self.open_asks()) {
                    out.push(Violation::at(
                        at("action"),
                        format!("complete is refused: {}", unmet.why),
                        "an action that meets the gate first",
                        "complete",
                        "verify the latest implementation (and repair it if its run fails) before complete",
                    ));
                }
            }
            Action::Delegate
                if d.next_role == Some(NextRole::Implementer) && !self.edits_allowed() =>
            {
                out.push(Violation::at(
                    at("next_role"),
                    "this run changes no files: its mode is plan or research".into(),
                    "planner, researcher, qa, verifier or critic",
                    "implementer",
                    "plan or research instead, or complete with what is known",
                ));
            }
            Action::Verify if self.record.latest_implementation().is_none() => {
                out.push(Violation::at(
                    at("action"),
                    "there is nothing to verify: nothing has been implemented".into(),
                    "delegate (to the implementer) first",
                    "verify",
                    "delegate the work before asking for verification",
                ))
            }
            _ => {}
        }
    }

    /// The verifier answers every acceptance criterion: a failed one is named as the task
    /// writes it, and an approval fails none and names its evidence.
    fn verification_problems(&self, v: &super::answer::Verification, out: &mut Vec<Violation>) {
        let at = |rest: &str| format!("/data/verification_result/{rest}");
        let mut criteria = self
            .current
            .as_ref()
            .map(|j| j.brief.acceptance_criteria.clone())
            .unwrap_or_default();
        if criteria.is_empty() {
            criteria = self.task().acceptance_criteria;
        }
        for (n, c) in v.failed_criteria.iter().enumerate() {
            if !criteria.iter().any(|k| k.trim() == c.trim()) {
                out.push(Violation::at(
                    at(&format!("failed_criteria/{n}")),
                    "this is not an acceptance criterion of the task".into(),
                    &criteria.join(" | "),
                    c,
                    "name a failed criterion exactly as the task writes it",
                ));
            }
        }
    }

    /// What the run forbids an implementation: writing outside the task's paths, changing a
    /// protected file without saying why, deleting a file the run does not hold (what the
    /// answer alone must say is [`super::rules`]'s).
    fn implementation_problems(&self, i: &super::answer::Implementation, out: &mut Vec<Violation>) {
        let at = |rest: String| format!("/data/implementation_result/{rest}");
        let task = self
            .current
            .as_ref()
            .map(|j| j.brief.clone())
            .unwrap_or_default();
        let current = self.record.current_files();
        for (n, f) in i.files.iter().enumerate() {
            let p = f.path.as_str();
            if p.starts_with('/')
                || p.contains('\\')
                || p.split('/').any(|s| s == ".." || s.is_empty())
            {
                continue;
            }
            if !task.allowed_paths.is_empty() && !task.allowed_paths.iter().any(|a| under(p, a)) {
                out.push(Violation::at(
                    at(format!("files/{n}/path")),
                    "the task does not allow writing this path".into(),
                    &format!("a path under {}", task.allowed_paths.join(", ")),
                    p,
                    "write only inside the task's allowed paths",
                ));
            }
            let run = &self.config;
            if !run.allowed_paths.is_empty() && !run.allowed_paths.iter().any(|a| under(p, a)) {
                out.push(Violation::at(
                    at(format!("files/{n}/path")),
                    "the run does not allow writing this path".into(),
                    &format!("a path under {}", run.allowed_paths.join(", ")),
                    p,
                    "write only inside the run's allowed paths",
                ));
            }
            if task
                .disallowed_paths
                .iter()
                .chain(&run.disallowed_paths)
                .any(|d| under(p, d))
            {
                out.push(Violation::at(
                    at(format!("files/{n}/path")),
                    "the task forbids writing this path".into(),
                    "a path outside the disallowed ones",
                    p,
                    "leave the disallowed paths alone",
                ));
            }
        }
        // A protected file (under a protected test path, or an acceptance test) changed in any
        // way — written, deleted, renamed — is declared with its reason, else refused.
        for (n, c) in i.changed_files.iter().enumerate() {
            let declared = i.protected_file_changes.iter().any(|d| d.path == c.path);
            if self.config.protected(&c.path) && !declared {
                out.push(Violation::at(
                    at(format!("changed_files/{n}/path")),
                    format!(
                        "{} is a protected test file (the person's acceptance test), changed without saying why",
                        c.path
                    ),
                    "an entry in protected_file_changes with the reason",
                    &c.path,
                    "list it in protected_file_changes with why (the person then decides), or leave it alone",
                ));
            }
            if c.change_type == ChangeType::Deleted && !current.iter().any(|f| f.path == c.path) {
                out.push(Violation::at(
                    at(format!("changed_files/{n}/path")),
                    "there is no such file to delete".into(),
                    "a path of a file the run holds",
                    &c.path,
                    "delete only files that exist",
                ));
            }
        }
    }

    /// What `response` puts to the person before it counts, if anything: a blocked or failed
    /// answer, the orchestrator's `request_approval`, and what the policy names in the
    /// approval mode (a protected test path always). A fan-out slot never asks.
    pub(super) fn approval_for(
        &self,
        call: &roundtable_engine::engine::StoredCall,
        response: &Response,
    ) -> Option<PersonAsk> {
        if ReviewState::split_slot(&call.member).1.is_some()
            || Self::step_of(call.step) == ReviewStep::Reconciliation
        {
            return None;
        }
        let ask = |message: String| {
            Some(PersonAsk::Approval {
                to: vec![PERSON.into()],
                message,
            })
        };
        let choices = CHOICES;
        if response.status != Status::Ok {
            let what = if response.status == Status::Blocked {
                "is blocked"
            } else {
                "failed"
            };
            return ask(format!(
                "It {what}: {} Approve records it and lets the orchestrator decide; Reject ends the run; Ask for a revision sends your note to the orchestrator.",
                response.summary
            ));
        }
        match &response.payload {
            Payload::Decision(d) if Self::step_of(call.step) == ReviewStep::Orchestrator => {
                if d.action == Action::RequestApproval {
                    return ask(format!(
                        "{} {choices}",
                        d.approval_request.reason.as_deref().unwrap_or(&d.reason)
                    ));
                }
                self.policy_ask(call, response)
            }
            Payload::Verification(v) if v.verdict == VerifierVerdict::AskUser => ask(format!(
                "{}{} Write your answer in the note and Approve to go on; Reject ends the run; Ask for a revision sends your note to the orchestrator.",
                v.summary.trim_end(),
                sentence(&v.next_action.instruction)
            )),
            Payload::Verification(v) if v.verdict == VerifierVerdict::Abort => ask(format!(
                "The verifier says to stop the run: {} Approve ends the run; Ask for a revision sends your note to the orchestrator and the run goes on.",
                v.summary
            )),
            Payload::Critique(c)
                if c.verdict == CriticVerdict::Unsafe
                    || (c.verdict == CriticVerdict::Unclear && !c.blocking_concerns.is_empty()) =>
            {
                let what = if c.verdict == CriticVerdict::Unsafe {
                    "finds the work unsafe"
                } else {
                    "cannot tell whether the work is sound"
                };
                let concerns = if c.blocking_concerns.is_empty() {
                    c.recommended_next_action.clone()
                } else {
                    c.blocking_concerns.join("; ")
                };
                ask(format!(
                    "The critic {what}: {}. Approve has the implementer repair it from these concerns; Reject ends the run; Ask for a revision sends your note to the orchestrator.",
                    concerns.trim_end_matches('.')
                ))
            }
            Payload::Implementation(i) => {
                let mut protected: Vec<&str> = i
                    .files
                    .iter()
                    .map(|f| f.path.as_str())
                    .chain(i.changed_files.iter().map(|c| c.path.as_str()))
                    .filter(|p| self.config.protected(p))
                    .collect();
                protected.dedup();
                protected.sort_unstable();
                protected.dedup();
                if !protected.is_empty() {
                    return ask(format!(
                        "It changes your protected tests: {}. Why: {} {choices}",
                        protected.join(", "),
                        i.protected_file_changes
                            .iter()
                            .map(|c| c.reason.as_str())
                            .collect::<Vec<_>>()
                            .join("; ")
                    ));
                }
                self.policy_ask(call, response)
            }
            _ => None,
        }
    }

    /// What the approval policy names in `response` (network use, a new dependency, an
    /// edit), each as (what, the question put to the person), whatever the mode.
    fn policy_named(
        &self,
        call: &roundtable_engine::engine::StoredCall,
        response: &Response,
    ) -> Vec<(String, String)> {
        let name = self.member_name_of(&call.member);
        let choices = CHOICES;
        let policy = self.config.approval_policy;
        let mut out = Vec::new();
        match &response.payload {
            Payload::Decision(d) if Self::step_of(call.step) == ReviewStep::Orchestrator => {
                let network = d.task.as_ref().is_some_and(|t| t.tool_permissions.network);
                if network && policy.network_requires_approval {
                    let role = d.next_role.map_or("role", |r| role_of(r).words());
                    out.push((
                        format!("{name} let the {role} reach the network"),
                        format!(
                            "It lets the {role} reach the network: {} {choices}",
                            d.task.as_ref().map_or("", |t| t.objective.as_str())
                        ),
                    ));
                }
            }
            Payload::Implementation(i) => {
                let dependency = i.files.iter().any(|f| {
                    let file = f.path.rsplit('/').next().unwrap_or("");
                    matches!(
                        file,
                        "package.json" | "requirements.txt" | "Cargo.toml" | "go.mod"
                    )
                }) || i.commands_run.iter().any(|c| {
                    let c = c.command.to_lowercase();
                    c.contains(" install") || c.contains(" add ")
                });
                if dependency && policy.dependency_install_requires_approval {
                    out.push((
                        format!("{name} added a dependency"),
                        format!("It adds a dependency. {choices}"),
                    ));
                }
                if policy.edit_requires_approval && !i.changed_files.is_empty() {
                    let files: Vec<String> = i
                        .changed_files
                        .iter()
                        .map(|c| format!("{} ({})", c.path, c.summary))
                        .collect();
                    let paths: Vec<&str> =
                        i.changed_files.iter().map(|c| c.path.as_str()).collect();
                    out.push((
                        format!("{name} wrote {}", paths.join(", ")),
                        format!("It wants to write {}. {choices}", files.join(", ")),
                    ));
                }
            }
            _ => {}
        }
        out
    }

    /// The person's approval for the first thing the policy names, when the mode asks.
    fn policy_ask(
        &self,
        call: &roundtable_engine::engine::StoredCall,
        response: &Response,
    ) -> Option<PersonAsk> {
        let (_, message) = self.policy_named(call, response).into_iter().next()?;
        self.policy_asks(response).then(|| PersonAsk::Approval {
            to: vec![PERSON.into()],
            message,
        })
    }

    /// What the policy names in an answer the mode let through alone, each with why: the
    /// approvals the policy gave by itself, recorded as the answer is applied.
    pub(super) fn policy_passed(
        &self,
        call: &roundtable_engine::engine::StoredCall,
        response: &Response,
    ) -> Vec<super::record::AutoApproval> {
        if ReviewState::split_slot(&call.member).1.is_some() || self.policy_asks(response) {
            return Vec::new();
        }
        let why = match self.config.approval_mode {
            ApprovalMode::AutoLowRisk => format!(
                "approved by the policy: the approval mode acts alone while the risk is low, and it is low (the run's risk level is {}, and no role reports more)",
                self.config.risk_level.word()
            ),
            _ => "approved by the policy: autopilot acts alone on what the policy names".into(),
        };
        self.policy_named(call, response)
            .into_iter()
            .map(|(what, _)| super::record::AutoApproval {
                call_id: call.id.clone(),
                round: call.round,
                what,
                why: why.clone(),
            })
            .collect()
    }

    fn member_name_of(&self, member: &str) -> String {
        <ReviewState as roundtable_engine::engine::Protocol>::member_name(self, member)
    }

    /// Folds an applied answer to `call_id`; returns the change in words.
    pub(super) fn apply(
        &mut self,
        call_id: &str,
        response: &Response,
        at: u64,
    ) -> Result<Vec<String>, FoldError> {
        let call = self
            .core
            .call(call_id)
            .map(|c| c.call.clone())
            .ok_or_else(|| FoldError::Call(call_id.to_string()))?;
        let slot = ReviewState::split_slot(&call.member).1;
        if let Some(k) = slot {
            // Only a log written by hand can answer from a slot the fan-out does not have.
            let role = self.fanout.as_ref().and_then(|f| f.role_of_slot(k));
            if role.map(step_of) != Some(Self::step_of(call.step)) {
                return Err(FoldError::Unexpected(format!(
                    "the log has an answer from fan-out slot {k} ({}), which the fan-out under way does not have",
                    call.member
                )));
            }
        }
        self.record.answers.push(Answer {
            call_id: call_id.to_string(),
            step: Self::step_of(call.step),
            member: call.member.clone(),
            round: call.round,
            slot,
            response: response.clone(),
        });
        let mut words = vec![format!(
            "{} answered {}: {}",
            self.member_name_of(&call.member),
            match response.status {
                Status::Ok => "ok",
                Status::Blocked => "blocked",
                Status::Failed => "failed",
            },
            response.summary
        )];
        match &response.payload {
            Payload::Decision(d) if Self::step_of(call.step) == ReviewStep::Orchestrator => {
                self.notes.clear();
                self.packets_at_decision = self.record.packets.len();
                self.carry_out(call_id, d);
            }
            Payload::Implementation(i) if self.record.latest_implementation() == Some(call_id) => {
                self.record.write_files(call_id, i);
                words.push(format!(
                    "the run holds {} (version {} of the work)",
                    roundtable_engine::text::count(
                        self.record.current_files().len(),
                        "file",
                        "files"
                    ),
                    self.record.implementations().count()
                ));
                if let Some(Cause::Repair(k)) = self.current.as_ref().map(|j| j.cause.clone()) {
                    let task = self.task();
                    self.queue = Vec::new();
                    if self.config.available(Role::Qa) {
                        self.queue.push(Job::new(
                            ReviewStep::Qa,
                            "Test the repaired implementation again.",
                            &task.acceptance_criteria,
                            Cause::Recheck(k),
                        ));
                    }
                    self.queue.push(Job::new(
                        ReviewStep::Verifier,
                        "Judge the repaired implementation against the acceptance criteria.",
                        &task.acceptance_criteria,
                        Cause::Recheck(k),
                    ));
                }
            }
            Payload::Qa(_) | Payload::Verification(_) => {
                if let Payload::Verification(v) = &response.payload {
                    self.record.verifications.push(VerifierRecord {
                        answer_ref: call_id.to_string(),
                        implementation_ref: self
                            .record
                            .latest_implementation()
                            .unwrap_or("")
                            .to_string(),
                        approved: v.verdict == VerifierVerdict::Approve,
                        in_fanout: slot.is_some(),
                    });
                }
                let abort = matches!(&response.payload, Payload::Verification(v) if v.verdict == VerifierVerdict::Abort);
                if slot.is_none() && abort {
                    // Applied only once the person agreed (the abort waited in the inbox).
                    self.end = Some(RunEnd::VerifierAborted);
                    self.queue.clear();
                } else if slot.is_none() && response.status == Status::Ok {
                    words.extend(self.reviewed(call_id, response, at));
                }
            }
            Payload::Critique(c) if slot.is_none() => {
                words.extend(self.critiqued(call_id, c, at));
            }
            _ => {}
        }
        if let Some(k) = slot {
            self.slot_answered(k, call_id, response.status, at);
        }
        Ok(words)
    }

    /// Queues what the orchestrator's decision asks for.
    fn carry_out(&mut self, call_id: &str, d: &Decision) {
        if d.stop.should_stop {
            self.stop_after = true;
        }
        let cause = Cause::Decision(call_id.to_string());
        let job = |step: ReviewStep, default: &str| {
            let mut job = Job::new(step, default, &[], cause.clone());
            if let Some(task) = &d.task {
                job.brief = brief_of(task);
            }
            job
        };
        let next = match d.action {
            Action::Delegate | Action::RequestApproval => d
                .next_role
                .filter(|r| *r != NextRole::Integrator)
                .filter(|_| d.task.is_some())
                .map(|r| job(ReviewStep::of_role(role_of(r)), "")),
            Action::Verify => Some(job(
                ReviewStep::Verifier,
                "Judge the latest implementation against its acceptance criteria.",
            )),
            Action::Critique => Some(job(
                ReviewStep::Critic,
                "Review the work so far: what did the others miss?",
            )),
            Action::RevisePlan => Some(job(
                ReviewStep::Planner,
                &format!("Revise the plan: {}", d.reason),
            )),
            Action::Complete => {
                self.end = Some(RunEnd::Completed);
                None
            }
            Action::Abort => {
                self.end = Some(RunEnd::Aborted);
                None
            }
        };
        let Some(next) = next else {
            return;
        };
        let Some(f) = &d.fanout else {
            self.queue.push(next);
            return;
        };
        let runs = artifacts::fanout_slots(f.roles.len() as u32, self.config.fanout_max) as usize;
        let fanout = FanoutJob {
            roles: f.roles[..runs.min(f.roles.len())].to_vec(),
            requested: f.roles.len() as u32,
            instruction: f.instruction.clone(),
            items: Vec::new(),
            written: false,
        };
        for role in fanout.role_order() {
            let mut part = next.clone();
            part.step = step_of(role);
            part.brief.objective = f.instruction.clone();
            part.slots = Some(fanout.slots_of(role));
            self.queue.push(part);
        }
        self.fanout = Some(fanout);
    }

    /// After QA's or the verifier's own answer: the critic trigger, when the review fails,
    /// doubts, or disagrees with the runtime's check.
    fn reviewed(&mut self, call_id: &str, response: &Response, at: u64) -> Vec<String> {
        if !self.config.available(Role::Critic) {
            // No critic in this run: the failing review's own answer is the repair's brief.
            return self.repair_from(None, call_id, response, at);
        }
        let check = self.record.latest_check();
        let reviews = match &response.payload {
            Payload::Qa(q) => Reviews {
                qa: Some((q, call_id)),
                verification: None,
                runtime: check.as_ref(),
            },
            Payload::Verification(v) => Reviews {
                qa: None,
                verification: Some((v, call_id)),
                runtime: check.as_ref(),
            },
            _ => return Vec::new(),
        };
        let Some(trigger) = critic_trigger(&self.config.run_id, reviews, "") else {
            return Vec::new();
        };
        let words = format!(
            "the runtime wrote critic_trigger-{} ({:?}) and summons the critic",
            self.record.triggers.len() + 1,
            trigger.reason_code
        );
        let job = Job::new(
            ReviewStep::Critic,
            &format!(
                "The runtime summoned you: {}. Judge what must change.",
                trigger.reason.trim_end_matches('.')
            ),
            &self.task().acceptance_criteria,
            Cause::Trigger(self.record.triggers.len()),
        );
        self.record.triggers.push(trigger);
        // A recheck that fails goes to the critic before the rest of the recheck.
        self.queue.insert(0, job);
        vec![words]
    }

    /// After the critic's own answer: the revision packet and the repair, when the critic (or
    /// the failing review that summoned it) asks for one and repairs are left.
    fn critiqued(&mut self, call_id: &str, c: &super::answer::Critique, at: u64) -> Vec<String> {
        let trigger = match self.current.as_ref().map(|j| &j.cause) {
            Some(Cause::Trigger(k)) => Some(*k),
            _ => None,
        };
        if !self.edits_allowed() || self.repairs_this_decision() >= REPAIRS_PER_DECISION {
            return Vec::new();
        }
        let task = self.task();
        let now = iso_utc(at);
        let evidence: Vec<String> = trigger
            .and_then(|k| self.record.triggers.get(k))
            .map(|t| t.evidence_refs.clone())
            .unwrap_or_default();
        let run_id = self.config.run_id.clone();
        let context = |source| RepairContext {
            run_id: &run_id,
            now: &now,
            source_ref: source,
            acceptance_criteria: &task.acceptance_criteria,
            evidence_refs: evidence.clone(),
            critic_trigger_ref: trigger.map(|k| format!("critic_trigger-{}", k + 1)),
        };
        let mut packet = revision_packet(RepairCause::Critic(c), context(call_id));
        if packet.is_none() {
            // The critic found nothing to add; the review that summoned it may still ask.
            let source = trigger
                .and_then(|k| self.record.triggers.get(k))
                .and_then(|t| t.evidence_refs.first())
                .and_then(|r| self.record.answer(r));
            packet = match source.map(|a| (&a.response.payload, a.call_id.as_str())) {
                Some((Payload::Qa(q), at)) if q.verdict == QaVerdict::NeedsRevision => {
                    revision_packet(RepairCause::Qa(q), context(at))
                }
                Some((Payload::Verification(v), at)) => {
                    revision_packet(RepairCause::Verifier(v), context(at))
                }
                _ => None,
            };
        }
        let Some(packet) = packet else {
            return Vec::new();
        };
        self.queue_repair(packet)
    }

    /// Without a critic: the revision packet from QA's `needs_revision` or the verifier's
    /// `revise`, and the repair it queues (when repairs are left and the run edits).
    fn repair_from(
        &mut self,
        trigger: Option<usize>,
        call_id: &str,
        response: &Response,
        at: u64,
    ) -> Vec<String> {
        if !self.edits_allowed() || self.repairs_this_decision() >= REPAIRS_PER_DECISION {
            return Vec::new();
        }
        let task = self.task();
        let now = iso_utc(at);
        let mut evidence = Vec::new();
        if let Some(run) = self.record.latest_check() {
            evidence.push(run.run_ref);
        }
        let context = RepairContext {
            run_id: &self.config.run_id,
            now: &now,
            source_ref: call_id,
            acceptance_criteria: &task.acceptance_criteria,
            evidence_refs: evidence,
            critic_trigger_ref: trigger.map(|k| format!("critic_trigger-{}", k + 1)),
        };
        let packet = match &response.payload {
            Payload::Qa(q) => revision_packet(RepairCause::Qa(q), context),
            Payload::Verification(v) => revision_packet(RepairCause::Verifier(v), context),
            _ => None,
        };
        match packet {
            Some(packet) => self.queue_repair(packet),
            None => Vec::new(),
        }
    }

    /// Writes `packet` and queues the implementer's repair from it (the rest of the step's
    /// queue is dropped: the repair's rechecks follow it).
    fn queue_repair(&mut self, packet: super::artifacts::RevisionPacket) -> Vec<String> {
        let task = self.task();
        let k = self.record.packets.len();
        let mut job = Job::new(
            ReviewStep::Implementer,
            &packet.repair_objective,
            &packet.acceptance_criteria,
            Cause::Repair(k),
        );
        job.brief.allowed_paths = task.allowed_paths.clone();
        job.brief.disallowed_paths = task.disallowed_paths.clone();
        self.record.packets.push(packet);
        self.queue = vec![job];
        vec![format!(
            "the runtime wrote revision_packet-{} for a repair by the implementer",
            k + 1
        )]
    }

    /// A fan-out slot's answer is in; the artifact is written once every slot is.
    fn slot_answered(&mut self, slot: u32, call_id: &str, status: Status, at: u64) {
        let Some(f) = self.fanout.as_mut().filter(|f| !f.written) else {
            return;
        };
        let Some(role) = f.role_of_slot(slot) else {
            return;
        };
        f.items.push(FanoutItem {
            index: slot,
            role,
            summon_kind: summon_kind(role),
            status: match status {
                Status::Ok => FanoutStatus::Completed,
                Status::Blocked => FanoutStatus::Blocked,
                Status::Failed => FanoutStatus::Failed,
            },
            response_artifact: ResponseRef {
                r#ref: call_id.to_string(),
            },
        });
        if f.items.len() >= f.roles.len() {
            self.close_fanout(at);
        }
    }

    /// Writes the artifact of the fan-out under way if it has not been: a slot that never
    /// answered (its repairs ran out, the person wrapped up, the run closed) counts as failed.
    pub(super) fn close_fanout(&mut self, at: u64) {
        let run_id = self.config.run_id.clone();
        let run_max = self.config.fanout_max;
        let Some(f) = self.fanout.as_mut() else {
            return;
        };
        if f.written {
            return;
        }
        f.written = true;
        let mut items = f.items.clone();
        for (k, role) in (1..).zip(&f.roles) {
            if !items.iter().any(|i| i.index == k) {
                items.push(FanoutItem {
                    index: k,
                    role: *role,
                    summon_kind: summon_kind(*role),
                    status: FanoutStatus::Failed,
                    response_artifact: ResponseRef {
                        r#ref: String::new(),
                    },
                });
            }
        }
        items.sort_by_key(|i| i.index);
        let fanout = Fanout::new(
            &run_id,
            &iso_utc(at),
            f.requested,
            run_max,
            f.execution(),
            &f.instruction,
            items,
        );
        self.record.fanouts.push(fanout);
    }

    /// A step starts: the job it runs leaves the queue.
    pub(super) fn start_job(&mut self, step: ReviewStep, at: u64) {
        self.current = Some(match step {
            ReviewStep::Orchestrator => {
                Job::new(step, "Decide the run's next move.", &[], Cause::Runtime)
            }
            ReviewStep::Reconciliation => {
                self.end = self.end.or(self.closing());
                Job::new(
                    step,
                    "Close the run: reconcile the work with the plan and the success criteria.",
                    &self.config.success_criteria,
                    Cause::Runtime,
                )
            }
            _ if self.queue.first().is_some_and(|j| j.step == step) => self.queue.remove(0),
            _ => Job::new(step, "", &[], Cause::Runtime),
        });
        // A step outside the fan-out under way closes it (its missing slots failed).
        if self.current.as_ref().is_some_and(|j| j.slots.is_none()) {
            self.close_fanout(at);
        }
    }

    /// A call is issued: a summoned critic's call is the trigger's `criticResponseRef`.
    pub(super) fn call_issued(&mut self, call_id: &str, step: ReviewStep) {
        if step != ReviewStep::Critic {
            return;
        }
        if let Some(Cause::Trigger(k)) = self.current.as_ref().map(|j| &j.cause) {
            if let Some(t) = self.record.triggers.get_mut(*k) {
                if t.critic_response_ref.is_empty() {
                    t.critic_response_ref = call_id.to_string();
                }
            }
        }
    }

    /// The sandbox run the latest implementation is owed, if any: every file as it stands.
    pub(super) fn owed_run(&self) -> Option<Effect> {
        let latest = self.record.latest_implementation()?;
        let ran = self.record.runs.iter().any(|r| r.implementation == latest);
        (!ran && self.record.runnable(latest)).then(|| Effect {
            name: RUN_CODE.into(),
            input: json!({
                "files": self.record.current_files(),
                "limit_ms": self.config.run_limit_ms,
            }),
        })
    }

    pub(super) fn run_issued(&mut self, effect_id: &str) {
        let implementation = self
            .record
            .latest_implementation()
            .unwrap_or("")
            .to_string();
        self.record.runs.push(RuntimeRun {
            effect_id: effect_id.to_string(),
            implementation,
            run: None,
        });
    }

    pub(super) fn run_done(&mut self, effect_id: &str, output: &Value) -> Result<(), FoldError> {
        let run = self
            .record
            .runs
            .iter_mut()
            .find(|r| r.effect_id == effect_id)
            .ok_or_else(|| FoldError::Effect(effect_id.to_string()))?;
        run.run = Some(read_run(output));
        Ok(())
    }

    /// The person decided an approval: approve applies the answer that waited, reject ends
    /// the run, revise sends the note to the orchestrator. The step is over either way, so
    /// resuming never asks the role again.
    pub(super) fn decided(
        &mut self,
        text: &str,
        verdict: Option<Verdict>,
        call_id: Option<&str>,
        at: u64,
    ) -> Result<Vec<String>, FoldError> {
        let halt = self
            .core
            .open_asks()
            .find(|h| call_id.is_none_or(|id| id == h.call_id))
            .ok_or_else(|| FoldError::Unexpected("no approval waits".into()))?;
        let call_id = halt.call_id.clone();
        let verdict =
            verdict.ok_or_else(|| FoldError::Unexpected("an approval needs a verdict".into()))?;
        let record = self
            .core
            .call(&call_id)
            .ok_or_else(|| FoldError::Call(call_id.clone()))?;
        let member = record.call.member.clone();
        let raw = record.raw_answer.as_deref().unwrap_or("");
        let directive = self.directive_of(&record.call);
        let response = super::rules::check(
            Self::step_of(record.call.step).contract(),
            raw,
            &directive,
            roundtable_engine::validate::Options::default(),
            &mut Vec::new(),
        )
        .map_err(|v| {
            FoldError::Unexpected(format!(
                "the answer waiting for approval does not read: {}",
                v.first().map_or("", |v| v.message.as_str())
            ))
        })?;
        let reply = roundtable_engine::engine::PersonReply {
            text: text.to_string(),
            verdict: Some(verdict),
        };
        let mut words = Vec::new();
        match verdict {
            Verdict::Approve => {
                self.approvals += 1;
                words = self.apply(&call_id, &response, at)?;
                if !text.trim().is_empty() {
                    self.notes.push(reply.words());
                }
            }
            Verdict::Reject => {
                self.end = Some(RunEnd::Rejected);
                self.queue.clear();
            }
            Verdict::Revise => {
                self.notes.push(reply.words());
                self.queue.clear();
            }
        }
        if let Some(slot) = self.core.slots.iter_mut().find(|s| s.member == member) {
            slot.done = true;
        }
        Ok(words)
    }

    /// The envelope of `member`'s call at the step under way.
    pub(super) fn envelope_for(&self, member: &str) -> ReviewEnvelope {
        let step = self
            .core
            .step
            .map_or(ReviewStep::Orchestrator, Self::step_of);
        let job = self
            .current
            .clone()
            .unwrap_or_else(|| Job::new(step, "", &[], Cause::Runtime));
        let run_id = self.config.run_id.clone();
        // The directive's nonce: the call about to be issued, or (for a call out, whose
        // envelope the runner asks for again) the directive that call answers.
        let out = self
            .core
            .slot(member)
            .and_then(|s| s.call_id.as_deref())
            .and_then(|id| self.core.call(id));
        let (nonce, this_call) = match out {
            Some(c) => (self.directive_of(&c.call).nonce, c.call.id.clone()),
            None => {
                let id = self.core.next_call_id();
                (super::directive::nonce(&run_id, &id), id)
            }
        };
        ReviewEnvelope {
            step,
            iteration: self.core.round,
            nonce,
            run_id,
            objective: job.brief.objective.clone(),
            acceptance_criteria: job.brief.acceptance_criteria.clone(),
            allowed_paths: job.brief.allowed_paths.clone(),
            disallowed_paths: job.brief.disallowed_paths.clone(),
            evidence: self.evidence(step, &job, this_call),
            facts: self.facts(&job),
        }
    }

    fn facts(&self, job: &Job) -> Facts {
        let count = |step: ReviewStep| {
            self.record
                .answers
                .iter()
                .filter(|a| a.step == step)
                .count() as u32
        };
        Facts {
            plans: self.record.plans().len() as u32,
            research: count(ReviewStep::Researcher),
            fanouts: self.record.fanouts.len() as u32,
            approvals: self.approvals,
            implementations: self.record.implementations().count() as u32,
            latest_check: self.record.latest_check().map(|c| c.passed),
            packets: self.record.packets.len() as u32,
            unmet: self
                .record
                .unmet(self.open_asks())
                .into_iter()
                .map(|u| u.why)
                .collect(),
            repair: matches!(job.cause, Cause::Repair(_)),
            calls_used: self.calls_started,
            end: self.end.or(self.closing()),
        }
    }

    /// What the runtime hands the step's role, as titled sections.
    fn evidence(&self, step: ReviewStep, job: &Job, this_call: String) -> Vec<Section> {
        let mut out = Vec::new();
        let mut add = |title: &str, text: String| {
            if !text.trim().is_empty() {
                out.push(Section {
                    title: title.into(),
                    text,
                });
            }
        };
        let plan = self
            .record
            .plans()
            .last()
            .map(|(id, md)| format!("(from {id})\n{md}"));
        let files_whole = || {
            let files = self.record.current_files();
            let mut s = String::new();
            for f in &files {
                s.push_str(&roundtable_engine::text::file_section(&f.path, &f.content));
            }
            s
        };
        let unrunnable = self
            .record
            .latest_implementation()
            .and_then(|id| self.record.why_not_runnable(id));
        let run = match unrunnable {
            Some(why) => Some(format!(
                "Not run: {why}. No gate can be met without a run that passes."
            )),
            None => self.record.latest_run().and_then(|r| {
                r.run.as_ref().map(|t| {
                    format!(
                        "{} ran the files of {}: {}",
                        r.effect_id,
                        r.implementation,
                        run_words(t)
                    )
                })
            }),
        };
        // Every applied answer, and every word of the person's, in call order.
        let history = || {
            let mut s = String::new();
            for c in &self.core.calls {
                let id = c.call.id.as_str();
                if let Some(a) = self.record.answer(id) {
                    s.push_str(&format!(
                        "- {id} ({}, {}): {}\n",
                        self.member_name_of(&a.member),
                        a.step.contract().key(),
                        a.response.summary
                    ));
                }
                let replies = self.core.halts.iter().filter(|h| h.call_id == id);
                for reply in replies.filter_map(|h| h.answer.as_ref()) {
                    s.push_str(&format!(
                        "- {id} waited for the person: {}\n",
                        reply.words()
                    ));
                }
            }
            s
        };
        let gates = || {
            let unmet = self.record.unmet(self.open_asks());
            if unmet.is_empty() {
                "Every gate is met: you may complete.".to_string()
            } else {
                unmet.iter().map(|u| format!("- {}\n", u.why)).collect()
            }
        };
        let artifacts = || {
            let mut s = String::new();
            for (k, t) in self.record.triggers.iter().enumerate() {
                s.push_str(&format!("- critic_trigger-{}: {}\n", k + 1, t.reason));
            }
            for (k, p) in self.record.packets.iter().enumerate() {
                s.push_str(&format!(
                    "- revision_packet-{}: {}\n",
                    k + 1,
                    p.repair_objective
                ));
            }
            for (k, f) in self.record.fanouts.iter().enumerate() {
                s.push_str(&format!(
                    "- fanout-{} ({} slots, advisory: satisfies no gate): {}\n",
                    k + 1,
                    f.bounds.executed_items,
                    f.instruction
                ));
            }
            s
        };
        let latest_summary = |s: ReviewStep| {
            self.record
                .latest(s)
                .map(|a| {
                    format!(
                        "{} ({}): {}",
                        a.call_id,
                        self.member_name_of(&a.member),
                        a.response.summary
                    )
                })
                .unwrap_or_default()
        };
        match step {
            ReviewStep::Orchestrator | ReviewStep::Reconciliation => {
                if let Some(end) = self
                    .end
                    .or(self.closing())
                    .filter(|_| step == ReviewStep::Reconciliation)
                {
                    add("How the run ends", end.words().to_string());
                }
                add("The run so far", history());
                add("The latest plan", plan.unwrap_or_default());
                add(
                    "The runtime's check of the latest files",
                    run.unwrap_or_default(),
                );
                add("Artifacts the runtime wrote", artifacts());
                add("Gates for complete", gates());
                add("The person's notes", self.notes.join("\n"));
            }
            ReviewStep::Planner => {
                add("The latest plan", plan.unwrap_or_default());
                let findings: Vec<String> = self
                    .record
                    .answers
                    .iter()
                    .filter_map(|a| match &a.response.payload {
                        Payload::Research(r) => Some(
                            r.findings
                                .iter()
                                .map(|f| format!("- {f}\n"))
                                .collect::<String>(),
                        ),
                        _ => None,
                    })
                    .collect();
                add("Research", findings.concat());
            }
            ReviewStep::Researcher => add("The latest plan", plan.unwrap_or_default()),
            ReviewStep::Implementer => {
                add("The latest plan", plan.unwrap_or_default());
                add("The files as they stand", files_whole());
                add(
                    "The runtime's check of the latest files",
                    run.unwrap_or_default(),
                );
                if let Cause::Repair(k) = job.cause {
                    if let Some(p) = self.record.packets.get(k) {
                        add(
                            &format!("revision_packet-{} (your narrow brief)", k + 1),
                            serde_json::to_string_pretty(p).unwrap_or_default(),
                        );
                    }
                }
            }
            ReviewStep::Qa | ReviewStep::Verifier | ReviewStep::Critic => {
                if let Cause::Trigger(k) = job.cause {
                    if let Some(t) = self.record.triggers.get(k) {
                        // Its `criticResponseRef` is this very call, once issued.
                        let mut t = t.clone();
                        if t.critic_response_ref.is_empty() {
                            t.critic_response_ref = this_call.clone();
                        }
                        add(
                            &format!("critic_trigger-{} (why you were summoned)", k + 1),
                            serde_json::to_string_pretty(&t).unwrap_or_default(),
                        );
                    }
                }
                if let Some((id, i)) = self.record.implementations().last() {
                    let mut s = format!("From {id}:");
                    for c in &i.changed_files {
                        let how = roundtable_engine::text::wire_word(&c.change_type);
                        s.push_str(&format!("\n- {} ({}): {}", c.path, how, c.summary));
                    }
                    for n in &i.notes {
                        s.push_str(&format!("\n- note: {n}"));
                    }
                    add("The implementer's claimed changes", s);
                }
                add("The files as they stand", files_whole());
                add(
                    "The runtime's check of the latest files (authoritative)",
                    run.unwrap_or_default(),
                );
                if step != ReviewStep::Qa {
                    add(
                        "QA's latest verdict (advisory)",
                        latest_summary(ReviewStep::Qa),
                    );
                }
                if step == ReviewStep::Critic {
                    add(
                        "The verifier's latest verdict",
                        latest_summary(ReviewStep::Verifier),
                    );
                    // What the person answered when the verifier asked (ask_user).
                    add("The person's notes", self.notes.join("\n"));
                }
            }
        }
        out
    }
}

/// The task as a brief.
fn brief_of(task: &super::answer::Task) -> Brief {
    Brief {
        objective: task.objective.clone(),
        acceptance_criteria: task.acceptance_criteria.clone(),
        allowed_paths: task.allowed_paths.clone(),
        disallowed_paths: task.disallowed_paths.clone(),
    }
}

/// The run's role a decision's `next_role` names (the integrator is refused before this).
fn role_of(role: NextRole) -> Role {
    match role {
        NextRole::Planner => Role::Planner,
        NextRole::Researcher => Role::Researcher,
        NextRole::Implementer | NextRole::Integrator => Role::Implementer,
        NextRole::Qa => Role::Qa,
        NextRole::Verifier => Role::Verifier,
        NextRole::Critic => Role::Critic,
    }
}
