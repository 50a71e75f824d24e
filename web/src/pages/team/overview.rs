//! The overview shown when no product is selected: the request, the team, the presentation
//! when there is one, and what the chair found missing — core's
//! [`Overview`](roundtable_core::protocol::team::view::Overview), rendered.

use leptos::prelude::*;

use crate::markdown::to_safe_html;
use crate::runner::Runner;

/// The overview panel.
#[component]
pub fn Overview() -> impl IntoView {
    let runner = expect_context::<Runner>();
    view! {
        <h2>"Overview"</h2>
        <div class="panel-body stack">
            {move || {
                let Some(o) = runner.with(|s| super::with_team(s, |t| t.overview())) else { return ().into_any() };
                view! {
                    {(!o.presentation.is_empty()).then(|| view! {
                        <section class="presentation" aria-label="Presentation">
                            <h3>"Presentation"</h3>
                            {o.presentation.into_iter().map(|(who, content)| view! {
                                <div class="remark">
                                    <div class="small muted">{who}</div>
                                    <div class="markdown" inner_html=to_safe_html(&content)></div>
                                </div>
                            }).collect_view()}
                        </section>
                    })}
                    <section>
                        <h3>"Request"</h3>
                        <div class="markdown" inner_html=to_safe_html(&o.request)></div>
                    </section>
                    <section>
                        <h3>{o.team_heading}</h3>
                        <p class="muted small">{o.team_description}</p>
                        {o.model.clone().map(|m| view! { <p class="muted small every-model">"Every member runs on "{m}"."</p> })}
                        <table class="sessions">
                            <thead><tr><th>"Member"</th><th>"Role"</th><th>"Team role"</th>{o.model.is_none().then(|| view! { <th>"Model"</th> })}</tr></thead>
                            <tbody>
                                {o.members.into_iter().map(|m| view! {
                                    <tr data-member=m.id>
                                        <td><strong>{m.name}</strong></td>
                                        <td>{m.role}</td>
                                        <td>{m.team_role}</td>
                                        {m.model.map(|model| view! { <td class="small"><span class="model-ref">{model}</span></td> })}
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </section>
                    {(!o.missing_details.is_empty()).then(|| view! {
                        <section>
                            <h3>"Missing details the chair noted"</h3>
                            <ul>{o.missing_details.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
                        </section>
                    })}
                    <p class="muted small">"Select a product in the tree to read it, compare its versions and see its collabs."</p>
                }.into_any()
            }}
        </div>
    }
}
