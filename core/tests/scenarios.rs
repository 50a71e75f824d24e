//! Scenario files: a kind's config and a script of answers and person actions, played through the
//! engine; the snapshot is the event log in brief (names and what each did) and each outcome.
//!
//! A file in `tests/scenarios/<kind>/` has `config` (the kind's config, as the `created` event
//! stores it), optionally `prices` (member id → `{input, output}` micro-dollars per million
//! tokens, handed in when the run starts, as the runner does) and `steps`, each one of:
//! `{"answer": text}` (submit to the first call due), `{"demo": n}` (answer the next n calls with
//! the kind's demo model; with `"cost": micro-dollars`, each answer costs that much, or with
//! `"cost": {member: micro-dollars}` each named member's answers do),
//! `{"person": text}` (answer the open question), `{"wrap_up": true}`, `{"limits": {…}}` (the
//! person edits the limits: the fields given replace those in force), `{"run": true}` (the person
//! runs on; a refusal is an outcome). Whenever a step leaves the session paused, the pause's words
//! (what the status bar shows) are an outcome too. After every step the tokens counted are
//! checked to be within the token budget, when there is one (the engine pauses before a call that
//! could cross it).

#![allow(clippy::disallowed_methods)] // tests read their own files

use std::fs;
use std::path::Path;

use roundtable_core::cost::{Cost, CostSource, MemberPrices};
use roundtable_core::engine::{EngineEdit, KindEngine, RunTarget, Settings, Status, Usage};
use roundtable_core::protocol::meeting::MeetingState;
use roundtable_core::protocol::team::TeamState;
use roundtable_core::session::{Registered, Session};
use serde_json::Value;

fn play<P: Registered>(
    scenario: &Value,
    wrap: fn(KindEngine<P>) -> Session,
) -> (Session, Vec<String>) {
    let config: P::Config =
        serde_json::from_value(scenario["config"].clone()).expect("the config reads");
    let prices: Option<MemberPrices> = scenario
        .get("prices")
        .map(|p| serde_json::from_value(p.clone()).expect("the prices read"));
    let steps = scenario["steps"].as_array().expect("steps");
    let mut s = KindEngine::<P>::new(config, 0).expect("a valid config");
    let mut now = 1;
    s.start_run(RunTarget::End, prices, now).unwrap();
    let mut outcomes = Vec::new();
    let answer = |s: &mut KindEngine<P>,
                  raw: Option<&str>,
                  cost: Option<&Value>,
                  now: u64,
                  outcomes: &mut Vec<String>| {
        // A call still out while the session is paused is answered too, as the runner does,
        // by the demo from the envelope the call was made from.
        // The demo answers no longer than the call may be answered, as a provider does.
        let paused_out = || {
            let rec = s.state().core().outstanding_calls().next()?;
            Some((rec.call.clone(), s.demo_answer(&rec.call.id)?.text))
        };
        let due = match s.calls_due().into_iter().next() {
            Some(due) => s
                .demo_answer(&due.call.id)
                .map(|demo| (due.call.clone(), demo.text)),
            None if matches!(s.status(), Status::Paused { .. }) => paused_out(),
            None => None,
        };
        let Some((call, demo)) = due else {
            outcomes.push(format!("no call due ({})", s.status().word()));
            return false;
        };
        let text = raw.map_or(demo, str::to_string);
        // A cost for every answer, or per member (a member not named: no cost known).
        let cost = cost.and_then(|c| c.as_u64().or_else(|| c[&call.member].as_u64()));
        let usage = cost.map(|micro_usd| Usage {
            schema_form: None,
            input_tokens: 0,
            output_tokens: 0,
            stopped_for_length: false,
            cost: Some(Cost {
                micro_usd,
                source: CostSource::Priced,
            }),
        });
        let out = s.submit(&call.id, &text, usage, now).unwrap();
        outcomes.push(format!(
            "{} {} {} → {}",
            call.id,
            call.member,
            P::step_name(P::step_of(call.step)),
            serde_json::to_value(&out).unwrap()["outcome"]
                .as_str()
                .unwrap()
        ));
        true
    };
    for step in steps {
        now += 1;
        let before = s.status().clone();
        if let Some(text) = step.get("answer").and_then(Value::as_str) {
            answer(&mut s, Some(text), None, now, &mut outcomes);
        } else if let Some(n) = step.get("demo").and_then(Value::as_u64) {
            let cost = step.get("cost");
            for _ in 0..n {
                now += 1;
                // Answers to calls out are taken in while paused, as the runner does.
                let out = s.state().core().outstanding_calls().next().is_some();
                if !out || !answer(&mut s, None, cost, now, &mut outcomes) {
                    break;
                }
            }
        } else if let Some(limits) = step.get("limits") {
            let mut settings = serde_json::to_value(&s.state().core().settings).unwrap();
            for (k, v) in limits.as_object().expect("limits is an object") {
                settings[k] = v.clone();
            }
            let settings: Settings = serde_json::from_value(settings).expect("limits read");
            s.edit(EngineEdit::Settings { settings }, now).unwrap();
            outcomes.push(format!("person set the limits: {limits}"));
        } else if step.get("run").is_some() {
            match s.resume_run(RunTarget::End, None, now) {
                Ok(()) => outcomes.push("person ran on".into()),
                Err(e) => outcomes.push(format!("run refused: {e}")),
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
        // The engine pauses before a call that could cross the token budget, never after: the
        // tokens counted (the engine's estimates here, as no provider counts them) stay within it.
        let core = s.state().core();
        if let Some(budget) = core.settings.token_budget {
            assert!(
                core.tokens_used <= budget,
                "{} tokens counted, past the budget of {budget} (after {step})",
                core.tokens_used
            );
        }
        if let Status::Paused { reason } = s.status() {
            if *s.status() != before {
                outcomes.push(format!("paused: {}", reason.describe(s.state())));
            }
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
            let (session, outcomes) = match kind {
                "team" => play::<TeamState>(&scenario, Session::of_kind),
                _ => play::<MeetingState>(&scenario, Session::of_kind),
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
