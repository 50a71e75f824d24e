//! Roundtable's core: everything about a session of any kind that can be decided without I/O.
//!
//! One engine ([`engine`], from `roundtable-engine`) runs every kind of session ([`protocol`]:
//! each kind a crate of its own); [`session::Session`] is the session of any of them the app
//! drives. Model answers come in
//! as text and leave as typed values or as a list of violations ([`validate`]); the engine returns
//! the model calls to make as data and folds each answer into an append-only event log, applying
//! it all-or-nothing. Nothing here reads a clock, a random source, the network or the
//! disk: time, ids and seeds come in as arguments, so every function runs under plain `cargo test`
//! and in the browser alike. See `ARCHITECTURE.md` at the repository root.

pub mod export;
pub mod fork;
pub mod history;
pub mod live;
pub mod protocol;
pub mod safe_markdown;
pub mod session;
pub mod share_link;

// The engine crate's modules, under the paths the app and the JS API name them by.
pub use roundtable_engine::{
    code_run, cost, demo, diff, engine, hash, order, provider_rules, provider_schema, tagged, text,
    validate,
};
