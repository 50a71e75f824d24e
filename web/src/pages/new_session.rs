//! New session: the kind comes first (core's list of kinds, each with its line about it), then
//! the picked kind's own form from its folder ([`super::kinds::KindPages::new_form`]).

use leptos::prelude::*;
use roundtable_core::session::Kind;

use super::kinds::pages_of;

/// The new-session page.
#[component]
pub fn NewSessionPage() -> impl IntoView {
    let kind = RwSignal::new(Kind::ALL[0]);
    view! {
        <section class="page new-session">
            <h1>"New session"</h1>
            <div class="kinds" role="radiogroup" aria-label="Kind of session">
                {Kind::ALL.iter().map(|k| {
                    let k = *k;
                    view! {
                        <button type="button" role="radio" class="kind" data-kind=k.name()
                            aria-checked=move || (kind.get() == k).to_string()
                            on:click=move |_| kind.set(k)>
                            <strong>{k.title()}</strong>
                            <span class="muted small">{k.blurb()}</span>
                        </button>
                    }
                }).collect_view()}
            </div>
            // The forms that mount when picked come before those kept hidden, so the first field
            // of a name on the page is the shown form's.
            {[false, true].into_iter().flat_map(|kept| Kind::ALL.iter().filter(move |k| pages_of(**k).form_kept == kept)).map(|k| {
                let k = *k;
                (pages_of(k).new_form)(Signal::derive(move || kind.get() == k))
            }).collect_view()}
        </section>
    }
}
