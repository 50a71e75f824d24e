//! The token budget's rule of a call's answer, on the engine's state alone: what is left, a
//! call's share of it, the shortest useful answer, members of a step sharing it, calls out held
//! back, and the demo answering within the bound.

use roundtable_core::engine::{
    CallKind, CallRecord, Core, Protocol, Settings, Slot, MAX_ANSWER_TOKENS, MIN_ANSWER_TOKENS,
};
use roundtable_core::protocol::team::TeamState;

fn under(budget: Option<u64>, used: u64, waiting: &[&str]) -> Core {
    let mut core = Core::new(Settings {
        token_budget: budget,
        ..Settings::default()
    });
    core.tokens_used = used;
    core.slots = waiting
        .iter()
        .map(|m| Slot {
            member: m.to_string(),
            call_id: None,
            context_requests: 0,
            repairs: 0,
            done: false,
            exhausted: false,
            messages: Vec::new(),
            next_kind: CallKind::Initial,
            pending_report: None,
        })
        .collect();
    core
}

#[test]
fn no_token_budget_gives_every_call_the_longest_answer() {
    let core = under(None, 1_000_000, &["a", "b"]);
    assert_eq!(core.answer_room(50_000), MAX_ANSWER_TOKENS);
    assert!(!core.over_token_budget(50_000));
}

#[test]
fn a_call_gets_what_is_left_after_its_prompt_never_more_than_the_longest_answer() {
    let core = under(Some(20_000), 5_000, &["a"]);
    assert_eq!(core.tokens_left(), Some(15_000));
    assert_eq!(core.answer_room(2_000), MAX_ANSWER_TOKENS);
    assert_eq!(core.answer_room(12_000), 3_000);
    assert!(!core.over_token_budget(12_000));
    // What is left cannot hold the prompt and an answer of the shortest useful length.
    let tight = 15_000 - u64::from(MIN_ANSWER_TOKENS);
    assert_eq!(core.answer_room(tight), MIN_ANSWER_TOKENS);
    assert!(!core.over_token_budget(tight));
    assert!(core.over_token_budget(tight + 1));
    assert_eq!(core.answer_room(20_000), 0, "a prompt past what is left");
}

#[test]
fn members_waiting_at_the_same_step_share_what_is_left() {
    // Three members wait: the first call made gets a third of what its prompt leaves.
    let core = under(Some(10_000), 1_000, &["a", "b", "c"]);
    assert_eq!(core.waiting_for_a_call(), 3);
    assert_eq!(core.answer_room(3_000), 2_000);
    // A member whose call is out no longer waits, and what it may still take is held back.
    let mut core = core;
    core.slots[0].call_id = Some("call-1".into());
    core.calls.push(CallRecord {
        call: roundtable_core::engine::StoredCall {
            id: "call-1".into(),
            member: "a".into(),
            step: TeamState::step_id(roundtable_core::protocol::team::wire::Step::Write),
            round: 1,
            kind: CallKind::Initial,
            messages: Vec::new(),
            token_estimate: 3_000,
        },
        issued_at: 0,
        raw_answer: None,
        whole_bytes: None,
        answered_at: None,
        usage: None,
        tokens: 0,
        result: None,
        failed: None,
        retries: 0,
        max_answer: 2_000,
    });
    assert_eq!(core.tokens_out(), 5_000);
    assert_eq!(core.tokens_left(), Some(4_000));
    assert_eq!(core.waiting_for_a_call(), 2);
    assert_eq!(core.answer_room(1_000), 1_500);
    assert!(core.over_token_budget(2_000), "1,000 each is too few");
}

#[test]
fn the_demo_answers_within_the_bound_as_a_provider_does() {
    let reply = || roundtable_core::engine::DemoReply {
        text: "x".repeat(400),
        finish_reason: "stop".into(),
        prompt_tokens: 30,
        completion_tokens: 100,
    };
    let cut = reply().at_most(10);
    assert_eq!(cut.text.len(), 40);
    assert_eq!(cut.completion_tokens, 10);
    assert_eq!(cut.finish_reason, "length");
    assert_eq!(
        reply().at_most(100),
        reply(),
        "an answer within the bound is as it was"
    );
}
