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
    "organise", "organize", "people", "small", "with", "make", "using", "under",
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
fn is_figure(t: &str) -> bool {
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
        let phrase =
            if !ends_clause && is_word(next) && !STOP.contains(&next.to_lowercase().as_str())
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
/// with a closing full stop removed. "Saturday 14 June, the village hall, £50 for tea and
/// snacks." gives ["Saturday 14 June", "the village hall", "£50 for tea and snacks"].
pub fn items(answer: &str) -> Vec<String> {
    answer
        .split([',', ';', '\n'])
        .map(|s| s.trim().trim_end_matches(['.', '!']).trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

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
        &["date", "deadline", "when", "timing", "dates", "by when"],
        &[
            "january",
            "february",
            "march",
            "april",
            "may ",
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
    SETTLERS.iter().any(|(names, answers)| {
        names.iter().any(|n| point.contains(n)) && answers.iter().any(|a| text.contains(a))
    })
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
    fn nouns_are_content_words() {
        assert_eq!(
            nouns("Plan a book swap in the village hall for 40 people", 5),
            vec!["book", "swap", "village", "hall"]
        );
    }
}
