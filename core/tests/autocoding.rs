//! Autocoding (spec `002`): its committed schemas are what its answer types derive, and the demo's
//! code is real — each turn's files, as the demo player writes them from the files before, are
//! committed in `tests/e2e/fixtures/autocoding-demo-turns.json`, which the browser test
//! (`tests/e2e/sandbox.test.mjs`) runs in the code sandbox: the first turn fails a test, the last
//! passes them all, and each run's results are the ones the demo's stand-in for the sandbox
//! (`demo::run`, which plays sessions here where no JavaScript runs) reports, committed beside
//! them. `UPDATE_FIXTURES=1` rewrites the fixture, `UPDATE_SCHEMAS=1` the schemas.

#![allow(clippy::disallowed_methods)] // tests read their own files

use roundtable_core::protocol::autocoding::answer::{derive_schema, SCHEMA_NAMES};
use roundtable_core::protocol::autocoding::demo::{self, player, DEMO_REQUIREMENTS};
use roundtable_core::protocol::autocoding::prompt::CodeFile;
use serde_json::{json, Value};

/// The files after each of `turns` demo turns on `requirements`.
fn turns(requirements: &str, turns: usize) -> Value {
    let mut files: Vec<CodeFile> = Vec::new();
    let mut out = Vec::new();
    let mut runs = Vec::new();
    for _ in 0..turns {
        let answer = player(requirements, &files);
        assert!(answer.problems(&files).is_empty());
        files = answer.apply(&files);
        out.push(json!(files));
        runs.push(json!(
            demo::run(&files).expect("the stand-in runs the demo's own files")
        ));
    }
    json!({ "requirements": requirements, "turns": out, "runs": runs })
}

#[test]
fn the_committed_turns_are_what_the_demo_writes() {
    let derived = json!({
        "slug": turns(DEMO_REQUIREMENTS, 3),
        "checklist": turns("Keep a reading list.\n- add a book\n- mark a book read\n- list the unread ones", 2),
    });
    let text = serde_json::to_string_pretty(&derived).unwrap() + "\n";
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/e2e/fixtures/autocoding-demo-turns.json"
    );
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == text,
        "{path} is stale: run UPDATE_FIXTURES=1 cargo test -p roundtable-core --test autocoding"
    );
}

/// The committed schema files equal what the answer types derive (`UPDATE_SCHEMAS=1` rewrites
/// them; `bash scripts/codegen.sh` runs this test first).
#[test]
fn committed_schemas_are_current() {
    let update = std::env::var("UPDATE_SCHEMAS").is_ok();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    for name in SCHEMA_NAMES {
        let path = dir.join(format!("{name}.plain.json"));
        let text = serde_json::to_string_pretty(&derive_schema(name)).unwrap() + "\n";
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            committed,
            text,
            "{} is stale: run `bash scripts/codegen.sh`",
            path.display()
        );
    }
}

// ---- The kind of session: scenario files, the demo to approval, forks and files. ----

use std::fs;
use std::path::Path;

use roundtable_core::demo::play_demo;
use roundtable_core::engine::{
    Engine, Event, EventKind, ModelRef, PersonReply, Protocol, RunTarget, Status, Verdict,
};
use roundtable_core::export;
use roundtable_core::fork::{ForkAt, WhatIf};
use roundtable_core::protocol::autocoding::state::{self, AutocodingState, Phase};
use roundtable_core::protocol::autocoding::{
    Autocoding, AutocodingConfig, AutocodingSession, AutocodingStep,
};
use roundtable_core::session::Session;

fn demo_ref() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

/// A scenario's config: 002's defaults on the demo's requirements (or `requirements`), with
/// `overrides` laid over its JSON.
fn scenario_config(scenario: &Value) -> AutocodingConfig {
    let requirements = scenario["requirements"]
        .as_str()
        .unwrap_or(DEMO_REQUIREMENTS);
    let mut value =
        serde_json::to_value(AutocodingConfig::standard(requirements, demo_ref())).unwrap();
    for (k, v) in scenario["overrides"].as_object().into_iter().flatten() {
        value[k] = v.clone();
    }
    serde_json::from_value(value).expect("the config with its overrides reads")
}

/// One event as a line of the scenario's log.
fn event_line(e: &Event<Autocoding>) -> String {
    let name = e.kind.name();
    match &e.kind {
        EventKind::RoundStarted { round } => format!("{name} turn {round}"),
        EventKind::StepStarted { step, members, .. } => {
            format!(
                "{name} {} [{}]",
                Autocoding::step_name(*step),
                members.join(", ")
            )
        }
        EventKind::CallIssued { call } => format!("{name} {} {}", call.id, call.member),
        EventKind::AnswerInvalid {
            call_id, report, ..
        } => format!(
            "{name} {call_id}: {}",
            report
                .errors
                .iter()
                .map(|v| format!("{} ({})", v.path, v.message))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        EventKind::EffectIssued { effect_id, effect } => format!(
            "{name} {effect_id} {} of turn {}",
            effect.name, effect.input["turn"]
        ),
        EventKind::EffectDone { effect_id, output } => format!(
            "{name} {effect_id}: {} ({} test(s))",
            output["status"].as_str().unwrap_or("?"),
            output["tests"].as_array().map_or(0, Vec::len)
        ),
        EventKind::PersonAnswered {
            verdict, answer, ..
        } => {
            format!("{name} {verdict:?} {answer:?}")
        }
        EventKind::Applied { call_id, .. } | EventKind::AnswerReceived { call_id, .. } => {
            format!("{name} {call_id}")
        }
        _ => name.to_string(),
    }
}

/// Performs the effect due with the demo's stand-in for the sandbox, or `output` when given.
fn run_due(s: &mut AutocodingSession, output: Option<&Value>, now: u64) -> Option<String> {
    let effect = s.next_effects().into_iter().next()?;
    let output = match output {
        Some(o) => o.clone(),
        None => s.state().demo_effect(&effect).expect("a run_code effect"),
    };
    s.effect_done(&effect.id, output, now).unwrap();
    Some(format!(
        "ran {} for turn {}",
        effect.id, effect.input["turn"]
    ))
}

/// Plays a scenario: each step is `{"answer": …}` (to the call due), `{"demo": n}` (the next n
/// calls answered by the demo model), `{"run": output}` (the due run's output, as a sandbox
/// would hand it), `{"reply": {"verdict", "note"}}` (the person's word on an approval) or
/// `{"wrap_up": true}`; code due to run between them is run by the demo's stand-in.
fn play_scenario(scenario: &Value) -> (AutocodingSession, Vec<String>) {
    let mut s = AutocodingSession::new(scenario_config(scenario), 0).expect("a valid config");
    let mut now = 1;
    s.start_run(RunTarget::End, None, now).unwrap();
    let mut outcomes = Vec::new();
    for step in scenario["steps"].as_array().expect("steps") {
        now += 1;
        if let Some(output) = step.get("run") {
            outcomes.push(run_due(&mut s, Some(output), now).unwrap_or("no run due".into()));
            continue;
        }
        if let Some(reply) = step.get("reply") {
            let verdict: Verdict = serde_json::from_value(reply["verdict"].clone()).unwrap();
            let note = reply["note"].as_str().unwrap_or("");
            s.reply(None, PersonReply::verdict(verdict, note), now)
                .unwrap();
            outcomes.push(format!("person: {}", verdict.word()));
            continue;
        }
        if step.get("wrap_up").is_some() {
            s.finish(now).unwrap();
            outcomes.push("person wrapped up".into());
            continue;
        }
        let n = step.get("demo").and_then(Value::as_u64).unwrap_or(1);
        for _ in 0..n {
            now += 1;
            if let Some(ran) = run_due(&mut s, None, now) {
                outcomes.push(ran);
            }
            let Some(call) = s.calls_due().into_iter().next() else {
                outcomes.push(format!("no call due ({})", s.status().word()));
                break;
            };
            let text = match step.get("answer") {
                Some(Value::String(t)) => t.clone(),
                Some(v) => v.to_string(),
                None => s.state().demo_answer(&call.call, &call.envelope).text,
            };
            let id = call.call.id.clone();
            let out = s.submit(&id, &text, None, now).unwrap();
            outcomes.push(format!(
                "{id} {} → {}",
                Autocoding::step_name(call.call.step),
                serde_json::to_value(&out).unwrap()["outcome"]
                    .as_str()
                    .unwrap()
            ));
        }
    }
    outcomes.push(format!("status: {}", s.status().word()));
    (s, outcomes)
}

#[test]
fn scenario_files_play_as_their_snapshots_say() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/autocoding");
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in &files {
        let scenario: Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        let (s, outcomes) = play_scenario(&scenario);
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        // What each scenario promises of its end, checked, not only snapshotted.
        let expect = &scenario["expect"];
        let st = &s.state().state;
        assert_eq!(
            s.status().word(),
            expect["engine"].as_str().unwrap(),
            "{name}: {outcomes:#?}"
        );
        assert_eq!(
            st.status.word(),
            expect["status"].as_str().unwrap(),
            "{name}: {outcomes:#?}"
        );
        assert_eq!(st.phase.word(), expect["phase"].as_str().unwrap(), "{name}");
        assert_eq!(json!(st.quality_scores), expect["scores"], "{name}");
        if let Some(n) = expect["invalid"].as_u64() {
            let invalid = s
                .events()
                .iter()
                .filter(|e| matches!(e.kind, EventKind::AnswerInvalid { .. }))
                .count();
            assert_eq!(invalid as u64, n, "{name}: invalid answers");
        }
        // 002's state as save writes it loads back, and the log replays to the same session.
        let saved = st.save().expect("the session's state saves");
        assert_eq!(
            AutocodingState::load(&saved).map(|l| l.state).as_ref(),
            Ok(st),
            "{name}"
        );
        assert_eq!(Engine::replay(s.events()).unwrap(), s, "{name}");
        let view = roundtable_core::session::KindView::kind_view(s.state());
        let rows: Vec<String> = view
            .turns
            .iter()
            .map(|r| {
                format!(
                    "turn {}: {} · score {:?} · approved {} · unmet [{}]{}",
                    r.turn,
                    r.run,
                    r.score,
                    r.approved,
                    r.findings
                        .iter()
                        .filter(|f| !f.met)
                        .map(|f| f.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    r.person
                        .as_deref()
                        .map(|p| format!(" · {p}"))
                        .unwrap_or_default()
                )
            })
            .collect();
        let text = format!(
            "{}\n\n## outcomes\n{}\n\n## events\n{}\n\n## view\n{}\n{}\n\n## 002 state\n{}\n",
            scenario["about"].as_str().unwrap_or(""),
            outcomes.join("\n"),
            s.events()
                .iter()
                .map(event_line)
                .collect::<Vec<_>>()
                .join("\n"),
            view.status,
            rows.join("\n"),
            saved,
        );
        insta::assert_snapshot!(format!("autocoding_scenario_{name}"), text);
    }
    assert!(files.len() >= 4, "the scenario files are found");
}

/// A session on the demo's requirements played by the demo model (and the sandbox's stand-in)
/// until it stops; the person approves when asked.
fn played(config: AutocodingConfig) -> (AutocodingSession, roundtable_core::demo::PlayReport) {
    let mut s = AutocodingSession::new(config, 0).unwrap();
    let mut now = 1;
    let report = play_demo(&mut s, &mut now, 100).unwrap();
    (s, report)
}

#[test]
fn the_demo_fails_a_test_early_passes_later_and_its_scores_rise_to_approval() {
    let (s, report) = played(AutocodingConfig::standard(DEMO_REQUIREMENTS, demo_ref()));
    assert_eq!(s.status(), &Status::Done);
    let st = &s.state().state;
    assert_eq!((st.phase, st.current_turn), (Phase::Approved, 3));
    assert_eq!(st.quality_scores, [0.25, 0.75, 1.0]);
    assert_eq!(report.effects, 3, "each turn's code ran once");
    let runs: Vec<&str> = s
        .state()
        .turns
        .iter()
        .map(|t| t.run.as_ref().unwrap().status.word())
        .collect();
    assert_eq!(runs, ["failed", "failed", "passed"]);
    // The reason is visible in the feedback: the failing test and its message.
    let first = &st.turn_history[0].feedback;
    assert!(
        first.contains(
            "R2 (turns accented letters into plain ones (Crème Brûlée → creme-brulee)): NOT MET"
        ),
        "{first}"
    );
    assert!(
        first.contains("expected \"creme-brulee\", got \"crème-brûlée\""),
        "{first}"
    );
    // The checklist requirements reach approval in two turns.
    let (s, _) = played(AutocodingConfig::standard(
        "Keep a reading list.\n- add a book\n- mark a book read\n- list the unread ones",
        demo_ref(),
    ));
    assert_eq!(s.state().state.quality_scores, [0.67, 1.0]);
}

/// What a model reads: the player's first prompt, the coach's with a failing run, the player's
/// second with the coach's feedback — each a fresh context (the persona and one prompt), no chat.
#[test]
fn each_turn_starts_fresh_and_the_prompts_read_as_snapshotted() {
    let mut config = AutocodingConfig::standard(DEMO_REQUIREMENTS, demo_ref());
    config.player.persona = "Prefers small pure functions.".into();
    let (s, _) = played(config);
    let calls = &s.state().core.calls;
    let prompt = |i: usize| {
        let c = &calls[i].call;
        c.messages
            .iter()
            .map(|m| format!("[{:?}]\n{}", m.role, m.content))
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    assert_eq!(calls[0].call.step, AutocodingStep::Player);
    assert_eq!(calls[1].call.step, AutocodingStep::Coach);
    for c in calls {
        let users = c
            .call
            .messages
            .iter()
            .filter(|m| format!("{:?}", m.role) == "User")
            .count();
        assert_eq!(users, 1, "{}: one prompt, no growing chat", c.call.id);
    }
    let coach = prompt(1);
    assert!(coach.contains("FAILED: R2"), "{coach}");
    let second = prompt(2);
    assert!(
        second.contains("The coach's feedback on your last turn") && second.contains("NOT MET")
    );
    assert!(
        second.contains("// stage 1"),
        "the player sees the files as they stand"
    );
    insta::assert_snapshot!("autocoding_session_player_turn_1", prompt(0));
    insta::assert_snapshot!("autocoding_session_coach_turn_1", coach);
    insta::assert_snapshot!("autocoding_session_player_turn_2", second);
    let approval = {
        let mut config = AutocodingConfig::standard(DEMO_REQUIREMENTS, demo_ref());
        config.person_approval = true;
        let mut s = AutocodingSession::new(config, 0).unwrap();
        let mut now = 1;
        s.start(now).unwrap();
        while !matches!(s.status(), Status::AwaitingPerson { .. }) {
            now += 1;
            if run_due(&mut s, None, now).is_some() {
                continue;
            }
            let call = s.calls_due().into_iter().next().expect("a call");
            let text = s.state().demo_answer(&call.call, &call.envelope).text;
            s.submit(&call.call.id, &text, None, now).unwrap();
        }
        let message = s
            .state()
            .core
            .open_asks()
            .next()
            .unwrap()
            .halt
            .message()
            .to_string();
        message
    };
    insta::assert_snapshot!("autocoding_session_approval", approval);
}

#[test]
fn a_revision_note_goes_to_the_player_and_the_coach_s_approval_alone_does_not_end_it() {
    let mut config = AutocodingConfig::standard(DEMO_REQUIREMENTS, demo_ref());
    config.person_approval = true;
    let mut s = AutocodingSession::new(config, 0).unwrap();
    let mut now = 1;
    s.start(now).unwrap();
    let mut asked = 0;
    while s.status() != &Status::Done {
        now += 1;
        if let Status::AwaitingPerson { halt, .. } = s.status().clone() {
            assert!(halt.is_approval());
            asked += 1;
            let reply = if asked == 1 {
                PersonReply::verdict(Verdict::Revise, "Also keep digits in the slug.")
            } else {
                PersonReply::verdict(Verdict::Approve, "")
            };
            s.reply(None, reply, now).unwrap();
            if asked == 1 {
                // Still going: the next turn's player reads the note.
                assert_eq!(s.state().state.phase, Phase::Player);
                let call = s.calls_due().into_iter().next().unwrap();
                let text: String = call
                    .call
                    .messages
                    .iter()
                    .map(|m| m.content.to_string())
                    .collect();
                assert!(
                    text.contains("The person asked for a revision: Also keep digits in the slug."),
                    "{text}"
                );
            }
            continue;
        }
        if run_due(&mut s, None, now).is_some() {
            continue;
        }
        let call = s.calls_due().into_iter().next().expect("a call");
        let text = s.state().demo_answer(&call.call, &call.envelope).text;
        s.submit(&call.call.id, &text, None, now).unwrap();
    }
    let st = &s.state().state;
    assert_eq!(asked, 2);
    assert_eq!((st.phase, st.current_turn), (Phase::Approved, 4));
    // The history keeps the coach's own word: it approved turn 2 too, which the person sent
    // back for a revision.
    assert_eq!(
        st.turn_history
            .iter()
            .map(|t| t.approved)
            .collect::<Vec<_>>(),
        [false, false, true, true]
    );
    assert_eq!(Engine::replay(s.events()).unwrap(), s);
}

#[test]
fn export_import_and_a_fork_at_the_coach_s_call_run_no_code_again() {
    let (played_once, report) = played(AutocodingConfig::standard(DEMO_REQUIREMENTS, demo_ref()));
    assert_eq!(report.effects, 3);
    let session = Session::Autocoding(played_once);
    let back = export::from_file(&export::to_file(&session, 99)).unwrap();
    assert_eq!(back, session, "the runs travel in the file");
    assert!(
        back.next_effects().is_empty(),
        "an imported session owes no run"
    );

    // Fork at the second turn's coach call: the run before it is in the kept events.
    let Session::Autocoding(a) = &session else {
        unreachable!()
    };
    let coach_2 = a
        .state()
        .core
        .calls
        .iter()
        .filter(|c| c.call.step == AutocodingStep::Coach)
        .nth(1)
        .unwrap()
        .call
        .id
        .clone();
    let mut fork = session
        .fork(&ForkAt::Call(coach_2), "original-1", WhatIf::default(), 200)
        .unwrap();
    fork.run(RunTarget::End, None, 201).unwrap();
    assert!(
        fork.next_effects().is_empty(),
        "the fork asks the coach, not the sandbox"
    );
    let Session::Autocoding(f) = &mut fork else {
        unreachable!()
    };
    let mut now = 202;
    let report = play_demo(f, &mut now, 100).unwrap();
    assert_eq!(report.effects, 1, "only the third turn's new code runs");
    assert_eq!(f.state().state.quality_scores, [0.25, 0.75, 1.0]);
}

#[test]
fn a_saved_state_goes_on_in_a_session() {
    // A state autocoding_advance returned after one turn, written by hand as Hegelion would.
    let saved = serde_json::json!({"schema_version": 1, "session_id": "3f1c", "session_name": "slugs", "requirements": DEMO_REQUIREMENTS, "current_turn": 1, "max_turns": 5, "phase": "player", "status": "active", "turn_history": [{"turn": 0, "feedback": "Nothing yet.", "approved": false, "score": 0.1}], "last_coach_feedback": "Nothing yet.", "quality_scores": [0.1], "approval_threshold": 0.9}).to_string();
    let state = AutocodingState::load(&saved).unwrap().state;
    let mut config = AutocodingConfig::standard(DEMO_REQUIREMENTS, demo_ref());
    config.max_turns = 5;
    config.resume = Some(state.clone());
    // Before it runs, the session stands where the state stands: one turn played, of 5.
    let fresh = AutocodingSession::new(config.clone(), 0).unwrap();
    assert_eq!(fresh.state().core.round, 1);
    let view = roundtable_core::session::KindView::kind_view(fresh.state());
    assert_eq!(view.status, "Turn 2 of 5: the player writes");
    assert_eq!(
        view.turns
            .iter()
            .map(|r| (r.turn, r.score, r.saved_feedback.as_deref()))
            .collect::<Vec<_>>(),
        [(1, Some(0.1), Some("Nothing yet."))]
    );
    let (s, _) = played(config.clone());
    let st = &s.state().state;
    assert_eq!(
        (st.session_id.as_str(), st.phase, st.current_turn),
        ("3f1c", Phase::Approved, 4)
    );
    assert_eq!(st.quality_scores, [0.1, 0.25, 0.75, 1.0]);
    assert!(s.state().core.calls[0].call.messages[0]
        .content
        .contains("Turn 2 of 5"));
    // Its requirements, turn limit and threshold are its own: 002 has no tool that changes them.
    for change in [
        |c: &mut AutocodingConfig| c.max_turns = 10,
        |c: &mut AutocodingConfig| c.approval_threshold = 0.5,
        |c: &mut AutocodingConfig| c.requirements = "something else".into(),
    ] {
        let mut other = config.clone();
        change(&mut other);
        let err = AutocodingSession::new(other, 0).unwrap_err().to_string();
        assert!(err.contains("keeps its own requirements"), "{err}");
    }
    // A state that has ended, or waits for the coach, cannot be gone on from.
    for (phase, status, why) in [
        (Phase::Coach, state::Status::Active, "in the coach phase"),
        (
            Phase::Approved,
            state::Status::Approved,
            "its status is approved",
        ),
        (
            Phase::Coach,
            state::Status::Rejected,
            "its status is rejected",
        ),
    ] {
        let mut ended = state.clone();
        ended.phase = phase;
        ended.status = status;
        config.resume = Some(ended);
        let err = AutocodingSession::new(config.clone(), 0)
            .unwrap_err()
            .to_string();
        assert!(err.contains(why), "{err}");
    }
}
