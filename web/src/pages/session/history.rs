//! The history slider: the session as it was after any event of its log — the tree, the
//! products, the transcript, the charter, the timeline — with the point in the route
//! (`#/s/<id>@<seq>`), so it can be shared inside the app.
//!
//! The slider is a range input (arrow keys step one event, Page Up/Down further, Home/End to the
//! ends). Moving it replaces the route's `@seq` (no Back-button entry per step) — or, on a page
//! with no route of its own (a shared link), sets the page's own point ([`HistoryPoint`]); the
//! page reads it and the runner folds to that point ([`Runner::show_history`]), so every panel
//! shows the past through the same `Runner::with`. While history is shown, a banner says so,
//! nothing can be run or edited, and "Back to live" returns.

use leptos::prelude::*;

use super::fork::ForkFrom;
use crate::route::{replace, Route};
use crate::runner::Runner;

/// The route of this page with `at` as the point of history.
fn route_at(at: Option<u64>) -> Route {
    match Route::current() {
        Route::Session { id, product, .. } => Route::Session { id, product, at },
        other => other,
    }
}

/// Where the point of history the page shows is kept when the page has no route of its own (a
/// shared link's page holds it in a signal); `None` in context: in the route's `@seq`.
#[derive(Clone, Copy)]
pub struct HistoryPoint(pub Callback<Option<u64>>);

/// The slider and, while a point of history is shown, the banner with the way back.
#[component]
pub fn HistoryBar() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let super::ViewMemo(view) = expect_context::<super::ViewMemo>();
    let ForkFrom(fork_from) = expect_context::<ForkFrom>();
    let total = move || runner.event_count();
    let shown = move || runner.history_at.get();
    let value = move || shown().unwrap_or_else(total);
    // The point by what happened there and in which unit ("Bo's answer was taken, round 2"),
    // never the event's index: the slider itself shows where it is.
    let label = move || {
        let k = value();
        runner
            .with_untracked(|s| s.point_words(k.saturating_sub(1)))
            .unwrap_or_default()
    };
    // Shows the session after event `seq` (`None`: live), wherever this page keeps its point.
    let point = use_context::<HistoryPoint>();
    let show = move |seq: Option<u64>| match point {
        Some(HistoryPoint(set)) => set.run(seq),
        None => replace(&route_at(seq)),
    };
    let go = move |len: usize| show(Some(len.saturating_sub(1) as u64));
    // Drawn once there is a history to scrub (not again on every event: the slider keeps focus).
    let has_history = Memo::new(move |_| total() > 1);
    view! {
        {move || has_history.get().then(|| view! {
            <section class="history-bar" aria-label="History" data-history=move || if shown().is_some() { "past" } else { "live" }>
                <label for="history-slider" class="small"><strong>"History"</strong></label>
                <input type="range" id="history-slider" name="history" min="1" max=total step="1"
                    prop:value=move || value().to_string()
                    aria-valuetext=label
                    on:input=move |ev| {
                        if let Ok(len) = event_target_value(&ev).parse::<usize>() { go(len); }
                    }/>
                <span class="muted small history-label" aria-hidden="true">{label}</span>
                {move || shown().is_none().then(|| {
                    // A finished session is not live: its last point is the latest, and final.
                    let done = view.with(|v| v.status.word() == "done");
                    view! {
                        <span class="badge ok small" data-live=(!done).to_string()>{if done { "Latest" } else { "Live" }}</span>
                    }
                })}
            </section>
        })}
        {move || shown().map(|k| view! {
            <div class="banner warn" role="status" data-banner="history">
                <span class="grow">
                    <strong><span class="banner-more">"Viewing history"</span><span class="banner-short">"History"</span></strong>
                    <span class="banner-more">{move || format!(" — the session as it was after “{}”. Nothing can be run or edited here.", label())}</span>
                </span>
                <button class="ghost small" name="fork-here" title="A new session with the events up to this point, then live"
                    on:click=move |_| fork_from.set(Some(roundtable_core::fork::ForkAt::Event(k as u64 - 1)))>"Fork from here"</button>
                <button class="small" name="back-to-live" on:click=move |_| show(None)>"Back to live"</button>
            </div>
        })}
    }
}
