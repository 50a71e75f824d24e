//! Scenario files: a kind's config and a script of answers and person actions, played through the
//! engine; the snapshot is the event log in brief (names and what each did) and each outcome.
//!
//! A file in `tests/scenarios/<kind>/` has `config` (the kind's config, as the `created` event
//! stores it) and `steps`, each one of: `{"answer": text}` (submit to the first call due),
//! `{"demo": n}` (answer the next n calls with the kind's demo model), `{"person": text}` (answer
//! the open question), `{"wrap_up": true}`.

#![allow(clippy::disallowed_methods)] // tests read their own files

use std::fs;
use std::path::Path;

use roundtable_core::engine::{Engine, Protocol, Status};
use roundtable_core::protocol::meeting::MeetingState;
use roundtable_core::protocol::team::TeamState;
use roundtable_core::session::Session;
use serde_json::Value;

fn play<P: Protocol>(
    config: &Value,
    steps: &[Value],
    wrap: fn(Engine<P>) -> Session,
) -> (Session, Vec<String>) {
    let config: P::Config = serde_json::from_value(config.clone()).expect("the config reads");
    let mut s = Engine::<P>::new(config, 0).expect("a valid config");
    let mut now = 1;
    s.start(now).unwrap();
    let mut outcomes = Vec::new();
    let answer = |s: &mut Engine<P>, raw: Option<&str>, now: u64, outcomes: &mut Vec<String>| {
        let Some(call) = s.calls_due().into_iter().next() else {
            outcomes.push(format!("no call due ({})", s.status().word()));
            return false;
        };
        let text = raw.map_or_else(|| s.demo_answer(&call.id).unwrap().text, str::to_string);
        let out = s.submit(&call.id, &text, None, now).unwrap();
        outcomes.push(format!(
            "{} {} {} → {}",
            call.id,
            call.member,
            P::step_name(call.step),
            serde_json::to_value(&out).unwrap()["outcome"]
                .as_str()
                .unwrap()
        ));
        true
    };
    for step in steps {
        now += 1;
        if let Some(text) = step.get("answer").and_then(Value::as_str) {
            answer(&mut s, Some(text), now, &mut outcomes);
        } else if let Some(n) = step.get("demo").and_then(Value::as_u64) {
            for _ in 0..n {
                now += 1;
                if *s.status() != Status::Running || !answer(&mut s, None, now, &mut outcomes) {
                    break;
                }
            }
        } else if let Some(text) = step.get("person").and_then(Value::as_str) {
            s.answer_halt(text, now).unwrap();
            outcomes.push(format!("person answered: {text}"));
        } else if step.get("wrap_up").is_some() {
            s.finish(now).unwrap();
            outcomes.push("person wrapped up".into());
        } else {
            panic!("unknown step {step}");
        }
    }
    outcomes.push(format!("status: {}", s.status().word()));
    (wrap(s), outcomes)
}

#[test]
fn scenario_files_play_as_their_snapshots_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut played = 0;
    for kind in ["team", "meeting"] {
        let mut files: Vec<_> = fs::read_dir(root.join(kind))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let scenario: Value =
                serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
            let steps = scenario["steps"].as_array().unwrap();
            let (session, outcomes) = match kind {
                "team" => play::<TeamState>(&scenario["config"], steps, Session::Team),
                _ => play::<MeetingState>(&scenario["config"], steps, Session::Meeting),
            };
            let name = file.file_stem().unwrap().to_string_lossy().to_string();
            let text = format!(
                "{}\n\n## outcomes\n{}\n\n## events\n{}\n",
                scenario["about"].as_str().unwrap_or(""),
                outcomes.join("\n"),
                session.event_lines().join("\n")
            );
            insta::assert_snapshot!(format!("scenario_{kind}_{name}"), text);
            played += 1;
        }
    }
    assert!(played >= 3, "the scenario files are found");
}
