//! What the web shell reads from a [`Session`]: the stored log read back from its JSON strings,
//! a command taken back by rewinding, the timeline, the live words, the open question and the
//! round's progress — each decided by core so no page re-derives it.

use roundtable_core::engine::{ModelRef, Usage};
use roundtable_core::protocol::team::demo;
use roundtable_core::protocol::team::{Charter, PersonEdit, TeamConfig};
use roundtable_core::session::{LogError, Session, SessionStatus};

fn demo_session(request: &str) -> Session {
    let model = ModelRef {
        provider: demo::PROVIDER.into(),
        model: demo::MODEL.into(),
    };
    let config = TeamConfig::standard(request, 2, true, false, model);
    Session::new_team(config, 0).expect("a valid config")
}

/// Plays the session as the app's runner does (the demo answer rides on each call) until it
/// is done or `stop` says so; answers questions with their first option, approves approvals.
fn play(s: &mut Session, now: &mut u64, stop: impl Fn(&Session) -> bool) {
    for _ in 0..2_000 {
        if stop(s) {
            return;
        }
        *now += 1;
        if let Some((_, halt)) = s.question() {
            if halt.is_approval() {
                let approve = roundtable_core::engine::PersonReply::verdict(
                    roundtable_core::engine::Verdict::Approve,
                    "",
                );
                s.reply(approve, *now).unwrap();
                continue;
            }
            let answer = halt
                .options()
                .first()
                .cloned()
                .unwrap_or_else(|| "Go ahead.".into());
            s.answer_halt(&answer, *now).unwrap();
            continue;
        }
        if !s.is_running() {
            return;
        }
        // Code to run (an autocoding turn): the demo's stand-in for the sandbox runs it.
        for effect in s.next_effects() {
            let output = s
                .demo_effect(&effect)
                .expect("the demo's code has a stand-in run");
            s.effect_done(&effect.id, output, *now).unwrap();
        }
        for call in s.next_calls() {
            let reply = call
                .demo
                .expect("a demo member's call carries the demo answer");
            let usage = Usage {
                schema_form: None,
                input_tokens: reply.prompt_tokens,
                output_tokens: reply.completion_tokens,
                stopped_for_length: reply.finish_reason == "length",
                cost: None,
            };
            s.submit(&call.id, &reply.text, Some(usage), *now).unwrap();
        }
    }
}

fn stored(s: &Session) -> Vec<String> {
    s.events_json(0)
        .unwrap()
        .into_iter()
        .map(|(_, j)| j)
        .collect()
}

#[test]
fn a_stored_log_replays_from_its_json_strings_into_the_same_session() {
    let mut s = demo_session("Plan a reading club for twelve people.");
    let mut now = 1;
    s.start(now).unwrap();
    play(&mut s, &mut now, |s| s.round() >= 2);
    let back = Session::replay_stored(&stored(&s)).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.view(), s.view());
}

#[test]
fn a_damaged_or_foreign_log_is_refused_with_a_reason() {
    let s = demo_session("Plan a picnic.");
    let mut log = stored(&s);
    assert_eq!(Session::replay_stored::<String>(&[]), Err(LogError::Empty));
    let foreign = log[0].replace("\"kind\":\"team\"", "\"kind\":\"opera\"");
    assert_eq!(
        Session::replay_stored(&[foreign]),
        Err(LogError::UnknownKind("opera".into()))
    );
    log.push("{\"seq\":1,\"at\":2,\"kind\":{\"type\":\"no_such_event\"}}".into());
    assert!(matches!(
        Session::replay_stored(&log),
        Err(LogError::Damaged { seq: 1, .. })
    ));
}

#[test]
fn rewinding_takes_back_the_events_of_a_command() {
    let mut s = demo_session("Plan a picnic.");
    let before = s.clone();
    let len = s.event_count();
    s.start(1).unwrap();
    assert!(s.event_count() > len, "start issues the first call");
    assert_eq!(s.rewound(len).unwrap(), before);
    assert_eq!(s.rewound(usize::MAX).unwrap(), s);
}

#[test]
fn the_timeline_lists_every_call_once_newest_round_first_in_the_engines_words() {
    let mut s = demo_session("Plan a two-day workshop on accessible web design.");
    let mut now = 1;
    s.start(now).unwrap();
    play(&mut s, &mut now, |_| false);
    assert_eq!(s.status_word(), "done");
    let timeline = s.timeline(&Default::default());
    let rounds: Vec<u32> = timeline.iter().map(|r| r.round).collect();
    let mut sorted = rounds.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted.dedup();
    assert_eq!(rounds, sorted, "each round once, newest first");
    let last = timeline.last().unwrap();
    assert_eq!((last.round, last.title.as_str()), (0, "Start"));
    assert_eq!(last.steps[0].title, "Setting up");
    assert_eq!(
        timeline[0].steps[0].title, "Presentation",
        "the newest step first"
    );
    let team = s.as_team().unwrap().state();
    let lines: Vec<_> = timeline
        .iter()
        .flat_map(|r| &r.steps)
        .flat_map(|st| &st.calls)
        .collect();
    assert_eq!(lines.len(), team.core.calls.len(), "every call once");
    for line in lines {
        let rec = team.core.call(&line.id).unwrap();
        assert_eq!(line.result, rec.result_word());
        assert_eq!(line.tokens, rec.tokens);
    }
    assert!(
        team.core.calls.iter().any(|c| c.result_word() == "invalid"),
        "the demo model makes mistakes the timeline shows"
    );
}

#[test]
fn the_view_marks_who_asked_the_open_question_and_the_rounds_progress() {
    let mut s = demo_session("Plan a two-day workshop on accessible web design.");
    assert_eq!(s.view().progress, 0);
    assert!(s.question().is_none());
    assert_eq!(s.view().open_asks, 0, "nothing waits in the inbox");
    let mut now = 1;
    s.start(now).unwrap();
    play(&mut s, &mut now, |s| {
        s.question().is_some() || !s.is_running()
    });
    let (asked_by, halt) = s.question().expect("the demo chair asks at Bootstrap");
    assert!(!halt.message().is_empty());
    let view = s.view();
    assert_eq!(view.status, SessionStatus::AwaitingPerson);
    assert!(view.actions.answer);
    assert_eq!(view.open_asks, 1, "the header counts the open question");
    // The member that waits for the answer is the one who asked, named as the page names it.
    let halted: Vec<&String> = view
        .live
        .iter()
        .filter(|(_, word)| *word == "halted")
        .map(|(id, _)| id)
        .collect();
    assert_eq!(halted.len(), 1, "{:?}", view.live);
    let name = s
        .members()
        .into_iter()
        .find(|m| &m.id == halted[0])
        .unwrap()
        .name;
    assert_eq!(asked_by, name);
    assert!(
        view.status_text.starts_with(&format!("{name} asks")),
        "{}",
        view.status_text
    );
    // Into round 1: progress follows the round's order of steps.
    play(&mut s, &mut now, |s| {
        s.round() == 1 && s.view().stage.ends_with("Writing")
    });
    let p = s.view().progress;
    assert!(
        (40..=60).contains(&p),
        "Write is the third of five steps: {p}"
    );
    assert_eq!(
        s.view().open_asks,
        0,
        "the answered question left the inbox"
    );
    play(&mut s, &mut now, |_| false);
    assert_eq!(s.view().progress, 100, "the presentation is done");
    assert!(
        !s.view().actions.wrap_up,
        "a done session cannot be wrapped up"
    );
}

#[test]
fn a_charter_edit_is_held_to_the_charter_limits() {
    let mut s = demo_session("Plan a picnic.");
    let long = |n: usize| "x".repeat(n);
    let charter = |objectives: String| PersonEdit::Charter {
        charter: Charter {
            mission: "Picnic".into(),
            objectives,
            constraints: "Cheap".into(),
        },
    };
    let mut team = s.as_team_mut().unwrap();
    let max = roundtable_core::protocol::team::wire::limits::OBJECTIVES_MAX;
    assert!(team.edit(charter(long(max + 1)), 1).is_err());
    team.edit(charter(long(max)), 1).unwrap();
}

#[test]
fn the_prompts_line_diff_is_the_apps_diff_in_reading_order() {
    use roundtable_core::protocol::team::prompt::line_diff;
    assert_eq!(line_diff("a\nb\nc", "a\nB\nc"), "- b\n+ B");
    // A moved line is a change a reader sees; trailing spaces and blank lines are not.
    assert_eq!(line_diff("x\ny  \n\nz", "y\nz\nx"), "- x\n+ x");
    assert_eq!(line_diff("same", "same  "), "no line changed");
    let old: String = (0..30).map(|i| format!("line {i}\n")).collect();
    let out = line_diff(&old, "");
    assert_eq!(out.lines().count(), 9);
    assert!(out.ends_with("… 22 more changed line(s)"), "{out}");
    // A rewrite that kept no line is one line: the new version is in the prompt already.
    let new: String = (0..30).map(|i| format!("row {i}\n")).collect();
    assert_eq!(
        line_diff(&old, &new),
        "rewritten: no line kept (30 removed, 30 added)"
    );
    // A small rewrite is still shown line by line.
    assert_eq!(line_diff("a\nb", "c\nd"), "- a\n- b\n+ c\n+ d");
}

#[test]
fn the_team_rules_a_new_session_form_shows_come_from_the_configs_check() {
    use roundtable_core::protocol::team::{ConfigError, TeamRole};
    let model = ModelRef {
        provider: demo::PROVIDER.into(),
        model: demo::MODEL.into(),
    };
    let base = TeamConfig::standard("Plan a picnic.", 1, true, true, model);
    assert_eq!(base.check(), Ok(()));
    let with = |f: &dyn Fn(&mut TeamConfig)| {
        let mut c = base.clone();
        f(&mut c);
        c.check()
    };
    // The engine plays a team without operatives; the form for people does not start one.
    let no_operatives =
        |c: &mut TeamConfig| c.members.retain(|m| m.team_role != TeamRole::Operative);
    assert_eq!(with(&no_operatives), Ok(()));
    let mut c = base.clone();
    no_operatives(&mut c);
    assert_eq!(c.check_new(), Err(ConfigError::NoOperative));
    assert_eq!(base.check_new(), Ok(()));
    assert_eq!(
        with(&|c| c.members.retain(|m| m.team_role != TeamRole::Chair)),
        Err(ConfigError::NoChair)
    );
    assert_eq!(
        with(&|c| c.members[1].team_role = TeamRole::Chair),
        Err(ConfigError::ManyChairs(2))
    );
    assert_eq!(
        with(&|c| {
            let mut second = c.members[2].clone();
            second.id = "inspector-2".into();
            c.members.push(second);
        }),
        Err(ConfigError::TooMany("inspector"))
    );
    // The team's rules before the request: a form shows what is wrong with the team first.
    assert_eq!(
        with(&|c| {
            c.request.clear();
            c.members[1].team_role = TeamRole::Chair;
        }),
        Err(ConfigError::ManyChairs(2))
    );
    assert_eq!(
        with(&|c| c.request = " ".into()),
        Err(ConfigError::EmptyRequest)
    );
    assert_eq!(
        ConfigError::ManyChairs(2).to_string(),
        "a team has exactly one chair; this one has 2"
    );
}

#[test]
fn a_status_has_one_word_and_one_label_and_the_view_says_the_engines_word() {
    for status in SessionStatus::ALL {
        assert_eq!(SessionStatus::from_word(status.word()), Some(status));
    }
    assert_eq!(SessionStatus::AwaitingPerson.label(), "needs you");
    assert_eq!(SessionStatus::Paused.label(), "paused");
    assert_eq!(SessionStatus::from_word("failed"), None);
    let mut s = demo_session("Plan a one-day workshop for 20 people.");
    assert_eq!(s.view().status, SessionStatus::Draft);
    let mut now = 0;
    s.start(now).unwrap();
    assert_eq!(s.view().status, SessionStatus::Running);
    play(&mut s, &mut now, |_| false);
    assert_eq!(s.view().status, SessionStatus::Done);
    assert_eq!(s.status().word(), s.status_word());
}

#[test]
fn a_call_kind_has_one_wording() {
    use roundtable_core::engine::CallKind;
    let all = [CallKind::Initial, CallKind::AfterContext, CallKind::Repair];
    let words: std::collections::HashSet<_> = all.iter().map(|k| k.word()).collect();
    assert_eq!(words.len(), all.len(), "each kind its own word");
    assert_eq!(CallKind::Initial.note(), None, "a first ask needs no note");
    for k in &all[1..] {
        let note = k.note().expect("a note");
        assert!(
            k.word().ends_with(note),
            "{k:?}: the note is the word's end"
        );
    }
}

#[test]
fn every_live_state_word_has_a_tone_and_an_unknown_word_none() {
    use roundtable_core::session::Tone;
    let words = [
        ("applied", Tone::Ok),
        ("done", Tone::Ok),
        ("invalid", Tone::Invalid),
        ("failed", Tone::Invalid),
        ("stuck", Tone::Invalid),
        ("fell back", Tone::Warn),
        ("halted", Tone::Warn),
        ("retrying", Tone::Warn),
        ("repaired", Tone::Warn),
        ("stopped", Tone::Warn),
        ("asked for context", Tone::Running),
        ("answered", Tone::Running),
        ("streaming", Tone::Running),
        ("validating", Tone::Running),
        ("queued", Tone::Queued),
        ("waiting", Tone::Queued),
    ];
    for (word, tone) in words {
        assert_eq!(Tone::of_state(word), tone, "{word}");
        assert!(!tone.class().is_empty());
    }
    assert_eq!(Tone::of_state("superseded").class(), "");
}

/// A session of `kind` on the demo model, played to the end.
fn played(kind: roundtable_core::session::Kind) -> Session {
    use roundtable_core::protocol::dialectic::{DialecticConfig, Mode, ResponseStyle};
    use roundtable_core::protocol::meeting::MeetingConfig;
    use roundtable_core::session::Kind;
    let model = ModelRef {
        provider: demo::PROVIDER.into(),
        model: demo::MODEL.into(),
    };
    let mut s = match kind {
        Kind::Team => demo_session("Plan a book swap in the village hall for 40 people."),
        Kind::Meeting => {
            let mut config = MeetingConfig::standard(
                "Pick a database for the notes app.",
                &[
                    ("engineer-1", "Ana", "Backend engineer"),
                    ("designer-1", "Bo", "Product designer"),
                ],
                model,
            );
            config.settings.max_rounds = 12;
            Session::new_meeting(config, 0).unwrap()
        }
        Kind::Dialectic => Session::new_dialectic(
            DialecticConfig::standard(
                "Should a small team adopt a four-day week?",
                ResponseStyle::Sections,
                Mode::Workflow,
                true,
                model,
            ),
            0,
        )
        .unwrap(),
        Kind::Autocoding => Session::create::<roundtable_core::protocol::autocoding::Autocoding>(
            roundtable_core::protocol::autocoding::AutocodingConfig::standard(
                roundtable_core::protocol::autocoding::demo::DEMO_REQUIREMENTS,
                model,
            ),
            0,
        )
        .unwrap(),
        Kind::Review => Session::create::<roundtable_core::protocol::review::ReviewState>(
            roundtable_core::protocol::review::demo::config(model, "run-1"),
            0,
        )
        .unwrap(),
    };
    let mut now = 0;
    s.start(1).unwrap();
    play(&mut s, &mut now, |_| false);
    s
}

/// The history slider's words for every event of a whole session of each kind: no event names
/// (`call_issued`), call ids (`call-9`), snake_case or CamelCase identifiers — a person's words.
#[test]
fn every_point_of_history_is_worded_for_a_person() {
    use roundtable_core::session::Kind;
    let internal = |w: &str| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-');
        w.contains('_')
            || (w.starts_with("call-") && w[5..].chars().all(|c| c.is_ascii_digit()))
            || (w.len() > 2
                && w.chars().next().is_some_and(char::is_uppercase)
                && w.chars().skip(1).any(char::is_uppercase)
                && w.chars().all(char::is_alphanumeric))
    };
    for kind in Kind::ALL {
        let s = played(*kind);
        let n = s.event_lines().len();
        assert!(n > 10, "{kind:?}: a whole session");
        let mut seen = std::collections::BTreeSet::new();
        for seq in 0..n {
            let words = s.event_words(seq).unwrap();
            let bad: Vec<&str> = words.split_whitespace().filter(|w| internal(w)).collect();
            assert!(
                bad.is_empty(),
                "{kind:?} event {seq}: {words:?} has {bad:?}"
            );
            seen.insert(words);
        }
        assert!(s.event_words(n).is_none());
        assert!(
            seen.len() > 5,
            "{kind:?}: the words differ by event ({seen:?})"
        );
    }
    // The team's steps by their titles for people, a member by name.
    let team = played(Kind::Team);
    let steps: Vec<String> = (0..team.event_lines().len())
        .filter_map(|i| team.event_words(i))
        .filter(|w| w.starts_with("Round "))
        .collect();
    assert!(
        steps.iter().any(|w| w.contains("Chair's plan")),
        "{steps:?}"
    );
}

/// Every call of a whole session of each kind is titled for a person (`Session::call_title`, the
/// transcript's and the fork dialog's heading): its member by name, never a call or member id;
/// a team's by what the member does and the round ("Chair's plan, round 2"), a meeting's turn by
/// the phase it was held in ("Ana's turn in Option generation"), a dialectic's by what it writes.
#[test]
fn every_call_is_titled_in_a_persons_words() {
    use roundtable_core::session::Kind;
    for kind in Kind::ALL {
        let s = played(*kind);
        let calls: Vec<_> = s
            .timeline(&Default::default())
            .into_iter()
            .flat_map(|r| r.steps)
            .flat_map(|st| st.calls)
            .collect();
        assert!(calls.len() > 3, "{kind:?}: a whole session");
        for call in &calls {
            let title = s.call_title(&call.id).unwrap();
            let view = s.call_view(&call.id).unwrap();
            assert_eq!(title, view.title, "{kind:?}: one wording");
            assert_eq!(title, call.title, "{kind:?}: the timeline's too");
            assert!(
                title.starts_with(&format!("{}'s ", call.member_name)),
                "{kind:?}: {title}"
            );
            assert!(!title.contains(&call.id), "{kind:?}: {title}");
            // An id that is no word (`operative-2`, `engineer-1`) never shows; a dialectic's
            // ids are words ("synthesis") its titles may use.
            if call
                .member
                .contains(|c: char| c == '-' || c.is_ascii_digit())
            {
                assert!(!title.contains(&call.member), "{kind:?}: {title}");
            }
        }
        let titles: Vec<String> = calls.iter().map(|c| c.title.clone()).collect();
        let any = |want: &str| titles.iter().any(|t| t.contains(want));
        match kind {
            Kind::Team => assert!(
                any("'s plan, round 1") && any("'s writing, round 1"),
                "{titles:?}"
            ),
            Kind::Meeting => {
                // A turn is named by the phase it was held in, as the transcript shows it.
                let meeting = s
                    .kind_view::<roundtable_core::protocol::meeting::MeetingState>()
                    .unwrap();
                for t in meeting.turns.iter().filter(|t| {
                    t.kind == roundtable_core::protocol::meeting::TurnKind::Contribution
                }) {
                    let want = format!("{}'s turn in {}", t.name, t.phase);
                    assert!(titles.contains(&want), "{want} in {titles:?}");
                }
                assert!(
                    any("Orchestrator's next move in Initialization"),
                    "{titles:?}"
                );
            }
            Kind::Dialectic => assert!(
                any("'s thesis") && any("'s critique") && any("'s synthesis"),
                "{titles:?}"
            ),
            Kind::Autocoding => assert!(
                any("'s code, turn 1") && any("'s review, turn 1"),
                "{titles:?}"
            ),
            Kind::Review => assert!(
                any("'s decision, iteration 1")
                    && any("'s QA, iteration 4")
                    && any("'s critique, iteration 4"),
                "{titles:?}"
            ),
        }
    }
}
