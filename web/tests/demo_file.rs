//! The demo session file shipped in `static/demo/` is exactly what the generator produces from
//! the current core, and it imports back into a finished session.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../examples/demo_session.rs"]
mod demo_session;

use roundtable_core::export;
use roundtable_core::session::Status;

const SHIPPED: &str = include_str!("../../static/demo/demo-session.roundtable.json");

#[test]
fn shipped_demo_file_is_current() {
    assert!(
        demo_session::play() == SHIPPED,
        "static/demo/demo-session.roundtable.json is stale: run \
         `cargo run -p roundtable-web --example demo_session`"
    );
}

#[test]
fn shipped_demo_file_imports_as_a_done_session() {
    let session = export::from_file(SHIPPED).expect("the shipped file imports");
    assert_eq!(*session.status(), Status::Done);
    assert!(
        session.state().tree.walk().len() > 1,
        "the team made products"
    );
    assert!(
        !session.state().presentation.is_empty(),
        "the envoy presented"
    );
}
