//! Blocks: the line structure of a document (headings, paragraphs, code, quotes, lists, rules,
//! tables), parsed into a tree whose leaves still hold their raw inline text.
//!
//! The parser follows CommonMark and GFM where model-written documents go, and stays simple
//! elsewhere: no HTML blocks (raw HTML is text) but one fixed fold — a line `<details>`, an
//! optional line `<summary>title</summary>`, the blocks up to a line `</details>` (or the end of
//! the container), each of those lines exactly so, with no attribute —, which
//! [`Block::Fold`] writes as our own tags; reference definitions on one line only, and a
//! list item also takes a nested list indented by two or more columns under its marker. Quotes
//! and lists nest at most [`MAX_DEPTH`] deep; deeper markers are text, so every line is visited
//! a bounded number of times whatever the input.

use super::link::{unescape, Refs, MAX_LABEL};

/// How deep quotes and lists may nest before their markers count as text.
pub(super) const MAX_DEPTH: usize = 16;

/// A block of a document. Text fields are raw Markdown for the inline renderer.
pub(super) enum Block {
    /// `#`…`######` or a setext underline: level 1–6 and its text.
    Heading(u8, String),
    /// Lines of text; soft and hard line breaks are still in it.
    Paragraph(String),
    /// A fenced or indented code block: the info string's first word and the code.
    Code(String, String),
    /// A `>` block quote.
    Quote(Vec<Block>),
    /// A bullet list (no start) or an ordered list with its start number.
    List {
        /// `Some(n)` for an ordered list starting at `n`.
        start: Option<u32>,
        /// Tight lists show their paragraphs without `<p>`.
        tight: bool,
        /// The items in order.
        items: Vec<Item>,
    },
    /// `---`, `***` or `___`.
    Rule,
    /// A GFM table: column alignments, header cells, body rows (already as many cells as columns).
    Table(Vec<Align>, Vec<String>, Vec<Vec<String>>),
    /// A collapsed section (`<details>` lines, see the module docs): its title as plain text
    /// (`None`: no summary line) and its blocks. Written by the renderer with fixed tags, so no
    /// raw HTML ever passes through.
    Fold(Option<String>, Vec<Block>),
}

/// One list item: its task box (`Some(checked)` for `- [ ]`/`- [x]`) and its blocks.
pub(super) struct Item {
    /// Whether the item starts with a task box, and whether it is ticked.
    pub(super) task: Option<bool>,
    /// The item's content.
    pub(super) blocks: Vec<Block>,
}

/// The alignment of a table column, from the colons of its delimiter cell.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Align {
    /// No colon.
    None,
    /// `:---`
    Left,
    /// `:---:`
    Center,
    /// `---:`
    Right,
}

/// Parses a document into blocks, collecting its reference definitions into `refs`.
pub(super) fn parse(markdown: &str, refs: &mut Refs) -> Vec<Block> {
    let lines: Vec<String> = markdown.lines().map(str::to_owned).collect();
    Parser { refs }.blocks(&lines, 0).0
}

/// The block parser: walks a container's lines, recursing into quotes and list items.
struct Parser<'r> {
    refs: &'r mut Refs,
}

impl Parser<'_> {
    /// The blocks of a container's lines, and whether a blank line separates two of them (which
    /// makes a list item loose).
    fn blocks(&mut self, lines: &[String], depth: usize) -> (Vec<Block>, bool) {
        let mut out = Vec::new();
        let mut gap = false;
        let mut blank = false;
        let mut i = 0;
        let nest = depth < MAX_DEPTH;
        while i < lines.len() {
            let line = lines[i].as_str();
            let (cols, at) = indent(line);
            if at == line.len() {
                blank = true;
                i += 1;
                continue;
            }
            gap |= blank && !out.is_empty();
            blank = false;
            let rest = &line[at..];
            if cols >= 4 {
                i = indented_code(lines, i, &mut out);
            } else if let Some(fence) = Fence::open(rest) {
                i = fence.collect(lines, i, cols, &mut out);
            } else if let Some(heading) = atx_heading(rest) {
                out.push(heading);
                i += 1;
            } else if is_rule(rest) {
                out.push(Block::Rule);
                i += 1;
            } else if nest && rest.trim_end() == FOLD_OPEN {
                i = self.fold(lines, i, depth, &mut out);
            } else if nest && rest.starts_with('>') {
                i = self.quote(lines, i, depth, &mut out);
            } else if nest && Marker::parse(rest).is_some() {
                i = self.list(lines, i, depth, &mut out);
            } else if let Some(align) = table_head(lines, i) {
                i = table(lines, i, align, depth, &mut out);
            } else {
                i = self.paragraph(lines, i, depth, &mut out);
            }
        }
        (out, gap)
    }

    /// A paragraph from line `i` (or the reference definitions that open it); returns the next
    /// line to look at.
    fn paragraph(
        &mut self,
        lines: &[String],
        i: usize,
        depth: usize,
        out: &mut Vec<Block>,
    ) -> usize {
        let mut j = i;
        while let Some((label, url)) = lines.get(j).and_then(|l| definition(l)) {
            self.refs.define(label, url);
            j += 1;
        }
        if j > i {
            return j;
        }
        let mut text = lines[i].trim_start().to_owned();
        j = i + 1;
        while let Some(line) = lines.get(j) {
            let (cols, at) = indent(line);
            if at == line.len() {
                break;
            }
            if cols < 4 {
                if let Some(level) = setext(&line[at..]) {
                    out.push(Block::Heading(level, text.trim().to_owned()));
                    return j + 1;
                }
            }
            if interrupts(lines, j, depth) {
                break;
            }
            text.push('\n');
            text.push_str(&line[at..]);
            j += 1;
        }
        out.push(Block::Paragraph(text.trim_end().to_owned()));
        j
    }

    /// A fold from its `<details>` line at `i`: the summary line, if next, then the lines up
    /// to its own `</details>` (folds inside it and code fences taken into account); returns the
    /// line after it.
    fn fold(&mut self, lines: &[String], i: usize, depth: usize, out: &mut Vec<Block>) -> usize {
        let mut j = i + 1;
        let summary = lines.get(j).and_then(|l| summary(l)).map(|t| {
            j += 1;
            t.to_owned()
        });
        let start = j;
        let mut level = 1;
        let mut open: Option<Fence> = None;
        while let Some(line) = lines.get(j) {
            let (cols, at) = indent(line);
            let rest = line[at..].trim_end();
            j += 1;
            if cols >= 4 {
                continue;
            }
            match &open {
                Some(fence) => {
                    let run = rest.bytes().take_while(|&b| b == fence.mark).count();
                    if run >= fence.len && run == rest.len() {
                        open = None;
                    }
                }
                None if rest == FOLD_OPEN => level += 1,
                None if rest == FOLD_CLOSE => {
                    level -= 1;
                    if level == 0 {
                        let inner = self.blocks(&lines[start..j - 1], depth + 1).0;
                        out.push(Block::Fold(summary, inner));
                        return j;
                    }
                }
                None => open = Fence::open(rest),
            }
        }
        let inner = self.blocks(&lines[start..], depth + 1).0;
        out.push(Block::Fold(summary, inner));
        j
    }

    /// A block quote from line `i`: its `>` lines and lazy continuation lines.
    fn quote(&mut self, lines: &[String], i: usize, depth: usize, out: &mut Vec<Block>) -> usize {
        let mut inner: Vec<String> = Vec::new();
        let mut j = i;
        while let Some(line) = lines.get(j) {
            let (cols, at) = indent(line);
            let rest = &line[at..];
            if cols < 4 && rest.starts_with('>') {
                inner.push(dedent(&rest[1..], 1));
            } else if at < line.len()
                && continues_paragraph(&inner, depth)
                && !starts_block(line, depth)
            {
                inner.push(rest.to_owned());
            } else {
                break;
            }
            j += 1;
        }
        out.push(Block::Quote(self.blocks(&inner, depth + 1).0));
        j
    }

    /// A list from line `i`: items with the same kind of marker, each with the lines indented
    /// under it.
    fn list(&mut self, lines: &[String], i: usize, depth: usize, out: &mut Vec<Block>) -> usize {
        let mut items = Vec::new();
        let mut loose = false;
        let mut start = None;
        let mut kind = 0;
        let mut j = i;
        while let Some(line) = lines.get(j) {
            let (mark_cols, at) = indent(line);
            let Some(marker) = Marker::parse(&line[at..]).filter(|_| mark_cols < 4) else {
                break;
            };
            if items.is_empty() {
                kind = marker.kind;
                start = marker.start;
            } else if marker.kind != kind {
                break;
            }
            let mut content = mark_cols + marker.width;
            let after = &line[at + marker.len..];
            let mut body = vec![dedent(after, marker.width - marker.len)];
            j += 1;
            while let Some(line) = lines.get(j) {
                let (cols, at) = indent(line);
                let after_blank = body.last().is_some_and(|l| is_blank(l));
                if at == line.len() {
                    body.push(String::new());
                } else if cols >= content {
                    body.push(dedent(line, content));
                } else if cols >= mark_cols + 2 && Marker::parse(&line[at..]).is_some() {
                    // A nested list indented less than CommonMark wants (`1.` then two spaces):
                    // the item's content starts at its column from here on.
                    content = cols;
                    body.push(dedent(line, content));
                } else if !after_blank
                    && continues_paragraph(&body, depth)
                    && !starts_block(line, depth)
                {
                    body.push(line[at..].to_owned());
                } else {
                    break;
                }
                j += 1;
            }
            let mut trailing = 0;
            while body.len() > 1 && body.last().is_some_and(|l| is_blank(l)) {
                body.pop();
                trailing += 1;
            }
            let task = task_box(&mut body[0]);
            let (blocks, gap) = self.blocks(&body, depth + 1);
            loose |= gap;
            items.push(Item { task, blocks });
            let next_is_item = lines.get(j).is_some_and(|l| {
                let (cols, at) = indent(l);
                cols < 4 && Marker::parse(&l[at..]).is_some_and(|m| m.kind == kind)
            });
            if !next_is_item {
                // Blank lines after the last item belong to whatever follows the list.
                j -= trailing;
                break;
            }
            loose |= trailing > 0;
        }
        out.push(Block::List {
            start,
            tight: !loose,
            items,
        });
        j
    }
}

/// The line that opens a fold, exactly (after up to three spaces).
const FOLD_OPEN: &str = "<details>";
/// The line that closes a fold.
const FOLD_CLOSE: &str = "</details>";

/// The title of a `<summary>title</summary>` line (up to three spaces before it).
fn summary(line: &str) -> Option<&str> {
    let (cols, at) = indent(line);
    let text = line[at..]
        .trim_end()
        .strip_prefix("<summary>")?
        .strip_suffix("</summary>")?;
    (cols < 4).then_some(text.trim())
}

/// Whether a line has nothing but whitespace.
fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| b == b' ' || b == b'\t')
}

/// The columns of leading whitespace (a tab runs to the next multiple of 4) and the byte where
/// the text starts.
fn indent(line: &str) -> (usize, usize) {
    let mut cols = 0;
    for (at, b) in line.bytes().enumerate() {
        match b {
            b' ' => cols += 1,
            b'\t' => cols += 4 - cols % 4,
            _ => return (cols, at),
        }
    }
    (cols, line.len())
}

/// The line without its first `n` columns of leading whitespace; a tab cut in two leaves spaces.
fn dedent(line: &str, n: usize) -> String {
    let mut cols = 0;
    for (at, b) in line.bytes().enumerate() {
        if cols >= n {
            return line[at..].to_owned();
        }
        match b {
            b' ' => cols += 1,
            b'\t' => {
                let width = 4 - cols % 4;
                if cols + width > n {
                    let mut out = " ".repeat(cols + width - n);
                    out.push_str(&line[at + 1..]);
                    return out;
                }
                cols += width;
            }
            _ => return line[at..].to_owned(),
        }
    }
    String::new()
}

/// Whether the line at `j` ends a paragraph: a block that may interrupt one starts there.
fn interrupts(lines: &[String], j: usize, depth: usize) -> bool {
    let line = lines[j].as_str();
    let (cols, at) = indent(line);
    if cols >= 4 {
        return false;
    }
    let rest = &line[at..];
    let nest = depth < MAX_DEPTH;
    Fence::open(rest).is_some()
        || atx_heading(rest).is_some()
        || is_rule(rest)
        || (nest && rest.trim_end() == FOLD_OPEN)
        || (nest && rest.starts_with('>'))
        || (nest && Marker::parse(rest).is_some_and(|m| !m.empty && m.start.is_none_or(|n| n == 1)))
        || table_head(lines, j).is_some()
}

/// Whether a container's lines so far end in paragraph text, the only thing a lazy line (one
/// without the container's `>` or indentation) may continue: not after a heading, a rule or a
/// blank line, and never inside a code fence left open.
fn continues_paragraph(lines: &[String], depth: usize) -> bool {
    let Some(last) = lines.last() else {
        return false;
    };
    if is_blank(last) || starts_block(last, depth) {
        return false;
    }
    let mut open: Option<Fence> = None;
    for line in lines {
        let (cols, at) = indent(line);
        if cols >= 4 {
            continue;
        }
        let rest = line[at..].trim_end();
        match &open {
            Some(fence) => {
                let run = rest.bytes().take_while(|&b| b == fence.mark).count();
                if run >= fence.len && run == rest.len() {
                    open = None;
                }
            }
            None => open = Fence::open(rest),
        }
    }
    open.is_none()
}

/// Whether a line, outside a paragraph, starts a block (so it cannot be a lazy continuation).
fn starts_block(line: &str, depth: usize) -> bool {
    let (cols, at) = indent(line);
    let rest = &line[at..];
    cols < 4
        && (Fence::open(rest).is_some()
            || atx_heading(rest).is_some()
            || is_rule(rest)
            || (depth < MAX_DEPTH
                && (rest.starts_with('>')
                    || rest.trim_end() == FOLD_OPEN
                    || Marker::parse(rest).is_some())))
}

/// A list marker at the start of a line (after its indentation).
struct Marker {
    /// `-`, `*` or `+` for bullets; `.` or `)` for ordered items. A list keeps one kind.
    kind: u8,
    /// The number of an ordered item.
    start: Option<u32>,
    /// Bytes of the marker itself (`-`, `1.`, `10)`).
    len: usize,
    /// Columns from the marker to the item's content.
    width: usize,
    /// Nothing follows the marker on its line.
    empty: bool,
}

impl Marker {
    /// The marker that starts `rest`, if any (a thematic break is not one).
    fn parse(rest: &str) -> Option<Marker> {
        if is_rule(rest) {
            return None;
        }
        let bytes = rest.as_bytes();
        let (kind, start, len) = match bytes.first()? {
            b @ (b'-' | b'*' | b'+') => (*b, None, 1),
            _ => {
                let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
                let delim = *bytes.get(digits)?;
                if digits == 0 || digits > 9 || !(delim == b'.' || delim == b')') {
                    return None;
                }
                (delim, rest[..digits].parse().ok(), digits + 1)
            }
        };
        let after = &rest[len..];
        let (spaces, at) = indent(after);
        if at == after.len() {
            return Some(Marker {
                kind,
                start,
                len,
                width: len + 1,
                empty: true,
            });
        }
        if spaces == 0 {
            return None;
        }
        // Five or more spaces: the content is indented code one column after the marker.
        let width = if spaces > 4 { len + 1 } else { len + spaces };
        Some(Marker {
            kind,
            start,
            len,
            width,
            empty: false,
        })
    }
}

/// Takes a leading `[ ]` or `[x]` task box off an item's first line.
fn task_box(first: &mut String) -> Option<bool> {
    let checked = match first.get(..3)? {
        "[ ]" => false,
        "[x]" | "[X]" => true,
        _ => return None,
    };
    if !matches!(first.as_bytes().get(3), None | Some(b' ' | b'\t')) {
        return None;
    }
    first.replace_range(..first.len().min(4), "");
    Some(checked)
}

/// An ATX heading (`# Title`, `## Title ##`).
fn atx_heading(rest: &str) -> Option<Block> {
    let level = rest.bytes().take_while(|&b| b == b'#').count();
    let after = &rest[level..];
    if !(1..=6).contains(&level) || !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let text = after.trim();
    let closed = text.trim_end_matches('#');
    let text = if closed.is_empty() {
        closed
    } else if closed.ends_with([' ', '\t']) {
        closed.trim_end()
    } else {
        text
    };
    Some(Block::Heading(level as u8, text.to_owned()))
}

/// A setext underline under a paragraph: `===` makes it a level-1 heading, `---` level 2.
fn setext(rest: &str) -> Option<u8> {
    let marks = rest.trim_end();
    if !marks.is_empty() && marks.bytes().all(|b| b == b'=') {
        Some(1)
    } else if !marks.is_empty() && marks.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}

/// A thematic break: three or more of one of `-`, `*`, `_`, with spaces allowed between.
fn is_rule(rest: &str) -> bool {
    let Some(mark) = rest
        .bytes()
        .next()
        .filter(|b| matches!(b, b'-' | b'*' | b'_'))
    else {
        return false;
    };
    let mut count = 0;
    for b in rest.bytes() {
        if b == mark {
            count += 1;
        } else if b != b' ' && b != b'\t' {
            return false;
        }
    }
    count >= 3
}

/// An opening code fence: three or more backticks or tildes and an info string.
struct Fence {
    /// `` ` `` or `~`.
    mark: u8,
    /// The closing fence is at least this long.
    len: usize,
    /// The info string's first word: the code's language.
    info: String,
}

impl Fence {
    /// The fence that opens at `rest`, if any (a backtick fence's info has no backtick).
    fn open(rest: &str) -> Option<Fence> {
        let mark = *rest
            .as_bytes()
            .first()
            .filter(|&&b| b == b'`' || b == b'~')?;
        let len = rest.bytes().take_while(|&b| b == mark).count();
        let info = rest[len..].trim();
        if len < 3 || (mark == b'`' && info.contains('`')) {
            return None;
        }
        let word = info.split_whitespace().next().unwrap_or_default();
        Some(Fence {
            mark,
            len,
            info: word.to_owned(),
        })
    }

    /// The code up to the closing fence (or the end of the container), without the fence's own
    /// indentation; returns the line after the closing fence.
    fn collect(self, lines: &[String], i: usize, fence_cols: usize, out: &mut Vec<Block>) -> usize {
        let mut code = String::new();
        let mut j = i + 1;
        while let Some(line) = lines.get(j) {
            j += 1;
            let (cols, at) = indent(line);
            let rest = line[at..].trim_end();
            let run = rest.bytes().take_while(|&b| b == self.mark).count();
            if cols < 4 && run >= self.len && run == rest.len() {
                break;
            }
            code.push_str(&dedent(line, fence_cols));
            code.push('\n');
        }
        out.push(Block::Code(self.info, code));
        j
    }
}

/// An indented code block from line `i`: lines indented four or more columns, and blank lines
/// between them.
fn indented_code(lines: &[String], i: usize, out: &mut Vec<Block>) -> usize {
    let mut code = String::new();
    let mut end = i;
    let mut j = i;
    while let Some(line) = lines.get(j) {
        let (cols, at) = indent(line);
        if at < line.len() && cols < 4 {
            break;
        }
        j += 1;
        if at < line.len() {
            for _ in end..j - 1 {
                code.push('\n');
            }
            code.push_str(&dedent(line, 4));
            code.push('\n');
            end = j;
        }
    }
    out.push(Block::Code(String::new(), code));
    end
}

/// The cells of a table row: split at unescaped `|` (`\|` is a pipe inside a cell), without
/// the optional outer pipes, trimmed.
fn cells(line: &str) -> Vec<String> {
    let mut row = line.trim();
    row = row.strip_prefix('|').unwrap_or(row);
    if row.ends_with('|') && !row.ends_with("\\|") {
        row = &row[..row.len() - 1];
    }
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' => cells.push(std::mem::take(&mut cell).trim().to_owned()),
            c => cell.push(c),
        }
    }
    cells.push(cell.trim().to_owned());
    cells
}

/// The alignments of a table whose header row is line `i`: the next line must be a delimiter
/// row (`| --- | :-: |`) with as many cells as the header.
fn table_head(lines: &[String], i: usize) -> Option<Vec<Align>> {
    let head = lines.get(i)?;
    let delim = lines.get(i + 1)?;
    if !head.contains('|') || !delim.contains('|') || indent(delim).0 >= 4 {
        return None;
    }
    let align = cells(delim)
        .iter()
        .map(|cell| {
            let left = cell.starts_with(':');
            let right = cell.ends_with(':');
            let dashes = cell.trim_start_matches(':').trim_end_matches(':');
            if dashes.is_empty() || !dashes.bytes().all(|b| b == b'-') {
                return None;
            }
            Some(match (left, right) {
                (true, true) => Align::Center,
                (true, false) => Align::Left,
                (false, true) => Align::Right,
                (false, false) => Align::None,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    (align.len() == cells(head).len()).then_some(align)
}

/// A table from its header at line `i`; body rows run to a blank line or another block.
fn table(
    lines: &[String],
    i: usize,
    align: Vec<Align>,
    depth: usize,
    out: &mut Vec<Block>,
) -> usize {
    let row = |line: &str| {
        let mut cells = cells(line);
        cells.resize(align.len(), String::new());
        cells
    };
    let head = row(&lines[i]);
    let mut rows = Vec::new();
    let mut j = i + 2;
    while let Some(line) = lines.get(j) {
        if is_blank(line) || starts_block(line, depth) {
            break;
        }
        rows.push(row(line));
        j += 1;
    }
    out.push(Block::Table(align, head, rows));
    j
}

/// A one-line reference definition: `[label]: url` with an optional quoted title (dropped).
fn definition(line: &str) -> Option<(&str, String)> {
    let (cols, at) = indent(line);
    let rest = line[at..].strip_prefix('[').filter(|_| cols < 4)?;
    let mut end = None;
    let mut escaped = false;
    for (k, b) in rest.bytes().enumerate().take(MAX_LABEL + 1) {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'[' => return None,
            b']' => {
                end = Some(k);
                break;
            }
            _ => {}
        }
    }
    let end = end?;
    let label = &rest[..end];
    let after = rest[end + 1..].strip_prefix(':')?.trim();
    if label.trim().is_empty() || after.is_empty() {
        return None;
    }
    let (url, title) = match after.strip_prefix('<') {
        Some(pointy) => {
            let close = pointy.find('>')?;
            (&pointy[..close], pointy[close + 1..].trim())
        }
        None => match after.find([' ', '\t']) {
            Some(space) => (&after[..space], after[space..].trim()),
            None => (after, ""),
        },
    };
    let quoted = title.len() >= 2
        && ((title.starts_with('"') && title.ends_with('"'))
            || (title.starts_with('\'') && title.ends_with('\''))
            || (title.starts_with('(') && title.ends_with(')')));
    if !(title.is_empty() || quoted) {
        return None;
    }
    Some((label, unescape(url)))
}
