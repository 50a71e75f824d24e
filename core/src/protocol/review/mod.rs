//! The review loop, spec `004` (thehood's runtime): an orchestrator delegates to a planner, a
//! researcher, an implementer, QA, a verifier and a critic; every answer is `004`'s
//! `agent_response` envelope, acknowledged by the run's id and the call's own nonce; the runtime,
//! not the models, owns the gates (`DESIGN.md`, "The review loop (004): readings decided").
//!
//! Landed so far (issue 22): the answer shapes of every role with their checks, the directive
//! acknowledgement included ([`answer`]); the nonce each call carries ([`directive`]); the
//! artifacts the runtime writes — critic triggers, revision packets, fan-outs ([`artifacts`]);
//! the gates `complete` must pass ([`gates`]); the run variables and the roles, with the
//! implementer never its own verifier ([`config`]); each call's charter and directive
//! ([`prompt`]). The kind of session that runs the loop (its `Protocol`, the inbox of approvals,
//! views, demo) is to come.

pub mod answer;
pub mod artifacts;
pub mod config;
pub mod directive;
pub mod gates;
pub mod prompt;
#[rustfmt::skip]
mod shape;

#[cfg(test)]
mod tests;
