//! The review loop, spec `004` (thehood's runtime): an orchestrator delegates to a planner, a
//! researcher, an implementer, QA, a verifier and a critic; every answer is `004`'s
//! `agent_response` envelope, acknowledged by the run's id and the call's own nonce; the runtime,
//! not the models, owns the gates (`DESIGN.md`, "The review loop (004): readings decided").
//!
//! The answer shapes of every role with their checks, the acknowledgement included ([`answer`]);
//! the nonce each directive carries ([`directive`]); the artifacts the runtime writes — critic
//! triggers, revision packets, fan-outs ([`artifacts`]); the gates `complete` must pass
//! ([`gates`]); the run variables and the roles ([`config`]); each call's charter and directive
//! ([`prompt`]); the run's record of answers, files and runs ([`record`]); what the runtime
//! does with each answer ([`runtime`]); the demo model's roles ([`demo`]); what the page draws
//! ([`view`]).
//!
//! As a kind of session ([`ReviewState`]): each orchestrator decision opens a round (an iteration,
//! up to `max_iterations`); the runtime carries the decision out as the steps of that round —
//! the delegated role, or a fan-out of read-only calls, one role each (the slots of one role
//! run at once as one step, `researcher.1`, `researcher.3`; the roles one after another) —
//! and adds steps of its own: the sandbox's run of the implementer's JavaScript (`run_code`, an
//! engine effect), the critic when QA or the verifier fails, doubts or disagrees with that run,
//! a repair by the implementer from a revision packet, then QA and the verifier again. Then the
//! orchestrator decides again. Approvals wait in the engine's inbox. The run ends with the
//! orchestrator's reconciliation.
//!
//! Readings of `004` decided here (with `DESIGN.md`'s):
//! - The runtime's gate is met only by a sandbox run of the files as the latest implementation
//!   left them that came back `passed`. Files the sandbox cannot run (not `.js`, `.mjs` or
//!   `.cjs`) are named; no run, no pass.
//! - `protected_test_paths` are the person's acceptance tests: the person may hand their text in
//!   (`acceptance_tests`, ours, each `*.test.js|mjs|cjs`), they are the run's files from the
//!   start, protected whatever the paths say, and every run includes them.
//! - A verifier's `ask_user` waits in the inbox (the person's note is the answer); its `abort`
//!   waits for the person's agreement, which ends the run — or a note, with which it goes on. A
//!   critic's `unsafe`, or `unclear` with blocking concerns, waits for the person: approve has
//!   the implementer repair from the concerns, reject ends the run, a note goes to the
//!   orchestrator.

pub mod answer;
pub mod artifacts;
pub mod config;
pub mod demo;
pub mod directive;
pub mod gates;
pub mod prompt;
pub mod record;
pub mod rules;
pub mod runtime;
#[rustfmt::skip]
mod shape;
pub mod view;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use self::answer::{Contract, Response};
pub use self::config::{ReviewConfig, Role};
use self::directive::Directive;
use self::record::RunRecord;
pub use self::runtime::{Job, RunEnd};
use roundtable_engine::engine::{
    ChatRole, Core, DemoReply, DueEffect, EngineEdit, Event, EventKind, Findings, FoldError,
    Judgement, JudgementOf, MemberChange, MemberInfo, Message, ModelRef, Move, MoveOf, Protocol,
    Settings, StoredCall,
};
use roundtable_engine::validate;

/// A review loop: the engine driving `004`'s runtime.
pub type ReviewSession = roundtable_engine::engine::KindEngine<ReviewState>;

/// The steps of an iteration: one per role, and the closing reconciliation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStep {
    /// The orchestrator decides the next move.
    Orchestrator,
    /// The planner writes or revises the plan.
    Planner,
    /// The researcher finds facts.
    Researcher,
    /// The implementer writes files.
    Implementer,
    /// QA tests (advisory).
    Qa,
    /// The verifier judges the latest implementation.
    Verifier,
    /// The critic reviews.
    Critic,
    /// The orchestrator closes the run.
    Reconciliation,
}

impl ReviewStep {
    /// The role that answers the step.
    pub fn role(self) -> Role {
        match self {
            ReviewStep::Orchestrator | ReviewStep::Reconciliation => Role::Orchestrator,
            ReviewStep::Planner => Role::Planner,
            ReviewStep::Researcher => Role::Researcher,
            ReviewStep::Implementer => Role::Implementer,
            ReviewStep::Qa => Role::Qa,
            ReviewStep::Verifier => Role::Verifier,
            ReviewStep::Critic => Role::Critic,
        }
    }

    /// The answer the step asks for.
    pub fn contract(self) -> Contract {
        match self {
            ReviewStep::Orchestrator | ReviewStep::Planner => Contract::Decision,
            ReviewStep::Researcher => Contract::Research,
            ReviewStep::Implementer => Contract::Implementation,
            ReviewStep::Qa => Contract::Qa,
            ReviewStep::Verifier => Contract::Verification,
            ReviewStep::Critic => Contract::Critique,
            ReviewStep::Reconciliation => Contract::Reconciliation,
        }
    }

    /// The step a role answers when work is delegated to it.
    pub fn of_role(role: Role) -> ReviewStep {
        match role {
            Role::Orchestrator => ReviewStep::Orchestrator,
            Role::Planner => ReviewStep::Planner,
            Role::Researcher => ReviewStep::Researcher,
            Role::Implementer => ReviewStep::Implementer,
            Role::Qa => ReviewStep::Qa,
            Role::Verifier => ReviewStep::Verifier,
            Role::Critic => ReviewStep::Critic,
        }
    }
}

/// A person's edit of a review loop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum ReviewEdit {
    /// A member's provider and model changed (a fork's what-if). Roles never change, so no edit
    /// can make the implementer its own verifier.
    Member(MemberChange),
}
roundtable_engine::tagged::tagged!([] ReviewEdit, tag = "edit");

impl From<ReviewEdit> for EngineEdit {
    fn from(edit: ReviewEdit) -> Self {
        EngineEdit::of_kind(edit)
    }
}

/// The review loop never pauses on its own account (what waits for the person is in the
/// inbox), so this has no values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReviewBlock {}

/// One titled section of a directive's evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// The heading.
    pub title: String,
    /// Markdown.
    pub text: String,
}

/// The facts of the run a role's directive and the demo model read, in short.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Facts {
    /// Plan versions written.
    pub plans: u32,
    /// Research answers in (a fan-out's slots included).
    pub research: u32,
    /// Fan-outs run.
    pub fanouts: u32,
    /// Approvals the person granted.
    pub approvals: u32,
    /// Implementations written.
    pub implementations: u32,
    /// Whether the runtime's check of the latest implementation passed (none yet: `None`).
    pub latest_check: Option<bool>,
    /// Revision packets written.
    pub packets: u32,
    /// The gates `complete` has not passed, in words.
    pub unmet: Vec<String>,
    /// Whether this call repairs from a revision packet.
    pub repair: bool,
    /// The run's end, when it is closing.
    pub end: Option<RunEnd>,
    /// Calls the run has started, this one included (`max_iterations` bounds them).
    #[serde(default)]
    pub calls_used: u32,
}

/// What one call's directive is built from: the role, the acknowledgement it must give, its
/// task and the evidence the runtime hands it. A fresh directive every call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewEnvelope {
    /// The step the call is for.
    pub step: ReviewStep,
    /// The orchestrator decision this call belongs to.
    pub iteration: u32,
    /// The run's id.
    pub run_id: String,
    /// This call's nonce.
    pub nonce: String,
    /// What the role is to achieve.
    pub objective: String,
    /// How it will be judged.
    pub acceptance_criteria: Vec<String>,
    /// Paths it may write.
    pub allowed_paths: Vec<String>,
    /// Paths it must leave alone.
    pub disallowed_paths: Vec<String>,
    /// What the runtime hands it.
    pub evidence: Vec<Section>,
    /// The run in short.
    pub facts: Facts,
}

/// The whole state of a review loop: what the fold of its events gives.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewState {
    /// The engine's part.
    pub core: Core,
    /// The configuration, with the person's member changes applied.
    pub config: ReviewConfig,
    /// Everything the run produced.
    pub record: RunRecord,
    /// The runtime's next steps in this iteration, in order.
    pub queue: Vec<Job>,
    /// The step under way.
    pub current: Option<Job>,
    /// The latest fan-out: under way until its artifact is written.
    pub fanout: Option<runtime::FanoutJob>,
    /// Why the run is closing, once it is.
    pub end: Option<RunEnd>,
    /// The orchestrator decision carried out in this iteration asked to stop after it.
    pub stop_after: bool,
    /// The person's notes the orchestrator has not read yet (a revise, a go-on).
    pub notes: Vec<String>,
    /// Approvals granted.
    pub approvals: u32,
    /// When the run started and the newest event's time (ms), for the time budget.
    pub clock: (Option<u64>, u64),
    /// Calls the run has started, the runtime's own (critic, repairs, rechecks) and every
    /// fan-out slot included: what `max_iterations` bounds.
    pub calls_started: u32,
    /// Revision packets written before the orchestrator's latest decision (the repairs of a
    /// decision are those after it).
    pub packets_at_decision: usize,
}

impl ReviewState {
    /// The member holding `role` (the config guarantees one).
    pub fn holder(&self, role: Role) -> &str {
        self.config.holder(role).map_or("", |m| m.id.as_str())
    }

    /// A member id and its fan-out slot: `qa.2` is `qa`'s second slot.
    pub fn split_slot(member: &str) -> (&str, Option<u32>) {
        match member.split_once('.') {
            Some((id, n)) => (id, n.parse().ok()),
            None => (member, None),
        }
    }

    /// The directive `call` answers: its thread's first call names the nonce (a repair keeps
    /// the directive's), every earlier directive's nonce is stale.
    pub(crate) fn directive_of(&self, call: &StoredCall) -> Directive {
        let thread = self.core.thread(&call.member, call.round, call.step);
        let first = thread
            .iter()
            .rev()
            .map(|c| &c.call)
            .filter(|c| call_number(&c.id) <= call_number(&call.id))
            .find(|c| c.kind == roundtable_engine::engine::CallKind::Initial)
            .map_or(call.id.as_str(), |c| c.id.as_str());
        let earlier = self
            .core
            .calls
            .iter()
            .map(|c| &c.call)
            .filter(|c| c.kind == roundtable_engine::engine::CallKind::Initial)
            .take_while(|c| c.id != first)
            .map(|c| c.id.as_str());
        Directive::for_call(&self.config.run_id, first, earlier)
    }

    /// The members a job's step starts with: the role's holder, or its fan-out slots.
    fn members_of(&self, job: &Job) -> Vec<String> {
        let id = self.holder(job.step.role());
        match &job.slots {
            Some(slots) => slots.iter().map(|k| format!("{id}.{k}")).collect(),
            None => vec![id.to_string()],
        }
    }

    /// Whether the time budget is spent (from the events' own times).
    fn out_of_time(&self) -> bool {
        match (self.config.time_budget_seconds, self.clock.0) {
            (Some(budget), Some(start)) => {
                self.clock.1.saturating_sub(start) >= budget.saturating_mul(1000)
            }
            _ => false,
        }
    }

    /// Why the run is closing now, if it is: its own end, the person's wrap-up, the iteration
    /// or time budget.
    pub fn closing(&self) -> Option<RunEnd> {
        if let Some(end) = &self.end {
            return Some(*end);
        }
        if self.core.rounds_ended {
            return Some(RunEnd::WrappedUp);
        }
        let idle = self.queue.is_empty() && self.core.step.is_some();
        if idle && self.stop_after {
            return Some(RunEnd::Stopped);
        }
        // `max_iterations` bounds the calls: between steps, the next step's calls (a
        // decision, a role, a fan-out's slots) must fit in what is left.
        let between = self.core.slots.iter().all(|s| s.done);
        let next = match (self.core.step, self.queue.first()) {
            (Some(_), Some(job)) => job.slots.as_ref().map_or(1, |s| s.len() as u32),
            _ => 1,
        };
        if between && self.calls_started + next > self.config.max_iterations {
            return Some(RunEnd::Iterations);
        }
        if self.out_of_time() {
            return Some(RunEnd::Time);
        }
        None
    }

    /// The reconciliation, once the orchestrator closed the run.
    pub fn reconciliation(&self) -> Option<&answer::Reconciliation> {
        self.record
            .latest(ReviewStep::Reconciliation)
            .and_then(|a| match &a.response.payload {
                answer::Payload::Reconciliation(r) => Some(r),
                _ => None,
            })
    }

    /// The run's account as Markdown: the goal, how it ended, the decisions, the artifacts and
    /// the reconciliation.
    pub fn markdown(&self) -> String {
        view::markdown(self)
    }
}

/// The number of `call-N`.
fn call_number(id: &str) -> usize {
    id.strip_prefix("call-")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

impl Protocol for ReviewState {
    const KIND: &'static str = "review";
    const TITLE: &'static str = "Review loop";
    const ROUND_WORD: &'static str = "Iteration";
    type Config = ReviewConfig;
    type Step = ReviewStep;
    const STEPS: &'static [ReviewStep] = &[
        ReviewStep::Orchestrator,
        ReviewStep::Planner,
        ReviewStep::Researcher,
        ReviewStep::Implementer,
        ReviewStep::Qa,
        ReviewStep::Verifier,
        ReviewStep::Critic,
        ReviewStep::Reconciliation,
    ];
    type Envelope = ReviewEnvelope;
    type Output = Response;
    type Ask = ();
    type Served = ();
    type Edit = ReviewEdit;
    type Block = ReviewBlock;

    fn create(config: &ReviewConfig) -> Result<ReviewState, String> {
        let config = config.clone().checked().map_err(|e| e.to_string())?;
        Ok(ReviewState {
            core: Core::new(Self::settings(&config)),
            record: RunRecord::with_acceptance_tests(&config.acceptance_tests),
            config,
            queue: Vec::new(),
            current: None,
            fanout: None,
            end: None,
            stop_after: false,
            notes: Vec::new(),
            approvals: 0,
            clock: (None, 0),
            calls_started: 0,
            packets_at_decision: 0,
        })
    }

    /// The config's limits: a round per decision, one more for the reconciliation; the run's
    /// token budget.
    fn settings(config: &ReviewConfig) -> Settings {
        Settings {
            max_rounds: config.max_iterations,
            token_budget: config.token_budget.or(config.settings.token_budget),
            ..config.settings.clone()
        }
    }

    fn request(&self) -> &str {
        &self.config.user_goal
    }

    fn members(&self) -> Vec<MemberInfo> {
        self.config
            .members
            .iter()
            .map(|m| MemberInfo {
                id: m.id.clone(),
                name: m.name.clone(),
                model: m.model.clone(),
                persona: String::new(),
            })
            .collect()
    }

    fn progress(&self) -> u32 {
        if self.reconciliation().is_some() {
            return 100;
        }
        (self.calls_started * 100 / (self.config.max_iterations + 1).max(1)).min(99)
    }

    fn report_markdown(&self) -> String {
        self.markdown()
    }

    fn member_edit(change: MemberChange) -> ReviewEdit {
        ReviewEdit::Member(change)
    }

    fn what_if_of(edit: &ReviewEdit) -> Option<roundtable_engine::engine::EditWhatIf<'_>> {
        let ReviewEdit::Member(change) = edit;
        Some(roundtable_engine::engine::EditWhatIf::Member(change))
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn step_wire(step: ReviewStep) -> &'static str {
        match step {
            ReviewStep::Orchestrator => "orchestrator",
            ReviewStep::Planner => "planner",
            ReviewStep::Researcher => "researcher",
            ReviewStep::Implementer => "implementer",
            ReviewStep::Qa => "qa",
            ReviewStep::Verifier => "verifier",
            ReviewStep::Critic => "critic",
            ReviewStep::Reconciliation => "reconciliation",
        }
    }

    fn step_name(step: ReviewStep) -> &'static str {
        step.contract().schema_name()
    }

    fn step_title(step: ReviewStep) -> &'static str {
        match step {
            ReviewStep::Orchestrator => "Decision",
            ReviewStep::Planner => "Plan",
            ReviewStep::Researcher => "Research",
            ReviewStep::Implementer => "Implementation",
            ReviewStep::Qa => "QA",
            ReviewStep::Verifier => "Verification",
            ReviewStep::Critic => "Critique",
            ReviewStep::Reconciliation => "Reconciliation",
        }
    }

    fn model_of(&self, member: &str) -> Option<&ModelRef> {
        self.config
            .member(Self::split_slot(member).0)
            .map(|m| &m.model)
    }

    /// A fan-out slot by its member's name and number: "Quinn (QA), slot 2".
    fn member_name(&self, member: &str) -> String {
        if member == roundtable_engine::engine::control::PERSON {
            return "You".into();
        }
        let (id, slot) = Self::split_slot(member);
        let name = self
            .config
            .member(id)
            .map_or_else(|| id.to_string(), |m| m.name.clone());
        match slot {
            Some(k) => format!("{name}, slot {k}"),
            None => name,
        }
    }

    /// "Olga (orchestrator)'s decision, iteration 2"; the closing one is "the reconciliation".
    fn call_title(&self, member: &str, step: ReviewStep, round: u32) -> String {
        let what = Self::step_title(step).to_lowercase();
        let what = if step == ReviewStep::Qa { "QA" } else { &what };
        format!("{}'s {what}, iteration {round}", self.member_name(member))
    }

    fn next_move(&self) -> Move<ReviewState> {
        let core = &self.core;
        if self.reconciliation().is_some() {
            return MoveOf::Finish;
        }
        if core.round == 0 {
            return MoveOf::Round(1);
        }
        let orchestrator = self.holder(Role::Orchestrator).to_string();
        if self.closing().is_some() {
            if core.step == Some(Self::step_id(ReviewStep::Reconciliation)) {
                // The reconciliation gave up (its repairs ran out): nothing more to do.
                return MoveOf::Finish;
            }
            return MoveOf::Step(core.round, ReviewStep::Reconciliation, vec![orchestrator]);
        }
        if let Some(effect) = self.owed_run() {
            return MoveOf::Effect(effect);
        }
        match (core.step, self.queue.first()) {
            (None, _) => MoveOf::Step(core.round, ReviewStep::Orchestrator, vec![orchestrator]),
            (Some(_), Some(job)) => MoveOf::Step(core.round, job.step, self.members_of(job)),
            (Some(_), None) => MoveOf::Round(core.round + 1),
        }
    }

    fn still_blocked(&self, block: &ReviewBlock) -> Option<String> {
        match *block {}
    }

    /// A fan-out's slots never ask the person; a closing reconciliation cannot be stopped.
    fn cannot_finish(&self) -> Option<String> {
        (self.core.step == Some(Self::step_id(ReviewStep::Reconciliation)))
            .then(|| "the orchestrator is writing the reconciliation that closes the run".into())
    }

    fn envelope(&self, member: &str) -> ReviewEnvelope {
        self.envelope_for(member)
    }

    /// The role's charter as the system message, the directive as the user message.
    fn first_messages(&self, env: &ReviewEnvelope) -> Vec<Message> {
        let role = env.step.role();
        let ack = Directive {
            run_id: env.run_id.clone(),
            nonce: env.nonce.clone(),
            earlier: Vec::new(),
        };
        let brief = prompt::Brief {
            objective: env.objective.clone(),
            acceptance_criteria: env.acceptance_criteria.clone(),
            allowed_paths: env.allowed_paths.clone(),
            disallowed_paths: env.disallowed_paths.clone(),
        };
        let evidence: Vec<prompt::Evidence> = env
            .evidence
            .iter()
            .map(|s| prompt::Evidence {
                title: s.title.clone(),
                text: s.text.clone(),
            })
            .collect();
        vec![
            Message::new(ChatRole::System, prompt::charter(role).to_string()),
            Message::new(
                ChatRole::User,
                prompt::directive(
                    &self.config,
                    role,
                    env.step.contract(),
                    &ack,
                    env.facts.calls_used,
                    &brief,
                    &evidence,
                ),
            ),
        ]
    }

    fn judge(&self, call: &StoredCall, raw: &str, truncated: bool) -> Judgement<ReviewState> {
        let options = validate::Options { truncated };
        let mut warnings = Vec::new();
        let directive = self.directive_of(call);
        // Every violation at once: the shape's (or the acknowledgement's), the answer's own
        // rules, and what the run forbids.
        let (response, mut errors) = answer::read(
            Self::step_of(call.step).contract(),
            raw,
            &directive,
            options,
            &mut warnings,
        );
        let checked = match response {
            Some(response) => {
                errors.extend(rules::answer_problems(&response));
                errors.extend(self.problems(call, &response));
                if errors.is_empty() {
                    Ok(response)
                } else {
                    Err(errors)
                }
            }
            None => Err(errors),
        };
        match checked {
            Ok(response) => match self.approval_for(call, &response) {
                Some(ask) => JudgementOf::Ask { ask, warnings },
                None => JudgementOf::Apply {
                    output: response,
                    warnings,
                },
            },
            Err(errors) => JudgementOf::Invalid {
                findings: Findings {
                    step: Self::step_name(Self::step_of(call.step)).to_string(),
                    errors,
                    warnings,
                },
                fallback: None,
            },
        }
    }

    fn serve(&self, _member: &str, _ask: &(), _left: u32) -> ((), String) {
        ((), String::new())
    }

    fn repair_prompt(&self, step: ReviewStep, findings: &Findings) -> String {
        let what = format!("your {}", step.contract().key());
        validate::repair_prompt(&what, &findings.errors)
    }

    fn check_edit(&self, edit: &ReviewEdit) -> Result<(), String> {
        let ReviewEdit::Member(change) = edit;
        if self.config.member(&change.member).is_none() {
            return Err(format!("there is no member {}", change.member));
        }
        if change
            .persona
            .as_deref()
            .is_some_and(|p| !p.trim().is_empty())
        {
            return Err(
                "a review-loop member's charter is its role's: it has no persona to change".into(),
            );
        }
        change.problem(0).map_or(Ok(()), Err)
    }

    fn demo_answer(&self, call: &StoredCall, env: &ReviewEnvelope) -> DemoReply {
        let value = demo::answer(&self.config, env, &call.member);
        let text = serde_json::to_string_pretty(&value).unwrap_or_default();
        DemoReply::stop(text, call.token_estimate)
    }

    /// The demo implementer's files run by the sandbox's stand-in ([`demo::run`]); other code
    /// gets an `error` run saying only the app's sandbox runs it.
    fn demo_effect(&self, effect: &DueEffect) -> Option<Value> {
        (effect.name == runtime::RUN_CODE).then(|| demo::run(&effect.input))
    }

    /// Folds the event, then holds every artifact it made the runtime write to `004`'s
    /// checker ([`artifacts::check_artifact`]): a log whose replay would write anything else
    /// (an imported file with forged events) is refused.
    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        let before = (
            self.record.triggers.len(),
            self.record.packets.len(),
            self.record.fanouts.len(),
        );
        let words = self.fold_event(event)?;
        let run_id = self.config.run_id.clone();
        let written = self.record.triggers[before.0..]
            .iter()
            .map(serde_json::to_value)
            .chain(
                self.record.packets[before.1..]
                    .iter()
                    .map(serde_json::to_value),
            )
            .chain(
                self.record.fanouts[before.2..]
                    .iter()
                    .map(serde_json::to_value),
            );
        for value in written {
            let value = value.map_err(|e| FoldError::Unexpected(e.to_string()))?;
            if let Err(errors) = artifacts::check_artifact(&value, Some(&run_id)) {
                return Err(FoldError::Unexpected(format!(
                    "the runtime would write a {} that 004 refuses: {}",
                    value["kind"].as_str().unwrap_or("artifact"),
                    errors
                        .iter()
                        .map(|e| format!("{} {}", e.path, e.message))
                        .collect::<Vec<_>>()
                        .join("; ")
                )));
            }
        }
        Ok(words)
    }
}

impl ReviewState {
    fn fold_event(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        // The time budget reads the times of the events that move the run on (an invalid
        // answer changes nothing but the log, its time included).
        if matches!(
            event.kind,
            EventKind::Applied { .. }
                | EventKind::StepStarted { .. }
                | EventKind::RoundStarted { .. }
                | EventKind::EffectDone { .. }
                | EventKind::PersonAnswered { .. }
        ) {
            self.clock.1 = event.at;
        }
        match &event.kind {
            EventKind::Started { .. } => {
                self.clock.0.get_or_insert(event.at);
            }
            EventKind::Applied {
                call_id, output, ..
            } => {
                let output = output.get::<Response>();
                // An applied answer keeps its own rules (a forged log's answer is refused).
                let broken = rules::answer_problems(output);
                if let Some(v) = broken.first() {
                    return Err(FoldError::Unexpected(format!(
                        "the log applies an answer that breaks its own rules: {} {}",
                        v.path, v.message
                    )));
                }
                // What the policy named and the mode let through is an approval of its own.
                let passed = self
                    .core
                    .call(call_id)
                    .map(|c| self.policy_passed(&c.call, output))
                    .unwrap_or_default();
                let mut words = self.apply(call_id, output, event.at)?;
                words.extend(passed.iter().map(|a| format!("{}: {}", a.what, a.why)));
                self.record.auto_approvals.extend(passed);
                return Ok(words);
            }
            EventKind::RoundStarted { .. } => {
                self.close_fanout(event.at);
                self.queue.clear();
                self.stop_after = false;
            }
            EventKind::StepStarted { step, members, .. } => {
                let step = Self::step_of(*step);
                if step != ReviewStep::Reconciliation {
                    self.calls_started += members.len() as u32;
                }
                self.start_job(step, event.at)
            }
            EventKind::CallIssued { call } => self.call_issued(&call.id, Self::step_of(call.step)),
            EventKind::EffectIssued { effect_id, effect } if effect.name == runtime::RUN_CODE => {
                self.run_issued(effect_id)
            }
            EventKind::EffectDone { effect_id, output } => self.run_done(effect_id, output)?,
            EventKind::PersonAnswered {
                answer,
                verdict,
                call_id,
            } => return self.decided(answer, *verdict, call_id.as_deref(), event.at),
            EventKind::PersonEdited {
                edit: EngineEdit::Settings { settings },
            } => {
                // The person's new limits are the run's: its directives and its closing read
                // `max_iterations` and the token budget.
                self.config.max_iterations = settings.max_rounds;
                self.config.token_budget = settings.token_budget;
            }
            EventKind::PersonEdited {
                edit: EngineEdit::Protocol(edit),
            } => {
                let ReviewEdit::Member(change) = edit.get::<ReviewEdit>();
                if let Some(m) = self
                    .config
                    .members
                    .iter_mut()
                    .find(|m| m.id == change.member)
                {
                    if let Some(model) = &change.model {
                        m.model = model.clone();
                    }
                }
            }
            EventKind::Finished => self.close_fanout(event.at),
            _ => {}
        }
        Ok(Vec::new())
    }
}

impl roundtable_engine::engine::KindView for ReviewState {
    type View<'a> = view::ReviewView;
    fn kind_view(&self) -> view::ReviewView {
        view::view_of(self)
    }
}
