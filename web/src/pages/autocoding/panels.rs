//! An autocoding session's page body (spec `002`): where the loop stands (and the sandbox at work
//! while code runs), the numbered requirements, a small chart of the coach's scores against the
//! threshold, one card per turn — its test run, each test's result, the coach's finding on each
//! requirement, the actions, the person's verdict — and the files of any turn, whole or as the
//! diff from another turn, with Download of a turn's files as one text bundle. It renders core's
//! [`AutocodingView`] and core's diff and bundle; it decides nothing itself.

use leptos::prelude::*;
use roundtable_core::diff::DiffLine;
use roundtable_core::protocol::autocoding::view::{bundle, files_diff, FileChange, TurnRow};
use roundtable_core::protocol::autocoding::{Autocoding, AutocodingView, CodeFile};
use roundtable_core::session::Session;

use crate::app::app_state;
use crate::runner::Runner;

/// The view as core computes it, or `None` when the session is not autocoding.
fn autocoding_view(s: &Session) -> Option<AutocodingView> {
    s.kind_view::<Autocoding>()
}

/// The files after each turn with the turn's number, oldest first.
fn turn_files(s: &Session) -> Vec<(u32, Vec<CodeFile>)> {
    autocoding_view(s)
        .map(|v| {
            v.turns
                .into_iter()
                .filter(|t| t.saved_feedback.is_none())
                .map(|t| (t.turn, t.files))
                .collect()
        })
        .unwrap_or_default()
}

/// The chart's size in SVG units.
const W: f64 = 320.0;
const H: f64 = 120.0;
const PAD: f64 = 18.0;

/// The scores against the threshold: a line through each reviewed turn's score, the threshold
/// dashed, an approved point filled, the score axis marked at 0 and 1.
pub(crate) fn chart(v: &AutocodingView) -> impl IntoView {
    let turns = f64::from(v.max_turns.max(2));
    let x = move |turn: u32| PAD + (f64::from(turn) - 1.0) / (turns - 1.0) * (W - 2.0 * PAD);
    let y = move |score: f64| H - PAD - score.clamp(0.0, 1.0) * (H - 2.0 * PAD);
    let line: String = v
        .scores
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.turn), y(p.score)))
        .collect::<Vec<_>>()
        .join(" ");
    let threshold = y(v.threshold);
    let label = format!(
        "Scores by turn: {}; threshold {}",
        if v.scores.is_empty() {
            "none yet".to_string()
        } else {
            v.scores
                .iter()
                .map(|p| format!("turn {} {:.2}", p.turn, p.score))
                .collect::<Vec<_>>()
                .join(", ")
        },
        v.threshold
    );
    let points = v
        .scores
        .iter()
        .map(|p| {
            view! {
                <circle cx=format!("{:.1}", x(p.turn)) cy=format!("{:.1}", y(p.score)) r="4"
                    class=if p.approved { "point approved" } else { "point" }
                    data-score=format!("{:.2}", p.score)>
                    <title>{format!("Turn {}: {:.2}", p.turn, p.score)}</title>
                </circle>
            }
        })
        .collect_view();
    view! {
        <figure class="score-chart">
            <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=label>
                <line x1=PAD y1=H - PAD x2=W - PAD y2=H - PAD class="axis"/>
                <line x1=PAD y1=PAD x2=W - PAD y2=PAD class="axis top"/>
                <text x=PAD - 4.0 y=H - PAD + 3.0 text-anchor="end" class="chart-label" data-axis="0">"0"</text>
                <text x=PAD - 4.0 y=PAD + 3.0 text-anchor="end" class="chart-label" data-axis="1">"1"</text>
                <line x1=PAD y1=format!("{threshold:.1}") x2=W - PAD y2=format!("{threshold:.1}") class="threshold"/>
                <text x=W - PAD y=format!("{:.1}", threshold - 4.0) text-anchor="end" class="chart-label">{format!("threshold {}", v.threshold)}</text>
                <text x=PAD y=H - 4.0 class="chart-label">"turn 1"</text>
                <text x=W - PAD y=H - 4.0 text-anchor="end" class="chart-label">{format!("turn {}", v.max_turns)}</text>
                <polyline points=line class="scores"/>
                {points}
            </svg>
        </figure>
    }
}

/// One turn's card: the run, each test, the coach's findings tied to the requirements, the
/// actions and the person's word.
pub(crate) fn turn_card(row: TurnRow, threshold: f64) -> impl IntoView {
    let (badge, word) = match (row.score, row.approved) {
        (None, _) => ("queued", "not reviewed"),
        (Some(_), true) => ("approved", "approved"),
        (Some(s), false) if s >= threshold => ("warn", "not approved"),
        (Some(_), false) => ("needs_revision", "not approved"),
    };
    let tests = (!row.results.is_empty() || !row.errors.is_empty()).then(|| {
        view! {
            <details class="card-list" data-tests=row.turn>
                <summary class="small">{format!("Test results ({})", row.run)}</summary>
                <ul class="small tests">
                    {row.errors.iter().map(|e| view! {
                        <li class="test failed" data-test-passed="false">
                            <span class="badge failed">"error"</span>" "
                            {if e.file.is_empty() { String::new() } else { format!("{}: ", e.file) }}{e.message.clone()}
                        </li>
                    }).collect_view()}
                    {row.results.iter().map(|t| view! {
                        <li class="test" data-test-passed=t.passed.to_string()>
                            <span class=if t.passed { "badge ok" } else { "badge failed" }>{if t.passed { "passed" } else { "failed" }}</span>
                            " "{t.name.clone()}" "<span class="muted">"("{t.file.clone()}")"</span>
                            {(!t.message.is_empty()).then(|| view! { <div class="mono muted">{t.message.clone()}</div> })}
                        </li>
                    }).collect_view()}
                </ul>
            </details>
        }
    });
    let findings = (row.score.is_some() && !row.findings.is_empty()).then(|| {
        view! {
            <ul class="findings small">
                {row.findings.iter().map(|f| view! {
                    <li data-requirement=f.id.clone() data-met=f.met.to_string()>
                        <span class=if f.met { "badge ok" } else { "badge needs_revision" }>{if f.met { "met" } else { "not met" }}</span>
                        " "<strong>{f.id.clone()}</strong>" "<span class="muted">{f.requirement.clone()}</span>
                        <div>{f.evidence.clone()}</div>
                    </li>
                }).collect_view()}
            </ul>
        }
    });
    let actions = (!row.actions.is_empty()).then(|| {
        view! {
            <details class="card-list">
                <summary class="small">{format!("What the player must do ({})", row.actions.len())}</summary>
                <ol class="small">{row.actions.iter().map(|a| view! { <li>{a.clone()}</li> }).collect_view()}</ol>
            </details>
        }
    });
    let person = row
        .person
        .clone()
        .map(|p| view! { <p class="small person-word" data-person="true">{p}</p> });
    let saved = row.saved_feedback.clone().map(|f| {
        view! {
            <p class="small saved-feedback" data-saved-feedback="true">
                <span class="muted">"The coach's feedback, as the saved state keeps it: "</span>{f}
            </p>
        }
    });
    view! {
        <article class="card turn" data-turn=row.turn data-run=row.run.clone()
            data-turn-score=row.score.map(|s| format!("{s:.2}"))>
            <header class="row center">
                <h3>{format!("Turn {}", row.turn)}</h3>
                <span class=format!("badge {badge}")>{word}</span>
                <span class="muted small">{row.run.clone()}</span>
                {row.score.map(|s| view! { <span class="small">{format!("score {s:.2}")}</span> })}
            </header>
            {saved}
            {tests}
            {findings}
            {actions}
            {person}
        </article>
    }
}

/// The files of the chosen turn, or its diff from another turn, with Download.
#[component]
fn Files() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let state = app_state();
    let files = Memo::new(move |_| runner.with(turn_files));
    let count = move || files.get().len();
    // 0 means "the latest turn".
    let shown = RwSignal::new(0usize);
    let against = RwSignal::new(0usize);
    let turn = move || match shown.get() {
        0 => count(),
        n => n.min(count()),
    };
    let options = move |none: &'static str| {
        let numbers: Vec<u32> = files.get().iter().map(|(n, _)| *n).collect();
        std::iter::once(("0".to_string(), none.to_string()))
            .chain(
                numbers
                    .into_iter()
                    .enumerate()
                    .map(|(i, n)| ((i + 1).to_string(), format!("Turn {n}"))),
            )
            .map(|(value, words)| view! { <option value=value>{words}</option> })
            .collect_view()
    };
    let body = move || {
        let all = files.get();
        let t = turn();
        let Some((_, now)) = t.checked_sub(1).and_then(|i| all.get(i)) else {
            return view! { <p class="muted small">"No files yet: the player writes them on its first turn."</p> }.into_any();
        };
        let before = against.get();
        if before == 0 || before == t || before > all.len() {
            return now
                .iter()
                .map(|f| {
                    view! {
                        <details class="file" open=true data-file=f.path.clone()>
                            <summary class="mono small">{f.path.clone()}</summary>
                            <pre class="code"><code>{f.content.clone()}</code></pre>
                        </details>
                    }
                })
                .collect_view()
                .into_any();
        }
        files_diff(&all[before - 1].1, now).into_iter().map(|d| {
            let change = match d.change {
                FileChange::Added => "added",
                FileChange::Removed => "removed",
                FileChange::Changed => "changed",
                FileChange::Same => "unchanged",
            };
            let lines = d.lines.into_iter().map(|l| match l {
                DiffLine::Same(t) => view! { <div class="same">{t}</div> },
                DiffLine::Added(t) => view! { <div class="add">{t}</div> },
                DiffLine::Removed(t) => view! { <div class="del">{t}</div> },
            }).collect_view();
            view! {
                <details class="file" open=d.change != FileChange::Same data-file=d.path.clone() data-change=change>
                    <summary class="mono small">{d.path.clone()}" "<span class="muted">{change}</span></summary>
                    <div class="diff">{lines}</div>
                </details>
            }
        }).collect_view().into_any()
    };
    let download = move |_| {
        let t = turn();
        let all = files.get_untracked();
        let Some((number, now)) = t.checked_sub(1).and_then(|i| all.get(i)) else {
            return;
        };
        let title = runner.with_untracked(Session::title);
        let text = bundle(&title, *number, now);
        let name = format!("{}.turn-{number}.txt", crate::util::file_stem(&title));
        if let Err(e) = crate::util::download(&name, "text/plain", &text) {
            state.error(e);
        }
    };
    view! {
        <section class="card files-panel" aria-labelledby="files-heading">
            <h2 id="files-heading">"Files"</h2>
            <div class="row center">
                <label class="field">
                    <span>"Turn"</span>
                    <select name="files-turn" on:change=move |ev| shown.set(event_target_value(&ev).parse().unwrap_or(0))>
                        {move || options("Latest")}
                    </select>
                </label>
                <label class="field">
                    <span>"Compare with"</span>
                    <select name="files-against" on:change=move |ev| against.set(event_target_value(&ev).parse().unwrap_or(0))>
                        {move || options("Nothing: show the files")}
                    </select>
                </label>
                <button type="button" class="ghost" name="download-turn" disabled=move || count() == 0
                    title="Download this turn's files as one text file" on:click=download>"Download"</button>
            </div>
            {body}
        </section>
    }
}

/// Autocoding's panels.
#[component]
pub fn AutocodingPanels() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let view_memo = Memo::new(move |_| runner.with(autocoding_view));
    let v = move || view_memo.get();
    let running = move || {
        runner.running_code.get().map(|_| {
            let turn = v()
                .and_then(|v| v.turns.last().map(|t| t.turn))
                .unwrap_or(0);
            view! {
                <p class="badge running sandbox-running" role="status" data-running-code="true">
                    {format!("Running turn {turn}'s tests in the sandbox…")}
                </p>
            }
        })
    };
    view! {
        <div class="autocoding">
            <section class="card autocoding-status" aria-labelledby="autocoding-status">
                <h2 id="autocoding-status" data-autocoding-status=move || v().map(|v| v.status)>{move || v().map(|v| v.status)}</h2>
                {running}
                {move || v().map(|v| chart(&v))}
            </section>
            <div class="autocoding-grid">
                <section class="card requirements" aria-labelledby="requirements-heading">
                    <h2 id="requirements-heading">"Requirements"</h2>
                    <ol class="small">
                        {move || v().map(|v| v.requirements.into_iter().map(|r| {
                            let id = r.id.clone();
                            view! { <li data-requirement=id><strong>{r.id}</strong>" "{r.text}</li> }
                        }).collect_view())}
                    </ol>
                </section>
                <section class="turns" aria-label="Turns">
                    {move || v().map(|v| {
                        let threshold = v.threshold;
                        if v.turns.is_empty() {
                            view! { <p class="muted small card">"No turn yet: Run lets the player write the first files."</p> }.into_any()
                        } else {
                            v.turns.into_iter().rev().map(|row| turn_card(row, threshold)).collect_view().into_any()
                        }
                    })}
                </section>
            </div>
            <Files/>
            <div class="autocoding-below">
                <div id="panel-timeline">
                    <crate::pages::session::timeline::Timeline/>
                </div>
                <crate::pages::session::budget::BudgetPanel/>
            </div>
        </div>
    }
}
