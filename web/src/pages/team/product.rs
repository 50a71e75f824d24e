//! One product: its current version as Markdown, its history with a diff between any two
//! versions, and its collab threads. The person may accept a version or reject the latest, as the
//! chair would; each is recorded as the person's event. What the panel shows, and which of those
//! actions it offers, is core's [`ProductPanel`].

use leptos::prelude::*;
use roundtable_core::diff::{diff_lines, DiffLine};
use roundtable_core::protocol::team::view::{CollabCard, ProductPanel, VersionCard};
use roundtable_core::protocol::team::PersonEdit;

use super::edit_team;
use crate::app::app_state;
use crate::dialog::{Ask, AskDialog};
use crate::markdown::to_safe_html;
use crate::pages::session::ViewMemo;
use crate::runner::Runner;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Current,
    History,
    Collabs,
}

/// The selected product.
#[component]
pub fn ProductView(product_id: String, on_select: Callback<Option<String>>) -> impl IntoView {
    let runner = expect_context::<Runner>();
    let tab = RwSignal::new(Tab::Current);
    let pid = StoredValue::new(product_id);
    let product = Memo::new(move |_| {
        runner.with(|s| super::with_team(s, |t| t.product(&pid.get_value())).flatten())
    });

    view! {
        {move || match product.get() {
            None => view! {
                <h2>"Product"</h2>
                <div class="panel-body">
                    <p>"There is no product " <code>{pid.get_value()}</code> " in this session."</p>
                    <button class="ghost" on:click=move |_| on_select.run(None)>"Show the overview"</button>
                </div>
            }.into_any(),
            Some(p) => {
                let collab_count = p.collab_count;
                view! {
                    <h2>
                        <span class="grow">{p.name.clone()}</span>
                        <button class="ghost small" on:click=move |_| on_select.run(None)>"Overview"</button>
                    </h2>
                    <div class="panel-body">
                        <ProductMeta product=p.clone()/>
                        <div class="tabs" role="tablist">
                            <button role="tab" aria-selected=move || (tab.get() == Tab::Current).to_string() on:click=move |_| tab.set(Tab::Current)>"Current version"</button>
                            <button role="tab" aria-selected=move || (tab.get() == Tab::History).to_string() on:click=move |_| tab.set(Tab::History)>
                                {format!("History ({})", p.versions.len())}
                            </button>
                            <button role="tab" aria-selected=move || (tab.get() == Tab::Collabs).to_string() on:click=move |_| tab.set(Tab::Collabs)>
                                {format!("Collabs ({collab_count})")}
                            </button>
                        </div>
                        {move || match tab.get() {
                            Tab::Current => view! { <Current product=product.get().unwrap_or_else(|| p.clone())/> }.into_any(),
                            Tab::History => view! { <History product=product.get().unwrap_or_else(|| p.clone())/> }.into_any(),
                            Tab::Collabs => view! { <Collabs product=product.get().unwrap_or_else(|| p.clone())/> }.into_any(),
                        }}
                    </div>
                }.into_any()
            }
        }}
    }
}

#[component]
fn ProductMeta(product: ProductPanel) -> impl IntoView {
    view! {
        <div class="product-meta">
            <span class="badge">{product.type_word}</span>
            <span class=format!("badge {}", product.status)>{product.status_text.clone()}</span>
            <span class="muted small">{product.id.clone()}</span>
            {product.owner.clone().map(|o| view! { <span class="small">"owner " <strong>{o}</strong></span> })}
            {product.assignee.clone().map(|a| view! { <span class="small">"assigned to " <strong>{a}</strong></span> })}
        </div>
        {product.description.clone().map(|d| view! { <p>{d}</p> })}
        <details>
            <summary>"Definition of done"</summary>
            <p>{product.dod.clone()}</p>
        </details>
        {product.rejection_reason.clone().map(|r| view! {
            <p class="violation warning"><strong>"Latest version rejected: "</strong>{r}</p>
        })}
    }
}

#[component]
fn Current(product: ProductPanel) -> impl IntoView {
    let runner = expect_context::<Runner>();
    let state = app_state();
    let Some(v) = product.shown.map(|i| product.versions[i].clone()) else {
        return view! { <p class="muted">"No version written yet."</p> }.into_any();
    };
    let is_accepted = product.shown_accepted;
    // What the person may do with this version is the team's rule, decided by core.
    let actions = product.actions;
    let pid = product.id.clone();
    let vid = v.id.clone();
    let html = to_safe_html(&v.content);
    let read_only = runner.read_only;
    let ViewMemo(session_view) = expect_context::<ViewMemo>();
    // Only what the session's state allows is offered: a done session shows no edit buttons.
    let editable = move || session_view.with(|v| v.actions.edit) && !read_only.get();
    let ask = RwSignal::new(None::<Ask>);
    let rejecting = StoredValue::new(None::<String>);
    let reject = Callback::new(move |reason: String| {
        let Some(product_id) = rejecting.get_value() else {
            return;
        };
        let edit = PersonEdit::RejectVersion { product_id, reason };
        leptos::task::spawn_local(async move {
            match runner.command(|s| edit_team(s, edit)).await {
                Ok(()) => state.info("Version rejected; the team sees your reason."),
                Err(e) => state.error(e),
            }
        });
    });
    view! {
        <AskDialog ask=ask on_confirm=reject/>
        <div class="product-meta">
            <strong>{v.title.clone()}</strong>
            <span class="badge" data-version-number=v.number
                title=format!("{} is this version's id in the session", v.id)>
                {format!("version {} of {} · {}", v.number, product.versions.len(), v.id)}
            </span>
            {is_accepted.then(|| view! { <span class="badge accepted">"accepted"</span> })}
            <span class="muted small">{format!("by {} · round {}", v.author, v.round)}</span>
        </div>
        <p class="muted small">{v.change_summary.clone()}</p>
        <article class="markdown" inner_html=html></article>
        {move || editable().then(|| view! {
        <div class="row">
            {actions.accept.then(|| {
                let pid = pid.clone();
                let vid = vid.clone();
                view! {
                    <button class="ghost small" disabled=move || read_only.get() on:click=move |_| {
                        let edit = PersonEdit::AcceptVersion { product_id: pid.clone(), version_id: vid.clone() };
                        leptos::task::spawn_local(async move {
                            match runner.command(|s| edit_team(s, edit)).await {
                                Ok(()) => state.info("Version accepted."),
                                Err(e) => state.error(e),
                            }
                        });
                    }>"Accept this version"</button>
                }
            })}
            {actions.reject.then(|| {
                let pid = pid.clone();
                view! {
                    <button class="ghost danger small" name="reject-version" disabled=move || read_only.get() on:click=move |_| {
                        rejecting.set_value(Some(pid.clone()));
                        ask.set(Some(Ask {
                            title: "Reject the latest version?".into(),
                            message: "The team writes it again. The next writer sees your reason.".into(),
                            field: Some("Why is this version not good enough?".into()),
                            confirm: "Reject".into(),
                            danger: true,
                        }));
                    }>"Reject the latest version"</button>
                }
            })}
        </div>
        })}
    }
    .into_any()
}

#[component]
fn History(product: ProductPanel) -> impl IntoView {
    let versions: Vec<VersionCard> = product.versions;
    if versions.is_empty() {
        return view! { <p class="muted">"No version written yet."</p> }.into_any();
    }
    let n = versions.len();
    let from = RwSignal::new(versions[n.saturating_sub(2)].id.clone());
    let to = RwSignal::new(versions[n - 1].id.clone());
    let all = StoredValue::new(versions.clone());
    let options = move || {
        all.get_value()
            .into_iter()
            .enumerate()
            .map(|(i, v)| view! { <option value=v.id.clone()>{format!("version {} ({}) — {} (round {})", i + 1, v.id, v.title, v.round)}</option> })
            .collect_view()
    };
    let diff = move || {
        let list = all.get_value();
        let a = list
            .iter()
            .find(|v| v.id == from.get())
            .map(|v| v.content.clone())
            .unwrap_or_default();
        let b = list
            .iter()
            .find(|v| v.id == to.get())
            .map(|v| v.content.clone())
            .unwrap_or_default();
        diff_lines(&a, &b)
    };
    view! {
        <ol class="stack" reversed>
            {versions.iter().enumerate().rev().map(|(i, v)| view! {
                <li>
                    <strong>{format!("Version {}", i + 1)}</strong> <span class="muted small">{format!(" ({})", v.id)}</span> " " {v.title.clone()}
                    <span class="muted small">{format!(" · {} · round {}", v.author, v.round)}</span>
                    <div class="small">{v.change_summary.clone()}</div>
                    {v.reflection_note.clone().map(|n| view! { <div class="small muted">"Reflection: " {n}</div> })}
                </li>
            }).collect_view()}
        </ol>
        <h3>"Compare two versions"</h3>
        <div class="row">
            <label class="field grow"><span>"From"</span>
                <select name="diff-from" prop:value=move || from.get() on:change=move |ev| from.set(event_target_value(&ev))>{options()}</select>
            </label>
            <label class="field grow"><span>"To"</span>
                <select name="diff-to" prop:value=move || to.get() on:change=move |ev| to.set(event_target_value(&ev))>{options()}</select>
            </label>
        </div>
        <div class="diff" role="group" aria-label="Differences">
            {move || {
                let d = diff();
                if d.iter().all(|l| matches!(l, DiffLine::Same(_))) {
                    return view! { <div class="same muted">"The two versions are identical."</div> }.into_any();
                }
                d.into_iter().map(|l| match l {
                    DiffLine::Same(t) => view! { <div class="same">{t}</div> },
                    DiffLine::Added(t) => view! { <div class="add">{t}</div> },
                    DiffLine::Removed(t) => view! { <div class="del">{t}</div> },
                }).collect_view().into_any()
            }}
        </div>
    }
    .into_any()
}

#[component]
fn Collabs(product: ProductPanel) -> impl IntoView {
    if product.threads.is_empty() {
        return view! { <p class="muted">"No collabs on this product yet."</p> }.into_any();
    }
    view! {
        <div class="threads">
            {product.threads.into_iter().map(|thread| view! {
                <Collab collab=thread.root reply=false/>
                {thread.replies.into_iter().map(|r| view! { <Collab collab=r reply=true/> }).collect_view()}
            }).collect_view()}
        </div>
    }
    .into_any()
}

#[component]
fn Collab(collab: CollabCard, reply: bool) -> impl IntoView {
    let html = to_safe_html(&collab.comment);
    view! {
        <div class=if reply { "collab reply" } else { "collab" } data-collab-id=collab.id.clone()>
            <div class="product-meta">
                <span class="who">{collab.author.clone()}</span>
                <span class="badge">{collab.type_word}</span>
                <span class="muted small">{format!("{} · importance {} · round {}", collab.id, collab.importance, collab.round)}</span>
                {collab.version_id.clone().map(|v| view! { <span class="badge">{v}</span> })}
            </div>
            <div><strong>{collab.summary.clone()}</strong></div>
            <div class="markdown small" inner_html=html></div>
        </div>
    }
}
