//! New autocoding session (spec `002`'s `autocoding_init`): optionally a saved `AutocodingState`
//! first (pasted, chosen with a file picker or dropped on its card), then the requirements (or the
//! demo's, one click away), the turn limit and approval threshold (002's defaults, 10 and 0.9),
//! whether the person has the last word, the sandbox's time limit (at most 30 s), the player's
//! and the coach's models, and the button last. A loaded state is shown as it is — its status,
//! its turn of its limit, its scores and turns, every warning at its pointer — whatever its
//! status; one waiting for the player goes on with its own requirements, limit and threshold,
//! shown read-only (002 has no tool that changes them); an ended one is viewed, never continued.
//! The rules are core's: the form builds an [`AutocodingConfig`] and shows every problem core
//! reports; nothing is created while one remains.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::autocoding::config::resume_problem;
use roundtable_core::protocol::autocoding::demo::DEMO_REQUIREMENTS;
use roundtable_core::protocol::autocoding::state::Loaded;
use roundtable_core::protocol::autocoding::view::view_from;
use roundtable_core::protocol::autocoding::{Autocoding, AutocodingConfig, AutocodingState};
use roundtable_core::validate::Violation;
use wasm_bindgen::JsCast;

use super::panels::{chart, turn_card};
use crate::app::app_state;
use crate::pages::form::{sentence, ProviderModelFields};
use crate::providers::ProviderId;
use crate::route::{navigate, Route};
use crate::sessions;

/// A pointer as a person reads it (`/` for the whole document).
fn at(path: &str) -> &str {
    if path.is_empty() {
        "/"
    } else {
        path
    }
}

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
    // Where the saved state's text came from ("pasted", or the file's name), and its reading.
    let source = RwSignal::new(String::new());
    let loaded = Memo::new(move |_| {
        let text = saved.get();
        (!text.trim().is_empty()).then(|| AutocodingState::load(&text))
    });
    let state_of = move || loaded.get().and_then(|r| r.ok()).map(|l: Loaded| l.state);
    let from_state = move || state_of().is_some();
    // A state that loads sets what it keeps: the session runs with its own requirements, turn
    // limit and threshold.
    Effect::new(move |_| {
        if let Some(s) = state_of() {
            requirements.set(s.requirements.clone());
            turns.set(s.max_turns.to_string());
            threshold.set(s.approval_threshold.to_string());
        }
    });
    let read_file = move |file: Option<web_sys::File>| {
        let Some(file) = file else { return };
        let name = file.name();
        leptos::task::spawn_local(async move {
            match crate::util::read_session_file(&file).await {
                Ok(text) => {
                    source.set(name);
                    saved.set(text);
                }
                Err(e) => {
                    source.set(String::new());
                    errors.set(vec![format!("“{name}” could not be read: {e}.")]);
                }
            }
        });
    };
    let dragging = RwSignal::new(false);

    let build = move || -> Result<AutocodingConfig, Vec<String>> {
        let mut problems = Vec::new();
        let mut config = defaults.clone();
        config.session_id = crate::util::new_id();
        config.requirements = requirements.get_untracked().trim().to_string();
        if let Some(Ok(loaded)) = loaded.get_untracked() {
            // The state's own, exactly as it holds them (the fields show them read-only).
            let s = loaded.state;
            config.session_id = s.session_id.clone();
            config.session_name = s.session_name.clone();
            config.requirements = s.requirements.clone();
            config.max_turns = s.max_turns;
            config.approval_threshold = s.approval_threshold;
            config.resume = Some(s);
        } else {
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
        if let Some(Err(violations)) = loaded.get_untracked() {
            problems.extend(violations.iter().map(|v| {
                format!(
                    "The saved state: {} (at {}; {}).",
                    v.message,
                    at(&v.path),
                    v.hint
                )
            }));
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

    let violations = |list: Vec<Violation>, kind: &'static str| {
        list.into_iter()
            .map(|v| {
                view! {
                    <li data-pointer=v.path.clone() data-kind=kind>
                        <code>{at(&v.path).to_string()}</code>" "{v.message.clone()}
                        <span class="muted">{format!(" — expected {}, found {}", v.expected, v.received)}</span>
                    </li>
                }
            })
            .collect_view()
    };
    let preview = move || {
        let reading = loaded.get()?;
        Some(match reading {
            Err(list) => view! {
                <div class="saved-state-report" data-saved-state="refused" role="status">
                    <p><strong>"This state does not load: "</strong>{format!("{} to fix.", roundtable_core::text::count(list.len(), "problem", "problems"))}</p>
                    <ul class="small violations">{violations(list, "error")}</ul>
                </div>
            }
            .into_any(),
            Ok(Loaded { state: s, warnings, .. }) => {
                let v = view_from(&s, &[], s.current_turn);
                let threshold = v.threshold;
                let why = resume_problem(&s);
                let verdict = match &why {
                    None => "It goes on here: the player writes next, with the state's own requirements, turn limit and threshold.".to_string(),
                    Some(why) => format!("It is shown here and cannot be continued: {why}."),
                };
                let warned = (!warnings.is_empty()).then(|| view! {
                    <details class="card-list" open>
                        <summary class="small">{format!("Kept, with {}", roundtable_core::text::count(warnings.len(), "warning", "warnings"))}</summary>
                        <ul class="small violations">{violations(warnings, "warning")}</ul>
                    </details>
                });
                view! {
                    <div class="saved-state-report stack" data-saved-state=s.status.word() data-phase=s.phase.word()
                        data-continues=why.is_none().to_string() role="status">
                        <p>
                            <strong data-saved-status=v.status.clone()>{v.status.clone()}</strong>
                            <span class="muted small" data-saved-turn=format!("{} of {}", s.current_turn, s.max_turns)>
                                {format!(" · {} of {} turns played · threshold {}", s.current_turn, s.max_turns, s.approval_threshold)}
                            </span>
                        </p>
                        <p class="small">{verdict}</p>
                        {warned}
                        {chart(&v)}
                        <div class="stack saved-turns">
                            {v.turns.into_iter().rev().map(|row| turn_card(row, threshold)).collect_view()}
                        </div>
                    </div>
                }
                .into_any()
            }
        })
    };

    view! {
        <form class="stack" data-form="autocoding" on:submit=move |ev| { ev.prevent_default(); create(); } novalidate>
            <div class=move || if dragging.get() { "card drop-target over" } else { "card drop-target" } data-drop="saved-state"
                on:dragover=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    ev.stop_propagation();
                    if let Some(d) = ev.data_transfer() { d.set_drop_effect("copy"); }
                    dragging.set(true);
                }
                on:dragleave=move |_| dragging.set(false)
                on:drop=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    ev.stop_propagation();
                    dragging.set(false);
                    read_file(ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)));
                }>
                <h2 class="small">"Start from a saved state (optional)"</h2>
                <p class="muted small">"A state Hegelion's autocoding saved, or this app's \"Autocoding state\" download: choose it, drop it here, or paste it. Whatever its status it is shown; one waiting for the player goes on here."</p>
                <label class="field">
                    <span>"Saved state file"</span>
                    <input type="file" name="saved-state-file" accept=".json,application/json,text/plain"
                        on:change=move |ev| {
                            let input: web_sys::HtmlInputElement = ev.target().unwrap().unchecked_into();
                            read_file(input.files().and_then(|f| f.get(0)));
                            input.set_value("");
                        }/>
                </label>
                <label class="field">
                    <span>{move || if source.get().is_empty() { "Or paste it".to_string() } else { format!("Read from “{}”", source.get()) }}</span>
                    <textarea name="saved-state" rows="4" spellcheck="false" class="mono"
                        placeholder="The saved state, as JSON"
                        prop:value=move || saved.get()
                        on:input=move |ev| { source.set(String::new()); saved.set(event_target_value(&ev)); }></textarea>
                </label>
                {move || from_state().then(|| view! {
                    <div class="row">
                        <button type="button" class="ghost" name="clear-saved-state"
                            on:click=move |_| { saved.set(String::new()); source.set(String::new()); }>"Start fresh instead"</button>
                    </div>
                })}
                {preview}
            </div>
            <div class="card">
                <label class="field">
                    <span>"What should the code do? One requirement per list item."</span>
                    <textarea name="requirements" rows="6"
                        placeholder="e.g. Write slugify(text) for blog post URLs.\n- lowercases the text and joins its words with single dashes\n- drops punctuation"
                        aria-describedby="autocoding-error"
                        readonly=from_state
                        prop:value=move || requirements.get()
                        on:input=move |ev| requirements.set(event_target_value(&ev))></textarea>
                </label>
                {move || (!from_state()).then(|| view! {
                    <div class="row">
                        <button type="button" class="ghost" name="use-demo-requirements"
                            on:click=move |_| requirements.set(DEMO_REQUIREMENTS.to_string())>"Use the demo's requirements"</button>
                    </div>
                })}
                {move || from_state().then(|| view! {
                    <p class="muted small" data-kept="true">"The requirements, turn limit and threshold are the saved state's own: a session that goes on keeps them."</p>
                })}
                <p class="muted small">"A player writes JavaScript and its tests; the tests run in a sandbox that can reach nothing; a coach, who sees only the requirements, the code and the test results, scores each turn. Approval at the threshold ends it, or the turns run out."</p>
            </div>
            <div class="card">
                <div class="row">
                    <label class="field">
                        <span>"Turns"</span>
                        <input type="number" name="max-turns" min="1" max=AutocodingConfig::TURNS_MAX.to_string() inputmode="numeric"
                            readonly=from_state
                            prop:value=move || turns.get() on:input=move |ev| turns.set(event_target_value(&ev))/>
                    </label>
                    <label class="field">
                        <span>"Approval threshold (0–1)"</span>
                        <input type="number" name="threshold" min="0" max="1" step="0.05" inputmode="decimal"
                            readonly=from_state
                            prop:value=move || threshold.get() on:input=move |ev| threshold.set(event_target_value(&ev))/>
                    </label>
                    <label class="field">
                        <span>"Time limit per run (s, at most 30)"</span>
                        <input type="number" name="run-limit" min="0.5" max=(AutocodingConfig::RUN_LIMIT_RANGE.1 / 1000).to_string() step="0.5" inputmode="decimal"
                            prop:value=move || limit.get() on:input=move |ev| limit.set(event_target_value(&ev))/>
                    </label>
                </div>
                <p class="muted small">"A run that does not end within its time limit is stopped and reported as timed out; 30 s is the most a tab stays usable through."</p>
                <label class="choice">
                    <input type="checkbox" name="person-approval" prop:checked=move || person.get()
                        on:change=move |ev| person.set(event_target_checked(&ev))/>
                    <span><strong>"I approve the end"</strong>" "<span class="muted small">"The coach's approval waits for yours: approve, reject, or ask for a revision with a note the player reads."</span></span>
                </label>
            </div>
            <h2 class="form-more">"Models "<span class="muted small">"(optional: the defaults run on the demo model)"</span></h2>
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
            <div class="field-error" role="alert" data-error="autocoding" id="autocoding-error" tabindex="-1">
                {move || errors.get().join(" ")}
            </div>
            <div class="row end form-actions">
                <button type="submit" name="create-autocoding" disabled=move || busy.get()>
                    {move || if state_of().is_some_and(|s| resume_problem(&s).is_none()) { "Go on from the saved state" } else { "Create autocoding session" }}
                </button>
                <a class="button ghost" href="#/">"Cancel"</a>
            </div>
        </form>
    }
}
