//! Model text made safe for any Markdown viewer, by the rules the app's own renderer keeps.
//!
//! The exported Markdown report carries what models wrote. The app shows that text through its
//! own renderer, which escapes raw HTML and keeps only `http:`, `https:` and `mailto:` link
//! targets ([`is_safe_url`], the one rule both use). A report opened in a viewer that does not
//! sanitise would run whatever HTML and `javascript:` / `data:` links it holds, so
//! [`defang`] rewrites it first, by the same rules:
//! - every `<` outside code is written `&lt;` (raw HTML, comments and `<…>` autolinks show as
//!   text, as in the app);
//! - a link or image whose target is not safe becomes its text; a safe image becomes a link (the
//!   app shows images as links: no viewer loads a tracking pixel);
//! - a reference definition (`[label]: target`) with an unsafe target is dropped, so links to it
//!   are plain text;
//! - one construct of HTML is kept, the fold the app's renderer writes as its own tags: a line
//!   that is exactly `<details>` or `</details>`, and a line `<summary>title</summary>` (its
//!   title escaped like any text). Viewers that render HTML (GitHub, GitLab, VS Code) show a
//!   collapsed section; the tags carry no attribute, so nothing in them can run.
//!
//! Code spans and fenced code blocks are left as written: every Markdown renderer shows them as
//! text.

/// Whether a link target may be kept: `http://`, `https://` or `mailto:`, exactly at its start.
///
/// Browsers remove tabs and newlines anywhere in a URL and ignore control characters, so
/// `java\tscript:` is `javascript:` to them: a target with any of those (after trimming its ends)
/// is refused outright rather than cleaned. The scheme is then matched on the text as written —
/// `ht tp://…` or `https:/ /…` would resolve as relative URLs into the app (a `#/…` fragment is
/// one of its routes), and fail the prefix test; a space after the prefix (`https://x/a b`) is
/// only part of the path. Relative URLs and fragments are dropped too; `https:/x` without the
/// two slashes is relative as well. An entity (`&#106;avascript:`) fails the prefix test too.
pub fn is_safe_url(url: &str) -> bool {
    let url = url.trim();
    if url
        .chars()
        .any(|c| matches!(c, '\t' | '\n' | '\r') || c.is_control())
    {
        return false;
    }
    let head = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    ["http://", "https://", "mailto:"]
        .iter()
        .any(|scheme| head.starts_with(scheme))
}

/// Rewrites Markdown so a viewer that renders raw HTML and any link still runs nothing: see the
/// module's rules.
pub fn defang(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 16);
    let mut fence: Option<(char, usize)> = None;
    for line in markdown.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let ending = &line[body.len()..];
        let (indent, rest) = inside_containers(body);
        let marker = (indent <= 3)
            .then(|| {
                let c = rest.chars().next()?;
                let n = rest.chars().take_while(|x| *x == c).count();
                (matches!(c, '`' | '~') && n >= 3).then_some((c, n))
            })
            .flatten();
        match (fence, marker) {
            (Some((c, n)), Some((m, k))) if c == m && k >= n && rest[k..].trim().is_empty() => {
                fence = None;
                out.push_str(line);
                continue;
            }
            (Some(_), _) => {
                out.push_str(line);
                continue;
            }
            (None, Some(open)) => {
                fence = Some(open);
                // The info string is text too.
                out.push_str(&body.replace('<', "&lt;"));
                out.push_str(ending);
                continue;
            }
            (None, None) => {}
        }
        if indent <= 3 && matches!(rest.trim_end(), "<details>" | "</details>") {
            out.push_str(line);
            continue;
        }
        if let Some(title) = (indent <= 3)
            .then(|| {
                rest.trim_end()
                    .strip_prefix("<summary>")?
                    .strip_suffix("</summary>")
            })
            .flatten()
        {
            out.push_str(&body[..body.len() - rest.len()]);
            out.push_str("<summary>");
            out.push_str(&inline(title));
            out.push_str("</summary>");
            out.push_str(ending);
            continue;
        }
        if let Some(target) = reference_target(rest).filter(|_| indent <= 3) {
            if !is_safe_url(&unescape(target)) {
                out.push_str(ending);
                continue;
            }
        }
        out.push_str(&inline(body));
        out.push_str(ending);
    }
    out
}

/// A line without the block quote markers and list markers it sits in, and the indentation left
/// before its content (fences and reference definitions may sit inside either).
fn inside_containers(line: &str) -> (usize, &str) {
    let mut rest = line;
    loop {
        let indent = rest.len() - rest.trim_start_matches(' ').len();
        let content = &rest[indent..];
        if indent <= 3 {
            if let Some(after) = content.strip_prefix('>') {
                rest = after.strip_prefix(' ').unwrap_or(after);
                continue;
            }
            let digits = content.chars().take_while(char::is_ascii_digit).count();
            let marker = if digits > 0 && digits <= 9 {
                content[digits..]
                    .starts_with(['.', ')'])
                    .then_some(digits + 1)
            } else {
                content.starts_with(['-', '*', '+']).then_some(1)
            };
            if let Some(m) = marker {
                if content[m..].starts_with(' ') {
                    rest = &content[m + 1..];
                    continue;
                }
            }
        }
        return (indent, content);
    }
}

/// The target of a reference definition line (`[label]: target "title"`), if the line is one.
fn reference_target(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find("]:")?;
    if close == 0 || rest[..close].contains(['[', ']']) {
        return None;
    }
    let target = rest[close + 2..].trim_start();
    let target = match target.strip_prefix('<') {
        Some(t) => t.split('>').next().unwrap_or(t),
        None => target.split(char::is_whitespace).next().unwrap_or(target),
    };
    Some(target)
}

/// One line outside code blocks: `<` escaped outside code spans, links checked.
fn inline(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    // Open `[` (and `![`) positions in `out`, innermost last.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                // `\<` is already text; keep escapes as written.
                out.push(c);
                out.push(chars[i + 1]);
                i += 2;
            }
            '`' => {
                let n = chars[i..].iter().take_while(|x| **x == '`').count();
                let run: String = "`".repeat(n);
                let after: String = chars[i + n..].iter().collect();
                match after.find(&run) {
                    Some(end) if !after[end + n..].starts_with('`') => {
                        out.push_str(&run);
                        out.push_str(&after[..end + n]);
                        i += n + after[..end + n].chars().count();
                    }
                    _ => {
                        out.push_str(&run);
                        i += n;
                    }
                }
            }
            '<' => {
                out.push_str("&lt;");
                i += 1;
            }
            '!' if chars.get(i + 1) == Some(&'[') => {
                open.push((out.len(), true));
                out.push_str("![");
                i += 2;
            }
            '[' => {
                open.push((out.len(), false));
                out.push('[');
                i += 1;
            }
            ']' => {
                let Some((start, image)) = open.pop() else {
                    out.push(']');
                    i += 1;
                    continue;
                };
                if chars.get(i + 1) != Some(&'(') {
                    out.push(']');
                    i += 1;
                    continue;
                }
                let Some((target, len)) = destination(&chars[i + 2..]) else {
                    out.push(']');
                    i += 1;
                    continue;
                };
                let text = out[start + if image { 2 } else { 1 }..].to_string();
                out.truncate(start);
                if is_safe_url(&unescape(&target)) {
                    // A safe image becomes a link, as the app shows it.
                    let whole: String = chars[i + 1..i + 2 + len + 1].iter().collect();
                    out.push('[');
                    out.push_str(&text);
                    out.push(']');
                    // The destination as written: a `<…>` there delimits it, and a title is an
                    // attribute every renderer escapes.
                    out.push_str(&whole);
                } else {
                    out.push_str(&text);
                }
                i += 2 + len + 1;
                // A link holds no link (CommonMark): the `[` openers around this one are text
                // now, and are written escaped so no viewer pairs them up later.
                let mut k = open.len();
                while k > 0 {
                    k -= 1;
                    let (at, image) = open[k];
                    if image {
                        continue;
                    }
                    out.insert(at, '\\');
                    open.remove(k);
                    for above in open.iter_mut().skip(k) {
                        above.0 += 1;
                    }
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A link's destination after `(`: its target (without a title) and how many chars up to, not
/// including, the closing `)`. `None` when there is no closing parenthesis.
fn destination(chars: &[char]) -> Option<(String, usize)> {
    let mut depth = 0usize;
    let mut end = None;
    let mut i = 0;
    let mut angle = false;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '<' if i == 0 || chars[..i].iter().all(|c| c.is_whitespace()) => angle = true,
            '>' if angle => angle = false,
            '(' if !angle => depth += 1,
            ')' if !angle && depth == 0 => {
                end = Some(i);
                break;
            }
            ')' if !angle => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    let end = end?;
    let inside: String = chars[..end].iter().collect();
    let inside = inside.trim();
    let target = match inside.strip_prefix('<') {
        Some(t) => t.split('>').next().unwrap_or(t).to_string(),
        None => inside
            .split([' ', '\n'])
            .next()
            .unwrap_or(inside)
            .to_string(),
    };
    Some((target, end))
}

/// A link target as meant: backslash escapes before ASCII punctuation removed.
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_keep_safe_targets_and_lose_the_rest() {
        assert_eq!(defang("[a](https://x.org)"), "[a](https://x.org)");
        assert_eq!(defang("[a](javascript:alert(1))"), "a");
        assert_eq!(
            defang("![p](https://t.example/p.png)"),
            "[p](https://t.example/p.png)"
        );
        assert_eq!(defang("![p](data:image/png;base64,xx)"), "p");
        assert_eq!(defang("a <b>c</b>"), "a &lt;b>c&lt;/b>");
        assert_eq!(defang("`<b>` stays"), "`<b>` stays");
        assert_eq!(defang("```\n<script>\n```\n"), "```\n<script>\n```\n");
        assert_eq!(defang("[r]\n\n[r]: javascript:x\n"), "[r]\n\n\n");
        assert_eq!(
            defang("[see [nested](javascript:x) here](https://ok.org)"),
            "\\[see nested here](https://ok.org)"
        );
    }

    /// The fold's three lines are kept (the title escaped like text); any other form of them,
    /// an attribute included, is text.
    #[test]
    fn the_fold_lines_are_kept_and_nothing_else() {
        assert_eq!(
            defang("<details>\n<summary>The <b>records</b></summary>\n\nx\n</details>\n"),
            "<details>\n<summary>The &lt;b>records&lt;/b></summary>\n\nx\n</details>\n"
        );
        assert_eq!(
            defang("> <details>\n> <summary>q</summary>\n> </details>"),
            "> <details>\n> <summary>q</summary>\n> </details>"
        );
        assert_eq!(
            defang("<details open ontoggle=\"alert(1)\">\n<summary onclick=\"x()\">t</summary>\na <details> b\n"),
            "&lt;details open ontoggle=\"alert(1)\">\n&lt;summary onclick=\"x()\">t&lt;/summary>\na &lt;details> b\n"
        );
        assert_eq!(
            defang("<summary>x</summary><img src=x onerror=alert(1)></summary>"),
            "<summary>x&lt;/summary>&lt;img src=x onerror=alert(1)></summary>"
        );
    }
}
