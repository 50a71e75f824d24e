//! The built-in demo model's side of a meeting: it reads the call's envelope and answers as
//! attendees would — from their roles, about the agenda, building on what was said — and as an
//! orchestrator that now and then sends an invalid decision, so the fallback rule runs in every
//! demo. Seeded by the agenda and the call id: the same meeting plays the same way again.

use super::answer::{ActionItem, Contribution, Decision, DecisionWire, Minutes, Phase};
use super::prompt::{participants, MeetingEnvelope};
use super::{MeetingState, MeetingStep, Turn};
use crate::demo::rng::{fnv1a, mix, SplitMix64};
use crate::engine::{estimate_tokens, DemoReply, StoredCall};
use crate::text::{one_line, title_of};

/// Options the attendees put on the table: `{thing}` is what the agenda is about, `{fact}` its
/// first stated figure or constraint (see [`options`]).
const OPTIONS: [&str; 6] = [
    "a small first version of {thing} we can try within two weeks, then extend",
    "a phased plan for {thing}: the must-haves first, the rest once the first phase holds",
    "the simplest option for {thing} that keeps to {fact}, and nothing more",
    "a pilot of {thing} with a small group before committing everyone",
    "splitting {thing} so two people own it end to end, keeping to {fact}",
    "the cheapest workable option for {thing}, improved once it has been tried",
];

/// What the meeting is about: the agenda's title up to its first full stop ("Choose a venue
/// for the village book swap" of "Choose a venue for the village book swap. 40 people, £50").
fn agenda_topic(env: &MeetingEnvelope) -> String {
    let title = title_of(&env.agenda);
    let first = title
        .split_once(". ")
        .map_or(title.as_str(), |(head, _)| head)
        .trim()
        .trim_end_matches(['.', '!', '?', '…']);
    first.to_string()
}

/// The options of this agenda, in [`OPTIONS`]' order: each names what the meeting is about and,
/// where it says so, the agenda's own figure.
fn options(env: &MeetingEnvelope) -> Vec<String> {
    let thing = agenda_thing(&agenda_topic(env));
    let fact = crate::demo::facts::figures(&env.agenda)
        .into_iter()
        .next()
        .unwrap_or_else(|| "what we agreed".into());
    OPTIONS
        .iter()
        .map(|o| o.replace("{thing}", &thing).replace("{fact}", &fact))
        .collect()
}

/// What an agenda title is about, as a noun phrase: "Pick a venue for the book swap" gives "the
/// venue for the book swap", "Choose a backend for the app" "the backend for the app".
fn agenda_thing(title: &str) -> String {
    let words: Vec<&str> = title.split_whitespace().collect();
    let verbs = [
        "pick", "choose", "decide", "agree", "plan", "find", "select", "settle", "review", "set",
        "fix", "discuss", "on", "how", "to", "what", "which",
    ];
    let start = words
        .iter()
        .position(|w| !verbs.contains(&w.to_lowercase().as_str()))
        .unwrap_or(0);
    let rest = &words[start..];
    let text = match rest.first() {
        Some(a) if ["a", "an"].contains(&a.to_lowercase().as_str()) => {
            format!("the {}", rest[1..].join(" "))
        }
        _ => rest.join(" "),
    };
    let text = one_line(&text, 80);
    if text.is_empty() {
        "this".into()
    } else {
        text
    }
}

/// The demo model's answer to one meeting call.
/// `model` is the demo variant the attendee runs on ([`crate::demo::VARIANTS`]).
pub fn answer(call: &StoredCall<MeetingState>, env: &MeetingEnvelope, model: &str) -> DemoReply {
    let seed = crate::demo::variant_seed(fnv1a(env.agenda.as_bytes()), model);
    let mut rng = SplitMix64::new(mix(seed, &[&call.id]));
    let text = match env.step {
        MeetingStep::Decide => decide(env, &mut rng, call.kind == crate::engine::CallKind::Initial),
        MeetingStep::Speak => serde_json::to_string_pretty(&Contribution {
            contribution: speak(env, &mut rng),
        })
        .unwrap_or_default(),
        MeetingStep::Minutes => serde_json::to_string_pretty(&minutes(env)).unwrap_or_default(),
    };
    DemoReply {
        completion_tokens: estimate_tokens(&text),
        prompt_tokens: call.token_estimate,
        finish_reason: "stop".into(),
        text,
    }
}

fn name_of<'a>(env: &'a MeetingEnvelope, id: &'a str) -> &'a str {
    env.attendees
        .iter()
        .find(|a| a.id == id)
        .map_or(id, |a| a.name.as_str())
}

/// The orchestrator: the next participant who has not spoken in this phase, the next phase once
/// all have (or the phase's turns are used), the end after Conclusion. Every so often it makes a
/// mistake 001 refuses (an unknown attendee, a misspelt phase, no rationale).
fn decide(env: &MeetingEnvelope, rng: &mut SplitMix64, first_try: bool) -> String {
    let ids = participants(env);
    let all_spoke = ids
        .iter()
        .all(|p| env.spoken_in_phase.iter().any(|s| s == p));
    let full = env.spoken_in_phase.len() as u32 >= env.max_turns_per_phase;
    let decision = if all_spoke || full {
        match env.phase.next() {
            Some(next) => Decision::ChangePhase {
                new_phase: next,
                rationale: format!(
                    "Everyone has had their say on {}; time to {}.",
                    env.phase.title().to_lowercase(),
                    next.purpose()
                ),
            },
            None => Decision::EndMeeting {
                end_reason: "We have a decision and owners for every task.".into(),
                rationale: "The recap is done and nobody raised anything new.".into(),
            },
        }
    } else {
        let next = ids
            .iter()
            .find(|p| !env.spoken_in_phase.iter().any(|s| s == *p))
            .copied()
            .unwrap_or(ids[0]);
        Decision::Continue {
            next_agent_id: next.to_string(),
            rationale: format!(
                "{} has not spoken in {} yet and sees it from the {} side.",
                name_of(env, next),
                env.phase.title().to_lowercase(),
                role_of(env, next).to_lowercase()
            ),
        }
    };
    let mut wire = serde_json::to_value(DecisionWire::from(&decision)).unwrap_or_default();
    if first_try && (env.round == 3 || rng.chance(1, 8)) {
        match rng.below(3) {
            0 if wire.get("next_agent_id").is_some() => {
                wire["next_agent_id"] = "facilitator".into();
            }
            1 if wire.get("new_phase").is_some() => wire["new_phase"] = "Brainstorming".into(),
            _ => {
                if let Some(o) = wire.as_object_mut() {
                    o.remove("rationale");
                }
            }
        }
    }
    serde_json::to_string_pretty(&wire).unwrap_or_default()
}

fn role_of<'a>(env: &'a MeetingEnvelope, id: &str) -> &'a str {
    env.attendees
        .iter()
        .find(|a| a.id == id)
        .map_or("", |a| a.role.as_str())
}

/// Sentences of the agenda after its first line that state a fact (a number, a date, a must).
fn facts(agenda: &str) -> Vec<String> {
    let body: String = agenda.lines().skip(1).collect::<Vec<_>>().join(" ");
    let text = if body.trim().is_empty() {
        agenda
    } else {
        body.as_str()
    };
    text.split(['.', ';', '\n'])
        .map(str::trim)
        .filter(|s| s.len() > 8)
        .filter(|s| {
            let l = s.to_lowercase();
            s.chars().any(|c| c.is_ascii_digit())
                || [
                    "must", "need", "budget", "deadline", "by ", "only", "no more", "at most",
                ]
                .iter()
                .any(|w| l.contains(w))
        })
        .map(|s| one_line(s, 140))
        .collect()
}

/// The point the last other speaker made: its first sentence, without the "Building on …" lead.
fn last_point(env: &MeetingEnvelope) -> Option<(&str, String)> {
    env.transcript.iter().rev().find_map(|t| match t {
        Turn::Contribution { speaker, text, .. } if *speaker != env.me.id => {
            let own = text
                .split_once("): ")
                .map_or(text.as_str(), |(_, rest)| rest);
            let first = own.split(['.', '\n']).next().unwrap_or(own);
            Some((speaker.as_str(), one_line(first.trim_matches('*'), 90)))
        }
        _ => None,
    })
}

/// What the person said to the meeting, oldest first, each whole.
fn remarks(env: &MeetingEnvelope) -> Vec<&str> {
    env.transcript
        .iter()
        .filter_map(|t| match t {
            Turn::Remark { text, .. } => Some(text.trim()),
            _ => None,
        })
        .filter(|t| !t.is_empty())
        .collect()
}

/// A text in quotes, whole, or cut at a word with an ellipsis (never mid-word).
fn quoted(text: &str) -> String {
    let t = text.trim().trim_end_matches('.');
    if t.chars().count() <= 240 {
        return format!("“{t}”");
    }
    format!("“{}…”", crate::demo::topics::cut_at_word(t, 239))
}

/// The person's remark made since `env.me` last spoke, if any: the speaker answers it first.
fn fresh_remark(env: &MeetingEnvelope) -> Option<&str> {
    for t in env.transcript.iter().rev() {
        match t {
            Turn::Remark { text, .. } => return Some(text.trim()),
            Turn::Contribution { speaker, .. } if *speaker == env.me.id => return None,
            _ => {}
        }
    }
    None
}

/// Options said so far (by their wording), in the order first said.
fn options_said(env: &MeetingEnvelope) -> Vec<String> {
    let mut said: Vec<String> = Vec::new();
    let all = options(env);
    for t in &env.transcript {
        if let Turn::Contribution { text, .. } = t {
            for o in &all {
                if text.contains(o.as_str()) && !said.contains(o) {
                    said.push(o.clone());
                }
            }
        }
    }
    said
}

fn speak(env: &MeetingEnvelope, rng: &mut SplitMix64) -> String {
    let topic = agenda_topic(env);
    let role = env.me.role.to_lowercase();
    let facts = facts(&env.agenda);
    // Each attendee leans on a different fact, so the room does not repeat itself.
    let me = env
        .attendees
        .iter()
        .position(|a| a.id == env.me.id)
        .unwrap_or(0);
    let fact = (!facts.is_empty()).then(|| {
        facts[(me + Phase::ALL.iter().position(|p| *p == env.phase).unwrap_or(0)) % facts.len()]
            .clone()
    });
    // The person's word comes first: a remark since this attendee last spoke is taken in.
    let building = match fresh_remark(env) {
        Some(remark) => format!("Taking in what the person said, {}: ", quoted(remark)),
        None => last_point(env)
            .map(|(who, point)| format!("Building on {}'s point ({point}): ", name_of(env, who)))
            .unwrap_or_default(),
    };
    let said = options_said(env);
    let all = options(env);
    let favourite = said.first().cloned().unwrap_or_else(|| all[0].clone());
    match env.phase {
        Phase::Initialization => format!(
            "As {role}, I want us to leave with a clear answer to **{topic}**.{}\n\nI will bring the {role} view: what it will take, and where it usually goes wrong.",
            fact.map(|f| format!(" The fixed point for me: {f}.")).unwrap_or_default()
        ),
        Phase::ProblemClarification => format!(
            "{building}the problem is not only to {} but to do it in a way that holds up for the people it is for.{}\n\n- What we know: {}\n- What we don't know yet: who decides when it is good enough?",
            {
                let mut c = topic.chars();
                c.next()
                    .map(|f| f.to_lowercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            },
            fact.as_ref().map(|f| format!(" We are bound by this: {f}.")).unwrap_or_default(),
            fact.clone().unwrap_or_else(|| "the request itself, and little else".into())
        ),
        Phase::OptionGeneration => {
            let fresh: Vec<&String> = all.iter().filter(|o| !said.contains(o)).collect();
            let pick = if fresh.is_empty() { &all[0] } else { fresh[rng.below(fresh.len())] };
            format!(
                "{building}one more option, from the {role} side: {pick}. It keeps the risk small and shows early whether it works."
            )
        }
        Phase::Evaluation => format!(
            "Weighing it up as {role}: {favourite} costs the least to try and is easy to undo; the others need more time before we see anything.{}",
            fact.map(|f| format!(" Against our constraint ({f}) it is the safest.")).unwrap_or_default()
        ),
        Phase::Decision => match remarks(env).last() {
            // The person's word settles it: the room backs what they said.
            Some(said) => format!(
                "I support what the person said, {}; {favourite} fits with it, and nothing else on the table does so at lower risk.",
                quoted(said)
            ),
            None => format!(
                "I support going with {favourite}. It fits what we said we need, and nothing else on the table does so at lower risk."
            ),
        },
        Phase::ExecutionPlanning => {
            let due = ["by Friday", "next week", "within two weeks"][rng.below(3)];
            format!(
                "I'll take the {role} part of {}, {due}. I need the agreed scope from the others first.",
                one_line(&favourite, 120)
            )
        }
        Phase::Conclusion => format!(
            "To recap from my side: we go with {favourite}, I own the {role} part, and I will flag early if anything blocks it."
        ),
    }
}

/// Minutes from the transcript: the option the Decision phase backed, one action item per
/// execution-planning contribution, the open questions asked.
fn minutes(env: &MeetingEnvelope) -> Minutes {
    let said = options_said(env);
    let mut action_items = Vec::new();
    let mut open_questions = Vec::new();
    let mut spoke = 0;
    for t in &env.transcript {
        if let Turn::Contribution {
            speaker,
            text,
            phase,
            ..
        } = t
        {
            spoke += 1;
            if *phase == Phase::ExecutionPlanning {
                let task = text
                    .split("I'll take ")
                    .nth(1)
                    .and_then(|rest| rest.split(", ").next())
                    .unwrap_or("their part");
                let due = ["by Friday", "next week", "within two weeks"]
                    .into_iter()
                    .find(|d| text.contains(d))
                    .map(str::to_string);
                action_items.push(ActionItem {
                    owner: speaker.clone(),
                    task: one_line(&format!("Take {task}"), 200),
                    due,
                });
            }
            for q in text
                .split(['\n', '.'])
                .filter(|s| s.trim_end().ends_with('?'))
            {
                let q = one_line(q.trim_start_matches(['-', ' ']), 200);
                if !open_questions.contains(&q) && open_questions.len() < 3 {
                    open_questions.push(q);
                }
            }
        }
    }
    // What the person settled is a decision of the meeting, in their words, and comes first.
    let mut decisions: Vec<String> = remarks(env)
        .into_iter()
        .take(8)
        .map(|r| format!("As the person said: {}.", quoted(r)))
        .collect();
    if let Some(o) = said.first() {
        decisions.push(format!("Go with {o}."));
    }
    let figures = crate::demo::facts::figures(&env.agenda);
    Minutes {
        summary: format!(
            "The meeting on “{}” heard {spoke} contributions from {} participants and {}.{}",
            agenda_topic(env),
            participants(env).len(),
            if decisions.is_empty() {
                "ended without a decision"
            } else {
                "agreed on one option"
            },
            if figures.is_empty() {
                String::new()
            } else {
                format!(" It kept to the agenda's figures: {}.", figures.join(", "))
            }
        ),
        decisions,
        action_items,
        open_questions,
    }
}
