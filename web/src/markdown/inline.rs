//! Inline Markdown: emphasis, strikethrough, code spans, links, images, autolinks, backslash
//! escapes and line breaks, rendered to HTML with every piece of text escaped.
//!
//! The text is scanned once into nodes; brackets and `*`/`_`/`~~` runs are matched afterwards
//! with CommonMark's delimiter algorithm (with its per-kind lower bounds), so no input makes the
//! work grow much faster than its length: a code span's closer that was not found is remembered,
//! link targets stop at a `]`, and an opener a link has used up is skipped in one comparison.

use super::html::escape;
use super::link::{anchor, is_safe_url, unescape, Refs, MAX_LABEL};

/// Parenthesis nesting allowed in a link target, as in CommonMark.
const MAX_PARENS: usize = 32;

/// A piece of output, kept apart where matching brackets or delimiters may still change it.
enum Node {
    /// Finished HTML: escaped text and tags.
    Html(String),
    /// `[` or `![` that may still open a link or an image.
    Bracket(&'static str),
    /// An emphasis or strikethrough run, by index into the delimiter list.
    Delim(usize),
    /// The start of a link or image: our `<a>` when its target is safe.
    LinkOpen(Option<String>),
    /// The end of a link or image.
    LinkClose,
}

/// A run of `*`, `_` or `~~` and the tags matched to it so far.
struct Delim {
    ch: u8,
    /// Characters not yet used by a match (shown as text at the end).
    len: usize,
    /// The run's length as written (for CommonMark's rule of three).
    orig: usize,
    open: bool,
    close: bool,
    /// Closing tags, innermost first, written before the run's leftover characters.
    before: Vec<&'static str>,
    /// Opening tags, innermost first, written (outermost first) after them.
    after: Vec<&'static str>,
}

/// An unmatched `[` or `![`.
struct Bracket {
    node: usize,
    image: bool,
    /// Order of appearance: a link deactivates every `[` that came before it.
    seq: usize,
    /// How many delimiters there were when it was seen (emphasis inside a link stays inside).
    delims: usize,
    /// Where the link text starts in the source.
    text: usize,
}

/// The inline renderer's state for one block of text.
struct Inline<'t> {
    src: &'t str,
    nodes: Vec<Node>,
    delims: Vec<Delim>,
    /// Delimiters not yet processed, by index into `delims`.
    stack: Vec<usize>,
    brackets: Vec<Bracket>,
    seq: usize,
    /// `[` openers with a smaller `seq` cannot open a link any more.
    link_floor: usize,
    /// Backtick runs with no closer: (length, position the search started).
    no_closer: Vec<(usize, usize)>,
}

/// Renders the inline content of one block (a paragraph, heading or table cell) into `out`.
pub(super) fn render(out: &mut String, src: &str, refs: &Refs) {
    let mut state = Inline {
        src,
        nodes: Vec::new(),
        delims: Vec::new(),
        stack: Vec::new(),
        brackets: Vec::new(),
        seq: 0,
        link_floor: 0,
        no_closer: Vec::new(),
    };
    state.scan(refs);
    state.emphasis(0);
    state.write(out);
}

/// Whether a character counts as punctuation for emphasis (ASCII punctuation or any other
/// non-alphanumeric, non-space symbol).
fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace())
}

impl Inline<'_> {
    /// Adds escaped text.
    fn text(&mut self, text: &str) {
        if let Some(Node::Html(html)) = self.nodes.last_mut() {
            escape(html, text);
        } else {
            let mut html = String::new();
            escape(&mut html, text);
            self.nodes.push(Node::Html(html));
        }
    }

    /// Adds HTML we wrote ourselves.
    fn html(&mut self, tag: &str) {
        if let Some(Node::Html(html)) = self.nodes.last_mut() {
            html.push_str(tag);
        } else {
            self.nodes.push(Node::Html(tag.to_owned()));
        }
    }

    /// Turns the source into nodes; links and images are matched on the way.
    fn scan(&mut self, refs: &Refs) {
        let src = self.src;
        let bytes = src.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            pos = match bytes[pos] {
                b'\\' => match bytes.get(pos + 1) {
                    Some(b'\n') => {
                        self.html("<br />\n");
                        pos + 2
                    }
                    Some(&b) if b.is_ascii_punctuation() => {
                        self.text(&src[pos + 1..pos + 2]);
                        pos + 2
                    }
                    _ => {
                        self.text("\\");
                        pos + 1
                    }
                },
                b'\n' => {
                    let spaces = bytes[..pos]
                        .iter()
                        .rev()
                        .take_while(|&&b| b == b' ')
                        .count();
                    if let Some(Node::Html(html)) = self.nodes.last_mut() {
                        html.truncate(html.trim_end_matches(' ').len());
                    }
                    self.html(if spaces >= 2 { "<br />\n" } else { "\n" });
                    pos + 1
                }
                b'`' => self.code_span(pos),
                b'*' | b'_' | b'~' => self.delim_run(pos),
                b'!' if bytes.get(pos + 1) == Some(&b'[') => self.bracket(pos, true),
                b'[' => self.bracket(pos, false),
                b']' => self.close_bracket(pos, refs),
                b'<' => self.autolink(pos),
                _ => {
                    let end = bytes[pos + 1..]
                        .iter()
                        .position(|b| b"\\\n`*_~![]<".contains(b))
                        .map_or(bytes.len(), |k| pos + 1 + k);
                    self.text(&src[pos..end]);
                    end
                }
            };
        }
    }

    /// A code span from the backtick run at `pos` to the next run of the same length; without
    /// one the backticks are text.
    fn code_span(&mut self, pos: usize) -> usize {
        let bytes = self.src.as_bytes();
        let len = bytes[pos..].iter().take_while(|&&b| b == b'`').count();
        let start = pos + len;
        let known_open = self
            .no_closer
            .iter()
            .any(|&(l, from)| l == len && from <= start);
        let mut at = start;
        let mut close = None;
        while !known_open && at < bytes.len() {
            if bytes[at] != b'`' {
                at += 1;
                continue;
            }
            let run = bytes[at..].iter().take_while(|&&b| b == b'`').count();
            if run == len {
                close = Some(at);
                break;
            }
            at += run;
        }
        let Some(close) = close else {
            if !known_open {
                self.no_closer.push((len, start));
            }
            let src = self.src;
            self.text(&src[pos..start]);
            return start;
        };
        let code = self.src[start..close].replace('\n', " ");
        let strip = code.len() >= 2
            && code.starts_with(' ')
            && code.ends_with(' ')
            && code.bytes().any(|b| b != b' ');
        let code = if strip {
            &code[1..code.len() - 1]
        } else {
            &code
        };
        self.html("<code>");
        if let Some(Node::Html(html)) = self.nodes.last_mut() {
            escape(html, code);
        }
        self.html("</code>");
        close + len
    }

    /// A run of `*`, `_` or `~`: a delimiter when it may open or close (`~` only as `~~`).
    fn delim_run(&mut self, pos: usize) -> usize {
        let src = self.src;
        let ch = src.as_bytes()[pos];
        let len = src.as_bytes()[pos..]
            .iter()
            .take_while(|&&b| b == ch)
            .count();
        let end = pos + len;
        let before = src[..pos].chars().next_back().unwrap_or(' ');
        let after = src[end..].chars().next().unwrap_or(' ');
        let left = !after.is_whitespace()
            && (!is_punct(after) || before.is_whitespace() || is_punct(before));
        let right = !before.is_whitespace()
            && (!is_punct(before) || after.is_whitespace() || is_punct(after));
        let (open, close) = if ch == b'_' {
            (
                left && (!right || is_punct(before)),
                right && (!left || is_punct(after)),
            )
        } else {
            (left, right)
        };
        if !(open || close) || (ch == b'~' && len != 2) {
            self.text(&src[pos..end]);
            return end;
        }
        self.stack.push(self.delims.len());
        self.nodes.push(Node::Delim(self.delims.len()));
        self.delims.push(Delim {
            ch,
            len,
            orig: len,
            open,
            close,
            before: Vec::new(),
            after: Vec::new(),
        });
        end
    }

    /// A `[` or `![` that may open a link or image.
    fn bracket(&mut self, pos: usize, image: bool) -> usize {
        self.brackets.push(Bracket {
            node: self.nodes.len(),
            image,
            seq: self.seq,
            delims: self.stack.len(),
            text: pos + 1 + usize::from(image),
        });
        self.seq += 1;
        self.nodes
            .push(Node::Bracket(if image { "![" } else { "[" }));
        pos + 1 + usize::from(image)
    }

    /// A `]`: closes the nearest bracket as a link or image when a target follows (inline or
    /// by reference); otherwise it is text.
    fn close_bracket(&mut self, pos: usize, refs: &Refs) -> usize {
        let Some(open) = self.brackets.pop() else {
            self.text("]");
            return pos + 1;
        };
        if !open.image && open.seq < self.link_floor {
            self.text("]");
            return pos + 1;
        }
        let target = inline_target(self.src, pos + 1)
            .or_else(|| reference(self.src, pos + 1, &self.src[open.text..pos], refs));
        let Some((url, end)) = target else {
            self.text("]");
            return pos + 1;
        };
        self.emphasis(open.delims);
        self.nodes[open.node] = Node::LinkOpen(is_safe_url(&url).then(|| anchor(&url)));
        self.nodes.push(Node::LinkClose);
        if !open.image {
            self.link_floor = self.seq;
        }
        end
    }

    /// `<scheme:…>` or `<name@host>`; any other `<` is text.
    fn autolink(&mut self, pos: usize) -> usize {
        let rest = &self.src[pos + 1..];
        let end = rest
            .bytes()
            .position(|b| b == b'>' || b == b'<' || b <= b' ')
            .filter(|&k| rest.as_bytes()[k] == b'>');
        let Some(end) = end else {
            self.text("<");
            return pos + 1;
        };
        let inner = &rest[..end];
        let url = if is_uri(inner) {
            inner.to_owned()
        } else if is_email(inner) {
            format!("mailto:{inner}")
        } else {
            self.text("<");
            return pos + 1;
        };
        self.nodes
            .push(Node::LinkOpen(is_safe_url(&url).then(|| anchor(&url))));
        self.text(inner);
        self.nodes.push(Node::LinkClose);
        pos + end + 2
    }

    /// CommonMark's "process emphasis" over the delimiters above `bottom`, which are then
    /// done with. Matches pair each closer with the nearest fitting opener; the lower bound per
    /// kind of closer keeps failed searches from being repeated.
    fn emphasis(&mut self, bottom: usize) {
        let list: Vec<usize> = self.stack.split_off(bottom.min(self.stack.len()));
        let n = list.len();
        // Positions 1..=n are the delimiters in order; 0 and n + 1 are the ends of the list.
        let mut prev: Vec<usize> = (0..n + 2).map(|k| k.saturating_sub(1)).collect();
        let mut next: Vec<usize> = (1..n + 3).collect();
        let mut floor = [0usize; 18];
        let mut c = next[0];
        while c <= n {
            let closer = &self.delims[list[c - 1]];
            if !closer.close {
                c = next[c];
                continue;
            }
            let kind = match closer.ch {
                b'*' => 0,
                b'_' => 6,
                _ => 12,
            } + usize::from(closer.open) * 3
                + closer.orig % 3;
            let mut o = prev[c];
            while o > floor[kind] {
                let opener = &self.delims[list[o - 1]];
                let both = (opener.open && opener.close) || (closer.open && closer.close);
                let three = both
                    && (opener.orig + closer.orig).is_multiple_of(3)
                    && !(opener.orig.is_multiple_of(3) && closer.orig.is_multiple_of(3));
                if opener.ch == closer.ch && opener.open && !three {
                    break;
                }
                o = prev[o];
            }
            if o <= floor[kind] {
                floor[kind] = prev[c];
                let nc = next[c];
                if !closer.open {
                    next[prev[c]] = nc;
                    prev[nc] = prev[c];
                }
                c = nc;
                continue;
            }
            let (oi, ci) = (list[o - 1], list[c - 1]);
            let used = if self.delims[oi].len >= 2 && self.delims[ci].len >= 2 {
                2
            } else {
                1
            };
            let (open_tag, close_tag) = match (closer.ch, used) {
                (b'~', _) => ("<del>", "</del>"),
                (_, 2) => ("<strong>", "</strong>"),
                _ => ("<em>", "</em>"),
            };
            let opener = &mut self.delims[oi];
            opener.len -= used;
            opener.after.push(open_tag);
            let opener_done = opener.len == 0;
            let closer = &mut self.delims[ci];
            closer.len -= used;
            closer.before.push(close_tag);
            let closer_done = closer.len == 0;
            // Delimiters between the two can no longer match anything.
            next[o] = c;
            prev[c] = o;
            if opener_done {
                next[prev[o]] = c;
                prev[c] = prev[o];
            }
            if closer_done {
                let nc = next[c];
                next[prev[c]] = nc;
                prev[nc] = prev[c];
                c = nc;
            }
        }
    }

    /// Writes the nodes; an anchor inside another (an image inside a link) is left out.
    fn write(self, out: &mut String) {
        // Whether each open link or image wrote an `<a>`; at most one is live at a time.
        let mut anchors: Vec<bool> = Vec::new();
        let mut in_anchor = false;
        for node in self.nodes {
            match node {
                Node::Html(html) => out.push_str(&html),
                Node::Bracket(text) => out.push_str(text),
                Node::Delim(k) => {
                    let d = &self.delims[k];
                    out.extend(d.before.iter().copied());
                    out.extend(std::iter::repeat_n(char::from(d.ch), d.len));
                    out.extend(d.after.iter().rev().copied());
                }
                Node::LinkOpen(tag) => {
                    let live = tag.is_some() && !in_anchor;
                    if let Some(tag) = tag.filter(|_| live) {
                        out.push_str(&tag);
                    }
                    in_anchor |= live;
                    anchors.push(live);
                }
                Node::LinkClose => {
                    if anchors.pop() == Some(true) {
                        out.push_str("</a>");
                        in_anchor = false;
                    }
                }
            }
        }
    }
}

/// An inline link target after `](`: `(url "title")`, returned unescaped with the position
/// after `)`. The title is dropped. The URL stops at a `]` so no text is scanned twice.
fn inline_target(src: &str, at: usize) -> Option<(String, usize)> {
    let bytes = src.as_bytes();
    if bytes.get(at) != Some(&b'(') {
        return None;
    }
    let mut k = skip_space(bytes, at + 1);
    let url = if bytes.get(k) == Some(&b'<') {
        let start = k + 1;
        let len = bytes[start..]
            .iter()
            .position(|&b| b == b'>' || b == b'<' || b == b'\n')?;
        k = start + len;
        if bytes[k] != b'>' {
            return None;
        }
        k += 1;
        &src[start..k - 1]
    } else {
        let start = k;
        let mut depth = 0;
        while let Some(&b) = bytes.get(k) {
            match b {
                b'\\' if bytes.get(k + 1).is_some_and(u8::is_ascii_punctuation) => k += 1,
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                b']' => return None,
                _ if b <= b' ' => break,
                _ => {}
            }
            if depth > MAX_PARENS {
                return None;
            }
            k += 1;
        }
        &src[start..k]
    };
    let spaced = skip_space(bytes, k);
    k = spaced;
    if spaced > 0 && bytes[spaced - 1] <= b' ' {
        if let Some(&quote @ (b'"' | b'\'')) = bytes.get(k) {
            let mut j = k + 1;
            while let Some(&b) = bytes.get(j) {
                match b {
                    b'\\' => j += 1,
                    _ if b == quote => break,
                    _ => {}
                }
                j += 1;
            }
            k = skip_space(bytes, j + 1);
        }
    }
    (bytes.get(k) == Some(&b')')).then(|| (unescape(url), k + 1))
}

/// Skips spaces and tabs and at most one line break.
fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    let mut newline = false;
    while let Some(&b) = bytes.get(at) {
        match b {
            b' ' | b'\t' => {}
            b'\n' if !newline => newline = true,
            _ => break,
        }
        at += 1;
    }
    at
}

/// A reference link's target: `[text][label]`, `[text][]` or `[text]`, from the document's
/// definitions; returns the target and the position after the link.
fn reference(src: &str, at: usize, text: &str, refs: &Refs) -> Option<(String, usize)> {
    let rest = &src.as_bytes()[at..];
    if rest.first() == Some(&b'[') {
        let len = rest[1..]
            .iter()
            .take(MAX_LABEL + 1)
            .position(|&b| b == b']' || b == b'[')?;
        if rest[1 + len] != b']' {
            return None;
        }
        let label = &src[at + 1..at + 1 + len];
        let label = if label.is_empty() { text } else { label };
        return refs.get(label).map(|url| (url.to_owned(), at + len + 2));
    }
    refs.get(text).map(|url| (url.to_owned(), at))
}

/// `scheme:rest` with a 2–32 character scheme, as CommonMark's autolinks.
fn is_uri(inner: &str) -> bool {
    let Some((scheme, _)) = inner.split_once(':') else {
        return false;
    };
    (2..=32).contains(&scheme.len())
        && scheme.as_bytes()[0].is_ascii_alphabetic()
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
}

/// `name@host.example`, as CommonMark's email autolinks.
fn is_email(inner: &str) -> bool {
    let Some((name, host)) = inner.split_once('@') else {
        return false;
    };
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(&b))
        && !host.is_empty()
        && host.split('.').all(|part| {
            !part.is_empty()
                && part.len() <= 63
                && !part.starts_with('-')
                && !part.ends_with('-')
                && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}
