//! Every kind's steps as the engine holds them (`StepId`): each step's name in files is its serde
//! name (what the log's reader reads back), the names are distinct, and a step goes to its
//! `StepId` and back unchanged — for every kind this build registers.

use roundtable_core::engine::Protocol;
use roundtable_core::protocol::autocoding::Autocoding;
use roundtable_core::protocol::dialectic::DialecticState;
use roundtable_core::protocol::meeting::MeetingState;
use roundtable_core::protocol::review::ReviewState;
use roundtable_core::protocol::team::TeamState;
use roundtable_core::session::Kind;

fn check<P: Protocol>() -> usize {
    let mut names = std::collections::BTreeSet::new();
    for &step in P::STEPS {
        let serde = serde_json::to_value(step).unwrap();
        assert_eq!(
            serde,
            serde_json::json!(P::step_wire(step)),
            "{} {step:?}",
            P::KIND
        );
        assert!(
            names.insert(P::step_wire(step)),
            "{}: {step:?} twice",
            P::KIND
        );
        assert_eq!(P::step_of(P::step_id(step)), step, "{}", P::KIND);
        // The log's reader reads the name back as the same step.
        let raw = serde_json::value::to_raw_value(&P::step_id(step)).unwrap();
        assert_eq!((P::INFO.read_step)(&raw).unwrap(), P::step_id(step));
    }
    // A name of no step of the kind is refused by its reader.
    let raw = serde_json::value::to_raw_value("no_such_step").unwrap();
    assert!((P::INFO.read_step)(&raw).is_err(), "{}", P::KIND);
    names.len()
}

#[test]
fn every_kinds_steps_are_named_in_files_as_serde_names_them() {
    let counts = [
        check::<TeamState>(),
        check::<MeetingState>(),
        check::<DialecticState>(),
        check::<Autocoding>(),
        check::<ReviewState>(),
    ];
    assert_eq!(
        counts.len(),
        Kind::ALL.len(),
        "one check per registered kind"
    );
    assert_eq!(counts, [7, 3, 4, 2, 8]);
}
