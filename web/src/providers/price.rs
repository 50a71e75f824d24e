//! What a call costs: a dated price table per known model (US dollars per million tokens, input
//! and output), a person's own price for any model (a setting, which wins), and the cost of a
//! price the runner charges ([`effective`]).
//!
//! A model's price is the person's own ([`setting`], read with [`parse`]) if set, else
//! [`known`]'s. Prices change; every row of the table says when and where it was read, and the
//! table when it was last checked ([`PRICES_DATED`]); it is only a default. Names match exactly
//! (or as a dated snapshot), so a pricier variant is never priced as its base model. The cost of a call is core's rule (`roundtable_core::cost::of_call`: the provider's
//! reported figure first, then a price times the counted tokens, then an estimate, marked as
//! such); core sums and words it. Servers on this machine cost nothing here.

use roundtable_core::cost::parse_usd;

use super::ProviderId;

/// When the table was last checked against the providers' price pages (the newest `read` of
/// its rows; each row says its own).
pub const PRICES_DATED: &str = "2026-11-26";

/// Micro-dollars (millionths of a US dollar) per million tokens: whole numbers, so no float
/// formatting or parsing code goes into the download (it weighs about 20 KB). Core's type: the
/// runner hands core the cost of each call, and core sums and words it.
pub use roundtable_core::cost::Price;

/// One model's published price, with where and when it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The model's name as the provider spells it (a dated snapshot of it matches too).
    pub model: &'static str,
    /// Micro-dollars per million input tokens.
    pub input: u64,
    /// Micro-dollars per million output tokens (thinking tokens are billed as output).
    pub output: u64,
    /// When the figure was read (`YYYY-MM-DD`; `2025-11` for rows carried from the first table
    /// and not re-read since).
    pub read: &'static str,
    /// Where it was read.
    pub source: &'static str,
}

const OPENAI: &str =
    "developers.openai.com/api/docs/pricing, as quoted by tokenmix.ai (verified 2026-06-04)";
const OPENAI_OLDER: &str =
    "developers.openai.com/api/docs/pricing, as listed by margindash.com/openai-model-comparison";
const CLAUDE: &str = "platform.claude.com/docs/about-claude/models/overview and each model's page";
const GEMINI: &str = "ai.google.dev/gemini-api/docs/pricing";
const GROQ: &str =
    "console.groq.com/docs/models (Groq's price column), as quoted in braintrust-proxy#925";
const GROQ_LISTED: &str =
    "groq.com/pricing, as listed by the aicost crate's Groq table (docs.rs/crate/aicost 0.2.4)";
const MISTRAL: &str = "docs.mistral.ai/models/model-cards/mistral-medium-3-5-26-04";
const FIRST_TABLE: &str = "the providers' price pages, read for the first table";

const fn row(
    model: &'static str,
    input: u64,
    output: u64,
    read: &'static str,
    source: &'static str,
) -> Row {
    Row {
        model,
        input,
        output,
        read,
        source,
    }
}

/// Every priced model, by exact name. A name matches its own row, or a dated snapshot of it
/// (`gpt-4.1-mini-2025-04-14`, `claude-opus-4-5-20251101`) or its `-latest` alias; never a
/// longer name (Mistral's `YYMM` versions are other models: `mistral-medium-2508` is Medium 3.1,
/// not the 3.5 that `-latest` names), so `gpt-5` does not price `gpt-5-pro`, `o3` not
/// `o3-pro`, and `claude-opus-4` not `claude-opus-4-6`: a variant the table does not list has
/// no price (the person sets one in Settings) rather than a wrong one.
pub const TABLE: &[Row] = &[
    // OpenAI
    row("gpt-5.5", 5_000_000, 30_000_000, "2026-11-26", OPENAI),
    row("gpt-5.5-pro", 30_000_000, 180_000_000, "2026-11-26", OPENAI),
    row("gpt-5.4", 2_500_000, 15_000_000, "2026-11-26", OPENAI),
    row("gpt-5.4-mini", 750_000, 4_500_000, "2026-11-26", OPENAI),
    row("gpt-5.4-nano", 200_000, 1_250_000, "2026-11-26", OPENAI),
    row("gpt-5.4-pro", 30_000_000, 180_000_000, "2026-11-26", OPENAI),
    row("gpt-5.2", 1_750_000, 14_000_000, "2026-11-26", OPENAI_OLDER),
    row("gpt-5.1", 1_250_000, 10_000_000, "2026-11-26", OPENAI_OLDER),
    row("gpt-5", 1_250_000, 10_000_000, "2026-11-26", OPENAI_OLDER),
    row("gpt-5-mini", 250_000, 2_000_000, "2026-11-26", OPENAI_OLDER),
    row("gpt-5-nano", 50_000, 400_000, "2026-11-26", OPENAI_OLDER),
    row("gpt-4.1", 2_000_000, 8_000_000, "2026-11-26", OPENAI_OLDER),
    row(
        "gpt-4.1-mini",
        400_000,
        1_600_000,
        "2026-11-26",
        OPENAI_OLDER,
    ),
    row("gpt-4.1-nano", 100_000, 400_000, "2025-11", FIRST_TABLE),
    row("gpt-4o", 2_500_000, 10_000_000, "2025-11", FIRST_TABLE),
    row("gpt-4o-mini", 150_000, 600_000, "2025-11", FIRST_TABLE),
    row("o3", 2_000_000, 8_000_000, "2026-11-26", OPENAI_OLDER),
    row("o3-pro", 20_000_000, 80_000_000, "2026-11-26", OPENAI_OLDER),
    row("o4-mini", 1_100_000, 4_400_000, "2026-11-26", OPENAI_OLDER),
    // Anthropic
    row(
        "claude-opus-5-5",
        4_000_000,
        20_000_000,
        "2026-11-26",
        CLAUDE,
    ),
    row(
        "claude-sonnet-5-5",
        2_000_000,
        10_000_000,
        "2026-11-26",
        CLAUDE,
    ),
    // "From $0.10 / $0.50": prompts over 100,000 tokens are billed higher (not modelled here).
    row("claude-haiku-5-5", 100_000, 500_000, "2026-11-26", CLAUDE),
    row("claude-opus-5", 5_000_000, 25_000_000, "2026-11-26", CLAUDE),
    row(
        "claude-sonnet-5",
        2_000_000,
        10_000_000,
        "2026-11-26",
        CLAUDE,
    ),
    row(
        "claude-opus-4-8",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE,
    ),
    row(
        "claude-opus-4-7",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE,
    ),
    row(
        "claude-opus-4-6",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE,
    ),
    row(
        "claude-opus-4-5",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE,
    ),
    row(
        "claude-opus-4-1",
        15_000_000,
        75_000_000,
        "2025-11",
        FIRST_TABLE,
    ),
    row(
        "claude-opus-4",
        15_000_000,
        75_000_000,
        "2025-11",
        FIRST_TABLE,
    ),
    row(
        "claude-sonnet-4-5",
        3_000_000,
        15_000_000,
        "2025-11",
        FIRST_TABLE,
    ),
    row(
        "claude-sonnet-4",
        3_000_000,
        15_000_000,
        "2025-11",
        FIRST_TABLE,
    ),
    row(
        "claude-haiku-4-5",
        1_000_000,
        5_000_000,
        "2026-11-26",
        CLAUDE,
    ),
    row(
        "claude-3-5-haiku",
        800_000,
        4_000_000,
        "2025-11",
        FIRST_TABLE,
    ),
    // Google. Gemini 3.8 Flash's input price is published "through December 31, 2026".
    row("gemini-3.8-flash", 750_000, 3_750_000, "2026-11-26", GEMINI),
    row(
        "gemini-2.5-flash-lite",
        100_000,
        400_000,
        "2025-11",
        FIRST_TABLE,
    ),
    row(
        "gemini-2.5-flash",
        300_000,
        2_500_000,
        "2025-11",
        FIRST_TABLE,
    ),
    row(
        "gemini-2.5-pro",
        1_250_000,
        10_000_000,
        "2025-11",
        FIRST_TABLE,
    ),
    // Mistral (`mistral-medium-latest` is Mistral Medium 3.5 since 2026-04-28)
    row(
        "mistral-medium",
        1_500_000,
        7_500_000,
        "2026-11-26",
        MISTRAL,
    ),
    row(
        "mistral-medium-3-5",
        1_500_000,
        7_500_000,
        "2026-11-26",
        MISTRAL,
    ),
    row("mistral-small", 100_000, 300_000, "2025-11", FIRST_TABLE),
    row(
        "mistral-large",
        2_000_000,
        6_000_000,
        "2025-11",
        FIRST_TABLE,
    ),
    // Groq
    row("openai/gpt-oss-120b", 150_000, 600_000, "2026-11-26", GROQ),
    row(
        "openai/gpt-oss-20b",
        75_000,
        300_000,
        "2026-11-26",
        GROQ_LISTED,
    ),
    row(
        "meta-llama/llama-4-scout-17b-16e-instruct",
        110_000,
        340_000,
        "2026-11-26",
        GROQ_LISTED,
    ),
    row(
        "llama-3.3-70b-versatile",
        590_000,
        790_000,
        "2026-11-26",
        GROQ_LISTED,
    ),
    row(
        "llama-3.1-8b-instant",
        50_000,
        80_000,
        "2026-11-26",
        GROQ_LISTED,
    ),
];

/// Whether `rest` (what follows a table name and a `-`) only dates or aliases it: `latest`, a
/// date (`20251101`, `2025-04-14`).
fn snapshot_suffix(rest: &str) -> bool {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = rest.split('-').collect();
    rest == "latest"
        || matches!(parts.as_slice(), [one] if digits(one, 8))
        || matches!(parts.as_slice(), [y, m, d] if digits(y, 4) && digits(m, 2) && digits(d, 2))
}

/// The table's row for a bare model name: its own, or the one it is a snapshot of.
fn row_of(name: &str) -> Option<&'static Row> {
    let name = name.trim_start_matches("models/");
    TABLE.iter().find(|r| {
        name == r.model
            || name
                .strip_prefix(r.model)
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(snapshot_suffix)
    })
}

/// The table's row for `model` on `provider`, if the table lists it. OpenRouter names models
/// `vendor/model` and passes the vendor's price on, so the vendor part is dropped there (its
/// Anthropic ids spell versions with a dot: `claude-sonnet-4.5`).
pub fn known_row(provider: ProviderId, model: &str) -> Option<&'static Row> {
    let name = model.trim().to_ascii_lowercase();
    match provider {
        ProviderId::Demo | ProviderId::Ollama | ProviderId::Local => None,
        // `openai/gpt-4.1-mini` as is; `anthropic/claude-sonnet-4.5` with its dots as dashes.
        ProviderId::OpenRouter => {
            let bare = name.split_once('/').map_or(name.as_str(), |(_, m)| m);
            row_of(bare).or_else(|| row_of(&bare.replace('.', "-")))
        }
        _ => row_of(&name),
    }
}

/// The table's price of `model` on `provider`, if it is a known model; servers on this machine
/// and the demo cost nothing.
pub fn known(provider: ProviderId, model: &str) -> Option<Price> {
    if matches!(
        provider,
        ProviderId::Demo | ProviderId::Ollama | ProviderId::Local
    ) {
        return Some(Price {
            input: 0,
            output: 0,
        });
    }
    known_row(provider, model).map(|r| Price {
        input: r.input,
        output: r.output,
    })
}

/// The settings key of a person's own price for a model.
pub fn setting(provider: ProviderId, model: &str) -> String {
    format!("price:{}:{}", provider.as_str(), model.trim())
}

/// Reads a person's price, written `input / output` in dollars per million tokens
/// (`"1.25 / 10"`); `None` when it is not two non-negative decimal numbers.
pub fn parse(text: &str) -> Option<Price> {
    let (input, output) = text.split_once('/')?;
    Some(Price {
        input: parse_usd(input)?,
        output: parse_usd(output)?,
    })
}

/// Micro-dollars as dollars with no trailing zeros (`1_250_000` → `"1.25"`).
pub fn dollars(micro: u64) -> String {
    let frac = format!("{:06}", micro % 1_000_000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{}", micro / 1_000_000)
    } else {
        format!("{}.{frac}", micro / 1_000_000)
    }
}

/// The price of `model` on `provider` as the runner charges it: the person's own (`own`, the
/// stored text of [`setting`]) when it reads as a price, else the table's.
pub fn effective(provider: ProviderId, model: &str, own: Option<&str>) -> Option<Price> {
    own.and_then(parse).or_else(|| known(provider, model))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_match_their_model_and_openrouter_drops_the_vendor() {
        let p = |id, m| known(id, m).map(|p| (p.input, p.output));
        assert_eq!(
            p(ProviderId::OpenAi, "gpt-4.1-mini-2025-04-14"),
            Some((400_000, 1_600_000))
        );
        assert_eq!(
            p(ProviderId::OpenAi, "gpt-4.1"),
            Some((2_000_000, 8_000_000))
        );
        assert_eq!(
            p(ProviderId::Anthropic, "claude-opus-4-5-20251101"),
            Some((5_000_000, 25_000_000))
        );
        assert_eq!(
            p(ProviderId::Anthropic, "claude-opus-4-1"),
            Some((15_000_000, 75_000_000))
        );
        assert_eq!(
            p(ProviderId::OpenRouter, "anthropic/claude-sonnet-4.5"),
            Some((3_000_000, 15_000_000))
        );
        assert_eq!(
            p(ProviderId::OpenRouter, "openai/gpt-4.1-mini"),
            Some((400_000, 1_600_000))
        );
        assert_eq!(
            p(ProviderId::Gemini, "models/gemini-2.5-flash"),
            Some((300_000, 2_500_000))
        );
        assert_eq!(
            p(ProviderId::Groq, "openai/gpt-oss-120b"),
            Some((150_000, 600_000))
        );
        assert_eq!(p(ProviderId::Ollama, "anything"), Some((0, 0)));
        assert_eq!(p(ProviderId::Mistral, "codestral-latest"), None);
    }

    /// The published prices the issue found wrong or missing, each as the table must have it.
    #[test]
    fn current_prices_and_no_variant_priced_as_its_base_model() {
        let p = |id, m| known(id, m).map(|p| (p.input, p.output));
        // Opus 4.5 and later: $5 / $25, not the $15 / $75 of Opus 4 and 4.1.
        for opus in ["claude-opus-4-6", "claude-opus-4-7", "claude-opus-4-8"] {
            assert_eq!(
                p(ProviderId::Anthropic, opus),
                Some((5_000_000, 25_000_000)),
                "{opus}"
            );
        }
        assert_eq!(
            p(ProviderId::OpenRouter, "anthropic/claude-opus-4.6"),
            Some((5_000_000, 25_000_000))
        );
        assert_eq!(
            p(ProviderId::Anthropic, "claude-opus-4"),
            Some((15_000_000, 75_000_000))
        );
        // Groq's gpt-oss and Mistral Medium (3.5 behind `-latest`).
        assert_eq!(
            p(ProviderId::Groq, "openai/gpt-oss-20b"),
            Some((75_000, 300_000))
        );
        assert_eq!(
            p(ProviderId::Mistral, "mistral-medium-latest"),
            Some((1_500_000, 7_500_000))
        );
        // A pricier variant is never priced as its base model: listed, or no price.
        assert_eq!(
            p(ProviderId::OpenAi, "o3-pro"),
            Some((20_000_000, 80_000_000))
        );
        assert_eq!(
            p(ProviderId::OpenAi, "gpt-5.5-pro"),
            Some((30_000_000, 180_000_000))
        );
        assert_eq!(p(ProviderId::OpenAi, "gpt-5-pro"), None);
        assert_eq!(p(ProviderId::OpenAi, "gpt-5-codex"), None);
        assert_eq!(p(ProviderId::OpenAi, "o3-deep-research"), None);
        // Mistral's YYMM versions are other models (2508 is Medium 3.1), not Medium 3.5.
        assert_eq!(p(ProviderId::Mistral, "mistral-medium-2508"), None);
        // Dated snapshots still match.
        assert_eq!(
            p(ProviderId::OpenAi, "gpt-5-2025-08-07"),
            Some((1_250_000, 10_000_000))
        );
        assert_eq!(
            p(ProviderId::OpenAi, "o3-2025-04-16"),
            Some((2_000_000, 8_000_000))
        );
    }

    #[test]
    fn every_row_is_dated_sourced_and_reachable() {
        for r in TABLE {
            assert!(!r.source.is_empty(), "{}", r.model);
            assert!(
                r.read == "2025-11" || (r.read.len() == 10 && r.read <= PRICES_DATED),
                "{}: {}",
                r.model,
                r.read
            );
            // No other row catches this model's name first.
            assert_eq!(row_of(r.model), Some(r), "{} is shadowed", r.model);
            assert!(r.output >= r.input, "{}", r.model);
        }
        assert!(TABLE.iter().any(|r| r.read == PRICES_DATED));
    }

    #[test]
    fn every_default_model_has_a_current_price() {
        for id in ProviderId::ALL {
            if matches!(
                id,
                ProviderId::Demo | ProviderId::Ollama | ProviderId::Local
            ) {
                continue;
            }
            let row = known_row(id, id.default_model())
                .unwrap_or_else(|| panic!("{id:?}'s default has no price"));
            assert_eq!(row.read, PRICES_DATED, "{id:?}: {}", row.model);
        }
    }

    #[test]
    fn own_prices_read_and_win_over_the_table() {
        let price = parse(" $1.25 / 10 ").unwrap();
        assert_eq!(
            price,
            Price {
                input: 1_250_000,
                output: 10_000_000
            }
        );
        assert_eq!(
            effective(ProviderId::OpenAi, "gpt-4.1", Some("1.25/10")),
            Some(price)
        );
        assert_eq!(
            effective(ProviderId::OpenAi, "gpt-4.1", Some("not a price")),
            known(ProviderId::OpenAi, "gpt-4.1")
        );
        assert_eq!(effective(ProviderId::Mistral, "codestral", None), None);
        assert_eq!(dollars(1_250_000), "1.25");
        assert_eq!(dollars(10_000_000), "10");
        assert_eq!(dollars(75_000), "0.075");
        assert_eq!(
            parse(".5/0.075"),
            Some(Price {
                input: 500_000,
                output: 75_000
            })
        );
        for bad in ["1.25", "-1 / 2", "1e3 / 2", "1.1234567 / 1", " / 1"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
