//! Property test: random valid and invalid answers, stale ids, pauses and edits never corrupt a
//! session. Invalid answers change nothing but the log; the state always replays from the log.

mod engine_common;

use engine_common::*;
use proptest::prelude::*;
use roundtable_core::engine::{Outcome, Status};
use roundtable_core::export;
use roundtable_core::protocol::team::TeamSession as Session;

#[derive(Debug, Clone)]
enum Act {
    Valid,
    Garbage(u8),
    Truncated(u16),
    Dangling,
    AskContext,
    StaleId(u8),
    PauseResume,
    Finish,
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        6 => Just(Act::Valid),
        1 => any::<u8>().prop_map(Act::Garbage),
        1 => any::<u16>().prop_map(Act::Truncated),
        1 => Just(Act::Dangling),
        1 => Just(Act::AskContext),
        1 => any::<u8>().prop_map(Act::StaleId),
        1 => Just(Act::PauseResume),
        1 => prop::bool::weighted(0.1).prop_map(|_| Act::Finish),
    ]
}

const GARBAGE: [&str; 6] = [
    "True",
    "",
    "{\"responseType\": \"final_output\"}",
    "```json\n{\"responseType\": \"halt\", \"halt\": {\"type\": \"done\", \"to\": [\"user-1\"], \"message\": \"x\"}}\n```",
    "{\"responseType\": \"request_context\", \"contextRequests\": []}",
    "{} {}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_answers_never_corrupt_the_session(ops in 1usize..4, inspector: bool, acts in prop::collection::vec(act(), 1..60)) {
        let mut s = Session::new(config(ops, inspector, false), 0).unwrap();
        s.start(1).unwrap();
        let mut now = 1u64;
        for a in acts {
            now += 1;
            match s.status().clone() {
                Status::AwaitingPerson { .. } => { s.answer_halt("yes", now).unwrap(); continue; }
                Status::Paused { .. } => { if s.resume(now).is_err() { let _ = s.finish(now); } continue; }
                Status::Done => break,
                _ => {}
            }
            let Some(call) = s.calls_due().into_iter().next() else { break };
            let before = Before::of(&s);
            let valid = scripted(&call);
            let (id, text) = match &a {
                Act::Valid => (call.id.clone(), valid),
                Act::Garbage(i) => (call.id.clone(), GARBAGE[*i as usize % GARBAGE.len()].to_string()),
                Act::Truncated(n) => {
                    let cut = (*n as usize) % valid.len().max(1);
                    (call.id.clone(), valid.chars().take(cut).collect())
                }
                Act::Dangling => (call.id.clone(), valid.replace("\"p1\"", "\"p77\"").replace("\"v1\"", "\"v99\"")),
                Act::AskContext => (call.id.clone(), r#"{"responseType":"request_context","contextRequests":[{"productId":"p0","need":"all_feedback","reason":"r"}]}"#.to_string()),
                Act::StaleId(n) => (format!("call-{}", *n as usize % (s.state().core.calls.len() + 3)), valid),
                Act::PauseResume => {
                    s.pause(now).unwrap();
                    s.resume(now + 1).unwrap();
                    continue;
                }
                Act::Finish => {
                    let _ = s.finish(now);
                    continue;
                }
            };
            let outstanding = s.state().core.outstanding_calls().any(|c| c.call.id == id);
            let events_before = s.events().len();
            match s.submit(&id, &text, None, now) {
                Ok(outcome) => {
                    prop_assert!(outstanding);
                    let c = s.state().core.call(&id).unwrap().call.clone();
                    check_allowed(&before, &s, &c, &outcome);
                    if let Outcome::Invalid { .. } = outcome {
                        prop_assert_eq!(&before.tree, &s.state().tree);
                    }
                }
                Err(_) => {
                    prop_assert!(!outstanding);
                    prop_assert_eq!(&before.tree, &s.state().tree);
                    prop_assert_eq!(s.events().len(), events_before + 1, "a refusal is one recorded event");
                }
            }
            check_session(&s);
        }
        let replayed = Session::replay(s.events()).unwrap();
        prop_assert_eq!(&replayed, &s);
        let back = export::from_file(&export::to_file(&roundtable_core::session::Session::of_kind(s.clone()), now)).unwrap();
        prop_assert_eq!(&back, &roundtable_core::session::Session::of_kind(s.clone()));
    }
}
