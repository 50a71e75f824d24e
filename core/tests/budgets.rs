//! Prompts that hold whatever a model sends (issue 19, point 11): a prompt lists at most what
//! one call can act on and counts the rest by id, and a repair quotes a refused answer only as
//! far as its problems need. The sizes themselves are measured by `examples/bench_prompts.rs`.

use roundtable_core::engine::{ModelRef, Outcome, Protocol, Status};
use roundtable_core::protocol::team::prompt::Envelope;
use roundtable_core::protocol::team::prompt::ASSIGNED_LISTED_MAX;
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::{TeamConfig, TeamSession, TeamState};
use serde_json::json;

fn session() -> TeamSession {
    let config = TeamConfig::standard(
        "Plan a half-day workshop for twenty people on customer interviews.",
        2,
        false,
        false,
        ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        },
    );
    let mut s = TeamSession::new(config, 0).unwrap();
    s.start(1).unwrap();
    s
}

/// Plays the demo until operative-1's first Write call, the first PlanAssign answered by
/// `plan` instead; returns the call id.
fn to_write(s: &mut TeamSession, plan: &serde_json::Value, now: &mut u64) -> String {
    for _ in 0..200 {
        *now += 1;
        if s.status().word() == "awaiting_person" {
            s.answer_halt("Half a day, twenty people.", *now).unwrap();
            continue;
        }
        assert_eq!(*s.status(), Status::Running);
        let call = s.calls_due().into_iter().next().unwrap();
        if TeamState::step_of(call.call.step) == Step::Write && call.call.member == "operative-1" {
            return call.call.id.clone();
        }
        let text = if TeamState::step_of(call.call.step) == Step::PlanAssign {
            plan.to_string()
        } else {
            s.demo_answer(&call.call.id).unwrap().text
        };
        s.submit(&call.call.id, &text, None, *now).unwrap();
    }
    panic!("no Write call");
}

fn plan_of(n: usize) -> serde_json::Value {
    let ops: Vec<_> = (0..n)
        .map(|i| {
            json!({"action": "ADD", "newId": format!("new-{}", i + 1), "parentId": "p0",
            "product": {"name": format!("Extra part {i}"), "type": "Content", "dod": "Written."}})
        })
        .collect();
    let asg: Vec<_> = (0..n)
        .map(|i| json!({"productId": format!("new-{}", i + 1), "assignee": "operative-1",
            "directive": {"objective": format!("Write extra part {i}"), "dod": "Written.", "why": "The plan needs it.", "context": "Keep it short."}}))
        .collect();
    json!({"responseType": "final_output", "thinking": {"roundStrategy": "s", "acceptanceRationale": "r"},
        "treeOperations": ops, "assignments": asg, "acceptance": [], "remarks": []})
}

#[test]
fn a_write_call_lists_what_one_answer_can_write_and_counts_the_rest_by_id() {
    let mut s = session();
    let mut now = 1;
    let n = ASSIGNED_LISTED_MAX + 30;
    let id = to_write(&mut s, &plan_of(n), &mut now);
    let due = s.calls_due().into_iter().find(|c| c.call.id == id).unwrap();
    assert_eq!(TeamState::step_of(due.call.step), Step::Write);
    let listed: Vec<String> = due
        .envelope
        .get::<Envelope>()
        .assigned_to_you
        .iter()
        .map(|a| a.product_id.clone())
        .collect();
    assert_eq!(listed.len(), ASSIGNED_LISTED_MAX);
    assert_eq!(
        due.envelope.get::<Envelope>().left_out.assignments.len(),
        n - ASSIGNED_LISTED_MAX
    );
    let user = due.call.messages[1].content.to_string();
    assert!(
        user.contains(&format!(
            "- and {} more assignment(s) not listed: write only the ones above in this answer",
            n - ASSIGNED_LISTED_MAX
        )),
        "{user}"
    );
    // The listed ones are what the answer must hold.
    let versions: Vec<_> = listed
        .iter()
        .map(|p| json!({"productId": p, "newVersion": {"contentTitle": "Part", "content": "The whole part, written out in full for the workshop plan.", "changeSummary": "First version."}}))
        .collect();
    let answer =
        json!({"responseType": "final_output", "versions": versions, "collabs": [], "remarks": []});
    let out = s.submit(&id, &answer.to_string(), None, now + 1).unwrap();
    assert_eq!(out, Outcome::Applied);
}

#[test]
fn a_refused_answer_of_a_megabyte_is_not_sent_back_whole() {
    let mut s = session();
    let mut now = 1;
    let id = to_write(&mut s, &plan_of(2), &mut now);
    let first: usize = s
        .calls_due()
        .into_iter()
        .find(|c| c.call.id == id)
        .unwrap()
        .call
        .messages
        .iter()
        .map(|m| m.content.len())
        .sum();
    let big = "An answer far longer than any product needs. ".repeat(23_000);
    let answer = json!({"responseType": "final_output", "versions": [{"productId": "p1",
        "newVersion": {"contentTitle": "Too much", "content": big, "changeSummary": "All of it."}}]});
    let raw = answer.to_string();
    assert!(raw.len() > 1_000_000);
    let out = s.submit(&id, &raw, None, now + 1).unwrap();
    assert!(matches!(out, Outcome::Invalid { .. }), "{out:?}");
    let repair = s.calls_due().into_iter().next().unwrap();
    let sent: usize = repair.call.messages.iter().map(|m| m.content.len()).sum();
    assert!(
        sent < first + 12_000,
        "the repair conversation is {sent} bytes (the first prompt {first})"
    );
    let quoted = repair.call.messages[2].content.to_string();
    assert!(quoted.starts_with("{\"responseType\":\"final_output\""));
    assert!(quoted.contains("more characters of this answer left out here"));
    // The answer itself stays whole in the log.
    assert!(s.events().iter().any(|e| matches!(&e.kind,
        roundtable_core::engine::EventKind::AnswerReceived { raw, .. } if raw.len() == answer.to_string().len())));
}

/// The quote of a long answer is its head (back to whitespace), a line counting what is left
/// out, and its tail (forward to whitespace) — in characters, multi-byte ones included — and a
/// short one is whole; the same whether the answer is a few kilobytes or megabytes.
#[test]
fn a_quoted_answer_counts_characters_and_keeps_its_ends() {
    use roundtable_core::engine::core::{quoted_answer, ANSWER_QUOTE_MAX};
    /// The quote, walked character by character from the start (the rule as first written).
    fn by_walking(raw: &str) -> String {
        let total = raw.chars().count();
        if total <= ANSWER_QUOTE_MAX {
            return raw.to_string();
        }
        let byte_at = |n: usize| raw.char_indices().nth(n).map_or(raw.len(), |(i, _)| i);
        let head_end = byte_at(ANSWER_QUOTE_MAX * 2 / 3);
        let head = raw[..head_end]
            .rfind(char::is_whitespace)
            .filter(|i| *i > head_end / 2)
            .map_or(&raw[..head_end], |i| &raw[..i]);
        let tail_start = byte_at(total - ANSWER_QUOTE_MAX / 6);
        let tail = raw[tail_start..]
            .find(char::is_whitespace)
            .map_or(&raw[tail_start..], |i| &raw[tail_start + i..]);
        let left = total - head.chars().count() - tail.chars().count();
        format!("{head}\n[… {left} more characters of this answer left out here; the problems below name where they are …]\n{tail}")
    }
    let cases = [
        String::new(),
        "é".repeat(ANSWER_QUOTE_MAX),
        "é".repeat(ANSWER_QUOTE_MAX + 1),
        "x".repeat(ANSWER_QUOTE_MAX + 1),
        "日本 word ".repeat(2_000),
        format!("{{\"content\":\"{}\"}}", "x".repeat(8 * 1024 * 1024)),
        "a b\u{202E}c ".repeat(50_000),
    ];
    for raw in &cases {
        let quoted = quoted_answer(raw);
        assert_eq!(quoted, by_walking(raw), "an answer of {} bytes", raw.len());
    }
    let big = &cases[5];
    let quoted = quoted_answer(big);
    assert!(
        quoted.len() < ANSWER_QUOTE_MAX + 200,
        "{} bytes quoted",
        quoted.len()
    );
    assert!(quoted.contains(&format!("{} more characters", big.len() - 4_000 - 1_000)));
}

/// Any kind refuses an answer past the engine's ceiling by its length, unread, and its log keeps
/// only the answer's head and length: here the team's chair, whose kind says no lower limit.
#[test]
fn every_kind_refuses_an_answer_past_the_ceiling_and_keeps_its_head() {
    use roundtable_core::engine::long_answer::{ANSWER_BYTES_MAX, ANSWER_KEPT_BYTES};
    use roundtable_core::engine::EventKind;
    let mut s = session();
    let call = s.calls_due().into_iter().next().unwrap().call.id.clone();
    let raw = format!("{{\"responseType\": \"{}\"}}", "x".repeat(ANSWER_BYTES_MAX));
    let out = s.submit(&call, &raw, None, 2).unwrap();
    assert!(matches!(out, Outcome::Invalid { .. }), "{out:?}");
    let kept = s.events().iter().find_map(|e| match &e.kind {
        EventKind::AnswerReceived {
            raw, whole_bytes, ..
        } => Some((raw.len(), *whole_bytes)),
        _ => None,
    });
    assert_eq!(kept, Some((ANSWER_KEPT_BYTES, Some(raw.len() as u64))));
    let report = s.events().iter().find_map(|e| match &e.kind {
        EventKind::AnswerInvalid { report, .. } => Some(report.errors.clone()),
        _ => None,
    });
    let errors = report.expect("the refusal is recorded");
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].message,
        format!("the answer is {} bytes long", raw.len())
    );
    assert_eq!(
        errors[0].expected,
        format!("at most {ANSWER_BYTES_MAX} bytes")
    );
    assert_eq!(TeamSession::replay(s.events()).unwrap(), s);
    // Just at the ceiling an answer is read (and judged on its shape).
    let mut s = session();
    let call = s.calls_due().into_iter().next().unwrap().call.id.clone();
    let raw = format!(
        "{{\"responseType\": \"{}\"}}",
        "x".repeat(ANSWER_BYTES_MAX - 20)
    );
    assert_eq!(raw.len(), ANSWER_BYTES_MAX);
    s.submit(&call, &raw, None, 2).unwrap();
    assert!(s.events().iter().all(|e| !matches!(
        &e.kind,
        EventKind::AnswerReceived {
            whole_bytes: Some(_),
            ..
        }
    )));
}
