//! What the review loop's page draws, computed here so the page re-derives no rule: the board
//! of roles with each one's latest status and verdict, the orchestrator's decisions, the files
//! with their versions and diffs, the plan's versions and the roles' reports, the artifacts the
//! runtime wrote (critic triggers, revision packets, fan-outs) with the answers that caused
//! them, the runtime's own test runs, the gates with what satisfies each, and the
//! reconciliation.

use super::answer::{check, Contract, Payload, Response, Status};
use super::config::Role;
use super::gates::Gate;
use super::runtime::run_words;
use super::{Review, ReviewStep};
use crate::diff::{diff_lines, DiffLine};
use crate::text::wire_word;
use crate::validate::Options;

/// One role on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleCard {
    /// The role in words ("verifier").
    pub role: &'static str,
    /// Who holds it.
    pub member: String,
    /// Its provider/model.
    pub model: String,
    /// `working`, `not called yet`, or its latest answer's status (`ok`, `blocked`, `failed`).
    pub status: &'static str,
    /// Its latest verdict or action (`needs_revision`, `delegate`), if its answer has one.
    pub verdict: Option<String>,
    /// Its latest answer's summary.
    pub summary: String,
    /// The call of that answer.
    pub call_id: Option<String>,
    /// Its member asked the person something that still waits in the inbox (its status then
    /// reads `working` while the step waits for the person's word).
    pub asking: bool,
    /// The answers of its latest fan-out, one per slot (empty when it never fanned out): a role
    /// a fan-out ran has answered even when its own card says `not called yet`.
    pub slots: Vec<SlotCard>,
}

/// One fan-out slot's answer, on its role's card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotCard {
    /// The slot, from 1.
    pub slot: u32,
    /// Its answer's status (`ok`, `blocked`, `failed`).
    pub status: &'static str,
    /// Its verdict, if its answer has one.
    pub verdict: Option<String>,
    /// Its answer's summary.
    pub summary: String,
    /// The call of that answer.
    pub call_id: String,
}

/// One orchestrator decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionRow {
    /// The iteration it opened.
    pub iteration: u32,
    /// Its call.
    pub call_id: String,
    /// `delegate`, `verify`, …
    pub action: String,
    /// The role it hands the run to.
    pub next_role: Option<String>,
    /// Why.
    pub reason: String,
    /// The fan-out it asked for, in words.
    pub fanout: Option<String>,
}

/// One version of a file with its diff from the one before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileVersionView {
    /// From 1.
    pub version: u32,
    /// The implementation that wrote it.
    pub call_id: String,
    /// The whole file (empty once deleted).
    pub content: String,
    /// Whether this version deletes the file.
    pub deleted: bool,
    /// The diff from the version before (all added for the first), `+`, `-` or ` ` first.
    pub diff: Vec<String>,
}

/// A file with every version, newest last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileView {
    /// Relative path.
    pub path: String,
    /// Oldest first.
    pub versions: Vec<FileVersionView>,
}

/// A Markdown document a role wrote: a plan version, a report, a review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportView {
    /// "Plan v2", "QA report", "Research (slot 1)".
    pub title: String,
    /// The call that wrote it.
    pub call_id: String,
    /// Markdown (raw model text: the page renders it safely).
    pub markdown: String,
}

/// An artifact the runtime wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeArtifactView {
    /// `critic_trigger-1`, `revision_packet-1`, `fanout-1`.
    pub id: String,
    /// What it says, in a line.
    pub summary: String,
    /// The calls and runs that caused it or that it points to.
    pub refs: Vec<String>,
    /// The artifact as `004` spells it (pretty JSON).
    pub json: String,
}

/// One of the runtime's own runs of the files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunView {
    /// The effect (`effect-2`).
    pub id: String,
    /// The implementation whose files ran.
    pub implementation: String,
    /// `running`, `passed`, `failed`, …
    pub status: String,
    /// The run in a line.
    pub words: String,
}

/// A gate `complete` must pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateView {
    /// Its name.
    pub name: &'static str,
    /// What satisfies it.
    pub satisfied_by: &'static str,
    /// Whether it is met now.
    pub met: bool,
    /// Why not, when it is not.
    pub why: String,
}

/// The reconciliation that closed the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReconciliationView {
    /// `complete`, `partial`, `off_plan`, `blocked`.
    pub status: String,
    /// Success criteria met.
    pub satisfied: Vec<String>,
    /// Plan items not done.
    pub missing: Vec<String>,
    /// The next slice's objective.
    pub next_slice: String,
    /// Its Markdown, if any.
    pub markdown: Option<String>,
}

/// An approval put to the person: open in the inbox, or decided (every decision is an event).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalView {
    /// The iteration it was asked in.
    pub iteration: u32,
    /// The call whose answer asked (a decision waiting for approval is applied only once
    /// approved, so a revised or rejected one is found here, not among the decisions).
    pub call_id: String,
    /// Who asked, by name.
    pub asked_by: String,
    /// What the person is asked (Markdown).
    pub message: String,
    /// The person's word in a sentence ("The person asked for a revision: …"); `None` while
    /// it waits. For an approval the policy gave by itself, why it could.
    pub answer: Option<String>,
    /// Whether the approval policy gave it by itself (the mode let the answer through).
    pub by_policy: bool,
}

/// Everything the review loop's page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewView {
    /// The goal.
    pub goal: String,
    /// The run id every answer acknowledges.
    pub run_id: String,
    /// The iteration under way and the limit.
    pub iteration: (u32, u32),
    /// Why the run closed, once it has.
    pub end: Option<&'static str>,
    /// The roles.
    pub roles: Vec<RoleCard>,
    /// The decisions, oldest first.
    pub decisions: Vec<DecisionRow>,
    /// The files.
    pub files: Vec<FileView>,
    /// Plans and reports, oldest first.
    pub reports: Vec<ReportView>,
    /// Critic triggers, revision packets and fan-outs, in that order.
    pub artifacts: Vec<RuntimeArtifactView>,
    /// The runtime's runs, oldest first.
    pub runs: Vec<RunView>,
    /// The gates.
    pub gates: Vec<GateView>,
    /// Approvals waiting in the inbox.
    pub open_approvals: usize,
    /// Every approval asked for, oldest first, open or decided.
    pub approvals: Vec<ApprovalView>,
    /// The reconciliation.
    pub reconciliation: Option<ReconciliationView>,
}

/// The verdict or action an answer carries, as `004` spells it.
fn verdict_of(response: &Response) -> Option<String> {
    Some(match &response.payload {
        Payload::Decision(d) => wire_word(&d.action),
        Payload::Implementation(i) => wire_word(&i.status),
        Payload::Qa(q) => wire_word(&q.verdict),
        Payload::Verification(v) => wire_word(&v.verdict),
        Payload::Critique(c) => wire_word(&c.verdict),
        Payload::Reconciliation(r) => wire_word(&r.status),
        Payload::Research(_) => return None,
    })
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Ok => "ok",
        Status::Blocked => "blocked",
        Status::Failed => "failed",
    }
}

/// The view model of `review`.
pub fn view_of(review: &Review) -> ReviewView {
    let record = &review.record;
    let working: Vec<&str> = review
        .core
        .slots
        .iter()
        .filter(|s| !s.done)
        .map(|s| Review::split_slot(&s.member).0)
        .collect();
    let step_role = review.core.step.map(ReviewStep::role);
    let roles = Role::ALL
        .iter()
        .filter_map(|&role| {
            let m = review.config.holder(role)?;
            let latest = record
                .answers
                .iter()
                .rev()
                .find(|a| a.step.role() == role && a.slot.is_none());
            let status = if step_role == Some(role) && working.contains(&m.id.as_str()) {
                "working"
            } else {
                latest.map_or("not called yet", |a| status_word(a.response.status))
            };
            // The latest fan-out of the role: the slot answers of the last round that had any.
            let fanned = record
                .answers
                .iter()
                .filter(|a| a.step.role() == role && a.slot.is_some())
                .collect::<Vec<_>>();
            let last_round = fanned.last().map(|a| a.round);
            let slots = fanned
                .into_iter()
                .filter(|a| Some(a.round) == last_round)
                .map(|a| SlotCard {
                    slot: a.slot.unwrap_or_default(),
                    status: status_word(a.response.status),
                    verdict: verdict_of(&a.response),
                    summary: a.response.summary.clone(),
                    call_id: a.call_id.clone(),
                })
                .collect();
            Some(RoleCard {
                role: role.words(),
                member: m.name.clone(),
                model: format!("{}/{}", m.model.provider, m.model.model),
                status,
                verdict: latest.and_then(|a| verdict_of(&a.response)),
                summary: latest.map_or_else(String::new, |a| a.response.summary.clone()),
                call_id: latest.map(|a| a.call_id.clone()),
                asking: review.core.open_asks().any(|h| h.asked_by == m.id),
                slots,
            })
        })
        .collect();
    // Every decision: applied, or waiting for (or turned down by) the person, read again
    // from its answer as the judge read it.
    let waited = |id: &str| -> Option<Response> {
        let call = review.core.call(id)?;
        let raw = call.raw_answer.as_deref()?;
        let directive = review.directive_of(&call.call);
        check(
            Contract::Decision,
            raw,
            &directive,
            Options::default(),
            &mut Vec::new(),
        )
        .ok()
    };
    let decisions = review
        .core
        .calls
        .iter()
        .filter(|c| c.call.step == ReviewStep::Orchestrator)
        .filter_map(|c| {
            let id = c.call.id.as_str();
            let asked = review.core.halts.iter().any(|h| h.call_id == id);
            let response = match record.answer(id) {
                Some(a) => a.response.clone(),
                None if asked => waited(id)?,
                None => return None,
            };
            let Payload::Decision(d) = response.payload else {
                return None;
            };
            Some(DecisionRow {
                iteration: c.call.round,
                call_id: id.to_string(),
                action: wire_word(&d.action),
                next_role: d.next_role.map(|r| wire_word(&r)),
                reason: d.reason.clone(),
                fanout: d
                    .fanout
                    .as_ref()
                    .map(|f| format!("{} × {}: {}", f.count, wire_word(&f.role), f.instruction)),
            })
        })
        .collect();
    let files = record
        .files
        .iter()
        .map(|f| {
            let mut before = String::new();
            let versions = f
                .versions
                .iter()
                .map(|v| {
                    let now = v.content.clone().unwrap_or_default();
                    let diff = diff_lines(&before, &now)
                        .into_iter()
                        .map(|l| match l {
                            DiffLine::Same(s) => format!(" {s}"),
                            DiffLine::Removed(s) => format!("-{s}"),
                            DiffLine::Added(s) => format!("+{s}"),
                        })
                        .collect();
                    before = now.clone();
                    FileVersionView {
                        version: v.version,
                        call_id: v.call_id.clone(),
                        content: now,
                        deleted: v.content.is_none(),
                        diff,
                    }
                })
                .collect();
            FileView {
                path: f.path.clone(),
                versions,
            }
        })
        .collect();
    let mut plan_version = 0;
    let reports = record
        .answers
        .iter()
        .filter_map(|a| {
            let slot = a.slot.map_or_else(String::new, |k| format!(" (slot {k})"));
            let (title, markdown) = match &a.response.payload {
                Payload::Decision(d) if a.step == ReviewStep::Planner => {
                    plan_version += 1;
                    (format!("Plan v{plan_version}{slot}"), d.markdown.clone()?)
                }
                Payload::Research(r) => (
                    format!("Research{slot}"),
                    r.markdown
                        .clone()
                        .unwrap_or_else(|| r.findings.iter().map(|f| format!("- {f}\n")).collect()),
                ),
                Payload::Qa(q) => (
                    format!("QA report{slot}"),
                    q.markdown.clone().unwrap_or_else(|| q.summary.clone()),
                ),
                Payload::Verification(v) => (
                    format!("Verification{slot}"),
                    v.markdown.clone().unwrap_or_else(|| v.summary.clone()),
                ),
                Payload::Critique(c) => (
                    format!("Critique{slot}"),
                    c.markdown.clone().unwrap_or_else(|| {
                        c.blocking_concerns
                            .iter()
                            .map(|b| format!("- **Blocking:** {b}\n"))
                            .chain(c.non_blocking_concerns.iter().map(|b| format!("- {b}\n")))
                            .collect()
                    }),
                ),
                _ => return None,
            };
            Some(ReportView {
                title,
                call_id: a.call_id.clone(),
                markdown,
            })
        })
        .collect();
    let mut artifacts = Vec::new();
    for (k, t) in record.triggers.iter().enumerate() {
        let mut refs = t.evidence_refs.clone();
        if !t.critic_response_ref.is_empty() {
            refs.push(t.critic_response_ref.clone());
        }
        artifacts.push(RuntimeArtifactView {
            id: format!("critic_trigger-{}", k + 1),
            summary: t.reason.clone(),
            refs,
            json: pretty(t),
        });
    }
    for (k, p) in record.packets.iter().enumerate() {
        let mut refs = vec![p.source_response_ref.clone()];
        refs.extend(p.critic_trigger_ref.clone());
        artifacts.push(RuntimeArtifactView {
            id: format!("revision_packet-{}", k + 1),
            summary: p.repair_objective.clone(),
            refs,
            json: pretty(p),
        });
    }
    for (k, f) in record.fanouts.iter().enumerate() {
        artifacts.push(RuntimeArtifactView {
            id: format!("fanout-{}", k + 1),
            summary: format!(
                "{} of {} slots ran (advisory: satisfies no gate): {}",
                f.bounds.executed_items, f.bounds.requested_items, f.instruction
            ),
            refs: f
                .items
                .iter()
                .map(|i| i.response_artifact.r#ref.clone())
                .filter(|r| !r.is_empty())
                .collect(),
            json: pretty(f),
        });
    }
    let runs = record
        .runs
        .iter()
        .map(|r| RunView {
            id: r.effect_id.clone(),
            implementation: r.implementation.clone(),
            status: r
                .run
                .as_ref()
                .map_or_else(|| "running".into(), |t| t.status.clone()),
            words: r
                .run
                .as_ref()
                .map_or_else(|| "the sandbox is running the files".into(), run_words),
        })
        .collect();
    let open_approvals = review.core.open_asks().count();
    let approvals = review
        .core
        .halts
        .iter()
        .filter(|h| h.halt.is_approval())
        .map(|h| ApprovalView {
            iteration: h.round,
            call_id: h.call_id.clone(),
            asked_by: review
                .config
                .member(&h.asked_by)
                .map_or_else(|| h.asked_by.clone(), |m| m.name.clone()),
            message: h.halt.message().to_string(),
            answer: h.answer.as_ref().map(crate::engine::PersonReply::words),
            by_policy: false,
        })
        .chain(record.auto_approvals.iter().map(|a| ApprovalView {
            iteration: a.round,
            call_id: a.call_id.clone(),
            asked_by: "The approval policy".into(),
            message: format!("{}.", a.what),
            answer: Some(sentence_case(&a.why)),
            by_policy: true,
        }))
        .collect::<Vec<_>>();
    let mut approvals = approvals;
    approvals.sort_by_key(|a| call_order(&a.call_id));
    let unmet = record.unmet(open_approvals);
    let gates = [
        (Gate::Verifier, "Verifier approval", "the verifier's own approval of the latest implementation (never a fan-out's)"),
        (Gate::RuntimeQa, "Runtime QA", "a sandbox run of the files as the latest implementation left them, your acceptance tests included, that passed: nothing else counts (QA's word is advice)"),
        (Gate::Approval, "No open approval", "every approval in the inbox decided"),
    ]
    .into_iter()
    .map(|(gate, name, satisfied_by)| {
        let why: Vec<String> = unmet.iter().filter(|u| u.gate == gate).map(|u| u.why.clone()).collect();
        GateView {
            name,
            satisfied_by,
            met: why.is_empty(),
            why: why.join("; "),
        }
    })
    .collect();
    let reconciliation = review.reconciliation().map(|r| ReconciliationView {
        status: wire_word(&r.status),
        satisfied: r.satisfied_criteria.clone(),
        missing: r.missing_plan_items.clone(),
        next_slice: r.next_recommended_slice.objective.clone(),
        markdown: r.markdown.clone(),
    });
    ReviewView {
        goal: review.config.user_goal.clone(),
        run_id: review.config.run_id.clone(),
        iteration: (review.core.round, review.config.max_iterations),
        end: review.end.or(review.closing()).map(super::RunEnd::words),
        roles,
        decisions,
        files,
        reports,
        artifacts,
        runs,
        gates,
        open_approvals,
        approvals,
        reconciliation,
    }
}

/// `text` with its first letter a capital.
fn sentence_case(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => format!(
            "{}{}.",
            c.to_uppercase(),
            chars.as_str().trim_end_matches('.')
        ),
        None => String::new(),
    }
}

/// The number of `call-N`, for ordering by when a call was made.
fn call_order(id: &str) -> usize {
    id.strip_prefix("call-")
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX)
}

/// An artifact as pretty JSON.
fn pretty<T: serde::Serialize>(artifact: &T) -> String {
    serde_json::to_string_pretty(artifact).unwrap_or_default()
}

/// The run's account as Markdown, for the report download.
pub fn markdown(review: &Review) -> String {
    let v = view_of(review);
    let mut s = format!("# Review loop\n\n## Goal\n{}\n\nRun `{}`", v.goal, v.run_id);
    if let Some(end) = v.end {
        s.push_str(&format!(", {end}"));
    }
    s.push_str(".\n\n## Decisions\n");
    for d in &v.decisions {
        s.push_str(&format!(
            "- Iteration {} ({}): **{}**{} — {}\n",
            d.iteration,
            d.call_id,
            d.action,
            d.next_role
                .as_ref()
                .map_or_else(String::new, |r| format!(" → {r}")),
            d.reason
        ));
    }
    if !v.approvals.is_empty() {
        s.push_str("\n## Approvals\n");
        for a in &v.approvals {
            s.push_str(&format!(
                "- {}: {} {}\n",
                a.asked_by,
                a.message.trim(),
                a.answer.as_deref().unwrap_or("Waiting for the person.")
            ));
        }
    }
    s.push_str("\n## Gates\n");
    for g in &v.gates {
        s.push_str(&format!(
            "- {} {}{}\n",
            if g.met { "✓" } else { "✗" },
            g.name,
            if g.met {
                String::new()
            } else {
                format!(": {}", g.why)
            }
        ));
    }
    if !v.runs.is_empty() {
        s.push_str("\n## The runtime's runs\n");
        for r in &v.runs {
            s.push_str(&format!("- {} ({}): {}\n", r.id, r.implementation, r.words));
        }
    }
    if !v.artifacts.is_empty() {
        s.push_str("\n## Artifacts the runtime wrote\n");
        for a in &v.artifacts {
            s.push_str(&format!(
                "\n### {}\n{}\n\n```json\n{}\n```\n",
                a.id, a.summary, a.json
            ));
        }
    }
    for r in &v.reports {
        s.push_str(&format!(
            "\n## {} ({})\n{}\n",
            r.title,
            r.call_id,
            r.markdown.trim_end()
        ));
    }
    if let Some(r) = &v.reconciliation {
        s.push_str(&format!("\n## Reconciliation: {}\n", r.status));
        for c in &r.satisfied {
            s.push_str(&format!("- ✓ {c}\n"));
        }
        for m in &r.missing {
            s.push_str(&format!("- missing: {m}\n"));
        }
        s.push_str(&format!("\nNext: {}\n", r.next_slice));
    }
    s.push_str("\n## Files\n");
    for f in review.record.current_files() {
        s.push_str(&format!(
            "\n{}",
            crate::text::file_section(&f.path, &f.content)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{ModelRef, Protocol};
    use crate::protocol::review::{demo, ReviewSession};

    /// The demo's two researchers answer only in a fan-out: the researcher's card carries both
    /// slots' answers, each with its call, though the role itself was never called; the
    /// orchestrator's request for approval is listed with the person's word on it.
    #[test]
    fn the_board_shows_a_fan_outs_slots_and_the_inbox_every_approval() {
        let model = ModelRef {
            provider: "demo".into(),
            model: "roundtable-demo".into(),
        };
        let mut s = ReviewSession::new(demo::config(model, "run-view"), 0).unwrap();
        let mut now = 1;
        crate::demo::play_with(
            &mut s,
            |st, c| st.demo_answer(&c.call, &c.envelope),
            &mut now,
            80,
        )
        .unwrap();
        let v = view_of(s.state());
        let researcher = v.roles.iter().find(|r| r.role == "researcher").unwrap();
        assert_eq!(researcher.status, "not called yet");
        let slots: Vec<(u32, &str)> = researcher
            .slots
            .iter()
            .map(|k| (k.slot, k.status))
            .collect();
        assert_eq!(slots, [(1, "ok"), (2, "ok")]);
        assert!(researcher
            .slots
            .iter()
            .all(|k| s.state().core.call(&k.call_id).is_some()));
        assert!(v
            .roles
            .iter()
            .filter(|r| r.role != "researcher")
            .all(|r| r.slots.is_empty()));
        // The orchestrator's one request for approval, decided.
        let asked: Vec<(&str, Option<&str>)> = v
            .approvals
            .iter()
            .map(|a| (a.asked_by.as_str(), a.answer.as_deref()))
            .collect();
        assert_eq!(
            asked,
            [("Olga (orchestrator)", Some("The person approved it."))]
        );
        assert!(v.approvals[0]
            .message
            .contains("approve it before the implementer"));
    }
}
