//! All-or-nothing for every step of every kind, with no copy of the state to put back: an answer
//! whose fold is refused partway leaves the session exactly as it was before the `applied` event.
//!
//! The judge refuses such answers before they reach the fold, so each case forges the `applied`
//! event (a valid output with a bad part at its end) and folds it through [`Engine::extend`], which
//! folds exactly as [`Engine::submit`] records: the engine's checks, the protocol's fold, the
//! engine's fold, nothing copied. Each case also applies the same output without its bad part, to
//! show the parts before it would have changed the state.

use roundtable_core::engine::{
    Event, EventKind, KindEngine, KindValue, ModelRef, Protocol, Status,
};
use roundtable_core::protocol::meeting::{
    Decision, MeetingConfig, MeetingOutput, MeetingSession, MeetingStep,
};
use roundtable_core::protocol::team::check::validate_step;
use roundtable_core::protocol::team::wire::{
    CollabOutput, FinalOutput, Step, StepAnswer, WrittenVersion,
};
use roundtable_core::protocol::team::{TeamConfig, TeamSession};

fn demo() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

/// Plays `s` on the demo model until a call of `stop` is due; returns that call's id.
fn play_to<P: Protocol>(s: &mut KindEngine<P>, mut stop: impl FnMut(P::Step) -> bool) -> String {
    let mut now = 2;
    for _ in 0..500 {
        now += 1;
        match s.status().clone() {
            Status::AwaitingPerson { .. } => {
                s.answer_halt("Go ahead.", now).unwrap();
                continue;
            }
            Status::Running => {}
            other => panic!("the session stopped: {other:?}"),
        }
        let call = s.calls_due().into_iter().next().expect("a call is due");
        if stop(P::step_of(call.call.step)) {
            return call.call.id;
        }
        let text = s.demo_answer(&call.call.id).unwrap().text;
        s.submit(&call.call.id, &text, None, now).unwrap();
    }
    panic!("no such call within 500 answers");
}

/// Folds the answer to `call_id` as received, then a forged `applied` event with `output`.
fn answer_then_apply<P: Protocol>(
    s: &mut KindEngine<P>,
    call_id: &str,
    output: P::Output,
) -> Result<(), roundtable_core::engine::FoldError> {
    receive(s, call_id);
    let seq = s.events().len() as u64;
    s.extend(&[Event {
        seq,
        at: 10_001,
        kind: EventKind::Applied {
            call_id: call_id.into(),
            output: KindValue::new(output),
            warnings: Vec::new(),
        },
    }])
}

/// Folds an `answer_received` event for `call_id` (the answer's text does not matter here).
fn receive<P: Protocol>(s: &mut KindEngine<P>, call_id: &str) {
    let seq = s.events().len() as u64;
    s.extend(&[Event {
        seq,
        at: 10_000,
        kind: EventKind::AnswerReceived {
            call_id: call_id.into(),
            raw: "{}".into(),
            whole_bytes: None,
            usage: None,
            tokens: 1,
        },
    }])
    .unwrap();
}

/// The session just after the answer was received (before any output is applied).
fn received<P: Protocol>(s: &KindEngine<P>, call_id: &str) -> KindEngine<P> {
    let mut r = s.clone();
    receive(&mut r, call_id);
    r
}

fn team_at(step: Step) -> (TeamSession, String) {
    let cfg = TeamConfig::standard(
        "Plan a one-day design workshop for 20 people",
        2,
        true,
        false,
        demo(),
    );
    let mut s = TeamSession::new(cfg, 0).unwrap();
    s.start(1).unwrap();
    let id = play_to(&mut s, |x| x == step);
    (s, id)
}

/// The demo model's own (valid) final output for the call.
fn demo_output(s: &TeamSession, call_id: &str, step: Step) -> FinalOutput {
    let text = s.demo_answer(call_id).unwrap().text;
    let known = s.state().known();
    match validate_step(step, &text, Some(&known)).unwrap().answer {
        StepAnswer::FinalOutput { output } => output,
        other => panic!("the demo did not answer with a final output: {other:?}"),
    }
}

fn collab_on(product: &str, comment: &str) -> CollabOutput {
    serde_json::from_value(serde_json::json!({
        "refersToProduct": product,
        "type": "suggestion",
        "importance": 5,
        "comment": comment,
        "shortestSummary": "a suggestion",
    }))
    .unwrap()
}

#[test]
fn a_write_refused_at_its_last_version_changes_nothing() {
    let (s, call) = team_at(Step::Write);
    let FinalOutput::Write(mut good) = demo_output(&s, &call, Step::Write) else {
        panic!("not a Write output");
    };
    assert!(!good.versions.is_empty(), "the demo wrote a version");
    // Several versions: the demo's, and the first again (a second version of the same product).
    let again = good.versions[0].clone();
    good.versions.push(again);
    let product = good.versions[0].product_id.clone();
    good.collabs = vec![collab_on(
        &product,
        "Link the agenda to the materials list.",
    )];
    let mut bad = good.clone();
    bad.versions.push(WrittenVersion {
        product_id: "p999".into(),
        ..good.versions[0].clone()
    });

    let before = received(&s, &call);
    let mut refused = s.clone();
    let err = answer_then_apply(&mut refused, &call, FinalOutput::Write(bad)).unwrap_err();
    assert!(err.to_string().contains("p999"), "{err}");
    assert_eq!(refused, before, "the refused Write changed the session");

    // Without its last version the same answer applies, and writes every version it holds.
    let versions_before = s.state().tree.versions().len();
    let mut applied = s.clone();
    let n = good.versions.len();
    answer_then_apply(&mut applied, &call, FinalOutput::Write(good)).unwrap();
    assert_eq!(applied.state().tree.versions().len(), versions_before + n);
    assert_ne!(applied.state(), before.state());
}

#[test]
fn a_write_refused_at_its_last_collab_changes_nothing() {
    let (s, call) = team_at(Step::Write);
    let FinalOutput::Write(mut bad) = demo_output(&s, &call, Step::Write) else {
        panic!("not a Write output");
    };
    let product = bad.versions[0].product_id.clone();
    // The same comment twice on the same product: the second is refused as a repeat.
    bad.collabs = vec![
        collab_on(&product, "Add timings to each block."),
        collab_on(&product, "Add timings to each block."),
    ];
    let before = received(&s, &call);
    let mut refused = s.clone();
    let err = answer_then_apply(&mut refused, &call, FinalOutput::Write(bad)).unwrap_err();
    assert!(err.to_string().contains("already"), "{err}");
    assert_eq!(refused, before, "the refused Write changed the session");
}

#[test]
fn a_peer_review_refused_at_its_last_collab_changes_nothing() {
    let (s, call) = team_at(Step::PeerReview);
    let FinalOutput::PeerReview(mut bad) = demo_output(&s, &call, Step::PeerReview) else {
        panic!("not a PeerReview output");
    };
    let product = s
        .state()
        .tree
        .walk()
        .into_iter()
        .find(|(d, _)| *d >= 1)
        .map(|(_, p)| p.id.clone())
        .unwrap();
    bad.collabs
        .push(collab_on(&product, "The budget line is missing."));
    bad.collabs
        .push(collab_on("p999", "A product that is not there."));
    let before = received(&s, &call);
    let mut refused = s.clone();
    answer_then_apply(&mut refused, &call, FinalOutput::PeerReview(bad)).unwrap_err();
    assert_eq!(
        refused, before,
        "the refused PeerReview changed the session"
    );
}

#[test]
fn a_meeting_decision_refused_by_the_fold_changes_nothing() {
    let cfg = MeetingConfig::standard(
        "Pick a database for the notes app.",
        &[
            ("engineer-1", "Ana", "Backend engineer"),
            ("designer-1", "Bo", "Product designer"),
        ],
        demo(),
    );
    let mut s = MeetingSession::new(cfg, 0).unwrap();
    s.start(1).unwrap();
    // The second decision: the meeting has a transcript and a floor by then.
    let mut decisions = 0;
    let call = play_to(&mut s, |step| {
        decisions += usize::from(step == MeetingStep::Decide);
        decisions == 2
    });
    let before = received(&s, &call);
    let mut refused = s.clone();
    let forged = MeetingOutput::Decision(Decision::Continue {
        next_agent_id: "nobody-9".into(),
        rationale: "Let someone new speak.".into(),
    });
    let err = answer_then_apply(&mut refused, &call, forged).unwrap_err();
    assert!(err.to_string().contains("nobody-9"), "{err}");
    assert_eq!(refused, before, "the refused decision changed the meeting");

    let mut applied = s.clone();
    let fine = MeetingOutput::Decision(Decision::Continue {
        next_agent_id: "designer-1".into(),
        rationale: "Bo has not spoken yet.".into(),
    });
    answer_then_apply(&mut applied, &call, fine).unwrap();
    assert_ne!(applied.state(), before.state());
}

#[test]
fn a_plan_assign_refused_at_its_last_assignment_changes_nothing() {
    let (s, call) = team_at(Step::PlanAssign);
    let FinalOutput::PlanAssign(good) = demo_output(&s, &call, Step::PlanAssign) else {
        panic!("not a PlanAssign output");
    };
    assert!(!good.assignments.is_empty(), "the demo assigned work");
    let mut bad = good.clone();
    // A product added, assignments and acceptances first, then one assignment of a product that
    // is not there: everything before it must be undone.
    bad.tree_operations.push(
        serde_json::from_value(serde_json::json!({
            "action": "ADD", "newId": "new-90", "parentId": "p0",
            "product": {"name": "Follow-up survey", "type": "Content", "dod": "Sent within a week."}
        }))
        .unwrap(),
    );
    bad.assignments
        .push(roundtable_core::protocol::team::wire::AssignmentOutput {
            product_id: "p999".into(),
            ..good.assignments[0].clone()
        });
    let before = received(&s, &call);
    let mut refused = s.clone();
    let err =
        answer_then_apply(&mut refused, &call, FinalOutput::PlanAssign(bad.clone())).unwrap_err();
    assert!(err.to_string().contains("p999"), "{err}");
    assert_eq!(
        refused, before,
        "the refused PlanAssign changed the session"
    );

    // Without the bad assignment the same answer applies, the added product included.
    let mut fine = bad.clone();
    fine.assignments.pop();
    let mut applied = s.clone();
    answer_then_apply(&mut applied, &call, FinalOutput::PlanAssign(fine)).unwrap();
    let products = before.state().tree.products().len();
    assert_eq!(applied.state().tree.products().len(), products + 1);
}
