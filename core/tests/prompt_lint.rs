//! The prompt linter: every prompt of every kind, as the demo model's scripted sessions send
//! them (a team session with a question, every step, its repairs; a meeting with every phase and
//! its minutes), read against the call's own answer schema and session:
//!
//! - **invites**: every key of every JSON example, and every camelCase field named in the
//!   output rules, is a property of the call's schema (a prompt never asks for a field the
//!   schema drops or a strict provider refuses);
//! - **explains**: every field of the step's answer is named somewhere in the prompt (required
//!   or not: a field nobody explains is one the model cannot fill well);
//! - **valid examples**: every whole-answer example parses and, submitted to a copy of the
//!   session, is applied (or, for `request_context`, served);
//! - **ids**: every id an example names is one the call may name, and a `full_content` request
//!   names a product that has a version (else it can only answer "no version yet");
//! - **once**: no instruction sentence appears twice, and no condition ("if something essential
//!   is missing") leads to two instructions;
//! - **cuts**: every cut text ends at a whole word, with a marker saying what was left out.
//!
//! The scripted sessions answer the first call of every step wrongly once (in turn: prose with
//! no JSON, a required field left out, a field of the wrong type), so the repair prompt of every
//! step is linted the same way, read in the conversation it is appended to; a repair names only
//! fields of the answer.
//!
//! A later kind plugs in by adding its scripted session to [`sessions`].
#![allow(clippy::disallowed_methods)] // reads the committed schema files

mod demo_common;

use std::collections::{BTreeMap, BTreeSet};

use demo_common::demo_ref;
use roundtable_core::engine::{CallKind, ChatRole, ModelCall, Outcome};
use roundtable_core::protocol::meeting::MeetingConfig;
use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::session::Session;
use serde_json::Value;

/// One prompt as sent, with the session it was sent in (to submit examples to a copy).
struct Sent {
    call: ModelCall,
    session: Session,
    now: u64,
}

/// Every call of a scripted demo team session, with the session at the time.
fn team_session() -> Vec<Sent> {
    let mut out = Vec::new();
    let team = TeamConfig::standard(
        "Plan a half-day workshop for twenty people on customer interviews.",
        3,
        true,
        true,
        demo_ref(),
    );
    play(Session::new_team(team, 0).unwrap(), &mut out);
    out
}

/// Every call of a scripted demo meeting of four (more than the turns of a phase), with the
/// session at the time.
fn meeting_session() -> Vec<Sent> {
    let mut out = Vec::new();
    let meeting = MeetingConfig::standard(
        "Pick a database for the notes app.\nWe have 3 weeks and a budget of £200 a month.",
        &[
            ("engineer-1", "Ana", "Backend engineer"),
            ("designer-1", "Bo", "Product designer"),
            ("pm-1", "Cy", "Product manager"),
            ("qa-1", "Di", "Quality engineer"),
        ],
        demo_ref(),
    );
    play(Session::new_meeting(meeting, 0).unwrap(), &mut out);
    out
}

/// Plays a session to done on the demo model's answers, except that the first call of each step
/// is first answered wrongly ([`spoil`]), so the session also sends the repair prompt of every
/// step (a step whose wrong answer falls back to a rule instead, 001's Decide, sends none).
fn play(mut s: Session, out: &mut Vec<Sent>) {
    let mut now = 1;
    let mut spoiled = BTreeSet::new();
    let mut fell_back = BTreeSet::new();
    s.start(now).unwrap();
    for _ in 0..3_000 {
        now += 1;
        if s.question().is_some() {
            s.answer_halt("Half a day, twenty people, a budget of 300 pounds.", now)
                .unwrap();
            continue;
        }
        if !s.is_running() {
            break;
        }
        for call in s.next_calls() {
            out.push(Sent {
                call: call.clone(),
                session: s.clone(),
                now,
            });
            let reply = call.demo.clone().unwrap();
            if call.kind == CallKind::Initial && spoiled.insert(call.step) {
                match spoil(&s, &call, &reply.text, spoiled.len(), now) {
                    Some(wrong) => {
                        s.submit(&call.id, &wrong, None, now).unwrap();
                        continue;
                    }
                    None => {
                        fell_back.insert(call.step);
                    }
                }
            }
            s.submit(&call.id, &reply.text, None, now).unwrap();
        }
    }
    assert_eq!(s.status_word(), "done");
    let repaired: BTreeSet<&str> = out
        .iter()
        .filter(|o| o.call.kind == CallKind::Repair)
        .map(|o| o.call.step)
        .collect();
    assert_eq!(
        repaired,
        &spoiled - &fell_back,
        "every step got its repair prompt"
    );
    assert!(
        fell_back.iter().all(|step| *step == "meeting_decision"),
        "{fell_back:?}"
    );
}

/// A wrong answer to `call` in place of the demo's `right` one, the `n`th way in turn (prose with
/// no JSON, a required field left out, a field of a wrong type, a field the schema has not): the
/// first candidate a copy of the session refuses with a repair, trying the other ways after.
/// `None` when the step falls back to its rule instead of asking for a repair.
fn spoil(s: &Session, call: &ModelCall, right: &str, n: usize, now: u64) -> Option<String> {
    // The demo sometimes wraps its answer (a fence, a sentence): the object is what matters.
    let object = &right[right.find('{').unwrap_or(0)..=right.rfind('}').unwrap_or(0)];
    let answer: serde_json::Map<String, Value> = serde_json::from_str(object).unwrap_or_default();
    let fields: Vec<&String> = answer.keys().filter(|k| *k != "responseType").collect();
    let with = |change: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut a = answer.clone();
        change(&mut a);
        Value::Object(a).to_string()
    };
    let way = |w: usize| -> Vec<String> {
        match w % 4 {
            0 => vec!["I think the plan is fine as it is; nothing to change.".into()],
            1 => fields
                .iter()
                .map(|f| with(&|a| drop(a.remove(*f))))
                .collect(),
            2 => fields
                .iter()
                .map(|f| with(&|a| drop(a.insert((*f).clone(), Value::from(42)))))
                .collect(),
            _ => vec![with(&|a| {
                a.insert("extraNotes".into(), Value::from("also this"));
            })],
        }
    };
    let mut fell_back = false;
    let wrong = (n..n + 4).flat_map(way).find(|wrong| {
        let mut copy = s.clone();
        match copy.submit(&call.id, wrong, None, now) {
            Ok(Outcome::Invalid { .. }) => true,
            Ok(Outcome::FellBack { .. }) => {
                fell_back = true;
                false
            }
            _ => false,
        }
    });
    assert!(
        wrong.is_some() || fell_back,
        "no wrong answer to {} is refused",
        call.step
    );
    wrong.filter(|_| !fell_back)
}

fn schema(step: &str) -> Value {
    let path = format!("{}/schemas/{step}.plain.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every key of a JSON value, at any depth.
fn keys(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.insert(k.clone());
                keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

/// Every JSON object written in a text (balanced braces that parse).
fn examples(text: &str) -> Vec<Value> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            let (mut depth, mut in_str, mut esc) = (0i32, false, false);
            let mut end = None;
            for (j, &c) in b.iter().enumerate().skip(i) {
                if in_str {
                    match (esc, c) {
                        (true, _) => esc = false,
                        (false, b'\\') => esc = true,
                        (false, b'"') => in_str = false,
                        _ => {}
                    }
                    continue;
                }
                match c {
                    b'"' => in_str = true,
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(j);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            if let Some(e) = end {
                if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(&text[i..=e]) {
                    if v.as_object().is_some_and(|m| !m.is_empty()) {
                        out.push(v);
                        i = e + 1;
                        continue;
                    }
                }
            }
        }
        i += 1;
    }
    out
}

/// camelCase words (field names) in a text.
fn camel_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| {
            let mut cs = w.chars();
            cs.next().is_some_and(|c| c.is_ascii_lowercase())
                && w.chars().any(|c| c.is_ascii_uppercase())
                && w.chars().all(|c| c.is_ascii_alphanumeric())
        })
        .map(str::to_string)
        .collect()
}

fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        let edge = |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        edge(before) && edge(after)
    })
}

/// The fields of a step's answer: the properties reachable from the schema's root (a shared
/// definition the step never uses, such as `Halt` on a step without halt, does not count), in
/// the answer forms the prompt offers (`offered`: the `responseType`s it names; a form the
/// prompt does not offer need not be explained).
fn answer_fields(step: &str, offered: &dyn Fn(&str) -> bool) -> BTreeSet<String> {
    let root = schema(step);
    let mut all = BTreeSet::new();
    let mut seen = BTreeSet::new();
    match root.get("oneOf").and_then(Value::as_array) {
        Some(branches) => {
            for b in branches {
                let form = b["properties"]["responseType"]["const"].as_str();
                if form.is_none_or(offered) {
                    reachable(&root, b, &mut all, &mut seen);
                }
            }
        }
        None => reachable(&root, &root, &mut all, &mut seen),
    }
    all
}

fn reachable(root: &Value, v: &Value, out: &mut BTreeSet<String>, seen: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                if seen.insert(r.to_string()) {
                    let name = r.trim_start_matches("#/$defs/");
                    reachable(root, &root["$defs"][name], out, seen);
                }
            }
            if let Some(Value::Object(props)) = m.get("properties") {
                out.extend(props.keys().cloned());
            }
            for (k, x) in m {
                if k != "$defs" {
                    reachable(root, x, out, seen);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| reachable(root, x, out, seen)),
        _ => {}
    }
}

/// The ids the call may name, at any place.
fn call_ids(call: &ModelCall) -> BTreeSet<String> {
    call.ids
        .iter()
        .flat_map(|c| c.ids.iter().cloned())
        .collect()
}

fn looks_like_id(s: &str) -> bool {
    let num = |p: &str| {
        s.strip_prefix(p)
            .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
    };
    num("p") || num("v") || num("c") || s == "user-1"
}

/// The prompt's own lines: not what members wrote (quotes, a meeting's transcript, the tree's
/// indented content, listed state).
fn instructions(text: &str) -> String {
    let mut out = String::new();
    let mut transcript = false;
    for line in text.lines() {
        if line.starts_with("# ") {
            transcript = line.starts_with("# Transcript");
        }
        let t = line.trim_start();
        if transcript
            || line.starts_with(' ')
            || t.starts_with(['>', '-', '#', '*', '_', '{', '['])
            || t.is_empty()
        {
            continue;
        }
        out.push_str(t);
        out.push('\n');
    }
    out
}

/// The instruction sentences of a system message (every line, rules included) or of a user
/// message (its own lines only).
fn sentences(text: &str, system: bool) -> Vec<String> {
    let mut out = Vec::new();
    let lines = if system {
        // Indented lines hold what members wrote (personas, responsibilities).
        text.lines()
            .filter(|l| !l.starts_with(' ') && !l.starts_with('{'))
            .map(|l| l.trim_start().trim_start_matches("- ").to_string())
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        instructions(text)
    };
    for t in lines.lines() {
        for s in t.split_inclusive(['.', '!', '?']) {
            let s = s.trim();
            if s.len() >= 25 {
                out.push(s.to_lowercase());
            }
        }
    }
    out
}

/// The conditions of a text: "if X," / "when X," / "if X:".
fn conditions(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    for key in ["if ", "when "] {
        for (i, _) in lower.match_indices(key) {
            if i > 0
                && lower[..i]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
            {
                continue;
            }
            let rest = &lower[i + key.len()..];
            let end = rest.find([',', ':', ';', '.', '(']).unwrap_or(rest.len());
            let cond = rest[..end].trim();
            if cond.split_whitespace().count() >= 3 {
                out.push(cond.to_string());
            }
        }
    }
    out
}

/// Findings of the linter on one prompt; `written` holds every answer the session's model
/// gave (an ellipsis the model wrote itself is not a cut of the prompt's).
fn lint(sent: &Sent, written: &[String]) -> Vec<String> {
    let call = &sent.call;
    let mut found = Vec::new();
    let at = format!("{} ({} of {})", call.id, call.step, call.member);
    let system = call
        .messages
        .iter()
        .find(|m| m.role == ChatRole::System)
        .map(|m| m.content.to_string())
        .unwrap_or_default();
    // The user's messages: the step's prompt, then (in a repair) the repair prompt; what the
    // model answered in between is its own, not the prompt's.
    let users: Vec<String> = call
        .messages
        .iter()
        .filter(|m| m.role == ChatRole::User)
        .map(|m| m.content.to_string())
        .collect();
    let user = users.first().cloned().unwrap_or_default();
    let whole = format!("{system}\n{}", users.join("\n"));
    let offered = |form: &str| system.contains(&format!("\"{form}\""));
    let fields = answer_fields(call.step, &offered);
    let ids = call_ids(call);

    // invites: keys of examples, field names in the rules.
    for ex in examples(&system) {
        let mut ks = BTreeSet::new();
        keys(&ex, &mut ks);
        // A map's keys are ids (personas by member id), not fields.
        let is_member = |k: &str| system.contains(&format!("- {k} ("));
        for k in ks.iter().filter(|k| !fields.contains(*k) && !is_member(k)) {
            found.push(format!(
                "{at}: invites `{k}`, not in the {} schema",
                call.step
            ));
        }
        // ids: every id-like value is one this call may name (or a new-N of the example).
        let mut values = Vec::new();
        strings(&ex, &mut values);
        for v in values.iter().filter(|v| looks_like_id(v)) {
            if !ids.is_empty() && !ids.contains(*v) && *v != "user-1" {
                found.push(format!(
                    "{at}: the example names {v}, which this call cannot name"
                ));
            }
        }
        // A full_content request for a product with no version can only answer "no version".
        for r in ex
            .get("contextRequests")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let p = r["productId"].as_str().unwrap_or_default();
            // A line of the tree: `- p1 "Name" [Content, pending] owner: …` (pending: no
            // version yet).
            let listed_without_version = user.lines().find(|l| {
                l.trim_start().starts_with(&format!("- {p} \"")) && l.contains(", pending]")
            });
            if let Some(line) = listed_without_version.filter(|_| r["need"] == "full_content") {
                found.push(format!(
                    "{at}: the request_context example asks for the full content of {p}, which has no version: {line}"
                ));
            }
        }
        // An example teaches the move the state calls for: it assigns the pending products the
        // prompt lists before it adds a placeholder, and its directive carries the chair's
        // personal note (003: every directive has one).
        let pending: Vec<String> = user
            .lines()
            .filter(|l| l.contains(", pending]") && !l.trim_start().starts_with("- p0 "))
            .filter_map(|l| {
                l.trim_start()
                    .strip_prefix("- ")?
                    .split(' ')
                    .next()
                    .map(String::from)
            })
            .collect();
        if let Some(assignments) = ex.get("assignments").and_then(Value::as_array) {
            let named: Vec<&str> = assignments
                .iter()
                .filter_map(|a| a["productId"].as_str())
                .collect();
            if !pending.is_empty() && !named.iter().any(|n| pending.iter().any(|p| p == n)) {
                found.push(format!(
                    "{at}: the example assigns {named:?} while {pending:?} wait unassigned"
                ));
            }
            for a in assignments {
                if a["directive"].get("context").is_none() {
                    found.push(format!("{at}: the example's directive has no context"));
                }
            }
        }
        // valid examples: a whole answer is applied (or served) by a copy of the session.
        let whole_answer = ex.get("responseType").is_some()
            || (call.step.starts_with("meeting_")
                && ex.as_object().is_some_and(|m| {
                    let s = schema(call.step);
                    s["required"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .all(|r| m.contains_key(r))
                }));
        if whole_answer {
            let mut copy = sent.session.clone();
            let text = ex.to_string();
            match copy.submit(&call.id, &text, None, sent.now) {
                Ok(Outcome::Applied | Outcome::ContextServed | Outcome::AwaitingPerson) => {}
                Ok(Outcome::Invalid { report, .. } | Outcome::FellBack { report, .. }) => {
                    let final_required = system.contains("final output is required")
                        || user.contains("answer with your final output now");
                    if !(ex["responseType"] == "request_context" && final_required) {
                        found.push(format!(
                            "{at}: the example {text} is refused: {}",
                            serde_json::to_string(&report.errors).unwrap_or_default()
                        ));
                    }
                }
                Ok(other) => found.push(format!("{at}: the example {text} gives {other:?}")),
                Err(e) => found.push(format!("{at}: the example {text} errs: {e}")),
            }
        }
    }
    let rules = system
        .split("## Output structure")
        .nth(1)
        .unwrap_or(&system)
        .split("## Common mistakes")
        .next()
        .unwrap_or_default();
    for w in camel_words(&rules.replace("\\n", " ")) {
        if !fields.contains(&w) {
            found.push(format!(
                "{at}: the rules name `{w}`, not in the {} schema",
                call.step
            ));
        }
    }
    // A repair prompt names only the answer's own fields (what the model sent, quoted on its
    // `received:` lines, is the model's).
    if call.kind == CallKind::Repair {
        let repair = users.last().cloned().unwrap_or_default();
        let own: String = repair
            .lines()
            .filter(|l| !l.trim_start().starts_with("received:"))
            .collect::<Vec<_>>()
            .join("\n");
        for w in camel_words(&own) {
            if !fields.contains(&w) {
                found.push(format!(
                    "{at}: the repair names `{w}`, not in the {} schema",
                    call.step
                ));
            }
        }
    }
    // explains: every field of the answer is named.
    for f in &fields {
        if !has_word(&whole, f) {
            found.push(format!("{at}: the field `{f}` is never explained"));
        }
    }
    // once: no instruction twice, no condition with two instructions.
    let mut seen = BTreeMap::new();
    for s in sentences(&system, true)
        .into_iter()
        .chain(users.iter().flat_map(|u| sentences(u, false)))
    {
        *seen.entry(s).or_insert(0) += 1;
    }
    for (s, n) in seen.into_iter().filter(|(_, n)| *n > 1) {
        found.push(format!("{at}: said {n} times: {s}"));
    }
    let mut conds = BTreeMap::new();
    for c in conditions(&system)
        .into_iter()
        .chain(users.iter().flat_map(|u| conditions(&instructions(u))))
    {
        *conds.entry(c).or_insert(0) += 1;
    }
    for (c, n) in conds.into_iter().filter(|(_, n)| *n > 1) {
        found.push(format!(
            "{at}: the condition \"{c}\" leads to {n} instructions"
        ));
    }
    // cuts: a cut ends at a word, with a marker of what was left out.
    for (i, _) in whole.match_indices('…') {
        let before = whole[..i].chars().next_back();
        let after: String = whole[i + '…'.len_utf8()..].chars().take(40).collect();
        // The cut marker: "… (N more characters)" after a whole word (text::one_line), or
        // "[… N more characters]" on a line of its own (text::cut).
        let marked = after.starts_with(" (") && after.contains(" more character");
        let block = before == Some('[') && after.contains(" more character");
        // "new-1, new-2, …" and "…" as a placeholder value are not cuts.
        let placeholder = matches!(before, Some(' ' | '"')) && !marked;
        let head: String = whole[..i]
            .chars()
            .rev()
            .take(20)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let own = written.iter().any(|w| w.contains(&format!("{head}…")));
        if !placeholder && !marked && !block && !own {
            let ctx: String = whole[..i]
                .chars()
                .rev()
                .take(30)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            found.push(format!("{at}: a cut mid-word or unmarked: …{ctx}…{after}"));
        }
    }
    found
}

fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) => out.push(s),
        Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Lints every prompt of a session and says what it found, one line per distinct finding (the
/// same prompt text recurs call after call).
fn lint_all(sent: &[Sent], steps: &[&str]) {
    let seen: BTreeSet<&str> = sent.iter().map(|s| s.call.step).collect();
    for step in steps {
        assert!(seen.contains(step), "the session reaches {step}: {seen:?}");
    }
    if let Ok(dir) = std::env::var("PROMPT_LINT_DUMP") {
        for s in sent {
            let text: Vec<String> = s
                .call
                .messages
                .iter()
                .map(|m| format!("=== {:?} ===\n{}", m.role, m.content))
                .collect();
            let path = format!("{dir}/{}-{}.txt", s.call.id, s.call.step);
            std::fs::write(path, text.join("\n")).unwrap();
        }
    }
    let written: Vec<String> = sent
        .iter()
        .filter_map(|s| s.call.demo.as_ref())
        .map(|d| {
            serde_json::from_str::<Value>(&d.text).map_or(d.text.clone(), |v| {
                let mut all = Vec::new();
                strings(&v, &mut all);
                all.join("\n")
            })
        })
        .collect();
    let mut found: Vec<String> = sent.iter().flat_map(|s| lint(s, &written)).collect();
    let mut distinct = BTreeSet::new();
    found.retain(|f| {
        let key = f
            .split_once(": ")
            .map_or(f.as_str(), |(_, r)| r)
            .to_string();
        let step = f
            .split_once(" (")
            .map_or("", |(_, r)| r)
            .split(' ')
            .next()
            .unwrap_or("");
        distinct.insert(format!("{step} {key}"))
    });
    assert!(
        found.is_empty(),
        "{} findings:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn every_team_prompt_passes_the_linter() {
    lint_all(
        &team_session(),
        &[
            "bootstrap",
            "reflect",
            "plan_assign",
            "write",
            "peer_review",
            "inspection",
            "presentation",
        ],
    );
}

#[test]
fn every_meeting_prompt_passes_the_linter() {
    lint_all(
        &meeting_session(),
        &[
            "meeting_decision",
            "meeting_contribution",
            "meeting_minutes",
        ],
    );
}

/// The linter itself finds what it is for (a check that cannot fail is no check).
#[test]
fn the_linter_finds_a_stray_field_a_twice_said_sentence_and_a_cut_word() {
    assert_eq!(
        camel_words("optional: refersToVersion, addresseeIds; type"),
        ["addresseeIds", "refersToVersion"].map(String::from).into()
    );
    assert_eq!(examples("a {\"a\":{\"b\":1}} b {x} {\"c\":\"}\"}").len(), 2);
    assert_eq!(
        conditions(
            "If something essential is missing, halt. If something essential is missing, ask."
        ),
        vec!["something essential is missing"; 2]
    );
    let s = sentences(
        "Decide what happens next.\nDecide what happens next.\n- listed twice.",
        false,
    );
    assert_eq!(s.len(), 2);
}

/// `lint` itself, on a real prompt spoiled three ways: an example inviting a field the schema
/// has not, a rule said twice, and a text cut mid-word with no marker.
#[test]
fn lint_reports_a_spoiled_prompt() {
    let sent = team_session()
        .into_iter()
        .find(|s| s.call.step == "plan_assign")
        .expect("a PlanAssign prompt");
    assert!(lint(&sent, &[]).is_empty(), "{:?}", lint(&sent, &[]));
    let mut spoiled = Sent {
        call: sent.call.clone(),
        session: sent.session.clone(),
        now: sent.now,
    };
    let system = spoiled
        .call
        .messages
        .iter_mut()
        .find(|m| m.role == ChatRole::System)
        .expect("a system message");
    let text = format!(
        "{}\nStray, for example:\n{{\"responseType\":\"final_output\",\"strayField\":[]}}\n- Accept a version that meets its dod; reject with a reason the writer can act on.\nThe agenda is cut here wi…\n",
        system.content
    );
    system.content = text.as_str().into();
    let found = lint(&spoiled, &[]).join("\n");
    assert!(found.contains("invites `strayField`"), "{found}");
    assert!(found.contains("said 2 times"), "{found}");
    assert!(found.contains("a cut mid-word or unmarked"), "{found}");
}

/// `lint` reads the repair prompts too: a real one is clean, and one spoiled with a field the
/// schema has not, an instruction the prompt already gave, and a cut word is reported.
#[test]
fn lint_reports_a_spoiled_repair_prompt() {
    let sent = team_session()
        .into_iter()
        .find(|s| s.call.kind == CallKind::Repair && s.call.step == "plan_assign")
        .expect("a PlanAssign repair prompt");
    assert!(lint(&sent, &[]).is_empty(), "{:?}", lint(&sent, &[]));
    let mut spoiled = Sent {
        call: sent.call.clone(),
        session: sent.session.clone(),
        now: sent.now,
    };
    let first = spoiled
        .call
        .messages
        .iter()
        .find(|m| m.role == ChatRole::User)
        .map(|m| m.content.to_string())
        .expect("the step's prompt");
    let repeated = sentences(&first, false)
        .into_iter()
        .next()
        .expect("an instruction sentence");
    let repair = spoiled
        .call
        .messages
        .iter_mut()
        .rev()
        .find(|m| m.role == ChatRole::User)
        .expect("the repair prompt");
    let text = format!(
        "{}\nAlso fill strayField.\n{repeated}\nThe plan was cut wi…\n",
        repair.content
    );
    repair.content = text.as_str().into();
    let found = lint(&spoiled, &[]).join("\n");
    assert!(found.contains("the repair names `strayField`"), "{found}");
    assert!(found.contains("said 2 times"), "{found}");
    assert!(found.contains("a cut mid-word or unmarked"), "{found}");
}
