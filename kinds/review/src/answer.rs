//! The review loop's answers: `004`'s `agent_response` envelope (`status`, `summary`, `data`)
//! around the payload of the role's contract (`decision`, `research_result`,
//! `implementation_result`, `qa_result`, `verification_result`, `critique_result`,
//! `reconciliation_result`), each payload carrying the directive's acknowledgement
//! (`thehoodDirectiveAck`: the run id, the call's nonce, the field's own name).
//!
//! Field names and enums are `004`'s, exact. Where `004` is silent the readings of `DESIGN.md`
//! hold, and three additions of ours are marked on their fields: the orchestrator's `task` is
//! `null` when its action delegates nothing, the orchestrator may ask for a fan-out (`fanout`),
//! and the implementer hands over the files it writes (`files`), since here no repository holds
//! them.
//!
//! A key `004` writes as `… | null` (`next_role`, `task`, the reasons, `markdown`) may be left
//! out and reads as `null`: `004`'s runtime validates the status, the summary, the payload key,
//! the control fields and the acknowledgement, and calls `markdown` optional (004:333). Every
//! other key is required.
//!
//! A check walks the generated shape first (every violation with its pointer), then holds the
//! answer to what a schema cannot say: the acknowledgement names this run and this call (an
//! earlier call's nonce is said to be one), the payload sits under the contract's key (another
//! role's key is named as such), an acknowledgement at the envelope's root is in the wrong place.
//! A wrapper `{"agent_response": …}` is unwrapped with a warning.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::directive::Directive;
use roundtable_engine::text::cut_at_word;
use roundtable_engine::validate::{self, Options, Violation};

/// The limits of an answer's texts and lists.
pub mod limits {
    /// A one-line field: a reason, a summary, an objective.
    pub const LINE_MAX: usize = 2_000;
    /// The Markdown of a plan, report or review.
    pub const MARKDOWN_MAX: usize = 20_000;
    /// One item of a list (a criterion, a risk, a path).
    pub const ITEM_MAX: usize = 1_000;
    /// The most items in a list.
    pub const LIST_MAX: usize = 30;
    /// The most files an implementer writes in one answer.
    pub const FILES_MAX: usize = 24;
    /// The largest file, in bytes.
    pub const FILE_BYTES_MAX: usize = 60_000;
    /// The most parallel slots a fan-out may ask for (`004`'s hard maximum).
    pub const FANOUT_HARD_MAX: u8 = 8;
}

/// The answer's overall status: `blocked` and `failed` pause the run with the role's reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The work asked for is done (its outcome may still be a failing verdict).
    Ok,
    /// The role cannot go on without something it lacks; the summary says what.
    Blocked,
    /// The role tried and could not do the work; the summary says why.
    Failed,
}

/// The acknowledgement's `responseField`: the field's own name, so a model that copies the
/// directive's block shows it read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ResponseField {
    /// The only value.
    #[serde(rename = "thehoodDirectiveAck")]
    ThehoodDirectiveAck,
}

/// `thehoodDirectiveAck`: which run and which call this answer is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DirectiveAck {
    /// The run's id, as the directive gives it.
    #[schemars(length(min = 1, max = 80))]
    pub run_id: String,
    /// This call's nonce, as the directive gives it.
    #[schemars(length(min = 1, max = 80))]
    pub nonce: String,
    /// Always `thehoodDirectiveAck`.
    pub response_field: ResponseField,
}

/// The orchestrator's (and the planner's) next move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Hand a task to `next_role`.
    Delegate,
    /// Ask the verifier to judge the latest implementation.
    Verify,
    /// Ask the critic to review the work so far.
    Critique,
    /// Wait for the person's approval (`approval_request` says why).
    RequestApproval,
    /// Change the plan.
    RevisePlan,
    /// Finish: the success criteria are met and verified.
    Complete,
    /// Stop the run without finishing.
    Abort,
}

/// How sure a decision is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// A guess; more evidence could change it.
    Low,
    /// Likely right.
    Medium,
    /// Backed by evidence.
    High,
}

/// The role a decision hands the run to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NextRole {
    /// Writes or revises the plan.
    Planner,
    /// Gathers facts the plan needs.
    Researcher,
    /// Writes the files.
    Implementer,
    /// Tests the implementation (advisory).
    Qa,
    /// Judges the implementation against the acceptance criteria.
    Verifier,
    /// Looks for what the others missed.
    Critic,
    /// Merges parallel work.
    Integrator,
}

/// What the delegated role may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ToolPermissions {
    /// May read the run's files.
    pub read: bool,
    /// May write files.
    pub edit: bool,
    /// May run commands.
    pub shell: bool,
    /// May reach the network.
    pub network: bool,
}

/// The work a decision delegates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Task {
    /// What the role is to achieve.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub objective: String,
    /// Paths the role may write.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 1, max = limits::ITEM_MAX)))]
    pub allowed_paths: Vec<String>,
    /// Paths the role must leave alone.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 1, max = limits::ITEM_MAX)))]
    pub disallowed_paths: Vec<String>,
    /// How the result will be judged, one testable sentence each.
    #[schemars(length(min = 1, max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub acceptance_criteria: Vec<String>,
    /// What the role may do.
    pub tool_permissions: ToolPermissions,
}

/// An approval option the person is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalOption {
    /// Go on as proposed.
    Approve,
    /// Stop the run.
    Reject,
    /// Go on after changes the person writes.
    Revise,
}

/// Whether the decision waits for the person, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ApprovalRequest {
    /// True when the person must decide before the run goes on.
    pub required: bool,
    /// What the person is asked to approve; `null` when nothing is asked.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub reason: Option<String>,
    /// The choices offered; empty when nothing is asked.
    #[schemars(length(max = 3))]
    pub options: Vec<ApprovalOption>,
}

/// Whether the run should stop, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Stop {
    /// True when the run should end after this decision.
    pub should_stop: bool,
    /// Why; `null` when the run goes on.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub reason: Option<String>,
}

/// A role that only reads, so may run in a fan-out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadOnlyRole {
    /// Proposes plans.
    Planner,
    /// Gathers facts.
    Researcher,
    /// Tests (advisory).
    Qa,
    /// Judges against the criteria.
    Verifier,
    /// Looks for what was missed.
    Critic,
}

// Ours: `004` names the `fanout` artifact the runtime writes after one (a role per item), not
// how it is asked for. Deserialized by hand: a log written before mixed roles holds
// `{role, count, instruction}`, read as `count` calls of `role`.
/// A bounded group of read-only calls, one role each (the same role as often as wanted). The
/// calls of one role run at once, the roles one after another in the order of their first call;
/// the decision delegates to the first call's role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FanoutRequest {
    /// What every call is asked.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub instruction: String,
    /// The role of each call, in order, 1 to 8 calls; the runtime may run only the first ones
    /// (the run's own maximum).
    #[schemars(length(min = 1, max = limits::FANOUT_HARD_MAX))]
    pub roles: Vec<ReadOnlyRole>,
}

impl<'de> Deserialize<'de> for FanoutRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// Both shapes a log may hold: today's, and the one-role request of older builds.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            Roles {
                instruction: String,
                roles: Vec<ReadOnlyRole>,
            },
            OneRole {
                role: ReadOnlyRole,
                count: u8,
                instruction: String,
            },
        }
        Ok(match Wire::deserialize(d)? {
            Wire::Roles { instruction, roles } => FanoutRequest { instruction, roles },
            Wire::OneRole {
                role,
                count,
                instruction,
            } => FanoutRequest {
                instruction,
                roles: vec![role; usize::from(count)],
            },
        })
    }
}

/// `decision`: the orchestrator's (or planner's) answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "DecisionPayload")]
pub struct Decision {
    /// The next move.
    pub action: Action,
    /// Why this move, in a sentence or two.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub reason: String,
    /// A plan or rationale in GitHub-flavored Markdown, or `null`.
    #[schemars(length(max = limits::MARKDOWN_MAX))]
    pub markdown: Option<String>,
    /// How sure the decision is.
    pub confidence: Confidence,
    /// The role that acts next; `null` when no role is called.
    pub next_role: Option<NextRole>,
    /// The delegated work; `null` when the action delegates nothing (ours: `complete`, `abort`).
    pub task: Option<Task>,
    /// Whether the person must approve first.
    pub approval_request: ApprovalRequest,
    /// Whether the run should end.
    pub stop: Stop,
    /// A fan-out of read-only calls, or `null` (ours).
    pub fanout: Option<FanoutRequest>,
    /// The directive's acknowledgement.
    #[serde(rename = "thehoodDirectiveAck")]
    pub ack: DirectiveAck,
}

/// `research_result`: what the researcher found (`004` names the key only; ours).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "ResearchPayload")]
pub struct Research {
    /// The report in GitHub-flavored Markdown, or `null`.
    #[schemars(length(max = limits::MARKDOWN_MAX))]
    pub markdown: Option<String>,
    /// Findings, each one sentence with where it comes from.
    #[schemars(length(min = 1, max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub findings: Vec<String>,
    /// What the research could not settle.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub open_questions: Vec<String>,
    /// The directive's acknowledgement.
    #[serde(rename = "thehoodDirectiveAck")]
    pub ack: DirectiveAck,
}

/// What an implementation did overall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImplementationStatus {
    /// Files were written.
    Changed,
    /// Nothing needed changing.
    NoChange,
    /// Cannot go on without something it lacks.
    Blocked,
    /// Tried and could not.
    Failed,
}

/// How a file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChangeType {
    /// A new file.
    Added,
    /// An existing file, rewritten.
    Modified,
    /// A file removed.
    Deleted,
    /// A file moved.
    Renamed,
}

/// One changed file, as the implementer describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChangedFile {
    /// The file's relative path.
    #[schemars(length(min = 1, max = limits::ITEM_MAX))]
    pub path: String,
    /// How it changed.
    pub change_type: ChangeType,
    /// What changed, in one sentence.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub summary: String,
}

/// A protected file the implementer changed, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProtectedFileChange {
    /// The protected file's path.
    #[schemars(length(min = 1, max = limits::ITEM_MAX))]
    pub path: String,
    /// Why it had to change.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub reason: String,
}

/// A command the implementer says it ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CommandRun {
    /// The command line.
    #[schemars(length(min = 1, max = limits::ITEM_MAX))]
    pub command: String,
    /// 0 for success; a negative code for a command killed by a signal.
    #[schemars(range(min = -255, max = 255))]
    pub exit_code: i32,
    /// What it printed that matters.
    #[schemars(length(max = limits::ITEM_MAX))]
    pub summary: String,
}

/// A file the implementer writes, whole (ours: the session holds the artifacts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileContent {
    /// The file's relative path.
    #[schemars(length(min = 1, max = limits::ITEM_MAX))]
    pub path: String,
    /// The whole file.
    #[schemars(length(max = limits::FILE_BYTES_MAX))]
    pub content: String,
}

/// `implementation_result`: the implementer's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "ImplementationPayload")]
pub struct Implementation {
    /// What the implementation did overall.
    pub status: ImplementationStatus,
    /// Notes for the reviewers in GitHub-flavored Markdown, or `null`.
    #[schemars(length(max = limits::MARKDOWN_MAX))]
    pub markdown: Option<String>,
    /// Every file changed.
    #[schemars(length(max = limits::FILES_MAX))]
    pub changed_files: Vec<ChangedFile>,
    /// Protected files changed, each with its reason.
    #[schemars(length(max = limits::FILES_MAX))]
    pub protected_file_changes: Vec<ProtectedFileChange>,
    /// Commands run, with their exit codes.
    #[schemars(length(max = limits::LIST_MAX))]
    pub commands_run: Vec<CommandRun>,
    /// Anything the reviewers should know.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub notes: Vec<String>,
    /// Risks the implementation leaves open.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub unresolved_risks: Vec<String>,
    /// The content of every file added or modified, whole (ours: `004` names the changes, and
    /// here no repository holds the files). Required only when files are added or modified.
    #[serde(default)]
    #[schemars(length(max = limits::FILES_MAX))]
    pub files: Vec<FileContent>,
    /// The directive's acknowledgement.
    #[serde(rename = "thehoodDirectiveAck")]
    pub ack: DirectiveAck,
}

/// QA's verdict: advisory, it never satisfies the runtime's own QA lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QaVerdict {
    /// Every case tried passed.
    Pass,
    /// A case fails; the implementation must change.
    NeedsRevision,
    /// Not enough to judge.
    NeedsMoreEvidence,
    /// Cannot test.
    Blocked,
}

/// `qa_result`: the QA tester's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "QaPayload")]
pub struct Qa {
    /// The verdict.
    pub verdict: QaVerdict,
    /// The verdict's reason, in a sentence or two.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub summary: String,
    /// The test report in GitHub-flavored Markdown, or `null`.
    #[schemars(length(max = limits::MARKDOWN_MAX))]
    pub markdown: Option<String>,
    /// Commands that would check the implementation deterministically.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 1, max = limits::ITEM_MAX)))]
    pub suggested_commands: Vec<String>,
    /// Cases or risks not yet covered.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub risks: Vec<String>,
    /// The directive's acknowledgement.
    #[serde(rename = "thehoodDirectiveAck")]
    pub ack: DirectiveAck,
}

/// The verifier's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerifierVerdict {
    /// Every acceptance criterion is met, with evidence.
    Approve,
    /// A criterion is not met; the implementation must change.
    Revise,
    /// The work should stop.
    Abort,
    /// Only the person can decide.
    AskUser,
}

/// What a piece of evidence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// A diff between versions.
    Diff,
    /// A test run's log.
    TestLog,
    /// A linter's log.
    LintLog,
    /// A type checker's log.
    TypecheckLog,
    /// A file as read.
    FileRead,
    /// What the runtime recorded.
    RuntimeMetadata,
}

/// One piece of evidence the verifier weighed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Evidence {
    /// What it is.
    pub kind: EvidenceKind,
    /// Which artifact or log, by the ref the prompt gives it.
    #[schemars(length(min = 1, max = limits::ITEM_MAX))]
    pub r#ref: String,
    /// What it shows.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub finding: String,
}

/// How severe a risk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth noting.
    Low,
    /// Should be fixed soon.
    Medium,
    /// Must be fixed before use.
    High,
}

/// A risk the verifier sees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Risk {
    /// How severe it is.
    pub severity: Severity,
    /// The risk, in one sentence.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub description: String,
}

/// Who acts next, in the verifier's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NextActor {
    /// The orchestrator decides.
    Orchestrator,
    /// The implementer repairs.
    Implementer,
    /// The person decides.
    User,
    /// Nothing more is needed.
    None,
}

/// The verifier's next step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NextAction {
    /// Who acts.
    pub role: NextActor,
    /// What they should do; empty when nothing is needed.
    #[schemars(length(max = limits::LINE_MAX))]
    pub instruction: String,
}

/// `verification_result`: the verifier's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "VerificationPayload")]
pub struct Verification {
    /// The verdict.
    pub verdict: VerifierVerdict,
    /// The verdict's reason, in a sentence or two.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub summary: String,
    /// The review in GitHub-flavored Markdown, or `null`.
    #[schemars(length(max = limits::MARKDOWN_MAX))]
    pub markdown: Option<String>,
    /// The evidence weighed.
    #[schemars(length(max = limits::LIST_MAX))]
    pub evidence: Vec<Evidence>,
    /// Acceptance criteria not met, as written in the task.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub failed_criteria: Vec<String>,
    /// Risks seen.
    #[schemars(length(max = limits::LIST_MAX))]
    pub risks: Vec<Risk>,
    /// Who acts next and how.
    pub next_action: NextAction,
    /// The directive's acknowledgement.
    #[serde(rename = "thehoodDirectiveAck")]
    pub ack: DirectiveAck,
}

/// The critic's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CriticVerdict {
    /// Good enough to go on.
    Acceptable,
    /// Must change first.
    NeedsRevision,
    /// Harmful as it stands.
    Unsafe,
    /// Cannot be judged from what was given.
    Unclear,
}

/// `critique_result`: the critic's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "CritiquePayload")]
pub struct Critique {
    /// The verdict.
    pub verdict: CriticVerdict,
    /// The critique in GitHub-flavored Markdown, or `null`.
    #[schemars(length(max = limits::MARKDOWN_MAX))]
    pub markdown: Option<String>,
    /// Concerns that must be resolved before going on.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub blocking_concerns: Vec<String>,
    /// Concerns worth fixing that need not stop the run.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub non_blocking_concerns: Vec<String>,
    /// Other ways to reach the goal.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub alternative_paths: Vec<String>,
    /// What should happen next, in a sentence.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub recommended_next_action: String,
    /// The directive's acknowledgement.
    #[serde(rename = "thehoodDirectiveAck")]
    pub ack: DirectiveAck,
}

/// How the run ended against its plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReconciliationStatus {
    /// Every plan item is done and every criterion met.
    Complete,
    /// Some items are done.
    Partial,
    /// The work left the plan.
    OffPlan,
    /// The run could not go on.
    Blocked,
}

/// The slice of work to do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NextSlice {
    /// What the next slice achieves.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub objective: String,
    /// Why it comes next.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub rationale: String,
    /// How it will be judged.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub acceptance_criteria: Vec<String>,
}

/// `reconciliation_result`: the run's closing account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "ReconciliationPayload")]
pub struct Reconciliation {
    /// How the run ended against its plan.
    pub status: ReconciliationStatus,
    /// The account in GitHub-flavored Markdown, or `null`.
    #[schemars(length(max = limits::MARKDOWN_MAX))]
    pub markdown: Option<String>,
    /// Plan items done.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub completed_plan_items: Vec<String>,
    /// Success criteria met, with evidence.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub satisfied_criteria: Vec<String>,
    /// Plan items not done.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub missing_plan_items: Vec<String>,
    /// Where the work left the plan.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub deviations: Vec<String>,
    /// The slice to do next.
    pub next_recommended_slice: NextSlice,
    /// True when only the person can decide what comes next.
    pub needs_user_decision: bool,
    /// What the person must decide; `null` when nothing.
    #[schemars(length(min = 3, max = limits::LINE_MAX))]
    pub user_decision_reason: Option<String>,
    /// The directive's acknowledgement.
    #[serde(rename = "thehoodDirectiveAck")]
    pub ack: DirectiveAck,
}

/// Writes the contracts: for each, the envelope type whose `data` holds the payload under the
/// contract's key, and [`Contract`] / [`Payload`] with one variant each.
macro_rules! contracts {
    ($($variant:ident($payload:ident) $key:ident $key_text:literal $envelope:ident $data:ident $schema:literal $role:literal,)*) => {
        $(
            #[doc = concat!("`data` of a `", stringify!($key), "` answer.")]
            #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
            pub struct $data {
                #[doc = concat!("What ", $role, " answers.")]
                pub $key: $payload,
            }

            #[doc = concat!("The `agent_response` envelope of a `", stringify!($key), "` answer.")]
            #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
            #[schemars(title = $schema)]
            pub struct $envelope {
                /// Whether the work is done, blocked or failed.
                pub status: Status,
                /// The answer in a sentence or two.
                #[schemars(length(min = 3, max = limits::LINE_MAX))]
                pub summary: String,
                /// The role's payload, under its key.
                pub data: $data,
            }
        )*

        /// What a call asks for: the payload key its answer must carry, and with it its schema.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Contract {
            $(#[doc = concat!("`", stringify!($key), "`, answered by ", $role, ".")] $variant,)*
        }

        /// A checked answer's payload, under the contract's key as the answer carries it (so
        /// [`Response`] reads and writes exactly the `agent_response` envelope).
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub enum Payload {
            $(#[doc = concat!("`", stringify!($key), "`.")] #[serde(rename = $key_text)] $variant($payload),)*
        }

        impl Contract {
            /// Every contract, in the order of `004`'s schema document.
            pub const ALL: [Contract; 7] = [$(Contract::$variant),*];

            /// The key under `data` (`decision`, `qa_result`, …).
            pub fn key(self) -> &'static str {
                match self { $(Contract::$variant => stringify!($key),)* }
            }

            /// The schema's name (`review_decision`, …): its file in `core/schemas/`.
            pub fn schema_name(self) -> &'static str {
                match self { $(Contract::$variant => $schema,)* }
            }

            /// Who answers it, in a person's words.
            pub fn role_words(self) -> &'static str {
                match self { $(Contract::$variant => $role,)* }
            }

            /// The JSON Schema of the envelope, derived with `schemars` (draft 2020-12): what
            /// the committed `core/schemas/<name>.plain.json` is checked against.
            pub fn derive_schema(self) -> Value {
                let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
                match self {
                    $(Contract::$variant => generator.into_root_schema_for::<$envelope>(),)*
                }
                .to_value()
            }

        }

        impl Payload {
            /// The contract whose key the payload sits under.
            pub fn contract(&self) -> Contract {
                match self { $(Payload::$variant(_) => Contract::$variant,)* }
            }

            /// The acknowledgement the payload carries.
            pub fn ack(&self) -> &DirectiveAck {
                match self { $(Payload::$variant(p) => &p.ack,)* }
            }
        }
    };
}

contracts! {
    Decision(Decision) decision "decision" DecisionEnvelope DecisionData "review_decision" "the orchestrator or the planner",
    Research(Research) research_result "research_result" ResearchEnvelope ResearchData "review_research" "the researcher",
    Implementation(Implementation) implementation_result "implementation_result" ImplementationEnvelope ImplementationData "review_implementation" "the implementer",
    Qa(Qa) qa_result "qa_result" QaEnvelope QaData "review_qa" "the QA tester",
    Verification(Verification) verification_result "verification_result" VerificationEnvelope VerificationData "review_verification" "the verifier",
    Critique(Critique) critique_result "critique_result" CritiqueEnvelope CritiqueData "review_critique" "the critic",
    Reconciliation(Reconciliation) reconciliation_result "reconciliation_result" ReconciliationEnvelope ReconciliationData "review_reconciliation" "the orchestrator closing the run",
}

/// A checked answer: the `agent_response` envelope of any contract, read and written as the
/// model sends it (`{status, summary, data: {<key>: payload}}`) — what the event log keeps of an
/// applied answer. One type for every contract: the per-contract envelopes exist for their
/// schemas, and a checked answer is read through this one reader.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// The envelope's status.
    pub status: Status,
    /// The envelope's summary.
    pub summary: String,
    /// The role's payload, under its key.
    #[serde(rename = "data")]
    pub payload: Payload,
}

impl Contract {
    /// `value` (an answer to this contract) as pretty JSON with its fields in the schema's
    /// order — status, summary, then data; the acknowledgement last in the payload — or `None`
    /// when it is not a valid answer's shape.
    pub fn in_field_order(self, value: &Value) -> Option<String> {
        let response: Response = serde_json::from_str(&value.to_string()).ok()?;
        let compact = serde_json::to_string(&response).ok()?;
        (response.payload.contract() == self)
            .then(|| roundtable_engine::text::pretty_json(&compact))
    }
}

/// The field name of the acknowledgement.
pub const ACK_FIELD: &str = "thehoodDirectiveAck";

/// The answer read through its shape and acknowledgement: the response when its shape holds
/// (so the caller can hold it to further rules, all said together), and every violation so
/// far — of the shape, else of the acknowledgement.
pub fn read(
    contract: Contract,
    raw: &str,
    directive: &Directive,
    options: Options,
    warnings: &mut Vec<Violation>,
) -> (Option<Response>, Vec<Violation>) {
    let shape = super::shape::answer_object(contract.schema_name())
        .expect("every review contract has a shape");
    let mut verdict = validate::check_object(shape, raw, options);
    // `{"agent_response": {…}}`: 004's YAML names the envelope so; its body is the answer.
    let unwrapped = (!verdict.errors.is_empty())
        .then(|| wrapped_body(&verdict.json))
        .flatten();
    let unwrapped_json;
    if let Some(body) = unwrapped {
        unwrapped_json = body;
        let inner = validate::check_object(shape, &unwrapped_json, options);
        warnings.push(Violation {
            path: String::new(),
            message: "the answer is wrapped in {\"agent_response\": …}; its body was read".into(),
            expected: "the envelope itself: {\"status\", \"summary\", \"data\"}".into(),
            received: "{\"agent_response\": {…}}".into(),
            hint: "answer with the envelope's fields at the top level".into(),
        });
        verdict = validate::Verdict {
            errors: inner.errors,
            warnings: inner.warnings,
            json: std::borrow::Cow::Owned(inner.json.into_owned()),
        };
    }
    let root: Option<Value> = serde_json::from_str(&verdict.json).ok();
    // A second role's payload beside this one's: refused, pointing at the extra key (the
    // shape check only warns of an unknown field, and the one reader could not read it).
    let extra = extra_payloads(contract, root.as_ref());
    let extra_keys: Vec<String> = extra.iter().map(|v| v.path.clone()).collect();
    warnings.extend(
        verdict
            .warnings
            .into_iter()
            .filter(|w| !extra_keys.contains(&w.path)),
    );
    if !verdict.errors.is_empty() || !extra.is_empty() {
        let mut errors = explain(contract, verdict.errors, root.as_ref());
        errors.extend(extra);
        // A stale or wrong nonce is said even beside other mistakes: it may be why they are.
        if let Some(ack) = raw_ack(contract, root.as_ref()) {
            for v in ack_problems(contract, &ack, directive) {
                if !errors.iter().any(|e| e.path == v.path) {
                    errors.push(v);
                }
            }
        }
        return (None, errors);
    }
    // The shape check holds the payload to this contract's key, so the one reader of every
    // envelope reads it as this contract's.
    match validate::read_checked::<Response>(&verdict.json) {
        Ok(response) => {
            let errors = ack_problems(contract, response.payload.ack(), directive);
            (Some(response), errors)
        }
        Err(v) => (None, vec![v]),
    }
}

/// Another contract's payload under `data` beside this contract's, each as a violation at its
/// key.
fn extra_payloads(contract: Contract, root: Option<&Value>) -> Vec<Violation> {
    let Some(data) = root.and_then(|r| r.get("data")).and_then(Value::as_object) else {
        return Vec::new();
    };
    let key = contract.key();
    if !data.contains_key(key) {
        return Vec::new();
    }
    Contract::ALL
        .into_iter()
        .filter(|c| c.key() != key && data.contains_key(c.key()))
        .map(|other| Violation {
            path: format!("/data/{}", other.key()),
            message: format!(
                "data holds two role payloads: {} (the answer of {}) beside {key}",
                other.key(),
                other.role_words()
            ),
            expected: format!("data.{key} alone"),
            received: format!("data.{key} and data.{}", other.key()),
            hint: format!(
                "this call asks {} for {key} only: remove data.{}",
                contract.role_words(),
                other.key()
            ),
        })
        .collect()
}

/// The acknowledgement as written, when its run id and nonce are strings, whatever else the
/// answer gets wrong.
fn raw_ack(contract: Contract, root: Option<&Value>) -> Option<DirectiveAck> {
    let ack = root?.get("data")?.get(contract.key())?.get(ACK_FIELD)?;
    Some(DirectiveAck {
        run_id: ack.get("runId")?.as_str()?.to_string(),
        nonce: ack.get("nonce")?.as_str()?.to_string(),
        response_field: ResponseField::ThehoodDirectiveAck,
    })
}

/// The body of a `{"agent_response": {…}}` wrapper, as JSON text.
fn wrapped_body(json: &str) -> Option<String> {
    let value: Value = serde_json::from_str(json).ok()?;
    let map = value.as_object()?;
    if map.len() != 1 {
        return None;
    }
    let body = map.get("agent_response")?;
    body.is_object().then(|| body.to_string())
}

/// The shape's violations, with the two mistakes a model makes most said for what they are: the
/// payload under another role's key, and the acknowledgement at the envelope's root.
fn explain(contract: Contract, mut errors: Vec<Violation>, root: Option<&Value>) -> Vec<Violation> {
    let key = contract.key();
    let data_pointer = format!("/data/{key}");
    let ack_pointer = format!("/data/{key}/{ACK_FIELD}");
    let other_key = root
        .and_then(|r| r.get("data"))
        .and_then(Value::as_object)
        .and_then(|d| {
            Contract::ALL
                .into_iter()
                .find(|c| c.key() != key && d.contains_key(c.key()))
        });
    let ack_at_root = root.and_then(|r| r.get(ACK_FIELD)).is_some();
    for e in &mut errors {
        if e.path == data_pointer {
            if let Some(other) = other_key {
                e.message = format!(
                    "data holds {} (the answer of {}), not {key}",
                    other.key(),
                    other.role_words()
                );
                e.expected = format!("data.{key}");
                e.received = format!("data.{}", other.key());
                e.hint = format!(
                    "this call asks {} for {key}: put the payload under data.{key}",
                    contract.role_words()
                );
            }
        } else if e.path == ack_pointer && ack_at_root {
            e.message = format!("{ACK_FIELD} is at the top of the answer, not inside data.{key}");
            e.expected = format!("{ACK_FIELD} inside data.{key}");
            e.received = format!("{ACK_FIELD} at the top level");
            e.hint = format!("move {ACK_FIELD} into data.{key}, beside the role's fields");
        }
    }
    errors
}

/// Every way the acknowledgement fails to name this run and this call.
fn ack_problems(contract: Contract, ack: &DirectiveAck, directive: &Directive) -> Vec<Violation> {
    let at = format!("/data/{}/{ACK_FIELD}", contract.key());
    let mut out = Vec::new();
    if ack.run_id != directive.run_id {
        out.push(Violation {
            path: format!("{at}/runId"),
            message: "the run id is not this run's".into(),
            expected: directive.run_id.clone(),
            received: cut_at_word(&ack.run_id, 80).to_string(),
            hint: "copy runId from the directive's acknowledgement block".into(),
        });
    }
    if ack.nonce != directive.nonce {
        let earlier = directive.earlier.contains(&ack.nonce);
        out.push(Violation {
            path: format!("{at}/nonce"),
            message: if earlier {
                "the nonce is an earlier call's: this answer is to a directive that is over".into()
            } else {
                "the nonce is not this call's".into()
            },
            expected: directive.nonce.clone(),
            received: cut_at_word(&ack.nonce, 80).to_string(),
            hint: "answer this directive only, and copy its nonce exactly".into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use roundtable_engine::validate::shape_gen::check_object_tables;

    /// `kinds/review/src/shape.rs` is what the schemas generate, and says exactly what they say
    /// (`UPDATE_SHAPES=1` rewrites it).
    #[test]
    fn committed_shape_tables_are_current() {
        let schemas: Vec<_> = Contract::ALL.iter().map(|c| c.derive_schema()).collect();
        check_object_tables(
            concat!(env!("CARGO_MANIFEST_DIR"), "/src/shape.rs"),
            "review",
            "the review loop's",
            "Review",
            include_str!("shape.rs"),
            &schemas,
            super::super::shape::answer_object,
        );
    }
}
