//! What a page shows of a dialectic, decided here so the page re-derives nothing: the thesis, one
//! card per critic, the synthesis in the chosen style, and the status of each phase and card in
//! one wording.

use serde::{Deserialize, Serialize};

use super::answer::{Contradiction, ResearchProposal};
use super::config::{Mode, ResponseStyle, Source};
use super::{DialecticMember, DialecticState, DialecticStep};
use roundtable_engine::engine::Protocol;

/// Where a phase or a card stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseStatus {
    /// Not started.
    Waiting,
    /// A call is out for it.
    Writing,
    /// Its answer was refused and is being repaired.
    Repairing,
    /// Written.
    Done,
    /// It will not be written (a wrap-up before it, or a single shot).
    Skipped,
}

impl PhaseStatus {
    /// The status in words.
    pub fn word(self) -> &'static str {
        match self {
            PhaseStatus::Waiting => "waiting",
            PhaseStatus::Writing => "writing",
            PhaseStatus::Repairing => "repairing an invalid answer",
            PhaseStatus::Done => "done",
            PhaseStatus::Skipped => "skipped",
        }
    }

    /// The tone of its badge (the badge's class): `done`, `running`, `warn` or `draft`.
    pub fn tone(self) -> &'static str {
        match self {
            PhaseStatus::Done => "done",
            PhaseStatus::Writing => "running",
            PhaseStatus::Repairing => "warn",
            PhaseStatus::Waiting | PhaseStatus::Skipped => "draft",
        }
    }

    /// Whether the phase is being written now (the strip marks it current).
    pub fn is_current(self) -> bool {
        matches!(self, PhaseStatus::Writing | PhaseStatus::Repairing)
    }

    /// Its place in the strip of phases (the item's class): `done`, `current` or `upcoming`.
    pub fn strip_word(self) -> &'static str {
        match self {
            PhaseStatus::Done => "done",
            _ if self.is_current() => "current",
            _ => "upcoming",
        }
    }

    /// What a card says while its text is not written.
    pub fn placeholder(self) -> &'static str {
        match self {
            PhaseStatus::Writing => "Writing…",
            PhaseStatus::Repairing => "The answer was invalid; the same member is repairing it…",
            PhaseStatus::Skipped => "Not written.",
            PhaseStatus::Waiting | PhaseStatus::Done => "Not written yet.",
        }
    }
}

/// One phase in the strip at the top.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseMark {
    /// `Thesis`, `Antithesis`, `Synthesis`.
    pub title: String,
    /// Where it stands.
    pub status: PhaseStatus,
    /// The status in words.
    pub status_word: String,
}

/// Who wrote a card, as the card names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Author {
    /// Member id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// `provider/model`.
    pub model: String,
    /// Persona (may be empty).
    pub persona: String,
}

impl From<&DialecticMember> for Author {
    fn from(m: &DialecticMember) -> Self {
        Author {
            id: m.id.clone(),
            name: m.name.clone(),
            model: format!("{}/{}", m.model.provider, m.model.model),
            persona: m.persona.clone(),
        }
    }
}

/// The thesis column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThesisCard {
    /// Who writes it.
    pub author: Author,
    /// Where it stands.
    pub status: PhaseStatus,
    /// The thesis (Markdown), once written.
    pub text: Option<String>,
    /// Its assumptions.
    pub assumptions: Vec<String>,
    /// Its uncertainties.
    pub uncertainties: Vec<String>,
}

/// One critic's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CritiqueCard {
    /// The critic.
    pub author: Author,
    /// Where it stands.
    pub status: PhaseStatus,
    /// The antithesis (Markdown), once written.
    pub text: Option<String>,
    /// The contradictions it found.
    pub contradictions: Vec<Contradiction>,
    /// Its assumptions.
    pub assumptions: Vec<String>,
    /// Its uncertainties.
    pub uncertainties: Vec<String>,
}

/// The synthesis column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthesisCard {
    /// Who writes it.
    pub author: Author,
    /// Where it stands.
    pub status: PhaseStatus,
    /// The synthesis (Markdown; prose or points by style), once written.
    pub text: Option<String>,
    /// With the json style: the answer to show as JSON — `result` when the person gave a schema,
    /// else the whole structured result — pretty-printed.
    pub json: Option<String>,
    /// The research proposals.
    pub research_proposals: Vec<ResearchProposal>,
    /// Its assumptions.
    pub assumptions: Vec<String>,
    /// Its uncertainties.
    pub uncertainties: Vec<String>,
}

/// Everything the dialectic page draws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DialecticView {
    /// The query.
    pub query: String,
    /// The response style.
    pub style: ResponseStyle,
    /// The style in words.
    pub style_title: String,
    /// Workflow or single shot.
    pub mode: Mode,
    /// Whether the council writes the antithesis.
    pub use_council: bool,
    /// How many critics write it (the council's size; 1 without it).
    pub council_size: usize,
    /// In a single shot, what the page says of the critiques: one call wrote every standpoint
    /// (each its own card when the answer kept them apart, one card when it did not).
    pub one_call: Option<String>,
    /// The sources attached (the form says why: a tab cannot search the web).
    pub sources: Vec<Source>,
    /// The phases, in order.
    pub phases: Vec<PhaseMark>,
    /// False with `synthesis_only`: the page shows the synthesis alone, the phases folded.
    pub show_phases: bool,
    /// The thesis column.
    pub thesis: ThesisCard,
    /// One card per critic, in the config's order.
    pub critiques: Vec<CritiqueCard>,
    /// The synthesis column.
    pub synthesis: SynthesisCard,
    /// Done in percent.
    pub progress: u32,
}

impl DialecticState {
    /// The view of the dialectic as it stands.
    pub fn view(&self) -> DialecticView {
        let c = &self.config;
        let core = &self.core;
        let status_of = |step: DialecticStep, member: &str, written: bool| {
            if written {
                return PhaseStatus::Done;
            }
            if core.step == Some(Self::step_id(step)) {
                return match core.slot(member) {
                    Some(s) if s.done => PhaseStatus::Skipped,
                    Some(s) if s.repairs > 0 => PhaseStatus::Repairing,
                    Some(_) => PhaseStatus::Writing,
                    None => PhaseStatus::Waiting,
                };
            }
            let over = matches!(core.status, roundtable_engine::engine::Status::Done)
                || (core.rounds_ended && step != DialecticStep::Synthesis);
            if over || c.mode == Mode::SingleShot {
                PhaseStatus::Skipped
            } else {
                PhaseStatus::Waiting
            }
        };
        let one = self.single_shot.as_ref();
        let single = c.mode == Mode::SingleShot;
        let thesis_status = if single {
            status_of(DialecticStep::SingleShot, &c.thesis.id, one.is_some())
        } else {
            status_of(DialecticStep::Thesis, &c.thesis.id, self.thesis.is_some())
        };
        let thesis = ThesisCard {
            author: Author::from(&c.thesis),
            status: thesis_status,
            text: self
                .thesis
                .as_ref()
                .map(|t| t.thesis.clone())
                .or_else(|| one.map(|s| s.thesis.clone())),
            assumptions: self
                .thesis
                .as_ref()
                .map(|t| t.assumptions.clone())
                .or_else(|| one.map(|s| s.assumptions.clone()))
                .unwrap_or_default(),
            uncertainties: self
                .thesis
                .as_ref()
                .map(|t| t.uncertainties.clone())
                .unwrap_or_default(),
        };
        let mut one_call = None;
        let critiques: Vec<CritiqueCard> = if single {
            let (cards, note) = self.single_shot_critiques(thesis_status);
            one_call = note;
            cards
        } else {
            c.active_critics()
                .iter()
                .map(|m| {
                    let k = self.critiques.iter().find(|k| k.critic == m.id);
                    CritiqueCard {
                        author: Author::from(m),
                        status: status_of(DialecticStep::Antithesis, &m.id, k.is_some()),
                        text: k.map(|k| k.antithesis.antithesis.clone()),
                        contradictions: k
                            .map(|k| k.antithesis.contradictions.clone())
                            .unwrap_or_default(),
                        assumptions: k
                            .map(|k| k.antithesis.assumptions.clone())
                            .unwrap_or_default(),
                        uncertainties: k
                            .map(|k| k.antithesis.uncertainties.clone())
                            .unwrap_or_default(),
                    }
                })
                .collect()
        };
        let s = self.synthesis.as_ref();
        let synthesis_status = if single {
            thesis_status
        } else {
            status_of(DialecticStep::Synthesis, &c.synthesis.id, s.is_some())
        };
        let json = (c.response_style == ResponseStyle::Json)
            .then(|| {
                let result = s
                    .and_then(|s| s.result.clone())
                    .or_else(|| one.and_then(|o| o.result.clone()));
                let whole = s
                    .and_then(|s| serde_json::to_value(s).ok())
                    .or_else(|| one.and_then(|o| serde_json::to_value(o).ok()));
                result.or(whole)
            })
            .flatten()
            .map(|v| serde_json::to_string_pretty(&v).unwrap_or_default());
        let synthesis = SynthesisCard {
            author: Author::from(if single { &c.thesis } else { &c.synthesis }),
            status: synthesis_status,
            text: s
                .map(|s| s.synthesis.clone())
                .or_else(|| one.map(|o| o.synthesis.clone())),
            json,
            research_proposals: s
                .map(|s| s.research_proposals.clone())
                .or_else(|| one.map(|o| o.research_proposals.clone()))
                .unwrap_or_default(),
            assumptions: s.map(|s| s.assumptions.clone()).unwrap_or_default(),
            uncertainties: s
                .map(|s| s.uncertainties.clone())
                .or_else(|| one.map(|o| o.uncertainties.clone()))
                .unwrap_or_default(),
        };
        let mark = |step: DialecticStep, status: PhaseStatus| PhaseMark {
            // The strip says "Critiques", as the column does.
            title: match step {
                DialecticStep::Antithesis => CRITIQUES.to_string(),
                step => Self::step_title(step).to_string(),
            },
            status,
            status_word: status.word().to_string(),
        };
        let antithesis_status = {
            let all: Vec<PhaseStatus> = critiques.iter().map(|k| k.status).collect();
            if all.iter().all(|s| *s == PhaseStatus::Done) {
                PhaseStatus::Done
            } else if all.contains(&PhaseStatus::Repairing) {
                PhaseStatus::Repairing
            } else if all.contains(&PhaseStatus::Writing) {
                PhaseStatus::Writing
            } else if all.iter().all(|s| *s == PhaseStatus::Skipped) {
                PhaseStatus::Skipped
            } else {
                all.first().copied().unwrap_or(PhaseStatus::Waiting)
            }
        };
        DialecticView {
            query: c.query.clone(),
            style: c.response_style,
            style_title: c.response_style.title().to_string(),
            mode: c.mode,
            use_council: c.use_council,
            council_size: c.active_critics().len(),
            one_call,
            sources: c.sources.clone(),
            phases: vec![
                mark(DialecticStep::Thesis, thesis.status),
                mark(DialecticStep::Antithesis, antithesis_status),
                mark(DialecticStep::Synthesis, synthesis.status),
            ],
            show_phases: c.response_style != ResponseStyle::SynthesisOnly,
            thesis,
            critiques,
            synthesis,
            progress: self.progress(),
        }
    }
}

/// The one word for the critiques, in the strip and over the column.
pub const CRITIQUES: &str = "Critiques";

impl DialecticState {
    /// The critique cards of a single shot: with a council whose every standpoint stands under
    /// its own heading in the one `antithesis` (the prompt asks for `## <name>`, in order), one
    /// card per standpoint, each with the contradictions that name it; otherwise one card of the
    /// whole. Either way the note says that one call wrote them.
    fn single_shot_critiques(&self, status: PhaseStatus) -> (Vec<CritiqueCard>, Option<String>) {
        let c = &self.config;
        let one = self.single_shot.as_ref();
        let writer = Author::from(&c.thesis);
        let whole = |author: Author| CritiqueCard {
            author,
            status,
            text: one.map(|s| s.antithesis.clone()),
            contradictions: one.map(|s| s.contradictions.clone()).unwrap_or_default(),
            assumptions: Vec::new(),
            uncertainties: Vec::new(),
        };
        if !c.use_council {
            return (vec![whole(writer)], None);
        }
        let critics = c.active_critics();
        let names: Vec<&str> = critics.iter().map(|m| m.name.as_str()).collect();
        let by = format!(
            "{} ({})",
            writer.name,
            roundtable_engine::text::model_name(&writer.model)
        );
        let Some(s) = one else {
            let note = format!(
                "One call by {by} writes every standpoint: {}.",
                names.join(", ")
            );
            let cards = critics
                .iter()
                .map(|m| CritiqueCard {
                    author: Author {
                        model: writer.model.clone(),
                        ..Author::from(m)
                    },
                    status,
                    text: None,
                    contradictions: Vec::new(),
                    assumptions: Vec::new(),
                    uncertainties: Vec::new(),
                })
                .collect();
            return (cards, Some(note));
        };
        match split_standpoints(&s.antithesis, &names) {
            Some(sections) => {
                let cards = critics
                    .iter()
                    .zip(sections)
                    .map(|(m, text)| {
                        let prefix = format!("{}:", m.name);
                        CritiqueCard {
                            author: Author {
                                model: writer.model.clone(),
                                ..Author::from(m)
                            },
                            status,
                            text: Some(text),
                            contradictions: s
                                .contradictions
                                .iter()
                                .filter_map(|k| {
                                    let rest = k.description.trim().strip_prefix(&prefix)?;
                                    Some(Contradiction {
                                        description: rest.trim().to_string(),
                                        evidence: k.evidence.clone(),
                                    })
                                })
                                .collect(),
                            assumptions: Vec::new(),
                            uncertainties: Vec::new(),
                        }
                    })
                    .collect::<Vec<_>>();
                let placed: usize = cards.iter().map(|k| k.contradictions.len()).sum();
                let mut cards = cards;
                // A contradiction that names no standpoint stays with the first, as written.
                if placed < s.contradictions.len() {
                    let rest = s.contradictions.iter().filter(|k| {
                        !names
                            .iter()
                            .any(|n| k.description.trim().starts_with(&format!("{n}:")))
                    });
                    cards[0].contradictions.extend(rest.cloned());
                }
                let note = format!(
                    "One call by {by} wrote every standpoint; each is shown as its own critique."
                );
                (cards, Some(note))
            }
            None => {
                let note = format!(
                    "One call by {by} wrote every standpoint ({}) as one critique: its answer did not keep them apart.",
                    names.join(", ")
                );
                let author = Author {
                    name: format!("The council ({})", names.join(", ")),
                    persona: String::new(),
                    ..writer
                };
                (vec![whole(author)], Some(note))
            }
        }
    }
}

/// The sections of `text` under a heading line naming each of `names`, in that order (any
/// heading level, bold or not, case aside); `None` unless every name has one.
pub fn split_standpoints(text: &str, names: &[&str]) -> Option<Vec<String>> {
    let heading = |line: &str| -> Option<usize> {
        let t = line
            .trim()
            .trim_start_matches('#')
            .trim()
            .trim_matches('*')
            .trim();
        let t = t.trim_end_matches(':').trim();
        names.iter().position(|n| n.eq_ignore_ascii_case(t))
    };
    let mut sections: Vec<(usize, String)> = Vec::new();
    for line in text.lines() {
        let is_heading = line.trim_start().starts_with('#') || line.trim_start().starts_with("**");
        match heading(line).filter(|_| is_heading) {
            Some(i) => sections.push((i, String::new())),
            None => {
                if let Some((_, body)) = sections.last_mut() {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    let order: Vec<usize> = sections.iter().map(|(i, _)| *i).collect();
    let wanted: Vec<usize> = (0..names.len()).collect();
    (order == wanted && sections.iter().all(|(_, b)| !b.trim().is_empty())).then(|| {
        sections
            .into_iter()
            .map(|(_, b)| b.trim().to_string())
            .collect()
    })
}

impl DialecticView {
    /// The line under the phases: style, mode, council and progress ("Sections · workflow ·
    /// council of 3 · 40% done").
    pub fn summary(&self) -> String {
        let mode = match self.mode {
            Mode::Workflow => "workflow",
            Mode::SingleShot => "single shot",
        };
        let council = match (self.use_council, self.mode) {
            (true, Mode::SingleShot) => format!("council of {} in one call", self.council_size),
            (true, Mode::Workflow) => format!("council of {}", self.council_size),
            (false, _) => "one critic".into(),
        };
        format!(
            "{} · {mode} · {council} · {}% done",
            self.style_title, self.progress
        )
    }
}

impl roundtable_engine::engine::KindView for DialecticState {
    type View<'a> = DialecticView;
    fn kind_view(&self) -> DialecticView {
        self.view()
    }

    /// Spec 002's document of the run, named as 002 names it (`dialectical_workflow`,
    /// `dialectical_single_shot`).
    fn kind_document(&self) -> Option<(&'static str, String)> {
        let name = match self.config.mode {
            Mode::Workflow => "dialectical_workflow",
            Mode::SingleShot => "dialectical_single_shot",
        };
        Some((name, serde_json::to_string_pretty(&self.document()).ok()?))
    }
}
