//! What waits for the person: the questions and approvals members put to them.
//!
//! A kind turns its own wire form of "ask the person" into a [`PersonAsk`] when it judges an
//! answer ([`super::Judgement::Ask`]); the engine keeps every open one (several members of a step
//! may each ask, so they wait side by side, oldest first) and the session waits while any is
//! open. The person's word comes back as a [`PersonReply`]: free text or one of the options for a
//! question, approve / reject / revise with a note for an approval. Neither names a kind: who may
//! ask, and what an answer changes, is the kind's business.

use serde::{Deserialize, Serialize};

/// Something a member put to the person, which waits for their word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum PersonAsk {
    /// A question: the person answers in their own words or picks one of the options.
    Question {
        /// Who the member addressed (the person's ids as the kind spells them).
        #[serde(default)]
        to: Vec<String>,
        /// What the person reads (Markdown).
        message: String,
        /// Choices offered; the person may still answer freely.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<Vec<String>>,
    },
    /// A request for approval of a piece of work: approve, reject, or ask for a revision with a
    /// note.
    Approval {
        /// Who the member addressed.
        #[serde(default)]
        to: Vec<String>,
        /// What the person is asked to approve (Markdown).
        message: String,
    },
}

crate::tagged::tagged!([] PersonAsk, tag = "type");

impl PersonAsk {
    /// What the person reads.
    pub fn message(&self) -> &str {
        match self {
            PersonAsk::Question { message, .. } | PersonAsk::Approval { message, .. } => message,
        }
    }

    /// The choices a question offers (none for an approval: its three answers are fixed).
    pub fn options(&self) -> &[String] {
        match self {
            PersonAsk::Question {
                options: Some(o), ..
            } => o,
            _ => &[],
        }
    }

    /// Whether this waits for approve / reject / revise rather than an answer in words.
    pub fn is_approval(&self) -> bool {
        matches!(self, PersonAsk::Approval { .. })
    }

    /// "question" or "approval", for the transcript.
    pub fn word(&self) -> &'static str {
        match self {
            PersonAsk::Question { .. } => "question",
            PersonAsk::Approval { .. } => "approval",
        }
    }
}

/// The person's decision on an approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The work is approved as it stands.
    Approve,
    /// The work is rejected.
    Reject,
    /// The work goes back for a revision (the note says what to change).
    Revise,
}

impl Verdict {
    /// The verdict in words ("approved it").
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Approve => "approved it",
            Verdict::Reject => "rejected it",
            Verdict::Revise => "asked for a revision",
        }
    }
}

/// The person's word on one open [`PersonAsk`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonReply {
    /// The answer to a question, or the note that goes with a verdict (may be empty for approve).
    pub text: String,
    /// For an approval: what the person decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

impl PersonReply {
    /// An answer to a question.
    pub fn answer(text: impl Into<String>) -> Self {
        PersonReply {
            text: text.into(),
            verdict: None,
        }
    }

    /// A verdict on an approval, with its note.
    pub fn verdict(verdict: Verdict, note: impl Into<String>) -> Self {
        PersonReply {
            text: note.into(),
            verdict: Some(verdict),
        }
    }

    /// What is wrong with this reply to `ask`, if anything: an approval needs a verdict (and a
    /// revision a note), a question takes none.
    pub fn problem(&self, ask: &PersonAsk) -> Option<&'static str> {
        match (ask, self.verdict) {
            (PersonAsk::Question { .. }, Some(_)) => {
                Some("a question is answered in words, not with a verdict")
            }
            (PersonAsk::Question { .. }, None) if self.text.trim().is_empty() => {
                Some("the answer is empty")
            }
            (PersonAsk::Approval { .. }, None) => {
                Some("an approval needs a verdict: approve, reject or revise")
            }
            (PersonAsk::Approval { .. }, Some(Verdict::Revise)) if self.text.trim().is_empty() => {
                Some("a revision needs a note saying what to change")
            }
            _ => None,
        }
    }

    /// The reply in words, as the member's next prompt and the transcript quote it.
    pub fn words(&self) -> String {
        match self.verdict {
            None => self.text.clone(),
            Some(v) if self.text.trim().is_empty() => format!("The person {}.", v.word()),
            Some(v) => format!("The person {}: {}", v.word(), self.text.trim()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_of_an_older_file_reads_as_a_question() {
        let old = r#"{"type":"question","to":["user-1"],"message":"Which city?","options":["Paris","Oslo"]}"#;
        let ask: PersonAsk = serde_json::from_str(old).unwrap();
        assert_eq!(ask.options(), ["Paris", "Oslo"]);
        assert_eq!(serde_json::to_string(&ask).unwrap(), old);
    }

    #[test]
    fn a_reply_must_fit_what_was_asked() {
        let q = PersonAsk::Question {
            to: vec![],
            message: "Which?".into(),
            options: None,
        };
        let a = PersonAsk::Approval {
            to: vec![],
            message: "Ship it?".into(),
        };
        assert_eq!(PersonReply::answer("Oslo").problem(&q), None);
        assert!(PersonReply::answer(" ").problem(&q).is_some());
        assert!(PersonReply::verdict(Verdict::Approve, "")
            .problem(&q)
            .is_some());
        assert!(PersonReply::answer("yes").problem(&a).is_some());
        assert_eq!(PersonReply::verdict(Verdict::Approve, "").problem(&a), None);
        assert!(PersonReply::verdict(Verdict::Revise, "")
            .problem(&a)
            .is_some());
        assert_eq!(
            PersonReply::verdict(Verdict::Revise, "shorter intro").words(),
            "The person asked for a revision: shorter intro"
        );
    }
}
