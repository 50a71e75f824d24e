//! The engine's invariants, property-tested once for every kind of session: whatever answers come
//! in (the kind's own demo answers, garbage, answers cut short, late ids) and whatever the person
//! does (pause, resume, wrap up, approve / reject / revise an approval), an invalid answer changes
//! nothing but the log, the state always equals the replay of the log, and export → import gives
//! the same session back. Code a kind asks to run is run by the kind's demo stand-in. A kind may
//! add invariants of its own, checked after every act (autocoding: 002's state saves and loads
//! back whole).

use proptest::prelude::*;
use roundtable_core::engine::{KindEngine, Outcome, PersonReply, Protocol, Status, Verdict};
use roundtable_core::export;
use roundtable_core::protocol::meeting::{MeetingConfig, MeetingSession};
use roundtable_core::protocol::team::{TeamConfig, TeamSession};
use roundtable_core::session::{Registered, Session};

#[derive(Debug, Clone)]
enum Act {
    Demo,
    Garbage(u8),
    Cut(u16),
    Stale(u8),
    PauseResume,
    WrapUp,
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        8 => Just(Act::Demo),
        1 => any::<u8>().prop_map(Act::Garbage),
        1 => any::<u16>().prop_map(Act::Cut),
        1 => any::<u8>().prop_map(Act::Stale),
        1 => Just(Act::PauseResume),
        1 => prop::bool::weighted(0.2).prop_map(|_| Act::WrapUp),
    ]
}

const GARBAGE: [&str; 5] = [
    "True",
    "",
    "{} {}",
    "[1, 2]",
    "{\"decision\": 7, \"contribution\": []}",
];

/// The protocol's part of a state, with the engine's part set to `other`'s (so two states can be
/// compared on everything but the calls and counters).
fn protocol_part<P: Protocol>(state: &P, other: &P) -> P {
    let mut s = state.clone();
    *s.core_mut() = other.core().clone();
    s
}

fn drive<P: Registered>(
    mut s: KindEngine<P>,
    acts: &[Act],
    wrap: fn(KindEngine<P>) -> Session,
    own: fn(&P) -> Option<String>,
) -> Result<(), TestCaseError> {
    let mut now = 1u64;
    s.start(now).unwrap();
    for a in acts {
        now += 1;
        if let Some(broken) = own(s.state()) {
            return Err(TestCaseError::fail(broken));
        }
        match s.status().clone() {
            Status::AwaitingPerson { halt, .. } if halt.is_approval() => {
                let verdict = match a {
                    Act::Garbage(_) => PersonReply::verdict(
                        Verdict::Revise,
                        "Name the tests after the requirements.",
                    ),
                    Act::Cut(_) => PersonReply::verdict(Verdict::Reject, ""),
                    _ => PersonReply::verdict(Verdict::Approve, ""),
                };
                s.reply(None, verdict, now).unwrap();
                prop_assert_eq!(&KindEngine::<P>::replay(s.events()).unwrap(), &s);
                continue;
            }
            Status::AwaitingPerson { .. } => {
                s.answer_halt("yes", now).unwrap();
                continue;
            }
            Status::Paused { .. } => {
                if s.resume(now).is_err() {
                    let _ = s.finish(now);
                }
                continue;
            }
            Status::Done => break,
            _ => {}
        }
        let Some(call) = s.calls_due().into_iter().next() else {
            // Code to run: the kind's demo stand-in runs it.
            let due = s.next_effects();
            let Some((id, output)) = due
                .first()
                .and_then(|e| Some((e.id.clone(), s.state().demo_effect(e)?)))
            else {
                break;
            };
            s.effect_done(&id, output, now).unwrap();
            prop_assert_eq!(&KindEngine::<P>::replay(s.events()).unwrap(), &s);
            continue;
        };
        let before = s.clone();
        let raw = match a {
            Act::Demo => s.demo_answer(&call.id).unwrap().text,
            Act::Garbage(i) => GARBAGE[*i as usize % GARBAGE.len()].to_string(),
            Act::Cut(n) => {
                let text = s.demo_answer(&call.id).unwrap().text;
                text.chars()
                    .take(*n as usize % text.chars().count().max(1))
                    .collect()
            }
            Act::Stale(i) => {
                let err = s.submit(&format!("call-{}", 9000 + u32::from(*i)), "{}", None, now);
                prop_assert!(err.is_err());
                prop_assert_eq!(&protocol_part(s.state(), before.state()), before.state());
                continue;
            }
            Act::PauseResume => {
                s.pause(now).unwrap();
                s.resume(now + 1).unwrap();
                now += 1;
                continue;
            }
            Act::WrapUp => {
                let _ = s.finish(now);
                continue;
            }
        };
        let outcome = s.submit(&call.id, &raw, None, now).unwrap();
        if let Outcome::Invalid { .. } = outcome {
            // Nothing of an invalid answer is applied: the protocol's state is what it was.
            prop_assert_eq!(&protocol_part(s.state(), before.state()), before.state());
        }
        prop_assert_eq!(&KindEngine::<P>::replay(s.events()).unwrap(), &s);
    }
    let any = wrap(s);
    let back = export::from_file(&export::to_file(&any, now)).unwrap();
    prop_assert_eq!(back, any);
    Ok(())
}

fn demo_ref() -> roundtable_core::engine::ModelRef {
    roundtable_core::engine::ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn team_sessions_keep_the_engine_invariants(ops in 1usize..4, inspector: bool, acts in prop::collection::vec(act(), 1..50)) {
        let config = TeamConfig::standard("Plan a two-day workshop for twelve people.", ops, inspector, false, demo_ref());
        drive(TeamSession::new(config, 0).unwrap(), &acts, Session::of_kind, |_| None)?;
    }

    #[test]
    fn meetings_keep_the_engine_invariants(n in 2usize..5, per_phase in 1u32..4, acts in prop::collection::vec(act(), 1..60)) {
        let people = [("engineer-1", "Ana", "Engineer"), ("designer-1", "Bo", "Designer"), ("pm-1", "Cy", "Product manager"), ("ops-1", "Di", "Operations")];
        let mut config = MeetingConfig::standard("Choose a launch date.\nIt must be before June.", &people[..n], demo_ref());
        config.max_turns_per_phase = per_phase;
        drive(MeetingSession::new(config, 0).unwrap(), &acts, Session::of_kind, |_| None)?;
    }

    #[test]
    fn dialectics_keep_the_engine_invariants(style in 0usize..5, single_shot: bool, council: bool, acts in prop::collection::vec(act(), 1..40)) {
        use roundtable_core::protocol::dialectic::{DialecticConfig, DialecticSession, Mode, ResponseStyle};
        let style = [ResponseStyle::Sections, ResponseStyle::Json, ResponseStyle::SynthesisOnly, ResponseStyle::Conversational, ResponseStyle::BulletPoints][style];
        let mode = if single_shot { Mode::SingleShot } else { Mode::Workflow };
        let config = DialecticConfig::standard("Should a city ban cars from its centre?", style, mode, council, demo_ref());
        drive(DialecticSession::new(config, 0).unwrap(), &acts, Session::of_kind, |_| None)?;
    }

    #[test]
    fn autocoding_keeps_the_engine_invariants(turns in 1u32..5, person: bool, threshold in 0u32..=10, slug: bool, acts in prop::collection::vec(act(), 1..40)) {
        use roundtable_core::protocol::autocoding::{demo::DEMO_REQUIREMENTS, AutocodingConfig, AutocodingSession, AutocodingState};
        let requirements = if slug { DEMO_REQUIREMENTS } else { "Keep a reading list.\n- add a book\n- mark a book read" };
        let mut config = AutocodingConfig::standard(requirements, demo_ref());
        config.max_turns = turns;
        config.person_approval = person;
        config.approval_threshold = f64::from(threshold) / 10.0;
        drive(AutocodingSession::new(config, 0).unwrap(), &acts, Session::of_kind, |a| {
            // 002's state is one it would load, and saved it loads back whole.
            let back = a.state.save().and_then(|text| AutocodingState::load(&text)).map(|l| l.state);
            (back.as_ref() != Ok(&a.state)).then(|| format!("002's state does not save and load back: {back:?}"))
        })?;
    }

    #[test]
    fn review_loops_keep_the_engine_invariants(iterations in 1u32..8, fanout_max in 1u32..=8, edit_approval: bool, acts in prop::collection::vec(act(), 1..60)) {
        use roundtable_core::protocol::review::{demo, ReviewSession};
        let mut config = demo::config(demo_ref(), "run-prop");
        config.max_iterations = iterations;
        config.fanout_max = fanout_max;
        config.approval_policy.edit_requires_approval = edit_approval;
        drive(ReviewSession::new(config, 0).unwrap(), &acts, Session::of_kind, |r| {
            // The runtime's artifacts never claim what 004 forbids: a fan-out satisfies no gate
            // and runs at most its bound; a trigger is always called.
            let fanout = r.record.fanouts.iter().find(|f| f.safety.can_satisfy_required_gates || f.bounds.executed_items > f.bounds.max_items.min(8));
            let trigger = r.record.triggers.iter().find(|t| !t.called);
            fanout.map(|f| format!("a fan-out breaks its bounds: {f:?}")).or(trigger.map(|t| format!("an uncalled trigger: {t:?}")))
        })?;
    }
}
