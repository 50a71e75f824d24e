//! Autocoding, spec `002`'s second half: a player writes code against requirements, a coach
//! checks it, turn by turn, until the coach approves or the turns run out (Hegelion's
//! player/coach loop; Block's adversarial cooperation: fresh context each turn, the coach ignores
//! the player's claims).
//!
//! Landed so far (issue 21): Hegelion's state exactly ([`state`]), its tools as pure functions
//! with `002`'s errors ([`tools`]), the prompts ([`prompt`]), the requirements numbered so a review
//! names them ([`requirements`]), the turn's answer shapes with their checks ([`answer`]), and the
//! demo model's player and coach ([`demo`]), and what its page draws ([`view`]). The kind of session that runs the
//! loop in the app (its `Protocol`, the sandbox run as a recorded effect, views, demo) is to come.

pub mod answer;
pub mod demo;
pub mod prompt;
pub mod requirements;
#[rustfmt::skip]
mod shape;
pub mod state;
pub mod tools;
pub mod view;

#[cfg(test)]
mod tests;
