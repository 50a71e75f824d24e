//! An [`Engine`] known to run one kind: typed handles for code that knows the kind (the kind's
//! own code, its tests, its pages), so it reads the kind's state as its own type.
//!
//! The engine itself is the same type for every kind; these handles only add
//! [`KindEngine::state`] (and [`KindRef::state`]) typed as the kind's state. Everything else is the
//! engine's, reached through `Deref`.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use super::event::Event;
use super::status::{EngineError, FoldError};
use super::{Engine, Protocol};

/// A session of kind `P`, owned: an [`Engine`] whose state is a `P`.
#[derive(Debug, Clone, PartialEq)]
pub struct KindEngine<P> {
    engine: Engine,
    kind: PhantomData<fn() -> P>,
}

impl<P: Protocol> KindEngine<P> {
    /// A new draft session. Refuses a config the kind finds unusable.
    pub fn new(config: P::Config, now: u64) -> Result<KindEngine<P>, EngineError> {
        Engine::new::<P>(config, now).map(KindEngine::wrap)
    }

    /// Rebuilds a session of this kind from its events.
    pub fn replay(events: &[Event]) -> Result<KindEngine<P>, FoldError> {
        Engine::replay(&P::INFO, events).map(KindEngine::wrap)
    }

    /// The kind's state: the fold of the events.
    pub fn state(&self) -> &P {
        typed(&self.engine)
    }

    /// The engine, for code that works on any kind.
    pub fn into_engine(self) -> Engine {
        self.engine
    }

    /// `engine` as a session of kind `P`, when it is one.
    pub fn of(engine: Engine) -> Result<KindEngine<P>, Engine> {
        if engine.state_of::<P>().is_some() {
            Ok(KindEngine::wrap(engine))
        } else {
            Err(engine)
        }
    }

    fn wrap(engine: Engine) -> KindEngine<P> {
        KindEngine {
            engine,
            kind: PhantomData,
        }
    }
}

impl<P> From<KindEngine<P>> for Engine {
    fn from(engine: KindEngine<P>) -> Engine {
        engine.engine
    }
}

impl<P> Deref for KindEngine<P> {
    type Target = Engine;

    fn deref(&self) -> &Engine {
        &self.engine
    }
}

impl<P> DerefMut for KindEngine<P> {
    fn deref_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }
}

/// A borrowed session of kind `P` (what `Session::as_kind` hands out).
#[derive(Debug)]
pub struct KindRef<'a, P> {
    engine: &'a Engine,
    state: &'a P,
}

impl<P> Clone for KindRef<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for KindRef<'_, P> {}

impl<'a, P: Protocol> KindRef<'a, P> {
    /// `engine` as kind `P`'s, when it is one.
    pub fn of(engine: &'a Engine) -> Option<KindRef<'a, P>> {
        Some(KindRef {
            engine,
            state: engine.state_of()?,
        })
    }

    /// The kind's state.
    pub fn state(&self) -> &'a P {
        self.state
    }
}

impl<P> Deref for KindRef<'_, P> {
    type Target = Engine;

    fn deref(&self) -> &Engine {
        self.engine
    }
}

/// A mutably borrowed session of kind `P`, for a person's edits of the kind's state.
#[derive(Debug)]
pub struct KindMut<'a, P> {
    engine: &'a mut Engine,
    kind: PhantomData<fn() -> P>,
}

impl<'a, P: Protocol> KindMut<'a, P> {
    /// `engine` as kind `P`'s, when it is one.
    pub fn of(engine: &'a mut Engine) -> Option<KindMut<'a, P>> {
        engine.state_of::<P>()?;
        Some(KindMut {
            engine,
            kind: PhantomData,
        })
    }

    /// The kind's state.
    pub fn state(&self) -> &P {
        typed(self.engine)
    }
}

impl<P> Deref for KindMut<'_, P> {
    type Target = Engine;

    fn deref(&self) -> &Engine {
        self.engine
    }
}

impl<P> DerefMut for KindMut<'_, P> {
    fn deref_mut(&mut self) -> &mut Engine {
        self.engine
    }
}

/// The state of an engine made for kind `P` (the handles are made only for their kind).
fn typed<P: Protocol>(engine: &Engine) -> &P {
    engine
        .state_of()
        .unwrap_or_else(|| panic!("a {} handle on a session of another kind", P::KIND))
}
