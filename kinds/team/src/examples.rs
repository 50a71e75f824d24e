//! The example answers a team prompt shows, built from the answer types themselves and the ids of
//! the call's own envelope, then written by serde: valid JSON in exactly the wire shape, naming
//! only ids that exist, and a valid answer as it stands (a test validates every step's example
//! against the session). What an example cannot show — the other values of an enum, the limits —
//! the prompt says once in words beside it.

use roundtable_engine::order::Collect as _;
use std::collections::BTreeMap;

use crate::envelope::Envelope;
use crate::tree::ROOT_ID;
use crate::wire::{
    AcceptanceDecision, AssignmentOutput, BootstrapOutput, BootstrapThinking, CollabOutput,
    CollabType, Directive, DodStatus, FeedbackAction, FeedbackResponse, Finding, FindingCategory,
    InitialProduct, Inspection, InspectionAssessment, InspectionOutput, NewProduct, NewVersion,
    OperativeDomain, PeerReviewOutput, PlanAssignOutput, PlanThinking, PresentationMessage,
    PresentationOutput, ProductPatch, ProductType, ReflectOutput, Reflection, RemarkOutput,
    RemarkType, Review, ReviewAssessment, Step, TreeOperation, WireAnswer, WriteOutput,
    WrittenVersion,
};

use super::config::TeamRole;

fn answer<F: serde::Serialize>(output: F) -> String {
    serde_json::to_string(&WireAnswer::FinalOutput(output)).unwrap_or_default()
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The first product under the root this prompt lists, or the root: an example names only ids
/// the reader can see (a large tree lists only part of what exists).
pub fn some_product(env: &Envelope) -> &str {
    env.products
        .iter()
        .map(|p| p.id.as_str())
        .find(|p| *p != ROOT_ID)
        .unwrap_or(ROOT_ID)
}

/// The first listed product that has a version: what a `request_context` can serve. `None`
/// when nothing has a version yet (Bootstrap, a first round), where asking for context can only
/// answer "no version yet" and the prompt offers no such request.
pub fn product_with_version(env: &Envelope) -> Option<&str> {
    env.products
        .iter()
        .filter(|p| p.latest_version.is_some())
        .map(|p| p.id.as_str())
        .find(|p| *p != ROOT_ID)
        .or_else(|| {
            env.products
                .iter()
                .find(|p| p.latest_version.is_some())
                .map(|p| p.id.as_str())
        })
}

/// The first operative (or the chair of a team without one): who work goes to.
fn some_worker(env: &Envelope) -> &str {
    let by_role = |role: TeamRole| {
        env.members
            .iter()
            .find(|m| m.team_role == role.word())
            .map(|m| m.id.as_str())
    };
    by_role(TeamRole::Operative)
        .or_else(|| by_role(TeamRole::Chair))
        .unwrap_or("operative-1")
}

fn directive() -> Directive {
    Directive {
        objective: "What this round's version must achieve.".into(),
        dod: "How to tell it is done.".into(),
        why: "Why it matters for the mission.".into(),
        context: Some(
            "Your personal note: what is left, whether you are on track, what to watch.".into(),
        ),
    }
}

/// The example final output of the call's step, with a line on what it leaves out.
pub fn final_output<'a>(env: &'a Envelope) -> String {
    match env.step {
        Step::Bootstrap => {
            let personas: BTreeMap<String, String> = env
                .members
                .iter()
                .map(|m| {
                    (
                        m.id.clone(),
                        "Who they are on this team and how they work, in a sentence or two.".into(),
                    )
                })
                .to_map();
            let domains: BTreeMap<String, OperativeDomain> = env
                .members
                .iter()
                .filter(|m| m.team_role == TeamRole::Operative.word())
                .map(|m| {
                    (
                        m.id.clone(),
                        OperativeDomain {
                            responsibility: "What this operative answers for.".into(),
                            area: "Its field".into(),
                        },
                    )
                })
                .to_map();
            let output = BootstrapOutput {
                thinking: BootstrapThinking {
                    interpretation: "How you read the request.".into(),
                    scope_decisions: "What is in and out of scope, and why.".into(),
                },
                mission: "The one outcome the team delivers.".into(),
                objectives: "What the result must contain.".into(),
                constraints: "Limits of time, money, audience and form.".into(),
                personas,
                operative_domains: domains,
                initial_products: vec![InitialProduct {
                    name: "A distinct product name".into(),
                    product_type: ProductType::Content,
                    dod: "What must be true for it to be done.".into(),
                    owner: Some(some_worker(env).into()),
                }],
                missing_details: Some(vec!["A fact the request leaves open.".into()]),
            };
            answer(output)
        }
        Step::Reflect => {
            let product = env
                .wrote_last_round
                .first()
                .map_or_else(|| some_product(env).to_string(), |v| v.product_id.clone());
            let responses = env
                .collabs_received
                .first()
                .map(|c| FeedbackResponse {
                    collab_id: c.id.clone(),
                    action: FeedbackAction::Accept,
                    rationale: "Why you take it up, defer it or turn it down.".into(),
                    planned_change: Some("What the next version changes.".into()),
                })
                .into_iter()
                .collect();
            answer(ReflectOutput {
                reflections: vec![Reflection {
                    refers_to_product: product,
                    dod_status: DodStatus::PartiallyMet,
                    dod_gaps: Some(vec!["What the definition of done still misses.".into()]),
                    feedback_responses: responses,
                    next_version_delta: "What the next version will change.".into(),
                    blockers: None,
                }],
                collabs: Vec::new(),
                remarks: Vec::new(),
            })
        }
        Step::PlanAssign => {
            let acceptance: Vec<AcceptanceDecision> = env
                .awaiting_acceptance
                .first()
                .map(|v| AcceptanceDecision {
                    product_id: v.product_id.clone(),
                    accepted: true,
                    version_id: Some(v.version_id.clone()),
                    rejection_reason: None,
                })
                .into_iter()
                .collect();
            // The move the state calls for: the products still to do (pending first) get
            // assignments; only a tree with nothing left to do shows an ADD.
            let to_do = still_to_do(env);
            let operative = |id: Option<&'a str>| {
                id.filter(|o| {
                    env.members
                        .iter()
                        .any(|m| m.id == *o && m.team_role == TeamRole::Operative.word())
                })
            };
            let (tree_operations, assignments) = if to_do.is_empty() {
                (
                    vec![add()],
                    vec![AssignmentOutput {
                        product_id: "new-1".into(),
                        assignee: some_worker(env).into(),
                        directive: directive(),
                        attached_context: None,
                    }],
                )
            } else {
                let assignments = to_do
                    .iter()
                    .take(2)
                    .map(|p| AssignmentOutput {
                        product_id: p.id.clone(),
                        assignee: operative(p.assignee.as_deref())
                            .or_else(|| operative(p.owner.as_deref()))
                            .unwrap_or_else(|| some_worker(env))
                            .into(),
                        directive: directive(),
                        attached_context: None,
                    })
                    .collect();
                (Vec::new(), assignments)
            };
            answer(PlanAssignOutput {
                thinking: PlanThinking {
                    round_strategy: "What this round achieves and why in this order.".into(),
                    acceptance_rationale: "Why each decision on a version.".into(),
                },
                tree_operations,
                assignments,
                acceptance,
                chair_versions: None,
                remarks: Vec::new(),
                bootstrap_overrides: None,
            })
        }
        Step::Write => {
            let versions = env
                .assigned_to_you
                .iter()
                .map(|a| WrittenVersion {
                    product_id: a.product_id.clone(),
                    new_version: NewVersion {
                        content_title: a.product_name.clone(),
                        content: format!(
                            "# {}\n\nThe whole product in Markdown, every part its definition of done asks for.",
                            a.product_name
                        )
                        .into(),
                        change_summary: "What changed, and which points it answers.".into(),
                    },
                })
                .collect();
            answer(WriteOutput {
                versions,
                collabs: Vec::new(),
                remarks: Vec::new(),
            })
        }
        Step::PeerReview => answer(PeerReviewOutput {
            reviews: env
                .to_review
                .first()
                .map(|v| Review {
                    product_id: v.product_id.clone(),
                    version_id: v.version_id.clone(),
                    assessment: ReviewAssessment::NeedsRevision,
                    summary: "What works, and what to change.".into(),
                })
                .into_iter()
                .collect(),
            collabs: Vec::new(),
            remarks: Vec::new(),
        }),
        Step::Inspection => answer(InspectionOutput {
            inspections: env
                .to_review
                .first()
                .map(|v| Inspection {
                    product_id: v.product_id.clone(),
                    version_id: v.version_id.clone(),
                    assessment: InspectionAssessment::NeedsRevision,
                    findings: vec![Finding {
                        category: FindingCategory::Completeness,
                        severity: 6,
                        issue: "What is wrong or missing.".into(),
                        recommendation: "How to fix it.".into(),
                        dod_criterion: Some("The part of the definition of done it breaks.".into()),
                    }],
                })
                .into_iter()
                .collect(),
            collabs: Vec::new(),
            remarks: Vec::new(),
        }),
        Step::Presentation => answer(PresentationOutput {
            messages: vec![PresentationMessage {
                content: "## The result\n\nWhat the team delivers, in plain words.".into(),
                as_agent: env.member.id.clone(),
            }],
        }),
    }
}

/// An ADD of a placeholder product under the root.
fn add() -> TreeOperation {
    TreeOperation::Add {
        new_id: "new-1".into(),
        parent_id: ROOT_ID.into(),
        product: NewProduct {
            name: "A distinct product name".into(),
            product_type: ProductType::Content,
            dod: "What must be true for it to be done.".into(),
            description: None,
            assignee: None,
        },
        reason: Some("Why the tree needs it.".into()),
    }
}

/// PlanAssign: the listed products still to do (not accepted, not the one the example accepts),
/// pending first: the example assigns them rather than adding a placeholder.
fn still_to_do(env: &Envelope) -> Vec<&crate::tree::ProductView> {
    let accepted_now = env
        .awaiting_acceptance
        .first()
        .map(|v| v.product_id.as_str());
    let mut to_do: Vec<_> = env
        .products
        .iter()
        .filter(|p| p.id != ROOT_ID && p.status != "accepted" && p.status != "removed")
        .filter(|p| Some(p.id.as_str()) != accepted_now)
        .collect();
    roundtable_engine::order::sort_by_key(&mut to_do, |p| p.status != "pending");
    to_do
}

/// The other tree operations, each as its own shape, on products this prompt shows (with the
/// ADD first when the final output's example assigns existing products instead).
pub fn other_tree_operations(env: &Envelope) -> String {
    let product = some_product(env).to_string();
    let add = (!still_to_do(env).is_empty()).then(add);
    add.into_iter()
        .chain([
            TreeOperation::Update {
                product_id: product.clone(),
                product: ProductPatch {
                    dod: Some("A sharper definition of done.".into()),
                    ..ProductPatch::default()
                },
                reason: Some("Why.".into()),
            },
            TreeOperation::Move {
                product_id: product.clone(),
                parent_id: ROOT_ID.into(),
                reason: Some("Why.".into()),
            },
            TreeOperation::Remove {
                product_id: product,
                reason: "Why it is no longer needed.".into(),
            },
        ])
        .map(|op| json(&op))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A collab and a remark, the parts every step may add, on ids this prompt shows.
pub fn shared_parts(env: &Envelope) -> (String, String) {
    let collab = CollabOutput {
        refers_to_product: some_product(env).into(),
        collab_type: CollabType::Suggestion,
        importance: 5,
        comment: "What you suggest, and why.".into(),
        shortest_summary: "The point in a line".into(),
        refers_to_version: None,
        references_product_ids: None,
        addressee_ids: None,
        responding_to_collab_ids: None,
    };
    let remark = RemarkOutput {
        recipients: vec!["team".into()],
        remark_type: RemarkType::Note,
        content: "A note for the team.".into(),
        is_blocker: None,
    };
    (json(&collab), json(&remark))
}
