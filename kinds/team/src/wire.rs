//! The wire types of every step of a team session (spec `000`), exactly as models must write them.
//!
//! Field names are camelCase, `responseType` is the tag of every answer, enum values are spelled as
//! the spec spells them (`ADD`, `needs_revision`, `full_content`). Every limit of the spec is a named
//! constant in [`limits`] so that the validator, the JSON Schemas and the prompts quote the same
//! numbers. The types derive `serde` (to read a validated answer and to write events) and `schemars`
//! (to hand providers a JSON Schema of each step); see [`crate::answer_schema::step_schema`].

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every limit the spec puts on an answer, named so that one number never drifts between the
/// validator, the JSON Schema and the prompt that tells the model about it.
pub mod limits {
    /// `contextRequests[].reason`: max chars.
    pub const CONTEXT_REASON_MAX: usize = 500;
    /// `contextRequests`: at least this many entries.
    pub const CONTEXT_REQUESTS_MIN: usize = 1;
    /// `contextRequests`: at most this many entries.
    pub const CONTEXT_REQUESTS_MAX: usize = 5;
    /// `halt.message`: max chars.
    pub const HALT_MESSAGE_MAX: usize = 2000;
    /// `collabs[].importance` and `findings[].severity`: lowest allowed value.
    pub const SCALE_MIN: i64 = 1;
    /// `collabs[].importance` and `findings[].severity`: highest allowed value.
    pub const SCALE_MAX: i64 = 10;
    /// `collabs[].comment`: max chars.
    pub const COLLAB_COMMENT_MAX: usize = 5000;
    /// `collabs[].shortestSummary`: max chars.
    pub const COLLAB_SUMMARY_MAX: usize = 120;
    /// `remarks[].content`: max chars.
    pub const REMARK_CONTENT_MAX: usize = 2000;
    /// A product's `name`: max chars.
    pub const PRODUCT_NAME_MAX: usize = 200;
    /// A product's `dod` (definition of done): max chars.
    pub const PRODUCT_DOD_MAX: usize = 1000;
    /// How deep the product tree may grow: the root is at depth 0, so a product may have at most
    /// this many ancestors. An ADD or MOVE that would go deeper is refused; a team's work never
    /// needs more, and a chain of thousands would make every prompt that lists it explode.
    pub const TREE_DEPTH_MAX: usize = 12;
    /// Bootstrap `mission` and `bootstrapOverrides.mission`: max chars.
    pub const MISSION_MAX: usize = 2000;
    /// `bootstrapOverrides.objectives`: max chars.
    pub const OBJECTIVES_MAX: usize = 1000;
    /// `bootstrapOverrides.personas` values: max chars each.
    pub const PERSONA_MAX: usize = 500;
    /// `bootstrapOverrides.operativeDomains[].responsibility`: max chars.
    pub const DOMAIN_RESPONSIBILITY_MAX: usize = 500;
    /// `bootstrapOverrides.operativeDomains[].area`: max chars.
    pub const DOMAIN_AREA_MAX: usize = 100;
    /// Write `newVersion.contentTitle`: max chars.
    pub const CONTENT_TITLE_MAX: usize = 200;
    /// Write `newVersion.content`: min chars (and it must be plain text, not JSON).
    pub const CONTENT_MIN: usize = 50;
    /// A version's content: max chars. One limit for every content, so that a session of even
    /// hundreds of full-size versions still fits the largest file import reads.
    pub const CONTENT_MAX: usize = 100_000;
    /// Presentation `messages`: at least this many.
    pub const MESSAGES_MIN: usize = 1;
    /// Presentation `messages`: at most this many.
    pub const MESSAGES_MAX: usize = 10;
}

/// The seven steps of a team session. The wire name (`plan_assign`, …) is what the JS API and the
/// event log use.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// The chair turns the person's request into a charter, personas and initial products.
    Bootstrap,
    /// Members who wrote last round look back on feedback before the chair plans.
    Reflect,
    /// The chair changes the tree, assigns work, accepts versions.
    PlanAssign,
    /// Assignees write new versions of their products.
    Write,
    /// Operatives review each other's new versions.
    PeerReview,
    /// The inspector (or the chair) checks versions against their definition of done.
    Inspection,
    /// The envoy (or the chair) presents the result to the person.
    Presentation,
}

/// Why a `responseType` another step allows is refused on this one: the validator's message
/// names the step, this hint follows with the response types to use instead.
pub(crate) const REFUSED_HINT: &str = "Only Bootstrap and PlanAssign may halt.";

impl Step {
    /// All steps in the order a session meets them, for iteration in tests, schemas and UIs.
    pub const ALL: [Step; 7] = [
        Step::Bootstrap,
        Step::Reflect,
        Step::PlanAssign,
        Step::Write,
        Step::PeerReview,
        Step::Inspection,
        Step::Presentation,
    ];

    /// The wire name (`plan_assign`), as the JS API and file names use it.
    pub fn wire_name(self) -> &'static str {
        match self {
            Step::Bootstrap => "bootstrap",
            Step::Reflect => "reflect",
            Step::PlanAssign => "plan_assign",
            Step::Write => "write",
            Step::PeerReview => "peer_review",
            Step::Inspection => "inspection",
            Step::Presentation => "presentation",
        }
    }

    /// Parses a wire name; `None` for anything else so callers can say which names exist.
    pub fn from_wire_name(name: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|s| s.wire_name() == name)
    }

    /// The step × responseType matrix of the spec: only Bootstrap and PlanAssign may halt.
    pub fn allows_halt(self) -> bool {
        matches!(self, Step::Bootstrap | Step::PlanAssign)
    }

    /// The name the spec gives the step (`PlanAssign`), for prompts and reports.
    pub fn title(self) -> &'static str {
        match self {
            Step::Bootstrap => "Bootstrap",
            Step::Reflect => "Reflect",
            Step::PlanAssign => "PlanAssign",
            Step::Write => "Write",
            Step::PeerReview => "PeerReview",
            Step::Inspection => "Inspection",
            Step::Presentation => "Presentation",
        }
    }
}

impl Step {
    /// The step in a person's words, as pages and the history slider name it (the spec's own
    /// names, [`Step::title`], stay what models and schemas read).
    pub fn words(self) -> &'static str {
        match self {
            Step::Bootstrap => "Setting up",
            Step::Reflect => "Reflection",
            Step::PlanAssign => "Chair's plan",
            Step::Write => "Writing",
            Step::PeerReview => "Peer review",
            Step::Inspection => "Inspection",
            Step::Presentation => "Presentation",
        }
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.wire_name())
    }
}

/// What a member may ask for instead of answering: more of the tree than its prompt showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContextNeed {
    /// The whole current version of a product.
    FullContent,
    /// Every version with its change summary and reflection note.
    VersionHistory,
    /// Every collab on the product.
    AllFeedback,
    /// The current versions of products written by other members.
    PeerContent,
}

/// One slice of context a member asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextRequest {
    /// Temp id of the product (`p3`).
    pub product_id: String,
    /// Which slice.
    pub need: ContextNeed,
    /// Why the member needs it (max [`limits::CONTEXT_REASON_MAX`] chars).
    #[schemars(length(max = limits::CONTEXT_REASON_MAX))]
    pub reason: String,
}

/// Why a member stops the flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HaltType {
    /// The person must answer before the session goes on.
    Question,
    /// The chair declares the work finished; Presentation follows.
    Done,
}

/// A pause for the person: a question (with optional choices) or the end of the rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Halt {
    /// Question or done.
    #[serde(rename = "type")]
    pub halt_type: HaltType,
    /// Recipients: `["user-1"]` or `["u:all"]` (only the person answers a halt).
    #[schemars(length(min = 1), extend("items" = {"type": "string", "enum": ["user-1", "u:all"]}))]
    pub to: Vec<String>,
    /// What the person reads (max [`limits::HALT_MESSAGE_MAX`] chars).
    #[schemars(length(max = limits::HALT_MESSAGE_MAX))]
    pub message: String,
    /// Choices offered for a question; the person may still answer freely.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
}

/// What a collab says about a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CollabType {
    /// General feedback.
    Feedback,
    /// Something the author wants answered.
    Question,
    /// A proposed change.
    Suggestion,
    /// Agreement, without restating the content.
    Endorsement,
    /// A risk or a problem.
    Concern,
}

/// A comment on a product, addressed to members, that later prompts surface to its owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollabOutput {
    /// Temp id of the product it is about.
    pub refers_to_product: String,
    /// Kind of comment.
    #[serde(rename = "type")]
    pub collab_type: CollabType,
    /// 1–10.
    #[schemars(range(min = limits::SCALE_MIN, max = limits::SCALE_MAX))]
    pub importance: i64,
    /// The comment (max [`limits::COLLAB_COMMENT_MAX`] chars).
    #[schemars(length(max = limits::COLLAB_COMMENT_MAX))]
    pub comment: String,
    /// One line for lists (max [`limits::COLLAB_SUMMARY_MAX`] chars).
    #[schemars(length(max = limits::COLLAB_SUMMARY_MAX))]
    pub shortest_summary: String,
    /// Temp id of the version it is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refers_to_version: Option<String>,
    /// Other products it mentions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references_product_ids: Option<Vec<String>>,
    /// Members it is addressed to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addressee_ids: Option<Vec<String>>,
    /// Collabs it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responding_to_collab_ids: Option<Vec<String>>,
}

/// Kind of remark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RemarkType {
    /// Asks something.
    Question,
    /// Proposes something.
    Suggestion,
    /// States something noticed.
    Observation,
    /// A note for the record.
    Note,
    /// Something the member needs but does not have.
    MissingDetail,
    /// Something that stops the work.
    Blocker,
    /// Anything else.
    Comment,
}

/// A message to people or members that is not about one product (e.g. to the person, to the chair).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemarkOutput {
    /// `['user']`, `['chair']`, `['team']`, `['operative-1']`: at least one (a remark to nobody
    /// reaches nobody).
    #[schemars(length(min = 1))]
    pub recipients: Vec<String>,
    /// Kind of remark.
    #[serde(rename = "type")]
    pub remark_type: RemarkType,
    /// The message (max [`limits::REMARK_CONTENT_MAX`] chars).
    #[schemars(length(max = limits::REMARK_CONTENT_MAX))]
    pub content: String,
    /// True when the work cannot go on without an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_blocker: Option<bool>,
}

/// The four kinds of product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum ProductType {
    /// A text that gets written and revised.
    Content,
    /// A choice to be made and recorded.
    Decision,
    /// A grouping of other products.
    Collection,
    /// Coordination work.
    Orchestration,
}

/// A new product as a tree operation creates it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewProduct {
    /// Max [`limits::PRODUCT_NAME_MAX`] chars; unique among its siblings.
    #[schemars(length(max = limits::PRODUCT_NAME_MAX))]
    pub name: String,
    /// Kind of product.
    #[serde(rename = "type")]
    pub product_type: ProductType,
    /// Definition of done (max [`limits::PRODUCT_DOD_MAX`] chars).
    #[schemars(length(max = limits::PRODUCT_DOD_MAX))]
    pub dod: String,
    /// Longer description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Member id to assign it to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignee: Option<String>,
}

/// The fields an UPDATE may change. `assignee: null` unassigns, an absent `assignee` keeps it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductPatch {
    /// New name: the same limit as an ADD's ([`limits::PRODUCT_NAME_MAX`] chars).
    #[schemars(length(max = limits::PRODUCT_NAME_MAX))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// New kind.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub product_type: Option<ProductType>,
    /// New definition of done: the same limit as an ADD's ([`limits::PRODUCT_DOD_MAX`] chars).
    #[schemars(length(max = limits::PRODUCT_DOD_MAX))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dod: Option<String>,
    /// New description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Absent: unchanged. `null`: unassigned. A member id: reassigned.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    #[schemars(with = "Option<String>")]
    pub assignee: Option<Option<String>>,
}

/// Distinguishes an absent field (`None`) from an explicit `null` (`Some(None)`).
mod double_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<Option<String>>, s: S) -> Result<S::Ok, S::Error> {
        v.as_ref().map(|inner| inner.as_deref()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Option<String>>, D::Error> {
        Option::<String>::deserialize(d).map(Some)
    }
}

/// One change to the product tree, applied all-or-nothing with the others of its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(remote = "Self")]
#[schemars(tag = "action")]
pub enum TreeOperation {
    /// Adds a product under an existing (or just-added) parent.
    #[serde(rename = "ADD", rename_all = "camelCase")]
    Add {
        /// `new-N`; later parts of the same answer may refer to it.
        new_id: String,
        /// Existing product temp id, or a `new-N` added earlier in the same answer.
        parent_id: String,
        /// The product.
        product: NewProduct,
        /// Why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Takes a product and its subtree out of the tree (their versions stay in history).
    #[serde(rename = "REMOVE", rename_all = "camelCase")]
    Remove {
        /// Product temp id.
        product_id: String,
        /// Why (required).
        reason: String,
    },
    /// Moves a product (and its subtree) under another parent.
    #[serde(rename = "MOVE", rename_all = "camelCase")]
    Move {
        /// Product temp id.
        product_id: String,
        /// New parent temp id.
        parent_id: String,
        /// Why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Changes some fields of a product.
    #[serde(rename = "UPDATE", rename_all = "camelCase")]
    Update {
        /// Product temp id.
        product_id: String,
        /// The fields to change.
        product: ProductPatch,
        /// Why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
}
roundtable_engine::tagged::tagged!([] TreeOperation, tag = "action");

/// What the chair tells an assignee to do with a product this round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Directive {
    /// What to achieve.
    pub objective: String,
    /// When it counts as done.
    pub dod: String,
    /// Why it matters.
    pub why: String,
    /// Anything else the assignee should know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// What to attach from another product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttachmentPart {
    /// Its current version.
    Content,
    /// Its collabs.
    Feedback,
}

/// Context from another product the chair attaches to an assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttachedContext {
    /// Product temp id.
    pub product_id: String,
    /// Which parts.
    pub include: Vec<AttachmentPart>,
    /// Why the assignee needs it.
    pub reason: String,
}

/// One product given to one member for this round's Write step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssignmentOutput {
    /// Product temp id (or a `new-N` added in the same answer).
    pub product_id: String,
    /// Member id, e.g. `operative-1`.
    pub assignee: String,
    /// What to do.
    pub directive: Directive,
    /// Other products to show the assignee.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_context: Option<Vec<AttachedContext>>,
}

/// The chair accepts a version of a product, or rejects the latest one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AcceptanceDecision {
    /// Product temp id.
    pub product_id: String,
    /// Accepted or not.
    pub accepted: bool,
    /// The accepted version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_id: Option<String>,
    /// Why not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejection_reason: Option<String>,
}

/// A version the chair writes itself during PlanAssign.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChairVersion {
    /// Product temp id.
    pub product_id: String,
    /// The content: the whole product, held to a written version's limits
    /// ([`limits::CONTENT_MIN`]–[`limits::CONTENT_MAX`] chars).
    #[schemars(length(min = limits::CONTENT_MIN, max = limits::CONTENT_MAX))]
    pub content: roundtable_engine::text::Text,
    /// What changed.
    pub change_summary: String,
}

/// An operative's field of work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OperativeDomain {
    /// What it is responsible for (max [`limits::DOMAIN_RESPONSIBILITY_MAX`] chars, as an
    /// override may set it: one limit for both).
    #[schemars(length(max = limits::DOMAIN_RESPONSIBILITY_MAX))]
    pub responsibility: String,
    /// Its area (max [`limits::DOMAIN_AREA_MAX`] chars).
    #[schemars(length(max = limits::DOMAIN_AREA_MAX))]
    pub area: String,
}

/// A partial change of an operative's domain.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct OperativeDomainPatch {
    /// Max [`limits::DOMAIN_RESPONSIBILITY_MAX`] chars.
    #[schemars(length(max = limits::DOMAIN_RESPONSIBILITY_MAX))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responsibility: Option<String>,
    /// Max [`limits::DOMAIN_AREA_MAX`] chars.
    #[schemars(length(max = limits::DOMAIN_AREA_MAX))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<String>,
}

/// A product Bootstrap creates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InitialProduct {
    /// Max [`limits::PRODUCT_NAME_MAX`] chars.
    #[schemars(length(max = limits::PRODUCT_NAME_MAX))]
    pub name: String,
    /// Kind of product.
    #[serde(rename = "type")]
    pub product_type: ProductType,
    /// Definition of done.
    pub dod: String,
    /// Member id that owns it, or null.
    pub owner: Option<String>,
}

/// The chair's reasoning in Bootstrap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BootstrapThinking {
    /// How the chair reads the request.
    pub interpretation: String,
    /// What is in and out of scope.
    pub scope_decisions: String,
}

/// Bootstrap's final output: the charter, personas, domains and first products.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BootstrapOutput {
    /// Reasoning.
    pub thinking: BootstrapThinking,
    /// Max [`limits::MISSION_MAX`] chars.
    #[schemars(length(max = limits::MISSION_MAX))]
    pub mission: String,
    /// The objectives.
    pub objectives: String,
    /// The constraints.
    pub constraints: String,
    /// Member id → persona, max [`limits::PERSONA_MAX`] chars each.
    #[schemars(extend("additionalProperties" = {"type": "string", "maxLength": limits::PERSONA_MAX}))]
    pub personas: BTreeMap<String, String>,
    /// Operative id → domain.
    pub operative_domains: BTreeMap<String, OperativeDomain>,
    /// First products.
    pub initial_products: Vec<InitialProduct>,
    /// What the chair still needs from the person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_details: Option<Vec<String>>,
}

/// What a member does with one collab it received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FeedbackAction {
    /// Will act on it.
    Accept,
    /// Later.
    Defer,
    /// Will not act on it.
    Reject,
}

/// A member's answer to one collab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackResponse {
    /// Collab temp id.
    pub collab_id: String,
    /// Accept, defer or reject.
    pub action: FeedbackAction,
    /// Why.
    pub rationale: String,
    /// What will change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned_change: Option<String>,
}

/// How far a product is from its definition of done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DodStatus {
    /// Done.
    Met,
    /// Partly done.
    PartiallyMet,
    /// Not done.
    NotMet,
}

/// A member's look back on one product it wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reflection {
    /// Product temp id.
    pub refers_to_product: String,
    /// Against its definition of done.
    pub dod_status: DodStatus,
    /// What is missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dod_gaps: Option<Vec<String>>,
    /// Answers to received collabs.
    pub feedback_responses: Vec<FeedbackResponse>,
    /// What the next version will change.
    pub next_version_delta: String,
    /// What stops it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blockers: Option<Vec<String>>,
}

/// Reflect's final output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReflectOutput {
    /// One per product written last round.
    pub reflections: Vec<Reflection>,
    /// Default `[]`.
    #[serde(default)]
    pub collabs: Vec<CollabOutput>,
    /// Default `[]`.
    #[serde(default)]
    pub remarks: Vec<RemarkOutput>,
}

/// The chair's reasoning in PlanAssign.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanThinking {
    /// The plan for this round.
    pub round_strategy: String,
    /// Why versions were accepted or rejected.
    pub acceptance_rationale: String,
}

/// Mid-session changes of the charter by the chair.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BootstrapOverrides {
    /// Max [`limits::MISSION_MAX`] chars.
    #[schemars(length(max = limits::MISSION_MAX))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission: Option<String>,
    /// Max [`limits::OBJECTIVES_MAX`] chars.
    #[schemars(length(max = limits::OBJECTIVES_MAX))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objectives: Option<String>,
    /// Member id → persona, max [`limits::PERSONA_MAX`] chars each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("additionalProperties" = {"type": "string", "maxLength": limits::PERSONA_MAX}))]
    pub personas: Option<BTreeMap<String, String>>,
    /// Operative id → partial domain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operative_domains: Option<BTreeMap<String, OperativeDomainPatch>>,
}

/// PlanAssign's final output: the only answer that changes the tree and accepts versions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanAssignOutput {
    /// Reasoning.
    pub thinking: PlanThinking,
    /// Default `[]`.
    #[serde(default)]
    pub tree_operations: Vec<TreeOperation>,
    /// Default `[]`.
    #[serde(default)]
    pub assignments: Vec<AssignmentOutput>,
    /// Default `[]`.
    #[serde(default)]
    pub acceptance: Vec<AcceptanceDecision>,
    /// Versions the chair writes itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chair_versions: Option<Vec<ChairVersion>>,
    /// Default `[]`.
    #[serde(default)]
    pub remarks: Vec<RemarkOutput>,
    /// Charter changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bootstrap_overrides: Option<BootstrapOverrides>,
}

/// The body of a new version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewVersion {
    /// Max [`limits::CONTENT_TITLE_MAX`] chars.
    #[schemars(length(max = limits::CONTENT_TITLE_MAX))]
    pub content_title: String,
    /// [`limits::CONTENT_MIN`] to [`limits::CONTENT_MAX`] chars of Markdown, never JSON.
    #[schemars(length(min = limits::CONTENT_MIN, max = limits::CONTENT_MAX))]
    pub content: roundtable_engine::text::Text,
    /// What changed since the last version.
    pub change_summary: String,
}

/// One new version of one assigned product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WrittenVersion {
    /// Product temp id.
    pub product_id: String,
    /// The version.
    pub new_version: NewVersion,
}

/// Write's final output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WriteOutput {
    /// Default `[]`.
    #[serde(default)]
    pub versions: Vec<WrittenVersion>,
    /// Default `[]`.
    #[serde(default)]
    pub collabs: Vec<CollabOutput>,
    /// Default `[]`.
    #[serde(default)]
    pub remarks: Vec<RemarkOutput>,
}

/// A reviewer's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewAssessment {
    /// Good as it is.
    Approved,
    /// Needs another version.
    NeedsRevision,
}

/// One peer review of one version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    /// Product temp id.
    pub product_id: String,
    /// Version temp id.
    pub version_id: String,
    /// Verdict.
    pub assessment: ReviewAssessment,
    /// Why.
    pub summary: String,
}

/// PeerReview's final output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PeerReviewOutput {
    /// The reviews.
    pub reviews: Vec<Review>,
    /// Default `[]`.
    #[serde(default)]
    pub collabs: Vec<CollabOutput>,
    /// Default `[]`.
    #[serde(default)]
    pub remarks: Vec<RemarkOutput>,
}

/// The inspector's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InspectionAssessment {
    /// Good as it is.
    Approved,
    /// Needs another version.
    NeedsRevision,
    /// Cannot go on.
    Blocked,
}

/// What an inspection finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FindingCategory {
    /// Safety and security.
    Security,
    /// Missing parts.
    Completeness,
    /// Internal consistency.
    Coherence,
    /// Fit with the other products.
    Integration,
    /// General quality.
    Quality,
}

/// One problem the inspector found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// What it is about.
    pub category: FindingCategory,
    /// 1–10.
    #[schemars(range(min = limits::SCALE_MIN, max = limits::SCALE_MAX))]
    pub severity: i64,
    /// The problem.
    pub issue: String,
    /// The fix.
    pub recommendation: String,
    /// Which part of the definition of done it breaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dod_criterion: Option<String>,
}

/// One inspection of one version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Inspection {
    /// Product temp id.
    pub product_id: String,
    /// Version temp id.
    pub version_id: String,
    /// Verdict.
    pub assessment: InspectionAssessment,
    /// Problems found.
    pub findings: Vec<Finding>,
}

/// Inspection's final output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InspectionOutput {
    /// The inspections: at least one (the inspector is called only when there are versions to
    /// inspect).
    #[schemars(length(min = 1))]
    pub inspections: Vec<Inspection>,
    /// Default `[]`.
    #[serde(default)]
    pub collabs: Vec<CollabOutput>,
    /// Default `[]`.
    #[serde(default)]
    pub remarks: Vec<RemarkOutput>,
}

/// One message of the presentation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationMessage {
    /// The message (Markdown).
    pub content: String,
    /// Member id speaking.
    pub as_agent: String,
}

/// Presentation's final output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationOutput {
    /// Between [`limits::MESSAGES_MIN`] and [`limits::MESSAGES_MAX`] messages.
    #[schemars(length(min = limits::MESSAGES_MIN, max = limits::MESSAGES_MAX))]
    pub messages: Vec<PresentationMessage>,
}

/// The wire shape of one step's answer: `responseType` tags which of the three it is. Steps that may
/// not halt still parse a halt here; the validator refuses it with a clear message and the JSON
/// Schema of such a step drops the branch (see crate::step_schema).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(remote = "Self", rename_all = "snake_case")]
#[schemars(tag = "responseType")]
pub enum WireAnswer<F> {
    /// More context first.
    #[serde(rename_all = "camelCase")]
    RequestContext {
        /// 1–5 requests.
        #[schemars(length(min = limits::CONTEXT_REQUESTS_MIN, max = limits::CONTEXT_REQUESTS_MAX))]
        context_requests: Vec<ContextRequest>,
    },
    /// A pause (Bootstrap and PlanAssign only).
    Halt {
        /// The halt.
        halt: Halt,
    },
    /// The step's result.
    FinalOutput(F),
}
roundtable_engine::tagged::tagged!(ser [F: serde::Serialize] de [F: serde::de::DeserializeOwned] WireAnswer<F>, tag = "responseType");

/// The final output of any step, tagged by step; what an applied answer carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum FinalOutput {
    /// Bootstrap.
    Bootstrap(BootstrapOutput),
    /// Reflect.
    Reflect(ReflectOutput),
    /// PlanAssign.
    PlanAssign(PlanAssignOutput),
    /// Write.
    Write(WriteOutput),
    /// PeerReview.
    PeerReview(PeerReviewOutput),
    /// Inspection.
    Inspection(InspectionOutput),
    /// Presentation.
    Presentation(PresentationOutput),
}
roundtable_engine::tagged::tagged!([] FinalOutput, tag = "step", content = "output");

impl FinalOutput {
    /// Which step this output answers.
    pub fn step(&self) -> Step {
        match self {
            FinalOutput::Bootstrap(_) => Step::Bootstrap,
            FinalOutput::Reflect(_) => Step::Reflect,
            FinalOutput::PlanAssign(_) => Step::PlanAssign,
            FinalOutput::Write(_) => Step::Write,
            FinalOutput::PeerReview(_) => Step::PeerReview,
            FinalOutput::Inspection(_) => Step::Inspection,
            FinalOutput::Presentation(_) => Step::Presentation,
        }
    }
}

/// A validated answer of any step, as the engine consumes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum StepAnswer {
    /// The member asks for more context; the engine answers and asks again.
    RequestContext {
        /// 1–5 requests.
        #[serde(rename = "contextRequests")]
        context_requests: Vec<ContextRequest>,
    },
    /// The member pauses the session (question) or ends the rounds (done).
    Halt {
        /// The halt.
        halt: Halt,
    },
    /// The step's result.
    FinalOutput {
        /// The output, tagged by step.
        output: FinalOutput,
    },
}
roundtable_engine::tagged::tagged!([] StepAnswer, tag = "responseType");
