//! What calls cost in money: one call's cost as it enters the event log, and the sums per member,
//! per round and per session the shell shows.
//!
//! Amounts are whole micro-dollars (millionths of a US dollar): sums are exact, the log has no
//! floats, and nothing here rounds twice. Core keeps no price table: the runner prices a call (the
//! provider's own reported figure first, e.g. OpenRouter's `usage.cost`; else the person's or the
//! table's price per million tokens times the tokens) and hands the cost in with the answer's
//! [`crate::engine::Usage`]. [`of_call`] is the one rule that picks the figure and says where it
//! came from; [`CostSource`] keeps that, so an estimate is always shown as one.
//!
//! Before a call is made the engine bounds what it can cost ([`Price::worst_case`]) with the
//! prices the runner hands in when a run begins ([`MemberPrices`], kept on the `started` /
//! `resumed` event), so a money budget pauses a session *before* the call that could go past it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The price of each member's model, by member id, as the runner knew it when a run began (the
/// person's own price, else the table's). The engine bounds each call's cost with it before making
/// the call; a member missing here has no known price, so no bound: its calls are made while the
/// money budget is not yet spent (a free model, such as a local server, is priced at zero).
pub type MemberPrices = BTreeMap<String, Price>;

/// A price in micro-dollars per million tokens, prompt and answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Price {
    /// Per million prompt tokens.
    pub input: u64,
    /// Per million answer tokens.
    pub output: u64,
}

impl Price {
    /// The cost of `input` prompt and `output` answer tokens, to the nearest micro-dollar.
    pub fn of(self, input: u64, output: u64) -> u64 {
        let nano = input
            .saturating_mul(self.input)
            .saturating_add(output.saturating_mul(self.output));
        nano.saturating_add(500_000) / 1_000_000
    }

    /// The most a call can cost before it is made: its prompt's estimated tokens in and the
    /// longest answer it may be given (`max_output` tokens) out, rounded up.
    pub fn worst_case(self, prompt_tokens: u64, max_output: u64) -> u64 {
        prompt_tokens
            .saturating_mul(self.input)
            .saturating_add(max_output.saturating_mul(self.output))
            .div_ceil(1_000_000)
    }

    /// A call on this model costs nothing (a server on this machine, the demo model).
    pub fn is_free(self) -> bool {
        self.input == 0 && self.output == 0
    }
}

/// Where a call's cost comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CostSource {
    /// The provider said what the call cost (OpenRouter's `usage.cost`).
    Reported,
    /// A price per million tokens times the tokens the provider counted.
    Priced,
    /// A price times the engine's estimate of the tokens (the provider counted none).
    Estimated,
}

/// What one call cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cost {
    /// Micro-dollars.
    pub micro_usd: u64,
    /// Where the figure comes from.
    pub source: CostSource,
}

impl Cost {
    /// The cost as a person reads it: `$0.0123`, `$0.0123 (reported)`, `≈ $0.0123 (est.)`.
    pub fn text(&self) -> String {
        let amount = usd(self.micro_usd);
        match self.source {
            CostSource::Reported => format!("{amount} (reported)"),
            CostSource::Priced => amount,
            CostSource::Estimated => format!("≈ {amount} (est.)"),
        }
    }
}

/// The cost of one answer, by the one rule: the provider's reported figure when it gave one;
/// else `price` times the tokens the provider counted (`counted`: prompt, answer); else `price`
/// times the engine's estimate (`estimated`), marked as an estimate. `None` when there is neither
/// a reported figure nor a price.
pub fn of_call(
    reported_micro_usd: Option<u64>,
    price: Option<Price>,
    counted: Option<(u64, u64)>,
    estimated: (u64, u64),
) -> Option<Cost> {
    if let Some(micro_usd) = reported_micro_usd {
        return Some(Cost {
            micro_usd,
            source: CostSource::Reported,
        });
    }
    let price = price?;
    let ((input, output), source) = match counted {
        Some(tokens) => (tokens, CostSource::Priced),
        None => (estimated, CostSource::Estimated),
    };
    Some(Cost {
        micro_usd: price.of(input, output),
        source,
    })
}

/// Micro-dollars as a person reads them: six decimals under a hundredth of a cent (`$0.000012`),
/// four under a cent (`$0.0012`), two above (`$12.35`), rounded.
pub fn usd(micro: u64) -> String {
    if micro > 0 && micro < 100 {
        format!("$0.{micro:06}")
    } else if micro > 0 && micro < 10_000 {
        let tenth_millis = (micro + 50) / 100; // units of $0.0001
        format!("${}.{:04}", tenth_millis / 10_000, tenth_millis % 10_000)
    } else {
        let cents = (micro + 5_000) / 10_000;
        format!("${}.{:02}", cents / 100, cents % 100)
    }
}

/// Reads an amount of dollars a person typed (`"0.50"`, `"$2"`, `".5"`) as micro-dollars; at
/// most six decimals. `None` when it is not a non-negative decimal number.
pub fn parse_usd(text: &str) -> Option<u64> {
    let t = text.trim().trim_start_matches('$').trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if (whole.is_empty() && frac.is_empty()) || frac.len() > 6 {
        return None;
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(frac) {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac: u64 = format!("{frac:0<6}").parse().ok()?;
    whole.checked_mul(1_000_000)?.checked_add(frac)
}

/// The sum of some calls' costs.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CostTotal {
    /// Micro-dollars of the calls with a cost.
    pub micro_usd: u64,
    /// Answered calls with a cost.
    pub priced: u32,
    /// Of those, how many were estimates.
    pub estimated: u32,
    /// Of those, how many the provider reported.
    pub reported: u32,
    /// Answered calls with no cost (no price for their model, no figure from the provider).
    pub unpriced: u32,
}

impl CostTotal {
    /// Counts one answered call in.
    pub fn add(&mut self, cost: Option<&Cost>) {
        match cost {
            Some(c) => {
                self.micro_usd += c.micro_usd;
                self.priced += 1;
                match c.source {
                    CostSource::Reported => self.reported += 1,
                    CostSource::Estimated => self.estimated += 1,
                    CostSource::Priced => {}
                }
            }
            None => self.unpriced += 1,
        }
    }

    /// The sum as a person reads it: `≈` when any part is an estimate, `(reported)` when the
    /// provider reported every part, and the calls that had no price.
    pub fn text(&self) -> String {
        if self.priced == 0 && self.unpriced > 0 {
            return "unknown (no price for the model)".into();
        }
        let mut text = usd(self.micro_usd);
        if self.estimated > 0 {
            text = format!("≈ {text} (incl. estimates)");
        } else if self.reported > 0 && self.reported == self.priced {
            text.push_str(" (reported)");
        }
        if self.unpriced > 0 {
            text.push_str(&format!(
                " + {} call{} with no price",
                self.unpriced,
                if self.unpriced == 1 { "" } else { "s" }
            ));
        }
        text
    }
}

/// One member's share of a session's cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberCost {
    /// Member id.
    pub id: String,
    /// Its name, as the page shows it.
    pub name: String,
    /// What its answered calls cost, in words ([`CostTotal::text`]).
    pub text: String,
}

/// What a session cost so far, as the shell shows it: in all, per member and per round.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CostView {
    /// The whole session.
    pub total: CostTotal,
    /// The total in words ([`CostTotal::text`]).
    pub total_text: String,
    /// Per member, in the order members first answered.
    pub members: Vec<MemberCost>,
    /// Per round ("Start", "Round 2", "Turn 3"), oldest first, with the sum in words.
    pub rounds: Vec<(String, String)>,
    /// The money budget in words, when there is one: "$0.12 of $0.50".
    pub budget_text: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reported_figure_wins_then_counted_tokens_then_an_estimate() {
        let price = Price {
            input: 1_250_000,
            output: 10_000_000,
        };
        let reported = of_call(Some(777), Some(price), Some((1, 1)), (1, 1)).unwrap();
        assert_eq!(reported.source, CostSource::Reported);
        assert_eq!(reported.micro_usd, 777);
        let priced = of_call(None, Some(price), Some((12_000, 800)), (1, 1)).unwrap();
        assert_eq!(
            (priced.micro_usd, priced.source),
            (23_000, CostSource::Priced)
        );
        let est = of_call(None, Some(price), None, (1_000, 100)).unwrap();
        assert_eq!((est.micro_usd, est.source), (2_250, CostSource::Estimated));
        assert_eq!(est.text(), "≈ $0.0023 (est.)");
        assert_eq!(reported.text(), "$0.0008 (reported)");
        assert_eq!(of_call(None, None, Some((5, 5)), (5, 5)), None);
    }

    #[test]
    fn amounts_read_and_print_as_people_write_them() {
        assert_eq!(usd(0), "$0.00");
        assert_eq!(usd(23_000), "$0.02");
        assert_eq!(usd(12_345_678), "$12.35");
        assert_eq!(usd(1), "$0.000001");
        assert_eq!(usd(99), "$0.000099");
        assert_eq!(usd(100), "$0.0001");
        assert_eq!(usd(9_999), "$0.0100");
        assert_eq!(parse_usd(" $0.50 "), Some(500_000));
        assert_eq!(parse_usd("2"), Some(2_000_000));
        assert_eq!(parse_usd(".000001"), Some(1));
        for bad in ["", "-1", "1e3", "0.1234567", "1.2.3", "$"] {
            assert_eq!(parse_usd(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn totals_say_when_they_hold_estimates_reports_or_unknowns() {
        let c = |micro_usd, source| Some(Cost { micro_usd, source });
        let mut t = CostTotal::default();
        t.add(c(10_000, CostSource::Reported).as_ref());
        t.add(c(20_000, CostSource::Reported).as_ref());
        assert_eq!(t.text(), "$0.03 (reported)");
        t.add(c(5_000, CostSource::Priced).as_ref());
        assert_eq!(t.text(), "$0.04");
        t.add(c(5_000, CostSource::Estimated).as_ref());
        t.add(None);
        assert_eq!(t.text(), "≈ $0.04 (incl. estimates) + 1 call with no price");
        let mut none = CostTotal::default();
        none.add(None);
        assert_eq!(none.text(), "unknown (no price for the model)");
        assert_eq!(CostTotal::default().text(), "$0.00");
    }
}
