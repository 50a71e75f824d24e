//! The renderer's tests: safety first, then each construct, then a whole model document.
use super::inert::{assert_inert, assert_nested};
use super::link::is_safe_url;
use super::pathological::pathological_inputs;
use super::to_safe_html;
use proptest::prelude::*;

/// The hostile corpus, shared with core's report test (`core/tests/files/hostile-markdown.json`):
/// each must come out with no live tag, handler or script URL.
fn hostile() -> Vec<String> {
    serde_json::from_str(include_str!(
        "../../../core/tests/files/hostile-markdown.json"
    ))
    .unwrap()
}

#[test]
fn hostile_markdown_renders_inert() {
    for source in &hostile() {
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
        format!("<p><a href=\"https://example.com/x?y=1&amp;z=&quot;2&quot;\" {REL}>a</a></p>\n")
    );
    assert_eq!(
        to_safe_html("[m](mailto:a@b.c)"),
        format!("<p><a href=\"mailto:a@b.c\" {REL}>m</a></p>\n")
    );
    assert_eq!(to_safe_html("[r](/relative/path)"), "<p>r</p>\n");
    assert_eq!(to_safe_html("[home](#/settings)"), "<p>home</p>\n");
    assert_eq!(to_safe_html("[x](javascript:alert(1))"), "<p>x</p>\n");
    // a space inside would be dropped by the browser, turning it into a relative URL
    assert_eq!(to_safe_html("[x](<ht tp://a/#/settings>)"), "<p>x</p>\n");
    assert_eq!(to_safe_html("[x](<https:/ /a>)"), "<p>x</p>\n");
    assert!(
        !is_safe_url("https:/a") && !is_safe_url("https://a\tb") && !is_safe_url("\u{1}https://a")
    );
    assert!(is_safe_url("  HTTPS://a.example/x  ") && is_safe_url("mailto:a@b.c"));
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

const REL: &str = "target=\"_blank\" rel=\"noopener noreferrer nofollow\"";

fn check(source: &str) -> String {
    let html = to_safe_html(source);
    assert_inert(&html, source);
    assert_nested(&html, source);
    html
}

#[test]
fn hostile_markdown_is_well_formed() {
    for source in &hostile() {
        assert_nested(&to_safe_html(source), source);
    }
}

#[test]
fn unsafe_reference_links_and_autolinks_keep_only_their_text() {
    assert_eq!(check("[ref]\n\n[ref]: javascript:alert(1)"), "<p>ref</p>\n");
    assert_eq!(
        check("<javascript:alert(1)>"),
        "<p>javascript:alert(1)</p>\n"
    );
    assert_eq!(
        check("<script>alert(1)</script>"),
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"
    );
    assert_eq!(
        check("[a](https://x.example/\"onmouseover=\"alert(1))"),
        format!(
            "<p><a href=\"https://x.example/&quot;onmouseover=&quot;alert(1)\" {REL}>a</a></p>\n"
        )
    );
}

#[test]
fn headings() {
    assert_eq!(
        check("# a\n## b\n### c\n#### d\n##### e\n###### f"),
        "<h1>a</h1>\n<h2>b</h2>\n<h3>c</h3>\n<h4>d</h4>\n<h5>e</h5>\n<h6>f</h6>\n"
    );
    assert_eq!(check("####### seven"), "<p>####### seven</p>\n");
    assert_eq!(check("#hashtag"), "<p>#hashtag</p>\n");
    assert_eq!(check("## Closed ##  "), "<h2>Closed</h2>\n");
    assert_eq!(check("# C# \\#"), "<h1>C# #</h1>\n");
    assert_eq!(
        check("   # Indented *title*"),
        "<h1>Indented <em>title</em></h1>\n"
    );
    assert_eq!(check("Title\n====="), "<h1>Title</h1>\n");
    assert_eq!(check("Sub\ntitle\n---"), "<h2>Sub\ntitle</h2>\n");
}

#[test]
fn paragraphs_and_line_breaks() {
    assert_eq!(
        check("one\ntwo\n\nthree"),
        "<p>one\ntwo</p>\n<p>three</p>\n"
    );
    assert_eq!(check("hard  \nbreak"), "<p>hard<br />\nbreak</p>\n");
    assert_eq!(check("back\\\nslash"), "<p>back<br />\nslash</p>\n");
    assert_eq!(check("one space \nsoft"), "<p>one space\nsoft</p>\n");
    assert_eq!(check("trailing  "), "<p>trailing</p>\n");
    assert_eq!(
        check("  leading\n    continued"),
        "<p>leading\ncontinued</p>\n"
    );
}

#[test]
fn emphasis_strong_and_strikethrough() {
    assert_eq!(check("*a* _b_"), "<p><em>a</em> <em>b</em></p>\n");
    assert_eq!(
        check("**a** __b__"),
        "<p><strong>a</strong> <strong>b</strong></p>\n"
    );
    assert_eq!(check("***a***"), "<p><em><strong>a</strong></em></p>\n");
    assert_eq!(
        check("**bold *and italic* inside**"),
        "<p><strong>bold <em>and italic</em> inside</strong></p>\n"
    );
    assert_eq!(check("*a **b***"), "<p><em>a <strong>b</strong></em></p>\n");
    assert_eq!(check("snake_case_name"), "<p>snake_case_name</p>\n");
    assert_eq!(
        check("in*word*emphasis"),
        "<p>in<em>word</em>emphasis</p>\n"
    );
    assert_eq!(check("2 * 3 * 4"), "<p>2 * 3 * 4</p>\n");
    assert_eq!(check("**unclosed"), "<p>**unclosed</p>\n");
    assert_eq!(check("~~gone~~ stays"), "<p><del>gone</del> stays</p>\n");
    assert_eq!(check("about ~5 to ~10"), "<p>about ~5 to ~10</p>\n");
    assert_eq!(check("a ~~~x~~~ b"), "<p>a ~~~x~~~ b</p>\n");
}

#[test]
fn code_spans() {
    assert_eq!(check("`a < b`"), "<p><code>a &lt; b</code></p>\n");
    assert_eq!(check("`` a ` b ``"), "<p><code>a ` b</code></p>\n");
    assert_eq!(check("```x```"), "<p><code>x</code></p>\n");
    assert_eq!(check("`*not em*`"), "<p><code>*not em*</code></p>\n");
    assert_eq!(check("`a\nb`"), "<p><code>a b</code></p>\n");
    assert_eq!(
        check("`unclosed ``x``"),
        "<p>`unclosed <code>x</code></p>\n"
    );
    assert_eq!(check("`\\`"), "<p><code>\\</code></p>\n");
}

#[test]
fn fenced_and_indented_code() {
    assert_eq!(
        check("```rust\nfn main() {\n    println!(\"<hi>\");\n}\n```"),
        "<pre><code class=\"language-rust\">fn main() {\n    println!(&quot;&lt;hi&gt;&quot;);\n}\n</code></pre>\n"
    );
    assert_eq!(check("~~~\n~~~"), "<pre><code></code></pre>\n");
    assert_eq!(
        check("~~~ x\"onclick=\"y more\n```\n~~~"),
        "<pre><code class=\"language-x&quot;onclick=&quot;y\">```\n</code></pre>\n"
    );
    assert_eq!(
        check("````\n```\nstill code\n````\nafter"),
        "<pre><code>```\nstill code\n</code></pre>\n<p>after</p>\n"
    );
    assert_eq!(
        check("```\nunclosed\n\n# not a heading"),
        "<pre><code>unclosed\n\n# not a heading\n</code></pre>\n"
    );
    assert_eq!(
        check("  ```\n  indented\n    more\n  ```"),
        "<pre><code>indented\n  more\n</code></pre>\n"
    );
    assert_eq!(
        check("    let x = 1;\n\n    let y = 2;\n\ntext"),
        "<pre><code>let x = 1;\n\nlet y = 2;\n</code></pre>\n<p>text</p>\n"
    );
    assert_eq!(check("para\n    not code"), "<p>para\nnot code</p>\n");
}

#[test]
fn block_quotes_nest_and_continue_lazily() {
    assert_eq!(
        check("> quoted\nlazy\n> > nested"),
        "<blockquote>\n<p>quoted\nlazy</p>\n<blockquote>\n<p>nested</p>\n</blockquote>\n</blockquote>\n"
    );
    assert_eq!(
        check("> # Title\n> - item\n\nafter"),
        "<blockquote>\n<h1>Title</h1>\n<ul>\n<li>item</li>\n</ul>\n</blockquote>\n<p>after</p>\n"
    );
    assert_eq!(
        check(">no space\n>\n>second"),
        "<blockquote>\n<p>no space</p>\n<p>second</p>\n</blockquote>\n"
    );
}

#[test]
fn bullet_and_ordered_lists() {
    assert_eq!(check("- a\n- b"), "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
    assert_eq!(check("* a\n* b"), "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
    assert_eq!(check("+ a"), "<ul>\n<li>a</li>\n</ul>\n");
    assert_eq!(check("1. a\n2. b"), "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n");
    assert_eq!(
        check("3) c\n4) d"),
        "<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>\n"
    );
    // Another marker starts another list.
    assert_eq!(
        check("- a\n+ b\n1. c\n1) d"),
        "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>\n<ol>\n<li>c</li>\n</ol>\n<ol>\n<li>d</li>\n</ol>\n"
    );
    // A list may interrupt a paragraph; an ordered one only from 1.
    assert_eq!(
        check("Steps:\n- one\n- two"),
        "<p>Steps:</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"
    );
    assert_eq!(check("In\n2024. it rained"), "<p>In\n2024. it rained</p>\n");
    assert_eq!(check("-not a list"), "<p>-not a list</p>\n");
    assert_eq!(
        check("- item\ncontinued lazily\n\n  second paragraph"),
        "<ul>\n<li>\n<p>item\ncontinued lazily</p>\n<p>second paragraph</p>\n</li>\n</ul>\n"
            .replace("<li>\n", "<li>")
    );
}

#[test]
fn lists_nest_by_indentation() {
    assert_eq!(
        check("- a\n  - b\n    - c\n- d"),
        "<ul>\n<li>a\n<ul>\n<li>b\n<ul>\n<li>c</li>\n</ul>\n</li>\n</ul>\n</li>\n<li>d</li>\n</ul>\n"
    );
    let ordered = "<ol>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n<li>c</li>\n</ol>\n";
    assert_eq!(check("1. a\n   - b\n2. c"), ordered);
    assert_eq!(check("1. a\n    - b\n2. c"), ordered);
    // Two columns under `1.` is less than CommonMark asks; models write it, so it nests too.
    assert_eq!(check("1. a\n  - b\n2. c"), ordered);
    assert_eq!(
        check("1. a\n  - b\n    - c"),
        "<ol>\n<li>a\n<ul>\n<li>b\n<ul>\n<li>c</li>\n</ul>\n</li>\n</ul>\n</li>\n</ol>\n"
    );
    assert_eq!(
        check("- a\n\n  ```\n  code\n  ```\n- b"),
        "<ul>\n<li>\n<p>a</p>\n<pre><code>code\n</code></pre>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n"
            .replace("<li>\n", "<li>")
    );
}

#[test]
fn loose_and_tight_lists() {
    assert_eq!(
        check("- a\n\n- b"),
        "<ul>\n<li><p>a</p>\n</li>\n<li><p>b</p>\n</li>\n</ul>\n"
    );
    // A blank line inside a nested list loosens only that list.
    assert_eq!(
        check("- a\n  - b\n\n  - c\n- d"),
        "<ul>\n<li>a\n<ul>\n<li><p>b</p>\n</li>\n<li><p>c</p>\n</li>\n</ul>\n</li>\n<li>d</li>\n</ul>\n"
    );
    // Blank lines after a list belong to what follows.
    assert_eq!(
        check("- a\n\n\npara"),
        "<ul>\n<li>a</li>\n</ul>\n<p>para</p>\n"
    );
    assert_eq!(check("-\n- b"), "<ul>\n<li></li>\n<li>b</li>\n</ul>\n");
}

#[test]
fn task_list_items() {
    assert_eq!(
        check("- [ ] todo\n- [x] done\n- [X] also\n- [y] not a box"),
        "<ul>\n\
         <li><input disabled=\"\" type=\"checkbox\"/>\ntodo</li>\n\
         <li><input disabled=\"\" type=\"checkbox\" checked=\"\"/>\ndone</li>\n\
         <li><input disabled=\"\" type=\"checkbox\" checked=\"\"/>\nalso</li>\n\
         <li>[y] not a box</li>\n</ul>\n"
    );
    assert_eq!(
        check("1. [x] first\n\n2. [ ] second"),
        "<ol>\n<li><p><input disabled=\"\" type=\"checkbox\" checked=\"\"/>\nfirst</p>\n</li>\n\
         <li><p><input disabled=\"\" type=\"checkbox\"/>\nsecond</p>\n</li>\n</ol>\n"
    );
}

#[test]
fn thematic_breaks() {
    assert_eq!(check("---\n***\n___\n- - -\n * * *"), "<hr />\n".repeat(5));
    assert_eq!(check("a\n\n---\nb"), "<p>a</p>\n<hr />\n<p>b</p>\n");
    assert_eq!(check("--"), "<p>--</p>\n");
    assert_eq!(
        check("* a\n* * *\n* b"),
        "<ul>\n<li>a</li>\n</ul>\n<hr />\n<ul>\n<li>b</li>\n</ul>\n"
    );
}

#[test]
fn tables_with_alignment() {
    assert_eq!(
        check("| Name | Count | Note | Plain |\n|:-----|------:|:----:|---|\n| *a* | 1 | x \\| y | `c\\|d` |\n| b |"),
        "<table>\n<thead>\n<tr><th class=\"align-left\">Name</th><th class=\"align-right\">Count</th>\
         <th class=\"align-center\">Note</th><th>Plain</th></tr>\n</thead>\n<tbody>\n\
         <tr><td class=\"align-left\"><em>a</em></td><td class=\"align-right\">1</td>\
         <td class=\"align-center\">x | y</td><td><code>c|d</code></td></tr>\n\
         <tr><td class=\"align-left\">b</td><td class=\"align-right\"></td>\
         <td class=\"align-center\"></td><td></td></tr>\n</tbody>\n</table>\n"
    );
    assert_eq!(
        check("Intro:\na | b\n--|--\n1 | 2\n\nafter"),
        "<p>Intro:</p>\n<table>\n<thead>\n<tr><th>a</th><th>b</th></tr>\n</thead>\n<tbody>\n\
         <tr><td>1</td><td>2</td></tr>\n</tbody>\n</table>\n<p>after</p>\n"
    );
    assert_eq!(
        check("| a |\n| - |"),
        "<table>\n<thead>\n<tr><th>a</th></tr>\n</thead>\n</table>\n"
    );
    // The delimiter row must match the header's cells.
    assert_eq!(check("| a | b |\n| - |"), "<p>| a | b |\n| - |</p>\n");
    assert_eq!(check("a | b"), "<p>a | b</p>\n");
    // A table ends at a block that starts on its own.
    assert_eq!(
        check("| a |\n|---|\n| 1 |\n# next"),
        "<table>\n<thead>\n<tr><th>a</th></tr>\n</thead>\n<tbody>\n<tr><td>1</td></tr>\n</tbody>\n</table>\n<h1>next</h1>\n"
    );
}

#[test]
fn links_autolinks_and_images() {
    assert_eq!(
        check("[a *b*](https://x.example \"title\")"),
        format!("<p><a href=\"https://x.example\" {REL}>a <em>b</em></a></p>\n")
    );
    assert_eq!(
        check("[wiki](https://en.wikipedia.org/wiki/Rust_(programming_language))"),
        format!("<p><a href=\"https://en.wikipedia.org/wiki/Rust_(programming_language)\" {REL}>wiki</a></p>\n")
    );
    assert_eq!(
        check("[p](<https://x.example/a b>)"),
        format!("<p><a href=\"https://x.example/a b\" {REL}>p</a></p>\n")
    );
    assert_eq!(
        check("<https://x.example/?a=1&b=2> and <me@x.example>"),
        format!(
            "<p><a href=\"https://x.example/?a=1&amp;b=2\" {REL}>https://x.example/?a=1&amp;b=2</a> \
             and <a href=\"mailto:me@x.example\" {REL}>me@x.example</a></p>\n"
        )
    );
    assert_eq!(
        check("![a *chart*](https://x.example/c.png)"),
        format!("<p><a href=\"https://x.example/c.png\" {REL}>a <em>chart</em></a></p>\n")
    );
    // A badge: the image's own link is left out so anchors never nest.
    assert_eq!(
        check("[![badge](https://x.example/b.svg)](https://x.example)"),
        format!("<p><a href=\"https://x.example\" {REL}>badge</a></p>\n")
    );
    // No link inside a link: the inner one wins, as in CommonMark.
    assert_eq!(
        check("[a [b](https://b.example) c](https://a.example)"),
        format!("<p>[a <a href=\"https://b.example\" {REL}>b</a> c](https://a.example)</p>\n")
    );
    assert_eq!(
        check("[not a link] (https://x.example)"),
        "<p>[not a link] (https://x.example)</p>\n"
    );
    assert_eq!(
        check("[a](https://x.example"),
        "<p>[a](https://x.example</p>\n"
    );
    assert_eq!(check("a < b > c"), "<p>a &lt; b &gt; c</p>\n");
    assert_eq!(
        check("*[em link](https://x.example)*"),
        format!("<p><em><a href=\"https://x.example\" {REL}>em link</a></em></p>\n")
    );
}

#[test]
fn reference_links() {
    let doc = "See [the spec][Spec], [Spec][] and [spec].\n\n[spec]:  https://spec.example  \"The spec\"\n[spec]: https://ignored.example";
    let a = format!("<a href=\"https://spec.example\" {REL}>");
    assert_eq!(
        check(doc),
        format!("<p>See {a}the spec</a>, {a}Spec</a> and {a}spec</a>.</p>\n")
    );
    assert_eq!(
        check("[undefined] [x][nope]"),
        "<p>[undefined] [x][nope]</p>\n"
    );
    assert_eq!(
        check("[1]: not-a-title here"),
        "<p>[1]: not-a-title here</p>\n"
    );
}

#[test]
fn backslash_escapes_and_entities() {
    assert_eq!(
        check("\\*not em\\* \\# \\[x\\](y)"),
        "<p>*not em* # [x](y)</p>\n"
    );
    assert_eq!(
        check("\\<b\\> and C:\\dir"),
        "<p>&lt;b&gt; and C:\\dir</p>\n"
    );
    // Entities are not decoded: `&` is always escaped, so they show as typed.
    assert_eq!(
        check("&amp; &lt;b&gt; &#60;"),
        "<p>&amp;amp; &amp;lt;b&amp;gt; &amp;#60;</p>\n"
    );
    assert_eq!(
        check("it's \"quoted\""),
        "<p>it&#39;s &quot;quoted&quot;</p>\n"
    );
    assert_eq!(check("nul\0byte"), "<p>nul\u{FFFD}byte</p>\n");
}

#[test]
fn nesting_is_capped() {
    let html = check(&">".repeat(100));
    assert_eq!(html.matches("<blockquote>").count(), 16);
    let list: String = (0..100)
        .map(|k| format!("{}- item\n", "  ".repeat(k)))
        .collect();
    let html = check(&list);
    assert_eq!(html.matches("<ul>").count(), 16);
    assert!(html.contains("- item"), "deeper markers are text");
}

/// Each pathological input renders inert and well nested at a size where a quadratic parser
/// would take seconds. How its time grows with the input is measured by the benchmark
/// (`cargo run --release -p roundtable-web --example bench_markdown`), not here: a timed test
/// fails on a busy machine.
#[test]
fn pathological_inputs_render_inert_and_well_nested() {
    for (name, source) in pathological_inputs(100_000) {
        let html = to_safe_html(&source);
        assert_inert(&html, name);
        assert_nested(&html, name);
    }
}

/// Pieces of Markdown syntax, so random documents exercise the constructs and their mistakes.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "*",
            "**",
            "_",
            "__",
            "~~",
            "~",
            "`",
            "``",
            "```",
            "~~~",
            "[",
            "]",
            "![",
            "](",
            ")",
            "(",
            "<",
            ">",
            "> ",
            "\\",
            "\n",
            "\n\n",
            "  \n",
            "# ",
            "## ",
            "- ",
            "* ",
            "+ ",
            "1. ",
            "2) ",
            "  ",
            "    ",
            "\t",
            "|",
            "| --- |",
            ":-:",
            "---",
            "[ ] ",
            "[x] ",
            "\"",
            "'",
            "&",
            "&amp;",
            "https://x.example",
            "javascript:alert(1)",
            "<script>",
            "<img src=x onerror=alert(1)>",
            "<svg onload=alert(1)>",
            "mailto:a@b.c",
            "[r]: ",
            "[r]",
            "é",
            "—",
            "😀",
            "\u{0}",
        ])
        .prop_map(str::to_owned),
        "[a-z ]{1,6}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Any string renders without panicking to inert, well-formed HTML.
    #[test]
    fn any_text_renders_inert(source in any::<String>()) {
        check(&source);
    }

    /// Documents made of Markdown syntax render without panicking to inert, well-formed HTML.
    #[test]
    fn any_markdown_renders_inert(parts in prop::collection::vec(fragment(), 0..60)) {
        let source = parts.concat();
        let html = check(&source);
        for bad in ["<script", "<img", "<svg", "<iframe", "<style", "javascript:\"", "href=\"javascript"] {
            prop_assert!(!html.contains(bad), "{bad} in {html:?} (from {source:?})");
        }
    }
}

/// A product version as a model writes it, rendered whole.
#[test]
fn model_document_snapshot() {
    const DOC: &str = r#"# Garden party plan

_Revision 2 – updated after the team's review._

Planned for: "Saturday 14 June, from 3 pm".

## Summary

We host **40 guests** in the back garden. The budget is *tight*, so we reuse what we have
and rent only the tent. See the [venue rules](https://council.example/rules?zone=3&type=garden)
and ~~the old plan~~ the new one below.

## Schedule

| Time | What | Who | Cost (€) |
|:-----|:-----|:---:|---------:|
| 14:00 | Set up the tent | Ana, Ben | 120 |
| 15:00 | Guests arrive | everyone | 0 |
| 18:30 | Barbecue \| salads | Chen | 240 |

## Tasks

1. Book the tent
   - call two suppliers
   - compare deposits
2. Buy food:
   - [x] charcoal
   - [ ] vegetables
   - [ ] drinks (see `drinks.csv`)
3. Send the invitations by **Friday**.

> **Note:** the council asks for quiet after 10 pm.
> > Neighbours were told on Monday.

### Budget check

```python
total = sum(item.cost for item in items)
assert total <= 500, "over budget"
```

---

Questions go to <planner@party.example>. Raw HTML like <b>this</b> shows as text, and
[a bad link](javascript:alert(1)) keeps only its text.
"#;
    let html = check(DOC);
    insta::assert_snapshot!("model_document", html);
}

#[test]
fn lazy_lines_continue_only_paragraphs() {
    // A paragraph in a quote or a list item takes an unmarked next line…
    assert_eq!(
        to_safe_html("> some\ntext"),
        "<blockquote>\n<p>some\ntext</p>\n</blockquote>\n"
    );
    assert_eq!(
        to_safe_html("- some\ntext"),
        "<ul>\n<li>some\ntext</li>\n</ul>\n"
    );
    // …but a heading or an open code fence does not.
    assert_eq!(
        to_safe_html("> # T\nnext"),
        "<blockquote>\n<h1>T</h1>\n</blockquote>\n<p>next</p>\n"
    );
    let fenced = to_safe_html("- ```\n  code\nnext");
    assert!(fenced.ends_with("<p>next</p>\n"), "{fenced}");
    assert!(fenced.contains("<pre><code>code\n"), "{fenced}");
}

/// The exported report keeps exactly the links the app keeps: rendering an entry before and
/// after core's `defang` gives the same targets, so the report neutralises what the app does,
/// no more and no less.
#[test]
fn the_report_keeps_exactly_the_links_the_app_keeps() {
    fn hrefs(html: &str) -> Vec<String> {
        html.split("href=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap_or("").to_string())
            .collect()
    }
    let mut kept = 0;
    let mut sources = hostile();
    sources.push(
        "[a](https://a.example) and ![b](https://b.example/p.png) and [c](mailto:c@d.org)".into(),
    );
    for source in &sources {
        let app = hrefs(&to_safe_html(source));
        let report = hrefs(&to_safe_html(&roundtable_core::safe_markdown::defang(
            source,
        )));
        assert_eq!(app, report, "{source:?}");
        kept += app.len();
    }
    assert!(kept >= 4, "some links are kept ({kept})");
}

/// The one fold: `<details>`, an optional `<summary>` line and `</details>`, each a line of its
/// own, written as our own tags with the title escaped; Markdown inside renders; a fence inside
/// keeps its `</details>` as code; folds nest; an unclosed fold ends with its container. Any
/// other form (an attribute, text on the same line, inline) stays text.
#[test]
fn a_details_fold_collapses_its_blocks() {
    assert_eq!(
        check("<details>\n<summary>Appendix: the <b>raw</b> records</summary>\n\n### One\n```json\n{\"a\": 1}\n</details>\n```\n</details>\n\nAfter."),
        "<details>\n<summary>Appendix: the &lt;b&gt;raw&lt;/b&gt; records</summary>\n<h3>One</h3>\n<pre><code class=\"language-json\">{&quot;a&quot;: 1}\n&lt;/details&gt;\n</code></pre>\n</details>\n<p>After.</p>\n"
    );
    assert_eq!(
        check("<details>\n- a\n<details>\n<summary>in</summary>\nb\n</details>\n</details>\nc"),
        "<details>\n<summary>Details</summary>\n<ul>\n<li>a</li>\n</ul>\n<details>\n<summary>in</summary>\n<p>b</p>\n</details>\n</details>\n<p>c</p>\n"
    );
    assert_eq!(
        check("> <details>\n> <summary>q</summary>\n> x\n\ny"),
        "<blockquote>\n<details>\n<summary>q</summary>\n<p>x</p>\n</details>\n</blockquote>\n<p>y</p>\n"
    );
    for text in [
        "<details open>\nx\n</details>",
        "<details ontoggle=\"alert(1)\">\nx\n</details>",
        "<details>x</details>",
        "a <details> b",
        "<DETAILS>\nx",
    ] {
        let html = check(text);
        assert!(!html.contains("<details"), "{text} → {html}");
    }
    assert_eq!(
        check("<details>\n<summary onclick=\"x()\">t</summary>\n"),
        "<details>\n<summary>Details</summary>\n<p>&lt;summary onclick=&quot;x()&quot;&gt;t&lt;/summary&gt;</p>\n</details>\n"
    );
    // A stray closing line is text.
    assert_eq!(check("</details>"), "<p>&lt;/details&gt;</p>\n");
}
