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
    ReviewAssessment, Step,
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
    /// An operative's area (its domain from Bootstrap), so everyone knows who covers what.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<String>,
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

/// How many activity lines, collabs and remarks a prompt carries at most.
const RECENT_MAX: usize = 20;

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
    let wrote_last_round: Vec<VersionRef> = if step == Step::Reflect {
        s.written
            .iter()
            .filter(|w| w.member == member_id && w.round + 1 == round && w.step == Step::Write)
            .filter_map(|w| version_ref(s, &w.product_id, &w.version_id))
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
        .map(|v| v.product_id.as_str())
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
    let products: Vec<ProductView> = live
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
        .chain(wrote_last_round.iter().map(|v| v.product_id.as_str()))
        .chain(my_assignments.iter().map(|a| a.product_id.as_str()))
        .collect();
    let recent_round = round.saturating_sub(1);
    let assessments: Vec<AssessmentView> = s
        .assessments
        .iter()
        .filter(|a| a.round >= recent_round && a.round < round.max(1) || a.round == recent_round)
        .filter(|a| match step {
            Step::PlanAssign | Step::Presentation => true,
            Step::Reflect | Step::Write => mine.contains(a.product_id.as_str()),
            _ => false,
        })
        .cloned()
        .collect();
    let collabs_received: Vec<CollabView> = {
        let all: Vec<CollabView> = s
            .tree
            .collabs()
            .iter()
            .filter(|c| c.author != member_id && c.round >= recent_round)
            .filter(|c| {
                c.addressees.iter().any(|a| a == member_id)
                    || (c.addressees.is_empty() && mine.contains(c.product_id.as_str()))
                    || (is_chair && step == Step::PlanAssign && c.importance >= 7)
            })
            .map(collab_view)
            .collect();
        let skip = all.len().saturating_sub(RECENT_MAX);
        all.into_iter().skip(skip).collect()
    };
    let reflections: Vec<ReflectionView> = s
        .reflections
        .iter()
        .filter(|(r, v)| *r == round && (is_chair || v.by == member_id))
        .map(|(_, v)| v.clone())
        .collect();
    let recent_activity: Vec<ActivityItem> = {
        // Newest first while deduplicating, then back to chronological order.
        let mut seen = BTreeSet::new();
        let mut recent: Vec<ActivityItem> = s
            .activity
            .iter()
            .rev()
            .take_while(|a| a.round >= recent_round)
            // Remarks reach their recipients in their own section; listing them here would repeat.
            .filter(|a| !a.what.starts_with("remarked to "))
            .filter(|a| seen.insert((a.who.as_str(), a.what.as_str())))
            .take(RECENT_MAX)
            .cloned()
            .collect();
        recent.reverse();
        recent
    };
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
    let remarks_received: Vec<RemarkView> = {
        let all: Vec<RemarkView> = s
            .remarks
            .iter()
            .filter(|r| r.round >= recent_round && addressed(r))
            .filter(|r| Some(&r.content) != last_chair_note.as_ref())
            .cloned()
            .collect();
        let skip = all.len().saturating_sub(RECENT_MAX);
        all.into_iter().skip(skip).collect()
    };
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
        recent_activity,
        last_chair_note,
        remarks_received,
        person_answers,
        missing_details: s.missing_details.clone(),
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

/// A short line diff: lines removed (`-`) and added (`+`) in reading order, blank lines left out,
/// at most 24 lines. The same diff the app shows ([`crate::diff::diff_lines`]), cut for a prompt.
pub fn line_diff(old: &str, new: &str) -> String {
    use crate::diff::DiffLine;
    // Trailing spaces are no change a reader sees.
    let plain = |t: &str| t.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    let mut out: Vec<String> = crate::diff::diff_lines(&plain(old), &plain(new))
        .into_iter()
        .filter_map(|l| match l {
            DiffLine::Removed(l) if !l.trim().is_empty() => {
                Some(format!("- {}", one_line(&l, 160)))
            }
            DiffLine::Added(l) if !l.trim().is_empty() => Some(format!("+ {}", one_line(&l, 160))),
            _ => None,
        })
        .collect();
    if out.is_empty() {
        return "no line changed".into();
    }
    let total = out.len();
    out.truncate(24);
    if total > 24 {
        out.push(format!("… {} more changed line(s)", total - 24));
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
        let _ = writeln!(
            out,
            "- {} ({}): {}, {}{area} — owns {} product(s), {} not accepted yet",
            b.id, b.name, b.role, b.team_role, b.owned_products, b.owned_pending
        );
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

fn task_text(env: &Envelope) -> String {
    match env.step {
        Step::Bootstrap => "Your task (Bootstrap): turn the person's request below into the team's mission charter, personas, operative domains and initial products.".into(),
        Step::Reflect => format!("Your task (Reflect, round {}): look back on the products you worked on last round and the feedback they received, before the chair plans this round.", env.round),
        Step::PlanAssign => format!("Your task (PlanAssign, round {} of at most {}): plan this round — shape the tree, assign work with directives, accept or reject the versions awaiting acceptance, or halt.", env.round, env.max_rounds),
        Step::Write => format!("Your task (Write, round {}): write a new version of each product assigned to you below.", env.round),
        Step::PeerReview => format!("Your task (PeerReview, round {}): review your teammates' new versions listed below.", env.round),
        Step::Inspection => format!("Your task (Inspection, round {}): inspect this round's new versions listed below against their definitions of done.", env.round),
        Step::Presentation => "Your task (Presentation): present the team's result to the person.".into(),
    }
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
    if env.step == Step::Bootstrap && !env.missing_details.is_empty() {
        let _ = writeln!(
            out,
            "Missing details noted so far: {}\n",
            env.missing_details.join("; ")
        );
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
        for v in &env.wrote_last_round {
            let _ = writeln!(
                out,
                "- {} \"{}\": {} \"{}\"",
                v.product_id, v.product_name, v.version_id, v.title
            );
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
            let _ = write!(
                out,
                "- {} on {}: DoD {}; next: {}",
                r.by,
                r.product_id,
                r.dod_status,
                one_line(&r.next_version_delta, 300)
            );
            if !r.blockers.is_empty() {
                let _ = write!(out, "; blockers: {}", r.blockers.join("; "));
            }
            out.push('\n');
        }
        out.push('\n');
    }
    if !env.assessments.is_empty() {
        out.push_str("Reviews and inspections of last round:\n");
        for a in &env.assessments {
            let _ = writeln!(
                out,
                "- {} {} {} of {}: {} — {}",
                a.by,
                a.kind,
                a.version_id,
                a.product_id,
                a.assessment,
                one_line(&a.summary, 400)
            );
        }
        out.push('\n');
    }
    if !env.collabs_received.is_empty() {
        out.push_str("Collabs received:\n");
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
        out.push('\n');
    }
    if !env.recent_activity.is_empty() {
        out.push_str("Recent activity:\n");
        for a in &env.recent_activity {
            let _ = writeln!(out, "- round {} {}: {} {}", a.round, a.step, a.who, a.what);
        }
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
