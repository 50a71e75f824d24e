//! Writes a session file with 1,000 products, for the web budget "a 1,000-product session opens
//! in ≤ 1 s and its tree scrolls": a chair's Bootstrap answer creates the products, then the
//! session is paused. Driven through the real engine, so the file imports like any other.
//!
//! `cargo run -p roundtable-web --example big_session -- tests/output/big-1000.roundtable.json [products]`

use roundtable_core::engine::ModelRef;
use roundtable_core::export;
use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::session::Session;
use serde_json::json;

/// How many products the Bootstrap creates, unless the second argument says.
pub const PRODUCTS: usize = 1000;

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/output/big-1000.roundtable.json".into());
    let count: usize = std::env::args()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(PRODUCTS);
    let config = TeamConfig::standard(
        "Catalogue every component of a large municipal infrastructure plan.",
        3,
        true,
        false,
        ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        },
    );
    let t0 = 1_767_603_600_000u64;
    let mut s = Session::new_team(config, t0).expect("valid team");
    s.start(t0 + 1).expect("starts");
    let call = s.next_calls().remove(0);
    let products: Vec<_> = (1..=count)
        .map(|i| {
            json!({
                "name": format!("Component {i:04}: section {} item {}", i / 50 + 1, i % 50 + 1),
                "type": if i % 7 == 0 { "Decision" } else { "Content" },
                "dod": format!("Component {i} is described, costed and checked."),
                "owner": format!("operative-{}", i % 3 + 1),
            })
        })
        .collect();
    let answer = json!({
        "responseType": "final_output",
        "thinking": { "interpretation": "A very large catalogue.", "scopeDecisions": "One product per component." },
        "mission": "Catalogue every component of the plan.",
        "objectives": "A complete, costed catalogue.",
        "constraints": "Public sources only.",
        "personas": {},
        "operativeDomains": {},
        "initialProducts": products,
    });
    let outcome = s
        .submit(&call.id, &answer.to_string(), None, t0 + 2)
        .expect("the bootstrap answer is taken");
    let products = |s: &Session| s.as_team().map_or(0, |t| t.state().tree.walk().len());
    assert!(
        products(&s) > count,
        "bootstrap created the products: {outcome:?}"
    );
    if s.is_running() {
        s.pause(t0 + 3).expect("pauses");
    }
    std::fs::write(&out, export::to_file(&s, t0 + 4)).expect("writable");
    println!("wrote {out} with {} products", products(&s));
}
