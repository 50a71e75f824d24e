//! When to try a failed call again, and after how long: the runner's retry policy, pure so it is
//! tested on the host.
//!
//! - Only errors that can pass are retried ([`ProviderError::is_retryable`]): a rate limit, an
//!   overloaded or failing server (529, 503, 5xx), a cut stream, the network. A used-up quota or
//!   credit, a rejected key, an unknown model, a refusal are not: the session pauses and says why.
//! - A provider's `Retry-After` is honoured as asked, up to [`RETRY_AFTER_CAP_MS`]; a provider
//!   that asks for longer gets no retry (the session pauses, the person resumes later) rather
//!   than a retry we know it will refuse.
//! - Otherwise the wait doubles per attempt from [`BASE_MS`] up to [`BACKOFF_CAP_MS`], with
//!   "equal jitter" (half fixed, half random) so parallel calls that failed together do not
//!   come back together. The randomness is a seed passed in, so the policy is deterministic.

use super::ProviderError;

/// Attempts per call (the first one included) before the session pauses.
pub const MAX_ATTEMPTS: u32 = 4;
/// The first backoff wait.
pub const BASE_MS: u64 = 1_000;
/// The longest backoff wait we choose ourselves.
pub const BACKOFF_CAP_MS: u64 = 30_000;
/// The longest `Retry-After` we wait for; beyond it the session pauses instead.
pub const RETRY_AFTER_CAP_MS: u64 = 120_000;

/// How long to wait before attempt `attempt + 1` of a call that failed with `err` at attempt
/// `attempt` (1-based), or `None` when it must not be retried. `seed` is any number that differs
/// between calls and attempts (a clock reading, a call id hash).
pub fn delay_ms(err: &ProviderError, attempt: u32, seed: u64) -> Option<u64> {
    if !err.is_retryable() || attempt >= MAX_ATTEMPTS {
        return None;
    }
    if let Some(asked) = err.retry_after_ms() {
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

    fn limited(after: Option<u64>) -> ProviderError {
        ProviderError::RateLimited {
            provider: "OpenAI",
            retry_after_ms: after,
            message: "slow down".into(),
        }
    }

    fn overloaded() -> ProviderError {
        ProviderError::Overloaded {
            provider: "Anthropic",
            status: 529,
            retry_after_ms: None,
            message: "Overloaded".into(),
        }
    }

    #[test]
    fn retry_after_is_honoured_and_a_long_one_pauses_instead() {
        let wait = delay_ms(&limited(Some(7_000)), 1, 42).unwrap();
        assert!((7_000..=7_250).contains(&wait), "{wait}");
        assert_eq!(
            delay_ms(&limited(Some(RETRY_AFTER_CAP_MS + 1)), 1, 42),
            None
        );
    }

    #[test]
    fn backoff_doubles_with_jitter_and_stays_under_the_cap() {
        for seed in 0..200 {
            for attempt in 1..MAX_ATTEMPTS {
                let exp = (BASE_MS << (attempt - 1)).min(BACKOFF_CAP_MS);
                let wait = delay_ms(&overloaded(), attempt, seed).unwrap();
                assert!((exp / 2..=exp).contains(&wait), "attempt {attempt}: {wait}");
            }
        }
        // the jitter really varies between seeds
        let waits: std::collections::BTreeSet<u64> = (0..50)
            .map(|s| delay_ms(&overloaded(), 2, s).unwrap())
            .collect();
        assert!(waits.len() > 40, "{waits:?}");
    }

    #[test]
    fn only_passing_errors_are_retried_and_only_so_often() {
        let quota = ProviderError::QuotaExhausted {
            provider: "OpenAI",
            message: "insufficient_quota".into(),
        };
        assert_eq!(delay_ms(&quota, 1, 1), None);
        assert_eq!(delay_ms(&ProviderError::Refused("no".into()), 1, 1), None);
        assert!(delay_ms(&ProviderError::Interrupted("cut".into()), 1, 1).is_some());
        assert!(delay_ms(&overloaded(), MAX_ATTEMPTS - 1, 1).is_some());
        assert_eq!(delay_ms(&overloaded(), MAX_ATTEMPTS, 1), None);
    }
}
