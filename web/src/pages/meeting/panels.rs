//! A meeting's page body: the seven phases as a stepper, the attendees and who has the floor, the
//! transcript (all of it, or one speaker's), the orchestrator's decisions with the fallback rule's
//! marked, a remark to the meeting, and the minutes. It renders core's
//! [`MeetingView`](roundtable_core::protocol::meeting::MeetingView) and decides nothing itself.

use leptos::prelude::*;
use roundtable_core::engine::EngineError;
use roundtable_core::protocol::meeting::{
    MeetingEdit, MeetingState, MeetingView, PhaseState, TurnKind,
};
use roundtable_core::session::Session;

use crate::app::app_state;
use crate::pages::session::ViewMemo;
use crate::runner::Runner;

/// The meeting's view as core computes it, or `None` when the session is not a meeting.
fn meeting_view(s: &Session) -> Option<MeetingView> {
    s.kind_view::<MeetingState>()
}

/// Records the person's remark to the meeting; core checks it.
fn remark(s: &mut Session, content: String) -> Result<(), EngineError> {
    s.edit_kind::<MeetingState>(
        MeetingEdit::Remark { content },
        crate::util::now_ms() as u64,
    )
}

/// The meeting's panels.
#[component]
pub fn MeetingPanels() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let view_memo = Memo::new(move |_| runner.with(meeting_view));
    // `None`: every speaker; `Some(id)`: one speaker's contributions.
    let speaker = RwSignal::new(None::<String>);
    view! {
        <div class="meeting">
            <nav class="phases" aria-label="Phases">
                <ol>
                    {move || view_memo.get().map(|v| v.phases.into_iter().map(|p| {
                        let current = p.state == PhaseState::Current;
                        view! {
                            <li class=format!("phase {}", p.state.word()) data-phase=p.name
                                aria-current=current.then_some("step") title=p.purpose>
                                <span class="phase-title">{p.title}</span>
                                <span class="muted small">{p.turns_words}</span>
                            </li>
                        }
                    }).collect_view())}
                </ol>
            </nav>
            <crate::pages::session::JumpBar items=&[("Transcript", "panel-transcript"), ("Attendees", "panel-attendees"), ("Timeline", "panel-timeline"), ("Minutes", "panel-minutes")]/>
            <div class="meeting-grid">
                <section class="panel transcript" aria-label="Transcript" aria-live="polite" id="panel-transcript">
                    <h2>"Transcript" <span class="spacer"></span>
                        <span class="muted small">{move || view_memo.get().map(|v| match v.fallbacks {
                            0 => String::new(),
                            1 => "1 decision by the fallback rule".into(),
                            n => format!("{n} decisions by the fallback rule"),
                        })}</span>
                    </h2>
                    <div class="panel-body transcript-list" tabindex="0" role="group" aria-label="What was said">
                        {move || {
                            let who = speaker.get();
                            let v = view_memo.get()?;
                            let turns: Vec<_> = v.turns.into_iter()
                                .filter(|t| who.as_deref().is_none_or(|w| t.who == w && t.kind == TurnKind::Contribution))
                                .collect();
                            Some(if turns.is_empty() {
                                view! { <p class="muted">"Nothing has been said yet. Run the meeting to start it."</p> }.into_any()
                            } else {
                                turns.into_iter().map(|t| match t.kind {
                                    TurnKind::Contribution => view! {
                                        <article class="turn contribution" data-turn="contribution" data-speaker=t.who.clone()>
                                            <header class="small"><strong>{t.name}</strong>
                                                <span class="muted">{format!(" · {} · turn {}", t.phase, t.round)}</span></header>
                                            <div class="md" inner_html=crate::markdown::to_safe_html(&t.text)></div>
                                        </article>
                                    }.into_any(),
                                    TurnKind::Remark => view! {
                                        <article class="turn remark" data-turn="remark">
                                            <header class="small"><strong>"You"</strong></header>
                                            <p>{t.text}</p>
                                        </article>
                                    }.into_any(),
                                    kind => {
                                        let fell_back = kind == TurnKind::Fallback;
                                        view! {
                                            <p class=if fell_back { "turn decision fallback small" } else { "turn decision small" }
                                                data-turn=kind.word()>
                                                {fell_back.then(|| view! { <span class="badge warn" title="The orchestrator's answer broke spec 001's rules; the fallback rule decided instead.">"fallback"</span> " " })}
                                                <em>{t.text}</em>
                                                <span class="muted">{t.rationale.map(|r| format!(" — {r}"))}</span>
                                            </p>
                                        }.into_any()
                                    }
                                }).collect_view().into_any()
                            })
                        }}
                    </div>
                </section>
                <aside class="panel attendees" aria-label="Attendees" id="panel-attendees">
                    <h2>"Attendees"</h2>
                    <div class="panel-body stack">
                        <button class="ghost small" aria-pressed=move || speaker.get().is_none().to_string()
                            on:click=move |_| speaker.set(None)>"Everyone"</button>
                        {move || view_memo.get().map(|v| v.attendees.into_iter().map(|a| {
                            let id = a.id.clone();
                            // Its part, unless its name already says it ("Orchestrator").
                            let show_part = !a.part_words.eq_ignore_ascii_case(&a.name);
                            let pressed = {
                                let id = id.clone();
                                move || (speaker.get().as_deref() == Some(id.as_str())).to_string()
                            };
                            view! {
                                <button class="attendee ghost small" data-attendee=a.id.clone() aria-pressed=pressed
                                    on:click=move |_| speaker.set(Some(id.clone()))>
                                    <strong>{a.name}</strong>
                                    <span class="muted small">{a.role}</span>
                                    {show_part.then(|| view! {
                                        <span class="muted small">{a.part_words.clone()}</span>
                                    })}
                                    {a.has_floor.then(|| view! { <span class="badge running">"has the floor"</span> })}
                                </button>
                            }
                        }).collect_view())}
                    </div>
                </aside>
                <div class="side-right stack" id="panel-timeline">
                    <crate::pages::session::timeline::Timeline/>
                    <RemarkBox/>
                </div>
            </div>
            <section class="panel minutes" aria-label="Minutes" data-section="minutes" id="panel-minutes">
                <h2>"Minutes"</h2>
                <div class="panel-body">
                    {move || view_memo.get().map(|v| if v.has_minutes {
                        view! { <div class="md" inner_html=crate::markdown::to_safe_html(&v.minutes_markdown)></div> }.into_any()
                    } else {
                        view! { <p class="muted">"The orchestrator writes the minutes when the meeting ends."</p> }.into_any()
                    })}
                </div>
            </section>
        </div>
    }
}

/// A remark from the person to the meeting: every attendee sees it from the next call on.
#[component]
fn RemarkBox() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let state = app_state();
    let text = RwSignal::new(String::new());
    let send = move || {
        let content = text.get_untracked().trim().to_string();
        if content.is_empty() {
            state.error("Write the remark first.");
            return;
        }
        leptos::task::spawn_local(async move {
            match runner.command(|s| remark(s, content)).await {
                Ok(()) => {
                    text.set(String::new());
                    state.info("Every attendee will see your remark from the next turn on.");
                }
                Err(e) => state.error(e),
            }
        });
    };
    let ViewMemo(view) = expect_context::<ViewMemo>();
    let shared = use_context::<crate::share::SharedLink>().is_some();
    // Why no remark can be made here, said of the point the page shows: a point of history (the
    // meeting may have gone on since), a shared copy, another tab's meeting, a finished one. A
    // memo, so the field is drawn again only when that changes (never while typing).
    let remark_closed = Memo::new(move |_| -> Option<&'static str> {
        if runner.history_at.get().is_some() {
            Some("This is the meeting as it was at this point of its history: a remark goes to the live meeting (Back to live).")
        } else if shared {
            Some("This is a shared copy: import a copy to make remarks.")
        } else if runner.read_only.get() {
            Some("The tab that runs this meeting takes remarks (Take over to make one here).")
        } else if view.with(|v| v.actions.edit) {
            None
        } else {
            Some("The meeting is over; remarks are closed.")
        }
    });
    view! {
        <section class="panel" aria-label="Remark to the meeting">
            <h2>"Remark to the meeting"</h2>
            <div class="panel-body">
                {move || match remark_closed.get() {
                    None => view! {
                        <label class="field">
                            <span class="sr-only">"Your remark"</span>
                            <textarea name="meeting-remark" rows="2" prop:value=move || text.get()
                                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                        </label>
                        <div class="row end">
                            <button class="ghost small" name="send-remark" on:click=move |_| send()>"Send remark"</button>
                        </div>
                    }.into_any(),
                    Some(why) => view! { <p class="muted small" data-remark-closed>{why}</p> }.into_any(),
                }}
            </div>
        </section>
    }
}
