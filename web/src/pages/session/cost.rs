//! What the session has cost so far, for either kind: the total (with the money budget when
//! there is one) and, opened, the cost per member and per round.
//!
//! Every figure and word is core's ([`roundtable_core::cost::CostView`] in the session's
//! view): estimates say so, the provider's reported figures say so, and calls with no price are
//! counted as such, never as free.

use leptos::prelude::*;

use super::ViewMemo;

/// The cost line under the session header.
#[component]
pub fn CostPanel() -> impl IntoView {
    let ViewMemo(view) = expect_context::<ViewMemo>();
    view! {
        <details class="cost small" aria-label="Cost">
            <summary>
                "Cost: " <span data-cost-total>{move || view.with(|v| v.cost.total_text.clone())}</span>
                {move || view.with(|v| v.cost.budget_text.clone()).map(|b| view! {
                    <span class="muted" data-cost-budget>{format!(" · money budget: {b}")}</span>
                })}
            </summary>
            {move || {
                let cost = view.with(|v| v.cost.clone());
                if cost.members.is_empty() {
                    return view! { <p class="muted">"No call has been answered yet."</p> }.into_any();
                }
                view! {
                    <div class="cost-tables">
                        <table aria-label="Cost per member">
                            <thead><tr><th>"Member"</th><th class="num">"Cost"</th></tr></thead>
                            <tbody>
                                {cost.members.into_iter().map(|m| view! {
                                    <tr data-cost-member=m.id><td>{m.name}</td><td class="num">{m.text}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                        <table aria-label="Cost per round">
                            <thead><tr><th>"Round"</th><th class="num">"Cost"</th></tr></thead>
                            <tbody>
                                {cost.rounds.into_iter().map(|(round, text)| view! {
                                    <tr data-cost-round=round.clone()><td>{round.clone()}</td><td class="num">{text}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        </details>
    }
}
