//! The transcript inspector: for any call, the exact messages sent, the raw answer, the
//! validation report, the repair attempts around it and the change applied. Answers "what did
//! this member see and say?", for every kind of session: it renders core's
//! [`CallView`](roundtable_core::session::CallView), whose attempts are the call's thread, each
//! worded as the timeline words it.

use leptos::prelude::*;
use roundtable_core::protocol::ChatRole;
use roundtable_core::session::{CallView, ResultView as CallResultView};
use roundtable_core::validate::Violation;

use super::fork::ForkFrom;
use super::Inspect;
use crate::runner::Runner;
use roundtable_core::fork::ForkAt;

/// The most of a raw answer the transcript lays out at once: past it a `<pre>` of megabytes
/// stalls the page for a second or more; the whole answer is one click away as a file.
const RAW_SHOWN: usize = 200_000;

/// A raw answer as the transcript shows it: whole when it is short, else its first
/// [`RAW_SHOWN`] bytes (cut at a character) with a line saying how much is left out and a button
/// that downloads the whole of it, verbatim.
fn raw_block(raw: String, call_id: String) -> impl IntoView {
    if raw.len() <= RAW_SHOWN {
        return view! { <pre class="raw msg" tabindex="0">{raw}</pre> }.into_any();
    }
    let shown = head(&raw).to_string();
    let end = shown.len();
    let total = raw.len();
    let raw = StoredValue::new(raw);
    view! {
        <p class="small muted" data-raw-cut=total>
            {format!("The answer is {total} bytes long: the first {end} are shown. ")}
            <button type="button" class="link" name="download-raw" on:click=move |_| {
                let name = format!("answer-{call_id}.txt");
                if let Err(e) = raw.with_value(|r| crate::util::download(&name, "text/plain", r)) {
                    crate::app::app_state().error(e);
                }
            }>"Download the whole answer"</button>
        </p>
        <pre class="raw msg" tabindex="0">{shown}</pre>
    }
    .into_any()
}

/// The first [`RAW_SHOWN`] bytes of `text`, cut at a character.
fn head(text: &str) -> &str {
    let mut end = RAW_SHOWN.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn role_word(r: ChatRole) -> &'static str {
    match r {
        ChatRole::System => "system",
        ChatRole::User => "user",
        ChatRole::Assistant => "assistant",
    }
}

/// The dialog; open while [`Inspect`] holds a call id.
#[component]
pub fn TranscriptDialog() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let Inspect(inspect) = expect_context::<Inspect>();
    let ForkFrom(fork_from) = expect_context::<ForkFrom>();
    let close = move || inspect.set(None);
    let dialog_ref = NodeRef::<leptos::html::Div>::new();
    // Where focus was when the dialog opened: it goes back there when the dialog closes.
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |_| {
        if inspect.get().is_some() {
            if opener.with_value(Option::is_none) {
                opener.set_value(crate::pages::dialog::active());
            }
            if let Some(el) = dialog_ref.get() {
                let _ = el.focus();
            }
        } else if let Some(el) = opener.try_update_value(Option::take).flatten() {
            let _ = el.focus();
        }
    });
    view! {
        {move || inspect.get().map(|call_id| {
            let record = runner.with(|s| s.call_view(&call_id));
            // The call in words ("Ana's turn in Option generation"), never its id.
            let title = record.as_ref().map_or_else(|| "Transcript".to_string(), |r| format!("Transcript of {}", r.title));
            view! {
                <div class="overlay" on:click=move |ev| {
                    if ev.target() == ev.current_target() { close(); }
                }>
                    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="transcript-title" tabindex="-1"
                        node_ref=dialog_ref
                        on:keydown=move |ev: web_sys::KeyboardEvent| {
                            if ev.key() == "Escape" {
                                close();
                            } else if let Some(el) = dialog_ref.get_untracked() {
                                crate::pages::dialog::trap_tab(&ev, &el);
                            }
                        }>
                        <header>
                            <h2 id="transcript-title">{title}</h2>
                            {record.is_some().then(|| {
                                let id = call_id.clone();
                                view! {
                                    <button class="ghost" name="fork" title="A new session with everything before this call, then live with your changes"
                                        on:click=move |_| {
                                            // One dialog at a time: the fork dialog takes the transcript's place.
                                            inspect.set(None);
                                            fork_from.set(Some(ForkAt::Call(id.clone())));
                                        }>"Fork from here"</button>
                                }
                            })}
                            <button class="ghost" on:click=move |_| close() aria-label="Close">"Close"</button>
                        </header>
                        <div class="body">
                            {match record {
                                None => view! { <p>"This call is not in the session."</p> }.into_any(),
                                Some(r) => view! { <CallDetail record=r/> }.into_any(),
                            }}
                        </div>
                    </div>
                </div>
            }
        })}
    }
}

#[component]
fn CallDetail(record: CallView) -> impl IntoView {
    let Inspect(inspect) = expect_context::<Inspect>();
    let c = &record;
    let attempts = record.attempts.clone();
    let round_word = expect_context::<Runner>()
        .with_untracked(roundtable_core::session::Session::kind)
        .round_word()
        .to_lowercase();
    // Tokens the provider counted, when it counted any (a usage may carry only a cost).
    let usage = record
        .usage
        .filter(|u| u.input_tokens + u.output_tokens > 0 || u.stopped_for_length)
        .map(|u| {
            format!(
                "{} in / {} out{}",
                u.input_tokens,
                u.output_tokens,
                if u.stopped_for_length {
                    " · cut for length"
                } else {
                    ""
                }
            )
        });
    view! {
        <div class="product-meta">
            <span class="badge" title=c.member.clone()>{c.member_name.clone()}</span>
            <span class="badge">{c.step_title}</span>
            <span class="badge">{format!("{} {}", round_word, c.round)}</span>
            <span class="badge">{c.kind.word()}</span>
            <span class="muted small">{if record.tokens_estimated {
                format!("≈ {} tokens (estimated: the provider counted none)", record.tokens)
            } else {
                format!("{} tokens counted", record.tokens)
            }}</span>
            {usage.map(|u| view! { <span class="muted small">{format!("provider: {u}")}</span> })}
            {record.cost.clone().map(|c| view! { <span class="muted small" data-call-cost>{format!("cost: {c}")}</span> })}
            {record.schema_form.map(|f| view! { <span class="muted small" data-schema-form>{format!("schema: {f}")}</span> })}
        </div>
        {(attempts.len() > 1).then(|| view! {
            <nav class="row center" aria-label="Attempts at this step">
                <span class="small muted">"Attempts at this step:"</span>
                {attempts.into_iter().enumerate().map(|(n, (id, kind, word))| {
                    let current = id == record.id;
                    let id2 = id.clone();
                    view! {
                        <button class=if current { "small" } else { "ghost small" } aria-current=current.then_some("true")
                            on:click=move |_| inspect.set(Some(id2.clone()))>
                            {format!("Attempt {} · {} · {word}", n + 1, kind.word())}
                        </button>
                    }
                }).collect_view()}
            </nav>
        })}
        <section data-section="result">
            <h3>"What became of it"</h3>
            {record.retried.clone().map(|words| view! { <p class="small muted" data-retried="true">{words}</p> })}
            {match (record.result.clone(), record.failed.clone()) {
                (None, Some((error, fix))) if record.raw_answer.is_none() => view! {
                    <div class="notice error" data-failed="true">
                        <p><span class="badge invalid">"failed"</span> " The provider gave no answer: " {error}</p>
                        <p class="small">"The call is asked again when you resume. " <super::fix::FixLink fix=fix/></p>
                    </div>
                }.into_any(),
                (result, failed) => view! {
                    <ResultView result=result/>
                    {failed.map(|(error, _)| view! {
                        <p class="small muted" data-failed="earlier">{format!("An earlier attempt of this call failed: {error}")}</p>
                    })}
                }.into_any(),
            }}
        </section>
        <section data-section="raw">
            <h3>"Raw answer"</h3>
            {match record.raw_answer.clone() {
                Some(raw) => match record.whole_bytes {
                    // Refused for its length: the log kept only its head.
                    Some(whole) => view! {
                        <p class="small muted" data-raw-kept=whole>
                            {roundtable_core::engine::long_answer::kept_words(whole, raw.len())}
                        </p>
                        <pre class="raw msg" tabindex="0">{raw.to_string()}</pre>
                    }.into_any(),
                    None => raw_block(raw.to_string(), record.id.clone()).into_any(),
                },
                None => {
                    let runner = expect_context::<Runner>();
                    let id = record.id.clone();
                    let failed = record.failed.is_some();
                    // The answer so far, as text (never HTML). Only the text node follows it: the
                    // block itself (and its status badge) is made once per streaming/not switch,
                    // so a selection in the text survives and the live region is not re-announced.
                    let text = Memo::new(move |_| runner.partial.with(|p| p.get(&id).cloned()));
                    let streaming = Memo::new(move |_| text.with(Option::is_some));
                    (move || if streaming.get() {
                        view! {
                            <p><span class="badge streaming live" role="status">"streaming — answer so far"</span></p>
                            <pre class="raw msg" tabindex="0" data-streaming="true">{move || text.with(|t| t.as_deref().map(head).unwrap_or_default().to_string())}</pre>
                        }.into_any()
                    } else {
                        view! { <p class="muted">{if failed { "No answer: the provider failed (above)." } else { "No answer yet." }}</p> }.into_any()
                    }).into_any()
                }
            }}
        </section>
        <section data-section="messages">
            <h3>{format!("Messages sent ({})", c.messages.len())}</h3>
            {c.messages.iter().map(|m| view! {
                <div class="msg">
                    <div class="role">{role_word(m.role)}</div>
                    <pre tabindex="0">{m.content.clone()}</pre>
                </div>
            }).collect_view()}
        </section>
        <EnvelopeDetails call_id=c.id.clone()/>
    }
}

/// The state envelope a call's prompt was built from. The log does not keep it: core rebuilds it
/// by replaying the session up to the call, the first time the person opens this.
#[component]
fn EnvelopeDetails(call_id: String) -> impl IntoView {
    let runner = expect_context::<Runner>();
    let text = RwSignal::new(None::<String>);
    let call_id = StoredValue::new(call_id);
    let on_toggle = move |_| {
        if text.with_untracked(Option::is_none) {
            let json = runner.with_untracked(|s| s.envelope_json(&call_id.get_value()));
            text.set(Some(json.map_or_else(
                || "This call's envelope could not be rebuilt.".to_string(),
                |j| roundtable_core::export::pretty_json(&j),
            )));
        }
    };
    view! {
        <details on:toggle=on_toggle>
            <summary>"State envelope (what the prompt was built from)"</summary>
            <pre class="raw" tabindex="0">{move || text.get().unwrap_or_else(|| "Rebuilding…".into())}</pre>
        </details>
    }
}

#[component]
fn ResultView(result: Option<CallResultView>) -> impl IntoView {
    match result {
        None => view! { <p class="muted">"Waiting for the answer."</p> }.into_any(),
        Some(CallResultView::Applied { changes, warnings }) => view! {
            <p><span class="badge ok">"valid — applied"</span></p>
            <ul class="changes">{changes.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}</ul>
            <Violations list=warnings warning=true/>
        }.into_any(),
        Some(CallResultView::Invalid { report }) => view! {
            <p><span class="badge invalid">"invalid — nothing applied"</span>
               " The member was asked to repair it (see the next attempt)."</p>
            <Violations list=report.errors warning=false/>
            <Violations list=report.warnings warning=true/>
        }.into_any(),
        Some(CallResultView::FellBack { report, changes }) => view! {
            <p><span class="badge warn">"invalid — the session's rule decided instead"</span></p>
            <ul class="changes">{changes.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}</ul>
            <Violations list=report.errors warning=false/>
            <Violations list=report.warnings warning=true/>
        }.into_any(),
        Some(CallResultView::ContextServed { slices }) => view! {
            <p><span class="badge running">"asked for more context"</span></p>
            {slices.into_iter().map(|(heading, text)| view! {
                <div class="msg">
                    <div class="role">{heading}</div>
                    <pre tabindex="0">{text}</pre>
                </div>
            }).collect_view()}
        }.into_any(),
        Some(CallResultView::Halted { halt }) => view! {
            <p><span class="badge warn">"halted"</span> " " {halt.word()}</p>
            <p>{halt.message().to_string()}</p>
            {(!halt.options().is_empty()).then(|| view! { <ul>{halt.options().iter().map(|x| view! { <li>{x.clone()}</li> }).collect_view()}</ul> })}
        }.into_any(),
        Some(CallResultView::Ended { message }) => view! {
            <p><span class="badge ok">"ended the work"</span></p>
            <p>{message}</p>
        }.into_any(),
        Some(CallResultView::Superseded) => view! {
            <p><span class="badge">"superseded"</span> " The work ended before this call was answered."</p>
        }.into_any(),
    }
}

#[component]
pub(super) fn Violations(list: Vec<Violation>, warning: bool) -> impl IntoView {
    (!list.is_empty()).then(|| view! {
        <div class="violations">
            <h3 class="small">{if warning { "Warnings" } else { "Validation errors" }}</h3>
            {list.into_iter().map(|v| view! {
                <div class=if warning { "violation warning" } else { "violation" }>
                    <div><code>{if v.path.is_empty() { "/".to_string() } else { v.path.clone() }}</code> " " {v.message.clone()}</div>
                    <div class="small">"expected: " {v.expected.clone()} " · received: " <code>{v.received.clone()}</code></div>
                    <div class="small muted">"hint: " {v.hint.clone()}</div>
                </div>
            }).collect_view()}
        </div>
    })
}
