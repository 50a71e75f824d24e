//! The runtime's side of the review loop: which answers call the critic and write a revision
//! packet, what a fan-out records, which gates hold `complete`, and which configs are refused.

use serde_json::{json, Value};

use super::answer::{Critique, Qa, ReadOnlyRole, Verification};
use super::artifacts::*;
use super::config::*;
use super::gates::*;
use roundtable_engine::engine::ModelRef;

fn ack() -> Value {
    json!({"runId": "run-1", "nonce": "n1", "responseField": "thehoodDirectiveAck"})
}

fn qa(verdict: &str) -> Qa {
    serde_json::from_value(json!({
        "verdict": verdict, "summary": "A line without = is not tested.", "markdown": null,
        "suggested_commands": [], "risks": ["The error path is untested."], "thehoodDirectiveAck": ack()
    }))
    .unwrap()
}

fn verification(verdict: &str) -> Verification {
    serde_json::from_value(json!({
        "verdict": verdict, "summary": "Criterion 2 fails.", "markdown": null, "evidence": [],
        "failed_criteria": ["A line without = is an error naming its number."], "risks": [],
        "next_action": {"role": "implementer", "instruction": "Throw on a line without =."},
        "thehoodDirectiveAck": ack()
    }))
    .unwrap()
}

fn critique(verdict: &str, blocking: &[&str]) -> Critique {
    serde_json::from_value(json!({
        "verdict": verdict, "markdown": null, "blocking_concerns": blocking,
        "non_blocking_concerns": [], "alternative_paths": [],
        "recommended_next_action": "Test the error path.", "thehoodDirectiveAck": ack()
    }))
    .unwrap()
}

fn check(passed: bool) -> RuntimeCheck {
    RuntimeCheck {
        implementation_ref: "impl-2".into(),
        passed,
        run_ref: "run-check-2".into(),
    }
}

#[test]
fn the_critic_is_called_for_failures_doubt_and_disagreement_only() {
    let reason = |qa_v: Option<&str>, ver_v: Option<&str>, runtime: Option<bool>| {
        let (q, v, r) = (qa_v.map(qa), ver_v.map(verification), runtime.map(check));
        let reviews = Reviews {
            qa: q.as_ref().map(|q| (q, "call-4")),
            verification: v.as_ref().map(|v| (v, "call-5")),
            runtime: r.as_ref(),
        };
        critic_trigger("run-1", reviews, "call-6").map(|t| (t.reason_code, t.source_roles))
    };
    use TriggerReason as T;
    assert_eq!(reason(Some("pass"), Some("approve"), Some(true)), None);
    assert_eq!(reason(Some("pass"), None, None), None);
    assert_eq!(
        reason(Some("needs_revision"), None, None),
        Some((T::QaFailed, vec![Reviewer::Qa]))
    );
    // Blocked, QA could not judge: inconclusive, not a failure.
    assert_eq!(
        reason(Some("blocked"), None, None),
        Some((T::QaInconclusive, vec![Reviewer::Qa]))
    );
    // QA asking to revise code whose run passed disagrees with the runtime; against a failed
    // run it is a failure.
    assert_eq!(
        reason(Some("needs_revision"), None, Some(true)),
        Some((T::ValidationMismatch, vec![Reviewer::Qa]))
    );
    assert_eq!(
        reason(Some("needs_revision"), None, Some(false)),
        Some((T::QaFailed, vec![Reviewer::Qa]))
    );
    assert_eq!(
        reason(Some("needs_more_evidence"), None, None),
        Some((T::QaInconclusive, vec![Reviewer::Qa]))
    );
    assert_eq!(
        reason(None, Some("revise"), None),
        Some((T::VerifierFailed, vec![Reviewer::Verifier]))
    );
    assert_eq!(
        reason(None, Some("abort"), None),
        Some((T::VerifierFailed, vec![Reviewer::Verifier]))
    );
    assert_eq!(
        reason(None, Some("ask_user"), None),
        Some((T::VerifierInconclusive, vec![Reviewer::Verifier]))
    );
    // Evidence that disagrees with the runtime's own run of the same implementation.
    assert_eq!(
        reason(Some("pass"), None, Some(false)),
        Some((T::ValidationMismatch, vec![Reviewer::Qa]))
    );
    assert_eq!(
        reason(Some("pass"), Some("approve"), Some(false)),
        Some((
            T::ValidationMismatch,
            vec![Reviewer::Qa, Reviewer::Verifier]
        ))
    );
    // A failure outranks doubt, which outranks a mismatch; every source is named.
    assert_eq!(
        reason(Some("needs_more_evidence"), Some("revise"), Some(false)),
        Some((T::VerifierFailed, vec![Reviewer::Qa, Reviewer::Verifier]))
    );
}

#[test]
fn the_runtime_artifacts_read_as_004_writes_them() {
    let q = qa("pass");
    let v = verification("approve");
    let failed = check(false);
    let trigger = critic_trigger(
        "run-1",
        Reviews {
            qa: Some((&q, "call-4")),
            verification: Some((&v, "call-5")),
            runtime: Some(&failed),
        },
        "call-6",
    )
    .unwrap();
    let revise = verification("revise");
    let packet = revision_packet(
        RepairCause::Verifier(&revise),
        RepairContext {
            run_id: "run-1",
            now: "2026-11-26T12:00:00Z",
            source_ref: "call-5",
            acceptance_criteria: &["A line without = is an error naming its number.".into()],
            evidence_refs: vec!["run-check-2".into()],
            critic_trigger_ref: Some("trigger-1".into()),
        },
    )
    .unwrap();
    let item = |index, status| FanoutItem {
        index,
        role: ReadOnlyRole::Critic,
        summon_kind: "critique_result".into(),
        status,
        response_artifact: ResponseRef {
            r#ref: format!("call-{}", 7 + index),
        },
    };
    let fanout = Fanout::new(
        "run-1",
        "2026-11-26T12:01:00Z",
        12,
        3,
        "parallel",
        "Review the plan for missing cases.",
        (0..fanout_slots(12, 3))
            .map(|i| {
                item(
                    i,
                    if i == 1 {
                        FanoutStatus::Blocked
                    } else {
                        FanoutStatus::Completed
                    },
                )
            })
            .collect(),
    );
    assert_eq!(fanout.bounds.executed_items, 3);
    assert_eq!(fanout.status, FanoutStatus::Blocked);
    insta::assert_json_snapshot!(
        "review_artifacts",
        json!({
            "critic_trigger": trigger,
            "revision_packet": packet,
            "fanout": fanout,
        })
    );
}

#[test]
fn a_repair_pass_is_briefed_only_when_an_answer_asks_for_one() {
    fn context() -> RepairContext<'static> {
        RepairContext {
            run_id: "run-1",
            now: "2026-11-26T12:00:00Z",
            source_ref: "call-4",
            acceptance_criteria: &[],
            evidence_refs: Vec::new(),
            critic_trigger_ref: None,
        }
    }
    fn reason(cause: RepairCause) -> Option<RevisionReason> {
        revision_packet(cause, context()).map(|p| p.reason_code)
    }
    use RevisionReason as R;
    assert_eq!(reason(RepairCause::Qa(&qa("pass"))), None);
    assert_eq!(reason(RepairCause::Qa(&qa("needs_more_evidence"))), None);
    assert_eq!(
        reason(RepairCause::Qa(&qa("needs_revision"))),
        Some(R::QaNeedsRevision)
    );
    assert_eq!(
        reason(RepairCause::Verifier(&verification("approve"))),
        None
    );
    assert_eq!(
        reason(RepairCause::Verifier(&verification("revise"))),
        Some(R::VerifierRevise)
    );
    assert_eq!(
        reason(RepairCause::Critic(&critique("acceptable", &[]))),
        None
    );
    assert_eq!(
        reason(RepairCause::Critic(&critique("needs_revision", &[]))),
        Some(R::CriticNeedsRevision)
    );
    assert_eq!(
        reason(RepairCause::Critic(&critique(
            "acceptable",
            &["It deletes data."]
        ))),
        Some(R::CriticBlockingConcerns)
    );
    let packet = revision_packet(RepairCause::Qa(&qa("needs_revision")), context()).unwrap();
    assert_eq!(
        packet.evidence_refs,
        vec!["call-4".to_string()],
        "the source is evidence"
    );
    assert_eq!(packet.repair_objective, "The error path is untested.");
}

#[test]
fn complete_waits_for_the_verifier_and_the_runtime_on_the_latest_implementation() {
    let record = |implementation: &str, approved, in_fanout| VerifierRecord {
        answer_ref: format!("v-{implementation}"),
        implementation_ref: implementation.into(),
        approved,
        in_fanout,
    };
    let gates =
        |latest: Option<&str>, verifications: &[VerifierRecord], checks: &[RuntimeCheck], open| {
            unmet_for_completion(Ledger {
                latest_implementation: latest,
                unrunnable: None,
                verifications,
                runtime_checks: checks,
                open_approvals: open,
            })
            .into_iter()
            .map(|u| u.gate)
            .collect::<Vec<_>>()
        };
    let passed = [check(true)];
    let failed = [check(false)];
    // Nothing implemented: both the verifier's and the runtime's gates are unmet, and an open
    // approval is said too.
    assert_eq!(
        gates(None, &[], &[], 0),
        vec![Gate::Verifier, Gate::RuntimeQa]
    );
    assert_eq!(
        gates(None, &[], &[], 1),
        vec![Gate::Verifier, Gate::RuntimeQa, Gate::Approval]
    );
    assert_eq!(
        gates(Some("impl-2"), &[record("impl-2", true, false)], &passed, 0),
        vec![]
    );
    // An approval of an earlier implementation does not carry over.
    assert_eq!(
        gates(Some("impl-2"), &[record("impl-1", true, false)], &passed, 0),
        vec![Gate::Verifier]
    );
    // A fan-out's approval is advisory, and said so.
    let advisory = unmet_for_completion(Ledger {
        latest_implementation: Some("impl-2"),
        unrunnable: None,
        verifications: &[record("impl-2", true, true)],
        runtime_checks: &passed,
        open_approvals: 0,
    });
    assert_eq!(advisory.len(), 1);
    assert!(advisory[0].why.contains("advisory"), "{}", advisory[0].why);
    // The newest verdict counts: an approval after a revise passes, a revise after it does not.
    assert_eq!(
        gates(
            Some("impl-2"),
            &[
                record("impl-2", false, false),
                record("impl-2", true, false)
            ],
            &passed,
            0
        ),
        vec![]
    );
    assert_eq!(
        gates(
            Some("impl-2"),
            &[
                record("impl-2", true, false),
                record("impl-2", false, false)
            ],
            &passed,
            0
        ),
        vec![Gate::Verifier]
    );
    assert_eq!(
        gates(Some("impl-2"), &[record("impl-2", true, false)], &failed, 0),
        vec![Gate::RuntimeQa]
    );
    assert_eq!(
        gates(Some("impl-2"), &[record("impl-2", true, false)], &[], 0),
        vec![Gate::RuntimeQa]
    );
    assert_eq!(
        gates(Some("impl-2"), &[record("impl-2", true, false)], &passed, 2),
        vec![Gate::Approval]
    );
}

fn member(id: &str, roles: &[Role]) -> ReviewMember {
    ReviewMember {
        id: id.into(),
        name: id.to_uppercase(),
        roles: roles.to_vec(),
        model: ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        },
    }
}

/// A valid run: four members over the seven roles (the prompt tests use it too).
pub(super) fn config() -> ReviewConfig {
    ReviewConfig {
        user_goal: "A parser for key=value files.".into(),
        mode: RunMode::Implement,
        current_state_summary: String::new(),
        constraints: vec![],
        approval_policy: ApprovalPolicy::default(),
        approval_mode: ApprovalMode::Manual,
        available_worker_types: super::config::all_workers(),
        risk_level: Default::default(),
        allowed_paths: vec![],
        disallowed_paths: vec![],
        protected_test_paths: vec!["parse.test.js".into()],
        acceptance_tests: vec![],
        max_iterations: 12,
        token_budget: None,
        time_budget_seconds: None,
        stop_conditions: vec![],
        success_criteria: vec!["Blank lines are skipped.".into()],
        output_contract: String::new(),
        fanout_max: 3,
        run_id: "run-1".into(),
        run_limit_ms: ReviewConfig::RUN_LIMIT_MS,
        settings: Default::default(),
        members: vec![
            member(
                "lead",
                &[Role::Orchestrator, Role::Planner, Role::Researcher],
            ),
            member("builder", &[Role::Implementer]),
            member("tester", &[Role::Qa, Role::Critic]),
            member("judge", &[Role::Verifier]),
        ],
    }
}

/// `available_worker_types` decides the roles: a run without QA or a critic is valid once no
/// member holds them; the verifier (and, implementing, the implementer) cannot be left out;
/// the orchestrator is no worker; the run's own paths are relative.
#[test]
fn the_roles_are_the_ones_the_run_makes_available() {
    use ReviewConfigError as E;
    let mut lean = config();
    lean.available_worker_types = vec![Role::Implementer, Role::Verifier];
    assert_eq!(
        lean.problems(),
        vec![
            E::Unavailable(Role::Planner, "lead".into()),
            E::Unavailable(Role::Researcher, "lead".into()),
            E::Unavailable(Role::Qa, "tester".into()),
            E::Unavailable(Role::Critic, "tester".into()),
        ]
    );
    lean.members[0].roles = vec![Role::Orchestrator];
    lean.members.remove(2);
    assert_eq!(lean.problems(), vec![]);
    assert!(!lean.available(Role::Qa) && lean.available(Role::Orchestrator));
    let mut broken = lean.clone();
    broken.available_worker_types = vec![Role::Orchestrator, Role::Qa];
    broken.allowed_paths = vec!["../up".into()];
    assert_eq!(
        broken.problems(),
        vec![
            E::BadRunPath("../up".into()),
            E::OrchestratorIsNoWorker,
            E::Required(
                Role::Verifier,
                "the run completes only with the verifier's approval"
            ),
            E::Required(
                Role::Implementer,
                "an implement run changes files, and only the implementer writes them"
            ),
            E::Unavailable(Role::Implementer, "builder".into()),
            E::Unheld(Role::Qa),
            E::Unavailable(Role::Verifier, "judge".into()),
        ]
    );
}

#[test]
fn a_config_is_refused_with_every_rule_it_breaks() {
    assert_eq!(config().problems(), vec![]);
    assert_eq!(config().holder(Role::Verifier).unwrap().id, "judge");
    use ReviewConfigError as E;
    // The implementer may not verify its own work: at creation, and after an edit of the roles.
    let mut edited = config();
    edited.members[1].roles.push(Role::Verifier);
    edited.members[3].roles.clear();
    assert_eq!(
        edited.problems(),
        vec![
            E::VerifiesOwnWork("builder".into()),
            E::NoRole("judge".into())
        ]
    );
    let mut broken = config();
    broken.user_goal = "  ".into();
    broken.success_criteria.clear();
    broken.max_iterations = 0;
    broken.fanout_max = 9;
    broken.token_budget = Some(0);
    broken.protected_test_paths.push("../secret.js".into());
    let test = |path: &str, content: &str| super::config::AcceptanceTest {
        path: path.into(),
        content: content.into(),
    };
    broken.acceptance_tests = vec![
        test("spec/parse.js", "test('a', () => {});"),
        test("spec/parse.test.mjs", " "),
        test("spec/ok.test.cjs", "test('a', () => {});"),
        test("spec/ok.test.cjs", "test('b', () => {});"),
    ];
    broken.members[2].roles.push(Role::Planner);
    broken.members.push(member("Bad Id", &[Role::Critic]));
    let problems = broken.problems();
    assert_eq!(
        problems,
        vec![
            E::EmptyGoal,
            E::NoCriteria,
            E::Iterations(0),
            E::FanoutMax(9),
            E::ZeroBudget("token"),
            E::BadProtectedPath("../secret.js".into()),
            E::BadAcceptanceTest("spec/parse.js".into()),
            E::EmptyAcceptanceTest("spec/parse.test.mjs".into()),
            E::DuplicateAcceptanceTest("spec/ok.test.cjs".into()),
            E::BadId("Bad Id".into()),
            E::HeldTwice(Role::Planner, "lead".into(), "tester".into()),
            E::HeldTwice(Role::Critic, "tester".into(), "Bad Id".into()),
        ]
    );
    let words = broken.checked().unwrap_err().to_string();
    assert!(
        words.contains("both lead and tester are the planner"),
        "{words}"
    );
}
