//! HTML output: blocks to tags, and the escaping every piece of text goes through.
//!
//! Only this module and [`super::inline`] write tags, all from a fixed list with fixed
//! attributes; everything that came from the document is escaped on the way out.

use super::block::{Align, Block, Item};
use super::inline;
use super::link::Refs;

/// Writes `text` with `&`, `<`, `>`, `"` and `'` escaped, so it is text in an element or an
/// attribute value. `&` is always escaped: entities a model writes show as typed.
pub(super) fn escape(out: &mut String, text: &str) {
    let mut from = 0;
    for (at, b) in text.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.push_str(&text[from..at]);
        out.push_str(entity);
        from = at + 1;
    }
    out.push_str(&text[from..]);
}

/// Writes blocks as HTML; in a tight list item paragraphs are bare text.
pub(super) fn blocks(out: &mut String, blocks: &[Block], refs: &Refs, tight: bool) {
    for (k, block) in blocks.iter().enumerate() {
        match block {
            Block::Paragraph(text) if tight => {
                inline::render(out, text, refs);
                if k + 1 < blocks.len() {
                    out.push('\n');
                }
            }
            _ => self::block(out, block, refs),
        }
    }
}

/// Writes one block.
fn block(out: &mut String, block: &Block, refs: &Refs) {
    match block {
        Block::Heading(level, text) => {
            let level = char::from(b'0' + level);
            out.push_str("<h");
            out.push(level);
            out.push('>');
            inline::render(out, text, refs);
            out.push_str("</h");
            out.push(level);
            out.push_str(">\n");
        }
        Block::Paragraph(text) => {
            out.push_str("<p>");
            inline::render(out, text, refs);
            out.push_str("</p>\n");
        }
        Block::Code(info, code) => {
            out.push_str("<pre><code");
            if !info.is_empty() {
                out.push_str(" class=\"language-");
                escape(out, info);
                out.push('"');
            }
            out.push('>');
            escape(out, code);
            out.push_str("</code></pre>\n");
        }
        Block::Quote(inner) => {
            out.push_str("<blockquote>\n");
            blocks(out, inner, refs, false);
            out.push_str("</blockquote>\n");
        }
        Block::List {
            start,
            tight,
            items,
        } => list(out, *start, *tight, items, refs),
        Block::Rule => out.push_str("<hr />\n"),
        Block::Table(align, head, rows) => table(out, align, head, rows, refs),
        Block::Fold(summary, inner) => {
            out.push_str("<details>\n<summary>");
            escape(out, summary.as_deref().unwrap_or("Details"));
            out.push_str("</summary>\n");
            blocks(out, inner, refs, false);
            out.push_str("</details>\n");
        }
    }
}

/// Writes a list; a task item's box goes into its first paragraph.
fn list(out: &mut String, start: Option<u32>, tight: bool, items: &[Item], refs: &Refs) {
    match start {
        None => out.push_str("<ul>\n"),
        Some(1) => out.push_str("<ol>\n"),
        Some(n) => out.push_str(&format!("<ol start=\"{n}\">\n")),
    }
    let tag = if start.is_some() { "ol" } else { "ul" };
    for item in items {
        out.push_str("<li>");
        let mut rest: &[Block] = &item.blocks;
        if let Some(checked) = item.task {
            let checkbox = if checked {
                "<input disabled=\"\" type=\"checkbox\" checked=\"\"/>\n"
            } else {
                "<input disabled=\"\" type=\"checkbox\"/>\n"
            };
            match rest.split_first() {
                Some((Block::Paragraph(text), after)) => {
                    if !tight {
                        out.push_str("<p>");
                    }
                    out.push_str(checkbox);
                    inline::render(out, text, refs);
                    out.push_str(if tight { "" } else { "</p>\n" });
                    if tight && !after.is_empty() {
                        out.push('\n');
                    }
                    rest = after;
                }
                _ => out.push_str(checkbox),
            }
        }
        blocks(out, rest, refs, tight);
        out.push_str("</li>\n");
    }
    out.push_str("</");
    out.push_str(tag);
    out.push_str(">\n");
}

/// Writes a table; alignment is a class (styles.css), since a `style` attribute looks hostile.
fn table(out: &mut String, align: &[Align], head: &[String], rows: &[Vec<String>], refs: &Refs) {
    let row = |out: &mut String, cells: &[String], tag: &str| {
        out.push_str("<tr>");
        for (cell, align) in cells.iter().zip(align) {
            out.push('<');
            out.push_str(tag);
            out.push_str(match align {
                Align::None => ">",
                Align::Left => " class=\"align-left\">",
                Align::Center => " class=\"align-center\">",
                Align::Right => " class=\"align-right\">",
            });
            inline::render(out, cell, refs);
            out.push_str("</");
            out.push_str(tag);
            out.push('>');
        }
        out.push_str("</tr>\n");
    };
    out.push_str("<table>\n<thead>\n");
    row(out, head, "th");
    out.push_str("</thead>\n");
    if !rows.is_empty() {
        out.push_str("<tbody>\n");
        for cells in rows {
            row(out, cells, "td");
        }
        out.push_str("</tbody>\n");
    }
    out.push_str("</table>\n");
}
