//! Writes the demo model's answers to a whole meeting, in the order they were given, as
//! `tests/e2e/fixtures/meeting-demo.json` (`[{ "member": id, "raw": text }, …]`): the browser
//! suite's provider mock replays them so a meeting with attendees on every wire family runs to
//! its minutes. The meeting is the new-meeting form's default (an orchestrator, Ana, Bo, Cy), so
//! the ids match a meeting made there.
//!
//! `cargo run -p roundtable-core --example meeting_fixture > tests/e2e/fixtures/meeting-demo.json`

use roundtable_core::demo::play_with;
use roundtable_core::engine::{DueCall, EventKind, KindState, ModelRef};
use roundtable_core::protocol::meeting::{MeetingConfig, MeetingSession};

fn main() {
    let model = ModelRef {
        provider: roundtable_core::demo::PROVIDER.into(),
        model: roundtable_core::demo::MODEL.into(),
    };
    let config = MeetingConfig::standard(
        "Choose where to hold the team offsite.",
        &[
            ("ana", "Ana", "Engineer"),
            ("bo", "Bo", "Designer"),
            ("cy", "Cy", "Product manager"),
        ],
        model,
    );
    let mut session: MeetingSession =
        MeetingSession::new(config, 0).expect("the default meeting is valid");
    let mut now = 1;
    play_with(
        &mut session,
        |st: &dyn KindState, c: &DueCall| st.demo_answer(c, &c.envelope),
        &mut now,
        500,
    )
    .expect("the demo meeting plays");
    let mut member_of = std::collections::HashMap::new();
    let mut answers = Vec::new();
    for event in session.events() {
        match &event.kind {
            EventKind::CallIssued { call } => {
                member_of.insert(call.id.clone(), call.member.clone());
            }
            EventKind::AnswerReceived { call_id, raw, .. } => answers.push(serde_json::json!({
                "member": member_of[call_id],
                "raw": raw,
            })),
            _ => {}
        }
    }
    assert_eq!(
        session.status().word(),
        "done",
        "the meeting reached its minutes"
    );
    println!("{}", serde_json::to_string_pretty(&answers).expect("JSON"));
}
