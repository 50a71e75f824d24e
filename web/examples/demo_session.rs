//! Plays a whole demo session through `roundtable-core` (engine + demo model, no network) and
//! writes its session file — the "Open a demo session" file the app ships in `static/demo/`.
//!
//! `cargo run -p roundtable-web --example demo_session -- static/demo/demo-session.roundtable.json`
//!
//! Everything is deterministic (fixed clock, seeded demo model), so the file only changes when
//! core changes; `web/tests/demo_file.rs` checks the shipped file is the one this produces. The
//! answers are the ones the app's demo provider replays: the demo model's answer the engine puts
//! on each call ([`roundtable_core::protocol::ModelCall::demo`]), with the same usage.

use roundtable_core::engine::{ModelRef, Usage};
use roundtable_core::export;
use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::session::Session;

/// The request of the shipped demo session.
pub const REQUEST: &str =
    "Plan a two-day workshop on accessible web design for a small agency of twelve people.";

/// 2026-01-05 09:00 UTC: the demo session's fixed start time.
pub const START_MS: u64 = 1_767_603_600_000;

/// Plays the demo session to its end and returns the session file text.
pub fn play() -> String {
    let mut config = TeamConfig::standard(
        REQUEST,
        2,
        true,
        false,
        ModelRef {
            provider: roundtable_core::demo::PROVIDER.into(),
            model: roundtable_core::demo::MODEL.into(),
        },
    );
    config.team_name = "Workshop crew".into();
    config.team_description =
        "A chair, two specialists and an inspector planning a workshop.".into();
    config.settings.max_rounds = 5;
    let names = ["Ada Chen", "Ravi Patel", "Lena Novak", "Tomás Ruiz"];
    let roles = [
        "Workshop lead",
        "Curriculum designer",
        "Accessibility specialist",
        "Quality reviewer",
    ];
    for (m, (name, role)) in config.members.iter_mut().zip(names.iter().zip(roles)) {
        m.name = (*name).into();
        m.role = role.into();
    }
    let mut now = START_MS;
    let mut tick = || {
        now += 1_700;
        now
    };
    let mut session = Session::new_team(config, START_MS).expect("the demo team is valid");
    session.start(tick()).expect("a draft session starts");
    for _ in 0..2_000 {
        if let Some((_, halt)) = session.question() {
            let answer = halt
                .options()
                .first()
                .cloned()
                .unwrap_or_else(|| "Go ahead as you think best.".into());
            session
                .answer_halt(&answer, tick())
                .expect("the question is open");
        } else if session.is_running() {
            for call in session.next_calls() {
                let answer = call.demo.expect("every member is on the demo provider");
                // What the app's runner hands in for the demo provider's completion.
                let usage = Usage {
                    schema_form: None,
                    input_tokens: answer.prompt_tokens,
                    output_tokens: answer.completion_tokens,
                    stopped_for_length: answer.finish_reason == "length",
                    // The demo model is free: priced at $0 from its counted tokens.
                    cost: roundtable_core::cost::of_call(
                        None,
                        Some(roundtable_core::cost::Price::default()),
                        Some((answer.prompt_tokens, answer.completion_tokens)),
                        (answer.prompt_tokens, answer.completion_tokens),
                    ),
                };
                session
                    .submit(&call.id, &answer.text, Some(usage), tick())
                    .expect("an outstanding call takes its answer");
            }
        } else {
            break;
        }
    }
    assert_eq!(session.status_word(), "done", "the demo session ends");
    export::to_file(&session, tick())
}

#[allow(dead_code)]
fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "static/demo/demo-session.roundtable.json".into());
    let text = play();
    std::fs::write(&out, &text).expect("the output file is writable");
    println!("wrote {out} ({} bytes)", text.len());
}
