//! Settings: a key per provider (kept only in this browser), default models, the local server's
//! address, and the theme.
//!
//! A stored key is never shown again, not even in part: the page says only that one is stored.
//! Inputs are `type=password` with autocomplete off so the browser does not offer to sync them.

use leptos::prelude::*;

use crate::app::{app_state, Theme};
use crate::providers::ProviderId;
use crate::storage;

/// What the page knows about one provider.
#[derive(Debug, Clone, Default, PartialEq)]
struct ProviderSettings {
    has_key: bool,
    model: String,
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
            for p in ProviderId::ALL {
                let model = storage::get_setting(&format!("model:{}", p.as_str()))
                    .await
                    .ok()
                    .flatten()
                    .unwrap_or_default();
                let has_key = keys.iter().any(|(k, _)| *k == p.key_setting());
                out.push((p, ProviderSettings { has_key, model }));
            }
            let base = storage::get_setting("base:local")
                .await
                .ok()
                .flatten()
                .unwrap_or_default();
            let delay = storage::get_setting(crate::runner::DEMO_DELAY_SETTING)
                .await
                .ok()
                .flatten()
                .unwrap_or_default();
            (out, base, delay)
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
                {move || loaded.get().map(|(providers, base, delay)| view! {
                    <div class="card">
                        <h2>"Providers"</h2>
                        {providers.into_iter().map(|(p, s)| view! {
                            <ProviderRow provider=p settings=s on_change=move || version.update(|v| *v += 1)/>
                        }).collect_view()}
                        <LocalBase initial=base/>
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

/// One provider: key status and input, default model.
#[component]
fn ProviderRow(
    provider: ProviderId,
    settings: ProviderSettings,
    on_change: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let state = app_state();
    let key_input = RwSignal::new(String::new());
    let model = RwSignal::new(settings.model.clone());
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
                    on_change();
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
    view! {
        <fieldset class="provider" data-provider=id>
            <legend>{provider.label()}</legend>
            {provider.needs_key().then(|| view! {
                <div class="row">
                    <label class="field grow">
                        <span>
                            "API key "
                            {if settings.has_key {
                                view! { <span class="badge ok">"stored"</span> }.into_any()
                            } else {
                                view! { <span class="badge">"none"</span> }.into_any()
                            }}
                        </span>
                        <input type="password" autocomplete="off" spellcheck="false"
                            name=format!("key-{id}")
                            placeholder=if settings.has_key { "replace the stored key" } else { "paste a key" }
                            prop:value=move || key_input.get()
                            on:input=move |ev| key_input.set(event_target_value(&ev))
                            on:keydown=move |ev| if ev.key() == "Enter" { save_key() }/>
                    </label>
                    <button on:click=move |_| save_key()>"Save key"</button>
                    {settings.has_key.then(|| view! {
                        <button class="ghost" on:click=move |_| {
                            leptos::task::spawn_local(async move {
                                match storage::set_setting(&provider.key_setting(), None).await {
                                    Ok(()) => { state.info(format!("Key for {} removed.", provider.label())); on_change(); }
                                    Err(e) => state.error(e.to_string()),
                                }
                            });
                        }>"Remove"</button>
                    })}
                </div>
            })}
            <div class="row">
                <label class="field grow">
                    <span>"Default model"</span>
                    <input type="text" name=format!("model-{id}") placeholder=provider.default_model()
                        prop:value=move || model.get()
                        on:input=move |ev| model.set(event_target_value(&ev))
                        on:keydown=move |ev| if ev.key() == "Enter" { save_model() }/>
                </label>
                <button class="ghost" on:click=move |_| save_model()>"Save model"</button>
            </div>
        </fieldset>
    }
}

/// The local server's base URL (loopback only, which the page's CSP also enforces).
#[component]
fn LocalBase(initial: String) -> impl IntoView {
    let state = app_state();
    let base = RwSignal::new(initial);
    let save = move || {
        let b = base.get_untracked().trim().to_string();
        if !b.is_empty() && !is_loopback_url(&b) {
            state.error("The local server must be on this machine: http://127.0.0.1:PORT/v1 or http://localhost:PORT/v1.");
            return;
        }
        leptos::task::spawn_local(async move {
            let value = (!b.is_empty()).then_some(b.as_str());
            match storage::set_setting("base:local", value).await {
                Ok(()) => state.info("Local server address saved."),
                Err(e) => state.error(e.to_string()),
            }
        });
    };
    view! {
        <div class="row">
            <label class="field grow">
                <span>"Local server address"</span>
                <input type="url" name="base-local" placeholder="http://127.0.0.1:11434/v1"
                    prop:value=move || base.get()
                    on:input=move |ev| base.set(event_target_value(&ev))/>
            </label>
            <button class="ghost" on:click=move |_| save()>"Save address"</button>
        </div>
    }
}

/// Whether a URL points at this machine over plain HTTP (what the CSP allows for local servers).
pub fn is_loopback_url(url: &str) -> bool {
    let rest = match url.strip_prefix("http://") {
        Some(r) => r,
        None => return false,
    };
    let host = rest.split(['/', ':']).next().unwrap_or_default();
    host == "127.0.0.1" || host == "localhost"
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
