//! Links: which targets survive, the `<a>` we emit for them, and reference definitions.
//!
//! A model can put any target behind a link, so this is where the safety of links is decided:
//! only `http:`, `https:` and `mailto:` targets become anchors, and every anchor opens a new tab
//! (a click never takes the running session's tab away) without telling the target who sent it.

use std::collections::BTreeMap;

/// The longest reference label we look up, as in CommonMark (longer brackets are plain text).
pub(super) const MAX_LABEL: usize = 999;

/// Reference definitions (`[label]: url`) of one document, by normalised label. First wins.
#[derive(Default)]
pub(super) struct Refs(BTreeMap<String, String>);

impl Refs {
    /// Records a definition unless the label is already defined, as CommonMark does.
    pub(super) fn define(&mut self, label: &str, url: String) {
        self.0.entry(normalize(label)).or_insert(url);
    }

    /// The target of a label, for `[text][label]`, `[label][]` and `[label]` links.
    pub(super) fn get(&self, label: &str) -> Option<&str> {
        if self.0.is_empty() || label.len() > MAX_LABEL || label.trim().is_empty() {
            return None;
        }
        self.0.get(&normalize(label)).map(String::as_str)
    }
}

/// Labels match case-insensitively with runs of whitespace counted as one space.
fn normalize(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    for word in label.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// The opening tag of a link we emit. The URL was checked by [`is_safe_url`], which judged
/// exactly the text written here (trimmed, no tab, newline or control char inside); the attribute
/// value is escaped so no quote can end it early.
pub(super) fn anchor(url: &str) -> String {
    let mut escaped = String::with_capacity(url.len());
    for c in url.trim().chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            c => escaped.push(c),
        }
    }
    format!("<a href=\"{escaped}\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">")
}

/// Whether a link target may be kept: core's rule, the same one the exported report keeps
/// ([`roundtable_core::safe_markdown::is_safe_url`]).
pub use roundtable_core::safe_markdown::is_safe_url;

/// A link target as meant (backslash escapes removed): core's, the same the report uses.
pub(super) use roundtable_core::safe_markdown::unescape;
