//! New autocoding session (spec `002`'s `autocoding_init`): the requirements (or the demo's, one
//! click away), the turn limit and approval threshold (002's defaults, 10 and 0.9), whether the
//! person has the last word, the sandbox's time limit, the player's and the coach's models, and
//! optionally a saved `AutocodingState` to go on from. The rules are core's: the form builds an
//! [`AutocodingConfig`] and shows every problem core reports; nothing is created while one remains.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::autocoding::demo::DEMO_REQUIREMENTS;
use roundtable_core::protocol::autocoding::{Autocoding, AutocodingConfig, AutocodingState};

use crate::app::app_state;
use crate::pages::form::{sentence, ProviderModelFields};
use crate::providers::ProviderId;
use crate::route::{navigate, Route};
use crate::sessions;

/// The new-autocoding form.
#[component]
pub fn NewAutocodingForm() -> impl IntoView {
    let state = app_state();
    let demo = ModelRef {
        provider: ProviderId::Demo.as_str().into(),
        model: ProviderId::Demo.default_model().into(),
    };
    let defaults = AutocodingConfig::standard("", demo);
    let requirements = RwSignal::new(String::new());
    let turns = RwSignal::new(defaults.max_turns.to_string());
    let threshold = RwSignal::new(defaults.approval_threshold.to_string());
    let person = RwSignal::new(false);
    let limit = RwSignal::new((defaults.run_limit_ms / 1000).to_string());
    let saved = RwSignal::new(String::new());
    let player_provider = RwSignal::new(ProviderId::Demo);
    let player_model = RwSignal::new(ProviderId::Demo.default_model().to_string());
    let coach_provider = RwSignal::new(ProviderId::Demo);
    let coach_model = RwSignal::new(ProviderId::Demo.default_model().to_string());
    let errors = RwSignal::new(Vec::<String>::new());
    let busy = RwSignal::new(false);

    let build = move || -> Result<AutocodingConfig, Vec<String>> {
        let mut problems = Vec::new();
        let mut config = defaults.clone();
        config.session_id = crate::util::new_id();
        config.requirements = requirements.get_untracked().trim().to_string();
        match turns.get_untracked().trim().parse() {
            Ok(n) => config.max_turns = n,
            Err(_) => problems.push("The turn limit needs a whole number.".to_string()),
        }
        match threshold.get_untracked().trim().parse() {
            Ok(x) => config.approval_threshold = x,
            Err(_) => {
                problems.push("The approval threshold needs a number such as 0.9.".to_string())
            }
        }
        match limit.get_untracked().trim().parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 => config.run_limit_ms = (s * 1000.0).round() as u64,
            _ => problems.push("The run's time limit needs a number of seconds.".to_string()),
        }
        config.person_approval = person.get_untracked();
        config.player.model = ModelRef {
            provider: player_provider.get_untracked().as_str().into(),
            model: player_model.get_untracked().trim().into(),
        };
        config.coach.model = ModelRef {
            provider: coach_provider.get_untracked().as_str().into(),
            model: coach_model.get_untracked().trim().into(),
        };
        let text = saved.get_untracked();
        if !text.trim().is_empty() {
            match AutocodingState::load(&text) {
                Ok(s) => {
                    config.session_id = s.session_id.clone();
                    config.resume = Some(s);
                }
                Err(violations) => problems.extend(violations.iter().map(|v| {
                    format!(
                        "The saved state: {} (at {}; {}).",
                        v.message,
                        if v.path.is_empty() { "/" } else { &v.path },
                        v.hint
                    )
                })),
            }
        }
        if let Err(all) = config.check() {
            problems.extend(all.0.iter().map(|e| sentence(&e.to_string())));
        }
        if problems.is_empty() {
            Ok(config)
        } else {
            Err(problems)
        }
    };

    let create = move || {
        if busy.get_untracked() {
            return;
        }
        match build() {
            Err(e) => {
                errors.set(e);
                crate::util::focus_after_render("[data-error=autocoding]");
            }
            Ok(config) => {
                errors.set(Vec::new());
                busy.set(true);
                leptos::task::spawn_local(async move {
                    match sessions::create::<Autocoding>(config).await {
                        Ok(id) => navigate(&Route::session(id)),
                        Err(e) => state.error(e),
                    }
                    busy.set(false);
                });
            }
        }
    };

    view! {
        <form class="stack" data-form="autocoding" on:submit=move |ev| { ev.prevent_default(); create(); } novalidate>
            <div class="card">
                <label class="field">
                    <span>"What should the code do? One requirement per list item."</span>
                    <textarea name="requirements" rows="6"
                        placeholder="e.g. Write slugify(text) for blog post URLs.\n- lowercases the text and joins its words with single dashes\n- drops punctuation"
                        aria-describedby="autocoding-error"
                        prop:value=move || requirements.get()
                        on:input=move |ev| requirements.set(event_target_value(&ev))></textarea>
                </label>
                <div class="row">
                    <button type="button" class="ghost" name="use-demo-requirements"
                        on:click=move |_| requirements.set(DEMO_REQUIREMENTS.to_string())>"Use the demo's requirements"</button>
                </div>
                <p class="muted small">"A player writes JavaScript and its tests; the tests run in a sandbox that can reach nothing; a coach, who sees only the requirements, the code and the test results, scores each turn. Approval at the threshold ends it, or the turns run out."</p>
            </div>
            <div class="card">
                <div class="row">
                    <label class="field">
                        <span>"Turns"</span>
                        <input type="number" name="max-turns" min="1" max=AutocodingConfig::TURNS_MAX.to_string() inputmode="numeric"
                            prop:value=move || turns.get() on:input=move |ev| turns.set(event_target_value(&ev))/>
                    </label>
                    <label class="field">
                        <span>"Approval threshold (0–1)"</span>
                        <input type="number" name="threshold" min="0" max="1" step="0.05" inputmode="decimal"
                            prop:value=move || threshold.get() on:input=move |ev| threshold.set(event_target_value(&ev))/>
                    </label>
                    <label class="field">
                        <span>"Time limit per run (s)"</span>
                        <input type="number" name="run-limit" min="0.5" max="60" step="0.5" inputmode="decimal"
                            prop:value=move || limit.get() on:input=move |ev| limit.set(event_target_value(&ev))/>
                    </label>
                </div>
                <label class="choice">
                    <input type="checkbox" name="person-approval" prop:checked=move || person.get()
                        on:change=move |ev| person.set(event_target_checked(&ev))/>
                    <span><strong>"I approve the end"</strong>" "<span class="muted small">"The coach's approval waits for yours: approve, reject, or ask for a revision with a note the player reads."</span></span>
                </label>
            </div>
            <div class="field-error" role="alert" data-error="autocoding" id="autocoding-error" tabindex="-1">
                {move || errors.get().join(" ")}
            </div>
            <div class="row end form-actions">
                <button type="submit" name="create-autocoding" disabled=move || busy.get()>"Create autocoding session"</button>
                <a class="button ghost" href="#/">"Cancel"</a>
            </div>
            <h2 class="form-more">"Models and a saved state "<span class="muted small">"(optional: the defaults run on the demo model)"</span></h2>
            <div class="card">
                <h3 class="small">"The player — writes the code"</h3>
                <div class="member-row" data-member="player">
                    <ProviderModelFields name="player" provider=player_provider model=player_model
                        default_model=Callback::new(|p: ProviderId| p.default_model().to_string())/>
                </div>
                <h3 class="small">"The coach — checks it"</h3>
                <div class="member-row" data-member="coach">
                    <ProviderModelFields name="coach" provider=coach_provider model=coach_model
                        default_model=Callback::new(|p: ProviderId| p.default_model().to_string())/>
                </div>
            </div>
            <div class="card">
                <label class="field">
                    <span>"Go on from a saved state (optional)"</span>
                    <textarea name="saved-state" rows="4" spellcheck="false" class="mono"
                        placeholder="The saved state, as JSON"
                        prop:value=move || saved.get() on:input=move |ev| saved.set(event_target_value(&ev))></textarea>
                    <small class="muted">"Paste a state Hegelion's autocoding saved (or this app's \"Autocoding state\"), waiting for the player: its turns and scores go on here, with the requirements and limits above."</small>
                </label>
            </div>
        </form>
    }
}
