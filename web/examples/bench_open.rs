//! Times what opening a big session costs natively, part by part: reading the session file
//! (`export::from_file` by its three stages: `check_file`, `read`, `replay`), the events as stored (`events_json`), and the
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
        let checked = export::check_file(&text).expect("a session file");
        let check = t.elapsed();
        let t = Instant::now();
        let read = checked.read().expect("its events");
        let parse = t.elapsed();
        let t = Instant::now();
        let session = read.replay().expect("it replays");
        let replayed = t.elapsed();
        let import = check + parse + replayed;
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
            "{path}: {products} products, {} KB, {} events · from_file {:.0} ms (check_file {:.0}, read {:.0}, replay {:.0}) · events_json {:.0} ms · replay_stored {:.0} ms",
            text.len() / 1024,
            stored.len(),
            import.as_secs_f64() * 1000.0,
            check.as_secs_f64() * 1000.0,
            parse.as_secs_f64() * 1000.0,
            replayed.as_secs_f64() * 1000.0,
            events.as_secs_f64() * 1000.0,
            replay.as_secs_f64() * 1000.0
        );
    }
}
