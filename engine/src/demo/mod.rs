//! The built-in demo model's common ground: its provider and model names, its voices, the seeded
//! random numbers and the reading of a request's facts every kind's demo answers from, and
//! [`play_with`], which plays a session of any kind on its demo model as the web runner would.
//!
//! Each kind's demo model lives in the kind's folder (the team's in `protocol/team/demo/`, the
//! meeting's in `protocol/meeting/demo.rs`); nothing here names a kind. Everything is pure: seeds
//! come in as arguments, so a demo session replays exactly.

pub mod facts;
mod play;
pub mod rng;

pub use play::{play_demo, play_with, PlayReport};

/// The provider name the demo model runs under, in member model references and transcripts.
pub const PROVIDER: &str = crate::engine::DEMO_PROVIDER;

/// The model name of the demo model.
pub const MODEL: &str = "demo-1";

/// The demo model's variants: the same model with another voice (its answers drawn from another
/// seed), so a what-if ("this member on another model") shows a difference offline. The first is
/// [`MODEL`], whose answers are the recorded demo's.
pub const VARIANTS: [&str; 2] = [MODEL, "demo-2"];

/// Whether `model` is a demo variant other than [`MODEL`].
pub fn is_other_voice(model: &str) -> bool {
    model != MODEL && VARIANTS.contains(&model)
}

/// The seed a demo variant answers from: `seed` for [`MODEL`] (and an unknown name), mixed with
/// the variant's name for the others.
pub fn variant_seed(seed: u64, model: &str) -> u64 {
    if is_other_voice(model) {
        rng::mix(seed, &[model])
    } else {
        seed
    }
}
