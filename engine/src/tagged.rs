//! Tagged enums read in one pass, without serde's buffer.
//!
//! The session file writes its enums with the tag inside the object (`{"type": "applied",
//! "call_id": …}`, serde's *internally tagged* form) or beside the content (`{"step": "write",
//! "output": {…}}`, *adjacently tagged*). Serde's derive reads both by first copying the whole
//! object into its private `Content` tree and then reading the variant out of that copy, so every
//! type inside such an enum is compiled twice — once read from JSON text, once from the copy —
//! which cost the app about a tenth of its download.
//!
//! Here the derive is asked for the plain *externally tagged* form instead (`#[serde(remote =
//! "Self")]` turns the derived code into the enum's own `serialize`/`deserialize` functions), and
//! [`tagged!`] gives the enum the real `Serialize`/`Deserialize` impls, which speak the internally
//! (or adjacently) tagged form over it. The bytes are the same as the derive's: written, the tag
//! comes first. Read, when the tag is the object's first key — as in every file the app writes —
//! the rest of the object is handed straight to the variant: nothing is copied, and the types
//! inside are read by the same code as everywhere else. An object whose tag is not first (one
//! that went through a key-sorted `serde_json::Value`, or was edited by hand) takes a slower path:
//! it is read whole, written out again with its tag first, and read from that.
//!
//! A variant renamed [`UNTAGGED`] (`#[serde(rename = "(untagged)")]`) holds a value that carries
//! its own tag under the same key (a protocol's edit inside the engine's edits): it is written as
//! that value alone, and read when the tag names none of the other variants.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, EnumAccess, IgnoredAny, MapAccess, VariantAccess, Visitor};
use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct};
use serde::{forward_to_deserialize_any, Deserializer, Serializer};

/// The variant name that marks a value tagged on its own (see the module's text).
pub const UNTAGGED: &str = "(untagged)";

/// An enum whose derived code writes the externally tagged form (`#[serde(remote = "Self")]`),
/// given its tag's key; implemented by [`tagged!`], which also gives it `Serialize` in the tagged
/// form.
pub trait WriteTagged {
    /// The key of the tag (`type`, `edit`, `reason`, …).
    const TAG: &'static str;
    /// The key of the content for an adjacently tagged enum (`output`); none: the variant's
    /// fields sit beside the tag.
    const CONTENT: Option<&'static str>;
    /// The derived writer of the externally tagged form.
    fn write_variant<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
}

/// The reading half of [`WriteTagged`]: gives the enum `Deserialize` in the tagged form.
pub trait ReadTagged: Sized {
    /// As [`WriteTagged::TAG`].
    const TAG: &'static str;
    /// As [`WriteTagged::CONTENT`].
    const CONTENT: Option<&'static str>;
    /// True when the enum has a variant renamed [`UNTAGGED`] (`tagged!(…, untagged = true)`).
    /// A constant, so an enum without one compiles no reader for it: each newtype variant's value
    /// is read by one path, not three (reading checks the mark against the variants).
    const UNTAGGED: bool;
    /// The derived reader of the externally tagged form.
    fn read_variant<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// Gives an enum derived with `#[serde(remote = "Self")]` its tagged `Serialize` and
/// `Deserialize`: `tagged!([P: Protocol] EventKind<P>, tag = "type");`, or with
/// `content = "output"` for the adjacently tagged form. Generics bounded differently for writing
/// and reading are given as `ser [F: Serialize] de [F: DeserializeOwned]`; `read [] T, tag = …`
/// (`write [] T, tag = …`) gives a type that is only read (written) its `Deserialize`
/// (`Serialize`) alone. An enum read with a variant renamed [`UNTAGGED`] says so last:
/// `untagged = true` (reading refuses a wrong mark, so a test that reads the enum finds it).
/// Exported for the kinds' crates, which name it `roundtable_engine::tagged::tagged!`.
#[macro_export]
#[doc(hidden)]
macro_rules! __tagged {
    ([$($g:tt)*] $ty:ty, tag = $tag:literal $(, content = $content:literal)? $(, untagged = $u:literal)?) => {
        $crate::tagged::tagged!(ser [$($g)*] de [$($g)*] $ty, tag = $tag $(, content = $content)? $(, untagged = $u)?);
    };
    (ser [$($sg:tt)*] de [$($dg:tt)*] $ty:ty, tag = $tag:literal $(, content = $content:literal)? $(, untagged = $u:literal)?) => {
        impl<$($sg)*> $crate::tagged::WriteTagged for $ty {
            const TAG: &'static str = $tag;
            const CONTENT: Option<&'static str> = $crate::tagged::tagged!(@content $($content)?);
            fn write_variant<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                <$ty>::serialize(self, s)
            }
        }
        impl<$($dg)*> $crate::tagged::ReadTagged for $ty {
            const TAG: &'static str = $tag;
            const CONTENT: Option<&'static str> = $crate::tagged::tagged!(@content $($content)?);
            const UNTAGGED: bool = $crate::tagged::tagged!(@untagged $($u)?);
            fn read_variant<'de, D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$ty>::deserialize(d)
            }
        }
        impl<$($sg)*> ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $crate::tagged::serialize(self, s)
            }
        }
        impl<'de, $($dg)*> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::tagged::deserialize(d)
            }
        }
    };
    (write [$($sg:tt)*] $ty:ty, tag = $tag:literal) => {
        impl<$($sg)*> $crate::tagged::WriteTagged for $ty {
            const TAG: &'static str = $tag;
            const CONTENT: Option<&'static str> = None;
            fn write_variant<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                <$ty>::serialize(self, s)
            }
        }
        impl<$($sg)*> ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $crate::tagged::serialize(self, s)
            }
        }
    };
    (read [$($dg:tt)*] $ty:ty, tag = $tag:literal $(, untagged = $u:literal)?) => {
        impl<$($dg)*> $crate::tagged::ReadTagged for $ty {
            const TAG: &'static str = $tag;
            const CONTENT: Option<&'static str> = None;
            const UNTAGGED: bool = $crate::tagged::tagged!(@untagged $($u)?);
            fn read_variant<'de, D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$ty>::deserialize(d)
            }
        }
        impl<'de, $($dg)*> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::tagged::deserialize(d)
            }
        }
    };
    (@content) => { None };
    (@content $content:literal) => { Some($content) };
    (@untagged) => { false };
    (@untagged $u:literal) => { $u };
}
pub use crate::__tagged as tagged;

/// Writes `value` in its tagged form.
pub fn serialize<T: WriteTagged, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    value.write_variant(VariantWriter {
        s,
        tag: T::TAG,
        content: T::CONTENT,
    })
}

/// Reads a `T` in its tagged form.
pub fn deserialize<'de, T: ReadTagged, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_map(TagFirst(PhantomData))
}

fn not_tagged<E: ser::Error>() -> E {
    E::custom("a tagged enum's variant must be a unit, a struct or one value")
}

/// Receives the derived writer's externally tagged variant and writes the tagged form.
struct VariantWriter<S> {
    s: S,
    tag: &'static str,
    content: Option<&'static str>,
}

/// Refuses, as the derived writer of an enum never calls them.
macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ok, Self::Error> {
            Err(not_tagged())
        })*
    };
}

impl<S: Serializer> Serializer for VariantWriter<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = Impossible<S::Ok, S::Error>;
    type SerializeMap = Impossible<S::Ok, S::Error>;
    type SerializeStruct = Impossible<S::Ok, S::Error>;
    type SerializeStructVariant = Fields<S::SerializeStruct>;

    fn serialize_unit_variant(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        let mut st = self.s.serialize_struct(name, 1)?;
        st.serialize_field(self.tag, variant)?;
        st.end()
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        if variant == UNTAGGED {
            return value.serialize(self.s);
        }
        match self.content {
            Some(content) => {
                let mut st = self.s.serialize_struct(name, 2)?;
                st.serialize_field(self.tag, variant)?;
                st.serialize_field(content, value)?;
                st.end()
            }
            None => value.serialize(TagInside {
                s: self.s,
                tag: self.tag,
                variant,
            }),
        }
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Fields<S::SerializeStruct>, S::Error> {
        if self.content.is_some() {
            return Err(not_tagged());
        }
        let mut st = self.s.serialize_struct(name, len + 1)?;
        st.serialize_field(self.tag, variant)?;
        Ok(Fields(st))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_tagged())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<S::Ok, S::Error> {
        Err(not_tagged())
    }
    refuse! {
        serialize_bool(bool) -> S::Ok;
        serialize_i8(i8) -> S::Ok;
        serialize_i16(i16) -> S::Ok;
        serialize_i32(i32) -> S::Ok;
        serialize_i64(i64) -> S::Ok;
        serialize_u8(u8) -> S::Ok;
        serialize_u16(u16) -> S::Ok;
        serialize_u32(u32) -> S::Ok;
        serialize_u64(u64) -> S::Ok;
        serialize_f32(f32) -> S::Ok;
        serialize_f64(f64) -> S::Ok;
        serialize_char(char) -> S::Ok;
        serialize_str(&str) -> S::Ok;
        serialize_bytes(&[u8]) -> S::Ok;
        serialize_none() -> S::Ok;
        serialize_unit() -> S::Ok;
        serialize_unit_struct(&'static str) -> S::Ok;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
    }
}

/// A struct variant's fields, written beside its tag.
struct Fields<St>(St);

impl<St: SerializeStruct> ser::SerializeStructVariant for Fields<St> {
    type Ok = St::Ok;
    type Error = St::Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), St::Error> {
        self.0.serialize_field(key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), St::Error> {
        self.0.skip_field(key)
    }

    fn end(self) -> Result<St::Ok, St::Error> {
        self.0.end()
    }
}

/// Writes one value (a struct or a map) with the tag as its first field.
struct TagInside<S> {
    s: S,
    tag: &'static str,
    variant: &'static str,
}

impl<S: Serializer> Serializer for TagInside<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = Impossible<S::Ok, S::Error>;
    type SerializeMap = S::SerializeMap;
    type SerializeStruct = S::SerializeStruct;
    type SerializeStructVariant = Impossible<S::Ok, S::Error>;

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<S::SerializeStruct, S::Error> {
        let mut st = self.s.serialize_struct(name, len + 1)?;
        st.serialize_field(self.tag, self.variant)?;
        Ok(st)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<S::SerializeMap, S::Error> {
        let mut map = self.s.serialize_map(len.map(|n| n + 1))?;
        map.serialize_entry(self.tag, self.variant)?;
        Ok(map)
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        let mut st = self.s.serialize_struct(name, 1)?;
        st.serialize_field(self.tag, self.variant)?;
        st.end()
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_tagged())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<S::Ok, S::Error> {
        Err(not_tagged())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_tagged())
    }
    refuse! {
        serialize_bool(bool) -> S::Ok;
        serialize_i8(i8) -> S::Ok;
        serialize_i16(i16) -> S::Ok;
        serialize_i32(i32) -> S::Ok;
        serialize_i64(i64) -> S::Ok;
        serialize_u8(u8) -> S::Ok;
        serialize_u16(u16) -> S::Ok;
        serialize_u32(u32) -> S::Ok;
        serialize_u64(u64) -> S::Ok;
        serialize_f32(f32) -> S::Ok;
        serialize_f64(f64) -> S::Ok;
        serialize_char(char) -> S::Ok;
        serialize_str(&str) -> S::Ok;
        serialize_bytes(&[u8]) -> S::Ok;
        serialize_none() -> S::Ok;
        serialize_unit() -> S::Ok;
        serialize_unit_variant(&'static str, u32, &'static str) -> S::Ok;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

/// The tag keys of the session file's enums, outer ones first (`type` of an event before the
/// `reason` of its pause; `step` is mostly a plain field, so last).
const TAG_KEYS: [&str; 10] = [
    "type",
    "edit",
    "status",
    "result",
    "place",
    "responseType",
    "action",
    "decision",
    "reason",
    "step",
];

/// `value` as compact JSON text with the tag keys ([`TAG_KEYS`]) first in every object, for text
/// that went through a `serde_json::Value` (which sorts its keys) before it is read again: so it
/// is read on the fast path. Any key order reads the same, only slower.
pub fn tags_first(value: &serde_json::Value) -> String {
    fn write(value: &serde_json::Value, out: &mut String) {
        match value {
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            serde_json::Value::Object(map) => {
                out.push('{');
                let tags = TAG_KEYS.iter().filter_map(|k| map.get_key_value(*k));
                let rest = map.iter().filter(|(k, _)| !TAG_KEYS.contains(&k.as_str()));
                for (i, (k, v)) in tags.chain(rest).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::from(k.as_str()).to_string());
                    out.push(':');
                    write(v, out);
                }
                out.push('}');
            }
            leaf => out.push_str(&leaf.to_string()),
        }
    }
    let mut out = String::new();
    write(value, &mut out);
    out
}

/// Reads an object's first key: the tag (the fast path), or anything else (the slow path).
struct TagFirst<T>(PhantomData<T>);

impl<'de, T: ReadTagged> Visitor<'de> for TagFirst<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object tagged by `{}`", T::TAG)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        match read_tag(T::TAG, &mut map)? {
            Ok(variant) => T::read_variant(VariantReader::<A, T> {
                variant,
                map,
                untagged: false,
                of: PhantomData,
            }),
            // The slow path: the whole object, written again with its tag first.
            Err(text) => {
                let mut again = serde_json::Deserializer::from_str(&text);
                deserialize(&mut again).map_err(de::Error::custom)
            }
        }
    }
}

/// Reads an object's first key: when it is `tag`, the tag's value (the variant's name); else the
/// whole object, as text with its tag first. Generic over the map only, so every tagged enum read
/// from the same input shares it.
fn read_tag<'de, A: MapAccess<'de>>(
    tag: &'static str,
    map: &mut A,
) -> Result<Result<String, String>, A::Error> {
    let Some(key) = map.next_key::<String>()? else {
        return Err(de::Error::missing_field(tag));
    };
    if key == tag {
        return map.next_value().map(Ok);
    }
    let mut rest = serde_json::Map::new();
    let first = map.next_value::<serde_json::Value>()?;
    rest.insert(key, first);
    while let Some((k, v)) = map.next_entry::<String, serde_json::Value>()? {
        rest.insert(k, v);
    }
    with_tag_first(tag, rest)
        .map(Err)
        .ok_or_else(|| de::Error::missing_field(tag))
}

/// `object` as JSON text with its `tag` first; none when it has no `tag`. Not generic: the slow
/// path of every tagged enum shares it.
fn with_tag_first(
    tag: &str,
    mut object: serde_json::Map<String, serde_json::Value>,
) -> Option<String> {
    let value = object.remove(tag)?;
    let mut text = format!("{{{}:{value}", serde_json::Value::from(tag));
    for (k, v) in object {
        text.push_str(&format!(",{}:{v}", serde_json::Value::from(k)));
    }
    text.push('}');
    Some(text)
}

/// The rest of a tagged object, read by the derived reader as its externally tagged variant; `E`
/// is the enum, whose tag, content key and untagged mark are constants.
struct VariantReader<A, E> {
    variant: String,
    map: A,
    untagged: bool,
    of: PhantomData<E>,
}

impl<'de, A: MapAccess<'de>, E: ReadTagged> Deserializer<'de> for VariantReader<A, E> {
    type Error = A::Error;

    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        _: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let has_untagged = variants.contains(&UNTAGGED);
        if has_untagged != E::UNTAGGED {
            return Err(de::Error::custom(format_args!(
                "tagged!: the enum tagged by `{}` {} a variant renamed \"(untagged)\": write `untagged = {has_untagged}` in its tagged! line",
                E::TAG,
                if has_untagged { "has" } else { "has no" },
            )));
        }
        self.untagged = has_untagged && !variants.contains(&self.variant.as_str());
        visitor.visit_enum(self)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("a tagged enum is read as an enum"))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>, E: ReadTagged> EnumAccess<'de> for VariantReader<A, E> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), A::Error> {
        let name = if self.untagged {
            UNTAGGED
        } else {
            self.variant.as_str()
        };
        let value = seed.deserialize(StrDeserializer::<A::Error>::new(name))?;
        Ok((value, self))
    }
}

impl<'de, A: MapAccess<'de>, E: ReadTagged> VariantAccess<'de> for VariantReader<A, E> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        while self.map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        mut self,
        seed: T,
    ) -> Result<T::Value, A::Error> {
        if E::UNTAGGED && self.untagged {
            return seed.deserialize(Replay {
                tag: E::TAG,
                variant: Some(self.variant),
                key_given: false,
                map: self.map,
            });
        }
        let Some(content) = E::CONTENT else {
            return seed.deserialize(MapAccessDeserializer::new(self.map));
        };
        match self.map.next_key::<String>()? {
            Some(key) if key == content => {
                let value = self.map.next_value_seed(seed)?;
                while self.map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(value)
            }
            _ => Err(de::Error::missing_field(content)),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        if E::CONTENT.is_some() {
            return Err(de::Error::custom(
                "an adjacently tagged variant holds one value",
            ));
        }
        visitor.visit_map(self.map)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("a tagged enum has no tuple variants"))
    }
}

/// An untagged variant's value: the tag already read, given again, then the rest of the object.
struct Replay<A> {
    tag: &'static str,
    variant: Option<String>,
    key_given: bool,
    map: A,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for Replay<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.variant.is_some() && !self.key_given {
            self.key_given = true;
            return seed.deserialize(StrDeserializer::new(self.tag)).map(Some);
        }
        self.map.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.variant.take() {
            Some(variant) => seed.deserialize(StringDeserializer::new(variant)),
            None => self.map.next_value_seed(seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tagged::tagged;
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    /// Internally tagged, with an untagged variant holding an enum tagged under the same key.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(remote = "Self", rename_all = "snake_case")]
    enum Outer {
        Stop,
        Move {
            to: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            speed: Option<u32>,
        },
        Wrapped(Body),
        #[serde(rename = "(untagged)")]
        Inner(Inner),
    }
    tagged!([] Outer, tag = "type", untagged = true);

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Body {
        a: u32,
        nested: Vec<Outer>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(remote = "Self", rename_all = "snake_case")]
    enum Inner {
        Paint { colour: String },
    }
    tagged!([] Inner, tag = "type");

    /// Adjacently tagged.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(remote = "Self", rename_all = "snake_case")]
    enum Step {
        Write(Body),
        Idle,
    }
    tagged!([] Step, tag = "step", content = "output");

    /// What serde's own derive writes and reads for the same enums: the reference.
    mod derived {
        use serde::{Deserialize, Serialize};

        #[derive(Debug, Serialize, Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        pub enum Outer {
            Stop,
            Move {
                to: String,
                #[serde(default, skip_serializing_if = "Option::is_none")]
                speed: Option<u32>,
            },
            Wrapped(Body),
            #[serde(untagged)]
            Inner(Inner),
        }
        #[derive(Debug, Serialize, Deserialize)]
        pub struct Body {
            pub a: u32,
            pub nested: Vec<Outer>,
        }
        #[derive(Debug, Serialize, Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        pub enum Inner {
            Paint { colour: String },
        }
        #[derive(Debug, Serialize, Deserialize)]
        #[serde(tag = "step", content = "output", rename_all = "snake_case")]
        pub enum Step {
            Write(Body),
            Idle,
        }
    }

    fn samples() -> Vec<Outer> {
        vec![
            Outer::Stop,
            Outer::Move {
                to: "north".into(),
                speed: None,
            },
            Outer::Move {
                to: "south".into(),
                speed: Some(3),
            },
            Outer::Wrapped(Body {
                a: 1,
                nested: vec![
                    Outer::Stop,
                    Outer::Inner(Inner::Paint {
                        colour: "red".into(),
                    }),
                ],
            }),
            Outer::Inner(Inner::Paint {
                colour: "blue".into(),
            }),
        ]
    }

    #[test]
    fn writes_the_bytes_serde_derive_writes_and_reads_them_back() {
        for value in samples() {
            let ours = serde_json::to_string(&value).unwrap();
            let theirs: derived::Outer = serde_json::from_str(&ours).unwrap();
            assert_eq!(ours, serde_json::to_string(&theirs).unwrap());
            assert_eq!(
                serde_json::from_str::<Outer>(&ours).unwrap(),
                value,
                "{ours}"
            );
        }
        for value in [
            Step::Idle,
            Step::Write(Body {
                a: 2,
                nested: vec![Outer::Stop],
            }),
        ] {
            let ours = serde_json::to_string(&value).unwrap();
            let theirs: derived::Step = serde_json::from_str(&ours).unwrap();
            assert_eq!(ours, serde_json::to_string(&theirs).unwrap());
            assert_eq!(
                serde_json::from_str::<Step>(&ours).unwrap(),
                value,
                "{ours}"
            );
        }
        assert_eq!(
            serde_json::to_string(&Outer::Inner(Inner::Paint {
                colour: "red".into()
            }))
            .unwrap(),
            r#"{"type":"paint","colour":"red"}"#
        );
    }

    #[test]
    fn reads_an_object_whose_tag_is_not_first() {
        // A `serde_json::Value` (without `preserve_order`) sorts its keys: the tag comes late.
        for value in samples() {
            let sorted = serde_json::to_value(&value).unwrap().to_string();
            assert_eq!(
                serde_json::from_str::<Outer>(&sorted).unwrap(),
                value,
                "{sorted}"
            );
        }
        let text = r#"{"output":{"nested":[{"to":"x","type":"move"}],"a":4},"step":"write"}"#;
        assert_eq!(
            serde_json::from_str::<Step>(text).unwrap(),
            Step::Write(Body {
                a: 4,
                nested: vec![Outer::Move {
                    to: "x".into(),
                    speed: None
                }]
            })
        );
        assert_eq!(
            serde_json::from_value::<Outer>(json!({"speed": 1, "type": "move", "to": "y"}))
                .unwrap(),
            Outer::Move {
                to: "y".into(),
                speed: Some(1)
            }
        );
    }

    #[test]
    fn tags_first_puts_each_objects_tag_first_and_keeps_the_value() {
        for value in samples() {
            let sorted = serde_json::to_value(&value).unwrap();
            let text = super::tags_first(&sorted);
            assert!(text.starts_with(r#"{"type":"#), "{text}");
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&text).unwrap(),
                sorted
            );
            assert_eq!(serde_json::from_str::<Outer>(&text).unwrap(), value);
        }
        let nested = serde_json::to_value(&samples()[3]).unwrap();
        assert_eq!(
            super::tags_first(&nested),
            r#"{"type":"wrapped","a":1,"nested":[{"type":"stop"},{"type":"paint","colour":"red"}]}"#
        );
    }

    #[test]
    fn refuses_what_serde_derive_refuses() {
        for bad in [
            r#"{"to":"x"}"#,
            r#"{}"#,
            r#"{"type":"fly"}"#,
            r#"{"type":"move"}"#,
            r#"{"type":"move","to":3}"#,
            r#""move""#,
            r#"{"type":"paint"}"#,
        ] {
            assert!(
                serde_json::from_str::<derived::Outer>(bad).is_err(),
                "{bad}"
            );
            assert!(serde_json::from_str::<Outer>(bad).is_err(), "{bad}");
        }
        for bad in [
            r#"{"step":"write"}"#,
            r#"{"step":"write","output":{"a":1}}"#,
        ] {
            assert!(serde_json::from_str::<derived::Step>(bad).is_err(), "{bad}");
            assert!(serde_json::from_str::<Step>(bad).is_err(), "{bad}");
        }
    }
}
