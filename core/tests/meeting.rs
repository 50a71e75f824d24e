//! The meeting of spec `001`: 001's validation rules with exact pointers, the fallback rule, demo
//! meetings played to their minutes, replay and export/import.

use roundtable_core::demo::play_with;
use roundtable_core::engine::{EventKind, Protocol, Status};
use roundtable_core::export;
use roundtable_core::protocol::meeting::{
    answer, Decision, MeetingConfig, MeetingSession, MeetingState, Phase, PhaseState, TurnKind,
};
use roundtable_core::session::Session;

fn demo_ref() -> roundtable_core::engine::ModelRef {
    roundtable_core::engine::ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

fn config(agenda: &str) -> MeetingConfig {
    MeetingConfig::standard(
        agenda,
        &[
            ("engineer-1", "Ana", "Backend engineer"),
            ("designer-1", "Bo", "Product designer"),
            ("pm-1", "Cy", "Product manager"),
        ],
        demo_ref(),
    )
}

const AGENDA: &str = "Pick a database for the notes app.\nWe have 3 weeks and a budget of £200 a month. It must work offline.";

fn played(agenda: &str) -> MeetingSession {
    let mut s = MeetingSession::new(config(agenda), 0).unwrap();
    let mut now = 1;
    play_with(
        &mut s,
        |st, c| st.demo_answer(c, &c.envelope),
        &mut now,
        500,
    )
    .unwrap();
    s
}

#[test]
fn a_demo_meeting_runs_through_the_seven_phases_to_its_minutes() {
    let s = played(AGENDA);
    let st = s.state();
    assert_eq!(s.status(), &Status::Done, "{:?}", s.status());
    assert_eq!(st.phase, Phase::Conclusion);
    let minutes = st.minutes.as_ref().expect("minutes written");
    assert!(!minutes.decisions.is_empty(), "{minutes:?}");
    assert!(!minutes.action_items.is_empty(), "{minutes:?}");
    for a in &minutes.action_items {
        assert!(st.attendee(&a.owner).is_some(), "owner {} attends", a.owner);
    }
    // Every phase was visited, in order.
    let mut phases = vec![Phase::Initialization];
    for t in &st.transcript {
        if let roundtable_core::protocol::meeting::Turn::Decision {
            decision: Decision::ChangePhase { new_phase, .. },
            ..
        } = t
        {
            phases.push(*new_phase);
        }
    }
    assert_eq!(phases, Phase::ALL.to_vec());
    // The demo's orchestrator erred at least once, and the rule decided instead (no repair).
    let fell_back = s
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::FellBack { .. }))
        .count();
    assert!(fell_back >= 1, "the fallback path runs in a demo meeting");
    assert!(s
        .events()
        .iter()
        .all(|e| !matches!(e.kind, EventKind::AnswerInvalid { .. })));
    // The contributions listen: the agenda's facts come back.
    let all: String = st
        .transcript
        .iter()
        .filter_map(|t| match t {
            roundtable_core::protocol::meeting::Turn::Contribution { text, .. } => {
                Some(text.as_str())
            }
            _ => None,
        })
        .collect();
    assert!(all.contains("£200") || all.contains("3 weeks"), "{all}");
    let md = st.minutes_markdown();
    assert!(
        md.starts_with("# Minutes: Pick a database for the notes app"),
        "{md}"
    );
    assert!(
        md.contains("## Action items") && md.contains("_Fallback rule:"),
        "{md}"
    );
}

#[test]
fn replay_and_export_import_are_the_identity() {
    let s = played(AGENDA);
    assert_eq!(MeetingSession::replay(s.events()).unwrap(), s);
    let any = Session::of_kind(s.clone());
    let text = export::to_file(&any, 7);
    assert!(text.contains("\"kind\": \"meeting\""));
    let back = export::from_file(&text).unwrap();
    assert_eq!(back, any);
    assert_eq!(export::to_file(&back, 7), text);
    let stored: Vec<String> = any
        .events_json(0)
        .unwrap()
        .into_iter()
        .map(|(_, j)| j)
        .collect();
    assert_eq!(Session::replay_stored(&stored).unwrap(), any);
    assert_eq!(any.rewound(stored.len()).unwrap(), any);
    assert!(export::markdown_report(&any).contains("## Decisions"));
}

fn decision(raw: serde_json::Value) -> Result<Decision, Vec<(String, String)>> {
    let attendees = ["engineer-1", "designer-1"];
    let mut warnings = Vec::new();
    answer::check_decision(
        &raw.to_string(),
        Default::default(),
        &attendees,
        &mut warnings,
    )
    .map_err(|e| e.into_iter().map(|v| (v.path, v.expected)).collect())
}

#[test]
fn decisions_are_checked_as_001_says_with_exact_pointers() {
    use serde_json::json;
    assert_eq!(
        decision(json!({"decision": "continue", "next_agent_id": "engineer-1", "rationale": "r"})),
        Ok(Decision::Continue {
            next_agent_id: "engineer-1".into(),
            rationale: "r".into()
        })
    );
    assert!(decision(
        json!({"decision": "change_phase", "new_phase": "Evaluation", "rationale": "r"})
    )
    .is_ok());
    assert!(
        decision(json!({"decision": "end_meeting", "end_reason": "done", "rationale": "r"}))
            .is_ok()
    );
    let cases = [
        (
            json!({"decision": "adjourn", "rationale": "r"}),
            vec!["/decision"],
        ),
        (
            json!({"decision": "continue", "next_agent_id": "engineer-1"}),
            vec!["/rationale"],
        ),
        (
            json!({"decision": "continue", "rationale": "r"}),
            vec!["/next_agent_id"],
        ),
        (
            json!({"decision": "continue", "next_agent_id": "ghost", "rationale": "r"}),
            vec!["/next_agent_id"],
        ),
        (
            json!({"decision": "change_phase", "rationale": "r"}),
            vec!["/new_phase"],
        ),
        (
            json!({"decision": "change_phase", "new_phase": "Brainstorming", "rationale": "r"}),
            vec!["/new_phase"],
        ),
        (
            json!({"decision": "end_meeting", "rationale": "r"}),
            vec!["/end_reason"],
        ),
        // The shape is the schema's: a field of another decision is not checked for being
        // needed, but it must still be of its type (here a string), as every schema-enforcing
        // provider would also insist.
        (
            json!({"next_agent_id": 3}),
            vec!["/next_agent_id", "/decision", "/rationale"],
        ),
        (
            json!({"decision": "continue", "next_agent_id": "engineer-1", "new_phase": "Later", "rationale": "r"}),
            vec!["/new_phase"],
        ),
        // The limits come from the schema: a blank rationale, an end reason past its length.
        (
            json!({"decision": "end_meeting", "end_reason": "done", "rationale": "   "}),
            vec!["/rationale"],
        ),
        (
            json!({"decision": "end_meeting", "end_reason": "x".repeat(301), "rationale": "r"}),
            vec!["/end_reason"],
        ),
        (
            json!({"decision": "continue", "next_agent_id": "ghost", "rationale": ""}),
            vec!["/rationale", "/next_agent_id"],
        ),
        (json!(["continue"]), vec![""]),
    ];
    for (raw, pointers) in cases {
        let got = decision(raw.clone()).expect_err(&raw.to_string());
        let paths: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, pointers, "{raw}");
    }
    let got = decision(json!({"decision": "continue", "next_agent_id": "ghost", "rationale": "r"}))
        .unwrap_err();
    assert_eq!(got[0].1, "one of \"engineer-1\" or \"designer-1\"");
}

#[test]
fn an_invalid_decision_falls_back_to_the_rule_and_is_recorded_with_the_refused_answer() {
    let mut s = MeetingSession::new(config(AGENDA), 0).unwrap();
    s.start(1).unwrap();
    let call = s.calls_due().remove(0);
    let out = s
        .submit(&call.id, "Let's hear from Ana next!", None, 2)
        .unwrap();
    assert!(
        matches!(out, roundtable_core::engine::Outcome::FellBack { .. }),
        "{out:?}"
    );
    let st = s.state();
    assert_eq!(st.floor.as_ref().map(|f| f.0.as_str()), Some("engineer-1"));
    let next = s.calls_due();
    assert_eq!(next.len(), 1);
    assert_eq!(next[0].member, "engineer-1");
    // The refused text stays in the log; the decision in the transcript is marked as the rule's.
    assert!(s.events().iter().any(
        |e| matches!(&e.kind, EventKind::AnswerReceived { raw, .. } if raw.contains("Ana next"))
    ));
    assert!(matches!(
        st.transcript.last(),
        Some(roundtable_core::protocol::meeting::Turn::Decision {
            fell_back: true,
            ..
        })
    ));
}

#[test]
fn the_fallback_rule_gives_the_floor_in_turn_then_moves_on_then_ends() {
    let s = MeetingSession::new(config(AGENDA), 0).unwrap();
    let mut st: MeetingState = s.state().clone();
    assert!(
        matches!(st.fallback_decision(), Decision::Continue { ref next_agent_id, .. } if next_agent_id == "engineer-1")
    );
    st.spoken = vec!["engineer-1".into()];
    assert!(
        matches!(st.fallback_decision(), Decision::Continue { ref next_agent_id, .. } if next_agent_id == "designer-1")
    );
    st.spoken = vec!["designer-1".into()];
    assert!(
        matches!(st.fallback_decision(), Decision::Continue { ref next_agent_id, .. } if next_agent_id == "pm-1")
    );
    st.spoken = vec!["engineer-1".into(), "designer-1".into(), "pm-1".into()];
    assert!(matches!(
        st.fallback_decision(),
        Decision::ChangePhase {
            new_phase: Phase::ProblemClarification,
            ..
        }
    ));
    st.phase = Phase::Conclusion;
    assert!(matches!(
        st.fallback_decision(),
        Decision::EndMeeting { .. }
    ));
}

#[test]
fn a_continue_past_the_phase_turn_limit_is_refused() {
    let mut cfg = config(AGENDA);
    cfg.max_turns_per_phase = 1;
    let mut s = MeetingSession::new(cfg, 0).unwrap();
    s.start(1).unwrap();
    let c = s.calls_due().remove(0);
    s.submit(
        &c.id,
        r#"{"decision":"continue","next_agent_id":"pm-1","rationale":"PM first"}"#,
        None,
        2,
    )
    .unwrap();
    let c = s.calls_due().remove(0);
    s.submit(
        &c.id,
        r#"{"contribution":"We need a clear owner for this decision."}"#,
        None,
        3,
    )
    .unwrap();
    let c = s.calls_due().remove(0);
    let out = s
        .submit(
            &c.id,
            r#"{"decision":"continue","next_agent_id":"engineer-1","rationale":"More"}"#,
            None,
            4,
        )
        .unwrap();
    let roundtable_core::engine::Outcome::FellBack { report } = out else {
        panic!("{out:?}")
    };
    assert_eq!(report.errors[0].path, "/decision");
    assert_eq!(s.state().phase, Phase::ProblemClarification);
}

#[test]
fn wrap_up_ends_the_meeting_with_minutes_and_bad_minutes_are_repaired() {
    let mut s = MeetingSession::new(config(AGENDA), 0).unwrap();
    s.start(1).unwrap();
    s.finish(2).unwrap();
    let c = s.calls_due().remove(0);
    assert_eq!(
        MeetingState::step_of(c.step),
        roundtable_core::protocol::meeting::MeetingStep::Minutes
    );
    let out = s
        .submit(
            &c.id,
            r#"{"summary":"Short.","decisions":[],"action_items":[{"owner":"ghost","task":"x"}]}"#,
            None,
            3,
        )
        .unwrap();
    let roundtable_core::engine::Outcome::Invalid { report, paused } = out else {
        panic!("{out:?}")
    };
    assert!(!paused);
    let paths: Vec<&str> = report.errors.iter().map(|v| v.path.as_str()).collect();
    // The shape's violations in the order they stand in the answer (a missing field at the end of
    // its object), then the meeting's own rule on owners.
    assert_eq!(
        paths,
        [
            "/summary",
            "/action_items/0/task",
            "/open_questions",
            "/action_items/0/owner",
        ]
    );
    let repair = s.calls_due().remove(0);
    assert_eq!(repair.kind, roundtable_core::engine::CallKind::Repair);
    insta::assert_snapshot!(
        "meeting_minutes_repair_prompt",
        repair.messages.last().unwrap().content
    );
    let good = r#"{"summary":"We ended early at the person's request.","decisions":[],"action_items":[],"open_questions":["Which database?"]}"#;
    s.submit(&repair.id, good, None, 4).unwrap();
    assert_eq!(s.status(), &Status::Done);
}

#[test]
fn configs_that_break_the_rules_are_refused_in_plain_words() {
    let mut c = config(AGENDA);
    c.attendees.truncate(2);
    assert!(MeetingSession::new(c, 0)
        .unwrap_err()
        .to_string()
        .contains("at least two participants"));
    let mut c = config(" ");
    c.agenda = " ".into();
    assert!(MeetingSession::new(c, 0)
        .unwrap_err()
        .to_string()
        .contains("agenda is empty"));
    let mut c = config(AGENDA);
    c.attendees[1].id = "Engineer 1".into();
    assert!(MeetingSession::new(c, 0)
        .unwrap_err()
        .to_string()
        .contains("lowercase"));
    let mut c = config(AGENDA);
    c.attendees[1].meeting_role = roundtable_core::protocol::meeting::MeetingRole::Orchestrator;
    assert!(MeetingSession::new(c, 0)
        .unwrap_err()
        .to_string()
        .contains("exactly one orchestrator"));
}

#[test]
fn prompts_of_each_step_read_as_snapshots() {
    let s = played(AGENDA);
    for step in [
        "meeting_decision",
        "meeting_contribution",
        "meeting_minutes",
    ] {
        let rec = s
            .state()
            .core
            .calls
            .iter()
            .filter(|c| MeetingState::step_name(MeetingState::step_of(c.call.step)) == step)
            .nth(if step == "meeting_minutes" { 0 } else { 6 })
            .unwrap_or_else(|| panic!("a {step} call"));
        let text: String = rec
            .call
            .messages
            .iter()
            .map(|m| format!("=== {:?} ===\n{}\n", m.role, m.content))
            .collect();
        insta::assert_snapshot!(format!("meeting_prompt_{step}"), text);
    }
}

/// The committed schema files equal what the answer types derive (`UPDATE_SCHEMAS=1` rewrites
/// them), and the checker agrees with each schema on what is required.
#[test]
#[allow(clippy::disallowed_methods)] // a test may read the environment and write files
fn committed_schemas_are_current() {
    use roundtable_core::protocol::meeting::MeetingStep;
    let update = std::env::var("UPDATE_SCHEMAS").is_ok();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    for step in [
        MeetingStep::Decide,
        MeetingStep::Speak,
        MeetingStep::Minutes,
    ] {
        let derived = answer::derive_schema(step);
        let path = dir.join(format!("{}.plain.json", MeetingState::step_name(step)));
        let text = serde_json::to_string_pretty(&derived).unwrap() + "\n";
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            committed,
            text,
            "{} is stale: run `bash scripts/codegen.sh` (schemas, then the tables and TS types made from them)",
            path.display()
        );
        // Every field the schema requires is one the checker refuses to do without.
        let valid = match step {
            MeetingStep::Decide => {
                serde_json::json!({"decision": "end_meeting", "end_reason": "done", "rationale": "r"})
            }
            MeetingStep::Speak => {
                serde_json::json!({"contribution": "A contribution long enough."})
            }
            MeetingStep::Minutes => {
                serde_json::json!({"summary": "A summary that is long enough.", "decisions": [], "action_items": [], "open_questions": []})
            }
        };
        let check = |v: &serde_json::Value| -> Result<(), Vec<String>> {
            let mut w = Vec::new();
            let o = Default::default();
            let r = match step {
                MeetingStep::Decide => {
                    answer::check_decision(&v.to_string(), o, &["a-1"], &mut w).map(|_| ())
                }
                MeetingStep::Speak => {
                    answer::check_contribution(&v.to_string(), o, &mut w).map(|_| ())
                }
                MeetingStep::Minutes => {
                    answer::check_minutes(&v.to_string(), o, &["a-1"], &mut w).map(|_| ())
                }
            };
            r.map_err(|e| e.into_iter().map(|v| v.path).collect())
        };
        assert_eq!(check(&valid), Ok(()), "{step:?}");
        let required: Vec<&str> = derived["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert!(!required.is_empty());
        for field in required {
            let mut without = valid.clone();
            without.as_object_mut().unwrap().remove(field);
            assert_eq!(
                check(&without),
                Err(vec![format!("/{field}")]),
                "{step:?} without {field}"
            );
        }
    }
}

#[test]
fn the_view_marks_the_phases_the_floor_and_the_fallbacks() {
    let mut s = MeetingSession::new(config(AGENDA), 0).unwrap();
    s.start(1).unwrap();
    let v = s.state().view();
    assert_eq!(v.phases.len(), 7);
    assert_eq!(v.phases[0].state, PhaseState::Current);
    assert!(v.phases[1..]
        .iter()
        .all(|p| p.state == PhaseState::Upcoming));
    let c = s.calls_due().remove(0);
    s.submit(&c.id, "not a decision", None, 2).unwrap();
    let v = s.state().view();
    assert_eq!(v.fallbacks, 1);
    assert_eq!(v.turns[0].kind, TurnKind::Fallback);
    assert!(v
        .attendees
        .iter()
        .any(|a| a.id == "engineer-1" && a.has_floor));
    let done = played(AGENDA);
    let v = done.state().view();
    assert!(
        v.phases.iter().all(|p| p.state == PhaseState::Done),
        "{:?}",
        v.phases
    );
    assert!(v.has_minutes && v.minutes_markdown.contains("## Decisions"));
    assert!(v
        .attendees
        .iter()
        .filter(|a| !a.orchestrator)
        .all(|a| a.contributions > 0));
    assert_eq!(
        v.phases.iter().map(|p| p.contributions).sum::<usize>(),
        v.turns
            .iter()
            .filter(|t| t.kind == TurnKind::Contribution)
            .count()
    );
}

#[test]
fn attendee_ids_are_made_from_names() {
    let taken = vec!["ana".to_string(), "orchestrator".to_string()];
    assert_eq!(MeetingConfig::id_for("Ana", &taken), "ana-2");
    assert_eq!(MeetingConfig::id_for("Bo Lind", &taken), "bo-lind");
    assert_eq!(MeetingConfig::id_for("Zoë", &taken), "zo");
    assert_eq!(MeetingConfig::id_for("!!!", &taken), "participant");
    assert_eq!(MeetingConfig::id_for("Orchestrator", &taken), "participant");
}

/// Plays a meeting where the orchestrator answers `decide(phase, spoken)` and every speaker says
/// `say(speaker, round)`; returns the session and the first prompt of every call (system and
/// user joined), in order.
fn scripted_meeting(
    cfg: MeetingConfig,
    decide: impl Fn(&MeetingState) -> String,
    say: impl Fn(&str, u32) -> String,
) -> (MeetingSession, Vec<(String, String)>) {
    let mut s = MeetingSession::new(cfg, 0).unwrap();
    let mut now = 1;
    s.start(now).unwrap();
    let mut prompts = Vec::new();
    for _ in 0..400 {
        now += 1;
        if *s.status() != Status::Running {
            break;
        }
        let c = s.calls_due().remove(0);
        let text: Vec<String> = c
            .call
            .messages
            .iter()
            .map(|m| m.content.to_string())
            .collect();
        prompts.push((c.call.member.clone(), text.join("\n")));
        let answer = match MeetingState::step_of(c.step) {
            roundtable_core::protocol::meeting::MeetingStep::Decide => decide(s.state()),
            roundtable_core::protocol::meeting::MeetingStep::Speak => {
                serde_json::json!({"contribution": say(&c.call.member, s.state().core.round)})
                    .to_string()
            }
            roundtable_core::protocol::meeting::MeetingStep::Minutes => {
                r#"{"summary":"The meeting went through its phases.","decisions":[],"action_items":[],"open_questions":[]}"#.into()
            }
        };
        s.submit(&c.id, &answer, None, now).unwrap();
    }
    (s, prompts)
}

#[test]
fn the_orchestrators_policy_is_checked_and_a_broken_decision_falls_back_saying_why() {
    // Phases move forward one at a time; the meeting ends only in its last phases.
    for (answer, path, words) in [
        (
            r#"{"decision":"change_phase","new_phase":"Evaluation","rationale":"Skip ahead."}"#,
            "/new_phase",
            "phases move forward one at a time: after Initialization comes ProblemClarification, not Evaluation",
        ),
        (
            r#"{"decision":"end_meeting","end_reason":"Done.","rationale":"Nothing to say."}"#,
            "/decision",
            "the meeting can end only in ExecutionPlanning or Conclusion, and it is in Initialization",
        ),
    ] {
        let mut s = MeetingSession::new(config(AGENDA), 0).unwrap();
        s.start(1).unwrap();
        let c = s.calls_due().remove(0);
        let out = s.submit(&c.id, answer, None, 2).unwrap();
        let roundtable_core::engine::Outcome::FellBack { report } = out else {
            panic!("{answer}: {out:?}")
        };
        assert_eq!(report.errors[0].path, path);
        assert_eq!(report.errors[0].message, words);
        assert_eq!(s.state().phase, Phase::Initialization);
        // The transcript says the rule decided, and why.
        let c = s.calls_due().remove(0);
        s.submit(&c.id, r#"{"contribution":"I bring the backend view."}"#, None, 3)
            .unwrap();
        let next = s.calls_due().remove(0);
        let user = next.call.messages[1].content.to_string();
        assert!(
            user.contains(&format!(
                "_The fallback rule gave the floor to engineer-1 (the orchestrator's decision was not used: {words})._"
            )),
            "{user}"
        );
    }
    // The prompt says the policy, with the phases in the one spelling the answer needs.
    let s = MeetingSession::new(config(AGENDA), 0).unwrap();
    let mut s = s;
    s.start(1).unwrap();
    let system = s.calls_due().remove(0).call.messages[0].content.to_string();
    assert!(system.contains("forward and one at a time"), "{system}");
    assert!(
        system.contains("only in ExecutionPlanning or Conclusion"),
        "{system}"
    );
    assert!(!system.contains("Problem clarification"), "{system}");
}

#[test]
fn the_fallback_rotation_runs_across_phases_so_the_last_attendees_get_the_floor() {
    // Two turns a phase, three participants: a rotation that restarted in every phase would
    // never give pm-1 the floor.
    let mut cfg = config(AGENDA);
    cfg.max_turns_per_phase = 2;
    let (s, _) = scripted_meeting(
        cfg,
        |_| "no decision".into(),
        |who, r| format!("{who} speaks in round {r}, briefly and to the point."),
    );
    let speakers: Vec<(Phase, String)> = s
        .state()
        .transcript
        .iter()
        .filter_map(|t| match t {
            roundtable_core::protocol::meeting::Turn::Contribution { phase, speaker, .. } => {
                Some((*phase, speaker.clone()))
            }
            _ => None,
        })
        .collect();
    let in_phase = |p: Phase| -> Vec<&str> {
        speakers
            .iter()
            .filter(|(q, _)| *q == p)
            .map(|(_, s)| s.as_str())
            .collect()
    };
    assert_eq!(
        in_phase(Phase::Initialization),
        ["engineer-1", "designer-1"]
    );
    assert_eq!(
        in_phase(Phase::ProblemClarification),
        ["pm-1", "engineer-1"]
    );
}

#[test]
fn a_member_is_told_its_own_id() {
    let mut s = MeetingSession::new(config(AGENDA), 0).unwrap();
    s.start(1).unwrap();
    let c = s.calls_due().remove(0);
    s.submit(
        &c.id,
        r#"{"decision":"continue","next_agent_id":"engineer-1","rationale":"Ana owns the data side."}"#,
        None,
        2,
    )
    .unwrap();
    let system = s.calls_due().remove(0).call.messages[0].content.to_string();
    assert!(
        system.starts_with("You are Ana (engineer-1), Backend engineer, attending a meeting; the transcript names you **engineer-1**."),
        "{system}"
    );
}

#[test]
fn speakers_and_the_minutes_read_whole_contributions_within_the_budget() {
    use roundtable_core::protocol::meeting::TRANSCRIPT_BUDGET;
    // Four participants, each turn a contribution of whole sentences naming its option: the
    // minutes see every option put — whole while it fits, else its opening sentences — and no
    // prompt passes the budget.
    for size in [1_000, 3_000] {
        let mut cfg = config(AGENDA);
        cfg.attendees.push(
            MeetingConfig::standard(AGENDA, &[("qa-1", "Di", "Quality engineer")], demo_ref())
                .attendees
                .into_iter()
                .find(|a| a.id == "qa-1")
                .unwrap(),
        );
        let (s, prompts) = scripted_meeting(
            cfg,
            |st| {
                let waiting = st
                    .participants()
                    .into_iter()
                    .find(|p| !st.spoken.iter().any(|s| s == p));
                match (waiting, st.phase.next()) {
                    (Some(p), _) if !st.phase_turns_used() => format!(
                        r#"{{"decision":"continue","next_agent_id":"{p}","rationale":"Their turn."}}"#
                    ),
                    (_, Some(n)) => format!(
                        r#"{{"decision":"change_phase","new_phase":"{}","rationale":"Next."}}"#,
                        n.name()
                    ),
                    _ => {
                        r#"{"decision":"end_meeting","end_reason":"All done.","rationale":"Done."}"#
                            .into()
                    }
                }
            },
            |who, r| {
                let mut t = format!("Option {who}-{r}: the path {who} proposes in round {r}. ");
                while t.len() < size {
                    t.push_str("It keeps the cost low, fits the three weeks, and works offline. ");
                }
                t.push_str(&format!("That is the end of option {who}-{r}."));
                t
            },
        );
        assert_eq!(s.status(), &Status::Done);
        let minutes = &prompts.last().unwrap().1;
        for t in &s.state().transcript {
            if let roundtable_core::protocol::meeting::Turn::Contribution { phase, text, .. } = t {
                if matches!(
                    phase,
                    Phase::OptionGeneration | Phase::Evaluation | Phase::Decision
                ) {
                    let opening = text.split(". ").next().unwrap();
                    assert!(
                        minutes.contains(opening),
                        "{size}: the minutes read {opening}"
                    );
                    if size == 1_000 {
                        assert!(minutes.contains(text.trim()), "the minutes read it whole");
                    }
                }
            }
        }
        for (_, p) in &prompts {
            let transcript = p
                .split("# Transcript")
                .nth(1)
                .unwrap_or("")
                .split("\n# ")
                .next()
                .unwrap_or("");
            assert!(
                transcript.chars().count() <= TRANSCRIPT_BUDGET + 200,
                "{} chars",
                transcript.chars().count()
            );
            // A summary ends at a sentence or says what it left out; nothing is cut mid-word.
            for line in transcript.lines().filter(|l| l.contains('…')) {
                assert!(line.contains("more characters"), "{line}");
            }
        }
        // Older phases are read in short, whole sentences first.
        let last_decide = &prompts
            .iter()
            .rev()
            .find(|(m, _)| m == "orchestrator" && !m.is_empty())
            .unwrap()
            .1;
        assert!(
            last_decide.contains("(Initialization, in short):\nOption engineer-1-"),
            "{last_decide}"
        );
    }
}

/// The last phase has no next one: once its turns are used, the orchestrator is offered only
/// the end (a `change_phase` there is refused by the policy and would fall back).
#[test]
fn the_last_phase_offers_only_the_end_once_its_turns_are_used() {
    use roundtable_core::protocol::meeting::{MeetingEnvelope, MeetingStep};
    let s = played(AGENDA);
    let orchestrator = s
        .state()
        .attendees
        .iter()
        .find(|a| a.meeting_role == roundtable_core::protocol::meeting::MeetingRole::Orchestrator)
        .map(|a| a.id.clone())
        .expect("an orchestrator");
    let mut env = s.state().envelope(&orchestrator);
    env.step = MeetingStep::Decide;
    let offered = |env: &MeetingEnvelope| {
        let text: String = s
            .state()
            .first_messages(env)
            .iter()
            .map(|m| format!("{}\n", m.content))
            .collect();
        text.lines()
            .find(|l| l.starts_with("This phase has used its turns"))
            .map(str::to_string)
    };
    env.spoken_in_phase = vec!["engineer-1".into(); env.max_turns_per_phase as usize];
    env.phase = Phase::Conclusion;
    assert_eq!(
        offered(&env).as_deref(),
        Some("This phase has used its turns: decide \"end_meeting\".")
    );
    env.phase = Phase::ExecutionPlanning;
    assert_eq!(
        offered(&env).as_deref(),
        Some("This phase has used its turns: decide \"change_phase\" or \"end_meeting\".")
    );
    env.phase = Phase::Initialization;
    assert_eq!(
        offered(&env).as_deref(),
        Some("This phase has used its turns: decide \"change_phase\".")
    );
}
