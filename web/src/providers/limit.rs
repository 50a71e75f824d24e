//! How many calls may be out at once on one provider (a setting per provider): a rate-limited
//! key or a local server that runs one model at a time does better with calls queued here than
//! with them all sent at once and refused or slowed down there.
//!
//! [`Limiter`] is a small first-come, first-served semaphore for one thread (the page's): a call
//! takes a [`Slot`] before its request goes out and gives it back when the answer is in (or the
//! call failed); a waiting call gets the slot handed over directly, so a newcomer never jumps the
//! queue. The setting is read at each call, so a change applies to the next call.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use futures::channel::oneshot;

use super::ProviderId;

/// The parallel calls a provider gets unless the person sets another number: one for servers
/// on this machine (they usually run one answer at a time), a few for the cloud.
pub fn default_limit(id: ProviderId) -> usize {
    match id {
        ProviderId::Ollama | ProviderId::Local => 1,
        ProviderId::Demo => usize::MAX,
        _ => 4,
    }
}

/// The most a person may set.
pub const MAX_LIMIT: usize = 32;

/// The settings key of a provider's limit.
pub fn setting(id: ProviderId) -> String {
    format!("limit:{}", id.as_str())
}

/// Reads a stored limit: a whole number from 1 to [`MAX_LIMIT`].
pub fn parse(text: &str) -> Option<usize> {
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_LIMIT).contains(n))
}

#[derive(Default)]
struct State {
    in_use: usize,
    waiting: VecDeque<oneshot::Sender<()>>,
}

/// A first-come, first-served semaphore for one thread.
#[derive(Clone, Default)]
pub struct Limiter(Rc<RefCell<State>>);

/// A taken place; given back (to the next in line, if any) when dropped.
pub struct Slot(Rc<RefCell<State>>);

impl Limiter {
    /// Waits for a place among `limit` (at least 1) and takes it.
    pub async fn acquire(&self, limit: usize) -> Slot {
        let rx = {
            let mut s = self.0.borrow_mut();
            if s.in_use < limit.max(1) && s.waiting.is_empty() {
                s.in_use += 1;
                return Slot(self.0.clone());
            }
            let (tx, rx) = oneshot::channel();
            s.waiting.push_back(tx);
            rx
        };
        // The slot is handed over by the one who gives it back; a closed channel cannot happen
        // while this future lives (the sender is kept until then), so either way we hold it.
        let _ = rx.await;
        Slot(self.0.clone())
    }

    /// Places taken now.
    #[cfg(test)]
    fn in_use(&self) -> usize {
        self.0.borrow().in_use
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut s = self.0.borrow_mut();
        while let Some(next) = s.waiting.pop_front() {
            if next.send(()).is_ok() {
                return; // the place goes straight to the next in line
            }
        }
        s.in_use -= 1;
    }
}

thread_local! {
    static LIMITERS: RefCell<HashMap<ProviderId, Limiter>> = RefCell::new(HashMap::new());
}

/// Takes a place among the calls out on `id`, waiting for one if the provider's limit (`limit`,
/// the person's setting as read with the provider's key and address, else [`default_limit`]) is
/// reached.
pub async fn acquire(id: ProviderId, limit: Option<usize>) -> Slot {
    let limit = limit.unwrap_or_else(|| default_limit(id));
    let limiter = LIMITERS.with(|l| l.borrow_mut().entry(id).or_default().clone());
    limiter.acquire(limit).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    fn poll<F: Future>(f: &mut Pin<Box<F>>) -> Poll<F::Output> {
        f.as_mut().poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn calls_beyond_the_limit_wait_and_go_in_order() {
        let limiter = Limiter::default();
        let mut a = Box::pin(limiter.acquire(2));
        let mut b = Box::pin(limiter.acquire(2));
        let mut c = Box::pin(limiter.acquire(2));
        let mut d = Box::pin(limiter.acquire(2));
        let Poll::Ready(slot_a) = poll(&mut a) else {
            panic!("a waits")
        };
        let Poll::Ready(slot_b) = poll(&mut b) else {
            panic!("b waits")
        };
        assert!(poll(&mut c).is_pending());
        assert!(poll(&mut d).is_pending());
        assert_eq!(limiter.in_use(), 2);
        drop(slot_b);
        // c was first in line: it gets the place, d still waits, and nobody counts twice
        let Poll::Ready(slot_c) = poll(&mut c) else {
            panic!("c still waits")
        };
        assert!(poll(&mut d).is_pending());
        assert_eq!(limiter.in_use(), 2);
        drop(slot_a);
        drop(slot_c);
        let Poll::Ready(slot_d) = poll(&mut d) else {
            panic!("d still waits")
        };
        drop(slot_d);
        assert_eq!(limiter.in_use(), 0);
    }

    #[test]
    fn a_waiter_that_went_away_does_not_keep_its_place() {
        let limiter = Limiter::default();
        let mut a = Box::pin(limiter.acquire(1));
        let Poll::Ready(slot) = poll(&mut a) else {
            panic!()
        };
        let mut gone = Box::pin(limiter.acquire(1));
        assert!(poll(&mut gone).is_pending());
        drop(gone);
        drop(slot);
        assert_eq!(limiter.in_use(), 0);
        let mut next = Box::pin(limiter.acquire(1));
        assert!(poll(&mut next).is_ready());
    }

    #[test]
    fn limits_are_read_within_bounds() {
        assert_eq!(parse(" 3 "), Some(3));
        assert_eq!(parse("0"), None);
        assert_eq!(parse("33"), None);
        assert_eq!(parse("two"), None);
        assert_eq!(default_limit(ProviderId::Ollama), 1);
        assert_eq!(default_limit(ProviderId::Anthropic), 4);
    }
}
