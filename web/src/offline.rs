//! Offline after the first visit: registers the service worker (`static/sw.js`, its file list
//! written by the build) and tells the person, quietly, once a new version of the app has been
//! installed. A browser without service workers (or a page opened from a file) simply stays
//! online-only.
//!
//! Downloaded once: the worker is registered only when the page is idle ([`REGISTER_AFTER_MS`]
//! after start, then the browser's next idle period), so its install — which fetches the offline
//! list through the HTTP cache — finds the app the page already downloaded there and never
//! competes with the page's own first requests (the demo a person opens at once).

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::app::AppState;

/// The cache where the service worker leaves word that it replaced an older version.
const META_CACHE: &str = "roundtable-meta";
/// The entry it leaves there.
const UPDATED: &str = "updated";

/// Registers the service worker and shows "updated" when a new version took over (now, or while
/// the page is open).
pub fn start(state: AppState) {
    let Some(container) = web_sys::window()
        .and_then(|w| Reflect::get(&w.navigator(), &"serviceWorker".into()).ok())
        .filter(|c| !c.is_undefined() && !c.is_null())
    else {
        return;
    };
    let to_register = container.clone();
    when_idle(move || {
        if let Some(promise) = call(&to_register, "register", &"sw.js".into()) {
            // A refused registration (a host without HTTPS, a blocked worker) leaves the app
            // online-only.
            leptos::task::spawn_local(async move {
                let _ = JsFuture::from(promise).await;
            });
        }
    });
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let kind = Reflect::get(&ev.data(), &"type".into()).ok();
            if kind.and_then(|k| k.as_string()).as_deref() == Some("roundtable-updated") {
                leptos::task::spawn_local(announce_update(state));
            }
        });
    let target: &web_sys::EventTarget = container.unchecked_ref();
    let _ = target.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    on_message.forget();
    // Messages sent before the app started wait in a queue until it is opened.
    if let Ok(start) = Reflect::get(&container, &"startMessages".into()) {
        if let Ok(start) = start.dyn_into::<Function>() {
            let _ = start.call0(&container);
        }
    }
    leptos::task::spawn_local(announce_update(state));
}

/// How long after the app starts the worker's registration waits, at least: on a first visit the
/// page's own requests (the demo session a person opens at once) go first.
pub const REGISTER_AFTER_MS: i32 = 2_500;

/// Runs `f` once the page is idle: [`REGISTER_AFTER_MS`] from now, then the browser's next idle
/// period (`requestIdleCallback`, at most 5 s later; where there is none, at once).
fn when_idle(f: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let idle = Closure::once_into_js(f);
    let later = Closure::once_into_js(move || {
        let global = js_sys::global();
        let options = js_sys::Object::new();
        let _ = Reflect::set(&options, &"timeout".into(), &5_000.into());
        match Reflect::get(&global, &"requestIdleCallback".into())
            .ok()
            .and_then(|r| r.dyn_into::<Function>().ok())
        {
            Some(request) => {
                let _ = request.call2(&global, &idle, &options);
            }
            None => {
                if let Ok(f) = idle.dyn_into::<Function>() {
                    let _ = f.call0(&JsValue::NULL);
                }
            }
        }
    });
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
        later.unchecked_ref(),
        REGISTER_AFTER_MS,
    );
}

/// Shows the "updated" notice once, if the service worker left word of a new version.
async fn announce_update(state: AppState) {
    if take_update_word().await.unwrap_or(false) {
        state.info("Roundtable was updated to its latest version.");
    }
}

/// Whether word of an update was waiting (it is removed, so it is told once).
async fn take_update_word() -> Result<bool, JsValue> {
    let caches = Reflect::get(&js_sys::global(), &"caches".into())?;
    if caches.is_undefined() {
        return Ok(false);
    }
    let Some(open) = call(&caches, "open", &META_CACHE.into()) else {
        return Ok(false);
    };
    let cache = JsFuture::from(open).await?;
    let Some(found) = call(&cache, "match", &UPDATED.into()) else {
        return Ok(false);
    };
    if JsFuture::from(found).await?.is_undefined() {
        return Ok(false);
    }
    if let Some(delete) = call(&cache, "delete", &UPDATED.into()) {
        JsFuture::from(delete).await?;
    }
    Ok(true)
}

/// `target[method](arg)` when it returns a promise.
fn call(target: &JsValue, method: &str, arg: &JsValue) -> Option<Promise> {
    let f: Function = Reflect::get(target, &method.into()).ok()?.dyn_into().ok()?;
    f.call1(target, arg).ok()?.dyn_into().ok()
}
