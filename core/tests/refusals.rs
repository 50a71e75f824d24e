//! Answers a team session must refuse, as data: `tests/refusals/team.json` lists cases, each a
//! step reached by playing the demo model, an edit of the demo's own answer there (or a whole
//! answer), and the exact JSON pointers the refusal must name. Every case checks that the answer
//! is refused (repair asked, nothing applied) with exactly those pointers.
//!
//! A case: `about`; `at` (the step whose first call gets the answer; `nth` picks a later one);
//! either `answer` (the whole answer) or `set` (pointer → value written into the demo's answer)
//! and `remove` (pointers deleted from it); `errors` (the pointers, in order). Questions on the
//! way are answered with a fixed reply. The repair prompt of every case is snapshotted.
#![allow(clippy::disallowed_methods)] // tests read their own files

use std::fs;
use std::path::Path;

use roundtable_core::engine::{ModelRef, Outcome, Protocol, Status};
use roundtable_core::protocol::team::{TeamConfig, TeamSession, TeamState};
use serde_json::Value;

fn session() -> TeamSession {
    let model = ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    };
    let config = TeamConfig::standard(
        "Plan a half-day workshop for twenty people on customer interviews.",
        2,
        true,
        true,
        model,
    );
    let mut s = TeamSession::new(config, 0).unwrap();
    s.start(1).unwrap();
    s
}

/// Plays the demo until the `nth` call of step `at` is due; returns its id.
fn reach(s: &mut TeamSession, at: &str, nth: usize, now: &mut u64) -> String {
    let mut seen = 0;
    for _ in 0..400 {
        *now += 1;
        if s.status().word() == "awaiting_person" {
            s.answer_halt("Half a day, twenty people, a budget of £500.", *now)
                .unwrap();
            continue;
        }
        assert_eq!(
            *s.status(),
            Status::Running,
            "the session stopped before {at}"
        );
        let call = s.calls_due().into_iter().next().expect("a call is due");
        if TeamState::step_name(TeamState::step_of(call.step)) == at {
            if seen == nth {
                return call.id.clone();
            }
            seen += 1;
        }
        let text = s.demo_answer(&call.id).unwrap().text;
        s.submit(&call.id, &text, None, *now).unwrap();
    }
    panic!("never reached {at}");
}

#[test]
fn answers_that_break_the_teams_rules_are_refused_with_their_pointers() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/refusals/team.json");
    let cases: Vec<Value> = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
    let mut failures = Vec::new();
    let mut prompts = Vec::new();
    for case in &cases {
        let about = case["about"].as_str().unwrap();
        let mut s = session();
        let mut now = 1;
        let at = case["at"].as_str().unwrap();
        let id = reach(
            &mut s,
            at,
            case["nth"].as_u64().unwrap_or(0) as usize,
            &mut now,
        );
        let text = match case.get("answer") {
            Some(answer) => answer.to_string(),
            None => {
                // The demo may wrap its answer in prose and a fence (one of its deliberate
                // mistakes): the case changes the JSON inside.
                let raw = s.demo_answer(&id).unwrap().text;
                let json = raw
                    .find('{')
                    .zip(raw.rfind('}'))
                    .map_or(raw.as_str(), |(a, b)| &raw[a..=b]);
                let mut answer: Value = serde_json::from_str(json).unwrap();
                for (pointer, value) in case["set"].as_object().into_iter().flatten() {
                    set(&mut answer, pointer, expand(value));
                }
                for pointer in case["remove"].as_array().into_iter().flatten() {
                    remove(&mut answer, pointer.as_str().unwrap());
                }
                answer.to_string()
            }
        };
        let before = s.state().clone();
        let out = s.submit(&id, &text, None, now + 1).unwrap();
        let paths: Vec<String> = match &out {
            Outcome::Invalid { report, .. } => {
                let step = TeamState::step_of(s.state().core.calls.last().unwrap().call.step);
                prompts.push(format!(
                    "## {about}\n\n{}",
                    s.state().repair_prompt(step, report)
                ));
                report.errors.iter().map(|e| e.path.clone()).collect()
            }
            other => {
                failures.push(format!("{about}: not refused ({other:?})"));
                continue;
            }
        };
        let expected: Vec<String> = case["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect();
        if paths != expected {
            failures.push(format!(
                "{about}: pointers {paths:?}, expected {expected:?}"
            ));
        }
        let mut after = s.state().clone();
        after.core = before.core.clone();
        if after != before {
            failures.push(format!(
                "{about}: the refused answer changed the team's state"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert!(cases.len() >= 20, "the cases are read");
    // What the model reads back for each: the repair prompt.
    let all = prompts.join("\n\n");
    insta::assert_snapshot!("team_refusal_repair_prompts", all);
    // Every repair says which change and why, never a placeholder for it.
    assert!(!all.contains("a change the tree refused"), "{all}");
    let of = |about: &str| {
        prompts
            .iter()
            .find(|p| p.starts_with(&format!("## {about}")))
            .unwrap_or_else(|| panic!("no case {about}"))
            .clone()
    };
    // The clash names the existing child by its own name.
    assert!(
        of("PlanAssign: a sibling name that differs only by full-width letters")
            .contains("p0 already has a child p1 named \"Agenda and timing\"")
    );
    // An answer in another step's shape says so, and shows the fields that were dropped.
    let shape = of("Write: another step's shape");
    assert!(shape.contains("this answer has the shape of the PeerReview step (reviews)"));
    assert!(shape.contains("/reviews: unknown field reviews is ignored"));
    // One stray list many steps have proves no other step's shape.
    let stray =
        of("PlanAssign: a stray collabs list (one ignored field, not another step's shape)");
    assert!(!stray.contains("has the shape of"), "{stray}");
    assert!(
        stray.contains("unknown field collabs is ignored"),
        "{stray}"
    );
    // A question to nobody names who it may go to; a blank text shows as blank.
    assert!(of("PlanAssign: a question addressed to nobody").contains("user-1"));
    assert!(of("Bootstrap: a mission of spaces").contains("received: \"   \" (blank)"));
}

/// A value of the case file, with `{"$repeat": [text, n]}` written out as `text` n times (long
/// strings without long files).
fn expand(value: &Value) -> Value {
    match value {
        Value::Object(map) => match map.get("$repeat") {
            Some(Value::Array(r)) => Value::from(
                r[0].as_str()
                    .unwrap()
                    .repeat(r[1].as_u64().unwrap() as usize),
            ),
            _ => Value::Object(map.iter().map(|(k, v)| (k.clone(), expand(v))).collect()),
        },
        Value::Array(items) => Value::Array(items.iter().map(expand).collect()),
        other => other.clone(),
    }
}

fn set(v: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let target = v
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"));
    match target {
        Value::Object(map) => {
            map.insert(key.replace("~1", "/").replace("~0", "~"), value);
        }
        Value::Array(items) => {
            let i: usize = key.parse().unwrap();
            if i == items.len() {
                items.push(value);
            } else {
                items[i] = value;
            }
        }
        _ => panic!("{parent} is not a container"),
    }
}

fn remove(v: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    match v.pointer_mut(parent).unwrap() {
        Value::Object(map) => {
            map.remove(key);
        }
        Value::Array(items) => {
            items.remove(key.parse::<usize>().unwrap());
        }
        _ => panic!("{parent} is not a container"),
    }
}

/// The example answer each prompt shows is itself a valid answer: submitted as it stands, at
/// every step of a demo session, it is applied.
#[test]
fn every_prompts_example_answer_is_applied_as_it_stands() {
    use roundtable_core::protocol::team::examples;
    let mut s = session();
    let mut now = 1;
    let mut tried = std::collections::BTreeSet::new();
    for _ in 0..400 {
        now += 1;
        if s.status().word() == "awaiting_person" {
            s.answer_halt("Half a day, twenty people.", now).unwrap();
            continue;
        }
        if *s.status() != Status::Running {
            break;
        }
        let due = s.calls_due().into_iter().next().expect("a call is due");
        let example = examples::final_output(due.envelope.get());
        let mut copy = s.clone();
        let out = copy.submit(&due.call.id, &example, None, now).unwrap();
        assert!(
            matches!(out, Outcome::Applied | Outcome::RoundsEnded),
            "{} example not applied: {out:?}\n{example}",
            TeamState::step_name(TeamState::step_of(due.call.step))
        );
        tried.insert(TeamState::step_name(TeamState::step_of(due.call.step)));
        let text = s.demo_answer(&due.call.id).unwrap().text;
        s.submit(&due.call.id, &text, None, now).unwrap();
    }
    assert_eq!(tried.len(), 7, "every step's example was tried: {tried:?}");
}
