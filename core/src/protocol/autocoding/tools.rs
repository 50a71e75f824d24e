//! Spec `002`'s autocoding tools as pure functions: `autocoding_init`, `player_prompt`,
//! `coach_prompt`, `autocoding_advance`, `autocoding_single_shot`, `autocoding_save` and
//! `autocoding_load`. Each takes the tool's arguments as Hegelion's tools take them (one JSON
//! object) and returns the tool's structured result, or `002`'s error object — a call in the
//! wrong phase, a bad argument or a bad state is an answer, never a panic. Time and ids come in
//! as arguments: `init` is handed the new session's id.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::prompt::{self, AutocodingPrompt, CodeFile, TestRun, Workspace};
use super::state::{
    AutocodingState, Phase, Status, TurnRecord, DEFAULT_APPROVAL_THRESHOLD, DEFAULT_MAX_TURNS,
    SCHEMA_VERSION,
};
use crate::validate::Violation;

/// Spec `002`'s error object: which tool, what went wrong, and (when an input was checked) what
/// was expected, what was received and how to fix it. `violations` (an additive field) lists
/// every problem of a state that does not load.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolError {
    /// Always 1.
    pub schema_version: u32,
    /// The tool that refused (`player_prompt`).
    pub tool: &'static str,
    /// What went wrong (`Invalid phase: coach`).
    pub error: String,
    /// What the tool wanted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// What it was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub received: Option<Value>,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Every problem of a state that does not load.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
}

impl ToolError {
    fn argument(
        tool: &'static str,
        key: &str,
        expected: Value,
        received: Option<&Value>,
    ) -> Box<Self> {
        Box::new(ToolError {
            schema_version: SCHEMA_VERSION,
            tool,
            error: format!("Invalid argument: {key}"),
            expected: Some(expected),
            received: Some(received.cloned().unwrap_or(Value::Null)),
            hint: None,
            violations: Vec::new(),
        })
    }

    fn phase(tool: &'static str, expected: Phase, received: Phase, hint: &str) -> Box<Self> {
        Box::new(ToolError {
            schema_version: SCHEMA_VERSION,
            tool,
            error: format!("Invalid phase: {}", received.word()),
            expected: Some(expected.word().into()),
            received: Some(received.word().into()),
            hint: Some(hint.into()),
            violations: Vec::new(),
        })
    }

    fn ended(tool: &'static str, status: Status) -> Box<Self> {
        Box::new(ToolError {
            schema_version: SCHEMA_VERSION,
            tool,
            error: format!("Session is not active: {}", status.word()),
            expected: Some("active".into()),
            received: Some(status.word().into()),
            hint: Some("The session has ended; start a new one with autocoding_init.".into()),
            violations: Vec::new(),
        })
    }

    fn state(tool: &'static str, violations: Vec<Violation>) -> Box<Self> {
        let first = violations
            .first()
            .map(|v| v.message.clone())
            .unwrap_or_default();
        Box::new(ToolError {
            schema_version: SCHEMA_VERSION,
            tool,
            error: format!("Invalid autocoding state: {first}"),
            expected: None,
            received: None,
            hint: Some(
                "Pass the state object the previous tool returned, unchanged; each violation \
                 says where it is wrong."
                    .into(),
            ),
            violations,
        })
    }
}

/// A turn's prompt with the phase it belongs to, the phase after it, and the state to pass on
/// (`player_prompt` and `coach_prompt`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhasePrompt {
    /// Always 1.
    pub schema_version: u32,
    /// The prompt.
    #[serde(flatten)]
    pub prompt: AutocodingPrompt,
    /// The phase the prompt is for.
    pub current_phase: Phase,
    /// The phase the returned state is in.
    pub next_phase: Phase,
    /// The state to pass to the next tool.
    pub state: AutocodingState,
}

type Args = Map<String, Value>;

fn object<'a>(tool: &'static str, args: &'a Value) -> Result<&'a Args, Box<ToolError>> {
    args.as_object().ok_or_else(|| {
        Box::new(ToolError {
            schema_version: SCHEMA_VERSION,
            tool,
            error: "Invalid arguments: expected object".into(),
            expected: Some("object".into()),
            received: Some(args.clone()),
            hint: None,
            violations: Vec::new(),
        })
    })
}

fn text(tool: &'static str, args: &Args, key: &str) -> Result<String, Box<ToolError>> {
    match args.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        other => Err(ToolError::argument(
            tool,
            key,
            "non-empty string".into(),
            other,
        )),
    }
}

fn optional_text(
    tool: &'static str,
    args: &Args,
    key: &str,
) -> Result<Option<String>, Box<ToolError>> {
    match args.get(key) {
        None => Ok(None),
        Some(_) => text(tool, args, key).map(Some),
    }
}

fn turns(tool: &'static str, args: &Args) -> Result<u32, Box<ToolError>> {
    match args.get("max_turns") {
        None => Ok(DEFAULT_MAX_TURNS),
        Some(v) => match v.as_u64() {
            Some(0) => Err(ToolError::argument(
                tool,
                "max_turns",
                ">=1".into(),
                Some(v),
            )),
            Some(n) => u32::try_from(n)
                .map_err(|_| ToolError::argument(tool, "max_turns", "integer".into(), Some(v))),
            None if v.as_i64().is_some() => Err(ToolError::argument(
                tool,
                "max_turns",
                ">=1".into(),
                Some(v),
            )),
            None => Err(ToolError::argument(
                tool,
                "max_turns",
                "integer".into(),
                Some(v),
            )),
        },
    }
}

fn fraction(tool: &'static str, args: &Args, key: &str) -> Result<Option<f64>, Box<ToolError>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(x) if (0.0..=1.0).contains(&x) => Ok(Some(x)),
            Some(_) => Err(ToolError::argument(tool, key, "0.0..1.0".into(), Some(v))),
            None => Err(ToolError::argument(tool, key, "number".into(), Some(v))),
        },
    }
}

fn state_arg(tool: &'static str, args: &Args) -> Result<AutocodingState, Box<ToolError>> {
    match args.get("state") {
        Some(v @ Value::Object(_)) => {
            AutocodingState::from_value(v).map_err(|problems| ToolError::state(tool, problems))
        }
        _ => Err(Box::new(ToolError {
            schema_version: SCHEMA_VERSION,
            tool,
            error: "Invalid autocoding state: expected object".into(),
            expected: None,
            received: None,
            hint: Some("Pass the state object the previous tool returned.".into()),
            violations: Vec::new(),
        })),
    }
}

/// The state of `args`, if it is in `phase` and still active; else the tool's error (`hint` says
/// which call hands over a state in that phase).
fn state_in(
    tool: &'static str,
    args: &Args,
    phase: Phase,
    hint: &str,
) -> Result<AutocodingState, Box<ToolError>> {
    let state = state_arg(tool, args)?;
    if state.phase != phase {
        return Err(ToolError::phase(tool, phase, state.phase, hint));
    }
    if state.status != Status::Active {
        return Err(ToolError::ended(tool, state.status));
    }
    Ok(state)
}

/// The optional `files` and `test_run` a turn's prompt shows (additive arguments: Hegelion's
/// agents read the workspace themselves; a model behind an API is shown it).
fn workspace(
    tool: &'static str,
    args: &Args,
) -> Result<(Vec<CodeFile>, Option<TestRun>), Box<ToolError>> {
    let files = match args.get("files") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => serde_json::from_value(v.clone())
            .map_err(|_| ToolError::argument(tool, "files", "[{path, content}]".into(), Some(v)))?,
    };
    let run = match args.get("test_run") {
        None | Some(Value::Null) => None,
        Some(v) => Some(serde_json::from_value(v.clone()).map_err(|_| {
            ToolError::argument(tool, "test_run", "{status, tests, errors}".into(), Some(v))
        })?),
    };
    Ok((files, run))
}

/// `autocoding_init`: a new session, in the player phase, with the id the caller made.
pub fn init(args: &Value, session_id: &str) -> Result<AutocodingState, Box<ToolError>> {
    const TOOL: &str = "autocoding_init";
    let args = object(TOOL, args)?;
    let requirements = text(TOOL, args, "requirements")?;
    let max_turns = turns(TOOL, args)?;
    let approval_threshold =
        fraction(TOOL, args, "approval_threshold")?.unwrap_or(DEFAULT_APPROVAL_THRESHOLD);
    let session_name = optional_text(TOOL, args, "session_name")?;
    Ok(AutocodingState {
        schema_version: SCHEMA_VERSION,
        session_id: session_id.into(),
        session_name,
        requirements,
        current_turn: 0,
        max_turns,
        phase: Phase::Player,
        status: Status::Active,
        turn_history: Vec::new(),
        last_coach_feedback: None,
        quality_scores: Vec::new(),
        approval_threshold,
    })
}

/// `player_prompt`: the player's prompt, and the state moved on to the coach.
pub fn player_prompt(args: &Value) -> Result<PhasePrompt, Box<ToolError>> {
    const TOOL: &str = "player_prompt";
    let args = object(TOOL, args)?;
    let state = state_in(
        TOOL,
        args,
        Phase::Player,
        "If you just called autocoding_init or autocoding_advance, pass that returned state \
         into player_prompt.",
    )?;
    let (files, run) = workspace(TOOL, args)?;
    let prompt = prompt::player(
        &state,
        Workspace {
            files: &files,
            run: run.as_ref(),
        },
    );
    let next = AutocodingState {
        phase: Phase::Coach,
        ..state
    };
    Ok(PhasePrompt {
        schema_version: SCHEMA_VERSION,
        prompt,
        current_phase: Phase::Player,
        next_phase: Phase::Coach,
        state: next,
    })
}

/// `coach_prompt`: the coach's prompt; the state stays in the coach phase for
/// `autocoding_advance`.
pub fn coach_prompt(args: &Value) -> Result<PhasePrompt, Box<ToolError>> {
    const TOOL: &str = "coach_prompt";
    let args = object(TOOL, args)?;
    let state = state_in(
        TOOL,
        args,
        Phase::Coach,
        "Call player_prompt first; then pass the returned state (state.phase should be \
         'coach') into coach_prompt.",
    )?;
    let (files, run) = workspace(TOOL, args)?;
    let prompt = prompt::coach(
        &state,
        Workspace {
            files: &files,
            run: run.as_ref(),
        },
    );
    Ok(PhasePrompt {
        schema_version: SCHEMA_VERSION,
        prompt,
        current_phase: Phase::Coach,
        next_phase: Phase::Coach,
        state,
    })
}

/// `autocoding_advance`: records the coach's review and moves to the next turn. The session is
/// approved when the coach approves and its score (when it gave one) reaches the threshold; it
/// times out when the turns run out; otherwise the player goes again.
pub fn advance(args: &Value) -> Result<AutocodingState, Box<ToolError>> {
    const TOOL: &str = "autocoding_advance";
    let args = object(TOOL, args)?;
    let feedback = text(TOOL, args, "coach_feedback")?;
    let approved = match args.get("approved") {
        Some(Value::Bool(b)) => *b,
        other => {
            return Err(ToolError::argument(
                TOOL,
                "approved",
                "boolean".into(),
                other,
            ))
        }
    };
    let score = fraction(TOOL, args, "compliance_score")?;
    let state = state_in(
        TOOL,
        args,
        Phase::Coach,
        "Call coach_prompt first and pass its returned state into autocoding_advance.",
    )?;
    Ok(next_turn(state, feedback, approved, score))
}

/// The state after the coach's review of the current turn (the rule of [`advance`], shared with
/// the session that runs the loop in the app).
pub fn next_turn(
    mut state: AutocodingState,
    feedback: String,
    approved: bool,
    score: Option<f64>,
) -> AutocodingState {
    let approved = approved && score.is_none_or(|s| s >= state.approval_threshold);
    state.turn_history.push(TurnRecord {
        turn: state.current_turn,
        feedback: feedback.clone(),
        approved,
        score,
    });
    state.quality_scores.extend(score);
    state.current_turn += 1;
    state.last_coach_feedback = Some(feedback);
    (state.phase, state.status) = if approved {
        (Phase::Approved, Status::Approved)
    } else if state.current_turn >= state.max_turns {
        (Phase::Timeout, Status::Timeout)
    } else {
        (Phase::Player, Status::Active)
    };
    state
}

/// `autocoding_single_shot`: one prompt that plays both roles.
pub fn single_shot(args: &Value) -> Result<Value, Box<ToolError>> {
    const TOOL: &str = "autocoding_single_shot";
    let args = object(TOOL, args)?;
    let requirements = text(TOOL, args, "requirements")?;
    let max_turns = turns(TOOL, args)?;
    let prompt = prompt::single_shot(&requirements, max_turns);
    let mut out = json!({ "schema_version": SCHEMA_VERSION });
    if let (Some(out), Value::Object(p)) = (out.as_object_mut(), json!(prompt)) {
        out.extend(p);
        out.insert("requirements".into(), requirements.into());
        out.insert("max_turns".into(), max_turns.into());
    }
    Ok(out)
}

/// `autocoding_save`: the file text that [`load`] reads back (a page has no file path: the
/// caller stores or downloads the text).
pub fn save(args: &Value) -> Result<String, Box<ToolError>> {
    const TOOL: &str = "autocoding_save";
    let args = object(TOOL, args)?;
    Ok(state_arg(TOOL, args)?.save())
}

/// `autocoding_load`: a state from the text of a saved file, checked field by field.
pub fn load(text: &str) -> Result<AutocodingState, Box<ToolError>> {
    AutocodingState::load(text).map_err(|problems| ToolError::state("autocoding_load", problems))
}
