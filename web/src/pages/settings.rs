//! Settings: per provider a key (kept only in this browser), a base URL, a default model picked
//! from the provider's own model list (refreshable) or typed, and a connection test; the demo
//! model's pace; the theme.
//!
//! "Test connection" lists the provider's models: the cheapest call each API has (no tokens),
//! and it fails exactly when the address, the key or the browser's access is wrong, which it then
//! says in plain words ([`crate::providers::errors`]).
//!
//! A stored key is never shown again, not even in part: the page says only that one is stored.
//! Inputs are `type=password` with autocomplete off so the browser does not offer to sync them.

use leptos::prelude::*;

use crate::app::{app_state, Theme};
use crate::providers::{config, limit, models, price, ProviderId};
use crate::storage;

/// What the page knows about one provider.
#[derive(Debug, Clone, Default, PartialEq)]
struct ProviderSettings {
    has_key: bool,
    model: String,
    base: String,
    models: Vec<String>,
    limit: String,
    /// The person's own price of the default model (`in / out`), if set.
    price: String,
}

/// The settings page.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let state = app_state();
    let version = RwSignal::new(0u32);
    let loaded = LocalResource::new(move || {
        version.track();
        async move {
            let keys = storage::settings_with_prefix(storage::KEY_PREFIX)
                .await
                .unwrap_or_default();
            let mut out = Vec::new();
            let read = |key: String| async move {
                storage::get_setting(&key)
                    .await
                    .ok()
                    .flatten()
                    .unwrap_or_default()
            };
            for p in ProviderId::ALL
                .into_iter()
                .filter(|p| *p != ProviderId::Demo)
            {
                let model = read(format!("model:{}", p.as_str())).await;
                let base = read(p.base_setting()).await;
                let models =
                    serde_json::from_str(&read(models_setting(p)).await).unwrap_or_default();
                let limit = read(limit::setting(p)).await;
                let chosen = if model.is_empty() {
                    p.default_model()
                } else {
                    model.as_str()
                };
                let price = read(price::setting(p, chosen)).await;
                let has_key = keys.iter().any(|(k, _)| *k == p.key_setting());
                out.push((
                    p,
                    ProviderSettings {
                        has_key,
                        model,
                        base,
                        models,
                        limit,
                        price,
                    },
                ));
            }
            let delay = storage::get_setting(crate::runner::DEMO_DELAY_SETTING)
                .await
                .ok()
                .flatten()
                .unwrap_or_default();
            (out, delay)
        }
    });

    view! {
        <section class="page narrow settings">
            <h1>"Settings"</h1>
            <p class="lead">
                "Keys are kept only in this browser's storage (IndexedDB) and sent only to their own provider. "
                "They are never written into an exported session, a link or the console."
            </p>
            <Suspense fallback=|| view! { <p class="muted">"Loading settings…"</p> }>
                {move || loaded.get().map(|(providers, delay)| view! {
                    <div class="card">
                        <h2>"Providers"</h2>
                        {providers.into_iter().map(|(p, s)| view! {
                            <ProviderRow provider=p settings=s/>
                        }).collect_view()}
                        <DemoDelay initial=delay/>
                        <div class="row end">
                            <button class="danger" on:click=move |_| {
                                leptos::task::spawn_local(async move {
                                    match storage::forget_all_keys().await {
                                        Ok(n) => state.info(format!("Forgot {n} stored key(s).")),
                                        Err(e) => state.error(e.to_string()),
                                    }
                                    version.update(|v| *v += 1);
                                });
                            }>"Forget all keys"</button>
                        </div>
                    </div>
                })}
            </Suspense>
            <div class="card">
                <h2>"Appearance"</h2>
                <label class="field">
                    <span>"Theme"</span>
                    <select on:change=move |ev| {
                        let t = Theme::parse(&event_target_value(&ev));
                        state.theme.set(t);
                        leptos::task::spawn_local(async move {
                            let _ = storage::set_setting("theme", Some(t.as_str())).await;
                        });
                    } prop:value=move || state.theme.get().as_str()>
                        <option value="system">"Follow the system"</option>
                        <option value="light">"Light"</option>
                        <option value="dark">"Dark"</option>
                    </select>
                </label>
            </div>
        </section>
    }
}

/// One provider: key status and input, base URL, default model with the provider's model list,
/// and a connection test.
#[component]
fn ProviderRow(provider: ProviderId, settings: ProviderSettings) -> impl IntoView {
    let state = app_state();
    let key_input = RwSignal::new(String::new());
    // Kept by the row itself: saving or removing a key changes this badge only, never the page,
    // so what the person is typing in another field stays.
    let has_key = RwSignal::new(settings.has_key);
    let model = RwSignal::new(settings.model.clone());
    let base = RwSignal::new(settings.base.clone());
    let parallel = RwSignal::new(settings.limit.clone());
    let own_price = RwSignal::new(settings.price.clone());
    // The model prices apply to: the one typed, else the provider's default.
    let priced_model = move || match model.get().trim() {
        "" => provider.default_model().to_string(),
        m => m.to_string(),
    };
    let save_price = move || {
        let typed = own_price.get_untracked().trim().to_string();
        if !typed.is_empty() && price::parse(&typed).is_none() {
            state
                .error("A price is two numbers, dollars per million tokens in and out: 1.25 / 10.");
            return;
        }
        let m = priced_model();
        leptos::task::spawn_local(async move {
            let value = (!typed.is_empty()).then_some(typed.as_str());
            match storage::set_setting(&price::setting(provider, &m), value).await {
                Ok(()) => state.info(format!("Price of {m} saved.")),
                Err(e) => state.error(e.to_string()),
            }
        });
    };
    // What the price (own, else the table's) makes of a typical call: 4,000 tokens in, 1,000 out.
    let price_note = move || {
        let m = priced_model();
        let own = price::parse(&own_price.get());
        match own.or_else(|| price::known(provider, &m, &crate::util::today())) {
            Some(p) => format!(
                "{m}: ${} in / ${} out per million tokens ({}); a call of 4k tokens in and 1k out costs {}.",
                price::dollars(p.input),
                price::dollars(p.output),
                match (own, price::known_row(provider, &m)) {
                    (Some(_), _) => "your price".to_string(),
                    // The price's date only: where it was read (the table's research notes,
                    // URLs) is for the developers who keep the table, not for this sentence.
                    (None, Some(row)) => format!(
                        "the provider's published price, as of {}{}",
                        row.read,
                        row.next
                            .filter(|n| crate::util::today().as_str() < n.from)
                            .map(|n| format!(
                                "; from {}: ${} in / ${} out, as published",
                                n.from,
                                price::dollars(n.input),
                                price::dollars(n.output)
                            ))
                            .unwrap_or_default()
                    ),
                    (None, None) => "runs on your machine".to_string(),
                },
                roundtable_core::cost::usd(p.of(4_000, 1_000)),
            ),
            None => format!("No price known for {m}: set one to see what calls cost."),
        }
    };
    let models = RwSignal::new(settings.models.clone());
    // The last connection test's or model refresh's outcome: (fine, words).
    let verdict = RwSignal::new(None::<(bool, String)>);
    let busy = RwSignal::new(false);
    // What is under way while `busy`: "Testing the connection…" or "Fetching the model list…".
    let doing = RwSignal::new("");
    let id = provider.as_str();
    let save_key = move || {
        let key = key_input.get_untracked().trim().to_string();
        if key.is_empty() {
            state.error(format!("Type a key for {} first.", provider.label()));
            return;
        }
        if key.chars().any(|c| c.is_whitespace() || c.is_control()) {
            state.error("A key has no spaces or line breaks; check what was pasted.");
            return;
        }
        leptos::task::spawn_local(async move {
            match storage::set_setting(&provider.key_setting(), Some(&key)).await {
                Ok(()) => {
                    key_input.set(String::new());
                    state.info(format!(
                        "Key for {} saved in this browser.",
                        provider.label()
                    ));
                    has_key.set(true);
                }
                Err(e) => state.error(e.to_string()),
            }
        });
    };
    let save_model = move || {
        let m = model.get_untracked().trim().to_string();
        leptos::task::spawn_local(async move {
            let value = (!m.is_empty()).then_some(m.as_str());
            match storage::set_setting(&format!("model:{}", provider.as_str()), value).await {
                Ok(()) => state.info(format!("Default model for {} saved.", provider.label())),
                Err(e) => state.error(e.to_string()),
            }
        });
    };
    let save_base = move || {
        let typed = base.get_untracked().trim().to_string();
        let checked = if typed.is_empty() {
            Ok(None)
        } else {
            config::check_base_url(&typed).map(Some)
        };
        match checked {
            Err(e) => state.error(e.to_string()),
            Ok(value) => leptos::task::spawn_local(async move {
                match storage::set_setting(&provider.base_setting(), value.as_deref()).await {
                    Ok(()) => {
                        base.set(value.unwrap_or_default());
                        state.info(format!("Address for {} saved.", provider.label()));
                    }
                    Err(e) => state.error(e.to_string()),
                }
            }),
        }
    };
    let save_limit = move || {
        let typed = parallel.get_untracked().trim().to_string();
        if !typed.is_empty() && limit::parse(&typed).is_none() {
            state.error(format!(
                "Parallel calls is a whole number from 1 to {}.",
                limit::MAX_LIMIT
            ));
            return;
        }
        leptos::task::spawn_local(async move {
            let value = (!typed.is_empty()).then_some(typed.as_str());
            match storage::set_setting(&limit::setting(provider), value).await {
                Ok(()) => state.info(format!("Parallel calls for {} saved.", provider.label())),
                Err(e) => state.error(e.to_string()),
            }
        });
    };
    // `Refresh models` lists the provider's models (no tokens). `Test connection` makes one real
    // minimal completion with the chosen model (models::test_connection) and says what happened,
    // then refreshes the list beside it.
    let fetch_models = move |test: bool| {
        busy.set(true);
        doing.set(if test {
            "Testing the connection (one tiny request)…"
        } else {
            "Fetching the model list…"
        });
        verdict.set(None);
        leptos::task::spawn_local(async move {
            let config = config::load(provider).await;
            let base_url = config
                .base_url
                .clone()
                .unwrap_or_else(|| provider.default_base().to_string());
            let chosen = match model.get_untracked().trim() {
                "" => provider.default_model().to_string(),
                m => m.to_string(),
            };
            let key = config.key.as_deref();
            let tested = if test {
                Some(models::test_connection(provider, &base_url, key, &chosen).await)
            } else {
                None
            };
            let listed = models::list(provider, &base_url, key).await;
            if let Ok(list) = &listed {
                let stored = serde_json::to_string(list).unwrap_or_default();
                let _ = storage::set_setting(&models_setting(provider), Some(&stored)).await;
                models.set(list.clone());
            }
            verdict.set(Some(match (tested, listed) {
                (Some(Ok((done, ms))), _) => (true, models::answered(provider, &chosen, &done, ms)),
                (Some(Err(e)), _) => (false, capitalised(&e.to_string())),
                (None, Ok(list)) => (true, models::verdict(provider, &list, &chosen)),
                (None, Err(e)) => (false, capitalised(&e.to_string())),
            }));
            busy.set(false);
        });
    };
    let key_label = if provider.needs_key() {
        "API key "
    } else {
        "API key (optional) "
    };
    view! {
        <fieldset class="provider" data-provider=id>
            <legend>{provider.label()}</legend>
            <div class="row">
                <label class="field grow">
                    <span>
                        {key_label}
                        {move || if has_key.get() {
                            view! { <span class="badge ok">"stored"</span> }.into_any()
                        } else {
                            view! { <span class="badge">"none"</span> }.into_any()
                        }}
                    </span>
                    <input type="password" autocomplete="off" spellcheck="false"
                        name=format!("key-{id}")
                        placeholder=move || if has_key.get() { "replace the stored key" } else { "paste a key" }
                        prop:value=move || key_input.get()
                        on:input=move |ev| key_input.set(event_target_value(&ev))
                        on:keydown=move |ev| if ev.key() == "Enter" { save_key() }/>
                </label>
                <button name=format!("save-key-{id}") on:click=move |_| save_key()>"Save key"</button>
                {move || has_key.get().then(|| view! {
                    <button class="ghost" on:click=move |_| {
                        leptos::task::spawn_local(async move {
                            match storage::set_setting(&provider.key_setting(), None).await {
                                Ok(()) => { state.info(format!("Key for {} removed.", provider.label())); has_key.set(false); }
                                Err(e) => state.error(e.to_string()),
                            }
                        });
                    }>"Remove"</button>
                })}
            </div>
            <SettingRow name=format!("base-{id}") label="Base URL" placeholder=provider.default_base().to_string()
                value=base save_label="Save address" on_save=Callback::new(move |()| save_base())/>
            <SettingRow name=format!("limit-{id}") label="Parallel calls" placeholder=limit::default_limit(provider).to_string()
                value=parallel save_label="Save" on_save=Callback::new(move |()| save_limit())/>
            <div class="row">
                <label class="field grow">
                    <span>"Default model"</span>
                    <input type="text" name=format!("model-{id}") placeholder=provider.default_model()
                        list=format!("models-{id}") spellcheck="false"
                        prop:value=move || model.get()
                        on:input=move |ev| model.set(event_target_value(&ev))
                        on:keydown=move |ev| if ev.key() == "Enter" { save_model() }/>
                    <datalist id=format!("models-{id}")>
                        {move || models.get().into_iter().map(|m| view! { <option value=m/> }).collect_view()}
                    </datalist>
                </label>
                <button class="ghost" on:click=move |_| save_model()>"Save model"</button>
                <button class="ghost" name=format!("refresh-models-{id}") prop:disabled=move || busy.get()
                    on:click=move |_| fetch_models(false)>"Refresh models"</button>
                <button name=format!("test-{id}") prop:disabled=move || busy.get()
                    title="Sends one tiny request to the model (a few tokens) and says what happened"
                    on:click=move |_| fetch_models(true)>"Test connection"</button>
            </div>
            <SettingRow name=format!("price-{id}") label="Your price for this model (dollars per million tokens, in / out)"
                placeholder="e.g. 1.25 / 10".to_string()
                value=own_price save_label="Save price" on_save=Callback::new(move |()| save_price())/>
            <p class="muted price-note" data-provider=id>{price_note}</p>
            {move || verdict.get().map(|(fine, words)| view! {
                <p class="conn" class:ok=fine class:bad=!fine data-provider=id role="status">{words}</p>
            })}
            {move || busy.get().then(|| view! {
                <p class="muted small" data-provider-busy=id role="status">{doing.get()}</p>
            })}
        </fieldset>
    }
}

/// One text setting and its Save button (Enter saves too): one component for the base URL, the
/// parallel calls and the price, so their markup is compiled once.
#[component]
fn SettingRow(
    name: String,
    label: &'static str,
    placeholder: String,
    value: RwSignal<String>,
    save_label: &'static str,
    on_save: Callback<()>,
) -> impl IntoView {
    let button = format!("save-{name}");
    view! {
        <div class="row">
            <label class="field grow">
                <span>{label}</span>
                <input type="text" name=name placeholder=placeholder spellcheck="false"
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                    on:keydown=move |ev| if ev.key() == "Enter" { on_save.run(()) }/>
            </label>
            <button class="ghost" name=button on:click=move |_| on_save.run(())>{save_label}</button>
        </div>
    }
}

/// The settings key under which a provider's last fetched model list is kept (JSON array).
pub fn models_setting(provider: ProviderId) -> String {
    models::setting(provider)
}

/// The sentence with its first letter capitalised (error texts start lower-case).
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect::<String>() + ".",
        None => String::new(),
    }
}

/// How long the demo model "thinks" per call, so a person can watch (or a test can catch a run
/// mid-way).
#[component]
fn DemoDelay(initial: String) -> impl IntoView {
    let state = app_state();
    let delay = RwSignal::new(initial);
    let save = move || {
        let d = delay.get_untracked().trim().to_string();
        if !d.is_empty() && d.parse::<u64>().map_or(true, |n| n > 60_000) {
            state.error("The demo pause is a whole number of milliseconds, at most 60000.");
            return;
        }
        leptos::task::spawn_local(async move {
            let value = (!d.is_empty()).then_some(d.as_str());
            match storage::set_setting(crate::runner::DEMO_DELAY_SETTING, value).await {
                Ok(()) => state.info("Demo model pause saved."),
                Err(e) => state.error(e.to_string()),
            }
        });
    };
    view! {
        <div class="row">
            <label class="field grow">
                <span>"Demo model: pause per call (ms)"</span>
                <input type="text" inputmode="numeric" name="demo-delay"
                    placeholder=crate::runner::DEMO_DELAY_MS.to_string()
                    prop:value=move || delay.get()
                    on:input=move |ev| delay.set(event_target_value(&ev))
                    on:keydown=move |ev| if ev.key() == "Enter" { save() }/>
            </label>
            <button class="ghost" name="save-demo-delay" on:click=move |_| save()>"Save pause"</button>
        </div>
    }
}
