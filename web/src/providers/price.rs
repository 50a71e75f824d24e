//! What a call costs: a dated price table per known model (US dollars per million tokens, input
//! and output), a person's own price for any model (a setting, which wins), and the cost of a
//! price the runner charges ([`effective`]).
//!
//! A model's price is the person's own ([`setting`], read with [`parse`]) if set, else
//! [`known`]'s. Prices change; the table says when it was taken ([`PRICES_DATED`]) and is only a
//! default. The cost of a call is core's rule (`roundtable_core::cost::of_call`: the provider's
//! reported figure first, then a price times the counted tokens, then an estimate, marked as
//! such); core sums and words it. Servers on this machine cost nothing here.

use roundtable_core::cost::parse_usd;

use super::ProviderId;

/// When the table was taken from the providers' price pages.
pub const PRICES_DATED: &str = "2025-11";

/// Micro-dollars (millionths of a US dollar) per million tokens: whole numbers, so no float
/// formatting or parsing code goes into the download (it weighs about 20 KB). Core's type: the
/// runner hands core the cost of each call, and core sums and words it.
pub use roundtable_core::cost::Price;

/// Model name prefix → price, most specific first within a vendor (the first prefix that
/// matches wins, so `gpt-4.1-mini` comes before `gpt-4.1`).
const TABLE: &[(&str, u64, u64)] = &[
    // OpenAI
    ("gpt-5-nano", 50_000, 400_000),
    ("gpt-5-mini", 250_000, 2_000_000),
    ("gpt-5", 1_250_000, 10_000_000),
    ("gpt-4.1-nano", 100_000, 400_000),
    ("gpt-4.1-mini", 400_000, 1_600_000),
    ("gpt-4.1", 2_000_000, 8_000_000),
    ("gpt-4o-mini", 150_000, 600_000),
    ("gpt-4o", 2_500_000, 10_000_000),
    ("o4-mini", 1_100_000, 4_400_000),
    ("o3", 2_000_000, 8_000_000),
    // Anthropic
    ("claude-opus-4-5", 5_000_000, 25_000_000),
    ("claude-opus-4", 15_000_000, 75_000_000),
    ("claude-sonnet-4", 3_000_000, 15_000_000),
    ("claude-haiku-4-5", 1_000_000, 5_000_000),
    ("claude-3-5-haiku", 800_000, 4_000_000),
    // Google
    ("gemini-2.5-flash-lite", 100_000, 400_000),
    ("gemini-2.5-flash", 300_000, 2_500_000),
    ("gemini-2.5-pro", 1_250_000, 10_000_000),
    // Mistral
    ("mistral-small", 100_000, 300_000),
    ("mistral-medium", 400_000, 2_000_000),
    ("mistral-large", 2_000_000, 6_000_000),
    // Groq
    ("openai/gpt-oss-120b", 150_000, 750_000),
    ("openai/gpt-oss-20b", 100_000, 500_000),
    ("llama-3.3-70b-versatile", 590_000, 790_000),
    ("llama-3.1-8b-instant", 50_000, 80_000),
];

/// The table's price of `model` on `provider`, if it is a known model. OpenRouter names models
/// `vendor/model` and passes the vendor's price on, so the vendor part is dropped there (its
/// Anthropic ids spell versions with a dot: `claude-sonnet-4.5`).
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
    let name = model.trim().to_ascii_lowercase();
    let lookup = |name: &str| {
        let name = name.trim_start_matches("models/");
        TABLE
            .iter()
            .find(|(prefix, _, _)| name.starts_with(prefix))
            .map(|&(_, input, output)| Price { input, output })
    };
    match provider {
        // `openai/gpt-4.1-mini` as is; `anthropic/claude-sonnet-4.5` with its dots as dashes.
        ProviderId::OpenRouter => {
            let bare = name.split_once('/').map_or(name.as_str(), |(_, m)| m);
            lookup(bare).or_else(|| lookup(&bare.replace('.', "-")))
        }
        _ => lookup(&name),
    }
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
    fn the_most_specific_prefix_wins_and_openrouter_drops_the_vendor() {
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
            Some((150_000, 750_000))
        );
        assert_eq!(p(ProviderId::Ollama, "anything"), Some((0, 0)));
        assert_eq!(p(ProviderId::Mistral, "codestral-latest"), None);
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
