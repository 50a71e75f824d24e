//! The demo model's review loop: every role answers from its directive's facts, so a run on the
//! demo model goes through everything `004` names — a plan, a fan-out of two researchers, the
//! orchestrator's approval request, an implementation whose tests fail in the sandbox, QA's
//! failing verdict, the critic the runtime summons, a revision packet, the repair, QA and the
//! verifier passing it, `complete` and the reconciliation.
//!
//! The implementer's files are real JavaScript: the app's sandbox runs them (the first version
//! fails two of its three tests); [`run`] is the sandbox's stand-in for playing natively.

use serde_json::{json, Value};

use super::answer::ACK_FIELD;
use super::config::{ReviewConfig, Role};
use super::runtime::RunEnd;
use super::{ReviewEnvelope, ReviewState, ReviewStep};
use roundtable_engine::code_run::{CodeFile, FileError, RunStatus, TestResult, TestRun};
use roundtable_engine::engine::ModelRef;

/// The demo run's goal.
pub const DEMO_GOAL: &str =
    "Write parse(text) for .env-style config files: key=value lines into an object.";

/// The demo run's success criteria.
pub const DEMO_CRITERIA: [&str; 3] = [
    "parse reads key=value pairs, trimming spaces around keys and values.",
    "Blank lines and lines starting with # are skipped.",
    "A line without = throws an error naming its line number.",
];

/// The parser as the implementer first writes it: blank lines, comments and lines without `=`
/// all slip through.
const PARSER_V1: &str = "// Parses key=value lines into an object.\nmodule.exports = function parse(text) {\n  const out = {};\n  for (const line of text.split('\\n')) {\n    const i = line.indexOf('=');\n    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();\n  }\n  return out;\n};\n";

/// The parser after the repair.
const PARSER_V2: &str = "// Parses key=value lines into an object; skips blank lines and # comments.\nmodule.exports = function parse(text) {\n  const out = {};\n  text.split('\\n').forEach((raw, n) => {\n    const line = raw.trim();\n    if (line === '' || line.startsWith('#')) return;\n    const i = line.indexOf('=');\n    if (i < 0) throw new Error(`line ${n + 1} has no =`);\n    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();\n  });\n  return out;\n};\n";

/// The tests, one per criterion (the demo implementer writes them; a run may hand them in as
/// the person's acceptance tests instead).
pub const TESTS: &str = "const parse = require('../lib/config.js');\n\ntest('reads key=value pairs', () => {\n  assert.deepEqual(parse('a=1\\nb = two'), { a: '1', b: 'two' });\n});\n\ntest('skips blank lines and # comments', () => {\n  assert.deepEqual(parse('a=1\\n\\n# note\\nb=2'), { a: '1', b: '2' });\n});\n\ntest('a line without = throws', () => {\n  assert.throws(() => parse('a=1\\noops'));\n});\n";

const PARSER: &str = "lib/config.js";
/// Where the demo's tests live.
pub const TEST_FILE: &str = "test/config.test.js";

/// A review loop on the demo model: the demo's goal and criteria, thehood's defaults.
pub fn config(model: ModelRef, run_id: &str) -> ReviewConfig {
    let mut config = ReviewConfig::standard(DEMO_GOAL, &DEMO_CRITERIA, model);
    config.run_id = run_id.to_string();
    config.constraints = vec!["Plain JavaScript (CommonJS), no dependencies.".into()];
    config.output_contract = "lib/config.js with its tests passing in the sandbox.".into();
    config
}

/// The demo's answer to `env`'s directive, from `member` (a fan-out slot answers as its own).
pub fn answer(config: &ReviewConfig, env: &ReviewEnvelope, member: &str) -> Value {
    let facts = &env.facts;
    let ack = json!({"runId": env.run_id, "nonce": env.nonce, "responseField": ACK_FIELD});
    let criteria: Vec<String> = config.success_criteria.clone();
    let passed = facts.latest_check == Some(true);
    let (summary, key, mut payload) = match env.step {
        ReviewStep::Orchestrator => orchestrator(config, env, &criteria),
        ReviewStep::Planner => (
            "The plan: one parser, its tests, in two slices.".to_string(),
            "decision",
            json!({
                "action": "revise_plan",
                "reason": "A parser this small is one slice of code and one of tests.",
                "markdown": "## Plan\n1. **lib/config.js**: `parse(text)` reads `key=value` lines, trims, skips blanks and `#` comments, throws on a line without `=`.\n2. **test/config.test.js**: one test per success criterion, run in the sandbox.\n\n| slice | done when |\n| --- | --- |\n| parser | every criterion holds |\n| tests | the sandbox passes all three |",
                "confidence": "high",
                "next_role": null, "task": null,
                "approval_request": {"required": false, "reason": null, "options": []},
                "stop": {"should_stop": false, "reason": null},
                "fanout": null,
            }),
        ),
        ReviewStep::Researcher => {
            let second = ReviewState::split_slot(member).1 == Some(2);
            let finding = if second {
                "dotenv skips lines starting with # and blank lines (dotenv README, \"Comments\")."
            } else {
                "dotenv trims whitespace around keys and unquoted values (dotenv README, \"Rules\")."
            };
            (
                "What .env parsers do with the edge cases.".into(),
                "research_result",
                json!({"markdown": null, "findings": [finding], "open_questions": []}),
            )
        }
        ReviewStep::Implementer => {
            let parser = if facts.repair { PARSER_V2 } else { PARSER_V1 };
            let mut files = vec![json!({"path": PARSER, "content": parser})];
            let mut changed = vec![
                json!({"path": PARSER, "change_type": if facts.implementations == 0 { "added" } else { "modified" }, "summary": if facts.repair { "Skips blanks and comments; throws on a line without =." } else { "parse reads key=value lines." }}),
            ];
            let handed_in = config.acceptance_tests.iter().any(|t| t.path == TEST_FILE);
            if facts.implementations == 0 && !handed_in {
                files.push(json!({"path": TEST_FILE, "content": TESTS}));
                changed.push(json!({"path": TEST_FILE, "change_type": "added", "summary": "One test per success criterion."}));
            }
            // A file under a protected test path is declared, with why (the person approves it).
            let protected: Vec<Value> = files
                .iter()
                .filter_map(|f| f["path"].as_str())
                .filter(|p| config.protected(p))
                .map(|p| json!({"path": p, "reason": "The tests of the success criteria, written with the code."}))
                .collect();
            (
                if facts.repair {
                    "Repaired the parser from the revision packet."
                } else {
                    "Wrote the parser and its tests."
                }
                .into(),
                "implementation_result",
                json!({
                    "status": "changed", "markdown": null, "changed_files": changed,
                    "protected_file_changes": protected, "commands_run": [], "notes": [],
                    "unresolved_risks": [], "files": files,
                }),
            )
        }
        ReviewStep::Qa => (
            if passed {
                "All three cases pass in the runtime's run."
            } else {
                "Blank lines and lines without = break the parser."
            }
            .into(),
            "qa_result",
            json!({
                "verdict": if passed { "pass" } else { "needs_revision" },
                "summary": if passed { "Every criterion has a passing test." } else { "The runtime's run fails the blank-line and missing-= tests." },
                "markdown": null, "suggested_commands": [],
                "risks": if passed { json!([]) } else { json!(["A blank line becomes an empty key.", "A line without = is read, not refused."]) },
            }),
        ),
        ReviewStep::Verifier => (
            if passed {
                "Approved: the latest files meet every criterion."
            } else {
                "Not yet: two criteria fail."
            }
            .into(),
            "verification_result",
            json!({
                "verdict": if passed { "approve" } else { "revise" },
                "summary": if passed { "Every criterion holds and the runtime's run passed." } else { "Criteria 2 and 3 fail in the runtime's run." },
                "markdown": null,
                "evidence": [{"kind": "test_log", "ref": "the runtime's latest run", "finding": if passed { "3 of 3 tests passed." } else { "1 of 3 tests passed." }}],
                "failed_criteria": if passed { json!([]) } else { json!([criteria[1], criteria[2]]) },
                "risks": [],
                "next_action": {"role": if passed { "orchestrator" } else { "implementer" }, "instruction": if passed { "Complete the run." } else { "Skip blanks and comments; throw on a line without =." }},
            }),
        ),
        ReviewStep::Critic => (
            if passed {
                "Nothing blocks the run."
            } else {
                "The parser must refuse what it cannot read."
            }
            .into(),
            "critique_result",
            json!({
                "verdict": if passed { "acceptable" } else { "needs_revision" },
                "markdown": null,
                "blocking_concerns": if passed { json!([]) } else { json!(["Blank lines, comments and lines without = are read as pairs."]) },
                "non_blocking_concerns": ["Quoted values are not unquoted."],
                "alternative_paths": [],
                "recommended_next_action": if passed { "Go on." } else { "Trim each line, skip blanks and # comments, throw on a line without = with its number." },
            }),
        ),
        ReviewStep::Reconciliation => {
            let complete = facts.end == Some(RunEnd::Completed) && facts.unmet.is_empty();
            (
                if complete {
                    "Complete: every criterion met and verified."
                } else {
                    "Partial: the run ended before every gate was met."
                }
                .into(),
                "reconciliation_result",
                json!({
                    "status": if complete { "complete" } else { "partial" },
                    "markdown": null,
                    "completed_plan_items": if facts.implementations > 0 { json!(["lib/config.js", "test/config.test.js"]) } else { json!([]) },
                    "satisfied_criteria": if complete { json!(criteria) } else { json!([]) },
                    "missing_plan_items": if complete { json!([]) } else { json!(["A verified parser."]) },
                    "deviations": [],
                    "next_recommended_slice": {"objective": "Unquote quoted values.", "rationale": "The critic's one open concern.", "acceptance_criteria": ["\"a b\" in quotes reads as a b."]},
                    "needs_user_decision": false, "user_decision_reason": null,
                }),
            )
        }
    };
    payload[ACK_FIELD] = ack;
    json!({"status": "ok", "summary": summary, "data": {key: payload}})
}

/// The orchestrator's decision from the run's facts, with the roles the run has.
fn orchestrator(
    config: &ReviewConfig,
    env: &ReviewEnvelope,
    criteria: &[String],
) -> (String, &'static str, Value) {
    let facts = &env.facts;
    let task = |objective: &str, edit: bool, paths: &[&str]| {
        json!({
            "objective": objective, "allowed_paths": paths, "disallowed_paths": [],
            "acceptance_criteria": criteria,
            "tool_permissions": {"read": true, "edit": edit, "shell": false, "network": false},
        })
    };
    let no_approval = json!({"required": false, "reason": null, "options": []});
    let go_on = json!({"should_stop": false, "reason": null});
    let decision = |action: &str,
                    reason: &str,
                    role: Value,
                    task: Value,
                    approval: Value,
                    fanout: Value| {
        json!({
            "action": action, "reason": reason, "markdown": null, "confidence": "high",
            "next_role": role, "task": task, "approval_request": approval, "stop": go_on, "fanout": fanout,
        })
    };
    let (summary, d) = if facts.plans == 0 && config.available(Role::Planner) {
        (
            "Plan first.",
            decision(
                "revise_plan",
                "There is no plan yet.",
                json!("planner"),
                task("Plan the parser in small, verifiable slices.", false, &[]),
                no_approval,
                Value::Null,
            ),
        )
    } else if facts.research == 0 && config.available(Role::Researcher) {
        (
            "Research the edge cases, two researchers at once.",
            decision(
                "delegate",
                "The plan leans on how .env files treat edge cases.",
                json!("researcher"),
                task(
                    "Find how .env parsers treat spaces, blank lines and comments.",
                    false,
                    &[],
                ),
                no_approval,
                json!({"instruction": "Find how .env parsers treat spaces, blank lines and comments; cite each source.", "roles": ["researcher", "researcher"]}),
            ),
        )
    } else if facts.approvals == 0 {
        (
            "Ask the person to approve the plan before files are written.",
            decision(
                "request_approval",
                "Files are about to be written.",
                json!("implementer"),
                task(
                    "Write lib/config.js and test/config.test.js as the plan says.",
                    true,
                    &["lib", "test"],
                ),
                json!({"required": true, "reason": "The plan is ready: approve it before the implementer writes lib/config.js and its tests.", "options": ["approve", "reject", "revise"]}),
                Value::Null,
            ),
        )
    } else if facts.implementations == 0 {
        (
            "Implement the plan.",
            decision(
                "delegate",
                "The plan is approved.",
                json!("implementer"),
                task(
                    "Write lib/config.js and test/config.test.js as the plan says.",
                    true,
                    &["lib", "test"],
                ),
                no_approval,
                Value::Null,
            ),
        )
    } else if facts.unmet.is_empty() {
        (
            "Complete: the verifier approved and the runtime's run passed.",
            decision(
                "complete",
                "Every gate is met.",
                Value::Null,
                Value::Null,
                no_approval,
                Value::Null,
            ),
        )
    } else if facts.latest_check == Some(true) || !config.available(Role::Qa) {
        (
            "Ask the verifier to judge the latest files.",
            decision(
                "verify",
                if facts.latest_check == Some(true) {
                    "The runtime's run passed; the verifier has not approved these files."
                } else {
                    "The runtime's run did not pass, and this run has no QA: the verifier judges."
                },
                json!("verifier"),
                task(
                    "Judge the latest files against the acceptance criteria.",
                    false,
                    &[],
                ),
                no_approval,
                Value::Null,
            ),
        )
    } else {
        (
            "Ask QA to test the implementation.",
            decision(
                "delegate",
                "The runtime's run of the files did not pass.",
                json!("qa"),
                task("Test lib/config.js against every criterion.", false, &[]),
                no_approval,
                Value::Null,
            ),
        )
    };
    (summary.into(), "decision", d)
}

/// The sandbox's stand-in for the demo implementer's files (`run_code`'s input): the run the
/// app's sandbox gives them; any other code gets an `error` run.
pub fn run(input: &Value) -> Value {
    let files: Vec<CodeFile> = serde_json::from_value(input["files"].clone()).unwrap_or_default();
    let parser = files
        .iter()
        .find(|f| f.path == PARSER)
        .map(|f| f.content.as_str());
    let test = |name: &str, passed: bool, message: &str| TestResult {
        file: TEST_FILE.into(),
        name: name.into(),
        passed,
        message: message.into(),
    };
    let has_tests = files
        .iter()
        .any(|f| f.path == TEST_FILE && f.content == TESTS);
    let run = match parser {
        Some(PARSER_V1) if has_tests => TestRun {
            status: RunStatus::Failed,
            tests: vec![
                test("reads key=value pairs", true, ""),
                test("skips blank lines and # comments", false, "Expected values to be deeply equal"),
                test("a line without = throws", false, "Missing expected exception."),
            ],
            errors: Vec::new(),
        },
        Some(PARSER_V2) if has_tests => TestRun {
            status: RunStatus::Passed,
            tests: vec![
                test("reads key=value pairs", true, ""),
                test("skips blank lines and # comments", true, ""),
                test("a line without = throws", true, ""),
            ],
            errors: Vec::new(),
        },
        _ => TestRun {
            status: RunStatus::Error,
            tests: Vec::new(),
            errors: vec![FileError {
                file: String::new(),
                message: "only the app's sandbox runs this code (the demo's stand-in knows the demo implementer's files alone)".into(),
            }],
        },
    };
    serde_json::to_value(run).unwrap_or(Value::Null)
}
