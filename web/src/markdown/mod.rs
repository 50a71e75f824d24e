//! Model Markdown to HTML that is safe to put into the page.
//!
//! Everything a model writes is untrusted: a product version may carry `<script>`, an `onerror`
//! attribute, an SVG with handlers or a `javascript:` link, on purpose or by accident. We render
//! with pulldown-cmark and treat raw HTML (block and inline) as *text*, so it is escaped like any
//! other character; link and image targets survive only with an `http`, `https` or `mailto`
//! scheme, as our own `<a target=_blank rel=noopener>`; anything else keeps its text and loses
//! the link. Images never load (they would let a model make the reader's browser call any
//! host): they show as their alt text, linked when the target is safe. The result is set
//! as `innerHTML` on an element no script reads, under a CSP with no `unsafe-inline` script.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

/// Renders untrusted Markdown to HTML with raw HTML escaped and only safe link schemes kept.
pub fn to_safe_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    // For each open link or image: whether we emitted an <a> for it.
    let mut open_links: Vec<bool> = Vec::new();
    let events = Parser::new_ext(markdown, options).filter_map(move |event| match event {
        // Raw HTML becomes visible text: escaped by push_html like any other text.
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        // Links and images: a safe target becomes our own <a> (opening a new tab, so a click
        // never takes the running session's tab away); anything else keeps only its text.
        Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => {
            let safe = is_safe_url(&dest_url);
            open_links.push(safe);
            safe.then(|| Event::InlineHtml(CowStr::from(anchor(&dest_url))))
        }
        Event::End(TagEnd::Link) | Event::End(TagEnd::Image) => open_links
            .pop()
            .unwrap_or(false)
            .then_some(Event::InlineHtml(CowStr::Borrowed("</a>"))),
        other => Some(other),
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// The opening tag of a link we emit. The URL was checked by [`is_safe_url`]; the attribute
/// value is escaped so no quote can end it early.
fn anchor(url: &str) -> String {
    let mut escaped = String::with_capacity(url.len());
    for c in url.trim().chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            c if c.is_control() => {}
            c => escaped.push(c),
        }
    }
    format!("<a href=\"{escaped}\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">")
}

/// Whether a link target may be kept: `http:`, `https:` or `mailto:`.
///
/// Browsers ignore ASCII whitespace and control characters inside a scheme (`java\tscript:`), so
/// the check strips them before looking. Relative URLs and fragments are dropped too: they would
/// point into this app (a `#/…` fragment is one of its routes).
pub fn is_safe_url(url: &str) -> bool {
    let cleaned: String = url
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    ["http://", "https://", "mailto:"]
        .iter()
        .any(|scheme| cleaned.starts_with(scheme))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hostile corpus: each must come out with no live tag, handler or script URL.
    const HOSTILE: &[&str] = &[
        "<script>alert(1)</script>",
        "hello <img src=x onerror=alert(1)> world",
        "<svg onload=alert(1)><circle r=10/></svg>",
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](java\tscript:alert(1))",
        "[click](  javascript:alert(1))",
        "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "![img](javascript:alert(1))",
        "![pixel](https://tracker.example/p.png)",
        "<a href=\"javascript:alert(1)\">a</a>",
        "<iframe src=\"https://evil.example\"></iframe>",
        "<div style=\"background:url(javascript:alert(1))\">x</div>",
        "[ref]\n\n[ref]: javascript:alert(1)",
        "<details open ontoggle=alert(1)>",
        "`<script>` in code is fine",
        "```html\n<script>alert(1)</script>\n```",
        "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
    ];

    /// Every `<` in the output starts a tag we emitted (text `<` is escaped), so checking each
    /// tag's name and attributes checks everything a browser would act on.
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
                }
            }
            rest = &rest[close + 1..];
        }
    }

    #[test]
    fn hostile_markdown_renders_inert() {
        for source in HOSTILE {
            assert_inert(&to_safe_html(source), source);
        }
    }

    #[test]
    fn raw_html_shows_as_text() {
        let html = to_safe_html("<b>bold?</b>");
        assert_eq!(html, "<p>&lt;b&gt;bold?&lt;/b&gt;</p>\n");
    }

    #[test]
    fn safe_links_survive_and_unsafe_ones_turn_inert() {
        const REL: &str = "target=\"_blank\" rel=\"noopener noreferrer nofollow\"";
        assert_eq!(
            to_safe_html("[a](https://example.com/x?y=1&z=\"2\")"),
            format!(
                "<p><a href=\"https://example.com/x?y=1&amp;z=&quot;2&quot;\" {REL}>a</a></p>\n"
            )
        );
        assert_eq!(
            to_safe_html("[m](mailto:a@b.c)"),
            format!("<p><a href=\"mailto:a@b.c\" {REL}>m</a></p>\n")
        );
        assert_eq!(to_safe_html("[r](/relative/path)"), "<p>r</p>\n");
        assert_eq!(to_safe_html("[home](#/settings)"), "<p>home</p>\n");
        assert_eq!(to_safe_html("[x](javascript:alert(1))"), "<p>x</p>\n");
    }

    #[test]
    fn images_become_links_and_never_load() {
        assert_eq!(
            to_safe_html("![a chart](https://x.example/c.png)"),
            "<p><a href=\"https://x.example/c.png\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">a chart</a></p>\n"
        );
        assert_eq!(
            to_safe_html("![a chart](data:image/png;base64,AAAA)"),
            "<p>a chart</p>\n"
        );
    }

    #[test]
    fn ordinary_markdown_still_renders() {
        let html = to_safe_html("# Title\n\n- one\n- **two**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(html.contains("<h1>Title</h1>"));
        assert!(html.contains("<strong>two</strong>"));
        assert!(html.contains("<table>"));
    }
}
