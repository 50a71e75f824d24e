//! The Markdown report is safe in any viewer: every entry of the hostile corpus
//! (`tests/files/hostile-markdown.json`, shared with the app's renderer tests) is rendered by a
//! CommonMark renderer that passes raw HTML and any link through (pulldown-cmark, as a viewer
//! that does not sanitise would) after `safe_markdown::defang`, and what comes out has no live
//! tag, handler, script URL or image. The report of a real session with hostile text in it is
//! checked the same way.

#![allow(clippy::disallowed_methods)] // tests read their own files

use pulldown_cmark::{html, Options, Parser};
use roundtable_core::engine::ModelRef;
use roundtable_core::export::markdown_report;
use roundtable_core::protocol::meeting::MeetingConfig;
use roundtable_core::protocol::team::TeamConfig;
use roundtable_core::safe_markdown::{defang, is_safe_url};
use roundtable_core::session::Session;

fn corpus() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/files/hostile-markdown.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// What a viewer that does not sanitise makes of it.
fn viewer(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(markdown, options));
    out
}

/// Every `<` in the HTML starts a tag from a fixed list with harmless attributes; every `href`
/// passes the app's own link rule.
fn assert_inert(html: &str, source: &str) {
    const TAGS: &[&str] = &[
        "p",
        "a",
        "em",
        "strong",
        "code",
        "pre",
        "ul",
        "ol",
        "li",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "br",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "del",
        "input",
        "div",
        "sup",
        "details",
        "summary",
    ];
    const ATTRS: &[&str] = &[
        "href", "title", "class", "style", "type", "checked", "disabled", "start", "id",
    ];
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..end];
        let tag = tag.strip_prefix('/').unwrap_or(tag).trim_end_matches('/');
        let name: String = tag
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        assert!(
            TAGS.contains(&name.as_str()),
            "tag <{name}> from {source:?}:\n{html}"
        );
        let mut attrs = &tag[name.len()..];
        while let Some(eq) = attrs.find('=') {
            let key = attrs[..eq].trim().rsplit(' ').next().unwrap_or("");
            assert!(
                ATTRS.contains(&key),
                "attribute {key} from {source:?}:\n{html}"
            );
            let value = attrs[eq + 1..].trim_start();
            let (value, after) = match value.strip_prefix('"') {
                Some(v) => {
                    let close = v.find('"').unwrap_or(v.len());
                    (&v[..close], &v[(close + 1).min(v.len())..])
                }
                None => (value, ""),
            };
            if key == "href" {
                let decoded = value.replace("&amp;", "&");
                assert!(
                    is_safe_url(&decoded),
                    "href {value} from {source:?}:\n{html}"
                );
            }
            if key == "style" {
                assert!(
                    value.starts_with("text-align"),
                    "style {value} from {source:?}"
                );
            }
            attrs = after;
        }
    }
}

#[test]
fn every_hostile_text_is_inert_in_a_viewer_that_does_not_sanitise() {
    let corpus = corpus();
    assert!(corpus.len() >= 40);
    // The check bites: without defang the corpus is live.
    let live = corpus
        .iter()
        .filter(|s| std::panic::catch_unwind(|| assert_inert(&viewer(s), s)).is_err())
        .count();
    assert!(live >= 25, "only {live} entries were live before defang");
    for source in &corpus {
        let safe = defang(source);
        assert_inert(&viewer(&safe), source);
        assert_eq!(defang(&safe), safe, "defang is stable: {source:?}");
    }
}

#[test]
fn safe_links_and_text_survive() {
    let text = "# Plan\n\nSee [the brief](https://example.org/brief \"Brief\") or mail [us](mailto:a@b.org).\n\n`a < b` and\n\n```rust\nlet x = 1 < 2;\n```\n\n| col | x |\n|---|---|\n| 1 < 2 | **bold** |\n";
    let html = viewer(&defang(text));
    assert_inert(&html, text);
    assert!(
        html.contains(r#"<a href="https://example.org/brief" title="Brief">the brief</a>"#),
        "{html}"
    );
    assert!(html.contains(r#"<a href="mailto:a@b.org">us</a>"#));
    assert!(html.contains("<code>a &lt; b</code>"));
    assert!(html.contains("let x = 1 &lt; 2;"));
    assert!(html.contains("<td>1 &lt; 2</td>"), "{html}");
}

fn demo() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

#[test]
fn the_report_of_a_session_with_hostile_text_is_inert() {
    let hostile = corpus().join("\n\n");
    let team = Session::new_team(
        TeamConfig::standard(
            &format!("Write a guide.\n\n{hostile}"),
            1,
            false,
            false,
            demo(),
        ),
        0,
    )
    .unwrap();
    let meeting = Session::new_meeting(
        MeetingConfig::standard(
            &format!("Pick a database.\n\n{hostile}"),
            &[
                ("engineer-1", "Ana", "Engineer"),
                ("designer-1", "Bo", "Designer"),
            ],
            demo(),
        ),
        0,
    )
    .unwrap();
    for session in [team, meeting] {
        let report = markdown_report(&session);
        assert!(
            report.contains("alert(1)"),
            "the hostile text is in the report, as text"
        );
        assert_inert(&viewer(&report), "the report");
    }
}

/// The review loop's report folds its raw records: in a viewer that renders HTML, the appendix's
/// records sit inside the one `<details>` the report writes (kept by `defang`), after its
/// summary; everything before it is open, and the whole stays inert.
#[test]
fn the_review_reports_appendix_is_folded_in_a_viewer() {
    use roundtable_core::demo::play_demo;
    use roundtable_core::protocol::review::{demo as review_demo, ReviewSession};
    let mut s = ReviewSession::new(review_demo::config(demo(), "run-report"), 0).unwrap();
    let mut now = 1;
    play_demo(&mut s, &mut now, 80).unwrap();
    let report = markdown_report(&Session::of_kind(s));
    let html = viewer(&report);
    assert_inert(&html, "the review report");
    let open = html.find("<details>").expect("a fold");
    let close = html.rfind("</details>").expect("closed");
    assert_eq!(html.matches("<details>").count(), 1, "{html}");
    let fold = &html[open..close];
    assert!(fold.starts_with("<details>\n<summary>The runtime's records, as written</summary>"));
    assert!(
        fold.contains("<h3>The critic was called (1): QA found a failure</h3>"),
        "{fold}"
    );
    assert!(fold.contains("\"schemaVersion\": 1"), "{fold}");
    assert!(
        !html[..open].contains("schemaVersion"),
        "no raw record before the fold"
    );
    assert!(
        html[close..].trim() == "</details>",
        "the fold ends the report"
    );
}
