//! Small browser helpers: the clock, ids, dates for people, focus after a render, downloads and file
//! reading.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Moves focus to the first element matching `selector` once the page has drawn (a form's first
/// field that needs attention, after its errors render), and brings it into view below the
/// sticky header: focus alone scrolls only to the nearest edge, so a tall field half under the
/// header (a phone, the person at the bottom of the form) would stay there. Aligned to the top,
/// it lands below the header (the stylesheet's `scroll-padding-top`), its message under it.
pub fn focus_after_render(selector: &'static str) {
    leptos::prelude::request_animation_frame(move || {
        let document = leptos::prelude::document();
        if let Ok(Some(el)) = document.query_selector(selector) {
            let el = el.unchecked_into::<web_sys::HtmlElement>();
            let _ = el.focus();
            let rect = el.get_bounding_client_rect();
            let header = document
                .query_selector(".app-top")
                .ok()
                .flatten()
                .map_or(0.0, |h| h.get_bounding_client_rect().bottom());
            let height = leptos::prelude::window()
                .inner_height()
                .ok()
                .and_then(|h| h.as_f64())
                .unwrap_or(f64::MAX);
            if rect.top() < header || rect.bottom() > height {
                el.scroll_into_view_with_bool(true);
            }
        }
    });
}

/// Milliseconds since the epoch, from the browser's clock (core never reads one).
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Today's date in UTC as `YYYY-MM-DD`, from the browser's clock: the day a price is charged
/// for (a published price can change on a date, `providers::price::Next`).
pub fn today() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.chars().take(10).collect()
}

/// A fresh random id for a session.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// "3 min ago", "yesterday", or a date, for the sessions list.
pub fn ago(then_ms: f64, now_ms: f64) -> String {
    let s = ((now_ms - then_ms) / 1000.0).max(0.0) as u64;
    match s {
        0..=44 => "just now".into(),
        45..=89 => "1 min ago".into(),
        90..=3599 => format!("{} min ago", s.div_ceil(60)),
        3600..=86399 => format!("{} h ago", s / 3600),
        86400..=172799 => "yesterday".into(),
        _ => {
            let d = js_sys::Date::new(&JsValue::from_f64(then_ms));
            format!(
                "{:04}-{:02}-{:02}",
                d.get_full_year(),
                d.get_month() + 1,
                d.get_date()
            )
        }
    }
}

/// 12345 → "12.3k", for token counts. Integer arithmetic (rounding half up): no float
/// formatting code in the wasm for it.
pub fn short_count(n: u64) -> String {
    let (unit, suffix) = match n {
        0..=999 => return n.to_string(),
        1000..=999_999 => (1000, "k"),
        _ => (1_000_000, "M"),
    };
    let tenths = (n + unit / 20) / (unit / 10);
    format!("{}.{}{suffix}", tenths / 10, tenths % 10)
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| format!("{e:?}"))?;
    let document = leptos::prelude::document();
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.style().set_property("display", "none").ok();
    document.body().map(|b| b.append_child(&a));
    a.click();
    a.remove();
    // Revoke later: Chromium reads the blob asynchronously after click().
    let url2 = url.clone();
    leptos::prelude::set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url2);
        },
        std::time::Duration::from_secs(30),
    );
    Ok(())
}

/// Reads a session file the person picked or dropped: refused by its size on disk before it is
/// read, then by its bytes (not text) before anything parses it; core says why in words.
pub async fn read_session_file(file: &web_sys::File) -> Result<String, String> {
    roundtable_core::export::check_size(file.size() as u64).map_err(|e| e.to_string())?;
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("the file could not be read: {e:?}"))?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    roundtable_core::export::into_text(bytes).map_err(|e| e.to_string())
}

/// A model as a person names it: core's one rule ([`roundtable_core::text::model_name`]).
pub use roundtable_core::text::model_name;

/// A file name safe on every system, from a title.
pub fn file_stem(title: &str) -> String {
    let mut out: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    let out = out.trim_matches('-');
    let out: String = out.chars().take(60).collect();
    if out.is_empty() {
        "session".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::short_count;

    #[test]
    fn short_count_rounds_to_one_decimal() {
        assert_eq!(short_count(999), "999");
        assert_eq!(short_count(1000), "1.0k");
        assert_eq!(short_count(12_345), "12.3k");
        assert_eq!(short_count(12_350), "12.4k");
        assert_eq!(short_count(999_999), "1000.0k");
        assert_eq!(short_count(2_560_000), "2.6M");
    }
}
