//! A tiny seeded random generator for the demo model, so that core stays free of any random source.
//!
//! SplitMix64 (Steele, Lea, Flood 2014) is a few lines, passes BigCrush for this use, and — unlike
//! an OS or thread-local generator — gives the same stream for the same seed on every platform,
//! native and wasm32 alike. That is what makes a demo session replayable: the seed comes in with the
//! model, each call derives its own stream from the seed and what the call is about.

/// SplitMix64: a 64-bit state advanced by a constant, then mixed.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose whole stream is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n == 0`, so callers indexing an empty list fail loudly later
    /// rather than here). The modulo bias is below 2⁻⁵⁰ for the small `n` the demo uses.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        den != 0 && self.next_u64() % den < num
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The stable hash that folds what a call is about into its seed.
pub use crate::hash::fnv1a;

/// Mixes several parts into one seed; the separator keeps `("ab", "c")` apart from `("a", "bc")`.
pub fn mix(seed: u64, parts: &[&str]) -> u64 {
    let mut acc = SplitMix64::new(seed).next_u64();
    for part in parts {
        acc ^= fnv1a(part.as_bytes());
        acc = SplitMix64::new(acc).next_u64();
        acc ^= 0x1f;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_stream() {
        // First outputs of the reference implementation for seed 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = SplitMix64::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let x = r.below(5);
            assert!(x < 5);
            seen[x] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn mix_separates_parts() {
        assert_ne!(mix(1, &["ab", "c"]), mix(1, &["a", "bc"]));
        assert_eq!(mix(1, &["ab", "c"]), mix(1, &["ab", "c"]));
        assert_ne!(mix(1, &["x"]), mix(2, &["x"]));
    }
}
