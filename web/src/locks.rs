//! One writer per session across tabs, with the Web Locks API.
//!
//! The tab that opens a session asks for the lock `roundtable-session-<id>` with `ifAvailable`;
//! if it gets it, it is the writer until it releases it (leaving the page, closing the tab or
//! crashing releases it too). A second tab gets no lock and shows a read-only view that follows
//! the writer's changes through a `BroadcastChannel`. Browsers without Web Locks (or pages outside
//! a secure context) are treated as the only tab.

use roundtable_core::order::Collect as _;
use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Name of the channel writers announce committed changes on.
pub const CHANNEL: &str = "roundtable-sessions";

/// The message prefix a tab sends on [`CHANNEL`] to ask the writer of a session to give it up
/// (Take over): `release:<id>`.
pub const RELEASE: &str = "release:";

/// The Web Locks name of a session.
fn lock_name(session_id: &str) -> String {
    format!("roundtable-session-{session_id}")
}

/// The Web Locks manager, if the browser has one.
fn manager() -> Option<(JsValue, js_sys::Function)> {
    let navigator = leptos::prelude::window().navigator();
    let locks = js_sys::Reflect::get(&navigator, &JsValue::from_str("locks")).ok()?;
    if locks.is_undefined() || locks.is_null() {
        return None;
    }
    let request = js_sys::Reflect::get(&locks, &JsValue::from_str("request")).ok()?;
    request
        .is_function()
        .then(|| (locks, request.unchecked_into()))
}

/// Waits in line for a session's lock and calls `on_granted` with it when this tab gets it (the
/// writer closed or gave it up). `shared`: a watcher's lock, given back at once by the caller.
/// `abort` withdraws the request. Without Web Locks, nothing happens.
pub fn queue(
    session_id: &str,
    shared: bool,
    abort: Option<&web_sys::AbortSignal>,
    on_granted: impl FnOnce(SessionLock) + 'static,
) {
    let Some((locks, request)) = manager() else {
        return;
    };
    let options = js_sys::Object::new();
    if shared {
        let _ = js_sys::Reflect::set(&options, &"mode".into(), &"shared".into());
    }
    if let Some(signal) = abort {
        let _ = js_sys::Reflect::set(&options, &"signal".into(), signal);
    }
    let callback = Closure::once_into_js(move |_lock: JsValue| -> JsValue {
        let release: Rc<RefCell<Option<js_sys::Function>>> = Rc::new(RefCell::new(None));
        let slot = release.clone();
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            *slot.borrow_mut() = Some(resolve);
        });
        on_granted(SessionLock { release });
        promise.into()
    });
    if let Ok(p) = request.call3(&locks, &lock_name(session_id).into(), &options, &callback) {
        // A withdrawn request rejects: that is expected, not an error to report.
        let ignore = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {});
        let _ = p.unchecked_into::<js_sys::Promise>().catch(&ignore);
        ignore.forget();
    }
}

/// Ids of the sessions some tab holds the lock of (is running or showing as the writer).
pub async fn held() -> Option<std::collections::BTreeSet<String>> {
    let (locks, _) = manager()?;
    let query: js_sys::Function = js_sys::Reflect::get(&locks, &"query".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: js_sys::Promise = query.call0(&locks).ok()?.dyn_into().ok()?;
    let snapshot = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let held = js_sys::Reflect::get(&snapshot, &"held".into()).ok()?;
    let held: js_sys::Array = held.dyn_into().ok()?;
    Some(
        held.iter()
            .filter_map(|l| js_sys::Reflect::get(&l, &"name".into()).ok()?.as_string())
            .filter_map(|n| n.strip_prefix("roundtable-session-").map(str::to_string))
            .to_set(),
    )
}

/// Asks the tab that writes a session to give it up (it stops, pauses and becomes read-only).
pub fn ask_to_release(session_id: &str) {
    if let Ok(channel) = web_sys::BroadcastChannel::new(CHANNEL) {
        let _ = channel.post_message(&JsValue::from_str(&format!("{RELEASE}{session_id}")));
        channel.close();
    }
}

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
    let name = JsValue::from_str(&lock_name(session_id));
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
