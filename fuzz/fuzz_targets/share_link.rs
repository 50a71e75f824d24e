//! Fuzz target: the share-link decoder, then Import, as opening a `#s=…` link does. The first
//! byte picks what the rest is:
//! - `0`: the fragment as typed (any text);
//! - `1`: the deflated bytes a link carries, written with `share_link::encode`: decoding must give
//!   exactly what a plain inflate gives (or refuse when that fails or grows past the bound);
//! - `2`: a session file, deflated and encoded: decoding must give it back byte for byte.
//!
//! Whatever decodes goes through the file checks and Import. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roundtable_core::{export, share_link};
use roundtable_fuzz::{share_link_seeds, write_seeds_if_asked};

fuzz_target!(init: write_seeds_if_asked(share_link_seeds), |data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let decoded = match mode % 3 {
        0 => share_link::decode(&String::from_utf8_lossy(rest)),
        1 => {
            let link = share_link::encode(rest);
            let decoded = share_link::decode(&link);
            if link.len() <= share_link::MAX_LINK_CHARS + share_link::PREFIX.len() {
                let plain = miniz_oxide::inflate::decompress_to_vec_with_limit(
                    rest,
                    share_link::MAX_INFLATED_BYTES,
                );
                assert_eq!(decoded.as_ref().ok(), plain.as_ref().ok(), "decode ≠ inflate");
            }
            decoded
        }
        _ => {
            let deflated = miniz_oxide::deflate::compress_to_vec(rest, 6);
            let link = share_link::encode(&deflated);
            let decoded = share_link::decode(&link);
            if link.len() <= share_link::MAX_LINK_CHARS + share_link::PREFIX.len() {
                assert_eq!(decoded.as_deref(), Ok(rest), "a link does not give back its file");
            }
            decoded
        }
    };
    let Ok(bytes) = decoded else {
        return;
    };
    if let Ok(text) = export::text_of_file(&bytes) {
        let _ = export::from_file(text);
    }
});
