//! The validator with a made-up kind it has never heard of: everything kind-specific — the tag a
//! step allows and the words for one it does not, a long text's rule, the id rules, the tape's
//! keys — comes in as data, and is used as given. (Each kind's own answers are tested in its
//! folder.)

use std::borrow::Cow;

use super::check::{describe, At, IdScope, NoIds, Root};
use super::shape::{ContentRule, Field, Obj, TaggedRoot, Ty, Union};
use super::tape::{self, TapeKeys};
use super::*;

/// A long text of 5 to 20 chars, with the kind's own hints.
static NOTE: ContentRule = ContentRule {
    min: 5,
    max: 20,
    too_short_hint: "Say more.",
    too_long_hint: "Say less.",
};

static ASK: Obj = Obj {
    fields: &[
        Field {
            name: "kind",
            ty: Ty::Enum(&["ask"]),
            required: true,
            nullable: false,
        },
        Field {
            name: "note",
            ty: Ty::Content(&NOTE),
            required: true,
            nullable: false,
        },
        Field {
            name: "refs",
            ty: Ty::Array {
                item: &Ty::Id(7),
                min: 0,
                max: usize::MAX,
            },
            required: false,
            nullable: false,
        },
    ],
};

/// The first step of the made-up kind: only `ask` here; `tell` is another step's.
static FIRST: TaggedRoot = TaggedRoot {
    union: Union {
        tag: "kind",
        variants: &[("ask", &ASK)],
    },
    every_value: &["ask", "tell"],
    step_title: "Opening",
    refused_hint: "Only the closing step may tell.",
};

/// Ids are `r1`…; an id named twice in one answer is refused. Remembers what it saw, so a scope
/// reused across walks would refuse every id of the second walk.
#[derive(Default)]
struct Refs<'a> {
    seen: Vec<Cow<'a, str>>,
}

impl<'a> IdScope<'a> for Refs<'a> {
    fn id(&mut self, kind: u8, id: Cow<'a, str>, at: &mut At<'_, 'a>) {
        assert_eq!(kind, 7, "the number the kind's table gave");
        let problem = if !id.starts_with('r') {
            Some("names no ref")
        } else if self.seen.contains(&id) {
            Some("is named twice")
        } else {
            None
        };
        if let Some(problem) = problem {
            let message = format!("{id} {problem}");
            at.error(Violation::new(
                at.pointer(),
                message,
                "a ref".into(),
                id.to_string(),
                "Name each ref once.".into(),
            ));
        }
        self.seen.push(id);
    }
}

struct RefRules;

impl IdRules for RefRules {
    fn scope<'a>(&'a self) -> Box<dyn IdScope<'a> + 'a> {
        Box::<Refs<'a>>::default()
    }
}

fn check(raw: &str) -> Verdict<'_> {
    check_answer(Root::Tagged(&FIRST), raw, &RefRules, Options::default())
}

#[test]
fn a_valid_answer_passes_borrowed() {
    let v = check(r#"{"kind": "ask", "note": "plain words", "refs": ["r1", "r2"]}"#);
    assert!(v.is_ok(), "{:?}", v.errors);
    assert!(matches!(v.json, Cow::Borrowed(_)));
}

#[test]
fn a_tag_another_step_allows_is_refused_in_the_kinds_words() {
    let v = check(r#"{"kind": "tell", "note": "plain words"}"#);
    let e = &v.errors[0];
    assert_eq!(e.path, "/kind");
    assert_eq!(e.message, "kind tell is not allowed on the Opening step");
    assert_eq!(
        e.hint,
        "Only the closing step may tell. Answer with ask instead."
    );
    assert_eq!(e.expected, "one of: ask");
    // A value no step allows is an unknown value, not the kind's refusal.
    let v = check(r#"{"kind": "shout", "note": "plain words"}"#);
    assert_eq!(
        v.errors[0].message,
        "kind \"shout\" is not one of the allowed values"
    );
}

#[test]
fn a_long_text_is_held_to_the_kinds_rule_and_named_by_its_field() {
    let short = check(r#"{"kind": "ask", "note": "hi"}"#);
    assert_eq!(short.errors[0].path, "/note");
    assert_eq!(
        short.errors[0].message,
        "note has 2 chars of text; it needs at least 5"
    );
    assert_eq!(short.errors[0].hint, "Say more.");
    let long = check(r#"{"kind": "ask", "note": "twenty-one chars long"}"#);
    assert_eq!(
        long.errors[0].message,
        "note is 21 chars long; the limit is 20"
    );
    assert_eq!(long.errors[0].hint, "Say less.");
    let json = check(r#"{"kind": "ask", "note": "{\"a\": \"bcdefgh\"}"}"#);
    assert_eq!(json.errors[0].message, "note is JSON, not plain text");
    assert_eq!(
        describe(&ASK.fields[1].ty),
        "a string of at least 5 chars of plain text"
    );
}

#[test]
fn the_kinds_id_rules_judge_every_id_with_a_fresh_scope_per_walk() {
    let v = check(r#"{"kind": "ask", "note": "plain words", "refs": ["r1", "x", "r1"]}"#);
    let got: Vec<(&str, &str)> = v
        .errors
        .iter()
        .map(|e| (e.path.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("/refs/1", "x names no ref"),
            ("/refs/2", "r1 is named twice")
        ]
    );
    // A trailing comma: the raw text is walked, fails, and its repair is walked again — with a
    // new scope, or `r1` would be "named twice" by the second walk.
    let v = check(r#"{"kind": "ask", "note": "plain words", "refs": ["r1"],}"#);
    assert!(v.is_ok(), "{:?}", v.errors);
    assert!(matches!(v.json, Cow::Owned(_)));
    assert!(!v.warnings.is_empty(), "the repair is said");
}

#[test]
fn an_answer_with_no_tag_and_no_ids_is_checked_against_its_object() {
    let v = check_object(&ASK, r#"{"kind": "ask"}"#, Options::default());
    assert_eq!(v.errors.len(), 1);
    assert_eq!(v.errors[0].path, "/note");
    let v = check_answer(
        Root::Object(&ASK),
        r#"{"kind": "ask", "note": "plain words", "refs": ["anything"]}"#,
        &NoIds,
        Options::default(),
    );
    assert!(v.is_ok(), "no id rules: {:?}", v.errors);
}

#[test]
fn the_tape_uses_the_kinds_keys() {
    let keys: &'static TapeKeys = Box::leak(Box::new(TapeKeys::new([&ASK])));
    assert_eq!(keys.names(), ["kind", "note", "refs"]);
    let raw = r#"{"kind": "ask", "note": "plain words"}"#;
    let mut words = Vec::new();
    let (v, complete) = check_answer_with_tape(
        Root::Tagged(&FIRST),
        raw,
        &RefRules,
        Options::default(),
        keys,
        &mut words,
    );
    assert!(v.is_ok() && complete);
    // OBJECT 2, key 0 (kind) STRING…, key 1 (note) STRING…
    assert_eq!((words[0], words[1], words[2]), (tape::OBJECT, 2, 0));
    assert_eq!(words[6], 1);
    // A key the kind's table lacks makes the tape give up; the caller parses the text.
    let other: &'static TapeKeys = Box::leak(Box::new(TapeKeys::new(std::iter::empty())));
    let mut words = Vec::new();
    let (_, complete) = check_answer_with_tape(
        Root::Tagged(&FIRST),
        raw,
        &RefRules,
        Options::default(),
        other,
        &mut words,
    );
    assert!(!complete);
}

#[test]
fn a_report_names_the_kinds_step_by_its_own_type() {
    let report = Report::from_verdict("opening", check(r#"{"kind": "ask"}"#));
    assert_eq!(report.step, "opening");
    assert_eq!(
        report.to_string(),
        "invalid opening answer: /note: missing required field note"
    );
}
