//! The demo session file shipped in `static/demo/` is exactly what the generator produces from
//! the current core, and it imports back into a finished session.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../examples/demo_session.rs"]
mod demo_session;

use roundtable_core::export;

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
    assert_eq!(session.status_word(), "done");
    let team = session.as_team().expect("a team session").state();
    assert!(team.tree.walk().len() > 1, "the team made products");
    assert!(!team.presentation.is_empty(), "the envoy presented");
}

#[test]
fn shipped_demo_session_agrees_with_itself_from_title_to_charter() {
    let session = export::from_file(SHIPPED).expect("the shipped file imports");
    let title = session.title();
    assert!(
        title.contains("two-day") && title.contains("twelve people"),
        "{title}"
    );
    let team = session.as_team().expect("a team session").state();
    let charter = format!("{:?}", team.charter);
    for must in ["two-day workshop", "twelve people"] {
        assert!(
            charter.contains(must),
            "the charter lacks {must}: {charter}"
        );
    }
    for never in ["Half a day", "20 participants", "half a day"] {
        assert!(
            !charter.contains(never),
            "the charter says {never}: {charter}"
        );
    }
}
