//! A member's provider and model, as every new-session form asks for them: picking a provider
//! puts that provider's default model in the model field, which stays free text.

use leptos::prelude::*;

use crate::providers::ProviderId;

/// The provider select and the model field. `name` prefixes the fields' names (`member` gives
/// `member-provider` and `member-model`); `default_model` is the model a provider starts with.
#[component]
pub fn ProviderModelFields(
    name: &'static str,
    provider: RwSignal<ProviderId>,
    model: RwSignal<String>,
    default_model: Callback<ProviderId, String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>"Provider"</span>
            <select name=format!("{name}-provider") prop:value=move || provider.get().as_str()
                on:change=move |ev| {
                    if let Some(p) = ProviderId::parse(&event_target_value(&ev)) {
                        provider.set(p);
                        model.set(default_model.run(p));
                    }
                }>
                {ProviderId::ALL.iter().map(|p| view! {
                    <option value=p.as_str()>{p.label()}</option>
                }).collect_view()}
            </select>
        </label>
        <label class="field">
            <span>"Model"</span>
            <input type="text" name=format!("{name}-model") prop:value=move || model.get()
                on:input=move |ev| model.set(event_target_value(&ev))/>
        </label>
    }
}
