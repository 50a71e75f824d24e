//! Team sessions grown through the engine for the benchmarks (`bench_engine`, `bench_prompts`):
//! Bootstrap makes 10 sections (or N content products when N ≤ 10), round 1's PlanAssign adds the
//! other N − 10 parts under them, and every content product gets a version in each of the first
//! five rounds (reviews, collabs, inspections, five acceptances a round). From round 6 on the
//! chair gives each operative two assignments ("small" rounds), which is where prompts are read.
//! Each example uses what it needs, so some items are unused in one of them.
#![allow(dead_code, clippy::disallowed_methods)]

use roundtable_core::engine::{ModelRef, Outcome, Protocol, Status};
use roundtable_core::protocol::team::prompt::Envelope;
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::{TeamConfig, TeamSession as Session, TeamState};
use serde_json::json;

/// A call due, with its envelope.
pub type DueCall = roundtable_core::engine::DueCall;

/// Operatives in every grown session.
pub const OPERATIVES: usize = 4;
/// Top-level sections (when there are more than this many products).
pub const SECTIONS: usize = 10;
/// The first round in which each operative gets only two assignments.
pub const SMALL_FROM: u32 = 6;
/// The mission Bootstrap writes (a fact every prompt after it must carry).
pub const MISSION: &str = "Deliver the workshop plan.";

/// A version's content: a heading and six points.
pub fn content(product: &str, round: u32) -> String {
    let mut s = format!("# {product}, version of round {round}\n\n");
    for i in 0..6 {
        s.push_str(&format!(
            "- Point {i}: the plan for {product} covers the morning block, the facilitator notes and the materials list (revision {round}).\n"
        ));
    }
    s
}

/// The config of a grown session: 4 operatives, an inspector, an envoy when asked.
pub fn config(envoy: bool) -> TeamConfig {
    let mut cfg = TeamConfig::standard(
        "Plan a one-day design workshop for 20 people",
        OPERATIVES,
        true,
        envoy,
        ModelRef {
            provider: "bench".into(),
            model: "bench".into(),
        },
    );
    cfg.settings.max_rounds = 20;
    cfg
}

/// The answer to a call of a session of `n` products in `state`. `small` marks the rounds in
/// which each operative gets two assignments.
pub fn answer(state: &TeamState, call: &DueCall, n: usize, small: bool) -> String {
    let env = call.envelope.get::<Envelope>();
    // The builder reads the state, not the prompt, so what it makes does not depend on what the
    // prompts list.
    let content_products: Vec<_> = state
        .tree
        .walk()
        .into_iter()
        .filter(|(depth, _)| *depth >= 2 || (n <= SECTIONS && *depth == 1))
        .map(|(_, p)| p)
        .collect();
    let v = match TeamState::step_of(call.step) {
        Step::Bootstrap => {
            let sections = if n <= SECTIONS { n } else { SECTIONS };
            let products: Vec<_> = (0..sections)
                .map(|i| json!({"name": format!("Section {i}"), "type": if n <= SECTIONS {"Content"} else {"Collection"}, "dod": "All parts accepted.", "owner": format!("operative-{}", i % OPERATIVES + 1)}))
                .collect();
            json!({"responseType": "final_output", "thinking": {"interpretation": "i", "scopeDecisions": "s"},
                "mission": MISSION, "objectives": "Every part written and accepted.", "constraints": "One day.",
                "personas": {}, "operativeDomains": {}, "initialProducts": products})
        }
        Step::PlanAssign => {
            let mut ops = Vec::new();
            if call.round == 1 && n > SECTIONS {
                for i in 0..(n - SECTIONS) {
                    ops.push(json!({"action": "ADD", "newId": format!("new-{}", i + 1), "parentId": format!("p{}", i % SECTIONS + 1),
                        "product": {"name": format!("Part {i}"), "type": "Content", "dod": "Complete, reviewed, consistent with the agenda.", "description": format!("Part {i} of the plan."), "assignee": format!("operative-{}", i % OPERATIVES + 1)}}));
                }
            }
            let targets: Vec<(String, String)> = if call.round == 1 && n > SECTIONS {
                (0..(n - SECTIONS))
                    .map(|i| {
                        (
                            format!("new-{}", i + 1),
                            format!("operative-{}", i % OPERATIVES + 1),
                        )
                    })
                    .collect()
            } else {
                content_products
                    .iter()
                    .map(|p| {
                        (
                            p.id.clone(),
                            p.assignee
                                .clone()
                                .or(p.owner.clone())
                                .unwrap_or("operative-1".into()),
                        )
                    })
                    .collect()
            };
            let targets: Vec<_> = if small {
                let mut per: std::collections::BTreeMap<String, usize> = Default::default();
                targets
                    .into_iter()
                    .filter(|(_, o)| {
                        let c = per.entry(o.clone()).or_default();
                        *c += 1;
                        *c <= 2
                    })
                    .collect()
            } else {
                targets
            };
            let asg: Vec<_> = targets.iter().map(|(p, o)| json!({"productId": p, "assignee": o,
                "directive": {"objective": format!("Revise {p} for round {}", call.round), "dod": "Complete and consistent.", "why": "The agenda depends on it.", "context": "Keep it short."}})).collect();
            let acc: Vec<_> = env.awaiting_acceptance.iter().take(5).map(|v| json!({"productId": v.product_id, "accepted": true, "versionId": v.version_id})).collect();
            json!({"responseType": "final_output", "thinking": {"roundStrategy": "s", "acceptanceRationale": "r"},
                "treeOperations": ops, "assignments": asg, "acceptance": acc,
                "remarks": [{"recipients": ["team"], "type": "note", "content": format!("Round {} plan.", call.round)}]})
        }
        Step::Write => {
            let versions: Vec<_> = env.assigned_to_you.iter().map(|a| json!({"productId": a.product_id,
                "newVersion": {"contentTitle": a.product_name, "content": content(&a.product_name, call.round), "changeSummary": format!("Round {} revision.", call.round)}})).collect();
            let collabs: Vec<_> = env.assigned_to_you.iter().take(1).filter_map(|a| {
                content_products.iter().find(|p| p.id != a.product_id && p.owner.as_deref() != Some(call.member.as_str()))
                    .map(|p| json!({"refersToProduct": p.id, "type": "suggestion", "importance": 5,
                        "comment": format!("{} should link to {} (round {}).", p.id, a.product_id, call.round), "shortestSummary": "link them"}))
            }).collect();
            json!({"responseType": "final_output", "versions": versions, "collabs": collabs, "remarks": []})
        }
        Step::Reflect => {
            let r: Vec<_> = env.wrote_last_round.iter().take(3).map(|v| json!({"refersToProduct": v.product_id, "dodStatus": "partially_met", "feedbackResponses": [], "nextVersionDelta": "tighten"})).collect();
            json!({"responseType": "final_output", "reflections": r})
        }
        Step::PeerReview => {
            let r: Vec<_> = env.to_review.iter().take(3).map(|v| json!({"productId": v.product_id, "versionId": v.version_id, "assessment": "needs_revision", "summary": format!("Add timings to {} (review by {}).", v.version_id, call.member)})).collect();
            let c: Vec<_> = env.to_review.iter().take(2).map(|v| json!({"refersToProduct": v.product_id, "refersToVersion": v.version_id, "type": "concern", "importance": 6,
                "comment": format!("{} lacks timings ({} review by {}).", v.version_id, call.round, call.member), "shortestSummary": "timings", "addresseeIds": [v.author]})).collect();
            json!({"responseType": "final_output", "reviews": r, "collabs": c})
        }
        Step::Inspection => {
            let r: Vec<_> = env.to_review.iter().take(3).map(|v| json!({"productId": v.product_id, "versionId": v.version_id, "assessment": "approved", "findings": []})).collect();
            json!({"responseType": "final_output", "inspections": r})
        }
        Step::Presentation => {
            json!({"responseType": "final_output", "messages": [{"content": "done", "asAgent": call.member}]})
        }
    };
    v.to_string()
}

/// What to do with the calls due now.
pub enum Flow {
    /// Answer them and go on.
    Go,
    /// Stop before answering them.
    Stop,
}

/// Grows a session of `n` products through the engine, showing `visit` every batch of calls
/// before they are answered, until it says stop or the session ends. The chair halts done at the
/// PlanAssign of round `done_at`, if given, so the presentation follows. Returns the session and
/// the last time stamp used.
pub fn grow(
    n: usize,
    envoy: bool,
    done_at: Option<u32>,
    mut visit: impl FnMut(&Session, &[DueCall]) -> Flow,
) -> (Session, u64) {
    let mut s = Session::new(config(envoy), 0).unwrap();
    s.start(0).unwrap();
    let mut now = 0;
    while s.status() == &Status::Running {
        let calls = s.calls_due();
        if let Flow::Stop = visit(&s, &calls) {
            break;
        }
        for call in calls {
            now += 1;
            let text = if TeamState::step_of(call.step) == Step::PlanAssign
                && Some(call.round) == done_at
            {
                json!({"responseType": "halt", "halt": {"type": "done", "to": ["user-1"], "message": "Every part is written."}}).to_string()
            } else {
                answer(s.state(), &call, n, call.round >= SMALL_FROM)
            };
            let out = s.submit(&call.id, &text, None, now).unwrap();
            assert!(
                matches!(out, Outcome::Applied | Outcome::RoundsEnded),
                "{:?} {:?}",
                call.step,
                out
            );
        }
    }
    (s, now)
}
