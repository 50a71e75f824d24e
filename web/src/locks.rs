//! One writer per session across tabs, with the Web Locks API.
//!
//! The tab that opens a session asks for the lock `roundtable-session-<id>` with `ifAvailable`;
//! if it gets it, it is the writer until it releases it (leaving the page, closing the tab or
//! crashing releases it too). A second tab gets no lock and shows a read-only view that follows
//! the writer's changes through a `BroadcastChannel`. Browsers without Web Locks (or pages outside
//! a secure context) are treated as the only tab.

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Name of the channel writers announce committed changes on.
pub const CHANNEL: &str = "roundtable-sessions";

/// A held lock; dropping it does not release it, call [`SessionLock::release`].
pub struct SessionLock {
    release: Rc<RefCell<Option<js_sys::Function>>>,
}

impl SessionLock {
    /// Lets another tab become the writer.
    pub fn release(&self) {
        if let Some(f) = self.release.borrow_mut().take() {
            let _ = f.call0(&JsValue::NULL);
        }
    }
}

/// Tries to become the writer of a session. `Ok(Some)` = this tab writes; `Ok(None)` = another
/// tab holds it.
pub async fn try_acquire(session_id: &str) -> Option<SessionLock> {
    let release: Rc<RefCell<Option<js_sys::Function>>> = Rc::new(RefCell::new(None));
    let navigator = leptos::prelude::window().navigator();
    let locks = js_sys::Reflect::get(&navigator, &JsValue::from_str("locks")).ok();
    let Some(locks) = locks.filter(|l| !l.is_undefined() && !l.is_null()) else {
        return Some(SessionLock { release });
    };
    let request: js_sys::Function =
        match js_sys::Reflect::get(&locks, &JsValue::from_str("request")) {
            Ok(f) if f.is_function() => f.unchecked_into(),
            _ => return Some(SessionLock { release }),
        };
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"ifAvailable".into(), &JsValue::TRUE);
    let (tx, rx) = oneshot::channel::<bool>();
    let tx = Rc::new(RefCell::new(Some(tx)));
    let release_slot = release.clone();
    let callback = Closure::once_into_js(move |lock: JsValue| -> JsValue {
        let granted = !lock.is_null();
        if let Some(tx) = tx.borrow_mut().take() {
            let _ = tx.send(granted);
        }
        if !granted {
            return JsValue::UNDEFINED;
        }
        // Hold the lock until release() resolves this promise.
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            *release_slot.borrow_mut() = Some(resolve);
        });
        promise.into()
    });
    let name = JsValue::from_str(&format!("roundtable-session-{session_id}"));
    if request.call3(&locks, &name, &options, &callback).is_err() {
        return Some(SessionLock { release });
    }
    match rx.await {
        Ok(true) => Some(SessionLock { release }),
        Ok(false) => None,
        Err(_) => Some(SessionLock { release }),
    }
}

/// Tells other tabs that a session changed.
pub fn announce(session_id: &str) {
    if let Ok(channel) = web_sys::BroadcastChannel::new(CHANNEL) {
        let _ = channel.post_message(&JsValue::from_str(session_id));
        channel.close();
    }
}

thread_local! {
    static HELD: RefCell<std::collections::HashMap<String, SessionLock>> =
        RefCell::new(std::collections::HashMap::new());
}

/// Keeps a lock for as long as this tab has the session open.
pub fn hold(session_id: &str, lock: SessionLock) {
    HELD.with(|h| {
        if let Some(old) = h.borrow_mut().insert(session_id.to_string(), lock) {
            old.release();
        }
    });
}

/// Releases this tab's lock on a session, if it holds one.
pub fn release(session_id: &str) {
    if let Some(lock) = HELD.with(|h| h.borrow_mut().remove(session_id)) {
        lock.release();
    }
}
