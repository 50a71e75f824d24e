//! A dialectic's page body (spec `002`): the phases as a strip with each one's status, then three
//! columns — the thesis | the critiques, one card per critic | the synthesis in the chosen style
//! (Markdown through the app's safe renderer; a JSON answer as formatted JSON) with its research
//! proposals — stacked on a phone; the sources the thesis saw and the timeline below. It renders
//! core's [`DialecticView`] and decides nothing itself; the 002 document comes from core too.

use leptos::prelude::*;
use roundtable_core::protocol::dialectic::view::{Author, PhaseStatus};
use roundtable_core::protocol::dialectic::{
    Contradiction, DialecticState, DialecticView, ResearchProposal,
};
use roundtable_core::session::Session;

use crate::markdown::to_safe_html;
use crate::runner::Runner;

/// The dialectic's view as core computes it, or `None` when the session is not a dialectic.
fn dialectic_view(s: &Session) -> Option<DialecticView> {
    s.kind_view::<DialecticState>()
}

/// The class and words of a status badge.
fn status_badge(status: PhaseStatus) -> impl IntoView {
    view! { <span class=format!("badge {}", status.tone()) data-card-status=status.word()>{status.word()}</span> }
}

/// Whether every card's author runs on the same model: then no card names it (the summary line
/// does), since one model under every role tells a person nothing.
fn one_model(v: &DialecticView) -> bool {
    v.critiques
        .iter()
        .map(|k| &k.author.model)
        .chain([&v.synthesis.author.model])
        .all(|m| *m == v.thesis.author.model)
}

/// Who wrote a card: name (unless the card's heading says it), model (by its name, unless every
/// card shares one), and persona.
fn byline(a: Author, named: bool, model_shown: bool) -> impl IntoView {
    let persona =
        (!a.persona.is_empty()).then(|| view! { <span class="persona">{a.persona.clone()}</span> });
    let model = model_shown.then(|| crate::util::model_name(&a.model));
    view! {
        <p class="muted small byline" title=a.persona.clone()>
            {match (named, model) {
                (true, Some(m)) => view! { <strong>{a.name}</strong>" · "<span class="model-name">{m}</span> }.into_any(),
                (true, None) => view! { <strong>{a.name}</strong> }.into_any(),
                (false, Some(m)) => view! { <span class="model-name">{m}</span> }.into_any(),
                (false, None) => ().into_any(),
            }}
        </p>
        {persona.map(|p| view! { <details class="card-list"><summary class="small">"Persona"</summary><p class="small muted">{p}</p></details> })}
    }
}

/// A list of short items under a heading, or nothing when empty.
fn items(title: &'static str, list: Vec<String>) -> Option<impl IntoView> {
    (!list.is_empty()).then(|| {
        view! {
            <details class="card-list">
                <summary class="small">{format!("{title} ({})", list.len())}</summary>
                <ul class="small">{list.into_iter().map(|i| view! { <li>{i}</li> }).collect_view()}</ul>
            </details>
        }
    })
}

/// The contradictions a critique found, each with its evidence.
fn contradictions(list: Vec<Contradiction>) -> Option<impl IntoView> {
    (!list.is_empty()).then(|| {
        view! {
            <div class="contradictions">
                <h4 class="small">{format!("Contradictions ({})", list.len())}</h4>
                <ul class="small">
                    {list.into_iter().map(|c| view! {
                        <li data-contradiction="true">{c.description}
                            <span class="muted">" — evidence: "{c.evidence}</span></li>
                    }).collect_view()}
                </ul>
            </div>
        }
    })
}

/// The research proposals, each with its testable prediction.
fn proposals(list: Vec<ResearchProposal>) -> Option<impl IntoView> {
    (!list.is_empty()).then(|| {
        view! {
            <div class="proposals">
                <h4 class="small">"Research proposals"</h4>
                <ul class="small">
                    {list.into_iter().map(|p| view! {
                        <li data-proposal="true">{p.proposal}
                            <span class="muted">" — predicts: "{p.testable_prediction}</span></li>
                    }).collect_view()}
                </ul>
            </div>
        }
    })
}

/// A card's text once written, else what it waits for.
fn body(text: Option<String>, status: PhaseStatus) -> impl IntoView {
    match text {
        Some(t) => view! { <div class="md" inner_html=to_safe_html(&t)></div> }.into_any(),
        None => view! {
            <p class="muted small">{status.placeholder()}</p>
        }
        .into_any(),
    }
}

/// The dialectic's panels.
#[component]
pub fn DialecticPanels() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let view_memo = Memo::new(move |_| runner.with(dialectic_view));
    let v = move || view_memo.get();
    view! {
        <div class="dialectic">
            <nav class="phases" aria-label="Phases">
                <ol>
                    {move || v().map(|v| v.phases.into_iter().map(|p| {
                        let current = p.status.is_current();
                        let state = p.status.strip_word();
                        let (title, word) = (p.title.clone(), p.status_word.clone());
                        view! {
                            <li class=format!("phase {state}") data-phase=p.title data-phase-status=p.status_word
                                aria-current=current.then_some("step")>
                                <span class="phase-title">{title}</span>
                                <span class="muted small">{word}</span>
                            </li>
                        }
                    }).collect_view())}
                </ol>
            </nav>
            <p class="muted small dialectic-meta">{move || v().map(|v| {
                // One model under every role is said once, here, not on every card.
                let model = one_model(&v).then(|| format!(" · every role: {}", crate::util::model_name(&v.thesis.author.model)));
                format!("{}{}", v.summary(), model.unwrap_or_default())
            })}</p>
            <crate::pages::session::JumpBar items=&[("Thesis", "panel-thesis"), ("Critiques", "panel-critiques"), ("Synthesis", "panel-synthesis"), ("Timeline", "panel-timeline")]/>
            <div class="dialectic-grid" aria-live="polite">
                <section class="panel" aria-labelledby="thesis-heading" id="panel-thesis" data-card="thesis"
                    style:display=move || if v().is_some_and(|v| v.show_phases) { "" } else { "none" }>
                    <h2 id="thesis-heading">"Thesis" <span class="spacer"></span>
                        {move || v().map(|v| status_badge(v.thesis.status))}</h2>
                    <div class="panel-body">
                        {move || v().map(|v| {
                            let shown = !one_model(&v);
                            let t = v.thesis;
                            view! {
                                {byline(t.author, true, shown)}
                                {body(t.text, t.status)}
                                {items("Assumptions", t.assumptions)}
                                {items("Uncertainties", t.uncertainties)}
                            }
                        })}
                    </div>
                </section>
                <section class="panel" aria-labelledby="critiques-heading" id="panel-critiques"
                    style:display=move || if v().is_some_and(|v| v.show_phases) { "" } else { "none" }>
                    <h2 id="critiques-heading">"Critiques" <span class="spacer"></span>
                        <span class="muted small">{move || v().map(|v| {
                            let done = v.critiques.iter().filter(|k| k.status == PhaseStatus::Done).count();
                            format!("{done} of {}", v.critiques.len())
                        })}</span></h2>
                    <div class="panel-body stack">
                        {move || v().and_then(|v| v.one_call).map(|note| view! {
                            <p class="muted small" data-one-call="true">{note}</p>
                        })}
                        {move || v().map(|v| { let shown = !one_model(&v); v.critiques.into_iter().map(move |k| {
                            let (id, name) = (k.author.id.clone(), k.author.name.clone());
                            view! {
                            <article class="critique-card" data-card="critique" data-critic=id
                                data-status=k.status.word()>
                                <header class="row">
                                    <h3 class="grow">{name}</h3>
                                    {status_badge(k.status)}
                                </header>
                                {byline(k.author, false, shown)}
                                {body(k.text, k.status)}
                                {contradictions(k.contradictions)}
                                {items("Assumptions", k.assumptions)}
                                {items("Uncertainties", k.uncertainties)}
                            </article>
                            }
                        }).collect_view() })}
                    </div>
                </section>
                <section class="panel" aria-labelledby="synthesis-heading" id="panel-synthesis" data-card="synthesis">
                    <h2 id="synthesis-heading">"Synthesis" <span class="spacer"></span>
                        {move || v().map(|v| status_badge(v.synthesis.status))}</h2>
                    <div class="panel-body">
                        {move || v().map(|v| {
                            let shown = !one_model(&v);
                            let s = v.synthesis;
                            view! {
                                {byline(s.author, true, shown)}
                                {match s.json {
                                    // The json style: the prose and the result side by side
                                    // (stacked on a narrow screen).
                                    Some(json) => view! {
                                        <div class="json-pair">
                                            <div data-result="prose">{body(s.text, s.status)}</div>
                                            <pre class="json-result" data-result="json"><code>{json}</code></pre>
                                        </div>
                                    }.into_any(),
                                    None => body(s.text, s.status).into_any(),
                                }}
                                {proposals(s.research_proposals)}
                                {items("Assumptions", s.assumptions)}
                                {items("Uncertainties", s.uncertainties)}
                            }
                        })}
                    </div>
                </section>
            </div>
            <div class="dialectic-below">
                <div id="panel-timeline">
                    <crate::pages::session::timeline::Timeline/>
                </div>
                <section class="panel" aria-label="Query and sources" data-section="sources">
                    <h2>"Query and sources"</h2>
                    <div class="panel-body stack">
                        <p class="query">{move || v().map(|v| v.query)}</p>
                        {move || v().map(|v| if v.sources.is_empty() {
                            view! { <p class="muted small">"No sources attached. A browser tab cannot search the web, so the thesis works from the query alone (the record says no search was made)."</p> }.into_any()
                        } else {
                            view! {
                                <ul class="small plain-list">{v.sources.into_iter().map(|s| view! {
                                    <li><details><summary>{s.title}</summary><p class="muted">{s.text}</p></details></li>
                                }).collect_view()}</ul>
                            }.into_any()
                        })}
                    </div>
                </section>
                <crate::pages::session::budget::BudgetPanel/>
            </div>
        </div>
    }
}
