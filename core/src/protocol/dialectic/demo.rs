//! The built-in demo model's side of a dialectic: it reads the call's envelope and argues about
//! the query it was given — a thesis built on the query's own words, critiques that differ by the
//! critic's standpoint (the Logician attacks the argument, the Empiricist the evidence, the
//! Ethicist who pays; another persona gets one of these by its words), and a synthesis in the
//! chosen style that answers each critique by name. Now and then (seeded, at most once a call and
//! only on its first try) it sends an invalid answer, so the repair shows in a demo.
//! Seeded by the query and the call id: the same dialectic plays the same way again.

use serde_json::Value;

use super::answer::{
    limits, Antithesis, Contradiction, ResearchProposal, SingleShot, Synthesis, Thesis,
    SCHEMA_VERSION,
};
use super::config::ResponseStyle;
use super::prompt::{CritiqueView, DialecticEnvelope, MemberView};
use super::{DialecticState, DialecticStep};
use crate::demo::rng::{fnv1a, mix, SplitMix64};
use crate::engine::{estimate_tokens, CallKind, DemoReply, StoredCall};

/// Words that carry no topic.
const STOP: &[&str] = &[
    "about", "after", "again", "against", "should", "would", "could", "their", "there", "these",
    "those", "which", "where", "while", "whether", "really", "being", "worth", "better", "other",
    "every", "what", "when", "with", "from", "into", "than", "that", "this", "have", "does",
];

/// The critics' standpoints the demo knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lens {
    Logic,
    Evidence,
    Ethics,
}

/// The standpoint of a critic: by its id, name or persona; else one picked by its id's hash.
fn lens(critic: &MemberView) -> Lens {
    let words = format!("{} {} {}", critic.id, critic.name, critic.persona).to_lowercase();
    if words.contains("logic") || words.contains("argument") {
        Lens::Logic
    } else if words.contains("empiric") || words.contains("evidence") || words.contains("data") {
        Lens::Evidence
    } else if words.contains("ethic") || words.contains("fair") || words.contains("harm") {
        Lens::Ethics
    } else {
        [Lens::Logic, Lens::Evidence, Lens::Ethics][(fnv1a(critic.id.as_bytes()) % 3) as usize]
    }
}

/// The query's first sentence, whole (at most 160 characters, cut at a word).
fn question(env: &DialecticEnvelope) -> String {
    let first = env
        .query
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let sentence = first
        .split_inclusive(['?', '.', '!'])
        .next()
        .unwrap_or(first)
        .trim();
    let cut = crate::demo::topics::cut_at_word(sentence, 160);
    if cut.len() < sentence.len() {
        format!("{cut}…")
    } else {
        cut.to_string()
    }
}

/// Up to three words of the query that carry its topic (longest first), lowercase.
fn terms(env: &DialecticEnvelope) -> Vec<String> {
    let mut words: Vec<String> = env
        .query
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 5 && !STOP.contains(&w.as_str()))
        .collect();
    let mut seen = Vec::new();
    words.retain(|w| {
        let new = !seen.contains(w);
        seen.push(w.clone());
        new
    });
    words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    words.truncate(3);
    while words.len() < 3 {
        words.push(["the proposal", "the change", "the outcome"][words.len()].to_string());
    }
    words
}

/// The demo's answer to `call`.
pub fn answer(call: &StoredCall<DialecticState>, env: &DialecticEnvelope) -> DemoReply {
    let seed = fnv1a(env.query.as_bytes());
    let mut rng = SplitMix64::new(mix(seed, &[&call.id]));
    // At most one mistake a call, only on its first try: the repair then always succeeds.
    let err = call.kind == CallKind::Initial && rng.chance(1, 4);
    let mut value = match env.step {
        DialecticStep::Thesis => serde_json::to_value(thesis(env)),
        DialecticStep::Antithesis => serde_json::to_value(antithesis(env, &env.me)),
        DialecticStep::Synthesis => serde_json::to_value(synthesis(env, &env.critiques)),
        DialecticStep::SingleShot => serde_json::to_value(single_shot(env)),
    }
    .unwrap_or(Value::Null);
    if err {
        mistake(env, &mut value, &mut rng);
    }
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    DemoReply {
        completion_tokens: estimate_tokens(&text),
        prompt_tokens: call.token_estimate,
        finish_reason: "stop".into(),
        text,
    }
}

/// One of the mistakes real models make, each caught by the validator: the version left out, a
/// contradiction without its evidence, the wrong form for the style, a `result` that misses the
/// person's schema.
fn mistake(env: &DialecticEnvelope, value: &mut Value, rng: &mut SplitMix64) {
    let Some(obj) = value.as_object_mut() else {
        return;
    };
    let final_step = matches!(
        env.step,
        DialecticStep::Synthesis | DialecticStep::SingleShot
    );
    match rng.below(3) {
        0 if final_step && env.response_schema.is_some() => {
            obj.insert("result".into(), Value::Object(Default::default()));
        }
        0 if final_step && env.style == ResponseStyle::Conversational => {
            obj.insert(
                "synthesis".into(),
                "## In short\n- It depends on the upkeep.\n- And on who pays for it.".into(),
            );
        }
        1 if env.step == DialecticStep::Antithesis => {
            if let Some(Value::Object(first)) =
                obj.get_mut("contradictions").and_then(|c| c.get_mut(0))
            {
                first.remove("evidence");
            }
        }
        _ => {
            obj.remove("schema_version");
        }
    }
}

fn thesis(env: &DialecticEnvelope) -> Thesis {
    let [a, b, c] = three(env);
    let cite = if env.sources.is_empty() {
        String::new()
    } else {
        format!(
            " The attached source \"{}\" [1] points the same way.",
            crate::demo::topics::cut_at_word(env.sources[0].title.trim(), 80)
        )
    };
    Thesis {
        schema_version: SCHEMA_VERSION,
        thesis: format!(
            "Asked \"{q}\", the strongest answer is a qualified yes. {A} pays off when {b} is \
handled deliberately: the benefits show early, the costs are known and bounded, and the \
alternative — doing nothing about {c} — carries costs of its own that are easy to overlook.{cite}",
            q = question(env),
            A = capital(&a),
        ),
        assumptions: vec![
            format!("The benefits of {a} last beyond the first months."),
            format!("The costs of {b} are known in advance."),
        ],
        uncertainties: vec![format!(
            "How {c} plays out where conditions differ from the usual case."
        )],
    }
}

fn antithesis(env: &DialecticEnvelope, critic: &MemberView) -> Antithesis {
    let [a, b, c] = three(env);
    let (text, contradictions, assumption) = match lens(critic) {
        Lens::Logic => (
            format!(
                "The thesis slides from \"the benefits show early\" to \"{a} pays off\" without the \
premise that early benefits last, and it uses \"{b}\" both for the means and for the result. \
Grant its premises and the conclusion still does not follow."
            ),
            vec![
                Contradiction {
                    description: format!("It calls the costs of {b} bounded, yet counts only the first months."),
                    evidence: "Its own assumptions list says the benefits must last; the argument never shows they do.".into(),
                },
                Contradiction {
                    description: format!("\"{b}\" is the means and the measure of success at once."),
                    evidence: "The same word carries both senses in consecutive sentences of the thesis.".into(),
                },
            ],
            "A valid argument is enough to settle the question.".to_string(),
        ),
        Lens::Evidence => (
            format!(
                "Nothing in the thesis was measured. Which cases of {a} were looked at, and how \
were they chosen? We hear about {a} where it worked; the failures of {c} rarely get written up, \
so \"the costs are known\" is an assumption dressed as a finding."
            ),
            vec![Contradiction {
                description: format!("The thesis says the costs of {b} are known, but cites no figure."),
                evidence: "No count, rate or study appears anywhere in it; survivorship bias would produce the same impression.".into(),
            }],
            "Published cases are a fair sample of what happens.".to_string(),
        ),
        Lens::Ethics => (
            format!(
                "The thesis weighs benefits to those who choose {a} and never asks who carries the \
cost of {b}. The people affected by {c} who had no say are missing from its framing."
            ),
            vec![Contradiction {
                description: format!("\"Bounded costs\" are bounded for the decision-maker, not for those who bear {b}."),
                evidence: "The thesis names beneficiaries but no one who pays, consents or can opt out.".into(),
            }],
            "Those affected would agree if asked.".to_string(),
        ),
    };
    Antithesis {
        schema_version: SCHEMA_VERSION,
        antithesis: text,
        contradictions,
        assumptions: vec![assumption],
        uncertainties: vec![format!(
            "Whether the objection holds for {a} at every scale."
        )],
    }
}

/// The point each critique leaves standing, and the research that would settle it.
fn answer_to(critique: &CritiqueView, terms: &[String; 3]) -> (String, ResearchProposal) {
    let [a, b, _] = terms;
    match lens(&critique.critic) {
        Lens::Logic => (
            format!("{} is right that early benefits prove nothing about later ones: the claim holds only where {a} keeps paying after the first months.", critique.critic.name),
            ResearchProposal {
                proposal: format!("Follow cases of {a} for two years, not two months."),
                testable_prediction: "Where the benefits are real, they are still measurable after a year.".into(),
            },
        ),
        Lens::Evidence => (
            format!("{} is right that the costs were assumed, not counted: until they are, the yes is provisional.", critique.critic.name),
            ResearchProposal {
                proposal: format!("Collect the costs of {b} from every case, the failures included."),
                testable_prediction: "The failed cases cost at least as much as the successful ones reported.".into(),
            },
        ),
        Lens::Ethics => (
            format!("{} is right that those who bear {b} must be asked: a yes that skips them does not stand.", critique.critic.name),
            ResearchProposal {
                proposal: format!("Ask those affected by {b} before deciding, and record their answer."),
                testable_prediction: "Support among those affected is lower than among those who choose.".into(),
            },
        ),
    }
}

fn synthesis(env: &DialecticEnvelope, critiques: &[CritiqueView]) -> Synthesis {
    let terms = three(env);
    let (points, mut proposals): (Vec<String>, Vec<ResearchProposal>) =
        critiques.iter().map(|c| answer_to(c, &terms)).unzip();
    proposals.truncate(limits::PROPOSALS_MAX);
    if proposals.is_empty() {
        proposals.push(ResearchProposal {
            proposal: format!("Try {} at a small scale first and measure it.", terms[0]),
            testable_prediction: "The small trial shows the benefits within its first months."
                .into(),
        });
    }
    Synthesis {
        schema_version: SCHEMA_VERSION,
        synthesis: synthesis_text(env, &points),
        research_proposals: proposals,
        assumptions: vec![format!(
            "The critiques cover the main ways {} can fail.",
            terms[0]
        )],
        uncertainties: vec![format!(
            "How much the answer changes once {} is measured.",
            terms[1]
        )],
        result: env.response_schema.as_ref().map(|s| fill(s, env)),
    }
}

/// The synthesis in the response style: a verdict, then each critique's point.
fn synthesis_text(env: &DialecticEnvelope, points: &[String]) -> String {
    let [a, b, _] = three(env);
    let verdict =
        format!("A conditional yes: {a} is worth it only where {b} is planned for from the start.");
    let mut points = points.to_vec();
    if points.is_empty() {
        points.push(format!("The thesis stands for the usual case of {a}."));
    }
    match env.style {
        ResponseStyle::BulletPoints => {
            let mut lines = vec![format!("- {verdict}")];
            lines.extend(points.iter().map(|p| format!("- {p}")));
            while lines.len() < limits::BULLETS_MIN {
                lines.push(format!("- Decide again once {b} has been measured."));
            }
            lines.join("\n")
        }
        ResponseStyle::Conversational => format!(
            "{verdict} {}\n\nSo the honest answer is yes, with conditions you can check.",
            points.join(" ")
        ),
        ResponseStyle::Json => format!("{verdict} {}", points.join(" ")),
        ResponseStyle::Sections | ResponseStyle::SynthesisOnly => format!(
            "**{verdict}**\n\n{}\n\nWhat remains open is empirical, and the proposals below would settle it.",
            points.join("\n\n")
        ),
    }
}

fn single_shot(env: &DialecticEnvelope) -> SingleShot {
    let t = thesis(env);
    let critic = env.critics.first().cloned().unwrap_or(MemberView {
        id: "critic".into(),
        name: "The critic".into(),
        persona: String::new(),
    });
    let views: Vec<CritiqueView> = if env.use_council {
        env.critics.clone()
    } else {
        vec![critic]
    }
    .into_iter()
    .map(|c| CritiqueView {
        antithesis: antithesis(env, &c),
        critic: c,
    })
    .collect();
    let antithesis_text = views
        .iter()
        .map(|v| format!("**{}.** {}", v.critic.name, v.antithesis.antithesis))
        .collect::<Vec<_>>()
        .join("\n\n");
    let mut contradictions: Vec<Contradiction> = views
        .iter()
        .flat_map(|v| v.antithesis.contradictions.clone())
        .collect();
    contradictions.truncate(limits::CONTRADICTIONS_MAX);
    let s = synthesis(env, &views);
    SingleShot {
        schema_version: SCHEMA_VERSION,
        thesis: t.thesis,
        antithesis: antithesis_text,
        synthesis: s.synthesis,
        contradictions,
        research_proposals: s.research_proposals,
        assumptions: t.assumptions,
        uncertainties: s.uncertainties,
        result: s.result,
    }
}

/// A value meeting the person's schema, its texts taken from the query.
fn fill(schema: &Value, env: &DialecticEnvelope) -> Value {
    let [a, b, _] = three(env);
    let text = format!("A conditional yes on {a}, if {b} is planned for.");
    fill_with(schema, &text)
}

fn fill_with(schema: &Value, text: &str) -> Value {
    let mut base = super::prompt::example_of_schema(schema);
    replace_texts(schema, &mut base, text);
    base
}

/// Puts `text` (fitted to each string's limits) in the example's free strings.
fn replace_texts(schema: &Value, value: &mut Value, text: &str) {
    match value {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                replace_texts(&schema["properties"][k.as_str()], v, text);
            }
        }
        Value::Array(items) => {
            for v in items {
                replace_texts(&schema["items"], v, text);
            }
        }
        Value::String(s) if schema.get("enum").is_none() => {
            let min = schema["minLength"].as_u64().unwrap_or(0) as usize;
            let max = schema["maxLength"]
                .as_u64()
                .map_or(usize::MAX, |m| m as usize);
            let mut t = text.to_string();
            while t.chars().count() < min {
                t.push_str(" Planned, measured, asked.");
            }
            if t.chars().count() <= max {
                *s = t;
            }
        }
        _ => {}
    }
}

fn three(env: &DialecticEnvelope) -> [String; 3] {
    let t = terms(env);
    [t[0].clone(), t[1].clone(), t[2].clone()]
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}
