//! Fuzz target: any bytes as a session file handed to Import. The first byte's low bit asks the
//! target to re-seal the file first (recompute its checksum over the events as written), so that
//! mutated logs get past the checksum into migration, replay and the snapshot and member checks;
//! without it the bytes go in exactly as given. Nothing may panic, and a file that imports must
//! export to a file that imports to the same session.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roundtable_core::export;
use roundtable_fuzz::{import_seeds, reseal, write_seeds_if_asked};

fuzz_target!(init: write_seeds_if_asked(import_seeds), |data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = export::text_of_file(rest) else {
        return;
    };
    let resealed;
    let text = if mode & 1 == 1 {
        match reseal(text) {
            Some(t) => {
                resealed = t;
                resealed.as_str()
            }
            None => text,
        }
    } else {
        text
    };
    let Ok(session) = export::from_file(text) else {
        return;
    };
    let again = export::to_file(&session, 1_700_000_000_000);
    let back = export::from_file(&again).expect("an exported file imports again");
    assert_eq!(back.view(), session.view(), "export → import changed the session");
    let _ = export::markdown_report(&session);
});
