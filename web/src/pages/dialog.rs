//! What every modal dialog does with the keyboard: Tab and Shift+Tab stay inside it (the page
//! behind is `aria-modal` and unreachable), and focus comes back to where it was when it closes.

use wasm_bindgen::JsCast;

/// The focusable elements inside `dialog`, in tab order.
fn focusables(dialog: &web_sys::Element) -> Vec<web_sys::HtmlElement> {
    const SELECTOR: &str = "button:not([disabled]), a[href], input:not([disabled]), \
        select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";
    let Ok(list) = dialog.query_selector_all(SELECTOR) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(visible)
        .collect()
}

/// Whether Tab can reach `el`: rendered, and not inside a closed `<details>` (Chromium keeps
/// that content laid out with `content-visibility: hidden`, so `offsetParent` is not enough).
fn visible(el: &web_sys::HtmlElement) -> bool {
    if el.offset_parent().is_none() {
        return false;
    }
    let check = js_sys::Reflect::get(el, &"checkVisibility".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match check {
        Some(f) => f.call0(el).ok().and_then(|v| v.as_bool()).unwrap_or(true),
        None => true,
    }
}

/// Keeps Tab inside `dialog`: from the last control to the first and back. Call it from the
/// dialog's `keydown`.
pub fn trap_tab(ev: &web_sys::KeyboardEvent, dialog: &web_sys::Element) {
    if ev.key() != "Tab" {
        return;
    }
    let items = focusables(dialog);
    let (Some(first), Some(last)) = (items.first(), items.last()) else {
        ev.prevent_default();
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let at = |e: &web_sys::HtmlElement| {
        active
            .as_ref()
            .is_some_and(|a| a == e.unchecked_ref::<web_sys::Element>())
    };
    let inside = active.as_ref().is_some_and(|a| dialog.contains(Some(a)));
    if ev.shift_key() && (at(first) || !inside) {
        ev.prevent_default();
        let _ = last.focus();
    } else if !ev.shift_key() && (at(last) || !inside) {
        ev.prevent_default();
        let _ = first.focus();
    }
}

/// Focuses the first control in `dialog` that matches `preferred`, else the first control.
pub fn focus_first(dialog: &web_sys::Element, preferred: &str) {
    let el = dialog
        .query_selector(preferred)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .or_else(|| focusables(dialog).into_iter().next());
    if let Some(el) = el {
        let _ = el.focus();
    }
}

/// The element that has focus now, to give it back when a dialog closes.
pub fn active() -> Option<web_sys::HtmlElement> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}
