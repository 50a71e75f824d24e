//! What a call costs: a dated price table per known model (US dollars per million tokens, input
//! and output), a person's own price for any model (a setting, which wins), and the cost of a
//! call from its token counts.
//!
//! A model's price is the person's own ([`setting`], read with [`parse`]) if set, else
//! [`known`]'s. Prices change; the table says when it was taken ([`PRICES_DATED`]) and is only a default. A
//! cost computed from estimated token counts (a provider that did not report usage) is marked
//! [`Cost::estimated`] and shown as an estimate, never as the provider's figure. Servers on this
//! machine cost nothing here.

use super::ProviderId;

/// When the table was taken from the providers' price pages.
pub const PRICES_DATED: &str = "2025-11";

/// US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    /// Per million prompt tokens.
    pub input: f64,
    /// Per million answer tokens.
    pub output: f64,
}

/// Model name prefix → price, most specific first within a vendor (the first prefix that
/// matches wins, so `gpt-4.1-mini` comes before `gpt-4.1`).
const TABLE: &[(&str, f64, f64)] = &[
    // OpenAI
    ("gpt-5-nano", 0.05, 0.40),
    ("gpt-5-mini", 0.25, 2.00),
    ("gpt-5", 1.25, 10.00),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1", 2.00, 8.00),
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4o", 2.50, 10.00),
    ("o4-mini", 1.10, 4.40),
    ("o3", 2.00, 8.00),
    // Anthropic
    ("claude-opus-4-5", 5.00, 25.00),
    ("claude-opus-4", 15.00, 75.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-haiku-4-5", 1.00, 5.00),
    ("claude-3-5-haiku", 0.80, 4.00),
    // Google
    ("gemini-2.5-flash-lite", 0.10, 0.40),
    ("gemini-2.5-flash", 0.30, 2.50),
    ("gemini-2.5-pro", 1.25, 10.00),
    // Mistral
    ("mistral-small", 0.10, 0.30),
    ("mistral-medium", 0.40, 2.00),
    ("mistral-large", 2.00, 6.00),
    // Groq
    ("openai/gpt-oss-120b", 0.15, 0.75),
    ("openai/gpt-oss-20b", 0.10, 0.50),
    ("llama-3.3-70b-versatile", 0.59, 0.79),
    ("llama-3.1-8b-instant", 0.05, 0.08),
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
            input: 0.0,
            output: 0.0,
        });
    }
    let name = model.trim().to_ascii_lowercase();
    let name = match provider {
        ProviderId::OpenRouter => name
            .split_once('/')
            .map_or(name.clone(), |(_, m)| m.replace('.', "-")),
        _ => name,
    };
    let name = name.trim_start_matches("models/");
    TABLE
        .iter()
        .find(|(prefix, _, _)| name.starts_with(prefix))
        .map(|&(_, input, output)| Price { input, output })
}

/// The settings key of a person's own price for a model.
pub fn setting(provider: ProviderId, model: &str) -> String {
    format!("price:{}:{}", provider.as_str(), model.trim())
}

/// Reads a person's price, written `input / output` in dollars per million tokens
/// (`"1.25 / 10"`); `None` when it is not two non-negative numbers.
pub fn parse(text: &str) -> Option<Price> {
    let (input, output) = text.split_once('/')?;
    let number = |s: &str| {
        s.trim()
            .trim_start_matches('$')
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0)
    };
    Some(Price {
        input: number(input)?,
        output: number(output)?,
    })
}

/// What one call cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// US dollars.
    pub usd: f64,
    /// Computed from estimated token counts, not the provider's own.
    pub estimated: bool,
}

/// The cost of `input` prompt and `output` answer tokens at `price`.
pub fn cost(price: Price, input: u64, output: u64, estimated: bool) -> Cost {
    Cost {
        usd: (input as f64 * price.input + output as f64 * price.output) / 1_000_000.0,
        estimated,
    }
}

/// A cost as a person reads it: four decimals under a cent, two above; `≈` and "est." for an
/// estimate.
pub fn format(cost: Cost) -> String {
    let amount = if cost.usd > 0.0 && cost.usd < 0.01 {
        format!("${:.4}", cost.usd)
    } else {
        format!("${:.2}", cost.usd)
    };
    if cost.estimated {
        format!("≈ {amount} (est.)")
    } else {
        amount
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_specific_prefix_wins_and_openrouter_drops_the_vendor() {
        let p = |id, m| known(id, m).map(|p| (p.input, p.output));
        assert_eq!(
            p(ProviderId::OpenAi, "gpt-4.1-mini-2025-04-14"),
            Some((0.40, 1.60))
        );
        assert_eq!(p(ProviderId::OpenAi, "gpt-4.1"), Some((2.00, 8.00)));
        assert_eq!(
            p(ProviderId::Anthropic, "claude-opus-4-5-20251101"),
            Some((5.0, 25.0))
        );
        assert_eq!(
            p(ProviderId::Anthropic, "claude-opus-4-1"),
            Some((15.0, 75.0))
        );
        assert_eq!(
            p(ProviderId::OpenRouter, "anthropic/claude-sonnet-4.5"),
            Some((3.0, 15.0))
        );
        assert_eq!(
            p(ProviderId::Gemini, "models/gemini-2.5-flash"),
            Some((0.30, 2.50))
        );
        assert_eq!(
            p(ProviderId::Groq, "openai/gpt-oss-120b"),
            Some((0.15, 0.75))
        );
        assert_eq!(p(ProviderId::Ollama, "anything"), Some((0.0, 0.0)));
        assert_eq!(p(ProviderId::Mistral, "codestral-latest"), None);
    }

    #[test]
    fn costs_add_up_and_estimates_say_so() {
        let price = parse(" $1.25 / 10 ").unwrap();
        let c = cost(price, 12_000, 800, false);
        assert!((c.usd - 0.023).abs() < 1e-9, "{}", c.usd);
        assert_eq!(format(c), "$0.02");
        assert_eq!(format(cost(price, 1_000, 100, true)), "≈ $0.0022 (est.)");
        assert_eq!(
            format(cost(
                Price {
                    input: 0.0,
                    output: 0.0
                },
                5,
                5,
                false
            )),
            "$0.00"
        );
        assert_eq!(parse("1.25"), None);
        assert_eq!(parse("-1 / 2"), None);
    }
}
