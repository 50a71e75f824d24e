//! The app shell: header, navigation, notices, theme, and the page for the current route.

use leptos::prelude::*;

use crate::pages;
use crate::route::{use_route, Route};
use crate::storage;

/// Light, dark, or whatever the system prefers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// The stored / attribute value.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// Parses a stored value; anything unknown follows the system.
    pub fn parse(s: &str) -> Theme {
        match s {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    }
}

/// How serious a notice is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    /// Something went as asked.
    Info,
    /// Something failed; the text says what and what to do.
    Error,
}

/// A message shown at the top of the page until dismissed.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// Unique within the tab, for dismissal.
    pub id: u64,
    /// Info or error.
    pub kind: NoticeKind,
    /// What a person reads.
    pub text: String,
    /// Page changes an info notice outlives: 0 for most (it goes with its page), 1 for one
    /// that announces the page the person is taken to ("Imported …").
    pub pages_left: u8,
}

/// State shared by every page.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The chosen theme.
    pub theme: RwSignal<Theme>,
    /// Messages for the person.
    pub notices: RwSignal<Vec<Notice>>,
    next_notice: StoredValue<u64>,
}

impl AppState {
    /// Shows a notice; it goes away by itself (info after 6 s, errors after 15 s) or when dismissed.
    pub fn notify(&self, kind: NoticeKind, text: impl Into<String>) {
        self.push(kind, text.into(), 0);
    }

    /// An info notice about the page the person is being taken to: it stays through that one
    /// page change and goes with the next.
    pub fn info_for_next_page(&self, text: impl Into<String>) {
        self.push(NoticeKind::Info, text.into(), 1);
    }

    fn push(&self, kind: NoticeKind, text: String, pages_left: u8) {
        let id = self.next_notice.get_value();
        self.next_notice.set_value(id + 1);
        self.notices.update(|n| {
            n.retain(|x| x.text != text);
            n.push(Notice {
                id,
                kind,
                text,
                pages_left,
            });
        });
        let notices = self.notices;
        let secs = if kind == NoticeKind::Info { 6 } else { 15 };
        set_timeout(
            move || notices.update(|n| n.retain(|x| x.id != id)),
            std::time::Duration::from_secs(secs),
        );
    }

    /// Shorthand for an info notice.
    pub fn info(&self, text: impl Into<String>) {
        self.notify(NoticeKind::Info, text);
    }

    /// Shorthand for an error notice.
    pub fn error(&self, text: impl Into<String>) {
        self.notify(NoticeKind::Error, text);
    }
}

/// The shared state; panics only if called outside [`App`], which is a programming error.
pub fn app_state() -> AppState {
    expect_context::<AppState>()
}

/// Sets `data-theme` on `<html>` so the stylesheet picks the palette.
fn apply_theme(theme: Theme) {
    if let Some(el) = document().document_element() {
        let _ = el.set_attribute("data-theme", theme.as_str());
    }
}

/// What the main area shows; the session page keeps its place while its product changes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Page {
    Home,
    New,
    Settings,
    Session(String),
    Shared(String),
    NotFound(String),
}

/// The root component.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState {
        theme: RwSignal::new(Theme::System),
        notices: RwSignal::new(Vec::new()),
        next_notice: StoredValue::new(1),
    };
    provide_context(state);
    if let Some(owner) = Owner::current() {
        crate::runner::set_app_owner(owner);
    }
    leptos::task::spawn_local(async move {
        if let Ok(Some(t)) = storage::get_setting("theme").await {
            state.theme.set(Theme::parse(&t));
        }
    });
    Effect::new(move |_| apply_theme(state.theme.get()));
    crate::offline::start(state);

    let route = use_route();
    // Take over: another tab asks this one to give a session up.
    let release = on_session_broadcast(|message| {
        if let Some(id) = message.strip_prefix(crate::locks::RELEASE) {
            let id = id.to_string();
            leptos::task::spawn_local(async move { crate::runner::hand_over(&id).await });
        }
    });
    std::mem::forget(release);
    // A file dropped on a page that does not import refuses the drop, instead of the browser
    // opening the file in place of the app (and of a running session). The sessions page takes
    // drops itself.
    let guard = |ev: web_sys::DragEvent| {
        if Route::current() != Route::Home {
            ev.prevent_default();
            if let Some(d) = ev.data_transfer() {
                d.set_drop_effect("none");
            }
        }
    };
    let _ = window_event_listener(leptos::ev::dragover, guard);
    let _ = window_event_listener(leptos::ev::drop, move |ev| {
        if Route::current() != Route::Home {
            ev.prevent_default();
        }
    });
    // The page only changes when the route names another page: selecting a product inside a
    // session changes `product`, not the page, so the session stays mounted.
    let page = Memo::new(move |_| match route.get() {
        Route::Home => Page::Home,
        Route::New => Page::New,
        Route::Settings => Page::Settings,
        Route::Session { id, .. } => Page::Session(id),
        Route::Shared(fragment) => Page::Shared(fragment),
        Route::NotFound(p) => Page::NotFound(p),
    });
    // A new page: info notices of the old one go (they would cover its buttons), and focus
    // moves to the new page's heading so a screen reader announces it and Tab starts there.
    Effect::new(move |first: Option<()>| {
        page.track();
        if first.is_none() {
            return;
        }
        state.notices.update(|n| {
            n.retain_mut(|x| {
                if x.kind == NoticeKind::Error {
                    return true;
                }
                let keep = x.pages_left > 0;
                x.pages_left = x.pages_left.saturating_sub(1);
                keep
            });
        });
        if let Some(main) = document().get_element_by_id("main") {
            let _ = main.remove_attribute("data-focus");
        }
        focus_heading(40, document().active_element());
    });
    let product: Signal<Option<String>> = Memo::new(move |_| match route.get() {
        Route::Session { product, .. } => product,
        _ => None,
    })
    .into();
    let at: Signal<Option<u64>> = Memo::new(move |_| match route.get() {
        Route::Session { at, .. } => at,
        _ => None,
    })
    .into();
    // The nav's tab of the page shown, marked for eyes (`active`) and screen readers
    // (`aria-current`).
    let here = move || match route.get() {
        Route::Home | Route::Session { .. } => "home",
        // A session opened from a link is nobody's stored session: no tab is marked.
        Route::Shared(_) => "",
        Route::New => "new",
        Route::Settings => "settings",
        Route::NotFound(_) => "",
    };
    let nav_class = move |want: &'static str| {
        move || {
            if here() == want {
                "nav-link active"
            } else {
                "nav-link"
            }
        }
    };
    let nav_current = move |want: &'static str| move || (here() == want).then_some("page");

    view! {
        <a class="skip-link" href="#main" on:click=|ev| {
            ev.prevent_default();
            if let Some(m) = document().get_element_by_id("main") {
                let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(m).focus();
            }
        }>"Skip to content"</a>
        // The header and the notices under it stay at the top together: a notice is a strip
        // in the flow below the header, so it pushes the page down and covers nothing on it.
        <div class="app-top">
            <header class="app-header">
                <a class="brand" href="#/">
                    <span class="brand-mark" aria-hidden="true">"◎"</span>
                    " Roundtable"
                </a>
                <nav aria-label="Main">
                    <a class=nav_class("home") aria-current=nav_current("home") href="#/">"Sessions"</a>
                    <a class=nav_class("new") aria-current=nav_current("new") href="#/new">"New session"</a>
                    <a class=nav_class("settings") aria-current=nav_current("settings") href="#/settings">"Settings"</a>
                </nav>
                <ThemeToggle/>
            </header>
            <Notices/>
        </div>
        <main id="main" tabindex="-1">
            {move || match page.get() {
                Page::Home => pages::home::HomePage().into_any(),
                Page::New => pages::new_session::NewSessionPage().into_any(),
                Page::Settings => pages::settings::SettingsPage().into_any(),
                Page::Session(id) => {
                    view! { <pages::session::SessionPage id=id product=product at=at/> }.into_any()
                }
                Page::Shared(fragment) => {
                    view! { <crate::share::SharedPage fragment=fragment/> }.into_any()
                }
                Page::NotFound(path) => view! {
                    <section class="page narrow">
                        <h1>"Page not found"</h1>
                        <p>"There is no page at " <code>{format!("#/{path}")}</code> "."</p>
                        <p><a href="#/">"Back to your sessions"</a></p>
                    </section>
                }.into_any(),
            }}
        </main>
    }
}

/// Focuses the page's `h1` once it is rendered (a session page renders it after loading):
/// tries every 50 ms, `tries` times. `before` is what had focus when the page changed: if the
/// person has moved focus since (the page drew its controls before its heading, and they Tabbed
/// or clicked into one), focus stays where they put it. `main[data-focus]` says which it was
/// (`heading` or `kept`), so a test can wait for the page to settle.
fn focus_heading(tries: u32, before: Option<web_sys::Element>) {
    let settled = |how: &str| {
        if let Some(main) = document().get_element_by_id("main") {
            let _ = main.set_attribute("data-focus", how);
        }
    };
    let active = document().active_element();
    let moved_since = match &active {
        None => false,
        Some(a) => {
            let unmoved = before.as_ref() == Some(a)
                || a.tag_name().eq_ignore_ascii_case("body")
                || a.id() == "main";
            !unmoved && a.is_connected()
        }
    };
    if moved_since {
        settled("kept");
        return;
    }
    let heading = document().query_selector("main h1").ok().flatten();
    match heading {
        Some(h) => {
            let _ = h.set_attribute("tabindex", "-1");
            let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(h).focus();
            settled("heading");
        }
        None if tries > 0 => {
            set_timeout(
                move || focus_heading(tries - 1, before),
                std::time::Duration::from_millis(50),
            );
        }
        None => {}
    }
}

/// Cycles system → light → dark and stores the choice.
#[component]
fn ThemeToggle() -> impl IntoView {
    let state = app_state();
    let label = move || match state.theme.get() {
        Theme::System => "system",
        Theme::Light => "light",
        Theme::Dark => "dark",
    };
    view! {
        <button class="ghost theme-toggle" title="Change theme" on:click=move |_| {
            let next = match state.theme.get_untracked() {
                Theme::System => Theme::Light,
                Theme::Light => Theme::Dark,
                Theme::Dark => Theme::System,
            };
            state.theme.set(next);
            leptos::task::spawn_local(async move {
                let _ = storage::set_setting("theme", Some(next.as_str())).await;
            });
        }><span class="theme-word">"Theme: "</span>{label}</button>
    }
}

/// The notices region, announced to screen readers: a strip under the header (in the sticky
/// `.app-top`), never over the page — a notice moves the page down by its height rather than
/// cover a heading, a button or a field. Each has its own Dismiss button, reached by Tab right
/// after the header's.
#[component]
fn Notices() -> impl IntoView {
    let state = app_state();
    view! {
        <div class="notices" role="status" aria-live="polite">
            <For each=move || state.notices.get() key=|n| n.id let:notice>
                <div class=move || if notice.kind == NoticeKind::Error { "notice error" } else { "notice info" }
                     role=if notice.kind == NoticeKind::Error { "alert" } else { "status" }>
                    <span class="notice-text">{notice.text.clone()}</span>
                    <button class="ghost small" aria-label="Dismiss" on:click=move |_| {
                        state.notices.update(|n| n.retain(|x| x.id != notice.id));
                    }>"✕"</button>
                </div>
            </For>
        </div>
    }
}

/// A subscription to other tabs' "session changed" messages; closes its channel when dropped.
pub struct BroadcastListener {
    channel: Option<web_sys::BroadcastChannel>,
    _closure: Option<wasm_bindgen::closure::Closure<dyn FnMut(web_sys::MessageEvent)>>,
}

impl Drop for BroadcastListener {
    fn drop(&mut self) {
        if let Some(c) = &self.channel {
            c.set_onmessage(None);
            c.close();
        }
    }
}

/// Calls `f(session_id)` whenever another tab commits a change to a session.
pub fn on_session_broadcast(
    mut f: impl FnMut(String) + 'static,
) -> send_wrapper::SendWrapper<BroadcastListener> {
    use wasm_bindgen::JsCast;
    let Ok(channel) = web_sys::BroadcastChannel::new(crate::locks::CHANNEL) else {
        return send_wrapper::SendWrapper::new(BroadcastListener {
            channel: None,
            _closure: None,
        });
    };
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
        move |ev: web_sys::MessageEvent| {
            if let Some(id) = ev.data().as_string() {
                f(id);
            }
        },
    );
    channel.set_onmessage(Some(closure.as_ref().unchecked_ref()));
    send_wrapper::SendWrapper::new(BroadcastListener {
        channel: Some(channel),
        _closure: Some(closure),
    })
}
