//! What a review-loop call sends: the role's charter (the system message) and the directive (the
//! user message) — `004`'s run variables, the role's task, the evidence the runtime hands it, and
//! the answer it must give, acknowledgement included. A fresh directive every call: a role reads
//! the run as it stands, never a growing chat.
//!
//! Each answer's example is built here, shown in the schema's field order, and checked by this
//! module's tests against the contract's own check, so the example a model copies is always a
//! valid answer.

use serde_json::{json, Value};

use super::answer::{Contract, ACK_FIELD};
use super::config::{ApprovalMode, ReviewConfig, Role, RunMode};
use super::directive::Directive;

/// The work one call is asked to do, as the orchestrator's decision framed it (or, for the
/// orchestrator itself, what it is to decide).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Brief {
    /// What the role is to achieve.
    pub objective: String,
    /// How the result will be judged.
    pub acceptance_criteria: Vec<String>,
    /// Paths the role may write.
    pub allowed_paths: Vec<String>,
    /// Paths the role must leave alone.
    pub disallowed_paths: Vec<String>,
}

/// One piece of context the runtime hands a call: a titled section (the plan, the latest files,
/// a test run, a revision packet…), written whole by the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    /// The section's heading.
    pub title: String,
    /// Its text (Markdown).
    pub text: String,
}

/// How the runtime checks an implementation, as the implementer reads it.
const RUN_RULES: &str = "How your files are checked: the runtime runs every file as it stands in a sandbox with no network. It runs JavaScript only: .js, .mjs or .cjs files, joined by require('./relative.js') or by import/export. Tests are files named *.test.js (or .test.mjs, .test.cjs) calling test('name', () => { … }) with assert(value), assert.equal, assert.deepEqual and assert.throws (also importable from node:assert and node:test). The runtime's gate is met only when that run passes, every test and every acceptance test included.\n";

/// The role's charter: who it is and what it may and may not do.
pub fn charter(role: Role) -> &'static str {
    match role {
        Role::Orchestrator => "You are the orchestrator of a review loop. You decide each next move: which role works next and on what, when to verify, when to ask the person, when the run is complete. You do not write the work yourself. A runtime carries out your decision and holds gates you cannot skip: the run completes only after the verifier approved the latest implementation and the runtime's own checks passed on it.",
        Role::Planner => "You are the planner of a review loop. You turn the goal into a plan of small, verifiable slices, each with acceptance criteria a verifier can check. You do not write the work yourself.",
        Role::Researcher => "You are the researcher of a review loop. You find the facts the plan needs and say where each comes from. You change nothing.",
        Role::Implementer => "You are the implementer of a review loop. You write the files the task asks for inside the paths it allows, and hand over every file you add or change whole. Another member verifies your work; your own claims count for nothing there.",
        Role::Qa => "You are the QA tester of a review loop. You look for cases the implementation gets wrong and suggest checks that would show it. Your verdict is advisory: the runtime's own test run decides.",
        Role::Verifier => "You are the verifier of a review loop. You judge the latest implementation against each acceptance criterion, from evidence only: its files, the runtime's test run, the diff. You never take the implementer's word for it.",
        Role::Critic => "You are the critic of a review loop. You look for what the others missed: risks, unsafe changes, simpler paths. You change nothing.",
    }
}

fn list(out: &mut String, heading: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("{heading}:\n"));
    for item in items {
        out.push_str(&format!("- {item}\n"));
    }
}

fn mode_words(mode: RunMode) -> &'static str {
    match mode {
        RunMode::Plan => "plan (write a plan; change no files)",
        RunMode::Implement => "implement (change files)",
        RunMode::Review => "review (judge existing work)",
        RunMode::Research => "research (find things out; change no files)",
    }
}

/// The directive of one call: the run, the task, the evidence, and the answer asked for.
/// `calls_used` is how many calls the run has started, this one included.
pub fn directive(
    config: &ReviewConfig,
    role: Role,
    contract: Contract,
    ack: &Directive,
    calls_used: u32,
    brief: &Brief,
    evidence: &[Evidence],
) -> String {
    let mut out = String::new();
    out.push_str("## The run\n");
    out.push_str(&format!("Goal: {}\n", config.user_goal.trim()));
    out.push_str(&format!("Mode: {}\n", mode_words(config.mode)));
    if !config.current_state_summary.trim().is_empty() {
        out.push_str(&format!(
            "Where the work stands: {}\n",
            config.current_state_summary.trim()
        ));
    }
    list(&mut out, "Constraints", &config.constraints);
    list(&mut out, "The run writes only under", &config.allowed_paths);
    list(
        &mut out,
        "The run never writes under",
        &config.disallowed_paths,
    );
    list(&mut out, "Success criteria", &config.success_criteria);
    list(
        &mut out,
        "Protected test paths (only the person may let them change)",
        &config.protected_test_paths,
    );
    let acceptance: Vec<String> = config
        .acceptance_tests
        .iter()
        .map(|t| t.path.clone())
        .collect();
    list(
        &mut out,
        "Acceptance tests (the person's: protected, and run with every implementation)",
        &acceptance,
    );
    if role == Role::Implementer {
        out.push_str(RUN_RULES);
    }
    if role == Role::Orchestrator && contract == Contract::Decision {
        out.push_str(&format!(
            "Calls used: {calls_used} of at most {} (every call counts: yours, each role's, and the runtime's own critic, repairs and rechecks).\n",
            config.max_iterations
        ));
        let roles: Vec<&str> = config
            .available_worker_types
            .iter()
            .map(|r| r.words())
            .collect();
        out.push_str(&format!("Roles in this run: {}.\n", roles.join(", ")));
        out.push_str(&format!(
            "Risk level (the person's): {}.\n",
            config.risk_level.word()
        ));
        list(&mut out, "Stop when", &config.stop_conditions);
        let policy = &config.approval_policy;
        let waits: Vec<&str> = [
            (policy.edit_requires_approval, "every implementation"),
            (
                policy.dependency_install_requires_approval,
                "a new dependency",
            ),
            (
                policy.network_requires_approval,
                "anything that reaches the network",
            ),
        ]
        .into_iter()
        .filter_map(|(on, what)| on.then_some(what))
        .collect();
        if !waits.is_empty() {
            out.push_str(&format!(
                "Needs the person's approval: {}.\n",
                waits.join(", ")
            ));
        }
        out.push_str(match config.approval_mode {
            ApprovalMode::Manual => "Approval mode: manual (whatever the policy names waits for the person).\n",
            ApprovalMode::AutoLowRisk => "Approval mode: auto while risk is low (otherwise whatever the policy names waits for the person).\n",
            ApprovalMode::Autopilot => "Approval mode: autopilot (only your request_approval and protected test paths wait for the person).\n",
        });
        out.push_str(&format!(
            "A fan-out runs at most {} read-only calls, one role each (fanout.roles, in order; delegate to the first call's role); the calls of one role run at once, the roles one after another; its answers are advice and satisfy no gate.\n",
            config.fanout_max
        ));
    }
    // The orchestrator decides and reconciles against what the run must hand over.
    if role == Role::Orchestrator && !config.output_contract.trim().is_empty() {
        out.push_str(&format!(
            "The run must hand over: {}\n",
            config.output_contract.trim()
        ));
    }
    out.push_str("\n## Your task\n");
    out.push_str(&format!("{}\n", brief.objective.trim()));
    list(&mut out, "Acceptance criteria", &brief.acceptance_criteria);
    list(&mut out, "You may write", &brief.allowed_paths);
    list(&mut out, "Leave alone", &brief.disallowed_paths);
    for e in evidence {
        out.push_str(&format!("\n## {}\n{}\n", e.title, e.text.trim_end()));
    }
    out.push_str("\n## Your answer\n");
    out.push_str(&format!(
        "One JSON object, nothing around it. Your part goes under data.{key}, ending with {ACK_FIELD} exactly as shown: it tells the runtime this answer is to this directive. For example:\n{example}\n",
        key = contract.key(),
        example = contract
            .in_field_order(&example(contract, ack))
            .unwrap_or_default(),
    ));
    out.push_str("status is \"ok\" when the work asked for is done, even when your verdict is a failure; \"blocked\" when you cannot go on without something you lack (say what in summary); \"failed\" when you tried and could not. Long text (a plan, a report, a review) goes in markdown as GitHub-flavored Markdown, not in nested JSON.\n");
    out
}

/// A valid answer to `contract` under `ack`: the example the directive shows.
pub fn example(contract: Contract, ack: &Directive) -> Value {
    // Each payload as JSON text (read when a directive is written): text costs the app less
    // than the code a `json!` literal compiles to.
    let (summary, payload) = match contract {
        Contract::Decision => (
            "Delegate the parser to the implementer.",
            r#"{"action":"delegate","reason":"The plan is settled and the parser is its first slice.","markdown":null,"confidence":"medium","next_role":"implementer","task":{"objective":"Write parse.js: key=value lines into an object.","allowed_paths":["parse.js","parse.test.js"],"disallowed_paths":[],"acceptance_criteria":["Blank lines and # comments are skipped."],"tool_permissions":{"read":true,"edit":true,"shell":false,"network":false}},"approval_request":{"required":false,"reason":null,"options":[]},"stop":{"should_stop":false,"reason":null},"fanout":null}"#,
        ),
        Contract::Research => (
            "INI comments take two markers.",
            r#"{"markdown":null,"findings":["INI files mark comments with ; as well as # (the format's common readers accept both)."],"open_questions":[]}"#,
        ),
        Contract::Implementation => (
            "parse.js is written.",
            r#"{"status":"changed","markdown":null,"changed_files":[{"path":"parse.js","change_type":"added","summary":"The parser."}],"protected_file_changes":[],"commands_run":[],"notes":[],"unresolved_risks":[],"files":[{"path":"parse.js","content":"module.exports = (text) => Object.fromEntries(text.split('\\n').filter((l) => l.includes('=')).map((l) => l.split('=')));\n"}]}"#,
        ),
        Contract::Qa => (
            "One case is not covered.",
            r#"{"verdict":"needs_revision","summary":"A line without = is neither tested nor refused.","markdown":null,"suggested_commands":[],"risks":["A line without = is dropped silently."]}"#,
        ),
        Contract::Verification => (
            "Both criteria hold.",
            r#"{"verdict":"approve","summary":"Both criteria hold; the runtime's test run passed.","markdown":null,"evidence":[{"kind":"test_log","ref":"the runtime's test run","finding":"4 of 4 tests passed."}],"failed_criteria":[],"risks":[],"next_action":{"role":"orchestrator","instruction":"Reconcile and finish."}}"#,
        ),
        Contract::Critique => (
            "The error path needs a test.",
            r#"{"verdict":"needs_revision","markdown":null,"blocking_concerns":["A line without = is dropped silently."],"non_blocking_concerns":[],"alternative_paths":[],"recommended_next_action":"Refuse a line without =, naming its number, and test it."}"#,
        ),
        Contract::Reconciliation => (
            "The slice is complete.",
            r#"{"status":"complete","markdown":null,"completed_plan_items":["Write the parser."],"satisfied_criteria":["Blank lines and # comments are skipped."],"missing_plan_items":[],"deviations":[],"next_recommended_slice":{"objective":"Unescape quoted values.","rationale":"The one risk left open.","acceptance_criteria":[]},"needs_user_decision":false,"user_decision_reason":null}"#,
        ),
    };
    let mut payload: Value = serde_json::from_str(payload).unwrap_or_default();
    payload[ACK_FIELD] =
        json!({"runId": ack.run_id, "nonce": ack.nonce, "responseField": ACK_FIELD});
    json!({"status": "ok", "summary": summary, "data": {contract.key(): payload}})
}

#[cfg(test)]
mod tests {
    use super::super::config::ApprovalPolicy;
    use super::super::rules::check;
    use super::*;
    use roundtable_engine::validate::Options;

    /// The tests' run, with the variables a directive shows filled in.
    fn config() -> ReviewConfig {
        let mut config = super::super::tests::config();
        config.current_state_summary = "Nothing written yet.".into();
        config.constraints = vec!["Plain JavaScript, no dependencies.".into()];
        config.approval_policy = ApprovalPolicy {
            edit_requires_approval: false,
            dependency_install_requires_approval: true,
            network_requires_approval: true,
        };
        config.stop_conditions = vec!["The person rejects an approval.".into()];
        config.output_contract = "parse.js with its tests passing.".into();
        config
    }

    #[test]
    fn every_example_is_a_valid_answer_under_its_directive() {
        let ack = Directive::for_call("run-1", "call-4", ["call-1", "call-2", "call-3"]);
        for contract in Contract::ALL {
            let raw = serde_json::to_string_pretty(&example(contract, &ack)).unwrap();
            let mut warnings = Vec::new();
            let checked = check(contract, &raw, &ack, Options::default(), &mut warnings);
            assert!(checked.is_ok(), "{contract:?}: {checked:#?}");
            assert!(warnings.is_empty(), "{contract:?}: {warnings:#?}");
        }
    }

    #[test]
    fn the_orchestrators_and_the_implementers_directives_read_as_a_model_reads_them() {
        let config = config();
        let ack = Directive::for_call("run-1", "call-4", ["call-1", "call-2", "call-3"]);
        let orchestrator = directive(
            &config,
            Role::Orchestrator,
            Contract::Decision,
            &ack,
            3,
            &Brief {
                objective: "Decide the next move.".into(),
                ..Brief::default()
            },
            &[Evidence {
                title: "The verifier's last verdict".into(),
                text: "revise: a line without = is dropped silently.".into(),
            }],
        );
        let implementer = directive(
            &config,
            Role::Implementer,
            Contract::Implementation,
            &ack,
            3,
            &Brief {
                objective: "Refuse a line without =, naming its number.".into(),
                acceptance_criteria: vec!["A line without = is an error naming its number.".into()],
                allowed_paths: vec!["parse.js".into()],
                disallowed_paths: vec!["parse.test.js".into()],
            },
            &[Evidence {
                title: "The revision packet".into(),
                text: "reasonCode: verifier_revise\nrepairObjective: Meet: A line without = is an error naming its number.".into(),
            }],
        );
        // The directive names this call's nonce once, in the example.
        assert_eq!(implementer.matches(&ack.nonce).count(), 1);
        insta::assert_snapshot!(
            "review_directives",
            format!(
                "# orchestrator\n[System]\n{}\n\n[User]\n{orchestrator}\n# implementer\n[System]\n{}\n\n[User]\n{implementer}",
                charter(Role::Orchestrator),
                charter(Role::Implementer)
            )
        );
    }
}
