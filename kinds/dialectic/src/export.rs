//! A dialectic as spec `002`'s documents, to save beside the session file: the
//! `dialectical_workflow` (the steps, each a `DialecticalPrompt` with `{{thesis_output}}` /
//! `{{antithesis_output}}` places, and the instructions to run them) or the
//! `dialectical_single_shot` (the one prompt), with 002's exact field names — and the run's
//! structured result (thesis, every critique, synthesis, contradictions, research proposals).

use serde_json::{json, Map, Value};

use super::answer::{self, SCHEMA_VERSION};
use super::config::{Mode, ResponseStyle};
use super::prompt::{self, MemberView};
use super::{DialecticState, DialecticStep};

/// 002's `format` of the workflow document that is one prompt.
pub const SINGLE_PROMPT: &str = "single_prompt";

/// 002's `workflow_type` of a prompt-driven dialectic.
pub const WORKFLOW_TYPE: &str = "prompt_driven_dialectic";

impl DialecticState {
    /// 002's document of this dialectic: `dialectical_workflow` for a workflow,
    /// `dialectical_single_shot` for a single shot.
    pub fn document(&self) -> Value {
        match self.config.mode {
            Mode::Workflow => self.workflow_document(),
            Mode::SingleShot => self.single_shot_document(),
        }
    }

    /// The schema the final answer's JSON meets, for 002's `response_schema` (json style only):
    /// the person's, else the derived schema of the synthesis (single shot: of the one answer).
    fn response_schema_field(&self, step: DialecticStep) -> Option<Value> {
        (self.config.response_style == ResponseStyle::Json).then(|| {
            self.config
                .response_schema
                .clone()
                .unwrap_or_else(|| answer::step_schema(step))
        })
    }

    /// 002's `dialectical_single_shot`: the one prompt a model answers with all three phases.
    pub fn single_shot_document(&self) -> Value {
        let mut env = prompt::envelope(self, &self.config.thesis.id);
        env.step = DialecticStep::SingleShot;
        let p = prompt::dialectical_prompt(&env);
        let text = format!(
            "{}\n\n{}\n\n{}",
            p.instructions, p.expected_format, p.prompt
        );
        let mut doc = json!({
            "schema_version": SCHEMA_VERSION,
            "query": self.config.query,
            "use_search": false,
            "use_council": self.config.use_council,
            "response_style": self.config.response_style.name(),
            "prompt": text,
        });
        if let Some(schema) = self.response_schema_field(DialecticStep::SingleShot) {
            doc["response_schema"] = schema;
        }
        doc
    }

    /// 002's `dialectical_workflow` asked with `format: "single_prompt"`: "the same fields as
    /// `dialectical_single_shot` with `format: \"single_prompt\"`" — the one prompt that runs the
    /// whole dialectic (the council's standpoints in it when there is a council), for a workflow
    /// and a single shot alike.
    pub fn single_prompt_document(&self) -> Value {
        let mut doc = self.single_shot_document();
        doc["format"] = json!(SINGLE_PROMPT);
        doc
    }

    /// 002's `dialectical_workflow`: thesis, one antithesis step per critic, synthesis — each a
    /// `DialecticalPrompt` template — and the instructions to run them.
    pub fn workflow_document(&self) -> Value {
        let c = &self.config;
        let mut env = prompt::envelope(self, &c.thesis.id);
        let critics: Vec<MemberView> = c.active_critics().iter().map(MemberView::from).collect();
        let mut steps = Vec::new();
        let mut push = |name: String, p: prompt::DialecticalPrompt| {
            steps.push(json!({
                "step": steps.len() + 1,
                "name": name,
                "prompt": p,
            }));
        };
        let me = MemberView::from(&c.thesis);
        env.step = DialecticStep::Thesis;
        push(
            "Generate Thesis".into(),
            prompt::template(&env, DialecticStep::Thesis, &me),
        );
        env.step = DialecticStep::Antithesis;
        for critic in &critics {
            let name = if critics.len() > 1 {
                format!("Generate Antithesis ({})", critic.name)
            } else {
                "Generate Antithesis".into()
            };
            push(
                name,
                prompt::template(&env, DialecticStep::Antithesis, critic),
            );
        }
        env.step = DialecticStep::Synthesis;
        push(
            "Generate Synthesis".into(),
            prompt::template(
                &env,
                DialecticStep::Synthesis,
                &MemberView::from(&c.synthesis),
            ),
        );
        let mut phase_schemas = Map::new();
        for step in [
            DialecticStep::Thesis,
            DialecticStep::Antithesis,
            DialecticStep::Synthesis,
        ] {
            phase_schemas.insert(Self::phase_name(step).into(), self.call_schema(step));
        }
        let council = if critics.len() > 1 {
            format!(
                " The antithesis steps ({}) may run in parallel: each sees only the thesis; {{{{antithesis_output}}}} is every critique, each under its critic's name.",
                critics.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
            )
        } else {
            String::new()
        };
        let mut instructions = json!({
            "execution_mode": "sequential",
            "variable_substitution": format!("Replace {{{{variable_name}}}} with actual outputs: {{{{thesis_output}}}} with the thesis step's output, {{{{antithesis_output}}}} with the antithesis.{council}"),
            "final_output": "Combine all outputs into a final response",
            "response_style": c.response_style.name(),
            "response_style_note": style_note(c.response_style),
            "phase_schemas": phase_schemas,
        });
        if let Some(schema) = self.response_schema_field(DialecticStep::Synthesis) {
            instructions["response_schema"] = schema;
        }
        json!({
            "schema_version": SCHEMA_VERSION,
            "query": c.query,
            "workflow_type": WORKFLOW_TYPE,
            "steps": steps,
            "instructions": instructions,
        })
    }

    /// The run's structured result: what each phase wrote, as Hegelion's result reads (thesis,
    /// antithesis, synthesis, contradictions, research proposals), with every critique by critic.
    pub fn result_document(&self) -> Value {
        let c = &self.config;
        let critiques: Vec<Value> = self
            .critiques_in_order()
            .into_iter()
            .map(|k| {
                json!({
                    "critic": k.critic.id,
                    "name": k.critic.name,
                    "antithesis": k.antithesis,
                })
            })
            .collect();
        let mut doc = json!({
            "schema_version": SCHEMA_VERSION,
            "query": c.query,
            "mode": match c.mode { Mode::Workflow => "workflow", Mode::SingleShot => "single_shot" },
            "response_style": c.response_style.name(),
            "use_search": false,
            "use_council": c.use_council,
        });
        match &self.single_shot {
            Some(one) => doc["single_shot"] = json!(one),
            None => {
                doc["thesis"] = json!(self.thesis);
                doc["critiques"] = Value::Array(critiques);
                doc["synthesis"] = json!(self.synthesis);
            }
        }
        doc
    }
}

/// What the style asks of the final response, for 002's `response_style_note`.
pub fn style_note(style: ResponseStyle) -> &'static str {
    match style {
        ResponseStyle::Sections => {
            "Show the thesis, each antithesis and the synthesis, each under its own heading."
        }
        ResponseStyle::Json => {
            "Return the final response as one JSON object meeting response_schema."
        }
        ResponseStyle::SynthesisOnly => "Show only the synthesis; it must stand on its own.",
        ResponseStyle::Conversational => {
            "Write the final response as conversational prose: no headings, no lists."
        }
        ResponseStyle::BulletPoints => {
            "Write the final response as a list of points, one per line."
        }
    }
}

impl DialecticState {
    /// A title for lists: the query's first line, shortened.
    pub fn title(&self) -> String {
        roundtable_engine::text::title_of(&self.config.query)
    }

    /// The dialectic as Markdown, the session's report: the query, then each phase as it was
    /// written — with `synthesis_only` the synthesis first and the phases behind it after.
    pub fn markdown(&self) -> String {
        use std::fmt::Write as _;
        let v = self.view();
        let c = &self.config;
        let mut out = String::new();
        let _ = writeln!(out, "# Dialectic: {}\n", self.title());
        let _ = writeln!(out, "> {}\n", c.query.trim().replace('\n', "\n> "));
        let mode = match c.mode {
            Mode::Workflow => "workflow",
            Mode::SingleShot => "single shot",
        };
        let _ = writeln!(
            out,
            "**Style.** {} · **Mode.** {mode}{}\n",
            c.response_style.title(),
            if c.use_council {
                " · with the council"
            } else {
                ""
            }
        );
        for (i, s) in c.sources.iter().enumerate() {
            let _ = writeln!(out, "[{}] {}", i + 1, s.title.trim());
        }
        if !c.sources.is_empty() {
            out.push('\n');
        }
        let list = |out: &mut String, title: &str, items: &[String]| {
            if !items.is_empty() {
                let _ = writeln!(out, "**{title}.**\n");
                for i in items {
                    let _ = writeln!(out, "- {}", i.trim());
                }
                out.push('\n');
            }
        };
        let not_yet =
            |status: super::view::PhaseStatus| format!("_Not written ({})._\n", status.word());
        let synthesis = |out: &mut String| {
            let s = &v.synthesis;
            let _ = writeln!(out, "## Synthesis — {}\n", s.author.name);
            match (&s.text, &s.json) {
                (Some(text), json) => {
                    let _ = writeln!(out, "{}\n", text.trim());
                    if let Some(json) = json {
                        let _ = writeln!(out, "```json\n{json}\n```\n");
                    }
                }
                (None, _) => out.push_str(&not_yet(s.status)),
            }
            if !s.research_proposals.is_empty() {
                let _ = writeln!(out, "**Research proposals.**\n");
                for p in &s.research_proposals {
                    let _ = writeln!(
                        out,
                        "- {} — _prediction:_ {}",
                        p.proposal.trim().trim_end_matches('.'),
                        p.testable_prediction.trim()
                    );
                }
                out.push('\n');
            }
            list(out, "Assumptions", &s.assumptions);
            list(out, "Uncertainties", &s.uncertainties);
        };
        if c.response_style == ResponseStyle::SynthesisOnly {
            synthesis(&mut out);
            let _ = writeln!(out, "---\n\n_The phases behind it:_\n");
        }
        let _ = writeln!(out, "## Thesis — {}\n", v.thesis.author.name);
        match &v.thesis.text {
            Some(t) => {
                let _ = writeln!(out, "{}\n", t.trim());
            }
            None => out.push_str(&not_yet(v.thesis.status)),
        }
        list(&mut out, "Assumptions", &v.thesis.assumptions);
        list(&mut out, "Uncertainties", &v.thesis.uncertainties);
        for k in &v.critiques {
            let _ = writeln!(out, "## Antithesis — {}\n", k.author.name);
            match &k.text {
                Some(t) => {
                    let _ = writeln!(out, "{}\n", t.trim());
                }
                None => out.push_str(&not_yet(k.status)),
            }
            if !k.contradictions.is_empty() {
                let _ = writeln!(out, "**Contradictions.**\n");
                for x in &k.contradictions {
                    let _ = writeln!(
                        out,
                        "- {} — _evidence:_ {}",
                        x.description.trim().trim_end_matches('.'),
                        x.evidence.trim()
                    );
                }
                out.push('\n');
            }
            list(&mut out, "Assumptions", &k.assumptions);
            list(&mut out, "Uncertainties", &k.uncertainties);
        }
        if c.response_style != ResponseStyle::SynthesisOnly {
            synthesis(&mut out);
        }
        out
    }
}
