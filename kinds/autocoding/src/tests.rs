//! The autocoding tools against spec `002`: the state's exact fields, the phase rules, the error
//! objects, load's field-by-field check, and the prompts (snapshots: a model reads them).

use serde_json::{json, Value};

use super::prompt::{self, CodeFile, FileError, RunStatus, TestResult, TestRun, Workspace};
use super::state::{AutocodingState, Phase, Status};
use super::tools::{self, ToolError};

fn err(e: Box<ToolError>) -> Value {
    serde_json::to_value(e).unwrap()
}

fn started() -> AutocodingState {
    tools::init(
        &json!({ "requirements": "- add(a, b) returns the sum\n- add throws on non-numbers", "max_turns": 3 }),
        "s-1",
    )
    .unwrap()
}

#[test]
fn init_writes_the_spec_fields_in_the_spec_order_and_starts_with_the_player() {
    let state = started();
    let text = serde_json::to_string(&state).unwrap();
    assert_eq!(
        text,
        r#"{"schema_version":1,"session_id":"s-1","session_name":null,"requirements":"- add(a, b) returns the sum\n- add throws on non-numbers","current_turn":0,"max_turns":3,"phase":"player","status":"active","turn_history":[],"last_coach_feedback":null,"quality_scores":[],"approval_threshold":0.9}"#
    );
}

#[test]
fn init_refuses_each_bad_argument_as_hegelion_does() {
    let cases = [
        (
            json!({}),
            "requirements",
            json!("non-empty string"),
            json!(null),
        ),
        (
            json!({ "requirements": "  " }),
            "requirements",
            json!("non-empty string"),
            json!("  "),
        ),
        (
            json!({ "requirements": "r", "max_turns": 0 }),
            "max_turns",
            json!(">=1"),
            json!(0),
        ),
        (
            json!({ "requirements": "r", "max_turns": -2 }),
            "max_turns",
            json!(">=1"),
            json!(-2),
        ),
        (
            json!({ "requirements": "r", "max_turns": "3" }),
            "max_turns",
            json!("integer"),
            json!("3"),
        ),
        (
            json!({ "requirements": "r", "approval_threshold": 1.5 }),
            "approval_threshold",
            json!("0.0..1.0"),
            json!(1.5),
        ),
        (
            json!({ "requirements": "r", "approval_threshold": "high" }),
            "approval_threshold",
            json!("number"),
            json!("high"),
        ),
        (
            json!({ "requirements": "r", "session_name": "" }),
            "session_name",
            json!("non-empty string"),
            json!(""),
        ),
    ];
    for (args, key, expected, received) in cases {
        let e = err(tools::init(&args, "s").unwrap_err());
        assert_eq!(
            e,
            json!({
                "schema_version": 1,
                "tool": "autocoding_init",
                "error": format!("Invalid argument: {key}"),
                "expected": expected,
                "received": received,
                "pointer": format!("/{key}"),
            }),
            "{args}"
        );
    }
}

#[test]
fn a_call_in_the_wrong_phase_returns_the_spec_error_object() {
    let coach_state = tools::player_prompt(&json!({ "state": started() }))
        .unwrap()
        .state;
    // The example of spec 002, "Error Responses", word for word.
    assert_eq!(
        err(tools::player_prompt(&json!({ "state": coach_state })).unwrap_err()),
        json!({
            "schema_version": 1,
            "tool": "player_prompt",
            "error": "Invalid phase: coach",
            "expected": "player",
            "received": "coach",
            "hint": "If you just called autocoding_init or autocoding_advance, pass that returned state into player_prompt.",
            "pointer": "/state/phase"
        })
    );
    let e = err(tools::coach_prompt(&json!({ "state": started() })).unwrap_err());
    assert_eq!(
        (e["tool"].clone(), e["error"].clone()),
        (json!("coach_prompt"), json!("Invalid phase: player"))
    );
    let e = err(tools::advance(
        &json!({ "state": started(), "coach_feedback": "f", "approved": false }),
    )
    .unwrap_err());
    assert_eq!(
        (e["tool"].clone(), e["expected"].clone()),
        (json!("autocoding_advance"), json!("coach"))
    );
}

fn review(state: AutocodingState, approved: bool, score: f64) -> AutocodingState {
    let coach = tools::player_prompt(&json!({ "state": state }))
        .unwrap()
        .state;
    let coach = tools::coach_prompt(&json!({ "state": coach }))
        .unwrap()
        .state;
    tools::advance(&json!({
        "state": coach,
        "coach_feedback": format!("review at {score}"),
        "approved": approved,
        "compliance_score": score,
    }))
    .unwrap()
}

#[test]
fn the_loop_advances_until_an_approval_at_the_threshold() {
    let s = review(started(), false, 0.5);
    assert_eq!(
        (s.phase, s.status, s.current_turn),
        (Phase::Player, Status::Active, 1)
    );
    assert_eq!(s.last_coach_feedback.as_deref(), Some("review at 0.5"));
    // An approval below the threshold does not end the session; the history keeps the coach's
    // own word.
    let s = review(s, true, 0.8);
    assert_eq!(
        (s.phase, s.status, s.current_turn),
        (Phase::Player, Status::Active, 2)
    );
    assert!(s.turn_history[1].approved);
    let s = review(s, true, 0.95);
    assert_eq!(
        (s.phase, s.status, s.current_turn),
        (Phase::Approved, Status::Approved, 3)
    );
    assert_eq!(s.quality_scores, vec![0.5, 0.8, 0.95]);
    assert_eq!(
        s.turn_history
            .iter()
            .map(|t| (t.turn, t.approved))
            .collect::<Vec<_>>(),
        vec![(0, false), (1, true), (2, true)]
    );
    // An ended session takes no more turns.
    let e = err(tools::player_prompt(&json!({ "state": s })).unwrap_err());
    assert_eq!(e["error"], json!("Invalid phase: approved"));
}

#[test]
fn the_session_times_out_when_the_turns_run_out() {
    let mut s = started();
    for _ in 0..3 {
        s = review(s, false, 0.4);
    }
    assert_eq!(
        (s.phase, s.status, s.current_turn),
        (Phase::Timeout, Status::Timeout, 3)
    );
}

#[test]
fn a_rejected_session_is_refused_with_its_status() {
    let coach = tools::player_prompt(&json!({ "state": started() }))
        .unwrap()
        .state;
    let rejected = AutocodingState {
        status: Status::Rejected,
        ..coach
    };
    let e = err(tools::coach_prompt(&json!({ "state": rejected })).unwrap_err());
    assert_eq!(
        (e["error"].clone(), e["received"].clone()),
        (json!("Session is not active: rejected"), json!("rejected"))
    );
}

#[test]
fn a_state_written_by_hegelion_loads_and_saves_back_the_same() {
    // The fields of Hegelion's (schema 1) AutocodingState.to_dict, as its save writes them.
    let hegelion = r#"{
  "schema_version": 1,
  "session_id": "3f2a9c1e-5d7b-4e8a-9c0d-1b2e3f4a5b6c",
  "session_name": "rate limiter",
  "requirements": "- limit to 10 requests a second",
  "current_turn": 1,
  "max_turns": 10,
  "phase": "player",
  "status": "active",
  "turn_history": [
    {
      "turn": 0,
      "feedback": "missing tests",
      "approved": false,
      "score": 0.7
    }
  ],
  "last_coach_feedback": "missing tests",
  "quality_scores": [
    0.7
  ],
  "approval_threshold": 0.9
}"#;
    let loaded = tools::load(hegelion).unwrap();
    assert!(loaded.warnings.is_empty());
    assert_eq!(loaded.state.save().unwrap(), hegelion);
    // What save writes, load reads.
    assert_eq!(
        tools::load(&tools::save(&json!({ "state": loaded.state })).unwrap())
            .unwrap()
            .state,
        loaded.state
    );
}

#[test]
fn load_reports_every_problem_with_its_pointer() {
    let bad = r#"{
  "schema_version": 2,
  "requirements": "",
  "current_turn": 12,
  "max_turns": 0,
  "phase": "review",
  "status": "Done",
  "turn_history": [{"turn": -1, "feedback": 3, "approved": "no", "score": 1.2}, "x"],
  "quality_scores": [0.5, "high"],
  "approval_threshold": 2
}"#;
    let e = tools::load(bad).unwrap_err();
    assert_eq!(e.tool, "autocoding_load");
    assert_eq!(e.pointer, "/schema_version");
    insta::assert_snapshot!(
        "load_problems",
        e.violations
            .iter()
            .map(|v| format!(
                "{} | {} | expected {} | received {} | {}",
                v.path, v.message, v.expected, v.received, v.hint
            ))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(tools::load("not json").unwrap_err().violations[0]
        .message
        .starts_with("the state is not JSON"));
    assert_eq!(tools::load("[1]").unwrap_err().violations[0].path, "");
}

#[test]
fn the_prompts_read_as_the_model_will_read_them() {
    let first = prompt::player(&started(), Workspace::default());
    insta::assert_snapshot!("player_first_turn", first.prompt);
    let s = review(started(), false, 0.5);
    let files = vec![
        CodeFile { path: "lib/add.js".into(), content: "module.exports = (a, b) => a + b;\n".into() },
        CodeFile {
            path: "add.test.js".into(),
            content: "const add = require('./lib/add.js');\ntest('adds', () => assert.equal(add(1, 2), 3));\n".into(),
        },
        CodeFile { path: "NOTES.md".into(), content: "Throws are still to do.".into() },
    ];
    let run = TestRun {
        status: RunStatus::Failed,
        tests: vec![
            TestResult {
                file: "add.test.js".into(),
                name: "adds".into(),
                passed: true,
                message: String::new(),
            },
            TestResult {
                file: "add.test.js".into(),
                name: "throws on text".into(),
                passed: false,
                message: "Error: expected the function to throw".into(),
            },
        ],
        errors: vec![FileError {
            file: "broken.js".into(),
            message: "SyntaxError: Unexpected token ';'".into(),
        }],
    };
    let work = Workspace {
        files: &files,
        run: Some(&run),
    };
    insta::assert_snapshot!("player_with_feedback", prompt::player(&s, work).prompt);
    let coach = tools::player_prompt(&json!({ "state": s })).unwrap().state;
    let p = prompt::coach(&coach, work);
    insta::assert_snapshot!("coach", p.prompt);
    insta::assert_snapshot!("coach_expected_format", p.expected_format);
    insta::assert_snapshot!(
        "single_shot",
        prompt::single_shot("- add(a, b) returns the sum", 5).prompt
    );
}

#[test]
fn the_player_prompt_tool_shows_the_files_it_is_given_and_refuses_bad_ones() {
    let out = tools::player_prompt(&json!({
        "state": started(),
        "files": [{ "path": "a.js", "content": "module.exports = 1;" }],
    }))
    .unwrap();
    assert!(out
        .prompt
        .prompt
        .contains("### a.js\n```js\nmodule.exports = 1;\n```"));
    let v = serde_json::to_value(&out).unwrap();
    assert_eq!(
        (
            v["current_phase"].clone(),
            v["next_phase"].clone(),
            v["state"]["phase"].clone()
        ),
        (json!("player"), json!("coach"), json!("coach"))
    );
    assert_eq!(v["phase"], json!("player"));
    assert_eq!(v["requirements_embedded"], json!(true));
    let e = err(tools::player_prompt(&json!({ "state": started(), "files": "a.js" })).unwrap_err());
    assert_eq!(e["error"], json!("Invalid argument: files"));
}
