// Generated from core/schemas/*.plain.json by core-js/src/ts_types.rs: do not edit.
// UPDATE_TS_TYPES=1 cargo test -p roundtable-core-js ts_types rewrites it.

/** The chair accepts a version of a product, or rejects the latest one. */
export interface AcceptanceDecision {
  /** Product temp id. */
  productId: string;
  /** Accepted or not. */
  accepted: boolean;
  /** Why not. */
  rejectionReason?: string | null;
  /** The accepted version. */
  versionId?: string | null;
}

/**
 * The orchestrator's (and the planner's) next move.
 * - `delegate`: Hand a task to `next_role`.
 * - `verify`: Ask the verifier to judge the latest implementation.
 * - `critique`: Ask the critic to review the work so far.
 * - `request_approval`: Wait for the person's approval (`approval_request` says why).
 * - `revise_plan`: Change the plan.
 * - `complete`: Finish: the success criteria are met and verified.
 * - `abort`: Stop the run without finishing.
 */
export type Action = "delegate" | "verify" | "critique" | "request_approval" | "revise_plan" | "complete" | "abort";

/** One action item of the minutes. */
export interface ActionItem {
  /** The attendee who owns it (an attendee id, or `user-1` for the person). */
  owner: string;
  /** What is to be done. */
  task: string;
  /** When, in words ("by Friday"), if anyone said. */
  due?: string | null;
}

/**
 * An approval option the person is offered.
 * - `approve`: Go on as proposed.
 * - `reject`: Stop the run.
 * - `revise`: Go on after changes the person writes.
 */
export type ApprovalOption = "approve" | "reject" | "revise";

/** Whether the decision waits for the person, and why. */
export interface ApprovalRequest {
  /** True when the person must decide before the run goes on. */
  required: boolean;
  /** The choices offered; empty when nothing is asked. */
  options: ApprovalOption[];
  /** What the person is asked to approve; `null` when nothing is asked. */
  reason?: string | null;
}

/** One product given to one member for this round's Write step. */
export interface AssignmentOutput {
  /** Product temp id (or a `new-N` added in the same answer). */
  productId: string;
  /** Member id, e.g. `operative-1`. */
  assignee: string;
  /** What to do. */
  directive: Directive;
  /** Other products to show the assignee. */
  attachedContext?: AttachedContext[] | null;
}

/** Context from another product the chair attaches to an assignment. */
export interface AttachedContext {
  /** Product temp id. */
  productId: string;
  /** Which parts. */
  include: AttachmentPart[];
  /** Why the assignee needs it. */
  reason: string;
}

/**
 * What to attach from another product.
 * - `content`: Its current version.
 * - `feedback`: Its collabs.
 */
export type AttachmentPart = "content" | "feedback";

/** Bootstrap's final output: the charter, personas, domains and first products. */
export interface BootstrapOutput {
  /** Reasoning. */
  thinking: BootstrapThinking;
  /** Max 2000 chars. */
  mission: string;
  /** The objectives. */
  objectives: string;
  /** The constraints. */
  constraints: string;
  /** Member id → persona, max 500 chars each. */
  personas: Record<string, string>;
  /** Operative id → domain. */
  operativeDomains: Record<string, OperativeDomain>;
  /** First products. */
  initialProducts: InitialProduct[];
  /** What the chair still needs from the person. */
  missingDetails?: string[] | null;
}

/** Mid-session changes of the charter by the chair. */
export interface BootstrapOverrides {
  /** Max 2000 chars. */
  mission?: string | null;
  /** Max 1000 chars. */
  objectives?: string | null;
  /** Operative id → partial domain. */
  operativeDomains?: Record<string, OperativeDomainPatch> | null;
  /** Member id → persona, max 500 chars each. */
  personas?: Record<string, string> | null;
}

/** The chair's reasoning in Bootstrap. */
export interface BootstrapThinking {
  /** How the chair reads the request. */
  interpretation: string;
  /** What is in and out of scope. */
  scopeDecisions: string;
}

/** A version the chair writes itself during PlanAssign. */
export interface ChairVersion {
  /** Product temp id. */
  productId: string;
  /**
   * The content: the whole product, held to a written version's limits
   * (50–100000 chars).
   */
  content: string;
  /** What changed. */
  changeSummary: string;
}

/**
 * How a file changed.
 * - `added`: A new file.
 * - `modified`: An existing file, rewritten.
 * - `deleted`: A file removed.
 * - `renamed`: A file moved.
 */
export type ChangeType = "added" | "modified" | "deleted" | "renamed";

/** One changed file, as the implementer describes it. */
export interface ChangedFile {
  /** The file's relative path. */
  path: string;
  /** How it changed. */
  change_type: ChangeType;
  /** What changed, in one sentence. */
  summary: string;
}

/** The coach's finding on one requirement. */
export interface CheckItem {
  /** The requirement's id (`R1`). */
  requirement: string;
  /** Whether the code meets it. */
  met: boolean;
  /** How the coach knows (a test that passed, the code read), or what is wrong. */
  evidence: string;
}

/** A comment on a product, addressed to members, that later prompts surface to its owner. */
export interface CollabOutput {
  /** Temp id of the product it is about. */
  refersToProduct: string;
  /** Kind of comment. */
  type: CollabType;
  /** 1–10. */
  importance: number;
  /** The comment (max 5000 chars). */
  comment: string;
  /** One line for lists (max 120 chars). */
  shortestSummary: string;
  /** Members it is addressed to. */
  addresseeIds?: string[] | null;
  /** Other products it mentions. */
  referencesProductIds?: string[] | null;
  /** Temp id of the version it is about. */
  refersToVersion?: string | null;
  /** Collabs it answers. */
  respondingToCollabIds?: string[] | null;
}

/**
 * What a collab says about a product.
 * - `feedback`: General feedback.
 * - `question`: Something the author wants answered.
 * - `suggestion`: A proposed change.
 * - `endorsement`: Agreement, without restating the content.
 * - `concern`: A risk or a problem.
 */
export type CollabType = "feedback" | "question" | "suggestion" | "endorsement" | "concern";

/** A command the implementer says it ran. */
export interface CommandRun {
  /** The command line. */
  command: string;
  /** 0 for success; a negative code for a command killed by a signal. */
  exit_code: number;
  /** What it printed that matters. */
  summary: string;
}

/**
 * How sure a decision is.
 * - `low`: A guess; more evidence could change it.
 * - `medium`: Likely right.
 * - `high`: Backed by evidence.
 */
export type Confidence = "low" | "medium" | "high";

/**
 * What a member may ask for instead of answering: more of the tree than its prompt showed.
 * - `full_content`: The whole current version of a product.
 * - `version_history`: Every version with its change summary and reflection note.
 * - `all_feedback`: Every collab on the product.
 * - `peer_content`: The current versions of products written by other members.
 */
export type ContextNeed = "full_content" | "version_history" | "all_feedback" | "peer_content";

/** One slice of context a member asks for. */
export interface ContextRequest {
  /** Temp id of the product (`p3`). */
  productId: string;
  /** Which slice. */
  need: ContextNeed;
  /** Why the member needs it (max 500 chars). */
  reason: string;
}

/** One contradiction a critic finds in the thesis (Hegelion's `contradictions`). */
export interface Contradiction {
  /** What contradicts what. */
  description: string;
  /** What shows it: a fact, a case, a step of the argument. */
  evidence: string;
}

/**
 * The critic's verdict.
 * - `acceptable`: Good enough to go on.
 * - `needs_revision`: Must change first.
 * - `unsafe`: Harmful as it stands.
 * - `unclear`: Cannot be judged from what was given.
 */
export type CriticVerdict = "acceptable" | "needs_revision" | "unsafe" | "unclear";

/** `data` of a `critique_result` answer. */
export interface CritiqueData {
  /** What the critic answers. */
  critique_result: CritiquePayload;
}

/** `critique_result`: the critic's answer. */
export interface CritiquePayload {
  /** The verdict. */
  verdict: CriticVerdict;
  /** Concerns that must be resolved before going on. */
  blocking_concerns: string[];
  /** Concerns worth fixing that need not stop the run. */
  non_blocking_concerns: string[];
  /** Other ways to reach the goal. */
  alternative_paths: string[];
  /** What should happen next, in a sentence. */
  recommended_next_action: string;
  /** The directive's acknowledgement. */
  thehoodDirectiveAck: DirectiveAck;
  /** The critique in GitHub-flavored Markdown, or `null`. */
  markdown?: string | null;
}

/** `data` of a `decision` answer. */
export interface DecisionData {
  /** What the orchestrator or the planner answers. */
  decision: DecisionPayload;
}

/** `decision`: the orchestrator's (or planner's) answer. */
export interface DecisionPayload {
  /** The next move. */
  action: Action;
  /** Why this move, in a sentence or two. */
  reason: string;
  /** How sure the decision is. */
  confidence: Confidence;
  /** Whether the person must approve first. */
  approval_request: ApprovalRequest;
  /** Whether the run should end. */
  stop: Stop;
  /** The directive's acknowledgement. */
  thehoodDirectiveAck: DirectiveAck;
  /** A fan-out of read-only calls, or `null` (ours). */
  fanout?: FanoutRequest | null;
  /** A plan or rationale in GitHub-flavored Markdown, or `null`. */
  markdown?: string | null;
  /** The role that acts next; `null` when no role is called. */
  next_role?: NextRole | null;
  /** The delegated work; `null` when the action delegates nothing (ours: `complete`, `abort`). */
  task?: Task | null;
}

/**
 * The three decisions of spec `001`.
 * - `continue`: Give the floor to someone.
 * - `change_phase`: Move to another phase.
 * - `end_meeting`: End the meeting.
 */
export type DecisionWord = "continue" | "change_phase" | "end_meeting";

/** What the chair tells an assignee to do with a product this round. */
export interface Directive {
  /** What to achieve. */
  objective: string;
  /** When it counts as done. */
  dod: string;
  /** Why it matters. */
  why: string;
  /** Anything else the assignee should know. */
  context?: string | null;
}

/** `thehoodDirectiveAck`: which run and which call this answer is for. */
export interface DirectiveAck {
  /** The run's id, as the directive gives it. */
  runId: string;
  /** This call's nonce, as the directive gives it. */
  nonce: string;
  /** Always `thehoodDirectiveAck`. */
  responseField: ResponseField;
}

/**
 * How far a product is from its definition of done.
 * - `met`: Done.
 * - `partially_met`: Partly done.
 * - `not_met`: Not done.
 */
export type DodStatus = "met" | "partially_met" | "not_met";

/** One piece of evidence the verifier weighed. */
export interface Evidence {
  /** What it is. */
  kind: EvidenceKind;
  /** Which artifact or log, by the ref the prompt gives it. */
  ref: string;
  /** What it shows. */
  finding: string;
}

/**
 * What a piece of evidence is.
 * - `diff`: A diff between versions.
 * - `test_log`: A test run's log.
 * - `lint_log`: A linter's log.
 * - `typecheck_log`: A type checker's log.
 * - `file_read`: A file as read.
 * - `runtime_metadata`: What the runtime recorded.
 */
export type EvidenceKind = "diff" | "test_log" | "lint_log" | "typecheck_log" | "file_read" | "runtime_metadata";

/**
 * A bounded group of read-only calls, one role each (the same role as often as wanted). The
 * calls of one role run at once, the roles one after another in the order of their first call;
 * the decision delegates to the first call's role.
 */
export interface FanoutRequest {
  /** What every call is asked. */
  instruction: string;
  /**
   * The role of each call, in order, 1 to 8 calls; the runtime may run only the first ones
   * (the run's own maximum).
   */
  roles: ReadOnlyRole[];
}

/**
 * What a member does with one collab it received.
 * - `accept`: Will act on it.
 * - `defer`: Later.
 * - `reject`: Will not act on it.
 */
export type FeedbackAction = "accept" | "defer" | "reject";

/** A member's answer to one collab. */
export interface FeedbackResponse {
  /** Collab temp id. */
  collabId: string;
  /** Accept, defer or reject. */
  action: FeedbackAction;
  /** Why. */
  rationale: string;
  /** What will change. */
  plannedChange?: string | null;
}

/** A file the implementer writes, whole (ours: the session holds the artifacts). */
export interface FileContent {
  /** The file's relative path. */
  path: string;
  /** The whole file. */
  content: string;
}

/** One file the player writes, whole. */
export interface FileWrite {
  /** Relative path with `/` (`lib/add.js`). */
  path: string;
  /** The whole file. */
  content: string;
}

/** One problem the inspector found. */
export interface Finding {
  /** What it is about. */
  category: FindingCategory;
  /** 1–10. */
  severity: number;
  /** The problem. */
  issue: string;
  /** The fix. */
  recommendation: string;
  /** Which part of the definition of done it breaks. */
  dodCriterion?: string | null;
}

/**
 * What an inspection finding is about.
 * - `security`: Safety and security.
 * - `completeness`: Missing parts.
 * - `coherence`: Internal consistency.
 * - `integration`: Fit with the other products.
 * - `quality`: General quality.
 */
export type FindingCategory = "security" | "completeness" | "coherence" | "integration" | "quality";

/** A pause for the person: a question (with optional choices) or the end of the rounds. */
export interface Halt {
  /** Question or done. */
  type: HaltType;
  /** Recipients: `["user-1"]` or `["u:all"]` (only the person answers a halt). */
  to: ("user-1" | "u:all")[];
  /** What the person reads (max 2000 chars). */
  message: string;
  /** Choices offered for a question; the person may still answer freely. */
  options?: string[] | null;
}

/**
 * Why a member stops the flow.
 * - `question`: The person must answer before the session goes on.
 * - `done`: The chair declares the work finished; Presentation follows.
 */
export type HaltType = "question" | "done";

/** `data` of a `implementation_result` answer. */
export interface ImplementationData {
  /** What the implementer answers. */
  implementation_result: ImplementationPayload;
}

/** `implementation_result`: the implementer's answer. */
export interface ImplementationPayload {
  /** What the implementation did overall. */
  status: ImplementationStatus;
  /** Every file changed. */
  changed_files: ChangedFile[];
  /** Protected files changed, each with its reason. */
  protected_file_changes: ProtectedFileChange[];
  /** Commands run, with their exit codes. */
  commands_run: CommandRun[];
  /** Anything the reviewers should know. */
  notes: string[];
  /** Risks the implementation leaves open. */
  unresolved_risks: string[];
  /** The directive's acknowledgement. */
  thehoodDirectiveAck: DirectiveAck;
  /**
   * The content of every file added or modified, whole (ours: `004` names the changes, and
   * here no repository holds the files). Required only when files are added or modified.
   */
  files: FileContent[];
  /** Notes for the reviewers in GitHub-flavored Markdown, or `null`. */
  markdown?: string | null;
}

/**
 * What an implementation did overall.
 * - `changed`: Files were written.
 * - `no_change`: Nothing needed changing.
 * - `blocked`: Cannot go on without something it lacks.
 * - `failed`: Tried and could not.
 */
export type ImplementationStatus = "changed" | "no_change" | "blocked" | "failed";

/** A product Bootstrap creates. */
export interface InitialProduct {
  /** Max 200 chars. */
  name: string;
  /** Kind of product. */
  type: ProductType;
  /** Definition of done. */
  dod: string;
  /** Member id that owns it, or null. */
  owner?: string | null;
}

/** One inspection of one version. */
export interface Inspection {
  /** Product temp id. */
  productId: string;
  /** Version temp id. */
  versionId: string;
  /** Verdict. */
  assessment: InspectionAssessment;
  /** Problems found. */
  findings: Finding[];
}

/**
 * The inspector's verdict.
 * - `approved`: Good as it is.
 * - `needs_revision`: Needs another version.
 * - `blocked`: Cannot go on.
 */
export type InspectionAssessment = "approved" | "needs_revision" | "blocked";

/** Inspection's final output. */
export interface InspectionOutput {
  /**
   * The inspections: at least one (the inspector is called only when there are versions to
   * inspect).
   */
  inspections: Inspection[];
  /** Default `[]`. */
  collabs: CollabOutput[];
  /** Default `[]`. */
  remarks: RemarkOutput[];
}

/** A new product as a tree operation creates it. */
export interface NewProduct {
  /** Max 200 chars; unique among its siblings. */
  name: string;
  /** Kind of product. */
  type: ProductType;
  /** Definition of done (max 1000 chars). */
  dod: string;
  /** Member id to assign it to. */
  assignee?: string | null;
  /** Longer description. */
  description?: string | null;
}

/** The body of a new version. */
export interface NewVersion {
  /** Max 200 chars. */
  contentTitle: string;
  /** 50 to 100000 chars of Markdown, never JSON. */
  content: string;
  /** What changed since the last version. */
  changeSummary: string;
}

/** The verifier's next step. */
export interface NextAction {
  /** Who acts. */
  role: NextActor;
  /** What they should do; empty when nothing is needed. */
  instruction: string;
}

/**
 * Who acts next, in the verifier's view.
 * - `orchestrator`: The orchestrator decides.
 * - `implementer`: The implementer repairs.
 * - `user`: The person decides.
 * - `none`: Nothing more is needed.
 */
export type NextActor = "orchestrator" | "implementer" | "user" | "none";

/**
 * The role a decision hands the run to.
 * - `planner`: Writes or revises the plan.
 * - `researcher`: Gathers facts the plan needs.
 * - `implementer`: Writes the files.
 * - `qa`: Tests the implementation (advisory).
 * - `verifier`: Judges the implementation against the acceptance criteria.
 * - `critic`: Looks for what the others missed.
 * - `integrator`: Merges parallel work.
 */
export type NextRole = "planner" | "researcher" | "implementer" | "qa" | "verifier" | "critic" | "integrator";

/** The slice of work to do next. */
export interface NextSlice {
  /** What the next slice achieves. */
  objective: string;
  /** Why it comes next. */
  rationale: string;
  /** How it will be judged. */
  acceptance_criteria: string[];
}

/** An operative's field of work. */
export interface OperativeDomain {
  /**
   * What it is responsible for (max 500 chars, as an
   * override may set it: one limit for both).
   */
  responsibility: string;
  /** Its area (max 100 chars). */
  area: string;
}

/** A partial change of an operative's domain. */
export interface OperativeDomainPatch {
  /** Max 100 chars. */
  area?: string | null;
  /** Max 500 chars. */
  responsibility?: string | null;
}

/** PeerReview's final output. */
export interface PeerReviewOutput {
  /** The reviews. */
  reviews: Review[];
  /** Default `[]`. */
  collabs: CollabOutput[];
  /** Default `[]`. */
  remarks: RemarkOutput[];
}

/**
 * The seven phases of a meeting, in order (spec `001`).
 * - `Initialization`: Goals, constraints, who brings what.
 * - `ProblemClarification`: What exactly the problem is: facts, unknowns, success criteria.
 * - `OptionGeneration`: Distinct options.
 * - `Evaluation`: Options weighed against the criteria.
 * - `Decision`: One option chosen, and why.
 * - `ExecutionPlanning`: Who does what by when.
 * - `Conclusion`: Recap and close.
 */
export type Phase = "Initialization" | "ProblemClarification" | "OptionGeneration" | "Evaluation" | "Decision" | "ExecutionPlanning" | "Conclusion";

/** PlanAssign's final output: the only answer that changes the tree and accepts versions. */
export interface PlanAssignOutput {
  /** Reasoning. */
  thinking: PlanThinking;
  /** Default `[]`. */
  acceptance: AcceptanceDecision[];
  /** Default `[]`. */
  assignments: AssignmentOutput[];
  /** Charter changes. */
  bootstrapOverrides?: BootstrapOverrides | null;
  /** Versions the chair writes itself. */
  chairVersions?: ChairVersion[] | null;
  /** Default `[]`. */
  remarks: RemarkOutput[];
  /** Default `[]`. */
  treeOperations: TreeOperation[];
}

/** The chair's reasoning in PlanAssign. */
export interface PlanThinking {
  /** The plan for this round. */
  roundStrategy: string;
  /** Why versions were accepted or rejected. */
  acceptanceRationale: string;
}

/** One message of the presentation. */
export interface PresentationMessage {
  /** The message (Markdown). */
  content: string;
  /** Member id speaking. */
  asAgent: string;
}

/** Presentation's final output. */
export interface PresentationOutput {
  /** Between 1 and 10 messages. */
  messages: PresentationMessage[];
}

/** The fields an UPDATE may change. `assignee: null` unassigns, an absent `assignee` keeps it. */
export interface ProductPatch {
  /** Absent: unchanged. `null`: unassigned. A member id: reassigned. */
  assignee?: string | null;
  /** New description. */
  description?: string | null;
  /** New definition of done: the same limit as an ADD's (1000 chars). */
  dod?: string | null;
  /** New name: the same limit as an ADD's (200 chars). */
  name?: string | null;
  /** New kind. */
  type?: ProductType | null;
}

/**
 * The four kinds of product.
 * - `Content`: A text that gets written and revised.
 * - `Decision`: A choice to be made and recorded.
 * - `Collection`: A grouping of other products.
 * - `Orchestration`: Coordination work.
 */
export type ProductType = "Content" | "Decision" | "Collection" | "Orchestration";

/** A protected file the implementer changed, and why. */
export interface ProtectedFileChange {
  /** The protected file's path. */
  path: string;
  /** Why it had to change. */
  reason: string;
}

/** `data` of a `qa_result` answer. */
export interface QaData {
  /** What the QA tester answers. */
  qa_result: QaPayload;
}

/** `qa_result`: the QA tester's answer. */
export interface QaPayload {
  /** The verdict. */
  verdict: QaVerdict;
  /** The verdict's reason, in a sentence or two. */
  summary: string;
  /** Commands that would check the implementation deterministically. */
  suggested_commands: string[];
  /** Cases or risks not yet covered. */
  risks: string[];
  /** The directive's acknowledgement. */
  thehoodDirectiveAck: DirectiveAck;
  /** The test report in GitHub-flavored Markdown, or `null`. */
  markdown?: string | null;
}

/**
 * QA's verdict: advisory, it never satisfies the runtime's own QA lane.
 * - `pass`: Every case tried passed.
 * - `needs_revision`: A case fails; the implementation must change.
 * - `needs_more_evidence`: Not enough to judge.
 * - `blocked`: Cannot test.
 */
export type QaVerdict = "pass" | "needs_revision" | "needs_more_evidence" | "blocked";

/**
 * A role that only reads, so may run in a fan-out.
 * - `planner`: Proposes plans.
 * - `researcher`: Gathers facts.
 * - `qa`: Tests (advisory).
 * - `verifier`: Judges against the criteria.
 * - `critic`: Looks for what was missed.
 */
export type ReadOnlyRole = "planner" | "researcher" | "qa" | "verifier" | "critic";

/** `data` of a `reconciliation_result` answer. */
export interface ReconciliationData {
  /** What the orchestrator closing the run answers. */
  reconciliation_result: ReconciliationPayload;
}

/** `reconciliation_result`: the run's closing account. */
export interface ReconciliationPayload {
  /** How the run ended against its plan. */
  status: ReconciliationStatus;
  /** Plan items done. */
  completed_plan_items: string[];
  /** Success criteria met, with evidence. */
  satisfied_criteria: string[];
  /** Plan items not done. */
  missing_plan_items: string[];
  /** Where the work left the plan. */
  deviations: string[];
  /** The slice to do next. */
  next_recommended_slice: NextSlice;
  /** True when only the person can decide what comes next. */
  needs_user_decision: boolean;
  /** The directive's acknowledgement. */
  thehoodDirectiveAck: DirectiveAck;
  /** The account in GitHub-flavored Markdown, or `null`. */
  markdown?: string | null;
  /** What the person must decide; `null` when nothing. */
  user_decision_reason?: string | null;
}

/**
 * How the run ended against its plan.
 * - `complete`: Every plan item is done and every criterion met.
 * - `partial`: Some items are done.
 * - `off_plan`: The work left the plan.
 * - `blocked`: The run could not go on.
 */
export type ReconciliationStatus = "complete" | "partial" | "off_plan" | "blocked";

/** Reflect's final output. */
export interface ReflectOutput {
  /** One per product written last round. */
  reflections: Reflection[];
  /** Default `[]`. */
  collabs: CollabOutput[];
  /** Default `[]`. */
  remarks: RemarkOutput[];
}

/** A member's look back on one product it wrote. */
export interface Reflection {
  /** Product temp id. */
  refersToProduct: string;
  /** Against its definition of done. */
  dodStatus: DodStatus;
  /** Answers to received collabs. */
  feedbackResponses: FeedbackResponse[];
  /** What the next version will change. */
  nextVersionDelta: string;
  /** What stops it. */
  blockers?: string[] | null;
  /** What is missing. */
  dodGaps?: string[] | null;
}

/** A message to people or members that is not about one product (e.g. to the person, to the chair). */
export interface RemarkOutput {
  /**
   * `['user']`, `['chair']`, `['team']`, `['operative-1']`: at least one (a remark to nobody
   * reaches nobody).
   */
  recipients: string[];
  /** Kind of remark. */
  type: RemarkType;
  /** The message (max 2000 chars). */
  content: string;
  /** True when the work cannot go on without an answer. */
  isBlocker?: boolean | null;
}

/**
 * Kind of remark.
 * - `question`: Asks something.
 * - `suggestion`: Proposes something.
 * - `observation`: States something noticed.
 * - `note`: A note for the record.
 * - `missing_detail`: Something the member needs but does not have.
 * - `blocker`: Something that stops the work.
 * - `comment`: Anything else.
 */
export type RemarkType = "question" | "suggestion" | "observation" | "note" | "missing_detail" | "blocker" | "comment";

/** `data` of a `research_result` answer. */
export interface ResearchData {
  /** What the researcher answers. */
  research_result: ResearchPayload;
}

/** `research_result`: what the researcher found (`004` names the key only; ours). */
export interface ResearchPayload {
  /** Findings, each one sentence with where it comes from. */
  findings: string[];
  /** What the research could not settle. */
  open_questions: string[];
  /** The directive's acknowledgement. */
  thehoodDirectiveAck: DirectiveAck;
  /** The report in GitHub-flavored Markdown, or `null`. */
  markdown?: string | null;
}

/** A way to settle what the dialectic left open (Hegelion's `research_proposals`). */
export interface ResearchProposal {
  /** What to find out, and how. */
  proposal: string;
  /** What would be observed if the synthesis is right. */
  testable_prediction: string;
}

/**
 * The acknowledgement's `responseField`: the field's own name, so a model that copies the
 * directive's block shows it read it.
 * - `thehoodDirectiveAck`: The only value.
 */
export type ResponseField = "thehoodDirectiveAck";

/** One peer review of one version. */
export interface Review {
  /** Product temp id. */
  productId: string;
  /** Version temp id. */
  versionId: string;
  /** Verdict. */
  assessment: ReviewAssessment;
  /** Why. */
  summary: string;
}

/**
 * A reviewer's verdict.
 * - `approved`: Good as it is.
 * - `needs_revision`: Needs another version.
 */
export type ReviewAssessment = "approved" | "needs_revision";

/** A risk the verifier sees. */
export interface Risk {
  /** How severe it is. */
  severity: Severity;
  /** The risk, in one sentence. */
  description: string;
}

/**
 * How severe a risk is.
 * - `low`: Worth noting.
 * - `medium`: Should be fixed soon.
 * - `high`: Must be fixed before use.
 */
export type Severity = "low" | "medium" | "high";

/**
 * The answer's overall status: `blocked` and `failed` pause the run with the role's reason.
 * - `ok`: The work asked for is done (its outcome may still be a failing verdict).
 * - `blocked`: The role cannot go on without something it lacks; the summary says what.
 * - `failed`: The role tried and could not do the work; the summary says why.
 */
export type Status = "ok" | "blocked" | "failed";

/** Whether the run should stop, and why. */
export interface Stop {
  /** True when the run should end after this decision. */
  should_stop: boolean;
  /** Why; `null` when the run goes on. */
  reason?: string | null;
}

/** The work a decision delegates. */
export interface Task {
  /** What the role is to achieve. */
  objective: string;
  /** Paths the role may write. */
  allowed_paths: string[];
  /** Paths the role must leave alone. */
  disallowed_paths: string[];
  /** How the result will be judged, one testable sentence each. */
  acceptance_criteria: string[];
  /** What the role may do. */
  tool_permissions: ToolPermissions;
}

/** What the delegated role may do. */
export interface ToolPermissions {
  /** May read the run's files. */
  read: boolean;
  /** May write files. */
  edit: boolean;
  /** May run commands. */
  shell: boolean;
  /** May reach the network. */
  network: boolean;
}

/** One change to the product tree, applied all-or-nothing with the others of its answer. */
export type TreeOperation =
  | {
    action: "ADD";
    /** `new-N`; later parts of the same answer may refer to it. */
    newId: string;
    /** Existing product temp id, or a `new-N` added earlier in the same answer. */
    parentId: string;
    /** The product. */
    product: NewProduct;
    /** Why. */
    reason?: string | null;
  }
  | {
    action: "REMOVE";
    /** Product temp id. */
    productId: string;
    /** Why (required). */
    reason: string;
  }
  | {
    action: "MOVE";
    /** Product temp id. */
    productId: string;
    /** New parent temp id. */
    parentId: string;
    /** Why. */
    reason?: string | null;
  }
  | {
    action: "UPDATE";
    /** Product temp id. */
    productId: string;
    /** The fields to change. */
    product: ProductPatch;
    /** Why. */
    reason?: string | null;
  };

/** `data` of a `verification_result` answer. */
export interface VerificationData {
  /** What the verifier answers. */
  verification_result: VerificationPayload;
}

/** `verification_result`: the verifier's answer. */
export interface VerificationPayload {
  /** The verdict. */
  verdict: VerifierVerdict;
  /** The verdict's reason, in a sentence or two. */
  summary: string;
  /** The evidence weighed. */
  evidence: Evidence[];
  /** Acceptance criteria not met, as written in the task. */
  failed_criteria: string[];
  /** Risks seen. */
  risks: Risk[];
  /** Who acts next and how. */
  next_action: NextAction;
  /** The directive's acknowledgement. */
  thehoodDirectiveAck: DirectiveAck;
  /** The review in GitHub-flavored Markdown, or `null`. */
  markdown?: string | null;
}

/**
 * The verifier's verdict.
 * - `approve`: Every acceptance criterion is met, with evidence.
 * - `revise`: A criterion is not met; the implementation must change.
 * - `abort`: The work should stop.
 * - `ask_user`: Only the person can decide.
 */
export type VerifierVerdict = "approve" | "revise" | "abort" | "ask_user";

/** Write's final output. */
export interface WriteOutput {
  /** Default `[]`. */
  collabs: CollabOutput[];
  /** Default `[]`. */
  remarks: RemarkOutput[];
  /** Default `[]`. */
  versions: WrittenVersion[];
}

/** One new version of one assigned product. */
export interface WrittenVersion {
  /** Product temp id. */
  productId: string;
  /** The version. */
  newVersion: NewVersion;
}

/**
 * The wire shape of one step's answer: `responseType` tags which of the three it is. Steps that may
 * not halt still parse a halt here; the validator refuses it with a clear message and the JSON
 * Schema of such a step drops the branch (see crate::step_schema).
 */
export type BootstrapAnswer =
  | {
    responseType: "request_context";
    /** 1–5 requests. */
    contextRequests: ContextRequest[];
  }
  | {
    responseType: "halt";
    /** The halt. */
    halt: Halt;
  }
  | ({
    responseType: "final_output";
  } & BootstrapOutput);

/**
 * The wire shape of one step's answer: `responseType` tags which of the three it is. Steps that may
 * not halt still parse a halt here; the validator refuses it with a clear message and the JSON
 * Schema of such a step drops the branch (see crate::step_schema).
 */
export type ReflectAnswer =
  | {
    responseType: "request_context";
    /** 1–5 requests. */
    contextRequests: ContextRequest[];
  }
  | ({
    responseType: "final_output";
  } & ReflectOutput);

/**
 * The wire shape of one step's answer: `responseType` tags which of the three it is. Steps that may
 * not halt still parse a halt here; the validator refuses it with a clear message and the JSON
 * Schema of such a step drops the branch (see crate::step_schema).
 */
export type PlanAssignAnswer =
  | {
    responseType: "request_context";
    /** 1–5 requests. */
    contextRequests: ContextRequest[];
  }
  | {
    responseType: "halt";
    /** The halt. */
    halt: Halt;
  }
  | ({
    responseType: "final_output";
  } & PlanAssignOutput);

/**
 * The wire shape of one step's answer: `responseType` tags which of the three it is. Steps that may
 * not halt still parse a halt here; the validator refuses it with a clear message and the JSON
 * Schema of such a step drops the branch (see crate::step_schema).
 */
export type WriteAnswer =
  | {
    responseType: "request_context";
    /** 1–5 requests. */
    contextRequests: ContextRequest[];
  }
  | ({
    responseType: "final_output";
  } & WriteOutput);

/**
 * The wire shape of one step's answer: `responseType` tags which of the three it is. Steps that may
 * not halt still parse a halt here; the validator refuses it with a clear message and the JSON
 * Schema of such a step drops the branch (see crate::step_schema).
 */
export type PeerReviewAnswer =
  | {
    responseType: "request_context";
    /** 1–5 requests. */
    contextRequests: ContextRequest[];
  }
  | ({
    responseType: "final_output";
  } & PeerReviewOutput);

/**
 * The wire shape of one step's answer: `responseType` tags which of the three it is. Steps that may
 * not halt still parse a halt here; the validator refuses it with a clear message and the JSON
 * Schema of such a step drops the branch (see crate::step_schema).
 */
export type InspectionAnswer =
  | {
    responseType: "request_context";
    /** 1–5 requests. */
    contextRequests: ContextRequest[];
  }
  | ({
    responseType: "final_output";
  } & InspectionOutput);

/**
 * The wire shape of one step's answer: `responseType` tags which of the three it is. Steps that may
 * not halt still parse a halt here; the validator refuses it with a clear message and the JSON
 * Schema of such a step drops the branch (see crate::step_schema).
 */
export type PresentationAnswer =
  | {
    responseType: "request_context";
    /** 1–5 requests. */
    contextRequests: ContextRequest[];
  }
  | ({
    responseType: "final_output";
  } & PresentationOutput);

/** The coach's review of a turn. */
export interface AutocodingCoach {
  /** One finding per requirement. */
  checklist: CheckItem[];
  /** What the player must do next. */
  actions: string[];
  /** How well the code meets the requirements, from 0 to 1. */
  score: number;
  /** Whether the coach approves the code. */
  approved: boolean;
}

/** The player's turn: files written (new or replaced) and files removed. */
export interface AutocodingPlayer {
  /** Files to write, each whole. */
  files: FileWrite[];
  /** Paths of files to remove. */
  delete: string[];
}

/** A critic's antithesis: the thesis attacked from its own standpoint. */
export interface DialecticAntithesis {
  /** The version of this structure. */
  schema_version: number;
  /** The critique, in Markdown. */
  antithesis: string;
  /** The contradictions found, each with its evidence. */
  contradictions: Contradiction[];
  /** What the critique itself takes for granted. */
  assumptions: string[];
  /** What it is unsure of. */
  uncertainties: string[];
}

/** The single shot: thesis, antithesis and synthesis in one answer. */
export interface DialecticSingleShot {
  /** The version of this structure. */
  schema_version: number;
  /** The thesis, argued in Markdown. */
  thesis: string;
  /** The strongest critique of it, in Markdown. */
  antithesis: string;
  /** The synthesis, in the response style. */
  synthesis: string;
  /** The contradictions the critique found, each with its evidence. */
  contradictions: Contradiction[];
  /** How to test what remains open. */
  research_proposals: ResearchProposal[];
  /** What the answer takes for granted. */
  assumptions: string[];
  /** What it is still unsure of. */
  uncertainties: string[];
  /** With the `json` style and the person's `response_schema`: the answer in that shape. */
  result?: unknown;
}

/** The synthesis: what survives thesis and critiques, in the response style. */
export interface DialecticSynthesis {
  /** The version of this structure. */
  schema_version: number;
  /** The synthesis, in the response style. */
  synthesis: string;
  /** How to test what remains open. */
  research_proposals: ResearchProposal[];
  /** What the synthesis takes for granted. */
  assumptions: string[];
  /** What it is still unsure of. */
  uncertainties: string[];
  /** With the `json` style and the person's `response_schema`: the answer in that shape. */
  result?: unknown;
}

/** The thesis: the strongest honest answer to the query. */
export interface DialecticThesis {
  /** The version of this structure. */
  schema_version: number;
  /** The position, argued in Markdown. */
  thesis: string;
  /** What the position takes for granted, one item each. */
  assumptions: string[];
  /** What it is unsure of, one item each. */
  uncertainties: string[];
}

/** A member's turn: what it says, in Markdown. */
export interface MeetingContribution {
  /** What the member says, in Markdown: one to four short paragraphs or a short list. */
  contribution: string;
}

/** The orchestrator's decision as sent (spec `001`): the source of its JSON Schema. */
export interface MeetingDecision {
  /** `continue`, `change_phase` or `end_meeting`. */
  decision: DecisionWord;
  /** Always required: the reasoning behind the decision. */
  rationale: string;
  /** Required with `end_meeting`: why the meeting ends. */
  end_reason?: string | null;
  /** Required with `change_phase`: the phase to move to. */
  new_phase?: Phase | null;
  /** Required with `continue`: the attendee who speaks next. */
  next_agent_id?: string | null;
}

/** The minutes the orchestrator writes when the meeting ends. */
export interface MeetingMinutes {
  /** What the meeting was about and how it went, in two to four sentences. */
  summary: string;
  /** What was decided, one item each. */
  decisions: string[];
  /** Who does what. */
  action_items: ActionItem[];
  /** What is still open. */
  open_questions: string[];
}

/** The `agent_response` envelope of a `critique_result` answer. */
export interface ReviewCritique {
  /** Whether the work is done, blocked or failed. */
  status: Status;
  /** The answer in a sentence or two. */
  summary: string;
  /** The role's payload, under its key. */
  data: CritiqueData;
}

/** The `agent_response` envelope of a `decision` answer. */
export interface ReviewDecision {
  /** Whether the work is done, blocked or failed. */
  status: Status;
  /** The answer in a sentence or two. */
  summary: string;
  /** The role's payload, under its key. */
  data: DecisionData;
}

/** The `agent_response` envelope of a `implementation_result` answer. */
export interface ReviewImplementation {
  /** Whether the work is done, blocked or failed. */
  status: Status;
  /** The answer in a sentence or two. */
  summary: string;
  /** The role's payload, under its key. */
  data: ImplementationData;
}

/** The `agent_response` envelope of a `qa_result` answer. */
export interface ReviewQa {
  /** Whether the work is done, blocked or failed. */
  status: Status;
  /** The answer in a sentence or two. */
  summary: string;
  /** The role's payload, under its key. */
  data: QaData;
}

/** The `agent_response` envelope of a `reconciliation_result` answer. */
export interface ReviewReconciliation {
  /** Whether the work is done, blocked or failed. */
  status: Status;
  /** The answer in a sentence or two. */
  summary: string;
  /** The role's payload, under its key. */
  data: ReconciliationData;
}

/** The `agent_response` envelope of a `research_result` answer. */
export interface ReviewResearch {
  /** Whether the work is done, blocked or failed. */
  status: Status;
  /** The answer in a sentence or two. */
  summary: string;
  /** The role's payload, under its key. */
  data: ResearchData;
}

/** The `agent_response` envelope of a `verification_result` answer. */
export interface ReviewVerification {
  /** Whether the work is done, blocked or failed. */
  status: Status;
  /** The answer in a sentence or two. */
  summary: string;
  /** The role's payload, under its key. */
  data: VerificationData;
}

/** The answer shape of every step of every kind, by schema name. */
export interface Answers {
  bootstrap: BootstrapAnswer;
  reflect: ReflectAnswer;
  plan_assign: PlanAssignAnswer;
  write: WriteAnswer;
  peer_review: PeerReviewAnswer;
  inspection: InspectionAnswer;
  presentation: PresentationAnswer;
  autocoding_coach: AutocodingCoach;
  autocoding_player: AutocodingPlayer;
  dialectic_antithesis: DialecticAntithesis;
  dialectic_single_shot: DialecticSingleShot;
  dialectic_synthesis: DialecticSynthesis;
  dialectic_thesis: DialecticThesis;
  meeting_contribution: MeetingContribution;
  meeting_decision: MeetingDecision;
  meeting_minutes: MeetingMinutes;
  review_critique: ReviewCritique;
  review_decision: ReviewDecision;
  review_implementation: ReviewImplementation;
  review_qa: ReviewQa;
  review_reconciliation: ReviewReconciliation;
  review_research: ReviewResearch;
  review_verification: ReviewVerification;
}

/** The team's steps, by wire name: the steps `validateStep` and `stepSchema` take. */
export type StepName =
  | "bootstrap"
  | "reflect"
  | "plan_assign"
  | "write"
  | "peer_review"
  | "inspection"
  | "presentation";

/** The final output of each step, by step name. */
export interface FinalOutputs {
  bootstrap: BootstrapOutput;
  reflect: ReflectOutput;
  plan_assign: PlanAssignOutput;
  write: WriteOutput;
  peer_review: PeerReviewOutput;
  inspection: InspectionOutput;
  presentation: PresentationOutput;
}

/** The steps that may halt (the step × responseType matrix of spec 000). */
export type HaltingStep = "bootstrap" | "plan_assign";
