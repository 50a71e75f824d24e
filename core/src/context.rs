//! The state envelope and the prompt for one step and one member (spec `003`).
//!
//! Before every model call the engine builds an [`Envelope`]: a structured picture of the session as
//! this member, at this step, should see it — the person's request, the charter, the team, the tree
//! at the detail tier the step needs, what this member must do now (assignments, versions to review,
//! versions awaiting acceptance), what happened recently, and the state of the call itself (how many
//! `request_context` answers it already had, a pending repair report). The envelope is kept with the
//! call in the event log (003's "session context artifact"), so the person can later see exactly what
//! each member saw. The prompt (`system` + `user` text) is rendered from the envelope.
//!
//! The envelope is typed (the demo model reads it directly) and serialises to camelCase JSON (the
//! web app shows it). Its shape is written down in `/work/notes/envelope.md`.

use serde::{Deserialize, Serialize};

use crate::schema::{
    AttachmentPart, ContextNeed, Directive, HaltType, InspectionAssessment, OperativeDomain,
    ProductType, ReviewAssessment, Step,
};

/// Everything one member sees at one step: the input of the prompt and of the demo model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// The step this call is for.
    pub step: Step,
    /// The round (0 for Bootstrap, 1.. for rounds; Presentation keeps the last round).
    pub round: u32,
    /// The round limit of the session, so a chair can plan to finish in time.
    pub max_rounds: u32,
    /// Team name and description, to keep collaborators aligned (003).
    pub team: TeamInfo,
    /// The person's original request, verbatim.
    pub request: String,
    /// The member this call is for.
    pub member: MemberView,
    /// Every member of the team, minimal (003's member entity).
    pub members: Vec<MemberBrief>,
    /// The up-to-date charter; `None` only before Bootstrap produced it.
    pub charter: Option<CharterView>,
    /// The whole product tree in tree order (depth first), each product at the tier this member
    /// gets at this step.
    pub products: Vec<ProductView>,
    /// Write: the products assigned to this member this round, with the chair's directive.
    /// PlanAssign/others: empty.
    pub assigned_to_you: Vec<AssignmentView>,
    /// PeerReview: others' versions written this round that this member should review.
    /// Inspection: every version written this round. Otherwise empty.
    pub to_review: Vec<VersionRef>,
    /// PlanAssign: latest versions not accepted yet (candidates for `acceptance`).
    pub awaiting_acceptance: Vec<VersionRef>,
    /// Reflect: the products this member wrote last round (at full tier).
    pub wrote_last_round: Vec<VersionRef>,
    /// Reviews and inspections of the last round (PlanAssign, Reflect, Write see them).
    pub assessments: Vec<AssessmentView>,
    /// Collabs addressed to this member or about products it owns/is assigned, oldest first.
    pub collabs_received: Vec<CollabView>,
    /// Reflections of the last Reflect step (the chair sees all; a member its own).
    pub reflections: Vec<ReflectionView>,
    /// Recent activity, chronological, each item once.
    pub recent_activity: Vec<ActivityItem>,
    /// The chair's latest remark addressed to this member or the team.
    pub last_chair_note: Option<String>,
    /// Remarks addressed to this member (or to the team / chair when this member is the chair)
    /// in the last round, including the person's remarks to the chair.
    pub remarks_received: Vec<RemarkView>,
    /// Questions the team asked the person and the answers, oldest first.
    pub person_answers: Vec<PersonAnswerView>,
    /// Bootstrap: the `missingDetails` listed so far (for the chair to see what was asked).
    pub missing_details: Vec<String>,
    /// The state of this call: context requests, repairs.
    pub call: CallState,
    /// Slices served after `request_context` in this step (also in the prompt).
    pub served_context: Vec<ContextSlice>,
    /// Every id this member may name in its answer.
    pub known_ids: KnownIds,
}

/// Team name and description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamInfo {
    /// Shown in every system prompt.
    pub name: String,
    /// What the team is for.
    pub description: String,
}

/// The member the call is for, with everything its persona needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberView {
    /// `chair`, `operative-1`, `inspector`, `envoy`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Free-text role ("UX researcher").
    pub role: String,
    /// `chair` / `operative` / `inspector` / `envoy`.
    pub team_role: String,
    /// The persona (chair-authored after Bootstrap).
    pub persona: String,
    /// Skills.
    pub skills: Vec<String>,
    /// Characteristics.
    pub characteristics: Vec<String>,
    /// Operatives: the domain Bootstrap gave them.
    pub domain: Option<OperativeDomain>,
}

/// One member, minimal (003).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberBrief {
    /// Member id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Free-text role.
    pub role: String,
    /// `chair` / `operative` / `inspector` / `envoy`.
    pub team_role: String,
    /// Products it owns.
    pub owned_products: usize,
    /// Products it owns that have no accepted version yet.
    pub owned_pending: usize,
}

/// The mission charter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CharterView {
    /// The mission.
    pub mission: String,
    /// The objectives.
    pub objectives: String,
    /// The constraints.
    pub constraints: String,
}

/// How much of a product a member sees (003's detail tiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DetailTier {
    /// Name, id, type, owner, DoD, summary, counts, version ids.
    Minimal,
    /// Minimal plus the current version's content.
    Extra,
    /// Extra plus the changelog (every version with summary, reflection note).
    Full,
}

/// One product as the member sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductView {
    /// `p0`, `p1`, …
    pub id: String,
    /// `None` for the root.
    pub parent_id: Option<String>,
    /// Depth in the tree (root = 0).
    pub depth: u32,
    /// Name.
    pub name: String,
    /// Kind.
    pub product_type: ProductType,
    /// Definition of done.
    pub dod: String,
    /// Description.
    pub description: Option<String>,
    /// Owner member id.
    pub owner: Option<String>,
    /// Assignee member id (current).
    pub assignee: Option<String>,
    /// The tree's status word for the product (e.g. `open`, `accepted`).
    pub status: String,
    /// The accepted version, if any.
    pub accepted_version: Option<String>,
    /// The latest version, if any.
    pub latest_version: Option<String>,
    /// Every version id, oldest first.
    pub version_ids: Vec<String>,
    /// How many collabs are about it.
    pub collab_count: usize,
    /// The tier this view was built at.
    pub tier: DetailTier,
    /// Extra/full tier: the latest version (title, content, change summary, author).
    pub current: Option<VersionView>,
    /// Full tier: every version, oldest first (content omitted except the latest).
    pub changelog: Vec<VersionView>,
}

/// One version of a product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionView {
    /// `v3`.
    pub id: String,
    /// Title.
    pub title: String,
    /// Content; empty in changelog entries other than the latest.
    pub content: String,
    /// What changed.
    pub change_summary: String,
    /// Member id that wrote it.
    pub author: String,
    /// Round it was written in.
    pub round: u32,
    /// The directive it answered.
    pub directive: Option<Directive>,
    /// The author's reflection note.
    pub reflection_note: Option<String>,
}

/// An assignment given to this member this round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssignmentView {
    /// Product id.
    pub product_id: String,
    /// Product name.
    pub product_name: String,
    /// The chair's directive.
    pub directive: Directive,
    /// The latest version of this product, if any (what to improve on).
    pub current_version: Option<VersionView>,
    /// What the latest version changed compared to the one before (a short line diff).
    pub last_version_diff: Option<String>,
    /// Other products the chair attached, with the parts asked for.
    pub attached: Vec<AttachedView>,
}

/// Context from another product the chair attached to an assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachedView {
    /// Product id.
    pub product_id: String,
    /// Which parts were asked for.
    pub include: Vec<AttachmentPart>,
    /// Why.
    pub reason: String,
    /// Its latest content, when `content` was asked for.
    pub content: Option<String>,
    /// Its collabs, when `feedback` was asked for.
    pub feedback: Vec<CollabView>,
}

/// A version someone should look at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionRef {
    /// Product id.
    pub product_id: String,
    /// Version id.
    pub version_id: String,
    /// Product name.
    pub product_name: String,
    /// Author member id.
    pub author: String,
    /// Version title.
    pub title: String,
}

/// A review or an inspection of a version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssessmentView {
    /// Round it was made in.
    pub round: u32,
    /// Reviewer / inspector member id.
    pub by: String,
    /// `review` or `inspection`.
    pub kind: String,
    /// Product id.
    pub product_id: String,
    /// Version id.
    pub version_id: String,
    /// `approved` / `needs_revision` / `blocked`.
    pub assessment: String,
    /// The review summary, or the inspection findings in one text.
    pub summary: String,
}

impl AssessmentView {
    /// The wire word of a review verdict.
    pub fn review_word(a: ReviewAssessment) -> &'static str {
        match a {
            ReviewAssessment::Approved => "approved",
            ReviewAssessment::NeedsRevision => "needs_revision",
        }
    }

    /// The wire word of an inspection verdict.
    pub fn inspection_word(a: InspectionAssessment) -> &'static str {
        match a {
            InspectionAssessment::Approved => "approved",
            InspectionAssessment::NeedsRevision => "needs_revision",
            InspectionAssessment::Blocked => "blocked",
        }
    }
}

/// One collab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollabView {
    /// `c4`.
    pub id: String,
    /// Author member id.
    pub author: String,
    /// Round.
    pub round: u32,
    /// Product id it is about.
    pub product_id: String,
    /// Version id it is about.
    pub version_id: Option<String>,
    /// `feedback` / `question` / `suggestion` / `endorsement` / `concern`.
    pub collab_type: String,
    /// 1–10.
    pub importance: i64,
    /// One line.
    pub summary: String,
    /// The comment.
    pub comment: String,
    /// Addressees (empty: the product's owner/assignee).
    pub addressees: Vec<String>,
}

/// A member's reflection on one product.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReflectionView {
    /// Member id.
    pub by: String,
    /// Product id.
    pub product_id: String,
    /// `met` / `partially_met` / `not_met`.
    pub dod_status: String,
    /// What the next version will change.
    pub next_version_delta: String,
    /// Blockers.
    pub blockers: Vec<String>,
}

/// One line of recent activity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityItem {
    /// Round.
    pub round: u32,
    /// Step.
    pub step: Step,
    /// Who (member id or `user-1`).
    pub who: String,
    /// What, in one line.
    pub what: String,
}

/// A remark someone addressed to this member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemarkView {
    /// Round.
    pub round: u32,
    /// Author member id or `user-1`.
    pub from: String,
    /// Recipients as written.
    pub recipients: Vec<String>,
    /// Remark type (wire word).
    pub remark_type: String,
    /// Content.
    pub content: String,
}

/// A question to the person and the person's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonAnswerView {
    /// Round the question was asked in.
    pub round: u32,
    /// Who asked.
    pub asked_by: String,
    /// Question or done.
    pub halt_type: HaltType,
    /// The question.
    pub question: String,
    /// The options offered.
    pub options: Vec<String>,
    /// The person's answer.
    pub answer: String,
}

/// The state of the call inside its step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallState {
    /// How many `request_context` answers this member already gave at this step.
    pub context_requests_made: u32,
    /// How many more it may give (0: a final output is required now).
    pub context_requests_left: u32,
    /// True when the member must answer with a final output (or, where allowed, a halt).
    pub final_output_required: bool,
    /// How many repair prompts this member already got at this step.
    pub repairs_made: u32,
    /// How many it may get before the session pauses.
    pub repairs_allowed: u32,
    /// The report of the member's last invalid answer, when this call is a repair.
    pub pending_repair: Option<crate::validate::Report>,
}

/// One slice of context served after a `request_context`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextSlice {
    /// Product id asked about.
    pub product_id: String,
    /// What was asked.
    pub need: ContextNeed,
    /// The slice as text (or why it could not be served).
    pub text: String,
}

/// Ids the member may name.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KnownIds {
    /// Product ids.
    pub products: Vec<String>,
    /// Version ids.
    pub versions: Vec<String>,
    /// Collab ids.
    pub collabs: Vec<String>,
    /// Member ids, plus `user-1`.
    pub members: Vec<String>,
}
