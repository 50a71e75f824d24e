//! The run controls as contracts (`engine::control`): One step, One round and Run to the end stop
//! exactly where they say for every kind of session, whatever happens on the way — a question
//! the person answers, a repair, a request for context, a decision the fallback rule takes, a
//! call answered late (the runner's retry), a Stop with calls out, a token budget that runs out
//! and is raised. Pause takes in the answers already on their way; Wrap up runs the closing step
//! to the end whatever boundary the run had.
//!
//! Each case starts a run from a draft and from a session paused after its first step and after
//! its first round, and checks where the run stopped against the boundary fixed when it began.

use roundtable_core::engine::kind::Next;
use roundtable_core::engine::{ModelRef, PauseReason, RunTarget, Settings, Status, Until};
use roundtable_core::protocol::meeting::MeetingConfig;
use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::protocol::ModelCall;
use roundtable_core::session::Session;

/// Runs an expression on the engine's part of the state, whatever the kind.
macro_rules! core_of {
    ($s:expr, $c:ident => $body:expr) => {{
        let $c = $s.any_engine().state().core();
        $body
    }};
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Team,
    Meeting,
    Dialectic,
}

/// What happens on the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Interruption {
    Nothing,
    /// A member asks the person a question (team: a `halt`); the person answers it.
    Question,
    /// An answer is invalid and its member gets a repair prompt.
    Repair,
    /// A member asks for context and is asked again with it (team).
    Context,
    /// An invalid decision the protocol's rule takes instead (meeting).
    FallBack,
    /// A call is answered only after every other (a provider error the runner retried).
    Retry,
    /// The person stops with a call out and runs again with the same control.
    Stop,
    /// The token budget runs out on the way; the person raises it and runs again.
    Budget,
}

const ALL: [Interruption; 8] = [
    Interruption::Nothing,
    Interruption::Question,
    Interruption::Repair,
    Interruption::Context,
    Interruption::FallBack,
    Interruption::Retry,
    Interruption::Stop,
    Interruption::Budget,
];

fn demo() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

fn new_session(kind: Kind) -> Session {
    match kind {
        Kind::Team => {
            let mut config = TeamConfig::standard(
                "Plan a one-day design workshop for 20 people",
                2,
                true,
                false,
                demo(),
            );
            config.settings.max_rounds = 3;
            Session::new_team(config, 0).unwrap()
        }
        Kind::Meeting => {
            let mut config = MeetingConfig::standard(
                "Pick a database for the notes app.\nIt must work offline.",
                &[
                    ("engineer-1", "Ana", "Backend engineer"),
                    ("designer-1", "Bo", "Product designer"),
                ],
                demo(),
            );
            config.settings.max_rounds = 12;
            Session::new_meeting(config, 0).unwrap()
        }
        Kind::Dialectic => {
            let config = roundtable_core::protocol::dialectic::DialecticConfig::standard(
                "Should a small team adopt a four-day week?",
                roundtable_core::protocol::dialectic::ResponseStyle::Sections,
                roundtable_core::protocol::dialectic::Mode::Workflow,
                true,
                demo(),
            );
            Session::new_dialectic(config, 0).unwrap()
        }
    }
}

/// The text that makes `interruption` happen on this call, if the call can carry it.
fn disruptive_answer(kind: Kind, interruption: Interruption, call: &ModelCall) -> Option<String> {
    let decision = call.step == "meeting_decision";
    // A budget runs out when a call is issued: a repair makes one inside a step.
    let interruption = match interruption {
        Interruption::Budget => Interruption::Repair,
        other => other,
    };
    match (kind, interruption) {
        (Kind::Team, Interruption::Question) => Some(
            r#"{"responseType":"halt","halt":{"type":"question","to":["user-1"],"message":"Indoors or outdoors?","options":["Indoors","Outdoors"]}}"#
                .into(),
        ),
        (Kind::Team, Interruption::Repair) => Some("I think we should start with the agenda.".into()),
        (Kind::Meeting | Kind::Dialectic, Interruption::Repair) if !decision => {
            Some("I think we should start with the agenda.".into())
        }
        (Kind::Team, Interruption::Context) => Some(
            r#"{"responseType":"request_context","contextRequests":[{"productId":"p0","need":"full_content","reason":"see the whole request"}]}"#
                .into(),
        ),
        (Kind::Meeting, Interruption::FallBack) if decision => {
            Some(r#"{"action":"continue","nextSpeaker":"nobody"}"#.into())
        }
        _ => None,
    }
}

/// The engine's boundary for the current run.
fn until_of(s: &Session) -> Option<Until> {
    core_of!(s, c => c.until)
}

/// What one run did, for the checks.
struct Trace {
    /// The interruption happened.
    interrupted: bool,
    /// (round, step) of every call issued during the run.
    calls: Vec<(u32, &'static str)>,
}

/// Starts (or resumes) a run toward `target`, answers every call with the demo model except
/// where `interruption` is made to happen, and returns when the session stops on its own.
fn run(s: &mut Session, target: RunTarget, interruption: Interruption, now: &mut u64) -> Trace {
    let mut trace = Trace {
        interrupted: false,
        calls: Vec::new(),
    };
    if interruption == Interruption::Budget {
        let mut settings: Settings = core_of!(s, c => c.settings.clone());
        settings.token_budget = Some(s.tokens_used() + 1);
        s.set_settings(settings, *now).unwrap();
    }
    s.run(target, None, *now).unwrap();
    let mut held: Option<ModelCall> = None;
    let mut stopped = false;
    let mut disrupted = false;
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        *now += 1;
        let due = s.next_calls();
        for c in &due {
            if seen.insert(c.id.clone()) {
                trace.calls.push((c.round, c.step));
            }
        }
        match core_of!(s, c => c.status.clone().word()) {
            "awaiting_person" => {
                s.answer_halt("Indoors", *now).unwrap();
                continue;
            }
            "paused" => {
                let budget = core_of!(s, c => matches!(
                    c.status,
                    Status::Paused { reason: PauseReason::TokenBudget { .. } }
                ));
                if budget {
                    // It paused before the call that could cross it, never after: the tokens
                    // counted are within it.
                    let (used, limit) = core_of!(s, c => (c.tokens_used, c.settings.token_budget));
                    assert!(limit.is_some_and(|b| used <= b), "{used} of {limit:?}");
                    trace.interrupted = true;
                    // Raise it and go on with the same control.
                    let mut settings: Settings = core_of!(s, c => c.settings.clone());
                    settings.token_budget = None;
                    s.set_settings(settings, *now).unwrap();
                    s.run(target, None, *now).unwrap();
                    continue;
                }
                if let Some(call) = held.take() {
                    // Calls already out are still taken in while paused.
                    let text = call.demo.as_ref().unwrap().text.clone();
                    let _ = s.submit(&call.id, &text, None, *now);
                    continue;
                }
                break;
            }
            "running" => {}
            _ => break,
        }
        if interruption == Interruption::Stop && !stopped && !due.is_empty() {
            // Stop with every call of the step out; the same calls are due after the restart.
            stopped = true;
            trace.interrupted = true;
            s.pause(*now).unwrap();
            s.run(target, None, *now).unwrap();
            let again: Vec<String> = s.next_calls().into_iter().map(|c| c.id).collect();
            let before: Vec<String> = due.iter().map(|c| c.id.clone()).collect();
            assert_eq!(again, before, "Stop keeps the calls out, same ids");
            continue;
        }
        let Some(call) = due
            .iter()
            .find(|c| held.as_ref().is_none_or(|h| h.id != c.id))
            .cloned()
        else {
            // Only the held call is left: its retry comes back, under the same id.
            if let Some(call) = held.take() {
                assert!(
                    due.iter().any(|c| c.id == call.id),
                    "a retried call stays due"
                );
                let text = call.demo.as_ref().unwrap().text.clone();
                s.submit(&call.id, &text, None, *now).unwrap();
                continue;
            }
            break;
        };
        if interruption == Interruption::Retry && !trace.interrupted {
            trace.interrupted = true;
            held = Some(call);
            continue;
        }
        let text = match disruptive_answer(s.kind_of(), interruption, &call) {
            Some(text) if !disrupted => {
                disrupted = true;
                trace.interrupted |= interruption != Interruption::Budget;
                text
            }
            _ => call.demo.as_ref().unwrap().text.clone(),
        };
        s.submit(&call.id, &text, None, *now).unwrap();
        if interruption == Interruption::Budget
            && core_of!(s, c => matches!(
                c.status,
                Status::Paused { reason: PauseReason::TokenBudget { .. } }
            ))
        {
            trace.interrupted = true;
        }
    }
    trace
}

trait KindOf {
    fn kind_of(&self) -> Kind;
}
impl KindOf for Session {
    fn kind_of(&self) -> Kind {
        match self.kind().name() {
            "team" => Kind::Team,
            "meeting" => Kind::Meeting,
            _ => Kind::Dialectic,
        }
    }
}

/// The next move of the session's protocol (what would begin next).
fn next_is_new_round(s: &Session) -> bool {
    matches!(
        s.any_engine().state().next_move(),
        Next::Round(_) | Next::Finish
    )
}

/// Brings a new session to a starting point: a draft (`0`), paused after its first step (`1`),
/// paused after its first round (`2`).
fn at_start(kind: Kind, point: u8, now: &mut u64) -> Session {
    let mut s = new_session(kind);
    match point {
        0 => {}
        1 => {
            run(&mut s, RunTarget::Step, Interruption::Nothing, now);
        }
        _ => {
            run(&mut s, RunTarget::Round, Interruption::Nothing, now);
        }
    }
    s
}

fn check(kind: Kind, target: RunTarget, interruption: Interruption, point: u8) -> bool {
    let mut now = 1;
    let mut s = at_start(kind, point, &mut now);
    let steps_before = core_of!(&s, c => c.timeline.len());
    let label = format!("{kind:?} {target:?} from point {point} with {interruption:?}");
    let trace = run(&mut s, target, interruption, &mut now);
    let status = core_of!(&s, c => c.status.clone().word());
    let all_done = core_of!(&s, c => c.slots.iter().all(|x| x.done));
    match target {
        RunTarget::Step => {
            assert_eq!(status, "paused", "{label}: stops");
            assert!(
                matches!(until_of(&s), Some(Until::Steps { .. }))
                    && core_of!(&s, c => matches!(c.status, Status::Paused { reason: PauseReason::Reached { .. } })),
                "{label}: paused at its boundary"
            );
            let steps = core_of!(&s, c => c.timeline.len());
            assert_eq!(steps, steps_before + 1, "{label}: exactly one step ran");
            assert!(all_done, "{label}: the step is complete");
            let last = core_of!(&s, c => c.timeline.last().map(|t| t.round));
            assert!(
                trace.calls.iter().all(|(r, _)| Some(*r) == last),
                "{label}: every call was of that step's round: {:?}",
                trace.calls
            );
            let names: std::collections::BTreeSet<_> =
                trace.calls.iter().map(|(_, n)| *n).collect();
            assert_eq!(names.len(), 1, "{label}: calls of one step only: {names:?}");
        }
        RunTarget::Round => {
            assert_eq!(status, "paused", "{label}: stops");
            let Some(Until::Round { round }) = until_of(&s) else {
                panic!("{label}: a round boundary")
            };
            assert!(
                core_of!(&s, c => matches!(c.status, Status::Paused { reason: PauseReason::Reached { .. } })),
                "{label}: paused at its boundary, not {}",
                s.view().status_text
            );
            assert_eq!(s.round(), round, "{label}: in the round it aimed at");
            let expected = if point == 2 { 2 } else { 1 };
            assert_eq!(round, expected, "{label}: one round further");
            assert!(
                all_done && next_is_new_round(&s),
                "{label}: the round is complete"
            );
            assert!(
                trace.calls.iter().all(|(r, _)| *r <= round),
                "{label}: no call of a later round: {:?}",
                trace.calls
            );
        }
        RunTarget::End => {
            let limit = core_of!(&s, c => matches!(c.status, Status::Paused { reason: PauseReason::RoundLimit { .. } }));
            assert!(
                status == "done" || limit,
                "{label}: runs until done or the round limit, not {}",
                s.view().status_text
            );
        }
    }
    trace.interrupted
}

#[test]
fn each_run_control_stops_where_it_says_for_every_kind_and_interruption() {
    // A dialectic is one pass (its controls: the scenarios of tests/dialectic.rs); these kinds
    // run for rounds.
    for kind in [Kind::Team, Kind::Meeting] {
        for target in [RunTarget::Step, RunTarget::Round, RunTarget::End] {
            for interruption in ALL {
                let applies = match (kind, interruption) {
                    // A meeting has no questions, no context requests; a team no fallback rule.
                    (Kind::Meeting, Interruption::Question | Interruption::Context) => false,
                    (Kind::Team, Interruption::FallBack) => false,
                    // A dialectic has neither, nor a fallback rule.
                    (Kind::Dialectic, Interruption::Question | Interruption::Context) => false,
                    (Kind::Dialectic, Interruption::FallBack) => false,
                    _ => true,
                };
                if !applies {
                    continue;
                }
                let mut happened = false;
                for point in 0..3 {
                    happened |= check(kind, target, interruption, point);
                }
                assert!(
                    interruption == Interruption::Nothing || happened,
                    "{kind:?} {target:?}: {interruption:?} never happened, so the case tests nothing"
                );
            }
        }
    }
}

#[test]
fn a_question_answered_during_one_step_does_not_run_on() {
    // The bug of issue 13: answering the question raised during One step ran rounds 1–2.
    let mut now = 1;
    let mut s = new_session(Kind::Team);
    s.run(RunTarget::Step, None, now).unwrap();
    let call = s.next_calls().remove(0);
    let question = disruptive_answer(Kind::Team, Interruption::Question, &call).unwrap();
    now += 1;
    s.submit(&call.id, &question, None, now).unwrap();
    assert_eq!(s.status_word(), "awaiting_person");
    now += 1;
    s.answer_halt("Indoors", now).unwrap();
    let call = s.next_calls().remove(0);
    assert_eq!(
        call.step, "bootstrap",
        "the chair is asked again at the same step"
    );
    now += 1;
    s.submit(&call.id, &call.demo.unwrap().text, None, now)
        .unwrap();
    assert_eq!(s.status_word(), "paused");
    assert_eq!(s.round(), 0, "round 1 has not begun");
    assert!(s.next_calls().is_empty());
    assert_eq!(
        s.view().status_text,
        "One step done, as you asked: One step, One round or Run to the end goes on"
    );
}

#[test]
fn pause_takes_in_answers_already_out_and_issues_nothing_new() {
    for kind in [Kind::Team, Kind::Meeting] {
        let mut now = 1;
        let mut s = at_start(kind, 1, &mut now);
        s.run(RunTarget::End, None, now).unwrap();
        let out = s.next_calls();
        assert!(!out.is_empty());
        let calls_before = core_of!(&s, c => c.calls.len());
        s.pause(now).unwrap();
        for call in &out {
            now += 1;
            s.submit(&call.id, &call.demo.as_ref().unwrap().text, None, now)
                .unwrap();
        }
        assert_eq!(s.status_word(), "paused", "{kind:?}");
        assert!(
            s.next_calls().is_empty(),
            "{kind:?}: nothing due while paused"
        );
        assert_eq!(
            core_of!(&s, c => c.calls.len()),
            calls_before,
            "{kind:?}: no call issued while paused"
        );
        assert!(
            core_of!(&s, c => c.slots.iter().all(|x| x.done)),
            "{kind:?}: the answers were applied"
        );
    }
}

#[test]
fn wrap_up_supersedes_calls_out_and_runs_the_closing_step_to_the_end() {
    for kind in [Kind::Team, Kind::Meeting] {
        let mut now = 1;
        let mut s = at_start(kind, 2, &mut now);
        s.run(RunTarget::Step, None, now).unwrap();
        let out = s.next_calls();
        assert!(!out.is_empty());
        s.finish(now).unwrap();
        now += 1;
        let late = s.submit(&out[0].id, "{}", None, now);
        assert!(late.is_err(), "{kind:?}: a late answer is refused");
        assert_eq!(
            until_of(&s),
            None,
            "{kind:?}: the closing step runs to the end"
        );
        let trace = run_open(&mut s, &mut now);
        assert_eq!(s.status_word(), "done", "{kind:?}");
        assert!(trace > 0);
    }
}

/// Answers whatever is due with the demo model until the session stops; returns the calls made.
fn run_open(s: &mut Session, now: &mut u64) -> usize {
    let mut n = 0;
    while let Some(call) = s.next_calls().into_iter().next() {
        *now += 1;
        n += 1;
        s.submit(&call.id, &call.demo.unwrap().text, None, *now)
            .unwrap();
    }
    n
}

#[test]
fn the_boundary_survives_replay_and_old_logs_run_to_the_end() {
    let mut now = 1;
    let mut s = new_session(Kind::Team);
    s.run(RunTarget::Round, None, now).unwrap();
    let call = s.next_calls().remove(0);
    now += 1;
    s.submit(&call.id, &call.demo.unwrap().text, None, now)
        .unwrap();
    let stored: Vec<String> = s
        .events_json(0)
        .unwrap()
        .into_iter()
        .map(|(_, j)| j)
        .collect();
    assert!(
        stored[1].contains(r#""until":{"round":{"round":1}}"#),
        "{}",
        stored[1]
    );
    let back = Session::replay_stored(&stored).unwrap();
    assert_eq!(until_of(&back), Some(Until::Round { round: 1 }));
    // A `started` event written before boundaries existed reads as a run to the end.
    let mut old = stored.clone();
    old[1] = old[1].replace(r#","until":{"round":{"round":1}}"#, "");
    assert!(!old[1].contains("until"));
    let back = Session::replay_stored(&old).unwrap();
    assert_eq!(until_of(&back), None);
}

#[test]
fn a_spent_budget_names_its_control_and_raising_it_lets_the_run_go_on() {
    for kind in [Kind::Team, Kind::Meeting] {
        let mut now = 1;
        let mut s = at_start(kind, 1, &mut now);
        let mut settings: Settings = core_of!(&s, c => c.settings.clone());
        settings.token_budget = Some(s.tokens_used());
        s.set_settings(settings.clone(), now).unwrap();
        let refused = s.run(RunTarget::Step, None, now);
        assert!(refused.is_ok(), "resuming a person's pause is allowed");
        assert_eq!(s.status_word(), "paused");
        let text = s.view().status_text;
        assert!(
            text.contains("raise it under Budget on this page"),
            "{text}"
        );
        let again = s.run(RunTarget::Step, None, now).unwrap_err().to_string();
        assert!(again.contains("raise it under Budget"), "{again}");
        settings.token_budget = Some(s.tokens_used() + 1_000_000);
        s.set_settings(settings, now).unwrap();
        s.run(RunTarget::Step, None, now).unwrap();
        assert_eq!(
            s.status_word(),
            "running",
            "{kind:?}: runs again once raised"
        );
    }
}
