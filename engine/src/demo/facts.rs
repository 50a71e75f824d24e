//! What the demo takes from the person's own words: the figures and nouns of the request, the
//! items of their answer, and which of the topic's usual open points those settle.
//!
//! So a book swap "for 40 people with a £50 budget", answered "Saturday 14 June, the village
//! hall", gets products that name 40 people, £50, the village hall and 14 June, and no longer
//! list the date or the budget as "to confirm". Pure text work: no parsing of prose beyond
//! splitting at commas and spotting digits, currency signs and a few telling words.

/// Words too common to name what a request is about.
const STOP: &[&str] = &[
    "about", "after", "also", "and", "around", "because", "before", "being", "between", "both",
    "could", "each", "every", "from", "have", "help", "into", "just", "like", "make", "many",
    "more", "most", "much", "need", "needs", "only", "other", "over", "plan", "please", "should",
    "some", "such", "than", "that", "their", "them", "then", "there", "these", "they", "this",
    "those", "through", "under", "very", "want", "what", "when", "where", "which", "while", "will",
    "with", "within", "without", "would", "your", "ours", "write", "draft", "prepare", "create",
    "organise", "organize", "people", "small", "with", "make", "using", "under", "for", "in", "on",
    "at", "to", "of", "by", "and", "or", "the", "a", "an", "per",
];

/// Words that follow a figure and belong to it ("40 people", "3 weeks", "£50 budget").
fn is_word(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_alphabetic() || c == '-')
}

/// A token with its punctuation trimmed from both ends (a currency sign or % is kept).
fn trim_token(t: &str) -> &str {
    t.trim_matches(|c: char| !(c.is_alphanumeric() || "£$€%".contains(c)))
}

/// Numbers written as words, which count as figures too ("twelve people", "a two-day workshop").
const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "hundred", "half",
];

/// Whether a token is a figure: it has a digit, or it is (or starts, before a hyphen) a number
/// word.
pub fn is_figure(t: &str) -> bool {
    let lower = t.to_lowercase();
    let head = lower.split('-').next().unwrap_or("");
    t.chars().any(|c| c.is_ascii_digit())
        || (NUMBER_WORDS.contains(&head) && (head != lower || lower != "one"))
}

/// The figures of a text with the word after each, in order: "40 people", "£50 budget",
/// "3 weeks", "14 June". Each at most once.
pub fn figures(text: &str) -> Vec<String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    for (i, raw) in tokens.iter().enumerate() {
        let t = trim_token(raw);
        if !is_figure(t) {
            continue;
        }
        let ends_clause = raw.ends_with([',', '.', ';', ':', '!', '?', ')']);
        let next = tokens.get(i + 1).map(|n| trim_token(n)).unwrap_or("");
        let after = tokens.get(i + 2).map(|n| trim_token(n)).unwrap_or("");
        let phrase = if !ends_clause
            && !tokens[i + 1..]
                .first()
                .is_some_and(|n| n.ends_with([',', '.', ';']))
            && is_word(next)
            && PEOPLE.contains(&after.to_lowercase().as_str())
        {
            // "12 sales managers": the people a figure counts may come two words on.
            format!("{t} {next} {after}")
        } else if !ends_clause && is_word(next) && !STOP.contains(&next.to_lowercase().as_str())
            || next.eq_ignore_ascii_case("people")
        {
            format!("{t} {next}")
        } else {
            t.to_string()
        };
        if !out.contains(&phrase) {
            out.push(phrase);
        }
    }
    out
}

/// The nouns (content words) a request is about, lower case, in order, at most `max`.
pub fn nouns(text: &str, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in text.split_whitespace() {
        let w = trim_token(raw).to_lowercase();
        if w.chars().count() < 4 || !is_word(&w) || STOP.contains(&w.as_str()) || w.ends_with("ly")
        {
            continue;
        }
        if !out.contains(&w) {
            out.push(w);
        }
        if out.len() == max {
            break;
        }
    }
    out
}

/// The items of the person's answer, each whole: split at commas, semicolons and line breaks,
/// with a closing full stop and a leading "and / or / but" removed. "Saturday 14 June, the village
/// hall, £50 for tea and snacks." gives ["Saturday 14 June", "the village hall", "£50 for tea and snacks"].
pub fn items(answer: &str) -> Vec<String> {
    answer
        .split([',', ';', '\n'])
        .map(|s| {
            let s = s.trim().trim_end_matches(['.', '!']).trim();
            // "…, and a budget of £200": the item without the word that joined it to the last.
            let lower = s.to_lowercase();
            ["and ", "or ", "but ", "also "]
                .iter()
                .find(|c| lower.starts_with(*c))
                .map_or(s, |c| s[c.len()..].trim_start())
                .to_string()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// What an open point about a date says.
const DATE_POINTS: &[&str] = &["date", "deadline", "when", "timing", "dates", "by when"];

/// Groups of words: when an open point names one of the first words, a text that has one of
/// the second settles it.
const SETTLERS: &[(&[&str], &[&str])] = &[
    (
        &["budget", "cost", "price", "money", "spend"],
        &[
            "£", "$", "€", "budget", "free", "no cost", "cost", "pounds", "euros", "dollars",
        ],
    ),
    (
        DATE_POINTS,
        // And any month or weekday name (`CALENDAR`, as a whole word).
        &[
            "weekend",
            "next week",
            "tomorrow",
            "date",
            "deadline",
            "by the end",
            "in two weeks",
            "in a month",
            "weeks",
            "days",
        ],
    ),
    (
        &["venue", "where", "location", "place", "city"],
        &[
            "hall", "room", "venue", "online", "office", "library", "park", "school", "church",
            "café", "cafe", "pub", "centre", "center", "at home", "zoom", "city",
        ],
    ),
    (
        &[
            "participants",
            "people",
            "audience",
            "guests",
            "size",
            "level",
            "know",
        ],
        &[
            "people",
            "participants",
            "guests",
            "attendees",
            "beginners",
            "experts",
            "students",
            "team of",
            "governors",
            "managers",
            "readers",
        ],
    ),
    (
        &["citation", "style"],
        &[
            "apa",
            "mla",
            "harvard",
            "chicago",
            "vancouver",
            "ieee",
            "footnotes",
            "style",
        ],
    ),
    (
        &["data or documents", "sources"],
        &[
            "studies",
            "sources",
            "data",
            "documents",
            "papers",
            "articles",
            "reports",
        ],
    ),
    (
        &["signs off", "approves", "decides", "go/no-go"],
        &[
            "signs off",
            "sign off",
            "approve",
            "decides",
            "i decide",
            "me",
        ],
    ),
];

/// Whether `text` (the request and the person's answer) settles the open point `point`.
pub fn settles(point: &str, text: &str) -> bool {
    let point = point.to_lowercase();
    let text = format!("{} ", text.to_lowercase());
    let dated = || {
        text.split(|c: char| !c.is_alphanumeric())
            .any(|w| CALENDAR.contains(&w))
    };
    if DATE_POINTS.iter().any(|n| point.contains(n)) && dated() {
        return true;
    }
    SETTLERS.iter().any(|(names, answers)| {
        names.iter().any(|n| point.contains(n)) && answers.iter().any(|a| text.contains(a))
    })
}

/// Words after a figure that say it counts people.
const PEOPLE: &[&str] = &[
    "people",
    "participants",
    "guests",
    "attendees",
    "students",
    "users",
    "members",
    "kids",
    "children",
    "families",
    "staff",
    "volunteers",
    "colleagues",
    "players",
    "pupils",
    "readers",
    "customers",
    "visitors",
    "employees",
    "nurses",
    "engineers",
    "developers",
    "adults",
    "managers",
    "teachers",
    "parents",
    "founders",
    "designers",
];

/// Words of people who do the work rather than receive it ("with 3 developers").
const TEAM: &[&str] = &[
    "developers",
    "engineers",
    "staff",
    "volunteers",
    "designers",
    "helpers",
    "volunteer",
    "helper",
    "developer",
];

/// Words that say a figure is a length of time ("3 weeks", "two-day").
const SPANS: &[&str] = &[
    "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "month", "months",
    "year", "years", "evening", "evenings", "weekend", "weekends", "session", "sessions",
];

/// Month and weekday names, which make a figure (or an answer item) a date.
const CALENDAR: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "spring",
    "summer",
    "autumn",
    "winter",
    "q1",
    "q2",
    "q3",
    "q4",
];

/// Whether a word names a month, a weekday or a season ("March", "monday").
pub fn is_calendar(word: &str) -> bool {
    CALENDAR.contains(&trim_token(word).to_lowercase().as_str())
}

/// Words that name a place.
const PLACES: &[&str] = &[
    "hall",
    "room",
    "venue",
    "library",
    "park",
    "school",
    "church",
    "café",
    "cafe",
    "pub",
    "centre",
    "center",
    "office",
    "studio",
    "lab",
    "museum",
    "hotel",
    "campus",
    "university",
    "gym",
    "kitchen",
    "barn",
    "square",
    "online",
    "zoom",
    "teams",
];

/// What a request and the person's answer fix, sorted by kind, so a product can put each where
/// it belongs: the head count in the audience, the money in the costs, the date in the timeline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// How many people, with the word that counts them ("40 people").
    pub people: Option<String>,
    /// The money ("£50").
    pub money: Option<String>,
    /// When ("Saturday 14 June", "March").
    pub when: Option<String>,
    /// How long ("3 weeks", "two-day").
    pub span: Option<String>,
    /// Where, with its article ("the village hall").
    pub place: Option<String>,
    /// Who does the work, when the request or the answer counts them ("3 volunteers", "3
    /// developers").
    pub team: Option<String>,
    /// Every other figure of the request, with its word ("5 screens").
    pub others: Vec<String>,
    /// The request's content words beyond the subject, lower case ("book", "swap", "hall").
    pub nouns: Vec<String>,
}

fn words_of(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| trim_token(w).to_lowercase())
        .collect()
}

fn has_any(text: &str, list: &[&str]) -> bool {
    words_of(text).iter().any(|w| {
        list.contains(&w.as_str())
            || w.rsplit_once('-')
                .is_some_and(|(_, unit)| list.contains(&unit))
    })
}

/// The place named in a text: from "in / at" up to the place word, with "the" kept ("in the
/// village hall" gives "the village hall").
fn place_in(text: &str) -> Option<String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let is_place = |t: &str| PLACES.contains(&trim_token(t).to_lowercase().as_str());
    // A place word that qualifies the next noun ("school governors", "hall rental") is not a
    // place; "the village hall, …" and "the hall at 2 pm" are.
    let qualifies = |i: usize| {
        !tokens[i].ends_with([',', '.', ';', ':'])
            && tokens.get(i + 1).is_some_and(|n| {
                let n = trim_token(n).to_lowercase();
                is_word(&n)
                    && !PLACES.contains(&n.as_str())
                    && !STOP.contains(&n.as_str())
                    && ![
                        "is", "was", "has", "which", "that", "where", "if", "so", "but",
                    ]
                    .contains(&n.as_str())
            })
            && !tokens
                .get(i + 1)
                .is_some_and(|n| PLACES.contains(&trim_token(n).to_lowercase().as_str()))
    };
    let Some(mut at) = (0..tokens.len()).find(|&i| is_place(tokens[i]) && !qualifies(i)) else {
        return town_in(&tokens);
    };
    // "the hotel conference room": up to the last place word close after the first.
    'ahead: loop {
        for step in 1..=2 {
            if at + step < tokens.len()
                && !tokens[at..at + step]
                    .iter()
                    .any(|t| t.ends_with([',', '.', ';']))
                && is_place(tokens[at + step])
            {
                at += step;
                continue 'ahead;
            }
        }
        break;
    }
    let mut start = at;
    while start > 0 && at - start < 3 {
        let prev = trim_token(tokens[start - 1]).to_lowercase();
        if [
            "in", "at", "from", "to", "for", "on", "near", "of", "with", "and",
        ]
        .contains(&prev.as_str())
            || tokens[start - 1].ends_with([',', '.', ';'])
            || is_figure(&prev)
        {
            break;
        }
        start -= 1;
    }
    let phrase: Vec<&str> = tokens[start..=at].iter().map(|t| trim_token(t)).collect();
    let phrase = phrase.join(" ");
    let lower = phrase.to_lowercase();
    Some(
        if lower.starts_with("the ") || lower.starts_with("our ") || lower == "online" {
            phrase
        } else {
            format!("the {phrase}")
        },
    )
}

/// A town or city named after "in / at" with a capital letter ("in Leeds"), when no place word
/// is there.
fn town_in(tokens: &[&str]) -> Option<String> {
    tokens.windows(2).find_map(|w| {
        let next = trim_token(w[1]);
        (["in", "at"].contains(&w[0].to_lowercase().as_str())
            && next.chars().next().is_some_and(char::is_uppercase)
            && !has_any(next, CALENDAR))
        .then(|| next.to_string())
    })
}

/// A date item cut before its time of day or a second clause: "Saturday 14 June from 2 pm" gives
/// "Saturday 14 June".
fn date_part(item: &str) -> String {
    // From the first figure or calendar word: "Launch in March" gives "March".
    let start = item
        .split_whitespace()
        .position(|w| is_figure(trim_token(w)) || has_any(w, CALENDAR))
        .unwrap_or(0);
    let item = item
        .split_whitespace()
        .skip(start)
        .collect::<Vec<_>>()
        .join(" ");
    let item = item.as_str();
    let lower = item.to_lowercase();
    let end = [" from ", " at ", " between ", " after ", " before "]
        .iter()
        .filter_map(|m| lower.find(m))
        .min()
        .unwrap_or(item.len());
    item[..end].trim().to_string()
}

impl Facts {
    /// The facts of a request, with what the person answered filling in (and, for the date and
    /// the place, taking over from) what the request left vague.
    pub fn of(request: &str, answer: Option<&str>) -> Facts {
        let mut f = Facts::default();
        for fig in figures(request) {
            let lower = fig.to_lowercase();
            let word = lower.split_whitespace().nth(1).unwrap_or("");
            if fig.contains(['£', '$', '€']) || ["pounds", "euros", "dollars"].contains(&word) {
                if f.money.is_none() {
                    f.money = Some(fig.split_whitespace().next().unwrap_or(&fig).to_string());
                    continue;
                }
            } else if TEAM.contains(&word)
                && f.team.is_none()
                && (request.to_lowercase().contains(&format!("with {lower}")) || f.people.is_some())
            {
                f.team = Some(fig);
                continue;
            } else if PEOPLE.contains(&lower.rsplit(' ').next().unwrap_or("")) && f.people.is_none()
            {
                f.people = Some(fig);
                continue;
            } else if has_any(&lower, CALENDAR) && f.when.is_none() {
                f.when = Some(fig);
                continue;
            } else if has_any(&lower, SPANS) && f.span.is_none() {
                f.span = Some(fig);
                continue;
            }
            f.others.push(fig);
        }
        if f.when.is_none() {
            f.when = request
                .split_whitespace()
                .map(trim_token)
                .find(|w| has_any(w, CALENDAR) && w.chars().next().is_some_and(char::is_uppercase))
                .map(str::to_string);
        }
        f.place = place_in(request);
        for item in answer.map(items).unwrap_or_default() {
            let lower = item.to_lowercase();
            if f.team.is_none() && has_any(&lower, TEAM) {
                // "3 volunteers", "two helpers from the library": who does the work.
                f.team = figures(&item)
                    .into_iter()
                    .find(|fig| has_any(fig, TEAM))
                    .or_else(|| Some(item.clone()));
                continue;
            }
            if f.people.is_none() && lower.starts_with("for ") && !item.contains(['£', '$', '€'])
            {
                // "For school governors": who it is for.
                let who = item[4..].trim();
                let who = who
                    .strip_prefix("the ")
                    .or_else(|| who.strip_prefix("The "))
                    .unwrap_or(who);
                if !who.is_empty() {
                    f.people = Some(who.to_string());
                    continue;
                }
            }
            if has_any(&lower, CALENDAR) {
                f.when = Some(date_part(&item));
            } else if has_any(&lower, PLACES) {
                f.place = place_in(&item).or(f.place);
            } else if !item.contains(['£', '$', '€']) && item.chars().any(|c| c.is_ascii_digit())
            {
                // "500 sign-ups in the first month": a figure the products keep.
                f.others.push(item.clone());
            } else if f.money.is_none() && item.contains(['£', '$', '€']) {
                f.money = item
                    .split_whitespace()
                    .find(|w| w.contains(['£', '$', '€']))
                    .map(|w| trim_token(w).to_string());
            }
        }
        f.nouns = nouns(request, 8);
        f
    }

    /// Every figure and fact, for a list of what to keep.
    pub fn all(&self) -> Vec<String> {
        let mut out: Vec<String> = [
            &self.people,
            &self.money,
            &self.when,
            &self.span,
            &self.place,
            &self.team,
        ]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
        out.extend(self.others.iter().cloned());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_keep_the_word_they_count() {
        assert_eq!(
            figures("Plan a book swap in the village hall for 40 people with a £50 budget."),
            vec!["40 people", "£50 budget"]
        );
        assert_eq!(figures("3 weeks, 12 people."), vec!["3 weeks", "12 people"]);
        assert_eq!(figures("with £2000 for ads"), vec!["£2000"]);
        assert!(figures("no numbers here").is_empty());
        assert_eq!(
            figures("Plan a two-day workshop for a small agency of twelve people."),
            vec!["two-day workshop", "twelve people"]
        );
    }

    #[test]
    fn items_are_whole_and_open_points_are_settled_by_what_was_said() {
        assert_eq!(
            items("Saturday 14 June, the village hall, no budget beyond £50 for tea and snacks."),
            vec![
                "Saturday 14 June",
                "the village hall",
                "no budget beyond £50 for tea and snacks"
            ]
        );
        let said = "book swap for 40 people. Saturday 14 June, the village hall, £50";
        assert!(settles("The deadline", said));
        assert!(settles("The budget", said));
        assert!(settles("The exact date and venue", said));
        assert!(!settles("Who signs off the result", "40 people, £50"));
    }

    #[test]
    fn facts_are_sorted_by_kind_and_the_answer_fills_in() {
        let f = Facts::of(
            "Plan a book swap in the village hall for 40 people on a £50 budget.",
            Some("Saturday 14 June from 2 pm, 3 volunteers."),
        );
        assert_eq!(f.people.as_deref(), Some("40 people"));
        assert_eq!(f.money.as_deref(), Some("£50"));
        assert_eq!(f.place.as_deref(), Some("the village hall"));
        assert_eq!(f.when.as_deref(), Some("Saturday 14 June"));
        assert_eq!(f.team.as_deref(), Some("3 volunteers"));
        let f = Facts::of(
            "We need a launch plan for our app in Leeds, with 3 developers and £2000 for ads.",
            Some("Launch in March."),
        );
        assert_eq!(f.team.as_deref(), Some("3 developers"));
        assert_eq!(
            f.people, None,
            "developers who build it are not its audience"
        );
        assert_eq!(f.place.as_deref(), Some("Leeds"));
        assert_eq!(f.when.as_deref(), Some("March"));
        let f = Facts::of(
            "Plan a two-day workshop for 12 sales managers.",
            Some("the hotel conference room, Thursday 9 October"),
        );
        assert_eq!(f.people.as_deref(), Some("12 sales managers"));
        assert_eq!(f.span.as_deref(), Some("two-day workshop"));
        assert_eq!(f.place.as_deref(), Some("the hotel conference room"));
        let f = Facts::of(
            "Write a research review on sleep in teenagers, 10 pages.",
            Some("For school governors, APA style."),
        );
        assert_eq!(f.people.as_deref(), Some("school governors"));
        assert_eq!(f.place, None, "“school governors” names no place");
        assert!(settles("The preferred citation style", "APA style"));
        assert_eq!(Facts::of("", None), Facts::default());
    }

    #[test]
    fn nouns_are_content_words() {
        assert_eq!(
            nouns("Plan a book swap in the village hall for 40 people", 5),
            vec!["book", "swap", "village", "hall"]
        );
    }
}
