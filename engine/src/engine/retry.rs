//! When a failed model call is tried again, and after how long: the retry policy. Core decides
//! and records it (each retry is a `call_retried` event in the log, so the transcript and a
//! replay show it); the runner only waits and makes the call again.
//!
//! - Only failures that can pass are retried ([`Failure::passing`]): a rate limit, an overloaded
//!   or failing server (529, 503, 5xx), a cut stream, the network. A used-up quota or credit, a
//!   rejected key, an unknown model, a refusal are not: the session pauses and says why.
//! - A provider's `Retry-After` is honoured as asked, up to [`RETRY_AFTER_CAP_MS`]; a provider
//!   that asks for longer gets no retry (the session pauses, the person resumes later) rather
//!   than a retry we know it will refuse.
//! - Otherwise the wait doubles per attempt from [`BASE_MS`] up to [`BACKOFF_CAP_MS`], with
//!   "equal jitter" (half fixed, half random) so parallel calls that failed together do not
//!   come back together. The randomness is a seed the runner passes in, so the policy is
//!   deterministic.

/// Attempts per call (the first one included) before the session pauses.
pub const MAX_ATTEMPTS: u32 = 4;
/// The first backoff wait.
pub const BASE_MS: u64 = 1_000;
/// The longest backoff wait we choose ourselves.
pub const BACKOFF_CAP_MS: u64 = 30_000;
/// The longest `Retry-After` we wait for; beyond it the session pauses instead.
pub const RETRY_AFTER_CAP_MS: u64 = 120_000;

/// What the runner knows of a failed call that decides whether it is tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure {
    /// The failure can pass by itself (a rate limit, an overloaded server, the network).
    pub passing: bool,
    /// How long the provider asked us to wait (its `Retry-After`), if it said.
    pub retry_after_ms: Option<u64>,
}

/// How long to wait before attempt `attempt + 1` of a call whose attempt `attempt` (1-based)
/// failed with `failure`, or `None` when it must not be tried again. `seed` is any number that
/// differs between calls and attempts (a clock reading).
pub fn delay_ms(failure: Failure, attempt: u32, seed: u64) -> Option<u64> {
    if !failure.passing || attempt >= MAX_ATTEMPTS {
        return None;
    }
    if let Some(asked) = failure.retry_after_ms {
        // A little on top, so we arrive just after the window opens, not just before.
        return (asked <= RETRY_AFTER_CAP_MS).then(|| asked + jitter(seed, 250));
    }
    let exp = BASE_MS
        .saturating_mul(1u64 << (attempt - 1).min(16))
        .min(BACKOFF_CAP_MS);
    Some(exp / 2 + jitter(seed, exp / 2))
}

/// A number in `0..=span` from `seed` (splitmix64: well spread even for consecutive seeds).
fn jitter(seed: u64, span: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    z % (span + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERLOADED: Failure = Failure {
        passing: true,
        retry_after_ms: None,
    };

    fn limited(after: u64) -> Failure {
        Failure {
            passing: true,
            retry_after_ms: Some(after),
        }
    }

    #[test]
    fn retry_after_is_honoured_and_a_long_one_pauses_instead() {
        let wait = delay_ms(limited(7_000), 1, 42).unwrap();
        assert!((7_000..=7_250).contains(&wait), "{wait}");
        assert_eq!(delay_ms(limited(RETRY_AFTER_CAP_MS + 1), 1, 42), None);
    }

    #[test]
    fn backoff_doubles_with_jitter_and_stays_under_the_cap() {
        for seed in 0..200 {
            for attempt in 1..MAX_ATTEMPTS {
                let exp = (BASE_MS << (attempt - 1)).min(BACKOFF_CAP_MS);
                let wait = delay_ms(OVERLOADED, attempt, seed).unwrap();
                assert!((exp / 2..=exp).contains(&wait), "attempt {attempt}: {wait}");
            }
        }
        // the jitter really varies between seeds
        let waits: std::collections::BTreeSet<u64> = (0..50)
            .map(|s| delay_ms(OVERLOADED, 2, s).unwrap())
            .collect();
        assert!(waits.len() > 40, "{waits:?}");
    }

    #[test]
    fn only_passing_failures_are_retried_and_only_so_often() {
        let lasting = Failure {
            passing: false,
            retry_after_ms: None,
        };
        assert_eq!(delay_ms(lasting, 1, 1), None);
        assert!(delay_ms(OVERLOADED, MAX_ATTEMPTS - 1, 1).is_some());
        assert_eq!(delay_ms(OVERLOADED, MAX_ATTEMPTS, 1), None);
    }
}
