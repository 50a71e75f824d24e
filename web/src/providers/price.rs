//! What a call costs: a dated price table per known model (US dollars per million tokens, input
//! and output), a person's own price for any model (a setting, which wins), and the cost of a
//! price the runner charges ([`effective`]).
//!
//! A model's price is the person's own ([`setting`], read with [`parse`]) if set, else
//! [`known`]'s. Prices change; every row of the table says when and where it was read, and the
//! table when it was last checked (`PRICES_DATED`); it is only a default. A row confirmed only
//! by secondary sources (no page of the provider's own in reach) is kept only where two
//! independent ones agree, and its source says so; a model no source confirms has no row, so it
//! shows "no price" and the person's own price is the one used. A price the provider has
//! announced to change on a date ([`Next`]) is charged by the day of the call. Names match
//! exactly (or as a dated snapshot), so a pricier variant is never priced as its base model.
//! The cost of a call is core's rule (`roundtable_core::cost::of_call`: the provider's
//! reported figure first, then a price times the counted tokens, then an estimate, marked as
//! such); core sums and words it. Servers on this machine cost nothing here.

use roundtable_core::cost::parse_usd;

use super::ProviderId;

/// When the table was last checked against the providers' price pages (the newest `read` of
/// its rows; each row says its own, and Settings shows the row's). The table's tests hold every
/// row to it.
#[cfg(test)]
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
    /// When the sources were read (`YYYY-MM-DD`).
    pub read: &'static str,
    /// Where: the provider's page, or (marked "secondary") the two independent sources that
    /// agree on the figure.
    pub source: &'static str,
    /// A change of price the provider has announced, if any.
    pub next: Option<Next>,
}

/// A published price that replaces a row's from a date on (Gemini 3.8 Flash's launch price
/// holds "through December 31, 2026").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Next {
    /// The first day of the new price (`YYYY-MM-DD`).
    pub from: &'static str,
    /// Micro-dollars per million input tokens from then.
    pub input: u64,
    /// Micro-dollars per million output tokens from then.
    pub output: u64,
}

impl Row {
    /// The row's price on `today` (`YYYY-MM-DD`, the day of the call).
    pub fn price_on(&self, today: &str) -> Price {
        match self.next {
            Some(next) if today >= next.from => Price {
                input: next.input,
                output: next.output,
            },
            _ => Price {
                input: self.input,
                output: self.output,
            },
        }
    }
}

/// OpenAI's own model page for GPT-5 nano: its price, and the input prices of GPT-5.4 mini and
/// nano in its comparison.
const OPENAI_GPT5_NANO: &str =
    "https://developers.openai.com/api/docs/models/gpt-5-nano (OpenAI's model page, stored copy)";
/// OpenAI's current models, from secondary sources only (OpenAI's pricing page was not in reach).
const OPENAI_CURRENT: &str = "secondary, two agree: developers.openai.com/api/docs/pricing as transcribed in github.com/api-evangelist/openai plans/openai-plans-pricing.yml (2026-05-22), and docs.apiyi.com/models (price list)";
/// GPT-5.4 mini and nano: the input price on OpenAI's page, the output price from two others.
const OPENAI_54_SMALL: &str = "secondary, two agree: openrouter.ai/openai/gpt-5.4-mini (mini) and apidog.com/blog/gpt-5-4-mini-pricing (mini and nano), with github.com/api-evangelist/openai plans (2026-05-22); the input prices also on OpenAI's developers.openai.com/api/docs/models/gpt-5-nano (comparison)";
/// Older OpenAI models (off OpenAI's current pricing page).
const OPENAI_OLDER: &str = "secondary, two agree: deploybase.ai/articles/openai-pricing (March 2026) and huggingface.co/SciCode/dataset-builder data3/show_pricing.py";
/// GPT-4o and GPT-4.1 (shut down 2027-01-14), o3 (shut down 2026-12-11).
const OPENAI_4: &str = "secondary, two agree: deploybase.ai/articles/openai-pricing (March 2026) and aumiqx.com/ai-tools/openai-api-pricing-gpt4-costs-guide-2026 (April 2026); simonw/llm-prices data/openai.json for gpt-4o(-mini)";
/// GPT-5 mini: OpenRouter passes OpenAI's price on.
const OPENAI_5_MINI: &str = "secondary, two agree: openrouter.ai/openai/gpt-5-mini and deploybase.ai/articles/openai-pricing (March 2026)";
/// Anthropic's pricing page.
const CLAUDE_PRICING: &str = "https://platform.claude.com/docs/en/about-claude/pricing";
/// Anthropic's model pages: the comparison table of the current models on each.
const CLAUDE_CURRENT: &str = "https://platform.claude.com/docs/about-claude/models/whats-new-opus-5 (comparison of the current models) and models/sonnet-5-5/overview";
/// Claude Sonnet 5's page.
const CLAUDE_SONNET_5: &str = "https://platform.claude.com/docs/models/sonnet-5/overview";
/// Claude Sonnet 4.5's page (deprecated; retires 2026-11-30).
const CLAUDE_SONNET_45: &str = "https://platform.claude.com/docs/models/sonnet-4-5/overview";
/// Claude Haiku 4.5's page.
const CLAUDE_HAIKU_45: &str = "https://platform.claude.com/docs/models/haiku-4-5/overview";
/// Retired Claude models, on an older copy of Anthropic's pricing page.
const CLAUDE_OLDER: &str =
    "https://docs.anthropic.com/en/docs/about-claude/pricing (an older stored copy; retired on the Claude API)";
/// Gemini's pricing page, as transcribed verbatim (read 2026-09-20 and 2026-10-07).
const GEMINI: &str = "https://ai.google.dev/gemini-api/docs/pricing, transcribed verbatim in github.com/api-evangelist/gemini and api-evangelist/deepmind plans (read 2026-09-20, 2026-10-07)";
/// Mistral Medium 3.5: Mistral's model card and pricing page as quoted.
const MISTRAL: &str = "secondary, two agree: docs.mistral.ai/models/model-cards/mistral-medium-3-5-26-04 and Mistral's pricing page as quoted in braintrust-proxy#505 and #802, and apidog.com/blog/mistral-medium-3-5-api";
/// Groq's models page (production models and their prices).
const GROQ: &str = "https://console.groq.com/docs/models (stored copies)";
/// Llama 4 Scout, no longer on Groq's production list.
const GROQ_SCOUT: &str = "secondary, two agree: docs.rs/crate/aicost 0.2.4 data_groq.rs and the groq-cost-tuning skill (skills.sh/jeremylongshore)";

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
        next: None,
    }
}

/// Every priced model, by exact name. A name matches its own row, or a dated snapshot of it
/// (`gpt-4.1-mini-2025-04-14`, `claude-opus-4-5-20251101`) or its `-latest` alias; never a
/// longer name (Mistral's `YYMM` versions are other models: `mistral-medium-2508` is Medium 3.1,
/// not the 3.5 that `-latest` names), so `gpt-5` does not price `gpt-5-pro`, `o3` not
/// `o3-pro`, and `claude-opus-4` not `claude-opus-4-6`: a variant the table does not list has
/// no price (the person sets one in Settings) rather than a wrong one. Every row was re-read on
/// `PRICES_DATED`; models shut down by then (gpt-4.1-nano, o4-mini, Gemini 2.5 Flash and Pro)
/// and figures no source confirmed (gpt-5.2, gpt-5.4-pro, o3-pro, Gemini 2.5 Flash-Lite's input,
/// Mistral Small and Large behind `-latest`) have no row.
pub const TABLE: &[Row] = &[
    // OpenAI
    row(
        "gpt-5.5",
        5_000_000,
        30_000_000,
        "2026-11-26",
        OPENAI_CURRENT,
    ),
    row(
        "gpt-5.5-pro",
        30_000_000,
        180_000_000,
        "2026-11-26",
        OPENAI_CURRENT,
    ),
    row(
        "gpt-5.4",
        2_500_000,
        15_000_000,
        "2026-11-26",
        OPENAI_CURRENT,
    ),
    row(
        "gpt-5.4-mini",
        750_000,
        4_500_000,
        "2026-11-26",
        OPENAI_54_SMALL,
    ),
    // Retires 2027-04-01.
    row(
        "gpt-5.4-nano",
        200_000,
        1_250_000,
        "2026-11-26",
        OPENAI_54_SMALL,
    ),
    // Retires 2027-04-01.
    row("gpt-5.1", 1_250_000, 10_000_000, "2026-11-26", OPENAI_OLDER),
    // gpt-5, gpt-5-mini, gpt-5-nano and o3 shut down 2026-12-11.
    row("gpt-5", 1_250_000, 10_000_000, "2026-11-26", OPENAI_OLDER),
    row(
        "gpt-5-mini",
        250_000,
        2_000_000,
        "2026-11-26",
        OPENAI_5_MINI,
    ),
    row(
        "gpt-5-nano",
        50_000,
        400_000,
        "2026-11-26",
        OPENAI_GPT5_NANO,
    ),
    row("o3", 2_000_000, 8_000_000, "2026-11-26", OPENAI_4),
    // gpt-4.1, gpt-4.1-mini, gpt-4o and gpt-4o-mini shut down 2027-01-14.
    row("gpt-4.1", 2_000_000, 8_000_000, "2026-11-26", OPENAI_4),
    row("gpt-4.1-mini", 400_000, 1_600_000, "2026-11-26", OPENAI_4),
    row("gpt-4o", 2_500_000, 10_000_000, "2026-11-26", OPENAI_4),
    row("gpt-4o-mini", 150_000, 600_000, "2026-11-26", OPENAI_4),
    // Anthropic
    row(
        "claude-opus-5-5",
        4_000_000,
        20_000_000,
        "2026-11-26",
        CLAUDE_CURRENT,
    ),
    row(
        "claude-sonnet-5-5",
        2_000_000,
        10_000_000,
        "2026-11-26",
        CLAUDE_CURRENT,
    ),
    // "From $0.10 / $0.50": prompts over 100,000 tokens are billed higher (not modelled here).
    row(
        "claude-haiku-5-5",
        100_000,
        500_000,
        "2026-11-26",
        CLAUDE_CURRENT,
    ),
    row(
        "claude-opus-5",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE_PRICING,
    ),
    row(
        "claude-sonnet-5",
        2_000_000,
        10_000_000,
        "2026-11-26",
        CLAUDE_SONNET_5,
    ),
    row(
        "claude-opus-4-8",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE_PRICING,
    ),
    row(
        "claude-opus-4-7",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE_PRICING,
    ),
    row(
        "claude-opus-4-6",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE_PRICING,
    ),
    row(
        "claude-opus-4-5",
        5_000_000,
        25_000_000,
        "2026-11-26",
        CLAUDE_PRICING,
    ),
    // Opus 4.1 and 4: "retired, except on Bedrock and Google Cloud" (OpenRouter may route there).
    row(
        "claude-opus-4-1",
        15_000_000,
        75_000_000,
        "2026-11-26",
        CLAUDE_PRICING,
    ),
    row(
        "claude-opus-4",
        15_000_000,
        75_000_000,
        "2026-11-26",
        CLAUDE_PRICING,
    ),
    row(
        "claude-sonnet-4-5",
        3_000_000,
        15_000_000,
        "2026-11-26",
        CLAUDE_SONNET_45,
    ),
    row(
        "claude-sonnet-4",
        3_000_000,
        15_000_000,
        "2026-11-26",
        CLAUDE_OLDER,
    ),
    row(
        "claude-haiku-4-5",
        1_000_000,
        5_000_000,
        "2026-11-26",
        CLAUDE_HAIKU_45,
    ),
    row(
        "claude-3-5-haiku",
        800_000,
        4_000_000,
        "2026-11-26",
        CLAUDE_OLDER,
    ),
    // Google. Gemini 3.8 Flash: "$0.75 through December 31, 2026", "$1.50 starting January 1,
    // 2027" (output $3.75, then $7.50, thinking included).
    Row {
        next: Some(Next {
            from: "2027-01-01",
            input: 1_500_000,
            output: 7_500_000,
        }),
        ..row("gemini-3.8-flash", 750_000, 3_750_000, "2026-11-26", GEMINI)
    },
    row(
        "gemini-3.5-flash",
        1_500_000,
        9_000_000,
        "2026-11-26",
        GEMINI,
    ),
    row(
        "gemini-3.5-flash-lite",
        300_000,
        2_500_000,
        "2026-11-26",
        GEMINI,
    ),
    // Mistral (`mistral-medium-latest` is Mistral Medium 3.5 since 2026-04-28; its ids:
    // `mistral-medium-3.5`, `mistral-medium-3-5`, the dated `mistral-medium-3-5-26-04`).
    row(
        "mistral-medium",
        1_500_000,
        7_500_000,
        "2026-11-26",
        MISTRAL,
    ),
    row(
        "mistral-medium-3.5",
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
    row(
        "mistral-medium-3-5-26-04",
        1_500_000,
        7_500_000,
        "2026-11-26",
        MISTRAL,
    ),
    // Groq
    row("openai/gpt-oss-120b", 150_000, 600_000, "2026-11-26", GROQ),
    row("openai/gpt-oss-20b", 75_000, 300_000, "2026-11-26", GROQ),
    row(
        "llama-3.3-70b-versatile",
        590_000,
        790_000,
        "2026-11-26",
        GROQ,
    ),
    row("llama-3.1-8b-instant", 50_000, 80_000, "2026-11-26", GROQ),
    row(
        "meta-llama/llama-4-scout-17b-16e-instruct",
        110_000,
        340_000,
        "2026-11-26",
        GROQ_SCOUT,
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

/// The table's price of `model` on `provider` on `today` (`YYYY-MM-DD`), if it is a known model;
/// servers on this machine and the demo cost nothing.
pub fn known(provider: ProviderId, model: &str, today: &str) -> Option<Price> {
    if matches!(
        provider,
        ProviderId::Demo | ProviderId::Ollama | ProviderId::Local
    ) {
        return Some(Price {
            input: 0,
            output: 0,
        });
    }
    known_row(provider, model).map(|r| r.price_on(today))
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

/// The price of `model` on `provider` as the runner charges it on `today`: the person's own
/// (`own`, the stored text of [`setting`]) when it reads as a price, else the table's.
pub fn effective(
    provider: ProviderId,
    model: &str,
    own: Option<&str>,
    today: &str,
) -> Option<Price> {
    own.and_then(parse)
        .or_else(|| known(provider, model, today))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A day the table's prices hold.
    const TODAY: &str = PRICES_DATED;

    fn p(id: ProviderId, model: &str) -> Option<(u64, u64)> {
        known(id, model, TODAY).map(|p| (p.input, p.output))
    }

    #[test]
    fn snapshots_match_their_model_and_openrouter_drops_the_vendor() {
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
            p(ProviderId::OpenRouter, "openai/gpt-5.4-mini"),
            Some((750_000, 4_500_000))
        );
        assert_eq!(
            p(ProviderId::OpenRouter, "anthropic/claude-sonnet-5.5"),
            Some((2_000_000, 10_000_000))
        );
        assert_eq!(
            p(ProviderId::Gemini, "models/gemini-3.8-flash"),
            Some((750_000, 3_750_000))
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
        // Opus 5.5 is cheaper than Opus 5: each its own row.
        assert_eq!(
            p(ProviderId::Anthropic, "claude-opus-5-5"),
            Some((4_000_000, 20_000_000))
        );
        assert_eq!(
            p(ProviderId::Anthropic, "claude-opus-5"),
            Some((5_000_000, 25_000_000))
        );
        // Groq's gpt-oss and Mistral Medium (3.5 behind `-latest`, and under its own ids).
        assert_eq!(
            p(ProviderId::Groq, "openai/gpt-oss-20b"),
            Some((75_000, 300_000))
        );
        for medium in [
            "mistral-medium-latest",
            "mistral-medium-3.5",
            "mistral-medium-3-5",
            "mistral-medium-3-5-26-04",
        ] {
            assert_eq!(
                p(ProviderId::Mistral, medium),
                Some((1_500_000, 7_500_000)),
                "{medium}"
            );
        }
        assert_eq!(
            p(ProviderId::Gemini, "gemini-3.5-flash"),
            Some((1_500_000, 9_000_000))
        );
        assert_eq!(
            p(ProviderId::Gemini, "gemini-3.5-flash-lite"),
            Some((300_000, 2_500_000))
        );
        assert_eq!(
            p(ProviderId::OpenAi, "gpt-5-nano-2025-08-07"),
            Some((50_000, 400_000))
        );
        // A pricier variant is never priced as its base model: listed, or no price.
        assert_eq!(
            p(ProviderId::OpenAi, "gpt-5.5-pro"),
            Some((30_000_000, 180_000_000))
        );
        for variant in [
            "o3-pro",
            "gpt-5-pro",
            "gpt-5-codex",
            "o3-deep-research",
            "gpt-5.4-pro",
            "gpt-5.4-mini-fast",
        ] {
            assert_eq!(p(ProviderId::OpenAi, variant), None, "{variant}");
        }
        assert_eq!(p(ProviderId::Gemini, "gemini-3.5-flash-preview"), None);
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

    /// Models shut down by the table's date, and figures no source confirmed, have no row: the
    /// app shows no price and charges the person's own.
    #[test]
    fn unconfirmed_and_shut_down_models_have_no_price_and_the_own_price_is_used() {
        for (id, model) in [
            (ProviderId::OpenAi, "gpt-4.1-nano"),
            (ProviderId::OpenAi, "o4-mini"),
            (ProviderId::OpenAi, "gpt-5.2"),
            (ProviderId::Gemini, "gemini-2.5-flash"),
            (ProviderId::Gemini, "gemini-2.5-pro"),
            (ProviderId::Gemini, "gemini-2.5-flash-lite"),
            (ProviderId::Mistral, "mistral-small-latest"),
            (ProviderId::Mistral, "mistral-large-latest"),
        ] {
            assert_eq!(p(id, model), None, "{model}");
            assert_eq!(effective(id, model, None, TODAY), None, "{model}");
            assert_eq!(
                effective(id, model, Some("2 / 6"), TODAY),
                Some(Price {
                    input: 2_000_000,
                    output: 6_000_000
                }),
                "{model}"
            );
        }
    }

    /// Gemini 3.8 Flash's launch price holds through 2026-12-31; from 2027-01-01 the published
    /// next price is charged.
    #[test]
    fn an_announced_price_change_is_charged_from_its_day() {
        let on = |day| known(ProviderId::Gemini, "gemini-3.8-flash", day);
        assert_eq!(
            on("2026-12-31"),
            Some(Price {
                input: 750_000,
                output: 3_750_000
            })
        );
        let next = Some(Price {
            input: 1_500_000,
            output: 7_500_000,
        });
        assert_eq!(on("2027-01-01"), next);
        assert_eq!(on("2027-06-30"), next);
        // The person's own price still wins on either day.
        assert_eq!(
            effective(
                ProviderId::Gemini,
                "gemini-3.8-flash",
                Some("1/2"),
                "2027-01-01"
            ),
            Some(Price {
                input: 1_000_000,
                output: 2_000_000
            })
        );
    }

    #[test]
    fn every_row_is_dated_sourced_and_reachable() {
        for r in TABLE {
            // Read on a full date, no later than the table's; from the provider's own page
            // (an address), or from two secondary sources that agree, said as such.
            assert!(
                r.read.len() == 10 && r.read <= PRICES_DATED,
                "{}: {}",
                r.model,
                r.read
            );
            assert!(
                r.source.starts_with("https://") || r.source.starts_with("secondary, two agree: "),
                "{}: {}",
                r.model,
                r.source
            );
            // No other row catches this model's name first.
            assert_eq!(row_of(r.model), Some(r), "{} is shadowed", r.model);
            assert!(r.output >= r.input, "{}", r.model);
            if let Some(next) = r.next {
                assert!(next.from > r.read, "{}", r.model);
                assert!(next.output >= next.input, "{}", r.model);
            }
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
            effective(ProviderId::OpenAi, "gpt-4.1", Some("1.25/10"), TODAY),
            Some(price)
        );
        assert_eq!(
            effective(ProviderId::OpenAi, "gpt-4.1", Some("not a price"), TODAY),
            known(ProviderId::OpenAi, "gpt-4.1", TODAY)
        );
        assert_eq!(
            effective(ProviderId::Mistral, "codestral", None, TODAY),
            None
        );
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
