//! Native micro-benchmark of the validator on the ~20 KB PlanAssign fixture, valid and invalid.
//!
//! `cargo run --release -p roundtable-core --example bench_validate` prints µs per call for the
//! verdict only (`check_step`, what the JS API's fast path runs), the typed value
//! (`validate_step`), and `serde_json::from_str::<Value>` alone as a yardstick. Not a test: the
//! numbers depend on the machine. The WASM comparison with JSON.parse + ajv lives in the Node
//! benchmark. `bench_validate file PATH [step]` times one answer; with `BENCH_LONG=1` it loops long
//! enough for `perf record`.
#![allow(clippy::disallowed_methods)] // A benchmark reads the clock; the core never does.

use std::hint::black_box;
use std::time::Instant;

use roundtable_core::protocol::team::check::{check_step, validate_step, Known};
use roundtable_core::protocol::team::wire::Step;

const VALID: &str = include_str!("../tests/fixtures/plan_assign/valid/large_20k.json");
const INVALID: &str = include_str!("../tests/fixtures/plan_assign/invalid/large_20k_invalid.json");
const FENCED: &str = include_str!("../tests/fixtures/plan_assign/valid/fenced.txt");
const KNOWN: &str = include_str!("../tests/fixtures/known.json");

/// Runs `f` until about `budget_ms` have passed; returns µs per call (best of 5 rounds).
fn time(budget_ms: u64, mut f: impl FnMut()) -> f64 {
    let mut iters = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..iters {
            f();
        }
        if start.elapsed().as_millis() as u64 >= budget_ms / 10 {
            break;
        }
        iters *= 2;
    }
    (0..5)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..iters {
                f();
            }
            start.elapsed().as_secs_f64() * 1e6 / iters as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let known: Known = serde_json::from_str(KNOWN).expect("known.json");
    // `bench_validate loop N`: only the verdict on the valid 20 KB answer, N times, for
    // `perf stat -e cycles:u,instructions:u` (steadier than wall time on a busy machine).
    let args: Vec<String> = std::env::args().collect();
    // `bench_validate file PATH [step]`: µs per verdict on any answer (e.g. one of the Node corpus).
    if args.get(1).map(String::as_str) == Some("file") {
        let text = std::fs::read_to_string(&args[2]).expect("readable file");
        let step = args
            .get(3)
            .and_then(|s| Step::from_wire_name(s))
            .unwrap_or(Step::PlanAssign);
        let n = if std::env::var_os("BENCH_LONG").is_some() {
            200_000
        } else {
            1000
        };
        let us = time(n, || {
            black_box(check_step(step, black_box(&text), None));
        });
        println!("{} bytes: check_step {us:.2} µs", text.len());
        return;
    }
    if args.get(1).map(String::as_str) == Some("loop") {
        let n: u64 = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(10_000);
        for _ in 0..n {
            black_box(check_step(Step::PlanAssign, black_box(VALID), None));
        }
        return;
    }
    let with_new_fenced = format!("Here is the plan.\n{FENCED}\n");
    let trailing = VALID.replacen("\"remarks\": [", "\"remarks\": [ // notes\n", 1);
    let cases: [(&str, &str); 4] = [
        ("valid 20 KB", VALID),
        ("invalid 20 KB (3 errors)", INVALID),
        ("valid, fenced + prose", &with_new_fenced),
        ("valid 20 KB + a comment (copy)", &trailing),
    ];
    println!("PlanAssign, {} bytes (native, release)", VALID.len());
    for (name, text) in cases {
        assert_eq!(
            check_step(Step::PlanAssign, text, Some(&known)).is_ok(),
            !name.starts_with("invalid"),
            "{name}"
        );
        let shape = time(400, || {
            black_box(check_step(Step::PlanAssign, black_box(text), None));
        });
        let refs = time(400, || {
            black_box(check_step(Step::PlanAssign, black_box(text), Some(&known)));
        });
        let typed = time(400, || {
            let _ = black_box(validate_step(
                Step::PlanAssign,
                black_box(text),
                Some(&known),
            ));
        });
        println!(
            "{name:32} check_step: {shape:6.2} µs (shape) {refs:6.2} µs (+ids)   validate_step: {typed:6.2} µs"
        );
    }
    let value = time(400, || {
        black_box(serde_json::from_str::<serde_json::Value>(black_box(VALID)).unwrap());
    });
    println!(
        "{:32} serde_json::Value parse alone: {value:6.2} µs",
        "yardstick"
    );
    let quotes = time(400, || {
        black_box(black_box(VALID).bytes().filter(|&b| b == b'"').count());
    });
    println!(
        "{:32} one byte loop counting quotes: {quotes:6.2} µs (calibrates the machine)",
        "floor"
    );
}
