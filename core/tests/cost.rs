//! Money: each call's cost enters with its answer, is kept in the event log, replayed, exported
//! and summed per member, per round and per session in the view; a money budget pauses a session
//! of either kind before the call whose worst case (its prompt's estimate and the longest answer,
//! at its model's price) could go past it, and, for a model with no known price, once it is spent.
//! The scenario files (`tests/scenarios/*/money_budget_before_the_call.json`) snapshot the words.

use roundtable_core::cost::MemberPrices;
use roundtable_core::cost::{self, Price};
use roundtable_core::engine::{
    ModelRef, PauseReason, Protocol, RunTarget, Settings, Status, Usage, MAX_ANSWER_TOKENS,
};
use roundtable_core::export;
use roundtable_core::protocol::meeting::MeetingConfig;
use roundtable_core::protocol::team::demo;
use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::session::Session;

fn demo_ref() -> ModelRef {
    ModelRef {
        provider: demo::PROVIDER.into(),
        model: demo::MODEL.into(),
    }
}

fn team(money_budget: Option<u64>) -> Session {
    let mut config =
        TeamConfig::standard("A landing page for a bakery", 2, true, false, demo_ref());
    config.settings.money_budget = money_budget;
    Session::new_team(config, 0).unwrap()
}

fn meeting(money_budget: Option<u64>) -> Session {
    let mut config = MeetingConfig::standard(
        "Pick a database for the notes app.",
        &[
            ("engineer-1", "Ana", "Backend engineer"),
            ("designer-1", "Bo", "Product designer"),
        ],
        demo_ref(),
    );
    config.settings.money_budget = money_budget;
    Session::new_meeting(config, 0).unwrap()
}

/// The price the tests charge: $2 in and $8 out per million tokens.
const PRICE: Price = Price {
    input: 2_000_000,
    output: 8_000_000,
};

/// Plays `s` as the runner does, each answer priced: every third call's cost is the provider's
/// reported figure, every third an estimate, the rest priced from counted tokens. Stops when the
/// session stops running or after `max` answers; returns how many were answered.
fn play(s: &mut Session, now: &mut u64, max: usize) -> usize {
    let mut answered = 0;
    while answered < max {
        *now += 1;
        if let Some((_, halt)) = s.question() {
            let answer = halt
                .options()
                .first()
                .cloned()
                .unwrap_or_else(|| "Go ahead.".into());
            s.answer_halt(&answer, *now).unwrap();
            continue;
        }
        let calls = s.next_calls();
        if !s.is_running() || calls.is_empty() {
            break;
        }
        for call in calls {
            let reply = call.demo.expect("demo members carry the demo answer");
            let n = call.id.trim_start_matches("call-").parse::<u64>().unwrap();
            let counted = (reply.prompt_tokens, reply.completion_tokens);
            let cost = match n % 3 {
                0 => cost::of_call(Some(1_000 + n), Some(PRICE), Some(counted), counted),
                1 => cost::of_call(None, Some(PRICE), Some(counted), counted),
                _ => cost::of_call(None, Some(PRICE), None, counted),
            };
            let usage = Usage {
                schema_form: None,
                input_tokens: reply.prompt_tokens,
                output_tokens: reply.completion_tokens,
                stopped_for_length: false,
                cost,
            };
            s.submit(&call.id, &reply.text, Some(usage), *now).unwrap();
            answered += 1;
        }
    }
    answered
}

/// The costs the log holds, summed by hand from the events.
fn logged_cost(s: &Session) -> u64 {
    s.events_json(0)
        .unwrap()
        .iter()
        .filter_map(|(_, json)| {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            v.pointer("/kind/usage/cost/microUsd")?.as_u64()
        })
        .sum()
}

#[test]
fn every_call_cost_is_logged_summed_and_survives_replay_and_export() {
    for mut s in [team(None), meeting(None)] {
        let mut now = 1;
        s.start(now).unwrap();
        let answered = play(&mut s, &mut now, 12);
        assert!(answered >= 6, "{:?}: {answered} answers", s.kind());
        let view = s.view();
        let total = logged_cost(&s);
        assert!(total > 0);
        assert_eq!(view.cost.total.micro_usd, total, "{:?}", s.kind());
        assert_eq!(view.cost.total.priced as usize, answered);
        assert!(view.cost.total.estimated > 0 && view.cost.total.reported > 0);
        assert_eq!(
            view.cost.total_text,
            format!("≈ {} (incl. estimates)", cost::usd(total))
        );
        // Per member and per round cover the same calls as the total.
        assert!(view.cost.members.len() >= 2, "{:?}", view.cost.members);
        assert!(!view.cost.rounds.is_empty());
        assert_eq!(view.cost.budget_text, None);
        // Each call in the timeline and the transcript shows its own cost, marked by source.
        let lines: Vec<_> = s
            .timeline(&Default::default())
            .into_iter()
            .flat_map(|r| r.steps)
            .flat_map(|st| st.calls)
            .collect();
        assert!(lines
            .iter()
            .any(|c| c.cost.as_deref().is_some_and(|t| t.ends_with("(reported)"))));
        assert!(lines
            .iter()
            .any(|c| c.cost.as_deref().is_some_and(|t| t.ends_with("(est.)"))));
        let first = s.call_view("call-1").unwrap();
        assert!(!first.tokens_estimated, "the provider counted them");
        assert!(!view.tokens_estimated);
        assert_eq!(
            first.cost.as_deref().map(|t| t.starts_with('$')),
            Some(true)
        );

        let stored: Vec<String> = s
            .events_json(0)
            .unwrap()
            .into_iter()
            .map(|(_, j)| j)
            .collect();
        let back = Session::replay_stored(&stored).unwrap();
        assert_eq!(back.view().cost, view.cost);
        let file = export::to_file(&s, 9);
        assert!(
            file.contains(&format!("\"costUsed\": {total}")),
            "the snapshot holds the cost"
        );
        let imported = export::from_file(&file).unwrap();
        assert_eq!(imported.view().cost, view.cost);
    }
}

/// With no price known for the members' models (none handed in), no call can be bounded before
/// it is made: the budget holds back calls once it is spent, like the token budget.
#[test]
fn with_no_known_price_a_spent_money_budget_pauses_both_kinds_like_the_token_budget() {
    for mut s in [team(Some(30)), meeting(Some(30))] {
        let kind = s.kind();
        let mut now = 1;
        s.start(now).unwrap();
        play(&mut s, &mut now, 1_000);
        assert_eq!(s.status_word(), "paused", "{kind:?}");
        let view = s.view();
        let used = view.cost.total.micro_usd;
        assert!(used >= 30, "{kind:?}: paused at {used}");
        assert_eq!(
            view.status_text,
            format!(
                "the money budget is spent ({} of $0.000030): raise it under Budget on this page, then run on — or wrap up",
                cost::usd(used)
            )
        );
        assert_eq!(
            view.cost.budget_text,
            Some(format!("{} of $0.000030", cost::usd(used)))
        );
        assert!(
            s.calls_out().is_empty(),
            "no call was issued past the budget"
        );
        let err = s.resume(now + 1).unwrap_err().to_string();
        assert!(err.contains("money budget is still spent"), "{err}");
        // The one settings edit raises it, and the run goes on.
        let raised = Settings {
            money_budget: Some(used + 1_000_000),
            ..settings_of(&s)
        };
        s.set_settings(raised, now + 2).unwrap();
        s.resume(now + 3).unwrap();
        assert_eq!(s.status_word(), "running");
        assert!(!s.next_calls().is_empty());
        // The edit is an event like any other: replay gives the same session.
        let stored: Vec<String> = s
            .events_json(0)
            .unwrap()
            .into_iter()
            .map(|(_, j)| j)
            .collect();
        assert_eq!(Session::replay_stored(&stored).unwrap(), s);
    }
}

#[test]
fn calls_with_no_known_cost_are_counted_as_unpriced_not_as_free() {
    let mut s = team(Some(1));
    s.start(1).unwrap();
    for call in s.next_calls() {
        let reply = call.demo.unwrap();
        s.submit(&call.id, &reply.text, None, 2).unwrap();
    }
    let view = s.view();
    assert_eq!(view.cost.total.unpriced, 1);
    // Nobody counted its tokens: the figure is the engine's estimate, and says so.
    assert!(view.tokens_estimated);
    assert!(s.call_view("call-1").unwrap().tokens_estimated);
    assert_eq!(view.cost.total_text, "unknown (no price for the model)");
    assert_ne!(
        s.status_word(),
        "paused",
        "an unknown cost does not spend the budget"
    );
}

/// The session's limits as they stand, for an edit.
fn settings_of(s: &Session) -> Settings {
    match (s.as_team(), s.as_meeting()) {
        (Some(t), _) => t.state().core().settings.clone(),
        (_, Some(m)) => m.state().core().settings.clone(),
        _ => unreachable!("two kinds"),
    }
}

/// Prices for every member of `s`: $2 in and $8 out per million tokens.
fn priced(s: &Session) -> MemberPrices {
    s.members().into_iter().map(|m| (m.id, PRICE)).collect()
}

#[test]
fn a_call_whose_worst_case_could_cross_the_budget_waits_before_the_budget_is_reached() {
    for kind in ["team", "meeting"] {
        // A budget that lets the first call out but not a second one beside or after it.
        let probe = if kind == "team" {
            team(None)
        } else {
            meeting(None)
        };
        let mut s = probe.clone();
        s.run(RunTarget::End, Some(priced(&s)), 1).unwrap();
        let first = s.next_calls().remove(0);
        let bound = PRICE.worst_case(first.token_estimate, u64::from(MAX_ANSWER_TOKENS));
        assert!(
            bound > 8192 * 8,
            "the prompt's estimate is priced in: {bound}"
        );
        let budget = bound + bound / 2;
        let mut s = if kind == "team" {
            team(Some(budget))
        } else {
            meeting(Some(budget))
        };
        s.run(RunTarget::End, Some(priced(&s)), 1).unwrap();
        assert_eq!(s.status_word(), "running", "{kind}: the first call fits");
        let mut now = 2;
        play(&mut s, &mut now, 1_000);
        assert_eq!(s.status_word(), "paused", "{kind}");
        let view = s.view();
        let used = view.cost.total.micro_usd;
        assert!(
            used < budget,
            "{kind}: paused at {used} of {budget}, before the budget is reached"
        );
        let (member, up_to, out) = money_pause(&s).expect(&view.status_text);
        // The bound is the held call's own prompt estimate priced, with the longest answer.
        let held = s
            .as_team()
            .map(|t| t.state().core().slots.clone())
            .or_else(|| s.as_meeting().map(|m| m.state().core().slots.clone()))
            .unwrap();
        assert!(held
            .iter()
            .any(|x| x.member == member && x.call_id.is_none()));
        assert!(up_to > 8192 * 8, "{kind}: the prompt is priced in: {up_to}");
        assert!(used + out + up_to > budget, "{kind}");
        // The held call's member by name, as a person knows it.
        let name = s
            .members()
            .into_iter()
            .find(|m| m.id == member)
            .unwrap()
            .name;
        assert!(view
            .status_text
            .starts_with(&format!("paused before {name}'s ")));
        assert!(view
            .status_text
            .contains(&format!("it could cost up to {}", cost::usd(up_to))));
        assert!(view
            .status_text
            .ends_with("raise it under Budget on this page, then run on — or wrap up"));
        assert!(view.status_text.contains(&format!(
            "({} of {} spent",
            cost::usd(used),
            cost::usd(budget)
        )));
        // Refused while it holds, with the words of the same reason.
        let err = s
            .run(RunTarget::End, None, now + 1)
            .unwrap_err()
            .to_string();
        assert!(err.contains("could still cost up to"), "{kind}: {err}");
        // The replayed log is the same session, prices included.
        let stored: Vec<String> = s
            .events_json(0)
            .unwrap()
            .into_iter()
            .map(|(_, j)| j)
            .collect();
        assert_eq!(Session::replay_stored(&stored).unwrap(), s);
        // A cheaper price (say, edited in Settings) at the next run lets it go on.
        let free: MemberPrices = s
            .members()
            .into_iter()
            .map(|m| (m.id, Price::default()))
            .collect();
        s.run(RunTarget::End, Some(free), now + 2).unwrap();
        assert_eq!(s.status_word(), "running", "{kind}");
        assert!(!s.next_calls().is_empty());
    }
}

/// The call a money-budget pause held back (member, the most it could cost) and what the calls
/// still out could cost, whatever the kind.
fn money_pause(s: &Session) -> Option<(String, u64, u64)> {
    fn of(status: &Status) -> Option<(String, u64, u64)> {
        match status {
            Status::Paused {
                reason:
                    PauseReason::MoneyBudget {
                        next: Some(next),
                        out,
                        ..
                    },
            } => Some((next.member.clone(), next.up_to, *out)),
            _ => None,
        }
    }
    match (s.as_team(), s.as_meeting()) {
        (Some(t), _) => of(t.status()),
        (_, Some(m)) => of(m.status()),
        _ => None,
    }
}
