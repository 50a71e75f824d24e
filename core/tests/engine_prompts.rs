//! Snapshots of one prompt per step (a scripted session with two operatives, an inspector and an
//! envoy), so every change to what members read gets reviewed.

mod engine_common;

use engine_common::*;
use roundtable_core::engine::{Protocol, Status};
use roundtable_core::protocol::team::prompt::Envelope;
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::{TeamSession as Session, TeamState};

#[test]
fn one_prompt_per_step() {
    let mut s = Session::new(config(2, true, true), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    drive_scripted(&mut s, &mut now);
    assert_eq!(s.status(), &Status::Done);
    for step in Step::ALL {
        let rec = s
            .state()
            .core
            .calls
            .iter()
            .find(|c| TeamState::step_of(c.call.step) == step)
            .unwrap_or_else(|| panic!("a {step} call"));
        let text = rec
            .call
            .messages
            .iter()
            .map(|m| format!("=== {:?} ===\n{}", m.role, m.content))
            .collect::<Vec<_>>()
            .join("\n");
        insta::assert_snapshot!(format!("prompt_{}", step.wire_name()), text);
    }
}

#[test]
fn the_envelope_of_a_write_call() {
    let mut s = Session::new(config(2, true, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted); // bootstrap
    answer_all(&mut s, &mut now, scripted); // plan
    let call = s
        .calls_due()
        .into_iter()
        .find(|c| c.member == "operative-2")
        .unwrap();
    assert_eq!(TeamState::step_of(call.step), Step::Write);
    insta::assert_json_snapshot!("envelope_write", call.envelope.get::<Envelope>());
}
