//! The built-in demo model's side of a dialectic: it reads the call's envelope and argues about
//! the query it was given — a thesis built on the query's own words, critiques that differ by the
//! critic's standpoint (the Logician attacks the argument, the Empiricist the evidence, the
//! Ethicist who pays; another persona gets one of these by its words), and a synthesis in the
//! chosen style that answers each critique by name. Now and then (seeded: on its first try, at most
//! once a dialectic) it sends an invalid answer, so the repair shows in a demo.
//! Seeded by the query and the call id: the same dialectic plays the same way again.

use serde_json::Value;

use super::answer::{
    limits, Antithesis, Contradiction, ResearchProposal, SingleShot, Synthesis, Thesis,
    SCHEMA_VERSION,
};
use super::config::ResponseStyle;
use super::prompt::{CritiqueView, DialecticEnvelope, MemberView};
use super::DialecticStep;
use roundtable_engine::demo::rng::{fnv1a, mix, SplitMix64};
use roundtable_engine::engine::{CallKind, DemoReply, StoredCall};

/// Words that carry no topic: the query is cut into phrases at them.
const STOP: &[&str] = &[
    "a", "an", "the", "to", "of", "in", "on", "for", "from", "with", "as", "at", "by", "or", "and",
    "is", "are", "be", "it", "its", "their", "our", "we", "you", "they", "should", "would",
    "could", "can", "do", "does", "did", "will", "worth", "what", "when", "which", "who", "how",
    "why", "whether", "than", "that", "this", "there", "these", "those", "one", "move", "use",
    "make", "build", "replace", "ban", "cut", "good", "way", "quickly", "strong", "really",
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
    let cut = roundtable_engine::text::cut_at_word(sentence, 160);
    if cut.len() < sentence.len() {
        format!("{cut}…")
    } else {
        cut.to_string()
    }
}

/// Up to three phrases of the query that carry its topic ("four-day work week", "small
/// software company"), lowercase: the query cut at its [`STOP`] words.
fn terms(env: &DialecticEnvelope) -> Vec<String> {
    let mut phrases: Vec<Vec<String>> = vec![Vec::new()];
    for word in env
        .query
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'')
        .filter(|w| !w.is_empty())
    {
        let lower = word.to_lowercase();
        if STOP.contains(&lower.as_str()) || lower.chars().count() < 3 {
            phrases.push(Vec::new());
        } else if let Some(last) = phrases.last_mut() {
            last.push(lower);
        }
    }
    let mut terms: Vec<String> = Vec::new();
    for p in phrases.into_iter().filter(|p| !p.is_empty()) {
        let phrase = p.join(" ");
        // A lone word names a topic only when it is a long one ("rewriting", not "scratch").
        let topical = p.len() > 1 || phrase.chars().count() >= 8;
        if topical && !terms.contains(&phrase) && phrase.chars().count() <= 60 {
            terms.push(phrase);
        }
    }
    // Phrases of several words first, the later in the query first: what a question asks about
    // tends to close it ("… move to a four-day work week?").
    let order: Vec<String> = terms.clone();
    roundtable_engine::order::sort_by_key(&mut terms, |t| {
        let place = order.iter().position(|o| o == t).unwrap_or(0);
        std::cmp::Reverse((t.contains(' '), place))
    });
    terms.truncate(3);
    // A query with fewer phrases: what the demo says instead, by place.
    const FALLBACK: [&str; 3] = ["the question", "the change", "those affected"];
    while terms.len() < 3 {
        terms.push(FALLBACK[terms.len()].to_string());
    }
    terms
}

/// The demo's answer to `call`, as the demo model `model` (another demo variant than
/// [`roundtable_engine::demo::MODEL`] speaks in a second voice, so a fork's what-if shows a difference).
pub fn answer(call: &StoredCall, env: &DialecticEnvelope, model: &str) -> DemoReply {
    let seed = fnv1a(env.query.as_bytes());
    let mut rng = SplitMix64::new(mix(seed, &[&call.id]));
    let err = call.kind == CallKind::Initial && errs_here(seed, env);
    let mut value = match env.step {
        DialecticStep::Thesis => serde_json::to_value(thesis(env)),
        DialecticStep::Antithesis => serde_json::to_value(antithesis(env, &env.me)),
        DialecticStep::Synthesis => serde_json::to_value(synthesis(env, &env.critiques)),
        DialecticStep::SingleShot => serde_json::to_value(single_shot(env)),
    }
    .unwrap_or(Value::Null);
    if model != roundtable_engine::demo::MODEL && roundtable_engine::demo::VARIANTS.contains(&model)
    {
        second_voice(env, &mut value);
    }
    if err {
        mistake(env, &mut value, &mut rng);
    }
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    DemoReply::stop(text, call.token_estimate)
}

/// The phase's own text with a second voice's closing sentence: what would show it wrong.
fn second_voice(env: &DialecticEnvelope, value: &mut Value) {
    let field = match env.step {
        DialecticStep::Thesis => "thesis",
        DialecticStep::Antithesis => "antithesis",
        DialecticStep::Synthesis | DialecticStep::SingleShot => "synthesis",
    };
    // A bullet-point synthesis stays points only.
    let (sep, lead) = match (field, env.style) {
        ("synthesis", ResponseStyle::BulletPoints) => ("\n", "- "),
        _ => ("\n\n", ""),
    };
    if let Some(Value::String(text)) = value.get_mut(field) {
        let [a, _, _] = three(env);
        text.push_str(&format!(
            "{sep}{lead}In a second voice: what observation about {a} would show this wrong?"
        ));
    }
}

/// Whether this call is the one of the dialectic that gets a mistake: at most one a dialectic,
/// on its first try (the repair then succeeds), in three dialectics of four — the phase, and the
/// critic within a council, picked by the query's seed.
fn errs_here(seed: u64, env: &DialecticEnvelope) -> bool {
    let mut rng = SplitMix64::new(mix(seed, &["mistake"]));
    let phase = rng.below(4);
    let critic = rng.below(env.critics.len().max(1));
    match env.step {
        DialecticStep::SingleShot => phase < 3,
        DialecticStep::Thesis => phase == 0,
        DialecticStep::Antithesis => {
            phase == 1 && env.critics.get(critic).is_some_and(|c| c.id == env.me.id)
        }
        DialecticStep::Synthesis => phase == 2,
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
            roundtable_engine::text::cut_at_word(env.sources[0].title.trim(), 80)
        )
    };
    Thesis {
        schema_version: SCHEMA_VERSION,
        thesis: format!(
            "Asked \"{q}\", the strongest answer is a qualified yes. Everything turns on {a} \
and {b}: the benefits show early, the costs are known and bounded, and doing nothing has costs of \
its own for {c} that are easy to overlook.{cite}",
            q = question(env),
        ),
        assumptions: vec![
            format!("The early benefits for {a} last beyond the first months."),
            format!("The costs that come with {b} are known in advance."),
        ],
        uncertainties: vec![format!(
            "How this plays out for {c} where conditions differ from the usual case."
        )],
    }
}

fn antithesis(env: &DialecticEnvelope, critic: &MemberView) -> Antithesis {
    let [a, b, _] = three(env);
    let (text, contradictions, assumption) = match lens(critic) {
        Lens::Logic => (
            format!(
                "The thesis slides from \"the benefits show early\" to \"the answer is yes\" \
without the premise that early benefits last, and it treats {a} both as the means and as the \
measure of success. Grant its premises and the conclusion still does not follow."
            ),
            vec![
                Contradiction {
                    description: "It calls the costs bounded, yet counts only the first months."
                        .into(),
                    evidence: "Its own assumptions say the benefits must last; the argument never shows they do.".into(),
                },
                Contradiction {
                    description: format!("{} is the means and the measure of success at once.", capital(&a)),
                    evidence: format!("The thesis counts {a} as what is done and as what is gained, in consecutive sentences."),
                },
            ],
            "A valid argument is enough to settle the question.".to_string(),
        ),
        Lens::Evidence => (
            format!(
                "Nothing in the thesis was measured. Which cases of {a} were looked at, and how \
were they chosen? We hear of the cases that worked; the failures rarely get written up, so \
\"the costs are known\" is an assumption dressed as a finding."
            ),
            vec![Contradiction {
                description: format!("The thesis says the costs are known, but cites no figure about {b}."),
                evidence: "No count, rate or study appears anywhere in it; survivorship bias would produce the same impression.".into(),
            }],
            "Published cases are a fair sample of what happens.".to_string(),
        ),
        Lens::Ethics => (
            format!(
                "The thesis weighs the benefits to those who decide and never asks who carries the \
cost. Those affected by {a} who had no say are missing from its framing, and so is what they are \
owed."
            ),
            vec![Contradiction {
                description: "\"Bounded costs\" are bounded for the decision-maker, not for those who bear them.".into(),
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
    let name = &critique.critic.name;
    match lens(&critique.critic) {
        Lens::Logic => (
            format!("{name} is right that early benefits prove nothing about later ones: the yes holds only where {a} keeps paying after the first months."),
            ResearchProposal {
                proposal: format!("Follow cases of {a} for two years, not two months."),
                testable_prediction: "Where the benefits are real, they are still measurable after a year.".into(),
            },
        ),
        Lens::Evidence => (
            format!("{name} is right that the costs were assumed, not counted: until {b} is measured, the yes is provisional."),
            ResearchProposal {
                proposal: format!("Collect the costs of {b} from every case, the failures included."),
                testable_prediction: "The failed cases cost at least as much as the successful ones reported.".into(),
            },
        ),
        Lens::Ethics => (
            format!("{name} is right that those who bear the cost of {b} must be asked: a yes that skips them does not stand."),
            ResearchProposal {
                proposal: format!("Ask those affected by {b} before deciding, and record their answer."),
                testable_prediction: "Support among those affected is lower than among those who decide.".into(),
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
    // With the council, as the prompt asks: each standpoint under its own heading, each
    // contradiction opening with the standpoint that found it.
    let antithesis_text = views
        .iter()
        .map(|v| {
            if env.use_council {
                format!("## {}\n{}", v.critic.name, v.antithesis.antithesis)
            } else {
                format!("**{}.** {}", v.critic.name, v.antithesis.antithesis)
            }
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    let mut contradictions: Vec<Contradiction> = views
        .iter()
        .flat_map(|v| {
            v.antithesis.contradictions.iter().map(|k| Contradiction {
                description: if env.use_council {
                    format!("{}: {}", v.critic.name, k.description)
                } else {
                    k.description.clone()
                },
                evidence: k.evidence.clone(),
            })
        })
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
    let Some(base) = super::example::valid_example(schema) else {
        return super::example::example_of_schema(schema);
    };
    let mut filled = base.clone();
    replace_texts(schema, &mut filled, text);
    // The query's words where the schema takes free text; the plain example where they break it
    // (a pattern, a format, a shape behind a `$ref`).
    let fits = roundtable_engine::validate::compile_schema(schema).is_ok_and(|shape| {
        roundtable_engine::validate::check_against_schema(
            shape,
            &filled.to_string(),
            Default::default(),
        )
        .is_ok()
    });
    if fits {
        filled
    } else {
        base
    }
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

/// The query's three topic phrases, each as a noun phrase ("the four-day work week").
fn three(env: &DialecticEnvelope) -> [String; 3] {
    let t = terms(env);
    let the = |p: &String| {
        if p.starts_with("the ") || p.starts_with("those ") {
            p.clone()
        } else {
            format!("the {p}")
        }
    };
    [the(&t[0]), the(&t[1]), the(&t[2])]
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DialecticConfig, DialecticState, Mode};
    use roundtable_engine::engine::ModelRef;

    #[test]
    fn another_demo_variant_speaks_in_a_second_voice() {
        let e = env("Should a newsroom use AI to write first drafts of local news?");
        let call = roundtable_engine::engine::StoredCall {
            id: "call-1".into(),
            member: "thesis".into(),
            step: <DialecticState as roundtable_engine::engine::Protocol>::step_id(
                DialecticStep::Thesis,
            ),
            round: 1,
            kind: CallKind::Repair,
            messages: Vec::new(),
            token_estimate: 0,
        };
        let one = answer(&call, &e, roundtable_engine::demo::MODEL).text;
        let two = answer(&call, &e, "demo-2").text;
        assert!(
            !one.contains("second voice") && two.contains("second voice"),
            "{two}"
        );
    }

    fn env(query: &str) -> DialecticEnvelope {
        let config = DialecticConfig::standard(
            query,
            ResponseStyle::Sections,
            Mode::Workflow,
            true,
            ModelRef {
                provider: "demo".into(),
                model: "demo-1".into(),
            },
        );
        let state =
            <DialecticState as roundtable_engine::engine::Protocol>::create(&config).unwrap();
        super::super::prompt::envelope(&state, "thesis")
    }

    #[test]
    fn the_topic_is_the_querys_own_phrases() {
        assert_eq!(
            terms(&env(
                "Should a small software company move to a four-day work week?"
            )),
            [
                "four-day work week",
                "small software company",
                "those affected"
            ]
        );
        assert_eq!(
            terms(&env(
                "Is it worth rewriting a legacy billing system from scratch?"
            )),
            ["legacy billing system", "rewriting", "those affected"]
        );
        assert_eq!(
            terms(&env("Why?")),
            ["the question", "the change", "those affected"]
        );
    }

    #[test]
    fn each_critic_objects_from_its_own_standpoint() {
        let e = env("Should cities ban cars from their historic centres?");
        let texts: Vec<String> = e
            .critics
            .iter()
            .map(|c| antithesis(&e, c).antithesis)
            .collect();
        assert!(texts[0].contains("does not follow"), "{}", texts[0]);
        assert!(texts[1].contains("measured"), "{}", texts[1]);
        assert!(texts[2].contains("had no say"), "{}", texts[2]);
        // A persona the demo does not know by name gets a standpoint by its words.
        let other = MemberView {
            id: "auditor".into(),
            name: "The Auditor".into(),
            persona: "You ask for the data behind every claim.".into(),
        };
        assert_eq!(lens(&other), Lens::Evidence);
    }
}
