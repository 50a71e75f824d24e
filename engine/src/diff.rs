//! The one line diff between two versions of a product: the app's "what changed between v2 and
//! v3?" and the "last version diff" line of a prompt ([`crate::protocol::team::prompt::line_diff`]) both read it.
//!
//! Longest common subsequence over lines after trimming the common head and tail, which is what
//! people read in a review. Versions are prose of a few kilobytes, so the quadratic table is small;
//! past [`MAX_CELLS`] the middle is shown as one removed block and one added block rather than
//! freezing the tab.

/// One line of a diff: kept, removed from the old version, or added in the new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffLine {
    /// The line is in both versions.
    Same(String),
    /// The line is only in the old version.
    Removed(String),
    /// The line is only in the new version.
    Added(String),
}

/// Above this many table cells the diff gives up on precision to stay fast.
pub const MAX_CELLS: usize = 4_000_000;

/// Diffs two texts line by line.
pub fn diff_lines(old: &str, new: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);

    let mut out: Vec<DiffLine> = a[..head]
        .iter()
        .map(|l| DiffLine::Same(l.to_string()))
        .collect();
    if am.len().saturating_mul(bm.len()) > MAX_CELLS {
        out.extend(am.iter().map(|l| DiffLine::Removed(l.to_string())));
        out.extend(bm.iter().map(|l| DiffLine::Added(l.to_string())));
    } else {
        out.extend(lcs_diff(am, bm));
    }
    out.extend(
        a[a.len() - tail..]
            .iter()
            .map(|l| DiffLine::Same(l.to_string())),
    );
    out
}

fn lcs_diff(a: &[&str], b: &[&str]) -> Vec<DiffLine> {
    let (n, m) = (a.len(), b.len());
    // table[i][j] = LCS length of a[i..] and b[j..]
    let mut table = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[at(i, j)] = if a[i] == b[j] {
                table[at(i + 1, j + 1)] + 1
            } else {
                table[at(i + 1, j)].max(table[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n + m);
    while i < n && j < m {
        if a[i] == b[j] {
            out.push(DiffLine::Same(a[i].to_string()));
            i += 1;
            j += 1;
        } else if table[at(i + 1, j)] >= table[at(i, j + 1)] {
            out.push(DiffLine::Removed(a[i].to_string()));
            i += 1;
        } else {
            out.push(DiffLine::Added(b[j].to_string()));
            j += 1;
        }
    }
    out.extend(a[i..].iter().map(|l| DiffLine::Removed(l.to_string())));
    out.extend(b[j..].iter().map(|l| DiffLine::Added(l.to_string())));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use DiffLine::*;

    fn s(x: &str) -> String {
        x.to_string()
    }

    #[test]
    fn identical_texts_are_all_same() {
        assert_eq!(diff_lines("a\nb", "a\nb"), vec![Same(s("a")), Same(s("b"))]);
    }

    #[test]
    fn a_changed_middle_line_is_one_removal_and_one_addition() {
        assert_eq!(
            diff_lines("a\nb\nc", "a\nB\nc"),
            vec![Same(s("a")), Removed(s("b")), Added(s("B")), Same(s("c"))]
        );
    }

    #[test]
    fn insertions_and_deletions_keep_the_common_lines() {
        assert_eq!(
            diff_lines("x\na\ny\nb", "a\nb\nz"),
            vec![
                Removed(s("x")),
                Same(s("a")),
                Removed(s("y")),
                Same(s("b")),
                Added(s("z"))
            ]
        );
    }

    #[test]
    fn applying_the_diff_rebuilds_both_sides() {
        let old = "one\ntwo\nthree\nfour\nfive";
        let new = "zero\none\nthree\nfour and a half\nfive\nsix";
        let d = diff_lines(old, new);
        let back_old: Vec<&str> = d
            .iter()
            .filter_map(|l| match l {
                Same(x) | Removed(x) => Some(x.as_str()),
                Added(_) => None,
            })
            .collect();
        let back_new: Vec<&str> = d
            .iter()
            .filter_map(|l| match l {
                Same(x) | Added(x) => Some(x.as_str()),
                Removed(_) => None,
            })
            .collect();
        assert_eq!(back_old.join("\n"), old);
        assert_eq!(back_new.join("\n"), new);
        assert_eq!(d.iter().filter(|l| matches!(l, Same(_))).count(), 3);
    }
}
