//! New meeting: the agenda, the attendees (an orchestrator and the participants, each on a
//! provider and model — the demo model by default) and the turn limits. The meeting's rules are
//! core's: the form builds a [`MeetingConfig`] and shows what [`MeetingConfig::check`] says.

use leptos::prelude::*;
use roundtable_core::engine::{ModelRef, Settings};
use roundtable_core::protocol::meeting::{Attendee, MeetingConfig, MeetingRole, MeetingState};

use crate::pages::form::{
    parse_in, parse_money_budget, sentence, MoneyBudgetField, ProviderModelFields, TextField,
};
use crate::providers::ProviderId;
use crate::sessions;

/// An attendee as the form edits it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DraftAttendee {
    key: u64,
    name: RwSignal<String>,
    role: RwSignal<String>,
    provider: RwSignal<ProviderId>,
    model: RwSignal<String>,
}

/// The participants a new meeting starts with: three views that most agendas need.
const DEFAULT_PARTICIPANTS: [(&str, &str); 3] = [
    ("Ana", "Engineer"),
    ("Bo", "Designer"),
    ("Cy", "Product manager"),
];

/// The new-meeting form.
#[component]
pub fn NewMeetingForm() -> impl IntoView {
    let next_key = StoredValue::new(1u64);
    let agenda = RwSignal::new(String::new());
    let per_phase = RwSignal::new(MeetingConfig::DEFAULT_TURNS_PER_PHASE.to_string());
    let turns = RwSignal::new(MeetingConfig::DEFAULT_MAX_TURNS.to_string());
    let money = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let draft = move |name: &str, role: &str| {
        let key = next_key.get_value();
        next_key.set_value(key + 1);
        DraftAttendee {
            key,
            name: RwSignal::new(name.to_string()),
            role: RwSignal::new(role.to_string()),
            provider: RwSignal::new(ProviderId::Demo),
            model: RwSignal::new(ProviderId::Demo.default_model().to_string()),
        }
    };
    let orchestrator = draft("Orchestrator", "Chairs the meeting");
    let participants = RwSignal::new(
        DEFAULT_PARTICIPANTS
            .iter()
            .map(|(n, r)| draft(n, r))
            .collect::<Vec<_>>(),
    );

    let build = move || -> Result<MeetingConfig, String> {
        let per_phase = parse_in(&per_phase.get_untracked(), "Turns per phase", 1, 20)? as u32;
        let max_rounds = parse_in(&turns.get_untracked(), "Turns in all", 1, 200)? as u32;
        let money_budget = parse_money_budget(&money.get_untracked())?;
        let attendee = |d: &DraftAttendee, id: String, meeting_role| Attendee {
            id,
            name: d.name.get_untracked().trim().to_string(),
            role: d.role.get_untracked().trim().to_string(),
            meeting_role,
            persona: String::new(),
            model: ModelRef {
                provider: d.provider.get_untracked().as_str().to_string(),
                model: d.model.get_untracked().trim().to_string(),
            },
        };
        let mut attendees = vec![attendee(
            &orchestrator,
            "orchestrator".into(),
            MeetingRole::Orchestrator,
        )];
        for d in participants.get_untracked() {
            let taken: Vec<String> = attendees.iter().map(|a| a.id.clone()).collect();
            let id = MeetingConfig::id_for(&d.name.get_untracked(), &taken);
            attendees.push(attendee(&d, id, MeetingRole::Participant));
        }
        if let Some(a) = attendees.iter().find(|a| a.model.model.is_empty()) {
            return Err(format!("Name the model {} runs on.", a.name));
        }
        let config = MeetingConfig {
            agenda: agenda.get_untracked().trim().to_string(),
            attendees,
            max_turns_per_phase: per_phase,
            settings: Settings {
                max_rounds,
                money_budget,
                ..Settings::default()
            },
        };
        config.check().map_err(|e| sentence(&e.to_string()))?;
        Ok(config)
    };

    let create = move || {
        if busy.get_untracked() {
            return;
        }
        match build() {
            Err(e) => error.set(Some(e)),
            Ok(config) => {
                error.set(None);
                sessions::create_and_open::<MeetingState>(config, busy);
            }
        }
    };

    let row = move |d: DraftAttendee, removable: bool| {
        view! {
            <div class="member-row" data-attendee-key=d.key>
                <TextField label="Name" name="attendee-name" value=d.name/>
                <TextField label="Speaks for" name="attendee-role" value=d.role/>
                <ProviderModelFields name="attendee" provider=d.provider model=d.model
                    default_model=Callback::new(|p: ProviderId| p.default_model().to_string())/>
                {removable.then(|| view! {
                    <button type="button" class="ghost danger small" aria-label=move || format!("Remove {}", d.name.get())
                        on:click=move |_| participants.update(|list| list.retain(|x| x.key != d.key))>"Remove"</button>
                })}
            </div>
        }
    };

    view! {
        <form class="stack" data-form="meeting" on:submit=move |ev| { ev.prevent_default(); create(); } novalidate>
            <div class="card">
                <label class="field">
                    <span>"What is the meeting about, and what should it decide?"</span>
                    <textarea name="agenda" rows="4"
                        placeholder="e.g. Choose where to hold the team offsite. Budget £3,000 for 12 people; it must be reachable by train."
                        prop:value=move || agenda.get()
                        on:input=move |ev| agenda.set(event_target_value(&ev))></textarea>
                </label>
                <p class="muted small">"An orchestrator moves the meeting through seven phases — from framing the problem to a decision and a plan — giving each participant the floor in turn, then writes the minutes."</p>
            </div>
            // Create comes right after the agenda, so a keyboard reaches it in one Tab; who
            // attends and the limits follow, for those who want to change them.
            <div class="field-error" role="alert" data-error="meeting">{move || error.get()}</div>
            <div class="row end form-actions">
                <button type="submit" name="create-meeting" disabled=move || busy.get()>"Create meeting"</button>
                <a class="button ghost" href="#/">"Cancel"</a>
            </div>
            <h2 class="form-more">"Attendees and limits "<span class="muted small">"(optional: the defaults run on the demo model)"</span></h2>
            <div class="card">
                <h2>"Orchestrator"</h2>
                {row(orchestrator, false)}
                <h2>"Participants"</h2>
                <div class="members" role="group" aria-label="Participants">
                    <For each=move || participants.get() key=|d| d.key let:d>
                        {row(d, true)}
                    </For>
                </div>
                <div class="row">
                    <button type="button" class="ghost" on:click=move |_| {
                        let n = participants.get_untracked().len() + 1;
                        participants.update(|list| list.push(draft(&format!("Participant {n}"), "")));
                    }>"+ Add participant"</button>
                </div>
            </div>
            <div class="card">
                <h2>"Limits"</h2>
                <div class="limits">
                    <label class="field">
                        <span>"Speaking turns per phase (1–20)"</span>
                        <input type="number" name="turns-per-phase" min="1" max="20" prop:value=move || per_phase.get()
                            on:input=move |ev| per_phase.set(event_target_value(&ev))/>
                    </label>
                    <label class="field">
                        <span>"Turns in all (1–200)"</span>
                        <input type="number" name="max-turns" min="1" max="200" prop:value=move || turns.get()
                            on:input=move |ev| turns.set(event_target_value(&ev))/>
                    </label>
                    <MoneyBudgetField value=money invalid=Signal::derive(move || error.get().is_some_and(|e| e.contains("money budget")))/>
                </div>
            </div>
        </form>
    }
}
