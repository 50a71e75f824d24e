//! A review loop's page body (spec `004`): where the run stands (its goal, run id, iteration,
//! the approvals waiting in the inbox, the sandbox at work), the board of the seven roles with
//! each one's latest status, verdict and summary (its answer one click from the transcript), the
//! gates with what satisfies each, the orchestrator's decisions, the runtime's own runs of the
//! code, the artifacts the runtime wrote (critic triggers, revision packets, fan-outs) with the
//! calls and runs they point to and their JSON, the files with every version and its diff, the
//! plans and reports (Markdown through the app's safe renderer), the reconciliation, then the
//! timeline. It renders core's [`ReviewView`] and decides nothing itself; on a phone the panels
//! stack, with a bar to jump between them.

use leptos::prelude::*;
use roundtable_core::protocol::review::view::{verdict_words, ReviewView};
use roundtable_core::protocol::review::view::{
    FileView, ReconciliationView, RoleCard, RuntimeArtifactView,
};
use roundtable_core::protocol::review::ReviewState;

use crate::markdown::to_safe_html;
use crate::pages::session::{InboxLater, Inspect};
use crate::runner::Runner;

/// The badge class of a status, verdict or action word as `004` spells it (`pass`,
/// `needs_revision`, `blocked`): its colour only.
fn tone(word: &str) -> &'static str {
    match word {
        "ok" | "pass" | "passed" | "approve" | "approved" | "complete" | "completed" | "met" => {
            "ok"
        }
        "working" | "running" => "working",
        "needs_revision" | "inconclusive" | "partial" | "off_plan" | "revise"
        | "request_approval" => "needs_revision",
        "failed" | "fail" | "blocked" | "reject" | "rejected" | "abort" | "error" | "timeout" => {
            "failed"
        }
        _ => "",
    }
}

/// A button that opens `call_id`'s transcript, named as a person knows the call ("Vera
/// (verifier)'s verification, iteration 5") unless `words` are given; a ref that is not a call
/// (a run's effect, a note) is shown as it is, in code.
fn call_link(call_id: String, words: Option<&'static str>) -> AnyView {
    let runner = expect_context::<Runner>();
    let Inspect(inspect) = expect_context::<Inspect>();
    match runner.with_untracked(|s| s.call_title(&call_id)) {
        Some(title) => {
            // Short words on screen ("Its answer") still name the call for a screen reader.
            let (text, more) = match words {
                Some(w) => (w.to_string(), Some(format!(" ({title})"))),
                None => (title, None),
            };
            let id = call_id.clone();
            view! {
                <button type="button" class="link small" data-call=id
                    on:click=move |_| inspect.set(Some(call_id.clone()))>
                    {text}{more.map(|m| view! { <span class="sr-only">{m}</span> })}
                </button>
            }
            .into_any()
        }
        None => {
            let id = call_id.clone();
            view! { <code class="small" data-ref=id>{call_id}</code> }.into_any()
        }
    }
}

/// A ref an artifact names, in `words`: a call (its transcript), another artifact or one of
/// the runtime's runs on this page (a button that takes focus there), or a note as it is.
fn ref_link(r: String, words: String, on_page: &[String]) -> AnyView {
    if !on_page.contains(&r) {
        return call_link(r, None);
    }
    let target = anchor(&r);
    let to = r.clone();
    view! {
        <button type="button" class="link small mono" data-jump-to=to on:click=move |_| {
            let el = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&target));
            if let Some(el) = el {
                el.scroll_into_view();
                if let Some(el) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&el) {
                    let _ = el.focus();
                }
            }
        }>{words}</button>
    }
    .into_any()
}

/// The element id of an artifact or a run on the page.
fn anchor(id: &str) -> String {
    format!("review-{id}")
}

/// One role's card on the board.
fn role_card(card: RoleCard) -> impl IntoView {
    let verdict = card.verdict.clone().map(|v| {
        let words = card.verdict_words.unwrap_or("answered");
        view! { <span class=format!("badge {}", tone(&v)) data-verdict=v.clone()>{words}</span> }
    });
    let answer = card
        .call_id
        .clone()
        .map(|id| call_link(id, Some("Its answer")));
    let slots = (!card.slots.is_empty()).then(|| {
        view! {
            <p class="small muted">{format!("In a fan-out, {} slots ran at the same time:", card.slots.len())}</p>
            <ul class="small slots">
                {card.slots.iter().map(|k| view! {
                    <li data-slot=k.slot data-slot-status=k.status>
                        {format!("Slot {} ", k.slot)}
                        <span class=format!("badge {}", tone(k.status))>{k.status}</span>
                        {k.verdict.clone().map(|v| view! { " "<span class=format!("badge {}", tone(&v))>{k.verdict_words.unwrap_or("answered")}</span> })}
                        " "{k.summary.clone()}" "
                        {call_link(k.call_id.clone(), Some("its answer"))}
                    </li>
                }).collect_view()}
            </ul>
        }
    });
    view! {
        <article class="role-card" data-role=card.role data-role-status=card.status data-asking=card.asking.to_string()>
            <header class="row center">
                <h3>{card.role}</h3>
                {if card.asking {
                    view! { <span class="badge awaiting_person">"waits for you"</span> }.into_any()
                } else if card.call_id.is_none() && !card.slots.is_empty() {
                    // Never called itself, but it answered in a fan-out: its slots below.
                    view! { <span class="badge ok">"answered in a fan-out"</span> }.into_any()
                } else {
                    view! { <span class=format!("badge {}", tone(card.status))>{card.status}</span> }.into_any()
                }}
                {verdict}
            </header>
            <p class="muted small byline"><strong>{card.member}</strong>{card.model.map(|m| view! { " · "<span class="model-ref">{m}</span> })}</p>
            {(!card.summary.is_empty()).then(|| view! { <p class="small summary">{card.summary.clone()}</p> })}
            {answer}
            {slots}
        </article>
    }
}

/// One artifact the runtime wrote, with what it points to and its JSON.
fn artifact_card(a: RuntimeArtifactView, on_page: &[String]) -> impl IntoView {
    let kind =
        a.id.rsplit_once('-')
            .map_or(a.id.as_str(), |(k, _)| k)
            .to_string();
    let refs = (!a.refs.is_empty()).then(|| {
        view! {
            <p class="small refs">"Points to: "
                {a.refs.iter().map(|(r, words)| view! { {ref_link(r.clone(), words.clone(), on_page)}" " }).collect_view()}
            </p>
        }
    });
    view! {
        <article class="artifact" id=anchor(&a.id) tabindex="-1" data-artifact=a.id.clone() data-artifact-kind=kind>
            <h3 class="small">{a.title.clone()}</h3>
            <p class="small">{a.summary.clone()}</p>
            {refs}
            <details>
                <summary class="small">"The record as written (JSON)"</summary>
                <pre class="json-result" tabindex="0" aria-label=format!("{} as JSON", a.title)><code>{a.json.clone()}</code></pre>
            </details>
        </article>
    }
}

/// A file with each version and its diff from the one before; the latest open.
fn file_card(f: FileView) -> impl IntoView {
    let latest = f.versions.last().map_or(0, |v| v.version);
    let count = f.versions.len();
    view! {
        <details class="file" open=true data-file=f.path.clone() data-versions=count>
            <summary class="mono small">{f.path.clone()}" "<span class="muted">{format!("{count} version{}", if count == 1 { "" } else { "s" })}</span></summary>
            {f.versions.into_iter().rev().map(|v| {
                let lines = v.diff.into_iter().map(|l| {
                    let (class, text) = match l.chars().next() {
                        Some('+') => ("add", l[1..].to_string()),
                        Some('-') => ("del", l[1..].to_string()),
                        Some(' ') => ("same", l[1..].to_string()),
                        _ => ("same", l),
                    };
                    view! { <div class=class>{text}</div> }
                }).collect_view();
                view! {
                    <details class="version" open=v.version == latest data-version=v.version>
                        <summary class="small">
                            {format!("Version {}", v.version)}
                            {v.deleted.then_some(" (deleted)")}
                        </summary>
                        <p class="small">{if v.call_id.is_empty() {
                                view! { <span data-acceptance-test="true">"Your acceptance test, as you handed it in:"</span> }.into_any()
                            } else {
                                view! { {call_link(v.call_id.clone(), None)}{if v.version == 1 { " wrote it:" } else { " wrote it; the changes from the version before:" }} }.into_any()
                            }}</p>
                        <div class="diff">{lines}</div>
                    </details>
                }
            }).collect_view()}
        </details>
    }
}

/// The reconciliation that closed the run.
fn reconciliation(r: ReconciliationView) -> impl IntoView {
    view! {
        <p>
            <span class=format!("badge {}", tone(&r.status)) data-reconciliation=r.status.clone()>{verdict_words(&r.status)}</span>
        </p>
        {(!r.satisfied.is_empty()).then(|| view! {
            <h3 class="small">"Success criteria met"</h3>
            <ul class="small" data-satisfied="true">{r.satisfied.iter().map(|c| view! { <li>{c.clone()}</li> }).collect_view()}</ul>
        })}
        {(!r.missing.is_empty()).then(|| view! {
            <h3 class="small">"Not done"</h3>
            <ul class="small" data-missing="true">{r.missing.iter().map(|c| view! { <li>{c.clone()}</li> }).collect_view()}</ul>
        })}
        {(!r.next_slice.is_empty()).then(|| view! { <p class="small"><strong>"Next slice: "</strong>{r.next_slice.clone()}</p> })}
        {r.markdown.map(|m| view! { <div class="markdown" inner_html=to_safe_html(&m)></div> })}
    }
}

/// The review loop's panels.
#[component]
pub fn ReviewPanels() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let memo = Memo::new(move |_| runner.with(|s| s.kind_view::<ReviewState>()));
    let v = move || memo.get();
    // One part of the view, recomputed only when the view changes.
    fn part<T: 'static>(
        v: impl Fn() -> Option<ReviewView> + Copy + 'static,
        f: impl Fn(ReviewView) -> T + Copy + 'static,
    ) -> impl Fn() -> Option<T> + Copy {
        move || v().map(f)
    }
    let status = part(v, |v| match v.end {
        Some(end) => format!("The run {end}"),
        None if v.iteration.0 == 0 => "Not started".to_string(),
        None => format!(
            "Iteration {} · {} of {} calls",
            v.iteration.0, v.calls.0, v.calls.1
        ),
    });
    let running = move || {
        runner.running_code.get().map(|_| {
            view! {
                <p class="badge running sandbox-running" role="status" data-running-code="true">
                    "The runtime is running the implementer's tests in the sandbox…"
                </p>
            }
        })
    };
    let InboxLater(later) = expect_context::<InboxLater>();
    // The inbox can be opened on the live session this tab runs (not a point of history, a
    // shared link or a read-only view).
    let can_decide = move || !runner.read_only.get() && runner.history_at.get().is_none();
    let waiting = move || {
        v().filter(|v| v.open_approvals > 0).map(|v| {
            let n = v.open_approvals;
            view! {
                <button type="button" class="ghost small" data-open-approvals=n disabled=move || !can_decide()
                    on:click=move |_| later.set(false)>
                    <span class="badge awaiting_person">{n}</span>
                    {format!(" approval{} waiting in your inbox", if n == 1 { "" } else { "s" })}
                </button>
            }
        })
    };
    view! {
        <div class="review">
            <section class="card review-status" aria-labelledby="review-status">
                <h2 id="review-status" data-review-status=status>{status}</h2>
                {running}
                {waiting}
                <p class="small goal"><strong>"Goal: "</strong>{move || v().map(|v| v.goal)}</p>
            </section>
            <crate::pages::session::JumpBar items=&[("Board", "panel-board"), ("Gates", "panel-gates"), ("Artifacts", "panel-artifacts"), ("Files", "panel-files"), ("Timeline", "panel-timeline")]/>
            <div class="review-grid">
                <section class="card" id="panel-board" aria-labelledby="board-heading">
                    <h2 id="board-heading">"Roles"</h2>
                    {move || v().and_then(|v| v.model).map(|m| view! { <p class="muted small every-model">"Every role runs on "{m}"."</p> })}
                    <div class="role-board">
                        {move || v().map(|v| v.roles.into_iter().map(role_card).collect_view())}
                    </div>
                </section>
                <section class="card gates" id="panel-gates" aria-labelledby="gates-heading">
                    <h2 id="gates-heading">"Gates"</h2>
                    <p class="muted small">"The runtime completes the run only when every gate is met; the models' word alone meets none."</p>
                    <ul class="plain-list gate-list">
                        {move || v().map(|v| v.gates.into_iter().map(|g| view! {
                            <li data-gate=g.name data-met=g.met.to_string()>
                                <span class=if g.met { "badge ok" } else { "badge needs_revision" }>{if g.met { "met" } else { "not met" }}</span>
                                " "<strong>{g.name}</strong>
                                <div class="small muted">{g.satisfied_by}</div>
                                {(!g.met && !g.why.is_empty()).then(|| view! { <div class="small why">{g.why.clone()}</div> })}
                            </li>
                        }).collect_view())}
                    </ul>
                    <h2 class="runs-heading">"The runtime's runs"</h2>
                    {move || v().map(|v| if v.runs.is_empty() {
                        view! { <p class="muted small">"No run yet: the runtime runs the implementer's JavaScript in the sandbox after each implementation."</p> }.into_any()
                    } else {
                        view! {
                            <ol class="small run-list">
                                {v.runs.into_iter().enumerate().map(|(k, r)| view! {
                                    <li id=anchor(&r.id) tabindex="-1" data-runtime-run=r.id.clone() data-run-status=r.status.clone()>
                                        <span class=format!("badge {}", tone(&r.status))>{format!("Run {}", k + 1)}</span>
                                        " "{r.words.clone()}" "
                                        <span class="muted">"(the files after "{call_link(r.implementation.clone(), None)}")"</span>
                                    </li>
                                }).collect_view()}
                            </ol>
                        }.into_any()
                    })}
                </section>
            </div>
            <section class="card decisions" aria-labelledby="decisions-heading">
                <h2 id="decisions-heading">"The orchestrator's decisions"</h2>
                {move || v().map(|v| if v.decisions.is_empty() {
                    view! { <p class="muted small">"No decision yet: Run lets the orchestrator decide the first move."</p> }.into_any()
                } else {
                    view! {
                        <ol class="small decision-list">
                            {v.decisions.into_iter().map(|d| view! {
                                <li data-decision=d.action.clone() data-iteration=d.iteration>
                                    <span class="muted">{format!("Iteration {} · ", d.iteration)}</span>
                                    <span class=format!("badge {}", tone(&d.action))>{d.action_words}</span>
                                    {d.next_role.map(|r| view! { " → "<strong>{r}</strong> })}
                                    " — "{d.reason.clone()}
                                    {d.fanout.map(|f| view! { <div class="muted">"Fan-out: "{f}</div> })}
                                    " "{call_link(d.call_id.clone(), Some("transcript"))}
                                </li>
                            }).collect_view()}
                        </ol>
                    }.into_any()
                })}
            </section>
            <section class="card approvals" aria-labelledby="approvals-heading">
                <h2 id="approvals-heading">"Approvals"</h2>
                {move || v().map(|v| if v.approvals.is_empty() {
                    view! { <p class="muted small">"None asked yet. A request for approval, and any edit the policy says needs one, waits in your inbox."</p> }.into_any()
                } else {
                    view! {
                        <ol class="small approval-list">
                            {v.approvals.into_iter().map(|a| {
                                let open = a.answer.is_none();
                                view! {
                                    <li data-approval=if open { "open" } else { "decided" }>
                                        <span class="muted">{format!("Iteration {} · ", a.iteration)}</span>
                                        <strong>{a.asked_by.clone()}</strong>{if a.by_policy { " approved by itself: " } else { " asked: " }}
                                        {call_link(a.call_id.clone(), Some("transcript"))}
                                        <div class="markdown" inner_html=to_safe_html(&a.message)></div>
                                        {match a.answer {
                                            Some(words) => view! { <p class="person-word" data-person="true">{words}</p> }.into_any(),
                                            None => view! {
                                                <p><span class="badge awaiting_person">"waiting for you"</span>" "
                                                    {move || can_decide().then(|| view! {
                                                        <button type="button" class="link small" name="open-inbox" on:click=move |_| later.set(false)>"Decide it"</button>
                                                    })}
                                                </p>
                                            }.into_any(),
                                        }}
                                    </li>
                                }
                            }).collect_view()}
                        </ol>
                    }.into_any()
                })}
            </section>
            <section class="card artifacts" id="panel-artifacts" aria-labelledby="artifacts-heading">
                <h2 id="artifacts-heading">"What the runtime recorded"</h2>
                <p class="muted small">"When the critic was called (QA or the verifier failed, doubted or disagreed with the runtime's run), the repair briefs the implementer worked from, and the fan-outs whose slots ran at the same time (advice only: they meet no gate)."</p>
                {move || v().map(|v| if v.artifacts.is_empty() {
                    view! { <p class="muted small">"None yet."</p> }.into_any()
                } else {
                    let on_page: Vec<String> = v.artifacts.iter().map(|a| a.id.clone())
                        .chain(v.runs.iter().map(|r| r.id.clone()))
                        .collect();
                    view! { <div class="artifact-list">{v.artifacts.into_iter().map(|a| artifact_card(a, &on_page)).collect_view()}</div> }.into_any()
                })}
            </section>
            <section class="card files-panel" id="panel-files" aria-labelledby="files-heading">
                <h2 id="files-heading">"Files"</h2>
                {move || v().map(|v| if v.files.is_empty() {
                    view! { <p class="muted small">"No files yet: the implementer writes them."</p> }.into_any()
                } else {
                    v.files.into_iter().map(file_card).collect_view().into_any()
                })}
            </section>
            <section class="card reports" aria-labelledby="reports-heading">
                <h2 id="reports-heading">"Plans and reports"</h2>
                {move || v().map(|v| if v.reports.is_empty() {
                    view! { <p class="muted small">"None yet: the planner writes the first plan."</p> }.into_any()
                } else {
                    v.reports.into_iter().map(|r| view! {
                        <details class="report" data-report=r.title.clone()>
                            <summary class="small"><strong>{r.title.clone()}</strong></summary>
                            <div class="markdown" inner_html=to_safe_html(&r.markdown)></div>
                            <p class="small">{call_link(r.call_id.clone(), Some("Open its transcript"))}</p>
                        </details>
                    }).collect_view().into_any()
                })}
            </section>
            <section class="card reconciliation" aria-labelledby="reconciliation-heading">
                <h2 id="reconciliation-heading">"Reconciliation"</h2>
                {move || v().map(|v| match v.reconciliation {
                    Some(r) => reconciliation(r).into_any(),
                    None => view! { <p class="muted small">"Written by the orchestrator when the run closes."</p> }.into_any(),
                })}
            </section>
            <div class="review-below">
                <div id="panel-timeline">
                    <crate::pages::session::timeline::Timeline/>
                </div>
                <crate::pages::session::budget::BudgetPanel/>
            </div>
        </div>
    }
}
