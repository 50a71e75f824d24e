//! The runner: drives `roundtable-core`'s engine for one open session.
//!
//! It drives the [`Session`] enum only, whatever its kind: asks it for the calls due
//! ([`Session::next_calls`]: each names its answer's schema, which [`perform`] loads from the
//! site's `schemas/` for the provider to enforce; a demo member's call carries the demo model's
//! answer), performs them through the member's provider
//! (in parallel when the engine hands out several), hands each raw answer back
//! ([`Session::submit`]) and stores the events that produced, retrying provider errors that can
//! pass and pausing on those that cannot. It never decides anything the engine decides: which
//! command the Run button means comes from the session's [`SessionView::actions`], and the
//! tokens of an answer the provider did not count are estimated by the engine, not here.
//!
//! Every change goes through [`Runner::command`]: the command runs on the session in place, its
//! new events ([`Session::events_json`]) are committed to IndexedDB in one transaction, and only
//! then is the change announced ([`Runner::version`]) so views re-render. A failed write (quota,
//! another tab) takes the change back ([`Session::rewound`]), so both the screen and the store
//! stay at the last committed event. No command copies the session.

use roundtable_core::order::Collect as _;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use futures::channel::mpsc;
use futures::StreamExt;
use leptos::prelude::*;
use roundtable_core::code_run;
use roundtable_core::engine::{EngineError, RunTarget, Usage};
use roundtable_core::history::History;
use roundtable_core::live::{CallActivity, RunFacts};
use roundtable_core::protocol::ModelCall;
use roundtable_core::session::{Session, SessionView};
use send_wrapper::SendWrapper;

use crate::providers::{self, CallRequest, Completion, ProviderError, ProviderId};
use crate::storage::{self, SessionRecord};
use crate::util::now_ms;
use crate::{locks, sandbox, sessions};

/// A performed call, its attempt number and what the provider said.
type CallOutcome = (ModelCall, u32, Result<Answered, ProviderError>);

/// A provider's answer to one call, and the same answer in the plain shape when the provider's
/// strict form made the model spell it otherwise (maps as `{key, value}` pairs, "absent" as
/// `null`): the log keeps `done.text` verbatim, the engine judges `read_as`.
pub struct Answered {
    /// What the provider returned, the text exactly as received.
    pub done: Completion,
    /// The text re-spelt in the plain schema's shape, when that changed anything.
    pub read_as: Option<String>,
    /// How the provider was held to the answer's schema (`None`: the demo, or no schema could
    /// be loaded), as it was worked out once for the request.
    pub schema_form: Option<roundtable_core::engine::SchemaForm>,
}
/// Where performed calls report to the loop.
type Sender = mpsc::UnboundedSender<CallOutcome>;
/// An answer on its way to the engine: the call, the text as received, the text to judge when
/// it had to be re-spelt ([`Answered::read_as`]), and what the provider said of the call.
type Submission = (ModelCall, String, Option<String>, Option<Usage>);

/// Which run control the person last pressed (for the page; the boundary itself is the
/// engine's, see `roundtable_core::engine::control`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunMode {
    /// Not running.
    Idle,
    /// The calls of the current step, then pause.
    Step,
    /// The rest of the current round, then pause.
    Round,
    /// Until the session is done, halts, or hits a limit.
    ToEnd,
}

/// Pause per demo call so a person can watch the team work (no network is involved).
pub const DEMO_DELAY_MS: u64 = 120;
/// How often the answer so far of a streaming call is shown: often enough to watch it arrive,
/// rarely enough that the page does not re-render per token.
pub const PARTIAL_EVERY_MS: u64 = 100;

/// Events between two marks of the history view (see `bench/log.md`: stepping through a
/// 1,000-product session).
pub const HISTORY_EVERY: usize = 32;
/// The setting that overrides [`DEMO_DELAY_MS`] (Settings → Demo model).
pub const DEMO_DELAY_SETTING: &str = "demo:delay";

/// The open session and everything the page shows about its run. `Copy`: every field is an
/// arena handle, so closures take it freely.
#[derive(Clone, Copy)]
pub struct Runner {
    id: StoredValue<String>,
    /// Local, not shared across threads: a team session keeps a `RefCell` cache.
    session: StoredValue<Session, LocalStorage>,
    record: StoredValue<SessionRecord>,
    /// Bumped after each committed change; read it to re-render.
    pub version: RwSignal<u64>,
    /// How far the current run goes.
    pub mode: RwSignal<RunMode>,
    /// Calls whose request is out.
    pub inflight: RwSignal<BTreeSet<String>>,
    /// The answer so far of each call whose answer is streaming in, by call id; updated at most
    /// every [`PARTIAL_EVERY_MS`] and removed once the answer is complete or the call aborted.
    pub partial: RwSignal<BTreeMap<String, String>>,
    /// Calls whose answer is being validated and stored.
    pub validating: RwSignal<BTreeSet<String>>,
    /// Calls waiting to be asked again after a provider error: when (ms), the attempt number
    /// and the error. Shown through core's [`Session::notices`], gone once the retry is out.
    pub retrying: RwSignal<BTreeMap<String, (u64, u32, String)>>,
    /// The time, ticking once a second while a retry waits (for its countdown).
    pub clock: RwSignal<u64>,
    /// The last run error (storage, a refused command), shown in a banner until the next run.
    pub error: RwSignal<Option<String>>,
    /// What the providers' adapters said once this run (a model whose answers no longer stream,
    /// [`providers::take_notices`]), shown until dismissed.
    pub notes: RwSignal<Vec<String>>,
    /// Another tab is the writer: nothing here may change the session.
    pub read_only: RwSignal<bool>,
    /// The effect whose code the sandbox is running now (its id), for the page's progress.
    pub running_code: RwSignal<Option<String>>,
    /// The session was running when the page last closed and was paused on reopening.
    pub reopened_paused: RwSignal<bool>,
    driving: StoredValue<bool>,
    generation: StoredValue<u64>,
    channel: StoredValue<Option<Sender>>,
    /// One abort handle per request out, by request number: [`Runner::stop`] cancels them all.
    aborts: StoredValue<SendWrapper<Vec<(u64, web_sys::AbortController)>>>,
    /// The number the next request's abort handle is kept under.
    next_request: StoredValue<u64>,
    lock: StoredValue<Arc<futures::lock::Mutex<()>>>,
    /// The point of history the page shows (events folded), or `None`: live. Set by
    /// [`Runner::show_history`] from the route's `@seq`.
    pub history_at: RwSignal<Option<usize>>,
    /// The history view's cursor and marks ([`History`]), made on first use.
    history: StoredValue<Option<History>, LocalStorage>,
}

fn now() -> u64 {
    now_ms() as u64
}

impl Runner {
    /// Wraps a loaded session.
    pub fn new(record: SessionRecord, session: Session, read_only: bool) -> Runner {
        Runner {
            id: StoredValue::new(record.id.clone()),
            session: StoredValue::new_local(session),
            record: StoredValue::new(record),
            version: RwSignal::new(0),
            mode: RwSignal::new(RunMode::Idle),
            inflight: RwSignal::new(BTreeSet::new()),
            partial: RwSignal::new(BTreeMap::new()),
            validating: RwSignal::new(BTreeSet::new()),
            retrying: RwSignal::new(BTreeMap::new()),
            clock: RwSignal::new(now()),
            error: RwSignal::new(None),
            notes: RwSignal::new(Vec::new()),
            read_only: RwSignal::new(read_only),
            reopened_paused: RwSignal::new(false),
            running_code: RwSignal::new(None),
            driving: StoredValue::new(false),
            generation: StoredValue::new(0),
            channel: StoredValue::new(None),
            aborts: StoredValue::new(SendWrapper::new(Vec::new())),
            next_request: StoredValue::new(0),
            lock: StoredValue::new(Arc::new(futures::lock::Mutex::new(()))),
            history_at: RwSignal::new(None),
            history: StoredValue::new_local(None),
        }
    }

    /// The session id.
    pub fn id(&self) -> String {
        self.id.get_value()
    }

    /// Reads the session the page shows, tracking [`Runner::version`] so views re-render: the
    /// committed session, or the point of its history the person scrubbed to
    /// ([`Runner::show_history`]). Commands read the committed one ([`Runner::with_untracked`]).
    pub fn with<R>(&self, f: impl FnOnce(&Session) -> R) -> R {
        self.version.track();
        if self.history_at.get().is_some() && self.history.with_value(Option::is_some) {
            return self.history.with_value(|h| match h {
                Some(h) => f(h.current()),
                None => unreachable!("checked above"),
            });
        }
        self.session.with_value(f)
    }

    /// Shows the session as it was after the event `seq` (`None`: live again). A `seq` past
    /// the end shows the last event. Stepping folds only the events between the point shown and
    /// the next ([`History`]).
    pub fn show_history(&self, seq: Option<u64>) -> Result<(), String> {
        let Some(seq) = seq else {
            self.history_at.set(None);
            return Ok(());
        };
        let len = self.session.with_value(|session| {
            self.history.update_value(|h| {
                if h.is_none() {
                    *h = History::new(session, HISTORY_EVERY).ok();
                }
            });
            let len = (seq as usize + 1).min(session.event_count());
            self.history
                .try_update_value(|h| match h.as_mut() {
                    Some(h) => h.at(session, len).map(|_| len).map_err(|e| e.to_string()),
                    None => Err("this session's history cannot be read".to_string()),
                })
                .unwrap_or_else(|| Err("the page was closed".to_string()))
        })?;
        self.history_at.set(Some(len));
        Ok(())
    }

    /// Forgets the history view's marks (the committed session was replaced or taken back, so
    /// they may no longer be its past) and shows the same point again from the new session.
    fn history_rebuilt(&self) {
        self.history.set_value(None);
        if let Some(len) = self.history_at.get_untracked() {
            if let Err(e) = self.show_history(Some(len.saturating_sub(1) as u64)) {
                self.error.set(Some(e));
            }
        }
    }

    /// The number of events in the committed log (the history slider's end).
    pub fn event_count(&self) -> usize {
        self.version.track();
        self.session.with_value(Session::event_count)
    }

    /// Reads the committed session without tracking.
    pub fn with_untracked<R>(&self, f: impl FnOnce(&Session) -> R) -> R {
        self.session.with_value(f)
    }

    /// The stored record (title, created time).
    pub fn record(&self) -> SessionRecord {
        self.version.track();
        self.record.get_value()
    }

    /// Replaces the shown session with a fresher copy from storage (read-only tabs).
    pub fn reload_from(&self, record: SessionRecord, session: Session) {
        self.record.set_value(record);
        self.session.set_value(session);
        self.history_rebuilt();
        self.version.update(|v| *v += 1);
    }

    /// Runs an engine command on the session, commits the events it recorded, then shows the
    /// result. Whatever the engine recorded is stored, also when it refused the command (a late
    /// answer is recorded as refused). If the write fails, the events are taken back: the shown
    /// and stored session stay as they were.
    pub async fn command<R>(
        &self,
        f: impl FnOnce(&mut Session) -> Result<R, EngineError>,
    ) -> Result<R, String> {
        if self.read_only.get_untracked() {
            return Err("This session is open in another tab; this view is read-only.".into());
        }
        let mutex = self.lock.get_value();
        let _guard = mutex.lock().await;
        let before = self.session.with_value(Session::event_count);
        let out = self
            .session
            .try_update_value(|s| f(s).map_err(|e| e.to_string()))
            .ok_or("This session was closed.")?;
        let (events, record) = self.session.with_value(|s| {
            let created_at = self.record.with_value(|r| r.created_at);
            (
                sessions::stored_events(s, before),
                sessions::record_for(&self.id.get_value(), s, created_at, now_ms()),
            )
        });
        let events = events?;
        if events.is_empty() {
            return out;
        }
        if let Err(e) = storage::commit(&record, &events).await {
            match self.session.with_value(|s| s.rewound(before)) {
                Ok(back) => {
                    self.session.set_value(back);
                    self.history_rebuilt();
                }
                Err(err) => self.fail(format!(
                    "The change could not be taken back ({err}); reload the page."
                )),
            }
            self.version.update(|v| *v += 1);
            return Err(e.to_string());
        }
        self.record.set_value(record);
        self.version.update(|v| *v += 1);
        locks::announce(&self.id.get_value());
        out
    }

    /// What only the runner knows of its calls (out, streaming, validating, waiting to retry),
    /// for core to turn into the words every panel shows ([`Session::members_now`],
    /// [`Session::timeline`], [`Session::notices`]). Tracked: re-read when any of them changes.
    /// With `chars`, a streaming call's characters so far are counted too (re-read as its
    /// text arrives, so only for small views).
    pub fn facts(&self, chars: bool) -> RunFacts {
        let mut calls = BTreeMap::new();
        // Counted in place: cloning the texts so far would copy megabytes on every redraw of a
        // huge answer.
        let count = |id: &String| {
            self.partial
                .with(|p| p.get(id).map_or(0, |t| t.chars().count() as u64))
        };
        for id in self.inflight.get() {
            let chars = if chars { count(&id) } else { 0 };
            calls.insert(id, CallActivity::Streaming { chars });
        }
        for (id, (at, attempt, error)) in self.retrying.get() {
            calls.insert(
                id,
                CallActivity::Retrying {
                    at,
                    attempt,
                    of: roundtable_core::engine::retry::MAX_ATTEMPTS,
                    error,
                },
            );
        }
        for id in self.validating.get() {
            calls.insert(id, CallActivity::Validating);
        }
        RunFacts {
            now: self.clock.get(),
            calls,
        }
    }

    /// Ticks [`Runner::clock`] once a second while a retry waits.
    fn tick(&self) {
        let runner = *self;
        set_timeout(
            move || {
                runner.clock.set(now());
                if !runner.retrying.get_untracked().is_empty() {
                    runner.tick();
                }
            },
            Duration::from_millis(1000),
        );
    }

    /// The session's view (status, actions, live states) without tracking.
    fn view_untracked(&self) -> SessionView {
        self.with_untracked(Session::view)
    }

    /// Shows an error in the banner and as a notice.
    fn fail(&self, message: String) {
        self.error.set(Some(message));
    }

    /// Called when the page opens the session as its writer: a session that was running when
    /// the page closed is paused at its last committed event.
    pub async fn settle_after_open(&self) {
        let running = self.with_untracked(Session::is_running);
        if running && !self.read_only.get_untracked() {
            match self.command(|s| s.pause(now())).await {
                Ok(()) => self.reopened_paused.set(true),
                Err(e) => self.fail(e),
            }
        }
    }

    /// Starts (or continues) a run in `mode`: starts a draft or resumes a paused session with
    /// the matching [`RunTarget`], whose boundary the engine holds (`engine::control`), then
    /// performs calls until the engine stops issuing them.
    pub async fn run(&self, mode: RunMode) {
        if self.read_only.get_untracked() {
            return;
        }
        self.error.set(None);
        self.reopened_paused.set(false);
        let target = match mode {
            RunMode::Idle => return,
            RunMode::Step => RunTarget::Step,
            RunMode::Round => RunTarget::Round,
            RunMode::ToEnd => RunTarget::End,
        };
        let view = self.view_untracked();
        let started = if view.actions.start || view.actions.resume {
            // The prices as they stand now (a price edited in Settings counts from this run).
            let prices = self.member_prices().await;
            self.command(|s| s.run(target, Some(prices), now())).await
        } else if let Some(why) = view.run_blocked {
            // The controls are off and say this; a run asked for anyway is refused the same way.
            Err(crate::pages::form::sentence(&why))
        } else if view.actions.answer {
            Err("A member asked you a question: answer it to go on.".into())
        } else if view.actions.pause {
            Ok(()) // running already, toward the boundary it was given
        } else {
            Err("This session is done.".into())
        };
        if let Err(e) = started {
            self.fail(e);
            return;
        }
        self.mode.set(mode);
        self.drive().await;
    }

    /// Pauses: no new call is made; answers already on their way are still taken in.
    pub async fn pause(&self) {
        self.mode.set(RunMode::Idle);
        let running = self.with_untracked(Session::is_running);
        if running {
            if let Err(e) = self.command(|s| s.pause(now())).await {
                self.fail(e);
            }
        }
    }

    /// Stops now: pauses and cancels the requests still out (their calls are asked again on resume).
    pub async fn stop(&self) {
        self.cancel_calls();
        self.inflight.set(BTreeSet::new());
        self.pause().await;
    }

    /// Ends the current loop and cancels the requests still out, not just their answers: no
    /// answer keeps a connection (or a provider's meter) busy after the person said stop. The
    /// channel closes first, so an aborted request's error is never shown or retried.
    fn cancel_calls(&self) {
        self.generation.update_value(|g| *g += 1);
        if let Some(tx) = self.channel.get_value() {
            tx.close_channel();
        }
        let out = self
            .aborts
            .try_update_value(|a| std::mem::take(&mut **a))
            .unwrap_or_default();
        for (_, controller) in out {
            controller.abort();
        }
        // Their answers so far go too (the generation bump keeps the tasks from writing more).
        self.partial.set(BTreeMap::new());
        self.retrying.set(BTreeMap::new());
    }

    /// Ends the rounds and asks for the presentation, then runs it.
    pub async fn wrap_up(&self) {
        match self.command(|s| s.finish(now())).await {
            Ok(()) => self.run(RunMode::ToEnd).await,
            Err(e) => self.fail(e),
        }
    }

    /// The person's answer to the open halt; the run goes on to the boundary it was given
    /// when it began (the engine keeps it: answering never runs further than that).
    pub async fn answer_halt(
        &self,
        reply: roundtable_core::engine::PersonReply,
    ) -> Result<(), String> {
        self.command(|s| s.reply(reply.clone(), now())).await?;
        if self.mode.get_untracked() == RunMode::Idle {
            self.mode.set(RunMode::ToEnd);
        }
        self.drive().await;
        Ok(())
    }

    /// The loop: perform due calls and take answers in one at a time, until the engine issues no
    /// more (it pauses by itself at the run's boundary, a question or a limit) and none is out.
    async fn drive(&self) {
        if self.driving.get_value() {
            return;
        }
        self.driving.set_value(true);
        let generation = self.generation.get_value();
        let (tx, mut rx) = mpsc::unbounded::<CallOutcome>();
        self.channel.set_value(Some(tx.clone()));
        loop {
            if self.generation.get_value() != generation {
                break;
            }
            // After a failure (a write refused, a provider error that cannot pass) the runner
            // goes Idle: it takes in what is out but asks nothing more until the next click.
            let idle = self.mode.get_untracked() == RunMode::Idle;
            // Code to run (an effect the kind asked for) comes before any call: the engine
            // issues the next call only once its output is in.
            let effect = (!idle && self.inflight.get_untracked().is_empty())
                .then(|| {
                    self.with_untracked(Session::next_effects)
                        .into_iter()
                        .next()
                })
                .flatten();
            if let Some(effect) = effect {
                self.perform_effect(effect).await;
                if self.generation.get_value() != generation {
                    break;
                }
                continue;
            }
            let due = if idle {
                Vec::new()
            } else {
                self.with_untracked(Session::next_calls)
            };
            let inflight = self.inflight.get_untracked();
            for call in due {
                if !inflight.contains(&call.id) {
                    self.spawn_call(call, 1, tx.clone());
                }
            }
            if self.inflight.get_untracked().is_empty() {
                break;
            }
            let Some(first) = rx.next().await else {
                break;
            };
            if self.generation.get_value() != generation {
                break;
            }
            // Every outcome already waiting is taken in with it: the answers of a parallel step
            // that arrive together are validated in one command and stored in one IndexedDB
            // transaction, not one each (that was the runner's main cost per parallel call).
            let mut batch = vec![first];
            while let Ok(more) = rx.try_recv() {
                batch.push(more);
            }
            let said = providers::take_notices();
            if !said.is_empty() {
                self.notes.update(|n| n.extend(said));
            }
            let mut answers: Vec<Submission> = Vec::new();
            for (call, attempt, result) in batch {
                match result {
                    Ok(Answered {
                        done,
                        read_as,
                        schema_form,
                    }) => {
                        self.validating.update(|v| {
                            v.insert(call.id.clone());
                        });
                        self.inflight.update(|v| {
                            v.remove(&call.id);
                        });
                        let usage = self.usage_of(&call, &done, schema_form).await;
                        answers.push((call, done.text, read_as, usage));
                    }
                    Err(err) => {
                        // The answers that came before it go in first, in the order they came.
                        self.submit_all(std::mem::take(&mut answers)).await;
                        // Core decides whether it is tried again and after how long
                        // (`engine::retry`), and records the retry in the log.
                        let (message, failure) = (err.to_string(), err.failure());
                        let seed = now() ^ u64::from(attempt) << 48;
                        let retry = self
                            .command(|s| s.retry_call(&call.id, &message, failure, seed, now()))
                            .await;
                        match retry {
                            Ok(Some(wait)) => {
                                self.retrying.update(|r| {
                                    r.insert(call.id.clone(), (now() + wait, attempt + 1, message));
                                });
                                self.clock.set(now());
                                self.tick();
                                let tx = tx.clone();
                                let runner = *self;
                                set_timeout(
                                    move || {
                                        if runner.generation.get_value() == generation {
                                            runner.spawn_call(call, attempt + 1, tx);
                                        }
                                    },
                                    Duration::from_millis(wait),
                                );
                                // Keep the call counted as in flight while it waits.
                            }
                            Ok(None) => {
                                self.inflight.update(|v| {
                                    v.remove(&call.id);
                                });
                                self.mode.set(RunMode::Idle);
                                // Core pauses the session with the error and where to fix it:
                                // the pause banner, the timeline and the transcript all say it
                                // from there.
                                let fix = err.fix();
                                if let Err(e) = self
                                    .command(|s| s.fail_call(&call.id, &message, fix, now()))
                                    .await
                                {
                                    self.fail(e);
                                }
                            }
                            // The call is no longer out (the work ended, the session was wrapped
                            // up): nothing waits for it.
                            Err(_) => self.inflight.update(|v| {
                                v.remove(&call.id);
                            }),
                        }
                    }
                }
            }
            self.submit_all(answers).await;
        }
        self.driving.set_value(false);
        self.channel.set_value(None);
        if self.generation.get_value() == generation
            && self.mode.get_untracked() != RunMode::Idle
            && !self.with_untracked(Session::is_running)
        {
            self.mode.set(RunMode::Idle);
        }
    }

    /// Performs one effect and hands its output in: the sandbox runs the code (`run_code`), unless
    /// the crash guard shows this run already started once and took the page down — then it is
    /// handed in as interrupted, never run again ([`sandbox`]).
    async fn perform_effect(&self, effect: roundtable_core::engine::DueEffect) {
        let id = self.id.get_value();
        let output = if effect.name != sandbox::RUN_CODE {
            serde_json::to_value(code_run::unsupported(&effect.name)).unwrap_or_default()
        } else if sandbox::started_before(&id).await.as_deref() == Some(effect.id.as_str()) {
            serde_json::to_value(code_run::interrupted()).unwrap_or_default()
        } else {
            if let Err(e) = sandbox::mark_started(&id, &effect.id).await {
                self.fail(e);
                self.mode.set(RunMode::Idle);
                return;
            }
            self.running_code.set(Some(effect.id.clone()));
            let out = sandbox::run(&effect.input).await;
            self.running_code.set(None);
            out
        };
        let done = self
            .command(|s| match s.effect_done(&effect.id, output, now()) {
                // Dropped by a wrap-up while it ran: nothing is owed any more.
                Err(EngineError::EffectNotPending(_)) => Ok(()),
                other => other,
            })
            .await;
        match done {
            Ok(()) => sandbox::clear(&id).await,
            Err(e) => {
                self.fail(e);
                self.mode.set(RunMode::Idle);
            }
        }
    }

    /// Hands answers to the engine in the order they came, in one command (one IndexedDB
    /// transaction for all their events). An answer the engine refuses does not stop the
    /// others; the first refusal is shown and the run goes idle.
    async fn submit_all(&self, answers: Vec<Submission>) {
        if answers.is_empty() {
            return;
        }
        let outcome = self
            .command(|s| {
                let mut first_error = None;
                for (call, text, read_as, usage) in &answers {
                    if let Err(e) =
                        s.submit_read_as(&call.id, text, read_as.as_deref(), *usage, now())
                    {
                        first_error.get_or_insert(e);
                    }
                }
                first_error.map_or(Ok(()), Err)
            })
            .await;
        self.validating.update(|v| {
            for (call, ..) in &answers {
                v.remove(&call.id);
            }
        });
        if let Err(e) = outcome {
            self.fail(e);
            self.mode.set(RunMode::Idle);
        }
    }

    /// The price of each member's model, the person's own else the table's (a model with
    /// neither is left out: core puts no bound on its calls), for core to bound each call's
    /// cost under the money budget before it is made.
    async fn member_prices(&self) -> roundtable_core::cost::MemberPrices {
        let members = self.with_untracked(|s| s.members());
        let provider = |m: &roundtable_core::export::MemberBrief| {
            ProviderId::parse(&m.model.provider).unwrap_or(ProviderId::Demo)
        };
        // The person's own prices of every member's model, in one read.
        let keys: Vec<String> = members
            .iter()
            .map(|m| providers::price::setting(provider(m), &m.model.model))
            .collect();
        let own = storage::get_settings(&keys).await.unwrap_or_default();
        let today = crate::util::today();
        members
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let own = own.get(i).cloned().flatten();
                let price = providers::price::effective(
                    provider(m),
                    &m.model.model,
                    own.as_deref(),
                    &today,
                );
                price.map(|p| (m.id.clone(), p))
            })
            .to_map()
    }

    /// What the provider said of a call, and nothing it did not (the engine estimates the tokens
    /// of an answer nobody counted), with its cost by core's rule
    /// ([`roundtable_core::cost::of_call`]): the provider's reported figure, else the member's
    /// model's price (the person's own, else the table's) times the tokens.
    async fn usage_of(
        &self,
        call: &ModelCall,
        done: &Completion,
        schema_form: Option<roundtable_core::engine::SchemaForm>,
    ) -> Option<Usage> {
        let model = self.with_untracked(|s| {
            s.members()
                .into_iter()
                .find(|m| m.id == call.member)
                .map(|m| m.model)
        })?;
        // The price the run was started with (no read on the way to the next call), else the
        // person's or the table's now (a session run before prices came with the run).
        let price = match self.with_untracked(|s| s.price_of(&call.member)) {
            Some(price) => Some(price),
            None => model_price(&model.provider, &model.model).await,
        };
        let counted = done.input_tokens.zip(done.output_tokens);
        let estimated = (
            call.token_estimate,
            roundtable_core::engine::estimate_tokens(&done.text),
        );
        let cost = roundtable_core::cost::of_call(done.cost_micro_usd, price, counted, estimated);
        let stopped_for_length = done.stop == providers::StopReason::Length;
        let reported = done.input_tokens.is_some() || done.output_tokens.is_some();
        (reported || stopped_for_length || cost.is_some() || schema_form.is_some()).then(|| Usage {
            schema_form,
            input_tokens: done.input_tokens.unwrap_or(0),
            output_tokens: done.output_tokens.unwrap_or(0),
            stopped_for_length,
            cost,
        })
    }

    /// Performs one call in the background and sends its result to the loop.
    fn spawn_call(&self, call: ModelCall, attempt: u32, tx: Sender) {
        self.inflight.update(|v| {
            v.insert(call.id.clone());
        });
        self.retrying.update(|r| {
            r.remove(&call.id);
        });
        let model = self.with_untracked(|s| {
            s.members()
                .into_iter()
                .find(|m| m.id == call.member)
                .map(|m| m.model)
                .unwrap_or_default()
        });
        // Keyed by a number of its own, not the call id: after Stop and Run the same call can be
        // out again while its aborted first request is still winding down.
        let token = self.next_request.get_value();
        self.next_request.set_value(token + 1);
        let controller = web_sys::AbortController::new().ok();
        let signal = controller.as_ref().map(|c| c.signal());
        if let Some(controller) = controller {
            self.aborts.update_value(|a| a.push((token, controller)));
        }
        let aborts = self.aborts;
        let (partial, generations) = (self.partial, self.generation);
        let generation = generations.get_value();
        // Only this run's requests may show text: an aborted one winding down shows nothing.
        let current = move || generations.get_value() == generation;
        leptos::task::spawn_local(async move {
            let live = Rc::new(RefCell::new(LiveText::default()));
            let on_text = |piece: &str| {
                let mut l = live.borrow_mut();
                l.text.push_str(piece);
                if std::mem::replace(&mut l.scheduled, true) {
                    return;
                }
                let (live, id) = (live.clone(), call.id.clone());
                set_timeout(
                    move || {
                        let mut l = live.borrow_mut();
                        l.scheduled = false;
                        if !l.closed && current() {
                            partial.update(|p| {
                                p.insert(id, l.text.clone());
                            });
                        }
                    },
                    Duration::from_millis(PARTIAL_EVERY_MS),
                );
            };
            let result = perform(
                &call,
                &model.provider,
                &model.model,
                signal.as_ref(),
                &on_text,
            )
            .await;
            live.borrow_mut().closed = true;
            if current() {
                partial.update(|p| {
                    p.remove(&call.id);
                });
            }
            aborts.update_value(|a| a.retain(|(t, _)| *t != token));
            let _ = tx.unbounded_send((call, attempt, result));
        });
    }
}

/// The price a call on `model` of `provider` is charged at: the person's own (Settings), else
/// the table's; `None` for a model with neither.
async fn model_price(provider: &str, model: &str) -> Option<roundtable_core::cost::Price> {
    let provider = ProviderId::parse(provider).unwrap_or(ProviderId::Demo);
    let own = storage::get_setting(&providers::price::setting(provider, model))
        .await
        .ok()
        .flatten();
    providers::price::effective(provider, model, own.as_deref(), &crate::util::today())
}

/// The answer so far of one streaming request, published to [`Runner::partial`] by at most one
/// pending timer at a time.
#[derive(Default)]
struct LiveText {
    text: String,
    /// A timer will publish `text`.
    scheduled: bool,
    /// The request ended: a timer still pending publishes nothing.
    closed: bool,
}

/// Performs one call on the member's provider, with its stored key; `on_text` is told each
/// piece of a streamed answer as it arrives.
pub async fn perform(
    call: &ModelCall,
    provider: &str,
    model: &str,
    abort: Option<&web_sys::AbortSignal>,
    on_text: &dyn Fn(&str),
) -> Result<Answered, ProviderError> {
    let id = ProviderId::parse(provider).unwrap_or(ProviderId::Demo);
    // The provider's key and base URL (Settings), and the answer's schema by name.
    let config = providers::config::load(id).await;
    // The demo model answers from core without a schema; others get the call's (the kind's own
    // for this call, else the step's by its name), narrowed to the ids this call may name (so an
    // enforcing provider cannot invent one).
    let schema = if id == ProviderId::Demo {
        None
    } else {
        plain_schema(call).await.map(|plain| {
            if call.ids.is_empty() {
                plain
            } else {
                std::rc::Rc::new(roundtable_core::provider_schema::narrow(&plain, &call.ids))
            }
        })
    };
    // The schema in the form the provider's family enforces, fitted to its published limits,
    // worked out once here (core's `provider_schema::for_family`): the adapter sends it as it
    // is, and the call's record keeps its form. One too large even once fitted goes as JSON
    // mode (the adapter is given none).
    let fitted = schema.as_deref().and_then(|plain| {
        providers::schema::family(id)
            .map(|family| roundtable_core::provider_schema::for_family(family, plain))
    });
    let enforced = fitted
        .as_ref()
        .filter(|f| f.form != roundtable_core::engine::SchemaForm::JsonMode)
        .map(|f| &f.schema);
    // A Groq model that takes no schema is held by JSON mode alone (its adapter says so).
    let schema_form = if id == ProviderId::Groq && providers::openai::groq_schema(model).is_none() {
        Some(roundtable_core::engine::SchemaForm::JsonMode)
    } else {
        fitted.as_ref().map(|f| f.form)
    };
    if id == ProviderId::Demo {
        let delay = storage::get_setting(DEMO_DELAY_SETTING)
            .await
            .ok()
            .flatten()
            .and_then(|d| d.parse::<u64>().ok())
            .unwrap_or(DEMO_DELAY_MS)
            .min(60_000);
        gloo_timers_sleep(delay).await;
    }
    let adapter = providers::adapter(id);
    adapter
        .complete(CallRequest {
            call,
            schema: enforced,
            model,
            max_tokens: call.max_answer_tokens,
            key: config.key.as_deref(),
            base_url: config.base_url.as_deref(),
            limit: config.limit,
            abort,
            on_text: Some(on_text),
        })
        .await
        .map(|done| {
            // A strict provider was sent maps as `{key, value}` pairs and "absent" as `null`: the
            // validator reads the answer in the plain shape; the log keeps what the model sent.
            let read_as = schema.as_deref().and_then(|plain| {
                roundtable_core::provider_schema::plain_answer(plain, &done.text)
            });
            Answered {
                done,
                read_as,
                schema_form,
            }
        })
}

/// The plain schema of `call`'s answer: the one the kind made for this call
/// (`ModelCall::schema`, such as a dialectic's synthesis with the person's `response_schema`),
/// else the step's committed file.
async fn plain_schema(call: &ModelCall) -> Option<std::rc::Rc<serde_json::Value>> {
    match &call.schema {
        Some(own) => Some(std::rc::Rc::new(own.clone())),
        None => providers::schema::load(call.step).await,
    }
}

/// Sleeps without blocking the page.
pub async fn gloo_timers_sleep(ms: u64) {
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    set_timeout(
        move || {
            let _ = tx.send(());
        },
        Duration::from_millis(ms),
    );
    let _ = rx.await;
}

thread_local! {
    static APP_OWNER: std::cell::RefCell<Option<Owner>> = const { std::cell::RefCell::new(None) };
    static RUNNERS: std::cell::RefCell<std::collections::HashMap<String, Runner>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Remembers the app's root owner: runners live under it, so a run goes on while the person
/// looks at another page, and no runner handle is disposed under a running loop.
pub fn set_app_owner(owner: Owner) {
    APP_OWNER.with(|o| *o.borrow_mut() = Some(owner));
}

/// The runner of a session open in this tab, if any.
pub fn existing(id: &str) -> Option<Runner> {
    RUNNERS.with(|r| r.borrow().get(id).copied())
}

/// Opens a session in this tab: loads and replays it, becomes its writer if no other tab is,
/// and pauses it if it was left running. Opening it again returns the same runner.
pub async fn open(id: &str) -> Result<Runner, String> {
    if let Some(r) = existing(id) {
        return Ok(r);
    }
    let (record, session) = sessions::load(id).await?;
    adopt(id, record, session).await
}

/// Opens a session this tab holds already (it was just imported and stored), without reading it
/// back and replaying it again.
pub async fn adopt(id: &str, record: SessionRecord, session: Session) -> Result<Runner, String> {
    if let Some(r) = existing(id) {
        return Ok(r);
    }
    let lock = locks::try_acquire(id).await;
    if let Some(r) = existing(id) {
        if let Some(lock) = lock {
            lock.release();
        }
        return Ok(r);
    }
    let read_only = lock.is_none();
    let owner = APP_OWNER.with(|o| o.borrow().clone());
    let make = || Runner::new(record, session, read_only);
    let runner = match owner {
        Some(owner) => owner.with(make),
        None => make(),
    };
    RUNNERS.with(|r| r.borrow_mut().insert(id.to_string(), runner));
    match lock {
        Some(lock) => locks::hold(id, lock),
        None => wait_for_lock(id),
    }
    runner.settle_after_open().await;
    Ok(runner)
}

/// Forgets a session's runner (it was deleted or replaced by an import): stops its loop and
/// lets another tab write it.
pub fn forget(id: &str) {
    if let Some(r) = RUNNERS.with(|r| r.borrow_mut().remove(id)) {
        r.cancel_calls();
    }
    locks::release(id);
}

/// Another tab changed a session: a read-only view here reloads it from storage.
pub async fn refresh_read_only(id: &str) {
    let Some(runner) = existing(id) else { return };
    if !runner.read_only.get_untracked() {
        return;
    }
    if let Ok((record, session)) = sessions::load(id).await {
        runner.reload_from(record, session);
    }
}

/// A read-only view waits in line for the session's lock: when the writer tab closes or gives
/// the session up, this tab becomes the writer ([`become_writer`]) without a click, so it never
/// keeps showing "running" for a session no tab runs.
fn wait_for_lock(id: &str) {
    let id = id.to_string();
    locks::queue(&id.clone(), false, None, move |lock| {
        leptos::task::spawn_local(async move { become_writer(&id, lock).await });
    });
}

/// This tab got the lock of a session it showed read-only: it reloads the stored session and,
/// if the tab that ran it left it running (it closed mid-run), pauses it at its last event.
async fn become_writer(id: &str, lock: locks::SessionLock) {
    let Some(runner) = existing(id).filter(|r| r.read_only.get_untracked()) else {
        // The session was closed here or deleted meanwhile: let another tab have it.
        lock.release();
        return;
    };
    locks::hold(id, lock);
    if let Ok((record, session)) = sessions::load(id).await {
        runner.reload_from(record, session);
    }
    // Writable before the screen says so: the session the other tab left running is paused
    // (and that pause committed) first, so the banner never goes while "running" still shows.
    runner.read_only.update_untracked(|r| *r = false);
    runner.settle_after_open().await;
    runner.read_only.set(false);
    locks::announce(id);
}

/// The writer's side of Take over: another tab asked for the session. Its calls out are
/// cancelled (they stay outstanding and are asked again by the next run), the session is
/// paused (committed after any write under way), this tab becomes read-only and gives the lock
/// up, then waits in line for it again.
pub async fn hand_over(id: &str) {
    let Some(runner) = existing(id).filter(|r| !r.read_only.get_untracked()) else {
        return;
    };
    runner.cancel_calls();
    runner.inflight.set(BTreeSet::new());
    runner.validating.set(BTreeSet::new());
    runner.mode.set(RunMode::Idle);
    if runner.with_untracked(Session::is_running) {
        if let Err(e) = runner.command(|s| s.pause(now())).await {
            runner.fail(e);
        }
    }
    runner.reopened_paused.set(false);
    runner.read_only.set(true);
    locks::release(id);
    locks::announce(id);
    wait_for_lock(id);
}

/// A read-only view asks to become the writer: directly when no tab holds the session, else by
/// asking the writer tab to hand it over ([`hand_over`]) and waiting (up to 10 s) until this tab's
/// place in line for the lock comes.
pub async fn take_over(id: &str) -> bool {
    let Some(runner) = existing(id) else {
        return false;
    };
    if !runner.read_only.get_untracked() {
        return true;
    }
    locks::ask_to_release(id);
    for _ in 0..200 {
        if !runner.read_only.get_untracked() {
            return true;
        }
        gloo_timers_sleep(50).await;
    }
    false
}
