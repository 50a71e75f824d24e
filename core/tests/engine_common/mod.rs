//! Shared helpers of the engine tests: a scripted answerer, a demo driver, and the invariants
//! checked after every event.
#![allow(dead_code)]

use std::collections::BTreeSet;

use roundtable_core::engine::StoredCall;
use roundtable_core::engine::Usage;
use roundtable_core::protocol::team::demo::DemoModel;
pub type ModelCall = roundtable_core::engine::DueCall;
use roundtable_core::engine::Protocol;
use roundtable_core::engine::{ModelRef, Outcome, Status};
use roundtable_core::protocol::team::prompt::Envelope;
use roundtable_core::protocol::team::tree::{ProductStatus, ProductTree, ROOT_ID};
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::TeamState;
use roundtable_core::protocol::team::{TeamConfig, TeamSession as Session};
use serde_json::json;

/// A demo model reference.
pub fn demo_ref() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

/// A standard config.
pub fn config(operatives: usize, inspector: bool, envoy: bool) -> TeamConfig {
    TeamConfig::standard(
        "Plan a one-day design workshop for 20 people",
        operatives,
        inspector,
        envoy,
        demo_ref(),
    )
}

/// Structural invariants of the tree: unique ids, every parent exists, no cycle, no live child of
/// a removed parent, every version listed by exactly its product, unique collab ids.
pub fn check_tree(tree: &ProductTree) {
    let products = tree.products();
    let ids: BTreeSet<&str> = products.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), products.len(), "product ids are unique");
    for p in products {
        if p.id == ROOT_ID {
            assert!(p.parent.is_none());
            continue;
        }
        let parent = p.parent.as_deref().expect("non-root has a parent");
        let parent_p = tree.product(parent).expect("parent exists");
        if p.status != ProductStatus::Removed {
            assert_ne!(
                parent_p.status,
                ProductStatus::Removed,
                "{} is an orphan",
                p.id
            );
        }
        // No cycle: climbing reaches the root within len steps.
        let mut cur = p;
        let mut steps = 0;
        while let Some(up) = cur.parent.as_deref() {
            cur = tree.product(up).expect("ancestor exists");
            steps += 1;
            assert!(steps <= products.len(), "cycle above {}", p.id);
        }
        assert_eq!(cur.id, ROOT_ID);
        // Sibling names distinct among live products.
    }
    let live: Vec<_> = tree.walk();
    let mut sibling_names = BTreeSet::new();
    for (_, p) in &live {
        assert!(
            sibling_names.insert((p.parent.clone(), p.name.trim().to_lowercase())),
            "duplicate sibling name {}",
            p.name
        );
    }
    let vids: BTreeSet<&str> = tree.versions().iter().map(|v| v.id.as_str()).collect();
    assert_eq!(vids.len(), tree.versions().len(), "version ids are unique");
    for v in tree.versions() {
        let p = tree
            .product(&v.product_id)
            .expect("version's product exists");
        assert_eq!(
            p.versions.iter().filter(|x| **x == v.id).count(),
            1,
            "{} listed once by {}",
            v.id,
            p.id
        );
    }
    for p in products {
        if let Some(a) = &p.accepted_version {
            assert!(p.versions.contains(a), "{} accepts its own version", p.id);
        }
    }
    let cids: BTreeSet<&str> = tree.collabs().iter().map(|c| c.id.as_str()).collect();
    assert_eq!(cids.len(), tree.collabs().len(), "collab ids are unique");
}

/// Invariants of the whole session after any event.
pub fn check_session(s: &Session) {
    let st = s.state();
    check_tree(&st.tree);
    for (i, e) in s.events().iter().enumerate() {
        assert_eq!(e.seq, i as u64);
    }
    // At most one outstanding call per member, and only for members of the current step.
    let mut seen = BTreeSet::new();
    for slot in &st.core.slots {
        assert!(seen.insert(slot.member.clone()), "one slot per member");
        if let Some(id) = &slot.call_id {
            let rec = st.core.call(id).expect("outstanding call is recorded");
            assert_eq!(rec.call.member, slot.member);
            assert!(rec.raw_answer.is_none());
        }
    }
    // Call ids are call-1.. in order.
    for (i, c) in st.core.calls.iter().enumerate() {
        assert_eq!(c.call.id, format!("call-{}", i + 1));
    }
    // Only the running session has calls to make.
    if st.core.status != Status::Running {
        assert!(s.calls_due().is_empty());
    }
}

/// What the tree looked like before an answer, to check which changes the step allowed.
#[derive(Clone)]
pub struct Before {
    pub tree: ProductTree,
    pub charter: Option<roundtable_core::protocol::team::Charter>,
    pub state: roundtable_core::protocol::team::TeamState,
}

impl Before {
    /// Captures the session before an answer.
    pub fn of(s: &Session) -> Before {
        Before {
            tree: s.state().tree.clone(),
            charter: s.state().charter.clone(),
            state: s.state().clone(),
        }
    }
}

/// Checks that an answer of `call` changed only what its step allows.
pub fn check_allowed(before: &Before, s: &Session, call: &StoredCall, outcome: &Outcome) {
    let after = &s.state().tree;
    match outcome {
        Outcome::Applied => {}
        _ => {
            assert_eq!(
                &before.tree, after,
                "a non-applied answer changes nothing in the tree"
            );
            assert_eq!(before.charter, s.state().charter, "nor the charter");
            return;
        }
    }
    if matches!(
        TeamState::step_of(call.step),
        Step::Bootstrap | Step::PlanAssign
    ) {
        return;
    }
    assert_eq!(
        before.charter,
        s.state().charter,
        "only the chair changes the charter"
    );
    let shape = |t: &ProductTree| {
        t.products()
            .iter()
            .map(|p| {
                (
                    p.id.clone(),
                    p.parent.clone(),
                    p.name.clone(),
                    p.owner.clone(),
                    p.assignee.clone(),
                    p.accepted_version.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        shape(&before.tree),
        shape(after),
        "{:?} does not reshape the tree",
        call.step
    );
    let new_versions = &after.versions()[before.tree.versions().len()..];
    if TeamState::step_of(call.step) == Step::Write {
        let assigned: BTreeSet<&str> = s
            .state()
            .assignments_of_round(call.round)
            .filter(|a| a.assignee == call.member)
            .map(|a| a.product_id.as_str())
            .collect();
        for v in new_versions {
            assert!(
                assigned.contains(v.product_id.as_str()),
                "{} wrote unassigned {}",
                call.member,
                v.product_id
            );
            assert_eq!(v.author, call.member);
        }
    } else {
        assert!(new_versions.is_empty(), "{:?} adds no version", call.step);
    }
}

/// Usage from a demo answer.
pub fn usage(prompt: u64, completion: u64) -> Usage {
    Usage {
        schema_form: None,
        input_tokens: prompt,
        output_tokens: completion,
        stopped_for_length: false,
        cost: None,
    }
}

/// Plays a session on the demo model to the end (or `max_steps`), checking invariants after every
/// submitted answer. Answers halts with the first option (or a fixed text).
pub fn drive_demo(s: &mut Session, seed: u64, max_steps: usize) -> usize {
    let demo = DemoModel::new(seed);
    let mut now = 1_000;
    let mut steps = 0;
    while steps < max_steps {
        steps += 1;
        match s.status().clone() {
            Status::Running => {
                let calls = s.calls_due();
                assert!(
                    !calls.is_empty(),
                    "a running session always has calls to make"
                );
                for call in calls {
                    let a = demo.answer_call(&call);
                    let before = Before::of(s);
                    now += 10;
                    let outcome = s
                        .submit(
                            &call.id,
                            &a.text,
                            Some(usage(a.usage.prompt_tokens, a.usage.completion_tokens)),
                            now,
                        )
                        .expect("outstanding call accepted");
                    check_allowed(&before, s, &call.call, &outcome);
                    check_session(s);
                }
            }
            Status::AwaitingPerson { halt, .. } => {
                now += 10;
                let answer = halt
                    .options()
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "Keep it simple.".into());
                s.answer_halt(&answer, now).unwrap();
                check_session(s);
            }
            _ => break,
        }
    }
    steps
}

/// A scripted answerer: minimal valid answers built from the envelope. Round 1 assigns every
/// product to its owner, round 2 accepts what awaits acceptance, round 3 halts done.
pub fn scripted(call: &ModelCall) -> String {
    let env = call.envelope.get::<Envelope>();
    let v = match TeamState::step_of(call.step) {
        Step::Bootstrap => {
            let ops: Vec<&str> = env
                .members
                .iter()
                .filter(|m| m.team_role == "operative")
                .map(|m| m.id.as_str())
                .collect();
            let domains: serde_json::Map<String, serde_json::Value> = ops
                .iter()
                .map(|o| {
                    (
                        o.to_string(),
                        json!({"responsibility": format!("part of {o}"), "area": "work"}),
                    )
                })
                .collect();
            let products: Vec<_> = ops
                .iter()
                .enumerate()
                .map(|(i, o)| json!({"name": format!("Part {}", i + 1), "type": "Content", "dod": "Written and reviewed.", "owner": o}))
                .collect();
            json!({"responseType": "final_output",
                "thinking": {"interpretation": "A workshop.", "scopeDecisions": "One day."},
                "mission": "Plan the workshop.", "objectives": "A clear agenda.", "constraints": "One day, 20 people.",
                "personas": {"chair": "A calm lead."}, "operativeDomains": domains, "initialProducts": products})
        }
        Step::Reflect => {
            let refl: Vec<_> = env
                .wrote_last_round
                .iter()
                .map(|v| json!({"refersToProduct": v.product_id, "dodStatus": "partially_met", "feedbackResponses": [], "nextVersionDelta": "Tighten the wording."}))
                .collect();
            json!({"responseType": "final_output", "reflections": refl, "collabs": [], "remarks": []})
        }
        Step::PlanAssign => {
            if call.round >= 3 {
                json!({"responseType": "halt", "halt": {"type": "done", "to": ["user-1"], "message": "All parts are accepted."}})
            } else if call.round == 2 {
                let acc: Vec<_> = env
                    .awaiting_acceptance
                    .iter()
                    .map(|v| json!({"productId": v.product_id, "accepted": true, "versionId": v.version_id}))
                    .collect();
                json!({"responseType": "final_output", "thinking": {"roundStrategy": "Accept.", "acceptanceRationale": "Good."},
                    "treeOperations": [], "assignments": [], "acceptance": acc, "remarks": []})
            } else {
                let asg: Vec<_> = env
                    .products
                    .iter()
                    .filter_map(|p| p.owner.as_ref().filter(|o| o.starts_with("operative")).map(|o| (p, o)))
                    .map(|(p, o)| json!({"productId": p.id, "assignee": o, "directive": {"objective": format!("Write {}", p.name), "dod": p.dod, "why": "It is the core of the plan."}}))
                    .collect();
                json!({"responseType": "final_output", "thinking": {"roundStrategy": "Write everything.", "acceptanceRationale": "Nothing yet."},
                    "treeOperations": [], "assignments": asg, "acceptance": [], "remarks": [{"recipients": ["team"], "type": "note", "content": "Go."}]})
            }
        }
        Step::Write => {
            let versions: Vec<_> = env
                .assigned_to_you
                .iter()
                .map(|a| json!({"productId": a.product_id, "newVersion": {"contentTitle": a.product_name, "content": format!("# {}\n\nThe agenda opens with introductions, then two working sessions and a wrap-up.", a.product_name), "changeSummary": "First version."}}))
                .collect();
            json!({"responseType": "final_output", "versions": versions, "collabs": [], "remarks": []})
        }
        Step::PeerReview => {
            let reviews: Vec<_> = env
                .to_review
                .iter()
                .map(|v| json!({"productId": v.product_id, "versionId": v.version_id, "assessment": "approved", "summary": "Fine."}))
                .collect();
            json!({"responseType": "final_output", "reviews": reviews, "collabs": [], "remarks": []})
        }
        Step::Inspection => {
            let ins: Vec<_> = env
                .to_review
                .iter()
                .map(|v| json!({"productId": v.product_id, "versionId": v.version_id, "assessment": "approved", "findings": []}))
                .collect();
            json!({"responseType": "final_output", "inspections": ins, "collabs": [], "remarks": []})
        }
        Step::Presentation => {
            json!({"responseType": "final_output", "messages": [{"content": "Here is the plan.", "asAgent": call.member}]})
        }
    };
    v.to_string()
}

/// Answers every outstanding call with `answer(call)` once; returns the outcomes.
pub fn answer_all(
    s: &mut Session,
    now: &mut u64,
    answer: impl Fn(&ModelCall) -> String,
) -> Vec<Outcome> {
    let mut out = Vec::new();
    for call in s.calls_due() {
        *now += 1;
        out.push(
            s.submit(&call.id, &answer(&call), None, *now)
                .expect("accepted"),
        );
        check_session(s);
    }
    out
}

/// Plays a session with the scripted answerer until it stops running.
pub fn drive_scripted(s: &mut Session, now: &mut u64) {
    for _ in 0..200 {
        if s.status() != &Status::Running {
            return;
        }
        answer_all(s, now, scripted);
    }
}
