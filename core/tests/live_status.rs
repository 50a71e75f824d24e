//! Every status the session page shows comes from core ([`roundtable_core::live`] and
//! `SessionView`), and tells the truth per fault: a failed call reads "failed" with its error in
//! the timeline, the transcript and the pause reason (never "paused by you", never "waiting");
//! a call cancelled by Stop reads "stopped"; a retry's banner counts down and goes once the
//! retry is out; every message names where it can be fixed. Run for both kinds.

use std::collections::BTreeMap;

use roundtable_core::engine::{Fix, ModelRef};
use roundtable_core::live::{CallActivity, RunFacts};
use roundtable_core::protocol::meeting::MeetingConfig;
use roundtable_core::protocol::team::demo;
use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::session::{Session, SessionStatus};

const KEY_ERROR: &str =
    "OpenAI refused the key (HTTP 401): Incorrect API key provided. Check the key in Settings.";

fn demo_ref() -> ModelRef {
    ModelRef {
        provider: demo::PROVIDER.into(),
        model: demo::MODEL.into(),
    }
}

fn team() -> Session {
    let config = TeamConfig::standard(
        "Plan a book swap for 40 people.",
        2,
        true,
        false,
        demo_ref(),
    );
    Session::new_team(config, 0).unwrap()
}

fn meeting() -> Session {
    let config = MeetingConfig::standard(
        "Pick a venue for the book swap. 40 people, £50.",
        &[("ana", "Ana", "Organiser"), ("bo", "Bo", "Treasurer")],
        demo_ref(),
    );
    Session::new_meeting(config, 0).unwrap()
}

fn both() -> [Session; 2] {
    [team(), meeting()]
}

fn facts(now: u64, calls: &[(&str, CallActivity)]) -> RunFacts {
    RunFacts {
        now,
        calls: calls
            .iter()
            .map(|(id, a)| (id.to_string(), a.clone()))
            .collect::<BTreeMap<_, _>>(),
    }
}

/// The state word of a call in the timeline.
fn timeline_state(s: &Session, id: &str, f: &RunFacts) -> (String, String) {
    s.timeline(f)
        .iter()
        .flat_map(|r| r.steps.iter())
        .flat_map(|st| st.calls.iter())
        .find(|c| c.id == id)
        .map(|c| (c.now.state.to_string(), c.now.label.clone()))
        .expect("the call is in the timeline")
}

#[test]
fn a_failed_call_reads_failed_everywhere_with_its_error_and_a_link_to_settings() {
    for mut s in both() {
        s.start(1).unwrap();
        let call = s.next_calls().remove(0);
        s.fail_call(&call.id, KEY_ERROR, Fix::Settings, 2).unwrap();
        let none = RunFacts::default();

        let view = s.view();
        assert_eq!(view.status, SessionStatus::Paused);
        assert!(!view.status_text.contains("by you"), "{}", view.status_text);
        assert!(view.status_text.contains("Incorrect API key provided"));
        assert!(!view.status_text.contains(".."), "{}", view.status_text);
        assert_eq!(view.fix, Some(Fix::Settings));

        assert_eq!(timeline_state(&s, &call.id, &none).0, "failed");
        let members = s.members_now(&none);
        let m = members.iter().find(|m| m.member == call.member).unwrap();
        assert_eq!(m.state, "failed");

        let cv = s.call_view(&call.id).unwrap();
        assert_eq!(cv.failed, Some((KEY_ERROR.to_string(), Fix::Settings)));

        // The log keeps it: replay reads the same.
        let stored: Vec<String> = s
            .events_json(0)
            .unwrap()
            .into_iter()
            .map(|(_, j)| j)
            .collect();
        let back = Session::replay_stored(&stored).unwrap();
        assert_eq!(back.view(), view);

        // Resuming asks the same call again; its answer applies and the failure is history.
        s.resume(3).unwrap();
        let again = s.next_calls().remove(0);
        assert_eq!(again.id, call.id);
        assert_eq!(timeline_state(&s, &call.id, &none).0, "queued");
        let reply = again.demo.unwrap();
        s.submit(&again.id, &reply.text, None, 4).unwrap();
        let (state, _) = timeline_state(&s, &call.id, &none);
        assert_ne!(state, "failed");
        assert_ne!(s.view().status, SessionStatus::Paused);
    }
}

#[test]
fn a_failure_is_refused_for_a_call_that_is_not_out() {
    let mut s = team();
    assert!(
        s.fail_call("call-1", "x", Fix::Settings, 1).is_err(),
        "a draft"
    );
    s.start(1).unwrap();
    assert!(s.fail_call("call-99", "x", Fix::Settings, 2).is_err());
    let call = s.next_calls().remove(0);
    let reply = call.demo.clone().unwrap();
    s.submit(&call.id, &reply.text, None, 3).unwrap();
    assert!(
        s.fail_call(&call.id, "x", Fix::Settings, 4).is_err(),
        "an answered call cannot fail"
    );
}

#[test]
fn a_call_cancelled_by_stop_reads_stopped_not_waiting() {
    for mut s in both() {
        s.start(1).unwrap();
        let call = s.next_calls().remove(0);
        let streaming = facts(5, &[(&call.id, CallActivity::Streaming { chars: 1234 })]);
        assert_eq!(
            timeline_state(&s, &call.id, &streaming),
            ("streaming".into(), "streaming · 1.2k chars".into())
        );
        // Stop: the runner drops its facts and the session pauses.
        s.pause(6).unwrap();
        let none = RunFacts::default();
        let (state, label) = timeline_state(&s, &call.id, &none);
        assert_eq!(state, "stopped");
        assert!(label.contains("asked again on resume"));
        let view = s.view();
        assert_eq!(view.status_text, "paused by you");
        assert_eq!(view.fix, Some(Fix::Resume));
        let m = s.members_now(&none);
        assert!(m.iter().any(|m| m.state == "stopped"), "{m:?}");
        assert!(m.iter().all(|m| m.state != "waiting"), "{m:?}");
    }
}

#[test]
fn a_retry_counts_down_and_its_banner_goes_once_the_retry_is_out() {
    for mut s in both() {
        s.start(1).unwrap();
        let call = s.next_calls().remove(0);
        let error = "OpenAI is overloaded or failing right now (HTTP 500): server error.";
        let waiting = |now| {
            facts(
                now,
                &[(
                    &call.id,
                    CallActivity::Retrying {
                        at: 10_000,
                        attempt: 2,
                        of: 4,
                        error: error.into(),
                    },
                )],
            )
        };
        let notices = s.notices(&waiting(6_000));
        assert_eq!(notices.len(), 1);
        assert!(notices[0].text.contains("HTTP 500"));
        // The call by its title for people, never its id or the member's.
        let title = s.call_title(&call.id).unwrap();
        assert!(
            notices[0].text.starts_with(&format!("{title} failed: ")),
            "{}",
            notices[0].text
        );
        assert!(!notices[0].text.contains(&call.id), "{}", notices[0].text);
        assert!(notices[0]
            .text
            .contains("Trying again in 4 s (attempt 2 of 4)"));
        assert!(!notices[0].text.contains(".."), "{}", notices[0].text);
        let m = s.members_now(&waiting(6_000));
        let me = m.iter().find(|m| m.member == call.member).unwrap();
        assert_eq!(
            (me.state, me.label.as_str()),
            ("retrying", "retrying in 4 s")
        );
        assert_eq!(
            timeline_state(&s, &call.id, &waiting(8_500)).1,
            "retrying in 2 s"
        );
        assert_ne!(me.state, "streaming", "a retry wait is not streaming");
        // The retry is out: no banner; its answer comes and applies.
        let out = facts(10_001, &[(&call.id, CallActivity::Streaming { chars: 0 })]);
        assert!(s.notices(&out).is_empty());
        let validating = facts(10_002, &[(&call.id, CallActivity::Validating)]);
        assert_eq!(timeline_state(&s, &call.id, &validating).0, "validating");
        let reply = call.demo.clone().unwrap();
        s.submit(&call.id, &reply.text, None, 10_003).unwrap();
        assert!(s.notices(&RunFacts::default()).is_empty());
        assert_ne!(
            timeline_state(&s, &call.id, &RunFacts::default()).0,
            "retrying"
        );
    }
}

#[test]
fn queued_calls_read_queued_while_running_and_every_hold_names_its_fix() {
    let mut s = team();
    s.start(1).unwrap();
    let none = RunFacts::default();
    for call in s.next_calls() {
        assert_eq!(timeline_state(&s, &call.id, &none).0, "queued");
    }
    assert_eq!(s.view().fix, None, "nothing to fix while it runs");
    let mut now = 2;
    // Run to the first question, then check it points at the question.
    for _ in 0..500 {
        if s.question().is_some() || !s.is_running() {
            break;
        }
        now += 1;
        for call in s.next_calls() {
            let reply = call.demo.unwrap();
            s.submit(&call.id, &reply.text, None, now).unwrap();
        }
    }
    if s.question().is_some() {
        assert_eq!(s.view().fix, Some(Fix::Question));
    }
}

/// A member whose answer went back for repair reads "repairing" until its new answer comes, then
/// "done · repaired" while the rest of the step is still out (a team's Write with two writers).
#[test]
fn a_repaired_answer_reads_repairing_then_done_repaired() {
    let mut s = team();
    s.start(1).unwrap();
    let none = RunFacts::default();
    let mut now = 1;
    // Play the demo until the Write step has both writers out.
    let calls = loop {
        now += 1;
        if s.view().status == SessionStatus::AwaitingPerson {
            s.answer_halt("Forty people, £50.", now).unwrap();
            continue;
        }
        let calls = s.next_calls();
        if calls.len() >= 2 && calls.iter().all(|c| c.step == "write") {
            break calls;
        }
        let call = calls.into_iter().next().expect("a call is due");
        let reply = call.demo.unwrap();
        s.submit(&call.id, &reply.text, None, now).unwrap();
    };
    let first = &calls[0];
    now += 1;
    s.submit(&first.id, "{\"responseType\":\"final_output\"}", None, now)
        .unwrap();
    let me = |s: &Session| {
        s.members_now(&none)
            .into_iter()
            .find(|m| m.member == first.member)
            .unwrap()
    };
    let repairing = me(&s);
    assert!(repairing.label.starts_with("repairing"), "{repairing:?}");
    let again = s
        .next_calls()
        .into_iter()
        .find(|c| c.member == first.member)
        .expect("the repair call is out");
    now += 1;
    let reply = first.demo.clone().unwrap();
    s.submit(&again.id, &reply.text, None, now).unwrap();
    let done = me(&s);
    assert_eq!(
        (done.state, done.label.as_str()),
        ("repaired", "done · repaired")
    );
}
