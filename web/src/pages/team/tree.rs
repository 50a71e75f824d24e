//! The product tree, collapsible and virtualized: only the rows in view (plus a margin) are in
//! the DOM, so a session with thousands of products opens and scrolls as fast as a small one.
//! Keyboard: ↑/↓ move the selection, → expands, ← collapses, Home/End jump.

use std::collections::HashSet;

use leptos::prelude::*;
use leptos::tachys::html::attribute::custom::CustomAttribute;

use crate::runner::Runner;

/// Height of one row in pixels (matches `.tree-row` in the stylesheet).
pub const ROW_PX: f64 = 30.0;
/// Rows rendered above and below the visible window.
const OVERSCAN: usize = 8;

/// The tree panel.
#[component]
pub fn ProductTree(
    selected: Signal<Option<String>>,
    on_select: Callback<Option<String>>,
) -> impl IntoView {
    let runner = expect_context::<Runner>();
    let collapsed = RwSignal::new(HashSet::<String>::new());
    let scroll_top = RwSignal::new(0.0f64);
    let viewport_h = RwSignal::new(480.0f64);
    let viewport = NodeRef::<leptos::html::Div>::new();

    // The rows are core's (the team's view); the page keeps only what the person folded.
    let rows = Memo::new(move |_| {
        let folded = collapsed.get();
        runner.with(|s| super::with_team(s, |t| t.tree_rows(&folded)).unwrap_or_default())
    });

    Effect::new(move |_| {
        if let Some(el) = viewport.get() {
            let h = el.client_height() as f64;
            if h > 0.0 {
                viewport_h.set(h);
            }
        }
    });

    let toggle = move |id: String| {
        collapsed.update(|c| {
            if !c.remove(&id) {
                c.insert(id);
            }
        })
    };
    let scroll_to_index = move |i: usize| {
        if let Some(el) = viewport.get_untracked() {
            let top = i as f64 * ROW_PX;
            let h = el.client_height() as f64;
            let cur = el.scroll_top() as f64;
            if top < cur {
                el.set_scroll_top(top as i32);
            } else if top + ROW_PX > cur + h {
                el.set_scroll_top((top + ROW_PX - h) as i32);
            }
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let list = rows.get_untracked();
        if list.is_empty() {
            return;
        }
        let cur = selected
            .get_untracked()
            .and_then(|id| list.iter().position(|r| r.id == id));
        let target = match ev.key().as_str() {
            "ArrowDown" => Some(cur.map_or(0, |i| (i + 1).min(list.len() - 1))),
            "ArrowUp" => Some(cur.map_or(0, |i| i.saturating_sub(1))),
            "Home" => Some(0),
            "End" => Some(list.len() - 1),
            "ArrowRight" | "ArrowLeft" => {
                if let Some(i) = cur {
                    let r = &list[i];
                    let is_closed = collapsed.get_untracked().contains(&r.id);
                    let open = ev.key() == "ArrowRight";
                    if r.has_children && is_closed == open {
                        toggle(r.id.clone());
                    }
                }
                None
            }
            _ => return,
        };
        ev.prevent_default();
        if let Some(t) = target {
            on_select.run(Some(list[t].id.clone()));
            scroll_to_index(t);
        }
    };

    view! {
        <div class="tree-viewport" node_ref=viewport role="tree" aria-label="Product tree" tabindex="0"
            aria-activedescendant=move || selected.get().map(|id| format!("tree-row-{id}"))
            on:scroll=move |_| {
                if let Some(el) = viewport.get_untracked() {
                    scroll_top.set(el.scroll_top() as f64);
                    viewport_h.set(el.client_height() as f64);
                }
            }
            on:keydown=on_key>
            <div class="tree-inner" style:height=move || format!("{}px", rows.with(|r| r.len()) * ROW_PX as usize)>
                {move || {
                    let top = scroll_top.get();
                    let h = viewport_h.get();
                    let sel = selected.get();
                    rows.with(|list| {
                        let first = ((top / ROW_PX).floor() as usize).saturating_sub(OVERSCAN);
                        let count = (h / ROW_PX).ceil() as usize + 2 * OVERSCAN;
                        list.iter().enumerate().skip(first).take(count).map(|(i, r)| {
                            let id = r.id.clone();
                            let id_toggle = r.id.clone();
                            let is_sel = sel.as_deref() == Some(r.id.as_str());
                            let level = (r.depth + 1).to_string();
                            let expanded = r.has_children.then(|| (!collapsed.get_untracked().contains(&r.id)).to_string());
                            view! {
                                <div class=if is_sel { "tree-row selected" } else { "tree-row" }
                                    role="treeitem" aria-selected=is_sel.to_string()
                                    aria-expanded=expanded data-product-id=r.id.clone() title=r.title.clone() id=format!("tree-row-{}", r.id)
                                    style:top=format!("{}px", i * ROW_PX as usize)
                                    style:padding-left=format!("{}px", 4 + r.depth * 16)
                                    on:click=move |_| on_select.run(Some(id.clone()))>
                                    {if r.has_children {
                                        let closed = collapsed.get_untracked().contains(&r.id);
                                        view! {
                                            <button class="twisty" tabindex="-1" aria-label=if closed { "Expand" } else { "Collapse" }
                                                on:click=move |ev| { ev.stop_propagation(); toggle(id_toggle.clone()); }>
                                                {if closed { "▸" } else { "▾" }}
                                            </button>
                                        }.into_any()
                                    } else {
                                        view! { <span class="twisty"></span> }.into_any()
                                    }}
                                    <span class=format!("dot {}", r.status) aria-hidden="true"></span>
                                    <span class="name">{r.name.clone()}</span>
                                    <span class="ptype">{r.type_word}</span>
                                </div>
                            }
                            // tachys has no typed `aria-level`: set it as a plain attribute.
                            .attr("aria-level", level)
                        }).collect_view()
                    })
                }}
            </div>
        </div>
    }
}
