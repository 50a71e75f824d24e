//! Fuzz target: any bytes, read as text, through the team validator's `check_step` and
//! `validate_step` for every step, with and without known ids. Nothing may panic, and the two
//! entry points must agree. (The meeting's validator, and the team's through the engine, are the
//! `answer` target.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use roundtable_core::protocol::team::check::RepairPrompt as _;
use roundtable_core::protocol::team::check::{check_step, validate_step, Known};
use roundtable_core::protocol::team::wire::Step;
use roundtable_fuzz::{validate_seeds, write_seeds_if_asked};

fuzz_target!(init: write_seeds_if_asked(validate_seeds), |data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let known = Known {
        products: ["p1", "p2", "p3"].map(String::from).into(),
        versions: ["v1", "v2"].map(String::from).into(),
        members: ["chair", "operative-1", "user-1"].map(String::from).into(),
        collabs: ["c1"].map(String::from).into(),
    };
    for step in Step::ALL {
        for k in [None, Some(&known)] {
            let verdict = check_step(step, &text, k);
            let typed = validate_step(step, &text, k);
            assert_eq!(
                verdict.is_ok(),
                typed.is_ok(),
                "{step}: checker and serde disagree"
            );
            if let Err(report) = typed {
                assert!(!report.errors.is_empty());
                let _ = report.repair_prompt();
            }
        }
    }
});
