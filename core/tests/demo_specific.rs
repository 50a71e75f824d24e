//! The demo's products are about the request, for every kind of session: each product names what
//! was asked and puts each stated figure somewhere it belongs, two different requests give
//! different text, and no sentence of a template reads the same whatever was asked.
//!
//! The first request's products and both meetings' minutes are snapshots, to read as a person
//! would.

mod demo_common;

use demo_common::{demo_ref, team, team_asked};
use std::collections::BTreeSet;

use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::session::Session;

/// A varied set of requests, each with the answer a person might give to the chair's question,
/// the words every product must name, and the figures that must each appear somewhere.
struct Case {
    request: &'static str,
    answer: &'static str,
    /// Words every product names (the request's subject or its nouns).
    every: &'static [&'static str],
    /// Figures each of which appears in at least one product's sections (beyond the quoted
    /// request), and in the product where it belongs when that product was written.
    figures: &'static [(&'static str, &'static str)],
}

const CASES: &[Case] = &[
    Case {
        request: "Plan a book swap in the village hall for 40 people on a £50 budget.",
        answer: "Saturday 14 June from 2 pm, tea and biscuits only.",
        every: &["book swap"],
        figures: &[
            ("40 people", "Scope and goals"),
            ("£50", "Risks and mitigations"),
            ("the village hall", "Work plan"),
            ("Saturday 14 June", "Work plan"),
        ],
    },
    Case {
        request: "We need a launch plan for our dog-walking app in Leeds, with 3 developers and £2000 for ads.",
        answer: "Launch in March, iOS first.",
        every: &["dog-walking app"],
        figures: &[("£2000", "Channel plan"), ("March", "Launch timeline")],
    },
    Case {
        request: "Write a research review on sleep and memory in teenagers, 10 pages, due in 6 weeks.",
        answer: "APA style, peer-reviewed studies since 2015.",
        every: &["sleep"],
        figures: &[("6 weeks", "")],
    },
    Case {
        request: "Plan a two-day workshop on negotiation for 12 sales managers in Berlin.",
        answer: "Thursday 9 October, the hotel conference room, €3000 all in.",
        every: &["negotiation"],
        figures: &[
            ("12 sales", "Invitation and logistics"),
            ("the hotel conference room", "Invitation and logistics"),
        ],
    },
    Case {
        request: "Organise the renovation of our community garden shed with £400 by May.",
        answer: "Quality: take a month and get it right.",
        every: &["garden shed"],
        figures: &[("£400", "")],
    },
];

/// Each product's name and the text of its last version.
fn products(s: &Session) -> Vec<(String, String)> {
    let team = s.as_team().unwrap().state();
    team.tree
        .walk()
        .into_iter()
        .filter_map(|(_, p)| {
            let last = p.versions.last()?;
            let v = team.tree.version(last)?;
            Some((p.name.clone(), v.content.to_string()))
        })
        .collect()
}

/// A product's text without the heading block that quotes the request and the person's answer,
/// so what is checked is the content the product itself says.
fn body(text: &str) -> String {
    let mut keep = Vec::new();
    let mut skipping = false;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            skipping = h == "What the person asked" || h == "Settled with the person";
        }
        if !skipping {
            keep.push(line);
        }
    }
    keep.join("\n")
}

/// The bullets of a text.
fn bullets(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("- "))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_product_is_about_its_request_and_keeps_its_figures() {
    let mut per_case: Vec<BTreeSet<String>> = Vec::new();
    let mut firsts = Vec::new();
    for case in CASES {
        let s = team(case.request, case.answer);
        let products = products(&s);
        assert!(
            products.len() >= 3,
            "{} products for {}",
            products.len(),
            case.request
        );
        let mut all = BTreeSet::new();
        for (name, text) in &products {
            let own = body(text);
            for word in case.every {
                assert!(
                    own.to_lowercase().contains(&word.to_lowercase()),
                    "{name} for “{}” never names {word} in its own sections:\n{own}",
                    case.request
                );
            }
            all.extend(bullets(&own));
        }
        for (figure, home) in case.figures {
            let found: Vec<&str> = products
                .iter()
                .filter(|(_, t)| body(t).contains(figure))
                .map(|(n, _)| n.as_str())
                .collect();
            assert!(
                !found.is_empty(),
                "{figure} of “{}” is in no product's sections",
                case.request
            );
            if products.iter().any(|(n, _)| n == home) {
                assert!(
                    found.contains(home),
                    "{figure} of “{}” belongs in {home}, found in {found:?}",
                    case.request
                );
            }
        }
        // Sentences are whole: no bullet ends in the middle of a word or with a dangling word.
        for b in &all {
            assert!(
                b.ends_with(['.', '?', ')', '”', '…']) || b.ends_with("done"),
                "a bullet that does not end as a sentence: {b}"
            );
        }
        if case.request == CASES[0].request {
            let all: Vec<String> = products.iter().map(|(_, t)| t.clone()).collect();
            insta::assert_snapshot!("book_swap_products", all.join("\n---\n\n"));
        }
        firsts.push(products[0].1.clone());
        per_case.push(all);
    }
    for (i, a) in firsts.iter().enumerate() {
        for b in &firsts[i + 1..] {
            assert_ne!(body(a), body(b), "two requests gave the same product text");
        }
    }
    // No template sentence reads the same whatever was asked.
    let shared: Vec<&String> = per_case[0]
        .iter()
        .filter(|b| per_case[1..].iter().all(|c| c.contains(*b)))
        .collect();
    assert!(
        shared.is_empty(),
        "boilerplate in every request's products: {shared:#?}"
    );
}

#[test]
fn the_persons_answer_shapes_the_products() {
    let request = "Plan a book swap in the village hall for 40 people on a £50 budget.";
    let a = team(request, "Saturday 14 June from 2 pm.");
    let b = team(request, "Sunday 6 July, in the church room instead.");
    let text = |s: &Session| {
        products(s)
            .iter()
            .map(|(_, t)| body(t))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (ta, tb) = (text(&a), text(&b));
    assert!(ta.contains("Saturday 14 June") && !ta.contains("Sunday 6 July"));
    assert!(tb.contains("Sunday 6 July") && !tb.contains("Saturday 14 June"));
    assert!(tb.contains("the church room"), "the answer's place is used");
    assert!(ta.contains("the village hall"));
}

#[test]
fn the_chair_asks_only_what_the_request_left_open_and_the_helpers_named_do_the_work() {
    let (s, asked) = team_asked(
        "Plan a book swap in the village hall for 40 people on a £50 budget.",
        "Saturday 14 June from 2 pm, 3 volunteers.",
    );
    // The hall and the money are in the request: the chair asks when, and who helps.
    assert!(asked.contains("when will it be"), "{asked}");
    assert!(asked.contains("who will help"), "{asked}");
    assert!(
        !asked.contains("where") && !asked.contains("cost"),
        "{asked}"
    );
    let text: String = products(&s).iter().map(|(_, t)| body(t)).collect();
    assert!(text.contains("the 3 volunteers"), "{text}");
    // A launch whose date and budget are given is asked what is left, with choices for that.
    let config = TeamConfig::standard(
        "Launch plan for our dog-walking app in Leeds, on Monday 2 March with £2000 for ads.",
        2,
        true,
        false,
        demo_ref(),
    );
    let mut launch = Session::new_team(config, 0).unwrap();
    launch.start(1).unwrap();
    for now in 2..200 {
        if launch.question().is_some() {
            break;
        }
        for call in launch.next_calls() {
            let reply = call.demo.unwrap();
            launch.submit(&call.id, &reply.text, None, now).unwrap();
        }
    }
    let (_, halt) = launch.question().expect("the chair asks");
    assert!(halt.message().contains("go/no-go"), "{}", halt.message());
    let options = halt.options().join(" | ");
    assert!(
        halt.options()
            .iter()
            .all(|o| o.contains("success") && !o.contains("£")),
        "each choice answers what is asked, not what the request said: {options}"
    );
    assert!(
        !options.contains("six weeks"),
        "no choice contradicts the request: {options}"
    );
    // Asked with nothing settled, the same chair asks for all of it.
    let (_, asked) = team_asked("Organise a street party.", "Soon.");
    for part in ["when", "where", "cost", "who will help"] {
        assert!(asked.contains(part), "{asked}");
    }
}

#[test]
fn a_demo_meetings_options_and_actions_are_about_its_agenda() {
    let said = std::cell::RefCell::new(String::new());
    let run = |agenda: &str, remark: Option<&str>| {
        let s = demo_common::meeting(agenda, remark);
        let state = s.as_meeting().unwrap().state();
        said.replace(format!("{:?}", state.transcript));
        state.minutes.clone().unwrap()
    };
    let a = run(
        "Pick a venue for the book swap.\n40 people, £50 budget, one Saturday in June.",
        None,
    );
    let b = run(
        "Choose a backend for the dog-walking app.\n3 developers, launch in 8 weeks.",
        None,
    );
    insta::assert_debug_snapshot!("meeting_minutes_about_the_agenda", (&a, &b));
    let decided = |m: &roundtable_core::protocol::meeting::Minutes| m.decisions.join(" ");
    assert!(decided(&a).contains("book swap"), "{:?}", a.decisions);
    assert!(decided(&b).contains("backend"), "{:?}", b.decisions);
    assert!(a
        .action_items
        .iter()
        .all(|i| i.task.contains("book swap") || i.task.contains("venue")));
    assert_ne!(a.decisions, b.decisions);
    // An agenda on one line: the meeting is about its first sentence, and what the person said
    // is the first decision.
    let c = run(
        "Choose a venue for the village book swap. 40 people, £50 budget, a Saturday in June.",
        Some("The village hall is free on Saturday 14 June and costs £30, so let us take it."),
    );
    assert!(
        c.decisions[0].starts_with("As the person said: “The village hall is free"),
        "{:?}",
        c.decisions
    );
    assert!(
        c.summary
            .contains("“Choose a venue for the village book swap”"),
        "{}",
        c.summary
    );
    assert!(
        said.borrow().contains("I support what the person said"),
        "the room backs the person's word"
    );
    for d in c.decisions.iter().skip(1) {
        assert!(d.contains("the venue for the village book swap"), "{d}");
        assert!(
            !d.contains("a Saturday in June"),
            "the whole agenda line leaked: {d}"
        );
    }
}
