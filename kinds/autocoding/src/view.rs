//! What an autocoding page draws, decided here so the page only renders: the requirements, the
//! scores against the threshold (a chart's points), each turn's row (its test run, the coach's
//! feedback tied to each requirement, the actions), the files of any turn with the diff between
//! two turns, and a turn's files as one text bundle to download.

use serde::{Deserialize, Serialize};

use super::answer::CoachAnswer;
use super::prompt::{CodeFile, FileError, TestResult, TestRun};
use super::requirements::{items, Requirement};
use super::state::AutocodingState;
use roundtable_engine::code_run::RunStatus;
use roundtable_engine::diff::{diff_lines, DiffLine};

/// One turn as a session keeps it: the files after the player's answer, their test run, and the
/// coach's review.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Turn {
    /// The files as they stood after the player's turn.
    pub files: Vec<CodeFile>,
    /// What running them showed (none when nothing ran: no JavaScript, or not yet).
    pub run: Option<TestRun>,
    /// The coach's review (none until it answers).
    pub review: Option<CoachAnswer>,
    /// The `run_code` effect that runs the files, once asked for (its output is `run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// The person's verdict on the coach's approval, when the person had the last word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<PersonWord>,
}

/// The person's word on a coach's approval, as a turn keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonWord {
    /// Whether the person approved.
    pub approved: bool,
    /// The verdict and its note in words ("The person asked for a revision: …").
    pub words: String,
}

/// One point of the score chart.
#[derive(Debug, Clone, PartialEq)]
pub struct ScorePoint {
    /// The turn (1-based, as people count).
    pub turn: u32,
    /// The coach's score, 0 to 1.
    pub score: f64,
    /// Whether that review approved.
    pub approved: bool,
}

/// The coach's finding on one requirement, with the requirement's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// `R1`.
    pub id: String,
    /// The requirement's text.
    pub requirement: String,
    /// Whether the coach found it met.
    pub met: bool,
    /// How the coach knows, or what is wrong.
    pub evidence: String,
}

/// One turn's row.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRow {
    /// The turn (1-based).
    pub turn: u32,
    /// The run in words: "3 of 4 tests passed", "stopped at the time limit", "not run".
    pub run: String,
    /// Tests that passed and tests in all.
    pub tests: (usize, usize),
    /// The coach's score, once it reviewed.
    pub score: Option<f64>,
    /// Whether the review approved (at the threshold).
    pub approved: bool,
    /// The findings, one per requirement, in the requirements' order.
    pub findings: Vec<Finding>,
    /// What the coach asked the player to do next.
    pub actions: Vec<String>,
    /// The person's verdict on the coach's approval, in words, when the person had the last word.
    pub person: Option<String>,
    /// Each test of the run, as the sandbox reported it.
    pub results: Vec<TestResult>,
    /// Files that did not load, and a run's own failure (stopped, could not start).
    pub errors: Vec<FileError>,
    /// The files as they stood after the player's turn (for the files panel and its diff).
    pub files: Vec<CodeFile>,
    /// A turn played before this session (from a saved state's `turn_history`): the coach's
    /// feedback as the state kept it, and no run, findings or files.
    pub saved_feedback: Option<String>,
}

/// The whole page of an autocoding session.
#[derive(Debug, Clone, PartialEq)]
pub struct AutocodingView {
    /// The numbered requirements.
    pub requirements: Vec<Requirement>,
    /// Where the loop stands, in words ("Turn 2 of 5: the coach reviews").
    pub status: String,
    /// The score an approval must reach.
    pub threshold: f64,
    /// The turns allowed (the chart's width).
    pub max_turns: u32,
    /// The chart: one point per reviewed turn.
    pub scores: Vec<ScorePoint>,
    /// One row per turn, oldest first.
    pub turns: Vec<TurnRow>,
}

/// The run of a turn in words, and its (passed, total) tests.
pub fn run_words(run: Option<&TestRun>) -> (String, (usize, usize)) {
    let Some(run) = run else {
        return ("not run".into(), (0, 0));
    };
    let passed = run.tests.iter().filter(|t| t.passed).count();
    let total = run.tests.len();
    let words = match run.status {
        RunStatus::TimedOut => "stopped at the time limit".to_string(),
        RunStatus::Error => "failed to start".to_string(),
        RunStatus::Interrupted => "crashed the page".to_string(),
        RunStatus::Unsupported => "could not run here".to_string(),
        RunStatus::NoTests => "no tests to run".to_string(),
        _ => format!("{passed} of {total} tests passed"),
    };
    (words, (passed, total))
}

/// The view of a session whose state is `state` and whose turns are `turns`.
pub fn view(state: &AutocodingState, turns: &[Turn]) -> AutocodingView {
    view_from(state, turns, 0)
}

/// The view of a session that went on from a saved state after `before` turns: the saved turns
/// (from the state's history) come first, each a row with its feedback and score, and the
/// session's own turns are numbered from `before + 1`. A loaded state alone is
/// `view_from(state, &[], state.current_turn)`.
pub fn view_from(state: &AutocodingState, turns: &[Turn], before: u32) -> AutocodingView {
    let requirements = items(&state.requirements);
    let rows: Vec<TurnRow> = turns
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (run, tests) = run_words(t.run.as_ref());
            let review = t.review.as_ref();
            let findings = requirements
                .iter()
                .map(|r| {
                    let item =
                        review.and_then(|rv| rv.checklist.iter().find(|c| c.requirement == r.id));
                    Finding {
                        id: r.id.clone(),
                        requirement: r.text.clone(),
                        met: item.is_some_and(|c| c.met),
                        evidence: item.map(|c| c.evidence.clone()).unwrap_or_default(),
                    }
                })
                .collect();
            TurnRow {
                turn: before + i as u32 + 1,
                run,
                tests,
                score: review.map(|r| r.score),
                approved: match &t.person {
                    Some(p) => p.approved,
                    None => {
                        review.is_some_and(|r| r.approved && r.score >= state.approval_threshold)
                    }
                },
                findings,
                actions: review.map(|r| r.actions.clone()).unwrap_or_default(),
                person: t.person.as_ref().map(|p| p.words.clone()),
                results: t.run.as_ref().map(|r| r.tests.clone()).unwrap_or_default(),
                errors: t.run.as_ref().map(|r| r.errors.clone()).unwrap_or_default(),
                files: t.files.clone(),
                saved_feedback: None,
            }
        })
        .collect();
    // The turns a saved state played before this session, each a row of its own.
    let saved: Vec<TurnRow> = state
        .turn_history
        .iter()
        .filter(|t| t.turn < before)
        .map(|t| TurnRow {
            turn: t.turn + 1,
            run: "run before this session".into(),
            tests: (0, 0),
            score: t.score,
            approved: super::tools::approves(state, t.approved, t.score),
            findings: Vec::new(),
            actions: Vec::new(),
            person: None,
            results: Vec::new(),
            errors: Vec::new(),
            files: Vec::new(),
            saved_feedback: Some(t.feedback.clone()),
        })
        .collect();
    let rows: Vec<TurnRow> = saved.into_iter().chain(rows).collect();
    let scores = std::iter::empty()
        .chain(rows.iter().filter_map(|r| {
            r.score.map(|score| ScorePoint {
                turn: r.turn,
                score,
                approved: r.approved,
            })
        }))
        .collect();
    AutocodingView {
        requirements,
        status: status_words(state),
        threshold: state.approval_threshold,
        max_turns: state.max_turns,
        scores,
        turns: rows,
    }
}

/// Where the loop stands, in a person's words.
pub fn status_words(state: &AutocodingState) -> String {
    use super::state::{Phase, Status};
    let turn = (state.current_turn + 1).min(state.max_turns);
    match (state.status, state.phase) {
        (Status::Approved, _) => format!(
            "Approved after {} of {} turns",
            state.current_turn, state.max_turns
        ),
        (Status::Timeout, _) => format!(
            "Out of turns: {} of {} without approval",
            state.current_turn, state.max_turns
        ),
        (Status::Rejected, _) => format!("Rejected by you after {} turns", state.current_turn),
        (Status::Active, Phase::Coach) => {
            format!("Turn {turn} of {}: the coach reviews", state.max_turns)
        }
        (Status::Active, _) => format!("Turn {turn} of {}: the player writes", state.max_turns),
    }
}

/// How a file changed between two turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileChange {
    /// Only in the later turn.
    Added,
    /// Only in the earlier turn.
    Removed,
    /// In both, with other content.
    Changed,
    /// In both, the same.
    Same,
}

/// One file's diff between two turns.
#[derive(Debug, Clone, PartialEq)]
pub struct FileDiff {
    /// The file.
    pub path: String,
    /// How it changed.
    pub change: FileChange,
    /// Its lines, kept, removed and added (empty when it is the same).
    pub lines: Vec<DiffLine>,
}

/// The diff from the files of one turn to another's, by path.
pub fn files_diff(before: &[CodeFile], after: &[CodeFile]) -> Vec<FileDiff> {
    let mut paths: Vec<&str> = before
        .iter()
        .chain(after)
        .map(|f| f.path.as_str())
        .collect();
    roundtable_engine::order::sort(&mut paths);
    paths.dedup();
    paths
        .into_iter()
        .map(|path| {
            let old = before
                .iter()
                .find(|f| f.path == path)
                .map(|f| f.content.as_str());
            let new = after
                .iter()
                .find(|f| f.path == path)
                .map(|f| f.content.as_str());
            let change = match (old, new) {
                (None, _) => FileChange::Added,
                (_, None) => FileChange::Removed,
                (Some(a), Some(b)) if a == b => FileChange::Same,
                _ => FileChange::Changed,
            };
            let lines = if change == FileChange::Same {
                Vec::new()
            } else {
                diff_lines(old.unwrap_or(""), new.unwrap_or(""))
            };
            FileDiff {
                path: path.into(),
                change,
                lines,
            }
        })
        .collect()
}

/// A turn's files as one text to download: a header line, then each file between marker lines
/// that name it (a marker is longer than any line of the files, so none is mistaken for one).
pub fn bundle(title: &str, turn: u32, files: &[CodeFile]) -> String {
    let longest = files
        .iter()
        .flat_map(|f| f.content.lines())
        .filter(|l| l.starts_with("=="))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let bar = "=".repeat(longest.max(11) + 1);
    let mut s = format!(
        "{title}: the files of turn {turn} ({} file{})\n",
        files.len(),
        if files.len() == 1 { "" } else { "s" }
    );
    for f in files {
        s.push_str(&format!("\n{bar} {} {bar}\n{}", f.path, f.content));
        if !f.content.ends_with('\n') {
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::answer::CheckItem;
    use super::super::tools;
    use super::*;
    use serde_json::json;

    fn file(path: &str, content: &str) -> CodeFile {
        CodeFile {
            path: path.into(),
            content: content.into(),
        }
    }

    #[test]
    fn the_view_ties_each_finding_to_its_requirement_and_charts_the_scores() {
        let state = tools::init(
            &json!({ "requirements": "- adds\n- subtracts", "max_turns": 4 }),
            "s",
        )
        .unwrap();
        let review = |met2: bool, score: f64| CoachAnswer {
            checklist: vec![
                CheckItem {
                    requirement: "R2".into(),
                    met: met2,
                    evidence: "the test ran".into(),
                },
                CheckItem {
                    requirement: "R1".into(),
                    met: true,
                    evidence: "the test 'adds' passed".into(),
                },
            ],
            actions: if met2 {
                vec![]
            } else {
                vec!["Write subtract in lib/math.js".into()]
            },
            score,
            approved: met2,
        };
        let run = |passed: bool| TestRun {
            status: if passed {
                RunStatus::Passed
            } else {
                RunStatus::Failed
            },
            tests: vec![
                TestResult {
                    file: "t.test.js".into(),
                    name: "R1: adds".into(),
                    passed: true,
                    message: String::new(),
                },
                TestResult {
                    file: "t.test.js".into(),
                    name: "R2: subtracts".into(),
                    passed,
                    message: String::new(),
                },
            ],
            errors: vec![],
        };
        let turns = vec![
            Turn {
                files: vec![],
                run: Some(run(false)),
                review: Some(review(false, 0.5)),
                ..Turn::default()
            },
            Turn {
                files: vec![],
                run: Some(run(true)),
                review: Some(review(true, 0.95)),
                ..Turn::default()
            },
            Turn {
                files: vec![],
                run: None,
                review: None,
                ..Turn::default()
            },
        ];
        let v = view(&state, &turns);
        assert_eq!(v.status, "Turn 1 of 4: the player writes");
        assert_eq!(
            v.scores
                .iter()
                .map(|p| (p.turn, p.score, p.approved))
                .collect::<Vec<_>>(),
            vec![(1, 0.5, false), (2, 0.95, true)]
        );
        let first = &v.turns[0];
        assert_eq!(
            (first.run.as_str(), first.tests),
            ("1 of 2 tests passed", (1, 2))
        );
        assert_eq!(
            first
                .findings
                .iter()
                .map(|f| (f.id.as_str(), f.requirement.as_str(), f.met))
                .collect::<Vec<_>>(),
            vec![("R1", "adds", true), ("R2", "subtracts", false)]
        );
        assert_eq!(
            first.actions,
            vec!["Write subtract in lib/math.js".to_string()]
        );
        assert_eq!(
            (v.turns[2].run.as_str(), v.turns[2].score),
            ("not run", None)
        );
    }

    #[test]
    fn an_approval_below_the_threshold_is_not_shown_as_one() {
        let state = tools::init(
            &json!({ "requirements": "r", "approval_threshold": 0.9 }),
            "s",
        )
        .unwrap();
        let turn = Turn {
            files: vec![],
            run: None,
            review: Some(CoachAnswer {
                checklist: vec![],
                actions: vec![],
                score: 0.8,
                approved: true,
            }),
            ..Turn::default()
        };
        assert!(!view(&state, &[turn]).turns[0].approved);
    }

    #[test]
    fn the_diff_between_two_turns_names_each_file_s_change() {
        let before = vec![
            file("a.js", "1\n2\n"),
            file("b.js", "x\n"),
            file("c.js", "same\n"),
        ];
        let after = vec![
            file("a.js", "1\n3\n"),
            file("c.js", "same\n"),
            file("d.js", "new\n"),
        ];
        let d = files_diff(&before, &after);
        assert_eq!(
            d.iter()
                .map(|f| (f.path.as_str(), f.change))
                .collect::<Vec<_>>(),
            vec![
                ("a.js", FileChange::Changed),
                ("b.js", FileChange::Removed),
                ("c.js", FileChange::Same),
                ("d.js", FileChange::Added)
            ]
        );
        assert_eq!(
            d[0].lines,
            vec![
                DiffLine::Same("1".into()),
                DiffLine::Removed("2".into()),
                DiffLine::Added("3".into())
            ]
        );
        assert!(d[2].lines.is_empty());
    }

    #[test]
    fn a_bundle_reads_back_by_its_markers() {
        // A file whose own line looks like a marker: the markers grow longer than it.
        let fake = "============ lib/a.js ============";
        let files = vec![
            file("lib/a.js", "module.exports = 1;"),
            file("a.test.js", &format!("{fake}\ntest('x', () => {{}});\n")),
        ];
        let text = bundle("slugify", 2, &files);
        insta::assert_snapshot!("bundle", text);
        let markers: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("==") && *l != fake)
            .collect();
        assert_eq!(markers.len(), 2);
        assert!(markers.iter().all(|m| m.len() > fake.len()));
    }

    #[test]
    fn the_status_says_how_the_loop_ended() {
        let mut state = tools::init(&json!({ "requirements": "r", "max_turns": 2 }), "s").unwrap();
        state.current_turn = 2;
        state.status = super::super::state::Status::Timeout;
        state.phase = super::super::state::Phase::Timeout;
        assert_eq!(
            status_words(&state),
            "Out of turns: 2 of 2 without approval"
        );
    }
}
