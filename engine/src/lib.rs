//! Roundtable's engine: what every kind of session shares, and no kind.
//!
//! [`engine`] is the session loop of any kind (its event log, its fold, its calls, limits and
//! inbox) behind the object-safe kind interface ([`engine::KindState`], [`engine::KindInfo`]);
//! [`validate`] reads a model's answer against a step's shape and collects every violation;
//! [`code_run`] is the effect of running code in the runner's sandbox, with its typed outcomes;
//! [`provider_schema`] and [`provider_rules`] give a step's schema in the form each provider
//! family enforces, within its published limits. Each kind of session is a crate of its own that
//! depends on this one (`kinds/`); `roundtable-core` assembles them. Nothing here reads a clock,
//! a random source, the network or the disk: time, ids and seeds come in as arguments.

// The engine's own generated tables (its tests' kind) name it as the kinds' do.
extern crate self as roundtable_engine;

pub mod code_run;
pub mod cost;
pub mod demo;
pub mod diff;
pub mod engine;
pub mod hash;
pub mod order;
pub mod provider_rules;
pub mod provider_schema;
pub mod tagged;
pub mod text;
pub mod validate;
