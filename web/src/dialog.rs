//! The app's own confirm and ask dialogs, in place of the browser's `confirm()` / `prompt()`
//! (which block the page, cannot be styled or tested, and some browsers suppress).
//!
//! Built on the native `<dialog>` opened with `showModal()`: the rest of the page is inert while
//! it is open, Escape closes it (the `cancel` event), and Tab / Shift+Tab cycle through its own
//! controls only (wrapped here, so focus never leaves for the page behind). Focus starts on the
//! text field when there is one, else on the safe choice (Cancel), and goes back where it was
//! when the dialog closes.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the dialog asks.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// The heading.
    pub title: String,
    /// One or two sentences under it.
    pub message: String,
    /// The label of a text field to fill in, if the question wants words (a reason).
    pub field: Option<String>,
    /// The confirming button's label ("Delete", "Reject").
    pub confirm: String,
    /// The confirming action destroys something: the button is styled as such.
    pub danger: bool,
}

/// An open dialog: shows `ask` while it is `Some`, calls `on_confirm` with the text typed (empty
/// without a field) when the person confirms, and closes on Cancel or Escape.
#[component]
pub fn AskDialog(ask: RwSignal<Option<Ask>>, on_confirm: Callback<String>) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let returns_to = StoredValue::new_local(None::<web_sys::HtmlElement>);
    let close = move || {
        ask.set(None);
        if let Some(el) = returns_to.get_value() {
            let _ = el.focus();
        }
    };
    Effect::new(move |_| {
        let Some(el) = dialog.get() else { return };
        if ask.with(Option::is_some) && !el.open() {
            returns_to.set_value(
                document()
                    .active_element()
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()),
            );
            text.set(String::new());
            error.set(None);
            let _ = el.show_modal();
            // After the dialog's content has rendered.
            request_animation_frame(move || {
                let first = dialog
                    .get_untracked()
                    .and_then(|el| el.query_selector("[data-autofocus]").ok().flatten())
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
                if let Some(first) = first {
                    let _ = first.focus();
                }
            });
        } else if ask.with(Option::is_none) && el.open() {
            el.close();
        }
    });
    let confirm = move || {
        let Some(a) = ask.get_untracked() else { return };
        let typed = text.get_untracked().trim().to_string();
        if a.field.is_some() && typed.is_empty() {
            error.set(Some("Write a few words first.".into()));
            return;
        }
        close();
        on_confirm.run(typed);
    };
    // Tab and Shift+Tab go round the dialog's own controls (the one rule every dialog keeps).
    let trap = move |ev: web_sys::KeyboardEvent| {
        if let Some(el) = dialog.get_untracked() {
            crate::pages::dialog::trap_tab(&ev, &el);
        }
    };
    view! {
        <dialog class="dialog small ask" node_ref=dialog aria-labelledby="ask-title" data-dialog="ask"
            on:cancel=move |ev: web_sys::Event| { ev.prevent_default(); close(); }
            on:keydown=trap>
            {move || ask.get().map(|a| {
                let has_field = a.field.is_some();
                view! {
                    <header><h2 id="ask-title">{a.title.clone()}</h2></header>
                    <div class="body">
                        <p>{a.message.clone()}</p>
                        {a.field.clone().map(|label| view! {
                            <label class="field">
                                <span>{label}</span>
                                <textarea name="ask-text" rows="3" data-autofocus="" prop:value=move || text.get()
                                    aria-invalid=move || error.get().is_some().to_string()
                                    on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                            </label>
                        })}
                        <div class="field-error" role="alert">{move || error.get()}</div>
                        <div class="row end">
                            {if has_field {
                                view! { <button class="ghost" name="ask-cancel" on:click=move |_| close()>"Cancel"</button> }.into_any()
                            } else {
                                view! { <button class="ghost" name="ask-cancel" data-autofocus="" on:click=move |_| close()>"Cancel"</button> }.into_any()
                            }}
                            <button name="ask-confirm" class=if a.danger { "danger" } else { "" } on:click=move |_| confirm()>{a.confirm.clone()}</button>
                        </div>
                    </div>
                }
            })}
        </dialog>
    }
}

#[cfg(test)]
mod tests {
    /// No native `prompt()` / `confirm()` / `alert()` anywhere in the app: they block the page
    /// and cannot be made part of it. The app's own [`super::AskDialog`] stands in.
    #[test]
    fn the_app_uses_no_native_prompt_confirm_or_alert() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let banned = [
            "prompt_with_message",
            "confirm_with_message",
            "alert_with_message",
            ".prompt()",
            ".confirm()",
            ".alert()",
            "window.prompt",
            "window.confirm",
            "window.alert",
        ];
        let mut files = vec![root.join("../index.html")];
        let mut dirs = vec![root.join("src"), root.join("../static")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path
                    .extension()
                    .is_some_and(|e| e == "rs" || e == "js" || e == "html")
                {
                    files.push(path);
                }
            }
        }
        let this = root.join("src/dialog.rs");
        let mut found = Vec::new();
        for file in &files {
            if *file == this {
                continue;
            }
            let text = std::fs::read_to_string(file).unwrap();
            for word in banned {
                if text.contains(word) {
                    found.push(format!("{}: {word}", file.display()));
                }
            }
        }
        assert!(files.len() > 20, "the scan found the sources");
        assert!(found.is_empty(), "native dialogs left: {found:#?}");
    }
}
