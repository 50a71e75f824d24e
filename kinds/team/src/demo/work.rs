//! The team's steps as the demo plays them: Reflect, Write, PeerReview and Inspection.
//!
//! Reviews are stricter in round 1 than later (drafts get sent back, revisions pass), so the chair
//! has something to decide in round 2 and the session still converges. Now and then a member asks
//! for more context first — an operative's Write in round 2, an inspector looking at history, a
//! reflection on all feedback — but only when the engine says it may and the call does not already
//! carry what was asked.

use super::compose::{clip, Ctx};
use super::input::{DemoCollab, DemoProduct, Verdict, VersionRef};
use super::Draft;
use crate::wire::{
    CollabOutput, CollabType, ContextNeed, ContextRequest, DodStatus, FeedbackAction,
    FeedbackResponse, FinalOutput, Finding, FindingCategory, Inspection, InspectionAssessment,
    InspectionOutput, NewVersion, PeerReviewOutput, ReflectOutput, Reflection, RemarkOutput,
    RemarkType, Review, ReviewAssessment, WriteOutput, WrittenVersion,
};

/// True when this call may still ask for context.
fn may_ask(cx: &Ctx) -> bool {
    cx.input.context_requests_left > 0 && !cx.input.context_received && cx.input.repair.is_none()
}

fn ask(product_id: &str, need: ContextNeed, reason: String) -> Draft {
    Draft::Context(vec![ContextRequest {
        product_id: product_id.to_string(),
        need,
        reason: clip(&reason, 400),
    }])
}

fn received_on<'a>(cx: &Ctx<'a>, product_id: &str) -> Vec<&'a DemoCollab> {
    cx.input
        .collabs
        .iter()
        .filter(|c| c.product_id == product_id)
        .collect()
}

/// A one-line summary within the schema's limit.
fn summary(text: String) -> String {
    clip(&text, crate::wire::limits::COLLAB_SUMMARY_MAX)
}

/// Reflect: where each product written last round stands and what happens to each collab.
pub(crate) fn reflect(cx: &mut Ctx) -> Draft {
    let input = cx.input;
    let mine: Vec<&DemoProduct> = if input.written_last_round.is_empty() {
        input
            .products
            .iter()
            .filter(|p| p.latest_author.as_deref() == Some(input.member_id.as_str()))
            .collect()
    } else {
        input
            .written_last_round
            .iter()
            .filter_map(|id| input.product(id))
            .collect()
    };
    if let Some(first) = mine.first() {
        if may_ask(cx) && !received_on(cx, &first.id).is_empty() && cx.rng.chance(1, 6) {
            return ask(
                &first.id,
                ContextNeed::AllFeedback,
                format!(
                    "I want to answer every point on {} in one go, including comments older than this round.",
                    first.name.trim()
                ),
            );
        }
    }
    let mut reflections = Vec::new();
    let mut remarks = Vec::new();
    for p in &mine {
        let status = if p.verdicts.contains(&Verdict::Blocked) {
            DodStatus::NotMet
        } else if !p.verdicts.is_empty() && p.verdicts.iter().all(|v| *v == Verdict::Approved) {
            DodStatus::Met
        } else {
            DodStatus::PartiallyMet
        };
        let heading = cx.some_heading(p);
        let gaps = match status {
            DodStatus::Met => None,
            _ => Some(vec![
                format!("The {heading} section is not concrete enough yet."),
                "Open points still depend on facts the person has not confirmed.".to_string(),
            ]),
        };
        let mut responses = Vec::new();
        for c in received_on(cx, &p.id) {
            let roll = cx.rng.below(8);
            let (action, rationale, planned) = if c.collab_type == CollabType::Endorsement {
                (
                    FeedbackAction::Accept,
                    "Noted – it confirms the current direction.".to_string(),
                    None,
                )
            } else if roll == 0 {
                (
                    FeedbackAction::Reject,
                    format!(
                        "Outside what {} has to cover; it belongs with another product.",
                        p.name.trim()
                    ),
                    None,
                )
            } else if roll == 1 {
                (
                    FeedbackAction::Defer,
                    "Fair point, but it depends on details the person has not confirmed yet."
                        .to_string(),
                    None,
                )
            } else {
                (
                    FeedbackAction::Accept,
                    format!("Valid point – it makes {} easier to use.", p.name.trim()),
                    Some(format!(
                        "Rework the affected section: {}.",
                        clip(c.summary.trim().trim_end_matches('.'), 160)
                    )),
                )
            };
            responses.push(FeedbackResponse {
                collab_id: c.id.clone(),
                action,
                rationale,
                planned_change: planned,
            });
        }
        let delta = if status == DodStatus::Met {
            "Only polish: tighten the wording and align terms with the other products.".to_string()
        } else {
            format!("Take in the accepted feedback, fill the open points and make the {heading} section concrete.")
        };
        if status != DodStatus::Met && remarks.is_empty() && cx.rng.chance(1, 5) {
            let missing = cx.fill(cx.topic.missing[0]);
            remarks.push(RemarkOutput {
                recipients: vec!["chair".to_string()],
                remark_type: RemarkType::Question,
                content: format!(
                    "Can we confirm this with the person: {}? It changes {}.",
                    missing.to_lowercase(),
                    p.name.trim()
                ),
                is_blocker: Some(false),
            });
        }
        reflections.push(Reflection {
            refers_to_product: p.id.clone(),
            dod_status: status,
            dod_gaps: gaps,
            feedback_responses: responses,
            next_version_delta: delta,
            blockers: None,
        });
    }
    let mut collabs = Vec::new();
    if let Some(p) = mine.first() {
        if cx.rng.chance(1, 4) {
            if let Some(n) = cx.neighbour_of(&p.id) {
                if n.owner.as_deref() != Some(input.member_id.as_str()) {
                    collabs.push(CollabOutput {
                        refers_to_product: n.id.clone(),
                        collab_type: CollabType::Suggestion,
                        importance: 4,
                        comment: format!(
                            "Looking back on round {}: while writing {} I noticed {} uses slightly different names for the same things. Shall we align on the terms in {}?",
                            input.round.saturating_sub(1).max(1),
                            p.name.trim(),
                            n.name.trim(),
                            p.name.trim()
                        ),
                        shortest_summary: summary(format!(
                            "Align terms between {} and {}",
                            n.name.trim(),
                            p.name.trim()
                        )),
                        refers_to_version: n.latest().map(str::to_string),
                        references_product_ids: Some(vec![p.id.clone()]),
                        addressee_ids: n.owner.clone().map(|o| vec![o]),
                        responding_to_collab_ids: None,
                    });
                }
            }
        }
    }
    Draft::Final(FinalOutput::Reflect(ReflectOutput {
        reflections,
        collabs,
        remarks,
    }))
}

/// Write: one new version per assigned product.
pub(crate) fn write(cx: &mut Ctx) -> Draft {
    let input = cx.input;
    let me = input.member_id.as_str();
    if input.round == 2 && may_ask(cx) {
        let first_op = input.operatives().first().copied() == Some(me);
        if first_op || cx.rng.chance(1, 3) {
            let target = input.assigned.iter().find_map(|id| {
                input
                    .products
                    .iter()
                    .find(|p| p.id != *id && p.is_writable() && !p.versions.is_empty())
                    .map(|n| (id.clone(), n))
            });
            if let Some((mine, n)) = target {
                return ask(
                    &n.id,
                    ContextNeed::FullContent,
                    format!(
                        "My revision of {} must match the details in {}; my prompt only shows its summary.",
                        cx.product_name(&mine),
                        n.name.trim()
                    ),
                );
            }
        }
    }
    let mut versions = Vec::new();
    for id in &input.assigned {
        let fallback;
        let product = match input.product(id) {
            Some(p) => p,
            None => {
                fallback = DemoProduct {
                    id: id.clone(),
                    name: format!("Product {id}"),
                    product_type: crate::wire::ProductType::Content,
                    parent_id: None,
                    owner: Some(me.to_string()),
                    dod: String::new(),
                    versions: Vec::new(),
                    accepted_version: None,
                    latest_author: None,
                    verdicts: Vec::new(),
                    notes: Vec::new(),
                    latest_content: None,
                };
                &fallback
            }
        };
        let number = product.versions.len() + 1;
        let feedback = received_on(cx, id);
        let content = cx.render_version(product, number, &feedback);
        let headings: Vec<String> = cx
            .sections_for(product)
            .into_iter()
            .map(|(h, _)| h.to_lowercase())
            .collect();
        let (title, change) = if number == 1 {
            (
                format!("{} – draft", product.name.trim()),
                format!(
                    "First draft covering {}; open points listed at the end.",
                    headings.join(", ")
                ),
            )
        } else {
            (
                format!("{} – revision {number}", product.name.trim()),
                format!(
                    "Revision {number}: took in {}, filled the open sections and checked every section against the definition of done.",
                    match feedback.len() {
                        0 => "the chair's directive".to_string(),
                        1 => "one review point".to_string(),
                        n => format!("{n} review points"),
                    }
                ),
            )
        };
        versions.push(WrittenVersion {
            product_id: id.clone(),
            new_version: NewVersion {
                content_title: clip(&title, crate::wire::limits::CONTENT_TITLE_MAX),
                content: content.into(),
                change_summary: change,
            },
        });
    }
    let mut collabs = Vec::new();
    if let Some(mine) = input.assigned.first() {
        if cx.rng.chance(1, 3) {
            if let Some(n) = cx.neighbour_of(mine) {
                let owner = n.owner.clone().filter(|o| o != me);
                if let (Some(owner), Some(_)) = (owner, n.latest()) {
                    let my_name = cx.product_name(mine);
                    collabs.push(CollabOutput {
                        refers_to_product: n.id.clone(),
                        collab_type: CollabType::Question,
                        importance: 4,
                        comment: format!(
                            "In round {}, {my_name} assumes the timing and names used in {} as of {}. Can you confirm they are final, or tell me what will change?",
                            input.round,
                            n.name.trim(),
                            n.latest().unwrap_or("its latest version")
                        ),
                        shortest_summary: summary(format!(
                            "Are the details in {} final?",
                            n.name.trim()
                        )),
                        refers_to_version: n.latest().map(str::to_string),
                        references_product_ids: Some(vec![mine.clone()]),
                        addressee_ids: Some(vec![owner]),
                        responding_to_collab_ids: None,
                    });
                }
            }
        }
    }
    let mut remarks = Vec::new();
    let open = cx.open_points();
    if input.round <= 1 && !open.is_empty() && cx.rng.chance(1, 4) {
        let missing = &open[cx.rng.below(open.len())];
        remarks.push(RemarkOutput {
            recipients: vec!["chair".to_string()],
            remark_type: RemarkType::MissingDetail,
            content: format!(
                "{missing} is not known yet; I assumed the first option the person was offered and marked it as an open point."
            ),
            is_blocker: None,
        });
    }
    Draft::Final(FinalOutput::Write(WriteOutput {
        versions,
        collabs,
        remarks,
    }))
}

/// How a reviewer's change request starts; the chair drops it when quoting the request.
pub(crate) const NEEDS_PASS: &str = "Needs one more pass: ";

/// Concrete improvement requests a reviewer makes, with `{h}` for a section heading.
const SUGGESTIONS: [&str; 5] = [
    "add an owner and a date to each item in {h}",
    "give one concrete example in {h} instead of a general statement",
    "cut {h} to the three points that matter most",
    "state the assumptions behind {h} explicitly",
    "say in {h} how it connects to the rest of the plan",
];

/// PeerReview: a verdict and a summary per version, a suggestion when it needs work.
pub(crate) fn peer_review(cx: &mut Ctx) -> Draft {
    let input = cx.input;
    let mut reviews = Vec::new();
    let mut collabs = Vec::new();
    for v in &input.to_review {
        let Some(p) = input.product(&v.product_id) else {
            continue;
        };
        let strict = if input.round <= 1 { (2, 5) } else { (1, 10) };
        let needs = cx.rng.chance(strict.0, strict.1);
        let heading = cx.some_heading(p);
        let name = p.name.trim();
        if needs {
            let what = cx
                .rng
                .pick(&SUGGESTIONS)
                .replace("{h}", &format!("the {heading} section"));
            reviews.push(Review {
                product_id: v.product_id.clone(),
                version_id: v.version_id.clone(),
                assessment: ReviewAssessment::NeedsRevision,
                summary: format!("{NEEDS_PASS}{what}."),
            });
            collabs.push(CollabOutput {
                refers_to_product: v.product_id.clone(),
                collab_type: CollabType::Suggestion,
                importance: 5 + cx.rng.below(4) as i64,
                comment: format!(
                    "In version {} of {name}, {what}. Right now a reader could not act on it without asking you first.",
                    v.version_id
                ),
                shortest_summary: summary(capitalise(&what)),
                refers_to_version: Some(v.version_id.clone()),
                references_product_ids: None,
                addressee_ids: author_of(v),
                responding_to_collab_ids: None,
            });
        } else {
            reviews.push(Review {
                product_id: v.product_id.clone(),
                version_id: v.version_id.clone(),
                assessment: ReviewAssessment::Approved,
                summary: format!(
                    "Meets its definition of done; the {heading} section is concrete enough to act on."
                ),
            });
            if cx.rng.chance(1, 3) {
                collabs.push(CollabOutput {
                    refers_to_product: v.product_id.clone(),
                    collab_type: CollabType::Endorsement,
                    importance: 3,
                    comment: format!(
                        "Agree with version {} as it stands: the structure and the choices work; nothing to add.",
                        v.version_id
                    ),
                    shortest_summary: summary(format!("Agree with {name} as it is")),
                    refers_to_version: Some(v.version_id.clone()),
                    references_product_ids: None,
                    addressee_ids: author_of(v),
                    responding_to_collab_ids: None,
                });
            }
        }
    }
    Draft::Final(FinalOutput::PeerReview(PeerReviewOutput {
        reviews,
        collabs,
        remarks: Vec::new(),
    }))
}

fn author_of(v: &VersionRef) -> Option<Vec<String>> {
    v.author.clone().map(|a| vec![a])
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Inspection: a verdict and findings per version against its definition of done.
pub(crate) fn inspection(cx: &mut Ctx) -> Draft {
    let input = cx.input;
    if may_ask(cx) && cx.rng.chance(1, 4) {
        if let Some(p) = input
            .to_inspect
            .iter()
            .filter_map(|v| input.product(&v.product_id))
            .find(|p| p.versions.len() >= 2)
        {
            return ask(
                &p.id,
                ContextNeed::VersionHistory,
                format!(
                    "To check that the revision of {} did not drop anything the earlier version had.",
                    p.name.trim()
                ),
            );
        }
    }
    let mut inspections = Vec::new();
    let mut collabs = Vec::new();
    let mut approved = 0;
    for v in &input.to_inspect {
        let Some(p) = input.product(&v.product_id) else {
            continue;
        };
        let strict = if input.round <= 1 { (1, 3) } else { (1, 12) };
        let needs = cx.rng.chance(strict.0, strict.1);
        let heading = cx.some_heading(p);
        let dod_clause = clip(
            p.dod.split(['.', ';', ':']).next().unwrap_or("").trim(),
            160,
        );
        let mut findings = Vec::new();
        if needs {
            findings.push(Finding {
                category: FindingCategory::Completeness,
                severity: 6 + cx.rng.below(2) as i64,
                issue: format!(
                    "The {heading} section leaves out part of what the definition of done asks for."
                ),
                recommendation: format!(
                    "Add the missing items to {heading} and list any that depend on the person as open points."
                ),
                dod_criterion: (!dod_clause.is_empty()).then(|| dod_clause.clone()),
            });
            if let Some(n) = cx.neighbour_of(&p.id) {
                findings.push(Finding {
                    category: FindingCategory::Coherence,
                    severity: 4,
                    issue: format!("Names and timings differ slightly from {}.", n.name.trim()),
                    recommendation: format!("Align the terms with {}.", n.name.trim()),
                    dod_criterion: None,
                });
            }
            collabs.push(CollabOutput {
                refers_to_product: v.product_id.clone(),
                collab_type: CollabType::Concern,
                importance: 7,
                comment: format!(
                    "Version {} of {} is not complete against its definition of done: the {heading} section is missing items. Details in the inspection findings.",
                    v.version_id,
                    p.name.trim()
                ),
                shortest_summary: summary(format!("{heading} incomplete against the DoD")),
                refers_to_version: Some(v.version_id.clone()),
                references_product_ids: None,
                addressee_ids: author_of(v),
                responding_to_collab_ids: None,
            });
        } else {
            approved += 1;
            if cx.rng.chance(1, 2) {
                findings.push(Finding {
                    category: FindingCategory::Quality,
                    severity: 2,
                    issue: "A few bullets are longer than they need to be.".to_string(),
                    recommendation: "Shorten the longest bullets when the product is next revised."
                        .to_string(),
                    dod_criterion: None,
                });
            }
        }
        inspections.push(Inspection {
            product_id: v.product_id.clone(),
            version_id: v.version_id.clone(),
            assessment: if needs {
                InspectionAssessment::NeedsRevision
            } else {
                InspectionAssessment::Approved
            },
            findings,
        });
    }
    let remarks = if inspections.is_empty() {
        Vec::new()
    } else {
        vec![RemarkOutput {
            recipients: vec!["chair".to_string()],
            remark_type: RemarkType::Observation,
            content: format!(
                "{approved} of {} versions pass inspection this round.{}",
                inspections.len(),
                if approved < inspections.len() {
                    " The others need one more revision; see the findings."
                } else {
                    ""
                }
            ),
            is_blocker: None,
        }]
    };
    Draft::Final(FinalOutput::Inspection(InspectionOutput {
        inspections,
        collabs,
        remarks,
    }))
}
