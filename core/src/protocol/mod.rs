//! The kinds of session, one folder each. Every kind implements [`crate::engine::Protocol`]: its
//! configuration, its state, who acts next, the prompt of each call, how an answer is judged and
//! what it changes. [`team`] is the team session of specs `000` and `003`; [`meeting`] is the
//! phased meeting of spec `001`; [`dialectic`] is the thesis → antithesis → synthesis of spec
//! `002`; [`autocoding`] holds spec `002`'s player/coach state and tools, the fourth kind to be.
//!
//! The call types every kind shares live in the engine; they are re-exported here because the
//! runner and the providers name them from this module.

pub mod autocoding;
pub mod dialectic;
pub mod meeting;
pub mod team;

pub use crate::engine::{
    estimate_messages, estimate_tokens, CallKind, ChatRole, Message, ModelCall,
};
