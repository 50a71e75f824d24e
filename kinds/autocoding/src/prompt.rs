//! The autocoding prompts (spec `002`'s `AutocodingPrompt`): the player's, the coach's and the
//! single-shot one. Each turn starts fresh (Block's adversarial cooperation): the player sees the
//! requirements, the files as they stand, the last test run and the coach's last feedback — never
//! a growing chat — and the coach sees the requirements, the files and the test run, never the
//! player's account of its work.

use serde::{Deserialize, Serialize};

use super::requirements;
use super::state::AutocodingState;

/// One prompt as spec `002` gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutocodingPrompt {
    /// `player`, `coach` or `single_shot`.
    pub phase: String,
    /// The whole prompt text.
    pub prompt: String,
    /// The prompt's task in one line.
    pub instructions: String,
    /// What the answer must look like.
    pub expected_format: String,
    /// Whether the requirements are in the prompt (always, here).
    pub requirements_embedded: bool,
}

pub use roundtable_engine::code_run::{runs, CodeFile, FileError, RunStatus, TestResult, TestRun};

/// The code and its last run, as a turn's prompt shows them (both absent for a prompt asked for
/// by state alone).
#[derive(Debug, Clone, Copy, Default)]
pub struct Workspace<'a> {
    /// The files as they stand.
    pub files: &'a [CodeFile],
    /// The last run of those files, if they were run.
    pub run: Option<&'a TestRun>,
}

const PLAYER_FORMAT: &str = "A JSON object: {\"files\": [{\"path\": \"lib/sum.js\", \"content\": \"module.exports = (a, b) => a + b;\\n\"}], \"delete\": []}. Each file is written whole; paths are relative, use `/`, never `..`, and name each file once. `delete` lists files to remove.";

const CODE_RULES: &str = "\
- Write JavaScript as CommonJS modules: `module.exports = …` and `require('./relative/path.js')`. \
It runs in a sandbox with no network, no DOM, no storage and a few seconds of time.
- Put the tests in files whose names end in `.test.js`. A test is `test('name', () => { … })` \
(it may be `async`); check with `assert(value, message)`, `assert.equal(actual, expected)`, \
`assert.deepEqual(actual, expected)` and `assert.throws(fn)`. Give each requirement a test.
- Files in other languages are shown to the coach but not run.";

/// The player's prompt for the turn `state` is at.
pub fn player(state: &AutocodingState, work: Workspace<'_>) -> AutocodingPrompt {
    let turn = state.current_turn + 1;
    let mut p = format!(
        "You are the player in an autocoding session: you write the code. A coach, who does not \
         see this conversation, then checks it against the requirements.\n\n\
         ## Requirements (the source of truth)\n{}\n\n\
         ## Turn {turn} of {}{}\n",
        requirements::render(&state.requirements),
        state.max_turns,
        left(state.max_turns - turn.min(state.max_turns)),
    );
    match state.last_coach_feedback.as_deref() {
        Some(feedback) if !feedback.trim().is_empty() => p.push_str(&format!(
            "\n## The coach's feedback on your last turn\n{}\n\nFix every point the coach found \
             unmet before anything else.\n",
            feedback.trim()
        )),
        _ => p.push_str("\nThis is the first turn: start from the requirements.\n"),
    }
    p.push_str(&files_section(work.files, "The files as they stand"));
    if let Some(run) = work.run {
        p.push_str(&run_section(run));
    }
    p.push_str(&format!(
        "\n## What to do\n{CODE_RULES}\n- Do not say the work is done: the coach decides from \
         the code and its test run alone.\n\n## Your answer\n{PLAYER_FORMAT}\n"
    ));
    AutocodingPrompt {
        phase: "player".into(),
        prompt: p,
        instructions: "Write or revise the code and its tests to meet the requirements; do not \
                       judge your own work."
            .into(),
        expected_format: PLAYER_FORMAT.into(),
        requirements_embedded: true,
    }
}

/// The coach's prompt for the turn `state` is at.
pub fn coach(state: &AutocodingState, work: Workspace<'_>) -> AutocodingPrompt {
    let turn = state.current_turn + 1;
    let mut p = format!(
        "You are the coach in an autocoding session: you check the player's code against the \
         requirements. Judge only what the code and its test run show; anything the player claims \
         counts for nothing.\n\n\
         ## Requirements (the source of truth)\n{}\n\n\
         ## Turn {turn} of {}{}\n",
        requirements::render(&state.requirements),
        state.max_turns,
        left(state.max_turns - turn.min(state.max_turns)),
    );
    p.push_str(&files_section(work.files, "The player's files"));
    match work.run {
        Some(run) => p.push_str(&run_section(run)),
        None if work.files.iter().any(|f| runs(&f.path)) => {
            p.push_str("\n## The test run\nThe code was not run: read it to judge it.\n")
        }
        None => {}
    }
    if work.files.iter().any(|f| !runs(&f.path)) {
        p.push_str("\nFiles that are not JavaScript were not run: judge them by reading them.\n");
    }
    p.push_str(&format!(
        "\n## What to do\n\
         - For each requirement, say whether it is met, and how you know (a test that passed, \
         the code you read) or what is wrong. Name each requirement by its id (R1, R2, …).\n\
         - List what the player must do next, naming files and functions.\n\
         - Score the work from 0 to 1: the share of requirements met, lowered for defects.\n\
         - Approve only when every requirement is met and the tests pass. An approval counts \
         only at a score of at least {}.\n\n## Your answer\n{COACH_FORMAT}\n",
        state.approval_threshold
    ));
    AutocodingPrompt {
        phase: "coach".into(),
        prompt: p,
        instructions: "Check the code against each requirement from the code and its test run; \
                       ignore the player's claims."
            .into(),
        expected_format: COACH_FORMAT.into(),
        requirements_embedded: true,
    }
}

/// One prompt that plays both roles in turn, for a model working alone.
pub fn single_shot(requirements: &str, max_turns: u32) -> AutocodingPrompt {
    let p = format!(
        "Write code that meets the requirements below by alternating two roles, for at most \
         {max_turns} iterations.\n\n\
         ## Requirements (the source of truth)\n{}\n\n\
         ## Each iteration\n\
         1. As the player: write or revise the code and its tests.\n\
         2. As the coach: check every requirement against the code and the tests, ignoring what \
         you said as the player; mark each met or not, with how you know.\n\
         3. Stop when every requirement is met and the tests pass, and write COACH APPROVED; \
         otherwise list what to fix and begin the next iteration.\n\n\
         ## The code\n{CODE_RULES}\n\n\
         ## Your answer\nFor each iteration: `=== ITERATION N ===`, then `[PLAYER]` with the \
         files, then `[COACH]` with the checklist and either COACH APPROVED or CONTINUE.\n",
        requirements::render(requirements)
    );
    AutocodingPrompt {
        phase: "single_shot".into(),
        prompt: p,
        instructions: "Alternate player and coach until the coach approves or the iterations \
                       run out."
            .into(),
        expected_format: "Iterations, each with the player's files and the coach's checklist \
                          ending in COACH APPROVED or CONTINUE"
            .into(),
        requirements_embedded: true,
    }
}

/// The coach's answer, by example (the prompt's "What to do" says what each field means).
const COACH_FORMAT: &str = "A JSON object: {\"checklist\": [{\"requirement\": \"R1\", \"met\": true, \"evidence\": \"the test 'adds' passed\"}], \"actions\": [\"In lib/add.js, throw a TypeError when a or b is not a number\"], \"score\": 0.8, \"approved\": false}.";

fn left(after: u32) -> String {
    match after {
        0 => " (the last)".into(),
        1 => " (1 more after this)".into(),
        n => format!(" ({n} more after this)"),
    }
}

fn files_section(files: &[CodeFile], title: &str) -> String {
    if files.is_empty() {
        return format!("\n## {title}\nNo files yet.\n");
    }
    let mut s = format!("\n## {title}\n");
    for f in files {
        let fence = if f.content.contains("```") {
            "````"
        } else {
            "```"
        };
        let language = f
            .path
            .rsplit_once('.')
            .map(|(_, ext)| ext)
            .filter(|ext| ext.chars().all(|c| c.is_ascii_alphanumeric()))
            .unwrap_or("");
        s.push_str(&format!(
            "\n### {}\n{fence}{language}\n{}\n{fence}\n",
            f.path,
            f.content.trim_end()
        ));
    }
    s
}

fn run_section(run: &TestRun) -> String {
    let mut s = String::from("\n## The test run\n");
    let passed = run.tests.iter().filter(|t| t.passed).count();
    s.push_str(&match run.status {
        RunStatus::TimedOut => "The run was stopped at its time limit before it finished.\n".into(),
        RunStatus::Error => "The run failed to start.\n".into(),
        RunStatus::Interrupted => {
            "The run crashed the page (probably out of memory) and was not run again.\n".into()
        }
        RunStatus::Unsupported => "The code could not be run here.\n".into(),
        RunStatus::NoTests => "No test ran: there is no `.test.js` file with a `test(…)`.\n".into(),
        _ => format!("{passed} of {} tests passed.\n", run.tests.len()),
    });
    for e in &run.errors {
        s.push_str(&format!("- {} did not load: {}\n", e.file, e.message));
    }
    for t in &run.tests {
        if t.passed {
            s.push_str(&format!("- passed: {} ({})\n", t.name, t.file));
        } else {
            s.push_str(&format!(
                "- FAILED: {} ({}): {}\n",
                t.name, t.file, t.message
            ));
        }
    }
    s
}
