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
//! web app shows it); its types below are its documentation.
//!
//! Spec `003` asks for context that is native, chronological and without duplication: each fact
//! is said once per prompt, in the section that fits it. Recent activity leaves out what another
//! section shows, groups one member's lines of one kind, and counts (never silently drops) what it
//! does not list; every capped list says how much it leaves out.

use serde::{Deserialize, Serialize};

use crate::schema::{
    AttachmentPart, ContextNeed, Directive, FeedbackResponse, HaltType, InspectionAssessment,
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
    /// Remarks addressed to this member (or to the team / chair when this member is the chair)
    /// in the last round, including the person's remarks to the chair.
    pub remarks_received: Vec<RemarkView>,
    /// Questions the team asked the person and the answers, oldest first.
    pub person_answers: Vec<PersonAnswerView>,
    /// The chair (Bootstrap, PlanAssign): Bootstrap's `missingDetails`, what the person did not
    /// say and the team assumed, at most [`MISSING_MAX`] (`missing_details_more` counts the rest).
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
    /// What it changed compared to the version before (a [`line_diff_within`] of
    /// [`WORKED_DIFF_LINES`] lines); `None` for a first version.
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
    fn group_verb<'a>(&self, what: &'a str) -> Option<&'a str> {
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
    fn noun(&self) -> (&'static str, &'static str) {
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
    /// Member id or `user-1`.
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
    /// Question or done.
    pub halt_type: HaltType,
    /// The question.
    pub question: String,
    /// The options offered.
    pub options: Vec<String>,
    /// The person's answer.
    pub answer: String,
}

/// How many items each capped list of the envelope leaves out (the prompt says so).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
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
    /// Product ids (each product's `versionIds` lists the version ids it may name).
    pub products: Vec<String>,
    /// Collab ids.
    pub collabs: Vec<String>,
    /// Member ids, plus `user-1`.
    pub members: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// Building the envelope.
// ---------------------------------------------------------------------------------------------

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::protocol::team::Member;
use crate::protocol::team::TeamState;
use crate::schema::limits;
use crate::text::{cut, one_line, wire_word};
use crate::tree::{render_views, Product, ProductStatus, ProductView, Tier, VersionView};

/// How many activity lines (each a group of one member's lines of one kind), collabs, remarks
/// and answers to collabs a prompt carries at most; the rest is counted, never dropped silently.
const RECENT_MAX: usize = 20;

/// How many items one grouped activity line names (`wrote v1 of p1, …`) before "and N more".
const GROUP_MAX: usize = 10;

/// How many of the versions it wrote last round Reflect shows with their directive and diff.
pub const WORKED_DETAIL_MAX: usize = 5;

/// How many more of them Reflect names by id.
pub const WORKED_LIST_MAX: usize = 60;

/// How many changed lines a Reflect diff shows.
pub const WORKED_DIFF_LINES: usize = 8;

/// How many reviews and inspections a prompt lists; past it, approvals are counted first.
pub const ASSESSMENTS_MAX: usize = 40;

/// How many reflections the chair's plan lists; past it, those that met their definition of done
/// are counted first.
pub const REFLECTIONS_MAX: usize = 40;

/// How many of Bootstrap's missing details the chair sees; the rest are counted.
pub const MISSING_MAX: usize = 12;

/// How long a member's persona is in the chair's list of the team (one line).
pub const PERSONA_BRIEF_MAX: usize = 160;

/// How many of its own (not assigned, not to review) products a member sees at extra tier: the
/// most recently written ones. The rest stay minimal; `request_context` brings any of them in full.
pub const OWN_EXTRA_MAX: usize = 12;

/// How many versions awaiting acceptance the chair sees at extra tier (the most recent ones); the
/// others are listed by id.
pub const CHAIR_EXTRA_MAX: usize = 30;

/// Ids of the `max` products whose latest version is newest (products without versions last).
fn most_recent<'a>(products: impl Iterator<Item = &'a Product>, max: usize) -> Vec<&'a str> {
    let mut ranked: Vec<(usize, &str)> = products
        .map(|p| {
            let recency = p
                .latest_version()
                .and_then(|v| v.strip_prefix('v'))
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            (recency, p.id.as_str())
        })
        .collect();
    ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
    ranked.into_iter().take(max).map(|(_, id)| id).collect()
}

/// Builds the envelope of `member` at `step` from the session state.
pub fn build_envelope(s: &TeamState, member_id: &str, step: Step) -> Envelope {
    let round = s.core.round;
    let me = s.member(member_id);
    let is_chair = member_id == "chair";
    let slot = s.core.slots.iter().find(|x| x.member == member_id);

    // Who needs what at this step.
    let my_assignments: Vec<&crate::protocol::team::Assignment> = if step == Step::Write {
        s.assignments_of_round(round)
            .filter(|a| a.assignee == member_id)
            .collect()
    } else {
        Vec::new()
    };
    let to_review: Vec<VersionRef> = match step {
        Step::PeerReview | Step::Inspection => s
            .to_review(member_id, step)
            .into_iter()
            .filter_map(|w| version_ref(s, &w.product_id, &w.version_id))
            .collect(),
        _ => Vec::new(),
    };
    let wrote_last_round: Vec<WorkedOnView> = if step == Step::Reflect {
        s.written
            .iter()
            .filter(|w| w.member == member_id && w.round + 1 == round && w.step == Step::Write)
            .enumerate()
            .filter_map(|(i, w)| worked_on(s, &w.product_id, &w.version_id, i < WORKED_DETAIL_MAX))
            .collect()
    } else {
        Vec::new()
    };
    let live: Vec<(usize, &Product)> = s.tree.walk();
    let awaiting_acceptance: Vec<VersionRef> = if step == Step::PlanAssign {
        live.iter()
            .filter_map(|(_, p)| {
                let latest = p.latest_version()?;
                (p.accepted_version.as_deref() != Some(latest))
                    .then(|| version_ref(s, &p.id, latest))
                    .flatten()
            })
            .collect()
    } else {
        Vec::new()
    };

    let full: BTreeSet<&str> = wrote_last_round
        .iter()
        .map(|w| w.version.product_id.as_str())
        .collect();
    let mut extra: BTreeSet<&str> = BTreeSet::new();
    match step {
        Step::Bootstrap => {}
        Step::Presentation => extra.extend(
            live.iter()
                .filter(|(_, p)| !p.versions.is_empty())
                .map(|(_, p)| p.id.as_str()),
        ),
        Step::PlanAssign => extra.extend(most_recent(
            awaiting_acceptance
                .iter()
                .filter_map(|v| s.tree.product(&v.product_id)),
            CHAIR_EXTRA_MAX,
        )),
        _ => {
            if !is_chair {
                extra.extend(most_recent(
                    live.iter()
                        .map(|(_, p)| *p)
                        .filter(|p| p.owner.as_deref() == Some(member_id)),
                    OWN_EXTRA_MAX,
                ));
            }
            extra.extend(my_assignments.iter().map(|a| a.product_id.as_str()));
            extra.extend(to_review.iter().map(|v| v.product_id.as_str()));
        }
    }

    // One pass over collabs for the counts.
    let mut collab_count: HashMap<&str, usize> = HashMap::new();
    for c in s.tree.collabs() {
        *collab_count.entry(c.product_id.as_str()).or_default() += 1;
    }
    let mut products: Vec<ProductView> = live
        .iter()
        .map(|(depth, p)| {
            let tier = if full.contains(p.id.as_str()) {
                Tier::Full
            } else if extra.contains(p.id.as_str()) {
                Tier::Extra
            } else {
                Tier::Minimal
            };
            s.tree.product_view(
                p,
                *depth as u32,
                tier,
                collab_count.get(p.id.as_str()).copied().unwrap_or(0),
            )
        })
        .collect();

    let assigned_to_you: Vec<AssignmentView> = my_assignments
        .iter()
        .map(|a| {
            let product = s.tree.product(&a.product_id);
            let latest = product
                .and_then(|p| p.latest_version())
                .and_then(|v| s.tree.version(v));
            let previous = product
                .and_then(|p| {
                    p.versions
                        .len()
                        .checked_sub(2)
                        .map(|i| p.versions[i].clone())
                })
                .and_then(|v| s.tree.version(&v));
            AssignmentView {
                product_id: a.product_id.clone(),
                product_name: product.map(|p| p.name.clone()).unwrap_or_default(),
                directive: a.directive.clone(),
                current_version: latest.map(|v| VersionView::of(v, true)),
                last_version_diff: match (previous, latest) {
                    (Some(old), Some(new)) => Some(line_diff(&old.content, &new.content)),
                    _ => None,
                },
                attached: a
                    .attached
                    .iter()
                    .map(|att| AttachedView {
                        product_id: att.product_id.clone(),
                        include: att.include.clone(),
                        reason: att.reason.clone(),
                        content: att
                            .include
                            .contains(&AttachmentPart::Content)
                            .then(|| {
                                s.tree
                                    .product(&att.product_id)
                                    .and_then(|p| p.selected_version())
                                    .and_then(|v| s.tree.version(v))
                                    .map(|v| cut(&v.content, 6000))
                            })
                            .flatten(),
                        feedback: if att.include.contains(&AttachmentPart::Feedback) {
                            s.tree
                                .collabs_on(&att.product_id)
                                .map(collab_view)
                                .collect()
                        } else {
                            Vec::new()
                        },
                    })
                    .collect(),
            }
        })
        .collect();

    // Products this member cares about, for collabs and assessments.
    let mine: BTreeSet<&str> = live
        .iter()
        .filter(|(_, p)| {
            p.owner.as_deref() == Some(member_id) || p.assignee.as_deref() == Some(member_id)
        })
        .map(|(_, p)| p.id.as_str())
        .chain(
            wrote_last_round
                .iter()
                .map(|w| w.version.product_id.as_str()),
        )
        .chain(my_assignments.iter().map(|a| a.product_id.as_str()))
        .collect();
    let recent_round = round.saturating_sub(1);
    // The products a reviewer or the inspector looks at: what was already said about them is
    // what they must not repeat.
    let looked_at: BTreeSet<&str> = to_review.iter().map(|v| v.product_id.as_str()).collect();
    let (assessments, assessments_left) = keep_first(
        s.assessments
            .iter()
            .filter(|a| a.round >= recent_round)
            .filter(|a| match step {
                Step::PlanAssign | Step::Presentation => true,
                Step::Reflect | Step::Write => mine.contains(a.product_id.as_str()),
                Step::PeerReview | Step::Inspection => looked_at.contains(a.product_id.as_str()),
                Step::Bootstrap => false,
            })
            .cloned()
            .collect(),
        ASSESSMENTS_MAX,
        |a| a.assessment != "approved",
    );
    let (answers_to_your_collabs, answers_more) = last_of(
        s.reflections
            .iter()
            .filter(|(r, _)| *r >= recent_round)
            .flat_map(|(_, v)| v.feedback_responses.iter().map(move |f| (v, f)))
            .filter_map(|(v, f)| {
                let c = s.tree.collab(&f.collab_id)?;
                (c.author == member_id).then(|| CollabAnswerView {
                    collab_id: c.id.clone(),
                    product_id: c.product_id.clone(),
                    summary: one_line(&c.summary, 120),
                    by: v.by.clone(),
                    action: wire_word(&f.action),
                    rationale: f.rationale.clone(),
                    planned_change: f.planned_change.clone(),
                })
            })
            .collect(),
    );
    let answered: BTreeSet<&str> = answers_to_your_collabs
        .iter()
        .map(|a| a.collab_id.as_str())
        .collect();
    let (collabs_received, collabs_more) = last_of(
        s.tree
            .collabs()
            .iter()
            .filter(|c| c.round >= recent_round)
            .filter(|c| {
                if c.author == member_id {
                    // A reviewer's or the inspector's own earlier points on what it looks at
                    // again, unless they show with their answer.
                    return looked_at.contains(c.product_id.as_str())
                        && !answered.contains(c.id.as_str());
                }
                c.addressees.iter().any(|a| a == member_id)
                    || (c.addressees.is_empty() && mine.contains(c.product_id.as_str()))
                    || (is_chair && step == Step::PlanAssign && c.importance >= 7)
                    || looked_at.contains(c.product_id.as_str())
            })
            .map(collab_view)
            .collect(),
    );
    let (reflections, reflections_left) = keep_first(
        s.reflections
            .iter()
            // The chair plans from all of them; a writer works from its own.
            .filter(|_| matches!(step, Step::PlanAssign | Step::Write))
            .filter(|(r, v)| *r == round && (is_chair || v.by == member_id))
            .map(|(_, v)| v.clone())
            .collect(),
        REFLECTIONS_MAX,
        |r| r.dod_status != "met" || !r.blockers.is_empty(),
    );
    let addressed = |r: &RemarkView| {
        r.from != member_id
            && r.recipients
                .iter()
                .any(|x| x == member_id || x == "team" || (is_chair && x == "chair"))
    };
    let last_chair_note = if is_chair {
        None
    } else {
        s.remarks
            .iter()
            .rev()
            .find(|r| r.from == "chair" && addressed(r))
            .map(|r| r.content.clone())
    };
    let (remarks_received, remarks_more) = last_of(
        s.remarks
            .iter()
            .filter(|r| r.round >= recent_round && addressed(r))
            .filter(|r| Some(&r.content) != last_chair_note.as_ref())
            .cloned()
            .collect(),
    );
    let person_answers: Vec<PersonAnswerView> = s
        .core
        .halts
        .iter()
        .filter_map(|h| {
            Some(PersonAnswerView {
                round: h.round,
                asked_by: h.asked_by.clone(),
                halt_type: h.halt.halt_type,
                question: h.halt.message.clone(),
                options: h.halt.options.clone().unwrap_or_default(),
                answer: h.answer.clone()?,
            })
        })
        .collect();

    // Each fact once: the History of a product leaves out the collabs listed in full below and,
    // for a product this member wrote last round, the directive shown in full with it.
    let listed: BTreeSet<&str> = collabs_received.iter().map(|c| c.id.as_str()).collect();
    let directive_shown: BTreeSet<&str> = wrote_last_round
        .iter()
        .filter(|w| w.detail.as_ref().is_some_and(|d| d.directive.is_some()))
        .map(|w| w.version.version_id.as_str())
        .collect();
    for p in &mut products {
        for v in &mut p.changelog {
            v.collabs
                .retain(|c| !listed.contains(c.split(' ').next().unwrap_or_default()));
            if directive_shown.contains(v.id.as_str()) {
                v.directive = None;
            }
        }
    }

    // What the other sections of this prompt already show, so Recent activity leaves it out.
    let mut shown = Shown {
        round,
        ..Shown::default()
    };
    shown
        .collabs
        .extend(collabs_received.iter().map(|c| c.id.clone()));
    shown
        .collabs
        .extend(answers_to_your_collabs.iter().map(|a| a.collab_id.clone()));
    for p in &products {
        if let Some(v) = &p.current {
            shown.versions.insert(v.id.clone());
        }
        for v in &p.changelog {
            shown.versions.insert(v.id.clone());
            shown.collabs.extend(
                v.collabs
                    .iter()
                    .filter_map(|c| c.split(' ').next())
                    .map(str::to_string),
            );
        }
    }
    for a in &assigned_to_you {
        for att in &a.attached {
            shown
                .collabs
                .extend(att.feedback.iter().map(|c| c.id.clone()));
        }
    }
    shown.versions.extend(
        to_review
            .iter()
            .chain(&awaiting_acceptance)
            .chain(wrote_last_round.iter().map(|w| &w.version))
            .map(|v| v.version_id.clone()),
    );
    shown.assessments.extend(
        assessments
            .iter()
            .map(|a| (a.by.clone(), a.version_id.clone())),
    );
    shown.reflections.extend(
        reflections
            .iter()
            .map(|r| (r.by.clone(), r.product_id.clone())),
    );
    let team_order: Vec<&str> = s.members.iter().map(|m| m.id.as_str()).collect();
    // The chair plans (and the presenter reports) from the last round and this one; the others
    // work on this round and see what came before in counts.
    // Earlier rounds are counted: the chair and the presenter get the round before those listed
    // on a line of its own, the others one line for all of them.
    let (detail_from, own_rounds) = match step {
        Step::PlanAssign | Step::Presentation => (recent_round, 1),
        _ => (round, 0),
    };
    let (recent_activity, activity_counts) =
        recent_activity(&s.activity, detail_from, own_rounds, &shown, &team_order);

    let chair_plans = is_chair && matches!(step, Step::Bootstrap | Step::PlanAssign);
    let (missing_details, missing_more) = if chair_plans {
        let list: Vec<String> = s
            .missing_details
            .iter()
            .take(MISSING_MAX)
            .map(|d| one_line(d, 200))
            .collect();
        (list, s.missing_details.len().saturating_sub(MISSING_MAX))
    } else {
        (Vec::new(), 0)
    };

    let mut owned: HashMap<&str, (usize, usize)> = HashMap::new();
    // The root is the whole project, not a piece of work: it counts for nobody.
    for (_, p) in live.iter().filter(|(_, p)| p.id != crate::tree::ROOT_ID) {
        if let Some(o) = p.owner.as_deref() {
            let e = owned.entry(o).or_default();
            e.0 += 1;
            if p.status != ProductStatus::Accepted {
                e.1 += 1;
            }
        }
    }
    let made = slot.map_or(0, |x| x.context_requests);
    let max_ctx = s.core.settings.max_context_requests;
    Envelope {
        step,
        round,
        max_rounds: s.core.settings.max_rounds,
        session_status: if s.core.rounds_ended {
            "wrapping up".into()
        } else {
            "running".into()
        },
        team: TeamInfo {
            name: s.team_name.clone(),
            description: s.team_description.clone(),
        },
        request: s.request.clone(),
        member: member_view(s, me, member_id),
        members: s
            .members
            .iter()
            .map(|m| {
                let (owned, pending) = owned.get(m.id.as_str()).copied().unwrap_or((0, 0));
                MemberBrief {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    role: m.role.clone(),
                    team_role: m.team_role.word().into(),
                    owned_products: owned,
                    owned_pending: pending,
                    area: s.domains.get(&m.id).map(|d| d.area.clone()),
                    // The chair leads the team: when it sets the team up and plans, it sees what
                    // Bootstrap made of each member.
                    responsibility: s
                        .domains
                        .get(&m.id)
                        .filter(|_| chair_plans && m.id != member_id)
                        .map(|d| one_line(&d.responsibility, PERSONA_BRIEF_MAX)),
                    persona: Some(&m.persona)
                        .filter(|p| chair_plans && m.id != member_id && !p.trim().is_empty())
                        .map(|p| one_line(p, PERSONA_BRIEF_MAX)),
                }
            })
            .collect(),
        charter: s.charter.as_ref().map(|c| CharterView {
            mission: c.mission.clone(),
            objectives: c.objectives.clone(),
            constraints: c.constraints.clone(),
        }),
        products,
        assigned_to_you,
        to_review,
        awaiting_acceptance,
        wrote_last_round,
        assessments,
        collabs_received,
        reflections,
        answers_to_your_collabs,
        recent_activity,
        activity_counts,
        last_chair_note,
        remarks_received,
        person_answers,
        missing_details,
        left_out: LeftOut {
            collabs: collabs_more,
            remarks: remarks_more,
            answers: answers_more,
            missing_details: missing_more,
            assessments: assessments_left.0,
            assessments_approved: assessments_left.1,
            reflections: reflections_left.0,
            reflections_met: reflections_left.1,
        },
        call: CallState {
            context_requests_made: made,
            context_requests_left: max_ctx.saturating_sub(made),
            final_output_required: made >= max_ctx,
            repairs_made: slot.map_or(0, |x| x.repairs),
            repairs_allowed: s.core.settings.max_repairs,
            pending_repair: slot
                .and_then(|x| x.pending_report.as_ref())
                .map(|f| crate::protocol::team::report_of(step, f)),
        },
        served_context: s.served.get(member_id).cloned().unwrap_or_default(),
        // Creation order (no sorting): live products, every collab, the team. Version ids are in
        // each product's `version_ids`.
        known_ids: KnownIds {
            products: live.iter().map(|(_, p)| p.id.clone()).collect(),
            collabs: s.tree.collabs().iter().map(|c| c.id.clone()).collect(),
            members: s
                .members
                .iter()
                .map(|m| m.id.clone())
                .chain(std::iter::once("user-1".to_string()))
                .collect(),
        },
    }
}

fn member_view(s: &TeamState, me: Option<&Member>, id: &str) -> MemberView {
    MemberView {
        id: id.to_string(),
        name: me.map(|m| m.name.clone()).unwrap_or_else(|| id.to_string()),
        role: me.map(|m| m.role.clone()).unwrap_or_default(),
        team_role: me.map_or("operative", |m| m.team_role.word()).into(),
        persona: me.map(|m| m.persona.clone()).unwrap_or_default(),
        skills: me.map(|m| m.skills.clone()).unwrap_or_default(),
        characteristics: me.map(|m| m.characteristics.clone()).unwrap_or_default(),
        domain: s.domains.get(id).cloned(),
    }
}

fn version_ref(s: &TeamState, product_id: &str, version_id: &str) -> Option<VersionRef> {
    let p = s.tree.product(product_id)?;
    let v = s.tree.version(version_id)?;
    Some(VersionRef {
        product_id: product_id.to_string(),
        version_id: version_id.to_string(),
        product_name: p.name.clone(),
        author: v.author.clone(),
        title: v.title.clone(),
    })
}

fn collab_view(c: &crate::tree::Collab) -> CollabView {
    CollabView {
        id: c.id.clone(),
        author: c.author.clone(),
        round: c.round,
        product_id: c.product_id.clone(),
        version_id: c.version_id.clone(),
        collab_type: wire_word(&c.collab_type),
        importance: c.importance,
        summary: c.summary.clone(),
        comment: c.comment.clone(),
        addressees: c.addressees.clone(),
    }
}

/// At most `max` items of a list, in their order: those `needed` says need attention first, then
/// the others. Also how many it leaves out, and how many of those did not need attention.
fn keep_first<T>(all: Vec<T>, max: usize, needed: impl Fn(&T) -> bool) -> (Vec<T>, (usize, usize)) {
    if all.len() <= max {
        return (all, (0, 0));
    }
    // Every item that needs attention while they fit, then the earliest others.
    let mut urgent_room = all.iter().filter(|t| needed(t)).count().min(max);
    let mut others_room = max - urgent_room;
    let (mut kept, mut left, mut left_plain) = (Vec::new(), 0, 0);
    for t in all {
        if needed(&t) {
            if urgent_room > 0 {
                urgent_room -= 1;
                kept.push(t);
            } else {
                left += 1;
            }
        } else if others_room > 0 {
            others_room -= 1;
            kept.push(t);
        } else {
            left += 1;
            left_plain += 1;
        }
    }
    (kept, (left, left_plain))
}

/// The last [`RECENT_MAX`] items of a chronological list, and how many it leaves out.
fn last_of<T>(mut all: Vec<T>) -> (Vec<T>, usize) {
    let skip = all.len().saturating_sub(RECENT_MAX);
    (all.split_off(skip), skip)
}

/// A version this member wrote, with the directive it answered and its diff to the one before.
fn worked_on(
    s: &TeamState,
    product_id: &str,
    version_id: &str,
    detailed: bool,
) -> Option<WorkedOnView> {
    let version = version_ref(s, product_id, version_id)?;
    let v = s.tree.version(version_id)?;
    let p = s.tree.product(product_id)?;
    let before = p
        .versions
        .iter()
        .position(|x| x == version_id)
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| s.tree.version(&p.versions[i]));
    Some(WorkedOnView {
        version,
        detail: detailed.then(|| WorkedDetail {
            directive: v.directive.clone(),
            diff: before
                .map(|old| line_diff_within(&old.content, &v.content, WORKED_DIFF_LINES, 100)),
        }),
    })
}

/// The facts other sections of a prompt show, by their ids.
#[derive(Default)]
struct Shown {
    /// Collab ids.
    collabs: BTreeSet<String>,
    /// Version ids shown with their author.
    versions: BTreeSet<String>,
    /// (reviewer or inspector, version id).
    assessments: BTreeSet<(String, String)>,
    /// (member, product id) of this round's reflections.
    reflections: BTreeSet<(String, String)>,
    /// The round of those reflections.
    round: u32,
}

impl Shown {
    /// Whether a line's fact is in another section, or belongs to none (remarks reach their
    /// recipients in their own section; the person's answers and the questions are listed
    /// together; Bootstrap's charter and products are the charter and the tree).
    fn covers(&self, a: &ActivityItem) -> bool {
        match &a.about {
            ActivityKind::Setup
            | ActivityKind::Remark
            | ActivityKind::Question
            | ActivityKind::Answer => true,
            ActivityKind::Collab { collab_id } => self.collabs.contains(collab_id),
            ActivityKind::Wrote { version_id } => self.versions.contains(version_id),
            ActivityKind::Review { version_id } | ActivityKind::Inspection { version_id } => self
                .assessments
                .contains(&(a.who.clone(), version_id.clone())),
            ActivityKind::Reflection { product_id } => {
                a.round == self.round
                    && self
                        .reflections
                        .contains(&(a.who.clone(), product_id.clone()))
            }
            ActivityKind::Other
            | ActivityKind::TreeChange
            | ActivityKind::Assigned
            | ActivityKind::Accepted
            | ActivityKind::Rejected => false,
        }
    }
}

/// Recent activity of a prompt: the lines from round `detail_from` on that no other section
/// shows, one member's lines of one kind grouped into one line (at most [`GROUP_MAX`] items, then
/// "and N more"), at most [`RECENT_MAX`] lines (the versions written kept longest). Whatever is
/// not listed — earlier rounds, the lines past the cap — is counted per member.
fn recent_activity(
    log: &[ActivityItem],
    detail_from: u32,
    own_rounds: u32,
    shown: &Shown,
    team_order: &[&str],
) -> (Vec<ActivityItem>, Vec<ActivityCount>) {
    struct Group<'a> {
        first: &'a ActivityItem,
        verb: Option<&'a str>,
        items: Vec<&'a ActivityItem>,
    }
    // An earlier round is summed up whole (what other sections show included, so the counts
    // are the round's); the person's questions and answers and the setup are listed elsewhere.
    let earlier: Vec<&ActivityItem> = log
        .iter()
        .take_while(|a| a.round < detail_from)
        .filter(|a| {
            !matches!(
                a.about,
                ActivityKind::Setup | ActivityKind::Question | ActivityKind::Answer
            )
        })
        .collect();
    let mut counted: Vec<&ActivityItem> = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    let mut index: HashMap<(u32, Step, &str, &str), usize> = HashMap::new();
    for a in log.iter().skip_while(|a| a.round < detail_from) {
        if shown.covers(a) {
            continue;
        }
        let verb = a.about.group_verb(&a.what);
        let key = verb.map(|v| (a.round, a.step, a.who.as_str(), v));
        match key.and_then(|k| index.get(&k).copied()) {
            Some(i) => groups[i].items.push(a),
            None => {
                if let Some(k) = key {
                    index.insert(k, groups.len());
                }
                groups.push(Group {
                    first: a,
                    verb,
                    items: vec![a],
                });
            }
        }
    }
    // Past the cap, count the oldest groups first, the versions written last.
    let mut over = groups.len().saturating_sub(RECENT_MAX);
    for wrote in [false, true] {
        for g in &mut groups {
            if over == 0 {
                break;
            }
            let is_wrote = matches!(g.first.about, ActivityKind::Wrote { .. });
            if is_wrote == wrote && !g.items.is_empty() {
                counted.append(&mut g.items);
                over -= 1;
            }
        }
    }
    let lines = groups
        .into_iter()
        .filter(|g| !g.items.is_empty())
        .map(|g| {
            let what = match g.verb {
                Some(verb) if g.items.len() > 1 => {
                    let objects: Vec<&str> = g
                        .items
                        .iter()
                        .map(|a| a.what[verb.len()..].trim())
                        .collect();
                    let sep = if objects.iter().any(|o| o.contains([':', ','])) {
                        "; "
                    } else {
                        ", "
                    };
                    let mut text = format!(
                        "{verb} {}",
                        objects[..objects.len().min(GROUP_MAX)].join(sep)
                    );
                    if objects.len() > GROUP_MAX {
                        let _ = write!(text, " and {} more", objects.len() - GROUP_MAX);
                    }
                    text
                }
                _ => g.first.what.clone(),
            };
            ActivityItem {
                what,
                ..g.first.clone()
            }
        })
        .collect();
    let oldest_own = detail_from.saturating_sub(own_rounds);
    let mut counts = count_activity(&earlier, oldest_own, team_order, false);
    counts.extend(count_activity(&counted, oldest_own, team_order, true));
    (lines, counts)
}

/// A span of rounds and a member (its rank in the team, for the order, and its id).
type SpanOf = ((u32, u32), usize, String);

/// Counts per span of rounds and member: one span per round from `oldest_own` on, one span for
/// all older rounds.
fn count_activity(
    counted: &[&ActivityItem],
    oldest_own: u32,
    team_order: &[&str],
    not_listed: bool,
) -> Vec<ActivityCount> {
    let span = |round: u32| {
        if round < oldest_own {
            (counted.first().map_or(0, |a| a.round), oldest_own - 1)
        } else {
            (round, round)
        }
    };
    // (span, member order, member) → kind noun → count, in first-seen kind order.
    let rank = |who: &str| {
        team_order
            .iter()
            .position(|m| *m == who)
            .unwrap_or(team_order.len())
    };
    let mut tally: std::collections::BTreeMap<SpanOf, Vec<(&ActivityKind, usize)>> =
        std::collections::BTreeMap::new();
    for a in counted {
        let entry = tally
            .entry((span(a.round), rank(&a.who), a.who.clone()))
            .or_default();
        match entry
            .iter_mut()
            .find(|(k, _)| std::mem::discriminant(*k) == std::mem::discriminant(&a.about))
        {
            Some((_, n)) => *n += 1,
            None => entry.push((&a.about, 1)),
        }
    }
    tally
        .into_iter()
        .map(|(((from_round, to_round), _, who), kinds)| ActivityCount {
            from_round,
            to_round,
            who,
            not_listed,
            counts: kinds
                .iter()
                .map(|(k, n)| {
                    let (one, many) = k.noun();
                    format!("{n} {}", if *n == 1 { one } else { many })
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect()
}

/// A short line diff: lines removed (`-`) and added (`+`) in reading order, blank lines left out,
/// at most 24 lines. The same diff the app shows ([`crate::diff::diff_lines`]), cut for a prompt.
pub fn line_diff(old: &str, new: &str) -> String {
    line_diff_within(old, new, 24, 160)
}

/// [`line_diff`] with at most `max_lines` changed lines of at most `max_chars` characters each.
pub fn line_diff_within(old: &str, new: &str, max_lines: usize, max_chars: usize) -> String {
    use crate::diff::DiffLine;
    // Trailing spaces are no change a reader sees.
    let plain = |t: &str| t.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    let mut out: Vec<String> = crate::diff::diff_lines(&plain(old), &plain(new))
        .into_iter()
        .filter_map(|l| match l {
            DiffLine::Removed(l) if !l.trim().is_empty() => {
                Some(format!("- {}", one_line(&l, max_chars)))
            }
            DiffLine::Added(l) if !l.trim().is_empty() => {
                Some(format!("+ {}", one_line(&l, max_chars)))
            }
            _ => None,
        })
        .collect();
    if out.is_empty() {
        return "no line changed".into();
    }
    let total = out.len();
    out.truncate(max_lines);
    if total > max_lines {
        out.push(format!("… {} more changed line(s)", total - max_lines));
    }
    out.join("\n")
}

// ---------------------------------------------------------------------------------------------
// Rendering the prompt.
// ---------------------------------------------------------------------------------------------

/// The two texts of a first call: the system frame and the user task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// Who the member is and the rules.
    pub system: String,
    /// The task and the state.
    pub user: String,
}

/// Renders the prompt of an envelope (spec 003's layout: persona, team, skills, characteristics,
/// the rules; then the task, the tree at the right tiers, recent activity, directives, collabs,
/// the chair's note and the charter).
pub fn render_prompt(env: &Envelope) -> Prompt {
    Prompt {
        system: render_system(env),
        user: render_user(env),
    }
}

fn render_system(env: &Envelope) -> String {
    let m = &env.member;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "You are {} ({}), {}, the {} of the team \"{}\". {}",
        m.name,
        m.id,
        if m.role.is_empty() {
            "a member"
        } else {
            &m.role
        },
        m.team_role,
        env.team.name,
        env.team.description
    );
    let _ = writeln!(out, "Your team members:");
    for b in &env.members {
        // The member's own domain follows in full ("Your domain"); the others' areas only.
        let area = b
            .area
            .as_deref()
            .filter(|_| b.id != m.id)
            .map_or(String::new(), |a| format!(", area: {a}"));
        let _ = write!(
            out,
            "- {} ({}): {}, {}{area}",
            b.id, b.name, b.role, b.team_role
        );
        match (b.owned_products, b.owned_pending) {
            (0, _) => {}
            (n, 0) => {
                let _ = write!(out, " — owns {n} product(s), all accepted");
            }
            (n, p) => {
                let _ = write!(out, " — owns {n} product(s), {p} not accepted yet");
            }
        }
        out.push('\n');
        // The chair's view of its team: what Bootstrap made of each member.
        match (&b.responsibility, &b.persona) {
            (Some(r), Some(p)) => {
                let r = r.trim_end_matches('.');
                let _ = writeln!(out, "  Responsibility: {r}. Persona: {p}");
            }
            (Some(r), None) => {
                let _ = writeln!(out, "  Responsibility: {r}");
            }
            (None, Some(p)) => {
                let _ = writeln!(out, "  Persona: {p}");
            }
            (None, None) => {}
        }
    }
    if !m.persona.trim().is_empty() {
        let _ = writeln!(out, "Persona: {}", m.persona.trim());
    }
    if let Some(d) = &m.domain {
        let _ = writeln!(out, "Your domain: {} — {}", d.area, d.responsibility);
    }
    if !m.skills.is_empty() {
        let _ = writeln!(out, "Skills: {}", m.skills.join(", "));
    }
    if !m.characteristics.is_empty() {
        let _ = writeln!(out, "Characteristics: {}", m.characteristics.join(", "));
    }
    let _ = writeln!(
        out,
        "CRITICAL: follow the base rules, the {} rules, the output structure, the common mistakes to avoid and the token rules below.\n",
        env.step.title()
    );
    out.push_str(BASE_RULES);
    let _ = writeln!(out, "\n## {} rules", env.step.title());
    out.push_str(step_rules(env.step));
    out.push_str("\n## Output structure\n");
    out.push_str(&output_structure(env));
    out.push_str("\n## Common mistakes to avoid\n");
    out.push_str(COMMON_MISTAKES);
    out.push_str(&step_mistakes(env.step));
    out.push_str("\n## Token rules\n");
    out.push_str(TOKEN_RULES);
    out
}

const BASE_RULES: &str = "## Base rules
- The team works in rounds on a tree of products. Ids are stable: products p0 (the root), p1, …; versions v1, …; collabs c1, …; members chair, operative-1, …, inspector, envoy; the person is user-1.
- Name only ids that appear in this prompt. A new product gets a temporary id new-1, new-2, … that exists only inside the answer that creates it.
- Everything you produce must trace back to the mission charter, a chair directive, a reflection or a collab.
- Keep the tree whole: no duplicate products, no duplicate comments. If you agree with something, say so briefly instead of restating it.
- Content is Markdown plain text; never put JSON inside a content field.
- Break work into explicit parts and steps; say what is left and what is uncertain.
";

const COMMON_MISTAKES: &str =
    "- Enum values spelled differently from the allowed values listed above (they are case-sensitive).
- Python literals (True, False, None) instead of JSON true, false, null.
";

const TOKEN_RULES: &str = "- Be dense: every sentence must carry information the team needs.
- Do not repeat the prompt, the tree or earlier answers back.
- Ask for context (request_context) only when the prompt really lacks something you need; it costs a round trip.
- Prefer one precise version over several partial ones.
";

fn step_rules(step: Step) -> &'static str {
    match step {
        Step::Bootstrap => "- Read the person's request and turn it into a mission charter: mission, objectives, constraints.
- Write a motivating persona for every member (keys are member ids), with more than a flat role statement.
- Give every operative a domain (responsibility and area).
- Propose the initial products (at most about 8): distinct names, a type, a definition of done (dod) that can be checked, an owner (an operative id, or null).
- List in missingDetails what the person did not say and you had to assume. If something essential is missing, you may halt with a question to user-1 instead.
",
        Step::Reflect => "- Look back on each product you worked on last round: how far is it from its definition of done, what gaps remain.
- Answer every collab you received (feedbackResponses: accept, defer or reject, with a rationale and the planned change).
- Say in nextVersionDelta exactly what your next version will change.
- Reflect only on the products you worked on last round.
",
        Step::PlanAssign => "- You own the plan: change the tree if needed (ADD, REMOVE, MOVE, UPDATE), assign work, accept or reject versions.
- Give every assignment a directive: objective, dod, why (motivation, importance, how it links to the bigger picture) and context (a personal note: what is left, whether the operative is on track).
- Accept a version when it meets its definition of done; reject with a reason the writer can act on.
- Attach context (attachedContext) from related products the assignee needs.
- When every product is accepted and the mission is met, halt with type done. If you need the person, halt with a question to user-1.
- bootstrapOverrides changes the charter or personas mid-session; use it only when the mission really changed.
",
        Step::Write => "- Write one new version of each product assigned to you this round, following its directive.
- The content is the whole product — not a description of what you would write.
- changeSummary says what changed since the last version and which collabs or directive points it answers.
- Comment on other products with collabs; write versions only of the products assigned to you.
",
        Step::PeerReview => "- Review each version listed under 'Versions to review': approved or needs_revision, with a summary.
- No duplication: if you agree, say so without restating the content; raise each point once.
- Use collabs for concrete, actionable feedback (suggestion, concern, question) addressed to the author.
",
        Step::Inspection => "- You are the watchdog: check every version listed under 'Versions to inspect' against its definition of done, for completeness, coherence, integration, quality and security.
- Assess each one with findings: what is wrong, how to fix it, and the DoD criterion it breaks.
- Do not repeat findings already raised in reviews or earlier inspections.
",
        Step::Presentation => "- Present the result to the person: what was produced, what was accepted, what is still open.
- You may not originate new content: only report what exists in the products and their versions.
- 1 to 10 messages; speak as yourself (asAgent is your member id).
",
    }
}

fn step_mistakes(step: Step) -> String {
    match step {
        // The Write rules already say the content is the whole product.
        Step::Write => String::new(),
        Step::PlanAssign => "- An assignment or acceptance naming a product that does not exist or was just removed.\n- Accepting a version id that belongs to another product.\n- Two children of one parent with the same name.\n".into(),
        Step::PeerReview => "- Reviewing your own version, or a version not listed for you.\n".into(),
        Step::Inspection => "- Inspecting a version not listed under 'Versions to inspect'.\n".into(),
        Step::Reflect => "- Reflecting on a product you did not work on last round; a collabId that does not exist.\n".into(),
        Step::Bootstrap => "- A domain for a member who is not an operative.\n".into(),
        Step::Presentation => "- New content that no product holds.\n".into(),
    }
}

fn output_structure(env: &Envelope) -> String {
    use crate::protocol::team::examples;
    let step = env.step;
    let mut out = String::from(
        "Answer with exactly one JSON object and nothing else (no code fence, no text around it). Its responseType is ",
    );
    out.push_str(if step.allows_halt() {
        "\"final_output\", \"request_context\" or \"halt\".\n"
    } else {
        "\"final_output\" or \"request_context\".\n"
    });
    out.push_str("Final output, for example:\n");
    out.push_str(&examples::final_output(env));
    out.push('\n');
    out.push_str(&final_output_notes(env));
    if step == Step::PlanAssign {
        out.push_str("Other tree operations:\n");
        out.push_str(&examples::other_tree_operations(env));
        out.push('\n');
    }
    let _ = write!(
        out,
        "\nRequest context (at most {} time(s) per step; then a final output is required):\n{{\"responseType\":\"request_context\",\"contextRequests\":[{{\"productId\":\"{}\",\"need\":\"full_content\",\"reason\":\"Why you need it.\"}}]}}\nneed is one of full_content, version_history, all_feedback, peer_content; {}-{} requests; reason at most {} characters.\n",
        env.call.context_requests_made + env.call.context_requests_left,
        env.known_ids
            .products
            .iter()
            .find(|p| *p != crate::tree::ROOT_ID)
            .map_or(crate::tree::ROOT_ID, String::as_str),
        limits::CONTEXT_REQUESTS_MIN,
        limits::CONTEXT_REQUESTS_MAX,
        limits::CONTEXT_REASON_MAX
    );
    if step.allows_halt() {
        let _ = write!(
            out,
            "Halt:\n{{\"responseType\":\"halt\",\"halt\":{{\"type\":\"question\",\"to\":[\"user-1\"],\"message\":\"Your question.\",\"options\":[\"One answer\",\"Another\"]}}}}\ntype is question (the person answers; options are optional){}. message at most {} characters.\n",
            if step == Step::Bootstrap {
                ""
            } else {
                " or done (the work is finished; the presentation follows)"
            },
            limits::HALT_MESSAGE_MAX
        );
    }
    if step != Step::Presentation {
        let (collab, remark) = examples::shared_parts(env);
        let _ = write!(
            out,
            "Shared parts (collabs and remarks may be []):\n- collab: {collab}\n  type is one of feedback, question, suggestion, endorsement, concern; importance {}-{}; comment at most {} characters, shortestSummary at most {}; optional refersToVersion, addresseeIds, respondingToCollabIds, referencesProductIds.\n- remark: {remark}\n  recipients are member ids or user, chair, team; type is one of question, suggestion, observation, note, missing_detail, blocker, comment; content at most {} characters; optional isBlocker.\n",
            limits::SCALE_MIN,
            limits::SCALE_MAX,
            limits::COLLAB_COMMENT_MAX,
            limits::COLLAB_SUMMARY_MAX,
            limits::REMARK_CONTENT_MAX
        );
    }
    out
}

/// What the example of the step's final output does not show: the other values and the limits.
fn final_output_notes(env: &Envelope) -> String {
    match env.step {
        Step::Bootstrap => format!(
            "personas: one per member id, at most {} characters each; operativeDomains: one per operative id; an initial product's type is one of Content, Decision, Collection, Orchestration, its name at most {} characters, its dod at most {}; mission at most {} characters.\n",
            limits::PERSONA_MAX,
            limits::PRODUCT_NAME_MAX,
            limits::PRODUCT_DOD_MAX,
            limits::MISSION_MAX
        ),
        Step::Reflect => "dodStatus is one of met, partially_met, not_met.\n".into(),
        Step::PlanAssign => format!(
            "Include only what you need; treeOperations, assignments, acceptance and remarks may be []. A new product's type is one of Content, Decision, Collection, Orchestration; name at most {} characters, dod at most {}. Assign work to operatives only; an assignment may add a directive \"context\" and \"attachedContext\":[{{\"productId\":\"…\",\"include\":[\"content\",\"feedback\"],\"reason\":\"Why they need it.\"}}]. To send a version back: {{\"productId\":\"…\",\"accepted\":false,\"rejectionReason\":\"What to change.\"}}. An UPDATE may change name, type, dod, description and assignee (null unassigns). Optional: chairVersions (versions you write yourself) and bootstrapOverrides.\n",
            limits::PRODUCT_NAME_MAX,
            limits::PRODUCT_DOD_MAX
        ),
        Step::Write => format!(
            "contentTitle at most {} characters; content {}-{} characters of Markdown.\n",
            limits::CONTENT_TITLE_MAX,
            limits::CONTENT_MIN,
            limits::CONTENT_MAX
        ),
        Step::PeerReview => String::new(),
        Step::Inspection => format!(
            "One inspection per version listed; assessment is one of approved, needs_revision, blocked; a finding's category is one of security, completeness, coherence, integration, quality, its severity {}-{}.\n",
            limits::SCALE_MIN,
            limits::SCALE_MAX
        ),
        Step::Presentation => String::new(),
    }
}

/// Where the session stands, for the task line: the round against the limit and the status.
fn when(env: &Envelope) -> String {
    let status = &env.session_status;
    match env.step {
        Step::Bootstrap => format!(
            "before round 1 of at most {}; session {status}",
            env.max_rounds
        ),
        Step::Presentation => format!("after round {}; session {status}", env.round),
        _ => format!(
            "round {} of at most {}{}; session {status}",
            env.round,
            env.max_rounds,
            if env.round >= env.max_rounds {
                ", the last"
            } else {
                ""
            }
        ),
    }
}

fn task_text(env: &Envelope) -> String {
    let when = when(env);
    match env.step {
        Step::Bootstrap => format!("Your task (Bootstrap, {when}): turn the person's request below into the team's mission charter, personas, operative domains and initial products."),
        Step::Reflect => format!("Your task (Reflect, {when}): look back on the products you worked on last round and the feedback they received, before the chair plans this round."),
        Step::PlanAssign => format!("Your task (PlanAssign, {when}): plan this round — shape the tree, assign work with directives, accept or reject the versions awaiting acceptance, or halt."),
        Step::Write => format!("Your task (Write, {when}): write a new version of each product assigned to you below."),
        Step::PeerReview => format!("Your task (PeerReview, {when}): review your teammates' new versions listed below."),
        Step::Inspection => format!("Your task (Inspection, {when}): inspect this round's new versions listed below against their definitions of done."),
        Step::Presentation => format!("Your task (Presentation, {when}): present the team's result to the person."),
    }
}

/// Count lines, one per span of rounds: `- round 1, in counts: chair 3 assignments; …`.
fn render_counts<'a>(out: &mut String, counts: impl Iterator<Item = &'a ActivityCount>) {
    let mut span = None;
    for c in counts {
        if span != Some((c.from_round, c.to_round)) {
            if span.is_some() {
                out.push('\n');
            }
            span = Some((c.from_round, c.to_round));
            let more = if c.not_listed { "also " } else { "" };
            if c.from_round == c.to_round {
                let _ = write!(out, "- {more}round {}, in counts:", c.from_round);
            } else {
                let _ = write!(
                    out,
                    "- {more}rounds {}-{}, in counts:",
                    c.from_round, c.to_round
                );
            }
        } else {
            out.push(';');
        }
        let _ = write!(out, " {}: {}", c.who, c.counts);
    }
    if span.is_some() {
        out.push('\n');
    }
}

/// One directive on one line: objective, dod, why and the chair's note.
fn directive_line(d: &Directive) -> String {
    let mut out = format!(
        "objective: {} | dod: {} | why: {}",
        one_line(&d.objective, 600),
        one_line(&d.dod, 600),
        one_line(&d.why, 600)
    );
    if let Some(c) = d.context.as_deref().filter(|c| !c.trim().is_empty()) {
        let _ = write!(out, " | note: {}", one_line(c, 600));
    }
    out
}

/// An answer to a collab on one line: the rationale, then the planned change if any.
fn rationale_line(rationale: &str, planned: Option<&str>) -> String {
    let mut out = one_line(rationale, 300);
    if let Some(p) = planned.filter(|p| !p.trim().is_empty()) {
        let sep = if out.ends_with(['.', '!', '?']) {
            " "
        } else {
            ". "
        };
        let _ = write!(out, "{sep}Planned: {}", one_line(p, 200));
    }
    out
}

/// "a; b; c and 2 more", each item on one line.
fn list_line(items: &[String], max_items: usize, max_chars: usize) -> String {
    let mut out = items
        .iter()
        .take(max_items)
        .map(|i| one_line(i, max_chars))
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > max_items {
        let _ = write!(out, " and {} more", items.len() - max_items);
    }
    out
}

fn render_user(env: &Envelope) -> String {
    let mut out = String::new();
    out.push_str(&task_text(env));
    out.push_str("\n\n");
    let _ = writeln!(
        out,
        "The person's request:\n> {}\n",
        env.request.trim().replace('\n', "\n> ")
    );
    if !env.person_answers.is_empty() {
        out.push_str("The person's answers to the team's questions:\n");
        for a in &env.person_answers {
            let _ = writeln!(
                out,
                "- {} asked (round {}): {}\n  Answer: {}",
                a.asked_by,
                a.round,
                one_line(&a.question, 400),
                a.answer.trim()
            );
        }
        out.push('\n');
    }
    if !env.missing_details.is_empty() {
        let _ = write!(
            out,
            "Missing details (the person did not say; Bootstrap assumed): {}",
            env.missing_details.join("; ")
        );
        if env.left_out.missing_details > 0 {
            let _ = write!(out, " and {} more", env.left_out.missing_details);
        }
        out.push_str("\n\n");
    }
    out.push_str("Reminder:\nCurrent project structure:\n");
    out.push_str(&render_views(&env.products));
    out.push('\n');

    if !env.assigned_to_you.is_empty() {
        out.push_str("Your assignments this round:\n");
        for a in &env.assigned_to_you {
            let _ = writeln!(out, "- {} \"{}\"", a.product_id, a.product_name);
            let _ = writeln!(
                out,
                "  Last directive: objective: {} | dod: {} | why: {}",
                a.directive.objective, a.directive.dod, a.directive.why
            );
            if let Some(c) = &a.directive.context {
                let _ = writeln!(out, "  Note from the chair: {c}");
            }
            if let Some(v) = &a.current_version {
                let _ = writeln!(out, "  Latest version: {} (see the structure above)", v.id);
            }
            if let Some(d) = &a.last_version_diff {
                let _ = writeln!(out, "  Last version diff:");
                for line in d.lines() {
                    let _ = writeln!(out, "    {line}");
                }
            }
            for att in &a.attached {
                let _ = writeln!(out, "  Attached {} ({}):", att.product_id, att.reason);
                if let Some(c) = &att.content {
                    for line in c.lines() {
                        let _ = writeln!(out, "    {line}");
                    }
                }
                for f in &att.feedback {
                    let _ = writeln!(
                        out,
                        "    - {} by {}: {}",
                        f.id,
                        f.author,
                        one_line(&f.comment, 300)
                    );
                }
            }
        }
        out.push('\n');
    }
    if !env.wrote_last_round.is_empty() {
        out.push_str("Products you worked on last round (history in the structure above):\n");
        for w in env.wrote_last_round.iter().filter(|w| w.detail.is_some()) {
            let v = &w.version;
            let _ = writeln!(
                out,
                "- {} \"{}\": {} \"{}\"",
                v.product_id, v.product_name, v.version_id, v.title
            );
            let Some(detail) = &w.detail else { continue };
            if let Some(d) = &detail.directive {
                let _ = writeln!(out, "  Last directive: {}", directive_line(d));
            }
            match &detail.diff {
                Some(d) => {
                    let _ = writeln!(out, "  Last version diff:");
                    for line in d.lines() {
                        let _ = writeln!(out, "    {line}");
                    }
                }
                None => out.push_str("  Last version diff: none, it is the first version.\n"),
            }
        }
        let rest: Vec<String> = env
            .wrote_last_round
            .iter()
            .filter(|w| w.detail.is_none())
            .map(|w| format!("{} ({})", w.product_id, w.version_id))
            .collect();
        if !rest.is_empty() {
            let _ = write!(
                out,
                "- and {} more (request_context version_history shows a directive and diff): {}",
                rest.len(),
                rest[..rest.len().min(WORKED_LIST_MAX)].join(", ")
            );
            if rest.len() > WORKED_LIST_MAX {
                let _ = write!(out, " … and {} more", rest.len() - WORKED_LIST_MAX);
            }
            out.push('\n');
        }
        out.push('\n');
    }
    if !env.to_review.is_empty() {
        let _ = writeln!(
            out,
            "{}:",
            if env.step == Step::Inspection {
                "Versions to inspect"
            } else {
                "Versions to review"
            }
        );
        for v in &env.to_review {
            let _ = writeln!(
                out,
                "- {} of {} \"{}\" by {}: \"{}\"",
                v.version_id, v.product_id, v.product_name, v.author, v.title
            );
        }
        out.push('\n');
    }
    if !env.awaiting_acceptance.is_empty() {
        out.push_str("Versions awaiting acceptance:\n");
        for v in &env.awaiting_acceptance {
            let _ = writeln!(
                out,
                "- {} of {} \"{}\" by {}",
                v.version_id, v.product_id, v.product_name, v.author
            );
        }
        out.push('\n');
    }
    if !env.reflections.is_empty() {
        out.push_str("Reflections this round:\n");
        for r in &env.reflections {
            let _ = write!(out, "- {} on {}: DoD {}", r.by, r.product_id, r.dod_status);
            if !r.dod_gaps.is_empty() {
                let _ = write!(out, "; gaps: {}", list_line(&r.dod_gaps, 5, 200));
            }
            let _ = write!(out, "; next: {}", one_line(&r.next_version_delta, 300));
            if !r.blockers.is_empty() {
                let _ = write!(out, "; blockers: {}", list_line(&r.blockers, 5, 200));
            }
            out.push('\n');
            // The answers to collabs: the chair sees how each point was taken.
            for f in r.feedback_responses.iter().take(GROUP_MAX) {
                let _ = writeln!(
                    out,
                    "  answered {}: {} — {}",
                    f.collab_id,
                    wire_word(&f.action),
                    rationale_line(&f.rationale, f.planned_change.as_deref())
                );
            }
            if r.feedback_responses.len() > GROUP_MAX {
                let _ = writeln!(
                    out,
                    "  and {} more answers to collabs",
                    r.feedback_responses.len() - GROUP_MAX
                );
            }
        }
        if env.left_out.reflections > 0 {
            let _ = writeln!(
                out,
                "- and {} more ({} of them with the definition of done met, no blockers)",
                env.left_out.reflections, env.left_out.reflections_met
            );
        }
        out.push('\n');
    }
    if !env.assessments.is_empty() {
        out.push_str(match env.step {
            Step::Inspection => {
                "Reviews and inspections of these products so far (do not repeat their findings):\n"
            }
            Step::PeerReview => {
                "Reviews and inspections of these products so far (do not repeat their points):\n"
            }
            _ => "Reviews and inspections of last round:\n",
        });
        for a in &env.assessments {
            let _ = write!(
                out,
                "- {} {} {} of {}",
                a.by, a.kind, a.version_id, a.product_id
            );
            if matches!(env.step, Step::PeerReview | Step::Inspection) {
                let _ = write!(out, " (round {})", a.round);
            }
            let _ = writeln!(out, ": {} — {}", a.assessment, one_line(&a.summary, 400));
        }
        if env.left_out.assessments > 0 {
            let _ = writeln!(
                out,
                "- and {} more ({} of them approved)",
                env.left_out.assessments, env.left_out.assessments_approved
            );
        }
        out.push('\n');
    }
    if !env.collabs_received.is_empty() {
        out.push_str(match env.step {
            Step::PeerReview | Step::Inspection => {
                "Collabs on these products and to you (do not repeat them):\n"
            }
            _ => "Collabs received:\n",
        });
        for c in &env.collabs_received {
            let _ = writeln!(
                out,
                "- {} from {} on {}{} ({}, importance {}): {}",
                c.id,
                c.author,
                c.product_id,
                c.version_id
                    .as_deref()
                    .map(|v| format!("/{v}"))
                    .unwrap_or_default(),
                c.collab_type,
                c.importance,
                one_line(&c.comment, 600)
            );
        }
        if env.left_out.collabs > 0 {
            let _ = writeln!(
                out,
                "- and {} earlier collab(s) (request_context all_feedback lists them)",
                env.left_out.collabs
            );
        }
        out.push('\n');
    }
    if !env.answers_to_your_collabs.is_empty() {
        out.push_str("Answers to your collabs:\n");
        for a in &env.answers_to_your_collabs {
            let _ = writeln!(
                out,
                "- {} on {} (\"{}\"): {} answered {} — {}",
                a.collab_id,
                a.product_id,
                a.summary,
                a.by,
                a.action,
                rationale_line(&a.rationale, a.planned_change.as_deref())
            );
        }
        if env.left_out.answers > 0 {
            let _ = writeln!(out, "- and {} earlier answer(s)", env.left_out.answers);
        }
        out.push('\n');
    }
    if !env.recent_activity.is_empty() || !env.activity_counts.is_empty() {
        out.push_str("Recent activity:\n");
        render_counts(
            &mut out,
            env.activity_counts.iter().filter(|c| !c.not_listed),
        );
        for a in &env.recent_activity {
            let _ = writeln!(out, "- round {} {}: {} {}", a.round, a.step, a.who, a.what);
        }
        render_counts(
            &mut out,
            env.activity_counts.iter().filter(|c| c.not_listed),
        );
        out.push('\n');
    }
    if let Some(n) = &env.last_chair_note {
        let _ = writeln!(out, "Last chair personal note: {}\n", n.trim());
    }
    if !env.remarks_received.is_empty() {
        out.push_str("Remarks for you:\n");
        for r in &env.remarks_received {
            let _ = writeln!(
                out,
                "- from {} ({}): {}",
                r.from,
                r.remark_type,
                one_line(&r.content, 600)
            );
        }
        if env.left_out.remarks > 0 {
            let _ = writeln!(out, "- and {} earlier remark(s)", env.left_out.remarks);
        }
        out.push('\n');
    }
    match &env.charter {
        Some(c) => {
            let _ = writeln!(
                out,
                "Mission charter:\n- Mission: {}\n- Objectives: {}\n- Constraints: {}\n",
                c.mission.trim(),
                c.objectives.trim(),
                c.constraints.trim()
            );
        }
        None => out.push_str("Mission charter: not written yet (that is your task).\n\n"),
    }
    if env.call.final_output_required {
        out.push_str("You have used all your context requests at this step: answer with your final output now.\n");
    } else {
        let _ = writeln!(
            out,
            "If something essential is missing, you may ask for context ({} request(s) left at this step).",
            env.call.context_requests_left
        );
    }
    out.push_str("Answer with one JSON object only.");
    out
}

/// The message sent after a `request_context`: the slices, then the renewed ask.
pub fn follow_up_text(step: Step, slices: &[ContextSlice], left: u32) -> String {
    let mut out = String::from("Here is the context you asked for.\n");
    for s in slices {
        let _ = writeln!(
            out,
            "\n### {} — {}\n{}",
            s.product_id,
            wire_word(&s.need),
            s.text
        );
    }
    let _ = write!(
        out,
        "\nNow answer the {} step again with one JSON object. ",
        step.title()
    );
    if left == 0 {
        out.push_str("You have no context requests left: your answer must be a final output.");
    } else {
        let _ = write!(out, "You may ask for context {left} more time(s).");
    }
    out
}

#[cfg(test)]
#[path = "context_tests.rs"]
mod tests;
