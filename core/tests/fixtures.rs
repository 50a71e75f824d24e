//! The fixture corpus: real-looking model answers for every step, valid and broken, each with a
//! sidecar `<name>.expect.json` saying the exact pointers of its errors.
//!
//! Layout: `fixtures/<step>/{valid,invalid}/<name>.{json,txt}` plus `<name>.expect.json`
//! (`errorPaths`, `shapeOnly`, optional `known` overriding `fixtures/known.json`, optional
//! `note`). `.txt` answers need recovery (fences, prose, comments…) or are not JSON at all.
//! `fixtures/index.json` lists every fixture for the Node tests (ajv must agree with
//! `validateStep` on every `shapeOnly` one); it is checked here against the sidecars, and
//! rewritten with `UPDATE_FIXTURE_INDEX=1 cargo test --test fixtures`.
#![allow(clippy::disallowed_methods)] // Tests read their fixture files and the environment.

use std::fs;
use std::path::{Path, PathBuf};

use roundtable_core::protocol::team::check::RepairPrompt as _;
use roundtable_core::protocol::team::check::{check_step, validate_step, Known};
use roundtable_core::protocol::team::wire::Step;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Expect {
    error_paths: Vec<String>,
    shape_only: bool,
    #[serde(default)]
    known: Option<Known>,
}

struct Fixture {
    step: Step,
    /// Relative to the fixtures folder, with `/`.
    file: String,
    text: String,
    valid: bool,
    expect: Expect,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn load() -> Vec<Fixture> {
    let mut out = Vec::new();
    for step in Step::ALL {
        for (kind, valid) in [("valid", true), ("invalid", false)] {
            let dir = root().join(step.wire_name()).join(kind);
            let mut names: Vec<PathBuf> = fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .filter(|p| {
                    let name = p.file_name().unwrap().to_str().unwrap();
                    !name.ends_with(".expect.json")
                        && (name.ends_with(".json") || name.ends_with(".txt"))
                })
                .collect();
            names.sort();
            for path in names {
                let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
                let sidecar = dir.join(format!("{stem}.expect.json"));
                let expect: Expect = serde_json::from_str(
                    &fs::read_to_string(&sidecar)
                        .unwrap_or_else(|e| panic!("{}: {e}", sidecar.display())),
                )
                .unwrap_or_else(|e| panic!("{}: {e}", sidecar.display()));
                let file = format!(
                    "{}/{kind}/{}",
                    step.wire_name(),
                    path.file_name().unwrap().to_str().unwrap()
                );
                out.push(Fixture {
                    step,
                    file,
                    text: fs::read_to_string(&path).unwrap(),
                    valid,
                    expect,
                });
            }
        }
    }
    out
}

fn default_known() -> Known {
    serde_json::from_str(&fs::read_to_string(root().join("known.json")).unwrap()).unwrap()
}

#[test]
fn every_step_has_valid_and_invalid_fixtures() {
    let all = load();
    for step in Step::ALL {
        for valid in [true, false] {
            let n = all
                .iter()
                .filter(|f| f.step == step && f.valid == valid)
                .count();
            assert!(n >= 2, "{step}: only {n} fixtures with valid={valid}");
        }
    }
}

#[test]
fn every_fixture_gives_exactly_its_expected_errors() {
    let default = default_known();
    let mut failures = Vec::new();
    for f in load() {
        let known = f.expect.known.as_ref().unwrap_or(&default);
        let verdict = check_step(f.step, &f.text, Some(known));
        let paths: Vec<&str> = verdict.errors.iter().map(|e| e.path.as_str()).collect();
        if paths != f.expect.error_paths {
            failures.push(format!(
                "{}: expected {:?}, got {:#?}",
                f.file, f.expect.error_paths, verdict.errors
            ));
            continue;
        }
        assert_eq!(
            f.valid,
            paths.is_empty(),
            "{}: a fixture under valid/ must have no errors, one under invalid/ some",
            f.file
        );
        let typed = validate_step(f.step, &f.text, Some(known));
        assert_eq!(
            typed.is_ok(),
            f.valid,
            "{}: validate_step disagrees with check_step",
            f.file
        );
        if let Err(report) = typed {
            let prompt = report.repair_prompt();
            for e in &report.errors {
                assert!(
                    prompt.contains(&e.message),
                    "{}: repair prompt misses {e:?}",
                    f.file
                );
            }
        }
        if f.valid {
            // The recovered text is what the JS side hands to JSON.parse: it must be plain JSON.
            let value: Value = serde_json::from_str(&verdict.json)
                .unwrap_or_else(|e| panic!("{}: recovered text is not JSON: {e}", f.file));
            assert!(value.is_object(), "{}", f.file);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn shape_only_fixtures_need_no_recovery_and_no_known_ids() {
    let default = default_known();
    for f in load().into_iter().filter(|f| f.expect.shape_only) {
        assert!(
            f.file.ends_with(".json"),
            "{}: shape-only fixtures are plain JSON files",
            f.file
        );
        let with = check_step(
            f.step,
            &f.text,
            Some(f.expect.known.as_ref().unwrap_or(&default)),
        );
        let without = check_step(f.step, &f.text, None);
        assert_eq!(
            with.errors, without.errors,
            "{}: the verdict must not depend on known ids",
            f.file
        );
        assert!(
            without.warnings.iter().all(|w| !w.path.is_empty()),
            "{}: a shape-only fixture must need no recovery: {:?}",
            f.file,
            without.warnings
        );
        serde_json::from_str::<Value>(&f.text)
            .unwrap_or_else(|e| panic!("{}: not strict JSON: {e}", f.file));
    }
}

#[test]
fn index_lists_every_fixture() {
    let entries: Vec<Value> = load()
        .iter()
        .map(|f| {
            json!({
                "step": f.step.wire_name(),
                "file": f.file,
                "valid": f.valid,
                "shapeOnly": f.expect.shape_only,
                "errorPaths": f.expect.error_paths,
                "known": f.expect.known.is_some().then(|| serde_json::to_value(f.expect.known.as_ref()).unwrap()),
            })
        })
        .collect();
    let index = json!({
        "about": "Every fixture of core/tests/fixtures. Paths are relative to this folder. Check each with `known` (or known.json when null). shapeOnly fixtures need no recovery and no id checks: ajv on stepSchema(step, {strict: false}) must agree with validateStep on them.",
        "defaultKnown": "known.json",
        "fixtures": entries,
    });
    let text = serde_json::to_string_pretty(&index).unwrap() + "\n";
    let path = root().join("index.json");
    if std::env::var_os("UPDATE_FIXTURE_INDEX").is_some() {
        fs::write(&path, &text).unwrap();
    }
    let on_disk = fs::read_to_string(&path).unwrap_or_default();
    assert!(on_disk == text, "index.json is stale: run UPDATE_FIXTURE_INDEX=1 cargo test -p roundtable-core --test fixtures");
}

// ---- robustness: nothing panics, and the checker agrees with serde --------------------------

/// One edit of a fixture, the way answers get damaged: a cut, a deleted range, inserted text,
/// a duplicated range.
#[derive(Debug, Clone)]
enum Edit {
    Truncate(usize),
    Delete(usize, usize),
    Insert(usize, String),
    Duplicate(usize, usize),
}

fn apply(text: &str, edit: &Edit) -> String {
    let cut = |i: usize| {
        let mut i = i % (text.len() + 1);
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match edit {
        Edit::Truncate(at) => text[..cut(*at)].to_string(),
        Edit::Delete(a, len) => {
            let a = cut(*a);
            let b = cut(a + len % 40);
            let b = b.max(a);
            format!("{}{}", &text[..a], &text[b..])
        }
        Edit::Insert(at, s) => {
            let at = cut(*at);
            format!("{}{s}{}", &text[..at], &text[at..])
        }
        Edit::Duplicate(a, len) => {
            let a = cut(*a);
            let b = cut(a + len % 200).max(a);
            format!("{}{}", &text[..b], &text[a..])
        }
    }
}

fn edit_strategy() -> impl proptest::strategy::Strategy<Value = Edit> {
    use proptest::prelude::*;
    let snippet = prop_oneof![
        Just(",".to_string()),
        Just("}".to_string()),
        Just("]".to_string()),
        Just("\"".to_string()),
        Just("\\".to_string()),
        Just("\n".to_string()),
        Just("True".to_string()),
        Just("null".to_string()),
        Just("// c\n".to_string()),
        Just("“".to_string()),
        Just("```".to_string()),
        Just("{\"a\":1}".to_string()),
        Just("\\ud83d".to_string()),
        Just("1e999".to_string()),
        "[ -~]{0,8}",
        "\\PC{0,4}",
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, l)| Edit::Delete(a, l)),
        (any::<usize>(), snippet).prop_map(|(a, s)| Edit::Insert(a, s)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, l)| Edit::Duplicate(a, l)),
    ]
}

/// What must hold for any text: no panic, and a passing verdict means serde reads the
/// recovered text too (the checker is never more lenient than the typed value).
fn holds_for(step: Step, text: &str, known: &Known) {
    for k in [None, Some(known)] {
        let verdict = check_step(step, text, k);
        let typed = validate_step(step, text, k);
        assert_eq!(verdict.is_ok(), typed.is_ok(), "{step} {text:?}: {typed:?}");
        if verdict.is_ok() {
            let value: Value = serde_json::from_str(&verdict.json).expect("recovered text is JSON");
            assert!(value.is_object());
        } else {
            for e in &verdict.errors {
                assert!(e.path.is_empty() || e.path.starts_with('/'), "{e:?}");
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}", step in 0usize..7) {
        holds_for(Step::ALL[step], &text, &default_known());
    }

    #[test]
    fn json_ish_text_never_panics(text in "[{}\\[\\]\":,a-z0-9 \\\\\n.eE+-]{0,120}", step in 0usize..7) {
        holds_for(Step::ALL[step], &text, &default_known());
    }

    #[test]
    fn damaged_fixtures_never_panic(index in proptest::prelude::any::<usize>(), edits in proptest::collection::vec(edit_strategy(), 1..4)) {
        let fixtures = load();
        let f = &fixtures[index % fixtures.len()];
        let mut text = f.text.clone();
        for edit in &edits {
            text = apply(&text, edit);
        }
        holds_for(f.step, &text, &default_known());
    }
}
