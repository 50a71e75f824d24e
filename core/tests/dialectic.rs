//! The dialectic of spec `002`: its schemas derived from the answer types, scenario files played
//! through the engine (each style, council and not, workflow and single shot, a run-time schema
//! refused and repaired), demo dialectics to the end, prompts, repair prompts and the exported
//! 002 documents as snapshots.

#![allow(clippy::disallowed_methods)] // tests read their own files and the environment

use roundtable_core::engine::Protocol;
use roundtable_core::protocol::dialectic::view::split_standpoints;
use roundtable_core::protocol::dialectic::{answer, DialecticState, DialecticStep};

const STEPS: [DialecticStep; 4] = [
    DialecticStep::Thesis,
    DialecticStep::Antithesis,
    DialecticStep::Synthesis,
    DialecticStep::SingleShot,
];

/// The committed schema files equal what the answer types derive (`UPDATE_SCHEMAS=1` rewrites
/// them).
#[test]
fn committed_schemas_are_current() {
    let update = std::env::var("UPDATE_SCHEMAS").is_ok();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    for step in STEPS {
        let derived = answer::derive_schema(step);
        let path = dir.join(format!("{}.plain.json", DialecticState::step_name(step)));
        let text = serde_json::to_string_pretty(&derived).unwrap() + "\n";
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        // What the app reads at run time is the committed file (as built, so not while updating).
        if !update {
            assert_eq!(answer::step_schema(step), derived, "{}", path.display());
        }
        assert_eq!(
            committed,
            text,
            "{} is stale: run `bash scripts/codegen.sh` (schemas, then the tables and TS types made from them)",
            path.display()
        );
    }
}

use std::fs;
use std::path::Path;

use roundtable_core::demo::play_with;
use roundtable_core::engine::{
    EngineEdit, Event, EventKind, KindEngine, KindValue, ModelRef, RunTarget, Status,
};
use roundtable_core::protocol::dialectic::{
    DialecticConfig, DialecticEdit, DialecticOutput, DialecticSession, Mode, ResponseStyle,
};
use serde_json::{json, Value};

fn demo_ref() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

fn standard(query: &str, style: ResponseStyle, mode: Mode, council: bool) -> DialecticConfig {
    DialecticConfig::standard(query, style, mode, council, demo_ref())
}

/// A scenario's config: `config` whole, or `standard` (`query`, `style`, `mode`, `council`) with
/// `overrides` laid over its JSON.
fn scenario_config(scenario: &Value) -> DialecticConfig {
    if let Some(config) = scenario.get("config") {
        return serde_json::from_value(config.clone()).expect("the config reads");
    }
    let s = &scenario["standard"];
    let style: ResponseStyle = serde_json::from_value(s["style"].clone()).expect("a style");
    let mode: Mode = serde_json::from_value(s["mode"].clone()).expect("a mode");
    let base = standard(
        s["query"].as_str().expect("a query"),
        style,
        mode,
        s["council"].as_bool().unwrap_or(false),
    );
    let mut value = serde_json::to_value(base).unwrap();
    for (k, v) in scenario["overrides"].as_object().into_iter().flatten() {
        value[k] = v.clone();
    }
    serde_json::from_value(value).expect("the config with its overrides reads")
}

/// One event as a line of the scenario's log.
fn event_line(e: &Event) -> String {
    let name = e.kind.name();
    match &e.kind {
        EventKind::StepStarted {
            round,
            step,
            members,
        } => format!(
            "{name} r{round} {} [{}]",
            DialecticState::step_name(DialecticState::step_of(*step)),
            members.join(", ")
        ),
        EventKind::CallIssued { call } => {
            format!("{name} {} {} ({:?})", call.id, call.member, call.kind)
        }
        EventKind::AnswerReceived { call_id, .. } | EventKind::Applied { call_id, .. } => {
            format!("{name} {call_id}")
        }
        EventKind::AnswerInvalid {
            call_id, report, ..
        } => format!(
            "{name} {call_id}: {}",
            report
                .errors
                .iter()
                .map(|v| format!("{} ({})", v.path, v.message))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        EventKind::RoundsEnded { by, .. } => format!("{name} by {by}"),
        _ => name.to_string(),
    }
}

/// Plays a scenario: each step is `{"answer": text}` (to the first call due, or to `member`'s),
/// `{"demo": n}` (the next n calls answered by the demo model), `{"demo_until": step}` (the demo
/// answers until the first call due is of that step), `{"wrap_up": true}` or
/// `{"edit": {member change}}`.
fn play(scenario: &Value) -> (DialecticSession, Vec<String>) {
    let mut s = DialecticSession::new(scenario_config(scenario), 0).expect("a valid config");
    let mut now = 1;
    s.start_run(RunTarget::End, None, now).unwrap();
    let mut outcomes = Vec::new();
    for step in scenario["steps"].as_array().expect("steps") {
        now += 1;
        if step.get("answer").is_some() || step.get("demo").is_some() {
            let n = step.get("demo").and_then(Value::as_u64).unwrap_or(1);
            for _ in 0..n {
                now += 1;
                let due = s.calls_due();
                let member = step.get("member").and_then(Value::as_str);
                let Some(call) = due
                    .iter()
                    .find(|d| member.is_none_or(|m| d.call.member == m))
                else {
                    outcomes.push(format!("no call due ({})", s.status().word()));
                    break;
                };
                let text = match step.get("answer") {
                    Some(Value::String(t)) => t.clone(),
                    Some(v) => v.to_string(),
                    None => s.state().demo_answer(&call.call, call.envelope.get()).text,
                };
                let id = call.call.id.clone();
                let out = s.submit(&id, &text, None, now).unwrap();
                outcomes.push(format!(
                    "{id} {} {} → {}",
                    call.call.member,
                    DialecticState::step_name(DialecticState::step_of(call.call.step)),
                    serde_json::to_value(&out).unwrap()["outcome"]
                        .as_str()
                        .unwrap()
                ));
            }
        } else if let Some(until) = step.get("demo_until").and_then(Value::as_str) {
            // The demo answers every call until the first due is of the step named.
            for _ in 0..50 {
                now += 1;
                let due = s.calls_due();
                let Some(call) = due.first() else {
                    outcomes.push(format!("no call due ({})", s.status().word()));
                    break;
                };
                if DialecticState::step_name(DialecticState::step_of(call.call.step)) == until {
                    break;
                }
                let text = s.state().demo_answer(&call.call, call.envelope.get()).text;
                let id = call.call.id.clone();
                let out = s.submit(&id, &text, None, now).unwrap();
                outcomes.push(format!(
                    "{id} {} {} → {}",
                    call.call.member,
                    DialecticState::step_name(DialecticState::step_of(call.call.step)),
                    serde_json::to_value(&out).unwrap()["outcome"]
                        .as_str()
                        .unwrap()
                ));
            }
        } else if step.get("wrap_up").is_some() {
            s.finish(now).unwrap();
            outcomes.push("person wrapped up".into());
        } else if let Some(edit) = step.get("edit") {
            let edit: DialecticEdit = serde_json::from_value(edit.clone()).expect("an edit");
            match s.edit(edit, now) {
                Ok(()) => outcomes.push("person edited a member".into()),
                Err(e) => outcomes.push(e.to_string()),
            }
        } else {
            panic!("unknown step {step}");
        }
    }
    outcomes.push(format!("status: {}", s.status().word()));
    (s, outcomes)
}

#[test]
fn scenario_files_play_as_their_snapshots_say() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/dialectic");
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in &files {
        let scenario: Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        let (s, outcomes) = play(&scenario);
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        // What each scenario promises of its end, checked, not only snapshotted.
        let expect = &scenario["expect"];
        if let Some(status) = expect["status"].as_str() {
            assert_eq!(s.status().word(), status, "{name}: {outcomes:#?}");
        }
        if let Some(n) = expect["invalid"].as_u64() {
            let invalid = s
                .events()
                .iter()
                .filter(|e| matches!(e.kind, EventKind::AnswerInvalid { .. }))
                .count();
            assert_eq!(invalid as u64, n, "{name}: invalid answers");
        }
        let view = s.state().view();
        let text = format!(
            "{}\n\n## outcomes\n{}\n\n## events\n{}\n\n## view\n{}\n",
            scenario["about"].as_str().unwrap_or(""),
            outcomes.join("\n"),
            s.events()
                .iter()
                .map(event_line)
                .collect::<Vec<_>>()
                .join("\n"),
            view_lines(&view).join("\n"),
        );
        insta::assert_snapshot!(format!("dialectic_scenario_{name}"), text);
    }
    assert!(files.len() >= 6, "the scenario files are found");
}

/// The view in brief: each phase's status, each card's author and status.
fn view_lines(v: &roundtable_core::protocol::dialectic::DialecticView) -> Vec<String> {
    let mut out = vec![format!(
        "{} · {:?} · council {} · show phases {} · {}%",
        v.style_title, v.mode, v.use_council, v.show_phases, v.progress
    )];
    for p in &v.phases {
        out.push(format!("phase {}: {}", p.title, p.status_word));
    }
    out.push(format!(
        "thesis by {}: {}",
        v.thesis.author.name,
        v.thesis.status.word()
    ));
    for k in &v.critiques {
        out.push(format!(
            "critique by {} ({}): {}, {} contradiction(s)",
            k.author.name,
            k.author.model,
            k.status.word(),
            k.contradictions.len()
        ));
    }
    out.push(format!(
        "synthesis by {}: {}{}",
        v.synthesis.author.name,
        v.synthesis.status.word(),
        if v.synthesis.json.is_some() {
            ", with JSON"
        } else {
            ""
        }
    ));
    out
}

const QUERIES: [&str; 4] = [
    "Should a small software company move to a four-day work week?",
    "Is it worth rewriting a legacy billing system from scratch?",
    "Should cities ban cars from their historic centres?",
    "Can remote teams build as strong a culture as teams in one office?",
];

/// A dialectic played by the demo model until it stops.
fn played(config: DialecticConfig) -> DialecticSession {
    let mut s = DialecticSession::new(config, 0).unwrap();
    let mut now = 1;
    play_with(
        &mut s,
        |st, c| st.demo_answer(c, &c.envelope),
        &mut now,
        100,
    )
    .unwrap();
    s
}

fn invalid_count(s: &DialecticSession) -> usize {
    s.events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::AnswerInvalid { .. }))
        .count()
}

/// Words of the query that carry its topic (the demo builds its texts on them).
fn topic_words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 6)
        .collect()
}

#[test]
fn a_demo_dialectic_plays_to_its_synthesis_in_every_style_mode_and_council() {
    let mut sessions_with_repair = 0;
    let mut sessions = 0;
    for query in QUERIES {
        for style in ResponseStyle::ALL {
            for mode in [Mode::Workflow, Mode::SingleShot] {
                for council in [false, true] {
                    let s = played(standard(query, style, mode, council));
                    let at = format!("{query} / {style:?} / {mode:?} / council {council}");
                    let st = s.state();
                    assert_eq!(s.status(), &Status::Done, "{at}: {:?}", s.status());
                    assert!(st.is_answered(), "{at}");
                    let view = st.view();
                    let synthesis = view.synthesis.text.clone().unwrap();
                    let thesis = view.thesis.text.clone().unwrap();
                    // The demo argues about the query it was given.
                    let words = topic_words(query);
                    // Past the query it quotes, the thesis argues about the query's own topic.
                    let argued = thesis.replace(query, "").to_lowercase();
                    assert!(
                        words.iter().any(|w| argued.contains(w)),
                        "{at}: the thesis names none of {words:?}: {thesis}"
                    );
                    for k in &view.critiques {
                        let text = k.text.clone().unwrap().to_lowercase();
                        assert!(
                            words.iter().any(|w| text.contains(w)),
                            "{at}: {}'s critique names none of {words:?}: {text}",
                            k.author.name
                        );
                    }
                    assert!(
                        words.iter().any(|w| synthesis.to_lowercase().contains(w)),
                        "{at}: the synthesis names none of {words:?}: {synthesis}"
                    );
                    if mode == Mode::Workflow {
                        let texts: Vec<String> = view
                            .critiques
                            .iter()
                            .map(|k| k.text.clone().unwrap())
                            .collect();
                        assert_eq!(texts.len(), if council { 3 } else { 1 }, "{at}");
                        // The critics disagree for real: no two say the same, and the synthesis
                        // answers each by name.
                        for (i, a) in texts.iter().enumerate() {
                            for b in &texts[i + 1..] {
                                assert_ne!(a, b, "{at}: two critics said the same");
                            }
                        }
                        for k in &view.critiques {
                            assert!(
                                synthesis.contains(&k.author.name),
                                "{at}: the synthesis does not answer {}",
                                k.author.name
                            );
                        }
                    }
                    assert!(view.phases.iter().all(|p| p.status_word == "done"), "{at}");
                    assert_eq!(view.progress, 100, "{at}");
                    // A seeded mistake at most once a dialectic, and its repair applied.
                    let invalid = invalid_count(&s);
                    assert!(invalid <= 1, "{at}: {invalid} invalid answers");
                    sessions_with_repair += usize::from(invalid == 1);
                    sessions += 1;
                    // The same events fold into the same state.
                    let replayed = KindEngine::<DialecticState>::replay(s.events()).unwrap();
                    assert_eq!(replayed.state(), s.state(), "{at}: replay");
                }
            }
        }
    }
    assert!(
        sessions_with_repair > 0 && sessions_with_repair < sessions,
        "now and then, not never nor always: {sessions_with_repair} of {sessions}"
    );
}

#[test]
fn a_config_is_refused_with_every_problem_at_once() {
    let mut c = standard("  ", ResponseStyle::Sections, Mode::Workflow, true);
    c.critics.truncate(1);
    c.synthesis.id = "thesis".into();
    c.use_search = true;
    c.thesis.model.model = String::new();
    c.response_schema = Some(json!({
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date"},
            "link": {"$ref": "https://example.com/link.json"},
            "code": {"type": "string", "pattern": "^(?!x)"}
        }
    }));
    let err = DialecticSession::new(c, 0).unwrap_err().to_string();
    for expected in [
        "the query is empty",
        "two members have the id thesis",
        "member thesis must name its provider and model",
        "a council needs at least two critics (it has 1)",
        "use_search must be false: a browser tab cannot search the web",
        "a response_schema is used only with the json response style (the style is sections)",
        "at /properties/link/$ref: \"https://example.com/link.json\" is a remote $ref",
        "at /properties/code/pattern: the pattern uses a lookaround",
    ] {
        assert!(err.contains(expected), "{expected:?} missing from: {err}");
    }
    let mut ok = standard(QUERIES[0], ResponseStyle::Json, Mode::Workflow, true);
    ok.response_schema =
        Some(json!({"type": "object", "properties": {"verdict": {"type": "string"}}}));
    assert!(DialecticSession::new(ok, 0).is_ok());
}

#[test]
fn the_schema_sent_with_a_call_carries_the_persons_shape_as_result() {
    let mut c = standard(QUERIES[0], ResponseStyle::Json, Mode::Workflow, false);
    let person = json!({"type": "object", "properties": {"verdict": {"type": "string"}}, "required": ["verdict"]});
    c.response_schema = Some(person.clone());
    let with = DialecticSession::new(c, 0).unwrap();
    let schema = with.state().call_schema(DialecticStep::Synthesis);
    assert_eq!(schema["properties"]["result"], person);
    assert!(schema["required"]
        .as_array()
        .unwrap()
        .contains(&json!("result")));
    assert!(with.state().call_schema(DialecticStep::Thesis)["properties"]["result"].is_null());
    let without = played(standard(
        QUERIES[0],
        ResponseStyle::Json,
        Mode::Workflow,
        false,
    ));
    let schema = without.state().call_schema(DialecticStep::Synthesis);
    assert!(schema["properties"].get("result").is_none(), "{schema}");
}

/// The runner-facing call carries the kind's schema: the synthesis (and its repairs) the person's
/// shape as `result`, every other phase none (it goes with its committed schema); a dialectic
/// without the person's schema sends none of its own anywhere.
#[test]
fn the_model_call_of_a_synthesis_carries_the_persons_schema() {
    let person = json!({"type": "object", "properties": {"verdict": {"type": "string"}}, "required": ["verdict"]});
    for (schema, mode) in [
        (Some(person.clone()), Mode::Workflow),
        (Some(person.clone()), Mode::SingleShot),
        (None, Mode::Workflow),
    ] {
        let mut c = standard(QUERIES[0], ResponseStyle::Json, mode, true);
        c.response_schema = schema.clone();
        let mut s = DialecticSession::new(c, 0).unwrap();
        s.start_run(RunTarget::End, None, 1).unwrap();
        let mut seen = Vec::new();
        for now in 2..40 {
            let calls = s.next_calls();
            let Some(call) = calls.first() else { break };
            seen.push((call.step, call.schema.clone()));
            let text = call.demo.as_ref().expect("a demo answer").text.clone();
            s.submit(&call.id, &text, None, now).unwrap();
        }
        assert_eq!(s.state().core().status, Status::Done, "{mode:?}");
        let last = if mode == Mode::Workflow {
            "dialectic_synthesis"
        } else {
            "dialectic_single_shot"
        };
        assert!(seen.iter().any(|(step, _)| *step == last), "{seen:?}");
        for (step, sent) in &seen {
            match (&schema, *step == last) {
                (Some(person), true) => {
                    let sent = sent
                        .as_ref()
                        .expect("the person's schema goes with the call");
                    assert_eq!(&sent["properties"]["result"], person);
                    assert!(sent["required"]
                        .as_array()
                        .unwrap()
                        .contains(&json!("result")));
                }
                _ => assert_eq!(sent, &None, "{step} goes with its committed schema"),
            }
        }
    }
}

/// Every prompt's example is a valid answer as it stands: for each phase, style, and with and
/// without the person's schema, the example checks clean against the rules of that dialectic.
#[test]
fn every_example_in_every_prompt_is_a_valid_answer() {
    use roundtable_core::protocol::dialectic::prompt;
    let person = json!({
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["adopt", "trial", "reject"]},
            "confidence": {"type": "number", "minimum": 0.25, "maximum": 0.75},
            "count": {"type": "integer", "minimum": -9, "maximum": -2},
            "reasons": {"type": "array", "items": {"type": "string", "minLength": 10}, "minItems": 2},
            "owner": {"type": "object", "properties": {"name": {"type": "string", "minLength": 2}}, "required": ["name"], "additionalProperties": false}
        },
        "required": ["verdict", "confidence", "count", "reasons", "owner"],
        "additionalProperties": false
    });
    let mut checked = 0;
    for style in ResponseStyle::ALL {
        let schemas = if style == ResponseStyle::Json {
            vec![None, Some(person.clone())]
        } else {
            vec![None]
        };
        for schema in schemas {
            let mut c = standard(QUERIES[1], style, Mode::Workflow, true);
            c.response_schema = schema.clone();
            let s = DialecticSession::new(c, 0).unwrap();
            let rules = answer::Rules {
                style,
                schema: schema
                    .as_ref()
                    .map(|v| roundtable_core::validate::compile_schema(v).unwrap()),
            };
            for step in STEPS {
                let mut env = prompt::envelope(s.state(), "thesis");
                env.step = step;
                let example = prompt::example_json(step, &env);
                assert!(
                    prompt::expected_format(step, &env).ends_with(&example),
                    "the prompt shows the example"
                );
                let mut w = Vec::new();
                let o = Default::default();
                let verdict = match step {
                    DialecticStep::Thesis => answer::check_thesis(&example, o, &mut w).map(|_| ()),
                    DialecticStep::Antithesis => {
                        answer::check_antithesis(&example, o, &mut w).map(|_| ())
                    }
                    DialecticStep::Synthesis => {
                        answer::check_synthesis(&example, o, rules, &mut w).map(|_| ())
                    }
                    DialecticStep::SingleShot => {
                        answer::check_single_shot(&example, o, rules, &mut w).map(|_| ())
                    }
                };
                assert!(
                    verdict.is_ok() && w.is_empty(),
                    "{step:?} / {style:?} / schema {}: {verdict:?} {w:?}\n{example}",
                    schema.is_some()
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 24);
}

fn messages_text(
    s: &DialecticSession,
    step: DialecticStep,
    member: &str,
    kind_repair: bool,
) -> String {
    let rec = s
        .state()
        .core
        .calls
        .iter()
        .find(|c| {
            DialecticState::step_of(c.call.step) == step
                && c.call.member == member
                && (c.call.kind == roundtable_core::engine::CallKind::Repair) == kind_repair
        })
        .unwrap_or_else(|| panic!("a {step:?} call of {member}"));
    if kind_repair {
        return rec.call.messages.last().unwrap().content.to_string();
    }
    rec.call
        .messages
        .iter()
        .map(|m| format!("=== {:?} ===\n{}\n", m.role, m.content))
        .collect()
}

#[test]
fn prompts_of_each_phase_read_as_snapshots() {
    let mut c = standard(QUERIES[0], ResponseStyle::Sections, Mode::Workflow, true);
    c.sources = vec![roundtable_core::protocol::dialectic::Source {
        title: "Four-day week pilot, UK 2023".into(),
        text: "61 companies took part; 56 continued the four-day week after the trial. Revenue stayed broadly the same.".into(),
    }];
    let s = played(c);
    insta::assert_snapshot!(
        "dialectic_prompt_thesis",
        messages_text(&s, DialecticStep::Thesis, "thesis", false)
    );
    insta::assert_snapshot!(
        "dialectic_prompt_antithesis_council",
        messages_text(&s, DialecticStep::Antithesis, "empiricist", false)
    );
    insta::assert_snapshot!(
        "dialectic_prompt_synthesis_council",
        messages_text(&s, DialecticStep::Synthesis, "synthesis", false)
    );

    let mut c = standard(QUERIES[2], ResponseStyle::Json, Mode::SingleShot, true);
    c.response_schema = Some(json!({
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["ban", "limit", "keep"], "description": "The recommendation."},
            "conditions": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": 5}
        },
        "required": ["verdict", "conditions"],
        "additionalProperties": false
    }));
    let s = played(c);
    insta::assert_snapshot!(
        "dialectic_prompt_single_shot_json_schema",
        messages_text(&s, DialecticStep::SingleShot, "thesis", false)
    );

    let s = played(standard(
        QUERIES[1],
        ResponseStyle::BulletPoints,
        Mode::Workflow,
        false,
    ));
    insta::assert_snapshot!(
        "dialectic_prompt_synthesis_bullet_points",
        messages_text(&s, DialecticStep::Synthesis, "synthesis", false)
    );
}

/// With the `json` style, the person's schema and sources: each phase is told only what it
/// needs — the thesis and the critics are never shown the schema of a `result` they must not
/// write, every phase sees the sources (a critic must be able to check a citation), and only the
/// synthesis gets the schema, with an example that meets it.
#[test]
fn each_phase_is_told_only_what_it_needs_with_sources_and_the_json_style() {
    let mut c = standard(QUERIES[0], ResponseStyle::Json, Mode::Workflow, true);
    c.sources = vec![roundtable_core::protocol::dialectic::Source {
        title: "Four-day week pilot, UK 2023".into(),
        text: "61 companies took part; 56 continued the four-day week after the trial. Revenue stayed broadly the same.".into(),
    }];
    c.response_schema = Some(json!({
        "$defs": {"Condition": {"type": "object", "properties": {"if": {"type": "string", "maxLength": 200}, "then": {"enum": ["adopt", "trial", "reject"]}}, "required": ["if", "then"]}},
        "type": "object",
        "properties": {
            "verdict": {"enum": ["adopt", "trial", "reject"], "description": "The recommendation."},
            "conditions": {"type": "array", "items": {"$ref": "#/$defs/Condition"}, "maxItems": 4},
            "review_on": {"type": "string", "format": "date"}
        },
        "required": ["verdict", "conditions"],
        "additionalProperties": false
    }));
    let s = played(c);
    let thesis = messages_text(&s, DialecticStep::Thesis, "thesis", false);
    let critic = messages_text(&s, DialecticStep::Antithesis, "logician", false);
    let synthesis = messages_text(&s, DialecticStep::Synthesis, "synthesis", false);
    for (name, text) in [
        ("thesis", &thesis),
        ("antithesis", &critic),
        ("synthesis", &synthesis),
    ] {
        assert!(
            text.contains("## [1] Four-day week pilot, UK 2023"),
            "{name} sees the sources"
        );
        assert_eq!(
            text.matches("61 companies took part").count(),
            1,
            "{name}: once"
        );
    }
    for (name, text) in [("thesis", &thesis), ("antithesis", &critic)] {
        assert!(
            !text.contains("response schema") && !text.contains("\"result\""),
            "{name} is shown no result schema"
        );
        assert!(!text.contains("$defs"), "{name}");
    }
    assert!(synthesis.contains("The response schema of `result`"));
    assert!(critic.contains("Check every citation of the thesis"));
    insta::assert_snapshot!("dialectic_prompt_thesis_json_sources", thesis);
    insta::assert_snapshot!("dialectic_prompt_antithesis_json_sources", critic);
    insta::assert_snapshot!("dialectic_prompt_synthesis_json_sources", synthesis);
}

/// A single shot with a council: one call writes every standpoint. The page shows each as its
/// own critique when the answer keeps them under their headings (and the contradictions that
/// name them), says plainly that one call wrote them, and never counts a council of three as one.
#[test]
fn a_single_shot_council_is_shown_per_standpoint_or_said_to_be_one_call() {
    let s = played(standard(
        QUERIES[2],
        ResponseStyle::Sections,
        Mode::SingleShot,
        true,
    ));
    let v = s.state().view();
    let names: Vec<&str> = v.critiques.iter().map(|k| k.author.name.as_str()).collect();
    assert_eq!(names, ["The Logician", "The Empiricist", "The Ethicist"]);
    for k in &v.critiques {
        let text = k.text.as_deref().unwrap();
        assert!(!text.contains("## The"), "{text}");
        assert!(!k.contradictions.is_empty());
        assert!(k
            .contradictions
            .iter()
            .all(|c| !c.description.starts_with(&format!("{}:", k.author.name))));
        assert_eq!(k.author.model, "demo/demo-1", "the model that wrote it");
    }
    let note = v.one_call.as_deref().unwrap();
    assert!(
        note.starts_with("One call by The Proponent (demo model) wrote every standpoint"),
        "{note}"
    );
    assert!(
        v.summary().contains("council of 3 in one call"),
        "{}",
        v.summary()
    );
    assert_eq!(v.phases[1].title, "Critiques");

    // An answer that runs the standpoints together is one critique, and says so.
    let one = split_standpoints(
        "The Logician says A. The Empiricist says B.",
        &["The Logician", "The Empiricist"],
    );
    assert_eq!(one, None);
    let apart = split_standpoints(
        "## The Logician\nA does not follow.\n\n**The Empiricist:**\nNothing was measured.",
        &["The Logician", "The Empiricist"],
    );
    assert_eq!(
        apart,
        Some(vec![
            "A does not follow.".to_string(),
            "Nothing was measured.".to_string()
        ])
    );
    // Out of order, or one missing: not split.
    assert_eq!(
        split_standpoints(
            "## The Empiricist\nB\n## The Logician\nA",
            &["The Logician", "The Empiricist"]
        ),
        None
    );
    assert_eq!(
        split_standpoints("## The Logician\nA", &["The Logician", "The Empiricist"]),
        None
    );

    // Without the council: one critic, no note.
    let s = played(standard(
        QUERIES[2],
        ResponseStyle::Sections,
        Mode::SingleShot,
        false,
    ));
    let v = s.state().view();
    assert_eq!(v.critiques.len(), 1);
    assert_eq!(v.one_call, None);
    assert!(v.summary().contains("one critic"));
}

#[test]
fn the_repair_prompt_of_a_result_against_the_persons_schema_reads_as_a_snapshot() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/dialectic/json_schema_refused_then_repaired.json");
    let scenario: Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
    let (s, _) = play(&scenario);
    insta::assert_snapshot!(
        "dialectic_repair_result_against_the_persons_schema",
        messages_text(&s, DialecticStep::Synthesis, "synthesis", true)
    );
}

/// The structure of a value: its keys (recursively) and the JSON type of each leaf; a
/// placeholder object of 002's (`{"optional": true}`) stands for any value.
fn structure(v: &Value) -> Value {
    match v {
        Value::Object(m) if m.get("optional") == Some(&Value::Bool(true)) && m.len() == 1 => {
            json!("any")
        }
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), structure(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().take(1).map(structure).collect()),
        Value::String(_) => json!("string"),
        Value::Number(_) => json!("number"),
        Value::Bool(_) => json!("bool"),
        Value::Null => json!("null"),
    }
}

/// Ours against 002's, a placeholder of 002's matching anything.
fn same_structure(ours: &Value, spec: &Value, at: &str) {
    match (ours, spec) {
        (_, Value::String(s)) if s == "any" => {}
        (Value::Object(a), Value::Object(b)) => {
            let ka: Vec<&String> = a.keys().collect();
            let kb: Vec<&String> = b.keys().collect();
            assert_eq!(ka, kb, "{at}: the field names differ from 002's example");
            for (k, v) in a {
                same_structure(v, &b[k], &format!("{at}/{k}"));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for x in a {
                same_structure(x, &b[0], &format!("{at}/*"));
            }
        }
        _ => assert_eq!(ours, spec, "{at}"),
    }
}

/// 002: "When `format=\"single_prompt\"`, the tool returns the same fields as
/// `dialectical_single_shot` with `format: \"single_prompt\"`" — compared field by field with
/// 002's single-shot example plus `format` (`tests/files/dialectic_002_single_prompt.json`), and
/// with the single-shot document of the same dialectic, for every style, mode and council.
#[test]
fn the_single_prompt_document_is_the_single_shot_one_with_its_format() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/files");
    let read = |name: &str| -> Value {
        serde_json::from_str(&fs::read_to_string(dir.join(name)).unwrap()).unwrap()
    };
    let example = read("dialectic_002_single_prompt.json");
    let single_shot = read("dialectic_002_single_shot.json");
    // The example is 002's single-shot example and one field more.
    let mut less = example.clone();
    assert_eq!(
        less.as_object_mut().unwrap().remove("format"),
        Some(json!("single_prompt"))
    );
    assert_eq!(less, single_shot);
    for mode in [Mode::Workflow, Mode::SingleShot] {
        for style in ResponseStyle::ALL {
            for council in [false, true] {
                let mut c = standard(QUERIES[1], style, mode, council);
                if style == ResponseStyle::Json {
                    c.response_schema = Some(
                        json!({"type": "object", "properties": {"verdict": {"type": "string"}}, "required": ["verdict"]}),
                    );
                }
                let s = DialecticSession::new(c, 0).unwrap();
                let doc = s.state().single_prompt_document();
                let mut spec = structure(&example);
                if style != ResponseStyle::Json {
                    spec.as_object_mut().unwrap().remove("response_schema");
                }
                same_structure(&structure(&doc), &spec, "single_prompt");
                let one = s.state().single_shot_document();
                for (key, value) in one.as_object().unwrap() {
                    assert_eq!(
                        &doc[key.as_str()],
                        value,
                        "{key}: the same as the single shot's"
                    );
                }
                assert_eq!(doc["format"], "single_prompt");
                assert_eq!(doc["schema_version"], 1);
                assert_eq!(doc["query"], QUERIES[1]);
                assert_eq!(doc["use_search"], false);
                assert_eq!(doc["use_council"], council);
                assert_eq!(doc["response_style"], style.name());
                assert_eq!(
                    doc.get("response_schema").is_some(),
                    style == ResponseStyle::Json
                );
                if style == ResponseStyle::Json {
                    assert_eq!(doc["response_schema"]["required"], json!(["verdict"]));
                }
            }
        }
    }
}

#[test]
fn exported_documents_have_the_fields_of_002s_examples() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/files");
    let read = |name: &str| -> Value {
        structure(&serde_json::from_str(&fs::read_to_string(dir.join(name)).unwrap()).unwrap())
    };
    let single = read("dialectic_002_single_shot.json");
    let workflow = read("dialectic_002_workflow.json");
    for style in ResponseStyle::ALL {
        for council in [false, true] {
            let one = played(standard(QUERIES[3], style, Mode::SingleShot, council));
            let mut spec = single.clone();
            // 002: `response_schema` appears when `response_style="json"`.
            if style != ResponseStyle::Json {
                spec.as_object_mut().unwrap().remove("response_schema");
            }
            let doc = one.state().document();
            same_structure(&structure(&doc), &spec, "dialectical_single_shot");
            assert_eq!(doc["response_style"], style.name());
            assert_eq!(doc["use_council"], council);
            assert_eq!(doc["use_search"], false);

            let run = played(standard(QUERIES[3], style, Mode::Workflow, council));
            let mut spec = workflow.clone();
            if style != ResponseStyle::Json {
                spec["instructions"]
                    .as_object_mut()
                    .unwrap()
                    .remove("response_schema");
            }
            let doc = run.state().document();
            same_structure(&structure(&doc), &spec, "dialectical_workflow");
            let names: Vec<&str> = doc["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["name"].as_str().unwrap())
                .collect();
            assert_eq!(names.len(), if council { 5 } else { 3 }, "{names:?}");
            assert_eq!(names[0], "Generate Thesis");
            let phases: Vec<&str> = doc["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["prompt"]["phase"].as_str().unwrap())
                .collect();
            assert_eq!(phases.first(), Some(&"thesis"));
            assert_eq!(phases.last(), Some(&"synthesis"));
            // The later phases carry 002's places for the outputs before them.
            let synthesis = doc["steps"].as_array().unwrap().last().unwrap()["prompt"]["prompt"]
                .as_str()
                .unwrap();
            assert!(
                synthesis.contains("{{thesis_output}}")
                    && synthesis.contains("{{antithesis_output}}")
            );
        }
    }
    let run = played(standard(
        QUERIES[0],
        ResponseStyle::Sections,
        Mode::Workflow,
        true,
    ));
    insta::assert_snapshot!(
        "dialectic_export_workflow_sections_council",
        serde_json::to_string_pretty(&run.state().document()).unwrap()
    );
    let one = played(standard(
        QUERIES[0],
        ResponseStyle::Conversational,
        Mode::SingleShot,
        false,
    ));
    insta::assert_snapshot!(
        "dialectic_export_single_shot_conversational",
        serde_json::to_string_pretty(&one.state().document()).unwrap()
    );
    insta::assert_snapshot!(
        "dialectic_export_result_sections_council",
        serde_json::to_string_pretty(&run.state().result_document()).unwrap()
    );
}

#[test]
fn a_second_thesis_refused_by_the_fold_changes_nothing() {
    let mut s = DialecticSession::new(
        standard(QUERIES[0], ResponseStyle::Sections, Mode::Workflow, true),
        0,
    )
    .unwrap();
    s.start(1).unwrap();
    let mut now = 2;
    // Play to the antithesis.
    let call = loop {
        now += 1;
        let due = s.calls_due().into_iter().next().expect("a call is due");
        if DialecticState::step_of(due.call.step) == DialecticStep::Antithesis {
            break due;
        }
        let text = s.state().demo_answer(&due.call, due.envelope.get()).text;
        s.submit(&due.call.id, &text, None, now).unwrap();
    };
    let thesis = s.state().thesis.clone().expect("a thesis");
    let receive = |s: &mut DialecticSession| {
        let seq = s.events().len() as u64;
        s.extend(&[Event {
            seq,
            at: 10_000,
            kind: EventKind::AnswerReceived {
                call_id: call.call.id.clone(),
                raw: "{}".into(),
                whole_bytes: None,
                usage: None,
                tokens: 1,
            },
        }])
        .unwrap();
    };
    let apply = |s: &mut DialecticSession, output: DialecticOutput| {
        let seq = s.events().len() as u64;
        s.extend(&[Event {
            seq,
            at: 10_001,
            kind: EventKind::Applied {
                call_id: call.call.id.clone(),
                output: KindValue::new(output),
                warnings: Vec::new(),
            },
        }])
    };
    let mut before = s.clone();
    receive(&mut before);
    let mut refused = s.clone();
    receive(&mut refused);
    let err = apply(&mut refused, DialecticOutput::Thesis(thesis)).unwrap_err();
    assert!(
        err.to_string().contains("thesis is already written"),
        "{err}"
    );
    assert_eq!(refused, before, "the refused thesis changed the dialectic");

    let mut applied = s.clone();
    receive(&mut applied);
    let text = s.state().demo_answer(&call.call, call.envelope.get()).text;
    let mut w = Vec::new();
    let critique = answer::check_antithesis(&text, Default::default(), &mut w)
        .or_else(|_| {
            // The demo's seeded mistake may be on this call: its repair is valid.
            let mut repair = call.call.clone();
            repair.kind = roundtable_core::engine::CallKind::Repair;
            let text = s.state().demo_answer(&repair, call.envelope.get()).text;
            answer::check_antithesis(&text, Default::default(), &mut w)
        })
        .unwrap();
    apply(&mut applied, DialecticOutput::Antithesis(critique)).unwrap();
    assert_ne!(applied.state(), before.state());
    assert_eq!(applied.state().critiques.len(), 1);
}

#[test]
fn the_view_shows_each_critics_card_as_it_stands_mid_run() {
    let mut s = DialecticSession::new(
        standard(
            QUERIES[2],
            ResponseStyle::BulletPoints,
            Mode::Workflow,
            true,
        ),
        0,
    )
    .unwrap();
    s.start(1).unwrap();
    let mut now = 2;
    // The thesis, then the first critic's answer only.
    let mut critiques_in = 0;
    while critiques_in < 1 {
        now += 1;
        let due = s.calls_due().into_iter().next().expect("a call is due");
        let mut text = s.state().demo_answer(&due.call, due.envelope.get()).text;
        if DialecticState::step_of(due.call.step) == DialecticStep::Antithesis {
            let mut repair = due.call.clone();
            repair.kind = roundtable_core::engine::CallKind::Repair;
            text = s.state().demo_answer(&repair, due.envelope.get()).text;
            critiques_in += 1;
        }
        s.submit(&due.call.id, &text, None, now).unwrap();
    }
    let v = s.state().view();
    let words: Vec<&str> = v.phases.iter().map(|p| p.status_word.as_str()).collect();
    assert_eq!(words, ["done", "writing", "waiting"]);
    let cards: Vec<(&str, &str)> = v
        .critiques
        .iter()
        .map(|k| (k.author.id.as_str(), k.status.word()))
        .collect();
    assert_eq!(
        cards,
        [
            ("logician", "done"),
            ("empiricist", "writing"),
            ("ethicist", "writing")
        ]
    );
    assert!(v.critiques[0].text.is_some() && v.critiques[1].text.is_none());
    assert_eq!(v.synthesis.status.word(), "waiting");
    assert_eq!(v.progress, 44);
    assert!(v.show_phases);
}

#[test]
fn a_fork_what_if_changes_a_critics_model_and_persona() {
    let mut s = DialecticSession::new(
        standard(QUERIES[0], ResponseStyle::Sections, Mode::Workflow, true),
        0,
    )
    .unwrap();
    let change = roundtable_core::engine::MemberChange {
        member: "ethicist".into(),
        model: Some(ModelRef {
            provider: "anthropic".into(),
            model: "claude-sonnet".into(),
        }),
        persona: Some("You speak for the people who would work the fifth day.".into()),
    };
    s.edit(DialecticEdit::Member(change), 1).unwrap();
    let st = s.state();
    assert_eq!(st.model_of("ethicist").unwrap().provider, "anthropic");
    assert_eq!(
        st.view().critiques[2].author.model,
        "anthropic/claude-sonnet"
    );
    let bad = roundtable_core::engine::MemberChange {
        member: "logician".into(),
        model: None,
        persona: Some("x".repeat(501)),
    };
    let err = s.edit(DialecticEdit::Member(bad), 2).unwrap_err();
    assert!(err.to_string().contains("longer than 500"), "{err}");
    let _ = EngineEdit::from(DialecticEdit::Member(Default::default()));
}

/// The synthesis instructions of each style side by side (the rest of the prompt is the same),
/// the lone critic's antithesis and the single shot without the council, and the repair of a
/// synthesis in the wrong form.
#[test]
fn what_differs_by_style_council_and_mode_reads_as_snapshots() {
    use roundtable_core::protocol::dialectic::prompt;
    let mut out = String::new();
    for style in ResponseStyle::ALL {
        let mut schemas = vec![None];
        if style == ResponseStyle::Json {
            schemas.push(Some(
                json!({"type": "object", "properties": {"verdict": {"type": "string"}}}),
            ));
        }
        for schema in schemas {
            let mut c = standard(QUERIES[1], style, Mode::Workflow, true);
            c.response_schema = schema.clone();
            let s = DialecticSession::new(c, 0).unwrap();
            let mut env = prompt::envelope(s.state(), "synthesis");
            env.step = DialecticStep::Synthesis;
            let p = prompt::dialectical_prompt(&env);
            out.push_str(&format!(
                "## {}{}\n{}\n\n",
                style.name(),
                if schema.is_some() {
                    " with a response schema"
                } else {
                    ""
                },
                p.instructions
            ));
        }
    }
    insta::assert_snapshot!("dialectic_synthesis_instructions_by_style", out);

    let s = played(standard(
        QUERIES[3],
        ResponseStyle::Sections,
        Mode::Workflow,
        false,
    ));
    insta::assert_snapshot!(
        "dialectic_prompt_antithesis_lone_critic",
        messages_text(&s, DialecticStep::Antithesis, "logician", false)
    );
    let s = played(standard(
        QUERIES[3],
        ResponseStyle::SynthesisOnly,
        Mode::SingleShot,
        false,
    ));
    insta::assert_snapshot!(
        "dialectic_prompt_single_shot_synthesis_only",
        messages_text(&s, DialecticStep::SingleShot, "thesis", false)
    );
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/dialectic/bullet_points_one_critic.json");
    let scenario: Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
    let (s, _) = play(&scenario);
    insta::assert_snapshot!(
        "dialectic_repair_synthesis_not_in_bullet_points",
        messages_text(&s, DialecticStep::Synthesis, "synthesis", true)
    );
}

/// The schema a synthesis call is sent with the person's `response_schema` as its `result`, in
/// every family's form, breaks none of that provider's published rules (`provider_rules`), and is
/// enforced, not dropped to JSON mode.
#[test]
fn a_call_schema_with_the_persons_shape_fits_every_provider() {
    use roundtable_core::provider_rules::{self, Family};
    use roundtable_core::provider_schema;
    let mut c = standard(QUERIES[0], ResponseStyle::Json, Mode::Workflow, true);
    c.response_schema = Some(json!({
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["adopt", "trial", "reject"]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "reasons": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": 4},
            "owner": {"type": ["string", "null"]}
        },
        "required": ["verdict", "confidence", "reasons"],
        "additionalProperties": false
    }));
    let s = DialecticSession::new(c, 0).unwrap();
    for step in [DialecticStep::Synthesis, DialecticStep::SingleShot] {
        let schema = s.state().call_schema(step);
        for family in Family::ALL {
            let fitted = provider_schema::for_family(family, &schema);
            assert_ne!(
                fitted.form,
                roundtable_core::engine::SchemaForm::JsonMode,
                "{step:?} [{}]",
                family.name()
            );
            let breaks = provider_rules::check(family, &fitted.schema);
            assert!(
                breaks.is_empty(),
                "{step:?} [{}]: {breaks:?}",
                family.name()
            );
        }
    }
}

#[test]
fn the_report_reads_as_a_snapshot_and_the_demos_play_to_the_end() {
    let run = played(standard(
        QUERIES[0],
        ResponseStyle::Sections,
        Mode::Workflow,
        true,
    ));
    insta::assert_snapshot!("dialectic_report_sections_council", run.state().markdown());
    let only = played(standard(
        QUERIES[2],
        ResponseStyle::SynthesisOnly,
        Mode::Workflow,
        false,
    ));
    let md = only.state().markdown();
    assert!(
        md.find("## Synthesis").unwrap() < md.find("## Thesis").unwrap(),
        "synthesis only puts the synthesis first"
    );
    assert_eq!(only.state().title(), QUERIES[2]);
    for config in DialecticConfig::demos(demo_ref()) {
        let s = played(config);
        assert_eq!(s.status(), &Status::Done);
    }
}

#[test]
fn a_council_needs_two_critics_in_either_mode() {
    for mode in [Mode::Workflow, Mode::SingleShot] {
        let mut c = standard(QUERIES[0], ResponseStyle::Sections, mode, true);
        c.critics.clear();
        let err = DialecticSession::new(c, 0).unwrap_err().to_string();
        assert!(
            err.contains("a council needs at least two critics (it has 0)"),
            "{err}"
        );
    }
    // A single shot without the council needs no critic at all.
    let mut c = standard(QUERIES[0], ResponseStyle::Sections, Mode::SingleShot, false);
    c.critics.clear();
    assert_eq!(played(c).status(), &Status::Done);
}

/// The event log goes through JSON and back (as the session file and the app's storage keep it)
/// and folds into the same dialectic: config with a schema, outputs with a result, refused
/// answers; member edits.
#[test]
fn the_event_log_reads_back_from_json_into_the_same_dialectic() {
    for name in [
        "json_schema_refused_then_repaired",
        "what_if_the_empiricist_runs_elsewhere",
    ] {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/scenarios/dialectic/{name}.json"));
        let scenario: Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        let (s, _) = play(&scenario);
        let text: Vec<String> = s
            .events()
            .iter()
            .map(|e| serde_json::to_string(e).unwrap())
            .collect();
        let events: Vec<Event> = text
            .iter()
            .map(|t| Event::read(&DialecticState::INFO, t).unwrap())
            .collect();
        let back = KindEngine::<DialecticState>::replay(&events).unwrap();
        assert_eq!(back.state(), s.state(), "{name}");
    }
}
