//! Forks and history, for every kind of session: a fork keeps the original's events up to its
//! point exactly and diverges only after (with a what-if) or not at all (without one); an edited
//! answer is judged like a model's and an invalid one is refused with the same findings; the
//! history at event k equals replaying k events.

use std::sync::OnceLock;

use proptest::prelude::*;
use roundtable_core::demo::play_demo;
use roundtable_core::engine::{
    EventKind, ForkError, MemberChange, ModelRef, Outcome, PauseReason, RunTarget, Status,
};
use roundtable_core::fork::{ForkAt, WhatIf};
use roundtable_core::history::History;
use roundtable_core::protocol::autocoding::Autocoding;
use roundtable_core::protocol::meeting::{MeetingConfig, MeetingSession};
use roundtable_core::protocol::review::ReviewState;
use roundtable_core::protocol::team::{Charter, TeamConfig, TeamSession};
use roundtable_core::session::{Session, SessionStatus};

fn demo(model: &str) -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: model.into(),
    }
}

const REQUEST: &str = "Plan a one-day workshop for 40 people on a £2,000 budget.";
const AGENDA: &str = "Pick a database for the notes app.\nWe have 3 weeks. It must work offline.";

/// Plays a session of any kind on its own demo model until it is done or paused.
fn play(session: &mut Session, now: &mut u64) {
    play_demo(session.any_engine_mut(), now, 2000).unwrap();
}

/// A session played once per test binary (kept as its stored events: a session is not `Sync`).
fn kept(cell: &OnceLock<Vec<String>>, make: fn() -> Session) -> Session {
    Session::replay_stored(cell.get_or_init(|| events(&make()))).unwrap()
}

fn finished_team() -> Session {
    static S: OnceLock<Vec<String>> = OnceLock::new();
    kept(&S, || {
        let config = TeamConfig::standard(REQUEST, 2, true, true, demo("demo-1"));
        let mut s = Session::of_kind(TeamSession::new(config, 0).unwrap());
        play(&mut s, &mut 1);
        assert_eq!(s.status_word(), "done");
        s
    })
}

fn finished_meeting() -> Session {
    static S: OnceLock<Vec<String>> = OnceLock::new();
    kept(&S, || {
        let config = MeetingConfig::standard(
            AGENDA,
            &[
                ("engineer-1", "Ana", "Backend engineer"),
                ("designer-1", "Bo", "Product designer"),
            ],
            demo("demo-1"),
        );
        let mut s = Session::of_kind(MeetingSession::new(config, 0).unwrap());
        play(&mut s, &mut 1);
        assert_eq!(s.status_word(), "done");
        s
    })
}

/// Every call of a session from round `from` on: (id, member).
fn calls_from(s: &Session, from: u32) -> Vec<(String, String)> {
    s.timeline(&Default::default())
        .into_iter()
        .filter(|r| r.round >= from)
        .flat_map(|r| r.steps)
        .flat_map(|st| st.calls)
        .map(|c| (c.id, c.member))
        .collect()
}

fn events(s: &Session) -> Vec<String> {
    s.events_json(0)
        .unwrap()
        .into_iter()
        .map(|(_, json)| json)
        .collect()
}

/// Runs a fork from its pause to the end.
fn run_fork(fork: &mut Session) {
    let mut now = 10_000;
    fork.run(RunTarget::End, None, now).unwrap();
    now += 1;
    play(fork, &mut now);
    assert_eq!(fork.status_word(), "done", "{:?}", fork.view().status_text);
}

/// What a session made: the team's versions (who wrote what for which product in which round,
/// in any order: parallel answers may come back in another order and take other ids), or the
/// meeting's transcript and minutes.
fn made(s: &Session) -> String {
    if let Some(t) = s.as_team() {
        let tree = &t.state().tree;
        let mut versions: Vec<(String, u32, String, String)> = tree
            .walk()
            .into_iter()
            .flat_map(|(_, p)| {
                p.versions
                    .iter()
                    .filter_map(|v| tree.version(v))
                    .map(|v| {
                        (
                            v.author.clone(),
                            v.round,
                            p.name.clone(),
                            v.content.to_string(),
                        )
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        versions.sort();
        serde_json::to_string(&versions).unwrap()
    } else if let Some(m) = s.as_meeting() {
        serde_json::to_string(&(&m.state().transcript, &m.state().minutes)).unwrap()
    } else if let Some(d) = s.as_dialectic() {
        d.state().markdown()
    } else if let Some(a) = s.as_kind::<Autocoding>() {
        a.state().markdown()
    } else if let Some(r) = s.as_kind::<ReviewState>() {
        r.state().markdown()
    } else {
        unreachable!("a session of a registered kind")
    }
}

fn check_fork(original: &Session, call: &str, member: &str) {
    let at = ForkAt::Call(call.to_string());
    let seq = original.fork_seq(&at).unwrap() as usize;
    let before = events(original);

    // Without a what-if: the same events up to the point, then `forked`, and the same work after.
    let mut same = original
        .fork(&at, "original-id", WhatIf::default(), 5_000)
        .unwrap();
    let forked = events(&same);
    assert_eq!(
        forked[..=seq],
        before[..=seq],
        "the fork keeps the log up to its point"
    );
    assert!(
        forked[seq + 1].contains("\"forked\""),
        "{}",
        forked[seq + 1]
    );
    assert_eq!(same.forked_from().unwrap().session, "original-id");
    assert_eq!(same.forked_from().unwrap().seq as usize, seq);
    assert_eq!(same.status_word(), "paused");
    assert!(same.view().status_text.contains("fork"));
    // No call was made for what the log already holds: only the chosen call and later ones are
    // due when it runs.
    run_fork(&mut same);
    assert_eq!(
        made(&same),
        made(original),
        "an unchanged fork does the same work"
    );

    // With the member on another demo variant: the same up to the point, different after.
    let what_if = WhatIf {
        members: vec![MemberChange {
            member: member.to_string(),
            model: Some(demo("demo-2")),
            persona: None,
        }],
        ..WhatIf::default()
    };
    let mut other = original.fork(&at, "original-id", what_if, 5_000).unwrap();
    assert_eq!(events(&other)[..=seq], before[..=seq]);
    assert_eq!(
        other
            .members()
            .into_iter()
            .find(|m| m.id == member)
            .unwrap()
            .model,
        demo("demo-2")
    );
    run_fork(&mut other);
    assert_ne!(made(&other), made(original), "the what-if changed the work");
    // The original is untouched.
    assert_eq!(events(original), before);
}

#[test]
fn a_team_fork_at_its_second_round_equals_the_original_before_and_diverges_after() {
    let original = &finished_team();
    let (call, member) = calls_from(original, 2)
        .into_iter()
        .rev()
        .find(|(_, m)| m.starts_with("operative"))
        .unwrap();
    check_fork(original, &call, &member);
}

#[test]
fn a_meeting_fork_equals_the_original_before_and_diverges_after() {
    let original = &finished_meeting();
    let (call, member) = calls_from(original, 2)
        .into_iter()
        .rev()
        .find(|(_, m)| m != "orchestrator")
        .unwrap();
    check_fork(original, &call, &member);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Any call of either kind: the fork's log is the original's up to its point; with no
    /// what-if it does the same work.
    #[test]
    fn any_fork_keeps_the_prefix_and_without_a_what_if_does_the_same_work(team: bool, pick in 0usize..1000) {
        let original = &if team { finished_team() } else { finished_meeting() };
        let calls = calls_from(original, 0);
        let (call, _) = &calls[pick % calls.len()];
        let at = ForkAt::Call(call.clone());
        let seq = original.fork_seq(&at).unwrap() as usize;
        let mut fork = original.fork(&at, "o", WhatIf::default(), 1).unwrap();
        prop_assert_eq!(&events(&fork)[..=seq], &events(original)[..=seq]);
        // The state at the point is the original's, event for event.
        let point = fork.rewound(seq + 1).unwrap();
        prop_assert_eq!(&point, &original.rewound(seq + 1).unwrap());
        run_fork(&mut fork);
        prop_assert_eq!(made(&fork), made(original));
    }

    /// The history at any point, reached in any order, equals replaying that many events.
    #[test]
    fn history_at_k_equals_replaying_k_events(team: bool, every in 1usize..40, points in prop::collection::vec(0usize..2000, 1..30)) {
        let original = &if team { finished_team() } else { finished_meeting() };
        let mut history = History::new(original, every).unwrap();
        let n = original.event_count();
        for p in points {
            let k = 1 + p % n;
            let at = history.at(original, k).unwrap().clone();
            prop_assert_eq!(at.event_count(), k);
            prop_assert_eq!(at, original.rewound(k).unwrap());
        }
    }
}

#[test]
fn history_steps_one_event_at_a_time_both_ways() {
    for original in &[finished_team(), finished_meeting()] {
        let n = original.event_count();
        let mut history = History::new(original, 16).unwrap();
        for k in (1..=n).chain((1..=n).rev()) {
            assert_eq!(
                history.at(original, k).unwrap(),
                &original.rewound(k).unwrap(),
                "after {k} events"
            );
        }
    }
}

#[test]
fn an_invalid_edited_answer_is_refused_with_the_findings_a_model_gets() {
    for original in &[finished_team(), finished_meeting()] {
        let (call, _) = calls_from(original, 1).into_iter().next().unwrap();
        let at = ForkAt::Call(call.clone());
        let raw = "{\"responseType\": \"final_output\"}";
        let refused = original.fork(
            &at,
            "o",
            WhatIf {
                answer: Some(raw.into()),
                ..WhatIf::default()
            },
            1,
        );
        let Err(ForkError::InvalidAnswer(findings)) = refused else {
            panic!("refused as invalid: {refused:?}");
        };
        assert!(!findings.errors.is_empty());
        // The same answer from a model at the same call gets the same findings.
        let mut fork = original.fork(&at, "o", WhatIf::default(), 1).unwrap();
        fork.run(RunTarget::End, None, 2).unwrap();
        let id = fork
            .calls_out()
            .into_iter()
            .find(|(_, id)| *id == call)
            .map(|(_, id)| id)
            .unwrap();
        let report = match fork.submit(&id, raw, None, 3).unwrap() {
            Outcome::Invalid { report, .. } | Outcome::FellBack { report } => report,
            other => panic!("{other:?}"),
        };
        assert_eq!(report, findings);
    }
}

#[test]
fn a_valid_edited_answer_is_applied_in_place_of_the_call() {
    for original in &[finished_team(), finished_meeting()] {
        // A call whose recorded answer was applied: its text, edited by nobody, is valid again.
        let (call, raw) = calls_from(original, 1)
            .into_iter()
            .find_map(|(id, _)| {
                let v = original.call_view(&id)?;
                matches!(
                    v.result,
                    Some(roundtable_core::session::ResultView::Applied { .. })
                )
                .then(|| (id, v.raw_answer.unwrap()))
            })
            .unwrap();
        let at = ForkAt::Call(call.clone());
        let fork = original
            .fork(
                &at,
                "o",
                WhatIf {
                    answer: Some(raw.to_string()),
                    ..WhatIf::default()
                },
                1,
            )
            .unwrap();
        let view = fork.call_view(&call).unwrap();
        assert_eq!(view.raw_answer.as_deref(), Some(&*raw));
        assert!(matches!(
            view.result,
            Some(roundtable_core::session::ResultView::Applied { .. })
        ));
        // Paused for the person to run it, or done when that call was the last.
        assert!(matches!(fork.status_word(), "paused" | "done"));
    }
}

#[test]
fn persona_and_charter_what_ifs_reach_the_remade_call_and_are_checked() {
    let original = &finished_team();
    let (call, member) = calls_from(original, 2)
        .into_iter()
        .find(|(_, m)| m.starts_with("operative"))
        .unwrap();
    let at = ForkAt::Call(call.clone());
    let form = original.fork_form(&at).unwrap();
    assert!(form.has_charter);
    assert_eq!(form.call.as_ref().unwrap().0, member);
    let charter = Charter {
        mission: "Run the workshop on a boat".into(),
        ..form.charter.clone().unwrap()
    };
    let what_if = WhatIf {
        members: vec![MemberChange {
            member: member.clone(),
            model: None,
            persona: Some("A sailor who speaks in nautical terms".into()),
        }],
        charter: Some(charter),
        answer: None,
    };
    let mut fork = original.fork(&at, "o", what_if, 1).unwrap();
    fork.run(RunTarget::End, None, 2).unwrap();
    let remade = fork
        .next_calls()
        .into_iter()
        .find(|c| c.member == member)
        .unwrap();
    let prompt: String = remade.messages.iter().map(|m| &*m.content).collect();
    assert!(prompt.contains("A sailor who speaks in nautical terms"));
    assert!(prompt.contains("Run the workshop on a boat"));

    // Refused edits: an unknown member, a persona over the limit, a charter for a meeting.
    let unknown = WhatIf {
        members: vec![MemberChange {
            member: "operative-9".into(),
            model: Some(demo("demo-2")),
            persona: None,
        }],
        ..WhatIf::default()
    };
    assert!(matches!(
        original.fork(&at, "o", unknown, 1),
        Err(ForkError::Edit(_))
    ));
    let long = WhatIf {
        members: vec![MemberChange {
            member,
            model: None,
            persona: Some("x".repeat(501)),
        }],
        ..WhatIf::default()
    };
    assert!(matches!(
        original.fork(&at, "o", long, 1),
        Err(ForkError::Edit(_))
    ));
    let meeting = &finished_meeting();
    let (mcall, _) = calls_from(meeting, 1).into_iter().next().unwrap();
    let charter = WhatIf {
        charter: Some(Charter::default()),
        ..WhatIf::default()
    };
    assert!(matches!(
        meeting.fork(&ForkAt::Call(mcall), "o", charter, 1),
        Err(ForkError::Edit(_))
    ));
}

#[test]
fn a_fork_travels_in_its_session_file_and_a_fork_at_any_event_works() {
    let original = &finished_team();
    let fork = original
        .fork(&ForkAt::Event(40), "original-id", WhatIf::default(), 1)
        .unwrap();
    assert!(matches!(
        fork.view().status,
        SessionStatus::Paused | SessionStatus::AwaitingPerson | SessionStatus::Draft
    ));
    let file = roundtable_core::export::to_file(&fork, 2);
    let back = roundtable_core::export::from_file(&file).unwrap();
    assert_eq!(back.forked_from(), fork.forked_from());
    assert!(matches!(
        original.fork(&ForkAt::Event(1_000_000), "o", WhatIf::default(), 1),
        Err(ForkError::NoSuchEvent { .. })
    ));
    assert!(original.forked_from().is_none());
    // A paused fork says why, and running on is the fix.
    if let Some(t) = fork.as_team() {
        if let Status::Paused { reason } = &t.state().core.status {
            assert_eq!(reason, &PauseReason::Forked);
        }
    }
    assert_eq!(fork.event_line(41).as_deref(), Some("forked"));
    assert!(matches!(
        fork.as_team(),
        Some(t) if matches!(t.events()[41].kind, EventKind::Forked { .. })
    ));
}

/// The name a session's member goes by.
fn name_of(s: &Session, member: &str) -> String {
    s.members()
        .into_iter()
        .find(|m| m.id == member)
        .map(|m| m.name)
        .unwrap()
}

#[test]
fn a_fork_is_named_by_its_what_ifs() {
    let meeting = &finished_meeting();
    assert!(meeting.fork_note().is_none(), "an original is no fork");
    let (call, member) = calls_from(meeting, 1)
        .into_iter()
        .find(|(_, m)| m == "engineer-1")
        .unwrap();
    let at = ForkAt::Call(call);
    let seq = meeting.fork_seq(&at).unwrap();
    let change = MemberChange {
        member: member.clone(),
        model: Some(demo("demo-2")),
        persona: None,
    };
    let what_if = WhatIf {
        members: vec![change],
        ..WhatIf::default()
    };
    let fork = meeting.fork(&at, "o", what_if, 1).unwrap();
    let note = fork.fork_note().unwrap();
    assert_eq!(note.what_ifs, vec!["Ana on demo-2".to_string()]);
    // The point by what happened there, in the meeting's unit, as the original's slider says it.
    let point = meeting.point_words(seq as usize).unwrap();
    assert!(point.contains(", turn "), "{point}");
    assert_eq!(note.point, point);
    assert_eq!(note.words(), format!("Fork after “{point}”: Ana on demo-2"));
    // The title stays the request's until the person names it; the note tells the two apart.
    assert_eq!(fork.title(), meeting.title());
    // Running on adds no what-if: the note is about the fork's point only.
    let mut run = fork.clone();
    run_fork(&mut run);
    assert_eq!(run.fork_note(), Some(note));

    // A team fork: a persona, a charter and nothing else, in the order made.
    let team = &finished_team();
    let (call, member) = calls_from(team, 2)
        .into_iter()
        .find(|(_, m)| m.starts_with("operative"))
        .unwrap();
    let at = ForkAt::Call(call);
    let form = team.fork_form(&at).unwrap();
    let what_if = WhatIf {
        members: vec![MemberChange {
            member: member.clone(),
            model: Some(demo("demo-2")),
            persona: Some("A careful planner.".into()),
        }],
        charter: form.charter.clone(),
        answer: None,
    };
    let fork = team.fork(&at, "o", what_if, 1).unwrap();
    let name = name_of(team, &member);
    assert_eq!(
        fork.fork_note().unwrap().what_ifs,
        vec![
            format!("{name} on demo-2 with a new persona"),
            "a new charter".to_string()
        ]
    );

    // No what-if: the line says so.
    let plain = team
        .fork(&ForkAt::Event(40), "o", WhatIf::default(), 1)
        .unwrap();
    assert_eq!(
        plain.fork_note().unwrap().words(),
        format!(
            "Fork after “{}”, nothing changed",
            team.point_words(40).unwrap()
        )
    );
}

#[test]
fn a_fork_with_an_answer_by_hand_names_whose_answer_it_is() {
    let meeting = &finished_meeting();
    let (call, raw, member) = calls_from(meeting, 1)
        .into_iter()
        .find_map(|(id, member)| {
            let v = meeting.call_view(&id)?;
            matches!(
                v.result,
                Some(roundtable_core::session::ResultView::Applied { .. })
            )
            .then(|| (id, v.raw_answer.unwrap(), member))
        })
        .unwrap();
    let what_if = WhatIf {
        answer: Some(raw.to_string()),
        ..WhatIf::default()
    };
    let fork = meeting.fork(&ForkAt::Call(call), "o", what_if, 1).unwrap();
    assert_eq!(
        fork.fork_note().unwrap().what_ifs,
        vec![format!(
            "{}'s answer written by hand",
            name_of(meeting, &member)
        )]
    );
}

#[test]
fn a_rename_overrides_the_request_line_travels_with_the_log_and_empty_restores_it() {
    let mut s = finished_meeting();
    let default = s.title();
    assert_eq!(default, "Pick a database for the notes app.");
    assert!(!s.is_renamed());
    let before = s.event_count();
    // A finished session may be renamed: the name changes no work.
    s.rename("  Database pick, offline first  ", 5).unwrap();
    assert_eq!(s.title(), "Database pick, offline first");
    assert!(s.is_renamed());
    assert_eq!(s.default_title(), default);
    assert_eq!(s.event_count(), before + 1, "one person edit");
    assert_eq!(s.status_word(), "done");
    // The same name again records nothing.
    s.rename("Database pick, offline first", 6).unwrap();
    assert_eq!(s.event_count(), before + 1);
    // One line, not too long: refused with the reason, nothing recorded.
    let err = s.rename("two\nlines", 7).unwrap_err().to_string();
    assert!(err.contains("one line"), "{err}");
    let err = s.rename(&"x".repeat(121), 7).unwrap_err().to_string();
    assert!(err.contains("120"), "{err}");
    assert_eq!(s.event_count(), before + 1);

    // Stored events, a session file, a shared link: the name comes back.
    let back = Session::replay_stored(&events(&s)).unwrap();
    assert_eq!(back.title(), "Database pick, offline first");
    let file = roundtable_core::export::to_file(&s, 9);
    assert!(file.contains("\"title\": \"Database pick, offline first\""));
    let imported = roundtable_core::export::from_file(&file).unwrap();
    assert_eq!(imported, s);
    assert_eq!(imported.title(), "Database pick, offline first");

    // A fork made after the rename keeps the name; the history before it shows the default.
    let fork = s
        .fork(&ForkAt::Event(before as u64), "o", WhatIf::default(), 10)
        .unwrap();
    assert_eq!(fork.title(), "Database pick, offline first");
    assert_eq!(s.rewound(before).unwrap().title(), default);

    // Empty gives the default back.
    s.rename("   ", 11).unwrap();
    assert_eq!(s.title(), default);
    assert!(!s.is_renamed());
    let back = Session::replay_stored(&events(&s)).unwrap();
    assert_eq!(back.title(), default);
}

#[test]
fn older_files_without_a_title_load_with_the_request_line() {
    for (name, text) in [
        ("v1-demo", include_str!("files/v1-demo.roundtable.json")),
        ("v2-team", include_str!("files/v2-team.roundtable.json")),
        (
            "v2-meeting",
            include_str!("files/v2-meeting.roundtable.json"),
        ),
    ] {
        let s = roundtable_core::export::from_file(text).unwrap();
        assert!(!s.is_renamed(), "{name}");
        assert_eq!(s.title(), s.default_title(), "{name}");
        assert!(!s.title().is_empty(), "{name}");
    }
}
