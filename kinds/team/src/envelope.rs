//! The state envelope's types: everything one member sees at one step (spec `003`), the input of
//! the prompt ([`crate::prompt`]) and of the demo model. It serialises to camelCase JSON (the web
//! app shows it); its types are its documentation. Built by [`crate::prompt::build_envelope`].

use serde::{Deserialize, Serialize};

use crate::tree::{ProductView, VersionView};
use crate::wire::{
    AttachmentPart, ContextNeed, Directive, FeedbackResponse, InspectionAssessment,
    OperativeDomain, ReviewAssessment, Step,
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
    /// The session's status as the task line states it (003's session entity): `running`, or
    /// `wrapping up` once the rounds were ended.
    #[serde(default)]
    pub session_status: String,
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
    /// The products this member sees, in tree order (depth first), each at the tier it gets at
    /// this step; in a large tree the rest is folded (counted on a listed product's `folded`).
    pub products: Vec<ProductView>,
    /// Write: the products assigned to this member this round, with the chair's directive.
    /// PlanAssign/others: empty.
    pub assigned_to_you: Vec<AssignmentView>,
    /// PeerReview: others' versions written this round that this member should review.
    /// Inspection: every version written this round. Otherwise empty.
    pub to_review: Vec<VersionRef>,
    /// PlanAssign: latest versions not accepted yet (candidates for `acceptance`).
    pub awaiting_acceptance: Vec<VersionRef>,
    /// Reflect: the products this member wrote last round (at full tier), each with the directive
    /// it answered and what it changed (003's "last directive" and "last version diff").
    pub wrote_last_round: Vec<WorkedOnView>,
    /// Reviews and inspections of the last round and this one: all of them for the chair and the
    /// presenter; on its own products for a writer; on the products to review or inspect for a
    /// reviewer or the inspector (the findings not to repeat).
    pub assessments: Vec<AssessmentView>,
    /// Collabs addressed to this member or about products it owns/is assigned, oldest first; at
    /// PeerReview and Inspection also the collabs already raised on the products to look at.
    pub collabs_received: Vec<CollabView>,
    /// Reflections of the last Reflect step (the chair sees all; a member its own).
    pub reflections: Vec<ReflectionView>,
    /// How the members who reflected answered this member's own collabs (`feedbackResponses`).
    #[serde(default)]
    pub answers_to_your_collabs: Vec<CollabAnswerView>,
    /// Recent activity (the last round and this one), chronological, each fact once: lines whose
    /// fact another section of the prompt shows are left out, lines of one kind by one member are
    /// grouped (`operative-1 wrote v1 of p1, v2 of p3`).
    pub recent_activity: Vec<ActivityItem>,
    /// What the prompt does not list line by line, in counts per member (earlier rounds, and
    /// whatever did not fit): nothing is dropped silently.
    #[serde(default)]
    pub activity_counts: Vec<ActivityCount>,
    /// The chair's latest remark addressed to this member or the team.
    pub last_chair_note: Option<String>,
    /// The round the chair wrote [`Envelope::last_chair_note`] in: a reader tells a stale note
    /// from this round's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_chair_note_round: Option<u32>,
    /// Remarks addressed to this member (or to the team / chair when this member is the chair)
    /// in the last round, including the person's remarks to the chair.
    pub remarks_received: Vec<RemarkView>,
    /// Questions the team asked the person and the answers, oldest first.
    pub person_answers: Vec<PersonAnswerView>,
    /// The chair (Bootstrap, PlanAssign), the writers and the envoy: Bootstrap's
    /// `missingDetails`, what the person did not say and the team assumed, at most [`MISSING_MAX`] (`missing_details_more` counts the rest).
    pub missing_details: Vec<String>,
    /// How many collabs, remarks, answers and missing details the lists above leave out.
    #[serde(default)]
    pub left_out: LeftOut,
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
    /// An operative's area (its domain from Bootstrap), so everyone knows who covers what.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<String>,
    /// The chair's Bootstrap and PlanAssign only: the operative's responsibility (its domain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responsibility: Option<String>,
    /// The chair's Bootstrap and PlanAssign only: the member's persona, cut to one line of
    /// [`PERSONA_BRIEF_MAX`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persona: Option<String>,
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

/// A version this member wrote last round, as Reflect shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkedOnView {
    /// The version.
    #[serde(flatten)]
    pub version: VersionRef,
    /// The directive it answered and its diff, for the first [`WORKED_DETAIL_MAX`] versions; the
    /// others are listed by id (`request_context` brings any of them).
    pub detail: Option<WorkedDetail>,
}

/// The directive a version answered and what it changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkedDetail {
    /// The directive it answered, in full.
    pub directive: Option<Directive>,
    /// What it changed compared to the version before (a [`line_diff`] of
    /// [`DIFF_LINES_MAX`] lines); `None` for a first version.
    pub diff: Option<String>,
}

/// A worked-on version reads as its [`VersionRef`] (`w.product_id`), as the list was before it
/// carried the directive and the diff.
impl std::ops::Deref for WorkedOnView {
    type Target = VersionRef;

    fn deref(&self) -> &VersionRef {
        &self.version
    }
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReflectionView {
    /// Member id.
    pub by: String,
    /// Product id.
    pub product_id: String,
    /// `met` / `partially_met` / `not_met`.
    pub dod_status: String,
    /// What the definition of done still misses (`dodGaps`).
    #[serde(default)]
    pub dod_gaps: Vec<String>,
    /// How each collab received was answered: accept, defer or reject.
    #[serde(default)]
    pub feedback_responses: Vec<FeedbackResponse>,
    /// What the next version will change.
    pub next_version_delta: String,
    /// Blockers.
    pub blockers: Vec<String>,
}

/// How a member who reflected answered one of this member's collabs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollabAnswerView {
    /// The collab (`c4`).
    pub collab_id: String,
    /// The product it is about.
    pub product_id: String,
    /// The collab's one-line summary, so the answer reads on its own.
    pub summary: String,
    /// Who answered (the member who reflected).
    pub by: String,
    /// `accept` / `defer` / `reject`.
    pub action: String,
    /// Why.
    pub rationale: String,
    /// What will change, if said.
    pub planned_change: Option<String>,
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
    /// What the line is about, so a prompt can leave it out where another section shows the
    /// fact, group it with lines of the same kind, or count it.
    #[serde(default)]
    pub about: ActivityKind,
}

/// What an activity line is about.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActivityKind {
    /// Anything else (a person's edit, a changed charter, the rounds ended, …).
    #[default]
    Other,
    /// Bootstrap's charter and initial products: the charter and the tree show them.
    Setup,
    /// A tree operation (`added`, `removed`, `moved`, `updated`).
    TreeChange,
    /// An assignment.
    Assigned,
    /// A version accepted.
    Accepted,
    /// A latest version sent back.
    Rejected,
    /// A version written.
    Wrote {
        /// The version.
        #[serde(rename = "versionId")]
        version_id: String,
    },
    /// A collab.
    Collab {
        /// The collab.
        #[serde(rename = "collabId")]
        collab_id: String,
    },
    /// A peer review.
    Review {
        /// The version reviewed.
        #[serde(rename = "versionId")]
        version_id: String,
    },
    /// An inspection.
    Inspection {
        /// The version inspected.
        #[serde(rename = "versionId")]
        version_id: String,
    },
    /// A reflection.
    Reflection {
        /// The product reflected on.
        #[serde(rename = "productId")]
        product_id: String,
    },
    /// A remark (it reaches its recipients in their own section).
    Remark,
    /// A question to the person (shown with its answer).
    Question,
    /// The person's answer (shown under the person's answers).
    Answer,
}

impl ActivityKind {
    /// The words a group of such lines shares (`wrote`), when lines of this kind group.
    pub(crate) fn group_verb<'a>(&self, what: &'a str) -> Option<&'a str> {
        let verb = match self {
            ActivityKind::Reflection { .. } => "reflected on",
            ActivityKind::Rejected => "rejected the latest version of",
            ActivityKind::Other
            | ActivityKind::Setup
            | ActivityKind::Remark
            | ActivityKind::Question
            | ActivityKind::Answer => return None,
            _ => what.split(' ').next()?,
        };
        what.starts_with(verb).then(|| &what[..verb.len()])
    }

    /// What a count of such lines is called (singular, plural).
    pub(crate) fn noun(&self) -> (&'static str, &'static str) {
        match self {
            ActivityKind::Other => ("other action", "other actions"),
            ActivityKind::Setup => ("setup step", "setup steps"),
            ActivityKind::TreeChange => ("tree change", "tree changes"),
            ActivityKind::Assigned => ("assignment", "assignments"),
            ActivityKind::Accepted => ("acceptance", "acceptances"),
            ActivityKind::Rejected => ("rejection", "rejections"),
            ActivityKind::Wrote { .. } => ("version", "versions"),
            ActivityKind::Collab { .. } => ("collab", "collabs"),
            ActivityKind::Review { .. } => ("review", "reviews"),
            ActivityKind::Inspection { .. } => ("inspection", "inspections"),
            ActivityKind::Reflection { .. } => ("reflection", "reflections"),
            ActivityKind::Remark => ("remark", "remarks"),
            ActivityKind::Question => ("question", "questions"),
            ActivityKind::Answer => ("answer", "answers"),
        }
    }
}

/// One member's activity in a span of rounds, in counts: what the prompt does not list line by
/// line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityCount {
    /// First round of the span.
    pub from_round: u32,
    /// Last round of the span.
    pub to_round: u32,
    /// Member id, `user-1`, or `team` for the whole team's totals.
    pub who: String,
    /// The counts in words (`3 versions written, 2 reviews`).
    pub counts: String,
    /// True for lines of a listed round that did not fit the list (counted after it); false for
    /// a whole earlier round.
    #[serde(default)]
    pub not_listed: bool,
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
    /// The question.
    pub question: String,
    /// The options offered.
    pub options: Vec<String>,
    /// The person's answer.
    pub answer: String,
}

/// How many items each capped list of the envelope leaves out (the prompt says so).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeftOut {
    /// Older collabs than the ones listed.
    pub collabs: usize,
    /// Older remarks.
    pub remarks: usize,
    /// Older answers to this member's collabs.
    pub answers: usize,
    /// Missing details past [`MISSING_MAX`].
    pub missing_details: usize,
    /// Reviews and inspections past [`ASSESSMENTS_MAX`] (the approved ones left out first).
    #[serde(default)]
    pub assessments: usize,
    /// How many of those were approvals.
    #[serde(default)]
    pub assessments_approved: usize,
    /// Reflections past [`REFLECTIONS_MAX`] (those with the definition of done met left out
    /// first).
    #[serde(default)]
    pub reflections: usize,
    /// How many of those had it met.
    #[serde(default)]
    pub reflections_met: usize,
    /// Write: this round's assignments past [`ASSIGNED_LISTED_MAX`], by product id (one call
    /// writes the listed ones; these wait).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assignments: Vec<String>,
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
    pub pending_repair: Option<roundtable_engine::validate::Report<super::wire::Step>>,
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
    /// Product ids (each product's `versionIds` lists the version ids it may name).
    pub products: Vec<String>,
    /// Collab ids.
    pub collabs: Vec<String>,
    /// Member ids, plus `user-1`.
    pub members: Vec<String>,
}
