//! Team logs written before the engine had an inbox: the chair's "the work is done" was stored as
//! a `halt_raised` event whose halt had `"type": "done"`. The engine no longer knows that word —
//! ending the rounds is the team's verdict, recorded as `rounds_ended` with the answer's call —
//! so such an event is rewritten to that form before the log is decoded. Every other event is
//! left exactly as it was (a file's checksum is verified on its text before this runs).

use serde_json::{json, Value};

/// Whether an event's text may hold a `done` halt (the cheap test run on every event).
fn may_hold_done_halt(text: &str) -> bool {
    text.contains("halt_raised") && text.contains("\"done\"")
}

/// The log (one JSON text per event) with every `done` halt rewritten as the `rounds_ended` it
/// means now, or `None` when there is none (the common case costs one substring scan per event).
pub fn done_halts<S: AsRef<str>>(events: &[S]) -> Option<Vec<String>> {
    if !events.iter().any(|e| may_hold_done_halt(e.as_ref())) {
        return None;
    }
    let mut values = events
        .iter()
        .map(|e| serde_json::from_str::<Value>(e.as_ref()))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    rewrite(&mut values);
    Some(values.iter().map(Value::to_string).collect())
}

/// The same for a log held as one JSON array (a session file's `events`).
pub fn done_halts_in_array(text: &str) -> Option<String> {
    if !may_hold_done_halt(text) {
        return None;
    }
    let mut values: Vec<Value> = serde_json::from_str(text).ok()?;
    rewrite(&mut values).then(|| Value::Array(values).to_string())
}

/// Rewrites every `done` halt in place; whether there was one.
fn rewrite(events: &mut [Value]) -> bool {
    let mut changed = false;
    for i in 0..events.len() {
        let kind = &events[i]["kind"];
        if kind["type"] != "halt_raised" || kind["halt"]["type"] != "done" {
            continue;
        }
        let call_id = kind["call_id"].as_str().unwrap_or_default().to_string();
        let by = events[..i]
            .iter()
            .rev()
            .map(|e| &e["kind"])
            .find(|k| k["type"] == "call_issued" && k["call"]["id"] == call_id.as_str())
            .and_then(|k| k["call"]["member"].as_str())
            .unwrap_or_default()
            .to_string();
        let kind = &events[i]["kind"];
        let ended = json!({
            "type": "rounds_ended",
            "by": by,
            "call_id": call_id,
            "message": kind["halt"]["message"].clone(),
            "warnings": kind["warnings"].clone(),
        });
        events[i]["kind"] = ended;
        changed = true;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_done_halt_becomes_the_end_of_the_rounds_and_nothing_else_changes() {
        let log = [
            r#"{"seq":0,"at":1,"kind":{"type":"call_issued","call":{"id":"call-7","member":"chair"}}}"#,
            r#"{"seq":1,"at":2,"kind":{"type":"halt_raised","call_id":"call-7","halt":{"type":"done","to":["user-1"],"message":"All accepted."},"warnings":[]}}"#,
            r#"{"seq":2,"at":3,"kind":{"type":"halt_raised","call_id":"call-8","halt":{"type":"question","to":["user-1"],"message":"done?"},"warnings":[]}}"#,
        ];
        let out = done_halts(&log).expect("rewritten");
        let ended: Value = serde_json::from_str(&out[1]).unwrap();
        assert_eq!(
            ended["kind"],
            json!({"type":"rounds_ended","by":"chair","call_id":"call-7","message":"All accepted.","warnings":[]})
        );
        assert_eq!(
            serde_json::from_str::<Value>(&out[2]).unwrap(),
            serde_json::from_str::<Value>(log[2]).unwrap()
        );
        assert!(done_halts(&log[2..]).is_none(), "a question stays as it is");
        let array = format!("[{}]", log.join(","));
        let rewritten: Vec<Value> =
            serde_json::from_str(&done_halts_in_array(&array).unwrap()).unwrap();
        assert_eq!(rewritten[1], ended);
    }
}
