//! The demo model's autocoding: a player that writes real, runnable JavaScript and gets it right
//! over a few turns, and a coach that scores only what the test run shows — so a newcomer sees a
//! test fail, the feedback name why, the next turn fix it and the score rise.
//!
//! The player reads the files as they stand, not a script of turns: each answer moves the code one
//! stage on from what it finds (a fork at any turn goes on from there). For requirements about a
//! slug it writes `slugify` in three stages (words and dashes; then accents and punctuation; then
//! the length limit); for any other requirements it writes a checklist module with one test per
//! requirement whose first version has a real off-by-one bug that leaves the last requirement out.

use super::answer::{CheckItem, CoachAnswer, FileWrite, PlayerAnswer};
use super::prompt::{CodeFile, TestResult, TestRun};
use super::requirements::{items, Requirement};
use roundtable_engine::code_run::RunStatus;

/// The requirements of the demo session a newcomer starts from.
pub const DEMO_REQUIREMENTS: &str = "Write slugify(text) for blog post URLs.\n\n\
- lowercases the text and joins its words with single dashes\n\
- turns accented letters into plain ones (Crème Brûlée → creme-brulee)\n\
- drops punctuation and trims dashes at both ends\n\
- keeps a slug to at most 30 characters, cut at a dash";

const SLUGIFY_TESTS: &str = r#"const slugify = require('./lib/slugify.js');

test('R1: lowercases and joins words with single dashes', () => {
  assert.equal(slugify('Hello   Big World'), 'hello-big-world');
});
test('R2: turns accented letters into plain ones', () => {
  assert.equal(slugify('Crème Brûlée'), 'creme-brulee');
});
test('R3: drops punctuation and trims dashes', () => {
  assert.equal(slugify('  Hello, World! '), 'hello-world');
});
test('R4: keeps a slug to at most 30 characters, cut at a dash', () => {
  assert.equal(slugify('The quick brown fox jumps over the lazy dog'), 'the-quick-brown-fox-jumps-over');
  assert.equal(slugify('Short title'), 'short-title');
});
"#;

/// The three stages of `lib/slugify.js`, each marked so the player knows where it stands.
const SLUGIFY: [&str; 3] = [
    r#"// stage 1: words and dashes
module.exports = function slugify(text) {
  return text.toLowerCase().split(/\s+/).filter(Boolean).join('-');
};
"#,
    r#"// stage 2: accents and punctuation
module.exports = function slugify(text) {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
};
"#,
    r#"// stage 3: at most 30 characters
const MAX = 30;

module.exports = function slugify(text) {
  const slug = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX) return slug;
  // Cut at the last dash that keeps the slug within MAX, or hard at MAX when there is none.
  const head = slug.slice(0, MAX + 1);
  const dash = head.lastIndexOf('-');
  return dash > 0 ? head.slice(0, dash) : slug.slice(0, MAX);
};
"#,
];

/// The stage a file's first line names (`// stage 2: …`), if it is one of ours.
fn stage_of(content: &str) -> Option<usize> {
    let rest = content.strip_prefix("// stage ")?;
    rest.chars().next()?.to_digit(10).map(|d| d as usize)
}

fn file(path: &str, content: String) -> FileWrite {
    FileWrite {
        path: path.into(),
        content,
    }
}

fn js_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// The checklist module for requirements the demo has no code for, at `stage` 1 (a loop that
/// stops one short) or 2 (fixed).
fn checklist(reqs: &[Requirement], stage: usize) -> String {
    let list: Vec<String> = reqs
        .iter()
        .map(|r| {
            format!(
                "  {{ id: {}, text: {} }},",
                js_string(&r.id),
                js_string(&r.text)
            )
        })
        .collect();
    let bound = if stage == 1 {
        "i < requirements.length - 1"
    } else {
        "i < requirements.length"
    };
    format!(
        "// stage {stage}: {}\nconst requirements = [\n{}\n];\n\n\
         // Marks each requirement as handled, in order.\nfunction handled() {{\n  const done = new Set();\n  \
         for (let i = 0; {bound}; i++) done.add(requirements[i].id);\n  return done;\n}}\n\n\
         module.exports = {{ requirements, handled }};\n",
        if stage == 1 { "every requirement listed" } else { "the loop reaches the last one" },
        list.join("\n")
    )
}

fn checklist_tests(reqs: &[Requirement]) -> String {
    let mut s = String::from("const { handled } = require('./lib/checklist.js');\n");
    for r in reqs {
        s.push_str(&format!(
            "\ntest({}, () => {{\n  assert(handled().has({}), {});\n}});\n",
            js_string(&format!("{}: {}", r.id, r.text)),
            js_string(&r.id),
            js_string(&format!("{} is not handled", r.id)),
        ));
    }
    s
}

/// The demo player's turn: the code one stage on from `files`.
pub fn player(requirements: &str, files: &[CodeFile]) -> PlayerAnswer {
    let find = |path: &str| {
        files
            .iter()
            .find(|f| f.path == path)
            .map(|f| f.content.as_str())
    };
    if requirements.to_lowercase().contains("slug") {
        let next = find("lib/slugify.js")
            .and_then(stage_of)
            .unwrap_or(0)
            .min(2);
        let mut out = vec![file("lib/slugify.js", SLUGIFY[next].to_string())];
        if find("slugify.test.js").is_none() {
            out.push(file("slugify.test.js", SLUGIFY_TESTS.to_string()));
        }
        return PlayerAnswer {
            files: out,
            delete: Vec::new(),
        };
    }
    let reqs = items(requirements);
    let next = find("lib/checklist.js")
        .and_then(stage_of)
        .map_or(1, |s| (s + 1).min(2));
    PlayerAnswer {
        files: vec![
            file("lib/checklist.js", checklist(&reqs, next)),
            file("checklist.test.js", checklist_tests(&reqs)),
        ],
        delete: Vec::new(),
    }
}

/// What the code sandbox reports when it runs the demo player's own files (`None` for any other
/// files): a stand-in for the sandbox where there is no JavaScript engine — playing a session in
/// tests and in the recorded demo. It is no guess: `tests/autocoding.rs` writes each demo turn's
/// files with this run into `tests/e2e/fixtures/autocoding-demo-turns.json`, and the browser test
/// (`tests/e2e/sandbox.test.mjs`) runs those files in the real sandbox and finds the same results.
pub fn run(files: &[CodeFile]) -> Option<TestRun> {
    let find = |path: &str| {
        files
            .iter()
            .find(|f| f.path == path)
            .map(|f| f.content.as_str())
    };
    let test = |file: &str, name: &str, failure: Option<String>| TestResult {
        file: file.into(),
        name: name.into(),
        passed: failure.is_none(),
        message: failure.unwrap_or_default(),
    };
    let expected = |want: &str, got: &str| {
        Some(format!(
            "Error: expected {}, got {}",
            js_string(want),
            js_string(got)
        ))
    };
    let tests = if let Some(code) = find("lib/slugify.js") {
        if find("slugify.test.js") != Some(SLUGIFY_TESTS) || files.len() != 2 {
            return None;
        }
        let stage = SLUGIFY.iter().position(|s| *s == code)? + 1;
        let long = "the-quick-brown-fox-jumps-over";
        vec![
            test(
                "slugify.test.js",
                "R1: lowercases and joins words with single dashes",
                None,
            ),
            test(
                "slugify.test.js",
                "R2: turns accented letters into plain ones",
                (stage < 2)
                    .then(|| expected("creme-brulee", "crème-brûlée"))
                    .flatten(),
            ),
            test(
                "slugify.test.js",
                "R3: drops punctuation and trims dashes",
                (stage < 2)
                    .then(|| expected("hello-world", "hello,-world!"))
                    .flatten(),
            ),
            test(
                "slugify.test.js",
                "R4: keeps a slug to at most 30 characters, cut at a dash",
                (stage < 3)
                    .then(|| expected(long, "the-quick-brown-fox-jumps-over-the-lazy-dog"))
                    .flatten(),
            ),
        ]
    } else {
        let module = find("lib/checklist.js")?;
        let tests = find("checklist.test.js")?;
        let stage = stage_of(module)?;
        let reqs = checklist_requirements(module)?;
        if files.len() != 2 || module != checklist(&reqs, stage) || tests != checklist_tests(&reqs)
        {
            return None;
        }
        let last = reqs.len();
        reqs.iter()
            .enumerate()
            .map(|(i, r)| {
                test(
                    "checklist.test.js",
                    &format!("{}: {}", r.id, r.text),
                    (stage == 1 && i + 1 == last)
                        .then(|| format!("Error: {} is not handled", r.id)),
                )
            })
            .collect()
    };
    let failed = tests.iter().any(|t| !t.passed);
    Some(TestRun {
        status: if failed {
            RunStatus::Failed
        } else {
            RunStatus::Passed
        },
        tests,
        errors: Vec::new(),
    })
}

/// The requirements a checklist module lists (`{ id: "R1", text: "…" },` lines).
fn checklist_requirements(module: &str) -> Option<Vec<Requirement>> {
    module
        .lines()
        .filter_map(|l| l.trim().strip_prefix("{ id: "))
        .map(|rest| {
            let (id, text) = rest.strip_suffix(" },")?.split_once(", text: ")?;
            Some(Requirement {
                id: serde_json::from_str(id).ok()?,
                text: serde_json::from_str(text).ok()?,
            })
        })
        .collect()
}

/// The demo coach's review: each requirement met when the tests named for it (`R2: …`) all
/// passed, the score the share met (lowered for files that did not load), approval when every
/// requirement is met.
pub fn coach(reqs: &[Requirement], run: Option<&TestRun>) -> CoachAnswer {
    let mut checklist = Vec::new();
    let mut actions = Vec::new();
    for r in reqs {
        let prefix = format!("{}:", r.id);
        let tests: Vec<_> = run
            .map(|run| {
                run.tests
                    .iter()
                    .filter(|t| t.name.starts_with(&prefix))
                    .collect()
            })
            .unwrap_or_default();
        let failed = tests.iter().find(|t| !t.passed);
        let (met, evidence) = match (run, tests.first(), failed) {
            (None, _, _) => (
                false,
                "the code was not run, so nothing shows it works".to_string(),
            ),
            (Some(_), None, _) => (false, "no test covers it".to_string()),
            (Some(_), Some(_), Some(f)) => {
                actions.push(format!("Make the test '{}' pass", f.name));
                (
                    false,
                    format!("the test '{}' failed: {}", f.name, f.message),
                )
            }
            (Some(_), Some(t), None) => (true, format!("the test '{}' passed", t.name)),
        };
        if !met && failed.is_none() {
            actions.push(format!(
                "Add a test named '{} …' that shows {} is met",
                r.id, r.id
            ));
        }
        checklist.push(CheckItem {
            requirement: r.id.clone(),
            met,
            evidence,
        });
    }
    let met = checklist.iter().filter(|c| c.met).count();
    let errors = run.map_or(0, |r| r.errors.len());
    let share = if reqs.is_empty() {
        0.0
    } else {
        met as f64 / reqs.len() as f64
    };
    let score = ((share - 0.1 * errors as f64).max(0.0) * 100.0).round() / 100.0;
    CoachAnswer {
        approved: met == reqs.len() && errors == 0 && !reqs.is_empty(),
        checklist,
        actions,
        score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(files: &mut Vec<CodeFile>, answer: &PlayerAnswer) {
        assert!(
            answer.problems(files).is_empty(),
            "{:?}",
            answer.problems(files)
        );
        *files = answer.apply(files);
    }

    #[test]
    fn the_slug_player_moves_one_stage_a_turn_and_stays_at_the_last() {
        let mut files = Vec::new();
        for want in ["stage 1", "stage 2", "stage 3", "stage 3"] {
            let answer = player(DEMO_REQUIREMENTS, &files);
            apply(&mut files, &answer);
            let code = &files
                .iter()
                .find(|f| f.path == "lib/slugify.js")
                .unwrap()
                .content;
            assert!(code.starts_with(&format!("// {want}")), "{code}");
        }
        assert_eq!(files.len(), 2);
    }

    #[test]
    fn any_other_requirements_get_a_checklist_with_one_test_each() {
        let reqs = "- parses dates\n- formats them";
        let mut files = Vec::new();
        let answer = player(reqs, &files);
        apply(&mut files, &answer);
        let module = |files: &[CodeFile]| {
            files
                .iter()
                .find(|f| f.path == "lib/checklist.js")
                .unwrap()
                .content
                .clone()
        };
        assert!(module(&files).contains("i < requirements.length - 1"));
        let tests = &files
            .iter()
            .find(|f| f.path == "checklist.test.js")
            .unwrap()
            .content;
        assert!(tests.contains("test(\"R2: formats them\""));
        let answer = player(reqs, &files);
        apply(&mut files, &answer);
        assert!(module(&files).contains("i < requirements.length;"));
    }

    #[test]
    fn the_coach_scores_what_the_run_shows() {
        let reqs = items(DEMO_REQUIREMENTS);
        let t = |name: &str, passed: bool| TestResult {
            file: "slugify.test.js".into(),
            name: name.into(),
            passed,
            message: if passed {
                String::new()
            } else {
                "Error: expected \"creme-brulee\", got \"crème-brûlée\"".into()
            },
        };
        let run = TestRun {
            status: RunStatus::Failed,
            tests: vec![
                t("R1: words", true),
                t("R2: accents", false),
                t("R3: punctuation", true),
            ],
            errors: vec![],
        };
        let review = coach(&reqs, Some(&run));
        assert!(review.problems(&reqs).is_empty());
        assert_eq!(review.score, 0.5);
        assert!(!review.approved);
        assert_eq!(
            review.checklist.iter().map(|c| c.met).collect::<Vec<_>>(),
            vec![true, false, true, false]
        );
        assert_eq!(review.checklist[3].evidence, "no test covers it");
        assert_eq!(review.actions.len(), 2);
        let all = TestRun {
            status: RunStatus::Passed,
            tests: (1..=4).map(|i| t(&format!("R{i}: ok"), true)).collect(),
            errors: vec![],
        };
        let review = coach(&reqs, Some(&all));
        assert_eq!((review.score, review.approved), (1.0, true));
        assert!(review.problems(&reqs).is_empty());
        let unrun = coach(&reqs, None);
        assert_eq!((unrun.score, unrun.approved), (0.0, false));
    }
}
