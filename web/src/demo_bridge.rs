//! The one place the web app calls `roundtable-core`'s demo model, so the demo provider does not
//! follow the demo module's internals.
//!
//! The demo model is seeded; the seed is derived from the person's request, so the same request
//! plays the same session (and an imported demo session goes on the way it started).

use roundtable_core::demo::{rng::fnv1a, DemoAnswer, DemoModel};
use roundtable_core::protocol::ModelCall;

/// The demo model's answer for a call.
pub fn answer(call: &ModelCall) -> DemoAnswer {
    DemoModel::new(fnv1a(call.envelope.request.as_bytes())).answer_call(call)
}
