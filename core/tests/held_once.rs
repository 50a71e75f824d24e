//! A long text is held once (issue 10 item 5): a version's content is one allocation in the
//! answer the engine applied (its event), in the tree, and in the prompt views of later calls; a
//! raw answer is one allocation in its `answer_received` event and the call's record. Checked on
//! a whole demo session, and again after it went through a file and was replayed.

mod demo_common;

use std::sync::Arc;

use roundtable_core::engine::EventKind;
use roundtable_core::export;
use roundtable_core::protocol::team::wire::FinalOutput;
use roundtable_core::session::Session;

/// How many contents and raw answers were found shared; panics on one that is a copy.
fn assert_held_once(s: &Session) -> (usize, usize) {
    let team = s.as_team().expect("a team session");
    let state = team.state();
    let (mut contents, mut raws) = (0, 0);
    for event in team.events() {
        match &event.kind {
            EventKind::Applied { output, .. } => {
                if let FinalOutput::Write(w) = output.get::<FinalOutput>() {
                    for v in &w.versions {
                        let in_tree = state
                            .tree
                            .product(&v.product_id)
                            .into_iter()
                            .flat_map(|p| p.versions.iter())
                            .filter_map(|id| state.tree.version(id))
                            .find(|t| *t.content == *v.new_version.content)
                            .expect("the version is in the tree");
                        assert!(
                            Arc::ptr_eq(&in_tree.content, &v.new_version.content),
                            "the content of {} is a copy in the tree",
                            in_tree.id
                        );
                        contents += 1;
                    }
                }
            }
            EventKind::AnswerReceived { call_id, raw, .. } => {
                let record = state
                    .core
                    .calls
                    .iter()
                    .find(|c| &c.call.id == call_id)
                    .expect("the call is recorded");
                let kept = record.raw_answer.as_ref().expect("its answer is kept");
                assert!(
                    Arc::ptr_eq(kept, raw),
                    "the answer to {call_id} is a copy in its record"
                );
                raws += 1;
            }
            _ => {}
        }
    }
    (contents, raws)
}

#[test]
fn a_content_and_a_raw_answer_are_held_once_live_and_after_a_file() {
    let live = demo_common::team(
        "Plan a book swap in the village hall for 40 people with a £50 budget.",
        "The second Saturday of May.",
    );
    let (contents, raws) = assert_held_once(&live);
    assert!(contents >= 6, "{contents} versions checked");
    assert!(raws >= 20, "{raws} answers checked");

    let file = export::to_file(&live, 9);
    let back = export::from_file(&file).expect("the file imports");
    assert_eq!(assert_held_once(&back), (contents, raws));
}
