//! Roundtable's core: everything about a session of any kind that can be decided without I/O.
//!
//! One engine ([`engine`]) runs every kind of session ([`protocol`]: the team session, the
//! meeting); [`session::Session`] is the one enum over them the app drives. Model answers come in
//! as text and leave as typed values or as a list of violations ([`validate`]); the engine returns
//! the model calls to make as data and folds each answer into an append-only event log, applying
//! it all-or-nothing. Nothing here reads a clock, a random source, the network or the
//! disk: time, ids and seeds come in as arguments, so every function runs under plain `cargo test`
//! and in the browser alike. See `ARCHITECTURE.md` at the repository root.

pub mod code_run;
pub mod cost;
pub mod demo;
pub mod diff;
pub mod engine;
pub mod export;
pub mod fork;
pub mod hash;
pub mod history;
pub mod live;
pub mod order;
pub mod protocol;
pub mod provider_rules;
pub mod provider_schema;
pub mod safe_markdown;
pub mod session;
pub mod share_link;
pub mod tagged;
pub mod text;
pub mod validate;
