//! How `submit` grows with the number of siblings: the chair's PlanAssign adds N products under
//! the root in one answer (N = 1,000 / 2,000 / 5,000), measured through the whole engine
//! (validate, the team's checks, the all-or-nothing tree apply, the record). Linear growth keeps
//! the time per ADD flat; the script prints it and the ratio of the largest to the smallest.
//!
//! Run: `cargo run --release -p roundtable-core --example bench_siblings`
#![allow(clippy::disallowed_methods, missing_docs)]

use std::time::Instant;

use roundtable_core::engine::Protocol;
use roundtable_core::engine::{ModelRef, Outcome};
use roundtable_core::protocol::team::{TeamConfig, TeamSession, TeamState};
use serde_json::json;

fn bootstrap(s: &mut TeamSession, now: &mut u64) {
    let call = s.calls_due().into_iter().next().expect("Bootstrap is due");
    let answer = json!({
        "responseType": "final_output",
        "thinking": {"interpretation": "A big catalogue.", "scopeDecisions": "Everything."},
        "mission": "Write the catalogue.", "objectives": "Every entry.", "constraints": "None.",
        "personas": {}, "operativeDomains": {},
        "initialProducts": []
    });
    *now += 1;
    s.submit(&call.id, &answer.to_string(), None, *now).unwrap();
}

fn plan_with_adds(n: usize) -> String {
    let ops: Vec<_> = (1..=n)
        .map(|i| {
            json!({"action": "ADD", "newId": format!("new-{i}"), "parentId": "p0",
                   "product": {"name": format!("Entry {i}"), "type": "Content",
                               "dod": "One paragraph that describes the entry."},
                   "reason": "Part of the catalogue."})
        })
        .collect();
    json!({
        "responseType": "final_output",
        "thinking": {"roundStrategy": "Lay out the catalogue.", "acceptanceRationale": "Nothing yet."},
        "treeOperations": ops, "assignments": [], "acceptance": [], "remarks": []
    })
    .to_string()
}

fn main() {
    let model = ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    };
    let mut rows = Vec::new();
    for n in [1_000usize, 2_000, 5_000] {
        let config = TeamConfig::standard("A catalogue.", 1, false, false, model.clone());
        let mut best = f64::MAX;
        for _ in 0..3 {
            let mut s = TeamSession::new(config.clone(), 0).unwrap();
            let mut now = 1;
            s.start(now).unwrap();
            bootstrap(&mut s, &mut now);
            let call = s.calls_due().into_iter().next().expect("PlanAssign is due");
            assert_eq!(
                TeamState::step_name(TeamState::step_of(call.step)),
                "plan_assign"
            );
            let text = plan_with_adds(n);
            let t = Instant::now();
            let out = s.submit(&call.id, &text, None, now + 1).unwrap();
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(out, Outcome::Applied, "{n} ADDs apply");
            assert_eq!(s.state().tree.products().len(), n + 1);
        }
        println!(
            "{n:>5} ADDs: submit {best:>8.1} ms, {:.1} µs per ADD",
            best * 1000.0 / n as f64
        );
        rows.push((n, best));
    }
    let per = |(n, ms): (usize, f64)| ms / n as f64;
    println!(
        "time per ADD at 5,000 / at 1,000: {:.2} (1.0 = linear)",
        per(rows[2]) / per(rows[0])
    );
}
