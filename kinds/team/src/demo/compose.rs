//! The demo's writing desk: the per-call context every step builder shares, and the Markdown a
//! version of a product is made of.
//!
//! A version is written from its product's template (see [`super::topics`]) when the product is one
//! the demo proposed, or from its name and definition of done otherwise, so that products a person
//! or a real model added still get sensible text. First drafts leave a few points open; revisions
//! fill every section and say which feedback they took in — what a reader expects to see change
//! from v1 to v2.

use super::facts::Facts;
use super::input::{DemoCollab, DemoInput, DemoProduct};
use super::rng::SplitMix64;
use super::topics::{self, ProductTemplate, Topic};
use roundtable_engine::text::cut_at_word;

/// What one call's answer is built from.
pub(crate) struct Ctx<'a> {
    /// The call.
    pub input: &'a DemoInput,
    /// The kind of request.
    pub topic: &'static Topic,
    /// The request's subject.
    pub subject: String,
    /// What the request and the person's answer fix: head count, money, date, length, place.
    pub facts: Facts,
    /// This call's random stream.
    pub rng: SplitMix64,
}

impl<'a> Ctx<'a> {
    /// A context for one call.
    pub fn new(input: &'a DemoInput, rng: SplitMix64) -> Self {
        Ctx {
            input,
            topic: topics::detect(&input.request),
            subject: {
                let topic = topics::detect(&input.request);
                let subject = topics::subject(&input.request);
                // "the book swap": an event is a thing with an article.
                let bare = !["a ", "an ", "the ", "our ", "my "]
                    .iter()
                    .any(|a| subject.to_lowercase().starts_with(a));
                if topic.kind == topics::TopicKind::Event && bare {
                    format!("the {subject}")
                } else {
                    subject
                }
            },
            facts: Facts::of(&input.request, input.person_answer.as_deref()),
            rng,
        }
    }

    /// The whole result in a phrase: "workshop plan on data privacy", "trip plan for a weekend in
    /// Rome".
    pub fn work(&self) -> String {
        format!("{} {} {}", self.topic.label, self.topic.about, self.subject)
    }

    /// Everything the person said: the request and their answer to the question.
    pub fn said(&self) -> String {
        format!(
            "{}\n{}",
            self.input.request,
            self.input.person_answer.as_deref().unwrap_or("")
        )
    }

    /// The items of the person's answer, each whole ([`super::facts::items`]).
    pub fn settled(&self) -> Vec<String> {
        self.input
            .person_answer
            .as_deref()
            .map(super::facts::items)
            .unwrap_or_default()
    }

    /// The topic's usual open points that neither the request nor the answer settles.
    pub fn open_points(&self) -> Vec<String> {
        let said = self.said();
        self.topic
            .missing
            .iter()
            .map(|m| self.fill(m))
            .filter(|m| !super::facts::settles(m, &said))
            .collect()
    }

    /// The request's figures with the word each counts ("40 people", "£50 budget").
    pub fn figures(&self) -> Vec<String> {
        super::facts::figures(&self.input.request)
    }

    /// A template with its slots filled from the request and the answer (see [`Ctx::slot`]).
    pub fn fill(&self, template: &str) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let Some(len) = rest[open..].find('}') else {
                break;
            };
            out.push_str(&rest[..open]);
            let inner = &rest[open + 1..open + len];
            let (key, fallback) = inner.split_once('|').unwrap_or((inner, ""));
            match self.slot(key) {
                Some(v) => out.push_str(&v),
                None if key == "subject" || key == "Subject" => out.push_str(&self.subject),
                None => out.push_str(fallback),
            }
            rest = &rest[open + len + 1..];
        }
        out.push_str(rest);
        out
    }

    /// The chair's one question: it asks only for what the request has not already said (an
    /// event's date, place, cost and helpers; a launch's date and budget; a workshop's audience
    /// and length; a trip's length, travellers and budget; any other project's deadline, beside
    /// what matters most; a report's readers and length; a study plan's deadline beside the
    /// weekly hours), and for what would make it a success once all of that is given.
    pub fn question(&self) -> String {
        let (lead, ask, none_left, _) = self.asks();
        let ask: Vec<&str> = ask.iter().map(|(p, _)| *p).collect();
        let ask = match ask.len() {
            0 => none_left.to_string(),
            1 => ask[0].to_string(),
            n => format!("{}, and {}", ask[..n - 1].join(", "), ask[n - 1]),
        };
        format!("{lead}: {ask}?")
    }

    /// The choices offered with [`Ctx::question`]: each answers exactly the parts the question
    /// asks (a question about who attends gets choices about who attends, not about length);
    /// when the request already said everything, choices for the question that is left.
    pub fn question_options(&self) -> Vec<String> {
        let (_, ask, _, left) = self.asks();
        if ask.is_empty() {
            return left.iter().map(|o| o.to_string()).collect();
        }
        (0..3)
            .map(|i| {
                let parts: Vec<String> = ask
                    .iter()
                    .enumerate()
                    .map(|(k, (_, options))| {
                        if k == 0 {
                            options[i].to_string()
                        } else {
                            lower_first(options[i])
                        }
                    })
                    .collect();
                parts.join(", ")
            })
            .collect()
    }

    /// What the question leads with, the parts still open (each with three choices that answer
    /// it), what to ask when none is, and the choices for that.
    #[allow(clippy::type_complexity)]
    fn asks(
        &self,
    ) -> (
        String,
        Vec<(&'static str, [&'static str; 3])>,
        &'static str,
        &'static [&'static str],
    ) {
        use topics::TopicKind as K;
        let f = &self.facts;
        type Part = (&'static str, bool, [&'static str; 3]);
        let (lead, parts, none_left, left): (String, Vec<Part>, &str, &[&str]) =
            match self.topic.kind {
                K::Event => (
                    format!("Before the team starts on {}", self.subject),
                    vec![
                        (
                            "when will it be",
                            f.when.is_some(),
                            [
                                "A Saturday afternoon next month",
                                "A weekday evening in a fortnight",
                                "A Sunday morning in the spring",
                            ],
                        ),
                        (
                            "where will it be",
                            f.place.is_some(),
                            [
                                "A free local venue",
                                "A room at the library",
                                "A friend's garden",
                            ],
                        ),
                        (
                            "what may it cost",
                            f.money.is_some(),
                            [
                                "Free to attend, no budget",
                                "A little money for supplies",
                                "A small ticket price to cover costs",
                            ],
                        ),
                        (
                            "who will help on the day",
                            f.team.is_some(),
                            [
                                "Three volunteers from the neighbourhood",
                                "Me and two friends",
                                "A small committee of helpers",
                            ],
                        ),
                    ],
                    "who signs it off, and what would make it a success",
                    &[
                        "I sign it off; success is a full room",
                        "A small committee signs it off; success is covering the costs",
                        "No sign-off needed; success is people asking for the next one",
                    ],
                ),
                K::Launch => (
                    format!("For the launch of {}", self.subject),
                    vec![
                        (
                            "what date should we plan around",
                            f.when.is_some(),
                            [
                                "Launch in six weeks",
                                "Launch in three months",
                                "No fixed date yet",
                            ],
                        ),
                        (
                            "what budget do we have",
                            f.money.is_some(),
                            ["A small budget", "A moderate budget", "No paid budget"],
                        ),
                    ],
                    "who approves the go/no-go, and what number would count as success",
                    &[
                        "I approve it; success is 500 sign-ups in the first month",
                        "The founders decide together; success is 100 paying users",
                        "The team decides; success is steady growth week on week",
                    ],
                ),
                K::Workshop => (
                    format!("Before we plan the workshop on {}", self.subject),
                    vec![
                        (
                            "who will attend",
                            f.people.is_some(),
                            [
                                "About 20 people who are new to the topic",
                                "Up to 40 people from across the organisation",
                                "A small group of 8 who know the basics",
                            ],
                        ),
                        (
                            "how long can the session be",
                            f.span.is_some(),
                            ["Half a day", "A full day", "Two hours"],
                        ),
                    ],
                    "what should people be able to do afterwards",
                    &[
                        "Use one new technique in their work the next week",
                        "Agree a shared checklist by the end of the workshop",
                        "Know where to go deeper on their own",
                    ],
                ),
                K::Trip => (
                    format!("To plan {}", self.subject),
                    vec![
                        (
                            "how many days",
                            f.span.is_some(),
                            ["Three days", "Seven days", "A long weekend"],
                        ),
                        (
                            "who is travelling",
                            f.people.is_some(),
                            ["Two adults", "A family with children", "Just me, solo"],
                        ),
                        (
                            "what budget feels right",
                            f.money.is_some(),
                            ["A mid-range budget", "A tight budget", "Comfort over cost"],
                        ),
                    ],
                    "what must the trip include, and what should it avoid",
                    &[
                        "Good food and one big sight; no long drives",
                        "A slow day of rest; no crowds",
                        "As much as we can see; no early starts",
                    ],
                ),
                K::Report => {
                    let lower = self.input.request.to_lowercase();
                    // "… for school governors": the readers are named.
                    let readers = lower.rsplit_once(" for ").is_some_and(|(_, r)| {
                        !r.trim_start().starts_with(|c: char| c.is_ascii_digit())
                    }) || f.people.is_some();
                    let length = self
                        .figures()
                        .iter()
                        .chain(&f.others)
                        .any(|x| x.contains("page"));
                    (
                        format!("To pitch the report on {} right", self.subject),
                        vec![
                            (
                                "who will read it",
                                readers,
                                [
                                    "Managers",
                                    "Specialists, with sources",
                                    "The general public, in plain language",
                                ],
                            ),
                            (
                                "how long should it be",
                                length,
                                ["Two pages", "Five to eight pages", "One page"],
                            ),
                        ],
                        "what should the reader do once they have read it",
                        &[
                            "Decide on a next step",
                            "Understand the evidence before a meeting",
                            "Pass it on to their team",
                        ],
                    )
                }
                K::StudyPlan => (
                    format!("To shape the study plan for {}", self.subject),
                    vec![
                        (
                            "when is the deadline",
                            f.when.is_some() || f.span.is_some(),
                            [
                                "Eight weeks from now",
                                "Three months from now",
                                "No deadline",
                            ],
                        ),
                        (
                            "how much time per week do you have",
                            false,
                            [
                                "About 5 hours a week",
                                "About 10 hours a week",
                                "2–3 hours a week",
                            ],
                        ),
                    ],
                    "",
                    &[],
                ),
                K::Generic => (
                    format!("Before the team starts on {}", self.subject),
                    vec![
                        (
                            "what matters most",
                            false,
                            [
                                "Speed: a usable first version",
                                "Quality: get it right",
                                "Cost: the cheapest workable approach",
                            ],
                        ),
                        (
                            "by when",
                            f.when.is_some() || f.span.is_some(),
                            ["In two weeks", "Within a month", "No fixed deadline"],
                        ),
                    ],
                    "",
                    &[],
                ),
            };
        let ask = parts
            .into_iter()
            .filter(|(_, known, _)| !known)
            .map(|(p, _, options)| (p, options))
            .collect();
        (lead, ask, none_left, left)
    }

    /// The value of one slot, `None` when the request and the answer leave it open (the
    /// template's fallback is used then). A capital first letter capitalises the value:
    /// `{people|participants}` is "the 40 people" or "participants", `{People|…}` "The 40 people".
    pub fn slot(&self, key: &str) -> Option<String> {
        let f = &self.facts;
        let value = match key.to_lowercase().as_str() {
            "subject" => Some(self.subject.clone()),
            "thing" => Some(self.thing()),
            "people" => f.people.as_ref().map(|p| format!("the {p}")),
            "budget" => f.money.as_ref().map(|m| format!("the {m} budget")),
            "money" => f.money.clone(),
            "when" => f.when.clone(),
            "span" => f.span.as_ref().map(|s| format!("the {s}")),
            "place" => f.place.clone(),
            "team" => f.team.as_ref().map(|t| format!("the {t}")),
            _ => None,
        }?;
        Some(if key.starts_with(char::is_uppercase) {
            upper_first(&value)
        } else {
            value
        })
    }

    /// The thing the request is about in a few words, with "the": "the book swap" of "a book
    /// swap in the village hall for 40 people", "data privacy" of "data privacy for nurses".
    pub fn thing(&self) -> String {
        let words: Vec<&str> = self.subject.split_whitespace().collect();
        let stop = words
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, w)| {
                [
                    "in", "for", "with", "at", "on", "by", "from", "to", "of", "about",
                ]
                .contains(&w.to_lowercase().as_str())
                    || w.chars().any(|c| c.is_ascii_digit())
            })
            .map_or(words.len(), |(i, _)| i);
        let head = words[..stop].join(" ");
        let head = head.trim_end_matches([',', '.', ';', ':']);
        match head.split_once(' ') {
            Some((a, rest)) if ["a", "an", "our", "my"].contains(&a.to_lowercase().as_str()) => {
                format!("the {rest}")
            }
            _ => head.to_string(),
        }
    }

    /// A template bullet made about this request: its slots filled from the request and the
    /// answer, and nothing else added — the request's words go only where the template has a slot
    /// for them, never stuck onto a line about something else ("name tags for data privacy").
    fn tie(&self, bullet: &str) -> String {
        self.fill(bullet)
    }

    /// The template a product was made from, matched by name.
    pub fn template_for(&self, product: &DemoProduct) -> Option<&'static ProductTemplate> {
        self.topic
            .products
            .iter()
            .chain(std::iter::once(&self.topic.extra))
            .find(|t| t.name.eq_ignore_ascii_case(product.name.trim()))
    }

    /// The sections of a product as (heading, bullets), from its template or its name and DoD.
    pub fn sections_for(&self, product: &DemoProduct) -> Vec<(String, Vec<String>)> {
        if let Some(t) = self.template_for(product) {
            return t
                .sections
                .iter()
                .map(|s| {
                    (
                        s.heading.to_string(),
                        s.bullets().map(|b| self.tie(b)).collect(),
                    )
                })
                .collect();
        }
        let name = cut_at_word(product.name.trim(), 80);
        let dod = cut_at_word(product.dod.trim(), 160);
        vec![
            (
                "Purpose".to_string(),
                vec![
                    format!("What {name} adds to the {}.", self.work()),
                    if dod.is_empty() {
                        "Done when the team agrees it answers the request.".to_string()
                    } else {
                        format!("Done when: {dod}")
                    },
                    "Who uses it, and at which moment.".to_string(),
                ],
            ),
            (
                "Main points".to_string(),
                vec![
                    format!("The three points of {name} that matter most, most important first."),
                    format!("A concrete example tied to {}.", self.subject),
                    "An owner and a date wherever an action is named.".to_string(),
                ],
            ),
            (
                "Links".to_string(),
                vec![
                    "How it fits with the other products of the plan.".to_string(),
                    "Assumptions to confirm with the person.".to_string(),
                ],
            ),
        ]
    }

    /// The Markdown of version `number` (1-based) of a product, taking in `feedback` for revisions.
    pub fn render_version(
        &mut self,
        product: &DemoProduct,
        number: usize,
        feedback: &[&DemoCollab],
    ) -> String {
        let mut out = format!("# {}\n\n", product.name.trim());
        if number <= 1 {
            out.push_str(&format!("_First draft for the {}._\n", self.work()));
        } else {
            out.push_str(&format!(
                "_Revision {number} – updated after the team's review._\n"
            ));
        }
        // What the person said, in their own words and whole: every product answers it.
        out.push_str("\n## What the person asked\n");
        out.push_str(&format!(
            "- {}\n",
            quote(
                &self
                    .input
                    .request
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        ));
        let figures = self.figures();
        if !figures.is_empty() {
            out.push_str(&format!("- Figures to keep: {}.\n", figures.join(" · ")));
        }
        let settled = self.settled();
        if !settled.is_empty() {
            out.push_str("\n## Settled with the person\n");
            for item in &settled {
                out.push_str(&format!("- {item}\n"));
            }
        }
        for (heading, bullets) in self.sections_for(product) {
            out.push_str(&format!("\n## {heading}\n"));
            let keep = if number <= 1 && bullets.len() > 2 {
                bullets.len() - 1
            } else {
                bullets.len()
            };
            for b in &bullets[..keep] {
                out.push_str(&format!("- {b}\n"));
            }
        }
        // A revision gives each section the owner and the date its definition of done asks for;
        // a first draft leaves them out, and the chair sends it back for them.
        let (owner, date) = dod_asks(&product.dod);
        if number > 1 && (owner || date) {
            out.push_str(&format!("\n## {OWNERS_HEADING}\n"));
            let names = self.input.writer_names();
            let due = match &self.facts.when {
                Some(w) => format!("due by {w}"),
                None => "due before the final review".to_string(),
            };
            for (k, (heading, _)) in self.sections_for(product).iter().enumerate() {
                let who = names
                    .get(k % names.len().max(1))
                    .map(|n| format!("owner {n}"));
                let parts: Vec<String> = [who.filter(|_| owner), date.then(|| due.clone())]
                    .into_iter()
                    .flatten()
                    .collect();
                out.push_str(&format!("- {heading}: {}.\n", parts.join(", ")));
            }
        }
        if number <= 1 {
            out.push_str("\n## Open points\n");
            let open = self.open_points();
            if open.is_empty() {
                out.push_str("- None: the person settled what this plan needs.\n");
            } else {
                let first = self.rng.below(open.len());
                for k in 0..2.min(open.len()) {
                    let m = &open[(first + k) % open.len()];
                    out.push_str(&format!("- {m} – to confirm with the person.\n"));
                }
            }
        } else {
            out.push_str("\n## Changes in this version\n");
            // An endorsement asks for no change: only the points that did are "taken in".
            for c in feedback
                .iter()
                .filter(|c| c.collab_type != crate::wire::CollabType::Endorsement)
                .take(3)
            {
                out.push_str(&format!(
                    "- Took in {}'s point: {}\n",
                    self.input.name_of(&c.author),
                    quote(&c.summary)
                ));
            }
            out.push_str(&format!(
                "- Filled the sections of the {} left open in the draft.\n",
                self.work()
            ));
            let kept = self.facts.all();
            if kept.is_empty() {
                out.push_str("- Checked every section against the definition of done.\n");
            } else {
                out.push_str(&format!(
                    "- Checked every section against the definition of done and what was fixed: {}.\n",
                    kept.join(" · ")
                ));
            }
        }
        out
    }

    /// The first heading of a product, for reviews that point at a section.
    pub fn some_heading(&mut self, product: &DemoProduct) -> String {
        let sections = self.sections_for(product);
        let i = self.rng.below(sections.len());
        sections
            .into_iter()
            .nth(i)
            .map(|(h, _)| h)
            .unwrap_or_else(|| "Main points".to_string())
    }

    /// The name of a product by id, or the id itself.
    pub fn product_name(&self, id: &str) -> String {
        self.input
            .product(id)
            .map(|p| p.name.trim().to_string())
            .unwrap_or_else(|| id.to_string())
    }

    /// Another writable product with a version, not `id`, to point at for consistency.
    pub fn neighbour_of(&mut self, id: &str) -> Option<&'a DemoProduct> {
        let others: Vec<&'a DemoProduct> = self
            .input
            .products
            .iter()
            .filter(|p| p.id != id && p.is_writable())
            .collect();
        if others.is_empty() {
            None
        } else {
            Some(others[self.rng.below(others.len())])
        }
    }
}

/// The heading of the section in which a revision names each section's owner and date.
pub(crate) const OWNERS_HEADING: &str = "Owners and dates";

/// What a definition of done asks each item to carry that a version can be checked for: (an
/// owner, a date). "…, each with an owner and a date" asks both; "a check-in date" a date.
pub(crate) fn dod_asks(dod: &str) -> (bool, bool) {
    let l = dod.to_lowercase();
    (
        l.contains("owner"),
        l.contains(" date") || l.contains("deadline"),
    )
}

/// What a version still lacks against its definition of done, in words for the writer: `None`
/// when the DoD asks for no owner or date, or when the version's owners section gives them.
pub(crate) fn dod_gap(dod: &str, content: &str) -> Option<String> {
    let (owner, date) = dod_asks(dod);
    if !owner && !date {
        return None;
    }
    let mut in_owners = false;
    let mut lines = Vec::new();
    for line in content.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            in_owners = h.trim() == OWNERS_HEADING;
        } else if in_owners {
            if let Some(b) = line.strip_prefix("- ") {
                lines.push(b);
            }
        }
    }
    let has_owner = !lines.is_empty() && lines.iter().all(|l| l.contains("owner "));
    let has_date = !lines.is_empty() && lines.iter().all(|l| l.contains("due "));
    let what = match (owner && !has_owner, date && !has_date) {
        (true, true) => "an owner and a date",
        (true, false) => "an owner",
        (false, true) => "a date",
        (false, false) => return None,
    };
    Some(format!(
        "Its definition of done asks for {what} for each item, and this version does not give them yet."
    ))
}

/// A text in quotes: whole when it is short enough to read in a line or two, else cut at a
/// word with an ellipsis — never mid-word, never silently.
pub(crate) fn quote(summary: &str) -> String {
    let s = summary.trim().trim_end_matches('.');
    format!("“{}”", clip(s, 240))
}

/// Text cut to at most `max` chars at a word, with an ellipsis when cut.
pub(crate) fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let head = cut_at_word(text, max.saturating_sub(1));
    format!("{head}…")
}

/// The text with its first letter in lower case, to continue a list ("Half a day, about 20
/// people").
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The text with its first letter in upper case.
fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
