//! What an answer must say beyond its shape, whatever the run: the rules that read the answer
//! alone. [`check`] runs them after the answer's shape ([`super::answer::read`]), so the validator on its own (the JS
//! package's `checkReviewAnswer`) refuses exactly what the engine refuses for the answer's own
//! sake; what depends on the run (its gates, its mode, the task's paths, the plan) is
//! [`ReviewState::problems`](super::Review)'s.
//!
//! - A decision that delegates names its role (never the integrator this app lacks) and carries
//!   a task; only the implementer's task may edit; `request_approval` asks with a reason; a
//!   fan-out is delegated to its first call's role.
//! - An implementation lists every file it hands over in `changed_files`, hands over every
//!   added or modified file whole in `files` (our extension, so required only when files
//!   change), writes relative paths, and says `changed` exactly when files changed.
//! - A verifier's approval fails no criterion and names its evidence.
//! - A reconciliation that is `complete` leaves no plan item missing, and one that needs the
//!   person's decision says what to decide.

use super::answer::{
    read, Action, ChangeType, Contract, Decision, Implementation, ImplementationStatus, NextRole,
    Payload, ReadOnlyRole, Reconciliation, ReconciliationStatus, Response, Verification,
    VerifierVerdict,
};
use super::directive::Directive;
use roundtable_engine::validate::{Options, Violation};

/// A raw answer to a call of `contract` checked whole against its schema, its `directive` and
/// the rules it must keep on its own (here): every violation at once, else the
/// answer.
pub fn check(
    contract: Contract,
    raw: &str,
    directive: &Directive,
    options: Options,
    warnings: &mut Vec<Violation>,
) -> Result<Response, Vec<Violation>> {
    let (response, mut errors) = read(contract, raw, directive, options, warnings);
    let response = response.ok_or_else(|| errors.clone())?;
    errors.extend(answer_problems(&response));
    if errors.is_empty() {
        Ok(response)
    } else {
        Err(errors)
    }
}

/// Every rule of its own `response` breaks; empty when the answer says what it must.
pub fn answer_problems(response: &Response) -> Vec<Violation> {
    let mut out = Vec::new();
    match &response.payload {
        Payload::Decision(d) => decision(d, &mut out),
        Payload::Implementation(i) => implementation(i, &mut out),
        Payload::Verification(v) => verification(v, &mut out),
        Payload::Reconciliation(r) => reconciliation(r, &mut out),
        _ => {}
    }
    out
}

/// The role's name in a person's words, for a `next_role`.
pub(super) fn next_role_words(role: NextRole) -> &'static str {
    match role {
        NextRole::Planner => "planner",
        NextRole::Researcher => "researcher",
        NextRole::Implementer => "implementer",
        NextRole::Qa => "QA tester",
        NextRole::Verifier => "verifier",
        NextRole::Critic => "critic",
        NextRole::Integrator => "integrator",
    }
}

/// The `next_role` of a fan-out's role.
pub(super) fn next_role_of(role: ReadOnlyRole) -> NextRole {
    match role {
        ReadOnlyRole::Planner => NextRole::Planner,
        ReadOnlyRole::Researcher => NextRole::Researcher,
        ReadOnlyRole::Qa => NextRole::Qa,
        ReadOnlyRole::Verifier => NextRole::Verifier,
        ReadOnlyRole::Critic => NextRole::Critic,
    }
}

fn decision(d: &Decision, out: &mut Vec<Violation>) {
    let at = |field: &str| format!("/data/decision/{field}");
    if d.action == Action::Delegate {
        match (d.next_role, &d.task) {
            (None, _) => out.push(Violation::at(
                at("next_role"),
                "delegate names no role".into(),
                "planner, researcher, implementer, qa, verifier or critic",
                "null",
                "name the role that does the task",
            )),
            (Some(NextRole::Integrator), _) => out.push(Violation::at(
                at("next_role"),
                "this run has no integrator".into(),
                "planner, researcher, implementer, qa, verifier or critic",
                "integrator",
                "delegate to a role of the run",
            )),
            (Some(_), None) => out.push(Violation::at(
                at("task"),
                "delegate carries no task".into(),
                "a task with its objective and acceptance criteria",
                "null",
                "write the task the role is to do",
            )),
            (Some(role), Some(task)) => {
                if role != NextRole::Implementer && task.tool_permissions.edit {
                    out.push(Violation::at(
                        at("task/tool_permissions/edit"),
                        format!(
                            "only the implementer edits: the {} judges or advises on work it does not write",
                            next_role_words(role)
                        ),
                        "false",
                        "true",
                        "delegate the change to the implementer",
                    ));
                }
            }
        }
    }
    if d.action == Action::RequestApproval
        && (!d.approval_request.required || d.approval_request.reason.is_none())
    {
        out.push(Violation::at(
            at("approval_request"),
            "request_approval asks the person nothing".into(),
            "required: true with the reason the person reads",
            "required: false or no reason",
            "set required to true and say what the person approves",
        ));
    }
    if let Some(f) = &d.fanout {
        let first = f.roles.first().copied().map(next_role_of);
        let matches = d.action == Action::Delegate && first.is_some() && d.next_role == first;
        if !matches {
            out.push(Violation::at(
                at("fanout"),
                "a fan-out is delegated to its first call's role: action delegate with next_role that role".into(),
                "action delegate and next_role equal to fanout.roles[0]",
                "another action or role",
                "delegate to the role of the fan-out's first call, or leave fanout null",
            ));
        }
    }
}

fn implementation(i: &Implementation, out: &mut Vec<Violation>) {
    let at = |rest: String| format!("/data/implementation_result/{rest}");
    for (n, f) in i.files.iter().enumerate() {
        let p = f.path.as_str();
        if p.starts_with('/') || p.contains('\\') || p.split('/').any(|s| s == ".." || s.is_empty())
        {
            out.push(Violation::at(
                at(format!("files/{n}/path")),
                "a path must be relative, with / between parts and no ..".into(),
                "a relative path like lib/parse.js",
                p,
                "write the path relative to the project's root",
            ));
            continue;
        }
        let listed = i.changed_files.iter().any(|c| {
            c.path == f.path
                && matches!(
                    c.change_type,
                    ChangeType::Added | ChangeType::Modified | ChangeType::Renamed
                )
        });
        if !listed {
            out.push(Violation::at(
                at(format!("files/{n}")),
                "a file handed over is not in changed_files".into(),
                "a changed_files entry for every file",
                p,
                "list the file in changed_files with its change_type and summary",
            ));
        }
    }
    let writes = |c: &&super::answer::ChangedFile| {
        matches!(c.change_type, ChangeType::Added | ChangeType::Modified)
    };
    if i.files.is_empty() && i.changed_files.iter().any(|c| writes(&c)) {
        out.push(Violation::at(
            at("files".into()),
            "files changed but their contents are missing: this run holds no repository, so every added or modified file is handed over whole in files".into(),
            "files: [{\"path\", \"content\"}] for every added or modified file",
            "no files",
            "add files with the whole content of each added or modified file",
        ));
    } else {
        for (n, c) in i
            .changed_files
            .iter()
            .enumerate()
            .filter(|(_, c)| writes(c))
        {
            if !i.files.iter().any(|f| f.path == c.path) {
                out.push(Violation::at(
                    at(format!("changed_files/{n}")),
                    "this file is said to change but its content is not in files".into(),
                    "the whole file in files",
                    &c.path,
                    "hand over every added or modified file whole in files",
                ));
            }
        }
    }
    let changed = !i.changed_files.is_empty();
    let status_ok = match i.status {
        ImplementationStatus::Changed => changed,
        ImplementationStatus::NoChange => !changed,
        _ => true,
    };
    if !status_ok {
        out.push(Violation::at(
            at("status".into()),
            "the status does not match changed_files".into(),
            if changed { "changed" } else { "no_change" },
            if changed { "no_change" } else { "changed" },
            "say changed when changed_files lists files, no_change when it is empty",
        ));
    }
}

fn verification(v: &Verification, out: &mut Vec<Violation>) {
    let at = |rest: &str| format!("/data/verification_result/{rest}");
    if v.verdict == VerifierVerdict::Approve {
        if !v.failed_criteria.is_empty() {
            out.push(Violation::at(
                at("verdict"),
                "an approval cannot leave criteria failed".into(),
                "revise (criteria fail) or approve with failed_criteria empty",
                "approve",
                "say revise, or empty failed_criteria if every criterion holds",
            ));
        }
        if v.evidence.is_empty() {
            out.push(Violation::at(
                at("evidence"),
                "an approval names the evidence it rests on".into(),
                "at least one evidence item (the runtime's test run, a file read)",
                "[]",
                "cite the runtime's run and the files you read",
            ));
        }
    }
}

fn reconciliation(r: &Reconciliation, out: &mut Vec<Violation>) {
    let at = |rest: &str| format!("/data/reconciliation_result/{rest}");
    if r.status == ReconciliationStatus::Complete && !r.missing_plan_items.is_empty() {
        out.push(Violation::at(
            at("missing_plan_items"),
            "a complete run has no plan item missing".into(),
            "[] (or status partial)",
            &r.missing_plan_items.join(" | "),
            "say partial while a plan item is missing",
        ));
    }
    let reason = r
        .user_decision_reason
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty());
    if r.needs_user_decision && !reason {
        out.push(Violation::at(
            at("user_decision_reason"),
            "needs_user_decision is true but the decision is not said".into(),
            "what the person must decide, in a sentence",
            "null",
            "say what the person must decide in user_decision_reason",
        ));
    }
}
