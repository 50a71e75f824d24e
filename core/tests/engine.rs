//! The session engine end to end: whole sessions, the protocol's rules, limits, replay and files.

mod engine_common;

use engine_common::*;
use roundtable_core::engine::status::grouped;
use roundtable_core::engine::Protocol;
use roundtable_core::engine::{EngineError, Outcome, PauseReason, Settings, Status};
use roundtable_core::engine::{EventKind, Usage};
use roundtable_core::engine::{MAX_ANSWER_TOKENS, MIN_ANSWER_TOKENS};
use roundtable_core::export::{self, ImportError};
use roundtable_core::protocol::team::prompt::Envelope;
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::PersonEdit;
use roundtable_core::protocol::team::{Charter, TeamSession as Session, TeamState};
use roundtable_core::protocol::{CallKind, ChatRole};
use roundtable_core::session::Session as AnySession;

#[test]
fn demo_sessions_reach_done_for_1_to_6_operatives_with_and_without_inspector() {
    for operatives in 1..=6 {
        for inspector in [false, true] {
            let envoy = operatives % 2 == 0;
            let mut s = Session::new(config(operatives, inspector, envoy), 0).unwrap();
            s.start(1).unwrap();
            drive_demo(&mut s, 42 + operatives as u64, 500);
            let st = s.state();
            assert_eq!(
                st.core.status,
                Status::Done,
                "{operatives} ops, inspector {inspector}: {:?}",
                st.core.status
            );
            assert!(!st.presentation.is_empty());
            let presenter = if envoy { "envoy" } else { "chair" };
            assert!(st
                .presentation
                .iter()
                .all(|m| m.as_agent == presenter || st.member(&m.as_agent).is_some()));
            let steps: Vec<Step> = st
                .core
                .timeline
                .iter()
                .map(|t| TeamState::step_of(t.step))
                .collect();
            for step in [
                Step::Bootstrap,
                Step::PlanAssign,
                Step::Write,
                Step::Inspection,
                Step::Presentation,
            ] {
                assert!(steps.contains(&step), "{step} ran ({operatives} ops)");
            }
            // The inspection is the inspector's, or the chair's when there is none.
            let inspectors: Vec<&str> = st
                .core
                .timeline
                .iter()
                .filter(|t| TeamState::step_of(t.step) == Step::Inspection)
                .flat_map(|t| t.members.iter().map(String::as_str))
                .collect();
            let expected = if inspector { "inspector" } else { "chair" };
            assert!(inspectors.iter().all(|m| *m == expected));
            if operatives > 1 {
                assert!(
                    steps.contains(&Step::PeerReview),
                    "peer review with {operatives} ops"
                );
            }
            // Every operative wrote something.
            for i in 1..=operatives {
                let id = format!("operative-{i}");
                assert!(st.written.iter().any(|w| w.member == id), "{id} wrote");
            }
            assert!(
                st.tree
                    .products()
                    .iter()
                    .any(|p| p.accepted_version.is_some()),
                "something was accepted"
            );
            let replayed = Session::replay(s.events()).unwrap();
            assert_eq!(replayed.state(), s.state(), "replay equals state");
        }
    }
}

#[test]
fn replay_after_every_event_prefix_matches_a_live_session() {
    // Fold equality at every point: replaying each prefix gives the state the live engine had.
    let mut s = Session::new(config(2, true, false), 0).unwrap();
    let mut states = vec![s.state().clone()];
    s.start(1).unwrap();
    states.push(s.state().clone());
    let mut now = 2;
    for _ in 0..40 {
        if s.status() != &Status::Running {
            break;
        }
        for call in s.calls_due() {
            now += 1;
            let n = s.events().len();
            let before = s.state().clone();
            s.submit(&call.id, &scripted(&call), None, now).unwrap();
            let prefix = Session::replay(&s.events()[..n]).unwrap();
            assert_eq!(
                prefix.state(),
                &before,
                "replaying {n} events gives the state after them"
            );
            states.push(s.state().clone());
        }
    }
    assert_eq!(s.status(), &Status::Done);
    let replayed = Session::replay(s.events()).unwrap();
    assert_eq!(&replayed, &s);
    // Every intermediate state is distinct from the final one until the end.
    assert!(states.len() > 10);
    assert_eq!(states.last().unwrap(), s.state());
}

#[test]
fn scripted_session_walks_the_round_in_order() {
    let mut s = Session::new(config(2, true, true), 0).unwrap();
    assert_eq!(s.status(), &Status::Draft);
    assert!(s.calls_due().is_empty(), "a draft makes no call");
    s.start(1).unwrap();
    let mut now = 1;
    drive_scripted(&mut s, &mut now);
    assert_eq!(s.status(), &Status::Done);
    let order: Vec<(u32, Step, Vec<String>)> = s
        .state()
        .core
        .timeline
        .iter()
        .map(|t| (t.round, TeamState::step_of(t.step), t.members.clone()))
        .collect();
    let m = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        order,
        vec![
            (0, Step::Bootstrap, m(&["chair"])),
            (1, Step::PlanAssign, m(&["chair"])),
            (1, Step::Write, m(&["operative-1", "operative-2"])),
            (1, Step::PeerReview, m(&["operative-1", "operative-2"])),
            (1, Step::Inspection, m(&["inspector"])),
            (2, Step::Reflect, m(&["operative-1", "operative-2"])),
            (2, Step::PlanAssign, m(&["chair"])),
            (3, Step::PlanAssign, m(&["chair"])),
            (3, Step::Presentation, m(&["envoy"])),
        ]
    );
    // Round 2 accepted both versions.
    let accepted = s
        .state()
        .tree
        .products()
        .iter()
        .filter(|p| p.accepted_version.is_some())
        .count();
    assert_eq!(accepted, 2);
    // The directive is kept with the version.
    let v1 = s.state().tree.version("v1").unwrap();
    assert_eq!(v1.directive.as_ref().unwrap().objective, "Write Part 1");
    // The reflection note landed on the version written last round.
    assert!(v1
        .reflection_note
        .as_deref()
        .unwrap()
        .contains("Tighten the wording"));
}

#[test]
fn peer_review_shows_the_versions_to_review_at_extra_tier_and_own_products_minimal() {
    let mut s = Session::new(config(3, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted); // bootstrap
    answer_all(&mut s, &mut now, scripted); // plan
    answer_all(&mut s, &mut now, scripted); // write round 1
                                            // Peer review: operative-1 sees p2, p3 (others' versions) at extra; its own p1 minimal (it
                                            // is not reviewing it; request_context brings its content).
    let calls = s.calls_due();
    let c1 = calls.iter().find(|c| c.member == "operative-1").unwrap();
    assert_eq!(TeamState::step_of(c1.step), Step::PeerReview);
    let tiers: Vec<(String, roundtable_core::protocol::team::tree::Tier)> = c1
        .envelope
        .get::<Envelope>()
        .products
        .iter()
        .map(|p| (p.id.clone(), p.tier))
        .collect();
    use roundtable_core::protocol::team::tree::Tier::*;
    assert_eq!(
        tiers,
        vec![
            ("p0".into(), Minimal),
            ("p1".into(), Minimal),
            ("p2".into(), Extra),
            ("p3".into(), Extra)
        ]
    );
    let to_review: Vec<&str> = c1
        .envelope
        .get::<Envelope>()
        .to_review
        .iter()
        .map(|v| v.product_id.as_str())
        .collect();
    assert_eq!(to_review, vec!["p2", "p3"], "others' versions only");
    assert!(c1.messages[1]
        .content
        .contains("Versions to review:\n- v2 of p2"));
}

#[test]
fn write_to_a_product_not_assigned_is_invalid_and_changes_nothing() {
    let mut s = Session::new(config(2, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted);
    answer_all(&mut s, &mut now, scripted);
    let calls = s.calls_due();
    let call = calls.iter().find(|c| c.member == "operative-1").unwrap();
    let tree_before = s.state().tree.clone();
    let bad = serde_json::json!({"responseType": "final_output", "versions": [{"productId": "p2", "newVersion": {"contentTitle": "X", "content": "A long enough content for the product that is not mine at all.", "changeSummary": "x"}}]}).to_string();
    let out = s.submit(&call.id, &bad, None, 50).unwrap();
    let Outcome::Invalid { report, paused } = out else {
        panic!("{out:?}")
    };
    assert!(!paused);
    assert_eq!(report.errors[0].path, "/versions/0/productId");
    assert!(report.errors[0].message.contains("not assigned to you"));
    assert_eq!(s.state().tree, tree_before);
    // The repair continues the same conversation.
    let repair = s
        .calls_due()
        .into_iter()
        .find(|c| c.member == "operative-1")
        .unwrap();
    assert_eq!(repair.kind, CallKind::Repair);
    let roles: Vec<ChatRole> = repair.messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        vec![
            ChatRole::System,
            ChatRole::User,
            ChatRole::Assistant,
            ChatRole::User
        ]
    );
    assert_eq!(&*repair.messages[2].content, bad.as_str());
    assert!(repair
        .envelope
        .get::<Envelope>()
        .call
        .pending_repair
        .is_some());
    assert_eq!(repair.envelope.get::<Envelope>().call.repairs_made, 1);
}

#[test]
fn repairs_run_out_then_the_session_pauses_and_resume_starts_afresh() {
    let mut cfg = config(1, false, false);
    cfg.settings.max_repairs = 2;
    let mut s = Session::new(cfg, 0).unwrap();
    s.start(1).unwrap();
    for i in 0..3 {
        let call = s.calls_due().pop().unwrap();
        assert_eq!(
            call.kind,
            if i == 0 {
                CallKind::Initial
            } else {
                CallKind::Repair
            }
        );
        let out = s.submit(&call.id, "True", None, 10 + i).unwrap();
        let Outcome::Invalid { paused, .. } = out else {
            panic!()
        };
        assert_eq!(paused, i == 2, "pauses after the 2nd repair fails");
    }
    let Status::Paused {
        reason:
            PauseReason::InvalidAnswer {
                member,
                step,
                report,
            },
    } = s.status().clone()
    else {
        panic!("{:?}", s.status())
    };
    assert_eq!(
        (member.as_str(), TeamState::step_of(step)),
        ("chair", Step::Bootstrap)
    );
    assert!(!report.errors.is_empty());
    assert!(s.calls_due().is_empty());
    s.resume(20).unwrap();
    let call = s.calls_due().pop().unwrap();
    assert_eq!(call.kind, CallKind::Initial);
    assert_eq!(call.messages.len(), 2, "a fresh conversation");
    assert_eq!(call.envelope.get::<Envelope>().call.repairs_made, 0);
}

#[test]
fn request_context_is_served_twice_then_a_final_output_is_required() {
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted);
    answer_all(&mut s, &mut now, scripted);
    // Write step of operative-1 on p1 (no version yet): ask for context three times.
    let ask = r#"{"responseType":"request_context","contextRequests":[{"productId":"p1","need":"version_history","reason":"see history"}]}"#;
    for i in 0..2 {
        let call = s.calls_due().pop().unwrap();
        assert_eq!(TeamState::step_of(call.step), Step::Write);
        assert_eq!(
            call.envelope.get::<Envelope>().call.context_requests_made,
            i
        );
        assert_eq!(
            s.submit(&call.id, ask, None, 100 + i as u64).unwrap(),
            Outcome::ContextServed
        );
    }
    let call = s.calls_due().pop().unwrap();
    assert_eq!(call.kind, CallKind::AfterContext);
    assert!(call.envelope.get::<Envelope>().call.final_output_required);
    assert_eq!(call.envelope.get::<Envelope>().served_context.len(), 2);
    let last = &call.messages.last().unwrap().content;
    assert!(last.contains("p1 has no version yet"));
    assert!(last.contains("must be a final output"));
    let out = s.submit(&call.id, ask, None, 200).unwrap();
    let Outcome::Invalid { report, .. } = out else {
        panic!("{out:?}")
    };
    assert_eq!(report.errors[0].path, "/responseType");
    // A final output now goes through.
    let call = s.calls_due().pop().unwrap();
    assert_eq!(
        s.submit(&call.id, &scripted(&call), None, 300).unwrap(),
        Outcome::Applied
    );
}

#[test]
fn a_halt_question_waits_for_the_person_and_the_answer_reaches_the_next_prompt() {
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let call = s.calls_due().pop().unwrap();
    let q = r#"{"responseType":"halt","halt":{"type":"question","to":["user-1"],"message":"Morning or afternoon?","options":["Morning","Afternoon"]}}"#;
    assert_eq!(
        s.submit(&call.id, q, None, 2).unwrap(),
        Outcome::AwaitingPerson
    );
    assert!(matches!(s.status(), Status::AwaitingPerson { asked_by, .. } if asked_by == "chair"));
    assert!(s.calls_due().is_empty());
    assert!(matches!(s.pause(3), Err(EngineError::WrongStatus { .. })));
    s.answer_halt("Afternoon, please", 4).unwrap();
    let call = s.calls_due().pop().unwrap();
    assert_eq!(TeamState::step_of(call.step), Step::Bootstrap);
    assert_eq!(
        call.envelope.get::<Envelope>().person_answers[0].answer,
        "Afternoon, please"
    );
    assert!(call.messages[1]
        .content
        .contains("Answer: Afternoon, please"));
    assert!(matches!(
        s.answer_halt("again", 5),
        Err(EngineError::WrongStatus { .. })
    ));
}

#[test]
fn unknown_superseded_and_repeated_call_ids_are_refused_and_recorded() {
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let call = s.calls_due().pop().unwrap();
    let err = s.submit("call-99", "{}", None, 2).unwrap_err();
    assert!(matches!(err, EngineError::CallNotOutstanding { .. }));
    s.submit(&call.id, &scripted(&call), None, 3).unwrap();
    let tree = s.state().tree.clone();
    let err = s.submit(&call.id, &scripted(&call), None, 4).unwrap_err();
    assert!(err.to_string().contains("already answered"));
    assert_eq!(s.state().tree, tree, "never applied");
    let refused: Vec<&str> = s
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::AnswerRefused { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(refused, vec!["call-99", "call-1"]);
    // The person ends the rounds: the plan call is superseded.
    let plan = s.calls_due().pop().unwrap();
    s.finish(5).unwrap();
    let err = s.submit(&plan.id, &scripted(&plan), None, 6).unwrap_err();
    assert!(err.to_string().contains("superseded"));
    let pres = s.calls_due().pop().unwrap();
    assert_eq!(TeamState::step_of(pres.step), Step::Presentation);
    s.submit(&pres.id, &scripted(&pres), None, 7).unwrap();
    assert_eq!(s.status(), &Status::Done);
    assert_eq!(Session::replay(s.events()).unwrap(), s);
}

#[test]
fn the_round_limit_pauses_and_resume_waits_for_a_higher_limit() {
    let mut cfg = config(1, false, false);
    cfg.settings.max_rounds = 1;
    let mut s = Session::new(cfg, 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    drive_scripted(&mut s, &mut now);
    assert_eq!(
        s.status(),
        &Status::Paused {
            reason: PauseReason::RoundLimit { max_rounds: 1 }
        }
    );
    assert!(matches!(s.resume(now), Err(EngineError::StillBlocked(_))));
    let settings = Settings {
        max_rounds: 3,
        ..Settings::default()
    };
    s.edit(
        roundtable_core::engine::EngineEdit::Settings { settings },
        now,
    )
    .unwrap();
    s.resume(now).unwrap();
    drive_scripted(&mut s, &mut now);
    assert_eq!(s.status(), &Status::Done);
    assert_eq!(Session::replay(s.events()).unwrap(), s);
}

/// A team session started under `budget` tokens, with the first call's prompt estimate (the
/// bootstrap: the same call whatever the budget).
fn started_under(budget: Option<u64>) -> (Session, u64) {
    let mut probe = Session::new(config(1, false, false), 0).unwrap();
    probe.start(1).unwrap();
    let prompt = probe.next_calls()[0].token_estimate;
    let mut cfg = config(1, false, false);
    cfg.settings.token_budget = budget.map(|b| b.saturating_add(prompt));
    let mut s = Session::new(cfg, 0).unwrap();
    s.start(1).unwrap();
    (s, prompt)
}

fn token_pause(s: &Session) -> bool {
    matches!(
        s.status(),
        Status::Paused {
            reason: PauseReason::TokenBudget { .. }
        }
    )
}

#[test]
fn each_call_asks_for_no_longer_an_answer_than_the_token_budget_leaves() {
    let (free, _) = started_under(None);
    assert_eq!(free.next_calls()[0].max_answer_tokens, MAX_ANSWER_TOKENS);
    // A budget with room for the prompt and the longest answer: the longest answer.
    let (roomy, _) = started_under(Some(u64::from(MAX_ANSWER_TOKENS) + 500));
    assert_eq!(roomy.next_calls()[0].max_answer_tokens, MAX_ANSWER_TOKENS);
    // Less room: the answer is bounded by what is left once the prompt is counted.
    let (tight, _) = started_under(Some(3_000));
    assert_eq!(tight.next_calls()[0].max_answer_tokens, 3_000);
    // Exactly the prompt and the shortest useful answer: the call is made.
    let (edge, _) = started_under(Some(u64::from(MIN_ANSWER_TOKENS)));
    assert_eq!(edge.status(), &Status::Running);
    assert_eq!(edge.next_calls()[0].max_answer_tokens, MIN_ANSWER_TOKENS);
    // The demo model answers within the bound, as a provider does.
    let demo = edge.next_calls()[0].demo.clone().unwrap();
    assert!(demo.completion_tokens <= u64::from(MIN_ANSWER_TOKENS));
}

#[test]
fn a_token_budget_that_cannot_hold_a_prompt_and_a_useful_answer_pauses_before_the_call() {
    // One token short of the prompt and the shortest useful answer.
    let (mut s, prompt) = started_under(Some(u64::from(MIN_ANSWER_TOKENS) - 1));
    assert!(token_pause(&s), "{:?}", s.status());
    assert!(s.next_calls().is_empty(), "no call was made");
    assert_eq!(s.state().core.calls.len(), 0);
    assert_eq!(s.state().core.tokens_used, 0);
    let budget = prompt + u64::from(MIN_ANSWER_TOKENS) - 1;
    let words = AnySession::of_kind(s.clone()).view().status_text;
    let expected = format!(
        "the call for Chair's set-up does not fit in the token budget: only {} of {} tokens are left (0 used), too few for its prompt and an answer of at least 1,024: raise it under Budget on this page, then run on — or wrap up",
        grouped(budget),
        grouped(budget)
    );
    assert!(words.contains(&expected), "{words}");
    // Running on is refused while it still does not fit, in the same words.
    let refused = s.resume(2).unwrap_err().to_string();
    assert!(
        refused.contains("the call for Chair's set-up still does not fit in the token budget"),
        "{refused}"
    );
    // A little more lets the call be made (the edit is in the chair's prompt now, so a little
    // more than the one token that was missing), with what is left for its answer.
    let mut settings = s.state().core.settings.clone();
    settings.token_budget = Some(budget + 100);
    s.edit(
        roundtable_core::engine::EngineEdit::Settings { settings },
        3,
    )
    .unwrap();
    s.resume(4).unwrap();
    let call = &s.next_calls()[0];
    assert_eq!(
        u64::from(call.max_answer_tokens),
        budget + 100 - call.token_estimate
    );
    assert!(call.max_answer_tokens >= MIN_ANSWER_TOKENS);
}

#[test]
fn a_provider_counting_more_than_the_bound_stops_the_next_call_and_says_the_budget_is_spent() {
    let (mut s, prompt) = started_under(Some(2_000));
    let call = s.calls_due().pop().unwrap();
    // The provider counted the prompt at more tokens than the estimate (the one way past it).
    let usage = Usage {
        schema_form: None,
        input_tokens: prompt + 500,
        output_tokens: 1_800,
        stopped_for_length: false,
        cost: None,
    };
    s.submit(&call.id, &scripted(&call), Some(usage), 2)
        .unwrap();
    let used = prompt + 2_300;
    assert_eq!(
        s.status(),
        &Status::Paused {
            reason: PauseReason::TokenBudget {
                used,
                budget: prompt + 2_000
            }
        }
    );
    assert!(s.resume(3).is_err());
    s.finish(4).unwrap();
    assert!(
        s.calls_due().is_empty(),
        "the budget still blocks the presentation call"
    );
    assert!(token_pause(&s));
}

#[test]
fn counts_are_written_with_their_thousands_grouped() {
    for (n, text) in [
        (0, "0"),
        (999, "999"),
        (1_000, "1,000"),
        (9_515, "9,515"),
        (1_234_567, "1,234,567"),
    ] {
        assert_eq!(grouped(n), text);
    }
}

#[test]
fn person_edits_are_events_and_reach_the_chair() {
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted); // bootstrap
    answer_all(&mut s, &mut now, scripted); // plan r1
    answer_all(&mut s, &mut now, scripted); // write r1
                                            // Inspection by the chair is out; the person accepts v1 and leaves a remark.
    assert!(s
        .edit(
            PersonEdit::AcceptVersion {
                product_id: "p1".into(),
                version_id: "v9".into()
            },
            now
        )
        .is_err());
    s.edit(
        PersonEdit::AcceptVersion {
            product_id: "p1".into(),
            version_id: "v1".into(),
        },
        now,
    )
    .unwrap();
    s.edit(
        PersonEdit::RemarkToChair {
            content: "Add a lunch break.".into(),
        },
        now,
    )
    .unwrap();
    let charter = Charter {
        mission: "M2".into(),
        objectives: "O2".into(),
        constraints: "C2".into(),
    };
    s.edit(
        PersonEdit::Charter {
            charter: charter.clone(),
        },
        now,
    )
    .unwrap();
    assert_eq!(
        s.state()
            .tree
            .product("p1")
            .unwrap()
            .accepted_version
            .as_deref(),
        Some("v1")
    );
    answer_all(&mut s, &mut now, scripted); // inspection (chair)
    answer_all(&mut s, &mut now, scripted); // reflect r2
    let plan = s.calls_due().pop().unwrap();
    assert_eq!(TeamState::step_of(plan.step), Step::PlanAssign);
    let user = &plan.messages[1].content;
    assert!(
        user.contains("from user-1 (note): Add a lunch break."),
        "{user}"
    );
    assert!(user.contains("- Mission: M2"));
    assert_eq!(
        plan.envelope
            .get::<Envelope>()
            .charter
            .as_ref()
            .unwrap()
            .mission,
        "M2"
    );
    assert_eq!(Session::replay(s.events()).unwrap(), s);
}

#[test]
fn a_missing_charter_blocks_every_step_but_bootstrap() {
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted); // bootstrap → plan issued
    s.pause(now).unwrap();
    // An incomplete charter is refused as an edit today; a log written before that rule holds
    // one, and still blocks the steps after Bootstrap when replayed.
    let blank = PersonEdit::Charter {
        charter: Charter::default(),
    };
    assert!(s.edit(blank.clone(), now).is_err(), "refused as an edit");
    let mut events = s.events().to_vec();
    events.push(roundtable_core::engine::Event {
        seq: events.len() as u64,
        at: now,
        kind: EventKind::PersonEdited {
            edit: roundtable_core::engine::EngineEdit::of_kind(blank),
        },
    });
    let mut s = Session::replay(&events).unwrap();
    s.resume(now).unwrap(); // the plan call was already out: it still runs
    answer_all(&mut s, &mut now, scripted); // plan applied → Write would start: blocked
    assert_eq!(
        s.status(),
        &Status::Paused {
            reason: PauseReason::Blocked(roundtable_core::engine::KindValue::new(
                roundtable_core::protocol::team::TeamBlock::MissingCharter
            ))
        }
    );
    assert!(s.resume(now).is_err());
    let charter = Charter {
        mission: "M".into(),
        objectives: "O".into(),
        constraints: "C".into(),
    };
    s.edit(PersonEdit::Charter { charter }, now).unwrap();
    s.resume(now).unwrap();
    assert_eq!(TeamState::step_of(s.calls_due()[0].step), Step::Write);
}

#[test]
fn pause_stops_new_calls_but_accepts_answers_already_out() {
    let mut s = Session::new(config(2, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted);
    answer_all(&mut s, &mut now, scripted);
    let calls = s.calls_due();
    assert_eq!(calls.len(), 2, "both writers in parallel");
    s.pause(now).unwrap();
    assert!(s.calls_due().is_empty());
    for c in &calls {
        assert_eq!(
            s.submit(&c.id, &scripted(c), None, now).unwrap(),
            Outcome::Applied
        );
    }
    assert!(s.calls_due().is_empty(), "no peer review until resumed");
    s.resume(now).unwrap();
    assert!(s
        .calls_due()
        .iter()
        .all(|c| TeamState::step_of(c.step) == Step::PeerReview));
}

#[test]
fn config_errors_are_refused() {
    let mut cfg = config(1, false, false);
    cfg.members[1].id = "op-1".into();
    assert!(matches!(Session::new(cfg, 0), Err(EngineError::Config(_))));
    let mut cfg = config(1, false, false);
    cfg.members.remove(0);
    assert!(Session::new(cfg, 0).is_err());
    let mut cfg = config(1, false, false);
    cfg.request = "  ".into();
    assert!(Session::new(cfg, 0).is_err());
}

#[test]
fn export_import_replay_is_the_identity() {
    let mut s = Session::new(config(3, true, true), 0).unwrap();
    s.start(1).unwrap();
    drive_demo(&mut s, 9, 500);
    assert_eq!(s.status(), &Status::Done);
    let text = export::to_file(&AnySession::of_kind(s.clone()), 123);
    assert!(text.starts_with("{\n  \"format\": \"roundtable.session\",\n  \"schema_version\": 3,"));
    assert!(!text.to_lowercase().contains("apikey") && !text.contains("api_key"));
    let back = export::from_file(&text).unwrap();
    assert_eq!(back, AnySession::of_kind(s.clone()));
    assert_eq!(export::to_file(&back, 123), text);
    // A half-finished session too (paused mid-write).
    let mut s = Session::new(config(2, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted);
    answer_all(&mut s, &mut now, scripted);
    s.pause(now).unwrap();
    let back = export::from_file(&export::to_file(&AnySession::of_kind(s.clone()), 5)).unwrap();
    assert_eq!(back, AnySession::of_kind(s.clone()));
    assert_eq!(
        back.as_team()
            .unwrap()
            .state()
            .core
            .outstanding_calls()
            .count(),
        2
    );
}

#[test]
fn import_refuses_bad_files_with_plain_reasons() {
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    drive_scripted(&mut s, &mut now);
    let text = export::to_file(&AnySession::of_kind(s.clone()), 9);
    assert!(matches!(
        export::from_file("not json"),
        Err(ImportError::NotJson(_))
    ));
    assert!(matches!(
        export::from_file(r#"{"format":"other"}"#),
        Err(ImportError::WrongFormat(_))
    ));
    assert!(matches!(
        export::from_file(r#"{"format":"roundtable.session","schema_version":7}"#),
        Err(ImportError::NewerVersion { found: 7, .. })
    ));
    assert!(matches!(
        export::from_file(r#"{"format":"roundtable.session"}"#),
        Err(ImportError::NoVersion)
    ));
    assert!(matches!(
        export::from_file(r#"{"format":"roundtable.session","schema_version":1}"#),
        Err(ImportError::Malformed(_))
    ));
    // An edited event breaks the checksum.
    let tampered = text.replacen("Plan the workshop.", "Plan the party.", 1);
    assert_ne!(tampered, text);
    let err = export::from_file(&tampered).unwrap_err();
    assert!(matches!(err, ImportError::Checksum { .. }), "{err}");
    assert!(err.to_string().contains("checksum does not match"));
    // An edited snapshot no longer matches the events.
    let at = text.find("\"snapshot\": {").unwrap();
    let edited = format!(
        "{}{}",
        &text[..at],
        text[at..].replacen("\"round\": ", "\"round\": 4", 1)
    );
    let err = export::from_file(&edited).unwrap_err();
    assert_eq!(err, ImportError::SnapshotMismatch);
    // Events reordered (checksum recomputed) do not replay.
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let events = v["events"].as_array_mut().unwrap();
    events.swap(1, 2);
    v["checksum"] = serde_json::json!(export::checksum_of_text(&v["events"].to_string()));
    let err = export::from_file(&v.to_string()).unwrap_err();
    assert!(matches!(err, ImportError::Replay(_)), "{err}");
    // Too large.
    let huge = " ".repeat(export::MAX_FILE_BYTES + 1);
    assert!(matches!(
        export::from_file(&huge),
        Err(ImportError::TooLarge { .. })
    ));
}

#[test]
fn markdown_report_lists_products_in_tree_order_with_accepted_versions() {
    let mut s = Session::new(config(2, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    drive_scripted(&mut s, &mut now);
    let md = export::markdown_report(&AnySession::of_kind(s.clone()));
    let p1 = md.find("## Part 1 (p1)").expect("p1 heading");
    let p2 = md.find("## Part 2 (p2)").expect("p2 heading");
    assert!(p1 < p2);
    // People by name, never by id.
    let name_of = |id: &str| {
        let m = s.state().members.iter().find(|m| m.id == id).unwrap();
        assert_ne!(m.name, id);
        m.name.clone()
    };
    assert!(md.contains(&format!(
        "_Accepted version v1 by {}, round 1._",
        name_of("operative-1")
    )));
    assert!(md.contains(&format!("**{}:** Here is the plan.", name_of("chair"))));
    assert!(!md.contains("operative-1"), "{md}");
    assert!(md.starts_with("# Roundtable\n"));
}

#[test]
fn a_plan_whose_later_part_fails_applies_nothing_of_its_tree_changes() {
    let mut s = Session::new(config(2, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted); // bootstrap
    answer_all(&mut s, &mut now, scripted); // plan r1
    answer_all(&mut s, &mut now, scripted); // write r1 (v1 of p1, v2 of p2)
    answer_all(&mut s, &mut now, scripted); // peer review
    answer_all(&mut s, &mut now, scripted); // inspection by the chair
    answer_all(&mut s, &mut now, scripted); // reflect r2
    let plan = s.calls_due().pop().unwrap();
    assert_eq!(TeamState::step_of(plan.step), Step::PlanAssign);
    let before = s.state().clone();
    // The ADD is fine, the acceptance names v2, which belongs to p2, not p1.
    let bad = serde_json::json!({"responseType": "final_output",
        "thinking": {"roundStrategy": "s", "acceptanceRationale": "r"},
        "treeOperations": [{"action": "ADD", "newId": "new-1", "parentId": "p0", "product": {"name": "Agenda", "type": "Content", "dod": "d"}}],
        "assignments": [{"productId": "new-1", "assignee": "operative-1", "directive": {"objective": "o", "dod": "d", "why": "w"}}],
        "acceptance": [{"productId": "p1", "accepted": true, "versionId": "v2"}],
        "remarks": [{"recipients": ["team"], "type": "note", "content": "hello"}]})
    .to_string();
    let out = s.submit(&plan.id, &bad, None, now + 1).unwrap();
    let Outcome::Invalid { report, .. } = out else {
        panic!("{out:?}")
    };
    assert!(
        report.errors.iter().any(|e| e.message.contains("v2")),
        "{report:?}"
    );
    assert_eq!(
        s.state().tree,
        before.tree,
        "no product added, nothing accepted"
    );
    assert_eq!(s.state().assignments, before.assignments);
    assert_eq!(s.state().remarks, before.remarks);
    assert_eq!(Session::replay(s.events()).unwrap(), s);
}

#[test]
fn in_a_large_tree_own_products_are_capped_and_the_rest_named_in_the_folded_line() {
    use roundtable_core::protocol::team::prompt::{LIST_ALL_MAX, OWN_LISTED_MAX};
    use roundtable_core::protocol::team::tree::Tier;
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let count = LIST_ALL_MAX + 10;
    let many = move |call: &ModelCall| -> String {
        if TeamState::step_of(call.step) == Step::Write {
            // A version of every assigned product (the call lists 12 and requires those; it
            // takes any of its assignments).
            let env = call.envelope.get::<Envelope>();
            let versions: Vec<_> = env
                .assigned_to_you
                .iter()
                .map(|a| a.product_id.clone())
                .chain(env.left_out.assignments.iter().cloned())
                .map(|p| serde_json::json!({"productId": p, "newVersion": {"contentTitle": "Part", "content": "The whole part, written out in full for the plan of the day.", "changeSummary": "First."}}))
                .collect();
            return serde_json::json!({"responseType": "final_output", "versions": versions})
                .to_string();
        }
        if TeamState::step_of(call.step) != Step::Bootstrap {
            return scripted(call);
        }
        let products: Vec<_> = (1..=count)
            .map(|i| serde_json::json!({"name": format!("Part {i}"), "type": "Content", "dod": "d", "owner": "operative-1"}))
            .collect();
        serde_json::json!({"responseType": "final_output", "thinking": {"interpretation": "i", "scopeDecisions": "s"},
            "mission": "m", "objectives": "o", "constraints": "c", "personas": {}, "operativeDomains": {},
            "initialProducts": products})
        .to_string()
    };
    let mut now = 1;
    answer_all(&mut s, &mut now, many); // bootstrap
    answer_all(&mut s, &mut now, many); // plan: every product assigned to operative-1
    answer_all(&mut s, &mut now, many); // write: a version of each
    let st = s.state();
    let env = roundtable_core::protocol::team::prompt::build_envelope(
        st,
        "operative-1",
        Step::PeerReview,
    );
    let own: Vec<&str> = env
        .products
        .iter()
        .filter(|p| p.id != "p0")
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(own.len(), OWN_LISTED_MAX, "own products listed, capped");
    assert!(env
        .products
        .iter()
        .filter(|p| p.id != "p0")
        .all(|p| p.tier == Tier::Minimal && p.current.is_none()));
    // The most recently written ones are listed.
    let newest = st
        .tree
        .walk()
        .iter()
        .filter(|(_, p)| p.id != "p0")
        .max_by_key(|(_, p)| p.versions.last().map(|v| v[1..].parse::<u32>().unwrap()))
        .map(|(_, p)| p.id.clone())
        .unwrap();
    assert!(own.contains(&newest.as_str()), "{own:?} {newest}");
    // The rest are counted on the root's folded line and named there: none of its own is hidden.
    let root = &env.products[0];
    let folded = root.folded.as_ref().expect("the root folds the rest");
    assert_eq!(folded.products, count - OWN_LISTED_MAX);
    assert_eq!(folded.awaiting, count - OWN_LISTED_MAX);
    assert_eq!(folded.yours.len(), count - OWN_LISTED_MAX);
    let mut all: Vec<&str> = own
        .iter()
        .copied()
        .chain(folded.yours.iter().map(String::as_str))
        .collect();
    all.sort_by_key(|id| id[1..].parse::<u32>().unwrap());
    let expected: Vec<String> = (1..=count).map(|i| format!("p{i}")).collect();
    assert_eq!(all, expected.iter().map(String::as_str).collect::<Vec<_>>());
    let prompt = roundtable_core::protocol::team::prompt::render_prompt(&env).user;
    assert!(prompt.contains(&format!(
        "  Folded below: {} products ({} awaiting acceptance; yours: {}",
        count - OWN_LISTED_MAX,
        count - OWN_LISTED_MAX,
        folded.yours[0]
    )));
}

/// A tree of 3 sections: p1 with 40 parts (p4…p43), p2 with 5 (p44…p48), p3 empty, everything
/// owned by operative-1 but only p4 and p5 assigned in round 1.
fn folded_session() -> Session {
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let build = |call: &ModelCall| -> String {
        match TeamState::step_of(call.step) {
            Step::Bootstrap => {
                let products: Vec<_> = (1..=3)
                    .map(|i| serde_json::json!({"name": format!("Section {i}"), "type": "Collection", "dod": "d", "owner": "operative-1"}))
                    .collect();
                serde_json::json!({"responseType": "final_output", "thinking": {"interpretation": "i", "scopeDecisions": "s"},
                    "mission": "Plan the fair.", "objectives": "o", "constraints": "c", "personas": {}, "operativeDomains": {},
                    "initialProducts": products})
                .to_string()
            }
            Step::PlanAssign => {
                let mut ops = Vec::new();
                for i in 1..=45 {
                    let parent = if i <= 40 { "p1" } else { "p2" };
                    ops.push(serde_json::json!({"action": "ADD", "newId": format!("new-{i}"), "parentId": parent,
                        "product": {"name": format!("Part {i}"), "type": "Content", "dod": format!("Part {i} is written."), "assignee": "operative-1"}}));
                }
                let asg: Vec<_> = ["new-1", "new-2"].iter().map(|p| serde_json::json!({"productId": p, "assignee": "operative-1",
                    "directive": {"objective": format!("Write {p}"), "dod": "Written.", "why": "The fair needs it."}})).collect();
                serde_json::json!({"responseType": "final_output", "thinking": {"roundStrategy": "s", "acceptanceRationale": "r"},
                    "treeOperations": ops, "assignments": asg, "acceptance": [], "remarks": []})
                .to_string()
            }
            _ => scripted(call),
        }
    };
    let mut now = 1;
    answer_all(&mut s, &mut now, build); // bootstrap
    answer_all(&mut s, &mut now, build); // plan
    s
}

#[test]
fn a_large_tree_is_folded_around_the_members_work_and_a_folded_branch_opens_through_request_context(
) {
    use roundtable_core::protocol::team::tree::Tier;
    let mut s = folded_session();
    let call = s.calls_due().pop().unwrap();
    assert_eq!(
        (TeamState::step_of(call.step), call.member.as_str()),
        (Step::Write, "operative-1")
    );
    let listed: Vec<(&str, Tier)> = call
        .envelope
        .get::<Envelope>()
        .products
        .iter()
        .map(|p| (p.id.as_str(), p.tier))
        .collect();
    // The assigned parts at extra tier with their ancestors; own products up to the cap; the
    // other sections one line each (p2 folded with its parts counted, p3 empty).
    assert_eq!(listed[0], ("p0", Tier::Minimal));
    assert_eq!(listed[1], ("p1", Tier::Minimal));
    assert!(listed.contains(&("p4", Tier::Extra)) && listed.contains(&("p5", Tier::Extra)));
    // p2 and p3 are the root's other children: one line each (the own-product cap is reached
    // inside p1).
    assert!(listed.contains(&("p2", Tier::Brief)) && listed.contains(&("p3", Tier::Brief)));
    let p1 = &call.envelope.get::<Envelope>().products[1];
    let hidden = p1.folded.as_ref().expect("p1's other parts are folded");
    // 40 parts: 2 assigned and up to 12 own listed; every other one counted and named as its own.
    let listed_parts = listed.iter().filter(|(id, _)| {
        let n: usize = id[1..].parse().unwrap();
        (4..=43).contains(&n)
    });
    assert_eq!(hidden.products + listed_parts.count(), 40);
    assert_eq!(hidden.yours.len(), hidden.products);
    let user = &call.messages[1].content;
    assert!(user.contains("(\"folded\": products not listed here, counted; to list them, ask request_context with that product's id and need peer_content)"));
    assert!(user.contains("  Folded below: "), "{user}");
    // Every own product is named somewhere in the prompt.
    for p in s.state().tree.walk().iter().filter(|(_, p)| p.id != "p0") {
        let named = user.contains(&format!("- {} \"", p.1.id))
            || user.contains(&format!(" {},", p.1.id))
            || user.contains(&format!(" {})", p.1.id));
        assert!(named, "{} is not named", p.1.id);
    }

    // The member opens p1 (folded): its 40 parts come back one line each, then content.
    let ask = r#"{"responseType":"request_context","contextRequests":[{"productId":"p1","need":"peer_content","reason":"What else is in this section?"}]}"#;
    assert_eq!(
        s.submit(&call.id, ask, None, 100).unwrap(),
        Outcome::ContextServed
    );
    let call = s.calls_due().pop().unwrap();
    let served = &call.envelope.get::<Envelope>().served_context[0].text;
    assert!(served.starts_with("Below p1 \"Section 1\":\n"), "{served}");
    for i in 4..=43 {
        let line = format!(
            "  - p{i} \"Part {}\" [Content, pending] owner: operative-1",
            i - 3
        );
        assert!(
            served.lines().any(|l| l == line),
            "p{i} missing from {served}"
        );
    }
    assert!(call
        .messages
        .last()
        .unwrap()
        .content
        .contains(served.as_str()));
}

#[test]
fn the_chair_sees_what_needs_a_decision_and_the_rest_folded() {
    use roundtable_core::protocol::team::prompt::{
        build_envelope, CHAIR_EXTRA_MAX, DECISIONS_LISTED_MAX,
    };
    use roundtable_core::protocol::team::tree::Tier;
    let mut s = folded_session();
    let mut now = 10;
    // Write p4 and p5; the chair (inspecting, as there is no inspector) blocks p5's version.
    let block = |call: &ModelCall| -> String {
        if TeamState::step_of(call.step) == Step::Inspection {
            let ins: Vec<_> = call
                .envelope
                .get::<Envelope>()
                .to_review
                .iter()
                .map(|v| {
                    serde_json::json!({
                "productId": v.product_id, "versionId": v.version_id,
                "assessment": if v.product_id == "p5" { "blocked" } else { "approved" },
                "findings": []})
                })
                .collect();
            return serde_json::json!({"responseType": "final_output", "inspections": ins})
                .to_string();
        }
        scripted(call)
    };
    for _ in 0..3 {
        answer_all(&mut s, &mut now, block); // write, inspection, reflect
    }
    let call = s.calls_due().pop().unwrap();
    assert_eq!(
        (TeamState::step_of(call.step), call.round),
        (Step::PlanAssign, 2)
    );
    let st = s.state();
    let env = build_envelope(st, "chair", Step::PlanAssign);
    let tier = |id: &str| env.products.iter().find(|p| p.id == id).map(|p| p.tier);
    // The two new versions need a decision: at extra tier (the newest, at most CHAIR_EXTRA_MAX).
    const { assert!(CHAIR_EXTRA_MAX >= 2) };
    assert_eq!(tier("p4"), Some(Tier::Extra));
    assert_eq!(tier("p5"), Some(Tier::Extra), "blocked and awaiting");
    // Then the 43 parts not started, up to the cap of decisions: the rest folded and counted.
    let listed_parts = env
        .products
        .iter()
        .filter(|p| p.parent_id.as_deref().is_some_and(|p| p != "p0"))
        .count();
    assert_eq!(listed_parts, DECISIONS_LISTED_MAX);
    let folded: usize = env
        .products
        .iter()
        .filter_map(|p| p.folded.as_ref())
        .map(|f| f.products)
        .sum();
    assert_eq!(listed_parts + folded, 45, "every part listed or counted");
    assert!(
        env.products
            .iter()
            .all(|p| p.folded.as_ref().is_none_or(|f| f.yours.is_empty())),
        "the chair owns none of them"
    );
    // Every version awaiting acceptance is named in the prompt.
    let user = &call.messages[1].content;
    for v in &env.awaiting_acceptance {
        assert!(
            user.contains(&format!("- {} of {} ", v.version_id, v.product_id)),
            "{user}"
        );
    }
}

#[test]
fn a_branch_outline_counts_what_is_below_each_child_and_caps_the_children() {
    use roundtable_core::protocol::team::prompt::{branch_outline, OUTLINE_MAX};
    let s = folded_session();
    let st = s.state();
    // The root's children: three sections, each with what is below it counted.
    assert_eq!(
        branch_outline(st, "operative-1", "p0"),
        [
            "  - p1 \"Section 1\" [Collection, pending] owner: operative-1 — folded, below it: 40 products",
            "  - p2 \"Section 2\" [Collection, pending] owner: operative-1 — folded, below it: 5 products",
            "  - p3 \"Section 3\" [Collection, pending] owner: operative-1",
        ]
        .join("\n")
            .replace("40 products", &format!("40 products (yours: {})", (4..=43).map(|i| format!("p{i}")).collect::<Vec<_>>().join(", ")))
            .replace("5 products", &format!("5 products (yours: {})", (44..=48).map(|i| format!("p{i}")).collect::<Vec<_>>().join(", ")))
    );
    assert_eq!(
        branch_outline(st, "chair", "p3"),
        "",
        "no children, no outline"
    );

    // A branch with more children than an outline lists: the rest, and what is below them, are
    // counted on one line.
    let mut s = Session::new(config(1, false, false), 0).unwrap();
    s.start(1).unwrap();
    let children = OUTLINE_MAX + 5;
    let build = move |call: &ModelCall| -> String {
        match TeamState::step_of(call.step) {
            Step::Bootstrap => serde_json::json!({"responseType": "final_output", "thinking": {"interpretation": "i", "scopeDecisions": "s"},
                "mission": "m", "objectives": "o", "constraints": "c", "personas": {}, "operativeDomains": {},
                "initialProducts": [{"name": "Section", "type": "Collection", "dod": "d", "owner": "operative-1"}]})
            .to_string(),
            _ => {
                let mut ops: Vec<_> = (1..=children)
                    .map(|i| serde_json::json!({"action": "ADD", "newId": format!("new-{i}"), "parentId": "p1",
                        "product": {"name": format!("Part {i}"), "type": "Content", "dod": "d"}}))
                    .collect();
                // Two grandchildren under the last child, which is past the outline's cap.
                for j in 1..=2 {
                    ops.push(serde_json::json!({"action": "ADD", "newId": format!("new-{}", children + j), "parentId": format!("new-{children}"),
                        "product": {"name": format!("Detail {j}"), "type": "Content", "dod": "d", "assignee": "operative-1"}}));
                }
                serde_json::json!({"responseType": "final_output", "thinking": {"roundStrategy": "s", "acceptanceRationale": "r"},
                    "treeOperations": ops, "assignments": [], "acceptance": [], "remarks": []})
                .to_string()
            }
        }
    };
    let mut now = 1;
    answer_all(&mut s, &mut now, build);
    answer_all(&mut s, &mut now, build);
    let outline = branch_outline(s.state(), "operative-1", "p1");
    assert_eq!(outline.lines().count(), OUTLINE_MAX + 1);
    let last_id = 1 + children;
    assert_eq!(
        outline.lines().last().unwrap(),
        format!(
            "  - … not listed: 7 products (yours: p{}, p{})",
            last_id + 1,
            last_id + 2
        )
    );
}

#[test]
fn transcripts_group_a_members_step_and_live_states_follow_the_calls() {
    let mut s = Session::new(config(2, false, false), 0).unwrap();
    s.start(1).unwrap();
    let mut now = 1;
    answer_all(&mut s, &mut now, scripted);
    answer_all(&mut s, &mut now, scripted);
    assert_eq!(
        s.state().core.live_states(),
        vec![("operative-1", "working"), ("operative-2", "working")]
    );
    let calls = s.calls_due();
    s.submit(&calls[0].id, "None", None, 40).unwrap();
    s.submit(&calls[1].id, &scripted(&calls[1]), None, 41)
        .unwrap();
    assert_eq!(
        s.state().core.live_states(),
        vec![("operative-1", "repairing"), ("operative-2", "done")]
    );
    let fix = s.calls_due().pop().unwrap();
    s.submit(&fix.id, &scripted(&fix), None, 42).unwrap();
    let thread = s.state().calls_of("operative-1", 1, Step::Write);
    assert_eq!(thread.len(), 2);
    assert!(matches!(
        thread[0].result,
        Some(roundtable_core::engine::CallResult::Invalid { .. })
    ));
    assert_eq!(thread[1].call.kind, CallKind::Repair);
    assert!(matches!(
        &thread[1].result,
        Some(roundtable_core::engine::CallResult::Applied { changes, .. }) if changes[0] == "wrote v2 of p1"
    ));
}

/// The invariants hold after every single event, not only after every answer: each prefix of a
/// whole demo session's log folds into a sound session (a submit may append several events).
#[test]
fn invariants_hold_after_every_event_of_a_whole_session() {
    for (operatives, inspector) in [(2, true), (3, false)] {
        let mut s = Session::new(config(operatives, inspector, true), 0).unwrap();
        s.start(1).unwrap();
        drive_demo(&mut s, 7 + operatives as u64, 500);
        assert_eq!(s.state().core.status, Status::Done);
        let events = s.events().to_vec();
        assert!(events.len() > 50, "a whole session has many events");
        for k in 1..=events.len() {
            let prefix = Session::replay(&events[..k])
                .unwrap_or_else(|e| panic!("prefix of {k} events does not fold: {e}"));
            check_session(&prefix);
        }
    }
}
