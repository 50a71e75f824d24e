//! FNV-1a, 64 bits: one stable hash for what must come out the same on every machine and Rust
//! release (`std`'s `DefaultHasher` may change between releases) — a session file's checksum, a
//! demo call's seed, a review call's nonce. Not a cryptographic hash.

/// FNV-1a over `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}
