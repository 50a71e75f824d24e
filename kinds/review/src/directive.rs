//! What a call of the review loop asks its model to acknowledge: the run's id and a nonce of the
//! call's own. thehood's directive carries the same pair; a model that answers an earlier
//! directive (a stale context, a copied answer) shows it by its nonce.
//!
//! The nonce is derived from the run id and the call id, never drawn at random: replaying,
//! importing or forking a session yields the same nonces, and a late answer to a superseded call
//! (which the engine already refuses by its call id) names a nonce this module can place.

use roundtable_engine::hash::fnv1a;

/// The nonce of call `call_id` in run `run_id`: `n` and 16 hex digits.
pub fn nonce(run_id: &str, call_id: &str) -> String {
    let mut bytes = Vec::with_capacity(run_id.len() + call_id.len() + 1);
    bytes.extend_from_slice(run_id.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(call_id.as_bytes());
    format!("n{:016x}", fnv1a(&bytes))
}

/// What one call's answer must acknowledge, and the nonces of the run's earlier calls (so an
/// answer to one of those is named for what it is, not only "wrong").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// The run's id, as the prompt states it.
    pub run_id: String,
    /// This call's nonce ([`nonce`]).
    pub nonce: String,
    /// The nonces of the run's calls issued before this one.
    pub earlier: Vec<String>,
}

impl Directive {
    /// The directive of call `call_id`, after the calls `earlier` of the same run.
    pub fn for_call<'a>(
        run_id: &str,
        call_id: &str,
        earlier: impl IntoIterator<Item = &'a str>,
    ) -> Directive {
        Directive {
            run_id: run_id.into(),
            nonce: nonce(run_id, call_id),
            earlier: earlier.into_iter().map(|c| nonce(run_id, c)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonce_is_the_calls_own_and_the_same_on_every_replay() {
        let a = nonce("run-7", "call-3");
        assert_eq!(a, nonce("run-7", "call-3"));
        assert_eq!(a.len(), 17);
        assert!(a.starts_with('n'));
        assert_ne!(a, nonce("run-7", "call-4"));
        assert_ne!(a, nonce("run-8", "call-3"));
        // The separator keeps ("run-7c", "all-3") apart from ("run-7", "call-3").
        assert_ne!(a, nonce("run-7c", "all-3"));
        let d = Directive::for_call("run-7", "call-3", ["call-1", "call-2"]);
        assert_eq!(d.nonce, a);
        assert_eq!(
            d.earlier,
            vec![nonce("run-7", "call-1"), nonce("run-7", "call-2")]
        );
    }
}
