//! Fuzz target: any bytes as a model's raw answer to a real call of any kind of session, at
//! every step the demo model reaches (team: all seven steps, first calls and repairs; meeting:
//! decide, speak, minutes; dialectic: thesis, antithesis, synthesis, a single shot held to a
//! schema of the person's). The first byte picks the call (and whether the provider said it was
//! cut off); the rest is the answer. The engine's `submit` judges it with the kind's own
//! validator and folds it. Nothing may panic, and whatever it logged must survive storage: each
//! new event reads back equal from its stored JSON, and (for one input in 16, picked by length so
//! that a crash replays the same way; a whole replay costs ~40 submits) the whole stored log
//! replays to a session that shows the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roundtable_core::engine::{Event, KindInfo, Usage};
use roundtable_core::session::Session;
use roundtable_fuzz::{answer_positions, answer_seeds, write_seeds_if_asked};

/// The new events, written as the app stores them, read back equal.
fn round_trip(info: &KindInfo, events: &[Event]) {
    for event in events {
        let json = serde_json::to_string(event).expect("an event serialises");
        let back = Event::read(info, &json).expect("a stored event reads back");
        assert_eq!(&back, event, "event {} changes when stored", event.seq);
    }
}

fuzz_target!(init: write_seeds_if_asked(answer_seeds), |data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let positions = answer_positions();
    let at = &positions[usize::from(pick & 0x7f) % positions.len()];
    let raw = String::from_utf8_lossy(rest);
    let mut session = at.session.clone();
    let before = session.event_count();
    let usage = Usage {
        schema_form: None,
        input_tokens: 100,
        output_tokens: rest.len() as u64 / 4,
        stopped_for_length: pick & 0x80 != 0,
        cost: None,
    };
    if session
        .submit(&at.call_id, &raw, Some(usage), at.now)
        .is_err()
    {
        return;
    }
    let engine = session.any_engine();
    round_trip(engine.info(), &engine.events()[before..]);
    if rest.len() % 16 == 0 {
        let stored: Vec<String> = session
            .events_json(0)
            .expect("events serialise")
            .into_iter()
            .map(|(_, json)| json)
            .collect();
        let replayed = Session::replay_stored(&stored).expect("the stored log replays");
        assert_eq!(
            replayed.view(),
            session.view(),
            "{} {}: replay differs",
            at.kind,
            at.step
        );
    }
    let _ = session.next_calls();
});
