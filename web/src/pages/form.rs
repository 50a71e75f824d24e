//! What every new-session form shares: a labelled text field, a select over a fixed table of
//! choices, a member's provider and model (picking a provider puts
//! its default model in the model field, which stays free text), the money budget, whole
//! numbers read from a field, and core's refusals worded as sentences.

use leptos::prelude::*;

use crate::providers::ProviderId;

/// A labelled one-line text field bound to `value`, as the forms write a member's name and
/// role or a team's name: `grow` lets it take the row's spare width.
#[component]
pub fn TextField(
    label: &'static str,
    name: &'static str,
    value: RwSignal<String>,
    #[prop(optional)] grow: bool,
) -> impl IntoView {
    view! {
        <label class=if grow { "field grow" } else { "field" }>
            <span>{label}</span>
            <input type="text" name=name prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))/>
        </label>
    }
}

/// A labelled select over a fixed table of choices — (value, its wire word, its words for
/// people) — bound to `value`; `hint` names the id of the text that describes it, if any.
#[component]
pub fn ChoiceSelect<T>(
    label: &'static str,
    name: &'static str,
    choices: &'static [(T, &'static str, &'static str)],
    value: RwSignal<T>,
    #[prop(optional)] hint: Option<&'static str>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    view! {
        <label class="field">
            <span>{label}</span>
            <select name=name aria-describedby=hint on:change=move |ev| {
                let word = event_target_value(&ev);
                if let Some((choice, _, _)) = choices.iter().find(|(_, w, _)| *w == word) {
                    value.set(*choice);
                }
            }>
                {choices.iter().map(|(choice, word, words)| {
                    let choice = *choice;
                    view! { <option value=*word selected=move || value.get() == choice>{*words}</option> }
                }).collect_view()}
            </select>
            {children.map(|c| c())}
        </label>
    }
}

/// The provider select and the model field. `name` prefixes the fields' names (`member` gives
/// `member-provider` and `member-model`); `default_model` is the model a provider starts with.
/// The model field offers the provider's model list (`providers::models::offered`: the list
/// last fetched, else fetched now) and stays free text, so a model the list lacks can be typed.
#[component]
pub fn ProviderModelFields(
    name: &'static str,
    provider: RwSignal<ProviderId>,
    model: RwSignal<String>,
    default_model: Callback<ProviderId, String>,
) -> impl IntoView {
    static NEXT_LIST: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let list_id = format!(
        "{name}-models-{}",
        NEXT_LIST.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    // The offered models, or why there are none.
    let offered = RwSignal::new(Ok::<Vec<String>, String>(Vec::new()));
    Effect::new(move |_| {
        let p = provider.get();
        leptos::task::spawn_local(async move {
            let list = crate::providers::models::offered(p).await;
            // A later pick of provider wins over a slow answer for an earlier one.
            if provider.get_untracked() == p {
                offered.set(list);
            }
        });
    });
    let note = move || match offered.get() {
        Ok(list) if list.len() > 1 => format!("{} models offered; or type another", list.len()),
        Ok(_) => String::new(),
        Err(why) => format!("No model list ({why}); type the model's name"),
    };
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
            <input type="text" name=format!("{name}-model") list=list_id.clone() spellcheck="false"
                autocomplete="off"
                prop:value=move || model.get()
                on:input=move |ev| model.set(event_target_value(&ev))/>
            <datalist id=list_id>
                {move || offered.get().unwrap_or_default().into_iter().map(|m| view! { <option value=m/> }).collect_view()}
            </datalist>
            <span class="muted small model-note" data-model-note=name>{note}</span>
        </label>
    }
}

/// The optional money budget of a new session, in dollars (core's `Settings::money_budget`).
#[component]
pub fn MoneyBudgetField(value: RwSignal<String>, invalid: Signal<bool>) -> impl IntoView {
    view! {
        <label class="field">
            <span>"Money budget in US dollars (optional)"</span>
            <input type="text" inputmode="decimal" name="money-budget" placeholder="no limit"
                aria-describedby="money-budget-hint"
                prop:value=move || value.get()
                aria-invalid=move || invalid.get().to_string()
                on:input=move |ev| value.set(event_target_value(&ev))/>
            <span class="muted small" id="money-budget-hint">
                "The session pauses before any call that could take the cost past it (the call's prompt and its longest answer at the model's price). A model with no known price is not held back until the budget is spent."
            </span>
        </label>
    }
}

/// Reads the money budget field: empty is no budget; otherwise a positive amount of dollars
/// (`0.50`, `$2`), in micro-dollars, or what is wrong in words.
pub fn parse_money_budget(text: &str) -> Result<Option<u64>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    match roundtable_core::cost::parse_usd(text) {
        Some(0) => {
            Err("The money budget must be more than $0; leave it empty for no limit.".into())
        }
        Some(micro) => Ok(Some(micro)),
        None => Err(format!(
            "The money budget is an amount of dollars such as 0.50 or 2; you typed \"{}\".",
            text.trim()
        )),
    }
}

/// Parses a whole number in a range, or says what is wrong in words.
pub fn parse_in(text: &str, what: &str, min: u64, max: u64) -> Result<u64, String> {
    let t = text.trim();
    let n: u64 = t
        .parse()
        .map_err(|_| format!("{what} must be a whole number between {min} and {max}."))?;
    if n < min || n > max {
        return Err(format!(
            "{what} must be between {min} and {max}; you typed {n}."
        ));
    }
    Ok(n)
}

/// A core message as a sentence for the form: capitalised, with a full stop.
pub fn sentence(message: &str) -> String {
    let mut chars = message.chars();
    let first: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}
