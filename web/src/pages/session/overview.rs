//! The overview shown when no product is selected: the request, the team, the presentation
//! when there is one, and what the chair found missing.

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
            {move || runner.with(|s| {
                let Some(team) = s.as_team() else { return ().into_any() };
                let st = team.state();
                let presentation = st.presentation.clone();
                let missing = st.missing_details.clone();
                let members = st.members.clone();
                view! {
                    {(!presentation.is_empty()).then(|| view! {
                        <section class="presentation" aria-label="Presentation">
                            <h3>"Presentation"</h3>
                            {presentation.into_iter().map(|m| view! {
                                <div class="remark">
                                    <div class="small muted">{m.as_agent.clone()}</div>
                                    <div class="markdown" inner_html=to_safe_html(&m.content)></div>
                                </div>
                            }).collect_view()}
                        </section>
                    })}
                    <section>
                        <h3>"Request"</h3>
                        <div class="markdown" inner_html=to_safe_html(&st.request)></div>
                    </section>
                    <section>
                        <h3>{format!("Team: {}", st.team_name)}</h3>
                        <p class="muted small">{st.team_description.clone()}</p>
                        <table class="sessions">
                            <thead><tr><th>"Member"</th><th>"Role"</th><th>"Team role"</th><th>"Model"</th></tr></thead>
                            <tbody>
                                {members.into_iter().map(|m| view! {
                                    <tr>
                                        <td><strong>{m.name.clone()}</strong> <span class="muted small">{format!(" {}", m.id)}</span></td>
                                        <td>{m.role.clone()}</td>
                                        <td>{m.team_role.word()}</td>
                                        <td class="small">{format!("{} / {}", m.model.provider, m.model.model)}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </section>
                    {(!missing.is_empty()).then(|| view! {
                        <section>
                            <h3>"Missing details the chair noted"</h3>
                            <ul>{missing.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
                        </section>
                    })}
                    <p class="muted small">"Select a product in the tree to read it, compare its versions and see its collabs."</p>
                }.into_any()
            })}
        </div>
    }
}
