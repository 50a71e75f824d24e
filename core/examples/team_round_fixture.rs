//! Writes the demo model's valid answers to Bootstrap and round 1 of a team with N operatives,
//! in the order they were applied, as JSON (`[{ "member", "step", "raw" }, …]`): the provider
//! benchmark (`bench/providers-round.mjs`) replays them from the loopback mock so a round with N
//! parallel writers runs with no repair. Only applied answers are kept (the demo's deliberate
//! mistakes, its question and its context requests are left out), so each call gets one answer.
//! With `--whole`, the answers of the whole session, to the presentation (the chair's `done`
//! halt, which ends the rounds, included): the browser test that runs a team with a member on
//! every provider replays them (`tests/e2e/fixtures/team-every-family.json`).
//!
//! `cargo run -p roundtable-core --example team_round_fixture -- 4 > bench/team-round-4.json`
//! `cargo run -p roundtable-core --example team_round_fixture -- 6 --whole > tests/e2e/fixtures/team-every-family.json`

use roundtable_core::demo::play_with;
use roundtable_core::engine::{DueCall, EventKind, KindState, ModelRef, Protocol};
use roundtable_core::protocol::team::{TeamConfig, TeamSession, TeamState};

fn main() {
    let operatives: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(4);
    let whole = std::env::args().any(|a| a == "--whole");
    let model = ModelRef {
        provider: roundtable_core::demo::PROVIDER.into(),
        model: roundtable_core::demo::MODEL.into(),
    };
    let config = TeamConfig::standard(
        "Plan a two-day workshop on accessible web design for a small agency of twelve people.",
        operatives,
        true,
        false,
        model,
    );
    let mut session: TeamSession = TeamSession::new(config, 0).expect("a valid team");
    let mut now = 1;
    play_with(
        &mut session,
        |st: &dyn KindState, c: &DueCall| st.demo_answer(c, &c.envelope),
        &mut now,
        400,
    )
    .expect("the demo team plays");
    let mut calls = std::collections::HashMap::new();
    let mut raws = std::collections::HashMap::new();
    let mut answers = Vec::new();
    for event in session.events() {
        match &event.kind {
            EventKind::RoundStarted { round } if *round > 1 && !whole => break,
            EventKind::CallIssued { call } => {
                calls.insert(
                    call.id.clone(),
                    (
                        call.member.clone(),
                        TeamState::step_name(TeamState::step_of(call.step)),
                    ),
                );
            }
            EventKind::AnswerReceived { call_id, raw, .. } => {
                raws.insert(call_id.clone(), raw.clone());
            }
            EventKind::RoundsEnded {
                call_id: Some(call_id),
                ..
            } if whole => {
                let (member, step) = &calls[call_id];
                answers.push(serde_json::json!({
                    "member": member,
                    "step": step,
                    "raw": raws[call_id],
                }));
            }
            EventKind::Applied { call_id, .. } => {
                let (member, step) = &calls[call_id];
                answers.push(serde_json::json!({
                    "member": member,
                    "step": step,
                    "raw": raws[call_id],
                }));
            }
            _ => {}
        }
    }
    println!("{}", serde_json::to_string_pretty(&answers).expect("JSON"));
}
