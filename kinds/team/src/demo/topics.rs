//! What the person asked for, as the demo model understands it: a kind of request (a workshop, a
//! report, a launch, a trip, a study plan, or a generic project) and its subject.
//!
//! Each kind carries the material a thoughtful team would produce for it — product names, definitions
//! of done, Markdown sections with real-looking bullets, operative domains, the open points the
//! chair lists — so that a first-time visitor watching the demo sees work that is about
//! *their* request. `{subject}` in the texts is replaced by the request's subject.

use roundtable_engine::text::cut_at_word;

/// The kinds of request the demo recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TopicKind {
    /// A workshop, training, seminar or meetup.
    Workshop,
    /// A launch or release of a product or service.
    Launch,
    /// A trip or a holiday.
    Trip,
    /// A study or learning plan.
    StudyPlan,
    /// A short report, brief or analysis.
    Report,
    /// A local event: a swap, a party, a fair, a fundraiser.
    Event,
    /// Anything else.
    Generic,
}

/// One titled block of a product's content.
#[derive(Debug)]
pub struct Section {
    /// The Markdown heading (without `##`).
    pub heading: &'static str,
    /// Its bullets, one a line ([`Section::bullets`]); `{subject}` is replaced.
    bullets: &'static str,
}

impl Section {
    /// Its bullets, in order.
    pub fn bullets(&self) -> impl Iterator<Item = &'static str> {
        self.bullets.lines()
    }
}

/// A product the team can make for a kind of request.
#[derive(Debug)]
pub struct ProductTemplate {
    /// Product name.
    pub name: &'static str,
    /// True for a Decision product, false for Content.
    pub decision: bool,
    /// Definition of done; `{subject}` is replaced.
    pub dod: &'static str,
    /// The sections its versions are written from.
    pub sections: &'static [Section],
}

/// Everything the demo knows about one kind of request.
#[derive(Debug)]
pub struct Topic {
    /// Which kind.
    pub kind: TopicKind,
    /// The noun phrase the team uses for the whole result ("workshop plan").
    pub label: &'static str,
    /// The word joining the label to the subject ("on" data privacy, "for" a weekend in Rome).
    pub about: &'static str,
    /// Lower-case words that point to this kind.
    pub keywords: &'static [&'static str],
    /// The products of the first rounds, in the order they are created.
    pub products: &'static [ProductTemplate],
    /// The product the chair adds in round 2.
    pub extra: ProductTemplate,
    /// (area, responsibility) per operative, cycled when there are more operatives.
    pub domains: &'static [(&'static str, &'static str)],
    /// Details the chair lists as missing.
    pub missing: &'static [&'static str],
    /// The charter's objectives.
    pub objectives: &'static str,
    /// The charter's constraints.
    pub constraints: &'static str,
}

impl Topic {
    /// The topic of a kind.
    pub fn of(kind: TopicKind) -> &'static Topic {
        TOPICS
            .iter()
            .find(|t| t.kind == kind)
            .unwrap_or(&TOPICS[TOPICS.len() - 1])
    }
}

/// Picks the kind of request by counting keyword hits; ties go to the earlier kind, no hit to
/// [`TopicKind::Generic`].
pub fn detect(request: &str) -> &'static Topic {
    let lower = request.to_lowercase();
    let mut best: Option<(&'static Topic, usize)> = None;
    for topic in TOPICS.iter() {
        let hits = topic
            .keywords
            .iter()
            .filter(|k| contains_word(&lower, k))
            .count();
        if hits > 0 && best.is_none_or(|(_, h)| hits > h) {
            best = Some((topic, hits));
        }
    }
    best.map(|(t, _)| t)
        .unwrap_or_else(|| Topic::of(TopicKind::Generic))
}

/// True when `needle` occurs in `hay` starting at a word boundary (so "learn" matches "learning"
/// but "tour" does not match "detour").
fn contains_word(hay: &str, needle: &str) -> bool {
    hay.match_indices(needle).any(|(i, _)| {
        hay[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// The subject of a request, tried in this order: what follows "on / about / regarding"; the words
/// right before the kind's keyword ("a one-day *design* workshop"); what follows "for / to / of"
/// unless it names an audience ("for 20 people") — with a leading "pass / learn …" dropped; the
/// first sentence without its leading filler words. At most [`SUBJECT_MAX`] chars cut at a word;
/// "the project" for an empty request.
pub fn subject(request: &str) -> String {
    let first = first_sentence(request);
    // ASCII lowercase keeps byte offsets, so positions found in `lower` index `first`.
    let lower = first.to_ascii_lowercase();
    let picked = after_marker(first, &lower)
        .or_else(|| before_keyword(first, &lower, detect(request)))
        .or_else(|| after_weak_marker(first, &lower))
        .unwrap_or_else(|| strip_fillers(first));
    let picked = without_figures(picked.trim());
    let cut = cut_at_word(picked, SUBJECT_MAX);
    let cut = cut.trim_end_matches([',', ';', ':', '-', ' ', '.']);
    if cut.is_empty() {
        "the project".to_string()
    } else {
        cut.to_string()
    }
}

/// A figure or an amount: "12", "£50", "twelve".
fn figure(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !(c.is_alphanumeric() || "£$€".contains(c)));
    w.contains(['£', '$', '€']) || super::facts::is_figure(w)
}

/// A subject without its trailing figures and constraints: cut at the first comma, and before
/// "for / with / on / by / due / in" when a figure follows ("negotiation for 12 sales managers"
/// gives "negotiation", "sleep in teenagers, 10 pages" gives "sleep in teenagers").
fn without_figures(text: &str) -> &str {
    let text = text.split([',', ';']).next().unwrap_or(text).trim();
    let words = word_starts(text);
    for w in words.windows(2) {
        let (at, word) = w[0];
        let next = w[1].1;
        if at > 0
            && ["for", "with", "on", "by", "due", "in", "within", "under"]
                .contains(&word.to_ascii_lowercase().as_str())
            && (figure(next)
                || ["a", "an"].contains(&next.to_ascii_lowercase().as_str())
                    && text[at..].split_whitespace().any(figure))
        {
            return text[..at].trim();
        }
    }
    text
}

/// What follows the first "on / about / regarding".
fn after_marker<'a>(first: &'a str, lower: &str) -> Option<&'a str> {
    [" on ", " about ", " regarding "]
        .iter()
        .filter_map(|m| lower.find(m).map(|i| i + m.len()))
        .min()
        .map(|at| first[at..].trim())
        .filter(|rest| !rest.is_empty() && !names_money_or_time(rest))
}

/// True for "a £50 budget", "3 weeks", "the 14th", "Monday 3 March": a figure or a date after
/// "on", not a subject.
fn names_money_or_time(rest: &str) -> bool {
    let mut words = rest.split_whitespace();
    let first = words.next().unwrap_or("");
    let word = if ["a", "an", "the"].contains(&first.to_ascii_lowercase().as_str()) {
        words.next().unwrap_or("")
    } else {
        first
    };
    word.chars()
        .any(|c| c.is_ascii_digit() || "£$€".contains(c))
        || super::facts::is_calendar(word)
}

/// The non-filler words right before the last keyword of the kind (at most four), so that "a market
/// analysis report" gives "market analysis".
fn before_keyword<'a>(first: &'a str, lower: &str, topic: &Topic) -> Option<&'a str> {
    let at = topic
        .keywords
        .iter()
        .filter_map(|k| {
            lower.match_indices(k).map(|(i, _)| i).find(|&i| {
                lower[..i]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric())
            })
        })
        .max()?;
    // An event's keyword is its head noun ("a *book swap*", "a *team offsite*"), a report's is
    // not ("a *market analysis* report").
    let gathering = [
        "offsite",
        "hackathon",
        "meetup",
        "conference",
        "retrospective",
    ]
    .iter()
    .any(|k| lower[at..].starts_with(k));
    let end = if topic.kind == TopicKind::Event || gathering {
        at + first[at..].find(' ').unwrap_or(first.len() - at)
    } else {
        at
    };
    let head = first[..end].trim_end();
    let mut start = first[..at].trim_end().len();
    let mut words = 0;
    for (i, word) in word_starts(head).into_iter().rev() {
        if is_filler(word) || words == 4 {
            break;
        }
        start = i;
        words += 1;
    }
    (words > 0).then(|| head[start..].trim().trim_end_matches([',', '.', ';', ':']))
}

/// Each word of a text with its byte offset.
fn word_starts(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// What follows "for / to / of", unless it names an audience; a leading "pass / learn …" dropped.
fn after_weak_marker<'a>(first: &'a str, lower: &str) -> Option<&'a str> {
    let mut hits: Vec<usize> = [" for ", " to ", " of "]
        .iter()
        .flat_map(|m| lower.match_indices(m).map(|(i, _)| i + m.len()))
        .collect();
    roundtable_engine::order::sort(&mut hits);
    for at in hits {
        let rest = drop_leading_verb(first[at..].trim());
        if !rest.is_empty() && !names_audience(rest) {
            return Some(rest);
        }
    }
    None
}

const LEADING_VERBS: [&str; 10] = [
    "pass ",
    "learn ",
    "prepare for ",
    "get ready for ",
    "master ",
    "improve ",
    "get ",
    "become ",
    "visit ",
    "see ",
];

/// The text without a leading "pass / learn / visit …".
fn drop_leading_verb(text: &str) -> &str {
    let lower = text.to_ascii_lowercase();
    LEADING_VERBS
        .iter()
        .find(|v| lower.starts_with(*v))
        .map(|v| text[v.len()..].trim())
        .unwrap_or(text)
}

/// True for "20 people", "my team", "beginners": who it is for, not what it is about.
fn names_audience(rest: &str) -> bool {
    let lower = rest.to_ascii_lowercase();
    lower.starts_with(|c: char| c.is_ascii_digit())
        || [
            "people",
            "participants",
            "attendees",
            "beginners",
            "kids",
            "children",
            "students",
            "staff",
            "employees",
            "everyone",
            "newcomers",
            "new hires",
            "my team",
            "our team",
            "the team",
            "me",
            "us",
        ]
        .iter()
        .any(|a| lower == *a || lower.starts_with(&format!("{a} ")))
}

/// Words that carry no subject: articles, request verbs, pronouns, sizes and durations.
fn is_filler(word: &str) -> bool {
    let w = word
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
        .to_ascii_lowercase();
    if w.is_empty() || w.chars().any(|c| c.is_ascii_digit()) {
        return true;
    }
    if let Some((_, unit)) = w.rsplit_once('-') {
        if matches!(
            unit,
            "day"
                | "days"
                | "hour"
                | "hours"
                | "week"
                | "weeks"
                | "month"
                | "months"
                | "minute"
                | "minutes"
        ) {
            return true;
        }
    }
    FILLERS.contains(&w.as_str())
}

const FILLERS: [&str; 52] = [
    "a", "an", "the", "plan", "plans", "planning", "write", "make", "create", "organise",
    "organize", "prepare", "draft", "build", "need", "needs", "want", "help", "me", "us", "we",
    "i", "please", "our", "my", "your", "short", "quick", "small", "new", "simple", "one", "two",
    "three", "half", "full", "day", "put", "together", "run", "hold", "host", "set", "up", "can",
    "could", "would", "you", "like", "to", "for", "some",
];

/// The text without its leading filler words, keeping an article right before the first other word
/// (the text itself when all are fillers).
fn strip_fillers(text: &str) -> &str {
    let words = word_starts(text);
    for (k, &(i, word)) in words.iter().enumerate() {
        if !is_filler(word) {
            let rest = drop_leading_verb(text[i..].trim());
            // Keep an article right before the subject: "a weekend in Rome", not "weekend in Rome".
            return match k.checked_sub(1).map(|j| words[j]) {
                Some((a, article))
                    if rest.len() == text[i..].trim().len()
                        && ["a", "an", "the"].contains(&article.to_ascii_lowercase().as_str()) =>
                {
                    text[a..].trim()
                }
                _ => rest,
            };
        }
    }
    text.trim()
}

/// Longest subject kept, so that texts quoting it stay within the schema's limits.
pub const SUBJECT_MAX: usize = 70;

fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|(i, c)| {
            matches!(c, '\n' | '?' | '!')
                || (*c == '.' && text[i + 1..].starts_with(|n: char| n.is_whitespace()))
                || (*c == '.' && i + 1 == text.len())
        })
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    text[..end].trim()
}

/// Replaces `{subject}` in a template.
pub fn fill(template: &str, subject: &str) -> String {
    template.replace("{subject}", subject)
}

const fn content(
    name: &'static str,
    dod: &'static str,
    sections: &'static [Section],
) -> ProductTemplate {
    ProductTemplate {
        name,
        decision: false,
        dod,
        sections,
    }
}

const fn decision(
    name: &'static str,
    dod: &'static str,
    sections: &'static [Section],
) -> ProductTemplate {
    ProductTemplate {
        name,
        decision: true,
        dod,
        sections,
    }
}

/// A section, its bullets kept as one text with a line each: one string in the wasm instead of a
/// table of them (about 700 bullets, 8 bytes of table apiece).
macro_rules! s {
    ($heading:literal, [$($bullet:literal),* $(,)?]) => {
        Section {
            heading: $heading,
            bullets: concat!($($bullet, "\n"),*),
        }
    };
}

/// The known kinds; Generic last (it is the fallback of [`Topic::of`]).
pub static TOPICS: [Topic; 7] = [
    Topic {
        kind: TopicKind::Workshop,
        label: "workshop plan",
        about: "on",
        keywords: &[
            "workshop", "training", "seminar", "masterclass", "bootcamp", "hackathon", "meetup",
            "conference", "offsite", "session for", "retrospective",
        ],
        products: &[
            content(
                "Agenda and timing",
                "A timed agenda for the workshop on {subject}: every block has a goal, a format, a lead and minutes that add up to the session length, breaks included.",
                &[
                    s!("Goals", [
                        "{People|Participants} leave able to explain the core ideas of {subject} in their own words.",
                        "Each participant drafts one concrete next step to try soon after the workshop.",
                        "The group agrees on the two or three questions worth a follow-up.",
                    ]),
                    s!("Running order", [
                        "0:00 – Welcome, goals and a quick round of expectations (15 min).",
                        "0:15 – Short input on {subject} with two real examples (25 min).",
                        "0:40 – Small-group exercise, then report back (45 min).",
                        "1:25 – Break (15 min).",
                        "1:40 – Action planning and commitments (30 min).",
                        "2:10 – Wrap-up and feedback survey (20 min).",
                    ]),
                    s!("Roles", [
                        "Lead facilitator keeps time and runs the input block.",
                        "Co-facilitator supports the groups and captures outcomes on the board.",
                        "A note-taker collects commitments for the follow-up email.",
                    ]),
                ],
            ),
            content(
                "Exercises and materials",
                "Two or three hands-on exercises on {subject} with instructions, timing, group size and the materials each needs, ready to print.",
                &[
                    s!("Exercise 1 – Case discussion", [
                        "Groups of four read a one-page case about {subject} and list what went well and what did not.",
                        "Each group presents its top insight in two minutes.",
                        "Materials: printed case, flipchart paper, markers.",
                    ]),
                    s!("Exercise 2 – Practice round", [
                        "Pairs apply the method to a situation from their own work.",
                        "The partner gives feedback with a start / stop / continue grid.",
                        "Materials: A4 worksheet, a visible timer.",
                    ]),
                    s!("Handouts", [
                        "One-page summary of the key ideas of {subject}.",
                        "Worksheet for the personal action plan.",
                        "Further reading and contacts for questions after the day.",
                    ]),
                ],
            ),
            content(
                "Invitation and logistics",
                "Invitation text, registration steps, room and equipment checklist, accessibility needs and catering, each with an owner and a date.",
                &[
                    s!("Invitation", [
                        "Subject line: Hands-on workshop – {subject}.",
                        "Three short paragraphs: who it is for, what they take away, date, time and place.",
                        "Registration link, closing one week before the day.",
                    ]),
                    s!("Room and equipment", [
                        "Room for {people|everyone taking part} with movable tables for group work.",
                        "Projector, two flipcharts, markers and name tags.",
                        "Step-free access and a quiet corner, checked with {place|the venue}.",
                    ]),
                    s!("Catering", [
                        "Coffee, tea and water on arrival and at the break.",
                        "Dietary needs asked in the registration form.",
                        "Final numbers confirmed a few days before.",
                    ]),
                ],
            ),
            content(
                "Facilitator notes",
                "Talking points, timing cues, likely questions with answers and a plan B for each block of the workshop.",
                &[
                    s!("Talking points", [
                        "Open with a short story that shows why {subject} matters to this group.",
                        "Keep the input to three ideas; park details for the Q&A.",
                        "Link every exercise back to the workshop goals.",
                    ]),
                    s!("Likely questions", [
                        "How does this work for small teams? – Use the second example and scale it down.",
                        "What if we have no budget? – Point to the low-cost options in the handout.",
                        "Where can I learn more? – Share the reading list at the end.",
                    ]),
                    s!("Plan B", [
                        "If the room runs late, shorten the case discussion to 30 minutes.",
                        "If the projector fails, switch to the printed slides.",
                        "If only a few people come, run the exercises as one group.",
                    ]),
                ],
            ),
            content(
                "Feedback survey",
                "A five-question survey that shows whether the workshop goals were met, and how the answers will be used.",
                &[
                    s!("Questions", [
                        "How useful was the workshop for your work? (1–5)",
                        "Which part on {subject} was most valuable, and why?",
                        "What would you change next time?",
                        "How likely are you to try your next step soon? (1–5)",
                        "Anything else we should know?",
                    ]),
                    s!("Use of the answers", [
                        "A short summary goes to {people|participants} within a week.",
                        "The agenda changes where two or more people flag the same issue.",
                        "Answers stay anonymous; raw data is deleted once the summary is out.",
                    ]),
                ],
            ),
        ],
        extra: content(
            "Follow-up plan",
            "What happens after the workshop on {subject}: the follow-up email, a check-in date and how commitments are tracked.",
            &[
                s!("Follow-up email", [
                    "Thank {people|participants} and attach the slides and handouts.",
                    "Restate each person's next step as they wrote it.",
                    "Invite questions by reply.",
                ]),
                s!("Check-in", [
                    "A short online check-in a month later.",
                    "Each participant reports one result or one obstacle.",
                    "Topics for a possible second session are collected.",
                ]),
            ],
        ),
        domains: &[
            ("Session design", "The agenda, its timing and the flow of activities."),
            ("Learning activities", "Exercises, handouts and materials."),
            ("Logistics", "Invitation, venue, equipment and catering."),
            ("Facilitation", "Talking points, likely questions and contingency plans."),
            ("Evaluation", "Feedback and follow-up after the day."),
        ],
        missing: &[
            "The exact date and venue",
            "The budget for catering and materials",
            "How much participants already know about {subject}",
        ],
        objectives: "Deliver a ready-to-run plan for a workshop on {subject}: agenda, exercises, logistics, facilitator notes and a way to tell whether it worked.",
        constraints: "Fits the time and audience the person gives; materials a small team can prepare in a week; accessible to every participant; no paid tools required.",
    },
    Topic {
        kind: TopicKind::Launch,
        label: "launch plan",
        about: "for",
        keywords: &[
            "launch", "go-to-market", "go to market", "release", "rollout", "roll out", "campaign",
            "product hunt", "announce",
        ],
        products: &[
            content(
                "Positioning and message",
                "The target audience, the problem {subject} solves, a one-sentence promise and three proof points.",
                &[
                    s!("Audience", [
                        "Primary: people who feel the problem every week and look for a fix today.",
                        "Secondary: the teams that buy on their behalf.",
                        "Out of scope for the launch: large organisations with custom needs.",
                    ]),
                    s!("Promise", [
                        "One sentence saying what {subject} does and for whom.",
                        "Three proof points, each with a number or an example.",
                        "Tone: clear, confident, no jargon.",
                    ]),
                    s!("Alternatives", [
                        "The two main alternatives and where we differ.",
                        "What we will not claim.",
                        "A short answer to the obvious objection.",
                    ]),
                ],
            ),
            content(
                "Launch timeline",
                "A week-by-week plan from six weeks before to four weeks after the launch of {subject}, with owners and a go/no-go check.",
                &[
                    s!("Before launch", [
                        "T-6 weeks: scope and message frozen.",
                        "T-4 weeks: landing page and press kit ready for review.",
                        "T-2 weeks: beta users briefed; go/no-go meeting held.",
                    ]),
                    s!("Launch week", [
                        "Launch day ({when|to be set}): announcement, email and social posts go out at 9:00.",
                        "The team is on a support rota all week.",
                        "A daily 15-minute stand-up on numbers and issues.",
                    ]),
                    s!("After launch", [
                        "T+1 week: first results shared with the team.",
                        "T+2 weeks: the issues users report most are fixed.",
                        "T+4 weeks: review against the goals and decide the next push.",
                    ]),
                ],
            ),
            content(
                "Channels and content",
                "Each channel for the launch of {subject} with its goal, message, content piece, owner and date.",
                &[
                    s!("Owned channels", [
                        "A landing page for {subject} with one clear call to action.",
                        "An email to existing contacts, in two waves.",
                        "A blog post telling the story behind it.",
                    ]),
                    s!("Earned and social", [
                        "Pitches to three relevant newsletters or journalists.",
                        "A 60-second demo video for social channels.",
                        "Quotes and reviews asked from beta users.",
                    ]),
                    s!("Paid (optional)", [
                        "A small test spend on one channel only, within {budget|the budget}.",
                        "Stopped early if the cost per sign-up is above target.",
                        "Separate tracking links per channel.",
                    ]),
                ],
            ),
            content(
                "Success metrics",
                "Three to five launch metrics for {subject} with baseline, target, data source and review date.",
                &[
                    s!("Metrics", [
                        "Sign-ups in the first month.",
                        "Activation: share of sign-ups who complete the first key action.",
                        "Mentions in press, newsletters and communities.",
                    ]),
                    s!("Targets", [
                        "Targets set from the beta numbers, not from hopes.",
                        "A stretch target and a minimum target for each metric.",
                        "Review on day 7 and day 30.",
                    ]),
                    s!("Tracking", [
                        "One dashboard, updated daily in launch week.",
                        "Events tested end to end before launch day.",
                        "One owner for the numbers.",
                    ]),
                ],
            ),
            decision(
                "Go/no-go decision",
                "The go/no-go criteria for launching {subject}, the options on the table and a recommendation, with who decides and when.",
                &[
                    s!("Criteria", [
                        "No open critical bugs.",
                        "Support trained and the rota set.",
                        "Landing page and tracking tested end to end.",
                    ]),
                    s!("Options", [
                        "Go on the planned date.",
                        "Soft launch to existing users first.",
                        "Delay until the blockers are cleared.",
                    ]),
                    s!("Recommendation", [
                        "Soft launch first if any criterion is at risk one week before.",
                        "The product lead decides; the decision is written down in the launch channel.",
                        "Any delay is communicated the same day.",
                    ]),
                ],
            ),
        ],
        extra: content(
            "Support and FAQ",
            "The ten questions users will ask about {subject}, answered, and the support rota for launch week.",
            &[
                s!("FAQ", [
                    "What is it and who is it for?",
                    "How much does it cost, and is there a free trial?",
                    "How do I get started in five minutes?",
                ]),
                s!("Support rota", [
                    "Someone on support every launch day.",
                    "Answers the same day during launch week.",
                    "Every issue logged with a tag for the week-one review.",
                ]),
            ],
        ),
        domains: &[
            ("Messaging", "Audience, promise and proof points."),
            ("Planning", "The timeline, owners and milestones."),
            ("Channels", "Channels, content pieces and outreach."),
            ("Metrics", "Goals, tracking and the launch dashboard."),
            ("Readiness", "Risks, support and the go/no-go decision."),
        ],
        missing: &[
            "The launch date",
            "The marketing budget",
            "Who approves the go/no-go",
        ],
        objectives: "A launch plan for {subject} that a small team can run: a clear message, a timeline, channels, metrics and a go/no-go decision.",
        constraints: "Realistic for the team's size and budget; every task has an owner and a date; measurable goals; no claim we cannot back.",
    },
    Topic {
        kind: TopicKind::Trip,
        label: "trip plan",
        about: "for",
        keywords: &[
            "trip", "travel", "vacation", "holiday", "itinerary", "journey", "road trip", "weekend in",
            "visit", "tour",
        ],
        products: &[
            content(
                "Itinerary",
                "A day-by-day plan for {subject}: morning, afternoon and evening, travel times between places, and one rest block per day.",
                &[
                    s!("Day 1 – Arrival", [
                        "Arrive, check in, short walk around the neighbourhood.",
                        "Early dinner near the accommodation.",
                        "Buy a transport card for the stay.",
                    ]),
                    s!("Day 2 – Highlights", [
                        "Morning: the main sights while it is still quiet.",
                        "Afternoon: a museum or a guided tour, booked ahead.",
                        "Evening: the local food market.",
                    ]),
                    s!("Day 3 – A slower day", [
                        "A park or the waterfront in the morning.",
                        "A free afternoon for shopping or rest.",
                        "Farewell dinner, reserved in advance.",
                    ]),
                ],
            ),
            content(
                "Budget",
                "Estimated costs per person for transport, stay, food and activities of {subject}, plus a 10 % buffer and the total.",
                &[
                    s!("Fixed costs", [
                        "Transport there and back, booked well ahead.",
                        "Accommodation for every night of the stay, in a central area.",
                        "Travel insurance.",
                    ]),
                    s!("Daily costs", [
                        "Food: breakfast at the stay, one sit-down meal a day.",
                        "Local transport: a day or week pass.",
                        "Entry tickets and tours.",
                    ]),
                    s!("Buffer", [
                        "10 % on top for surprises.",
                        "A small amount of cash for markets.",
                        "Spending tracked in a shared note.",
                    ]),
                ],
            ),
            content(
                "Bookings and transport",
                "Everything to book for {subject}, with deadline, cost and confirmation status, and how to get between places.",
                &[
                    s!("To book", [
                        "Transport there and back – compare train and flight on time and price.",
                        "Accommodation with free cancellation.",
                        "Timed-entry tickets for the busiest sight.",
                    ]),
                    s!("Getting around", [
                        "Public transport from the airport or station.",
                        "Walking routes through the old town.",
                        "A taxi or ride app as backup at night.",
                    ]),
                    s!("Documents", [
                        "ID or passport valid well beyond the return date.",
                        "Booking confirmations saved offline.",
                        "Insurance card and emergency numbers.",
                    ]),
                ],
            ),
            decision(
                "Accommodation choice",
                "Two or three places to stay for {subject} compared on price, location, reviews and cancellation terms, with one recommended.",
                &[
                    s!("Options", [
                        "Option A: central hotel – higher price, everything within walking distance.",
                        "Option B: apartment a short ride out – kitchen, more space.",
                        "Option C: guesthouse near the station – the cheapest.",
                    ]),
                    s!("Criteria", [
                        "Total cost for all nights.",
                        "Time to the main sights.",
                        "Free cancellation until a week before.",
                    ]),
                    s!("Recommendation", [
                        "Option B fits {budget|the budget} and gives flexibility for meals.",
                        "Book as soon as the dates are confirmed.",
                        "Keep option A as the fallback.",
                    ]),
                ],
            ),
            content(
                "Packing and practical tips",
                "A packing list matched to the weather and activities of {subject}, plus local tips on money, safety and etiquette.",
                &[
                    s!("Packing list", [
                        "Comfortable walking shoes and a light rain jacket.",
                        "Chargers, a plug adapter and a power bank.",
                        "Copies of documents, kept apart from the originals.",
                    ]),
                    s!("Local tips", [
                        "Cards are accepted almost everywhere; keep small cash for markets.",
                        "Check the local tipping customs.",
                        "Keep bags closed on busy transport.",
                    ]),
                    s!("Health and safety", [
                        "A basic first-aid kit and the usual medicines.",
                        "The local emergency number saved in the phone.",
                        "The itinerary shared with someone at home.",
                    ]),
                ],
            ),
        ],
        extra: content(
            "Rainy-day alternatives",
            "Indoor alternatives for each day of {subject} in case of bad weather, with opening hours and cost.",
            &[
                s!("Indoor options", [
                    "Museums with free or reduced-price days.",
                    "A covered market or food hall.",
                    "A cinema, a spa or a cooking class.",
                ]),
                s!("How to switch", [
                    "Check the forecast the evening before.",
                    "Swap the outdoor block for the indoor option in the same area.",
                    "Keep bookings flexible where possible.",
                ]),
            ],
        ),
        domains: &[
            ("Itinerary", "The day-by-day plan and its timing."),
            ("Budget", "Costs and the spending plan."),
            ("Bookings", "Transport, tickets and documents."),
            ("Accommodation", "Where to stay and why."),
            ("Practicalities", "Packing, safety and local tips."),
        ],
        missing: &[
            "The exact travel dates",
            "The departure city",
            "Dietary or mobility needs",
        ],
        objectives: "A complete, bookable plan for {subject}: itinerary, budget, bookings, accommodation choice and practical tips.",
        constraints: "Stays within the budget; realistic travel times; every booking has a deadline; rest time every day.",
    },
    Topic {
        kind: TopicKind::StudyPlan,
        label: "study plan",
        about: "for",
        keywords: &[
            "study", "exam", "learn", "course", "curriculum", "syllabus", "certification", "revise",
            "revision", "prepare for",
        ],
        products: &[
            content(
                "Goals and baseline",
                "The target for {subject} stated measurably, the current level from a short self-test, and the gap between the two.",
                &[
                    s!("Target", [
                        "What done looks like for {subject}: a pass mark or a skill you can demonstrate.",
                        "The deadline and the hours per week available.",
                        "Why it matters – written down and kept visible.",
                    ]),
                    s!("Baseline", [
                        "A short diagnostic test or one past paper.",
                        "Topics marked as strong, shaky or new.",
                        "What got in the way last time.",
                    ]),
                    s!("Gap", [
                        "New topics get the most time.",
                        "Shaky topics get spaced review.",
                        "Strong topics only get practice questions.",
                    ]),
                ],
            ),
            content(
                "Weekly schedule",
                "A week-by-week schedule for {subject} with sessions of fixed length, topics per week, review days and buffer weeks.",
                &[
                    s!("Week structure", [
                        "Short study sessions of a fixed length, plus one review session.",
                        "The hardest topic in the first session of the week.",
                        "One rest day without study.",
                    ]),
                    s!("Phases", [
                        "Weeks 1–4: learn the new topics.",
                        "Weeks 5–7: practice and fill the gaps.",
                        "Final weeks: mock tests under time.",
                    ]),
                    s!("Buffers", [
                        "One buffer week for illness or busy periods.",
                        "A missed session is moved, never skipped.",
                        "A few minutes of re-planning at the end of each week.",
                    ]),
                ],
            ),
            content(
                "Resources",
                "The books, courses and practice sets for {subject}, each matched to the topics it covers, with its cost.",
                &[
                    s!("Core", [
                        "One main textbook or course – not three.",
                        "The official syllabus or exam guide.",
                        "Past papers or practice sets.",
                    ]),
                    s!("Support", [
                        "A study partner or group once a week.",
                        "A flashcard app for spaced repetition.",
                        "Short videos for topics that stay unclear.",
                    ]),
                    s!("Avoid", [
                        "Collecting resources instead of studying.",
                        "Passive rereading.",
                        "Long sessions without breaks.",
                    ]),
                ],
            ),
            content(
                "Study methods",
                "The techniques to use for {subject} – active recall, spacing, practice testing – and how to apply each in one session.",
                &[
                    s!("Active recall", [
                        "Close the book and write down what you remember.",
                        "Turn headings into questions.",
                        "Check, and mark the gaps in red.",
                    ]),
                    s!("Spacing", [
                        "Review after a day, a few days and a week.",
                        "Mix old topics into new sessions.",
                        "Flashcards for facts and formulas.",
                    ]),
                    s!("Practice testing", [
                        "One timed practice set per week.",
                        "Every mistake analysed: why, and what to review.",
                        "Scores tracked in a simple table.",
                    ]),
                ],
            ),
            content(
                "Progress tracking",
                "A simple tracker for {subject} with weekly checkpoints, the measures used and what to do when behind schedule.",
                &[
                    s!("Measures", [
                        "Hours studied against hours planned.",
                        "Practice score per topic.",
                        "Topics moved from new to strong.",
                    ]),
                    s!("Checkpoints", [
                        "A short review at the end of each week.",
                        "A mock test at the end of each phase.",
                        "The plan changes when a score drops twice.",
                    ]),
                    s!("When behind", [
                        "Cut optional topics first.",
                        "Add one short session, not a long one.",
                        "Ask the study partner for help on the hardest topic.",
                    ]),
                ],
            ),
        ],
        extra: content(
            "Final-week plan",
            "What to do in the last week and on the day of the final assessment for {subject}.",
            &[
                s!("Last week", [
                    "Light review only; no new topics.",
                    "One full mock under real conditions.",
                    "Regular sleep and meals.",
                ]),
                s!("On the day", [
                    "ID, pens and permitted materials packed the night before.",
                    "Arrive 30 minutes early.",
                    "Read every question first; start with the ones you are sure of.",
                ]),
            ],
        ),
        domains: &[
            ("Goals", "The target, the baseline and the gap."),
            ("Scheduling", "The weekly schedule and its buffers."),
            ("Resources", "Books, courses and practice material."),
            ("Methods", "Study techniques and session design."),
            ("Tracking", "Progress measures and checkpoints."),
        ],
        missing: &[
            "The exact exam or deadline date",
            "The current level or a recent result",
            "Materials already owned",
        ],
        objectives: "A realistic study plan for {subject} with a measurable goal, a weekly schedule, resources, methods and progress checks.",
        constraints: "Fits the weekly hours given; evidence-based methods; rest and buffer time included; affordable resources.",
    },
    Topic {
        kind: TopicKind::Report,
        label: "short report",
        about: "on",
        keywords: &[
            "report", "analysis", "brief", "whitepaper", "white paper", "memo", "summary", "research",
            "review of", "overview",
        ],
        products: &[
            content(
                "Executive summary",
                "Half a page stating the question, the three main findings about {subject} and the recommendation, readable on its own.",
                &[
                    s!("Purpose", [
                        "This report looks at {subject} and what it means for the reader's next decisions.",
                        "It is written for {people|decision makers} with ten minutes to spare.",
                        "Sources and method are listed at the end.",
                    ]),
                    s!("Key findings", [
                        "Finding 1: the main trend in {subject} and how strong the evidence is.",
                        "Finding 2: the group most affected, and why.",
                        "Finding 3: the biggest open uncertainty.",
                    ]),
                    s!("Recommendation", [
                        "Act on the first finding now with a small, reversible step.",
                        "Review the evidence again once the first action has run.",
                        "One named owner for the follow-up.",
                    ]),
                ],
            ),
            content(
                "Background and method",
                "The context of {subject}, the questions asked, the sources used and their limits, in under a page.",
                &[
                    s!("Context", [
                        "Why {subject} is on the agenda now.",
                        "What was already known before this report.",
                        "Key terms, defined in one line each.",
                    ]),
                    s!("Questions", [
                        "What is happening?",
                        "Why does it matter to us?",
                        "What should we do next?",
                    ]),
                    s!("Sources and limits", [
                        "Public statistics and two or three recent studies.",
                        "Short interviews with people close to the topic.",
                        "Limits: small samples and data up to a year old.",
                    ]),
                ],
            ),
            content(
                "Findings and analysis",
                "Each finding on {subject} stated in one sentence, backed by evidence with a source, and given a confidence level.",
                &[
                    s!("Finding 1 – the trend", [
                        "Statement: the direction and size of the change in {subject}.",
                        "Evidence: the figures and where they come from.",
                        "Confidence: medium – two independent sources agree.",
                    ]),
                    s!("Finding 2 – who is affected", [
                        "Statement: the group that feels it most.",
                        "Evidence: survey results and interview quotes.",
                        "Confidence: medium to high.",
                    ]),
                    s!("Finding 3 – the open question", [
                        "Statement: what the evidence cannot tell yet.",
                        "Why it matters for the recommendation.",
                        "What data would settle it.",
                    ]),
                ],
            ),
            content(
                "Recommendations",
                "Three to five actions on {subject}, each with an owner, a cost level, a timing and the finding it rests on.",
                &[
                    s!("Actions", [
                        "Start a small pilot that tests the main idea within a quarter.",
                        "Set up a simple dashboard tracking the two key figures monthly.",
                        "Brief the team in a 30-minute session.",
                    ]),
                    s!("Trade-offs", [
                        "Quick wins against lasting change.",
                        "The cost of acting now against the cost of waiting.",
                        "What we stop doing to make room.",
                    ]),
                    s!("Next steps", [
                        "An owner named for each action.",
                        "A check-in date agreed, within {span|the time available}.",
                        "The report updated after the pilot.",
                    ]),
                ],
            ),
            content(
                "Sources and appendix",
                "Every source the report on {subject} cites, with enough detail to find it, plus the tables too long for the main text.",
                &[
                    s!("Sources", [
                        "Official statistics on {subject}, latest release.",
                        "A peer-reviewed study or industry survey, with its year.",
                        "Interview notes, anonymised.",
                    ]),
                    s!("Appendix", [
                        "The data table behind the main chart.",
                        "A glossary of terms.",
                        "The interview guide.",
                    ]),
                ],
            ),
        ],
        extra: content(
            "Charts and visuals",
            "Two or three simple charts that support the findings on {subject}, each with a title, a source and a one-line takeaway.",
            &[
                s!("Chart 1 – the trend", [
                    "The key figure for {subject} over the last few years, as a line chart.",
                    "The takeaway written above the chart.",
                    "Source and date below it.",
                ]),
                s!("Chart 2 – the comparison", [
                    "The groups most affected, as a bar chart.",
                    "The same colours as chart 1 for the same groups.",
                    "No more than six bars.",
                ]),
            ],
        ),
        domains: &[
            ("Synthesis", "The executive summary and the report's storyline."),
            ("Research", "Background, method and sources."),
            ("Analysis", "Findings and the evidence behind them."),
            ("Advice", "Recommendations and next steps."),
            ("Editing", "Sources, appendix and consistency."),
        ],
        missing: &[
            "The deadline for the report",
            "Data or documents already available",
            "The preferred citation style",
        ],
        objectives: "A short, sourced report on {subject} that says what is happening, why it matters and what to do next.",
        constraints: "Every claim backed by a named source; plain language; the length the person asks for; no confidential data.",
    },
    Topic {
        kind: TopicKind::Event,
        label: "event plan",
        about: "for",
        keywords: &[
            "swap", "party", "fair", "festival", "fundraiser", "quiz", "dinner", "gathering",
            "picnic", "celebration", "event", "reunion", "wedding", "sale", "concert",
            "tournament", "open day", "barbecue", "bbq", "jumble", "get-together",
        ],
        products: &[
            content(
                "Scope and goals",
                "What {subject} includes and excludes, three measurable goals and the people it serves.",
                &[
                    s!("In scope", [
                        "The core result the person asked for: {subject}.",
                        "Everything {thing} needs on the day at {place|the venue}, for {people|everyone taking part}.",
                        "A walk-through of {thing} with the person before it is called done.",
                    ]),
                    s!("Out of scope", [
                        "Extras for {thing} that go beyond {budget|the agreed budget}, listed for later.",
                        "Anything {people|the people it serves} did not ask for.",
                        "Decisions about {place|the venue} that belong to whoever runs it.",
                    ]),
                    s!("Goals", [
                        "Goal 1: {thing} ready for {when|the agreed date}, with nothing critical open.",
                        "Goal 2: {people|the people it serves} confirm {thing} met their need.",
                        "Goal 3: spending stays within {budget|the budget}, with every cost written down.",
                    ]),
                ],
            ),
            content(
                "Work plan",
                "The work on {subject} broken into phases and tasks, with owners, effort and dates.",
                &[
                    s!("Phases", [
                        "Phase 1 – Prepare {thing}: confirm {place|the venue}, {when|the date} and {budget|the budget}.",
                        "Phase 2 – Get ready: line up {team|helpers} and everything {people|the people taking part} will need.",
                        "Phase 3 – Run {thing}, then tidy up and collect feedback.",
                    ]),
                    s!("Tasks", [
                        "Book {place|the venue} and confirm access for {when|the day}.",
                        "Spread the word so {people|enough people} know about {thing}.",
                        "Keep a running list of costs against {budget|the budget}.",
                    ]),
                    s!("Milestones", [
                        "A month before {when|the date}: {place|the venue} booked and {team|helpers} briefed.",
                        "One week before: numbers checked against {people|the expected turnout}.",
                        "On {when|the day}: {thing} runs, then a short look back.",
                    ]),
                ],
            ),
            content(
                "Stakeholders and communication",
                "Who cares about {subject}, what each needs to know, and how and when they hear from the team.",
                &[
                    s!("Stakeholders", [
                        "The person who asked: decides on the scope of {thing} and signs it off.",
                        "{People|The people it serves}: give input beforehand and feedback after.",
                        "Whoever runs {place|the venue}: kept informed of times, numbers and set-up.",
                    ]),
                    s!("Communication", [
                        "A short weekly update on {thing}: done, next, blocked.",
                        "An invitation that states {when|the date}, {place|the place} and what to bring.",
                        "One contact for questions about {thing}, answered within a day.",
                    ]),
                ],
            ),
            content(
                "Risks and mitigations",
                "The top five risks to {subject}, each with likelihood, impact, owner and mitigation.",
                &[
                    s!("Top risks", [
                        "Fewer or more than {people|the expected number} turn up – possible, high impact.",
                        "Costs creep past {budget|the budget} – likely, medium impact.",
                        "{Place|The venue} falls through close to {when|the date} – unlikely, high impact.",
                    ]),
                    s!("Mitigations", [
                        "Registration or a show of hands a week ahead, to size {thing}.",
                        "Every spend against {budget|the budget} agreed before it is made.",
                        "A second option for {place|the venue} noted, with its contact.",
                    ]),
                ],
            ),
            decision(
                "Approach decision",
                "Two or three ways to deliver {subject} compared on cost, time and quality, with a recommended option and who decides.",
                &[
                    s!("Options", [
                        "Option A: run {thing} with {team|volunteers} and what is already to hand.",
                        "Option B: pay for help or supplies, within {budget|the budget}.",
                        "Option C: a small trial run of {thing} first, then decide.",
                    ]),
                    s!("Criteria", [
                        "Total cost against {budget|the budget}, including helpers' time.",
                        "Whether it is ready by {when|the agreed date}.",
                        "How well it works for {people|the people it serves}.",
                    ]),
                    s!("Recommendation", [
                        "Option A: it keeps {thing} within {budget|the budget} and leaves room for surprises.",
                        "The person who asked decides, after seeing the costs side by side.",
                        "The decision on {thing} and its reasons are recorded here.",
                    ]),
                ],
            ),
        ],
        extra: content(
            "Handover checklist",
            "Everything needed to hand {subject} over: documents, owners, open issues and a sign-off.",
            &[
                s!("Documents", [
                    "The final versions of every product for {thing}, in one place.",
                    "A one-page summary of decisions, with what was spent against {budget|the budget}.",
                    "Contacts for {place|the venue} and {team|the helpers}, for next time.",
                ]),
                s!("Sign-off", [
                    "Open issues about {thing} listed, with an owner each.",
                    "The person who asked confirms {thing} met its goals for {people|the people it served}.",
                    "A date, a month after {when|the event}, for a short look back.",
                ]),
            ],
        ),
        domains: &[
            ("Venue and date", "The place, the date and the set-up."),
            ("Guests", "Invitations, numbers and what guests need."),
            ("Budget", "Costs, supplies and who pays for what."),
            ("Helpers", "Who does what before, during and after."),
            ("Risks", "What could go wrong on the day, and plan B."),
        ],
        missing: &[
            "The date",
            "The budget",
            "Who signs off the result",
        ],
        objectives: "A clear, doable plan for {subject}: scope, tasks and dates, who to tell, what could go wrong and how to run it.",
        constraints: "Run by a few volunteers; every task has an owner; spending agreed before it is made; nothing outside the agreed scope.",
    },
    Topic {
        kind: TopicKind::Generic,
        label: "project plan",
        about: "for",
        keywords: &[],
        products: &[
            content(
                "Scope and goals",
                "What {subject} includes and excludes, three measurable goals and the people it serves.",
                &[
                    s!("In scope", [
                        "The core result the person asked for: {subject}.",
                        "The work needed to make it usable by the people it serves.",
                        "A review with the person before it is called done.",
                    ]),
                    s!("Out of scope", [
                        "Nice-to-have extensions, listed for later.",
                        "Work that needs more than {budget|the approved budget}.",
                        "Decisions that belong to other teams.",
                    ]),
                    s!("Goals", [
                        "Goal 1: a first usable version within the agreed time.",
                        "Goal 2: the people it serves confirm it meets their need.",
                        "Goal 3: no open critical issue at handover.",
                    ]),
                ],
            ),
            content(
                "Work plan",
                "The work on {subject} broken into phases and tasks, with owners, effort and dates.",
                &[
                    s!("Phases", [
                        "Phase 1 – Discover: gather needs and constraints.",
                        "Phase 2 – Build: produce the main deliverables.",
                        "Phase 3 – Review and hand over.",
                    ]),
                    s!("Tasks", [
                        "Each task small enough to finish in a week.",
                        "One owner per task; helpers named separately.",
                        "Dependencies written next to the task.",
                    ]),
                    s!("Milestones", [
                        "End of discovery: needs signed off.",
                        "Mid-point: first version shown to the person.",
                        "End: handover and sign-off.",
                    ]),
                ],
            ),
            content(
                "Stakeholders and communication",
                "Who cares about {subject}, what each needs to know, and how and when they hear from the team.",
                &[
                    s!("Stakeholders", [
                        "The person who asked: decides on scope and sign-off.",
                        "The people who will use the result: give input and test it.",
                        "Anyone whose work changes because of it: kept informed.",
                    ]),
                    s!("Communication", [
                        "A short weekly update: done, next, blocked.",
                        "A demo at each milestone.",
                        "One channel for questions, answered within a day.",
                    ]),
                ],
            ),
            content(
                "Risks and mitigations",
                "The top five risks to {subject}, each with likelihood, impact, owner and mitigation.",
                &[
                    s!("Top risks", [
                        "Scope grows faster than the time available – likely, high impact.",
                        "A key person becomes unavailable – possible, high impact.",
                        "Needs are misunderstood – possible, medium impact.",
                    ]),
                    s!("Mitigations", [
                        "A change list reviewed weekly; new items trade against old ones.",
                        "A second person knows every critical task.",
                        "A first draft shown early to the people it serves.",
                    ]),
                ],
            ),
            decision(
                "Approach decision",
                "Two or three ways to deliver {subject} compared on cost, time and quality, with a recommended option and who decides.",
                &[
                    s!("Options", [
                        "Option A: do it in-house with the current team.",
                        "Option B: buy or adapt an existing solution.",
                        "Option C: a small pilot first, then decide.",
                    ]),
                    s!("Criteria", [
                        "Total cost, including the team's time.",
                        "Time to a first usable result.",
                        "Quality and how easy it is to change later.",
                    ]),
                    s!("Recommendation", [
                        "Option C: it lowers the risk at a small cost in time.",
                        "The person who asked decides, after the pilot review.",
                        "The decision and its reasons are recorded here.",
                    ]),
                ],
            ),
        ],
        extra: content(
            "Handover checklist",
            "Everything needed to hand {subject} over: documents, owners, open issues and a sign-off.",
            &[
                s!("Documents", [
                    "The final versions of every product, in one place.",
                    "A one-page summary of decisions and their reasons.",
                    "Contacts for questions after the handover.",
                ]),
                s!("Sign-off", [
                    "Open issues listed with an owner each.",
                    "The person who asked confirms the goals are met.",
                    "A date for a short review one month later.",
                ]),
            ],
        ),
        domains: &[
            ("Scope", "Scope, goals and the people served."),
            ("Planning", "Phases, tasks and milestones."),
            ("Communication", "Stakeholders and updates."),
            ("Risk", "Risks and mitigations."),
            ("Decisions", "Options and the recommended approach."),
        ],
        missing: &[
            "The deadline",
            "The budget",
            "Who signs off the result",
        ],
        objectives: "A clear, actionable plan for {subject}: scope, work plan, stakeholders, risks and the approach to take.",
        constraints: "Realistic for a small team; every task has an owner; decisions recorded with their reasons; nothing outside the agreed scope.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_takes_what_follows_the_first_marker() {
        assert_eq!(
            subject("Plan a half-day workshop on data privacy for nurses."),
            "data privacy for nurses"
        );
        assert_eq!(subject("A 4-day trip to Lisbon in May"), "Lisbon in May");
        assert_eq!(subject(""), "the project");
        assert_eq!(subject("Gardening"), "Gardening");
    }

    #[test]
    fn subject_skips_audiences_durations_and_leading_verbs() {
        assert_eq!(
            subject("Plan a one-day design workshop for 20 people"),
            "design"
        );
        assert_eq!(
            subject("Make me a study plan to pass the AWS Solutions Architect exam"),
            "AWS Solutions Architect"
        );
        assert_eq!(
            subject("We need a launch plan for our budgeting app next spring"),
            "our budgeting app next spring"
        );
        assert_eq!(
            subject("Organise the renovation of our community garden shed"),
            "our community garden shed"
        );
        assert_eq!(subject("Write a market analysis report"), "market analysis");
        assert_eq!(subject("Please help with gardening"), "with gardening");
        assert_eq!(subject("Help me learn Spanish in 3 months"), "Spanish");
        assert_eq!(
            subject("I want to visit Japan with kids"),
            "Japan with kids"
        );
    }

    #[test]
    fn a_gathering_keeps_its_head_noun_and_a_date_is_no_subject() {
        assert_eq!(
            subject(
                "Organise a two-day team offsite for 12 people in September with a £6000 budget."
            ),
            "team offsite"
        );
        assert_eq!(
            subject("We need a launch plan for our budgeting app, launching on Monday 3 March with £2000 for ads."),
            "our budgeting app"
        );
        assert_eq!(
            detect("Plan a one-hour retrospective for our team of 6 after the spring release.")
                .kind,
            TopicKind::Workshop,
            "a retrospective is a session the team runs, not a launch"
        );
    }

    #[test]
    fn subject_never_panics_on_unicode() {
        for r in [
            "İstanbul trip for İ",
            "Über-Workshop über Datenschutz",
            "日本への旅行 for 家族",
        ] {
            assert!(!subject(r).is_empty());
        }
    }

    #[test]
    fn subject_is_cut_at_a_word() {
        let long = "Write about ".to_string() + &"lovely words ".repeat(20);
        let sub = subject(&long);
        assert!(sub.chars().count() <= SUBJECT_MAX);
        assert!(sub.ends_with("words") || sub.ends_with("lovely"), "{sub}");
    }

    #[test]
    fn every_topic_has_enough_material() {
        for t in TOPICS.iter() {
            assert_eq!(t.products.len(), 5, "{:?}", t.kind);
            assert!(t.domains.len() >= 5);
            for p in t.products.iter().chain([&t.extra]) {
                assert!(!p.sections.is_empty());
                assert!(p.sections.iter().all(|s| s.bullets().count() >= 2));
            }
        }
    }
}
