//! The engine's effects, driven by the smallest kind that uses them: a member writes a number, the
//! runner is asked to double it (an effect, as running code will be), and the member's second
//! step reads the result. The effect waits for the runner, its output folds in once, a wrong or
//! repeated output is refused, a wrap-up drops an effect still owed, and the log — carried
//! through JSON — replays to the same state without anything performed again.

use roundtable_core::engine::{
    Core, DemoReply, Effect, EngineError, Event, EventKind, Findings, FoldError, Judgement,
    JudgementOf, KindEngine, MemberChange, MemberInfo, Message, ModelRef, Move, MoveOf, Protocol,
    Settings, Status, StoredCall,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The kind's two steps, by their names in files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Step {
    Write,
    Check,
}

/// A kind with two steps of one member ("write", then "check") and an effect between them.
#[derive(Debug, Clone, PartialEq)]
struct Doubling {
    core: Core,
    model: ModelRef,
    written: Option<i64>,
    doubled: Option<i64>,
    checked: Option<String>,
}

impl Protocol for Doubling {
    const KIND: &'static str = "doubling";
    const TITLE: &'static str = "Doubling";
    type Config = ();
    type Step = Step;
    const STEPS: &'static [Step] = &[Step::Write, Step::Check];
    type Envelope = ();
    type Output = String;
    type Ask = ();
    type Served = ();
    type Edit = ();
    type Block = ();

    fn request(&self) -> &str {
        "double a number"
    }
    fn members(&self) -> Vec<MemberInfo> {
        vec![MemberInfo {
            id: "ana".into(),
            name: "Ana".into(),
            model: self.model.clone(),
            persona: String::new(),
        }]
    }
    fn progress(&self) -> u32 {
        0
    }
    fn report_markdown(&self) -> String {
        String::new()
    }
    fn member_edit(_: MemberChange) {}
    fn create(_: &()) -> Result<Doubling, String> {
        Ok(Doubling {
            core: Core::new(Settings::default()),
            model: ModelRef {
                provider: "test".into(),
                model: "t".into(),
            },
            written: None,
            doubled: None,
            checked: None,
        })
    }
    fn settings(_: &()) -> Settings {
        Settings::default()
    }
    fn core(&self) -> &Core {
        &self.core
    }
    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }
    fn step_wire(step: Step) -> &'static str {
        ["write", "check"][step as usize]
    }
    fn step_name(step: Step) -> &'static str {
        ["write", "check"][step as usize]
    }
    fn step_title(step: Step) -> &'static str {
        ["Write", "Check"][step as usize]
    }
    fn model_of(&self, _: &str) -> Option<&ModelRef> {
        Some(&self.model)
    }
    fn next_move(&self) -> Move<Doubling> {
        if self.core.rounds_ended {
            return MoveOf::Finish;
        }
        match (
            self.core.round,
            self.core.step.map(Self::step_of),
            self.written,
            self.doubled,
        ) {
            (0, ..) => MoveOf::Round(1),
            (_, None, ..) => MoveOf::Step(1, Step::Write, vec!["ana".into()]),
            (_, Some(Step::Write), Some(n), None) => MoveOf::Effect(Effect {
                name: "double".into(),
                input: json!({ "n": n }),
            }),
            (_, Some(Step::Write), _, Some(_)) => MoveOf::Step(1, Step::Check, vec!["ana".into()]),
            _ => MoveOf::Finish,
        }
    }
    fn still_blocked(&self, _: &()) -> Option<String> {
        None
    }
    fn envelope(&self, _: &str) {}
    fn first_messages(&self, _: &()) -> Vec<Message> {
        vec![Message::new(
            roundtable_core::engine::ChatRole::User,
            "A number?",
        )]
    }
    fn judge(&self, _: &StoredCall, raw: &str, _: bool) -> Judgement<Doubling> {
        JudgementOf::Apply {
            output: raw.to_string(),
            warnings: Vec::new(),
        }
    }
    fn serve(&self, _: &str, _: &(), _: u32) -> ((), String) {
        ((), String::new())
    }
    fn repair_prompt(&self, _: Step, _: &Findings) -> String {
        String::new()
    }
    fn check_edit(&self, _: &()) -> Result<(), String> {
        Ok(())
    }
    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        match &event.kind {
            EventKind::Applied { output, .. } if self.written.is_none() => {
                self.written =
                    Some(
                        output
                            .get::<String>()
                            .parse()
                            .map_err(|_| FoldError::Refused {
                                pointer: String::new(),
                                reason: "not a number".into(),
                                expected: "a number".into(),
                                received: output.get::<String>().to_string(),
                            })?,
                    );
            }
            EventKind::Applied { output, .. } => {
                self.checked = Some(output.get::<String>().to_string())
            }
            EventKind::EffectDone { output, .. } => self.doubled = output["doubled"].as_i64(),
            _ => {}
        }
        Ok(Vec::new())
    }
    fn demo_answer(&self, _: &StoredCall, _: &()) -> DemoReply {
        DemoReply {
            text: "21".into(),
            finish_reason: "stop".into(),
            prompt_tokens: 1,
            completion_tokens: 1,
        }
    }
}

fn only_call(s: &KindEngine<Doubling>) -> String {
    let calls = s.next_calls();
    assert_eq!(calls.len(), 1, "{calls:?}");
    calls[0].id.clone()
}

/// The log carried through JSON, as storage and session files carry it.
fn through_json(s: &KindEngine<Doubling>) -> KindEngine<Doubling> {
    let texts: Vec<String> = s
        .events()
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let events: Vec<Event> = texts
        .iter()
        .map(|t| Event::read(&Doubling::INFO, t).unwrap())
        .collect();
    KindEngine::replay(&events).unwrap()
}

#[test]
fn an_effect_waits_for_the_runner_and_its_output_folds_in_once() {
    let mut s = KindEngine::<Doubling>::new((), 0).unwrap();
    s.start(1).unwrap();
    let write = only_call(&s);
    s.submit(&write, "21", None, 2).unwrap();

    // The kind asked for an effect: no call is due, the runner is asked to perform it.
    assert!(s.next_calls().is_empty());
    let due = s.next_effects();
    assert_eq!(due.len(), 1);
    assert_eq!(
        (due[0].id.as_str(), due[0].name.as_str()),
        ("effect-1", "double")
    );
    assert_eq!(due[0].input, json!({ "n": 21 }));
    assert_eq!(*s.status(), Status::Running);

    // A replay while it is owed asks for it again, and only it.
    let replayed = through_json(&s);
    assert_eq!(replayed.next_effects(), due);

    // An output for an effect that is not pending changes nothing.
    let before = s.events().len();
    assert!(matches!(
        s.effect_done("effect-9", json!({}), 3),
        Err(EngineError::EffectNotPending(id)) if id == "effect-9"
    ));
    assert_eq!(s.events().len(), before);

    s.effect_done("effect-1", json!({ "doubled": 42 }), 3)
        .unwrap();
    assert_eq!(s.state().doubled, Some(42));
    assert!(s.next_effects().is_empty());
    // Handed in twice: refused, the first output stands.
    assert!(matches!(
        s.effect_done("effect-1", json!({ "doubled": 0 }), 4),
        Err(EngineError::EffectNotPending(_))
    ));

    let check = only_call(&s);
    s.submit(&check, "looks right", None, 5).unwrap();
    assert_eq!(*s.status(), Status::Done);
    assert_eq!(s.state().checked.as_deref(), Some("looks right"));

    // The whole log replays to the same state, the effect's output read from the log.
    let names: Vec<&str> = s.events().iter().map(|e| e.kind.name()).collect();
    assert!(
        names.contains(&"effect_issued") && names.contains(&"effect_done"),
        "{names:?}"
    );
    assert_eq!(through_json(&s).state(), s.state());
    let record = s.state().core().effect("effect-1").unwrap();
    assert_eq!(record.output, Some(json!({ "doubled": 42 })));
}

#[test]
fn a_wrap_up_drops_an_effect_still_owed() {
    let mut s = KindEngine::<Doubling>::new((), 0).unwrap();
    s.start(1).unwrap();
    let write = only_call(&s);
    s.submit(&write, "5", None, 2).unwrap();
    assert_eq!(s.next_effects().len(), 1);
    s.finish(3).unwrap();
    assert!(s.next_effects().is_empty());
    assert!(s.state().core().effect("effect-1").unwrap().dropped);
    assert!(matches!(
        s.effect_done("effect-1", json!({ "doubled": 10 }), 4),
        Err(EngineError::WrongStatus { .. } | EngineError::EffectNotPending(_))
    ));
    assert_eq!(s.state().doubled, None);
    assert_eq!(through_json(&s).state(), s.state());
}

#[test]
fn a_log_with_an_output_for_no_pending_effect_does_not_replay() {
    let mut s = KindEngine::<Doubling>::new((), 0).unwrap();
    s.start(1).unwrap();
    let write = only_call(&s);
    s.submit(&write, "5", None, 2).unwrap();
    s.effect_done("effect-1", json!({ "doubled": 10 }), 3)
        .unwrap();
    let mut events: Vec<Value> = s
        .events()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    // A second output for the same effect, spliced in by hand.
    let mut again = events.last().unwrap().clone();
    let done = events
        .iter()
        .find(|e| e["kind"]["type"] == "effect_done")
        .unwrap()
        .clone();
    again["kind"] = done["kind"].clone();
    again["seq"] = json!(events.len());
    events.push(again);
    let parsed: Vec<Event> = events
        .iter()
        .map(|e| Event::read(&Doubling::INFO, &e.to_string()).unwrap())
        .collect();
    assert!(
        matches!(KindEngine::<Doubling>::replay(&parsed), Err(FoldError::Effect(id)) if id == "effect-1")
    );
}
