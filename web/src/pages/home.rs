//! Home: the sessions kept in this browser, and the ways to get a new one (New, Import by file
//! picker or drag and drop, Open a demo session).

use leptos::prelude::*;
use roundtable_core::session::{Kind, SessionStatus};

use crate::dialog::{Ask, AskDialog};
use wasm_bindgen::JsCast;

use super::kinds::{pages_of, Demo};
use crate::app::app_state;
use crate::route::{navigate, Route};
use crate::storage::{self, SessionRecord};
use crate::transfer;
use crate::util::{ago, now_ms, short_count};

/// The demo session shipped in `static/demo/`, relative to the page so sub-paths work.
pub const DEMO_FILE: &str = "demo/demo-session.roundtable.json";

/// A person-facing word for a stored status (core's label; "unknown" for a word this build does
/// not write).
fn status_label(status: &str) -> &'static str {
    SessionStatus::from_word(status).map_or("unknown", SessionStatus::label)
}

/// The home page.
#[component]
pub fn HomePage() -> impl IntoView {
    let state = app_state();
    let refresh = RwSignal::new(0u32);
    // Watchers of the sessions some tab runs, withdrawn when the list reloads or the page goes.
    let watchers = StoredValue::new_local(Vec::<web_sys::AbortController>::new());
    let sessions = LocalResource::new(move || {
        refresh.track();
        async move {
            let mut list = storage::list_sessions().await?;
            for old in watchers
                .try_update_value(std::mem::take)
                .unwrap_or_default()
            {
                old.abort();
            }
            // "running" is stored as the writer last committed it: a session whose tab closed
            // mid-run is not running (opening it pauses it), and says so.
            let Some(held) = crate::locks::held().await else {
                return Ok::<_, storage::StorageError>(list);
            };
            let running = |r: &&mut SessionRecord| {
                SessionStatus::from_word(&r.status) == Some(SessionStatus::Running)
            };
            for record in list.iter_mut().filter(running) {
                if !held.contains(&record.id) {
                    record.status = SessionStatus::Paused.word().into();
                    continue;
                }
                // When the tab running it closes, the list reloads.
                let Ok(controller) = web_sys::AbortController::new() else {
                    continue;
                };
                crate::locks::queue(&record.id, true, Some(&controller.signal()), move |lock| {
                    lock.release();
                    refresh.update(|v| *v += 1);
                });
                watchers.update_value(|w| w.push(controller));
            }
            Ok(list)
        }
    });
    on_cleanup(move || {
        for old in watchers
            .try_update_value(std::mem::take)
            .unwrap_or_default()
        {
            old.abort();
        }
    });
    // Other tabs' changes show up here too.
    let listener = crate::app::on_session_broadcast(move |_| refresh.update(|v| *v += 1));
    on_cleanup(move || drop(listener));
    let busy = RwSignal::new(false);
    let over = RwSignal::new(false);

    // A file whose session is already stored waits here until the person says what to do.
    let duplicate = RwSignal::new(None::<(String, String, String)>);
    // The file being imported and the index of its stage in `transfer::IMPORT_STAGES`.
    let importing = RwSignal::new(None::<(String, usize)>);
    let import_as = move |name: String, text: String, keep_both: bool| {
        busy.set(true);
        importing.set(Some((name.clone(), 0)));
        leptos::task::spawn_local(async move {
            let progress = |stage| importing.update(|i| i.iter_mut().for_each(|i| i.1 = stage));
            let imported = transfer::import_session(&text, keep_both, progress).await;
            importing.set(None);
            match imported {
                Ok(transfer::Imported::Stored(id)) => {
                    state.info_for_next_page(format!("Imported “{name}”."));
                    refresh.update(|v| *v += 1);
                    navigate(&Route::session(id));
                }
                Ok(transfer::Imported::AlreadyThere(id)) => duplicate.set(Some((name, text, id))),
                Err(e) => state.error(format!("“{name}” was not imported: {e}")),
            }
            busy.set(false);
        });
    };
    let import_text = move |name: String, text: String| import_as(name, text, false);
    let import_files = move |files: Option<web_sys::FileList>| {
        let Some(files) = files else { return };
        let Some(file) = files.get(0) else { return };
        let name = file.name();
        importing.set(Some((name.clone(), 0)));
        leptos::task::spawn_local(async move {
            match crate::util::read_session_file(&file).await {
                Ok(text) => import_text(name, text),
                Err(e) => {
                    importing.set(None);
                    state.error(format!("“{name}” was not imported: {e}"));
                }
            }
        });
    };
    // The promise is "anywhere on this page": the whole window takes the drop while the list is
    // shown, not just the section under the pointer.
    let dragover = window_event_listener(leptos::ev::dragover, move |ev| {
        ev.prevent_default();
        over.set(true);
    });
    let dragleave = window_event_listener(leptos::ev::dragleave, move |ev| {
        // Only when the pointer leaves the window (no element it enters).
        if ev.related_target().is_none() {
            over.set(false);
        }
    });
    let drop_listener = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        over.set(false);
        import_files(ev.data_transfer().and_then(|d| d.files()));
    });
    on_cleanup(move || {
        dragover.remove();
        dragleave.remove();
        drop_listener.remove();
    });
    let open_demo = move || {
        busy.set(true);
        leptos::task::spawn_local(async move {
            match gloo_net::http::Request::get(DEMO_FILE).send().await {
                Ok(r) if r.ok() => match r.text().await {
                    Ok(text) => import_text("demo session".into(), text),
                    Err(e) => state.error(format!("The demo session could not be read: {e}")),
                },
                Ok(r) => state.error(format!(
                    "The demo session file is missing from this site (HTTP {}).",
                    r.status()
                )),
                Err(e) => state.error(format!("The demo session could not be loaded: {e}")),
            }
            busy.set(false);
        });
    };

    // A kind's one-click demo (the kinds that have one): a session on the demo model, opened.
    let open_kind_demo = move |demo: &'static Demo| {
        busy.set(true);
        leptos::task::spawn_local(async move {
            let created = (demo.create)(now_ms() as u64);
            match async { crate::sessions::store_new(created?).await }.await {
                Ok(id) => navigate(&Route::session(id)),
                Err(e) => state.error(e),
            }
            busy.set(false);
        });
    };

    view! {
        <section class="page home">
            <div class="hero">
                <h1 class="grow">"Your sessions"</h1>
                <div class="home-actions">
                    <a class="button" href="#/new">"New session"</a>
                    <label class="button ghost" tabindex="0" on:keydown=move |ev: web_sys::KeyboardEvent| {
                        if ev.key() == "Enter" || ev.key() == " " {
                            ev.prevent_default();
                            if let Some(input) = document().get_element_by_id("import-file") {
                                input.unchecked_into::<web_sys::HtmlElement>().click();
                            }
                        }
                    }>
                        "Import…"
                        <input id="import-file" type="file" accept=".json,.roundtable.json,application/json" hidden
                            on:change=move |ev| {
                                let input: web_sys::HtmlInputElement = event_target(&ev);
                                import_files(input.files());
                                input.set_value("");
                            }/>
                    </label>
                    <button class="ghost" name="open-demo" disabled=move || busy.get() on:click=move |_| open_demo()>
                        "Try a demo team session"
                    </button>
                    {Kind::ALL.iter().filter_map(|k| pages_of(*k).demo.as_ref()).map(|demo| view! {
                        <button class="ghost" name=demo.name disabled=move || busy.get() on:click=move |_| open_kind_demo(demo)>
                            {demo.label}
                        </button>
                    }).collect_view()}
                </div>
            </div>
            <p class="tagline" data-tagline="true">
                {format!(
                    "Roundtable runs AI models together on your request, in this tab — {}. Every answer is checked, and you can watch, steer and answer their questions.",
                    tagline()
                )}
            </p>
            {move || duplicate.get().map(|(name, text, existing)| {
                let (name2, text2) = (name.clone(), text.clone());
                view! {
                    <div class="banner warn" role="alertdialog" aria-labelledby="dup-title" data-banner="duplicate">
                        <span class="grow" id="dup-title">
                            <strong>{format!("“{name}” is already in your sessions.")}</strong>
                            " Keep both, or open the one you have?"
                        </span>
                        <button name="keep-both" on:click=move |_| {
                            duplicate.set(None);
                            import_as(name2.clone(), text2.clone(), true);
                        }>"Keep both"</button>
                        <button class="ghost" name="open-existing" on:click=move |_| {
                            duplicate.set(None);
                            navigate(&Route::session(existing.clone()));
                        }>"Open the one I have"</button>
                        <button class="ghost" name="cancel-import" on:click=move |_| duplicate.set(None)>"Cancel"</button>
                    </div>
                }
            })}
            <div role="status" class="import-progress-region">
                {move || importing.get().map(|(name, stage)| {
                    let of = transfer::IMPORT_STAGES.len();
                    view! {
                        <div class="import-progress" data-import-stage=stage>
                            <label for="import-progress">
                                {format!("Importing “{name}”: {} ({} of {of})…", transfer::IMPORT_STAGES[stage], stage + 1)}
                            </label>
                            <progress id="import-progress" max=of value=stage></progress>
                        </div>
                    }
                })}
            </div>
            <div class=move || if over.get() { "dropzone over" } else { "dropzone" }>
                "Drop a " <code>".roundtable.json"</code> " file anywhere on this page to import it."
            </div>
            <Suspense fallback=|| view! { <p class="muted">"Loading sessions…"</p> }>
                {move || sessions.get().map(|result| match result {
                    Err(e) => view! { <p class="notice error" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(list) if list.is_empty() => view! {
                        <div class="card empty">
                            <p><strong>"No sessions yet."</strong></p>
                            <p>"Start one with " <a href="#/new">"New session"</a>
                               " — every member runs on the offline demo model unless you pick a provider — or open the recorded demo."</p>
                        </div>
                    }.into_any(),
                    Ok(list) => view! { <SessionTable list=list refresh=refresh/> }.into_any(),
                })}
            </Suspense>
        </section>
    }
}

/// The family of a session in the list: what a fork was forked from (a link to the original at
/// the point it was forked, or a word when the original is gone), and how many forks a session has.
fn family_line(r: &SessionRecord, list: &[SessionRecord]) -> Option<AnyView> {
    let forks = list
        .iter()
        .filter(|o| o.forked_from.as_ref().is_some_and(|(of, _)| *of == r.id))
        .count();
    let forks = (forks > 0).then(|| {
        let word = if forks == 1 {
            "1 fork".to_string()
        } else {
            format!("{forks} forks")
        };
        view! { <span class="muted small family" data-forks=forks>{word}</span> }
    });
    let origin = r.forked_from.as_ref().map(|(of, seq)| {
        let original = list.iter().find(|o| o.id == *of);
        let href = Route::Session {
            id: of.clone(),
            product: None,
            at: Some(*seq),
        }
        .href();
        // Core's words for the fork and its what-ifs; records from before them say the point.
        let note = r
            .fork_note
            .clone()
            .unwrap_or_else(|| "A fork".to_string());
        match original {
            Some(o) => view! {
                <span class="muted small family" data-forked-from=of.clone()>
                    <span class="fork-note">{note}</span> " · of " <a href=href>{o.title.clone()}</a>
                </span>
            }
            .into_any(),
            None => view! {
                <span class="muted small family" data-forked-from=of.clone()>
                    <span class="fork-note">{note}</span> " · of a session not in this browser"
                </span>
            }
            .into_any(),
        }
    });
    (forks.is_some() || origin.is_some()).then(|| view! { {origin} {forks} }.into_any())
}

/// The sessions table.
#[component]
fn SessionTable(list: Vec<SessionRecord>, refresh: RwSignal<u32>) -> impl IntoView {
    let state = app_state();
    let now = now_ms();
    let ask = RwSignal::new(None::<Ask>);
    let deleting = StoredValue::new(None::<String>);
    let delete = Callback::new(move |_: String| {
        let Some(id) = deleting.get_value() else {
            return;
        };
        leptos::task::spawn_local(async move {
            crate::runner::forget(&id);
            match storage::delete_session(&id).await {
                Ok(()) => {
                    state.info("Session deleted.");
                    refresh.update(|v| *v += 1);
                }
                Err(e) => state.error(e.to_string()),
            }
        });
    });
    view! {
        <AskDialog ask=ask on_confirm=delete/>
        <div class="card">
            <table class="sessions">
                <thead>
                    <tr>
                        <th scope="col">"Title"</th>
                        <th scope="col">"Kind"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col">"Reached"</th>
                        <th scope="col">"Last change"</th>
                        <th scope="col" class="num">"Tokens"</th>
                        <th scope="col"><span class="sr-only">"Actions"</span></th>
                    </tr>
                </thead>
                <tbody>
                    {list.iter().map(|r| {
                        let family = family_line(r, &list);
                        let r = r.clone();
                        let id = r.id.clone();
                        let id_export = r.id.clone();
                        let title = r.title.clone();
                        view! {
                            <tr data-session-id=r.id.clone()>
                                <td class="title"><a href=Route::session(r.id.clone()).href()>{r.title.clone()}</a>{family}</td>
                                <td data-kind=r.kind.clone()>{Kind::from_name(&r.kind).map_or_else(|| r.kind.clone(), |k| k.title().to_string())}</td>
                                <td><span class=format!("badge {}", r.status)>{status_label(&r.status)}</span></td>
                                // In the kind's word: "round 5", "turn 28", "pass 1".
                                <td data-label="Reached">{format!("{} {}", Kind::from_name(&r.kind).map_or("round", |k| k.round_word()).to_lowercase(), r.round)}</td>
                                <td>{ago(r.updated_at, now)}</td>
                                <td class="num" data-label="Tokens">{short_count(r.tokens)}</td>
                                <td class="num">
                                    <button class="ghost small" title="Export the session file" on:click=move |_| {
                                        let id = id_export.clone();
                                        leptos::task::spawn_local(async move {
                                            if let Err(e) = transfer::export_session_file(&id).await { state.error(e); }
                                        });
                                    }>"Export"</button>
                                    " "
                                    <button class="ghost danger small" aria-label=format!("Delete {title}") on:click=move |_| {
                                        deleting.set_value(Some(id.clone()));
                                        ask.set(Some(Ask {
                                            title: "Delete this session?".into(),
                                            message: format!("“{title}” and all its events will be removed from this browser. Export it first to keep a copy."),
                                            field: None,
                                            confirm: "Delete".into(),
                                            danger: true,
                                        }));
                                    }>"Delete"</button>
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The kinds as the tagline lists them: "a team that builds, a meeting that decides and …".
fn tagline() -> String {
    let phrases: Vec<&str> = Kind::ALL.iter().map(|k| pages_of(*k).tagline).collect();
    match phrases.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}
