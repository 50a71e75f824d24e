//! What each member sees at each phase of a dialectic ([`DialecticEnvelope`]), the call built from
//! it as spec `002`'s [`DialecticalPrompt`] (`phase`, `prompt`, `instructions`, `expected_format`),
//! the messages rendered from that, and the repair prompt.
//!
//! Each phase's prompt is first a template with 002's `{{variable_name}}` places for the outputs
//! before it (`{{thesis_output}}`, `{{antithesis_output}}`) — what the exported
//! `dialectical_workflow` document carries — and the call substitutes the real outputs. The
//! expected format is read from the answer type's derived JSON Schema (its fields, types, limits
//! and descriptions), never written a second time; the example is a value of the answer type,
//! serialised, and valid as it stands (a test applies each one).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::answer::{
    self, limits, Antithesis, Contradiction, ResearchProposal, SingleShot, Synthesis, Thesis,
    SCHEMA_VERSION,
};
use super::config::{DialecticMember, Mode, ResponseStyle, Source};
use super::{DialecticState, DialecticStep};
use roundtable_engine::engine::{ChatRole, Findings, Message, Protocol as _};

/// 002's shared structure of a thesis / antithesis / synthesis prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DialecticalPrompt {
    /// `thesis`, `antithesis`, `synthesis` (or `single_shot`).
    pub phase: String,
    /// The task, with the query and the outputs before it.
    pub prompt: String,
    /// How to do it.
    pub instructions: String,
    /// The answer's form, read from its schema.
    pub expected_format: String,
}

/// One member as the prompts name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    /// Id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Persona.
    pub persona: String,
}

impl From<&DialecticMember> for MemberView {
    fn from(m: &DialecticMember) -> Self {
        MemberView {
            id: m.id.clone(),
            name: m.name.clone(),
            persona: m.persona.clone(),
        }
    }
}

/// One critic's antithesis, as the synthesis sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CritiqueView {
    /// The critic.
    pub critic: MemberView,
    /// What it wrote.
    pub antithesis: Antithesis,
}

/// Everything one member sees at one phase: the input of the prompt and of the demo model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DialecticEnvelope {
    /// The phase.
    pub step: DialecticStep,
    /// Who this call is for.
    pub me: MemberView,
    /// The query.
    pub query: String,
    /// The response style.
    pub style: ResponseStyle,
    /// Workflow or single shot.
    pub mode: Mode,
    /// The critics who write the antithesis (one without the council).
    pub critics: Vec<MemberView>,
    /// Whether the council writes the antithesis.
    pub use_council: bool,
    /// The sources the person attached.
    pub sources: Vec<Source>,
    /// The thesis, once written.
    pub thesis: Option<Thesis>,
    /// Every critique written, in critic order.
    pub critiques: Vec<CritiqueView>,
    /// The person's schema for `result`, with the json style.
    pub response_schema: Option<Value>,
}

/// Builds the envelope of `member` at the current step.
pub fn envelope(s: &DialecticState, member: &str) -> DialecticEnvelope {
    let c = &s.config;
    let step = s.core.step.map_or(
        match c.mode {
            Mode::Workflow => DialecticStep::Thesis,
            Mode::SingleShot => DialecticStep::SingleShot,
        },
        DialecticState::step_of,
    );
    let me = c.members().find(|m| m.id == member).map_or_else(
        || MemberView {
            id: member.into(),
            name: member.into(),
            persona: String::new(),
        },
        MemberView::from,
    );
    DialecticEnvelope {
        step,
        me,
        query: c.query.trim().to_string(),
        style: c.response_style,
        mode: c.mode,
        critics: c.active_critics().iter().map(MemberView::from).collect(),
        use_council: c.use_council,
        sources: c.sources.clone(),
        thesis: s.thesis.clone(),
        critiques: s.critiques_in_order(),
        response_schema: c.response_schema.clone(),
    }
}

/// The place of the thesis's output in a template.
pub const THESIS_OUTPUT: &str = "{{thesis_output}}";
/// The place of the critiques' output in a template.
pub const ANTITHESIS_OUTPUT: &str = "{{antithesis_output}}";

/// The phase's prompt as a template: the query and sources written in (every phase that judges
/// claims sees the sources: the thesis cites them, a critic checks the citations, the synthesis
/// weighs both), the outputs before it as `{{thesis_output}}` / `{{antithesis_output}}`; `critic`
/// is the antithesis's author.
pub fn template(
    env: &DialecticEnvelope,
    step: DialecticStep,
    critic: &MemberView,
) -> DialecticalPrompt {
    let query = format!("# Query\n{}\n", env.query);
    let sources = sources_text(&env.sources);
    let (prompt, instructions) = match step {
        DialecticStep::Thesis => (
            format!("{query}{sources}\nWrite the thesis."),
            thesis_instructions(),
        ),
        DialecticStep::Antithesis => (
            format!("{query}{sources}\n# Thesis\n{THESIS_OUTPUT}\n\nWrite your antithesis."),
            antithesis_instructions(env, critic),
        ),
        DialecticStep::Synthesis => (
            format!(
                "{query}{sources}\n# Thesis\n{THESIS_OUTPUT}\n\n# {}\n{ANTITHESIS_OUTPUT}\n\nWrite the synthesis.",
                if env.critics.len() > 1 {
                    "Critiques"
                } else {
                    "Antithesis"
                }
            ),
            synthesis_instructions(env),
        ),
        DialecticStep::SingleShot => (
            format!("{query}{sources}\nWrite the thesis, the antithesis and the synthesis."),
            single_shot_instructions(env),
        ),
    };
    DialecticalPrompt {
        phase: super::DialecticState::phase_name(step).to_string(),
        prompt,
        instructions,
        expected_format: expected_format(step, env),
    }
}

/// The phase's prompt with the outputs before it substituted.
pub fn dialectical_prompt(env: &DialecticEnvelope) -> DialecticalPrompt {
    let mut p = template(env, env.step, &env.me);
    p.prompt = p
        .prompt
        .replace(THESIS_OUTPUT, &thesis_output(env.thesis.as_ref()))
        .replace(ANTITHESIS_OUTPUT, &antithesis_output(&env.critiques));
    p
}

/// The first messages of a phase: the system message (who the member is, the instructions, the
/// expected format with its example), then the user message (the prompt).
pub fn messages(env: &DialecticEnvelope) -> Vec<Message> {
    let p = dialectical_prompt(env);
    let persona = env.me.persona.trim();
    let who = match env.step {
        DialecticStep::Antithesis => format!(
            "You are {}, a critic in a dialectic (thesis → antithesis → synthesis).",
            env.me.name
        ),
        DialecticStep::SingleShot => format!(
            "You are {}, writing a whole dialectic (thesis → antithesis → synthesis) in one answer.",
            env.me.name
        ),
        step => format!(
            "You are {}, writing the {} of a dialectic (thesis → antithesis → synthesis).",
            env.me.name,
            DialecticState::phase_name(step)
        ),
    };
    let persona = if persona.is_empty() {
        String::new()
    } else {
        format!(" {persona}")
    };
    let system = format!(
        "{who}{persona}\n\n{}\n\n{}",
        p.instructions, p.expected_format
    );
    vec![
        Message::new(ChatRole::System, system),
        Message::new(ChatRole::User, p.prompt),
    ]
}

fn sources_text(sources: &[Source]) -> String {
    if sources.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n# Sources the person attached\n");
    for (i, s) in sources.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n## [{}] {}\n{}",
            i + 1,
            s.title.trim(),
            s.text.trim()
        );
    }
    out
}

fn thesis_instructions() -> String {
    "Argue the strongest honest answer to the query: take a position and give its reasons. Work \
from what you know and from the sources, if any are attached (cite them as [1], [2]); nobody can \
search the web for you, so say where your knowledge stops. List what the position takes for \
granted as assumptions, and what you are unsure of as uncertainties: the critics will look there \
first."
        .to_string()
}

fn antithesis_instructions(env: &DialecticEnvelope, critic: &MemberView) -> String {
    let others: Vec<&str> = env
        .critics
        .iter()
        .filter(|c| c.id != critic.id)
        .map(|c| c.name.as_str())
        .collect();
    let council = if others.is_empty() {
        String::new()
    } else {
        format!(
            " {} critique the same thesis on their own; keep to your own standpoint.",
            list_words(&others)
        )
    };
    let sources = if env.sources.is_empty() {
        ""
    } else {
        " Check every citation of the thesis ([1], [2]) against the sources the person attached: a \
claim they contradict, or do not bear out, is a contradiction, with the source as its evidence."
    };
    format!(
        "Attack the thesis from your standpoint: where it contradicts itself, the facts or what it \
leaves out. Give each contradiction with its evidence.{sources} Do not restate the thesis and do \
not propose a synthesis: that comes after.{council}"
    )
}

fn style_instruction(env: &DialecticEnvelope) -> String {
    match env.style {
        ResponseStyle::Sections => "The person reads the thesis, each critique and your synthesis \
under their own headings, so write only the synthesis in `synthesis` (Markdown), without \
repeating the others."
            .into(),
        ResponseStyle::SynthesisOnly => {
            "Your `synthesis` is all the person reads: it must stand on \
its own, without pointing to \"the thesis\" or \"the critics\"."
                .into()
        }
        ResponseStyle::Conversational => "Write `synthesis` as conversational prose, as you would \
say it: paragraphs of whole sentences, no headings, no lists."
            .into(),
        ResponseStyle::BulletPoints => format!(
            "Write `synthesis` as a list of at least {} points: every line starts with \"- \", \
nothing else.",
            limits::BULLETS_MIN
        ),
        ResponseStyle::Json if env.response_schema.is_some() => "The person reads `result`, an \
object in the shape of their response schema (below); `synthesis` says in a short paragraph how \
you got there."
            .into(),
        ResponseStyle::Json => "The person reads this JSON object as the answer: keep `synthesis` \
to a short paragraph and put the substance in the lists."
            .into(),
    }
}

fn synthesis_instructions(env: &DialecticEnvelope) -> String {
    let whose = if env.critics.len() > 1 {
        "every critique"
    } else {
        "the antithesis"
    };
    let sources = if env.sources.is_empty() {
        ""
    } else {
        " Where the thesis and the critics disagree on what the attached sources say, read the \
sources yourself and cite them as [1], [2]."
    };
    format!(
        "Write what survives the thesis and {whose}: resolve each contradiction or say why it \
stands — do not split the difference.{sources} Then propose research that would settle what is \
still open, each proposal with a prediction that could fail. {}",
        style_instruction(env)
    )
}

fn single_shot_instructions(env: &DialecticEnvelope) -> String {
    let lenses = if env.use_council {
        let lines: Vec<String> = env
            .critics
            .iter()
            .map(|c| match c.persona.trim() {
                "" => format!("  - {}", c.name),
                p => format!("  - {}. {p}", c.name),
            })
            .collect();
        format!(
            " Write it as a council would, one standpoint after another, each in `antithesis` \
under its own heading line (\"## The Logician\") and in this order; begin each contradiction's \
description with the standpoint that found it (\"The Logician: …\"):\n{}",
            lines.join("\n")
        )
    } else {
        String::new()
    };
    format!(
        "Reason in three moves:\n\
- Thesis: argue the strongest honest answer to the query (cite any attached sources as [1], [2]; \
nobody can search the web for you).\n\
- Antithesis: attack it — where it contradicts itself, the facts or what it leaves out, each \
contradiction with its evidence.{lenses}\n\
- Synthesis: what survives both — resolve each contradiction or say why it stands — and research \
that would settle what is open, each proposal with a prediction that could fail.\n\n{}",
        style_instruction(env)
    )
}

fn list_words(items: &[&str]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The thesis as the later phases read it.
pub fn thesis_output(thesis: Option<&Thesis>) -> String {
    let Some(t) = thesis else {
        return "(no thesis was written)".into();
    };
    let mut out = t.thesis.trim().to_string();
    list(&mut out, "Assumptions", &t.assumptions);
    list(&mut out, "Uncertainties", &t.uncertainties);
    out
}

/// Every critique as the synthesis reads it, by critic name.
pub fn antithesis_output(critiques: &[CritiqueView]) -> String {
    if critiques.is_empty() {
        return "(no critique was written)".into();
    }
    let mut out = String::new();
    for c in critiques {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        let _ = writeln!(
            out,
            "## {}\n{}",
            c.critic.name,
            c.antithesis.antithesis.trim()
        );
        out.push_str("\nContradictions:");
        for k in &c.antithesis.contradictions {
            let _ = write!(
                out,
                "\n- {} Evidence: {}",
                k.description.trim(),
                k.evidence.trim()
            );
        }
        list(&mut out, "Assumptions", &c.antithesis.assumptions);
        list(&mut out, "Uncertainties", &c.antithesis.uncertainties);
    }
    out
}

fn list(out: &mut String, title: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = write!(out, "\n\n{title}:");
    for i in items {
        let _ = write!(out, "\n- {}", i.trim());
    }
}

/// The answer's form, read from the answer type's derived schema: one line per field (required
/// ones first, in their order), its type and limits and its description; nested objects' fields
/// under their list; then the example, a value of the type.
pub fn expected_format(step: DialecticStep, env: &DialecticEnvelope) -> String {
    let schema = answer::step_schema(step);
    // Only the phases that write `result` are shown the person's schema: the thesis and the
    // critiques never answer it.
    let person = env
        .response_schema
        .as_ref()
        .filter(|_| matches!(step, DialecticStep::Synthesis | DialecticStep::SingleShot));
    let mut out = String::from("Answer with one JSON object and nothing else:\n");
    fields(&schema, &schema, "", &mut out, person.is_some());
    if let Some(person) = person {
        let _ = write!(
            out,
            "\nThe response schema of `result`:\n```json\n{}\n```\n",
            serde_json::to_string_pretty(person).unwrap_or_default()
        );
        if valid_example(person).is_none() {
            out.push_str("The example leaves `result` out (no value could be written for this schema here): write it in the shape of the response schema.\n");
        }
    }
    let _ = write!(out, "\nExample:\n{}", example_json(step, env));
    out
}

/// The lines of an object schema's fields.
fn fields(root: &Value, node: &Value, indent: &str, out: &mut String, with_result: bool) {
    let props = node["properties"].as_object();
    let required: Vec<&str> = node["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut names: Vec<&String> = props.map(|p| p.keys().collect()).unwrap_or_default();
    roundtable_engine::order::sort_by_key(&mut names, |k| {
        required.iter().position(|r| r == k).unwrap_or(usize::MAX)
    });
    for name in names {
        let field = &node["properties"][name.as_str()];
        if name == "result" {
            if with_result {
                let _ = writeln!(
                    out,
                    "{indent}- \"result\": the answer as an object in the shape of the response schema below."
                );
            }
            continue;
        }
        let description = field["description"].as_str().unwrap_or("");
        let (kind, nested) = type_words(root, field);
        let _ = writeln!(out, "{indent}- \"{name}\" ({kind}): {description}");
        if let Some(nested) = nested {
            fields(root, nested, &format!("{indent}  "), out, false);
        }
    }
}

/// A field's type and limits in words, and the object schema its items are, if any.
fn type_words<'a>(root: &'a Value, node: &'a Value) -> (String, Option<&'a Value>) {
    let uint = |n: &Value, k: &str| n.get(k).and_then(Value::as_u64);
    let range = |min: Option<u64>, max: Option<u64>, unit: &str| match (min, max) {
        (Some(a), Some(b)) if a > 0 => format!("{a}–{b} {unit}"),
        (_, Some(b)) => format!("at most {b} {unit}"),
        (Some(a), None) if a > 0 => format!("at least {a} {unit}"),
        _ => String::new(),
    };
    match node["type"].as_str() {
        Some("integer") => match (node["minimum"].as_i64(), node["maximum"].as_i64()) {
            (Some(a), Some(b)) if a == b => (format!("the number {a}"), None),
            _ => ("a whole number".into(), None),
        },
        Some("string") => (
            format!(
                "text, {}",
                range(
                    uint(node, "minLength"),
                    uint(node, "maxLength"),
                    "characters"
                )
            ),
            None,
        ),
        Some("array") => {
            let items = &node["items"];
            let count = range(uint(node, "minItems"), uint(node, "maxItems"), "");
            let count = count.trim_end();
            if let Some(r) = items["$ref"].as_str() {
                let def = &root["$defs"][r.trim_start_matches("#/$defs/")];
                (
                    format!("a list of {count} objects with these fields"),
                    Some(def),
                )
            } else {
                let each = range(
                    uint(items, "minLength"),
                    uint(items, "maxLength"),
                    "characters",
                );
                (format!("a list of {count} strings, each {each}"), None)
            }
        }
        _ => ("any value".into(), None),
    }
}

/// The example of the phase's answer, serialised: valid for the env's style and schema as it
/// stands (a test applies it).
pub fn example_json(step: DialecticStep, env: &DialecticEnvelope) -> String {
    let result = env.response_schema.as_ref().and_then(valid_example);
    let synthesis = example_synthesis_text(env.style);
    let assumptions = vec!["The query asks about the usual case, not the exceptions.".to_string()];
    let uncertainties = vec!["How far the answer holds outside the cases cited.".to_string()];
    let contradictions = vec![Contradiction {
        description: "The thesis says the change is cheap, yet counts only the first year.".into(),
        evidence: "Upkeep after the first year is left out of its own figures.".into(),
    }];
    let proposals = vec![ResearchProposal {
        proposal: "Compare the costs over three years in two places that made the change.".into(),
        testable_prediction: "Costs after year one stay within a tenth of year one's.".into(),
    }];
    let json = match step {
        DialecticStep::Thesis => serde_json::to_string(&Thesis {
            schema_version: SCHEMA_VERSION,
            thesis: "Yes, on balance: the gains come early and the costs are known, because …"
                .into(),
            assumptions,
            uncertainties,
        }),
        DialecticStep::Antithesis => serde_json::to_string(&Antithesis {
            schema_version: SCHEMA_VERSION,
            antithesis: "The thesis rests on a cost it never counts in full: …".into(),
            contradictions,
            assumptions,
            uncertainties,
        }),
        DialecticStep::Synthesis => serde_json::to_string(&Synthesis {
            schema_version: SCHEMA_VERSION,
            synthesis,
            research_proposals: proposals,
            assumptions,
            uncertainties,
            result,
        }),
        DialecticStep::SingleShot => serde_json::to_string(&SingleShot {
            schema_version: SCHEMA_VERSION,
            thesis: "Yes, on balance: the gains come early and the costs are known, because …"
                .into(),
            antithesis: "The thesis rests on a cost it never counts in full: …".into(),
            synthesis,
            contradictions,
            research_proposals: proposals,
            assumptions,
            uncertainties,
            result,
        }),
    };
    json.unwrap_or_default()
}

fn example_synthesis_text(style: ResponseStyle) -> String {
    match style {
        ResponseStyle::BulletPoints => "- Worth doing where upkeep is budgeted from the start.\n- Not yet where it is not: the early gains do not last.\n- Decide after a three-year cost comparison.".into(),
        _ => "Worth doing where the upkeep is budgeted from the start; elsewhere the early gains do not last, so …".into(),
    }
}

pub use super::example::{example_of_schema, valid_example};

/// The message that sends an invalid answer back. Worded like every repair prompt.
pub fn repair(step: DialecticStep, findings: &Findings) -> String {
    let what = match step {
        DialecticStep::Thesis => "the thesis",
        DialecticStep::Antithesis => "the antithesis",
        DialecticStep::Synthesis => "the synthesis",
        DialecticStep::SingleShot => "the whole dialectic",
    };
    roundtable_engine::validate::repair_prompt(what, &findings.errors)
}
