//! Shared helpers of the tests of what the demo model writes: a team session or a meeting played
//! to done on the demo model, answering the chair's question or remarking as a person would.
#![allow(dead_code)]

use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::meeting::{MeetingConfig, MeetingEdit};
use roundtable_core::protocol::team::demo;
use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::session::Session;

/// The built-in demo model.
pub fn demo_ref() -> ModelRef {
    ModelRef {
        provider: demo::PROVIDER.into(),
        model: demo::MODEL.into(),
    }
}

/// Plays a team session to done, answering the chair's question with `answer`.
pub fn team(request: &str, answer: &str) -> Session {
    team_asked(request, answer).0
}

/// Plays a team session to done; also gives the chair's question as the person read it.
pub fn team_asked(request: &str, answer: &str) -> (Session, String) {
    let config = TeamConfig::standard(request, 2, true, false, demo_ref());
    let mut s = Session::new_team(config, 0).unwrap();
    let mut now = 1;
    let mut asked = String::new();
    s.start(now).unwrap();
    for _ in 0..3_000 {
        now += 1;
        if let Some((_, halt)) = s.question() {
            asked = halt.message().to_string();
            s.answer_halt(answer, now).unwrap();
        } else if s.is_running() {
            for call in s.next_calls() {
                let reply = call.demo.unwrap();
                s.submit(&call.id, &reply.text, None, now).unwrap();
            }
        } else {
            break;
        }
    }
    assert_eq!(s.status_word(), "done");
    (s, asked)
}

/// Plays a meeting of Ana (organiser) and Bo (treasurer) on `agenda` to done; with `remark`, the
/// person says it once the meeting is in its third turn.
pub fn meeting(agenda: &str, remark: Option<&str>) -> Session {
    meeting_with(
        agenda,
        &[("ana", "Ana", "Organiser"), ("bo", "Bo", "Treasurer")],
        remark,
        None,
    )
}

/// Plays a meeting of `attendees` on `agenda` to done: with `remark`, the person says it once
/// the meeting is in its third turn; with `wrap_in`, the person presses Wrap up once that phase
/// has heard its first speaker.
pub fn meeting_with(
    agenda: &str,
    attendees: &[(&str, &str, &str)],
    remark: Option<&str>,
    wrap_in: Option<roundtable_core::protocol::meeting::Phase>,
) -> Session {
    let config = MeetingConfig::standard(agenda, attendees, demo_ref());
    let mut s = Session::new_meeting(config, 0).unwrap();
    let mut now = 1;
    s.start(now).unwrap();
    let mut remark = remark;
    let mut wrap_in = wrap_in;
    for _ in 0..2_000 {
        now += 1;
        if !s.is_running() {
            break;
        }
        if s.round() >= 3 {
            if let Some(r) = remark.take() {
                s.as_meeting_mut()
                    .unwrap()
                    .edit(MeetingEdit::Remark { content: r.into() }, now)
                    .unwrap();
            }
        }
        if let Some(phase) = wrap_in {
            let state = s.as_meeting().unwrap().state();
            if state.phase == phase && !state.spoken.is_empty() {
                s.finish(now).unwrap();
                wrap_in = None;
                continue;
            }
        }
        for call in s.next_calls() {
            let reply = call.demo.unwrap();
            s.submit(&call.id, &reply.text, None, now).unwrap();
        }
    }
    assert_eq!(s.status_word(), "done", "{agenda}");
    s
}
