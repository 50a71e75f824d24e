//! What each prompt of a team session says, fact by fact (spec `003`: native, chronological, no
//! duplication). A scripted session with collabs, reviews with findings, reflections that answer
//! collabs (`feedbackResponses`), `dodGaps`, Bootstrap's `missingDetails`, a question to the
//! person and a second version of a product; its round-2 and round-3 prompts are snapshotted, and
//! each point is asserted: every fact is said once, the inspector and the reviewers see the findings
//! they must not repeat, the chair sees the team's domains and personas, the gaps and the answers
//! to collabs, a collab's author sees the answer, Reflect sees the last directive and the last
//! version diff, the root's status follows its products and the task line states the round limit
//! and the session's status. A second session with many events checks that the chair's plan still
//! names who wrote what and that what is not listed is counted, never dropped.

mod engine_common;

use engine_common::*;
use roundtable_core::engine::{Protocol, Status};
use roundtable_core::protocol::team::prompt::Envelope;
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::{TeamConfig, TeamSession as Session, TeamState};
use serde_json::{json, Value};

/// Every prompt of a session, in order: (round, step, member, user text, system text).
#[derive(Default)]
struct Seen {
    prompts: Vec<(u32, Step, String, String, String)>,
    follow_up: Option<String>,
}

impl Seen {
    fn user(&self, round: u32, step: Step, member: &str) -> &str {
        &self.find(round, step, member).3
    }

    fn system(&self, round: u32, step: Step, member: &str) -> &str {
        &self.find(round, step, member).4
    }

    fn find(&self, round: u32, step: Step, member: &str) -> &(u32, Step, String, String, String) {
        self.prompts
            .iter()
            .find(|p| p.0 == round && p.1 == step && p.2 == member)
            .unwrap_or_else(|| panic!("no {step} prompt of {member} in round {round}"))
    }
}

/// Plays `s` with `answer`, recording the first prompt of every call; a question is answered
/// with `reply`.
fn play(s: &mut Session, answer: impl Fn(&ModelCall) -> Value, reply: &str) -> Seen {
    let mut seen = Seen::default();
    let mut now = 1;
    s.start(now).unwrap();
    for _ in 0..300 {
        now += 1;
        match s.status().clone() {
            Status::Running => {
                for call in s.calls_due() {
                    let text = |i: usize| call.call.messages[i].content.to_string();
                    if call.call.messages.len() == 2 {
                        seen.prompts.push((
                            call.round,
                            TeamState::step_of(call.step),
                            call.member.clone(),
                            text(1),
                            text(0),
                        ));
                    } else if seen.follow_up.is_none() {
                        seen.follow_up = call.call.messages.last().map(|m| m.content.to_string());
                    }
                    now += 1;
                    s.submit(&call.id, &answer(&call).to_string(), None, now)
                        .unwrap();
                    check_session(s);
                }
            }
            Status::AwaitingPerson { .. } => s.answer_halt(reply, now).unwrap(),
            _ => break,
        }
    }
    assert_eq!(s.status(), &Status::Done);
    seen
}

const REPLY: &str = "The twelfth of May, and a budget of two hundred pounds.";

/// The product id of the product named `name` in the call's envelope.
fn id_of(call: &ModelCall, name: &str) -> String {
    call.envelope
        .get::<Envelope>()
        .products
        .iter()
        .find(|p| p.name == name)
        .map(|p| p.id.clone())
        .unwrap_or_else(|| panic!("no product {name}"))
}

/// The latest version id of the product named `name`.
fn latest_of(call: &ModelCall, name: &str) -> String {
    call.envelope
        .get::<Envelope>()
        .products
        .iter()
        .find(|p| p.name == name)
        .and_then(|p| p.version_ids.last().cloned())
        .unwrap_or_else(|| panic!("{name} has no version"))
}

/// The collab id whose summary is `summary`, as the tree numbered it.
fn collab_of(call: &ModelCall, summary: &str) -> String {
    let env = call.envelope.get::<Envelope>();
    env.collabs_received
        .iter()
        .find(|c| c.summary == summary)
        .map(|c| c.id.clone())
        .unwrap_or_else(|| panic!("{} did not receive \"{summary}\"", call.member))
}

fn final_output(v: Value) -> Value {
    let mut v = v;
    v["responseType"] = json!("final_output");
    v
}

const AGENDA_V1: &str = "# Agenda\n\n- 09:00 Welcome and goals\n- 09:30 Input on interviews\n- 11:00 Group exercise\n- 12:00 Close";
const AGENDA_V2: &str = "# Agenda\n\n- 09:00 Welcome and goals\n- 09:30 Input on interviews\n- 10:30 Coffee break\n- 11:00 Group exercise\n- 12:00 Close";

/// The scripted team: two operatives, an inspector, an envoy.
fn scripted_team(call: &ModelCall) -> Value {
    let env = call.envelope.get::<Envelope>();
    let me = call.member.as_str();
    match (TeamState::step_of(call.step), call.round) {
        (Step::Bootstrap, _) if env.person_answers.is_empty() => json!({
            "responseType": "halt",
            "halt": {"type": "question", "to": ["user-1"], "message": "When is the workshop, and what may materials cost?"}
        }),
        (Step::Bootstrap, _) => final_output(json!({
            "thinking": {"interpretation": "A half-day workshop.", "scopeDecisions": "Agenda and materials only."},
            "mission": "Plan the interview workshop.",
            "objectives": "A timed agenda and printed materials.",
            "constraints": "Half a day.",
            "personas": {
                "chair": "A calm lead.",
                "operative-1": "A meticulous planner who times every block.",
                "operative-2": "A maker of handouts people keep.",
                "inspector": "A strict reader of definitions of done.",
                "envoy": "A plain speaker."
            },
            "operativeDomains": {
                "operative-1": {"responsibility": "The agenda and its timing", "area": "Agenda"},
                "operative-2": {"responsibility": "Exercises and handouts", "area": "Materials"}
            },
            "initialProducts": [
                {"name": "Agenda", "type": "Content", "dod": "Timed blocks, breaks included.", "owner": "operative-1"},
                {"name": "Materials", "type": "Content", "dod": "Every handout listed.", "owner": "operative-2"}
            ],
            "missingDetails": ["The size of the room", "Whether lunch is served"]
        })),
        (Step::PlanAssign, 1) => final_output(json!({
            "thinking": {"roundStrategy": "Draft both.", "acceptanceRationale": "Nothing yet."},
            "treeOperations": [],
            "assignments": [
                {"productId": id_of(call, "Agenda"), "assignee": "operative-1",
                 "directive": {"objective": "Draft the agenda", "dod": "Timed blocks, breaks included.", "why": "Everything hangs on it.", "context": "Start from nine."}},
                {"productId": id_of(call, "Materials"), "assignee": "operative-2",
                 "directive": {"objective": "List the materials", "dod": "Every handout listed.", "why": "Printing takes a week."}}
            ],
            "acceptance": [],
            "remarks": [{"recipients": ["team"], "type": "note", "content": "Drafts first."}]
        })),
        (Step::PlanAssign, 2) => final_output(json!({
            "thinking": {"roundStrategy": "Fix the agenda.", "acceptanceRationale": "Materials are done."},
            "treeOperations": [],
            "assignments": [
                {"productId": id_of(call, "Agenda"), "assignee": "operative-1",
                 "directive": {"objective": "Add the coffee break", "dod": "A break between input and exercise.", "why": "The inspector found none."}}
            ],
            "acceptance": [{"productId": id_of(call, "Materials"), "accepted": true, "versionId": latest_of(call, "Materials")}],
            "remarks": []
        })),
        (Step::PlanAssign, 3) => final_output(json!({
            "thinking": {"roundStrategy": "Close.", "acceptanceRationale": "The break is in."},
            "treeOperations": [], "assignments": [],
            "acceptance": [{"productId": id_of(call, "Agenda"), "accepted": true, "versionId": latest_of(call, "Agenda")}],
            "remarks": []
        })),
        (Step::PlanAssign, _) => json!({
            "responseType": "halt",
            "halt": {"type": "done", "to": ["user-1"], "message": "Both parts are accepted."}
        }),
        (Step::Write, round) => {
            let versions: Vec<Value> = env
                .assigned_to_you
                .iter()
                .map(|a| {
                    let content = match (a.product_name.as_str(), round) {
                        ("Agenda", 1) => AGENDA_V1.to_string(),
                        ("Agenda", _) => AGENDA_V2.to_string(),
                        _ => "# Materials\n\n- Interview guide, one per person\n- Consent form\n- Flipchart paper".to_string(),
                    };
                    json!({"productId": a.product_id, "newVersion": {"contentTitle": a.product_name, "content": content, "changeSummary": format!("Round {round} draft.")}})
                })
                .collect();
            let collabs = if me == "operative-1" && round == 1 {
                json!([{"refersToProduct": id_of(call, "Materials"), "type": "concern", "importance": 6,
                        "comment": "The materials must list the flipcharts the exercise needs.", "shortestSummary": "List the flipcharts",
                        "addresseeIds": ["operative-2"]}])
            } else {
                json!([])
            };
            final_output(json!({"versions": versions, "collabs": collabs, "remarks": []}))
        }
        (Step::PeerReview, round) => {
            let mut collabs = Vec::new();
            let reviews: Vec<Value> = env
                .to_review
                .iter()
                .map(|v| {
                    let (assessment, summary) = match (v.product_name.as_str(), round) {
                        ("Agenda", 1) => {
                            collabs.push(json!({"refersToProduct": v.product_id, "refersToVersion": v.version_id, "type": "suggestion", "importance": 5,
                                "comment": "Add a coffee break at half past ten, before the exercise.", "shortestSummary": "Add a coffee break",
                                "addresseeIds": [v.author]}));
                            ("needs_revision", "The timings leave no break.")
                        }
                        ("Agenda", _) => ("approved", "The break is in."),
                        _ => ("approved", "Clear and complete."),
                    };
                    json!({"productId": v.product_id, "versionId": v.version_id, "assessment": assessment, "summary": summary})
                })
                .collect();
            final_output(json!({"reviews": reviews, "collabs": collabs, "remarks": []}))
        }
        (Step::Inspection, round) => {
            let inspections: Vec<Value> = env
                .to_review
                .iter()
                .map(|v| {
                    if v.product_name == "Agenda" && round == 1 {
                        json!({"productId": v.product_id, "versionId": v.version_id, "assessment": "needs_revision",
                            "findings": [{"category": "completeness", "severity": 7, "issue": "No break is scheduled.",
                                          "recommendation": "Add a break before the exercise.", "dodCriterion": "breaks included"}]})
                    } else {
                        json!({"productId": v.product_id, "versionId": v.version_id, "assessment": "approved", "findings": []})
                    }
                })
                .collect();
            // Round 1: a concern of the inspector's own, which nobody answers.
            let collabs = if round == 1 {
                json!([{"refersToProduct": id_of(call, "Agenda"), "type": "concern", "importance": 7,
                        "comment": "Without a pause the exercise will drag.", "shortestSummary": "A pause before the exercise",
                        "addresseeIds": ["operative-1"]}])
            } else {
                json!([])
            };
            final_output(json!({"inspections": inspections, "collabs": collabs, "remarks": []}))
        }
        (Step::Reflect, _) => {
            let reflections: Vec<Value> = env
                .wrote_last_round
                .iter()
                .map(|w| match (w.product_name.as_str(), me) {
                    ("Agenda", _) if call.round == 2 => json!({
                        "refersToProduct": w.product_id, "dodStatus": "partially_met", "dodGaps": ["No break yet"],
                        "feedbackResponses": [{"collabId": collab_of(call, "Add a coffee break"), "action": "accept",
                                               "rationale": "Right, the morning has no pause.", "plannedChange": "Add a 10:30 coffee break."}],
                        "nextVersionDelta": "Add the break."}),
                    ("Materials", _) => json!({
                        "refersToProduct": w.product_id, "dodStatus": "met",
                        "feedbackResponses": [{"collabId": collab_of(call, "List the flipcharts"), "action": "defer",
                                               "rationale": "Flipcharts depend on the venue."}],
                        "nextVersionDelta": "Wait for the venue."}),
                    _ => json!({"refersToProduct": w.product_id, "dodStatus": "met", "feedbackResponses": [], "nextVersionDelta": "Nothing left."}),
                })
                .collect();
            final_output(json!({"reflections": reflections, "collabs": [], "remarks": []}))
        }
        (Step::Presentation, _) => final_output(json!({
            "messages": [{"content": "The agenda and the materials are ready.", "asAgent": me}]
        })),
    }
}

fn scripted_session() -> (Session, Seen) {
    let mut s = Session::new(config(2, true, true), 0).unwrap();
    let seen = play(&mut s, scripted_team, REPLY);
    (s, seen)
}

/// How often `needle` occurs in `text`.
fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn the_round_two_and_three_prompts_read_as_snapshotted() {
    let (_, seen) = scripted_session();
    for (round, step, member) in [
        (2, Step::Reflect, "operative-1"),
        (2, Step::PlanAssign, "chair"),
        (2, Step::Write, "operative-1"),
        (2, Step::PeerReview, "operative-2"),
        (2, Step::Inspection, "inspector"),
        (3, Step::Reflect, "operative-1"),
    ] {
        let name = format!("r{round}_{}_{member}", step.wire_name());
        insta::assert_snapshot!(name, seen.user(round, step, member));
    }
    // Bootstrap again after the person answered, and the presentation at the end.
    let last_of = |step: Step| {
        seen.prompts
            .iter()
            .rev()
            .find(|p| p.1 == step)
            .map(|p| p.3.clone())
            .unwrap()
    };
    insta::assert_snapshot!("r0_bootstrap_after_the_answer", last_of(Step::Bootstrap));
    insta::assert_snapshot!("presentation_envoy", last_of(Step::Presentation));
    // The chair's team list, where the domains and personas are.
    let system = seen.system(2, Step::PlanAssign, "chair");
    let team: String = system
        .lines()
        .take_while(|l| !l.starts_with("CRITICAL"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("r2_plan_assign_chair_team", team);
}

#[test]
fn every_fact_is_said_once_in_every_prompt() {
    let (_, seen) = scripted_session();
    let once = [
        // The person's answer, the collabs, the reviews, the findings, the reflections.
        REPLY,
        "The materials must list the flipcharts the exercise needs.",
        "Add a coffee break at half past ten, before the exercise.",
        "List the flipcharts",
        "Add a coffee break\"",
        "The timings leave no break.",
        "The break is in.",
        "No break is scheduled.",
        "Right, the morning has no pause.",
        "Flipcharts depend on the venue.",
        "Add the break.",
        "No break yet",
        "The size of the room",
        "Drafts first.",
        "Without a pause the exercise will drag.",
        "A pause before the exercise",
    ];
    for (round, step, member, user, system) in &seen.prompts {
        for fact in once {
            assert!(
                count(user, fact) + count(system, fact) <= 1,
                "round {round} {step} of {member} says \"{fact}\" {} times:\n{user}",
                count(user, fact) + count(system, fact)
            );
        }
        // A collab id is named by one section: its own line, an answer to it, or the History.
        for c in ["c1 from", "c2 from", "c3 from"] {
            assert!(count(user, c) <= 1, "{c} twice in {step} of {member}");
        }
    }
    // The person's answer reaches every later prompt, once.
    let after: Vec<_> = seen.prompts.iter().skip(1).collect();
    assert!(after.iter().all(|p| count(&p.3, REPLY) == 1));
}

#[test]
fn the_inspector_and_the_reviewers_see_what_was_already_raised() {
    let (_, seen) = scripted_session();
    let inspection = seen.user(2, Step::Inspection, "inspector");
    // This round's review, last round's review and inspection of the same product, with findings.
    assert!(
        inspection.contains("operative-2 review v3 of p1 (round 2): approved — The break is in.")
    );
    assert!(inspection.contains(
        "operative-2 review v1 of p1 (round 1): needs_revision — The timings leave no break."
    ));
    assert!(inspection.contains("inspector inspection v1 of p1 (round 1): needs_revision — [completeness 7] No break is scheduled. → Add a break before the exercise."));
    assert!(inspection.contains("(do not repeat their findings)"));
    // The collab a reviewer raised on it, and the inspector's own earlier one.
    assert!(inspection.contains("Add a coffee break at half past ten"));
    assert!(inspection.contains(
        "- c3 from inspector on p1 (concern, importance 7): Without a pause the exercise will drag."
    ));
    let review = seen.user(2, Step::PeerReview, "operative-2");
    assert!(review.contains("No break is scheduled."));
    assert!(review.contains("The timings leave no break."));
    // Round 1's inspection already shows round 1's reviews.
    let first = seen.user(1, Step::Inspection, "inspector");
    assert!(first.contains("The timings leave no break."));
}

#[test]
fn the_chair_sees_the_team_the_gaps_the_answers_and_the_missing_details() {
    let (_, seen) = scripted_session();
    let system = seen.system(2, Step::PlanAssign, "chair");
    assert!(system.contains(
        "  Responsibility: The agenda and its timing. Persona: A meticulous planner who times every block."
    ));
    assert!(system.contains("Persona: A maker of handouts people keep."));
    // Only the chair gets the others' personas.
    assert!(!seen
        .system(2, Step::Write, "operative-1")
        .contains("A maker of handouts"));
    let plan = seen.user(2, Step::PlanAssign, "chair");
    assert!(plan.contains("gaps: No break yet"));
    assert!(plan.contains(
        "answered c2: accept — Right, the morning has no pause. Planned: Add a 10:30 coffee break."
    ));
    assert!(plan.contains("answered c1: defer — Flipcharts depend on the venue."));
    assert!(plan.contains(
        "Missing details (the person did not say; Bootstrap assumed): The size of the room; Whether lunch is served"
    ));
    assert!(seen
        .user(1, Step::PlanAssign, "chair")
        .contains("The size of the room"));
    // What is still open reaches the writers (who say what is uncertain) and the envoy (who
    // tells the person), not the reviewers.
    assert!(seen.user(2, Step::Write, "operative-1").contains(
        "Missing details (the person did not say; Bootstrap assumed): The size of the room"
    ));
    assert!(!seen
        .user(2, Step::Inspection, "inspector")
        .contains("The size of the room"));
    let present = &seen
        .prompts
        .iter()
        .rfind(|p| p.1 == Step::Presentation)
        .unwrap()
        .3;
    assert!(present.contains(
        "Missing details (the person did not say; Bootstrap assumed): The size of the room"
    ));
    // The envoy's chair note says its round: a stale note reads as one.
    assert!(present.contains("Chair's note (round 1): Drafts first."));
}

#[test]
fn a_collabs_author_sees_the_answer_to_it() {
    let (_, seen) = scripted_session();
    // operative-1 raised c1 on Materials; operative-2 deferred it at Reflect.
    let write = seen.user(2, Step::Write, "operative-1");
    assert!(write.contains(
        "Answers to your collabs:\n- c1 on p2 (\"List the flipcharts\"): operative-2 answered defer — Flipcharts depend on the venue."
    ));
    // operative-2 suggested c2 on the Agenda; operative-1 accepted it.
    let review = seen.user(2, Step::PeerReview, "operative-2");
    assert!(review.contains("- c2 on p1 (\"Add a coffee break\"): operative-1 answered accept — Right, the morning has no pause. Planned: Add a 10:30 coffee break."));
}

#[test]
fn reflect_shows_the_last_directive_and_the_last_version_diff() {
    let (_, seen) = scripted_session();
    let reflect = seen.user(3, Step::Reflect, "operative-1");
    assert!(reflect.contains("  Last directive: objective: Add the coffee break | dod: A break between input and exercise. | why: The inspector found none."));
    assert!(reflect.contains("  Last version diff:\n    + - 10:30 Coffee break\n"));
    // The History does not repeat the directive shown in full.
    assert_eq!(count(reflect, "Add the coffee break"), 1);
    let first = seen.user(2, Step::Reflect, "operative-1");
    assert!(first.contains("Last directive: objective: Draft the agenda | dod: Timed blocks, breaks included. | why: Everything hangs on it. | chair's note: Start from nine."));
    assert!(first.contains("Last version diff: none, it is the first version."));
}

#[test]
fn the_task_line_states_the_round_limit_and_the_status_and_the_root_follows_its_products() {
    let (_, seen) = scripted_session();
    for (round, step, member, user, _) in &seen.prompts {
        let task = user.lines().next().unwrap();
        let expected = match step {
            Step::Bootstrap => {
                "(Bootstrap, before round 1 of at most 8; session running)".to_string()
            }
            Step::Presentation => {
                format!("(Presentation, after round {round}; session wrapping up)")
            }
            _ => format!(
                "({step_title}, round {round} of at most 8; session running)",
                step_title = step.title()
            ),
        };
        assert!(task.contains(&expected), "{member}: {task}");
    }
    let presentation = &seen
        .prompts
        .iter()
        .find(|p| p.1 == Step::Presentation)
        .unwrap();
    assert!(presentation
        .3
        .contains("- p0 \"Roundtable\" [Collection, accepted]"));
    assert!(!presentation.4.contains("not accepted yet"));
    assert!(presentation.4.contains("- operative-1 (Operative 1): Specialist, operative, area: Agenda — owns 1 product(s), all accepted"));
    // The chair owns the root only, which counts for nobody.
    assert!(presentation
        .4
        .contains("- chair (Chair): Team lead, chair\n"));
    assert!(seen
        .user(1, Step::PlanAssign, "chair")
        .contains("- p0 \"Roundtable\" [Collection, pending]"));
    assert!(seen
        .user(2, Step::PlanAssign, "chair")
        .contains("- p0 \"Roundtable\" [Collection, in_progress]"));
}

/// Three operatives, eighteen products, 45 collabs in round 1.
fn busy_team(call: &ModelCall) -> Value {
    let env = call.envelope.get::<Envelope>();
    let ops = ["operative-1", "operative-2", "operative-3"];
    match (TeamState::step_of(call.step), call.round) {
        (Step::Bootstrap, _) => {
            let products: Vec<Value> = (0..18)
                .map(|i| json!({"name": format!("Part {}", i + 1), "type": "Content", "dod": "Written.", "owner": ops[i % 3]}))
                .collect();
            final_output(json!({
                "thinking": {"interpretation": "Many parts.", "scopeDecisions": "All."},
                "mission": "Write the guide.", "objectives": "Eighteen parts.", "constraints": "None.",
                "personas": {}, "operativeDomains": {},
                "initialProducts": products
            }))
        }
        (Step::PlanAssign, 1) => {
            let assignments: Vec<Value> = env
                .products
                .iter()
                .filter_map(|p| p.owner.as_ref().filter(|o| o.starts_with("operative")).map(|o| (p, o)))
                .map(|(p, o)| json!({"productId": p.id, "assignee": o, "directive": {"objective": format!("Write {}", p.name), "dod": "Written.", "why": "Needed."}}))
                .collect();
            final_output(
                json!({"thinking": {"roundStrategy": "All.", "acceptanceRationale": "None."},
                "treeOperations": [], "assignments": assignments, "acceptance": [], "remarks": []}),
            )
        }
        (Step::PlanAssign, 2) => final_output(json!({
            "thinking": {"roundStrategy": "One more.", "acceptanceRationale": "Later."},
            "treeOperations": [], "acceptance": [], "remarks": [],
            "assignments": [{"productId": "p1", "assignee": "operative-1", "directive": {"objective": "Revise Part 1", "dod": "Written.", "why": "Needed."}}]
        })),
        (Step::PlanAssign, _) => {
            json!({"responseType": "halt", "halt": {"type": "done", "to": ["user-1"], "message": "Done."}})
        }
        (Step::Write, round) => {
            let versions: Vec<Value> = env
                .assigned_to_you
                .iter()
                .map(|a| json!({"productId": a.product_id, "newVersion": {"contentTitle": a.product_name,
                    "content": format!("# {}\n\nRound {round}: the part as it stands, with every section written out.", a.product_name), "changeSummary": "Draft."}}))
                .collect();
            // Round 1: fifteen small comments each on the others' products.
            let collabs: Vec<Value> = if round == 1 {
                env.products
                    .iter()
                    .filter(|p| p.id != "p0" && p.owner.as_deref() != Some(call.member.as_str()))
                    .cycle()
                    .take(15)
                    .enumerate()
                    .map(|(i, p)| json!({"refersToProduct": p.id, "type": "feedback", "importance": 2,
                        "comment": format!("Small point {i} by {} on {}.", call.member, p.id), "shortestSummary": format!("Point {i} of {}", call.member)}))
                    .collect()
            } else {
                Vec::new()
            };
            final_output(json!({"versions": versions, "collabs": collabs, "remarks": []}))
        }
        (Step::PeerReview, _) => {
            let reviews: Vec<Value> = env.to_review.iter()
                .map(|v| json!({"productId": v.product_id, "versionId": v.version_id, "assessment": "approved", "summary": "Fine."}))
                .collect();
            final_output(json!({"reviews": reviews, "collabs": [], "remarks": []}))
        }
        (Step::Inspection, _) => {
            let inspections: Vec<Value> = env.to_review.iter()
                .map(|v| json!({"productId": v.product_id, "versionId": v.version_id, "assessment": "approved", "findings": []}))
                .collect();
            final_output(json!({"inspections": inspections, "collabs": [], "remarks": []}))
        }
        (Step::Reflect, _) => {
            let reflections: Vec<Value> = env.wrote_last_round.iter()
                .map(|w| json!({"refersToProduct": w.product_id, "dodStatus": "met", "feedbackResponses": [], "nextVersionDelta": "Polish."}))
                .collect();
            final_output(json!({"reflections": reflections, "collabs": [], "remarks": []}))
        }
        (Step::Presentation, _) => {
            final_output(json!({"messages": [{"content": "Done.", "asAgent": call.member}]}))
        }
    }
}

#[test]
fn the_chairs_plan_names_who_wrote_what_and_counts_what_it_does_not_list() {
    let mut s = Session::new(
        TeamConfig::standard("Write an eighteen-part guide", 3, false, false, demo_ref()),
        0,
    )
    .unwrap();
    let seen = play(&mut s, busy_team, REPLY);
    let plan = seen.user(2, Step::PlanAssign, "chair");
    // Who wrote what in round 1: every version, with its author.
    let written: Vec<_> = s.state().written.iter().filter(|w| w.round == 1).collect();
    assert_eq!(written.len(), 18);
    for w in written {
        let line = format!("- {} of {} ", w.version_id, w.product_id);
        let by = format!(" by {}", w.member);
        assert!(
            plan.lines()
                .any(|l| l.starts_with(&line) && l.ends_with(&by)),
            "the plan does not say that {} wrote {}:\n{plan}",
            w.member,
            w.version_id
        );
    }
    // 45 collabs: each member's on one line, ten named and the rest counted.
    for op in ["operative-1", "operative-2", "operative-3"] {
        let line = plan
            .lines()
            .find(|l| l.starts_with(&format!("- round 1 write: {op} commented ")))
            .unwrap_or_else(|| panic!("no collab line of {op}:\n{plan}"));
        assert!(line.ends_with(" and 5 more"), "{line}");
        assert_eq!(line.matches("Point ").count(), 10, "{line}");
    }
    // Round 3: round 1 is summed up per member, nothing of it dropped silently.
    let later = seen.user(3, Step::PlanAssign, "chair");
    assert!(
        later.contains("- round 1, in counts: chair: 18 assignments, 18 inspections; operative-1: 6 versions, 15 collabs, 12 reviews; operative-2: 6 versions, 15 collabs, 12 reviews; operative-3: 6 versions, 15 collabs, 12 reviews"),
        "{later}"
    );
    let mine: Vec<String> = s
        .state()
        .written
        .iter()
        .filter(|w| w.round == 1 && w.member == "operative-1")
        .map(|w| format!("{} of {}", w.version_id, w.product_id))
        .collect();
    assert!(later.contains(&format!(
        "- round 2 reflect: operative-1 reflected on {}\n",
        mine.join(", ")
    )));
    // Reflect shows five of the six with directive and diff, and names the sixth.
    let reflect = seen.user(2, Step::Reflect, "operative-1");
    assert_eq!(
        reflect.matches("  Last directive: ").count(),
        5,
        "{reflect}"
    );
    let sixth = s
        .state()
        .written
        .iter()
        .filter(|w| w.round == 1 && w.member == "operative-1")
        .nth(5)
        .unwrap();
    assert!(reflect.contains(&format!(
        "- and 1 more (request_context version_history shows a directive and diff): {} ({})\n",
        sixth.product_id, sixth.version_id
    )));
}

#[test]
fn the_message_after_served_context_reads_as_snapshotted() {
    // The scripted team asks no context; the demo model does at some steps.
    let mut s = Session::new(config(2, true, false), 0).unwrap();
    let mut now = 1;
    s.start(now).unwrap();
    let mut follow_up = None;
    for _ in 0..400 {
        now += 1;
        match s.status().clone() {
            Status::Running => {
                for call in s.calls_due() {
                    if call.kind == roundtable_core::engine::CallKind::AfterContext
                        && follow_up.is_none()
                    {
                        follow_up = call.call.messages.last().map(|m| m.content.clone());
                    }
                    let text = s.demo_answer(&call.id).unwrap().text;
                    s.submit(&call.id, &text, None, now).unwrap();
                }
            }
            Status::AwaitingPerson { .. } => s.answer_halt(REPLY, now).unwrap(),
            _ => break,
        }
    }
    let follow_up = follow_up.expect("the demo asked for context at least once");
    insta::assert_snapshot!("context_follow_up", follow_up);
}
