//! The realistic mistakes the demo model makes now and then, so a first-time visitor also sees the
//! validator and the repair loop at work.
//!
//! They are the shapes real models send (see `DESIGN.md`, "What models really send"): a ```json
//! fence with prose around it (recovered locally, a warning only), an over-long `shortestSummary`,
//! an id that does not exist, an enum spelled the wrong way. Which call errs is fixed by the seed;
//! a repair call never errs, so the loop always ends.

use serde::{Deserialize, Serialize};

use super::input::DemoInput;
use super::rng::SplitMix64;
use crate::wire::{FinalOutput, Step};

/// On average one answer in this many carries a mistake.
pub const MISTAKE_ONE_IN: u64 = 7;

/// A kind of mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mistake {
    /// The JSON wrapped in a ```json fence with a sentence before and after: valid once recovered,
    /// recorded as a warning.
    JsonFence,
    /// A collab's `shortestSummary` longer than the limit.
    LongSummary,
    /// A product (or member) id that does not exist.
    DanglingId,
    /// An enum value spelled the wrong way (`needs-revision`, `Approved`, `content`).
    WrongEnum,
}

impl Mistake {
    /// Every kind, in the order they are tried.
    pub const ALL: [Mistake; 4] = [
        Mistake::JsonFence,
        Mistake::LongSummary,
        Mistake::DanglingId,
        Mistake::WrongEnum,
    ];

    /// True when the validator recovers the answer without a repair call.
    pub fn is_recoverable(self) -> bool {
        self == Mistake::JsonFence
    }
}

/// Whether this call errs: never on a repair, else one in [`MISTAKE_ONE_IN`].
pub(crate) fn roll(rng: &mut SplitMix64, input: &DemoInput) -> bool {
    input.repair.is_none() && rng.chance(1, MISTAKE_ONE_IN)
}

/// The answer text with one mistake in it, trying the kinds in a seeded order and keeping the first
/// that applies to this output; `None` when none does.
pub(crate) fn commit(
    rng: &mut SplitMix64,
    input: &DemoInput,
    out: &FinalOutput,
    render: impl Fn(&FinalOutput) -> String,
) -> Option<(Mistake, String)> {
    let start = rng.below(Mistake::ALL.len());
    for k in 0..Mistake::ALL.len() {
        let kind = Mistake::ALL[(start + k) % Mistake::ALL.len()];
        let text = match kind {
            Mistake::JsonFence => Some(fence(rng, &render(out))),
            Mistake::LongSummary => {
                let mut o = out.clone();
                long_summary(&mut o).then(|| render(&o))
            }
            Mistake::DanglingId => {
                let mut o = out.clone();
                dangling(&mut o, input).then(|| render(&o))
            }
            Mistake::WrongEnum => wrong_enum(out.step(), &render(out)),
        };
        if let Some(text) = text {
            return Some((kind, text));
        }
    }
    None
}

const BEFORE: [&str; 3] = [
    "Here is my answer for this step:",
    "Sure! Below is the JSON for this step.",
    "Understood. My output:",
];
const AFTER: [&str; 3] = [
    "Let me know if anything should change.",
    "I kept every field within the limits.",
    "Happy to revise any part of it.",
];

fn fence(rng: &mut SplitMix64, json: &str) -> String {
    format!(
        "{}\n\n```json\n{}\n```\n\n{}",
        rng.pick(&BEFORE),
        json,
        rng.pick(&AFTER)
    )
}

const LONG_TAIL: &str = " – this matters because the current version does not yet say who does what and by when, which is exactly what its definition of done asks for";

fn long_summary(out: &mut FinalOutput) -> bool {
    let collabs = match out {
        FinalOutput::Reflect(o) => &mut o.collabs,
        FinalOutput::Write(o) => &mut o.collabs,
        FinalOutput::PeerReview(o) => &mut o.collabs,
        FinalOutput::Inspection(o) => &mut o.collabs,
        _ => return false,
    };
    let Some(c) = collabs.first_mut() else {
        return false;
    };
    c.shortest_summary = format!("{}{}", c.shortest_summary.trim_end_matches('.'), LONG_TAIL);
    c.shortest_summary.chars().count() > crate::wire::limits::COLLAB_SUMMARY_MAX
}

/// A product id the session does not know.
pub(crate) fn dangling_product(input: &DemoInput) -> String {
    let taken = |id: &str| input.products.iter().any(|p| p.id == id);
    let mut n = 99;
    while taken(&format!("p{n}")) {
        n += 100;
    }
    format!("p{n}")
}

fn dangling(out: &mut FinalOutput, input: &DemoInput) -> bool {
    let bad = dangling_product(input);
    match out {
        FinalOutput::Bootstrap(o) => {
            let ops = input.operatives().len();
            let Some(p) = o.initial_products.first_mut() else {
                return false;
            };
            p.owner = Some(format!("operative-{}", ops + 3));
            true
        }
        FinalOutput::Reflect(o) => o
            .reflections
            .first_mut()
            .map(|r| r.refers_to_product = bad)
            .is_some(),
        FinalOutput::PlanAssign(o) => {
            if let Some(a) = o.acceptance.first_mut() {
                a.product_id = bad;
                true
            } else if let Some(a) = o
                .assignments
                .iter_mut()
                .find(|a| !a.product_id.starts_with("new-"))
            {
                a.product_id = bad;
                true
            } else {
                false
            }
        }
        FinalOutput::Write(o) => o.versions.first_mut().map(|v| v.product_id = bad).is_some(),
        FinalOutput::PeerReview(o) => o.reviews.first_mut().map(|r| r.product_id = bad).is_some(),
        FinalOutput::Inspection(o) => o
            .inspections
            .first_mut()
            .map(|r| r.product_id = bad)
            .is_some(),
        FinalOutput::Presentation(_) => false,
    }
}

/// The keys whose enum value a step's wrong-spelling mistake changes, in order of preference.
fn enum_keys(step: Step) -> &'static [&'static str] {
    match step {
        Step::Bootstrap | Step::PlanAssign | Step::Write => &["type"],
        Step::Reflect => &["dodStatus", "action"],
        Step::PeerReview => &["assessment"],
        Step::Inspection => &["assessment", "category"],
        Step::Presentation => &[],
    }
}

/// A plausible wrong spelling: `needs_revision` → `needs-revision`, `approved` → `Approved`,
/// `Content` → `content`.
fn misspell(value: &str) -> String {
    if value.contains('_') {
        return value.replace('_', "-");
    }
    let mut chars = value.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Changes the first `"key": "value"` of the step's enum keys in pretty-printed JSON.
fn wrong_enum(step: Step, json: &str) -> Option<String> {
    for key in enum_keys(step) {
        let needle = format!("\"{key}\": \"");
        let Some(at) = json.find(&needle) else {
            continue;
        };
        let start = at + needle.len();
        let len = json[start..].find('"')?;
        let value = &json[start..start + len];
        let wrong = misspell(value);
        if wrong == value || wrong.is_empty() {
            continue;
        }
        return Some(format!(
            "{}{}{}",
            &json[..start],
            wrong,
            &json[start + len..]
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_differ_from_the_right_spelling() {
        assert_eq!(misspell("needs_revision"), "needs-revision");
        assert_eq!(misspell("approved"), "Approved");
        assert_eq!(misspell("Content"), "content");
    }

    #[test]
    fn wrong_enum_changes_only_the_first_value() {
        let json = "{\n  \"assessment\": \"approved\",\n  \"x\": {\"assessment\": \"approved\"}\n}";
        let out = wrong_enum(Step::PeerReview, json).unwrap();
        assert_eq!(out.matches("\"Approved\"").count(), 1);
        assert_eq!(out.matches("\"approved\"").count(), 1);
        assert!(wrong_enum(Step::Presentation, json).is_none());
    }
}
