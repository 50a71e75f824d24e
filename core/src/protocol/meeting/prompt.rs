//! What each attendee sees at each step of a meeting ([`MeetingEnvelope`]), the prompt rendered
//! from it, the repair prompt, and the minutes as Markdown.
//!
//! The answer examples in the prompts are values of the answer types, serialised, so they are
//! valid by construction and name this meeting's real attendees.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::answer::{limits, ActionItem, Contribution, Decision, DecisionWire, Minutes, Phase};
use super::{MeetingRole, MeetingState, MeetingStep, Turn, PERSON};
use crate::engine::{ChatRole, Findings, Message};
use crate::text::{cut, one_line};

/// How many transcript entries a prompt carries in full; older ones are one line each.
const RECENT_FULL: usize = 16;

/// The longest a contribution is quoted in a prompt.
const QUOTE_MAX: usize = 1200;

/// One attendee as the prompts list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttendeeView {
    /// Id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// What it speaks for.
    pub role: String,
    /// True for the orchestrator.
    pub orchestrator: bool,
}

/// Everything one attendee sees at one step: the input of the prompt and of the demo model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeetingEnvelope {
    /// The step.
    pub step: MeetingStep,
    /// The round (turn number).
    pub round: u32,
    /// The turn limit of the meeting.
    pub max_rounds: u32,
    /// The agenda.
    pub agenda: String,
    /// Who this call is for.
    pub me: AttendeeView,
    /// The persona of this attendee.
    pub persona: String,
    /// Every attendee.
    pub attendees: Vec<AttendeeView>,
    /// The current phase.
    pub phase: Phase,
    /// Who spoke in this phase, in order.
    pub spoken_in_phase: Vec<String>,
    /// Speaking turns a phase may take.
    pub max_turns_per_phase: u32,
    /// The transcript so far.
    pub transcript: Vec<Turn>,
    /// Speak: why the orchestrator gave this attendee the floor.
    pub floor_rationale: Option<String>,
    /// Minutes: why the meeting ended.
    pub end_reason: Option<String>,
}

/// Builds the envelope of `member` at the current step.
pub fn envelope(s: &MeetingState, member: &str) -> MeetingEnvelope {
    let view = |a: &super::Attendee| AttendeeView {
        id: a.id.clone(),
        name: a.name.clone(),
        role: a.role.clone(),
        orchestrator: a.meeting_role == MeetingRole::Orchestrator,
    };
    let me = s.attendee(member);
    let step = s.core.step.unwrap_or(MeetingStep::Decide);
    MeetingEnvelope {
        step,
        round: s.core.round,
        max_rounds: s.core.settings.max_rounds,
        agenda: s.agenda.clone(),
        me: me.map(view).unwrap_or(AttendeeView {
            id: member.into(),
            name: member.into(),
            role: String::new(),
            orchestrator: false,
        }),
        persona: me.map(|a| a.persona.clone()).unwrap_or_default(),
        attendees: s.attendees.iter().map(view).collect(),
        phase: s.phase,
        spoken_in_phase: s.spoken.clone(),
        max_turns_per_phase: s.max_turns_per_phase,
        transcript: s.transcript.clone(),
        floor_rationale: s
            .floor
            .as_ref()
            .filter(|(who, _)| who == member)
            .map(|(_, why)| why.clone()),
        end_reason: s.ended.clone().or_else(|| {
            s.core
                .rounds_ended
                .then(|| "The person wrapped the meeting up.".to_string())
        }),
    }
}

/// The first messages of a step: system, then user.
pub fn messages(env: &MeetingEnvelope) -> Vec<Message> {
    let (system, user) = match env.step {
        MeetingStep::Decide => (decide_system(env), decide_user(env)),
        MeetingStep::Speak => (speak_system(env), speak_user(env)),
        MeetingStep::Minutes => (minutes_system(env), minutes_user(env)),
    };
    vec![
        Message::new(ChatRole::System, system),
        Message::new(ChatRole::User, user),
    ]
}

/// The participants' ids (everyone but the orchestrator), in attendee order.
pub(super) fn participants(env: &MeetingEnvelope) -> Vec<&str> {
    env.attendees
        .iter()
        .filter(|a| !a.orchestrator)
        .map(|a| a.id.as_str())
        .collect()
}

fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn decide_system(env: &MeetingEnvelope) -> String {
    let ids = participants(env);
    let phases: Vec<&str> = Phase::ALL.iter().map(|p| p.name()).collect();
    let example = Decision::Continue {
        next_agent_id: ids.first().copied().unwrap_or("participant").to_string(),
        rationale: "They have not spoken in this phase yet and own the topic at hand.".into(),
    };
    format!(
        "You are {name}, the orchestrator of a meeting. You do not argue a position: you decide who \
speaks next, when the meeting moves to its next phase, and when it ends.\n\n\
The meeting goes through seven phases in this order: {phases}.\n\n\
Answer with one JSON object and nothing else:\n\
- \"decision\": \"continue\", \"change_phase\" or \"end_meeting\";\n\
- \"next_agent_id\": with \"continue\", the attendee who speaks next: {ids};\n\
- \"new_phase\": with \"change_phase\", the phase to move to, spelled exactly as above;\n\
- \"end_reason\": with \"end_meeting\", why the meeting can end;\n\
- \"rationale\": always, the reasoning behind the decision (at most {max} characters).\n\n\
Example:\n{example}",
        name = env.me.name,
        phases = phases.join(", "),
        ids = ids.join(", "),
        max = limits::RATIONALE_MAX,
        example = json(&DecisionWire::from(&example)),
    )
}

fn decide_user(env: &MeetingEnvelope) -> String {
    let mut out = common_context(env);
    let used = env.spoken_in_phase.len() as u32;
    let turns_left = env.max_rounds.saturating_sub(env.round);
    let _ = writeln!(out, "# Where the meeting stands");
    let _ = writeln!(
        out,
        "Phase: {} ({} of 7) — {}.",
        env.phase.name(),
        Phase::ALL.iter().position(|p| *p == env.phase).unwrap_or(0) + 1,
        env.phase.purpose()
    );
    let spoken = if env.spoken_in_phase.is_empty() {
        "nobody yet".to_string()
    } else {
        env.spoken_in_phase.join(", ")
    };
    let _ = writeln!(
        out,
        "Spoken in this phase: {spoken} ({used} of {} turns).",
        env.max_turns_per_phase
    );
    if used >= env.max_turns_per_phase {
        let _ = writeln!(
            out,
            "This phase has used its turns: decide \"change_phase\" or \"end_meeting\"."
        );
    }
    let _ = writeln!(
        out,
        "Turns left in the meeting after this one: {turns_left}."
    );
    out.push_str("\nDecide what happens next.");
    out
}

fn speak_system(env: &MeetingEnvelope) -> String {
    let example = Contribution {
        contribution: "I would start from the constraint we agreed on: …".into(),
    };
    let persona = if env.persona.trim().is_empty() {
        String::new()
    } else {
        format!("{}\n\n", env.persona.trim())
    };
    format!(
        "You are {name}, {role}, attending a meeting.\n\n{persona}\
Speak for yourself, from your role. Be concrete and brief; build on what was said instead of \
repeating it, and disagree when you see a problem.\n\n\
Answer with one JSON object and nothing else: \"contribution\" is what you say, in Markdown — one \
to four short paragraphs or a short list ({min}–{max} characters).\n\nExample:\n{example}",
        name = env.me.name,
        role = env.me.role,
        min = limits::CONTRIBUTION_MIN,
        max = limits::CONTRIBUTION_MAX,
        example = json(&example),
    )
}

fn speak_user(env: &MeetingEnvelope) -> String {
    let mut out = common_context(env);
    let _ = writeln!(
        out,
        "# Your turn\nThe meeting is in {}: {}.",
        env.phase.name(),
        env.phase.purpose()
    );
    if let Some(why) = &env.floor_rationale {
        let _ = writeln!(
            out,
            "The orchestrator gives you the floor: {}",
            one_line(why, 400)
        );
    }
    out
}

fn minutes_system(env: &MeetingEnvelope) -> String {
    let example = Minutes {
        summary: "The meeting compared two options and chose the first.".into(),
        decisions: vec!["Go with the first option.".into()],
        action_items: vec![ActionItem {
            owner: participants(env)
                .first()
                .copied()
                .unwrap_or(PERSON)
                .to_string(),
            task: "Draft the plan.".into(),
            due: Some("by Friday".into()),
        }],
        open_questions: vec!["Who signs off on the budget?".into()],
    };
    let mut owners: Vec<&str> = env.attendees.iter().map(|a| a.id.as_str()).collect();
    owners.push(PERSON);
    format!(
        "You are {name}, the orchestrator of a meeting that has ended. Write its minutes from the \
transcript: only what was said, nothing new.\n\n\
Answer with one JSON object and nothing else:\n\
- \"summary\": what the meeting was about and how it went, two to four sentences;\n\
- \"decisions\": what was decided, one string each (at most {list});\n\
- \"action_items\": who does what — \"owner\" (one of: {owners}; {person} is the person who called \
the meeting), \"task\", and \"due\" if a date was said (at most {actions});\n\
- \"open_questions\": what is still open, one string each (at most {list}).\n\
Use empty lists where there is nothing.\n\nExample:\n{example}",
        name = env.me.name,
        list = limits::LIST_MAX,
        actions = limits::ACTIONS_MAX,
        owners = owners.join(", "),
        person = PERSON,
        example = json(&example),
    )
}

fn minutes_user(env: &MeetingEnvelope) -> String {
    let mut out = common_context(env);
    if let Some(why) = &env.end_reason {
        let _ = writeln!(out, "# How it ended\n{}\n", one_line(why, 400));
    }
    out.push_str("Write the minutes.");
    out
}

/// The agenda, the attendees and the transcript: what every step's prompt starts with.
fn common_context(env: &MeetingEnvelope) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Agenda\n{}\n", env.agenda.trim());
    let _ = writeln!(out, "# Attendees");
    for a in &env.attendees {
        let tag = if a.orchestrator { ", orchestrator" } else { "" };
        let _ = writeln!(out, "- {} — {} ({}{tag})", a.id, a.name, a.role);
    }
    out.push('\n');
    if env.transcript.is_empty() {
        let _ = writeln!(out, "# Transcript\nNothing has been said yet.\n");
        return out;
    }
    let _ = writeln!(out, "# Transcript");
    // The decision that gave this speaker the floor is said once, in its own section with its
    // reason ("Your turn"), not again as the transcript's last line.
    let shown = match (env.step, env.transcript.last()) {
        (MeetingStep::Speak, Some(Turn::Decision { .. })) => {
            &env.transcript[..env.transcript.len() - 1]
        }
        _ => &env.transcript[..],
    };
    let older = shown.len().saturating_sub(RECENT_FULL);
    for (i, turn) in shown.iter().enumerate() {
        let full = i >= older;
        match turn {
            Turn::Contribution {
                speaker,
                text,
                phase,
                ..
            } => {
                let body = if full {
                    cut(text.trim(), QUOTE_MAX)
                } else {
                    one_line(text, 160)
                };
                let _ = writeln!(out, "\n**{speaker}** ({}):\n{body}", phase.name());
            }
            Turn::Decision { decision, .. } => {
                let _ = writeln!(out, "\n_Orchestrator {}._", decision.describe());
            }
            Turn::Remark { text, .. } => {
                let _ = writeln!(
                    out,
                    "\n**The person ({PERSON})** remarks: {}",
                    one_line(text, 600)
                );
            }
        }
    }
    out.push('\n');
    out
}

/// The message that sends an invalid contribution or minutes back (a decision is never repaired:
/// the fallback rule decides instead). Worded like every repair prompt.
pub fn repair(step: MeetingStep, findings: &Findings) -> String {
    let what = match step {
        MeetingStep::Decide => "your decision",
        MeetingStep::Speak => "your turn to speak",
        MeetingStep::Minutes => "the minutes",
    };
    crate::validate::repair_prompt(what, &findings.errors)
}

/// The minutes as Markdown: the summary, decisions, action items and open questions, then — for
/// the exported report, `with_transcript` — every turn of the meeting.
pub fn minutes_markdown(s: &MeetingState, with_transcript: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Minutes: {}\n", crate::text::title_of(&s.agenda));
    let _ = writeln!(out, "> {}\n", s.agenda.trim().replace('\n', "\n> "));
    let _ = writeln!(
        out,
        "**Attendees.** {}\n",
        s.attendees
            .iter()
            .map(|a| format!("{} ({})", a.name, a.role))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let name = |id: &str| {
        s.attendee(id)
            .map_or_else(|| id.to_string(), |a| format!("{} ({id})", a.name))
    };
    match &s.minutes {
        Some(m) => {
            let _ = writeln!(out, "## Summary\n\n{}\n", m.summary.trim());
            let list = |out: &mut String, title: &str, items: &[String]| {
                let _ = writeln!(out, "## {title}\n");
                if items.is_empty() {
                    let _ = writeln!(out, "_None._\n");
                } else {
                    for i in items {
                        let _ = writeln!(out, "- {}", one_line(i, 600));
                    }
                    out.push('\n');
                }
            };
            list(&mut out, "Decisions", &m.decisions);
            let _ = writeln!(out, "## Action items\n");
            if m.action_items.is_empty() {
                let _ = writeln!(out, "_None._\n");
            } else {
                for a in &m.action_items {
                    let due = a
                        .due
                        .as_deref()
                        .map(|d| format!(" — {d}"))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "- **{}**: {}{due}",
                        name(&a.owner),
                        one_line(&a.task, 300)
                    );
                }
                out.push('\n');
            }
            list(&mut out, "Open questions", &m.open_questions);
        }
        None => {
            let _ = writeln!(out, "_No minutes yet._\n");
        }
    }
    if !with_transcript {
        return out;
    }
    let _ = writeln!(out, "## Transcript\n");
    for turn in &s.transcript {
        match turn {
            Turn::Contribution {
                speaker,
                text,
                phase,
                ..
            } => {
                let _ = writeln!(
                    out,
                    "**{}**, {}:\n\n{}\n",
                    name(speaker),
                    phase.title(),
                    text.trim()
                );
            }
            Turn::Decision {
                decision,
                fell_back,
                ..
            } => {
                let by = if *fell_back {
                    "Fallback rule"
                } else {
                    "Orchestrator"
                };
                let _ = writeln!(
                    out,
                    "_{by}: {} — {}_\n",
                    decision.describe(),
                    one_line(decision.rationale(), 300)
                );
            }
            Turn::Remark { text, .. } => {
                let _ = writeln!(out, "**The person**: {}\n", one_line(text, 600));
            }
        }
    }
    out
}
