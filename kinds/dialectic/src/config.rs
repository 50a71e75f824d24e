//! A dialectic's configuration (spec `002`, Hegelion): the query, the response style, workflow or
//! single shot, the council of critics, the person's `response_schema` and sources — and every
//! rule it must meet before the session starts, all collected at once.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use roundtable_engine::engine::{ModelRef, Settings};

/// How the final answer is written (spec `002`'s five response styles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseStyle {
    /// The whole dialectic in sections: thesis, antithesis, synthesis, each under its heading.
    Sections,
    /// A JSON object: the structured result, or the person's `response_schema` when given.
    Json,
    /// Only the synthesis is the answer; the phases stay behind it.
    SynthesisOnly,
    /// Plain prose, as one would say it: no headings, no lists.
    Conversational,
    /// A list of points.
    BulletPoints,
}

impl ResponseStyle {
    /// Every style, in 002's order.
    pub const ALL: [ResponseStyle; 5] = [
        ResponseStyle::Sections,
        ResponseStyle::Json,
        ResponseStyle::SynthesisOnly,
        ResponseStyle::Conversational,
        ResponseStyle::BulletPoints,
    ];

    /// The wire name (`synthesis_only`), as 002 spells it.
    pub fn name(self) -> &'static str {
        match self {
            ResponseStyle::Sections => "sections",
            ResponseStyle::Json => "json",
            ResponseStyle::SynthesisOnly => "synthesis_only",
            ResponseStyle::Conversational => "conversational",
            ResponseStyle::BulletPoints => "bullet_points",
        }
    }

    /// The style in words for people.
    pub fn title(self) -> &'static str {
        match self {
            ResponseStyle::Sections => "Sections",
            ResponseStyle::Json => "JSON",
            ResponseStyle::SynthesisOnly => "Synthesis only",
            ResponseStyle::Conversational => "Conversational",
            ResponseStyle::BulletPoints => "Bullet points",
        }
    }
}

/// Workflow (thesis → antithesis → synthesis, one call each) or single shot (one call that
/// does all three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Three phases, each its own call, each seeing the outputs before it.
    Workflow,
    /// One call that writes thesis, antithesis and synthesis together.
    SingleShot,
}

/// A member of the dialectic: who writes a phase, on which model, with which persona.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DialecticMember {
    /// Id (lowercase letters, digits, `-`): `thesis`, `logician`.
    pub id: String,
    /// Display name ("The Logician").
    pub name: String,
    /// What it looks for, for its system prompt ("Checks that every step of the argument
    /// follows").
    #[serde(default)]
    pub persona: String,
    /// The provider and model it runs on.
    pub model: ModelRef,
}

/// A source the person attaches for the thesis to work from (a tab cannot search the web).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// What it is ("Survey of 2024, p. 3").
    pub title: String,
    /// The text itself.
    pub text: String,
}

/// Everything a dialectic starts from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DialecticConfig {
    /// The question, verbatim from the person.
    pub query: String,
    /// How the final answer is written.
    pub response_style: ResponseStyle,
    /// Workflow or single shot.
    pub mode: Mode,
    /// Writes the thesis (and, in single shot, everything).
    pub thesis: DialecticMember,
    /// Writes the synthesis (may be the thesis member's model under another id).
    pub synthesis: DialecticMember,
    /// The critics: with the council, every one writes an antithesis in parallel; without, the
    /// first alone does.
    pub critics: Vec<DialecticMember>,
    /// Whether the council of critics writes the antithesis.
    pub use_council: bool,
    /// With the `json` style: the JSON Schema the answer's `result` must meet (checked when the
    /// session is created, and every synthesis checked against it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Value>,
    /// Always `false`: a browser tab cannot search the web; attach [`Self::sources`] instead.
    #[serde(default)]
    pub use_search: bool,
    /// What the person attaches for the thesis to work from.
    #[serde(default)]
    pub sources: Vec<Source>,
    /// The engine's limits (a dialectic is one round).
    #[serde(default)]
    pub settings: Settings,
}

/// One reason a dialectic's config was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DialecticConfigError {
    /// Nothing to reason about.
    #[error("the query is empty: say what the dialectic is about")]
    EmptyQuery,
    /// The query is too long for a prompt.
    #[error("the query is longer than {0} characters")]
    LongQuery(usize),
    /// An id with characters that do not fit prompts and pointers.
    #[error("member id \"{0}\" must be lowercase letters, digits and dashes")]
    BadId(String),
    /// Two members share an id.
    #[error("two members have the id {0}")]
    DuplicateId(String),
    /// A member without a name.
    #[error("member {0} has no name")]
    NoName(String),
    /// A member without a provider or model.
    #[error("member {0} must name its provider and model")]
    NoModel(String),
    /// A persona past its limit.
    #[error("{0}'s persona is longer than {1} characters")]
    LongPersona(String, usize),
    /// No critic to write the antithesis.
    #[error("a workflow needs at least one critic to write the antithesis")]
    NoCritic,
    /// A council of one.
    #[error("a council needs at least two critics (it has {0})")]
    SmallCouncil(usize),
    /// A council too big for one step.
    #[error("a council has at most {max} critics (it has {0})", max = DialecticConfig::COUNCIL_MAX)]
    BigCouncil(usize),
    /// A tab cannot search.
    #[error("use_search must be false: a browser tab cannot search the web — attach sources for the thesis instead")]
    Search,
    /// A schema without the json style.
    #[error("a response_schema is used only with the json response style (the style is {0})")]
    SchemaWithoutJson(&'static str),
    /// A schema the validator cannot use: where in it (a JSON pointer, `""` for the root) and
    /// why.
    #[error(
        "the response_schema cannot be used: {}",
        schema_place(pointer, message)
    )]
    Schema {
        /// The place in the schema.
        pointer: String,
        /// What is wrong there.
        message: String,
    },
    /// A source without text.
    #[error("source {0} is empty")]
    EmptySource(usize),
    /// Too many sources.
    #[error("at most {max} sources may be attached (there are {0})", max = DialecticConfig::SOURCES_MAX)]
    ManySources(usize),
    /// The sources are too long for the thesis prompt.
    #[error("the sources are {0} characters long together; the limit is {max}", max = DialecticConfig::SOURCES_TEXT_MAX)]
    LongSources(usize),
    /// The engine's limits cannot be used.
    #[error("{0}")]
    Settings(&'static str),
}

/// A schema problem in the validator's words: `at /pointer: why`, or `why` at the root.
fn schema_place(pointer: &str, message: &str) -> String {
    roundtable_engine::validate::SchemaProblem {
        pointer: pointer.to_string(),
        message: message.to_string(),
    }
    .to_string()
}

/// Every reason a config was refused, in one error (validation collects them all).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct DialecticConfigErrors(pub Vec<DialecticConfigError>);

/// The default critics of the council: (id, name, persona).
pub const DEFAULT_CRITICS: [(&str, &str, &str); 3] = [
    (
        "logician",
        "The Logician",
        "You check the argument itself: hidden premises, steps that do not follow, terms used in two senses, conclusions stronger than their reasons.",
    ),
    (
        "empiricist",
        "The Empiricist",
        "You check the evidence: what was measured and what was assumed, sample and selection, effect sizes, what observation would show the claim wrong.",
    ),
    (
        "ethicist",
        "The Ethicist",
        "You check who bears the costs: people left out of the framing, harms traded for benefits, consent, fairness, and what is owed to those affected.",
    ),
];

impl DialecticConfig {
    /// The longest query.
    pub const QUERY_MAX: usize = 4_000;
    /// The most critics in a council.
    pub const COUNCIL_MAX: usize = 6;
    /// The longest persona.
    pub const PERSONA_MAX: usize = 500;
    /// The most sources.
    pub const SOURCES_MAX: usize = 8;
    /// The most characters of sources together.
    pub const SOURCES_TEXT_MAX: usize = 16_000;

    /// A dialectic on `model` for every member: a thesis member, a synthesis member and the three
    /// default critics (the Logician, the Empiricist, the Ethicist): for demos, tests and the
    /// new-session form's defaults.
    pub fn standard(
        query: &str,
        style: ResponseStyle,
        mode: Mode,
        use_council: bool,
        model: ModelRef,
    ) -> DialecticConfig {
        let member = |id: &str, name: &str, persona: &str| DialecticMember {
            id: id.into(),
            name: name.into(),
            persona: persona.into(),
            model: model.clone(),
        };
        DialecticConfig {
            query: query.into(),
            response_style: style,
            mode,
            thesis: member("thesis", "The Proponent", ""),
            synthesis: member("synthesis", "The Synthesizer", ""),
            critics: DEFAULT_CRITICS
                .iter()
                .map(|(id, name, persona)| member(id, name, persona))
                .collect(),
            use_council,
            response_schema: None,
            use_search: false,
            sources: Vec::new(),
            settings: Settings {
                max_rounds: 1,
                ..Settings::default()
            },
        }
    }

    /// The demo dialectics the app offers (a query, a style, a mode, the council), on `model`: one
    /// of each mode, with and without the council, in different styles.
    pub fn demos(model: ModelRef) -> Vec<DialecticConfig> {
        [
            (
                "Should a small software company move to a four-day work week?",
                ResponseStyle::Sections,
                Mode::Workflow,
                true,
            ),
            (
                "Is it worth rewriting a legacy billing system from scratch?",
                ResponseStyle::BulletPoints,
                Mode::Workflow,
                false,
            ),
            (
                "Should cities ban cars from their historic centres?",
                ResponseStyle::Conversational,
                Mode::SingleShot,
                true,
            ),
        ]
        .into_iter()
        .map(|(q, style, mode, council)| Self::standard(q, style, mode, council, model.clone()))
        .collect()
    }

    /// The critics who write the antithesis: every one with the council, else the first.
    pub fn active_critics(&self) -> &[DialecticMember] {
        if self.use_council {
            &self.critics
        } else {
            &self.critics[..self.critics.len().min(1)]
        }
    }

    /// Every member, thesis first, then the synthesis, then the critics.
    pub fn members(&self) -> impl Iterator<Item = &DialecticMember> {
        [&self.thesis, &self.synthesis]
            .into_iter()
            .chain(self.critics.iter())
    }

    /// Checks the dialectic and collects every problem: a query, well-formed unique member ids
    /// with names, models and personas within their limit; critics enough for the mode and the
    /// council; `use_search` false; a `response_schema` only with the `json` style, and one the
    /// validator can check (each problem with its pointer and reason); sources within their
    /// limits.
    pub fn check(&self) -> Result<(), DialecticConfigErrors> {
        use DialecticConfigError as E;
        let mut errors = Vec::new();
        let query = self.query.trim();
        if query.is_empty() {
            errors.push(E::EmptyQuery);
        } else if query.chars().count() > Self::QUERY_MAX {
            errors.push(E::LongQuery(Self::QUERY_MAX));
        }
        let mut seen = std::collections::BTreeSet::new();
        for m in self.members() {
            if !roundtable_engine::engine::member_id_ok(&m.id) {
                errors.push(E::BadId(m.id.clone()));
            }
            if !seen.insert(m.id.as_str()) {
                errors.push(E::DuplicateId(m.id.clone()));
            }
            if m.name.trim().is_empty() {
                errors.push(E::NoName(m.id.clone()));
            }
            if m.model.provider.trim().is_empty() || m.model.model.trim().is_empty() {
                errors.push(E::NoModel(m.id.clone()));
            }
            if m.persona.chars().count() > Self::PERSONA_MAX {
                errors.push(E::LongPersona(m.id.clone(), Self::PERSONA_MAX));
            }
        }
        let critics = self.critics.len();
        if self.mode == Mode::Workflow && critics == 0 {
            errors.push(E::NoCritic);
        }
        if self.use_council && critics < 2 {
            errors.push(E::SmallCouncil(critics));
        }
        if critics > Self::COUNCIL_MAX {
            errors.push(E::BigCouncil(critics));
        }
        if self.use_search {
            errors.push(E::Search);
        }
        if let Some(schema) = &self.response_schema {
            if self.response_style != ResponseStyle::Json {
                errors.push(E::SchemaWithoutJson(self.response_style.name()));
            }
            if let Err(problems) = roundtable_engine::validate::compile_schema(schema) {
                errors.extend(problems.into_iter().map(|p| E::Schema {
                    pointer: p.pointer,
                    message: p.message,
                }));
            }
        }
        if self.sources.len() > Self::SOURCES_MAX {
            errors.push(E::ManySources(self.sources.len()));
        }
        for (i, s) in self.sources.iter().enumerate() {
            if s.text.trim().is_empty() {
                errors.push(E::EmptySource(i + 1));
            }
        }
        let total: usize = self
            .sources
            .iter()
            .map(|s| s.title.chars().count() + s.text.chars().count())
            .sum();
        if total > Self::SOURCES_TEXT_MAX {
            errors.push(E::LongSources(total));
        }
        if let Some(problem) = self.settings.problem() {
            errors.push(E::Settings(problem));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(DialecticConfigErrors(errors))
        }
    }
}
