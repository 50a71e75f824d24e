//! A failed model call tried again: core decides whether and after how long
//! (`engine::retry`), and each retry is a `call_retried` event in the log — so the transcript says
//! it, a replay and an import keep it, and the runner only waits and calls again.

use roundtable_core::engine::retry::{Failure, BACKOFF_CAP_MS, BASE_MS, MAX_ATTEMPTS};
use roundtable_core::engine::{EngineError, ModelRef, Usage};
use roundtable_core::export;
use roundtable_core::protocol::team::{demo, TeamConfig};
use roundtable_core::session::{Session, SessionStatus};

const PASSING: Failure = Failure {
    passing: true,
    retry_after_ms: None,
};

fn running() -> (Session, String) {
    let model = ModelRef {
        provider: demo::PROVIDER.into(),
        model: demo::MODEL.into(),
    };
    let config = TeamConfig::standard("A launch plan for a bakery", 2, true, false, model);
    let mut s = Session::new_team(config, 0).unwrap();
    s.start(1).unwrap();
    let call = s.next_calls().remove(0).id;
    (s, call)
}

fn last_event(s: &Session) -> String {
    s.event_line(s.event_count() - 1).unwrap()
}

#[test]
fn a_passing_failure_is_retried_with_a_growing_wait_and_each_retry_is_logged() {
    let (mut s, call) = running();
    for attempt in 1..MAX_ATTEMPTS {
        let before = s.event_count();
        let wait = s
            .retry_call(&call, "the server is overloaded (529)", PASSING, 7, 10)
            .unwrap()
            .expect("a passing failure is tried again");
        let exp = (BASE_MS << (attempt - 1)).min(BACKOFF_CAP_MS);
        assert!((exp / 2..=exp).contains(&wait), "attempt {attempt}: {wait}");
        assert_eq!(s.event_count(), before + 1);
        assert_eq!(
            last_event(&s),
            format!(
                "call_retried {call} attempt {} after {wait} ms",
                attempt + 1
            )
        );
        assert_eq!(s.status(), SessionStatus::Running, "a retry does not pause");
    }
    let view = s.call_view(&call).unwrap();
    assert_eq!(
        view.retried.as_deref(),
        Some("The provider failed for a moment and the call was tried again 3 times.")
    );
    assert!(s
        .event_words(s.event_count() - 1)
        .unwrap()
        .contains("tried again (attempt 4 of 4)"));

    // Its retries spent: not again, and nothing is recorded; the runner then fails the call.
    let before = s.event_count();
    assert_eq!(
        s.retry_call(&call, "overloaded", PASSING, 7, 11).unwrap(),
        None
    );
    assert_eq!(s.event_count(), before);
}

#[test]
fn a_lasting_failure_is_not_retried_and_nothing_is_recorded() {
    let (mut s, call) = running();
    let before = s.event_count();
    let quota = Failure {
        passing: false,
        retry_after_ms: None,
    };
    assert_eq!(
        s.retry_call(&call, "quota used up", quota, 1, 5).unwrap(),
        None
    );
    // A provider asking for longer than we wait is not retried either.
    let long = Failure {
        passing: true,
        retry_after_ms: Some(10 * 60 * 1000),
    };
    assert_eq!(s.retry_call(&call, "slow down", long, 1, 5).unwrap(), None);
    assert_eq!(s.event_count(), before);
    assert_eq!(s.call_view(&call).unwrap().retried, None);
}

#[test]
fn a_retry_of_a_call_that_is_not_out_is_refused() {
    let (mut s, _) = running();
    let before = s.event_count();
    let err = s
        .retry_call("call-99", "overloaded", PASSING, 1, 5)
        .unwrap_err();
    assert!(
        matches!(err, EngineError::CallNotOutstanding { .. }),
        "{err}"
    );
    assert_eq!(s.event_count(), before);
}

#[test]
fn the_answer_after_a_retry_lands_on_the_same_call_and_the_log_replays_and_imports() {
    let (mut s, call) = running();
    s.retry_call(&call, "network", PASSING, 3, 10)
        .unwrap()
        .unwrap();
    let due = s.next_calls();
    let again = due
        .iter()
        .find(|c| c.id == call)
        .expect("the same call is still out");
    let reply = again.demo.clone().unwrap();
    let usage = Usage {
        schema_form: None,
        input_tokens: reply.prompt_tokens,
        output_tokens: reply.completion_tokens,
        stopped_for_length: false,
        cost: None,
    };
    s.submit(&call, &reply.text, Some(usage), 20).unwrap();
    let view = s.call_view(&call).unwrap();
    assert!(
        view.raw_answer.is_some() && view.result.is_some(),
        "{view:?}"
    );
    assert!(!s.calls_out().iter().any(|(_, id)| *id == call));

    let stored: Vec<String> = s
        .events_json(0)
        .unwrap()
        .into_iter()
        .map(|(_, json)| json)
        .collect();
    assert!(stored.iter().any(|e| e.contains("\"call_retried\"")));
    let back = Session::replay_stored(&stored).unwrap();
    assert_eq!(back, s);
    let imported = export::from_file(&export::to_file(&s, 30)).unwrap();
    assert_eq!(imported, s);
    assert!(imported.call_view(&call).unwrap().retried.is_some());
}
