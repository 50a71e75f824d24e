//! Behaviour of the whole validator through small helpers: what passes, what is repaired, and
//! the exact pointer of each violation.

use std::borrow::Cow;

use super::*;
use roundtable_engine::validate::Violation;

fn known() -> Known {
    let set = |ids: &[&str]| ids.iter().map(|s| s.to_string()).collect();
    Known {
        products: set(&["p1", "p2", "p3"]),
        versions: set(&["v1", "v2"]),
        members: set(&["chair", "operative-1", "operative-2", "inspector"]),
        collabs: set(&["c1"]),
    }
}

/// Error paths, warning messages, and whether the JSON text was borrowed from the raw answer.
fn check(step: Step, raw: &str, with_known: bool) -> (Vec<String>, Vec<String>, bool) {
    let k = known();
    let v = check_step(step, raw, with_known.then_some(&k));
    let borrowed = matches!(v.json, Cow::Borrowed(_));
    (
        v.errors.into_iter().map(|e| e.path).collect(),
        v.warnings.into_iter().map(|w| w.message).collect(),
        borrowed,
    )
}

fn errors(step: Step, raw: &str) -> Vec<String> {
    check(step, raw, true).0
}

fn first_error(step: Step, raw: &str) -> Violation {
    let k = known();
    check_step(step, raw, Some(&k))
        .errors
        .into_iter()
        .next()
        .expect("an error")
}

const PLAN: &str = r#"{
  "responseType": "final_output",
  "thinking": {"roundStrategy": "Split the guide.", "acceptanceRationale": "v1 meets its DoD."},
  "treeOperations": [
    {"action": "ADD", "newId": "new-1", "parentId": "p1",
     "product": {"name": "Setup", "type": "Content", "dod": "Steps to install.", "assignee": "operative-1"}},
    {"action": "MOVE", "productId": "p3", "parentId": "new-1"},
    {"action": "UPDATE", "productId": "p2", "product": {"assignee": null}, "reason": "Unassign."},
    {"action": "REMOVE", "productId": "p3", "reason": "Merged."}
  ],
  "assignments": [
    {"productId": "new-1", "assignee": "operative-1",
     "directive": {"objective": "Write it.", "dod": "Complete.", "why": "Users need it."},
     "attachedContext": [{"productId": "p2", "include": ["content", "feedback"], "reason": "Style."}]}
  ],
  "acceptance": [{"productId": "p2", "accepted": true, "versionId": "v1"}],
  "remarks": [{"recipients": ["user"], "type": "note", "content": "Round 2 starts."}]
}"#;

#[test]
fn a_clean_answer_passes_without_copy_or_warning() {
    for with_known in [false, true] {
        assert_eq!(
            check(Step::PlanAssign, PLAN, with_known),
            (vec![], vec![], true)
        );
    }
}

#[test]
fn validate_step_fills_the_defaults() {
    let raw = r#"{"responseType":"final_output","thinking":{"roundStrategy":"a","acceptanceRationale":"b"}}"#;
    let v = validate_step(Step::PlanAssign, raw, None).unwrap();
    let StepAnswer::FinalOutput {
        output: FinalOutput::PlanAssign(out),
    } = v.answer
    else {
        panic!()
    };
    assert!(out.tree_operations.is_empty() && out.assignments.is_empty() && out.remarks.is_empty());
    assert_eq!(out.chair_versions, None);
}

#[test]
fn validate_step_reads_every_response_type() {
    let rc = r#"{"responseType":"request_context","contextRequests":[{"productId":"p1","need":"full_content","reason":"r"}]}"#;
    assert!(matches!(
        validate_step(Step::Write, rc, Some(&known()))
            .unwrap()
            .answer,
        StepAnswer::RequestContext { .. }
    ));
    let halt =
        r#"{"responseType":"halt","halt":{"type":"done","to":["u:all"],"message":"Finished."}}"#;
    assert!(matches!(
        validate_step(Step::PlanAssign, halt, Some(&known()))
            .unwrap()
            .answer,
        StepAnswer::Halt { .. }
    ));
}

#[test]
fn what_models_send_is_recovered_with_a_warning_each() {
    let fenced = format!("Here is my plan:\n```json\n{PLAN}\n```\nLet me know!");
    let (errors, warnings, borrowed) = check(Step::PlanAssign, &fenced, true);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        warnings.len(),
        3,
        "fence, prose before, prose after: {warnings:?}"
    );
    assert!(borrowed, "a fence and prose need no copy");

    let messy = "\u{feff}{\"responseType\": \"final_output\", // done\n \"thinking\": {“roundStrategy”: \"line one\nline two\", \"acceptanceRationale\": \"x\",},}";
    let (errors, warnings, borrowed) = check(Step::PlanAssign, messy, true);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(warnings.len(), 5, "{warnings:?}");
    assert!(!borrowed);
    let v = validate_step(Step::PlanAssign, messy, None).unwrap();
    let StepAnswer::FinalOutput {
        output: FinalOutput::PlanAssign(out),
    } = v.answer
    else {
        panic!()
    };
    assert_eq!(out.thinking.round_strategy, "line one\nline two");
}

#[test]
fn meaning_changes_are_refused_not_guessed() {
    let two = format!("{PLAN}\n{PLAN}");
    assert!(first_error(Step::PlanAssign, &two)
        .message
        .contains("two top-level"));
    let cut = &PLAN[..PLAN.len() / 2];
    let e = first_error(Step::PlanAssign, cut);
    assert!(
        e.message.contains("cut off") && e.hint.contains("shorter"),
        "{e:?}"
    );
    let py = PLAN.replace("\"accepted\": true", "\"accepted\": True");
    let e = first_error(Step::PlanAssign, &py);
    assert_eq!(
        (e.path.as_str(), e.expected.as_str()),
        ("/acceptance/0/accepted", "true")
    );
    let wrong_enum = PLAN.replace("\"type\": \"note\"", "\"type\": \"Note\"");
    let e = first_error(Step::PlanAssign, &wrong_enum);
    assert_eq!(e.path, "/remarks/0/type");
    assert!(
        e.expected.contains("observation") && e.hint.contains("\"note\""),
        "{e:?}"
    );
}

#[test]
fn the_length_stop_is_reported_as_cut_off() {
    let k = known();
    let opts = Options { truncated: true };
    let cut = &PLAN[..PLAN.len() - 10];
    let v = check_step_with(Step::PlanAssign, cut, Some(&k), opts);
    assert_eq!(v.errors.len(), 1);
    assert!(v.errors[0].message.contains("cut off"));
    let v = check_step_with(Step::PlanAssign, PLAN, Some(&k), opts);
    assert!(v.is_ok() && v.warnings.len() == 1);
    let bad = PLAN.replace("\"p2\", \"accepted\"", "\"p9\", \"accepted\"");
    let v = check_step_with(Step::PlanAssign, &bad, Some(&k), opts);
    assert_eq!(v.errors.len(), 2);
}

#[test]
fn halt_only_where_the_matrix_allows_it() {
    let halt =
        r#"{"responseType":"halt","halt":{"type":"question","to":["user-1"],"message":"Which?"}}"#;
    for step in Step::ALL {
        let errs = errors(step, halt);
        if step.allows_halt() {
            assert!(errs.is_empty(), "{step}: {errs:?}");
        } else {
            assert_eq!(errs, ["/responseType"], "{step}");
            let e = first_error(step, halt);
            assert!(
                e.message.contains("not allowed")
                    && e.expected == "one of: request_context, final_output"
            );
        }
    }
    assert_eq!(
        errors(Step::Write, r#"{"responseType":"finished"}"#),
        ["/responseType"]
    );
    assert_eq!(errors(Step::Write, r#"{"versions":[]}"#), ["/responseType"]);
}

#[test]
fn every_violation_is_collected_with_its_pointer() {
    let raw = r#"{"responseType":"final_output",
      "thinking":{"roundStrategy":"x"},
      "treeOperations":[{"action":"ADD","newId":"n1","parentId":"p1","product":{"name":"A","type":"content","dod":"d"}},
                        {"action":"DELETE","productId":"p1"},
                        {"productId":"p1"}],
      "assignments":{"productId":"p1"},
      "remarks":[{"recipients":["user"],"type":"note","content":"c","isBlocker":"yes"}]}"#;
    assert_eq!(
        errors(Step::PlanAssign, raw),
        [
            "/thinking/acceptanceRationale",
            "/treeOperations/0/newId",
            "/treeOperations/0/product/type",
            "/treeOperations/1/action",
            "/treeOperations/2/action",
            "/assignments",
            "/remarks/0/isBlocker",
        ]
    );
}

#[test]
fn limits_count_chars_like_json_schema() {
    let summary = |s: &str| {
        format!(
            r#"{{"responseType":"final_output","reviews":[],"collabs":[{{"refersToProduct":"p1","type":"concern","importance":5,"comment":"c","shortestSummary":"{s}"}}]}}"#
        )
    };
    assert!(errors(Step::PeerReview, &summary(&"é".repeat(120))).is_empty());
    assert!(errors(Step::PeerReview, &summary(&"\\n".repeat(120))).is_empty());
    assert!(errors(Step::PeerReview, &summary(&"\\u00e9".repeat(120))).is_empty());
    assert_eq!(
        errors(Step::PeerReview, &summary(&"a".repeat(121))),
        ["/collabs/0/shortestSummary"]
    );
    let e = first_error(Step::PeerReview, &summary(&"😀".repeat(130)));
    assert_eq!(e.expected, "at most 120 chars");
    assert!(e.received.starts_with("130 chars"), "{e:?}");
}

#[test]
fn integers_and_ranges() {
    let finding = |sev: &str| {
        format!(
            r#"{{"responseType":"final_output","inspections":[{{"productId":"p1","versionId":"v1","assessment":"blocked","findings":[{{"category":"security","severity":{sev},"issue":"i","recommendation":"r"}}]}}]}}"#
        )
    };
    assert!(errors(Step::Inspection, &finding("10")).is_empty());
    for bad in [
        "0",
        "11",
        "5.0",
        "5e0",
        "\"5\"",
        "99999999999999999999",
        "-1",
    ] {
        assert_eq!(
            errors(Step::Inspection, &finding(bad)),
            ["/inspections/0/findings/0/severity"],
            "{bad}"
        );
    }
}

#[test]
fn counts_of_lists() {
    let req = r#"{"productId":"p1","need":"all_feedback","reason":"r"}"#;
    let rc = |n: usize| {
        format!(
            r#"{{"responseType":"request_context","contextRequests":[{}]}}"#,
            vec![req; n].join(",")
        )
    };
    assert_eq!(errors(Step::Reflect, &rc(0)), ["/contextRequests"]);
    assert!(errors(Step::Reflect, &rc(5)).is_empty());
    assert_eq!(errors(Step::Reflect, &rc(6)), ["/contextRequests"]);
    let msg = r#"{"content":"Hello","asAgent":"chair"}"#;
    let pres = |n: usize| {
        format!(
            r#"{{"responseType":"final_output","messages":[{}]}}"#,
            vec![msg; n].join(",")
        )
    };
    assert_eq!(errors(Step::Presentation, &pres(0)), ["/messages"]);
    assert!(errors(Step::Presentation, &pres(10)).is_empty());
    assert_eq!(errors(Step::Presentation, &pres(11)), ["/messages"]);
}

#[test]
fn write_content_is_long_plain_text() {
    let write = |content: &str| {
        format!(
            r#"{{"responseType":"final_output","versions":[{{"productId":"p1","newVersion":{{"contentTitle":"T","content":{content},"changeSummary":"s"}}}}]}}"#
        )
    };
    let long = format!("\"{}\"", "word ".repeat(12));
    assert!(errors(Step::Write, &write(&long)).is_empty());
    assert_eq!(
        errors(Step::Write, &write("\"too short\"")),
        ["/versions/0/newVersion/content"]
    );
    let json_content = format!(
        "\"\\n  {{\\\"title\\\": \\\"x\\\", \\\"body\\\": \\\"{}\\\"}}\"",
        "y".repeat(60)
    );
    assert_eq!(
        errors(Step::Write, &write(&json_content)),
        ["/versions/0/newVersion/content"]
    );
    let braces_in_text = format!("\"{{not json}} {}\"", "z".repeat(60));
    assert!(errors(Step::Write, &write(&braces_in_text)).is_empty());
}

#[test]
fn references_must_exist_and_new_ids_resolve_in_order() {
    let bad = PLAN
        .replace("\"parentId\": \"new-1\"", "\"parentId\": \"new-2\"")
        .replace("\"versionId\": \"v1\"", "\"versionId\": \"v7\"")
        .replace(
            "\"assignee\": \"operative-1\",\n     \"directive\"",
            "\"assignee\": \"operative-9\",\n     \"directive\"",
        );
    assert_eq!(
        errors(Step::PlanAssign, &bad),
        [
            "/treeOperations/1/parentId",
            "/assignments/0/assignee",
            "/acceptance/0/versionId"
        ]
    );
    assert!(
        check(Step::PlanAssign, &bad, false).0.is_empty(),
        "without known only the shape counts"
    );

    // A new-N used before the ADD that creates it.
    let late = PLAN.replace(
        r#"{"action": "MOVE", "productId": "p3", "parentId": "new-1"},"#,
        r#"{"action": "MOVE", "productId": "p3", "parentId": "new-2"},
    {"action": "ADD", "newId": "new-2", "parentId": "new-1", "product": {"name": "B", "type": "Decision", "dod": "d"}},"#,
    );
    let e = first_error(Step::PlanAssign, &late);
    assert_eq!(e.path, "/treeOperations/1/parentId");
    assert!(e.hint.contains("/treeOperations/2"), "{e:?}");

    let dup = PLAN.replace(
        r#"{"action": "MOVE", "productId": "p3", "parentId": "new-1"},"#,
        r#"{"action": "ADD", "newId": "new-1", "parentId": "p1", "product": {"name": "B", "type": "Decision", "dod": "d"}},"#,
    );
    assert_eq!(errors(Step::PlanAssign, &dup), ["/treeOperations/1/newId"]);

    let e = first_error(
        Step::Reflect,
        r#"{"responseType":"final_output","reflections":[{"refersToProduct":"p42","dodStatus":"met","feedbackResponses":[],"nextVersionDelta":"-"}]}"#,
    );
    assert_eq!(e.path, "/reflections/0/refersToProduct");
    assert!(e.hint.contains("p1, p2, p3"), "{e:?}");
}

#[test]
fn recipients_may_be_special_addresses() {
    let remark = |to: &str| {
        format!(
            r#"{{"responseType":"final_output","versions":[],"remarks":[{{"recipients":["{to}"],"type":"question","content":"?"}}]}}"#
        )
    };
    for to in ["user", "user-1", "u:all", "team", "chair", "operative-2"] {
        assert!(errors(Step::Write, &remark(to)).is_empty(), "{to}");
    }
    assert_eq!(
        errors(Step::Write, &remark("everyone")),
        ["/remarks/0/recipients/0"]
    );
}

#[test]
fn unknown_fields_are_warnings_with_a_guess() {
    let raw = r#"{"responseType":"final_output","reviews":[],"colabs":[],"confidence":0.9}"#;
    let k = known();
    let v = check_step(Step::PeerReview, raw, Some(&k));
    assert!(v.is_ok());
    let paths: Vec<&str> = v.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(paths, ["/colabs", "/confidence"]);
    assert!(v.warnings[0].hint.contains("collabs"));
}

#[test]
fn null_only_where_the_field_is_optional() {
    let raw = r#"{"responseType":"final_output","reviews":null,"collabs":null,"remarks":[]}"#;
    assert_eq!(errors(Step::PeerReview, raw), ["/reviews", "/collabs"]);
    let raw = r#"{"responseType":"final_output","thinking":{"roundStrategy":"a","acceptanceRationale":"b"},"chairVersions":null,"bootstrapOverrides":null}"#;
    assert!(errors(Step::PlanAssign, raw).is_empty());
}

#[test]
fn not_json_at_all() {
    for raw in [
        "",
        "   ",
        "I cannot do that.",
        "[1, 2]",
        "{\"responseType\": \"final_output\"",
        "{'a': 1",
    ] {
        let v = check_step(Step::Write, raw, None);
        assert_eq!(v.errors.len(), 1, "{raw:?}: {:?}", v.errors);
        assert_eq!(v.errors[0].path, "");
    }
}

#[test]
fn duplicate_keys_are_errors() {
    let raw = r#"{"responseType":"final_output","reviews":[],"reviews":[]}"#;
    assert_eq!(errors(Step::PeerReview, raw), ["/reviews"]);
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = format!(
        "{{\"responseType\":\"final_output\",\"x\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let v = check_step(Step::Write, &deep, None);
    assert_eq!(v.errors.len(), 1);
}

#[test]
fn repair_prompt_lists_every_violation() {
    let raw = r#"{"responseType":"final_output","messages":[{"content":"Hi","asAgent":"ghost"}],"extra":1}"#;
    let report = validate_step(Step::Presentation, raw, Some(&known())).unwrap_err();
    let prompt = report.repair_prompt();
    assert!(
        prompt.contains("/messages/0/asAgent") && prompt.contains("\"ghost\""),
        "{prompt}"
    );
    assert!(prompt.ends_with("Answer again with only the corrected JSON object: no code fence, no text before or after it."));
    assert!(report.to_string().contains("/messages/0/asAgent"));
}

// ---- what a model reads (insta snapshots) ---------------------------------------------------

#[test]
fn snapshot_plan_assign_report_and_prompt() {
    let raw = PLAN
        .replace("\"parentId\": \"new-1\"", "\"parentId\": \"new-3\"")
        .replace("\"type\": \"Content\"", "\"type\": \"Chapter\"")
        .replace("\"versionId\": \"v1\"", "\"versionId\": \"v9\"")
        .replace("\"reason\": \"Merged.\"", "\"why\": \"Merged.\"");
    let report = validate_step(Step::PlanAssign, &raw, Some(&known())).unwrap_err();
    insta::assert_json_snapshot!("plan_assign_report", report);
    insta::assert_snapshot!("plan_assign_repair_prompt", report.repair_prompt());
}

#[test]
fn snapshot_cut_off_and_not_allowed_prompts() {
    let cut = &PLAN[..300];
    let report = validate_step(Step::PlanAssign, cut, None).unwrap_err();
    insta::assert_snapshot!("cut_off_repair_prompt", report.repair_prompt());
    let halt = r#"{"responseType":"halt","halt":{"type":"done","to":["u:all"],"message":"Done."}}"#;
    let report = validate_step(Step::Write, halt, None).unwrap_err();
    insta::assert_snapshot!("halt_on_write_repair_prompt", report.repair_prompt());
    let py = r#"{"responseType": "final_output", "reviews": [], "remarks": [{"recipients": ["chair"], "type": "note", "content": "ok", "isBlocker": False}]}"#;
    let report = validate_step(Step::PeerReview, py, None).unwrap_err();
    insta::assert_snapshot!("python_literal_repair_prompt", report.repair_prompt());
}

#[test]
fn snapshot_recovery_warnings() {
    let messy = "Sure, here you go:\n```json\n{\"responseType\": \"final_output\", // the plan\n \"thinking\": {“roundStrategy”: \"one\ntwo\", \"acceptanceRationale\": \"x\",},}\n```\nAnything else?";
    let v = validate_step(Step::PlanAssign, messy, None).unwrap();
    insta::assert_json_snapshot!("recovery_warnings", v.warnings);
}

#[test]
fn an_answer_wrapped_whole_is_recovered_and_said_so() {
    let valid = errors(Step::PlanAssign, PLAN);
    assert!(valid.is_empty(), "{valid:?}");
    let as_string = serde_json::to_string(PLAN).unwrap();
    let v = check_step(Step::PlanAssign, &as_string, None);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    assert!(
        v.warnings
            .iter()
            .any(|w| w.message.contains("one JSON string")),
        "{:?}",
        v.warnings
    );
    assert!(!v.warnings.iter().any(|w| w.message.contains("cut off")));
    let tool = format!("{{\"name\": \"answer\", \"arguments\": {as_string}}}");
    let v = check_step(Step::PlanAssign, &tool, None);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    assert!(v.warnings.iter().any(|w| w.message.contains("tool call")));
    let tagged = format!("<answer>{PLAN}</answer>");
    assert!(check_step(Step::PlanAssign, &tagged, None)
        .errors
        .is_empty());
    let sloppy = PLAN
        .replace("\"responseType\"", "responseType")
        .replace("\"final_output\",", "'final_output'");
    let v = check_step(Step::PlanAssign, &sloppy, None);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    assert_eq!(v.warnings.len(), 3, "{:?}", v.warnings);
}

/// An answer shaped by the strict (flattened) schema carries the other branches' fields as null:
/// they are ignored with a warning, never an error.
#[test]
fn a_strict_shaped_answer_with_null_branch_fields_is_valid() {
    let strict = PLAN.replacen(
        "\"responseType\": \"final_output\",",
        "\"responseType\": \"final_output\", \"contextRequests\": null, \"halt\": null,",
        1,
    );
    let v = check_step(Step::PlanAssign, &strict, None);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    assert_eq!(v.warnings.len(), 2, "{:?}", v.warnings);
}
