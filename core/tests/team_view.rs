//! What the team's pages show is decided by core: which remarks are the person's, which of the
//! person's actions a version offers, that an incomplete charter is refused by the edit itself
//! (not only by a form), the tree's rows with what is folded, each product's panel, the overview;
//! and the pages reach a kind only through its view model ([`Session::kind_view`]).

mod demo_common;

use std::collections::HashSet;

use roundtable_core::protocol::dialectic::{DialecticConfig, DialecticState};
use roundtable_core::protocol::meeting::MeetingState;
use roundtable_core::protocol::team::prompt::RemarkView;
use roundtable_core::protocol::team::view::TeamView;
use roundtable_core::protocol::team::{check_edit, Charter, PersonEdit, TeamState};
use roundtable_core::session::{KindView, Session};

fn demo_team() -> Session {
    demo_common::team("Plan a one-day workshop for 20 people.", "Go ahead.")
}

fn view(session: &Session) -> TeamView<'_> {
    session.kind_view::<TeamState>().expect("a team")
}

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

#[test]
fn the_remarks_panel_lists_the_persons_remarks_newest_first() {
    let session = demo_team();
    let mut state = session.as_team().expect("a team").state().clone();
    let remark = |to: &str, n: u32| RemarkView {
        round: n,
        from: "chair".into(),
        recipients: vec![to.into()],
        remark_type: "note".into(),
        content: format!("{n}"),
    };
    state.remarks = vec![remark("user-1", 1), remark("chair", 2), remark("person", 3)];
    let shown: Vec<_> = state
        .kind_view()
        .remarks()
        .into_iter()
        .map(|r| r.content)
        .collect();
    assert_eq!(shown, ["3", "1"]);
}

#[test]
fn the_charter_editor_starts_from_the_charter_or_empty_fields() {
    let session = demo_team();
    let mut state = session.as_team().expect("a team").state().clone();
    let written = state
        .charter
        .clone()
        .expect("the demo chair wrote a charter");
    assert_eq!(state.kind_view().charter(), Some(written.clone()));
    assert_eq!(state.kind_view().charter_draft(), written);
    state.charter = None;
    assert_eq!(state.kind_view().charter(), None);
    assert_eq!(state.kind_view().charter_draft(), Charter::default());
}

#[test]
fn tree_rows_are_the_live_products_in_order_and_a_folded_product_hides_what_is_below() {
    let session = demo_team();
    let state = session.as_team().expect("a team").state();
    let walk = state.tree.walk();
    let rows = view(&session).tree_rows(&HashSet::new());
    assert_eq!(rows.len(), walk.len());
    assert_eq!(view(&session).product_count(), walk.len());
    for (i, (row, (depth, p))) in rows.iter().zip(&walk).enumerate() {
        assert_eq!((&row.id, row.depth), (&p.id, *depth));
        assert_eq!(row.status, p.status.word());
        let below = walk.get(i + 1).is_some_and(|(d, _)| d > depth);
        assert_eq!(row.has_children, below, "{}", p.id);
        // The row's title in a person's words: type, status, and who works on it by name (no
        // product or member id).
        assert!(
            row.title.starts_with(&format!("{} · ", row.type_word)),
            "{}",
            row.title
        );
        assert!(!row.title.contains(&p.id), "{}", row.title);
        if let Some(who) = p.assignee.as_ref().or(p.owner.as_ref()) {
            let name = &state.member(who).expect("a member").name;
            assert!(row.title.ends_with(&format!(" · {name}")), "{}", row.title);
        }
        assert!(!row.title.contains('_'), "status in words: {}", row.title);
    }
    // Fold the deepest product with children: its descendants go, nothing else.
    let (at, parent) = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.has_children)
        .max_by_key(|(_, r)| r.depth)
        .expect("the demo tree has a product with children");
    let hidden = rows[at + 1..]
        .iter()
        .take_while(|r| r.depth > parent.depth)
        .count();
    assert!(hidden > 0);
    let folded = view(&session).tree_rows(&HashSet::from([parent.id.clone()]));
    assert_eq!(folded.len(), rows.len() - hidden);
    assert_eq!(folded[at], *parent, "the folded product stays");
    assert_eq!(folded[at + 1..], rows[at + 1 + hidden..]);
}

#[test]
fn a_product_panel_shows_the_accepted_version_else_the_latest_with_cores_actions() {
    let session = demo_team();
    let state = session.as_team().expect("a team").state();
    let mut seen_accepted = false;
    let mut seen_threads = false;
    for (_, p) in state.tree.walk() {
        let panel = view(&session).product(&p.id).expect("a panel");
        let ids: Vec<_> = panel.versions.iter().map(|v| v.id.as_str()).collect();
        assert_eq!(ids, p.versions);
        for (i, v) in panel.versions.iter().enumerate() {
            assert_eq!(v.number, i + 1);
        }
        let shown = panel.shown.map(|i| panel.versions[i].id.as_str());
        assert_eq!(shown, p.selected_version(), "{}", p.id);
        assert_eq!(
            panel.shown_accepted,
            p.accepted_version.is_some(),
            "{}",
            p.id
        );
        seen_accepted |= panel.shown_accepted;
        let actions = shown
            .map(|v| state.version_actions(&p.id, v))
            .unwrap_or_default();
        assert_eq!(panel.actions, actions, "{}", p.id);
        if panel.shown_accepted {
            assert!(!panel.actions.accept, "the accepted version is not offered");
        }
        // Every collab on the product is in exactly one place of its threads, or several when
        // it answers several roots.
        let on: Vec<_> = state.tree.collabs_on(&p.id).collect();
        assert_eq!(panel.collab_count, on.len());
        for c in &on {
            let placed = panel
                .threads
                .iter()
                .filter(|t| t.root.id == c.id || t.replies.iter().any(|r| r.id == c.id))
                .count();
            assert!(placed >= 1, "{} is shown", c.id);
        }
        for t in &panel.threads {
            for r in &t.replies {
                let reply = on.iter().find(|c| c.id == r.id).expect("a collab");
                assert!(reply.responding_to.contains(&t.root.id));
            }
        }
        seen_threads |= !panel.threads.is_empty();
    }
    assert!(seen_accepted && seen_threads, "the demo session has both");
    assert!(view(&session).product("p999").is_none());
}

#[test]
fn the_overview_lists_the_request_the_team_and_what_is_missing() {
    let session = demo_team();
    let state = session.as_team().expect("a team").state();
    let o = view(&session).overview();
    assert_eq!(o.request, state.request);
    assert_eq!(o.team_heading, format!("Team: {}", state.team_name));
    assert_eq!(o.members.len(), state.members.len());
    // The demo team shares one model: said once, by its name, on no row.
    assert_eq!(o.model.as_deref(), Some("demo model"));
    for (row, m) in o.members.iter().zip(&state.members) {
        assert_eq!((&row.id, row.team_role), (&m.id, m.team_role.word()));
        assert_eq!(row.model, None);
    }
    assert_eq!(o.missing_details, state.missing_details);
    assert_eq!(o.presentation.len(), state.presentation.len());
}

#[test]
fn a_kinds_view_and_edits_are_reached_only_for_a_session_of_that_kind() {
    let mut team = demo_team();
    assert!(team.kind_view::<TeamState>().is_some());
    assert!(team.kind_view::<MeetingState>().is_none());
    assert!(team.kind_view::<DialecticState>().is_none());
    let meeting = demo_common::meeting("Pick a venue.", None);
    assert!(meeting.kind_view::<MeetingState>().is_some());
    assert!(meeting.kind_view::<TeamState>().is_none());
    let remark = roundtable_core::protocol::meeting::MeetingEdit::Remark {
        content: "hello".into(),
    };
    let refused = team.edit_kind::<MeetingState>(remark, 1).unwrap_err();
    assert!(refused.to_string().contains("not a meeting"), "{refused}");
}

#[test]
fn only_a_dialectic_has_a_document_of_its_own_named_as_002_names_it() {
    assert_eq!(demo_team().kind_document(), None);
    let config = DialecticConfig::demos(demo_common::demo_ref())
        .into_iter()
        .next()
        .expect("a demo dialectic");
    let dialectic = Session::create::<DialecticState>(config, 0).expect("a dialectic");
    let (name, text) = dialectic.kind_document().expect("a document");
    assert!(
        ["dialectical_workflow", "dialectical_single_shot"].contains(&name),
        "{name}"
    );
    let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert!(doc.is_object());
}
