//! The session page: what the members are doing now, what they have made, and what each saw and
//! said.
//!
//! Layout: a header with the status and the run controls; banners for whatever needs the
//! person (a question, a pause reason, an error, a read-only view); then the kind's own panels,
//! from the kind's folder through its one entry ([`super::kinds::KindPages::panels`]): a team's
//! product tree, selected product (or overview) and timeline with the remarks and the charter; a
//! meeting's phases, transcript and minutes; a dialectic's thesis, critiques and synthesis. The
//! shell names no kind: its sentences of a kind come from the same table.

use leptos::prelude::*;
use roundtable_core::session::{Session, SessionStatus, SessionView as View};

use super::kinds::pages_of;
use crate::app::app_state;
use crate::route::{navigate, Route};
use crate::runner::{self, RunMode, Runner};
use crate::util::short_count;

pub mod budget;
mod cost;
mod fix;
mod fork;
pub use fork::ForkFrom;
mod halt;
mod history;
pub use history::HistoryPoint;
pub mod timeline;
mod title;
mod transcript;

/// Which call's transcript is open, shared by the timeline and the inspector.
#[derive(Clone, Copy)]
pub struct Inspect(pub RwSignal<Option<String>>);

/// Whether the person put the inbox aside ("Later"): the halt dialog hides, and the header's
/// inbox count brings it back.
#[derive(Clone, Copy)]
pub struct InboxLater(pub RwSignal<bool>);

/// The session's view as core computes it (status, stage, progress, live states, allowed
/// actions), recomputed once per committed change and shared by every panel: pages show it and
/// never re-derive an engine rule.
#[derive(Clone, Copy)]
pub struct ViewMemo(pub Memo<View>);

/// The session page.
#[component]
pub fn SessionPage(
    id: String,
    product: Signal<Option<String>>,
    at: Signal<Option<u64>>,
) -> impl IntoView {
    let loaded = RwSignal::new(None::<Result<Runner, String>>);
    let id_for_load = id.clone();
    leptos::task::spawn_local(async move {
        loaded.set(Some(runner::open(&id_for_load).await));
    });
    view! {
        {move || match loaded.get() {
            None => view! { <section class="page"><p class="muted">"Opening the session…"</p></section> }.into_any(),
            Some(Err(e)) => view! {
                <section class="page narrow">
                    <h1>"This session cannot be opened"</h1>
                    <p class="notice error" role="alert">{e}</p>
                    <p><a href="#/">"Back to your sessions"</a></p>
                </section>
            }.into_any(),
            Some(Ok(r)) => view! { <SessionView runner=r product=product at=at/> }.into_any(),
        }}
    }
}

/// The panels of an open session (stored, or shared by link and held only in the page).
#[component]
pub fn SessionView(
    runner: Runner,
    product: Signal<Option<String>>,
    /// Where selecting a product goes; by default the session's route (`#/s/<id>/p/<p>`).
    #[prop(optional)]
    on_select: Option<Callback<Option<String>>>,
    /// The point of history shown: the route's (`#/s/<id>@<seq>`), or the page's own on a page
    /// with no route of its own (a shared link), which then provides a [`HistoryPoint`] to set
    /// it.
    at: Signal<Option<u64>>,
) -> impl IntoView {
    provide_context(runner);
    // The point of history in the route (`@seq`) is what the page shows.
    Effect::new(move |_| {
        if let Err(e) = runner.show_history(at.get()) {
            runner.error.set(Some(e));
        }
    });
    let inspect = Inspect(RwSignal::new(None));
    provide_context(inspect);
    provide_context(fork::ForkFrom(RwSignal::new(None)));
    provide_context(InboxLater(RwSignal::new(false)));
    // While the page shows a point of history, nothing can be done to it: no run control or
    // edit is offered (the live session's are, once the person goes back to live).
    let view = Memo::new(move |_| {
        let mut v = runner.with(Session::view);
        if runner.history_at.get().is_some() {
            v.actions = Default::default();
        }
        v
    });
    provide_context(ViewMemo(view));
    // A session's kind never changes: its panels are chosen once.
    let kind = runner.with_untracked(Session::kind);
    let id = runner.id();
    // A read-only view follows the writer tab.
    let listener = crate::app::on_session_broadcast({
        let id = id.clone();
        move |changed| {
            if changed == id {
                let id = id.clone();
                leptos::task::spawn_local(async move { runner::refresh_read_only(&id).await });
            }
        }
    });
    on_cleanup(move || drop(listener));
    let session_id = StoredValue::new(id);
    let select = on_select.unwrap_or_else(|| {
        Callback::new(move |p: Option<String>| {
            navigate(&Route::Session {
                id: session_id.get_value(),
                product: p,
                at: at.get_untracked(),
            })
        })
    });

    view! {
        <div class="session" data-status=move || view.with(|v| v.status.word())>
            <SessionHeader/>
            <history::HistoryBar/>
            <cost::CostPanel/>
            <Banners/>
            {(pages_of(kind).panels)(product, select)}
            <transcript::TranscriptDialog/>
            <fork::ForkDialog/>
            <halt::HaltDialog/>
        </div>
    }
}

/// On a phone the panels flow one after another: this bar (shown only on narrow screens) takes
/// the person to each with one tap, and moves focus there for keyboards and screen readers.
#[component]
pub fn JumpBar(items: &'static [(&'static str, &'static str)]) -> impl IntoView {
    let go = |id: &str| {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(id));
        if let Some(el) = el {
            el.scroll_into_view();
            if let Some(el) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&el) {
                let _ = el.set_attribute("tabindex", "-1");
                let _ = el.focus();
            }
        }
    };
    view! {
        <nav class="jump-bar" aria-label="Go to a panel">
            {items.iter().map(|(label, id)| view! {
                <button class="ghost small" data-jump=*id on:click=move |_| go(id)>{*label}</button>
            }).collect_view()}
        </nav>
    }
}

/// Title, status, progress numbers and the controls.
#[component]
fn SessionHeader() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let ViewMemo(view) = expect_context::<ViewMemo>();
    let state = app_state();
    let InboxLater(later) = expect_context::<InboxLater>();
    let status = move || view.with(|v| v.status);
    // What waits for the person (core's count of the engine's inbox, any kind): a button that
    // opens the oldest, while the live session is shown.
    let open_asks = move || view.with(|v| v.open_asks);
    let running = move || runner.mode.get() != RunMode::Idle || !runner.inflight.get().is_empty();
    // Run starts a draft, resumes a paused session or goes on running: whatever core allows.
    // While the limit that paused the session still holds, core says why no run can begin: the
    // run controls are off and say it (their title, and the pause banner they point to).
    let can_run = move || {
        !runner.read_only.get()
            && !running()
            && view.with(|v| v.actions.start || v.actions.resume || v.actions.pause)
    };
    let blocked = move || view.with(|v| v.run_blocked.clone());
    let run_title = move |what: &'static str| {
        move || {
            blocked().map_or_else(
                || what.to_string(),
                |why| crate::pages::form::sentence(&why),
            )
        }
    };
    let described = move || blocked().map(|_| PAUSE_REASON_ID);
    // The kind's unit of work ("round", "turn", "pass"), for the step button and its title.
    let unit_word = move || view.with(|v| v.kind.round_word().to_lowercase());
    let can_pause = move || !runner.read_only.get() && running();
    let can_wrap = move || !runner.read_only.get() && view.with(|v| v.actions.wrap_up);
    let go = move |mode: RunMode| {
        leptos::task::spawn_local(async move { runner.run(mode).await });
    };
    // A link the clipboard refused, shown to copy by hand.
    let link_shown = RwSignal::new(None::<String>);
    // On a phone the controls fold into the one action this state calls for and a menu of the
    // rest (a disclosure: the toggle shows the other controls the state allows); on a wider
    // screen every control is in the row and the toggle is not drawn (styles.css).
    let menu_open = RwSignal::new(false);
    let toggle = NodeRef::<leptos::html::Button>::new();
    let close_menu = move || {
        if menu_open.get_untracked() {
            menu_open.set(false);
            if let Some(t) = toggle.get_untracked() {
                let _ = t.focus();
            }
        }
    };
    // The primary action: Pause while calls are out, else Run to the end when a run may begin.
    let primary = move || {
        if can_pause() {
            Some("pause")
        } else if can_run() {
            Some("run")
        } else {
            None
        }
    };
    let is_primary = move |name: &'static str| move || primary() == Some(name);
    view! {
        {move || link_shown.get().map(|link| view! {
            <div class="banner info link-shown" role="status" data-banner="link">
                <label class="grow">
                    "The clipboard is not available here; copy the link by hand:"
                    <input type="text" readonly value=link on:focus=move |ev| {
                        event_target::<web_sys::HtmlInputElement>(&ev).select();
                    }/>
                </label>
                <button class="ghost small" on:click=move |_| link_shown.set(None)>"Close"</button>
            </div>
        })}
        <header class="session-head">
            <title::SessionTitle/>
            <span class="session-state">
                <span class=move || format!("badge {}", status().word())>
                    {move || status().label()}
                </span>
                <span class="muted small">
                    {move || view.with(|v| {
                        let unit = v.kind.round_word().to_lowercase();
                        // Estimated tokens are marked as such, never passed off as the provider's.
                        let approx = if v.tokens_estimated { "≈ " } else { "" };
                        let tokens = short_count(v.tokens_used);
                        // A finished session reads as finished: how many it took, not "28 of 48".
                        if v.status == SessionStatus::Done {
                            let units = if v.round == 1 { unit } else { v.kind.rounds_word() };
                            format!("finished in {} {units} · {approx}{tokens} tokens", v.round)
                        } else {
                            format!("{unit} {} of {} · {approx}{tokens} tokens", v.round, v.max_rounds)
                        }
                    })}
                </span>
                {move || (open_asks() > 0 && runner.history_at.get().is_none()).then(|| {
                    let n = open_asks();
                    view! {
                        <button type="button" name="inbox" class="ghost small inbox-count" data-open-asks=n
                            title="Open what waits for your word"
                            on:click=move |_| later.set(false)>
                            "Inbox "<span class="badge awaiting_person">{n}</span>
                        </button>
                    }
                })}
            </span>
            <div class="controls" id="session-actions" role="toolbar" aria-label="Run controls"
                class:open=move || menu_open.get()
                on:keydown=move |ev| if ev.key() == "Escape" { close_menu(); }
                on:click=move |ev| {
                    // An action chosen from the open menu closes it (focus back on its toggle).
                    let chosen = ev.target()
                        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                        .and_then(|el| el.closest("button").ok().flatten())
                        .is_some_and(|b| b.get_attribute("name").as_deref() != Some("actions-menu"));
                    if chosen { close_menu(); }
                }>
                <button name="step" title=run_title("Run the calls of the current step, then pause") aria-describedby=described disabled=move || !can_run() on:click=move |_| go(RunMode::Step)>"One step"</button>
                <button name="round" title=move || if blocked().is_some() { run_title("")() } else { format!("Run the rest of this {}, then pause", unit_word()) } aria-describedby=described disabled=move || !can_run() on:click=move |_| go(RunMode::Round)>{move || format!("One {}", unit_word())}</button>
                <button name="run" class:primary=is_primary("run") title=run_title("Run until done, a question, or a limit") aria-describedby=described disabled=move || !can_run() on:click=move |_| go(RunMode::ToEnd)>"Run to the end"</button>
                <button name="pause" class="ghost" class:primary=is_primary("pause") title="Finish the calls that are out, then pause" disabled=move || !can_pause() on:click=move |_| {
                    leptos::task::spawn_local(async move { runner.pause().await });
                }>"Pause"</button>
                <button name="stop" class="ghost danger" title="Pause now and cancel the requests still out" disabled=move || !can_pause() on:click=move |_| {
                    leptos::task::spawn_local(async move { runner.stop().await });
                }>"Stop"</button>
                <button name="wrap-up" class="ghost" title=move || pages_of(view.with(|v| v.kind)).wrap_up disabled=move || !can_wrap() || running() on:click=move |_| {
                    leptos::task::spawn_local(async move { runner.wrap_up().await });
                }>"Wrap up"</button>
                <button name="export" class="ghost" title="Download the session file" on:click=move |_| {
                    if let Err(e) = crate::transfer::export_open_session(&runner) { state.error(e); }
                }>"Export"</button>
                <button name="copy-link" class="ghost" title="Copy a link that opens this session read-only in any browser" on:click=move |_| {
                    leptos::task::spawn_local(crate::share::copy_link(state, runner, link_shown));
                }>"Copy link"</button>
                <button name="report" class="ghost" title="Download the Markdown report" on:click=move |_| {
                    let title = runner.record().title;
                    if let Err(e) = runner.with_untracked(|s| crate::transfer::export_report(&title, s)) { state.error(e); }
                }>"Report"</button>
                {pages_of(runner.with_untracked(Session::kind)).exports.map(|button| button())}
                <button name="actions-menu" class="ghost menu-toggle" node_ref=toggle
                    aria-expanded=move || menu_open.get().to_string() aria-controls="session-actions"
                    on:click=move |_| {
                        let open = !menu_open.get_untracked();
                        menu_open.set(open);
                        // Opened, focus goes to the menu's first action (Escape brings it back).
                        if open {
                            request_animation_frame(move || {
                                let first = toggle.get_untracked()
                                    .and_then(|t| t.parent_element())
                                    .and_then(|bar| bar.query_selector("button:not(.primary):not(.menu-toggle):not(:disabled)").ok().flatten())
                                    .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok());
                                if let Some(el) = first { let _ = el.focus(); }
                            });
                        }
                    }>
                    {move || if primary().is_some() { "More" } else { "Actions" }}
                    <span aria-hidden="true">{move || if menu_open.get() { " ▴" } else { " ▾" }}</span>
                </button>
            </div>
        </header>
    }
}

/// The id of the pause banner's words, which the run controls point to while the limit it names
/// holds them off.
const PAUSE_REASON_ID: &str = "pause-reason";

/// Whatever needs the person's attention, one line each.
#[component]
fn Banners() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let ViewMemo(view) = expect_context::<ViewMemo>();
    view! {
        {use_context::<crate::share::SharedLink>().map(|shared| view! {
            <crate::share::SharedBanner text=shared.0/>
        })}
        {move || (runner.read_only.get() && use_context::<crate::share::SharedLink>().is_none()).then(|| view! {
            <div class="banner warn" role="status" data-banner="read-only">
                <strong>"Read-only."</strong>
                " This session is open in another tab, which runs it. This view follows its changes."
                <button class="ghost small" on:click=move |_| {
                    let id = runner.id();
                    leptos::task::spawn_local(async move {
                        if !runner::take_over(&id).await {
                            app_state().error("The other tab still has this session open.");
                        }
                    });
                }>"Take over"</button>
            </div>
        })}
        {move || runner.reopened_paused.get().then(|| view! {
            <div class="banner info" role="status" data-banner="reopened">
                <strong>"Paused at the last saved step."</strong>
                " The session was running when the page closed. Nothing after the last saved event was kept."
                <button name="resume" on:click=move |_| {
                    leptos::task::spawn_local(async move { runner.run(RunMode::ToEnd).await });
                }>"Resume"</button>
            </div>
        })}
        {move || runner.error.get().map(|e| view! {
            <div class="banner bad" role="alert" data-banner="error">
                <span class="grow">{e}</span>
                <button class="ghost small" on:click=move |_| runner.error.set(None)>"Dismiss"</button>
            </div>
        })}
        // What a provider's adapter said once (a model's answers no longer stream).
        {move || runner.notes.get().into_iter().map(|text| view! {
            <div class="banner warn" role="status" data-banner="notice">
                <span class="grow">{text}</span>
                <button class="ghost small" on:click=move |_| runner.notes.set(Vec::new())>"Dismiss"</button>
            </div>
        }).collect_view()}
        // A retry waiting, with its countdown (core's words; gone once the retry is out).
        {move || {
            let facts = runner.facts(false);
            runner.with(|s| s.notices(&facts)).into_iter().map(|n| view! {
                <div class=format!("banner {}", n.tone) role="status" data-banner="retry">
                    <span class="grow">{n.text}</span>
                    {n.fix.map(|fix| view! { <fix::FixLink fix=fix/> })}
                </div>
            }).collect_view()
        }}
        // The status banners speak of the live session: none while a point of history is shown
        // (its own banner says so).
        {move || match view.with(|v| v.status) {
            _ if runner.history_at.get().is_some() => None,
            SessionStatus::Paused if !runner.reopened_paused.get() => {
                let failed = view.with(|v| v.fix.as_ref().is_some_and(|f| *f == roundtable_core::engine::Fix::Settings));
                Some(view! {
                <div class=if failed { "banner bad" } else { "banner warn" } role="status" data-banner="paused">
                    <span class="grow" id=PAUSE_REASON_ID><strong>"Paused: "</strong> {move || view.with(|v| v.status_text.clone())} "."</span>
                    {move || view.with(|v| v.fix.clone()).map(|fix| view! { <fix::FixLink fix=fix/> })}
                </div>
            }.into_any())},
            SessionStatus::AwaitingPerson => Some(view! {
                <div class="banner info" role="status" data-banner="question">
                    {runner.with(|s| s.question().map(|(who, ask)| view! {
                        <strong>{who}</strong>
                        {if ask.is_approval() {
                            " asks for your approval. The session waits for your word."
                        } else {
                            " asked you a question. The session waits for your answer."
                        }}
                    }))}
                </div>
            }.into_any()),
            SessionStatus::Done => Some(view! {
                <div class="banner info" role="status" data-banner="done">
                    <strong>"Done."</strong>
                    {move || pages_of(view.with(|v| v.kind)).done}
                </div>
            }.into_any()),
            SessionStatus::Draft if !runner.read_only.get() => Some(view! {
                <div class="banner info" role="status" data-banner="draft">
                    "Ready. Use " <strong>"Run to the end"</strong>
                    {move || pages_of(view.with(|v| v.kind)).draft}
                </div>
            }.into_any()),
            _ => None,
        }}
    }
}
