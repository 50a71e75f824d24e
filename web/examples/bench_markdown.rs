//! How the Markdown renderer's time grows with its input: every pathological input of the
//! renderer's tests (`web/src/markdown/pathological.rs`) at 50,000 and at 200,000 characters,
//! best of nine each, and the ratio. Linear work gives a ratio near 4; a quadratic parser near 16.
//! Caches and the allocator push linear work past 4 at these sizes, and a busy machine scatters
//! single figures: read a high ratio again on an idle machine, and at more sizes, before calling
//! it quadratic.
//!
//! `cargo run --release -p roundtable-web --example bench_markdown`. Figures in BENCHMARKS.md.

#![allow(clippy::disallowed_methods)] // a native benchmark: reading the clock is its job

#[path = "../src/markdown/mod.rs"]
#[allow(dead_code)]
mod markdown;
#[path = "../src/markdown/pathological.rs"]
mod pathological;

use std::time::Instant;

/// The quickest of nine renders of `source`, in seconds.
fn best_of_five(source: &str) -> f64 {
    (0..9)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(markdown::to_safe_html(source));
            started.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let small = pathological::pathological_inputs(50_000);
    let large = pathological::pathological_inputs(200_000);
    println!("| input | 50k chars (ms) | 200k chars (ms) | ratio |");
    println!("| --- | ---: | ---: | ---: |");
    let mut worst: Option<(&str, f64)> = None;
    for ((name, a), (_, b)) in small.iter().zip(&large) {
        let (ta, tb) = (best_of_five(a), best_of_five(b));
        let ratio = tb / ta;
        println!(
            "| {name} | {:.3} | {:.3} | {ratio:.1} |",
            ta * 1e3,
            tb * 1e3
        );
        if worst.is_none_or(|(_, w)| ratio > w) {
            worst = Some((name, ratio));
        }
    }
    if let Some((name, ratio)) = worst {
        println!("worst ratio: {ratio:.1} ({name}); linear ≈ 4, quadratic ≈ 16");
    }
}
