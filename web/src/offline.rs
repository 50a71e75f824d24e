//! Offline after the first visit: registers the service worker (`static/sw.js`, its file list
//! written by the build) and tells the person, quietly, once a new version of the app has been
//! installed. A browser without service workers (or a page opened from a file) simply stays
//! online-only.

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
    if let Some(promise) = call(&container, "register", &"sw.js".into()) {
        // A refused registration (a host without HTTPS, a blocked worker) leaves the app online-only.
        leptos::task::spawn_local(async move {
            let _ = JsFuture::from(promise).await;
        });
    }
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
