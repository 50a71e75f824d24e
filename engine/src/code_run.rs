//! Running code in the sandbox: an effect any kind may ask for (the engine's
//! [`Move::Effect`](crate::engine::Move) named [`RUN_CODE`]), which the web's runner carries out
//! in its sandbox and whose outcome comes back as a [`TestRun`]. Autocoding runs the player's
//! files each turn; the review loop runs the implementer's as its runtime check. Neither kind
//! owns these types, so neither imports the other's.

use serde::{Deserialize, Serialize};

/// The name of the effect that runs files in the sandbox.
pub const RUN_CODE: &str = "run_code";

/// One file handed to the sandbox (or only shown, when it does not run: [`runs`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeFile {
    /// Relative path (`lib/sum.js`).
    pub path: String,
    /// The whole file.
    pub content: String,
}

/// How a run ended, as the sandbox reports it (and files store it: the wire words are kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Every test passed.
    Passed,
    /// A test failed, or a file did not load.
    Failed,
    /// The files ran and held no test.
    NoTests,
    /// The run passed its time limit and was stopped.
    TimedOut,
    /// The run took the page down (it ran out of memory, most likely); the runner hands this in
    /// on the next run instead of running the code again ([`interrupted`]).
    Interrupted,
    /// This app cannot carry out the effect asked for ([`unsupported`]).
    Unsupported,
    /// The sandbox could not run the files (or reported a status this build does not know).
    #[serde(other)]
    Error,
}

impl RunStatus {
    /// The wire word (`timed_out`), for a page's styling hooks.
    pub fn word(self) -> &'static str {
        match self {
            RunStatus::Passed => "passed",
            RunStatus::Failed => "failed",
            RunStatus::NoTests => "no_tests",
            RunStatus::TimedOut => "timed_out",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Unsupported => "unsupported",
            RunStatus::Error => "error",
        }
    }

    /// The status in a person's words ("timed out").
    pub fn words(self) -> &'static str {
        match self {
            RunStatus::Passed => "passed",
            RunStatus::Failed => "failed",
            RunStatus::NoTests => "no tests",
            RunStatus::TimedOut => "timed out",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Unsupported => "not supported here",
            RunStatus::Error => "error",
        }
    }
}

/// One test of a run, as the sandbox reported it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestResult {
    /// The test file.
    pub file: String,
    /// The test's name.
    pub name: String,
    /// Whether it passed.
    pub passed: bool,
    /// Why it failed (empty when it passed).
    #[serde(default)]
    pub message: String,
}

/// What running the files showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestRun {
    /// How the run ended.
    pub status: RunStatus,
    /// Each test's result.
    #[serde(default)]
    pub tests: Vec<TestResult>,
    /// Files that failed to load, with why.
    #[serde(default)]
    pub errors: Vec<FileError>,
}

/// A file that could not be loaded (a syntax error, a throw at its top level).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileError {
    /// The file.
    pub file: String,
    /// The error.
    pub message: String,
}

/// The outcome the runner hands in for a run that took the page down: the code is never run
/// again (it would take the page down again), and the turn goes on with this.
pub fn interrupted() -> TestRun {
    TestRun {
        status: RunStatus::Interrupted,
        tests: Vec::new(),
        errors: vec![FileError {
            file: String::new(),
            message: "the code crashed the page (probably ran out of memory); it is not run again"
                .into(),
        }],
    }
}

/// The outcome the runner hands in for an effect this app cannot carry out (`effect` is its
/// name, said in words).
pub fn unsupported(effect: &str) -> TestRun {
    TestRun {
        status: RunStatus::Unsupported,
        tests: Vec::new(),
        errors: vec![FileError {
            file: String::new(),
            message: format!("this app cannot {}", effect.replace('_', " ")),
        }],
    }
}

/// Whether a file is run in the sandbox — JavaScript: `.js`, `.cjs`, or `.mjs` (an ES module,
/// whose `import`/`export` the sandbox's loader reads) — or only shown.
pub fn runs(path: &str) -> bool {
    path.ends_with(".js") || path.ends_with(".cjs") || path.ends_with(".mjs")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wire words files hold read back as the same status, and a word this build does not
    /// know reads as an error rather than refusing the file.
    #[test]
    fn statuses_keep_their_wire_words() {
        for (word, status) in [
            ("passed", RunStatus::Passed),
            ("failed", RunStatus::Failed),
            ("no_tests", RunStatus::NoTests),
            ("timed_out", RunStatus::TimedOut),
            ("interrupted", RunStatus::Interrupted),
            ("unsupported", RunStatus::Unsupported),
            ("error", RunStatus::Error),
        ] {
            let json = serde_json::Value::String(word.into());
            assert_eq!(
                serde_json::from_value::<RunStatus>(json.clone()).unwrap(),
                status
            );
            assert_eq!(serde_json::to_value(status).unwrap(), json);
            assert_eq!(status.word(), word);
        }
        let unknown = serde_json::json!("out_of_disk");
        assert_eq!(
            serde_json::from_value::<RunStatus>(unknown).unwrap(),
            RunStatus::Error
        );
    }

    /// A crashed run and an effect this app cannot carry out are handed in as core says, in
    /// the wire form the kinds' folds read back.
    #[test]
    fn the_runners_own_outcomes_read_back() {
        for (run, status, words) in [
            (interrupted(), RunStatus::Interrupted, "crashed the page"),
            (
                unsupported("search_web"),
                RunStatus::Unsupported,
                "cannot search web",
            ),
        ] {
            let back: TestRun =
                serde_json::from_value(serde_json::to_value(&run).unwrap()).unwrap();
            assert_eq!(back, run);
            assert_eq!(back.status, status);
            assert!(back.errors[0].message.contains(words), "{back:?}");
        }
    }
}
