//! The check every rendering must pass, shared by the renderer's tests and its fuzz target
//! (`fuzz/fuzz_targets/markdown.rs`): only tags and attributes from a fixed list, only absolute
//! `http(s)`/`mailto` links, and every tag closed in order. It reads the HTML the way a browser
//! would act on it, independently of how the renderer wrote it.

use super::link::is_safe_url;

/// Every `<` in the output starts a tag we emitted (text `<` is escaped), so checking each
/// tag's name and attributes checks everything a browser would act on.
pub fn assert_inert(html: &str, source: &str) {
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
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "del",
        "hr",
        "br",
        "input",
        "sup",
        "div",
        "section",
        "details",
        "summary",
    ];
    const ATTRS: &[&str] = &[
        "href", "title", "class", "id", "start", "type", "checked", "disabled", "target", "rel",
    ];
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        let close = rest[open..].find('>').expect("a tag is closed") + open;
        let tag = &rest[open + 1..close];
        let tag = tag.trim_start_matches('/').trim_end_matches('/');
        let mut parts = tag.split_whitespace();
        let name = parts.next().unwrap_or_default().to_ascii_lowercase();
        assert!(
            TAGS.contains(&name.as_str()),
            "tag <{name}> in {html:?} (from {source:?})"
        );
        let attrs = &tag[name.len()..];
        for attr in attrs.split('"').step_by(2) {
            let attr = attr.trim().trim_end_matches('=');
            if attr.is_empty() {
                continue;
            }
            assert!(
                ATTRS.contains(&attr),
                "attribute {attr:?} in {html:?} (from {source:?})"
            );
        }
        if name == "a" {
            let href = attrs
                .split("href=\"")
                .nth(1)
                .and_then(|h| h.split('"').next());
            if let Some(href) = href {
                assert!(is_safe_url(href), "unsafe href {href:?} (from {source:?})");
                // And independently of is_safe_url: an absolute http(s)/mailto URL, written
                // with nothing a browser would strip while parsing it.
                let lower = href.to_ascii_lowercase();
                assert!(
                    ["http://", "https://", "mailto:"]
                        .iter()
                        .any(|s| lower.starts_with(s)),
                    "href {href:?} is not absolute http(s)/mailto (from {source:?})"
                );
                assert!(
                    !href
                        .chars()
                        .any(|c| matches!(c, '\t' | '\n' | '\r') || c.is_control()),
                    "href {href:?} has chars a browser drops (from {source:?})"
                );
            }
        }
        rest = &rest[close + 1..];
    }
}

/// Every opened tag is closed, in order (void tags excepted): the renderer writes well-formed
/// HTML whatever the input, so the browser never has to repair it into some other shape.
pub fn assert_nested(html: &str, source: &str) {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        let close = rest[at..].find('>').expect("a tag is closed") + at;
        let tag = &rest[at + 1..close];
        let name = tag
            .trim_start_matches('/')
            .split([' ', '/'])
            .next()
            .unwrap_or_default();
        if tag.starts_with('/') {
            assert_eq!(
                open.pop(),
                Some(name),
                "</{name}> in {html:?} (from {source:?})"
            );
        } else if !matches!(name, "br" | "hr" | "input") {
            open.push(name);
        }
        rest = &rest[close + 1..];
    }
    assert!(
        open.is_empty(),
        "unclosed {open:?} in {html:?} (from {source:?})"
    );
}
