//! Reads an engine call and its state envelope into the demo's own [`DemoInput`]: the one place
//! that follows the envelope's shape (`context::Envelope`), so the generator stays testable on
//! plain inputs.

use super::input::{DemoCollab, DemoInput, DemoMember, DemoProduct, DemoRole, Verdict, VersionRef};
use super::{DemoAnswer, DemoModel};
use crate::check::RepairPrompt as _;
use crate::prompt::{AssessmentView, Envelope};
use crate::wire::{CollabType, Step};
use crate::TeamState;
use roundtable_engine::engine::{CallKind, DueCall, Protocol, StoredCall};

impl DemoModel {
    /// The answer to an engine call: what the runner submits under `call.id`. Usage reports the
    /// engine's own prompt estimate, so budgets add up the same way as for a real provider.
    pub fn answer_call(&self, call: &DueCall) -> DemoAnswer {
        self.answer_to(&call.call, call.envelope.get())
    }

    /// [`DemoModel::answer_call`] for a call and its envelope held apart.
    pub fn answer_to(&self, call: &StoredCall, env: &Envelope) -> DemoAnswer {
        let input = input_from(call, env);
        let mut answer = self.answer(&input);
        answer.usage.prompt_tokens = call.token_estimate;
        answer
    }
}

/// What the demo reads from an engine call due now.
pub fn input_from_call(call: &DueCall) -> DemoInput {
    input_from(&call.call, call.envelope.get())
}

/// What the demo reads from a call and the envelope it was built from.
fn input_from(call: &StoredCall, env: &Envelope) -> DemoInput {
    let step = TeamState::step_of(call.step);
    let person_answer = env
        .person_answers
        .iter()
        .next_back()
        .map(|a| a.answer.clone());
    let question_asked = !env.person_answers.is_empty();
    let refs = |list: &[crate::prompt::VersionRef]| {
        list.iter()
            .map(|r| VersionRef {
                product_id: r.product_id.clone(),
                version_id: r.version_id.clone(),
                author: Some(r.author.clone()).filter(|a| !a.is_empty()),
            })
            .collect::<Vec<_>>()
    };
    let repair = match (&env.call.pending_repair, call.kind) {
        (Some(report), _) => Some(report.repair_prompt()),
        (None, CallKind::Repair) => Some(
            call.messages
                .last()
                .map(|m| m.content.to_string())
                .unwrap_or_default(),
        ),
        _ => None,
    };
    DemoInput {
        step,
        member_id: call.member.clone(),
        request: env.request.clone(),
        person_answer,
        question_asked,
        round: call.round,
        max_rounds: env.max_rounds,
        members: env
            .members
            .iter()
            .map(|m| DemoMember {
                id: m.id.clone(),
                name: m.name.clone(),
                role: role_of(&m.team_role, &m.id),
            })
            .collect(),
        products: products(env),
        assigned: env
            .assigned_to_you
            .iter()
            .map(|a| a.product_id.clone())
            .collect(),
        written_last_round: env
            .wrote_last_round
            .iter()
            .map(|r| r.version.product_id.clone())
            .collect(),
        to_review: if step == Step::PeerReview {
            refs(&env.to_review)
        } else {
            Vec::new()
        },
        to_inspect: if step == Step::Inspection {
            refs(&env.to_review)
        } else {
            Vec::new()
        },
        collabs: env
            .collabs_received
            .iter()
            .map(|c| DemoCollab {
                id: c.id.clone(),
                product_id: c.product_id.clone(),
                author: c.author.clone(),
                collab_type: collab_type(&c.collab_type),
                summary: if c.summary.trim().is_empty() {
                    c.comment.clone()
                } else {
                    c.summary.clone()
                },
            })
            .collect(),
        context_requests_left: if env.call.final_output_required {
            0
        } else {
            env.call.context_requests_left
        },
        context_received: call.kind == CallKind::AfterContext
            || !env.served_context.is_empty()
            || env.call.context_requests_made > 0,
        repair,
        prompt_chars: call
            .messages
            .iter()
            .map(|m| m.content.chars().count())
            .sum(),
    }
}

fn role_of(team_role: &str, id: &str) -> DemoRole {
    match team_role {
        "chair" => DemoRole::Chair,
        "inspector" => DemoRole::Inspector,
        "envoy" => DemoRole::Envoy,
        "operative" => DemoRole::Operative,
        _ if id == "chair" => DemoRole::Chair,
        _ if id.starts_with("inspector") => DemoRole::Inspector,
        _ if id.starts_with("envoy") => DemoRole::Envoy,
        _ => DemoRole::Operative,
    }
}

fn collab_type(word: &str) -> CollabType {
    match word {
        "question" => CollabType::Question,
        "suggestion" => CollabType::Suggestion,
        "endorsement" => CollabType::Endorsement,
        "concern" => CollabType::Concern,
        _ => CollabType::Feedback,
    }
}

/// The tree as the demo needs it, with each latest version's verdicts and change requests taken from
/// the last round's assessments.
fn products(env: &Envelope) -> Vec<DemoProduct> {
    env.products
        .iter()
        .map(|p| {
            let latest = p
                .latest_version
                .clone()
                .or_else(|| p.version_ids.last().cloned());
            let on_latest: Vec<&AssessmentView> = env
                .assessments
                .iter()
                .filter(|a| a.product_id == p.id && Some(&a.version_id) == latest.as_ref())
                .collect();
            let verdicts = on_latest
                .iter()
                .map(|a| match a.assessment.as_str() {
                    "approved" => Verdict::Approved,
                    "blocked" => Verdict::Blocked,
                    _ => Verdict::NeedsRevision,
                })
                .collect();
            let notes = on_latest
                .iter()
                .filter(|a| a.assessment != "approved")
                .map(|a| a.summary.clone())
                .collect();
            let latest_author = p.current.as_ref().map(|v| v.author.clone()).or_else(|| {
                env.to_review
                    .iter()
                    .chain(&env.awaiting_acceptance)
                    .chain(env.wrote_last_round.iter().map(|w| &w.version))
                    .find(|r| Some(&r.version_id) == latest.as_ref())
                    .map(|r| r.author.clone())
            });
            let mut versions = p.version_ids.clone();
            if let Some(l) = &latest {
                if !versions.contains(l) {
                    versions.push(l.clone());
                }
            }
            DemoProduct {
                id: p.id.clone(),
                name: p.name.clone(),
                product_type: p.product_type,
                parent_id: p.parent_id.clone(),
                owner: p.owner.clone().or_else(|| p.assignee.clone()),
                dod: p.dod.clone(),
                versions,
                accepted_version: p.accepted_version.clone(),
                latest_author,
                verdicts,
                notes,
                latest_content: p
                    .current
                    .as_ref()
                    .filter(|v| Some(&v.id) == latest.as_ref())
                    .map(|v| v.content.to_string()),
            }
        })
        .collect()
}
