//! Inputs that make naive Markdown parsers quadratic (or recurse without bound): the renderer's
//! tests check each renders inert and well nested, and `examples/bench_markdown.rs` measures how
//! its time grows with the size.

/// Inputs that make naive Markdown parsers quadratic (or recurse without bound), at size `n`.
pub fn pathological_inputs(n: usize) -> Vec<(&'static str, String)> {
    vec![
        ("stars", "*".repeat(n)),
        ("underscores", "_".repeat(n)),
        ("alternating emphasis", "*a _".repeat(n / 4)),
        (
            "opener then many closers",
            format!("{}a{}", "*".repeat(n / 2), "b* ".repeat(n / 6)),
        ),
        ("brackets", "[".repeat(n)),
        ("image brackets", "![".repeat(n / 2)),
        ("closing brackets", "]".repeat(n)),
        ("link openers", "[a](".repeat(n / 4)),
        ("unclosed targets", "[a](b(c)".repeat(n / 8)),
        ("unclosed titles", "[a](b \"".repeat(n / 7)),
        (
            "nested images",
            format!(
                "{}a{}",
                "![".repeat(n / 20),
                "](https://x.example)".repeat(n / 20)
            ),
        ),
        (
            "links after brackets",
            format!("{}{}", "[".repeat(n / 2), "[a](https://x)".repeat(n / 28)),
        ),
        (
            "references",
            format!("{}\n\n[a]: https://x", "[a][b".repeat(n / 5)),
        ),
        ("backticks", (1..450).map(|k| "`".repeat(k) + "x").collect()),
        ("angle brackets", "<a".repeat(n / 2)),
        ("quotes", ">".repeat(n)),
        (
            "quote lines",
            "> ".repeat(20).repeat(n / 40).replace(
                "> > > > > > > > > > > > > > > > > > > > ",
                "> > > > > > > > > > > > > > > > > > > > x\n",
            ),
        ),
        ("list lines", "- ".repeat(n / 2)),
        (
            "nested lists",
            (0..400)
                .map(|k| format!("{}- a\n", " ".repeat(2 * k)))
                .collect(),
        ),
        (
            "table cells",
            format!("{}\n{}\n", "|a".repeat(n / 4), "|-".repeat(n / 4)),
        ),
        (
            "table rows",
            format!("|a|b|\n|-|-|\n{}", "|1|2|\n".repeat(n / 6)),
        ),
        ("fences", "```\n".repeat(n / 4)),
        ("lines", "a\n".repeat(n / 2)),
        ("hard breaks", "a  \n".repeat(n / 4)),
    ]
}
