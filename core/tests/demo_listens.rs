//! The demo model listens, for both kinds: what the person asked (its nouns and figures) is in
//! every product, what they settled is no longer an open point, nothing they said is quoted cut
//! off mid-sentence without an ellipsis, and two different requests give different products.

mod demo_common;

use demo_common::team;
use roundtable_core::session::Session;

const BOOK_SWAP: &str = "Plan a book swap in the village hall for 40 people with a £50 budget.";
const ANSWER: &str =
    "Saturday 14 June from 2 pm, the village hall, no budget beyond £50 for tea and snacks.";

/// Every product version's text.
fn versions(s: &Session) -> Vec<String> {
    let team = s.as_team().unwrap().state();
    team.tree
        .walk()
        .into_iter()
        .flat_map(|(_, p)| p.versions.clone())
        .filter_map(|v| team.tree.version(&v).map(|v| v.content.to_string()))
        .collect()
}

/// Every “quoted” passage in `text`.
fn quotes(text: &str) -> Vec<String> {
    text.split('“')
        .skip(1)
        .filter_map(|rest| rest.split_once('”').map(|(q, _)| q.to_string()))
        .collect()
}

/// A quote of `source` (or of one of its items) is whole, or ends with an ellipsis at a word.
fn assert_never_cut(text: &str, sources: &[&str]) {
    for q in quotes(text) {
        for src in sources {
            let src = src.split_whitespace().collect::<Vec<_>>().join(" ");
            let src = src.trim_end_matches('.');
            if let Some(head) = q.strip_suffix('…') {
                if let Some(after) = src.strip_prefix(head) {
                    let next = after.chars().next();
                    assert!(
                        next.is_none_or(char::is_whitespace),
                        "cut mid-word: “{q}” of “{src}”"
                    );
                }
            } else if src.starts_with(&q) && q.len() >= 20 {
                assert_eq!(q, src, "quoted cut off without an ellipsis in: {text}");
            }
        }
    }
}

#[test]
fn a_team_demo_uses_the_requests_figures_and_the_persons_answer() {
    let s = team(BOOK_SWAP, ANSWER);
    let all = versions(&s);
    assert!(all.len() >= 3);
    for v in &all {
        for must in ["book swap", "village hall", "40 people", "£50"] {
            assert!(v.contains(must), "a version lacks {must}:\n{v}");
        }
        // What the person settled is written whole, and no longer open.
        assert!(v.contains("no budget beyond £50 for tea and snacks"), "{v}");
        assert!(v.contains("Saturday 14 June from 2 pm"), "{v}");
        for open in v.lines().filter(|l| l.contains("to confirm")) {
            let l = open.to_lowercase();
            assert!(
                !l.contains("budget") && !l.contains("date") && !l.contains("deadline"),
                "settled, yet open: {open}"
            );
        }
        assert_never_cut(v, &[BOOK_SWAP, ANSWER]);
    }
    let charter = &s.as_team().unwrap().state().charter;
    let charter_text = format!("{charter:?}");
    assert!(charter_text.contains("40 people"), "{charter_text}");
    assert!(charter_text.contains("the village hall"), "{charter_text}");
    assert_never_cut(&charter_text, &[BOOK_SWAP, ANSWER]);
}

#[test]
fn two_requests_give_products_about_each() {
    let a = team(BOOK_SWAP, ANSWER);
    let b = team(
        "Organise a 3-day hackathon for 25 students in Leeds.",
        "March, the university library, free pizza.",
    );
    let (va, vb) = (versions(&a), versions(&b));
    assert_ne!(va[0], vb[0]);
    assert!(vb
        .iter()
        .all(|v| v.contains("25 students") && v.contains("hackathon")));
    assert!(vb.iter().all(|v| !v.contains("40 people")));
}

#[test]
fn a_long_answer_is_quoted_whole_or_cut_at_a_word_with_an_ellipsis() {
    let long = "We meet on Saturday 14 June in the village hall, which holds about forty people if we keep the stage clear, and we have no budget beyond £50 for tea, squash and biscuits from the corner shop, so everything else must be borrowed or donated by neighbours.";
    let s = team(BOOK_SWAP, long);
    let charter = format!("{:?}", s.as_team().unwrap().state().charter);
    assert_never_cut(&charter, &[long]);
    for v in versions(&s) {
        assert_never_cut(&v, &[BOOK_SWAP, long]);
    }
}

#[test]
fn a_demo_meeting_keeps_the_agendas_figures_and_the_persons_remark() {
    let agenda = "Pick a venue for the book swap.\n40 people, £50 budget, one Saturday in June.";
    let remark = "The village hall is free on 14 June, so let us take it.";
    let s = demo_common::meeting(agenda, Some(remark));
    let state = s.as_meeting().unwrap().state();
    let minutes = state.minutes.clone().unwrap();
    assert!(minutes.summary.contains("40 people"), "{}", minutes.summary);
    assert!(
        minutes.summary.contains("£50 budget"),
        "{}",
        minutes.summary
    );
    assert!(
        minutes
            .decisions
            .iter()
            .any(|d| d.contains("The village hall is free on 14 June, so let us take it")),
        "{:?}",
        minutes.decisions
    );
    let said = format!("{:?}", state.transcript);
    assert!(
        said.contains("Taking in what the person said"),
        "a speaker takes in the remark"
    );
    assert_never_cut(&format!("{minutes:?}"), &[remark]);
}
