//! What each attendee sees at each step of a meeting ([`MeetingEnvelope`]), the prompt rendered
//! from it, the repair prompt, and the minutes as Markdown.
//!
//! The answer examples in the prompts are values of the answer types, serialised, so they are
//! valid by construction and name this meeting's real attendees.

use roundtable_engine::order::Collect as _;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::answer::{limits, ActionItem, Contribution, Decision, DecisionWire, Minutes, Phase};
use super::{MeetingRole, MeetingState, MeetingStep, Turn, PERSON};
use roundtable_engine::engine::{ChatRole, Findings, Message, Protocol as _};
use roundtable_engine::text::one_line;

/// The most characters of transcript a prompt carries (≈ 6k tokens): whole contributions of the
/// phases that matter to this step, older phases in short (each contribution's opening whole
/// sentences), and — only past this — the oldest summaries left out, counted.
pub const TRANSCRIPT_BUDGET: usize = 24_000;

/// How much of a contribution an older phase's summary keeps: whole sentences up to this many
/// characters (at least the first sentence, cut at a word when it alone is longer).
const SUMMARY_MAX: usize = 280;

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
    let step = s
        .core
        .step
        .map_or(MeetingStep::Decide, MeetingState::step_of);
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

/// The decision the example shows: the one the state calls for (the floor while the phase has
/// turns and someone has not spoken, else the next phase, else the end), so the example is a
/// valid decision as it stands.
fn example_decision(env: &MeetingEnvelope) -> Decision {
    let ids = participants(env);
    let waiting = ids
        .iter()
        .find(|p| !env.spoken_in_phase.iter().any(|s| s == *p));
    let used = env.spoken_in_phase.len() as u32 >= env.max_turns_per_phase;
    match (waiting, used, env.phase.next()) {
        (Some(p), false, _) => Decision::Continue {
            next_agent_id: (*p).to_string(),
            rationale: "They have not spoken in this phase yet and own the topic at hand.".into(),
        },
        (_, _, Some(next)) => Decision::ChangePhase {
            new_phase: next,
            rationale: "Everyone has spoken to this phase's purpose; the next one can start."
                .into(),
        },
        (_, _, None) => Decision::EndMeeting {
            end_reason: "The options were weighed, one was chosen, and every task has an owner."
                .into(),
            rationale: "The recap is done and nobody raised anything new.".into(),
        },
    }
}

fn decide_system(env: &MeetingEnvelope) -> String {
    let ids = participants(env);
    let phases: Vec<&str> = Phase::ALL.iter().map(|p| p.name()).collect();
    format!(
        "You are {name} ({id}), the orchestrator of a meeting. You do not argue a position: you \
decide who speaks next, when the meeting moves to its next phase, and when it ends.\n\n\
The meeting goes through seven phases, forward and one at a time: {phases}.\n\n\
Answer with one JSON object and nothing else:\n\
- \"decision\": \"continue\", \"change_phase\" or \"end_meeting\";\n\
- \"next_agent_id\": with \"continue\", the attendee who speaks next: {ids} — only while the \
phase has speaking turns left;\n\
- \"new_phase\": with \"change_phase\", the next phase only, written exactly as in the list \
above (the meeting moves on once the phase's purpose is met or its turns are used);\n\
- \"end_reason\": with \"end_meeting\", why the meeting can end, in a sentence the person \
reads — only in ExecutionPlanning or Conclusion;\n\
- \"rationale\": always, the reasoning behind the decision (at most {max} characters).\n\
A decision that breaks one of these rules is not used: a fixed rule decides in its place (the \
next participant in turn, or the next phase), and the transcript says so.\n\n\
Example:\n{example}",
        name = env.me.name,
        id = env.me.id,
        phases = phases.join(", "),
        ids = ids.join(", "),
        max = limits::RATIONALE_MAX,
        example = json(&DecisionWire::from(&example_decision(env))),
    )
}

fn decide_user(env: &MeetingEnvelope) -> String {
    let mut out = common_context(env);
    let used = env.spoken_in_phase.len() as u32;
    let turns_left = env.max_rounds.saturating_sub(env.round);
    let _ = writeln!(out, "# Where the meeting stands");
    let next = env
        .phase
        .next()
        .map_or("none: this is the last phase".to_string(), |n| {
            n.name().to_string()
        });
    let _ = writeln!(
        out,
        "Phase: {} ({} of 7) — {}. Next phase: {next}.",
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
        // The last phase has no next one: its only way on is the end.
        let options = match (
            env.phase.next().is_some(),
            super::MeetingState::may_end_in(env.phase),
        ) {
            (true, true) => "\"change_phase\" or \"end_meeting\"",
            (true, false) => "\"change_phase\"",
            (false, _) => "\"end_meeting\"",
        };
        let _ = writeln!(out, "This phase has used its turns: decide {options}.");
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
        "You are {name} ({id}), {role}, attending a meeting; the transcript names you \
**{id}**.\n\n{persona}\
Speak for yourself, from your role. Be concrete and brief; build on what was said instead of \
repeating it, and disagree when you see a problem.\n\n\
Answer with one JSON object and nothing else: \"contribution\" is what you say, in Markdown — one \
to four short paragraphs or a short list ({min}–{max} characters).\n\nExample:\n{example}",
        name = env.me.name,
        id = env.me.id,
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
    out.push_str(&transcript_text(env));
    out.push('\n');
    out
}

/// The transcript within [`TRANSCRIPT_BUDGET`], keeping whole contributions: everything in full
/// while it fits. Past the budget, whole phases are put in short (each contribution's opening
/// whole sentences): first those far behind, then the phase before this one and — for the
/// minutes and from the Decision phase on — the phases where options, evaluations and decisions
/// were put; never the current one. Past that, the oldest entries are left out, counted.
fn transcript_text(env: &MeetingEnvelope) -> String {
    // The decision that gave this speaker the floor is said once, in its own section with its
    // reason ("Your turn"), not again as the transcript's last line.
    let shown = match (env.step, env.transcript.last()) {
        (MeetingStep::Speak, Some(Turn::Decision { .. })) => {
            &env.transcript[..env.transcript.len() - 1]
        }
        _ => &env.transcript[..],
    };
    // The phase each entry belongs to: a contribution's own; a decision's is the phase it was
    // taken in (a phase change opens the phase it moves to); a remark, the phase around it.
    let mut phase = Phase::Initialization;
    let phase_of: Vec<Phase> = shown
        .iter()
        .map(|t| {
            match t {
                Turn::Contribution { phase: p, .. } | Turn::Decision { phase: p, .. } => {
                    phase = *p;
                }
                Turn::Remark { .. } => {}
            }
            phase
        })
        .collect();
    // Everything whole while it fits. Past the budget, phases are put in short in this order:
    // those far behind that hold no option, oldest first; then the phase before this one and
    // (where the options matter) the options' own phases, in that order; never the current one.
    let mut whole: BTreeSet<Phase> = phase_of.iter().copied().to_set();
    whole.insert(env.phase);
    let previous = Phase::ALL
        .iter()
        .position(|p| *p == env.phase)
        .and_then(|i| i.checked_sub(1))
        .map(|i| Phase::ALL[i]);
    let key = [Phase::OptionGeneration, Phase::Evaluation, Phase::Decision];
    let needs_options = env.step == MeetingStep::Minutes || env.phase >= Phase::Decision;
    let kept_long = |p: &Phase| Some(*p) == previous || (needs_options && key.contains(p));
    let mut text = render_transcript(shown, &phase_of, &whole, 0);
    while text.chars().count() > TRANSCRIPT_BUDGET {
        let demotable = |p: &Phase| *p != env.phase;
        let options = |p: &Phase| needs_options && key.contains(p);
        let far = whole
            .iter()
            .copied()
            .find(|p| demotable(p) && !kept_long(p));
        let before = || whole.iter().copied().find(|p| demotable(p) && !options(p));
        let Some(oldest) = far
            .or_else(before)
            .or_else(|| whole.iter().copied().find(demotable))
        else {
            break;
        };
        whole.remove(&oldest);
        text = render_transcript(shown, &phase_of, &whole, 0);
    }
    // Still over: leave out the oldest entries, counted.
    let mut skip = 0;
    while text.chars().count() > TRANSCRIPT_BUDGET && skip < shown.len() {
        skip += (shown.len() / 20).max(1);
        text = render_transcript(shown, &phase_of, &whole, skip.min(shown.len()));
    }
    text
}

/// The transcript from entry `skip` on: phases in `whole` entry by entry, the others in short.
fn render_transcript(
    shown: &[Turn],
    phase_of: &[Phase],
    whole: &BTreeSet<Phase>,
    skip: usize,
) -> String {
    let mut out = String::new();
    if skip > 0 {
        let left: usize = shown[..skip]
            .iter()
            .filter(|t| matches!(t, Turn::Contribution { .. }))
            .count();
        let _ = writeln!(
            out,
            "\n_[… {left} earlier contributions are left out: the transcript is too long for one prompt.]_"
        );
    }
    for (turn, phase) in shown.iter().zip(phase_of).skip(skip) {
        let full = whole.contains(phase);
        match turn {
            Turn::Contribution {
                speaker,
                text,
                phase,
                ..
            } => {
                if full {
                    let _ = writeln!(out, "\n**{speaker}** ({}):\n{}", phase.name(), text.trim());
                } else {
                    let _ = writeln!(
                        out,
                        "\n**{speaker}** ({}, in short):\n{}",
                        phase.name(),
                        opening(text)
                    );
                }
            }
            Turn::Decision {
                decision,
                fell_back,
                refused,
                ..
            } => {
                // In a phase shown in short, who got the floor is already in the speakers'
                // names; the phase changes and the end stay.
                if !full && matches!(decision, Decision::Continue { .. }) {
                    continue;
                }
                let what = decision_words(decision);
                match (fell_back, refused) {
                    (true, Some(why)) => {
                        let _ = writeln!(
                            out,
                            "\n_The fallback rule {what} (the orchestrator's decision was not used: {})._",
                            one_line(why, 200)
                        );
                    }
                    (true, None) => {
                        let _ = writeln!(
                            out,
                            "\n_The fallback rule {what} (the orchestrator's decision was not used)._"
                        );
                    }
                    _ => {
                        let _ = writeln!(out, "\n_Orchestrator {what}._");
                    }
                }
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
    out
}

/// A decision in the words of the prompts, phases in their wire spelling (the one the
/// orchestrator must write).
fn decision_words(decision: &Decision) -> String {
    match decision {
        Decision::ChangePhase { new_phase, .. } => {
            format!("moved the meeting to {}", new_phase.name())
        }
        other => other.describe(),
    }
}

/// A contribution in short: its opening whole sentences (a list item counts as one), up to
/// [`SUMMARY_MAX`] characters on one line, then how much was left out. Never cut mid-word: a
/// first sentence longer than that is cut at a word, marked.
fn opening(text: &str) -> String {
    let mut units: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut rest = line.as_str();
        while !rest.is_empty() {
            let end = rest
                .char_indices()
                .find(|(i, c)| {
                    matches!(c, '.' | '!' | '?') && rest[i + c.len_utf8()..].starts_with(' ')
                })
                .map_or(rest.len(), |(i, c)| i + c.len_utf8());
            units.push(rest[..end].trim().to_string());
            rest = rest[end..].trim_start();
        }
    }
    let total: usize = units.iter().map(|u| u.chars().count() + 1).sum::<usize>();
    let mut out = String::new();
    let mut count = 0;
    for u in &units {
        let n = u.chars().count() + usize::from(count > 0);
        if count > 0 && count + n > SUMMARY_MAX {
            break;
        }
        if count == 0 && n > SUMMARY_MAX {
            return one_line(&units.join(" "), SUMMARY_MAX + 20);
        }
        if count > 0 {
            out.push(' ');
        }
        out.push_str(u);
        count += n;
    }
    let left = total.saturating_sub(count + 1);
    if left > 0 {
        let _ = write!(out, " [… {left} more characters]");
    }
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
    roundtable_engine::validate::repair_prompt(what, &findings.errors)
}

/// The minutes as Markdown: the summary, decisions, action items and open questions, then — for
/// the exported report, `with_transcript` — every turn of the meeting.
pub fn minutes_markdown(s: &MeetingState, with_transcript: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Minutes: {}\n",
        roundtable_engine::text::title_of(&s.agenda)
    );
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
    // People by name: the minutes are read by people, never by the ids the prompts use.
    let name = |id: &str| {
        s.attendee(id)
            .map_or_else(|| id.to_string(), |a| a.name.clone())
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
                    s.decision_words(decision),
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
