//! New dialectic (spec `002`, Hegelion): the query, the response style, workflow or single shot,
//! the council of critics (each on a provider and model, persona editable), the thesis and
//! synthesis members' models, the sources the person attaches, and with the `json` style an
//! optional JSON Schema for the answer. The dialectic's rules are core's: the form builds a
//! [`DialecticConfig`] and shows every problem [`DialecticConfig::check`] reports next to its
//! field; nothing is created while one remains.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::dialectic::config::DEFAULT_CRITICS;
use roundtable_core::protocol::dialectic::{
    DialecticConfig, DialecticConfigError, DialecticMember, DialecticState, Mode, ResponseStyle,
    Source,
};

use crate::pages::form::{sentence, ProviderModelFields, TextField};
use crate::providers::ProviderId;
use crate::sessions;

/// What each response style gives, one line each, for the style picker.
pub fn style_line(style: ResponseStyle) -> &'static str {
    match style {
        ResponseStyle::Sections => {
            "The whole dialectic: thesis, each critique and the synthesis, each under its heading."
        }
        ResponseStyle::Json => {
            "One JSON object: the structured result, or the shape of your own JSON Schema."
        }
        ResponseStyle::SynthesisOnly => {
            "Only the synthesis, standing on its own; the phases stay behind it."
        }
        ResponseStyle::Conversational => "Plain prose, as one would say it: no headings, no lists.",
        ResponseStyle::BulletPoints => "A list of points, one per line.",
    }
}

/// A member as the form edits it (the thesis, the synthesis or a critic).
#[derive(Debug, Clone, Copy, PartialEq)]
struct DraftMember {
    key: u64,
    id: StoredValue<String>,
    name: RwSignal<String>,
    persona: RwSignal<String>,
    provider: RwSignal<ProviderId>,
    model: RwSignal<String>,
}

impl DraftMember {
    fn member(&self) -> DialecticMember {
        DialecticMember {
            id: self.id.get_value(),
            name: self.name.get_untracked().trim().to_string(),
            persona: self.persona.get_untracked().trim().to_string(),
            model: ModelRef {
                provider: self.provider.get_untracked().as_str().to_string(),
                model: self.model.get_untracked().trim().to_string(),
            },
        }
    }
}

/// A source as the form edits it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DraftSource {
    key: u64,
    title: RwSignal<String>,
    text: RwSignal<String>,
}

/// What was wrong with the form, field by field (core's words, as sentences).
#[derive(Debug, Clone, Default, PartialEq)]
struct FormErrors {
    query: Vec<String>,
    /// The council and the critics as a whole (too few, too many).
    critics: Vec<String>,
    /// By member id.
    members: Vec<(String, String)>,
    schema: Vec<String>,
    /// The sources as a whole (how many, how long), and one source by its 1-based number.
    sources: Vec<String>,
    source_rows: Vec<(usize, String)>,
    other: Vec<String>,
}

impl FormErrors {
    fn is_empty(&self) -> bool {
        *self == FormErrors::default()
    }
}

/// Puts each of core's reasons next to the field it is about.
fn place(errors: &mut FormErrors, err: &DialecticConfigError) {
    use DialecticConfigError as E;
    let text = sentence(&err.to_string());
    match err {
        E::EmptyQuery | E::LongQuery(_) => errors.query.push(text),
        E::BadId(id) | E::DuplicateId(id) | E::NoName(id) | E::NoModel(id) => {
            errors.members.push((id.clone(), text))
        }
        E::LongPersona(id, _) => errors.members.push((id.clone(), text)),
        E::NoCritic | E::SmallCouncil(_) | E::BigCouncil(_) => errors.critics.push(text),
        E::SchemaWithoutJson(_) => errors.schema.push(text),
        E::Schema { pointer, message } => errors.schema.push(schema_words(pointer, message)),
        E::EmptySource(n) => errors.source_rows.push((*n, text)),
        E::ManySources(_) | E::LongSources(_) | E::Search => errors.sources.push(text),
        E::Settings(_) => errors.other.push(text),
    }
}

/// The label of the schema field, which every message about it names.
const SCHEMA_LABEL: &str = "JSON Schema of the answer";

/// A problem of the person's schema as the form says it: the field's label, the place in the
/// schema (its JSON pointer; "the root" for `""`), and the reason.
fn schema_words(pointer: &str, message: &str) -> String {
    let place = if pointer.is_empty() {
        "at the root".to_string()
    } else {
        format!("at {pointer}")
    };
    sentence(&format!("{SCHEMA_LABEL}, {place}: {message}"))
}

/// Reads the schema textarea: empty is no schema; otherwise JSON nested within the limit, or
/// what is wrong in words (with the pointer where it goes too deep).
fn parse_schema(text: &str) -> Result<Option<serde_json::Value>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    roundtable_core::validate::parse_schema_text(text)
        .map(Some)
        .map_err(|p| schema_words(&p.pointer, &p.message))
}

/// Shows `messages` as the error line of the field `what` (empty when there are none).
fn error_line(what: &'static str, id: String, messages: Signal<Vec<String>>) -> impl IntoView {
    view! {
        <div class="field-error" id=id role="alert" data-error=what>{move || messages.get().join(" ")}</div>
    }
}

/// The new-dialectic form.
#[component]
pub fn NewDialecticForm() -> impl IntoView {
    let next_key = StoredValue::new(1u64);
    let defaults = DialecticConfig::standard(
        "",
        ResponseStyle::Sections,
        Mode::Workflow,
        true,
        ModelRef {
            provider: ProviderId::Demo.as_str().into(),
            model: ProviderId::Demo.default_model().into(),
        },
    );
    let query = RwSignal::new(String::new());
    let style = RwSignal::new(ResponseStyle::Sections);
    let mode = RwSignal::new(Mode::Workflow);
    let council = RwSignal::new(true);
    let schema_text = RwSignal::new(String::new());
    let errors = RwSignal::new(FormErrors::default());
    let busy = RwSignal::new(false);
    let draft = move |m: &DialecticMember| {
        let key = next_key.get_value();
        next_key.set_value(key + 1);
        DraftMember {
            key,
            id: StoredValue::new(m.id.clone()),
            name: RwSignal::new(m.name.clone()),
            persona: RwSignal::new(m.persona.clone()),
            provider: RwSignal::new(
                ProviderId::parse(&m.model.provider).unwrap_or(ProviderId::Demo),
            ),
            model: RwSignal::new(m.model.model.clone()),
        }
    };
    let thesis = draft(&defaults.thesis);
    let synthesis = draft(&defaults.synthesis);
    let critics = RwSignal::new(defaults.critics.iter().map(draft).collect::<Vec<_>>());
    let sources = RwSignal::new(Vec::<DraftSource>::new());

    // Built once per submit; the error side carries every field's messages.
    #[allow(clippy::result_large_err)]
    let build = move || -> Result<DialecticConfig, FormErrors> {
        let mut e = FormErrors::default();
        let json = style.get_untracked() == ResponseStyle::Json;
        let response_schema = if json {
            parse_schema(&schema_text.get_untracked()).unwrap_or_else(|why| {
                e.schema.push(why);
                None
            })
        } else {
            None
        };
        let config = DialecticConfig {
            query: query.get_untracked().trim().to_string(),
            response_style: style.get_untracked(),
            mode: mode.get_untracked(),
            thesis: thesis.member(),
            synthesis: synthesis.member(),
            critics: critics
                .get_untracked()
                .iter()
                .map(DraftMember::member)
                .collect(),
            use_council: council.get_untracked(),
            response_schema,
            use_search: false,
            sources: sources
                .get_untracked()
                .iter()
                .map(|s| Source {
                    title: s.title.get_untracked().trim().to_string(),
                    text: s.text.get_untracked().trim().to_string(),
                })
                .collect(),
            settings: defaults.settings.clone(),
        };
        if let Err(all) = config.check() {
            for err in &all.0 {
                place(&mut e, err);
            }
        }
        if e.is_empty() {
            Ok(config)
        } else {
            Err(e)
        }
    };

    let create = move || {
        if busy.get_untracked() {
            return;
        }
        match build() {
            Err(e) => {
                // Focus goes to the first field that needs attention.
                let first = if !e.query.is_empty() {
                    "textarea[name=query]"
                } else if !e.schema.is_empty() {
                    "textarea[name=response-schema]"
                } else {
                    "[data-invalid=true] input, [aria-invalid=true]"
                };
                errors.set(e);
                crate::util::focus_after_render(first);
            }
            Ok(config) => {
                errors.set(FormErrors::default());
                sessions::create_and_open::<DialecticState>(config, busy);
            }
        }
    };

    let member_errors = move |id: String| {
        Signal::derive(move || {
            errors
                .get()
                .members
                .iter()
                .filter(|(m, _)| *m == id)
                .map(|(_, t)| t.clone())
                .collect::<Vec<_>>()
        })
    };
    let has = move |f: fn(&FormErrors) -> bool| move || f(&errors.get()).to_string();

    // One member's fields: its model, and for a critic its name, persona and Remove.
    let member_row = move |d: DraftMember, critic: bool| {
        let id = d.id.get_value();
        let err_id = format!("member-error-{}", d.key);
        let messages = member_errors(id.clone());
        view! {
            <div class="member-row dialectic-member" data-member=id.clone()
                data-invalid=move || (!messages.get().is_empty()).to_string()>
                {critic.then(|| view! { <TextField label="Name" name="critic-name" value=d.name/> })}
                <ProviderModelFields name=if critic { "critic" } else { "member" } provider=d.provider model=d.model
                    default_model=Callback::new(|p: ProviderId| p.default_model().to_string())/>
                {critic.then(|| view! {
                    <button type="button" class="ghost danger small" aria-label=move || format!("Remove {}", d.name.get())
                        on:click=move |_| critics.update(|list| list.retain(|x| x.key != d.key))>"Remove"</button>
                    <label class="field persona">
                        <span>"Persona: what this critic looks for"</span>
                        <textarea name="critic-persona" rows="2" prop:value=move || d.persona.get()
                            on:input=move |ev| d.persona.set(event_target_value(&ev))></textarea>
                    </label>
                })}
                {error_line("member", err_id, messages)}
            </div>
        }
    };

    view! {
        <form class="stack" data-form="dialectic" on:submit=move |ev| { ev.prevent_default(); create(); } novalidate>
            <div class="card">
                <label class="field">
                    <span>"What question should the dialectic reason about?"</span>
                    <textarea name="query" rows="3"
                        placeholder="e.g. Should a small software company move to a four-day work week?"
                        aria-invalid=has(|e| !e.query.is_empty())
                        aria-describedby="query-error"
                        prop:value=move || query.get()
                        on:input=move |ev| query.set(event_target_value(&ev))></textarea>
                </label>
                {error_line("query", "query-error".into(), Signal::derive(move || errors.get().query))}
                <p class="muted small">"A proponent argues a thesis, critics attack it from their own standpoints, and a synthesizer writes what survives — with the contradictions found and ways to test what is still open."</p>
            </div>
            <div class="card">
                <fieldset class="choices" data-field="style">
                    <legend>"Response style"</legend>
                    {ResponseStyle::ALL.iter().map(|s| {
                        let s = *s;
                        view! {
                            <label class="choice">
                                <input type="radio" name="response-style" value=s.name()
                                    prop:checked=move || style.get() == s
                                    on:change=move |_| style.set(s)/>
                                <span><strong>{s.title()}</strong>" "<span class="muted small">{style_line(s)}</span></span>
                            </label>
                        }
                    }).collect_view()}
                </fieldset>
                {move || (style.get() == ResponseStyle::Json).then(|| view! {
                    <label class="field">
                        <span>"JSON Schema of the answer (optional)"</span>
                        <textarea name="response-schema" rows="5" spellcheck="false" class="mono"
                            placeholder=r#"{"type": "object", "properties": {"verdict": {"type": "string"}}, "required": ["verdict"]}"#
                            aria-invalid=has(|e| !e.schema.is_empty())
                            aria-describedby="schema-error schema-hint"
                            prop:value=move || schema_text.get()
                            on:input=move |ev| schema_text.set(event_target_value(&ev))></textarea>
                        <small class="muted" id="schema-hint">"The synthesis's result must meet it: draft 2020-12 or draft-07, as Pydantic, zod or TypeBox write it, with $refs into its own $defs. A remote $ref, a pattern with lookaround or backreferences, and unknown keywords are refused, each with its place in the schema."</small>
                    </label>
                })}
                {error_line("schema", "schema-error".into(), Signal::derive(move || errors.get().schema))}
                <fieldset class="choices" data-field="mode">
                    <legend>"How it runs"</legend>
                    <label class="choice">
                        <input type="radio" name="mode" value="workflow" prop:checked=move || mode.get() == Mode::Workflow
                            on:change=move |_| mode.set(Mode::Workflow)/>
                        <span><strong>"Workflow"</strong>" "<span class="muted small">"Thesis, critiques and synthesis, each its own call, each seeing the ones before."</span></span>
                    </label>
                    <label class="choice">
                        <input type="radio" name="mode" value="single_shot" prop:checked=move || mode.get() == Mode::SingleShot
                            on:change=move |_| mode.set(Mode::SingleShot)/>
                        <span><strong>"Single shot"</strong>" "<span class="muted small">"One call writes all three (by the thesis member's model)."</span></span>
                    </label>
                </fieldset>
            </div>
            <div class="field-error" role="alert" data-error="dialectic">{move || {
                let e = errors.get();
                (!e.is_empty()).then(|| "Fix what is marked below; nothing was created.".to_string())
            }}</div>
            <div class="row end form-actions">
                <button type="submit" name="create-dialectic" disabled=move || busy.get()>"Create dialectic"</button>
                <a class="button ghost" href="#/">"Cancel"</a>
            </div>
            <h2 class="form-more">"Council, members and sources "<span class="muted small">"(optional: the defaults run on the demo model)"</span></h2>
            <div class="card">
                <h2 id="critics-heading">"Critics"</h2>
                <label class="choice">
                    <input type="checkbox" name="use-council" prop:checked=move || council.get()
                        on:change=move |ev| council.set(event_target_checked(&ev))/>
                    <span><strong>"Council"</strong>" "<span class="muted small">"Every critic writes an antithesis, in parallel; without it only the first critic does."</span></span>
                </label>
                <div class="members" role="group" aria-labelledby="critics-heading">
                    <For each=move || critics.get() key=|d| d.key let:d>
                        {member_row(d, true)}
                    </For>
                </div>
                <div class="row">
                    <button type="button" class="ghost" name="add-critic" on:click=move |_| {
                        let key = next_key.get_value();
                        let n = critics.get_untracked().len() + 1;
                        let model = critics.get_untracked().first().map_or_else(
                            || (ProviderId::Demo, ProviderId::Demo.default_model().to_string()),
                            |c| (c.provider.get_untracked(), c.model.get_untracked()),
                        );
                        critics.update(|list| list.push(draft(&DialecticMember {
                            id: format!("critic-{key}"),
                            name: format!("Critic {n}"),
                            persona: String::new(),
                            model: ModelRef { provider: model.0.as_str().into(), model: model.1 },
                        })));
                    }>"+ Add critic"</button>
                </div>
                {error_line("critics", "critics-error".into(), Signal::derive(move || errors.get().critics))}
                <p class="muted small">{format!(
                    "The defaults are {}, {} and {}.",
                    DEFAULT_CRITICS[0].1, DEFAULT_CRITICS[1].1, DEFAULT_CRITICS[2].1
                )}</p>
            </div>
            <div class="card">
                <h2>"Thesis and synthesis"</h2>
                <h3 class="small">{defaults.thesis.name.clone()}" — writes the thesis"</h3>
                {member_row(thesis, false)}
                <h3 class="small">{defaults.synthesis.name.clone()}" — writes the synthesis"</h3>
                {member_row(synthesis, false)}
            </div>
            <div class="card">
                <h2 id="sources-heading">"Sources"</h2>
                <p class="muted small" data-note="search">"A browser tab cannot search the web, so the dialectic's record says no search was made. Paste what the thesis should work from here instead: the thesis sees every source."</p>
                <div class="stack" role="group" aria-labelledby="sources-heading">
                    <For each=move || sources.get() key=|s| s.key let:s>
                        {
                            let number = move || sources.get().iter().position(|x| x.key == s.key).map_or(0, |i| i + 1);
                            let messages = Signal::derive(move || {
                                let n = number();
                                errors.get().source_rows.iter().filter(|(i, _)| *i == n).map(|(_, t)| t.clone()).collect::<Vec<_>>()
                            });
                            view! {
                                <div class="source-row" data-source=s.key>
                                    <TextField label="Title" name="source-title" value=s.title grow=true/>
                                    <label class="field grow">
                                        <span>"Text"</span>
                                        <textarea name="source-text" rows="3"
                                            aria-invalid=move || (!messages.get().is_empty()).to_string()
                                            prop:value=move || s.text.get()
                                            on:input=move |ev| s.text.set(event_target_value(&ev))></textarea>
                                    </label>
                                    <button type="button" class="ghost danger small" aria-label=move || format!("Remove source {}", number())
                                        on:click=move |_| sources.update(|list| list.retain(|x| x.key != s.key))>"Remove"</button>
                                    {error_line("source", format!("source-error-{}", s.key), messages)}
                                </div>
                            }
                        }
                    </For>
                </div>
                <div class="row">
                    <button type="button" class="ghost" name="add-source" on:click=move |_| {
                        let key = next_key.get_value();
                        next_key.set_value(key + 1);
                        sources.update(|list| list.push(DraftSource { key, title: RwSignal::new(String::new()), text: RwSignal::new(String::new()) }));
                    }>"+ Add source"</button>
                </div>
                {error_line("sources", "sources-error".into(), Signal::derive(move || errors.get().sources))}
                {error_line("other", "other-error".into(), Signal::derive(move || errors.get().other))}
            </div>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_of_core_lands_next_to_a_field() {
        let mut e = FormErrors::default();
        for err in [
            DialecticConfigError::EmptyQuery,
            DialecticConfigError::NoName("logician".into()),
            DialecticConfigError::SmallCouncil(1),
            DialecticConfigError::Schema {
                pointer: "/properties/a/$ref".into(),
                message: "a remote $ref".into(),
            },
            DialecticConfigError::EmptySource(2),
            DialecticConfigError::ManySources(9),
        ] {
            place(&mut e, &err);
        }
        assert_eq!(
            e.query,
            ["The query is empty: say what the dialectic is about."]
        );
        assert_eq!(e.members[0].0, "logician");
        assert_eq!(e.critics.len(), 1);
        assert_eq!(
            e.schema,
            ["JSON Schema of the answer, at /properties/a/$ref: a remote $ref."]
        );
        assert_eq!(e.source_rows[0].0, 2);
        assert_eq!(e.sources.len(), 1);
        assert!(e.other.is_empty());
        assert!(parse_schema("  ").unwrap().is_none());
        assert!(parse_schema("{")
            .unwrap_err()
            .starts_with("JSON Schema of the answer, at the root: the schema is not valid JSON"));
        let deep = format!("{}{}", "[".repeat(80), "]".repeat(80));
        let why = parse_schema(&deep).unwrap_err();
        assert!(why.contains("nests 66 levels"), "{why}");
        assert!(why.contains(&format!("at {}", "/0".repeat(65))), "{why}");
    }
}
