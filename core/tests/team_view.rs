//! What the team's pages show is decided by core: which remarks are the person's, which of the
//! person's actions a version offers, and that an incomplete charter is refused by the edit
//! itself (not only by a form).

mod demo_common;

use roundtable_core::protocol::team::prompt::RemarkView;
use roundtable_core::protocol::team::{check_edit, Charter, PersonEdit};

#[test]
fn a_version_offers_accept_unless_accepted_and_reject_only_when_latest() {
    let session = demo_common::team("Plan a one-day workshop for 20 people.", "Go ahead.");
    let team = session.as_team().expect("a team");
    let state = team.state();
    let mut seen_accepted = false;
    let mut seen_older = false;
    for (_, p) in state.tree.walk() {
        for v in &p.versions {
            let actions = state.version_actions(&p.id, v);
            let latest = p.latest_version() == Some(v.as_str());
            assert_eq!(
                actions.reject, latest,
                "{} {v}: reject only the latest",
                p.id
            );
            if p.accepted_version.as_deref() == Some(v.as_str()) {
                seen_accepted = true;
                assert!(
                    !actions.accept,
                    "{} {v}: the accepted one is not offered",
                    p.id
                );
            }
            seen_older |= !latest;
        }
    }
    assert!(
        seen_accepted && seen_older,
        "the demo session has both cases"
    );
    let none = state.version_actions("p999", "v1");
    assert!(
        !none.accept && !none.reject,
        "nothing for an unknown product"
    );
}

#[test]
fn the_persons_remarks_are_those_addressed_to_them() {
    let session = demo_common::team("Plan a one-day workshop for 20 people.", "Go ahead.");
    let mut state = session.as_team().expect("a team").state().clone();
    let remark = |to: &str| RemarkView {
        round: 1,
        from: "chair".into(),
        recipients: vec![to.into()],
        remark_type: "note".into(),
        content: format!("to {to}"),
    };
    state.remarks = vec![remark("user-1"), remark("operative-1"), remark("u:all")];
    let mine: Vec<_> = state
        .remarks_to_person()
        .into_iter()
        .map(|r| r.content.as_str())
        .collect();
    assert_eq!(mine, ["to user-1", "to u:all"]);
}

#[test]
fn an_incomplete_charter_is_refused_by_the_edit() {
    let session = demo_common::team("Plan a one-day workshop for 20 people.", "Go ahead.");
    let state = session.as_team().expect("a team").state();
    let charter = Charter {
        mission: "Run a good workshop".into(),
        objectives: " ".into(),
        constraints: "One day".into(),
    };
    let refused = check_edit(state, &PersonEdit::Charter { charter }).unwrap_err();
    assert!(refused.contains("none may be empty"), "{refused}");
}
