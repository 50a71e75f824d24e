//! The review loop, spec `004` (thehood's runtime): an orchestrator delegates to a planner, a
//! researcher, an implementer, QA, a verifier and a critic; every answer is `004`'s
//! `agent_response` envelope, acknowledged by the run's id and the call's own nonce; the runtime,
//! not the models, owns the gates (`DESIGN.md`, "The review loop (004): readings decided").
//!
//! Landed so far (issue 22): the answer shapes of every role with their checks, the directive
//! acknowledgement included ([`answer`]), and the nonce each call carries ([`directive`]). The
//! kind of session that runs the loop (its `Protocol`, artifacts, gates, inbox, views, demo) is to
//! come.

pub mod answer;
pub mod directive;
#[rustfmt::skip]
mod shape;
