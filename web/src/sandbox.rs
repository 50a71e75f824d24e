//! The runner's side of the code sandbox: performs a kind's `run_code` effect (autocoding's
//! player's files) with `static/sandbox/host.js` — an opaque-origin iframe hosting a Worker,
//! removed at the wall-clock limit — and turns its answer into the effect's output, the run
//! core's fold reads (`{status, tests, errors}`).
//!
//! A crash guard keeps a run that took the page down from being run again: before a run starts,
//! its effect id is stored (`sandbox:running:<session>` in the settings store); once its output
//! is committed the mark goes. A page that finds the mark of an effect still owed hands in
//! core's `code_run::interrupted` outcome instead of running the code again.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::storage;

#[wasm_bindgen(raw_module = "./sandbox/host.js")]
extern "C" {
    /// `runInSandbox(files, { limitMs })` of `static/sandbox/host.js` (Trunk copies
    /// `static/sandbox/` beside the app's files, so the import resolves next to the glue).
    #[wasm_bindgen(js_name = runInSandbox)]
    fn run_in_sandbox(files: JsValue, options: JsValue) -> js_sys::Promise;
}

/// The name of the effect this module performs (the kind's own spelling).
pub use roundtable_core::code_run::RUN_CODE;

/// Where the crash guard's mark for a session is kept.
fn guard_key(session: &str) -> String {
    format!("sandbox:running:{session}")
}

/// The effect a run of `session` left unfinished when the page went away, if any.
pub async fn started_before(session: &str) -> Option<String> {
    storage::get_setting(&guard_key(session))
        .await
        .ok()
        .flatten()
}

/// Marks `effect` as started (awaited before the code runs, so a crash finds it).
pub async fn mark_started(session: &str, effect: &str) -> Result<(), String> {
    storage::set_setting(&guard_key(session), Some(effect))
        .await
        .map_err(|e| e.to_string())
}

/// Removes the mark once the run's output is committed.
pub async fn clear(session: &str) {
    let _ = storage::set_setting(&guard_key(session), None).await;
}

/// Runs the effect's files (`input.files`: `[{path, content}]`) within `input.limit_ms`, and
/// returns what core reads: the status, each test, and each file that did not load — a run that
/// could not start says why as an error of its own.
pub async fn run(input: &Value) -> Value {
    let files: Vec<Value> = input["files"]
        .as_array()
        .map(|fs| {
            fs.iter()
                .map(|f| json!({ "path": f["path"], "text": f["content"] }))
                .collect()
        })
        .unwrap_or_default();
    let limit = input["limit_ms"].as_u64().unwrap_or(5_000);
    let to_js = |v: &Value| js_sys::JSON::parse(&v.to_string()).unwrap_or(JsValue::NULL);
    let promise = run_in_sandbox(to_js(&json!(files)), to_js(&json!({ "limitMs": limit })));
    let answer = match wasm_bindgen_futures::JsFuture::from(promise).await {
        Ok(a) => js_sys::JSON::stringify(&a)
            .ok()
            .and_then(|s| s.as_string())
            .and_then(|s| serde_json::from_str::<Value>(&s).ok())
            .unwrap_or(Value::Null),
        Err(e) => json!({ "status": "error", "message": format!("{e:?}") }),
    };
    output_of(&answer)
}

/// The sandbox's answer reduced to the run core keeps: a message with no test or file error
/// (a run that could not start, or was stopped) becomes an error of its own.
fn output_of(answer: &Value) -> Value {
    let status = answer["status"].as_str().unwrap_or("error");
    let tests = answer["tests"].as_array().cloned().unwrap_or_default();
    let mut errors = answer["errors"].as_array().cloned().unwrap_or_default();
    let message = answer["message"].as_str().unwrap_or("");
    if errors.is_empty() && !message.is_empty() && matches!(status, "error" | "timed_out") {
        errors.push(json!({ "file": "", "message": message }));
    }
    json!({ "status": status, "tests": tests, "errors": errors })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_run_keeps_its_reason_and_drops_what_core_does_not_read() {
        let out = output_of(&json!({
            "status": "timed_out", "tests": [], "errors": [], "logs": ["x"], "ms": 6001,
            "message": "the run took longer than 5000 ms and was stopped"
        }));
        assert_eq!(
            out,
            json!({ "status": "timed_out", "tests": [], "errors": [
                { "file": "", "message": "the run took longer than 5000 ms and was stopped" }
            ] })
        );
        let passed = json!({ "status": "passed", "tests": [{ "file": "a.test.js", "name": "t", "passed": true, "message": "" }], "errors": [], "message": "" });
        assert_eq!(output_of(&passed)["tests"], passed["tests"]);
        assert_eq!(output_of(&passed)["errors"], json!([]));
    }
}
