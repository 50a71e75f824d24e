//! The boundaries between the engine and the kinds hold, checked by the crate graph, imports
//! and words:
//! - the crate graph (`cargo metadata`) has only the edges the design allows: the engine
//!   depends on none of ours, each kind (`kinds/<kind>`) on the engine alone (tests included),
//!   `roundtable-core` assembles the engine and the kinds, the JS API and the web app depend on
//!   core — so no kind imports another, and a new kind is a crate and a registration line;
//! - inside the engine crate, every path its `engine` module names under `crate::` is on its
//!   allow-list (the engine, the validator's violations, money, shared text) — never the demo
//!   model or a provider's schema forms; nor does it name a kind's vocabulary in words;
//! - the validator's paths are on its own allow-list (itself, shared text and the one sort): each
//!   kind hands it its shapes, id rules and answer type; its walker names no kind's ids;
//! - the modules of each crate import each other without a cycle (test items left out wherever
//!   they stand).

#![allow(clippy::disallowed_methods)] // tests read their own files

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// What the engine may import from the rest of the crate, by module path prefix.
const ENGINE_MAY_IMPORT: &[&str] = &[
    "crate::engine",
    "crate::validate::Violation",
    "crate::validate::Report",
    "crate::cost",
    "crate::tagged",
    "crate::text",
];

/// What the validator may import from the rest of the crate.
const VALIDATE_MAY_IMPORT: &[&str] = &["crate::validate", "crate::text", "crate::order"];

/// Every `crate::…` path a Rust source names outside comments, with `use crate::{a, b::c}` groups
/// expanded (nested groups too).
fn crate_paths(source: &str) -> BTreeSet<String> {
    let code: String = source
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            rest = &rest["crate::".len()..];
            continue;
        }
        let (paths, used) = path_at(rest);
        out.extend(paths);
        rest = &rest[used.max(1)..];
    }
    out
}

/// The path(s) starting at `text` (which starts with a path segment), and the bytes read.
fn path_at(text: &str) -> (Vec<String>, usize) {
    let mut prefix = String::new();
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_alphanumeric() || c == '_' || c == ':' {
            prefix.push(c);
            i += 1;
        } else if c == '{' {
            // A group: split its items at top-level commas, each a path under the prefix.
            let mut depth = 0;
            let start = i + 1;
            let mut items = Vec::new();
            let mut item_start = start;
            let mut j = i;
            while j < bytes.len() {
                match bytes[j] as char {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            items.push(&text[item_start..j]);
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        items.push(&text[item_start..j]);
                        item_start = j + 1;
                    }
                    _ => {}
                }
                j += 1;
            }
            let mut out = Vec::new();
            for item in items {
                let item: String = item.split_whitespace().collect();
                if item.is_empty() {
                    continue;
                }
                if item == "self" {
                    out.push(prefix.trim_end_matches(':').to_string());
                    continue;
                }
                let (inner, _) = path_at(&item);
                out.extend(inner.into_iter().map(|p| format!("{prefix}{p}")));
            }
            return (out, j + 1);
        } else {
            break;
        }
    }
    let path = prefix.trim_end_matches(':').to_string();
    (vec![path], i)
}

fn allowed(path: &str, list: &[&str]) -> bool {
    list.iter()
        .any(|a| path == *a || path.starts_with(&format!("{a}::")))
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    rust_files(dir, &mut out);
    out.sort();
    out
}

#[test]
fn the_engine_imports_only_what_its_allow_list_names() {
    let dir = repo().join("engine/src/engine");
    let files = files_under(&dir);
    assert!(files.len() >= 5, "the engine's files are found");
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("readable");
        for path in crate_paths(&text) {
            if !allowed(&path, ENGINE_MAY_IMPORT) {
                found.push(format!("{}: {path}", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the engine imports outside its allow-list:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_validator_imports_only_its_allow_list() {
    let dir = repo().join("engine/src/validate");
    let files = files_under(&dir);
    assert!(files.len() >= 5, "the validator's files are found");
    let mut found = Vec::new();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = fs::read_to_string(&file).expect("readable");
        for path in crate_paths(&text) {
            if !allowed(&path, VALIDATE_MAY_IMPORT) {
                found.push(format!("{name}: {path}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the validator imports outside its allow-list:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_import_reader_finds_a_kinds_path_in_every_form() {
    let source = r#"
        use crate::engine::{Core, inbox::{PersonAsk, self}};
        use crate::protocol::team::wire::Halt; // crate::demo in a comment is not an import
        fn f() -> usize { crate::demo::rng::fnv1a(b"x") as usize + my_crate::x() }
    "#;
    let paths = crate_paths(source);
    let expected: BTreeSet<String> = [
        "crate::engine::Core",
        "crate::engine::inbox::PersonAsk",
        "crate::engine::inbox",
        "crate::protocol::team::wire::Halt",
        "crate::demo::rng::fnv1a",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(paths, expected);
    let refused: Vec<_> = paths
        .iter()
        .filter(|p| !allowed(p, ENGINE_MAY_IMPORT))
        .collect();
    assert_eq!(refused.len(), 2, "{refused:?}");
}

/// The repository's root (this crate is `core/`).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core sits in the repository")
        .to_path_buf()
}

/// The module a source file belongs to, for the import graph: `crate::X` for a top-level
/// module, `protocol::K` for a kind's folder.
fn module_of(path: &Path, src: &Path) -> String {
    let rel = path.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    match parts.as_slice() {
        [p, kind, ..] if p == "protocol" => format!("protocol::{kind}"),
        [first, ..] => first.clone(),
        [] => "lib".into(),
    }
}

/// The module a `crate::…` path names, as [`module_of`] names modules.
fn module_named(path: &str) -> String {
    let mut parts = path.trim_start_matches("crate::").split("::");
    match (parts.next(), parts.next()) {
        (Some("protocol"), Some(kind)) if kind.chars().all(|c| c.is_lowercase() || c == '_') => {
            format!("protocol::{kind}")
        }
        (Some(first), _) => first.to_string(),
        (None, _) => String::new(),
    }
}

/// No import cycle between the modules of any of our crates but the web app's (between crates,
/// cargo refuses one): a module imports the engine and the validator, never the other way round,
/// and a kind's modules build on one another in one direction.
#[test]
fn no_crate_has_an_import_cycle() {
    let mut crates = vec![repo().join("core/src"), repo().join("engine/src")];
    for kind in fs::read_dir(repo().join("kinds"))
        .expect("readable")
        .flatten()
    {
        if kind.path().join("src").is_dir() {
            crates.push(kind.path().join("src"));
        }
    }
    assert!(crates.len() >= 7, "the crates are found: {crates:?}");
    for src in crates {
        let mut graph: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
        for file in files_under(&src) {
            let text = fs::read_to_string(&file).expect("readable");
            // Tests inside a module may reach anything: only the code the module ships counts —
            // every item but those under `#[cfg(test)]`, wherever they stand in the file.
            let code = with_crate_paths(&without_test_items(&text), &file, &src);
            let from = module_of(&file, &src);
            for path in crate_paths(&code) {
                let to = module_named(&path);
                if to != from && !to.is_empty() {
                    graph.entry(from.clone()).or_default().insert(to);
                }
            }
        }
        assert!(
            graph.len() > 3,
            "the modules of {} are found: {:?}",
            src.display(),
            graph.keys()
        );
        assert_eq!(
            strongly_connected(&graph),
            Vec::<Vec<String>>::new(),
            "import cycles between the modules of {}",
            src.display()
        );
    }
}

/// `source` with its `super::` paths that reach the crate's root spelt `crate::` (a kind's
/// modules name their siblings either way), so the import graph sees them.
fn with_crate_paths(source: &str, file: &Path, src: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let mut depth = rel.iter().count();
    if rel.file_name().is_some_and(|f| f == "mod.rs") {
        depth -= 1;
    }
    if depth == 0 {
        return source.to_string();
    }
    let up = "super::".repeat(depth);
    let mut out = source.replace(&up, "crate::");
    // A module's own `super::` one level under the root names its parent's siblings too.
    if depth == 2 {
        let parent = rel.iter().next().expect("a folder").to_string_lossy();
        out = out.replace("super::", &format!("crate::{parent}::"));
    }
    out
}

#[test]
fn a_super_path_to_the_root_reads_as_a_crate_path() {
    let src = Path::new("/k/src");
    assert_eq!(
        with_crate_paths("use super::wire::Step;", Path::new("/k/src/view.rs"), src),
        "use crate::wire::Step;"
    );
    assert_eq!(
        with_crate_paths(
            "use super::super::wire::Step;",
            Path::new("/k/src/demo/chair.rs"),
            src
        ),
        "use crate::wire::Step;"
    );
    assert_eq!(
        with_crate_paths("use super::Ctx;", Path::new("/k/src/demo/chair.rs"), src),
        "use crate::demo::Ctx;"
    );
    assert_eq!(
        with_crate_paths("use super::Ctx;", Path::new("/k/src/demo/mod.rs"), src),
        "use crate::Ctx;"
    );
}

/// `source` without the items compiled only for tests: each `#[cfg(test)]` and the item after it
/// (up to its `;`, or its `{ … }` block, braces counted), so shipped code after a test item is
/// still read.
fn without_test_items(source: &str) -> String {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = String::new();
    let mut rest = source;
    while let Some(i) = rest.find(ATTR) {
        out.push_str(&rest[..i]);
        let item = &rest[i + ATTR.len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (k, c) in item.char_indices() {
            match c {
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_test_item_stripper_keeps_shipped_code_after_a_test_item() {
    let source = "use crate::a;\n#[cfg(test)]\nuse crate::b;\nfn f() { crate::c::g() }\n#[cfg(test)]\nmod tests {\n    use crate::d;\n    fn t() { let _ = format!(\"{}\", 1); }\n}\nfn h() { crate::e::g() }\n";
    let kept = crate_paths(&without_test_items(source));
    let names: Vec<&str> = kept.iter().map(String::as_str).collect();
    assert_eq!(names, ["crate::a", "crate::c::g", "crate::e::g"]);
}

/// Whom each of our crates may depend on (normal, dev and build dependencies alike): the engine
/// on none of ours, a kind on the engine alone, core on the engine and the kinds, the JS API and
/// the web app on core. `"kind"` stands for every crate under `kinds/`.
const ALLOWED_EDGES: &[(&str, &[&str])] = &[
    ("roundtable-engine", &[]),
    ("kind", &["roundtable-engine"]),
    ("roundtable-core", &["roundtable-engine", "kind"]),
    ("roundtable-core-js", &["roundtable-core"]),
    ("roundtable-web", &["roundtable-core"]),
];

/// The workspace's crates as `cargo metadata` lists them: name, whether it is a kind (its
/// manifest under `kinds/`), and the names of our crates it depends on.
fn crate_graph() -> Vec<(String, bool, Vec<String>)> {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(repo())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let kinds_dir = repo().join("kinds");
    meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            let manifest = Path::new(p["manifest_path"].as_str().expect("a manifest"));
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter_map(|d| d["name"].as_str())
                .filter(|n| n.starts_with("roundtable-"))
                .map(str::to_string)
                .collect();
            (
                p["name"].as_str().expect("a name").to_string(),
                manifest.starts_with(&kinds_dir),
                deps,
            )
        })
        .collect()
}

#[test]
fn the_crate_graph_has_only_the_edges_the_design_allows() {
    let graph = crate_graph();
    let kinds: Vec<&str> = graph
        .iter()
        .filter(|(_, kind, _)| *kind)
        .map(|(n, ..)| n.as_str())
        .collect();
    assert!(kinds.len() >= 5, "the kinds' crates are found: {kinds:?}");
    let mut wrong = Vec::new();
    for (name, kind, deps) in &graph {
        let role = if *kind { "kind" } else { name.as_str() };
        let allowed = ALLOWED_EDGES
            .iter()
            .find(|(r, _)| *r == role)
            .unwrap_or_else(|| panic!("{name} is a crate the design does not name"))
            .1;
        for dep in deps {
            let dep_role = if kinds.contains(&dep.as_str()) {
                "kind"
            } else {
                dep.as_str()
            };
            if !allowed.contains(&dep_role) {
                wrong.push(format!("{name} → {dep}"));
            }
        }
    }
    assert_eq!(
        wrong,
        Vec::<String>::new(),
        "edges the design does not allow"
    );
    // Core assembles every kind.
    let core = graph
        .iter()
        .find(|(n, ..)| n == "roundtable-core")
        .expect("core");
    for kind in &kinds {
        assert!(
            core.2.iter().any(|d| d == kind),
            "core does not register {kind}"
        );
    }
}

/// The strongly connected parts of more than one module, each sorted, in order.
fn strongly_connected(
    graph: &std::collections::BTreeMap<String, BTreeSet<String>>,
) -> Vec<Vec<String>> {
    // Two modules are in one part when each reaches the other.
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let modules: BTreeSet<String> = graph
        .iter()
        .flat_map(|(k, v)| std::iter::once(k.clone()).chain(v.iter().cloned()))
        .collect();
    let reaches: std::collections::BTreeMap<String, BTreeSet<String>> =
        modules.iter().map(|m| (m.clone(), reach(m))).collect();
    let mut parts: BTreeSet<Vec<String>> = BTreeSet::new();
    for m in &modules {
        let part: Vec<String> = modules
            .iter()
            .filter(|o| *o == m || (reaches[m].contains(*o) && reaches[*o].contains(m)))
            .cloned()
            .collect();
        if part.len() > 1 {
            parts.insert(part);
        }
    }
    parts.into_iter().collect()
}

#[test]
fn the_cycle_finder_finds_a_cycle_and_nothing_else() {
    let graph = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")]
        .iter()
        .fold(
            std::collections::BTreeMap::<String, BTreeSet<String>>::new(),
            |mut g, (f, t)| {
                g.entry(f.to_string()).or_default().insert(t.to_string());
                g
            },
        );
    assert_eq!(
        strongly_connected(&graph),
        vec![vec!["a".to_string(), "b".into(), "c".into()]]
    );
}

/// Words that belong to one kind or another (module names, roles, steps, shapes).
const PROTOCOL_WORDS: &[&str] = &[
    "team",
    "meeting",
    "dialectic",
    "autocoding",
    "review_loop",
    "chair",
    "operative",
    "inspector",
    "envoy",
    "orchestrator",
    "charter",
    "product",
    "tree",
    "bootstrap",
    "plan_assign",
    "peer_review",
    "presentation",
    "phase",
    "minutes",
    "thesis",
    "critic",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_engine_names_no_protocol() {
    let dir = repo().join("engine/src/engine");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(files.len() >= 5, "the engine's files are found");
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("readable").to_lowercase();
        for (n, line) in text.lines().enumerate() {
            for word in PROTOCOL_WORDS {
                let hit = line.match_indices(word).any(|(i, _)| {
                    let before = line[..i].chars().next_back();
                    let after = line[i + word.len()..].chars().next();
                    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
                    edge(before) && (edge(after) || after == Some('s') || after == Some('_'))
                });
                if hit {
                    found.push(format!("{}:{}: {word}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the engine names a protocol:\n{}",
        found.join("\n")
    );
}

/// The team's id vocabulary: what its id scope (`protocol/team/ids.rs`) knows and the validator's
/// walker must not.
const ID_WORDS: &[&str] = &[
    "team",
    "meeting",
    "product",
    "version",
    "collab",
    "member",
    "recipient",
    "treeoperations",
    "newid",
    "new-n",
    "attendee",
];

#[test]
fn the_validators_walker_names_no_kinds_ids() {
    let dir = repo().join("engine/src/validate");
    let mut found = Vec::new();
    // The walker, the parsing under it, the shapes and their generator: which strings are ids,
    // and their rules, are each kind's id scope. (`mod.rs` says in its docs which kind's API is
    // built on it, and where.)
    for name in [
        "check.rs",
        "json.rs",
        "tape.rs",
        "shape.rs",
        "shape_gen.rs",
        "runtime/mod.rs",
        "runtime/eval.rs",
        "runtime/format.rs",
        "runtime/order.rs",
        "runtime/tests.rs",
        "recover.rs",
        "report.rs",
        "tests.rs",
    ] {
        let text = fs::read_to_string(dir.join(name))
            .expect("readable")
            .to_lowercase();
        for (n, line) in text.lines().enumerate() {
            for word in ID_WORDS {
                let hit = line.match_indices(word).any(|(i, _)| {
                    let before = line[..i].chars().next_back();
                    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
                    edge(before)
                });
                if hit {
                    found.push(format!("{name}:{}: {word}", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the validator's walker names a kind's ids:\n{}",
        found.join("\n")
    );
}
