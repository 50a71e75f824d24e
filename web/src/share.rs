//! Share links: a session as a link that never touches a server, and the page that opens one.
//!
//! "Copy link" deflates the session file with the browser's `CompressionStream("deflate-raw")` and
//! puts it in the URL fragment (`#s=…`, written by core's `share_link`), which browsers never send
//! to a server. Opening such a link decodes and checks it exactly like an imported file (size,
//! version, checksum, replay) — in stages, with the page free in between — and shows the session
//! read-only, with "Import a copy" and "Fork…" (the fork dialog, from the session's start). The file holds no key and no setting, so no link can.

use js_sys::{Promise, Reflect, Uint8Array};
use leptos::prelude::*;
use roundtable_core::export;
use roundtable_core::session::Session;
use roundtable_core::share_link::{self, MAX_LINK_CHARS};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::app::{app_state, AppState};
use crate::pages::session::ForkFrom;
use crate::route::{navigate, Route};
use crate::runner::Runner;
use crate::util::now_ms;
use roundtable_core::fork::ForkAt;

/// Marks a session page as showing a shared link: the session lives only in this page (nothing is
/// stored until "Import a copy"), and its file text is kept for that import.
#[derive(Clone, Copy)]
pub struct SharedLink(pub StoredValue<String>);

/// The link of an open session, or why it cannot have one (too large: the file is the way).
pub async fn link_of(runner: &Runner) -> Result<String, String> {
    let file = runner
        .with_untracked(|s| export::checked_file(s, now_ms() as u64))
        .map_err(|e| e.to_string())?;
    let deflated = deflate_raw(&file).await?;
    let fragment = share_link::encode(&deflated);
    if fragment.len() > MAX_LINK_CHARS {
        return Err(format!(
            "This session is too large to share as a link: its link would be {} characters, and a link holds at most {}. Use Export to share the file instead.",
            group(fragment.len()),
            group(MAX_LINK_CHARS)
        ));
    }
    let location = window().location();
    let here = location.href().map_err(|e| format!("{e:?}"))?;
    let base = here.split('#').next().unwrap_or_default();
    Ok(format!("{base}#{fragment}"))
}

/// Copies the open session's link to the clipboard and says what it is; when the session is too
/// large or the clipboard is refused, says so (the link is then shown to copy by hand).
pub async fn copy_link(state: AppState, runner: Runner, shown: RwSignal<Option<String>>) {
    let link = match link_of(&runner).await {
        Ok(link) => link,
        Err(e) => return state.error(e),
    };
    let size = export::bytes_words(link.len() as u64);
    match write_clipboard(&link).await {
        Ok(()) => {
            shown.set(None);
            state.info(format!(
                "Link copied ({size}). Whoever opens it sees this session as it is now, read-only, in their own browser; nothing is sent to a server."
            ));
        }
        Err(_) => shown.set(Some(link)),
    }
}

/// `text` deflated (raw DEFLATE, no header) by the browser.
async fn deflate_raw(text: &str) -> Result<Vec<u8>, String> {
    let fail = |e: JsValue| format!("the browser could not compress the session ({e:?})");
    let ctor = Reflect::get(&js_sys::global(), &"CompressionStream".into()).map_err(fail)?;
    let ctor: js_sys::Function = ctor
        .dyn_into()
        .map_err(|_| "this browser cannot compress (no CompressionStream)".to_string())?;
    let args = js_sys::Array::of1(&"deflate-raw".into());
    let pair: web_sys::ReadableWritablePair = Reflect::construct(&ctor, &args)
        .map_err(fail)?
        .unchecked_into();
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let blob = web_sys::Blob::new_with_str_sequence(&parts).map_err(fail)?;
    let stream = blob.stream().pipe_through(&pair);
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&stream)).map_err(fail)?;
    let buffer = JsFuture::from(response.array_buffer().map_err(fail)?)
        .await
        .map_err(fail)?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// Writes text to the clipboard (`navigator.clipboard.writeText`).
async fn write_clipboard(text: &str) -> Result<(), JsValue> {
    let clipboard = Reflect::get(&window().navigator(), &"clipboard".into())?;
    let write: js_sys::Function = Reflect::get(&clipboard, &"writeText".into())?.dyn_into()?;
    let promise: Promise = write.call1(&clipboard, &text.into())?.dyn_into()?;
    JsFuture::from(promise).await.map(|_| ())
}

/// 65536 → "65,536".
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A link's session, read and checked in stages like an imported file.
async fn open_link(fragment: &str, progress: impl Fn(usize)) -> Result<(Session, String), String> {
    let bytes = share_link::decode(fragment).map_err(|e| e.to_string())?;
    let text = export::into_text(bytes).map_err(|e| e.to_string())?;
    let session = crate::transfer::read_in_stages(&text, progress).await?;
    Ok((session, text))
}

/// The page a share link opens: the session read-only, with "Import a copy" and "Fork…".
#[component]
pub fn SharedPage(fragment: String) -> impl IntoView {
    let loaded = RwSignal::new(None::<Result<Runner, String>>);
    let stage = RwSignal::new(0usize);
    let text = StoredValue::new(String::new());
    // The selected product and the point of history live in the page: the link's fragment is
    // the session itself.
    let selected = RwSignal::new(None::<String>);
    let point = RwSignal::new(None::<u64>);
    leptos::task::spawn_local(async move {
        let opened = open_link(&fragment, |i| stage.set(i))
            .await
            .map(|(session, file)| {
                text.set_value(file);
                let now = now_ms();
                let created_at = session.created_at().map_or(now, |at| at as f64);
                let record = crate::sessions::record_for("shared", &session, created_at, now);
                Runner::new(record, session, true)
            });
        loaded.set(Some(opened));
    });
    // Provided to this page's children only: a context provided in the body would sit on the
    // router's owner and mark every page opened after this one as shared.
    view! {
        <leptos::context::Provider value=SharedLink(text)>
        {move || match loaded.get() {
            None => view! {
                <section class="page narrow">
                    <h1>"Opening a shared session…"</h1>
                    <div class="import-progress" role="status">
                        <label for="link-progress">
                            {move || format!("Checking the link: {}", crate::transfer::IMPORT_STAGES[stage.get()])}
                        </label>
                        <progress id="link-progress" max=3 value=move || stage.get()></progress>
                    </div>
                </section>
            }.into_any(),
            Some(Err(e)) => view! {
                <section class="page narrow">
                    <h1>"This link cannot be opened"</h1>
                    <p class="notice error" role="alert" data-link-error="true">{e}</p>
                    <p>"Ask whoever sent it for the session file instead, and import it from "
                        <a href="#/">"your sessions"</a> "."</p>
                </section>
            }.into_any(),
            Some(Ok(runner)) => {
                provide_context(crate::pages::session::HistoryPoint(Callback::new(move |p| point.set(p))));
                view! {
                    <crate::pages::session::SessionView runner=runner product=selected.into()
                        on_select=Callback::new(move |p| selected.set(p)) at=point.into()/>
                }.into_any()
            }
        }}
        </leptos::context::Provider>
    }
}

/// The banner of a shared session: where it came from, and how to keep it.
#[component]
pub fn SharedBanner(text: StoredValue<String>) -> impl IntoView {
    let state = app_state();
    let ForkFrom(fork_from) = expect_context::<ForkFrom>();
    let busy = RwSignal::new(false);
    let import = move |_| {
        busy.set(true);
        leptos::task::spawn_local(async move {
            let file = text.get_value();
            match crate::transfer::import_session(&file, false, |_| {}).await {
                Ok(crate::transfer::Imported::Stored(id)) => {
                    state.info_for_next_page("Imported a copy of the shared session.");
                    navigate(&Route::session(id));
                }
                Ok(crate::transfer::Imported::AlreadyThere(id)) => {
                    state.info_for_next_page(
                        "This session is already in your sessions: here it is.",
                    );
                    navigate(&Route::session(id));
                }
                Err(e) => state.error(format!("The shared session was not imported: {e}")),
            }
            busy.set(false);
        });
    };
    view! {
        <div class="banner info" role="status" data-banner="shared">
            <span class="grow">
                <strong>"Shared by link."</strong>
                <span class="banner-more">" You see this session as it was shared, read-only; nothing of it is stored in this browser yet."</span>
                <span class="banner-short">" Read-only."</span>
            </span>
            <button name="import-copy" disabled=move || busy.get() on:click=import>"Import a copy"</button>
            <button name="fork-shared" class="ghost" disabled=move || busy.get()
                title="Run this session again yourself from its start, with your own models, personas or charter (Fork on a call in the timeline starts from that call)"
                on:click=move |_| fork_from.set(Some(ForkAt::Event(0)))>"Fork…"</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::group;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(group(7), "7");
        assert_eq!(group(65_536), "65,536");
        assert_eq!(group(1_234_567), "1,234,567");
    }
}
