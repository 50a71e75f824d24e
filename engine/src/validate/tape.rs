//! A checked answer as a *tape*: a flat list of numbers from which JS builds the parsed value
//! without parsing the text again.
//!
//! `validateStep` hands back the parsed answer. `JSON.parse` on the caller's string costs more
//! than the whole check (it scans and copies every string of a two-byte text). Once the check has
//! passed, the text is known to be valid JSON, so the JS API has the checker write this tape as
//! it goes — no allocation per value — and a small JS builder makes the objects from it: each string is
//! `raw.slice(start, end)` of the caller's own string (V8 shares the characters instead of
//! copying them), each key an interned string from the kind's [`TapeKeys::names`]. The tape gives positions in
//! UTF-16 units, the JS string's own indexing.
//!
//! Words, one value after another in document order:
//! - [`OBJECT`] `n`, then `n` times: a key id (index into [`TapeKeys::names`]) and the field's value;
//! - [`ARRAY`] `n`, then `n` values;
//! - [`STRING`] / [`STRING_ESCAPED`] `start end` (the characters between the quotes; an escaped
//!   one is unescaped by `JSON.parse` of just that string);
//! - [`NUMBER`] `start end` (the number's text);
//! - [`TRUE`], [`FALSE`], [`NULL`].
//!
//! The checker writes the tape while it checks (see [`crate::validate::check_answer_with_tape`]),
//! so it costs no second pass. A key that is not one of the schemas' field names (an unknown
//! field, a free `personas` key, an escaped key) makes it give up: the caller then uses
//! `JSON.parse`, which is always right.

use super::shape::{Obj, Ty};

/// Tag of an object: `OBJECT n`, then `n` × (key id, value).
pub const OBJECT: u32 = 1;
/// Tag of an array: `ARRAY n`, then `n` values.
pub const ARRAY: u32 = 2;
/// Tag of a string without escapes: `STRING start end` in UTF-16 units.
pub const STRING: u32 = 3;
/// Tag of a string with escapes: `STRING_ESCAPED start end`.
pub const STRING_ESCAPED: u32 = 4;
/// Tag of a number: `NUMBER start end`.
pub const NUMBER: u32 = 5;
/// `true`.
pub const TRUE: u32 = 6;
/// `false`.
pub const FALSE: u32 = 7;
/// `null`.
pub const NULL: u32 = 8;

/// A kind's key table: every field name of its answers in a fixed order (a key's id on the tape
/// is its index here; the JS side interns these once), and an open-addressing hash of them for
/// the lookup per key. Built once by the kind that hands its answers' values over as a tape.
#[derive(Debug)]
pub struct TapeKeys {
    names: Vec<&'static str>,
    /// `slot → id + 1` (0: empty).
    slots: Vec<u16>,
}

const SLOTS: usize = 1024;

impl TapeKeys {
    /// The key table of every field name the objects `roots` (and what they hold) name, in the
    /// order first met.
    pub fn new(roots: impl IntoIterator<Item = &'static Obj>) -> TapeKeys {
        let mut names: Vec<&'static str> = Vec::new();
        let mut seen: Vec<*const Obj> = Vec::new();
        for obj in roots {
            collect_obj(obj, &mut names, &mut seen);
        }
        assert!(names.len() < SLOTS, "more keys than the table has slots");
        let mut slots = vec![0u16; SLOTS];
        for (id, name) in names.iter().enumerate() {
            let mut slot = hash(name.as_bytes());
            while slots[slot] != 0 {
                slot = (slot + 1) % SLOTS;
            }
            slots[slot] = id as u16 + 1;
        }
        TapeKeys { names, slots }
    }

    /// The field names; a key's id on the tape is its index here.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// The id of a key, if it is one of [`TapeKeys::names`].
    #[inline]
    fn id(&self, key: &[u8]) -> Option<u32> {
        let mut slot = hash(key);
        loop {
            let id = self.slots[slot];
            if id == 0 {
                return None;
            }
            if same(self.names[usize::from(id - 1)].as_bytes(), key) {
                return Some(u32::from(id - 1));
            }
            slot = (slot + 1) % SLOTS;
        }
    }
}

fn collect_obj(obj: &'static Obj, names: &mut Vec<&'static str>, seen: &mut Vec<*const Obj>) {
    if seen.contains(&(obj as *const Obj)) {
        return;
    }
    seen.push(obj);
    for field in obj.fields {
        if !names.contains(&field.name) {
            names.push(field.name);
        }
        collect_ty(&field.ty, names, seen);
    }
}

fn collect_ty(ty: &'static Ty, names: &mut Vec<&'static str>, seen: &mut Vec<*const Obj>) {
    match ty {
        Ty::Object(obj) => collect_obj(obj, names, seen),
        Ty::Array { item, .. } | Ty::Map(item) => collect_ty(item, names, seen),
        Ty::Union(u) => {
            if !names.contains(&u.tag) {
                names.push(u.tag);
            }
            for (_, obj) in u.variants {
                collect_obj(obj, names, seen);
            }
        }
        _ => {}
    }
}

/// FNV-1a of the key's bytes, folded to a slot.
#[inline(always)]
fn hash(key: &[u8]) -> usize {
    let h = key.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    (h ^ (h >> 16)) as usize % SLOTS
}

/// Byte equality for short keys, inline (no `memcmp` call per key).
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The tape being written while the checker walks an answer. The checker calls these as it
/// meets each value; anything the tape cannot say (a key that is no field name, an escaped key)
/// makes it give up, and the JS API then uses `JSON.parse`.
pub struct Tape<'t> {
    words: &'t mut Vec<u32>,
    /// The kind's key table.
    keys: &'static TapeKeys,
    /// Set when the tape cannot describe the answer.
    given_up: bool,
    /// While > 0 the checker is looking ahead (a union's tag): nothing is written.
    paused: u32,
    /// After each non-ASCII char: its end (byte offset) and how many more bytes than UTF-16
    /// units the text has up to there ([`non_ascii_marks`]).
    marks: Vec<(usize, usize)>,
    /// The next mark to pass, and the difference at the last one passed.
    mark: usize,
    adjust: usize,
}

impl<'t> Tape<'t> {
    /// A tape for `text`, written into `words` (cleared first).
    pub fn new(text: &str, words: &'t mut Vec<u32>, keys: &'static TapeKeys) -> Tape<'t> {
        words.clear();
        words.reserve(text.len() / 4);
        Tape {
            words,
            keys,
            given_up: false,
            paused: 0,
            marks: non_ascii_marks(text.as_bytes()),
            mark: 0,
            adjust: 0,
        }
    }

    /// A tape that has given up before it started (the text is not the caller's own).
    pub fn refused(words: &'t mut Vec<u32>, keys: &'static TapeKeys) -> Tape<'t> {
        words.clear();
        Tape {
            words,
            keys,
            given_up: true,
            paused: 0,
            marks: Vec::new(),
            mark: 0,
            adjust: 0,
        }
    }

    #[inline(always)]
    fn on(&self) -> bool {
        self.paused == 0 && !self.given_up
    }

    /// The UTF-16 offset of byte offset `p` (never less than one asked before, never inside a
    /// char).
    #[inline(always)]
    fn utf16(&mut self, p: usize) -> u32 {
        while let Some(&(at, adjust)) = self.marks.get(self.mark) {
            if at > p {
                break;
            }
            self.adjust = adjust;
            self.mark += 1;
        }
        (p - self.adjust) as u32
    }
}

/// What the checker reports of each value it reads: nothing ([`NoTape`], the plain check) or
/// the value tape ([`Tape`]). A type parameter of the checker, so the plain check — all the
/// browser app runs — compiles with no trace of the tape.
pub trait Emit {
    /// A string whose characters are bytes `start..end` of the text.
    fn string(&mut self, _start: usize, _end: usize, _escaped: bool) {}
    /// A number written as bytes `start..end`.
    fn number(&mut self, _start: usize, _end: usize) {}
    /// `true`, `false` or `null`.
    fn literal(&mut self, _tag: u32) {}
    /// Opens an object or array; the returned slot gets its count from [`Emit::close`].
    fn open(&mut self, _tag: u32) -> usize {
        0
    }
    /// Closes what [`Emit::open`] opened, with `n` entries.
    fn close(&mut self, _slot: usize, _n: usize) {}
    /// A key, as one of the kind's [`TapeKeys::names`]; any other key makes the tape give up.
    fn key(&mut self, _name: &str) {}
    /// The answer has something the tape cannot say.
    fn give_up(&mut self) {}
    /// Stops writing while the checker looks ahead; [`Emit::resume`] undoes it.
    fn pause(&mut self) {}
    /// See [`Emit::pause`].
    fn resume(&mut self) {}
    /// Whether the tape describes the whole answer.
    fn complete(&self) -> bool {
        false
    }
}

/// The plain check: no tape.
pub struct NoTape;

impl Emit for NoTape {}

impl Emit for Tape<'_> {
    #[inline(always)]
    fn string(&mut self, start: usize, end: usize, escaped: bool) {
        if self.on() {
            let (s, e) = (self.utf16(start), self.utf16(end));
            let tag = if escaped { STRING_ESCAPED } else { STRING };
            self.words.extend_from_slice(&[tag, s, e]);
        }
    }

    #[inline(always)]
    fn number(&mut self, start: usize, end: usize) {
        if self.on() {
            let (s, e) = (self.utf16(start), self.utf16(end));
            self.words.extend_from_slice(&[NUMBER, s, e]);
        }
    }

    #[inline(always)]
    fn literal(&mut self, tag: u32) {
        if self.on() {
            self.words.push(tag);
        }
    }

    #[inline(always)]
    fn open(&mut self, tag: u32) -> usize {
        if self.on() {
            self.words.extend_from_slice(&[tag, 0]);
        }
        self.words.len().wrapping_sub(1)
    }

    #[inline(always)]
    fn close(&mut self, slot: usize, n: usize) {
        if self.on() {
            if let Some(count) = self.words.get_mut(slot) {
                *count = n as u32;
            }
        }
    }

    #[inline(always)]
    fn key(&mut self, name: &str) {
        if self.on() {
            match self.keys.id(name.as_bytes()) {
                Some(id) => self.words.push(id),
                None => self.given_up = true,
            }
        }
    }

    fn give_up(&mut self) {
        self.given_up = true;
    }

    fn pause(&mut self) {
        self.paused += 1;
    }

    fn resume(&mut self) {
        self.paused -= 1;
    }

    fn complete(&self) -> bool {
        !self.given_up && self.paused == 0
    }
}

/// Where the text's non-ASCII chars end and how far byte and UTF-16 offsets are apart after each:
/// one pass, eight ASCII bytes a step (answers are mostly ASCII).
fn non_ascii_marks(b: &[u8]) -> Vec<(usize, usize)> {
    let mut marks = Vec::new();
    let (mut i, mut adjust) = (0, 0);
    while i < b.len() {
        if let Some(word) = b.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or([0x80; 8]));
            if word & 0x8080_8080_8080_8080 == 0 {
                i += 8;
                continue;
            }
        }
        let (len, units) = match b[i] {
            0..=0x7F => (1, 1),
            0xC0..=0xDF => (2, 1),
            0xE0..=0xEF => (3, 1),
            0xF0.. => (4, 2),
            // A continuation byte cannot start a char in valid UTF-8 (the text is a `&str`).
            _ => (1, 1),
        };
        i += len;
        if len > 1 {
            adjust += len - units;
            marks.push((i, adjust));
        }
    }
    marks
}
