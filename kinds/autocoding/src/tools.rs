//! Spec `002`'s autocoding tools as pure functions: `autocoding_init`, `player_prompt`,
//! `coach_prompt`, `autocoding_advance`, `autocoding_single_shot`, `autocoding_save` and
//! `autocoding_load`. Each takes the tool's arguments as Hegelion's tools take them (one JSON
//! object) and returns the tool's structured result, or `002`'s error object — a call in the
//! wrong phase, a bad argument or a bad state is an answer, never a panic. Time and ids come in
//! as arguments: `init` is handed the new session's id. [`hegelion`] is 002's branded entry
//! point (`mode: init | workflow | single_shot`), [`call`] any tool by its name.
//!
//! Every error object carries a `pointer` (an additive field) into the input the tool was given:
//! `/max_turns` for an argument, `/state/phase` for a phase error, `/state/status` for a session
//! that has ended, `/state/…` for a state that does not load through a tool, and the state's own
//! pointer (`/status`) for `autocoding_load`, whose input is the state's text. `expected` and
//! `received` say the first problem in the same terms.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::prompt::{self, AutocodingPrompt, CodeFile, TestRun, Workspace};
use super::state::{
    AutocodingState, Loaded, Phase, Status, TurnRecord, DEFAULT_APPROVAL_THRESHOLD,
    DEFAULT_MAX_TURNS, SCHEMA_VERSION,
};
use roundtable_engine::validate::Violation;

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
    /// A JSON pointer into the tool's input: where the first problem is (`""`: the whole input).
    pub pointer: String,
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
            pointer: format!("/{}", super::state::pointer_token(key)),
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
            pointer: "/state/phase".into(),
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
            pointer: "/state/status".into(),
            violations: Vec::new(),
        })
    }

    /// A state that does not load: every violation, its pointers under `at` (`/state` for a
    /// tool's argument, `""` for load's text), the first one said in the error's own fields.
    fn state(tool: &'static str, at: &str, mut violations: Vec<Violation>) -> Box<Self> {
        for v in &mut violations {
            v.path = format!("{at}{}", v.path);
        }
        let first = violations.first().cloned();
        Box::new(ToolError {
            schema_version: SCHEMA_VERSION,
            tool,
            error: format!(
                "Invalid autocoding state: {}",
                first.as_ref().map_or("", |v| v.message.as_str())
            ),
            expected: first.as_ref().map(|v| v.expected.clone().into()),
            received: first.as_ref().map(|v| v.received.clone().into()),
            hint: Some(
                "Pass the state object the previous tool returned, unchanged; each violation \
                 says where it is wrong."
                    .into(),
            ),
            pointer: first.map_or_else(|| at.to_string(), |v| v.path),
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
            pointer: String::new(),
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
        Some(v @ Value::Object(_)) => AutocodingState::from_value(v)
            .map(|loaded| loaded.state)
            .map_err(|problems| ToolError::state(tool, "/state", problems)),
        other => Err(Box::new(ToolError {
            schema_version: SCHEMA_VERSION,
            tool,
            error: "Invalid autocoding state: expected object".into(),
            expected: Some("an AutocodingState object".into()),
            received: Some(other.cloned().unwrap_or(Value::Null)),
            hint: Some("Pass the state object the previous tool returned.".into()),
            pointer: "/state".into(),
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
    Ok(AutocodingState::fresh(
        session_id.into(),
        session_name,
        requirements,
        max_turns,
        approval_threshold,
    ))
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

/// `autocoding_advance`: records the coach's review and moves to the next turn. The history
/// records the coach's own `approved`; the session is approved when the coach approves *and*
/// its score reaches the threshold (DESIGN: no score, no approval); it times out when the turns
/// run out; otherwise the player goes again.
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

/// Whether a review ends the session approved by 002's threshold rule (DESIGN): the coach
/// approved and its score is at or above `approval_threshold`.
pub fn approves(state: &AutocodingState, approved: bool, score: Option<f64>) -> bool {
    approved && score.is_some_and(|s| s >= state.approval_threshold)
}

/// The state after the coach's review of the current turn, by the threshold rule (the rule of
/// [`advance`], shared with the session that runs the loop in the app).
pub fn next_turn(
    state: AutocodingState,
    feedback: String,
    approved: bool,
    score: Option<f64>,
) -> AutocodingState {
    let ends = approves(&state, approved, score);
    record_turn(state, feedback, approved, score, ends)
}

/// The state after a review whose outcome is decided (`ends_approved`: by the threshold rule, or
/// by the person's verdict on the coach's approval). The history keeps the coach's own word; on
/// the last turn an approval wins over the timeout.
pub fn record_turn(
    mut state: AutocodingState,
    feedback: String,
    approved: bool,
    score: Option<f64>,
    ends_approved: bool,
) -> AutocodingState {
    state.turn_history.push(TurnRecord {
        turn: state.current_turn,
        feedback: feedback.clone(),
        approved,
        score,
        extra: Map::new(),
    });
    state.quality_scores.extend(score);
    state.current_turn += 1;
    state.last_coach_feedback = Some(feedback);
    (state.phase, state.status) = if ends_approved {
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
/// caller stores or downloads the text). A state load would refuse is refused, by the same rules.
pub fn save(args: &Value) -> Result<String, Box<ToolError>> {
    const TOOL: &str = "autocoding_save";
    let args = object(TOOL, args)?;
    state_arg(TOOL, args)?
        .save()
        .map_err(|problems| ToolError::state(TOOL, "/state", problems))
}

/// `autocoding_load`: a state from the text of a saved file, checked field by field and across
/// fields, with its warnings (unknown fields kept, an approval on the coach's word alone).
pub fn load(text: &str) -> Result<Loaded, Box<ToolError>> {
    AutocodingState::load(text)
        .map_err(|problems| ToolError::state("autocoding_load", "", problems))
}

/// The modes of the `hegelion` entry point, as its error lists them (sorted, as Hegelion's).
pub const HEGELION_MODES: [&str; 3] = ["init", "single_shot", "workflow"];

/// `hegelion`: 002's branded entry point. `mode: init` answers `autocoding_init`'s state,
/// `workflow` the loop as steps, `single_shot` `autocoding_single_shot`'s prompt — each with
/// `entrypoint: "hegelion"` and the mode. The arguments are `autocoding_init`'s plus `mode`;
/// without one the mode is `workflow` (002 is silent; Hegelion's default), and an unknown mode
/// is 002's error object naming the three.
pub fn hegelion(args: &Value, session_id: &str) -> Result<Value, Box<ToolError>> {
    const TOOL: &str = "hegelion";
    let obj = object(TOOL, args)?;
    let requirements = text(TOOL, obj, "requirements")?;
    let mode = match obj.get("mode") {
        None => "workflow",
        Some(Value::String(m)) if HEGELION_MODES.contains(&m.as_str()) => m.as_str(),
        other => {
            let mut e = ToolError::argument(TOOL, "mode", json!(HEGELION_MODES), other);
            e.hint = Some("Use mode: init, workflow or single_shot.".into());
            return Err(e);
        }
    };
    let max_turns = turns(TOOL, obj)?;
    let threshold = fraction(TOOL, obj, "approval_threshold")?;
    optional_text(TOOL, obj, "session_name")?;
    let mut out = match mode {
        "init" => {
            let state = init(&rename_tool(args), session_id).map_err(|e| retool(e, TOOL))?;
            serde_json::to_value(state).unwrap_or(Value::Null)
        }
        "single_shot" => single_shot(args).map_err(|e| retool(e, TOOL))?,
        _ => workflow(
            &requirements,
            max_turns,
            threshold.unwrap_or(DEFAULT_APPROVAL_THRESHOLD),
        ),
    };
    if let Some(o) = out.as_object_mut() {
        o.insert("entrypoint".into(), "hegelion".into());
        o.insert("mode".into(), mode.into());
    }
    Ok(out)
}

/// The arguments without `mode` (what `autocoding_init` takes).
fn rename_tool(args: &Value) -> Value {
    let mut args = args.clone();
    if let Some(o) = args.as_object_mut() {
        o.remove("mode");
    }
    args
}

/// An error of a tool `hegelion` called, as `hegelion`'s own.
fn retool(mut e: Box<ToolError>, tool: &'static str) -> Box<ToolError> {
    e.tool = tool;
    e
}

/// The loop as steps (`hegelion` in `workflow` mode): which tool to call when, how it ends,
/// and the first turn's player and coach prompts as they read.
pub fn workflow(requirements: &str, max_turns: u32, approval_threshold: f64) -> Value {
    let state = AutocodingState::fresh(
        "workflow".into(),
        None,
        requirements.into(),
        max_turns,
        approval_threshold,
    );
    let player = prompt::player(&state, Workspace::default());
    let coach = prompt::coach(&state, Workspace::default());
    json!({
        "schema_version": SCHEMA_VERSION,
        "workflow_type": "dialectical_autocoding",
        "requirements": requirements,
        "max_turns": max_turns,
        "approval_threshold": approval_threshold,
        "steps": [
            { "step": 1, "name": "Initialize Session", "action": "Call autocoding_init with the requirements", "returns": "AutocodingState" },
            { "step": 2, "name": "Player Turn", "action": "Call player_prompt with the state and carry out the returned prompt", "returns": "the player's files", "repeat": true },
            { "step": 3, "name": "Coach Turn", "action": "Call coach_prompt with the state player_prompt returned and carry out the returned prompt", "returns": "the coach's review: feedback, approved, compliance score", "repeat": true },
            { "step": 4, "name": "Advance State", "action": "Call autocoding_advance with the coach's feedback, approval and score", "returns": "the next AutocodingState", "repeat": true }
        ],
        "termination": {
            "approved": format!("The coach approves with a score of at least {approval_threshold}"),
            "timeout": format!("{max_turns} turns end without that approval"),
        },
        "instructions": {
            "execution_mode": "iterative",
            "description": "Alternate between the player and the coach until approved or timeout",
            "state_passing": "Pass the AutocodingState each tool returns to the next tool call, unchanged",
        },
        "sample_prompts": { "player": player, "coach": coach },
    })
}

/// Any of the tools by its name (`hegelion`, `autocoding_init`, …, `autocoding_load` with the
/// file's text as `text`): the tool's structured result, or its error object. `session_id` is the
/// id a new session gets.
pub fn call(tool: &str, args: &Value, session_id: &str) -> Result<Value, Box<ToolError>> {
    let value = |v: Result<Value, serde_json::Error>| v.unwrap_or(Value::Null);
    Ok(match tool {
        "hegelion" => hegelion(args, session_id)?,
        "autocoding_init" => value(serde_json::to_value(init(args, session_id)?)),
        "player_prompt" => value(serde_json::to_value(player_prompt(args)?)),
        "coach_prompt" => value(serde_json::to_value(coach_prompt(args)?)),
        "autocoding_advance" => value(serde_json::to_value(advance(args)?)),
        "autocoding_single_shot" => single_shot(args)?,
        "autocoding_save" => Value::String(save(args)?),
        "autocoding_load" => {
            const TOOL: &str = "autocoding_load";
            let obj = object(TOOL, args)?;
            let text = match obj.get("text") {
                Some(Value::String(t)) => t,
                other => {
                    return Err(ToolError::argument(
                        TOOL,
                        "text",
                        "the saved file's text".into(),
                        other,
                    ))
                }
            };
            value(serde_json::to_value(load(text)?))
        }
        other => {
            return Err(Box::new(ToolError {
                schema_version: SCHEMA_VERSION,
                tool: "unknown",
                error: format!("Unknown tool: {other}"),
                expected: Some(json!(TOOLS)),
                received: Some(other.into()),
                hint: None,
                pointer: String::new(),
                violations: Vec::new(),
            }))
        }
    })
}

/// Every tool [`call`] knows, 002's names.
pub const TOOLS: [&str; 8] = [
    "hegelion",
    "autocoding_init",
    "player_prompt",
    "coach_prompt",
    "autocoding_advance",
    "autocoding_single_shot",
    "autocoding_save",
    "autocoding_load",
];
