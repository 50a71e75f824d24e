//! Autocoding, spec `002`'s second half: a player writes code against requirements, a coach
//! checks it, turn by turn, until the coach approves or the turns run out (Hegelion's
//! player/coach loop; Block's adversarial cooperation: fresh context each turn, the coach ignores
//! the player's claims).
//!
//! Hegelion's state exactly ([`state`]), its tools as pure functions with `002`'s errors
//! ([`tools`]), the prompts ([`prompt`]), the requirements numbered so a review names them
//! ([`requirements`]), the turn's answer shapes with their checks ([`answer`]), the demo model's
//! player and coach ([`demo`]), and what its page draws ([`view`]).
//!
//! As a kind of session ([`Autocoding`]): a turn is a round. The player's step writes the files
//! (fresh context: the requirements, the files as they stand, their last run and the coach's last
//! feedback); then the kind asks the runner to run them (`run_code`, an engine effect: the web
//! runner's sandbox runs the JavaScript and its result is an event, so replay, export and fork
//! never run anything again); then the coach's step reviews the files and the run. The review
//! advances 002's state by `tools::next_turn`: approved at or over the threshold, timeout at
//! `max_turns`, else the next turn. With `person_approval`, a coach's approval waits in the
//! engine's inbox as a `PersonAsk::Approval`: approve ends the session approved, reject ends it
//! rejected, revise sends the person's note to the player with the coach's feedback.

pub mod answer;
pub mod config;
pub mod demo;
pub mod prompt;
pub mod requirements;
#[rustfmt::skip]
mod shape;
pub mod state;
pub mod tools;
pub mod view;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub use self::answer::{CoachAnswer, PlayerAnswer};
pub use self::config::{AutocodingConfig, AutocodingConfigError, AutocodingMember};
pub use self::prompt::{CodeFile, TestRun};
use self::requirements::{items, Requirement};
pub use self::state::AutocodingState;
use self::state::{Phase, Status};
pub use self::view::{AutocodingView, Turn};
use roundtable_engine::code_run::RunStatus;
use roundtable_engine::engine::{
    ChatRole, Core, DemoReply, DueEffect, Effect, EngineEdit, Event, EventKind, Findings,
    FoldError, Judgement, JudgementOf, MemberChange, Message, ModelRef, Move, MoveOf, PersonAsk,
    Protocol, Settings, StoredCall, Verdict,
};
use roundtable_engine::validate::{self, Violation};

/// An autocoding session: the engine driving the player/coach loop.
pub type AutocodingSession = roundtable_engine::engine::KindEngine<Autocoding>;

/// The name of the effect that runs the player's files in the sandbox.
pub use roundtable_engine::code_run::RUN_CODE;

/// Who the approval is put to, as the inbox names the person.
const PERSON: &str = "person";

/// The steps of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutocodingStep {
    /// The player writes or revises the files.
    Player,
    /// The coach reviews them and their test run.
    Coach,
}

/// A valid answer of a turn's step, as the fold applies it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutocodingOutput {
    /// The player's files.
    Player(PlayerAnswer),
    /// The coach's review.
    Coach(CoachAnswer),
}

/// A person's edit of an autocoding session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum AutocodingEdit {
    /// The player's or the coach's provider and model, or persona, changed (a fork's what-if).
    Member(MemberChange),
}
roundtable_engine::tagged::tagged!([] AutocodingEdit, tag = "edit");

impl From<AutocodingEdit> for EngineEdit {
    fn from(edit: AutocodingEdit) -> Self {
        EngineEdit::of_kind(edit)
    }
}

/// Autocoding never pauses on its own account (an approval waits in the inbox), so this has no
/// values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AutocodingBlock {}

/// What one call's prompt is built from: the member, 002's state as its tool would get it, the
/// files and their run. A fresh picture every turn, never a growing chat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocodingEnvelope {
    /// The step the call is for.
    pub step: AutocodingStep,
    /// Who answers.
    pub me: AutocodingMember,
    /// 002's state at this point (the player's in the player phase, the coach's in the coach's).
    pub state: AutocodingState,
    /// The player: the files as they stand; the coach: the files of this turn.
    pub files: Vec<CodeFile>,
    /// The run of those files, when they were run.
    pub run: Option<TestRun>,
}

/// The whole state of an autocoding session: what the fold of its events gives.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Autocoding {
    /// The engine's part.
    pub core: Core,
    /// The configuration, with the person's member changes applied.
    pub config: AutocodingConfig,
    /// Spec `002`'s `AutocodingState` as it stands: what the history slider shows at each point
    /// and what save writes.
    pub state: AutocodingState,
    /// The files as they stand.
    pub files: Vec<CodeFile>,
    /// This session's turns, oldest first.
    pub turns: Vec<Turn>,
}

impl Autocoding {
    /// The requirements, numbered.
    pub fn requirements(&self) -> Vec<Requirement> {
        items(&self.config.requirements)
    }

    /// The member with this id.
    pub fn member(&self, id: &str) -> Option<&AutocodingMember> {
        self.config.members().into_iter().find(|m| m.id == id)
    }

    /// The turns played before this session, when it went on from a saved state.
    pub fn first_turn(&self) -> u32 {
        self.config.resume.as_ref().map_or(0, |s| s.current_turn)
    }

    /// The turn under way (the last one), if the player has written one.
    fn turn_mut(&mut self) -> Result<&mut Turn, FoldError> {
        self.turns
            .last_mut()
            .ok_or_else(|| FoldError::Unexpected("no turn has been written yet".into()))
    }

    /// The run of the files as they stand (the last turn's), for the player's prompt.
    fn last_run(&self) -> Option<&TestRun> {
        self.turns.last().and_then(|t| t.run.as_ref())
    }

    /// The `run_code` effect for `files`: what the runner's sandbox is handed.
    fn run_effect(&self, files: &[CodeFile]) -> Effect {
        Effect {
            name: RUN_CODE.into(),
            input: json!({
                "turn": self.state.current_turn + 1,
                "files": files,
                "limit_ms": self.config.run_limit_ms,
            }),
        }
    }

    /// The approval put to the person when the coach approves at the threshold.
    fn approval(&self, review: &CoachAnswer) -> PersonAsk {
        PersonAsk::Approval {
            to: vec![PERSON.into()],
            message: format!(
                "The coach approves turn {} at or over the threshold ({}). Approve to end the \
                 session approved, reject to end it rejected, or ask for a revision: your note \
                 goes to the player with the coach's feedback.\n\n{}",
                self.state.current_turn + 1,
                self.config.approval_threshold,
                review.feedback(&self.requirements())
            ),
        }
    }

    /// Folds an applied output; returns the change in words.
    fn apply(&mut self, output: &AutocodingOutput) -> Result<Vec<String>, FoldError> {
        let refused = |reason: String, pointer: &str| FoldError::Refused {
            pointer: pointer.into(),
            reason,
            expected: "an answer to the turn under way".into(),
            received: "an answer out of turn".into(),
        };
        match output {
            AutocodingOutput::Player(answer) => {
                if self.state.phase != Phase::Player || self.state.status != Status::Active {
                    return Err(refused(
                        format!("the {} phase takes no files", self.state.phase.word()),
                        "",
                    ));
                }
                if let Some(v) = answer.problems(&self.files).into_iter().next() {
                    return Err(refused(v.message, &v.path));
                }
                self.files = answer.apply(&self.files);
                self.turns.push(Turn {
                    files: self.files.clone(),
                    run: None,
                    review: None,
                    effect: None,
                    person: None,
                });
                self.state.phase = Phase::Coach;
                Ok(vec![format!(
                    "the player wrote {}{}; the project holds {}",
                    roundtable_engine::text::count(answer.files.len(), "file", "files"),
                    if answer.delete.is_empty() {
                        String::new()
                    } else {
                        format!(" and deleted {}", answer.delete.len())
                    },
                    self.files.len()
                )])
            }
            AutocodingOutput::Coach(review) => {
                if self.state.phase != Phase::Coach || self.turns.is_empty() {
                    return Err(refused("there is no turn to review".into(), ""));
                }
                let ends = tools::approves(&self.state, review.approved, Some(review.score));
                self.review(review.clone(), ends, None);
                Ok(vec![format!(
                    "the coach scored turn {} at {:.2}: {}",
                    self.state.current_turn,
                    review.score,
                    if self.state.status == Status::Approved {
                        "approved"
                    } else {
                        "not approved"
                    }
                )])
            }
        }
    }

    /// Records `review` of the turn under way and advances 002's state: the history keeps the
    /// coach's own word, `approved` decides the outcome (the threshold rule's, or the person's
    /// verdict); `person` the person's words for the history.
    fn review(&mut self, review: CoachAnswer, approved: bool, person: Option<String>) {
        let mut feedback = review.feedback(&self.requirements());
        if let Some(words) = &person {
            feedback.push_str(&format!("\n\n{words}"));
        }
        self.state = tools::record_turn(
            self.state.clone(),
            feedback,
            review.approved,
            Some(review.score),
            approved,
        );
        let person = person.map(|words| view::PersonWord { approved, words });
        if let Some(turn) = self.turns.last_mut() {
            turn.review = Some(review);
            turn.person = person;
        }
    }

    /// The review the coach's answer to `call_id` holds, read from the log as `judge` read it
    /// (an approval waiting for the person is not applied, so its review travels in the answer).
    fn review_in(&self, call_id: &str) -> Result<CoachAnswer, FoldError> {
        let raw = self
            .core
            .call(call_id)
            .and_then(|c| c.raw_answer.as_deref())
            .ok_or_else(|| FoldError::Call(call_id.to_string()))?;
        let options = validate::Options { truncated: false };
        answer::check_coach(raw, options, &self.requirements(), &mut Vec::new()).map_err(|v| {
            FoldError::Unexpected(format!(
                "the coach's answer asking for approval does not read as a review: {}",
                v.first().map(|v| v.message.as_str()).unwrap_or("")
            ))
        })
    }

    /// How far the session has got, in percent: turns used of the limit, half a turn once the
    /// player has written; 100 once it ended.
    pub fn progress(&self) -> u32 {
        if self.state.status != Status::Active {
            return 100;
        }
        let halves = self.state.current_turn * 2 + u32::from(self.state.phase == Phase::Coach);
        (halves * 100 / (self.config.max_turns * 2).max(1)).min(100)
    }

    /// The session's outcome as Markdown: the requirements, how it ended, each turn's run and
    /// review, the files as they stand.
    pub fn markdown(&self) -> String {
        let v = view::view_from(&self.state, &self.turns, self.first_turn());
        let mut s = format!(
            "# Autocoding\n\n## Requirements\n{}\n\n## Outcome\n{}\n",
            requirements::render(&self.config.requirements),
            v.status
        );
        for row in v.turns.iter().filter(|r| r.saved_feedback.is_some()) {
            s.push_str(&format!("\n## Turn {} (before this session)\n", row.turn));
            if let Some(score) = row.score {
                s.push_str(&format!("Score {score:.2}.\n"));
            }
            s.push_str(&format!(
                "\n{}\n",
                row.saved_feedback.as_deref().unwrap_or("")
            ));
        }
        let own = v.turns.iter().filter(|r| r.saved_feedback.is_none());
        for (row, turn) in own.zip(&self.turns) {
            s.push_str(&format!("\n## Turn {}\nTests: {}.", row.turn, row.run));
            if let Some(score) = row.score {
                s.push_str(&format!(" Score {score:.2}."));
            }
            s.push('\n');
            if let Some(review) = &turn.review {
                s.push_str(&format!("\n{}\n", review.feedback(&v.requirements)));
            }
            if let Some(p) = &turn.person {
                s.push_str(&format!("\n{}\n", p.words));
            }
        }
        s.push_str("\n## Files\n");
        for f in &self.files {
            s.push_str(&format!(
                "\n{}",
                roundtable_engine::text::file_section(&f.path, &f.content)
            ));
        }
        s
    }
}

/// The run a `run_code` output says: the sandbox's answer, or an `error` run saying why it
/// could not be read.
fn read_run(output: &Value) -> TestRun {
    serde_json::from_value(output.clone()).unwrap_or_else(|e| TestRun {
        status: RunStatus::Error,
        tests: Vec::new(),
        errors: vec![prompt::FileError {
            file: String::new(),
            message: format!("the runner's answer could not be read: {e}"),
        }],
    })
}

impl Protocol for Autocoding {
    const KIND: &'static str = "autocoding";
    const TITLE: &'static str = "Autocoding";
    const ROUND_WORD: &'static str = "Turn";
    type Config = AutocodingConfig;
    type Step = AutocodingStep;
    const STEPS: &'static [AutocodingStep] = &[AutocodingStep::Player, AutocodingStep::Coach];
    type Envelope = AutocodingEnvelope;
    type Output = AutocodingOutput;
    type Ask = ();
    type Served = ();
    type Edit = AutocodingEdit;
    type Block = AutocodingBlock;

    fn create(config: &AutocodingConfig) -> Result<Autocoding, String> {
        config.check().map_err(|e| e.to_string())?;
        let mut core = Core::new(Self::settings(config));
        // A session going on from a saved state has played its turns: the round count says so.
        core.round = config.resume.as_ref().map_or(0, |s| s.current_turn);
        Ok(Autocoding {
            core,
            state: config.initial_state(),
            files: config.files.clone(),
            turns: Vec::new(),
            config: config.clone(),
        })
    }

    /// The config's limits, with the round limit at the turn limit (a turn is a round).
    fn settings(config: &AutocodingConfig) -> Settings {
        Settings {
            max_rounds: config.max_turns,
            ..config.settings.clone()
        }
    }

    fn request(&self) -> &str {
        &self.config.requirements
    }

    fn members(&self) -> Vec<roundtable_engine::engine::MemberInfo> {
        self.config
            .members()
            .into_iter()
            .map(|m| roundtable_engine::engine::MemberInfo {
                id: m.id.clone(),
                name: m.name.clone(),
                model: m.model.clone(),
                persona: m.persona.clone(),
            })
            .collect()
    }

    fn progress(&self) -> u32 {
        Autocoding::progress(self)
    }

    fn report_markdown(&self) -> String {
        self.markdown()
    }

    fn member_edit(change: MemberChange) -> AutocodingEdit {
        AutocodingEdit::Member(change)
    }

    fn what_if_of(edit: &AutocodingEdit) -> Option<roundtable_engine::engine::EditWhatIf<'_>> {
        let AutocodingEdit::Member(change) = edit;
        Some(roundtable_engine::engine::EditWhatIf::Member(change))
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn step_wire(step: AutocodingStep) -> &'static str {
        match step {
            AutocodingStep::Player => "player",
            AutocodingStep::Coach => "coach",
        }
    }

    fn step_name(step: AutocodingStep) -> &'static str {
        match step {
            AutocodingStep::Player => "autocoding_player",
            AutocodingStep::Coach => "autocoding_coach",
        }
    }

    fn step_title(step: AutocodingStep) -> &'static str {
        match step {
            AutocodingStep::Player => "Player",
            AutocodingStep::Coach => "Coach",
        }
    }

    fn model_of(&self, member: &str) -> Option<&ModelRef> {
        self.member(member).map(|m| &m.model)
    }

    /// "The player's player, turn 2" would not do: what each writes, by turn.
    fn call_title(&self, member: &str, step: AutocodingStep, round: u32) -> String {
        let what = match step {
            AutocodingStep::Player => "code",
            AutocodingStep::Coach => "review",
        };
        format!("{}'s {what}, turn {round}", self.member_name(member))
    }

    fn next_move(&self) -> Move<Autocoding> {
        let core = &self.core;
        if core.rounds_ended || self.state.status != Status::Active {
            return MoveOf::Finish;
        }
        let turn = self.state.current_turn + 1;
        if core.round != turn {
            return MoveOf::Round(turn);
        }
        match (core.step.map(Self::step_of), self.turns.last()) {
            (None, _) => MoveOf::Step(
                turn,
                AutocodingStep::Player,
                vec![self.config.player.id.clone()],
            ),
            (Some(AutocodingStep::Player), Some(t)) => {
                let runnable = t.files.iter().any(|f| prompt::runs(&f.path));
                if runnable && t.run.is_none() && t.effect.is_none() {
                    MoveOf::Effect(self.run_effect(&t.files))
                } else {
                    MoveOf::Step(
                        turn,
                        AutocodingStep::Coach,
                        vec![self.config.coach.id.clone()],
                    )
                }
            }
            // A step done without moving the turn on cannot happen; end rather than loop.
            _ => MoveOf::Finish,
        }
    }

    fn still_blocked(&self, block: &AutocodingBlock) -> Option<String> {
        match *block {}
    }

    fn envelope(&self, member: &str) -> AutocodingEnvelope {
        let step = self.core.step.map_or(AutocodingStep::Player, Self::step_of);
        let me = self
            .member(member)
            .cloned()
            .unwrap_or_else(|| self.config.player.clone());
        let (files, run) = match step {
            AutocodingStep::Player => (self.files.clone(), self.last_run().cloned()),
            AutocodingStep::Coach => {
                let t = self.turns.last();
                (
                    t.map(|t| t.files.clone()).unwrap_or_default(),
                    t.and_then(|t| t.run.clone()),
                )
            }
        };
        AutocodingEnvelope {
            step,
            me,
            state: self.state.clone(),
            files,
            run,
        }
    }

    /// The role's prompt as one user message, after the member's persona (when it has one) as
    /// the system message.
    fn first_messages(&self, env: &AutocodingEnvelope) -> Vec<Message> {
        let work = prompt::Workspace {
            files: &env.files,
            run: env.run.as_ref(),
        };
        let p = match env.step {
            AutocodingStep::Player => prompt::player(&env.state, work),
            AutocodingStep::Coach => prompt::coach(&env.state, work),
        };
        let mut out = Vec::new();
        let persona = env.me.persona.trim();
        if !persona.is_empty() {
            out.push(Message::new(ChatRole::System, persona.to_string()));
        }
        out.push(Message::new(ChatRole::User, p.prompt));
        out
    }

    fn too_long(step: AutocodingStep, bytes: usize) -> Option<Violation> {
        match step {
            AutocodingStep::Player => answer::too_long(bytes),
            AutocodingStep::Coach => roundtable_engine::engine::long_answer::refusal(
                bytes,
                roundtable_engine::engine::long_answer::ANSWER_BYTES_MAX,
            ),
        }
    }

    fn judge(&self, call: &StoredCall, raw: &str, truncated: bool) -> Judgement<Autocoding> {
        let options = validate::Options { truncated };
        let mut warnings = Vec::new();
        let checked = match Self::step_of(call.step) {
            AutocodingStep::Player => {
                answer::check_player(raw, options, &self.files, &mut warnings)
                    .map(AutocodingOutput::Player)
            }
            AutocodingStep::Coach => {
                answer::check_coach(raw, options, &self.requirements(), &mut warnings)
                    .map(AutocodingOutput::Coach)
            }
        };
        match checked {
            Ok(AutocodingOutput::Coach(review))
                if self.config.person_approval
                    && review.approved
                    && review.score >= self.config.approval_threshold =>
            {
                JudgementOf::Ask {
                    ask: self.approval(&review),
                    warnings,
                }
            }
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

    fn repair_prompt(&self, step: AutocodingStep, findings: &Findings) -> String {
        let what = match step {
            AutocodingStep::Player => "your files",
            AutocodingStep::Coach => "your review",
        };
        validate::repair_prompt(what, &findings.errors)
    }

    fn check_edit(&self, edit: &AutocodingEdit) -> Result<(), String> {
        let AutocodingEdit::Member(change) = edit;
        if self.member(&change.member).is_none() {
            return Err(format!("there is no member {}", change.member));
        }
        change
            .problem(AutocodingConfig::PERSONA_MAX)
            .map_or(Ok(()), Err)
    }

    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        match &event.kind {
            EventKind::Applied { output, .. } => return self.apply(output.get()),
            EventKind::EffectIssued { effect_id, effect } if effect.name == RUN_CODE => {
                self.turn_mut()?.effect = Some(effect_id.clone());
            }
            EventKind::EffectDone { effect_id, output } => {
                let turn = self
                    .turns
                    .iter_mut()
                    .find(|t| t.effect.as_deref() == Some(effect_id))
                    .ok_or_else(|| FoldError::Effect(effect_id.clone()))?;
                turn.run = Some(read_run(output));
            }
            EventKind::HaltRaised { call_id, .. } => {
                // The coach approved and the person has the last word: the review waits with
                // the turn until the verdict.
                let review = self.review_in(call_id)?;
                self.turn_mut()?.review = Some(review);
            }
            EventKind::PersonAnswered {
                answer, verdict, ..
            } => {
                let review = self
                    .turns
                    .last()
                    .and_then(|t| t.review.clone())
                    .filter(|_| self.state.phase == Phase::Coach)
                    .ok_or_else(|| FoldError::Unexpected("no approval waits".into()))?;
                let verdict = verdict
                    .ok_or_else(|| FoldError::Unexpected("an approval needs a verdict".into()))?;
                let reply = roundtable_engine::engine::PersonReply {
                    text: answer.clone(),
                    verdict: Some(verdict),
                };
                self.review(review, verdict == Verdict::Approve, Some(reply.words()));
                if verdict == Verdict::Reject {
                    // Stopped where the person stopped it: at the coach's phase, rejected.
                    self.state.phase = Phase::Coach;
                    self.state.status = Status::Rejected;
                }
                // The verdict ends the coach's step: its review stands, decided by the person
                // (the engine would otherwise ask the coach afresh, as it asks a member whose
                // question was answered).
                let coach = self.config.coach.id.clone();
                if let Some(slot) = self.core.slots.iter_mut().find(|s| s.member == coach) {
                    slot.done = true;
                }
            }
            EventKind::PersonEdited {
                edit: EngineEdit::Protocol(edit),
            } => {
                let AutocodingEdit::Member(change) = edit.get::<AutocodingEdit>();
                let c = &mut self.config;
                for m in [&mut c.player, &mut c.coach] {
                    if m.id != change.member {
                        continue;
                    }
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

    fn demo_answer(&self, call: &StoredCall, env: &AutocodingEnvelope) -> DemoReply {
        let value = match env.step {
            AutocodingStep::Player => {
                serde_json::to_value(demo::player(&env.state.requirements, &env.files))
            }
            AutocodingStep::Coach => serde_json::to_value(demo::coach(
                &items(&env.state.requirements),
                env.run.as_ref(),
            )),
        }
        .unwrap_or(Value::Null);
        let text = serde_json::to_string_pretty(&value).unwrap_or_default();
        DemoReply::stop(text, call.token_estimate)
    }

    /// The demo's own code run by the sandbox's stand-in ([`demo::run`]); any other code gets an
    /// `error` run saying only the app's sandbox runs it.
    fn demo_effect(&self, effect: &DueEffect) -> Option<Value> {
        if effect.name != RUN_CODE {
            return None;
        }
        let files: Vec<CodeFile> =
            serde_json::from_value(effect.input["files"].clone()).unwrap_or_default();
        let run = demo::run(&files).unwrap_or_else(|| TestRun {
            status: RunStatus::Error,
            tests: Vec::new(),
            errors: vec![prompt::FileError {
                file: String::new(),
                message: "only the app's sandbox runs this code (the demo's stand-in knows the \
                          demo player's files alone)"
                    .into(),
            }],
        });
        serde_json::to_value(run).ok()
    }
}

impl roundtable_engine::engine::KindView for Autocoding {
    type View<'a> = AutocodingView;
    fn kind_view(&self) -> AutocodingView {
        view::view_from(&self.state, &self.turns, self.first_turn())
    }

    /// Spec 002's saved state (`autocoding_save`), which `autocoding_load` reads back and a new
    /// session can go on from.
    fn kind_document(&self) -> Option<(&'static str, String)> {
        self.state
            .save()
            .ok()
            .map(|text| ("autocoding_state", text))
    }
}
