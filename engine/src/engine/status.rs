//! Where a session stands, why it waits, what its limits are, and the engine's errors.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::control::Until;
use super::kind::KindState;
use super::kind_value::{KindValue, StepId};
use crate::validate::Violation;

/// Limits of a session; reaching one pauses it with a reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// Rounds before the session pauses (default 8).
    pub max_rounds: u32,
    /// Tokens (reported or estimated, prompts and answers) before it pauses; `None`: no budget.
    pub token_budget: Option<u64>,
    /// Money, in micro-dollars, the calls may cost (their known costs) before it pauses;
    /// `None`: no budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub money_budget: Option<u64>,
    /// Repair prompts one member may get per step before the session pauses (default 2).
    pub max_repairs: u32,
    /// `request_context` answers one member may give per step (default 2).
    pub max_context_requests: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_rounds: 8,
            token_budget: None,
            money_budget: None,
            max_repairs: 2,
            max_context_requests: 2,
        }
    }
}

impl Settings {
    /// Why these limits cannot be used, if they cannot.
    pub fn problem(&self) -> Option<&'static str> {
        (self.max_rounds == 0).then_some("the round limit must be at least 1")
    }
}

/// Every violation found in one answer, and the warnings (recoveries, unknown fields). The
/// engine's protocol-neutral form of a validation report.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Findings {
    /// The wire name of the step the answer was for.
    #[serde(default)]
    pub step: String,
    /// What makes the answer unusable.
    pub errors: Vec<Violation>,
    /// What was repaired or ignored on the way in.
    #[serde(default)]
    pub warnings: Vec<Violation>,
}

impl<S: std::fmt::Display> From<crate::validate::Report<S>> for Findings {
    fn from(report: crate::validate::Report<S>) -> Self {
        Findings {
            step: report.step.to_string(),
            errors: report.errors,
            warnings: report.warnings,
        }
    }
}

/// Why the session is paused. Read through [`super::wire`] (the kind's own reason by the kind's
/// reader).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum PauseReason {
    /// The person paused it.
    Person,
    /// A member kept answering invalidly; the last report says why.
    InvalidAnswer {
        /// Member id.
        member: String,
        /// Step.
        step: StepId,
        /// The last report.
        report: Findings,
    },
    /// The round limit is reached; raise it (settings edit) or finish.
    RoundLimit {
        /// The limit.
        max_rounds: u32,
    },
    /// What is left of the token budget cannot hold the next call's prompt and an answer of
    /// [`MIN_ANSWER_TOKENS`](super::MIN_ANSWER_TOKENS) (see [`super::Core::answer_room`]): the
    /// engine paused before making it. Raise the budget (settings edit) or finish.
    TokenBudget {
        /// Tokens counted so far.
        used: u64,
        /// The budget.
        budget: u64,
    },
    /// The next call could take the spend past the money budget (or, for a call whose model has
    /// no known price, the budget is spent): the engine paused before making it. Raise the
    /// budget (settings edit) or finish.
    MoneyBudget {
        /// Micro-dollars the calls cost so far (those with a known cost).
        used: u64,
        /// The budget, micro-dollars.
        budget: u64,
        /// The most the calls still out when it paused could cost (micro-dollars; 0: none).
        #[serde(default, skip_serializing_if = "is_zero")]
        out: u64,
        /// The call it did not make and the most that call could cost; none when the budget
        /// was simply spent (a call with no known price, or a log from before the bound).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next: Option<CallBound<StepId>>,
    },
    /// A provider call failed in a way waiting does not mend (a refused key, an unknown model,
    /// a used-up quota, retries spent): the runner said so with [`super::Engine::fail_call`].
    CallFailed {
        /// Member id.
        member: String,
        /// The call that failed (asked again when the session resumes).
        call_id: String,
        /// Step.
        step: StepId,
        /// What the provider said, in words a person can act on.
        error: String,
        /// Where it can be fixed.
        fix: Fix,
    },
    /// The run reached the boundary the person gave it (One step, One round).
    Reached {
        /// The boundary.
        until: Until,
    },
    /// A fork was just made: it waits for the person to run it from where it was forked.
    Forked,
    /// The protocol cannot go on until the person fixes something (its own `reason` tag).
    #[serde(rename = "(untagged)")]
    Blocked(KindValue),
}
crate::tagged::tagged!(write [] PauseReason, tag = "reason");

/// A call the engine did not make because of the money budget: whose it was, at which step, and
/// the most it could have cost (its estimated prompt and the longest answer it may be given, at
/// its model's price).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallBound<S> {
    /// Member id.
    pub member: String,
    /// The step.
    pub step: S,
    /// Micro-dollars.
    pub up_to: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Where the person can fix what stopped a session or a call: every message the shell shows
/// links there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum Fix {
    /// The Settings page (a provider's key, base URL or models).
    Settings,
    /// The session's limits (the Budget panel on the session page): `limit` names the one to
    /// raise.
    Limits {
        /// Which limit stopped the session (absent in files from before it was named).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<LimitKind>,
    },
    /// The transcript of a call (what the model answered and what was wrong).
    Transcript {
        /// The call.
        call_id: String,
    },
    /// The open question.
    Question,
    /// Nothing to fix: resume when ready.
    Resume,
    /// The kind's own setup (what its block names, e.g. a missing document to write first).
    Setup,
}
crate::tagged::tagged!([] Fix, tag = "place");

/// One of the session's limits, as [`Fix::Limits`] names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitKind {
    /// The round limit.
    Rounds,
    /// The token budget.
    Tokens,
    /// The money budget.
    Money,
}

/// A message's text with its closing full stop removed, so it can be followed by more words
/// without a doubled stop ("…provided.. Check").
pub fn clause(text: &str) -> &str {
    text.trim_end().trim_end_matches(['.', ' '])
}

impl PauseReason {
    /// The reason in plain words, for the status bar. A protocol's own reasons are worded by
    /// [`super::Protocol::still_blocked`].
    pub fn describe(&self, state: &dyn KindState) -> String {
        match self {
            PauseReason::Person => "paused by you".into(),
            PauseReason::InvalidAnswer {
                member,
                step,
                report,
            } => format!(
                "{} used up its repairs at {}; its last answer still had {}",
                state.member_name(member),
                (state.info().step_title)(*step),
                crate::text::count(report.errors.len(), "problem", "problems")
            ),
            PauseReason::RoundLimit { max_rounds } => format!(
                "the {} limit ({max_rounds}) is reached: raise it or wrap up",
                state.info().round_word.to_lowercase()
            ),
            PauseReason::TokenBudget { used, budget } => budget_words(state, *used, *budget, false),
            PauseReason::MoneyBudget {
                used,
                budget,
                out,
                next,
            } => money_words(state, *used, *budget, *out, next.as_ref(), false),
            PauseReason::CallFailed {
                member,
                call_id,
                step,
                error,
                ..
            } => {
                // The call as the transcript titles it ("Ana's turn in Option generation").
                let round = state
                    .core()
                    .call(call_id)
                    .map_or(state.core().round, |c| c.call.round);
                let call = state.call_title(member, *step, round);
                format!(
                    "{call} failed: {}. Fix the cause, then resume",
                    clause(error)
                )
            }
            PauseReason::Reached { until } => until.describe(state.info().round_word),
            PauseReason::Forked => "a fork, ready to run live from where it was forked".into(),
            PauseReason::Blocked(block) => state
                .still_blocked(block)
                .unwrap_or_else(|| "waiting for you to resume".into()),
        }
    }

    /// Where what paused the session can be fixed.
    pub fn fix(&self, state: &dyn KindState) -> Fix {
        match self {
            PauseReason::Person => Fix::Resume,
            PauseReason::InvalidAnswer { member, .. } => state
                .core()
                .calls
                .iter()
                .rev()
                .find(|c| &c.call.member == member)
                .map_or(Fix::Resume, |c| Fix::Transcript {
                    call_id: c.call.id.clone(),
                }),
            PauseReason::RoundLimit { .. } => Fix::Limits {
                limit: Some(LimitKind::Rounds),
            },
            PauseReason::TokenBudget { .. } => Fix::Limits {
                limit: Some(LimitKind::Tokens),
            },
            PauseReason::MoneyBudget { .. } => Fix::Limits {
                limit: Some(LimitKind::Money),
            },
            PauseReason::CallFailed { fix, .. } => fix.clone(),
            // The run stopped where the person asked: running on is the next move.
            PauseReason::Reached { .. } | PauseReason::Forked => Fix::Resume,
            PauseReason::Blocked(_) => Fix::Setup,
        }
    }
}

/// Why the money budget stops the session, naming the control that lifts it: the call it did
/// not make and the most that call could cost, or (no bound known) that the budget is spent.
/// `still`: the words of a resume refused for the same reason.
pub fn money_words(
    state: &dyn KindState,
    used: u64,
    budget: u64,
    out: u64,
    next: Option<&CallBound<StepId>>,
    still: bool,
) -> String {
    // The held call is of the current round: named as the transcript will title it.
    let next = next.map(|n| {
        let held = state.call_title(&n.member, n.step, state.core().round);
        (held, n.up_to)
    });
    money_sentence(used, budget, out, next, still)
}

/// [`money_words`] from plain figures (`next`: the held call's title, the most it could cost).
fn money_sentence(
    used: u64,
    budget: u64,
    out: u64,
    next: Option<(String, u64)>,
    still: bool,
) -> String {
    use crate::cost::usd;
    let lift = "raise it under Budget on this page, then run on — or wrap up";
    let Some((held, up_to)) = next else {
        let still = if still { "still " } else { "" };
        return format!(
            "the money budget is {still}spent ({} of {}): {lift}",
            usd(used),
            usd(budget)
        );
    };
    let out = if out > 0 {
        format!(", up to {} more on calls still out", usd(out))
    } else {
        String::new()
    };
    let up_to = usd(up_to);
    let call = if still {
        format!("{held} could still cost up to {up_to}")
    } else {
        format!("paused before {held}: it could cost up to {up_to}")
    };
    format!(
        "{call}, which would go past the money budget ({} of {} spent{out}): {lift}",
        usd(used),
        usd(budget),
    )
}

/// Why the token budget stops the session, naming the control that lifts it: the call it did not
/// make because what is left of the budget cannot hold its prompt and an answer of
/// [`MIN_ANSWER_TOKENS`](super::MIN_ANSWER_TOKENS) (see [`super::Core::answer_room`]), or, with no
/// such call (a log from before the bound), that the budget is spent. Read from the state as it
/// stands (`used`, `budget`: the figures of the pause, used when no call waits). `still`: the
/// words of a resume refused for the same reason.
pub fn budget_words(state: &dyn KindState, used: u64, budget: u64, still: bool) -> String {
    let core = state.core();
    let held = core.slots.iter().find(|x| !x.done && x.call_id.is_none());
    let (Some(held), Some(step), Some(left)) = (held, core.step, core.tokens_left()) else {
        return token_sentence(used, budget, None, still);
    };
    // The held call as the transcript will title it ("Ana's writing, round 2").
    let call = state.call_title(&held.member, step, core.round);
    let held = HeldCall {
        call: &call,
        left,
        budget: core.settings.token_budget.unwrap_or(budget),
        used: core.tokens_used,
        out: core.tokens_out(),
        others: core.waiting_for_a_call() - 1,
    };
    token_sentence(used, budget, Some(held), still)
}

/// The call the token budget holds back, in the figures [`budget_words`] words.
struct HeldCall<'a> {
    call: &'a str,
    left: u64,
    budget: u64,
    used: u64,
    out: u64,
    others: u64,
}

/// [`budget_words`] from plain figures.
fn token_sentence(used: u64, budget: u64, held: Option<HeldCall<'_>>, still: bool) -> String {
    let lift = "raise it under Budget on this page, then run on — or wrap up";
    let still = if still { "still " } else { "" };
    let Some(h) = held else {
        return format!(
            "the token budget is {still}spent ({} of {} tokens): {lift}",
            grouped(used),
            grouped(budget)
        );
    };
    let out = if h.out > 0 {
        format!(", up to {} more on calls still out", grouped(h.out))
    } else {
        String::new()
    };
    let shared = match h.others {
        0 => String::new(),
        1 => ", shared with the other call this step still needs".into(),
        n => format!(", shared with the {n} other calls this step still needs"),
    };
    format!(
        "the call for {} {still}does not fit in the token budget: only {} of {} tokens {} left ({} used{out}), too few for its prompt and an answer of at least {}{shared}: {lift}",
        h.call,
        grouped(h.left),
        grouped(h.budget),
        if h.left == 1 { "is" } else { "are" },
        grouped(h.used),
        grouped(u64::from(super::MIN_ANSWER_TOKENS)),
    )
}

/// A count with its thousands grouped by commas, as people write it ("9,515").
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Where a session stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum Status {
    /// Created, not started.
    Draft,
    /// Calls are being made.
    Running,
    /// Stopped until the person resumes.
    Paused {
        /// Why.
        reason: PauseReason,
    },
    /// A member put a question or an approval to the person (the oldest open one; see
    /// [`super::Core::open_asks`] for all).
    AwaitingPerson {
        /// Who asked.
        asked_by: String,
        /// What waits for the person.
        halt: super::PersonAsk,
    },
    /// Over.
    Done,
}
crate::tagged::tagged!(write [] Status, tag = "status");

impl Status {
    /// The one-word name of a status (`awaiting_person`).
    pub fn word(&self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::Running => "running",
            Status::Paused { .. } => "paused",
            Status::AwaitingPerson { .. } => "awaiting_person",
            Status::Done => "done",
        }
    }
}

/// Why an event could not be folded: the log is corrupt or was not written by this engine, or a
/// protocol refused a change.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FoldError {
    /// Sequence numbers must be 0, 1, 2, … without gaps.
    #[error("event {found} found where event {expected} was expected")]
    Sequence {
        /// Expected seq.
        expected: u64,
        /// Found seq.
        found: u64,
    },
    /// The first event must create the session, and only the first.
    #[error("the log must start with exactly one `created` event")]
    NotCreated,
    /// An event names a call the session never issued or that is not outstanding.
    #[error("event refers to call {0}, which is not outstanding")]
    Call(String),
    /// An event names an effect the session never issued, or one whose output is in already.
    #[error("event refers to effect {0}, which is not pending")]
    Effect(String),
    /// An event names a member that has no place in the current step.
    #[error("member {0} has nothing to do at the current step")]
    Slot(String),
    /// A change the protocol's state refused, in its own words; `pointer` says which part of the
    /// answer it was, so the repair prompt can point at it.
    #[error("{reason}")]
    Refused {
        /// The JSON pointer of the refused part in the answer, if the protocol knows it.
        pointer: String,
        /// Why.
        reason: String,
        /// What the state accepts instead (the repair's `expected`).
        expected: String,
        /// What the refused part asked for (the repair's `received`).
        received: String,
    },
    /// Anything else out of order.
    #[error("{0}")]
    Unexpected(String),
}

/// Why the engine refused a command. Nothing was applied (an answer to a call that is not
/// outstanding is still recorded, as [`super::EventKind::AnswerRefused`]).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EngineError {
    /// The config is not usable.
    #[error("the session cannot be created: {0}")]
    Config(String),
    /// The answer's call id is unknown, superseded or already answered.
    #[error("answer refused for {call_id}: {reason}")]
    CallNotOutstanding {
        /// The id.
        call_id: String,
        /// Why.
        reason: String,
    },
    /// An effect's output for an id that is not pending (unknown, done, or dropped at a wrap-up).
    #[error("effect output refused for {0}: it is not pending")]
    EffectNotPending(String),
    /// The command does not fit the session's status (e.g. answering a halt nobody raised).
    #[error("cannot {action} while the session is {status}")]
    WrongStatus {
        /// What was attempted.
        action: &'static str,
        /// The status word.
        status: &'static str,
    },
    /// The person's reply does not fit what was asked.
    #[error("reply refused: {0}")]
    Reply(&'static str),
    /// Resume (or wrap-up) would hit the same limit again.
    #[error("cannot resume: {0}")]
    StillBlocked(String),
    /// A person's edit names something that does not exist, or breaks a rule.
    #[error("edit refused: {0}")]
    Edit(String),
    /// A bug: an event the engine itself produced did not fold.
    #[error("internal error: {0}")]
    Internal(#[from] FoldError),
}

/// What one submitted answer did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The output was valid and is applied.
    Applied,
    /// Context was served; the same step is asked again.
    ContextServed,
    /// The answer was invalid; nothing applied. `paused` is true when repairs are used up.
    Invalid {
        /// Every violation.
        report: Findings,
        /// The session paused instead of asking again.
        paused: bool,
    },
    /// The answer was invalid and the protocol's rule decided in its place.
    FellBack {
        /// Every violation.
        report: Findings,
    },
    /// A question for the person; the session waits for the answer.
    AwaitingPerson,
    /// A member ended the work; the closing step follows.
    RoundsEnded,
}
