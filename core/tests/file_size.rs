//! What a session file costs per call. The log stores each fact once: no state envelope (rebuilt
//! on demand), no conversation repeated by a repair or a re-ask, and each repeated line of the
//! prompts written once in the file. A deterministic figure, so a test of the target: at most
//! 9 KB per call on the 6-operative demo session, pretty-printed (37 KB in schema version 1).

use roundtable_core::engine::ModelRef;
use roundtable_core::export;
use roundtable_core::protocol::team::demo::{self, DemoModel};
use roundtable_core::protocol::team::{TeamConfig, TeamSession};
use roundtable_core::session::Session;

fn per_call(operatives: usize, seed: u64) -> (usize, usize, String) {
    let model = ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    };
    let config = TeamConfig::standard(
        "Plan a two-day workshop for twelve people on customer interviews; budget £2,000.",
        operatives,
        true,
        true,
        model,
    );
    let mut s = TeamSession::new(config, 0).unwrap();
    let mut now = 1;
    demo::play(&mut s, &DemoModel::new(seed), &mut now, 1000).unwrap();
    let calls = s.state().core.calls.len();
    let text = export::to_file(&Session::of_kind(s), now);
    (text.len() / calls, calls, text)
}

#[test]
fn a_session_file_stores_each_fact_once() {
    for seed in [1, 2, 3] {
        let (bytes, calls, text) = per_call(6, seed);
        println!("6 operatives, seed {seed}: {calls} calls, {bytes} bytes per call");
        assert!(bytes <= 9_000, "{bytes} bytes per call");
        assert!(!text.contains("\"envelope\""), "no envelope is stored");
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        for e in file["events"].as_array().unwrap() {
            if e["kind"]["type"] == "call_issued" {
                let call = &e["kind"]["call"];
                let has_messages = call.get("messages").is_some();
                assert_eq!(has_messages, call["kind"] == "initial", "{call}");
            }
        }
        // What was sent is still there whole: the transcript of a repair shows the conversation.
        let back = export::from_file(&text).unwrap();
        let team = back.as_team().unwrap();
        for rec in &team.state().core.calls {
            assert!(
                rec.call.messages.len() >= 2,
                "{} has its conversation",
                rec.call.id
            );
        }
    }
}

/// A file the previous build exported (schema version 1) still opens: migrated, checksum checked,
/// replayed; and tampering with it is still caught.
#[test]
fn a_version_1_file_still_imports_and_tampering_is_still_caught() {
    let text = include_str!("files/v1-demo.roundtable.json");
    assert!(text.contains("\"schema_version\": 1,"));
    let session = export::from_file(text).expect("a v1 file imports");
    let team = session.as_team().expect("a team session");
    assert_eq!(team.status().word(), "done");
    assert!(team.state().core.calls.len() > 10);
    // Written again, it is a current-version file that reads back to the same session.
    let again = export::to_file(&session, 1);
    assert!(again.contains("\"schema_version\": 3,"));
    assert_eq!(export::from_file(&again).unwrap(), session);
    let tampered = text.replacen("\"round\": 1", "\"round\": 2", 1);
    assert_ne!(tampered, text);
    assert!(matches!(
        export::from_file(&tampered),
        Err(export::ImportError::Checksum { .. })
    ));
}

/// Files of schema version 2 (every line written in full), one of each kind, still open, read
/// back equal once written in the current version, and tampering with them is still caught.
#[test]
fn version_2_files_of_each_kind_still_import() {
    for (text, kind) in [
        (include_str!("files/v2-team.roundtable.json"), "team"),
        (include_str!("files/v2-meeting.roundtable.json"), "meeting"),
    ] {
        assert!(text.contains("\"schema_version\": 2,"));
        let session = export::from_file(text).expect("a v2 file imports");
        assert_eq!(session.kind().name(), kind);
        assert_eq!(session.status_word(), "done");
        let again = export::to_file(&session, 1);
        assert!(again.contains("\"schema_version\": 3,"));
        assert!(
            again.contains("\\n@@"),
            "the new file shares repeated lines"
        );
        assert!(
            again.len() < text.len(),
            "{} vs {}",
            again.len(),
            text.len()
        );
        assert_eq!(export::from_file(&again).unwrap(), session);
        // Tampering with a shared line of the new file is caught like any other edit.
        let at = again.find("\\n@@").unwrap() + 4;
        let mut tampered = again.clone();
        tampered.replace_range(
            at..at + 1,
            if &again[at..at + 1] == "1" { "2" } else { "1" },
        );
        assert!(matches!(
            export::from_file(&tampered),
            Err(export::ImportError::Checksum { .. })
        ));
    }
}

/// The envelope a call was built from is rebuilt on demand, equal to the one its prompt came from.
#[test]
fn the_envelope_of_a_call_is_rebuilt_from_the_log() {
    let model = ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    };
    let config = TeamConfig::standard("Write a short guide.", 2, false, false, model);
    let mut s = TeamSession::new(config, 0).unwrap();
    s.start(1).unwrap();
    let mut now = 2;
    let mut seen = Vec::new();
    for _ in 0..6 {
        if s.status().word() == "awaiting_person" {
            now += 1;
            s.answer_halt("Go ahead.", now).unwrap();
        }
        let due = s.calls_due();
        for call in &due {
            seen.push((call.id.clone(), call.envelope.clone()));
        }
        for call in due {
            let a = DemoModel::new(4).answer_call(&call);
            now += 1;
            s.submit(&call.id, &a.text, None, now).unwrap();
        }
    }
    assert!(seen.len() >= 4);
    for (id, envelope) in seen {
        assert_eq!(s.envelope_of(&id).as_ref(), Some(&envelope), "{id}");
    }
    assert_eq!(s.envelope_of("call-999"), None);
}
