//! The shape of an answer as static data, walked by the checker while it parses: what each
//! value must be ([`Ty`]), the fields of an object ([`Obj`]), a union on a tag field ([`Union`]),
//! and a whole answer that is a union on a tag some of whose values the step at hand forbids
//! ([`TaggedRoot`], a `responseType`). The validator names no kind: each kind hands it its own
//! shapes, generated into the kind's folder (`protocol/<kind>/shape.rs`) from the kind's JSON
//! Schemas by `validate::shape_gen`, so checking needs no allocation and no
//! `serde_json::Value`.
//! What a schema cannot say is here, as data the kind fills in: which strings are ids (`Ty::Id`,
//! judged by the kind's id scope), a long text that must not be JSON and its limits and hints
//! ([`Ty::Content`] with its [`ContentRule`]), the words of a tag value the step forbids.

/// What a value must be.
#[derive(Debug)]
pub enum Ty {
    /// Anything at all (unknown fields): only the JSON syntax is checked.
    Any,
    /// A string of at most `max` chars.
    Text {
        /// At most this many chars.
        max: usize,
    },
    /// A string of at most `max` chars with at least `min` that are not blank at its ends (a
    /// schema's `minLength`, read as a person would: spaces are not text).
    NonBlank {
        /// At least this many chars that are not blank at the ends.
        min: usize,
        /// At most this many chars.
        max: usize,
    },
    /// One of these exact strings.
    Enum(&'static [&'static str]),
    /// A string naming something of the session: the kind's id scope judges it
    /// (`check::IdScope`), by this number, which the kind gives meaning to.
    Id(u8),
    /// A long text (a document an answer writes) within its rule's limits, and not JSON.
    Content(&'static ContentRule),
    /// An integer in `min..=max`.
    Int {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A number (a whole one when `integer`), within the bounds given: a schema's `number` (a
    /// score from 0 to 1), and the `integer` of a schema a person gives at run time
    /// (`runtime.rs`; the generated tables use [`Ty::Int`] for whole numbers).
    Number {
        /// The least value, if bounded.
        min: Option<f64>,
        /// The greatest value, if bounded.
        max: Option<f64>,
        /// Only whole numbers.
        integer: bool,
    },
    /// `true` or `false`.
    Bool,
    /// An array of `item`, with `min..=max` entries.
    Array {
        /// Each entry's type.
        item: &'static Ty,
        /// At least this many entries.
        min: usize,
        /// At most this many entries.
        max: usize,
    },
    /// An object with known fields.
    Object(&'static Obj),
    /// An object with free keys and values of one type (`personas`).
    Map(&'static Ty),
    /// An object whose fields depend on the string value of one tag field.
    Union(&'static Union),
}

/// One field of an object.
#[derive(Debug)]
pub struct Field {
    /// Wire name.
    pub name: &'static str,
    /// Its type.
    pub ty: Ty,
    /// Must be present.
    pub required: bool,
    /// May be `null` (the `Option` fields of the wire types).
    pub nullable: bool,
}

/// An object with known fields.
#[derive(Debug)]
pub struct Obj {
    /// The fields, at most 64 (a bit each in the checker).
    pub fields: &'static [Field],
}

/// A tagged union: the value of field `tag` picks the variant.
#[derive(Debug)]
pub struct Union {
    /// The tag's wire name (`action`, `responseType`).
    pub tag: &'static str,
    /// Tag value → the object shape (which lists the tag itself as a field).
    pub variants: &'static [(&'static str, &'static Obj)],
}

/// A long plain text's rule, given by the kind that has one: its limits in chars and the hints
/// that say how to fix a text under or over them.
#[derive(Debug)]
pub struct ContentRule {
    /// The fewest chars of text (blanks at the ends left out).
    pub min: usize,
    /// The most chars.
    pub max: usize,
    /// How to fix a text under `min`.
    pub too_short_hint: &'static str,
    /// How to fix a text over `max`.
    pub too_long_hint: &'static str,
}

/// A whole answer that is a union on one tag field (a `responseType`) of which the
/// step at hand allows only some values: a value another step allows is refused in the kind's
/// words ("`{tag} {value} is not allowed on the {step_title} step`", then `refused_hint` and the
/// values to use), any other value as an unknown one.
#[derive(Debug)]
pub struct TaggedRoot {
    /// The tag and the variants this step allows, in the order they are listed.
    pub union: Union,
    /// Every value the tag has on any step.
    pub every_value: &'static [&'static str],
    /// The step's name for people (`PlanAssign`).
    pub step_title: &'static str,
    /// Why a value another step allows is refused here (`Only Bootstrap and PlanAssign may halt.`).
    pub refused_hint: &'static str,
}
