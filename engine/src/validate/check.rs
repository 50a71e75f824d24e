//! The checker: one pass over the JSON text that parses strictly and, at the same time, checks
//! every value against the step's [`shape`](super::shape) and the session's ids.
//!
//! Nothing is built: strings stay borrowed raw slices, a JSON pointer is a stack of borrowed
//! segments rendered only when a violation needs it, and a string's chars are counted only when its
//! byte length could break a limit. The first syntax error stops the pass ([`Syntax`]); the caller
//! then tries the recovering normalizer and runs the pass again. Shape and reference violations
//! never stop it: every one is collected.

use std::borrow::Cow;

use super::json::{self, Seg, Stop};
use super::shape::{ContentRule, Field, Obj, TaggedRoot, Ty, Union};
use super::tape::{self, Emit, NoTape};
use super::Violation;

/// Deeper nesting than this is refused (as `serde_json` does), so no input can exhaust the stack.
const MAX_DEPTH: u32 = 128;
/// How long a `received` gets.
const RECEIVED_MAX: usize = 80;

/// Why the text is not (yet) JSON: the first syntax error, where it is and what kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Syntax {
    /// Byte offset in the checked text.
    pub pos: usize,
    /// JSON pointer of the value being read when it failed.
    pub path: String,
    /// What went wrong.
    pub kind: SyntaxKind,
}

/// The kinds of syntax error, each with its own message and hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxKind {
    /// Something else was expected here.
    Expected(&'static str),
    /// The text ended inside the object.
    End,
    /// A raw control char (newline, tab) inside a string.
    Control,
    /// A bad backslash escape.
    Escape(&'static str),
    /// `True`, `False` or `None`: the JSON spelling is the second.
    Python(&'static str, &'static str),
    /// A comma right before `}` or `]`.
    TrailingComma,
    /// A `//` or `/* */` comment.
    Comment,
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// The answer is a JSON value but not an object.
    NotAnObject,
    /// Something follows the object.
    TrailingText,
    /// A malformed number.
    Number,
}

/// What the checker found in a syntactically valid answer.
#[derive(Debug, Default)]
pub struct Outcome {
    /// What must be fixed.
    pub errors: Vec<Violation>,
    /// What was noticed.
    pub warnings: Vec<Violation>,
    /// The value tape the caller passed describes the whole answer.
    pub tape_complete: bool,
}

/// Boxed so that the `Ok` path, taken for every value, returns in registers.
type Res<T> = Result<T, Box<Syntax>>;

/// What a whole answer must be.
#[derive(Debug, Clone, Copy)]
pub enum Root {
    /// A union on a tag of which the step allows only some values (an answer that says which
    /// sort of answer it is, in a `responseType`).
    Tagged(&'static TaggedRoot),
    /// One object of known fields: an answer with no such tag.
    Object(&'static Obj),
}

/// What a kind of session knows of the ids its answers name: the walker asks it about every string
/// at an id place of a shape (`Ty::Id`, whose number the kind gives meaning to) as it passes it,
/// and once more when the whole answer is read. The walker itself knows no kind's ids
/// (`tests/boundary.rs` holds it to that); each kind's scope is in its protocol folder.
pub trait IdScope<'a> {
    /// Judges `id`, of kind `kind`, standing at `at`; its violations go to `at`.
    fn id(&mut self, kind: u8, id: Cow<'a, str>, at: &mut At<'_, 'a>);
    /// The field an object declares an id of the same answer in, kept even when the object's
    /// tag is wrong, so that one mistake makes one violation.
    fn declaring_field(&self) -> Option<&'static str> {
        None
    }
    /// Such an id, declared by the object at `path`.
    fn declare(&mut self, _id: Cow<'a, str>, _path: &[Seg<'a>]) {}
    /// After the whole answer: judges what could only be judged then.
    fn finish(&mut self, _at: &mut At<'_, 'a>) {}
    /// What a string of id kind `kind` must be, in words (a violation's `expected`).
    fn expected(&self, _kind: u8) -> &'static str {
        "a string id"
    }
}

/// No ids at all: the scope of shapes with no id places.
pub struct NoIds;

impl IdScope<'_> for NoIds {
    fn id(&mut self, _: u8, _: Cow<'_, str>, _: &mut At<'_, '_>) {}
}

/// Where an id stands in the answer, and where its violations go.
pub struct At<'w, 'a> {
    /// The pointer to it, as segments (keys and indices).
    pub path: &'w [Seg<'a>],
    pos: usize,
    errors: &'w mut Vec<Violation>,
    error_at: &'w mut Vec<usize>,
}

impl At<'_, '_> {
    /// The JSON pointer to the id.
    pub fn pointer(&self) -> String {
        json::pointer(self.path)
    }

    /// The byte offset the id ends at in the checked text.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Records a violation of the id.
    pub fn error(&mut self, v: Violation) {
        let pos = self.pos;
        self.error_at(pos, v);
    }

    /// Records a violation standing at byte `pos` (violations are reported in the order they
    /// stand in the answer).
    pub fn error_at(&mut self, pos: usize, v: Violation) {
        self.error_at.push(pos);
        self.errors.push(v);
    }
}

/// An object of no fields.
static NOTHING: Obj = Obj { fields: &[] };

/// Checks `text` (which must be exactly one JSON object, surrounding whitespace allowed) against
/// `root`, asking `ids` about every string at an id place.
pub fn check<'a, E: Emit>(
    root: Root,
    text: &'a str,
    ids: &mut dyn IdScope<'a>,
    tape: E,
) -> Result<Outcome, Box<Syntax>> {
    let mut w = Walker {
        b: text.as_bytes(),
        text,
        pos: 0,
        depth: 0,
        path: Vec::with_capacity(16),
        out: Outcome::default(),
        root,
        ids,
        error_at: Vec::new(),
        tape,
    };
    w.root()?;
    let mut at = At {
        path: &[],
        pos: w.pos,
        errors: &mut w.out.errors,
        error_at: &mut w.error_at,
    };
    w.ids.finish(&mut at);
    if w.error_at.windows(2).any(|p| p[0] > p[1]) {
        let mut tagged: Vec<(usize, Violation)> =
            w.error_at.into_iter().zip(w.out.errors).collect();
        crate::order::sort_by_key(&mut tagged, |(at, _)| *at);
        w.out.errors = tagged.into_iter().map(|(_, v)| v).collect();
    }
    w.out.tape_complete = w.tape.complete();
    Ok(w.out)
}

/// True when `text`, trimmed, is a JSON object or array (Write content must not be).
pub fn is_json_container(text: &str) -> bool {
    let t = text.trim();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return false;
    }
    let mut w = Walker {
        b: t.as_bytes(),
        text: t,
        pos: 0,
        depth: 0,
        path: Vec::new(),
        out: Outcome::default(),
        root: Root::Object(&NOTHING),
        ids: &mut NoIds,
        error_at: Vec::new(),
        tape: NoTape,
    };
    w.value(&Ty::Any, true).is_ok() && w.ws().is_ok() && w.pos == w.b.len()
}

/// What a union's tag turned out to be.
enum Tag<'a> {
    Missing,
    Str(Cow<'a, str>),
    NotString(usize, usize),
}

/// How an object's keys are read.
#[derive(Clone, Copy)]
enum Keys {
    Known(&'static Obj),
    Map(&'static Ty),
    Any,
}

struct Walker<'a, 's, E: Emit> {
    b: &'a [u8],
    text: &'a str,
    pos: usize,
    depth: u32,
    path: Vec<Seg<'a>>,
    out: Outcome,
    root: Root,
    /// The kind's id scope, asked about every string at an id place.
    ids: &'s mut dyn IdScope<'a>,
    /// Byte offset of each error in `out.errors`, to report them in document order.
    error_at: Vec<usize>,
    /// Told of every value read: nothing for a plain check, the value tape when the caller wants
    /// the value too.
    tape: E,
}

fn list_values(values: &[&str]) -> String {
    values.join(", ")
}

impl<'a, E: Emit> Walker<'a, '_, E> {
    // ---- low level --------------------------------------------------------------------------

    fn fail<T>(&self, kind: SyntaxKind) -> Res<T> {
        Err(Box::new(Syntax {
            pos: self.pos,
            path: json::pointer(&self.path),
            kind,
        }))
    }

    /// Skips blanks. Inlined for the usual case (no blank at all); runs of indentation go eight
    /// bytes at a time.
    #[inline(always)]
    fn ws(&mut self) -> Res<()> {
        match self.b.get(self.pos) {
            Some(&c) if c > b' ' && c != b'/' => Ok(()),
            // The single space of `": "` and `, `, without a call.
            Some(b' ')
                if self
                    .b
                    .get(self.pos + 1)
                    .is_some_and(|&c| c > b' ' && c != b'/') =>
            {
                self.pos += 1;
                Ok(())
            }
            // A newline and the next line's indentation (pretty-printed JSON), eight spaces at a
            // time, without a call.
            Some(b'\n') => match json::indent_end(self.b, self.pos + 1) {
                Some(end) => {
                    self.pos = end;
                    Ok(())
                }
                None => self.ws_slow(),
            },
            _ => self.ws_slow(),
        }
    }

    fn ws_slow(&mut self) -> Res<()> {
        self.pos = json::skip_blanks(self.b, self.pos);
        if self.b.get(self.pos) == Some(&b'/')
            && matches!(self.b.get(self.pos + 1), Some(b'/' | b'*'))
        {
            return self.fail(SyntaxKind::Comment);
        }
        Ok(())
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Reads a string at `"`; returns its raw body and whether it has escapes.
    #[inline]
    fn string(&mut self) -> Res<(&'a str, bool)> {
        let start = self.pos + 1;
        let mut i = start;
        let mut escaped = false;
        loop {
            match json::scan_string(self.b, i) {
                Stop::Quote(q) => {
                    self.pos = q + 1;
                    return Ok((&self.text[start..q], escaped));
                }
                Stop::Backslash(at) => match json::check_escape(self.b, at) {
                    Ok(len) => {
                        escaped = true;
                        i = at + len;
                    }
                    Err(why) => {
                        self.pos = at;
                        return self.fail(if at + 1 >= self.b.len() {
                            SyntaxKind::End
                        } else {
                            SyntaxKind::Escape(why)
                        });
                    }
                },
                Stop::Control(at) => {
                    self.pos = at;
                    return self.fail(SyntaxKind::Control);
                }
                Stop::End => {
                    self.pos = self.b.len();
                    return self.fail(SyntaxKind::End);
                }
            }
        }
    }

    /// Reads a number; returns whether it is written as an integer (no fraction, no exponent).
    fn number(&mut self) -> Res<bool> {
        let b = self.b;
        let mut i = self.pos;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while matches!(b.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            _ => {
                self.pos = i;
                return self.fail(SyntaxKind::Number);
            }
        }
        let mut integer = true;
        if b.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return self.fail(SyntaxKind::Number);
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            integer = false;
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return self.fail(SyntaxKind::Number);
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        if matches!(b.get(i), Some(b'0'..=b'9')) {
            self.pos = i;
            return self.fail(SyntaxKind::Number);
        }
        self.pos = i;
        Ok(integer)
    }

    fn literal(&mut self, word: &'static str) -> Res<()> {
        if self.b[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else if self.b.len() - self.pos < word.len()
            && word.as_bytes().starts_with(&self.b[self.pos..])
        {
            self.pos = self.b.len();
            self.fail(SyntaxKind::End)
        } else {
            self.fail(SyntaxKind::Expected(
                "a value (string, number, object, array, true, false or null)",
            ))
        }
    }

    fn received(&self, start: usize) -> String {
        json::shorten(&self.text[start..self.pos], RECEIVED_MAX)
    }

    fn here(&self) -> String {
        json::pointer(&self.path)
    }

    fn push_error(&mut self, v: Violation) {
        self.error_at.push(self.pos);
        self.out.errors.push(v);
    }

    fn error(&mut self, message: String, expected: String, received: String, hint: String) {
        let path = self.here();
        self.push_error(Violation::new(path, message, expected, received, hint));
    }

    fn field_name(&self) -> Cow<'a, str> {
        match self.path.last() {
            Some(Seg::Key(raw, esc)) => json::unescape(raw, *esc),
            Some(Seg::Idx(_)) => Cow::Borrowed("this item"),
            None => Cow::Borrowed("the answer"),
        }
    }

    // ---- values -----------------------------------------------------------------------------

    fn value(&mut self, ty: &'static Ty, nullable: bool) -> Res<()> {
        self.ws()?;
        let start = self.pos;
        match self.peek() {
            None => self.fail(SyntaxKind::End),
            Some(b'"') => {
                let (raw, esc) = self.string()?;
                self.tape.string(start + 1, self.pos - 1, esc);
                self.on_string(ty, raw, esc, start);
                Ok(())
            }
            Some(b'{') => match ty {
                Ty::Object(obj) => self.object(Keys::Known(obj)),
                Ty::Map(v) => self.object(Keys::Map(v)),
                Ty::Union(u) => self.union(u),
                Ty::Any => self.object(Keys::Any),
                _ => {
                    self.object(Keys::Any)?;
                    self.type_error(ty, start);
                    Ok(())
                }
            },
            Some(b'[') => match ty {
                Ty::Array { item, min, max } => self.array(item, *min, *max),
                Ty::Any => self.array(&Ty::Any, 0, usize::MAX),
                _ => {
                    self.array(&Ty::Any, 0, usize::MAX)?;
                    self.type_error(ty, start);
                    Ok(())
                }
            },
            Some(b't') => self.literal("true").map(|()| {
                self.tape_literal(tape::TRUE);
                self.on_bool(ty, start)
            }),
            Some(b'f') => self.literal("false").map(|()| {
                self.tape_literal(tape::FALSE);
                self.on_bool(ty, start)
            }),
            Some(b'n') => {
                self.literal("null")?;
                self.tape_literal(tape::NULL);
                if !nullable && !matches!(ty, Ty::Any) {
                    self.type_error(ty, start);
                }
                Ok(())
            }
            Some(b'-' | b'0'..=b'9') => {
                let integer = self.number()?;
                self.tape.number(start, self.pos);
                self.on_number(ty, integer, start);
                Ok(())
            }
            Some(b'T') if self.b[self.pos..].starts_with(b"True") => {
                self.fail(SyntaxKind::Python("True", "true"))
            }
            Some(b'F') if self.b[self.pos..].starts_with(b"False") => {
                self.fail(SyntaxKind::Python("False", "false"))
            }
            Some(b'N') if self.b[self.pos..].starts_with(b"None") => {
                self.fail(SyntaxKind::Python("None", "null"))
            }
            Some(_) => self.fail(SyntaxKind::Expected(
                "a value (string, number, object, array, true, false or null)",
            )),
        }
    }

    /// [`Self::value`] for a known field, with the commonest case inlined: a plain string where
    /// text is expected (no call, no dispatch on the value's first byte).
    #[inline(always)]
    fn field_value(&mut self, ty: &'static Ty, nullable: bool) -> Res<()> {
        if let Ty::Text { max } = ty {
            self.ws()?;
            if self.peek() == Some(b'"') {
                let start = self.pos;
                let (raw, esc) = self.string()?;
                self.tape.string(start + 1, self.pos - 1, esc);
                if raw.len() > *max && json::char_len(raw, esc, max + 1) > *max {
                    self.too_long(*max, raw, esc);
                }
                return Ok(());
            }
        }
        self.value(ty, nullable)
    }

    fn enter(&mut self) -> Res<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.fail(SyntaxKind::TooDeep);
        }
        self.pos += 1;
        Ok(())
    }

    fn array(&mut self, item: &'static Ty, min: usize, max: usize) -> Res<()> {
        let start = self.pos;
        self.enter()?;
        let slot = self.tape.open(tape::ARRAY);
        let mut n = 0usize;
        self.ws()?;
        if self.peek() == Some(b']') {
            self.pos += 1;
        } else {
            loop {
                self.path.push(Seg::Idx(n));
                self.value(item, false)?;
                self.path.pop();
                n += 1;
                self.ws()?;
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.ws()?;
                        if self.peek() == Some(b']') {
                            return self.fail(SyntaxKind::TrailingComma);
                        }
                    }
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    None => return self.fail(SyntaxKind::End),
                    Some(_) => {
                        return self.fail(SyntaxKind::Expected("',' or ']' after an array item"))
                    }
                }
            }
        }
        self.depth -= 1;
        self.tape.close(slot, n);
        if n < min || n > max {
            let expected = if max == usize::MAX {
                format!("at least {min} items")
            } else {
                format!("{min} to {max} items")
            };
            let name = self.field_name();
            let hint = if n < min {
                // Name what may go in, when the items are from a fixed list (halt `to`: user-1).
                match item {
                    Ty::Enum(values) => format!("Give at least {min}: {}.", values.join(" or ")),
                    _ => format!("Give at least {min}."),
                }
            } else {
                format!("Keep only the {max} most important.")
            };
            let message = format!("{name} has {n} items; it needs {expected}");
            let received = format!("{n} items: {}", self.received(start));
            self.error(message, expected, received, hint);
        }
        Ok(())
    }

    fn object(&mut self, keys: Keys) -> Res<()> {
        self.enter()?;
        let slot = self.tape.open(tape::OBJECT);
        let mut fields = 0usize;
        let mut seen: u64 = 0;
        // Models mostly write fields in the schema's order: try the one after the last first.
        let mut next = 0usize;
        self.ws()?;
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                self.ws()?;
                match self.peek() {
                    Some(b'"') => {}
                    None => return self.fail(SyntaxKind::End),
                    Some(b'}') => return self.fail(SyntaxKind::TrailingComma),
                    Some(_) => return self.fail(SyntaxKind::Expected("a key in double quotes")),
                }
                let key_start = self.pos;
                // `hit`: the field index when the key is the one the schema order expects next.
                let (raw, esc, hit) = match self.expected_key(keys, next) {
                    Some(raw) => (raw, false, Some(next)),
                    None => {
                        let (raw, esc) = self.string()?;
                        (raw, esc, None)
                    }
                };
                self.ws()?;
                match self.peek() {
                    Some(b':') => self.pos += 1,
                    None => return self.fail(SyntaxKind::End),
                    Some(_) => return self.fail(SyntaxKind::Expected("':' after a key")),
                }
                self.path.push(Seg::Key(raw, esc));
                fields += 1;
                match keys {
                    Keys::Any | Keys::Map(_) => {
                        // Free keys: the tape only speaks field names.
                        self.tape.give_up();
                        match keys {
                            Keys::Map(ty) => self.value(ty, false)?,
                            _ => self.value(&Ty::Any, true)?,
                        }
                    }
                    Keys::Known(obj) => {
                        let found = match hit {
                            Some(i) => Some(i),
                            None => find_field(obj, &json::unescape(raw, esc), next),
                        };
                        match found {
                            Some(i) => {
                                let field = &obj.fields[i];
                                if seen & (1 << i) != 0 {
                                    let key = json::unescape(raw, esc);
                                    self.error(
                                        format!("{key} appears twice in the same object"),
                                        "each field once".into(),
                                        json::shorten(
                                            &self.text[key_start..self.pos],
                                            RECEIVED_MAX,
                                        ),
                                        format!("Keep one {key}."),
                                    );
                                }
                                seen |= 1 << i;
                                next = i + 1;
                                if esc {
                                    self.tape.give_up();
                                }
                                self.tape.key(field.name);
                                self.field_value(&field.ty, field.nullable)?;
                            }
                            None => {
                                self.tape.give_up();
                                let value_start = self.pos;
                                self.value(&Ty::Any, true)?;
                                self.unknown_field(obj, &json::unescape(raw, esc), value_start);
                            }
                        }
                    }
                }
                self.path.pop();
                self.ws()?;
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    None => return self.fail(SyntaxKind::End),
                    Some(_) => return self.fail(SyntaxKind::Expected("',' or '}' after a field")),
                }
            }
        }
        self.depth -= 1;
        self.tape.close(slot, fields);
        if let Keys::Known(obj) = keys {
            self.missing_fields(obj, seen);
        }
        Ok(())
    }

    /// The key at `self.pos` when it is exactly the field the schema order expects next (the
    /// usual case): compared in place, without scanning for its closing quote.
    #[inline]
    fn expected_key(&mut self, keys: Keys, next: usize) -> Option<&'a str> {
        let Keys::Known(obj) = keys else { return None };
        let name = obj.fields.get(next)?.name.as_bytes();
        let start = self.pos + 1;
        let end = start + name.len();
        if self.b.get(end) == Some(&b'"') && eq_bytes(&self.b[start..end], name) {
            self.pos = end + 1;
            Some(&self.text[start..end])
        } else {
            None
        }
    }

    fn unknown_field(&mut self, obj: &Obj, key: &str, value_start: usize) {
        let similar = obj.fields.iter().find(|f| similar(f.name, key));
        let known: Vec<&str> = obj.fields.iter().map(|f| f.name).collect();
        let hint = match similar {
            Some(f) => format!("Did you mean {}? Field names are case-sensitive.", f.name),
            None => "Remove it; it is ignored.".to_string(),
        };
        let path = self.here();
        let received = self.received(value_start);
        self.out.warnings.push(Violation::new(
            path,
            format!("unknown field {key} is ignored"),
            format!("one of: {}", list_values(&known)),
            received,
            hint,
        ));
    }

    fn missing_fields(&mut self, obj: &Obj, seen: u64) {
        for (i, field) in obj.fields.iter().enumerate() {
            if field.required && seen & (1 << i) == 0 {
                self.missing(field);
            }
        }
    }

    fn missing(&mut self, field: &Field) {
        let mut path = self.here();
        path.push('/');
        path.push_str(field.name);
        self.push_error(Violation::new(
            path,
            format!("missing required field {}", field.name),
            self.describe(&field.ty),
            "nothing".into(),
            format!("Add {}.", field.name),
        ));
    }

    /// Reads an object whose shape depends on its tag field (`responseType`, `action`).
    fn union(&mut self, u: &'static Union) -> Res<()> {
        let start = self.pos;
        let tag = self.find_tag(u.tag)?;
        if let Tag::Str(v) = &tag {
            // The usual case, settled without building the list of allowed values.
            if let Some((_, obj)) = u
                .variants
                .iter()
                .find(|(t, _)| eq_bytes(t.as_bytes(), v.as_bytes()))
            {
                return self.object(Keys::Known(obj));
            }
        }
        self.union_with(start, tag, u, None)
    }

    /// Reads a union's object once its tag is found: the variant the tag names, or the object
    /// with the tag's violation. `refusal`: the whole answer's union, whose tag values another
    /// step allows are refused in its words.
    fn union_with(
        &mut self,
        start: usize,
        tag: Tag<'a>,
        u: &'static Union,
        refusal: Option<&'static TaggedRoot>,
    ) -> Res<()> {
        if let Tag::Str(v) = &tag {
            if let Some((_, obj)) = u.variants.iter().find(|(t, _)| *t == v.as_ref()) {
                return self.object(Keys::Known(obj));
            }
        }
        let tag_name = u.tag;
        let allowed: Vec<&str> = u.variants.iter().map(|(v, _)| *v).collect();
        let expected = format!("one of: {}", list_values(&allowed));
        match tag {
            Tag::Str(v) => {
                self.keep_declared_id(start)?;
                self.object(Keys::Any)?;
                let mut path = self.here();
                path.push('/');
                path.push_str(tag_name);
                let (message, hint) = match refusal {
                    Some(root) if root.every_value.contains(&v.as_ref()) => (
                        format!(
                            "{tag_name} {v} is not allowed on the {} step",
                            root.step_title
                        ),
                        format!(
                            "{} Answer with {} instead.",
                            root.refused_hint,
                            allowed.join(" or ")
                        ),
                    ),
                    _ => (
                        format!("{tag_name} {v:?} is not one of the allowed values"),
                        enum_hint(&v, &allowed),
                    ),
                };
                self.push_error(Violation::new(
                    path,
                    message,
                    expected,
                    format!("{v:?}"),
                    hint,
                ));
            }
            Tag::NotString(s, e) => {
                self.object(Keys::Any)?;
                let mut path = self.here();
                path.push('/');
                path.push_str(tag_name);
                let received = json::shorten(&self.text[s..e], RECEIVED_MAX);
                self.push_error(Violation::new(
                    path,
                    format!("{tag_name} must be a string"),
                    expected,
                    received,
                    format!("Write {tag_name} as one of the strings listed."),
                ));
            }
            Tag::Missing => {
                self.object(Keys::Any)?;
                let mut path = self.here();
                path.push('/');
                path.push_str(tag_name);
                let received = self.received(start);
                self.push_error(Violation::new(
                    path,
                    format!("missing required field {tag_name}"),
                    expected,
                    received,
                    format!("Add {tag_name} first; it says which kind of object this is."),
                ));
            }
        }
        Ok(())
    }

    /// An object with a wrong tag still declares the id it adds, so that the later parts of the
    /// answer naming it are not reported too (one mistake, one violation). Which field declares
    /// one is the id scope's to say ([`IdScope::declaring_field`]).
    fn keep_declared_id(&mut self, start: usize) -> Res<()> {
        let Some(field) = self.ids.declaring_field() else {
            return Ok(());
        };
        let here = self.pos;
        self.pos = start;
        let tag = self.find_tag(field);
        self.pos = here;
        if let Tag::Str(id) = tag? {
            self.ids.declare(id, &self.path);
        }
        Ok(())
    }

    /// Looks ahead in the object at `self.pos` for `tag` without moving; cheap when it comes first.
    fn find_tag(&mut self, tag: &str) -> Res<Tag<'a>> {
        let save = self.pos;
        let depth = self.depth;
        self.tape.pause();
        let result = self.find_tag_inner(tag);
        self.tape.resume();
        self.pos = save;
        self.depth = depth;
        result
    }

    #[inline(always)]
    fn tape_literal(&mut self, tag: u32) {
        self.tape.literal(tag);
    }

    fn find_tag_inner(&mut self, tag: &str) -> Res<Tag<'a>> {
        self.enter()?;
        self.ws()?;
        if self.peek() == Some(b'}') {
            return Ok(Tag::Missing);
        }
        loop {
            self.ws()?;
            if self.peek() != Some(b'"') {
                return match self.peek() {
                    None => self.fail(SyntaxKind::End),
                    Some(b'}') => self.fail(SyntaxKind::TrailingComma),
                    Some(_) => self.fail(SyntaxKind::Expected("a key in double quotes")),
                };
            }
            let (raw, esc) = self.string()?;
            self.ws()?;
            match self.peek() {
                Some(b':') => self.pos += 1,
                None => return self.fail(SyntaxKind::End),
                Some(_) => return self.fail(SyntaxKind::Expected("':' after a key")),
            }
            self.ws()?;
            if eq_bytes(json::unescape(raw, esc).as_bytes(), tag.as_bytes()) {
                let start = self.pos;
                if self.peek() == Some(b'"') {
                    let (v, vesc) = self.string()?;
                    return Ok(Tag::Str(json::unescape(v, vesc)));
                }
                self.value(&Ty::Any, true)?;
                return Ok(Tag::NotString(start, self.pos));
            }
            self.value(&Ty::Any, true)?;
            self.ws()?;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => return Ok(Tag::Missing),
                None => return self.fail(SyntaxKind::End),
                Some(_) => return self.fail(SyntaxKind::Expected("',' or '}' after a field")),
            }
        }
    }

    fn root(&mut self) -> Res<()> {
        self.ws()?;
        match self.peek() {
            Some(b'{') => {}
            None => return self.fail(SyntaxKind::End),
            Some(_) => return self.fail(SyntaxKind::NotAnObject),
        }
        match self.root {
            Root::Tagged(root) => {
                let start = self.pos;
                let tag = self.find_tag(root.union.tag)?;
                self.union_with(start, tag, &root.union, Some(root))?;
            }
            Root::Object(obj) => self.object(Keys::Known(obj))?,
        }
        self.ws()?;
        if self.pos < self.b.len() {
            return self.fail(SyntaxKind::TrailingText);
        }
        Ok(())
    }

    // ---- leaf checks ------------------------------------------------------------------------

    fn type_error(&mut self, ty: &Ty, start: usize) {
        let received = self.received(start);
        let name = self.field_name();
        let expected = self.describe(ty);
        let kind = match self.b[start] {
            b'"' => "a string",
            b'{' => "an object",
            b'[' => "an array",
            b't' | b'f' => "a boolean",
            b'n' => "null",
            _ => "a number",
        };
        let hint = match (ty, self.b[start]) {
            (Ty::Int { .. } | Ty::Number { .. } | Ty::Bool, b'"') => {
                "Write the value without quotes.".to_string()
            }
            (Ty::Array { .. }, _) => {
                format!("Wrap it in [ ] even when there is only one item: {name} is a list.")
            }
            (_, b'n') => {
                format!("Give a value for {name}, or leave the field out if it is optional.")
            }
            _ => format!("Give {name} as {expected}."),
        };
        self.error(
            format!("{name} must be {expected}, not {kind}"),
            expected,
            received,
            hint,
        );
    }

    fn on_bool(&mut self, ty: &Ty, start: usize) {
        if !matches!(ty, Ty::Bool | Ty::Any) {
            self.type_error(ty, start);
        }
    }

    fn on_number(&mut self, ty: &Ty, integer: bool, start: usize) {
        match ty {
            Ty::Any => {}
            Ty::Int { min, max } => {
                let token = &self.text[start..self.pos];
                let value = if integer {
                    token.parse::<i64>().ok()
                } else {
                    None
                };
                let in_range = value.is_some_and(|v| (*min..=*max).contains(&v));
                if !in_range {
                    let name = self.field_name();
                    let message = if integer {
                        format!("{name} is out of range")
                    } else {
                        format!("{name} must be a whole number")
                    };
                    self.error(
                        message,
                        describe(ty),
                        token.to_string(),
                        format!("Use a whole number from {min} to {max}."),
                    );
                }
            }
            Ty::Number { min, max, integer } => {
                let token = &self.text[start..self.pos];
                let value = token.parse::<f64>().ok();
                let whole = integer_token(token);
                let in_range =
                    value.is_some_and(|v| min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m));
                if (*integer && !whole) || !in_range {
                    let name = self.field_name();
                    let message = if *integer && !whole {
                        format!("{name} must be a whole number")
                    } else {
                        format!("{name} is out of range")
                    };
                    self.error(
                        message,
                        describe(ty),
                        token.to_string(),
                        format!("Use {}.", describe(ty)),
                    );
                }
            }
            _ => self.type_error(ty, start),
        }
    }

    fn on_string(&mut self, ty: &Ty, raw: &'a str, esc: bool, start: usize) {
        match ty {
            Ty::Any => {}
            Ty::Text { max } => {
                if raw.len() > *max && json::char_len(raw, esc, max + 1) > *max {
                    self.too_long(*max, raw, esc);
                }
            }
            Ty::Enum(values) => {
                let v = json::unescape(raw, esc);
                if !values.iter().any(|a| eq_bytes(a.as_bytes(), v.as_bytes())) {
                    let name = self.field_name();
                    self.error(
                        format!("{name} {v:?} is not one of the allowed values"),
                        format!("one of: {}", list_values(values)),
                        json::shorten(&format!("{v:?}"), RECEIVED_MAX),
                        enum_hint(&v, values),
                    );
                }
            }
            Ty::NonBlank { min, max } => {
                if raw.len() > *max && json::char_len(raw, esc, max + 1) > *max {
                    self.too_long(*max, raw, esc);
                } else {
                    self.too_short(*min, raw, esc);
                }
            }
            Ty::Content(rule) => self.content(rule, raw, esc),
            Ty::Id(kind) => self.on_id(*kind, raw, esc),
            _ => self.type_error(ty, start),
        }
    }

    fn too_long(&mut self, max: usize, raw: &str, esc: bool) {
        let n = json::char_len(raw, esc, usize::MAX);
        let name = self.field_name();
        self.error(
            format!("{name} is {n} chars long; the limit is {max}"),
            format!("at most {max} chars"),
            format!("{n} chars: {}", json::shorten(raw, RECEIVED_MAX)),
            format!("Shorten {name} to at most {max} chars; keep the essentials."),
        );
    }

    /// A string with fewer than `min` chars of text once the blanks at its ends are left out.
    fn too_short(&mut self, min: usize, raw: &str, esc: bool) {
        let text = json::unescape(raw, esc);
        let n = text.trim().chars().take(min).count();
        if n >= min {
            return;
        }
        let name = self.field_name();
        let blank = n == 0 && !text.is_empty();
        let (message, hint) = if n == 0 {
            (
                format!("{name} is empty"),
                format!("Write {name}; it cannot be left blank."),
            )
        } else {
            (
                format!("{name} is too short ({n} of at least {min} chars of text)"),
                format!("Write {name} out in full: at least {min} chars of text."),
            )
        };
        // A blank text shows as blank: `"   "` alone reads as nothing at all.
        let mut received = json::shorten(&format!("{text:?}"), RECEIVED_MAX);
        if blank {
            received.push_str(" (blank)");
        }
        self.error(
            message,
            format!("a string of at least {min} chars of text"),
            received,
            hint,
        );
    }

    /// A content field ([`Ty::Content`]): its rule's `min` to `max` chars with at least the
    /// minimum that are not blank, no control characters but line breaks and tabs (a NUL breaks
    /// every reader), and not JSON — bare or as the only thing in a code fence.
    fn content(&mut self, rule: &ContentRule, raw: &str, esc: bool) {
        // Almost every content passes: read it escaped, without copying it out.
        if raw.len() <= rule.max && plainly_text(raw, rule.min) {
            return;
        }
        let name = self.field_name();
        if let Some((message, expected, hint)) = content_problem(rule, &name, raw, esc) {
            self.error(message, expected, json::shorten(raw, RECEIVED_MAX), hint);
        }
    }

    // ---- ids --------------------------------------------------------------------------------

    /// What a type wants, in words: [`describe`], with the id scope's words for an id.
    fn describe(&self, ty: &Ty) -> String {
        match ty {
            Ty::Id(kind) => self.ids.expected(*kind).into(),
            _ => describe(ty),
        }
    }

    /// A string at an id place: the kind's id scope judges it.
    fn on_id(&mut self, kind: u8, raw: &'a str, esc: bool) {
        let id = json::unescape(raw, esc);
        let mut at = At {
            path: &self.path,
            pos: self.pos,
            errors: &mut self.out.errors,
            error_at: &mut self.error_at,
        };
        self.ids.id(kind, id, &mut at);
    }
}

/// True when a JSON number token is a whole number (`3`, `-2`, `4.0`, `1e2`), as JSON Schema's
/// `integer` reads it.
fn integer_token(token: &str) -> bool {
    token
        .parse::<f64>()
        .is_ok_and(|v| v.is_finite() && v.fract() == 0.0)
}

/// Index of the field named `key`, trying `hint` first.
#[inline]
fn find_field(obj: &Obj, key: &str, hint: usize) -> Option<usize> {
    if let Some(f) = obj.fields.get(hint) {
        if eq_bytes(f.name.as_bytes(), key.as_bytes()) {
            return Some(hint);
        }
    }
    obj.fields
        .iter()
        .position(|f| eq_bytes(f.name.as_bytes(), key.as_bytes()))
}

/// Byte equality for the short names and values compared on every field, without a call to
/// `memcmp`: whole words, then the last bytes as one overlapping word (no byte loop).
#[inline(always)]
fn eq_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]));
    let half = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().unwrap_or([0; 4]));
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            if word(a, i) != word(b, i) {
                return false;
            }
            i += 8;
        }
        word(a, n - 8) == word(b, n - 8)
    } else if n >= 4 {
        half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4)
    } else {
        a.iter().zip(b).all(|(x, y)| x == y)
    }
}

/// The first non-blank char of a raw string body (escaped blanks skipped) is `{` or `[`.
/// The exact content check, on the unescaped text of the field `name`: the message, what was
/// expected and the hint of the first problem, or `None`.
fn content_problem(
    rule: &ContentRule,
    name: &str,
    raw: &str,
    esc: bool,
) -> Option<(String, String, String)> {
    let (min, max) = (rule.min, rule.max);
    let text = json::unescape(raw, esc);
    let visible = text.trim().chars().take(min).count();
    if visible < min {
        Some((
            format!("{name} has {visible} chars of text; it needs at least {min}"),
            format!("at least {min} chars of plain text"),
            rule.too_short_hint.into(),
        ))
    } else if raw.len() > max && json::char_len(raw, esc, max + 1) > max {
        let n = json::char_len(raw, esc, usize::MAX);
        Some((
            format!("{name} is {n} chars long; the limit is {max}"),
            format!("at most {max} chars"),
            rule.too_long_hint.into(),
        ))
    } else if text
        .bytes()
        .any(|b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'))
    {
        Some((
            format!("{name} holds control characters (such as NUL)"),
            "plain text or Markdown".into(),
            "Remove the control characters; write plain text.".into(),
        ))
    } else if is_json_container(&text) || fenced_json(&text) {
        Some((
            format!("{name} is JSON, not plain text"),
            "plain text or Markdown".into(),
            format!(
                "Write the {name} itself as text; don't put a JSON document inside {name}, fenced or not."
            ),
        ))
    } else {
        None
    }
}

/// The content check's fast path, on the raw (still escaped) string body: true when the content
/// certainly passes — at least `min` chars that are not blank, no control character but line
/// breaks and tabs, and a first char that opens neither JSON nor a code fence. Whatever it is not
/// sure of (a `\u` escape or a non-ASCII char before the first visible one, a short text) goes
/// to the exact check, which unescapes.
pub fn plainly_text(raw: &str, min: usize) -> bool {
    let b = raw.as_bytes();
    // The first visible char, and `min` visible ASCII chars (escaped line breaks are blank).
    let (mut i, mut seen, mut first) = (0, 0, None);
    while i < b.len() && seen < min {
        let (visible, len) = match b[i] {
            b'\\' => match b.get(i + 1) {
                Some(b'n' | b'r' | b't') => (None, 2),
                Some(b'u') if first.is_some() => (None, 6),
                Some(&c) if c.is_ascii_graphic() && c != b'u' => (Some(c), 2),
                _ => return false,
            },
            b' ' | b'\n' | b'\r' | b'\t' => (None, 1),
            c if c.is_ascii_graphic() => (Some(c), 1),
            c if c >= 0x80 && first.is_some() => (None, 1),
            _ => return false,
        };
        if let Some(c) = visible {
            seen += 1;
            first.get_or_insert(c);
        }
        i += len;
    }
    if seen < min || matches!(first, Some(b'{' | b'[' | b'`')) {
        return false;
    }
    // No control character, written as it is or escaped (`\b`, `\f`, `\u0000`–`\u001f` but a
    // tab or line break): the string scanner jumps from one backslash or control byte to the next.
    let mut i = 0;
    loop {
        match json::scan_string(b, i) {
            Stop::End => break,
            Stop::Quote(at) => i = at + 1,
            Stop::Control(at) => {
                if !matches!(b[at], b'\n' | b'\r' | b'\t') {
                    return false;
                }
                i = at + 1;
            }
            Stop::Backslash(at) => {
                let after = &b[at + 1..];
                match after {
                    [b'b' | b'f', ..] => return false,
                    [b'u', b'0', b'0', b'0' | b'1', _, ..]
                        if !matches!(&after[3..5], b"09" | b"0a" | b"0A" | b"0d" | b"0D") =>
                    {
                        return false
                    }
                    [] => return false,
                    _ => {}
                }
                i = at + 2;
            }
        }
    }
    true
}

/// Whether `text` is one fenced code block whose body is JSON.
fn fenced_json(text: &str) -> bool {
    let Some(fenced) = text.trim().strip_prefix("```") else {
        return false;
    };
    let Some(inner) = fenced.strip_suffix("```") else {
        return false;
    };
    inner
        .split_once('\n')
        .is_some_and(|(_, body)| is_json_container(body))
}

/// Two names close enough that one is likely a misspelling of the other: equal but for case, or
/// at most two edits apart (for names long enough that two edits mean something).
fn similar(a: &str, b: &str) -> bool {
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().min(b.len()) < 5 || a.len().abs_diff(b.len()) > 2 || a.len() > 64 || b.len() > 64 {
        return false;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()] <= 2
}

fn enum_hint(value: &str, allowed: &[&str]) -> String {
    let close = allowed.iter().find(|a| {
        a.eq_ignore_ascii_case(value)
            || a.replace('_', "")
                .eq_ignore_ascii_case(&value.replace(['_', '-', ' '], ""))
    });
    match close {
        Some(a) => format!(
            "Write exactly {a:?}; values are case- and spelling-sensitive. Allowed: {}.",
            allowed.join(", ")
        ),
        None => format!("Use one of: {}.", allowed.join(", ")),
    }
}

/// What a type wants, in words, for `expected`.
pub fn describe(ty: &Ty) -> String {
    match ty {
        Ty::Any => "any value".into(),
        Ty::Text { max } if *max == usize::MAX => "a string".into(),
        Ty::Text { max } => format!("a string of at most {max} chars"),
        Ty::NonBlank { min, max } if *max == usize::MAX => {
            format!("a string of at least {min} chars of text")
        }
        Ty::NonBlank { min, max } => format!("a string of {min} to {max} chars of text"),
        Ty::Enum(values) => format!("one of: {}", list_values(values)),
        Ty::Id(_) => "a string id".into(),
        Ty::Content(rule) => format!("a string of at least {} chars of plain text", rule.min),
        Ty::Int { min, max } => format!("an integer from {min} to {max}"),
        Ty::Number { min, max, integer } => {
            let what = if *integer { "an integer" } else { "a number" };
            match (min, max) {
                (Some(a), Some(b)) => format!("{what} from {a} to {b}"),
                (Some(a), None) => format!("{what} of at least {a}"),
                (None, Some(b)) => format!("{what} of at most {b}"),
                (None, None) => what.to_string(),
            }
        }
        Ty::Bool => "true or false".into(),
        Ty::Array { .. } => "an array".into(),
        Ty::Object(_) | Ty::Map(_) | Ty::Union(_) => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::{content_problem, eq_bytes, plainly_text};
    use crate::validate::shape::ContentRule;
    use proptest::prelude::*;

    /// A content rule of 50 to 100,000 chars.
    static RULE: ContentRule = ContentRule {
        min: 50,
        max: 100_000,
        too_short_hint: "longer",
        too_long_hint: "shorter",
    };
    const CONTENT_MIN: usize = RULE.min;

    /// A text as it stands inside a JSON string (escaped, without the quotes), and whether it has
    /// an escape.
    fn raw_of(text: &str) -> (String, bool) {
        let quoted = serde_json::to_string(text).unwrap();
        let raw = quoted[1..quoted.len() - 1].to_string();
        let esc = raw.contains('\\');
        (raw, esc)
    }

    proptest! {
        /// The fast path never lets through what the exact check refuses: any mix of text,
        /// blanks (ASCII and not), JSON and fence openers, control characters and escapes.
        #[test]
        fn the_fast_path_passes_only_what_the_exact_check_passes(
            parts in prop::collection::vec(prop::sample::select(vec![
                "a", "Plan ", "# Title\n\n", " ", "\n", "\t", "\r\n", "\u{a0}", "\u{3000}",
                "{", "}", "[", "]", "\"", "\\", "```", "```json\n", "é", "—", "\u{0}", "\u{8}",
                "\u{c}", "\u{1f}", "\u{7f}", "{\"a\":1}", "😀",
            ]), 0..80)
        ) {
            let text: String = parts.concat();
            let (raw, esc) = raw_of(&text);
            if plainly_text(&raw, CONTENT_MIN) {
                prop_assert!(content_problem(&RULE, "content", &raw, esc).is_none(), "{text:?}");
            }
        }
    }

    #[test]
    fn an_ordinary_content_takes_the_fast_path() {
        let text = "# Agenda\n\n- 09:00 Welcome and goals — \"why we are here\"\n- 09:30 Input\tand café\n";
        let (raw, esc) = raw_of(&text.repeat(3));
        assert!(esc);
        assert!(plainly_text(&raw, CONTENT_MIN));
        for refused in [
            format!("{{\"a\": \"{}\"}}", "x".repeat(60)),
            format!("```json\n{{\"a\": \"{}\"}}\n```", "x".repeat(60)),
            format!("{}\u{0}", "x".repeat(60)),
            format!("{}\u{8}", "x".repeat(60)),
            "short".to_string(),
        ] {
            let (raw, esc) = raw_of(&refused);
            assert!(!plainly_text(&raw, CONTENT_MIN), "{refused:?}");
            assert!(
                content_problem(&RULE, "content", &raw, esc).is_some(),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn eq_bytes_is_slice_equality_at_every_length() {
        let base: Vec<u8> = (b'a'..=b'z').collect();
        for n in 0..base.len() {
            let a = &base[..n];
            assert!(eq_bytes(a, a), "{n}");
            assert!(!eq_bytes(a, &base[..n + 1]), "{n} vs longer");
            for flip in 0..n {
                let mut b = a.to_vec();
                b[flip] ^= 0x20;
                assert!(!eq_bytes(a, &b), "{n}: byte {flip} differs");
            }
        }
    }
}
