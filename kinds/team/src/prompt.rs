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

pub use crate::envelope::*;

use roundtable_engine::order::Collect as _;
use serde::{Deserialize, Serialize};

use crate::wire::{AttachmentPart, Directive, Step};

// ---------------------------------------------------------------------------------------------
// Building the envelope.
// ---------------------------------------------------------------------------------------------

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::tree::{render_views, Folded, Product, ProductStatus, ProductView, Tier, VersionView};
use crate::wire::limits;
use crate::Member;
use crate::TeamState;
use roundtable_engine::text::{cut, one_line, wire_word};

/// How many activity lines (each a group of one member's lines of one kind), collabs, remarks
/// and answers to collabs a prompt carries at most; the rest is counted, never dropped silently.
const RECENT_MAX: usize = 20;

/// A tree of at most this many live products is listed whole: small trees fit any prompt, and
/// seeing every product avoids overlap.
pub const LIST_ALL_MAX: usize = 30;

/// How many items one grouped activity line names (`wrote v1 of p1, …`) before "and N more".
const GROUP_MAX: usize = 10;

/// How many of the versions it wrote last round Reflect shows with their directive and diff.
pub const WORKED_DETAIL_MAX: usize = 5;

/// How many more of them Reflect names by id.
pub const WORKED_LIST_MAX: usize = 60;

/// How many changed lines a last-version diff shows (Write's assignments, Reflect).
pub const DIFF_LINES_MAX: usize = 8;

/// How many reviews and inspections a prompt lists; past it, approvals are counted first.
pub const ASSESSMENTS_MAX: usize = 40;

/// How many reflections the chair's plan lists; past it, those that met their definition of done
/// are counted first.
pub const REFLECTIONS_MAX: usize = 40;

/// How many of its assignments a Write call lists and must write: what one answer can hold
/// well. More assignments (a plan may give one operative thousands) are counted by id and wait.
pub const ASSIGNED_LISTED_MAX: usize = 12;

/// How many of Bootstrap's missing details the chair sees; the rest are counted.
pub const MISSING_MAX: usize = 12;

/// How long a member's persona is in the chair's list of the team (one line).
pub const PERSONA_BRIEF_MAX: usize = 160;

/// How many of its own products (owned or assignee, beyond those it works on at this step) a
/// member sees listed at minimal tier in a larger tree: the most recently written ones. The others
/// are named by id in the folded lines ("yours: p12, p40"), so none is hidden.
pub const OWN_LISTED_MAX: usize = 12;

/// How many of the products that need a decision the chair sees at extra tier (with the latest
/// content): the newest versions awaiting acceptance.
pub const CHAIR_EXTRA_MAX: usize = 3;

/// How many products that need a decision (blocked, rejected, awaiting acceptance, not started or
/// unassigned) the chair sees listed in a larger tree; every version awaiting acceptance is still named in
/// its own section.
pub const DECISIONS_LISTED_MAX: usize = 40;

/// How many accepted products the presenter sees at extra tier (the newest), and how many are
/// listed in all in a larger tree.
pub const PRESENT_EXTRA_MAX: usize = 8;
/// See [`PRESENT_EXTRA_MAX`].
pub const PRESENT_LISTED_MAX: usize = 40;

/// A listed product's other children are listed one line each when there are at most this many;
/// more are counted in its folded line.
pub const NEIGHBOURS_MAX: usize = 12;

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
    roundtable_engine::order::sort_by_key(&mut ranked, |r| std::cmp::Reverse(r.0));
    ranked.into_iter().take(max).map(|(_, id)| id).collect()
}

/// Builds the envelope of `member` at `step` from the session state.
pub fn build_envelope(s: &TeamState, member_id: &str, step: Step) -> Envelope {
    let round = s.core.round;
    let me = s.member(member_id);
    let is_chair = member_id == "chair";
    let slot = s.core.slots.iter().find(|x| x.member == member_id);

    // Who needs what at this step.
    let (my_assignments, assignments_more) = if step == Step::Write {
        let all = crate::write_assignments(s, member_id);
        let more: Vec<String> = all
            .iter()
            .skip(ASSIGNED_LISTED_MAX)
            .map(|a| a.product_id.clone())
            .collect();
        (all.into_iter().take(ASSIGNED_LISTED_MAX).collect(), more)
    } else {
        (Vec::new(), Vec::new())
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

    let mut products = tree_listing(
        s,
        member_id,
        step,
        &live,
        &focus(
            s,
            member_id,
            step,
            &live,
            &Work {
                assigned: my_assignments
                    .iter()
                    .map(|a| a.product_id.as_str())
                    .collect(),
                to_review: &to_review,
                wrote_last_round: &wrote_last_round,
                awaiting_acceptance: &awaiting_acceptance,
            },
        ),
    );

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
        .to_set();
    let recent_round = round.saturating_sub(1);
    // The products a reviewer or the inspector looks at: what was already said about them is
    // what they must not repeat.
    let looked_at: BTreeSet<&str> = to_review.iter().map(|v| v.product_id.as_str()).to_set();
    let (assessments, assessments_left) = keep_first(
        s.assessments
            .iter()
            .filter(|a| a.round >= recent_round)
            .filter(|a| match step {
                Step::PlanAssign | Step::Presentation => true,
                Step::Reflect => mine.contains(a.product_id.as_str()),
                // A writer can act only on what it is assigned: the reviews of its other
                // products are for its Reflect and the chair.
                Step::Write => my_assignments.iter().any(|m| m.product_id == a.product_id),
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
        .to_set();
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
            // The chair plans from all of them; a writer works from its own, on what it is
            // assigned.
            .filter(|_| matches!(step, Step::PlanAssign | Step::Write))
            .filter(|(r, v)| *r == round && (is_chair || v.by == member_id))
            .filter(|(_, v)| {
                step != Step::Write || my_assignments.iter().any(|m| m.product_id == v.product_id)
            })
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
    let last_chair_note_at = if is_chair {
        None
    } else {
        s.remarks
            .iter()
            .rev()
            .find(|r| r.from == "chair" && addressed(r))
            .map(|r| (r.round, r.content.clone()))
    };
    let last_chair_note_round = last_chair_note_at.as_ref().map(|(r, _)| *r);
    let last_chair_note = last_chair_note_at.map(|(_, n)| n);
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
                question: h.halt.message().to_string(),
                options: h.halt.options().to_vec(),
                answer: h.answer.as_ref()?.words(),
            })
        })
        .collect();

    // Each fact once: the History of a product leaves out the collabs listed in full below and,
    // for a product this member wrote last round, the directive shown in full with it.
    let listed: BTreeSet<&str> = collabs_received.iter().map(|c| c.id.as_str()).to_set();
    let directive_shown: BTreeSet<&str> = wrote_last_round
        .iter()
        .filter(|w| w.detail.as_ref().is_some_and(|d| d.directive.is_some()))
        .map(|w| w.version.version_id.as_str())
        .to_set();
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

    // What is still open reaches whoever must say so: the chair as it plans, the writers (who
    // say what is uncertain) and the envoy (who tells the person what is still open).
    let chair_plans = is_chair && matches!(step, Step::Bootstrap | Step::PlanAssign);
    let sees_open = chair_plans || matches!(step, Step::Write | Step::Presentation);
    let (missing_details, missing_more) = if sees_open {
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
        last_chair_note_round,
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
            assignments: assignments_more,
        },
        call: CallState {
            context_requests_made: made,
            context_requests_left: max_ctx.saturating_sub(made),
            final_output_required: made >= max_ctx,
            repairs_made: slot.map_or(0, |x| x.repairs),
            repairs_allowed: s.core.settings.max_repairs,
            pending_repair: slot
                .and_then(|x| x.pending_report.as_ref())
                .map(|f| crate::report_of(step, f)),
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

/// What a member works on at this step, which its listing shows at a higher tier.
struct Work<'a> {
    assigned: Vec<&'a str>,
    to_review: &'a [VersionRef],
    wrote_last_round: &'a [WorkedOnView],
    awaiting_acceptance: &'a [VersionRef],
}

/// The products this member needs at this step and the tier of each, most needed first (when a
/// cap cuts the list, the end goes): what it works on, then its own products (an operative) or
/// what needs the chair's decision (PlanAssign) or what was accepted (Presentation).
fn focus<'a>(
    s: &'a TeamState,
    member_id: &str,
    step: Step,
    live: &[(usize, &'a Product)],
    work: &Work<'a>,
) -> Vec<(&'a str, Tier)> {
    // The state's own copy of an id, so the list borrows from the state alone (an id no product
    // has is left out).
    let id_in = |id: &str| -> Option<&'a str> { s.tree.product(id).map(|p| p.id.as_str()) };
    let mut out: Vec<(&'a str, Tier)> = Vec::new();
    // Reflect: the products shown in detail (at most WORKED_DETAIL_MAX) at full tier; the rest
    // are named by id in the prompt's list, not listed again in the tree.
    out.extend(
        work.wrote_last_round
            .iter()
            .filter(|w| w.detail.is_some())
            .filter_map(|v| Some((id_in(&v.product_id)?, Tier::Full))),
    );
    out.extend(
        work.assigned
            .iter()
            .filter_map(|id| Some((id_in(id)?, Tier::Extra))),
    );
    out.extend(
        work.to_review
            .iter()
            .filter_map(|v| Some((id_in(&v.product_id)?, Tier::Extra))),
    );
    let products = || live.iter().map(|(_, p)| *p);
    match step {
        Step::Bootstrap => {}
        Step::PlanAssign => {
            let awaiting: Vec<&'a Product> = work
                .awaiting_acceptance
                .iter()
                .filter_map(|v| s.tree.product(&v.product_id))
                .collect();
            let newest = most_recent(awaiting.iter().copied(), CHAIR_EXTRA_MAX);
            let blocked: BTreeSet<&str> = s
                .assessments
                .iter()
                .filter(|a| a.assessment == "blocked")
                .filter(|a| {
                    s.tree
                        .product(&a.product_id)
                        .and_then(|p| p.latest_version())
                        == Some(a.version_id.as_str())
                })
                .map(|a| a.product_id.as_str())
                .chain(
                    s.reflections
                        .iter()
                        .filter(|(r, v)| *r == s.core.round && !v.blockers.is_empty())
                        .map(|(_, v)| v.product_id.as_str()),
                )
                .to_set();
            let has_children: BTreeSet<&str> =
                products().filter_map(|p| p.parent.as_deref()).to_set();
            out.extend(
                products()
                    .filter(|p| blocked.contains(p.id.as_str()))
                    .map(|p| (p.id.as_str(), Tier::Minimal)),
            );
            out.extend(
                products()
                    .filter(|p| p.rejection_reason.is_some())
                    .map(|p| (p.id.as_str(), Tier::Minimal)),
            );
            out.extend(newest.iter().map(|id| (*id, Tier::Extra)));
            let mut rest = most_recent(awaiting.iter().copied(), awaiting.len());
            rest.retain(|id| !newest.contains(id));
            out.extend(rest.into_iter().map(|id| (id, Tier::Minimal)));
            // Work to give out: leaves not started yet, and leaves nobody is assigned to.
            out.extend(
                products()
                    .filter(|p| {
                        p.id != crate::tree::ROOT_ID
                            && !has_children.contains(p.id.as_str())
                            && (p.status == ProductStatus::Pending
                                || p.assignee.is_none() && p.status != ProductStatus::Accepted)
                    })
                    .map(|p| (p.id.as_str(), Tier::Minimal)),
            );
        }
        Step::Presentation => {
            // Accepted products first (newest first), then the others that have a version.
            let accepted = products().filter(|p| p.status == ProductStatus::Accepted);
            let mut ranked = most_recent(accepted, usize::MAX);
            ranked.extend(most_recent(
                products().filter(|p| p.status == ProductStatus::InProgress),
                usize::MAX,
            ));
            out.extend(ranked.iter().enumerate().map(|(i, id)| {
                let tier = if i < PRESENT_EXTRA_MAX {
                    Tier::Extra
                } else {
                    Tier::Minimal
                };
                (*id, tier)
            }));
        }
        _ => {
            let own = most_recent(
                products().filter(|p| {
                    p.id != crate::tree::ROOT_ID
                        && (p.owner.as_deref() == Some(member_id)
                            || p.assignee.as_deref() == Some(member_id))
                }),
                usize::MAX,
            );
            out.extend(own.into_iter().map(|id| (id, Tier::Minimal)));
        }
    }
    out
}

/// The products a member sees, in tree order, each at its tier (spec `003`): a tree of at most
/// [`LIST_ALL_MAX`] products whole (the focus at its tier with its ancestors minimal; the rest
/// minimal for the chair and the presenter, one line each for a member at its own work). A larger tree is
/// folded: the focus (capped per kind: [`OWN_LISTED_MAX`], [`DECISIONS_LISTED_MAX`],
/// [`PRESENT_LISTED_MAX`]) with its ancestors at minimal tier; the other children of a listed
/// product one line each when there are at most [`NEIGHBOURS_MAX`]; everything else counted in
/// the folded line of its nearest listed ancestor, with the member's own products named there.
fn tree_listing(
    s: &TeamState,
    member_id: &str,
    step: Step,
    live: &[(usize, &Product)],
    focus: &[(&str, Tier)],
) -> Vec<ProductView> {
    let mut collab_count: HashMap<&str, usize> = HashMap::new();
    for c in s.tree.collabs() {
        *collab_count.entry(c.product_id.as_str()).or_default() += 1;
    }
    let position: HashMap<&str, usize> = live
        .iter()
        .enumerate()
        .map(|(i, (_, p))| (p.id.as_str(), i))
        .collect();
    // The position of each product's parent in the walk.
    let parent_pos: Vec<Option<usize>> = live
        .iter()
        .map(|(_, p)| p.parent.as_deref().and_then(|id| position.get(id).copied()))
        .collect();
    let mut tier: Vec<Option<Tier>> = vec![None; live.len()];
    let raise = |tier: &mut Vec<Option<Tier>>, i: usize, t: Tier| {
        tier[i] = Some(tier[i].map_or(t, |old| old.max(t)));
    };
    let whole = live.len() <= LIST_ALL_MAX;
    // Caps per kind of focus in a larger tree: own products, decisions, presented products.
    let cap = match step {
        Step::PlanAssign => DECISIONS_LISTED_MAX,
        Step::Presentation => PRESENT_LISTED_MAX,
        _ => OWN_LISTED_MAX,
    };
    let mut minimal_taken = 0;
    for (id, t) in focus {
        let Some(&i) = position.get(id) else { continue };
        // The work of the step (extra or full) is never cut; the rest of the focus is capped.
        let capped = *t == Tier::Minimal && step != Step::PlanAssign
            || step == Step::PlanAssign && *t != Tier::Full;
        if !whole && capped && tier[i].is_none() {
            if minimal_taken >= cap {
                continue;
            }
            minimal_taken += 1;
        }
        raise(&mut tier, i, *t);
    }
    if !live.is_empty() {
        raise(&mut tier, 0, Tier::Minimal);
    }
    // Ancestors of every listed product, at minimal tier.
    for i in 0..live.len() {
        if tier[i].is_some() {
            let mut up = parent_pos[i];
            while let Some(j) = up {
                if tier[j].is_some_and(|t| t >= Tier::Minimal) {
                    break;
                }
                raise(&mut tier, j, Tier::Minimal);
                up = parent_pos[j];
            }
        }
    }
    if whole {
        // The chair and the presenter weigh every product; a member at its own work needs the
        // others only by name.
        let rest = match step {
            Step::Bootstrap | Step::PlanAssign | Step::Presentation => Tier::Minimal,
            _ => Tier::Brief,
        };
        for t in tier.iter_mut() {
            t.get_or_insert(rest);
        }
    } else {
        // Neighbours: the unlisted children of a listed product, one line each, when few.
        let mut unlisted_children: Vec<Vec<usize>> = vec![Vec::new(); live.len()];
        for i in 0..live.len() {
            if let Some(parent) = parent_pos[i] {
                if tier[parent].is_some() && tier[i].is_none() {
                    unlisted_children[parent].push(i);
                }
            }
        }
        for children in unlisted_children
            .iter()
            .filter(|c| c.len() <= NEIGHBOURS_MAX)
        {
            for &c in children {
                tier[c] = Some(Tier::Brief);
            }
        }
    }
    // Everything unlisted is counted at its nearest listed ancestor (walk order: parents first).
    let mut folded: Vec<Option<Folded>> = vec![None; live.len()];
    let mut counted_at: Vec<usize> = vec![0; live.len()];
    for i in 0..live.len() {
        if tier[i].is_some() {
            counted_at[i] = i;
            continue;
        }
        let Some(parent) = parent_pos[i] else {
            continue;
        };
        let at = if tier[parent].is_some() {
            parent
        } else {
            counted_at[parent]
        };
        counted_at[i] = at;
        let p = live[i].1;
        let yours = step != Step::PlanAssign
            && (p.owner.as_deref() == Some(member_id) || p.assignee.as_deref() == Some(member_id));
        folded[at]
            .get_or_insert_with(Folded::default)
            .count(p, yours);
    }
    live.iter()
        .enumerate()
        .filter_map(|(i, (depth, p))| {
            let t = tier[i]?;
            let mut view = s.tree.product_view(
                p,
                *depth as u32,
                t,
                collab_count.get(p.id.as_str()).copied().unwrap_or(0),
            );
            view.folded = folded[i].take();
            Some(view)
        })
        .collect()
}

/// How many children a served branch outline lists; more are counted on one line.
pub const OUTLINE_MAX: usize = 100;

/// The children of `product_id` one line each (brief tier), with the products below each counted
/// and `member`'s own named: what `peer_content` serves first, so a branch folded in a prompt
/// opens one level at a time. Empty when it has no live children.
pub fn branch_outline(s: &TeamState, member: &str, product_id: &str) -> String {
    let live = s.tree.walk();
    let Some(start) = live.iter().position(|(_, p)| p.id == product_id) else {
        return String::new();
    };
    let base = live[start].0;
    let mut views: Vec<ProductView> = Vec::new();
    let mut more = Folded::default();
    for (depth, p) in live[start + 1..]
        .iter()
        .take_while(|(depth, _)| *depth > base)
    {
        let yours = p.owner.as_deref() == Some(member) || p.assignee.as_deref() == Some(member);
        if *depth == base + 1 {
            if views.len() < OUTLINE_MAX {
                let mut view = s.tree.product_view(p, 1, Tier::Brief, 0);
                view.collab_count = 0;
                views.push(view);
            } else {
                more.count(p, yours);
            }
        } else if more.products > 0 {
            more.count(p, yours);
        } else if let Some(last) = views.last_mut() {
            last.folded
                .get_or_insert_with(Folded::default)
                .count(p, yours);
        }
    }
    let mut out = render_views(&views);
    if more.products > 0 {
        let _ = writeln!(out, "  - … not listed: {}", more.words());
    }
    out.trim_end().to_string()
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
            diff: before.map(|old| line_diff(&old.content, &v.content)),
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
    // Who did what in earlier rounds is for those who plan and report; the others see the
    // team's totals.
    let mut counts = count_activity(&earlier, oldest_own, team_order, false, own_rounds > 0);
    counts.extend(count_activity(&counted, oldest_own, team_order, true, true));
    (lines, counts)
}

/// A span of rounds and a member (its rank in the team, for the order, and its id).
type SpanOf = ((u32, u32), usize, String);

/// Counts per span of rounds and member (or for the whole team, `who` = `team`, when not
/// `by_member`): one span per round from `oldest_own` on, one span for all older rounds.
fn count_activity(
    counted: &[&ActivityItem],
    oldest_own: u32,
    team_order: &[&str],
    not_listed: bool,
    by_member: bool,
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
        let who = if by_member {
            (rank(&a.who), a.who.clone())
        } else {
            (0, "team".to_string())
        };
        let entry = tally.entry((span(a.round), who.0, who.1)).or_default();
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

/// A short line diff for a prompt: lines removed (`-`) and added (`+`) in reading order, blank
/// lines left out, at most [`DIFF_LINES_MAX`] lines of 100 characters. The same diff the app shows
/// ([`roundtable_engine::diff::diff_lines`]). A rewrite that kept no line is said in one line: the new
/// version is in the prompt already, and the old one's lines would only repeat it in another form.
pub fn line_diff(old: &str, new: &str) -> String {
    use roundtable_engine::diff::DiffLine;
    let (max_lines, max_chars) = (DIFF_LINES_MAX, 100);
    // Trailing spaces are no change a reader sees.
    let plain = |t: &str| t.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    let lines = roundtable_engine::diff::diff_lines(&plain(old), &plain(new));
    let blank = |l: &str| l.trim().is_empty();
    // Lines that are not blank: kept, removed, added.
    let (mut kept, mut removed, mut added) = (0, 0, 0);
    for line in &lines {
        match line {
            DiffLine::Same(l) if !blank(l) => kept += 1,
            DiffLine::Removed(l) if !blank(l) => removed += 1,
            DiffLine::Added(l) if !blank(l) => added += 1,
            _ => {}
        }
    }
    if kept == 0 && removed > 0 && added > 0 && removed + added > max_lines {
        return format!("rewritten: no line kept ({removed} removed, {added} added)");
    }
    let mut out: Vec<String> = lines
        .into_iter()
        .filter_map(|l| match l {
            DiffLine::Removed(l) if !blank(&l) => Some(format!("- {}", one_line(&l, max_chars))),
            DiffLine::Added(l) if !blank(&l) => Some(format!("+ {}", one_line(&l, max_chars))),
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
    if context_offered(env).is_some() {
        out.push_str(CONTEXT_RULE);
    }
    out
}

const BASE_RULES: &str = "## Base rules
- The team works in rounds on a tree of products (p0 is the root). Name only ids shown in this prompt or in context you asked for; the person is user-1.
- Trace everything you produce to the charter, a directive, a reflection or a collab.
- No duplicate products or comments: to agree, say so in a line instead of restating.
- Content is Markdown, never JSON. Break work into explicit parts; say what is left and what is uncertain.
";

const COMMON_MISTAKES: &str =
    "- Enum values not exactly as listed (they are case-sensitive); True, False, None instead of true, false, null.
";

const TOKEN_RULES: &str = "- Be dense: every sentence carries information the team needs; never repeat the prompt or earlier answers.
";

/// The token rule on context requests, where the prompt offers them.
const CONTEXT_RULE: &str = "- Ask for context only for a product's content, history or feedback you need and do not see here: each request costs a round trip.
";

fn step_rules(step: Step) -> &'static str {
    match step {
        Step::Bootstrap => "- The charter: mission, objectives, constraints.
- A motivating persona for every member (more than a flat role); a domain for every operative.
- Propose the initial products (about 8 at most): distinct names, a checkable dod, an operative as owner (or null).
- List in missingDetails what the request leaves open and you had to assume; if something essential is missing, halt with a question to user-1 instead.
",
        Step::Reflect => "- For each product you worked on last round: how far it is from its dod, and the gaps.
- nextVersionDelta: exactly what your next version changes.
",
        Step::PlanAssign => "- Every assignment gets a directive: objective, dod, why (importance, link to the bigger picture) and context (a personal note: what is left, whether the operative is on track); attach related products it needs.
- Accept a version that meets its dod; reject with a reason the writer can act on.
- When every product is accepted and the mission is met, halt with type done; to ask the person, halt with a question to user-1.
",
        Step::Write => "- Follow each assignment's directive; the content is the whole product, not a plan of it.
- changeSummary: what changed and which directive points or collabs it answers.
- Version only your assigned products; comment on others with collabs.
",
        Step::PeerReview => "- assessment: approved or needs_revision; the summary says why.
- Raise each point once; if you agree, say so without restating the content.
- Put concrete fixes in collabs addressed to the author.
",
        Step::Inspection => "- You are the watchdog: flag what breaks the dod, completeness, order, coherence, integration, quality or security.
- Each finding says what is wrong, how to fix it and which dod criterion it breaks; never repeat a finding already raised.
",
        Step::Presentation => "- Tell the person what was produced, what was accepted and what is still open.
- Report only what the products hold: no new content. 1 to 10 messages; asAgent is your member id.
",
    }
}

fn step_mistakes(step: Step) -> String {
    match step {
        Step::PlanAssign => "- Naming a product that does not exist or was just removed; accepting a version of another product; two children of one parent with the same name.\n".into(),
        Step::PeerReview => "- Reviewing your own version, or one not listed for you.\n".into(),
        Step::Reflect => "- Reflecting on a product you did not work on last round; a collabId that does not exist.\n".into(),
        Step::Bootstrap => "- A domain for a member who is not an operative.\n".into(),
        // Their rules already say it: the content is the whole product; only listed versions;
        // no new content.
        Step::Write | Step::Inspection | Step::Presentation => String::new(),
    }
}

/// Whether this call's prompt offers `request_context`: only where a listed product has a
/// version to serve. At Bootstrap, or before anything is written, a request can only answer
/// "no version yet", and the prompt says nothing of it (the validator still accepts the form).
fn context_offered(env: &Envelope) -> Option<&str> {
    use crate::examples;
    if env.step == Step::Bootstrap {
        return None;
    }
    examples::product_with_version(env)
}

fn output_structure(env: &Envelope) -> String {
    use crate::examples;
    let step = env.step;
    let mut forms = vec!["\"final_output\""];
    if context_offered(env).is_some() {
        forms.push("\"request_context\"");
    }
    if step.allows_halt() {
        forms.push("\"halt\"");
    }
    let last = forms.pop().unwrap_or_default();
    let mut out = String::from(
        "Answer with exactly one JSON object, no code fence, no text around it. responseType is ",
    );
    if forms.is_empty() {
        let _ = writeln!(out, "{last}.");
    } else {
        let _ = writeln!(out, "{} or {last}.", forms.join(", "));
    }
    out.push_str("Final output, for example:\n");
    out.push_str(&examples::final_output(env));
    out.push('\n');
    out.push_str(&final_output_notes(env));
    if step == Step::PlanAssign {
        let ops = examples::other_tree_operations(env);
        out.push_str(if ops.contains("\"ADD\"") {
            "Tree operations:\n"
        } else {
            "Other tree operations:\n"
        });
        out.push_str(&ops);
        out.push('\n');
    }
    if let Some(product) = context_offered(env) {
        let _ = write!(
            out,
            "Request context:\n{{\"responseType\":\"request_context\",\"contextRequests\":[{{\"productId\":\"{product}\",\"need\":\"full_content\",\"reason\":\"Why you need it.\"}}]}}\nneed: full_content (the latest version), version_history, all_feedback or peer_content (its children one line each — this opens a folded branch — and their latest content by others); {}-{} requests; reason ≤ {} chars.\n",
            limits::CONTEXT_REQUESTS_MIN,
            limits::CONTEXT_REQUESTS_MAX,
            limits::CONTEXT_REASON_MAX
        );
    }
    if step.allows_halt() {
        let _ = write!(
            out,
            "Halt:\n{{\"responseType\":\"halt\",\"halt\":{{\"type\":\"question\",\"to\":[\"user-1\"],\"message\":\"Your question.\",\"options\":[\"One answer\",\"Another\"]}}}}\ntype: question (options optional){}; to: [\"user-1\"]; message ≤ {} chars.\n",
            if step == Step::Bootstrap {
                ""
            } else {
                " or done (the work is finished; the presentation follows)"
            },
            limits::HALT_MESSAGE_MAX
        );
    }
    let (collab, remark) = examples::shared_parts(env);
    let remark_notes = format!(
        "recipients: one or more of member ids, user, chair or team; type: question, suggestion, observation, note, missing_detail, blocker or comment; content ≤ {} chars; optional: isBlocker.",
        limits::REMARK_CONTENT_MAX
    );
    match step {
        // Bootstrap's and Presentation's outputs have neither collabs nor remarks.
        Step::Bootstrap | Step::Presentation => {}
        // PlanAssign's output has remarks only (000): the chair's feedback goes in directives.
        Step::PlanAssign => {
            let _ = write!(
                out,
                "Remarks (the list may be []):\n- remark: {remark}\n  {remark_notes}\n"
            );
        }
        _ => {
            let _ = write!(
                out,
                "Collabs and remarks (each list may be []):\n- collab: {collab}\n  type: feedback, question, suggestion, endorsement or concern; importance {}-{}; comment ≤ {} chars, shortestSummary ≤ {}; optional: refersToVersion, addresseeIds, respondingToCollabIds, referencesProductIds.\n- remark: {remark}\n  {remark_notes}\n",
                limits::SCALE_MIN,
                limits::SCALE_MAX,
                limits::COLLAB_COMMENT_MAX,
                limits::COLLAB_SUMMARY_MAX,
            );
        }
    }
    out
}

/// What the example of the step's final output does not show: the other values and the limits.
fn final_output_notes(env: &Envelope) -> String {
    match env.step {
        Step::Bootstrap => format!(
            "personas: one per member id, ≤ {} chars each; operativeDomains: one per operative id (responsibility ≤ {} chars, area ≤ {}); a product's type: Content, Decision, Collection or Orchestration; name ≤ {} chars, dod ≤ {}; mission ≤ {}.\n",
            limits::PERSONA_MAX,
            limits::DOMAIN_RESPONSIBILITY_MAX,
            limits::DOMAIN_AREA_MAX,
            limits::PRODUCT_NAME_MAX,
            limits::PRODUCT_DOD_MAX,
            limits::MISSION_MAX
        ),
        Step::Reflect => "dodStatus: met, partially_met or not_met; optional: blockers, what stops the product that only someone else can clear (the chair reads them when it plans). feedbackResponses: one per collab you received, each with collabId, action (accept, defer or reject), rationale, and plannedChange (what your next version changes for it; optional).\n".into(),
        Step::PlanAssign => format!(
            "Lists you do not need may be []. ADD: newId new-1, new-2, … names the product in later parts of this answer only; type: Content, Decision, Collection or Orchestration; name ≤ {} chars, dod ≤ {}; the tree is at most {} levels deep. Assign to operatives only; an assignment may add \"attachedContext\":[{{\"productId\":\"…\",\"include\":[\"content\",\"feedback\"],\"reason\":\"Why they need it.\"}}]. Accept names the versionId; reject: {{\"productId\":\"…\",\"accepted\":false,\"rejectionReason\":\"What to change.\"}}. UPDATE may change name, type, dod, description, assignee (null unassigns); never the root p0.\nOptional, rarely: \"chairVersions\":[{{\"productId\":\"{product}\",\"content\":\"The whole product in Markdown, when writing it yourself is faster than a round.\",\"changeSummary\":\"What you changed.\"}}] (content {}-{} chars; not for p0). \"bootstrapOverrides\":{{\"objectives\":\"The objectives as they now stand.\"}} only when the mission really changed, with only the fields that change: mission ≤ {} chars, objectives ≤ {}, personas (member id → persona ≤ {}), operativeDomains (operative id → responsibility ≤ {}, area ≤ {}).\n",
            limits::PRODUCT_NAME_MAX,
            limits::PRODUCT_DOD_MAX,
            limits::TREE_DEPTH_MAX,
            limits::CONTENT_MIN,
            limits::CONTENT_MAX,
            limits::MISSION_MAX,
            limits::OBJECTIVES_MAX,
            limits::PERSONA_MAX,
            limits::DOMAIN_RESPONSIBILITY_MAX,
            limits::DOMAIN_AREA_MAX,
            product = crate::examples::some_product(env),
        ),
        Step::Write => format!(
            "contentTitle ≤ {} chars; content {}-{} chars.\n",
            limits::CONTENT_TITLE_MAX,
            limits::CONTENT_MIN,
            limits::CONTENT_MAX
        ),
        Step::PeerReview | Step::Presentation => String::new(),
        Step::Inspection => format!(
            "One inspection per version listed; assessment: approved, needs_revision or blocked; a finding's category: security, completeness, coherence, integration or quality; severity {}-{}.\n",
            limits::SCALE_MIN,
            limits::SCALE_MAX
        ),
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
        let _ = write!(out, " | chair's note: {}", one_line(c, 600));
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
    out.push_str(&tree_text(env));

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
                let _ = writeln!(out, "  Chair's note: {c}");
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
        if !env.left_out.assignments.is_empty() {
            let more = &env.left_out.assignments;
            let _ = write!(
                out,
                "- and {} more assignment(s) not listed: write only the ones above in this answer; these wait for a later round: {}",
                more.len(),
                more[..more.len().min(WORKED_LIST_MAX)].join(", ")
            );
            if more.len() > WORKED_LIST_MAX {
                let _ = write!(out, " … and {} more", more.len() - WORKED_LIST_MAX);
            }
            out.push('\n');
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
    out.push_str(&awaiting_text(env));
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
        // A note of an earlier round says its round: a stale note reads as one.
        match env.last_chair_note_round.filter(|r| *r != env.round) {
            Some(r) => {
                let _ = writeln!(out, "Chair's note (round {r}): {}\n", n.trim());
            }
            None => {
                let _ = writeln!(out, "Chair's note: {}\n", n.trim());
            }
        }
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
    // The one place that says how many context requests are left (the rules show the form),
    // and where a missing fact about the person goes instead.
    if context_offered(env).is_some() {
        if env.call.final_output_required {
            out.push_str("You have used all your context requests at this step: answer with your final output now.");
        } else {
            let _ = write!(
                out,
                "Context requests left at this step: {}; then a final output is required.",
                env.call.context_requests_left
            );
        }
    }
    // Bootstrap's and PlanAssign's rules say to halt with a question; Presentation only reports.
    if matches!(
        env.step,
        Step::Reflect | Step::Write | Step::PeerReview | Step::Inspection
    ) {
        if !out.ends_with("\n\n") {
            out.push(' ');
        }
        out.push_str(
            "A fact only the person knows: write down what you assumed, in a remark to user.",
        );
    }
    out.trim_end().to_string()
}

/// The product tree as this member sees it (003's "Reminder: current project structure"), with
/// how to open a folded branch said once when there is one.
fn tree_text(env: &Envelope) -> String {
    let mut out = String::from("Reminder:\nCurrent project structure");
    if env.products.iter().any(|p| p.folded.is_some()) {
        out.push_str(" (\"folded\": products not listed here, counted; to list them, ask request_context with that product's id and need peer_content)");
    }
    out.push_str(":\n");
    out.push_str(&render_views(&env.products));
    out.push('\n');
    out
}

/// PlanAssign: every version awaiting acceptance — one line each for the products listed in the
/// structure, the rest by id on one line (they are counted in the folded lines).
fn awaiting_text(env: &Envelope) -> String {
    let mut out = String::new();
    if env.awaiting_acceptance.is_empty() {
        return out;
    }
    let listed: BTreeSet<&str> = env.products.iter().map(|p| p.id.as_str()).to_set();
    out.push_str("Versions awaiting acceptance:\n");
    let mut folded = Vec::new();
    for v in &env.awaiting_acceptance {
        if listed.contains(v.product_id.as_str()) {
            let _ = writeln!(
                out,
                "- {} of {} \"{}\" by {}",
                v.version_id, v.product_id, v.product_name, v.author
            );
        } else {
            folded.push(format!("{} {}", v.product_id, v.version_id));
        }
    }
    if !folded.is_empty() {
        let _ = writeln!(
            out,
            "- in folded branches ({}, product and version): {}",
            folded.len(),
            folded.join(", ")
        );
    }
    out.push('\n');
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
#[path = "prompt_tests.rs"]
mod tests;
