//! Model Markdown to HTML that is safe to put into the page.
//!
//! Everything a model writes is untrusted: a product version may carry `<script>`, an `onerror`
//! attribute, an SVG with handlers or a `javascript:` link, on purpose or by accident. Our own
//! small renderer (CommonMark and GFM where model documents go: headings, paragraphs, emphasis,
//! strikethrough, code, quotes, lists, task lists, rules, tables, links) treats raw HTML (block
//! and inline) as *text*, escaped like any other character — but for one fixed fold: lines that
//! are exactly `<details>`, `<summary>title</summary>` and `</details>` (no attribute) become
//! our own `<details><summary>` with the title escaped and the blocks between rendered as
//! Markdown, so a report's appendix is collapsed here as in viewers that render HTML, and no
//! raw HTML ever passes through; link and image targets survive only
//! with an `http`, `https` or `mailto` scheme, as our own `<a target=_blank rel=noopener>`;
//! anything else keeps its text and loses the link. Images never load (they would let a model
//! make the reader's browser call any host): they show as their alt text, linked when the target
//! is safe. Entities are not decoded: `&` is always escaped, so `&amp;` shows as typed. The only
//! tags written are a fixed list with fixed attributes, and every attribute value is escaped.
//! The result is set as `innerHTML` on an element no script reads, under a CSP with no
//! `unsafe-inline` script.
//!
//! It replaced pulldown-cmark to keep the app's download small (55 KB of gzip, measured). It never
//! panics, and its work grows about linearly with the input (nesting is capped at
//! [`block::MAX_DEPTH`]). Left out on purpose: footnotes, entity decoding, `~single~`
//! strikethrough (models write `~5` for "about 5"), reference definitions spread over several
//! lines, and link titles (pulldown-cmark's output lost them here too).

mod block;
mod html;
mod inline;
mod link;

/// Renders untrusted Markdown to HTML with raw HTML escaped and only safe link schemes kept.
pub fn to_safe_html(markdown: &str) -> String {
    let markdown = markdown.replace('\0', "\u{FFFD}");
    let mut refs = link::Refs::default();
    let blocks = block::parse(&markdown, &mut refs);
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::blocks(&mut out, &blocks, &refs, false);
    out
}

#[cfg(any(test, fuzzing))]
pub(crate) mod inert;
#[cfg(test)]
mod pathological;
#[cfg(test)]
mod tests;
