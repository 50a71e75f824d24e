//! The answer shapes of a dialectic (spec `002`, Hegelion's structured results): the thesis, a
//! critic's antithesis, the synthesis, and the single shot that writes all three at once — and
//! their checks.
//!
//! Each shape is one serde type; its JSON Schema (`core/schemas/dialectic_*.plain.json`) is derived
//! from it with `schemars`, the validator's shape tables are generated from that schema
//! (`validate/shape_gen.rs`, like the meeting's), the prompts' expected format is read from the
//! same schema, and the examples in the prompts are values of the type, serialised — so the
//! schema, the prompt and the checker cannot drift apart. Every structured output carries
//! `schema_version: 1` (002). The checks here add only what a schema cannot say: the response
//! style's form of the synthesis (no headings or lists in `conversational`, only points in
//! `bullet_points`) and, with the person's `response_schema`, the `result` checked against it by
//! the validator's run-time schema checker (`validate::check_against_schema`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::ResponseStyle;
use roundtable_engine::validate::{self, Options, RuntimeShape, Violation};

/// The `schema_version` of every structured output (002: currently `1`).
pub const SCHEMA_VERSION: u8 = 1;

/// The thesis: the strongest honest answer to the query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "dialectic_thesis")]
pub struct Thesis {
    /// The version of this structure.
    #[schemars(range(min = 1, max = 1))]
    pub schema_version: u8,
    /// The position, argued in Markdown.
    #[schemars(length(min = limits::TEXT_MIN, max = limits::TEXT_MAX))]
    pub thesis: String,
    /// What the position takes for granted, one item each.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub assumptions: Vec<String>,
    /// What it is unsure of, one item each.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub uncertainties: Vec<String>,
}

/// One contradiction a critic finds in the thesis (Hegelion's `contradictions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Contradiction {
    /// What contradicts what.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub description: String,
    /// What shows it: a fact, a case, a step of the argument.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub evidence: String,
}

/// A critic's antithesis: the thesis attacked from its own standpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "dialectic_antithesis")]
pub struct Antithesis {
    /// The version of this structure.
    #[schemars(range(min = 1, max = 1))]
    pub schema_version: u8,
    /// The critique, in Markdown.
    #[schemars(length(min = limits::TEXT_MIN, max = limits::TEXT_MAX))]
    pub antithesis: String,
    /// The contradictions found, each with its evidence.
    #[schemars(length(min = 1, max = limits::CONTRADICTIONS_MAX))]
    pub contradictions: Vec<Contradiction>,
    /// What the critique itself takes for granted.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub assumptions: Vec<String>,
    /// What it is unsure of.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub uncertainties: Vec<String>,
}

/// A way to settle what the dialectic left open (Hegelion's `research_proposals`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ResearchProposal {
    /// What to find out, and how.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub proposal: String,
    /// What would be observed if the synthesis is right.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub testable_prediction: String,
}

/// The synthesis: what survives thesis and critiques, in the response style.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "dialectic_synthesis")]
pub struct Synthesis {
    /// The version of this structure.
    #[schemars(range(min = 1, max = 1))]
    pub schema_version: u8,
    /// The synthesis, in the response style.
    #[schemars(length(min = limits::TEXT_MIN, max = limits::TEXT_MAX))]
    pub synthesis: String,
    /// How to test what remains open.
    #[schemars(length(min = 1, max = limits::PROPOSALS_MAX))]
    pub research_proposals: Vec<ResearchProposal>,
    /// What the synthesis takes for granted.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub assumptions: Vec<String>,
    /// What it is still unsure of.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub uncertainties: Vec<String>,
    /// With the `json` style and the person's `response_schema`: the answer in that shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
}

/// The single shot: thesis, antithesis and synthesis in one answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "dialectic_single_shot")]
pub struct SingleShot {
    /// The version of this structure.
    #[schemars(range(min = 1, max = 1))]
    pub schema_version: u8,
    /// The thesis, argued in Markdown.
    #[schemars(length(min = limits::TEXT_MIN, max = limits::TEXT_MAX))]
    pub thesis: String,
    /// The strongest critique of it, in Markdown.
    #[schemars(length(min = limits::TEXT_MIN, max = limits::TEXT_MAX))]
    pub antithesis: String,
    /// The synthesis, in the response style.
    #[schemars(length(min = limits::TEXT_MIN, max = limits::TEXT_MAX))]
    pub synthesis: String,
    /// The contradictions the critique found, each with its evidence.
    #[schemars(length(min = 1, max = limits::CONTRADICTIONS_MAX))]
    pub contradictions: Vec<Contradiction>,
    /// How to test what remains open.
    #[schemars(length(min = 1, max = limits::PROPOSALS_MAX))]
    pub research_proposals: Vec<ResearchProposal>,
    /// What the answer takes for granted.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub assumptions: Vec<String>,
    /// What it is still unsure of.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub uncertainties: Vec<String>,
    /// With the `json` style and the person's `response_schema`: the answer in that shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
}

/// Limits of the dialectic's shapes, in one place for the checker, the schema and the prompts.
pub mod limits {
    /// Shortest phase text.
    pub const TEXT_MIN: usize = 40;
    /// Longest phase text.
    pub const TEXT_MAX: usize = 8_000;
    /// Most assumptions / uncertainties.
    pub const LIST_MAX: usize = 8;
    /// Longest list item, contradiction or proposal part.
    pub const ITEM_MAX: usize = 600;
    /// Most contradictions.
    pub const CONTRADICTIONS_MAX: usize = 8;
    /// Most research proposals.
    pub const PROPOSALS_MAX: usize = 5;
    /// Fewest points in a `bullet_points` synthesis.
    pub const BULLETS_MIN: usize = 3;
}

/// The wire names of the four shapes, in phase order.
pub const SCHEMA_NAMES: [&str; 4] = [
    "dialectic_thesis",
    "dialectic_antithesis",
    "dialectic_synthesis",
    "dialectic_single_shot",
];

/// The JSON Schema of a step's answer, derived from its type with `schemars` (draft 2020-12):
/// the source the committed `core/schemas/<step>.plain.json` files are checked against.
pub fn derive_schema(step: super::DialecticStep) -> Value {
    use super::DialecticStep as S;
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let root = match step {
        S::Thesis => generator.into_root_schema_for::<Thesis>(),
        S::Antithesis => generator.into_root_schema_for::<Antithesis>(),
        S::Synthesis => generator.into_root_schema_for::<Synthesis>(),
        S::SingleShot => generator.into_root_schema_for::<SingleShot>(),
    };
    root.to_value()
}

/// The plain JSON Schema of a step's answer, read from its committed file
/// (`core/schemas/<step>.plain.json`, what [`derive_schema`] writes; `tests/dialectic.rs` keeps
/// them equal): the app compiles no schema generator (`schemars` was 35 KB of its code).
pub fn step_schema(step: super::DialecticStep) -> Value {
    use super::DialecticStep as S;
    let text = match step {
        S::Thesis => include_str!("../../../core/schemas/dialectic_thesis.plain.json"),
        S::Antithesis => include_str!("../../../core/schemas/dialectic_antithesis.plain.json"),
        S::Synthesis => include_str!("../../../core/schemas/dialectic_synthesis.plain.json"),
        S::SingleShot => include_str!("../../../core/schemas/dialectic_single_shot.plain.json"),
    };
    serde_json::from_str(text).expect("committed schemas are JSON")
}

/// Checks a raw thesis against the shape generated from [`Thesis`]' schema.
pub fn check_thesis(
    raw: &str,
    options: Options,
    warnings: &mut Vec<Violation>,
) -> Result<Thesis, Vec<Violation>> {
    let (value, errors, _) = walk("dialectic_thesis", raw, options, warnings)?;
    done(&value, errors)
}

/// Checks a raw antithesis against the shape generated from [`Antithesis`]' schema.
pub fn check_antithesis(
    raw: &str,
    options: Options,
    warnings: &mut Vec<Violation>,
) -> Result<Antithesis, Vec<Violation>> {
    let (value, errors, _) = walk("dialectic_antithesis", raw, options, warnings)?;
    done(&value, errors)
}

/// What the synthesis must be beyond its shape: written in `style`, and — with the person's
/// schema — carrying a `result` that meets it.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// The response style.
    pub style: ResponseStyle,
    /// The person's schema, compiled.
    pub schema: Option<RuntimeShape>,
}

/// Checks a raw synthesis: its shape, then the style's form of `synthesis`, then `result`
/// against the person's schema.
pub fn check_synthesis(
    raw: &str,
    options: Options,
    rules: Rules,
    warnings: &mut Vec<Violation>,
) -> Result<Synthesis, Vec<Violation>> {
    let (value, mut errors, json) = walk("dialectic_synthesis", raw, options, warnings)?;
    rules.apply(&value, &json, &mut errors, warnings);
    done(&value, errors)
}

/// Checks a raw single shot: its shape, then the style and the person's schema, as a synthesis.
pub fn check_single_shot(
    raw: &str,
    options: Options,
    rules: Rules,
    warnings: &mut Vec<Violation>,
) -> Result<SingleShot, Vec<Violation>> {
    let (value, mut errors, json) = walk("dialectic_single_shot", raw, options, warnings)?;
    rules.apply(&value, &json, &mut errors, warnings);
    done(&value, errors)
}

impl Rules {
    /// The style's rule on `synthesis`, then `result` against the person's schema — walked as
    /// the model wrote it (`json`: the checked answer's text), so its violations come in the
    /// order of the answer.
    fn apply(
        &self,
        value: &Value,
        json: &str,
        errors: &mut Vec<Violation>,
        warnings: &mut Vec<Violation>,
    ) {
        if let Some(text) = value.get("synthesis").and_then(Value::as_str) {
            errors.extend(style_problem(self.style, text, "synthesis"));
        }
        match (self.schema, value.get("result")) {
            (Some(_), None | Some(Value::Null)) => errors.push(Violation {
                path: "/result".into(),
                message: "missing required field result".into(),
                expected: "an object in the shape of the response schema".into(),
                received: "nothing".into(),
                hint: "Add result: the answer in the shape the response schema gives.".into(),
            }),
            (Some(shape), Some(result)) => {
                /// The answer's `result` as it stands in the text.
                #[derive(Deserialize)]
                struct Raw<'a> {
                    #[serde(borrow)]
                    result: &'a serde_json::value::RawValue,
                }
                let text = serde_json::from_str::<Raw>(json)
                    .map_or_else(|_| result.to_string(), |r| r.result.get().to_string());
                let verdict = validate::check_against_schema(shape, &text, Options::default());
                let at = |mut v: Violation| {
                    v.path = format!("/result{}", v.path);
                    v
                };
                errors.extend(verdict.errors.into_iter().map(at));
                warnings.extend(verdict.warnings.into_iter().map(at));
            }
            (None, Some(_)) => warnings.push(Violation {
                path: "/result".into(),
                message: "unknown field result is ignored".into(),
                expected: "no result: this dialectic has no response schema".into(),
                received: validate_short(&value["result"]),
                hint: "Leave result out.".into(),
            }),
            (None, None) => {}
        }
    }
}

fn validate_short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(79).collect::<String>())
    } else {
        s
    }
}

/// What the response style asks of the synthesis that a schema cannot say: `conversational` is
/// prose (no headings, no list lines); `bullet_points` is only points, at least
/// [`limits::BULLETS_MIN`]. The other styles leave the Markdown free.
pub fn style_problem(style: ResponseStyle, text: &str, field: &str) -> Option<Violation> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let is_point = |l: &&str| {
        l.starts_with("- ")
            || l.starts_with("* ")
            || l.split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    match style {
        ResponseStyle::Conversational => {
            let form = lines.iter().find(|l| l.starts_with('#') || is_point(l))?;
            Some(Violation {
                path: format!("/{field}"),
                message: format!(
                    "{field} must be conversational prose, and it has a {}",
                    if form.starts_with('#') {
                        "heading"
                    } else {
                        "list"
                    }
                ),
                expected: "paragraphs of prose, without headings or lists".into(),
                received: validate_short(&Value::from(*form)),
                hint: format!(
                    "Write {field} as you would say it: whole sentences in paragraphs, no headings, no lists."
                ),
            })
        }
        ResponseStyle::BulletPoints => {
            let points = lines.iter().filter(|l| is_point(l)).count();
            let prose = lines.iter().find(|l| !is_point(l));
            if points >= limits::BULLETS_MIN && prose.is_none() {
                return None;
            }
            Some(Violation {
                path: format!("/{field}"),
                message: match prose {
                    Some(_) => format!(
                        "{field} must be only bullet points, and it has a line that is not one"
                    ),
                    None => format!(
                        "{field} has {points} bullet points; at least {} are needed",
                        limits::BULLETS_MIN
                    ),
                },
                expected: format!(
                    "at least {} lines, each starting with \"- \"",
                    limits::BULLETS_MIN
                ),
                received: validate_short(&Value::from(prose.copied().unwrap_or(text))),
                hint: format!(
                    "Write {field} as a list: one point per line, each line starting with \"- \"."
                ),
            })
        }
        ResponseStyle::Sections | ResponseStyle::Json | ResponseStyle::SynthesisOnly => None,
    }
}

fn done<T: serde::de::DeserializeOwned>(
    value: &Value,
    errors: Vec<Violation>,
) -> Result<T, Vec<Violation>> {
    if !errors.is_empty() {
        return Err(errors);
    }
    validate::read_checked(&value.to_string()).map_err(|v| vec![v])
}

/// The validator's walk of `raw` against the generated shape named `schema`: the answer as a
/// value, the shape's violations and the checked JSON text, or — when no JSON object could be
/// read at all — only the violations. The hint of a field's violation says what to do in the
/// prompts' words.
fn walk(
    schema: &str,
    raw: &str,
    options: Options,
    warnings: &mut Vec<Violation>,
) -> Result<(Value, Vec<Violation>, String), Vec<Violation>> {
    let shape =
        super::shape::answer_object(schema).expect("every dialectic answer has a generated shape");
    let mut verdict = validate::check_object(shape, raw, options);
    warnings.extend(verdict.warnings);
    for error in &mut verdict.errors {
        let field = error.path.rsplit('/').find(|s| s.parse::<usize>().is_err());
        let hint = HINTS.iter().find(|(f, _)| Some(*f) == field);
        if let Some((_, hint)) = hint.filter(|_| !error.message.contains("chars")) {
            error.hint = (*hint).to_string();
        }
    }
    match serde_json::from_str::<Value>(&verdict.json) {
        Ok(value) if value.is_object() => Ok((value, verdict.errors, verdict.json.into_owned())),
        _ => Err(verdict.errors),
    }
}

/// What to do about each field, in the words of the prompts (the validator's own hint says how to
/// fix a length).
const HINTS: &[(&str, &str)] = &[
    ("schema_version", "Write \"schema_version\": 1."),
    (
        "thesis",
        "Put the position, argued in Markdown, in `thesis`.",
    ),
    (
        "antithesis",
        "Put your critique, in Markdown, in `antithesis`.",
    ),
    (
        "synthesis",
        "Put the synthesis, in the response style, in `synthesis`.",
    ),
    (
        "contradictions",
        "List each contradiction as {\"description\", \"evidence\"}; at least one.",
    ),
    ("description", "Say what contradicts what, in a sentence."),
    (
        "evidence",
        "Say what shows the contradiction: a fact, a case or a step of the argument.",
    ),
    (
        "research_proposals",
        "List each proposal as {\"proposal\", \"testable_prediction\"}; at least one.",
    ),
    ("proposal", "Say what to find out, and how."),
    (
        "testable_prediction",
        "Say what would be observed if the synthesis is right.",
    ),
    (
        "assumptions",
        "List each assumption as one string (an empty list if none).",
    ),
    (
        "uncertainties",
        "List each uncertainty as one string (an empty list if none).",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn synthesis_with(text: &str, result: Option<Value>) -> String {
        let mut v = json!({
            "schema_version": 1,
            "synthesis": text,
            "research_proposals": [{"proposal": "Measure it.", "testable_prediction": "It holds."}],
            "assumptions": [],
            "uncertainties": []
        });
        if let Some(r) = result {
            v["result"] = r;
        }
        v.to_string()
    }

    fn errors(style: ResponseStyle, schema: Option<&Value>, raw: &str) -> Vec<Violation> {
        let rules = Rules {
            style,
            schema: schema.map(|s| validate::compile_schema(s).unwrap()),
        };
        check_synthesis(raw, Options::default(), rules, &mut Vec::new())
            .err()
            .unwrap_or_default()
    }

    const PROSE: &str =
        "A conditional yes: it holds where the upkeep is planned for from the start.";

    #[test]
    fn each_style_holds_the_synthesis_to_its_form() {
        let points = "- It holds where upkeep is planned.\n- Not elsewhere.\n- Measure it first.";
        for style in ResponseStyle::ALL {
            let prose = errors(style, None, &synthesis_with(PROSE, None));
            let list = errors(style, None, &synthesis_with(points, None));
            match style {
                ResponseStyle::Conversational => {
                    assert!(prose.is_empty(), "{prose:?}");
                    assert_eq!(list[0].path, "/synthesis");
                    assert!(list[0].message.contains("it has a list"), "{list:?}");
                }
                ResponseStyle::BulletPoints => {
                    assert!(list.is_empty(), "{list:?}");
                    assert!(prose[0].message.contains("only bullet points"), "{prose:?}");
                }
                _ => assert!(prose.is_empty() && list.is_empty(), "{style:?}"),
            }
        }
        let two = errors(
            ResponseStyle::BulletPoints,
            None,
            &synthesis_with("- One point that is long enough.\n- And a second.", None),
        );
        assert!(
            two[0].message.contains("2 bullet points; at least 3"),
            "{two:?}"
        );
        let heading = errors(
            ResponseStyle::Conversational,
            None,
            &synthesis_with(
                "## Verdict\nA conditional yes, where upkeep is planned.",
                None,
            ),
        );
        assert!(
            heading[0].message.contains("it has a heading"),
            "{heading:?}"
        );
    }

    #[test]
    fn the_persons_schema_is_walked_under_result_and_required() {
        let schema = json!({
            "type": "object",
            "properties": {"verdict": {"type": "string", "enum": ["yes", "no"]}, "score": {"type": "integer", "minimum": 1, "maximum": 5}},
            "required": ["verdict", "score"]
        });
        let missing = errors(
            ResponseStyle::Json,
            Some(&schema),
            &synthesis_with(PROSE, None),
        );
        assert_eq!(missing.len(), 1);
        assert_eq!(missing[0].path, "/result");
        let wrong = errors(
            ResponseStyle::Json,
            Some(&schema),
            &synthesis_with(PROSE, Some(json!({"score": 9, "verdict": "maybe"}))),
        );
        let paths: Vec<&str> = wrong.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["/result/score", "/result/verdict"], "{wrong:#?}");
        assert_eq!(wrong[0].expected, "a whole number from 1 to 5");
        let right = errors(
            ResponseStyle::Json,
            Some(&schema),
            &synthesis_with(PROSE, Some(json!({"verdict": "yes", "score": 4}))),
        );
        assert!(right.is_empty(), "{right:?}");
        // Without a schema, a result is ignored with a warning, not refused.
        let mut warnings = Vec::new();
        let rules = Rules {
            style: ResponseStyle::Json,
            schema: None,
        };
        let ok = check_synthesis(
            &synthesis_with(PROSE, Some(json!({"x": 1}))),
            Options::default(),
            rules,
            &mut warnings,
        );
        assert!(ok.is_ok());
        assert_eq!(warnings[0].path, "/result");
    }

    #[test]
    fn a_shape_violation_carries_the_prompts_hint() {
        let raw = r#"{"thesis": "A thesis long enough to pass its minimum length.", "assumptions": [], "uncertainties": []}"#;
        let errors = check_thesis(raw, Options::default(), &mut Vec::new()).unwrap_err();
        assert_eq!(errors[0].path, "/schema_version");
        assert_eq!(errors[0].hint, "Write \"schema_version\": 1.");
    }
}

#[cfg(test)]
mod shape_tests {
    //! The dialectic's shape tables (`shape.rs`): generated from its answers' schemas, and saying
    //! exactly what those schemas say.
    use super::super::DialecticStep;
    use super::derive_schema;
    use roundtable_engine::validate::shape_gen::check_object_tables;

    const STEPS: [DialecticStep; 4] = [
        DialecticStep::Thesis,
        DialecticStep::Antithesis,
        DialecticStep::Synthesis,
        DialecticStep::SingleShot,
    ];

    /// `kinds/dialectic/src/shape.rs` is what the schemas generate, and says exactly what they say
    /// (`UPDATE_SHAPES=1` rewrites it).
    #[test]
    fn committed_shape_tables_are_current() {
        let schemas: Vec<_> = STEPS.iter().map(|&s| derive_schema(s)).collect();
        check_object_tables(
            concat!(env!("CARGO_MANIFEST_DIR"), "/src/shape.rs"),
            "dialectic",
            "the dialectic's",
            "Dialectic",
            include_str!("shape.rs"),
            &schemas,
            super::super::shape::answer_object,
        );
    }
}
