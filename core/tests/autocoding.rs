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
    Event, EventKind, ModelRef, PersonReply, Protocol, RunTarget, Status, Verdict,
};
use roundtable_core::export;
use roundtable_core::fork::{ForkAt, WhatIf};
use roundtable_core::protocol::autocoding::state::{self, AutocodingState, Phase};
use roundtable_core::protocol::autocoding::{
    Autocoding, AutocodingConfig, AutocodingSession, AutocodingStep,
};
use roundtable_core::session::Session;

/// The autocoding session `s` runs, when it runs one (a copy: the session holds its engine).
fn autocoding_of(s: &Session) -> Option<AutocodingSession> {
    AutocodingSession::of(s.any_engine().clone()).ok()
}

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
fn event_line(e: &Event) -> String {
    let name = e.kind.name();
    match &e.kind {
        EventKind::RoundStarted { round } => format!("{name} turn {round}"),
        EventKind::StepStarted { step, members, .. } => {
            format!(
                "{name} {} [{}]",
                Autocoding::step_name(Autocoding::step_of(*step)),
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
        EventKind::AnswerReceived {
            call_id,
            raw,
            whole_bytes: Some(whole),
            ..
        } => format!(
            "{name} {call_id} (the first {} of {whole} bytes kept)",
            raw.len()
        ),
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

/// A player's file set of one file, `bytes` long in all as JSON text.
fn answer_of_bytes(bytes: usize) -> String {
    let frame = r#"{"files":[{"path":"big.js","content":""}],"delete":[]}"#;
    let content = "x".repeat(bytes - frame.len());
    format!(r#"{{"files":[{{"path":"big.js","content":"{content}"}}],"delete":[]}}"#)
}

/// Plays a scenario: each step is `{"answer": …}` (to the call due), `{"answer_bytes": n}` (a
/// player's file set `n` bytes long, to the call due), `{"demo": n}` (the next n
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
            let text = match (step.get("answer"), step.get("answer_bytes")) {
                (Some(Value::String(t)), _) => t.clone(),
                (Some(v), _) => v.to_string(),
                (None, Some(n)) => answer_of_bytes(n.as_u64().expect("a length") as usize),
                (None, None) => s.state().demo_answer(&call.call, call.envelope.get()).text,
            };
            let id = call.call.id.clone();
            let out = s.submit(&id, &text, None, now).unwrap();
            outcomes.push(format!(
                "{id} {} → {}",
                Autocoding::step_name(Autocoding::step_of(call.call.step)),
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
        assert_eq!(AutocodingSession::replay(s.events()).unwrap(), s, "{name}");
        // Exported and imported (as a file, or a share link: the same file deflated), the
        // session is the same: every event, the verdicts and the repair prompts included.
        let file = export::to_file(&Session::of_kind(s.clone()), 9);
        let Some(imported) = autocoding_of(&export::from_file(&file).unwrap()) else {
            panic!("{name}: an autocoding file imports as autocoding");
        };
        assert_eq!(imported, s, "{name}: imported");
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
    assert_eq!(
        Autocoding::step_of(calls[0].call.step),
        AutocodingStep::Player
    );
    assert_eq!(
        Autocoding::step_of(calls[1].call.step),
        AutocodingStep::Coach
    );
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
            let text = s.state().demo_answer(&call.call, call.envelope.get()).text;
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
        let text = s.state().demo_answer(&call.call, call.envelope.get()).text;
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
    assert_eq!(AutocodingSession::replay(s.events()).unwrap(), s);
}

#[test]
fn export_import_and_a_fork_at_the_coach_s_call_run_no_code_again() {
    let (played_once, report) = played(AutocodingConfig::standard(DEMO_REQUIREMENTS, demo_ref()));
    assert_eq!(report.effects, 3);
    let session = Session::of_kind(played_once);
    let back = export::from_file(&export::to_file(&session, 99)).unwrap();
    assert_eq!(back, session, "the runs travel in the file");
    assert!(
        back.next_effects().is_empty(),
        "an imported session owes no run"
    );

    // Fork at the second turn's coach call: the run before it is in the kept events.
    let Some(a) = session.as_kind::<Autocoding>() else {
        unreachable!()
    };
    let coach_2 = a
        .state()
        .core
        .calls
        .iter()
        .filter(|c| Autocoding::step_of(c.call.step) == AutocodingStep::Coach)
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
    let Some(mut f) = fork.as_kind_mut::<Autocoding>() else {
        unreachable!()
    };
    let mut now = 202;
    let report = play_demo(&mut f, &mut now, 100).unwrap();
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

// ---- An answer refused for its length: the log keeps its head and its length. ----

use roundtable_core::engine::long_answer::{self, ANSWER_KEPT_BYTES};
use roundtable_core::protocol::autocoding::answer;

/// The kept text and whole length of `call_id`'s answer, and its `answer_invalid` report's
/// errors and repair prompt, as the log holds them.
fn refusal_in(
    s: &AutocodingSession,
    call_id: &str,
) -> (
    String,
    Option<u64>,
    Vec<roundtable_core::validate::Violation>,
    String,
) {
    let (raw, whole) = s
        .events()
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::AnswerReceived {
                call_id: c,
                raw,
                whole_bytes,
                ..
            } if c == call_id => Some((raw.to_string(), *whole_bytes)),
            _ => None,
        })
        .expect("the answer is in the log");
    let (errors, repair) = s
        .events()
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::AnswerInvalid {
                call_id: c,
                report,
                repair_prompt,
            } if c == call_id => Some((report.errors.clone(), repair_prompt.clone())),
            _ => None,
        })
        .expect("the refusal is in the log");
    (raw, whole, errors, repair)
}

/// The messages of the call now due (the repair).
fn due_messages(s: &AutocodingSession) -> (String, Vec<roundtable_core::engine::Message>) {
    let due = s.calls_due().into_iter().next().expect("a call is due");
    (due.call.id.clone(), due.call.messages.clone())
}

#[test]
fn an_answer_refused_for_its_length_is_kept_cut_and_travels_as_it_was_judged() {
    let mut s =
        AutocodingSession::new(AutocodingConfig::standard(DEMO_REQUIREMENTS, demo_ref()), 0)
            .unwrap();
    s.start_run(RunTarget::End, None, 1).unwrap();
    let big = answer_of_bytes(8 * 1024 * 1024 + 32);
    s.submit("call-1", &big, None, 2).unwrap();

    // The log keeps the first 64 KiB and the whole length; the verdict is the length refusal the
    // live run made of the whole answer (the kept head alone would read as broken JSON).
    let (kept, whole, errors, repair) = refusal_in(&s, "call-1");
    assert_eq!(kept.len(), ANSWER_KEPT_BYTES);
    assert!(big.starts_with(&kept));
    assert_eq!(whole, Some(big.len() as u64));
    assert_eq!(errors, vec![answer::too_long(big.len()).unwrap()]);
    assert!(
        errors[0].message.contains("8388640 bytes long"),
        "{errors:?}"
    );
    assert!(repair.contains("8388640 bytes long"), "{repair}");
    let view = Session::of_kind(s.clone()).call_view("call-1").unwrap();
    assert_eq!(view.whole_bytes, Some(big.len() as u64));
    assert_eq!(
        long_answer::kept_words(big.len() as u64, kept.len()),
        "The answer was 8.0 MB (8388640 bytes); the first 64.0 KB are kept."
    );

    // The repair conversation quotes the kept head and says how long the answer was.
    let (repair_id, messages) = due_messages(&s);
    assert_eq!(repair_id, "call-2");
    let quote = &messages[messages.len() - 2].content;
    assert_eq!(**quote, *long_answer::quoted_cut(&kept, big.len() as u64));
    assert_eq!(*messages.last().unwrap().content, *repair);

    // Replay, export, import and a share link give the same session; the file is small.
    assert_eq!(AutocodingSession::replay(s.events()).unwrap(), s);
    let session = Session::of_kind(s.clone());
    let file = export::to_file(&session, 3);
    assert!(file.len() < 200_000, "{} bytes", file.len());
    let link = roundtable_core::share_link::encode(&miniz_oxide::deflate::compress_to_vec(
        file.as_bytes(),
        9,
    ));
    let bytes = roundtable_core::share_link::decode(&format!("#{link}")).unwrap();
    for back in [
        export::from_file(&file).unwrap(),
        export::from_file(export::text_of_file(&bytes).unwrap()).unwrap(),
    ] {
        assert_eq!(back, session);
    }

    // A fork at the repair asks it again with the same conversation.
    let mut fork = session
        .fork(
            &ForkAt::Call("call-2".into()),
            "original-1",
            WhatIf::default(),
            10,
        )
        .unwrap();
    fork.run(RunTarget::End, None, 11).unwrap();
    let Some(f) = autocoding_of(&fork) else {
        unreachable!()
    };
    assert_eq!(refusal_in(&f, "call-1"), (kept, whole, errors, repair));
    assert_eq!(due_messages(&f).1, messages);
}

/// A session file an older build saved, whose event keeps an over-long answer whole (no
/// `whole_bytes`): it imports and replays as it was, and exports again unchanged.
#[test]
fn a_file_saved_with_the_whole_over_long_answer_imports_unchanged() {
    let file = include_str!("files/v3-autocoding-long-answer.roundtable.json");
    let session = export::from_file(file).unwrap();
    let Some(s) = autocoding_of(&session) else {
        panic!("an autocoding file")
    };
    let s = &s;
    let (raw, whole, errors, repair) = refusal_in(s, "call-1");
    assert!(
        raw.len() > answer::limits::RAW_BYTES_MAX,
        "the answer is whole"
    );
    assert_eq!(whole, None);
    assert_eq!(errors, vec![answer::too_long(raw.len()).unwrap()]);
    // The repair conversation quotes the whole answer's ends, as the older build did.
    let (_, messages) = due_messages(s);
    assert_eq!(
        *messages[messages.len() - 2].content,
        *roundtable_core::engine::core::quoted_answer(&raw)
    );
    assert_eq!(*messages.last().unwrap().content, *repair);
    // Exported again, its events are the file's, byte for byte.
    let again = export::to_file(&session, 3);
    let events = |text: &str| serde_json::from_str::<Value>(text).unwrap()["events"].clone();
    assert_eq!(events(&again), events(file));
}
