//! Fuzz target: any bytes, read as text, through the web app's Markdown renderer (the same source
//! files, compiled natively) and core's report defanger. Nothing may panic, and the HTML must pass
//! the renderer's own inertness check (only listed tags and attributes, only absolute
//! `http(s)`/`mailto` links, every tag closed in order).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code, unused_imports)]
#[path = "../../web/src/markdown/mod.rs"]
mod markdown;

fuzz_target!(init: roundtable_fuzz::write_seeds_if_asked(roundtable_fuzz::markdown_seeds), |data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    let html = markdown::to_safe_html(&source);
    markdown::inert::assert_inert(&html, &source);
    markdown::inert::assert_nested(&html, &source);
    let _ = roundtable_core::safe_markdown::defang(&source);
});
