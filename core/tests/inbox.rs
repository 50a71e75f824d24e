//! The engine's inbox, driven by the smallest kind that uses all of it: one step where two
//! members answer in parallel, and an answer may put a question or an approval to the person.
//! Several asks wait side by side, oldest first; a reply goes to the one it names; a reply that
//! does not fit what was asked is refused; the session runs again once the inbox is empty, and
//! the log replays to the same state.

use roundtable_core::engine::{
    Core, DemoReply, EngineError, Event, EventKind, Findings, FoldError, Judgement, JudgementOf,
    KindEngine, MemberChange, MemberInfo, Message, ModelRef, Move, MoveOf, PersonAsk, PersonReply,
    Protocol, Settings, Status, StoredCall, Verdict,
};

const MEMBERS: [&str; 2] = ["ana", "bo"];

/// A kind with one step, "work", answered by both members at once.
#[derive(Debug, Clone, PartialEq)]
struct Asking {
    core: Core,
    model: ModelRef,
    /// What each member's applied answer said.
    done: Vec<String>,
}

impl Protocol for Asking {
    const KIND: &'static str = "asking";
    const TITLE: &'static str = "Asking";
    type Config = ();
    type Step = u8;
    const STEPS: &'static [u8] = &[0];
    type Envelope = ();
    type Output = String;
    type Ask = ();
    type Served = ();
    type Edit = ();
    type Block = ();

    fn request(&self) -> &str {
        "ask the person"
    }
    fn members(&self) -> Vec<MemberInfo> {
        MEMBERS
            .iter()
            .map(|m| MemberInfo {
                id: m.to_string(),
                name: m.to_string(),
                model: self.model.clone(),
                persona: String::new(),
            })
            .collect()
    }
    fn progress(&self) -> u32 {
        0
    }
    fn report_markdown(&self) -> String {
        self.done.join("\n")
    }
    fn member_edit(_: MemberChange) {}
    fn create(_: &()) -> Result<Asking, String> {
        Ok(Asking {
            core: Core::new(Settings::default()),
            model: ModelRef {
                provider: "test".into(),
                model: "t".into(),
            },
            done: Vec::new(),
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
    fn step_wire(_: u8) -> &'static str {
        "work"
    }
    fn step_name(_: u8) -> &'static str {
        "work"
    }
    fn step_title(_: u8) -> &'static str {
        "Work"
    }
    fn model_of(&self, _: &str) -> Option<&ModelRef> {
        Some(&self.model)
    }
    fn next_move(&self) -> Move<Asking> {
        match self.core.step {
            None => MoveOf::Step(1, 0, MEMBERS.iter().map(|m| m.to_string()).collect()),
            Some(_) => MoveOf::Finish,
        }
    }
    fn still_blocked(&self, _: &()) -> Option<String> {
        None
    }
    fn envelope(&self, _: &str) {}
    fn first_messages(&self, _: &()) -> Vec<Message> {
        vec![Message::new(
            roundtable_core::engine::ChatRole::User,
            "Answer, or ask the person.",
        )]
    }
    /// `ask:…` puts a question, `approve:…` asks for an approval, anything else is the work.
    fn judge(&self, _: &StoredCall, raw: &str, _: bool) -> Judgement<Asking> {
        if let Some(q) = raw.strip_prefix("ask:") {
            JudgementOf::Ask {
                ask: PersonAsk::Question {
                    to: vec!["user-1".into()],
                    message: q.into(),
                    options: Some(vec!["yes".into(), "no".into()]),
                },
                warnings: Vec::new(),
            }
        } else if let Some(a) = raw.strip_prefix("approve:") {
            JudgementOf::Ask {
                ask: PersonAsk::Approval {
                    to: vec!["user-1".into()],
                    message: a.into(),
                },
                warnings: Vec::new(),
            }
        } else {
            JudgementOf::Apply {
                output: raw.to_string(),
                warnings: Vec::new(),
            }
        }
    }
    fn serve(&self, _: &str, _: &(), _: u32) -> ((), String) {
        ((), String::new())
    }
    fn repair_prompt(&self, _: u8, _: &Findings) -> String {
        String::new()
    }
    fn check_edit(&self, _: &()) -> Result<(), String> {
        Ok(())
    }
    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        if let EventKind::Applied { output, .. } = &event.kind {
            self.done.push(output.get::<String>().to_string());
        }
        Ok(Vec::new())
    }
    fn demo_answer(&self, _: &StoredCall, _: &()) -> DemoReply {
        DemoReply {
            text: "work".into(),
            finish_reason: "stop".into(),
            prompt_tokens: 1,
            completion_tokens: 1,
        }
    }
}

/// The call due to `member`.
fn call_of(s: &KindEngine<Asking>, member: &str) -> String {
    s.next_calls()
        .into_iter()
        .find(|c| c.member == member)
        .map(|c| c.id)
        .unwrap_or_else(|| panic!("a call due to {member}"))
}

fn waiting(s: &KindEngine<Asking>) -> Vec<(String, String)> {
    s.state()
        .core()
        .open_asks()
        .map(|h| (h.asked_by.clone(), h.halt.message().to_string()))
        .collect()
}

#[test]
fn two_asks_wait_side_by_side_and_each_reply_goes_where_it_is_sent() {
    let mut s = KindEngine::<Asking>::new((), 0).unwrap();
    s.start(1).unwrap();
    let (ana, bo) = (call_of(&s, "ana"), call_of(&s, "bo"));
    s.submit(&ana, "ask:Indoors?", None, 2).unwrap();
    assert!(matches!(s.status(), Status::AwaitingPerson { asked_by, .. } if asked_by == "ana"));
    s.submit(&bo, "approve:Ship the plan?", None, 3).unwrap();
    assert_eq!(
        waiting(&s),
        [
            ("ana".to_string(), "Indoors?".to_string()),
            ("bo".to_string(), "Ship the plan?".to_string())
        ],
        "both wait, oldest first"
    );
    assert!(
        matches!(s.status(), Status::AwaitingPerson { asked_by, .. } if asked_by == "ana"),
        "the status shows the oldest"
    );

    // A reply that does not fit what was asked changes nothing.
    let before = s.events().len();
    assert!(matches!(
        s.reply(Some(&bo), PersonReply::answer("yes"), 4),
        Err(EngineError::Reply(_))
    ));
    assert!(matches!(
        s.reply(Some(&bo), PersonReply::verdict(Verdict::Revise, " "), 4),
        Err(EngineError::Reply(_))
    ));
    assert!(matches!(
        s.reply(Some(&ana), PersonReply::verdict(Verdict::Approve, ""), 4),
        Err(EngineError::Reply(_))
    ));
    assert!(s
        .reply(Some("call-99"), PersonReply::answer("yes"), 4)
        .is_err());
    assert_eq!(s.events().len(), before, "nothing recorded");

    // The approval first, by its call: the question still waits.
    s.reply(
        Some(&bo),
        PersonReply::verdict(Verdict::Revise, "Shorter, please."),
        5,
    )
    .unwrap();
    assert_eq!(waiting(&s).len(), 1);
    assert!(matches!(s.status(), Status::AwaitingPerson { asked_by, .. } if asked_by == "ana"));
    s.answer_halt("yes", 6).unwrap();
    assert!(waiting(&s).is_empty());
    assert_eq!(
        *s.status(),
        Status::Running,
        "runs again once the inbox is empty"
    );

    let replies: Vec<_> = s
        .state()
        .core()
        .halts
        .iter()
        .map(|h| h.answer.clone().unwrap().words())
        .collect();
    assert_eq!(
        replies,
        ["yes", "The person asked for a revision: Shorter, please."]
    );

    // Each member is asked afresh and the step finishes.
    let (ana, bo) = (call_of(&s, "ana"), call_of(&s, "bo"));
    s.submit(&ana, "indoors", None, 7).unwrap();
    s.submit(&bo, "shorter plan", None, 8).unwrap();
    assert_eq!(*s.status(), Status::Done);
    assert_eq!(KindEngine::<Asking>::replay(s.events()).unwrap(), s);
}
