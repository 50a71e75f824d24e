//! [`Session`]: a session of any kind this build registers — all the web app touches.
//!
//! A session is the engine ([`crate::engine::Engine`]), the same type for every kind. It forwards
//! the commands every kind shares (start, submit, pause, resume, wrap up, answer a question, change
//! the limits), hands out the calls due as kind-neutral [`ModelCall`]s, stores and replays the
//! event log as JSON (the `created` event's `kind` picks the kind's readers), and renders the
//! [`SessionView`] the shell shows for any kind. Kind-specific panels reach the kind's own state
//! through [`Session::as_kind`] (or [`Session::kind_view`]).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::cost::MemberPrices;
use crate::engine::{
    EngineEdit, EngineError, Event, EventKind, Fix, FoldError, KindEngine, KindInfo, KindMut,
    KindRef, KindState, ModelCall, Outcome, Protocol, RunTarget, Settings, Status, Usage,
};
use crate::live::{CallNow, MemberNow, Notice, RunFacts};
use crate::protocol::dialectic::DialecticState;
use crate::protocol::meeting::MeetingState;
use crate::protocol::team::TeamState;

/// The kinds of session this build runs: one line per kind — its variant, its protocol state and
/// a line about it. [`Kind`] and every dispatch on the kind are generated from this list, so
/// adding a kind is its folder under `protocol/` and a line here.
#[macro_export]
#[doc(hidden)]
macro_rules! with_kinds {
    ([$($callback:tt)*] $args:tt) => {
        $($callback)*! { $args
            Team($crate::protocol::team::TeamState)
                "A chair, operatives, an inspector and an envoy work in rounds on a tree of products.",
            Meeting($crate::protocol::meeting::MeetingState)
                "An orchestrator moves attendees through seven phases to a decision and minutes.",
            Dialectic($crate::protocol::dialectic::DialecticState)
                "A thesis, critiques by a council of critics, and a synthesis of them.",
            Autocoding($crate::protocol::autocoding::Autocoding)
                "A player writes code and its tests; a coach scores what the sandbox ran, turn by turn.",
            Review($crate::protocol::review::ReviewState)
                "An orchestrator runs a planner, an implementer, QA, a verifier and a critic; the runtime holds the gates.",
        }
    };
}

/// Writes [`Kind`], [`Session`] and [`Registered`] for the kinds of [`with_kinds`].
macro_rules! define_kinds {
    (() $($variant:ident($state:ty) $doc:literal,)*) => {
        /// The kinds of session this build runs.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Kind {
            $(#[doc = $doc] $variant,)*
        }

        impl Kind {
            /// Every kind, in the order the new-session page offers them.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),*];

            /// The kind's descriptor, as the engine holds it.
            pub fn info(self) -> &'static KindInfo {
                match self {
                    $(Kind::$variant => &<$state as Protocol>::INFO,)*
                }
            }

            /// The kind's name in files and the `created` event.
            pub fn name(self) -> &'static str {
                self.info().kind
            }

            /// The kind in words for people.
            pub fn title(self) -> &'static str {
                self.info().title
            }

            /// What the kind is, in a line, for the kind picker.
            pub fn blurb(self) -> &'static str {
                match self {
                    $(Kind::$variant => $doc,)*
                }
            }

            /// What a round is called in this kind ("Round", "Turn").
            pub fn round_word(self) -> &'static str {
                self.info().round_word
            }

            /// The round word for counts, lower case and plural ("28 of 48 turns", "passes"),
            /// so a limit reads in the kind's own word.
            pub fn rounds_word(self) -> String {
                let word = self.round_word().to_lowercase();
                if word.ends_with('s') {
                    format!("{word}es")
                } else {
                    format!("{word}s")
                }
            }
        }

        $(
            impl Registered for $state {}
        )*
    };
}
with_kinds!([define_kinds]());

/// A session of any kind: the engine, which is the same type for every kind (the kind's state
/// is behind [`crate::engine::KindState`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    engine: crate::engine::Engine,
}

/// Runs `$body` with `$p` naming the protocol state type of `$kind` (a [`Kind`] value).
macro_rules! each_kind {
    ($kind:expr, $p:ident => $body:expr) => {
        $crate::with_kinds!([each_kind_arm]($kind, $p, $body))
    };
}

/// One arm of `each_kind!` per kind.
macro_rules! each_kind_arm {
    (($kind:expr, $p:ident, $body:expr) $($variant:ident($state:ty) $doc:literal,)*) => {
        match $kind {
            $($crate::session::Kind::$variant => {
                #[allow(dead_code)]
                type $p = $state;
                $body
            })*
        }
    };
}

pub use crate::protocol::KindView;

/// A kind this build registers (a line of [`with_kinds!`]): what the typed accessors of a
/// [`Session`] (`as_kind`, `kind_view`, `edit_kind`) take. Generated for every kind of the list.
pub trait Registered: Protocol + KindView {}

impl Kind {
    /// The kind named `name` (a log written before there were kinds names none: a team).
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .or((name.is_empty()).then_some(Kind::Team))
    }
}

/// One member as a file lists it: never a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberBrief {
    /// Member id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Provider and model.
    pub model: crate::engine::ModelRef,
}

/// Why a stored or imported log could not be read back into a session.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LogError {
    /// The log has no events.
    #[error("the log is empty")]
    Empty,
    /// The first event does not name a kind this build runs.
    #[error("this build does not know sessions of kind \"{0}\"")]
    UnknownKind(String),
    /// An event is not valid JSON of that kind's events.
    #[error("event {seq} is damaged: {reason}")]
    Damaged {
        /// Its position.
        seq: usize,
        /// What serde said.
        reason: String,
    },
    /// The events do not fold.
    #[error("the events do not replay: {0}")]
    Replay(#[from] FoldError),
}

/// What the shell shows of a session, whatever its kind: computed by the engine's rules, never
/// re-derived by a page.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    /// The kind.
    pub kind: Kind,
    /// Where the session stands (`draft`, `running`, `paused`, `awaiting_person`, `done`).
    pub status: SessionStatus,
    /// The status in words (why it is paused, who asked what).
    pub status_text: String,
    /// Where the session stands: "Round 2 · Write".
    pub stage: String,
    /// The current round.
    pub round: u32,
    /// The round limit.
    pub max_rounds: u32,
    /// Tokens counted so far.
    pub tokens_used: u64,
    /// Some of them are the engine's estimates (a call the provider counted no tokens for).
    pub tokens_estimated: bool,
    /// Each member of the current step with what it is doing (`working`, `repairing`,
    /// `reading_context`, `waiting`, `stuck`, `done`, `repaired` when done after an invalid
    /// answer, `halted` while the person owes it an answer).
    pub live: Vec<(String, &'static str)>,
    /// What the person may do now.
    pub actions: Actions,
    /// Why no run can begin although the session is paused: the limit that paused it still
    /// holds (`Engine::cannot_run`). The run controls are off and say this; `None` otherwise.
    pub run_blocked: Option<String>,
    /// Where what holds the session (a pause, a question) can be dealt with; `None` while it
    /// runs, before it starts and once it is done.
    pub fix: Option<Fix>,
    /// How far the current round (or opening/closing step) has got, in percent, by the kind's
    /// own order of steps.
    pub progress: u32,
    /// What the answered calls cost: in all, per member, per round, and the money budget.
    pub cost: crate::cost::CostView,
    /// Questions and approvals waiting for the person (the engine's inbox), whatever the kind:
    /// the header's count.
    pub open_asks: usize,
}

/// Where a session stands, for pages to match on (never on its word): the engine's status
/// without what it carries, with its one word and its one label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    /// Created, not started.
    Draft,
    /// Calls are being made.
    Running,
    /// Stopped until the person resumes.
    Paused,
    /// A member asked the person something.
    AwaitingPerson,
    /// Over.
    Done,
}

impl SessionStatus {
    /// Every status.
    pub const ALL: [SessionStatus; 5] = [
        SessionStatus::Draft,
        SessionStatus::Running,
        SessionStatus::Paused,
        SessionStatus::AwaitingPerson,
        SessionStatus::Done,
    ];

    /// Its word, as the engine's status says it ([`Status::word`]) and the app stores it (the
    /// badge's class too): `awaiting_person`.
    pub fn word(self) -> &'static str {
        match self {
            SessionStatus::Draft => "draft",
            SessionStatus::Running => "running",
            SessionStatus::Paused => "paused",
            SessionStatus::AwaitingPerson => "awaiting_person",
            SessionStatus::Done => "done",
        }
    }

    /// In words for the person, on badges: "needs you".
    pub fn label(self) -> &'static str {
        match self {
            SessionStatus::AwaitingPerson => "needs you",
            other => other.word(),
        }
    }

    /// The status a stored word names (`None` for a word this build does not write).
    pub fn from_word(word: &str) -> Option<SessionStatus> {
        SessionStatus::ALL.into_iter().find(|s| s.word() == word)
    }

    fn of(status: &Status) -> SessionStatus {
        match status {
            Status::Draft => SessionStatus::Draft,
            Status::Running => SessionStatus::Running,
            Status::Paused { .. } => SessionStatus::Paused,
            Status::AwaitingPerson { .. } => SessionStatus::AwaitingPerson,
            Status::Done => SessionStatus::Done,
        }
    }
}

/// The tone of a call's or a member's live state ([`CallNow::state`], [`MemberNow`]'s): how a
/// badge shows it, decided once here for every page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    /// It went well: applied, done.
    Ok,
    /// It went wrong: invalid, failed, stuck.
    Invalid,
    /// It needs an eye: fell back, halted, retrying, repaired, stopped.
    Warn,
    /// It is under way: streaming, validating, answered, asked for context.
    Running,
    /// It waits its turn: queued, waiting.
    Queued,
    /// No tone (a word this table does not know).
    Plain,
}

impl Tone {
    /// The tone of a live state word.
    pub fn of_state(word: &str) -> Tone {
        match word {
            "applied" | "done" => Tone::Ok,
            "invalid" | "failed" | "stuck" => Tone::Invalid,
            "fell back" | "halted" | "retrying" | "repaired" | "stopped" => Tone::Warn,
            "asked for context" | "answered" | "streaming" | "validating" => Tone::Running,
            "queued" | "waiting" => Tone::Queued,
            _ => Tone::Plain,
        }
    }

    /// The badge's class (`ok`, `invalid`, `warn`, `running`, `queued`; empty for none).
    pub fn class(self) -> &'static str {
        match self {
            Tone::Ok => "ok",
            Tone::Invalid => "invalid",
            Tone::Warn => "warn",
            Tone::Running => "running",
            Tone::Queued => "queued",
            Tone::Plain => "",
        }
    }
}

/// The person's controls, each on only when the engine would accept it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Actions {
    /// Start a draft.
    pub start: bool,
    /// Run (resume a paused session, or go on running).
    pub resume: bool,
    /// Pause a running session.
    pub pause: bool,
    /// End the work now and go to the closing step.
    pub wrap_up: bool,
    /// Answer the open question.
    pub answer: bool,
    /// Change the limits or the kind's state.
    pub edit: bool,
}

impl Session {
    /// A new session of kind `P` from its configuration (refused with the reason in words when
    /// the configuration is not usable).
    pub fn create<P: Registered>(config: P::Config, now: u64) -> Result<Session, EngineError> {
        crate::engine::Engine::new::<P>(config, now).map(Session::of_engine)
    }

    /// The session an engine runs. Every kind of this build is registered, so any engine made
    /// from a [`Kind`]'s descriptor is a session.
    pub(crate) fn of_engine(engine: crate::engine::Engine) -> Session {
        Session { engine }
    }

    /// The session a typed engine of a registered kind runs.
    pub fn of_kind<P: Registered>(engine: KindEngine<P>) -> Session {
        Session::of_engine(engine.into_engine())
    }

    /// The session `engine` runs, when its kind is one this build registers (`Err`: the engine
    /// back, e.g. a test's own kind).
    pub fn from_engine(engine: crate::engine::Engine) -> Result<Session, crate::engine::Engine> {
        let registered = Kind::ALL.iter().any(|k| k.info() == engine.info());
        if registered {
            Ok(Session::of_engine(engine))
        } else {
            Err(engine)
        }
    }

    /// The engine: the log and the state, for code that works on any kind.
    pub fn any_engine(&self) -> &crate::engine::Engine {
        &self.engine
    }

    /// The engine, mutably, for code that works on any kind (its commands are the session's).
    pub fn any_engine_mut(&mut self) -> &mut crate::engine::Engine {
        &mut self.engine
    }

    /// A new team session ([`Session::create`] of the team).
    pub fn new_team(
        config: crate::protocol::team::TeamConfig,
        now: u64,
    ) -> Result<Session, EngineError> {
        Session::create::<TeamState>(config, now)
    }

    /// A new meeting ([`Session::create`] of the meeting).
    pub fn new_meeting(
        config: crate::protocol::meeting::MeetingConfig,
        now: u64,
    ) -> Result<Session, EngineError> {
        Session::create::<MeetingState>(config, now)
    }

    /// A new dialectic ([`Session::create`] of the dialectic).
    pub fn new_dialectic(
        config: crate::protocol::dialectic::DialecticConfig,
        now: u64,
    ) -> Result<Session, EngineError> {
        Session::create::<DialecticState>(config, now)
    }

    /// The kind.
    pub fn kind(&self) -> Kind {
        let name = self.engine.info().kind;
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .expect("a session is made only of a registered kind")
    }

    /// Kind `P`'s state, when the session is of that kind.
    pub fn state_of<P: Registered>(&self) -> Option<&P> {
        self.engine.state_of::<P>()
    }

    /// The view model of kind `P`'s pages ([`KindView`]), when the session is of that kind: how a
    /// kind's pages read it.
    pub fn kind_view<P: Registered>(&self) -> Option<P::View<'_>> {
        self.state_of::<P>().map(KindView::kind_view)
    }

    /// The kind's own document of the session, where it has one ([`KindView::kind_document`]).
    pub fn kind_document(&self) -> Option<(&'static str, String)> {
        each_kind!(self.kind(), P => self.state_of::<P>()?.kind_document())
    }

    /// Records the person's edit of the kind's state (kind `P`); core checks it. Refused when the
    /// session is of another kind.
    pub fn edit_kind<P: Registered>(&mut self, edit: P::Edit, now: u64) -> Result<(), EngineError> {
        match self.as_kind_mut::<P>() {
            Some(mut e) => e.edit(EngineEdit::of_kind(edit), now),
            None => Err(EngineError::Edit(format!(
                "this session is not a {}",
                P::TITLE.to_lowercase()
            ))),
        }
    }

    /// The session as kind `P`'s, when it is one.
    pub fn as_kind<P: Registered>(&self) -> Option<KindRef<'_, P>> {
        KindRef::of(&self.engine)
    }

    /// The session as kind `P`'s, mutably, when it is one.
    pub fn as_kind_mut<P: Registered>(&mut self) -> Option<KindMut<'_, P>> {
        KindMut::of(&mut self.engine)
    }

    /// The team session, when this is one.
    pub fn as_team(&self) -> Option<KindRef<'_, TeamState>> {
        self.as_kind()
    }

    /// The meeting, when this is one.
    pub fn as_meeting(&self) -> Option<KindRef<'_, MeetingState>> {
        self.as_kind()
    }

    /// The dialectic, when this is one.
    pub fn as_dialectic(&self) -> Option<KindRef<'_, DialecticState>> {
        self.as_kind()
    }

    /// The number of events in the log.
    pub fn event_count(&self) -> usize {
        self.engine.events().len()
    }

    /// Events `from..` as JSON, one string each with its sequence number (for storage).
    pub fn events_json(&self, from: usize) -> Result<Vec<(u64, String)>, String> {
        fn encode(events: &[Event], from: usize) -> Result<Vec<(u64, String)>, String> {
            events[from.min(events.len())..]
                .iter()
                .map(|e| {
                    serde_json::to_string(e)
                        .map(|json| (e.seq, json))
                        .map_err(|err| format!("an event could not be serialised: {err}"))
                })
                .collect()
        }
        encode(self.engine.events(), from)
    }

    /// Model calls due now, for the runner.
    pub fn next_calls(&self) -> Vec<ModelCall> {
        self.engine.next_calls()
    }

    /// Effects due now (code to run), for the runner: perform each once and hand its output to
    /// [`Session::effect_done`].
    pub fn next_effects(&self) -> Vec<crate::engine::DueEffect> {
        self.engine.next_effects()
    }

    /// Hands in what performing effect `effect_id` gave; the kind reads it and what is due next
    /// is issued.
    pub fn effect_done(
        &mut self,
        effect_id: &str,
        output: serde_json::Value,
        now: u64,
    ) -> Result<(), EngineError> {
        self.engine.effect_done(effect_id, output, now)
    }

    /// What the kind's demo stand-in hands back for `effect`, where it has one (playing a demo
    /// session natively; the app performs effects for real).
    pub fn demo_effect(&self, effect: &crate::engine::DueEffect) -> Option<serde_json::Value> {
        self.engine.state().demo_effect(effect)
    }

    /// Hands in a model's raw answer.
    pub fn submit(
        &mut self,
        call_id: &str,
        raw: &str,
        usage: Option<Usage>,
        now: u64,
    ) -> Result<Outcome, EngineError> {
        self.engine.submit(call_id, raw, usage, now)
    }

    /// Hands in an answer kept as the model sent it (`raw`) but judged in the plain shape
    /// (`read_as`): see [`crate::engine::Engine::submit_read_as`].
    pub fn submit_read_as(
        &mut self,
        call_id: &str,
        raw: &str,
        read_as: Option<&str>,
        usage: Option<Usage>,
        now: u64,
    ) -> Result<Outcome, EngineError> {
        self.engine
            .submit_read_as(call_id, raw, read_as, usage, now)
    }

    /// Starts a draft to run to the end.
    pub fn start(&mut self, now: u64) -> Result<(), EngineError> {
        self.engine.start(now)
    }

    /// Starts a draft, or resumes a paused session, to run as far as `target` says (the One
    /// step / One round / Run to the end controls; see [`crate::engine::control`]), with the
    /// price of each member's model from now on (`None`: the prices in force stay), which
    /// bounds each call under the money budget before it is made ([`MemberPrices`]).
    pub fn run(
        &mut self,
        target: RunTarget,
        prices: Option<MemberPrices>,
        now: u64,
    ) -> Result<(), EngineError> {
        match self.status() {
            SessionStatus::Draft => self.engine.start_run(target, prices, now),
            _ => self.engine.resume_run(target, prices, now),
        }
    }

    /// Pauses a running session.
    pub fn pause(&mut self, now: u64) -> Result<(), EngineError> {
        self.engine.pause(now)
    }

    /// Resumes a paused session.
    pub fn resume(&mut self, now: u64) -> Result<(), EngineError> {
        self.engine.resume(now)
    }

    /// Ends the work and asks for the closing step.
    pub fn finish(&mut self, now: u64) -> Result<(), EngineError> {
        self.engine.finish(now)
    }

    /// The person's answer to the open question.
    pub fn answer_halt(&mut self, answer: &str, now: u64) -> Result<(), EngineError> {
        self.engine.answer_halt(answer, now)
    }

    /// The person's word on the oldest open ask: an answer, or a verdict on an approval
    /// ([`crate::engine::Engine::reply`]).
    pub fn reply(
        &mut self,
        reply: crate::engine::PersonReply,
        now: u64,
    ) -> Result<(), EngineError> {
        self.engine.reply(None, reply.clone(), now)
    }

    /// A provider call failed for good: the session pauses with the error and where to fix it
    /// ([`crate::engine::Engine::fail_call`]).
    pub fn fail_call(
        &mut self,
        call_id: &str,
        error: &str,
        fix: Fix,
        now: u64,
    ) -> Result<(), EngineError> {
        self.engine.fail_call(call_id, error, fix, now)
    }

    /// A provider call failed: whether it is tried again and after how long, recorded in the log
    /// ([`crate::engine::Engine::retry_call`]); `None`: not again (then [`Session::fail_call`]).
    pub fn retry_call(
        &mut self,
        call_id: &str,
        error: &str,
        failure: crate::engine::retry::Failure,
        seed: u64,
        now: u64,
    ) -> Result<Option<u64>, EngineError> {
        self.engine.retry_call(call_id, error, failure, seed, now)
    }

    /// Each member of the current step and what it is doing now, from the engine's state and
    /// the runner's facts ([`crate::live`]).
    pub fn members_now(&self, facts: &RunFacts) -> Vec<MemberNow> {
        let names = crate::order::map(self.members().into_iter().map(|m| (m.id, m.name)));
        crate::live::members_now(self.engine.state().core(), &names, facts)
    }

    /// The banners the runner's facts add (a retry waiting, with its countdown).
    pub fn notices(&self, facts: &RunFacts) -> Vec<Notice> {
        crate::live::notices(self.engine.state(), facts)
    }

    /// The price of `member`'s model the run was started with (the one that bounds its calls
    /// under the money budget), so the runner charges its answers at the same price.
    pub fn price_of(&self, member: &str) -> Option<crate::cost::Price> {
        self.engine.state().core().prices.get(member).copied()
    }

    /// The limits in force (round limit, budgets, repairs), for the page's budget editor.
    pub fn settings(&self) -> Settings {
        self.engine.state().core().settings.clone()
    }

    /// New limits.
    pub fn set_settings(&mut self, settings: Settings, now: u64) -> Result<(), EngineError> {
        self.engine.edit(EngineEdit::Settings { settings }, now)
    }

    /// The status word (`running`), as the app stores it.
    pub fn status_word(&self) -> &'static str {
        self.engine.status().word()
    }

    /// Where the session stands.
    pub fn status(&self) -> SessionStatus {
        SessionStatus::of(self.engine.status())
    }

    /// Whether the session is running (the runner keeps going while it is).
    pub fn is_running(&self) -> bool {
        *self.engine.status() == Status::Running
    }

    /// The current round.
    pub fn round(&self) -> u32 {
        self.engine.state().core().round
    }

    /// Tokens counted so far.
    pub fn tokens_used(&self) -> u64 {
        self.engine.state().core().tokens_used
    }

    /// The person's request (or a meeting's agenda), verbatim.
    pub fn request(&self) -> &str {
        self.engine.state().request()
    }

    /// The members with their provider and model (never a key), for lists and files.
    pub fn members(&self) -> Vec<MemberBrief> {
        self.engine
            .state()
            .members()
            .into_iter()
            .map(|m| MemberBrief {
                id: m.id,
                name: m.name,
                model: m.model,
            })
            .collect()
    }

    /// The title for lists and the page: the person's own ([`Session::rename`]), else the
    /// default ([`Session::default_title`]).
    pub fn title(&self) -> String {
        self.engine
            .state()
            .core()
            .title
            .clone()
            .unwrap_or_else(|| self.default_title())
    }

    /// The title a session has until the person names it: the first line of the request
    /// without its Markdown markup.
    pub fn default_title(&self) -> String {
        crate::text::title_of(self.request())
    }

    /// Whether the person named the session (its title is not the default).
    pub fn is_renamed(&self) -> bool {
        self.engine.state().core().title.is_some()
    }

    /// Names the session `title` (one line, trimmed); empty gives back the default. Taken in
    /// any status, recorded in the log (so it travels with exports and shared links).
    pub fn rename(&mut self, title: &str, now: u64) -> Result<(), EngineError> {
        self.engine.rename(title, now)
    }

    /// What the shell shows of the session.
    pub fn view(&self) -> SessionView {
        let mut view = view_of(self.kind(), &self.engine);
        view.progress = self.engine.state().progress();
        view
    }

    /// The event names with what each did, one line each (for scenario snapshots and logs).
    pub fn event_lines(&self) -> Vec<String> {
        self.engine
            .events()
            .iter()
            .map(|e| event_line(self.engine.info(), e))
            .collect()
    }

    /// One event as a line, as [`Session::event_lines`] words it (`None` past the end): the
    /// history slider's label of the point shown.
    pub fn event_line(&self, seq: usize) -> Option<String> {
        self.engine
            .events()
            .get(seq)
            .map(|e| event_line(self.engine.info(), e))
    }

    /// One event in a person's words, as the history slider labels the point shown: who did
    /// what, by the members' names and the steps' titles — no event names, call ids or enum names
    /// (`None` past the end).
    pub fn event_words(&self, seq: usize) -> Option<String> {
        self.engine
            .events()
            .get(seq)
            .map(|e| event_words(e, self.engine.state()))
    }

    /// A point of history as a person names it: what happened there and in which of the kind's
    /// units ("Bo's answer was taken, round 2", "The session was created") — never an event's
    /// index, which says nothing to a person. The history slider, its banner and a fork's line
    /// name their point with it (`None` past the end).
    pub fn point_words(&self, seq: usize) -> Option<String> {
        point_words(self.engine.events(), self.engine.state(), seq)
    }

    /// Rebuilds a session from its events as stored, one JSON string each (the app's IndexedDB
    /// rows); the first event's `kind` picks the kind. Reads from text, not through
    /// `serde_json::Value`: a second deserializer for every event type would cost the browser
    /// app ≈150 KB of wasm (the same reason as in [`crate::export::from_file`]).
    pub fn replay_stored<S: AsRef<str>>(events: &[S]) -> Result<Session, LogError> {
        /// The one field of the first event that picks the kind.
        #[derive(Deserialize)]
        struct Head {
            kind: HeadKind,
        }
        #[derive(Deserialize)]
        struct HeadKind {
            #[serde(default)]
            kind: String,
        }
        fn decode<S: AsRef<str>>(info: &KindInfo, events: &[S]) -> Result<Vec<Event>, LogError> {
            events
                .iter()
                .enumerate()
                .map(|(seq, e)| {
                    Event::read(info, e.as_ref()).map_err(|err| LogError::Damaged {
                        seq,
                        reason: err.to_string(),
                    })
                })
                .collect()
        }
        let first = events.first().ok_or(LogError::Empty)?;
        let head: Head = serde_json::from_str(first.as_ref()).map_err(|err| LogError::Damaged {
            seq: 0,
            reason: err.to_string(),
        })?;
        let name = head.kind.kind;
        let kind = Kind::from_name(&name).ok_or(LogError::UnknownKind(name))?;
        let info = kind.info();
        let texts: Vec<&str> = events.iter().map(AsRef::as_ref).collect();
        let events = match (info.migrate_log)(&texts) {
            Some(migrated) => decode(info, &migrated)?,
            None => decode(info, &texts)?,
        };
        Ok(Session::of_engine(crate::engine::Engine::replay(
            info, &events,
        )?))
    }

    /// The session as it stood after its first `len` events: how the app takes back a command
    /// whose events could not be stored, without keeping a copy of the session per command.
    pub fn rewound(&self, len: usize) -> Result<Session, LogError> {
        let events = &self.engine.events()[..len.min(self.engine.events().len())];
        Ok(Session::of_engine(crate::engine::Engine::replay(
            self.engine.info(),
            events,
        )?))
    }

    /// The team session, when this is one, for the person's edits of the team's state.
    pub fn as_team_mut(&mut self) -> Option<KindMut<'_, TeamState>> {
        self.as_kind_mut()
    }

    /// The meeting, when this is one, for the person's remarks.
    pub fn as_meeting_mut(&mut self) -> Option<KindMut<'_, MeetingState>> {
        self.as_kind_mut()
    }

    /// The oldest open question or approval to the person, if one is open: who asked (by name,
    /// as the page says it), and what.
    pub fn question(&self) -> Option<(String, &crate::engine::PersonAsk)> {
        match self.engine.status() {
            Status::AwaitingPerson { asked_by, halt } => {
                Some((self.engine.state().member_name(asked_by), halt))
            }
            _ => None,
        }
    }

    /// The timeline the shell shows: every round, newest first, each with its steps (newest
    /// first) and every call of each step with what became of it, in the engine's words
    /// ([`crate::engine::CallRecord::result_word`]).
    pub fn timeline(&self, facts: &RunFacts) -> Vec<RoundLine> {
        timeline_of(self.engine.state(), facts)
    }

    /// The wire name of the current (or last finished) step, the same word as
    /// [`ModelCall::step`]; `None` before the first step.
    pub fn step_name(&self) -> Option<&'static str> {
        let step_name = self.engine.info().step_name;
        self.engine.state().core().step.map(step_name)
    }

    /// The calls issued and not yet answered, as (member, call id), in issue order: what the
    /// runner may have out, whatever the status (a paused session keeps its calls).
    pub fn calls_out(&self) -> Vec<(String, String)> {
        self.engine
            .state()
            .core()
            .outstanding_calls()
            .map(|c| (c.call.member.clone(), c.call.id.clone()))
            .collect()
    }

    /// A call in a person's words ("Chair's plan, round 2"), for titles that name it.
    pub fn call_title(&self, call_id: &str) -> Option<String> {
        self.engine.state().core().call(call_id).map(|c| {
            self.engine
                .state()
                .call_title(&c.call.member, c.call.step, c.call.round)
        })
    }

    /// One call as the transcript shows it (any kind); `None` for an unknown id.
    pub fn call_view(&self, call_id: &str) -> Option<CallView> {
        call_view_of(self.engine.state(), call_id)
    }

    /// The state envelope a call's prompt was built from, as compact JSON: rebuilt on demand by
    /// replaying the log up to the call (the log does not store it). `None` for an unknown id.
    pub fn envelope_json(&self, call_id: &str) -> Option<String> {
        self.engine
            .envelope_of(call_id)
            .and_then(|e| serde_json::to_string(&e).ok())
    }

    /// When the session was created (ms, the `created` event's time).
    pub fn created_at(&self) -> Option<u64> {
        self.engine.events().first().map(|e| e.at)
    }
}

/// One call as the transcript shows it, whatever the kind of session.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallView {
    /// Call id.
    pub id: String,
    /// The call in words ([`Protocol::call_title`]): "Ana's turn in Option generation".
    pub title: String,
    /// The member asked.
    pub member: String,
    /// Its name.
    pub member_name: String,
    /// The step in words.
    pub step_title: &'static str,
    /// The round.
    pub round: u32,
    /// First ask, re-ask with context, or repair.
    pub kind: crate::engine::CallKind,
    /// Exactly what was sent.
    pub messages: Vec<crate::engine::Message>,
    /// The raw answer, once it came (shared with the session's record of it): its head only
    /// when it was refused for its length.
    pub raw_answer: Option<crate::text::Text>,
    /// The whole answer's length in bytes when `raw_answer` keeps only its head
    /// ([`crate::engine::long_answer`]).
    pub whole_bytes: Option<u64>,
    /// Tokens counted.
    pub tokens: u64,
    /// They are the engine's estimate, not the provider's count.
    pub tokens_estimated: bool,
    /// How the provider was held to the answer's schema, in words (`None` for the demo, or a
    /// call recorded before this was kept).
    pub schema_form: Option<&'static str>,
    /// What the provider reported.
    pub usage: Option<Usage>,
    /// What the call cost in words ([`crate::cost::Cost::text`]), once answered and priced.
    pub cost: Option<String>,
    /// What became of it.
    pub result: Option<ResultView>,
    /// The provider's error when the call failed without an answer (it is asked again on
    /// resume), and where to fix it.
    pub failed: Option<(String, Fix)>,
    /// How often the call was tried again after a failure that could pass, in words (none when
    /// it never was): the retries core chose and the log records (`call_retried`).
    pub retried: Option<String>,
    /// Every attempt of this member at this step (this one included): id, kind, result word.
    pub attempts: Vec<(String, crate::engine::CallKind, &'static str)>,
}

/// What became of a call, whatever the kind of session.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum ResultView {
    /// Applied, with the changes in words.
    Applied {
        /// What changed.
        changes: Vec<String>,
        /// Warnings.
        warnings: Vec<crate::validate::Violation>,
    },
    /// Invalid; the member was asked to repair it.
    Invalid {
        /// Every violation.
        report: crate::engine::Findings,
    },
    /// Invalid; the kind's rule decided instead.
    FellBack {
        /// Every violation.
        report: crate::engine::Findings,
        /// What the rule changed.
        changes: Vec<String>,
    },
    /// Context served: (heading, text) per slice.
    ContextServed {
        /// The slices.
        slices: Vec<(String, String)>,
    },
    /// A halt.
    Halted {
        /// What was put to the person.
        halt: crate::engine::PersonAsk,
    },
    /// The kind judged the answer to end the rounds.
    Ended {
        /// The member's words.
        message: String,
    },
    /// Superseded before an answer came.
    Superseded,
}

fn call_view_of(state: &dyn KindState, id: &str) -> Option<CallView> {
    use crate::engine::CallResult;
    let core = state.core();
    let rec = core.call(id)?;
    let c = &rec.call;
    Some(CallView {
        id: c.id.clone(),
        title: state.call_title(&c.member, c.step, c.round),
        member: c.member.clone(),
        member_name: state.member_name(&c.member),
        step_title: (state.info().step_title)(c.step),
        round: c.round,
        kind: c.kind,
        messages: c.messages.clone(),
        raw_answer: rec.raw_answer.clone(),
        whole_bytes: rec.whole_bytes,
        tokens: rec.tokens,
        tokens_estimated: rec.tokens_estimated(),
        usage: rec.usage,
        cost: rec.usage.and_then(|u| u.cost).map(|c| c.text()),
        schema_form: rec
            .usage
            .and_then(|u| u.schema_form)
            .map(crate::engine::SchemaForm::words),
        result: rec.result.as_ref().map(|r| match r {
            CallResult::Applied { changes, warnings } => ResultView::Applied {
                changes: changes.clone(),
                warnings: warnings.clone(),
            },
            CallResult::Invalid { report } => ResultView::Invalid {
                report: report.clone(),
            },
            CallResult::FellBack { report, changes } => ResultView::FellBack {
                report: report.clone(),
                changes: changes.clone(),
            },
            CallResult::ContextServed { slices } => ResultView::ContextServed {
                slices: (state.info().served_lines)(slices),
            },
            CallResult::Halted { halt } => ResultView::Halted { halt: halt.clone() },
            CallResult::Ended { message } => ResultView::Ended {
                message: message.clone(),
            },
            CallResult::Superseded => ResultView::Superseded,
        }),
        failed: rec.failed.as_ref().map(|e| {
            let fix = match &core.status {
                Status::Paused {
                    reason: crate::engine::PauseReason::CallFailed { call_id, fix, .. },
                } if *call_id == c.id => fix.clone(),
                _ => Fix::Settings,
            };
            (e.clone(), fix)
        }),
        retried: (rec.retries > 0).then(|| {
            format!(
                "The provider failed for a moment and the call was tried again {}.",
                crate::text::count(rec.retries as usize, "time", "times")
            )
        }),
        attempts: core
            .thread(&c.member, c.round, c.step)
            .into_iter()
            .map(|t| (t.call.id.clone(), t.call.kind, t.result_word()))
            .collect(),
    })
}

/// One round of the timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundLine {
    /// Its number (0: the opening step before the first round).
    pub round: u32,
    /// "Start", "Round 2".
    pub title: String,
    /// Its steps, newest first.
    pub steps: Vec<StepLine>,
}

/// One step of a round in the timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepLine {
    /// The step in words.
    pub title: &'static str,
    /// Its calls, in issue order.
    pub calls: Vec<CallLine>,
}

/// One call in the timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallLine {
    /// Call id (opens its transcript).
    pub id: String,
    /// The call in words ([`Protocol::call_title`]).
    pub title: String,
    /// The member asked.
    pub member: String,
    /// Its name.
    pub member_name: String,
    /// First ask, re-ask with context, or repair.
    pub kind: crate::engine::CallKind,
    /// What became of it ([`crate::engine::CallRecord::result_word`]).
    pub result: &'static str,
    /// Its state now, the runner's facts included (`streaming`, `retrying in 4 s`, `failed`,
    /// `stopped`…): what the timeline shows.
    pub now: CallNow,
    /// Tokens counted for it (0 until an answer came).
    pub tokens: u64,
    /// They are the engine's estimate, not the provider's count.
    pub tokens_estimated: bool,
    /// What it cost in words, once answered and priced.
    pub cost: Option<String>,
}

fn timeline_of(state: &dyn KindState, facts: &RunFacts) -> Vec<RoundLine> {
    let core = state.core();
    let mut rounds: Vec<RoundLine> = Vec::new();
    for rec in &core.timeline {
        let step = StepLine {
            title: (state.info().step_title)(rec.step),
            calls: core
                .calls
                .iter()
                .filter(|c| c.call.round == rec.round && c.call.step == rec.step)
                .map(|c| CallLine {
                    id: c.call.id.clone(),
                    title: state.call_title(&c.call.member, c.call.step, c.call.round),
                    member: c.call.member.clone(),
                    member_name: state.member_name(&c.call.member),
                    kind: c.call.kind,
                    result: c.result_word(),
                    now: crate::live::call_now(core, c, facts),
                    tokens: c.tokens,
                    tokens_estimated: c.tokens_estimated(),
                    cost: c.usage.and_then(|u| u.cost).map(|c| c.text()),
                })
                .collect(),
        };
        match rounds.last_mut() {
            Some(r) if r.round == rec.round => r.steps.push(step),
            _ => rounds.push(RoundLine {
                round: rec.round,
                title: if rec.round == 0 {
                    "Start".into()
                } else {
                    format!("{} {}", state.info().round_word, rec.round)
                },
                steps: vec![step],
            }),
        }
    }
    for r in &mut rounds {
        r.steps.reverse();
    }
    rounds.reverse();
    rounds
}

/// A member's live word with what only the whole state knows: it waits for the person's answer
/// (`halted`), or it finished after an invalid answer (`repaired`).
fn live_word(core: &crate::engine::Core, member: &str, word: &'static str) -> &'static str {
    let repaired = || {
        core.step.is_some_and(|step| {
            core.thread(member, core.round, step)
                .iter()
                .any(|c| matches!(c.result, Some(crate::engine::CallResult::Invalid { .. })))
        })
    };
    match &core.status {
        Status::AwaitingPerson { asked_by, .. } if asked_by == member => "halted",
        _ if word == "done" && repaired() => "repaired",
        _ => word,
    }
}

/// One event as a line: its name and what it says in brief.
fn event_line(info: &KindInfo, e: &Event) -> String {
    let name = e.kind.name();
    match &e.kind {
        EventKind::StepStarted {
            round,
            step,
            members,
        } => format!(
            "{name} r{round} {} [{}]",
            (info.step_name)(*step),
            members.join(", ")
        ),
        EventKind::RoundStarted { round } => format!("{name} {round}"),
        EventKind::CallIssued { call } => {
            format!("{name} {} {} ({:?})", call.id, call.member, call.kind)
        }
        EventKind::AnswerReceived { call_id, .. }
        | EventKind::Applied { call_id, .. }
        | EventKind::ContextServed { call_id, .. } => format!("{name} {call_id}"),
        EventKind::AnswerInvalid {
            call_id, report, ..
        }
        | EventKind::FellBack {
            call_id, report, ..
        } => format!(
            "{name} {call_id}: {}",
            report
                .errors
                .iter()
                .map(|v| if v.path.is_empty() {
                    "/".to_string()
                } else {
                    v.path.clone()
                })
                .collect::<Vec<_>>()
                .join(" ")
        ),
        EventKind::AnswerRefused {
            call_id, reason, ..
        } => format!("{name} {call_id}: {reason}"),
        EventKind::HaltRaised { call_id, halt, .. } => {
            format!("{name} {call_id} {}", halt.word())
        }
        EventKind::Paused { reason } => format!(
            "{name} {}",
            serde_json::to_value(reason)
                .ok()
                .and_then(|v| v.get("reason").and_then(|r| r.as_str()).map(str::to_string))
                .unwrap_or_default()
        ),
        EventKind::RoundsEnded { by, .. } => format!("{name} by {by}"),
        EventKind::EffectIssued { effect_id, effect } => {
            format!("{name} {effect_id} ({})", effect.name)
        }
        EventKind::EffectDone { effect_id, .. } => format!("{name} {effect_id}"),
        EventKind::CallRetried {
            call_id,
            attempt,
            wait_ms,
            ..
        } => format!("{name} {call_id} attempt {attempt} after {wait_ms} ms"),
        _ => name.to_string(),
    }
}

/// A point of history in a person's words (see [`Session::point_words`]): the event's words and
/// the unit the last `RoundStarted` up to it began, if any.
pub(crate) fn point_words(events: &[Event], state: &dyn KindState, seq: usize) -> Option<String> {
    let what = event_words(events.get(seq)?, state);
    let round = events[..=seq].iter().rev().find_map(|e| match e.kind {
        EventKind::RoundStarted { round } => Some(round),
        _ => None,
    });
    Some(match round {
        Some(r) => format!("{what}, {} {r}", state.info().round_word.to_lowercase()),
        None => what,
    })
}

/// One event in a person's words (see [`Session::event_words`]).
fn event_words(e: &Event, state: &dyn KindState) -> String {
    use crate::engine::{CallKind, PersonAsk};
    let members = state.members();
    let name = |id: &str| -> String {
        if id == crate::engine::control::PERSON {
            return "You".into();
        }
        members
            .iter()
            .find(|m| m.id == id)
            .map_or_else(|| id.to_string(), |m| m.name.clone())
    };
    let by_call = |call_id: &str| -> String {
        state
            .core()
            .call(call_id)
            .map_or_else(|| "A member".to_string(), |c| name(&c.call.member))
    };
    let round = state.info().round_word;
    match &e.kind {
        EventKind::Created { .. } => "The session was created".into(),
        EventKind::Started { .. } => "You started the run".into(),
        EventKind::Resumed { .. } => "You ran it on".into(),
        EventKind::RoundStarted { round: r } => format!("{round} {r} began"),
        EventKind::StepStarted {
            round: r,
            step,
            members,
        } => {
            let who: Vec<String> = members.iter().map(|m| name(m)).collect();
            format!(
                "{round} {r}, {}: {}",
                (state.info().step_title)(*step),
                who.join(", ")
            )
        }
        EventKind::CallIssued { call } => {
            let who = name(&call.member);
            let step = (state.info().step_title)(call.step);
            match call.kind {
                CallKind::Initial => format!("{who} was asked ({step})"),
                CallKind::AfterContext => format!("{who} was asked again with what it looked up"),
                CallKind::Repair => format!("{who} was asked to fix its answer"),
            }
        }
        EventKind::AnswerReceived { call_id, .. } => format!("{} answered", by_call(call_id)),
        EventKind::Applied { call_id, .. } => format!("{}'s answer was taken", by_call(call_id)),
        EventKind::AnswerInvalid {
            call_id, report, ..
        } => {
            let n = report.errors.len();
            format!(
                "{}'s answer broke {n} rule{}: sent back to fix",
                by_call(call_id),
                if n == 1 { "" } else { "s" }
            )
        }
        EventKind::FellBack { call_id, .. } => format!(
            "{}'s answer could not be used: the session's rule decided",
            by_call(call_id)
        ),
        EventKind::AnswerRefused { .. } => "A late answer was set aside".into(),
        EventKind::ContextServed { call_id, .. } => {
            format!("{} looked something up", by_call(call_id))
        }
        EventKind::HaltRaised { call_id, halt, .. } => match halt {
            PersonAsk::Question { .. } => format!("{} asked you a question", by_call(call_id)),
            PersonAsk::Approval { .. } => format!("{} asked for your approval", by_call(call_id)),
        },
        EventKind::PersonAnswered { .. } => "You answered".into(),
        EventKind::PersonEdited { edit } => match edit {
            crate::engine::EngineEdit::Settings { .. } => "You changed the limits".into(),
            crate::engine::EngineEdit::Title { .. } => "You renamed the session".into(),
            crate::engine::EngineEdit::Protocol(_) => "You changed the session".into(),
        },
        // The short form: the banner of the point says the whole of it.
        EventKind::Paused { reason } => match reason {
            crate::engine::PauseReason::Person => "You paused the run".into(),
            crate::engine::PauseReason::Reached { .. } => "The run stopped where you asked".into(),
            crate::engine::PauseReason::RoundLimit { .. } => {
                format!("Paused at the {} limit", round.to_lowercase())
            }
            crate::engine::PauseReason::TokenBudget { .. } => {
                "Paused before the token budget".into()
            }
            crate::engine::PauseReason::MoneyBudget { .. } => {
                "Paused before the money budget".into()
            }
            crate::engine::PauseReason::InvalidAnswer { .. } => {
                "Paused: an answer could not be fixed".into()
            }
            crate::engine::PauseReason::CallFailed { .. } => "Paused: a call failed".into(),
            crate::engine::PauseReason::Forked => "The fork waits for you to run it".into(),
            crate::engine::PauseReason::Blocked(_) => format!("Paused: {}", reason.describe(state)),
        },
        EventKind::RoundsEnded { by, call_id, .. } => match call_id {
            Some(call_id) => format!("{} ended the work", by_call(call_id)),
            None if by == crate::engine::control::PERSON => "You wrapped up".into(),
            None => format!("{} ended the work", name(by)),
        },
        EventKind::EffectIssued { effect, .. } => {
            format!("This tab was asked to {}", effect.name.replace('_', " "))
        }
        EventKind::EffectDone { .. } => "This tab did what it was asked".into(),
        EventKind::CallRetried {
            call_id, attempt, ..
        } => format!(
            "{}'s call failed for a moment and was tried again (attempt {attempt} of {})",
            by_call(call_id),
            crate::engine::retry::MAX_ATTEMPTS
        ),
        EventKind::Finished => "The session finished".into(),
        EventKind::Forked { .. } => "This fork starts here".into(),
    }
}

fn view_of(kind: Kind, s: &crate::engine::Engine) -> SessionView {
    let state = s.state();
    let core = state.core();
    let status = &core.status;
    let status_text = match status {
        Status::Draft => "not started yet".to_string(),
        Status::Running => "running".to_string(),
        Status::Paused { reason } => reason.describe(state),
        Status::AwaitingPerson { asked_by, .. } => {
            format!("{} asks you a question", state.member_name(asked_by))
        }
        Status::Done => "done".to_string(),
    };
    let stage = match core.step {
        Some(step) if core.round > 0 => {
            format!(
                "{} {} · {}",
                state.info().round_word,
                core.round,
                (state.info().step_title)(step)
            )
        }
        Some(step) => (state.info().step_title)(step).to_string(),
        None if core.round > 0 => format!("{} {}", state.info().round_word, core.round),
        None => String::new(),
    };
    let running = *status == Status::Running;
    let paused = matches!(status, Status::Paused { .. });
    let run_blocked = s.cannot_run();
    SessionView {
        kind,
        status: SessionStatus::of(status),
        status_text,
        stage,
        round: core.round,
        max_rounds: core.settings.max_rounds,
        tokens_used: core.tokens_used,
        tokens_estimated: core.calls.iter().any(|c| c.tokens_estimated()),
        live: core
            .live_states()
            .into_iter()
            .map(|(m, w)| (m.to_string(), live_word(core, m, w)))
            .collect(),
        actions: Actions {
            start: *status == Status::Draft,
            resume: paused && run_blocked.is_none(),
            pause: running,
            wrap_up: s.cannot_finish().is_none(),
            answer: matches!(status, Status::AwaitingPerson { .. }),
            edit: *status != Status::Done,
        },
        run_blocked,
        fix: match status {
            Status::Paused { reason } => Some(reason.fix(state)),
            Status::AwaitingPerson { .. } => Some(Fix::Question),
            _ => None,
        },
        progress: 0,
        cost: cost_of(state),
        open_asks: core.open_asks().count(),
    }
}

/// What a session's answered calls cost: in all, per member (in the order they first answered)
/// and per round (oldest first), each in words, and the money budget against the total.
fn cost_of(state: &dyn KindState) -> crate::cost::CostView {
    use crate::cost::{usd, CostTotal, CostView, MemberCost};
    let core = state.core();
    let mut total = CostTotal::default();
    let mut members: Vec<(String, CostTotal)> = Vec::new();
    let mut rounds: Vec<(u32, CostTotal)> = Vec::new();
    for rec in core.calls.iter().filter(|c| c.raw_answer.is_some()) {
        let cost = rec.usage.as_ref().and_then(|u| u.cost.as_ref());
        total.add(cost);
        let member = &rec.call.member;
        match members.iter_mut().find(|(m, _)| m == member) {
            Some((_, t)) => t.add(cost),
            None => {
                let mut t = CostTotal::default();
                t.add(cost);
                members.push((member.clone(), t));
            }
        }
        match rounds.iter_mut().find(|(r, _)| *r == rec.call.round) {
            Some((_, t)) => t.add(cost),
            None => {
                let mut t = CostTotal::default();
                t.add(cost);
                rounds.push((rec.call.round, t));
            }
        }
    }
    crate::order::sort_by_key(&mut rounds, |(r, _)| *r);
    CostView {
        total_text: total.text(),
        budget_text: core
            .settings
            .money_budget
            .map(|b| format!("{} of {}", usd(core.cost_used), usd(b))),
        total,
        members: members
            .into_iter()
            .map(|(id, t)| MemberCost {
                name: state.member_name(&id),
                id,
                text: t.text(),
            })
            .collect(),
        rounds: rounds
            .into_iter()
            .map(|(r, t)| {
                let title = if r == 0 {
                    "Start".to_string()
                } else {
                    format!("{} {r}", state.info().round_word)
                };
                (title, t.text())
            })
            .collect(),
    }
}
