//! The built-in demo model's side of a meeting: it reads the call's envelope and answers as
//! attendees would — from their roles, about the agenda, building on what was said — and as an
//! orchestrator that now and then sends an invalid decision, so the fallback rule runs in every
//! demo. Seeded by the agenda and the call id: the same meeting plays the same way again.

use super::answer::{ActionItem, Contribution, Decision, DecisionWire, Minutes, Phase};
use super::prompt::{participants, MeetingEnvelope};
use super::{MeetingStep, Turn};
use roundtable_engine::demo::rng::{fnv1a, mix, SplitMix64};
use roundtable_engine::engine::{DemoReply, StoredCall};
use roundtable_engine::text::one_line;

/// Approaches the attendees put on the table when the agenda names no choices and no kind of
/// thing the demo knows (the minutes name the thing they are for, see [`choices`]).
const APPROACHES: [&str; 3] = [
    "a pilot with a small group before committing everyone",
    "a phased plan: the must-haves first, the rest once the first phase holds",
    "the simplest workable version, improved once it has been tried",
];

/// Choices for a thing the agenda names but does not list options for: (a word of the thing,
/// the choices). Few and short, so the wasm stays small; anything else gets [`APPROACHES`].
const KNOWN_CHOICES: [(&str, [&str; 3]); 3] = [
    ("database", ["PostgreSQL", "SQLite", "MongoDB"]),
    (
        "where",
        [
            "a hired meeting room in town",
            "a country hotel with meeting rooms",
            "our own office",
        ],
    ),
    (
        "venue",
        [
            "a hired meeting room in town",
            "a country hotel with meeting rooms",
            "our own office",
        ],
    ),
];

/// What a speaker does not know yet, one per attendee position, so the minutes' open questions
/// are not one question asked three times.
const UNKNOWNS: [&str; 4] = [
    "who decides when it is good enough?",
    "what would make us change course later?",
    "who needs to hear about it first?",
    "which risk can we not afford to take?",
];

/// Why a speaker backs a choice, one per attendee position, so no two say the same.
const REASONS: [&str; 4] = [
    "we can start on it soonest",
    "it keeps the cost lowest",
    "it is the easiest to undo if it goes wrong",
    "it asks least of the people who run it",
];

/// The agenda's first sentence, whole ("Pick a venue for the book swap: the hall or the
/// library" of "Pick a venue for the book swap: the hall or the library. 40 people").
fn agenda_sentence(env: &MeetingEnvelope) -> String {
    let title = env
        .agenda
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .trim_start_matches(['#', '>', '-', '*', ' ']);
    let first = title
        .split_once(". ")
        .map_or(title, |(head, _)| head)
        .trim()
        .trim_end_matches(['.', '!', '?', '…']);
    whole(first, 200)
}

/// What the meeting is about, without the choices it lists: "Pick a venue for the book swap".
fn agenda_topic(env: &MeetingEnvelope) -> String {
    let sentence = agenda_sentence(env);
    sentence
        .split_once(':')
        .map_or(sentence.as_str(), |(head, _)| head)
        .trim()
        .to_string()
}

/// A text whole when it fits in `max` characters, else cut at a word with an ellipsis.
fn whole(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    format!("{}…", roundtable_engine::text::cut_at_word(text, max - 1))
}

/// The choices the meeting decides between: those the agenda lists after a colon ("…: email,
/// Product Hunt or paid social"), else the few the demo knows for the thing named (a database, a
/// place), else approaches to what the agenda is about.
fn choices(env: &MeetingEnvelope) -> Vec<String> {
    let sentence = agenda_sentence(env);
    if let Some((_, list)) = sentence.split_once(':') {
        let listed: Vec<String> = list
            .split(", ")
            .flat_map(|part| part.split(" or "))
            .map(|c| c.trim().trim_end_matches(['.', ',']).trim())
            .map(|c| c.strip_prefix("or ").unwrap_or(c).to_string())
            .filter(|c| !c.is_empty() && c.chars().count() <= 80)
            .collect();
        if listed.len() >= 2 {
            return listed;
        }
    }
    let topic = agenda_topic(env).to_lowercase();
    if let Some((word, known)) = KNOWN_CHOICES
        .iter()
        .find(|(w, _)| topic.split_whitespace().any(|t| t == *w))
    {
        let mut list: Vec<String> = known.iter().map(|c| c.to_string()).collect();
        // A place the person named in a remark ("The village hall is free…") is a choice too.
        if ["where", "venue"].contains(word) {
            let said = remarks(env).join("\n");
            if let Some(place) = roundtable_engine::demo::facts::Facts::of(&said, None).place {
                let place = match place.strip_prefix("The ") {
                    Some(rest) => format!("the {rest}"),
                    None => place,
                };
                if !list.contains(&place) {
                    list.insert(0, place);
                }
            }
        }
        return list;
    }
    APPROACHES.iter().map(|o| o.to_string()).collect()
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
    let text = whole(&text, 80);
    if text.is_empty() {
        "this".into()
    } else {
        text
    }
}

/// The demo model's answer to one meeting call.
/// `model` is the demo variant the attendee runs on ([`roundtable_engine::demo::VARIANTS`]).
pub fn answer(call: &StoredCall, env: &MeetingEnvelope, model: &str) -> DemoReply {
    let seed = roundtable_engine::demo::variant_seed(fnv1a(env.agenda.as_bytes()), model);
    let mut rng = SplitMix64::new(mix(seed, &[&call.id]));
    let text = match env.step {
        MeetingStep::Decide => decide(
            env,
            &mut rng,
            seed,
            call.kind == roundtable_engine::engine::CallKind::Initial,
        ),
        MeetingStep::Speak => {
            let mut contribution = speak(env);
            // Another demo variant speaks in its own voice, so a what-if shows a difference.
            if model != roundtable_engine::demo::MODEL
                && roundtable_engine::demo::VARIANTS.contains(&model)
            {
                contribution.push_str(&format!(
                    "\n\nIn a second voice, from the {} side: what would prove this wrong?",
                    env.me.role.to_lowercase()
                ));
            }
            serde_json::to_string_pretty(&Contribution { contribution }).unwrap_or_default()
        }
        MeetingStep::Minutes => serde_json::to_string_pretty(&minutes(env)).unwrap_or_default(),
    };
    DemoReply::stop(text, call.token_estimate)
}

fn name_of<'a>(env: &'a MeetingEnvelope, id: &'a str) -> &'a str {
    env.attendees
        .iter()
        .find(|a| a.id == id)
        .map_or(id, |a| a.name.as_str())
}

/// The orchestrator: the next participant who has not spoken in this phase, the next phase once
/// all have (or the phase's turns are used) — one phase forward at a time — and the end only
/// after Conclusion. Now and then it makes a mistake `001`'s fallback rule catches (an unknown
/// attendee, a misspelt phase, no rationale): once, at a decision between the 4th and the 9th
/// fixed by the meeting's seed, and at most once more later, so the fallback shows in a
/// meeting without opening its transcript.
fn decide(env: &MeetingEnvelope, rng: &mut SplitMix64, seed: u64, first_try: bool) -> String {
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
                "{} has not spoken yet in {} and sees it from the {} side.",
                name_of(env, next),
                env.phase.title(),
                role_of(env, next).to_lowercase()
            ),
        }
    };
    let mut wire = serde_json::to_value(DecisionWire::from(&decision)).unwrap_or_default();
    let decisions: Vec<bool> = env
        .transcript
        .iter()
        .filter_map(|t| match t {
            Turn::Decision { fell_back, .. } => Some(*fell_back),
            _ => None,
        })
        .collect();
    let this = decisions.len() as u64 + 1;
    let erred = decisions.iter().filter(|f| **f).count();
    let first_slip = 4 + seed % 6;
    let slip = match erred {
        0 => this >= first_slip,
        1 => this > first_slip + 8 && rng.chance(1, 12),
        _ => false,
    };
    if first_try && slip {
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
        .map(|s| whole(&one_line(s, 1000), 140))
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
            Some((
                speaker.as_str(),
                whole(&one_line(first.trim_matches('*'), 1000), 90),
            ))
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
    format!("“{}…”", roundtable_engine::text::cut_at_word(t, 239))
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

/// Choices said so far, in the order first said.
fn options_said(env: &MeetingEnvelope) -> Vec<String> {
    let mut said: Vec<String> = Vec::new();
    let all = choices(env);
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

/// The choices the person ruled out in a remark ("not that one", "did nothing for us").
fn ruled_out(env: &MeetingEnvelope) -> Vec<String> {
    let all = choices(env);
    let mut out = Vec::new();
    for r in remarks(env) {
        let lower = r.to_lowercase();
        let against = [
            "not ", "nothing", "n't", "no ", "clash", "against", "too ", "avoid",
        ]
        .iter()
        .any(|w| lower.contains(w));
        for o in &all {
            if against && lower.contains(&o.to_lowercase()) && !out.contains(o) {
                out.push(o.clone());
            }
        }
    }
    out
}

/// The choice the room leans to: one the person named (and did not rule out), else the first
/// said that the person did not rule out, else the first choice left.
fn favourite(env: &MeetingEnvelope) -> String {
    let all = choices(env);
    let out = ruled_out(env);
    let named = remarks(env).into_iter().rev().find_map(|r| {
        let lower = r.to_lowercase();
        all.iter()
            .find(|o| lower.contains(&o.to_lowercase()) && !out.contains(o))
            .cloned()
    });
    named
        .or_else(|| options_said(env).into_iter().find(|o| !out.contains(o)))
        .or_else(|| all.iter().find(|o| !out.contains(o)).cloned())
        .unwrap_or_else(|| all[0].clone())
}

/// The date the agenda sets, as a due date ("by 30 June"), if it sets one.
fn agenda_due(env: &MeetingEnvelope) -> Option<String> {
    roundtable_engine::demo::facts::Facts::of(&env.agenda, None)
        .when
        .map(|w| format!("by {w}"))
}

fn speak(env: &MeetingEnvelope) -> String {
    let topic = agenda_topic(env);
    let role = env.me.role.to_lowercase();
    let facts = facts(&env.agenda);
    // Each attendee leans on a different fact and reason, so the room does not repeat itself.
    let me = env
        .attendees
        .iter()
        .filter(|a| !a.orchestrator)
        .position(|a| a.id == env.me.id)
        .unwrap_or(0);
    let reason = REASONS[me % REASONS.len()];
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
    let all = choices(env);
    let favourite = favourite(env);
    let lower_topic = {
        let mut c = topic.chars();
        c.next()
            .map(|f| f.to_lowercase().chain(c).collect::<String>())
            .unwrap_or_default()
    };
    match env.phase {
        Phase::Initialization => format!(
            "As {role}, I want us to leave with a clear answer to **{topic}**.{}\n\nI will bring the {role} view: what it will take, and where it usually goes wrong.",
            fact.map(|f| format!(" The fixed point for the {role} side: {f}.")).unwrap_or_default()
        ),
        Phase::ProblemClarification => format!(
            "{building}from the {role} side, the problem is not only to {lower_topic} but to do it in a way that holds up for the people it is for.{}\n\n- What the {role} side knows: {}\n- What the {role} side does not know yet: {}",
            fact.as_ref().map(|f| format!(" As {role}, I am bound by this: {f}.")).unwrap_or_default(),
            fact.clone().unwrap_or_else(|| "the agenda itself, and little else".into()),
            UNKNOWNS[me % UNKNOWNS.len()]
        ),
        Phase::OptionGeneration => {
            let out = ruled_out(env);
            let fresh: Vec<&String> = all
                .iter()
                .filter(|o| !said.contains(o) && !out.contains(o))
                .collect();
            match fresh.first() {
                Some(pick) => format!(
                    "{building}from the {role} side I put forward {pick}: {reason}."
                ),
                None => format!(
                    "{building}every choice is on the table now; as {role} I would add nothing, and I lean to {favourite} because {reason}."
                ),
            }
        }
        Phase::Evaluation => {
            let other = all
                .iter()
                .find(|o| **o != favourite)
                .map(|o| {
                    let mut c = o.chars();
                    let o: String = c
                        .next()
                        .map(|f| f.to_uppercase().chain(c).collect())
                        .unwrap_or_default();
                    format!(" {o} needs more before the {role} side sees anything.")
                })
                .unwrap_or_default();
            format!(
                "Weighing it up as {role}: {favourite} holds up best, because {reason}.{other}{}",
                fact.map(|f| format!(" Against our constraint ({f}), it is the safest from the {role} side."))
                    .unwrap_or_default()
            )
        }
        Phase::Decision => match remarks(env).last() {
            // The person's word settles it: the room backs what they said.
            Some(said) => format!(
                "As {role}, I support what the person said, {}: we go with {favourite}, because {reason}.",
                quoted(said)
            ),
            None => format!("As {role}, I support going with {favourite}, because {reason}."),
        },
        Phase::ExecutionPlanning => {
            let due = agenda_due(env)
                .map(|d| format!(", {d}"))
                .unwrap_or_default();
            format!(
                "I'll take the {role} part of {} ({favourite}){due}. Before I start, the {role} side needs the agreed scope from the others.",
                agenda_thing(&topic)
            )
        }
        Phase::Conclusion => format!(
            "To recap from the {role} side: we go with {favourite}, I own the {role} part, and I will flag early if anything blocks it."
        ),
    }
}

/// Minutes from the transcript: the choice the Decision phase backed (none when the meeting
/// ended before it, whatever the person remarked), one action item per execution-planning
/// contribution, the open questions asked.
fn minutes(env: &MeetingEnvelope) -> Minutes {
    let said = options_said(env);
    let mut action_items = Vec::new();
    let mut open_questions = Vec::new();
    let mut decided = false;
    let mut speakers: Vec<&str> = Vec::new();
    for t in &env.transcript {
        if let Turn::Contribution {
            speaker,
            text,
            phase,
            ..
        } = t
        {
            if !speakers.contains(&speaker.as_str()) {
                speakers.push(speaker);
            }
            decided |= *phase == Phase::Decision;
            if *phase == Phase::ExecutionPlanning {
                let task = text
                    .split("I'll take ")
                    .nth(1)
                    .and_then(|rest| rest.split(['.', '\n']).next())
                    .map(|rest| rest.split(", by ").next().unwrap_or(rest))
                    .unwrap_or("their part");
                let due = text
                    .split(", by ")
                    .nth(1)
                    .and_then(|rest| rest.split('.').next())
                    .map(|d| format!("by {}", d.trim()));
                action_items.push(ActionItem {
                    owner: speaker.clone(),
                    task: whole(&format!("Take {task}"), 200),
                    due,
                });
            }
            for q in text
                .split(['\n', '.'])
                .filter(|s| s.trim_end().ends_with('?'))
            {
                let q = whole(q.trim_start_matches(['-', ' ']).trim(), 200);
                if !open_questions.contains(&q) && open_questions.len() < 3 {
                    open_questions.push(q);
                }
            }
        }
    }
    let topic = agenda_topic(env);
    let thing = agenda_thing(&topic);
    let mut decisions: Vec<String> = Vec::new();
    if decided {
        // What the person settled is part of the decision, in their words, and comes first.
        decisions.extend(
            remarks(env)
                .into_iter()
                .take(8)
                .map(|r| format!("As the person said: {}.", quoted(r))),
        );
        decisions.push(whole(
            &format!("Decided on {thing}: {}.", favourite(env)),
            290,
        ));
    } else if !said.is_empty() && open_questions.len() < 3 {
        open_questions.push(whole(
            &format!("Which to choose for {thing}: {}?", said.join(", ")),
            290,
        ));
    }
    let names: Vec<&str> = speakers.iter().map(|s| name_of(env, s)).collect();
    let heard = match names.len() {
        0 => "heard no one".to_string(),
        1 => format!("heard {}", names[0]),
        n => format!("heard {} and {}", names[..n - 1].join(", "), names[n - 1]),
    };
    let outcome = if decided {
        format!("agreed to go with {}", favourite(env))
    } else if said.is_empty() {
        "ended before any option was put".to_string()
    } else {
        format!(
            "ended before a decision, with these options put: {}",
            said.join("; ")
        )
    };
    // What the agenda set, in its own sentences (never a figure torn from its words).
    let first = agenda_sentence(env);
    let set: Vec<String> = facts(&env.agenda)
        .into_iter()
        .filter(|f| f.trim() != first.trim() && !first.contains(f.trim()))
        .collect();
    Minutes {
        summary: whole(
            &format!(
                "The meeting on “{}” {heard} and {outcome}.{}",
                agenda_sentence(env),
                if set.is_empty() {
                    String::new()
                } else {
                    format!(" It kept to what the agenda set: {}.", set.join("; "))
                }
            ),
            1400,
        ),
        decisions,
        action_items,
        open_questions,
    }
}
