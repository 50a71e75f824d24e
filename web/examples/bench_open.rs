//! Times what opening a big session costs natively, part by part: reading the session file
//! (`export::from_file`: parse, checksum, replay), the events as stored (`events_json`), and the
//! replay of the stored events the app does on every open (`Session::replay_stored`).
//!
//! `cargo run --release -p roundtable-web --example bench_open -- file.roundtable.json…`
//! (files from the `big_session` example). Figures in BENCHMARKS.md.

#![allow(clippy::disallowed_methods)] // a native benchmark: reading the clock is its job

use roundtable_core::export;
use roundtable_core::session::Session;
use std::time::Instant;

fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("readable");
        let t = Instant::now();
        let session = export::from_file(&text).expect("a session file");
        let import = t.elapsed();
        let t = Instant::now();
        let stored: Vec<String> = session
            .events_json(0)
            .expect("events")
            .into_iter()
            .map(|(_, j)| j)
            .collect();
        let events = t.elapsed();
        let t = Instant::now();
        let back = Session::replay_stored(&stored).expect("replays");
        let replay = t.elapsed();
        let products = back.as_team().map_or(0, |s| s.state().tree.walk().len());
        println!(
            "{path}: {products} products, {} KB, {} events · from_file {:.0} ms · events_json {:.0} ms · replay_stored {:.0} ms",
            text.len() / 1024,
            stored.len(),
            import.as_secs_f64() * 1000.0,
            events.as_secs_f64() * 1000.0,
            replay.as_secs_f64() * 1000.0
        );
    }
}
