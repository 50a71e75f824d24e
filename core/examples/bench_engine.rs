//! Engine benchmarks: overhead per step and prompt size, on sessions of 10, 100 and 1,000 products
//! with 5 versions each.
//!
//! Run: `cargo run --release -p roundtable-core --example bench_engine`
//!
//! For each size it builds a real session through the engine (`bench_common::grow`: Bootstrap, then
//! five rounds in which every product gets a version, with reviews, collabs and inspections), then,
//! in round 6, measures:
//! - context: building the envelope and rendering the prompt of one operative's Write call;
//! - validate: `validate_step` of that operative's Write answer (two versions and a collab);
//! - submit: the whole `Session::submit` of that answer (validate + engine checks + apply + record);
//! - submit of the chair's PlanAssign (tree operations, assignments, acceptance);
//! - prompt tokens of the operative's Write prompt against a full JSON dump of the tree;
//! - with `--profile-submit`: 300 more of operative-1's Write submits at 1,000 products, each as
//!   measured (on a clone, after operative-2's), inside `measured_submit` for a profiler;
//! - with `--history`: the history slider on the 1,000-product session — one step forward or
//!   back ([`History::at`] plus the view and timeline a page renders), against replaying from
//!   zero each step.
#![allow(clippy::disallowed_methods, missing_docs)]

use std::time::Instant;

mod bench_common;

use bench_common::{answer, Flow};
use roundtable_core::engine::estimate_tokens;
use roundtable_core::engine::Protocol as _;
use roundtable_core::history::History;
use roundtable_core::protocol::team::check::validate_step;
use roundtable_core::protocol::team::prompt::Envelope;
use roundtable_core::protocol::team::prompt::{build_envelope, render_prompt};
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::TeamState;

/// The submit the table measures, as a frame of its own for a profiler (`--profile-submit`).
#[inline(never)]
fn measured_submit(
    s: &mut roundtable_core::protocol::team::TeamSession,
    call_id: &str,
    raw: &str,
    now: u64,
) {
    s.submit(call_id, raw, None, now).unwrap();
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut xs = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        std::hint::black_box(f());
        xs.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    median(xs)
}

fn main() {
    println!("| products | versions | envelope (ms) | prompt render (ms) | known ids (ms) | validate (ms) | submit Write (ms) | per Write call total (ms) | submit PlanAssign + issue Write calls (ms) | Write prompt tokens | full dump tokens | ratio |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in [10usize, 100, 1000] {
        // Build: bootstrap + 5 full rounds, up to round 6's Write (the shared builder).
        let mut plan_session = None;
        let (s, now) = bench_common::grow(n, false, None, |s, calls| {
            let call = &calls[0];
            if call.round == 6 && TeamState::step_of(call.step) == Step::PlanAssign {
                plan_session = Some(s.clone());
            }
            if call.round == 6 && TeamState::step_of(call.step) == Step::Write {
                Flow::Stop
            } else {
                Flow::Go
            }
        });
        let st = s.state();
        let products = st.tree.walk().len();
        let versions = st.tree.versions().len();

        // Context for operative-1's Write call.
        if n == 1000 && std::env::args().any(|a| a == "--profile-envelope") {
            for _ in 0..3000 {
                std::hint::black_box(render_prompt(&build_envelope(
                    st,
                    "operative-1",
                    Step::Write,
                )));
            }
        }
        let build_ms = time(30, || build_envelope(st, "operative-1", Step::Write));
        let env = build_envelope(st, "operative-1", Step::Write);
        let render_ms = time(30, || render_prompt(&env));
        let call = s
            .calls_due()
            .into_iter()
            .find(|c| c.member == "operative-1")
            .unwrap();
        let raw = answer(s.state(), &call, n, true);
        let known_ms = time(20, || st.known());
        let known = st.known();
        let val_ms = time(30, || {
            validate_step(Step::Write, &raw, Some(&known)).unwrap()
        });
        // Measured after another operative's versions landed, so the known ids are rebuilt (the
        // usual case inside a Write step), not served from the cache.
        let other = s
            .calls_due()
            .into_iter()
            .find(|c| c.member == "operative-2")
            .unwrap();
        let other_raw = answer(s.state(), &other, n, true);
        let mut subs = Vec::new();
        for _ in 0..30 {
            let mut c = s.clone();
            c.submit(&other.id, &other_raw, None, now + 1).unwrap();
            let t = Instant::now();
            c.submit(&call.id, &raw, None, now + 2).unwrap();
            subs.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let submit_ms = median(subs);
        if n == 1000 && std::env::args().any(|a| a == "--profile-submit") {
            for _ in 0..300 {
                let mut c = s.clone();
                c.submit(&other.id, &other_raw, None, now + 1).unwrap();
                measured_submit(&mut c, &call.id, &raw, now + 2);
            }
        }
        let plan = plan_session.unwrap();
        let pcall = plan.calls_due().pop().unwrap();
        let praw = answer(plan.state(), &pcall, n, true);
        let mut subs = Vec::new();
        for _ in 0..10 {
            let mut c = plan.clone();
            let t = Instant::now();
            c.submit(&pcall.id, &praw, None, now + 1).unwrap();
            subs.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let plan_ms = median(subs);

        // Prompt tokens vs a full dump of the tree.
        let prompt_tokens = call.token_estimate;
        let dump = serde_json::to_string(&st.tree).unwrap();
        let dump_tokens = estimate_tokens(&dump);
        let user = &call.messages[1].content;
        for a in &call.envelope.get::<Envelope>().assigned_to_you {
            assert!(user.contains(&a.directive.objective), "directive present");
            assert!(
                user.contains(&format!("- {} \"{}\"", a.product_id, a.product_name)),
                "own product present"
            );
        }
        assert!(
            user.contains("Mission charter:\n- Mission: Deliver the workshop plan."),
            "charter present"
        );
        assert!(
            !call.envelope.get::<Envelope>().collabs_received.is_empty()
                && user.contains("Collabs received:"),
            "received collabs present"
        );
        if n == 1000 && std::env::args().any(|a| a == "--history") {
            history_steps(roundtable_core::session::Session::of_kind(s.clone()));
        }
        println!(
            "| {products} | {versions} | {build_ms:.3} | {render_ms:.3} | {known_ms:.3} | {val_ms:.3} | {submit_ms:.3} | {:.3} | {plan_ms:.3} | {prompt_tokens} | {dump_tokens} | {:.3} |",
            build_ms + render_ms + submit_ms,
            prompt_tokens as f64 / dump_tokens as f64
        );
    }
}

/// Steps the history slider through a session: every event forward, every event back, and 300
/// jumps, each step the point's state plus what a page renders of it (the view and the
/// timeline); then the same with a replay from zero per step. Prints the median, p95 and worst.
fn history_steps(session: roundtable_core::session::Session) {
    let n = session.event_count();
    let facts = roundtable_core::live::RunFacts::default();
    let render = |s: &roundtable_core::session::Session| {
        std::hint::black_box((s.view(), s.timeline(&facts)));
    };
    let report = |what: &str, mut ms: Vec<f64>| {
        ms.sort_by(f64::total_cmp);
        let p = |q: f64| ms[((ms.len() - 1) as f64 * q) as usize];
        eprintln!(
            "history, {n} events, {what}: {} steps, median {:.2} ms, p95 {:.2} ms, worst {:.2} ms",
            ms.len(),
            p(0.5),
            p(0.95),
            p(1.0)
        );
    };
    for every in [32usize, 128] {
        let mut h = History::new(&session, every).unwrap();
        let mut step = |k: usize| {
            let t = Instant::now();
            render(h.at(&session, k).unwrap());
            t.elapsed().as_secs_f64() * 1000.0
        };
        let forward: Vec<f64> = (1..=n).map(&mut step).collect();
        let back: Vec<f64> = (1..=n).rev().map(&mut step).collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let jumps: Vec<f64> = (0..300)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                step(1 + (x % n as u64) as usize)
            })
            .collect();
        report(&format!("marks every {every}, forward"), forward);
        report(&format!("marks every {every}, back"), back);
        report(&format!("marks every {every}, jumps"), jumps);
    }
    let zero: Vec<f64> = (1..=n)
        .rev()
        .step_by((n / 60).max(1))
        .map(|k| {
            let t = Instant::now();
            render(&session.rewound(k).unwrap());
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    report("replay from zero each step (sampled)", zero);
}
