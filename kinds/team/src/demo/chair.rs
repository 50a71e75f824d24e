//! The chair's steps as the demo plays them: Bootstrap (one question, then the charter), PlanAssign
//! (assign, accept, add one product in round 2, halt `done` once everything is accepted) and
//! Presentation (also played by an envoy).
//!
//! The pacing is chosen so a first-time visitor sees every part of a session in about three rounds:
//! round 1 drafts everything; round 2 accepts what reviewers approved, sends the rest back and adds a
//! product the drafts showed was missing; round 3 accepts the latest versions (the remaining points
//! being minor); the next PlanAssign halts `done`.

use std::collections::BTreeMap;

use super::compose::{clip, dod_gap, quote, Ctx};
use super::input::{DemoProduct, DemoRole, Verdict};
use super::Draft;
use crate::wire::{
    AcceptanceDecision, AssignmentOutput, AttachedContext, AttachmentPart, BootstrapOutput,
    BootstrapThinking, Directive, FinalOutput, Halt, HaltType, InitialProduct, NewProduct,
    OperativeDomain, PlanAssignOutput, PlanThinking, PresentationMessage, PresentationOutput,
    ProductType, RemarkOutput, RemarkType, TreeOperation,
};

/// The round from which the chair accepts latest versions even with minor open points.
pub const ACCEPT_ALL_FROM_ROUND: u32 = 3;

/// The round at which the chair ends the rounds whatever the state, so a demo always finishes
/// (earlier when the session's round limit is lower).
pub const FORCE_DONE_ROUND: u32 = 7;

/// The person's id, as the design fixes it.
pub const PERSON: &str = "user-1";

/// Bootstrap: the one question first, the charter once the person answered.
pub(crate) fn bootstrap(cx: &mut Ctx) -> Draft {
    let input = cx.input;
    if input.person_answer.is_none() && !input.question_asked && input.repair.is_none() {
        // Each choice answers what the question asks, and only that: what the request already
        // said is not asked again (see `Ctx::question`).
        let options = cx.question_options();
        return Draft::Halt(Halt {
            halt_type: HaltType::Question,
            to: vec![PERSON.to_string()],
            message: format!(
                "{}\n\nPick one of the options or answer in your own words; the team plans around your answer.",
                cx.question()
            ),
            options: Some(options),
        });
    }
    let label = cx.topic.label;
    let subject = cx.subject.clone();
    let work = cx.work();
    let answer = input
        .person_answer
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_string);

    let operatives = input.operatives();
    let count = (operatives.len() + 1).clamp(3, cx.topic.products.len());
    let initial: Vec<InitialProduct> = cx.topic.products[..count]
        .iter()
        .enumerate()
        .map(|(i, t)| InitialProduct {
            name: t.name.to_string(),
            product_type: if t.decision {
                ProductType::Decision
            } else {
                ProductType::Content
            },
            dod: cx.fill(t.dod),
            owner: if operatives.is_empty() {
                None
            } else {
                Some(operatives[i % operatives.len()].to_string())
            },
        })
        .collect();

    let mut personas = BTreeMap::new();
    let mut domains = BTreeMap::new();
    let mut op_index = 0;
    for m in &input.members {
        let persona = match m.role {
            DemoRole::Chair => format!(
                "You chair the {work}. You keep the team on the mission, decide quickly, and always say why a version is accepted or sent back."
            ),
            DemoRole::Operative => {
                let (area, resp) = cx.topic.domains[op_index % cx.topic.domains.len()];
                op_index += 1;
                domains.insert(
                    m.id.clone(),
                    OperativeDomain {
                        responsibility: cx.fill(resp),
                        area: area.to_string(),
                    },
                );
                format!(
                    "You own {}: {} You write concrete, checkable text about {subject}, mark assumptions, and ask early when something is unclear.",
                    area.to_lowercase(),
                    lower_first(&cx.fill(resp))
                )
            }
            DemoRole::Inspector => "You check every version against its definition of done, most serious gap first, and never repeat a point a reviewer already made.".to_string(),
            DemoRole::Envoy => format!(
                "You present the team's accepted work on {subject} to the person in plain words, without adding anything new."
            ),
        };
        personas.insert(m.id.clone(), persona);
    }

    let names: Vec<&str> = initial.iter().map(|p| p.name.as_str()).collect();
    let mut mission = format!(
        "Produce {} {work} that the person can use as it is, each part checked against its definition of done.",
        article(&work)
    );
    if let Some(a) = &answer {
        mission.push_str(&format!(
            " Planned around the person's answer: {}.",
            quote(a)
        ));
    }
    let mut interpretation = format!(
        "The person asks for {} {label}: {}. The subject is {subject}.",
        article(label),
        quote(&clip(input.request.trim(), 200))
    );
    if let Some(a) = &answer {
        interpretation.push_str(&format!(
            " Asked about the frame, they answered {}.",
            quote(a)
        ));
    }
    // What the person settled is no longer missing; what they said is part of the constraints.
    let missing: Vec<String> = cx.open_points();
    let mut constraints = cx.fill(cx.topic.constraints);
    let figures = cx.figures();
    if !figures.is_empty() {
        constraints.push_str(&format!(" From the request: {}.", figures.join(", ")));
    }
    let settled = cx.settled();
    if !settled.is_empty() {
        constraints.push_str(&format!(
            " Settled with the person: {}.",
            settled.join("; ")
        ));
    }
    Draft::Final(FinalOutput::Bootstrap(BootstrapOutput {
        thinking: BootstrapThinking {
            interpretation,
            scope_decisions: format!(
                "In scope: {}. Out of scope: carrying the plan out, paid tools, and anything the person did not ask for. Missing facts are kept as open points instead of guessed.",
                names.join(", ")
            ),
        },
        mission,
        objectives: cx.fill(cx.topic.objectives),
        constraints: clip(&constraints, crate::wire::limits::OBJECTIVES_MAX),
        personas,
        operative_domains: domains,
        initial_products: initial,
        missing_details: (!missing.is_empty()).then_some(missing),
    }))
}

/// Who writes a product: its owner when that is an operative, else an operative by position, else
/// the chair itself (a team without operatives).
fn assignee_for(cx: &Ctx, product: &DemoProduct, index: usize) -> String {
    let ops = cx.input.operatives();
    match &product.owner {
        Some(o) if ops.contains(&o.as_str()) => o.clone(),
        _ if !ops.is_empty() => ops[index % ops.len()].to_string(),
        _ => cx.input.member_id.clone(),
    }
}

/// PlanAssign: accept, send back, assign, add the round-2 product, or halt `done`.
pub(crate) fn plan_assign(cx: &mut Ctx) -> Draft {
    let input = cx.input;
    let round = input.round.max(1);
    let label = cx.topic.label;
    let writable: Vec<&DemoProduct> = input.products.iter().filter(|p| p.is_writable()).collect();
    let all_settled = !writable.is_empty() && writable.iter().all(|p| p.is_settled());
    // The session's round limit, when known, pulls the pacing in so the chair still ends with
    // `done` (and a presentation) instead of running into the limit.
    let last = match input.max_rounds {
        0 => FORCE_DONE_ROUND,
        max => max.min(FORCE_DONE_ROUND),
    };
    let accept_all_from = ACCEPT_ALL_FROM_ROUND.min(last.saturating_sub(1).max(1));
    if all_settled || round >= last || (writable.is_empty() && round >= 2) {
        let names: Vec<String> = writable.iter().map(|p| p.name.trim().to_string()).collect();
        let message = if all_settled {
            format!(
                "The {} is complete: {} accepted ({}). Handing over to the presentation.",
                cx.work(),
                plural(names.len(), "product", "products"),
                clip(&names.join(", "), 600)
            )
        } else {
            format!(
                "We stop here after {round} rounds: the {} is as far as this team can take it. The presentation lists what is accepted and what is still open.",
                cx.work()
            )
        };
        return Draft::Halt(Halt {
            halt_type: HaltType::Done,
            to: vec![PERSON.to_string()],
            message,
            options: None,
        });
    }

    let mut acceptance = Vec::new();
    let mut assignments = Vec::new();
    let mut accepted_names = Vec::new();
    let mut rejected_names = Vec::new();
    for (i, p) in writable.iter().enumerate() {
        if p.is_settled() {
            continue;
        }
        let assignee = assignee_for(cx, p, i);
        let Some(latest) = p.latest() else {
            assignments.push(draft_assignment(cx, p, assignee));
            continue;
        };
        let blocked = p.verdicts.contains(&Verdict::Blocked);
        let approved = p.verdicts.iter().all(|v| *v == Verdict::Approved);
        // Never accepted while its definition of done is not met, whatever the reviewers said.
        let gap = p
            .latest_content
            .as_deref()
            .and_then(|content| dod_gap(&p.dod, content));
        if gap.is_none() && (approved || (round >= accept_all_from && !blocked)) {
            acceptance.push(AcceptanceDecision {
                product_id: p.id.clone(),
                accepted: true,
                version_id: Some(latest.to_string()),
                rejection_reason: None,
            });
            accepted_names.push(p.name.trim().to_string());
        } else {
            let mut notes = feedback_notes(cx, &p.id);
            let reason = match (&gap, notes.is_empty()) {
                (Some(g), true) => g.clone(),
                (Some(g), false) => format!("{g} Reviewers also asked: {}", sentence(&notes)),
                (None, true) => {
                    "Reviewers asked for changes before it meets its definition of done."
                        .to_string()
                }
                (None, false) => format!("Reviewers asked for changes: {}", sentence(&notes)),
            };
            if let Some(g) = &gap {
                notes.insert(0, g.trim_end_matches('.').to_string());
            }
            acceptance.push(AcceptanceDecision {
                product_id: p.id.clone(),
                accepted: false,
                version_id: None,
                rejection_reason: Some(clip(&reason, 900)),
            });
            rejected_names.push(format!(
                "{} ({})",
                p.name.trim(),
                match &gap {
                    Some(_) => "short of its definition of done",
                    None => "reviewers asked for changes",
                }
            ));
            assignments.push(revision_assignment(cx, p, assignee, &notes));
        }
    }

    let mut tree_operations = Vec::new();
    let extra = &cx.topic.extra;
    let has_extra = input
        .products
        .iter()
        .any(|p| p.name.trim().eq_ignore_ascii_case(extra.name));
    let parent = input
        .products
        .iter()
        .find(|p| p.parent_id.is_none() && !p.is_writable())
        .map(|p| p.id.clone())
        .or_else(|| writable.first().and_then(|p| p.parent_id.clone()))
        .or_else(|| input.products.first().map(|p| p.id.clone()));
    let time_for_more = round + 1 < last;
    if let (true, true, false, Some(parent)) = (round >= 2, time_for_more, has_extra, parent) {
        let ops = input.operatives();
        let assignee = ops
            .iter()
            .min_by_key(|o| {
                input
                    .products
                    .iter()
                    .filter(|p| p.owner.as_deref() == Some(**o))
                    .count()
            })
            .map(|o| o.to_string())
            .unwrap_or_else(|| input.member_id.clone());
        let dod = cx.fill(extra.dod);
        tree_operations.push(TreeOperation::Add {
            new_id: "new-1".to_string(),
            parent_id: parent,
            product: NewProduct {
                name: extra.name.to_string(),
                product_type: if extra.decision {
                    ProductType::Decision
                } else {
                    ProductType::Content
                },
                dod: dod.clone(),
                description: Some(format!(
                    "Added in round {round}: the drafts showed the {label} needs it."
                )),
                assignee: Some(assignee.clone()),
            },
            reason: Some(format!(
                "The first drafts leave open what happens around them; {} closes that gap.",
                extra.name.to_lowercase()
            )),
        });
        let attached = writable.first().map(|p| {
            vec![AttachedContext {
                product_id: p.id.clone(),
                include: vec![AttachmentPart::Content],
                reason: format!("Stay consistent with {}.", p.name.trim()),
            }]
        });
        assignments.push(AssignmentOutput {
            product_id: "new-1".to_string(),
            assignee,
            directive: Directive {
                objective: format!(
                    "Write the first draft of {} for {}.",
                    extra.name, cx.subject
                ),
                dod,
                why: format!(
                    "Without it the {label} stops at the plan and leaves the person guessing."
                ),
                context: Some(
                    "Keep it short and reuse names and dates from the accepted products."
                        .to_string(),
                ),
            },
            attached_context: attached,
        });
    }

    let round_strategy = match round {
        1 => format!(
            "Round 1: every operative drafts the products of its domain, so the team sees a first complete {} early and reviews can start.",
            cx.work()
        ),
        2 => format!(
            "Round 2: accept what reviewers approved, send back what they flagged, and add {} which the drafts showed is missing.",
            extra.name.to_lowercase()
        ),
        _ => format!("Round {round}: close the remaining gaps and accept final versions so the {label} can be handed over."),
    };
    let mut rationale = Vec::new();
    if !accepted_names.is_empty() {
        if round >= accept_all_from {
            rationale.push(format!(
                "Accepting {}: the remaining review points are minor.",
                accepted_names.join(", ")
            ));
        } else {
            rationale.push(format!(
                "Accepting {}: {}.",
                accepted_names.join(", "),
                if accepted_names.len() == 1 {
                    "reviewers approved it and it meets its definition of done"
                } else {
                    "reviewers approved them and they meet their definitions of done"
                }
            ));
        }
    }
    if !rejected_names.is_empty() {
        rationale.push(format!("Not yet: {}.", rejected_names.join(", ")));
    }
    if rationale.is_empty() {
        rationale.push("Nothing to accept yet: no versions exist.".to_string());
    }
    let remark = match round {
        1 => "Drafts first, polish later. Keep each product to its definition of done and list missing facts as open points instead of guessing.".to_string(),
        2 => "Good first round. Reviewers: say what to change, not only what is wrong. Writers: answer every review point in your change summary.".to_string(),
        _ => "Last stretch: only changes that help the person use the result. No new sections.".to_string(),
    };
    Draft::Final(FinalOutput::PlanAssign(PlanAssignOutput {
        thinking: PlanThinking {
            round_strategy,
            acceptance_rationale: rationale.join(" "),
        },
        tree_operations,
        assignments,
        acceptance,
        chair_versions: None,
        remarks: vec![RemarkOutput {
            recipients: vec!["team".to_string()],
            remark_type: RemarkType::Note,
            content: remark,
            is_blocker: None,
        }],
        bootstrap_overrides: None,
    }))
}

/// What reviewers said about a product (their notes, else the collabs the chair sees on it), for a
/// rejection and a directive.
fn feedback_notes(cx: &Ctx, product_id: &str) -> Vec<String> {
    let notes = cx
        .input
        .product(product_id)
        .map(|p| p.notes.clone())
        .unwrap_or_default();
    let collabs = cx
        .input
        .collabs
        .iter()
        .filter(|c| c.product_id == product_id)
        .map(|c| c.summary.clone());
    let mut out: Vec<String> = Vec::new();
    for n in notes.into_iter().chain(collabs) {
        let n = n.trim().trim_end_matches('.');
        let n = n.strip_prefix(super::work::NEEDS_PASS).unwrap_or(n);
        let lower = n.to_lowercase();
        let said = out.iter().any(|o| o.to_lowercase().contains(&lower));
        if !n.is_empty() && !said && out.len() < 3 {
            out.push(n.to_string());
        }
    }
    out.into_iter().map(|n| clip(&n, 160)).collect()
}

fn draft_assignment(cx: &mut Ctx, p: &DemoProduct, assignee: String) -> AssignmentOutput {
    let why = match cx.neighbour_of(&p.id) {
        Some(n) if cx.rng.chance(1, 2) => format!(
            "The rest of the {} leans on it; {} refers to it.",
            cx.topic.label,
            n.name.trim()
        ),
        _ => format!("It is one of the core parts of the {}.", cx.topic.label),
    };
    AssignmentOutput {
        product_id: p.id.clone(),
        assignee,
        directive: Directive {
            objective: format!(
                "Write the first complete draft of {} for the {}.",
                p.name.trim(),
                cx.work()
            ),
            dod: dod_of(cx, p),
            why,
            context: Some(
                "Be concrete: names, numbers and dates where you can; mark assumptions clearly."
                    .to_string(),
            ),
        },
        attached_context: None,
    }
}

fn revision_assignment(
    cx: &mut Ctx,
    p: &DemoProduct,
    assignee: String,
    notes: &[String],
) -> AssignmentOutput {
    AssignmentOutput {
        product_id: p.id.clone(),
        assignee,
        directive: Directive {
            objective: format!(
                "Revise {}: take in the review points and close the gaps against its definition of done.",
                p.name.trim()
            ),
            dod: dod_of(cx, p),
            why: format!(
                "Reviewers flagged it as not ready; the {} is complete only once it is accepted.",
                cx.topic.label
            ),
            context: if notes.is_empty() {
                None
            } else {
                Some(format!("Points to address: {}", sentence(notes)))
            },
        },
        attached_context: None,
    }
}

fn dod_of(cx: &Ctx, p: &DemoProduct) -> String {
    if !p.dod.trim().is_empty() {
        return clip(p.dod.trim(), 900);
    }
    cx.template_for(p)
        .map(|t| cx.fill(t.dod))
        .unwrap_or_else(|| "Complete, concrete and consistent with the other products.".to_string())
}

/// Notes joined into one sentence, ending with a full stop unless the last one asks something.
fn sentence(notes: &[String]) -> String {
    let joined = notes.join("; ");
    if joined.ends_with(['?', '!', '.']) {
        joined
    } else {
        format!("{joined}.")
    }
}

/// Rounds in which work was done: the round of the `done` halt (the one Presentation reports) only
/// planned.
fn worked_rounds(round: u32) -> u32 {
    round.saturating_sub(1).max(1)
}

/// `The agenda` → `the agenda`, to continue a sentence.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Presentation: two to four messages about the accepted work, from the presenter.
pub(crate) fn presentation(cx: &mut Ctx) -> Draft {
    let input = cx.input;
    let me = input.member_id.clone();
    let done: Vec<&DemoProduct> = input
        .products
        .iter()
        .filter(|p| p.is_writable() && p.accepted_version.is_some())
        .collect();
    let open: Vec<&DemoProduct> = input
        .products
        .iter()
        .filter(|p| p.is_writable() && p.accepted_version.is_none())
        .collect();
    let mut messages = Vec::new();

    let mut intro = format!("## Your {} is ready\n\n", cx.work());
    if done.is_empty() {
        intro.push_str("The team worked through the plan, but no product was accepted yet.\n");
    } else {
        intro.push_str(&format!(
            "After {} the team accepted {}:\n\n",
            plural(worked_rounds(input.round) as usize, "round", "rounds"),
            plural(done.len(), "product", "products")
        ));
        for p in &done {
            intro.push_str(&format!(
                "- **{}** ({})\n",
                p.name.trim(),
                p.accepted_version.as_deref().unwrap_or("")
            ));
        }
    }
    messages.push(PresentationMessage {
        content: intro,
        as_agent: me.clone(),
    });

    let mut highlights = "### Highlights\n\n".to_string();
    for p in done.iter().take(5) {
        let first = cx
            .sections_for(p)
            .into_iter()
            .next()
            .and_then(|(_, b)| b.into_iter().next())
            .unwrap_or_default();
        highlights.push_str(&format!("- **{}**: {}\n", p.name.trim(), first));
    }
    if !done.is_empty() {
        messages.push(PresentationMessage {
            content: highlights,
            as_agent: me.clone(),
        });
    }

    let mut still_open = "### Still open\n\n".to_string();
    for p in &open {
        still_open.push_str(&format!("- {} is not accepted yet.\n", p.name.trim()));
    }
    for m in cx.open_points().iter().take(2) {
        still_open.push_str(&format!("- {m} – tell us and we update the plan.\n"));
    }
    messages.push(PresentationMessage {
        content: still_open,
        as_agent: me.clone(),
    });

    if cx.rng.chance(1, 2) {
        let versions: usize = input.products.iter().map(|p| p.versions.len()).sum();
        messages.push(PresentationMessage {
            content: format!(
                "### How the team worked\n\n{} written, each reviewed by peers and checked against its definition of done before the chair accepted it.",
                plural(versions, "version", "versions")
            ),
            as_agent: me,
        });
    }
    Draft::Final(FinalOutput::Presentation(PresentationOutput { messages }))
}

/// "a" or "an", by the first letter of the phrase that follows.
fn article(phrase: &str) -> &'static str {
    match phrase
        .trim_start()
        .chars()
        .next()
        .map(|c| c.to_ascii_lowercase())
    {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}
