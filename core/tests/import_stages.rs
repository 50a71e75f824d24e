//! An import in three stages (check the envelope, read the events, replay them), which the app runs
//! with the page breathing in between: the stages give exactly what `from_file` gives, and hostile
//! files are refused at the first stage that can tell, with a reason and without a panic.

use roundtable_core::export::{self, ImportError};
use roundtable_core::session::Kind;

const FILES: [(&str, &str, Kind); 4] = [
    (
        "the shipped demo",
        include_str!("../../static/demo/demo-session.roundtable.json"),
        Kind::Team,
    ),
    (
        "a v1 file",
        include_str!("files/v1-demo.roundtable.json"),
        Kind::Team,
    ),
    (
        "a v2 team file",
        include_str!("files/v2-team.roundtable.json"),
        Kind::Team,
    ),
    (
        "a v2 meeting",
        include_str!("files/v2-meeting.roundtable.json"),
        Kind::Meeting,
    ),
];

#[test]
fn the_stages_give_what_from_file_gives_for_every_kind_and_version() {
    for (name, text, kind) in FILES {
        let checked = export::check_file(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(checked.kind(), kind, "{name}");
        assert!(checked.events_bytes() > 0, "{name}");
        let read = checked.read().unwrap();
        assert!(!read.is_empty(), "{name}");
        let session = read.replay().unwrap();
        let direct = export::from_file(text).unwrap();
        assert_eq!(
            session.events_json(0).unwrap(),
            direct.events_json(0).unwrap(),
            "{name}"
        );
        assert_eq!(session.title(), direct.title(), "{name}");
    }
}

/// The reader takes a tagged object fast when its tag comes first (as the app writes), and any
/// other key order the slow way: a file whose keys were sorted (as a `serde_json::Value` writes
/// them, so every event's `type` comes after its other fields) opens to the same session.
#[test]
fn a_file_with_its_keys_sorted_opens_to_the_same_session() {
    for (name, text, _) in FILES {
        let mut file: serde_json::Value = serde_json::from_str(text).unwrap();
        let events = file["events"].to_string();
        assert!(
            events.contains(r#""kind":{"call":{"#),
            "{name}: no event has a field before its tag"
        );
        file["checksum"] = export::checksum_of_text(&events).into();
        let sorted = export::from_file(&file.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let direct = export::from_file(text).unwrap();
        assert_eq!(
            sorted.events_json(0).unwrap(),
            direct.events_json(0).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn a_10000_deep_document_is_refused_at_once_wherever_the_nesting_is() {
    let deep = |inner: &str| format!("{}{inner}{}", "[".repeat(10_000), "]".repeat(10_000));
    let top = deep("1");
    assert!(matches!(
        export::from_file(&top),
        Err(ImportError::NotJson(_))
    ));
    let (_, demo, _) = FILES[0];
    for field in ["events", "snapshot", "title", "extra"] {
        // Written last, so it is the value that counts when the field is also there earlier.
        let end = demo.rfind('}').unwrap();
        let mut text = format!("{},\"{field}\": {}", &demo[..end], deep("0"));
        if field == "events" {
            // With a checksum that matches, so the nesting itself is what is refused.
            let checksum = export::checksum_of_text(&deep("0"));
            text.push_str(&format!(",\"checksum\": \"{checksum}\""));
        }
        text.push('}');
        let err = export::from_file(&text).expect_err(field);
        assert!(
            matches!(err, ImportError::NotJson(_) | ImportError::Malformed(_)),
            "{field}: {err}"
        );
    }
}

#[test]
fn an_envelope_of_the_wrong_types_names_the_field() {
    let (_, demo, _) = FILES[0];
    let value: serde_json::Value = serde_json::from_str(demo).unwrap();
    for (field, bad) in [
        ("title", serde_json::json!(7)),
        ("appVersion", serde_json::json!(null)),
        ("exportedAt", serde_json::json!("yesterday")),
    ] {
        let mut edited = value.clone();
        edited[field] = bad;
        let err = export::from_file(&edited.to_string()).unwrap_err();
        assert_eq!(
            err,
            ImportError::Malformed(format!(
                "the field `{field}` is not {}",
                if field == "exportedAt" {
                    "a whole number"
                } else {
                    "text"
                }
            ))
        );
    }
    // A file of version 2 or later names its kind as text and saves its snapshot: a kind that
    // is not text is not read as an old team file, and a null snapshot does not skip the check
    // of the replayed state. (Version 1 files, which had neither, still open: see above.)
    let mut checked = 0;
    for (_, text, _) in FILES {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        if value["schema_version"].as_u64().unwrap() < 2 {
            continue;
        }
        checked += 1;
        for (field, bad, why) in [
            ("kind", serde_json::json!(5), "the field `kind` is not text"),
            (
                "kind",
                serde_json::json!(null),
                "the field `kind` is not text",
            ),
            (
                "snapshot",
                serde_json::json!(null),
                "the field `snapshot` is not the session's saved state",
            ),
        ] {
            // Written last (the value that counts), the events' text untouched.
            let end = text.rfind('}').unwrap();
            let edited = format!("{},\"{field}\": {bad}}}", &text[..end]);
            assert_eq!(
                export::from_file(&edited).unwrap_err(),
                ImportError::Malformed(why.into()),
                "{field}"
            );
        }
    }
    assert!(checked >= 3, "the shipped demo and both v2 files");
    let mut edited = value.clone();
    edited.as_object_mut().unwrap().remove("events");
    assert_eq!(
        export::from_file(&edited.to_string()).unwrap_err(),
        ImportError::Malformed("missing field `events`".into())
    );
}

#[test]
fn owned_bytes_become_text_or_say_where_they_stop_being_text() {
    let (_, demo, _) = FILES[0];
    assert_eq!(export::into_text(demo.as_bytes().to_vec()).unwrap(), demo);
    let mut bytes = b"{\"format\":".to_vec();
    bytes.push(0xff);
    assert_eq!(
        export::into_text(bytes.clone()),
        Err(ImportError::NotText { at: 10 })
    );
    assert_eq!(
        export::text_of_file(&bytes),
        Err(ImportError::NotText { at: 10 })
    );
}
