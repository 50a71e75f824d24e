//! The dialectic of spec `002` (Hegelion's dialectical reasoning): a query answered in three
//! moves — a thesis, its antithesis, their synthesis — each call built as 002's
//! `DialecticalPrompt` with the outputs before it substituted.
//!
//! A dialectic is one round. In a workflow the steps are [`DialecticStep::Thesis`] (the thesis
//! member), [`DialecticStep::Antithesis`] (the critic, or — with the council — every critic in
//! parallel, one engine step with several members: the Logician, the Empiricist, the Ethicist by
//! default, each on its own provider and model) and [`DialecticStep::Synthesis`], which sees the
//! thesis and every critique by critic name. A single shot is one call
//! ([`DialecticStep::SingleShot`]) that writes all three. Every answer is a structured result with
//! `schema_version: 1` (`answer.rs`); an invalid one is repaired by the same member. With the
//! `json` style the person may give a `response_schema` — as Pydantic, zod or TypeBox write it
//! (`validate::compile_schema`): checked when the session is created, it is kept in the config,
//! sent as the required `result` of the synthesis's call schema (its `$defs` moved along), shown
//! only to the phase that writes `result`, and the synthesis's `result` is checked against it with
//! pointers under `/result`. Wrapping up skips to the synthesis once a thesis exists.

pub mod answer;
pub mod config;
mod demo;
pub mod example;
pub mod export;
pub mod prompt;
#[rustfmt::skip]
mod shape;
pub mod view;

use serde::{Deserialize, Serialize};

pub use self::answer::{
    Antithesis, Contradiction, ResearchProposal, SingleShot, Synthesis, Thesis, SCHEMA_VERSION,
};
pub use self::config::{
    DialecticConfig, DialecticConfigError, DialecticConfigErrors, DialecticMember, Mode,
    ResponseStyle, Source,
};
pub use self::prompt::{CritiqueView, DialecticEnvelope, DialecticalPrompt, MemberView};
pub use self::view::DialecticView;
use roundtable_engine::engine::{
    Core, DemoReply, EngineEdit, Event, EventKind, Findings, FoldError, Judgement, JudgementOf,
    MemberChange, Message, ModelRef, Move, MoveOf, Protocol, Settings, StoredCall,
};
use roundtable_engine::text::one_line;
use roundtable_engine::validate;

/// A dialectic: the engine driving the dialectic protocol.
pub type DialecticSession = roundtable_engine::engine::KindEngine<DialecticState>;

/// The steps of a dialectic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DialecticStep {
    /// The thesis member argues a position.
    Thesis,
    /// The critic (or every critic of the council, in parallel) attacks it.
    Antithesis,
    /// The synthesis member writes what survives.
    Synthesis,
    /// One call writes all three.
    SingleShot,
}

/// A valid answer of a dialectic step, as the fold applies it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DialecticOutput {
    /// The thesis.
    Thesis(Thesis),
    /// One critic's antithesis.
    Antithesis(Antithesis),
    /// The synthesis.
    Synthesis(Synthesis),
    /// The single shot.
    SingleShot(SingleShot),
}

/// A person's edit of a dialectic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum DialecticEdit {
    /// A member's provider and model, or its persona, changed (a fork's what-if: another model
    /// for the Empiricist, a harsher Logician).
    Member(MemberChange),
}
roundtable_engine::tagged::tagged!([] DialecticEdit, tag = "edit");

/// A dialectic never waits for the person on its own account, so this has no values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DialecticBlock {}

/// One critic's antithesis as the state keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Critique {
    /// The critic's id.
    pub critic: String,
    /// What it wrote.
    pub antithesis: Antithesis,
}

/// The whole state of a dialectic: what the fold of its events gives.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DialecticState {
    /// The engine's part.
    pub core: Core,
    /// The configuration, with the person's member changes applied.
    pub config: DialecticConfig,
    /// The thesis, once written (a single shot's too).
    pub thesis: Option<Thesis>,
    /// The critiques, in the order they came.
    pub critiques: Vec<Critique>,
    /// The synthesis, once written.
    pub synthesis: Option<Synthesis>,
    /// The single shot's answer, once written.
    pub single_shot: Option<SingleShot>,
}

impl DialecticState {
    /// The phase word of a step, as 002's `DialecticalPrompt.phase` spells it.
    pub fn phase_name(step: DialecticStep) -> &'static str {
        match step {
            DialecticStep::Thesis => "thesis",
            DialecticStep::Antithesis => "antithesis",
            DialecticStep::Synthesis => "synthesis",
            DialecticStep::SingleShot => "single_shot",
        }
    }

    /// The member with this id.
    pub fn member(&self, id: &str) -> Option<&DialecticMember> {
        self.config.members().find(|m| m.id == id)
    }

    /// The critiques in critic order (the order of the config), each with its critic.
    pub fn critiques_in_order(&self) -> Vec<CritiqueView> {
        self.config
            .critics
            .iter()
            .filter_map(|c| {
                self.critiques
                    .iter()
                    .find(|k| k.critic == c.id)
                    .map(|k| CritiqueView {
                        critic: MemberView::from(c),
                        antithesis: k.antithesis.clone(),
                    })
            })
            .collect()
    }

    /// True once the final answer is written (the synthesis, or the single shot).
    pub fn is_answered(&self) -> bool {
        self.synthesis.is_some() || self.single_shot.is_some()
    }

    /// How far the dialectic has got, in percent: a share per phase done; 100 once answered.
    pub fn progress(&self) -> u32 {
        if self.is_answered() {
            return 100;
        }
        let critics = self.config.active_critics().len().max(1) as f64;
        let done =
            f64::from(u8::from(self.thesis.is_some())) + self.critiques.len() as f64 / critics;
        (done / 3.0 * 100.0).round() as u32
    }

    /// The rules the synthesis (or single shot) is checked by beyond its shape.
    fn rules(&self) -> answer::Rules {
        answer::Rules {
            style: self.config.response_style,
            // `create` refused a schema that does not compile, so this is `Some` with one.
            schema: self
                .config
                .response_schema
                .as_ref()
                .and_then(|s| validate::compile_schema(s).ok()),
        }
    }

    /// The JSON Schema a call of `step` answers in, for providers that enforce one: the derived
    /// schema, with the person's `response_schema` as the required `result` of the synthesis (and
    /// single shot) when there is one.
    pub fn call_schema(&self, step: DialecticStep) -> serde_json::Value {
        let mut schema = answer::step_schema(step);
        let Some(props) = schema["properties"].as_object_mut() else {
            return schema;
        };
        match &self.config.response_schema {
            Some(person) if props.contains_key("result") => {
                let mut defs = serde_json::Map::new();
                props.insert("result".into(), embed_result(person, &mut defs));
                if let Some(required) = schema["required"].as_array_mut() {
                    required.push("result".into());
                }
                if !defs.is_empty() {
                    let all = schema.as_object_mut().and_then(|o| {
                        o.entry("$defs")
                            .or_insert_with(|| serde_json::json!({}))
                            .as_object_mut()
                    });
                    if let Some(all) = all {
                        all.extend(defs);
                    }
                }
            }
            // No schema of the person's: no `result` to send (a field of any value is one some
            // providers' strict modes refuse).
            _ => {
                props.remove("result");
            }
        }
        schema
    }

    /// Folds an applied output; returns the change in words.
    fn apply(&mut self, call_id: &str, output: &DialecticOutput) -> Result<Vec<String>, FoldError> {
        let member = self.core.answered_member(call_id)?.to_string();
        let taken = |what: &str| FoldError::Refused {
            pointer: String::new(),
            reason: format!("the {what} is already written"),
            expected: "an answer to the current phase".into(),
            received: format!("a second {what}"),
        };
        let change = match output {
            DialecticOutput::Thesis(t) => {
                if self.thesis.is_some() {
                    return Err(taken("thesis"));
                }
                self.thesis = Some(t.clone());
                format!(
                    "{} wrote the thesis: {}",
                    self.member_name(&member),
                    one_line(&t.thesis, 100)
                )
            }
            DialecticOutput::Antithesis(a) => {
                if !self.config.active_critics().iter().any(|c| c.id == member) {
                    return Err(FoldError::Refused {
                        pointer: String::new(),
                        reason: format!("{member} is not a critic of this dialectic"),
                        expected: "a critic's antithesis".into(),
                        received: member,
                    });
                }
                if self.critiques.iter().any(|c| c.critic == member) {
                    return Err(taken(&format!("antithesis of {member}")));
                }
                self.critiques.push(Critique {
                    critic: member.clone(),
                    antithesis: a.clone(),
                });
                format!(
                    "{} wrote an antithesis with {}: {}",
                    self.member_name(&member),
                    roundtable_engine::text::count(
                        a.contradictions.len(),
                        "contradiction",
                        "contradictions"
                    ),
                    one_line(&a.antithesis, 100)
                )
            }
            DialecticOutput::Synthesis(s) => {
                if self.synthesis.is_some() {
                    return Err(taken("synthesis"));
                }
                self.synthesis = Some(s.clone());
                format!(
                    "{} wrote the synthesis with {}: {}",
                    self.member_name(&member),
                    roundtable_engine::text::count(
                        s.research_proposals.len(),
                        "research proposal",
                        "research proposals"
                    ),
                    one_line(&s.synthesis, 100)
                )
            }
            DialecticOutput::SingleShot(s) => {
                if self.single_shot.is_some() {
                    return Err(taken("answer"));
                }
                self.single_shot = Some(s.clone());
                format!(
                    "{} wrote thesis, antithesis and synthesis: {}",
                    self.member_name(&member),
                    one_line(&s.synthesis, 100)
                )
            }
        };
        Ok(vec![change])
    }
}

impl Protocol for DialecticState {
    const KIND: &'static str = "dialectic";
    const TITLE: &'static str = "Dialectic";
    const ROUND_WORD: &'static str = "Pass";
    type Config = DialecticConfig;
    type Step = DialecticStep;
    const STEPS: &'static [DialecticStep] = &[
        DialecticStep::Thesis,
        DialecticStep::Antithesis,
        DialecticStep::Synthesis,
        DialecticStep::SingleShot,
    ];
    type Envelope = DialecticEnvelope;
    type Output = DialecticOutput;
    type Ask = ();
    type Served = ();
    type Edit = DialecticEdit;
    type Block = DialecticBlock;

    fn request(&self) -> &str {
        &self.config.query
    }

    fn members(&self) -> Vec<roundtable_engine::engine::MemberInfo> {
        self.config
            .members()
            .map(|m| roundtable_engine::engine::MemberInfo {
                id: m.id.clone(),
                name: m.name.clone(),
                model: m.model.clone(),
                persona: m.persona.clone(),
            })
            .collect()
    }

    fn progress(&self) -> u32 {
        DialecticState::progress(self)
    }

    fn report_markdown(&self) -> String {
        self.markdown()
    }

    fn member_edit(change: MemberChange) -> DialecticEdit {
        DialecticEdit::Member(change)
    }

    fn what_if_of(edit: &DialecticEdit) -> Option<roundtable_engine::engine::EditWhatIf<'_>> {
        let DialecticEdit::Member(change) = edit;
        Some(roundtable_engine::engine::EditWhatIf::Member(change))
    }

    fn create(config: &DialecticConfig) -> Result<DialecticState, String> {
        config.check().map_err(|e| e.to_string())?;
        let mut config = config.clone();
        config.use_search = false;
        Ok(DialecticState {
            core: Core::new(config.settings.clone()),
            config,
            thesis: None,
            critiques: Vec::new(),
            synthesis: None,
            single_shot: None,
        })
    }

    fn settings(config: &DialecticConfig) -> Settings {
        config.settings.clone()
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn step_wire(step: DialecticStep) -> &'static str {
        match step {
            DialecticStep::Thesis => "thesis",
            DialecticStep::Antithesis => "antithesis",
            DialecticStep::Synthesis => "synthesis",
            DialecticStep::SingleShot => "single_shot",
        }
    }

    fn step_name(step: DialecticStep) -> &'static str {
        match step {
            DialecticStep::Thesis => "dialectic_thesis",
            DialecticStep::Antithesis => "dialectic_antithesis",
            DialecticStep::Synthesis => "dialectic_synthesis",
            DialecticStep::SingleShot => "dialectic_single_shot",
        }
    }

    fn step_title(step: DialecticStep) -> &'static str {
        match step {
            DialecticStep::Thesis => "Thesis",
            DialecticStep::Antithesis => "Antithesis",
            DialecticStep::Synthesis => "Synthesis",
            DialecticStep::SingleShot => "Single shot",
        }
    }

    fn model_of(&self, member: &str) -> Option<&ModelRef> {
        self.member(member).map(|m| &m.model)
    }

    /// "Logician's critique", "Synthesis's synthesis" would not do: the member's name and what it
    /// writes, with no pass (a dialectic has one).
    fn call_title(&self, member: &str, step: DialecticStep, _round: u32) -> String {
        let what = match step {
            DialecticStep::Thesis => "thesis",
            DialecticStep::Antithesis => "critique",
            DialecticStep::Synthesis => "synthesis",
            DialecticStep::SingleShot => "answer",
        };
        format!("{}'s {what}", self.member_name(member))
    }

    fn next_move(&self) -> Move<DialecticState> {
        let core = &self.core;
        let c = &self.config;
        let synthesis = || vec![c.synthesis.id.clone()];
        if core.rounds_ended {
            return match core.step.map(Self::step_of) {
                Some(DialecticStep::Synthesis | DialecticStep::SingleShot) => MoveOf::Finish,
                _ if self.thesis.is_some() && !self.is_answered() => {
                    MoveOf::Step(core.round.max(1), DialecticStep::Synthesis, synthesis())
                }
                _ => MoveOf::Finish,
            };
        }
        match (core.round, core.step.map(Self::step_of)) {
            (0, _) => MoveOf::Round(1),
            (r, None) => match c.mode {
                Mode::Workflow => MoveOf::Step(r, DialecticStep::Thesis, vec![c.thesis.id.clone()]),
                Mode::SingleShot => {
                    MoveOf::Step(r, DialecticStep::SingleShot, vec![c.thesis.id.clone()])
                }
            },
            (r, Some(DialecticStep::Thesis)) => MoveOf::Step(
                r,
                DialecticStep::Antithesis,
                c.active_critics().iter().map(|m| m.id.clone()).collect(),
            ),
            (r, Some(DialecticStep::Antithesis)) => {
                MoveOf::Step(r, DialecticStep::Synthesis, synthesis())
            }
            (_, Some(DialecticStep::Synthesis | DialecticStep::SingleShot)) => MoveOf::Finish,
        }
    }

    fn still_blocked(&self, block: &DialecticBlock) -> Option<String> {
        match *block {}
    }

    fn envelope(&self, member: &str) -> DialecticEnvelope {
        prompt::envelope(self, member)
    }

    fn first_messages(&self, envelope: &DialecticEnvelope) -> Vec<Message> {
        prompt::messages(envelope)
    }

    fn judge(&self, call: &StoredCall, raw: &str, truncated: bool) -> Judgement<DialecticState> {
        let options = validate::Options { truncated };
        let mut warnings = Vec::new();
        let checked = match Self::step_of(call.step) {
            DialecticStep::Thesis => {
                answer::check_thesis(raw, options, &mut warnings).map(DialecticOutput::Thesis)
            }
            DialecticStep::Antithesis => answer::check_antithesis(raw, options, &mut warnings)
                .map(DialecticOutput::Antithesis),
            DialecticStep::Synthesis => {
                answer::check_synthesis(raw, options, self.rules(), &mut warnings)
                    .map(DialecticOutput::Synthesis)
            }
            DialecticStep::SingleShot => {
                answer::check_single_shot(raw, options, self.rules(), &mut warnings)
                    .map(DialecticOutput::SingleShot)
            }
        };
        match checked {
            Ok(output) => JudgementOf::Apply { output, warnings },
            Err(errors) => JudgementOf::Invalid {
                findings: Findings {
                    step: Self::step_name(Self::step_of(call.step)).to_string(),
                    errors,
                    warnings,
                },
                fallback: None,
            },
        }
    }

    fn serve(&self, _member: &str, _ask: &(), _left: u32) -> ((), String) {
        ((), String::new())
    }

    fn repair_prompt(&self, step: DialecticStep, findings: &Findings) -> String {
        prompt::repair(step, findings)
    }

    fn check_edit(&self, edit: &DialecticEdit) -> Result<(), String> {
        match edit {
            DialecticEdit::Member(change) => {
                if self.member(&change.member).is_none() {
                    return Err(format!("there is no member {}", change.member));
                }
                change
                    .problem(DialecticConfig::PERSONA_MAX)
                    .map_or(Ok(()), Err)
            }
        }
    }

    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        match &event.kind {
            EventKind::Applied {
                call_id, output, ..
            } => return self.apply(call_id, output.get()),
            EventKind::PersonEdited {
                edit: EngineEdit::Protocol(edit),
            } => {
                let DialecticEdit::Member(change) = edit.get::<DialecticEdit>();
                let c = &mut self.config;
                let members = [&mut c.thesis, &mut c.synthesis]
                    .into_iter()
                    .chain(c.critics.iter_mut());
                for m in members.filter(|m| m.id == change.member) {
                    if let Some(model) = &change.model {
                        m.model = model.clone();
                    }
                    if let Some(persona) = &change.persona {
                        m.persona = persona.clone();
                    }
                }
            }
            _ => {}
        }
        Ok(Vec::new())
    }

    fn demo_answer(&self, call: &StoredCall, envelope: &DialecticEnvelope) -> DemoReply {
        let model = self.model_of(&call.member).map_or("", |m| m.model.as_str());
        demo::answer(call, envelope, model)
    }

    /// The synthesis (or single shot) with the person's `response_schema` is sent that schema as
    /// its required `result`; every other call goes with its committed schema.
    fn call_schema(&self, call: &StoredCall) -> Option<serde_json::Value> {
        let step = Self::step_of(call.step);
        let final_answer = matches!(step, DialecticStep::Synthesis | DialecticStep::SingleShot);
        (final_answer && self.config.response_schema.is_some())
            .then(|| DialecticState::call_schema(self, step))
    }
}

/// The name under which the person's schema (and, prefixed, each of its definitions) travels in
/// a call schema's `$defs`, beside the dialectic's own.
const RESULT_DEF: &str = "Result";

/// The person's schema as the `result` property of a call schema: as it is when it names no
/// place of itself; else its `$defs` / `definitions` moved into the call schema's `$defs` (as
/// `Result_<name>`, into `defs`), the schema itself kept there as `Result` when a `$ref` names
/// its root or a place inside it, and every `$ref` rewritten to the new places — so a `$ref`
/// still names what the person meant, now from the call schema's root.
fn embed_result(
    person: &serde_json::Value,
    defs: &mut serde_json::Map<String, serde_json::Value>,
) -> serde_json::Value {
    use serde_json::Value;
    let mut body = person.clone();
    if let Some(root) = body.as_object_mut() {
        // Said once, at the root of the call schema: nowhere else.
        root.remove("$schema");
        root.remove("$id");
    }
    if !person.to_string().contains("\"$ref\"") {
        return body;
    }
    let mut own = Vec::new();
    if let Some(root) = body.as_object_mut() {
        for key in ["$defs", "definitions"] {
            if let Some(Value::Object(d)) = root.remove(key) {
                own.extend(d);
            }
        }
    }
    fn rewrite(node: &mut Value, root_named: &mut bool) {
        match node {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    match (key.as_str(), value) {
                        ("$ref", Value::String(r)) => {
                            let rest = r.trim_start_matches('#');
                            let moved = ["/$defs/", "/definitions/"]
                                .iter()
                                .find_map(|p| rest.strip_prefix(p));
                            *r = match moved {
                                Some(name) => {
                                    let (first, tail) = name
                                        .split_once('/')
                                        .map_or((name, String::new()), |(a, b)| {
                                            (a, format!("/{b}"))
                                        });
                                    format!("#/$defs/{}{tail}", def_name(first))
                                }
                                None => {
                                    *root_named = true;
                                    format!("#/$defs/{RESULT_DEF}{rest}")
                                }
                            };
                        }
                        (_, value) => rewrite(value, root_named),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| rewrite(i, root_named)),
            _ => {}
        }
    }
    let mut root_named = false;
    rewrite(&mut body, &mut root_named);
    for (name, mut def) in own {
        rewrite(&mut def, &mut root_named);
        defs.entry(def_name(&name.replace('~', "~0").replace('/', "~1")))
            .or_insert(def);
    }
    if root_named {
        defs.insert(RESULT_DEF.into(), body);
        serde_json::json!({ "$ref": format!("#/$defs/{RESULT_DEF}") })
    } else {
        body
    }
}

/// The `$defs` name of one of the person's definitions (`seg`: its pointer segment, maybe
/// percent-encoded): `Result_` and the name with every character but letters, digits, `_`, `-`
/// and `.` as `_`, so that every provider's converter reads the `$ref` as written.
fn def_name(seg: &str) -> String {
    let decoded = roundtable_engine::validate::decode_pointer_segment(seg);
    let safe: String = decoded
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{RESULT_DEF}_{safe}")
}

impl From<DialecticEdit> for EngineEdit {
    fn from(edit: DialecticEdit) -> Self {
        EngineEdit::of_kind(edit)
    }
}
