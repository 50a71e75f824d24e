//! What the review loop's page draws, computed here so the page re-derives no rule: the board
//! of roles with each one's latest status and verdict, the orchestrator's decisions, the files
//! with their versions and diffs, the plan's versions and the roles' reports, the artifacts the
//! runtime wrote (critic triggers, revision packets, fan-outs) with the answers that caused
//! them, the runtime's own test runs, the gates with what satisfies each, and the
//! reconciliation.

use super::answer::{Contract, Payload, Response, Status};
use super::config::Role;
use super::gates::Gate;
use super::rules::check;
use super::runtime::run_words;
use super::{ReviewState, ReviewStep};
use roundtable_engine::diff::{diff_lines, DiffLine};
use roundtable_engine::engine::Protocol as _;
use roundtable_engine::text::wire_word;
use roundtable_engine::validate::Options;
use serde_json::Value;

/// One role on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleCard {
    /// The role in words ("verifier").
    pub role: &'static str,
    /// Who holds it.
    pub member: String,
    /// Its model by name; `None` when every role shares one (said once: [`ReviewView::model`]).
    pub model: Option<String>,
    /// `working`, `not called yet`, or its latest answer's status (`ok`, `blocked`, `failed`).
    pub status: &'static str,
    /// Its latest verdict or action (`needs_revision`, `delegate`), if its answer has one.
    pub verdict: Option<String>,
    /// That verdict in a person's words ("asks for changes").
    pub verdict_words: Option<&'static str>,
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
    /// That verdict in a person's words.
    pub verdict_words: Option<&'static str>,
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
    /// The action in a person's words ("hands work to").
    pub action_words: &'static str,
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
    /// `critic_trigger-1`, `revision_packet-1`, `fanout-1`: its anchor on the page, never shown.
    pub id: String,
    /// What it is, in a person's words ("The critic was called: QA found a failure").
    pub title: String,
    /// What it says, in a line (refs in words).
    pub summary: String,
    /// The calls and runs that caused it or that it points to, each with its words.
    pub refs: Vec<(String, String)>,
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
    /// The implementation whose files ran, in words.
    pub implementation_words: String,
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
    /// The one model every role runs on, by name, when they share one (the cards then name
    /// none).
    pub model: Option<String>,
    /// The run id every answer acknowledges.
    pub run_id: String,
    /// The iteration under way and the limit.
    pub iteration: (u32, u32),
    /// Calls started and the run's limit (`max_iterations` counts every call).
    pub calls: (u32, u32),
    /// Whether the run is over (its reconciliation is in).
    pub finished: bool,
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
pub fn view_of(review: &ReviewState) -> ReviewView {
    let record = &review.record;
    let shared = shared_model(review);
    let working: Vec<&str> = review
        .core
        .slots
        .iter()
        .filter(|s| !s.done)
        .map(|s| ReviewState::split_slot(&s.member).0)
        .collect();
    let step_role = review.core.step.map(|s| ReviewState::step_of(s).role());
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
                    verdict_words: verdict_of(&a.response).map(|v| verdict_words(&v)),
                    summary: a.response.summary.clone(),
                    call_id: a.call_id.clone(),
                })
                .collect();
            Some(RoleCard {
                role: role.words(),
                member: m.name.clone(),
                model: shared.is_none().then(|| model_of(m)),
                status,
                verdict: latest.and_then(|a| verdict_of(&a.response)),
                verdict_words: latest
                    .and_then(|a| verdict_of(&a.response))
                    .map(|v| verdict_words(&v)),
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
        .filter(|c| ReviewState::step_of(c.call.step) == ReviewStep::Orchestrator)
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
                action_words: verdict_words(&wire_word(&d.action)),
                next_role: d.next_role.map(|r| wire_word(&r)),
                reason: d.reason.clone(),
                fanout: d.fanout.as_ref().map(|f| {
                    let roles: Vec<String> = f.roles.iter().map(wire_word).collect();
                    format!("{}: {}", fanout_words(&roles), f.instruction)
                }),
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
    let words = Refs::new(review);
    let mut artifacts = Vec::new();
    for (k, t) in record.triggers.iter().enumerate() {
        let mut refs = t.evidence_refs.clone();
        if !t.critic_response_ref.is_empty() {
            refs.push(t.critic_response_ref.clone());
        }
        artifacts.push(RuntimeArtifactView {
            id: format!("critic_trigger-{}", k + 1),
            title: format!(
                "The critic was called ({}): {}",
                k + 1,
                trigger_words(&wire_word(&t.reason_code))
            ),
            summary: words.of(&t.reason),
            refs: refs.iter().map(|r| (r.clone(), words.of(r))).collect(),
            json: pretty(t),
        });
    }
    for (k, p) in record.packets.iter().enumerate() {
        let mut refs = vec![p.source_response_ref.clone()];
        refs.extend(p.critic_trigger_ref.clone());
        artifacts.push(RuntimeArtifactView {
            id: format!("revision_packet-{}", k + 1),
            title: format!("Repair brief {} for the implementer", k + 1),
            summary: words.of(&p.repair_objective),
            refs: refs.iter().map(|r| (r.clone(), words.of(r))).collect(),
            json: pretty(p),
        });
    }
    for (k, f) in record.fanouts.iter().enumerate() {
        let roles: Vec<String> = f.items.iter().map(|i| wire_word(&i.role)).collect();
        let when = if f.execution == "parallel" {
            "at the same time"
        } else {
            "each role's calls at the same time, one role after another"
        };
        artifacts.push(RuntimeArtifactView {
            id: format!("fanout-{}", k + 1),
            title: format!("Fan-out {}: {}", k + 1, fanout_words(&roles)),
            summary: format!(
                "{} of {} asked for ran, {when}; their answers are advice and meet no gate. Asked: {}",
                f.bounds.executed_items, f.bounds.requested_items, f.instruction
            ),
            refs: f
                .items
                .iter()
                .map(|i| i.response_artifact.r#ref.clone())
                .filter(|r| !r.is_empty())
                .map(|r| (r.clone(), words.of(&r)))
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
                .map_or_else(|| "running".into(), |t| t.status.word().into()),
            words: r.run.as_ref().map_or_else(
                || "the sandbox is running the files".into(),
                |t| plain_values(&run_words(t)),
            ),
            implementation_words: words.of(&r.implementation),
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
            answer: h
                .answer
                .as_ref()
                .map(roundtable_engine::engine::PersonReply::words),
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
        let why: Vec<String> = unmet.iter().filter(|u| u.gate == gate).map(|u| words.of(&u.why)).collect();
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
        model: shared,
        run_id: review.config.run_id.clone(),
        iteration: (review.core.round, review.config.max_iterations),
        calls: (review.calls_started, review.config.max_iterations),
        finished: review.reconciliation().is_some(),
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

/// The refs a text names (`call-7`, `effect-1`, `critic_trigger-1`), in a person's words: a
/// call by who answered what ("Ivo (implementer)'s implementation, iteration 3"), a sandbox run
/// by its number ("run 1 in the sandbox"), an artifact by what it is.
pub struct Refs {
    /// Each ref and its words, longest ref first (so `call-12` is replaced before `call-1`).
    pairs: Vec<(String, String)>,
}

impl Refs {
    /// The refs of `review`'s calls, runs and artifacts.
    pub fn new(review: &ReviewState) -> Refs {
        use roundtable_engine::engine::Protocol;
        let mut pairs: Vec<(String, String)> = review
            .core
            .calls
            .iter()
            .map(|c| {
                let c = &c.call;
                (
                    c.id.clone(),
                    review.call_title(&c.member, ReviewState::step_of(c.step), c.round),
                )
            })
            .collect();
        for (k, r) in review.record.runs.iter().enumerate() {
            pairs.push((r.effect_id.clone(), format!("run {} in the sandbox", k + 1)));
        }
        for k in 0..review.record.triggers.len() {
            pairs.push((
                format!("critic_trigger-{}", k + 1),
                format!("the critic's call ({})", k + 1),
            ));
        }
        for k in 0..review.record.packets.len() {
            pairs.push((
                format!("revision_packet-{}", k + 1),
                format!("repair brief {}", k + 1),
            ));
        }
        for k in 0..review.record.fanouts.len() {
            pairs.push((format!("fanout-{}", k + 1), format!("fan-out {}", k + 1)));
        }
        pairs.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        Refs { pairs }
    }

    /// `text` (a ref, or words naming refs) with every ref it names in words (a ref inside a
    /// longer word is left alone).
    pub fn of(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (r, words) in &self.pairs {
            let mut at = 0;
            while let Some(i) = out[at..].find(r.as_str()) {
                let start = at + i;
                let end = start + r.len();
                let next = out[end..].chars().next();
                if next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                    at = end;
                    continue;
                }
                out.replace_range(start..end, words);
                at = start + words.len();
            }
        }
        out
    }
}

/// A verdict, status or action as `004` spells it, in a person's words.
pub fn verdict_words(word: &str) -> &'static str {
    match word {
        "pass" => "passed",
        "needs_revision" => "asks for changes",
        "needs_more_evidence" => "needs more evidence",
        "blocked" => "blocked",
        "approve" => "approved",
        "revise" => "asks for a revision",
        "abort" => "says stop",
        "ask_user" => "asks you",
        "acceptable" => "acceptable",
        "unsafe" => "unsafe",
        "unclear" => "unclear",
        "changed" => "changed files",
        "no_change" => "changed nothing",
        "failed" => "failed",
        "complete" => "complete",
        "partial" => "partly done",
        "off_plan" => "left the plan",
        "delegate" => "hands work over",
        "verify" => "asks for verification",
        "critique" => "asks the critic",
        "request_approval" => "asks for your approval",
        "revise_plan" => "asks for a plan",
        _ => "answered",
    }
}

/// A trigger's reason code in words.
fn trigger_words(code: &str) -> &'static str {
    match code {
        "qa_failed" => "QA found a failure",
        "qa_inconclusive" => "QA could not judge",
        "verifier_failed" => "the verifier asked for changes",
        "verifier_inconclusive" => "the verifier asked you",
        _ => "a review disagreed with the runtime's own run",
    }
}

/// "2 researchers", "1 QA tester".
fn plural_role(role: &str, n: u32) -> String {
    let one = match role {
        "qa" => "QA tester",
        "planner" => "planner",
        "researcher" => "researcher",
        "verifier" => "verifier",
        "critic" => "critic",
        other => other,
    };
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// A member's model by its name.
fn model_of(m: &super::config::ReviewMember) -> String {
    roundtable_engine::text::model_name(&format!("{}/{}", m.model.provider, m.model.model))
}

/// The one model every role runs on, by name, when they share one: the page and the report
/// then say it once.
fn shared_model(review: &ReviewState) -> Option<String> {
    roundtable_engine::text::shared_model_name(
        review
            .config
            .members
            .iter()
            .map(|m| format!("{}/{}", m.model.provider, m.model.model)),
    )
}

/// A fan-out's calls in words, by role in the order they run: "2 researchers at the same time",
/// "2 researchers, then 1 critic".
fn fanout_words(roles: &[String]) -> String {
    let mut groups: Vec<(&str, u32)> = Vec::new();
    for role in roles {
        match groups.iter_mut().find(|(r, _)| r == role) {
            Some((_, n)) => *n += 1,
            None => groups.push((role, 1)),
        }
    }
    let said: Vec<String> = groups.iter().map(|(r, n)| plural_role(r, *n)).collect();
    match said.as_slice() {
        [one] => format!("{one} at the same time"),
        _ => said.join(", then "),
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

/// The run's account as Markdown, for the report download: what happened, told by who did
/// it — each iteration's decision and the answers that followed, the approvals, the
/// runtime's runs, the gates, the reconciliation, the plans and reports and the files —, with
/// the runtime's records as written in an appendix at the end, folded in a `<details>` (the one
/// raw-HTML construct the report keeps). Models are named as people name them, once when every
/// role shares one.
pub fn markdown(review: &ReviewState) -> String {
    use roundtable_engine::engine::Protocol;
    let v = view_of(review);
    let words = Refs::new(review);
    let mut s = format!(
        "# Review loop: {}

",
        first_line(&v.goal)
    );
    s.push_str(&format!(
        "**Goal.** {}

",
        v.goal.trim()
    ));
    s.push_str(&match v.end {
        Some(end) if v.finished => format!("**How it ended.** The run {end}.\n\n"),
        Some(end) => format!("**Where it stands.** The run is closing: {end}.\n\n"),
        None => format!(
            "**Where it stands.** Still running: iteration {}, {} of {} calls used.\n\n",
            v.iteration.0, v.calls.0, v.calls.1
        ),
    });
    s.push_str("## Who took part\n");
    let shared = shared_model(review);
    if let Some(model) = &shared {
        s.push_str(&format!("Every role ran on one model: {model}.\n\n"));
    }
    for m in &review.config.members {
        let roles: Vec<&str> = m.roles.iter().map(|r| r.words()).collect();
        let on = match shared {
            Some(_) => String::new(),
            None => format!(", on {}", model_of(m)),
        };
        s.push_str(&format!("- {}: {}{on}\n", m.name, roles.join(" and ")));
    }
    s.push_str("\n## What happened\n");
    let mut round = 0;
    for c in &review.core.calls {
        let Some(a) = review.record.answer(&c.call.id) else {
            continue;
        };
        if a.round != round {
            round = a.round;
            s.push_str(&format!("\n### Iteration {round}\n"));
        }
        let who = review.member_name(&a.member);
        let line = match &a.response.payload {
            Payload::Decision(d) if a.step == ReviewStep::Orchestrator => format!(
                "{who} {}{}: {}",
                verdict_words(&wire_word(&d.action)),
                d.next_role
                    .map(|r| format!(
                        " (to the {})",
                        plural_role(&wire_word(&r), 1).trim_start_matches("1 ")
                    ))
                    .unwrap_or_default(),
                d.reason
            ),
            _ => {
                let verdict = verdict_of(&a.response)
                    .map(|w| format!(" ({})", verdict_words(&w)))
                    .unwrap_or_default();
                format!("{who}{verdict}: {}", a.response.summary)
            }
        };
        s.push_str(&format!("- {}\n", words.of(&line)));
    }
    if !v.approvals.is_empty() {
        s.push_str("\n## Approvals\n");
        for a in &v.approvals {
            s.push_str(&format!(
                "- Iteration {}, {}: {} {}\n",
                a.iteration,
                if a.by_policy {
                    "approved by the policy".to_string()
                } else {
                    format!("{} asked", a.asked_by)
                },
                a.message.trim(),
                a.answer.as_deref().unwrap_or("Waiting for you.")
            ));
        }
    }
    if !v.runs.is_empty() {
        s.push_str("\n## The runtime's runs in the sandbox\n");
        for (k, r) in v.runs.iter().enumerate() {
            s.push_str(&format!(
                "- Run {} (the files after {}): {}\n",
                k + 1,
                r.implementation_words,
                r.words
            ));
        }
    }
    s.push_str("\n## Gates\n");
    for g in &v.gates {
        s.push_str(&format!(
            "- {}: {}{}\n",
            g.name,
            if g.met { "met" } else { "not met" },
            if g.met {
                String::new()
            } else {
                format!(" ({})", g.why)
            }
        ));
    }
    if let Some(r) = &v.reconciliation {
        s.push_str(&format!(
            "\n## The orchestrator's account: {}\n",
            verdict_words(&r.status)
        ));
        for c in &r.satisfied {
            s.push_str(&format!("- Met: {c}\n"));
        }
        for m in &r.missing {
            s.push_str(&format!("- Not done: {m}\n"));
        }
        if !r.next_slice.is_empty() {
            s.push_str(&format!("\nNext: {}\n", r.next_slice));
        }
        if let Some(md) = &r.markdown {
            s.push_str(&format!("\n{}\n", md.trim_end()));
        }
    }
    for r in &v.reports {
        s.push_str(&format!(
            "\n## {} (from {})\n{}\n",
            r.title,
            words.of(&r.call_id),
            r.markdown.trim_end()
        ));
    }
    s.push_str("\n## Files\n");
    for f in review.record.current_files() {
        s.push_str(&format!(
            "\n{}",
            roundtable_engine::text::file_section(&f.path, &f.content)
        ));
    }
    if !v.artifacts.is_empty() {
        // Last, after the account, folded: the one `<details>` construct the app's renderer
        // writes as its own tags and the report's defanging keeps (`safe_markdown`).
        s.push_str(
            "\n## Appendix\n\n<details>\n<summary>The runtime's records, as written</summary>\n",
        );
        for a in &v.artifacts {
            s.push_str(&format!(
                "\n### {}\n{}\n\n```json\n{}\n```\n",
                a.title, a.summary, a.json
            ));
        }
        s.push_str("\n</details>\n");
    }
    s
}

/// `text` with every JSON object, list or string in it said in words: the sandbox's assertion
/// messages quote values as JSON (`expected {"a":"1"}, got {}`), which a person reads on the page
/// and in the report as "expected an object with a “1”, got an empty object".
pub fn plain_values(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find(['{', '[', '"']) {
        out.push_str(&rest[..k]);
        let tail = &rest[k..];
        let mut values = serde_json::Deserializer::from_str(tail).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => {
                out.push_str(&value_words(&value, 0));
                rest = &tail[values.byte_offset()..];
            }
            _ => {
                out.push_str(&tail[..1]);
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A JSON value in words: texts in quotes, lists and objects by what they hold (three levels
/// deep, then "…"; an object's keys in sorted order).
fn value_words(value: &Value, depth: usize) -> String {
    let inner = |v: &Value| value_words(v, depth + 1);
    match value {
        Value::Null => "nothing".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.is_empty() => "an empty text".into(),
        Value::String(s) => format!("“{s}”"),
        Value::Array(a) if a.is_empty() => "an empty list".into(),
        Value::Object(o) if o.is_empty() => "an empty object".into(),
        _ if depth >= 3 => "…".into(),
        Value::Array(a) => format!(
            "a list of {}",
            and_list(a.iter().map(inner).collect::<Vec<_>>())
        ),
        Value::Object(o) => format!(
            "an object with {}",
            and_list(
                o.iter()
                    .map(|(k, v)| format!(
                        "{} {}",
                        if k.is_empty() { "(no name)" } else { k },
                        inner(v)
                    ))
                    .collect::<Vec<_>>()
            )
        ),
    }
}

/// "a", "a and b", "a, b and c".
fn and_list(items: Vec<String>) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The first line of `text`, cut to a title's length.
fn first_line(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or("");
    roundtable_engine::text::cut_at_word(line, 80).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sandbox's assertion messages quote values as JSON; the page and the report say them
    /// in words, and leave the rest of the message (a lone quote or brace included) as it was.
    /// A fan-out's calls are said by role in the order they ran, and only a one-role fan-out
    /// is said to run at the same time.
    #[test]
    fn a_fanout_is_said_role_by_role() {
        let roles = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            fanout_words(&roles(&["researcher", "researcher"])),
            "2 researchers at the same time"
        );
        assert_eq!(
            fanout_words(&roles(&["researcher", "critic", "researcher", "qa"])),
            "2 researchers, then 1 critic, then 1 QA tester"
        );
    }

    #[test]
    fn a_failed_runs_values_are_said_in_words() {
        let said = plain_values(
            r##"skips blanks fails: AssertionError: expected {"a":"1","b":"2"}, got {"a":"1","":"","# note":""}; x fails: expected [1,2], got "3"; a { alone"##,
        );
        assert_eq!(
            said,
            "skips blanks fails: AssertionError: expected an object with a “1” and b “2”, got an object with (no name) an empty text, # note an empty text and a “1”; x fails: expected a list of 1 and 2, got “3”; a { alone"
        );
        assert_eq!(
            plain_values(r#"expected {"a":{"b":{"c":{"d":1}}}}, got null, {}, []"#),
            "expected an object with a an object with b an object with c …, got null, an empty object, an empty list"
        );
        for raw in [r#"{"a":1}"#, r#"[{"k":[true]}]"#, r#""quoted""#] {
            let said = plain_values(raw);
            assert!(!said.contains(['{', '[', '"']), "{raw} said as {said}");
        }
    }
    use crate::{demo, ReviewSession};
    use roundtable_engine::engine::ModelRef;

    /// The report names models as people do: once when every role shares one, else beside each
    /// member — never a `provider/model` id.
    #[test]
    fn the_report_names_models_once_when_every_role_shares_one() {
        let demo_model = ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        };
        let s = ReviewSession::new(demo::config(demo_model, "run-models"), 0).unwrap();
        let report = markdown(s.state());
        assert!(report.contains("Every role ran on one model: demo model."));
        assert!(!report.contains("demo/demo-1"), "{report}");
        let mut config = demo::config(
            ModelRef {
                provider: "openai".into(),
                model: "gpt-4o-mini".into(),
            },
            "run-models-2",
        );
        config.members[0].model = ModelRef {
            provider: "anthropic".into(),
            model: "claude-sonnet".into(),
        };
        let s = ReviewSession::new(config, 0).unwrap();
        let report = markdown(s.state());
        assert!(!report.contains("Every role ran on one model"));
        assert!(report.contains(", on claude-sonnet\n"), "{report}");
        assert!(report.contains(", on gpt-4o-mini\n"), "{report}");
        assert!(!report.contains("openai/"), "{report}");
    }

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
        roundtable_engine::demo::play_demo(&mut s, &mut now, 80).unwrap();
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
