//! Whole sessions of the real engine played by the demo model: every team shape reaches `done` in
//! about three rounds, every deliberate mistake is refused and repaired on the next call, clean
//! answers are never refused, and the same seed plays the same session.

use std::collections::BTreeMap;

use roundtable_core::engine::CallKind;
use roundtable_core::protocol::team::demo::{self, DemoModel, Mistake};
type ModelCall = roundtable_core::engine::DueCall;
use roundtable_core::engine::Protocol;
use roundtable_core::engine::{ModelRef, Outcome, Status};
use roundtable_core::protocol::team::prompt::Envelope;
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::TeamState;
use roundtable_core::protocol::team::{TeamConfig, TeamSession as Session};

fn demo_ref() -> ModelRef {
    ModelRef {
        provider: demo::PROVIDER.into(),
        model: demo::MODEL.into(),
    }
}

fn session(request: &str, operatives: usize, inspector: bool, envoy: bool) -> Session {
    let cfg = TeamConfig::standard(request, operatives, inspector, envoy, demo_ref());
    Session::new(cfg, 0).expect("a valid config")
}

/// What the driver saw, call by call.
#[derive(Default)]
struct Seen {
    invalid: usize,
    recovered: usize,
    context: usize,
    questions: usize,
    last_round: u32,
    presentation: Option<ModelCall>,
}

/// Drives a session call by call, checking the engine's verdict on each demo answer against the
/// mistake the demo says it made.
fn drive(s: &mut Session, model: &DemoModel) -> Seen {
    let mut seen = Seen::default();
    let mut now = 1;
    s.start(now).unwrap();
    // (member, step) → the mistake of the last refused answer, to check the repair that follows.
    let mut pending_repair: BTreeMap<(String, Step), Mistake> = BTreeMap::new();
    for _ in 0..500 {
        now += 1;
        match s.status().clone() {
            Status::Running => {
                for call in s.calls_due() {
                    let key = (call.member.clone(), TeamState::step_of(call.step));
                    let answer = model.answer_call(&call);
                    if let Some(m) = pending_repair.remove(&key) {
                        assert_eq!(call.kind, CallKind::Repair, "after {m:?}");
                        assert!(call
                            .envelope
                            .get::<Envelope>()
                            .call
                            .pending_repair
                            .is_some());
                        assert_eq!(answer.mistake, None, "a repair answer must be clean");
                    }
                    if TeamState::step_of(call.step) == Step::Presentation {
                        seen.presentation = Some(call.clone());
                    }
                    seen.last_round = seen.last_round.max(call.round);
                    now += 1;
                    let outcome = s
                        .submit(&call.id, &answer.text, Some(answer.engine_usage()), now)
                        .unwrap();
                    match (&outcome, answer.mistake) {
                        (Outcome::Invalid { report, paused }, Some(m)) => {
                            assert!(!m.is_recoverable(), "{m:?} refused: {report:?}");
                            assert!(!paused);
                            seen.invalid += 1;
                            pending_repair.insert(key, m);
                        }
                        (Outcome::Invalid { report, .. }, None) => panic!(
                            "clean answer refused at {} for {}: {:#?}\n{}",
                            TeamState::step_of(call.step),
                            call.member,
                            report.errors,
                            answer.text
                        ),
                        (_, Some(m)) => {
                            assert!(m.is_recoverable(), "{m:?} was accepted");
                            seen.recovered += 1;
                        }
                        (Outcome::ContextServed, None) => seen.context += 1,
                        _ => {}
                    }
                }
            }
            Status::AwaitingPerson { halt, asked_by } => {
                assert_eq!(asked_by, "chair");
                seen.questions += 1;
                let first = halt.options()[0].clone();
                s.answer_halt(&first, now).unwrap();
            }
            Status::Done => return seen,
            other => panic!("session stopped: {other:?}"),
        }
    }
    panic!("the session did not finish in 500 steps");
}

#[test]
fn every_team_shape_plays_to_done_in_about_three_rounds_even_without_operatives() {
    let requests = [
        "Plan a half-day workshop on data privacy for nurses",
        "A short report about heat pumps for landlords",
        "Launch plan for our budgeting app",
        "A 4-day trip to Lisbon in May",
        "Study plan for the AWS Solutions Architect exam",
        "Renovate the community garden shed",
    ];
    let mut totals = Seen::default();
    let mut seed = 100;
    // 0 operatives: the chair writes everything itself.
    for operatives in 0..=6 {
        for (inspector, envoy) in [(true, true), (false, false)] {
            let request = requests[(operatives + usize::from(inspector)) % requests.len()];
            let mut s = session(request, operatives, inspector, envoy);
            let seen = drive(&mut s, &DemoModel::new(seed));
            seed += 1;
            assert_eq!(seen.questions, 1, "one question at Bootstrap");
            assert!(
                (3..=5).contains(&seen.last_round),
                "{operatives} ops: last round {}",
                seen.last_round
            );
            let present = seen.presentation.expect("a presentation");
            let presenter = if envoy { "envoy" } else { "chair" };
            assert_eq!(present.member, presenter);
            let env = present.envelope.get::<Envelope>();
            let writable: Vec<_> = env
                .products
                .iter()
                .filter(|p| p.parent_id.is_some())
                .collect();
            assert!(writable.len() >= 4, "initial products plus the round-2 one");
            for p in writable {
                assert!(
                    p.accepted_version.is_some() && p.accepted_version == p.latest_version,
                    "{} not accepted at the end",
                    p.name
                );
            }
            totals.invalid += seen.invalid;
            totals.recovered += seen.recovered;
            totals.context += seen.context;
        }
    }
    assert!(totals.invalid > 0, "the repair path ran");
    assert!(totals.recovered > 0, "a fenced answer was recovered");
    assert!(totals.context > 0, "context was asked and served");
}

#[test]
fn the_same_seed_plays_the_same_session_and_replays() {
    let play = |seed| {
        let mut s = session(
            "Plan a one-day design workshop for 20 people",
            3,
            true,
            false,
        );
        let mut now = 0;
        let report = demo::play(&mut s, &DemoModel::new(seed), &mut now, 1000).unwrap();
        (s, report)
    };
    let (a, ra) = play(9);
    let (b, rb) = play(9);
    assert_eq!(a.status(), &Status::Done);
    assert_eq!(ra, rb);
    assert_eq!(a.events(), b.events());
    assert_eq!(Session::replay(a.events()).unwrap(), a);
    let (c, _) = play(10);
    assert_ne!(a.events(), c.events(), "another seed plays differently");
}

#[test]
fn the_demo_reads_the_bootstrap_answer_from_the_envelope() {
    let mut s = session(
        "Plan a half-day workshop on data privacy for nurses",
        2,
        false,
        true,
    );
    let model = DemoModel::new(1);
    s.start(1).unwrap();
    let first = s.calls_due().remove(0);
    assert_eq!(TeamState::step_of(first.step), Step::Bootstrap);
    let ask = model.answer_call(&first);
    assert!(ask.text.contains("\"type\": \"question\""), "{}", ask.text);
    assert_eq!(
        s.submit(&first.id, &ask.text, None, 2).unwrap(),
        Outcome::AwaitingPerson
    );
    s.answer_halt("Two hours online, about 12 nurses", 3)
        .unwrap();
    let again = s.calls_due().remove(0);
    assert_eq!(TeamState::step_of(again.step), Step::Bootstrap);
    let input = demo::input_from_call(&again);
    assert_eq!(
        input.person_answer.as_deref(),
        Some("Two hours online, about 12 nurses")
    );
    let charter = model.answer_call(&again);
    assert!(charter.text.contains("Two hours online, about 12 nurses"));
    assert!(charter.text.contains("\"responseType\": \"final_output\""));
}

#[test]
fn many_seeds_and_odd_requests_never_get_a_clean_answer_refused() {
    let requests = [
        "x",
        "Über-Workshop über Datenschutz für Pflegekräfte",
        "日本への旅行を計画して",
        "Plan a one-day design workshop for 20 people. Budget is tight!",
        "report",
        "Help me learn Spanish in 3 months",
    ];
    for seed in 0..48u64 {
        let request = requests[seed as usize % requests.len()];
        let mut s = session(
            request,
            1 + (seed as usize % 6),
            seed % 2 == 0,
            seed % 3 == 0,
        );
        let seen = drive(&mut s, &DemoModel::new(seed * 7919));
        assert!(
            seen.last_round <= 5,
            "seed {seed}: round {}",
            seen.last_round
        );
    }
}

#[test]
fn a_low_round_limit_still_ends_with_done_and_a_presentation() {
    for max_rounds in [2, 3, 4] {
        let mut cfg = TeamConfig::standard(
            "Launch plan for our budgeting app",
            3,
            true,
            true,
            demo_ref(),
        );
        cfg.settings.max_rounds = max_rounds;
        let mut s = Session::new(cfg, 0).unwrap();
        let mut now = 0;
        let report = demo::play(&mut s, &DemoModel::new(4), &mut now, 1000).unwrap();
        assert_eq!(s.status(), &Status::Done, "max_rounds {max_rounds}");
        assert!(report.last_round <= max_rounds);
    }
}
