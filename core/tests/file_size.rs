//! What a session file costs per call: every fact once (issue 8: at most 9 KB per call,
//! pretty-printed, on the 6-operative demo session). A deterministic figure, so a test.

use roundtable_core::demo::{self, DemoModel};
use roundtable_core::engine::ModelRef;
use roundtable_core::export;
use roundtable_core::protocol::team::{SessionConfig, TeamSession};
use roundtable_core::session::Session;

fn per_call(operatives: usize, seed: u64) -> (usize, usize) {
    let model = ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    };
    let config = SessionConfig::standard(
        "Plan a two-day workshop for twelve people on customer interviews; budget £2,000.",
        operatives,
        true,
        true,
        model,
    );
    let mut s = TeamSession::new(config, 0).unwrap();
    let mut now = 1;
    demo::play(&mut s, &DemoModel::new(seed), &mut now, 1000).unwrap();
    let calls = s.state().core.calls.len();
    let text = export::to_file(&Session::Team(s), now);
    (text.len() / calls, calls)
}

#[test]
fn a_session_file_stores_each_fact_once() {
    for seed in [1, 2, 3] {
        let (bytes, calls) = per_call(6, seed);
        println!("6 operatives, seed {seed}: {calls} calls, {bytes} bytes per call");
    }
}
