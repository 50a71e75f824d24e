//! The kinds of session, one folder each. Every kind implements [`crate::engine::Protocol`]: its
//! configuration, its state, who acts next, the prompt of each call, how an answer is judged and
//! what it changes. [`team`] is the team session of specs `000` and `003`; [`meeting`] is the
//! phased meeting of spec `001`; [`dialectic`] is the thesis → antithesis → synthesis of spec
//! `002`; [`autocoding`] is spec `002`'s player/coach loop, whose code runs in the runner's sandbox;
//! [`review`] holds spec `004`'s answer contracts and runtime rules, the fifth kind to be.
//!
//! [`KindView`] is what a kind's pages show, implemented in each kind's `view.rs` (here, beside
//! the kinds, so a kind need not import the session that lists it).
//!
//! The call types every kind shares live in the engine; they are re-exported here because the
//! runner and the providers name them from this module.

pub mod autocoding;
pub mod dialectic;
pub mod meeting;
pub mod review;
pub mod team;

pub use crate::engine::{
    estimate_messages, estimate_tokens, CallKind, ChatRole, Message, ModelCall,
};

/// What a kind's pages show, written in the kind's folder (its `view.rs`): the web app's pages
/// render this and never read the kind's state, so no page re-derives a rule of the kind.
pub trait KindView {
    /// The kind's view model: what its panels show (it may borrow the state and compute each
    /// panel's part when the panel asks).
    type View<'a>
    where
        Self: 'a;
    /// The view model of this state.
    fn kind_view(&self) -> Self::View<'_>;
    /// The kind's own document of the session, where it has one (a dialectic's spec 002
    /// document): the word its file name ends with and the document as pretty JSON.
    fn kind_document(&self) -> Option<(&'static str, String)> {
        None
    }
}
