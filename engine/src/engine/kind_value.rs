//! A kind's own values as the engine carries them without knowing their type: [`KindValue`] (a
//! config, an output, an edit, a served context, a reason to wait) and [`StepId`] (a step).
//!
//! The engine's data — its state ([`super::Core`]), its events, its statuses and call records —
//! is the same type for every kind, so the engine is compiled once however many kinds there are.
//! A kind's payload rides inside that data as a [`KindValue`]: the kind's typed value behind a
//! shared pointer, written to JSON by the kind's own serializer and read back by the kind's
//! reader ([`super::kind::KindInfo`]). Only the kind that made a value reads its type out again
//! ([`KindValue::get`]); the engine only moves, compares and writes it.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use super::Wire;

/// One of a kind's values (its config, an output, an edit, …), typed by the kind and opaque to
/// the engine. Cloning it is cheap (it is shared); it is written to JSON exactly as the kind's
/// type writes itself, and two are equal when they hold values of the same type that write the
/// same JSON (the kinds' types write deterministically: no hash maps). Comparing goes through the
/// JSON, not the type's `PartialEq`, which the app would otherwise keep for every payload type of
/// every kind (only tests compare sessions).
#[derive(Clone)]
pub struct KindValue(Arc<dyn Payload>);

/// What [`KindValue`] needs of the value it holds; every [`Wire`] type has it. Not `Debug`: a
/// method here is kept in the app for every kind's every payload type whether it is called or
/// not, and the derived `Debug` of them all cost ≈ 45 KB of wasm; a value shows as its JSON.
trait Payload: Any + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn write(&self) -> Result<Box<RawValue>, serde_json::Error>;
}

impl<T: Wire + Send + Sync + 'static> Payload for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn write(&self) -> Result<Box<RawValue>, serde_json::Error> {
        serde_json::value::to_raw_value(self)
    }
}

impl KindValue {
    /// A kind's value, to travel in the engine's data.
    pub fn new<T: Wire + Send + Sync + 'static>(value: T) -> KindValue {
        KindValue(Arc::new(value))
    }

    /// The value, as the type the kind made it with.
    ///
    /// # Panics
    /// When it holds another type: a value reaches a kind only from that kind's own session
    /// (the engine of one kind never holds another kind's values), so this is a bug, not bad
    /// input.
    pub fn get<T: 'static>(&self) -> &T {
        self.try_get().unwrap_or_else(|| {
            panic!(
                "a kind value of another type: wanted {}, holds {self:?}",
                std::any::type_name::<T>()
            )
        })
    }

    /// The value, when it is of type `T`.
    pub fn try_get<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }

    /// The value as JSON text, written by its kind's serializer.
    pub fn write(&self) -> Result<Box<RawValue>, serde_json::Error> {
        self.0.write()
    }
}

impl fmt::Debug for KindValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.write() {
            Ok(json) => write!(f, "KindValue({})", json.get()),
            Err(e) => write!(f, "KindValue(unwritable: {e})"),
        }
    }
}

impl PartialEq for KindValue {
    fn eq(&self, other: &KindValue) -> bool {
        if Arc::ptr_eq(&self.0, &other.0) {
            return true;
        }
        let same_type = self.0.as_any().type_id() == other.0.as_any().type_id();
        same_type
            && match (self.write(), other.write()) {
                (Ok(a), Ok(b)) => a.get() == b.get(),
                _ => false,
            }
    }
}

/// Written as the kind's JSON text, as a `serde_json` raw value: exact (its keys in the kind's
/// order) and with no second pass, for serde_json's serializers (`to_string`, `to_value`, which
/// are the only ones the app and the JS API use). Another serializer (a snapshot's) would write
/// a wrapper instead: tests snapshot the kind's typed value ([`KindValue::get`]).
impl Serialize for KindValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.write()
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

/// A step of some kind (who answers under which shape), by the name the kind's step has in
/// files (its serde name): the same type for every kind. A kind turns it into
/// its own step type with [`super::Protocol::step_of`]; a log's step is read by the kind's
/// reader, so a `StepId` only ever names a step its kind has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StepId(&'static str);

impl StepId {
    /// The step named `wire`, as its kind spells it in files. For kinds
    /// ([`super::Protocol::step_id`]), which know their steps' names.
    pub const fn named(wire: &'static str) -> StepId {
        StepId(wire)
    }

    /// The step's name in files.
    pub fn wire(self) -> &'static str {
        self.0
    }
}

impl Serialize for StepId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_equal_to_an_equal_value_of_its_own_type_only() {
        let a = KindValue::new(vec![1u32, 2]);
        assert_eq!(a, KindValue::new(vec![1u32, 2]));
        assert_ne!(a, KindValue::new(vec![1u32, 3]));
        assert_ne!(a, KindValue::new(vec![1u64, 2]));
        assert_eq!(a.get::<Vec<u32>>(), &vec![1, 2]);
        assert!(a.try_get::<String>().is_none());
    }

    #[test]
    fn a_value_writes_as_its_type_writes() {
        let v = KindValue::new(serde_json::json!({"b": 1, "a": [true]}));
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            serde_json::to_string(&serde_json::json!({"b": 1, "a": [true]})).unwrap()
        );
        assert_eq!(
            serde_json::to_value(&v).unwrap(),
            serde_json::json!({"a": [true], "b": 1})
        );
        assert_eq!(
            serde_json::to_string(&StepId::named("write")).unwrap(),
            "\"write\""
        );
    }

    #[test]
    #[should_panic(expected = "another type")]
    fn reading_a_value_as_another_type_is_a_bug() {
        KindValue::new(1u32).get::<String>();
    }
}
