//! The team's pages (specs `000`, `003`): the product tree, the selected product (or the
//! overview), the remarks to the person and the charter beside the shell's timeline and limits,
//! and the new team's form. They render core's
//! [`TeamView`](roundtable_core::protocol::team::view::TeamView) and decide nothing themselves.

use leptos::prelude::*;
use roundtable_core::engine::EngineError;
use roundtable_core::protocol::team::view::TeamView;
use roundtable_core::protocol::team::{PersonEdit, TeamState};
use roundtable_core::session::Session;

use super::kinds::{HasPages, KindPages};
use super::session::{budget, timeline, JumpBar};
use crate::runner::Runner;

mod charter;
mod new;
mod overview;
mod presets;
mod product;
mod tree;

impl HasPages for TeamState {
    const PAGES: KindPages = KindPages {
        panels,
        new_form,
        form_kept: true,
        exports: None,
        demo: None,
        wrap_up: "End the rounds and ask for the presentation",
        done: " The team presented its result; see the overview.",
        draft: " to let the team work, or go one step at a time.",
        tagline: "a team that builds",
    };
}

fn panels(product: Signal<Option<String>>, select: Callback<Option<String>>) -> AnyView {
    view! { <TeamPanels product=product select=select/> }.into_any()
}

fn new_form(shown: Signal<bool>) -> AnyView {
    view! { <new::NewTeamForm shown=shown/> }.into_any()
}

/// Runs `f` on the team's view model (`None` for a session of another kind).
fn with_team<T>(s: &Session, f: impl FnOnce(TeamView<'_>) -> T) -> Option<T> {
    s.kind_view::<TeamState>().map(f)
}

/// Records a person's edit of the team's state (charter, versions, remarks); core checks it.
fn edit_team(s: &mut Session, edit: PersonEdit) -> Result<(), EngineError> {
    s.edit_kind::<TeamState>(edit, crate::util::now_ms() as u64)
}

/// Whether the person may edit now: the state allows it (a done session does not) and this tab
/// is the writer. What is not allowed is not offered.
fn editable(runner: Runner) -> impl Fn() -> bool + Copy {
    let super::session::ViewMemo(view) = expect_context::<super::session::ViewMemo>();
    move || view.with(|v| v.actions.edit) && !runner.read_only.get()
}

/// A team's panels: the product tree, the selected product (or the overview), the timeline
/// with the remarks, the charter and the limits.
#[component]
fn TeamPanels(product: Signal<Option<String>>, select: Callback<Option<String>>) -> impl IntoView {
    let runner = expect_context::<Runner>();
    view! {
        <JumpBar items=&[("Products", "panel-products"), ("Product", "panel-product"), ("Timeline", "panel-timeline")]/>
        <div class="session-grid">
            <aside class="panel" aria-label="Products" id="panel-products">
                <h2>"Products" <span class="spacer"></span>
                    <span class="muted small">{move || runner.with(|s| with_team(s, |t| t.product_count()).unwrap_or(0))}</span>
                </h2>
                <tree::ProductTree selected=product on_select=select/>
            </aside>
            <div class="panel" aria-live="polite" id="panel-product">
                {move || match product.get() {
                    Some(p) => view! { <product::ProductView product_id=p on_select=select/> }.into_any(),
                    None => view! { <overview::Overview/> }.into_any(),
                }}
            </div>
            <div class="side-right stack" id="panel-timeline">
                <timeline::Timeline/>
                <charter::Remarks/>
                <charter::CharterPanel/>
                <budget::BudgetPanel/>
            </div>
        </div>
    }
}
