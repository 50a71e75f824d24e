//! The kinds of session this build runs, each a crate of its own (`kinds/<kind>`, depending on
//! `roundtable-engine` alone): [`team`] is the team session of specs `000` and `003`; [`meeting`]
//! is the phased meeting of spec `001`; [`dialectic`] is the thesis → antithesis → synthesis of
//! spec `002`; [`autocoding`] is spec `002`'s player/coach loop, whose code runs in the runner's
//! sandbox; [`review`] is spec `004`'s review loop. They are registered by one line each in
//! `session.rs`'s `with_kinds!`.
//!
//! The call types every kind shares live in the engine; they are re-exported here because the
//! runner and the providers name them from this module.

pub use roundtable_autocoding as autocoding;
pub use roundtable_dialectic as dialectic;
pub use roundtable_meeting as meeting;
pub use roundtable_review as review;
pub use roundtable_team as team;

pub use crate::engine::KindView;
pub use crate::engine::{
    estimate_messages, estimate_tokens, CallKind, ChatRole, Message, ModelCall,
};
