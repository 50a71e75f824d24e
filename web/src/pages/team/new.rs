//! The new team's form: the request, the team (from a preset or by hand, each member on a provider and
//! model — the demo model by default) and the limits. Creating it stores the session as a draft
//! and opens it. The team's rules (one chair, an operative, at most one inspector and envoy, a
//! request) are core's: the form builds a config and shows what [`TeamConfig::check_new`] says,
//! next to the field it is about.

use leptos::prelude::*;
use roundtable_core::engine::{ModelRef, Settings};
use roundtable_core::protocol::team::{ConfigError, Member, TeamConfig, TeamRole, TeamState};

use super::presets::{Preset, PRESETS};
use crate::pages::form::{
    parse_in, parse_money_budget, sentence, MoneyBudgetField, ProviderModelFields, TextField,
};
use crate::providers::ProviderId;
use crate::{sessions, storage};

/// A member as the form edits it; ids are given on creation.
#[derive(Debug, Clone, PartialEq)]
struct DraftMember {
    key: u64,
    name: RwSignal<String>,
    role: RwSignal<String>,
    team_role: RwSignal<TeamRole>,
    provider: RwSignal<ProviderId>,
    model: RwSignal<String>,
}

fn role_word(r: TeamRole) -> &'static str {
    r.word()
}

fn parse_role(s: &str) -> TeamRole {
    match s {
        "chair" => TeamRole::Chair,
        "inspector" => TeamRole::Inspector,
        "envoy" => TeamRole::Envoy,
        _ => TeamRole::Operative,
    }
}

/// What was wrong with the form, field by field.
#[derive(Debug, Clone, Default, PartialEq)]
struct FormErrors {
    request: Option<String>,
    team: Option<String>,
    rounds: Option<String>,
    repairs: Option<String>,
    budget: Option<String>,
    money: Option<String>,
    members: Vec<(u64, String)>,
}

impl FormErrors {
    fn is_empty(&self) -> bool {
        self.request.is_none()
            && self.team.is_none()
            && self.rounds.is_none()
            && self.repairs.is_none()
            && self.budget.is_none()
            && self.money.is_none()
            && self.members.is_empty()
    }
}

/// Puts a refused config's reason next to the field it is about.
fn place_config_error(e: &mut FormErrors, err: &ConfigError) {
    let text = sentence(&err.to_string());
    match err {
        ConfigError::EmptyRequest => e.request = Some(text),
        ConfigError::NoRounds => e.rounds = Some(text),
        _ => e.team = Some(text),
    }
}

/// The new-team form. It stays mounted while another kind is picked (hidden), so the preset and
/// what was typed keep.
#[component]
pub fn NewTeamForm(
    /// Whether the team is the kind picked.
    shown: Signal<bool>,
) -> impl IntoView {
    let next_key = StoredValue::new(1u64);
    let request = RwSignal::new(String::new());
    let team_name = RwSignal::new(String::from("Roundtable"));
    let description = RwSignal::new(String::from(
        "A small team working on the person's request.",
    ));
    let preset = RwSignal::new(None::<&'static str>);
    let members = RwSignal::new(Vec::<DraftMember>::new());
    // The engine's defaults (8 rounds, 2 repairs), so a new session starts where the docs say.
    let defaults = Settings::default();
    let rounds = RwSignal::new(defaults.max_rounds.to_string());
    let repairs = RwSignal::new(defaults.max_repairs.to_string());
    let budget = RwSignal::new(String::new());
    let money = RwSignal::new(String::new());
    let errors = RwSignal::new(FormErrors::default());
    let busy = RwSignal::new(false);
    let placeholder = RwSignal::new(
        "What should the team make? e.g. Plan a two-day workshop on accessible web design.",
    );
    let default_models = StoredValue::new(Vec::<(ProviderId, String)>::new());
    let stored_keys = RwSignal::new(Vec::<String>::new());

    let new_member = move |name: &str, role: &str, team_role: TeamRole| {
        let key = next_key.get_value();
        next_key.set_value(key + 1);
        DraftMember {
            key,
            name: RwSignal::new(name.to_string()),
            role: RwSignal::new(role.to_string()),
            team_role: RwSignal::new(team_role),
            provider: RwSignal::new(ProviderId::Demo),
            model: RwSignal::new(ProviderId::Demo.default_model().to_string()),
        }
    };
    let apply_preset = move |p: &Preset| {
        preset.set(Some(p.id));
        team_name.set(p.team_name.to_string());
        description.set(p.description.to_string());
        placeholder.set(p.example);
        members.set(
            p.members
                .iter()
                .map(|pm| new_member(pm.name, pm.role, pm.team_role))
                .collect(),
        );
    };
    // Start from the general preset; as the request is typed, the preset that fits it is
    // suggested and applied, until the person picks one themselves.
    apply_preset(&PRESETS[0]);
    let picked = RwSignal::new(false);
    Effect::new(move |_| {
        let text = request.get();
        if picked.get_untracked() {
            return;
        }
        let fit = super::presets::suggest(&text);
        if preset.get_untracked() != Some(fit.id) {
            apply_preset(fit);
        }
    });
    leptos::task::spawn_local(async move {
        let mut models = Vec::new();
        for p in ProviderId::ALL {
            if let Ok(Some(m)) = storage::get_setting(&format!("model:{}", p.as_str())).await {
                models.push((p, m));
            }
        }
        default_models.set_value(models);
        if let Ok(keys) = storage::settings_with_prefix(storage::KEY_PREFIX).await {
            stored_keys.set(keys.into_iter().map(|(k, _)| k).collect());
        }
    });
    let default_model = move |p: ProviderId| {
        default_models
            .get_value()
            .into_iter()
            .find(|(q, _)| *q == p)
            .map(|(_, m)| m)
            .unwrap_or_else(|| p.default_model().to_string())
    };

    // Built once per submit; the error side carries every field's message, so its size is fine.
    #[allow(clippy::result_large_err)]
    let validate = move || -> Result<TeamConfig, FormErrors> {
        let mut e = FormErrors::default();
        let req = request.get_untracked();
        if req.chars().count() > 20_000 {
            e.request = Some("The request is longer than 20,000 characters; shorten it.".into());
        }
        let max_rounds = parse_in(&rounds.get_untracked(), "Rounds", 1, 50);
        let max_repairs = parse_in(&repairs.get_untracked(), "Retries", 0, 5);
        let b = budget.get_untracked();
        let token_budget = if b.trim().is_empty() {
            Ok(None)
        } else {
            parse_in(
                &b.replace(['_', ',', ' '], ""),
                "The token budget",
                1000,
                100_000_000,
            )
            .map(Some)
        };
        e.rounds = max_rounds.as_ref().err().cloned();
        e.repairs = max_repairs.as_ref().err().cloned();
        e.budget = token_budget.as_ref().err().cloned();
        let money_budget = parse_money_budget(&money.get_untracked());
        e.money = money_budget.as_ref().err().cloned();

        let list = members.get_untracked();
        let mut out = Vec::new();
        let mut op = 0;
        for m in &list {
            let name = m.name.get_untracked().trim().to_string();
            if name.is_empty() {
                e.members.push((m.key, "Give this member a name.".into()));
            }
            let model = m.model.get_untracked().trim().to_string();
            if model.is_empty() {
                e.members
                    .push((m.key, "Name the model this member runs on.".into()));
            }
            let team_role = m.team_role.get_untracked();
            let id = match team_role {
                TeamRole::Chair => "chair".to_string(),
                TeamRole::Inspector => "inspector".to_string(),
                TeamRole::Envoy => "envoy".to_string(),
                TeamRole::Operative => {
                    op += 1;
                    format!("operative-{op}")
                }
            };
            out.push(Member {
                id,
                name,
                role: m.role.get_untracked().trim().to_string(),
                team_role,
                persona: String::new(),
                skills: Vec::new(),
                characteristics: Vec::new(),
                model: ModelRef {
                    provider: m.provider.get_untracked().as_str().to_string(),
                    model,
                },
            });
        }
        // Chair first, then operatives, inspector, envoy: the order prompts list them in.
        roundtable_core::order::sort_by_key(&mut out, |m| m.team_role);
        let config = TeamConfig {
            team_name: team_name.get_untracked().trim().to_string(),
            team_description: description.get_untracked().trim().to_string(),
            request: req.trim().to_string(),
            members: out,
            settings: Settings {
                max_rounds: max_rounds.unwrap_or(u64::from(defaults.max_rounds)) as u32,
                token_budget: token_budget.unwrap_or(None),
                money_budget: money_budget.unwrap_or(None),
                max_repairs: max_repairs.unwrap_or(u64::from(defaults.max_repairs)) as u32,
                ..Settings::default()
            },
            charter: None,
        };
        if let Err(err) = config.check_new() {
            place_config_error(&mut e, &err);
        }
        if !e.is_empty() {
            return Err(e);
        }
        Ok(config)
    };

    let create = move || {
        if busy.get_untracked() {
            return;
        }
        match validate() {
            Err(e) => {
                // Inline messages say what is wrong; focus goes to the first field that needs it.
                let first = if e.request.is_some() {
                    "textarea[name=request]"
                } else if e.team.is_some() || !e.members.is_empty() {
                    ".member-row input"
                } else {
                    ".limits input[aria-invalid=true]"
                };
                errors.set(e);
                crate::util::focus_after_render(first);
            }
            Ok(config) => {
                errors.set(FormErrors::default());
                sessions::create_and_open::<TeamState>(config, busy);
            }
        }
    };

    let member_error = move |key: u64| {
        errors
            .get()
            .members
            .iter()
            .filter(|(k, _)| *k == key)
            .map(|(_, m)| m.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };

    // Arrow keys move focus along the preset toolbar (wrapping); Home and End go to its ends.
    let preset_keys = move |ev: web_sys::KeyboardEvent| {
        use wasm_bindgen::JsCast;
        let step: i64 = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => 1,
            "ArrowLeft" | "ArrowUp" => -1,
            "Home" => i64::MIN,
            "End" => i64::MAX,
            _ => return,
        };
        let Some(bar) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let Ok(buttons) = bar.query_selector_all("button") else {
            return;
        };
        let n = buttons.length() as i64;
        if n == 0 {
            return;
        }
        ev.prevent_default();
        let active = document().active_element();
        let at = (0..n)
            .find(|i| {
                buttons
                    .item(*i as u32)
                    .map(|b| b.unchecked_into::<web_sys::Element>())
                    == active
            })
            .unwrap_or(0);
        let next = match step {
            i64::MIN => 0,
            i64::MAX => n - 1,
            s => (at + s).rem_euclid(n),
        };
        if let Some(b) = buttons.item(next as u32) {
            let _ = b.unchecked_into::<web_sys::HtmlElement>().focus();
        }
    };

    view! {
            <form class="stack" data-form="team" on:submit=move |ev| { ev.prevent_default(); create(); } novalidate
                style:display=move || if shown.get() { "" } else { "none" }>
                <div class="card">
                    <label class="field">
                        <span>"What should the team do?"</span>
                        <textarea name="request" rows="4" placeholder=move || placeholder.get()
                            aria-invalid=move || errors.get().request.is_some().to_string()
                            aria-describedby="request-error"
                            prop:value=move || request.get()
                            on:input=move |ev| request.set(event_target_value(&ev))></textarea>
                    </label>
                    <div id="request-error" class="field-error" role="alert">{move || errors.get().request}</div>
                </div>

                <div class="card">
                    <h2 id="team-heading">"Team"</h2>
                    // A toolbar: one Tab stop (the chosen preset); the arrow keys move between
                    // presets, Enter or Space picks one.
                    <div class="presets" role="toolbar" aria-labelledby="team-heading" on:keydown=preset_keys>
                        {PRESETS.iter().map(|p| view! {
                            <button type="button" class="ghost small" data-preset=p.id
                                aria-pressed=move || (preset.get() == Some(p.id)).to_string()
                                tabindex=move || if preset.get() == Some(p.id) { "0" } else { "-1" }
                                on:click=move |_| { picked.set(true); apply_preset(p) }>{p.label}</button>
                        }).collect_view()}
                    </div>
                    <p class="small muted" data-preset-hint="true">
                        {move || {
                            let label = PRESETS.iter().find(|p| Some(p.id) == preset.get()).map_or("", |p| p.label);
                            if picked.get() {
                                format!("You picked “{label}”. Its members are listed below Create.")
                            } else {
                                format!("“{label}” fits this request; pick another team above if you prefer. Its members are listed below Create.")
                            }
                        }}
                    </p>
                </div>
                // Create comes right after the request and the team, so a keyboard reaches it in
                // two Tabs; the members and the limits follow, for those who want to change them.
                <div class="row end form-actions">
                    <button type="submit" name="create" disabled=move || busy.get()>"Create session"</button>
                    <a class="button ghost" href="#/">"Cancel"</a>
                </div>
                <h2 class="form-more">"Members and limits "<span class="muted small">"(optional: the preset's members run on the demo model)"</span></h2>

                <div class="card">
                    <div class="row">
                        <TextField label="Team name" name="team-name" value=team_name grow=true/>
                        <TextField label="Description" name="team-description" value=description grow=true/>
                    </div>
                    <div class="members" role="group" aria-label="Members">
                        <For each=move || members.get() key=|m| m.key let:m>
                            <div class="member-row" data-member-key=m.key>
                                <TextField label="Name" name="member-name" value=m.name/>
                                <TextField label="Role" name="member-role" value=m.role/>
                                <label class="field">
                                    <span>"Team role"</span>
                                    <select name="member-team-role" prop:value=move || role_word(m.team_role.get())
                                        on:change=move |ev| m.team_role.set(parse_role(&event_target_value(&ev)))>
                                        <option value="chair">"Chair"</option>
                                        <option value="operative">"Operative"</option>
                                        <option value="inspector">"Inspector"</option>
                                        <option value="envoy">"Envoy"</option>
                                    </select>
                                </label>
                                <ProviderModelFields name="member" provider=m.provider model=m.model
                                    default_model=Callback::new(default_model)/>
                                <button type="button" class="ghost danger small" aria-label=move || format!("Remove {}", m.name.get())
                                    on:click=move |_| members.update(|list| list.retain(|x| x.key != m.key))>"Remove"</button>
                                <div class="field-error" style="grid-column: 1 / -1">
                                    {move || member_error(m.key)}
                                    {move || {
                                        let p = m.provider.get();
                                        (p.needs_key() && !stored_keys.get().contains(&p.key_setting())).then(|| view! {
                                            <span class="muted">"No key stored for " {p.label()} " yet — add one in "
                                                <a href="#/settings">"Settings"</a>" before running."</span>
                                        })
                                    }}
                                </div>
                            </div>
                        </For>
                    </div>
                    <div class="row">
                        <button type="button" class="ghost" on:click=move |_| {
                            let n = members.get_untracked().iter().filter(|m| m.team_role.get_untracked() == TeamRole::Operative).count();
                            members.update(|list| list.push(new_member(&format!("Operative {}", n + 1), "Specialist", TeamRole::Operative)));
                        }>"+ Add member"</button>
                    </div>
                    <div class="field-error" role="alert">{move || errors.get().team}</div>
                </div>

                <div class="card">
                    <h2>"Limits"</h2>
                    <div class="limits">
                        <label class="field">
                            <span>"Rounds (1–50)"</span>
                            <input type="number" name="max-rounds" min="1" max="50" prop:value=move || rounds.get()
                                aria-invalid=move || errors.get().rounds.is_some().to_string()
                                on:input=move |ev| rounds.set(event_target_value(&ev))/>
                        </label>
                        <label class="field">
                            <span>"Retries per step (0–5)"</span>
                            <input type="number" name="max-repairs" min="0" max="5" prop:value=move || repairs.get()
                                aria-invalid=move || errors.get().repairs.is_some().to_string()
                                on:input=move |ev| repairs.set(event_target_value(&ev))/>
                        </label>
                        <label class="field">
                            <span>"Token budget (optional)"</span>
                            <input type="text" inputmode="numeric" name="token-budget" placeholder="no limit" prop:value=move || budget.get()
                                aria-invalid=move || errors.get().budget.is_some().to_string()
                                on:input=move |ev| budget.set(event_target_value(&ev))/>
                        </label>
                        <MoneyBudgetField value=money invalid=Signal::derive(move || errors.get().money.is_some())/>
                    </div>
                    <div class="field-error" role="alert">
                        {move || { let e = errors.get(); [e.rounds, e.repairs, e.budget, e.money].into_iter().flatten().collect::<Vec<_>>().join(" ") }}
                    </div>
                </div>
            </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cores_reason_lands_next_to_its_field_as_a_sentence() {
        let mut e = FormErrors::default();
        place_config_error(&mut e, &ConfigError::EmptyRequest);
        assert_eq!(
            e.request.as_deref(),
            Some("The request cannot be empty: say what the team should do.")
        );
        place_config_error(&mut e, &ConfigError::NoOperative);
        assert_eq!(
            e.team.as_deref(),
            Some("Add at least one operative: they write the products.")
        );
        place_config_error(&mut e, &ConfigError::NoRounds);
        assert!(e.rounds.is_some());
        assert_eq!(sentence(""), ".");
    }
}
