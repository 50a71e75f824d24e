//! The answer shapes of an autocoding turn — the player's file set and the coach's review — and
//! the checks a schema cannot make: a file set's paths (relative, no `..`, each once), its size
//! and count limits, files deleted that exist; a review that covers each requirement once, by its
//! id, and approves nothing unmet. Every violation is reported, each with its pointer, expected,
//! received and hint.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use serde_json::Value;

use super::prompt::CodeFile;
use super::requirements::Requirement;
use roundtable_engine::order::Collect;
use roundtable_engine::text::cut_at_word;
use roundtable_engine::validate::{self, Options, Violation};

/// The limits of a file set.
pub mod limits {
    /// The longest path.
    pub const PATH_MAX: usize = 120;
    /// The largest file, in bytes.
    pub const FILE_BYTES_MAX: usize = 60_000;
    /// The most files a session holds at once.
    pub const FILES_MAX: usize = 24;
    /// All files together, in bytes.
    pub const TOTAL_BYTES_MAX: usize = 240_000;
    /// The longest raw player answer read: the files' bytes each escaped (`\u0000`, six bytes),
    /// with room for paths and the JSON around them.
    pub const RAW_BYTES_MAX: usize = 6 * TOTAL_BYTES_MAX + 64 * 1024;
    /// The longest piece of review text (evidence, an action).
    pub const ITEM_MAX: usize = 1_000;
    /// The most actions in a review.
    pub const ACTIONS_MAX: usize = 20;
}

/// One file the player writes, whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileWrite {
    /// Relative path with `/` (`lib/add.js`).
    #[schemars(length(min = 1, max = limits::PATH_MAX))]
    pub path: String,
    /// The whole file.
    #[schemars(length(max = limits::FILE_BYTES_MAX))]
    pub content: String,
}

/// The player's turn: files written (new or replaced) and files removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "autocoding_player")]
pub struct PlayerAnswer {
    /// Files to write, each whole.
    #[schemars(length(max = limits::FILES_MAX))]
    pub files: Vec<FileWrite>,
    /// Paths of files to remove.
    #[serde(default)]
    #[schemars(length(max = limits::FILES_MAX), inner(length(min = 1, max = limits::PATH_MAX)))]
    pub delete: Vec<String>,
}

/// The coach's finding on one requirement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CheckItem {
    /// The requirement's id (`R1`).
    #[schemars(length(min = 2, max = 8))]
    pub requirement: String,
    /// Whether the code meets it.
    pub met: bool,
    /// How the coach knows (a test that passed, the code read), or what is wrong.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub evidence: String,
}

/// The coach's review of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "autocoding_coach")]
pub struct CoachAnswer {
    /// One finding per requirement.
    #[schemars(length(min = 1))]
    pub checklist: Vec<CheckItem>,
    /// What the player must do next.
    #[schemars(length(max = limits::ACTIONS_MAX), inner(length(min = 3, max = limits::ITEM_MAX)))]
    pub actions: Vec<String>,
    /// How well the code meets the requirements, from 0 to 1.
    #[schemars(schema_with = "fraction")]
    pub score: f64,
    /// Whether the coach approves the code.
    pub approved: bool,
}

/// The wire names of the two shapes: the player's turn and the coach's review.
pub const SCHEMA_NAMES: [&str; 2] = ["autocoding_player", "autocoding_coach"];

/// The JSON Schema of the shape named `name` (one of [`SCHEMA_NAMES`]), derived from its type with
/// `schemars` (draft 2020-12): what the committed `core/schemas/<name>.plain.json` is checked
/// against.
pub fn derive_schema(name: &str) -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let root = match name {
        "autocoding_player" => generator.into_root_schema_for::<PlayerAnswer>(),
        "autocoding_coach" => generator.into_root_schema_for::<CoachAnswer>(),
        other => panic!("no autocoding shape is named {other}"),
    };
    root.to_value()
}

/// The validator's walk of `raw` against the generated shape named `name`, then the typed value
/// held to `rules` (what a schema cannot say): every violation of the shape, else every rule
/// broken, else the answer.
fn read<T: serde::de::DeserializeOwned>(
    name: &str,
    raw: &str,
    options: Options,
    warnings: &mut Vec<Violation>,
    rules: impl FnOnce(&T) -> Vec<Violation>,
) -> Result<T, Vec<Violation>> {
    let shape = super::shape::answer_object(name).expect("every autocoding answer has a shape");
    let verdict = validate::check_object(shape, raw, options);
    warnings.extend(verdict.warnings);
    if !verdict.errors.is_empty() {
        return Err(verdict.errors);
    }
    let answer: T = validate::read_checked(&verdict.json).map_err(|v| vec![v])?;
    let broken = rules(&answer);
    if broken.is_empty() {
        Ok(answer)
    } else {
        Err(broken)
    }
}

/// A player answer `bytes` long refused by its length, or `None` when it is read. An answer
/// longer than any file set within the limits could be written (every byte escaped as
/// `\u0000`, plus room for the paths) is refused before it is read: megabytes are never parsed
/// and walked only to be refused (the engine then keeps only the answer's head in the log:
/// [`roundtable_engine::engine::long_answer`]).
pub fn too_long(bytes: usize) -> Option<Violation> {
    (bytes > limits::RAW_BYTES_MAX).then(|| {
        violation(
            String::new(),
            format!("the answer is {bytes} bytes long"),
            &format!(
                "at most {} bytes (files of at most {} bytes in all)",
                limits::RAW_BYTES_MAX,
                limits::TOTAL_BYTES_MAX
            ),
            &format!("{bytes} bytes"),
            "write fewer or smaller files: split big data out of the code, or generate it in a test",
        )
    })
}

/// A raw player answer checked whole: its shape, then its file set against the files as they
/// stand.
pub fn check_player(
    raw: &str,
    options: Options,
    existing: &[CodeFile],
    warnings: &mut Vec<Violation>,
) -> Result<PlayerAnswer, Vec<Violation>> {
    if let Some(refused) = too_long(raw.len()) {
        return Err(vec![refused]);
    }
    read(
        "autocoding_player",
        raw,
        options,
        warnings,
        |a: &PlayerAnswer| a.problems(existing),
    )
}

/// A raw coach answer checked whole: its shape, then its review against the requirements.
pub fn check_coach(
    raw: &str,
    options: Options,
    requirements: &[Requirement],
    warnings: &mut Vec<Violation>,
) -> Result<CoachAnswer, Vec<Violation>> {
    read(
        "autocoding_coach",
        raw,
        options,
        warnings,
        |a: &CoachAnswer| a.problems(requirements),
    )
}

/// A number from 0 to 1, without the `format` schemars gives an `f64` (providers' schema subsets
/// do not all read it).
fn fraction(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "number",
        "minimum": 0.0,
        "maximum": 1.0,
        "description": "How well the code meets the requirements, from 0 to 1."
    })
}

fn violation(
    path: String,
    message: String,
    expected: &str,
    received: &str,
    hint: &str,
) -> Violation {
    Violation::at(path, message, expected, cut_at_word(received, 80), hint)
}

/// What is wrong with `path` as a file's path, if anything.
pub fn path_problem(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        Some("the path is empty")
    } else if path.starts_with('/') || path.contains(':') {
        Some("the path is absolute")
    } else if path.contains('\\') {
        Some("the path uses \\ instead of /")
    } else if path.split('/').any(|part| part == "..") {
        Some("the path leaves the project with ..")
    } else if path.split('/').any(|part| part.is_empty() || part == ".") {
        Some("the path has an empty or . segment")
    } else if path.chars().any(roundtable_engine::text::is_invisible) {
        Some("the path has an invisible or text-reordering character (a control, bidirectional or zero-width one)")
    } else if path.chars().count() > limits::PATH_MAX {
        Some("the path is too long")
    } else {
        None
    }
}

impl PlayerAnswer {
    /// Every violation of the file set, given the files as they stand before the turn.
    pub fn problems(&self, existing: &[CodeFile]) -> Vec<Violation> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        const PATH_EXPECTED: &str = "a relative path with / and no .. (lib/add.js)";
        for (i, f) in self.files.iter().enumerate() {
            if let Some(why) = path_problem(&f.path) {
                let shown = roundtable_engine::text::escape_invisible(&f.path);
                out.push(violation(
                    format!("/files/{i}/path"),
                    format!("{why}: {shown}"),
                    PATH_EXPECTED,
                    &shown,
                    "write the path from the project's root, such as lib/add.js, in plain letters",
                ));
            } else if !seen.insert(f.path.as_str()) {
                out.push(violation(
                    format!("/files/{i}/path"),
                    format!("{} is written twice in this turn", f.path),
                    "each path once",
                    &f.path,
                    "merge the two into one file, written whole",
                ));
            }
            if f.content.len() > limits::FILE_BYTES_MAX {
                out.push(violation(
                    format!("/files/{i}/content"),
                    format!("{} is {} bytes", f.path, f.content.len()),
                    &format!("at most {} bytes", limits::FILE_BYTES_MAX),
                    &format!("{} bytes", f.content.len()),
                    "split the file into smaller modules",
                ));
            }
        }
        let exists = existing.iter().map(|f| f.path.as_str()).to_set();
        for (i, path) in self.delete.iter().enumerate() {
            let shown = roundtable_engine::text::escape_invisible(path);
            if seen.contains(path.as_str()) {
                out.push(violation(
                    format!("/delete/{i}"),
                    format!("{shown} is both written and deleted"),
                    "a path not written in this turn",
                    &shown,
                    "either write the file or delete it",
                ));
            } else if !exists.contains(path.as_str()) {
                out.push(violation(
                    format!("/delete/{i}"),
                    format!("there is no file {shown} to delete"),
                    "the path of an existing file",
                    &shown,
                    "delete only files listed under \"The files as they stand\"",
                ));
            }
        }
        let after = self.apply(existing);
        if after.len() > limits::FILES_MAX {
            out.push(violation(
                "/files".into(),
                format!("the project would hold {} files", after.len()),
                &format!("at most {} files", limits::FILES_MAX),
                &format!("{} files", after.len()),
                "combine small files, or delete ones no longer needed",
            ));
        }
        let total: usize = after.iter().map(|f| f.content.len()).sum();
        if total > limits::TOTAL_BYTES_MAX {
            out.push(violation(
                "/files".into(),
                format!("the project would hold {total} bytes"),
                &format!("at most {} bytes in all", limits::TOTAL_BYTES_MAX),
                &format!("{total} bytes"),
                "keep the code to what the requirements need",
            ));
        }
        out
    }

    /// The files after this turn: `existing` with the written files replaced or added and the
    /// deleted ones removed, in path order.
    pub fn apply(&self, existing: &[CodeFile]) -> Vec<CodeFile> {
        let mut files = existing
            .iter()
            .map(|f| (f.path.as_str(), f.content.as_str()))
            .to_map();
        for path in &self.delete {
            files.remove(path.as_str());
        }
        for f in &self.files {
            files.insert(&f.path, &f.content);
        }
        files
            .into_iter()
            .map(|(path, content)| CodeFile {
                path: path.into(),
                content: content.into(),
            })
            .collect()
    }
}

impl CoachAnswer {
    /// Every violation of the review against the numbered requirements.
    pub fn problems(&self, requirements: &[Requirement]) -> Vec<Violation> {
        let mut out = Vec::new();
        let ids: Vec<&str> = requirements.iter().map(|r| r.id.as_str()).collect();
        let expected = format!("one of {}", ids.join(", "));
        let mut covered = BTreeSet::new();
        for (i, item) in self.checklist.iter().enumerate() {
            if !ids.contains(&item.requirement.as_str()) {
                out.push(violation(
                    format!("/checklist/{i}/requirement"),
                    format!("there is no requirement {}", item.requirement),
                    &expected,
                    &item.requirement,
                    "name the requirement by its id from the numbered list",
                ));
            } else if !covered.insert(item.requirement.as_str()) {
                out.push(violation(
                    format!("/checklist/{i}/requirement"),
                    format!("{} is reviewed twice", item.requirement),
                    "each requirement once",
                    &item.requirement,
                    "merge the two findings into one",
                ));
            }
        }
        let missing: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|id| !covered.contains(id))
            .collect();
        if !missing.is_empty() {
            out.push(violation(
                "/checklist".into(),
                format!("the review leaves out {}", missing.join(", ")),
                "one finding for every requirement",
                &format!("{} findings", self.checklist.len()),
                &format!("add a finding for {}", missing.join(", ")),
            ));
        }
        let unmet: Vec<&str> = self
            .checklist
            .iter()
            .filter(|c| !c.met)
            .map(|c| c.requirement.as_str())
            .collect();
        if self.approved && !unmet.is_empty() {
            out.push(violation(
                "/approved".into(),
                format!("the code is approved while {} is not met", unmet.join(", ")),
                "false while any requirement is unmet",
                "true",
                "approve only when every requirement is met",
            ));
        }
        out
    }

    /// The review as the feedback the next player turn starts from (and `002`'s
    /// `last_coach_feedback`).
    pub fn feedback(&self, requirements: &[Requirement]) -> String {
        let mut s = String::new();
        for item in &self.checklist {
            let text = requirements
                .iter()
                .find(|r| r.id == item.requirement)
                .map_or("", |r| r.text.as_str());
            let mark = if item.met { "met" } else { "NOT MET" };
            s.push_str(&format!(
                "- {} ({text}): {mark}. {}\n",
                item.requirement, item.evidence
            ));
        }
        if !self.actions.is_empty() {
            s.push_str("\nActions:\n");
            for (i, a) in self.actions.iter().enumerate() {
                s.push_str(&format!("{}. {a}\n", i + 1));
            }
        }
        s.push_str(&format!(
            "\nScore {:.2}; {}.",
            self.score,
            if self.approved {
                "approved"
            } else {
                "not approved"
            }
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::requirements::items;
    use super::*;
    use roundtable_engine::validate::shape_gen::check_object_tables;

    /// `kinds/autocoding/src/shape.rs` is what the schemas generate, and says exactly what they say
    /// (`UPDATE_SHAPES=1` rewrites it).
    #[test]
    fn committed_shape_tables_are_current() {
        let schemas: Vec<_> = SCHEMA_NAMES.iter().map(|n| derive_schema(n)).collect();
        check_object_tables(
            concat!(env!("CARGO_MANIFEST_DIR"), "/src/shape.rs"),
            "autocoding",
            "autocoding's",
            "Autocoding",
            include_str!("shape.rs"),
            &schemas,
            super::super::shape::answer_object,
        );
    }

    #[test]
    fn a_raw_answer_is_checked_for_its_shape_then_its_rules() {
        let mut warnings = Vec::new();
        let ok = check_player(
            r#"{"files": [{"path": "a.js", "content": "module.exports = 1;"}], "delete": []}"#,
            Options::default(),
            &[],
            &mut warnings,
        )
        .unwrap();
        assert_eq!(ok.files[0].path, "a.js");
        let shape = check_player(
            r#"{"files": [{"path": "a.js"}]}"#,
            Options::default(),
            &[],
            &mut warnings,
        )
        .unwrap_err();
        assert_eq!(shape[0].path, "/files/0/content");
        let rules = check_player(
            r#"{"files": [{"path": "../a.js", "content": ""}], "delete": []}"#,
            Options::default(),
            &[],
            &mut warnings,
        )
        .unwrap_err();
        assert_eq!(rules[0].path, "/files/0/path");
        let reqs = items("- one\n- two");
        let coach = check_coach(
            r#"{"checklist": [{"requirement": "R1", "met": true, "evidence": "test passed"}], "actions": [], "score": 1.5, "approved": false}"#,
            Options::default(),
            &reqs,
            &mut warnings,
        )
        .unwrap_err();
        assert_eq!(coach[0].path, "/score");
    }

    #[test]
    fn a_path_with_an_invisible_or_bidi_character_is_refused_and_shown_escaped() {
        for name in [
            "evil\u{202E}sj.txt",
            "a\u{2066}b.js",
            "zero\u{200B}width.js",
            "bom\u{FEFF}.js",
            "line\u{2028}sep.js",
            "tab\t.js",
            "mark\u{200F}.js",
        ] {
            let answer = PlayerAnswer {
                files: vec![file(name, "1")],
                delete: vec![name.into()],
            };
            let problems = answer.problems(&[]);
            let at = problems
                .iter()
                .find(|v| v.path == "/files/0/path")
                .expect(name);
            assert!(at.message.contains("invisible"), "{name}: {}", at.message);
            for v in &problems {
                for text in [&v.message, &v.received] {
                    assert!(
                        !text.chars().any(roundtable_engine::text::is_invisible),
                        "{name}: shown raw in {text:?}"
                    );
                }
            }
            assert!(at.received.contains("\\u{"), "{name}: {}", at.received);
        }
        assert_eq!(
            roundtable_engine::text::escape_invisible("evil\u{202E}sj.txt"),
            "evil\\u{202E}sj.txt"
        );
        assert!(path_problem("lib/caf\u{e9}.js").is_none());
    }

    #[test]
    fn an_answer_longer_than_any_valid_file_set_is_refused_by_its_length() {
        let big = format!(
            r#"{{"files": [{{"path": "big.js", "content": "{}"}}], "delete": []}}"#,
            "x".repeat(limits::RAW_BYTES_MAX)
        );
        let e = check_player(&big, Options::default(), &[], &mut Vec::new()).unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, "");
        assert!(e[0].message.contains("bytes long"), "{}", e[0].message);
        // Within the raw limit, the file's own limit speaks at its pointer.
        let over = format!(
            r#"{{"files": [{{"path": "big.js", "content": "{}"}}], "delete": []}}"#,
            "x".repeat(limits::FILE_BYTES_MAX + 1)
        );
        let e = check_player(&over, Options::default(), &[], &mut Vec::new()).unwrap_err();
        assert_eq!(e[0].path, "/files/0/content");
    }

    fn file(path: &str, content: &str) -> FileWrite {
        FileWrite {
            path: path.into(),
            content: content.into(),
        }
    }

    #[test]
    fn a_file_set_reports_every_bad_path_duplicate_and_delete() {
        let existing = vec![CodeFile {
            path: "old.js".into(),
            content: "1".into(),
        }];
        let answer = PlayerAnswer {
            files: vec![
                file("lib/add.js", "x"),
                file("../etc/passwd", "x"),
                file("/abs.js", "x"),
                file("a\\b.js", "x"),
                file("lib//c.js", "x"),
                file("lib/add.js", "y"),
                file("big.js", &"z".repeat(limits::FILE_BYTES_MAX + 1)),
            ],
            delete: vec!["lib/add.js".into(), "missing.js".into(), "old.js".into()],
        };
        let got: Vec<(String, String)> = answer
            .problems(&existing)
            .into_iter()
            .map(|v| (v.path, v.message))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "/files/1/path".into(),
                    "the path leaves the project with ..: ../etc/passwd".into()
                ),
                (
                    "/files/2/path".into(),
                    "the path is absolute: /abs.js".into()
                ),
                (
                    "/files/3/path".into(),
                    "the path uses \\ instead of /: a\\b.js".into()
                ),
                (
                    "/files/4/path".into(),
                    "the path has an empty or . segment: lib//c.js".into()
                ),
                (
                    "/files/5/path".into(),
                    "lib/add.js is written twice in this turn".into()
                ),
                (
                    "/files/6/content".into(),
                    format!("big.js is {} bytes", limits::FILE_BYTES_MAX + 1)
                ),
                (
                    "/delete/0".into(),
                    "lib/add.js is both written and deleted".into()
                ),
                (
                    "/delete/1".into(),
                    "there is no file missing.js to delete".into()
                ),
            ]
        );
    }

    #[test]
    fn a_file_set_is_applied_over_the_files_as_they_stand() {
        let existing = vec![
            CodeFile {
                path: "a.js".into(),
                content: "1".into(),
            },
            CodeFile {
                path: "b.js".into(),
                content: "2".into(),
            },
        ];
        let answer = PlayerAnswer {
            files: vec![file("a.js", "3"), file("c.js", "4")],
            delete: vec!["b.js".into()],
        };
        assert!(answer.problems(&existing).is_empty());
        let after: Vec<(String, String)> = answer
            .apply(&existing)
            .into_iter()
            .map(|f| (f.path, f.content))
            .collect();
        assert_eq!(
            after,
            vec![("a.js".into(), "3".into()), ("c.js".into(), "4".into())]
        );
        let many = PlayerAnswer {
            files: (0..=limits::FILES_MAX)
                .map(|i| file(&format!("f{i}.js"), "x"))
                .collect(),
            delete: vec![],
        };
        assert_eq!(
            many.problems(&[]).last().unwrap().message,
            format!("the project would hold {} files", limits::FILES_MAX + 1)
        );
    }

    #[test]
    fn a_review_covers_each_requirement_once_and_approves_nothing_unmet() {
        let reqs = items("- adds\n- throws on text\n- has tests");
        let item = |id: &str, met: bool| CheckItem {
            requirement: id.into(),
            met,
            evidence: "the test ran".into(),
        };
        let review = CoachAnswer {
            checklist: vec![
                item("R1", true),
                item("R1", true),
                item("R9", true),
                item("R2", false),
            ],
            actions: vec!["Throw a TypeError in lib/add.js".into()],
            score: 0.5,
            approved: true,
        };
        let got: Vec<(String, String)> = review
            .problems(&reqs)
            .into_iter()
            .map(|v| (v.path, v.message))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "/checklist/1/requirement".into(),
                    "R1 is reviewed twice".into()
                ),
                (
                    "/checklist/2/requirement".into(),
                    "there is no requirement R9".into()
                ),
                ("/checklist".into(), "the review leaves out R3".into()),
                (
                    "/approved".into(),
                    "the code is approved while R2 is not met".into()
                ),
            ]
        );
        let good = CoachAnswer {
            checklist: vec![item("R1", true), item("R2", false), item("R3", true)],
            actions: vec!["Throw a TypeError in lib/add.js".into()],
            score: 0.6,
            approved: false,
        };
        assert!(good.problems(&reqs).is_empty());
        insta::assert_snapshot!("coach_feedback", good.feedback(&reqs));
    }
}
